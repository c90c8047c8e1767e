#!/usr/bin/env bash
# What an AIM7 child holds of the memory it inherited (bss, data, heap:
# under 2.6.33, pages in the family's anon_vmas), as it runs its jobs:
# the users' memory of configs/paper-2010.conf.
#   scripts/aim7-inherited-kib.sh [JOBS]   (default 100, AIM7's -j)
# The jobs are re-aim-7's (driver.c, runloop): each test of workfile.shared
# gets hits / 780 x JOBS runs, rounded, at least one, so at the default a
# 10-hit test runs exactly once and a child runs 97 jobs; the child draws
# them without replacement (a random step along the list of tests with
# runs left). The KiB each test leaves written are the README's table,
# read from re-aim-7's sources. Static arrays stay written once written.
# The heap keeps the most any one test used there, once sieve has run: its
# 1,000,000-byte table is mmapped, and freeing it raises glibc's mmap and
# trim thresholds, so from then on the heap is kept. Before that, "trim"
# is glibc's default: a free top over 128 KiB is given back down to its
# top pad, 128 KiB (DEFAULT_TOP_PAD), whose pages stay written; "keep"
# gives nothing back (an upper bound).
# Monte Carlo over children with a fixed seed: the mean over their lives,
# and at their end.
set -euo pipefail
jobs=${1:-100}
[[ $jobs =~ ^[1-9][0-9]{0,3}$ ]] || { echo "usage: $0 [JOBS 1-9999]" >&2; exit 2; }
awk -v jobs="$jobs" 'BEGIN {
	srand(1); total = 780
	# workfile.shared, in its order: hits and name
	n = split("30 add_double 30 add_float 30 add_int 30 add_long 30 add_short 10 array_rtns 10 brk_test " \
		"10 creat_clo 10 dgram_pipe 10 dir_rtns_1 20 disk_cp 20 disk_rd 20 disk_rr 20 disk_rw 20 disk_src " \
		"20 disk_wrt 10 div_double 10 div_float 10 div_int 10 div_long 10 div_short 20 exec_test 10 fork_test " \
		"10 jmp_test 10 link_test 10 matrix_rtns 10 mem_rtns_1 10 mem_rtns_2 10 misc_rtns_1 20 mul_double " \
		"20 mul_float 20 mul_int 20 mul_long 20 mul_short 10 new_raph 10 num_rtns_1 10 page_test 10 pipe_cpy " \
		"10 ram_copy 10 series_1 10 shared_memory 20 shell_rtns_1 10 sieve 10 signal_test 10 sort_rtns_1 " \
		"10 stream_pipe 30 string_rtns 10 sync_disk_cp 10 sync_disk_rw 10 sync_disk_wrt 10 tcp_test " \
		"10 trig_rtns 10 udp_test", w, " ")
	ntests = n / 2; runs = 0
	for (i = 1; i <= ntests; i++) {
		name[i] = w[2 * i]; load = w[2 * i - 1] / total * jobs; l = int(load)
		if (load - l >= 0.5) l++; else if (load - l != 0 && l == 0) l = 1
		per[i] = l; runs += l
	}
	static["ram_copy"] = 64; static["array_rtns"] = 158; static["sort_rtns_1"] = 39
	heap["sort_rtns_1"] = 39; heap["mem_rtns_1"] = 210
	small = 30; kids = 20000
	for (mode = 0; mode < 2; mode++) {
		life = 0; end = 0
		for (k = 0; k < kids; k++) {
			# the child list: tests with runs left, in workfile order
			size = ntests
			for (i = 1; i <= ntests; i++) { next_[i] = i < ntests ? i + 1 : 0; left[i] = per[i] }
			head = 1; item = 1
			st = small; h = 0; sieved = 0; delete seen; sum = 0
			for (j = 0; j < runs; j++) {
				for (;;) { # runloop: k steps along the list, wrapping; a test with no runs left is removed
					s = int(rand() * 32768) % size
					while (s-- > 0) item = next_[item] ? next_[item] : head
					if (left[item] > 0) { left[item]--; break }
					item = unlink_item(item)
				}
				x = name[item]
				if (x in static && !seen[x]++) st += static[x]
				if (x == "sieve") sieved = 1
				else if (x in heap) {
					u = sieved || mode || heap[x] < 128 ? heap[x] : 128
					if (h < u) h = u
				}
				if (!left[item]) item = unlink_item(item)
				sum += st + h
			}
			life += sum / runs; end += st + h
		}
		printf "%s: %.0f KiB averaged over a life of %d jobs, %.0f KiB at its end\n",
			mode ? "keep" : "trim", life / kids, runs, end / kids
	}
}
function unlink_item(it,    p) { # aiml_remove; the walk goes on from the head
	if (it == head) head = next_[it]
	else { for (p = head; next_[p] != it; p = next_[p]); next_[p] = next_[it] }
	size--
	return head
}'
