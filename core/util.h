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
#include <stdint.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>

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
/* A count a person reads, worded: "no lines", "1 line", "12 lines" (noun
 * singular, its plural with an "s") in buf, which it returns. BL_COUNT()
 * gives it a buffer that lives to the end of the enclosing block. */
#define BL_COUNT_MAX 64
const char *bl_count(char *buf, unsigned long long n, const char *noun);
#define BL_COUNT(n, noun) bl_count((char[BL_COUNT_MAX]){ 0 }, (n), (noun))

/* Parse all of s[0..len) (after optional surrounding blanks) as a finite
 * double with '.' as the decimal point. Returns 0 and sets *out, or
 * -BL_EFORMAT (not a decimal number: trailing junk, hex, and the words
 * "nan"/"inf" too) or -BL_ERANGE (overflows a double, or is so small
 * that it rounds to 0; subnormal values such as 1e-310 are read as the
 * nearest double).
 * len == (size_t)-1 means strlen(s). */
int bl_parse_double(const char *s, size_t len, double *out);
/* Same for a base-10 signed integer of at most BL_INT_MAX in size:
 * -BL_ERANGE beyond it. */
int bl_parse_ll(const char *s, size_t len, long long *out);
/* The largest whole number benchlog reads (15 digits): every table,
 * SQLite, statistic and report shows each whole number up to it digit for
 * digit (bl_fmt_double, bl_whole), where a double holds 16 digits only in
 * part and none past 2^53 one by one. A value made from one (kbytes x
 * 1024, MiB in KiB) stays below it too (docs/formats.md, "Numbers"). */
#define BL_INT_MAX 999999999999999LL

/* Split [p, p+len) on runs of blanks into at most max tokens (pointers into
 * the input). Returns the token count; a count > max means more tokens
 * existed than were stored. */
size_t bl_split_blanks(const char *p, size_t len, const char **tok, size_t *toklen, size_t max);

/* Read [p, p+len) as blank-separated unsigned decimal integers (digits
 * only, at most 15 each, BL_INT_MAX: a vmstat row) into v[0..max), and their digits
 * into out (room for len + 1 + BL_SCAN_ROOM bytes), each token followed
 * by one ',' (the row as CSV cells); at[k] is where token k starts in out
 * and nd[k] its length when it is the value's canonical text (no leading
 * zero) of under BL_SCAN_COPY digits, else 0; *whole says no nd[k] is 0.
 * Returns how many, or -1 when a token is anything else, there are more
 * than max or len is 65535 or more (out then holds anything). p[len] must
 * be neither a digit nor a blank, or blanks up to one that is (a trimmed
 * NUL-terminated line): the loops stop there without counting;
 * BL_SCAN_ROOM bytes from p[len] on must be readable. */
#define BL_SCAN_ROOM 16   /* at least the longest token (parse -t vmstat of 50 MB: 1,749 M instructions, 1,768 M at 24) */
#define BL_SCAN_COPY 16   /* digits a writer copies at once (core/record.h struct bl_digits) */
long bl_scan_uints(const char *p, size_t len, long long *v, unsigned short *at, unsigned char *nd,
		   size_t max, char *out, bool *whole);
/* Open the shared library soname (e.g. "libxml2.so.2") and set fn[i]
 * to its function names[i], for names[0..] up to a NULL; once, before any
 * of them is called (the caller's pthread_once()). For libraries a few
 * inputs need: linked, GMime and libxml2 bring 19 of 32 shared objects
 * that are mapped and relocated at every start (`benchlog --version`:
 * 21.8 ms of processor time linked, 9.2 ms not). A library or function
 * that cannot be found is a broken installation: bl_fatal(). */
void bl_dynlib_open(const char *soname, const char *const *names, void **fn);
/* A file's table of the functions it opens so, FNS(X) listing X(name)
 * for each: bl_dl_names and bl_dl_fn to pass to bl_dynlib_open(), and
 * BL_DL(name), that function through its pointer (a file defines each
 * name to it, so that its calls read as before). */
#define BL_DL_ENUM_(f) BL_DL_##f,
#define BL_DL_NAME_(f) #f,
#define BL_DL_TABLE(FNS) \
	enum { FNS(BL_DL_ENUM_) BL_DL_N }; \
	static const char *const bl_dl_names[] = { FNS(BL_DL_NAME_) NULL }; \
	static void *bl_dl_fn[BL_DL_N]
#define BL_DL(f) ((__typeof__(&f))bl_dl_fn[BL_DL_##f])
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
int bl_buf_vaddf(struct bl_buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
void bl_buf_reset(struct bl_buf *b);       /* len = 0, keeps memory */
void bl_buf_release(struct bl_buf *b);     /* frees; NULL-safe, idempotent */
/* What b holds, "" when it never held anything. */
static inline const char *bl_buf_str(const struct bl_buf *b) { return b->data ? b->data : ""; }

/* The text of a number, the one place a double becomes text in every
 * table (CSV, TSV, JSON Lines), SQLite value, statistic and report
 * (docs/csv.md, "Numbers"): the shortest decimal (of %.15g, %.16g,
 * %.17g) that strtod() reads back as v, except that a v within 4 units
 * in the last place of a decimal of at most 12 significant digits is
 * written as that decimal: the difference is the rounding of benchlog's own
 * arithmetic (1m46.942s = 60 + 46.942 -> "106.942", not
 * "106.94200000000001"; a mean "30.78", not "30.780000000000001"), never
 * a digit of the input. Integers in full up to 10^15 ("1000000", not
 * "1e+06"); '.' decimal point (benchlog never sets LC_NUMERIC); "inf",
 * "-inf", "nan" as printf writes them. Writes at most 32 bytes including
 * NUL into out (outsz >= 32); returns the length. Thread-safe. */
int bl_fmt_double(char *out, size_t outsz, double v);
/* A value benchlog computes (a mean, a difference, a percentile, a p)
 * as every output writes it (docs/statistics.md, D20): twelve
 * significant digits, trailing zeros dropped ("%.12g": -1997.9 for
 * 304781.9 - 306779.8, not -1997.899999999965); from 10^12 in size to
 * 10^15 (and from 999999999999.5, which twelve digits would write
 * "1e+12"), every whole digit and no fraction ("%.0f": 780864197253085, not
 * 780864197253085.2), which the text tables write too (bl_outtab_num);
 * from 10^15 on (no input number is that large), and for infinities and
 * NaN, as bl_fmt_double writes it. Whatever has at most 12 significant
 * digits reads as bl_fmt_double's text. outsz >= 32; returns the length.
 * Thread-safe. */
int bl_fmt_stat(char *out, size_t outsz, double v);
/* The double that bl_fmt_double(v)'s text reads back as: what a sink that
 * stores binary numbers (SQLite) stores, so that it holds what the CSV
 * says. v itself for all but the values bl_fmt_double rounds. */
double bl_num_written(double v);
/* v is an integer of less than 10^15 in size, which bl_fmt_double (and
 * "%.0f") writes digit for digit; false for NaN and infinities. */
static inline bool bl_whole(double v)
{
	return v > -1e15 && v < 1e15 && v == (double)(long long)v;
}

/* True when s[0..len) starts with / equals the NUL-terminated prefix. */
bool bl_startswith(const char *s, size_t len, const char *prefix);
/* Does [s, s+n) contain the lit_len bytes of lit? For the short literals
 * parsers look for in a line: memchr for the first byte, then memcmp,
 * where glibc's memmem spends more on its set-up than on a short line
 * (summary of 50 MB of ConTest logs: 0.430 s of processor time, 0.440 s
 * with memmem). */
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

/* Does [s, s+n) contain the NUL-terminated lit, ASCII letters matched in
 * either case ("Mailing List" holds "mailing list")? */
bool bl_contains_ci(const char *s, size_t n, const char *lit);
/* Does s end with one of the NULL-terminated list (ci: as bl_word_index)? */
bool bl_ends_any(const char *s, const char *const *list, bool ci);

/* Position of the word s[0..n) in the NULL-terminated list (the same
 * bytes; with ci, ASCII letters in either case), or -1 when absent.
 * Inline: a list the caller names is then one the compiler sees (parse
 * of the bench's 20 MB of ConTest logs: 1,592 M instructions with a
 * call, 1,568 M inline). */
static inline int bl_word_index(const char *s, size_t n, const char *const *list, bool ci)
{
	for (int i = 0; list[i]; i++)
		if (strlen(list[i]) == n && (ci ? strncasecmp(list[i], s, n) : memcmp(list[i], s, n)) == 0)
			return i;
	return -1;
}

/* 64-bit FNV-1a over n bytes of s (a key that must not collide: block
 * values, group keys). */
static inline uint64_t bl_hash64(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
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

/* true when [s, s+n) holds only spaces, TABs, form feeds and vertical
 * tabs, or nothing: a blank line. Inline, as the dispatcher asks it of
 * every line. */
static inline bool bl_blank_text(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\f' && s[i] != '\v')
			return false;
	return true;
}
/* true when [s, s+n) is one or more ASCII digits. */
static inline bool bl_all_digits(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* true when [s, s+n) has the shape YYYY-MM-DD, a day or not. */
static inline bool bl_date_shape(const char *s, size_t n)
{
	return n == 10 && s[4] == '-' && s[7] == '-' && bl_all_digits(s, 4) && bl_all_digits(s + 5, 2) &&
	       bl_all_digits(s + 8, 2);
}

/* mkdir -p: path and each missing parent made with mode 0777 (less the
 * umask); a part that exists already as a folder (or a link to one) is no
 * error. 0, or -1 with errno from the mkdir(2) that failed, or ENOTDIR
 * when path itself exists and is not a folder (`-o FILE`: "Not a
 * directory", not the EACCES a later open would give), or ENOENT when it
 * is a symlink to nothing. */
int bl_mkdir_p(const char *path);

/* The path of the executable name as execvp(3) finds it (the caller
 * g_free()s it), or NULL. PATH unset: the system's default folders
 * (confstr _CS_PATH, "/bin:/usr/bin"), never the current folder, where
 * GLib's g_find_program_in_path() alone would look last ("/bin:/usr/bin:.")
 * and run a program planted where benchlog was started. */
char *bl_find_program(const char *name);

/* The file name's stem: last path component without .gz and one more
 * extension ("logs/2.4.12aa1.txt.gz" -> "2.4.12aa1"). Caller owns result. */
char *bl_path_stem(const char *path);

#include "core/banned.h"
#endif
