# A comparison at one users count: the runs side by side, each its mean
# with a bar from min to max. A users axis would have one tick at that
# count and nothing to read along it.
#   names     the runs' labels, in block order
#   unavail   here the users count, for the axis's label
load plotdir."/common.gp"
unset logscale x
set xlabel sprintf("at %s users", unavail) noenhanced
set xrange [-0.5:words(names) - 0.5]
set offsets 0, 0, graph 0.15, 0
set yrange [0:*]
set key top left
plot for [i=0:words(names)-1] datafile index i using (i):2:3:4:xtic(word(names, i + 1)) \
     with yerrorbars title word(names, i + 1) lw 2 pt 7 ps 1.6 lc (i + 1)
