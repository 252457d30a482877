/* cmd_compare.c — `benchlog compare`: baseline against candidates, column
 * by column: change with its interval, Welch's t-test and a verdict. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/compare.h"
#include "analyze/table_stats.h"
#include "cli/cli.h"
#include "parsers/pass.h"
#include "core/util.h"
#include "parsers/parser.h"

static const char help[] =
	"  -b, --baseline GROUP   the set the others are compared with (default: the first)\n"
	"  -g, --group-by COLUMN  the column that names the sets (default: group; kernel\n"
	"                         for contest_report)\n"
	"      --by LIST          compare within blocks of these columns, comma-separated\n"
	"                         (default: load for contest tables, else none; '' = none)\n"
	"  -c, --column LIST      these columns only (default: the measures: numeric columns\n"
	"                         except identifiers, positions and settings; docs/stats.md)\n"
	"  -t, --table TABLE      rows of this table only; for CSV input, its table (not\n"
	"                         latency: `benchlog summary` compares its histograms)\n"
	"      --confidence C     confidence level in (0, 1) (default 0.95; alpha = 1 - C)\n"
	"      --test welch|student  Welch's unequal-variance t-test (default), or the\n"
	"                         pooled Student's t-test ministat prints\n"
	"      --negligible [COLUMN=]X%  changes within +-X% are negligible, whatever p\n"
	"                         is (default 1%; repeat for several columns)\n"
	"  -f, --format text|csv|md  aligned text (default), CSV or Markdown\n"
	"      --csv              read every input as a CSV table\n"
	"      --quoted include|exclude  use records quoted in mail replies (default exclude)\n"
	"  -q, --quiet            no progress line, no line-accounting summary\n"
	CLI_COMMON_HELP
	"\nPer column: baseline and candidate n, mean, CI of the mean and median; the change\n"
	"in % of |baseline mean| with its CI (Fieller), the two-sided p-value, and p\n"
	"adjusted over every test of the run (Holm; Benjamini-Hochberg beside it). Verdict:\n"
	"  better, worse   p Holm < 1 - C and the change outside the negligible band, by\n"
	"                  the column's direction (higher, lower when it has none)\n"
	"  negligible      the change is within the band, whatever p is\n"
	"  no detectable change   with the change a test would detect at 80% power\n"
	"  too few runs    fewer than 3 values on a side\n"
	"  averages only, no test possible   the table holds means of runs only\n"
	"  no test         the test is undefined (see the note)\n"
	"docs/statistics.md D12-D16 define each number.\n"
	"Inputs as for `benchlog stats`: logs, CSV tables (*.csv with a header, or --csv).\n"
	"Exit status 1 also when nothing could be compared.\n";

enum { OPT_BY = OPT_CLI_LAST + 1, OPT_CONF, OPT_TEST, OPT_CSV, OPT_NEGLIGIBLE };

/* The pass over the inputs, then the comparisons on stdout. Returns the
 * exit status. */
static int compare_run(const struct bl_opts *o, const struct bl_tstats_opts *so,
		       const struct bl_compare_opts *co, char **inputs, int n, bool force_csv)
{
	int status;
	struct bl_ctx ctx;
	bl_ctx_init(&ctx, o);
	struct bl_tstats *ts = bl_tstats_new(so, &ctx);
	status = cli_tstats_read("compare", &ctx, ts, inputs, n, force_csv, false);
	if (bl_tstats_ntables(ts) == 0) {
		if (!ctx.input_errors)
			cli_err("benchlog compare: no numbers to compare%s%s in the input\n",
				so->table ? " in table " : "", so->table ? so->table : "");
		status = EXIT_DATA;
	} else {
		struct bl_compare_counts k;
		if (bl_compare_write(ts, stdout, stderr, co, &k))
			status = EXIT_DATA;
		if (k.low_power)
			cli_err("benchlog compare: warning: %lu comparison%s ha%s fewer than 3 values "
				"on a side: too few to detect any difference\n", k.low_power,
				k.low_power == 1 ? "" : "s", k.low_power == 1 ? "s" : "ve");
		if (k.tables == 0)
			status = EXIT_DATA;
		/* --baseline named no group of any table: a usage error, as in
		 * summary, plot and report (the groups are listed above) */
		if (k.tables == 0 && k.no_baseline > 0)
			status = EXIT_USAGE;
	}
	if (!o->quiet)
		bl_diag_summary(&ctx, stderr);
	bl_tstats_free(ts);
	bl_ctx_release(&ctx);
	return status;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "baseline", required_argument, NULL, 'b' },
		{ "group-by", required_argument, NULL, 'g' },
		{ "by", required_argument, NULL, OPT_BY },
		{ "column", required_argument, NULL, 'c' },
		{ "table", required_argument, NULL, 't' },
		{ "confidence", required_argument, NULL, OPT_CONF },
		{ "test", required_argument, NULL, OPT_TEST },
		{ "negligible", required_argument, NULL, OPT_NEGLIGIBLE },
		{ "format", required_argument, NULL, 'f' },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "quoted", required_argument, NULL, OPT_QUOTED },
		{ "quiet", no_argument, NULL, 'q' },
		CLI_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct bl_opts o;
	bl_opts_init(&o);
	struct bl_tstats_opts so;
	memset(&so, 0, sizeof so);
	so.compare = true;
	struct bl_compare_opts co = { NULL, 0.95, BL_CMP_WELCH, BL_TAB_TEXT, NULL, 0 };
	struct bl_band *bands = NULL;
	char **cols = NULL, **by = NULL, **bufs = NULL;
	size_t ncols = 0, nby = 0, nbufs = 0;
	const char *gcol = NULL;
	bool by_given = false, force_csv = false;
	int status = EXIT_USAGE;
	int c;
	optind = 1;
	while ((c = cli_getopt("compare", argc, argv, ":b:g:c:t:f:q", lo)) != -1) {
		int r = cli_common_opt("compare", c, optarg, &o);
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
		case OPT_HELP: cli_help("compare", help); status = 0; goto done;
		default: cli_option_error("compare", lo, argv); goto done;
		}
	}
	if (cli_table_opt_check("compare", so.table, argv + optind, argc - optind, force_csv))
		goto done;
	/* C1: per table, the --by columns (default R3's), then the compared
	 * column (default R5's) */
	so.by = by;
	so.nby = nby;
	so.by_given = by_given;
	so.cmpcol = gcol;
	so.cols = cols;
	so.ncols = ncols;

	status = compare_run(&o, &so, &co, argv + optind, argc - optind, force_csv);
done:
	for (size_t i = 0; i < nbufs; i++)
		free(bufs[i]);
	free(bufs);
	free(cols);
	free(by);
	free(bands);
	return status;
}
