/* cmd_formats.c — `benchlog formats [--columns]`: the registry, one line
 * each; with --columns, every table and column as Markdown (the body of
 * docs/csv.md, which a test keeps in step with this output). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "parsers/parser.h"
#include "tables/sqlite.h"

static const char *const prov_doc[BL_PROV_COLS] = {
	"input name as given on the command line (\"-\" for stdin)",
	"1-based line of the record's first line in that input",
	"Message-ID of the e-mail the record came from (empty otherwise)",
	"the e-mail's Date, ISO 8601 with offset (empty otherwise)",
	"the e-mail's Subject (empty otherwise)",
	"quote depth of the record's lines in a mail reply (0 = not quoted)",
	"the record's group, in order: --group or --group-regex; a label line in the same unit (a kernel version, a short heading directly above the data, or a result label such as `base:` over a side's results; a key indented under a result label, or a heading under one before its data, nests: `base / loop`, the side then the key, so each (side, key) is a group of its own and `compare` pairs the sides per key; a key over more indented result labels nests them, `loop / base`; a one-word key with a final `:` under no label is `#N / loop`, its Nth results); for mail the kernel version in the message's subject or body, else its thread (the subject without Re:/Fwd:/[LIST] tags); for a plain file its name's stem",
	"where `group` came from: `option` (--group, --group-regex), `label` (a label line or heading in the same file or message), `kernel` (a kernel version named in the message's body), `subject` (the kernel version in the message's subject), `thread` (the message's subject without Re:/Fwd:/[LIST] tags), `file` (the file name's stem)",
	"1-based run number within (group, kind of run); empty where runs do not apply",
	"`FILE:LINE` of the first block this record's block copies (the same values, record by record, read earlier in another file, another message or the same message: a result posted again, quoted in a reply, pasted twice), or of the first line of the earlier mail message whose records this message's first records repeat, all of them in order (results mailed again, each under its own label); empty otherwise. Its rows stay in the tables; statistics, comparisons and charts leave them out. A block is the records between two lines of text or labels, a new vmstat capture, or the ends of a file or message; a block, or a message's records, is compared when it holds at least 2 records and 6 different measured values (a single record never is, nor runs that print the same few numbers: two runs may well print the same), and a message's when they are not all alike",
};

static const char *type_name(enum bl_vtype t)
{
	switch (t) {
	case BL_NUM: return "number";
	case BL_INT: return "integer";
	case BL_STR: return "text";
	default: return "";
	}
}

/* Each table once, in registry order. Returns the count. */
static size_t tables(const struct bl_table_def **out, size_t max)
{
	size_t ns = 0;
	for (size_t i = 0; bl_parsers[i]; i++) {
		for (const struct bl_table_def *const *t = bl_parsers[i]->tables; t && *t; t++) {
			bool dup = false;
			for (size_t k = 0; k < ns; k++)
				if (out[k] == *t)
					dup = true;
			if (!dup && ns < max)
				out[ns++] = *t;
		}
	}
	return ns;
}

/* A table cell: '|' would end the cell, a line break the row. */
static void md_cell(const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", stdout);
		else if (*s == '\n')
			putchar(' ');
		else
			putchar(*s);
	}
}

static void columns_md(void)
{
	const struct bl_table_def *t[64];
	size_t n = tables(t, 64);
	printf("## Columns every table starts with\n\n| column | type | meaning |\n|---|---|---|\n");
	for (size_t i = 0; i < BL_PROV_COLS; i++)
		printf("| `%s` | %s | %s |\n", bl_prov_col_names[i],
		       i == BL_PC_LINE || i == BL_PC_QUOTED || i == BL_PC_RUN ? "integer" : "text", prov_doc[i]);
	for (size_t k = 0; k < n; k++) {
		printf("\n## `%s`\n\n%s.\n\n| column | type | meaning, unit, source |\n|---|---|---|\n",
		       t[k]->name, t[k]->doc);
		for (size_t c = 0; c < t[k]->ncols; c++) {
			printf("| `%s` | %s | ", t[k]->cols[c].name, type_name(t[k]->cols[c].type));
			md_cell(t[k]->cols[c].doc);
			fputs(" |\n", stdout);
		}
		if (t[k]->notes)
			printf("\n%s\n", t[k]->notes);
	}
}

enum { OPT_COLUMNS = OPT_CLI_LAST + 1, OPT_SQL };

/* One of them at most, and nothing else on the line. */
static const struct cli_opt opts[] = {
	{ OPT_COLUMNS, "columns", NULL, "every table and column as Markdown (docs/csv.md)" },
	{ OPT_SQL, "sql", NULL, "the SQLite schema of `parse -f sqlite` (docs/schema.sql)" },
	{ OPT_HELP, "help", NULL, "show this help" },
	{ 0, NULL, NULL, NULL },
};
static const struct cli_opt *const parts[] = { opts, NULL };

int cmd_formats(int argc, char **argv)
{
	struct cli_getopt_tab gt;
	cli_opts_getopt_tab(parts, &gt);
	if (argc > 2 || (argc == 2 && (argv[1][0] != '-' || argv[1][1] != '-'))) {
		cli_usage_error("formats", "unexpected argument \"%s\"", argv[argc - 1]);
		return EXIT_USAGE;
	}
	int c = 0;
	optind = 1;
	if (argc == 2 && (c = cli_getopt("formats", argc, argv, gt.shortopts, gt.lo)) == '?') {
		cli_option_error("formats", gt.lo, argv);
		return EXIT_USAGE;
	}
	if (c == OPT_HELP) {
		cli_opts_help("formats", parts, NULL);
		return 0;
	}
	if (c == OPT_COLUMNS) {
		columns_md();
		return 0;
	}
	if (c == OPT_SQL) {
		char *sql = bl_sqlite_schema();
		fputs(sql, stdout);
		free(sql);
		return 0;
	}
	printf("formats:\n");
	for (size_t i = 0; bl_parsers[i]; i++) {
		const struct bl_parser *p = bl_parsers[i];
		printf("  %-12s %s", p->name, p->summary);
		const char *sep = " -> ";
		for (const struct bl_table_def *const *t = p->tables; t && *t; t++) {
			printf("%s%s", sep, (*t)->name);
			sep = ", ";
		}
		putchar('\n');
	}
	printf("tables:\n");
	const struct bl_table_def *t[64];
	size_t n = tables(t, 64);
	for (size_t k = 0; k < n; k++)
		printf("  %-14s %s\n", t[k]->name, t[k]->doc);
	return 0;
}
