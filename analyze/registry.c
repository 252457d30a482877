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

void bl_charts_add(struct bl_chart **c, size_t *n, const char *name, const char *title,
		   unsigned long long bytes)
{
	*c = bl_xrealloc(*c, (*n + 1) * sizeof **c);
	(*c)[*n].name = bl_xstrdup(name);
	(*c)[*n].title = bl_xstrdup(title);
	(*c)[*n].bytes = bytes;
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

struct bl_chart_spec *bl_chart_spec_add(struct bl_chart_spec **v, size_t *n, enum bl_chart_kind kind,
					const char *name, const char *title, const char *caption)
{
	*v = bl_xrealloc(*v, (*n + 1) * sizeof **v);
	struct bl_chart_spec *s = &(*v)[(*n)++];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->name = bl_xstrdup(name);
	s->title = title ? bl_xstrdup(title) : NULL;
	s->caption = bl_xstrdup(caption);
	return s;
}

void *bl_chart_spec_own(struct bl_chart_spec *s, void *p)
{
	s->owned = bl_xrealloc(s->owned, (s->nowned + 1) * sizeof *s->owned);
	s->owned[s->nowned++] = p;
	return p;
}

void bl_chart_specs_free(struct bl_chart_spec *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < v[i].nowned; k++)
			free(v[i].owned[k]);
		free(v[i].owned);
		free(v[i].name);
		free(v[i].title);
		free(v[i].caption);
	}
	free(v);
}
