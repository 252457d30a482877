/* cmd_compare.c — `benchlog compare`: baseline against candidates, column
 * by column: change with its interval, Welch's t-test and a verdict. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "analyze/analysis.h"
#include "analyze/compare.h"
#include "analyze/table_stats.h"
#include "cli/analysis_opts.h"
#include "cli/cli.h"
#include "core/strmap.h"
#include "parsers/pass.h"
#include "core/util.h"
#include "parsers/parser.h"

enum { OPT_BY = OPT_CLI_LAST + 1, OPT_CONF, OPT_TEST, OPT_CSV, OPT_NEGLIGIBLE };

static const struct cli_opt opts[] = {
	{ 'b', "baseline", "GROUP", "the set the others are compared with (default: the first)" },
	{ 'g', "group-by", "COLUMN", "the column that names the sets (default: group; kernel\n"
	  "for contest_report)" },
	{ OPT_BY, "by", "LIST", "compare within blocks of these columns, comma-separated\n"
	  "(default: load for contest tables, else none; '' = none)" },
	{ 'c', "column", "LIST", "these columns only (default: the measures: numeric columns\n"
	  "except identifiers, positions and settings; docs/stats.md)" },
	{ 't', "table", "TABLE", "rows of this table only; for CSV input, its table" },
	{ OPT_CONF, "confidence", "C", "confidence level in (0, 1) (default 0.95; alpha = 1 - C)" },
	{ OPT_TEST, "test", "welch|student", "Welch's unequal-variance t-test (default), or the\n"
	  "pooled Student's t-test ministat prints" },
	{ OPT_NEGLIGIBLE, "negligible", "[COLUMN=]X%", "changes within +-X% are negligible, whatever p\n"
	  "is (default 1%; repeat for several columns)" },
	{ 'f', "format", "text|csv|md", "aligned text (default), CSV or Markdown" },
	{ OPT_CSV, "csv", NULL, "read every input as a CSV table" },
	{ OPT_QUOTED, "quoted", "include|exclude", "use records quoted in mail replies (default exclude)" },
	{ 'q', "quiet", NULL, "errors and warnings only: no progress line,\n"
	  "accounting summary, notes or \"wrote\" lines" },
	{ 0, NULL, NULL, NULL },
};
/* C5: the terminal's width when stdout is one, else $COLUMNS (a whole
 * number from 1 to 65535, what a terminal can report), else 80; never
 * below 40. */
static size_t text_width(void)
{
	struct winsize ws;
	long long w = 80;
	const char *e = getenv("COLUMNS");
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		w = ws.ws_col;
	else if (e && *e && (bl_parse_ll(e, strlen(e), &w) != 0 || w < 1 || w > 65535))
		w = 80;
	return w < 40 ? 40 : (size_t)w;
}

static const char notes[] =
	"Per column: baseline and candidate n, mean, CI of the mean and median; the change\n"
	"in % of |baseline mean| with its interval (Fieller), the two-sided p-value, and p\n"
	"adjusted (Bonferroni) within its family: the measures compared for one baseline\n"
	"and candidate of one table and source, m of them (-c narrows it); the interval\n"
	"is at 1 - (1 - C) / m, simultaneous over the family. Verdict:\n"
	"  negligible      the whole interval lies within the band, whatever p is\n"
	"  faster, slower, more/less memory, more/fewer faults, higher, lower\n"
	"                  p adj < 1 - C: the interval excludes 0\n"
	"  no change detected   the interval holds 0; with the change a test would\n"
	"                  detect at 80% power\n"
	"  too few runs    fewer than 3 values on a side\n"
	"  averages only, no test possible   the table holds means of runs only\n"
	"  no test         the test is undefined (see the note)\n"
	"vmstat and latency are compared as the report's Findings compare them, by group,\n"
	"whatever -g and --by say (D18): vmstat per series (mean swpd, si, so, free, Welch\n"
	"with each series' effective sample size) and per iteration, never sample by\n"
	"sample (vmstat rows of a CSV table are not compared); latency p50 by Mann-Whitney\n"
	"and p99 by Kolmogorov-Smirnov on the histograms, and the share late (--target,\n"
	"--late). Their rows follow the other tables' and join the same family of tests:\n"
	"the numbers are those of the report's Findings when it compares all sources.\n"
	"docs/statistics.md D12-D18 define each number.\n"
	"Inputs as for `benchlog stats`: logs, CSV tables (*.csv with a header, or --csv).\n"
	"Exit status 1 also when nothing could be compared.\n"
	"Text fits the terminal (else $COLUMNS, else 80 columns): note, median, ci95, diff,\n"
	"p, m, n and mean are left out in that order, then long names cut with ...; -f csv\n"
	"holds every column.\n"
	"Memory: each comparison waits in a temporary file in $TMPDIR (else /tmp; removed\n"
	"on every exit), 48 bytes of it in memory (its p and family), and 8 bytes a group\n"
	"while groups are matched; output goes 10000 rows at a time: text longer than that\n"
	"comes in pages, each fitted on its own; the groups as for `benchlog stats`\n"
	"(docs/stats.md).\n";
static const struct cli_opt *const parts[] = { opts, cli_analysis_opts, cli_common_opts, NULL };


/* After the comparisons, on stderr: why an analysis's table gave no rows
 * (as the walk says "one group only" of the others); that -c left none
 * only when nothing at all was compared (none: k.tables 0). */
static void own_notes(const struct bl_cmp_rows *rows, void *const *st, const struct bl_findings_opts *fo,
		      bool none)
{
	for (size_t i = 0; i < rows->nskip; i++)
		for (size_t k = 0; k < rows->nown; k++)
			if (strcmp(rows->skip[i].table, rows->own[k]) == 0)
				cli_err("benchlog compare: table %s not compared: %s\n", rows->skip[i].table,
					rows->skip[i].why);
	for (size_t i = 0; bl_analyses[i]; i++) {
		const char *t = bl_analyses[i]->name;   /* its rows' table */
		if (!st[i] || !bl_analyses[i]->has_data(st[i]) || (fo->table && strcmp(fo->table, t) != 0))
			continue;
		if (bl_cmp_spill_has_table(rows->spill, t))   /* only its analysis makes rows of t */
			continue;
		if (fo->ncols && none)
			cli_err("benchlog compare: table %s: none of its analysis's measures is among -c's "
				"columns (docs/statistics.md D18)\n", t);
		else if (!fo->ncols)
			cli_err("benchlog compare: table %s: no two series of different groups to compare\n", t);
	}
}

/* The pass over the inputs into the tables' statistics and the analyses
 * that compare their own tables (analysis.h findings(), as the report
 * runs them), then every comparison on stdout. Returns the exit status. */
static int compare_run(const struct bl_opts *o, const struct bl_tstats_opts *so,
		       const struct bl_compare_opts *co, struct bl_analysis_opts *ao, char **inputs, int n,
		       bool force_csv)
{
	int status;
	struct bl_ctx ctx;
	bl_ctx_init(&ctx, o);
	size_t na = 0;
	while (bl_analyses[na])
		na++;
	void **st = bl_xcalloc(na + 1, sizeof *st);
	ao->parse = o;
	ao->include_quoted = so->include_quoted;
	ao->baseline = co->baseline;
	ao->confidence = co->confidence;
	bool any_data = false;
	for (size_t i = 0; i < na; i++) {
		/* -t names another table: its rows would all be left out */
		if (!bl_analyses[i]->findings || (so->table && strcmp(so->table, bl_analyses[i]->name) != 0))
			continue;
		st[i] = bl_analyses[i]->create(ao);
		struct bl_sink s = { bl_analyses[i]->record, NULL, NULL, st[i], false };
		bl_ctx_add_sink(&ctx, &s);
	}
	struct bl_groups groups = { .baseline = co->baseline };   /* --baseline is a group of the input */
	struct bl_sink gs = bl_groups_sink(&groups);
	bl_ctx_add_sink(&ctx, &gs);
	struct bl_tstats *ts = bl_tstats_new(so, &ctx);
	status = cli_tstats_read("compare", &ctx, ts, inputs, n, force_csv, false);
	bool tmp_failed = ctx.error == -BL_EIO;   /* said by cli_tstats_read */
	/* the analyses' last temporary files (analysis.h finish), before
	 * their rows are taken: a failed one leaves no series to compare */
	for (size_t i = 0; i < na && !tmp_failed && !cli_interrupted(); i++)
		if (st[i] && bl_analyses[i]->finish && bl_analyses[i]->finish(st[i]) < 0) {
			bl_tmp_say(stderr, "compare", errno);
			tmp_failed = true;
			status = EXIT_DATA;
		}
	for (size_t i = 0; i < na; i++)
		any_data |= st[i] && bl_analyses[i]->has_data(st[i]);
	struct bl_cmp_rows rows;
	struct bl_findings_opts fo = { co, true, so->table, so->cols, so->ncols, false };
	bl_analyses_findings(ts, st, &fo, &rows);
	/* the groups' cells read back to make the rows (a failed put out
	 * reads back as empty groups: wrong rows), then the rows' own file */
	int spill_err = bl_tstats_spill_err(ts) ? bl_tstats_spill_err(ts) : bl_cmp_spill_err(rows.spill);
	if (!cli_interrupted() && !tmp_failed && spill_err) {
		/* every row is put and flushed before the first byte is
		 * printed: a failed spill is said here, with nothing printed,
		 * not after the tables' headers (C6) */
		bl_tmp_say(stderr, "compare", spill_err);
		tmp_failed = true;
		status = EXIT_DATA;
	}
	if (cli_interrupted() || tmp_failed) {
		/* said above or by cli_tstats_read; nothing written */
	} else if (bl_tstats_ntables(ts) == 0 && !any_data) {
		if (!ctx.input_errors)
			cli_err("benchlog compare: no numbers to compare%s%s in the input\n",
				so->table ? " in table " : "", so->table ? so->table : "");
		status = EXIT_DATA;
	} else {
		struct bl_compare_counts k;
		int rc = bl_compare_write(ts, &rows, stdout, stderr, co, &k);
		if (rc == -BL_EIO && !ferror(stdout))
			bl_tmp_say(stderr, "compare", errno);
		if (rc)
			status = EXIT_DATA;
		own_notes(&rows, st, &fo, k.tables == 0);
		if (k.low_power)
			cli_err("benchlog compare: warning: %lu comparison%s ha%s fewer than 3 values "
				"on a side: too few to detect any difference\n", k.low_power,
				k.low_power == 1 ? "" : "s", k.low_power == 1 ? "s" : "ve");
		if (k.tables == 0)
			status = EXIT_DATA;
		/* --baseline named no group of any table: a usage error, as in
		 * summary, plot and report (the groups are listed above, or
		 * here when only vmstat or latency could have been compared) */
		if (k.tables == 0 && k.no_baseline > 0)
			status = EXIT_USAGE;
		else if (k.tables == 0 && bl_groups_check(stderr, "compare", &groups))
			status = EXIT_USAGE;
	}
	if (!o->quiet && !cli_interrupted())
		bl_diag_summary(&ctx, stderr);
	bl_compare_rows_free(&rows);
	bl_groups_release(&groups);
	bl_tstats_free(ts);
	for (size_t i = 0; i < na; i++)
		if (st[i])
			bl_analyses[i]->destroy(st[i]);
	free(st);
	bl_ctx_release(&ctx);
	return status;
}

int cmd_compare(int argc, char **argv)
{
	struct cli_getopt_tab gt;
	cli_opts_getopt_tab(parts, &gt);
	struct bl_opts o;
	cli_opts_init(&o);
	struct bl_tstats_opts so;
	memset(&so, 0, sizeof so);
	so.compare = true;
	bl_analyses_own(so.own, &so.nown);
	struct bl_compare_opts co = { NULL, 0.95, BL_CMP_WELCH, BL_TAB_TEXT, NULL, 0, false, 0 };
	struct bl_analysis_opts ao;
	memset(&ao, 0, sizeof ao);
	ao.target_s = NAN;
	struct bl_band *bands = NULL;
	char **cols = NULL, **by = NULL, **bufs = NULL;
	size_t ncols = 0, nby = 0, nbufs = 0;
	const char *gcol = NULL;
	bool by_given = false, force_csv = false;
	int status = EXIT_USAGE;
	int c;
	optind = 1;
	while ((c = cli_getopt("compare", argc, argv, gt.shortopts, gt.lo)) != -1) {
		int r = cli_common_opt("compare", c, optarg, &o);
		if (r == 0)
			r = cli_analysis_opt(c, optarg, "compare", &ao);
		if (r < 0)
			goto done;
		if (r)
			continue;
		switch (c) {
		case 'b': co.baseline = optarg; break;
		case 'g':
			if (!*optarg || strchr(optarg, ',')) {
				cli_usage_error("compare", "-g takes one column name, not \"%s\"", optarg);
				goto done;
			}
			gcol = optarg;
			break;
		case OPT_BY:
			by_given = true;
			if (*optarg && cli_add_list(optarg, &by, &nby, &bufs, &nbufs)) {
				cli_usage_error("compare", "--by takes column names separated by commas, not \"%s\"", optarg);
				goto done;
			}
			break;
		case 'c':
			if (cli_add_list(optarg, &cols, &ncols, &bufs, &nbufs)) {
				cli_usage_error("compare", "-c takes column names separated by commas, not \"%s\"", optarg);
				goto done;
			}
			break;
		case 't': so.table = optarg; break;
		case OPT_CONF: {
			double d;
			if (bl_parse_double(optarg, (size_t)-1, &d) || !(d > 0 && d < 1)) {
				cli_usage_error("compare", "--confidence takes a number between 0 and 1, not \"%s\"", optarg);
				goto done;
			}
			co.confidence = d;
			break;
		}
		case OPT_TEST:
			if (strcmp(optarg, "welch") == 0)
				co.test = BL_CMP_WELCH;
			else if (strcmp(optarg, "student") == 0)
				co.test = BL_CMP_STUDENT;
			else {
				cli_usage_error("compare", "--test takes welch or student, not \"%s\"", optarg);
				goto done;
			}
			break;
		case 'f':
			if (bl_tabfmt_parse(optarg, &co.fmt)) {
				cli_usage_error("compare", "--format takes text, csv or md, not \"%s\"", optarg);
				goto done;
			}
			break;
		case OPT_CSV: force_csv = true; break;
		case OPT_NEGLIGIBLE: {
			/* D13: COLUMN=X% or X% (every column); repeatable */
			char *copy = bl_xstrdup(optarg);
			bufs = bl_xrealloc(bufs, (nbufs + 1) * sizeof *bufs);
			bufs[nbufs++] = copy;
			bands = bl_xrealloc(bands, (co.nbands + 1) * sizeof *bands);
			if (bl_band_parse(copy, &bands[co.nbands])) {
				cli_usage_error("compare", "--negligible takes COLUMN=PERCENT%% or PERCENT%%, not \"%s\"", optarg);
				goto done;
			}
			co.nbands++;
			co.bands = bands;
			break;
		}
		case OPT_QUOTED:
			if (cli_quoted_opt("compare", optarg, &so.include_quoted))
				goto done;
			break;
		case 'q': o.quiet = true; break;
		case OPT_HELP: cli_opts_help("compare", parts, notes); status = 0; goto done;
		default: cli_option_error("compare", gt.lo, argv); goto done;
		}
	}
	/* -t latency: its histograms are compared by its analysis (D18) */
	const struct bl_analysis *an = so.table ? bl_analysis_find(so.table) : NULL;
	if (!(an && an->findings) && cli_table_opt_check("compare", so.table, argv + optind, argc - optind, force_csv))
		goto done;
	/* C1: per table, the --by columns (default R3's), then the compared
	 * column (default R5's) */
	so.by = by;
	so.nby = nby;
	so.by_given = by_given;
	so.cmpcol = gcol;
	so.cols = cols;
	so.ncols = ncols;
	co.narrowed = ncols > 0;   /* D12: -c narrows the question */
	co.width = text_width();

	status = compare_run(&o, &so, &co, &ao, argv + optind, argc - optind, force_csv);
done:
	for (size_t i = 0; i < nbufs; i++)
		free(bufs[i]);
	free(bufs);
	free(cols);
	free(by);
	free(bands);
	return status;
}
