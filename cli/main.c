/* main.c — `benchlog <command> [options]`: the command table and the
 * options every parsing command shares. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analyze/table_stats.h"
#include "cli/cli.h"
#include "input/mail.h"
#include "plot/plot.h"
#include "parsers/parser.h"
#include "core/cleanup.h"
#include "core/escape.h"
#include "parsers/pass.h"
#include "core/re.h"
#include "core/util.h"

const struct cli_cmd cli_cmds[] = {
	{ "parse", cmd_parse, "benchlog parse [-o DIR] [-t TABLE] [-f csv|tsv|jsonl|sqlite] [--strict] [OPTIONS] [INPUT...]",
	  "parse logs into tables: CSV, TSV, JSON Lines or SQLite" },
	{ "summary", cmd_summary, "benchlog summary [OPTIONS] [INPUT...]",
	  "chkmmt-style averages per group of mtest01/time runs" },
	{ "plot", cmd_plot, "benchlog plot swpd|contest|latency|runs [-o DIR] [--term png,svg,dumb] [OPTIONS] [INPUT...]",
	  "draw charts with gnuplot (script and data kept beside each image)" },
	{ "report", cmd_report, "benchlog report [-o DIR] [-j N] [-q] [OPTIONS] [INPUT...]",
	  "tables, skipped lines, a written summary and charts in one folder" },
	{ "stats", cmd_stats, "benchlog stats [-t TABLE] [-c COLUMN...] [-g COLUMN...] [--percentiles LIST] [--bins N] [--format text|csv|md] [--rule type7|nearest] [--csv] [--partial|--merge] [OPTIONS] [INPUT...]",
	  "n, mean, sd, CI95, min, percentiles, max per group, from logs, CSV or partials" },
	{ "compare", cmd_compare, "benchlog compare [--baseline GROUP] [-c COLUMN...] [-t TABLE] [--by COLUMN...] [--confidence 0.95] [--test welch|student] [--negligible [COLUMN=]X%] [--target DURATION] [--late LIST] [--format text|csv|md] [OPTIONS] [INPUT...]",
	  "baseline against candidates per column: change, CI, Welch's t-test, verdict" },
	{ "formats", cmd_formats, "benchlog formats [--columns|--sql]",
	  "list the input formats and tables benchlog knows" },
	{ NULL, NULL, NULL, NULL },
};

/* Edit distance (insertions, deletions, substitutions, and swaps of two
 * neighbours) between a and b, capped: words longer than 31 bytes are
 * not compared (returns 99). */
static unsigned edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 31 || lb > 31)
		return 99;
	unsigned d[32][32];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

/* One candidate for what a mistyped name meant: kept in *best when it is
 * nearer than *bd edits (start *bd at near_limit()). */
static void near_try(const char *name, const char *cand, const char **best, unsigned *bd)
{
	unsigned dist = edit_distance(name, cand);
	if (dist <= *bd) {
		*best = cand;
		*bd = dist;
	}
}

/* Edits a mistyped name may be from what it meant: 2, or 1 for names of
 * 3 bytes or fewer. */
static unsigned near_limit(const char *name)
{
	return strlen(name) <= 3 ? 1 : 2;
}

/* The command a mistyped name most likely meant: the nearest within
 * near_limit() edits, else NULL. */
static const char *nearest_cmd(const char *name)
{
	const char *best = NULL;
	unsigned bd = near_limit(name);
	for (size_t i = 0; cli_cmds[i].name; i++)
		near_try(name, cli_cmds[i].name, &best, &bd);
	return best;
}

static const struct cli_cmd *find_cmd(const char *name)
{
	for (const struct cli_cmd *c = cli_cmds; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

/* A message on stderr, every byte of it shown as core/escape.h E7 says
 * (but line ends): an option value or a file name cannot drive the
 * terminal. */
static void err_v(const char *prefix, const char *fmt, va_list ap)
{
	if (prefix)
		fputs(prefix, stderr);
	bl_term_vprintf(stderr, fmt, ap);
}

void cli_err(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	err_v(NULL, fmt, ap);
	va_end(ap);
}

/* "benchlog CMD: <message>" and a line end. */
static void cmd_err_v(const char *cmd, const char *fmt, va_list ap)
{
	char *prefix = bl_xasprintf("benchlog %s: ", cmd);
	err_v(prefix, fmt, ap);
	free(prefix);
	fputc('\n', stderr);
}

__attribute__((format(printf, 2, 3)))
static void cmd_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cmd_err_v(cmd, fmt, ap);
	va_end(ap);
}

void cli_usage_error(const char *cmd, const char *fmt, ...)
{
	if (fmt) {   /* NULL: cli_getopt() has said what is wrong already */
		va_list ap;
		va_start(ap, fmt);
		cmd_err_v(cmd, fmt, ap);
		va_end(ap);
	}
	const struct cli_cmd *c = find_cmd(cmd);
	if (c)
		cli_err("usage: %s\n", c->synopsis);
}

const char *cli_near_option(const char *arg, const struct option *lo)
{
	if (!arg || arg[0] != '-' || arg[1] != '-' || !arg[2])
		return NULL;
	size_t n = strcspn(arg + 2, "=");
	char *name = bl_xstrndup(arg + 2, n);
	const char *best = NULL;
	unsigned bd = near_limit(name);
	bool known = false;
	for (size_t i = 0; lo[i].name; i++) {
		if (strncmp(lo[i].name, name, n) == 0)
			known = true;
		near_try(name, lo[i].name, &best, &bd);
	}
	free(name);
	return known ? NULL : best;
}

void cli_option_error(const char *cmd, const struct option *lo, char **argv)
{
	/* cli_getopt() has said what is wrong; the element it stopped at is
	 * argv[optind - 1]. */
	const char *best = cli_near_option(optind > 0 ? argv[optind - 1] : NULL, lo);
	if (best)
		cli_err("benchlog %s: did you mean \"--%s\"?\n", cmd, best);
	cli_usage_error(cmd, NULL);
}

/* Long options of lo that name starts (before any '='); *exact set when
 * one of them is name itself. */
static size_t long_matches(const struct option *lo, const char *name, size_t n, bool *exact,
			   struct bl_buf *list)
{
	size_t k = 0;
	*exact = false;
	for (; lo->name; lo++) {
		if (strncmp(lo->name, name, n) != 0)
			continue;
		*exact |= strlen(lo->name) == n;
		k++;
		bl_buf_add(list, " '--", 4);
		bl_buf_add(list, lo->name, strlen(lo->name));
		bl_buf_addc(list, '\'');
	}
	return k;
}

/* What getopt would have said (glibc's words), every byte of argv
 * escaped for the terminal. c is ':' (an argument missing) or '?'. */
static void getopt_error(const char *cmd, int c, char **argv, const char *shortopts,
			 const struct option *lo)
{
	const char *word = optind > 0 ? argv[optind - 1] : "";
	bool is_long = word[0] == '-' && word[1] == '-';
	if (!is_long && optopt > 0 && optopt < 256) {
		cmd_err(cmd, c == ':' ? "option requires an argument -- '%c'" : "invalid option -- '%c'",
				optopt);
		return;
	}
	const char *name = word + (is_long ? 2 : 0);
	const char *eq = strchr(name, '=');
	size_t n = eq ? (size_t)(eq - name) : strlen(name);
	struct bl_buf list = BL_BUF_INIT(0);
	bool exact;
	size_t k = is_long ? long_matches(lo, name, n, &exact, &list) : 0;
	if (c == ':')
		cmd_err(cmd, "option '%s' requires an argument", word);
	else if (k > 1 && !exact)
		cmd_err(cmd, "option '--%.*s' is ambiguous; possibilities:%s", (int)n, name, list.data);
	else if (k >= 1 && eq)
		cmd_err(cmd, "option '--%.*s' doesn't allow an argument", (int)n, name);
	else
		cmd_err(cmd, "unrecognized option '%s'", word);
	bl_buf_release(&list);
	(void)shortopts;
}

int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts, const struct option *lo)
{
	opterr = 0;
	optopt = 0;
	int c = getopt_long(argc, argv, shortopts, lo, NULL);
	if (c == '?' || c == ':') {
		getopt_error(cmd, c, argv, shortopts, lo);
		return '?';
	}
	return c;
}

void cli_help_head(const char *cmd)
{
	const struct cli_cmd *c = find_cmd(cmd);
	if (c)
		printf("usage: %s\n\n%s\n\n", c->synopsis, c->summary);
}

int cli_common_opt(const char *cmd, int c, const char *arg, struct bl_opts *o)
{
	double d;
	switch (c) {
	case OPT_GROUP:
		/* --group names every record's group: beside a rule that finds
		 * the group in the text it would win silently */
		if (o->group_regex || o->group_from_subject) {
			cli_usage_error(cmd, "--group puts every record in one group; it cannot go with %s",
					o->group_regex ? "--group-regex" : "--group-from");
			return -1;
		}
		o->group = arg;
		return 1;
	case OPT_GROUP_REGEX: {
		if (o->group) {
			cli_usage_error(cmd, "--group puts every record in one group; it cannot go with --group-regex");
			return -1;
		}
		/* a pattern that does not compile is a usage error, for every command */
		struct bl_re re;
		char *err = NULL;
		if (bl_re_compile(&re, arg, 0, "--group-regex", &err) != 0) {
			cli_usage_error(cmd, "%s", err);
			free(err);
			return -1;
		}
		bl_re_release(&re);
		o->group_regex = arg;
		return 1;
	}
	case OPT_GROUP_FROM:
		if (o->group) {
			cli_usage_error(cmd, "--group puts every record in one group; it cannot go with --group-from");
			return -1;
		}
		if (strcmp(arg, "subject") != 0) {
			cli_usage_error(cmd, "--group-from takes \"subject\", not \"%s\"", arg);
			return -1;
		}
		o->group_from_subject = true;
		return 1;
	case OPT_STRICT:
		o->strict = true;
		return 1;
	case OPT_INTERVAL:
		if (bl_parse_double(arg, (size_t)-1, &d) || d <= 0 || d > 86400) {
			cli_usage_error(cmd, "--interval takes seconds in (0, 86400], not \"%s\"", arg);
			return -1;
		}
		o->interval_s = d;
		o->interval_given = true;
		return 1;
	case OPT_SINCE_BOOT:
		if (strcmp(arg, "auto") == 0)
			o->since_boot = BL_SB_AUTO;
		else if (strcmp(arg, "keep") == 0)
			o->since_boot = BL_SB_KEEP;
		else if (strcmp(arg, "drop") == 0)
			o->since_boot = BL_SB_DROP;
		else {
			cli_usage_error(cmd, "--since-boot takes auto, keep or drop, not \"%s\"", arg);
			return -1;
		}
		return 1;
	case OPT_STUTTER_START:
	case OPT_STUTTER_END: {
		/* Compiled here once to turn a bad pattern into a usage error;
		 * the vmstat parser compiles it again for its pass. */
		struct bl_re re;
		char *err = NULL;
		if (bl_re_compile(&re, arg, 0, c == OPT_STUTTER_START ? "--stutter-start" : "--stutter-end", &err)) {
			cli_usage_error(cmd, "%s", err ? err : "bad regular expression");
			free(err);
			return -1;
		}
		bl_re_release(&re);
		if (c == OPT_STUTTER_START)
			o->stutter_start_re = arg;
		else
			o->stutter_end_re = arg;
		return 1;
	}
	case OPT_UNIT:
		if (strcmp(arg, "s") && strcmp(arg, "ms") && strcmp(arg, "us") && strcmp(arg, "ns")) {
			cli_usage_error(cmd, "--unit takes s, ms, us or ns, not \"%s\"", arg);
			return -1;
		}
		o->latency_unit = arg;
		return 1;
	}
	return 0;
}

/* Set once an output error has been reported (or deliberately not: a
 * closed pipe), so it is not reported twice. */
static bool output_error_told;

/* Append the comma-separated names of arg to *v; a backslash before a
 * comma (or a backslash) takes it literally: -c 'wall\, s'. The strings
 * live in copies the caller frees through *bufs. -1 for an empty name. */
int cli_add_list(const char *arg, char ***v, size_t *n, char ***bufs, size_t *nbufs)
{
	char *copy = bl_xstrdup(arg);
	*bufs = bl_xrealloc(*bufs, (*nbufs + 1) * sizeof **bufs);
	(*bufs)[(*nbufs)++] = copy;
	char *w = copy, *start = copy;
	for (const char *p = arg;; p++) {
		if (*p == '\\' && (p[1] == ',' || p[1] == '\\')) {
			*w++ = *++p;
			continue;
		}
		if (*p != ',' && *p != '\0') {
			*w++ = *p;
			continue;
		}
		*w = '\0';
		if (!*start)
			return -1;
		*v = bl_xrealloc(*v, (*n + 1) * sizeof **v);
		(*v)[(*n)++] = start;
		if (*p == '\0')
			break;
		start = ++w;
	}
	return 0;
}

int cli_quoted_opt(const char *cmd, const char *arg, bool *include)
{
	if (strcmp(arg, "include") == 0)
		*include = true;
	else if (strcmp(arg, "exclude") == 0)
		*include = false;
	else {
		cli_usage_error(cmd, "--quoted takes include or exclude, not \"%s\"", arg);
		return -1;
	}
	return 0;
}

int cli_table_opt_check(const char *cmd, const char *table, char *const *inputs, int n, bool any_csv)
{
	const struct bl_table_def *named = table ? bl_table_find(table) : NULL;
	if (named && named->weight_col) {
		/* analyze/table_stats.h R7 */
		cli_usage_error(cmd, "the %s table holds histogram buckets weighted by %s: "
				"use `benchlog summary` (latency section: percentiles from the bins, "
				"Mann-Whitney between series)", table, named->weight_col);
		return -1;
	}
	if (!table || named)
		return 0;
	for (int i = 0; i < n && !any_csv; i++) {
		size_t len = strlen(inputs[i]);
		any_csv = (len > 4 && strcmp(inputs[i] + len - 4, ".csv") == 0) ||
			  (len > 7 && strcmp(inputs[i] + len - 7, ".csv.gz") == 0);
	}
	if (any_csv)
		return 0;
	cli_usage_error(cmd, "unknown table \"%s\" (see `benchlog formats`)", table);
	return -1;
}

void cli_tstats_notes(const char *cmd, const struct bl_tstats *ts)
{
	unsigned long q = bl_tstats_quoted_left_out(ts), sb = bl_tstats_since_boot_left_out(ts);
	if (q)
		cli_err("benchlog %s: %lu record%s quoted in mail replies left out "
			"(--quoted include uses them)\n", cmd, q, q == 1 ? "" : "s");
	if (sb)
		cli_err("benchlog %s: %lu vmstat since-boot row%s left out "
			"(--since-boot keep counts them)\n", cmd, sb, sb == 1 ? "" : "s");
	unsigned long fr = bl_tstats_failed_left_out(ts);
	if (fr)
		cli_err("benchlog %s: %lu failed run%s left out (a time row whose status or exit_status "
			"says the command failed: not a measurement, D3c)\n", cmd, fr, fr == 1 ? "" : "s");
}

int cli_close_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (errno != EPIPE && !output_error_told)
			cli_err("benchlog: cannot write output: %s\n", strerror(errno));
		return EXIT_DATA;
	}
	return 0;
}

/* A stop signal during a pass: the handler only records the signal; the
 * reader stops at its next chunk (or its blocked read returns), the sinks
 * discard their temporary files, and the command exits 128 + signal.
 * SIGHUP (the terminal closed), SIGQUIT, SIGUSR1 and SIGALRM (timeout(1)
 * -s, a batch system's notice) would otherwise kill the process outright
 * and leave its temporary files behind, so they stop it the same way. */
static volatile sig_atomic_t stop_sig;
static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGALRM };
#define NSTOP (sizeof stop_sigs / sizeof stop_sigs[0])

static void on_stop_signal(int sig)
{
	stop_sig = sig;
}

bool cli_interrupted(void)
{
	return stop_sig != 0;
}

/* Catch each stop signal unless it was ignored when we started (nohup, a
 * background job of a script): then it stays ignored. No SA_RESTART, so
 * a read that blocks on a FIFO returns; once: SA_RESETHAND, so a second
 * ^C kills at once. old: NSTOP slots, or NULL. */
static void catch_stops(struct sigaction *old, bool once)
{
	struct sigaction sa, prev;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = once ? SA_RESETHAND : 0;
	for (size_t i = 0; i < NSTOP; i++) {
		if (sigaction(stop_sigs[i], NULL, &prev) == 0 && prev.sa_handler != SIG_IGN)
			sigaction(stop_sigs[i], &sa, NULL);
		if (old)
			old[i] = prev;
	}
}

static void restore_stops(const struct sigaction *old)
{
	for (size_t i = 0; i < NSTOP; i++)
		sigaction(stop_sigs[i], &old[i], NULL);
}

int cli_tstats_read(const char *cmd, struct bl_ctx *ctx, struct bl_tstats *ts,
		    char **inputs, int n, bool force_csv, bool merge)
{
	struct sigaction old[NSTOP];
	catch_stops(old, true);
	if (!ctx->opt.stop)
		ctx->opt.stop = &stop_sig;
	if (merge) {
		for (int i = 0; i < n; i++)
			bl_tstats_read_partials(ts, inputs[i]);
	} else {
		ctx->opt.progress = !ctx->opt.quiet && isatty(STDERR_FILENO);
		struct bl_sink sink;
		bl_tstats_sink(ts, &sink);
		bl_ctx_add_sink(ctx, &sink);
		bl_tstats_read_inputs(ts, inputs, (size_t)n, force_csv);
	}
	bl_ctx_finish(ctx, !stop_sig);
	restore_stops(old);
	if (stop_sig) {   /* as cli_run_pass: the caller writes nothing more */
		cli_err("benchlog: interrupted\n");
		return cli_stop_status();
	}
	if (ctx->error == -BL_EIO) {
		/* an analysis's temporary file (compare's vmstat series) stopped
		 * the pass: the input was not read to its end */
		bl_tmp_say(stderr, cmd, ctx->error_errno);
		return EXIT_DATA;
	}
	if (ctx->error)
		cli_err("benchlog: %s\n", bl_strerror(ctx->error));
	int status = bl_pass_status(ctx) ? EXIT_DATA : 0;
	if (!ctx->opt.quiet)
		cli_tstats_notes(cmd, ts);
	return status;
}

volatile sig_atomic_t *cli_catch_stops(void)
{
	catch_stops(NULL, false);
	return &stop_sig;
}

int cli_stop_status(void)
{
	return 128 + (stop_sig ? (int)stop_sig : SIGINT);
}

int cli_run_pass(struct bl_ctx *ctx, char **inputs, int n, bool summary)
{
	struct sigaction old[NSTOP];
	catch_stops(old, true);
	if (!ctx->opt.stop)
		ctx->opt.stop = &stop_sig;
	if (bl_pass_run(ctx, inputs, (size_t)n, NULL) == -BL_EUSAGE) {
		/* a bad --group-regex (the dispatcher said why) */
		bl_ctx_finish(ctx, 0);
		restore_stops(old);
		return EXIT_USAGE;
	}
	if (stop_sig && !ctx->error)
		ctx->error = -BL_EINTR;
	int fin = bl_ctx_finish(ctx, bl_pass_status(ctx) == 0 || !ctx->opt.strict);
	int fin_errno = errno;
	if (fin && fin_errno == EINTR && stop_sig && !ctx->error)
		ctx->error = -BL_EINTR;   /* stopped while parse -o waited for its folder */
	restore_stops(old);
	if (ctx->error == -BL_EINTR) {
		/* finish(ok=0) removed the temporary files of -o */
		cli_err("benchlog: interrupted\n");
		return cli_stop_status();
	}
	/* A reader that went away (benchlog parse … | head -1) is not news:
	 * stop, say nothing, exit 1. */
	if ((ctx->error == -BL_EIO && ctx->error_errno == EPIPE) || (fin && fin_errno == EPIPE)) {
		output_error_told = true;
		return EXIT_DATA;
	}
	if ((ctx->error == -BL_EIO && !ctx->sinks_tell_io) || fin) {
		int e = ctx->error == -BL_EIO && ctx->error_errno ? ctx->error_errno : fin_errno;
		if (ctx->error_path)
			cli_err("benchlog: cannot write %s: %s\n", ctx->error_path, strerror(e));
		else
			cli_err("benchlog: cannot write output: %s\n", strerror(e));
		output_error_told = true;
	}
	if (ctx->error && ctx->error != -BL_EIO)
		cli_err("benchlog: %s\n", bl_strerror(ctx->error));
	if (summary && !ctx->opt.quiet)
		bl_diag_summary(ctx, stderr);
	int st = bl_pass_status(ctx);
	return fin ? EXIT_DATA : st;
}

/* A setting from the environment (benchlog(1), ENVIRONMENT): unset or
 * empty 0, a whole number in [lo, hi] 1 (in *v), else a usage error -1
 * (said here). */
static int env_setting(const char *name, long long lo, long long hi, const char *what, long long *v)
{
	const char *s = getenv(name);
	if (!s || !*s)
		return 0;
	long long x;
	if (bl_parse_ll(s, strlen(s), &x) != 0 || x < lo || x > hi) {
		cli_err("benchlog: %s takes %s from %lld to %lld, not \"%s\"\n", name, what, lo, hi, s);
		return -1;
	}
	*v = x;
	return 1;
}

/* What the environment sets for this run (0: not set). */
static size_t env_mail_max;
static unsigned env_gp_timeout;

/* BENCHLOG_GNUPLOT_TIMEOUT (seconds) and BENCHLOG_MAIL_MAX (bytes);
 * -1 after a usage error. */
static int env_settings(void)
{
	long long v;
	int t = env_setting("BENCHLOG_GNUPLOT_TIMEOUT", 1, 86400, "a whole number of seconds", &v);
	if (t > 0)
		env_gp_timeout = (unsigned)v;
	int m = env_setting("BENCHLOG_MAIL_MAX", (long long)BL_MAIL_MAX_LEAST, (long long)BL_MAIL_MAX_LIMIT, "a number of bytes", &v);
	if (m > 0)
		env_mail_max = (size_t)v;
	return t < 0 || m < 0 ? -1 : 0;
}

unsigned cli_gp_timeout(void)
{
	return env_gp_timeout;
}

void cli_opts_init(struct bl_opts *o)
{
	bl_opts_init(o);
	if (env_mail_max)
		o->mail_max = env_mail_max;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: benchlog <command> [options] [input...]\n"
		   "       benchlog --version | --help | help COMMAND\n\n"
		   "Turns archived Linux benchmark logs (time -v, vmstat, mtest01, ConTest,\n"
		   "latency histograms; plain, .gz or mail) into CSV, statistics and charts.\n\n"
		   "commands:\n");
	for (const struct cli_cmd *c = cli_cmds; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\nexit status: 0 success, 1 data or runtime error, 2 usage error\n"
		   "`benchlog help <command>` (or `benchlog <command> --help`) for a command's options\n");
}

int cli_main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("benchlog %s\n", BENCHLOG_VERSION);
		return cli_close_stdout();
	}
	/* `benchlog help CMD` is `benchlog CMD --help`, as with git */
	static char help_opt[] = "--help";
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		if (argc == 3) {
			char *hargv[] = { argv[0], argv[2], help_opt, NULL };
			return cli_main(3, hargv);
		}
		if (argc > 3) {
			cli_err("benchlog help: takes one command name, not %d words\n", argc - 2);
			usage(stderr);
			return EXIT_USAGE;
		}
		usage(stdout);
		return cli_close_stdout();
	}
	const struct cli_cmd *c = find_cmd(argv[1]);
	if (!c) {
		const char *near = nearest_cmd(argv[1]);
		if (near)
			cli_err("benchlog: unknown command \"%s\"; did you mean \"%s\"?\n", argv[1], near);
		else
			cli_err("benchlog: unknown command \"%s\"\n", argv[1]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (env_settings() != 0)
		return EXIT_USAGE;
	/* `benchlog CMD -h` alone asks for help, as with git: the commands
	 * themselves use -h for nothing else. */
	if (argc == 3 && strcmp(argv[2], "-h") == 0)
		argv[2] = help_opt;
	/* getopt names the program argv[0] in its messages ("unrecognized
	 * option"): make that "benchlog CMD", as in our own messages. */
	char *prog = bl_xasprintf("benchlog %s", c->name);
	argv[1] = prog;
	int rc = c->fn(argc - 1, argv + 1);
	free(prog);
	int rc2 = cli_close_stdout();
	return rc ? rc : rc2;
}
