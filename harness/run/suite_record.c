/* A suite's run in the database: begun, its points, ended. */
#include "suite_record.h"
#include "config.h"
#include "run_here.h"
#include "runlock.h"
#include "sandbox.h"
#include "signals.h"
#include "swap.h"
#include "target.h"
#include "util.h"

#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <zlib.h>

/* A hash of the running kernel's config, where it can be read:
 * /proc/config.gz (zlib reads plain files too), else /boot/config-RELEASE. */
static void kernel_config_hash(const char *release, char *buf, size_t len)
{
	char path[300];
	snprintf(path, sizeof(path), "/boot/config-%s", release);
	gzFile f = gzopen(access("/proc/config.gz", R_OK) == 0 ? "/proc/config.gz" : path, "rb");
	buf[0] = 0;
	if (!f)
		return;
	uint64_t h = 1469598103934665603ull;
	size_t total = 0;
	char chunk[8192];
	int n;
	while ((n = gzread(f, chunk, sizeof(chunk))) > 0) {
		for (int i = 0; i < n; i++) {
			h ^= (unsigned char)chunk[i];
			h *= 1099511628211ull;
		}
		total += (size_t)n;
	}
	gzclose(f);
	if (total && n == 0)
		snprintf(buf, len, "fnv1a64:%016llx", (unsigned long long)h);
}

/* The machine made ready for points: a run's lock, the harness above the
 * load, what a killed run left behind cleared away. */
static int suite_machine(struct suite_run *sr)
{
	char err[1200], tmp[PATH_MAX];
	rb_signals_install();
	if (run_lock_take(sr->db->path, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		return -1;
	}
	/* Thousands of runnable users would starve the harness: its lock ring
	 * reader, its deadline and its signal handling. It mostly sleeps, so
	 * running it above the load costs the load nothing; children go back
	 * to nice 0 before exec. Needs root; without it, nothing changes. */
	setpriority(PRIO_PROCESS, 0, -10);
	sandbox_reap_stale();
	snprintf(tmp, sizeof(tmp), "%s", sr->db->path);
	snprintf(sr->dbdir, sizeof(sr->dbdir), "%s", dirname(tmp));
	swap_reap_stale(sr->dbdir);
	return 0;
}

static void suite_fail(struct suite_run *sr, const char *why)
{
	db_run_end(sr->db, sr->run_id, "failed", why);
}

int suite_begin(struct suite_run *sr, const struct point_env *env, struct db *db, struct suite_result *res)
{
	const struct config *cfg = env->cfg;
	char err[1200], cfghash[64], name[32];
	memset(sr, 0, sizeof(*sr));
	sr->db = db;
	if (suite_machine(sr) < 0)
		return -1;
	struct run_here here;
	run_here_init(&here, cfg->target, NULL, cfg->name[0] ? cfg->name : "unnamed", cfg->text ? cfg->text : "");
	kernel_config_hash(here.u.release, cfghash, sizeof(cfghash));
	struct run_meta m = here.m;
	m.tag = cfg->tag[0] ? cfg->tag : NULL;
	m.kernel_config_hash = cfghash[0] ? cfghash : NULL;
	if (env->target->describe)
		env->target->describe(env, &m);
	if (db_run_begin(sr->db, &m, &sr->run_id, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		return -1;
	}
	res->run = sr->run_id;
	snprintf(name, sizeof(name), "run-%lld", (long long)sr->run_id);
	if (results_dir(db->path, name, sr->rundir, sizeof(sr->rundir)) < 0) {
		suite_fail(sr, "cannot create the run's directory");
		return -1;
	}
	if (cfg->swap_mib > 0 &&
	    swap_enable(sr->dbdir, cfg->swap_mib, sr->swappath, sizeof(sr->swappath), err, sizeof(err)) < 0) {
		rb_error("%s", err);
		suite_fail(sr, err);
		return -1;
	}
	return 0;
}

int suite_record_point(struct suite_run *sr, const struct point_spec *ps, const struct point_out *po)
{
	char err[1200];
	struct point_rec pr = { ps->seq, ps->workload, ps->users, ps->repetition, po->params, po->status,
				po->error[0] ? po->error : NULL, po->started, po->ended };
	if (db_point_record(sr->db, sr->run_id, &pr, &po->ss, NULL, err, sizeof(err)) < 0) {
		rb_error("%s", err);
		return -1;
	}
	return 0;
}

int suite_end(struct suite_run *sr, int failed, int recorded, int total, struct suite_result *res)
{
	const char *status = "done";
	char note[300] = "";
	swap_disable(sr->swappath);
	if (failed < 0) {
		suite_fail(sr, "recording a point failed");
		return 1;
	}
	if (rb_interrupted) {
		status = "aborted";
		snprintf(note, sizeof(note), "interrupted after %d of %d points", recorded, total);
	} else if (failed) {
		status = "failed";
		snprintf(note, sizeof(note), "%d of %d points failed", failed, total);
	}
	db_run_end(sr->db, sr->run_id, status, note[0] ? note : NULL);
	snprintf(res->status, sizeof(res->status), "%s", status);
	snprintf(res->note, sizeof(res->note), "%s", note);
	snprintf(res->dir, sizeof(res->dir), "%s", sr->rundir);
	return !strcmp(status, "done") ? 0 : !strcmp(status, "aborted") ? 130 : 1;
}
