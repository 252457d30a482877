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
#include "core/strmap.h"
#include "core/util.h"
#include "report/ppass.h"

/* ---- arena: the strings and records of one log, freed at once ---- */

struct ablock {
	struct ablock *next;
	size_t used, cap;
	max_align_t data[];
};

struct arena {
	struct ablock *head;
	size_t bytes;                /* of every block, headers included */
};

#define ARENA_BLOCK (64 * 1024)

static void *arena_alloc(struct arena *a, size_t n)
{
	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	struct ablock *b = a->head;
	if (!b || b->cap - b->used < n) {
		size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
		b = bl_xmalloc(sizeof *b + cap);
		a->bytes += sizeof *b + cap;
		b->cap = cap;
		b->used = 0;
		b->next = a->head;
		a->head = b;
	}
	void *p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

static char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

static void arena_free(struct arena *a)
{
	struct ablock *b = a->head;
	while (b) {
		struct ablock *next = b->next;
		free(b);
		b = next;
	}
	a->head = NULL;
	a->bytes = 0;
}

/* ---- the log of one input ---- */

struct lrec {
	const struct bl_table_def *table;
	const char *source;
	unsigned long line;
	const struct bl_msg *msg;
	int quoted;
	const char *group;
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
	bool done;                   /* parsed; guarded by the pool mutex */
	size_t mem;                  /* what its records take, once parsed */

	struct arena ar;
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
	unsigned owner;              /* the thread that parsed it: 0 the calling
					thread, k the worker k (job_let_go) */
	struct job *next_free;       /* in its owner's pool.tofree list */
};

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
	j->last_group = arena_strdup(&j->ar, g);
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
	c = arena_alloc(&j->ar, sizeof *c);
	c->message_id = arena_strdup(&j->ar, m->message_id ? m->message_id : "");
	c->date = arena_strdup(&j->ar, m->date ? m->date : "");
	c->subject = arena_strdup(&j->ar, m->subject ? m->subject : "");
	c->index = m->index;
	j->last_msg = c;
	return c;
}

static const char *intern_source(struct job *j, const char *s)
{
	if (!s || strcmp(s, j->path) == 0)
		return j->path;
	return arena_strdup(&j->ar, s);
}

static const char *intern_reason(struct job *j, const char *r)
{
	if (!r)
		r = "";
	for (size_t i = 0; i < j->nreasons; i++)
		if (strcmp(j->reasons[i], r) == 0)
			return j->reasons[i];
	j->reasons = bl_xrealloc(j->reasons, (j->nreasons + 1) * sizeof *j->reasons);
	return j->reasons[j->nreasons++] = arena_strdup(&j->ar, r);
}

static int log_record(void *ud, const struct bl_record *r)
{
	struct job *j = ud;
	if (stopped(j->stop))
		return -BL_EINTR;
	size_t nv = r->table->ncols < BL_MAX_COLS ? r->table->ncols : BL_MAX_COLS;
	struct lrec *l = arena_alloc(&j->ar, sizeof *l + nv * sizeof l->v[0]);
	l->table = r->table;
	l->source = intern_source(j, r->source);
	l->line = r->line;
	l->msg = intern_msg(j, r->msg);
	l->quoted = r->quoted;
	l->group = intern_group(j, r->group);
	l->run = r->run;
	for (size_t i = 0; i < nv; i++) {
		l->v[i] = r->v[i];
		if (r->v[i].t == BL_STR)
			l->v[i].u.s = arena_strdup(&j->ar, r->v[i].u.s ? r->v[i].u.s : "");
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
	s->text = arena_strndup(&j->ar, ln->text ? ln->text : "", ln->text ? ln->len : 0);
	s->len = ln->text ? ln->len : 0;
}

/* Parse one input into its log (worker thread). */
static void parse_job(struct job *j, const struct bl_opts *opt)
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
	/* kept after job_free(): the pool lets it go from held_mem later */
	j->mem = j->ar.bytes + j->caprecs * sizeof *j->recs + j->capskips * sizeof *j->skips +
		 j->diaglen;
}

static void job_free(struct job *j)
{
	arena_free(&j->ar);
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

/* ---- worker pool ---- */

/* How far the parsing runs ahead of the in-order replay (-j2 and up):
 * at most PPASS_WINDOW inputs per worker, and no further once the parsed
 * inputs not yet let go hold PPASS_AHEAD_BYTES of records (their arenas
 * and arrays, measured, so a .gz or a pipe counts what it really holds).
 * With a window of 4 inputs the worker slept and was woken about 2,800
 * times on the 10,000-file bench folder, 0.2 s of the pass's 0.7 s; with
 * 64 it hardly waits (`make bench`, folder case). */
#define PPASS_WINDOW 64
#define PPASS_AHEAD_BYTES ((size_t)32 << 20)

struct pool {
	pthread_mutex_t mu;
	pthread_cond_t work;         /* workers wait for the window to move */
	pthread_cond_t done;         /* the replaying thread waits for a job */
	struct job *jobs;
	size_t n;
	size_t next;                 /* next job to claim */
	size_t replayed;             /* jobs replayed so far */
	size_t window;               /* inputs parsed ahead of the replays, at most */
	size_t released;             /* jobs before this one are out of held_mem */
	size_t held_mem;             /* records of parsed jobs not let go (job.mem) */
	/* The side chain (ppass.h, side context): jobs side-replayed so far,
	 * whether a thread is at it, and its first error. */
	struct bl_ctx *side;
	size_t sided;
	bool side_busy;
	bool side_by_workers;        /* workers take side replays (-j2 and up) */
	int side_rc;
	bool quit;
	struct job **tofree;         /* per thread (as job.owner): jobs the
					other threads are done with */
	const struct bl_opts *opt;
	volatile sig_atomic_t *stop;
	char **paths;                /* the expanded inputs (jobs point into it) */
	unsigned long files_done;
	unsigned long long bytes_done;
};

static int replay_side(struct bl_ctx *side, struct job *j);

/* With the pool locked: both replays are done with job j. Its memory is
 * freed by the thread that parsed it: malloc gives each thread an arena
 * of its own and a free() into another thread's arena takes that arena's
 * lock, so with each thread freeing what the other parsed, both waited on
 * those locks about 1,000 times each in a -j2 pass over the bench folder
 * (perf record -e sched:sched_switch; docs/performance.md). The job goes
 * on its owner's list, which the owner empties the next time it looks
 * for work (free_mine); the caller wakes it by broadcasting p->work as it
 * does after every replay. */
static void job_let_go(struct pool *p, struct job *j)
{
	j->next_free = p->tofree[j->owner];
	p->tofree[j->owner] = j;
}

/* With the pool locked: free the jobs the other threads handed back to
 * thread `me` (the lock is dropped meanwhile). */
static void free_mine(struct pool *p, unsigned me)
{
	struct job *j = p->tofree[me];
	if (!j)
		return;
	p->tofree[me] = NULL;
	pthread_mutex_unlock(&p->mu);
	while (j) {
		struct job *next = j->next_free;
		job_free(j);
		j = next;
	}
	pthread_mutex_lock(&p->mu);
}

/* Jobs stay in memory until both replays are done with them. */
static size_t held_from(const struct pool *p)
{
	return p->side ? p->sided : p->replayed;
}

/* With the pool locked: may the next input be parsed now? Parsing runs
 * ahead of the replays by at most p->window inputs and, so that a few
 * big logs are not all held as records at once, only while the parsed
 * inputs not let go hold less than PPASS_AHEAD_BYTES (the next input the
 * replay needs is always allowed). So at most that much, plus what the
 * inputs being parsed (one per thread) turn out to hold, is held. */
static bool may_parse_next(struct pool *p)
{
	size_t from = held_from(p);
	if (p->next >= p->n || p->next >= from + p->window)
		return false;
	while (p->released < from)
		p->held_mem -= p->jobs[p->released++].mem;
	return p->next == from || p->held_mem < PPASS_AHEAD_BYTES;
}

/* With the pool locked: side-replay the next job if it is ready and no
 * thread is at it. Returns true when one was done (the lock is dropped
 * meanwhile and held again on return). */
static bool side_step(struct pool *p)
{
	if (!p->side || p->side_busy || p->sided >= p->replayed || stopped(p->stop))
		return false;
	p->side_busy = true;
	struct job *j = &p->jobs[p->sided];
	pthread_mutex_unlock(&p->mu);
	int rc = replay_side(p->side, j);
	pthread_mutex_lock(&p->mu);
	job_let_go(p, j);
	if (rc && !p->side_rc)
		p->side_rc = rc;
	p->sided++;
	p->side_busy = false;
	pthread_cond_broadcast(&p->work);
	pthread_cond_broadcast(&p->done);
	return true;
}

/* With the pool locked: wait until a job is done or side-replayed, or at
 * most 100 ms (the calling thread then draws the progress line and looks
 * for a stop). */
static void wait_done(struct pool *p)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += 100 * 1000 * 1000;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(&p->done, &p->mu, &ts);
}

/* Parse the next input on thread `me` (called and returning with p->mu
 * held; it is let go while parsing). */
static void parse_next(struct pool *p, unsigned me)
{
	struct job *j = &p->jobs[p->next++];
	j->owner = me;
	pthread_mutex_unlock(&p->mu);
	parse_job(j, p->opt);
	pthread_mutex_lock(&p->mu);
	p->held_mem += j->mem;
	j->done = true;
	p->files_done++;
	p->bytes_done += j->bytes;
	pthread_cond_broadcast(&p->done);
}

struct worker_arg {
	struct pool *p;
	unsigned me;                 /* 1 for the first worker (job.owner) */
};

static void *worker(void *arg)
{
	const struct worker_arg *wa = arg;
	struct pool *p = wa->p;
	unsigned me = wa->me;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		if (p->quit)
			break;
		free_mine(p, me);
		/* Parse ahead first; the side chain when the window is full (the
		 * replaying thread takes it after each replay too). */
		if (may_parse_next(p)) {
			parse_next(p, me);
			continue;
		}
		if (p->side_by_workers && side_step(p))
			continue;
		if (p->next >= p->n && (!p->side_by_workers || p->sided >= p->n))
			break;
		pthread_cond_wait(&p->work, &p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* ---- progress ---- */

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
	char line[160];
	int w = snprintf(line, sizeof line, "benchlog: %lu/%zu files, %.1f MB/s, %s left",
			 done, total, rate, eta);
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
 * the context's run numbering), so every input's context starts them at 1
 * again. On replay each is offset, like runs, by the highest value earlier
 * inputs gave it; columns with the same key share one counter. */
static const struct {
	const char *table, *column, *key;
} pass_counters[] = {
	{ "vmstat", "series", "vmstat series" },   /* parsers/vmstat.c, V3 */
	{ "events", "series", "vmstat series" },
};
#define NCOUNTERS (sizeof pass_counters / sizeof pass_counters[0])

/* Column of counter k in table t, or -1. */
static int counter_col(const struct bl_table_def *t, size_t k)
{
	if (strcmp(t->name, pass_counters[k].table) != 0)
		return -1;
	int c = bl_table_col(t, pass_counters[k].column);
	return c >= 0 && t->cols[c].type == BL_INT ? c : -1;
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
		  long long counter_max[NCOUNTERS], struct progress *pg, bool keep)
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
	 * earlier inputs gave (counters sharing a key move together). */
	long long off[NCOUNTERS], fmax[NCOUNTERS];
	const struct bl_table_def *lastt = NULL;
	int cols[NCOUNTERS];
	for (size_t k = 0; k < NCOUNTERS; k++) {
		off[k] = 0;
		fmax[k] = 0;
		for (size_t q = 0; q < NCOUNTERS; q++)
			if (strcmp(pass_counters[q].key, pass_counters[k].key) == 0 && counter_max[q] > off[k])
				off[k] = counter_max[q];
	}
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
			for (size_t k = 0; k < NCOUNTERS; k++)
				cols[k] = counter_col(lastt, k);
		}
		for (size_t k = 0; k < NCOUNTERS; k++) {
			if (cols[k] < 0 || (size_t)cols[k] >= nv || r.v[cols[k]].t != BL_INT)
				continue;
			if (r.v[cols[k]].u.i > fmax[k])
				fmax[k] = r.v[cols[k]].u.i;
			r.v[cols[k]].u.i += off[k];
		}
		rc = bl_emit(ctx, &r);
		if (keep) {              /* for the side replay: the values as emitted */
			l->run = r.run;
			for (size_t k = 0; k < NCOUNTERS; k++)
				if (cols[k] >= 0 && (size_t)cols[k] < nv && r.v[cols[k]].t == BL_INT)
					l->v[cols[k]].u.i = r.v[cols[k]].u.i;
		}
	}
	for (size_t k = 0; k < NCOUNTERS; k++)
		if (fmax[k] && off[k] + fmax[k] > counter_max[k])
			counter_max[k] = off[k] + fmax[k];
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

	/* On the heap: when a stop leaves a worker blocked in a read (a pipe
	 * with no data), the pool is left to it. */
	struct pool *p = bl_xcalloc(1, sizeof *p);
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->done, &ca);
	pthread_condattr_destroy(&ca);
	p->jobs = bl_xcalloc(np, sizeof *p->jobs);
	p->paths = paths;
	p->n = np;
	p->opt = &ctx->opt;
	p->stop = po->stop;
	unsigned jobs = po->jobs ? po->jobs : 1;
	if (jobs > np + 1)
		jobs = (unsigned)np + 1;
	unsigned long long bytes_total = 0;
	bool sizes_known = true;     /* all regular files; else the time left
					is told by files */
	for (size_t i = 0; i < np; i++) {
		p->jobs[i].path = paths[i];
		p->jobs[i].stop = po->stop;
		if (sizes[i] >= 0)   /* a regular file, when the walk saw it */
			p->jobs[i].bytes = (unsigned long long)sizes[i];
		else
			sizes_known = false;
		bytes_total += p->jobs[i].bytes;
	}
	free(sizes);
	if (!sizes_known)
		bytes_total = 0;

	/* -j N: at most N threads at work. The calling thread replays, so N - 1
	 * workers parse ahead of it. With -j1 this thread parses each input
	 * just before replaying it (as when no thread can be made), unless an
	 * input is not a regular file: a pipe can keep a read waiting, so one
	 * worker parses while this thread waits (drawing the progress line),
	 * and this thread replays while the worker waits: a window of one
	 * input. (Handing every input over between two threads costs about
	 * 0.4 s on 10,000 small files.) */
	unsigned nworkers = jobs > 1 ? jobs - 1 : sizes_known ? 0 : 1;
	p->window = jobs > 1 ? PPASS_WINDOW * (size_t)nworkers : 1;
	/* The side chain: with -j2 and up any thread takes it (the workers
	 * when they are ahead, this thread while it waits); with -j1 this
	 * thread runs it right after each replay. */
	p->side = po->side;
	p->side_by_workers = po->side && jobs > 1;
	pthread_t *tid = bl_xcalloc(nworkers ? nworkers : 1, sizeof *tid);
	struct worker_arg *wa = bl_xcalloc(nworkers ? nworkers : 1, sizeof *wa);
	p->tofree = bl_xcalloc(nworkers + 1, sizeof *p->tofree);
	unsigned started = 0;
	for (unsigned i = 0; i < nworkers; i++) {
		wa[i] = (struct worker_arg){ p, i + 1 };
		if (pthread_create(&tid[i], NULL, worker, &wa[i]) != 0)
			break;
		started++;
	}

	struct progress pg = { po->progress, { 0, 0 }, { 0, 0 }, 0 };
	clock_gettime(CLOCK_MONOTONIC, &pg.start);
	struct bl_strmap global_idx = BL_STRMAP_INIT;
	struct runmap global = { NULL, 0, 0, &global_idx, NULL, 0 };
	long long counter_max[NCOUNTERS] = { 0 };
	rc = 0;
	for (size_t i = 0; i < np && !rc; i++) {
		struct job *j = &p->jobs[i];
		if (started == 0 && !stopped(po->stop)) {
			parse_job(j, p->opt);
			p->held_mem += j->mem;
			j->done = true;
			p->files_done++;
			p->bytes_done += j->bytes;
		}
		pthread_mutex_lock(&p->mu);
		while (!j->done && !stopped(po->stop)) {
			free_mine(p, 0);
			if (side_step(p))
				continue;
			/* Regular files only (no read can wait for long): parse
			 * the next input rather than wait for the workers. */
			if (p->side_by_workers && sizes_known && may_parse_next(p)) {
				parse_next(p, 0);
				continue;
			}
			wait_done(p);
			unsigned long fd = p->files_done;
			unsigned long long bd = p->bytes_done;
			pthread_mutex_unlock(&p->mu);
			progress_draw(&pg, fd, np, bd, bytes_total);
			pthread_mutex_lock(&p->mu);
		}
		pthread_mutex_unlock(&p->mu);
		if (stopped(po->stop)) {
			rc = -BL_EINTR;
			break;
		}
		rc = replay(ctx, j, &global, counter_max, &pg, p->side != NULL);
		if (rc == 0 && po->input_done) {
			struct bl_input_stats st = {
				j->path, j->total, j->used, j->skipped, j->records, 0,
				j->input_errors > 0, j->bytes,
			};
			for (size_t k = 0; k < j->nwarns; k++)
				st.warnings += j->warns[k].n;
			po->input_done(po->ud, &st);
		}
		int src = 0;
		if (p->side && !p->side_by_workers && rc == 0)
			src = replay_side(p->side, j);
		pthread_mutex_lock(&p->mu);
		if (!p->side) {
			job_let_go(p, j);
		} else if (!p->side_by_workers && rc == 0) {
			job_let_go(p, j);
			if (src && !p->side_rc)
				p->side_rc = src;
			p->sided = i + 1;
		}
		p->replayed = i + 1;
		pthread_cond_broadcast(&p->work);
		if (rc == 0)
			side_step(p);
		free_mine(p, 0);
		unsigned long fd = p->files_done;
		unsigned long long bd = p->bytes_done;
		pthread_mutex_unlock(&p->mu);
		progress_draw(&pg, fd, np, bd, bytes_total);
		if (stopped(po->stop))
			rc = -BL_EINTR;
	}
	/* The side chain's last inputs: this thread helps, or waits. */
	pthread_mutex_lock(&p->mu);
	while (rc == 0 && p->side && p->sided < np && !stopped(po->stop) && !p->side_rc) {
		free_mine(p, 0);
		if (side_step(p))
			continue;
		wait_done(p);
	}
	if (rc == 0 && stopped(po->stop))
		rc = -BL_EINTR;
	if (rc == 0)
		rc = p->side_rc;
	p->quit = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	/* After a stop, a worker may be blocked reading a pipe that has no
	 * data (the reader retries EINTR): wait a moment, then leave it and
	 * everything it may touch to the exiting process. */
	bool abandoned = false;
	struct timespec dl;
	clock_gettime(CLOCK_REALTIME, &dl);
	dl.tv_sec += 1;
	for (unsigned i = 0; i < started; i++) {
		if (rc != -BL_EINTR) {
			pthread_join(tid[i], NULL);
		} else if (pthread_timedjoin_np(tid[i], NULL, &dl) != 0) {
			pthread_detach(tid[i]);
			abandoned = true;
		}
	}
	progress_clear(&pg);
	free(tid);
	runmap_free(&global);
	if (abandoned)
		return -BL_EINTR;
	free(wa);
	for (size_t i = 0; i < np; i++)   /* whatever a list still holds too */
		job_free(&p->jobs[i]);
	free(p->tofree);
	free(p->jobs);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->done);
	pthread_mutex_destroy(&p->mu);
	free(p);
	bl_paths_free(paths);
	if (rc == -BL_EINTR)
		return rc;
	return rc ? rc : ctx->error;
}
