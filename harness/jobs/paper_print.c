/* The paper's answer printed (paper.h): a table, JSON, and with
 * --calibrate how far this host's walk cost moves each crossing. */
#include "paper.h"
#include "escape.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

double paper_crossed_at(const struct paper_row *r)
{
	return r->found && r->x.reached && !r->x.from_first ? r->x.at_users : 0;
}

void paper_print_table(const struct paper_row *rows, const char *const *designs, int nd)
{
	printf("%-8s %6s %12s %12s %8s %9s %10s %10s %10s\n", "design", "run", "crossover", "nearest", "sys%", "iowait%",
	       "lockwait%", "sys%/1s", "iowait%/1s");
	for (int d = 0; d < nd; d++) {
		const struct paper_row *r = &rows[d];
		char cx[64];
		if (!r->found)
			snprintf(cx, sizeof(cx), "no data");
		else if (paper_crossed_at(r) > 0)
			snprintf(cx, sizeof(cx), "%.0f", paper_crossed_at(r));
		else
			snprintf(cx, sizeof(cx), r->x.reached ? "below first" : "not reached");
		printf("%-8s %6lld %12s %12ld %8.1f %9.1f %10.1f %10.1f %10.1f\n", designs[d], (long long)r->run, cx,
		       r->users, r->share[0], r->share[1], r->share[2], r->share[3], r->share[4]);
	}
	printf("sys%%/1s, iowait%%/1s: the median second of that point, as vmstat 1 would show it\n");
	printf("2010: 2.6.33 crossed near 9,700 users, the anon_vma_chain near 29,700\n");
	if (nd > 1 && !strcmp(designs[0], "legacy") && !strcmp(designs[1], "avc") && paper_crossed_at(&rows[0]) > 0 &&
	    paper_crossed_at(&rows[1]) > 0)
		printf("ratio legacy/avc %.2f (2010: 0.33)\n", paper_crossed_at(&rows[0]) / paper_crossed_at(&rows[1]));
}

void paper_print_split(const struct paper_row *rows, const char *const *designs, int nd)
{
	bool any = false;
	for (int d = 0; d < nd; d++)
		any |= rows[d].split[SPLIT_SPIN] == rows[d].split[SPLIT_SPIN];
	if (!any)
		return;
	printf("\nwhere the time went at each crossing point (the simulator's profile, every task's time):\n");
	printf("%-8s %8s %8s %8s %8s %8s   %s\n", "design", "spin%", "walk%", "user%", "io%", "sleep%",
	       "spin + walk of system time");
	for (int d = 0; d < nd; d++) {
		const double *s = rows[d].split;
		if (s[SPLIT_SPIN] != s[SPLIT_SPIN])
			continue;
		double sys = 100 - s[SPLIT_USER] - s[SPLIT_IO] - s[SPLIT_SLEEP];
		printf("%-8s %8.1f %8.1f %8.1f %8.1f %8.1f   %.1f%%\n", designs[d], s[SPLIT_SPIN], s[SPLIT_WALK],
		       s[SPLIT_USER], s[SPLIT_IO], s[SPLIT_SLEEP],
		       sys > 0 ? 100 * (s[SPLIT_SPIN] + s[SPLIT_WALK]) / sys : 0);
	}
}

void paper_print_json(const struct paper_row *r, const char *const *designs, int nd)
{
	printf("{");
	for (int d = 0; d < nd; d++) {
		printf("%s", d ? ", " : "");
		json_write_string(stdout, designs[d]);
		printf(": {\"run\": %lld, \"crossover_users\": ", (long long)r[d].run);
		if (r[d].found && r[d].x.reached && !r[d].x.from_first)
			printf("%.0f", r[d].x.at_users);
		else
			printf("null");
		printf(", \"nearest_point_users\": %ld", r[d].users);
		for (size_t s = 0; s < PAPER_NSHARES; s++) {
			printf(", ");
			json_write_string(stdout, paper_shares[s]);
			if (r[d].share[s] == r[d].share[s])
				printf(": %.3f", r[d].share[s]);
			else
				printf(": null");
		}
		static const char *const split_names[PAPER_NSPLIT] = { "spin_pct", "walk_pct", "user_pct", "io_wait_pct",
								       "lock_sleep_pct" };
		for (int s = 0; s < PAPER_NSPLIT && r[d].split[0] == r[d].split[0]; s++)
			printf(", \"profile_%s\": %.3f", split_names[s], r[d].split[s]);
		printf("}");
	}
	printf("}\n");
}

/* The same profile, seed and revision on both: what differs is the
 * walk's cost alone. */
void paper_print_shift(const struct paper_row *host, const struct paper_row *ref, const char *const *designs, int nd,
			const char *reference)
{
	printf("\nthis host's walk calibration against the reference (%s):\n", reference);
	printf("%-8s %12s %12s %9s\n", "design", "reference", "this host", "change");
	for (int d = 0; d < nd; d++) {
		double a = paper_crossed_at(&ref[d]), b = paper_crossed_at(&host[d]);
		char ca[32] = "-", cb[32] = "-", ch[32] = "-";
		if (a > 0)
			snprintf(ca, sizeof(ca), "%.0f", a);
		if (b > 0)
			snprintf(cb, sizeof(cb), "%.0f", b);
		if (a > 0 && b > 0)
			snprintf(ch, sizeof(ch), "%+.1f%%", 100 * (b - a) / a);
		printf("%-8s %12s %12s %9s\n", designs[d], ca, cb, ch);
	}
	printf("the same profile, seed and revision on both: the change is the walk's cost alone\n");
}
