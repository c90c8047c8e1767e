# jobs_per_min against users: mean of the repetitions, bars from min to max.
load plotdir."/common.gp"
set ylabel "jobs/min (AIM7 JPM = jobs x users / wall s x 60)" noenhanced
set yrange [0:*]
if (strlen(unavail) > 0) {
    set label 1 "unavailable: ".unavail at graph 0.5, graph 0.5 center noenhanced
    set xrange [1:10]
    set yrange [0:1]
    plot -1 notitle
} else {
    plot for [i=0:words(names)-1] datafile index i using 1:2:3:4 title word(names, i+1) lw 2 pt 7
}
