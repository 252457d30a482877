/* plot_int.h — what the chart files (plot/swpd.c, contest.c, latency.c,
 * runs.c) share: a "job" that collects one script and its data files,
 * then writes and runs them (plot/plot.c). Not part of the public API.
 *
 * A job's errors are sticky: after the first failure every append is a
 * no-op and job_end() returns that failure, so chart code can write the
 * script straight through and check once.
 *
 * Script shape (what job_begin/job_end put around the chart's body):
 *
 *   # <base>.gp: <summary>
 *   # ... files, columns, how to re-run ...
 *   set encoding utf8
 *   if (!exists('fmts')) fmts = 'png svg dumb'   (bl_gp_run() sets it)
 *   do for [fmt in fmts] {
 *       if (fmt eq 'png') { set terminal pngcairo ... ; set output '<base>.png' }
 *       ...
 *       reset
 *       <body, indented>
 *       set output
 *   }
 *
 * The body therefore runs once per output format; it may test `fmt` (for
 * instance `if (fmt ne 'dumb') { ... }`).
 */
#ifndef BL_PLOT_INT_H
#define BL_PLOT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include "plot/plot.h"

/* Colour i of the palette for groups/series: colour-blind-safe
 * (Okabe-Ito), in order, again from the first after the eighth. */
const char *gp_color(size_t i);

/* The characters gnuplot's dumb terminal draws the 1st, 2nd, ... plot
 * element with (it has no colours), for keys that must name them. */
#define GP_DUMB_CHARS "*#$%@&="

#define GP_NQUOTE 2   /* gq()'s texts alive at once */

/* Caps on input sizes (the charts would be unreadable past them). */
#define GP_MAX_GROUPS 16

struct gp_job {
	struct bl_plot_result *res;   /* the caller's, else own */
	struct bl_plot_result own;
	char *dir;             /* out_dir or "." */
	char *base;            /* file stem */
	unsigned terms;
	bool script_only;
	struct bl_gp_limits gp;
	int width, height;     /* PNG/SVG pixels */
	int dumb_w, dumb_h;    /* dumb terminal characters */
	struct bl_buf head;    /* header comments */
	struct bl_buf body;    /* chart commands */
	struct bl_buf q[GP_NQUOTE];   /* gq()'s texts */
	unsigned nq;
	int ndata;
	int err;               /* sticky: 0 or negative bl_err */
};

/* Validates opts, fills j, releases res (NULL: the job keeps its own
 * result, freed with the job). def_base: default stem; summary: one line
 * of what the chart shows (not input text: it goes into a comment).
 * Returns 0 or -BL_EUSAGE (res->message set). */
int job_begin(struct gp_job *j, const struct bl_plot_opts *o,
	      struct bl_plot_result *res, const char *def_base,
	      const char *summary, int def_w, int def_h, int dumb_w, int dumb_h);

/* Records a failure (first one wins) with a message for res->message. */
int job_fail(struct gp_job *j, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Body text, printf-style: format strings are literals of the chart code,
 * never input; input text comes in only as a %s of gq(). */
void gs(struct gp_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* text as one quoted gnuplot string (bl_esc_gp(), E5), cut to max_chars
 * when that is over 3, for a %s of gs(); the job owns it, and it lives
 * until GP_NQUOTE more calls. */
const char *gq(struct gp_job *j, const char *text, size_t max_chars);
/* A number as the script writes it (bl_fmt_double; NaN as "NaN"), for a
 * %s of gs(): gs(j, "set yrange [0:%s]\n", gnum(top).s). C11: the
 * temporary lives to the end of the full expression. */
struct gp_num { char s[40]; };
struct gp_num gnum(double v);
/* A "nice" upper axis limit >= v: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8
 * times a power of ten (1 for v <= 0 or NaN). */
double gp_nice_ceil(double v);
/* "($1+off)" or "($1-|off|)": column 1 shifted by off (bars side by
 * side), for a %s of gs() as gnum's. */
struct gp_num gshift(double off);
/* A header comment line (literal text of the chart code only). */
void gh(struct gp_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends a number to a data buffer ("?" for NaN), followed by sep; a
 * row of n numbers, separated by spaces, and a line end. */
int gp_datanum(struct bl_buf *b, double v, char sep);
void gp_row(struct bl_buf *b, size_t n, const double *v);

/* Writes data (released) as <base>-<n>.dat (n = 1, 2, ... in call order) and returns
 * its name (owned by the result), or NULL after a failure. columns is a
 * literal header line describing the columns and units; note (one line
 * made by the chart code, never input text; or NULL) one more header
 * comment in the data file and under its "# Data:" line in the script. */
const char *job_data(struct gp_job *j, const char *columns, const char *note, struct bl_buf *data);

/* Writes text (script commands; released) as <base>-<part>.gp, which the script
 * then runs with `load '<name>'`, and returns that name (owned by the
 * result), or NULL after a failure. part: a literal of the chart code.
 * For long runs of commands: gnuplot 5.4 takes seconds over a `do for`
 * body of thousands of lines (the swpd chart's 1,600 event labels and
 * arrows: 1.7 s per run), and no time over the same lines loaded. */
const char *job_load_file(struct gp_job *j, const char *part, struct bl_buf *text);

/* Adds the output loop, writes <base>.gp, runs gnuplot unless script_only,
 * records images and the preview. Frees the job. Returns 0,
 * BL_PLOT_NOT_RENDERED or a negative bl_err. */
int job_end(struct gp_job *j);

/* Frees a job that will not be finished (after a validation error). */
int job_abort(struct gp_job *j);

/* Checks that v is finite or NaN (missing); Inf gives -BL_ERANGE. */
int gp_check_num(struct gp_job *j, double v, const char *what);

#endif
