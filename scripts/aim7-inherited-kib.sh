#!/usr/bin/env bash
# What an AIM7 child holds of the memory it inherited (bss, data, heap:
# under 2.6.33, pages in the family's anon_vmas), averaged over its life:
# the users' memory of configs/paper-2010.conf.
#   scripts/aim7-inherited-kib.sh [JOBS]   (default 100, AIM7's -j)
# Each job is a test drawn by workfile.shared's hits (780 in all); the
# KiB each test leaves written are the README's table, read from
# re-aim-7's sources. Static arrays stay written once written. The heap
# keeps the most any one test used there (each frees all before the
# next), but only once sieve has run: its first 1,000,000-byte table is
# mmapped, and freeing it raises glibc's mmap and trim thresholds, so
# from then on the heap is kept, and from sieve's second run it holds
# sieve's table. Before that, "trim" gives the heap back (glibc trims a
# free top over 128 KiB) and "keep" does not (an upper bound).
# Monte Carlo over children with a fixed seed: the mean over their lives.
set -euo pipefail
jobs=${1:-100}
[[ $jobs =~ ^[1-9][0-9]{0,3}$ ]] || { echo "usage: $0 [JOBS 1-9999]" >&2; exit 2; }
awk -v jobs="$jobs" 'BEGIN {
	srand(1); total = 780; hits = 10  # each of the five tests below has 10 of the 780
	split("ram_copy array_rtns sort_rtns_1 mem_rtns_1 sieve", t, " ")
	static["ram_copy"] = 64; static["array_rtns"] = 158; static["sort_rtns_1"] = 39
	heap["sort_rtns_1"] = 39; heap["mem_rtns_1"] = 210
	small = 30; kids = 20000
	for (mode = 0; mode < 2; mode++) {
		life = 0; end = 0
		for (k = 0; k < kids; k++) {
			st = small; h = 0; sieves = 0; delete seen; sum = 0
			for (j = 0; j < jobs; j++) {
				r = int(rand() * total); x = ""
				if (r < 5 * hits) x = t[int(r / hits) + 1]
				if (x != "" && !seen[x]++) st += static[x]
				if (x == "sieve" && ++sieves >= 2 && h < 977) h = 977
				else if (x in heap && (sieves || mode) && h < heap[x]) h = heap[x]
				sum += st + h
			}
			life += sum / jobs; end += st + h
		}
		printf "%s: %.0f KiB averaged over a life of %d jobs, %.0f KiB at its end\n",
			mode ? "keep" : "trim", life / kids, jobs, end / kids
	}
}'
