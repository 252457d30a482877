/* gp.c — finding and running gnuplot, quoting text for its scripts.
 * See plot.h, Requirements 1, 3 and 5.
 *
 * How gnuplot is started: it must run in the output folder (the script
 * names its files relatively, so a user can re-run it there): posix_spawn()
 * with posix_spawn_file_actions_addchdir_np (glibc 2.29, musl 1.1.24,
 * FreeBSD 13.1, macOS 10.15), which shares the parent's memory until the
 * exec, where fork() copies the page tables of a report that holds 200 MB
 * and then takes a page fault for every page the parent writes again (a
 * -j2 report over 10,000 logs, eight charts: about 30,000 of its 140,000
 * minor faults).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <glib.h>

#include "core/cleanup.h"
#include "core/escape.h"
#include "plot/plot_int.h"

extern char **environ;

#define GP_STDERR_MAX (16u * 1024u)

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

bool bl_gp_available(void)
{
	char *p = bl_find_program("gnuplot");
	g_free(p);
	return p != NULL;
}

static void set_err(char **err_out, char *msg)
{
	if (err_out)
		*err_out = msg;
	else
		free(msg);
}

/* Start exe on script in dir, in a process group of its own: stdin from
 * /dev/null, stdout to out_fd (-1: ours), stderr to err_fd. Returns its
 * pid, or -1 with *why set (a message the caller frees) when it could not
 * be started. */
static pid_t gp_start(const char *exe, const char *dir, const char *script, const char *set_cmd,
		      int out_fd, int err_fd, char **why)
{
	/* gnuplot -d -e "outdir = '...'[; fmts = '...']" ./script */
	char *const argv[] = { (char *)"gnuplot", (char *)"-d", (char *)"-e", (char *)set_cmd,
			       (char *)script, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int e = posix_spawnattr_init(&at);
	if (e == 0 && (e = posix_spawnattr_setpgroup(&at, 0)) == 0)
		e = posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
	if (e == 0)
		e = posix_spawn_file_actions_init(&fa);
	if (e == 0) {
		if ((e = posix_spawn_file_actions_adddup2(&fa, err_fd, STDERR_FILENO)) == 0 &&
		    (out_fd < 0 || (e = posix_spawn_file_actions_adddup2(&fa, out_fd, STDOUT_FILENO)) == 0) &&
		    (e = posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0)) == 0 &&
		    (e = posix_spawn_file_actions_addchdir_np(&fa, dir)) == 0) {
			pid_t pid;
			e = posix_spawn(&pid, exe, &fa, &at, argv, environ);
			if (e == 0) {
				posix_spawn_file_actions_destroy(&fa);
				posix_spawnattr_destroy(&at);
				return pid;
			}
		}
		posix_spawn_file_actions_destroy(&fa);
	}
	posix_spawnattr_destroy(&at);
	/* the program, or the interpreter its first line names, missing or
	 * not executable; or the output folder gone (checked first, since
	 * both say ENOENT) */
	if (access(dir, X_OK) != 0)
		*why = bl_xasprintf("gnuplot: cannot enter output folder: %s", strerror(errno));
	else
		*why = bl_xasprintf("gnuplot: cannot run %s: %s", exe, strerror(e));
	return -1;
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

static bool stopped(const struct bl_gp_limits *lim)
{
	return lim && lim->stop && *lim->stop;
}

static unsigned timeout_of(const struct bl_gp_limits *lim)
{
	return lim && lim->timeout_s ? lim->timeout_s : BL_GP_TIMEOUT_S;
}

/* Whether the file of name in folder fd is a complete image: a PNG ends
 * with its IEND chunk (length 0, "IEND", its CRC AE 42 60 82; PNG 1.2
 * §11.2.5), an SVG with its closing </svg> tag (then white space only).
 * Other files are taken as they are. */
static bool image_complete(int fd, const char *name)
{
	size_t nl = strlen(name);
	bool png = nl > 4 && strcmp(name + nl - 4, ".png") == 0;
	bool svg = nl > 4 && strcmp(name + nl - 4, ".svg") == 0;
	if (!png && !svg)
		return true;
	int f = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (f < 0)
		return false;
	struct stat st;
	char tail[64];
	ssize_t n = -1;
	if (fstat(f, &st) == 0 && S_ISREG(st.st_mode)) {
		off_t at = st.st_size > (off_t)sizeof tail ? st.st_size - (off_t)sizeof tail : 0;
		n = pread(f, tail, (size_t)(st.st_size - at), at);
	}
	close(f);
	if (n <= 0)
		return false;
	if (png) {
		static const unsigned char iend[12] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D',
							0xae, 0x42, 0x60, 0x82 };
		return n >= 12 && memcmp(tail + n - 12, iend, 12) == 0;
	}
	while (n > 0 && (tail[n - 1] == '\n' || tail[n - 1] == '\r' || tail[n - 1] == ' '))
		n--;
	return n >= 6 && memcmp(tail + n - 6, "</svg>", 6) == 0;
}

/* Move what gnuplot wrote in dir/tmp into dir, each file checked first;
 * all or nothing. 0, or -BL_EIO with *msg set. */
static int take_images(const char *dir, const char *tmp, const char *script_name, char **msg)
{
	char *path = bl_xasprintf("%s/%s", dir, tmp);
	DIR *d = opendir(path);
	free(path);
	if (!d) {
		*msg = bl_xasprintf("gnuplot: %s: cannot read its output folder: %s", script_name,
				    strerror(errno));
		return -BL_EIO;
	}
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = dfd < 0 ? -BL_EIO : 0;
	struct dirent *e;
	while (!rc && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;   /* ".", "..", the pid file */
		if (!image_complete(dirfd(d), e->d_name)) {
			*msg = bl_xasprintf("gnuplot: %s: %s is incomplete (disk full?); "
					    "no image of this run kept", script_name, e->d_name);
			rc = -BL_EIO;
			break;
		}
		names = bl_xgrow(names, &cap, n + 1, sizeof *names);
		names[n++] = bl_xstrdup(e->d_name);
	}
	/* rename() replaces the name in dir, file or symlink alike, and never
	 * writes through a symlink. */
	for (size_t i = 0; i < n && !rc; i++)
		if (renameat(dirfd(d), names[i], dfd, names[i]) != 0) {
			*msg = bl_xasprintf("gnuplot: %s/%s: cannot move into place: %s", dir,
					    names[i], strerror(errno));
			rc = -BL_EIO;
		}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	if (dfd >= 0)
		close(dfd);
	return rc;
}

/* Read gnuplot's pipes until both close, the time is up or a stop comes.
 * Returns 0, -BL_EIO (poll failed), or sets *timed_out / *stop_seen. */
static int gp_wait_output(int errfd, int outfd, struct bl_buf *errb, struct bl_buf *out,
			  const struct bl_gp_limits *lim, bool *out_over, bool *timed_out, bool *stop_seen)
{
	bool err_over = false; /* the first 16 KiB of stderr is enough to explain */
	bool err_open = true, out_open = outfd >= 0;
	double deadline = now_s() + timeout_of(lim);
	while (err_open || out_open) {
		struct pollfd pf[2];
		nfds_t n = 0;
		int ei = -1, oi = -1;
		if (err_open) {
			pf[n] = (struct pollfd){ .fd = errfd, .events = POLLIN };
			ei = (int)n++;
		}
		if (out_open) {
			pf[n] = (struct pollfd){ .fd = outfd, .events = POLLIN };
			oi = (int)n++;
		}
		double left = deadline - now_s();
		if (left <= 0) {
			*timed_out = true;
			return 0;
		}
		if (stopped(lim)) {
			*stop_seen = true;
			return 0;
		}
		/* a tenth of a second at most, so a stop is seen soon even when
		 * the signal came just before poll() */
		int pr = poll(pf, n, left > 0.1 ? 100 : (int)(left * 1000) + 1);
		if (pr < 0) {
			if (errno == EINTR)
				continue;
			return -BL_EIO;
		}
		if (ei >= 0 && pf[ei].revents && drain(errfd, errb, GP_STDERR_MAX, &err_over) != 0)
			err_open = false;
		if (oi >= 0 && pf[oi].revents &&
		    drain(outfd, out, out->max ? out->max : SIZE_MAX, out_over) != 0)
			out_open = false;
	}
	return 0;
}

/* Why the run failed, from how gnuplot ended (msg: its stderr or NULL,
 * taken over). Returns the run's result; *msg_out the message. */
static int gp_verdict(const char *script_name, int rc, int status, unsigned timeout_s, bool timed_out,
		      bool stop_seen, bool out_over, size_t out_max, char *msg, char **msg_out)
{
	if (stop_seen) {
		rc = -BL_EINTR;
		free(msg);
		msg = bl_xasprintf("gnuplot: %s: interrupted", script_name);
	} else if (timed_out) {
		rc = -BL_EIO;
		free(msg);
		msg = bl_xasprintf("gnuplot: %s: killed after %u s", script_name, timeout_s);
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
		msg = bl_xasprintf("gnuplot: %s: output larger than %zu bytes", script_name, out_max);
	}
	*msg_out = msg;
	return rc;
}

/* Checks the arguments; 0 or the error (message set). */
static int gp_check_args(const char *dir, const char *script_name, const char *fmts, char **err_out)
{
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
	return 0;
}

int bl_gp_run(const char *dir, const char *script_name, const char *fmts, struct bl_buf *out,
	      const struct bl_gp_limits *lim, char **err_out)
{
	if (err_out)
		*err_out = NULL;
	if (!dir || !*dir)
		dir = ".";
	int rc = gp_check_args(dir, script_name, fmts, err_out);
	if (rc)
		return rc;
	if (stopped(lim)) {
		set_err(err_out, bl_xasprintf("gnuplot: %s: interrupted", script_name));
		return -BL_EINTR;
	}
	/* an absolute path, a relative PATH entry taken from here: gnuplot
	 * runs in the output folder */
	char *exe = bl_find_program("gnuplot");
	if (!exe) {
		set_err(err_out, bl_xstrdup("gnuplot not found on PATH"));
		return -BL_ENOTFOUND;
	}
	/* The private folder the images are written to (plot.h). */
	bl_sweep_stale(dir, ".gp-");
	char *tmpdir = bl_xasprintf("%s/.gp-XXXXXX", dir);
	if (!mkdtemp(tmpdir)) {
		set_err(err_out, bl_xasprintf("%s: cannot create a folder for gnuplot: %s", dir,
					      strerror(errno)));
		free(tmpdir);
		g_free(exe);
		return -BL_EIO;
	}
	bl_cleanup_add(tmpdir, true);
	const char *tmp = tmpdir + strlen(dir) + 1;
	char *script = bl_xasprintf("./%s", script_name);
	char *set_cmd = fmts ? bl_xasprintf("outdir = '%s/'; fmts = '%s'", tmp, fmts)
			     : bl_xasprintf("outdir = '%s/'", tmp);

	int errp[2] = { -1, -1 }, outp[2] = { -1, -1 };
	char *why = NULL;
	pid_t pid = -1;
	if (bl_pid_file_write(tmpdir) != 0) {
		rc = -BL_EIO;
		set_err(err_out, bl_xasprintf("%s: cannot write: %s", tmpdir, strerror(errno)));
	} else if (pipe2(errp, O_CLOEXEC) != 0 || (out && pipe2(outp, O_CLOEXEC) != 0)) {
		rc = -BL_EIO;
		set_err(err_out, bl_xasprintf("gnuplot: pipe: %s", strerror(errno)));
	} else if ((pid = gp_start(exe, dir, script, set_cmd, out ? outp[1] : -1, errp[1], &why)) < 0) {
		rc = -BL_EIO;
		set_err(err_out, why);
	}
	if (pid > 0) {
		close(errp[1]);
		if (out)
			close(outp[1]);
		errp[1] = outp[1] = -1;
		struct bl_buf errb = BL_BUF_INIT(GP_STDERR_MAX + 1);
		bool out_over = false, timed_out = false, stop_seen = false;
		rc = gp_wait_output(errp[0], out ? outp[0] : -1, &errb, out, lim, &out_over, &timed_out,
				    &stop_seen);
		if (timed_out || stop_seen || rc)
			kill(-pid, SIGKILL);   /* gnuplot and whatever it started */
		int status = 0;
		while (waitpid(pid, &status, 0) < 0) {
			if (errno != EINTR) {
				if (!rc)
					rc = -BL_EIO;
				status = 0;
				break;
			}
		}
		/* done, but the run is being stopped: keep nothing */
		char *msg = NULL;
		rc = gp_verdict(script_name, rc, status, timeout_of(lim), timed_out, stop_seen || stopped(lim),
				out_over, out ? out->max : 0, trimmed(&errb), &msg);
		bl_buf_release(&errb);
		if (rc == 0) {
			char *tmsg = NULL;
			rc = take_images(dir, tmp, script_name, &tmsg);
			if (rc) {
				free(msg);
				msg = tmsg;
			}
		}
		set_err(err_out, msg);
	}
	for (int i = 0; i < 2; i++) {
		if (errp[i] >= 0)
			close(errp[i]);
		if (outp[i] >= 0)
			close(outp[i]);
	}
	bl_remove_tree(tmpdir);
	bl_cleanup_forget(tmpdir);
	free(tmpdir);
	free(script);
	free(set_cmd);
	g_free(exe);
	return rc;
}
