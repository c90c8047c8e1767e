# Any metric against users, for metrics without a figure of their own (the
# title names the metric): mean of the repetitions, bars from min to max.
load plotdir."/common.gp"
set yrange [0:*]
plot for [i=0:words(names)-1] datafile index i using 1:2:3:4 title word(names, i+1) lw 2 pt 7
