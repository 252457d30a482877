/* cmd_parse.c — `benchlog parse`: logs to CSV tables (or TSV, JSON Lines,
 * one SQLite database). */
#include <unistd.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "tables/table.h"
#include "tables/pick.h"
#include "tables/sqlite.h"
#include "core/util.h"
#include "parsers/parser.h"

static const struct cli_opt opts[] = {
	{ 'o', "output", "DIR", "write one DIR/<table>.<format> per table that has rows\n"
	  "(created with its parents if missing; files\n"
	  "replaced atomically; a table file left from an\n"
	  "earlier run with no rows now is rewritten with\n"
	  "its header only)" },
	{ 't', "table", "TABLE", "only this table; without -o it goes to stdout" },
	{ 'f', "format", "csv|tsv|jsonl|sqlite", "csv (default), tsv, jsonl, or sqlite: one typed\n"
	  "database DIR/benchlog.sqlite (needs -o)" },
	{ 'q', "quiet", NULL, "errors and warnings only: no progress line,\n"
	  "accounting summary, notes or \"wrote\" lines" },
	{ OPT_SPREADSHEET_SAFE, "spreadsheet-safe", NULL, "a CSV text cell beginning with = + - @ TAB or CR\n"
	  "gets a ' in front, so a spreadsheet does not run it\n"
	  "as a formula (docs/csv.md); numbers are untouched" },
	{ 0, NULL, NULL, NULL },
};
static const struct cli_opt *const parts[] = { opts, cli_common_opts, NULL };
static const char notes[] =
	"Without -o, one table is written to stdout: -t TABLE, else the one table\n"
	"that has rows (when several have rows, name one with -t or use -o).\n"
	"Inputs: files, folders (recursed, sorted), .gz, mail, \"-\" for stdin.\n"
	"Tables: see `benchlog formats` and docs/csv.md.\n";

int cmd_parse(int argc, char **argv)
{
	struct cli_getopt_tab gt;
	cli_opts_getopt_tab(parts, &gt);
	struct bl_opts o;
	cli_opts_init(&o);
	const char *dir = NULL, *table = NULL;
	struct bl_table_opts to = { BL_OUT_CSV, false };
	bool sqlite = false;
	int c;
	optind = 1;
	while ((c = cli_getopt("parse", argc, argv, gt.shortopts, gt.lo)) != -1) {
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
			sqlite = strcmp(optarg, "sqlite") == 0;
			if (!sqlite && bl_outfmt_parse(optarg, &to.fmt)) {
				cli_usage_error("parse", "--format takes csv, tsv, jsonl or sqlite, not \"%s\"", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_SPREADSHEET_SAFE: to.spreadsheet_safe = true; break;
		case OPT_HELP: cli_opts_help("parse", parts, notes); return 0;
		default: cli_option_error("parse", gt.lo, argv); return EXIT_USAGE;
		}
	}
	const struct bl_table_def *td = NULL;
	if (table && !(td = bl_table_find(table))) {
		cli_usage_error("parse", "unknown table \"%s\" (see `benchlog formats`)", table);
		return EXIT_USAGE;
	}
	if (sqlite && !dir) {
		cli_usage_error("parse", "-f sqlite writes a database file: give the folder with -o DIR");
		return EXIT_USAGE;
	}
	/* the progress line, unless the records go to the same terminal */
	o.progress = !o.quiet && isatty(STDERR_FILENO) && (dir || !isatty(STDOUT_FILENO));
	struct bl_ctx ctx;
	bl_ctx_init(&ctx, &o);
	struct bl_sink sink;
	struct bl_pick pick;
	bool picking = !dir && !td;
	if (sqlite) {
		const char *why = NULL;
		char *db = NULL;
		if (bl_mkdir_p(dir) != 0 ||
		    bl_sqlite_sink(&sink, db = bl_xasprintf("%s/benchlog.sqlite", dir), table, &why) != 0) {
			cli_err("benchlog parse: cannot write %s: %s\n", db ? db : dir,
				why ? why : strerror(errno));
			free(db);
			bl_ctx_release(&ctx);
			return EXIT_DATA;
		}
		free(db);
	} else if (dir) {
		if (bl_mkdir_p(dir) != 0) {
			cli_err("benchlog parse: cannot create %s: %s\n", dir, strerror(errno));
			bl_ctx_release(&ctx);
			return EXIT_DATA;
		}
		if (bl_dir_sink(&sink, dir, table, &to) != 0) {
			cli_err("benchlog parse: cannot write into %s: %s\n", dir, strerror(errno));
			bl_ctx_release(&ctx);
			return EXIT_DATA;
		}
	} else if (td) {
		bl_stream_sink(&sink, stdout, td, &to);
	} else {
		bl_pick_sink(&sink, stdout, &to, &pick, &ctx);
	}
	bl_ctx_add_sink(&ctx, &sink);
	int st = cli_run_pass(&ctx, argv + optind, argc - optind, true);
	unsigned long records = ctx.records;
	bl_ctx_release(&ctx);
	if (st == 0 && records == 0) {
		/* the same status as every other command (docs/errors.md):
		 * the tables asked for are written, headers only */
		cli_err("benchlog parse: no records found in the input\n");
		return EXIT_DATA;
	}
	if (picking && st == 0 && pick.n > 1) {
		/* "3 tables have rows (vmstat, events, time): choose one ..." */
		cli_err("benchlog parse: %zu tables have rows (", pick.n);
		for (size_t i = 0; i < pick.n && i < BL_PICK_MAX; i++)
			cli_err("%s%s", i ? ", " : "", pick.t[i]->name);
		cli_err("): choose one with -t, or write them all with -o DIR\n");
		return EXIT_USAGE;
	}
	return st;
}
