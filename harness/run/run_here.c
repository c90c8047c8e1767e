/* A run made here (run_here.h): its facts, its results folder, whole runs
 * of measured points recorded. */
#include "run_here.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rev.h"

int results_path(const char *db_path, const char *name, char *buf, size_t len)
{
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof(tmp), "%s", db_path);
	const char *slash = strrchr(tmp, '/');
	const char *base = slash ? slash + 1 : tmp;
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - tmp) : 1, slash ? tmp : ".");
	if (slash == tmp)
		snprintf(dir, sizeof(dir), "/");
	if (!strcmp(base, "rmapbench.db"))
		snprintf(buf, len, "%s/%s", dir, name);
	else
		snprintf(buf, len, "%s/%s-%s", dir, base, name);
	return rb_mkdir_p(dir);
}

int results_dir(const char *db_path, const char *name, char *buf, size_t len)
{
	char pinned[64];
	if (results_path(db_path, name, buf, len) < 0 || rb_own_dir(buf, 0755) < 0 ||
	    rb_dir_pin(buf, pinned, sizeof(pinned)) < 0) {
		rb_error("results directory %s: %s%s", buf, strerror(errno),
			 errno == ELOOP ? " (a symbolic link: refusing to write through it)"
			 : errno == EPERM ? " (not ours, or written by others: refusing to write in it)" : "");
		return -1;
	}
	/* every file of the run goes through the directory opened now */
	snprintf(buf, len, "%s", pinned);
	return 0;
}

const char *rb_revision(void)
{
	return RMAPBENCH_REV;
}

void machine_fingerprint(char *buf, size_t len)
{
	char model[200] = "unknown", path[300];
	char *cpuinfo = rb_read_file(rb_sys_path("/proc/cpuinfo", path, sizeof(path)), NULL);
	const char *m = cpuinfo ? strstr(cpuinfo, "model name") : NULL;
	if (m && (m = strchr(m, ':'))) {
		snprintf(model, sizeof(model), "%.*s", (int)strcspn(m + 1, "\n"), m + 1);
		rb_trim(model);
		for (char *c = model; *c; c++)
			if (*c == ';' || *c == '=')
				*c = ' ';
	}
	free(cpuinfo);
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	struct utsname u;
	uname(&u);
	snprintf(buf, len, "cpu=%s;cores=%ld;ram_gib=%.0f;kernel=%s", model, sysconf(_SC_NPROCESSORS_CONF),
		 (double)pages * (double)psz / (1024.0 * 1024 * 1024), u.release);
}

void run_here_init(struct run_here *h, const char *target, const char *variant, const char *config_name,
		   const char *config_text)
{
	memset(h, 0, sizeof(*h));
	uname(&h->u);
	gethostname(h->host, sizeof(h->host) - 1);
	machine_fingerprint(h->fingerprint, sizeof(h->fingerprint));
	h->m = (struct run_meta){ .revision = rb_revision(), .host = h->host, .kernel_release = h->u.release,
				  .target = target, .variant = variant, .config_name = config_name,
				  .config_text = config_text, .fingerprint = h->fingerprint };
}

int db_open_said(const char *db_path, struct db *db)
{
	char err[1200];
	if (db_open(db_path, db, err, sizeof(err)) == 0)
		return 0;
	rb_error("%s", err);
	return -1;
}

int run_record(const char *db_path, const struct run_meta *m, const struct recorded_point *p, int n, const char *note,
	       int64_t *run)
{
	struct db db;
	char err[1200], now[32];
	*run = 0;
	if (db_open(db_path, &db, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		return -1;
	}
	int64_t id;
	rb_utc_now(now, sizeof(now));
	int rc = db_run_begin(&db, m, &id, err, sizeof(err));
	for (int i = 0; !rc && i < n; i++) {
		struct point_rec pr = { i + 1, p[i].workload, p[i].users, 1, p[i].params, "done", NULL, now, now };
		rc = db_point_record(&db, id, &pr, p[i].ss, NULL, err, sizeof(err));
	}
	if (rc)
		rb_error("%s", err);
	else
		db_run_end(&db, id, "done", note);
	db_close(&db);
	if (!rc)
		*run = id;
	return rc;
}
