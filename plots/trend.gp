# One series of a suite's nights, a small multiple of the trend page:
# each night's median with a bar from min to max, the baseline night's
# band shaded, flagged nights marked, change points as dashed lines.
# Hovering a night shows its revision, kernel and date (gnuplot's own
# hypertext, in the SVG's standalone script).
#   datafile  night  median  min  max  regression  not-confirmed  "hover"
#             (the flag columns hold the median on a flagged night, else NaN)
#   names     the change points, as night numbers between two nights (5.5)
#   unavail   "LO HI" the baseline's band, or empty
if (fmt eq "svg") {
    set terminal svg size 440,270 dynamic mouse standalone enhanced font "sans,9" background rgb "white"
} else {
    set terminal pngcairo size 440,270 enhanced font "sans,8" background rgb "white"
}
set output outfile.".".fmt
set title title noenhanced
set xlabel "night"
set grid
set key off
set datafile missing "NaN"
set offsets 0.5, 0.5, graph 0.1, 0
if (strlen(unavail) > 0) {
    set object 1 rect from graph 0, first real(word(unavail, 1)) to graph 1, first real(word(unavail, 2)) \
        behind fillcolor rgb "#d8e6f7" fillstyle solid 1.0 noborder
}
do for [i=1:words(names)] {
    set arrow i from first real(word(names, i)), graph 0 to first real(word(names, i)), graph 1 \
        nohead dashtype 2 linewidth 2 linecolor rgb "#c0392b"
}
stats datafile using 1 nooutput
set format x "%.0f"
if (STATS_max <= 20) { set xtics 1 }
# the hover layer: invisible points over the nights, in the SVG alone
hover = (fmt eq "svg") ? 1 : 0
plot datafile using 1:2:3:4 with yerrorlines linecolor rgb "#2c5d8f" pointtype 7 pointsize 0.6, \
     '' using 1:5 with points pointtype 9 pointsize 1.8 linecolor rgb "#c0392b", \
     '' using 1:6 with points pointtype 8 pointsize 1.8 linecolor rgb "#e39b17", \
     '' using 1:(hover ? $2 : NaN):7 with labels hypertext point pointtype 7 pointsize 1.4 linecolor rgb "#ffffffff"
