#ifndef ENGINE_SCENARIOS_H
#define ENGINE_SCENARIOS_H

struct scenario {
	const char *name;
	const char *fix;       /* the upstream commit that fixed it */
	const char *summary;
	const char *kind;      /* the fault the buggy design shows */
	const char *buggy;     /* the design that had the bug */
	const char *trace;
};

extern const struct scenario scenarios[];
const struct scenario *scenario_find(const char *name);

#endif
