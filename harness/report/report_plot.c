/* What every figure shares: data files by users, gnuplot run safely, the
 * absolute folder gnuplot is given. */
#include "report_plot.h"
#include "paths.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A name as one word of gnuplot's word(): figures count their lines by
 * words, so a space or a quote in a name from the database must not add
 * one. */
void append_word(char *names, size_t nlen, const char *name)
{
	size_t used = strlen(names);
	if (used && used + 1 < nlen)
		names[used++] = ' ';
	for (const unsigned char *p = (const unsigned char *)name; *p && used + 1 < nlen; p++)
		names[used++] = *p <= ' ' || *p == '"' || *p == '\'' || *p == 0x7f ? '_' : (char)*p;
	names[used] = 0;
}

/* A row of users, mean, min, max, n; a new block for each workload. */
int tsv_row(void *arg, const struct db_users_stat *p)
{
	struct tsv *t = arg;
	if (p->workload && strcmp(t->prev, p->workload)) {
		if (t->prev[0])
			fputs("\n\n", t->f);
		snprintf(t->prev, sizeof(t->prev), "%s", p->workload);
		append_word(t->names, t->nlen, p->workload);
	}
	fprintf(t->f, "%ld\t%.6g\t%.6g\t%.6g\t%d\n", p->users, p->mean, p->min, p->max, p->n);
	if (!t->rows || p->users < *t->umin)
		*t->umin = p->users;
	if (!t->rows || p->users > *t->umax)
		*t->umax = p->users;
	t->rows++;
	t->block++;
	return 0;
}

/* Writes DIR/METRIC.tsv: one block per workload; returns the workload
 * names in block order, the users range, and how many rows. */
/* Runs on one figure: a block per run (its kernel label or design), the
 * metric's mean per users over every workload of the run. */
int write_compare(struct db *db, const int64_t *runs, int n, const char *metric, const char *path, long *umin,
			 long *umax)
{
	FILE *f = rb_create_stream(path);
	if (!f)
		return -1;
	fprintf(f, "# users mean min max n (%s), a block per run\n", metric);
	char names[8] = "";
	struct tsv t = { .f = f, .names = names, .nlen = sizeof(names), .umin = umin, .umax = umax };
	int rc = 0;
	for (int i = 0; i < n && rc >= 0; i++) {
		if (i)
			fputs("\n\n", f);
		t.block = 0;
		rc = db_metric_by_users_all(db, runs[i], metric, tsv_row, &t);
		if (!t.block) /* gnuplot needs a point in every block it is told of */
			fputs("# none\n", f);
	}
	fclose(f);
	return rc < 0 ? -1 : t.rows;
}

/* gnuplot is given absolute paths only (plots/figure.gp says why): a
 * pinned run directory's /proc/PID/fd/N already is one, and resolving it
 * would give back a name someone could swap again. */
char *abs_dir(const char *dir, char *adir)
{
	if (rb_path_pinned(dir)) {
		snprintf(adir, PATH_MAX, "%s", dir);
		return adir;
	}
	return realpath(dir, adir);
}

/* Runs plots/SCRIPT.gp through figure.gp with every value an argument.
 * data and out must be absolute (see figure.gp). */
int gnuplot(const char *plotdir, const char *script, const char *data, const char *out, const char *fmt,
		   const char *names, const char *title, int logx, const char *unavail)
{
	if (data[0] != '/' || out[0] != '/')
		return -1;
	char path[PATH_MAX + 64], logx_s[4];
	snprintf(path, sizeof(path), "%s/figure.gp", plotdir);
	snprintf(logx_s, sizeof(logx_s), "%d", logx ? 1 : 0);
	/* gnuplot opens its output by name: it writes into a directory of its
	 * own, made here, and the figure is renamed into place, replacing
	 * whatever was planted there rather than writing through it */
	char tmpdir[PATH_MAX], tmp_out[PATH_MAX + 64], made[PATH_MAX + 80], final[PATH_MAX + 16];
	const char *slash = strrchr(out, '/');
	snprintf(tmpdir, sizeof(tmpdir), "%.*s/.gnuplot-XXXXXX", (int)(slash - out), out);
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(tmp_out, sizeof(tmp_out), "%s%s", tmpdir, slash);
	snprintf(made, sizeof(made), "%s.%s", tmp_out, fmt);
	snprintf(final, sizeof(final), "%s.%s", out, fmt);
	/* gnuplot's chatter (an empty x range with one point) would tear the
	 * tables on the terminal: it goes to a log, kept only on failure */
	char log[PATH_MAX + 80], kept[PATH_MAX + 32];
	snprintf(log, sizeof(log), "%s.%s.log", tmp_out, fmt);
	snprintf(kept, sizeof(kept), "%s.%s.log", out, fmt);
	pid_t pid = fork();
	if (pid < 0) {
		rmdir(tmpdir);
		return -1;
	}
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0)
			dup2(fd, 2);
		execlp("gnuplot", "gnuplot", "-c", path, script, plotdir, data, tmp_out, fmt, names, title, logx_s,
		       unavail, (char *)NULL);
		_exit(127);
	}
	int st, rc = -1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			break;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && rename(made, final) == 0) {
		unlink(log);
		unlink(kept);
		rc = 0;
	} else {
		char line[300] = "", last[300] = "";
		FILE *f = fopen(log, "r");
		while (f && fgets(line, sizeof(line), f))
			if (line[0] != '\n')
				snprintf(last, sizeof(last), "%s", line);
		if (f)
			fclose(f);
		last[strcspn(last, "\n")] = 0;
		unlink(made);
		if (rename(log, kept) < 0)
			unlink(log);
		rb_warn("gnuplot %s.gp failed (%s): %s", script, kept, last[0] ? last : "no message");
	}
	rmdir(tmpdir);
	return rc;
}

int plot_begin(const char *dir, const char *name, char *plotdir, char *prefix, size_t len)
{
	char adir[PATH_MAX];
	if (rb_source_dir("RMAPBENCH_PLOTS", "plots", "common.gp", plotdir, PATH_MAX) < 0 || !rb_have_program("gnuplot") ||
	    !abs_dir(dir, adir))
		return -1;
	snprintf(prefix, len, "%s/%s", adir, name);
	return 0;
}

int gnuplot_both(const char *plotdir, const char *script, const char *data, const char *out, const char *names,
		 const char *title, int logx, const char *marks)
{
	return gnuplot(plotdir, script, data, out, "png", names, title, logx, marks) < 0 ||
			       gnuplot(plotdir, script, data, out, "svg", names, title, logx, marks) < 0
		       ? -1
		       : 0;
}
