/* cmpspill.c — C6 of analyze/compare.h: one input's comparisons held in
 * an unlinked temporary file, only their p-values in memory. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/compare.h"
#include "core/store.h"
#include "core/strmap.h"
#include "core/util.h"

struct ent {
	long long off;         /* the row's place in the file */
	size_t fam;            /* its question, an index of fams */
	double p;              /* as made; after judge: Bonferroni's p_adj */
	double holm, bh;       /* D12, set by bl_cmp_spill_adjust */
};
struct bl_cmp_spill {
	struct bl_spool sp;        /* the rows, made by the first put: most inputs compare nothing */
	struct bl_strmap *names;   /* the drain's: sources and threads */
	struct bl_strmap fams;     /* D12 family keys */
	size_t *m;                 /* m[fam]: the tests of each family */
	struct ent *e;
	size_t n, cap;
	const char **tab;          /* the tables with a row; into ts */
	size_t ntab;
	double conf;
	size_t tests;              /* the sum of the families' m, once adjusted */
};

struct bl_cmp_spill *bl_cmp_spill_new(struct bl_strmap *names)
{
	struct bl_cmp_spill *s = bl_xcalloc(1, sizeof *s);
	s->names = names;
	return s;
}

void bl_cmp_spill_free(struct bl_cmp_spill *s)
{
	if (!s)
		return;
	bl_spool_release(&s->sp);
	bl_strmap_release(&s->fams);
	free(s->m);
	free(s->e);
	free(s->tab);
	free(s);
}

size_t bl_cmp_spill_n(const struct bl_cmp_spill *s)
{
	return s ? s->n : 0;
}

bool bl_cmp_spill_has_table(const struct bl_cmp_spill *s, const char *table)
{
	for (size_t i = 0; s && i < s->ntab; i++)
		if (strcmp(s->tab[i], table) == 0)
			return true;
	return false;
}

static const char *interned(struct bl_strmap *m, const char *s)
{
	if (!s || !m)
		return s;
	size_t i = bl_strmap_get(m, s, NULL);   /* m->key may move */
	return m->key[i];
}

void bl_cmp_spill_put(struct bl_cmp_spill *s, struct bl_cmp_row *w)
{
	/* the groups source and message_id point into are dropped after the
	 * input; every other pointer is static or into ts's tables */
	w->source = interned(s->names, w->source);
	w->message_id = interned(s->names, w->message_id);
	if (!bl_cmp_spill_has_table(s, w->table)) {
		s->tab = bl_xrealloc(s->tab, (s->ntab + 1) * sizeof *s->tab);
		s->tab[s->ntab++] = w->table;
	}
	s->e = bl_xgrow(s->e, &s->cap, s->n + 1, sizeof *s->e);
	long long off = -1;
	FILE *f = bl_spool_append(&s->sp, &off);
	char *key = bl_cmp_family_key(w);
	s->e[s->n++] = (struct ent){ off, bl_strmap_get(&s->fams, key, NULL), w->r.tested ? w->r.t.p : NAN, NAN, NAN };
	free(key);
	if (f) {
		fwrite(w, sizeof *w, 1, f);
		bl_spool_put_str(f, w->baseline);
		bl_spool_put_str(f, w->candidate);
		bl_spool_put_str(f, w->block);
		bl_spool_check(&s->sp, true);
	}
	bl_cmp_row_clear(w);
}

size_t bl_cmp_spill_adjust(struct bl_cmp_spill *s, double conf)
{
	size_t nf = s->fams.n, tests = 0;
	s->conf = conf;
	s->m = bl_xcalloc(nf ? nf : 1, sizeof *s->m);
	size_t *start = bl_xcalloc(nf + 1, sizeof *start);
	for (size_t i = 0; i < s->n; i++)
		start[s->e[i].fam + 1]++;
	for (size_t k = 0; k < nf; k++)
		start[k + 1] += start[k];
	size_t *at = bl_xmalloc((s->n ? s->n : 1) * sizeof *at), *fill = bl_xmalloc((nf ? nf : 1) * sizeof *fill);
	memcpy(fill, start, (nf ? nf : 1) * sizeof *fill);
	for (size_t i = 0; i < s->n; i++)   /* each family's rows in the order made */
		at[fill[s->e[i].fam]++] = i;
	free(fill);
	double *p = bl_xmalloc((s->n ? s->n : 1) * sizeof *p), *h = bl_xmalloc((s->n ? s->n : 1) * sizeof *h),
	       *b = bl_xmalloc((s->n ? s->n : 1) * sizeof *b);
	for (size_t k = 0; k < nf; k++) {
		size_t a = start[k], n = start[k + 1] - a;
		for (size_t j = 0; j < n; j++)
			p[j] = s->e[at[a + j]].p;
		s->m[k] = bl_compare_adjust_p(p, n, b, h);
		tests += s->m[k];
		for (size_t j = 0; j < n; j++)
			s->e[at[a + j]] = (struct ent){ s->e[at[a + j]].off, k, b[j], h[j], p[j] };
	}
	free(p);
	free(h);
	free(b);
	free(at);
	free(start);
	if (s->sp.f)
		bl_spool_check(&s->sp, fflush(s->sp.f) == 0);
	s->tests = tests;
	return tests;
}

int bl_cmp_spill_err(const struct bl_cmp_spill *s)
{
	return s ? s->sp.err : 0;
}

int bl_cmp_spill_get(struct bl_cmp_spill *s, size_t i, struct bl_cmp_row *w)
{
	const struct ent *e = &s->e[i];
	memset(w, 0, sizeof *w);
	char *str[3] = { NULL, NULL, NULL };
	FILE *f = bl_spool_read(&s->sp, e->off);
	bool ok = f && fread(w, sizeof *w, 1, f) == 1;
	for (size_t k = 0; k < 3; k++)
		ok = ok && bl_spool_get_str(f, &str[k]) == 0;
	w->baseline = str[0];
	w->candidate = str[1];
	w->block = str[2];
	if (bl_spool_check(&s->sp, ok) < 0)
		return -BL_EIO;
	/* C3 as bl_compare_rows_judge does it */
	size_t m = s->m[e->fam];
	w->r.p_adj = e->p;
	w->r.p_holm = e->holm;
	w->r.p_bh = e->bh;
	bl_compare_judge(&w->r, 1.0 - s->conf, w->band, w->better, m);
	w->r.verdict = bl_cmp_verdict_words(w->r.kind, w->column, w->r.pct);
	w->family = m;
	w->fam = e->fam;
	return 0;
}
