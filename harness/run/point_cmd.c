/* A point's command line, and what of it is recorded as its params. */
#include "point_cmd.h"
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void point_cmd_init(struct point_cmd *c, char *params, size_t plen)
{
	c->params = params;
	c->plen = plen;
	c->n = 0;
	c->used = 0;
	params[0] = 0;
}

void point_cmd_start(struct point_cmd *c, const char *program)
{
	c->n = 0;
	c->used = 0;
	c->params[0] = 0;
	point_cmd_arg(c, "%s", program);
}

static void cmd_note(struct point_cmd *c, const char *word)
{
	if (c->used < c->plen)
		c->used += (size_t)snprintf(c->params + c->used, c->plen - c->used, "%s%s", c->used ? " " : "", word);
}

static const char *cmd_word(struct point_cmd *c, const char *fmt, va_list ap)
{
	if (c->n >= POINT_MAX_ARGS)
		return NULL;
	char *slot = c->store[c->n];
	vsnprintf(slot, POINT_ARG_LEN, fmt, ap);
	c->argv[c->n++] = slot;
	c->argv[c->n] = NULL;
	return slot;
}

void point_cmd_arg(struct point_cmd *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cmd_word(c, fmt, ap);
	va_end(ap);
}

void point_cmd_add(struct point_cmd *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const char *w = cmd_word(c, fmt, ap);
	va_end(ap);
	if (w)
		cmd_note(c, w);
}

void point_cmd_note(struct point_cmd *c, const char *fmt, ...)
{
	char word[POINT_ARG_LEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(word, sizeof(word), fmt, ap);
	va_end(ap);
	cmd_note(c, word);
}

void point_cmd_ours(struct point_cmd *c, const char *program, const char *workload, long users)
{
	point_cmd_start(c, program);
	point_cmd_arg(c, "%s", workload);
	point_cmd_add(c, "users=%ld", users);
}

void point_cmd_params(struct point_cmd *c, const struct config *cfg, bool (*skip)(const char *key))
{
	int has_max = 0;
	for (int i = 0; i < cfg->n_params && c->n < POINT_MAX_ARGS - 3; i++) {
		if (skip && skip(cfg->params[i][0]))
			continue;
		has_max |= !strcmp(cfg->params[i][0], "max_s");
		point_cmd_add(c, "%s=%s", cfg->params[i][0], cfg->params[i][1]);
	}
	if (!has_max)
		point_cmd_arg(c, "max_s=%.0f", cfg->point_timeout_s);
}
