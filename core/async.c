/* async.c — records copied into blocks on the parse thread, replayed into
 * the inner sink on a writer thread (see async.h).
 *
 * A record in a block: the header (table, line, run, quoted, which
 * strings are present), the provenance strings, then each column: a type
 * byte and 8 bytes of number or a string. Strings are stored as a 32-bit
 * length, the bytes and a NUL, so the writer points into the block.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/async.h"
#include "core/util.h"

struct block {
	char *data;
	size_t len, cap;
};

struct async {
	struct bl_sink inner;
	pthread_t th;
	bool running;
	pthread_mutex_t mu;
	pthread_cond_t cv_full;        /* writer: a full block, or done */
	pthread_cond_t cv_free;        /* parse thread: a free block */
	struct block b[BL_ASYNC_BLOCKS];
	int full[BL_ASYNC_BLOCKS];     /* FIFO of full blocks */
	size_t full_head, nfull;
	int freel[BL_ASYNC_BLOCKS];    /* free blocks */
	size_t nfree;
	int cur;                       /* the block being filled, -1 none */
	bool done;                     /* no more blocks will come */
	int err;                       /* first inner error (under mu) */
	int err_errno;                 /* errno on the writer thread then */
	atomic_int aerr;               /* the same, for the parse thread */
};

struct rec_hdr {
	const struct bl_table_def *table;
	unsigned long line;
	unsigned long msg_index;
	long run;
	int quoted;
	unsigned char flags;           /* 1 source, 2 group, 4 msg */
};

static const char *get_str(const char **p)
{
	uint32_t n;
	memcpy(&n, *p, 4);
	const char *s = *p + 4;
	*p = s + n + 1;
	return s;
}

/* Bytes rec_put() may write for r: exact for strings, 9 per column. */
static size_t rec_bound(const struct bl_record *r, size_t *lens)
{
	size_t n = sizeof(struct rec_hdr) + 9 * r->table->ncols;
	const char *s[5] = {
		r->source, r->group,
		r->msg ? (r->msg->message_id ? r->msg->message_id : "") : NULL,
		r->msg ? (r->msg->date ? r->msg->date : "") : NULL,
		r->msg ? (r->msg->subject ? r->msg->subject : "") : NULL,
	};
	for (size_t i = 0; i < 5; i++) {
		lens[i] = s[i] ? strlen(s[i]) : 0;
		n += s[i] ? 5 + lens[i] : 0;
	}
	for (size_t i = 0; i < r->table->ncols; i++)
		if (r->v[i].t == BL_STR)
			n += 5 + (r->v[i].u.s ? strlen(r->v[i].u.s) : 0);
	return n;
}

static char *put_strn(char *p, const char *s, size_t len)
{
	uint32_t n = (uint32_t)len;
	memcpy(p, &n, 4);
	memcpy(p + 4, s, len);
	p[4 + len] = '\0';
	return p + 5 + len;
}

/* Copy r to p; returns the end. lens: the strlen()s of rec_bound(). */
static char *rec_put(char *p, const struct bl_record *r, const size_t *lens)
{
	struct rec_hdr h = {
		r->table, r->line, r->msg ? r->msg->index : 0, r->run, r->quoted,
		(unsigned char)((r->source ? 1 : 0) | (r->group ? 2 : 0) | (r->msg ? 4 : 0)),
	};
	memcpy(p, &h, sizeof h);
	p += sizeof h;
	if (r->source)
		p = put_strn(p, r->source, lens[0]);
	if (r->group)
		p = put_strn(p, r->group, lens[1]);
	if (r->msg) {
		p = put_strn(p, r->msg->message_id ? r->msg->message_id : "", lens[2]);
		p = put_strn(p, r->msg->date ? r->msg->date : "", lens[3]);
		p = put_strn(p, r->msg->subject ? r->msg->subject : "", lens[4]);
	}
	for (size_t i = 0; i < r->table->ncols; i++) {
		const struct bl_val *v = &r->v[i];
		*p++ = (char)v->t;
		if (v->t == BL_NUM || v->t == BL_INT) {
			memcpy(p, &v->u, 8);
			p += 8;
		} else if (v->t == BL_STR) {
			const char *t = v->u.s ? v->u.s : "";
			p = put_strn(p, t, strlen(t));
		}
	}
	return p;
}

/* Replay one record at *pp into the inner sink; advances *pp. */
static int rec_replay(struct async *a, const char **pp)
{
	const char *p = *pp;
	struct rec_hdr h;
	memcpy(&h, p, sizeof h);
	p += sizeof h;
	struct bl_record r;
	struct bl_msg m;
	r.table = h.table;
	r.line = h.line;
	r.run = h.run;
	r.quoted = h.quoted;
	r.source = (h.flags & 1) ? get_str(&p) : NULL;
	r.group = (h.flags & 2) ? get_str(&p) : NULL;
	r.msg = NULL;
	if (h.flags & 4) {
		m.message_id = get_str(&p);
		m.date = get_str(&p);
		m.subject = get_str(&p);
		m.index = h.msg_index;
		r.msg = &m;
	}
	for (size_t i = 0; i < h.table->ncols; i++) {
		struct bl_val *v = &r.v[i];
		v->t = (enum bl_vtype)*p++;
		if (v->t == BL_NUM) {
			memcpy(&v->u.d, p, 8);
			p += 8;
		} else if (v->t == BL_INT) {
			memcpy(&v->u.i, p, 8);
			p += 8;
		} else if (v->t == BL_STR) {
			v->u.s = get_str(&p);
		}
	}
	*pp = p;
	return a->inner.record(a->inner.ud, &r);
}

static void *writer(void *arg)
{
	struct async *a = arg;
	pthread_mutex_lock(&a->mu);
	for (;;) {
		while (a->nfull == 0 && !a->done)
			pthread_cond_wait(&a->cv_full, &a->mu);
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
		while (!err && p < end)
			err = rec_replay(a, &p);
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
		pthread_cond_signal(&a->cv_full);
	}
	a->cur = -1;
}

static int async_record(void *ud, const struct bl_record *r)
{
	struct async *a = ud;
	if (atomic_load_explicit(&a->aerr, memory_order_relaxed)) {
		pthread_mutex_lock(&a->mu);
		int err = a->err;
		errno = a->err_errno;      /* as if the write had failed here */
		pthread_mutex_unlock(&a->mu);
		return err;
	}
	size_t lens[5];
	size_t need = rec_bound(r, lens);
	struct block *b = a->cur >= 0 ? &a->b[a->cur] : NULL;
	if (!b || b->len + need > b->cap) {
		pthread_mutex_lock(&a->mu);
		submit_locked(a);
		while (a->nfree == 0)
			pthread_cond_wait(&a->cv_free, &a->mu);
		a->cur = a->freel[--a->nfree];
		pthread_mutex_unlock(&a->mu);
		b = &a->b[a->cur];
		if (need > b->cap) {
			b->data = bl_xrealloc(b->data, need);
			b->cap = need;
		}
	}
	b->len = (size_t)(rec_put(b->data + b->len, r, lens) - b->data);
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
	struct async *a = bl_xcalloc(1, sizeof *a);
	a->inner = *inner;
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
	return 0;
}
