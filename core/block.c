/* block.c — blocks of records, mail messages, and their copies (see
 * block.h, B1-B6).
 *
 * A block is held only while it may be a copy: once its first two
 * records are not the first two of a block seen before, they are passed
 * on and the rest of the block follows as it comes, hashed to be
 * remembered but not copied. So an original costs a hash per value, and
 * only a copy (or the start of one) is held. `parse -t vmstat` of 4 MB of
 * make bench's vmstat (a label every 900 rows): 223M instructions without
 * blocks, 275M holding every block, 251M so (4 % more wall time on 20 MB). */
#include <glib.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/block.h"
#include "core/ctx.h"
#include "core/util.h"

/* Where a remembered block's or message's first line was:
 * sources[source]:line. */
struct block_first {
	size_t source;
	unsigned long line;
};

/* The distinct measured values of a block, counted up to
 * BL_BLOCK_MIN_DISTINCT (B3). */
struct distinct {
	uint64_t v[BL_BLOCK_MIN_DISTINCT];
	size_t n;
};

/* What a block or a message is doing with its records. */
enum block_mode {
	HOLD,       /* held: it may be a copy */
	STREAM,     /* passed on, hashed: not a copy, to be remembered */
	PASS,       /* passed on: too long to compare (B5) */
};

/* Records held for the sinks, their text copied into one chunk
 * (text_len bytes), so a held row costs no allocation of its own. */
struct held {
	struct bl_record *rec;
	size_t nrec, cap;
	GStringChunk *text;
	size_t text_len;
};

/* Records in order (a block, B1, or a message, B6): their hash (B2), count,
 * measured values (B3) and smallest line. */
struct seq {
	uint64_t h;
	size_t n;
	struct distinct d;
	unsigned long line;
};

/* The columns hash_record() reads in records of one table and const_gen
 * (core/record.h): not an id, not a constant empty one; the constant
 * ones' terms summed once (parse -t vmstat of 50 MB: 0.173 s of
 * processor time, 0.179 s reading every column of every record). */
struct visit {
	const struct bl_table_def *t;
	unsigned long gen;
	unsigned long long cols;
	size_t n;                   /* columns that vary */
	unsigned char col[BL_MAX_COLS];
	uint64_t fixed;             /* the table's and the constant columns' terms */
	size_t nall;                /* every column read, for B3: */
	unsigned char all[BL_MAX_COLS];
};

/* The mail message being read (B6): its records so far (s.n 0: none),
 * held from its first record on when that record starts a message
 * remembered (mode HOLD), and the longest run of its first records
 * equal to a remembered message (match_n records, that message's index
 * into first). */
struct message {
	enum block_mode mode;
	struct seq s;
	uint64_t skey;               /* the key of its first record */
	uint64_t first;              /* its first record's hash term */
	bool differ;                 /* a record whose term is not first's */
	struct bl_buf src;
	struct held held;
	size_t match_n, match_at;
};

struct bl_blocks {
	/* the current block (B1): its records so far, their hash (B2) and
	 * measured values (B3), its smallest line and its source */
	enum block_mode mode;
	struct seq s;
	struct bl_buf src;
	uint64_t pkey;               /* the key of its first two records */
	struct held held;            /* its records held (mode HOLD) */
	struct visit vis;
	struct message msg;
	/* the blocks and messages remembered: their keys (g_malloc'd) to their
	 * index into first; and the keys of their first records as bits of
	 * starts (a bit set by another start only makes a block or a message
	 * held that need not be) */
	GHashTable *seen;
	size_t nseen;                /* entries of first */
	size_t nblocks, nmsgs;       /* of them blocks, messages */
	unsigned char *starts;
	struct block_first *first;
	char **sources;              /* the inputs they came from (owned), in order */
	size_t nsources;
};

#define HASH_INIT 14695981039346656037ull
#define PREFIX_TAG 0x70726566697832ull   /* keys of the first two records */
#define MSG_TAG 0x6d657373616765ull       /* keys of messages (B6) */
#define MSG_START_TAG 0x6d736773746172ull /* keys of a message's first record */
#define START_BITS (1u << 20)            /* 128 KB of starts */

static void seq_reset(struct seq *s)
{
	s->h = HASH_INIT;
	s->n = 0;
	s->d.n = 0;
	s->line = 0;
}

static void held_clear(struct held *h)
{
	h->nrec = h->text_len = 0;
	g_string_chunk_clear(h->text);
}

static void held_release(struct held *h)
{
	free(h->rec);
	if (h->text)
		g_string_chunk_free(h->text);
}

static void block_reset(struct bl_blocks *b)
{
	b->mode = HOLD;
	seq_reset(&b->s);
	held_clear(&b->held);
}

static void msg_reset(struct message *m)
{
	m->mode = STREAM;
	seq_reset(&m->s);
	m->differ = false;
	m->match_n = 0;
	held_clear(&m->held);
}

void bl_blocks_enable(struct bl_ctx *ctx)
{
	if (!ctx->blocks) {
		struct bl_blocks *b = bl_xcalloc(1, sizeof *b);
		b->held.text = g_string_chunk_new(4096);
		b->msg.held.text = g_string_chunk_new(4096);
		block_reset(b);
		msg_reset(&b->msg);
		ctx->blocks = b;
	}
}

void bl_blocks_free(struct bl_blocks *b)
{
	if (!b)
		return;
	bl_buf_release(&b->src);
	bl_buf_release(&b->msg.src);
	held_release(&b->held);
	held_release(&b->msg.held);
	if (b->seen)
		g_hash_table_destroy(b->seen);
	free(b->first);
	free(b->starts);
	for (size_t i = 0; i < b->nsources; i++)
		free(b->sources[i]);
	free(b->sources);
	free(b);
}

/* One 64-bit value mixed into h: a block's rows in order (B2). */
static inline uint64_t mix(uint64_t h, uint64_t x)
{
	h = (h ^ x) * 0x9E3779B97F4A7C15ull;
	return h ^ (h >> 32);
}

/* Column i's term in its record's hash: its type and bits, and i, through
 * MurmurHash3's 64-bit finalizer. A record's terms are summed, each made
 * apart from the others, where a multiply chained after another per
 * column waited on each (parse -t vmstat of 200 MB: 0.555 s of processor
 * time, 0.565 s chained). One multiply and a fold were not enough: a
 * number's bits (a double's low 37 are 0 for most counters) came out
 * nearly linear, so a row with swpd + 1 and free - 1 summed to the same
 * hash and its block was taken for a copy (tests/e2e/copies.sh). */
static inline uint64_t term(size_t i, enum bl_vtype t, uint64_t bits)
{
	uint64_t x = bits ^ ((uint64_t)i << 56 | (uint64_t)t << 48);
	x = (x ^ (x >> 33)) * 0xff51afd7ed558ccdull;
	x = (x ^ (x >> 33)) * 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

static void distinct_add(struct distinct *d, uint64_t bits)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i] == bits)
			return;
	d->v[d->n++] = bits;
}

/* v's bits for the hash (B2): an integer (the common value, asked
 * first), a number's (0 for -0: x + 0.0 is +0), a text's hash. */
static inline uint64_t val_bits(const struct bl_val *v)
{
	uint64_t bits;
	if (v->t == BL_INT) {
		memcpy(&bits, &v->u.i, sizeof bits);
	} else if (v->t == BL_NUM) {
		double x = isnan(v->u.d) ? NAN : v->u.d + 0.0;
		memcpy(&bits, &x, sizeof bits);
	} else {
		return v->u.s ? bl_hash64(v->u.s, strlen(v->u.s)) : bl_hash64("", 0);
	}
	return bits;
}

/* vs for r's table and constant columns (core/record.h const_cols). */
static void visit_make(struct visit *vs, const struct bl_record *r)
{
	const struct bl_table_def *t = r->table;
	vs->n = vs->nall = 0;
	vs->fixed = mix(0, (uintptr_t)t);   /* the definitions are static */
	for (size_t i = 0; i < t->ncols && i < BL_MAX_COLS; i++) {
		bool fixed = r->const_cols >> i & 1;
		if (t->cols[i].role == BL_ROLE_ID || (fixed && r->v[i].t == BL_NULL))
			continue;
		vs->all[vs->nall++] = (unsigned char)i;
		if (fixed)
			vs->fixed += term(i, r->v[i].t, val_bits(&r->v[i]));
		else
			vs->col[vs->n++] = (unsigned char)i;
	}
	vs->t = t;
	vs->gen = r->const_gen;
	vs->cols = r->const_cols;
}

/* r's hash term (B2), its values of measures added to d (B3) and, when
 * md is given, to md (B6) while either is short of BL_BLOCK_MIN_DISTINCT. */
static uint64_t hash_record(struct visit *vs, const struct bl_record *r, struct distinct *d,
			    struct distinct *md)
{
	if (vs->t != r->table || vs->gen != r->const_gen || vs->cols != r->const_cols)
		visit_make(vs, r);
	uint64_t sum = vs->fixed;
	for (size_t k = 0; k < vs->n; k++) {
		size_t i = vs->col[k];
		const struct bl_val *v = &r->v[i];
		/* an integer's bits without val_bits() (parse -t vmstat of
		 * 20 MB: 783 M instructions, 794 M) */
		if (v->t == BL_INT)
			sum += term(i, BL_INT, (uint64_t)v->u.i);
		else if (v->t != BL_NULL)
			sum += term(i, v->t, val_bits(v));
	}
	for (size_t k = 0; k < vs->nall && (d->n < BL_BLOCK_MIN_DISTINCT ||
					    (md && md->n < BL_BLOCK_MIN_DISTINCT)); k++) {
		const struct bl_val *v = &r->v[vs->all[k]];
		if (r->table->cols[vs->all[k]].role != BL_ROLE_MEASURE || v->t == BL_STR || v->t == BL_NULL)
			continue;
		uint64_t bits = val_bits(v);
		if (d->n < BL_BLOCK_MIN_DISTINCT)
			distinct_add(d, bits);
		if (md && md->n < BL_BLOCK_MIN_DISTINCT)
			distinct_add(md, bits);
	}
	return sum;
}

/* A record whose hash term is sum, on line, added to s. */
static void seq_add(struct seq *s, uint64_t sum, unsigned long line)
{
	s->h = mix(s->h, sum);
	s->n++;
	if (s->n == 1 || line < s->line)
		s->line = line;
}

/* Is s compared and remembered (B3, B6)? */
static bool seq_compared(const struct seq *s)
{
	return s->n >= 2 && s->d.n >= BL_BLOCK_MIN_DISTINCT;
}

/* A copy of s (NULL: "") in the held text. */
static const char *own(struct held *h, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	h->text_len += n + 1;
	return g_string_chunk_insert_len(h->text, s ? s : "", (gssize)n);
}

/* Hold a copy of r, copy_of too (the parsers' text is theirs to reuse
 * once the record is emitted). */
static void keep(struct held *h, const struct bl_record *r)
{
	size_t nc = r->table->ncols < BL_MAX_COLS ? r->table->ncols : BL_MAX_COLS;
	if (h->nrec == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 16;
		h->rec = bl_xrealloc(h->rec, h->cap * sizeof *h->rec);
	}
	struct bl_record *k = &h->rec[h->nrec++];
	memcpy(k, r, offsetof(struct bl_record, v) + nc * sizeof r->v[0]);
	k->digits = NULL;   /* the line's digits go with the line */
	k->source = own(h, r->source);
	k->group = own(h, r->group);
	k->copy_of = r->copy_of ? own(h, r->copy_of) : NULL;
	for (size_t i = 0; i < nc; i++)
		if (r->v[i].t == BL_STR)
			k->v[i].u.s = own(h, r->v[i].u.s);
}

/* The message's held records to the sinks as they are; from now on it
 * passes its records on, neither compared nor remembered (B5). */
static int msg_pass(struct bl_ctx *ctx, struct bl_blocks *b)
{
	struct held *h = &b->msg.held;
	int rc = 0;
	for (size_t i = 0; i < h->nrec && !rc; i++)
		rc = bl_ctx_send(ctx, &h->rec[i]);
	held_clear(h);
	b->msg.mode = PASS;
	return rc;
}

/* r held with its message (B6), or, past the bounds of B5, the message
 * passed on and r after it. */
static int msg_keep(struct bl_ctx *ctx, struct bl_blocks *b, const struct bl_record *r)
{
	struct message *m = &b->msg;
	if (m->held.nrec == BL_BLOCK_MAX || m->held.text_len > BL_BLOCK_TEXT_MAX) {
		int rc = msg_pass(ctx, b);
		return rc ? rc : bl_ctx_send(ctx, r);
	}
	keep(&m->held, r);
	return 0;
}

/* A record a block lets go: to the sinks, or held with its message (B6).
 * Inline: parse -t vmstat of 4.5 MB, 185.0 M instructions, 185.9 M
 * calling it. */
static inline int out(struct bl_ctx *ctx, struct bl_blocks *b, const struct bl_record *r)
{
	if (b->msg.mode != HOLD || !r->msg)
		return bl_ctx_send(ctx, r);
	return msg_keep(ctx, b, r);
}

/* The block's held records let go (out()), each with copy_of where
 * (NULL: none); then none is held. */
static int pass_held(struct bl_ctx *ctx, struct bl_blocks *b, const char *where)
{
	int rc = 0;
	for (size_t i = 0; i < b->held.nrec && !rc; i++) {
		b->held.rec[i].copy_of = where;
		rc = out(ctx, b, &b->held.rec[i]);
	}
	held_clear(&b->held);
	return rc;
}

static uint64_t prefix_key(uint64_t h, uint64_t tag)
{
	return mix(h, tag) & (START_BITS - 1);
}

/* Does a remembered block (its first two records) or message (its first
 * record) start with this key? */
static bool start_seen(const struct bl_blocks *b, uint64_t pkey)
{
	return b->starts && (b->starts[pkey >> 3] >> (pkey & 7) & 1);
}

/* Are the message's records so far compared and remembered (B6)? */
static bool msg_compared(const struct message *m)
{
	return seq_compared(&m->s) && m->differ;
}

/* The message's key: its records' hash and count, apart from blocks'. */
static uint64_t msg_key(const struct seq *s)
{
	return mix(mix(s->h, s->n), MSG_TAG);
}

/* The name of r's input into buf (a block's or a message's). */
static void set_source(struct bl_buf *buf, const struct bl_record *r)
{
	const char *s = r->source ? r->source : "";
	bl_buf_reset(buf);
	bl_buf_add(buf, s, strlen(s));
}

/* Index into first of the remembered block or message under key, or -1. */
static long seen_at(const struct bl_blocks *b, uint64_t key)
{
	gpointer at;
	if (!b->seen || !g_hash_table_lookup_extended(b->seen, &key, NULL, &at))
		return -1;
	return (long)GPOINTER_TO_SIZE(at);
}

/* r (its hash term sum) into the mail message being read (B6): the
 * first record decides whether it is held; a held one notes where its
 * first records equal a remembered message. */
static int msg_add(struct bl_ctx *ctx, struct bl_blocks *b, const struct bl_record *r, uint64_t sum)
{
	struct message *m = &b->msg;
	if (m->mode == PASS)
		return 0;
	if (m->s.n == 0)
		set_source(&m->src, r);
	seq_add(&m->s, sum, r->line);
	if (m->s.n == 1) {
		m->skey = prefix_key(m->s.h, MSG_START_TAG);
		m->mode = start_seen(b, m->skey) ? HOLD : STREAM;
		m->first = sum;
	}
	m->differ = m->differ || sum != m->first;
	if (m->s.n > BL_BLOCK_MAX)
		return msg_pass(ctx, b);
	long at;
	if (m->mode == HOLD && msg_compared(m) && (at = seen_at(b, msg_key(&m->s))) >= 0) {
		m->match_n = m->s.n;
		m->match_at = (size_t)at;
	}
	return 0;
}

int bl_block_hold(struct bl_ctx *ctx, const struct bl_record *r)
{
	struct bl_blocks *b = ctx->blocks;
	int rc;
	if (b->mode != PASS && (b->s.n == BL_BLOCK_MAX || b->held.text_len > BL_BLOCK_TEXT_MAX)) {
		ctx->copies.too_long++;
		b->mode = PASS;   /* and its message, which holds it all (B5) */
		if ((rc = b->msg.s.n && b->msg.mode != PASS ? msg_pass(ctx, b) : 0) != 0 ||
		    (rc = pass_held(ctx, b, NULL)) != 0)
			return rc;
	}
	if (b->mode == PASS)
		return out(ctx, b, r);
	if (b->s.n == 0) {
		/* a plain unit after a message's own text (mail R2) ends it */
		if (!r->msg && b->msg.s.n && (rc = bl_block_message_end(ctx)) != 0)
			return rc;
		set_source(&b->src, r);
	}
	bool in_msg = r->msg && b->msg.mode != PASS;
	uint64_t sum = hash_record(&b->vis, r, &b->s.d, in_msg ? &b->msg.s.d : NULL);
	seq_add(&b->s, sum, r->line);
	if (in_msg && (rc = msg_add(ctx, b, r, sum)) != 0)
		return rc;
	if (b->s.n == 2)
		b->pkey = prefix_key(b->s.h, PREFIX_TAG);
	if (b->mode == STREAM)
		return out(ctx, b, r);
	keep(&b->held, r);
	if (b->s.n == 2 && !start_seen(b, b->pkey)) {
		b->mode = STREAM;   /* its start is no block's start: not a copy */
		return pass_held(ctx, b, NULL);
	}
	return 0;
}

/* Remember a block or message under key: its source and smallest line,
 * and the key of its start (pkey); *n of its kind are remembered, at
 * most BL_BLOCKS_SEEN (B5): past them, *unremembered is counted. */
static void remember(struct bl_blocks *b, uint64_t key, const struct bl_buf *srcb, unsigned long line,
		     uint64_t pkey, size_t *n, unsigned long *unremembered)
{
	if (*n >= BL_BLOCKS_SEEN) {
		(*unremembered)++;
		return;
	}
	(*n)++;
	if ((b->nseen & (b->nseen - 1)) == 0)   /* 0, 1, 2, 4, …: twice as many */
		b->first = bl_xrealloc(b->first, (b->nseen ? 2 * b->nseen : 1) * sizeof *b->first);
	if (!b->seen) {
		b->seen = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
		b->starts = bl_xcalloc(START_BITS / 8, 1);
	}
	const char *src = bl_buf_str(srcb);
	if (!b->nsources || strcmp(b->sources[b->nsources - 1], src) != 0) {
		b->sources = bl_xrealloc(b->sources, (b->nsources + 1) * sizeof *b->sources);
		b->sources[b->nsources++] = bl_xstrdup(src);
	}
	g_hash_table_insert(b->seen, g_memdup2(&key, sizeof key), GSIZE_TO_POINTER(b->nseen));
	b->first[b->nseen++] = (struct block_first){ b->nsources - 1, line };
	b->starts[pkey >> 3] |= (unsigned char)(1u << (pkey & 7));
}

/* "FILE:LINE" of the remembered block or message at (caller frees). */
static char *first_name(const struct bl_blocks *b, size_t at)
{
	const struct block_first *f = &b->first[at];
	return bl_xasprintf("%s:%lu", b->sources[f->source], f->line);
}

/* B3, B4: "FILE:LINE" of the block the current one copies (caller
 * frees), or NULL; a block not seen before is remembered (B5). */
static char *judge(struct bl_ctx *ctx, struct bl_blocks *b)
{
	if (!seq_compared(&b->s))
		return NULL;
	uint64_t key = mix(b->s.h, b->s.n);
	long at;
	if (b->mode == HOLD && (at = seen_at(b, key)) >= 0)
		return first_name(b, (size_t)at);
	remember(b, key, &b->src, b->s.line, b->pkey, &b->nblocks, &ctx->copies.unremembered);
	return NULL;
}

int bl_block_end(struct bl_ctx *ctx)
{
	struct bl_blocks *b = ctx->blocks;
	if (!b || b->s.n == 0 || b->mode == PASS) {
		if (b)
			block_reset(b);
		return 0;
	}
	char *where = judge(ctx, b);
	if (where) {
		ctx->copies.blocks++;
		ctx->copies.records += b->s.n;
	}
	int rc = pass_held(ctx, b, where);
	free(where);
	block_reset(b);
	return rc;
}

/* The held message's records to the sinks, its first n marked copies of
 * where (B6) unless their block was (B4); each run of records so
 * marked counts as a block. */
static int msg_release(struct bl_ctx *ctx, struct bl_blocks *b, const char *where, size_t n)
{
	struct held *h = &b->msg.held;
	int rc = 0;
	bool run = false;
	for (size_t i = 0; i < h->nrec && !rc; i++) {
		struct bl_record *k = &h->rec[i];
		bool mark = i < n && !k->copy_of;
		if (mark) {
			k->copy_of = where;
			ctx->copies.blocks += !run;
			ctx->copies.records++;
		}
		run = mark;
		rc = bl_ctx_send(ctx, k);
	}
	held_clear(h);
	return rc;
}

int bl_block_message_end(struct bl_ctx *ctx)
{
	struct bl_blocks *b = ctx->blocks;
	int rc = bl_block_end(ctx);
	if (!b)
		return rc;
	struct message *m = &b->msg;
	if (m->s.n == 0) {
		m->mode = STREAM;
		return rc;
	}
	char *where = NULL;
	size_t n = 0;
	if (m->mode != PASS && msg_compared(m)) {
		if (m->mode == HOLD && m->match_n) {
			where = first_name(b, m->match_at);
			n = m->match_n;
		}
		if (n < m->s.n)   /* not a copy as a whole: new */
			remember(b, msg_key(&m->s), &m->src, m->s.line, m->skey, &b->nmsgs,
				 &ctx->copies.msgs_unremembered);
	}
	int rc2 = msg_release(ctx, b, where, n);
	free(where);
	msg_reset(m);
	return rc ? rc : rc2;
}
