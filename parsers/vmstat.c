/* vmstat.c — vmstat captures of every layout (FORMATS.md §2), the prose
 * people wrote between their rows, and the non-table modes, read into the
 * tables `vmstat` and `events` (parsers/vmstat.h, docs/csv.md).
 *
 * Specification. docs/formats.md ("vmstat") says the same for users;
 * tests/test_vmstat.c cites these as "V1".."V12".
 *
 * V1  Layout. A label line (the second header line) fixes the layout: its
 *     labels, split on white space, give the column of each value of the
 *     rows that follow. Linux labels: r b w swpd free buff cache inact
 *     active si so bi bo in cs us sy id wa st gu (none twice; 12..21 of
 *     them, r first, swpd and free present; or, for a table the author
 *     removed columns from, 6..21 of them with r and b and at least one
 *     memory label, one of bi/bo and one cpu label, "r b free buff cache
 *     bi bo in cs us sy id wa": the columns present are filled, the others
 *     left empty); procps 3.1.0's shifted header
 *     ("b w swpd … id wa", 16 labels) means r b swpd … id wa; a trailing
 *     time-zone word is procps -t's ("CET", "UTC", "+03"). FreeBSD labels:
 *     r b w avm fre flt re pi po fr sr <disks> in sy cs us sy id, with
 *     further "us sy id" triplets for -P. The group line ("procs
 *     ---memory--- …", any dashes, spaces collapsed or not, "--time--"
 *     in front) is recognised but never needed. Both header lines may be
 *     hard-wrapped: each is offered for joining with the next line
 *     (BL_MORE) and taken joined when the result is still a header line.
 * V2  Rows are split on blanks, never cut at column offsets. A row has the
 *     layout's value count, optionally a leading time of day ("21:21:49",
 *     wrappers such as ExaWatcher) and trailing "YYYY-MM-DD HH:MM:SS" (-t)
 *     with an optional zone word (the older Red Hat -t patch). A row short
 *     of its fields is the first part of a wrapped row (BL_MORE); still
 *     short at the end, it is skipped as "incomplete vmstat row" with a
 *     warning. A line of k times the value count (rows glued together by
 *     a format=flowed re-join) is k rows. More fields, or a value that is
 *     not a number or past BL_INT_MAX (memory in KiB), is a warning and
 *     the line is skipped. FreeBSD memory
 *     values may be humanized ("514M", "7.0G": powers of 1024, rounded to
 *     KiB).
 * V3  Series. A series is one capture: it starts at a header when none
 *     is open, and ends at a header whose layout or quote depth
 *     differs, at a header that shows a new capture's start or the same
 *     capture again (V4), when the group changes (a label found by the
 *     dispatcher, a heading held as prose right before a header: V8),
 *     at a vmstat command line, at a line starting with a kernel
 *     version (left to the dispatcher as a group label), at "Killed",
 *     "Segmentation fault", … or a shell prompt, after PROSE_MAX lines
 *     of other text or BLANK_MAX blank lines since the last row, and at
 *     the end of the file or message. Repeated headers inside a capture
 *     do not end it; a row under a new group starts a new series of the
 *     same layout. Series are numbered from 1 across the pass; samples
 *     from 0 within the series (the since-boot row, when there is one,
 *     is sample 0).
 * V4  Since-boot row. A header pair (group line, then label line) shows
 *     a capture's start when the line before the group line is the
 *     start of the file or message, a blank line, a vmstat command line
 *     or a `date` line; the first row after it is vmstat's average
 *     since boot (since_boot = 1), unless the command line had
 *     -y/--no-first. A header directly after a row is vmstat's own
 *     repetition; a label line alone (mail cut the group line) or a
 *     header after other text never marks a row. The same capture again
 *     (a log pasted twice, `cat log log`): a header pair inside a
 *     series whose next row is the series' first row again (the same
 *     values, and the same time stamp when rows have one, a time of day
 *     counted on past midnight; without stamps only when that first row
 *     was the since-boot row), where no row of the series before was (an
 *     idle machine's rows are all alike), ends the series; with a date
 *     and time stamp the match alone is proof, after a label line alone
 *     too; that row starts a new one with the same layout, quote
 *     depth, interval and unit, and is its since-boot row when the
 *     series before had one. A clock set back, with or without a header
 *     before the row, does not end a series (the charts draw such rows
 *     after the earlier ones). --since-boot auto (default): mark it;
 *     analyses leave it out. keep: mark it; analyses use it like any
 *     sample. drop: the row is not written (skipped as "vmstat
 *     since-boot average (--since-boot drop)"); its sample number stays
 *     taken.
 * V5  Time. t_s is (timestamp - first timestamp of the series) when rows
 *     carry one (a leading time of day rolls over at midnight), else
 *     sample × interval. The interval is --interval when given, else the
 *     delay of the vmstat command line right before the header
 *     ("vmstat -SM -w 1 5" → 1 s), else 1 s.
 * V6  Memory unit. vmstat printed KiB unless the command line before the
 *     header has -S/--unit: k → kB (1000 bytes), K → KiB, m → MB, M → MiB;
 *     mem_unit says which. vmstat prints no unit, so a capture without its
 *     command line is KiB. The memory columns and si/so are written in KiB
 *     whatever was printed (one unit per column): × 1000/1024 (kB),
 *     × 1024 (MiB), × 10^6/1024 (MB), fractional where it falls so.
 * V7  Command lines: "vmstat [options] [delay [count]]" alone on a line,
 *     after an optional shell prompt ("$ ", "# ", "user@host:~$ ",
 *     "[root@host ~]# ") or "# Collection Command:". The line is used; if
 *     no vmstat header or vmstat output follows (the next non-blank line
 *     that is not a "#####"/"=====" rule), it is given back as "vmstat
 *     command without output after it". `vmstat -d`'s output is the disk
 *     table (parsers/vmstatdisk.c): its group or label line confirms it.
 * V8  Events. While a series is open, a prose line (V9) is held; when the
 *     next row comes, it becomes an `events` record anchored to that row's
 *     sample. If the series ends first, the held lines are given back
 *     (bl_unuse) as "text after a vmstat table (no row followed)". kind:
 *     stutter_end when the end pattern matches, else stutter_start when
 *     the start pattern matches, else note. Defaults (caseless): start
 *     "begins/began/starts/started to stutter/skip", "stutter(s/ing)",
 *     "skips", "skipping", "choppy", "jerky"; end "smooth again",
 *     "plays/playing fine", "stops/stopped skipping/stuttering", "no
 *     longer skipping/stuttering", "is smooth", "became/becomes smooth",
 *     "back to normal". --stutter-start RE and --stutter-end RE replace
 *     them (PCRE2, as given). A held line that passes the dispatcher's
 *     heading test (rule L4: 1-4 words, no final punctuation) and comes
 *     right before a header (blank lines aside) is not an event but a
 *     group label: the series ends and the group becomes that line.
 * V9  Prose is a line starting with a letter (or '(', '[', '"', '\'',
 *     '*', a non-ASCII character, or a digit when two words of three
 *     letters or more follow) with at least two letters, without
 *     '{', '}', '$', '`', '\', a final ';', and that does not look like
 *     another format's record ("label: number", PASS/FAIL/T*, mtest01,
 *     "bytes allocated", "real 0m…", "Command being timed", "Averages
 *     for"). Lines that are not prose are left to the other parsers.
 * V10 Non-table modes are recognised and skipped with their reason: -s
 *     and -f counter lines ("253528 K total memory", "3292 forks"), -D
 *     summary lines ("10 disks"), the -d disk table, the -p partition table
 *     and the -m slab table (header, then their rows).
 * V13 Rows before their header (the author cut the header off the top;
 *     vmstat repeats it every screenful): a line of 12..21 whole numbers
 *     (maybe a -t date and time) whose last 3 to 6 (the cpu columns) add
 *     up to 100 +- 3, with no series open, is held, at most
 *     PEND_MAX of them (the oldest given back first). A label line of the
 *     same file or message and quote depth, with nothing but prose,
 *     blank lines, caret lines (`^^^` under a value) and such rows
 *     between, gives their layout: they are
 *     read as the series' first samples, each with its own line (no
 *     since-boot row: the capture started before them). Any other line,
 *     another quote depth, another parser's line or the end of the unit
 *     gives them back as "vmstat row before any header".
 * V11 Records carry the provenance of their first physical line; quoted
 *     rows keep their quote depth (dispatcher). An event carries the group
 *     in force when its prose line came.
 * V12 Nothing is kept past the end of a unit (flush): held prose and an
 *     unconfirmed command line are given back then.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "parsers/dispatch.h"
#include "core/block.h"
#include "core/re.h"
#include "core/util.h"
#include "parsers/parser.h"
#include "parsers/vmstat.h"

/* ---- tables ------------------------------------------------------------ */

static const struct bl_col_def vm_cols[VM_NCOLS] = {
	[VM_SERIES] = { "series", BL_INT, "capture number, 1-based across the run of benchlog", "", BL_ROLE_ID, BL_BETTER_NONE },
	[VM_SAMPLE] = { "sample", BL_INT, "0-based sample number within the series (the since-boot row, when there is one, is 0)", "", BL_ROLE_ID, BL_BETTER_NONE },
	[VM_T_S] = { "t_s", BL_NUM, "seconds since the series' first row, s: from the rows' time stamps, else sample × interval (`--interval`, else the command line's delay, else 1 s)", "s", BL_ROLE_ID, BL_BETTER_NONE },
	[VM_SINCE_BOOT] = { "since_boot", BL_INT, "1 for vmstat's first row, the average since boot (docs/formats.md, \"The since-boot row\"); else 0", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[VM_LAYOUT] = { "layout", BL_STR, "header layout: `2.x-w`, `3.1.0-shifted`, `3.x-wa`, `3.3-st`, `4.x-gu`, `cut` (the author removed some of swpd, free, si, so, bi, bo, in, cs, us, sy, id), `other` or `freebsd`, with the flags ` -a`, ` -w`, ` -t`, ` +time`", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[VM_R] = { "r", BL_INT, "runnable processes", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_B] = { "b", BL_INT, "processes in uninterruptible sleep", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_W] = { "w", BL_INT, "swapped-out runnable processes (procps 2.x, FreeBSD)", "", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_SWPD] = { "swpd", BL_NUM, "swap in use, KiB (V6: converted from `mem_unit`)", "KiB", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_FREE] = { "free", BL_NUM, "free memory, KiB (FreeBSD `fre`)", "KiB", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_BUFF] = { "buff", BL_NUM, "buffer memory, KiB", "KiB", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_CACHE] = { "cache", BL_NUM, "page cache, KiB", "KiB", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_INACT] = { "inact", BL_NUM, "inactive memory (`-a`), KiB", "KiB", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_ACTIVE] = { "active", BL_NUM, "active memory (`-a`), KiB", "KiB", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_SI] = { "si", BL_NUM, "swapped in per second, KiB/s", "KiB/s", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_SO] = { "so", BL_NUM, "swapped out per second, KiB/s", "KiB/s", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_BI] = { "bi", BL_INT, "blocks read per second (KiB/s; \"blocks/s\" in procps < 4, same numbers)", "KiB/s", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_BO] = { "bo", BL_INT, "blocks written per second (KiB/s)", "KiB/s", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_IN] = { "in", BL_INT, "interrupts per second", "/s", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_CS] = { "cs", BL_INT, "context switches per second", "/s", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_US] = { "us", BL_INT, "user CPU time, %", "%", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_SY] = { "sy", BL_INT, "system CPU time, %", "%", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_ID] = { "id", BL_INT, "idle CPU time, %", "%", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_WA] = { "wa", BL_INT, "I/O wait CPU time, % (always 0 on 2.4 kernels)", "%", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_ST] = { "st", BL_INT, "CPU time stolen by the hypervisor, %", "%", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_GU] = { "gu", BL_INT, "guest CPU time, % (procps-ng ≥ 4.0.4)", "%", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_MEM_UNIT] = { "mem_unit", BL_STR, "the unit vmstat printed the memory columns and si/so in: `KiB` (default), `kB`, `MiB`, `MB` (`-S k/K/m/M` on the command line before the header); the columns themselves are always KiB: `-S M` values × 1024, `-S m` × 10^6/1024, `-S k` × 1000/1024 (fractional)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[VM_TIMESTAMP] = { "timestamp", BL_STR, "the row's time stamp as printed: `2018-03-21 09:03:09` (`-t`) or a wrapper's `21:21:49`", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[VM_TZ] = { "tz", BL_STR, "the time zone printed in the label line (`-t`) or on the row (older Red Hat `-t`)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[VM_AVM] = { "avm", BL_INT, "FreeBSD: active virtual memory, KiB (humanized `514M` converted)", "KiB", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_FLT] = { "flt", BL_INT, "FreeBSD: page faults per second", "/s", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_RE] = { "re", BL_INT, "FreeBSD: pages reclaimed per second", "/s", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_PI] = { "pi", BL_INT, "FreeBSD: pages paged in per second", "/s", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_PO] = { "po", BL_INT, "FreeBSD: pages paged out per second", "/s", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_FR] = { "fr", BL_INT, "FreeBSD: pages freed per second", "/s", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_SR] = { "sr", BL_INT, "FreeBSD: pages scanned per second", "/s", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_SYS_CALLS] = { "sys_calls", BL_INT, "FreeBSD: system calls per second (the faults group's `sy`)", "/s", BL_ROLE_MEASURE, BL_BETTER_NONE },
	[VM_DISKS] = { "disks", BL_STR, "FreeBSD: transfers per second per disk, `name=value` separated by spaces (`ada0=4 cd0=0`)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[VM_PER_CPU] = { "per_cpu", BL_STR, "FreeBSD `-P`: `us/sy/id` per CPU, separated by spaces (`0/0/100 1/0/99`)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
};

const struct bl_table_def bl_table_vmstat = {
	"vmstat", "one row per vmstat sample (every procps layout, toybox, FreeBSD)", VM_NCOLS, vm_cols,
	"Parser: parsers/vmstat.c; format: docs/formats.md, \"vmstat\". A column the capture's "
	"layout does not have is empty.\n\n"
	"- `line` is the row's first line (a wrapped row's first part).\n"
	"- Rows a mail client glued into one line share its `line`.\n"
	"- With `--since-boot drop` the since-boot row is not written; the sample numbers of the "
	"other rows do not change.",
	.group_col = "group", .since_boot_col = "since_boot",
	.time_series = "`benchlog summary` gives each series' mean with its interval by the "
		       "effective sample size n_eff (D15)",
};

static const struct bl_col_def ev_cols[EV_NCOLS] = {
	[EV_SERIES] = { "series", BL_INT, "the vmstat series the line sits in", "", BL_ROLE_ID, BL_BETTER_NONE },
	[EV_SAMPLE] = { "sample", BL_INT, "the sample of the row that follows the line", "", BL_ROLE_ID, BL_BETTER_NONE },
	[EV_TEXT] = { "text", BL_STR, "the line, trimmed", "", BL_ROLE_LABEL, BL_BETTER_NONE },
	[EV_KIND] = { "kind", BL_STR, "`stutter_start`, `stutter_end` or `note` (patterns: `--stutter-start RE`, `--stutter-end RE`)", "", BL_ROLE_LABEL, BL_BETTER_NONE },
};

const struct bl_table_def bl_table_events = {
	"events", "prose lines between the rows of a vmstat capture", EV_NCOLS, ev_cols,
	"Parser: parsers/vmstat.c; format: docs/formats.md, \"vmstat\", \"Events\".\n\n"
	"- `group` is the group in force when the line came (the same as the rows' around it).\n"
	"- Prose after the last row of a series is not an event: it is counted in the skipped lines "
	"(\"text after a vmstat table (no row followed)\").",
	.group_col = "group",
};

/* ---- limits and constants ---------------------------------------------- */

#define PROSE_MAX 8          /* V3: lines of other text that end a series */
#define PEND_MAX 64          /* V13: rows held before their header */
#define BLANK_MAX 16         /* V3: blank lines that end a series */
#define VM_MAXV 96           /* values per row */
#define VM_MAXTOK 400        /* tokens looked at per line */
#define DISK_NAME_MAX 16

/* Extra column codes for FreeBSD value positions (not table columns). */
enum { C_DISK = 100, C_CPU_US, C_CPU_SY, C_CPU_ID };

static const struct { const char *label; int col; } linux_labels[] = {
	{ "r", VM_R }, { "b", VM_B }, { "w", VM_W }, { "swpd", VM_SWPD }, { "free", VM_FREE },
	{ "buff", VM_BUFF }, { "cache", VM_CACHE }, { "inact", VM_INACT }, { "active", VM_ACTIVE },
	{ "si", VM_SI }, { "so", VM_SO }, { "bi", VM_BI }, { "bo", VM_BO }, { "in", VM_IN },
	{ "cs", VM_CS }, { "us", VM_US }, { "sy", VM_SY }, { "id", VM_ID }, { "wa", VM_WA },
	{ "st", VM_ST }, { "gu", VM_GU },
};
#define NLINUX (sizeof linux_labels / sizeof linux_labels[0])

static const char *const group_words[] = {
	"procs", "memory", "swap", "io", "system", "cpu", "timestamp", "time", "page",
	"disks", "faults", NULL,
};

/* ---- state ------------------------------------------------------------- */

struct layout {
	short col[VM_MAXV];      /* table column (or C_*) of each value */
	char disk[VM_MAXV][DISK_NAME_MAX]; /* FreeBSD disk names, by position */
	size_t n;                /* values per row */
	bool bsd, shifted, wide;
	char zone[24];           /* -t zone word from the label line */
};

/* A line kept past its dispatch: prose held as a possible event, or a
 * command line not yet confirmed. */
struct held {
	char *text;
	size_t len;
	unsigned long lineno;
	int depth;
	char *group;
	const char *group_source;
};

enum prev_kind { PREV_START = 0, PREV_BLANK, PREV_CMD, PREV_DATE, PREV_ROW, PREV_GROUP,
		 PREV_LABEL, PREV_OTHER };

enum nt_mode { NT_NONE = 0, NT_PART, NT_SLAB };   /* -d: parsers/vmstatdisk.c */

enum held_kind { HK_NONE = 0, HK_GROUP, HK_LABEL, HK_ROW };

/* A header line that passed its test, kept to answer the same text again
 * without reading it word by word; lines longer than HDR_MEMO_MAX are
 * always read (parse -t vmstat of the bench's 5 MB, a header every 21
 * rows: 272 M instructions, 319 M reading every header). */
#define HDR_MEMO_MAX 320
struct hdr_memo {
	size_t n;                /* 0: empty */
	char text[HDR_MEMO_MAX];
};

struct vmstat {
	bool ok;
	struct bl_re re_cmd, re_date, re_counters, re_dsum,
		re_phead, re_mhead, re_notprose, re_ender, re_prompt, re_start, re_end;

	/* the open series */
	bool in_series;
	struct layout lay;
	long series;
	long sample;
	bool expect_since_boot;
	double interval_s;
	const char *mem_unit;
	double kib;              /* KiB per mem_unit (V6) */
	bool ts_expected;        /* rows carry -t timestamps */
	int depth;               /* quote depth of the series' header */
	char *group;             /* group in force when the series started */
	unsigned long group_prov; /* ctx->prov_gen when group was last that */
	bool have_t0;
	double t0, last_tod, tod_offset;
	unsigned run, blank_run; /* other lines since the last row */
	/* A capture pasted again right after the last row (V4) */
	bool hdr_again;          /* a repeated header pair came since the last row */
	bool hdr_any;            /* ... or a label line alone */
	bool sb_first;           /* sample 0 was the since-boot row */
	bool first_set;          /* the series' first row (sample 0): */
	bool first_again;        /* ... a later row had its values and stamp */
	double first_t;          /* its stamp (NaN: none) */
	size_t first_k;          /* the free column's place: compared first */
	long long first_val[VM_MAXV];

	/* header tracking (V4) */
	enum prev_kind prev;
	bool group_start;        /* the last group line showed a start */
	bool group_wide;
	enum held_kind held;     /* what the dispatcher holds for us (BL_MORE) */

	/* command line (V7) */
	bool have_cmd;
	struct held cmd;
	double cmd_interval;     /* NaN when none */
	const char *cmd_unit;    /* NULL when none */
	bool cmd_no_first;
	bool cmd_disk;           /* -d/--disk: parsers/vmstatdisk.c reads the output */

	/* rows before any header (V13) */
	struct held pend[PEND_MAX];
	size_t npend;

	/* held prose (V8) */
	struct held prose[PROSE_MAX];
	size_t nprose;
	bool prose_prev;         /* the last non-blank line was held prose */
	bool heading_candidate;  /* ... and it came right before this line */

	enum nt_mode nt;
	struct bl_buf scratch;   /* the layout string */
	/* The text columns of the row being emitted (the record borrows them
	 * until it is emitted; reused row after row, so no row allocates) */
	struct bl_buf t_disks, t_cpu, t_stamp, t_zone;
	/* the row's numbers as the line wrote them (core/record.h): a copy
	 * of the line, and its digits as CSV cells */
	struct bl_digits digits;
	char rowline[1024], rowtext[1024];
	/* The row record, made again in place row after row: what stays the
	 * same while v->lay, the unit and the row's time stamp form do (the
	 * series, layout and unit, the columns the layout has not) is set
	 * when rec_ok is false or the form changes (core/record.h const_cols) */
	struct bl_record rec;
	bool rec_ok;
	/* the layout's values by column, made with rec: the token and column
	 * of each integer and each memory value (V6) */
	unsigned char int_tok[VM_MAXV], int_col[VM_MAXV], mem_tok[VM_MAXV], mem_col[VM_MAXV];
	size_t nint, nmem;
	int rec_key;             /* (since boot) << 2 | (has date) << 1 | (leading time) */
	char lname[48];          /* its layout text; the longest is 28 bytes */
	/* the last group line and label line that were headers, with what
	 * they gave (vmstat repeats its header every screenful: most header
	 * lines are the one before again) */
	/* (two of each: a log's own header and vmstat's repeats of it are
	 * often spaced apart differently, and come in turns) */
	struct hdr_memo grp_memo[2], lab_memo[2];
	bool grp_memo_wide[2];
	unsigned grp_next, lab_next;  /* the one to replace */
	struct layout lab_memo_lay[2], lab_try;
};

/* ---- small helpers ----------------------------------------------------- */

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

static bool tok_eq(const char *t, size_t l, const char *w)
{
	/* first byte first: header and prose lines test every token against
	 * every label, and most differ there */
	return l && t[0] == w[0] && strlen(w) == l && memcmp(t, w, l) == 0;
}

/* Whether t has the shape H:MM:SS or HH:MM:SS, a time of day or not. */
static bool tod_shape(const char *t, size_t l)
{
	size_t h = l - 6;
	return (l == 7 || l == 8) && t[h] == ':' && t[h + 3] == ':' && bl_all_digits(t, h) &&
	       bl_all_digits(t + h + 1, 2) && bl_all_digits(t + h + 4, 2);
}

/* H:MM:SS or HH:MM:SS → seconds of the day. */
static bool parse_tod(const char *t, size_t l, double *sec)
{
	if (!tod_shape(t, l))
		return false;
	size_t h = l - 6;
	int hh = (t[0] - '0') * (h == 2 ? 10 : 1) + (h == 2 ? t[1] - '0' : 0);
	int mm = (t[h + 1] - '0') * 10 + (t[h + 2] - '0');
	int ss = (t[h + 4] - '0') * 10 + (t[h + 5] - '0');
	if (hh > 23 || mm > 59 || ss > 60)
		return false;
	*sec = hh * 3600.0 + mm * 60.0 + ss;
	return true;
}

/* YYYY-MM-DD → days since 1970-01-01 (proleptic Gregorian, after
 * H. Hinnant's days_from_civil). */
static bool parse_date(const char *t, size_t l, double *days)
{
	if (!bl_date_shape(t, l))
		return false;
	long y = (t[0] - '0') * 1000 + (t[1] - '0') * 100 + (t[2] - '0') * 10 + (t[3] - '0');
	long m = (t[5] - '0') * 10 + (t[6] - '0');
	long d = (t[8] - '0') * 10 + (t[9] - '0');
	static const unsigned char mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1] + (m == 2 && leap))
		return false; /* 2026-02-30 is no day: never a t_s from it */
	y -= m <= 2;
	long era = (y >= 0 ? y : y - 399) / 400;
	long yoe = y - era * 400;
	long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	*days = (double)(era * 146097 + doe - 719468);
	return true;
}

static bool is_zone(const char *t, size_t l)
{
	if (l == 0 || l > 6)
		return false;
	if (t[0] == '+' || t[0] == '-')
		return l >= 3 && bl_all_digits(t + 1, l - 1);
	for (size_t i = 0; i < l; i++)
		if (!(t[i] >= 'A' && t[i] <= 'Z') && !(t[i] >= 'a' && t[i] <= 'z'))
			return false;
	return true;
}

static void held_set(struct held *h, struct bl_ctx *ctx, const struct bl_line *ln)
{
	const char *s = ln->text;
	size_t n = ln->len;
	bl_trim(&s, &n);
	h->text = bl_xstrndup(s, n);
	h->len = n;
	h->lineno = ln->lineno;
	h->depth = ln->quote_depth;
	h->group = bl_xstrdup(bl_ctx_group(ctx));
	h->group_source = bl_ctx_group_source(ctx);
}

static void held_free(struct held *h)
{
	free(h->text);
	free(h->group);
	memset(h, 0, sizeof *h);
}

static void held_line(const struct held *h, struct bl_ctx *ctx, struct bl_line *ln)
{
	ln->text = h->text;
	ln->len = h->len;
	ln->source = ctx->source;
	ln->lineno = h->lineno;
	ln->quote_depth = h->depth;
	ln->msg = ctx->msg;
}

/* ---- init -------------------------------------------------------------- */

static const char default_start_re[] =
	"\\b(?:begins?|began|starts?|started|starting)\\s+to\\s+(?:stutter|skip)"
	"|\\bstutter(?:s|ed|ing)?\\b|\\bskips\\b|\\bskipping\\b|\\bchoppy\\b|\\bjerky\\b";
static const char default_end_re[] =
	"\\bsmooth\\s+again\\b|\\bplay(?:s|ing)?\\s+fine\\b"
	"|\\bstop(?:s|ped)?\\s+(?:skipping|stuttering)\\b"
	"|\\bno\\s+longer\\s+(?:skips|skipping|stutters|stuttering)\\b"
	"|\\bis\\s+smooth\\b|\\bbec(?:ame|omes)\\s+smooth\\b|\\bback\\s+to\\s+normal\\b";

static int vm_init(void *st, struct bl_ctx *ctx, char **err)
{
	struct vmstat *v = st;
	static const char ws_args[] =
		"((?:\\s+(?:--?[A-Za-z][-A-Za-z=]*[A-Za-z0-9]?|[0-9]+(?:\\.[0-9]+)?|[kKmM]|[a-z]+[0-9][a-z0-9]*))*)";
	char *cmd = bl_xasprintf(
		"^(?:#\\s*Collection Command:\\s*"
		"|(?:\\[[^\\]]*\\]|[A-Za-z0-9_.@:~/+-]+)?[$#%%]\\s*)?"
		"(?:(?:sudo|nice|time|stdbuf\\s+-oL)\\s+)*(?:[A-Za-z0-9_./-]*/)?vmstat%s\\s*"
		"(?:(?:\\||>|&|;|2>&1).*)?$", ws_args);
	/* constant patterns (no option feeds them): a failure is a bug in a
	 * pattern or no memory, said by the first, where compiling stops */
	int rc = bl_re_compile(&v->re_cmd, cmd, 0, "vmstat command line", err);
	free(cmd);
	if (rc ||
	    bl_re_compile(&v->re_date,
		"^(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\\s+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
		"\\s+[0-9]{1,2}\\s+[0-9]{1,2}:[0-9]{2}:[0-9]{2}\\s+(?:[A-Za-z+-][A-Za-z0-9+-]*\\s+)?[0-9]{4}"
		"|[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9]{2}:[0-9]{2}:[0-9]{2}\\S*)\\s*$", 0, "vmstat date line", err) ||
	    bl_re_compile(&v->re_counters,
		"^[0-9]+\\s+(?:[KkMmB]\\s+)?(?:total memory|used memory|active memory|inactive memory"
		"|free memory|buffer memory|swap cache|total swap|used swap|free swap"
		"|non-nice user cpu ticks|nice user cpu ticks|system cpu ticks|idle cpu ticks"
		"|IO-wait cpu ticks|IRQ cpu ticks|softirq cpu ticks|stolen cpu ticks|guest cpu ticks"
		"|guest nice cpu ticks|pages paged in|pages paged out|pages swapped in"
		"|pages swapped out|interrupts|CPU context switches|boot time|forks)$",
		0, "vmstat -s line", err) ||
	    bl_re_compile(&v->re_dsum,
		"^[0-9]+\\s+(?:disks|partitions|total reads|merged reads|read sectors|milli reading"
		"|writes|merged writes|written sectors|milli writing|inprogress IO|milli spent IO"
		"|milli weighted IO)$", 0, "vmstat -D line", err) ||
	    bl_re_compile(&v->re_phead,
		"^\\S+\\s+reads\\s+read sectors\\s+writes\\s+requested writes\\b", 0, "vmstat -p header", err) ||
	    bl_re_compile(&v->re_mhead, "^Cache\\s+Num\\s+Total\\s+Size\\s+Pages\\s*$", 0,
		"vmstat -m header", err) ||
	    bl_re_compile(&v->re_notprose,
		":\\s*[-+]?\\.?[0-9]|^T?(?:PASS|FAIL|BROK|WARN|INFO|CONF)\\b|\\bmtest01\\b|bytes allocated"
		"|^(?:real|user|sys)\\s+[0-9]|^Command (?:being timed|exited|terminated|stopped)"
		"|^Averages for|^Summary:", 0, "vmstat prose filter", err) ||
	    bl_re_compile(&v->re_ender,
		"^(?:Killed|Segmentation fault|Terminated|Aborted|Bus error|Hangup|Script (?:started|done))\\b",
		0, "vmstat end of block", err) ||
	    bl_re_compile(&v->re_prompt,
		"^(?:\\[[^\\]]*\\]|[A-Za-z0-9_.-]+@[A-Za-z0-9_.:~/-]+)\\s*[$#%]|^[$%]\\s+\\S", 0,
		"vmstat shell prompt", err))
		return -BL_EFORMAT;
	const char *sre = ctx->opt.stutter_start_re, *ere = ctx->opt.stutter_end_re;
	if (bl_re_compile(&v->re_start, sre ? sre : default_start_re, sre ? 0 : BL_RE_CASELESS,
			  "--stutter-start", err) ||
	    bl_re_compile(&v->re_end, ere ? ere : default_end_re, ere ? 0 : BL_RE_CASELESS,
			  "--stutter-end", err))
		return -BL_EUSAGE;
	v->scratch = (struct bl_buf)BL_BUF_INIT(1u << 20);
	v->t_disks = (struct bl_buf)BL_BUF_INIT(1u << 20);
	v->t_cpu = (struct bl_buf)BL_BUF_INIT(1u << 20);
	v->t_stamp = (struct bl_buf)BL_BUF_INIT(1u << 26);
	v->t_zone = (struct bl_buf)BL_BUF_INIT(1u << 26);
	v->cmd_interval = NAN;
	v->ok = true;
	return 0;
}

/* ---- header lines (V1) ------------------------------------------------- */

/* A group line: words (split on blanks and dashes) all from group_words,
 * "procs" or "time" first, "memory" among them. */
static bool is_group_line(const char *s, size_t n, bool *wide)
{
	size_t i = 0, words = 0;
	bool memory = false;
	*wide = false;
	/* the first word is "procs" or "time": most lines fail here */
	size_t f = 0;
	while (f < n && (s[f] == ' ' || s[f] == '\t' || s[f] == '-'))
		f++;
	if (f == n || (s[f] != 'p' && s[f] != 't'))
		return false;
	while (i < n) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '-'))
			i++;
		if (i == n)
			break;
		size_t b = i;
		while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '-')
			i++;
		bool known = false;
		for (size_t k = 0; group_words[k]; k++)
			if (tok_eq(s + b, i - b, group_words[k]))
				known = true;
		if (i - b > 3 && memcmp(s + b, "cpu", 3) == 0 && bl_all_digits(s + b + 3, i - b - 3))
			known = true;    /* FreeBSD -P: cpu0 cpu1 */
		if (!known)
			return false;
		if (words == 0 && !tok_eq(s + b, i - b, "procs") && !tok_eq(s + b, i - b, "time"))
			return false;
		if (tok_eq(s + b, i - b, "memory")) {
			memory = true;
			/* the dash run around "memory": 27 wide normally, 35+ with -w */
			size_t lo = b, hi = i;
			while (lo > 0 && s[lo - 1] == '-')
				lo--;
			while (hi < n && s[hi] == '-')
				hi++;
			*wide = hi - lo >= 33;
		}
		words++;
	}
	return memory && words >= 3;
}

static int linux_col(const char *t, size_t l)
{
	for (size_t i = 0; i < NLINUX; i++)
		if (tok_eq(t, l, linux_labels[i].label))
			return linux_labels[i].col;
	return -1;
}

static bool bsd_disk_name(const char *t, size_t l)
{
	size_t i = 0;
	while (i < l && t[i] >= 'a' && t[i] <= 'z')
		i++;
	return i >= 1 && i < l && bl_all_digits(t + i, l - i) && l < DISK_NAME_MAX;
}

static bool parse_bsd_labels(const char **tok, const size_t *tl, size_t k, struct layout *L)
{
	static const struct { const char *label; int col; } pre[] = {
		{ "r", VM_R }, { "b", VM_B }, { "w", VM_W }, { "avm", VM_AVM }, { "fre", VM_FREE },
		{ "flt", VM_FLT }, { "re", VM_RE }, { "pi", VM_PI }, { "po", VM_PO }, { "fr", VM_FR },
		{ "sr", VM_SR },
	};
	size_t i = 0;
	unsigned seen = 0;
	memset(L, 0, sizeof *L);
	L->bsd = true;
	for (; i < k; i++) {
		int c = -1;
		for (size_t p = 0; p < sizeof pre / sizeof pre[0]; p++)
			if (tok_eq(tok[i], tl[i], pre[p].label))
				c = (int)p;
		if (c < 0)
			break;
		if (seen & (1u << c))
			return false;
		seen |= 1u << c;
		L->col[L->n++] = (short)pre[c].col;
	}
	if (!(seen & (1u << 3)) || !(seen & (1u << 4)) || !(seen & 1u))
		return false;           /* r, avm, fre */
	for (; i < k && bsd_disk_name(tok[i], tl[i]); i++) {
		if (L->n >= VM_MAXV)
			return false;
		memcpy(L->disk[L->n], tok[i], tl[i]);
		L->disk[L->n][tl[i]] = '\0';
		L->col[L->n++] = C_DISK;
	}
	static const char *const faults[] = { "in", "sy", "cs" };
	static const short fcols[] = { VM_IN, VM_SYS_CALLS, VM_CS };
	for (size_t f = 0; f < 3; f++, i++) {
		if (i >= k || !tok_eq(tok[i], tl[i], faults[f]))
			return false;
		L->col[L->n++] = fcols[f];
	}
	size_t triplets = 0;
	while (i + 3 <= k && tok_eq(tok[i], tl[i], "us") && tok_eq(tok[i + 1], tl[i + 1], "sy") &&
	       tok_eq(tok[i + 2], tl[i + 2], "id")) {
		if (L->n + 3 > VM_MAXV)
			return false;
		L->col[L->n++] = C_CPU_US;
		L->col[L->n++] = C_CPU_SY;
		L->col[L->n++] = C_CPU_ID;
		i += 3;
		triplets++;
	}
	if (i != k || triplets == 0)
		return false;
	if (triplets == 1) {        /* the usual total: into us sy id */
		L->col[L->n - 3] = VM_US;
		L->col[L->n - 2] = VM_SY;
		L->col[L->n - 1] = VM_ID;
	}
	return true;
}

/* Parse a label line into *L. */
static bool parse_labels(const char *s, size_t n, struct layout *L)
{
	/* the first label is "r" or "b": most lines fail here */
	size_t f = 0;
	while (f < n && (s[f] == ' ' || s[f] == '\t'))
		f++;
	if (n - f < 2 || (s[f] != 'r' && s[f] != 'b') || (s[f + 1] != ' ' && s[f + 1] != '\t'))
		return false;
	/* no label starts with a digit: a label line the dispatcher joined
	 * to the row after it (a wrapped header?) fails here, unsplit, its
	 * last word first (parse -t vmstat of 50 MB: 1,731 M instructions,
	 * 1,749 M reading it from the start) */
	size_t e = n;
	while (e > f && s[e - 1] != ' ' && s[e - 1] != '\t')
		e--;
	if (e < n && is_digit(s[e]))
		return false;
	for (size_t i = f + 1; i + 1 < n; i++)
		if ((s[i] == ' ' || s[i] == '\t') && is_digit(s[i + 1]))
			return false;
	const char *tok[VM_MAXV + 2];
	size_t tl[VM_MAXV + 2];
	size_t k = bl_split_blanks(s, n, tok, tl, VM_MAXV + 2);
	if (k < 6 || k > VM_MAXV + 1)
		return false;
	if (!tok_eq(tok[0], tl[0], "r") && !tok_eq(tok[0], tl[0], "b"))
		return false;
	for (size_t i = 0; i < k; i++)
		if (tok_eq(tok[i], tl[i], "avm"))
			return parse_bsd_labels(tok, tl, k, L);
	memset(L, 0, sizeof *L);
	size_t nl = k;
	int last = linux_col(tok[k - 1], tl[k - 1]);
	if (last < 0) {
		if (!is_zone(tok[k - 1], tl[k - 1]) || tl[k - 1] >= sizeof L->zone)
			return false;
		memcpy(L->zone, tok[k - 1], tl[k - 1]);
		L->zone[tl[k - 1]] = '\0';
		nl = k - 1;
	}
	if (nl > 21 || nl < 6)
		return false;
	/* procps 3.1.0: "b w swpd free buff|inact cache|active si so bi bo in cs us sy id wa" */
	if (tok_eq(tok[0], tl[0], "b")) {
		static const char *const shifted[] = { "b", "w", "swpd", "free", "*", "*", "si", "so",
			"bi", "bo", "in", "cs", "us", "sy", "id", "wa" };
		if (nl != 16)
			return false;
		bool act = tok_eq(tok[4], tl[4], "inact") && tok_eq(tok[5], tl[5], "active");
		bool buf = tok_eq(tok[4], tl[4], "buff") && tok_eq(tok[5], tl[5], "cache");
		if (!act && !buf)
			return false;
		for (size_t i = 0; i < 16; i++)
			if (shifted[i][0] != '*' && !tok_eq(tok[i], tl[i], shifted[i]))
				return false;
		static const short cols[] = { VM_R, VM_B, VM_SWPD, VM_FREE, VM_BUFF, VM_CACHE, VM_SI,
			VM_SO, VM_BI, VM_BO, VM_IN, VM_CS, VM_US, VM_SY, VM_ID, VM_WA };
		for (size_t i = 0; i < 16; i++)
			L->col[i] = cols[i];
		if (act) {
			L->col[4] = VM_INACT;
			L->col[5] = VM_ACTIVE;
		}
		L->n = 16;
		L->shifted = true;
		return true;
	}
	unsigned long long seen = 0;
	for (size_t i = 0; i < nl; i++) {
		int c = linux_col(tok[i], tl[i]);
		if (c < 0 || (seen & (1ull << c)))
			return false;
		seen |= 1ull << c;
		L->col[L->n++] = (short)c;
	}
	/* V1: every procps label line has swpd and free; one an author cut
	 * columns out of is still one with r, b and at least one memory, io
	 * and cpu label */
#define B(c) (1ull << (c))
	const unsigned long long mem = B(VM_SWPD) | B(VM_FREE) | B(VM_BUFF) | B(VM_CACHE) | B(VM_INACT) |
				       B(VM_ACTIVE);
	const unsigned long long io = B(VM_BI) | B(VM_BO);
	const unsigned long long cpu = B(VM_US) | B(VM_SY) | B(VM_ID) | B(VM_WA) | B(VM_ST) | B(VM_GU);
	bool full = (seen & B(VM_SWPD)) && (seen & B(VM_FREE)) && nl >= 12;
	bool cut = (seen & B(VM_R)) && (seen & B(VM_B)) && (seen & mem) && (seen & io) && (seen & cpu);
#undef B
	return full || cut;
}

static bool memo_hit(const struct hdr_memo *m, const char *s, size_t n)
{
	return m->n == n && memcmp(m->text, s, n) == 0;
}

static void memo_keep(struct hdr_memo *m, const char *s, size_t n)
{
	m->n = 0 < n && n <= HDR_MEMO_MAX ? n : 0;
	memcpy(m->text, s, m->n);
}

/* is_group_line() and parse_labels() through the memo: both are functions
 * of the text alone, so a line equal to the last one that passed gives
 * what it gave. *L points at the memo's layout (valid until the next
 * call). */
static bool group_line_memo(struct vmstat *v, const char *s, size_t n, bool *wide)
{
	for (unsigned i = 0; i < 2; i++) {
		if (memo_hit(&v->grp_memo[i], s, n)) {
			*wide = v->grp_memo_wide[i];
			return true;
		}
	}
	if (!is_group_line(s, n, wide))
		return false;
	unsigned k = v->grp_next;
	v->grp_next ^= 1;
	memo_keep(&v->grp_memo[k], s, n);
	v->grp_memo_wide[k] = *wide;
	return true;
}

static bool labels_memo(struct vmstat *v, const char *s, size_t n, const struct layout **L)
{
	for (unsigned i = 0; i < 2; i++) {
		if (memo_hit(&v->lab_memo[i], s, n)) {
			*L = &v->lab_memo_lay[i];
			return true;
		}
	}
	/* a line that fails (a held header joined to the next line, say)
	 * leaves the memo as it was */
	if (!parse_labels(s, n, &v->lab_try))
		return false;
	unsigned k = v->lab_next;
	v->lab_next ^= 1;
	v->lab_memo_lay[k] = v->lab_try;
	memo_keep(&v->lab_memo[k], s, n);
	*L = &v->lab_memo_lay[k];
	return true;
}

/* Is s a group line of the memo, a blank and then a label line of the
 * memo or a row (what the dispatcher joins when it asks whether a group
 * line goes on in the next line)? is_group_line() would say no to it (no
 * group word is a label or starts with a digit), reading every word. */
static bool group_then_labels(const struct vmstat *v, const char *s, size_t n)
{
	for (unsigned i = 0; i < 2; i++) {
		const struct hdr_memo *m = &v->grp_memo[i];
		if (m->n && n > m->n + 1 && s[m->n] == ' ' && memcmp(s, m->text, m->n) == 0) {
			const char *r = s + m->n + 1;
			size_t rn = n - m->n - 1;
			while (rn && (*r == ' ' || *r == '\t')) {
				r++;         /* the memos hold trimmed lines */
				rn--;
			}
			return (rn && is_digit(r[0])) || memo_hit(&v->lab_memo[0], r, rn) ||
			       memo_hit(&v->lab_memo[1], r, rn);
		}
	}
	return false;
}

static bool same_layout(const struct layout *a, const struct layout *b)
{
	if (a->n != b->n || a->bsd != b->bsd)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (a->col[i] != b->col[i] ||
		    (a->col[i] == C_DISK && strcmp(a->disk[i], b->disk[i]) != 0))
			return false;
	return true;
}

static bool lay_has(const struct layout *L, int col)
{
	for (size_t i = 0; i < L->n; i++)
		if (L->col[i] == col)
			return true;
	return false;
}

/* V1: the layout's name for the `layout` column. */
static void layout_name(struct bl_buf *b, const struct layout *L, bool ts, bool lead)
{
	bl_buf_reset(b);
	if (L->bsd)
		bl_buf_add(b, "freebsd", 7);
	else if (L->shifted)
		bl_buf_add(b, "3.1.0-shifted", 13);
	else if (!lay_has(L, VM_SWPD) || !lay_has(L, VM_FREE) || !lay_has(L, VM_SI) || !lay_has(L, VM_SO) ||
		 !lay_has(L, VM_BI) || !lay_has(L, VM_BO) || !lay_has(L, VM_IN) || !lay_has(L, VM_CS) ||
		 !lay_has(L, VM_US) || !lay_has(L, VM_SY) || !lay_has(L, VM_ID))
		bl_buf_add(b, "cut", 3);          /* V1: columns removed by the author */
	else if (lay_has(L, VM_GU))
		bl_buf_add(b, "4.x-gu", 6);
	else if (lay_has(L, VM_ST))
		bl_buf_add(b, "3.3-st", 6);
	else if (lay_has(L, VM_WA))
		bl_buf_add(b, "3.x-wa", 6);
	else if (lay_has(L, VM_W))
		bl_buf_add(b, "2.x-w", 5);
	else
		bl_buf_add(b, "other", 5);
	if (lay_has(L, VM_INACT))
		bl_buf_add(b, " -a", 3);
	if (L->wide)
		bl_buf_add(b, " -w", 3);
	if (ts)
		bl_buf_add(b, " -t", 3);
	if (lead)
		bl_buf_add(b, " +time", 6);
}

/* ---- command line (V6, V7) --------------------------------------------- */

static void parse_cmd_args(struct vmstat *v, const char *a, size_t n)
{
	const char *tok[64];
	size_t tl[64];
	size_t k = bl_split_blanks(a, n, tok, tl, 64);
	if (k > 64)
		k = 64;
	v->cmd_interval = NAN;
	v->cmd_unit = NULL;
	v->cmd_no_first = false;
	v->cmd_disk = false;
	int positional = 0;
	for (size_t i = 0; i < k; i++) {
		const char *t = tok[i];
		size_t l = tl[i];
		char unit = 0;
		if (l >= 2 && t[0] == '-' && t[1] == '-') {
			if (bl_startswith(t, l, "--unit=") && l == 8)
				unit = t[7];
			else if (tok_eq(t, l, "--unit") && i + 1 < k && tl[i + 1] == 1)
				unit = tok[++i][0];
			else if (tok_eq(t, l, "--no-first"))
				v->cmd_no_first = true;
			else if (tok_eq(t, l, "--disk"))
				v->cmd_disk = true;
		} else if (l >= 2 && t[0] == '-') {
			for (size_t j = 1; j < l; j++) {
				if (t[j] == 'y')
					v->cmd_no_first = true;
				if (t[j] == 'd')
					v->cmd_disk = true;
				if (t[j] == 'S') {
					if (j + 1 < l)
						unit = t[j + 1];
					else if (i + 1 < k && tl[i + 1] == 1)
						unit = tok[++i][0];
					break;
				}
				if (t[j] == 'p' || t[j] == 'c') { /* takes an argument */
					if (j + 1 == l && i + 1 < k)
						i++;
					break;
				}
			}
		} else if (bl_all_digits(t, l) || (l > 1 && is_digit(t[0]))) {
			double d;
			if (positional == 0 && bl_parse_double(t, l, &d) == 0 && d > 0)
				v->cmd_interval = d;
			positional++;
		}
		switch (unit) {
		case 'k': v->cmd_unit = "kB"; break;
		case 'K': v->cmd_unit = "KiB"; break;
		case 'm': v->cmd_unit = "MB"; break;
		case 'M': v->cmd_unit = "MiB"; break;
		default: break;
		}
	}
}

/* V7: the output of a held `vmstat -d` command, which parsers/vmstatdisk.c
 * reads: its group line or its label line. */
static bool disk_output(const struct vmstat *v, const char *s, size_t n)
{
	return v->have_cmd && v->cmd_disk &&
	       (bl_startswith(s, n, "disk-") || bl_contains(s, n, "total merged sectors", 20));
}

static void cmd_drop(struct vmstat *v, struct bl_ctx *ctx, bool confirmed)
{
	if (!v->have_cmd)
		return;
	if (!confirmed) {
		struct bl_line ln;
		held_line(&v->cmd, ctx, &ln);
		bl_unuse(ctx, &ln, "vmstat command without output after it");
	}
	held_free(&v->cmd);
	v->have_cmd = false;
}

/* ---- series and events (V3, V8) ---------------------------------------- */

/* Held prose given back is text after the series: it ends the block of
 * records (core/block.h B1) as the dispatcher's text lines do. */
static void prose_give_back(struct vmstat *v, struct bl_ctx *ctx)
{
	if (v->nprose)
		bl_block_end(ctx);
	for (size_t i = 0; i < v->nprose; i++) {
		struct bl_line ln;
		held_line(&v->prose[i], ctx, &ln);
		bl_unuse(ctx, &ln, "text after a vmstat table (no row followed)");
		held_free(&v->prose[i]);
	}
	v->nprose = 0;
}

static void series_end(struct vmstat *v, struct bl_ctx *ctx)
{
	prose_give_back(v, ctx);
	v->in_series = false;
	v->run = v->blank_run = 0;
	free(v->group);
	v->group = NULL;
}

static const char *cur_group(const struct bl_ctx *ctx)
{
	return ctx->opt.group ? ctx->opt.group : (ctx->group ? ctx->group : "");
}

/* V3: the group changed under an open series (a label the dispatcher
 * found, --group-regex). */
static inline bool group_changed(struct vmstat *v, const struct bl_ctx *ctx)
{
	/* ctx->prov_gen moves with every change of the group (and unit);
	 * inline, so a row whose group did not move makes no call: parse -t
	 * vmstat of 10 MB 340.4 M instructions, 340.2 M with this first
	 * test copied before the call */
	if (!v->in_series || !v->group || v->group_prov == ctx->prov_gen)
		return false;
	if (strcmp(v->group, cur_group(ctx)) != 0)
		return true;
	v->group_prov = ctx->prov_gen;
	return false;
}

/* V8: a short heading held as prose right before a header is a group
 * label (the dispatcher's rule L4, which cannot see lines we hold). */
static void heading_before_header(struct vmstat *v, struct bl_ctx *ctx)
{
	if (!v->heading_candidate || v->nprose == 0)
		return;
	struct held *h = &v->prose[v->nprose - 1];
	if (!bl_dispatch_is_heading(h->text, h->len))
		return;
	char *label = h->text;
	size_t len = h->len;
	h->text = NULL;
	held_free(h);
	v->nprose--;
	series_end(v, ctx);             /* other held lines are given back */
	bl_block_end(ctx);              /* a label ends a block (B1) */
	bl_set_group(ctx, label, len);  /* the line stays used, as a label */
	free(label);
	v->heading_candidate = false;
}

static const char *event_kind(struct vmstat *v, const char *s, size_t n)
{
	if (bl_re_match(&v->re_end, s, n) == 1)
		return "stutter_end";
	if (bl_re_match(&v->re_start, s, n) == 1)
		return "stutter_start";
	return "note";
}

static int emit_events(struct vmstat *v, struct bl_ctx *ctx)
{
	int rc = 0;
	for (size_t i = 0; i < v->nprose; i++) {
		struct held *h = &v->prose[i];
		struct bl_line ln;
		held_line(h, ctx, &ln);
		struct bl_record r;
		bl_record_init(&r, &bl_table_events, &ln);
		bl_set_int(&r, EV_SERIES, v->series);
		bl_set_int(&r, EV_SAMPLE, v->sample);
		bl_set_str(&r, EV_TEXT, h->text);
		bl_set_str(&r, EV_KIND, event_kind(v, h->text, h->len));
		r.group = h->group;
		r.group_source = h->group_source;
		if (!rc)
			rc = bl_emit(ctx, &r);
		held_free(h);
	}
	v->nprose = 0;
	return rc;
}

static double kib_per_unit(const char *u)
{
	if (strcmp(u, "MiB") == 0)
		return 1024.0;
	if (strcmp(u, "MB") == 0)
		return 1e6 / 1024.0;
	if (strcmp(u, "kB") == 0)
		return 1000.0 / 1024.0;
	return 1.0;
}

static void series_start(struct vmstat *v, struct bl_ctx *ctx, const struct layout *L, bool start)
{
	series_end(v, ctx);
	bl_block_end(ctx);              /* a new capture ends a block (B1) */
	v->in_series = true;
	v->lay = *L;
	v->rec_ok = false;
	v->series = ++ctx->vmstat_series;   /* across passes: unique in the run */
	v->sample = 0;
	v->expect_since_boot = start && !(v->have_cmd && v->cmd_no_first);
	if (ctx->opt.interval_given || !v->have_cmd || isnan(v->cmd_interval))
		v->interval_s = ctx->opt.interval_s > 0 ? ctx->opt.interval_s : 1.0;
	else
		v->interval_s = v->cmd_interval;
	v->mem_unit = v->have_cmd && v->cmd_unit && !L->bsd ? v->cmd_unit : "KiB";
	v->kib = kib_per_unit(v->mem_unit);
	free(v->group);
	v->group = bl_xstrdup(cur_group(ctx));
	v->group_prov = ctx->prov_gen;
	v->ts_expected = L->zone[0] != '\0';
	v->have_t0 = false;
	v->tod_offset = 0;
	v->run = v->blank_run = 0;
	v->hdr_again = v->hdr_any = v->sb_first = v->first_set = v->first_again = false;
}

/* V4: a new series with the open one's layout, quote depth, interval and
 * unit (its command line, if any, was used up by its header): the same
 * capture pasted again right after it. */
static void series_again(struct vmstat *v, struct bl_ctx *ctx, bool since_boot)
{
	struct layout same = v->lay;
	int depth = v->depth;
	double interval = v->interval_s;
	const char *unit = v->mem_unit;
	bool ts = v->ts_expected;
	series_start(v, ctx, &same, false);
	v->depth = depth;
	v->interval_s = interval;
	v->mem_unit = unit;
	v->kib = kib_per_unit(unit);
	v->ts_expected = ts;
	v->expect_since_boot = since_boot;
}

/* ---- rows (V2) --------------------------------------------------------- */

struct row {
	long long val[VM_MAXV];
	/* the line whose digits the plain path read (NULL otherwise), and
	 * where each value's canonical digits are (bl_scan_uints) */
	const char *text;
	unsigned short at[VM_MAXV];
	unsigned char nd[VM_MAXV];
	bool whole;              /* no nd[] is 0 */
	size_t nrows;            /* 1, or k for glued rows */
	const char *ts, *tz;     /* into the line; NULL when absent */
	size_t tsl, tzl;
	const char *date;        /* start of "date time" */
	size_t datel;
	bool lead;               /* leading time of day */
	double t_abs;            /* seconds (day-based), NaN when no stamp */
};

enum row_res { ROW_OK, ROW_SHORT, ROW_LONG, ROW_BAD, ROW_STAMP, ROW_NOT };

/* FreeBSD humanized number → KiB ("514M", "7.0G", "1234K", "512"). */
static bool parse_human_kib(const char *t, size_t l, long long *out)
{
	if (l == 0)
		return false;
	double mul = 1;
	switch (t[l - 1]) {
	case 'K': mul = 1; l--; break;
	case 'M': mul = 1024; l--; break;
	case 'G': mul = 1024.0 * 1024; l--; break;
	case 'T': mul = 1024.0 * 1024 * 1024; l--; break;
	default: break;
	}
	double d;
	if (l == 0 || !is_digit(t[0]) || bl_parse_double(t, l, &d) || d < 0 || d * mul > BL_INT_MAX)
		return false;
	*out = llround(d * mul);
	return true;
}

static bool numberish(const char *t, size_t l)
{
	for (size_t i = 0; i < l; i++)
		if (!is_digit(t[i]) && t[i] != ':' && t[i] != '-' && t[i] != '.' && t[i] != '+')
			return false;
	return l > 0;
}

static bool mem_fits(const struct vmstat *v, int col, long long x);

/* The common row in one pass: only digits and blanks, exactly want
 * numbers of at most 15 digits each (parse_row's general path reads such a
 * line to the same values; this is the hot path of a vmstat log), read
 * in place when the line has room after it (BL_F_PADDED in flags), else
 * from a copy with room, their digits written as CSV cells into
 * R->text, which the writers copy (core/record.h), with BL_SCAN_COPY
 * bytes of room after them. */
static bool plain_row(struct vmstat *v, const char *s, size_t n, size_t want, unsigned flags, struct row *R)
{
	_Static_assert(BL_LINE_PAD >= BL_SCAN_ROOM, "a padded line has room for the scanner");
	R->text = NULL;
	if (n + 1 + BL_SCAN_ROOM + BL_SCAN_COPY > sizeof v->rowtext)
		return false;
	/* in place: parse -t vmstat of 50 MB 0.126 s of processor time, 0.136 s copied */
	if (!(flags & BL_F_PADDED)) {
		memcpy(v->rowline, s, n);
		memset(v->rowline + n, 0, BL_SCAN_ROOM);
		s = v->rowline;
	}
	if (bl_scan_uints(s, n, R->val, R->at, R->nd, want, v->rowtext, &R->whole) != (long)want)
		return false;
	for (size_t i = 0; v->kib > 1 && i < want; i++)
		if (!mem_fits(v, v->lay.col[i], R->val[i]))
			return false;      /* said by the general path */
	R->text = v->rowtext;
	return true;
}

/* Why a row's value bad[0..l) was refused (parse_row's ROW_BAD). */
static const char *bad_why(const char *bad, size_t l)
{
	long long x;
	if (l > 1 && memchr("KMGT", bad[l - 1], 4) && is_digit(bad[0]))
		l--;            /* FreeBSD's "514M" */
	if (!bl_all_digits(bad, l))
		return "is not a number";
	return bl_parse_ll(bad, l, &x) ? "has more than 15 digits" : "is 10^15 KiB or more";
}

/* s, n: a line given with flags (BL_F_LAST, BL_F_PADDED). */
static enum row_res parse_row(struct vmstat *v, const char *s, size_t n, unsigned flags, struct row *R,
			      const char **bad, size_t *badl, size_t *nfields)
{
	bool last = flags & BL_F_LAST;
	const struct layout *L = &v->lay;
	/* all but val[], which a row that parses fills as far as it is read */
	R->nrows = 0;
	R->ts = R->tz = R->date = NULL;
	R->tsl = R->tzl = R->datel = 0;
	R->lead = false;
	R->t_abs = NAN;
	if (!L->bsd && !v->ts_expected && L->n > 0 && plain_row(v, s, n, L->n, flags, R)) {
		R->nrows = 1;
		*nfields = L->n;
		return ROW_OK;
	}
	R->text = NULL;
	const char *tok[VM_MAXTOK];
	size_t tl[VM_MAXTOK];
	size_t k = bl_split_blanks(s, n, tok, tl, VM_MAXTOK);
	*nfields = k;
	if (k == 0 || !is_digit(tok[0][0]))
		return ROW_NOT;
	if (k > VM_MAXTOK)
		return ROW_LONG;
	double tod = 0;
	size_t lead = 0;
	if (parse_tod(tok[0], tl[0], &tod))
		lead = 1;
	size_t rest = k - lead, ts = 0;
	double days = 0, sec = 0;
	if (rest >= L->n + 2 && parse_date(tok[lead + L->n], tl[lead + L->n], &days) &&
	    parse_tod(tok[lead + L->n + 1], tl[lead + L->n + 1], &sec)) {
		ts = 2;
		if (rest == L->n + 3 && is_zone(tok[lead + L->n + 2], tl[lead + L->n + 2]))
			ts = 3;
	}
	/* a date and a time by their shape where the stamp goes, but no day
	 * or time of day (2026-02-30, 25:99:99): the stamp is what is wrong */
	if (!ts && rest >= L->n + 2 && bl_date_shape(tok[lead + L->n], tl[lead + L->n]) &&
	    tod_shape(tok[lead + L->n + 1], tl[lead + L->n + 1])) {
		*bad = tok[lead + L->n];
		*badl = (size_t)(tok[lead + L->n + 1] + tl[lead + L->n + 1] - *bad);
		return ROW_STAMP;
	}
	size_t nv = rest - ts;
	*nfields = nv;
	/* Short: the first part of a wrapped row; with -t the stamp may be
	 * what went to the next line. */
	if (nv < L->n || (nv == L->n && ts == 0 && v->ts_expected && !lead && !last)) {
		for (size_t i = 0; i < k; i++)
			if (!numberish(tok[i], tl[i]) && !(i + 1 == k && is_zone(tok[i], tl[i])))
				return ROW_BAD;
		return ROW_SHORT;
	}
	R->nrows = 1;
	if (nv > L->n) {
		if (ts || lead || L->n == 0 || nv % L->n != 0)
			return ROW_LONG;
		R->nrows = nv / L->n;
		if (R->nrows * L->n > VM_MAXV)
			return ROW_LONG;
	}
	for (size_t i = 0; i < nv; i++) {
		const char *t = tok[lead + i];
		size_t l = tl[lead + i];
		int col = L->col[i % L->n];
		bool ok;
		if (L->bsd && (col == VM_AVM || col == VM_FREE))
			ok = parse_human_kib(t, l, &R->val[i]);
		else
			ok = bl_all_digits(t, l) && bl_parse_ll(t, l, &R->val[i]) == 0 && mem_fits(v, col, R->val[i]);
		if (!ok) {
			*bad = t;
			*badl = l;
			return ROW_BAD;
		}
	}
	if (lead) {
		R->lead = true;
		R->ts = tok[0];
		R->tsl = tl[0];
		R->t_abs = tod;
	}
	if (ts) {
		R->date = tok[lead + nv];
		R->datel = (size_t)(tok[lead + nv + 1] + tl[lead + nv + 1] - R->date);
		R->t_abs = days * 86400.0 + sec;
		if (ts == 3) {
			R->tz = tok[lead + nv + 2];
			R->tzl = tl[lead + nv + 2];
		}
	}
	return ROW_OK;
}

/* V6: the columns written in KiB (KiB/s for si, so). */
#define MEMORY_COLS (1ull << VM_SWPD | 1ull << VM_FREE | 1ull << VM_BUFF | 1ull << VM_CACHE | \
		     1ull << VM_INACT | 1ull << VM_ACTIVE | 1ull << VM_SI | 1ull << VM_SO)
static bool is_memory_col(int c)
{
	return c < 64 && (MEMORY_COLS >> c & 1);
}

/* Memory in KiB (V6) below BL_INT_MAX, as every value (-S M: x 1024). */
static bool mem_fits(const struct vmstat *v, int col, long long x)
{
	return !is_memory_col(col) || (double)x * v->kib <= BL_INT_MAX;
}

/* v->rec's constant part for rows with or without a date and a leading
 * time, since boot or not, with a new const_gen: made again only when the
 * form (and so the layout's name), since_boot or v->rec_ok changes
 * (tables/table.c's struct plan: parse -t vmstat of 50 MB 0.213 s of
 * processor time, 0.242 s a record made and written cell by cell per row;
 * since_boot among the constant cells: 1,810 M instructions, 1,768 M). */
static void rec_start(struct vmstat *v, const struct bl_line *ln, int key)
{
	struct bl_record *r = &v->rec;
	struct bl_buf *sb = &v->scratch;
	layout_name(sb, &v->lay, key >> 1 & 1, key & 1);
	size_t lnl = sb->len < sizeof v->lname ? sb->len : sizeof v->lname - 1;
	unsigned long long vary = 1ull << VM_SAMPLE | 1ull << VM_T_S;
	/* stamped rows; the others have none (161 ms for 50 MB, 165 ms per row) */
	if (key & 3)
		vary |= 1ull << VM_TIMESTAMP | 1ull << VM_TZ;
	if (v->lay.bsd)
		vary |= 1ull << VM_DISKS | 1ull << VM_PER_CPU;
	for (size_t i = 0; i < v->lay.n; i++)
		if (v->lay.col[i] < VM_NCOLS)
			vary |= 1ull << v->lay.col[i];
	memcpy(v->lname, sb->data, lnl);
	v->lname[lnl] = '\0';
	bl_buf_reset(sb);
	v->rec_ok = true;
	v->rec_key = key;
	bl_record_init(r, &bl_table_vmstat, ln);
	bl_set_int(r, VM_SERIES, v->series);
	bl_set_str(r, VM_LAYOUT, v->lname);
	bl_set_str(r, VM_MEM_UNIT, v->mem_unit);
	bl_set_int(r, VM_SINCE_BOOT, key >> 2);
	r->const_gen = bl_gen_new();
	r->const_cols = ((1ull << VM_NCOLS) - 1) & ~vary;
	v->nint = v->nmem = 0;
	memset(v->digits.tok, BL_NO_TOKEN, sizeof v->digits.tok);
	v->digits.gen = bl_gen_new();
	for (size_t i = 0; i < v->lay.n; i++) {
		int c = v->lay.col[i];
		if (c >= VM_NCOLS)
			continue;
		bool mem = is_memory_col(c);
		r->v[c].t = mem ? BL_NUM : BL_INT;
		size_t k = mem ? v->nmem++ : v->nint++;
		(mem ? v->mem_tok : v->int_tok)[k] = (unsigned char)i;
		(mem ? v->mem_col : v->int_col)[k] = (unsigned char)c;
		if (!mem || v->kib == 1.0)     /* x KiB is written as x */
			v->digits.tok[c] = (unsigned char)i;
	}
}

/* The row's numbers (from val[off]) into r, memory in KiB (V6), by
 * the columns rec_start() listed, and where the line wrote them
 * (core/record.h; parse -t vmstat of 50 MB: 0.208 s of processor time,
 * 0.247 s turning every number into text again). */
static void row_values(struct vmstat *v, struct bl_record *r, const struct row *R, size_t off)
{
	const long long *val = R->val + off;
	for (size_t k = 0; k < v->nint; k++)
		r->v[v->int_col[k]].u.i = val[v->int_tok[k]];
	for (size_t k = 0; k < v->nmem; k++)
		r->v[v->mem_col[k]].u.d = (double)val[v->mem_tok[k]] * v->kib;
	if (R->text) {
		struct bl_digits *dg = &v->digits;
		r->digits = dg;
		dg->text = R->text;
		dg->at = R->at + off;
		dg->nd = R->nd + off;
		dg->whole = R->whole;
	}
}

/* FreeBSD's disks and per-CPU values (from val[off]) as r's text columns,
 * in buffers of the parser's, filled in full before any pointer is taken
 * (an add may move the data). */
static void bsd_texts(struct vmstat *v, struct bl_record *r, const struct row *R, size_t off)
{
	const struct layout *L = &v->lay;
	size_t ndisk = 0, ncpu = 0;
	struct bl_buf *db = &v->t_disks, *cb = &v->t_cpu;
	bl_buf_reset(db);
	bl_buf_reset(cb);
	for (size_t i = 0; i < L->n; i++) {
		int c = L->col[i];
		long long x = R->val[off + i];
		if (c == C_DISK)
			bl_buf_addf(db, "%s%s=%lld", ndisk++ ? " " : "", L->disk[i], x);
		else if (c == C_CPU_US)
			bl_buf_addf(cb, "%s%lld", ncpu++ ? " " : "", x);
		else if (c == C_CPU_SY || c == C_CPU_ID)
			bl_buf_addf(cb, "/%lld", x);
	}
	if (ndisk)
		bl_set_str(r, VM_DISKS, bl_buf_str(db));
	if (ncpu)
		bl_set_str(r, VM_PER_CPU, bl_buf_str(cb));
}

static int emit_row(struct vmstat *v, struct bl_ctx *ctx, const struct bl_line *ln,
		    struct row *R, size_t part, bool since_boot)
{
	const struct layout *L = &v->lay;
	struct bl_record *r = &v->rec;
	int key = since_boot << 2 | (R->date != NULL) << 1 | R->lead;
	if (!v->rec_ok || v->rec_key != key)
		rec_start(v, ln, key);
	bl_record_at(r, ln);
	bl_set_int(r, VM_SAMPLE, v->sample);
	double t;
	if (!isnan(R->t_abs) && part == 0) {
		double ta = R->t_abs;
		if (R->lead && !R->date) {
			if (v->have_t0 && ta + v->tod_offset < v->last_tod - 43200)
				v->tod_offset += 86400;     /* past midnight */
			ta += v->tod_offset;
			v->last_tod = ta;
		}
		if (!v->have_t0) {
			v->t0 = ta;
			v->have_t0 = true;
		}
		t = ta - v->t0;
	} else {
		t = (double)v->sample * v->interval_s;
	}
	bl_set_num(r, VM_T_S, t);
	row_values(v, r, R, part * L->n);
	r->v[VM_DISKS].t = r->v[VM_PER_CPU].t = r->v[VM_TIMESTAMP].t = r->v[VM_TZ].t = BL_NULL;
	if (L->bsd)
		bsd_texts(v, r, R, part * L->n);
	struct bl_buf *tb = &v->t_stamp, *zb = &v->t_zone;
	if (R->date || R->lead) {
		bl_buf_reset(tb);
		if (R->date)
			bl_buf_add(tb, R->date, R->datel);
		else
			bl_buf_add(tb, R->ts, R->tsl);
		bl_set_str(r, VM_TIMESTAMP, bl_buf_str(tb));
	}
	if (R->tz || (R->date && v->lay.zone[0])) {
		bl_buf_reset(zb);
		if (R->tz)
			bl_buf_add(zb, R->tz, R->tzl);
		else
			bl_buf_add(zb, v->lay.zone, strlen(v->lay.zone));
		bl_set_str(r, VM_TZ, bl_buf_str(zb));
	}
	return bl_emit(ctx, r);
}

/* The row's time stamp as emit_row() will place it (V5: a time of day
 * alone runs on past midnight), without moving the day; NaN when none. */
static double row_time(const struct vmstat *v, const struct row *R)
{
	double ta = R->t_abs;
	if (isnan(ta) || !R->lead || R->date)
		return ta;
	double off = v->tod_offset;
	if (v->have_t0 && ta + off < v->last_tod - 43200)
		off += 86400;
	return ta + off;
}

/* V4: the row is the series' first row again: the same values and the
 * same time stamp (or none in both). The values are compared from the
 * free memory column on, which differs from row to row in all but idle
 * captures. */
static bool first_row_again(const struct vmstat *v, struct row *R)
{
	if (!v->first_set || R->nrows != 1)
		return false;
	/* Without stamps, only a since-boot row (averages since boot, unlike
	 * the samples after it) is evidence enough. */
	if (isnan(v->first_t) && !v->sb_first)
		return false;
	double t = row_time(v, R);
	if (isnan(t) != isnan(v->first_t) || (!isnan(t) && t != v->first_t))
		return false;
	size_t n = v->lay.n, k = v->first_k;
	for (size_t i = 0; i < n; i++) {
		size_t c = (k + i) % n;
		if (R->val[c] != v->first_val[c])
			return false;
	}
	return true;
}

/* Take a complete row line: events first, then the row(s). */
static enum bl_verdict take_row(struct vmstat *v, struct bl_ctx *ctx, const struct bl_line *ln,
				struct row *R)
{
	if (R->date)
		v->ts_expected = true;
	/* V4: a header inside a series is vmstat's own repetition, unless
	 * the row under it shows that the whole capture came again: it is
	 * the series' first row again, values and time stamp, and no row of
	 * the series before was (an idle machine's rows are all alike: there
	 * a header repeat proves nothing). */
	bool again = v->hdr_again, any = v->hdr_any;
	v->hdr_again = v->hdr_any = false;
	/* A date and time stamp is proof on its own: the same row, stamp and
	 * values, after any header (a label line alone too), is a re-paste
	 * however the rows between looked. */
	bool dated = R->date != NULL;
	/* the free memory value first, here: it differs from the first row's
	 * in nearly every row, and this runs for every row */
	if (v->first_set && v->sample > 0 && (dated || !v->first_again) &&
	    R->val[v->first_k] == v->first_val[v->first_k] && first_row_again(v, R)) {
		if (dated ? any : again)
			series_again(v, ctx, v->sb_first);
		else if (!any)
			v->first_again = true;  /* among plain rows: an idle machine */
	}
	enum bl_verdict verdict = BL_USED;
	for (size_t part = 0; part < R->nrows; part++) {
		/* no call a row (with ls_deliver() inline, parse -t vmstat
		 * of 20 MB: 781 M instructions, 788 M) */
		if (v->nprose)
			emit_events(v, ctx);
		bool sb = v->expect_since_boot && v->sample == 0;
		v->expect_since_boot = false;
		if (sb)
			v->sb_first = true;
		if (v->sample == 0 && part == 0 && R->nrows == 1) {
			v->first_set = true;
			v->first_again = false;
			v->first_t = row_time(v, R);
			memcpy(v->first_val, R->val, v->lay.n * sizeof *v->first_val);
			v->first_k = 0;
			for (size_t i = 0; i < v->lay.n; i++)
				if (v->lay.col[i] == VM_FREE)
					v->first_k = i;
		}
		if (sb && ctx->opt.since_boot == BL_SB_DROP) {
			if (R->nrows == 1) {
				ctx->skip_reason = "vmstat since-boot average (--since-boot drop)";
				verdict = BL_SKIP;
			}
		} else {
			emit_row(v, ctx, ln, R, part, sb);
		}
		v->sample++;
	}
	v->prev = PREV_ROW;
	v->run = v->blank_run = 0;
	return verdict;
}

/* ---- rows before their header (V13) ------------------------------------ */

/* A Linux vmstat row's shape: 12..21 whole numbers, maybe a -t date and time. */
static bool row_shape(const char *s, size_t n)
{
	const char *tok[24];
	size_t tl[24];
	size_t k = bl_split_blanks(s, n, tok, tl, 24);
	double d, t;
	if (k > 24)
		return false;
	if (k >= 14 && parse_date(tok[k - 2], tl[k - 2], &d) && parse_tod(tok[k - 1], tl[k - 1], &t))
		k -= 2;
	if (k < 12 || k > 21)
		return false;
	for (size_t i = 0; i < k; i++)
		if (!bl_all_digits(tok[i], tl[i]))
			return false;
	/* the cpu columns end the row (us sy id [wa [st [gu]]]): percentages
	 * of one whole, rounded each, so the last 3 to 6 add up to about 100 */
	long sum = 0;
	for (size_t i = 1; i <= 6; i++) {
		long long x;
		if (bl_parse_ll(tok[k - i], tl[k - i], &x) || x > 100)
			return false;
		sum += (long)x;
		if (i >= 3 && sum >= 97 && sum <= 103)
			return true;
	}
	return false;
}

/* Give the first `upto` held rows back: no header gave their layout. */
static void pend_give_back(struct vmstat *v, struct bl_ctx *ctx, size_t upto)
{
	for (size_t i = 0; i < upto; i++) {
		struct bl_line ln;
		held_line(&v->pend[i], ctx, &ln);
		bl_unuse(ctx, &ln, "vmstat row before any header");
		held_free(&v->pend[i]);
	}
	memmove(v->pend, v->pend + upto, (v->npend - upto) * sizeof *v->pend);
	memset(v->pend + v->npend - upto, 0, upto * sizeof *v->pend);
	v->npend -= upto;
}

/* The header came: read the held rows with its layout, as the series'
 * first samples, each with its own line. */
static void pend_replay(struct vmstat *v, struct bl_ctx *ctx)
{
	for (size_t i = 0; i < v->npend; i++) {
		struct bl_line ln;
		held_line(&v->pend[i], ctx, &ln);
		struct row R;
		const char *bad = NULL;
		size_t badl = 0, nf;
		if (parse_row(v, ln.text, ln.len, 0, &R, &bad, &badl, &nf) == ROW_OK && R.nrows == 1)
			take_row(v, ctx, &ln, &R);
		else
			bl_unuse(ctx, &ln, "vmstat row before any header");
		held_free(&v->pend[i]);
	}
	v->npend = 0;
}

/* ---- non-table modes (V10) --------------------------------------------- */

static bool nt_row(struct vmstat *v, const char *s, size_t n)
{
	const char *tok[16];
	size_t tl[16];
	size_t k = bl_split_blanks(s, n, tok, tl, 16);
	size_t first = v->nt == NT_PART ? 0 : 1;
	size_t want = 4;
	if (k > 16 || k < first + want)
		return false;
	if (first && !is_alpha(tok[0][0]))
		return false;
	for (size_t i = first; i < first + want; i++)
		if (!bl_all_digits(tok[i], tl[i]))
			return false;
	size_t extra = k - first - want;
	double d, t;
	return extra == 0 || (extra == 2 && parse_date(tok[k - 2], tl[k - 2], &d) &&
			      parse_tod(tok[k - 1], tl[k - 1], &t));
}

static enum bl_verdict nontable(struct vmstat *v, struct bl_ctx *ctx, const char *s, size_t n)
{
	const char *reason = NULL;
	if (v->nt != NT_NONE && nt_row(v, s, n)) {
		reason = v->nt == NT_PART ? "vmstat -p partition table (not the sample table)"
		       : "vmstat -m slab table (not the sample table)";
	} else if (is_digit(s[0]) && bl_re_match(&v->re_counters, s, n) == 1) {
		reason = "vmstat -s/-f counters (not the sample table)";
		v->nt = NT_NONE;
	} else if (is_digit(s[0]) && bl_re_match(&v->re_dsum, s, n) == 1) {
		reason = "vmstat -D disk summary (not the sample table)";
		v->nt = NT_NONE;
	} else if (bl_contains(s, n, "read sectors", 12) && bl_re_match(&v->re_phead, s, n) == 1) {
		reason = "vmstat -p partition table (not the sample table)";
		v->nt = NT_PART;
	} else if (bl_startswith(s, n, "Cache") && bl_re_match(&v->re_mhead, s, n) == 1) {
		reason = "vmstat -m slab table (not the sample table)";
		v->nt = NT_SLAB;
	} else {
		v->nt = NT_NONE;
		return BL_NO;
	}
	if (v->in_series)
		series_end(v, ctx);
	cmd_drop(v, ctx, true);
	v->prev = PREV_OTHER;
	ctx->skip_reason = reason;
	return BL_SKIP;
}

/* ---- prose (V9) -------------------------------------------------------- */

static bool is_prose(struct vmstat *v, const char *s, size_t n)
{
	if (n < 2)
		return false;
	unsigned char c0 = (unsigned char)s[0];
	bool digit_first = is_digit(s[0]);
	if (!(is_alpha(s[0]) || c0 >= 0x80 || digit_first || s[0] == '(' || s[0] == '[' ||
	      s[0] == '"' || s[0] == '\'' || s[0] == '*'))
		return false;
	size_t letters = 0, words3 = 0, run = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (is_alpha(s[i]) || c >= 0x80) {
			letters++;
			if (++run == 3)
				words3++;
		} else {
			run = 0;
		}
		if (c == '{' || c == '}' || c == '$' || c == '`' || c == '\\')
			return false;
	}
	if (letters < 2 || s[n - 1] == ';' || (digit_first && words3 < 2))
		return false;
	return bl_re_match(&v->re_notprose, s, n) != 1;
}

/* ---- the line handler -------------------------------------------------- */

/* "#####", "=====", "-----": a banner rule between a command and its
 * output (ExaWatcher) does not cancel the command. */
static bool is_rule_line(const char *s, size_t n)
{
	if (n < 3)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] != '#' && s[i] != '=' && s[i] != '-' && s[i] != '*')
			return false;
	return true;
}

/* Another kind of text while a series is open: count it (V3). */
static void other_text(struct vmstat *v, struct bl_ctx *ctx)
{
	if (!v->in_series)
		return;
	if (++v->run >= PROSE_MAX)
		series_end(v, ctx);
}

static enum bl_verdict header_line(struct vmstat *v, struct bl_ctx *ctx, const struct bl_line *ln,
				   unsigned flags, bool group, const struct layout *L, bool wide)
{
	if (!(flags & BL_F_LAST)) {
		v->held = group ? HK_GROUP : HK_LABEL;
		return BL_MORE;
	}
	v->held = HK_NONE;
	v->nt = NT_NONE;
	heading_before_header(v, ctx);
	if (group) {
		v->group_start = v->prev == PREV_START || v->prev == PREV_BLANK ||
				 v->prev == PREV_CMD || v->prev == PREV_DATE;
		v->group_wide = wide;
		v->prev = PREV_GROUP;
		return BL_USED;
	}
	struct layout nl = *L;
	bool pair = v->prev == PREV_GROUP;
	bool start = pair && v->group_start;
	nl.wide = pair && v->group_wide;
	if (v->in_series && !start && same_layout(&v->lay, &nl) && v->depth == ln->quote_depth &&
	    !group_changed(v, ctx)) {
		/* the rows' record stays unless the layout's name moves
		 * (parse -t vmstat of 20 MB: 825 M instructions, 844 M making
		 * it again at every repeated header) */
		if (nl.wide && !v->lay.wide)
			v->rec_ok = false;
		v->lay.wide = v->lay.wide || nl.wide;
		if (nl.zone[0])
			memcpy(v->lay.zone, nl.zone, sizeof nl.zone);
		v->run = v->blank_run = 0;          /* a repeated header */
		v->hdr_again = pair;                /* a label line alone: no re-paste, */
		v->hdr_any = true;                  /* ... unless the row has a date */
	} else {
		bool replay = v->npend && v->pend[0].depth == ln->quote_depth;
		if (v->npend && !replay)
			pend_give_back(v, ctx, v->npend);
		series_start(v, ctx, &nl, start && !replay);
		v->depth = ln->quote_depth;
		if (replay)
			pend_replay(v, ctx);   /* V13 */
	}
	cmd_drop(v, ctx, true);
	v->prev = PREV_LABEL;
	return BL_USED;
}

/* A row still short of its fields when no more can join it (V2). */
static enum bl_verdict incomplete_row(struct vmstat *v, struct bl_ctx *ctx, const struct bl_line *ln, size_t nf)
{
	v->prev = PREV_OTHER;
	return bl_reject(ctx, ln, "incomplete vmstat row", "vmstat row has %zu of its %zu fields", nf, v->lay.n);
}

/* The dispatcher asks about text this parser held (BL_MORE): a header or
 * a row continued, or the held line alone (BL_F_LAST). Returns the
 * verdict, or -1 when the held line is to be read as a new one. */
static int held_again(struct vmstat *v, struct bl_ctx *ctx, const struct bl_line *ln,
		      const char *s, size_t n, unsigned flags)
{
	enum held_kind hk = v->held;
	bool wide;
	const struct layout *L;
	if (hk == HK_GROUP && !group_then_labels(v, s, n) && group_line_memo(v, s, n, &wide))
		return header_line(v, ctx, ln, flags | BL_F_LAST, true, NULL, wide);
	if (hk == HK_LABEL && labels_memo(v, s, n, &L))
		return header_line(v, ctx, ln, flags | BL_F_LAST, false, L, false);
	if (hk == HK_ROW && v->in_series) {
		struct row R;
		const char *bad = NULL;
		size_t badl = 0, nf;
		enum row_res rr = parse_row(v, s, n, flags, &R, &bad, &badl, &nf);
		if (rr == ROW_OK) {
			v->held = HK_NONE;
			return take_row(v, ctx, ln, &R);
		}
		if (rr == ROW_SHORT && !(flags & BL_F_LAST))
			return BL_MORE;
		if (!(flags & BL_F_LAST))
			return BL_NO;
		v->held = HK_NONE;
		return incomplete_row(v, ctx, ln, nf);
	}
	if (!(flags & BL_F_LAST))
		return BL_NO;
	v->held = HK_NONE;
	if (flags & BL_F_JOINED)
		return BL_NO;
	return -1;               /* the held line alone, read as new */
}

static enum bl_verdict vm_line(void *st, struct bl_ctx *ctx, const struct bl_line *ln, unsigned flags)
{
	struct vmstat *v = st;
	if (!v->ok)
		return BL_NO;
	const char *s = ln->text;
	size_t n = ln->len;
	bl_trim(&s, &n);

	if (!(flags & (BL_F_JOINED | BL_F_LAST)))
		v->held = HK_NONE;
	if (v->held != HK_NONE) {
		int hv = held_again(v, ctx, ln, s, n, flags);
		if (hv >= 0)
			return (enum bl_verdict)hv;
	}

	if (bl_blank_text(s, n)) {
		v->prev = PREV_BLANK;
		v->heading_candidate = false;
		if (v->in_series && ++v->blank_run >= BLANK_MAX)
			series_end(v, ctx);
		return BL_NO;
	}

	v->heading_candidate = v->prose_prev;
	v->prose_prev = false;
	bool wide;
	const struct layout *L;
	/* Header lines start with a word ("procs", "r", "b"): a row (the
	 * common line) skips both tests. */
	if (!is_digit(s[0]) && group_line_memo(v, s, n, &wide))
		return header_line(v, ctx, ln, flags, true, NULL, wide);
	if (!is_digit(s[0]) && labels_memo(v, s, n, &L))
		return header_line(v, ctx, ln, flags, false, L, false);

	if (v->in_series && is_digit(s[0])) {
		if (group_changed(v, ctx)) {
			struct layout same = v->lay;
			int depth = v->depth;
			series_start(v, ctx, &same, false);
			v->depth = depth;
		}
		struct row R;
		const char *bad = NULL;
		size_t badl = 0, nf;
		enum row_res rr = parse_row(v, s, n, flags, &R, &bad, &badl, &nf);
		switch (rr) {
		case ROW_OK:
			cmd_drop(v, ctx, false);
			return take_row(v, ctx, ln, &R);
		case ROW_SHORT:
			if (!(flags & BL_F_LAST)) {
				v->held = HK_ROW;
				return BL_MORE;
			}
			return incomplete_row(v, ctx, ln, nf);
		case ROW_LONG:
			v->prev = PREV_OTHER;
			return bl_reject(ctx, ln, "vmstat row does not match its header",
					 "vmstat row has %zu fields, header has %zu", nf, v->lay.n);
		case ROW_STAMP:
			v->prev = PREV_OTHER;
			return bl_reject(ctx, ln, "bad vmstat timestamp", "vmstat row: \"%.*s\" is no date and time",
					 (int)badl, bad);
		case ROW_BAD:
			if (bad) {
				v->prev = PREV_OTHER;
				return bl_reject(ctx, ln, "bad vmstat value", "vmstat row: \"%.*s\" %s",
						 (int)(badl > 40 ? 40 : badl), bad, bad_why(bad, badl));
			}
			break;            /* not a row after all: other text */
		case ROW_NOT:
			break;
		}
	}

	/* V13: a row with no header above it waits for one */
	if (!v->in_series && is_digit(s[0]) && !(flags & (BL_F_JOINED | BL_F_LAST)) && row_shape(s, n)) {
		if (v->npend && v->pend[0].depth != ln->quote_depth)
			pend_give_back(v, ctx, v->npend);
		if (v->npend == PEND_MAX)
			pend_give_back(v, ctx, 1);
		held_set(&v->pend[v->npend++], ctx, ln);
		v->prev = PREV_ROW;
		return BL_USED;
	}
	/* a caret line (`^^^^^` under a value of the row above) is the
	 * author's mark, as inside a table: it does not end the capture */
	if (v->npend && s[0] != '^' && !is_prose(v, s, n))
		pend_give_back(v, ctx, v->npend);

	enum bl_verdict nv = nontable(v, ctx, s, n);
	if (nv != BL_NO)
		return nv;

	size_t o, l;
	if (bl_contains(s, n, "vmstat", 6) && bl_re_match(&v->re_cmd, s, n) == 1) {
		series_end(v, ctx);
		cmd_drop(v, ctx, false);
		held_set(&v->cmd, ctx, ln);
		v->have_cmd = true;
		if (bl_re_group(&v->re_cmd, 1, &o, &l))
			parse_cmd_args(v, s + o, l);
		else
			parse_cmd_args(v, "", 0);
		v->prev = PREV_CMD;
		return BL_USED;
	}
	if (is_rule_line(s, n)) {
		other_text(v, ctx);
		v->prev = PREV_OTHER;
		return BL_NO;
	}
	cmd_drop(v, ctx, disk_output(v, s, n));

	if ((is_digit(s[0]) || (s[0] && strchr("MTWFS", s[0]))) && bl_re_match(&v->re_date, s, n) == 1) {
		other_text(v, ctx);
		v->prev = PREV_DATE;
		return BL_NO;
	}
	v->prev = PREV_OTHER;
	if ((s[0] && strchr("23456lLkKvV", s[0]) && bl_dispatch_is_kernel_label(ctx, s, n)) ||
	    (s[0] && strchr("KSTABH", s[0]) && bl_re_match(&v->re_ender, s, n) == 1) ||
	    (((s[0] && strchr("[$%", s[0])) || memchr(s, '@', n)) && bl_re_match(&v->re_prompt, s, n) == 1)) {
		series_end(v, ctx);
		return BL_NO;
	}
	if (v->in_series && is_prose(v, s, n)) {
		if (v->nprose < PROSE_MAX && v->run + 1 < PROSE_MAX) {
			v->run++;
			held_set(&v->prose[v->nprose++], ctx, ln);
			v->prose_prev = true;
			return BL_USED;
		}
		series_end(v, ctx);
		return BL_NO;
	}
	other_text(v, ctx);
	return BL_NO;
}

static void vm_yield(void *st, struct bl_ctx *ctx, const struct bl_line *ln)
{
	struct vmstat *v = st;
	v->prev = PREV_OTHER;
	v->held = HK_NONE;
	cmd_drop(v, ctx, ln && disk_output(v, ln->text, ln->len));
	other_text(v, ctx);
	if (v->npend)
		pend_give_back(v, ctx, v->npend);
}

static void vm_flush(void *st, struct bl_ctx *ctx, const struct bl_line *ln)
{
	(void)ln;
	struct vmstat *v = st;
	if (!v->ok)
		return;
	series_end(v, ctx);
	cmd_drop(v, ctx, false);
	if (v->npend)
		pend_give_back(v, ctx, v->npend);
	v->prev = PREV_START;
	v->held = HK_NONE;
	v->nt = NT_NONE;
}

static void vm_release(void *st)
{
	struct vmstat *v = st;
	for (size_t i = 0; i < v->nprose; i++)
		held_free(&v->prose[i]);
	for (size_t i = 0; i < v->npend; i++)
		held_free(&v->pend[i]);
	held_free(&v->cmd);
	free(v->group);
	bl_buf_release(&v->scratch);
	bl_buf_release(&v->t_disks);
	bl_buf_release(&v->t_cpu);
	bl_buf_release(&v->t_stamp);
	bl_buf_release(&v->t_zone);
	struct bl_re *all[] = { &v->re_cmd, &v->re_date, &v->re_counters, &v->re_dsum,
		&v->re_phead, &v->re_mhead, &v->re_notprose,
		&v->re_ender, &v->re_prompt, &v->re_start, &v->re_end };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (all[i]->code)
			bl_re_release(all[i]);
}

static const struct bl_table_def *const vm_tables[] = { &bl_table_vmstat, &bl_table_events, NULL };

const struct bl_parser bl_parser_vmstat = {
	.name = "vmstat",
	.summary = "vmstat captures: procps 2.x to procps-ng 4 (-a -w -t -S), toybox, FreeBSD; prose events",
	.tables = vm_tables,
	.state_size = sizeof(struct vmstat),
	.init = vm_init,
	.line = vm_line,
	.yield = vm_yield,
	.flush = vm_flush,
	.release = vm_release,
};
