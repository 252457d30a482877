/* cmd_stats.c — `benchlog stats`: n, mean, sd, CI95, min, percentiles and
 * max of table columns per group, from logs, CSV files or partials. */
#include <math.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/table_stats.h"
#include "cli/cli.h"
#include "parsers/pass.h"
#include "core/util.h"
#include "parsers/parser.h"

enum { OPT_PCTS = OPT_CLI_LAST + 1, OPT_BINS, OPT_RULE, OPT_CSV, OPT_PARTIAL, OPT_MERGE };

static const struct cli_opt opts[] = {
	{ 't', "table", "TABLE", "rows of this table only (default: every table found but\n"
	  "latency, whose histogram buckets `benchlog summary` reads);\n"
	  "for CSV input, the table the rows belong to" },
	{ 'c', "column", "LIST", "these columns, comma-separated, in this order (repeatable;\n"
	  "default: the measures, i.e. numeric columns except\n"
	  "identifiers, positions and settings such as line, series,\n"
	  "sample, t_s, tid, exit_status: docs/stats.md);\n"
	  "write a comma inside a name as \\," },
	{ 'g', "group-by", "LIST", "group by these columns (default: group, and load for\n"
	  "contest tables)" },
	{ OPT_PCTS, "percentiles", "LIST", "percentiles to show, in % (default 50,90,95,99)" },
	{ OPT_RULE, "rule", "type7|nearest", "percentile definition (default type7, as R and datamash)" },
	{ OPT_BINS, "bins", "N", "a histogram of N equal-width bins per group and column\n"
	  "(with --format csv, the histogram table alone)" },
	{ 'f', "format", "text|csv|md", "aligned text (default), CSV or a Markdown table" },
	{ OPT_CSV, "csv", NULL, "read every input as a CSV table" },
	{ OPT_PARTIAL, "partial", NULL, "write mergeable partial aggregates instead (docs/stats.md)" },
	{ OPT_MERGE, "merge", NULL, "inputs are partial files: merge them and print the result" },
	{ OPT_QUOTED, "quoted", "include|exclude", "use records quoted in mail replies (default exclude)" },
	{ 'q', "quiet", NULL, "errors and warnings only: no progress line,\n"
	  "accounting summary, notes or \"wrote\" lines" },
	{ 0, NULL, NULL, NULL },
};
static const char notes[] =
	"Inputs: logs (through the parsers, like `benchlog parse`), and CSV tables: a file\n"
	"named *.csv or *.csv.gz whose first line is a header (non-empty, distinct names,\n"
	"none a number), or any input with --csv. Values that are not numbers are left\n"
	"out: a column with some is dropped from the defaults (a note says so).\n"
	"\nDefinitions (docs/statistics.md): sd is the sample standard deviation (n-1);\n"
	"ci95 the half-width of the 95% Student-t interval of the mean (none for vmstat\n"
	"and vmstat_disk, time series: summary gives vmstat's interval with n_eff, D15);\n"
	"percentiles are Hyndman-Fan type 7 (or nearest rank). Percentiles are exact\n"
	"(column pct = \"exact\") while a column holds at most 1048576 values and the\n"
	"run keeps at most 33554432 (256 MiB) in all; beyond, and after --merge, they\n"
	"come from a log-bucketed sketch and are within 1% (\"sketch\", marked \u2248 in\n"
	"text). A percentile p is shown only when n min(p, 100-p)/100 >= 1 (p90:\n"
	"n >= 10, p95: 20, p99: 100). n, mean, sd, min and max are always exact. Memory\n"
	"is bounded whatever the number of groups: the values kept exactly (at most\n"
	"256 MiB), at most 4096 groups a table (the others wait, names and cells, in a\n"
	"temporary file in $TMPDIR, else /tmp, with an index of 8 MiB in memory; removed\n"
	"on every exit), sorted or not. Text longer than 10000 rows comes in pages.\n";
static const struct cli_opt *const parts[] = { opts, cli_common_opts, NULL };


static int parse_pcts(const char *arg, double **out, size_t *n)
{
	free(*out);
	*out = NULL;
	*n = 0;
	const char *p = arg;
	for (;;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		double d;
		if (bl_parse_double(p, len, &d) || d < 0 || d > 100)
			return -1;
		*out = bl_xrealloc(*out, (*n + 1) * sizeof **out);
		(*out)[(*n)++] = d;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

/* The pass over the inputs (or the partial files to merge), then the
 * table, partials or histogram on stdout. Returns the exit status. */
static int stats_run(const struct bl_opts *o, const struct bl_tstats_opts *so,
		     const struct bl_tstats_out *out, char **inputs, int n, bool force_csv, bool partial,
		     bool merge)
{
	int status;
	struct bl_ctx ctx;
	bl_ctx_init(&ctx, o);
	struct bl_tstats *ts = bl_tstats_new(so, &ctx);
	status = cli_tstats_read("stats", &ctx, ts, inputs, n, force_csv, merge);
	int wrc = 0;
	if (cli_interrupted()) {
		/* said by cli_tstats_read; nothing written */
	} else if (bl_tstats_spill_err(ts)) {
		/* groups put out in the pass would read back empty: wrong
		 * rows, so none is printed (as compare) */
		bl_tmp_say(stderr, "stats", bl_tstats_spill_err(ts));
		status = EXIT_DATA;
	} else if (bl_tstats_ntables(ts) == 0) {
		if (!ctx.input_errors)
			cli_err("benchlog stats: no numbers to summarise%s%s in the input\n",
				so->table ? " in table " : "", so->table ? so->table : "");
		status = EXIT_DATA;
	} else if (partial) {
		wrc = bl_tstats_write_partials(ts, stdout);
	} else {
		wrc = bl_tstats_write(ts, stdout, out);
	}
	if (wrc == -BL_EIO && !ferror(stdout))   /* T4a: groups put out and read back */
		bl_tmp_say(stderr, "stats", errno);
	if (wrc)
		status = EXIT_DATA;
	if (!o->quiet && !merge && !cli_interrupted())
		bl_diag_summary(&ctx, stderr);
	bl_tstats_free(ts);
	bl_ctx_release(&ctx);
	return status;
}

int cmd_stats(int argc, char **argv)
{
	struct cli_getopt_tab gt;
	cli_opts_getopt_tab(parts, &gt);
	struct bl_opts o;
	cli_opts_init(&o);
	struct bl_tstats_opts so;
	memset(&so, 0, sizeof so);
	struct bl_tstats_out out = { BL_TAB_TEXT, NULL, 0, BL_PCT_TYPE7, 0 };
	char **cols = NULL, **gcols = NULL, **bufs = NULL;
	size_t ncols = 0, ngcols = 0, nbufs = 0;
	double *pcts = NULL;
	size_t npct = 0;
	bool force_csv = false, partial = false, merge = false;
	int status = EXIT_USAGE;
	int c;
	optind = 1;
	while ((c = cli_getopt("stats", argc, argv, gt.shortopts, gt.lo)) != -1) {
		int r = cli_common_opt("stats", c, optarg, &o);
		if (r < 0)
			goto done;
		if (r)
			continue;
		switch (c) {
		case 't': so.table = optarg; break;
		case 'c':
			if (cli_add_list(optarg, &cols, &ncols, &bufs, &nbufs)) {
				cli_usage_error("stats", "-c takes column names separated by commas, not \"%s\"", optarg);
				goto done;
			}
			break;
		case 'g':
			if (cli_add_list(optarg, &gcols, &ngcols, &bufs, &nbufs)) {
				cli_usage_error("stats", "-g takes column names separated by commas, not \"%s\"", optarg);
				goto done;
			}
			break;
		case 'f':
			if (bl_tabfmt_parse(optarg, &out.fmt)) {
				cli_usage_error("stats", "--format takes text, csv or md, not \"%s\"", optarg);
				goto done;
			}
			break;
		case 'q': o.quiet = true; break;
		case OPT_PCTS:
			if (parse_pcts(optarg, &pcts, &npct)) {
				cli_usage_error("stats", "--percentiles takes numbers in [0, 100] separated by commas, not \"%s\"", optarg);
				goto done;
			}
			break;
		case OPT_BINS: {
			long long b;
			if (bl_parse_ll(optarg, (size_t)-1, &b) || b < 1 || b > 10000) {
				cli_usage_error("stats", "--bins takes a number from 1 to 10000, not \"%s\"", optarg);
				goto done;
			}
			out.bins = (size_t)b;
			break;
		}
		case OPT_RULE:
			if (strcmp(optarg, "type7") == 0)
				out.rule = BL_PCT_TYPE7;
			else if (strcmp(optarg, "nearest") == 0)
				out.rule = BL_PCT_NEAREST_RANK;
			else {
				cli_usage_error("stats", "--rule takes type7 or nearest, not \"%s\"", optarg);
				goto done;
			}
			break;
		case OPT_CSV: force_csv = true; break;
		case OPT_PARTIAL: partial = true; break;
		case OPT_MERGE: merge = true; break;
		case OPT_QUOTED:
			if (cli_quoted_opt("stats", optarg, &so.include_quoted))
				goto done;
			break;
		case OPT_HELP: cli_opts_help("stats", parts, notes); status = 0; goto done;
		default: cli_option_error("stats", gt.lo, argv); goto done;
		}
	}
	if (partial && merge) {
		cli_usage_error("stats", "--partial and --merge exclude each other");
		goto done;
	}
	if (merge && force_csv) {
		cli_usage_error("stats", "--merge reads partial files, not CSV");
		goto done;
	}
	if (merge && optind == argc) {
		cli_usage_error("stats", "--merge needs the partial files to merge");
		goto done;
	}
	if (cli_table_opt_check("stats", so.table, argv + optind, argc - optind, force_csv || merge))
		goto done;
	if (!pcts) {
		static const double def[] = { 50, 90, 95, 99 };
		pcts = bl_xmalloc(sizeof def);
		memcpy(pcts, def, sizeof def);
		npct = 4;
	}
	out.pcts = pcts;
	out.npct = npct;
	so.cols = cols;
	so.ncols = ncols;
	so.gcols = gcols;
	so.ngcols = ngcols;

	status = stats_run(&o, &so, &out, argv + optind, argc - optind, force_csv, partial, merge);
done:
	for (size_t i = 0; i < nbufs; i++)
		free(bufs[i]);
	free(bufs);
	free(cols);
	free(gcols);
	free(pcts);
	return status;
}
