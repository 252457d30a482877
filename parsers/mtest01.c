/* mtest01.c — LTP mtest01 results, every generation (FORMATS.md §3):
 * 2001 bytes, 2003 kbytes, tst_resm and tst_test lines, one row per result
 * with the allocation in bytes. docs/formats.md, "LTP mtest01", states the
 * rules and "Evidence a record needs" what makes a row: only mtest01's own
 * result lines; the LTP library's lines and runltp's tag=mtest01 wrapper
 * are used as context once the unit showed mtest01's output.
 */
#include <stdlib.h>
#include <string.h>
#include "core/re.h"
#include "core/util.h"
#include "parsers/parser.h"
#include "parsers/tables.h"

static const struct bl_col_def mt_cols[MT_NCOLS] = {
	[MT_GENERATION] = { "generation", BL_STR, "output generation: `2001` (`PASS ... N bytes allocated.`), `2003` (`PASS .. N kbytes allocated and used.`), `tst_resm` (2007-2019, `mtest01 1 TPASS : N kbytes …`), `tst_test` (2019-, `mtest01.c:130: TPASS: N kbytes allocated (and written to)`)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[MT_RESULT] = { "result", BL_STR, "`pass`, `fail`, `broken` or `conf`, from the result word (`PASS`/`TPASS`, `FAIL`/`TFAIL`, `BROK`/`TBROK`, `CONF`/`TCONF`)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[MT_BYTES_ALLOCATED] = { "bytes_allocated", BL_INT, "memory allocated, bytes (kbytes × 1024 where printed in kbytes); empty when the line states none", "bytes", BL_ROLE_MEASURE, BL_BETTER_HIGHER },
	[MT_TARGET_BYTES] = { "target_bytes", BL_INT, "what mtest01 set out to fill (\"Filling up N% of ram which is M kbytes\"), bytes", "bytes", BL_ROLE_LABEL, BL_BETTER_NONE },
	[MT_TARGET_PCT] = { "target_pct", BL_NUM, "the `-p` percentage from the same line, %", "%", BL_ROLE_LABEL, BL_BETTER_NONE },
	[MT_MESSAGE] = { "message", BL_STR, "the result line's message text, after the result word", "", BL_ROLE_LABEL, BL_BETTER_NONE },
};

const struct bl_table_def bl_table_mtest01 = {
	"mtest01", "one row per LTP mtest01 result line", MT_NCOLS, mt_cols,
	"Parser: parsers/mtest01.c; format: docs/formats.md, \"LTP mtest01\".\n\n"
	"- The target line (`Filling up 80% of ram which is N kbytes`) goes into the next "
	"result's `target_bytes` and `target_pct`.\n"
	"- An mtest01 result and the timing block next to it form one run: the `time` row carries "
	"the same `group` and `run`.",
	.group_col = "group",
};

struct mtest01 {
	struct bl_re r2003, resm, tstt, ltplib, fill, child, fail_wrap;
	/* This unit showed mtest01's own output (a result, a target line) or
	 * runltp's tag=mtest01: only then are LTP library lines
	 * ("tst_test.c:NNN: INFO: …") and runltp's wrapper lines its
	 * context. They never make a row themselves. */
	bool seen;
	bool in_tag;                /* inside a runltp tag=mtest01 block */
	bool have_target;
	long long target_bytes;
	double target_pct;
	bool in_summary;
	struct bl_buf msg;          /* the message of the record being emitted */
};

static int mt_init(void *st, struct bl_ctx *ctx, char **err)
{
	struct mtest01 *m = st;
	(void)ctx;
	/* constant patterns (no option feeds them): a failure is a bug in a
	 * pattern or no memory, said by the first, where compiling stops */
	if (bl_re_compile(&m->r2003, "^(PASS|FAIL) \\.\\. ([0-9]+) kbytes allocated (?:and used|only)\\.?\\s*$", 0, "mtest01 2003 result", err) ||
	    bl_re_compile(&m->resm, "^mtest01\\s+([0-9]+)\\s+T?(PASS|FAIL|BROK|WARN|INFO|CONF)\\s+:\\s+(.*?)\\s*$", 0, "mtest01 tst_resm line", err) ||
	    bl_re_compile(&m->tstt, "^(mtest01)\\.c:[0-9]+:\\s+T?(PASS|FAIL|BROK|WARN|INFO|CONF):\\s*(.*?)\\s*$", 0, "mtest01 tst_test line", err) ||
	    bl_re_compile(&m->ltplib, "^tst_[a-z_]+\\.c:[0-9]+:\\s+T?(?:PASS|FAIL|BROK|WARN|INFO|CONF):", 0, "LTP library line", err) ||
	    bl_re_compile(&m->fill, "Filling up ([0-9]+)%\\s+of (?:free )?ram which is ([0-9]+)d? (k?)bytes", 0, "mtest01 target line", err) ||
	    bl_re_compile(&m->child, "^(?:Total memory (?:used needed to reach (?:maxpercent|maximum)|already used on system) = [0-9]+ kbytes|\\.\\.\\. (?:\\[t=[0-9]+\\] )?[0-9]+ bytes allocated (?:and used|only)(?: in child [0-9]+)?\\.?|\\.\\.\\. child [0-9]+ starting)\\s*$", 0, "mtest01 context line", err) ||
	    bl_re_compile(&m->fail_wrap, "less than\\s*$", 0, "mtest01 wrapped FAIL", err))
		return -BL_EFORMAT;
	m->msg = (struct bl_buf)BL_BUF_INIT(1u << 26);
	return 0;
}

/* The 2001 result, the line of mtest01 a log holds most of, by hand:
 * "^(PASS|FAIL) \\.\\.\\. ([0-9]+) bytes allocated\\.?\\s*$" (as a regex,
 * 3 % of the instructions of summary on mtest01 + time -v runs). Returns
 * true with the number's offset and length. */
static bool line_2001(const char *s, size_t n, size_t *o, size_t *l)
{
	static const char tail[] = " bytes allocated";
	if (n < 9 || (memcmp(s, "PASS ... ", 9) != 0 && memcmp(s, "FAIL ... ", 9) != 0))
		return false;
	size_t i = 9;
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i == 9 || n - i < sizeof tail - 1 || memcmp(s + i, tail, sizeof tail - 1) != 0)
		return false;
	*o = 9;
	*l = i - 9;
	i += sizeof tail - 1;
	if (i < n && s[i] == '.')
		i++;
	while (i < n && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')))
		i++;
	return i == n;
}

static const char *result_word(const char *w, size_t l)
{
	if (l >= 4 && memcmp(w, "PASS", 4) == 0) return "pass";
	if (l >= 4 && memcmp(w, "FAIL", 4) == 0) return "fail";
	if (l >= 4 && memcmp(w, "BROK", 4) == 0) return "broken";
	if (l >= 4 && memcmp(w, "CONF", 4) == 0) return "conf";
	return NULL;
}

static void note_target(struct mtest01 *m, struct bl_ctx *ctx, const struct bl_line *ln,
			const char *s, size_t n)
{
	if (bl_re_match(&m->fill, s, n) != 1)
		return;
	size_t o, l, ko, kl;
	long long v;
	double pct;
	bl_re_group(&m->fill, 1, &o, &l);
	if (bl_parse_double(s + o, l, &pct))
		return;
	bl_re_group(&m->fill, 2, &o, &l);
	if (bl_parse_ll(s + o, l, &v))
		return;
	bool kb = bl_re_group(&m->fill, 3, &ko, &kl) && kl == 1;
	if (kb && v > BL_INT_MAX / 1024) {
		/* no target rather than one from an earlier line */
		m->have_target = false;
		bl_warn(ctx, ln, "bad mtest01 value", "mtest01: target \"%.*s kbytes\" out of range",
			(int)(l > 40 ? 40 : l), s + o);
		return;
	}
	m->target_bytes = kb ? v * 1024 : v;
	m->target_pct = pct;
	m->have_target = true;
}

/* "5868864 kbytes allocated …" / "… expected 5868864" → bytes. Returns 1
 * with *bytes set, 0 when the message states no allocation, -1 when it
 * states one that is no byte count ("-5 kbytes", "nan kbytes", 10^15
 * bytes or more: BL_INT_MAX): the caller says so, never a silent empty
 * value. */
static int message_bytes(const char *msg, size_t n, long long *bytes)
{
	const char *tok[8];
	size_t tl[8];
	size_t nt = bl_split_blanks(msg, n, tok, tl, 8);
	if (nt < 2)
		return 0;
	bool kb = tl[1] == 6 && memcmp(tok[1], "kbytes", 6) == 0;
	if (!kb && !(tl[1] == 5 && memcmp(tok[1], "bytes", 5) == 0))
		return 0;
	long long v;
	if (bl_parse_ll(tok[0], tl[0], &v) != 0 || v < 0 || (kb && v > BL_INT_MAX / 1024))
		return -1;   /* unknown rather than wrapped or negative */
	*bytes = kb ? v * 1024 : v;
	return 1;
}

static int emit_result(struct mtest01 *m, struct bl_ctx *ctx, const struct bl_line *ln,
		       const char *gen, const char *result, bool have_bytes, long long bytes,
		       const char *msg, size_t msglen)
{
	struct bl_record r;
	bl_record_init(&r, &bl_table_mtest01, ln);
	bl_set_str(&r, MT_GENERATION, gen);
	bl_set_str(&r, MT_RESULT, result);
	if (have_bytes)
		bl_set_int(&r, MT_BYTES_ALLOCATED, bytes);
	if (m->have_target) {
		bl_set_int(&r, MT_TARGET_BYTES, m->target_bytes);
		bl_set_num(&r, MT_TARGET_PCT, m->target_pct);
		m->have_target = false;
	}
	bl_buf_reset(&m->msg);
	bl_buf_add(&m->msg, msg, msglen);
	bl_set_str(&r, MT_MESSAGE, bl_buf_str(&m->msg));
	if (strcmp(result, "pass") == 0 || strcmp(result, "fail") == 0 || bl_run_current(ctx, BL_RUN_FAMILY_MTEST) == 0)
		r.run = bl_run_join(ctx, BL_RUN_FAMILY_MTEST, BL_RUN_BIT_MTEST01);
	else
		r.run = bl_run_current(ctx, BL_RUN_FAMILY_MTEST);
	return bl_emit(ctx, &r);
}

/* runltp's wrapper around one test's output (FORMATS.md §3):
 * "<<<test_start>>>", "tag=mtest01 stime=…", "cmdline=…", "contacts=…",
 * "analysis=…", "<<<test_output>>>", … "<<<execution_status>>>",
 * "initiation_status=…", "duration=…", "cutime=…", "<<<test_end>>>".
 * A tag=mtest01 block is mtest01 context; its wrapper lines are used.
 * Another test's block is none of mtest01's business. */
static enum bl_verdict runltp_line(struct mtest01 *m, const char *s, size_t n)
{
	if (n > 4 && memcmp(s, "tag=", 4) == 0) {
		m->in_tag = n >= 11 && memcmp(s + 4, "mtest01", 7) == 0 &&
			    (n == 11 || s[11] == ' ' || s[11] == '\t' || (s[11] >= 'a' && s[11] <= 'z'));
		if (m->in_tag)
			m->seen = true;
		return m->in_tag ? BL_USED : BL_NO;
	}
	if (!m->in_tag)
		return BL_NO;
	static const char *const wrap[] = {
		"<<<test_start>>>", "<<<test_output>>>", "<<<execution_status>>>", "<<<test_end>>>",
		"cmdline=", "contacts=", "analysis=", "initiation_status=", "duration=", "cutime=", NULL,
	};
	for (size_t i = 0; wrap[i]; i++) {
		size_t wl = strlen(wrap[i]);
		if (n >= wl && memcmp(s, wrap[i], wl) == 0) {
			if (i == 3)
				m->in_tag = false;
			return BL_USED;
		}
	}
	return BL_NO;
}

static enum bl_verdict mt_line(void *st, struct bl_ctx *ctx, const struct bl_line *ln, unsigned flags)
{
	struct mtest01 *m = st;
	const char *s = ln->text;
	size_t n = ln->len;
	bl_trim(&s, &n);
	if (n < 6)
		return BL_NO;
	if (s[0] == '#') {
		const char *c = s + 1;
		size_t cl = n - 1;
		bl_trim(&c, &cl);
		size_t o, l;
		if (line_2001(c, cl, &o, &l) || bl_re_match(&m->r2003, c, cl) == 1)
			return bl_skip_as(ctx, "commented-out sample line");
		return BL_NO;
	}
	/* Every pattern below is anchored to a line starting with one of
	 * these bytes, except "Filling up" (anywhere) and the Summary counts:
	 * the other lines of a log (the time -v block after each result)
	 * need not go through seven regexes. */
	if (!m->in_summary && !strchr("PFmtT.S<cdi", s[0]) && !bl_contains(s, n, "Filling up", 10))
		return BL_NO;
	enum bl_verdict rv = runltp_line(m, s, n);
	if (rv != BL_NO)
		return rv;
	size_t o = 0, l = 4, o2, l2;
	bool y2001 = line_2001(s, n, &o2, &l2);
	if (y2001 || bl_re_match(&m->r2003, s, n) == 1) {
		long long v;
		if (!y2001) {
			bl_re_group(&m->r2003, 1, &o, &l);
			bl_re_group(&m->r2003, 2, &o2, &l2);
		}
		if (bl_parse_ll(s + o2, l2, &v) || (!y2001 && v > BL_INT_MAX / 1024))
			return bl_reject(ctx, ln, "bad mtest01 value", "mtest01: allocation \"%.*s %s\" out of range",
					 (int)(l2 > 40 ? 40 : l2), s + o2, y2001 ? "bytes" : "kbytes");
		m->seen = true;
		emit_result(m, ctx, ln, y2001 ? "2001" : "2003", result_word(s + o, l), true, y2001 ? v : v * 1024,
			    s, n);
		return BL_USED;
	}
	struct bl_re *re = NULL;
	const char *gen = NULL;
	if (bl_re_match(&m->resm, s, n) == 1)
		re = &m->resm, gen = "tst_resm";
	else if (bl_re_match(&m->tstt, s, n) == 1)
		re = &m->tstt, gen = "tst_test";
	if (re) {
		m->seen = true;
		bl_re_group(re, 2, &o, &l);
		bl_re_group(re, 3, &o2, &l2);
		const char *msg = s + o2;
		const char *res = result_word(s + o, l);
		if (!res) {          /* INFO, WARN: context */
			note_target(m, ctx, ln, msg, l2);
			return BL_USED;
		}
		if (strcmp(res, "fail") == 0 && !(flags & BL_F_LAST) && bl_re_match(&m->fail_wrap, msg, l2) == 1)
			return BL_MORE; /* "… less than" + "expected N" on the next line */
		long long bytes = 0;
		int got = strcmp(res, "pass") == 0 ? message_bytes(msg, l2, &bytes) : 0;
		if (got < 0)
			bl_warn(ctx, ln, "bad mtest01 value", "mtest01: allocation \"%.*s\" is not a byte count below 10^15",
				(int)(l2 > 40 ? 40 : l2), msg);
		emit_result(m, ctx, ln, gen, res, got > 0, bytes, msg, l2);
		return BL_USED;
	}
	if (flags & BL_F_JOINED)
		return BL_NO;
	if (bl_re_match(&m->fill, s, n) == 1) {
		m->seen = true;
		note_target(m, ctx, ln, s, n);
		return BL_USED;
	}
	if (!m->seen)
		return BL_NO;
	if (bl_re_match(&m->child, s, n) == 1 || bl_re_match(&m->ltplib, s, n) == 1)
		return BL_USED;
	if (n == 8 && memcmp(s, "Summary:", 8) == 0) {
		m->in_summary = true;
		return BL_USED;
	}
	if (m->in_summary) {
		static const char *const words[] = { "passed", "failed", "broken", "skipped", "warnings", NULL };
		const char *tok[3];
		size_t tl[3];
		long long v;
		if (bl_split_blanks(s, n, tok, tl, 3) == 2 && bl_parse_ll(tok[1], tl[1], &v) == 0 &&
		    bl_word_index(tok[0], tl[0], words, false) >= 0)
			return BL_USED;
		m->in_summary = false;
	}
	return BL_NO;
}

static void mt_flush(void *st, struct bl_ctx *ctx, const struct bl_line *ln)
{
	(void)ln;
	struct mtest01 *m = st;
	(void)ctx;
	m->have_target = false;
	m->in_summary = false;
	m->seen = false;
	m->in_tag = false;
}

static void mt_release(void *st)
{
	struct mtest01 *m = st;
	bl_re_release(&m->r2003);
	bl_re_release(&m->resm);
	bl_re_release(&m->tstt);
	bl_re_release(&m->ltplib);
	bl_re_release(&m->fill);
	bl_re_release(&m->child);
	bl_re_release(&m->fail_wrap);
	bl_buf_release(&m->msg);
}

static const struct bl_table_def *const mt_tables[] = { &bl_table_mtest01, NULL };

const struct bl_parser bl_parser_mtest01 = {
	.name = "mtest01",
	.summary = "LTP mtest01 results, 2001 to today (bytes, kbytes, tst_resm, tst_test)",
	.tables = mt_tables,
	.state_size = sizeof(struct mtest01),
	.init = mt_init,
	.line = mt_line,
	.flush = mt_flush,
	.release = mt_release,
};
