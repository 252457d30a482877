/* registry.c — the analyses, in the order their sections appear. */
#include <stdlib.h>
#include <string.h>
#include "analyze/analysis.h"
#include "core/escape.h"
#include "analyze/table_stats.h"
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

/* o's -t and -c keep row w. */
static bool kept(const struct bl_findings_opts *o, const struct bl_cmp_row *w)
{
	if (o->table && strcmp(o->table, w->table) != 0)
		return false;
	for (size_t i = 0; i < o->ncols; i++)
		if (strcmp(o->cols[i], w->column) == 0)
			return true;
	return o->ncols == 0;
}

/* ts holds rows of table t (by name, or by the header of a CSV file not
 * named after it). */
static bool has_table(struct bl_tstats *ts, const char *t)
{
	for (size_t i = 0; i < bl_tstats_ntables(ts); i++) {
		const struct bl_table_def *def = bl_tstats_def(ts, i);
		if (strcmp(bl_tstats_table(ts, i), t) == 0 || (def && strcmp(def->name, t) == 0))
			return true;
	}
	return false;
}

void bl_analyses_own(const char **own, size_t *n)
{
	for (size_t i = 0; bl_analyses[i]; i++)
		if (bl_analyses[i]->findings_table && *n < 4)
			own[(*n)++] = bl_analyses[i]->findings_table;
}

/* Each analysis's findings() rows appended to out, kept as o says, marked
 * own. ran[i]: whether analysis i ran. */
static void own_rows(void *const *st, const struct bl_findings_opts *o, struct bl_cmp_rows *out, bool *ran)
{
	for (size_t i = 0; bl_analyses[i]; i++) {
		const struct bl_analysis *an = bl_analyses[i];
		ran[i] = st[i] && an->findings && an->has_data(st[i]);
		if (!ran[i])
			continue;
		size_t k = out->n;
		an->findings(st[i], o, out);
		for (size_t j = k; j < out->n; j++) {
			struct bl_cmp_row *w = &out->row[j];
			if (!kept(o, w)) {
				bl_cmp_row_clear(w);
				continue;
			}
			w->own = true;
			out->row[k++] = *w;
		}
		out->n = k;
	}
}

int bl_analyses_finish(void *const *st, size_t n)
{
	for (size_t i = 0; i < n && bl_analyses[i]; i++)
		if (st[i] && bl_analyses[i]->finish && bl_analyses[i]->finish(st[i]) < 0)
			return -BL_EIO;
	return 0;
}

int bl_analyses_findings(struct bl_tstats *ts, void *const *st, const struct bl_findings_opts *o,
			 struct bl_cmp_rows *out)
{
	if (!ts || !st || !o || !o->co || !out)
		return -BL_EUSAGE;
	if (!o->drained) {
		memset(out, 0, sizeof *out);
		bl_analyses_own(out->own, &out->nown);
		int rc = bl_compare_rows(ts, o->co, out);
		if (rc)
			return rc;
	}
	bool ran[sizeof bl_analyses / sizeof bl_analyses[0]];
	own_rows(st, o, out, ran);
	for (size_t i = 0; bl_analyses[i]; i++) {
		const char *t = bl_analyses[i]->findings_table;
		if (t && !ran[i] && has_table(ts, t) && (!o->table || strcmp(o->table, t) == 0)) {
			out->skip = bl_xrealloc(out->skip, (out->nskip + 1) * sizeof *out->skip);
			out->skip[out->nskip].table = t;
			out->skip[out->nskip++].why = bl_xasprintf(
				"its rows come from a CSV table, whose samples in time order are not independent "
				"runs; the %s analysis compares series read from the logs themselves "
				"(docs/statistics.md D18)", bl_analyses[i]->name);
		}
	}
	bl_compare_rows_judge(out, o->co->confidence);
	return 0;
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

void bl_charts_md(FILE *f, const struct bl_chart *c, size_t n)
{
	struct bl_esc_ring er = BL_ESC_RING_INIT;   /* input text: escape.h */
	for (size_t i = 0; i < n; i++)
		fprintf(f, "Chart: %s (`%s`)\n\n![%s](plots/%s.png)\n\n", bl_esc_doc(&er, c[i].title, true),
			c[i].name, bl_esc_doc(&er, c[i].title, true), c[i].name);
	bl_esc_ring_release(&er);
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

int bl_groups_record(void *ud, const struct bl_record *r)
{
	struct bl_groups *g = ud;
	const char *name = r->group ? r->group : "";
	if (g->baseline && !g->found && strcmp(name, g->baseline) == 0)
		g->found = true;
	bl_names_count(&g->m, BL_GROUPS_LISTED, &g->more, name);
	return 0;
}

void bl_names_count(struct bl_strmap *m, size_t cap, bool *more, const char *name)
{
	if (m->n < cap)
		bl_strmap_get(m, name, NULL);
	else if (!*more && bl_strmap_find(m, name) < 0)
		*more = true;
}

struct bl_sink bl_groups_sink(struct bl_groups *g)
{
	return (struct bl_sink){ bl_groups_record, NULL, NULL, g, false };
}

int bl_groups_check(FILE *diag, const char *cmd, const struct bl_groups *g)
{
	if (!g->baseline || g->m.n == 0 || g->found)
		return 0;
	bl_term_printf(diag, "benchlog %s: --baseline: no group \"%s\"; there are:", cmd, g->baseline);
	for (size_t i = 0; i < g->m.n; i++)
		bl_term_printf(diag, "%s \"%s\"", i ? "," : "", bl_strmap_key(&g->m, i));
	bl_term_printf(diag, "%s\n", g->more ? ", and more" : "");
	return -BL_EUSAGE;
}

void bl_groups_release(struct bl_groups *g)
{
	bl_strmap_release(&g->m);
}
