#include "record.h"
#include "util.h"

#include <string.h>
#include <unistd.h>

#include "rev.h"

const char *rb_revision(void)
{
	return RMAPBENCH_REV;
}

void run_here_init(struct run_here *h, const char *target, const char *variant, const char *config_name,
		   const char *config_text)
{
	memset(h, 0, sizeof(*h));
	uname(&h->u);
	gethostname(h->host, sizeof(h->host) - 1);
	h->m = (struct run_meta){ .revision = rb_revision(), .host = h->host, .kernel_release = h->u.release,
				  .target = target, .variant = variant, .config_name = config_name,
				  .config_text = config_text };
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
