/* Kernel errors between two sides, one row a signature (signatures.h).
 *
 * A kernel error is not a quantity with a spread: a WARNING that the new
 * kernel prints and the old one never did is the finding, in one run or
 * in ten, as lkp counts a new dmesg line and syzbot a new crash title. So
 * each signature is a row of its own, decided here and never tested:
 *   only B shows it   regression, whatever the repetitions
 *   only A shows it   improvement
 *   both show it      the same bug at another rate: reported, not judged */
#include "signatures.h"
#include "comparison.h"
#include "kernel_errors.h"
#include "query.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sig_side {
	struct comparison *c;
	int side;
};

static int note_signature(void *arg, const struct db_kernel_error *e)
{
	struct sig_side *k = arg;
	char metric[256];
	snprintf(metric, sizeof(metric), "%s%s", SIGNATURE_ROW_PREFIX, e->signature);
	struct verdict_row *r = comparison_row(k->c, e->workload, e->users, metric);
	r->decided = true;
	snprintf(r->unit, sizeof(r->unit), "reports");
	if (k->side == 0) {
		r->na++;
		r->median_a += (double)e->count;
	} else {
		r->nb++;
		r->median_b += (double)e->count;
	}
	return 0;
}

struct first {
	const struct verdict_row *r;
	int seq, n;
};

static int find_first(void *arg, const struct db_kernel_error *e)
{
	struct first *f = arg;
	size_t k = strlen(SIGNATURE_ROW_PREFIX);
	if (e->users != f->r->users || strcmp(e->workload, f->r->workload) || strcmp(e->signature, f->r->metric + k))
		return 0;
	f->seq = e->seq;
	f->n = e->n;
	return 1;
}

/* The first report's text on side s, kept with the row for every output. */
static int first_text(const struct side *s, struct verdict_row *r)
{
	struct first f = { r, 0, 0 };
	for (int i = 0; i < s->nruns; i++) {
		int rc = db_kernel_errors_each(s->db, s->runs[i], find_first, &f);
		if (rc < 0)
			return -1;
		if (!rc)
			continue;
		r->text = malloc(SIGNATURE_TEXT_MAX);
		if (!r->text)
			abort();
		if (db_kernel_error_text(s->db, s->runs[i], f.seq, f.n, r->text, SIGNATURE_TEXT_MAX) != 1) {
			free(r->text);
			r->text = NULL;
		}
		return 0;
	}
	return 0;
}

static void decide_signature(struct verdict_row *r)
{
	r->kind = !r->na ? V_REGRESSION : !r->nb ? V_IMPROVEMENT : V_SAME;
	r->shift = r->median_b - r->median_a;
	snprintf(r->note, sizeof(r->note), "%s: %.0f reports on %d of A's points, %.0f on %d of B's",
		 !r->na ? "new in B" : !r->nb ? "gone in B" : "both show it (not judged)", r->median_a, r->na,
		 r->median_b, r->nb);
}

int signatures_compare(const struct side *a, const struct side *b, struct comparison *out)
{
	const struct side *sides[2] = { a, b };
	int first = out->n;
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < sides[s]->nruns; i++) {
			struct sig_side k = { out, s };
			if (db_kernel_errors_each(sides[s]->db, sides[s]->runs[i], note_signature, &k) < 0) {
				rb_error("%s: %s", sides[s]->db->path, db_errmsg(sides[s]->db));
				return -1;
			}
		}
	for (int i = first; i < out->n; i++) {
		struct verdict_row *r = &out->rows[i];
		if (!r->decided)
			continue;
		decide_signature(r);
		if (first_text(r->nb ? b : a, r) < 0) {
			rb_error("%s: %s", (r->nb ? b : a)->db->path, db_errmsg((r->nb ? b : a)->db));
			return -1;
		}
	}
	return 0;
}
