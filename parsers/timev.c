/* timev.c — GNU time -v blocks (1.7, 1.8, 1.9; BusyBox time -v uses the
 * same labels), FORMATS.md §1.1, and the `time` table that every timing
 * format writes. docs/formats.md, "GNU time -v", states the rules.
 *
 * A block ends at "Exit status" (the last label), when a label comes again
 * (a new block), when another parser takes a line, or at the end of the
 * unit. Its run number and group are fixed when it opens, so an mtest01
 * result that follows a partial block does not steal its run. A status
 * line before it is kept in the context for the next timing record of any
 * format (GNU time prints it before -v, the default format and, up to 1.8,
 * -p).
 */
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include "core/util.h"
#include "parsers/parser.h"
#include "parsers/tables.h"
#include "parsers/timeparse.h"

static const struct bl_col_def time_cols[TIME_NCOLS] = {
	[TIME_FORMAT] = { "format", BL_STR, "which tool printed it: `gnu-v` (GNU and BusyBox `time -v`), `gnu-default`, `posix-p` (`time -p`: GNU, bash, BSD and macOS alike), `bash`, `busybox`, `zsh`, `tcsh`, `csh`, `bsd` (BSD/macOS `/usr/bin/time`), `bsd-l` (with `-l`'s rusage lines), `bsd-lp` (`-l -p`)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[TIME_COMMAND] = { "command", BL_STR, "`Command being timed` (gnu-v) or the job text (zsh)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[TIME_STATUS] = { "status", BL_STR, "status line before the block: `exited` (`Command exited with non-zero status N`), `signal` (`Command terminated by signal N`, or the shell's line for a command killed by signal N right before a short timing block: bash's `Killed`, `Segmentation fault (core dumped)`, `Aborted`, `Terminated`, `Bus error`, `Illegal instruction`, zsh's `zsh: killed     cmd`; docs/formats.md), `stopped` (`Command stopped by signal N`), or `not-found` (the shell's `-bash: X: command not found` on the line before the block, blank lines between at most: the command did not run); empty when none. A run with a status is a failed run (docs/statistics.md D3c)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[TIME_STATUS_CODE] = { "status_code", BL_INT, "N of that status line (exit status or signal number); empty for `not-found`", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[TIME_USER_S] = { "user_s", BL_NUM, "user CPU time, s: `User time (seconds)` (gnu-v), `user` (gnu-default, posix-p, bash, busybox, zsh, bsd*), `u` (tcsh, csh)", "s", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[TIME_SYS_S] = { "sys_s", BL_NUM, "system CPU time, s: `System time (seconds)` (gnu-v), `system` (gnu-default, zsh), `sys` (posix-p, bash, busybox, bsd*), `s` (tcsh, csh)", "s", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[TIME_CPU_PCT] = { "cpu_pct", BL_NUM, "percent of CPU this job got, %: `Percent of CPU this job got` (gnu-v), `%CPU` (gnu-default), `cpu` (zsh), the `%` field (tcsh, csh); can exceed 100; empty for `?%`", "%", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[TIME_ELAPSED_S] = { "elapsed_s", BL_NUM, "wall-clock time, s: `Elapsed (wall clock) time` (gnu-v; `m:ss.cc` or `h:mm:ss`), `elapsed` (gnu-default), `real` (posix-p, bash, busybox, bsd*), `total` (zsh), the third field (tcsh, csh)", "s", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[TIME_AVG_SHARED_TEXT_KIB] = { "avg_shared_text_kib", BL_INT, "average shared text size, KiB: `Average shared text size (kbytes)` (gnu-v), `avgtext` (gnu-default), X of `X+Dk` (tcsh, csh), `average shared memory size` (bsd-l, bsd-lp; the same rusage field); always 0 on Linux and macOS", "KiB", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[TIME_AVG_UNSHARED_DATA_KIB] = { "avg_unshared_data_kib", BL_INT, "average unshared data size, KiB: `Average unshared data size (kbytes)` (gnu-v), `avgdata` (gnu-default), D of `X+Dk` (tcsh, csh), `average unshared data size` (bsd-l, bsd-lp); always 0 on Linux and macOS", "KiB", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[TIME_AVG_STACK_KIB] = { "avg_stack_kib", BL_INT, "average stack size, KiB: `Average stack size (kbytes)` (gnu-v), `average unshared stack size` (bsd-l, bsd-lp)", "KiB", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[TIME_AVG_TOTAL_KIB] = { "avg_total_kib", BL_INT, "average total size, KiB: `Average total size (kbytes)` (gnu-v)", "KiB", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[TIME_MAX_RSS_KIB] = { "max_rss_kib", BL_INT, "maximum resident set size (RSS), KiB: `Maximum resident set size (kbytes)` (gnu-v), `maxresident` (gnu-default), as printed; 0 before Linux 2.6.32, 4x too large from GNU time 1.7 on 2.6.32+; `maximum resident set size` (bsd-l, bsd-lp): macOS prints bytes, converted (bytes / 1024, rounded), read as macOS's when the values are right-aligned in 20 columns or the macOS-only lines (`instructions retired`, `cycles elapsed`, `peak memory footprint`) follow; empty, with a warning, in the 10-column layout older macOS (bytes) and the BSDs (KiB) share", "KiB", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[TIME_AVG_RSS_KIB] = { "avg_rss_kib", BL_INT, "average resident set size, KiB: `Average resident set size (kbytes)` (gnu-v)", "KiB", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[TIME_MAJOR_FAULTS] = { "major_faults", BL_INT, "major page faults: `Major (requiring I/O) page faults` (gnu-v), `major` (gnu-default), `pf` (tcsh, csh), `page faults` (bsd-l, bsd-lp: ru_majflt)", "", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[TIME_MINOR_FAULTS] = { "minor_faults", BL_INT, "minor page faults: `Minor (reclaiming a frame) page faults` (gnu-v), `minor` (gnu-default), `page reclaims` (bsd-l, bsd-lp: ru_minflt)", "", BL_ROLE_MEASURE, BL_BETTER_LOWER },
	[TIME_VOLUNTARY_CS] = { "voluntary_cs", BL_INT, "`Voluntary context switches` (gnu-v), `voluntary context switches` (bsd-l, bsd-lp)", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[TIME_INVOLUNTARY_CS] = { "involuntary_cs", BL_INT, "`Involuntary context switches` (gnu-v), `involuntary context switches` (bsd-l, bsd-lp)", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[TIME_SWAPS] = { "swaps", BL_INT, "times swapped out: `Swaps` (gnu-v), `swaps` (gnu-default, bsd-l, bsd-lp), `w` (tcsh, csh)", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[TIME_FS_INPUTS] = { "fs_inputs", BL_INT, "file system inputs, 512-byte blocks: `File system inputs` (gnu-v), `inputs` (gnu-default), I of `I+Oio` (tcsh, csh); 0 before Linux 2.6.22; empty for bsd-l/bsd-lp (BSD counts `block input operations`, not blocks)", "512-byte blocks", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[TIME_FS_OUTPUTS] = { "fs_outputs", BL_INT, "file system outputs, 512-byte blocks: `File system outputs` (gnu-v), `outputs` (gnu-default), O of `I+Oio` (tcsh, csh); 0 before Linux 2.6.22; empty for bsd-l/bsd-lp (BSD counts operations)", "512-byte blocks", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[TIME_SOCKET_SENT] = { "socket_sent", BL_INT, "`Socket messages sent` (gnu-v), `messages sent` (bsd-l, bsd-lp)", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[TIME_SOCKET_RECEIVED] = { "socket_received", BL_INT, "`Socket messages received` (gnu-v), `messages received` (bsd-l, bsd-lp)", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[TIME_SIGNALS] = { "signals", BL_INT, "`Signals delivered` (gnu-v), `signals received` (bsd-l, bsd-lp)", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[TIME_PAGE_SIZE_BYTES] = { "page_size_bytes", BL_INT, "page size, bytes: `Page size (bytes)` (gnu-v)", "bytes", BL_ROLE_LABEL, BL_BETTER_NONE },
	[TIME_EXIT_STATUS] = { "exit_status", BL_INT, "`Exit status` (gnu-v); 0 when killed by a signal: see `status`; not 0: a failed run (docs/statistics.md D3c)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
};

const struct bl_table_def bl_table_time = {
	"time", "one row per timing block (GNU time -v/default/-p, bash, zsh, tcsh, BusyBox, BSD/macOS time)",
	TIME_NCOLS, time_cols,
	"Parsers: parsers/timev.c (`gnu-v`), parsers/timeshort.c (the others); formats: "
	"docs/formats.md, \"GNU time -v\" and \"Short timing formats\". A column the block's "
	"format does not print is empty.\n\n"
	"- `line` is the block's first line (the status line when there is one).\n"
	"- An mtest01 result and the timing block next to it (before or after) form one run: both "
	"rows carry the same `group` and `run`.\n"
	"- `stats` and `compare` make their statistics per `command` within a group: runs of "
	"different programs are never averaged together.\n"
	"- A row with a `status`, or an `exit_status` other than 0, is a failed run: it stays in the "
	"table and is left out of averages, statistics, comparisons and charts, which say how many "
	"(docs/statistics.md D3c).",
	.group_col = "group",
	.split_col = "command",
	.failed_cols = (const int[]){ TIME_STATUS, TIME_EXIT_STATUS, -1 },
};

struct label {
	const char *text;
	size_t len;           /* strlen(text) */
	int col;
};
#define LABEL(t, c) { t, sizeof t - 1, c }

static const struct label labels[] = {
	LABEL("Command being timed", TIME_COMMAND),
	LABEL("User time (seconds)", TIME_USER_S),
	LABEL("System time (seconds)", TIME_SYS_S),
	LABEL("Percent of CPU this job got", TIME_CPU_PCT),
	LABEL("Elapsed (wall clock) time (h:mm:ss or m:ss)", TIME_ELAPSED_S),
	LABEL("Average shared text size (kbytes)", TIME_AVG_SHARED_TEXT_KIB),
	LABEL("Average unshared data size (kbytes)", TIME_AVG_UNSHARED_DATA_KIB),
	LABEL("Average stack size (kbytes)", TIME_AVG_STACK_KIB),
	LABEL("Average total size (kbytes)", TIME_AVG_TOTAL_KIB),
	LABEL("Maximum resident set size (kbytes)", TIME_MAX_RSS_KIB),
	LABEL("Average resident set size (kbytes)", TIME_AVG_RSS_KIB),
	LABEL("Major (requiring I/O) page faults", TIME_MAJOR_FAULTS),
	LABEL("Minor (reclaiming a frame) page faults", TIME_MINOR_FAULTS),
	LABEL("Voluntary context switches", TIME_VOLUNTARY_CS),
	LABEL("Involuntary context switches", TIME_INVOLUNTARY_CS),
	LABEL("Swaps", TIME_SWAPS),
	LABEL("File system inputs", TIME_FS_INPUTS),
	LABEL("File system outputs", TIME_FS_OUTPUTS),
	LABEL("Socket messages sent", TIME_SOCKET_SENT),
	LABEL("Socket messages received", TIME_SOCKET_RECEIVED),
	LABEL("Signals delivered", TIME_SIGNALS),
	LABEL("Page size (bytes)", TIME_PAGE_SIZE_BYTES),
	LABEL("Exit status", TIME_EXIT_STATUS),
};
#define NLABELS (sizeof labels / sizeof labels[0])

struct timev {
	struct bl_time_block b;     /* the open record (timeparse.h) */
	unsigned long long seen;    /* bit per column */
	int next_label;             /* the label GNU time prints next, or -1 */
};

static int timev_init(void *st, struct bl_ctx *ctx, char **err)
{
	struct timev *t = st;
	(void)ctx;
	(void)err;
	bl_time_block_init(&t->b);
	return 0;
}

/* Which label does s start with? Returns its index or -1; *vp and *vl the
 * value. Every line of a log is asked this, so only the labels that begin
 * with the line's first letter are compared, and only when the ':' after
 * them is there. */
static inline int label_at(const char *s, size_t n, size_t i, const char **vp, size_t *vl)
{
	size_t ll = labels[i].len;
	if (n <= ll || s[ll] != ':' || memcmp(s, labels[i].text, ll) != 0)
		return -1;
	const char *v = s + ll + 1;
	size_t l = n - ll - 1;
	bl_trim(&v, &l);
	*vp = v;
	*vl = l;
	return (int)i;
}

/* hint: the label expected here (the one after the last, since GNU time
 * prints them in a fixed order), tried first; -1 for none (summary of the
 * bench's 50 MB of mtest01 + time -v: 0.100 s of processor time, 0.104 s
 * without the hint). */
static inline int match_label(const char *s, size_t n, const char **vp, size_t *vl, int hint)
{
	if (hint >= 0 && label_at(s, n, (size_t)hint, vp, vl) >= 0)
		return hint;
	/* label indices by first letter, -1 terminated */
	static const signed char by_letter[][6] = {
		['A' - 'A'] = { 5, 6, 7, 8, 10, -1 },
		['C' - 'A'] = { 0, -1 },
		['E' - 'A'] = { 4, 22, -1 },
		['F' - 'A'] = { 16, 17, -1 },
		['I' - 'A'] = { 14, -1 },
		['M' - 'A'] = { 9, 11, 12, -1 },
		['P' - 'A'] = { 3, 21, -1 },
		['S' - 'A'] = { 2, 15, 18, 19, 20, -1 },
		['U' - 'A'] = { 1, -1 },
		['V' - 'A'] = { 13, -1 },
		['W' - 'A'] = { -1 },
	};
	if (n < 6 || s[0] < 'A' || s[0] > 'W')
		return -1;
	const signed char *cand = by_letter[s[0] - 'A'];
	for (size_t k = 0; k < 6 && cand[k] >= 0; k++) {
		size_t i = (size_t)cand[k];
		if (labels[i].text[0] != s[0])
			break;           /* a letter no label begins with */
		if ((int)i != hint && label_at(s, n, i, vp, vl) >= 0)
			return (int)i;
	}
	return -1;
}

static int status_line(const char *s, size_t n, const char **kind, long long *code)
{
	static const struct { const char *prefix; const char *kind; } st[] = {
		{ "Command exited with non-zero status ", "exited" },
		{ "Command terminated by signal ", "signal" },
		{ "Command stopped by signal ", "stopped" },
	};
	/* s[8] is 'e', 't' or 's' after "Command ": "Command being timed",
	 * the first line of every block, goes no further (summary of 50 MB of
	 * mtest01 + time -v runs: 76-83 ms of processor time before, 73-78 ms) */
	if (n < 26 || s[0] != 'C' || (s[8] != 'e' && s[8] != 't' && s[8] != 's'))
		return 0;
	for (size_t i = 0; i < 3; i++) {
		size_t pl = strlen(st[i].prefix);
		if (n > pl && memcmp(s, st[i].prefix, pl) == 0 && bl_parse_ll(s + pl, n - pl, code) == 0) {
			*kind = st[i].kind;
			return 1;
		}
	}
	return 0;
}

static bool is_range(const char *v, size_t l)
{
	for (size_t i = 0; i + 2 < l; i++)
		if (v[i] == ' ' && v[i + 1] == '-' && v[i + 2] == ' ')
			return true;
	return false;
}

static enum bl_verdict timev_line(void *st, struct bl_ctx *ctx, const struct bl_line *ln, unsigned flags)
{
	struct timev *t = st;
	const char *s = ln->text;
	size_t n = ln->len;
	/* leading blanks only: label_at() trims the value; the 8 spaces a
	 * mailer makes of the TAB in one comparison (summary of mtest01 +
	 * time -v runs: 2 % of the instructions) */
	uint64_t w;
	if (n >= 8 && (memcpy(&w, s, 8), w == 0x2020202020202020ull))
		s += 8, n -= 8;
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	bool commented = n && s[0] == '#';
	if (commented) {
		s++, n--;
		while (n && (*s == ' ' || *s == '\t'))
			s++, n--;
	}
	if (n < 5)
		return BL_NO;

	const char *kind;
	long long code;
	if (!commented && status_line(s, n, &kind, &code)) {
		bl_time_block_emit(&t->b, ctx);
		ctx->time_status.kind = kind;
		ctx->time_status.code = code;
		ctx->time_status.lineno = ln->lineno;
		return BL_USED;
	}

	const char *v;
	size_t vl;
	int li = match_label(s, n, &v, &vl, commented ? -1 : t->next_label);
	if (li < 0)
		return BL_NO;
	if (commented)
		return bl_skip_as(ctx, "commented-out sample line");
	t->next_label = (size_t)li + 1 < sizeof labels / sizeof labels[0] ? li + 1 : -1;
	int col = labels[li].col;
	if (vl == 0) {
		if (flags & BL_F_LAST)
			return bl_skip_as(ctx, "time -v label without a value");
		return BL_MORE;  /* label broken from its value by a mailer */
	}
	if (!t->b.open || (t->seen & (1ull << col))) {
		bl_time_block_open(&t->b, ctx, ln, "gnu-v");
		t->seen = 0;
	}
	t->seen |= 1ull << col;

	if (col == TIME_COMMAND) {
		if (vl >= 2 && v[0] == '"' && v[vl - 1] == '"') {
			v++;
			vl -= 2;
		}
		bl_set_str(&t->b.rec, TIME_COMMAND, bl_time_text_set(&t->b.command, v, vl));
		return BL_USED;
	}
	if (is_range(v, vl))
		return bl_skip_as(ctx, "value range, not one measurement");
	if (col == TIME_CPU_PCT && vl == 2 && v[0] == '?' && v[1] == '%')
		return BL_USED;     /* unknown: elapsed time was 0 */
	size_t pl = col != TIME_CPU_PCT ? vl : vl >= 2 && v[vl - 1] == '%' ? vl - 1 : 0;
	double d = 0;
	long long i = 0;
	bool num = bl_table_time.cols[col].type == BL_NUM;
	int rc = !num ? bl_parse_ll(v, pl, &i) : col == TIME_ELAPSED_S ? bl_parse_clock(v, pl, &d)
								 : bl_parse_double(v, pl, &d);
	/* Every time -v value is a duration, a percentage, a size or a count:
	 * a negative one is damage, not a measurement. */
	if (rc == 0 && (d < 0 || i < 0))
		return bl_reject(ctx, ln, "bad time -v value", "time -v: negative value for \"%s\": \"%.*s\"",
				 labels[li].text, (int)(vl > 60 ? 60 : vl), v);
	if (rc)
		return bl_reject(ctx, ln, "bad time -v value", "time -v: cannot read the value of \"%s\": \"%.*s\"%s",
				 labels[li].text, (int)(vl > 60 ? 60 : vl), v,
				 rc == -BL_ERANGE && !num ? " (more than 15 digits)" : "");
	if (num)
		bl_set_num(&t->b.rec, col, d);
	else
		bl_set_int(&t->b.rec, col, i);
	if (col == TIME_EXIT_STATUS)
		bl_time_block_emit(&t->b, ctx);
	return BL_USED;
}

/* Another parser's line ends the block too; the unit's end, its status. */
static void timev_flush(void *st, struct bl_ctx *ctx, const struct bl_line *ln)
{
	bl_time_block_emit(&((struct timev *)st)->b, ctx);
	if (!ln)
		ctx->time_status.kind = NULL;
}

static void timev_release(void *st)
{
	struct timev *t = st;
	bl_time_block_release(&t->b);
}

static const struct bl_table_def *const timev_tables[] = { &bl_table_time, NULL };

const struct bl_parser bl_parser_timev = {
	.name = "timev",
	.summary = "GNU time -v blocks (1.7-1.9, BusyBox), with the status line before them",
	.tables = timev_tables,
	.state_size = sizeof(struct timev),
	.line = timev_line,
	.yield = timev_flush,
	.flush = timev_flush,
	.init = timev_init,
	.release = timev_release,
};
