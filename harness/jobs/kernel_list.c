/* `kernel list`: the recipes and what the cache holds of each
 * (kernel_runs.h). */
#include "kernel_runs.h"
#include "kernel.h"
#include "recipe.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void cache_dir(char *buf, size_t len)
{
	const char *env = getenv("RMAPBENCH_KERNEL_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	if (env && *env)
		snprintf(buf, len, "%s", env);
	else if (xdg && *xdg)
		snprintf(buf, len, "%s/rmapbench/kernels", xdg);
	else
		snprintf(buf, len, "%s/.cache/rmapbench/kernels", home ? home : "/root");
}

int kernels_list(void)
{
	char dir[PATH_MAX], cache[PATH_MAX];
	if (kernel_recipes_dir(dir, sizeof(dir)) < 0) {
		rb_error("cannot find the kernels/ directory (set RMAPBENCH_KERNELS_DIR)");
		return 1;
	}
	cache_dir(cache, sizeof(cache));
	DIR *d = opendir(dir);
	if (!d) {
		rb_error("%s: %s", dir, strerror(errno));
		return 1;
	}
	printf("%-18s %-8s %-28s %s\n", "label", "kind", "release (last prepared)", "cache");
	struct dirent *e;
	char names[64][64];
	int n = 0;
	while ((e = readdir(d)) && n < 64) {
		size_t l = strlen(e->d_name);
		if (l > 7 && l < 64 && !strcmp(e->d_name + l - 7, ".kernel"))
			snprintf(names[n++], sizeof(names[0]), "%.*s", (int)(l - 7), e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), (int (*)(const void *, const void *))strcmp);
	for (int i = 0; i < n; i++) {
		char link[PATH_MAX + 80], err[300];
		struct kernel_info k;
		snprintf(link, sizeof(link), "%s/%s", cache, names[i]);
		struct kernel_recipe r;
		const char *kind = kernel_recipe_load(names[i], &r, err, sizeof(err)) == 0 ? r.kind : "unreadable";
		if (kernel_info_load(link, &k, err, sizeof(err)) == 0) {
			char real[PATH_MAX];
			printf("%-18s %-8s %-28s %s\n", names[i], kind, k.release,
			       realpath(link, real) ? real : link);
		} else {
			printf("%-18s %-8s %-28s %s\n", names[i], kind, "-", "not prepared yet");
		}
	}
	return 0;
}
