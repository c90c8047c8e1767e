/* kernels/git-range.sh run and its output read, bounded: the lines come
 * from a git tree, which is outside bytes. */
#include "git_range.h"
#include "recipe.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
	char dir[PATH_MAX], script[PATH_MAX + 32];
	if (kernel_recipes_dir(dir, sizeof(dir)) < 0) {
		snprintf(err, errlen, "the kernel scripts' folder is missing");
		return -1;
	}
	snprintf(script, sizeof(script), "%s/git-range.sh", dir);
	int out[2], er[2];
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(er, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		dup2(out[1], 1);
		dup2(er[1], 2);
		execl(script, script, path, good, bad, (char *)NULL);
		fprintf(stderr, "rmapbench: kernel: exec %s: %s\n", script, strerror(errno));
		_exit(127);
	}
	close(out[1]);
	close(er[1]);
	char *text = malloc(RANGE_TEXT_MAX + 1), why[600] = "";
	if (!text)
		abort();
	size_t n = 0;
	ssize_t k;
	while ((k = read(out[0], text + n, RANGE_TEXT_MAX - n)) > 0 || (k < 0 && errno == EINTR))
		n += k > 0 ? (size_t)k : 0;
	text[n] = 0;
	int full = n == RANGE_TEXT_MAX;
	close(out[0]);
	k = read(er[0], why, sizeof(why) - 1);
	why[k > 0 ? k : 0] = 0;
	close(er[0]);
	int st = 0;
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	int rc = -1;
	if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		char *last = strrchr(rb_trim(why), '\n');
		const char *w = last ? last + 1 : why;
		snprintf(err, errlen, "%s", !strncmp(w, "rmapbench: kernel: ", 19) ? w + 19 : *w ? w : "git-range.sh failed");
	} else if (full) {
		snprintf(err, errlen, "%s: more than %d bytes of commits to bisect", path, RANGE_TEXT_MAX);
	} else {
		rc = git_range_parse(text, r, err, errlen);
	}
	free(text);
	return rc;
}
