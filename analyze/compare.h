/* compare.h — baseline against candidates, column by column, in the
 * spirit of ministat and Go's benchstat (docs/stats.md "compare").
 *
 * C1-C3 and C5 are stated for users in docs/stats.md "compare" (Sets,
 * Blocks, Per column and candidate, Many tests, Verdict, Width); here
 * what the code must keep:
 * C1  Sets: the values of the compared column (R5), grouped within each
 *     --by block (table_stats.h T2), never compared across blocks; the
 *     baseline is --baseline's set, else the first whose label names the
 *     baseline side (parsers/labels.h bl_label_side), else the first
 *     seen. With blocks by source (table_stats.h by_source) and no
 *     --baseline, "first seen" is within the block's source, and a
 *     mail message that holds two sets or more of a table (records not
 *     quoted, not copies) is a block of its own: its sets are compared
 *     with each other only, those of messages that hold one set across
 *     their thread (docs/statistics.md D18).
 * C2  Per column and candidate: both summaries (n, mean +- D5, median),
 *     d = mean_c - mean_b, the change with Fieller's interval (D14), the
 *     test's two-sided p (D6, or D7 with --test student) and D16; when a
 *     side's values, all > 0 and held exactly, span a factor of 10 or
 *     more, the test, the change and its interval are on ln values, of
 *     the geometric means (D6a; bl_cmp.geo).
 * C3  Verdict by D13 within a family (D12, bl_cmp_family_key): one
 *     baseline -> candidate pair of one table within one source (a
 *     file, a thread, or a message that is its own block, C1);
 *     Bonferroni for the verdict, Holm and BH beside it.
 * C4  A table an analysis compares itself (analyze/analysis.h
 *     findings_table: vmstat, whose samples in time order are not
 *     independent runs) is left out of C1's walk, and the analyses' own
 *     comparisons (docs/statistics.md D18: vmstat per series and per
 *     iteration, latency p50 and p99) are judged in their own families
 *     by C3: `compare` and the report's Findings make the same rows, with
 *     the same p, Holm and BH p, bands, intervals and verdicts
 *     (bl_analyses_findings()).
 * C5  Text fits o->width (0: no limit), dropping columns and cutting
 *     names in docs/stats.md's order; CSV and Markdown are never cut.
 *     Text and Markdown go out in pages of 10,000 rows (as `stats`,
 *     table_stats.h T4a), each aligned, headed and fitted on its own; a
 *     page that starts inside a block starts with its baseline line.
 * C7  Matching (C1) keeps, per table: the names of its sets and of its
 *     blocks (--by keys), in maps of strings (each name's bytes and about
 *     50 more); and 32-bit indexes: 8 bytes a group (its set, its place
 *     in its block) and 8 a block (where its groups start, its baseline),
 *     4 a group and 8 a block more while they are matched. A table has
 *     at most 2^31 - 1 groups (CMP_MAX_GROUPS) or is not compared, which
 *     stderr and the report's Findings say.
 */
#ifndef BL_COMPARE_H
#define BL_COMPARE_H

#include <stdbool.h>
#include <stdio.h>
#include "analyze/outtab.h"
#include "analyze/stats.h"
#include "analyze/table_stats.h"
#include "core/strmap.h"

enum bl_cmp_test { BL_CMP_WELCH = 0, BL_CMP_STUDENT };

struct bl_cmp {
	struct bl_ttest t;    /* filled when tested */
	bool tested;          /* a test ran and t.ok */
	double diff, pct;     /* always, when both sides have values (pct:
				 100 d / |mean_b|, NaN when mean_b = 0) */
	struct bl_ratio_ci ci;  /* D14 CI of pct, when tested: at conf until
				 bl_compare_judge, then at 1 - alpha / m (D12) */
	struct bl_ratio_ci ci_raw;  /* D14 at conf, not adjusted */
	double mb, vb, mc, vc;  /* D14's inputs: the means and the variances of
				 the means (vb = NaN: no interval, a rank test) */
	bool nonneg;          /* no value on either side is negative */
	double detect_pct;    /* D16 at 80 % power, in % of |mean_b|; NaN untested */
	double p_adj;         /* D12 Bonferroni in its family; NaN untested */
	double p_holm, p_bh;  /* D12, set by bl_compare_adjust_p; NaN untested */
	enum bl_verdict_kind kind;   /* C3, set by bl_compare_judge */
	const char *verdict;  /* its words (static) */
	const char *note;     /* static text or NULL */
	bool low_power;       /* bl_test_power_too_low */
	bool means_only;      /* R2 with too few rows */
	bool geo;             /* D6a: the test on ln values; diff, pct, mb and mc
				 those of the geometric means */
};

/* C2 for one pair of summaries. means: the table holds means (R2).
 * The verdict is "no test" until bl_compare_judge. Returns 0 or
 * -BL_EUSAGE (NULL, conf not in (0,1)). */
int bl_compare_pair(const struct bl_welford *base, const struct bl_welford *cand,
		    double conf, enum bl_cmp_test test, bool means,
		    struct bl_cmp *out);
/* C3, D12 over the p-values p[0..n) of one family (NaN: untested, left
 * out): Bonferroni's into bonf[], Holm's into holm[], and p[] replaced by
 * Benjamini-Hochberg's; returns m, the number of tests. */
size_t bl_compare_adjust_p(double *p, size_t n, double *bonf, double *holm);
/* C3, D13: the verdict of r from its adjusted p; band_pct >= 0. m: the
 * number of tests of its family; ci becomes D14's interval at 1 - alpha / m
 * and detect_pct D16's change at alpha / m, the size a test of this family
 * detects. */
void bl_compare_judge(struct bl_cmp *r, double alpha, double band_pct, int better, size_t m);
/* D13 rule 5's words for a change of column (by its name: a time, an
 * amount of memory, a count of faults, else "higher" / "lower"), or the
 * verdict's name for the other kinds. Static strings. */
const char *bl_cmp_verdict_words(enum bl_verdict_kind k, const char *column, double pct);

/* A change in % for a person to read (never exponent notation): 2-3
 * significant digits, "27", "6.7", "0.39", "0.0051"; below 0.0001 in
 * magnitude "0.0001" with a leading "<"; sign: "+" or "−" (U+2212) when
 * sign, none otherwise; ±infinity as "∞" (D14: unbounded). Writes at
 * most n bytes, always terminated; "" for NaN. */
void bl_fmt_pct_person(char *b, size_t n, double v, bool sign);
/* A p-value for a person: 2 significant digits, "< 0.0001" below. */
void bl_fmt_p_person(char *b, size_t n, double p);

/* Negligible band of a column (D13). */
struct bl_band {
	const char *column;   /* NULL: every column */
	double pct;
};
/* "time_s=2%", "2%", "0.5" (percent). 0, or -BL_EFORMAT with nothing set.
 * b->column points into s (the '=' is overwritten). */
int bl_band_parse(char *s, struct bl_band *b);

struct bl_compare_opts {
	const char *baseline;   /* NULL: the first set (C1) */
	double confidence;      /* (0,1), default 0.95 */
	enum bl_cmp_test test;
	enum bl_tabfmt fmt;
	const struct bl_band *bands;   /* --negligible, in order given */
	size_t nbands;
	/* -c named the columns: the families (D12) hold only those, and the
	 * text output says so */
	bool narrowed;
	/* Text (BL_TAB_TEXT) lines at most this wide, 0: no limit (C5). */
	size_t width;
};
/* The band of column (D13): the last --negligible naming it, else the last
 * without a column, else 1 %. o may be NULL. */
double bl_band_for(const struct bl_compare_opts *o, const char *column);

/* What bl_compare_write did, for the exit status and warnings. */
struct bl_compare_counts {
	unsigned long tests;         /* m of D12 */
	unsigned long low_power;
	unsigned long means_only;
	unsigned long tables;        /* tables compared */
	unsigned long no_baseline;   /* tables where --baseline was not found */
};

/* One comparison with what names it, for a caller that prints its own
 * (the report's Findings). Strings: table, column, source and message_id
 * point into ts; baseline, candidate and block (the --by values,
 * ", "-joined; "" when none) are owned by the row. */
struct bl_cmp_row {
	const char *table, *column;
	char *baseline, *candidate;
	const char *source, *message_id;   /* the block's, when grouped by them; else NULL */
	const char *thread_ref;      /* the message that names the block: a thread's
					first, or the message that is its own block
					(C1, bl_tstats_thread_ref), or NULL */
	char *block;
	int better;                  /* R1: -1 lower, +1 higher, 0 none */
	double band;                 /* D13, % */
	unsigned long long n_base, n_cand;
	double mean_base, mean_cand;
	struct bl_cmp r;             /* adjusted and judged (C3) */
	size_t family;               /* D12: m, the tests of this row's family */
	size_t fam;                  /* D12: the family's index in its spill (bl_cmp_spill_get) */
	const char *test;            /* static: "welch", "student", "mann-whitney",
					"kolmogorov-smirnov"; "welch, ln values" or
					"student, ln values" (D6a); NULL when none ran */
	bool own;                    /* made by an analysis's findings()
					(analysis.h), not by the walk over ts */
};
/* Row w's owned strings freed and *w zeroed. */
void bl_cmp_row_clear(struct bl_cmp_row *w);
/* D12: the family (one question) row w belongs to, as a heap string:
 * equal for two rows exactly when they share table, source, thread,
 * thread_ref (a message that is its own block, C1), baseline and
 * candidate. The caller frees it. */
char *bl_cmp_family_key(const struct bl_cmp_row *w);
/* A table that could not be compared, and why (one sentence). */
struct bl_cmp_skip {
	const char *table;           /* points into ts */
	char *why;                   /* owned */
};
struct bl_cmp_rows {
	struct bl_cmp_row *row;
	size_t n;
	size_t tests;                /* m of D12 */
	struct bl_cmp_skip *skip;
	size_t nskip;
	/* C4: tables whose rows an analysis compares itself (analysis.h
	 * findings_table, bl_analyses_own), left out of the walk over ts;
	 * the names are static */
	const char *own[4];
	size_t nown;
	/* C6: every row made and judged, in a temporary file; row holds
	 * only the rows an analysis adds (bl_cmp_rows_add) until
	 * bl_compare_rows_judge moves them there. Owned, NULL when none. */
	struct bl_cmp_spill *spill;
	/* the walk's sources and threads, interned (ts's groups may leave
	 * memory, analyze/table_stats.h T4a); the drain's when drained */
	struct bl_strmap names;
};
/* C8 The report's Findings a source at a time (report/findings.h F1: a
 *    question lives in one file or mail thread): after each input its
 *    groups are compared (C1-C3, judged in their families), the rows
 *    appended to `into` and the groups dropped from ts, so memory holds
 *    one input's groups, not every input's. What C1's sentences of a
 *    table need over all inputs (how many sets, whether a pair was
 *    compared, the two sets' pooled moments)
 *    is kept in the drain; bl_compare_drain_end adds those sentences.
 *    into->own must be set (bl_analyses_own) before the first drain.
 *    The input's rows are into->spill (C6), judged. The rows' source
 *    and message_id then point into the drain: free it after the rows. */
struct bl_cmp_drain;
/* C6 Bounded, whatever the number of rows (issue 34): every comparison,
 *    of `compare`, of the report's drained inputs and of its
 *    --baseline/--compare-all run alike, is written, as it is made, to an
 *    unlinked temporary file (core/store.h: nothing is left on any
 *    exit) and memory keeps only its offset, its family and its p (48
 *    bytes; a family, D12, must be whole to be adjusted, and one ConTest
 *    log of 50,000 loads makes 300,000 rows of one question). Once every
 *    row is put each family is adjusted from those p
 *    (bl_compare_adjust_p), and a row read back (bl_cmp_spill_get) is
 *    judged then (C3): the same numbers, the same bytes. The file holds
 *    the row struct as it is, then its three owned strings (baseline,
 *    candidate, block). Its other pointers are safe to write: the file
 *    is private (mkstemp, unlinked at once), written and read by this
 *    process only, and each of them is static (test, note) or points
 *    into what outlives the spill and every row read back from it:
 *    table and column into ts's tables (bl_tstats_drop_groups keeps
 *    them), thread_ref into ts's threads, an analysis's source into its
 *    state; a walk row's source and message_id into the names the spill
 *    interns them in (the rows' own, or the drain's: ts's groups leave
 *    memory, table_stats.h T4a). No temporary file ($TMPDIR unwritable): the rows put are lost
 *    and the first bl_cmp_spill_get says so (-BL_EIO, errno). */
struct bl_cmp_spill;
/* A new, empty spill whose rows' sources and threads are interned into
 * names (which must outlive it; NULL: not interned). Never NULL; when no
 * temporary file can be made, its gets fail (C6). */
struct bl_cmp_spill *bl_cmp_spill_new(struct bl_strmap *names);
void bl_cmp_spill_free(struct bl_cmp_spill *s);   /* NULL-safe; closes the file */
/* Row w written out, its baseline, candidate and block freed, *w zeroed. */
void bl_cmp_spill_put(struct bl_cmp_spill *s, struct bl_cmp_row *w);
/* C3's adjustment of every family once every row is put; returns the
 * sum of their m (D12). */
size_t bl_cmp_spill_adjust(struct bl_cmp_spill *s, double conf);
size_t bl_cmp_spill_n(const struct bl_cmp_spill *s);   /* rows put; 0 for NULL */
/* A row of table (by its name) was put. s may be NULL (false). */
bool bl_cmp_spill_has_table(const struct bl_cmp_spill *s, const char *table);
/* Row i (in the order put) read back into *w, adjusted and judged; w's
 * baseline, candidate and block are the caller's to free. 0, or -BL_EIO
 * (errno) when a write or this read failed. */
int bl_cmp_spill_get(struct bl_cmp_spill *s, size_t i, struct bl_cmp_row *w);
/* The errno of the first failed write to s's temporary file (made, put,
 * flushed by bl_cmp_spill_adjust), 0 when none; NULL: 0. After the
 * adjustment it says, before any row is read back, whether one can be. */
int bl_cmp_spill_err(const struct bl_cmp_spill *s);

struct bl_cmp_drain *bl_cmp_drain_new(void);
void bl_cmp_drain_free(struct bl_cmp_drain *d);   /* NULL-safe */
int bl_compare_drain(struct bl_tstats *ts, const struct bl_compare_opts *o, struct bl_cmp_drain *d,
		     struct bl_cmp_rows *into);
void bl_compare_drain_end(struct bl_cmp_drain *d, struct bl_cmp_rows *into);
/* Every comparison of ts (C1-C2) put into out->spill (made when NULL,
 * C6), in the order bl_compare_write prints them; bl_compare_rows_judge
 * then adjusts and judges them. out: zeroed, or with only own/nown (C4:
 * those tables are left out) and spill set. 0 or -BL_EUSAGE. Free with
 * bl_compare_rows_free (NULL-safe). */
int bl_compare_rows(struct bl_tstats *ts, const struct bl_compare_opts *o, struct bl_cmp_rows *out);
/* C3 once every row is made: the rows a caller added to rows->row (an
 * analysis's comparisons, analyze/analysis.h findings()) are put into
 * rows->spill after the walk's (C6; made when NULL), every family (D12:
 * one question each, bl_cmp_family_key) is adjusted on its own, and each
 * row read back is judged (D13) with its better and band. Once per
 * spill. */
void bl_compare_rows_judge(struct bl_cmp_rows *rows, double conf);

/* One side of a comparison from its summary: n values, their mean,
 * sample sd and minimum, and the effective sample size of D15 (n for
 * independent values). */
struct bl_moments {
	double n, n_eff, mean, sd, min;
};
/* C2 from summaries: Welch's test with n_eff (D6, D15), Fieller's CI with
 * the variances of the means sd^2 / n_eff (D14), D16's change. Same
 * contract as bl_compare_pair. */
int bl_compare_moments(const struct bl_moments *base, const struct bl_moments *cand, double conf,
		       struct bl_cmp *out);
void bl_compare_rows_free(struct bl_cmp_rows *rows);
/* C2 for a statistic compared by a rank test (D8, D9): the change of
 * stat_c against stat_b in % of |stat_b|, and the test's two-sided p
 * (tested when ok); no CI, no detectable change. */
void bl_compare_rank(double stat_b, double stat_c, double p, bool ok, const char *note,
		     struct bl_cmp *out);
/* C2 for two independent estimates stat_b, stat_c with the variances of
 * the estimates var_b, var_c (D19: a percentile's bootstrap variance; a
 * share's binomial p(1 - p)/n): the change in % of |stat_b|, z with a
 * two-sided normal p, D14's interval with df = infinity (the judge
 * adjusts it to the family), D16's change. nonneg: neither side can be
 * negative. Untested (note) when a variance is not finite. */
void bl_compare_estimates(double stat_b, double var_b, double stat_c, double var_c, bool nonneg,
			  double conf, const char *note, struct bl_cmp *out);
/* C1 for an analysis that compares the series it keeps (vmstat, latency):
 * series i's block is u[i].block (its file or thread; "" for one block of
 * all), or, when its mail message (u[i].msg, the index in its file; 0:
 * none) holds two groups or more (u[i].group), that message.
 * blk[i] gets its block's number, 0, 1, ... (< n) in the order first seen. */
struct bl_cmp_unit {
	const char *block, *group;
	unsigned long msg;
};
void bl_cmp_units(const struct bl_cmp_unit *u, size_t n, size_t *blk);
/* An analysis's row w named as C1's rows are: by its series' block
 * thread (bl_mail_thread_key: "" for a plain file, which names nothing)
 * and, for a mail thread, by ref, the series' message (bl_mail_ref).
 * Neither is copied: both must outlive the row. */
void bl_cmp_row_thread(struct bl_cmp_row *w, const char *thread, const char *ref);
/* A new row at the end of rows: column col of table (both not copied),
 * baseline and candidate groups (copied), source (not copied, may be
 * NULL); the rest zeroed for the caller to fill in. Never NULL. */
struct bl_cmp_row *bl_cmp_rows_add(struct bl_cmp_rows *rows, const char *table, const char *col,
				   const char *baseline, const char *candidate, const char *source);

/* Write the comparisons of rows, the run's whole family as
 * analysis.h's bl_analyses_findings() made, adjusted and judged (C3, C4)
 * from ts with the same o, and in their order: first every table of ts
 * but rows->own, grouped as C1 says, with both sides' summaries; then
 * the analyses' own rows (rows[i].own), one table per table. Problems
 * with the baseline are reported on diag. Rows are read back from
 * rows->spill one at a time; every format goes out 10,000 rows at a
 * time (C5). 0, -BL_EIO (a write, or the spill could not be read:
 * errno) or -BL_EUSAGE (rows is not from ts and o). */
int bl_compare_write(struct bl_tstats *ts, const struct bl_cmp_rows *rows, FILE *f, FILE *diag,
		     const struct bl_compare_opts *o, struct bl_compare_counts *counts);

#endif
