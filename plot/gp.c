/* gp.c — finding and running gnuplot, quoting text for its scripts.
 * See plot.h, Requirements 1, 3 and 5.
 *
 * How gnuplot is started: it must run in the output folder (the script
 * names its files relatively, so a user can re-run it there). Where the C
 * library has posix_spawn_file_actions_addchdir_np (glibc 2.29 and
 * later), posix_spawn() starts it: glibc's spawn shares the parent's
 * memory until the exec, where fork() copies the page tables of a report
 * that holds 200 MB and then takes a page fault for every page the
 * parent writes again (a -j2 report over 10,000 logs, eight charts:
 * about 30,000 of its 140,000 minor faults). Elsewhere fork + execv,
 * with chdir in the child. The executable is looked up on PATH in the
 * parent, so the child only calls async-signal-safe functions (chdir,
 * open, dup2, execv, write, _exit).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plot/plot_int.h"

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
#define GP_SPAWN 1
#include <spawn.h>
extern char **environ;
#endif

#define GP_STDERR_MAX (16u * 1024u)

/* ---- quoting ---------------------------------------------------------- */

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlongs,
 * no surrogates, at most U+10FFFF), or 0 if the byte at s does not start
 * one. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		unsigned char lo = 0x80, hi = 0xbf;
		if (c == 0xe0)
			lo = 0xa0;
		if (c == 0xed)
			hi = 0x9f;
		if (s[1] < lo || s[1] > hi || (s[2] & 0xc0) != 0x80)
			return 0;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		unsigned char lo = 0x80, hi = 0xbf;
		if (c == 0xf0)
			lo = 0x90;
		if (c == 0xf4)
			hi = 0x8f;
		if (s[1] < lo || s[1] > hi || (s[2] & 0xc0) != 0x80 ||
		    (s[3] & 0xc0) != 0x80)
			return 0;
		return 4;
	}
	return 0;
}

/* Characters (code points, an invalid byte counting as one) in s. */
size_t gp_text_chars(const char *s)
{
	size_t n = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t k = utf8_len(p);
		p += k ? k : 1;
		n++;
	}
	return n;
}

int bl_gp_quote_max(struct bl_buf *out, const char *s, size_t max_chars)
{
	int rc = bl_buf_addc(out, '\'');
	if (rc)
		return rc;
	if (s) {
		size_t keep = (size_t)-1;
		bool cut = false;
		if (max_chars >= 4 && gp_text_chars(s) > max_chars) {
			keep = max_chars - 3;
			cut = true;
		}
		const unsigned char *p = (const unsigned char *)s;
		bool after_quote = true; /* the opening quote */
		for (size_t n = 0; *p && n < keep; n++) {
			size_t k = utf8_len(p);
			bool quote = false;
			if (k == 0) {
				rc = bl_buf_addc(out, '?');
				p++;
			} else if (*p == '\'' && after_quote) {
				/* gnuplot 5.4 scanner.c reads '' as a quote only
				 * after a non-quote character: write U+2019. */
				rc = bl_buf_add(out, "\xe2\x80\x99", 3);
				p++;
			} else if (*p == '\'') {
				rc = bl_buf_add(out, "''", 2);
				quote = true;
				p++;
			} else if (k == 1) {
				char c = (char)*p;
				if (*p < 0x20 || *p == 0x7f)
					c = ' ';
				rc = bl_buf_addc(out, c);
				p++;
			} else {
				rc = bl_buf_add(out, p, k);
				p += k;
			}
			if (rc)
				return rc;
			after_quote = quote;
		}
		if (cut && (rc = bl_buf_add(out, "...", 3)))
			return rc;
	}
	return bl_buf_addc(out, '\'');
}

int bl_gp_quote(struct bl_buf *out, const char *s)
{
	return bl_gp_quote_max(out, s, 0);
}

bool bl_gp_safe_name(const char *name)
{
	if (!name || !*name || name[0] == '.' || name[0] == '-' || name[0] == '+')
		return false;
	size_t n = 0;
	for (const char *p = name; *p; p++, n++) {
		char c = *p;
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '.' || c == '_' ||
			  c == '-' || c == '+';
		if (!ok || n >= 100)
			return false;
	}
	return true;
}

/* ---- finding gnuplot --------------------------------------------------- */

/* Heap path of the first executable regular file "gnuplot" on $PATH
 * (empty PATH elements mean the current folder, as for execvp), or NULL. */
static char *gp_find(void)
{
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	const char *p = path;
	for (;;) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		char *cand = len ? bl_xasprintf("%.*s/gnuplot", (int)len, p)
				 : bl_xstrdup("./gnuplot");
		struct stat st;
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(cand, X_OK) == 0) {
			/* gnuplot runs in the output folder: a relative PATH
			 * entry ("bin", or an empty one for ".") is taken
			 * from here */
			if (cand[0] != '/') {
				char *cwd = getcwd(NULL, 0);
				if (cwd) {
					char *abs = bl_xasprintf("%s/%s", cwd, cand);
					free(cwd);
					free(cand);
					cand = abs;
				}
			}
			return cand;
		}
		free(cand);
		if (!colon)
			return NULL;
		p = colon + 1;
	}
}

bool bl_gp_available(void)
{
	char *p = gp_find();
	free(p);
	return p != NULL;
}

/* ---- running it -------------------------------------------------------- */

static void set_err(char **err_out, char *msg)
{
	if (err_out)
		*err_out = msg;
	else
		free(msg);
}

/* Child side: never returns. Only async-signal-safe calls. */
#ifndef GP_SPAWN
static void child_exec(const char *exe, const char *dir, char *const argv[], int out_fd,
		       int err_fd)
{
	static const char nodir[] = "gnuplot: cannot enter output folder\n";
	static const char noexec[] = "gnuplot: cannot execute\n";
	int null_fd;

	if (dup2(err_fd, STDERR_FILENO) < 0)
		_exit(127);
	if (out_fd >= 0 && dup2(out_fd, STDOUT_FILENO) < 0)
		_exit(127);
	null_fd = open("/dev/null", O_RDONLY);
	if (null_fd < 0 || dup2(null_fd, STDIN_FILENO) < 0)
		_exit(127);
	if (chdir(dir) != 0) {
		ssize_t w = write(STDERR_FILENO, nodir, sizeof nodir - 1);
		(void)w;
		_exit(126);
	}
	execv(exe, argv);
	ssize_t w = write(STDERR_FILENO, noexec, sizeof noexec - 1);
	(void)w;
	_exit(127);
}
#endif

/* Start exe on script in dir: stdin from /dev/null, stdout to out_fd
 * (-1: ours), stderr to err_fd. Returns its pid, or -1 with *why set (a
 * message the caller frees) when it could not be started. */
static pid_t gp_start(const char *exe, const char *dir, const char *script, const char *fmts_cmd,
		      int out_fd, int err_fd, char **why)
{
	/* gnuplot -d [-e "fmts = '...'"] ./script */
	char *const argv_plain[] = { (char *)"gnuplot", (char *)"-d", (char *)script, NULL };
	char *const argv_fmts[] = { (char *)"gnuplot", (char *)"-d", (char *)"-e", (char *)fmts_cmd,
				    (char *)script, NULL };
	char *const *argv = fmts_cmd ? argv_fmts : argv_plain;
#ifdef GP_SPAWN
	posix_spawn_file_actions_t fa;
	int e = posix_spawn_file_actions_init(&fa);
	if (e == 0) {
		if ((e = posix_spawn_file_actions_adddup2(&fa, err_fd, STDERR_FILENO)) == 0 &&
		    (out_fd < 0 || (e = posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO)) == 0) &&
		    (e = posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0)) == 0 &&
		    (e = posix_spawn_file_actions_addchdir_np(&fa, dir)) == 0) {
			pid_t pid;
			e = posix_spawn(&pid, exe, &fa, NULL, argv, environ);
			if (e == 0) {
				posix_spawn_file_actions_destroy(&fa);
				return pid;
			}
		}
		posix_spawn_file_actions_destroy(&fa);
	}
	/* the program, or the interpreter its first line names, missing or
	 * not executable; or the output folder gone (checked first, since
	 * both say ENOENT) */
	if (access(dir, X_OK) != 0)
		*why = bl_xasprintf("gnuplot: cannot enter output folder: %s", strerror(errno));
	else
		*why = bl_xasprintf("gnuplot: cannot run %s: %s", exe, strerror(e));
	return -1;
#else
	/* Flush our stdio so buffered output is not written twice (once by
	 * the child if execv fails and a libc exit handler runs). */
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		*why = bl_xasprintf("gnuplot: fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0)
		child_exec(exe, dir, argv, out_fd, err_fd);
	return pid;
#endif
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Drain one pipe; returns 1 on EOF, 0 when data (or EAGAIN), negative on
 * error. Bytes past the buffer's room are dropped (stderr) or make the run
 * fail (captured stdout, *overflow set). */
static int drain(int fd, struct bl_buf *b, size_t cap, bool *overflow)
{
	char tmp[8192];
	ssize_t n = read(fd, tmp, sizeof tmp);
	if (n == 0)
		return 1;
	if (n < 0)
		return (errno == EINTR || errno == EAGAIN) ? 0 : -BL_EIO;
	size_t room = b->len < cap ? cap - b->len : 0;
	size_t take = (size_t)n < room ? (size_t)n : room;
	if (take < (size_t)n)
		*overflow = true;
	if (take && bl_buf_add(b, tmp, take) != 0)
		*overflow = true;
	return 0;
}

static char *trimmed(struct bl_buf *b)
{
	while (b->len && (b->data[b->len - 1] == '\n' || b->data[b->len - 1] == '\r' ||
			  b->data[b->len - 1] == ' '))
		b->data[--b->len] = '\0';
	return b->len ? bl_xstrndup(b->data, b->len) : NULL;
}

static int gp_run(const char *dir, const char *script_name, const char *fmts,
		  struct bl_buf *out, char **err_out)
{
	if (err_out)
		*err_out = NULL;
	if (!dir || !*dir)
		dir = ".";
	if (!bl_gp_safe_name(script_name)) {
		set_err(err_out, bl_xstrdup("gnuplot: unsafe script name"));
		return -BL_EUSAGE;
	}
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		set_err(err_out, bl_xasprintf("%s: not a folder", dir));
		return -BL_ENOTFOUND;
	}
	if (fmts) {
		/* Words of the chart code only: the terminals the script knows. */
		bool ok = *fmts != '\0';
		for (const char *c = fmts; *c; c++)
			ok &= (*c >= 'a' && *c <= 'z') || *c == ' ';
		if (!ok) {
			set_err(err_out, bl_xstrdup("gnuplot: bad list of formats"));
			return -BL_EUSAGE;
		}
	}
	char *exe = gp_find();
	if (!exe) {
		set_err(err_out, bl_xstrdup("gnuplot not found on PATH"));
		return -BL_ENOTFOUND;
	}
	char *script = bl_xasprintf("./%s", script_name);
	char *fmts_cmd = fmts ? bl_xasprintf("fmts = '%s'", fmts) : NULL;

	int errp[2] = { -1, -1 }, outp[2] = { -1, -1 };
	int rc = 0;
	if (pipe2(errp, O_CLOEXEC) != 0 || (out && pipe2(outp, O_CLOEXEC) != 0)) {
		rc = -BL_EIO;
		set_err(err_out, bl_xasprintf("gnuplot: pipe: %s", strerror(errno)));
		goto out_close;
	}
	char *why = NULL;
	pid_t pid = gp_start(exe, dir, script, fmts_cmd, out ? outp[1] : -1, errp[1], &why);
	if (pid < 0) {
		rc = -BL_EIO;
		set_err(err_out, why);
		goto out_close;
	}

	close(errp[1]);
	errp[1] = -1;
	if (out) {
		close(outp[1]);
		outp[1] = -1;
	}

	struct bl_buf errb = BL_BUF_INIT(GP_STDERR_MAX + 1);
	bool err_over = false, out_over = false, timed_out = false;
	bool err_open = true, out_open = out != NULL;
	double deadline = now_s() + BL_GP_TIMEOUT_S;
	while (err_open || out_open) {
		struct pollfd pf[2];
		nfds_t n = 0;
		int ei = -1, oi = -1;
		if (err_open) {
			pf[n] = (struct pollfd){ .fd = errp[0], .events = POLLIN };
			ei = (int)n++;
		}
		if (out_open) {
			pf[n] = (struct pollfd){ .fd = outp[0], .events = POLLIN };
			oi = (int)n++;
		}
		double left = deadline - now_s();
		if (left <= 0) {
			timed_out = true;
			break;
		}
		int pr = poll(pf, n, (int)(left * 1000) + 1);
		if (pr < 0) {
			if (errno == EINTR)
				continue;
			rc = -BL_EIO;
			break;
		}
		if (ei >= 0 && pf[ei].revents) {
			int d = drain(errp[0], &errb, GP_STDERR_MAX, &err_over);
			if (d != 0)
				err_open = false;
		}
		if (oi >= 0 && pf[oi].revents) {
			int d = drain(outp[0], out, out->max ? out->max : SIZE_MAX, &out_over);
			if (d != 0)
				out_open = false;
		}
	}
	if (timed_out || rc)
		kill(pid, SIGKILL);

	int status = 0;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			if (!rc)
				rc = -BL_EIO;
			status = 0;
			break;
		}
	}
	char *msg = trimmed(&errb);
	bl_buf_release(&errb);
	if (timed_out) {
		rc = -BL_EIO;
		free(msg);
		msg = bl_xasprintf("gnuplot: %s: killed after %d s", script_name,
				   BL_GP_TIMEOUT_S);
	} else if (rc) {
		free(msg);
		msg = bl_xasprintf("gnuplot: %s: lost its output pipes", script_name);
	} else if (WIFSIGNALED(status)) {
		rc = -BL_EIO;
		char *m = bl_xasprintf("gnuplot: %s: killed by signal %d%s%s", script_name,
				       WTERMSIG(status), msg ? ": " : "", msg ? msg : "");
		free(msg);
		msg = m;
	} else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
		rc = -BL_EIO;
		if (!msg)
			msg = bl_xasprintf("gnuplot: %s: exit status %d", script_name,
					   WEXITSTATUS(status));
	} else if (out_over) {
		rc = -BL_ENOMEM;
		free(msg);
		msg = bl_xasprintf("gnuplot: %s: output larger than %zu bytes",
				   script_name, out->max);
	}
	(void)err_over; /* the first 16 KiB of stderr is enough to explain */
	set_err(err_out, msg);

out_close:
	for (int i = 0; i < 2; i++) {
		if (errp[i] >= 0)
			close(errp[i]);
		if (outp[i] >= 0)
			close(outp[i]);
	}
	free(script);
	free(fmts_cmd);
	free(exe);
	return rc;
}

int bl_gp_run(const char *dir, const char *script_name, char **err_out)
{
	return gp_run(dir, script_name, NULL, NULL, err_out);
}

int bl_gp_run_fmts(const char *dir, const char *script_name, const char *fmts, char **err_out)
{
	return gp_run(dir, script_name, fmts, NULL, err_out);
}

int bl_gp_run_capture(const char *dir, const char *script_name,
		      struct bl_buf *out, char **err_out)
{
	if (!out) {
		if (err_out)
			*err_out = bl_xstrdup("gnuplot: no output buffer");
		return -BL_EUSAGE;
	}
	return gp_run(dir, script_name, NULL, out, err_out);
}
