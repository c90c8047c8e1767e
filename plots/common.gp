# Shared by every figure. Set by figure.gp from the harness's arguments:
#   datafile  TSV blocks, one per workload: users mean min max n
#   outfile   without extension; fmt png or svg
#   names     the workloads, space-separated, in block order
#   title     the figure's title; logx 1 for a log users axis
#   unavail   non-empty when the metric could not be measured: the reason
if (fmt eq "svg") {
    set terminal svg size 860,520 dynamic enhanced font "sans,11" background rgb "white"
} else {
    set terminal pngcairo size 860,520 enhanced font "sans,10" background rgb "white"
}
set output outfile.".".fmt
set title title noenhanced
set xlabel "users"
set grid
set key top left noenhanced opaque box
if (logx) { set logscale x }
set style data yerrorlines
