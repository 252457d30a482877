/* spool.c — unlinked temporary files for formatted text (see spool.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "analyze/spool.h"
#include "core/util.h"

/* errno of the write that set the error flag is gone by the time the
 * caller looks; EIO stands for it unless a later failed call set errno. */
static int eio(int e)
{
	errno = e ? e : EIO;
	return -BL_EIO;
}

int bl_spool_copy(FILE *sp, FILE *out)
{
	errno = 0;
	if (ferror(sp) || fflush(sp) != 0)
		return eio(errno);
	long long end = ftello(sp);
	if (end < 0)
		return eio(errno);
	int rc = bl_spool_copy_range(sp, 0, end, out);
	return rc;
}

int bl_spool_copy_range(FILE *sp, long long off, long long len, FILE *out)
{
	char buf[65536];
	int fd = fileno(sp);
	while (len > 0) {
		size_t want = len < (long long)sizeof buf ? (size_t)len : sizeof buf;
		ssize_t got = pread(fd, buf, want, (off_t)off);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return eio(got < 0 ? errno : EIO);   /* 0: the file is shorter than it should be */
		errno = 0;
		if (fwrite(buf, 1, (size_t)got, out) != (size_t)got)
			return eio(errno);
		off += got;
		len -= got;
	}
	return 0;
}
