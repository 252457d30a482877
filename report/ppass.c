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
#include "core/progress.h"
#include "core/strmap.h"
#include "core/util.h"
#include "report/ppass.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/lsan_interface.h>
#define LEFT_TO_JOB(p) __lsan_ignore_object(p)
#else
#define LEFT_TO_JOB(p) ((void)(p))
#endif

/* ---- the log of one input, in segments ---- */

/* A segment is at most SEG_BYTES of an input's log: the parse publishes
 * it to the replaying thread and starts the next, so that one large input
 * (an archive, a long vmstat file, a stream that never ends) is replayed
 * while it is parsed and never held whole (ppass.h, "Memory"). */
#define SEG_BYTES ((size_t)1 << 20)

/* The text kept of a skipped run's first line: enough for the report's
 * 200-byte cut at a UTF-8 boundary (report.c). */
#define SKIP_TEXT_KEEP 256

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

/* Consecutive skipped lines first..last of one source, message, quote
 * depth, group and reason: replayed line by line, each with the first
 * line's text (cut to SKIP_TEXT_KEEP bytes). */
struct lskip {
	const char *source;
	unsigned long first, last;
	const struct bl_msg *msg;
	int quoted;
	const char *group;
	const char *reason;
	const char *note;            /* NULL, or the lines' note (bl_skip_sink) */
	const char *text;
	size_t len;
};

/* A warning's line in a diag text: where, and its kind (replayed through
 * bl_warn_replay(), so the first 10 of a kind are the run's first 10). */
struct wmark {
	const char *reason;
	size_t off, len;
};

struct seg {
	struct seg *next;
	void **owned;                /* what the segment allocated: records, strings */
	size_t nowned, capowned;
	struct lrec **recs;
	size_t nrecs, caprecs;
	struct lskip *skips;
	size_t nskips, capskips;
	char *diag;                  /* warnings printed while it was parsed */
	size_t diaglen;
	struct wmark *marks;         /* the warning lines in diag, in order */
	size_t nmarks;
	size_t mem;                  /* bytes it holds */
	/* interning caches (content-compared: parser pointers are reused);
	 * they point into this segment only */
	const char *last_group, *last_source;
	struct bl_msg *last_msg;
	const char **reasons;
	size_t nreasons;
};

struct ppass;

struct job {
	const char *path;            /* borrowed from the expanded path list */
	unsigned long long bytes;
	struct ppass *pp;
	size_t index;                /* in pp->jobs */
	/* guarded by pp->mu */
	bool done;                   /* parsed: its last segment published */
	struct seg *head, *tail;     /* published, not yet replayed */

	struct seg *cur;             /* being filled (the parsing thread) */
	char *diag;                  /* the file's warnings so far (memstream) */
	size_t diaglen, diagsent;
	struct wmark *marks;         /* the warning lines in diag not yet sent
					(reason: the parser's static string) */
	size_t nmarks, capmarks;
	unsigned long total, used, skipped, records, input_errors;
	int error;
	struct bl_count *warns;
	size_t nwarns;

	struct bl_ctx *ctx;          /* while parsing */
	void *state;                 /* po->input_open()'s, until input_close() */
	volatile sig_atomic_t *stop;
};

static struct seg *seg_new(void)
{
	struct seg *s = bl_xcalloc(1, sizeof *s);
	s->mem = sizeof *s;
	return s;
}

static void seg_free(struct seg *s)
{
	for (size_t i = 0; i < s->nowned; i++)
		free(s->owned[i]);
	free(s->owned);
	free(s->recs);
	free(s->skips);
	free(s->reasons);
	free(s->diag);
	free(s->marks);
	free(s);
}

/* n bytes the segment owns (freed by seg_free()). */
static void *seg_alloc(struct seg *s, size_t n)
{
	void *p = bl_xmalloc(n);
	s->owned = bl_xgrow(s->owned, &s->capowned, s->nowned + 1, sizeof *s->owned);
	s->owned[s->nowned++] = p;
	s->mem += n + 2 * sizeof(void *);
	return p;
}

static char *seg_strndup(struct seg *s, const char *str, size_t n)
{
	char *p = seg_alloc(s, n + 1);
	memcpy(p, str, n);
	p[n] = '\0';
	return p;
}

static char *seg_strdup(struct seg *s, const char *str)
{
	return seg_strndup(s, str, strlen(str));
}

static bool stopped(volatile sig_atomic_t *stop)
{
	return stop && *stop;
}

static const char *intern_group(struct seg *s, const char *g)
{
	if (!g)
		g = "";
	if (s->last_group && strcmp(s->last_group, g) == 0)
		return s->last_group;
	s->last_group = seg_strdup(s, g);
	return s->last_group;
}

static bool same_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

static const struct bl_msg *intern_msg(struct seg *s, const struct bl_msg *m)
{
	if (!m)
		return NULL;
	struct bl_msg *c = s->last_msg;
	if (c && c->index == m->index && same_str(c->message_id, m->message_id) &&
	    same_str(c->date, m->date) && same_str(c->subject, m->subject))
		return c;
	c = seg_alloc(s, sizeof *c);
	c->message_id = seg_strdup(s, m->message_id ? m->message_id : "");
	c->date = seg_strdup(s, m->date ? m->date : "");
	c->subject = seg_strdup(s, m->subject ? m->subject : "");
	c->index = m->index;
	s->last_msg = c;
	return c;
}

static const char *intern_source(struct job *j, struct seg *s, const char *src)
{
	if (!src || strcmp(src, j->path) == 0)
		return j->path;
	if (!s->last_source || strcmp(s->last_source, src) != 0)
		s->last_source = seg_strdup(s, src);
	return s->last_source;
}

static const char *intern_reason(struct seg *s, const char *r)
{
	if (!r)
		r = "";
	for (size_t i = 0; i < s->nreasons; i++)
		if (strcmp(s->reasons[i], r) == 0)
			return s->reasons[i];
	s->reasons = bl_xrealloc(s->reasons, (s->nreasons + 1) * sizeof *s->reasons);
	return s->reasons[s->nreasons++] = seg_strdup(s, r);
}

static void publish(struct job *j, bool last);

/* The segment being filled; a full one is published first. */
static struct seg *cur_seg(struct job *j)
{
	if (j->cur && j->cur->mem >= SEG_BYTES)
		publish(j, false);
	if (!j->cur)
		j->cur = seg_new();
	return j->cur;
}

static int log_record(void *ud, const struct bl_record *r)
{
	struct job *j = ud;
	if (stopped(j->stop))
		return -BL_EINTR;
	struct seg *s = cur_seg(j);
	if (j->ctx->error)           /* the replay failed or was stopped */
		return j->ctx->error;
	size_t nv = r->table->ncols < BL_MAX_COLS ? r->table->ncols : BL_MAX_COLS;
	struct lrec *l = seg_alloc(s, sizeof *l + nv * sizeof l->v[0]);
	l->table = r->table;
	l->source = intern_source(j, s, r->source);
	l->line = r->line;
	l->msg = intern_msg(s, r->msg);
	l->quoted = r->quoted;
	l->group = intern_group(s, r->group);
	l->group_source = r->group_source;
	l->run = r->run;
	for (size_t i = 0; i < nv; i++) {
		l->v[i] = r->v[i];
		if (r->v[i].t == BL_STR)
			l->v[i].u.s = seg_strdup(s, r->v[i].u.s ? r->v[i].u.s : "");
	}
	if (s->nrecs == s->caprecs) {
		s->mem += s->caprecs * sizeof *s->recs;
		s->caprecs = s->caprecs ? 2 * s->caprecs : 64;
		s->recs = bl_xrealloc(s->recs, s->caprecs * sizeof *s->recs);
	}
	s->recs[s->nrecs++] = l;
	return 0;
}

static void log_skip(void *ud, const struct bl_line *ln, const char *reason, const char *note)
{
	struct job *j = ud;
	struct bl_ctx *c = j->ctx;
	if (stopped(j->stop) && !c->error)
		c->error = -BL_EINTR;
	struct seg *s = cur_seg(j);
	const char *src = intern_source(j, s, ln->source);
	const struct bl_msg *msg = intern_msg(s, ln->msg);
	const char *group = intern_group(s, c->opt.group ? c->opt.group : c->group);
	const char *why = intern_reason(s, reason);
	const char *nb = NULL;
	struct lskip *p = s->nskips ? &s->skips[s->nskips - 1] : NULL;
	if (note)                    /* one per message: the last run's, or new */
		nb = p && p->note && strcmp(p->note, note) == 0 ? p->note : seg_strdup(s, note);
	if (p) {                     /* the next line of the last run? */
		if (p->last + 1 == ln->lineno && p->source == src && p->msg == msg &&
		    p->quoted == ln->quote_depth && p->group == group && p->reason == why && p->note == nb) {
			p->last = ln->lineno;
			return;
		}
	}
	if (s->nskips == s->capskips) {
		s->mem += s->capskips * sizeof *s->skips;
		s->capskips = s->capskips ? 2 * s->capskips : 64;
		s->skips = bl_xrealloc(s->skips, s->capskips * sizeof *s->skips);
	}
	struct lskip *k = &s->skips[s->nskips++];
	k->source = src;
	k->first = k->last = ln->lineno;
	k->msg = msg;
	k->quoted = ln->quote_depth;
	k->group = group;
	k->reason = why;
	k->note = nb;
	k->len = ln->text ? (ln->len < SKIP_TEXT_KEEP ? ln->len : SKIP_TEXT_KEEP) : 0;
	k->text = seg_strndup(s, ln->text ? ln->text : "", k->len);
}

/* ---- the pass: inputs parsed as jobs on the pool ---- */

/* How far the parsing runs ahead of the in-order replay: at most
 * PPASS_WINDOW inputs per worker, and no further once the segments
 * published and not yet replayed hold PPASS_AHEAD_BYTES (measured, so a
 * .gz or a pipe counts what it really holds). The input being replayed
 * may always publish one segment beyond it, so the pass never waits on
 * itself. With a window of 4 inputs a worker waited about 2,800 times on
 * the 10,000-file bench folder; with 64 it hardly waits. */
#define PPASS_WINDOW 64
#define PPASS_AHEAD_BYTES ((size_t)16 << 20)

struct replay_state;

struct ppass {
	pthread_mutex_t mu;
	pthread_cond_t done;         /* a segment was published */
	pthread_cond_t room;         /* a segment was replayed */
	struct job *jobs;
	size_t n;
	size_t next;                 /* next job to submit */
	size_t replayed;             /* jobs replayed (and freed) so far */
	size_t window;
	size_t held_mem;             /* segments published, not yet replayed */
	size_t inflight;             /* submitted, not yet parsed */
	bool inline_replay;          /* no workers: a segment is replayed as
					soon as it is published, on this thread */
	bool quit;                   /* the replay ended early: parsing stops */
	struct bl_pool *pool;
	const struct bl_opts *opt;
	unsigned long files_done;
	unsigned long long bytes_done;
	unsigned long long bytes_read;   /* raw bytes read so far, files being
					    parsed included (atomic: workers add) */
	/* Each message once (input/mail.c R14): the Message-IDs of the
	 * inputs parsed so far, shared by their contexts. An input uses it
	 * only once every earlier input is parsed (msgids_wait()), so ids go
	 * in in input order, one input at a time, as in one sequential pass. */
	struct bl_msgids msgids;
	size_t parsed;               /* jobs[0..parsed) are done */
	/* the replay (the calling thread's) */
	struct bl_ctx *ctx;
	struct replay_state *rs;
	const struct bl_ppass_opts *po;
};

/* With pp->mu held: wait on cond for at most 100 ms (the caller then draws
 * the progress line and looks for a stop). */
static void wait_100ms(struct ppass *pp, pthread_cond_t *cond)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_nsec += 100 * 1000 * 1000;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(cond, &pp->mu, &ts);
}

static int replay_ready(struct ppass *pp, struct job *j);

/* Hand the segment being filled to the replay (an empty one too when it is
 * the last: it tells the replay that the input is done). A worker then
 * waits while the published segments hold too much, unless its input is
 * the one being replayed and nothing of it waits. Without workers the
 * segment is replayed here, at once. */
static void publish(struct job *j, bool last)
{
	struct ppass *pp = j->pp;
	/* read before the lock is let go: once last is published, the
	 * calling thread may free pp and j */
	bool inline_replay = pp->inline_replay;
	struct seg *s = j->cur ? j->cur : seg_new();
	j->cur = NULL;
	if (j->ctx && j->ctx->diag)
		fflush(j->ctx->diag);
	if (j->diag && j->diaglen > j->diagsent) {
		s->diag = bl_xstrndup(j->diag + j->diagsent, j->diaglen - j->diagsent);
		s->diaglen = j->diaglen - j->diagsent;
		s->mem += s->diaglen;
		s->marks = bl_xcalloc(j->nmarks ? j->nmarks : 1, sizeof *s->marks);
		for (size_t i = 0; i < j->nmarks; i++)
			s->marks[s->nmarks++] = (struct wmark){ intern_reason(s, j->marks[i].reason),
								j->marks[i].off - j->diagsent, j->marks[i].len };
		s->mem += j->nmarks * sizeof *s->marks;
		j->nmarks = 0;
		j->diagsent = j->diaglen;
	}
	if (last) {
		free(j->diag);
		j->diag = NULL;
		free(j->marks);
		j->marks = NULL;
	}
	pthread_mutex_lock(&pp->mu);
	if (j->tail)
		j->tail->next = s;
	else
		j->head = s;
	j->tail = s;
	pp->held_mem += s->mem;
	if (last) {
		j->done = true;
		pp->inflight--;
		pp->files_done++;
		pp->bytes_done += j->bytes;
	}
	pthread_cond_broadcast(&pp->done);
	while (!last && !inline_replay && !pp->quit && !stopped(j->stop) &&
	       pp->held_mem > PPASS_AHEAD_BYTES && !(pp->replayed == j->index && j->head == NULL))
		wait_100ms(pp, &pp->room);
	bool quit = pp->quit;
	pthread_mutex_unlock(&pp->mu);
	/* a worker's j may be freed from here on once last is published */
	if (inline_replay && !quit && replay_ready(pp, j))
		quit = true;
	if (!last && quit && !j->ctx->error)
		j->ctx->error = -BL_EINTR;   /* nothing more is wanted of it */
}

/* A warning's line was written to the job's diag: mark it (ctx->warned). */
static void log_warned(void *ud, const char *reason, size_t len)
{
	struct job *j = ud;
	fflush(j->ctx->diag);        /* j->diaglen: the end of the line */
	if (j->nmarks == j->capmarks) {
		j->capmarks = j->capmarks ? 2 * j->capmarks : 16;
		j->marks = bl_xrealloc(j->marks, j->capmarks * sizeof *j->marks);
	}
	j->marks[j->nmarks++] = (struct wmark){ reason, j->diaglen - len, len };
}

/* Before an input's first Message-ID lookup (ctx->msgids_wait): wait
 * until every earlier input is parsed, so that the shared set holds their
 * ids and no other input uses it. Inputs without Message-IDs (plain
 * files) never wait. False when the pass stops first. */
static bool msgids_wait(void *ud)
{
	struct job *j = ud;
	struct ppass *pp = j->pp;
	pthread_mutex_lock(&pp->mu);
	for (;;) {
		while (pp->parsed < j->index && pp->jobs[pp->parsed].done)
			pp->parsed++;
		if (pp->parsed >= j->index || pp->quit || stopped(j->stop))
			break;
		wait_100ms(pp, &pp->done);
	}
	bool ok = pp->parsed >= j->index;
	pthread_mutex_unlock(&pp->mu);
	return ok;
}

/* Parse one input into its log, segment by segment (on a worker, or on
 * the calling thread without workers). */
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
	c.warned = log_warned;
	c.warned_ud = j;
	c.msgids_shared = &j->pp->msgids;
	c.msgids_wait = msgids_wait;
	c.msgids_ud = j;
	j->ctx = &c;
	const struct bl_ppass_opts *po = j->pp->po;
	if (po->input_open)
		j->state = po->input_open(po->ud, &c);
	if (bl_dispatch_open(&c) == 0) {
		bl_read_input(&c, j->path);
		bl_dispatch_close(&c);
	} else {
		c.error = -BL_EUSAGE;
	}
	j->ctx = NULL;
	fclose(c.diag);              /* j->diag: the rest of the warnings */
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
	publish(j, true);            /* the rest, and the counts; j is the
					replay's from here on */
}

/* What is left of a job once replayed or abandoned. */
static void job_free(struct job *j)
{
	while (j->head) {
		struct seg *s = j->head;
		j->head = s->next;
		seg_free(s);
	}
	j->tail = NULL;
	if (j->cur)
		seg_free(j->cur);
	j->cur = NULL;
	for (size_t i = 0; i < j->nwarns; i++)
		free(j->warns[i].reason);
	free(j->warns);
	j->warns = NULL;
	j->nwarns = 0;
	if (j->state) {              /* abandoned before its replay ended */
		j->pp->po->input_close(j->pp->po->ud, j->state, false);
		j->state = NULL;
	}
}

/* A job on the pool: parse one input. */
static void parse_one(void *arg)
{
	struct job *j = arg;
	if (!stopped(j->stop)) {
		parse_job(j, j->pp->opt, &j->pp->bytes_read);
		return;
	}
	j->error = -BL_EINTR;
	publish(j, true);
}

/* Submit inputs as far as the window and the memory bound allow. Without
 * workers each runs here, at once: parsed and replayed together. */
static void submit_ahead(struct ppass *pp, volatile sig_atomic_t *stop)
{
	for (;;) {
		pthread_mutex_lock(&pp->mu);
		bool go = pp->next < pp->n && pp->next < pp->replayed + pp->window &&
			  (pp->next == pp->replayed || pp->held_mem < PPASS_AHEAD_BYTES) && !stopped(stop) &&
			  !pp->quit;
		struct job *j = go ? &pp->jobs[pp->next++] : NULL;
		if (j)
			pp->inflight++;
		pthread_mutex_unlock(&pp->mu);
		if (!j)
			return;
		bl_pool_submit(pp->pool, parse_one, j);
	}
}

/* After a stop or an error: wait up to a second for the jobs still
 * parsing. False when one is still at it (blocked reading a pipe): then
 * nothing of the pass may be freed. */
static bool drain(struct ppass *pp)
{
	struct timespec dl;
	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += 1;
	pthread_mutex_lock(&pp->mu);
	pp->quit = true;
	pthread_cond_broadcast(&pp->room);
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


/* What bl_ppass_run() keeps while it replays. */
struct replay_state {
	struct bl_progress pg;
	struct runmap global;
	struct bl_strmap global_idx;
	struct counters counters;
	/* the input being replayed: its runs' offsets (local.v[].off) */
	struct runmap local;
	struct bl_strmap local_idx;
	unsigned long long bytes_total;    /* 0: not known, the time left is told by files */
	int rc;                            /* the replay's first error */
	int side_rc;                       /* the side context's first error */
};

/* The skipped runs of one segment, line by line, each with its group
 * and note, into ctx. */
static void replay_skips(struct bl_ctx *ctx, const struct seg *s)
{
	char *saved = ctx->group;
	ctx->group = NULL;
	for (size_t i = 0; i < s->nskips; i++) {
		const struct lskip *k = &s->skips[i];
		set_group(ctx, k->group);
		struct bl_line ln = { k->text, k->len, k->source, k->first, k->quoted, k->msg };
		ctx->skip_note = k->note;
		for (unsigned long n = k->first; n <= k->last; n++) {
			ln.lineno = n;
			bl_skip(ctx, &ln, k->reason);
		}
		ctx->skip_note = NULL;
	}
	free(ctx->group);
	ctx->group = saved;
}

/* Before an input's first segment: its runs and counters start afresh. */
static void job_begin(struct replay_state *rs)
{
	runmap_free(&rs->local);
	rs->local_idx = (struct bl_strmap)BL_STRMAP_INIT;
	rs->local = (struct runmap){ NULL, 0, 0, &rs->local_idx, NULL, 0 };
	for (size_t k = 0; k < rs->counters.n; k++) {
		rs->counters.v[k].off = rs->counters.v[k].max;
		rs->counters.v[k].fmax = 0;
	}
}

/* The run number of l as emitted: this input's runs of group G and family
 * F continue after the highest run earlier inputs gave (G, F). */
static long run_of(struct replay_state *rs, const struct lrec *l)
{
	if (l->run <= 0)
		return 0;
	struct runmax *m = runmap_get(&rs->local, l->group, l->table->run_family, false);
	if (!m) {
		long off = runmap_get(&rs->global, l->group, l->table->run_family, true)->max;
		m = runmap_get(&rs->local, l->group, l->table->run_family, true);
		m->off = off;
	}
	if (l->run > m->max)
		m->max = l->run;
	return l->run + m->off;
}

/* A segment's diag text into ctx: the warning lines through
 * bl_warn_replay() (the run's first 10 of a kind are shown, then a note),
 * any other text as it is. */
static void replay_diag(struct bl_ctx *ctx, struct bl_progress *pg, const struct seg *s)
{
	struct bl_progress *saved = ctx->progress;
	ctx->progress = pg;
	size_t pos = 0;
	for (size_t i = 0; i <= s->nmarks; i++) {
		size_t end = i < s->nmarks ? s->marks[i].off : s->diaglen;
		if (end > pos && ctx->diag) {
			bl_progress_clear(pg);
			fwrite(s->diag + pos, 1, end - pos, ctx->diag);
			fflush(ctx->diag);
		}
		if (i < s->nmarks) {
			bl_warn_replay(ctx, s->marks[i].reason, 1, s->diag + end, s->marks[i].len);
			pos = end + s->marks[i].len;
		}
	}
	ctx->progress = saved;
}

/* Replay one segment: its warnings' text, its records (run numbers and
 * pass-wide counters offset, and stored back for the side), its skipped
 * lines; then the same records and lines into the side context. */
static int replay_seg(struct ppass *pp, struct seg *s)
{
	struct bl_ctx *ctx = pp->ctx;
	struct replay_state *rs = pp->rs;
	if (s->diaglen)
		replay_diag(ctx, &rs->pg, s);
	struct counters *ctrs = &rs->counters;
	const struct bl_table_def *lastt = NULL;
	int cols[MAX_COUNTERS];
	size_t ctr[MAX_COUNTERS], ncols = 0;
	int rc = 0;
	struct bl_record r;
	for (size_t i = 0; i < s->nrecs && !rc; i++) {
		struct lrec *l = s->recs[i];
		size_t nv = lrec_record(l, &r);
		r.run = run_of(rs, l);
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
		l->run = r.run;          /* for the side: the values as emitted */
		for (size_t q = 0; q < ncols; q++)
			if ((size_t)cols[q] < nv && r.v[cols[q]].t == BL_INT)
				l->v[cols[q]].u.i = r.v[cols[q]].u.i;
	}
	if (rc)
		return rc;
	replay_skips(ctx, s);
	struct bl_ctx *side = pp->po->side;
	if (!side || rs->side_rc)
		return 0;
	for (size_t i = 0; i < s->nrecs && !rs->side_rc; i++) {
		lrec_record(s->recs[i], &r);
		r.run = s->recs[i]->run;
		rs->side_rc = bl_emit(side, &r);
	}
	if (!rs->side_rc) {
		replay_skips(side, s);
		rs->side_rc = side->error;
	}
	return 0;
}

/* Replay the segments of j published so far, freeing each. Returns the
 * replay's first error (kept in rs->rc). */
static int replay_ready(struct ppass *pp, struct job *j)
{
	struct replay_state *rs = pp->rs;
	for (;;) {
		pthread_mutex_lock(&pp->mu);
		struct seg *s = rs->rc ? NULL : j->head;
		if (s) {
			j->head = s->next;
			if (!j->head)
				j->tail = NULL;
		}
		pthread_mutex_unlock(&pp->mu);
		if (!s)
			return rs->rc;
		rs->rc = replay_seg(pp, s);
		pthread_mutex_lock(&pp->mu);
		pp->held_mem -= s->mem;
		pthread_cond_broadcast(&pp->room);
		unsigned long fd = pp->files_done;
		unsigned long long bd = bytes_so_far(pp);
		pthread_mutex_unlock(&pp->mu);
		seg_free(s);
		bl_progress_draw(&rs->pg, fd, pp->n, bd, rs->bytes_total);
	}
}

/* After an input's last segment: its counts, warnings, runs and counters
 * into ctx, and the caller told. */
static int job_end(struct ppass *pp, struct job *j)
{
	struct bl_ctx *ctx = pp->ctx;
	struct replay_state *rs = pp->rs;
	const struct bl_ppass_opts *po = pp->po;
	ctx->lines_total += j->total;
	ctx->lines_used += j->used;
	ctx->input_errors += j->input_errors;
	/* the warnings the input's context counted but did not print (all
	 * past its first BL_WARN_SHOWN of a kind; those were replayed with
	 * their text) */
	struct bl_progress *saved = ctx->progress;
	ctx->progress = &rs->pg;
	for (size_t i = 0; i < j->nwarns; i++)
		if (j->warns[i].n > BL_WARN_SHOWN)
			bl_warn_replay(ctx, j->warns[i].reason, j->warns[i].n - BL_WARN_SHOWN, NULL, 0);
	ctx->progress = saved;
	for (size_t i = 0; i < rs->local.n; i++) {
		struct runmax *g = runmap_get(&rs->global, rs->local.v[i].group, rs->local.v[i].family, true);
		if (g->max < rs->local.v[i].off + rs->local.v[i].max)
			g->max = rs->local.v[i].off + rs->local.v[i].max;
	}
	struct counters *ctrs = &rs->counters;
	for (size_t k = 0; k < ctrs->n; k++)
		if (ctrs->v[k].fmax && ctrs->v[k].off + ctrs->v[k].fmax > ctrs->v[k].max)
			ctrs->v[k].max = ctrs->v[k].off + ctrs->v[k].fmax;
	if (j->error == -BL_EINTR)
		return -BL_EINTR;
	if (j->error && !ctx->error)
		ctx->error = j->error;
	if (ctx->error)
		return ctx->error;
	if (j->state) {
		po->input_close(po->ud, j->state, true);
		j->state = NULL;
	}
	if (po->input_done) {
		struct bl_input_stats st = {
			j->path, j->total, j->used, j->skipped, j->records, 0,
			j->input_errors > 0, j->bytes,
		};
		for (size_t k = 0; k < j->nwarns; k++)
			st.warnings += j->warns[k].n;
		po->input_done(po->ud, &st);
	}
	return 0;
}

/* Replay job i as its segments come, drawing the progress line while it
 * waits; then finish it. Returns -BL_EINTR when stopped first. */
static int replay_job(struct ppass *pp, size_t i, volatile sig_atomic_t *stop)
{
	struct job *j = &pp->jobs[i];
	struct replay_state *rs = pp->rs;
	for (;;) {
		int rc = replay_ready(pp, j);
		if (rc)
			return rc;
		pthread_mutex_lock(&pp->mu);
		while (!j->head && !j->done && !stopped(stop)) {
			wait_100ms(pp, &pp->done);
			unsigned long fd = pp->files_done;
			unsigned long long bd = bytes_so_far(pp);
			pthread_mutex_unlock(&pp->mu);
			bl_progress_draw(&rs->pg, fd, pp->n, bd, rs->bytes_total);
			pthread_mutex_lock(&pp->mu);
		}
		bool finished = j->done && !j->head;
		pthread_mutex_unlock(&pp->mu);
		if (stopped(stop))
			return -BL_EINTR;
		if (finished)
			break;
	}
	int rc = job_end(pp, j);
	job_free(j);
	pthread_mutex_lock(&pp->mu);
	pp->replayed = i + 1;
	pthread_cond_broadcast(&pp->room);
	pthread_mutex_unlock(&pp->mu);
	return rc;
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
		jobs[i].index = i;
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
	pthread_cond_init(&pp->room, &ca);
	pthread_condattr_destroy(&ca);
	pp->n = np;
	pp->opt = &ctx->opt;
	pp->pool = po->pool;
	unsigned workers = bl_pool_threads(po->pool);
	pp->window = workers ? PPASS_WINDOW * (size_t)workers : 1;
	pp->inline_replay = workers == 0;
	pp->ctx = ctx;
	pp->rs = rs;
	pp->po = po;
	pp->jobs = make_jobs(pp, paths, sizes, np, po->stop, &rs->bytes_total);
	free(sizes);

	bl_progress_init(&rs->pg, po->progress);
	rs->global_idx = (struct bl_strmap)BL_STRMAP_INIT;
	rs->global = (struct runmap){ NULL, 0, 0, &rs->global_idx, NULL, 0 };
	rc = 0;
	for (size_t i = 0; i < np && !rc; i++) {
		job_begin(rs);
		submit_ahead(pp, po->stop);
		rc = replay_job(pp, i, po->stop);
		if (!rc && stopped(po->stop))
			rc = -BL_EINTR;
	}
	if (rc == 0)
		rc = rs->side_rc;
	bl_progress_clear(&rs->pg);
	runmap_free(&rs->global);
	runmap_free(&rs->local);
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
	bl_msgids_release(&pp->msgids);
	pthread_cond_destroy(&pp->done);
	pthread_cond_destroy(&pp->room);
	pthread_mutex_destroy(&pp->mu);
	free(pp);
	free(rs);
	bl_paths_free(paths);
	if (rc == -BL_EINTR)
		return rc;
	return rc ? rc : ctx->error;
}
