/* reader.c — inputs to lines (see reader.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <iconv.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "parsers/dispatch.h"
#include "input/mail.h"
#include "input/reader.h"
#include "core/util.h"

#define IN_CHUNK (256 * 1024)

struct bl_src {
	int fd;
	bool own_fd;
	bool gzip;
	bool eof;                 /* no more raw input */
	bool done;                /* no more output */
	z_stream zs;
	bool zinit;
	unsigned char *in;        /* raw input buffer */
	unsigned long long in_total; /* raw bytes read from fd */
	unsigned long long member_start;
	char *peek;               /* first decompressed bytes, served first */
	size_t peek_len, peek_pos;
	bool peeked;
	char err[256];
	char warn[256];
	volatile sig_atomic_t *stop;
	bool regular;             /* a regular file (a read never blocks for long) */
	unsigned long long size;  /* its size on disk */
	struct zthread *zt;       /* inflating on a second thread, or NULL */
};

/* A big .gz is inflated on a second thread into a ring of chunks while
 * the caller parses the previous ones: inflating costs about as much as
 * parsing, and the two then take the two cores. A big plain file is read
 * the same way when the caller takes the chunks by pointer
 * (bl_src_read_chunk): the copy out of the page cache leaves the parsing
 * thread. Only for regular files
 * (a pipe could block the thread in read() past a stop request) of at
 * least ZT_MIN_SIZE bytes (starting a thread costs more than inflating a
 * small file). The thread runs raw_read() and nothing else; the caller
 * sees the same bytes, errors (with their errno) and end as without it. */
#define ZT_SLOTS 8
#define ZT_CHUNK (256 * 1024)
#define ZT_MIN_SIZE (1024 * 1024)

struct zthread {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct {
		char *data;
		ssize_t len;          /* raw_read()'s result: bytes, 0 end, or -bl_err */
		int err_no;           /* errno after it */
	} q[ZT_SLOTS];
	size_t head, n;           /* the oldest filled slot; filled slots */
	size_t off;               /* bytes of q[head] already handed out */
	bool lent;                /* q[head] was lent whole (bl_src_read_chunk) */
	bool quit;
	/* who sleeps on cv: the thread for a free slot, the caller for a
	 * filled one. The other side wakes it only once half the slots are
	 * there for it (or at the end): a wake-up per chunk cost more CPU
	 * than the copies it saved (see docs/performance.md) */
	bool thread_waits, caller_waits;
	unsigned long long in_seen; /* in_total as of the last chunk */
};

static bool src_stopped(const struct bl_src *s)
{
	return s->stop && *s->stop;
}

static ssize_t raw_fill(struct bl_src *s)
{
	/* Move unconsumed input to the front, then read more. */
	if (s->zs.avail_in && s->zs.next_in != s->in)
		memmove(s->in, s->zs.next_in, s->zs.avail_in);
	s->zs.next_in = s->in;
	if (src_stopped(s)) {
		errno = EINTR;
		return -BL_EINTR;
	}
	ssize_t n;
	do {
		n = read(s->fd, s->in + s->zs.avail_in, IN_CHUNK - s->zs.avail_in);
	} while (n < 0 && errno == EINTR && !src_stopped(s));
	if (n < 0)
		return errno == EINTR ? -BL_EINTR : -BL_EIO;
	if (n == 0)
		s->eof = true;
	s->zs.avail_in += (uInt)n;
	s->in_total += (unsigned long long)n;
	return n;
}

int bl_src_open(const char *path, struct bl_src **out)
{
	return bl_src_open_stop(path, NULL, out);
}

int bl_src_open_stop(const char *path, volatile sig_atomic_t *stop, struct bl_src **out)
{
	struct bl_src *s = bl_xcalloc(1, sizeof *s);
	s->stop = stop;
	if (strcmp(path, "-") == 0) {
		s->fd = STDIN_FILENO;
	} else {
		struct stat st;
		do {
			s->fd = open(path, O_RDONLY | O_CLOEXEC);
		} while (s->fd < 0 && errno == EINTR && !src_stopped(s));
		if (s->fd < 0) {
			int e = errno;
			free(s);
			errno = e;
			return e == ENOENT ? -BL_ENOTFOUND : e == EINTR ? -BL_EINTR : -BL_EIO;
		}
		s->own_fd = true;
		if (fstat(s->fd, &st) == 0 && S_ISDIR(st.st_mode)) {
			close(s->fd);
			free(s);
			errno = EISDIR;
			return -BL_EIO;
		}
		if (S_ISREG(st.st_mode)) {
			s->regular = true;
			s->size = (unsigned long long)st.st_size;
		}
	}
	s->in = bl_xmalloc(IN_CHUNK);
	/* Read until two bytes are there (or EOF) to see the gzip magic. */
	while (s->zs.avail_in < 2 && !s->eof) {
		ssize_t r = raw_fill(s);
		if (r < 0) {
			int e = errno;
			bl_src_close(s);
			errno = e;
			return (int)r;
		}
	}
	if (s->zs.avail_in >= 2 && s->in[0] == 0x1f && s->in[1] == 0x8b) {
		s->gzip = true;
		if (inflateInit2(&s->zs, 15 + 16) != Z_OK) {
			bl_src_close(s);
			return -BL_ENOMEM;
		}
		s->zinit = true;
	}
	*out = s;
	return 0;
}

static bool gzip_magic_ahead(struct bl_src *s)
{
	while (s->zs.avail_in < 2 && !s->eof)
		if (raw_fill(s) < 0)
			return false;
	return s->zs.avail_in >= 2 && s->zs.next_in[0] == 0x1f && s->zs.next_in[1] == 0x8b;
}

static ssize_t raw_read(struct bl_src *s, void *buf, size_t n)
{
	if (s->done || n == 0)
		return 0;
	if (!s->gzip) {
		if (s->zs.avail_in == 0 && n >= IN_CHUNK && !s->eof) {
			/* a whole chunk wanted and nothing buffered: read it
			 * straight into the caller's buffer, not through s->in */
			ssize_t r;
			do {
				r = src_stopped(s) ? (errno = EINTR, -1) : read(s->fd, buf, n);
			} while (r < 0 && errno == EINTR && !src_stopped(s));
			if (r < 0) {
				int e = errno;
				snprintf(s->err, sizeof s->err, "read error: %s", strerror(e));
				errno = e;
				return e == EINTR ? -BL_EINTR : -BL_EIO;
			}
			if (r == 0)
				s->eof = true;
			s->in_total += (unsigned long long)r;
			return r;
		}
		if (s->zs.avail_in == 0) {
			if (s->eof)
				return 0;
			ssize_t r = raw_fill(s);
			if (r < 0) {
				snprintf(s->err, sizeof s->err, "read error: %s", strerror(errno));
				return r;
			}
			if (r == 0)
				return 0;
		}
		size_t k = s->zs.avail_in < n ? s->zs.avail_in : n;
		memcpy(buf, s->zs.next_in, k);
		s->zs.next_in += k;
		s->zs.avail_in -= (uInt)k;
		return (ssize_t)k;
	}
	s->zs.next_out = buf;
	s->zs.avail_out = (uInt)(n > (1u << 30) ? (1u << 30) : n);
	while (s->zs.avail_out > 0) {
		if (s->zs.avail_in == 0 && !s->eof) {
			ssize_t r = raw_fill(s);
			if (r < 0) {
				snprintf(s->err, sizeof s->err, "read error: %s", strerror(errno));
				return r;
			}
		}
		if (s->zs.avail_in == 0 && s->eof) {
			unsigned long long off = s->in_total;
			snprintf(s->err, sizeof s->err,
				 "truncated gzip data at offset %llu (member started at offset %llu)",
				 off, s->member_start);
			s->done = true;
			size_t got = n - s->zs.avail_out;
			return got ? (ssize_t)got : -BL_ECORRUPT;
		}
		int zr = inflate(&s->zs, Z_NO_FLUSH);
		if (zr == Z_STREAM_END) {
			unsigned long long end_off = s->in_total - s->zs.avail_in;
			if (gzip_magic_ahead(s)) {
				s->member_start = s->in_total - s->zs.avail_in;
				inflateReset(&s->zs);
				continue;
			}
			/* Anything after the last member that is not another member. */
			bool garbage = false;
			for (;;) {
				for (uInt i = 0; i < s->zs.avail_in; i++)
					if (s->zs.next_in[i] != 0)
						garbage = true;
				s->zs.avail_in = 0;
				if (s->eof || raw_fill(s) <= 0)
					break;
			}
			if (garbage)
				snprintf(s->warn, sizeof s->warn,
					 "trailing garbage after gzip member ending at offset %llu ignored", end_off);
			s->done = true;
			break;
		}
		if (zr == Z_BUF_ERROR && s->zs.avail_in == 0)
			continue; /* needs more input */
		if (zr != Z_OK) {
			unsigned long long off = s->in_total - s->zs.avail_in;
			snprintf(s->err, sizeof s->err, "corrupt gzip data at offset %llu: %s",
				 off, s->zs.msg ? s->zs.msg : "inflate failed");
			s->done = true;
			size_t got = n - s->zs.avail_out;
			return got ? (ssize_t)got : -BL_ECORRUPT;
		}
	}
	return (ssize_t)(n - s->zs.avail_out);
}

int bl_src_peek(struct bl_src *s, const char **p, size_t *len)
{
	if (!s->peeked) {
		s->peeked = true;
		s->peek = bl_xmalloc(BL_SNIFF_MAX);
		while (s->peek_len < BL_SNIFF_MAX) {
			ssize_t r = raw_read(s, s->peek + s->peek_len, BL_SNIFF_MAX - s->peek_len);
			if (r < 0) {
				if (s->peek_len == 0)
					return (int)r;
				break;
			}
			if (r == 0)
				break;
			s->peek_len += (size_t)r;
		}
	}
	*p = s->peek + s->peek_pos;
	*len = s->peek_len - s->peek_pos;
	return 0;
}

static void *zt_main(void *arg)
{
	struct bl_src *s = arg;
	struct zthread *z = s->zt;
	for (;;) {
		pthread_mutex_lock(&z->mu);
		while (z->n == ZT_SLOTS && !z->quit) {
			z->thread_waits = true;
			pthread_cond_wait(&z->cv, &z->mu);
			z->thread_waits = false;
		}
		if (z->quit) {
			pthread_mutex_unlock(&z->mu);
			break;
		}
		size_t slot = (z->head + z->n) % ZT_SLOTS;
		pthread_mutex_unlock(&z->mu);
		ssize_t r = raw_read(s, z->q[slot].data, ZT_CHUNK);
		int e = errno;
		pthread_mutex_lock(&z->mu);
		z->q[slot].len = r;
		z->q[slot].err_no = e;
		z->in_seen = s->in_total;
		z->n++;
		if (z->caller_waits && (z->n >= ZT_SLOTS / 2 || r <= 0))
			pthread_cond_broadcast(&z->cv);
		pthread_mutex_unlock(&z->mu);
		if (r <= 0)
			break;           /* the end, or an error: the slot keeps it */
	}
	return NULL;
}

/* Start the inflating thread; false (and nothing changed) when it cannot. */
static bool zt_start(struct bl_src *s)
{
	struct zthread *z = bl_xcalloc(1, sizeof *z);
	for (size_t i = 0; i < ZT_SLOTS; i++)
		z->q[i].data = bl_xmalloc(ZT_CHUNK);
	pthread_mutex_init(&z->mu, NULL);
	pthread_cond_init(&z->cv, NULL);
	z->in_seen = s->in_total;
	s->zt = z;
	if (pthread_create(&z->th, NULL, zt_main, s) != 0) {
		s->zt = NULL;
		pthread_mutex_destroy(&z->mu);
		pthread_cond_destroy(&z->cv);
		for (size_t i = 0; i < ZT_SLOTS; i++)
			free(z->q[i].data);
		free(z);
		return false;
	}
	return true;
}

static void zt_stop(struct bl_src *s)
{
	struct zthread *z = s->zt;
	if (!z)
		return;
	pthread_mutex_lock(&z->mu);
	z->quit = true;
	pthread_cond_broadcast(&z->cv);
	pthread_mutex_unlock(&z->mu);
	pthread_join(z->th, NULL);
	pthread_mutex_destroy(&z->mu);
	pthread_cond_destroy(&z->cv);
	for (size_t i = 0; i < ZT_SLOTS; i++)
		free(z->q[i].data);
	free(z);
	s->zt = NULL;
}

/* The oldest chunk is used up: its slot goes back to the thread. */
static void zt_pop(struct zthread *z)
{
	pthread_mutex_lock(&z->mu);
	z->head = (z->head + 1) % ZT_SLOTS;
	z->n--;
	z->off = 0;
	if (z->thread_waits && z->n <= ZT_SLOTS / 2)
		pthread_cond_broadcast(&z->cv);
	pthread_mutex_unlock(&z->mu);
}

/* Give back the slot lent by zt_lend(). */
static void zt_return(struct zthread *z)
{
	if (!z->lent)
		return;
	z->lent = false;
	zt_pop(z);
}

/* Wait for the oldest chunk (after giving back a lent one); its slot in
 * *slot. Returns its length, or what raw_read() returned for it (0 at the
 * end, a negative bl_err with errno as the thread saw it). */
static ssize_t zt_head(struct zthread *z, size_t *slot)
{
	zt_return(z);
	pthread_mutex_lock(&z->mu);
	while (z->n == 0) {
		z->caller_waits = true;
		pthread_cond_wait(&z->cv, &z->mu);
		z->caller_waits = false;
	}
	*slot = z->head;
	pthread_mutex_unlock(&z->mu);
	ssize_t len = z->q[*slot].len;
	if (len <= 0)
		errno = z->q[*slot].err_no;
	return len;
}

/* The rest of the oldest chunk, lent to the caller until the next call
 * (no copy); the same results as zt_read() otherwise. */
static ssize_t zt_lend(struct bl_src *s, char **p)
{
	struct zthread *z = s->zt;
	size_t slot;
	ssize_t len = zt_head(z, &slot);
	if (len <= 0)
		return len;
	*p = z->q[slot].data + z->off;
	z->lent = true;
	return len - (ssize_t)z->off;
}

/* raw_read() through the thread's chunks. */
static ssize_t zt_read(struct bl_src *s, void *buf, size_t n)
{
	struct zthread *z = s->zt;
	size_t slot;
	ssize_t len = zt_head(z, &slot);
	if (len <= 0)
		return len;
	size_t k = (size_t)len - z->off;
	if (k > n)
		k = n;
	memcpy(buf, z->q[slot].data + z->off, k);
	z->off += k;
	if (z->off == (size_t)len)
		zt_pop(z);
	return (ssize_t)k;
}

ssize_t bl_src_read(struct bl_src *s, void *buf, size_t n)
{
	if (s->peek_pos < s->peek_len) {
		size_t k = s->peek_len - s->peek_pos;
		if (k > n)
			k = n;
		memcpy(buf, s->peek + s->peek_pos, k);
		s->peek_pos += k;
		return (ssize_t)k;
	}
	if (!s->zt && s->gzip && s->regular && s->size >= ZT_MIN_SIZE && !s->done && n)
		zt_start(s);
	ssize_t r = s->zt ? zt_read(s, buf, n) : raw_read(s, buf, n);
	if (r == 0 && s->err[0])
		return -BL_ECORRUPT;
	return r;
}

ssize_t bl_src_read_chunk(struct bl_src *s, char *buf, size_t n, char **p)
{
	*p = buf;
	if (s->peek_pos < s->peek_len)
		return bl_src_read(s, buf, n);
	/* Big regular files, plain too: read (or inflated) on a second
	 * thread, the chunk lent without a copy. */
	if (!s->zt && s->regular && s->size >= ZT_MIN_SIZE && !s->done && n)
		zt_start(s);
	if (!s->zt)
		return bl_src_read(s, buf, n);
	ssize_t r = zt_lend(s, p);
	if (r == 0 && s->err[0])
		return -BL_ECORRUPT;
	return r;
}

const char *bl_src_error(const struct bl_src *s) { return s->err; }
const char *bl_src_warning(const struct bl_src *s) { return s->warn[0] ? s->warn : NULL; }
bool bl_src_is_gzip(const struct bl_src *s) { return s->gzip; }

unsigned long long bl_src_bytes_in(const struct bl_src *s)
{
	if (!s->zt)
		return s->in_total;
	pthread_mutex_lock(&s->zt->mu);
	unsigned long long n = s->zt->in_seen;
	pthread_mutex_unlock(&s->zt->mu);
	return n;
}

void bl_src_close(struct bl_src *s)
{
	if (!s)
		return;
	zt_stop(s);
	if (s->zinit)
		inflateEnd(&s->zs);
	if (s->own_fd)
		close(s->fd);
	free(s->in);
	free(s->peek);
	free(s);
}

/* ---- folders ---- */

struct pathvec {
	char **v;
	long long *sz;               /* with v: size of a regular file, else -1 */
	size_t n, cap;
};

static void pv_push_sized(struct pathvec *pv, char *p, long long size)
{
	if (pv->n + 2 > pv->cap) {
		pv->cap = pv->cap ? pv->cap * 2 : 16;
		pv->v = bl_xrealloc(pv->v, pv->cap * sizeof *pv->v);
		pv->sz = bl_xrealloc(pv->sz, pv->cap * sizeof *pv->sz);
	}
	pv->sz[pv->n] = size;
	pv->v[pv->n++] = p;
	pv->v[pv->n] = NULL;
}

static void pv_push(struct pathvec *pv, char *p)
{
	pv_push_sized(pv, p, -1);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The folders being walked, from the input down: a folder met again is a
 * loop (a symbolic link to an ancestor). No depth limit of its own: the
 * path length (PATH_MAX) bounds it. */
struct dirstack {
	struct { dev_t dev; ino_t ino; } *v;
	size_t n, cap;
};

static void ds_push(struct dirstack *ds, dev_t dev, ino_t ino)
{
	if (ds->n == ds->cap) {
		ds->cap = ds->cap ? ds->cap * 2 : 16;
		ds->v = bl_xrealloc(ds->v, ds->cap * sizeof *ds->v);
	}
	ds->v[ds->n].dev = dev;
	ds->v[ds->n].ino = ino;
	ds->n++;
}

static void walk(struct bl_ctx *ctx, const char *dir, struct dirstack *ds, struct pathvec *pv)
{
	DIR *dp = opendir(dir);
	if (!dp) {
		bl_warn_at(ctx, dir, "unreadable input", "cannot open folder: %s", strerror(errno));
		ctx->input_errors++;
		return;
	}
	int dfd = dirfd(dp);
	struct pathvec names = {0};
	struct dirent *de;
	while ((de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		pv_push(&names, bl_xstrdup(de->d_name));
	}
	if (names.n)
		qsort(names.v, names.n, sizeof *names.v, cmp_str);
	/* Each entry looked up from its folder (fstatat), not by a path from
	 * the input down: the whole path was walked again for every file. The
	 * folder is closed before going down, so a deep tree holds one
	 * descriptor at a time; of each stat only what is used below is
	 * kept. */
	struct entry {
		mode_t mode;
		int err;                 /* errno of a failed fstatat, else 0 */
		dev_t dev;
		ino_t ino;
		long long size;
	} *ent = bl_xcalloc(names.n ? names.n : 1, sizeof *ent);
	for (size_t i = 0; i < names.n; i++) {
		struct stat st;
		if (fstatat(dfd, names.v[i], &st, 0) != 0)
			ent[i].err = errno ? errno : EIO;
		else
			ent[i] = (struct entry){ st.st_mode, 0, st.st_dev, st.st_ino, (long long)st.st_size };
	}
	closedir(dp);
	/* "gzip -k" leaves x and x.gz side by side: both are read (they may
	 * differ), but say so, since a copy counts its records twice. x is
	 * found by a binary search of the sorted names (a loop over them
	 * all, for every .gz, took a folder of n files n^2 steps). */
	for (size_t i = 0; i < names.n; i++) {
		size_t l = strlen(names.v[i]);
		if (l <= 3 || strcmp(names.v[i] + l - 3, ".gz") != 0)
			continue;
		char *plain = bl_xstrndup(names.v[i], l - 3);
		char **hit = bsearch(&plain, names.v, names.n, sizeof *names.v, cmp_str);
		if (hit) {
			char *w = bl_xasprintf("%s/%s", dir, names.v[i]);
			bl_warn_at(ctx, w, "same log plain and gzipped",
				   "%s is here too: both are read; if one is a copy of the other, "
				   "its records count twice", *hit);
			free(w);
		}
		free(plain);
	}
	for (size_t i = 0; i < names.n; i++) {
		char *path = bl_xasprintf("%s/%s", dir, names.v[i]);
		const struct entry st = ent[i];
		if (st.err) {
			bl_warn_at(ctx, path, "unreadable input", "%s", strerror(st.err));
			ctx->input_errors++;
			free(path);
		} else if (S_ISDIR(st.mode)) {
			bool loop = false;
			for (size_t k = 0; k < ds->n; k++)
				if (ds->v[k].dev == st.dev && ds->v[k].ino == st.ino)
					loop = true;
			if (loop) {
				bl_warn_at(ctx, path, "folder loop", "symbolic link loop (folder already being read), not followed");
			} else {
				ds_push(ds, st.dev, st.ino);
				walk(ctx, path, ds, pv);
				ds->n--;
			}
			free(path);
		} else if (S_ISREG(st.mode)) {
			pv_push_sized(pv, path, st.size);
		} else {
			free(path); /* sockets, fifos, devices inside folders are not logs */
		}
		free(names.v[i]);
	}
	free(names.v);
	free(names.sz);
	free(ent);
}

int bl_paths_expand_sized(struct bl_ctx *ctx, char *const *inputs, size_t n, char ***out, size_t *nout,
			  long long **sizes)
{
	struct pathvec pv = {0};
	int rc = 0;
	pv_push(&pv, NULL);
	pv.n = 0;
	for (size_t i = 0; i < n; i++) {
		const char *in = inputs[i];
		struct stat st;
		if (strcmp(in, "-") == 0) {
			pv_push(&pv, bl_xstrdup(in));
		} else if (stat(in, &st) != 0) {
			bl_warn_at(ctx, in, "unreadable input", "%s", strerror(errno));
			ctx->input_errors++;
			rc = -BL_ENOTFOUND;
		} else if (S_ISDIR(st.st_mode)) {
			struct dirstack ds = { NULL, 0, 0 };
			ds_push(&ds, st.st_dev, st.st_ino);
			size_t len = strlen(in);
			char *d = bl_xstrdup(in);
			while (len > 1 && d[len - 1] == '/')
				d[--len] = '\0';
			walk(ctx, d, &ds, &pv);
			free(ds.v);
			free(d);
		} else {
			pv_push_sized(&pv, bl_xstrdup(in), S_ISREG(st.st_mode) ? (long long)st.st_size : -1);
		}
	}
	*out = pv.v;
	*nout = pv.n;
	if (sizes)
		*sizes = pv.sz;
	else
		free(pv.sz);
	return rc;
}

int bl_paths_expand(struct bl_ctx *ctx, char *const *inputs, size_t n, char ***out, size_t *nout)
{
	return bl_paths_expand_sized(ctx, inputs, n, out, nout, NULL);
}

void bl_paths_free(char **paths)
{
	if (!paths)
		return;
	for (size_t i = 0; paths[i]; i++)
		free(paths[i]);
	free(paths);
}

/* ---- lines ---- */

void bl_linesplit_init(struct bl_linesplit *ls)
{
	ls->carry = (struct bl_buf)BL_BUF_INIT(BL_LINE_MAX);
	ls->discarding = false;
	ls->after_cr = false;
	ls->lineno = 1;
	ls->clean = false;
	ls->terminated = false;
	ls->writable = false;
}

static int ls_deliver_slow(struct bl_linesplit *ls, const char *p, size_t len, bool clean)
{
	int rc = 0;
	/* a carried line is a bl_buf, NUL-terminated; a line in buf is when
	 * the splitter may write its end */
	ls->clean = clean && !ls->carry.len;
	ls->terminated = ls->carry.len || (p && ls->writable);
	if (ls->discarding || ls->carry.len + len > BL_LINE_MAX) {
		if (ls->too_long)
			ls->too_long(ls->ud, ls->lineno);
		ls->discarding = false;
	} else if (ls->carry.len) {
		bl_buf_add(&ls->carry, p, len);
		rc = ls->line(ls->ud, ls->carry.data, ls->carry.len, ls->lineno);
	} else {
		rc = ls->line(ls->ud, p ? p : "", len, ls->lineno);
	}
	if (ls->carry.len)
		bl_buf_reset(&ls->carry);
	ls->lineno++;
	return rc;
}

/* The line [p, p+len) (p NULL: only what is carried) to ls->line. The
 * common line, whole in the buffer, is handed on here without a call
 * (for every line of 5.9 million in 200 MB of time -v logs, the call
 * was 4 % of the run); carried and too long lines take
 * ls_deliver_slow(). */
static inline int ls_deliver(struct bl_linesplit *ls, const char *p, size_t len, bool clean)
{
	if (!p || ls->carry.len || ls->discarding || len > BL_LINE_MAX)
		return ls_deliver_slow(ls, p, len, clean);
	ls->clean = clean;
	ls->terminated = ls->writable;
	int rc = ls->line(ls->ud, p, len, ls->lineno);
	ls->lineno++;
	return rc;
}

/* Bit k of *eol: p[k] is '\n' or '\r'; of *bad: p[k] is NUL or ESC; for
 * the n <= 64 bytes at p (bits from n up are 0). One pass finds the line
 * ends of a whole block and whether each line is clean. */
static void ls_masks(const char *p, size_t n, uint64_t *eol, uint64_t *bad)
{
	uint64_t e = 0, b = 0;
#ifdef __SSE2__
	char tail[64];
	if (n < 64) {
		memset(tail, ' ', sizeof tail);
		memcpy(tail, p, n);
		p = tail;
	}
	const __m128i nl = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
	const __m128i z = _mm_setzero_si128(), esc = _mm_set1_epi8('\x1b');
	for (unsigned k = 0; k < 64; k += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + k));
		e |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, nl),
									_mm_cmpeq_epi8(x, cr))) << k;
		b |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, z),
									_mm_cmpeq_epi8(x, esc))) << k;
	}
	if (n < 64) {
		e &= (1ull << n) - 1;
		b &= (1ull << n) - 1;
	}
#else
	for (size_t k = 0; k < n; k++) {
		if (p[k] == '\n' || p[k] == '\r')
			e |= 1ull << k;
		else if (p[k] == '\0' || p[k] == '\x1b')
			b |= 1ull << k;
	}
#endif
	*eol = e;
	*bad = b;
}

/* ls_masks() for the n bytes at p, 64 at a time: block k's into eol[k]
 * and bad[k]. With AVX-512 a block is one load and four compares to mask
 * registers, against sixteen SSE2 compares (12 % of a run over 200 MB
 * of short lines). */
#define LS_SPAN 4096
#ifdef BL_AVX512
#include <immintrin.h>
BL_AVX512_TARGET
static void ls_span_avx512(const char *p, size_t n, uint64_t *eol, uint64_t *bad)
{
	const __m512i nl = _mm512_set1_epi8('\n'), cr = _mm512_set1_epi8('\r');
	const __m512i z = _mm512_setzero_si512(), esc = _mm512_set1_epi8('\x1b');
	for (size_t k = 0; k * 64 < n; k++) {
		size_t left = n - k * 64;
		__mmask64 m = left >= 64 ? ~0ull : (1ull << left) - 1;
		__m512i x = _mm512_maskz_loadu_epi8(m, p + k * 64);
		eol[k] = _mm512_mask_cmpeq_epi8_mask(m, x, nl) | _mm512_mask_cmpeq_epi8_mask(m, x, cr);
		bad[k] = _mm512_mask_cmpeq_epi8_mask(m, x, z) | _mm512_mask_cmpeq_epi8_mask(m, x, esc);
	}
}
#endif

#ifdef BL_AVX2
#include <immintrin.h>
/* ls_span() with AVX2, where AVX-512 is not: a whole block is two loads
 * and eight compares (against sixteen SSE2 compares); the last block, if
 * short, goes to ls_masks(). */
BL_AVX2_TARGET
static void ls_span_avx2(const char *p, size_t n, uint64_t *eol, uint64_t *bad)
{
	const __m256i nl = _mm256_set1_epi8('\n'), cr = _mm256_set1_epi8('\r');
	const __m256i z = _mm256_setzero_si256(), esc = _mm256_set1_epi8('\x1b');
	size_t k = 0;
	for (; k * 64 + 64 <= n; k++) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(p + k * 64));
		__m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + k * 64 + 32));
		uint32_t ea = (uint32_t)_mm256_movemask_epi8(
			_mm256_or_si256(_mm256_cmpeq_epi8(a, nl), _mm256_cmpeq_epi8(a, cr)));
		uint32_t eb = (uint32_t)_mm256_movemask_epi8(
			_mm256_or_si256(_mm256_cmpeq_epi8(b, nl), _mm256_cmpeq_epi8(b, cr)));
		uint32_t ba = (uint32_t)_mm256_movemask_epi8(
			_mm256_or_si256(_mm256_cmpeq_epi8(a, z), _mm256_cmpeq_epi8(a, esc)));
		uint32_t bb = (uint32_t)_mm256_movemask_epi8(
			_mm256_or_si256(_mm256_cmpeq_epi8(b, z), _mm256_cmpeq_epi8(b, esc)));
		eol[k] = (uint64_t)eb << 32 | ea;
		bad[k] = (uint64_t)bb << 32 | ba;
	}
	if (k * 64 < n)
		ls_masks(p + k * 64, n - k * 64, &eol[k], &bad[k]);
}
#endif

static void ls_span(const char *p, size_t n, uint64_t *eol, uint64_t *bad)
{
#ifdef BL_AVX512
	if (bl_have_avx512()) {
		ls_span_avx512(p, n, eol, bad);
		return;
	}
#endif
#ifdef BL_AVX2
	if (bl_have_avx2()) {
		ls_span_avx2(p, n, eol, bad);
		return;
	}
#endif
	for (size_t k = 0; k * 64 < n; k++)
		ls_masks(p + k * 64, n - k * 64 < 64 ? n - k * 64 : 64, &eol[k], &bad[k]);
}

/* The bits of a 64-bit block mask from bit k up (none when k >= 64). */
static inline uint64_t bits_from(size_t k)
{
	return k >= 64 ? 0 : ~0ull << k;
}

int bl_linesplit_feed(struct bl_linesplit *ls, const char *buf, size_t len)
{
	size_t start = 0;            /* where the current line starts */
	if (len && ls->after_cr && buf[0] == '\n')
		start = 1;
	if (len)
		ls->after_cr = false;
	bool dirty = false;           /* a NUL or ESC in [start, base) */
	uint64_t eolw[LS_SPAN / 64], badw[LS_SPAN / 64];
	size_t span = start, span_end = start;   /* the blocks in eolw, badw */
	for (size_t base = start; base < len; base += 64) {
		if (base == span_end) {
			span = base;
			span_end = base + (len - base < LS_SPAN ? len - base : LS_SPAN);
			ls_span(buf + span, span_end - span, eolw, badw);
		}
		uint64_t e = eolw[(base - span) / 64], b = badw[(base - span) / 64];
		/* bits before start (a CR LF's LF at the block's start) are gone */
		if (start > base) {
			e &= bits_from(start - base);
			b &= bits_from(start - base);
		}
		while (e) {
			unsigned k = (unsigned)__builtin_ctzll(e);
			size_t pos = base + k;
			bool line_dirty = dirty || (b & ((1ull << k) - 1)) != 0;
			char eolc = buf[pos];
			if (ls->writable)
				((char *)buf)[pos] = '\0';  /* the line ends in place */
			int rc = ls_deliver(ls, buf + start, pos - start, !line_dirty);
			if (rc)
				return rc;
			start = pos + 1;
			if (eolc == '\r') {
				if (start < len && buf[start] == '\n')
					start++;
				else if (start == len)
					ls->after_cr = true;
			}
			dirty = false;
			e &= bits_from(start - base);
			b &= bits_from(start - base);
		}
		if (b)
			dirty = true;
	}
	if (start < len) {
		if (!ls->discarding && bl_buf_add(&ls->carry, buf + start, len - start) != 0) {
			ls->discarding = true;
			bl_buf_reset(&ls->carry);
		}
	}
	return 0;
}

int bl_linesplit_end(struct bl_linesplit *ls)
{
	if (ls->carry.len || ls->discarding)
		return ls_deliver(ls, NULL, 0, false);
	return 0;
}

void bl_linesplit_release(struct bl_linesplit *ls)
{
	bl_buf_release(&ls->carry);
}

struct read_state {
	struct bl_ctx *ctx;
	const char *path;
	const struct bl_linesplit *ls;
};

static int rd_line(void *ud, const char *p, size_t len, unsigned long lineno)
{
	struct read_state *r = ud;
	unsigned hint = 0;
	if (r->ls && r->ls->clean)
		hint |= BL_LINE_CLEAN;
	if (r->ls && r->ls->terminated)
		hint |= BL_LINE_TERMINATED;
	return bl_dispatch_line_hint(r->ctx, p, len, lineno, hint);
}

static void rd_too_long(void *ud, unsigned long lineno)
{
	struct read_state *r = ud;
	struct bl_line ln = { "", 0, r->path, lineno, 0, NULL };
	r->ctx->lines_total++;
	bl_warn(r->ctx, &ln, "line too long", "line longer than %d bytes, skipped", BL_LINE_MAX);
	bl_skip(r->ctx, &ln, "line too long");
}

/* ---- UTF-16 text (a byte order mark first): converted to UTF-8 ---- */

#define U16_OUT (64 * 1024)

struct u16 {
	iconv_t cd;
	struct bl_buf pending;    /* raw bytes not converted yet */
	char *out;
	unsigned long bad;        /* invalid code units replaced by U+FFFD */
};

/* Convert what pending holds and feed the text to the splitter; at the
 * end (last) a leftover odd byte or lone surrogate becomes U+FFFD. */
static int u16_convert(struct u16 *u, struct bl_linesplit *ls, bool last)
{
	char *in = u->pending.data;
	size_t inleft = u->pending.len;
	int rc = 0;
	while (inleft && rc == 0) {
		char *o = u->out;
		size_t oleft = U16_OUT;
		size_t r = iconv(u->cd, &in, &inleft, &o, &oleft);
		int e = r == (size_t)-1 ? errno : 0;
		if (o > u->out)
			rc = bl_linesplit_feed(ls, u->out, (size_t)(o - u->out));
		if (rc || e == 0 || e == E2BIG)
			continue;
		if (e == EINVAL && !last)
			break;            /* incomplete at the end of this chunk */
		/* EILSEQ (unpaired surrogate) or EINVAL at the very end */
		u->bad++;
		rc = bl_linesplit_feed(ls, "\xEF\xBF\xBD", 3);
		size_t skip = inleft < 2 ? inleft : 2;
		in += skip;
		inleft -= skip;
	}
	if (inleft && in != u->pending.data)
		memmove(u->pending.data, in, inleft);
	u->pending.len = inleft;
	if (u->pending.data)
		u->pending.data[inleft] = '\0';
	return rc;
}

/* The byte order mark at the start of p: 8 (UTF-8, 3 bytes), 16 (UTF-16LE)
 * or -16 (UTF-16BE), 2 bytes; 0 for none. */
static int bom(const char *p, size_t n)
{
	const unsigned char *u = (const unsigned char *)p;
	if (n >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF)
		return 8;
	if (n >= 2 && u[0] == 0xFF && u[1] == 0xFE)
		return 16;
	if (n >= 2 && u[0] == 0xFE && u[1] == 0xFF)
		return -16;
	return 0;
}

/* What a file that is certainly not a log is, from its first bytes (the
 * formats' magic numbers), or NULL. Only whole-file formats: a log with a
 * run of garbage inside is still read, its good lines kept. */
static const char *not_a_log(const char *p, size_t n)
{
	static const struct { const char *magic; size_t len; const char *what; } m[] = {
		{ "\x7f" "ELF", 4, "an executable or library (ELF), not a log" },
		{ "\x89PNG\r\n\x1a\n", 8, "a PNG image, not a log" },
		{ "\xff\xd8\xff", 3, "a JPEG image, not a log" },
		{ "GIF87a", 6, "a GIF image, not a log" },
		{ "GIF89a", 6, "a GIF image, not a log" },
		{ "%PDF-", 5, "a PDF document, not a log" },
		{ "PK\x03\x04", 4, "a zip archive (unpack it first)" },
		{ "\xfd" "7zXZ\0", 6, "xz-compressed, which benchlog does not read (decompress it first: unxz)" },
		{ "\x28\xb5\x2f\xfd", 4, "zstd-compressed, which benchlog does not read (decompress it first: unzstd)" },
		{ "7z\xbc\xaf\x27\x1c", 6, "a 7-Zip archive (unpack it first)" },
	};
	for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
		if (n >= m[i].len && memcmp(p, m[i].magic, m[i].len) == 0)
			return m[i].what;
	/* bzip2: "BZh", the block size digit, then the block magic pi */
	if (n >= 10 && memcmp(p, "BZh", 3) == 0 && p[3] >= '1' && p[3] <= '9' &&
	    memcmp(p + 4, "1AY&SY", 6) == 0)
		return "bzip2-compressed, which benchlog does not read (decompress it first: bunzip2)";
	return NULL;
}

bool bl_src_broken(ssize_t err)
{
	return err == -BL_ECORRUPT || err == -BL_EIO;
}

void bl_skip_cut_line(struct bl_ctx *ctx, const char *source, unsigned long lineno,
		      const struct bl_msg *msg)
{
	/* "Maximum resident set size (kbytes): 16804" cut to "...: 168"
	 * would parse as a wrong number, so the piece is skipped, not
	 * parsed. */
	struct bl_line ln = { "", 0, source, lineno, 0, msg };
	ctx->lines_total++;
	bl_skip(ctx, &ln, BL_SKIP_CUT_LINE);
}

int bl_read_input(struct bl_ctx *ctx, const char *path)
{
	struct bl_src *s;
	int rc = bl_src_open_stop(path, ctx->opt.stop, &s);
	if (rc == -BL_EINTR) {
		if (!ctx->error)
			ctx->error = -BL_EINTR;
		return rc;
	}
	if (rc) {
		bl_warn_at(ctx, path, "unreadable input", "%s", strerror(errno));
		ctx->input_errors++;
		return rc;
	}
	const char *pk;
	size_t pklen;
	rc = bl_src_peek(s, &pk, &pklen);
	/* A byte order mark is not text: UTF-8's is dropped, UTF-16 is
	 * converted to UTF-8 (Windows editors and PowerShell write it). */
	int enc = rc == 0 ? bom(pk, pklen) : 0;
	if (enc) {
		char drop[3];
		bl_src_read(s, drop, enc == 8 ? 3 : 2);
		rc = bl_src_peek(s, &pk, &pklen);
	}
	struct u16 u = { (iconv_t)-1, BL_BUF_INIT(IN_CHUNK + 8), NULL, 0 };
	if (enc == 16 || enc == -16) {
		u.cd = iconv_open("UTF-8", enc == 16 ? "UTF-16LE" : "UTF-16BE");
		if (u.cd == (iconv_t)-1) {
			bl_warn_at(ctx, path, "unreadable input", "UTF-16 text, and no converter: %s",
				   strerror(errno));
			ctx->input_errors++;
			bl_src_close(s);
			return -BL_EIO;
		}
		u.out = bl_xmalloc(U16_OUT);
	}
	if (rc == 0 && u.cd == (iconv_t)-1 && bl_mail_sniff(pk, pklen)) {
		rc = bl_mail_read(ctx, s, path);
		if (bl_src_error(s)[0]) {
			bl_warn_at(ctx, path, "corrupt input", "%s; kept what was read before it", bl_src_error(s));
			ctx->input_errors++;
		}
		bl_src_close(s);
		return rc;
	}
	const char *what = rc == 0 && u.cd == (iconv_t)-1 ? not_a_log(pk, pklen) : NULL;
	if (what) {
		bl_warn_at(ctx, path, "not a text file", "%s; skipped", what);
		bl_src_close(s);
		return 0;
	}
	bl_dispatch_begin_unit(ctx, path, NULL);
	char *buf = bl_xmalloc(IN_CHUNK);
	struct read_state rs = { ctx, path, NULL };
	struct bl_linesplit ls;
	bl_linesplit_init(&ls);
	ls.line = rd_line;
	ls.too_long = rd_too_long;
	ls.ud = &rs;
	ls.writable = true;          /* buf is ours */
	rs.ls = &ls;
	int err = 0;
	bool read_failed = false;     /* the input broke, not a sink */
	for (;;) {
		char *chunk;
		ssize_t n = u.cd != (iconv_t)-1 ? bl_src_read(s, chunk = buf, IN_CHUNK)
			  : bl_src_read_chunk(s, buf, IN_CHUNK, &chunk);
		if (n < 0) {
			err = (int)n;
			read_failed = true;
			break;
		}
		if (n == 0)
			break;
		if (ctx->opt.stop && *ctx->opt.stop) {
			err = -BL_EINTR;
			break;
		}
		if (u.cd != (iconv_t)-1) {
			bl_buf_add(&u.pending, buf, (size_t)n);
			rc = u16_convert(&u, &ls, false);
		} else {
			rc = bl_linesplit_feed(&ls, chunk, (size_t)n);
		}
		if (rc) {
			err = rc;
			break;
		}
	}
	if (u.cd != (iconv_t)-1) {
		if (!err && !ctx->error)
			u16_convert(&u, &ls, true);
		if (u.bad)
			bl_warn_at(ctx, path, "invalid UTF-16",
				   "%lu invalid UTF-16 code units (unpaired surrogates or an odd last byte) replaced by U+FFFD",
				   u.bad);
		iconv_close(u.cd);
		bl_buf_release(&u.pending);
		free(u.out);
	}
	int rd_errno = errno;
	if (err == -BL_EINTR && !ctx->error)
		ctx->error = -BL_EINTR;   /* stopped by a signal: nothing more is read */
	unsigned long whole = ls.lineno - 1;   /* lines read with their line end */
	bool broken = read_failed && bl_src_broken(err);
	if (!ctx->error) {
		if (broken && (ls.carry.len || ls.discarding)) {
			bl_skip_cut_line(ctx, path, ls.lineno, NULL);
		} else {
			bl_linesplit_end(&ls);
		}
	}
	bl_dispatch_end_unit(ctx);
	if (broken) {
		bl_warn_at(ctx, path, "corrupt input", "%s; kept the %lu lines read before it",
			   bl_src_error(s)[0] ? bl_src_error(s) : strerror(rd_errno), whole);
		ctx->input_errors++;
		err = 0;
	}
	if (bl_src_warning(s))
		bl_warn_at(ctx, path, "gzip trailing garbage", "%s", bl_src_warning(s));
	bl_linesplit_release(&ls);
	free(buf);
	bl_src_close(s);
	return err ? err : ctx->error;
}
