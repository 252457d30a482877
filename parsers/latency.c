/* latency.c — latency distributions (FORMATS.md §5) into the `latency` and
 * `latency_series` tables (parsers/latency.h, docs/csv.md).
 *
 * docs/formats.md, "Latency histograms and samples", states the rules;
 * this file and tests/test_latency.c cite them as L1 int_resp_timer
 * histograms, L2 rt-tests cyclictest (every version, 0.18 to 2.x), L3 one
 * latency per line (--unit), L4 the shell `time` block after a series
 * (timeshort reads it; its line goes into time_line), L5 nothing lost (a
 * command no output follows is given back, a damaged bucket inside a
 * series is warned and skipped), L6 the stated period.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include "core/re.h"
#include "core/util.h"
#include "parsers/latency.h"
#include "parsers/parser.h"
#include "parsers/tables.h"

static const struct bl_col_def lat_cols[LAT_NCOLS] = {
	[LAT_SERIES] = { "series", BL_STR, "series name: `T0`, `T1`, ... (cyclictest threads), the timed program's file name or `histogram` (int_resp_timer style), `samples` (plain list)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LAT_KIND] = { "kind", BL_STR, "`bucket`: `count` samples had this value; `overflow`: `count` samples were MORE than this value (the largest bucket printed; cyclictest \"Histogram Overflows\"; count 0 means the tool reported none); `sample`: one value of a plain list", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LAT_UNIT] = { "unit", BL_STR, "unit the tool printed the value in: `s`, `ms`, `us` or `ns`", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LAT_LATENCY_S] = { "latency_s", BL_NUM, "the bucket (or sample) value, s, converted from the printed decimal with one rounding (`0.192` gives the double nearest 0.192)", "s", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[LAT_LATENCY_US] = { "latency_us", BL_NUM, "the same value, us, converted from the printed decimal the same way (`0.192` s gives 192000 exactly)", "us", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[LAT_COUNT] = { "count", BL_INT, "samples in the bucket (1 for a sample); buckets with 0 are not written", "", BL_ROLE_LABEL, BL_BETTER_NONE },
};

const struct bl_table_def bl_table_latency = {
	"latency", "one row per latency histogram bucket, overflow count or sample, per series",
	LAT_NCOLS, lat_cols,
	"Parser: parsers/latency.c; format: docs/formats.md, \"Latency histograms and samples\".\n\n"
	"- `line` is the bucket's line; for an overflow row, the `# Histogram Overflows:` line.\n"
	"- Rows come series by series, each in input order (int_resp_timer keys stay in Perl's "
	"string order; sort by `latency_s` for a numeric order).\n"
	"- Join with `latency_series` on `source, message_id, group, run, series`.",
	.group_col = "group", .weight_col = "count",
};

static const struct bl_col_def ls_cols[LS_NCOLS] = {
	[LS_SERIES] = { "series", BL_STR, "series name, as in the latency table", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LS_TOOL] = { "tool", BL_STR, "`int_resp_timer` (seconds: count histogram), `cyclictest` or `samples`", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LS_UNIT] = { "unit", BL_STR, "unit the tool printed values in: `s`, `ms`, `us` or `ns`", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LS_COMMAND] = { "command", BL_STR, "the command line before the output (`time ./int_resp_timer.pl`, `$ cyclictest -p 98 ...`), empty when absent", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LS_LAST_LINE] = { "last_line", BL_INT, "last input line of the series (footer included); `line` is its first (the command line when there is one)", "", BL_ROLE_ID, BL_BETTER_NONE },
	[LS_BUCKETS] = { "buckets", BL_INT, "histogram rows read, zero counts included; empty for a plain list or a status line only", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LS_BINNED] = { "binned", BL_INT, "samples in the buckets (sum of counts; for a plain list, the number of samples)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LS_OVERFLOW] = { "overflow", BL_INT, "samples beyond the last bucket (cyclictest \"Histogram Overflows\"); empty when not reported", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[LS_TOTAL] = { "total", BL_INT, "binned + overflow", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LS_HIST_LIMIT_US] = { "hist_limit_us", BL_NUM, "cyclictest histogram size N (`-h N` on the command line, or `# Max Latency: x / N`): buckets 0..N-1, overflow >= N; us", "us", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LS_THREAD] = { "thread", BL_INT, "cyclictest thread number (`T: n`)", "", BL_ROLE_ID, BL_BETTER_NONE },
	[LS_TID] = { "tid", BL_INT, "thread id (status line `( 1234)` or `# Thread Ids:`)", "", BL_ROLE_ID, BL_BETTER_NONE },
	[LS_PRIORITY] = { "priority", BL_INT, "status line `P:` (real-time priority)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LS_INTERVAL_US] = { "interval_us", BL_INT, "status line `I:` (timer interval; always us)", "us", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LS_STATUS_CYCLES] = { "status_cycles", BL_INT, "status line `C:` of the last display refresh (cycles so far)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LS_STATUS_MIN_US] = { "status_min_us", BL_NUM, "status line `Min:`, us (ns / 1000 with cyclictest `--nsecs`)", "us", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[LS_STATUS_ACT_US] = { "status_act_us", BL_NUM, "status line `Act:` (the last latency), us", "us", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[LS_STATUS_AVG_US] = { "status_avg_us", BL_NUM, "status line `Avg:` (cyclictest's truncated integer mean), us", "us", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[LS_STATUS_MAX_US] = { "status_max_us", BL_NUM, "status line `Max:`, us", "us", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[LS_SMIS] = { "smis", BL_INT, "SMI count (status line `SMI:` or `# SMIs:`)", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[LS_FOOTER_TOTAL] = { "footer_total", BL_INT, "histogram footer `# Total:` (binned samples as cyclictest counted them)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LS_FOOTER_MIN_US] = { "footer_min_us", BL_NUM, "footer `# Min Latencies:`, us", "us", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[LS_FOOTER_AVG_US] = { "footer_avg_us", BL_NUM, "footer `# Avg Latencies:` (integer), us", "us", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[LS_FOOTER_MAX_US] = { "footer_max_us", BL_NUM, "footer `# Max Latencies:`, us", "us", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[LS_OVERFLOW_CYCLES] = { "overflow_cycles", BL_STR, "cycle numbers of the overflows (`# Thread N:` line), space-separated", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LS_OVERFLOW_CYCLES_OMITTED] = { "overflow_cycles_omitted", BL_INT, "overflows not listed (`# NNNNN others`)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LS_TIME_LINE] = { "time_line", BL_INT, "line of the shell `time` block printed right after the series: the `time` row with this `line` and the same `source` is its timing, and shares its `group` and `run`; empty when none", "", BL_ROLE_ID, BL_BETTER_NONE },
	[LS_PERIOD_S] = { "period_s", BL_NUM, "the nominal period the input states (docs/statistics.md D17): the `sleep(N)` of a Perl script posted before an int_resp_timer histogram in the same message or file, when it takes `sleep` from Time::HiRes (Perl's own `sleep` waits whole seconds); for cyclictest, `-i`/`--interval` of the command line (thread 0; other threads only with `-d 0`), else the thread's status line `I:`; s; empty when the input states none", "s", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LS_PERIOD_LINE] = { "period_line", BL_INT, "the input line that states `period_s` (the `sleep` call, the command line or the status line)", "", BL_ROLE_ID, BL_BETTER_NONE },
	[LS_PERIOD_FROM] = { "period_from", BL_STR, "what states `period_s`: `script sleep`, `command -i` or `status I:`", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[LS_ROWS_ELIDED] = { "rows_elided", BL_INT, "cyclictest and int_resp_timer: gaps the author left in the histogram rows (`...`, `More histogram entries ...`); when above 0, `buckets`, `binned`, `total` and every statistic from the buckets are bounds, not exact; empty for a list of samples", "", BL_ROLE_LABEL, BL_BETTER_NONE },
};

const struct bl_table_def bl_table_latency_series = {
	"latency_series", "one row per latency series: tool, command, totals and the tool's own figures",
	LS_NCOLS, ls_cols,
	"Parser: parsers/latency.c; format: docs/formats.md, \"Latency histograms and samples\".\n\n"
	"Join with `latency` on `source, message_id, group, run, series`; join a series to its "
	"timing with `time.source = latency_series.source and time.line = latency_series.time_line`.",
	.group_col = "group",
};

/* ---- exact decimals ---------------------------------------------------- */

/* value = m × 10^e */
struct dec {
	long long m;
	int e;
};

static const double pow10_exact[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* m × 10^(e + shift) with one rounding when |m| < 2^53 (powers of ten up
 * to 1e22 are exact doubles). */
static double dec_value(struct dec d, int shift)
{
	int p = d.e + shift;
	double m = (double)d.m;
	if (p >= 0 && p <= 22)
		return m * pow10_exact[p];
	if (p < 0 && p >= -22)
		return m / pow10_exact[-p];
	return m * pow(10.0, p);
}

/* "[+-]digits[.digits][e[+-]digits]" exactly (no blanks). */
static int dec_parse(const char *s, size_t n, struct dec *d)
{
	size_t i = 0;
	bool neg = false, dot = false;
	long long m = 0;
	int e = 0, nd = 0;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	for (; i < n; i++) {
		if (g_ascii_isdigit(s[i])) {
			if (m > (BL_INT_MAX - 9) / 10)
				return -BL_ERANGE;   /* 15 digits: written back as written */
			m = m * 10 + (s[i] - '0');
			nd++;
			if (dot)
				e--;
		} else if (s[i] == '.' && !dot) {
			dot = true;
		} else {
			break;
		}
	}
	if (nd == 0)
		return -BL_EFORMAT;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		long long x;
		if (i + 1 >= n || bl_parse_ll(s + i + 1, n - i - 1, &x) || x < -300 || x > 300)
			return -BL_EFORMAT;
		for (size_t k = i + 1; k < n; k++)
			if (!g_ascii_isdigit(s[k]) && !((s[k] == '+' || s[k] == '-') && k == i + 1))
				return -BL_EFORMAT;
		e += (int)x;
		i = n;
	}
	if (i != n)
		return -BL_EFORMAT;
	d->m = neg ? -m : m;
	d->e = e;
	return 0;
}

/* Unit name -> power of ten of one unit in seconds; false when unknown. */
static bool unit_exp(const char *u, int *ex)
{
	static const char *const units[] = { "s", "ms", "us", "ns", NULL };
	int k = u ? bl_word_index(u, strlen(u), units, false) : -1;
	*ex = -3 * k;
	return k >= 0;
}

/* ---- state ------------------------------------------------------------- */

enum tool { TOOL_NONE = 0, TOOL_IRT, TOOL_CT, TOOL_SAMPLES };
enum ct_phase { CT_PRE = 0, CT_STATUS, CT_HIST, CT_FOOTER };

/* One per-thread status line (cyclictest). */
struct status {
	bool has;
	struct bl_held line;
	long long tid, prio, interval, cycles, smi;
	bool has_smi;
	struct dec min, act, avg, max;
};

/* A footer line with one value per column; a run's, by the line's key. */
enum foot { F_TOTAL, F_MIN, F_AVG, F_MAX, F_OVF, F_SMI, F_TIDS, NFOOT };
struct footer {
	bool has;
	unsigned long lineno;
	int depth;
	struct dec *v;
	size_t n;
};

/* Overflow cycle list of one thread. */
struct cycles {
	bool has;
	char *list;
	bool has_omitted;
	long long omitted;
};

/* A histogram row (or sample): value and counts[off .. off + ncols). */
struct row {
	unsigned long lineno;
	int depth;
	struct dec v;
	size_t off;
};

#define MAX_PRE 8

struct run {
	bool open;       /* collecting lines */
	bool closed;     /* complete; its summary waits for a time block */
	enum tool tool;
	char *source;
	const struct bl_msg *msg;
	char *group;
	const char *group_source;   /* static string (core/ctx.h) */
	long run;        /* 0 until the first data line */
	unsigned long first_line;
	int first_depth;
	unsigned long last_line;
	char *command;   /* the whole command line */
	char *name;      /* int_resp_timer: the timed program's file name */
	size_t nthreads; /* cyclictest: thread columns (run_close) */
	const char *unit;
	int uexp;
	bool has_data;
	int gap;         /* non-blank foreign lines since the command line */
	struct bl_held pre[MAX_PRE];   /* command/header lines before any data */
	size_t npre;

	/* rows */
	struct row *rows;
	size_t nrows, caprows;
	unsigned long long *cnt;
	size_t ncnt, capcnt;
	unsigned long long *sum;    /* per column: binned so far */
	size_t capsum;
	size_t ncols;    /* counts per row (0 = no row yet) */
	struct dec maxbucket;
	bool has_bucket;
	char prevkey[40];
	size_t prevkeylen;
	double prevval;

	/* cyclictest */
	enum ct_phase phase;
	bool nsecs, histofall_opt, has_limit;
	struct dec limit;
	struct status *st;
	size_t nst;      /* status slots (max thread + 1) */
	struct footer f[NFOOT];     /* by enum foot */
	struct cycles *cyc;
	size_t ncyc;
	bool in_cycles;
	struct bl_held elision;        /* a line inside the rows, not yet confirmed */
	long long elided;           /* confirmed gaps */

	/* time link (L4) */
	unsigned long real_cand;
	unsigned long time_line;

	/* L6: the stated period */
	bool has_period;           /* int_resp_timer: the script's sleep(), s */
	struct dec period;
	unsigned long period_line;
	bool has_ct_interval;      /* cyclictest -i, us */
	struct dec ct_interval;
	bool ct_distance0;         /* -d 0: every thread runs at -i */
	unsigned long ct_cmd_line;
};

/* The parser's patterns, in lat_re[] below. */
enum {
	RE_STATUS, RE_STATUS_PART, RE_FOOTER, RE_MAXLAT, RE_CYCHDR, RE_THREAD, RE_BRK, RE_DMA, RE_POLICY,
	RE_LOADAVG, RE_CTCMD, RE_TIMECMD, RE_HIRES, RE_SLEEP, RE_N
};

struct latency {
	struct bl_re re[RE_N];
	/* L6, per unit (file or message): a Perl script that takes sleep()
	 * from Time::HiRes, and the value of its sleep() calls */
	bool script_hires;
	int nsleep;                /* 0 none, 1 one value, 2 several or not a number */
	struct dec sleep_v;
	unsigned long sleep_line;
	struct run r;
	unsigned long long *rowc;   /* a histogram row's counts, reused row after row */
	size_t rowc_cap;
};

static const struct { const char *pat, *origin; } lat_re[RE_N] = {
	[RE_STATUS] = {
		"^T:\\s*([0-9]+)\\s*\\(\\s*([0-9]+)\\s*\\)\\s*P:\\s*(-?[0-9]+)\\s+I:\\s*([0-9]+)\\s+C:\\s*([0-9]+)\\s+"
		"Min:\\s*(-?[0-9]+)\\s+Act:\\s*(-?[0-9]+)\\s+Avg:\\s*(-?[0-9]+(?:\\.[0-9]+)?)\\s+Max:\\s*(-?[0-9]+)"
		"(?:\\s+SMI:\\s*([0-9]+))?\\s*$", "cyclictest status line" },
	/* a status line cut after one of its values or keys (L2) */
	[RE_STATUS_PART] = {
		"^T:\\s*[0-9]+\\s*\\(\\s*[0-9]+\\s*\\)\\s*P:\\s*-?[0-9]*"
		"(?:\\s+(?:I|C|Min|Act|Avg|Max|SMI):(?:\\s*-?[0-9]+(?:\\.[0-9]+)?)?)*\\s*$",
		"cyclictest status line prefix" },
	[RE_FOOTER] = {
		"^#\\s*(Total|Min Latenc(?:ies|ys)|Avg Latenc(?:ies|ys)|Max Latenc(?:ies|ys)|Histogram Overflows|SMIs|Thread Ids):(.*)$",
		"cyclictest histogram footer" },
	[RE_MAXLAT] = { "^#\\s*Max Latency:\\s*([0-9]+)\\s*/\\s*([0-9]+)\\s*$", "cyclictest 0.28 footer" },
	[RE_CYCHDR] = { "^#\\s*Histogram Overflow at cycle number:\\s*$", "cyclictest overflow list header" },
	[RE_THREAD] = { "^#\\s*Thread\\s+([0-9]+):(.*)$", "cyclictest overflow list" },
	[RE_BRK] = { "^#\\s*Break (?:thread|value):\\s*-?[0-9]+\\s*$", "cyclictest break line" },
	[RE_DMA] = { "^#\\s*/dev/cpu_dma_latency set to [0-9]+\\s*us\\s*$", "cyclictest dma line" },
	[RE_POLICY] = {
		"^policy:\\s*[A-Za-z_]+(?:/[A-Za-z_]+)?:\\s*loadavg:\\s*[0-9.]+\\s+[0-9.]+\\s+[0-9.]+\\s+[0-9]+/[0-9]+\\s+[0-9]+\\s*$",
		"cyclictest policy line" },
	[RE_LOADAVG] = { "^[0-9]+\\.[0-9]+\\s+[0-9]+\\.[0-9]+\\s+[0-9]+\\.[0-9]+\\s+[0-9]+/[0-9]+\\s+[0-9]+\\s*$",
			 "cyclictest loadavg line" },
	/* the command: cyclictest as a word (after a prompt, sudo, a path),
	 * followed by options only */
	[RE_CTCMD] = { "(?:^|[\\s/])cyclictest(?:\\s+-.*)?\\s*$", "cyclictest command line" },
	[RE_TIMECMD] = { "^(?:[^\\s$#%>]*[$#%>]\\s*)?time\\s+(?:-p\\s+)?(\\S.*?)\\s*$", "timed command line" },
	/* L6: Time::HiRes's sleep imported (or called by its full name), and
	 * a sleep() statement: "sleep(.2);", "sleep .2;", "Time::HiRes::sleep(0.2)" */
	[RE_HIRES] = { "\\buse\\s+Time::HiRes\\b[^;]*\\bsleep\\b|\\bTime::HiRes::sleep\\b", "Time::HiRes sleep import" },
	[RE_SLEEP] = {
		"(?:^|[\\s;{}])(?:Time::HiRes::)?sleep\\s*(?:\\(\\s*([^()]*?)\\s*\\)|\\s+([^\\s;(){}]+))\\s*(?:[;}]|$)",
		"Perl sleep() call" },
};

static int lat_init(void *st, struct bl_ctx *ctx, char **err)
{
	struct latency *L = st;
	(void)ctx;
	/* constant patterns (no option feeds them): a failure is a bug in a
	 * pattern or no memory, said by the first, where compiling stops */
	for (size_t i = 0; i < RE_N; i++)
		if (bl_re_compile(&L->re[i], lat_re[i].pat, 0, lat_re[i].origin, err) < 0)
			return -BL_EFORMAT;
	return 0;
}

static void run_free(struct run *r)
{
	free(r->source);
	free(r->group);
	free(r->command);
	free(r->name);
	for (size_t i = 0; i < r->npre; i++)
		bl_held_clear(&r->pre[i]);
	free(r->rows);
	free(r->cnt);
	free(r->sum);
	for (size_t i = 0; i < r->nst; i++)
		bl_held_clear(&r->st[i].line);
	free(r->st);
	for (size_t i = 0; i < NFOOT; i++)
		free(r->f[i].v);
	for (size_t i = 0; i < r->ncyc; i++)
		free(r->cyc[i].list);
	free(r->cyc);
	bl_held_clear(&r->elision);
	memset(r, 0, sizeof *r);
}

static void run_start(struct run *r, struct bl_ctx *ctx, const struct bl_line *ln, enum tool tool)
{
	run_free(r);
	r->open = true;
	r->tool = tool;
	r->source = bl_xstrdup(ln->source);
	r->msg = ln->msg;
	r->group = bl_xstrdup(bl_ctx_group(ctx));
	r->group_source = bl_ctx_group_source(ctx);
	r->first_line = r->last_line = ln->lineno;
	r->first_depth = ln->quote_depth;
	r->unit = "s";
	r->uexp = 0;
	if (tool == TOOL_CT) {
		r->unit = "us";
		r->uexp = -6;
	}
}

static void pre_add(struct run *r, const struct bl_line *ln)
{
	if (r->npre < MAX_PRE)
		bl_held_set(&r->pre[r->npre++], ln);
}

/* The first data line of a run: the run number (parsers/latency.h). */
static void got_data(struct run *r, struct bl_ctx *ctx)
{
	if (r->has_data)
		return;
	r->has_data = true;
	r->run = bl_run_new(ctx, BL_RUN_FAMILY_MTEST);
	bl_run_join(ctx, BL_RUN_FAMILY_MTEST, BL_RUN_BIT_LATENCY);
	for (size_t i = 0; i < r->npre; i++)
		bl_held_clear(&r->pre[i]);
	r->npre = 0;
}

/* ---- record helpers ---------------------------------------------------- */

static void rec_init(struct bl_record *rec, const struct bl_table_def *t, const struct run *r,
		     unsigned long lineno, int depth)
{
	struct bl_line ln = { "", 0, r->source, lineno, depth, r->msg };
	bl_record_init(rec, t, &ln);
	rec->group = r->group;
	rec->group_source = r->group_source;
	rec->run = r->run;
}

static void set_us(struct bl_record *rec, int col, const struct run *r, struct dec d)
{
	bl_set_num(rec, (size_t)col, dec_value(d, r->uexp + 6));
}

static void emit_value(struct bl_ctx *ctx, const struct run *r, const char *series, const char *kind,
		       unsigned long lineno, int depth, struct dec v, bool has_v, unsigned long long count)
{
	struct bl_record rec;
	rec_init(&rec, &bl_table_latency, r, lineno, depth);
	bl_set_str(&rec, LAT_SERIES, series);
	bl_set_str(&rec, LAT_KIND, kind);
	bl_set_str(&rec, LAT_UNIT, r->unit);
	if (has_v) {
		bl_set_num(&rec, LAT_LATENCY_S, dec_value(v, r->uexp));
		bl_set_num(&rec, LAT_LATENCY_US, dec_value(v, r->uexp + 6));
	}
	bl_set_int(&rec, LAT_COUNT, (long long)count);
	bl_emit(ctx, &rec);
}

/* A row of nc counts (each at most BL_INT_MAX); false, and nothing
 * added, when a column's counts would add up to more than BL_INT_MAX
 * (`binned`, the samples a statistic counts, is then no exact number). */
static bool add_row(struct run *r, const struct bl_line *ln, struct dec v, const unsigned long long *c, size_t nc)
{
	size_t cap = r->capsum;
	r->sum = bl_xgrow(r->sum, &r->capsum, nc, sizeof *r->sum);
	memset(r->sum + cap, 0, (r->capsum - cap) * sizeof *r->sum);
	for (size_t k = 0; k < nc; k++)
		if (c[k] > (unsigned long long)BL_INT_MAX - r->sum[k])
			return false;
	for (size_t k = 0; k < nc; k++)
		r->sum[k] += c[k];
	r->rows = bl_xgrow(r->rows, &r->caprows, r->nrows + 1, sizeof *r->rows);
	r->cnt = bl_xgrow(r->cnt, &r->capcnt, r->ncnt + nc, sizeof *r->cnt);
	struct row *w = &r->rows[r->nrows++];
	w->lineno = ln->lineno;
	w->depth = ln->quote_depth;
	w->v = v;
	w->off = r->ncnt;
	memcpy(r->cnt + r->ncnt, c, nc * sizeof *c);
	r->ncnt += nc;
	if (!r->has_bucket || dec_value(v, 0) > dec_value(r->maxbucket, 0))
		r->maxbucket = v;
	r->has_bucket = true;
	r->last_line = ln->lineno;
	return true;
}

/* ---- closing a run ----------------------------------------------------- */

static char *series_name(const struct run *r, size_t i)
{
	if (r->tool == TOOL_CT)
		return bl_xasprintf("T%zu", i);
	if (r->tool == TOOL_SAMPLES)
		return bl_xstrdup(r->name ? r->name : "samples");
	return bl_xstrdup(r->name ? r->name : "histogram");
}

/* cyclictest: how many of the row columns are threads (L2). */
static size_t ct_threads(struct bl_ctx *ctx, struct run *r)
{
	size_t nc = r->ncols;
	if (r->f[F_MIN].has) {
		size_t nt = r->f[F_MIN].n;
		if (nc == 0 || nc == nt)
			return nt;
		if (nc == nt + 1 && nt > 1)
			return nt;
		struct bl_line ln = { "", 0, r->source, r->f[F_MIN].lineno, r->f[F_MIN].depth, r->msg };
		bl_warn(ctx, &ln, "cyclictest footer does not match the rows",
			"histogram rows have %s but \"# Min Latencies\" lists %s; "
			"taking the rows' %s as threads", BL_COUNT(nc, "count"), BL_COUNT(nt, "thread"),
			BL_COUNT(nc, "column"));
		return nc;
	}
	if (nc >= 3 && r->histofall_opt)
		return nc - 1;
	size_t sn = 0;
	for (size_t i = 0; i < r->nst; i++)
		if (r->st[i].has)
			sn = i + 1;
	if (sn > 1 && nc == sn + 1)
		return sn;
	return nc;
}

/* Why a held gap line that nothing confirmed is skipped. */
static const char *gap_unconfirmed(const struct run *r)
{
	return r->tool == TOOL_CT ? "text after a cyclictest histogram" : "text after a latency histogram";
}

/* Close an open run: emit its latency rows, keep the summary for later. */
static void run_close(struct latency *L, struct bl_ctx *ctx)
{
	struct run *r = &L->r;
	if (!r->open)
		return;
	r->open = false;
	bl_held_unuse(ctx, &r->elision, gap_unconfirmed(r));
	if (!r->has_data) {
		const char *why = r->tool == TOOL_CT ? "cyclictest command or header without results"
						     : "command line without latency output";
		for (size_t i = 0; i < r->npre; i++)
			bl_held_unuse(ctx, &r->pre[i], why);
		run_free(r);
		return;
	}
	r->closed = true;
	if (r->tool != TOOL_CT) {
		char *name = series_name(r, 0);
		for (size_t i = 0; i < r->nrows; i++)
			emit_value(ctx, r, name, r->tool == TOOL_SAMPLES ? "sample" : "bucket",
				   r->rows[i].lineno, r->rows[i].depth, r->rows[i].v, true, r->cnt[r->rows[i].off]);
		free(name);
		return;
	}
	size_t nt = r->nthreads = ct_threads(ctx, r);
	for (size_t t = 0; t < nt; t++) {
		char *name = series_name(r, t);
		unsigned long long sum = 0;
		for (size_t i = 0; i < r->nrows; i++) {
			unsigned long long c = r->cnt[r->rows[i].off + t];
			sum += c;
			if (c)
				emit_value(ctx, r, name, "bucket", r->rows[i].lineno, r->rows[i].depth,
					   r->rows[i].v, true, c);
		}
		if (r->f[F_OVF].has && t < r->f[F_OVF].n)
			emit_value(ctx, r, name, "overflow", r->f[F_OVF].lineno, r->f[F_OVF].depth, r->maxbucket,
				   r->has_bucket, (unsigned long long)r->f[F_OVF].v[t].m);
		if (r->f[F_TOTAL].has && t < r->f[F_TOTAL].n && r->nrows && !r->elided &&
		    (unsigned long long)r->f[F_TOTAL].v[t].m != sum) {
			struct bl_line ln = { "", 0, r->source, r->f[F_TOTAL].lineno, r->f[F_TOTAL].depth, r->msg };
			bl_warn(ctx, &ln, "cyclictest total differs from the buckets",
				"cyclictest thread %zu: \"# Total\" says %lld but its buckets add up to %llu",
				t, r->f[F_TOTAL].v[t].m, sum);
		}
		free(name);
	}
}

/* Seal the run in the mtest family so a later mtest01/time record starts a
 * run of its own (parsers/latency.h). Only when the group is unchanged. */
static void seal(struct bl_ctx *ctx, const struct run *r, unsigned long long bits)
{
	const char *g = ctx->opt.group ? ctx->opt.group : ctx->group ? ctx->group : "";
	if (strcmp(g, r->group) != 0 || bl_run_current(ctx, BL_RUN_FAMILY_MTEST) != r->run)
		return;
	bl_run_join(ctx, BL_RUN_FAMILY_MTEST, bits);
}

/* L6: the period of series t, with the line and what states it. */
static void set_period(struct bl_record *rec, const struct run *r, size_t t)
{
	const char *from = NULL;
	double v = NAN;
	unsigned long line = 0;
	if (r->tool != TOOL_CT && r->has_period) {
		from = "script sleep";
		v = dec_value(r->period, 0);
		line = r->period_line;
	} else if (r->tool == TOOL_CT && r->has_ct_interval && r->ct_cmd_line && (t == 0 || r->ct_distance0)) {
		from = "command -i";
		v = dec_value(r->ct_interval, -6);
		line = r->ct_cmd_line;
	} else if (r->tool == TOOL_CT && t < r->nst && r->st[t].has && r->st[t].interval > 0) {
		from = "status I:";
		v = dec_value((struct dec){ r->st[t].interval, 0 }, -6);
		line = r->st[t].line.ln.lineno;
	}
	if (!from)
		return;
	bl_set_num(rec, LS_PERIOD_S, v);
	bl_set_int(rec, LS_PERIOD_LINE, (long long)line);
	bl_set_str(rec, LS_PERIOD_FROM, from);
}

static void summary_emit(struct bl_ctx *ctx, struct run *r)
{
	size_t ns = 1;
	if (r->tool == TOOL_CT) {
		ns = r->nthreads;
		if (r->nst > ns)
			ns = r->nst;
	}
	for (size_t t = 0; t < ns; t++) {
		struct bl_record rec;
		char *name = series_name(r, t);
		rec_init(&rec, &bl_table_latency_series, r, r->first_line, r->first_depth);
		bl_set_str(&rec, LS_SERIES, name);
		bl_set_str(&rec, LS_TOOL, r->tool == TOOL_CT ? "cyclictest" : r->tool == TOOL_SAMPLES ? "samples"
											    : "int_resp_timer");
		bl_set_str(&rec, LS_UNIT, r->unit);
		if (r->command)
			bl_set_str(&rec, LS_COMMAND, r->command);
		bl_set_int(&rec, LS_LAST_LINE, (long long)r->last_line);
		bool in_hist = r->tool != TOOL_CT || (r->ncols && t < r->nthreads);
		unsigned long long binned = 0;
		if (in_hist) {
			for (size_t i = 0; i < r->nrows; i++)
				binned += r->cnt[r->rows[i].off + (r->tool == TOOL_CT ? t : 0)];
			if (r->tool != TOOL_SAMPLES)
				bl_set_int(&rec, LS_BUCKETS, (long long)r->nrows);
			bl_set_int(&rec, LS_BINNED, (long long)binned);
			unsigned long long total = binned;
			if (r->tool == TOOL_CT && r->f[F_OVF].has && t < r->f[F_OVF].n) {
				bl_set_int(&rec, LS_OVERFLOW, r->f[F_OVF].v[t].m);
				total += (unsigned long long)r->f[F_OVF].v[t].m;
			}
			bl_set_int(&rec, LS_TOTAL, (long long)total);
		}
		if (r->tool == TOOL_CT) {
			if (r->has_limit)
				set_us(&rec, LS_HIST_LIMIT_US, r, r->limit);
			bl_set_int(&rec, LS_THREAD, (long long)t);
			if (t < r->nst && r->st[t].has) {
				const struct status *s = &r->st[t];
				bl_set_int(&rec, LS_TID, s->tid);
				bl_set_int(&rec, LS_PRIORITY, s->prio);
				bl_set_int(&rec, LS_INTERVAL_US, s->interval);
				bl_set_int(&rec, LS_STATUS_CYCLES, s->cycles);
				set_us(&rec, LS_STATUS_MIN_US, r, s->min);
				set_us(&rec, LS_STATUS_ACT_US, r, s->act);
				set_us(&rec, LS_STATUS_AVG_US, r, s->avg);
				set_us(&rec, LS_STATUS_MAX_US, r, s->max);
				if (s->has_smi)
					bl_set_int(&rec, LS_SMIS, s->smi);
			} else if (r->f[F_TIDS].has && t < r->f[F_TIDS].n) {
				bl_set_int(&rec, LS_TID, r->f[F_TIDS].v[t].m);
			}
			if (r->f[F_SMI].has && t < r->f[F_SMI].n)
				bl_set_int(&rec, LS_SMIS, r->f[F_SMI].v[t].m);
			if (r->f[F_TOTAL].has && t < r->f[F_TOTAL].n)
				bl_set_int(&rec, LS_FOOTER_TOTAL, r->f[F_TOTAL].v[t].m);
			if (r->f[F_MIN].has && t < r->f[F_MIN].n)
				set_us(&rec, LS_FOOTER_MIN_US, r, r->f[F_MIN].v[t]);
			if (r->f[F_AVG].has && t < r->f[F_AVG].n)
				set_us(&rec, LS_FOOTER_AVG_US, r, r->f[F_AVG].v[t]);
			if (r->f[F_MAX].has && t < r->f[F_MAX].n)
				set_us(&rec, LS_FOOTER_MAX_US, r, r->f[F_MAX].v[t]);
			if (t < r->ncyc && r->cyc[t].has) {
				bl_set_str(&rec, LS_OVERFLOW_CYCLES, r->cyc[t].list ? r->cyc[t].list : "");
				if (r->cyc[t].has_omitted)
					bl_set_int(&rec, LS_OVERFLOW_CYCLES_OMITTED, r->cyc[t].omitted);
			}
		}
		if (r->time_line)
			bl_set_int(&rec, LS_TIME_LINE, (long long)r->time_line);
		if (r->tool != TOOL_SAMPLES)
			bl_set_int(&rec, LS_ROWS_ELIDED, r->elided);
		set_period(&rec, r, t);
		bl_emit(ctx, &rec);
		free(name);
	}
}

/* A closed run: the time block question is answered; emit the summary. */
static void run_finish(struct latency *L, struct bl_ctx *ctx, unsigned long time_line)
{
	struct run *r = &L->r;
	if (!r->closed)
		return;
	r->time_line = time_line;
	summary_emit(ctx, r);
	seal(ctx, r, time_line ? BL_RUN_BIT_MTEST01 : (BL_RUN_BIT_MTEST01 | BL_RUN_BIT_TIME));
	run_free(r);
}

/* ---- line recognisers -------------------------------------------------- */

/* L1: the shape of an int_resp_timer bucket line, "<seconds>:<blanks><count>".
 * IRT_BUCKET: the count is a run of digits. IRT_BAD: the count is one
 * blank-free word that starts like a number but is not a run of digits
 * ("-5", "+3", "5x", "1e2", "3.0"): a damaged bucket when it comes inside a
 * series (L5), prose ("12.30: 5pm") anywhere else. IRT_NONE otherwise:
 * several words after the colon are prose even inside a series. */
enum irt_shape { IRT_NONE = 0, IRT_BUCKET, IRT_BAD };

static enum irt_shape irt_shape(const char *s, size_t n, size_t *klen, const char **cnt, size_t *clen)
{
	size_t i = 0;
	while (i < n && g_ascii_isdigit(s[i]))
		i++;
	if (i == 0 || i >= n || s[i] != '.')
		return IRT_NONE;
	size_t fd = ++i;
	while (i < n && g_ascii_isdigit(s[i]))
		i++;
	if (i == fd || i >= n || s[i] != ':')
		return IRT_NONE;
	*klen = i++;
	size_t b = i;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == b || i >= n)
		return IRT_NONE;
	size_t c0 = i;
	while (i < n && g_ascii_isdigit(s[i]))
		i++;
	*cnt = s + c0;
	if (i > c0 && i == n) {
		*clen = i - c0;
		return IRT_BUCKET;
	}
	size_t d = c0 + (s[c0] == '-' || s[c0] == '+');
	if (d >= n || !g_ascii_isdigit(s[d]))
		return IRT_NONE;
	for (i = d; i < n; i++)
		if (s[i] == ' ' || s[i] == '\t')
			return IRT_NONE;
	*clen = n - c0;
	return IRT_BAD;
}

/* L2: an author's comment after a row's or a footer's values: a word
 * that does not start like a number ("-- note", "<- max", "// note"). */
static bool is_comment_start(const char *s, size_t n)
{
	if (n == 0 || g_ascii_isdigit(s[0]))
		return false;
	return !((s[0] == '-' || s[0] == '+' || s[0] == '.') && n > 1 && g_ascii_isdigit(s[1]));
}

/* L2: a histogram row: two or more runs of digits separated by blanks,
 * then maybe blanks and an author's comment. Returns the number of counts
 * (tokens after the bucket), 0 if not a row; *end is where the values end
 * (before the comment). */
static size_t ct_row_shape(const char *s, size_t n, size_t *end)
{
	size_t i = 0, tokens = 0;
	*end = n;
	while (i < n) {
		if (tokens >= 2 && i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t') && is_comment_start(s + i, n - i)) {
			*end = i;
			while (*end > 0 && (s[*end - 1] == ' ' || s[*end - 1] == '\t'))
				(*end)--;
			break;
		}
		if (!g_ascii_isdigit(s[i]))
			return 0;
		while (i < n && g_ascii_isdigit(s[i]))
			i++;
		tokens++;
		if (i < n && s[i] != ' ' && s[i] != '\t')
			return 0;
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
	}
	return tokens >= 2 ? tokens - 1 : 0;
}

static bool is_real_line(const char *s, size_t n)
{
	return n > 5 && memcmp(s, "real", 4) == 0 && (s[4] == ' ' || s[4] == '\t');
}

static bool re_int(struct bl_re *re, int g, const char *s, long long *v)
{
	size_t off, len;
	return bl_re_group(re, g, &off, &len) && bl_parse_ll(s + off, len, v) == 0;
}

static bool re_dec(struct bl_re *re, int g, const char *s, struct dec *d)
{
	size_t off, len;
	return bl_re_group(re, g, &off, &len) && dec_parse(s + off, len, d) == 0;
}

/* Values of a footer line up to an annotation ('#') or the end. */
static int footer_values(const char *s, size_t n, struct footer *f, const struct bl_line *ln)
{
	struct dec *v = NULL;
	size_t nv = 0;
	size_t i = 0;
	while (i < n) {
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i >= n || s[i] == '#' || (nv > 0 && is_comment_start(s + i, n - i)))
			break;
		size_t b = i;
		while (i < n && s[i] != ' ' && s[i] != '\t')
			i++;
		struct dec d;
		if (dec_parse(s + b, i - b, &d) || d.m < 0) {
			free(v);
			return -BL_EFORMAT;
		}
		v = bl_xrealloc(v, (nv + 1) * sizeof *v);
		v[nv++] = d;
	}
	free(f->v);
	f->v = v;
	f->n = nv;
	f->has = true;
	f->lineno = ln->lineno;
	f->depth = ln->quote_depth;
	return 0;
}

/* Parse cyclictest's options after the program name (L2). */
static void ct_options(struct run *r, const char *s, size_t n)
{
	const char *tok[64];
	size_t tl[64];
	size_t nt = bl_split_blanks(s, n, tok, tl, 64);
	if (nt > 64)
		nt = 64;
	for (size_t i = 0; i < nt; i++) {
		const char *t = tok[i];
		size_t l = tl[i];
		const char *arg = NULL;
		size_t al = 0;
		char opt = 0;
		if (l >= 2 && t[0] == '-' && t[1] == '-') {
			static const char *const longs[] = { "--nsecs", "--histogram", "--histofall", "--interval",
							      "--distance", NULL };
			const char *eq = memchr(t, '=', l);
			size_t nl = eq ? (size_t)(eq - t) : l;
			int k = bl_word_index(t, nl, longs, false);
			r->nsecs |= k == 0;
			if (k <= 0)
				continue;
			opt = "NhHid"[k];
			if (eq) {
				arg = eq + 1;
				al = l - nl - 1;
			} else if (i + 1 < nt) {
				arg = tok[i + 1];
				al = tl[i + 1];
				i++;
			}
		} else if (l >= 2 && t[0] == '-') {
			/* a cluster of short options; letters taking an argument
			 * end it (getopt "a::b:c:d:D:F:h:H:i:l:o:O:p:t::T:y:") */
			for (size_t k = 1; k < l; k++) {
				char c = t[k];
				if (c == 'N')
					r->nsecs = true;
				if (strchr("abcdDFhHilOopTty", c)) {
					if (strchr("hHid", c)) {
						opt = c;
						if (k + 1 < l) {
							arg = t + k + 1;
							al = l - k - 1;
						} else if (i + 1 < nt) {
							arg = tok[i + 1];
							al = tl[i + 1];
							i++;
						}
					} else if (k + 1 == l && i + 1 < nt && tok[i + 1][0] != '-' &&
						   c != 'a' && c != 't') {
						i++;   /* the option's argument */
					}
					break;
				}
			}
		}
		struct dec d;
		bool whole = arg && dec_parse(arg, al, &d) == 0 && d.e == 0;
		if (opt == 'i' && whole && d.m > 0) {
			r->ct_interval = d;   /* L6: us, whatever --nsecs says */
			r->has_ct_interval = true;
		} else if (opt == 'd') {
			r->ct_distance0 = whole && d.m == 0;
		} else if (opt) {
			if (opt == 'H')
				r->histofall_opt = true;
			if (whole && d.m > 0) {
				r->limit = d;
				r->has_limit = true;
			}
		}
	}
	if (r->nsecs) {
		r->unit = "ns";
		r->uexp = -9;
	}
}

/* The array v of *n elements of size bytes, grown with zeroed ones to
 * hold element t (a thread's status or overflow list). */
static void *per_thread(void *v, size_t *n, size_t t, size_t size)
{
	if (t >= *n) {
		v = bl_xrealloc(v, (t + 1) * size);
		memset((char *)v + *n * size, 0, (t + 1 - *n) * size);
		*n = t + 1;
	}
	return v;
}

/* ---- cyclictest lines -------------------------------------------------- */

enum ct_kind { CK_NONE, CK_CMD, CK_DMA, CK_LOAD, CK_STATUS, CK_HIST, CK_ROW, CK_BADROW, CK_FOOTER };

static enum ct_kind ct_classify(struct latency *L, const char *s, size_t n, bool in_hist)
{
	if (n == 0)
		return CK_NONE;
	if (s[0] == '#') {
		if (n >= 2) {
			size_t i = 1;
			while (i < n && (s[i] == ' ' || s[i] == '\t'))
				i++;
			if (n - i >= 9 && memcmp(s + i, "Histogram", 9) == 0 && n - i == 9)
				return CK_HIST;
		}
		if (bl_re_match(&L->re[RE_DMA], s, n) == 1)
			return CK_DMA;
		if (in_hist && (bl_re_match(&L->re[RE_FOOTER], s, n) == 1 || bl_re_match(&L->re[RE_MAXLAT], s, n) == 1 ||
				bl_re_match(&L->re[RE_CYCHDR], s, n) == 1 || bl_re_match(&L->re[RE_THREAD], s, n) == 1 ||
				bl_re_match(&L->re[RE_BRK], s, n) == 1))
			return CK_FOOTER;
		/* a root prompt: "# cyclictest -p 99 ..." */
		if (bl_contains(s, n, "cyclictest", 10) && bl_re_match(&L->re[RE_CTCMD], s, n) == 1)
			return CK_CMD;
		return CK_NONE;
	}
	if (s[0] == 'T' && n > 2 && s[1] == ':' && bl_re_match(&L->re[RE_STATUS], s, n) == 1)
		return CK_STATUS;
	size_t end;
	if (in_hist && g_ascii_isdigit(s[0]) && ct_row_shape(s, n, &end))
		return CK_ROW;
	/* a row of a negative bucket: cyclictest prints none; said and
	 * skipped, and the histogram goes on */
	if (in_hist && s[0] == '-' && n > 1 && g_ascii_isdigit(s[1]) && ct_row_shape(s + 1, n - 1, &end))
		return CK_BADROW;
	if (s[0] == 'p' && bl_re_match(&L->re[RE_POLICY], s, n) == 1)
		return CK_LOAD;
	if (g_ascii_isdigit(s[0]) && bl_re_match(&L->re[RE_LOADAVG], s, n) == 1)
		return CK_LOAD;
	if (bl_contains(s, n, "cyclictest", 10) && bl_re_match(&L->re[RE_CTCMD], s, n) == 1)
		return CK_CMD;
	return CK_NONE;
}

static void ct_command(struct run *r, const char *s, size_t n)
{
	free(r->command);
	r->command = bl_xstrndup(s, n);
	const char *p = memmem(s, n, "cyclictest", 10);
	/* the last "cyclictest" word is the program */
	while (p) {
		const char *q = memmem(p + 10, n - (size_t)(p + 10 - s), "cyclictest", 10);
		if (!q)
			break;
		p = q;
	}
	if (p)
		ct_options(r, p + 10, n - (size_t)(p + 10 - s));
}

static enum bl_verdict ct_status(struct latency *L, struct bl_ctx *ctx, const struct bl_line *ln,
				 const char *s)
{
	struct run *r = &L->r;
	long long t;
	struct status ns = { .has = true };
	if (!re_int(&L->re[RE_STATUS], 1, s, &t) || t < 0 || t > 100000 || !re_int(&L->re[RE_STATUS], 2, s, &ns.tid) ||
	    !re_int(&L->re[RE_STATUS], 3, s, &ns.prio) || !re_int(&L->re[RE_STATUS], 4, s, &ns.interval) ||
	    !re_int(&L->re[RE_STATUS], 5, s, &ns.cycles) || !re_dec(&L->re[RE_STATUS], 6, s, &ns.min) ||
	    !re_dec(&L->re[RE_STATUS], 7, s, &ns.act) || !re_dec(&L->re[RE_STATUS], 8, s, &ns.avg) ||
	    !re_dec(&L->re[RE_STATUS], 9, s, &ns.max))
		return bl_reject(ctx, ln, "malformed cyclictest status line",
				 "cyclictest status line: a value is out of range");
	ns.has_smi = re_int(&L->re[RE_STATUS], 10, s, &ns.smi);
	r->st = per_thread(r->st, &r->nst, (size_t)t, sizeof *r->st);
	struct status *st = &r->st[t];
	if (st->has && ns.cycles < st->cycles) {
		/* the cycle count went down: another run, not a refresh */
		run_close(L, ctx);
		return BL_NO;
	}
	got_data(r, ctx);
	if (r->phase < CT_STATUS)
		r->phase = CT_STATUS;
	bl_held_unuse(ctx, &st->line, "cyclictest display refresh, superseded by a later one");
	*st = ns;
	bl_held_set(&st->line, ln);
	r->last_line = ln->lineno;
	return BL_USED;
}

static enum bl_verdict ct_row(struct latency *L, struct bl_ctx *ctx, const struct bl_line *ln,
			      const char *s, size_t n)
{
	struct run *r = &L->r;
	size_t nc = ct_row_shape(s, n, &n);   /* an author's comment is not data */
	if (r->ncols && nc != r->ncols)
		return bl_reject(ctx, ln, "cyclictest row width differs",
				 "cyclictest histogram row has %s, the first row had %zu", BL_COUNT(nc, "count"), r->ncols);
	if (nc > L->rowc_cap) {
		L->rowc = bl_xrealloc(L->rowc, nc * sizeof *L->rowc);
		L->rowc_cap = nc;
	}
	unsigned long long *c = L->rowc;
	memset(c, 0, nc * sizeof *c);
	struct dec v = { 0, 0 };
	size_t i = 0, k = 0;
	int bad = 0;
	while (i < n) {
		size_t b = i;
		while (i < n && g_ascii_isdigit(s[i]))
			i++;
		long long x;
		if (b == 0) {
			if (dec_parse(s, i, &v))
				bad = 1;
		} else if (bl_parse_ll(s + b, i - b, &x) || x < 0) {
			bad = 1;
		} else {
			c[k++] = (unsigned long long)x;
		}
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
	}
	if (bad)
		return bl_reject(ctx, ln, "cyclictest number out of range",
				 "cyclictest histogram row: a number has more than 15 digits");
	if (!add_row(r, ln, v, c, nc))
		return bl_reject(ctx, ln, "cyclictest number out of range",
				 "cyclictest histogram row: a thread's counts add up to 10^15 or more");
	r->ncols = nc;
	return BL_USED;
}

static enum bl_verdict ct_footer(struct latency *L, struct bl_ctx *ctx, const struct bl_line *ln,
				 const char *s, size_t n)
{
	struct run *r = &L->r;
	size_t off, len;
	r->phase = CT_FOOTER;
	r->last_line = ln->lineno;
	if (bl_re_match(&L->re[RE_FOOTER], s, n) == 1) {
		r->in_cycles = false;
		bl_re_group(&L->re[RE_FOOTER], 1, &off, &len);
		const char *k = s + off;
		struct footer *f = k[0] == 'T' && k[1] == 'o' ? &r->f[F_TOTAL]
			: k[0] == 'T' ? &r->f[F_TIDS]
			: k[0] == 'M' && k[1] == 'i' ? &r->f[F_MIN]
			: k[0] == 'A' ? &r->f[F_AVG]
			: k[0] == 'M' ? &r->f[F_MAX]
			: k[0] == 'S' ? &r->f[F_SMI] : &r->f[F_OVF];
		size_t vo, vl;
		bl_re_group(&L->re[RE_FOOTER], 2, &vo, &vl);
		if (footer_values(s + vo, vl, f, ln))
			return bl_reject(ctx, ln, "malformed cyclictest footer",
					 "cyclictest footer: a value is not a number");
		return BL_USED;
	}
	if (bl_re_match(&L->re[RE_MAXLAT], s, n) == 1) {
		r->in_cycles = false;
		struct dec d;
		if (!r->has_limit && re_dec(&L->re[RE_MAXLAT], 2, s, &d) && d.m > 0) {
			r->limit = d;
			r->has_limit = true;
		}
		return BL_USED;
	}
	if (bl_re_match(&L->re[RE_CYCHDR], s, n) == 1) {
		r->in_cycles = true;
		return BL_USED;
	}
	if (bl_re_match(&L->re[RE_THREAD], s, n) == 1) {
		long long t;
		if (!r->in_cycles || !re_int(&L->re[RE_THREAD], 1, s, &t) || t < 0 || t > 100000)
			return bl_skip_as(ctx, "cyclictest thread line outside the overflow list");
		bl_re_group(&L->re[RE_THREAD], 2, &off, &len);
		const char *p = s + off;
		r->cyc = per_thread(r->cyc, &r->ncyc, (size_t)t, sizeof *r->cyc);
		struct cycles *cy = &r->cyc[t];
		struct bl_buf b = BL_BUF_INIT(0);
		size_t i = 0;
		cy->has = true;
		while (i < len) {
			while (i < len && (p[i] == ' ' || p[i] == '\t'))
				i++;
			if (i >= len)
				break;
			if (p[i] == '#') {
				/* " # 00544 others" */
				long long o;
				const char *tok[3];
				size_t tl[3];
				size_t nt = bl_split_blanks(p + i + 1, len - i - 1, tok, tl, 3);
				if (nt >= 2 && tl[1] == 6 && memcmp(tok[1], "others", 6) == 0 &&
				    bl_parse_ll(tok[0], tl[0], &o) == 0) {
					cy->has_omitted = true;
					cy->omitted = o;
				}
				break;
			}
			size_t b0 = i;
			while (i < len && p[i] != ' ' && p[i] != '\t')
				i++;
			long long c;
			if (bl_parse_ll(p + b0, i - b0, &c) == 0 && c >= 0)
				bl_buf_addf(&b, "%s%lld", b.len ? " " : "", c);
		}
		free(cy->list);
		cy->list = b.data ? b.data : bl_xstrdup("");
		return BL_USED;
	}
	/* "# Break thread: N" / "# Break value: N" */
	r->in_cycles = false;
	return BL_USED;
}

/* A line for an open cyclictest run. BL_NO: not part of it (the run may
 * have been closed). */
static enum bl_verdict ct_line(struct latency *L, struct bl_ctx *ctx, const struct bl_line *ln,
			       const char *s, size_t n)
{
	struct run *r = &L->r;
	bool in_hist = r->phase >= CT_HIST;
	enum ct_kind k = ct_classify(L, s, n, in_hist);
	switch (k) {
	case CK_NONE:
		return BL_NO;
	case CK_CMD:
		return BL_NO;  /* a new run */
	case CK_DMA:
	case CK_LOAD:
		if (in_hist)
			return BL_NO;
		if (!r->has_data)
			pre_add(r, ln);
		return BL_USED;
	case CK_STATUS:
		if (in_hist)
			return BL_NO;
		return ct_status(L, ctx, ln, s);
	case CK_HIST:
		if (in_hist)
			return BL_NO;
		got_data(r, ctx);
		r->phase = CT_HIST;
		r->last_line = ln->lineno;
		return BL_USED;
	case CK_ROW:
		if (r->phase != CT_HIST)
			return BL_NO;
		return ct_row(L, ctx, ln, s, n);
	case CK_BADROW: {
		if (r->phase != CT_HIST)
			return BL_NO;
		size_t bl = 1;
		while (bl < n && g_ascii_isdigit(s[bl]))
			bl++;
		r->last_line = ln->lineno;
		return bl_reject(ctx, ln, "malformed latency bucket", "cyclictest histogram: negative bucket \"%.*s\"",
				 (int)(bl > 20 ? 20 : bl), s);
	}
	case CK_FOOTER:
		return ct_footer(L, ctx, ln, s, n);
	}
	return BL_NO;
}

/* Start a cyclictest run at line s if it is one (command, header, status,
 * "# Histogram"). */
static enum bl_verdict ct_begin(struct latency *L, struct bl_ctx *ctx, const struct bl_line *ln,
				const char *s, size_t n)
{
	enum ct_kind k = ct_classify(L, s, n, false);
	struct run *r = &L->r;
	switch (k) {
	case CK_CMD:
		run_start(r, ctx, ln, TOOL_CT);
		ct_command(r, s, n);
		r->ct_cmd_line = ln->lineno;
		pre_add(r, ln);
		return BL_USED;
	case CK_DMA:
	case CK_LOAD:
		run_start(r, ctx, ln, TOOL_CT);
		pre_add(r, ln);
		return BL_USED;
	case CK_STATUS:
	case CK_HIST:
		run_start(r, ctx, ln, TOOL_CT);
		return ct_line(L, ctx, ln, s, n);
	default:
		return BL_NO;
	}
}

/* ---- int_resp_timer and samples --------------------------------------- */

/* L5: a damaged bucket line inside a series is skipped with a warning;
 * the series goes on (the line neither ends it nor starts a new one).
 * The message quotes the bucket and the count: "negative count" for "-5",
 * else "out of range" for a run of digits beyond 64 bits, "has a sign"
 * for "+3" or "-0", else "not a whole number" ("5x", "1e2", "3.0"). */
static enum bl_verdict irt_bad_bucket(struct bl_ctx *ctx, const struct bl_line *ln, const char *s,
				      size_t klen, const char *cs, size_t cl)
{
	int kl = (int)(klen > 40 ? 40 : klen), vl = (int)(cl > 40 ? 40 : cl);
	size_t d = cs[0] == '-' || cs[0] == '+', i = d;
	bool nonzero = false;
	for (; i < cl && g_ascii_isdigit(cs[i]); i++)
		nonzero |= cs[i] != '0';
	bool digits = i == cl && i > d;
	struct dec key;
	const char *why = "malformed latency bucket";
	if (dec_parse(s, klen, &key))
		return bl_reject(ctx, ln, why, "latency bucket %.*s: value out of range", kl, s);
	if (digits && cs[0] == '-' && nonzero)
		return bl_reject(ctx, ln, why, "latency bucket %.*s: negative count \"%.*s\"", kl, s, vl, cs);
	return bl_reject(ctx, ln, why, "latency bucket %.*s: count \"%.*s\" %s", kl, s, vl, cs,
			 digits && d == 0 ? "out of range" : digits ? "has a sign" : "is not a whole number");
}

/* L1: the key s (klen bytes, value val) comes after the series' last
 * bucket in Perl's string order or in numeric order, as the buckets of
 * one sorted hash do. */
static bool irt_after(const struct run *r, const char *s, size_t klen, double val)
{
	size_t pl = r->prevkeylen, m = pl < klen ? pl : klen;
	int sc = memcmp(r->prevkey, s, m);
	return sc < 0 || (sc == 0 && klen > pl) || val > r->prevval;
}

/* L5: does a damaged bucket's key fit the open histogram (the decimals
 * of the bucket before, after it in key order; the script's three before
 * the first)? Else the line is text that only looks like a bucket. */
static bool irt_fits(const struct run *r, const char *s, size_t klen)
{
	const char *dot = memchr(s, '.', klen);
	if (!r->nrows)
		return dot && (size_t)(s + klen - dot) == 4;
	const char *pdot = memchr(r->prevkey, '.', r->prevkeylen);
	if (!dot || !pdot ||
	    (size_t)(s + klen - dot) != (size_t)(r->prevkey + r->prevkeylen - pdot))
		return false;
	struct dec key;
	if (dec_parse(s, klen, &key))
		return true;                 /* a key out of range: warned as such */
	return irt_after(r, s, klen, dec_value(key, 0));
}

static enum bl_verdict irt_bucket_line(struct latency *L, struct bl_ctx *ctx, const struct bl_line *ln,
				       const char *s, size_t klen, const char *cs, size_t cl)
{
	struct run *r = &L->r;
	struct dec key;
	long long c;
	if (dec_parse(s, klen, &key) || bl_parse_ll(cs, cl, &c) || c < 0)
		return irt_bad_bucket(ctx, ln, s, klen, cs, cl);
	double val = dec_value(key, 0);
	if (r->nrows) {
		if (!irt_after(r, s, klen, val)) {
			/* L1: not from one sorted hash: a new series */
			run_close(L, ctx);
			run_finish(L, ctx, 0);
			run_start(r, ctx, ln, TOOL_IRT);
		}
	}
	got_data(r, ctx);
	unsigned long long uc = (unsigned long long)c;
	if (!add_row(r, ln, key, &uc, 1))
		return bl_reject(ctx, ln, "malformed latency bucket", "latency bucket %.*s: the counts add up to 10^15 or more",
				 (int)(klen > 40 ? 40 : klen), s);
	size_t kl = klen < sizeof r->prevkey ? klen : sizeof r->prevkey - 1;
	memcpy(r->prevkey, s, kl);
	r->prevkeylen = kl;
	r->prevval = val;
	r->ncols = 1;
	return BL_USED;
}

/* The timed program's file name: "./int_resp_timer.pl" ->
 * "int_resp_timer.pl"; after an interpreter (perl, sh, python...) the
 * script's. NULL when there is none. */
static char *program_name(const char *c, size_t n)
{
	static const char *const interp[] = { "perl", "sh", "bash", "python", "python3", "env", NULL };
	const char *tok[4];
	size_t tl[4];
	size_t nt = bl_split_blanks(c, n, tok, tl, 4);
	if (nt > 4)
		nt = 4;
	for (size_t i = 0; i < nt; i++) {
		const char *b = tok[i];
		for (size_t k = 0; k < tl[i]; k++)
			if (tok[i][k] == '/')
				b = tok[i] + k + 1;
		size_t bl = (size_t)(tok[i] + tl[i] - b);
		if (bl == 0 || b[0] == '-')
			continue;
		if (bl_word_index(b, bl, interp, false) >= 0 && i + 1 < nt)
			continue;
		return bl_xstrndup(b, bl);
	}
	return NULL;
}

/* L3: the sample d of the run's list; the first one makes the run a
 * list of samples in --unit's unit. */
static enum bl_verdict add_sample(struct run *r, struct bl_ctx *ctx, const struct bl_line *ln, struct dec d)
{
	if (!r->has_data) {
		r->tool = TOOL_SAMPLES;
		r->unit = ctx->opt.latency_unit;
		if (!unit_exp(r->unit, &r->uexp)) {
			r->unit = "s";
			r->uexp = 0;
		}
		got_data(r, ctx);
		r->ncols = 1;
	}
	unsigned long long one = 1;
	(void)add_row(r, ln, d, &one, 1);    /* 10^15 lines: never */
	return BL_USED;
}

/* "time CMD" (L1): a command, not prose: short, no sentence punctuation
 * at the end. */
static bool is_time_command(struct latency *L, const char *s, size_t n)
{
	if (n < 6 || n > 160)
		return false;
	if (strchr(".,;:?!", s[n - 1]))
		return false;
	return bl_re_match(&L->re[RE_TIMECMD], s, n) == 1;
}

static bool sample_value(const char *s, size_t n, struct dec *d)
{
	return n > 0 && (g_ascii_isdigit(s[0]) || s[0] == '.' || s[0] == '-' || s[0] == '+') && dec_parse(s, n, d) == 0;
}

/* A line of one number with more than 15 digits (docs/formats.md,
 * "Numbers"): not a sample, but not the end of the series either. */
static enum bl_verdict sample_too_long(struct bl_ctx *ctx, const struct bl_line *ln, const char *s, size_t n)
{
	struct dec d;
	if (!ctx->opt.latency_unit || n == 0 || strspn(s, "0123456789.eE+-") < n ||
	    dec_parse(s, n, &d) != -BL_ERANGE)
		return BL_NO;
	return bl_reject(ctx, ln, "latency value out of range", "latency value \"%.*s\" has more than 15 digits",
			 (int)n, s);
}

/* ---- L6: the stated period -------------------------------------------- */

/* A line of a Perl script in this unit: remember whether sleep() comes
 * from Time::HiRes and the values its sleep() calls are given. Looked at
 * whoever uses the line; never claims it. */
static void script_line(struct latency *L, const struct bl_line *ln, const char *s, size_t n)
{
	if (n < 6 || !bl_contains(s, n, "sleep", 5))
		return;
	if (!L->script_hires && bl_re_match(&L->re[RE_HIRES], s, n) == 1)
		L->script_hires = true;
	if (!L->script_hires || bl_re_match(&L->re[RE_SLEEP], s, n) != 1)
		return;
	size_t off, len;
	struct dec d;
	if (!bl_re_group(&L->re[RE_SLEEP], 1, &off, &len) && !bl_re_group(&L->re[RE_SLEEP], 2, &off, &len))
		return;
	if (dec_parse(s + off, len, &d) != 0 || d.m <= 0) {
		L->nsleep = 2;   /* sleep($delay): the period is not stated */
		return;
	}
	if (L->nsleep == 1 && dec_value(d, 0) == dec_value(L->sleep_v, 0))
		return;
	L->nsleep = L->nsleep ? 2 : 1;
	L->sleep_v = d;
	L->sleep_line = ln->lineno;
}

/* A timer-loop run (not cyclictest) takes the script's one period. */
static void irt_period(struct latency *L, struct run *r)
{
	if (r->tool == TOOL_CT || !L->script_hires || L->nsleep != 1)
		return;
	r->has_period = true;
	r->period = L->sleep_v;
	r->period_line = L->sleep_line;
}

/* ---- the parser -------------------------------------------------------- */

/* Would start() take this line? */
static bool starts_mine(struct latency *L, struct bl_ctx *ctx, const char *s, size_t n)
{
	size_t klen, cl;
	const char *cs;
	struct dec d;
	return irt_shape(s, n, &klen, &cs, &cl) == IRT_BUCKET || ct_classify(L, s, n, false) != CK_NONE ||
	       is_time_command(L, s, n) || (ctx->opt.latency_unit && sample_value(s, n, &d));
}

static enum bl_verdict start(struct latency *L, struct bl_ctx *ctx, const struct bl_line *ln,
			     const char *s, size_t n)
{
	struct run *r = &L->r;
	size_t klen, cl;
	const char *cs;
	if (irt_shape(s, n, &klen, &cs, &cl) == IRT_BUCKET) {
		run_start(r, ctx, ln, TOOL_IRT);
		irt_period(L, r);
		return irt_bucket_line(L, ctx, ln, s, klen, cs, cl);
	}
	enum bl_verdict v = ct_begin(L, ctx, ln, s, n);
	if (v != BL_NO)
		return v;
	if (is_time_command(L, s, n)) {
		run_start(r, ctx, ln, TOOL_IRT);
		irt_period(L, r);
		r->command = bl_xstrndup(s, n);
		size_t off, len;
		if (bl_re_group(&L->re[RE_TIMECMD], 1, &off, &len))
			r->name = program_name(s + off, len);
		pre_add(r, ln);
		return BL_USED;
	}
	struct dec d;
	if (ctx->opt.latency_unit && sample_value(s, n, &d)) {
		run_start(r, ctx, ln, TOOL_SAMPLES);
		irt_period(L, r);
		return add_sample(r, ctx, ln, d);
	}
	return sample_too_long(ctx, ln, s, n);
}

/* L2: a cyclictest status line cut by a mailer (a prefix of one). */
static bool status_partial(struct latency *L, const char *s, size_t n)
{
	return n > 2 && s[0] == 'T' && s[1] == ':' && bl_re_match(&L->re[RE_STATUS], s, n) != 1 &&
	       bl_re_match(&L->re[RE_STATUS_PART], s, n) == 1;
}

/* L2: may s be an author's gap inside the histogram rows? */
static bool is_gap_line(const char *s, size_t n)
{
	if (n == 0 || n > 80)
		return false;
	bool dots = true;
	for (size_t i = 0; i < n && dots; i++) {
		if (s[i] == '.' || s[i] == ' ' || s[i] == '\t')
			continue;
		if (i + 2 < n && memcmp(s + i, "\xe2\x80\xa6", 3) == 0) {   /* U+2026 */
			i += 2;
			continue;
		}
		dots = false;
	}
	if (dots)
		return true;
	static const char *const words[] = { "histogram", "entries", "snip", "omitted", "elided", "rows", NULL };
	for (size_t w = 0; words[w]; w++)
		if (bl_contains_ci(s, n, words[w]))
			return true;
	if ((s[0] == '(' && s[n - 1] == ')') || (s[0] == '[' && s[n - 1] == ']') ||
	    (s[0] == '<' && s[n - 1] == '>'))
		return true;
	const char *tok[10];
	size_t tl[10];
	size_t nw = bl_split_blanks(s, n, tok, tl, 10);
	return nw <= 8 && ((n >= 3 && memcmp(s + n - 3, "...", 3) == 0) ||
			   (n >= 3 && memcmp(s + n - 3, "\xe2\x80\xa6", 3) == 0));
}

/* L1, L2: a line after a held gap confirms it when it goes on with the
 * series: a cyclictest row or the footer; an int_resp_timer bucket whose
 * key comes after the last one (a key out of order starts a new series,
 * so the gap was not inside one). */
static bool gap_confirmed(struct latency *L, const char *s, size_t n)
{
	struct run *r = &L->r;
	if (r->tool == TOOL_CT) {
		enum ct_kind k = ct_classify(L, s, n, true);
		return k == CK_ROW || k == CK_FOOTER;
	}
	size_t klen, cl;
	const char *cs;
	struct dec key;
	if (irt_shape(s, n, &klen, &cs, &cl) != IRT_BUCKET || dec_parse(s, klen, &key))
		return false;
	return irt_after(r, s, klen, dec_value(key, 0));
}

/* L1, L2: a line after a held gap: a continuation confirms it. */
static void gap_resolve(struct latency *L, struct bl_ctx *ctx, const char *s, size_t n)
{
	struct run *r = &L->r;
	if (gap_confirmed(L, s, n)) {
		const struct bl_line *gl = &r->elision.ln;
		bl_warn(ctx, gl, "histogram rows elided",
			"histogram rows elided (\"%.*s\"): the series' counts and statistics are bounds",
			(int)(gl->len > 60 ? 60 : gl->len), gl->text);
		r->elided++;
		bl_held_clear(&r->elision);
		return;
	}
	bl_held_unuse(ctx, &r->elision, gap_unconfirmed(r));
}

/* L2: a held status line prefix, joined with the next line
 * (BL_F_JOINED) or alone at the end (BL_F_LAST). Returns BL_MORE/BL_SKIP/BL_NO, or BL_USED when the text is a
 * whole status line the caller reads as one. */
static enum bl_verdict status_joined(struct latency *L, struct bl_ctx *ctx, const struct bl_line *ln,
				     const char *s, size_t n, unsigned flags)
{
	if (n > 2 && s[0] == 'T' && s[1] == ':' && bl_re_match(&L->re[RE_STATUS], s, n) == 1)
		return BL_USED;
	if (!(flags & BL_F_LAST))
		return status_partial(L, s, n) ? BL_MORE : BL_NO;
	return bl_reject(ctx, ln, "incomplete cyclictest status line",
			 "cyclictest status line ends before its last value: \"%.*s\"", (int)(n > 80 ? 80 : n), s);
}

static enum bl_verdict lat_line(void *st, struct bl_ctx *ctx, const struct bl_line *ln, unsigned flags)
{
	struct latency *L = st;
	struct run *r = &L->r;
	const char *s = ln->text;
	size_t n = ln->len;
	bl_trim(&s, &n);
	bool blank = n == 0;
	if (!(flags & (BL_F_JOINED | BL_F_LAST)))
		script_line(L, ln, s, n);
	if (flags & (BL_F_JOINED | BL_F_LAST)) {
		enum bl_verdict jv = status_joined(L, ctx, ln, s, n, flags);
		if (jv != BL_USED)
			return jv;
	} else if (status_partial(L, s, n)) {
		return BL_MORE;
	}
	if (r->open && r->elision.text && !blank)
		gap_resolve(L, ctx, s, n);

	if (r->open) {
		enum bl_verdict v = BL_NO;
		size_t klen, cl;
		const char *cs;
		struct dec d;
		switch (r->tool) {
		case TOOL_IRT:
			switch (irt_shape(s, n, &klen, &cs, &cl)) {
			case IRT_BUCKET:
				return irt_bucket_line(L, ctx, ln, s, klen, cs, cl);
			case IRT_BAD:
				if (irt_fits(r, s, klen))
					return irt_bad_bucket(ctx, ln, s, klen, cs, cl);
				break;
			case IRT_NONE:
				break;
			}
			if (!r->has_data && ctx->opt.latency_unit && sample_value(s, n, &d))
				return add_sample(r, ctx, ln, d);   /* one value per line (L3) */
			if (!r->has_data && (v = sample_too_long(ctx, ln, s, n)) != BL_NO)
				return v;
			if (!blank && r->nrows && !r->elision.text && is_gap_line(s, n)) {
				bl_held_set(&r->elision, ln);
				return BL_USED;
			}
			break;
		case TOOL_CT:
			v = ct_line(L, ctx, ln, s, n);
			if (v != BL_NO)
				return v;
			if (!blank && r->phase == CT_HIST && r->nrows && !r->elision.text && is_gap_line(s, n)) {
				bl_held_set(&r->elision, ln);
				return BL_USED;
			}
			break;
		case TOOL_SAMPLES:
			if (sample_value(s, n, &d))
				return add_sample(r, ctx, ln, d);
			if ((v = sample_too_long(ctx, ln, s, n)) != BL_NO)
				return v;
			break;
		case TOOL_NONE:
			break;
		}
		if (r->open) {
			if (blank && (r->tool == TOOL_CT || !r->has_data || r->elision.text))
				return BL_NO;   /* cyclictest output and commands span blank lines */
			if (!r->has_data && !blank && r->gap < 2 && !starts_mine(L, ctx, s, n) &&
			    !is_real_line(s, n)) {
				r->gap++;       /* a fence or "Output:" between command and output */
				return BL_NO;
			}
			run_close(L, ctx);
		}
	}
	if (r->closed) {
		if (blank)
			return BL_NO;
		if (is_real_line(s, n)) {
			r->real_cand = ln->lineno;   /* confirmed in lat_yield() */
			return BL_NO;
		}
		run_finish(L, ctx, 0);
	}
	if (blank)
		return BL_NO;
	return start(L, ctx, ln, s, n);
}

static void lat_yield(void *st, struct bl_ctx *ctx, const struct bl_line *ln)
{
	struct latency *L = st;
	struct run *r = &L->r;
	if (r->open)
		run_close(L, ctx);
	if (r->closed) {
		const char *s = ln->text;
		size_t n = ln->len;
		bl_trim(&s, &n);
		bool real = r->real_cand == ln->lineno && is_real_line(s, n) && strcmp(ln->source, r->source) == 0;
		run_finish(L, ctx, real ? ln->lineno : 0);
	}
}

static void lat_flush(void *st, struct bl_ctx *ctx, const struct bl_line *ln)
{
	(void)ln;
	struct latency *L = st;
	run_close(L, ctx);
	run_finish(L, ctx, 0);
	run_free(&L->r);
	L->script_hires = false;   /* L6: the evidence is the unit's */
	L->nsleep = 0;
}

static void lat_release(void *st)
{
	struct latency *L = st;
	run_free(&L->r);
	free(L->rowc);
	for (size_t i = 0; i < RE_N; i++)
		bl_re_release(&L->re[i]);
}

static const struct bl_table_def *const lat_tables[] = { &bl_table_latency, &bl_table_latency_series, NULL };

const struct bl_parser bl_parser_latency = {
	.name = "latency",
	.summary = "latency histograms: int_resp_timer \"seconds: count\", rt-tests cyclictest -h and status lines, "
		   "one value per line with --unit",
	.tables = lat_tables,
	.state_size = sizeof(struct latency),
	.init = lat_init,
	.line = lat_line,
	.yield = lat_yield,
	.flush = lat_flush,
	.release = lat_release,
};
