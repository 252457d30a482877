/* registry.c — the analyses, in the order their sections appear. */
#include <stdlib.h>
#include <string.h>
#include "analyze/analysis.h"
#include "core/util.h"

extern const struct bl_analysis bl_analysis_runs;
extern const struct bl_analysis bl_analysis_contest;
extern const struct bl_analysis bl_analysis_vmstat;
extern const struct bl_analysis bl_analysis_latency;

const struct bl_analysis *const bl_analyses[] = {
	&bl_analysis_runs,
	&bl_analysis_vmstat,
	&bl_analysis_contest,
	&bl_analysis_latency,
	NULL,
};

const struct bl_analysis *bl_analysis_find(const char *name)
{
	for (size_t i = 0; bl_analyses[i]; i++)
		if (strcmp(bl_analyses[i]->name, name) == 0)
			return bl_analyses[i];
	return NULL;
}

void bl_charts_add(struct bl_chart **c, size_t *n, const char *name, const char *title)
{
	*c = bl_xrealloc(*c, (*n + 1) * sizeof **c);
	(*c)[*n].name = bl_xstrdup(name);
	(*c)[*n].title = bl_xstrdup(title);
	(*n)++;
}

void bl_charts_free(struct bl_chart *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(c[i].name);
		free(c[i].title);
	}
	free(c);
}
