/* A kernel is an image, a command line and a label. Recipes
 * (kernels/LABEL.kernel) say how to get one: a Debian package fetched into
 * the cache (fetch.sh) or a build from linux-source-6.1 (build.sh); the
 * cache directory's kernel.info says what came out. */
#ifndef RMAPBENCH_KERNEL_H
#define RMAPBENCH_KERNEL_H

#include <stddef.h>

#define KERNEL_MAX_MODULES 16
/* A kernel: a recipe's label, git:PATH@REV (either +debug) or an image's
 * path. */
#define KERNEL_SPEC_MAX 256

struct kernel_info {
	char label[64];
	char kind[16];           /* package | build | image */
	char release[128];
	char image[1024];
	char config_hash[64];
	char dir[1024];
	char modules[KERNEL_MAX_MODULES][1024];
	int nmodules;
};

/* The release a bzImage's header names (the kernel_version string at
 * 0x200 + the offset at 0x20e), as a word of letters, digits and ._+~-;
 * "" when img is no bzImage. img is outside bytes (the fuzz target's
 * entry). */
void kernel_bzimage_release(const unsigned char *img, size_t n, char *buf, size_t len);
/* The key=value lines of a kernel.info (cache metadata) into k; text is
 * cut up. Unknown keys and lines without '=' are passed over. */
void kernel_info_parse(char *text, struct kernel_info *k);
/* Reads DIR/kernel.info. */
int kernel_info_load(const char *dir, struct kernel_info *k, char *err, size_t errlen);
/* A label with a recipe: fetched or built (or found in the cache).
 * git:PATH@REV: that commit built. A path with a '/': that image as it
 * is. err names what is missing. */
int kernel_prepare(const char *label_or_image, struct kernel_info *k, char *err, size_t errlen);
/* Runs kernels/NAME with args (NULL-ended, at most 6): its stdout into
 * out (NUL-ended; -1 when it printed outlen bytes or more), its stderr
 * passed on as progress, and on failure its last line, without our
 * "rmapbench: kernel: " prefix, into err. 0 when it exited 0. */
int kernel_script(const char *name, const char *const *args, char *out, size_t outlen, char *err, size_t errlen);
/* git:PATH@REV: a commit of a git tree, built incrementally and cached
 * by its tree id (build-git.sh); 0 with k filled. */
int kernel_git_run(const char *spec, struct kernel_info *k, char *err, size_t errlen);
/* Whether spec has the git:PATH@REV form (not whether it resolves). */
int kernel_spec_is_git(const char *spec);
/* Whether spec names a kernel: a label or git:PATH@REV, either with a
 * flavour (not whether it resolves). */
int kernel_spec_ok(const char *spec);
/* Runs the recipe's script whatever the cache holds (it reuses the cache
 * itself); 0 with k filled. */
int kernel_recipe_run(const char *label, struct kernel_info *k, char *err, size_t errlen);

#endif
