/* analysis.h — per-format analyses that `summary`, `report` and `plot`
 * share (after tmux's cmd table: one descriptor per analysis, one registry).
 *
 * An analysis receives every record of a parse pass (it is a sink), then
 * writes its section of the summary as text (terminal) or Markdown (report),
 * and returns the data of its charts, which plot/ draws (analyses draw
 * nothing and print nothing: write() writes to the stream it is given). To add one:
 *   1. write analyze/<topic>.c exporting `const struct bl_analysis
 *      bl_analysis_<topic>`;
 *   2. list it in analyze/registry.c (the order is the order of the sections);
 *   3. test it (tests/test_<topic>.c) with hand-computed values.
 *
 * Memory: one bounded regime for every command (issues 10, 26, 34, 36).
 * An analysis keeps the same state whatever command runs it, and that
 * state has a stated bound whatever the input's size or the number of
 * its groups, series, loads or runs: streaming statistics (bl_dist of
 * analyze/stats.h), the chart data its charts need (reduced to what a
 * chart can show), and in full only the first BL_MD_SHOWN (or a stated
 * number of) groups or series; past the bound, a part that is final
 * during the pass (a vmstat series, a group's accumulator) is spilled to
 * an unlinked temporary file (core/store.h), which write() copies in
 * BL_DOC_TEXT, and what cannot be spilled (cells of loads, threads of a
 * histogram) is counted, and the section says how much was not held.
 *
 * Quoted records (mail replies, record quoted > 0) are left out unless
 * opts->include_quoted.
 */
#ifndef BL_ANALYSIS_H
#define BL_ANALYSIS_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include "analyze/chart.h"
#include "analyze/compare.h"
#include "core/ctx.h"
#include "core/strmap.h"
#include "tables/table.h"

enum bl_doc_format { BL_DOC_TEXT, BL_DOC_MD };

/* In BL_DOC_MD (report.md) a section lists at most this many groups or
 * series in full, in input order, and then says how many more there are
 * and where their data are (the tables' CSV files; `benchlog summary`
 * prints every one): so report.md, and its rendering, stay small
 * whatever the number of inputs (issue 26). */
#define BL_MD_SHOWN 25

/* --baseline GROUP must name a group of the input, in every command
 * (docs/errors.md): bl_groups_sink() watches each record's group for
 * g->baseline (add it to the context before the pass; g must outlive
 * it); bl_groups_check() then returns 0 when baseline is NULL or found,
 * or prints "benchlog CMD: --baseline: no group "X"; there are: "a",
 * "b"" to diag and returns -BL_EUSAGE. Memory: the names of the first
 * BL_GROUPS_LISTED groups, for that message ("and more" says there are
 * others), whatever the number of groups; bl_groups_release() frees them
 * (g itself is the caller's). */
#define BL_GROUPS_LISTED 100
struct bl_groups {
	const char *baseline;  /* set by the caller; NULL: no check */
	bool found;
	struct bl_strmap m;    /* the first BL_GROUPS_LISTED groups */
	bool more;             /* and another group past them */
};
int bl_groups_record(void *g, const struct bl_record *r);   /* a sink's record() */
/* name counted among the names of m, the first cap names met; a name
 * past them sets *more instead (bl_groups, analyze/contest.c). */
void bl_names_count(struct bl_strmap *m, size_t cap, bool *more, const char *name);
struct bl_sink bl_groups_sink(struct bl_groups *g);
int bl_groups_check(FILE *diag, const char *cmd, const struct bl_groups *g);
void bl_groups_release(struct bl_groups *g);

struct bl_analysis_opts {
	const struct bl_opts *parse;   /* the pass's parse options */
	bool include_quoted;            /* --quoted include */
	FILE *diag;                     /* notes about the data found while making
					   the charts ("vmstat time goes back"),
					   the command's choice; NULL: none */
	const char *baseline;           /* --baseline GROUP, or NULL = first group */
	double confidence;              /* for comparisons, default 0.95 */
	bool range_bars;                /* contest: error bars min-max, not sd */
	/* latency options */
	double target_s;                /* --target, NaN = most frequent bucket */
	const double *late_s;           /* --late thresholds, seconds */
	size_t nlate;
};

/* A chart drawn from an analysis's results (plot/plot.h,
 * bl_analysis_draw()): for the section's text to embed and name. */
struct bl_chart {
	char *name;      /* file base name in the folder, e.g. "swpd" -> swpd.png */
	char *title;     /* one line (the spec's caption) */
	unsigned long long bytes; /* its script and data: a hint of how long
				     gnuplot takes to draw it */
};

/* What findings() may compare: series of one plain file or one mail
 * thread, or any two when compare_all or a baseline group is named
 * (co->baseline); the baseline is the first series of a block, or the
 * first of group co->baseline. */
struct bl_findings_opts {
	const struct bl_compare_opts *co;   /* confidence, bands */
	bool compare_all;
	/* bl_analyses_findings(): `compare -t TABLE` and `-c LIST` keep only
	 * the analyses' rows of that table and those measures (swpd, p50, ...);
	 * NULL / 0: all */
	const char *table;
	char *const *cols;
	size_t ncols;
	/* the walk over ts was drained input by input (compare.h C8): out
	 * holds its rows and sentences already, and ts no groups */
	bool drained;
};

struct bl_analysis {
	const char *name;              /* "runs", "vmstat", "contest", "latency" */
	const char *title;             /* section heading */
	/* New state; never NULL (aborts on OOM). */
	void *(*create)(const struct bl_analysis_opts *o);
	/* A record of the pass; ignore tables that are not yours. 0 or -bl_err. */
	int (*record)(void *st, const struct bl_record *r);
	/* true when the pass gave this analysis anything to say. */
	bool (*has_data)(void *st);
	/* The pass is over: write out what is still pending and flush the
	 * temporary files, before any section is printed, so a temporary
	 * file that could not be written (ENOSPC) stops the command before
	 * it prints a truncated summary. 0 or -BL_EIO with errno set (also
	 * when a write during the pass failed). May be NULL. */
	int (*finish)(void *st);
	/* Write the section body (no heading) in format fmt; may be called
	 * more than once. 0 or -BL_EIO (errno set).
	 * charts: the charts drawn (may be NULL); a BL_DOC_MD body shows
	 * each of them (bl_charts_md()). */
	int (*write)(void *st, FILE *f, enum bl_doc_format fmt,
		     const struct bl_chart *charts, size_t ncharts);
	/* The charts the results call for (analyze/chart.h), appended to
	 * *specs (*n entries; the caller frees them with
	 * bl_chart_specs_free()). The data may point into the state: draw
	 * them (plot/) before destroy(). 0 or -bl_err. May be NULL. */
	int (*charts)(void *st, struct bl_chart_spec **specs, size_t *n);
	/* The comparisons this analysis makes for the report's Findings
	 * (report/findings.h F1), appended to rows: tested (struct bl_cmp
	 * with t.p) but not adjusted or judged; the caller adjusts each row
	 * in its family, one question (bl_compare_rows_judge). Strings of a
	 * row point into the state or are static, except the owned ones
	 * (compare.h). May be NULL. */
	void (*findings)(void *st, const struct bl_findings_opts *o, struct bl_cmp_rows *rows);
	/* The table whose rows findings() compares in place of compare.h's
	 * generic walk (vmstat: samples in time order are not independent
	 * runs); NULL when none. */
	const char *findings_table;
	/* What its charts are drawn from, for `plot` to say when has_data()
	 * but charts() gives none ("… nothing this chart can draw: it needs
	 * …"); NULL when any data it has is drawn. */
	const char *chart_needs;
	void (*destroy)(void *st);
};

/* A number cell's value as a double into *d: false for any other cell
 * (empty, text). */
static inline bool bl_val_num(const struct bl_val *v, double *d)
{
	if (v->t == BL_NUM)
		*d = v->u.d;
	else if (v->t == BL_INT)
		*d = (double)v->u.i;
	else
		return false;
	return true;
}

/* The same as a value: NaN for any other cell. */
static inline double bl_val_nan(const struct bl_val *v)
{
	double d;
	return bl_val_num(v, &d) ? d : NAN;
}

/* report.md's lines naming each chart of a section and embedding its
 * PNG (titles escaped as input text, escape.h). */
void bl_charts_md(FILE *f, const struct bl_chart *c, size_t n);

/* The registry in section order; NULL-terminated. */
extern const struct bl_analysis *const bl_analyses[];

/* Each analysis's finish(), in registry order, before any section is
 * written: st[0..n) the states in bl_analyses order (NULL: that analysis
 * did not run). 0, or -BL_EIO with errno set by the first that failed
 * (the later ones not called). */
int bl_analyses_finish(void *const *st, size_t n);

struct bl_tstats;
/* Every comparison of a report's Findings or a `compare` run, in one place
 * so both make the same rows (analyze/compare.h C1-C4): compare.h's rows
 * of every table of ts but those an analysis compares itself
 * (findings_table), then each analysis's findings() (docs/statistics.md
 * D18), kept as o->table and o->cols say, marked own; then all of them
 * adjusted in their families (D12: one question each) and judged (D13).
 * st: the analyses' states in bl_analyses order, each NULL when that
 * analysis did not run (then it adds nothing). A table an analysis compares itself that ts
 * holds while the analysis saw no record of it (vmstat rows read from a
 * CSV table) gets a sentence in out->skip saying why it is not compared.
 * out is overwritten; free it with bl_compare_rows_free(). 0 or
 * -BL_EUSAGE. */
int bl_analyses_findings(struct bl_tstats *ts, void *const *st, const struct bl_findings_opts *o,
			 struct bl_cmp_rows *out);
/* The tables the analyses compare themselves appended to own[*n] (room
 * for 4): a bl_cmp_rows' own (for a caller's own bl_compare_rows()
 * calls) or a bl_tstats_opts' own (the collector keeps no values of
 * their log records, table_stats.h). */
void bl_analyses_own(const char **own, size_t *n);
const struct bl_analysis *bl_analysis_find(const char *name);
void bl_charts_free(struct bl_chart *c, size_t n);
/* Append a chart entry (copies the strings). */
void bl_charts_add(struct bl_chart **c, size_t *n, const char *name, const char *title,
		   unsigned long long bytes);

#endif
