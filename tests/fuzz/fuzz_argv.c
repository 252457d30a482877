/* fuzz_argv.c — bytes as a benchlog command line (cli_main()): every
 * command's option parsing, the option-error paths (a bad value, an
 * unknown or ambiguous option, a missing argument; `plot swpd --term
 * jpeg` once printed its message from freed memory) and the runs they
 * start, under AddressSanitizer and UndefinedBehaviorSanitizer.
 *
 * The first byte picks the command: cli_cmds[byte % 8], or at 7 none, the
 * first word then standing where the command goes (an unknown command,
 * --help, --version). The rest are the words, split at NUL bytes (at most
 * FZA_WORDS, each cut to FZA_WORD bytes). Every word stays inside the
 * harness's own folder: '/' becomes '_', and a word of dots only ("..")
 * becomes "d".
 *
 * Each run happens in a private folder (mkdtemp, made once) holding small
 * inputs the words can name: "v" (vmstat), "t" (time -v and mtest01), "l"
 * (a latency histogram), "m" (a mail), "c.csv" (a table); everything else
 * a run leaves there is removed after it. stdin reads /dev/null; stdout
 * and stderr (the stdio streams) write to /dev/null during a run, while a
 * sanitizer's report still reaches file descriptor 2; PATH names an empty
 * folder, so no gnuplot runs; the stop signals' handlers are put back
 * after each run, and SIGALRM stays ignored (benchlog would take
 * libFuzzer's timer for a stop, docs/errors.md).
 * Invariant: the exit status is 0, 1 or 2. */
#include "tests/fuzz/common.h"   /* first: system headers before core/banned.h */
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <signal.h>
#include <sys/stat.h>
#include "cli/cli.h"
#include "core/cleanup.h"

#define FZA_WORDS 24
#define FZA_WORD 200

static const char *const fza_inputs[][2] = {
	{ "v", "procs -----------memory---------- ---swap-- -----io---- -system-- ----cpu----\n"
	       " r  b   swpd   free   buff  cache   si   so    bi    bo   in    cs us sy id wa\n"
	       " 1  0  14696  51576   1236   2768   64    0   192     0  278   579 49 51  0  0\n"
	       " 1  3  26728   3384   1188   2024  612 16232  732 16272  675   710  7 13 80  0\n"
	       "Around here, mp3blaster begins to stutter.\n"
	       " 0  3  39312   2512   1196   2076  248 13516  428 13520  414   487  4  2 94  0\n" },
	{ "t", "2.4.13-pre2aa1\n"
	       "mtest01    0  TPASS  :  1253362892 bytes allocated.\n"
	       "\tCommand being timed: \"mtest01 -p80 -w\"\n"
	       "\tUser time (seconds): 2.09\n\tSystem time (seconds): 2.82\n"
	       "\tPercent of CPU this job got: 7%\n"
	       "\tElapsed (wall clock) time (h:mm:ss or m:ss): 1:04.10\n"
	       "\tMajor (requiring I/O) page faults: 135\n"
	       "\tMinor (reclaiming a frame) faults: 306779\n" },
	{ "l", "# Histogram\n000000 000002\n000001 000005\n000002 000001\n"
	       "# Total: 000000008\n# Min Latencies: 00000\n# Avg Latencies: 00001\n"
	       "# Max Latencies: 00002\n" },
	{ "m", "From a@b Thu Jan  1 00:00:00 2020\nFrom: user@example.org\n"
	       "Subject: [BENCHMARK] 2.5.52-mm2 vmstat\nMessage-ID: <f@example.org>\n\n"
	       "procs memory swap io system cpu\nr b w swpd free buff cache si so bi bo in cs us sy id\n"
	       "0 2 1 134488 3060 1188 2000 152 17124 212 17124 485 411 7 4 89\n" },
	{ "c.csv", "grp,x,y\na,1,2\na,2,3\nb,3,4\nb,4,6\n" },
};
#define FZA_NINPUTS (sizeof fza_inputs / sizeof fza_inputs[0])

static char fza_dir[64];
static int fza_home = -1;                 /* the folder to go back to */
static FILE *fza_null;
static const int fza_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGALRM };
#define FZA_NSIGS (sizeof fza_sigs / sizeof fza_sigs[0])
static struct sigaction fza_sa[FZA_NSIGS];

/* The inputs, as they were (a run may have replaced one). */
static void fza_inputs_write(void)
{
	for (size_t i = 0; i < FZA_NINPUTS; i++) {
		char *p = bl_xasprintf("%s/%s", fza_dir, fza_inputs[i][0]);
		FILE *f = fopen(p, "w");
		if (!f || fputs(fza_inputs[i][1], f) == EOF || fclose(f) != 0)
			fz_fail("cannot write %s", p);
		free(p);
	}
}

static void fza_remove_dir(void)
{
	bl_remove_tree(fza_dir);
}

static void fza_setup(void)
{
	if (fza_null)
		return;
	snprintf(fza_dir, sizeof fza_dir, "%s", "/tmp/benchlog-fuzz-argv.XXXXXX");
	if (!mkdtemp(fza_dir))
		fz_fail("mkdtemp");
	atexit(fza_remove_dir);
	char *empty = bl_xasprintf("%s/.nobin", fza_dir);
	if (mkdir(empty, 0700) != 0)
		fz_fail("mkdir %s", empty);
	setenv("PATH", empty, 1);
	free(empty);
	unsetenv("BENCHLOG_GNUPLOT_TIMEOUT");
	unsetenv("BENCHLOG_MAIL_MAX");
	fza_null = fopen("/dev/null", "w");
	int in = open("/dev/null", O_RDONLY);
	if (!fza_null || in < 0 || dup2(in, STDIN_FILENO) < 0)
		fz_fail("/dev/null");
	close(in);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	signal(SIGALRM, SIG_IGN);
	for (size_t i = 0; i < FZA_NSIGS; i++)
		sigaction(fza_sigs[i], NULL, &fza_sa[i]);
	bl_cleanup_init();
}

/* Everything in the folder but the inputs and .nobin goes. */
static int fza_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level == 0)
		return 0;
	const char *name = path + ftw->base;
	if (ftw->level == 1) {
		if (strcmp(name, ".nobin") == 0)
			return 0;
		for (size_t i = 0; i < FZA_NINPUTS; i++)
			if (strcmp(name, fza_inputs[i][0]) == 0)
				return 0;
	}
	if (remove(path) != 0)
		fz_fail("cannot remove %s", path);
	return 0;
}

/* A word of the command line, kept inside the folder; the caller frees. */
static char *fza_word(const uint8_t *p, size_t n)
{
	if (n > FZA_WORD)
		n = FZA_WORD;
	char *w = bl_xstrndup((const char *)p, n);
	bool dots = n > 0;
	for (size_t i = 0; i < n; i++) {
		if (w[i] == '/')
			w[i] = '_';
		dots &= w[i] == '.';
	}
	if (dots) {
		free(w);
		w = bl_xstrdup("d");
	}
	return w;
}

int bl_fuzz_argv(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	fza_setup();
	char *argv[FZA_WORDS + 3];
	int argc = 0;
	argv[argc++] = bl_xstrdup("benchlog");
	unsigned pick = data[0] % 8;
	if (pick < 7)
		argv[argc++] = bl_xstrdup(cli_cmds[pick].name);
	for (size_t i = 1; i < size && argc < FZA_WORDS + 2;) {
		const uint8_t *nul = memchr(data + i, 0, size - i);
		size_t e = nul ? (size_t)(nul - data) : size;
		argv[argc++] = fza_word(data + i, e - i);
		i = e + 1;
	}
	argv[argc] = NULL;
	char *own[FZA_WORDS + 3];   /* cli_main() replaces argv[1] while it runs */
	memcpy(own, argv, sizeof argv);

	/* getopt's state from the run before (a word it stopped inside) */
	static char x[] = "x";
	char *none[] = { x, NULL };
	optind = 0;
	opterr = 0;
	(void)getopt(1, none, "");
	fza_inputs_write();

	if (fza_home < 0 && (fza_home = open(".", O_RDONLY | O_DIRECTORY)) < 0)
		fz_fail("cannot open .");
	if (chdir(fza_dir) != 0)
		fz_fail("cannot enter %s", fza_dir);
	FILE *out = stdout, *err = stderr;
	stdout = fza_null;
	stderr = fza_null;
	int st = cli_main(argc, argv);
	fflush(fza_null);
	stdout = out;
	stderr = err;
	for (size_t i = 0; i < FZA_NSIGS; i++)
		sigaction(fza_sigs[i], &fza_sa[i], NULL);
	if (nftw(fza_dir, fza_rm, 16, FTW_DEPTH | FTW_PHYS) != 0)
		fz_fail("cannot empty %s", fza_dir);
	if (fchdir(fza_home) != 0)
		fz_fail("cannot go back");
	for (int i = 0; i < argc; i++)
		free(own[i]);
	if (st != 0 && st != 1 && st != 2)
		fz_fail("exit status %d", st);
	return 0;
}

#ifndef BL_FUZZ_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return bl_fuzz_argv(data, size);
}
#endif
