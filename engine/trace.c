#include "trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void trace_init(struct trace_ctx *t, struct engine *e)
{
	memset(t, 0, sizeof(*t));
	t->e = e;
	t->nprocs = sizeof(t->small) / sizeof(t->small[0]);
	t->procs = t->small;
	t->procs[1] = mm_alloc(e);
	t->live = t->live_max = 1;
}

void trace_exit_all(struct trace_ctx *t)
{
	for (unsigned long p = 1; p < t->nprocs; p++)
		if (t->procs[p]) {
			exit_mmap(t->e, t->procs[p]);
			t->procs[p] = NULL;
		}
	if (t->procs != t->small)
		free(t->procs);
	t->procs = t->small;
	t->nprocs = sizeof(t->small) / sizeof(t->small[0]);
	t->live = 0;
}

/* Room for process number p: the table doubles. */
static int procs_reserve(struct trace_ctx *t, unsigned long p)
{
	if (p < t->nprocs)
		return 0;
	unsigned long n = t->nprocs;
	while (n <= p)
		n *= 2;
	struct mm_struct **np = t->procs == t->small ? malloc(n * sizeof(*np)) : realloc(t->procs, n * sizeof(*np));
	if (!np)
		return -1;
	if (t->procs == t->small)
		memcpy(np, t->small, sizeof(t->small));
	memset(np + t->nprocs, 0, (n - t->nprocs) * sizeof(*np));
	t->procs = np;
	t->nprocs = n;
	return 0;
}

static struct mm_struct *proc(const struct trace_ctx *t, unsigned long p)
{
	return p < t->nprocs ? t->procs[p] : NULL;
}

static int parse_prot(const char *s, unsigned long *flags)
{
	*flags = 0;
	if (!strcmp(s, "none"))
		return 0;
	for (; *s; s++) {
		if (*s == 'r')
			*flags |= VM_READ;
		else if (*s == 'w')
			*flags |= VM_WRITE;
		else if (*s == 'x')
			*flags |= VM_EXEC;
		else
			return -1;
	}
	return 0;
}

static int num(const char *s, unsigned long *v)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (errno || end == s || *end || x >= TRACE_ADDR_LIMIT)
		return -1;
	*v = (unsigned long)x;
	return 0;
}

int trace_exec(struct trace_ctx *t, const char *line, char *err, size_t errlen)
{
	char buf[256], *tok[8];
	int n = 0;
	snprintf(buf, sizeof(buf), "%s", line);
	char *hash = strchr(buf, '#');
	if (hash)
		*hash = 0;
	for (char *save = NULL, *p = strtok_r(buf, " \t\r\n", &save); p && n < 8; p = strtok_r(NULL, " \t\r\n", &save))
		tok[n++] = p;
	if (!n)
		return 0;
	struct engine *e = t->e;
	const char *op = tok[0];
	if (!strcmp(op, "check")) {
		engine_check(e);
		return 0;
	}
	static const struct {
		const char *name;
		int min, max;
	} shapes[] = { { "mmap", 5, 5 },    { "write", 3, 4 },    { "read", 3, 4 },   { "swapin", 3, 4 },
		       { "fork", 3, 3 },    { "exit", 2, 2 },     { "munmap", 4, 4 }, { "mprotect", 5, 5 },
		       { "mremap", 5, 5 },  { "reclaim", 4, 4 },  { "walk", 4, 4 },   { "spawn", 3, 3 },
		       { "exec", 2, 2 },    { "zap", 3, 4 } };
	size_t k;
	for (k = 0; k < sizeof(shapes) / sizeof(shapes[0]) && strcmp(shapes[k].name, op); k++)
		;
	if (k == sizeof(shapes) / sizeof(shapes[0])) {
		snprintf(err, errlen, "unknown operation '%s'", op);
		return -1;
	}
	if (n < shapes[k].min || n > shapes[k].max) {
		snprintf(err, errlen, "%s takes %d to %d arguments, not %d", op, shapes[k].min - 1, shapes[k].max - 1, n - 1);
		return -1;
	}
	unsigned long a[4] = { 0, 0, 1, 0 }, flags = 0;
	for (int i = 1; i < n; i++) {
		bool is_prot = (!strcmp(op, "mmap") || !strcmp(op, "mprotect")) && i == 4;
		if (is_prot ? parse_prot(tok[i], &flags) < 0 : num(tok[i], &a[i - 1]) < 0) {
			snprintf(err, errlen, "%s: '%s' is not %s", op, tok[i], is_prot ? "a protection" : "a number");
			return -1;
		}
	}
	unsigned long pid = a[0];
	if (pid == 0 || pid >= TRACE_PROC_LIMIT) {
		snprintf(err, errlen, "process %lu: processes are 1..%lu", pid, TRACE_PROC_LIMIT - 1);
		return -1;
	}
	bool maps = !strcmp(op, "mmap") || !strcmp(op, "mremap");
	if (maps && a[2] > TRACE_MAX_MAP_PAGES) {
		snprintf(err, errlen, "%s of %lu pages: at most %lu (256 GiB of 4 KiB pages) at once", op, a[2],
			 TRACE_MAX_MAP_PAGES);
		return -1;
	}
	/* the pages a fault or walk line touches one by one */
	bool runs = op[0] == 'w' || op[0] == 'r' || (op[0] == 's' && op[1] == 'w');
	if (runs && strcmp(op, "reclaim") && a[2] > TRACE_MAX_RUN_PAGES) {
		snprintf(err, errlen, "%s of %lu pages: at most %lu a line (split the run)", op, a[2], TRACE_MAX_RUN_PAGES);
		return -1;
	}
	struct mm_struct *mm = proc(t, pid);
	bool creates = !strcmp(op, "spawn");
	if (!mm && t->strict && !creates) {
		snprintf(err, errlen, "%s: process %lu does not exist (never forked, or exited)", op, pid);
		return -1;
	}
	t->ops++;
	engine_note_op(e, "%s", line);
	if (!mm && !creates) { /* spawn does not use P's mm: P may have exited */
		t->refused++; /* no such process: refused like a bad syscall */
		return 0;
	}
	int rc = 0;
	if (!strcmp(op, "mmap")) {
		rc = do_mmap(e, mm, a[1], a[2], flags);
	} else if (!strcmp(op, "write") || !strcmp(op, "read") || !strcmp(op, "swapin")) {
		unsigned long len = n == 4 ? a[2] : 1;
		for (unsigned long i = 0; i < len; i++)
			rc |= handle_mm_fault(e, mm, a[1] + i, op[0] == 'w');
	} else if (!strcmp(op, "fork") || creates) {
		unsigned long child = a[1];
		if (child == 0 || child >= TRACE_PROC_LIMIT) {
			snprintf(err, errlen, "%s: child %lu: processes are 1..%lu", op, child, TRACE_PROC_LIMIT - 1);
			return -1;
		}
		if (proc(t, child)) {
			if (t->strict) {
				snprintf(err, errlen, "%s: child %lu exists already", op, child);
				return -1;
			}
			rc = -EEXIST;
		} else if (procs_reserve(t, child) < 0 || !(t->procs[child] = creates ? mm_alloc(e) : dup_mm(e, mm))) {
			rc = -ENOMEM;
		} else if (++t->live > t->live_max) {
			t->live_max = t->live;
		}
	} else if (!strcmp(op, "exec")) {
		struct mm_struct *fresh = mm_alloc(e);
		if (!fresh) {
			rc = -ENOMEM;
		} else {
			exit_mmap(e, mm);
			t->procs[pid] = fresh;
		}
	} else if (!strcmp(op, "exit")) {
		exit_mmap(e, mm);
		t->procs[pid] = NULL;
		t->live--;
	} else if (!strcmp(op, "zap")) {
		rc = madvise_dontneed(e, mm, a[1], a[2]);
	} else if (!strcmp(op, "munmap")) {
		rc = do_munmap(e, mm, a[1], a[2]);
	} else if (!strcmp(op, "mprotect")) {
		rc = do_mprotect(e, mm, a[1], a[2], flags);
	} else if (!strcmp(op, "mremap")) {
		rc = do_mremap(e, mm, a[1], a[2], a[3]);
	} else if (!strcmp(op, "reclaim")) {
		shrink_mm(e, mm, a[1], a[2]);
	} else if (!strcmp(op, "walk")) {
		for (unsigned long i = 0; i < a[2]; i++) {
			struct pte *p = pte_lookup(mm, a[1] + i);
			if (p && !p->swap)
				page_referenced(e, p->page);
		}
	}
	if (rc)
		t->refused++;
	return 0;
}

uint64_t trace_state_hash(const struct trace_ctx *t)
{
	uint64_t h = 0;
	for (unsigned long pid = 1; pid < t->nprocs; pid++) {
		const struct mm_struct *mm = t->procs[pid];
		if (!mm)
			continue;
		for (size_t i = 0; i < mm->cap_ptes; i++) {
			const struct pte *p = &mm->ptes[i];
			if (!p->addr)
				continue;
			uint64_t x = ((uint64_t)pid << 56) ^ ((uint64_t)p->addr << 17) ^ (p->page->id * 0x9E3779B97F4A7C15ull) ^
				     (uint64_t)p->swap;
			x ^= x >> 31;
			x *= 0xBF58476D1CE4E5B9ull;
			h += x ^ (x >> 29); /* a sum: the table's order does not matter */
		}
		h += (uint64_t)pid * 0x94D049BB133111EBull;
	}
	return h;
}

int trace_run_text(struct trace_ctx *t, const char *origin, const char *text, bool check_each, char *err,
		   size_t errlen)
{
	int lineno = 0;
	for (const char *line = text; line && *line;) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		char buf[256], msg[200];
		lineno++;
		if (len >= sizeof(buf) && line[strspn(line, " \t")] == '#') { /* a long comment: a header */
			line = eol ? eol + 1 : NULL;
			continue;
		}
		if (len >= sizeof(buf)) {
			snprintf(err, errlen, "%s:%d: line too long", origin, lineno);
			return -1;
		}
		memcpy(buf, line, len);
		buf[len] = 0;
		if (trace_exec(t, buf, msg, sizeof(msg)) < 0) {
			snprintf(err, errlen, "%s:%d: %s", origin, lineno, msg);
			return -1;
		}
		if (check_each && strspn(buf, " \t") != len && buf[strspn(buf, " \t")] != '#')
			engine_check(t->e);
		line = eol ? eol + 1 : NULL;
	}
	return 0;
}
