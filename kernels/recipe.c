#include "recipe.h"
#include "paths.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AT(field) offsetof(struct kernel_recipe, field), sizeof(((struct kernel_recipe *)0)->field)
static const struct {
	const char *key;
	size_t off, size;
} recipe_keys[] = {
	{ "kind", AT(kind) },		{ "source", AT(source) },   { "fragments", AT(fragments) },
	{ "patches", AT(patches) }, { "package", AT(package) }, { "modules", AT(modules) },
	{ "rev", AT(rev) },		{ "config", AT(config) },
};
#undef AT

int kernel_recipes_dir(char *buf, size_t len)
{
	return rb_source_dir("RMAPBENCH_KERNELS_DIR", "kernels", "fetch.sh", buf, len);
}

int kernel_recipe_parse(struct kernel_recipe *r, char *text, char *err, size_t errlen)
{
	int lineno = 0;
	for (char *line = text, *next; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		lineno++;
		char *hash = strchr(line, '#');
		if (hash)
			*hash = 0;
		if (!*rb_trim(line))
			continue;
		char *eq = strchr(line, '=');
		if (!eq) {
			snprintf(err, errlen, "%s:%d: expected 'key = value'", r->path, lineno);
			return -1;
		}
		*eq = 0;
		char *key = rb_trim(line), *val = rb_trim(eq + 1);
		size_t k = 0;
		while (k < sizeof(recipe_keys) / sizeof(recipe_keys[0]) && strcmp(recipe_keys[k].key, key))
			k++;
		if (k == sizeof(recipe_keys) / sizeof(recipe_keys[0])) {
			snprintf(err, errlen, "%s:%d: unknown key '%s' (kind, source, rev, config, fragments, patches, package, modules)",
				 r->path, lineno, key);
			return -1;
		}
		if (strlen(val) >= recipe_keys[k].size) {
			snprintf(err, errlen, "%s:%d: %s: longer than %zu characters", r->path, lineno, key,
				 recipe_keys[k].size - 1);
			return -1;
		}
		snprintf((char *)r + recipe_keys[k].off, recipe_keys[k].size, "%s", val);
	}
	if (strcmp(r->kind, "build") && strcmp(r->kind, "package")) {
		snprintf(err, errlen, "%s: 'kind = build' or 'kind = package' is missing", r->path);
		return -1;
	}
	if (!strncmp(r->source, "git:", 4) && !r->rev[0]) {
		snprintf(err, errlen, "%s: source = %s needs 'rev = REV' (a commit of that tree)", r->path, r->source);
		return -1;
	}
	if ((r->rev[0] || r->config[0]) && strncmp(r->source, "git:", 4)) {
		snprintf(err, errlen, "%s: rev and config are for 'source = git:PATH' recipes", r->path);
		return -1;
	}
	return 0;
}

size_t kernel_spec_base(const char *spec, const char **flavour)
{
	static const char suffix[] = "+debug";
	size_t n = strlen(spec), m = sizeof(suffix) - 1;
	*flavour = "";
	if (n > m && !strcmp(spec + n - m, suffix)) {
		*flavour = suffix + 1;
		return n - m;
	}
	return n;
}

int kernel_recipe_load(const char *label, struct kernel_recipe *r, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	memset(r, 0, sizeof(*r));
	if (kernel_recipes_dir(dir, sizeof(dir)) < 0) {
		snprintf(err, errlen, "cannot find the kernels/ directory (set RMAPBENCH_KERNELS_DIR)");
		return -1;
	}
	const char *flavour;
	int base = (int)kernel_spec_base(label, &flavour);
	snprintf(r->path, sizeof(r->path), "%s/%.*s.kernel", dir, base, label);
	size_t len;
	char *text = rb_read_file_max(r->path, 1 << 20, &len);
	if (!text) {
		snprintf(err, errlen, "no kernel '%s': %s: %s", label, r->path, strerror(errno));
		return -1;
	}
	int rc = memchr(text, 0, len) ? (snprintf(err, errlen, "%s: not a text file", r->path), -1)
				       : kernel_recipe_parse(r, text, err, errlen);
	free(text);
	if (rc == 0 && *flavour && strcmp(r->kind, "build")) {
		snprintf(err, errlen, "%s: kernel '%.*s' is a %s, not built here: it has no +%s", r->path, base, label,
			 r->kind, flavour);
		return -1;
	}
	return rc;
}
