# The harness's one way in: every value arrives as an argument, never as
# gnuplot text, so no path, name or reason can run anything.
#   gnuplot -c figure.gp SCRIPT PLOTDIR DATAFILE OUTFILE FMT NAMES TITLE LOGX UNAVAIL
# DATAFILE and OUTFILE are absolute paths: a leading '<' or '|' would make
# gnuplot run them as commands.
script = ARG1
plotdir = ARG2
datafile = ARG3
outfile = ARG4
fmt = ARG5
names = ARG6
title = ARG7
logx = ARG8 + 0
unavail = ARG9
load plotdir."/".script.".gp"
