# compare-kernels' crossover figure: two kernels (or designs) side by side,
# six panels against users. Left to right, top to bottom: jobs/min per user
# with AIM7's line at 10 and each side's crossover marked; jobs/min; system
# time; VMAs per rmap walk; anon_vma lock contentions and wait (lock_stat).
# Set by figure.gp from the harness's arguments:
#   datafile  a path prefix: PREFIX-METRIC.tsv per panel, a block per side
#   names     the two sides' labels
#   unavail   here the marks: "X1 X2 MASK SINGLE": each side's crossover in
#             users (0: not reached), a bit per panel with data (1 << panel),
#             and the users count when there is only one (else 0): then
#             each panel shows the two sides side by side, no users axis
marks = unavail
x1 = real(word(marks, 1))
x2 = real(word(marks, 2))
mask = int(word(marks, 3))
single = words(marks) >= 4 ? int(word(marks, 4)) : 0
if (fmt eq "svg") {
    set terminal svg size 1500,900 dynamic enhanced font "sans,11" background rgb "white"
} else {
    set terminal pngcairo size 1500,900 enhanced font "sans,10" background rgb "white"
}
set output outfile.".".fmt
set grid
set key top left noenhanced opaque box
set style data yerrorlines
if (logx) { set logscale x }
set xlabel "users"
set multiplot layout 2,3 title title noenhanced font ",13"
array file[6] = ["jobs_per_min_per_user", "jobs_per_min", "sys_pct", "rmap_vmas_per_walk", \
                 "lockstat_anon_vma_contentions", "lockstat_anon_vma_wait_ns"]
array ylab[6] = ["jobs/min per user (log)", "jobs/min", "system time (%)", "VMAs visited per rmap walk", \
                 "anon_vma lock contentions (lock_stat)", "anon_vma lock wait (s, lock_stat)"]
array ttl[6] = ["AIM7 crossover: jobs/min per user", "throughput", "system time", "VMAs per rmap walk", \
                "anon_vma lock contentions", "anon_vma lock wait"]
array scale[6] = [1, 1, 1, 1, 1, 1e-9]
do for [p=1:6] {
    set title ttl[p] noenhanced
    set ylabel ylab[p] noenhanced
    unset label
    unset arrow
    unset logscale y
    set yrange [0:*]
    f = datafile."-".file[p].".tsv"
    if ((mask & (1 << (p - 1))) == 0) {
        set label 1 "not measured" at graph 0.5, graph 0.5 center
        set xrange [1:10]
        set yrange [0:1]
        unset key
        set format x ""
        set xlabel ""
        plot -1 notitle
        set format x "% h"
        set xlabel "users"
        set xrange [*:*]
    } else {
        if (single > 0) {
            unset logscale x
            if (p == 1) { set ylabel "jobs/min per user" }
            set xlabel sprintf("at %d users", single)
            set xrange [-0.5:words(names) - 0.5]
            set offsets 0, 0, graph 0.25, 0
            set key top left
            if (p == 3) { set yrange [0:100] }
            s = scale[p]
            plot for [i=0:words(names)-1] f index i using (i):($2*s):($3*s):($4*s):xtic(word(names, i + 1)) \
                 with yerrorbars title word(names, i+1) lw 2 pt 7 ps 1.6 lc (i + 1)
            set xrange [*:*]
            set xlabel "users"
            if (logx) { set logscale x }
        } else {
        if (p == 1) {
            set offsets 0, 0, 0, 0
            set key top right
            set logscale y
            stats f using 2 nooutput
            set yrange [(STATS_min < 10 ? STATS_min / 2 : 3):*]   # the line at 10 stays in view
            # each crossing is a dotted line, named in the legend (a label
            # beside it would sit on the other side's points)
            if (x1 > 0) {
                set arrow 1 from x1, graph 0 to x1, graph 1 nohead dt 3 lw 2 lc 1
            }
            if (x2 > 0) {
                set arrow 2 from x2, graph 0 to x2, graph 1 nohead dt 3 lw 2 lc 2
            }
            t1 = x1 > 0 ? sprintf("%s crosses at %.0f users", word(names, 1), x1) : ""
            t2 = x2 > 0 ? sprintf("%s crosses at %.0f users", word(names, 2), x2) : ""
            plot for [i=0:words(names)-1] f index i using 1:2:3:4 title word(names, i+1) lw 2 pt 7 lc (i + 1), \
                 10 title "crossover line (10)" with lines lw 1 dt 2 lc rgb "#cc0000", \
                 NaN title t1 with lines dt 3 lw 2 lc 1, \
                 NaN title t2 with lines dt 3 lw 2 lc 2
        } else {
            # headroom above the data, so the legend in the top left
            # corner never sits on a line that starts high
            set offsets 0, 0, graph 0.25, 0
            set key top left
            if (p == 3) {
                # a percentage: its axis ends at 100, its lines run high
                set yrange [0:100]
                set key bottom right
            }
            s = scale[p]
            plot for [i=0:words(names)-1] f index i using 1:($2*s):($3*s):($4*s) title word(names, i+1) lw 2 pt 7 lc (i + 1)
        }
        }
    }
}
unset multiplot
