/* registry.c — every input format, in the order lines are offered (after
 * the active parser and the one active before it). Block formats with distinctive headers first; the
 * averages parser before timev, whose labels it shares. */
#include <stdarg.h>
#include <string.h>
#include "parsers/parser.h"

extern const struct bl_parser bl_parser_averages;
extern const struct bl_parser bl_parser_contest;
extern const struct bl_parser bl_parser_timev;
extern const struct bl_parser bl_parser_timeshort;
extern const struct bl_parser bl_parser_mtest01;
extern const struct bl_parser bl_parser_latency;
extern const struct bl_parser bl_parser_vmstat;
extern const struct bl_parser bl_parser_vmstatdisk;

const struct bl_parser *const bl_parsers[] = {
	&bl_parser_averages,
	&bl_parser_contest,
	&bl_parser_vmstatdisk,
	&bl_parser_vmstat,
	&bl_parser_timev,
	&bl_parser_mtest01,
	&bl_parser_latency,
	&bl_parser_timeshort,
	NULL,
};

const struct bl_table_def *bl_table_find(const char *name)
{
	for (size_t i = 0; bl_parsers[i]; i++) {
		const struct bl_table_def *const *t = bl_parsers[i]->tables;
		for (; t && *t; t++)
			if (strcmp((*t)->name, name) == 0)
				return *t;
	}
	return NULL;
}

enum bl_verdict bl_reject(struct bl_ctx *ctx, const struct bl_line *ln, const char *reason, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	bl_vwarn(ctx, ln, reason, fmt, ap);   /* formatted only when shown */
	va_end(ap);
	return bl_skip_as(ctx, reason);
}
