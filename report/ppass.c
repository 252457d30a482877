/* ppass.c — parallel parse pass with ordered replay (see ppass.h). */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "parsers/dispatch.h"
#include "input/reader.h"
#include "core/pool.h"
#include "core/strmap.h"
#include "core/util.h"
#include "report/ppass.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#define LEFT_TO_JOB(p) __lsan_ignore_object(p)
#else
#define LEFT_TO_JOB(p) ((void)(p))
#endif

/* ---- the log of one input ---- */

struct lrec {
	const struct bl_table_def *table;
	const char *source;
	unsigned long line;
	const struct bl_msg *msg;
	int quoted;
	const char *group;
	const char *group_source;    /* static string (core/ctx.h) */
	long run;
	struct bl_val v[];           /* table->ncols values */
};

/* The logged record l as a record to emit: table, provenance and values
 * (run left to the caller, which numbers it). Returns the values copied. */
static size_t lrec_record(const struct lrec *l, struct bl_record *r)
{
	r->table = l->table;
	r->source = l->source;
	r->line = l->line;
	r->msg = l->msg;
	r->quoted = l->quoted;
	r->group = l->group;
	r->group_source = l->group_source;
	size_t nv = l->table->ncols < BL_MAX_COLS ? l->table->ncols : BL_MAX_COLS;
	memcpy(r->v, l->v, nv * sizeof r->v[0]);
	return nv;
}

struct lskip {
	const char *source;
	unsigned long line;
	const struct bl_msg *msg;
	int quoted;
	const char *group;
	const char *reason;
	const char *text;
	size_t len;
};

struct job {
	const char *path;            /* borrowed from the expanded path list */
	unsigned long long bytes;
	struct ppass *pp;
	bool done;                   /* parsed; guarded by pp->mu */
	size_t mem;                  /* bytes its log holds, once parsed */

	void **owned;                /* what the log allocated: records, strings */
	size_t nowned, capowned;
	struct lrec **recs;
	size_t nrecs, caprecs;
	struct lskip *skips;
	size_t nskips, capskips;
	/* intern caches (content-compared: parser pointers are reused) */
	const char *last_group;
	struct bl_msg *last_msg;
	const char **reasons;
	size_t nreasons;

	char *diag;                  /* the file's warnings, as printed */
	size_t diaglen;
	unsigned long total, used, skipped, records, input_errors;
	int error;
	struct bl_count *warns;
	size_t nwarns;

	struct bl_ctx *ctx;          /* while parsing */
	volatile sig_atomic_t *stop;
};

/* n bytes the log owns (freed by job_free()). */
static void *job_alloc(struct job *j, size_t n)
{
	void *p = bl_xmalloc(n);
	j->owned = bl_xgrow(j->owned, &j->capowned, j->nowned + 1, sizeof *j->owned);
	j->owned[j->nowned++] = p;
	j->mem += n;
	return p;
}

static char *job_strndup(struct job *j, const char *s, size_t n)
{
	char *p = job_alloc(j, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static char *job_strdup(struct job *j, const char *s)
{
	return job_strndup(j, s, strlen(s));
}

static bool stopped(volatile sig_atomic_t *stop)
{
	return stop && *stop;
}

static const char *intern_group(struct job *j, const char *g)
{
	if (!g)
		g = "";
	if (j->last_group && strcmp(j->last_group, g) == 0)
		return j->last_group;
	j->last_group = job_strdup(j, g);
	return j->last_group;
}

static bool same_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

static const struct bl_msg *intern_msg(struct job *j, const struct bl_msg *m)
{
	if (!m)
		return NULL;
	struct bl_msg *c = j->last_msg;
	if (c && c->index == m->index && same_str(c->message_id, m->message_id) &&
	    same_str(c->date, m->date) && same_str(c->subject, m->subject))
		return c;
	c = job_alloc(j, sizeof *c);
	c->message_id = job_strdup(j, m->message_id ? m->message_id : "");
	c->date = job_strdup(j, m->date ? m->date : "");
	c->subject = job_strdup(j, m->subject ? m->subject : "");
	c->index = m->index;
	j->last_msg = c;
	return c;
}

static const char *intern_source(struct job *j, const char *s)
{
	if (!s || strcmp(s, j->path) == 0)
		return j->path;
	return job_strdup(j, s);
}

static const char *intern_reason(struct job *j, const char *r)
{
	if (!r)
		r = "";
	for (size_t i = 0; i < j->nreasons; i++)
		if (strcmp(j->reasons[i], r) == 0)
			return j->reasons[i];
	j->reasons = bl_xrealloc(j->reasons, (j->nreasons + 1) * sizeof *j->reasons);
	return j->reasons[j->nreasons++] = job_strdup(j, r);
}

static int log_record(void *ud, const struct bl_record *r)
{
	struct job *j = ud;
	if (stopped(j->stop))
		return -BL_EINTR;
	size_t nv = r->table->ncols < BL_MAX_COLS ? r->table->ncols : BL_MAX_COLS;
	struct lrec *l = job_alloc(j, sizeof *l + nv * sizeof l->v[0]);
	l->table = r->table;
	l->source = intern_source(j, r->source);
	l->line = r->line;
	l->msg = intern_msg(j, r->msg);
	l->quoted = r->quoted;
	l->group = intern_group(j, r->group);
	l->group_source = r->group_source;
	l->run = r->run;
	for (size_t i = 0; i < nv; i++) {
		l->v[i] = r->v[i];
		if (r->v[i].t == BL_STR)
			l->v[i].u.s = job_strdup(j, r->v[i].u.s ? r->v[i].u.s : "");
	}
	if (j->nrecs == j->caprecs) {
		j->caprecs = j->caprecs ? 2 * j->caprecs : 64;
		j->recs = bl_xrealloc(j->recs, j->caprecs * sizeof *j->recs);
	}
	j->recs[j->nrecs++] = l;
	return 0;
}

static void log_skip(void *ud, const struct bl_line *ln, const char *reason)
{
	struct job *j = ud;
	if (stopped(j->stop) && j->ctx && !j->ctx->error)
		j->ctx->error = -BL_EINTR;
	if (j->nskips == j->capskips) {
		j->capskips = j->capskips ? 2 * j->capskips : 64;
		j->skips = bl_xrealloc(j->skips, j->capskips * sizeof *j->skips);
	}
	struct lskip *s = &j->skips[j->nskips++];
	const struct bl_ctx *c = j->ctx;
	s->source = intern_source(j, ln->source);
	s->line = ln->lineno;
	s->msg = intern_msg(j, ln->msg);
	s->quoted = ln->quote_depth;
	s->group = intern_group(j, c->opt.group ? c->opt.group : c->group);
	s->reason = intern_reason(j, reason);
	s->text = job_strndup(j, ln->text ? ln->text : "", ln->text ? ln->len : 0);
	s->len = ln->text ? ln->len : 0;
}

/* Parse one input into its log (worker thread). */
static void parse_job(struct job *j, const struct bl_opts *opt, unsigned long long *bytes_read)
{
	struct bl_ctx c;
	bl_ctx_init(&c, opt);
	c.diag = open_memstream(&j->diag, &j->diaglen);
	if (!c.diag) {
		fprintf(stderr, "benchlog: out of memory\n");
		abort();
	}
	struct bl_sink s = { log_record, NULL, NULL, j };
	bl_ctx_add_sink(&c, &s);
	c.bytes_read = bytes_read;   /* progress within the file */
	c.skip.skipped = log_skip;
	c.skip.ud = j;
	j->ctx = &c;
	if (bl_dispatch_open(&c) == 0) {
		bl_read_input(&c, j->path);
		bl_dispatch_close(&c);
	} else {
		c.error = -BL_EUSAGE;
	}
	j->ctx = NULL;
	fclose(c.diag);
	c.diag = NULL;
	j->total = c.lines_total;
	j->used = c.lines_used;
	j->skipped = c.lines_skipped;
	j->records = c.records;
	j->input_errors = c.input_errors;
	j->error = c.error;
	j->warns = c.warns;          /* take the warning counts over */
	j->nwarns = c.nwarns;
	c.warns = NULL;
	c.nwarns = 0;
	bl_ctx_release(&c);
	j->mem += j->caprecs * sizeof *j->recs + j->capskips * sizeof *j->skips + j->diaglen;
}

static void job_free(struct job *j)
{
	for (size_t i = 0; i < j->nowned; i++)
		free(j->owned[i]);
	free(j->owned);
	j->owned = NULL;
	j->nowned = j->capowned = 0;
	free(j->recs);
	free(j->skips);
	free(j->reasons);
	free(j->diag);
	for (size_t i = 0; i < j->nwarns; i++)
		free(j->warns[i].reason);
	free(j->warns);
	j->recs = NULL;
	j->skips = NULL;
	j->reasons = NULL;
	j->diag = NULL;
	j->warns = NULL;
	j->nrecs = j->nskips = j->nreasons = j->nwarns = 0;
}

/* ---- the pass: inputs parsed as jobs on the pool ---- */

/* How far the parsing runs ahead of the in-order replay: at most
 * PPASS_WINDOW inputs per worker, and no further once the parsed inputs
 * not yet replayed hold PPASS_AHEAD_BYTES (measured, so a .gz or a pipe
 * counts what it really holds; the next input the replay needs is
 * always allowed). With a window of 4 inputs a worker waited about 2,800
 * times on the 10,000-file bench folder; with 64 it hardly waits. */
#define PPASS_WINDOW 64
#define PPASS_AHEAD_BYTES ((size_t)32 << 20)

struct ppass {
	pthread_mutex_t mu;
	pthread_cond_t done;         /* a job was parsed */
	struct job *jobs;
	size_t n;
	size_t next;                 /* next job to submit */
	size_t replayed;             /* jobs replayed (and freed) so far */
	size_t window;
	size_t held_mem;             /* logs parsed and not yet replayed */
	size_t inflight;             /* submitted, not yet parsed */
	struct bl_pool *pool;
	const struct bl_opts *opt;
	unsigned long files_done;
	unsigned long long bytes_done;
	unsigned long long bytes_read;   /* raw bytes read so far, files being
					    parsed included (atomic: workers add) */
};

/* A job on the pool: parse one input into its log. */
static void parse_one(void *arg)
{
	struct job *j = arg;
	struct ppass *pp = j->pp;
	if (!stopped(j->stop))
		parse_job(j, pp->opt, &pp->bytes_read);
	pthread_mutex_lock(&pp->mu);
	pp->held_mem += j->mem;
	j->done = true;
	pp->inflight--;
	pp->files_done++;
	pp->bytes_done += j->bytes;
	pthread_cond_broadcast(&pp->done);
	pthread_mutex_unlock(&pp->mu);
}

/* Submit inputs as far as the window and the memory bound allow. Without
 * workers each runs here, at once: parse, then replay, input by input. */
static void submit_ahead(struct ppass *pp, volatile sig_atomic_t *stop)
{
	for (;;) {
		pthread_mutex_lock(&pp->mu);
		bool go = pp->next < pp->n && pp->next < pp->replayed + pp->window &&
			  (pp->next == pp->replayed || pp->held_mem < PPASS_AHEAD_BYTES) && !stopped(stop);
		struct job *j = go ? &pp->jobs[pp->next++] : NULL;
		if (j)
			pp->inflight++;
		pthread_mutex_unlock(&pp->mu);
		if (!j)
			return;
		bl_pool_submit(pp->pool, parse_one, j);
	}
}

/* With pp->mu held: wait until a job is parsed, or at most 100 ms (the
 * caller then draws the progress line and looks for a stop). */
static void wait_done(struct ppass *pp)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += 100 * 1000 * 1000;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(&pp->done, &pp->mu, &ts);
}

/* After a stop: wait up to a second for the jobs still parsing. False
 * when one is still at it (blocked reading a pipe): then nothing of the
 * pass may be freed. */
static bool drain(struct ppass *pp)
{
	struct timespec dl;
	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += 1;
	pthread_mutex_lock(&pp->mu);
	int rc = 0;
	while (pp->inflight && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&pp->done, &pp->mu, &dl);
	bool drained = pp->inflight == 0;
	pthread_mutex_unlock(&pp->mu);
	return drained;
}

/* ---- progress ---- */

/* Bytes of the inputs read so far, within the files being parsed too
 * (one large file shows its progress); at least the sizes of the files
 * done. With pp->mu held. */
static unsigned long long bytes_so_far(struct ppass *pp)
{
	unsigned long long r = __atomic_load_n(&pp->bytes_read, __ATOMIC_RELAXED);
	return r > pp->bytes_done ? r : pp->bytes_done;
}

struct progress {
	bool on;
	struct timespec start, last;
	int width;                   /* characters on the line now */
};

static double since(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static void progress_clear(struct progress *pg)
{
	if (pg->width > 0) {
		fprintf(stderr, "\r%*s\r", pg->width, "");
		fflush(stderr);
		pg->width = 0;
	}
}

static void progress_draw(struct progress *pg, unsigned long done, size_t total,
			  unsigned long long bytes_done, unsigned long long bytes_total)
{
	if (!pg->on)
		return;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	double el = since(&pg->start, &now);
	/* nothing in the first second; then at most 4 lines a second */
	if (el < 1.0 || (pg->width > 0 && since(&pg->last, &now) < 0.25))
		return;
	pg->last = now;
	double rate = (double)bytes_done / 1e6 / el;
	double left = -1;
	if (bytes_total > 0 && bytes_done > 0)
		left = el * (double)(bytes_total - bytes_done) / (double)bytes_done;
	else if (done > 0)
		left = el * (double)(total - done) / (double)done;
	char eta[32] = "?";
	if (left >= 0) {
		unsigned long s = (unsigned long)(left + 0.5);
		snprintf(eta, sizeof eta, "%lu:%02lu", s / 60, s % 60);
	}
	/* "benchlog: 0/1 files, 120.3 of 250.0 MB (48%), 45.1 MB/s, 0:03 left" */
	char bytes[64];
	if (bytes_total > 0) {
		unsigned long long shown = bytes_done < bytes_total ? bytes_done : bytes_total;
		snprintf(bytes, sizeof bytes, "%.1f of %.1f MB (%d%%)", (double)shown / 1e6,
			 (double)bytes_total / 1e6, (int)(100.0 * (double)shown / (double)bytes_total));
	} else {
		snprintf(bytes, sizeof bytes, "%.1f MB", (double)bytes_done / 1e6);
	}
	char line[192];
	int w = snprintf(line, sizeof line, "benchlog: %lu/%zu files, %s, %.1f MB/s, %s left",
			 done, total, bytes, rate, eta);
	if (w < 0)
		return;
	if (w >= (int)sizeof line)
		w = (int)sizeof line - 1;
	fprintf(stderr, "\r%s%*s", line, pg->width > w ? pg->width - w : 0, "");
	fflush(stderr);
	pg->width = pg->width > w ? pg->width : w;
}

/* ---- replay ---- */

/* Counters a parser keeps across the whole pass in its own state (not in
 * the context's run numbering): columns whose definition gives them the
 * role BL_ROLE_COUNTER (vmstat's series). Every input's context starts
 * them at 1 again; on replay each is offset, like runs, by the highest
 * value earlier inputs gave it. Counter columns of the same name share one
 * counter (vmstat's and events' series are the same capture number). */
#define MAX_COUNTERS 8

struct counters {
	struct {
		const char *name;        /* the column's name */
		long long max;           /* highest value so far, offsets included */
		long long off, fmax;     /* of the input being replayed */
	} v[MAX_COUNTERS];
	size_t n;
};

/* The counter of column name, added when new (NULL when full). */
static size_t counter_of(struct counters *c, const char *name)
{
	for (size_t k = 0; k < c->n; k++)
		if (strcmp(c->v[k].name, name) == 0)
			return k;
	if (c->n == MAX_COUNTERS)
		return MAX_COUNTERS;
	c->v[c->n].name = name;
	c->v[c->n].max = c->v[c->n].off = c->v[c->n].fmax = 0;
	return c->n++;
}

/* The counter columns of t, each with its counter, into col[] and ctr[]
 * (at most MAX_COUNTERS); returns how many. */
static size_t counter_cols(struct counters *c, const struct bl_table_def *t, int *col, size_t *ctr)
{
	size_t n = 0;
	for (size_t i = 0; i < t->ncols && i < BL_MAX_COLS && n < MAX_COUNTERS; i++) {
		if (t->cols[i].role != BL_ROLE_COUNTER || t->cols[i].type != BL_INT)
			continue;
		size_t k = counter_of(c, t->cols[i].name);
		if (k < MAX_COUNTERS) {
			col[n] = (int)i;
			ctr[n++] = k;
		}
	}
	return n;
}

/* Runs are numbered per (group, run family): an mtest01/time run and a
 * ConTest run of the same group are counted apart (core/ctx.c). */
struct runmax {
	char *group;
	const char *family;          /* the table's run_family (static) */
	long max;                    /* highest run number */
	long off;                    /* local maps: the offset for this file */
};

struct runmap {
	struct runmax *v;
	size_t n, cap;
	/* The pass-wide map only: v[] indexed by family "\n" group (family
	 * names have no newline), so each input's lookups do not compare
	 * every group seen so far (3,000 groups in the 10,000-file folder:
	 * 7 % of the replaying thread's time went to strcmp). */
	struct bl_strmap *idx;
	char *kbuf;
	size_t kcap;
};

static struct runmax *runmap_get(struct runmap *m, const char *g, const char *family, bool create)
{
	if (!family)
		family = "";
	if (m->idx) {
		size_t fl = strlen(family), gl = strlen(g);
		if (fl + gl + 2 > m->kcap) {
			m->kcap = 2 * (fl + gl + 2);
			m->kbuf = bl_xrealloc(m->kbuf, m->kcap);
		}
		memcpy(m->kbuf, family, fl);
		m->kbuf[fl] = '\n';
		memcpy(m->kbuf + fl + 1, g, gl + 1);
		if (!create) {
			long i = bl_strmap_find(m->idx, m->kbuf);
			return i < 0 ? NULL : &m->v[i];
		}
		bool added;
		size_t i = bl_strmap_get(m->idx, m->kbuf, &added);
		if (!added)
			return &m->v[i];
	} else {
		for (size_t i = 0; i < m->n; i++)
			if (strcmp(m->v[i].group, g) == 0 && strcmp(m->v[i].family, family) == 0)
				return &m->v[i];
		if (!create)
			return NULL;
	}
	m->v = bl_xgrow(m->v, &m->cap, m->n + 1, sizeof *m->v);
	m->v[m->n].group = bl_xstrdup(g);
	m->v[m->n].family = family;
	m->v[m->n].max = 0;
	m->v[m->n].off = 0;
	return &m->v[m->n++];
}

static void runmap_free(struct runmap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].group);
	free(m->v);
	m->v = NULL;
	m->n = m->cap = 0;
	if (m->idx)
		bl_strmap_release(m->idx);
	free(m->kbuf);
	m->kbuf = NULL;
	m->kcap = 0;
}

static void set_group(struct bl_ctx *ctx, const char *g)
{
	if (ctx->group && strcmp(ctx->group, g) == 0)
		return;
	free(ctx->group);
	ctx->group = bl_xstrdup(g);
}


/* The skipped lines of one input, each with its group, into ctx. */
static void replay_skips(struct bl_ctx *ctx, const struct job *j)
{
	char *saved = ctx->group;
	ctx->group = NULL;
	for (size_t i = 0; i < j->nskips; i++) {
		const struct lskip *s = &j->skips[i];
		set_group(ctx, s->group);
		struct bl_line ln = { s->text, s->len, s->source, s->line, s->quoted, s->msg };
		bl_skip(ctx, &ln, s->reason);
	}
	free(ctx->group);
	ctx->group = saved;
}
/* Replay one job into ctx. keep: store the run numbers and counters as
 * emitted back into the log, for replay_side(). */
static int replay(struct bl_ctx *ctx, struct job *j, struct runmap *global,
		  struct counters *ctrs, struct progress *pg, bool keep)
{
	if (j->diaglen && ctx->diag) {
		progress_clear(pg);
		fwrite(j->diag, 1, j->diaglen, ctx->diag);
		fflush(ctx->diag);
	}
	ctx->lines_total += j->total;
	ctx->lines_used += j->used;
	ctx->input_errors += j->input_errors;
	FILE *diag = ctx->diag;
	ctx->diag = NULL;            /* count the warnings; their text is out */
	for (size_t i = 0; i < j->nwarns; i++)
		for (unsigned long k = 0; k < j->warns[i].n; k++)
			bl_warn_at(ctx, "", j->warns[i].reason, "%s", "");
	ctx->diag = diag;

	/* Run offsets: this file's runs of group G and family F continue
	 * after the highest run earlier files gave (G, F). */
	struct runmap local = { NULL, 0, 0, NULL, NULL, 0 };
	const char *lastg = NULL, *lastf = NULL;
	struct runmax *m = NULL;
	for (size_t i = 0; i < j->nrecs; i++) {
		const struct lrec *l = j->recs[i];
		if (l->run <= 0)
			continue;
		if (!m || l->group != lastg || l->table->run_family != lastf) {
			m = runmap_get(&local, l->group, l->table->run_family, true);
			lastg = l->group;
			lastf = l->table->run_family;
		}
		if (l->run > m->max)
			m->max = l->run;
	}
	for (size_t i = 0; i < local.n; i++) {
		struct runmax *g = runmap_get(global, local.v[i].group, local.v[i].family, true);
		local.v[i].off = g->max;
		if (g->max < local.v[i].off + local.v[i].max)
			g->max = local.v[i].off + local.v[i].max;
	}
	/* Pass-wide counters: this input's values continue after the highest
	 * earlier inputs gave. */
	for (size_t k = 0; k < ctrs->n; k++) {
		ctrs->v[k].off = ctrs->v[k].max;
		ctrs->v[k].fmax = 0;
	}
	const struct bl_table_def *lastt = NULL;
	int cols[MAX_COUNTERS];
	size_t ctr[MAX_COUNTERS], ncols = 0;
	int rc = 0;
	lastg = NULL;
	lastf = NULL;
	m = NULL;
	struct bl_record r;
	for (size_t i = 0; i < j->nrecs && !rc; i++) {
		struct lrec *l = j->recs[i];
		size_t nv = lrec_record(l, &r);
		r.run = 0;
		if (l->run > 0) {
			if (!m || l->group != lastg || l->table->run_family != lastf) {
				m = runmap_get(&local, l->group, l->table->run_family, false);
				lastg = l->group;
				lastf = l->table->run_family;
			}
			r.run = l->run + m->off;
		}
		if (l->table != lastt) {
			lastt = l->table;
			ncols = counter_cols(ctrs, lastt, cols, ctr);
		}
		for (size_t q = 0; q < ncols; q++) {
			struct bl_val *v = &r.v[cols[q]];
			if ((size_t)cols[q] >= nv || v->t != BL_INT)
				continue;
			if (v->u.i > ctrs->v[ctr[q]].fmax)
				ctrs->v[ctr[q]].fmax = v->u.i;
			v->u.i += ctrs->v[ctr[q]].off;
		}
		rc = bl_emit(ctx, &r);
		if (keep) {              /* for the side replay: the values as emitted */
			l->run = r.run;
			for (size_t q = 0; q < ncols; q++)
				if ((size_t)cols[q] < nv && r.v[cols[q]].t == BL_INT)
					l->v[cols[q]].u.i = r.v[cols[q]].u.i;
		}
	}
	for (size_t k = 0; k < ctrs->n; k++)
		if (ctrs->v[k].fmax && ctrs->v[k].off + ctrs->v[k].fmax > ctrs->v[k].max)
			ctrs->v[k].max = ctrs->v[k].off + ctrs->v[k].fmax;
	runmap_free(&local);
	if (rc)
		return rc;

	replay_skips(ctx, j);
	if (j->error == -BL_EINTR)
		return -BL_EINTR;
	if (j->error && !ctx->error)
		ctx->error = j->error;
	return ctx->error;
}

/* The side chain: the records as replay() emitted them, then the skipped
 * lines, into the side context (no warnings, no counts but its own). */
static int replay_side(struct bl_ctx *side, struct job *j)
{
	struct bl_record r;
	int rc = 0;
	for (size_t i = 0; i < j->nrecs && !rc; i++) {
		const struct lrec *l = j->recs[i];
		lrec_record(l, &r);
		r.run = l->run > 0 ? l->run : 0;
		rc = bl_emit(side, &r);
	}
	if (rc)
		return rc;
	replay_skips(side, j);
	return side->error;
}

/* ---- inputs ---- */

struct devino {
	dev_t dev;
	ino_t ino;
};

/* True when a folder above path (as far up as the path names) is one of
 * ex[]. last and last_hit cache the answer for the previous path's folder,
 * since a walk lists a folder's files together. */
static bool excluded(const char *path, const struct devino *ex, size_t nex, char **last, bool *last_hit)
{
	const char *slash = strrchr(path, '/');
	if (!slash || nex == 0)
		return false;
	size_t dl = (size_t)(slash - path);
	if (*last && strlen(*last) == dl && memcmp(*last, path, dl) == 0)
		return *last_hit;
	free(*last);
	*last = bl_xstrndup(path, dl);
	char *p = bl_xstrdup(*last);
	bool hit = false;
	for (;;) {
		struct stat st;
		if (*p && stat(p, &st) == 0)
			for (size_t i = 0; i < nex; i++)
				if (ex[i].dev == st.st_dev && ex[i].ino == st.st_ino)
					hit = true;
		char *s = strrchr(p, '/');
		if (hit || !s)
			break;
		*s = '\0';
	}
	free(p);
	*last_hit = hit;
	return hit;
}

/* bl_paths_expand_sized() input by input, leaving the excluded folders'
 * files out of folder walks. Returns the count; *out NULL-terminated,
 * *sizes as bl_paths_expand_sized() gives them. */
static size_t expand(struct bl_ctx *ctx, char *const *inputs, size_t n, const struct bl_ppass_opts *po,
		     char ***out, long long **sizes)
{
	struct devino *ex = bl_xcalloc(po->nexclude + 1, sizeof *ex);
	size_t nex = 0;
	for (size_t i = 0; i < po->nexclude; i++) {
		struct stat st;
		if (po->exclude[i] && stat(po->exclude[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			ex[nex].dev = st.st_dev;
			ex[nex].ino = st.st_ino;
			nex++;
		}
	}
	char **all = NULL;
	long long *sz = NULL;
	size_t nall = 0, capall = 0, capsz = 0;
	char *last = NULL;
	bool last_hit = false;
	for (size_t i = 0; i < n; i++) {
		char **p = NULL;
		long long *psz = NULL;
		size_t np = 0;
		bl_paths_expand_sized(ctx, &inputs[i], 1, &p, &np, &psz);
		/* A file or "-" expands to itself; a folder to paths below it
		 * (or to none), never to its own name. */
		bool walked = !(np == 1 && strcmp(p[0], inputs[i]) == 0);
		all = bl_xgrow(all, &capall, nall + np + 1, sizeof *all);
		sz = bl_xgrow(sz, &capsz, nall + np + 1, sizeof *sz);
		for (size_t k = 0; k < np; k++) {
			if (walked && excluded(p[k], ex, nex, &last, &last_hit)) {
				if (po->excluded_any)
					*po->excluded_any = true;
				free(p[k]);
				continue;
			}
			sz[nall] = psz[k];
			all[nall++] = p[k];
		}
		free(p);
		free(psz);
	}
	all = bl_xgrow(all, &capall, nall + 1, sizeof *all);   /* when n is 0 */
	sz = bl_xgrow(sz, &capsz, nall + 1, sizeof *sz);
	all[nall] = NULL;
	free(last);
	free(ex);
	*out = all;
	*sizes = sz;
	return nall;
}

/* What bl_ppass_run() keeps while it replays. */
struct replay_state {
	struct progress pg;
	struct runmap global;
	struct bl_strmap global_idx;
	struct counters counters;
	unsigned long long bytes_total;    /* 0: not known, the time left is told by files */
	int side_rc;                       /* the side context's first error */
};

/* Wait, drawing the progress line, until job j is parsed. Returns
 * -BL_EINTR when stopped first. */
static int wait_for(struct ppass *pp, struct job *j, struct replay_state *rs,
		    volatile sig_atomic_t *stop)
{
	pthread_mutex_lock(&pp->mu);
	while (!j->done && !stopped(stop)) {
		wait_done(pp);
		unsigned long fd = pp->files_done;
		unsigned long long bd = bytes_so_far(pp);
		pthread_mutex_unlock(&pp->mu);
		progress_draw(&rs->pg, fd, pp->n, bd, rs->bytes_total);
		pthread_mutex_lock(&pp->mu);
	}
	pthread_mutex_unlock(&pp->mu);
	return stopped(stop) ? -BL_EINTR : 0;
}

/* Replay job i into ctx (and the side context), report it, free it. */
static int replay_one(struct bl_ctx *ctx, struct ppass *pp, size_t i, struct replay_state *rs,
		      const struct bl_ppass_opts *po)
{
	struct job *j = &pp->jobs[i];
	int rc = replay(ctx, j, &rs->global, &rs->counters, &rs->pg, po->side != NULL);
	if (rc == 0 && po->input_done) {
		struct bl_input_stats st = {
			j->path, j->total, j->used, j->skipped, j->records, 0,
			j->input_errors > 0, j->bytes,
		};
		for (size_t k = 0; k < j->nwarns; k++)
			st.warnings += j->warns[k].n;
		po->input_done(po->ud, &st);
	}
	if (rc == 0 && po->side && !rs->side_rc)
		rs->side_rc = replay_side(po->side, j);
	job_free(j);
	pthread_mutex_lock(&pp->mu);
	pp->held_mem -= j->mem;
	pp->replayed = i + 1;
	unsigned long fd = pp->files_done;
	unsigned long long bd = bytes_so_far(pp);
	pthread_mutex_unlock(&pp->mu);
	progress_draw(&rs->pg, fd, pp->n, bd, rs->bytes_total);
	return rc;
}

/* The jobs of the np expanded inputs, and their total size in bytes (0
 * when an input's size is not known: not a regular file). */
static struct job *make_jobs(struct ppass *pp, char **paths, const long long *sizes, size_t np,
			     volatile sig_atomic_t *stop, unsigned long long *bytes_total)
{
	struct job *jobs = bl_xcalloc(np, sizeof *jobs);
	unsigned long long total = 0;
	bool known = true;
	for (size_t i = 0; i < np; i++) {
		jobs[i].path = paths[i];
		jobs[i].stop = stop;
		jobs[i].pp = pp;
		if (sizes[i] >= 0)   /* a regular file, when the walk saw it */
			jobs[i].bytes = (unsigned long long)sizes[i];
		else
			known = false;
		total += jobs[i].bytes;
	}
	*bytes_total = known ? total : 0;
	return jobs;
}

int bl_ppass_run(struct bl_ctx *ctx, char *const *inputs, size_t n, const struct bl_ppass_opts *po)
{
	static char *const stdin_only[] = { (char *)"-" };
	if (n == 0) {
		inputs = stdin_only;
		n = 1;
	}
	/* A bad --group-regex is a usage error: find it once, here. */
	int rc = bl_dispatch_open(ctx);
	if (rc)
		return rc;
	bl_dispatch_close(ctx);

	char **paths = NULL;
	long long *sizes = NULL;
	size_t np = expand(ctx, inputs, n, po, &paths, &sizes);
	if (np == 0) {
		bl_paths_free(paths);
		free(sizes);
		return ctx->error;
	}
	/* On the heap: when a stop leaves a job blocked in a read (a pipe
	 * with no data), the pass is left to it. */
	struct ppass *pp = bl_xcalloc(1, sizeof *pp);
	struct replay_state *rs = bl_xcalloc(1, sizeof *rs);
	pthread_mutex_init(&pp->mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&pp->done, &ca);
	pthread_condattr_destroy(&ca);
	pp->n = np;
	pp->opt = &ctx->opt;
	pp->pool = po->pool;
	unsigned workers = bl_pool_threads(po->pool);
	pp->window = workers ? PPASS_WINDOW * (size_t)workers : 1;
	pp->jobs = make_jobs(pp, paths, sizes, np, po->stop, &rs->bytes_total);
	free(sizes);

	rs->pg = (struct progress){ po->progress, { 0, 0 }, { 0, 0 }, 0 };
	clock_gettime(CLOCK_MONOTONIC, &rs->pg.start);
	rs->global_idx = (struct bl_strmap)BL_STRMAP_INIT;
	rs->global = (struct runmap){ NULL, 0, 0, &rs->global_idx, NULL, 0 };
	rc = 0;
	for (size_t i = 0; i < np && !rc; i++) {
		submit_ahead(pp, po->stop);
		rc = wait_for(pp, &pp->jobs[i], rs, po->stop);
		if (!rc)
			rc = replay_one(ctx, pp, i, rs, po);
		if (!rc && stopped(po->stop))
			rc = -BL_EINTR;
	}
	if (rc == 0)
		rc = rs->side_rc;
	progress_clear(&rs->pg);
	runmap_free(&rs->global);
	if (!drain(pp)) {
		/* a job still reads: everything is left to it (and LeakSanitizer
		 * told so, or a stop during a blocked read fails the ASan run) */
		LEFT_TO_JOB(pp);
		LEFT_TO_JOB(rs);
		LEFT_TO_JOB(paths);
		return -BL_EINTR;
	}
	for (size_t i = 0; i < np; i++)   /* the inputs parsed but not replayed */
		job_free(&pp->jobs[i]);
	free(pp->jobs);
	pthread_cond_destroy(&pp->done);
	pthread_mutex_destroy(&pp->mu);
	free(pp);
	free(rs);
	bl_paths_free(paths);
	if (rc == -BL_EINTR)
		return rc;
	return rc ? rc : ctx->error;
}
