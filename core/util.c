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

static inline long scan_uints(const char *p, size_t len, long long *v, size_t max,
			      unsigned char *pos)
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
		if (pos) {
			pos[2 * n] = (unsigned char)start;
			pos[2 * n + 1] = (unsigned char)(i - start);
		}
		v[n++] = (long long)x;
	}
	return (long)n;
}

/* Digit and blank bits of p[0..len) (len <= 256), bit i of m[i / 64]:
 * 16 bytes per compare, the last 16 read as the line's last 16 bytes
 * (never past its end); len >= 16. */
#ifdef __SSE2__
static void digit_blank_masks(const char *p, size_t len, uint64_t dm[4], uint64_t bm[4])
{
	const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
	const __m128i sp = _mm_set1_epi8(' '), tab = _mm_set1_epi8('\t');
	dm[0] = dm[1] = dm[2] = dm[3] = bm[0] = bm[1] = bm[2] = bm[3] = 0;
	for (size_t i = 0; i < len; i += 16) {
		size_t at = i + 16 <= len ? i : len - 16;
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + at));
		__m128i d = _mm_sub_epi8(x, zero);
		unsigned dg = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(d, nine), nine));
		unsigned bl = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(x, sp), _mm_cmpeq_epi8(x, tab)));
		unsigned sh = (unsigned)(i - at);      /* bytes read again */
		dg >>= sh;
		bl >>= sh;
		dm[i / 64] |= (uint64_t)dg << (i % 64);
		bm[i / 64] |= (uint64_t)bl << (i % 64);
	}
}
#endif

long bl_scan_uint_pos_plain(const char *p, size_t len, size_t want, unsigned char *pos)
{
	if (len > 255 || want > BL_SCAN_POS_MAX)
		return -1;
#ifdef __SSE2__
	if (len >= 16) {
		uint64_t dm[4], bm[4];
		digit_blank_masks(p, len, dm, bm);
		size_t nw = (len + 63) / 64;
		uint64_t sm[4], em[4];        /* first and last digits */
		for (size_t w = 0; w < nw; w++) {
			uint64_t valid = w + 1 < nw || len % 64 == 0 ? ~0ull : (1ull << (len % 64)) - 1;
			if ((dm[w] | bm[w]) != valid)
				return -1;   /* a byte that is neither */
			uint64_t d = dm[w];
			uint64_t before = w ? dm[w - 1] >> 63 : 0, after = w + 1 < nw ? dm[w + 1] & 1 : 0;
			sm[w] = d & ~(d << 1 | before);
			em[w] = d & ~(d >> 1 | after << 63);
		}
		/* the k-th first digit and the k-th last digit make run k
		 * (a run may cross from one word to the next): the first
		 * digits in one pass, the last ones and so the lengths in
		 * another, each a loop without a branch to mispredict */
		size_t k = 0;
		for (size_t w = 0; w < nw; w++) {
			for (uint64_t S = sm[w]; S; S &= S - 1) {
				if (k == want)
					return -1;   /* more than want */
				pos[2 * k++] = (unsigned char)(w * 64 + (unsigned)__builtin_ctzll(S));
			}
		}
		if (k != want)
			return -1;
		size_t j = 0;
		unsigned long long longest = 0;
		for (size_t w = 0; w < nw; w++) {
			for (uint64_t E = em[w]; E; E &= E - 1) {
				size_t l = w * 64 + (unsigned)__builtin_ctzll(E) + 1 - pos[2 * j];
				longest |= l > 18;
				pos[2 * j++ + 1] = (unsigned char)l;
			}
		}
		return longest ? -1 : (long)k;
	}
#endif
	long long v[BL_SCAN_POS_MAX];
	return scan_uints(p, len, v, want, pos) == (long)want ? (long)want : -1;
}

/* With AVX-512 (VBMI2), a row of up to 128 bytes in two registers: the
 * first and last digits' places come out of a byte compress of the index
 * vector, so no loop runs per number (about 4 times faster than the one
 * above on 200 MB of vmstat). Chosen at run time, when the processor and
 * the kernel have it; not under AddressSanitizer, which takes a masked
 * load for a read of all 64 bytes. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
#define SCAN_AVX512 1
#include <immintrin.h>
#include <stdatomic.h>

#define AVX512_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt")))

AVX512_TARGET
static long scan_pos_avx512(const char *p, size_t len, size_t want, unsigned char *pos,
			    bool *lead0)
{
	__mmask64 m0 = len >= 64 ? ~0ull : (1ull << len) - 1;
	__mmask64 m1 = len <= 64 ? 0 : len >= 128 ? ~0ull : (1ull << (len - 64)) - 1;
	__m512i x0 = _mm512_maskz_loadu_epi8(m0, p);
	__m512i x1 = _mm512_maskz_loadu_epi8(m1, p + 64);
	const __m512i zero = _mm512_set1_epi8('0'), nine = _mm512_set1_epi8(9);
	const __m512i sp = _mm512_set1_epi8(' '), tab = _mm512_set1_epi8('\t');
	uint64_t d0 = _mm512_mask_cmple_epu8_mask(m0, _mm512_sub_epi8(x0, zero), nine);
	uint64_t d1 = _mm512_mask_cmple_epu8_mask(m1, _mm512_sub_epi8(x1, zero), nine);
	uint64_t b0 = _mm512_mask_cmpeq_epi8_mask(m0, x0, sp) | _mm512_mask_cmpeq_epi8_mask(m0, x0, tab);
	uint64_t b1 = _mm512_mask_cmpeq_epi8_mask(m1, x1, sp) | _mm512_mask_cmpeq_epi8_mask(m1, x1, tab);
	if ((d0 | b0) != m0 || (d1 | b1) != m1)
		return -1;                   /* a byte that is neither */
	uint64_t s0 = d0 & ~(d0 << 1), s1 = d1 & ~(d1 << 1 | d0 >> 63);
	uint64_t e0 = d0 & ~(d0 >> 1 | d1 << 63), e1 = d1 & ~(d1 >> 1);
	if (lead0) {
		/* a first digit 0 that is not also the last one */
		const __m512i z = _mm512_set1_epi8('0');
		uint64_t z0 = _mm512_mask_cmpeq_epi8_mask(m0, x0, z);
		uint64_t z1 = _mm512_mask_cmpeq_epi8_mask(m1, x1, z);
		*lead0 = ((s0 & z0 & ~e0) | (s1 & z1 & ~e1)) != 0;
	}
	size_t ns0 = (size_t)_mm_popcnt_u64(s0), ne0 = (size_t)_mm_popcnt_u64(e0);
	size_t n = ns0 + (size_t)_mm_popcnt_u64(s1);
	if (n != want)
		return -1;
	/* the places of the first digits, then of the last ones, in order
	 * (a run may start in one half and end in the other) */
	static const unsigned char iota[64] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
		22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41,
		42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61,
		62, 63,
	};
	const __m512i idx = _mm512_loadu_si512(iota);
	const __m512i idx64 = _mm512_add_epi8(idx, _mm512_set1_epi8(64));
	unsigned char st[128], en[128];
	_mm512_storeu_si512(st, _mm512_maskz_compress_epi8(s0, idx));
	_mm512_storeu_si512(st + ns0, _mm512_maskz_compress_epi8(s1, idx64));
	_mm512_storeu_si512(en, _mm512_maskz_compress_epi8(e0, idx));
	_mm512_storeu_si512(en + ne0, _mm512_maskz_compress_epi8(e1, idx64));
	/* at most 64 runs in 128 bytes */
	__m512i a = _mm512_loadu_si512(st), e = _mm512_loadu_si512(en);
	__m512i l = _mm512_add_epi8(_mm512_sub_epi8(e, a), _mm512_set1_epi8(1));
	__mmask64 runs = n >= 64 ? ~0ull : (1ull << n) - 1;
	if (_mm512_mask_cmpgt_epu8_mask(runs, l, _mm512_set1_epi8(18)))
		return -1;                   /* more than 18 digits */
	/* pos: place, length, place, length, ... */
	static const unsigned char zip[128] = {
		0, 64, 1, 65, 2, 66, 3, 67, 4, 68, 5, 69, 6, 70, 7, 71, 8, 72, 9, 73, 10, 74,
		11, 75, 12, 76, 13, 77, 14, 78, 15, 79, 16, 80, 17, 81, 18, 82, 19, 83, 20, 84,
		21, 85, 22, 86, 23, 87, 24, 88, 25, 89, 26, 90, 27, 91, 28, 92, 29, 93, 30, 94,
		31, 95, 32, 96, 33, 97, 34, 98, 35, 99, 36, 100, 37, 101, 38, 102, 39, 103, 40,
		104, 41, 105, 42, 106, 43, 107, 44, 108, 45, 109, 46, 110, 47, 111, 48, 112, 49,
		113, 50, 114, 51, 115, 52, 116, 53, 117, 54, 118, 55, 119, 56, 120, 57, 121, 58,
		122, 59, 123, 60, 124, 61, 125, 62, 126, 63, 127,
	};
	__m512i z0 = _mm512_permutex2var_epi8(a, _mm512_loadu_si512(zip), l);
	__m512i z1 = _mm512_permutex2var_epi8(a, _mm512_loadu_si512(zip + 64), l);
	size_t bytes = 2 * n;
	_mm512_mask_storeu_epi8(pos, bytes >= 64 ? ~0ull : (1ull << bytes) - 1, z0);
	if (bytes > 64)
		_mm512_mask_storeu_epi8(pos + 64, bytes >= 128 ? ~0ull : (1ull << (bytes - 64)) - 1, z1);
	return (long)n;
}

/* 1: the processor and kernel run AVX-512 with VBMI2; 0: not; -1: not
 * asked yet (the answer is the same on every thread). */
static atomic_int have_avx512 = -1;

static bool avx512_ok(void)
{
	int h = atomic_load_explicit(&have_avx512, memory_order_relaxed);
	if (h < 0) {
		__builtin_cpu_init();
		h = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
		    __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vbmi2") &&
		    __builtin_cpu_supports("popcnt");
		atomic_store_explicit(&have_avx512, h, memory_order_relaxed);
	}
	return h;
}
#endif

long bl_scan_uint_pos(const char *p, size_t len, size_t want, unsigned char *pos, bool *lead0)
{
#ifdef SCAN_AVX512
	if (len <= 128 && len > 0 && want <= 64 && avx512_ok())
		return scan_pos_avx512(p, len, want, pos, lead0);
#endif
	long n = bl_scan_uint_pos_plain(p, len, want, pos);
	if (lead0 && n > 0) {
		*lead0 = false;
		for (long k = 0; k < n; k++)
			if (pos[2 * k + 1] > 1 && p[pos[2 * k]] == '0')
				*lead0 = true;
	}
	return n;
}

long bl_scan_uints(const char *p, size_t len, long long *v, size_t max)
{
	return scan_uints(p, len, v, max, NULL);
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
