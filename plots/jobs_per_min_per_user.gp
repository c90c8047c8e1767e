# AIM7's crossover figure: jobs/min per user against users, with re-aim-7's
# -x line at 10. Where a design's line crosses it is its crossover (2.6.33
# near 9.7k users in 2010, the anon_vma_chain near 29.7k).
load plotdir."/common.gp"
set ylabel "jobs/min per user" noenhanced
set logscale y
if (strlen(unavail) > 0) {
    unset logscale y
    set label 1 "unavailable: ".unavail at graph 0.5, graph 0.5 center noenhanced
    set xrange [1:10]
    set yrange [0:1]
    plot -1 notitle
} else {
    stats datafile using 2 nooutput
    set yrange [(STATS_min < 10 ? STATS_min / 2 : 3):*]   # the line at 10 stays in view
    plot for [i=0:words(names)-1] datafile index i using 1:2:3:4 title word(names, i+1) lw 2 pt 7, \
         10 title "crossover (10)" with lines lw 1 dt 2 lc rgb "#cc0000"
}
