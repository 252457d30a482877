/* cmd_parse.c — `benchlog parse`: logs to CSV tables. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "tables/table.h"
#include "core/util.h"
#include "parsers/parser.h"

static const char help[] =
	"  -o, --output DIR      write one DIR/<table>.<format> per table that has rows\n"
	"                        (created with its parents if missing; files\n"
	"                        replaced atomically; a table file left from an\n"
	"                        earlier run with no rows now is rewritten with\n"
	"                        its header only)\n"
	"  -t, --table TABLE     only this table; without -o it goes to stdout\n"
	"  -f, --format FORMAT   csv (default), tsv or jsonl\n"
	"  -q, --quiet           no line-accounting summary on stderr\n"
	CLI_COMMON_HELP
	"\nWithout -o, one table (-t, default \"time\") is written to stdout.\n"
	"Inputs: files, folders (recursed, sorted), .gz, mail, \"-\" for stdin.\n"
	"Tables: see `benchlog formats` and docs/csv.md.\n";

int cmd_parse(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "table", required_argument, NULL, 't' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "format", required_argument, NULL, 'f' },
		CLI_COMMON_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	struct bl_opts o;
	bl_opts_init(&o);
	const char *dir = NULL, *table = NULL;
	enum bl_outfmt fmt = BL_OUT_CSV;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:t:qf:", lo, NULL)) != -1) {
		int r = cli_common_opt("parse", c, optarg, &o);
		if (r < 0)
			return EXIT_USAGE;
		if (r)
			continue;
		switch (c) {
		case 'o': dir = optarg; break;
		case 't': table = optarg; break;
		case 'q': o.quiet = true; break;
		case 'f':
			if (bl_outfmt_parse(optarg, &fmt)) {
				cli_usage_error("parse", "--format takes csv, tsv or jsonl, not \"%s\"", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_HELP: cli_help("parse", help); return 0;
		default: cli_usage_error("parse", NULL); return EXIT_USAGE;
		}
	}
	const struct bl_table_def *td = NULL;
	if (table && !(td = bl_table_find(table))) {
		cli_usage_error("parse", "unknown table \"%s\" (see `benchlog formats`)", table);
		return EXIT_USAGE;
	}
	struct bl_ctx ctx;
	bl_ctx_init(&ctx, &o);
	struct bl_sink sink;
	if (dir) {
		if (bl_mkdir_p(dir) != 0) {
			fprintf(stderr, "benchlog parse: cannot create %s: %s\n", dir, strerror(errno));
			bl_ctx_release(&ctx);
			return EXIT_DATA;
		}
		if (bl_dir_sink(&sink, dir, table, fmt) != 0) {
			fprintf(stderr, "benchlog parse: cannot write into %s: %s\n", dir, strerror(errno));
			bl_ctx_release(&ctx);
			return EXIT_DATA;
		}
	} else {
		bl_stream_sink(&sink, stdout, td ? td : bl_table_find("time"), fmt);
	}
	bl_ctx_add_sink(&ctx, &sink);
	int st = cli_run_pass(&ctx, argv + optind, argc - optind, true);
	bl_ctx_release(&ctx);
	return st;
}
