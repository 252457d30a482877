/* vmstat.c — the "vmstat" analysis: per-series column statistics, stutter
 * intervals from the prose events, iterations split where swpd collapses,
 * and the swpd charts. Definitions S1-S5 are in analyze/vmstat.h.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/escape.h"
#include "analyze/analysis.h"
#include "core/store.h"
#include "analyze/stats.h"
#include "input/mail.h"
#include "analyze/vmstat.h"
#include "analyze/vmstat_int.h"
#include "core/strmap.h"
#include "core/util.h"
#include "parsers/vmstat.h"

enum { EVK_NOTE = 0, EVK_START, EVK_END };

static const char *const evk_name[] = { "note", "stutter_start", "stutter_end" };
static const char *const watch_name[BL_VM_NWATCH] = { "swpd", "si", "so", "free" };

static int evk_of(const char *kind)
{
	return strcmp(kind, evk_name[EVK_START]) == 0 ? EVK_START
	     : strcmp(kind, evk_name[EVK_END]) == 0 ? EVK_END : EVK_NOTE;
}

struct pend {
	long sample;
	int kind;
};

struct series {
	struct bl_vm_series_info info;
	char *source, *group, *layout, *mem_unit;
	char *thread, *ref;                  /* D18's block within the source; its message */
	unsigned long msg;                   /* (bl_mail_ref, its index; 0: none) */
	size_t gi;                           /* its group: index in vmstat_an.grp */
	double kib;                          /* KiB per mem_unit */
	bool have_row;
	double last_step;                    /* the last step forward of t_s (span_s) */
	struct bl_dist *dist[VM_NCOLS];
	struct bl_lag1 lag[VM_NCOLS];        /* D15, in time order */
	/* S2 once the series is over (frozen): its column statistics, and
	 * no dists (they hold every sample up to BL_DIST_EXACT_MAX) */
	bool frozen;
	struct frozen_col { int col; struct bl_vm_colstat cs; } *fz;
	size_t nfz;
	/* events */
	struct bl_vm_event *ev;
	size_t nev, capev;
	struct pend *pend;
	size_t npend, cappend;
	/* S3 */
	struct bl_vm_interval *iv;
	size_t niv, capiv;
	bool open;
	size_t open_iter;                    /* iteration of the open interval's start */
	/* S4 */
	struct bl_vm_iteration *it;
	size_t nit, capit;
	bool have_prev;
	double prev_kib, prev_raw;
	/* the last row */
	long last_sample;
	double last_t;
	double last_w[BL_VM_NWATCH];
	/* the chart's samples (at most VM_KEEP_SAMPLES, then an envelope) */
	struct bl_swpd_sample *smp;
	long *smp_no;
	size_t nsmp, capsmp;
	unsigned long long smp_rows;         /* the rows they stand for */
	/* t_s that goes back inside the series (vmstat -t rows whose clock
	 * went back, a row without its stamp among rows with one): the chart
	 * draws the rows from there on after the ones before, as if a new
	 * capture started, shifted by t_shift; each place is kept to be
	 * named on o.diag and marked in the chart */
	double t_shift;
	struct tback { double tc; unsigned long line; double from, to; } *back;
	size_t nback, capback;
	bool final;
	bool chart_folded, s5_folded;        /* given to vmstat_an's charts, S5 */
};

/* The swpd chart's panel of one group, filled as its series end. */
struct chart_group {
	const char *name;          /* owned by vmstat_an.gnames */
	struct bl_swpd_sample *smp;
	size_t nsmp, capsmp;
	unsigned long long rows;   /* the samples the kept ones stand for */
	struct bl_plot_interval *iv;
	size_t niv, capiv;
	struct bl_plot_event *ev;
	size_t nev, capev;
	char **texts;     /* owned event texts made here */
	size_t ntexts, captexts;
	size_t ncapture;  /* captures after the first */
};

/* A group, for S5: its values are a chain in vmstat_an.s5. */
struct vgroup {
	const char *name;          /* owned by vmstat_an.gnames */
	unsigned long long nval;   /* S5 values of the group so far */
	size_t first1, last1;      /* its first and last value's place in s5, + 1; 0: none */
};

struct vmstat_an {
	struct bl_analysis_opts o;
	enum bl_since_boot since_boot;   /* --since-boot (S1) */
	struct series **s;
	size_t n, cap;
	/* Memory (analysis.h), the same for every command: a series, once
	 * it is over, goes to its group's chart panel and S5, and is kept
	 * (frozen: its S2 statistics) if it is one of the first BL_MD_SHOWN
	 * with rows, which report.md shows and the Findings compare; any
	 * other is written as text to `spool` and freed. Its S5 values go
	 * to the store `s5`, each group's a chain. What stays in memory:
	 * those series, the open one, the chart's panels, the groups'
	 * names and counts, and at most BL_STORE_MEM bytes of `s5`. */
	bool any_row;            /* has_data() */
	bool finished;
	struct bl_spool spool, chart;
	struct bl_store s5;
	size_t s5_len;           /* bytes in s5 */
	bool charted;            /* charts(): the panels read back from `chart` */
	int err;                 /* errno of the first temporary-file failure */
	bool failed;
	struct vgroup *grp;      /* in order of first series */
	size_t ngrp, capgrp;
	struct bl_strmap gnames; /* grp[i].name is its key i */
	struct chart_group cg[16];   /* analyze/chart.h: at most 16 panels */
	size_t ncg;
	size_t kept_rows;            /* series with rows kept in a->s */
	size_t left_out;             /* series with rows written out and freed */
	bool closed;                 /* the last series folded too */
};

static void *vm_create(const struct bl_analysis_opts *o)
{
	struct vmstat_an *a = bl_xcalloc(1, sizeof *a);
	a->o = *o;
	a->since_boot = o->parse ? o->parse->since_boot : BL_SB_AUTO;
	return a;
}

static int fail(struct vmstat_an *a, int e)
{
	if (!a->failed) {
		a->failed = true;
		a->err = e ? e : EIO;
	}
	errno = a->err;
	return -BL_EIO;
}

/* The index of group name in a->grp, added in first-seen order (S5 lists
 * the groups in the order of their first series). */
static size_t group_index(struct vmstat_an *a, const char *name)
{
	bool added;
	size_t i = bl_strmap_get(&a->gnames, name, &added);
	if (!added)
		return i;
	a->grp = bl_xgrow(a->grp, &a->capgrp, a->ngrp + 1, sizeof *a->grp);
	struct vgroup *g = &a->grp[a->ngrp++];
	memset(g, 0, sizeof *g);
	g->name = bl_strmap_key(&a->gnames, i);
	return i;
}

/* Samples a series, or a chart panel, keeps at most: then they
 * are reduced to a min/max envelope of VM_KEEP_SAMPLES / 4 buckets of
 * their time range, at most two samples a bucket, and go on from there;
 * the swpd chart is 1,200 pixels wide, so a panel keeps 4,096 to 16,384
 * points of its time axis (docs/report.md). */
#define VM_KEEP_SAMPLES 16384

/* s[0..*n) (time order) in place to the min/max envelope of
 * VM_KEEP_SAMPLES / 4 buckets of its time range; no[] (may be NULL), the
 * sample numbers beside them, follows: a bucket's first and last. */
static void envelope(struct bl_swpd_sample *s, long *no, size_t *n)
{
	size_t nb = VM_KEEP_SAMPLES / 4, out = 0, i = 0;
	double t0 = s[0].t_s, t1 = s[*n - 1].t_s;
	double scale = t1 > t0 ? (double)nb / (t1 - t0) : 0;
	while (i < *n) {
		size_t b = (size_t)fmin((double)(nb - 1), floor((s[i].t_s - t0) * scale));
		size_t e = i + 1;
		while (e < *n && (size_t)fmin((double)(nb - 1), floor((s[e].t_s - t0) * scale)) == b)
			e++;
		if (e - i == 1) {
			if (no)
				no[out] = no[i];
			s[out++] = s[i];
		} else {
			struct bl_swpd_sample a, z;
			long na = no ? no[i] : 0, nz = no ? no[e - 1] : 0;
			bl_swpd_minmax(s, i, e, &a, &z);
			if (no) {
				no[out] = na;
				no[out + 1] = nz;
			}
			s[out++] = a;
			s[out++] = z;
		}
		i = e;
	}
	*n = out;
}

/* S2 but ci95, which series_colstat() works out when it is read: its t
 * quantile was half the cost of freezing the series a report never shows
 * (80 M of 160 M instructions, callgrind, report of 1,000 bench logs). */
static void colstat_of(struct bl_dist *d, const struct bl_lag1 *lag, struct bl_vm_colstat *out)
{
	const struct bl_welford *w = bl_dist_welford(d);
	/* D15: the samples follow each other in time */
	out->r1 = bl_lag1_r1(lag, w);
	out->n_eff = w->n >= 2 ? bl_n_eff((double)w->n, out->r1) : NAN;
	out->ci95 = NAN;
	out->n = w->n;
	out->mean = bl_welford_mean(w);
	out->sd = bl_welford_sd(w);
	out->min = w->min;
	out->max = w->max;
	out->median = bl_pct_supported(w->n, 50) ? bl_dist_percentile(d, 50, BL_PCT_TYPE7) : NAN;
	out->p95 = bl_pct_supported(w->n, 95) ? bl_dist_percentile(d, 95, BL_PCT_TYPE7) : NAN; /* D3a */
	out->estimated = !bl_dist_is_exact(d);
}

/* A series is over when a record of another series comes: the parser
 * numbers series in input order, so no record of it follows. Its S2 statistics are kept
 * and its dists freed, so memory does not grow with the rows of the
 * input (issue 10: summary under 16 MiB whatever the input size). */
static void freeze(struct series *s)
{
	if (s->frozen)
		return;
	s->frozen = true;
	for (int c = 0; c < VM_NCOLS; c++) {
		if (!s->dist[c])
			continue;
		s->fz = bl_xrealloc(s->fz, (s->nfz + 1) * sizeof *s->fz);
		s->fz[s->nfz].col = c;
		colstat_of(s->dist[c], &s->lag[c], &s->fz[s->nfz].cs);
		s->nfz++;
		bl_dist_free(s->dist[c]);
		s->dist[c] = NULL;
	}
}

static int fold(struct vmstat_an *a);
static int fold_chart(struct vmstat_an *a, struct series *s);
static void series_free(struct series *s);
static void series_release(struct series *s);
static struct series *series_new(struct vmstat_an *a, long id, const struct bl_record *r);

/* The series of record r (its id), found or made. A record goes on with
 * the open series (the last) when it has its id and source; any other
 * makes a new one, the open one folded. The parser numbers series upward
 * across the passes of a run (compare reads the logs on either side of a
 * CSV table in two: ctx->vmstat_series), and no record of a series comes
 * after the next one's. NULL with *rc set when that fold could not write its
 * temporary files (-BL_EIO). */
static struct series *get(struct vmstat_an *a, long id, const struct bl_record *r, int *rc)
{
	*rc = 0;
	struct series *last = a->n ? a->s[a->n - 1] : NULL;
	if (last && last->info.id == id && strcmp(last->source, r->source ? r->source : "") == 0)
		return last;
	if (last && (*rc = fold(a)) < 0)
		return NULL;
	return series_new(a, id, r);
}

static struct series *series_new(struct vmstat_an *a, long id, const struct bl_record *r)
{
	struct series *s = bl_xcalloc(1, sizeof *s);
	s->info.id = id;
	s->source = bl_xstrdup(r->source ? r->source : "");
	s->group = bl_xstrdup(r->group ? r->group : "");
	s->thread = bl_mail_thread_key(r->msg);   /* D18's block within the source */
	s->ref = r->msg ? bl_mail_ref(r->msg) : NULL;
	s->msg = r->msg ? r->msg->index : 0;
	s->info.source = s->source;
	s->info.group = s->group;
	s->info.layout = "";
	s->info.mem_unit = "KiB";
	s->info.first_line = r->line;
	s->kib = 1;
	s->last_sample = -1;
	for (int k = 0; k < BL_VM_NWATCH; k++)
		s->last_w[k] = NAN;
	s->gi = group_index(a, s->group);
	a->s = bl_xgrow(a->s, &a->cap, a->n + 1, sizeof *a->s);
	a->s[a->n++] = s;
	return s;
}

static int event_record(struct vmstat_an *a, const struct bl_record *r)
{
	double d;
	if (!bl_val_num(&r->v[EV_SERIES], &d))
		return 0;
	int rc;
	struct series *s = get(a, (long)d, r, &rc);
	if (!s)
		return rc;
	long sample = bl_val_num(&r->v[EV_SAMPLE], &d) ? (long)d : 0;
	const char *kind = r->v[EV_KIND].t == BL_STR ? r->v[EV_KIND].u.s : "note";
	int k = evk_of(kind);
	s->info.nevents++;
	if (s->nev < BL_VM_MAX_EVENTS) {
		s->ev = bl_xgrow(s->ev, &s->capev, s->nev + 1, sizeof *s->ev);
		struct bl_vm_event *e = &s->ev[s->nev++];
		e->sample = sample;
		e->kind = evk_name[k];
		e->text = bl_xstrdup(r->v[EV_TEXT].t == BL_STR ? r->v[EV_TEXT].u.s : "");
		e->line = r->line;
	}
	if (k != EVK_NOTE) {
		s->pend = bl_xgrow(s->pend, &s->cappend, s->npend + 1, sizeof *s->pend);
		s->pend[s->npend++] = (struct pend){ sample, k };
	}
	return 0;
}

static struct bl_vm_iteration *iter_new(struct series *s, long sample, double raw, double from)
{
	s->it = bl_xgrow(s->it, &s->capit, s->nit + 1, sizeof *s->it);
	struct bl_vm_iteration *it = &s->it[s->nit++];
	memset(it, 0, sizeof *it);
	it->first_sample = it->last_sample = sample;
	it->swpd_first = it->swpd_peak = raw;
	it->collapse_from = from;
	it->stutter_end_swpd = NAN;
	it->stutter_end_sample = -1;
	it->si_peak = it->so_peak = NAN;
	return it;
}

/* S4 for one row with a swpd value; w: its swpd, si, so, free. */
static void iterations(struct series *s, long sample, const double w[BL_VM_NWATCH])
{
	double raw = w[BL_VM_SWPD];
	double kib = raw * s->kib;
	struct bl_vm_iteration *it;
	if (s->nit == 0) {
		it = iter_new(s, sample, raw, NAN);
	} else if (s->have_prev && s->prev_kib - kib >= 0.5 * s->prev_kib &&
		   s->prev_kib - kib >= BL_VM_COLLAPSE_KIB) {
		it = iter_new(s, sample, raw, s->prev_raw);
	} else {
		it = &s->it[s->nit - 1];
		if (raw > it->swpd_peak)
			it->swpd_peak = raw;
	}
	it->last_sample = sample;
	it->n++;
	if (!isnan(w[BL_VM_SI]) && !(w[BL_VM_SI] <= it->si_peak))
		it->si_peak = w[BL_VM_SI];
	if (!isnan(w[BL_VM_SO]) && !(w[BL_VM_SO] <= it->so_peak))
		it->so_peak = w[BL_VM_SO];
	s->have_prev = true;
	s->prev_kib = kib;
	s->prev_raw = raw;
}

/* S3: apply the pending events due at this row. */
static void apply_events(struct series *s, long sample, double t, const double w[BL_VM_NWATCH])
{
	size_t keep = 0;
	for (size_t i = 0; i < s->npend; i++) {
		struct pend *p = &s->pend[i];
		if (p->sample > sample) {
			s->pend[keep++] = *p;
			continue;
		}
		if (p->kind == EVK_START && !s->open) {
			s->iv = bl_xgrow(s->iv, &s->capiv, s->niv + 1, sizeof *s->iv);
			struct bl_vm_interval *v = &s->iv[s->niv++];
			memset(v, 0, sizeof *v);
			v->start_sample = sample;
			v->t_start_s = t;
			v->end_sample = -1;
			v->t_end_s = v->duration_s = NAN;
			for (int k = 0; k < BL_VM_NWATCH; k++) {
				v->at_start[k] = w[k];
				v->at_end[k] = v->min_inside[k] = v->max_inside[k] = NAN;
			}
			s->open = true;
			s->open_iter = s->nit ? s->nit - 1 : 0;
		} else if (p->kind == EVK_END && s->open) {
			struct bl_vm_interval *v = &s->iv[s->niv - 1];
			v->end_sample = sample;
			v->t_end_s = t;
			v->duration_s = t - v->t_start_s;
			for (int k = 0; k < BL_VM_NWATCH; k++)
				v->at_end[k] = w[k];
			s->open = false;
			if (s->nit) {
				struct bl_vm_iteration *it = &s->it[s->nit - 1];
				it->stutter_end_swpd = w[BL_VM_SWPD];
				it->stutter_end_sample = sample;
				it->nstutter++;
			}
		}
	}
	s->npend = keep;
}

static double nmin(double a, double b) { return isnan(a) || b < a ? b : a; }
static double nmax(double a, double b) { return isnan(a) || b > a ? b : a; }

static int row_record(struct vmstat_an *a, const struct bl_record *r)
{
	double d;
	if (!bl_val_num(&r->v[VM_SERIES], &d))
		return 0;
	int rc;
	struct series *s = get(a, (long)d, r, &rc);
	if (!s)
		return rc;
	if (!s->have_row) {
		s->have_row = true;
		a->any_row = true;
		free(s->layout);
		free(s->mem_unit);
		s->layout = bl_xstrdup(r->v[VM_LAYOUT].t == BL_STR ? r->v[VM_LAYOUT].u.s : "");
		/* the memory columns are KiB whatever vmstat printed
		 * (parsers/vmstat.c V6); mem_unit says what it printed */
		const char *printed = r->v[VM_MEM_UNIT].t == BL_STR ? r->v[VM_MEM_UNIT].u.s : "KiB";
		s->mem_unit = strcmp(printed, "KiB") == 0 ? bl_xstrdup("KiB")
			: bl_xasprintf("KiB (printed in %s)", printed);
		s->info.layout = s->layout;
		s->info.mem_unit = s->mem_unit;
		s->kib = 1;
		if (!s->info.first_line || r->line < s->info.first_line)
			s->info.first_line = r->line;
	}
	s->info.last_line = r->line;
	if (bl_since_boot_left_out(a->since_boot, &r->v[VM_SINCE_BOOT])) {
		s->info.since_boot_left_out++;
		return 0;
	}
	long sample = bl_val_num(&r->v[VM_SAMPLE], &d) ? (long)d : (long)s->info.rows;
	double t = bl_val_nan(&r->v[VM_T_S]);
	if (isnan(t))
		t = (double)sample;
	if (s->info.rows == 0) {
		s->info.t_first_s = t;
		s->info.span_s = 0;
		/* the step before any: from the series' start (sample 0 at
		 * t_s 0, the since-boot row left out or not), else 1 s */
		s->last_step = sample > 0 && t > 0 ? t / (double)sample : 1;
	} else if (t > s->info.t_last_s) {
		s->last_step = t - s->info.t_last_s;
		s->info.span_s += s->last_step;
	} else {
		s->info.span_s += s->last_step;   /* the clock went back or stood */
	}
	s->info.t_last_s = t;
	s->info.rows++;
	for (int c = 0; c < VM_NCOLS; c++) {
		if (!bl_vmstat_is_value_col(c) || !bl_val_num(&r->v[c], &d))
			continue;
		if (!s->dist[c]) {
			s->dist[c] = bl_dist_new_exact(BL_VM_EXACT_MAX, NULL);
			bl_lag1_init(&s->lag[c]);
			s->info.ncols++;
		}
		if (bl_dist_add(s->dist[c], d) == 0)
			bl_lag1_add(&s->lag[c], d);
	}
	double w[BL_VM_NWATCH] = { bl_val_nan(&r->v[VM_SWPD]), bl_val_nan(&r->v[VM_SI]), bl_val_nan(&r->v[VM_SO]), bl_val_nan(&r->v[VM_FREE]) };
	if (!isnan(w[BL_VM_SWPD]))
		iterations(s, sample, w);
	apply_events(s, sample, t, w);
	if (s->open) {
		struct bl_vm_interval *v = &s->iv[s->niv - 1];
		v->n_inside++;
		for (int k = 0; k < BL_VM_NWATCH; k++) {
			if (isnan(w[k]))
				continue;
			v->min_inside[k] = nmin(v->min_inside[k], w[k]);
			v->max_inside[k] = nmax(v->max_inside[k], w[k]);
		}
	}
	s->last_sample = sample;
	s->last_t = t;
	memcpy(s->last_w, w, sizeof w);
	size_t cap = s->capsmp;
	s->smp = bl_xgrow(s->smp, &s->capsmp, s->nsmp + 1, sizeof *s->smp);
	s->smp_no = bl_xgrow(s->smp_no, &cap, s->nsmp + 1, sizeof *s->smp_no);
	/* analyze/chart.h wants samples in time order */
	double tc = t + s->t_shift;
	if (s->nsmp && tc < s->smp[s->nsmp - 1].t_s) {
		double last = s->smp[s->nsmp - 1].t_s;
		double step = s->nsmp > 1 ? last - s->smp[s->nsmp - 2].t_s : 1;
		s->back = bl_xgrow(s->back, &s->capback, s->nback + 1, sizeof *s->back);
		double from = last - s->t_shift;
		s->t_shift = last + (step > 0 ? step : 1) - t;
		tc = t + s->t_shift;
		s->back[s->nback++] = (struct tback){ tc, r->line, from, t };
	}
	/* analyze/chart.h wants KiB and KiB/s; si and so scale with -S too */
	s->smp[s->nsmp] = (struct bl_swpd_sample){
		tc, w[BL_VM_SWPD] * s->kib, w[BL_VM_SI] * s->kib, w[BL_VM_SO] * s->kib,
		w[BL_VM_FREE] * s->kib };
	s->smp_no[s->nsmp++] = sample;
	s->smp_rows++;
	if (s->nsmp >= VM_KEEP_SAMPLES)
		envelope(s->smp, s->smp_no, &s->nsmp);
	return 0;
}

static int vm_record(void *st, const struct bl_record *r)
{
	struct vmstat_an *a = st;
	if (r->quoted && !a->o.include_quoted)
		return 0;
	if (a->failed)
		return fail(a, a->err);
	if (r->table == &bl_table_vmstat)
		return row_record(a, r);
	if (r->table == &bl_table_events)
		return event_record(a, r);
	return 0;
}

/* Close what is still open (S3: open_at_end). Idempotent. */
static void finalize(struct series *s)
{
	if (s->final)
		return;
	s->final = true;
	if (s->open && s->niv) {
		struct bl_vm_interval *v = &s->iv[s->niv - 1];
		v->open_at_end = true;
		v->end_sample = s->last_sample;
		v->t_end_s = s->last_t;
		v->duration_s = s->last_t - v->t_start_s;
		memcpy(v->at_end, s->last_w, sizeof v->at_end);
		if (s->open_iter < s->nit) {
			s->it[s->open_iter].nstutter++;
			s->it[s->open_iter].stutter_open = true;
		}
		s->open = false;
	}
	s->info.ninterval = s->niv;
	s->info.niteration = s->nit;
}

static bool vm_has_data(void *st)
{
	return ((struct vmstat_an *)st)->any_row;
}

/* ---- accessors (analyze/vmstat.h, vmstat_int.h) ------------------------- */

const struct bl_vm_series_info *bl_vmstat_series(void *st, size_t i)
{
	struct vmstat_an *a = st;
	if (i >= a->n)
		return NULL;
	finalize(a->s[i]);
	return &a->s[i]->info;
}

/* S2 of column col of s; false when it has no value there. */
static bool series_colstat(const struct series *s, int col, struct bl_vm_colstat *out)
{
	size_t k = 0;
	if (s->frozen) {
		while (k < s->nfz && s->fz[k].col != col)
			k++;
		if (k == s->nfz)
			return false;
		*out = s->fz[k].cs;
	} else if (s->dist[col]) {
		colstat_of(s->dist[col], &s->lag[col], out);
	} else {
		return false;
	}
	out->ci95 = bl_ci_half_eff(out->sd, out->n_eff, 0.95);
	return true;
}

bool bl_vmstat_colstat(void *st, size_t i, int col, struct bl_vm_colstat *out)
{
	struct vmstat_an *a = st;
	if (i >= a->n || col < 0 || col >= VM_NCOLS)
		return false;
	return series_colstat(a->s[i], col, out);
}

const struct bl_vm_interval *bl_vmstat_interval(void *st, size_t i, size_t k)
{
	struct vmstat_an *a = st;
	if (i >= a->n)
		return NULL;
	finalize(a->s[i]);
	return k < a->s[i]->niv ? &a->s[i]->iv[k] : NULL;
}

const struct bl_vm_iteration *bl_vmstat_iteration(void *st, size_t i, size_t k)
{
	struct vmstat_an *a = st;
	if (i >= a->n)
		return NULL;
	finalize(a->s[i]);
	return k < a->s[i]->nit ? &a->s[i]->it[k] : NULL;
}

/* ---- text and Markdown ------------------------------------------------- */

/* A number for a table cell: integers as such, others to 2 decimals;
 * from 10^12 on, D20's text (bl_fmt_stat: every whole digit, no
 * fraction), as stats writes it. */
static void cell(char *b, size_t bs, double v)
{
	if (isnan(v))
		snprintf(b, bs, "-");
	else if (bl_whole(v))
		snprintf(b, bs, "%.0f", v);
	else if (fabs(v) >= 999999999999.5)
		bl_fmt_stat(b, bs, v);
	else
		snprintf(b, bs, "%.2f", v);
}

static void mib(char *b, size_t bs, double v, double kib)
{
	if (isnan(v))
		snprintf(b, bs, "-");
	else
		snprintf(b, bs, "%.1f MiB", v * kib / 1024.0);
}

/* "≈" before the number in b (D11). */
static void estimate(char *b, size_t bs)
{
	size_t n = strlen(b);
	if (n + 4 <= bs) {
		memmove(b + 3, b, n + 1);
		memcpy(b, "\u2248", 3);
	}
}

static void write_stats(FILE *f, const struct series *s, enum bl_doc_format fmt)
{
	static const char *const hdr[] = { "column", "n", "mean", "sd", "min", "median", "p95", "max",
					   "r1", "n_eff", "ci95" };
	if (fmt == BL_DOC_MD)
		fprintf(f, "| column | n | mean | sd | min | median | p95 | max | r1 | n_eff | ci95 |\n"
			   "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
	else
		fprintf(f, "  %-9s %6s %12s %12s %10s %10s %10s %10s %6s %6s %10s\n", hdr[0], hdr[1],
			hdr[2], hdr[3], hdr[4], hdr[5], hdr[6], hdr[7], hdr[8], hdr[9], hdr[10]);
	bool estimated = false, thin = false;
	for (int c = 0; c < VM_NCOLS; c++) {
		struct bl_vm_colstat cs;
		if (!series_colstat(s, c, &cs))
			continue;
		char v[6][40];
		cell(v[0], sizeof v[0], cs.mean);
		cell(v[1], sizeof v[1], cs.sd);
		cell(v[2], sizeof v[2], cs.min);
		cell(v[3], sizeof v[3], cs.median);
		cell(v[4], sizeof v[4], cs.p95);
		for (int k = 3; cs.estimated && k <= 4; k++)   /* D11: an estimate says so */
			if (!isnan(k == 3 ? cs.median : cs.p95))
				estimate(v[k], sizeof v[k]);
		thin |= isnan(cs.p95) || isnan(cs.median);
		cell(v[5], sizeof v[5], cs.max);
		const char *name = bl_table_vmstat.cols[c].name;
		char r1[16] = "-", ne[16] = "-", ci[40];
		if (!isnan(cs.r1))
			snprintf(r1, sizeof r1, "%.3f", cs.r1);
		if (!isnan(cs.n_eff))
			snprintf(ne, sizeof ne, "%.1f", cs.n_eff);
		cell(ci, sizeof ci, cs.ci95);
		if (fmt == BL_DOC_MD)
			fprintf(f, "| %s | %llu | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", name, cs.n,
				v[0], v[1], v[2], v[3], v[4], v[5], r1, ne, ci);
		else
			fprintf(f, "  %-9s %6llu %12s %12s %10s %*s %*s %10s %6s %6s %10s\n", name, cs.n,
				v[0], v[1], v[2], cs.estimated ? 12 : 10, v[3], cs.estimated ? 12 : 10,
				v[4], v[5], r1, ne, ci);   /* "≈" is 3 bytes wide 1 */
		estimated |= cs.estimated;
	}
	/* D15: one sentence on why the CI is wide */
	fprintf(f, "%sr1: lag-1 autocorrelation of the column in time order; n_eff: the independent "
		"samples it is worth (at least 2, at most n; AR(1) with r1's bias corrected); ci95: "
		"half-width of the 95%% CI of the mean with n_eff (docs/statistics.md D15).\n",
		fmt == BL_DOC_MD ? "\n" : "  ");
	if (estimated)
		fprintf(f, "%s\u2248: median and p95 estimated (more than %d rows: log-bucketed sketch, "
			"within 1%%, D11)\n", fmt == BL_DOC_MD ? "\n" : "  ", BL_VM_EXACT_MAX);
	if (thin)
		fprintf(f, "%sp95 is shown from 20 rows, the median from 2 (fewer: it would restate "
			"the largest values, D3a)\n", fmt == BL_DOC_MD ? "\n" : "  ");
	fputc('\n', f);
}

/* report.md lists at most this many events, stutter intervals and
 * iterations of a series (BL_MD_SHOWN series), then says how many are not
 * shown: about 30 KB a series, whatever the capture's length (issue 34). */
#define VM_MD_LIST 50

static void write_events(FILE *f, const struct series *s, enum bl_doc_format fmt)
{
	if (s->info.nevents == 0)
		return;
	if (fmt == BL_DOC_MD) {
		fprintf(f, "Events (prose between the rows, anchored to the next sample):\n\n"
			   "| sample | line | kind | text |\n|--:|--:|---|---|\n");
		for (size_t k = 0; k < s->nev && k < VM_MD_LIST; k++) {
			fprintf(f, "| %ld | %lu | %s | ", s->ev[k].sample, s->ev[k].line, s->ev[k].kind);
			bl_fput_md_inline(f, s->ev[k].text);
			fprintf(f, " |\n");
		}
	} else {
		fprintf(f, "  events (%zu):\n", s->info.nevents);
		for (size_t k = 0; k < s->nev; k++)
			bl_term_printf(f, "    sample %-5ld %-14s %s\n", s->ev[k].sample, s->ev[k].kind,
				       s->ev[k].text);
	}
	size_t listed = fmt == BL_DOC_MD && s->nev > VM_MD_LIST ? VM_MD_LIST : s->nev;
	if (fmt == BL_DOC_MD && s->info.nevents > listed)
		fprintf(f, "\nThe first %zu events of %zu are shown (%zu not shown); every event is in "
			   "[csv/events.csv](csv/events.csv).\n", listed, s->info.nevents, s->info.nevents - listed);
	else if (s->info.nevents > s->nev)
		fprintf(f, "    (%zu more events not listed)\n", s->info.nevents - s->nev);
	fputc('\n', f);
}

static void write_intervals(FILE *f, const struct series *s, enum bl_doc_format fmt)
{
	if (s->niv == 0)
		return;
	if (fmt == BL_DOC_MD) {
		fprintf(f, "Stutter intervals (from a stutter_start event to the next stutter_end; "
			   "values at the start and end rows, %s):\n\n"
			   "| # | samples | duration (s) | swpd start → end | swpd min–max inside | si start → end "
			   "| so start → end | free start → end |\n|--:|---|--:|---|---|---|---|---|\n",
			s->mem_unit);
	} else {
		fprintf(f, "  stutter intervals (%zu; from stutter_start to stutter_end, memory in %s):\n",
			s->niv, s->mem_unit);
	}
	size_t shown = fmt == BL_DOC_MD && s->niv > VM_MD_LIST ? VM_MD_LIST : s->niv;
	for (size_t k = 0; k < shown; k++) {
		const struct bl_vm_interval *v = &s->iv[k];
		char a[BL_VM_NWATCH][40], b[BL_VM_NWATCH][40], lo[40], hi[40], dur[40];
		for (int w = 0; w < BL_VM_NWATCH; w++) {
			cell(a[w], sizeof a[w], v->at_start[w]);
			cell(b[w], sizeof b[w], v->at_end[w]);
		}
		cell(lo, sizeof lo, v->min_inside[BL_VM_SWPD]);
		cell(hi, sizeof hi, v->max_inside[BL_VM_SWPD]);
		cell(dur, sizeof dur, v->duration_s);
		const char *open = v->open_at_end ? " (still stuttering when the capture ends)" : "";
		if (fmt == BL_DOC_MD) {
			fprintf(f, "| %zu | %ld–%ld (%lu inside)%s | %s%s | %s → %s | %s–%s | %s → %s | %s → %s | %s → %s |\n",
				k + 1, v->start_sample, v->end_sample, v->n_inside, open, dur,
				v->open_at_end ? "+" : "", a[0], b[0], lo, hi, a[1], b[1], a[2], b[2], a[3], b[3]);
		} else {
			fprintf(f, "    #%zu samples %ld-%ld (%lu inside), %s%s s%s\n", k + 1, v->start_sample,
				v->end_sample, v->n_inside, dur, v->open_at_end ? "+" : "", open);
			for (int w = 0; w < BL_VM_NWATCH; w++) {
				if (w == BL_VM_SWPD)
					fprintf(f, "       %-4s %10s -> %-10s  inside %s..%s\n", watch_name[w], a[w], b[w], lo, hi);
				else
					fprintf(f, "       %-4s %10s -> %s\n", watch_name[w], a[w], b[w]);
			}
		}
	}
	if (shown < s->niv)
		fprintf(f, "\nThe first %zu stutter intervals of %zu are shown (%zu not shown); every "
			   "stutter_start and stutter_end event is in [csv/events.csv](csv/events.csv) and every "
			   "row in [csv/vmstat.csv](csv/vmstat.csv), and `benchlog summary` on the same inputs "
			   "prints every interval.\n", shown, s->niv, s->niv - shown);
	fputc('\n', f);
}

static void write_iterations(FILE *f, const struct series *s, enum bl_doc_format fmt)
{
	if (s->nit < 2 && s->niv == 0)
		return;
	if (fmt == BL_DOC_MD)
		fprintf(f, "Iterations (a new one starts where swpd falls to half or less, by at least "
			   "%.0f MiB), swpd in %s:\n\n| # | samples | swpd before the drop | swpd at start | "
			   "peak swpd | stutter ended at swpd |\n|--:|---|--:|--:|--:|---|\n",
			BL_VM_COLLAPSE_KIB / 1024, s->mem_unit);
	else
		fprintf(f, "  iterations (%zu; a new one starts where swpd falls to half or less, by at "
			   "least %.0f MiB; swpd in %s):\n    %-3s %-11s %12s %12s %12s  %s\n", s->nit,
			BL_VM_COLLAPSE_KIB / 1024, s->mem_unit, "#", "samples", "drop from", "start",
			"peak", "stutter ended at swpd");
	size_t shown = fmt == BL_DOC_MD && s->nit > VM_MD_LIST ? VM_MD_LIST : s->nit;
	for (size_t k = 0; k < shown; k++) {
		const struct bl_vm_iteration *it = &s->it[k];
		char from[40], first[40], peak[40], end[40], endm[40], range[48], ended[128];
		cell(from, sizeof from, it->collapse_from);
		cell(first, sizeof first, it->swpd_first);
		cell(peak, sizeof peak, it->swpd_peak);
		cell(end, sizeof end, it->stutter_end_swpd);
		mib(endm, sizeof endm, it->stutter_end_swpd, s->kib);
		snprintf(range, sizeof range, "%ld-%ld", it->first_sample, it->last_sample);
		if (!isnan(it->stutter_end_swpd))
			snprintf(ended, sizeof ended, "%s (%s) at sample %ld%s", end, endm,
				 it->stutter_end_sample, it->stutter_open ? "; stuttering again at the end" : "");
		else if (it->stutter_open)
			snprintf(ended, sizeof ended, "still stuttering at the end");
		else
			snprintf(ended, sizeof ended, "no stutter marked");
		if (fmt == BL_DOC_MD)
			fprintf(f, "| %zu | %s | %s | %s | %s | %s |\n", k + 1, range, from, first, peak, ended);
		else
			fprintf(f, "    %-3zu %-11s %12s %12s %12s  %s\n", k + 1, range, from, first, peak, ended);
	}
	if (shown < s->nit)
		fprintf(f, "\nThe first %zu iterations of %zu are shown (%zu not shown); every row is in "
			   "[csv/vmstat.csv](csv/vmstat.csv), and `benchlog summary` on the same inputs prints "
			   "every iteration.\n", shown, s->nit, s->nit - shown);
	fputc('\n', f);
}

static void write_series(FILE *f, const struct vmstat_an *a, struct series *s, enum bl_doc_format fmt)
{
	finalize(s);
	const struct bl_vm_series_info *in = &s->info;
	if (fmt == BL_DOC_MD) {
		fprintf(f, "#### Series %ld: ", in->id);
		bl_fput_md_inline(f, in->group);
		fprintf(f, " (");
		bl_fput_md_inline(f, in->source);
		fprintf(f, " lines %lu–%lu)\n\n", in->first_line, in->last_line);
	} else {
		bl_term_printf(f, "series %ld: %s lines %lu-%lu, group %s\n", in->id, in->source, in->first_line,
			       in->last_line, in->group);
	}
	char dur[40];
	cell(dur, sizeof dur, in->rows ? in->span_s : NAN);
	fprintf(f, "%s%s over %s s, layout %s (%u columns), memory in %s", fmt == BL_DOC_MD ? "" : "  ",
		BL_COUNT(in->rows, "sample"), dur, in->layout, in->ncols, in->mem_unit);
	if (in->since_boot_left_out)
		fprintf(f, "; since-boot row left out");
	else if (a->since_boot == BL_SB_KEEP)
		fprintf(f, "; since-boot row counted (--since-boot keep)");
	fprintf(f, "\n\n");
	if (in->rows)
		write_stats(f, s, fmt);
	write_events(f, s, fmt);
	write_intervals(f, s, fmt);
	write_iterations(f, s, fmt);
}

/* sp's file to append to; NULL (a failed) when a has failed or it
 * cannot be made. */
static FILE *spool_of(struct vmstat_an *a, struct bl_spool *sp)
{
	FILE *f = a->failed ? NULL : bl_spool_append(sp, NULL);
	if (!f)
		fail(a, errno);
	return f;
}

/* A series left out of memory (fold()) in a->spool: this head, its
 * source, group, layout and mem_unit, its frozen columns, its events
 * (struct spool_ev, then the text), intervals and iterations; its text
 * is made only when `summary` prints it (write_spooled()): made at
 * fold(), it was 352 M of `report`'s 4.28 G instructions (callgrind,
 * 1,000 bench logs). */
struct series_rec {
	struct bl_vm_series_info info;   /* its pointers are not read back */
	size_t nfz, nev, niv, nit;
	double kib;
};
struct spool_ev {
	long sample;
	unsigned long line;
	int kind;            /* EVK_* */
};


/* The events of s to f: each a struct spool_ev, then its text. */
static void put_events(FILE *f, const struct series *s)
{
	for (size_t e = 0; e < s->nev; e++) {
		struct spool_ev ce = { s->ev[e].sample, s->ev[e].line, evk_of(s->ev[e].kind) };
		fwrite(&ce, sizeof ce, 1, f);
		bl_spool_put_str(f, s->ev[e].text);
	}
}

/* n events put_events() wrote, from f into t->ev (new); false on a read
 * error (t holds what was read, for series_release). */
static bool get_events(FILE *f, struct series *t, size_t n)
{
	bool ok = true;
	t->ev = n ? bl_xcalloc(n, sizeof *t->ev) : NULL;
	for (size_t e = 0; ok && e < n; e++) {
		struct spool_ev ce = { 0 };
		char *text = NULL;
		ok = fread(&ce, sizeof ce, 1, f) == 1 && ce.kind >= 0 && ce.kind <= EVK_END &&
		     bl_spool_get_str(f, &text) == 0;
		t->ev[t->nev++] = (struct bl_vm_event){ ce.sample, evk_name[ok ? ce.kind : EVK_NOTE], text, ce.line };
	}
	return ok;
}

static void spool_series(FILE *f, const struct series *s)
{
	const char *str[4] = { s->source, s->group, s->layout, s->mem_unit };
	struct series_rec h = { s->info, s->nfz, s->nev, s->niv, s->nit, s->kib };
	fwrite(&h, sizeof h, 1, f);
	for (int k = 0; k < 4; k++)
		bl_spool_put_str(f, str[k] ? str[k] : "");
	bl_spool_put_arr(f, s->fz, s->nfz, sizeof *s->fz);
	put_events(f, s);
	bl_spool_put_arr(f, s->iv, s->niv, sizeof *s->iv);
	bl_spool_put_arr(f, s->it, s->nit, sizeof *s->it);
}

/* One series of a->spool back into t, frozen and final (what it holds
 * freed with series_release): 1, 0 at the end, -1 on a read error. */
static int read_series(FILE *f, struct series *t)
{
	struct series_rec h;
	memset(t, 0, sizeof *t);
	if (fread(&h, sizeof h, 1, f) != 1)
		return ferror(f) || !feof(f) ? -1 : 0;
	t->info = h.info;
	t->kib = h.kib;
	t->frozen = t->final = true;
	char **str[4] = { &t->source, &t->group, &t->layout, &t->mem_unit };
	bool ok = true;
	for (int k = 0; k < 4; k++)
		ok = ok && bl_spool_get_str(f, str[k]) == 0;
	t->info.source = t->source;
	t->info.group = t->group;
	t->info.layout = t->layout;
	t->info.mem_unit = t->mem_unit;
	t->nfz = h.nfz;
	ok = ok && bl_spool_get_arr(f, &t->fz, h.nfz, sizeof *t->fz) == 0;
	ok = ok && get_events(f, t, h.nev);
	t->niv = h.niv;
	t->nit = h.nit;
	ok = ok && bl_spool_get_arr(f, &t->iv, h.niv, sizeof *t->iv) == 0 &&
	     bl_spool_get_arr(f, &t->it, h.nit, sizeof *t->it) == 0;
	return ok ? 1 : -1;
}

/* The series left out of memory, as `summary` prints them. 0 or -BL_EIO. */
static int write_spooled(FILE *f, struct vmstat_an *a)
{
	FILE *sp = bl_spool_read(&a->spool, 0);
	if (!sp)
		return fail(a, errno);
	struct series t;
	int rc;
	while ((rc = read_series(sp, &t)) > 0) {
		write_series(f, a, &t, BL_DOC_TEXT);
		series_release(&t);
	}
	series_release(&t);
	return rc < 0 ? fail(a, errno) : 0;
}

/* An S5 value in a->s5: the next of its group's (its place + 1, 0:
 * none yet), the length of its text, then the text. */
struct s5_rec {
	size_t next1, len;
};

/* S5: the stutter_end values of series s, once, each at the end of a->s5
 * and of its group's chain. 0 or -BL_EIO. */
static int fold_s5(struct vmstat_an *a, struct series *s)
{
	if (s->s5_folded)
		return 0;
	s->s5_folded = true;
	finalize(s);
	struct vgroup *g = &a->grp[s->gi];
	for (size_t k = 0; k < s->nit; k++) {
		if (isnan(s->it[k].stutter_end_swpd))
			continue;
		char m[40], t[128];
		mib(m, sizeof m, s->it[k].stutter_end_swpd, s->kib);
		int n = snprintf(t, sizeof t, "%s%s (series %ld, iteration %zu)", g->nval ? ", " : "", m,
				 s->info.id, k + 1);
		struct s5_rec h = { 0, n > 0 && (size_t)n < sizeof t ? (size_t)n : strlen(t) };
		size_t at1 = a->s5_len + 1;
		if (a->failed || bl_store_put(&a->s5, at1 - 1, &h, sizeof h) < 0 ||
		    bl_store_put(&a->s5, at1 - 1 + sizeof h, t, h.len) < 0 ||
		    (g->last1 && bl_store_put(&a->s5, g->last1 - 1, &at1, sizeof at1) < 0))
			return fail(a, errno);
		a->s5_len += sizeof h + h.len;
		g->first1 = g->first1 ? g->first1 : at1;
		g->last1 = at1;
		g->nval++;
	}
	return 0;
}

/* The series that just ended (the last in a->s) goes to the chart's panel
 * and S5; it is kept if it is one of the first BL_MD_SHOWN series with
 * rows, which report.md shows in full and the Findings compare; any other
 * with rows is written to the spool (spool_series()), from which
 * `summary` prints it, and freed. Either is frozen (its S2 statistics
 * worked out). 0 or -BL_EIO. */
static int fold(struct vmstat_an *a)
{
	struct series *s = a->s[a->n - 1];
	if (fold_chart(a, s) < 0 || fold_s5(a, s) < 0)
		return -BL_EIO;
	bool rows = s->have_row && s->info.rows;
	if (rows && a->kept_rows < BL_MD_SHOWN) {
		a->kept_rows++;
		freeze(s);
		return 0;
	}
	if (rows) {
		a->left_out++;
		freeze(s);
		errno = 0;   /* a failed write below leaves its errno (ENOSPC, EFBIG) */
		FILE *sp = spool_of(a, &a->spool);
		if (!sp)
			return -BL_EIO;
		spool_series(sp, s);
		if (ferror(sp))
			return fail(a, errno);
	}
	series_free(s);
	a->n--;
	return 0;
}

/* Once the pass is over: the last series folded as the others were. */
static int close_series(struct vmstat_an *a)
{
	if (a->closed || a->n == 0)
		return a->failed ? fail(a, a->err) : 0;
	a->closed = true;
	return fold(a);
}

/* The pass is over: fold the open series and flush the spool, so that
 * no temporary file is written once the summary has begun. Idempotent. */
static int vm_finish(void *st)
{
	struct vmstat_an *a = st;
	if (close_series(a) < 0 || a->finished || a->failed)
		return a->failed ? fail(a, a->err) : 0;
	a->finished = true;
	errno = 0;
	return a->spool.f && fflush(a->spool.f) ? fail(a, errno) : 0;
}

/* S5, every group and value (report.md: the first BL_MD_SHOWN of each). */
static int write_by_group(FILE *f, struct vmstat_an *a, enum bl_doc_format fmt)
{
	if (!a->s5_len)   /* no S5 value */
		return 0;
	if (fmt == BL_DOC_MD)
		fprintf(f, "#### Where stutter ended\n\nswpd at which stutter ended, by group "
			   "(one value per iteration that had a stutter_end event):\n\n"
			   "| group | stutter ended at swpd |\n|---|---|\n");
	else
		fprintf(f, "stutter ended at swpd, by group:\n");
	/* the groups in the order of their first series */
	size_t shown = 0, more = 0;
	for (size_t gi = 0; gi < a->ngrp; gi++) {
		const struct vgroup *g = &a->grp[gi];
		if (!g->nval)
			continue;
		if (fmt == BL_DOC_MD && shown == BL_MD_SHOWN) {
			more++;
			continue;
		}
		shown++;
		if (fmt == BL_DOC_MD) {
			fprintf(f, "| ");
			bl_fput_md_inline(f, g->name);
			fprintf(f, " | ");
		} else {
			bl_term_printf(f, "  %-24s ", g->name);
		}
		struct s5_rec h;
		for (size_t k = 0, at1 = g->first1; at1 && (fmt != BL_DOC_MD || k < BL_MD_SHOWN); k++, at1 = h.next1)
			if (bl_store_get(&a->s5, at1 - 1, &h, sizeof h) < 0 ||
			    bl_store_copy(&a->s5, at1 - 1 + sizeof h, h.len, f) < 0)
				return -BL_EIO;
		if (fmt == BL_DOC_MD && g->nval > BL_MD_SHOWN)
			fprintf(f, " and %llu more", g->nval - BL_MD_SHOWN);
		fputs(fmt == BL_DOC_MD ? " |\n" : "\n", f);
	}
	fputc('\n', f);
	if (more)
		fprintf(f, "%zu more groups are not shown (csv/vmstat.csv and csv/events.csv hold their "
			   "rows and events).\n\n", more);
	return 0;
}

static int vm_write(void *st, FILE *f, enum bl_doc_format fmt, const struct bl_chart *charts, size_t nch)
{
	struct vmstat_an *a = st;
	if (vm_finish(a) < 0)
		return -BL_EIO;
	if (fmt == BL_DOC_MD)
		fprintf(f, "Each vmstat capture (series) with the statistics of every column (sample "
			   "standard deviation, type-7 percentiles), the prose lines found between its rows, "
			   "the stutter intervals they mark and the iterations of a memory hog that fills "
			   "swap and exits.\n\n");
	size_t shown = 0;
	for (size_t i = 0; i < a->n; i++) {
		if (!a->s[i]->have_row || !a->s[i]->info.rows)   /* a header whose rows were all refused says nothing */
			continue;
		write_series(f, a, a->s[i], fmt);
		shown++;
	}
	if (fmt == BL_DOC_TEXT && a->spool.f && write_spooled(f, a) < 0)
		return -BL_EIO;
	if (fmt == BL_DOC_MD && a->left_out)
		fprintf(f, "The first %zu series of %zu are shown, and the Findings compare these series only; "
			   "every row of all of them is in [csv/vmstat.csv](csv/vmstat.csv) and every event in "
			   "[csv/events.csv](csv/events.csv), and `benchlog summary` on the same inputs prints "
			   "every series' statistics.\n\n", shown, shown + a->left_out);
	if (write_by_group(f, a, fmt) < 0)
		return -BL_EIO;
	if (fmt == BL_DOC_MD)
		bl_charts_md(f, charts, nch);
	return ferror(f) ? -BL_EIO : 0;
}

/* ---- charts ------------------------------------------------------------ */

/* t_s of the first kept sample >= sample, else of the last one. */
static double sample_t(const struct series *s, long sample)
{
	size_t lo = 0, hi = s->nsmp;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (s->smp_no[mid] < sample)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == s->nsmp)
		lo = s->nsmp - 1;
	return s->smp[lo].t_s;
}

/* A note of the chart's own at t: its text is owned by the group. */
static void add_note(struct chart_group *g, double t, char *text)
{
	g->texts = bl_xgrow(g->texts, &g->captexts, g->ntexts + 1, sizeof *g->texts);
	g->texts[g->ntexts++] = text;
	g->ev = bl_xgrow(g->ev, &g->capev, g->nev + 1, sizeof *g->ev);
	g->ev[g->nev++] = (struct bl_plot_event){ t, text, BL_PLOT_EV_NOTE };
}

/* Places where t_s went back, named on o.diag (the first few of a
 * series) and marked in the chart. */
#define BACK_WARN_MAX 5

/* A panel marks where each of its first VM_CAPTURE_NOTES
 * captures starts (a vmstat file of 115,000 captures would otherwise keep
 * a note for each). */
#define VM_CAPTURE_NOTES 50

static void add_series(struct chart_group *g, const struct series *s)
{
	if (s->nsmp == 0)
		return;
	double off = 0;
	if (g->nsmp) {
		/* continue the time axis: one step after the previous series */
		double last = g->smp[g->nsmp - 1].t_s;
		double step = g->nsmp > 1 ? last - g->smp[g->nsmp - 2].t_s : 1;
		off = last + (step > 0 ? step : 1) - s->smp[0].t_s;
		if (g->ncapture < VM_CAPTURE_NOTES)
			add_note(g, s->smp[0].t_s + off,
				 bl_xasprintf("capture %ld: %s:%lu", s->info.id, s->source, s->info.first_line));
		g->ncapture++;
	}
	for (size_t k = 0; k < s->nback; k++)
		add_note(g, s->back[k].tc + off, bl_xasprintf("time goes back: %s:%lu", s->source, s->back[k].line));
	g->smp = bl_xgrow(g->smp, &g->capsmp, g->nsmp + s->nsmp, sizeof *g->smp);
	for (size_t k = 0; k < s->nsmp; k++) {
		g->smp[g->nsmp + k] = s->smp[k];
		g->smp[g->nsmp + k].t_s += off;
	}
	g->nsmp += s->nsmp;
	g->rows += s->smp_rows;
	if (s->niv) {
		/* An interval still open at the end of this capture ends with it
		 * (its last sample and that sample's step), not at the end of
		 * the group's time axis, where later captures are drawn. */
		double step = s->nsmp > 1 ? s->smp[s->nsmp - 1].t_s - s->smp[s->nsmp - 2].t_s : 1;
		double cap_end = s->smp[s->nsmp - 1].t_s + (step > 0 ? step : 1);
		g->iv = bl_xgrow(g->iv, &g->capiv, g->niv + s->niv, sizeof *g->iv);
		for (size_t k = 0; k < s->niv; k++) {
			const struct bl_vm_interval *v = &s->iv[k];
			/* in chart time: shifted where t_s went back */
			double a = s->nback ? sample_t(s, v->start_sample) : v->t_start_s;
			double b = v->open_at_end ? cap_end
				 : s->nback ? sample_t(s, v->end_sample) : v->t_end_s;
			g->iv[g->niv++] = (struct bl_plot_interval){ a + off, b + off, v->open_at_end };
		}
	}
	if (s->nev) {
		/* the texts copied: the series may be freed before the chart */
		g->ev = bl_xgrow(g->ev, &g->capev, g->nev + s->nev, sizeof *g->ev);
		g->texts = bl_xgrow(g->texts, &g->captexts, g->ntexts + s->nev, sizeof *g->texts);
		for (size_t k = 0; k < s->nev; k++) {
			const struct bl_vm_event *e = &s->ev[k];
			static const enum bl_plot_event_kind kind[] = { BL_PLOT_EV_NOTE, BL_PLOT_EV_PROBLEM, BL_PLOT_EV_RECOVERED };
			char *text = g->texts[g->ntexts++] = bl_xstrdup(e->text);
			g->ev[g->nev++] = (struct bl_plot_event){ sample_t(s, e->sample) + off, text, kind[evk_of(e->kind)] };
		}
	}
}

/* A series' chart data in vmstat_an.chart: this head, its source, then
 * nsmp samples and sample numbers, nback places where time went back,
 * niv intervals, and nev events (put_events()). */
struct chart_rec {
	size_t panel, nsmp, nback, niv, nev;
	long id;
	unsigned long first_line;
	unsigned long long smp_rows;
};

/* Where t_s went back inside series s: named on diag, the first few. */
static void warn_back(const struct series *s, FILE *diag)
{
	for (size_t k = 0; k < s->nback && diag && k <= BACK_WARN_MAX; k++) {
		const struct tback *b = &s->back[k];
		if (k < BACK_WARN_MAX)
			bl_term_printf(diag, "benchlog: %s:%lu: vmstat time goes back from t_s %g to %g "
					"inside series %ld: the swpd chart draws the rows from here on "
					"after the ones before\n", s->source, b->line, b->from, b->to,
				s->info.id);
		else
			bl_term_printf(diag, "benchlog: %s: vmstat time goes back %zu more times inside "
					"series %ld\n", s->source, s->nback - k, s->info.id);
	}
}

/* Series s, once over, to its group's panel (the first 16 groups with
 * samples have one), once: its chart data is written to a->chart, and
 * charts() reads the series back in order and adds each to its panel,
 * so that memory does not grow with the series (analysis.h). 0 or
 * -BL_EIO. */
static int fold_chart(struct vmstat_an *a, struct series *s)
{
	if (s->chart_folded)
		return 0;
	s->chart_folded = true;
	finalize(s);
	if (s->nsmp == 0)
		return 0;
	size_t k = 0;
	while (k < a->ncg && strcmp(a->cg[k].name, s->group) != 0)
		k++;
	if (k == a->ncg) {
		if (a->ncg == 16)
			return 0;   /* analyze/chart.h: at most 16 panels */
		a->cg[a->ncg++].name = a->grp[s->gi].name;
	}
	warn_back(s, a->o.diag);
	FILE *f = spool_of(a, &a->chart);
	if (!f)
		return -BL_EIO;
	struct chart_rec h = { k, s->nsmp, s->nback, s->niv, s->nev, s->info.id,
			       s->info.first_line, s->smp_rows };
	fwrite(&h, sizeof h, 1, f);
	bl_spool_put_str(f, s->source);
	bl_spool_put_arr(f, s->smp, s->nsmp, sizeof *s->smp);
	bl_spool_put_arr(f, s->smp_no, s->nsmp, sizeof *s->smp_no);
	bl_spool_put_arr(f, s->back, s->nback, sizeof *s->back);
	bl_spool_put_arr(f, s->iv, s->niv, sizeof *s->iv);
	put_events(f, s);
	free(s->smp);
	free(s->smp_no);
	s->smp = NULL;
	s->smp_no = NULL;
	s->nsmp = s->capsmp = 0;
	return ferror(f) ? fail(a, errno) : 0;
}

/* One series of a->chart back into t (what it holds freed with
 * series_release): 1, 0 at the end, -1 on a read error. */
static int read_chart(FILE *f, struct series *t, size_t *panel)
{
	struct chart_rec h;
	memset(t, 0, sizeof *t);
	if (fread(&h, sizeof h, 1, f) != 1)
		return ferror(f) || !feof(f) ? -1 : 0;
	*panel = h.panel;
	t->info.id = h.id;
	t->info.first_line = h.first_line;
	t->smp_rows = h.smp_rows;
	t->nsmp = h.nsmp;
	t->nback = h.nback;
	t->niv = h.niv;
	bool ok = bl_spool_get_str(f, &t->source) == 0 && bl_spool_get_arr(f, &t->smp, h.nsmp, sizeof *t->smp) == 0 &&
		  bl_spool_get_arr(f, &t->smp_no, h.nsmp, sizeof *t->smp_no) == 0 &&
		  bl_spool_get_arr(f, &t->back, h.nback, sizeof *t->back) == 0 &&
		  bl_spool_get_arr(f, &t->iv, h.niv, sizeof *t->iv) == 0;
	return ok && get_events(f, t, h.nev) ? 1 : -1;
}

/* The panels, from the series in a->chart. 0 or -BL_EIO. */
static int read_panels(struct vmstat_an *a)
{
	if (!a->chart.f || a->charted)
		return 0;
	a->charted = true;
	FILE *cf = bl_spool_read(&a->chart, 0);
	if (!cf)
		return fail(a, errno);
	struct series t;
	size_t k;
	int rc;
	while ((rc = read_chart(cf, &t, &k)) > 0) {
		struct chart_group *g = &a->cg[k];
		add_series(g, &t);
		if (g->nsmp >= VM_KEEP_SAMPLES)
			envelope(g->smp, NULL, &g->nsmp);
		series_release(&t);
	}
	series_release(&t);
	return rc < 0 ? fail(a, errno) : 0;
}

static int vm_charts(void *st, struct bl_chart_spec **specs, size_t *nspecs)
{
	struct vmstat_an *a = st;
	for (size_t i = 0; i < a->n && !a->failed; i++)
		fold_chart(a, a->s[i]);
	if (close_series(a) < 0 || read_panels(a) < 0)
		return -BL_EIO;
	struct chart_group *g = a->cg;
	size_t ng = a->ncg;
	if (ng == 0)
		return 0;
	struct bl_chart_spec *sp = bl_chart_spec_add(specs, nspecs, BL_CHART_SWPD, "swpd", NULL,
		"swap in use (swpd), free, si and so over time, stutter shaded, one panel per group");
	struct bl_swpd_group *pg = bl_chart_spec_own(sp, bl_xcalloc(ng, sizeof *pg));
	for (size_t k = 0; k < ng; k++) {
		pg[k] = (struct bl_swpd_group){ g[k].name, g[k].smp, g[k].nsmp, g[k].iv, g[k].niv,
						g[k].ev, g[k].nev, g[k].rows };
		bl_chart_spec_own(sp, g[k].smp);
		bl_chart_spec_own(sp, g[k].iv);
		bl_chart_spec_own(sp, g[k].ev);
		for (size_t t = 0; t < g[k].ntexts; t++)
			bl_chart_spec_own(sp, g[k].texts[t]);
		bl_chart_spec_own(sp, g[k].texts);
	}
	sp->in.swpd = (struct bl_swpd_plot){ pg, ng, 0 };
	memset(a->cg, 0, sizeof a->cg);   /* the spec owns them now */
	a->ncg = 0;
	/* The stutter chart answers "at which swpd did playback recover?":
	 * only groups with a stutter interval have anything to say there, and
	 * the others' bars would set its scale. It points into the first
	 * chart's groups (freed with it, after it). */
	size_t nsg = 0;
	for (size_t k = 0; k < ng; k++)
		nsg += pg[k].nstutter > 0;
	if (nsg == 0)
		return 0;
	struct bl_chart_spec *ss = bl_chart_spec_add(specs, nspecs, BL_CHART_SWPD_STUTTER, "swpd-stutter",
		NULL, "seconds observed and seconds of stutter per swpd range, per group with stutter marked");
	struct bl_swpd_group *sg = bl_chart_spec_own(ss, bl_xcalloc(nsg, sizeof *sg));
	nsg = 0;
	for (size_t k = 0; k < ng; k++)
		if (pg[k].nstutter)
			sg[nsg++] = pg[k];
	ss->in.swpd = (struct bl_swpd_plot){ sg, nsg, 0 };
	return 0;
}

/* ---- D18: comparisons for the report's Findings ------------------------- */

static void vm_row(struct bl_cmp_rows *rows, const struct bl_findings_opts *o, const struct series *b,
		   const struct series *c, const char *col, char *block, const struct bl_moments *mb,
		   const struct bl_moments *mc)
{
	struct bl_cmp_row *w = bl_cmp_rows_add(rows, "vmstat", col, b->group, c->group, b->source);
	if (!o->compare_all && !o->co->baseline)
		bl_cmp_row_thread(w, b->thread, b->ref);
	w->block = block;
	w->better = 0;
	w->test = "welch";   /* D6 with D15's n_eff */
	w->band = bl_band_for(o->co, col);
	w->n_base = (unsigned long long)mb->n;
	w->n_cand = (unsigned long long)mc->n;
	w->mean_base = mb->mean;
	w->mean_cand = mc->mean;
	bl_compare_moments(mb, mc, o->co->confidence, &w->r);
}

/* D18 (a): the mean of swpd, si, so and free of candidate series c
 * against baseline series b, with D15's n_eff. */
static void vm_series_rows(struct vmstat_an *a, size_t bi, size_t ci, const struct bl_findings_opts *o,
			   struct bl_cmp_rows *rows)
{
	static const int cols[] = { VM_SWPD, VM_SI, VM_SO, VM_FREE };
	const struct series *b = a->s[bi], *c = a->s[ci];
	for (size_t k = 0; k < 4; k++) {
		struct bl_vm_colstat sb, sc;
		if (!bl_vmstat_colstat(a, bi, cols[k], &sb) || !bl_vmstat_colstat(a, ci, cols[k], &sc))
			continue;
		struct bl_moments mb = { (double)sb.n, sb.n_eff, sb.mean, sb.sd, sb.min };
		struct bl_moments mc = { (double)sc.n, sc.n_eff, sc.mean, sc.sd, sc.min };
		char *block = bl_xasprintf("mean, series %ld (n_eff %.3g) → %ld (n_eff %.3g)", b->info.id, sb.n_eff,
					   c->info.id, sc.n_eff);
		vm_row(rows, o, b, c, watch_name[k], block, &mb, &mc);
	}
}

/* D18 (b): per iteration, over every series of group g in block k of
 * blk[]: swpd where stutter ended, peak si, peak so. */
static void iter_values(struct vmstat_an *a, const size_t *blk, size_t k0, const char *g, struct bl_welford w[3])
{
	for (int k = 0; k < 3; k++)
		bl_welford_init(&w[k]);
	for (size_t i = 0; i < a->n; i++) {
		const struct series *s = a->s[i];
		if (strcmp(s->group, g) != 0 || blk[i] != k0)
			continue;
		for (size_t k = 0; k < s->nit; k++) {
			const struct bl_vm_iteration *it = bl_vmstat_iteration(a, i, k);
			if (!isnan(it->stutter_end_swpd))
				bl_welford_add(&w[0], it->stutter_end_swpd * s->kib);
			if (!isnan(it->si_peak))
				bl_welford_add(&w[1], it->si_peak * s->kib);
			if (!isnan(it->so_peak))
				bl_welford_add(&w[2], it->so_peak * s->kib);
		}
	}
}

static void vm_iter_rows(struct vmstat_an *a, const size_t *blk, size_t bi, size_t ci,
			 const struct bl_findings_opts *o, struct bl_cmp_rows *rows)
{
	static const char *const what[] = { "where stutter ended, per iteration", "peak per iteration",
					    "peak per iteration" };
	struct bl_welford wb[3], wc[3];
	iter_values(a, blk, blk[bi], a->s[bi]->group, wb);
	iter_values(a, blk, blk[bi], a->s[ci]->group, wc);
	for (int k = 0; k < 3; k++) {
		if (!wb[k].n || !wc[k].n)
			continue;
		struct bl_moments mb = { (double)wb[k].n, (double)wb[k].n, wb[k].mean,
					 wb[k].n > 1 ? bl_welford_sd(&wb[k]) : NAN, wb[k].min };
		struct bl_moments mc = { (double)wc[k].n, (double)wc[k].n, wc[k].mean,
					 wc[k].n > 1 ? bl_welford_sd(&wc[k]) : NAN, wc[k].min };
		vm_row(rows, o, a->s[bi], a->s[ci], watch_name[k], bl_xstrdup(what[k]), &mb, &mc);
	}
}

/* analysis.h findings(): in each block (bl_cmp_units) the baseline is its
 * first series (the first of co->baseline's group when named); every series of another
 * group is compared with it (a), and each such group's iterations with
 * the baseline group's, once (b): the series kept (fold()). Blocks and groups are found by hash: 15,000 series are not
 * compared pairwise. */
static void vm_findings(void *st, const struct bl_findings_opts *o, struct bl_cmp_rows *rows)
{
	struct vmstat_an *a = st;
	if (close_series(a) < 0)
		return;
	struct bl_strmap seen = BL_STRMAP_INIT;
	size_t *base = bl_xmalloc((a->n + 1) * sizeof *base), *blk = bl_xmalloc((a->n + 1) * sizeof *blk);
	struct bl_cmp_unit *u = bl_xcalloc(a->n + 1, sizeof *u);
	bool all = o->compare_all || o->co->baseline;
	for (size_t i = 0; i <= a->n; i++)
		base[i] = a->n;
	for (size_t i = 0; i < a->n; i++)
		u[i] = (struct bl_cmp_unit){ bl_xasprintf("%s\x1f%s", all ? "" : a->s[i]->source,
							  all ? "" : a->s[i]->thread), a->s[i]->group, all ? 0 : a->s[i]->msg };
	bl_cmp_units(u, a->n, blk);
	for (size_t i = 0; i < a->n; i++) {
		free((char *)u[i].block);
		if (base[blk[i]] == a->n && (!o->co->baseline || strcmp(a->s[i]->group, o->co->baseline) == 0))
			base[blk[i]] = i;
	}
	free(u);
	for (size_t j = 0; j < a->n; j++) {
		size_t b = base[blk[j]];
		if (b == a->n || strcmp(a->s[j]->group, a->s[b]->group) == 0)
			continue;
		vm_series_rows(a, b, j, o, rows);
		char *gk = bl_xasprintf("%zu\x1f%s", blk[j], a->s[j]->group);
		bool added = false;
		bl_strmap_get(&seen, gk, &added);
		free(gk);
		if (added)
			vm_iter_rows(a, blk, b, j, o, rows);
	}
	free(base);
	free(blk);
	bl_strmap_release(&seen);
}

static void vm_destroy(void *st)
{
	struct vmstat_an *a = st;
	for (size_t i = 0; i < a->n; i++)
		series_free(a->s[i]);
	free(a->s);
	bl_strmap_release(&a->gnames);
	free(a->grp);
	bl_spool_release(&a->spool);
	bl_store_release(&a->s5);
	bl_spool_release(&a->chart);
	for (size_t k = 0; k < a->ncg; k++) {
		struct chart_group *g = &a->cg[k];
		free(g->smp);
		free(g->iv);
		free(g->ev);
		for (size_t t = 0; t < g->ntexts; t++)
			free(g->texts[t]);
		free(g->texts);
	}
	free(a);
}

/* What s holds, not s itself. */
static void series_release(struct series *s)
{
	free(s->thread);
	free(s->ref);
	for (int c = 0; c < VM_NCOLS; c++)
		bl_dist_free(s->dist[c]);
	free(s->fz);
	for (size_t k = 0; k < s->nev; k++)
		free((char *)s->ev[k].text);
	free(s->ev);
	free(s->pend);
	free(s->iv);
	free(s->it);
	free(s->smp);
	free(s->smp_no);
	free(s->back);
	free(s->source);
	free(s->group);
	free(s->layout);
	free(s->mem_unit);
}

static void series_free(struct series *s)
{
	series_release(s);
	free(s);
}

const struct bl_analysis bl_analysis_vmstat = {
	.name = "vmstat",
	.title = "vmstat: swap, stutter and iterations",
	.create = vm_create,
	.record = vm_record,
	.has_data = vm_has_data,
	.finish = vm_finish,
	.findings = vm_findings,
	.findings_table = "vmstat",
	.write = vm_write,
	.charts = vm_charts,
	.destroy = vm_destroy,
};
