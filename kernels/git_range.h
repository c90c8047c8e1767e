/* What a bisect walks (kernels/git-range.sh): GOOD, BAD and the commits
 * of `git rev-list --first-parent GOOD..BAD`, oldest first. */
#ifndef RMAPBENCH_GIT_RANGE_H
#define RMAPBENCH_GIT_RANGE_H

#include <stddef.h>

#define GIT_RANGE_MAX 4096

struct git_commit {
	char hash[41];
	char date[11];     /* the author date, YYYY-MM-DD */
	char subject[128];
};

struct git_range {
	char good[41], bad[41];
	struct git_commit *commits; /* n of them, BAD last; free()d by the caller */
	int n;
};

/* 0 with r filled, or -1 with the script's one line in err (a path that
 * is no clean git tree, a REV that does not resolve, GOOD not an ancestor
 * of BAD). */
int git_range_load(const char *path, const char *good, const char *bad, struct git_range *r, char *err,
		   size_t errlen);
/* The same parse over the script's output in memory (outside bytes: a
 * line it does not know is an error). */
int git_range_parse(char *text, struct git_range *r, char *err, size_t errlen);

#endif
