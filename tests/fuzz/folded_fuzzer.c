/* The profile's readers of outside bytes: folded-stack lines (a .folded
 * file, the simulator's profile lines), a point's indexed stacks (a
 * database's profile_stack_N against its profile_sym_N), perf ring
 * records (a guest's or this kernel's), kallsyms text. The first byte
 * picks the reader; each result stays within its bounds. */
#include "folded.h"
#include "fuzz.h"
#include "ksyms.h"
#include "profile.h"

#include <stdlib.h>
#include <string.h>

static void check(const struct folded *f)
{
	if (f->n > FOLDED_MAX_STACKS)
		__builtin_trap();
	for (int i = 0; i < f->n; i++) {
		const char *s = f->v[i].frames;
		int frames = 1;
		for (const char *p = s; *p; p++)
			frames += *p == ';';
		if (!*s || frames > FOLDED_MAX_FRAMES || strlen(s) >= FOLDED_MAX_FRAMES * FOLDED_MAX_NAME ||
		    !(f->v[i].count > 0))
			__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = 0;
	struct folded f = { 0 };
	switch (data[0] % 4) {
	case 0: /* lines */
		for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			folded_add_line(&f, l);
		break;
	case 1: { /* indexed: names up to the first blank line, then stacks */
		const char *syms[64];
		int n = 0, stacks = 0;
		for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			if (!stacks && !strcmp(l, "-"))
				stacks = 1;
			else if (!stacks && n < 64)
				syms[n++] = l;
			else
				folded_add_indexed(&f, syms, n, l);
		}
		break;
	}
	case 2: { /* ring records */
		struct prof_sample s;
		struct ksyms k = { 0 };
		for (size_t off = 1; off < size;) {
			size_t len = size - off < 1 + (size_t)data[off] * 4 ? size - off : 1 + (size_t)data[off] * 4;
			if (profile_parse_record(data + off, len, &s) == 1) {
				if (s.nr > FOLDED_MAX_FRAMES)
					__builtin_trap();
				profile_fold(&f, &k, &s);
			}
			off += len;
		}
		break;
	}
	default: { /* kallsyms */
		struct ksyms k;
		if (ksyms_parse(&k, text, size - 1) == 0) {
			for (int i = 0; i < k.n; i++)
				if (strlen(k.v[i].name) >= FOLDED_MAX_NAME || (i && k.v[i - 1].addr > k.v[i].addr))
					__builtin_trap();
			ksyms_name(&k, 0xffffffff81000000ull);
			ksyms_free(&k);
		}
	}
	}
	check(&f);
	struct folded_share *sh = NULL;
	int n = folded_shares(&f, &sh);
	for (int i = 0; i < n; i++)
		if (sh[i].children > 100.0001 || sh[i].self > sh[i].children + 1e-9)
			__builtin_trap();
	free(sh);
	folded_free(&f);
	free(text);
	return 0;
}
