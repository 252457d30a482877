/* util.c — see util.h. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "core/util.h"

const char *bl_strerror(int err)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case BL_OK: return "success";
	case BL_ENOMEM: return "out of memory or buffer limit reached";
	case BL_EIO: return "input/output error";
	case BL_EFORMAT: return "unexpected input format";
	case BL_ERANGE: return "number out of range";
	case BL_ETOOLONG: return "line too long";
	case BL_ECORRUPT: return "corrupt compressed data";
	case BL_EUSAGE: return "invalid usage";
	case BL_EINTR: return "interrupted";
	case BL_ENOTFOUND: return "not found";
	}
	return "unknown error";
}

static void oom(size_t n)
{
	fprintf(stderr, "benchlog: out of memory (%zu bytes)\n", n);
	abort();
}

void *bl_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *bl_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		oom(n * size);
	return p;
}

void *bl_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

void *bl_xgrow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	size_t c = *cap > SIZE_MAX / 2 ? SIZE_MAX : *cap * 2;
	if (c < need)
		c = need;
	if (c < 8)
		c = 8;
	if (size && c > SIZE_MAX / size)
		oom(SIZE_MAX);
	p = bl_xrealloc(p, c * size);
	*cap = c;
	return p;
}

char *bl_xstrdup(const char *s)
{
	return bl_xstrndup(s, strlen(s));
}

char *bl_xstrndup(const char *s, size_t n)
{
	n = strnlen(s, n);   /* strndup(3): stop at a NUL before n bytes */
	char *p = bl_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *bl_xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom(0);
	char *p = bl_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Exact powers of ten: every one up to 1e22 is a double. */
static const double pow10_exact[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* The common case of bl_parse_double without strtod: [+-]digits[.digits]
 * with at most 15 digits in all. The digits form an integer m < 10^15
 * (exact in a double) and the value is m / 10^f with 10^f exact, so one
 * correctly rounded IEEE division gives the double nearest to the decimal,
 * which is what strtod returns (Clinger's fast path). Returns false when
 * the text is not of that shape; the caller then takes the general path. */
static bool parse_double_fast(const char *s, size_t len, double *out)
{
	size_t i = 0;
	bool neg = false;
	if (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-';
		i = 1;
	}
	unsigned long long m = 0;
	size_t digits = 0, frac = 0;
	bool dot = false;
	for (; i < len; i++) {
		char c = s[i];
		if (c >= '0' && c <= '9') {
			m = m * 10 + (unsigned)(c - '0');
			digits++;
			frac += dot;
		} else if (c == '.' && !dot) {
			dot = true;
		} else {
			return false;
		}
	}
	if (digits == 0 || digits > 15)
		return false;
	double d = (double)m;
	if (frac)
		d /= pow10_exact[frac];
	*out = neg ? -d : d;
	return true;
}

int bl_parse_double(const char *s, size_t len, double *out)
{
	char tmp[64];
	if (len == (size_t)-1)
		len = strlen(s);
	while (len && is_blank(*s))
		s++, len--;
	while (len && is_blank(s[len - 1]))
		len--;
	if (len == 0 || len >= sizeof tmp)
		return -BL_EFORMAT;
	if (parse_double_fast(s, len, out))
		return 0;
	/* strtod accepts hex, "inf", "nan" and leading blanks; benchlog reads
	 * decimal numbers only, so check the characters first. */
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E'))
			return -BL_EFORMAT;
	}
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	char *end;
	errno = 0;
	double d = strtod(tmp, &end);
	if (end != tmp + len || end == tmp)
		return -BL_EFORMAT;
	if (errno == ERANGE || !isfinite(d))
		return -BL_ERANGE;
	*out = d;
	return 0;
}

int bl_parse_ll(const char *s, size_t len, long long *out)
{
	char tmp[32];
	if (len == (size_t)-1)
		len = strlen(s);
	while (len && is_blank(*s))
		s++, len--;
	while (len && is_blank(s[len - 1]))
		len--;
	if (len == 0)
		return -BL_EFORMAT;
	if (len >= sizeof tmp)
		return -BL_ERANGE;
	/* Fast path: up to 18 digits cannot overflow a long long. */
	if (len <= 18 && s[0] >= '0' && s[0] <= '9') {
		long long v = 0;
		size_t i = 0;
		while (i < len && s[i] >= '0' && s[i] <= '9')
			v = v * 10 + (s[i++] - '0');
		if (i == len) {
			*out = v;
			return 0;
		}
	}
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (!((c >= '0' && c <= '9') || (i == 0 && (c == '-' || c == '+'))))
			return -BL_EFORMAT;
	}
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	char *end;
	errno = 0;
	long long v = strtoll(tmp, &end, 10);
	if (end != tmp + len)
		return -BL_EFORMAT;
	if (errno == ERANGE)
		return -BL_ERANGE;
	*out = v;
	return 0;
}

void bl_scan_blanks(struct bl_scan *s)
{
	while (s->p < s->end && is_blank(*s->p))
		s->p++;
}

bool bl_scan_at_end(const struct bl_scan *s)
{
	const char *p = s->p;
	while (p < s->end && is_blank(*p))
		p++;
	return p == s->end;
}

int bl_scan_word(struct bl_scan *s, const char **w, size_t *wlen)
{
	const char *p = s->p;
	while (p < s->end && is_blank(*p))
		p++;
	const char *b = p;
	while (p < s->end && !is_blank(*p))
		p++;
	if (p == b)
		return -BL_EFORMAT;
	*w = b;
	*wlen = (size_t)(p - b);
	s->p = p;
	return 0;
}

int bl_scan_double(struct bl_scan *s, double *out)
{
	struct bl_scan t = *s;
	const char *w;
	size_t wl;
	int rc = bl_scan_word(&t, &w, &wl);
	if (rc == 0)
		rc = bl_parse_double(w, wl, out);
	if (rc == 0)
		*s = t;
	return rc;
}

int bl_scan_ll(struct bl_scan *s, long long *out)
{
	struct bl_scan t = *s;
	const char *w;
	size_t wl;
	int rc = bl_scan_word(&t, &w, &wl);
	if (rc == 0)
		rc = bl_parse_ll(w, wl, out);
	if (rc == 0)
		*s = t;
	return rc;
}

int bl_scan_lit(struct bl_scan *s, const char *lit)
{
	size_t n = strlen(lit);
	if ((size_t)(s->end - s->p) < n || memcmp(s->p, lit, n) != 0)
		return -BL_EFORMAT;
	s->p += n;
	return 0;
}

/* Bit i set when byte i of p[0..n) (n <= 64) is a blank, and for every
 * i >= n (past the end counts as blank). With SSE2, 16 bytes per compare. */
static uint64_t blank_mask(const char *p, size_t n)
{
	uint64_t m = 0;
#ifdef __SSE2__
	const __m128i sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');
	size_t i = 0;
	for (; i + 16 <= n; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		__m128i b = _mm_or_si128(_mm_cmpeq_epi8(x, sp), _mm_cmpeq_epi8(x, tab));
		m |= (uint64_t)(unsigned)_mm_movemask_epi8(b) << i;
	}
	if (i < n) {
		char tail[16] = {0};
		memcpy(tail, p + i, n - i);
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)tail);
		__m128i b = _mm_or_si128(_mm_cmpeq_epi8(x, sp), _mm_cmpeq_epi8(x, tab));
		m |= (uint64_t)(unsigned)_mm_movemask_epi8(b) << i;
	}
#else
	for (size_t i = 0; i < n; i++)
		if (is_blank(p[i]))
			m |= 1ull << i;
#endif
	if (n < 64)
		m |= ~0ull << n;
	return m;
}

/* Token boundaries come from bit masks 64 bytes at a time rather than a
 * branch per byte: a row of vmstat numbers has a token boundary every few
 * bytes, and the mispredicted branches were most of the cost. */
size_t bl_split_blanks(const char *p, size_t len, const char **tok, size_t *toklen, size_t max)
{
	size_t n = 0;
	size_t start = 0;
	uint64_t carry = 0;            /* 1: a token runs into this chunk */
	for (size_t base = 0; base < len; base += 64) {
		size_t chunk = len - base < 64 ? len - base : 64;
		uint64_t word = ~blank_mask(p + base, chunk);   /* non-blank bytes */
		uint64_t prev = (word << 1) | carry;
		uint64_t edges = (word & ~prev) | (~word & prev); /* starts and ends */
		while (edges) {
			unsigned i = (unsigned)__builtin_ctzll(edges);
			edges &= edges - 1;
			size_t pos = base + i;
			if (word >> i & 1) {
				start = pos;
			} else {
				if (n < max) {
					tok[n] = p + start;
					toklen[n] = pos - start;
				}
				n++;
			}
		}
		carry = word >> 63;
	}
	if (carry) {                   /* a token ends exactly at len */
		if (n < max) {
			tok[n] = p + start;
			toklen[n] = len - start;
		}
		n++;
	}
	return n;
}

long bl_scan_uints(const char *p, size_t len, long long *v, size_t max)
{
	/* A byte at a time: vmstat's numbers are 1 to 7 digits, and a plain
	 * loop whose branches follow the digits beat reading eight at a time
	 * (SWAR over blank masks: 92 against 63 ns a row, 20 MB of vmstat). */
	size_t n = 0, i = 0;
	while (i < len) {
		while (i < len && (p[i] == ' ' || p[i] == '\t'))
			i++;
		if (i == len)
			break;
		unsigned d = (unsigned)(unsigned char)p[i] - '0';
		if (d > 9)
			return -1;
		unsigned long long x = d;
		size_t start = i++;
		while (i < len && (d = (unsigned)(unsigned char)p[i] - '0') <= 9) {
			x = x * 10 + d;
			i++;
		}
		if (i < len && p[i] != ' ' && p[i] != '\t')
			return -1;
		if (i - start > 18 || n == max)
			return -1;
		v[n++] = (long long)x;
	}
	return (long)n;
}

/* Digit and blank bits of p[0..len) (len <= 256), bit i of m[i / 64]. */
static void digit_blank_masks(const char *p, size_t len, uint64_t dm[4], uint64_t bm[4])
{
	dm[0] = dm[1] = dm[2] = dm[3] = bm[0] = bm[1] = bm[2] = bm[3] = 0;
#ifdef __SSE2__
	/* 16 bytes per compare, the last 16 read as the line's last 16
	 * bytes (never past its end) */
	if (len >= 16) {
		const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
		const __m128i sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');
		for (size_t i = 0; i < len; i += 16) {
			size_t at = i + 16 <= len ? i : len - 16;
			__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + at));
			__m128i d = _mm_sub_epi8(x, zero);
			unsigned dg = (unsigned)_mm_movemask_epi8(
				_mm_cmpeq_epi8(_mm_max_epu8(d, nine), nine));
			unsigned bl = (unsigned)_mm_movemask_epi8(
				_mm_or_si128(_mm_cmpeq_epi8(x, sp), _mm_cmpeq_epi8(x, tab)));
			unsigned sh = (unsigned)(i - at);      /* bytes read again */
			dg >>= sh;
			bl >>= sh;
			dm[i / 64] |= (uint64_t)dg << (i % 64);
			bm[i / 64] |= (uint64_t)bl << (i % 64);
		}
		return;
	}
#endif
	for (size_t i = 0; i < len; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			dm[i / 64] |= 1ull << (i % 64);
		else if (p[i] == ' ' || p[i] == '\t')
			bm[i / 64] |= 1ull << (i % 64);
	}
}

/* The numbers of a row in order, from its masks: the k-th first digit
 * and the k-th last digit make number k (it may cross from one word to
 * the next). A loop of count-trailing-zeros, no popcount (a libgcc call
 * where the build does not assume the POPCNT instruction). */
struct run_cursor {
	const struct bl_runs *r;
	size_t ws, we;               /* the words s and e come from */
	uint64_t s, e;               /* their bits not taken yet */
};

static inline void rc_init(struct run_cursor *c, const struct bl_runs *r)
{
	*c = (struct run_cursor){ r, 0, 0, r->start[0], r->end[0] };
}

/* The next number: its first byte, its length in *len; false when there
 * is none. */
static inline bool rc_next(struct run_cursor *c, size_t *at, size_t *len)
{
	while (!c->s) {
		if (++c->ws == 4)
			return false;
		c->s = c->r->start[c->ws];
	}
	while (!c->e)
		c->e = c->r->end[++c->we];   /* every start has its end */
	*at = c->ws * 64 + (unsigned)__builtin_ctzll(c->s);
	*len = c->we * 64 + (unsigned)__builtin_ctzll(c->e) + 1 - *at;
	c->s &= c->s - 1;
	c->e &= c->e - 1;
	return true;
}

static size_t run_at_plain(const struct bl_runs *r, size_t i, size_t *len)
{
	struct run_cursor c;
	size_t at = 0;
	rc_init(&c, r);
	for (size_t k = 0; k <= i; k++)
		rc_next(&c, &at, len);
	return at;
}

long bl_scan_runs_plain(const char *p, size_t len, size_t want, struct bl_runs *r)
{
	if (len > BL_RUNS_MAX_LEN)
		return -1;
	uint64_t dm[4], bm[4];
	digit_blank_masks(p, len, dm, bm);
	size_t nw = (len + 63) / 64;
	for (size_t w = 0; w < 4; w++) {
		r->start[w] = r->end[w] = 0;
		if (w >= nw)
			continue;
		uint64_t valid = w + 1 < nw || len % 64 == 0 ? ~0ull : (1ull << (len % 64)) - 1;
		if ((dm[w] | bm[w]) != valid)
			return -1;   /* a byte that is neither */
		uint64_t d = dm[w];
		uint64_t before = w ? dm[w - 1] >> 63 : 0, after = w + 1 < nw ? dm[w + 1] & 1 : 0;
		r->start[w] = d & ~(d << 1 | before);
		r->end[w] = d & ~(d >> 1 | after << 63);
	}
	struct run_cursor c;
	rc_init(&c, r);
	r->lead0 = false;
	size_t at, l;
	for (size_t k = 0; k < want; k++) {
		if (!rc_next(&c, &at, &l) || l > 18)
			return -1;   /* fewer numbers, or one of more than 18 digits */
		r->lead0 |= l > 1 && p[at] == '0';
	}
	return rc_next(&c, &at, &l) ? -1 : (long)want;   /* more numbers */
}

long bl_runs_fill_plain(const char *p, size_t len, size_t want, const struct bl_runs *r,
			const char *seg, const struct bl_fill *f, size_t nf, size_t end,
			size_t endlen, char *o)
{
	struct bl_runs own;
	if (!r) {
		if (bl_scan_runs_plain(p, len, want, &own) != (long)want)
			return -1;
		r = &own;
	}
	const char *e = p + len;
	char *o0 = o;
	struct run_cursor c;
	rc_init(&c, r);
	size_t next = 0;             /* the number c gives next */
	size_t at = 0, l = 0;
	for (size_t k = 0; k < nf; k++) {
		o = bl_copy16(o, seg + f[k].off, f[k].len);
		for (size_t i = f[k].a; i <= f[k].b; i++) {
			for (; next <= i; next++)   /* pieces come in order */
				rc_next(&c, &at, &l);
			const char *q = p + at;
			while (r->lead0 && *q == '0' && l > 1) {
				q++;
				l--;
			}
			if (l <= 16 && q + 16 <= e)
				memcpy(o, q, 16);   /* the bytes past l are written over */
			else
				memcpy(o, q, l);
			o += l;
			if (i < f[k].b)
				*o++ = ',';
		}
	}
	o = bl_copy16(o, seg + end, endlen);
	return (long)(o - o0);
}

/* The SIMD paths of the rows of numbers. A row of up to 128 bytes is
 * two 64-bit words of masks (bit k: byte k): its digits, blanks and '0'
 * bytes; from them come its runs without a loop per number
 * (runs_from_masks()). With AVX-512 (VBMI2) the masks come from two
 * 64-byte compares and the numbers of a CSV row from byte compresses;
 * with AVX2, from up to four 32-byte compares, and the numbers from a
 * byte shuffle through a table, 8 bytes at a time. */
#ifdef BL_AVX2
#include <immintrin.h>
#include <stdatomic.h>
#include <cpuid.h>

typedef unsigned __int128 u128;

/* bl_scan_runs() from a row's masks: d its digits, b its blanks, z its
 * '0' bytes, valid the bits below its length (no bit of d, b or z at or
 * above it). True when the row is want runs (then *r is set). Always
 * inlined: its callers' targets make the popcounts single instructions. */
static inline __attribute__((always_inline)) bool
runs_from_masks(u128 d, u128 b, u128 z, u128 valid, size_t want, struct bl_runs *r)
{
	if ((d | b) != valid)
		return false;                   /* a byte that is neither */
	u128 s = d & ~(d << 1), e = d & ~(d >> 1);
	uint64_t s0 = (uint64_t)s, s1 = (uint64_t)(s >> 64);
	if ((size_t)(__builtin_popcountll(s0) + __builtin_popcountll(s1)) != want)
		return false;
	/* 19 digits in a row: ANDs of the digit bits shifted by 1, 2, 4, 8
	 * (16 in a row), then by 3 */
	u128 x = d;
	x &= x >> 1;
	x &= x >> 2;
	x &= x >> 4;
	x &= x >> 8;
	if (x & x >> 3)
		return false;
	/* a first digit 0 that is not also the last one */
	r->lead0 = (s & z & ~e) != 0;
	r->start[0] = s0;
	r->start[1] = s1;
	r->end[0] = (uint64_t)e;
	r->end[1] = (uint64_t)(e >> 64);
	r->start[2] = r->start[3] = r->end[2] = r->end[3] = 0;
	return true;
}

/* Which bytes of a row a CSV piece keeps: its digits but a number's
 * leading zeros, and the first blank after each number (which becomes
 * the comma). d, z as for runs_from_masks(), r its result. */
static inline u128 keep_mask(u128 d, u128 z, const struct bl_runs *r)
{
	u128 keep = d | (d << 1 & ~d);
	if (r->lead0) {
		/* a number's zeros from its first digit on, but not its last
		 * digit: adding a bit at the start of a block of zeros clears
		 * the block (the carry stops at the byte after it) */
		u128 first = (u128)r->start[1] << 64 | r->start[0];
		u128 last = (u128)r->end[1] << 64 | r->end[0];
		keep &= ~(z & ~(z + (first & z)) & ~last);
	}
	return keep;
}

/* Bits from to to - 1 (from < to <= 128). */
static inline u128 span128(size_t from, size_t to)
{
	u128 hi = to >= 128 ? ~(u128)0 : ((u128)1 << to) - 1;
	return hi & ~(((u128)1 << from) - 1);
}

/* The widest paths BENCHLOG_SIMD lets run: 2 all (unset, empty,
 * "avx512" or anything else), 1 AVX2 and BMI2 but not AVX-512 ("avx2"),
 * 0 none of them ("sse2"). For the tests, which run each path on one
 * machine, and for measuring one against another; the output is the
 * same. */
static int simd_cap(void)
{
	const char *e = getenv("BENCHLOG_SIMD");
	if (e && strcmp(e, "avx2") == 0)
		return 1;
	if (e && strcmp(e, "sse2") == 0)
		return 0;
	return 2;
}

/* What the processor and kernel run, asked once (the answer is the same
 * on every thread): -1 not asked yet, else SIMD_ bits. */
enum { SIMD_AVX2 = 1, SIMD_AVX512 = 2, SIMD_PDEP = 4 };
static atomic_int simd_bits = -1;

/* PDEP is one instruction everywhere but on AMD before Zen 3 (families
 * 15h to 18h, Hygon's too), where it is microcode taking hundreds of
 * cycles. */
static bool fast_pdep(void)
{
	unsigned a, b, c, d;
	if (!__builtin_cpu_supports("bmi2") || !__get_cpuid(0, &a, &b, &c, &d))
		return false;
	bool amd = (b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163) ||   /* AuthenticAMD */
		   (b == 0x6f677948 && d == 0x6e65476e && c == 0x656e6975);     /* HygonGenuine */
	if (!amd)
		return true;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return false;
	unsigned family = (a >> 8 & 0xf) + ((a >> 8 & 0xf) == 0xf ? (a >> 20 & 0xff) : 0);
	return family >= 0x19;
}

static int simd_ask(void)
{
	__builtin_cpu_init();
	int cap = simd_cap(), h = 0;
	if (cap >= 1 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt"))
		h |= SIMD_AVX2;
#ifdef BL_AVX512
	if (cap >= 2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
	    __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2") &&
	    __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi") &&
	    __builtin_cpu_supports("bmi2"))
		h |= SIMD_AVX512;
#endif
	if (cap >= 1 && __builtin_cpu_supports("popcnt") && fast_pdep())
		h |= SIMD_PDEP;
	atomic_store_explicit(&simd_bits, h, memory_order_relaxed);
	return h;
}

static inline int simd(void)
{
	int h = atomic_load_explicit(&simd_bits, memory_order_relaxed);
	return h >= 0 ? h : simd_ask();
}

/* The i-th set bit of m[0..2) (there is one), by a bit deposit (where
 * SIMD_PDEP says it is fast). */
__attribute__((target("popcnt,bmi,bmi2")))
static inline size_t nth_bit2(const unsigned long long m[2], size_t i)
{
	size_t c = (size_t)_mm_popcnt_u64(m[0]);
	if (i < c)
		return (size_t)_tzcnt_u64(_pdep_u64(1ull << i, m[0]));
	return 64 + (size_t)_tzcnt_u64(_pdep_u64(1ull << (i - c), m[1]));
}

/* bl_run_at() for runs in two words, by nth_bit2(). */
__attribute__((target("popcnt,bmi,bmi2")))
static size_t run_at2(const struct bl_runs *r, size_t i, size_t *len)
{
	size_t a = nth_bit2(r->start, i);
	*len = nth_bit2(r->end, i) + 1 - a;
	return a;
}
#endif

#ifdef BL_AVX512
#define AVX512_TARGET BL_AVX512_TARGET

/* Whether a row of up to 128 bytes is want runs (into *r), as
 * bl_scan_runs(); the row into *rx0 and *rx1 (zeros past len), its
 * digits' bits into *rd and its '0' bytes' into *rz (bit k: byte k). */
AVX512_TARGET
static inline bool scan_runs_regs(const char *p, size_t len, size_t want, struct bl_runs *r,
				  __m512i *rx0, __m512i *rx1, u128 *rd, u128 *rz)
{
	__mmask64 m0 = len >= 64 ? ~0ull : (1ull << len) - 1;
	__mmask64 m1 = len <= 64 ? 0 : len >= 128 ? ~0ull : (1ull << (len - 64)) - 1;
	__m512i x0 = _mm512_maskz_loadu_epi8(m0, p);
	__m512i x1 = _mm512_maskz_loadu_epi8(m1, p + 64);
	*rx0 = x0;
	*rx1 = x1;
	const __m512i zero = _mm512_set1_epi8('0'), nine = _mm512_set1_epi8(9);
	const __m512i sp = _mm512_set1_epi8(' '), tab = _mm512_set1_epi8('\t');
	uint64_t d0 = _mm512_mask_cmple_epu8_mask(m0, _mm512_sub_epi8(x0, zero), nine);
	uint64_t d1 = _mm512_mask_cmple_epu8_mask(m1, _mm512_sub_epi8(x1, zero), nine);
	uint64_t b0 = _mm512_mask_cmpeq_epi8_mask(m0, x0, sp) | _mm512_mask_cmpeq_epi8_mask(m0, x0, tab);
	uint64_t b1 = _mm512_mask_cmpeq_epi8_mask(m1, x1, sp) | _mm512_mask_cmpeq_epi8_mask(m1, x1, tab);
	uint64_t z0 = _mm512_mask_cmpeq_epi8_mask(m0, x0, zero);
	uint64_t z1 = _mm512_mask_cmpeq_epi8_mask(m1, x1, zero);
	u128 d = (u128)d1 << 64 | d0;
	*rd = d;
	*rz = (u128)z1 << 64 | z0;
	return runs_from_masks(d, (u128)b1 << 64 | b0, *rz, (u128)m1 << 64 | m0, want, r);
}

AVX512_TARGET
static long scan_runs_avx512(const char *p, size_t len, size_t want, struct bl_runs *r)
{
	__m512i x0, x1;
	u128 d, z;
	return scan_runs_regs(p, len, want, r, &x0, &x1, &d, &z) ? (long)want : -1;
}

/* Bits from to to - 1 of the 64-bit word whose bit 0 is byte base
 * (from < to). */
static inline uint64_t span_bits(size_t from, size_t to, size_t base)
{
	uint64_t lo = from <= base ? ~0ull : from >= base + 64 ? 0 : ~0ull << (from - base);
	uint64_t hi = to >= base + 64 ? ~0ull : to <= base ? 0 : (1ull << (to - base)) - 1;
	return lo & hi;
}

/* bl_runs_fill() for a row of up to 128 bytes, read once: the row is two
 * registers with a comma in place of every blank, and a keep mask of the
 * digits (leading zeros left out) and of the first blank after each
 * number; a piece's numbers are the kept bytes from its first number's
 * first digit to its last number's last digit, compressed. */
AVX512_TARGET
static long fill_avx512(const char *p, size_t len, size_t want, const char *seg,
			const struct bl_fill *f, size_t nf, size_t end, size_t endlen, char *o)
{
	struct bl_runs r;
	__m512i x0, x1;
	u128 d, z;
	if (!scan_runs_regs(p, len, want, &r, &x0, &x1, &d, &z))
		return -1;
	u128 keep = keep_mask(d, z, &r);
	const __m512i comma = _mm512_set1_epi8(',');
	__m512i y0 = _mm512_mask_blend_epi8((uint64_t)d, comma, x0);
	__m512i y1 = _mm512_mask_blend_epi8((uint64_t)(d >> 64), comma, x1);
	uint64_t k0 = (uint64_t)keep, k1 = (uint64_t)(keep >> 64);
	char *o0 = o;
	for (size_t k = 0; k < nf; k++) {
		o = bl_copy16(o, seg + f[k].off, f[k].len);
		size_t from = nth_bit2(r.start, f[k].a), to = nth_bit2(r.end, f[k].b) + 1;
		if (from < 64) {
			uint64_t g = k0 & span_bits(from, to, 0);
			_mm512_storeu_si512(o, _mm512_maskz_compress_epi8(g, y0));
			o += _mm_popcnt_u64(g);
		}
		if (to > 64) {
			uint64_t g = k1 & span_bits(from, to, 64);
			_mm512_storeu_si512(o, _mm512_maskz_compress_epi8(g, y1));
			o += _mm_popcnt_u64(g);
		}
	}
	o = bl_copy16(o, seg + end, endlen);
	return (long)(o - o0);
}

bool bl_have_avx512(void)
{
	return simd() & SIMD_AVX512;
}
#else
bool bl_have_avx512(void)
{
	return false;
}
#endif

#ifdef BL_AVX2
#define AVX2_TARGET BL_AVX2_TARGET

/* The masks of the 32 bytes of a row from byte q * 32 (bit k: byte
 * q * 32 + k; none from len up), read as the row's last 32 where fewer
 * are left (never past its end): its digits, blanks and '0' bytes; with
 * y, the bytes into y with a comma for every one that is not a digit. */
AVX2_TARGET
static inline void masks32(const char *p, size_t len, size_t q, char *y, uint64_t *dg,
			   uint64_t *bl, uint64_t *zr)
{
	const __m256i zero = _mm256_set1_epi8('0'), nine = _mm256_set1_epi8(9);
	const __m256i sp = _mm256_set1_epi8(' '), tab = _mm256_set1_epi8('\t');
	size_t at = q * 32 + 32 <= len ? q * 32 : len - 32;
	unsigned sh = (unsigned)(q * 32 - at);    /* bytes read again */
	__m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(p + at));
	__m256i dv = _mm256_cmpeq_epi8(_mm256_max_epu8(_mm256_sub_epi8(x, zero), nine), nine);
	__m256i bv = _mm256_or_si256(_mm256_cmpeq_epi8(x, sp), _mm256_cmpeq_epi8(x, tab));
	*dg = (uint32_t)_mm256_movemask_epi8(dv) >> sh;
	*bl = (uint32_t)_mm256_movemask_epi8(bv) >> sh;
	*zr = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(x, zero)) >> sh;
	if (y)
		_mm256_storeu_si256((__m256i *)(void *)(y + at),
				    _mm256_blendv_epi8(_mm256_set1_epi8(','), x, dv));
}

/* Whether a row of 32 to 128 bytes is want runs (into *r), as
 * bl_scan_runs(), by masks32(); its digits' bits into *rd and its '0'
 * bytes' into *rz; with y (128 + 16 bytes), the row into y with a comma
 * in place of every byte that is not a digit (bytes from len up are left
 * as they were). The masks are put together in registers (a 64-bit load
 * of two 32-bit stores would wait for them). */
AVX2_TARGET
static inline bool scan_runs_y(const char *p, size_t len, size_t want, struct bl_runs *r,
			       char *y, u128 *rd, u128 *rz)
{
	uint64_t d[4] = { 0, 0, 0, 0 }, b[4] = { 0, 0, 0, 0 }, z[4] = { 0, 0, 0, 0 };
	masks32(p, len, 0, y, &d[0], &b[0], &z[0]);
	if (len > 32)
		masks32(p, len, 1, y, &d[1], &b[1], &z[1]);
	if (len > 64)
		masks32(p, len, 2, y, &d[2], &b[2], &z[2]);
	if (len > 96)
		masks32(p, len, 3, y, &d[3], &b[3], &z[3]);
#define W128(w) ((u128)((w)[3] << 32 | (w)[2]) << 64 | ((w)[1] << 32 | (w)[0]))
	u128 dd = W128(d), zz = W128(z);
	*rd = dd;
	*rz = zz;
	return runs_from_masks(dd, W128(b), zz, span128(0, len), want, r);
#undef W128
}

AVX2_TARGET
static long scan_runs_avx2(const char *p, size_t len, size_t want, struct bl_runs *r)
{
	u128 d, z;
	return scan_runs_y(p, len, want, r, NULL, &d, &z) ? (long)want : -1;
}

/* The i-th set bit of m[0..2) (there is one): the word by a popcount,
 * then the bits below cleared one by one (no bit deposit: PDEP takes
 * hundreds of cycles on AMD processors before Zen 3). */
AVX2_TARGET
static inline size_t select2(const unsigned long long m[2], size_t i)
{
	if (i == 0)   /* the first number of a row */
		return m[0] ? (size_t)__builtin_ctzll(m[0]) : 64 + (size_t)__builtin_ctzll(m[1]);
	size_t c = (size_t)__builtin_popcountll(m[0]);
	uint64_t w = m[0];
	size_t base = 0;
	if (i >= c) {
		w = m[1];
		i -= c;
		base = 64;
	}
	for (; i; i--)
		w &= w - 1;
	return base + (size_t)__builtin_ctzll(w);
}

/* The highest set bit of m[0..2) (there is one). */
static inline size_t top_bit2(const unsigned long long m[2])
{
	return m[1] ? 127 - (size_t)__builtin_clzll(m[1]) : 63 - (size_t)__builtin_clzll(m[0]);
}

AVX2_TARGET
static size_t run_at_avx2(const struct bl_runs *r, size_t i, size_t *len)
{
	size_t a = select2(r->start, i);
	*len = select2(r->end, i) + 1 - a;
	return a;
}

/* For each mask m of 8 bytes, the places of the bytes it keeps, in
 * order, one a byte of the entry (the bytes after them 0): the control
 * of a byte shuffle that packs the kept bytes at the front. Built by the
 * compiler. */
#define CL_POP8(m) (((m) & 1) + ((m) >> 1 & 1) + ((m) >> 2 & 1) + ((m) >> 3 & 1) + \
		    ((m) >> 4 & 1) + ((m) >> 5 & 1) + ((m) >> 6 & 1) + ((m) >> 7 & 1))
#define CL_AT(m, j) (((m) >> (j) & 1) ? (uint64_t)(j) << (8 * CL_POP8((m) & ((1u << (j)) - 1))) : 0)
#define CL(m) (CL_AT(m, 0) | CL_AT(m, 1) | CL_AT(m, 2) | CL_AT(m, 3) | CL_AT(m, 4) | \
	       CL_AT(m, 5) | CL_AT(m, 6) | CL_AT(m, 7))
#define CL4(m) CL(m), CL((m) + 1), CL((m) + 2), CL((m) + 3)
#define CL16(m) CL4(m), CL4((m) + 4), CL4((m) + 8), CL4((m) + 12)
#define CL64(m) CL16(m), CL16((m) + 16), CL16((m) + 32), CL16((m) + 48)
static const uint64_t compress_lut[256] = { CL64(0u), CL64(64u), CL64(128u), CL64(192u) };

/* bl_runs_fill() for a row of 32 to 128 bytes, read once into y: each
 * piece's kept bytes (keep_mask()) from its first number's first digit
 * to its last number's last digit, packed 16 bytes at a time. */
AVX2_TARGET
static long fill_avx2(const char *p, size_t len, size_t want, const char *seg,
		      const struct bl_fill *f, size_t nf, size_t end, size_t endlen, char *o)
{
	struct bl_runs r;
	/* 16 bytes past the row: a piece's last 16-byte load may reach
	 * them (what it packs from them is written over or not counted) */
	char y[128 + 16];
	u128 d, z;
	if (!scan_runs_y(p, len, want, &r, y, &d, &z))
		return -1;
	u128 keep = keep_mask(d, z, &r);
	char *o0 = o;
	for (size_t k = 0; k < nf; k++) {
		o = bl_copy16(o, seg + f[k].off, f[k].len);
		size_t from = select2(r.start, f[k].a);
		/* the last number of a row without a loop */
		size_t to = (f[k].b + 1u == want ? top_bit2(r.end) : select2(r.end, f[k].b)) + 1;
		/* the bytes to keep, 8 a byte of gb (and 2 bytes to spare) */
		u128 g = keep & span128(from, to);
		unsigned char gb[16 + 2] = { 0 };
		memcpy(gb, &g, sizeof g);
		for (size_t c = from & ~(size_t)7; c < to; c += 16) {
			unsigned m = gb[c / 8] | (unsigned)gb[c / 8 + 1] << 8;
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(y + c));
			/* the high 8 bytes' places are 8 to 15 */
			__m128i ctl = _mm_set_epi64x(
				(long long)(compress_lut[m >> 8] + 0x0808080808080808ull),
				(long long)compress_lut[m & 0xff]);
			__m128i s = _mm_shuffle_epi8(v, ctl);
			_mm_storel_epi64((__m128i *)(void *)o, s);
			o += __builtin_popcount(m & 0xff);
			_mm_storel_epi64((__m128i *)(void *)o, _mm_unpackhi_epi64(s, s));
			o += __builtin_popcount(m >> 8);
		}
	}
	o = bl_copy16(o, seg + end, endlen);
	return (long)(o - o0);
}

bool bl_have_avx2(void)
{
	return simd() & SIMD_AVX2;
}

/* The AVX2 paths where there is no AVX-512 (which reads a row in two
 * loads) and the row is 32 to 128 bytes (shorter ones: the plain path's
 * byte loop costs little). */
static inline bool avx2_row(size_t len)
{
	return len >= 32 && len <= 128 && (simd() & (SIMD_AVX512 | SIMD_AVX2)) == SIMD_AVX2;
}
#else
bool bl_have_avx2(void)
{
	return false;
}
#endif

long bl_scan_runs(const char *p, size_t len, size_t want, struct bl_runs *r)
{
#ifdef BL_AVX512
	if (len <= 128 && (simd() & SIMD_AVX512))
		return scan_runs_avx512(p, len, want, r);
#endif
#ifdef BL_AVX2
	if (avx2_row(len))
		return scan_runs_avx2(p, len, want, r);
#endif
	return bl_scan_runs_plain(p, len, want, r);
}

long bl_scan_runs_avx2(const char *p, size_t len, size_t want, struct bl_runs *r)
{
#ifdef BL_AVX2
	if (len >= 32 && len <= 128 && bl_have_avx2())
		return scan_runs_avx2(p, len, want, r);
#endif
	return bl_scan_runs_plain(p, len, want, r);
}

size_t bl_run_at(const struct bl_runs *r, size_t i, size_t *len)
{
	/* bl_scan_runs_plain() may have filled all four words */
	bool two = !(r->start[2] | r->start[3] | r->end[2] | r->end[3]);
	(void)two;
#ifdef BL_AVX2
	int h = simd();
	if (two && (h & SIMD_PDEP))
		return run_at2(r, i, len);
	if (two && (h & SIMD_AVX2))
		return run_at_avx2(r, i, len);
#endif
	return run_at_plain(r, i, len);
}

long bl_runs_fill(const char *p, size_t len, size_t want, const struct bl_runs *r,
		  const char *seg, const struct bl_fill *f, size_t nf, size_t end, size_t endlen,
		  char *o)
{
#ifdef BL_AVX512
	if (len <= 128 && (simd() & SIMD_AVX512))
		return fill_avx512(p, len, want, seg, f, nf, end, endlen, o);
#endif
#ifdef BL_AVX2
	if (avx2_row(len))
		return fill_avx2(p, len, want, seg, f, nf, end, endlen, o);
#endif
	return bl_runs_fill_plain(p, len, want, r, seg, f, nf, end, endlen, o);
}

long bl_runs_fill_avx2(const char *p, size_t len, size_t want, const struct bl_runs *r,
		       const char *seg, const struct bl_fill *f, size_t nf, size_t end,
		       size_t endlen, char *o)
{
#ifdef BL_AVX2
	if (len >= 32 && len <= 128 && bl_have_avx2())
		return fill_avx2(p, len, want, seg, f, nf, end, endlen, o);
#endif
	return bl_runs_fill_plain(p, len, want, r, seg, f, nf, end, endlen, o);
}

bool bl_runs_fill_wants_runs(void)
{
	return !bl_have_avx512() && !bl_have_avx2();
}

static int buf_grow(struct bl_buf *b, size_t need)
{
	if (need + 1 <= b->cap)
		return 0;
	if (b->max && need > b->max)
		return -BL_ENOMEM;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < need + 1)
		cap *= 2;
	if (b->max && cap > b->max + 1)
		cap = b->max + 1;
	b->data = bl_xrealloc(b->data, cap);
	b->cap = cap;
	return 0;
}

int bl_buf_add(struct bl_buf *b, const void *p, size_t n)
{
	int rc = buf_grow(b, b->len + n);
	if (rc)
		return rc;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

int bl_buf_addc(struct bl_buf *b, char c)
{
	return bl_buf_add(b, &c, 1);
}

int bl_buf_addf(struct bl_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -BL_EFORMAT;
	int rc = buf_grow(b, b->len + (size_t)n);
	if (rc)
		return rc;
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

void bl_buf_reset(struct bl_buf *b)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
}

void bl_buf_release(struct bl_buf *b)
{
	if (!b)
		return;
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

/* Write the decimal integer n (|n| < 10^18) with a decimal point k digits
 * from the right (k = 0: none) into out; returns the length. */
static int fmt_scaled(char *out, long long n, int k)
{
	char tmp[32];
	int len = 0;
	bool neg = n < 0;
	unsigned long long u = neg ? (unsigned long long)-n : (unsigned long long)n;
	do {
		tmp[len++] = (char)('0' + u % 10);
		u /= 10;
	} while (u || len <= k);      /* at least one digit before the point */
	int o = 0;
	if (neg)
		out[o++] = '-';
	while (len > 0) {
		if (len == k)
			out[o++] = '.';
		out[o++] = tmp[--len];
	}
	out[o] = '\0';
	return o;
}

/* The common cases of bl_fmt_double without snprintf/strtod: v is q =
 * n / 10^k for an integer n with |n| < 10^15 and k <= 6 (the smallest such
 * k), and 1e-4 <= |q| < 1e15. Then v is the double nearest to q (the
 * division is exact-rounded), %.15g rounds v to q (q lies on the 15-digit
 * grid and v is within half an ulp of it, far less than half a grid step)
 * and prints it in fixed notation without trailing zeros, and strtod gives
 * v back: the result is the text of q, which is what the loop below
 * prints. Returns -1 when v is not such a number. */
static int fmt_double_fast(char *out, size_t outsz, double v)
{
	double a = fabs(v);
	if (outsz < 24 || !(a < 1e15))
		return -1;
	if (v == (double)(long long)v)
		return fmt_scaled(out, (long long)v, 0);
	if (a < 1e-4)
		return -1;
	for (int k = 1; k <= 6; k++) {
		double m = v * pow10_exact[k];
		if (!(fabs(m) < 1e15))
			return -1;
		long long n = llround(m);
		if ((double)n / pow10_exact[k] == v)
			return fmt_scaled(out, n, k);
	}
	return -1;
}

int bl_fmt_double(char *out, size_t outsz, double v)
{
	if (v == 0.0)
		v = 0.0; /* no "-0" */
	int fast = fmt_double_fast(out, outsz, v);
	if (fast >= 0)
		return fast;
	for (int prec = 15; prec <= 17; prec++) {
		int n = snprintf(out, outsz, "%.*g", prec, v);
		if (prec == 17 || strtod(out, NULL) == v)
			return n;
	}
	return 0;
}

bool bl_startswith(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

int bl_mkdir_p(const char *path)
{
	char *p = bl_xstrdup(path);
	int rc = 0;
	/* Each parent in turn ("a", "a/b"), then the whole. */
	for (char *c = p + 1; *c && !rc; c++) {
		if (*c != '/' || c[-1] == '/')
			continue;
		*c = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST)
			rc = -1;
		*c = '/';
	}
	if (!rc && mkdir(p, 0777) != 0 && errno != EEXIST)
		rc = -1;
	int e = errno;
	free(p);
	errno = e;
	return rc;
}

char *bl_path_stem(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	if (n > 3 && strcmp(b + n - 3, ".gz") == 0)
		n -= 3;
	for (size_t i = n; i > 0; i--) {
		if (b[i - 1] == '.') {
			/* strip one extension unless it looks like part of a
			 * kernel version ("2.4.12aa1"): extensions have a letter first. */
			const char *ext = b + i;
			size_t el = n - i;
			if (el >= 1 && el <= 5 && ((ext[0] >= 'a' && ext[0] <= 'z') || (ext[0] >= 'A' && ext[0] <= 'Z')))
				n = i - 1;
			break;
		}
	}
	if (n == 0)
		return bl_xstrdup(b);
	return bl_xstrndup(b, n);
}
