/* The rmap engine: each article scenario against each design, the walk
 * counts, the page tables, the trace parser, and bounded fuzzing
 * (longer runs: make fuzz). */
#include "engine.h"
#include "fuzz.h"
#include "interval_tree.h"
#include "scenarios.h"
#include "tap.h"
#include "replay.h"
#include "trace.h"
#include "walkcost.h"

#include <stdlib.h>
#include <string.h>

static void test_scenarios(void)
{
	for (int s = 0; scenarios[s].name; s++) {
		for (int v = 0; rmap_variants[v]; v++) {
			const struct rmap_ops *ops = rmap_variants[v];
			struct engine e;
			struct trace_ctx t;
			char err[200];
			engine_init(&e, ops);
			trace_init(&t, &e);
			int rc = trace_run_text(&t, scenarios[s].name, scenarios[s].trace, true, err, sizeof(err));
			bool buggy = !strcmp(ops->name, scenarios[s].buggy);
			if (buggy)
				CHECK(rc == 0 && engine_has_fault(&e, scenarios[s].kind), "%s on %s: %s found (%zu faults)",
				      scenarios[s].name, ops->name, scenarios[s].kind, e.nfaults);
			else
				CHECK(rc == 0 && e.nfaults == 0, "%s on %s: no fault (%s)", scenarios[s].name, ops->name,
				      e.nfaults ? e.faults[0].detail : "clean");
			if (!buggy) {
				trace_exit_all(&t);
				bool clean = true;
				for (int c = 0; c < NR_CACHES; c++)
					clean &= e.live[c] == 0;
				CHECK(clean, "%s on %s: nothing left once every process exits", scenarios[s].name, ops->name);
			}
			engine_destroy(&e);
		}
	}
	/* dangling-anon-vma on avc-rc is the oops: the walk itself reports it */
	struct engine e;
	struct trace_ctx t;
	char err[200];
	engine_init(&e, &rmap_avc_rc);
	trace_init(&t, &e);
	trace_run_text(&t, "s", scenario_find("dangling-anon-vma")->trace, false, err, sizeof(err));
	CHECK(engine_has_fault(&e, "dangling_anon_vma"), "without the checker, the rmap walk itself finds the freed anon_vma");
	engine_destroy(&e);
}

/* modern's interval tree: a walk by page index sees only the chains that
 * cover it, boundaries moved by mprotect and munmap keep the tree right,
 * and a boundary moved behind the tree's back is a checker fault. */
static void test_interval_tree(void)
{
	struct engine e;
	struct trace_ctx t;
	char err[200];
	engine_init(&e, &rmap_modern);
	trace_init(&t, &e);
	int rc = trace_run_text(&t, "it",
				"mmap 1 10 8 rw\nwrite 1 10 8\nfork 1 2\nwrite 2 12 2\nmprotect 1 12 2 r\n"
				"munmap 2 16 1\nmprotect 1 12 2 rw\nmremap 1 15 2 40\nreclaim 1 10 8\nreclaim 2 10 8\n",
				true, err, sizeof(err));
	CHECK(rc == 0 && engine_fault_count(&e) == 0, "splits, merges and moves keep the trees right (%s, %zu faults)",
	      err, engine_fault_count(&e));
	struct mm_struct *mm = t.procs[1];
	struct vm_area_struct *vma = find_vma(mm, 10);
	struct anon_vma *root = vma->anon_vma->root;
	unsigned long n = 0, covering = 0;
	struct anon_vma_chain *avc;
	anon_vma_interval_tree_foreach(avc, root, 11, 11)
		n++;
	list_for_each_entry(avc, &root->head, same_anon_vma)
		covering += avc->vma->vm_pgoff <= 11 && 11 < avc->vma->vm_pgoff + (avc->vma->vm_end - avc->vma->vm_start);
	CHECK(n == covering && n >= 2, "the walk for index 11 visits the %lu chains that cover it (%lu)", covering, n);
	unsigned long last = 0;
	int ordered = 1;
	anon_vma_interval_tree_foreach(avc, root, 0, 100)
	{
		ordered &= avc->it_start >= last;
		last = avc->it_start;
	}
	CHECK(ordered, "chains come in order of start pgoff");
	vma->vm_pgoff += 1; /* behind the tree's back */
	engine_check(&e);
	CHECK(engine_has_fault(&e, "interval_tree"), "a boundary moved without the update hooks is found");
	vma->vm_pgoff -= 1;
	engine_destroy(&e);
}

static void test_walkcost(void)
{
	const unsigned long n = 60, p = 20;
	for (int v = 0; rmap_variants[v]; v++) {
		struct walkcost w;
		CHECK(walkcost_run(rmap_variants[v], n, p, &w) == 0, "walkcost %s runs", rmap_variants[v]->name);
		double full = (double)w.walk.vmas_visited / (double)w.walk.walks;
		double ref = (double)w.referenced.vmas_visited / (double)w.referenced.walks;
		CHECK(w.walk.walks == (n + 1) * p && w.referenced.walks == w.walk.walks && w.anon_pages == (n + 1) * p,
		      "%s: one walk of each kind per page (%llu)", rmap_variants[v]->name, (unsigned long long)w.walk.walks);
		if (!strcmp(rmap_variants[v]->name, "legacy")) {
			CHECK(full == (double)(n + 1), "legacy: a walk visits all N+1 vmas (%.3f)", full);
			/* child k's page is found after k+1 vmas: mean (N+2)/2 over children, 1 for the parent */
			double want = ((double)p + (double)p * ((double)n * (double)(n + 3) / 2.0)) / (double)((n + 1) * p);
			CHECK(ref > want - 1e-9 && ref < want + 1e-9, "legacy: page_referenced stops at the mapping (%.3f, "
			      "expected %.3f)", ref, want);
		} else {
			CHECK(full <= 2.0, "%s: a walk visits at most 2 vmas on average (%.3f)", rmap_variants[v]->name,
			      full);
			CHECK(ref <= 2.0, "%s: page_referenced visits at most 2 (%.3f)", rmap_variants[v]->name, ref);
		}
	}
}

static void test_pagetable(void)
{
	struct engine e;
	engine_init(&e, &rmap_modern);
	struct mm_struct *mm = mm_alloc(&e);
	static struct page pages[1];
	static char present[4096];
	unsigned s = 12345;
	int bad = 0;
	for (int i = 0; i < 200000; i++) {
		s = s * 1103515245u + 12345u;
		unsigned long a = 1 + (s >> 8) % 4000;
		if ((s >> 4) & 1) {
			pte_install(&e, mm, a)->page = pages;
			present[a] = 1;
		} else {
			pte_clear(mm, a);
			present[a] = 0;
		}
		if (i % 997 == 0)
			for (unsigned long x = 1; x < 4001; x++)
				bad += (pte_lookup(mm, x) != NULL) != present[x];
	}
	size_t count = 0;
	for (unsigned long x = 1; x < 4001; x++)
		count += present[x];
	CHECK(!bad && count == mm->nr_ptes, "page table agrees with a reference over 200000 inserts and deletes");
	free(mm->ptes);
	mm->ptes = NULL;
	mm->nr_ptes = mm->cap_ptes = 0;
	engine_destroy(&e);
}

static void test_trace_errors(void)
{
	struct {
		const char *text, *want;
	} cases[] = {
		{ "mmap 1 10 2 rw\nfly 1 2\n", "t:2: unknown operation 'fly'" },
		{ "write 1\n", "t:1: write takes 2 to 3 arguments, not 1" },
		{ "mmap 1 10 2 rq\n", "t:1: mmap: 'rq' is not a protection" },
		{ "# c\n\nmunmap 1 x 2\n", "t:3: munmap: 'x' is not a number" },
		{ "exit 99999999\n", "t:1: process 99999999: processes are 1..4194303" },
		{ "mmap 1 10 1000000000 rw\n", "t:1: mmap of 1000000000 pages: at most 67108864" },
		{ "mmap 1 68719476736 1 rw\n", "t:1: mmap: '68719476736' is not a number" },
		{ "fork 1 0\n", "t:1: fork: child 0" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct engine e;
		struct trace_ctx t;
		char err[200] = "";
		engine_init(&e, &rmap_modern);
		trace_init(&t, &e);
		int rc = trace_run_text(&t, "t", cases[i].text, true, err, sizeof(err));
		CHECK(rc < 0 && strstr(err, cases[i].want), "trace error '%s'", err);
		engine_destroy(&e);
	}
	struct engine e;
	struct trace_ctx t;
	char err[200] = "";
	engine_init(&e, &rmap_avc);
	trace_init(&t, &e);
	CHECK(trace_run_text(&t, "t", "write 1 50\nexit 7\nmremap 1 1 1 9\n", true, err, sizeof(err)) == 0 &&
		      t.refused == 3 && e.nfaults == 0,
	      "operations the VM refuses are not errors (%llu refused)", (unsigned long long)t.refused);
	engine_destroy(&e);
}

static void test_fuzz(void)
{
	struct fuzz_opts o = { .max_ops = 8000, .seed = 7, .check_each = true, .reset_every = 2000 };
	for (int i = 0; rmap_variants[i]; i++)
		o.variants[o.nvariants++] = rmap_variants[i];
	struct fuzz_result r;
	fuzz_run(&o, &r);
	for (int i = 0; i < o.nvariants; i++) {
		if (!strcmp(o.variants[i]->name, "avc-rc"))
			CHECK(r.faults[i] > 0, "differential: avc-rc faults (%llu, first %s)", (unsigned long long)r.faults[i],
			      r.first_kind[i]);
		else
			CHECK(r.faults[i] == 0 && r.divergences[i] == 0,
			      "differential: %s survives %llu random operations (%llu faults, first %s)",
			      o.variants[i]->name, (unsigned long long)r.ops, (unsigned long long)r.faults[i],
			      r.first_kind[i]);
	}

	/* the 2.6.34-rc oops, found by chance, not by being told the sequence */
	bool found = false;
	uint64_t after = 0;
	for (unsigned seed = 1; seed <= 20 && !found; seed++) {
		struct fuzz_opts f = { .max_ops = 20000, .seed = seed, .check_each = false, .reset_every = 2000,
				       .stop_at_fault = true };
		f.variants[f.nvariants++] = &rmap_avc_rc;
		fuzz_run(&f, &r);
		found = r.faults[0] && !strcmp(r.first_kind[0], "dangling_anon_vma");
		after += r.ops;
	}
	CHECK(found, "fuzzing avc-rc (walks only, no checker) finds a dangling anon_vma after %llu operations",
	      (unsigned long long)after);

	struct fuzz_opts m = { .max_ops = 8000, .seed = 3, .check_each = true, .reset_every = 1000,
			       .inject_enomem = true };
	m.variants[m.nvariants++] = &rmap_modern;
	fuzz_run(&m, &r);
	CHECK(r.faults[0] == 0, "modern under injected ENOMEM: no leak, no imbalance (%llu faults, first %s)",
	      (unsigned long long)r.faults[0], r.first_kind[0]);
}

/* Without quarantine a freed anon_vma goes at once: a thousand forks and
 * exits leave the engine's list of anon_vmas as they found it, and the
 * family is still whole (ASan checks the frees). */
static void test_no_quarantine(void)
{
	for (int v = 0; rmap_variants[v]; v++) {
		struct engine e;
		engine_init(&e, rmap_variants[v]);
		e.no_quarantine = true;
		struct mm_struct *p = mm_alloc(&e);
		do_mmap(&e, p, 16, 1, VM_READ | VM_WRITE);
		handle_mm_fault(&e, p, 16, true);
		size_t before = 0, after = 0;
		struct anon_vma *av;
		list_for_each_entry(av, &e.anon_vmas, all)
			before++;
		for (int i = 0; i < 1000; i++) {
			struct mm_struct *c = dup_mm(&e, p);
			handle_mm_fault(&e, c, 16, true);
			exit_mmap(&e, c);
		}
		list_for_each_entry(av, &e.anon_vmas, all)
			after++;
		CHECK(after == before && e.live[C_ANON_VMA] == before,
		      "%s without quarantine: %zu anon_vmas kept before 1000 forks, %zu after (%llu live)",
		      rmap_variants[v]->name, before, after, (unsigned long long)e.live[C_ANON_VMA]);
		engine_destroy(&e);
	}
}

static const char *text_next(void *arg, unsigned long *lineno)
{
	static char line[256];
	const char **p = arg;
	if (!**p)
		return NULL;
	size_t n = strcspn(*p, "\n");
	snprintf(line, sizeof(line), "%.*s", (int)n, *p);
	*p += n + ((*p)[n] == '\n');
	++*lineno;
	return line;
}

/* Format 2: process numbers past 255 and reused, spawn, exec and zap;
 * in a strict (recorded) trace, a process that does not exist is an
 * error; and replay_run's census at the peak, on every design. */
static void test_trace_v2(void)
{
	struct engine e;
	struct trace_ctx t;
	char err[200] = "", line[64];
	engine_init(&e, &rmap_modern);
	trace_init(&t, &e);
	int rc = trace_run_text(&t, "t", "mmap 1 100 4 rw\nwrite 1 100 4\n", false, err, sizeof(err));
	for (int c = 2; c < 600 && !rc; c++) {
		snprintf(line, sizeof(line), "fork 1 %d", c);
		rc = trace_exec(&t, line, err, sizeof(err));
		snprintf(line, sizeof(line), "write %d 101", c);
		rc |= trace_exec(&t, line, err, sizeof(err));
	}
	CHECK(rc == 0 && t.live == 599 && t.live_max == 599 && t.procs[599] && t.refused == 0,
	      "599 processes, numbers past 255 (%lu live, %s)", t.live, err);
	rc = trace_run_text(&t, "t", "exit 300\nfork 1 300\nzap 300 100 4\nspawn 1 700\nmmap 700 50 2 rw\n"
				     "write 700 50 2\nexec 700\nwrite 700 50\nspawn 9999 701\n",
			    true, err, sizeof(err));
	CHECK(rc == 0 && t.procs[300] && t.procs[300]->nr_ptes == 0 && t.procs[700] && t.procs[700]->nr_ptes == 0 && t.procs[701] &&
		      t.refused == 1 && engine_fault_count(&e) == 0,
	      "a number reused after exit; zap drops the pages, spawn (its parent gone too) and exec give an empty mm "
	      "(%llu refused, %s)",
	      (unsigned long long)t.refused, err);
	trace_exit_all(&t);
	CHECK(e.live[C_MM] == 0 && e.live[C_PAGE] == 0 && t.procs == t.small, "every process exits; the table is freed");
	engine_destroy(&e);

	engine_init(&e, &rmap_modern);
	trace_init(&t, &e);
	t.strict = true;
	rc = trace_run_text(&t, "t", "mmap 1 10 2 rw\nwrite 7 10\n", false, err, sizeof(err));
	CHECK(rc < 0 && strstr(err, "t:2: write: process 7 does not exist"), "strict: %s", err);
	rc = trace_run_text(&t, "t", "fork 1 2\nfork 1 2\n", false, err, sizeof(err));
	CHECK(rc < 0 && strstr(err, "t:2: fork: child 2 exists already"), "strict: %s", err);
	trace_exit_all(&t);
	engine_destroy(&e);

	/* the walkcost family as a trace: 8 children COW every page */
	char text[4096];
	size_t at = (size_t)snprintf(text, sizeof(text), "mmap 1 100 16 rw\nwrite 1 100 16\n");
	for (int c = 2; c <= 9; c++)
		at += (size_t)snprintf(text + at, sizeof(text) - at, "fork 1 %d\nwrite %d 100 16\n", c, c);
	for (int c = 2; c <= 9; c++)
		at += (size_t)snprintf(text + at, sizeof(text) - at, "exit %d\n", c);
	double walk[RMAP_MAX_VARIANTS];
	for (int v = 0; rmap_variants[v]; v++) {
		struct replay_result r;
		const char *p = text;
		struct replay_opts o = { .census_op = 18, .strict = true, .check = true };
		rc = replay_run(rmap_variants[v], text_next, &p, &o, &r, err, sizeof(err));
		walk[v] = r.peak.walk.walks ? (double)r.peak.walk.vmas_visited / (double)r.peak.walk.walks : 0;
		CHECK(rc == 0 && r.peak_op == 18 && r.peak_pages == 144 && r.peak.taken && r.peak.pages == 144 &&
			      r.end.taken && r.end.pages == 16 && r.procs_max == 9 && r.faults == 0,
		      "%s: the peak after operation %llu, %llu pages, %lu processes", rmap_variants[v]->name,
		      (unsigned long long)r.peak_op, (unsigned long long)r.peak_pages, r.procs_max);
	}
	/* legacy: every page 9 vmas; modern: a child's copy 1, the parent's
	 * 16 pages all 9 */
	CHECK(walk[0] == 9 && walk[3] == (128.0 + 16 * 9) / 144,
	      "VMAs per walk at the peak: legacy %.3f (9), modern %.3f (1.889)", walk[0], walk[3]);
	const char *bad = "mmap 1 10 2 rw\nexit 1\nwrite 1 10\n";
	struct replay_result r;
	struct replay_opts strict = { .strict = true }, lax = { 0 };
	rc = replay_run(&rmap_avc, text_next, &bad, &strict, &r, err, sizeof(err));
	CHECK(rc < 0 && strstr(err, "3: write: process 1 does not exist"), "a recorded trace is strict: %s", err);
	bad = "mmap 1 10 2 rw\nexit 1\nwrite 1 10\n";
	rc = replay_run(&rmap_avc, text_next, &bad, &lax, &r, err, sizeof(err));
	CHECK(rc == 0 && r.refused == 1, "a written one refuses the operation (%llu refused)", (unsigned long long)r.refused);
}

/* reclaim over the whole address space (a trace may name 2^36 pages)
 * takes the mm's own ptes, in order: the same walks, the same state as a
 * reclaim of just the mapped ranges, and no loop over 2^36 addresses. */
static void test_reclaim_sparse(void)
{
	const char *setup = "mmap 1 100 16 rw\nwrite 1 100 16\nfork 1 2\nwrite 2 100 8\nmmap 1 5000 4 rw\n"
			    "write 1 5000 4\nfork 1 3\n";
	const char *tails[] = { "reclaim 1 100 16\nreclaim 1 5000 4\n", "reclaim 1 1 68719476735\n",
				"reclaim 1 0 68719476735\n" };
	for (int v = 0; rmap_variants[v]; v++) {
		uint64_t hash[3], walks[3], visited[3];
		int rc = 0;
		for (int k = 0; k < 3; k++) {
			struct engine e;
			struct trace_ctx t;
			char err[200] = "";
			engine_init(&e, rmap_variants[v]);
			trace_init(&t, &e);
			rc |= trace_run_text(&t, "s", setup, true, err, sizeof(err));
			rc |= trace_run_text(&t, "s", tails[k], true, err, sizeof(err));
			hash[k] = trace_state_hash(&t);
			walks[k] = e.ws.walks;
			visited[k] = e.ws.vmas_visited;
			rc |= t.procs[1]->nr_ptes != 20 || engine_fault_count(&e) != 0;
			trace_exit_all(&t);
			engine_destroy(&e);
		}
		CHECK(rc == 0 && hash[1] == hash[0] && hash[2] == hash[0] && walks[1] == walks[0] &&
			      walks[2] == walks[0] && visited[1] == visited[0] && walks[0] > 0,
		      "%s: reclaim of 2^36 pages is the reclaim of the mapped ones (%llu walks, %llu VMAs)",
		      rmap_variants[v]->name, (unsigned long long)walks[1], (unsigned long long)visited[1]);
	}
}

int main(void)
{
	test_no_quarantine();
	test_interval_tree();
	test_scenarios();
	test_walkcost();
	test_pagetable();
	test_trace_errors();
	test_trace_v2();
	test_reclaim_sparse();
	test_fuzz();
	return tap_done();
}
