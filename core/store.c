/* store.c — see store.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/escape.h"
#include "core/store.h"
#include "core/util.h"

const char *bl_tmp_dir(void)
{
	const char *dir = getenv("TMPDIR");
	return dir && *dir ? dir : "/tmp";
}

void bl_tmp_say(FILE *f, const char *cmd, int err)
{
	bl_term_printf(f, "benchlog %s: cannot write a temporary file in %s: %s\n", cmd, bl_tmp_dir(),
		       strerror(err ? err : EIO));
}

/* A new unlinked temporary file open for update; NULL with errno. */
static FILE *spool_open(void)
{
	char *path = bl_xasprintf("%s/benchlog-XXXXXX", bl_tmp_dir());
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
	if (!n)
		return 0;   /* nothing to copy (and no memcpy from or to NULL) */
	if (!t->f && off + n > BL_STORE_MEM) {
		errno = 0;
		if (!(t->f = spool_open()) || file_io(t->f, 0, t->mem, t->len, true) < 0) {
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

/* len bytes from off to out: of t, or else of the file f. */
static int copy_out(struct bl_store *t, FILE *f, size_t off, size_t len, FILE *out)
{
	char buf[65536];
	for (size_t n; len; off += n, len -= n) {
		n = len < sizeof buf ? len : sizeof buf;
		errno = 0;
		if ((t ? bl_store_get(t, off, buf, n) : file_io(f, off, buf, n, false)) < 0 ||
		    fwrite(buf, 1, n, out) != n) {
			errno = errno ? errno : EIO;
			return -1;
		}
	}
	return 0;
}

int bl_store_copy(struct bl_store *t, size_t off, size_t len, FILE *out)
{
	return copy_out(t, NULL, off, len, out);
}

/* s failed with e (EIO for none) unless it had already: -1, errno. */
static int spool_fail(struct bl_spool *s, int e)
{
	s->err = s->err ? s->err : e ? e : EIO;
	errno = s->err;
	return -1;
}

FILE *bl_spool_append(struct bl_spool *s, long long *off)
{
	if (!s->writing || s->err) {   /* errno and seeks off the path of appends after appends */
		errno = 0;
		if (!s->err && !s->f && !(s->f = spool_open()))
			return spool_fail(s, errno), NULL;
		if (s->err || fseeko(s->f, 0, SEEK_END) != 0)
			return spool_fail(s, errno), NULL;
		s->writing = true;
	}
	if (off && (*off = ftello(s->f)) < 0)
		return spool_fail(s, errno), NULL;
	return s->f;
}

FILE *bl_spool_read(struct bl_spool *s, long long off)
{
	if (s->err || !s->f) {
		errno = s->err ? s->err : EIO;
		return NULL;
	}
	if (s->writing || ftello(s->f) != off) {
		errno = 0;
		if ((s->writing && fflush(s->f) != 0) || fseeko(s->f, off, SEEK_SET) != 0)
			return spool_fail(s, errno), NULL;
		s->writing = false;
	}
	return s->f;
}

int bl_spool_check(struct bl_spool *s, bool ok)
{
	if (s->err || !ok || (s->f && ferror(s->f)))
		return spool_fail(s, errno);
	return 0;
}

int bl_spool_copy(struct bl_spool *s, FILE *out)
{
	long long end = 0;
	if (!s->f)
		return s->err ? spool_fail(s, 0) : 0;
	if (!bl_spool_append(s, &end) || ferror(s->f) || fflush(s->f) != 0)
		return spool_fail(s, errno);
	return copy_out(NULL, s->f, 0, (size_t)end, out);
}

void bl_spool_release(struct bl_spool *s)
{
	if (s->f)
		fclose(s->f);
	memset(s, 0, sizeof *s);
}

void bl_spool_put_str(FILE *f, const char *s)
{
	size_t n = s ? strlen(s) + 1 : 0;
	fwrite(&n, sizeof n, 1, f);
	if (n > 1)
		fwrite(s, 1, n - 1, f);
}

int bl_spool_get_str(FILE *f, char **s)
{
	size_t n;
	*s = NULL;
	if (fread(&n, sizeof n, 1, f) != 1 || n > ((size_t)1 << 30))
		return -1;
	if (n == 0)
		return 0;
	*s = bl_xmalloc(n);
	(*s)[n - 1] = '\0';
	if (fread(*s, 1, n - 1, f) == n - 1)
		return 0;
	free(*s);
	*s = NULL;
	return -1;
}

void bl_store_release(struct bl_store *t)
{
	free(t->mem);
	if (t->f)
		fclose(t->f);
	memset(t, 0, sizeof *t);
}

struct bucket { uint64_t h, off, len1, id; };   /* len1: key length + 1, 0 = empty */

/* The buckets twice as many, every key in them again. 0 or -1. */
static int index_grow(struct bl_index *x)
{
	struct bl_store old = x->buckets;
	size_t nold = x->nbucket;
	int rc = 0;
	memset(&x->buckets, 0, sizeof x->buckets);
	x->nbucket = nold ? 2 * nold : 1024;
	struct bucket b[256], e;
	for (size_t i = 0; i < nold && !rc; i += 256) {
		size_t m = nold - i < 256 ? nold - i : 256;
		rc = bl_store_get(&old, i * sizeof *b, b, m * sizeof *b);
		for (size_t j = 0; j < m && !rc; j++) {
			size_t p = (size_t)b[j].h & (x->nbucket - 1);
			for (; b[j].len1 && !(rc = bl_store_get(&x->buckets, p * sizeof e, &e, sizeof e)) && e.len1;
			     p = (p + 1) & (x->nbucket - 1))
				;
			if (b[j].len1 && !rc)
				rc = bl_store_put(&x->buckets, p * sizeof e, &b[j], sizeof e);
		}
	}
	bl_store_release(&old);
	return rc;
}

/* The len bytes of x->keys at off are key: compared in place while the
 * keys are in memory, else read back a piece at a time. 1, 0, or -1. */
static int key_is(struct bl_index *x, size_t off, const char *key, size_t len)
{
	if (!x->keys.f)
		return !len || memcmp(x->keys.mem + off, key, len) == 0;
	char got[512];
	for (size_t n; len; off += n, key += n, len -= n) {
		n = len < sizeof got ? len : sizeof got;
		if (bl_store_get(&x->keys, off, got, n) < 0)
			return -1;
		if (memcmp(got, key, n) != 0)
			return 0;
	}
	return 1;
}

/* Where key (hash h) is in x's buckets (b->len1 != 0), or the empty
 * bucket it would take (b->len1 == 0), at *p. 0 or -1. */
static int probe(struct bl_index *x, const char *key, size_t len, uint64_t h, size_t *p, struct bucket *b)
{
	int is = 0;
	for (*p = (size_t)h & (x->nbucket - 1);; *p = (*p + 1) & (x->nbucket - 1)) {
		if (bl_store_get(&x->buckets, *p * sizeof *b, b, sizeof *b) < 0)
			return -1;
		if (!b->len1 || (b->h == h && b->len1 == len + 1 && (is = key_is(x, b->off, key, len)) != 0))
			return is < 0 ? -1 : 0;
	}
}

int bl_index_get(struct bl_index *x, const char *key, size_t len, size_t *id)
{
	struct bucket b;
	size_t p;
	if (!x->nbucket)
		return 1;
	if (probe(x, key, len, bl_hash64(key, len), &p, &b) < 0)
		return -1;
	*id = (size_t)b.id;
	return b.len1 ? 0 : 1;
}

int bl_index_find(struct bl_index *x, const char *key, size_t len, size_t *id, size_t *off, bool *added)
{
	*added = false;
	if (2 * (x->n + 1) > x->nbucket && index_grow(x) < 0)
		return -1;
	uint64_t h = bl_hash64(key, len);
	struct bucket b;
	size_t p;
	if (probe(x, key, len, h, &p, &b) < 0)
		return -1;
	if (!b.len1) {   /* new: its key stored, its bucket taken */
		b = (struct bucket){ h, x->keys_len, len + 1, x->n };
		if (bl_store_put(&x->keys, x->keys_len, key, len) < 0 ||
		    bl_store_put(&x->buckets, p * sizeof b, &b, sizeof b) < 0)
			return -1;
		x->keys_len += len;
		x->n++;
		*added = true;
	}
	*id = (size_t)b.id;
	*off = (size_t)b.off;
	return 0;
}

void bl_index_release(struct bl_index *x)
{
	bl_store_release(&x->buckets);
	bl_store_release(&x->keys);
	memset(x, 0, sizeof *x);
}
