/* cleanup.c — see cleanup.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib.h>
#include "core/cleanup.h"
#include "core/util.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct { char *path; bool is_dir; } reg[BL_CLEANUP_MAX];
/* Given back to malloc when memory runs out, so removing the folders
 * (opendir allocates) and printing can still be done. */
static void *reserve;

void bl_cleanup_add(const char *path, bool is_dir)
{
	char *copy = strdup(path);
	if (!copy)
		bl_out_of_memory();
	pthread_mutex_lock(&mu);
	if (!reserve)
		reserve = malloc(1u << 20);
	size_t i = 0;
	while (i < BL_CLEANUP_MAX && reg[i].path)
		i++;
	if (i < BL_CLEANUP_MAX) {
		reg[i].path = copy;
		reg[i].is_dir = is_dir;
		copy = NULL;
	}
	pthread_mutex_unlock(&mu);
	free(copy);
}

void bl_cleanup_forget(const char *path)
{
	if (!path)
		return;
	pthread_mutex_lock(&mu);
	for (size_t i = 0; i < BL_CLEANUP_MAX; i++)
		if (reg[i].path && strcmp(reg[i].path, path) == 0) {
			free(reg[i].path);
			reg[i].path = NULL;
			break;
		}
	pthread_mutex_unlock(&mu);
}

/* Remove the entries of the open folder dfd, then the folder name in
 * parent. No symlink is followed: O_NOFOLLOW on every descent. */
static int remove_at(int parent, const char *name)
{
	if (unlinkat(parent, name, 0) == 0 || errno == ENOENT)
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return -1;
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -1;
	}
	int rc = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (remove_at(dirfd(d), e->d_name) != 0)
			rc = -1;
	}
	closedir(d);
	if (unlinkat(parent, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
		rc = -1;
	return rc;
}

int bl_remove_tree(const char *path)
{
	return remove_at(AT_FDCWD, path);
}

/* Remove every registered temporary (no symlink followed). */
static void cleanup_all(void)
{
	pthread_mutex_lock(&mu);
	for (size_t i = 0; i < BL_CLEANUP_MAX; i++) {
		if (!reg[i].path)
			continue;
		if (reg[i].is_dir)
			bl_remove_tree(reg[i].path);
		else
			unlink(reg[i].path);
		free(reg[i].path);
		reg[i].path = NULL;
	}
	pthread_mutex_unlock(&mu);
}

_Noreturn void bl_out_of_memory(void)
{
	bl_fatal("out of memory");
}

_Noreturn void bl_fatal(const char *what)
{
	/* One thread cleans up and exits; any other that fails too waits
	 * for that exit. */
	static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&once);
	free(reserve);
	reserve = NULL;
	ssize_t w = write(STDERR_FILENO, "benchlog: ", 10);
	w = write(STDERR_FILENO, what, strlen(what));
	w = write(STDERR_FILENO, "\n", 1);
	(void)w;
	/* mu may be held by a thread that ran out inside bl_cleanup_add():
	 * then the registry is left as it is rather than waited for. */
	if (pthread_mutex_trylock(&mu) == 0) {
		pthread_mutex_unlock(&mu);
		cleanup_all();
	}
	_exit(1);
}

int bl_pid_file_write(const char *dir)
{
	char path[4096];
	if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, BL_PID_FILE) >= sizeof path)
		return -1;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -1;
	char num[32];
	int n = snprintf(num, sizeof num, "%ld\n", (long)getpid());
	int rc = write(fd, num, (size_t)n) == n ? 0 : -1;
	if (close(fd) != 0)
		rc = -1;
	return rc;
}

/* True when pid names no running process; false for a live process, one
 * of another user's, or pid <= 0. */
static bool pid_gone(long pid)
{
	if (pid <= 0 || pid != (long)(pid_t)pid)
		return false;
	return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

#define TEMP_MARK ".benchlog-"

char *bl_temp_template(const char *dir, const char *name)
{
	return bl_xasprintf("%s/.%s" TEMP_MARK "%ld-XXXXXX", dir, name, (long)getpid());
}

/* The pid at s: digits up to end; -1 when s holds no such number. */
static long read_pid(const char *s, char end)
{
	long v = 0;
	const char *p = s;
	while (*p >= '0' && *p <= '9' && p - s < 10)
		v = v * 10 + (*p++ - '0');
	return p > s && *p == end ? v : -1;
}

/* The owner's pid of a file named as bl_temp_template() makes them, or -1. */
static long file_owner(const char *name)
{
	const char *m = strstr(name, TEMP_MARK);
	const char *last = m;
	while (m && (m = strstr(m + 1, TEMP_MARK)) != NULL)
		last = m;
	if (!last)
		return -1;
	const char *p = last + strlen(TEMP_MARK);
	long pid = read_pid(p, '-');
	if (pid < 0)
		return -1;
	const char *rnd = strchr(p, '-') + 1;
	return strlen(rnd) == 6 ? pid : -1;
}

/* The pid in folder name's BL_PID_FILE, or -1. */
static long folder_owner(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int pf = openat(fd, BL_PID_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	close(fd);
	if (pf < 0)
		return -1;
	char buf[32];
	ssize_t n = read(pf, buf, sizeof buf - 1);
	close(pf);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return read_pid(buf, '\n');
}

int bl_sweep_stale(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t pl = strlen(prefix);
	int removed = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, prefix, pl) != 0)
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		long pid = -1;
		if (S_ISDIR(st.st_mode))
			pid = folder_owner(dirfd(d), e->d_name);
		else if (S_ISREG(st.st_mode))
			pid = file_owner(e->d_name);
		if (pid > 0 && pid != (long)getpid() && pid_gone(pid) &&
		    remove_at(dirfd(d), e->d_name) == 0)
			removed++;
	}
	closedir(d);
	return removed;
}

/* GLib ends the process with g_error() when g_malloc() fails (in GMime's
 * parser, for instance): the message goes through the log writer (GLib
 * built with structured logging) or the domain's handler, then GLib traps
 * (SIGTRAP, exit 133). Both are caught here, once, at start. */
static bool glib_oom(const char *text)
{
	return text && strstr(text, "failed to allocate") != NULL;
}

static GLogWriterOutput glib_writer(GLogLevelFlags level, const GLogField *fields,
				    gsize n, gpointer ud)
{
	(void)ud;
	if (level & G_LOG_LEVEL_ERROR)
		for (gsize i = 0; i < n; i++)
			if (strcmp(fields[i].key, "MESSAGE") == 0 && fields[i].length < 0 &&
			    glib_oom(fields[i].value))
				bl_out_of_memory();
	return g_log_writer_default(level, fields, n, ud);
}

static void glib_handler(const gchar *domain, GLogLevelFlags level, const gchar *text,
			 gpointer ud)
{
	if ((level & G_LOG_LEVEL_ERROR) && glib_oom(text))
		bl_out_of_memory();
	g_log_default_handler(domain, level, text, ud);
}

void bl_cleanup_init(void)
{
	pthread_mutex_lock(&mu);
	if (!reserve)
		reserve = malloc(1u << 20);
	pthread_mutex_unlock(&mu);
	g_log_set_writer_func(glib_writer, NULL, NULL);
	g_log_set_default_handler(glib_handler, NULL);
	g_log_set_handler("GLib", G_LOG_LEVEL_ERROR | G_LOG_FLAG_FATAL, glib_handler, NULL);
}
