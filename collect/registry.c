/* The one list of collectors (collectors.def), for the harness, the config's
 * validation and the guest agent. */
#include "collector.h"

#include <string.h>

const struct collector *const collectors[] = {
#define COLLECTOR(name) &coll_##name,
#include "collectors.def"
#undef COLLECTOR
	NULL
};

const struct collector *collector_find(const char *name)
{
	for (int i = 0; collectors[i]; i++)
		if (!strcmp(collectors[i]->name, name))
			return collectors[i];
	return NULL;
}
