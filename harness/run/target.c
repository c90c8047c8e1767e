/* The targets' table (targets.def), as collectors and workloads have theirs. */
#include "target.h"

#include <stdio.h>
#include <string.h>

const struct target *const targets[] = {
#define TARGET(name) &target_##name,
#include "targets.def"
#undef TARGET
	NULL,
};

const struct target *target_find(const char *name)
{
	for (int i = 0; targets[i]; i++)
		if (!strcmp(targets[i]->name, name))
			return targets[i];
	return NULL;
}

const char *target_names(void)
{
	static char buf[256];
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; targets[i] && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? ", " : "", targets[i]->name);
	return buf;
}
