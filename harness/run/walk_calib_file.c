/* results/walk-calibration.tsv: what walk_calib.c measured, for the engine
 * target's clock. A file on disk is outside bytes: the parse is bounded
 * (64 KiB, fields checked), and a bad file names its line. */
#include "walk_calib.h"
#include "walkcurve.h"
#include "util.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OTHERS_MAPPED "zero-page"

int walk_calib_save(const char *path, const struct walk_calib *c, const char *revision, const char *measured,
		    char *err, size_t errlen)
{
	FILE *f = rb_create_stream(path);
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# rmapbench walk calibration: the running kernel's cost of one VMA visited by an rmap walk\n"
		   "# (try_to_unmap of a page under MADV_PAGEOUT, the page mapped by the process forked after N\n"
		   "# others of one family, whose VMAs its anon_vma's tree holds), by the walker's CPU clock;\n"
		   "# the curve is each N's quantile %g less N = 0's; ns per page = fixed_ns + vma_ns x N,\n"
		   "# least squares\n# revision %s\n# measured ",
		WALK_CALIB_QUANTILE, revision);
	for (const char *m = measured; m && *m; m++) /* one comment line, whatever it holds */
		fputc(*m == '\n' || *m == '\r' ? ' ' : *m, f);
	fputs("\n# per sample: round/N:ns_per_page\n#", f);
	for (int i = 0; i < c->npts; i++)
		fprintf(f, "%s%d/%ld:%.0f", i % 8 ? " " : "\n# ", c->pts[i].round, c->pts[i].n, c->pts[i].ns_per_page);
	fprintf(f, "\n# vma_ns\tfixed_ns\tr2\tpoints\trelease\n%.3f\t%.3f\t%.4f\t%d\t%s\n", c->vma_ns, c->fixed_ns, c->r2,
		c->npts, c->release);
	char curve[WALK_CURVE_TEXT_MAX + 1];
	if (walk_calib_curve_text(c, curve, sizeof(curve)) == 0)
		fprintf(f, "# a walk's cost against its VMAs, ns per page (sim_walk_curve)\ncurve\t%s\n", curve);
	if (c->others_mapped)
		fprintf(f, "# the other processes each map the zero page where the walked page is\nothers\t%s\n",
			OTHERS_MAPPED);
	if (fclose(f) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* "curve\tN:NS,...": checked as the simulator will check it */
static int parse_curve(const char *text, const char *origin, int lineno, struct walk_calib *c, char *err,
		       size_t errlen)
{
	struct walk_curve wc;
	char why[300];
	if (walk_curve_parse(text, &wc, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "%s:%d: %s", origin, lineno, why);
		return -1;
	}
	for (int i = 0; i < wc.n; i++)
		c->curve[i] = (struct walk_point){ .n = (long)wc.vmas[i], .ns_per_page = wc.ns[i] };
	c->ncurve = wc.n;
	return 0;
}

static bool vma_ns_possible(double ns)
{
	return ns > 0 && ns <= 1e6;
}

int walk_calib_check(const struct walk_calib *c, char *why, size_t len)
{
	if (!vma_ns_possible(c->vma_ns)) {
		snprintf(why, len, "the fitted cost of a VMA, %g ns, is not a cost a walk could have", c->vma_ns);
		return -1;
	}
	for (int i = 0; i < c->ncurve; i++)
		if (c->curve[i].ns_per_page > 0)
			return 0;
	snprintf(why, len, "no walk on the curve cost more than the page-out alone");
	return -1;
}

static int parse_fit(const char *buf, const char *origin, int lineno, struct walk_calib *c, char *err, size_t errlen)
{
	char rel[256];
	int n = 0;
	if (sscanf(buf, "%lf\t%lf\t%lf\t%d\t%255s", &c->vma_ns, &c->fixed_ns, &c->r2, &n, rel) != 5 ||
	    !isfinite(c->vma_ns) || !isfinite(c->fixed_ns) || !isfinite(c->r2)) {
		snprintf(err, errlen, "%s:%d: expected 'vma_ns fixed_ns r2 points release'", origin, lineno);
		return -1;
	}
	if (!vma_ns_possible(c->vma_ns)) {
		snprintf(err, errlen, "%s:%d: vma_ns %g is not a cost a walk could have", origin, lineno, c->vma_ns);
		return -1;
	}
	for (const char *p = rel; *p; p++)
		if ((unsigned char)*p < 0x21 || (unsigned char)*p > 0x7e) {
			snprintf(err, errlen, "%s:%d: the release holds a byte 0x%02x", origin, lineno, (unsigned char)*p);
			return -1;
		}
	snprintf(c->release, sizeof(c->release), "%.64s", rel);
	c->npts = n;
	return 0;
}

/* One line that is not a comment: "others", "curve" or the fit's, each
 * once. */
static int parse_line(const char *buf, const char *origin, int lineno, struct walk_calib *c, bool *fit, char *err,
		      size_t errlen)
{
	if (!strncmp(buf, "others\t", 7)) {
		if (strcmp(buf + 7, OTHERS_MAPPED) || c->others_mapped) {
			snprintf(err, errlen, "%s:%d: expected one 'others\t%s'", origin, lineno, OTHERS_MAPPED);
			return -1;
		}
		c->others_mapped = true;
		return 0;
	}
	bool is_curve = !strncmp(buf, "curve\t", 6);
	if (is_curve ? c->ncurve > 0 : *fit) {
		snprintf(err, errlen, "%s:%d: a second %s line", origin, lineno, is_curve ? "curve" : "calibration");
		return -1;
	}
	if (is_curve ? parse_curve(buf + 6, origin, lineno, c, err, errlen)
		     : parse_fit(buf, origin, lineno, c, err, errlen))
		return -1;
	*fit |= !is_curve;
	return 0;
}

int walk_calib_parse(const char *text, const char *origin, struct walk_calib *c, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	int lineno = 0;
	bool fit = false;
	for (const char *line = text; line && *line;) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		lineno++;
		if (len && line[0] != '#') {
			char buf[WALK_CURVE_TEXT_MAX + 64];
			if (len >= sizeof(buf)) {
				snprintf(err, errlen, "%s:%d: a line longer than %zu bytes", origin, lineno, sizeof(buf) - 1);
				return -1;
			}
			memcpy(buf, line, len);
			buf[len] = 0;
			if (parse_line(buf, origin, lineno, c, &fit, err, errlen))
				return -1;
		}
		line = eol ? eol + 1 : NULL;
	}
	if (!fit) {
		snprintf(err, errlen, "%s: no calibration line", origin);
		return -1;
	}
	return 0;
}

int walk_calib_load(const char *path, struct walk_calib *c, char *err, size_t errlen)
{
	size_t len;
	char *text = rb_read_regular_file_max(path, 64 * 1024, &len);
	if (!text) {
		snprintf(err, errlen, "%s: %s", path,
			 errno == EFBIG ? "larger than 64 KiB" : errno == EINVAL ? "not a regular file" : strerror(errno));
		return -1;
	}
	if (memchr(text, 0, len)) {
		snprintf(err, errlen, "%s: not a text file (it holds a NUL byte)", path);
		free(text);
		return -1;
	}
	int rc = walk_calib_parse(text, path, c, err, errlen);
	free(text);
	return rc;
}
