/* cli.h — the command-line front end (after git.c): one cmd_<name>() per
 * subcommand, each turning argv into options and calling library code.
 * Exit status: 0 success, 1 data or runtime error, 2 usage error. */
#ifndef BL_CLI_H
#define BL_CLI_H

#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include "core/ctx.h"
#include "core/store.h"

#define EXIT_DATA 1
#define EXIT_USAGE 2

struct cli_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *synopsis;   /* one usage line, as in the man page */
	const char *summary;    /* one line for `benchlog --help` */
};

extern const struct cli_cmd cli_cmds[];

/* `benchlog ARGS`: the command argv[1] names run on argv (argv[1] is
 * replaced by "benchlog CMD" while it runs); returns the exit status.
 * main() (cli/benchlog.c) sets up the process first; the argv fuzz
 * harness (tests/fuzz/fuzz_argv.c) calls this many times in one. */
int cli_main(int argc, char **argv);

int cmd_parse(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_formats(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);

/* Options every parsing command takes; long-only, values >= 1000. */
enum {
	OPT_GROUP = 1000, OPT_GROUP_REGEX, OPT_GROUP_FROM, OPT_STRICT, OPT_INTERVAL,
	OPT_SINCE_BOOT, OPT_STUTTER_START, OPT_STUTTER_END, OPT_UNIT, OPT_HELP,
	OPT_QUOTED, OPT_SPREADSHEET_SAFE, OPT_CLI_LAST
};
/* One option of a command, described once (after tmux's cmd_entry and
 * args_parse): getopt's tables and the option list of `--help` are made
 * from it (cli/opts.c); bash completion reads that list, and
 * tests/e2e/help-man.sh checks the man pages' OPTIONS against it. A
 * command's options are its own table followed by the shared ones
 * (cli_common_opts; cli_analysis_opts in cli/analysis_opts.h), each
 * ended by an entry whose name is NULL. */
struct cli_opt {
	int key;            /* the short option's letter, or an OPT_* code
			       (1000 and up) for a long-only option */
	const char *name;   /* the long name, without "--" */
	const char *arg;    /* the argument as --help shows it ("DIR",
			       "auto|keep|drop": choices, which completion
			       offers); NULL for an option without one */
	const char *help;   /* the --help text; each "\n" starts a line
			       indented under the first */
};

/* --group … --unit and --help: cli_common_opt() handles all but --help. */
extern const struct cli_opt cli_common_opts[];

#define CLI_MAX_OPTS 48
/* getopt_long()'s tables for a command, made by cli_opts_getopt_tab(). */
struct cli_getopt_tab {
	char shortopts[2 * CLI_MAX_OPTS + 2];
	struct option lo[CLI_MAX_OPTS + 1];
};
/* Fill t from parts (a NULL-terminated list of option tables); more than
 * CLI_MAX_OPTS options in all is a programming error (abort). */
void cli_opts_getopt_tab(const struct cli_opt *const *parts, struct cli_getopt_tab *t);
/* `benchlog CMD --help` on stdout: the usage line and summary, the
 * options of parts, one a line (or more), then notes (may be NULL). */
void cli_opts_help(const char *cmd, const struct cli_opt *const *parts, const char *notes);

/* Handle a common option of command cmd ("parse", …). Returns 1 when
 * handled, 0 when not a common option, -1 on a bad value (then
 * "benchlog CMD: what is wrong" and the usage line are printed, as for
 * every usage error: docs/errors.md). */
int cli_common_opt(const char *cmd, int c, const char *arg, struct bl_opts *o);
/* Print "benchlog CMD: msg" (unless fmt is NULL: cli_getopt() already
 * said what is wrong) and the command's synopsis to stderr. */
void cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The default case of a command's cli_getopt() loop: after its
 * message, "did you mean "--NAME"?" for an unknown long option within
 * two edits of one of lo (the command's option table), then the usage
 * line. The caller exits 2. */
void cli_option_error(const char *cmd, const struct option *lo, char **argv);
/* The long option of lo (a getopt_long table) that arg ("--tabel",
 * "--tabel=x") most likely meant: the nearest within two edits (one for
 * names of 3 bytes or fewer); NULL when arg is not a long option, is a
 * prefix of one of lo (known, or ambiguous: not mistyped) or is far from
 * all. The name is lo's. */
const char *cli_near_option(const char *arg, const struct option *lo);
/* getopt_long() for command cmd, with getopt's own messages off (it
 * prints argv raw): on an unknown option, a missing argument ('?' or
 * ':'; shortopts must start with ':') or an ambiguous abbreviation, says
 * so in getopt's words ("benchlog CMD: unrecognized option '--x'"),
 * every byte escaped for the terminal (core/escape.h E7), and returns
 * '?'; the caller's `default:` adds a suggestion and the usage line
 * with cli_option_error(). */
int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *lo);
/* Print the command's usage line and summary (the start of --help). */
void cli_help_head(const char *cmd);
/* Append the comma-separated names of arg to *v (-c, -g, --by lists); a
 * backslash before a comma (or a backslash) takes it literally:
 * -c 'wall\, s'. The strings live in copies the caller frees through
 * *bufs. Returns 0, or -1 for an empty name. */
int cli_add_list(const char *arg, char ***v, size_t *n, char ***bufs, size_t *nbufs);
/* --quoted include|exclude for command cmd: sets *include; -1 with a
 * usage error printed for any other word. */
int cli_quoted_opt(const char *cmd, const char *arg, bool *include);
/* -t TABLE of stats and compare: -1 with a usage error printed when the
 * table holds histogram buckets (analyze/table_stats.h R7), or is not one
 * of benchlog's while no input is a CSV file (any_csv: every input may
 * be one). 0 otherwise, and for table NULL. */
int cli_table_opt_check(const char *cmd, const char *table, char *const *inputs, int n, bool any_csv);
struct bl_tstats;
/* The notes after a stats pass on stderr: records left out as quoted in
 * mail replies, vmstat since-boot rows left out. */
void cli_tstats_notes(const char *cmd, const struct bl_tstats *ts);
/* The pass of stats and compare: read the inputs into ts, whose context
 * is ctx (logs and CSV tables; with merge, partial files), finish ctx,
 * print a fatal error and cli_tstats_notes(). Returns 0, or EXIT_DATA
 * when bl_pass_status() says the pass failed or an analysis's temporary
 * file stopped it (ctx->error -BL_EIO: said here, the caller writes
 * nothing). */
int cli_tstats_read(const char *cmd, struct bl_ctx *ctx, struct bl_tstats *ts,
		    char **inputs, int n, bool force_csv, bool merge);
/* fprintf(stderr, ...) for messages that may hold input text (file
 * names, option values): control bytes shown as \e, \xHH (core/escape.h
 * E7); line ends kept. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Flush and close stdout; 0 or EXIT_DATA with a message (EPIPE is quiet). */
int cli_close_stdout(void);
/* bl_opts_init() and what the environment sets (BENCHLOG_MAIL_MAX). */
void cli_opts_init(struct bl_opts *o);
/* A gnuplot run's seconds (BENCHLOG_GNUPLOT_TIMEOUT), 0 when not set. */
unsigned cli_gp_timeout(void);
/* Set up the context's diagnostics and run a pass over the inputs; prints
 * the accounting summary unless quiet. Returns the exit status. */
int cli_run_pass(struct bl_ctx *ctx, char **inputs, int n, bool summary);
/* A stop signal (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGALRM) stopped the pass (cli_run_pass then returned
 * 128 + the signal): the command must not go on to write anything. */
bool cli_interrupted(void);
/* For a command that stops itself cleanly however often it is signalled
 * (report: an earlier report must stay as it was): the stop signals
 * caught for the rest of the run, unless ignored at start, the second
 * one too. Returns the stop flag (the signal, 0 while none came). */
volatile sig_atomic_t *cli_catch_stops(void);
/* 128 + the signal that stopped the command (SIGINT when none did). */
int cli_stop_status(void);

#endif
