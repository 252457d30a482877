/* plot.h — charts drawn by gnuplot: the runner, safe quoting, five charts.
 *
 * Every chart writes, into opts->out_dir:
 *   <basename>.gp        a complete gnuplot script (sets its own terminals,
 *                        re-run by hand with `gnuplot <basename>.gp`);
 *   <basename>-N.dat     its data, whitespace-separated numbers only, with a
 *                        '#' header naming the columns and units;
 *   <basename>.png/.svg  the images, when gnuplot is on PATH and PNG/SVG was
 *                        asked for;
 *   <basename>.txt       the dumb-terminal preview (also in result->preview)
 *                        when DUMB was asked for.
 * Scripts and data files are written to a mkstemp() file in out_dir and then
 * renamed, so a reader never sees half a file and no predictable name is
 * used. The images are written by gnuplot itself.
 *
 * Requirements (tests/test_plot.c cites them as "Requirement N"):
 *  1. Text that comes from input (titles, group names, load names, event
 *     text, series names, units, mark labels) reaches a script only through
 *     bl_esc_gp() (core/escape.h, E5): one single-quoted gnuplot string, ' doubled, control
 *     characters turned into spaces, invalid UTF-8 bytes turned into '?'.
 *     Gnuplot neither runs `backquotes` nor expands @macros inside single
 *     quotes; input text is never put in double quotes, comments, `eval`,
 *     `system()`, `load` or a file name. gnuplot 5.4's scanner (scanner.c)
 *     reads '' as an escaped quote only after a non-quote character, so a '
 *     at the start of the text or right after another ' is written as
 *     U+2019 instead; either way the text never leaves the string.
 *  2. Every label, title and key entry holding input text carries
 *     `noenhanced` (and the terminals are set `noenhanced` too), so ^ _ @ &
 *     { } are shown as typed.
 *  3. File names in scripts are made here from opts->basename (checked by
 *     bl_gp_safe_name()) and fixed suffixes; never from input. No name can
 *     start with '<' or '|' (gnuplot would run it as a command).
 *  4. Input text never goes into a data file: data files hold numbers only,
 *     and strings are passed by label, xtics and title commands.
 *  5. gnuplot is started by argv (fork + execv, no shell), in out_dir, with
 *     stdin from /dev/null, `-d` (no user init file) and a time limit;
 *     its stderr becomes the error message.
 *  6. When gnuplot is not on PATH the scripts and data are still written and
 *     the chart returns BL_PLOT_NOT_RENDERED (> 0), so the caller can warn
 *     "render with: gnuplot <script>".
 *
 * Return values: chart functions return 0 (rendered, or script_only),
 * BL_PLOT_NOT_RENDERED, or a negative enum bl_err (core/util.h):
 * -BL_EUSAGE for a bad argument (result->message says which),
 * -BL_ERANGE for an infinite number in the data, -BL_EIO when a file cannot
 * be written or gnuplot fails (result->message holds gnuplot's stderr).
 *
 * Ownership: the chart functions only read their input; strings in the
 * input stay the caller's. A struct bl_plot_result is filled by the chart
 * and released by the caller with bl_plot_result_release().
 *
 * Missing values: a NaN in a sample, cell or run is "not measured" and is
 * left out of the chart (written as '?' in the data file). ±Inf is an error.
 */
#ifndef BL_PLOT_H
#define BL_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include "analyze/analysis.h"
#include "analyze/chart.h"
#include "core/util.h"

/* ---- gnuplot runner and quoting (plot/gp.c) -------------------------- */

/* Positive return of the chart functions: script and data written, gnuplot
 * not found on PATH, so no image was made. Never returned by bl_gp_run(). */
#define BL_PLOT_NOT_RENDERED 1

/* What bounds a gnuplot run, the caller's: seconds it may run before it
 * is killed (SIGKILL, its process group) and the run fails, 0 for
 * BL_GP_TIMEOUT_S (cli: BENCHLOG_GNUPLOT_TIMEOUT); and a flag a signal
 * handler sets (cli), when a run in progress is ended, its process group
 * killed, and the run fails with -BL_EINTR (NULL: not interrupted). A
 * NULL struct bl_gp_limits * means {0, NULL}. */
#define BL_GP_TIMEOUT_S 120
struct bl_gp_limits {
	unsigned timeout_s;
	volatile sig_atomic_t *stop;
};

/* True when an executable `gnuplot` is found on $PATH (bl_find_program). */
bool bl_gp_available(void);

/* Run `gnuplot -d -e "outdir = '.gp-XXXXXX/'" ./<script_name>` with dir as
 * working folder and stdin from /dev/null; gnuplot's stdout is the
 * caller's stdout (a dumb-terminal script prints its preview there).
 * fmts (NULL: the script's own choice) names the outputs, "png", "svg",
 * "dumb" separated by spaces (nothing else is accepted: -BL_EUSAGE),
 * passed as `-e "...; fmts = '<fmts>'"`: the scripts of this module
 * keep an fmts set before them.
 *
 * Images are never written in place by gnuplot: the scripts of this
 * module write to outdir, a private folder (mkdtemp, mode 0700, holding
 * the pid file of core/cleanup.h) made in dir for this run. When gnuplot
 * exits 0, each file it wrote is checked to be complete (a PNG ends with
 * its IEND chunk, an SVG with </svg>) and renamed into dir, replacing a
 * file or symlink of that name (a symlink is never followed); otherwise,
 * or when the run fails, nothing it wrote is kept. gnuplot runs in a
 * process group of its own: on a timeout or a stop the whole group is
 * killed (SIGKILL), its children too.
 * script_name: a plain file name inside dir (bl_gp_safe_name()).
 * Returns 0 when gnuplot exits 0; -BL_ENOTFOUND when gnuplot is not on
 * PATH (or dir does not exist); -BL_EIO when it cannot be started, exits
 * non-zero, dies from a signal, runs longer than the timeout or
 * leaves an incomplete image; -BL_EINTR when stopped (lim->stop);
 * -BL_EUSAGE for a bad script_name.
 * err_out (may be NULL): on return *err_out is NULL or a heap string the
 * caller frees: gnuplot's stderr (at most 16 KiB, trailing newlines
 * removed) — the error on failure, warnings on success — or the reason the
 * run failed. out (may be NULL: discarded): gnuplot's stdout is appended
 * to it (at most out->max bytes; more is an -BL_ENOMEM failure). */
int bl_gp_run(const char *dir, const char *script_name, const char *fmts, struct bl_buf *out,
	      const struct bl_gp_limits *lim, char **err_out);


/* True when name may be used as a file stem or script name: 1-100 bytes of
 * [A-Za-z0-9._+-], not starting with '.', '-', '+' (so never '<' or '|'). */
bool bl_gp_safe_name(const char *name);


/* ---- common options and result (plot/plot.c) ------------------------- */

enum bl_plot_term {
	BL_PLOT_PNG = 1u << 0,   /* pngcairo, <basename>.png */
	BL_PLOT_SVG = 1u << 1,   /* svg, <basename>.svg */
	BL_PLOT_DUMB = 1u << 2,  /* dumb (ASCII), stdout; saved as <basename>.txt */
};

struct bl_plot_opts {
	const char *out_dir;   /* folder for all files; created (one level)
				  when missing. NULL or "" means "." */
	const char *basename;  /* file stem, bl_gp_safe_name(); NULL means the
				  chart's default ("swpd", "contest", ...) */
	unsigned terms;        /* enum bl_plot_term bits; 0 means PNG */
	const char *title;     /* chart title (input text); NULL = default */
	int width_px;          /* PNG/SVG size; 0 = chart default (about */
	int height_px;         /*   1200 x 400 per panel) */
	bool script_only;      /* write script and data, do not run gnuplot */
	struct bl_gp_limits gp;  /* of its gnuplot run */
};
/* All fields zero/NULL: PNG of the chart's default name in ".". */

struct bl_plot_result {
	char **files;      /* names (relative to out_dir) of the files made:
			      script, data, then images and preview that
			      exist after the run; nfiles entries */
	size_t nfiles;
	char *script;      /* "<basename>.gp" */
	char *preview;     /* dumb-terminal text, or NULL */
	char *message;     /* gnuplot's stderr (error or warnings), or why
			      the call failed; NULL when there is nothing */
	unsigned long long bytes;   /* of the script and data files written */
	bool rendered;     /* gnuplot ran and exited 0 */
};
/* Zeroed before the first chart; frees what the chart stored; NULL-safe;
 * leaves r zeroed. */
void bl_plot_result_release(struct bl_plot_result *r);

/* ---- a) vmstat swpd chart (plot/swpd.c) ------------------------------ */


/* Draws swpd (MiB, left axis) and si, so (KiB/s, right axis) against
 * time, stutter intervals shaded, events as dashed vertical lines with
 * their text; below each panel a strip of free memory (MiB) on an axis of
 * its own over the same time axis, the stutter shaded there too. One
 * panel and strip per group; groups alike in duration and peak swpd
 * (within a factor of 4) share their x and y ranges, and their strips'
 * free memory scale when the peaks of free are within a factor of 4 too.
 * Default basename "swpd". Files: swpd.gp, swpd-<group 1..n>.dat.
 * A group with more than BL_SWPD_BAND_FACTOR samples per pixel column
 * (width_px) is drawn as a band: its .dat file holds a block per series
 * (swpd, free, si, so: gnuplot's index 0-3) with, per bucket of its x
 * range (BL_SWPD_BAND_BUCKETS_PER_PX per pixel column), the series'
 * minimum and maximum at the times of the bucket's first and last sample,
 * and the script draws a vertical line between them at each (vectors,
 * which paint every pixel column); the .dat header and
 * the script say so. Overlapping stutter intervals are shaded as one, and a "stutter
 * goes on" mark is drawn once per position. */
#define BL_SWPD_BAND_FACTOR 8
#define BL_SWPD_BAND_BUCKETS_PER_PX 2
int bl_plot_swpd(const struct bl_swpd_plot *in, const struct bl_plot_opts *opts,
		 struct bl_plot_result *res);


/* Seconds spent per swpd bin, as drawn by bl_plot_swpd_stutter().
 * Each sample i stands for the span [t_i, t_{i+1}) at swpd_i; the last
 * sample gets the length of the span before it (0 if it is the only one).
 * Bin k covers swpd [k*bin_mib, (k+1)*bin_mib) MiB (swpd_kib / 1024).
 * observed_s is the length of the spans in the bin, stutter_s the part of
 * them inside a stutter interval (overlapping intervals count once).
 * Samples with NaN swpd are skipped. */
struct bl_stutter_bin {
	double lo_mib;
	double observed_s;
	double stutter_s;
};
/* Computes the bins of one group, from the lowest to the highest bin
 * with a sample (bins in between may have observed_s == 0).
 * *out is a heap array the caller frees; *nout its length (0 and NULL when
 * no sample has a swpd value). Returns 0, -BL_EUSAGE (bin_mib <= 0,
 * samples not sorted, more than 100000 bins) or -BL_ERANGE. */
int bl_swpd_stutter_bins(const struct bl_swpd_group *g, double bin_mib,
			 struct bl_stutter_bin **out, size_t *nout);

/* b) x = swpd (MiB, bin of in->bin_mib), y = seconds: time observed in the
 * bin (outline) and time spent stuttering (filled), one series per group,
 * plus a dashed line per group at the top of its highest stuttering bin
 * ("smooth above"). Default basename "swpd-stutter". */
int bl_plot_swpd_stutter(const struct bl_swpd_plot *in,
			 const struct bl_plot_opts *opts,
			 struct bl_plot_result *res);

/* ---- c) ConTest grouped bars (plot/contest.c) ----------------------- */


/* Top panel: one cluster per load, one bar per group, with error bars.
 * Bottom panel (when in->baseline names a load): each cell's ratio (the
 * caller's, analyze/contest.h C2), per load (the baseline itself left
 * out), with its value printed above the bar and a line at 1. Default
 * basename "contest". */
int bl_plot_contest(const struct bl_contest_plot *in,
		    const struct bl_plot_opts *opts, struct bl_plot_result *res);

/* ---- d) latency histograms (plot/latency.c) ------------------------- */


/* Three panels with the same x range: counts per bin (log y), CDF
 * (fraction of samples <= x) and tail P(X >= x) (log y); a legend with
 * each series' name, total and overflow. Default basename "latency". */
int bl_plot_latency(const struct bl_latency_plot *in,
		    const struct bl_plot_opts *opts, struct bl_plot_result *res);

/* ---- e) per-run panels (plot/runs.c) -------------------------------- */


/* Side-by-side panels, x = run number: elapsed (s), CPU (%) and allocation
 * (MiB); a panel is left out when no run has that value. One colour per
 * group, points joined in run order, the group mean as a dashed line.
 * 1 to BL_RUNS_PLOT_MAX runs (analyze/chart.h), else -BL_EUSAGE; memory:
 * 8 bytes a run and the data files' text, beside the caller's points.
 * Default basename "runs". */
int bl_plot_runs(const struct bl_runs_plot *in, const struct bl_plot_opts *opts,
		 struct bl_plot_result *res);

/* ---- an analysis's charts (plot/charts.c) --------------------------- */

/* Where charts go and in which forms. */
struct bl_chart_opts {
	const char *dir;               /* existing folder */
	unsigned terms;                /* enum bl_plot_term bits */
	bool script_only;              /* write scripts and data, run no gnuplot
					  (the caller runs each <name>.gp) */
	struct bl_gp_limits gp;        /* of each gnuplot run */
};

/* The charts of analysis an (state st), as its charts() returns them
 * (analyze/chart.h), drawn in order into co->dir. Each chart made
 * (script and data written; with gnuplot, its images too) is appended to
 * *charts (name, the spec's caption, bytes of script and data; caller
 * frees with bl_charts_free). A chart that fails is named on diag
 * ("benchlog: <name> chart: <gnuplot's message>") and left out; the
 * others are still drawn. The dumb terminal's previews are written to
 * preview (NULL: dropped). Returns 0 (also when an has no charts);
 * -BL_ENOTFOUND when gnuplot is not on PATH (scripts and data were
 * written); else charts()'s or the last chart's error. errno: why
 * charts() failed with -BL_EIO (EFBIG, ENOSPC), else 0 (a chart's own
 * failure is said on diag). */
int bl_analysis_draw(const struct bl_analysis *an, void *st, const struct bl_chart_opts *co,
		     struct bl_chart **charts, size_t *ncharts, FILE *diag, FILE *preview);
/* Why charts could not be drawn, for the closing line of `plot` and
 * `report` alike: rc the failure (bl_analysis_draw()'s, or a gnuplot
 * run's), err the errno bl_analysis_draw() left (0 for a run). err's
 * text when set (EFBIG, ENOSPC); "see above" for -BL_EIO, whose reason
 * the chart's own line on diag gave; else rc's text. Static. */
const char *bl_chart_why(int rc, int err);

#endif
