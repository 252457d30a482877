/* async.c — records copied into blocks on the parse thread, replayed into
 * the inner sink on a writer thread (see async.h).
 *
 * A record in a block is packed, since every byte is written by one core
 * and read by the other (the copy costs more in cache traffic than in
 * instructions): the table pointer, a flags byte, the quote depth, the
 * line, the run and (mail) the message index as variable-length
 * integers, the provenance strings — each only when it differs from the
 * previous record's in the same block, which is nearly always — then the
 * columns: a tag byte each, a run of up to 127 empty columns in one byte,
 * integers as zigzag varints (vmstat's counters take 1 to 3 bytes), other
 * numbers as 8 bytes. Strings are a 32-bit length, the bytes and a NUL,
 * so the writer points into the block.
 *
 * A textrow (struct bl_textrow) is its template record, packed as above,
 * with its gen, vary columns and map, the first time its gen comes in a
 * block; after that only the line, the vary columns' values and the
 * text. Every record starts with a byte that says which of the three it
 * is. The wrapper takes textrows only when its inner sink does.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tables/async.h"
#include "core/util.h"
#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif

struct block {
	char *data;
	size_t len, cap;
};

/* The provenance strings of the previous record in the block being
 * filled: where their copies are, for the "same as before" flags. */
struct last {
	const char *src, *grp;       /* copies in the block, or NULL */
	size_t src_len, grp_len;
};

/* The fields each thread writes for every record sit on cache lines of
 * their own: a line both threads write goes back and forth between the
 * cores at every record (the parse thread's test of aerr cost 5 % of a
 * vmstat run while the writer's template shared its line). */
#define LINE _Alignas(64)
struct async {
	/* set up before the writer starts, then read only */
	struct bl_sink inner;
	pthread_t th;
	bool running;
	/* textrows bring where their runs are (struct bl_runs): only for a
	 * writer without AVX-512; with it, the writer reads them from the
	 * text in less time than the copy takes the parse thread */
	bool send_runs;
	/* the processor has PREFETCHW (see prefetch_for_write()) */
	bool prefetchw;

	/* under mu */
	LINE pthread_mutex_t mu;
	pthread_cond_t cv_full;        /* writer: a full block, or done */
	pthread_cond_t cv_free;        /* parse thread: a free block */
	struct block b[BL_ASYNC_BLOCKS];
	int full[BL_ASYNC_BLOCKS];     /* FIFO of full blocks */
	size_t full_head, nfull;
	int freel[BL_ASYNC_BLOCKS];    /* free blocks */
	size_t nfree;
	bool done;                     /* no more blocks will come */
	/* who sleeps: the writer on cv_full, the parse thread on cv_free.
	 * Each is woken only once half the blocks are there for it (or at
	 * the end): a wake-up per block cost more CPU than the work it
	 * moved to the other core (docs/performance.md) */
	bool writer_waits, parser_waits;
	int err;                       /* first inner error (under mu) */
	int err_errno;                 /* errno on the writer thread then */

	/* the parse thread's */
	LINE atomic_int aerr;          /* err, for the parse thread (written once) */
	int cur;                       /* the block being filled, -1 none */
	struct last last;              /* of the block being filled */
	unsigned long last_gen;        /* its last textrow's gen, 0 none */

	/* the writer thread's: the template of the last textrow gen in the
	 * block being replayed (its strings point into the block) */
	LINE struct bl_record tr;
	unsigned long tr_gen;
	struct bl_msg tr_msg;
	unsigned char tr_vary[BL_MAX_COLS], tr_map[BL_TEXTROW_MAX];
	size_t tr_nvary, tr_n;
};
#undef LINE

enum { K_REC = 1, K_TROW_T = 2, K_TROW = 3 };

enum {
	F_SRC = 1, F_GRP = 2, F_MSG = 4, F_SRC_SAME = 8, F_GRP_SAME = 16,
};
enum {
	T_NULL = 0, T_NUM = 1, T_INT = 2, T_STR = 3,
	T_NULLS = 0x80,                /* | n: n (1..127) empty columns */
};

static char *put_varint(char *p, unsigned long long x)
{
	while (x >= 0x80) {
		*p++ = (char)(x | 0x80);
		x >>= 7;
	}
	*p++ = (char)x;
	return p;
}

static unsigned long long get_varint(const char **pp)
{
	const unsigned char *p = (const unsigned char *)*pp;
	unsigned long long x = 0;
	unsigned sh = 0;
	while (*p & 0x80) {
		x |= (unsigned long long)(*p++ & 0x7f) << sh;
		sh += 7;
	}
	x |= (unsigned long long)*p++ << sh;
	*pp = (const char *)p;
	return x;
}

static unsigned long long zigzag(long long v)
{
	return ((unsigned long long)v << 1) ^ (unsigned long long)(v >> 63);
}

static long long unzigzag(unsigned long long u)
{
	return (long long)(u >> 1) ^ -(long long)(u & 1);
}

/* A number value (BL_INT, BL_NUM) with its tag; what a tag of another
 * value reads back to BL_NULL. */
static char *put_num(char *p, const struct bl_val *v)
{
	if (v->t == BL_INT) {
		*p++ = T_INT;
		return put_varint(p, zigzag(v->u.i));
	}
	if (v->t == BL_NUM) {
		*p++ = T_NUM;
		memcpy(p, &v->u.d, 8);
		return p + 8;
	}
	*p++ = T_NULL;
	return p;
}

static const char *get_num(const char *p, unsigned char t, struct bl_val *v)
{
	if (t == T_INT) {
		v->t = BL_INT;
		v->u.i = unzigzag(get_varint(&p));
	} else if (t == T_NUM) {
		v->t = BL_NUM;
		memcpy(&v->u.d, p, 8);
		p += 8;
	} else {
		v->t = BL_NULL;
	}
	return p;
}

static const char *get_str(const char **p)
{
	uint32_t n;
	memcpy(&n, *p, 4);
	const char *s = *p + 4;
	*p = s + n + 1;
	return s;
}

static char *put_strn(char *p, const char *s, size_t len)
{
	uint32_t n = (uint32_t)len;
	memcpy(p, &n, 4);
	memcpy(p + 4, s, len);
	p[4 + len] = '\0';
	return p + 5 + len;
}

/* Bytes rec_put() writes for a record of table t at most, strings aside:
 * the table pointer, the flags, four varints, then a tag and a varint (or
 * 8 bytes) per column. */
static size_t fixed_bound(const struct bl_table_def *t)
{
	return 1 + sizeof t + 1 + 4 * 10 + 11 * t->ncols;
}

/* Bytes rec_put() may need for r (an upper bound, strings included): a
 * block this big always takes it. The fixed part counts twice, as
 * rec_put() keeps room for all of it after each string. */
static size_t rec_bound(const struct bl_record *r)
{
	size_t n = 2 * fixed_bound(r->table);
	const char *s[5] = {
		r->source, r->group,
		r->msg ? (r->msg->message_id ? r->msg->message_id : "") : NULL,
		r->msg ? (r->msg->date ? r->msg->date : "") : NULL,
		r->msg ? (r->msg->subject ? r->msg->subject : "") : NULL,
	};
	for (size_t i = 0; i < 5; i++)
		n += s[i] ? 5 + strlen(s[i]) : 0;
	for (size_t i = 0; i < r->table->ncols; i++)
		if (r->v[i].t == BL_STR)
			n += 5 + (r->v[i].u.s ? strlen(r->v[i].u.s) : 0);
	return n;
}

/* s equals the len bytes at last (which hold no NUL), read no further
 * than s's own NUL. */
static bool same_text(const char *s, const char *last, size_t len)
{
	return strncmp(s, last, len) == 0 && s[len] == '\0';
}

/* Copy r to p, writing nothing at or past end; returns the new end, or
 * NULL when r does not fit (then the block is left as it was but for
 * bytes past its length, and *last must be reset). end - p is at least
 * fixed_bound(r->table). last: the previous record's strings in this
 * block, updated. */
static char *rec_put(char *p, const char *end, const struct bl_record *r, struct last *last,
		     char kind)
{
	size_t fixed = fixed_bound(r->table);
	*p++ = kind;
	memcpy(p, &r->table, sizeof r->table);
	p += sizeof r->table;
	unsigned char flags = (unsigned char)((r->source ? F_SRC : 0) | (r->group ? F_GRP : 0) |
					      (r->msg ? F_MSG : 0));
	if (r->source && last->src && same_text(r->source, last->src, last->src_len))
		flags |= F_SRC_SAME;
	if (r->group && last->grp && same_text(r->group, last->grp, last->grp_len))
		flags |= F_GRP_SAME;
	*p++ = (char)flags;
	p = put_varint(p, zigzag(r->quoted));
	p = put_varint(p, r->line);
	p = put_varint(p, zigzag(r->run));
	if (r->msg)
		p = put_varint(p, r->msg->index);
	/* Each string must leave room for what the fixed part may still take. */
#define PUT_STR(str, len_out)                                                  \
	do {                                                                   \
		size_t l_ = strlen(str);                                       \
		if ((size_t)(end - p) < 5 + l_ + fixed)                        \
			return NULL;                                           \
		len_out = l_;                                                  \
		p = put_strn(p, (str), l_);                                    \
	} while (0)
	size_t l;
	if (r->source && !(flags & F_SRC_SAME)) {
		PUT_STR(r->source, l);
		last->src = p - 1 - l;
		last->src_len = l;
	}
	if (r->group && !(flags & F_GRP_SAME)) {
		PUT_STR(r->group, l);
		last->grp = p - 1 - l;
		last->grp_len = l;
	}
	if (r->msg) {
		PUT_STR(r->msg->message_id ? r->msg->message_id : "", l);
		PUT_STR(r->msg->date ? r->msg->date : "", l);
		PUT_STR(r->msg->subject ? r->msg->subject : "", l);
	}
	size_t nc = r->table->ncols;
	for (size_t i = 0; i < nc;) {
		const struct bl_val *v = &r->v[i];
		switch (v->t) {
		case BL_NULL: {
			size_t k = 1;
			while (i + k < nc && k < 127 && r->v[i + k].t == BL_NULL)
				k++;
			*p++ = (char)(T_NULLS | k);
			i += k;
			continue;
		}
		case BL_INT:
		case BL_NUM:
			p = put_num(p, v);
			break;
		case BL_STR:
			*p++ = T_STR;
			PUT_STR(v->u.s ? v->u.s : "", l);
			break;
		}
		i++;
	}
#undef PUT_STR
	(void)l;
	return p;
}

/* Decode the record at *pp (after its kind byte) into *rp, its bl_msg
 * into *m; advances *pp. src, grp: the previous record's strings in this
 * block. */
static void rec_get(const char **pp, const char **src, const char **grp, struct bl_record *rp,
		    struct bl_msg *mp)
{
	const char *p = *pp;
	memcpy(&rp->table, p, sizeof rp->table);
	p += sizeof rp->table;
	unsigned char flags = (unsigned char)*p++;
	rp->quoted = (int)unzigzag(get_varint(&p));
	rp->line = (unsigned long)get_varint(&p);
	rp->run = (long)unzigzag(get_varint(&p));
	if (flags & F_MSG)
		mp->index = (unsigned long)get_varint(&p);
	rp->source = NULL;
	if (flags & F_SRC)
		rp->source = *src = (flags & F_SRC_SAME) ? *src : get_str(&p);
	rp->group = NULL;
	if (flags & F_GRP)
		rp->group = *grp = (flags & F_GRP_SAME) ? *grp : get_str(&p);
	rp->msg = NULL;
	if (flags & F_MSG) {
		mp->message_id = get_str(&p);
		mp->date = get_str(&p);
		mp->subject = get_str(&p);
		rp->msg = mp;
	}
	size_t nc = rp->table->ncols;
	for (size_t i = 0; i < nc;) {
		unsigned char t = (unsigned char)*p++;
		if (t & T_NULLS) {
			for (size_t k = t & 0x7f; k; k--)
				rp->v[i++].t = BL_NULL;
			continue;
		}
		struct bl_val *v = &rp->v[i++];
		if (t == T_STR) {
			v->t = BL_STR;
			v->u.s = get_str(&p);
		} else {
			p = get_num(p, t, v);
		}
	}
	*pp = p;
}

/* A textrow to the inner sink (which takes them: else the wrapper does
 * not, and none come). */
static int trow_out(struct async *a, const char *text, size_t len, const struct bl_runs *runs)
{
	struct bl_textrow t = {
		&a->tr, text, len, a->tr_map, a->tr_n, a->tr_vary, a->tr_nvary, a->tr_gen, runs,
	};
	return a->inner.textrow(a->inner.ud, &t);
}

/* Replay one record at *pp into the inner sink; advances *pp. src, grp:
 * the previous record's strings in this block. */
static int rec_replay(struct async *a, const char **pp, const char **src, const char **grp)
{
	const char *p = *pp;
	char kind = *p++;
	if (kind == K_REC) {
		struct bl_record r;
		struct bl_msg m;
		rec_get(&p, src, grp, &r, &m);
		*pp = p;
		return a->inner.record(a->inner.ud, &r);
	}
	if (kind == K_TROW_T) {
		rec_get(&p, src, grp, &a->tr, &a->tr_msg);
		a->tr_gen = get_varint(&p);
		a->tr_nvary = (unsigned char)*p++;
		memcpy(a->tr_vary, p, a->tr_nvary);
		p += a->tr_nvary;
		a->tr_n = (unsigned char)*p++;
		memcpy(a->tr_map, p, a->tr_n);
		p += a->tr_n;
	} else {
		assert(kind == K_TROW && a->tr_gen != 0);
		a->tr.line = (unsigned long)get_varint(&p);
		for (size_t i = 0; i < a->tr_nvary; i++) {
			unsigned char t = (unsigned char)*p++;
			p = get_num(p, t, &a->tr.v[a->tr_vary[i]]);
		}
	}
	size_t len = (size_t)get_varint(&p);
	const char *text = p;
	p += len >> 1;
	struct bl_runs runs, *rp = NULL;
	if (len & 1) {
		runs = (struct bl_runs){ { 0 }, { 0 }, false };
		for (size_t w = 0; w < ((len >> 1) + 63) / 64; w++) {
			memcpy(&runs.start[w], p, 8);
			memcpy(&runs.end[w], p + 8, 8);
			p += 16;
		}
		runs.lead0 = *p++ != 0;
		rp = &runs;
	}
	*pp = p;
	return trow_out(a, text, len >> 1, rp);
}

static void *writer(void *arg)
{
	struct async *a = arg;
	pthread_mutex_lock(&a->mu);
	for (;;) {
		while (a->nfull == 0 && !a->done) {
			a->writer_waits = true;
			pthread_cond_wait(&a->cv_full, &a->mu);
			a->writer_waits = false;
		}
		if (a->nfull == 0)
			break;
		int bi = a->full[a->full_head];
		a->full_head = (a->full_head + 1) % BL_ASYNC_BLOCKS;
		a->nfull--;
		int err = a->err;
		pthread_mutex_unlock(&a->mu);
		int en = 0;

		struct block *b = &a->b[bi];
		const char *p = b->data, *end = b->data + b->len;
		const char *src = NULL, *grp = NULL;
		a->tr_gen = 0;               /* a block brings its templates */
		while (!err && p < end)
			err = rec_replay(a, &p, &src, &grp);
		if (err)
			en = errno;
		b->len = 0;

		pthread_mutex_lock(&a->mu);
		if (err && !a->err) {
			a->err = err;
			a->err_errno = en;
			atomic_store(&a->aerr, err);
		}
		a->freel[a->nfree++] = bi;
		if (a->parser_waits && a->nfree >= BL_ASYNC_BLOCKS / 2)
			pthread_cond_signal(&a->cv_free);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

/* Hand the current block to the writer (under mu). */
static void submit_locked(struct async *a)
{
	if (a->cur < 0)
		return;
	if (a->b[a->cur].len == 0) {
		a->freel[a->nfree++] = a->cur;
	} else {
		a->full[(a->full_head + a->nfull) % BL_ASYNC_BLOCKS] = a->cur;
		a->nfull++;
		if (a->writer_waits && a->nfull >= BL_ASYNC_BLOCKS / 2)
			pthread_cond_signal(&a->cv_full);
	}
	a->cur = -1;
}

/* The inner sink's first error, if any, with errno as it was then. */
static int async_err(struct async *a)
{
	if (!atomic_load_explicit(&a->aerr, memory_order_relaxed))
		return 0;
	pthread_mutex_lock(&a->mu);
	int err = a->err;
	errno = a->err_errno;      /* as if the write had failed here */
	pthread_mutex_unlock(&a->mu);
	return err;
}

/* Hand the block being filled to the writer and start another, of at
 * least need bytes; returns it. */
static struct block *next_block(struct async *a, size_t need)
{
	pthread_mutex_lock(&a->mu);
	submit_locked(a);
	if (a->nfree == 0 && a->writer_waits)
		pthread_cond_signal(&a->cv_full);   /* the writer has all the rest */
	while (a->nfree == 0) {
		a->parser_waits = true;
		pthread_cond_wait(&a->cv_free, &a->mu);
		a->parser_waits = false;
	}
	a->cur = a->freel[--a->nfree];
	pthread_mutex_unlock(&a->mu);
	struct block *b = &a->b[a->cur];
	if (need > b->cap) {
		b->data = bl_xrealloc(b->data, need);
		b->cap = need;
	}
	a->last = (struct last){ NULL, NULL, 0, 0 };
	a->last_gen = 0;
	return b;
}

static int async_record(void *ud, const struct bl_record *r)
{
	struct async *a = ud;
	int err = async_err(a);
	if (err)
		return err;
	size_t fixed = fixed_bound(r->table);
	struct block *b = a->cur >= 0 ? &a->b[a->cur] : NULL;
	char *e;
	if (b && b->cap - b->len >= fixed &&
	    (e = rec_put(b->data + b->len, b->data + b->cap, r, &a->last, K_REC)) != NULL) {
		b->len = (size_t)(e - b->data);
		return 0;
	}
	/* A new block; one of the record's own size when it is that big. */
	b = next_block(a, rec_bound(r));
	e = rec_put(b->data, b->data + b->cap, r, &a->last, K_REC);
	assert(e != NULL);           /* rec_bound() bytes always take it */
	b->len = (size_t)(e - b->data);
	return 0;
}

/* Whether the processor has PREFETCHW (CPUID 0x80000001, ECX bit 8:
 * AMD since the K6-2, Intel since Broadwell). */
static bool have_prefetchw(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
	unsigned eax, ebx, ecx, edx;
	return __get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 8));
#else
	return false;
#endif
}

/* Ask for the cache line at p (in the block being filled, maybe past
 * its end: a prefetch never faults) in the state for writing. The
 * writer thread read that line the last time round, so the first store
 * to it must take it from the other core; stores waiting for that
 * filled the parse thread's store queue and stalled it. Fetching the
 * lines 2 KiB ahead took a vmstat run from 0.81 to 0.55 s of CPU on a
 * host whose two cores do not share a cache (docs/performance.md). A
 * plain prefetch would fetch the line for reading, and the store would
 * still wait to own it. */
static inline void prefetch_for_write(const struct async *a, const char *p)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (a->prefetchw) {
		__asm__ volatile("prefetchw %0" : : "m"(*(const char *)p));
		return;
	}
#endif
	__builtin_prefetch(p, 1, 3);
}

/* The part of a textrow that follows its template, or all of a later
 * row of the same gen: the line, the vary values, the text. */
static char *trow_put(const struct async *a, char *p, const struct bl_textrow *t, bool tmpl)
{
	if (!tmpl) {
		*p++ = K_TROW;
		p = put_varint(p, t->r->line);
		for (size_t i = 0; i < t->nvary; i++)
			p = put_num(p, &t->r->v[t->vary[i]]);
	}
	bool runs = t->runs && a->send_runs;
	/* a row takes one or two lines of the block: both, 2 KiB ahead */
	prefetch_for_write(a, p + 2048);
	prefetch_for_write(a, p + 2048 + 64);
	p = put_varint(p, t->len << 1 | runs);
	memcpy(p, t->text, t->len);
	p += t->len;
	if (runs) {
		/* a word at a time: a call to memcpy for 16 or 32 bytes
		 * cost more than the copy */
		for (size_t w = 0; w < (t->len + 63) / 64; w++) {
			memcpy(p, &t->runs->start[w], 8);
			memcpy(p + 8, &t->runs->end[w], 8);
			p += 16;
		}
		*p++ = (char)t->runs->lead0;
	}
	return p;
}

/* Bytes trow_put() writes at most. */
static size_t trow_bound(const struct bl_textrow *t)
{
	return 1 + 10 + 10 * t->nvary + 10 + t->len + 16 * 4 + 1;
}

/* The template record and what goes with it, at p (room checked). */
static char *tmpl_put(char *p, const char *end, const struct bl_textrow *t, struct last *last)
{
	p = rec_put(p, end, t->r, last, K_TROW_T);
	if (!p)
		return NULL;
	p = put_varint(p, t->gen);
	*p++ = (char)t->nvary;
	memcpy(p, t->vary, t->nvary);
	p += t->nvary;
	*p++ = (char)t->n;
	memcpy(p, t->map, t->n);
	return p + t->n;
}

static int async_textrow(void *ud, const struct bl_textrow *t)
{
	struct async *a = ud;
	int err = async_err(a);
	if (err)
		return err;
	size_t row = trow_bound(t);
	struct block *b = a->cur >= 0 ? &a->b[a->cur] : NULL;
	if (b && a->last_gen == t->gen && b->cap - b->len >= row) {
		b->len = (size_t)(trow_put(a, b->data + b->len, t, false) - b->data);
		return 0;
	}
	/* a template: checked once per gen and block (vary columns are
	 * numbers, written by put_num()) */
	for (size_t i = 0; i < t->nvary; i++)
		if (t->r->v[t->vary[i]].t == BL_STR)
			return -BL_EUSAGE;
	if (t->n > BL_TEXTROW_MAX || t->nvary > BL_MAX_COLS)
		return -BL_EUSAGE;
	size_t extra = 10 + 2 + t->nvary + t->n;  /* gen, counts, vary, map */
	char *e;
	if (b && b->cap - b->len >= fixed_bound(t->r->table) + extra + row &&
	    (e = tmpl_put(b->data + b->len, b->data + b->cap - extra - row, t, &a->last)) != NULL) {
		b->len = (size_t)(trow_put(a, e, t, true) - b->data);
		a->last_gen = t->gen;
		return 0;
	}
	b = next_block(a, rec_bound(t->r) + extra + row);
	e = tmpl_put(b->data, b->data + b->cap - extra - row, t, &a->last);
	assert(e != NULL);
	b->len = (size_t)(trow_put(a, e, t, true) - b->data);
	a->last_gen = t->gen;
	return 0;
}

static void stop(struct async *a)
{
	if (!a->running)
		return;
	pthread_mutex_lock(&a->mu);
	submit_locked(a);
	a->done = true;
	pthread_cond_signal(&a->cv_full);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->th, NULL);
	a->running = false;
}

static int async_finish(void *ud, int ok)
{
	struct async *a = ud;
	stop(a);
	int err = a->err;
	int rc = a->inner.finish ? a->inner.finish(a->inner.ud, ok && !err) : 0;
	if (err)
		errno = a->err_errno;
	return err ? err : rc;
}

static void async_free(void *ud)
{
	struct async *a = ud;
	stop(a);
	if (a->inner.free)
		a->inner.free(a->inner.ud);
	for (size_t i = 0; i < BL_ASYNC_BLOCKS; i++)
		free(a->b[i].data);
	pthread_mutex_destroy(&a->mu);
	pthread_cond_destroy(&a->cv_full);
	pthread_cond_destroy(&a->cv_free);
	free(a);
}

int bl_async_sink(struct bl_sink *out, const struct bl_sink *inner)
{
	/* aligned as its cache lines are (sizeof is a multiple of 64) */
	struct async *a = aligned_alloc(_Alignof(struct async), sizeof *a);
	if (!a) {
		*out = *inner;
		return -BL_ENOMEM;
	}
	memset(a, 0, sizeof *a);
	a->inner = *inner;
	a->send_runs = bl_runs_fill_wants_runs();
	a->prefetchw = have_prefetchw();
	a->cur = -1;
	for (int i = 0; i < BL_ASYNC_BLOCKS; i++) {
		a->b[i].data = bl_xmalloc(BL_ASYNC_BLOCK);
		a->b[i].cap = BL_ASYNC_BLOCK;
		a->freel[a->nfree++] = i;
	}
	atomic_init(&a->aerr, 0);
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv_full, NULL);
	pthread_cond_init(&a->cv_free, NULL);
	if (pthread_create(&a->th, NULL, writer, a) != 0) {
		pthread_mutex_destroy(&a->mu);
		pthread_cond_destroy(&a->cv_full);
		pthread_cond_destroy(&a->cv_free);
		for (size_t i = 0; i < BL_ASYNC_BLOCKS; i++)
			free(a->b[i].data);
		free(a);
		*out = *inner;
		return -BL_ENOMEM;
	}
	a->running = true;
	out->record = async_record;
	out->finish = async_finish;
	out->free = async_free;
	out->ud = a;
	out->textrow = inner->textrow ? async_textrow : NULL;
	return 0;
}
