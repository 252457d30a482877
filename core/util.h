/* util.h — small checked helpers shared by every module.
 *
 * Numbers: every number benchlog reads goes through bl_parse_double() or
 * bl_parse_ll() (strtod/strtoll with end pointer, ERANGE and isfinite checks).
 * Buffers: struct bl_buf is a growable byte buffer with a hard maximum size.
 * Include order: system headers first, project headers after, because
 * core/banned.h (included here) redefines names that libc headers declare.
 * Memory: bl_xmalloc() and friends abort with a message on exhaustion; the
 * tool cannot do anything useful without memory and a NULL check at every
 * call site would only hide bugs.
 */
#ifndef BL_UTIL_H
#define BL_UTIL_H

#include <stddef.h>
#include <stdbool.h>
#include <stdarg.h>
#include <string.h>

/* Error codes returned (negated) by library functions. */
enum bl_err {
	BL_OK = 0,
	BL_ENOMEM = 1,     /* allocation failed or a buffer hit its maximum */
	BL_EIO = 2,        /* read or write failed; errno tells more */
	BL_EFORMAT = 3,    /* input does not have the expected shape */
	BL_ERANGE = 4,     /* number out of range, NaN or infinite */
	BL_ETOOLONG = 5,   /* line longer than the reader's cap */
	BL_ECORRUPT = 6,   /* compressed stream corrupt or truncated */
	BL_EUSAGE = 7,     /* invalid argument from the caller */
	BL_EINTR = 8,      /* interrupted by a signal */
	BL_ENOTFOUND = 9,  /* file, table or column does not exist */
};
/* Text for a (positive or negative) bl_err code; never NULL. */
const char *bl_strerror(int err);

void *bl_xmalloc(size_t n);
void *bl_xcalloc(size_t n, size_t size);
void *bl_xrealloc(void *p, size_t n);
/* Room for `need` elements of `size` bytes in the array p, whose capacity
 * is *cap elements: p itself when need <= *cap, else p reallocated to
 * twice its capacity (at least need, at least 8) with *cap updated.
 * Appending n elements one at a time this way copies O(n) bytes in all;
 * realloc to exactly n + 1 each time copied the array again and again
 * whenever glibc could not grow it in place (10,000 inputs: 0.15 s). */
void *bl_xgrow(void *p, size_t *cap, size_t need, size_t size);
char *bl_xstrdup(const char *s);
/* At most n bytes of s, stopping at a NUL (as strndup(3)). */
char *bl_xstrndup(const char *s, size_t n);
/* printf into a new heap string; the caller owns it. */
char *bl_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parse all of s[0..len) (after optional surrounding blanks) as a finite
 * double with '.' as the decimal point. Returns 0 and sets *out, or
 * -BL_EFORMAT (not a decimal number: trailing junk, hex, and the words
 * "nan"/"inf" too) or -BL_ERANGE (overflows a double).
 * len == (size_t)-1 means strlen(s). */
int bl_parse_double(const char *s, size_t len, double *out);
/* Same for a base-10 signed integer that fits in long long. */
int bl_parse_ll(const char *s, size_t len, long long *out);

/* Cursor scanner over a byte range, after curl's strparse: every function
 * advances the cursor only on success and returns 0, else a negative code. */
struct bl_scan {
	const char *p;
	const char *end;
};
static inline void bl_scan_init(struct bl_scan *s, const char *p, size_t len)
{
	s->p = p;
	s->end = p + len;
}
void bl_scan_blanks(struct bl_scan *s);                    /* skip spaces and TABs */
bool bl_scan_at_end(const struct bl_scan *s);             /* only blanks left */
int bl_scan_word(struct bl_scan *s, const char **w, size_t *wlen); /* run of non-blanks */
int bl_scan_double(struct bl_scan *s, double *out);       /* a number token */
int bl_scan_ll(struct bl_scan *s, long long *out);        /* an integer token */
int bl_scan_lit(struct bl_scan *s, const char *lit);      /* exact literal */

/* Split [p, p+len) on runs of blanks into at most max tokens (pointers into
 * the input). Returns the token count; a count > max means more tokens
 * existed than were stored. */
size_t bl_split_blanks(const char *p, size_t len, const char **tok, size_t *toklen, size_t max);

/* Read [p, p+len) as blank-separated unsigned decimal integers (digits
 * only, at most 18 each: a vmstat row) into v[0..max). Returns how many,
 * or -1 when a token is anything else or there are more than max. */
long bl_scan_uints(const char *p, size_t len, long long *v, size_t max);
/* The AVX-512 code paths (rows of numbers, line ends): built on x86-64
 * with GCC or Clang, not under AddressSanitizer (which takes a masked
 * 64-byte load for a read of all 64 bytes); taken at run time only where
 * bl_have_avx512() says the processor and the kernel run them. */
#if defined(__SANITIZE_ADDRESS__)
#define BL_ASAN 1                    /* GCC's AddressSanitizer */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BL_ASAN 1                    /* Clang's, which sets no macro before Clang 17 */
#endif
#endif
#if defined(__x86_64__) && defined(__GNUC__) && !defined(BL_ASAN)
#define BL_AVX512 1
#define BL_AVX512_TARGET \
	__attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi,bmi2")))
#endif
/* AVX-512 F, BW, VBMI, VBMI2 with POPCNT, BMI and BMI2 here (asked once;
 * thread-safe); false where BL_AVX512 is not defined. */
bool bl_have_avx512(void);
/* The AVX2 code paths, for processors without AVX-512 (AMD before Zen 4,
 * Intel's client cores): built on x86-64 with GCC or Clang, sanitizers
 * included (they read no byte past a row or a buffer); taken at run time
 * where bl_have_avx2() says the processor and the kernel run them and
 * AVX-512 is not there. */
#if defined(__x86_64__) && defined(__GNUC__)
#define BL_AVX2 1
#define BL_AVX2_TARGET __attribute__((target("avx2,popcnt")))
#endif
/* AVX2 with POPCNT here (asked once; thread-safe); false where BL_AVX2 is
 * not defined. Both answers are capped by the environment variable
 * BENCHLOG_SIMD, read once: "avx2" turns the AVX-512 paths off, "sse2"
 * both, and PDEP (for the tests, which run every path on one machine, and for
 * measuring one path against another; the output is the same). */
bool bl_have_avx2(void);

/* Where a row's numbers are, without reading them: bit k of start[k / 64]
 * is set when a number's first digit is byte k of the row, of end[k / 64]
 * when its last digit is (rows of up to BL_RUNS_MAX_LEN bytes). */
#define BL_RUNS_MAX_LEN 255
struct bl_runs {
	unsigned long long start[4], end[4];
	bool lead0;        /* a number has a leading zero ("007", not "0") */
};
/* Exactly want blank-separated runs of 1 to 18 digits in [p, p+len),
 * len <= BL_RUNS_MAX_LEN, into *r. Returns want, or -1 when the text is
 * anything else (then *r is unusable). With AVX-512 (VBMI2) a row of up
 * to 128 bytes takes two 64-byte compares and no loop; without it, with
 * AVX2, a row of 32 to 128 bytes takes up to four 32-byte compares and
 * no loop per number (bl_scan_runs_avx2()); else, and for other rows,
 * bl_scan_runs_plain() (16-byte SSE2 compares, a loop per number). The
 * three give the same *r. */
long bl_scan_runs(const char *p, size_t len, size_t want, struct bl_runs *r);
long bl_scan_runs_plain(const char *p, size_t len, size_t want, struct bl_runs *r);
/* The AVX2 path alone (where AVX-512 would be taken), for the tests:
 * bl_scan_runs_plain() where there is no AVX2 or len is outside 32 to
 * 128. */
long bl_scan_runs_avx2(const char *p, size_t len, size_t want, struct bl_runs *r);
/* Number i of a row bl_scan_runs() read (i below its count): its first
 * byte's place, and its length in digits into *len. */
size_t bl_run_at(const struct bl_runs *r, size_t i, size_t *len);
/* Copy n bytes from s to d, 16 at a time, where both have 16 bytes to
 * spare past n (short texts of a row template); returns d + n. */
static inline char *bl_copy16(char *d, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i += 16)
		memcpy(d + i, s + i, 16);
	return d + n;
}

/* A text with a row's numbers filled in (the CSV writer's vmstat rows):
 * for each piece, its text (the len bytes at seg + off), then the row's
 * numbers a to b (a <= b) as CSV fields: each number's digits without
 * leading zeros ("007" is 7, "000" is 0), a comma between two numbers;
 * after the last piece, the endlen bytes at seg + end. */
struct bl_fill {
	unsigned short off, len;
	unsigned char a, b;
};
/* The row [p, p+len) must be exactly want numbers as bl_scan_runs()
 * takes them, and the pieces' numbers in order (each piece's a above the
 * last one's b). r: bl_scan_runs()'s result for this row (then the row
 * is taken to be as r says), or NULL to read the row here. seg has 16
 * bytes to spare past each text; o has room for the texts, the row and
 * 80 bytes more (bytes past the returned length are scratch). Returns
 * the bytes written, or -1 when the row is anything else. With AVX-512
 * (VBMI2) a row of up to 128 bytes is read once into two registers, r
 * or not, and each piece's numbers come out of a byte compress; with
 * AVX2, a row of 32 to 128 bytes is read once (r or not) into a copy
 * with commas for blanks, and each piece's numbers come out of it 16
 * bytes at a time by a byte shuffle from a table (bl_runs_fill_avx2());
 * else bl_runs_fill_plain(), which copies number by number and reads
 * the row only when r is NULL. */
long bl_runs_fill(const char *p, size_t len, size_t want, const struct bl_runs *r,
		  const char *seg, const struct bl_fill *f, size_t nf, size_t end, size_t endlen,
		  char *o);
long bl_runs_fill_plain(const char *p, size_t len, size_t want, const struct bl_runs *r,
			const char *seg, const struct bl_fill *f, size_t nf, size_t end,
			size_t endlen, char *o);
/* The AVX2 path alone, for the tests: bl_runs_fill_plain() where there
 * is no AVX2 or len is outside 32 to 128. */
long bl_runs_fill_avx2(const char *p, size_t len, size_t want, const struct bl_runs *r,
		       const char *seg, const struct bl_fill *f, size_t nf, size_t end,
		       size_t endlen, char *o);
/* Whether the writer needs bl_scan_runs()'s result to fill a row fast:
 * false where bl_runs_fill() reads the row again anyway (AVX-512, AVX2),
 * so a parser need not hand it over. */
bool bl_runs_fill_wants_runs(void);

/* Growable buffer with a maximum size. Init with BL_BUF_INIT(max). */
struct bl_buf {
	char *data;     /* always NUL-terminated when non-NULL */
	size_t len;
	size_t cap;
	size_t max;     /* bl_buf_add fails with -BL_ENOMEM past this */
};
#define BL_BUF_INIT(maxbytes) { NULL, 0, 0, (maxbytes) }
int bl_buf_add(struct bl_buf *b, const void *p, size_t n);
int bl_buf_addc(struct bl_buf *b, char c);
int bl_buf_addf(struct bl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void bl_buf_reset(struct bl_buf *b);       /* len = 0, keeps memory */
void bl_buf_release(struct bl_buf *b);     /* frees; NULL-safe, idempotent */

/* Format a double so that strtod() gives back the same value, in the
 * shortest of %.15g/%.16g/%.17g; '.' decimal point (benchlog never sets
 * LC_NUMERIC). Writes at most 32 bytes including NUL; returns the length. */
int bl_fmt_double(char *out, size_t outsz, double v);

/* True when s[0..len) starts with / equals the NUL-terminated prefix. */
bool bl_startswith(const char *s, size_t len, const char *prefix);
/* Does [s, s+n) contain the lit_len bytes of lit? For the short literals
 * parsers look for in a line: memchr for the first byte, then memcmp,
 * where glibc's memmem spends more on its set-up than on a short line. */
static inline bool bl_contains(const char *s, size_t n, const char *lit, size_t lit_len)
{
	if (lit_len == 0)
		return true;
	const char *p = s, *end = s + n;
	while ((size_t)(end - p) >= lit_len) {
		p = memchr(p, lit[0], (size_t)(end - p) - lit_len + 1);
		if (!p)
			return false;
		if (memcmp(p + 1, lit + 1, lit_len - 1) == 0)
			return true;
		p++;
	}
	return false;
}

/* FNV-1a over the bytes of s, continuing from h (start from BL_HASH_INIT;
 * feed several strings to hash a compound key): the hash of the tables
 * that find a group or run state by name. */
#define BL_HASH_INIT ((size_t)1469598103934665603ull)
static inline size_t bl_hash_str(size_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * (size_t)1099511628211ull;
	return h;
}

/* Strip blanks (space, TAB) from both ends of [*p, *p+*len). */
static inline void bl_trim(const char **p, size_t *len)
{
	const char *s = *p;
	size_t n = *len;
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	*p = s;
	*len = n;
}

/* mkdir -p: path and each missing parent made with mode 0777 (less the
 * umask); a part that exists already (a folder, or anything else: the
 * caller's next open says what is wrong) is no error. 0, or -1 with
 * errno from the mkdir(2) that failed. */
int bl_mkdir_p(const char *path);

/* The file name's stem: last path component without .gz and one more
 * extension ("logs/2.4.12aa1.txt.gz" -> "2.4.12aa1"). Caller owns result. */
char *bl_path_stem(const char *path);

#include "core/banned.h"
#endif
