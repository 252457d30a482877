/* block.c — blocks of records and their copies (see block.h, B1-B5).
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

/* Where a remembered block's first line was: sources[source]:line. */
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

/* What a block is doing with its records. */
enum block_mode {
	HOLD,       /* held: it may be a copy */
	STREAM,     /* passed on, hashed: not a copy, to be remembered */
	PASS,       /* passed on: too long to compare (B5) */
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

struct bl_blocks {
	/* the current block (B1): its records so far, their hash (B2) and
	 * measured values (B3), its smallest line and its source */
	enum block_mode mode;
	size_t n;
	uint64_t h;
	struct distinct d;
	unsigned long line;
	struct bl_buf src;
	uint64_t pkey;               /* the key of its first two records */
	/* the records held (mode HOLD), their text copied into one chunk
	 * (text_len bytes), so a held row costs no allocation of its own */
	struct bl_record *rec;
	size_t nrec, cap;
	GStringChunk *text;
	size_t text_len;
	struct visit vis;
	/* the blocks remembered: their keys (g_malloc'd) to their index into
	 * first; and the keys of their first two records as bits of starts
	 * (a bit set by another start only makes a block held that need not be) */
	GHashTable *seen;
	size_t nseen;
	unsigned char *starts;
	struct block_first *first;
	char **sources;              /* the inputs they came from (owned), in order */
	size_t nsources;
};

#define HASH_INIT 14695981039346656037ull
#define PREFIX_TAG 0x70726566697832ull   /* keys of the first two records */
#define START_BITS (1u << 20)            /* 128 KB of starts */

static void block_reset(struct bl_blocks *b)
{
	b->mode = HOLD;
	b->n = b->nrec = b->text_len = 0;
	b->h = HASH_INIT;
	b->d.n = 0;
	b->line = 0;
	g_string_chunk_clear(b->text);
}

void bl_blocks_enable(struct bl_ctx *ctx)
{
	if (!ctx->blocks) {
		ctx->blocks = bl_xcalloc(1, sizeof *ctx->blocks);
		ctx->blocks->text = g_string_chunk_new(4096);
		block_reset(ctx->blocks);
	}
}

void bl_blocks_free(struct bl_blocks *b)
{
	if (!b)
		return;
	bl_buf_release(&b->src);
	free(b->rec);
	g_string_chunk_free(b->text);
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

/* r's values into the block's hash (B2) and measured values (B3). */
static void hash_record(struct bl_blocks *b, const struct bl_record *r)
{
	struct visit *vs = &b->vis;
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
	b->h = mix(b->h, sum);
	for (size_t k = 0; k < vs->nall && b->d.n < BL_BLOCK_MIN_DISTINCT; k++) {
		const struct bl_val *v = &r->v[vs->all[k]];
		if (r->table->cols[vs->all[k]].role == BL_ROLE_MEASURE && v->t != BL_STR && v->t != BL_NULL)
			distinct_add(&b->d, val_bits(v));
	}
	b->n++;
	if (b->n == 1 || r->line < b->line)
		b->line = r->line;
}

/* A copy of s (NULL: "") in the held text. */
static const char *own(struct bl_blocks *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	b->text_len += n + 1;
	return g_string_chunk_insert_len(b->text, s ? s : "", (gssize)n);
}

/* Hold a copy of r (the parsers' text is theirs to reuse once the record
 * is emitted). */
static void keep(struct bl_blocks *b, const struct bl_record *r, size_t nc)
{
	if (b->nrec == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 16;
		b->rec = bl_xrealloc(b->rec, b->cap * sizeof *b->rec);
	}
	struct bl_record *k = &b->rec[b->nrec++];
	memcpy(k, r, offsetof(struct bl_record, v) + nc * sizeof r->v[0]);
	k->digits = NULL;   /* the line's digits go with the line */
	k->source = own(b, r->source);
	k->group = own(b, r->group);
	for (size_t i = 0; i < nc; i++)
		if (r->v[i].t == BL_STR)
			k->v[i].u.s = own(b, r->v[i].u.s);
}

/* The held records to the sinks, each with copy_of where (NULL: none);
 * then none is held. */
static int pass_held(struct bl_ctx *ctx, struct bl_blocks *b, const char *where)
{
	int rc = 0;
	for (size_t i = 0; i < b->nrec && !rc; i++) {
		b->rec[i].copy_of = where;
		rc = bl_ctx_send(ctx, &b->rec[i]);
	}
	b->nrec = b->text_len = 0;
	g_string_chunk_clear(b->text);
	return rc;
}

static uint64_t prefix_key(uint64_t h)
{
	return mix(h, PREFIX_TAG) & (START_BITS - 1);
}

/* Do the first two records of a remembered block have this key? */
static bool start_seen(const struct bl_blocks *b, uint64_t pkey)
{
	return b->starts && (b->starts[pkey >> 3] >> (pkey & 7) & 1);
}

int bl_block_hold(struct bl_ctx *ctx, const struct bl_record *r)
{
	struct bl_blocks *b = ctx->blocks;
	if (b->mode != PASS && (b->n == BL_BLOCK_MAX || b->text_len > BL_BLOCK_TEXT_MAX)) {
		ctx->copies.too_long++;
		b->mode = PASS;
		int rc = pass_held(ctx, b, NULL);
		if (rc)
			return rc;
	}
	if (b->mode == PASS)
		return bl_ctx_send(ctx, r);
	size_t nc = r->table->ncols < BL_MAX_COLS ? r->table->ncols : BL_MAX_COLS;
	if (b->n == 0) {
		bl_buf_reset(&b->src);
		bl_buf_add(&b->src, r->source ? r->source : "", strlen(r->source ? r->source : ""));
	}
	hash_record(b, r);
	if (b->n == 2)
		b->pkey = prefix_key(b->h);
	if (b->mode == STREAM)
		return bl_ctx_send(ctx, r);
	keep(b, r, nc);
	if (b->n == 2 && !start_seen(b, b->pkey)) {
		b->mode = STREAM;   /* its start is no block's start: not a copy */
		return pass_held(ctx, b, NULL);
	}
	return 0;
}

/* Remember the block under key, and its first two records. */
static void remember(struct bl_blocks *b, uint64_t key)
{
	if ((b->nseen & (b->nseen - 1)) == 0)   /* 0, 1, 2, 4, …: twice as many */
		b->first = bl_xrealloc(b->first, (b->nseen ? 2 * b->nseen : 1) * sizeof *b->first);
	if (!b->seen) {
		b->seen = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
		b->starts = bl_xcalloc(START_BITS / 8, 1);
	}
	const char *src = bl_buf_str(&b->src);
	if (!b->nsources || strcmp(b->sources[b->nsources - 1], src) != 0) {
		b->sources = bl_xrealloc(b->sources, (b->nsources + 1) * sizeof *b->sources);
		b->sources[b->nsources++] = bl_xstrdup(src);
	}
	g_hash_table_insert(b->seen, g_memdup2(&key, sizeof key), GSIZE_TO_POINTER(b->nseen));
	b->first[b->nseen++] = (struct block_first){ b->nsources - 1, b->line };
	b->starts[b->pkey >> 3] |= (unsigned char)(1u << (b->pkey & 7));
}

/* B3, B4: "FILE:LINE" of the block the current one copies (caller
 * frees), or NULL; a block not seen before is remembered (B5). */
static char *judge(struct bl_ctx *ctx, struct bl_blocks *b)
{
	if (b->n < 2 || b->d.n < BL_BLOCK_MIN_DISTINCT)
		return NULL;
	uint64_t key = mix(b->h, b->n);
	gpointer at;
	if (b->mode == HOLD && b->seen && g_hash_table_lookup_extended(b->seen, &key, NULL, &at)) {
		const struct block_first *f = &b->first[GPOINTER_TO_SIZE(at)];
		return bl_xasprintf("%s:%lu", b->sources[f->source], f->line);
	}
	if (b->nseen < BL_BLOCKS_SEEN)
		remember(b, key);
	else
		ctx->copies.unremembered++;
	return NULL;
}

int bl_block_end(struct bl_ctx *ctx)
{
	struct bl_blocks *b = ctx->blocks;
	if (!b || b->n == 0 || b->mode == PASS) {
		if (b)
			block_reset(b);
		return 0;
	}
	char *where = judge(ctx, b);
	if (where) {
		ctx->copies.blocks++;
		ctx->copies.records += b->n;
	}
	int rc = pass_held(ctx, b, where);
	free(where);
	block_reset(b);
	return rc;
}
