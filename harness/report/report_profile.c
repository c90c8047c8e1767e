/* The report's flame graphs (report_profile.h). */
#include "report_profile.h"
#include "escape.h"
#include "flamegraph.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void figure(FILE *f, const char *file, const char *caption)
{
	fputs("<figure><object type=\"image/svg+xml\" style=\"width:100%\" data=\"", f);
	html_write_escaped(f, file);
	fputs("\"></object><figcaption>", f);
	html_write_escaped(f, caption);
	fputs("</figcaption></figure>\n", f);
}

void html_profile(FILE *f, struct db *db, int64_t run, const char *dir)
{
	struct flame_group *g = NULL;
	int n = profile_groups(db, run, &g);
	if (n <= 0) {
		profile_groups_free(g, n > 0 ? n : 0);
		return;
	}
	fputs("<h2>Where the time went</h2>\n<p>The kernel stacks sampled in the middle half of each point, merged "
	      "over the repetitions: a box a function, as wide as its share of the busy samples, its callees on "
	      "top. Hover a box for its samples and share; the stacks are in the .folded file beside each "
	      "graph.</p>\n",
	      f);
	for (int i = 0; i < n; i++) {
		char svg[PATH_MAX + 64], folded[PATH_MAX + 64], name[64], title[200];
		snprintf(name, sizeof(name), "flame-%d", i);
		snprintf(svg, sizeof(svg), "%s/%s.svg", dir, name);
		snprintf(folded, sizeof(folded), "%s/%s.folded", dir, name);
		snprintf(title, sizeof(title), "%s at %ld users: %.0f samples", g[i].workload, g[i].users, g[i].f.total);
		folded_sort(&g[i].f);
		if (flamegraph_svg(&g[i].f, NULL, title, svg) < 0 || folded_write(&g[i].f, folded) < 0) {
			fputs("<p class=\"na\">a flame graph could not be written</p>\n", f);
			continue;
		}
		snprintf(svg, sizeof(svg), "%s.svg", name);
		figure(f, svg, title);
	}
	profile_groups_free(g, n);
}

/* A side's stacks of one (workload, users), over all its runs. */
static int side_stacks(const struct side *s, const char *workload, long users, struct folded *out)
{
	memset(out, 0, sizeof(*out));
	for (int r = 0; r < s->nruns; r++) {
		struct flame_group *g = NULL;
		int n = profile_groups(s->db, s->runs[r], &g);
		for (int i = 0; i < n; i++) {
			if (g[i].users != users || strcmp(g[i].workload, workload))
				continue;
			for (int k = 0; k < g[i].f.n; k++) {
				char line[FOLDED_MAX_FRAMES * FOLDED_MAX_NAME + 40];
				snprintf(line, sizeof(line), "%s %.0f", g[i].f.v[k].frames, g[i].f.v[k].count);
				folded_add_line(out, line);
			}
		}
		profile_groups_free(g, n > 0 ? n : 0);
	}
	return out->n;
}

static void diff_one(FILE *f, const struct side *a, const struct side *b, int k, const char *dir)
{
	struct flame_group *g = NULL;
	int n = b->nruns ? profile_groups(b->db, b->runs[0], &g) : 0;
	for (int i = 0; i < n; i++) {
		struct folded fa, fb;
		if (!side_stacks(a, g[i].workload, g[i].users, &fa) || !side_stacks(b, g[i].workload, g[i].users, &fb)) {
			folded_free(&fa);
			folded_free(&fb);
			continue;
		}
		char svg[PATH_MAX + 64], name[64], title[300];
		snprintf(name, sizeof(name), "flame-diff-%d-%d.svg", k, i);
		snprintf(svg, sizeof(svg), "%s/%s", dir, name);
		snprintf(title, sizeof(title), "%s at %ld users: B (%.0f samples) against A (%.0f): red more, blue less",
			 g[i].workload, g[i].users, fb.total, fa.total);
		if (flamegraph_svg(&fb, &fa, title, svg) == 0)
			figure(f, name, title);
		folded_free(&fa);
		folded_free(&fb);
	}
	profile_groups_free(g, n > 0 ? n : 0);
}

void html_profile_diff(FILE *f, const struct comparison *c, const struct side *a, const struct side *b, int n,
		       const char *dir)
{
	bool said = false;
	for (int k = 0; k < n; k++) {
		if (c[k].unjudged[0] || !a[k].nruns || !b[k].nruns)
			continue;
		struct flame_group *g = NULL;
		int ng = profile_groups(a[k].db, a[k].runs[0], &g);
		profile_groups_free(g, ng > 0 ? ng : 0);
		if (ng <= 0)
			continue;
		if (!said)
			fputs("<h2>Where the time moved</h2>\n<p>B's flame graph coloured by how each function's share "
			      "of the busy samples moved from A: red where B spends more, blue where less (the "
			      "deeper, the larger the move). Hover a box for both shares.</p>\n",
			      f);
		said = true;
		fputs("<p>A = ", f);
		html_write_escaped(f, a[k].label);
		fputs(", B = ", f);
		html_write_escaped(f, b[k].label);
		fputs("</p>\n", f);
		diff_one(f, &a[k], &b[k], k, dir);
	}
}
