#!/usr/bin/env bash
# The README's "Extending rmapbench" recipes, followed to the letter in a
# copy of the tree: a toy collector and a toy workload, each one new file
# plus one registry line, then a build and a run that lists both and
# records what each measured.
set -u
source "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
copy="$tmp/tree"
mkdir -p "$copy"
(cd "$top" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$copy") ||
	fail "copying the tree"

# The collector recipe: collect/collect_toy.c and a line in collectors.def.
cat >"$copy/collect/collect_toy.c" <<'C'
#include "collector.h"

static void toy_start(struct coll_ctx *c)
{
	(void)c;
}

static void toy_stop(struct coll_ctx *c)
{
	ss_add(c->out, "toy_wall_ms", c->wall_s * 1000, "ms");
	ss_unavailable(c->out, "toy_cycles", "a toy collector counts no cycles");
}

const struct collector coll_toy = {
	.name = "toy",
	.summary = "a toy: the point's wall time in ms",
	.start = toy_start,
	.stop = toy_stop,
};
C
echo 'COLLECTOR(toy)' >>"$copy/collect/collectors.def"

# The workload recipe: workloads/toy.c and a line in workloads.def.
cat >"$copy/workloads/toy.c" <<'C'
#include "workload.h"

static int toy_user(struct wl_ctx *ctx, int id, struct wl_slot *slot)
{
	(void)id;
	while (!wl_should_stop(ctx, slot))
		slot->jobs++;
	return 0;
}

const struct workload wl_toy = {
	.name = "toy",
	.summary = "a toy: each user counts jobs until the duration is over",
	.user = toy_user,
};
C
echo 'WORKLOAD(toy)' >>"$copy/workloads/workloads.def"

# The target recipe: harness/run/target_toy.c and a line in targets.def.
# A toy: our workload on the running kernel, without the host's collectors.
cat >"$copy/harness/run/target_toy.c" <<'C'
#include "target.h"
#include "target_host.h"

static int toy_prepare(struct point_env *env, const char *db_path)
{
	(void)db_path;
	return target_find_load(env);
}

static int toy_run(const struct point_env *env, const struct point_spec *ps, struct point_out *out)
{
	int rc = point_run(env, ps, target_plan_kernel, false, out);
	ss_attr(&out->ss, "toy_target", "ran %s users=%ld", ps->workload, ps->users);
	return rc;
}

const struct target target_toy = {
	.name = "toy",
	.summary = "a toy: the host's point without its collectors",
	.prepare = toy_prepare,
	.run = toy_run,
};
C
echo 'TARGET(toy)' >>"$copy/harness/run/targets.def"

make -C "$copy" -s -j2 build/rmapbench build/rmapbench-load build/rmapbench-agent >"$tmp/make.log" 2>&1 ||
	fail "the tree with the toys does not build: $(tail -n 5 "$tmp/make.log")"
export RMAPBENCH_LOAD=$copy/build/rmapbench-load RMAPBENCH_AGENT=$copy/build/rmapbench-agent
"$copy/build/rmapbench" workloads | grep -q '^toy ' || fail "rmapbench workloads does not list toy"
cat >"$tmp/toy.conf" <<'CONF'
workloads = toy
users = 2
duration_s = 0.5
collectors = cpu toy
CONF
"$copy/build/rmapbench" --db "$tmp/db/toy.db" run "$tmp/toy.conf" >"$tmp/run.log" 2>&1 ||
	fail "a toy run failed: $(tail -n 5 "$tmp/run.log")"
n=$(sqlite3 "$tmp/db/toy.db" "SELECT count(*) FROM results WHERE metric = 'toy_wall_ms' AND value > 0")
[[ $n == 1 ]] || fail "the toy collector's metric was recorded $n times, expected once"
n=$(sqlite3 "$tmp/db/toy.db" "SELECT count(*) FROM unavailable WHERE metric = 'toy_cycles'")
[[ $n == 1 ]] || fail "the toy collector's unavailable metric was recorded $n times"
n=$(sqlite3 "$tmp/db/toy.db" "SELECT count(*) FROM results r JOIN points p ON p.id = r.point_id
	WHERE p.workload = 'toy' AND r.metric = 'jobs_per_min' AND r.value > 0")
[[ $n == 1 ]] || fail "the toy workload's jobs_per_min was recorded $n times"
# the config's validation reads the same registry
printf 'collectors = nosuch\n' >"$tmp/bad.conf"
"$copy/build/rmapbench" --db "$tmp/db/toy.db" run "$tmp/bad.conf" 2>"$tmp/err" && fail "collectors = nosuch accepted"
grep -q "unknown collector 'nosuch' (cpu, lock, pfm, vmstat, rmap, klog, profile, toy)" "$tmp/err" ||
	fail "the error does not list the toy: $(cat "$tmp/err")"
# the toy target: listed, validated by the same table, and it runs points
"$copy/build/rmapbench" targets | grep -q '^toy ' || fail "rmapbench targets does not list toy"
cat >"$tmp/toyt.conf" <<'CONF'
target = toy
workloads = toy
users = 2
duration_s = 0.5
CONF
"$copy/build/rmapbench" --db "$tmp/db/toy.db" run "$tmp/toyt.conf" >"$tmp/runt.log" 2>&1 ||
	fail "a run on the toy target failed: $(tail -n 5 "$tmp/runt.log")"
n=$(sqlite3 "$tmp/db/toy.db" "SELECT count(*) FROM runs r JOIN points p ON p.run_id = r.id
	JOIN results x ON x.point_id = p.id WHERE r.target = 'toy' AND x.metric = 'jobs_per_min' AND x.value > 0")
[[ $n == 1 ]] || fail "the toy target's point recorded jobs_per_min $n times"
n=$(sqlite3 "$tmp/db/toy.db" "SELECT count(*) FROM runs r JOIN points p ON p.run_id = r.id
	JOIN results x ON x.point_id = p.id WHERE r.target = 'toy' AND x.metric = 'toy_wall_ms'")
[[ $n == 0 ]] || fail "the toy target ran the host's collectors"
printf 'target = nosuch\n' >"$tmp/badt.conf"
"$copy/build/rmapbench" --db "$tmp/db/toy.db" run "$tmp/badt.conf" 2>"$tmp/err" && fail "target = nosuch accepted"
grep -q "unknown target 'nosuch' (host, vm, engine, toy)" "$tmp/err" ||
	fail "the error does not list the toy target: $(cat "$tmp/err")"
echo "a toy collector, workload and target: one file and one line each"
