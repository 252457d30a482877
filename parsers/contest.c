/* contest.c — ConTest (the kernel responsiveness benchmark, 2002-2004):
 * per-load log lines and `contest -r` report tables (FORMATS.md §4).
 *
 * docs/formats.md, "ConTest", states the rules; this file and
 * tests/test_contest.c cite them as Requirement 1 log lines of every
 * generation, 2 hard-wrapped records re-joined (BL_MORE), 3 note lines,
 * 4 group and run, 5 report tables read by the header's words, 5a titled
 * groups under one header, 6 malformed values warned and skipped.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <glib.h>
#include "core/re.h"
#include "core/util.h"
#include "parsers/contest.h"
#include "parsers/parser.h"

static const struct bl_col_def ct_cols[CT_NCOLS] = {
	[CT_LOAD] = { "load", BL_STR, "load name as printed: `noload` (2002) / `no_load` (2003), `cacherun`, `process_load`, `ctar_load`, `xtar_load`, `io_load`, `io_other`, `io_halfmem`, `io_fullmem`, `read_load`, `list_load`, `mem_load`, `dbench_load`, any other `*_load`", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[CT_TIME_S] = { "time_s", BL_NUM, "`Time:` wall-clock time of the kernel compile under the load, s", "s", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[CT_CPU_PCT] = { "cpu_pct", BL_NUM, "`CPU:` percent of one CPU the compile got, % (above 100 on SMP)", "%", BL_ROLE_MEASURE, BL_BETTER_HIGHER },
	[CT_LOAD_RUNS] = { "load_runs", BL_INT, "`LoadRuns:` times the load ran to completion (logs from Nov 2002 on; empty before)", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[CT_LOAD_CPU_PCT] = { "load_cpu_pct", BL_NUM, "`LoadCPU%:` percent of CPU the load got, % (Nov 2002 on; `0` is printed without `%`)", "%", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[CT_MAJOR_FAULTS] = { "major_faults", BL_INT, "`Major Faults:` of the compile (empty in the Nov 2002 variant without faults)", "", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[CT_MINOR_FAULTS] = { "minor_faults", BL_INT, "`Minor Faults:` of the compile", "", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[CT_NOTE] = { "note", BL_STR, "note lines after the record (`Was writing number 4 of a 112Mb sized io_load file after 90 seconds`), joined with `; `; text found after a complete record (with a warning)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
};

const struct bl_table_def bl_table_contest = {
	"contest", "one row per ConTest per-load log line (every generation, wrapped records re-joined)",
	CT_NCOLS, ct_cols,
	"Parser: parsers/contest.c; format: docs/formats.md, \"ConTest\". A column the line's "
	"generation does not print is empty.\n\n"
	"- `line` is the record's first line, `quoted` its quote depth.\n"
	"- `group` is the group in force at the record's first line (heading such as `Default "
	"tunables`, kernel line, `--group`, else the mail's kernel or thread, or the file stem); `run` counts passes through the "
	"loads in that group: it goes up when a load comes again.",
	.group_col = "group", .split_col = "load",
};

static const struct bl_col_def cr_cols[CR_NCOLS] = {
	[CR_LOAD] = { "load", BL_STR, "the block's `<load>:` title as written (`no_load`, `Process Load`, `io full mem`, `2list_load`); empty when the table had none", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[CR_KERNEL] = { "kernel", BL_STR, "`Kernel` column", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[CR_RUNS] = { "runs", BL_INT, "`[runs]`: the runs averaged (`[3]` in 2002, a bare `3` from 2003); empty when the table has no such column", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[CR_TIME_S] = { "time_s", BL_NUM, "`Time`: mean compile time, s (one decimal in 2002, integer from 2003)", "s", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[CR_CPU_PCT] = { "cpu_pct", BL_NUM, "`CPU%` (`CPU` in hand-made tables): mean percent of CPU of the compile, %", "%", BL_ROLE_MEASURE, BL_BETTER_HIGHER },
	[CR_LOADS] = { "loads", BL_NUM, "`Loads`: mean LoadRuns (integer in 2002, one decimal from 2003)", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[CR_LOAD_CPU_PCT] = { "load_cpu_pct", BL_NUM, "`LCPU%`: mean percent of CPU of the load, %", "%", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[CR_RATIO] = { "ratio", BL_NUM, "`Ratio`: Time / the same kernel's no-load Time; `inf` where ConTest printed `inf` (no no-load run)", "", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[CR_CPU_PLUS_LCPU_PCT] = { "cpu_plus_lcpu_pct", BL_NUM, "`CPU+LCPU%` of third-party 2004 reports, %; empty when absent", "%", BL_ROLE_MEASURE, BL_BETTER_NONE },
};

const struct bl_table_def bl_table_contest_report = {
	"contest_report", "one row per kernel row of a `contest -r` report block (2002, 2003, 2004 layouts, hand-made tables)",
	CR_NCOLS, cr_cols,
	"Parser: parsers/contest.c; format: docs/formats.md, \"ConTest\". Rows of `contest -r` "
	"report blocks (2002, 2003 and 2004 layouts) and of hand-made tables with a `Kernel … Time "
	"… CPU` header; columns are mapped by the header's words, never by position.\n\n"
	"- `run` is empty: a report row is already an average of runs.",
	.group_col = "kernel", .split_col = "load", .runs_col = "runs",
};

/* ---- loads ----------------------------------------------------------- */

static const char *const known_loads[] = {
	"noload", "no_load", "cacherun", "process_load", "ctar_load", "xtar_load",
	"io_load", "io_other", "io_halfmem", "io_fullmem", "read_load", "list_load",
	"mem_load", "dbench_load", NULL,
};
#define NKNOWN 14
#define MAX_BITS 64

/* Requirement 1: a log line's load name. */
static bool is_load_name(const char *s, size_t n)
{
	if (bl_word_index(s, n, known_loads, false) >= 0)
		return true;
	if (n < 6 || n > 40 || memcmp(s + n - 5, "_load", 5) != 0 || !g_ascii_islower(s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(g_ascii_islower(s[i]) || g_ascii_isdigit(s[i]) || s[i] == '_'))
			return false;
	return true;
}

/* ---- tokens ---------------------------------------------------------- */

#define MAX_TOK 48

struct toks {
	const char *t[MAX_TOK];
	size_t l[MAX_TOK];
	size_t n;          /* tokens stored */
	bool more;         /* more than MAX_TOK tokens */
};

/* Blank: space, TAB, CR, FF, VT, and U+00A0 (C2 A0) that HTML archives
 * put where the author had spaces. Returns the blank's length or 0. */
static size_t blank_at(const char *p, const char *end)
{
	if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v')
		return 1;
	if ((unsigned char)p[0] == 0xC2 && p + 1 < end && (unsigned char)p[1] == 0xA0)
		return 2;
	return 0;
}

static void tokenize(struct toks *tk, const char *s, size_t n)
{
	const char *p = s, *end = s + n;
	tk->n = 0;
	tk->more = false;
	while (p < end) {
		size_t b;
		while (p < end && (b = blank_at(p, end)) > 0)
			p += b;
		if (p == end)
			break;
		const char *w = p;
		while (p < end && blank_at(p, end) == 0)
			p++;
		if (tk->n == MAX_TOK) {
			tk->more = true;
			return;
		}
		tk->t[tk->n] = w;
		tk->l[tk->n] = (size_t)(p - w);
		tk->n++;
	}
}

static bool tok_is(const struct toks *tk, size_t i, const char *lit)
{
	return i < tk->n && tk->l[i] == strlen(lit) && memcmp(tk->t[i], lit, tk->l[i]) == 0;
}

/* A non-negative number, with an optional trailing '%' when pct. */
static int num_val(const char *s, size_t n, bool pct, double *out)
{
	if (pct && n > 1 && s[n - 1] == '%')
		n--;
	int rc = bl_parse_double(s, n, out);
	return rc == 0 && *out < 0 ? -BL_ERANGE : rc;
}

static int count_val(const char *s, size_t n, long long *out)
{
	int rc = bl_parse_ll(s, n, out);
	if (rc == 0 && *out < 0)
		return -BL_ERANGE;
	return rc;
}

/* ---- log lines ------------------------------------------------------- */

/* The steps of a log line after the load name. S_* values are the number
 * of steps matched; the groups end at S_CPU (v0.3x wrapped or truncated),
 * S_LCPU (Nov 2002 without faults) and S_DONE. */
enum {
	S_TIME_L, S_TIME, S_CPU_L, S_CPU, S_LRUNS_L, S_LRUNS, S_LCPU_L, S_LCPU,
	S_MAJ1, S_MAJ2, S_MAJ, S_MIN1, S_MIN2, S_MIN, S_DONE
};
#define AT_CPU (S_CPU + 1)       /* matched through the CPU value */
#define AT_LCPU (S_LCPU + 1)     /* through the LoadCPU% value */

static const char *const step_lit[S_DONE] = {
	"Time:", NULL, "CPU:", NULL, "LoadRuns:", NULL, "LoadCPU%:", NULL,
	"Major", "Faults:", NULL, "Minor", "Faults:", NULL,
};

struct logrec {
	int matched;          /* steps matched (0..S_DONE) */
	size_t used;          /* tokens used, the load name included */
	int bad_step;         /* step whose value did not parse, or -1 */
	int bad_rc;           /* its error: -BL_EFORMAT or -BL_ERANGE */
	double time_s, cpu, lcpu;
	long long lruns, major, minor;
	bool has_lruns, has_lcpu, has_major, has_minor;
};

/* Walk the steps over tokens 1..; stops at the first token that does not
 * fit (tokens left over) or when tokens run out. */
static void parse_log(const struct toks *tk, struct logrec *r)
{
	memset(r, 0, sizeof *r);
	r->bad_step = -1;
	size_t i = 1;
	int s = S_TIME_L;
	while (s < S_DONE && i < tk->n) {
		const char *t = tk->t[i];
		size_t l = tk->l[i];
		if (s == S_LRUNS_L && tok_is(tk, i, "Major"))
			s = S_MAJ1;     /* v0.3x: faults right after CPU */
		if (step_lit[s]) {
			if (!tok_is(tk, i, step_lit[s]))
				break;
		} else {
			int rc = 0;
			switch (s) {
			case S_TIME: rc = num_val(t, l, false, &r->time_s); break;
			case S_CPU: rc = num_val(t, l, true, &r->cpu); break;
			case S_LRUNS: rc = count_val(t, l, &r->lruns); r->has_lruns = rc == 0; break;
			case S_LCPU: rc = num_val(t, l, true, &r->lcpu); r->has_lcpu = rc == 0; break;
			case S_MAJ: rc = count_val(t, l, &r->major); r->has_major = rc == 0; break;
			case S_MIN: rc = count_val(t, l, &r->minor); r->has_minor = rc == 0; break;
			}
			if (rc) {
				r->bad_step = s;
				r->bad_rc = rc;
				break;
			}
		}
		s++;
		i++;
	}
	r->matched = s;
	r->used = i;
}

/* ---- state ----------------------------------------------------------- */

struct pending {
	bool open;
	struct bl_record rec;
	/* the record's load name and group, in buffers reused record after
	 * record (the record borrows them until it is emitted) */
	struct bl_buf load;
	struct bl_buf group;
	const char *group_source;
	struct bl_buf note;
	int depth;
};

enum rcol { RC_TIME, RC_CPU, RC_LOADS, RC_LCPU, RC_RATIO, RC_CPULCPU, RC_N };

struct table {
	bool open;                 /* header seen */
	bool runs;                 /* header has "[runs]" */
	int col[RC_N];             /* report columns in header order */
	size_t ncols;
	char *load;                /* title, owned; NULL when none */
	size_t rows;
};

struct contest {
	struct bl_re note_re, note_start_re;
	struct pending p;
	struct bl_held title;      /* a "<load>:" line waiting for its header */
	char *title_load;
	struct table tb;
	struct table kept;         /* the last header's columns (load, rows unset),
				      for titled groups under one header */
	char *dyn[MAX_BITS];       /* load names beyond the known ones */
	size_t ndyn;
	struct toks tk;
};

static int ct_init(void *st, struct bl_ctx *ctx, char **err)
{
	struct contest *c = st;
	(void)ctx;
	/* constant patterns (no option feeds them): a failure is a bug in a
	 * pattern or no memory, said by the first, where compiling stops */
	if (bl_re_compile(&c->note_re,
		"^was\\s+[a-z]+\\s+number\\s+[0-9]+\\s+of\\s+an?\\s+[0-9]+\\s*[kmg]i?b\\s+sized\\s+"
		"[a-z_]+\\s+file\\s+after\\s+[0-9]+\\s+seconds?\\.?\\s*$",
		BL_RE_CASELESS, "contest note line", err) ||
	    bl_re_compile(&c->note_start_re, "^was\\s+(?:writing|reading)\\s+number\\s+[0-9]+(?:\\s|$)",
			  BL_RE_CASELESS, "contest note start", err))
		return -BL_EFORMAT;
	c->p.note = (struct bl_buf)BL_BUF_INIT(4096);
	c->p.load = (struct bl_buf)BL_BUF_INIT(1u << 26);
	c->p.group = (struct bl_buf)BL_BUF_INIT(1u << 26);
	return 0;
}

/* Bit of a load name for bl_run_join (Requirement 4). */
static unsigned long long load_bit(struct contest *c, const char *s, size_t n)
{
	int k = bl_word_index(s, n, known_loads, false);
	if (k >= 0)
		return 1ull << k;
	for (size_t i = 0; i < c->ndyn; i++)
		if (strlen(c->dyn[i]) == n && memcmp(c->dyn[i], s, n) == 0)
			return 1ull << (NKNOWN + i);
	if (NKNOWN + c->ndyn < MAX_BITS) {
		c->dyn[c->ndyn] = bl_xstrndup(s, n);
		return 1ull << (NKNOWN + c->ndyn++);
	}
	return 1ull << (MAX_BITS - 1);   /* more than 50 other loads: they share a bit */
}

static void pending_emit(struct contest *c, struct bl_ctx *ctx)
{
	struct pending *p = &c->p;
	if (!p->open)
		return;
	if (p->note.len)
		bl_set_str(&p->rec, CT_NOTE, p->note.data);
	p->rec.group = bl_buf_str(&p->group);
	p->rec.group_source = p->group_source;
	bl_emit(ctx, &p->rec);
	bl_buf_reset(&p->load);
	bl_buf_reset(&p->group);
	bl_buf_reset(&p->note);
	p->open = false;
}

/* Append note text, blanks collapsed to one space (a wrapped note is
 * joined with the blank that ended its first line). */
static void note_add(struct pending *p, const char *s, size_t n)
{
	const char *end = s + n;
	bool sep = p->note.len > 0, blank = false;
	while (s < end) {
		size_t b = blank_at(s, end);
		if (b) {
			blank = true;
			s += b;
			continue;
		}
		if (sep) {
			bl_buf_add(&p->note, "; ", 2);
			sep = blank = false;
		} else if (blank && p->note.len) {
			bl_buf_addc(&p->note, ' ');
		}
		blank = false;
		bl_buf_addc(&p->note, *s++);
	}
}

/* Make the parsed record pending (Requirement 3). */
static void take_record(struct contest *c, struct bl_ctx *ctx, const struct bl_line *ln,
			const struct logrec *r)
{
	pending_emit(c, ctx);
	struct pending *p = &c->p;
	const struct toks *tk = &c->tk;
	bl_record_init(&p->rec, &bl_table_contest, ln);
	bl_buf_reset(&p->load);
	bl_buf_add(&p->load, tk->t[0], tk->l[0]);
	bl_set_str(&p->rec, CT_LOAD, bl_buf_str(&p->load));
	if (r->matched > S_TIME)
		bl_set_num(&p->rec, CT_TIME_S, r->time_s);
	if (r->matched > S_CPU)
		bl_set_num(&p->rec, CT_CPU_PCT, r->cpu);
	if (r->has_lruns)
		bl_set_int(&p->rec, CT_LOAD_RUNS, r->lruns);
	if (r->has_lcpu)
		bl_set_num(&p->rec, CT_LOAD_CPU_PCT, r->lcpu);
	if (r->has_major)
		bl_set_int(&p->rec, CT_MAJOR_FAULTS, r->major);
	if (r->has_minor)
		bl_set_int(&p->rec, CT_MINOR_FAULTS, r->minor);
	const char *g = bl_ctx_group(ctx);
	bl_buf_reset(&p->group);
	bl_buf_add(&p->group, g, strlen(g));
	p->group_source = bl_ctx_group_source(ctx);
	p->rec.run = bl_run_join(ctx, BL_RUN_FAMILY_CONTEST, load_bit(c, tk->t[0], tk->l[0]));
	p->depth = ln->quote_depth;
	bl_buf_reset(&p->note);
	if (r->used < tk->n) {
		/* Requirement 6: text after a complete record is kept. */
		const char *rest = tk->t[r->used];
		size_t rl = (size_t)(ln->text + ln->len - rest);
		note_add(p, rest, rl);
	}
	p->open = true;
}

/* What a value step reads, for messages. */
static const char *const step_value[S_DONE] = {
	[S_TIME] = "Time", [S_CPU] = "CPU", [S_LRUNS] = "LoadRuns", [S_LCPU] = "LoadCPU%",
	[S_MAJ] = "Major Faults", [S_MIN] = "Minor Faults",
};

/* Requirements 1, 2, 6. */
static enum bl_verdict log_line(struct contest *c, struct bl_ctx *ctx, const struct bl_line *ln,
				unsigned flags)
{
	struct toks *tk = &c->tk;
	struct logrec r;
	parse_log(tk, &r);
	bool joined = flags & BL_F_JOINED, last = flags & BL_F_LAST;
	bool leftover = r.used < tk->n || tk->more;
	if (joined) {
		/* The held part parsed as an unfinished record; what follows must
		 * continue it exactly. */
		if (r.bad_step >= 0 || leftover)
			return BL_NO;
	} else {
		if (r.matched == S_TIME_L)
			return BL_NO;          /* "<load>" without "Time:" */
		if (r.bad_step >= 0)
			return bl_reject(ctx, ln, "bad contest value", "contest: %s value \"%.*s\" is %s",
					 step_value[r.bad_step], (int)(tk->l[r.used] > 40 ? 40 : tk->l[r.used]),
					 tk->t[r.used], r.bad_rc == -BL_ERANGE ? "out of range" : "not a number");
		if (leftover) {
			if (r.matched < AT_CPU)
				return BL_NO;  /* prose that starts like a record */
			size_t rl = (size_t)(ln->text + ln->len - tk->t[r.used]);
			while (rl && blank_at(tk->t[r.used] + rl - 1, tk->t[r.used] + rl))
				rl--;
			bl_warn(ctx, ln, "text after contest record",
				"contest: text after the record kept in note: \"%.*s\"",
				(int)(rl > 60 ? 60 : rl), tk->t[r.used]);
			take_record(c, ctx, ln, &r);
			return BL_USED;
		}
	}
	if (r.matched == S_DONE) {
		take_record(c, ctx, ln, &r);
		return BL_USED;
	}
	if (!last)
		return BL_MORE;
	if (r.matched <= S_TIME)
		return bl_reject(ctx, ln, "incomplete contest record", "contest: %.*s record has no Time value",
				 (int)tk->l[0], tk->t[0]);
	/* a record may end at a group's end without a warning (Requirement 2) */
	if (r.matched != AT_CPU && r.matched != AT_LCPU)
		bl_warn(ctx, ln, "incomplete contest record",
			"contest: %.*s record cut short after \"%.*s\"", (int)tk->l[0], tk->t[0],
			(int)tk->l[r.used - 1], tk->t[r.used - 1]);
	take_record(c, ctx, ln, &r);
	return BL_USED;
}

/* ---- report tables --------------------------------------------------- */

/* Requirement 5: "<load>:" titles. Returns the title (without ':', blanks
 * collapsed) as a new string, or NULL. */
static char *title_of(const char *s, size_t n)
{
	bl_trim(&s, &n);
	if (n < 2 || n > 40 || s[n - 1] != ':')
		return NULL;
	n--;
	bl_trim(&s, &n);   /* the blanks before the colon */
	char written[48], norm[48];
	size_t wl = 0, nl = 0, words = 1;
	bool digits = true;            /* still in leading digits ("2list_load") */
	for (size_t j = 0; j < n; j++) {
		char ch = s[j];
		bool sp = ch == ' ' || ch == '\t';
		if (!sp && !(g_ascii_isalnum(ch) || ch == '_'))
			return NULL;
		if (sp) {
			if (written[wl - 1] == ' ')
				continue;      /* j > 0: the text was trimmed */
			words++;
			ch = ' ';
		}
		written[wl++] = ch;
		if (digits && g_ascii_isdigit(ch))
			continue;
		digits = false;
		norm[nl++] = sp ? '_' : g_ascii_tolower(ch);
	}
	written[wl] = norm[nl] = '\0';
	if (words > 4)
		return NULL;
	static const char *const extra[] = {
		"noload", "cacherun", "cache_run", "io_halfmem", "io_half_mem", "io_fullmem",
		"io_full_mem", "io_other", NULL,
	};
	bool ok = nl > 5 && strcmp(norm + nl - 5, "_load") == 0;
	for (size_t e = 0; !ok && extra[e]; e++)
		ok = strcmp(norm, extra[e]) == 0;
	return ok ? bl_xstrdup(written) : NULL;
}

static void title_drop(struct contest *c, struct bl_ctx *ctx)
{
	if (!c->title.text)
		return;
	bl_held_unuse(ctx, &c->title, "contest title without a table");
	free(c->title_load);
	c->title_load = NULL;
}

static void table_close(struct contest *c)
{
	free(c->tb.load);
	memset(&c->tb, 0, sizeof c->tb);
}

/* Requirement 5: the header row's columns into t (zeroed by the caller;
 * what it holds on false is of no use). */
static bool header_of(const struct toks *tk, struct table *t)
{
	if (tk->n < 2 || tk->more || tk->l[0] != 6 || strncasecmp(tk->t[0], "Kernel", 6) != 0)
		return false;
	static const char *const words[] = { "Time", "CPU%", "CPU", "Loads", "LCPU%", "Ratio", "CPU+LCPU%", NULL };
	static const int cols[] = { RC_TIME, RC_CPU, RC_CPU, RC_LOADS, RC_LCPU, RC_RATIO, RC_CPULCPU };
	unsigned seen = 0;
	t->runs = tok_is(tk, 1, "[runs]");
	for (size_t i = t->runs ? 2 : 1; i < tk->n; i++) {
		int w = bl_word_index(tk->t[i], tk->l[i], words, true), col = w < 0 ? -1 : cols[w];
		if (col < 0 || (seen & (1u << col)) || t->ncols == RC_N)
			return false;
		seen |= 1u << col;
		t->col[t->ncols++] = col;
	}
	return seen & (1u << RC_TIME);
}

static const int rc_table_col[RC_N] = {
	[RC_TIME] = CR_TIME_S, [RC_CPU] = CR_CPU_PCT, [RC_LOADS] = CR_LOADS,
	[RC_LCPU] = CR_LOAD_CPU_PCT, [RC_RATIO] = CR_RATIO, [RC_CPULCPU] = CR_CPU_PLUS_LCPU_PCT,
};

/* A line in an open contest -r table that is a kernel row gone wrong:
 * at least as many number-like tokens ("67.7", "-3", "nan", "inf",
 * "98%") as the header has columns, less one (a row with a column
 * missing). Such a row is warned about and skipped, never taken
 * silently as text. */
static bool row_like(const struct contest *c)
{
	const struct toks *tk = &c->tk;
	size_t nums = 0;
	for (size_t i = 1; i < tk->n; i++) {
		const char *t = tk->t[i];
		size_t l = tk->l[i];
		if (g_ascii_isdigit(t[0]) || ((t[0] == '-' || t[0] == '+' || t[0] == '.') && l > 1) ||
		    (l == 3 && (strncasecmp(t, "nan", 3) == 0 || strncasecmp(t, "inf", 3) == 0)))
			nums++;
	}
	return !tk->more && tk->n >= 2 && c->tb.ncols > 0 && nums + 1 >= c->tb.ncols;
}

/* Requirement 5: a kernel row of the open table, emitted at once: true.
 * Else false, with *why what is wrong when the line is a row gone wrong
 * (row_like()), "" when it is no row at all. */
static bool report_row(struct contest *c, struct bl_ctx *ctx, const struct bl_line *ln, char *why, size_t whysz)
{
	const struct toks *tk = &c->tk;
	struct table *tb = &c->tb;
	size_t need = tb->ncols + (tb->runs ? 1 : 0);
	double val[RC_N];
	long long runs = 0;
	*why = '\0';
	if (tk->more || tk->n < need + 1)
		snprintf(why, whysz, "contest -r row has %zu of its %zu fields", tk->n, need + 1);
	size_t v0 = tk->n - tb->ncols;
	for (size_t k = 0; k < tb->ncols && !*why; k++) {
		const char *t = tk->t[v0 + k];
		size_t l = tk->l[v0 + k];
		int rc = 0;
		if (tb->col[k] == RC_RATIO && l == 3 && strncasecmp(t, "inf", 3) == 0)
			val[k] = INFINITY;
		else
			rc = num_val(t, l, true, &val[k]);
		if (rc)
			snprintf(why, whysz, rc == -BL_ERANGE ? "contest -r row: negative value \"%.*s\""
							       : "contest -r row: \"%.*s\" is not a number",
				 (int)(l > 40 ? 40 : l), t);
	}
	size_t kend = v0;
	if (tb->runs && !*why) {
		const char *t = tk->t[v0 - 1];
		size_t l = tk->l[v0 - 1];
		bool br = l >= 3 && t[0] == '[' && t[l - 1] == ']';
		if (br ? count_val(t + 1, l - 2, &runs) : count_val(t, l, &runs))
			snprintf(why, whysz, "contest -r row: cannot read its run count");
		kend = v0 - 1;
	}
	if (*why) {
		if (!row_like(c))
			*why = '\0';
		return false;
	}
	/* The kernel: the tokens before, as written between them. */
	const char *ks = tk->t[0];
	size_t kl = (size_t)(tk->t[kend - 1] + tk->l[kend - 1] - ks);
	char *kernel = bl_xstrndup(ks, kl);
	struct bl_record r;
	bl_record_init(&r, &bl_table_contest_report, ln);
	if (tb->load)
		bl_set_str(&r, CR_LOAD, tb->load);
	bl_set_str(&r, CR_KERNEL, kernel);
	if (tb->runs)
		bl_set_int(&r, CR_RUNS, runs);
	for (size_t k = 0; k < tb->ncols; k++)
		bl_set_num(&r, (size_t)rc_table_col[tb->col[k]], val[k]);
	bl_emit(ctx, &r);
	free(kernel);
	tb->rows++;
	return true;
}

/* ---- the parser ------------------------------------------------------ */

static bool is_blank_line(const char *s, size_t n)
{
	const char *end = s + n;
	while (s < end) {
		size_t b = blank_at(s, end);
		if (!b)
			return false;
		s += b;
	}
	return true;
}

static enum bl_verdict ct_line(void *st, struct bl_ctx *ctx, const struct bl_line *ln, unsigned flags)
{
	struct contest *c = st;
	const char *s = ln->text;
	size_t n = ln->len;
	struct toks *tk = &c->tk;

	if (flags & BL_F_JOINED) {
		tokenize(tk, s, n);
		if (tk->n && is_load_name(tk->t[0], tk->l[0]))
			return log_line(c, ctx, ln, flags);
		/* a wrapped note */
		if (!c->p.open)
			return BL_NO;
		if (bl_re_match(&c->note_re, s, n) != 1 && !(flags & BL_F_LAST))
			return BL_NO;
		note_add(&c->p, s, n);
		return BL_USED;
	}

	if (is_blank_line(s, n)) {
		if (c->tb.open && c->tb.rows)
			table_close(c);
		return BL_NO;
	}

	/* Cheap tests first: this parser is offered most lines of other
	 * formats' inputs. */
	const char *lead = s;
	size_t leadn = n;
	bl_trim(&lead, &leadn);
	bool maybe_note = leadn > 3 && (lead[0] == 'W' || lead[0] == 'w');
	bool maybe_header = leadn > 6 && strncasecmp(lead, "Kernel", 6) == 0;
	bool maybe_log = bl_contains(s, n, "Time:", 5);

	/* Requirement 3: notes attach to the pending record. */
	if (maybe_note && bl_re_match(&c->note_start_re, s, n) == 1) {
		if (!c->p.open || c->p.depth != ln->quote_depth) {
			pending_emit(c, ctx);
			return bl_skip_as(ctx, "contest note without a record");
		}
		if (bl_re_match(&c->note_re, s, n) == 1 || (flags & BL_F_LAST)) {
			note_add(&c->p, s, n);
			return BL_USED;
		}
		return BL_MORE;
	}
	pending_emit(c, ctx);

	if (!c->tb.open && !maybe_header && !maybe_log && !c->title.text && leadn && lead[leadn - 1] != ':')
		return BL_NO;
	tokenize(tk, s, n);
	if (c->tb.open) {
		char why[120];
		if (report_row(c, ctx, ln, why, sizeof why))
			return BL_USED;
		if (*why)   /* the table stays open for the rows after it */
			return bl_reject(ctx, ln, "bad contest -r row", "%s", why);
		table_close(c);
	}
	char *title = title_of(s, n);
	if (title) {
		title_drop(c, ctx);
		bl_held_set(&c->title, ln);
		c->title_load = title;
		return BL_USED;
	}
	struct table hdr;
	memset(&hdr, 0, sizeof hdr);
	if (maybe_header && header_of(tk, &hdr)) {
		table_close(c);
		c->tb = hdr;
		c->tb.open = true;
		c->tb.load = c->title_load;     /* NULL when the header has no title */
		c->title_load = NULL;
		bl_held_clear(&c->title);
		c->kept = hdr;
		return BL_USED;
	}
	/* Requirement 5a: a title, then a row of the last header's shape. */
	if (c->title.text && c->kept.ncols) {
		c->tb = c->kept;
		c->tb.open = true;
		c->tb.load = c->title_load;
		if (report_row(c, ctx, ln, (char[120]){ 0 }, 120)) {
			c->title_load = NULL;
			bl_held_clear(&c->title);
			return BL_USED;
		}
		c->tb.load = NULL;
		table_close(c);
	}
	title_drop(c, ctx);
	if (maybe_log && tk->n && is_load_name(tk->t[0], tk->l[0]))
		return log_line(c, ctx, ln, flags);
	return BL_NO;
}

static void ct_flush(void *st, struct bl_ctx *ctx, const struct bl_line *ln)
{
	struct contest *c = st;
	(void)ln;
	pending_emit(c, ctx);
	title_drop(c, ctx);
	table_close(c);
	memset(&c->kept, 0, sizeof c->kept);
}

static void ct_release(void *st)
{
	struct contest *c = st;
	bl_re_release(&c->note_re);
	bl_re_release(&c->note_start_re);
	bl_buf_release(&c->p.load);
	bl_buf_release(&c->p.group);
	bl_buf_release(&c->p.note);
	bl_held_clear(&c->title);
	free(c->title_load);
	table_close(c);
	for (size_t i = 0; i < c->ndyn; i++)
		free(c->dyn[i]);
}

static const struct bl_table_def *const ct_tables[] = { &bl_table_contest, &bl_table_contest_report, NULL };

const struct bl_parser bl_parser_contest = {
	.name = "contest",
	.summary = "ConTest per-load log lines (2002-2004, wrapped or quoted) and contest -r report tables",
	.tables = ct_tables,
	.state_size = sizeof(struct contest),
	.init = ct_init,
	.line = ct_line,
	.yield = ct_flush,
	.flush = ct_flush,
	.release = ct_release,
};
