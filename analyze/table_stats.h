/* table_stats.h — per-group, per-column statistics of table rows, from
 * logs (a sink of the parse pass), from CSV files (benchlog's own or
 * anyone's) and from partial aggregates written by an earlier run.
 * `benchlog stats` and `benchlog compare` are built on it; the
 * definitions of every number are D0-D11 of analyze/stats.h, the rules
 * for columns R1-R7 below, the commands in docs/stats.md.
 *
 * What a column or table is comes from its definition (struct
 * bl_table_def, core/record.h): the table's own for log records, the one
 * a CSV is filed under (named after a benchlog table); a CSV filed as
 * "csv" and a foreign CSV have none.
 *
 * R1  Direction of "better": the column definition's `better`. A column
 *     no definition covers (a foreign CSV's) gets a guess from its name,
 *     case-insensitive: higher for a name ending in _per_s, _ops or
 *     _mbps or containing throughput, bandwidth or allocated; lower for
 *     one ending in _s, _ms, _us, _ns or _faults or containing latency;
 *     else not stated.
 * R2  Tables of means: the definition's `runs_col` (averages,
 *     contest_report): each row is already a mean, with no spread.
 * R3  Split column: the definition's `split_col` (contest: load).
 * R4  Provenance numbers: `line`, `run` and `quoted` say where a value
 *     came from; never default statistics columns.
 * R5  Compared column: the definition's `group_col` (`group`, or
 *     contest_report's `kernel`); `group` without a definition.
 * R6  Measures: the columns whose definition says BL_ROLE_MEASURE (and
 *     that hold numbers). In a CSV filed as "csv" with benchlog's
 *     provenance header, a column that any of benchlog's tables defines
 *     otherwise is not a measure. A foreign CSV's columns all are.
 * R7  Histogram tables: the definition's `weight_col` (latency: count):
 *     one row is not one sample, so stats and compare leave them out.
 *
 * T1  Rows. A log record of table T, a CSV row, or nothing else. Records
 *     quoted in mail replies (quoted > 0) are left out unless
 *     include_quoted. vmstat's since-boot row (since_boot = 1) is left
 *     out unless --since-boot keep (ctx->opt.since_boot), by the rule the
 *     summary uses (bl_since_boot_left_out, core/ctx.h; analyze/vmstat.h
 *     S1): log records of a table whose definition names a
 *     since_boot_col (core/record.h), and CSV rows of a benchlog table
 *     (filed under one, or with its provenance header) whose field of
 *     that name is non-zero; bl_tstats_since_boot_left_out() counts
 *     them. A failed run (docs/statistics.md D3c: a record whose table's
 *     failed_cols, core/record.h, say so; a CSV row of a benchlog table
 *     whose field of such a name holds text or a non-zero number) is
 *     left out; bl_tstats_failed_left_out() counts them. With opts.table set, log records of other tables
 *     are ignored. Tables of histogram buckets (R7: `latency`) are never
 *     read: their log records are ignored, the lines of a CSV of one
 *     (named after it, or with its exact benchlog header) are counted
 *     skipped.
 * T2  Groups. Rows are grouped by the values of the group columns (text
 *     as written; numbers as CSV writes them; unknown = ""), in order of
 *     first appearance. Default: R5's column (`group`) and, when the
 *     table has one, R3's split column (`load`). For compare (C1): the
 *     --by columns (default: R3's split column when the table has one),
 *     then the compared column (default: R5's). A table without a group
 *     column is left out (noted).
 * T3  Columns. With opts.cols, those columns in that order. Otherwise
 *     every column whose every non-empty value is a number, in table
 *     order, except group columns, provenance numbers (R4: line, run,
 *     quoted — for CSV input only when the header starts with benchlog's
 *     provenance columns), R2's runs column, and in benchlog's tables
 *     (log input, a CSV filed under one, or with benchlog's provenance
 *     header) the columns that are not measures (R6). A column is numeric in a
 *     log table when its schema says BL_NUM or BL_INT; text values are
 *     read with bl_parse_double (so "nan", "inf" and "1,5" are text).
 *     An empty field is missing: not a value, not counted in n.
 * T4  Values. Each (table, group, column) keeps a bl_dist: exact
 *     percentiles (D3) while the column holds at most BL_DIST_EXACT_MAX
 *     = 2^20 values and the collector's cells together at most
 *     BL_DIST_BUDGET = 2^25 (256 MiB), the D11 sketch past either; n,
 *     mean, sd, min, max always exact (D1, D2). A sketch cell holds at
 *     most 32 KiB of buckets.
 * T4a Groups. A table holds at most 4096 groups in memory (their keys and
 *     cells), in sets of 64 chosen by the key's hash; when a set is full
 *     its least recently used group is put out: its key and cells are
 *     written to an unlinked temporary file (core/store.h) and its place there
 *     recorded by order of first appearance, every key numbered in that
 *     order by a string index (core/store.h: stores of at most 256 KiB in
 *     memory, the rest in unlinked temporary files): memory does not grow
 *     with the number of groups. A group
 *     whose rows come again is read back, bit for bit; input sorted by
 *     group puts each group out once and reads none back. Output, order
 *     and numbers are those of one pass in memory. A key value or cell
 *     pointer a caller gets (bl_tstats_gval, bl_tstats_cell) stays valid
 *     only until the next call on ts; `stats` output is formatted 10,000
 *     rows at a time (text and Markdown: each page aligned and headed on
 *     its own).
 * T5  CSV input (bl_tstats_read_csv): libcsv, RFC 4180, line 1 the
 *     header (bl_csv_is_table); a row whose field count differs from the
 *     header's is skipped with a warning (file:line); every physical line
 *     is counted used or skipped. The table the rows are filed under:
 *     docs/stats.md "Inputs: logs and CSV tables".
 * T6  Partial file (bl_tstats_write_partials / _read_partials): CSV
 *     records naming tables, groups, columns and cells, each cell
 *     followed by its D10 partial (docs/stats.md "The partial file
 *     format"). Merging adds the partials of equal (table, group,
 *     column): n, min, max exact, mean and sd to rounding, percentiles
 *     within 1% (D11). A table's group columns must be the same in every
 *     file merged.
 *
 * Errors: 0 or a negative bl_err; problems in the data are warnings
 * through the ctx given (file:line: …) and counted there. Memory: the
 * collector owns everything; bl_tstats_free() is NULL-safe.
 */
#ifndef BL_TABLE_STATS_H
#define BL_TABLE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "analyze/outtab.h"
#include "analyze/stats.h"
#include "core/ctx.h"
#include "tables/table.h"

struct bl_tstats_opts {
	const char *table;           /* T1/T5; NULL = every table */
	char *const *cols;           /* T3; NULL = defaults */
	size_t ncols;
	char *const *gcols;          /* T2; NULL = defaults */
	size_t ngcols;
	/* T2 for compare: groups are by[0..nby) then cmpcol; by_given false
	 * = R3's split column when the table has one; cmpcol NULL = R5's */
	bool compare;
	char *const *by;
	size_t nby;
	bool by_given;
	const char *cmpcol;
	/* C1 for the report: blocks start with source and message_id (when
	 * the table has them), so only groups of one mail thread or one
	 * plain file are compared with each other; a mail record's
	 * message_id value is then its thread, "thread: " and the subject
	 * without Re:/Fwd: and [tags] (bl_mail_thread), or the message id
	 * when the subject names none. A message that holds two groups or
	 * more of a table (values of the compared column, in records not
	 * quoted and not copies) is its own unit for that table (report/
	 * findings.h F1): its value is the thread's, "\x1f", the
	 * message's index in its file, "\x1f" and its reference
	 * (bl_tstats_thread_ref). A message's records
	 * of a table are held until it shows a second group or ends, at
	 * most 4,096 records and about 1 MiB; past that its tables held go
	 * to the thread. */
	bool by_source;
	bool include_quoted;         /* T1 */
	/* C4 (analyze/compare.h): tables an analysis compares itself
	 * (bl_analyses_own): their log records are counted (T1) but
	 * no values kept, as nothing reads them */
	const char *own[4];
	size_t nown;
};

struct bl_tstats;

/* A new collector; opts (and the strings it points to) must outlive it.
 * ctx receives warnings and line accounting; it must outlive it too. */
struct bl_tstats *bl_tstats_new(const struct bl_tstats_opts *opts, struct bl_ctx *ctx);
void bl_tstats_free(struct bl_tstats *ts);
/* A sink for the parse pass (T1); the collector keeps ownership (the
 * sink's free() is NULL). */
void bl_tstats_sink(struct bl_tstats *ts, struct bl_sink *out);

/* T5: true when path names a file whose first line is a CSV header:
 * at least one field, every field non-empty and not a number, no name
 * twice. why[0..whysz) gets the reason when false. Reads at most the
 * first 64 KiB (bl_src_peek); "-" is never sniffed (false). */
bool bl_csv_is_table(const char *path, char *why, size_t whysz);
/* T5: read one CSV input into the collector. Returns 0, or -BL_EFORMAT
 * when the header is missing or lacks a group column, -BL_EIO /
 * -BL_ENOTFOUND when the file cannot be read (all reported through ctx;
 * ctx->input_errors counts them). */
int bl_tstats_read_csv(struct bl_tstats *ts, const char *path);

/* Read the user's inputs in order: folders expanded (input/reader.h),
 * each file read as CSV (T5) when force_csv, or when its name ends in
 * .csv or .csv.gz and bl_csv_is_table() says its first line is a header
 * (otherwise a note says why it is read as a log); every other input
 * goes through the parse pass (consecutive logs in one pass, so groups
 * and runs carry over between them as in `benchlog parse`). No inputs =
 * standard input. The collector's sink must already be in ctx. Returns
 * the pass's error (a sink failed) or 0; unreadable inputs are counted in
 * ctx->input_errors. */
int bl_tstats_read_inputs(struct bl_tstats *ts, char *const *inputs, size_t n, bool force_csv);

/* T6 */
int bl_tstats_write_partials(struct bl_tstats *ts, FILE *f);
/* Read every table section of a partial file ("-" = stdin) and merge it
 * in. 0, or -BL_EFORMAT with "path:line: why" reported through ctx. */
int bl_tstats_read_partials(struct bl_tstats *ts, const char *path);

/* ---- results ------------------------------------------------------------ */

/* The groups put out to the temporary file (T4a) could not all be
 * written or read back: the errno of the first failure (the results
 * that read them are incomplete), else 0. */
int bl_tstats_spill_err(const struct bl_tstats *ts);
/* Tables in order of first appearance, and within each table the group
 * columns, the groups (T2) and the value columns (T3) that have data. */
size_t bl_tstats_ntables(const struct bl_tstats *ts);
const char *bl_tstats_table(const struct bl_tstats *ts, size_t t);
/* The definition of table t (see above), or NULL. */
const struct bl_table_def *bl_tstats_def(const struct bl_tstats *ts, size_t t);
/* R1 for column `column` of table t. */
enum bl_better bl_tstats_better(const struct bl_tstats *ts, size_t t, const char *column);
size_t bl_tstats_ngcols(const struct bl_tstats *ts, size_t t);
const char *bl_tstats_gcol(const struct bl_tstats *ts, size_t t, size_t k);
size_t bl_tstats_ngroups(const struct bl_tstats *ts, size_t t);
/* Every group of every table dropped (cells and keys freed); tables,
 * columns and their counts stay, and the next look finishes them again
 * (T3). For a caller that has compared what it needed (the report's
 * Findings a source at a time, analyze/compare.h C8). */
void bl_tstats_drop_groups(struct bl_tstats *ts);
/* While quiet, finishing the tables prints no notes (left-out columns,
 * an unknown -c name): C8's comparisons before the last. */
void bl_tstats_quiet(struct bl_tstats *ts, bool quiet);
/* by_source: the message that names the unit whose message_id value is
 * key (by_source above): a thread's first message read whose records
 * went to the thread, or the message
 * that is its own unit, as "Message-ID, YYYY-MM-DD" (either part may be
 * empty); NULL for another key. *thread (when not NULL) gets the unit's thread
 * key ("thread: ...", key itself when not a message's own). Both valid
 * until bl_tstats_free. */
const char *bl_tstats_thread_ref(const struct bl_tstats *ts, const char *key, const char **thread);
/* Value of group column k of group g ("" when unknown); valid until the
 * next call on ts (T4a: the group may leave memory). */
const char *bl_tstats_gval(const struct bl_tstats *ts, size_t t, size_t g, size_t k);
size_t bl_tstats_ncols(const struct bl_tstats *ts, size_t t);
const char *bl_tstats_col(const struct bl_tstats *ts, size_t t, size_t c);
/* Log records left out because they were quoted in a mail reply (T1). */
unsigned long bl_tstats_quoted_left_out(const struct bl_tstats *ts);
/* T1: vmstat since-boot rows left out (log records and CSV rows). */
unsigned long bl_tstats_since_boot_left_out(const struct bl_tstats *ts);
/* T1: failed runs left out (D3c; log records and CSV rows). */
unsigned long bl_tstats_failed_left_out(const struct bl_tstats *ts);
/* Index (for bl_tstats_cell) of a column collected in table t, including
 * R2's runs column, which is collected but not listed; -1 when none. */
long bl_tstats_find_col(const struct bl_tstats *ts, size_t t, const char *name);

/* Statistics of one cell. pct[0..npct) get the percentiles of p[0..npct)
 * (D3 with rule; NaN when n = 0). */
struct bl_cellstat {
	struct bl_welford w;         /* n, mean, M2, min, max (D1, D2) */
	double sd;                   /* D2; NaN when n < 2 */
	double ci95;                 /* D5 half-width at 95%; NaN when n < 2 or
					the table is a time series (D15) */
	bool exact;                  /* percentiles exact (D3) or from the sketch (D11) */
	unsigned long long rejected; /* non-finite values refused (D0) */
	unsigned long long collapsed; /* values in the sketch's collapsed lowest bucket (D11) */
};
/* Returns false when the cell has no values at all (nothing filled). */
bool bl_tstats_cell(struct bl_tstats *ts, size_t t, size_t g, long c,
		    const double *p, size_t npct, enum bl_pct_rule rule,
		    struct bl_cellstat *out, double *pct);
/* D6a: *lw the Welford summary of ln x over the cell's values; false
 * (lw empty) when the cell has none, is not exact or holds a value <= 0. */
bool bl_tstats_cell_log(struct bl_tstats *ts, size_t t, size_t g, long c, struct bl_welford *lw);
/* `benchlog stats` output (docs/stats.md "Output"). */
struct bl_tstats_out {
	enum bl_tabfmt fmt;
	const double *pcts;          /* percentiles to show, in % */
	size_t npct;
	enum bl_pct_rule rule;
	size_t bins;                 /* > 0: histogram table too (CSV: alone) */
};
int bl_tstats_write(struct bl_tstats *ts, FILE *f, const struct bl_tstats_out *o);

#endif
