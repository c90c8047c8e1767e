# lockstat_anon_vma_contentions against users: the anon_vma lock alone, as
# /proc/lock_stat counts it in a guest built with CONFIG_LOCK_STAT, or as
# the engine's virtual time does (a CPU that found it held). A kernel
# without lock_stat (this host's) leaves the panel saying why.
load plotdir."/common.gp"
set ylabel "anon_vma lock contentions (lock_stat)" noenhanced
set yrange [0:*]
if (strlen(unavail) > 0) {
    set label 1 "unavailable: ".unavail at graph 0.5, graph 0.5 center noenhanced
    set xrange [1:10]
    set yrange [0:1]
    plot -1 notitle
} else {
    plot for [i=0:words(names)-1] datafile index i using 1:2:3:4 title word(names, i+1) lw 2 pt 7
}
