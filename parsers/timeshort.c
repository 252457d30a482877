/* timeshort.c — the short timing formats (FORMATS.md §1.2, §1.3) into the
 * `time` table, its `format` column saying which: gnu-default, posix-p,
 * bash, busybox, zsh, tcsh, csh, bsd, bsd-l and bsd-lp. docs/formats.md,
 * "Short timing formats", states the rules, the BSD -l rusage lines and
 * the macOS RSS unit among them. A real/user/sys block opens at "real" and
 * ends at "sys" or at a line that is no "user"/"sys"; runs join the mtest
 * family like time -v blocks.
 */
#include <stdlib.h>
#include <string.h>
#include "core/re.h"
#include "core/util.h"
#include "parsers/parser.h"
#include "parsers/tables.h"
#include "parsers/timeparse.h"

/* BSD -l rusage lines in time.c's order; col < 0: read, not stored. */
static const struct {
	const char *label;
	int col;
	bool mac_only;
} bsd_rusage[] = {
	{ "maximum resident set size", TIME_MAX_RSS_KIB, false },
	{ "average shared memory size", TIME_AVG_SHARED_TEXT_KIB, false },
	{ "average unshared data size", TIME_AVG_UNSHARED_DATA_KIB, false },
	{ "average unshared stack size", TIME_AVG_STACK_KIB, false },
	{ "page reclaims", TIME_MINOR_FAULTS, false },
	{ "page faults", TIME_MAJOR_FAULTS, false },
	{ "swaps", TIME_SWAPS, false },
	/* operations, not the Linux 512-byte blocks of fs_inputs/fs_outputs */
	{ "block input operations", -1, false },
	{ "block output operations", -1, false },
	{ "messages sent", TIME_SOCKET_SENT, false },
	{ "messages received", TIME_SOCKET_RECEIVED, false },
	{ "signals received", TIME_SIGNALS, false },
	{ "voluntary context switches", TIME_VOLUNTARY_CS, false },
	{ "involuntary context switches", TIME_INVOLUNTARY_CS, false },
	{ "instructions retired", -1, true },
	{ "cycles elapsed", -1, true },
	{ "peak memory footprint", -1, true },
};
#define BSD_NRUSAGE (sizeof bsd_rusage / sizeof bsd_rusage[0])

struct timeshort {
	struct bl_re gnu, zsh, tcsh, bsd;
	/* the open real/user/sys block (timeparse.h; its command buffer
	 * also keeps a zsh line's job) */
	struct bl_time_block b;
	/* the open block is complete (a bsd line, or posix-p up to "sys"):
	 * only BSD rusage lines may follow; rus is the next expected one */
	bool rus_ok;
	size_t rus;
	bool posix;                    /* the open block is posix-p */
	bool mac;                      /* macOS evidence seen (see the top) */
	bool has_rss;
	long long rss;
	unsigned long rss_line;
	/* The shell said the command was not found (nf_sig 0) or died of
	 * signal nf_sig: a timing block may start on line nf_next (after it
	 * and blank lines only; 0: none); nf_here: the current line is that
	 * line. */
	unsigned long nf_next;
	bool nf_here;
	int nf_sig;
};

static int ts_init(void *st, struct bl_ctx *ctx, char **err)
{
	struct timeshort *t = st;
	(void)ctx;
	bl_time_block_init(&t->b);
	/* constant patterns (no option feeds them): a failure is a bug in a
	 * pattern or no memory, said by the first, where compiling stops */
	if (bl_re_compile(&t->gnu,
		"^([0-9]+(?:\\.[0-9]+)?)user\\s+([0-9]+(?:\\.[0-9]+)?)system\\s+([0-9:.]+)elapsed\\s+(\\?|[0-9]+)%CPU\\s+"
		"\\(([0-9]+)avgtext\\+([0-9]+)avgdata\\s+([0-9]+)maxresident\\)k\\s*"
		"(?:([0-9]+)inputs\\+([0-9]+)outputs\\s+\\(([0-9]+)major\\+([0-9]+)minor\\)pagefaults\\s+([0-9]+)swaps)?\\s*$",
		0, "GNU time default format", err) ||
	    bl_re_compile(&t->zsh,
		"^(?:(.*?\\S)\\s+)?([0-9]+\\.[0-9]+)s\\s+user\\s+([0-9]+\\.[0-9]+)s\\s+system\\s+([0-9]+)%\\s+cpu\\s+([0-9:.]+)\\s+total\\s*$",
		0, "zsh time format", err) ||
	    bl_re_compile(&t->bsd,
		"^(?:.*\\s)?([0-9]+[.,][0-9]+)\\s+real\\s+([0-9]+[.,][0-9]+)\\s+user\\s+([0-9]+[.,][0-9]+)\\s+sys\\s*$",
		0, "BSD time format", err) ||
	    bl_re_compile(&t->tcsh,
		"^([0-9]+\\.[0-9]+)u\\s+([0-9]+\\.[0-9]+)s\\s+([0-9:.]+)\\s+([0-9]+(?:\\.[0-9]+)?)%\\s+"
		"([0-9]+)\\+([0-9]+)k\\s+([0-9]+)\\+([0-9]+)io\\s+([0-9]+)pf\\+([0-9]+)w\\s*$",
		0, "tcsh time format", err))
		return -BL_EFORMAT;
	return 0;
}

/* The BSD maximum resident set size, once the whole block is known. */
static void bsd_rss(struct timeshort *t, struct bl_ctx *ctx)
{
	if (!t->has_rss)
		return;
	if (t->mac) {
		bl_set_int(&t->b.rec, TIME_MAX_RSS_KIB, (t->rss + 512) / 1024);
		return;
	}
	struct bl_line ln = { "", 0, bl_buf_str(&t->b.source), t->rss_line, 0, NULL };
	bl_warn(ctx, &ln, "BSD time RSS unit unknown",
		"BSD time -l: maximum resident set size %lld is bytes on macOS and KiB on the BSDs, "
		"and this 10-column layout does not say which: max_rss_kib left empty", t->rss);
}

static void ts_emit(struct timeshort *t, struct bl_ctx *ctx)
{
	if (!t->b.open)
		return;
	bsd_rss(t, ctx);
	bl_time_block_emit(&t->b, ctx);
	t->posix = t->rus_ok = t->mac = t->has_rss = false;
	t->rus = 0;
}

static void ts_open(struct timeshort *t, struct bl_ctx *ctx, const struct bl_line *ln, const char *format)
{
	ts_emit(t, ctx);
	bl_time_block_open(&t->b, ctx, ln, format);
}

/* The shell's line saying the command to run was not found: "-bash: -f:
 * command not found" (bash, sh, ksh; Fedora's handler adds "..."), "zsh:
 * command not found: x". */
static bool not_found_line(const char *s, size_t n)
{
	size_t i = n && s[0] == '-';
	while (i < n && s[i] >= 'a' && s[i] <= 'z')
		i++;
	if (i < 2 || n - i < 2 || memcmp(s + i - 2, "sh: ", 4) != 0)
		return false;
	while (n > i && s[n - 1] == '.')
		n--;
	return bl_startswith(s + i, n - i, ": command not found: ") ||
	       (n - i > 19 && memcmp(s + n - 19, ": command not found", 19) == 0);
}

/* A timing record right after the shell's not-found line or its line
 * for a command killed by a signal (blank lines between at most) times a
 * command that did not run or did not finish: status not-found, or
 * signal and its number, unless a GNU time status line gave it one
 * (docs/formats.md). */
static void take_not_found(const struct timeshort *t, struct bl_record *r)
{
	if (!t->nf_here || r->v[TIME_STATUS].t != BL_NULL)
		return;
	bl_set_str(r, TIME_STATUS, t->nf_sig ? "signal" : "not-found");
	if (t->nf_sig)
		bl_set_int(r, TIME_STATUS_CODE, t->nf_sig);
}

static bool grp(struct bl_re *re, int i, const char *s, const char **p, size_t *l)
{
	size_t off;
	if (!bl_re_group(re, i, &off, l))
		return false;
	*p = s + off;
	return true;
}

/* A value the pattern matched but that does not fit (more than 64 bits,
 * a clock with 75 minutes) is left empty, with a warning. */
static void bad_value(struct bl_ctx *ctx, const struct bl_line *ln, int col, const char *p, size_t l)
{
	bl_warn(ctx, ln, "bad time value", "time: value \"%.*s\" for %s out of range, left empty",
		(int)(l > 40 ? 40 : l), p, bl_table_time.cols[col].name);
}

/* The pattern's groups 1, 2, ... into r's columns cols[0..n), each as its
 * column's type says (elapsed_s, and every number when clocks, as a clock:
 * BSD prints the locale's decimal point; a text kept in t's command buffer). */
static void fill(struct timeshort *t, struct bl_ctx *ctx, const struct bl_line *ln, struct bl_record *r,
		 struct bl_re *re, const int *cols, size_t n, const char *s, bool clocks)
{
	for (size_t i = 0; i < n; i++) {
		const char *p;
		size_t l;
		double d;
		long long v;
		int col = cols[i], rc;
		enum bl_vtype type = bl_table_time.cols[col].type;
		if (!grp(re, 1 + (int)i, s, &p, &l) || (l == 1 && p[0] == '?' && type != BL_STR))
			continue;          /* absent, or GNU time's "?%CPU": unknown */
		if (type == BL_STR) {
			bl_set_str(r, col, bl_time_text_set(&t->b.command, p, l));
			rc = 0;
		} else if (type == BL_INT) {
			if ((rc = bl_parse_ll(p, l, &v)) == 0)
				bl_set_int(r, col, v);
		} else {
			rc = col == TIME_ELAPSED_S || clocks ? bl_parse_clock(p, l, &d) : bl_parse_double(p, l, &d);
			if (rc == 0)
				bl_set_num(r, col, d);
		}
		if (rc)
			bad_value(ctx, ln, col, p, l);
	}
}

/* A one-line format's record. Like every timing record it takes a
 * pending GNU time status line (docs/formats.md, "GNU time -v"). */
static void line_record(struct timeshort *t, struct bl_ctx *ctx, const struct bl_line *ln, const char *format,
			struct bl_re *re, const int *cols, size_t n, const char *s)
{
	struct bl_record rec;
	bl_record_init(&rec, &bl_table_time, ln);
	bl_set_str(&rec, TIME_FORMAT, format);
	bl_time_take_status(ctx, &rec);
	take_not_found(t, &rec);
	fill(t, ctx, ln, &rec, re, cols, n, s, false);
	rec.run = bl_run_join(ctx, BL_RUN_FAMILY_MTEST, BL_RUN_BIT_TIME);
	bl_emit(ctx, &rec);
}

/* real/user/sys value: first token, or "0m 1.00s" (BusyBox) as two. */
static int rus_value(const char *s, size_t n, double *out, bool *busybox, bool *units)
{
	const char *tok[3];
	size_t tl[3];
	size_t nt = bl_split_blanks(s, n, tok, tl, 3);
	if (nt == 0)
		return -BL_EFORMAT;
	*busybox = false;
	if (nt >= 2 && tl[0] >= 2 && tok[0][tl[0] - 1] == 'm' && tok[1][tl[1] - 1] == 's') {
		*busybox = true;
		*units = true;
		return bl_parse_clock(tok[0], (size_t)(tok[1] + tl[1] - tok[0]), out);
	}
	*units = memchr(tok[0], 'm', tl[0]) || memchr(tok[0], 's', tl[0]);
	return bl_parse_clock(tok[0], tl[0], out);
}

/* A BSD -l rusage line: "%10ld  %s" (20 columns on recent macOS), the
 * label time.c prints next (a value past BL_INT_MAX said and left empty).
 * BL_NO when it is not that line. */
static enum bl_verdict bsd_rusage_line(struct timeshort *t, struct bl_ctx *ctx, const struct bl_line *ln,
				       const char *s, size_t n)
{
	size_t lead = 0, v = 0;
	while (lead < ln->len && ln->text[lead] == ' ')
		lead++;
	while (v < n && s[v] >= '0' && s[v] <= '9')
		v++;
	if (v == 0 || v == n || (s[v] != ' ' && s[v] != '\t') || t->rus >= BSD_NRUSAGE)
		return BL_NO;
	const char *lab = s + v;
	size_t ll = n - v;
	bl_trim(&lab, &ll);
	const char *want = bsd_rusage[t->rus].label;
	long long val;
	if (ll != strlen(want) || memcmp(lab, want, ll) != 0)
		return BL_NO;
	int col = bsd_rusage[t->rus].col;
	bool fits = bl_parse_ll(s, v, &val) == 0;
	if (!fits && col >= 0)
		bad_value(ctx, ln, col, s, v);
	if (t->rus == 0) {
		/* the first line says the layout: 20 columns only on macOS */
		if (ln->text + lead == s && lead + v == 20)
			t->mac = true;
		bl_set_str(&t->b.rec, TIME_FORMAT, t->posix ? "bsd-lp" : "bsd-l");
	}
	if (bsd_rusage[t->rus].mac_only)
		t->mac = true;
	if (fits && col == TIME_MAX_RSS_KIB) {
		t->has_rss = true;
		t->rss = val;
		t->rss_line = ln->lineno;
	} else if (fits && col >= 0) {
		bl_set_int(&t->b.rec, col, val);
	}
	t->rus++;
	return BL_USED;
}

/* The BSD default line: "%9jd%c%02ld real %9jd%c%02ld user %9jd%c%02ld sys". */
static void bsd_line(struct timeshort *t, struct bl_ctx *ctx, const struct bl_line *ln, const char *s)
{
	static const int cols[3] = { TIME_ELAPSED_S, TIME_USER_S, TIME_SYS_S };
	ts_open(t, ctx, ln, "bsd");
	fill(t, ctx, ln, &t->b.rec, &t->bsd, cols, 3, s, true);
	t->rus_ok = true;
}

static enum bl_verdict ts_line(void *st, struct bl_ctx *ctx, const struct bl_line *ln, unsigned flags)
{
	struct timeshort *t = st;
	const char *s = ln->text;
	size_t n = ln->len;
	bl_trim(&s, &n);
	t->nf_here = t->nf_next && ln->lineno == t->nf_next;
	t->nf_next = 0;
	if (n == 0 && t->nf_here)
		t->nf_next = ln->lineno + 1;   /* blank: the block may come next */
	if (n < 6)
		return BL_NO;

	/* real / user / sys */
	int which = -1;
	if (bl_startswith(s, n, "real") && (s[4] == ' ' || s[4] == '\t'))
		which = 0;
	else if (t->b.open && !t->rus_ok && bl_startswith(s, n, "user") && (s[4] == ' ' || s[4] == '\t'))
		which = 1;
	else if (t->b.open && !t->rus_ok && bl_startswith(s, n, "sys") && (s[3] == ' ' || s[3] == '\t'))
		which = 2;
	if (which >= 0) {
		size_t lab = which == 2 ? 3 : 4;
		double d;
		bool busybox, units;
		if (rus_value(s + lab, n - lab, &d, &busybox, &units) != 0) {
			if (which == 0)
				return BL_NO;
			ts_emit(t, ctx);
			return BL_NO;
		}
		if (which == 0) {
			ts_open(t, ctx, ln, busybox ? "busybox" : units ? "bash" : "posix-p");
			take_not_found(t, &t->b.rec);
			t->posix = !busybox && !units;
		}
		bl_set_num(&t->b.rec, which == 0 ? TIME_ELAPSED_S : which == 1 ? TIME_USER_S : TIME_SYS_S, d);
		if (which == 2) {
			if (t->posix)
				t->rus_ok = true;   /* BSD -lp: rusage lines may follow */
			else
				ts_emit(t, ctx);
		}
		return BL_USED;
	}
	if (t->b.open && t->rus_ok && bsd_rusage_line(t, ctx, ln, s, n) == BL_USED)
		return BL_USED;
	if (t->b.open)
		ts_emit(t, ctx);

	if (bl_re_match(&t->gnu, s, n) == 1) {
		size_t off, l;
		bool second = bl_re_group(&t->gnu, 8, &off, &l);
		if (!second && !(flags & BL_F_LAST))
			return BL_MORE;  /* the "inputs+outputs" line may follow */
		static const int cols[] = { TIME_USER_S, TIME_SYS_S, TIME_ELAPSED_S, TIME_CPU_PCT,
			TIME_AVG_SHARED_TEXT_KIB, TIME_AVG_UNSHARED_DATA_KIB, TIME_MAX_RSS_KIB,
			TIME_FS_INPUTS, TIME_FS_OUTPUTS, TIME_MAJOR_FAULTS, TIME_MINOR_FAULTS, TIME_SWAPS };
		line_record(t, ctx, ln, "gnu-default", &t->gnu, cols, sizeof cols / sizeof cols[0], s);
		return BL_USED;
	}
	if (flags & BL_F_JOINED)
		return BL_NO;
	if (bl_re_match(&t->bsd, s, n) == 1) {
		bsd_line(t, ctx, ln, s);
		return BL_USED;
	}
	if (bl_re_match(&t->zsh, s, n) == 1) {
		static const int cols[] = { TIME_COMMAND, TIME_USER_S, TIME_SYS_S, TIME_CPU_PCT, TIME_ELAPSED_S };
		line_record(t, ctx, ln, "zsh", &t->zsh, cols, sizeof cols / sizeof cols[0], s);
		return BL_USED;
	}
	if (bl_re_match(&t->tcsh, s, n) == 1) {
		/* tcsh prints %U with 3 decimals and a TAB after %P; BSD csh one decimal, no TAB */
		bool tcsh = memchr(s, '\t', n) != NULL;
		if (!tcsh) {
			const char *p;
			size_t l;
			if (grp(&t->tcsh, 1, s, &p, &l) && l >= 5 && p[l - 4] == '.')
				tcsh = true;
		}
		static const int cols[] = { TIME_USER_S, TIME_SYS_S, TIME_ELAPSED_S, TIME_CPU_PCT,
			TIME_AVG_SHARED_TEXT_KIB, TIME_AVG_UNSHARED_DATA_KIB, TIME_FS_INPUTS,
			TIME_FS_OUTPUTS, TIME_MAJOR_FAULTS, TIME_SWAPS };
		line_record(t, ctx, ln, tcsh ? "tcsh" : "csh", &t->tcsh, cols, sizeof cols / sizeof cols[0], s);
		return BL_USED;
	}
	/* not taken: text, as before */
	if ((t->nf_sig = bl_shell_signal_line(s, n)) != 0 || not_found_line(s, n))
		t->nf_next = ln->lineno + 1;
	return BL_NO;
}

static void ts_flush(void *st, struct bl_ctx *ctx, const struct bl_line *ln)
{
	(void)ln;
	ts_emit(st, ctx);
	((struct timeshort *)st)->nf_next = 0;
}

static void ts_release(void *st)
{
	struct timeshort *t = st;
	bl_time_block_release(&t->b);
	bl_re_release(&t->gnu);
	bl_re_release(&t->zsh);
	bl_re_release(&t->tcsh);
	bl_re_release(&t->bsd);
}

static const struct bl_table_def *const ts_tables[] = { &bl_table_time, NULL };

const struct bl_parser bl_parser_timeshort = {
	.name = "timeshort",
	.summary = "GNU time default and -p, bash/BusyBox real-user-sys, zsh, tcsh/csh and BSD/macOS time lines",
	.tables = ts_tables,
	.state_size = sizeof(struct timeshort),
	.init = ts_init,
	.line = ts_line,
	.yield = ts_flush,
	.flush = ts_flush,
	.release = ts_release,
};
