/* A replay's figure (plots/replay.gp): the designs side by side, the VMAs
 * a walk visits at the trace's peak, both walks. */
#include "report.h"
#include "report_plot.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

int report_replay(const struct replay_bar *b, int n, const char *title, const char *dir, char *path, size_t plen)
{
	char plotdir[PATH_MAX], prefix[PATH_MAX + 16], data[PATH_MAX + 80], names[SIDE_NAMES_MAX] = "";
	path[0] = 0;
	if (n <= 0 || plot_begin(dir, "replay", plotdir, prefix, sizeof(prefix)) < 0)
		return -1;
	snprintf(data, sizeof(data), "%s.tsv", prefix);
	FILE *f = rb_create_stream(data);
	if (!f)
		return -1;
	fprintf(f, "# place rmap_vmas_per_walk page_referenced_vmas_per_walk (at the peak)\n");
	for (int i = 0; i < n; i++) {
		char label[80];
		snprintf(label, sizeof(label), "%s(%s)", b[i].design, b[i].release);
		append_word(names, sizeof(names), label);
		fprintf(f, "%d\t%.6g\t%.6g\n", i, b[i].walk, b[i].referenced);
	}
	if (fclose(f) != 0)
		return -1;
	if (gnuplot_both(plotdir, "replay", data, prefix, names, title, 0, "") < 0)
		return -1;
	snprintf(path, plen, "%s.png", prefix);
	return 0;
}
