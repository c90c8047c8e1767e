# A metric along a bisect's steps: GOOD first, then each commit tried, in
# the tree's order; the mean over the repetitions with bars from min to
# max. names: the commits' short hashes in that order; unavail: where the
# first bad commit is (its place from 0), empty when none was named.
load plotdir."/common.gp"
set xlabel "commit (GOOD first, then each step tried, in the tree's order)"
set key top left
set xtics rotate by -25
set xtics ()
do for [i = 0:words(names) - 1] {
    set xtics add (word(names, i + 1) i)
}
set xrange [-0.5:words(names) - 0.5]
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
if (unavail ne "") {
    set arrow from unavail + 0, graph 0 to unavail + 0, graph 1 nohead dt 2 lw 2 lc rgb "#d62728"
    set label "first bad" at unavail + 0, graph 0.45 offset 1, 0 tc rgb "#d62728"
}
plot datafile using 1:2:3:4 with yerrorlines title "mean over the repetitions, min to max" lw 2 pt 7
