/* table_stats.c — T1-T6 of analyze/table_stats.h. */
#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "analyze/table_stats.h"
#include "core/store.h"
#include "parsers/pass.h"
#include "input/mail.h"
#include "input/reader.h"
#include "core/strmap.h"
#include "core/escape.h"
#include "core/util.h"
#include "parsers/parser.h"

enum origin { FROM_LOG, FROM_CSV, FROM_PARTIAL };

struct ts_cell {
	struct bl_dist *d;      /* logs and CSV */
	struct bl_partial *p;   /* merged partials */
};

struct ts_col {
	char *name;
	bool wanted;            /* collected */
	bool hidden;            /* collected, not listed (R2 runs column) */
	bool requested;         /* named with -c */
	unsigned long long nnum, ntext;
	char *first_text;       /* first text value and where it was */
	char *first_where;
	unsigned warned;
	int logi;               /* log tables: 0..7 provenance, 8.. the schema's column; -1 none */
};

/* A group held in memory: one way of the table's cache (T4a). */
struct ts_group {
	char **key;             /* ng values; NULL: the way is free */
	uint64_t h;             /* bl_hash64 of the values as join_key() joins them */
	struct ts_cell *cell;   /* ncell, indexed like the table's columns */
	size_t ncell;
	size_t ord;             /* its place in the order of first appearance */
	/* T4a: changed since last put out (its place in the spill file is
	 * in t->spots, by ord) */
	bool dirty;
	unsigned long long used;   /* when last used: a set's least recent goes */
};

struct ts_table {
	char *name;
	const struct bl_table_def *def;   /* log tables */
	enum origin origin;
	bool benchlog_csv;      /* a CSV whose header starts with the provenance columns */
	struct ts_col *col;
	size_t ncol, colcap;
	bool own;               /* bl_tstats_opts.own: log records' values not kept */
	size_t *budget;         /* the collector's exact values left (T4) */
	struct bl_strmap colmap; /* column name -> index (a CSV may have 100,000) */
	char **gname;           /* group columns */
	long *gidx;             /* their column index; -1 = not in this table */
	size_t ng;
	bool skip;              /* a group column is missing: left out */
	size_t ngrp;            /* groups seen */
	struct ts_group *way;   /* T4a: TS_HELD held groups, TS_WAYS a set */
	unsigned short *wayof;  /* until indexed: group ord's way, not a scan
				   of the 4,096 ways per group and per input
				   (report -j2, 10,000 files: 6.0 s to 4.3 s) */
	struct ts_group *last;  /* the last group used */
	unsigned long long clock;
	bool indexed;           /* a group has left memory: wayof no longer holds */
	struct bl_index keys;   /* T4a: every group's key, numbered by ord */
	struct bl_store spots;  /* T4a: per ord, a struct spot (zeros: never put out) */
	size_t *order;          /* listed columns (T3), after finish */
	size_t norder;
	int sb_logi;            /* log tables: logi of `since_boot` (T1), -1 none */
	/* by_source: the unit of the mail message read (F1 of
	 * report/findings.h): UNIT_HOLD while it shows one group (its
	 * value ugroup), for message ugen */
	int unit;
	unsigned long ugen;
	char *ugroup;
};

enum { UNIT_HOLD, UNIT_THREAD, UNIT_MESSAGE };

/* by_source: a record held until its message's unit is known: its group
 * values (the message_id one, k = mk, set when put) and the values of
 * its wanted columns (T3), text in s, else the number x. */
struct held_val {
	size_t c;
	double x;
	char *s;
};
struct held {
	struct ts_table *t;
	size_t mk;
	unsigned long line;
	char **g;
	struct held_val *v;
	size_t nv;
};
/* Bounds of the records held, so that memory stays bounded (T4a): past
 * either, the tables held go to the thread, on what has been seen (one
 * group each). */
#define TS_HOLD_MAX 4096
#define TS_HOLD_BYTES ((size_t)1 << 20)

struct bl_tstats {
	const struct bl_tstats_opts *o;
	struct bl_ctx *ctx;
	struct ts_table **tab;
	size_t ntab;
	bool finished;
	struct bl_buf key;
	unsigned long quoted_out;              /* records left out as quoted (T1) */
	unsigned long since_boot_out;          /* vmstat since-boot rows left out (T1) */
	unsigned long failed_out;              /* failed runs left out (T1, D3c) */
	char (*gbuf)[40];       /* group values of a log record as text */
	const char **gval;
	size_t ngbuf;
	char *thr_subject, *thr_key;   /* by_source: the last message's thread */
	/* by_source: the mail message read (its source and index, and a
	 * number per message), its reference ("Message-ID, YYYY-MM-DD"),
	 * its unit key as its own (the thread key, "\x1f", its index,
	 * "\x1f", the reference), whether its thread's first message is
	 * numbered, and its records held */
	char *msg_src, *msg_ref, *unit_key;
	unsigned long msg_idx, msg_gen;
	bool thr_seen;
	struct held *held;
	size_t nheld, heldcap, held_bytes;
	size_t budget;          /* values its cells may still keep exactly (T4) */
	/* by_source: thread keys, numbered in order; thr_at[i], thread i's
	 * first message's reference (offset, length) in thr_text; at most
	 * 4 * BL_STORE_MEM in memory whatever the number of threads (issue
	 * 34); thr_got holds those bl_tstats_thread_ref() returned */
	struct bl_index threads;
	struct bl_store thr_at, thr_text;
	size_t thr_len;
	struct bl_strmap thr_got;
	bool quiet;                    /* finish() prints no notes (bl_tstats_quiet) */
	struct bl_spool spill;  /* T4a: cells of groups not held; failed: no more put out */
	int read_err;           /* errno of a failure: results incomplete */
};

/* ---- tables, columns, groups -------------------------------------------- */

static void held_free(struct held *h, size_t ng)
{
	for (size_t k = 0; k < ng; k++)
		free(h->g[k]);
	for (size_t i = 0; i < h->nv; i++)
		free(h->v[i].s);
	free(h->g);
	free(h->v);
}

struct bl_tstats *bl_tstats_new(const struct bl_tstats_opts *opts, struct bl_ctx *ctx)
{
	struct bl_tstats *ts = bl_xcalloc(1, sizeof *ts);
	ts->o = opts;
	ts->ctx = ctx;
	ts->key = (struct bl_buf)BL_BUF_INIT(4 * BL_LINE_MAX);
	ts->budget = BL_DIST_BUDGET;
	return ts;
}

static void way_clear(struct ts_table *t, struct ts_group *g);
#define TS_HELD 4096

static void groups_free(struct ts_table *t)
{
	for (size_t i = 0; t->way && i < (t->indexed ? TS_HELD : t->ngrp); i++)
		way_clear(t, &t->way[t->indexed ? i : t->wayof[i]]);
	t->ngrp = 0;
	t->last = NULL;
	t->indexed = false;
	bl_index_release(&t->keys);
	bl_store_release(&t->spots);
}

void bl_tstats_drop_groups(struct bl_tstats *ts)
{
	for (size_t i = 0; i < ts->ntab; i++)
		groups_free(ts->tab[i]);
	bl_spool_release(&ts->spill);   /* T4a: the cells put out went with their groups */
	ts->finished = false;   /* the next look finishes the tables again */
}

void bl_tstats_quiet(struct bl_tstats *ts, bool quiet)
{
	ts->quiet = quiet;
}

static void table_free(struct ts_table *t)
{
	groups_free(t);
	for (size_t c = 0; c < t->ncol; c++) {
		free(t->col[c].name);
		free(t->col[c].first_text);
		free(t->col[c].first_where);
	}
	for (size_t k = 0; k < t->ng; k++)
		free(t->gname[k]);
	free(t->gname);
	free(t->gidx);
	free(t->col);
	bl_strmap_release(&t->colmap);
	free(t->way);
	free(t->wayof);
	free(t->order);
	free(t->ugroup);
	free(t->name);
	free(t);
}

void bl_tstats_free(struct bl_tstats *ts)
{
	if (!ts)
		return;
	for (size_t i = 0; i < ts->nheld; i++)
		held_free(&ts->held[i], ts->held[i].t->ng);
	free(ts->held);
	for (size_t i = 0; i < ts->ntab; i++)
		table_free(ts->tab[i]);
	free(ts->tab);
	bl_buf_release(&ts->key);
	free(ts->gbuf);
	free(ts->gval);
	free(ts->thr_subject);
	free(ts->thr_key);
	free(ts->msg_src);
	free(ts->msg_ref);
	free(ts->unit_key);
	bl_index_release(&ts->threads);
	bl_store_release(&ts->thr_at);
	bl_store_release(&ts->thr_text);
	bl_strmap_release(&ts->thr_got);
	bl_spool_release(&ts->spill);
	free(ts);
}

static bool in_list(char *const *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], name) == 0)
			return true;
	return false;
}

static long col_index(const struct ts_table *t, const char *name)
{
	return bl_strmap_find(&t->colmap, name);
}

/* A table benchlog wrote (T3's R6 applies): from logs, a CSV filed under
 * one of benchlog's tables, or a CSV whose header starts with benchlog's
 * provenance columns. Foreign CSV columns are all the user's. */
static bool benchlog_table(const struct ts_table *t)
{
	return t->def || t->benchlog_csv || bl_table_find(t->name);
}

/* The definition of t: its log table, or the table its CSV is filed
 * under; NULL for a CSV filed as "csv" and a foreign one. */
static const struct bl_table_def *table_def(const struct ts_table *t)
{
	return t->def ? t->def : bl_table_find(t->name);
}

/* A fact of column `name` by t's definition (see table_def) or, for a
 * CSV filed as "csv", by any of benchlog's tables. */
static bool col_fact(const struct ts_table *t, const char *name,
		     bool (*fact)(const struct bl_table_def *d, const char *name))
{
	const struct bl_table_def *d = table_def(t);
	if (d)
		return fact(d, name);
	for (size_t i = 0; bl_parsers[i]; i++)
		for (const struct bl_table_def *const *x = bl_parsers[i]->tables; x && *x; x++)
			if (fact(*x, name))
				return true;
	return false;
}

/* T1: the table's since_boot_col. */
static bool since_boot_name(const struct bl_table_def *d, const char *name)
{
	return d->since_boot_col && strcmp(d->since_boot_col, name) == 0;
}

static bool failed_name(const struct bl_table_def *d, const char *name)
{
	for (const int *c = d->failed_cols; c && *c >= 0; c++)
		if (strcmp(d->cols[*c].name, name) == 0)
			return true;
	return false;
}

/* R6: a column that is not a measure (or holds text). */
static bool not_measure(const struct bl_table_def *d, const char *column)
{
	const struct bl_col_def *c = bl_table_coldef(d, column);
	return c && (c->role != BL_ROLE_MEASURE || c->type == BL_STR);
}

/* R4: the provenance columns that are numbers. */
static bool provenance_number(const char *column)
{
	return strcmp(column, "line") == 0 || strcmp(column, "run") == 0 ||
	       strcmp(column, "quoted") == 0;
}

/* Decide T3 for a new column; `numeric_schema` is the log schema's word
 * (true for BL_NUM/BL_INT; CSV columns pass true and are judged by their
 * values). */
static void col_wanted(struct bl_tstats *ts, struct ts_table *t, struct ts_col *c,
		       bool numeric_schema, bool provenance)
{
	const struct bl_table_def *d = table_def(t);
	const char *runs = d ? d->runs_col : NULL;
	bool means = runs != NULL;
	c->requested = ts->o->ncols && in_list(ts->o->cols, ts->o->ncols, c->name);
	if (ts->o->ncols)
		c->wanted = c->requested;
	else
		c->wanted = numeric_schema && !in_list(t->gname, t->ng, c->name) &&
			!(provenance && provenance_number(c->name)) &&
			!(benchlog_table(t) && col_fact(t, c->name, not_measure)) &&
			!(means && strcmp(c->name, runs) == 0);
	if (means && strcmp(c->name, runs) == 0 && !c->requested) {
		c->wanted = true;
		c->hidden = true;
	}
}

static struct ts_col *col_add(struct ts_table *t, const char *name)
{
	t->col = bl_xgrow(t->col, &t->colcap, t->ncol + 1, sizeof *t->col);
	bl_strmap_get(&t->colmap, name, NULL);   /* index t->ncol: names are added once */
	struct ts_col *c = &t->col[t->ncol++];
	memset(c, 0, sizeof *c);
	c->name = bl_xstrdup(name);
	c->logi = -1;
	return c;
}

/* Group columns (T2) of a new table; has_col tells which columns the
 * table has (defaults it lacks are dropped; named ones are kept and make
 * the table or file fail later). */
static void set_groups(struct bl_tstats *ts, struct ts_table *t,
		       bool (*has_col)(void *ud, const char *name), void *ud)
{
	const struct bl_tstats_opts *o = ts->o;
	const struct bl_table_def *d = table_def(t);
	const char *g = d ? d->group_col : "group";
	const char *s = d ? d->split_col : NULL;
	if (!has_col(ud, g))
		g = NULL;
	if (s && !has_col(ud, s))
		s = NULL;
	size_t n = 0, cap = o->ngcols + o->nby + 4;
	const char **names = bl_xcalloc(cap, sizeof *names);
	if (o->compare) {
		if (o->by_source && has_col(ud, "source"))
			names[n++] = "source";
		if (o->by_source && has_col(ud, "message_id"))
			names[n++] = "message_id";
		if (o->by_given)
			for (size_t k = 0; k < o->nby; k++)
				names[n++] = o->by[k];
		else if (s)
			names[n++] = s;
		if (o->cmpcol)
			names[n++] = o->cmpcol;
		else if (g)
			names[n++] = g;
	} else if (o->ngcols) {
		for (size_t k = 0; k < o->ngcols; k++)
			names[n++] = o->gcols[k];
	} else {
		if (g)
			names[n++] = g;
		if (s)
			names[n++] = s;
	}
	t->ng = n;
	t->gname = bl_xcalloc(n ? n : 1, sizeof *t->gname);
	for (size_t k = 0; k < n; k++)
		t->gname[k] = bl_xstrdup(names[k]);
	free(names);
	t->gidx = bl_xcalloc(t->ng ? t->ng : 1, sizeof *t->gidx);
	for (size_t k = 0; k < t->ng; k++)
		t->gidx[k] = -1;
}

static struct ts_table *table_find(struct bl_tstats *ts, const char *name)
{
	for (size_t i = 0; i < ts->ntab; i++)
		if (strcmp(ts->tab[i]->name, name) == 0)
			return ts->tab[i];
	return NULL;
}

static struct ts_table *table_new(struct bl_tstats *ts, const char *name, enum origin origin)
{
	struct ts_table *t = bl_xcalloc(1, sizeof *t);
	t->budget = &ts->budget;
	t->name = bl_xstrdup(name);
	t->origin = origin;
	t->sb_logi = -1;
	ts->tab = bl_xrealloc(ts->tab, (ts->ntab + 1) * sizeof *ts->tab);
	ts->tab[ts->ntab++] = t;
	ts->finished = false;
	return t;
}

static void resolve_gidx(struct ts_table *t)
{
	for (size_t k = 0; k < t->ng; k++)
		t->gidx[k] = col_index(t, t->gname[k]);
}

/* ---- T4a: at most TS_HELD groups a table in memory ---------------------- */

/* A table holds the groups of at most TS_HELD in memory, in a cache of
 * sets of TS_WAYS ways chosen by the key's hash; the least recently used
 * of a full set is put out: its key and cells written at the end of a
 * temporary file (core/store.h, unlinked at once, so it goes on every
 * exit path) and its place there recorded by order (a store); every key
 * is numbered by order in a string index (core/store.h). Nothing else is
 * kept per group in memory: it does not grow with their number. Input
 * sorted by group puts each group out once and never reads one back; any
 * other order reads a group back when its rows come again, bit for bit. */
#define TS_WAYS 64
/* Rows of `stats` output formatted at once (bl_outtab_flush). */
#define TS_PAGE 10000

static void cells_free(struct ts_group *g)
{
	for (size_t c = 0; c < g->ncell; c++) {
		bl_dist_free(g->cell[c].d);
		if (g->cell[c].p) {
			bl_partial_release(g->cell[c].p);
			free(g->cell[c].p);
		}
	}
	free(g->cell);
	g->cell = NULL;
	g->ncell = 0;
}

static void way_clear(struct ts_table *t, struct ts_group *g)
{
	cells_free(g);
	for (size_t k = 0; g->key && k < t->ng; k++)
		free(g->key[k]);
	free(g->key);
	if (t->last == g)
		t->last = NULL;
	memset(g, 0, sizeof *g);
}

/* vals[0..ng) as one key, each value after its length (no two lists of
 * values give the same key), into b (NUL-terminated). -1: too long. */
static int join_key(struct bl_buf *b, const char *const *vals, size_t ng)
{
	bl_buf_reset(b);
	for (size_t k = 0; k < ng; k++) {
		/* the length's digits by hand: bl_buf_addf() here was 406 M of
		 * the 10,000 files' 23.1 G instructions (report -j1) */
		size_t n = strlen(vals[k]), i = 24, len = n;
		char d[24];
		d[--i] = ':';
		do
			d[--i] = (char)('0' + n % 10);
		while (n /= 10);
		if (bl_buf_add(b, d + i, sizeof d - i) || bl_buf_add(b, vals[k], len))
			return -1;
	}
	return bl_buf_add(b, "", 0);
}

/* Where a group put out is: its last record in the spill file, plus one
 * (0: never put out), and its key's hash. */
struct spot {
	long long off1;
	uint64_t h;
};

/* The first group to leave memory: every group so far numbered in the
 * index, in order. Until then every group is held and none is looked up
 * there (report, 200,000 one-message groups: 1.6 % of its time). */
static void index_held(struct bl_tstats *ts, struct ts_table *t)
{
	struct bl_buf k = BL_BUF_INIT(4 * BL_LINE_MAX);
	size_t ord, koff;
	bool added;
	errno = 0;
	for (size_t i = 0; i < t->ngrp; i++)
		if (join_key(&k, (const char *const *)t->way[t->wayof[i]].key, t->ng) ||
		    bl_index_find(&t->keys, k.data, k.len, &ord, &koff, &added))
			ts->read_err = ts->read_err ? ts->read_err : errno ? errno : EIO;
	bl_buf_release(&k);
	t->indexed = true;
}

/* g written out (when changed) with its place in the index, and its way
 * freed. A failure loses its cells: read_err, which the results report. */
static void put_out(struct bl_tstats *ts, struct ts_table *t, struct ts_group *g)
{
	if (!t->indexed)
		index_held(ts, t);
	if (g->dirty) {
		long long off = -1;
		FILE *f = bl_spool_append(&ts->spill, &off);
		for (size_t k = 0; f && k < t->ng; k++)
			bl_spool_put_str(f, g->key[k]);
		if (f)
			fwrite(&g->ncell, sizeof g->ncell, 1, f);
		for (size_t c = 0; f && c < g->ncell; c++) {
			const struct ts_cell *x = &g->cell[c];
			fputc(x->d ? 'd' : x->p ? 'p' : '-', f);
			if (x->d)
				bl_dist_save(x->d, f);
			else if (x->p)
				bl_partial_save(x->p, f);
		}
		struct spot sp = { off + 1, g->h };
		if (bl_spool_check(&ts->spill, f && bl_store_put(&t->spots, g->ord * sizeof sp, &sp, sizeof sp) == 0) < 0 &&
		    !ts->read_err)
			ts->read_err = errno;
	}
	way_clear(t, g);
}

/* Group ord's key and cells read back from off into the free way g. A
 * failed read leaves them empty and sets read_err (-BL_EIO later). */
static void take_in(struct bl_tstats *ts, struct ts_table *t, struct ts_group *g, size_t ord, long long off,
		    uint64_t h)
{
	size_t n = 0;
	FILE *f = bl_spool_read(&ts->spill, off);
	bool ok = f != NULL;
	g->key = bl_xcalloc(t->ng ? t->ng : 1, sizeof *g->key);
	for (size_t k = 0; k < t->ng; k++)
		ok = ok && bl_spool_get_str(f, &g->key[k]) == 0;
	ok = ok && fread(&n, sizeof n, 1, f) == 1 && n <= t->ncol;
	g->cell = bl_xcalloc(t->ncol ? t->ncol : 1, sizeof *g->cell);
	g->ncell = t->ncol;
	for (size_t c = 0; ok && c < n; c++) {
		struct ts_cell *x = &g->cell[c];
		int tag = fgetc(f);
		if (tag == 'd')
			ok = (x->d = bl_dist_load(f)) != NULL;
		else if (tag == 'p')
			ok = (x->p = bl_partial_load(f)) != NULL;
		else
			ok = tag == '-';
	}
	for (size_t k = 0; k < t->ng; k++)
		if (!g->key[k])
			g->key[k] = bl_xstrdup("");
	if (bl_spool_check(&ts->spill, ok) < 0 && !ts->read_err)
		ts->read_err = errno;
	g->ord = ord;
	g->h = h;
	g->dirty = false;
}

/* The set of ways of a key's hash h. */
static struct ts_group *set_of(struct ts_table *t, uint64_t h)
{
	if (!t->way) {
		t->way = bl_xcalloc(TS_HELD, sizeof *t->way);
		t->wayof = bl_xcalloc(TS_HELD, sizeof *t->wayof);
	}
	return &t->way[(h & (TS_HELD / TS_WAYS - 1)) * TS_WAYS];
}

/* A free way of set: a free one, else its least recently used put out. */
static struct ts_group *way_free(struct bl_tstats *ts, struct ts_table *t, struct ts_group *set)
{
	struct ts_group *v = set;
	for (size_t i = 0; i < TS_WAYS; i++) {
		if (!set[i].key)
			return &set[i];
		if (set[i].used < v->used)
			v = &set[i];
	}
	put_out(ts, t, v);
	return v;
}

/* The results are incomplete: a group's cells could not be read back. */
static bool spill_failed(const struct bl_tstats *ts)
{
	if (ts->read_err)
		errno = ts->read_err;
	return ts->read_err != 0;
}

int bl_tstats_spill_err(const struct bl_tstats *ts)
{
	return ts ? ts->read_err : 0;
}

/* g's key values are vals[0..ng). */
static bool same_key(const struct ts_table *t, const struct ts_group *g, const char *const *vals)
{
	for (size_t k = 0; k < t->ng; k++)
		if (strcmp(g->key[k], vals[k]) != 0)
			return false;
	return true;
}

/* g used now: the last, and the most recent of its set. */
static struct ts_group *used(struct ts_table *t, struct ts_group *g)
{
	t->last = g;
	g->used = ++t->clock;
	return g;
}

/* The group whose key values are vals[0..ng), held, marked changed; a
 * new one when there is none. NULL when the key is too long. */
static struct ts_group *group_get(struct bl_tstats *ts, struct ts_table *t, const char *const *vals)
{
	/* records come in runs of one group: the last one is tried first
	 * (stats of 50 MB of vmstat: 0.357 s of processor time, 0.366 s without) */
	struct ts_group *g = t->last;
	if (g && same_key(t, g, vals)) {
		g->dirty = true;
		return used(t, g);
	}
	if (join_key(&ts->key, vals, t->ng))
		return NULL;
	uint64_t h = bl_hash64(ts->key.data, ts->key.len);
	struct ts_group *set = set_of(t, h);
	for (size_t i = 0; i < TS_WAYS; i++)
		if (set[i].key && set[i].h == h && same_key(t, &set[i], vals)) {
			set[i].dirty = true;
			return used(t, &set[i]);
		}
	/* met before and not held: put out, so read back (none has been
	 * while not indexed); the first put out numbers those held */
	size_t ord, koff;
	bool added = true, was = t->indexed;
	struct spot sp = { 0, 0 };
	errno = 0;
	if (was && (bl_index_find(&t->keys, ts->key.data, ts->key.len, &ord, &koff, &added) ||
		    (!added && bl_store_get(&t->spots, ord * sizeof sp, &sp, sizeof sp))))
		ts->read_err = ts->read_err ? ts->read_err : errno ? errno : EIO;
	g = way_free(ts, t, set);
	if (!was && t->indexed && bl_index_find(&t->keys, ts->key.data, ts->key.len, &ord, &koff, &added))
		ts->read_err = ts->read_err ? ts->read_err : errno ? errno : EIO;
	if (!added && sp.off1) {
		take_in(ts, t, g, ord, sp.off1 - 1, h);
	} else {
		g->key = bl_xcalloc(t->ng ? t->ng : 1, sizeof *g->key);
		for (size_t k = 0; k < t->ng; k++)
			g->key[k] = bl_xstrdup(vals[k]);
		g->h = h;
		g->ord = t->ngrp++;
		if (!t->indexed)
			t->wayof[g->ord] = (unsigned short)(g - t->way);
	}
	g->dirty = true;
	return used(t, g);
}

/* Group ord (< t->ngrp), held; NULL when it cannot be read back. */
static struct ts_group *group_at(struct bl_tstats *ts, struct ts_table *t, size_t ord)
{
	if (t->last && t->last->ord == ord)
		return t->last;
	/* never put out: held */
	if (!t->indexed)
		return t->way && ord < t->ngrp ? used(t, &t->way[t->wayof[ord]]) : NULL;
	struct spot sp = { 0, 0 };
	if (bl_store_get(&t->spots, ord * sizeof sp, &sp, sizeof sp) == 0 && sp.off1) {
		struct ts_group *set = set_of(t, sp.h);
		for (size_t i = 0; i < TS_WAYS; i++)
			if (set[i].key && set[i].ord == ord)
				return used(t, &set[i]);
		struct ts_group *g = way_free(ts, t, set);
		take_in(ts, t, g, ord, sp.off1 - 1, sp.h);
		return used(t, g);
	}
	for (size_t i = 0; i < TS_HELD; i++)
		if (t->way[i].key && t->way[i].ord == ord)
			return used(t, &t->way[i]);
	return NULL;
}

static struct ts_cell *cell_get(struct ts_table *t, struct ts_group *g, size_t c)
{
	if (g->ncell < t->ncol) {
		g->cell = bl_xrealloc(g->cell, t->ncol * sizeof *g->cell);
		memset(g->cell + g->ncell, 0, (t->ncol - g->ncell) * sizeof *g->cell);
		g->ncell = t->ncol;
	}
	return &g->cell[c];
}

static void add_num(struct ts_table *t, struct ts_group *g, size_t c, double x)
{
	struct ts_cell *cell = cell_get(t, g, c);
	if (!cell->d)
		cell->d = bl_dist_new_exact(BL_DIST_EXACT_MAX, t->budget);
	bl_dist_add(cell->d, x);   /* non-finite: counted as rejected (D0) */
	t->col[c].nnum++;
}

static void add_text(struct bl_tstats *ts, struct ts_table *t, size_t c, const char *s,
		     const char *src, unsigned long line)
{
	struct ts_col *col = &t->col[c];
	col->ntext++;
	if (!col->first_text) {
		col->first_text = bl_xstrndup(s, 60);
		col->first_where = bl_xasprintf("%s:%lu", src, line);
	}
	if (col->requested && col->warned < 3) {
		col->warned++;
		char where[4200];
		snprintf(where, sizeof where, "%s:%lu", src, line);
		bl_warn_at(ts->ctx, where, "value is not a number",
			   "column '%s': '%.60s' is not a number", col->name, s);
	}
}

/* A value given as text (CSV field, BL_STR): number, text or missing (T3). */
static void add_field(struct bl_tstats *ts, struct ts_table *t, struct ts_group *g, size_t c,
		      const char *s, const char *src, unsigned long line)
{
	double x;
	size_t n = strlen(s);
	const char *p = s;
	bl_trim(&p, &n);
	if (n == 0)
		return;
	if (bl_parse_double(p, n, &x) == 0)
		add_num(t, g, c, x);
	else
		add_text(ts, t, c, s, src, line);
}

/* ---- log records (T1) --------------------------------------------------- */

static bool log_has_col(void *ud, const char *name)
{
	const struct bl_table_def *d = ud;
	for (size_t i = 0; i < BL_PROV_COLS; i++)
		if (strcmp(bl_prov_col_names[i], name) == 0)
			return true;
	return bl_table_col(d, name) >= 0;
}

static struct ts_table *log_table(struct bl_tstats *ts, const struct bl_table_def *d)
{
	struct ts_table *t = table_find(ts, d->name);
	if (t && t->def == d)
		return t;
	if (!t) {
		t = table_new(ts, d->name, FROM_LOG);
		set_groups(ts, t, log_has_col, (void *)d);
	}
	/* a table first seen in CSV input gets the schema's columns by name */
	t->def = d;
	t->own = in_list((char *const *)ts->o->own, ts->o->nown, d->name);
	int sb = d->since_boot_col ? bl_table_col(d, d->since_boot_col) : -1;
	t->sb_logi = sb < 0 ? -1 : BL_PROV_COLS + sb;
	for (size_t i = 0; i < BL_PROV_COLS + d->ncols; i++) {
		bool prov = i < BL_PROV_COLS;
		const char *name = prov ? bl_prov_col_names[i] : d->cols[i - BL_PROV_COLS].name;
		long ci = col_index(t, name);
		if (ci < 0) {
			struct ts_col *c = col_add(t, name);
			bool num = prov ? (i == BL_PC_LINE || i == BL_PC_QUOTED || i == BL_PC_RUN)
				: d->cols[i - BL_PROV_COLS].type != BL_STR;
			col_wanted(ts, t, c, num, prov);
			ci = (long)(t->ncol - 1);
		}
		t->col[ci].logi = (int)i;
	}
	resolve_gidx(t);
	for (size_t k = 0; k < t->ng; k++)
		if (t->gidx[k] < 0 && !t->skip) {
			t->skip = true;
			bl_term_printf(ts->ctx->diag ? ts->ctx->diag : stderr,
				"benchlog: table %s has no column '%s' to group by; left out\n",
				t->name, t->gname[k]);
		}
	return t;
}

/* Column i of r: 0..7 the provenance columns (core/record.h order), then
 * the table's own. */
static struct bl_val rec_val(const struct bl_record *r, int i)
{
	struct bl_val v = { BL_NULL, { .s = NULL } };
	const struct bl_msg *m = r->msg;
	switch (i) {
	case BL_PC_SOURCE: v = (struct bl_val){ BL_STR, { .s = r->source ? r->source : "" } }; break;
	case BL_PC_LINE: v = (struct bl_val){ BL_INT, { .i = (long long)r->line } }; break;
	case BL_PC_MESSAGE_ID: v = (struct bl_val){ BL_STR, { .s = m ? m->message_id : "" } }; break;
	case BL_PC_DATE: v = (struct bl_val){ BL_STR, { .s = m ? m->date : "" } }; break;
	case BL_PC_SUBJECT: v = (struct bl_val){ BL_STR, { .s = m ? m->subject : "" } }; break;
	case BL_PC_QUOTED: v = (struct bl_val){ BL_INT, { .i = r->quoted } }; break;
	case BL_PC_GROUP: v = (struct bl_val){ BL_STR, { .s = r->group ? r->group : "" } }; break;
	case BL_PC_GROUP_SOURCE: v = (struct bl_val){ BL_STR, { .s = r->group_source ? r->group_source : "" } }; break;
	case BL_PC_RUN:
		if (r->run > 0)
			v = (struct bl_val){ BL_INT, { .i = r->run } };
		break;
	case BL_PC_COPY_OF:
		v = (struct bl_val){ BL_STR, { .s = r->copy_of ? r->copy_of : "" } };
		break;
	default:
		if (i >= BL_PROV_COLS && (size_t)(i - BL_PROV_COLS) < r->table->ncols)
			v = r->v[i - BL_PROV_COLS];
	}
	return v;
}

static const char *val_text(const struct bl_val *v, char *buf, size_t bufsz)
{
	switch (v->t) {
	case BL_STR: return v->u.s ? v->u.s : "";
	case BL_INT: snprintf(buf, bufsz, "%lld", v->u.i); return buf;
	case BL_NUM: bl_fmt_double(buf, bufsz, v->u.d); return buf;
	default: return "";
	}
}

/* by_source: the thread of the message read numbered, with the message
 * as its first (bl_tstats_thread_ref), when it is the first put there. */
static void thread_seen(struct bl_tstats *ts)
{
	if (ts->thr_seen)
		return;
	ts->thr_seen = true;
	bool added;
	size_t i, off, at[2] = { ts->thr_len, strlen(ts->msg_ref) };
	errno = 0;
	int rc = bl_index_find(&ts->threads, ts->thr_key, strlen(ts->thr_key), &i, &off, &added);
	if (!rc && added) {
		rc = bl_store_put(&ts->thr_text, at[0], ts->msg_ref, at[1]) ||
		     bl_store_put(&ts->thr_at, i * sizeof at, at, sizeof at);
		ts->thr_len += at[1];
	}
	if (rc && !ts->read_err)
		ts->read_err = errno ? errno : EIO;
}

/* by_source's block of a mail record (report/findings.h F1): its thread
 * ("thread: " and the subject without Re:/Fwd: and [tags], input/mail.h),
 * so that a reply with the candidate's numbers is compared with the post
 * it answers, or, for a table of which the message holds two groups or
 * more, the message itself (unit_key); the message id when the subject
 * names no thread. */
static void thread_of(struct bl_tstats *ts, const struct bl_msg *m)
{
	if (!m->subject || !*m->subject) {
		free(ts->thr_key);
		free(ts->thr_subject);
		ts->thr_key = ts->thr_subject = NULL;
	} else if (!ts->thr_subject || strcmp(ts->thr_subject, m->subject) != 0) {
		free(ts->thr_subject);
		free(ts->thr_key);
		ts->thr_subject = bl_xstrdup(m->subject);
		ts->thr_key = bl_mail_thread_key(m);
		if (strncmp(ts->thr_key, "thread: ", 8) != 0) {
			free(ts->thr_key);
			ts->thr_key = NULL;
		}
	}
	free(ts->msg_ref);
	free(ts->unit_key);
	ts->msg_ref = bl_mail_ref(m);
	/* its place in its file keeps two messages without a Message-ID apart */
	ts->unit_key = ts->thr_key ? bl_xasprintf("%s\x1f%lu\x1f%s", ts->thr_key, m->index, ts->msg_ref) : NULL;
	ts->thr_seen = false;
}

/* r's values of the wanted columns (T3) into group g. */
static void put_record(struct bl_tstats *ts, struct ts_table *t, struct ts_group *g, const struct bl_record *r)
{
	for (size_t c = 0; c < t->ncol; c++) {
		if (!t->col[c].wanted || t->col[c].logi < 0)
			continue;
		struct bl_val v = rec_val(r, t->col[c].logi);
		if (v.t == BL_NUM)
			add_num(t, g, c, v.u.d);
		else if (v.t == BL_INT)
			add_num(t, g, c, (double)v.u.i);
		else if (v.t == BL_STR)
			add_field(ts, t, g, c, v.u.s ? v.u.s : "", r->source, r->line);
	}
}

/* The records held of table t (NULL: of every table) put into the
 * groups of `unit`, UNIT_THREAD or UNIT_MESSAGE, in the order read; the
 * others stay held. */
static void held_put(struct bl_tstats *ts, struct ts_table *t, int unit)
{
	size_t keep = 0;
	if (!ts->nheld)
		return;
	for (size_t i = 0; i < ts->nheld; i++) {
		struct held *h = &ts->held[i];
		if (t && h->t != t) {
			ts->held[keep++] = *h;
			continue;
		}
		h->t->unit = unit;
		if (unit == UNIT_THREAD)
			thread_seen(ts);
		h->g[h->mk] = bl_xstrdup(unit == UNIT_THREAD ? ts->thr_key : ts->unit_key);
		struct ts_group *g = group_get(ts, h->t, (const char *const *)h->g);
		for (size_t v = 0; g && v < h->nv; v++)
			if (h->v[v].s)
				add_field(ts, h->t, g, h->v[v].c, h->v[v].s, ts->msg_src, h->line);
			else
				add_num(h->t, g, h->v[v].c, h->v[v].x);
		held_free(h, h->t->ng);
	}
	ts->nheld = keep;
	if (!keep)
		ts->held_bytes = 0;
	ts->finished = false;   /* columns may have their first values (T3) */
}

/* r held: its group values and the values of its wanted columns. */
static void hold(struct bl_tstats *ts, struct ts_table *t, const struct bl_record *r, size_t mk)
{
	ts->held = bl_xgrow(ts->held, &ts->heldcap, ts->nheld + 1, sizeof *ts->held);
	struct held *h = &ts->held[ts->nheld++];
	*h = (struct held){ t, mk, r->line, bl_xcalloc(t->ng, sizeof *h->g), NULL, 0 };
	h->v = bl_xcalloc(t->ncol ? t->ncol : 1, sizeof *h->v);
	ts->held_bytes += sizeof *h + t->ng * sizeof *h->g + t->ncol * sizeof *h->v;
	for (size_t k = 0; k < t->ng; k++)
		if (k != mk) {
			h->g[k] = bl_xstrdup(ts->gval[k]);
			ts->held_bytes += strlen(h->g[k]) + 1;
		}
	for (size_t c = 0; c < t->ncol; c++) {
		if (!t->col[c].wanted || t->col[c].logi < 0)
			continue;
		struct bl_val v = rec_val(r, t->col[c].logi);
		struct held_val *x = &h->v[h->nv];
		*x = (struct held_val){ c, 0, NULL };
		if (v.t == BL_NUM)
			x->x = v.u.d;
		else if (v.t == BL_INT)
			x->x = (double)v.u.i;
		else if (v.t == BL_STR)
			x->s = bl_xstrdup(v.u.s ? v.u.s : "");
		else
			continue;
		ts->held_bytes += x->s ? strlen(x->s) + 1 : 0;
		h->nv++;
	}
}

/* by_source, a mail record of a thread: into the message's unit for
 * t (F1 of report/findings.h), held until the message shows a second
 * group of t (then its own unit) or ends (then the thread's). ts->gval
 * holds its group values but the message_id one (k = mk); the compared
 * column is the last. */
static void unit_record(struct bl_tstats *ts, struct ts_table *t, const struct bl_record *r, size_t mk)
{
	if (t->ugen != ts->msg_gen) {
		t->ugen = ts->msg_gen;
		t->unit = UNIT_HOLD;
		free(t->ugroup);
		t->ugroup = NULL;
	}
	const char *set = ts->gval[t->ng - 1];
	if (t->unit == UNIT_HOLD && t->ugroup && strcmp(t->ugroup, set) != 0) {
		held_put(ts, t, UNIT_MESSAGE);
		t->unit = UNIT_MESSAGE;
	}
	if (t->unit != UNIT_HOLD) {
		if (t->unit == UNIT_THREAD)
			thread_seen(ts);
		ts->gval[mk] = t->unit == UNIT_THREAD ? ts->thr_key : ts->unit_key;
		struct ts_group *g = group_get(ts, t, ts->gval);
		if (g)
			put_record(ts, t, g, r);
		return;
	}
	if (!t->ugroup)
		t->ugroup = bl_xstrdup(set);
	hold(ts, t, r, mk);
	if (ts->nheld >= TS_HOLD_MAX || ts->held_bytes >= TS_HOLD_BYTES)
		held_put(ts, NULL, UNIT_THREAD);
}

/* by_source, a mail record: a new message puts the last one's records
 * held into its thread and becomes the one read. */
static void message_at(struct bl_tstats *ts, const struct bl_record *r)
{
	const char *src = r->source ? r->source : "";
	if (ts->msg_src && ts->msg_idx == r->msg->index && strcmp(ts->msg_src, src) == 0)
		return;
	held_put(ts, NULL, UNIT_THREAD);
	free(ts->msg_src);
	ts->msg_src = bl_xstrdup(src);
	ts->msg_idx = r->msg->index;
	ts->msg_gen++;
	thread_of(ts, r->msg);
}

static int ts_record(void *ud, const struct bl_record *r)
{
	struct bl_tstats *ts = ud;
	if (ts->o->table && strcmp(ts->o->table, r->table->name) != 0)
		return 0;
	if (r->table->weight_col)
		return 0;   /* R7 */
	if (r->quoted > 0 && !ts->o->include_quoted) {
		ts->quoted_out++;
		return 0;
	}
	struct ts_table *t = log_table(ts, r->table);
	if (t->skip)
		return 0;
	if (t->sb_logi >= 0) {
		struct bl_val v = rec_val(r, t->sb_logi);
		if (bl_since_boot_left_out(ts->ctx->opt.since_boot, &v)) {
			ts->since_boot_out++;
			return 0;
		}
	}
	if (bl_record_failed(r)) {   /* D3c */
		ts->failed_out++;
		return 0;
	}
	if (t->own)
		return 0;
	if (ts->ngbuf < t->ng) {
		ts->gbuf = bl_xrealloc(ts->gbuf, t->ng * sizeof *ts->gbuf);
		ts->gval = bl_xrealloc(ts->gval, t->ng * sizeof *ts->gval);
		ts->ngbuf = t->ng;
	}
	size_t mk = SIZE_MAX;
	for (size_t k = 0; k < t->ng; k++) {
		struct bl_val v = rec_val(r, t->col[t->gidx[k]].logi);
		ts->gval[k] = val_text(&v, ts->gbuf[k], sizeof ts->gbuf[k]);
		if (ts->o->by_source && r->msg && t->col[t->gidx[k]].logi == BL_PC_MESSAGE_ID) {
			message_at(ts, r);
			if (ts->thr_key && k + 1 < t->ng)
				mk = k;
			else if (ts->thr_key) {
				thread_seen(ts);
				ts->gval[k] = ts->thr_key;
			}
		}
	}
	if (mk != SIZE_MAX) {
		unit_record(ts, t, r, mk);
		return 0;
	}
	struct ts_group *g = group_get(ts, t, ts->gval);
	if (g)
		put_record(ts, t, g, r);
	return 0;
}

void bl_tstats_sink(struct bl_tstats *ts, struct bl_sink *out)
{
	memset(out, 0, sizeof *out);
	out->record = ts_record;
	out->copies = false;  /* copies left out (core/block.h B4) */
	out->ud = ts;
}

/* ---- CSV input (T5) ----------------------------------------------------- */

struct fields {
	char **v;
	size_t n, cap;
	bool overflow;
};

static void fields_clear(struct fields *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i]);
	f->n = 0;
	f->overflow = false;
}

static void fields_push(struct fields *f, const char *s, size_t len)
{
	if (f->n >= 100000) {   /* a sane bound on columns */
		f->overflow = true;
		return;
	}
	f->v = bl_xgrow(f->v, &f->cap, f->n + 1, sizeof *f->v);
	f->v[f->n++] = s ? bl_xstrndup(s, len) : bl_xstrdup("");
}

static void fields_release(struct fields *f)
{
	fields_clear(f);
	free(f->v);
	f->v = NULL;
	f->cap = 0;
}

/* Header test of bl_csv_is_table on fields f. */
static bool header_ok(const struct fields *f, char *why, size_t whysz)
{
	double x;
	if (f->n == 0 || f->overflow) {
		snprintf(why, whysz, "no header fields");
		return false;
	}
	struct bl_strmap seen = BL_STRMAP_INIT;   /* by hash: a header may be 100,000 wide */
	bool ok = true;
	for (size_t i = 0; i < f->n && ok; i++) {
		const char *s = f->v[i];
		bool added = false;
		if (!*s) {
			snprintf(why, whysz, "header field %zu is empty", i + 1);
			ok = false;
		} else if (bl_parse_double(s, (size_t)-1, &x) == 0) {
			snprintf(why, whysz, "header field %zu ('%.40s') is a number", i + 1, s);
			ok = false;
		} else if (bl_strmap_get(&seen, s, &added), !added) {
			snprintf(why, whysz, "column name '%.40s' appears twice", s);
			ok = false;
		}
	}
	bl_strmap_release(&seen);
	return ok;
}

struct row_ud {
	struct fields *f;
	bool done;
};

static void cb_field2(void *s, size_t len, void *ud)
{
	fields_push(((struct row_ud *)ud)->f, s, len);
}

static void cb_row2(int c, void *ud)
{
	(void)c;
	((struct row_ud *)ud)->done = true;
}

bool bl_csv_is_table(const char *path, char *why, size_t whysz)
{
	char dummy[8];
	if (!why) {
		why = dummy;
		whysz = sizeof dummy;
	}
	why[0] = '\0';
	if (strcmp(path, "-") == 0) {
		snprintf(why, whysz, "standard input is not sniffed");
		return false;
	}
	struct bl_src *s;
	if (bl_src_open(path, NULL, &s)) {
		snprintf(why, whysz, "cannot open: %s", strerror(errno));
		return false;
	}
	const char *p;
	size_t len;
	bool ok = false;
	if (bl_src_peek(s, &p, &len) == 0) {
		size_t n = 0;
		while (n < len && p[n] != '\n' && p[n] != '\r')
			n++;
		if (memchr(p, '\0', n)) {
			snprintf(why, whysz, "first line holds a NUL byte");
		} else if (n == len && len >= BL_SNIFF_MAX) {
			snprintf(why, whysz, "first line longer than %d bytes", BL_SNIFF_MAX);
		} else {
			struct csv_parser cp;
			struct fields f = {0};
			struct row_ud ru = { &f, false };
			csv_init(&cp, CSV_STRICT | CSV_STRICT_FINI | CSV_EMPTY_IS_NULL);
			if (csv_parse(&cp, p, n, cb_field2, cb_row2, &ru) != n ||
			    csv_fini(&cp, cb_field2, cb_row2, &ru) != 0)
				snprintf(why, whysz, "first line is not CSV: %s", csv_strerror(csv_error(&cp)));
			else
				ok = header_ok(&f, why, whysz);
			csv_free(&cp);
			fields_release(&f);
		}
	} else {
		snprintf(why, whysz, "cannot read: %s", bl_src_error(s));
	}
	bl_src_close(s);
	return ok;
}

struct csvrd {
	struct bl_tstats *ts;
	struct ts_table *t;
	const char *path;
	struct csv_parser cp;
	struct fields f;
	struct row_ud ru;          /* libcsv's callbacks: into f, record done */
	bool in_record;
	bool header_done;
	unsigned long rec_start;   /* first physical line of the record */
	unsigned long rec_lines;   /* physical lines it spans */
	size_t nhead;
	long *map;                 /* header position -> table column, -1 = ignored */
	long *gpos;                /* group column k -> header position */
	long sbpos;                /* header position of `since_boot` (T1), -1 none */
	long fpos[4];              /* ... of the failed_cols (T1, D3c) */
	size_t nfpos;
	long qpos;                 /* header position of the provenance `quoted`
				      (benchlog's header only), -1 none */
	long cpos;                 /* ... of `copy_of` (core/block.h), -1 none */
	char *last_copy;           /* the last row's copy_of, when it had one */
	int err;                   /* fatal for this input */
	bool histogram;            /* filed under an R7 table: lines skipped */
};

static void count_lines(struct bl_ctx *ctx, const char *path, unsigned long first,
			unsigned long n, const char *skip_reason)
{
	for (unsigned long i = 0; i < n; i++) {
		if (skip_reason) {
			struct bl_line ln = { "", 0, path, first + i, 0, NULL };
			bl_skip(ctx, &ln, skip_reason);
		} else {
			ctx->lines_used++;
		}
	}
}

static bool csv_has_col(void *ud, const char *name)
{
	return in_list(((const struct fields *)ud)->v, ((const struct fields *)ud)->n, name);
}

/* The table CSV rows are filed under (T5). */
static char *csv_table_name(const struct bl_tstats *ts, const char *path)
{
	if (ts->o->table)
		return bl_xstrdup(ts->o->table);
	char *stem = strcmp(path, "-") == 0 ? NULL : bl_path_stem(path);
	if (stem && bl_table_find(stem))
		return stem;
	free(stem);
	return bl_xstrdup("csv");
}

/* How many provenance columns benchlog's own header starts with: all of
 * them, or those before group_source or copy_of came (a CSV written by an
 * earlier version); 0 for another header. */
static size_t prov_header_cols(const struct fields *f)
{
	size_t k = 0;
	for (size_t i = 0; i < BL_PROV_COLS; i++) {
		if ((i == BL_PC_GROUP_SOURCE || i == BL_PC_COPY_OF) &&
		    (k >= f->n || strcmp(f->v[k], bl_prov_col_names[i]) != 0))
			continue;
		if (k >= f->n || strcmp(f->v[k], bl_prov_col_names[i]) != 0)
			return 0;
		k++;
	}
	return k;
}

/* R7 for a CSV not named after its table (`001.latency.csv`): the header
 * is benchlog's provenance columns, then exactly the columns of a table
 * of histogram buckets. */
static bool histogram_header(const struct fields *f)
{
	size_t k = prov_header_cols(f);
	for (size_t p = 0; k && bl_parsers[p]; p++)
		for (const struct bl_table_def *const *x = bl_parsers[p]->tables; x && *x; x++) {
			const struct bl_table_def *d = *x;
			if (!d->weight_col || f->n != k + d->ncols)
				continue;
			size_t i = k;
			while (i < f->n && strcmp(f->v[i], d->cols[i - k].name) == 0)
				i++;
			if (i == f->n)
				return true;
		}
	return false;
}

static int csv_header(struct csvrd *rd)
{
	struct bl_tstats *ts = rd->ts;
	char why[200], where[4200];
	snprintf(where, sizeof where, "%s:%lu", rd->path, rd->rec_start);
	if (!header_ok(&rd->f, why, sizeof why)) {
		bl_warn_at(ts->ctx, where, "not a CSV header", "not a CSV header: %s", why);
		return -BL_EFORMAT;
	}
	char *name = csv_table_name(ts, rd->path);
	const struct bl_table_def *named = bl_table_find(name);
	if ((named && named->weight_col) || (!ts->o->table && histogram_header(&rd->f))) {
		free(name);
		rd->histogram = true;
		return 0;
	}
	struct ts_table *t = table_find(ts, name);
	size_t nprov = prov_header_cols(&rd->f);
	bool bl_header = nprov > 0;
	if (!t) {
		t = table_new(ts, name, FROM_CSV);
		t->benchlog_csv = bl_header;
		set_groups(ts, t, csv_has_col, &rd->f);
	} else if (t->origin == FROM_PARTIAL) {
		bl_warn_at(ts->ctx, where, "CSV mixed with partials",
			   "table %s was read from partials; CSV input cannot be added to it", name);
		free(name);
		return -BL_EFORMAT;
	}
	free(name);
	rd->t = t;
	rd->nhead = rd->f.n;
	rd->map = bl_xcalloc(rd->nhead, sizeof *rd->map);
	for (size_t i = 0; i < rd->nhead; i++) {
		const char *h = rd->f.v[i];
		long c = col_index(t, h);
		if (c < 0) {
			struct ts_col *col = col_add(t, h);
			col_wanted(ts, t, col, true, t->benchlog_csv && i < nprov);
			c = (long)(t->ncol - 1);
		}
		rd->map[i] = c;
	}
	resolve_gidx(t);
	/* T1: a row quoted in a mail reply, read back: the provenance column
	 * of benchlog's own header (a foreign CSV's "quoted" is the user's) */
	rd->qpos = rd->cpos = -1;
	for (size_t i = 0; bl_header && i < nprov; i++) {
		if (strcmp(rd->f.v[i], "quoted") == 0)
			rd->qpos = (long)i;
		if (strcmp(rd->f.v[i], "copy_of") == 0)
			rd->cpos = (long)i;
	}
	/* T1: the since-boot mark of benchlog's vmstat table, read back */
	rd->sbpos = -1;
	rd->nfpos = 0;
	for (size_t i = 0; benchlog_table(t) && i < rd->nhead; i++)
		if (col_fact(t, rd->f.v[i], since_boot_name))
			rd->sbpos = (long)i;
		else if (rd->nfpos < sizeof rd->fpos / sizeof rd->fpos[0] && col_fact(t, rd->f.v[i], failed_name))
			rd->fpos[rd->nfpos++] = (long)i;
	rd->gpos = bl_xcalloc(t->ng ? t->ng : 1, sizeof *rd->gpos);
	for (size_t k = 0; k < t->ng; k++) {
		rd->gpos[k] = -1;
		for (size_t i = 0; i < rd->nhead; i++)
			if (strcmp(rd->f.v[i], t->gname[k]) == 0) {
				rd->gpos[k] = (long)i;
				break;
			}
		if (rd->gpos[k] < 0) {
			bl_warn_at(ts->ctx, where, "CSV without the group column",
				   "no column '%s' to group by", t->gname[k]);
			return -BL_EFORMAT;
		}
	}
	return 0;
}

/* D3c: a row whose failed_cols field holds text or a non-zero number. */
static bool csv_failed(const struct csvrd *rd)
{
	for (size_t k = 0; k < rd->nfpos; k++) {
		const char *s = rd->f.v[rd->fpos[k]];
		double d;
		struct bl_val v = { BL_STR, { .s = s } };
		if (bl_parse_double(s, strlen(s), &d) == 0)
			v = (struct bl_val){ BL_NUM, { .d = d } };
		if (bl_failed_value(&v))
			return true;
	}
	return false;
}

static void csv_row(struct csvrd *rd)
{
	struct bl_tstats *ts = rd->ts;
	struct ts_table *t = rd->t;
	if (rd->f.n != rd->nhead) {
		char where[4200];
		snprintf(where, sizeof where, "%s:%lu", rd->path, rd->rec_start);
		bl_warn_at(ts->ctx, where, "CSV row with a wrong field count",
			   "row has %s, header has %zu", BL_COUNT(rd->f.n, "field"), rd->nhead);
		count_lines(ts->ctx, rd->path, rd->rec_start, rd->rec_lines, "CSV row with a wrong field count");
		return;
	}
	if (rd->cpos >= 0 && *rd->f.v[rd->cpos]) {
		/* a copy, left out as the log record it was written from, and
		 * counted as parse counts it (B4): consecutive rows copying the
		 * same block are one block */
		const char *c = rd->f.v[rd->cpos];
		if (!rd->last_copy || strcmp(rd->last_copy, c) != 0) {
			free(rd->last_copy);
			rd->last_copy = bl_xstrdup(c);
			ts->ctx->copies.blocks++;
		}
		ts->ctx->copies.records++;
		count_lines(ts->ctx, rd->path, rd->rec_start, rd->rec_lines, NULL);
		ts->ctx->records++;
		return;
	}
	free(rd->last_copy);
	rd->last_copy = NULL;
	if (rd->qpos >= 0 && !ts->o->include_quoted) {
		/* T1: as the log record the row was written from */
		const char *s = rd->f.v[rd->qpos];
		long long x;
		if (bl_parse_ll(s, strlen(s), &x) == 0 && x > 0) {
			ts->quoted_out++;
			count_lines(ts->ctx, rd->path, rd->rec_start, rd->rec_lines, NULL);
			ts->ctx->records++;
			return;
		}
	}
	if (rd->sbpos >= 0) {
		/* T1: the same rule as for the log record the row was written from */
		const char *s = rd->f.v[rd->sbpos];
		long long x;
		struct bl_val v = { BL_NULL, { .s = NULL } };
		if (bl_parse_ll(s, strlen(s), &x) == 0)
			v = (struct bl_val){ BL_INT, { .i = x } };
		if (bl_since_boot_left_out(ts->ctx->opt.since_boot, &v)) {
			ts->since_boot_out++;
			count_lines(ts->ctx, rd->path, rd->rec_start, rd->rec_lines, NULL);
			ts->ctx->records++;
			return;
		}
	}
	if (csv_failed(rd)) {   /* D3c: as the log record the row was written from */
		ts->failed_out++;
		count_lines(ts->ctx, rd->path, rd->rec_start, rd->rec_lines, NULL);
		ts->ctx->records++;
		return;
	}
	const char *stack[8] = {0};
	const char **vals = t->ng > 8 ? bl_xcalloc(t->ng, sizeof *vals) : stack;
	for (size_t k = 0; k < t->ng; k++)
		vals[k] = rd->f.v[rd->gpos[k]];
	struct ts_group *g = group_get(ts, t, vals);
	if (vals != stack)
		free(vals);
	if (!g) {
		count_lines(ts->ctx, rd->path, rd->rec_start, rd->rec_lines, "group key too long");
		return;
	}
	for (size_t i = 0; i < rd->nhead; i++) {
		long c = rd->map[i];
		if (c >= 0 && t->col[c].wanted)
			add_field(ts, t, g, (size_t)c, rd->f.v[i], rd->path, rd->rec_start);
	}
	count_lines(ts->ctx, rd->path, rd->rec_start, rd->rec_lines, NULL);
	ts->ctx->records++;   /* a CSV row read is a record, as a parsed one is */
}

/* R7: lines of a CSV of histogram buckets. */
#define HISTOGRAM_SKIP "latency histogram buckets (benchlog summary reads them)"

static void csv_record_done(struct csvrd *rd)
{
	if (rd->err) {
		count_lines(rd->ts->ctx, rd->path, rd->rec_start, rd->rec_lines, "after a bad CSV header");
	} else if (!rd->header_done) {
		rd->header_done = true;
		rd->err = csv_header(rd);
		count_lines(rd->ts->ctx, rd->path, rd->rec_start, rd->rec_lines,
			    rd->err ? "not a CSV header" :
			    rd->histogram ? HISTOGRAM_SKIP : NULL);
	} else if (rd->histogram) {
		count_lines(rd->ts->ctx, rd->path, rd->rec_start, rd->rec_lines, HISTOGRAM_SKIP);
	} else {
		csv_row(rd);
	}
	fields_clear(&rd->f);
	rd->in_record = false;
	rd->ru.done = false;
}

static void csv_bad_record(struct csvrd *rd, unsigned long lineno, const char *what)
{
	char where[4200];
	snprintf(where, sizeof where, "%s:%lu", rd->path, rd->rec_start ? rd->rec_start : lineno);
	bl_warn_at(rd->ts->ctx, where, "malformed CSV row", "malformed CSV: %s", what);
	count_lines(rd->ts->ctx, rd->path, rd->rec_start, rd->rec_lines, "malformed CSV row");
	csv_free(&rd->cp);
	csv_init(&rd->cp, CSV_STRICT | CSV_STRICT_FINI | CSV_EMPTY_IS_NULL);
	fields_clear(&rd->f);
	rd->in_record = false;
	rd->ru.done = false;
	if (!rd->header_done) {
		rd->header_done = true;
		rd->err = -BL_EFORMAT;
	}
}

static int csv_line(void *ud, const char *p, size_t len, unsigned long lineno)
{
	struct csvrd *rd = ud;
	struct bl_ctx *ctx = rd->ts->ctx;
	ctx->lines_total++;
	if (!rd->in_record) {
		const char *q = p;
		size_t n = len;
		bl_trim(&q, &n);
		if (n == 0) {
			struct bl_line ln = { "", 0, rd->path, lineno, 0, NULL };
			bl_skip(ctx, &ln, "blank line");
			return 0;
		}
		rd->in_record = true;
		rd->rec_start = lineno;
		rd->rec_lines = 0;
	}
	rd->rec_lines++;
	if (memchr(p, '\0', len)) {
		csv_bad_record(rd, lineno, "NUL byte in the line");
		return 0;
	}
	if (csv_parse(&rd->cp, p, len, cb_field2, cb_row2, &rd->ru) != len ||
	    csv_parse(&rd->cp, "\n", 1, cb_field2, cb_row2, &rd->ru) != 1) {
		csv_bad_record(rd, lineno, csv_strerror(csv_error(&rd->cp)));
		return 0;
	}
	if (rd->ru.done)
		csv_record_done(rd);
	if (rd->f.overflow)
		csv_bad_record(rd, lineno, "more than 100000 fields");
	return 0;
}

static void csv_too_long(void *ud, unsigned long lineno)
{
	struct csvrd *rd = ud;
	struct bl_ctx *ctx = rd->ts->ctx;
	ctx->lines_total++;
	if (rd->in_record) {
		rd->rec_lines++;
		csv_bad_record(rd, lineno, "line too long");
		return;
	}
	char where[4200];
	snprintf(where, sizeof where, "%s:%lu", rd->path, lineno);
	bl_warn_at(ctx, where, "line too long", "line longer than %d bytes", BL_LINE_MAX);
	struct bl_line ln = { "", 0, rd->path, lineno, 0, NULL };
	bl_skip(ctx, &ln, "line too long");
}

int bl_tstats_read_csv(struct bl_tstats *ts, const char *path)
{
	struct bl_ctx *ctx = ts->ctx;
	struct bl_src *src;
	int orc = bl_src_open(path, ctx->opt.stop, &src);
	if (orc == -BL_EINTR)
		return ctx->error = orc;
	if (orc) {
		bl_warn_at(ctx, path, "unreadable input", "%s", strerror(errno));
		ctx->input_errors++;
		return errno == ENOENT ? -BL_ENOTFOUND : -BL_EIO;
	}
	struct csvrd rd;
	memset(&rd, 0, sizeof rd);
	rd.ts = ts;
	rd.path = path;
	rd.ru.f = &rd.f;
	csv_init(&rd.cp, CSV_STRICT | CSV_STRICT_FINI | CSV_EMPTY_IS_NULL);
	struct bl_linesplit ls;
	bl_linesplit_init(&ls);
	ls.line = csv_line;
	ls.too_long = csv_too_long;
	ls.ud = &rd;
	char *buf = bl_xmalloc(1 << 16);
	int rc = 0;
	for (;;) {
		ssize_t n = bl_src_read(src, buf, 1 << 16);
		if (n == -BL_EINTR) {   /* a stop signal (cli) */
			rc = ctx->error = (int)n;
			break;
		}
		if (n < 0) {
			bl_warn_at(ctx, path, "unreadable input", "%s", bl_src_error(src));
			ctx->input_errors++;
			rc = n;
			break;
		}
		if (n == 0)
			break;
		bl_linesplit_feed(&ls, buf, (size_t)n);
	}
	bl_linesplit_end(&ls);
	if (rd.in_record) {
		if (csv_fini(&rd.cp, cb_field2, cb_row2, &rd.ru) != 0)
			csv_bad_record(&rd, ls.lineno, "unterminated quoted field at the end of the file");
		else if (rd.ru.done)
			csv_record_done(&rd);
	}
	const char *w = bl_src_warning(src);
	if (w)
		bl_warn_at(ctx, path, "trailing data", "%s", w);
	if (!rd.header_done && !rc) {
		bl_warn_at(ctx, path, "not a CSV header", "empty CSV input: no header line");
		rd.err = -BL_EFORMAT;
	}
	if (rd.err && !rc) {
		ctx->input_errors++;
		rc = rd.err;
	}
	free(buf);
	bl_linesplit_release(&ls);
	csv_free(&rd.cp);
	fields_release(&rd.f);
	free(rd.map);
	free(rd.gpos);
	free(rd.last_copy);
	bl_src_close(src);
	return rc;
}

/* ---- inputs ------------------------------------------------------------- */

static bool csv_name(const char *p)
{
	size_t n = strlen(p);
	return (n > 4 && strcmp(p + n - 4, ".csv") == 0) ||
	       (n > 7 && strcmp(p + n - 7, ".csv.gz") == 0);
}

/* Is path read as a CSV table? note: say why a .csv is not. */
static bool read_as_csv(struct bl_ctx *ctx, const char *path, bool force_csv, bool note)
{
	char why[200];
	if (force_csv || !csv_name(path))
		return force_csv;
	if (bl_csv_is_table(path, why, sizeof why))
		return true;
	if (note && ctx->diag)
		bl_term_printf(ctx->diag, "benchlog: note: %s: read as a log, not as a CSV table: %s\n", path, why);
	return false;
}

int bl_tstats_read_inputs(struct bl_tstats *ts, char *const *inputs, size_t n, bool force_csv)
{
	struct bl_ctx *ctx = ts->ctx;
	struct bl_paths all = {0}, logs = {0};
	const char *p;
	long long size;
	if (bl_paths_expand(ctx, inputs, n, &all) == -BL_EIO)
		bl_ctx_temp_failed(ctx);
	while ((p = bl_paths_next(&all, NULL)) != NULL)   /* the notes first, as before any input is read */
		read_as_csv(ctx, p, force_csv, true);
	bl_paths_rewind(&all);
	/* Consecutive logs are read in one pass; a table between them ends it. */
	int rc = ctx->error;
	while (!rc && (p = bl_paths_next(&all, &size)) != NULL) {
		if (!read_as_csv(ctx, p, force_csv, false)) {
			bl_paths_add(&logs, p, size);
			continue;
		}
		if (logs.n)
			rc = bl_pass_run_list(ctx, &logs);
		bl_paths_release(&logs);
		if (!rc && bl_tstats_read_csv(ts, p) == -BL_EINTR)
			rc = -BL_EINTR;
	}
	if (!rc && logs.n)
		rc = bl_pass_run_list(ctx, &logs);
	if ((all.err || logs.err) && !rc) {
		errno = all.err ? all.err : logs.err;
		bl_ctx_temp_failed(ctx);
		rc = ctx->error;
	}
	bl_paths_release(&all);
	bl_paths_release(&logs);
	return rc;
}

/* ---- partials (T6) ------------------------------------------------------ */

static void finish(struct bl_tstats *ts);

int bl_tstats_write_partials(struct bl_tstats *ts, FILE *f)
{
	finish(ts);
	fputs("benchlog-stats-partials,1\n", f);
	struct bl_partial p;
	bl_partial_init(&p);
	for (size_t i = 0; i < ts->ntab; i++) {
		struct ts_table *t = ts->tab[i];
		if (t->skip || t->ngrp == 0)
			continue;
		/* listed columns, then the hidden ones compare may ask for */
		size_t *cols = bl_xcalloc(t->ncol ? t->ncol : 1, sizeof *cols);
		size_t nc = 0;
		for (size_t k = 0; k < t->norder; k++)
			cols[nc++] = t->order[k];
		for (size_t c = 0; c < t->ncol; c++)
			if (t->col[c].hidden && t->col[c].nnum)
				cols[nc++] = c;
		bl_outtab_csv_put(f, "table", true);
		bl_outtab_csv_put(f, t->name, false);
		fputc('\n', f);
		bl_outtab_csv_put(f, "groups", true);
		for (size_t k = 0; k < t->ng; k++)
			bl_outtab_csv_put(f, t->gname[k], false);
		fputc('\n', f);
		bl_outtab_csv_put(f, "columns", true);
		for (size_t k = 0; k < nc; k++)
			bl_outtab_csv_put(f, t->col[cols[k]].name, false);
		fputc('\n', f);
		for (size_t g = 0; g < t->ngrp; g++) {
			struct ts_group *gr = group_at(ts, t, g);
			if (!gr)
				continue;
			for (size_t k = 0; k < nc; k++) {
				size_t c = cols[k];
				if (c >= gr->ncell || (!gr->cell[c].d && !gr->cell[c].p))
					continue;
				bl_outtab_csv_put(f, "cell", true);
				for (size_t j = 0; j < t->ng; j++)
					bl_outtab_csv_put(f, gr->key[j], false);
				bl_outtab_csv_put(f, t->col[c].name, false);
				fputc('\n', f);
				if (gr->cell[c].d) {
					bl_dist_to_partial(gr->cell[c].d, &p);
					bl_partial_write(f, &p);
				} else {
					bl_partial_write(f, gr->cell[c].p);
				}
			}
		}
		free(cols);
	}
	bl_partial_release(&p);
	return spill_failed(ts) ? -BL_EIO : ferror(f) ? -BL_EIO : 0;
}

/* One CSV record of a partial file; lines counted in *line. 0, 1 at end
 * of input, -BL_EFORMAT. */
static int read_csv_record(FILE *f, struct fields *out, unsigned long *line, char **buf, size_t *cap)
{
	struct csv_parser cp;
	struct row_ud ru = { out, false };
	fields_clear(out);
	csv_init(&cp, CSV_STRICT | CSV_STRICT_FINI | CSV_EMPTY_IS_NULL);
	int rc = 1;
	/* a record may span any number of lines: a quoted group value holds
	 * whatever the CSV input's field held, line ends included */
	for (long lines = 0;; lines++) {
		ssize_t n = getline(buf, cap, f);
		if (n < 0) {
			if (lines > 0)
				rc = -BL_EFORMAT;
			break;
		}
		(*line)++;
		if (lines == 0 && (n == 0 || (*buf)[0] == '\n' || (*buf)[0] == '\r')) {
			lines--;   /* blank lines between records */
			continue;
		}
		if (csv_parse(&cp, *buf, (size_t)n, cb_field2, cb_row2, &ru) != (size_t)n) {
			rc = -BL_EFORMAT;
			break;
		}
		if (ru.done) {
			rc = 0;
			break;
		}
	}
	if (rc == 1 && !ru.done && out->n)
		rc = -BL_EFORMAT;
	csv_free(&cp);
	return rc;
}

/* Where bl_tstats_read_partials() is, for partial_table(). */
struct partial_head {
	struct bl_tstats *ts;
	FILE *f;
	struct fields *rec;
	unsigned long *line;
	char **buf;
	size_t *cap;
	char *why;
	size_t whysz;
	struct ts_table **t;     /* the table the cells go to (NULL: skipped) */
	long **colmap;           /* position in the columns line -> table column */
	size_t *ncolmap;
};

/* A "table,NAME" line was read: the table, then its groups and columns
 * lines. 0, or -BL_EFORMAT with *h->why and *h->line set. */
static int partial_table(struct partial_head *h)
{
	struct bl_tstats *ts = h->ts;
	struct fields *rec = h->rec;
	struct ts_table *t = table_find(ts, rec->v[1]);
	if (t && t->origin != FROM_PARTIAL) {
		snprintf(h->why, h->whysz, "table %s was read from logs or CSV; partials cannot be added to it",
			 rec->v[1]);
		return -BL_EFORMAT;
	}
	if (ts->o->table && strcmp(ts->o->table, rec->v[1]) != 0)
		t = NULL;   /* -t: other tables are skipped */
	else if (!t)
		t = table_new(ts, rec->v[1], FROM_PARTIAL);
	*h->t = t;
	/* groups and columns lines follow */
	unsigned long at = *h->line + 1;
	if (read_csv_record(h->f, rec, h->line, h->buf, h->cap) != 0 || strcmp(rec->v[0], "groups") != 0) {
		snprintf(h->why, h->whysz, "expected 'groups,…' after 'table,…'");
		*h->line = at;
		return -BL_EFORMAT;
	}
	if (t && t->ngrp == 0 && t->ng == 0 && !t->gname) {
		t->ng = rec->n - 1;
		t->gname = bl_xcalloc(t->ng ? t->ng : 1, sizeof *t->gname);
		t->gidx = bl_xcalloc(t->ng ? t->ng : 1, sizeof *t->gidx);
		for (size_t k = 0; k < t->ng; k++)
			t->gname[k] = bl_xstrdup(rec->v[k + 1]);
	}
	bool same = t == NULL || t->ng == rec->n - 1;
	for (size_t k = 0; t && same && k < t->ng; k++)
		same = strcmp(t->gname[k], rec->v[k + 1]) == 0;
	for (size_t k = 0; t && same && k < ts->o->ngcols; k++)
		same = ts->o->ngcols == t->ng && strcmp(ts->o->gcols[k], t->gname[k]) == 0;
	if (!same) {
		snprintf(h->why, h->whysz, "table %s is grouped by other columns here than in the other "
			 "partials or -g", t->name);
		*h->line = at;
		return -BL_EFORMAT;
	}
	at = *h->line + 1;
	if (read_csv_record(h->f, rec, h->line, h->buf, h->cap) != 0 || strcmp(rec->v[0], "columns") != 0) {
		snprintf(h->why, h->whysz, "expected 'columns,…' after 'groups,…'");
		*h->line = at;
		return -BL_EFORMAT;
	}
	size_t n = rec->n - 1;
	long *colmap = bl_xrealloc(*h->colmap, (n ? n : 1) * sizeof *colmap);
	*h->colmap = colmap;
	*h->ncolmap = n;
	for (size_t k = 0; k < n; k++) {
		colmap[k] = -1;
		if (!t)
			continue;
		long c = col_index(t, rec->v[k + 1]);
		if (c < 0) {
			struct ts_col *col = col_add(t, rec->v[k + 1]);
			col_wanted(ts, t, col, true, false);
			if (!ts->o->ncols && !col->hidden)
				col->wanted = true;   /* chosen when the partial was written */
			c = (long)(t->ncol - 1);
		}
		colmap[k] = c;
	}
	return 0;
}

int bl_tstats_read_partials(struct bl_tstats *ts, const char *path)
{
	struct bl_ctx *ctx = ts->ctx;
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	if (!f) {
		bl_warn_at(ctx, path, "unreadable input", "%s", strerror(errno));
		ctx->input_errors++;
		return errno == ENOENT ? -BL_ENOTFOUND : -BL_EIO;
	}
	struct fields rec = {0};
	char *buf = NULL;
	size_t cap = 0;
	unsigned long line = 0;
	char why[300];
	int rc = 0;
	struct ts_table *t = NULL;
	long *colmap = NULL;     /* position in the columns line -> table column */
	size_t ncolmap = 0;
	struct bl_partial p;
	bl_partial_init(&p);
	why[0] = '\0';
	rc = read_csv_record(f, &rec, &line, &buf, &cap);
	if (rc != 0 || rec.n != 2 || strcmp(rec.v[0], "benchlog-stats-partials") != 0 ||
	    strcmp(rec.v[1], "1") != 0) {
		snprintf(why, sizeof why, "not a benchlog stats partial file (first line must be 'benchlog-stats-partials,1')");
		rc = -BL_EFORMAT;
		goto out;
	}
	for (;;) {
		unsigned long at = line + 1;
		rc = read_csv_record(f, &rec, &line, &buf, &cap);
		if (rc == 1) {
			rc = 0;
			break;
		}
		if (rc < 0) {
			snprintf(why, sizeof why, "malformed CSV line");
			line = at;
			break;
		}
		const char *kw = rec.v[0];
		if (strcmp(kw, "table") == 0 && rec.n == 2) {
			struct partial_head h = { ts, f, &rec, &line, &buf, &cap, why, sizeof why, &t,
						  &colmap, &ncolmap };
			if ((rc = partial_table(&h)) != 0)
				break;
			continue;
		}
		if (strcmp(kw, "cell") != 0 || !colmap) {
			snprintf(why, sizeof why, "expected 'table,…' or 'cell,…', got '%.40s'", kw);
			line = at;
			rc = -BL_EFORMAT;
			break;
		}
		size_t need = (t ? t->ng : rec.n - 2) + 2;
		if (rec.n != need) {
			snprintf(why, sizeof why, "cell line has %s, want %zu", BL_COUNT(rec.n, "field"), need);
			line = at;
			rc = -BL_EFORMAT;
			break;
		}
		unsigned long pl = 0;
		int prc = bl_partial_read(f, &p, &pl, why, sizeof why);
		if (prc != 0) {
			if (prc == 1)
				snprintf(why, sizeof why, "a partial must follow 'cell,…'");
			line += pl;
			rc = prc == 1 ? -BL_EFORMAT : prc;
			break;
		}
		line += pl;
		if (!t)
			continue;
		long c = -1;
		for (size_t k = 0; k < ncolmap; k++)
			if (colmap[k] >= 0 && strcmp(t->col[colmap[k]].name, rec.v[rec.n - 1]) == 0)
				c = colmap[k];
		if (c < 0) {
			snprintf(why, sizeof why, "cell column '%.40s' is not in the columns line", rec.v[rec.n - 1]);
			line = at;
			rc = -BL_EFORMAT;
			break;
		}
		if (!t->col[c].wanted)
			continue;
		struct ts_group *g = group_get(ts, t, (const char *const *)rec.v + 1);
		if (!g)
			continue;
		struct ts_cell *cell = cell_get(t, g, (size_t)c);
		if (!cell->p) {
			cell->p = bl_xmalloc(sizeof *cell->p);
			bl_partial_init(cell->p);
		}
		bl_partial_merge(cell->p, &p);
		t->col[c].nnum += p.w.n;
	}
out:
	if (rc < 0) {
		char where[4200];
		snprintf(where, sizeof where, "%s:%lu", path, line ? line : 1);
		bl_warn_at(ctx, where, "bad partial file", "%s", why);
		ctx->input_errors++;
	}
	bl_partial_release(&p);
	fields_release(&rec);
	free(buf);
	free(colmap);
	if (f != stdin)
		fclose(f);
	return rc;
}

/* ---- results ------------------------------------------------------------ */

static void finish_table(struct bl_tstats *ts, struct ts_table *t)
{
	FILE *diag = ts->quiet ? NULL : ts->ctx->diag;
	free(t->order);
	t->order = bl_xcalloc(t->ncol ? t->ncol : 1, sizeof *t->order);
	t->norder = 0;
	if (t->skip)
		return;
	if (ts->o->ncols) {
		for (size_t i = 0; i < ts->o->ncols; i++) {
			long c = col_index(t, ts->o->cols[i]);
			if (c >= 0 && t->col[c].nnum > 0 && !in_list(t->gname, t->ng, t->col[c].name))
				t->order[t->norder++] = (size_t)c;
		}
	} else {
		for (size_t c = 0; c < t->ncol; c++) {
			struct ts_col *col = &t->col[c];
			if (!col->wanted || col->hidden || col->nnum == 0)
				continue;
			if (col->ntext > 0) {
				if (diag)
					bl_term_printf(diag, "benchlog: note: table %s, column '%s' left out: %s %s "
						"(first '%s' at %s); name it with -c to use its numbers\n",
						t->name, col->name, BL_COUNT(col->ntext, "value"),
						col->ntext == 1 ? "is not a number" : "are not numbers", col->first_text,
						col->first_where);
				continue;
			}
			t->order[t->norder++] = c;
		}
	}
	for (size_t c = 0; c < t->ncol; c++) {
		struct ts_col *col = &t->col[c];
		if (col->requested && col->ntext > col->warned && diag)
			bl_term_printf(diag, "benchlog: note: table %s, column '%s': %s %s "
				"and %s left out\n", t->name, col->name, BL_COUNT(col->ntext, "value"),
				col->ntext == 1 ? "is not a number" : "are not numbers", col->ntext == 1 ? "was" : "were");
	}
}

static void finish(struct bl_tstats *ts)
{
	/* by_source: the input has ended, and the message read with it */
	held_put(ts, NULL, UNIT_THREAD);
	free(ts->msg_src);
	ts->msg_src = NULL;
	if (ts->finished)
		return;
	ts->finished = true;
	for (size_t i = 0; i < ts->ntab; i++)
		finish_table(ts, ts->tab[i]);
	/* a -c name no table has is most likely a typo: say so */
	for (size_t k = 0; k < ts->o->ncols && ts->ctx->diag && !ts->quiet; k++) {
		bool found = false;
		for (size_t i = 0; i < ts->ntab && !found; i++)
			found = col_index(ts->tab[i], ts->o->cols[k]) >= 0;
		if (!found && ts->ntab)
			bl_term_printf(ts->ctx->diag, "benchlog: note: no table in the input has a column '%s'\n",
				ts->o->cols[k]);
	}
}

/* Listed tables: not skipped, with at least one listed column. */
static struct ts_table *tab_at(struct bl_tstats *ts, size_t i)
{
	finish(ts);
	for (size_t k = 0; k < ts->ntab; k++)
		if (!ts->tab[k]->skip && ts->tab[k]->norder > 0 && i-- == 0)
			return ts->tab[k];
	return NULL;
}

size_t bl_tstats_ntables(const struct bl_tstats *cts)
{
	struct bl_tstats *ts = (struct bl_tstats *)cts;
	size_t n = 0;
	while (tab_at(ts, n))
		n++;
	return n;
}

const char *bl_tstats_table(const struct bl_tstats *ts, size_t t)
{
	return tab_at((struct bl_tstats *)ts, t)->name;
}

const struct bl_table_def *bl_tstats_def(const struct bl_tstats *ts, size_t t)
{
	return table_def(tab_at((struct bl_tstats *)ts, t));
}

enum bl_better bl_tstats_better(const struct bl_tstats *ts, size_t t, const char *column)
{
	const struct bl_table_def *d = bl_tstats_def(ts, t);
	const struct bl_col_def *c = bl_table_coldef(d, column);
	if (c)
		return c->better;
	/* R1b: a guess from the name of a column no definition covers */
	static const char *const higher_suf[] = { "_per_s", "_ops", "_mbps", NULL };
	static const char *const higher_sub[] = { "throughput", "bandwidth", "allocated" };
	static const char *const lower_suf[] = { "_s", "_ms", "_us", "_ns", "_faults", NULL };
	if (bl_ends_any(column, higher_suf, true))
		return BL_BETTER_HIGHER;
	for (size_t i = 0; i < sizeof higher_sub / sizeof higher_sub[0]; i++)
		if (bl_contains_ci(column, strlen(column), higher_sub[i]))
			return BL_BETTER_HIGHER;
	if (bl_ends_any(column, lower_suf, true))
		return BL_BETTER_LOWER;
	return bl_contains_ci(column, strlen(column), "latency") ? BL_BETTER_LOWER : BL_BETTER_NONE;
}

size_t bl_tstats_ngcols(const struct bl_tstats *ts, size_t t)
{
	return tab_at((struct bl_tstats *)ts, t)->ng;
}

const char *bl_tstats_gcol(const struct bl_tstats *ts, size_t t, size_t k)
{
	return tab_at((struct bl_tstats *)ts, t)->gname[k];
}

size_t bl_tstats_ngroups(const struct bl_tstats *ts, size_t t)
{
	return tab_at((struct bl_tstats *)ts, t)->ngrp;
}

const char *bl_tstats_thread_ref(const struct bl_tstats *cts, const char *key, const char **thread)
{
	struct bl_tstats *ts = (struct bl_tstats *)cts;
	size_t i, at[2] = { 0, 0 };
	const char *unit = key ? strchr(key, '\x1f') : NULL;
	if (thread)
		*thread = key;
	if (!ts || !key || strncmp(key, "thread: ", 8) != 0)
		return NULL;
	if (unit) {   /* a message's own unit: the thread, then the message */
		char *k = bl_xstrndup(key, (size_t)(unit - key));
		size_t kt = bl_strmap_get(&ts->thr_got, k, NULL);
		size_t kr = bl_strmap_get(&ts->thr_got, strrchr(key, '\x1f') + 1, NULL);
		free(k);
		if (thread)
			*thread = ts->thr_got.key[kt];
		return ts->thr_got.key[kr];
	}
	if (bl_index_get(&ts->threads, key, strlen(key), &i) ||
	    bl_store_get(&ts->thr_at, i * sizeof at, at, sizeof at) || !at[1])
		return NULL;   /* a key no thread has */
	char *ref = bl_xmalloc(at[1] + 1);
	ref[at[1]] = '\0';
	i = bl_store_get(&ts->thr_text, at[0], ref, at[1]) ? SIZE_MAX : bl_strmap_get(&ts->thr_got, ref, NULL);
	free(ref);
	return i == SIZE_MAX ? NULL : ts->thr_got.key[i];
}

const char *bl_tstats_gval(const struct bl_tstats *ts, size_t t, size_t g, size_t k)
{
	struct ts_table *tb = tab_at((struct bl_tstats *)ts, t);
	struct ts_group *gr = group_at((struct bl_tstats *)ts, tb, g);
	return gr ? gr->key[k] : "";
}

size_t bl_tstats_ncols(const struct bl_tstats *ts, size_t t)
{
	return tab_at((struct bl_tstats *)ts, t)->norder;
}

const char *bl_tstats_col(const struct bl_tstats *ts, size_t t, size_t c)
{
	struct ts_table *tb = tab_at((struct bl_tstats *)ts, t);
	return tb->col[tb->order[c]].name;
}

unsigned long bl_tstats_quoted_left_out(const struct bl_tstats *ts)
{
	return ts->quoted_out;
}

unsigned long bl_tstats_since_boot_left_out(const struct bl_tstats *ts)
{
	return ts->since_boot_out;
}

unsigned long bl_tstats_failed_left_out(const struct bl_tstats *ts)
{
	return ts->failed_out;
}

long bl_tstats_find_col(const struct bl_tstats *ts, size_t t, const char *name)
{
	struct ts_table *tb = tab_at((struct bl_tstats *)ts, t);
	long c = col_index(tb, name);
	if (c < 0 || !tb->col[c].wanted)
		return -1;
	return c;
}

/* Cell c in table-column terms: callers pass bl_tstats_find_col() indexes
 * or, through cell_of_listed(), listed ones. */
static struct ts_cell *cell_at(struct bl_tstats *ts, struct ts_table *t, size_t g, long c)
{
	if (c < 0 || g >= t->ngrp)
		return NULL;
	struct ts_group *gr = group_at(ts, t, g);
	if (!gr)
		return NULL;
	if ((size_t)c >= gr->ncell)
		return NULL;
	struct ts_cell *cell = &gr->cell[c];
	return cell->d || cell->p ? cell : NULL;
}

bool bl_tstats_cell(struct bl_tstats *ts, size_t t, size_t g, long c,
		    const double *p, size_t npct, enum bl_pct_rule rule,
		    struct bl_cellstat *out, double *pct)
{
	struct ts_cell *cell = cell_at(ts, tab_at(ts, t), g, c);
	if (!cell)
		return false;
	if (cell->d) {
		out->w = *bl_dist_welford(cell->d);
		out->exact = bl_dist_is_exact(cell->d);
		out->rejected = bl_dist_rejected(cell->d);
		out->collapsed = bl_dist_collapsed(cell->d);
	} else {
		out->w = cell->p->w;
		/* D11: the first and last order statistics are exact, so with
		 * two values or fewer every percentile is */
		out->exact = cell->p->w.n <= 2;
		out->rejected = cell->p->rejected;
		out->collapsed = cell->p->sk.collapsed;
	}
	out->sd = bl_welford_sd(&out->w);
	const struct bl_table_def *def = table_def(tab_at(ts, t));
	out->ci95 = def && def->time_series ? NAN : bl_ci_half(out->sd, out->w.n, 0.95);   /* D5 */
	for (size_t i = 0; i < npct; i++)
		pct[i] = cell->d ? bl_dist_percentile(cell->d, p[i], rule)
			: bl_partial_percentile(cell->p, p[i], rule);
	return true;
}

bool bl_tstats_cell_log(struct bl_tstats *ts, size_t t, size_t g, long c, struct bl_welford *lw)
{
	struct ts_cell *cell = cell_at(ts, tab_at(ts, t), g, c);
	bl_welford_init(lw);
	return cell && cell->d && bl_dist_log_welford(cell->d, lw) == 0 && lw->n > 0;
}

/* Histogram of a cell over nbins equal-width bins from min to max (one
 * bin when min = max) into edges[0..nbins] and counts[0..nbins); *used
 * gets the number of bins filled. Exact when the cell's percentiles are. */
static int cell_histogram(struct bl_tstats *ts, size_t t, size_t g, long c, size_t nbins,
			  double *edges, unsigned long long *counts, size_t *used)
{
	struct ts_cell *cell = cell_at(ts, tab_at(ts, t), g, c);
	*used = 0;
	if (!cell || nbins == 0)
		return 0;
	const struct bl_welford *w = cell->d ? bl_dist_welford(cell->d) : &cell->p->w;
	if (w->n == 0)
		return 0;
	size_t nb = w->min == w->max ? 1 : nbins;
	for (size_t i = 0; i < nb; i++)
		edges[i] = w->min + (w->max - w->min) * (double)i / (double)nb;
	edges[nb] = w->max;
	*used = nb;
	return cell->d ? bl_dist_histogram(cell->d, edges, nb, counts)
		: bl_partial_histogram(cell->p, edges, nb, counts);
}

/* ---- `benchlog stats` output ------------------------------------------- */

/* CSV output is one table for every benchlog table: its group columns
 * are the union of theirs, in order of appearance. */
struct gunion {
	const char **name;
	size_t n;
};

static void gunion_build(struct bl_tstats *ts, struct gunion *u)
{
	size_t nt = bl_tstats_ntables(ts);
	u->name = NULL;
	u->n = 0;
	for (size_t ti = 0; ti < nt; ti++) {
		struct ts_table *t = tab_at(ts, ti);
		for (size_t k = 0; k < t->ng; k++) {
			size_t j = 0;
			while (j < u->n && strcmp(u->name[j], t->gname[k]) != 0)
				j++;
			if (j == u->n) {
				u->name = bl_xrealloc(u->name, (u->n + 1) * sizeof *u->name);
				u->name[u->n++] = t->gname[k];
			}
		}
	}
}

/* Header of the result table up to "column": CSV gets the table name and
 * the union of group columns, text and Markdown the table's own. */
static void head_prefix(struct bl_outtab *tab, const struct ts_table *t, const struct gunion *u)
{
	if (u) {
		bl_outtab_col(tab, "table", false);
		for (size_t k = 0; k < u->n; k++)
			bl_outtab_col(tab, u->name[k], false);
	} else {
		for (size_t k = 0; k < t->ng; k++)
			bl_outtab_col(tab, t->gname[k], false);
	}
	bl_outtab_col(tab, "column", false);
}

/* A new row with the cells of head_prefix set, for the group of key
 * values key; returns the next column. */
static size_t row_prefix(struct bl_outtab *tab, const struct ts_table *t, char *const *key, size_t c,
			 const struct gunion *u)
{
	bl_outtab_row(tab);
	size_t col = 0;
	if (u) {
		bl_outtab_set(tab, col++, t->name);
		for (size_t j = 0; j < u->n; j++) {
			for (size_t k = 0; k < t->ng; k++)
				if (strcmp(t->gname[k], u->name[j]) == 0)
					bl_outtab_set(tab, col, key[k]);
			col++;
		}
	} else {
		for (size_t k = 0; k < t->ng; k++, col++)
			bl_outtab_set(tab, col, key[k][0] ? key[k] : NULL);
	}
	bl_outtab_set(tab, col++, t->col[c].name);
	return col;
}

/* The percentile cells of a row from col on: left out where n does not
 * support them (D3a; true then), marked \u2248 in text where the sketch
 * estimated them (D11). */
static bool set_pcts(struct bl_outtab *tab, size_t col, const struct bl_cellstat *cs,
		     const double *pv, const struct bl_tstats_out *o)
{
	bool thin = false;
	char b[40];
	for (size_t i = 0; i < o->npct; i++, col++) {
		if (cs->w.n && !bl_pct_supported(cs->w.n, o->pcts[i])) {
			bl_outtab_set(tab, col, NULL);
			thin = true;
		} else if (!cs->exact && o->fmt != BL_TAB_CSV && !isnan(pv[i])) {
			bl_outtab_setf(tab, col, "\u2248%s", bl_outtab_num(b, sizeof b, pv[i], o->fmt));
		} else {
			bl_outtab_setnum(tab, col, pv[i], o->fmt);
		}
	}
	return thin;
}

/* "== table WHAT ==" (text) or "### table WHAT" (Markdown), after a blank
 * line when not the first. */
static void table_heading(FILE *f, const struct ts_table *t, enum bl_tabfmt fmt, bool blank, const char *what)
{
	if (blank)
		fputc('\n', f);
	struct bl_esc_ring er = BL_ESC_RING_INIT;   /* a name from a CSV file */
	fprintf(f, fmt == BL_TAB_MD ? "### %s%s\n\n" : "== %s%s ==\n\n", bl_esc_doc(&er, t->name, fmt == BL_TAB_MD), what);
	bl_esc_ring_release(&er);
}

static int write_summary(struct bl_tstats *ts, FILE *f, const struct bl_tstats_out *o)
{
	bool csv = o->fmt == BL_TAB_CSV;
	size_t nt = bl_tstats_ntables(ts);
	double *pv = bl_xcalloc(o->npct ? o->npct : 1, sizeof *pv);
	struct bl_outtab tab;
	bl_outtab_init(&tab);
	int rc = 0;
	char name[48];
	struct gunion u;
	gunion_build(ts, &u);
	for (size_t ti = 0; ti < nt; ti++) {
		struct ts_table *t = tab_at(ts, ti);
		if (!csv || ti == 0) {
			bl_outtab_init(&tab);
			head_prefix(&tab, t, csv ? &u : NULL);
			bl_outtab_col(&tab, "n", true);
			bl_outtab_col(&tab, "mean", true);
			bl_outtab_col(&tab, "sd", true);
			bl_outtab_col(&tab, "ci95", true);
			bl_outtab_col(&tab, "min", true);
			for (size_t i = 0; i < o->npct; i++) {
				snprintf(name, sizeof name, "p%g", o->pcts[i]);
				bl_outtab_col(&tab, name, true);
			}
			bl_outtab_col(&tab, "max", true);
			bl_outtab_col(&tab, "pct", false);
			if (csv) {
				bl_outtab_col(&tab, "rejected", true);
				bl_outtab_col(&tab, "collapsed", true);
			}
		}
		if (!csv)
			table_heading(f, t, o->fmt, ti > 0, "");
		const struct bl_table_def *def = table_def(t);
		bool sketch = false, thin = false, series = false;
		unsigned long long rejected = 0, collapsed = 0;
		for (size_t c = 0; c < t->norder; c++) {
			for (size_t g = 0; g < t->ngrp; g++) {
				struct bl_cellstat cs;
				if (!bl_tstats_cell(ts, ti, g, (long)t->order[c], o->pcts, o->npct, o->rule, &cs, pv))
					continue;
				if (cs.w.n == 0 && cs.rejected == 0)
					continue;
				size_t col = row_prefix(&tab, t, t->last->key, t->order[c], csv ? &u : NULL);
				bl_outtab_setf(&tab, col++, "%llu", cs.w.n);
				bl_outtab_setnum(&tab, col++, bl_welford_mean(&cs.w), o->fmt);
				bl_outtab_setnum(&tab, col++, cs.sd, o->fmt);
				bl_outtab_setnum(&tab, col++, cs.ci95, o->fmt);
				bl_outtab_setin(&tab, col++, cs.w.n ? cs.w.min : NAN, o->fmt);
				thin |= set_pcts(&tab, col, &cs, pv, o);
				col += o->npct;
				bl_outtab_setin(&tab, col++, cs.w.n ? cs.w.max : NAN, o->fmt);
				/* D11: values folded into the lowest bucket are
				 * counted beside the percentiles they spoil */
				if (cs.collapsed && !csv)
					bl_outtab_setf(&tab, col++, "sketch, %llu collapsed", cs.collapsed);
				else
					bl_outtab_set(&tab, col++, cs.w.n == 0 ? NULL : cs.exact ? "exact" : "sketch");
				if (csv) {
					bl_outtab_setf(&tab, col++, "%llu", cs.rejected);
					bl_outtab_setf(&tab, col++, "%llu", cs.collapsed);
				}
				sketch |= cs.w.n > 0 && !cs.exact;
				series |= def && def->time_series && cs.w.n >= 2;
				rejected += cs.rejected;
				collapsed += cs.collapsed;
				if (tab.nrows == TS_PAGE && !rc) {   /* T4a: a page of rows in memory */
					rc = bl_outtab_flush(&tab, f, o->fmt);
					if (!csv)
						fputc('\n', f);
				}
			}
		}
		if (csv)
			continue;
		if (!rc)
			rc = bl_outtab_write(&tab, f, o->fmt);
		bl_outtab_release(&tab);
		if (sketch || rejected || thin || series)
			fputc('\n', f);
		if (series)
			fprintf(f, "ci95: none for %s, whose rows are samples of a time series: a Student-t "
				"interval would take them as independent (D5); %s.\n", t->name, def->time_series);
		if (sketch)
			fprintf(f, "pct: \"exact\" percentiles use every value (D3, %s); \"sketch\" ones, "
				"marked \u2248, are estimated from the log-bucketed sketch (more than %u values in "
				"the column, more than %zu kept over all columns, or merged partials) and are "
				"within 1%% of the exact value (D11).\n",
				o->rule == BL_PCT_NEAREST_RANK ? "nearest rank" : "type 7",
				BL_DIST_EXACT_MAX, (size_t)BL_DIST_BUDGET);
		if (thin)
			fprintf(f, "-: a percentile p is shown only when n min(p, 100 - p) / 100 >= 1 (p90 "
				"needs n >= 10, p95 20, p99 100): with fewer values it would restate the largest "
				"or smallest ones (D3a).\n");
		if (rejected)
			fprintf(f, "%s %s NaN or infinite and %s not counted (D0).\n", BL_COUNT(rejected, "value"),
				rejected == 1 ? "was" : "were", rejected == 1 ? "is" : "are");
		if (collapsed)
			fprintf(f, "%s %s more than 2048 sketch buckets (a ratio of 6e17) below the "
				"largest and %s merged into the lowest bucket: a percentile among them is "
				"not within 1%% (D11).\n", BL_COUNT(collapsed, "value"), collapsed == 1 ? "lies" : "lie",
				collapsed == 1 ? "was" : "were");
	}
	if (csv) {
		if (!rc)
			rc = bl_outtab_write(&tab, f, o->fmt);
		bl_outtab_release(&tab);
	}
	free(pv);
	free(u.name);
	return rc ? rc : ferror(f) ? -BL_EIO : 0;
}

static int write_histogram(struct bl_tstats *ts, FILE *f, const struct bl_tstats_out *o)
{
	bool csv = o->fmt == BL_TAB_CSV;
	size_t nt = bl_tstats_ntables(ts);
	double *edges = bl_xcalloc(o->bins + 1, sizeof *edges);
	unsigned long long *counts = bl_xcalloc(o->bins, sizeof *counts);
	struct bl_outtab tab;
	bl_outtab_init(&tab);
	struct gunion u;
	gunion_build(ts, &u);
	for (size_t ti = 0; ti < nt; ti++) {
		struct ts_table *t = tab_at(ts, ti);
		if (!csv || ti == 0) {
			bl_outtab_init(&tab);
			head_prefix(&tab, t, csv ? &u : NULL);
			bl_outtab_col(&tab, "bin", true);
			bl_outtab_col(&tab, "from", true);
			bl_outtab_col(&tab, "to", true);
			bl_outtab_col(&tab, "count", true);
			bl_outtab_col(&tab, csv ? "counts" : "", false);   /* CSV: exact or sketch; text: a bar */
		}
		bool sketch = false;
		for (size_t c = 0; c < t->norder; c++) {
			for (size_t g = 0; g < t->ngrp; g++) {
				size_t used = 0;
				struct bl_cellstat cs;
				if (!bl_tstats_cell(ts, ti, g, (long)t->order[c], NULL, 0, o->rule, &cs, NULL))
					continue;
				cell_histogram(ts, ti, g, (long)t->order[c], o->bins, edges, counts, &used);
				unsigned long long maxc = 0;
				for (size_t b = 0; b < used; b++)
					if (counts[b] > maxc)
						maxc = counts[b];
				sketch |= used && !cs.exact;
				for (size_t b = 0; b < used; b++) {
					size_t col = row_prefix(&tab, t, t->last->key, t->order[c], csv ? &u : NULL);
					bl_outtab_setf(&tab, col++, "%zu", b + 1);
					bl_outtab_setnum(&tab, col++, edges[b], o->fmt);
					bl_outtab_setnum(&tab, col++, edges[b + 1], o->fmt);
					bl_outtab_setf(&tab, col++, "%llu", counts[b]);
					if (csv) {
						bl_outtab_set(&tab, col++, cs.exact ? "exact" : "sketch");
					} else {
						size_t w = maxc ? (size_t)llround(40.0 * (double)counts[b] / (double)maxc) : 0;
						if (counts[b] && w == 0)
							w = 1;
						char bar[48];
						memset(bar, '#', w);
						bar[w] = '\0';
						bl_outtab_set(&tab, col++, bar);
					}
				}
			}
		}
		if (csv)
			continue;
		char what[48];
		snprintf(what, sizeof what, ": histogram, %zu bins", o->bins);
		table_heading(f, t, o->fmt, true, what);
		bl_outtab_write(&tab, f, o->fmt);
		bl_outtab_release(&tab);
		fprintf(f, "\nBins are [from, to), the last one [from, to]; equal widths from min to max "
			"(one bin when all values are equal).%s\n",
			sketch ? " Counts of \"sketch\" cells come from the D11 sketch: values within 1% of an "
				 "edge may be counted in the neighbouring bin." : "");
	}
	int rc = 0;
	if (csv) {
		rc = bl_outtab_write(&tab, f, o->fmt);
		bl_outtab_release(&tab);
	}
	free(edges);
	free(counts);
	free(u.name);
	return rc ? rc : ferror(f) ? -BL_EIO : 0;
}

int bl_tstats_write(struct bl_tstats *ts, FILE *f, const struct bl_tstats_out *o)
{
	finish(ts);
	if (o->fmt == BL_TAB_CSV && o->bins)
		return write_histogram(ts, f, o);
	int rc = write_summary(ts, f, o);
	if (!rc && o->bins)
		rc = write_histogram(ts, f, o);
	return rc ? rc : spill_failed(ts) ? -BL_EIO : 0;
}
