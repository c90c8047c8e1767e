# rmap_vmas_per_walk against users: VMAs an anon rmap walk visits, counted
# by kprobes in a guest or by the engine (walkcost: against N children).
# O(N) with one anon_vma per fork family (2.6.33, legacy-anon-vma); flat and
# of order 1 with the anon_vma_chain.
load plotdir."/common.gp"
set ylabel "VMAs visited per rmap walk" noenhanced
set yrange [0:*]
# a log axis once the designs differ by orders (legacy's N+1 against 2)
if (strlen(unavail) == 0) {
    stats datafile using 2 nooutput
    if (STATS_min > 0 && STATS_max / STATS_min >= 20) { set logscale y; set yrange [*:*] }
}
if (strlen(unavail) > 0) {
    set label 1 "unavailable: ".unavail at graph 0.5, graph 0.5 center noenhanced
    set xrange [1:10]
    set yrange [0:1]
    plot -1 notitle
} else {
    plot for [i=0:words(names)-1] datafile index i using 1:2:3:4 title word(names, i+1) lw 2 pt 7
}
