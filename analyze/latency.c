/* latency.c — the "latency" analysis: statistics from histogram bins,
 * lateness against a target, the shell `time` cross-check, comparisons and
 * charts. Definitions T1-T6 are in analyze/latency.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/escape.h"
#include "analyze/analysis.h"
#include "analyze/latency.h"
#include "analyze/stats.h"
#include "input/mail.h"
#include "core/strmap.h"
#include "core/util.h"
#include "parsers/latency.h"
#include "parsers/tables.h"

const double bl_lat_pcts[BL_LAT_NPCT] = { 50, 90, 99, 99.9, 99.99 };
static const char *const pct_names[BL_LAT_NPCT] = { "p50", "p90", "p99", "p99.9", "p99.99" };

/* ---- durations --------------------------------------------------------- */

/* The first DUR_PLAIN are the series' units and what bl_fmt_duration() writes. */
#define DUR_PLAIN 4
static const struct { const char *name; double scale; int exp10; } dur_units[] = {
	{ "s", 1, 0 }, { "ms", 1e-3, -3 }, { "us", 1e-6, -6 }, { "ns", 1e-9, -9 },
	{ "\xc2\xb5s", 1e-6, -6 }, { "sec", 1, 0 }, { "msec", 1e-3, -3 }, { "usec", 1e-6, -6 }, { "nsec", 1e-9, -9 },
};

int bl_parse_duration(const char *s, double *out_s)
{
	if (!s || !out_s)
		return -BL_EUSAGE;
	size_t n = strlen(s);
	const char *p = s;
	bl_trim(&p, &n);
	size_t i = 0;
	while (i < n && ((p[i] >= '0' && p[i] <= '9') || p[i] == '.' || p[i] == '-' || p[i] == '+' ||
			 ((p[i] == 'e' || p[i] == 'E') && i > 0 && i + 1 < n &&
			  ((p[i + 1] >= '0' && p[i + 1] <= '9') || p[i + 1] == '-' || p[i + 1] == '+'))))
		i++;
	double v;
	int rc = bl_parse_double(p, i, &v);
	if (rc)
		return rc;
	const char *u = p + i;
	size_t ul = n - i;
	while (ul && (*u == ' ' || *u == '\t'))
		u++, ul--;
	double scale = 1;
	if (ul) {
		bool found = false;
		for (size_t k = 0; k < sizeof dur_units / sizeof dur_units[0]; k++)
			if (strlen(dur_units[k].name) == ul && memcmp(dur_units[k].name, u, ul) == 0) {
				scale = dur_units[k].scale;
				found = true;
			}
		if (!found)
			return -BL_EFORMAT;
	}
	if (v < 0 || !isfinite(v))
		return -BL_ERANGE;
	*out_s = v * scale;
	return 0;
}

int bl_parse_duration_list(const char *s, double *out_s, size_t max, size_t *n)
{
	if (!s || !out_s || !n)
		return -BL_EUSAGE;
	size_t k = 0;
	const char *p = s;
	for (;;) {
		const char *c = strchr(p, ',');
		size_t l = c ? (size_t)(c - p) : strlen(p);
		if (k == max)
			return -BL_EUSAGE;
		char *item = bl_xstrndup(p, l);
		int rc = bl_parse_duration(item, &out_s[k]);
		free(item);
		if (rc)
			return rc;
		k++;
		if (!c)
			break;
		p = c + 1;
	}
	*n = k;
	return k ? 0 : -BL_EUSAGE;
}

struct bl_duration bl_fmt_duration(double s)
{
	struct bl_duration d = { "-" };
	if (!isfinite(s))
		return d;
	double a = fabs(s);
	size_t k = 0;
	while (k + 1 < DUR_PLAIN && a < dur_units[k].scale * (1 - 1e-9) && a != 0)
		k++;
	snprintf(d.s, sizeof d.s, "%.6g %s", s / dur_units[k].scale, dur_units[k].name);
	return d;
}

/* ---- T2-T4 ------------------------------------------------------------- */

/* x > y beyond rounding (T4) */
static bool beyond(double x, double y)
{
	double tol = 1e-9 * fmax(fabs(x), fabs(y));
	return x > y + tol;
}

int bl_latency_summarise(const struct bl_bin *b, size_t n, double overflow, double overflow_bound,
			 bool inclusive, double target, const double *late, size_t nlate,
			 struct bl_latency_summary *out)
{
	if (!out || (n && !b) || nlate > BL_LAT_MAX_LATE || (nlate && !late))
		return -BL_EUSAGE;
	memset(out, 0, sizeof *out);
	struct bl_bins_stats bs;
	int rc = bl_bins_summary(b, n, overflow, &bs);
	if (rc)
		return rc;
	if (overflow > 0 && !isfinite(overflow_bound)) {
		overflow_bound = bs.max;
		inclusive = true;
	}
	out->n = bs.n;
	out->n_binned = bs.n_binned;
	out->overflow = overflow;
	out->overflow_bound = overflow_bound;
	out->overflow_inclusive = inclusive;
	out->mean = bs.mean;
	out->sd = bs.sd;
	out->min = bs.min;
	out->max = bs.max;
	out->mean_lb = bs.mean_lb;
	out->max_lower_bound = bs.max_lower_bound;
	if (overflow > 0 && isfinite(overflow_bound)) {
		out->max = overflow_bound;
		out->mean_lb = bs.n_binned > 0 ? (bs.mean * bs.n_binned + overflow * overflow_bound) / bs.n
					       : overflow_bound;
	}
	for (size_t i = 0; i < BL_LAT_NPCT; i++) {
		out->pct[i] = bl_bins_percentile_rule(b, n, overflow, bl_lat_pcts[i], BL_PCT_TYPE7, &out->pct_lb[i]);
		if (!out->pct_lb[i] || !isfinite(overflow_bound))
			continue;
		/* D3: h = (N - 1) p / 100; x_j is binned when j < n_binned */
		double h = (bs.n - 1) * bl_lat_pcts[i] / 100, j = floor(h), frac = h - j;
		if (j >= bs.n_binned)
			out->pct[i] = overflow_bound;
		else
			out->pct[i] += frac * (overflow_bound - out->pct[i]);
	}
	/* T3: mode over pooled values */
	struct bl_bin *s = NULL;
	if (n) {
		s = bl_xmalloc(n * sizeof *s);
		memcpy(s, b, n * sizeof *s);
		qsort(s, n, sizeof *s, bl_bin_cmp);
	}
	out->mode = NAN;
	out->mode_count = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double c = 0;
		while (j < n && s[j].value == s[i].value)
			c += s[j++].count;
		if (c > out->mode_count) {
			out->mode_count = c;
			out->mode = s[i].value;
		}
		i = j;
	}
	out->target_from = isfinite(target) ? BL_TARGET_OPTION : BL_TARGET_MEDIAN;
	out->target = isfinite(target) ? target : out->pct[0];   /* D17 */
	/* T4 */
	out->nlate = nlate;
	double T = out->target;
	for (size_t k = 0; k < nlate; k++)
		out->late_thr[k] = late[k];
	for (size_t i = 0; i < n && isfinite(T); i++) {
		double v = s[i].value, c = s[i].count;
		if (beyond(v, T))
			out->late += c;
		else if (beyond(T, v))
			out->early += c;
		else
			out->on_target += c;
		for (size_t k = 0; k < nlate; k++)
			if (beyond(v - T, late[k]) && beyond(v, T + late[k]))
				out->late_count[k] += c;
	}
	if (overflow > 0 && isfinite(T)) {
		out->late += overflow;   /* beyond the last bucket, which is >= every value */
		for (size_t k = 0; k < nlate; k++) {
			double lim = T + late[k];
			if (isfinite(overflow_bound) &&
			    (inclusive ? beyond(overflow_bound, lim) : !beyond(lim, overflow_bound)))
				out->late_count[k] += overflow;
			else
				out->late_maybe[k] = overflow;
		}
	}
	free(s);
	return 0;
}

/* ---- the analysis state ------------------------------------------------ */

struct lseries {
	char *source, *msgid, *group, *name;
	char *thread, *ref;        /* D18's block within the source; its message */
	unsigned long msg;         /* (bl_mail_ref, its index; 0: none) */
	long run;
	char *tool, *unit, *command;
	int uexp;
	unsigned long first_line;
	struct bl_bin *bins;
	size_t nbins, cap;
	double overflow;
	bool has_overflow;
	double rows_elided;        /* latency_series.rows_elided; 0 when none */
	double ovf_bound;          /* native unit; NaN when unknown */
	double hist_limit;         /* native; NaN */
	unsigned long time_line;
	bool has_status;
	double st_cycles, st_min_us, st_avg_us, st_max_us, st_prio, st_interval;
	bool has_footer;
	double f_min_us, f_avg_us, f_max_us;
	double period_s;           /* D17: latency_series.period_s; NaN none */
	unsigned long period_line;
	char *period_from;
	char *label;
	bool done;
	int rc;
	struct bl_latency_summary sum;
	/* rank_tests() against series ranked_with - 1 (0: none yet), with the
	 * tests' returns: the section and the Findings test a pair once */
	size_t ranked_with;
	struct ranks { struct bl_utest ut; struct bl_kstest ks; int ru, rk; } ranks;
};

struct ltime {
	char *source, *msgid;
	unsigned long line;
	double real, user, sys;
};

struct bl_latency {
	struct bl_analysis_opts o;
	double late[BL_LAT_MAX_LATE];
	size_t nlate;
	struct lseries *s;
	size_t ns, scap;
	struct bl_strmap sidx;   /* series key (series_key()) -> index into s */
	struct bl_buf key;       /* scratch for series_key() */
	struct ltime *t;
	size_t nt;
	bool labelled;
	/* series past the first LAT_KEEP (or LAT_KEEP_GROUP of a group),
	 * counted by their latency_series row (one per series), their rows
	 * left to the tables */
	size_t more_series;
	struct bl_strmap kgroups;   /* groups of the series held */
	size_t *kgn, capkgn;        /* series held per group */
};

/* At most LAT_KEEP series are held in full, for every command (their
 * bins, figures and label: a few KB each), in order of first appearance,
 * at most LAT_KEEP_GROUP of one group, so that a second kernel's threads
 * are held too (the Findings compare a thread with the same thread of
 * the baseline group); the section shows the first BL_MD_SHOWN of them
 * and the comparisons and Findings take these only. A cyclictest run
 * with 10^5 threads then holds 1,024 of them, not 10^5 (issue 34). */
#define LAT_KEEP 4096         /* the section's sentence says 4096 */
#define LAT_KEEP_GROUP 1024   /* and 1024 */

/* A series' identity as one string (fields joined by 0x1f, which no
 * name holds): looked up by hash, since a cyclictest histogram may have
 * 40,000 threads, each a series, and every bucket row a record for each. */
static const char *series_key(struct bl_latency *L, long run, const char *name, const char *grp,
			      const char *src, const char *mid)
{
	bl_buf_reset(&L->key);
	bl_buf_addf(&L->key, "%ld\x1f%s\x1f%s\x1f%s\x1f%s", run, name, grp, src, mid);
	return L->key.data;
}

static void *lat_create(const struct bl_analysis_opts *o)
{
	struct bl_latency *L = bl_xcalloc(1, sizeof *L);
	L->o = *o;
	if (o->late_s && o->nlate) {
		L->nlate = o->nlate < BL_LAT_MAX_LATE ? o->nlate : BL_LAT_MAX_LATE;
		memcpy(L->late, o->late_s, L->nlate * sizeof *L->late);
	}
	L->o.late_s = NULL;
	return L;
}

static const char *msgid_of(const struct bl_record *r)
{
	return r->msg && r->msg->message_id ? r->msg->message_id : "";
}

static const char *str_of(const struct bl_val *v)
{
	return v->t == BL_STR && v->u.s ? v->u.s : NULL;
}

static int unit_exp10(const char *u)
{
	for (size_t k = 0; u && k < DUR_PLAIN; k++)
		if (strcmp(u, dur_units[k].name) == 0)
			return dur_units[k].exp10;
	return 0;
}

static double pow10i(int e)
{
	return pow(10.0, e);
}

/* seconds -> the series' unit */
static double to_native(const struct lseries *s, double seconds)
{
	return s->uexp ? seconds / pow10i(s->uexp) : seconds;
}

/* latency record value in the series' unit (exact for s and us) */
static bool native_value(const struct bl_record *r, int uexp, double *v)
{
	double d;
	if (uexp == 0)
		return bl_val_num(&r->v[LAT_LATENCY_S], v);
	if (!bl_val_num(&r->v[LAT_LATENCY_US], &d))
		return false;
	*v = uexp == -6 ? d : uexp == -3 ? d / 1000 : d * 1000;
	return true;
}

static struct lseries *series(struct bl_latency *L, const struct bl_record *r, const char *name)
{
	const char *mid = msgid_of(r);
	const char *src = r->source ? r->source : "";
	const char *grp = r->group ? r->group : "";
	const char *key = series_key(L, r->run, name, grp, src, mid);
	long k = bl_strmap_find(&L->sidx, key);
	if (k >= 0)
		return &L->s[k];
	if (L->ns >= LAT_KEEP)
		return NULL;
	/* a group is added only with a series it gets: at most
	 * LAT_KEEP of them */
	bool gadded = false;
	size_t g = bl_strmap_get(&L->kgroups, grp, &gadded);
	L->kgn = bl_xgrow(L->kgn, &L->capkgn, g + 1, sizeof *L->kgn);
	if (gadded)
		L->kgn[g] = 0;
	if (L->kgn[g] >= LAT_KEEP_GROUP)
		return NULL;
	L->kgn[g]++;
	bool added = false;
	size_t i = bl_strmap_get(&L->sidx, key, &added);
	if (!added)
		return &L->s[i];
	L->s = bl_xgrow(L->s, &L->scap, L->ns + 1, sizeof *L->s);
	struct lseries *s = &L->s[L->ns++];
	memset(s, 0, sizeof *s);
	s->source = bl_xstrdup(src);
	s->msgid = bl_xstrdup(mid);
	s->thread = bl_mail_thread_key(r->msg);
	s->ref = r->msg ? bl_mail_ref(r->msg) : NULL;
	s->msg = r->msg ? r->msg->index : 0;
	s->group = bl_xstrdup(grp);
	s->name = bl_xstrdup(name);
	s->run = r->run;
	s->ovf_bound = NAN;
	s->hist_limit = NAN;
	s->period_s = NAN;
	s->first_line = r->line;
	L->labelled = false;
	return s;
}

static void set_unit(struct lseries *s, const char *unit)
{
	if (s->unit || !unit)
		return;
	s->unit = bl_xstrdup(unit);
	s->uexp = unit_exp10(unit);
}

static int lat_record(void *st, const struct bl_record *r)
{
	struct bl_latency *L = st;
	if (r->quoted && !L->o.include_quoted)
		return 0;
	if (r->table == &bl_table_time) {
		double real;
		if (!bl_val_num(&r->v[TIME_ELAPSED_S], &real))
			return 0;
		/* Keep only the time block a series points at (its
		 * latency_series record, with time_line, comes first: L4), so
		 * memory follows the series, not every time block of the input. */
		const char *src = r->source ? r->source : "", *mid = msgid_of(r);
		bool wanted = false;
		for (size_t i = L->ns; i > 0 && !wanted; i--) {
			const struct lseries *ls = &L->s[i - 1];
			wanted = ls->time_line == r->line && strcmp(ls->source, src) == 0 &&
				 strcmp(ls->msgid, mid) == 0;
		}
		if (!wanted)
			return 0;
		L->t = bl_xrealloc(L->t, (L->nt + 1) * sizeof *L->t);
		struct ltime *t = &L->t[L->nt++];
		t->source = bl_xstrdup(r->source ? r->source : "");
		t->msgid = bl_xstrdup(msgid_of(r));
		t->line = r->line;
		t->real = real;
		t->user = bl_val_nan(&r->v[TIME_USER_S]);
		t->sys = bl_val_nan(&r->v[TIME_SYS_S]);
		return 0;
	}
	if (r->table != &bl_table_latency && r->table != &bl_table_latency_series)
		return 0;
	const char *name = str_of(&r->v[r->table == &bl_table_latency ? LAT_SERIES : LS_SERIES]);
	if (!name)
		return 0;
	struct lseries *s = series(L, r, name);
	if (!s) {
		L->more_series += r->table == &bl_table_latency_series;
		return 0;
	}
	s->done = false;
	if (r->table == &bl_table_latency) {
		set_unit(s, str_of(&r->v[LAT_UNIT]));
		const char *kind = str_of(&r->v[LAT_KIND]);
		double v, c;
		if (!kind || !bl_val_num(&r->v[LAT_COUNT], &c))
			return 0;
		bool hv = native_value(r, s->uexp, &v);
		if (strcmp(kind, "overflow") == 0) {
			s->has_overflow = true;
			s->overflow += c;
			if (hv)
				s->ovf_bound = v;
			return 0;
		}
		if (!hv)
			return 0;
		s->bins = bl_xgrow(s->bins, &s->cap, s->nbins + 1, sizeof *s->bins);
		s->bins[s->nbins].value = v;
		s->bins[s->nbins].count = c;
		s->nbins++;
		return 0;
	}
	/* latency_series */
	set_unit(s, str_of(&r->v[LS_UNIT]));
	s->first_line = r->line;
	if (!s->tool && str_of(&r->v[LS_TOOL]))
		s->tool = bl_xstrdup(str_of(&r->v[LS_TOOL]));
	if (!s->command && str_of(&r->v[LS_COMMAND]))
		s->command = bl_xstrdup(str_of(&r->v[LS_COMMAND]));
	double d;
	if (bl_val_num(&r->v[LS_HIST_LIMIT_US], &d))
		s->hist_limit = s->uexp == -6 ? d : to_native(s, d * 1e-6);
	if (bl_val_num(&r->v[LS_TIME_LINE], &d))
		s->time_line = (unsigned long)d;
	if (bl_val_num(&r->v[LS_ROWS_ELIDED], &d))
		s->rows_elided = d;
	if (bl_val_num(&r->v[LS_PERIOD_S], &d) && d > 0 && str_of(&r->v[LS_PERIOD_FROM])) {
		s->period_s = d;
		s->period_line = bl_val_num(&r->v[LS_PERIOD_LINE], &d) ? (unsigned long)d : 0;
		free(s->period_from);
		s->period_from = bl_xstrdup(str_of(&r->v[LS_PERIOD_FROM]));
	}
	if (bl_val_num(&r->v[LS_STATUS_CYCLES], &s->st_cycles)) {
		s->has_status = true;
		s->st_min_us = bl_val_nan(&r->v[LS_STATUS_MIN_US]);
		s->st_avg_us = bl_val_nan(&r->v[LS_STATUS_AVG_US]);
		s->st_max_us = bl_val_nan(&r->v[LS_STATUS_MAX_US]);
		s->st_prio = bl_val_nan(&r->v[LS_PRIORITY]);
		s->st_interval = bl_val_nan(&r->v[LS_INTERVAL_US]);
	}
	double fmin = bl_val_nan(&r->v[LS_FOOTER_MIN_US]), favg = bl_val_nan(&r->v[LS_FOOTER_AVG_US]),
	       fmax = bl_val_nan(&r->v[LS_FOOTER_MAX_US]);
	if (!isnan(fmin) || !isnan(favg) || !isnan(fmax)) {
		s->has_footer = true;
		s->f_min_us = fmin;
		s->f_avg_us = favg;
		s->f_max_us = fmax;
	}
	return 0;
}

static bool lat_has_data(void *st)
{
	struct bl_latency *L = st;
	return L->ns > 0;
}

/* ---- labels and statistics --------------------------------------------- */

static void make_labels(struct bl_latency *L)
{
	if (L->labelled)
		return;
	/* how many series share a group and name, and a group, name and run:
	 * counted by hash (40,000 series are not compared pairwise) */
	struct bl_strmap gn = BL_STRMAP_INIT, gnr = BL_STRMAP_INIT;
	size_t *ngn = bl_xcalloc(L->ns + 1, sizeof *ngn), *ngnr = bl_xcalloc(L->ns + 1, sizeof *ngnr);
	size_t *kgn = bl_xcalloc(L->ns + 1, sizeof *kgn), *kgnr = bl_xcalloc(L->ns + 1, sizeof *kgnr);
	for (size_t i = 0; i < L->ns; i++) {
		const struct lseries *s = &L->s[i];
		ngn[kgn[i] = bl_strmap_get(&gn, series_key(L, 0, s->name, s->group, "", ""), NULL)]++;
		ngnr[kgnr[i] = bl_strmap_get(&gnr, series_key(L, s->run, s->name, s->group, "", ""), NULL)]++;
	}
	for (size_t i = 0; i < L->ns; i++) {
		struct lseries *s = &L->s[i];
		free(s->label);
		bool same_gn = ngn[kgn[i]] > 1, same_gnr = ngnr[kgnr[i]] > 1;
		if (same_gnr)
			s->label = bl_xasprintf("%s %s run %ld (%s:%lu)", s->group, s->name, s->run, s->source,
						s->first_line);
		else if (same_gn)
			s->label = bl_xasprintf("%s %s run %ld", s->group, s->name, s->run);
		else
			s->label = bl_xasprintf("%s %s", s->group, s->name);
	}
	free(ngn);
	free(ngnr);
	free(kgn);
	free(kgnr);
	bl_strmap_release(&gn);
	bl_strmap_release(&gnr);
	L->labelled = true;
}

static size_t series_late(const struct bl_latency *L, const struct lseries *s, double *out)
{
	static const double ms[3] = { 10e-3, 50e-3, 100e-3 }, us[3] = { 10e-6, 50e-6, 100e-6 };
	const double *src = L->nlate ? L->late : s->uexp <= -6 ? us : ms;
	size_t n = L->nlate ? L->nlate : 3;
	for (size_t k = 0; k < n; k++)
		out[k] = to_native(s, src[k]);
	return n;
}

static struct lseries *stats_of(struct bl_latency *L, size_t i)
{
	struct lseries *s = &L->s[i];
	if (!s->done) {
		double late[BL_LAT_MAX_LATE];
		size_t nl = series_late(L, s, late);
		/* D17: --target, else the stated period of a timer loop, else 0
		 * for cyclictest, else the median */
		bool ct = s->tool && strcmp(s->tool, "cyclictest") == 0;
		enum bl_lat_target from = isfinite(L->o.target_s) ? BL_TARGET_OPTION
					: ct ? BL_TARGET_ZERO
					: isfinite(s->period_s) ? BL_TARGET_PERIOD : BL_TARGET_MEDIAN;
		double target = from == BL_TARGET_OPTION ? to_native(s, L->o.target_s)
			      : from == BL_TARGET_ZERO ? 0
			      : from == BL_TARGET_PERIOD ? to_native(s, s->period_s) : NAN;
		/* overflow samples are more than the last bucket printed; with the
		 * -h limit N known, >= N */
		bool incl = isfinite(s->hist_limit);
		double bound = incl ? s->hist_limit : s->ovf_bound;
		s->rc = bl_latency_summarise(s->bins, s->nbins, s->overflow, bound, incl, target, late, nl,
					     &s->sum);
		s->sum.target_from = from;
		s->done = true;
	}
	return s;
}

const struct bl_latency_summary *bl_latency_stats(struct bl_latency *L, size_t i)
{
	if (!L || i >= L->ns || (L->s[i].nbins == 0 && L->s[i].overflow == 0))
		return NULL;
	struct lseries *s = stats_of(L, i);
	return s->rc == 0 ? &s->sum : NULL;
}

/* Series i may be compared: it has bins (not only overflow) and its
 * statistics (T6, D18 (c)). */
static bool usable(struct bl_latency *L, size_t i)
{
	return L->s[i].nbins && stats_of(L, i)->rc == 0;
}

static const struct ltime *time_of(const struct bl_latency *L, const struct lseries *s)
{
	if (!s->time_line)
		return NULL;
	for (size_t i = 0; i < L->nt; i++)
		if (L->t[i].line == s->time_line && strcmp(L->t[i].source, s->source) == 0 &&
		    strcmp(L->t[i].msgid, s->msgid) == 0)
			return &L->t[i];
	return NULL;
}

/* ---- writing ----------------------------------------------------------- */

static const char *unit_of(const struct lseries *s)
{
	return s->unit ? s->unit : "s";
}

/* A value as the text shows it, for a %s: fprintf(f, "%s", fnum(v).s).
 * C11: the temporary lives to the end of the full expression. */
struct txt {
	char s[64];
};

/* Six significant digits; whole numbers (counts) in full. */
static struct txt fnum(double v)
{
	struct txt t;
	if (!isfinite(v))
		snprintf(t.s, sizeof t.s, "-");
	else if (bl_whole(v))
		snprintf(t.s, sizeof t.s, "%.0f", v);
	else
		snprintf(t.s, sizeof t.s, "%.6g", v);
	return t;
}

/* A value with its lower-bound marker (T2): ">x" or ">=x". */
static struct txt fbound(const struct lseries *s, double v, bool lb)
{
	struct txt t;
	/* fnum()'s text is under 32 characters */
	snprintf(t.s, sizeof t.s, "%s%.32s", lb ? (s->sum.overflow_inclusive ? ">=" : ">") : "", fnum(v).s);
	return t;
}

/* Percentile k of m wherever a person reads it (the percentile and
 * lateness lines, the comparison table, the Findings): NaN when the
 * samples are too few for it (D3a: p99.9 needs 1,000). */
static double pct_shown(const struct bl_latency_summary *m, size_t k)
{
	return bl_pct_supported((unsigned long long)m->n, bl_lat_pcts[k]) ? m->pct[k] : NAN;
}

/* Percentile k as a person reads it: "-" when D3a hides it. */
static struct txt fpct(const struct lseries *s, size_t k)
{
	double v = pct_shown(&s->sum, k);
	return isnan(v) ? (struct txt){ "-" } : fbound(s, v, s->sum.pct_lb[k]);
}

/* Percentile k of m in a Findings line: "≥ x" in the overflow, "-" when
 * D3a hides it. */
static struct txt fpv(const struct bl_latency_summary *m, size_t k)
{
	struct txt t = { "-" };
	double v = pct_shown(m, k);
	if (!isnan(v))
		snprintf(t.s, sizeof t.s, "%s%.6g", m->pct_lb[k] ? "≥ " : "", v);
	return t;
}

/* Signed lateness in the series' unit. */
static struct txt flate(double v)
{
	struct txt t = { "-" };
	if (isfinite(v))
		snprintf(t.s, sizeof t.s, "%+.6g", v);
	return t;
}

static struct txt fshare(double c, double n)
{
	struct txt t;
	/* 3 significant digits, more where fewer than all would read 100 % */
	int prec = 3;
	if (n > 0) {
		do
			snprintf(t.s, sizeof t.s, "%.0f (%.*g%%)", c, prec, 100 * c / n);
		while (c < n && strstr(t.s, "(100%)") && ++prec < 17);
	} else
		snprintf(t.s, sizeof t.s, "%.0f", c);
	return t;
}

/* "target     0.2 s (the period stated: script sleep, line 124)" (D17). */
static void write_target(FILE *f, const struct lseries *s, bool md)
{
	const struct bl_latency_summary *m = &s->sum;
	const char *u = s->unit ? s->unit : "s";
	fprintf(f, "%s%s %s (", md ? "- target: " : "  target     ", fnum(m->target).s, u);
	switch (m->target_from) {
	case BL_TARGET_OPTION:
		fputs("--target", f);
		break;
	case BL_TARGET_PERIOD:
		fprintf(f, "the period the input states: %s, line %lu", s->period_from, s->period_line);
		break;
	case BL_TARGET_ZERO:
		fputs("cyclictest's values are already the time past each period", f);
		if (isfinite(s->period_s))
			fprintf(f, " of %s %s (%s, line %lu)", fnum(to_native(s, s->period_s)).s, u,
				s->period_from, s->period_line);
		break;
	case BL_TARGET_MEDIAN:
		fputs("the median: the input states no period", f);
		break;
	}
	fputs(")\n", f);
}

/* The cyclictest status line and histogram footer of series s, m its
 * statistics (NULL: none). */
static void write_cyclictest(FILE *f, const struct lseries *s, const struct bl_latency_summary *m,
			     const char *bul, bool have_bins)
{
	if (s->has_status) {
		fprintf(f, "%scyclictest status line: C %s, min %s us, avg %s us, max %s us", bul,
			fnum(s->st_cycles).s, fnum(s->st_min_us).s, fnum(s->st_avg_us).s, fnum(s->st_max_us).s);
		fprintf(f, " (priority %s, interval %s us)\n", fnum(s->st_prio).s, fnum(s->st_interval).s);
		if (!have_bins)
			fprintf(f, "%s(no histogram for this thread: no percentiles)\n", bul);
	}
	if (s->has_footer) {
		fprintf(f, "%scyclictest histogram footer: min %s us, avg %s us (integer), max %s us", bul,
			fnum(s->f_min_us).s, fnum(s->f_avg_us).s, fnum(s->f_max_us).s);
		if (m) {
			double sc = s->uexp == -6 ? 1 : pow10i(s->uexp + 6);
			fprintf(f, "; from the buckets: min %s, mean %s, max %s us", fnum(m->min * sc).s,
				fnum(m->mean * sc).s, fbound(s, m->max * sc, m->max_lower_bound).s);
		}
		fputc('\n', f);
	}
}

/* The shell `time` block after series s, and for a timing loop the
 * cross-check of n x mean (m: its statistics, NULL none) against its
 * real time. */
static void write_time_check(struct bl_latency *L, FILE *f, const struct lseries *s,
			     const struct bl_latency_summary *m, const char *bul)
{
	const struct ltime *t = time_of(L, s);
	if (t) {
		fprintf(f, "%sshell time real %s s, user %s s, sys %s s (line %lu)\n", bul, fnum(t->real).s,
			fnum(t->user).s, fnum(t->sys).s, t->line);
		bool loop = s->tool && strcmp(s->tool, "cyclictest") != 0;
		if (loop && m && m->n > 0) {
			double tot = m->n * (m->overflow > 0 ? m->mean_lb : m->mean) * pow10i(s->uexp);
			double diff = t->real - tot;
			fprintf(f, "%scross-check: n x mean = %s%s s from the histogram against real %s s: "
				"%s %s, %s per sample %s\n", bul, m->overflow > 0 ? ">= " : "", fnum(tot).s,
				fnum(t->real).s, bl_fmt_duration(fabs(diff)).s,
				diff >= 0 ? "more" : "less", bl_fmt_duration(fabs(diff) / m->n).s,
				diff >= 0 ? "outside the measured intervals (loop and start-up overhead)"
					  : "(the histogram adds up to more than the run took)");
		}
	}
}

static void write_series(struct bl_latency *L, FILE *f, enum bl_doc_format fmt, size_t i)
{
	struct lseries *s = &L->s[i];
	const struct bl_latency_summary *m = bl_latency_stats(L, i);
	const char *u = unit_of(s);
	bool md = fmt == BL_DOC_MD;
	const char *bul = md ? "- " : "  ";

	struct bl_esc_ring er = BL_ESC_RING_INIT;   /* input text: escape.h */
	if (md)
		fprintf(f, "#### %s\n\n", bl_esc_doc(&er, s->label, md));
	else
		fprintf(f, "%s  (%s, %s)\n", bl_esc_doc(&er, s->label, md), s->tool ? s->tool : "histogram", u);
	if (md)
		fprintf(f, "%sfrom %s line %lu (%s, unit %s)%s%s\n", bul, bl_esc_doc(&er, s->source, md),
			s->first_line, s->tool ? s->tool : "histogram", u, s->command ? ": " : "",
			s->command ? bl_esc_doc(&er, s->command, md) : "");
	else
		fprintf(f, "%sfrom %s:%lu%s%s\n", bul, bl_esc_doc(&er, s->source, md), s->first_line,
			s->command ? "  " : "", s->command ? bl_esc_doc(&er, s->command, md) : "");
	bl_esc_ring_release(&er);

	bool have_bins = s->nbins > 0 || s->overflow > 0;
	if (m) {
		if (md) {
			fprintf(f, "\n| n | mean | sd | min |");
			for (size_t k = 0; k < BL_LAT_NPCT; k++)
				fprintf(f, " %s |", pct_names[k]);
			fprintf(f, " max |\n|--:|--:|--:|--:|");
			for (size_t k = 0; k < BL_LAT_NPCT; k++)
				fprintf(f, "--:|");
			fprintf(f, "--:|\n| %s | %s | %s | %s |", fnum(m->n).s, fnum(m->mean).s, fnum(m->sd).s,
				fnum(m->min).s);
			for (size_t k = 0; k < BL_LAT_NPCT; k++)
				fprintf(f, " %s |", fpct(s, k).s);
			fprintf(f, " %s |\n\n", fbound(s, m->max, m->max_lower_bound).s);
			fprintf(f, "Values in %s.\n\n", u);
		} else {
			fprintf(f, "%ssamples    %s", bul, fnum(m->n).s);
			if (s->tool && strcmp(s->tool, "samples") != 0)
				fprintf(f, " in %zu non-empty buckets", s->nbins);
			fputc('\n', f);
			fprintf(f, "%smean       %s %s   sd %s %s   min %s %s   max %s %s\n", bul, fnum(m->mean).s, u,
				fnum(m->sd).s, u, fnum(m->min).s, u, fbound(s, m->max, m->max_lower_bound).s, u);
			fprintf(f, "%spercentile", bul);
			for (size_t k = 0; k < BL_LAT_NPCT; k++)
				fprintf(f, " %s %s%s", pct_names[k], fpct(s, k).s, k + 1 < BL_LAT_NPCT ? "  " : "");
			fprintf(f, "  (%s)\n", u);
		}
		if (s->has_overflow) {
			fprintf(f, "%s%s sample%s more than the last bucket (%s %s)", md ? "- overflow: " : "  overflow   ",
				fnum(m->overflow).s, m->overflow == 1 ? "" : "s", fnum(s->ovf_bound).s, u);
			if (isfinite(s->hist_limit))
				fprintf(f, ", i.e. >= %s %s (the -h limit)", fnum(s->hist_limit).s, u);
			if (m->overflow > 0)
				fprintf(f, "; the mean of all samples is >= %s %s", fnum(m->mean_lb).s, u);
			fputc('\n', f);
		}
		fprintf(f, "%s%s %s (%s samples)\n", md ? "- mode: " : "  mode       ", fnum(m->mode).s, u,
			fnum(m->mode_count).s);
		write_target(f, s, md);
		fprintf(f, "%smean %s %s", md ? "- lateness: " : "  lateness   ", flate(m->mean - m->target).s, u);
		if (s->uexp > -6 && isfinite(m->mean - m->target)) {
			/* the mean lateness of a timer loop in ms or us too: "+7.74 ms" */
			double v = (m->mean - m->target) * pow10i(s->uexp);
			fprintf(f, " (%s%s)", v < 0 ? "-" : "+", bl_fmt_duration(fabs(v)).s);
		}
		for (size_t k = 0; k < BL_LAT_NPCT; k++) {
			double late = pct_shown(m, k) - m->target;
			fprintf(f, ", %s %s%s", pct_names[k], m->pct_lb[k] && isfinite(late) ?
				(m->overflow_inclusive ? ">=" : ">") : "", flate(late).s);
		}
		fprintf(f, "; below target %s, at %s, above %s\n", fshare(m->early, m->n).s,
			fshare(m->on_target, m->n).s, fshare(m->late, m->n).s);
		for (size_t k = 0; k < m->nlate; k++) {
			fprintf(f, "%s%s target + %s: %s", bul, md || k == 0 ? "later than" : "          ",
				bl_fmt_duration(m->late_thr[k] * pow10i(s->uexp)).s, fshare(m->late_count[k], m->n).s);
			if (m->late_maybe[k] > 0)
				fprintf(f, " (and up to %s overflow sample%s)", fnum(m->late_maybe[k]).s,
					m->late_maybe[k] == 1 ? "" : "s");
			fputc('\n', f);
		}
	} else if (have_bins) {
		fprintf(f, "%sstatistics not available: %s\n", bul, bl_strerror(s->rc));
	}
	if (have_bins && s->rows_elided > 0) {
		fprintf(f, "%s%s gap%s in the histogram rows (rows elided by the author): the statistics "
			"above are from the rows shown, bounds and not exact\n",
			md ? "- bounds: " : "  bounds     ", fnum(s->rows_elided).s, s->rows_elided == 1 ? "" : "s");
	}
	write_cyclictest(f, s, m, bul, have_bins);
	write_time_check(L, f, s, m, bul);
	fputc('\n', f);
}

static size_t baseline_for(struct bl_latency *L, const char *unit, bool *named)
{
	*named = false;
	if (L->o.baseline)
		for (size_t i = 0; i < L->ns; i++)
			if (strcmp(L->s[i].group, L->o.baseline) == 0 && strcmp(unit_of(&L->s[i]), unit) == 0 &&
			    L->s[i].nbins) {
				*named = true;
				return i;
			}
	for (size_t i = 0; i < L->ns; i++)
		if (strcmp(unit_of(&L->s[i]), unit) == 0 && L->s[i].nbins)
			return i;
	return (size_t)-1;
}

/* Bins for the rank tests (T6): a copy, with the overflow as a bin at the
 * -h limit when use_limit (then *ovf = 0). The caller frees *out. */
static void test_bins(const struct lseries *s, bool use_limit, struct bl_bin **out, size_t *n, double *ovf)
{
	*n = s->nbins;
	*out = bl_xmalloc((s->nbins + 1) * sizeof **out);
	if (s->nbins)
		memcpy(*out, s->bins, s->nbins * sizeof **out);
	*ovf = s->overflow;
	if (use_limit && s->overflow > 0) {
		(*out)[(*n)++] = (struct bl_bin){ s->hist_limit, s->overflow };
		*ovf = 0;
	}
}

/* D8 (Mann-Whitney) and D9 (Kolmogorov-Smirnov) of series ci against bi
 * on their bins (T6: with one -h limit N for both, overflow samples (>= N)
 * are one tie group above every bucket of either, a bin at N; else D8's
 * own rule, the overflow above the other's bins); p NaN when not run. */
static const struct ranks *rank_tests(struct bl_latency *L, size_t bi, size_t ci)
{
	const struct lseries *b = &L->s[bi];
	struct lseries *c = &L->s[ci];
	struct ranks *r = &c->ranks;
	if (c->ranked_with == bi + 1)
		return r;
	bool lim = isfinite(b->hist_limit) && b->hist_limit == c->hist_limit;
	struct bl_bin *bb, *cb;
	size_t nbb, ncb;
	double ob, oc;
	test_bins(b, lim, &bb, &nbb, &ob);
	test_bins(c, lim, &cb, &ncb, &oc);
	memset(r, 0, sizeof *r);
	r->ut.p = r->ks.p = NAN;
	r->ru = bl_mannwhitney_bins(bb, nbb, ob, cb, ncb, oc, &r->ut);
	r->rk = bl_ks2_bins(bb, nbb, ob, cb, ncb, oc, &r->ks);
	free(bb);
	free(cb);
	c->ranked_with = bi + 1;
	return r;
}

/* "p = 0.0123", or "p < 1e-300" when it underflowed */
static struct txt fp(double p)
{
	struct txt t = { "p undefined" };
	if (p == 0)
		snprintf(t.s, sizeof t.s, "p < 1e-300");
	else if (isfinite(p))
		snprintf(t.s, sizeof t.s, "p = %.3g", p);
	return t;
}

static void write_comparisons(struct bl_latency *L, FILE *f, enum bl_doc_format fmt)
{
	bool md = fmt == BL_DOC_MD;
	struct bl_esc_ring er = BL_ESC_RING_INIT;   /* input text: escape.h */
	/* one comparison per unit that has two or more series with bins (the
	 * units found by hash: a unit's first series is the one that adds it) */
	struct bl_strmap units = BL_STRMAP_INIT;
	for (size_t u0 = 0; u0 < L->ns; u0++) {
		const char *unit = unit_of(&L->s[u0]);
		bool first_of_unit = false;
		bl_strmap_get(&units, unit, &first_of_unit);
		if (!first_of_unit)
			continue;
		size_t nb = 0;
		for (size_t j = 0; j < L->ns; j++)
			if (strcmp(unit_of(&L->s[j]), unit) == 0 && usable(L, j))
				nb++;
		if (nb < 2)
			continue;
		bool named;
		size_t base = baseline_for(L, unit, &named);
		if (base == (size_t)-1)
			continue;
		struct lseries *B = stats_of(L, base);
		int w = 6;
		for (size_t j = 0; j < L->ns; j++)
			if (strcmp(unit_of(&L->s[j]), unit) == 0 && (int)strlen(L->s[j].label) + 11 > w)
				w = (int)strlen(L->s[j].label) + 11;
		if (L->o.baseline && !named)
			fprintf(f, "%sNo %s series in group \"%s\"; the baseline is the first one.\n\n",
				md ? "> " : "note: ", unit, bl_esc_doc(&er, L->o.baseline, md));
		if (md) {
			fprintf(f, "#### Comparison (%s): baseline %s\n\n| series | n | mean |", unit,
				bl_esc_doc(&er, B->label, md));
			for (size_t k = 0; k < BL_LAT_NPCT; k++)
				fprintf(f, " %s |", pct_names[k]);
			fprintf(f, " max |\n|---|--:|--:|");
			for (size_t k = 0; k < BL_LAT_NPCT; k++)
				fprintf(f, "--:|");
			fprintf(f, "--:|\n");
		} else {
			fprintf(f, "Comparison (%s), baseline %s:\n  %-*s %10s %10s", unit,
				bl_esc_doc(&er, B->label, md), w, "series", "n", "mean");
			for (size_t k = 0; k < BL_LAT_NPCT; k++)
				fprintf(f, " %9s", pct_names[k]);
			fprintf(f, " %9s\n", "max");
		}
		/* baseline first, then the others in input order; in report.md
		 * the first BL_MD_SHOWN rows and tests (analysis.h) */
		size_t rows = 0, hidden = 0;
		for (size_t pass = 0; pass < 2; pass++)
			for (size_t j = 0; j < L->ns; j++) {
				struct lseries *s = &L->s[j];
				if ((pass == 0) != (j == base) || strcmp(unit_of(s), unit) || !usable(L, j))
					continue;
				if (md && rows++ >= BL_MD_SHOWN) {
					hidden++;
					continue;
				}
				char *lab = bl_xasprintf("%s%s", bl_esc_doc(&er, s->label, md),
							 j == base ? " (baseline)" : "");
				if (md)
					fprintf(f, "| %s | %s | %s |", lab, fnum(s->sum.n).s, fnum(s->sum.mean).s);
				else
					fprintf(f, "  %-*s %10s %10s", w, lab, fnum(s->sum.n).s, fnum(s->sum.mean).s);
				free(lab);
				for (size_t k = 0; k < BL_LAT_NPCT; k++)
					fprintf(f, md ? " %s |" : " %9s", fpct(s, k).s);
				fprintf(f, md ? " %s |\n" : " %9s\n", fbound(s, s->sum.max, s->sum.max_lower_bound).s);
			}
		fputc('\n', f);
		if (hidden)
			fprintf(f, "The first %d series of %zu are shown (%zu not shown), with the tests of the "
				   "first %d against the baseline below; `benchlog summary` prints every one.\n\n",
				BL_MD_SHOWN, rows, hidden, BL_MD_SHOWN - 1);
		size_t tests = 0;
		for (size_t j = 0; j < L->ns; j++) {
			struct lseries *s = &L->s[j];
			if (j == base || strcmp(unit_of(s), unit) || !usable(L, j))
				continue;
			if (md && ++tests >= BL_MD_SHOWN)
				break;
			const struct ranks *rt = rank_tests(L, base, j);
			fprintf(f, "%s%s vs %s: ", md ? "- " : "  ", bl_esc_doc(&er, s->label, md),
				bl_esc_doc(&er, B->label, md));
			if (rt->ru == 0 && rt->ut.ok) {
				fprintf(f, "Mann-Whitney U = %s, z = %s, %s (two-sided); P(%s > %s) + P(=)/2 = %.3g",
					fnum(rt->ut.u).s, fnum(rt->ut.z).s, fp(rt->ut.p).s,
					bl_esc_doc(&er, s->name, md), bl_esc_doc(&er, B->name, md),
					rt->ut.prob_superiority);
			} else {
				fprintf(f, "Mann-Whitney U not available (%s)",
					rt->ru ? (rt->ru == -BL_EFORMAT ? "an overflow overlaps the other series' buckets"
								: bl_strerror(rt->ru))
					   : rt->ut.note ? rt->ut.note : "undefined");
			}
			if (rt->rk == 0 && rt->ks.ok)
				fprintf(f, "; Kolmogorov-Smirnov D = %s, %s", fnum(rt->ks.d).s, fp(rt->ks.p).s);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	bl_esc_ring_release(&er);
	bl_strmap_release(&units);
}

static int lat_write(void *st, FILE *f, enum bl_doc_format fmt, const struct bl_chart *charts, size_t nch)
{
	struct bl_latency *L = st;
	make_labels(L);
	if (fmt == BL_DOC_MD)
		fprintf(f, "Statistics from the histogram bins without expanding them: percentiles are "
			   "Hyndman-Fan type 7 (linear interpolation) on the samples the buckets stand for; "
			   "overflow samples count as more than the last bucket, and a percentile that falls "
			   "among them is a lower bound, and one is shown only from n min(p, 100 - p) / 100 >= 1 "
			   "samples (p99.9: 1,000; D3a). Lateness is value minus target; \"later than target + "
			   "d\" means value - target > d.\n\n");
	else
		fprintf(f, "Percentiles: Hyndman-Fan type 7 on the samples the buckets stand for, from the bins "
			   "(docs/statistics.md D3, D4);\noverflow = more than the last bucket (percentiles there "
			   "are lower bounds); \"-\": too few samples for that percentile (p99.9 needs 1,000, D3a).\n"
			   "Lateness = value - target.\n\n");
	/* report.md: the first BL_MD_SHOWN series (analysis.h), then how
	 * many are not shown and where they are */
	size_t shown = fmt == BL_DOC_MD && L->ns > BL_MD_SHOWN ? BL_MD_SHOWN : L->ns;
	for (size_t i = 0; i < shown; i++)
		write_series(L, f, fmt, i);
	size_t all = L->ns + L->more_series;
	if (shown < all)
		fprintf(f, "The first %zu series of %zu are shown (%zu not shown); every bucket of all of them "
			   "is in %s and every series' figures in %s%s.%s\n\n",
			shown, all, all - shown,
			fmt == BL_DOC_MD ? "[csv/latency.csv](csv/latency.csv)" : "the latency table",
			fmt == BL_DOC_MD ? "[csv/latency_series.csv](csv/latency_series.csv)" : "the latency_series table",
			L->more_series ? "" : ", and `benchlog summary` on the same inputs prints every series' statistics",
			L->more_series ? " The comparisons and the Findings take the series held only: the first "
					 "4096, at most 1024 of a group." : "");
	write_comparisons(L, f, fmt);
	if (fmt == BL_DOC_MD)
		bl_charts_md(f, charts, nch);
	return ferror(f) ? -BL_EIO : 0;
}

/* ---- charts ------------------------------------------------------------ */

#define MAX_CHART_SERIES 16

static void chart_unit(struct bl_latency *L, const char *unit, bool only_unit,
		       struct bl_chart_spec **specs, size_t *nspecs)
{
	struct bl_latency_series *ser = bl_xcalloc(MAX_CHART_SERIES, sizeof *ser);
	size_t idx[MAX_CHART_SERIES];
	size_t ns = 0, skipped = 0;
	for (size_t i = 0; i < L->ns; i++) {
		struct lseries *s = &L->s[i];
		if (strcmp(unit_of(s), unit) || (!s->nbins && !s->overflow))
			continue;
		if (ns == MAX_CHART_SERIES) {
			skipped++;
			continue;
		}
		stats_of(L, i);
		ser[ns].name = s->label;
		ser[ns].bins = s->bins;
		ser[ns].nbins = s->nbins;
		ser[ns].overflow = (unsigned long long)s->overflow;
		ser[ns].unit = unit;
		idx[ns] = i;
		ns++;
	}
	if (ns == 0) {
		free(ser);
		return;
	}
	/* marks: one target when all series share it, with the thresholds;
	 * else each distinct target alone */
	struct bl_plot_mark *marks = bl_xcalloc(16, sizeof *marks);
	char *labels[16];
	size_t nm = 0;
	/* thresholds beyond every value are not drawn: they would only
	 * squeeze the data (the text gives their count, 0) */
	double xmax = -INFINITY;
	for (size_t k = 0; k < ns; k++) {
		const struct lseries *s = &L->s[idx[k]];
		for (size_t b = 0; b < s->nbins; b++)
			xmax = fmax(xmax, s->bins[b].value);
		if (s->overflow > 0 && isfinite(s->sum.overflow_bound))
			xmax = fmax(xmax, s->sum.overflow_bound);
	}
	bool same = true;
	const struct bl_latency_summary *m0 = &L->s[idx[0]].sum;
	for (size_t k = 1; k < ns; k++)
		if (!(L->s[idx[k]].sum.target == m0->target))
			same = false;
	if (same && isfinite(m0->target)) {
		labels[nm] = NULL;
		marks[nm++] = (struct bl_plot_mark){ m0->target, NULL, BL_MARK_TARGET };
	} else {
		for (size_t k = 0; k < ns && nm < 8; k++) {
			const struct lseries *s = &L->s[idx[k]];
			if (!isfinite(s->sum.target))
				continue;
			bool dup = false;
			for (size_t j = 0; j < nm; j++)
				if (marks[j].value == s->sum.target)
					dup = true;
			if (dup)
				continue;
			labels[nm] = bl_xasprintf("target %s %s (%s)", fnum(s->sum.target).s, unit, s->name);
			marks[nm] = (struct bl_plot_mark){ s->sum.target, labels[nm], BL_MARK_TARGET };
			nm++;
		}
	}
	/* the thresholds of the first series, named after it when the
	 * targets differ */
	const struct lseries *s0 = &L->s[idx[0]];
	for (size_t k = 0; k < m0->nlate && nm < 16 && isfinite(m0->target); k++) {
		if (m0->target + m0->late_thr[k] > xmax)
			continue;
		labels[nm] = bl_xasprintf("%s%starget + %s", same ? "" : s0->name, same ? "" : " ",
					  bl_fmt_duration(m0->late_thr[k] * pow10i(s0->uexp)).s);
		marks[nm] = (struct bl_plot_mark){ m0->target + m0->late_thr[k], labels[nm], BL_MARK_THRESHOLD };
		nm++;
	}
	char *base = only_unit ? bl_xstrdup("latency") : bl_xasprintf("latency-%s", unit);
	char *title = bl_xasprintf("Latency (%s): %zu series%s", unit, ns + skipped,
				   skipped ? ", first 16 drawn" : "");
	char *caption = bl_xasprintf("latency histogram (log counts), CDF and tail, %s", unit);
	struct bl_chart_spec *sp = bl_chart_spec_add(specs, nspecs, BL_CHART_LATENCY, base, title, caption);
	free(base);
	free(title);
	free(caption);
	sp->in.latency = (struct bl_latency_plot){ ser, ns, marks, nm };
	bl_chart_spec_own(sp, ser);
	bl_chart_spec_own(sp, marks);
	for (size_t k = 0; k < nm; k++)
		if (labels[k])
			bl_chart_spec_own(sp, labels[k]);
}

static int lat_charts(void *st, struct bl_chart_spec **specs, size_t *nspecs)
{
	struct bl_latency *L = st;
	make_labels(L);
	/* the units in order of their first series, found by hash (10^5
	 * series are not compared pairwise) */
	struct bl_strmap units = BL_STRMAP_INIT;
	size_t *first = bl_xmalloc((L->ns + 1) * sizeof *first);
	for (size_t i = 0; i < L->ns; i++) {
		bool added = false;
		size_t u = bl_strmap_get(&units, unit_of(&L->s[i]), &added);
		if (added)
			first[u] = i;
	}
	/* the unit string the charts keep is the state's, not the map's */
	for (size_t u = 0; u < units.n; u++)
		chart_unit(L, unit_of(&L->s[first[u]]), units.n == 1, specs, nspecs);
	free(first);
	bl_strmap_release(&units);
	return 0;
}

static void lat_destroy(void *st)
{
	struct bl_latency *L = st;
	for (size_t i = 0; i < L->ns; i++) {
		struct lseries *s = &L->s[i];
		free(s->source);
		free(s->msgid);
		free(s->group);
		free(s->name);
		free(s->tool);
		free(s->unit);
		free(s->command);
		free(s->period_from);
		free(s->thread);
		free(s->ref);
		free(s->bins);
		free(s->label);
	}
	free(L->s);
	bl_strmap_release(&L->sidx);
	bl_buf_release(&L->key);
	for (size_t i = 0; i < L->nt; i++) {
		free(L->t[i].source);
		free(L->t[i].msgid);
	}
	free(L->t);
	free(L->kgn);
	bl_strmap_release(&L->kgroups);
	free(L);
}

/* ---- D18 (c): comparisons for the report's Findings --------------------- */

static struct bl_cmp_row *lat_row(struct bl_cmp_rows *rows, const struct bl_findings_opts *o,
				   const struct lseries *b, const struct lseries *c, const char *col,
				   char *block, double vb, double vc, const char *test)
{
	struct bl_cmp_row *w = bl_cmp_rows_add(rows, "latency", col, b->group, c->group, b->source);
	if (!o->compare_all && !o->co->baseline)
		bl_cmp_row_thread(w, b->thread, b->ref);
	w->block = block;
	w->better = -1;   /* lower latency is better */
	w->band = bl_band_for(o->co, col);
	w->n_base = (unsigned long long)b->sum.n;
	w->n_cand = (unsigned long long)c->sum.n;
	w->mean_base = vb;   /* the statistic compared, each side's */
	w->mean_cand = vc;
	w->test = test;
	return w;
}

/* D19: bootstrap variance of percentile k of s (its bins and overflow, as
 * the rank tests see them, T6); the seed fixed per series and percentile
 * so that every run gives the same numbers. */
static double boot_var(const struct lseries *s, size_t k)
{
	return bl_bins_percentile_boot_var(s->bins, s->nbins, s->overflow, bl_lat_pcts[k], BL_BOOT_REPS,
					   1000003UL * (k + 1) + (unsigned long)s->nbins);
}

/* Candidate series c against baseline b (the same thread of the baseline
 * group, same unit), D18 (c): the mean (D6 on the bins' moments), p50
 * (Mann-Whitney, D8), p99 (D19: its bootstrap interval and test), the
 * whole distribution (Kolmogorov-Smirnov, D9) and the share later than
 * target + the first threshold (D19 with the binomial variance). Each
 * row's values are the statistic it compares, each side's. */
static void lat_pair(struct bl_latency *L, size_t bi, size_t ci, const struct bl_findings_opts *o,
		     struct bl_cmp_rows *rows)
{
	struct lseries *b = stats_of(L, bi), *c = stats_of(L, ci);
	const struct ranks *rt = rank_tests(L, bi, ci);
	const struct bl_latency_summary *mb = &b->sum, *mc = &c->sum;
	double conf = o->co->confidence;
	bool nonneg = mb->min >= 0 && mc->min >= 0;
	struct bl_cmp_row *w = lat_row(rows, o, b, c, "mean", bl_xasprintf("%s, %.6g → %.6g %s", c->name,
				       mb->mean, mc->mean, unit_of(c)), mb->mean, mc->mean, "welch");
	if (mb->overflow > 0 || mc->overflow > 0) {
		bl_compare_rank(mb->mean, mc->mean, NAN, false, "the overflow's values are unknown: the mean "
				"is a lower bound", &w->r);
		w->test = NULL;
	} else {
		struct bl_moments xb = { mb->n, mb->n, mb->mean, mb->sd, mb->min };
		struct bl_moments xc = { mc->n, mc->n, mc->mean, mc->sd, mc->min };
		bl_compare_moments(&xb, &xc, conf, &w->r);
	}
	double p50b = mb->pct_lb[0] ? NAN : pct_shown(mb, 0), p50c = mc->pct_lb[0] ? NAN : pct_shown(mc, 0);
	w = lat_row(rows, o, b, c, "p50", bl_xasprintf("%s, %s → %s %s, Mann-Whitney", c->name, fpv(mb, 0).s,
		    fpv(mc, 0).s, unit_of(c)), p50b, p50c, "mann-whitney");
	bl_compare_rank(p50b, p50c, rt->ut.p, rt->ru == 0 && rt->ut.ok,
			rt->ru == 0 ? rt->ut.note : "the overflow's order is unknown", &w->r);
	/* each side's p99 is shown, a bound when it lies in the overflow
	 * (then not tested); none when a side has too few samples for it
	 * (D3a: compare says so, the Findings leave the row out, F4) */
	double p99b = pct_shown(mb, 2), p99c = pct_shown(mc, 2);
	bool bound = mb->pct_lb[2] || mc->pct_lb[2], few = isnan(p99b) || isnan(p99c);
	w = lat_row(rows, o, b, c, "p99", bl_xasprintf("%s, %s → %s %s, bootstrap", c->name, fpv(mb, 2).s,
		    fpv(mc, 2).s, unit_of(c)), p99b, p99c, "bootstrap");
	double vb = bound || few ? NAN : boot_var(b, 2), vc = bound || few ? NAN : boot_var(c, 2);
	bl_compare_estimates(p99b, vb, p99c, vc, nonneg, conf,
			     bound ? "a p99 in the overflow is only a bound: not tested"
			     : isinf(vb) || isinf(vc) ? "a resample's p99 falls in the overflow: no interval" : NULL,
			     &w->r);
	if (few)
		w->r.note = "p99 needs 100 samples a side (D3a)";
	if (!w->r.tested)
		w->test = NULL;
	w = lat_row(rows, o, b, c, "distribution",
		    bl_xasprintf("%s, Kolmogorov-Smirnov: the whole distribution; change of the mean", c->name),
		    mb->mean, mc->mean, "kolmogorov-smirnov");
	bl_compare_rank(mb->mean, mc->mean, rt->ks.p, rt->rk == 0 && rt->ks.ok,
			rt->rk == 0 ? rt->ks.note : "the overflow's order is unknown", &w->r);
	if (mb->nlate && mc->nlate && mb->n > 0 && mc->n > 0) {
		double fb = 100 * mb->late_count[0] / mb->n, fc = 100 * mc->late_count[0] / mc->n;
		w = lat_row(rows, o, b, c, "share late", bl_xasprintf("%s, later than target + %s, in %%", c->name,
			    bl_fmt_duration(mb->late_thr[0] * pow10i(b->uexp)).s), fb, fc, "binomial");
		/* D19 with the binomial variance of a share, in %^2 */
		bl_compare_estimates(fb, fb * (100 - fb) / mb->n, fc, fc * (100 - fc) / mc->n, true, conf,
				     NULL, &w->r);
	}
}

/* The series of group g in block k of blk[] named as s, or the group's
 * only series there; ns when none (the same thread of the baseline). */
static size_t same_thread(const struct bl_latency *L, const size_t *blk, size_t k, const char *group,
			  const struct lseries *s, bool (*ok)(struct bl_latency *, size_t))
{
	size_t only = L->ns, nof = 0;
	for (size_t i = 0; i < L->ns; i++) {
		if (blk[i] != k || strcmp(L->s[i].group, group) != 0 || !ok((struct bl_latency *)L, i))
			continue;
		if (strcmp(L->s[i].name, s->name) == 0)
			return i;
		only = i;
		nof++;
	}
	return nof == 1 ? only : L->ns;
}

/* analysis.h findings(): per block (bl_cmp_units; all one with
 * compare_all or a named baseline) and unit, the group of the first
 * series with bins (co->baseline's group when named) is the baseline;
 * every series of another group is compared with the same thread of the
 * baseline group (the series of that name, or its only series; none:
 * not compared), lat_pair. */
static void lat_findings(void *st, const struct bl_findings_opts *o, struct bl_cmp_rows *rows)
{
	struct bl_latency *L = st;
	size_t *base = bl_xmalloc((L->ns + 1) * sizeof *base), *blk = bl_xmalloc((L->ns + 1) * sizeof *blk);
	struct bl_cmp_unit *u = bl_xcalloc(L->ns + 1, sizeof *u);
	bool all = o->compare_all || o->co->baseline;
	for (size_t i = 0; i <= L->ns; i++)
		base[i] = L->ns;
	for (size_t i = 0; i < L->ns; i++)
		u[i] = (struct bl_cmp_unit){ bl_xasprintf("%s\x1f%s\x1f%s", unit_of(&L->s[i]),
							  all ? "" : L->s[i].source, all ? "" : L->s[i].thread),
					     L->s[i].group, all ? 0 : L->s[i].msg };
	bl_cmp_units(u, L->ns, blk);
	for (size_t i = 0; i < L->ns; i++) {
		struct lseries *s = &L->s[i];
		free((char *)u[i].block);
		if (base[blk[i]] == L->ns && usable(L, i) &&
		    (!o->co->baseline || strcmp(s->group, o->co->baseline) == 0))
			base[blk[i]] = i;
	}
	for (size_t j = 0; j < L->ns; j++) {
		size_t b = base[blk[j]];
		if (b == L->ns || !usable(L, j) || strcmp(L->s[j].group, L->s[b].group) == 0)
			continue;
		size_t t = same_thread(L, blk, blk[j], L->s[b].group, &L->s[j], usable);
		if (t < L->ns)
			lat_pair(L, t, j, o, rows);
	}
	free(base);
	free(blk);
	free(u);
}

const struct bl_analysis bl_analysis_latency = {
	.name = "latency",
	.title = "Latency distributions",
	.create = lat_create,
	.record = lat_record,
	.has_data = lat_has_data,
	.write = lat_write,
	.charts = lat_charts,
	.findings = lat_findings,
	.destroy = lat_destroy,
};
