/* opts.c — the option tables of cli/ (cli.h, struct cli_opt): each
 * command's options are described once, and getopt's tables and the
 * option list of `--help` are made from that description; bash completion
 * reads `--help` (completion/benchlog.bash) and tests/e2e/help-man.sh
 * checks the man pages' option lists against it. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

/* Options every parsing command takes (parse, summary, plot, report,
 * stats, compare): handled by cli_common_opt(). */
const struct cli_opt cli_common_opts[] = {
	{ OPT_GROUP, "group", "NAME", "put every record in group NAME" },
	{ OPT_GROUP_REGEX, "group-regex", "RE", "lines matching RE set the group (capture 1)" },
	{ OPT_GROUP_FROM, "group-from", "subject", "take the group from the mail subject's kernel" },
	{ OPT_STRICT, "strict", NULL, "malformed or unreadable input makes the run fail" },
	{ OPT_INTERVAL, "interval", "SECONDS", "vmstat sampling interval (default 1)" },
	{ OPT_SINCE_BOOT, "since-boot", "auto|keep|drop", "vmstat's first row (default auto)" },
	{ OPT_STUTTER_START, "stutter-start", "RE", "vmstat line where stutter starts (an event)" },
	{ OPT_STUTTER_END, "stutter-end", "RE", "vmstat line where stutter ends (an event)" },
	{ OPT_UNIT, "unit", "s|ms|us|ns", "read one-latency-per-line input in this unit" },
	{ OPT_HELP, "help", NULL, "show this help" },
	{ 0, NULL, NULL, NULL },
};

/* A short option is a letter key; the OPT_* codes of long-only options
 * are 1000 and up. */
static bool has_short(const struct cli_opt *o)
{
	return o->key > 0 && o->key < 128 && isalpha(o->key);
}

void cli_opts_getopt_tab(const struct cli_opt *const *parts, struct cli_getopt_tab *t)
{
	size_t n = 0, k = 0;
	t->shortopts[k++] = ':';   /* cli_getopt(): a missing argument is ':' */
	for (size_t p = 0; parts[p]; p++)
		for (const struct cli_opt *o = parts[p]; o->name; o++) {
			if (n >= CLI_MAX_OPTS) {
				fprintf(stderr, "benchlog: more than %d options in one command\n", CLI_MAX_OPTS);
				abort();
			}
			t->lo[n++] = (struct option){ o->name, o->arg ? required_argument : no_argument,
						       NULL, o->key };
			if (has_short(o)) {
				t->shortopts[k++] = (char)o->key;
				if (o->arg)
					t->shortopts[k++] = ':';
			}
		}
	t->lo[n] = (struct option){ NULL, 0, NULL, 0 };
	t->shortopts[k] = '\0';
}

/* Column where an option's description starts in --help, and the width
 * its lines are wrapped to. */
#define HELP_COL 24
#define HELP_WIDTH 79

/* text from column col on, its words wrapped at HELP_WIDTH, the lines
 * after the first indented to HELP_COL; a line end in text is a blank. */
static void help_wrap(const char *text, int col)
{
	const char *p = text;
	while (*p) {
		p += strspn(p, " \n");
		size_t len = strcspn(p, " \n");
		if (!len)
			break;
		if (col > HELP_COL && col + 1 + (int)len > HELP_WIDTH) {
			printf("\n%*s", HELP_COL, "");
			col = HELP_COL;
		} else if (p != text && col > HELP_COL) {
			putchar(' ');
			col++;
		}
		col += printf("%.*s", (int)len, p);
		p += len;
	}
	putchar('\n');
}

void cli_opts_help(const char *cmd, const struct cli_opt *const *parts, const char *notes)
{
	cli_help_head(cmd);
	for (size_t p = 0; parts[p]; p++)
		for (const struct cli_opt *o = parts[p]; o->name; o++) {
			int w = has_short(o) ? printf("  -%c, --%s", o->key, o->name) : printf("      --%s", o->name);
			if (o->arg)
				w += printf(" %s", o->arg);
			w += printf("%*s", w < HELP_COL - 1 ? HELP_COL - w : 2, "");
			help_wrap(o->help, w);
		}
	if (notes)
		printf("\n%s", notes);
}
