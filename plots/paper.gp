# ./run.sh paper's figure: the 2010 crossover on the engine, one line per
# design. Left: jobs/min per user against users, AIM7's line at 10, each
# design's crossover marked, and the published 9.7k (2.6.33) and 29.7k
# (anon_vma_chain) as labelled reference marks. Middle: system and iowait
# time against users. Right: the measured point nearest each crossing
# over its own (simulated) time, as vmstat would have shown it: a point's
# shares above are its averages. Set by figure.gp from the harness's
# arguments:
#   datafile  a path prefix: PREFIX-METRIC.tsv, a block per design, and
#             PREFIX-timeline.tsv
#   names     the designs' labels
#   unavail   here the marks: each design's crossover in users (0: none),
#             then the users of each design's point nearest it
marks = unavail
nd = words(names)
if (fmt eq "svg") {
    set terminal svg size 2100,620 dynamic enhanced font "sans,11" background rgb "white"
} else {
    set terminal pngcairo size 2100,620 enhanced font "sans,10" background rgb "white"
}
set output outfile.".".fmt
set grid
set style data yerrorlines
set xlabel "users (simulated)"
set format x "%.0s%c"
set multiplot layout 1,3 title title noenhanced font ",13"

set title "AIM7 crossover: jobs/min per user" noenhanced
set ylabel "jobs/min per user (log)"
set logscale y
set key at graph 0.75, graph 0.82 right noenhanced opaque box
# a design's crossover label stays readable over the lines it crosses
set style textbox opaque noborder
f = datafile."-jobs_per_min_per_user.tsv"
stats f using 2 nooutput
set yrange [(STATS_min < 10 ? STATS_min / 2 : 3):*]
set arrow 10 from 9700, graph 0 to 9700, graph 1 nohead lw 6 lc rgb "#c8c8c8" back
set label 10 "2010: 2.6.33 at 9.7k" at 9700, graph 0.97 left offset 0.5,0 tc rgb "#808080" noenhanced
set arrow 11 from 29700, graph 0 to 29700, graph 1 nohead lw 6 lc rgb "#c8c8c8" back
set label 11 "2010: anon_vma_chain at 29.7k" at 29700, graph 0.91 right offset -0.5,0 tc rgb "#808080" noenhanced
do for [i=1:words(names)] {
    x = real(word(marks, i))
    if (x > 0) {
        set arrow i from x, graph 0 to x, graph 1 nohead dt 3 lw 2 lc i
        set label i+1 sprintf("%s: %.0f", word(names, i), x) at x, graph (0.04 + 0.06 * i) left offset 0.5,0 tc lt i noenhanced front boxed
    }
}
plot for [i=0:words(names)-1] f index i using 1:2:3:4 title word(names, i+1) lw 2 pt 7 lc (i + 1), \
     10 title "crossover line (10)" with lines lw 1 dt 2 lc rgb "#cc0000"

unset arrow
unset label
unset logscale y
set yrange [0:100]
set title "where the time goes" noenhanced
set ylabel "% of CPU time"
set key below horizontal maxrows 2 noenhanced
set bmargin 7
g = datafile."-sys_pct.tsv"
h = datafile."-iowait_pct.tsv"
plot for [i=0:words(names)-1] g index i using 1:2 title word(names, i+1)." system" with linespoints lw 2 pt 7 lc (i + 1), \
     for [i=0:words(names)-1] h index i using 1:2 title word(names, i+1)." iowait" with linespoints lw 2 dt 2 pt 6 lc (i + 1)

set title "the point nearest each crossing, over its time" noenhanced
set xlabel "time in the point (simulated seconds)"
set format x "%g"
set xrange [0:*]
t = datafile."-timeline.tsv"
plot for [i=0:nd-1] t index i using 1:2 title sprintf("%s, %s users: system", word(names, i+1), word(marks, nd+i+1)) \
         with lines lw 2 lc (i + 1), \
     for [i=0:nd-1] t index i using 1:3 title sprintf("%s, %s users: iowait", word(names, i+1), word(marks, nd+i+1)) \
         with lines lw 2 dt 2 lc (i + 1)
unset multiplot
