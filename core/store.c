/* store.c — see store.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/store.h"
#include "core/util.h"

FILE *bl_spool_open(void)
{
	const char *dir = getenv("TMPDIR");
	if (!dir || !*dir)
		dir = "/tmp";
	char *path = bl_xasprintf("%s/benchlog-XXXXXX", dir);
	int fd = mkstemp(path);
	if (fd < 0) {
		int e = errno;
		free(path);
		errno = e;
		return NULL;
	}
	unlink(path);
	free(path);
	FILE *f = fdopen(fd, "w+");
	if (!f) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return f;
}

/* pread or pwrite all of n bytes at off; past the end reads zeros. 0 or
 * -1 with errno. */
static int file_io(FILE *f, size_t off, void *p, size_t n, bool out)
{
	char *c = p;
	while (n) {
		ssize_t r = out ? pwrite(fileno(f), c, n, (off_t)off) : pread(fileno(f), c, n, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0 && !out) {
			memset(c, 0, n);
			return 0;
		}
		if (r <= 0) {
			if (r == 0)
				errno = EIO;
			return -1;
		}
		c += r;
		off += (size_t)r;
		n -= (size_t)r;
	}
	return 0;
}

int bl_store_put(struct bl_store *t, size_t off, const void *p, size_t n)
{
	if (!t->f && off + n > BL_STORE_MEM) {
		errno = 0;
		if (!(t->f = bl_spool_open()) || file_io(t->f, 0, t->mem, t->len, true) < 0) {
			if (!errno)
				errno = EIO;
			return -1;
		}
		free(t->mem);
		t->mem = NULL;
		t->len = t->cap = 0;
	}
	if (t->f)
		return file_io(t->f, off, (void *)p, n, true);
	if (off + n > t->len) {
		t->mem = bl_xgrow(t->mem, &t->cap, off + n, 1);
		memset(t->mem + t->len, 0, off + n - t->len);
		t->len = off + n;
	}
	memcpy(t->mem + off, p, n);
	return 0;
}

int bl_store_get(struct bl_store *t, size_t off, void *p, size_t n)
{
	if (t->f)
		return file_io(t->f, off, p, n, false);
	size_t have = off < t->len ? t->len - off : 0;
	have = have < n ? have : n;
	if (have)
		memcpy(p, t->mem + off, have);
	memset((char *)p + have, 0, n - have);
	return 0;
}

void bl_store_release(struct bl_store *t)
{
	free(t->mem);
	if (t->f)
		fclose(t->f);
	memset(t, 0, sizeof *t);
}
