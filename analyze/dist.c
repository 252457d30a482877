/* dist.c — D10 and D11 of analyze/stats.h: the log-bucketed sketch, the
 * mergeable partial aggregate with its text format, and the streaming
 * distribution that is exact up to BL_DIST_EXACT_MAX values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/stats.h"
#include "analyze/stats_int.h"
#include "core/store.h"

/* D11 constants. gamma = (1 + alpha) / (1 - alpha). */
#define SK_GAMMA ((1.0 + BL_SKETCH_ALPHA) / (1.0 - BL_SKETCH_ALPHA))
/* |index| of any finite non-zero double is below 37300 at alpha = 0.01
 * (log(DBL_MAX) / log(gamma) ~ 35488, log(4.9e-324) / log(gamma) ~ -37221). */
#define SK_INDEX_LIMIT 40000L

static double sk_lngamma(void)
{
	return log1p(2.0 * BL_SKETCH_ALPHA / (1.0 - BL_SKETCH_ALPHA));
}

/* Bucket of |x| > 0: ceil(log_gamma |x|) (D11). */
static long sk_index(double ax)
{
	return (long)ceil(log(ax) / sk_lngamma());
}

/* The value that stands for bucket i: 2 gamma^i / (gamma + 1) (D11). */
static double sk_value(long i)
{
	return exp((double)i * sk_lngamma()) * (2.0 / (SK_GAMMA + 1.0));
}

static void store_release(struct bl_sketch_store *st)
{
	free(st->counts);
	*st = (struct bl_sketch_store){ 0 };
}

static unsigned long long store_total(const struct bl_sketch_store *st)
{
	unsigned long long t = 0;
	size_t i;

	for (i = 0; i < st->len; i++)
		t += st->counts[i];
	return t;
}

/* Make the store cover exactly [nlo, nhi] (nhi - nlo < MAX_BUCKETS), folding
 * buckets below nlo into nlo and counting them as collapsed (D11). */
static void store_relayout(struct bl_sketch_store *st, long nlo, long nhi,
			   unsigned long long *collapsed)
{
	size_t nlen = (size_t)(nhi - nlo + 1), ncap, k;
	unsigned long long *nc;

	if (st->len > 0 && nlo == st->lo && nlen >= st->len && nlen <= st->cap) {
		memset(st->counts + st->len, 0, (nlen - st->len) * sizeof *st->counts);
		st->len = nlen;
		return;
	}
	ncap = st->cap * 2;
	if (ncap < nlen)
		ncap = nlen;
	if (ncap < 16)
		ncap = 16;
	if (ncap > BL_SKETCH_MAX_BUCKETS)
		ncap = BL_SKETCH_MAX_BUCKETS;
	nc = bl_xcalloc(ncap, sizeof *nc);
	unsigned long long folded = 0;
	for (k = 0; k < st->len; k++) {
		long idx = st->lo + (long)k;

		if (st->counts[k] == 0)
			continue;
		if (idx < nlo) {
			unsigned long long before = k == 0 ? st->folded : 0;
			*collapsed += st->counts[k] - before;
			folded += st->counts[k];
			idx = nlo;
		}
		nc[idx - nlo] += st->counts[k];
	}
	if (nlo > st->lo)
		st->folded = folded;
	free(st->counts);
	st->counts = nc;
	st->cap = ncap;
	st->lo = nlo;
	st->len = nlen;
}

/* Range [*nlo, *nhi] that covers the store and [ilo, ihi], with the lowest
 * buckets collapsed if it would exceed MAX_BUCKETS (D11). */
static void store_union(const struct bl_sketch_store *st, long ilo, long ihi,
			long *nlo, long *nhi)
{
	*nlo = ilo;
	*nhi = ihi;
	if (st->len > 0) {
		if (st->lo < *nlo)
			*nlo = st->lo;
		if (st->lo + (long)st->len - 1 > *nhi)
			*nhi = st->lo + (long)st->len - 1;
	}
	if (*nhi - *nlo + 1 > BL_SKETCH_MAX_BUCKETS)
		*nlo = *nhi - BL_SKETCH_MAX_BUCKETS + 1;
}

/* Add c values at index idx; `already` of them were counted as collapsed
 * before (a merged store's folded values), and are not counted again. */
static void store_add(struct bl_sketch_store *st, long idx, unsigned long long c,
		      unsigned long long already, unsigned long long *collapsed)
{
	long nlo, nhi;

	if (c == 0)
		return;
	store_union(st, idx, idx, &nlo, &nhi);
	if (st->len == 0 || nlo != st->lo || nhi != st->lo + (long)st->len - 1)
		store_relayout(st, nlo, nhi, collapsed);
	if (idx < nlo) {
		*collapsed += c - already;
		already = c;
		idx = nlo;
	}
	if (idx == st->lo)
		st->folded += already;
	st->counts[idx - st->lo] += c;
}

static void store_merge(struct bl_sketch_store *dst, const struct bl_sketch_store *src,
			unsigned long long *collapsed)
{
	long nlo, nhi;
	size_t k;

	if (src->len == 0)
		return;
	/* One relayout to the union, then plain adds. */
	store_union(dst, src->lo, src->lo + (long)src->len - 1, &nlo, &nhi);
	if (dst->len == 0 || nlo != dst->lo || nhi != dst->lo + (long)dst->len - 1)
		store_relayout(dst, nlo, nhi, collapsed);
	for (k = 0; k < src->len; k++)
		store_add(dst, src->lo + (long)k, src->counts[k], k == 0 ? src->folded : 0, collapsed);
}

static void sketch_release(struct bl_sketch *sk)
{
	store_release(&sk->pos);
	store_release(&sk->neg);
	*sk = (struct bl_sketch){ 0 };
}

/* x must be finite. */
static void sketch_add(struct bl_sketch *sk, double x, unsigned long long k)
{
	if (x == 0.0)
		sk->zero += k;
	else if (x > 0.0)
		store_add(&sk->pos, sk_index(x), k, 0, &sk->collapsed);
	else
		store_add(&sk->neg, sk_index(-x), k, 0, &sk->collapsed);
}

static void sketch_merge(struct bl_sketch *dst, const struct bl_sketch *src)
{
	dst->zero += src->zero;
	dst->collapsed += src->collapsed;
	store_merge(&dst->pos, &src->pos, &dst->collapsed);
	store_merge(&dst->neg, &src->neg, &dst->collapsed);
}

/* Estimate of the order statistic at 0-based position k (D11): negative
 * buckets from the largest magnitude down, then zeros, then positive
 * buckets upwards. */
static double sketch_at(const struct bl_sketch *sk, unsigned long long k)
{
	unsigned long long cum = 0;
	size_t i;

	for (i = sk->neg.len; i-- > 0;) {
		cum += sk->neg.counts[i];
		if (cum > k)
			return -sk_value(sk->neg.lo + (long)i);
	}
	cum += sk->zero;
	if (cum > k)
		return 0.0;
	for (i = 0; i < sk->pos.len; i++) {
		cum += sk->pos.counts[i];
		if (cum > k)
			return sk_value(sk->pos.lo + (long)i);
	}
	return NAN; /* k beyond the total: caller's bug */
}

/* ---- D10 --------------------------------------------------------------- */

void bl_partial_init(struct bl_partial *p)
{
	*p = (struct bl_partial){ .sum = 0 };
	bl_welford_init(&p->w);
}

void bl_partial_release(struct bl_partial *p)
{
	sketch_release(&p->sk);
	bl_partial_init(p);
}

void bl_partial_merge(struct bl_partial *dst, const struct bl_partial *src)
{
	bl_welford_merge(&dst->w, &src->w);
	dst->sum += src->sum;
	dst->rejected += src->rejected;
	sketch_merge(&dst->sk, &src->sk);
}

/* Order statistic k of n from the sketch, with the exact extremes (D11). */
static double partial_at(const struct bl_partial *p, double k)
{
	double v;

	if (k <= 0.0)
		return p->w.min;
	if (k >= (double)(p->w.n - 1))
		return p->w.max;
	v = sketch_at(&p->sk, (unsigned long long)k);
	if (v < p->w.min)
		v = p->w.min;
	if (v > p->w.max)
		v = p->w.max;
	return v;
}

double bl_partial_percentile(const struct bl_partial *p, double pct, enum bl_pct_rule rule)
{
	double j, frac, lo, hi;

	if (p == NULL || p->w.n == 0 || !bl__pct_ok(pct))
		return NAN;
	bl__pct_position((double)p->w.n, pct, rule, &j, &frac);
	lo = partial_at(p, j);
	if (frac == 0.0)
		return lo;
	hi = partial_at(p, j + 1.0);
	return bl__lerp(lo, hi, frac);
}

static void write_store(FILE *f, const char *key, const struct bl_sketch_store *st)
{
	size_t k;

	for (k = 0; k < st->len; k++)
		if (st->counts[k])
			fprintf(f, "%s %ld %llu\n", key, st->lo + (long)k, st->counts[k]);
}

int bl_partial_write(FILE *f, const struct bl_partial *p)
{
	if (f == NULL || p == NULL)
		return -BL_EUSAGE;
	/* D10 format; %.17g reads back bit-exact. */
	fprintf(f, "benchlog-partial 2\n");
	fprintf(f, "count %llu\n", p->w.n);
	fprintf(f, "rejected %llu\n", p->rejected);
	fprintf(f, "sum %.17g\n", p->sum);
	if (p->w.n > 0) {
		fprintf(f, "mean %.17g\n", p->w.mean);
		fprintf(f, "shift %.17g\n", p->w.shift);
		fprintf(f, "offset %.17g\n", p->w.off);
		fprintf(f, "m2 %.17g\n", p->w.m2);
		fprintf(f, "scale %d\n", p->w.scale);
		fprintf(f, "min %.17g\n", p->w.min);
		fprintf(f, "max %.17g\n", p->w.max);
	}
	fprintf(f, "sketch %g %d\n", BL_SKETCH_ALPHA, BL_SKETCH_MAX_BUCKETS);
	fprintf(f, "collapsed %llu\n", p->sk.collapsed);
	fprintf(f, "zero %llu\n", p->sk.zero);
	write_store(f, "neg", &p->sk.neg);
	write_store(f, "pos", &p->sk.pos);
	fprintf(f, "end\n");
	return ferror(f) ? -BL_EIO : 0;
}

/* Reader state for bl_partial_read: one line at a time, split in tokens. */
struct prd {
	FILE *f;
	unsigned long line;
	char buf[256];
	const char *tok[4];
	size_t toklen[4];
	size_t ntok;
	char *why;
	size_t whysz;
};

/* 0 with tokens, 1 at end of input, or a negative error. */
static int prd_next(struct prd *r)
{
	size_t len;

	if (fgets(r->buf, sizeof r->buf, r->f) == NULL) {
		if (ferror(r->f)) {
			snprintf(r->why, r->whysz, "read error");
			return -BL_EIO;
		}
		return 1;
	}
	r->line++;
	len = strlen(r->buf);
	if (len > 0 && r->buf[len - 1] == '\n')
		len--;
	else if (!feof(r->f)) {
		snprintf(r->why, r->whysz, "line longer than %zu bytes", sizeof r->buf - 2);
		return -BL_ETOOLONG;
	}
	if (len > 0 && r->buf[len - 1] == '\r')
		len--;
	r->buf[len] = '\0';
	r->ntok = bl_split_blanks(r->buf, len, r->tok, r->toklen, 4);
	return 0;
}

static bool prd_is(const struct prd *r, const char *key, size_t nargs)
{
	size_t kl = strlen(key);

	return r->ntok == nargs + 1 && r->toklen[0] == kl && memcmp(r->tok[0], key, kl) == 0;
}

static int prd_expect(struct prd *r, const char *key, size_t nargs, const char *shape)
{
	int rc = prd_next(r);

	if (rc == 1) {
		r->line++;
		snprintf(r->why, r->whysz, "unexpected end of input, expected '%s'", shape);
		return -BL_EFORMAT;
	}
	if (rc < 0)
		return rc;
	if (!prd_is(r, key, nargs)) {
		snprintf(r->why, r->whysz, "expected '%s', got '%.40s'", shape, r->buf);
		return -BL_EFORMAT;
	}
	return 0;
}

static int prd_double(struct prd *r, size_t i, double *out)
{
	int rc = bl_parse_double(r->tok[i], r->toklen[i], out);

	if (rc < 0)
		snprintf(r->why, r->whysz, "'%.*s' is not a finite number",
			 (int)(r->toklen[i] > 40 ? 40 : r->toklen[i]), r->tok[i]);
	return rc;
}

static int prd_count(struct prd *r, size_t i, unsigned long long *out)
{
	long long v;
	int rc = bl_parse_ll(r->tok[i], r->toklen[i], &v);

	if (rc == 0 && v < 0)
		rc = -BL_ERANGE;
	if (rc < 0) {
		snprintf(r->why, r->whysz, "'%.*s' is not a count",
			 (int)(r->toklen[i] > 40 ? 40 : r->toklen[i]), r->tok[i]);
		return rc;
	}
	*out = (unsigned long long)v;
	return 0;
}

static int prd_kv_double(struct prd *r, const char *key, const char *shape, double *out)
{
	int rc = prd_expect(r, key, 1, shape);

	return rc < 0 ? rc : prd_double(r, 1, out);
}

/* sum and m2 may have overflowed to an infinity (D10: finite inputs near
 * DBL_MAX, or whose squares pass it); the writer prints it as %.17g does,
 * "inf" or "-inf", and it reads back as written. */
static int prd_kv_double_ovf(struct prd *r, const char *key, const char *shape, double *out)
{
	int rc = prd_expect(r, key, 1, shape);

	if (rc < 0)
		return rc;
	if (r->toklen[1] == 3 && memcmp(r->tok[1], "inf", 3) == 0) {
		*out = INFINITY;
		return 0;
	}
	if (r->toklen[1] == 4 && memcmp(r->tok[1], "-inf", 4) == 0) {
		*out = -INFINITY;
		return 0;
	}
	return prd_double(r, 1, out);
}

static int prd_kv_count(struct prd *r, const char *key, const char *shape,
			unsigned long long *out)
{
	int rc = prd_expect(r, key, 1, shape);

	return rc < 0 ? rc : prd_count(r, 1, out);
}

/* The bucket lines and "end" (D10). */
static int prd_buckets(struct prd *r, struct bl_partial *p)
{
	bool seen_pos = false, have_prev = false;
	long prev = 0;
	long long idx;
	unsigned long long c;
	int rc;

	for (;;) {
		bool is_pos;

		rc = prd_next(r);
		if (rc == 1) {
			r->line++;
			snprintf(r->why, r->whysz, "unexpected end of input, expected 'end'");
			return -BL_EFORMAT;
		}
		if (rc < 0)
			return rc;
		if (prd_is(r, "end", 0))
			return 0;
		is_pos = prd_is(r, "pos", 2);
		if (!is_pos && !prd_is(r, "neg", 2)) {
			snprintf(r->why, r->whysz, "expected 'neg|pos <index> <count>' or 'end', got '%.40s'", r->buf);
			return -BL_EFORMAT;
		}
		if (is_pos && !seen_pos) {
			seen_pos = true;
			have_prev = false;
		} else if (!is_pos && seen_pos) {
			snprintf(r->why, r->whysz, "'neg' bucket after 'pos' buckets");
			return -BL_EFORMAT;
		}
		rc = bl_parse_ll(r->tok[1], r->toklen[1], &idx);
		if (rc < 0 || idx <= -SK_INDEX_LIMIT || idx >= SK_INDEX_LIMIT) {
			snprintf(r->why, r->whysz, "bucket index '%.*s' out of range",
				 (int)(r->toklen[1] > 40 ? 40 : r->toklen[1]), r->tok[1]);
			return -BL_ERANGE;
		}
		if (have_prev && (long)idx <= prev) {
			snprintf(r->why, r->whysz, "bucket index %lld not above %ld", idx, prev);
			return -BL_EFORMAT;
		}
		rc = prd_count(r, 2, &c);
		if (rc < 0)
			return rc;
		if (c == 0) {
			snprintf(r->why, r->whysz, "empty bucket %lld listed", idx);
			return -BL_EFORMAT;
		}
		{
			const struct bl_sketch_store *st = is_pos ? &p->sk.pos : &p->sk.neg;

			if (st->len > 0 && (long)idx - st->lo + 1 > BL_SKETCH_MAX_BUCKETS) {
				snprintf(r->why, r->whysz, "buckets span more than %d indexes",
					 BL_SKETCH_MAX_BUCKETS);
				return -BL_EFORMAT;
			}
		}
		store_add(is_pos ? &p->sk.pos : &p->sk.neg, (long)idx, c, 0, &p->sk.collapsed);
		prev = (long)idx;
		have_prev = true;
	}
}

/* The D2 state of a partial: version 2 writes it as kept (shift, offset,
 * scaled m2, scale); version 1 wrote the mean and the unscaled m2 only,
 * read as shift = mean. 0 or a negative error with r->why set. */
static int prd_welford(struct prd *r, long long version, unsigned long long n,
		       struct bl_welford *w)
{
	double mean, shift, off = 0.0, m2, mn, mx, tol;
	long long scale = 0;
	int rc;

	if ((rc = prd_kv_double(r, "mean", "mean <number>", &mean)) < 0)
		return rc;
	shift = mean;
	if (version >= 2 &&
	    ((rc = prd_kv_double(r, "shift", "shift <number>", &shift)) < 0 ||
	     (rc = prd_kv_double(r, "offset", "offset <number>", &off)) < 0))
		return rc;
	if ((rc = (version >= 2 ? prd_kv_double : prd_kv_double_ovf)(r, "m2", "m2 <number>", &m2)) < 0)
		return rc;
	if (m2 < 0.0) {
		snprintf(r->why, r->whysz, "m2 is negative");
		return -BL_ERANGE;
	}
	if (version >= 2) {
		if ((rc = prd_expect(r, "scale", 1, "scale <exponent>")) < 0)
			return rc;
		if (bl_parse_ll(r->tok[1], r->toklen[1], &scale) < 0 || scale < -1100 || scale > 1023) {
			snprintf(r->why, r->whysz, "scale '%.20s' is not an exponent from -1100 to 1023", r->tok[1]);
			return -BL_ERANGE;
		}
	}
	if ((rc = prd_kv_double(r, "min", "min <number>", &mn)) < 0 ||
	    (rc = prd_kv_double(r, "max", "max <number>", &mx)) < 0)
		return rc;
	tol = 1e-12 * fmax(fabs(mn), fabs(mx));
	if (mn > mx || mean < mn - tol || mean > mx + tol) {
		snprintf(r->why, r->whysz, "min, mean and max are not in order");
		return -BL_EFORMAT;
	}
	if (version < 2) {
		double big = fmax(fabs(mn), fabs(mx));
		scale = big > 0.0 ? ilogb(big) : -1100;
		m2 = ldexp(m2, -2 * (int)scale);
	}
	bl__welford_set(w, n, mean, mn, mx, shift, off, m2, (int)scale);
	return 0;
}

static int prd_partial(struct prd *r, struct bl_partial *p)
{
	unsigned long long n, tot, collapsed = 0;
	double alpha;
	long long buckets, version;
	int rc;

	/* Header; blank lines before it are allowed (between partials). */
	do {
		rc = prd_next(r);
		if (rc != 0)
			return rc; /* 1: clean end of input */
	} while (r->ntok == 0);
	if (!(r->ntok == 2 && r->toklen[0] == 16 && memcmp(r->tok[0], "benchlog-partial", 16) == 0)) {
		snprintf(r->why, r->whysz, "expected 'benchlog-partial 2', got '%.40s'", r->buf);
		return -BL_EFORMAT;
	}
	if (bl_parse_ll(r->tok[1], r->toklen[1], &version) < 0 || version < 1 || version > 2) {
		snprintf(r->why, r->whysz, "unsupported partial format version '%.*s'",
			 (int)(r->toklen[1] > 20 ? 20 : r->toklen[1]), r->tok[1]);
		return -BL_EFORMAT;
	}
	if ((rc = prd_kv_count(r, "count", "count <n>", &n)) < 0 ||
	    (rc = prd_kv_count(r, "rejected", "rejected <n>", &p->rejected)) < 0 ||
	    (rc = prd_kv_double_ovf(r, "sum", "sum <number>", &p->sum)) < 0)
		return rc;
	if (n > 0 && (rc = prd_welford(r, version, n, &p->w)) < 0)
		return rc;
	if ((rc = prd_expect(r, "sketch", 2, "sketch 0.01 2048")) < 0)
		return rc;
	if (bl_parse_double(r->tok[1], r->toklen[1], &alpha) < 0 || alpha != BL_SKETCH_ALPHA ||
	    bl_parse_ll(r->tok[2], r->toklen[2], &buckets) < 0 || buckets != BL_SKETCH_MAX_BUCKETS) {
		snprintf(r->why, r->whysz, "sketch parameters '%.40s' differ from 0.01 2048", r->buf);
		return -BL_EFORMAT;
	}
	if (version >= 2 && (rc = prd_kv_count(r, "collapsed", "collapsed <n>", &collapsed)) < 0)
		return rc;
	if ((rc = prd_kv_count(r, "zero", "zero <n>", &p->sk.zero)) < 0)
		return rc;
	if ((rc = prd_buckets(r, p)) < 0)
		return rc;
	tot = p->sk.zero + store_total(&p->sk.pos) + store_total(&p->sk.neg);
	if (tot != n) {
		snprintf(r->why, r->whysz, "bucket counts add up to %llu, count is %llu", tot, n);
		return -BL_EFORMAT;
	}
	if (collapsed > n) {
		snprintf(r->why, r->whysz, "collapsed %llu is more than count %llu", collapsed, n);
		return -BL_EFORMAT;
	}
	p->sk.collapsed = collapsed;
	/* The file gives the total only: the folded values sit in the lowest
	 * bucket of pos or neg; credit them there, so a later fold of that
	 * bucket does not count them again. */
	if (p->sk.pos.len > 0)
		p->sk.pos.folded = collapsed < p->sk.pos.counts[0] ? collapsed : p->sk.pos.counts[0];
	if (p->sk.neg.len > 0) {
		unsigned long long rest = collapsed - p->sk.pos.folded;
		p->sk.neg.folded = rest < p->sk.neg.counts[0] ? rest : p->sk.neg.counts[0];
	}
	return 0;
}

int bl_partial_read(FILE *f, struct bl_partial *p, unsigned long *line,
		    char *why, size_t whysz)
{
	struct prd r;
	char dummy[1];
	int rc;

	if (line)
		*line = 0;
	if (f == NULL || p == NULL)
		return -BL_EUSAGE;
	memset(&r, 0, sizeof r);
	r.f = f;
	r.why = why ? why : dummy;
	r.whysz = why ? whysz : sizeof dummy;
	if (r.whysz > 0)
		r.why[0] = '\0';
	bl_partial_release(p);
	rc = prd_partial(&r, p);
	if (rc != 0)
		bl_partial_release(p);
	if (line)
		*line = r.line;
	return rc;
}

/* ---- D11: streaming distribution --------------------------------------- */

struct bl_dist {
	struct bl_partial agg;  /* welford, sum, rejected always; sketch once !exact */
	double *x;              /* the samples while exact */
	size_t len, cap;
	size_t exact_max;       /* samples kept before switching to the sketch */
	size_t *budget;         /* values the run may still keep; NULL: no shared bound */
	bool exact;
	bool sorted;
};

struct bl_dist *bl_dist_new_exact(size_t exact_max, size_t *budget)
{
	struct bl_dist *d = bl_xcalloc(1, sizeof *d);

	bl_partial_init(&d->agg);
	d->exact_max = exact_max < 1 ? 1 : exact_max > BL_DIST_EXACT_MAX ? BL_DIST_EXACT_MAX : exact_max;
	d->budget = budget;
	d->exact = true;
	d->sorted = true;
	return d;
}

/* Give the room of the stored samples back to the shared budget. */
static void dist_drop_samples(struct bl_dist *d)
{
	if (d->budget)
		*d->budget += d->cap;
	free(d->x);
	d->x = NULL;
	d->len = d->cap = 0;
}

void bl_dist_free(struct bl_dist *d)
{
	if (d == NULL)
		return;
	bl_partial_release(&d->agg);
	dist_drop_samples(d);
	free(d);
}

/* Leave exact mode: every stored sample goes into the sketch. */
static void dist_to_sketch(struct bl_dist *d)
{
	size_t i;

	if (!d->exact)
		return;
	for (i = 0; i < d->len; i++)
		sketch_add(&d->agg.sk, d->x[i], 1);
	dist_drop_samples(d);
	d->exact = false;
}

/* Store x while the column's bound and the shared budget allow (D11);
 * else the column turns to the sketch. */
static void dist_push(struct bl_dist *d, double x)
{
	if (d->exact && d->len == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 4;
		if (cap > d->exact_max)
			cap = d->exact_max;
		if (cap == d->cap || (d->budget && *d->budget < cap - d->cap)) {
			dist_to_sketch(d);
		} else {
			if (d->budget)
				*d->budget -= cap - d->cap;
			d->cap = cap;
			d->x = bl_xrealloc(d->x, d->cap * sizeof *d->x);
		}
	}
	if (!d->exact) {
		sketch_add(&d->agg.sk, x, 1);
		return;
	}
	d->x[d->len++] = x;
	d->sorted = false;
}

int bl_dist_add(struct bl_dist *d, double x)
{
	if (!isfinite(x)) {
		d->agg.rejected++;
		return -BL_ERANGE; /* D0 */
	}
	bl_welford_add(&d->agg.w, x);
	d->agg.sum += x;
	dist_push(d, x);
	return 0;
}

double bl_dist_percentile(struct bl_dist *d, double p, enum bl_pct_rule rule)
{
	if (d == NULL)
		return NAN;
	if (!d->exact)
		return bl_partial_percentile(&d->agg, p, rule);
	if (!d->sorted && d->len > 1) {
		bl__sort_double(d->x, d->len);
		d->sorted = true;
	}
	return bl_percentile_sorted(d->x, d->len, p, rule);
}

bool bl_dist_is_exact(const struct bl_dist *d)
{
	return d->exact;
}

const struct bl_welford *bl_dist_welford(const struct bl_dist *d)
{
	return &d->agg.w;
}

int bl_dist_log_welford(const struct bl_dist *d, struct bl_welford *out)
{
	bl_welford_init(out);
	if (!d->exact || (d->len && !(d->agg.w.min > 0)))
		return -BL_ERANGE;
	for (size_t i = 0; i < d->len; i++)
		bl_welford_add(out, log(d->x[i]));
	return 0;
}

unsigned long long bl_dist_rejected(const struct bl_dist *d)
{
	return d->agg.rejected;
}

unsigned long long bl_dist_collapsed(const struct bl_dist *d)
{
	return d->exact ? 0 : d->agg.sk.collapsed;
}

void bl_dist_to_partial(const struct bl_dist *d, struct bl_partial *out)
{
	size_t i;

	bl_partial_release(out);
	bl_partial_merge(out, &d->agg);
	for (i = 0; d->exact && i < d->len; i++)
		sketch_add(&out->sk, d->x[i], 1);
}

static void save_stores(const struct bl_sketch *sk, FILE *f)
{
	bl_spool_put_arr(f, sk->pos.counts, sk->pos.len, sizeof *sk->pos.counts);
	bl_spool_put_arr(f, sk->neg.counts, sk->neg.len, sizeof *sk->neg.counts);
}

/* The counts of a sketch read back as a struct: false (and every store
 * empty, so it can be released) when f ends short. */
static bool load_stores(struct bl_sketch *sk, FILE *f, bool ok)
{
	struct bl_sketch_store *st[2] = { &sk->pos, &sk->neg };
	for (int i = 0; i < 2; i++) {
		if (!ok)
			st[i]->len = 0;
		ok = bl_spool_get_arr(f, &st[i]->counts, st[i]->len, sizeof *st[i]->counts) == 0 && ok;
		st[i]->cap = st[i]->len;
	}
	return ok;
}

int bl_dist_save(const struct bl_dist *d, FILE *f)
{
	/* the struct as it is, then what its pointers hold */
	fwrite(d, sizeof *d, 1, f);
	bl_spool_put_arr(f, d->x, d->len, sizeof *d->x);
	save_stores(&d->agg.sk, f);
	return ferror(f) ? -BL_EIO : 0;
}

struct bl_dist *bl_dist_load(FILE *f)
{
	struct bl_dist *d = bl_xmalloc(sizeof *d);
	double *x = NULL;
	if (fread(d, sizeof *d, 1, f) != 1) {
		free(d);
		return NULL;
	}
	bool ok = load_stores(&d->agg.sk, f, bl_spool_get_arr(f, &x, d->len, sizeof *x) == 0);
	/* the samples come back through the budget, which may have less room now */
	size_t n = d->len;
	d->x = NULL;
	d->len = d->cap = 0;
	for (size_t i = 0; ok && i < n; i++)
		dist_push(d, x[i]);
	free(x);
	if (!ok) {
		bl_dist_free(d);
		return NULL;
	}
	return d;
}

int bl_partial_save(const struct bl_partial *p, FILE *f)
{
	fwrite(p, sizeof *p, 1, f);
	save_stores(&p->sk, f);
	return ferror(f) ? -BL_EIO : 0;
}

struct bl_partial *bl_partial_load(FILE *f)
{
	struct bl_partial *p = bl_xmalloc(sizeof *p);
	if (fread(p, sizeof *p, 1, f) != 1) {
		free(p);
		return NULL;
	}
	if (!load_stores(&p->sk, f, true)) {
		bl_partial_release(p);
		free(p);
		return NULL;
	}
	return p;
}

/* ---- histograms over given edges ---------------------------------------- */

static bool edges_ok(const double *e, size_t nbins)
{
	size_t i;

	if (e == NULL || nbins == 0)
		return false;
	for (i = 0; i <= nbins; i++)
		if (!isfinite(e[i]) || (i > 0 && e[i] < e[i - 1]))
			return false;
	return true;
}

/* The bin of x: the last i with e[i] <= x, x = e[nbins] in the last bin;
 * nbins when x is outside [e[0], e[nbins]]. */
static size_t bin_of(const double *e, size_t nbins, double x)
{
	size_t lo = 0, hi = nbins;

	if (x < e[0] || x > e[nbins])
		return nbins;
	if (x >= e[nbins - 1])
		return nbins - 1;
	/* invariant: e[lo] <= x < e[hi] */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (e[mid] <= x)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void store_histogram(const struct bl_sketch_store *st, double sign,
			    const struct bl_welford *w, const double *e, size_t nbins,
			    unsigned long long *counts)
{
	size_t k, b;

	for (k = 0; k < st->len; k++) {
		double v;
		if (st->counts[k] == 0)
			continue;
		v = sign * sk_value(st->lo + (long)k);
		if (v < w->min)
			v = w->min;
		if (v > w->max)
			v = w->max;
		b = bin_of(e, nbins, v);
		if (b < nbins)
			counts[b] += st->counts[k];
	}
}

int bl_partial_histogram(const struct bl_partial *p, const double *e, size_t nbins,
			 unsigned long long *counts)
{
	size_t b;

	if (p == NULL || counts == NULL || !edges_ok(e, nbins))
		return -BL_EUSAGE;
	memset(counts, 0, nbins * sizeof *counts);
	if (p->w.n == 0)
		return 0;
	store_histogram(&p->sk.neg, -1.0, &p->w, e, nbins, counts);
	store_histogram(&p->sk.pos, 1.0, &p->w, e, nbins, counts);
	if (p->sk.zero) {
		double v = 0.0 < p->w.min ? p->w.min : 0.0 > p->w.max ? p->w.max : 0.0;
		b = bin_of(e, nbins, v);
		if (b < nbins)
			counts[b] += p->sk.zero;
	}
	return 0;
}

int bl_dist_histogram(struct bl_dist *d, const double *e, size_t nbins,
		      unsigned long long *counts)
{
	size_t i, b;

	if (d == NULL || counts == NULL || !edges_ok(e, nbins))
		return -BL_EUSAGE;
	if (!d->exact)
		return bl_partial_histogram(&d->agg, e, nbins, counts);
	memset(counts, 0, nbins * sizeof *counts);
	for (i = 0; i < d->len; i++) {
		b = bin_of(e, nbins, d->x[i]);
		if (b < nbins)
			counts[b]++;
	}
	return 0;
}
