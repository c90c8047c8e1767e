# A replayed trace on the designs side by side: for each design, the VMAs
# an rmap walk visits at the trace's peak (rmap_walk_full: every vma that
# may map the page; page_referenced: stopping at its last mapping), on a
# log axis, the value written on each bar. datafile: place, walk,
# referenced; names: the designs in that order.
load plotdir."/common.gp"
set xlabel "design (the kernel release it follows)"
set ylabel "VMAs visited per walk, at the peak"
set logscale y
set yrange [0.5:*]
set key top right
set style fill solid 0.85 border -1
set boxwidth 0.38
set xtics ()
do for [i = 0:words(names) - 1] {
    set xtics add (word(names, i + 1) i)
}
set xrange [-0.6:words(names) - 0.4]
set grid ytics
unset grid
set grid ytics
plot datafile using ($1 - 0.2):2 with boxes lc rgb "#1f77b4" title "rmap walk (every vma that may map the page)", \
     "" using ($1 - 0.2):2:(sprintf("%.3g", $2)) with labels offset 0, 0.7 notitle, \
     "" using ($1 + 0.2):3 with boxes lc rgb "#ff7f0e" title "page_referenced (stops at the last mapping)" noenhanced, \
     "" using ($1 + 0.2):3:(sprintf("%.3g", $3)) with labels offset 0, 0.7 notitle
