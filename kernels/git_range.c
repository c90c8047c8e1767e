/* kernels/git-range.sh's output read, bounded: the lines come from a
 * git tree, which is outside bytes. */
#include "git_range.h"
#include "kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RANGE_TEXT_MAX (GIT_RANGE_MAX * 256)

static int is_hash(const char *s)
{
	return strlen(s) == 40 && strspn(s, "0123456789abcdef") == 40;
}

int git_range_parse(char *text, struct git_range *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	int lineno = 0, cap = 0;
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		lineno++;
		char word[16] = "", hash[64] = "";
		int used = 0;
		if (sscanf(line, "%15s %63s %n", word, hash, &used) < 2 || !is_hash(hash)) {
			snprintf(err, errlen, "git-range.sh line %d: not 'good|bad|commit HASH ...'", lineno);
			goto bad;
		}
		if (!strcmp(word, "good") || !strcmp(word, "bad")) {
			snprintf(!strcmp(word, "good") ? r->good : r->bad, 41, "%s", hash);
			continue;
		}
		if (strcmp(word, "commit") || r->n >= GIT_RANGE_MAX) {
			snprintf(err, errlen, "git-range.sh line %d: %s", lineno,
				 r->n >= GIT_RANGE_MAX ? "more than 4096 commits to bisect" : "an unknown line");
			goto bad;
		}
		if (r->n == cap) { /* grown as the lines come: most bisects walk a few commits */
			cap = cap ? 2 * cap : 16;
			struct git_commit *g = realloc(r->commits, (size_t)cap * sizeof(*g));
			if (!g)
				abort();
			r->commits = g;
		}
		struct git_commit *c = &r->commits[r->n++];
		snprintf(c->hash, sizeof(c->hash), "%s", hash);
		const char *rest = line + used;
		size_t dl = strcspn(rest, " ");
		snprintf(c->date, sizeof(c->date), "%.*s", (int)(dl < 10 ? dl : 10), rest);
		snprintf(c->subject, sizeof(c->subject), "%s", rest[dl] ? rest + dl + 1 : "");
	}
	if (!is_hash(r->good) || !is_hash(r->bad) || !r->n || strcmp(r->commits[r->n - 1].hash, r->bad)) {
		snprintf(err, errlen, "git-range.sh: no good, bad and commits ending at bad");
		goto bad;
	}
	return 0;
bad:
	free(r->commits);
	r->commits = NULL;
	r->n = 0;
	return -1;
}

int git_range_load(const char *path, const char *good, const char *bad, struct git_range *r, char *err,
		   size_t errlen)
{
	const char *args[] = { path, good, bad, NULL };
	char *text = malloc(RANGE_TEXT_MAX + 1);
	if (!text)
		abort();
	int rc = kernel_script("git-range.sh", args, text, RANGE_TEXT_MAX + 1, err, errlen);
	if (!rc)
		rc = git_range_parse(text, r, err, errlen);
	free(text);
	return rc;
}
