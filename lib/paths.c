#include "paths.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int rb_exe_dir(char *buf, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return -1;
	self[n] = 0;
	char *slash = strrchr(self, '/');
	if (slash)
		*slash = 0;
	snprintf(buf, len, "%s", self);
	return 0;
}

static const char *env_set(const char *envvar)
{
	const char *env = envvar ? getenv(envvar) : NULL;
	return env && *env ? env : NULL;
}

int rb_sibling_binary(const char *envvar, const char *name, char *buf, size_t len)
{
	const char *env = env_set(envvar);
	if (env) {
		snprintf(buf, len, "%s", env);
		return access(buf, X_OK);
	}
	char dir[PATH_MAX];
	if (rb_exe_dir(dir, sizeof(dir)) < 0) {
		snprintf(buf, len, "%s", name);
		return -1;
	}
	static const char *const where[] = { "", "/.." };
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		snprintf(buf, len, "%s%s/%s", dir, where[i], name);
		if (access(buf, X_OK) == 0)
			return 0;
	}
	snprintf(buf, len, "%s/%s", dir, name); /* the message names the first place */
	return -1;
}

int rb_source_dir(const char *envvar, const char *sub, const char *probe, char *buf, size_t len)
{
	const char *env = env_set(envvar);
	if (env) {
		snprintf(buf, len, "%s", env);
		return access(buf, R_OK);
	}
	char dir[PATH_MAX];
	if (rb_exe_dir(dir, sizeof(dir)) < 0)
		return -1;
	static const char *const up[] = { "/..", "/../.." };
	for (size_t i = 0; i < sizeof(up) / sizeof(up[0]); i++) {
		snprintf(buf, len, "%s%s/%s/%s", dir, up[i], sub, probe);
		if (access(buf, R_OK) == 0) {
			snprintf(buf, len, "%s%s/%s", dir, up[i], sub);
			return 0;
		}
	}
	snprintf(buf, len, "%s/../%s", dir, sub);
	return -1;
}
