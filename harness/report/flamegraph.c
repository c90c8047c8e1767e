/* Flame graphs (flamegraph.h):
 *
 *   profile_groups   a run's points' stacks, merged per workload and users
 *   tree_add         each stack into a tree of frames, B's counts and A's
 *   draw             a box a frame, its children on top, root at the bottom
 */
#include "flamegraph.h"
#include "escape.h"
#include "profiles.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SYMS 4096
#define WIDTH 1200.0
#define ROW 16
#define MIN_BOX 0.3 /* px: narrower frames are not drawn, as flamegraph.pl's minwidth */

struct groups_acc {
	struct flame_group *g;
	int n, cap;
	int64_t point;
	char *syms[MAX_SYMS];
	int nsyms;
};

static void clear_syms(struct groups_acc *a)
{
	for (int i = 0; i < a->nsyms; i++) {
		free(a->syms[i]);
		a->syms[i] = NULL;
	}
	a->nsyms = 0;
}

static int group_row(void *arg, const struct db_profile_attr *r)
{
	struct groups_acc *a = arg;
	if (r->point != a->point) {
		clear_syms(a);
		a->point = r->point;
	}
	struct flame_group *g = a->n ? &a->g[a->n - 1] : NULL;
	if (!g || g->users != r->users || strncmp(g->workload, r->workload, sizeof(g->workload) - 1)) {
		if (a->n == a->cap) {
			a->cap = a->cap ? 2 * a->cap : 8;
			a->g = realloc(a->g, (size_t)a->cap * sizeof(*a->g));
			if (!a->g)
				abort();
		}
		g = &a->g[a->n++];
		memset(g, 0, sizeof(*g));
		snprintf(g->workload, sizeof(g->workload), "%s", r->workload);
		g->users = r->users;
	}
	if (!r->is_stack) {
		if (r->index < 0 || r->index >= MAX_SYMS)
			return 0;
		int i = (int)r->index;
		free(a->syms[i]);
		a->syms[i] = strdup(r->value);
		if (!a->syms[i])
			abort();
		if (i >= a->nsyms)
			a->nsyms = i + 1;
		return 0;
	}
	folded_add_indexed(&g->f, (const char *const *)a->syms, a->nsyms, r->value);
	return 0;
}

int profile_groups(struct db *db, int64_t run, struct flame_group **out)
{
	static struct groups_acc a;
	memset(&a, 0, sizeof(a));
	a.point = -1;
	int rc = db_profile_attrs_each(db, run, group_row, &a);
	clear_syms(&a);
	*out = a.g;
	return rc < 0 ? -1 : a.n;
}

void profile_groups_free(struct flame_group *g, int n)
{
	for (int i = 0; i < n; i++)
		folded_free(&g[i].f);
	free(g);
}

struct node {
	const char *name; /* into the stack it came from, copied */
	double b, a;      /* samples: B's, A's */
	int child, next;  /* first child, next sibling: indexes, -1 none */
};

struct tree {
	struct node *v;
	int n, cap;
};

static int node_new(struct tree *t, const char *name)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 1024;
		t->v = realloc(t->v, (size_t)t->cap * sizeof(*t->v));
		if (!t->v)
			abort();
	}
	char *copy = strdup(name);
	if (!copy)
		abort();
	t->v[t->n] = (struct node){ copy, 0, 0, -1, -1 };
	return t->n++;
}

/* The child of parent named name, added in name order when new. */
static int child_of(struct tree *t, int parent, const char *name)
{
	int prev = -1, c = t->v[parent].child;
	while (c >= 0 && strcmp(t->v[c].name, name) < 0) {
		prev = c;
		c = t->v[c].next;
	}
	if (c >= 0 && !strcmp(t->v[c].name, name))
		return c;
	int k = node_new(t, name);
	t->v[k].next = c;
	if (prev < 0)
		t->v[parent].child = k;
	else
		t->v[prev].next = k;
	return k;
}

static void tree_add(struct tree *t, const struct folded *f, int side)
{
	for (int i = 0; i < f->n; i++) {
		char buf[FOLDED_MAX_FRAMES * FOLDED_MAX_NAME + 1];
		snprintf(buf, sizeof(buf), "%s", f->v[i].frames);
		int at = 0;
		t->v[0].b += side ? f->v[i].count : 0;
		t->v[0].a += side ? 0 : f->v[i].count;
		for (char *save = NULL, *fr = strtok_r(buf, ";", &save); fr; fr = strtok_r(NULL, ";", &save)) {
			at = child_of(t, at, fr);
			if (side)
				t->v[at].b += f->v[i].count;
			else
				t->v[at].a += f->v[i].count;
		}
	}
}

struct draw {
	FILE *f;
	const struct tree *t;
	double scale, ta, tb, maxdelta;
	int height, depth;
	bool diff;
};

static void color(const struct draw *d, const struct node *n, char *buf, size_t len)
{
	if (d->diff) {
		double delta = (d->tb > 0 ? n->b / d->tb : 0) - (d->ta > 0 ? n->a / d->ta : 0);
		double k = d->maxdelta > 0 ? fabs(delta) / d->maxdelta : 0;
		int c = 255 - (int)(200 * k);
		if (delta > 0)
			snprintf(buf, len, "rgb(255,%d,%d)", c, c);
		else
			snprintf(buf, len, "rgb(%d,%d,255)", c, c);
		return;
	}
	uint64_t h = rb_fnv1a64(n->name, strlen(n->name)); /* flamegraph.pl's hot palette, by name */
	snprintf(buf, len, "rgb(%d,%d,%d)", 205 + (int)(h % 50), (int)((h >> 8) % 230), (int)((h >> 16) % 55));
}

static void draw_node(const struct draw *d, int k, double x, int depth)
{
	const struct node *n = &d->t->v[k];
	double w = n->b * d->scale;
	if (w < MIN_BOX)
		return;
	if (k) { /* the root is "all" */
		double y = d->height - (depth + 1) * ROW - 4;
		char fill[40];
		color(d, n, fill, sizeof(fill));
		fputs("<g><title>", d->f);
		html_write_escaped(d->f, n->name);
		fprintf(d->f, " (%.0f samples, %.2f%%", n->b, d->tb > 0 ? 100 * n->b / d->tb : 0);
		if (d->diff)
			fprintf(d->f, "; A %.2f%%", d->ta > 0 ? 100 * n->a / d->ta : 0);
		fprintf(d->f, ")</title><rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%d\" fill=\"%s\" rx=\"2\"/>",
			x, y, w, ROW - 1, fill);
		int chars = (int)(w / 7);
		if (chars >= 3) {
			fprintf(d->f, "<text x=\"%.1f\" y=\"%.0f\">", x + 3, y + ROW - 4);
			char label[FOLDED_MAX_NAME];
			snprintf(label, sizeof(label), "%.*s", chars < (int)sizeof(label) - 1 ? chars : (int)sizeof(label) - 1,
				 n->name);
			html_write_escaped(d->f, label);
			fputs("</text>", d->f);
		}
		fputs("</g>\n", d->f);
	}
	for (int c = n->child; c >= 0; c = d->t->v[c].next) {
		draw_node(d, c, x, depth + (k ? 1 : 0));
		x += d->t->v[c].b * d->scale;
	}
}

static int max_depth(const struct tree *t, int k)
{
	int m = 0;
	for (int c = t->v[k].child; c >= 0; c = t->v[c].next) {
		int d = 1 + max_depth(t, c);
		m = d > m ? d : m;
	}
	return m;
}

static double max_delta(const struct tree *t, double ta, double tb)
{
	double m = 0;
	for (int k = 1; k < t->n; k++) {
		double d = fabs((tb > 0 ? t->v[k].b / tb : 0) - (ta > 0 ? t->v[k].a / ta : 0));
		m = d > m ? d : m;
	}
	return m;
}

int flamegraph_svg(const struct folded *b, const struct folded *a, const char *title, const char *path)
{
	struct tree t = { 0 };
	node_new(&t, "all");
	tree_add(&t, b, 1);
	if (a)
		tree_add(&t, a, 0);
	FILE *f = rb_create_stream(path);
	if (!f) {
		for (int i = 0; i < t.n; i++)
			free((char *)t.v[i].name);
		free(t.v);
		return -1;
	}
	struct draw d = { .f = f, .t = &t, .tb = t.v[0].b, .ta = t.v[0].a, .diff = a != NULL };
	d.scale = d.tb > 0 ? (WIDTH - 20) / d.tb : 0;
	d.depth = max_depth(&t, 0);
	d.height = (d.depth + 3) * ROW + 8;
	d.maxdelta = a ? max_delta(&t, d.ta, d.tb) : 0;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%d\" viewBox=\"0 0 %.0f %d\" "
		   "font-family=\"Verdana, sans-serif\" font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" "
		   "fill=\"#fbfbf4\"/>\n<text x=\"%.0f\" y=\"18\" text-anchor=\"middle\" font-size=\"14\">",
		WIDTH, d.height, WIDTH, d.height, WIDTH / 2);
	html_write_escaped(f, title);
	fputs("</text>\n<g transform=\"translate(10,0)\">\n", f);
	draw_node(&d, 0, 0, 0);
	fputs("</g>\n</svg>\n", f);
	for (int i = 0; i < t.n; i++)
		free((char *)t.v[i].name);
	free(t.v);
	return fclose(f);
}
