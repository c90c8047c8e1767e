#include "kernel.h"
#include "recipe.h"
#include "paths.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

void kernel_info_parse(char *text, struct kernel_info *k)
{
	char *save_line = NULL;
	for (char *line = strtok_r(text, "\n", &save_line); line; line = strtok_r(NULL, "\n", &save_line)) {
		char *eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = 0;
		const char *v = eq + 1;
		if (!strcmp(line, "label"))
			snprintf(k->label, sizeof(k->label), "%s", v);
		else if (!strcmp(line, "kind"))
			snprintf(k->kind, sizeof(k->kind), "%s", v);
		else if (!strcmp(line, "release"))
			snprintf(k->release, sizeof(k->release), "%s", v);
		else if (!strcmp(line, "image"))
			snprintf(k->image, sizeof(k->image), "%s", v);
		else if (!strcmp(line, "config_hash"))
			snprintf(k->config_hash, sizeof(k->config_hash), "%s", v);
		else if (!strcmp(line, "modules")) {
			char mods[8192];
			snprintf(mods, sizeof(mods), "%s", v);
			char *save = NULL;
			for (char *m = strtok_r(mods, " ", &save); m && k->nmodules < KERNEL_MAX_MODULES;
			     m = strtok_r(NULL, " ", &save))
				snprintf(k->modules[k->nmodules++], sizeof(k->modules[0]), "%s", m);
		}
	}
}

int kernel_info_load(const char *dir, struct kernel_info *k, char *err, size_t errlen)
{
	char path[1100];
	snprintf(path, sizeof(path), "%s/kernel.info", dir);
	char *text = rb_read_file_max(path, 1 << 20, NULL);
	if (!text) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	memset(k, 0, sizeof(*k));
	snprintf(k->dir, sizeof(k->dir), "%s", dir);
	kernel_info_parse(text, k);
	free(text);
	if (!k->image[0] || access(k->image, R_OK) < 0) {
		snprintf(err, errlen, "%s: kernel image '%s' is missing", path, k->image);
		return -1;
	}
	return 0;
}

void kernel_bzimage_release(const unsigned char *img, size_t n, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = 0;
	if (n < 0x210 || memcmp(img + 0x202, "HdrS", 4))
		return;
	size_t off = 0x200 + (size_t)(img[0x20e] | img[0x20f] << 8), o = 0;
	/* a release is a word of these; anything else ends it, so no byte
	 * of an image reaches a label, a report or a terminal unchecked */
	while (off < n && o + 1 < len && o < 64 &&
	       (isalnum(img[off]) || strchr("._+~-", img[off])) && img[off])
		buf[o++] = (char)img[off++];
	buf[o] = 0;
}

/* The release from a bzImage's header (arch/x86/boot/header.S: the
 * kernel_version string at 0x200 + the 16-bit offset at 0x20e). */
static void bzimage_release(const char *image, char *buf, size_t len)
{
	buf[0] = 0;
	FILE *f = fopen(image, "rbe");
	if (!f)
		return;
	/* the header and as far as its offset can point, and a release */
	static unsigned char hdr[0x200 + 0x10000 + 256];
	size_t n = fread(hdr, 1, sizeof(hdr), f);
	fclose(f);
	kernel_bzimage_release(hdr, n, buf, len);
}

static int image_as_is(const char *path, struct kernel_info *k, char *err, size_t errlen)
{
	struct stat st;
	errno = 0;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "kernel image %s: %s", path, errno ? strerror(errno) : "not a file");
		return -1;
	}
	memset(k, 0, sizeof(*k));
	const char *base = strrchr(path, '/') + 1;
	snprintf(k->label, sizeof(k->label), "%s", *base ? base : "image");
	snprintf(k->kind, sizeof(k->kind), "image");
	snprintf(k->image, sizeof(k->image), "%s", path);
	bzimage_release(path, k->release, sizeof(k->release));
	if (!k->release[0]) {
		snprintf(err, errlen, "kernel image %s: not an x86 bzImage (no HdrS header)", path);
		return -1;
	}
	return 0;
}

int kernel_script(const char *name, const char *const *args, char *out, size_t outlen, char *err, size_t errlen)
{
	char dir[PATH_MAX], script[PATH_MAX + 32];
	const char *argv[8] = { script };
	int na = 1;
	for (; args[na - 1] && na < 7; na++)
		argv[na] = args[na - 1];
	argv[na] = NULL;
	if (kernel_recipes_dir(dir, sizeof(dir)) < 0) {
		snprintf(err, errlen, "the kernel scripts' folder is missing");
		return -1;
	}
	snprintf(script, sizeof(script), "%s/%s", dir, name);
	/* stdout to a file: a script may print more than a pipe holds while
	 * we read its stderr */
	char outpath[] = "/tmp/rmapbench-kernel-XXXXXX";
	int outfd = mkstemp(outpath);
	int p[2];
	if (outfd < 0 || pipe2(p, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "%s: %s", name, strerror(errno));
		if (outfd >= 0)
			close(outfd);
		return -1;
	}
	unlink(outpath);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(outfd, 1);
		dup2(p[1], 2);
		execv(script, (char *const *)argv);
		fprintf(stderr, "rmapbench: kernel: exec %s: %s\n", script, strerror(errno));
		_exit(127);
	}
	close(p[1]);
	char last[600] = "";
	FILE *ef = fdopen(p[0], "r");
	char line[600];
	while (ef && fgets(line, sizeof(line), ef)) {
		if (last[0])
			fputs(last, stderr);
		snprintf(last, sizeof(last), "%s", line);
	}
	if (ef)
		fclose(ef);
	else
		close(p[0]);
	int st = 0;
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	struct stat sb;
	ssize_t n = pread(outfd, out, outlen - 1, 0);
	int too_long = fstat(outfd, &sb) == 0 && (size_t)sb.st_size >= outlen;
	close(outfd);
	out[n > 0 ? n : 0] = 0;
	if (pid < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		rb_trim(last);
		const char *why = strncmp(last, "rmapbench: kernel: ", 19) ? last : last + 19;
		snprintf(err, errlen, "%s", *why ? why : "the kernel script failed without saying why");
		return -1;
	}
	if (last[0])
		fputs(last, stderr);
	if (too_long) {
		snprintf(err, errlen, "%s: printed more than %zu bytes", name, outlen - 1);
		return -1;
	}
	return 0;
}

/* A build or fetch script's last stdout line is the cache directory. */
static int kernel_script_info(const char *name, const char *arg, struct kernel_info *k, char *err, size_t errlen)
{
	const char *args[] = { arg, NULL };
	char out[PATH_MAX];
	if (kernel_script(name, args, out, sizeof(out), err, errlen) < 0)
		return -1;
	rb_trim(out);
	char *nl = strrchr(out, '\n');
	return kernel_info_load(nl ? nl + 1 : out, k, err, errlen);
}

int kernel_recipe_run(const char *label, struct kernel_info *k, char *err, size_t errlen)
{
	struct kernel_recipe r;
	if (kernel_recipe_load(label, &r, err, errlen) < 0)
		return -1;
	return kernel_script_info(!strcmp(r.kind, "build") ? "build.sh" : "fetch.sh", label, k, err, errlen);
}

int kernel_git_run(const char *spec, struct kernel_info *k, char *err, size_t errlen)
{
	if (!kernel_spec_is_git(spec)) {
		snprintf(err, errlen, "'%s' is not a git kernel (git:PATH@REV)", spec);
		return -1;
	}
	return kernel_script_info("build-git.sh", spec, k, err, errlen);
}

int kernel_spec_is_git(const char *spec)
{
	const char *at = strrchr(spec, '@');
	return !strncmp(spec, "git:", 4) && at && at > spec + 4 && at[1];
}

int kernel_spec_ok(const char *spec)
{
	const char *flavour;
	char base[KERNEL_SPEC_MAX];
	size_t n = kernel_spec_base(spec, &flavour);
	if (n >= sizeof(base))
		return 0;
	memcpy(base, spec, n);
	base[n] = 0;
	return rb_is_label(base) || kernel_spec_is_git(base);
}

int kernel_prepare(const char *name, struct kernel_info *k, char *err, size_t errlen)
{
	if (!strncmp(name, "git:", 4))
		return kernel_git_run(name, k, err, errlen);
	if (strchr(name, '/'))
		return image_as_is(name, k, err, errlen);
	return kernel_recipe_run(name, k, err, errlen);
}
