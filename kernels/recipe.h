/* A kernel recipe, kernels/LABEL.kernel: "key = value" lines and '#'
 * comments, read by key (the scripts, fetch.sh and build.sh, read the same
 * keys through lib.sh). Adding a kernel: a new LABEL.kernel; see README. */
#ifndef RMAPBENCH_RECIPE_H
#define RMAPBENCH_RECIPE_H

#include <stddef.h>

struct kernel_recipe {
	char path[1100];
	char kind[16];         /* build (build.sh) | package (fetch.sh) */
	char source[300];      /* build: the Debian source package, or git:PATH */
	char rev[128];         /* build from git: the commit (anything git rev-parse takes) */
	char config[300];      /* build from git: the developer's own .config, else tinyconfig + fragments */
	char fragments[512];   /* build: config fragments over tinyconfig */
	char patches[512];     /* build: patches, applied in order */
	char package[128];     /* package: the Debian kernel image package */
	char modules[256];     /* package: modules the guest agent loads */
};

/* The directory holding the recipes and their scripts. */
int kernel_recipes_dir(char *buf, size_t len);
/* Reads the recipe of LABEL from the recipes directory: 0, or -1 with
 * "FILE:LINE: ..." (an unknown key, a missing '=', no kind) in err. */
/* A spec's flavour: "LABEL+debug" and "git:PATH@REV+debug" are that
 * kernel built with config/debug.config over its fragments (a build, so
 * only a built kernel has one). The spec's length without its flavour;
 * *flavour is "debug" or "". */
size_t kernel_spec_base(const char *spec, const char **flavour);
int kernel_recipe_load(const char *label, struct kernel_recipe *r, char *err, size_t errlen);

/* The same from a text already read (r->path names it in errors); text is
 * cut up. */
int kernel_recipe_parse(struct kernel_recipe *r, char *text, char *err, size_t errlen);

#endif
