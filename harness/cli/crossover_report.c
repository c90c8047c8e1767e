/* Two runs' AIM7 crossovers: each side's per workload, the ratio where
 * both crossed, and the six-panel figure (report_crossover_panel) with
 * the first common workload's crossovers marked, in DIR/compare-A-B/.
 * compare-kernels and `compare --crossover` print it. */
#include "commands.h"
#include "crossover.h"
#include "record.h"
#include "report.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void crossover_report(struct db *db, const char *db_path, const int64_t runs[2], const char *labels[2])
{
	struct crossover c[2][16];
	int nc[2];
	for (int k = 0; k < 2; k++) {
		nc[k] = crossover_find(db, runs[k], c[k], 16);
		for (int i = 0; i < nc[k]; i++) {
			char line[256];
			crossover_describe(&c[k][i], line, sizeof(line));
			printf("AIM7 crossover on %s: %s\n", labels[k], line);
		}
	}
	/* each workload both ran: where each crossed and the ratio; the
	 * first one's crossovers are marked on the figure */
	double marked[2] = { 0, 0 };
	bool have_marks = false;
	for (int i = 0; i < nc[0]; i++)
		for (int j = 0; j < nc[1]; j++) {
			const struct crossover *x = &c[0][i], *y = &c[1][j];
			if (strcmp(x->workload, y->workload))
				continue;
			if (!have_marks) { /* only a crossing measured between two points is marked */
				marked[0] = x->reached && !x->from_first ? x->at_users : 0;
				marked[1] = y->reached && !y->from_first ? y->at_users : 0;
				have_marks = true;
			}
			if (x->reached && y->reached && !x->from_first && !y->from_first)
				printf("crossover ratio %s: %s at %.0f users, %s at %.0f: %s/%s = %.2f\n", x->workload,
				       labels[0], x->at_users, labels[1], y->at_users, labels[1], labels[0],
				       y->at_users / x->at_users);
			else
				printf("crossover ratio %s: not measured (%s); widen the users sweep\n", x->workload,
				       !x->reached || !y->reached ? "a side never crossed the line"
								  : "a side was below the line from its first point");
		}
	char dir[PATH_MAX], name[64], panel[PATH_MAX + 40];
	snprintf(name, sizeof(name), "compare-%lld-%lld", (long long)runs[0], (long long)runs[1]);
	if (results_dir(db_path, name, dir, sizeof(dir)) == 0 &&
	    report_crossover_panel(db, runs, labels, marked, dir, panel, sizeof(panel)) == 0)
		printf("figure: %s\n", panel);
}
