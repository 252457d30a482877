/* shim.c — faults no user can cause at will, for the hostile cases:
 * preloaded into benchlog (lib.sh, shim), each off unless its variable
 * is set.
 *   HC_FULL_SPOOL=N  the Nth temporary file of a spool (TMPDIR/benchlog-
 *                    XXXXXX, core/store.c) is /dev/full: its writes fail
 *                    with ENOSPC, as on a full /tmp;
 *   HC_FREE_ERRNO=1  free() sets errno (to EDOM) after it frees, as C and
 *                    POSIX before 2024 allow: a message must take errno
 *                    before it frees anything. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int mkstemp(char *t)
{
	static int (*real)(char *);
	static int spools;
	if (!real)
		real = (int (*)(char *))dlsym(RTLD_NEXT, "mkstemp");
	int fd = real(t);
	const char *at = getenv("HC_FULL_SPOOL");
	const char *base = strrchr(t, '/');
	if (fd >= 0 && at && base && strncmp(base, "/benchlog-", 10) == 0 && ++spools == atoi(at)) {
		int full = open("/dev/full", O_RDWR | O_CLOEXEC);
		if (full >= 0) {
			dup2(full, fd);
			close(full);
		}
	}
	return fd;
}

void free(void *p)
{
	static void (*real)(void *);
	static int clobber = -1, resolving;
	if (!real) {
		if (resolving)
			return;   /* dlsym's own free while it looks: kept */
		resolving = 1;
		real = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	}
	real(p);
	if (clobber < 0)
		clobber = getenv("HC_FREE_ERRNO") != NULL;
	if (clobber)
		errno = EDOM;
}
