#include "fuzz.h"
#include "trace.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PID 8   /* few processes and a small address space: */
#define SPACE 72    /* overlaps, merges and shared pages are common */
#define LOG_LINES 4096

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static unsigned rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return (unsigned)(*s >> 11);
}

static const char *prot(uint64_t *s)
{
	static const char *const p[] = { "rw", "rw", "r", "rw", "none", "rwx" };
	return p[rnd(s) % 6];
}

/* A range inside a random vma of the process, or anywhere. */
static void pick_range(uint64_t *s, struct mm_struct *mm, unsigned long *addr, unsigned long *len)
{
	int nv = mm->nr_vmas;
	if (nv && rnd(s) % 4) {
		int k = (int)(rnd(s) % (unsigned)nv);
		struct vm_area_struct *v;
		list_for_each_entry(v, &mm->mmap, vm_list)
			if (k-- == 0)
				break;
		unsigned long span = v->vm_end - v->vm_start;
		*addr = v->vm_start + rnd(s) % span;
		*len = 1 + rnd(s) % (v->vm_end - *addr);
		return;
	}
	*addr = 1 + rnd(s) % SPACE;
	*len = 1 + rnd(s) % 6;
}

struct lane {
	struct engine e;
	struct trace_ctx t;
	size_t seen_faults;
};

/* mremap moves a range inside one vma; the designs merge vmas by
 * different rules, so a range may be one vma in one and two in another.
 * The differential run only moves what every design can move, so that a
 * divergence means an rmap difference, not a merge policy. */
static bool movable_everywhere(struct lane *lanes, int n, int pid, unsigned long addr, unsigned long len,
			       unsigned long to)
{
	for (int i = 0; i < n; i++) {
		struct mm_struct *mm = lanes[i].t.procs[pid];
		struct vm_area_struct *v = mm ? find_vma(mm, addr) : NULL, *d = mm ? find_vma(mm, to) : NULL;
		if (!v || v->vm_start > addr || addr + len > v->vm_end || (d && d->vm_start < to + len))
			return false;
	}
	return true;
}

static void gen(uint64_t *s, struct lane *lanes, int nlanes, char *line, size_t len)
{
	struct trace_ctx *t = &lanes[0].t;
	int live[MAX_PID], nlive = 0, freepid = 0;
	for (int p = 1; p < MAX_PID; p++) {
		if (t->procs[p])
			live[nlive++] = p;
		else if (!freepid)
			freepid = p;
	}
	int p = live[rnd(s) % (unsigned)nlive];
	struct mm_struct *mm = t->procs[p];
	unsigned long addr, n;
	unsigned op = rnd(s) % 100;
	pick_range(s, mm, &addr, &n);
	if (op < 10)
		snprintf(line, len, "mmap %d %u %u %s", p, 1 + rnd(s) % SPACE, 1 + rnd(s) % 6, prot(s));
	else if (op < 34)
		snprintf(line, len, "write %d %lu %lu", p, addr, n);
	else if (op < 42)
		snprintf(line, len, "read %d %lu %lu", p, addr, n);
	else if (op < 52 && freepid)
		snprintf(line, len, "fork %d %d", p, freepid);
	else if (op < 58 && nlive > 1)
		snprintf(line, len, "exit %d", p);
	else if (op < 64)
		snprintf(line, len, "munmap %d %lu %lu", p, addr, n);
	else if (op < 76)
		snprintf(line, len, "mprotect %d %lu %lu %s", p, addr, n, prot(s));
	else if (op < 82) {
		unsigned long to = 1 + rnd(s) % SPACE;
		if (movable_everywhere(lanes, nlanes, p, addr, n, to))
			snprintf(line, len, "mremap %d %lu %lu %lu", p, addr, n, to);
		else
			snprintf(line, len, "read %d %lu %lu", p, addr, n);
	}
	else
		snprintf(line, len, "reclaim %d %lu %lu", p, addr, n);
}

static void lane_start(struct lane *l, const struct rmap_ops *ops)
{
	engine_init(&l->e, ops);
	trace_init(&l->t, &l->e);
	l->seen_faults = 0;
}

/* Every process exits; whatever is still allocated then is a leak. */
static void lane_stop(struct lane *l, bool check)
{
	trace_exit_all(&l->t);
	if (check) {
		for (int c = 0; c < NR_CACHES; c++)
			if (l->e.live[c])
				engine_fault(&l->e, "leak", "%llu %s left after every process exited",
					     (unsigned long long)l->e.live[c], cache_names[c]);
	}
}

static const struct fault *lane_kind(struct lane *l, const char *kind)
{
	for (size_t k = l->seen_faults; k < l->e.nfaults; k++)
		if (!strcmp(l->e.faults[k].kind, kind))
			return &l->e.faults[k];
	return NULL;
}

static bool lane_has_kind(struct lane *l, const char *kind)
{
	return lane_kind(l, kind) != NULL;
}

/* The operations since the machine started: a trace that replays to the
 * same fault on a fresh engine. */
static void write_trace(FILE *out, struct lane *l, const struct fault *f, uint64_t op, char (*log)[96], size_t nlog)
{
	fprintf(out, "# %s: fault %s after %llu operations: %s\n", l->e.ops->name, f->kind, (unsigned long long)op,
		f->detail);
	fprintf(out, "# the operations since the machine started:\n");
	size_t first = nlog > LOG_LINES ? nlog - LOG_LINES : 0;
	for (size_t k = first; k < nlog; k++)
		fprintf(out, "%s\n", log[k % LOG_LINES]);
}

int fuzz_run(const struct fuzz_opts *o, struct fuzz_result *r)
{
	struct lane lanes[RMAP_MAX_VARIANTS];
	uint64_t s = (uint64_t)o->seed * 0x9E3779B97F4A7C15ull + 1;
	char (*log)[96] = calloc(LOG_LINES, sizeof(*log));
	size_t nlog = 0;
	bool stop = false;
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < o->nvariants; i++)
		lane_start(&lanes[i], o->variants[i]);
	double t0 = now();
	for (uint64_t op = 0; !stop && op < o->max_ops; op++) {
		if ((op & 255) == 0 && o->max_seconds > 0 && now() - t0 > o->max_seconds)
			break;
		char line[96];
		gen(&s, lanes, o->nvariants, line, sizeof(line));
		snprintf(log[nlog++ % LOG_LINES], sizeof(log[0]), "%s", line);
		uint64_t fail_at = o->inject_enomem && rnd(&s) % 20 == 0 ? 1 + rnd(&s) % 6 : 0;
		uint64_t ref = 0;
		for (int i = 0; i < o->nvariants; i++) {
			struct lane *l = &lanes[i];
			char err[160];
			l->e.fail_alloc_at = fail_at;
			trace_exec(&l->t, line, err, sizeof(err));
			l->e.fail_alloc_at = 0;
			if (o->check_each)
				engine_check(&l->e);
			/* with allocation failures the designs may legitimately differ */
			uint64_t h = trace_state_hash(&l->t);
			if (i == 0)
				ref = h;
			else if (h != ref && !o->inject_enomem && strcmp(o->variants[0]->name, "legacy") == 0) {
				if (!r->divergences[i]++)
					engine_fault(&l->e, "divergence", "after operation %llu (%s) pages are mapped "
						     "differently from legacy", (unsigned long long)op, line);
			}
		}
		r->ops = op + 1;
		/* A known finding reached: count it and start every lane afresh
		 * (the oracle included), so that what follows can still find
		 * something new. */
		bool known = false;
		for (int i = 0; i < o->nvariants && !o->known_as_faults; i++) {
			struct lane *l = &lanes[i];
			if (!l->e.nfindings)
				continue;
			known = true;
			r->known[i] += l->e.nfindings;
			snprintf(r->known_name[i], sizeof(r->known_name[i]), "%s", l->e.finding);
		}
		if (known) {
			for (int i = 0; i < o->nvariants; i++) {
				lane_stop(&lanes[i], false);
				engine_destroy(&lanes[i].e);
				lane_start(&lanes[i], o->variants[i]);
			}
			nlog = 0;
			continue;
		}
		bool reset = o->reset_every && (op + 1) % o->reset_every == 0;
		for (int i = 0; i < o->nvariants; i++) {
			struct lane *l = &lanes[i];
			if (reset)
				lane_stop(l, o->check_each);
			size_t total = engine_fault_count(&l->e);
			if (total > l->seen_faults && o->until_kind &&
			    !lane_has_kind(l, o->until_kind)) {
				/* not the one hunted: start this machine afresh */
				r->other_faults[i] += total - l->seen_faults;
				lane_stop(l, false);
				engine_destroy(&l->e);
				lane_start(l, o->variants[i]);
				nlog = 0;
				continue;
			}
			if (total > l->seen_faults) {
				if (!r->faults[i]) {
					const struct fault *f = o->until_kind ? lane_kind(l, o->until_kind)
									      : &l->e.faults[l->seen_faults];
					snprintf(r->first_kind[i], sizeof(r->first_kind[i]), "%s", f->kind);
					r->first_op[i] = op + 1;
					if (o->trace_out)
						write_trace(o->trace_out, l, f, op + 1, log, nlog);
				}
				r->faults[i] += total - l->seen_faults;
				l->seen_faults = total;
				/* in a differential run, avc-rc's faults are expected */
				if (o->until_kind ||
				    (o->stop_at_fault && (o->nvariants == 1 || !l->e.ops->has_known_bugs)))
					stop = true;
			}
			if (reset) {
				engine_destroy(&l->e);
				lane_start(l, o->variants[i]);
			}
		}
		if (reset)
			nlog = 0;
	}
	for (int i = 0; i < o->nvariants; i++) {
		lane_stop(&lanes[i], false);
		engine_destroy(&lanes[i].e);
	}
	r->seconds = now() - t0;
	free(log);
	return 0;
}
