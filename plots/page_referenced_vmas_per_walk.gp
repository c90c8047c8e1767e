# page_referenced_vmas_per_walk against children: VMAs reclaim's walk visits
# before it has found the page's last mapping (the engine's walkcost).
# (N+2)/2 on legacy, 1 on the chain designs.
load plotdir."/common.gp"
set ylabel "VMAs page_referenced visits per walk" noenhanced
set yrange [0:*]
# a log axis once the designs differ by orders (legacy's N+1 against 2)
if (strlen(unavail) == 0) {
    stats datafile using 2 nooutput
    if (STATS_min > 0 && STATS_max / STATS_min >= 20) { set logscale y; set yrange [*:*] }
}
plot for [i=0:words(names)-1] datafile index i using 1:2:3:4 title word(names, i+1) lw 2 pt 7
