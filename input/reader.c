/* reader.c — inputs to lines (see reader.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <iconv.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "input/html.h"
#include "input/mail.h"
#include "input/reader.h"
#include "core/progress.h"
#include "core/store.h"
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
	unsigned long long *progress;  /* NULL, or where raw bytes read are added */
	struct bl_progress *pg;        /* NULL, or the progress line ticked after each chunk */
};

/* n raw bytes done: told to the progress counter. */
static void src_progress(struct bl_src *s, size_t n)
{
	if (s->progress)
		*s->progress += n;
	bl_progress_tick(s->pg);
}

static bool src_stopped(const struct bl_src *s)
{
	return s->stop && *s->stop;
}

/* Up to n raw bytes into dst: how many (0 at the end), or a negative bl_err. */
static ssize_t raw_get(struct bl_src *s, void *dst, size_t n)
{
	if (src_stopped(s)) {
		errno = EINTR;
		return -BL_EINTR;
	}
	ssize_t r;
	do {
		r = read(s->fd, dst, n);
	} while (r < 0 && errno == EINTR && !src_stopped(s));
	if (r < 0)
		return errno == EINTR ? -BL_EINTR : -BL_EIO;
	if (r == 0)
		s->eof = true;
	/* for the progress a plain file's bytes are done when read, a .gz
	 * file's when inflated (a 256 KiB chunk of it can be tens of MB of
	 * text, which report parses at the pace of its analyses) */
	s->in_total += (unsigned long long)r;
	if (!s->gzip)
		src_progress(s, (size_t)r);
	return r;
}

static ssize_t raw_fill(struct bl_src *s)
{
	/* Move unconsumed input to the front, then read more. */
	if (s->zs.avail_in && s->zs.next_in != s->in)
		memmove(s->in, s->zs.next_in, s->zs.avail_in);
	s->zs.next_in = s->in;
	ssize_t n = raw_get(s, s->in + s->zs.avail_in, IN_CHUNK - s->zs.avail_in);
	if (n > 0)
		s->zs.avail_in += (uInt)n;
	return n;
}

int bl_src_open(const char *path, volatile sig_atomic_t *stop, struct bl_src **out)
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
		/* read straight into buf, not copied from s->in (parse -t vmstat
		 * of 5 MB: 244.8 M instructions, 249.6 M copying) */
		if (s->zs.avail_in == 0) {
			if (s->eof)
				return 0;
			ssize_t r = raw_get(s, buf, n);
			if (r < 0)
				snprintf(s->err, sizeof s->err, "read error: %s", strerror(errno));
			return r;
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
		uInt had = s->zs.avail_in;
		int zr = inflate(&s->zs, Z_NO_FLUSH);
		src_progress(s, had - s->zs.avail_in);
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
	ssize_t r = raw_read(s, buf, n);
	if (r == 0 && s->err[0])
		return -BL_ECORRUPT;
	return r;
}

const char *bl_src_error(const struct bl_src *s) { return s->err; }
const char *bl_src_warning(const struct bl_src *s) { return s->warn[0] ? s->warn : NULL; }
void bl_src_close(struct bl_src *s)
{
	if (!s)
		return;
	if (s->zinit)
		inflateEnd(&s->zs);
	if (s->own_fd)
		close(s->fd);
	free(s->in);
	free(s->peek);
	free(s);
}

/* ---- folders ---- */

/* A path's place in struct bl_paths's store: this, then its bytes. */
struct pathhead {
	long long size;
	size_t len;
};

/* Bytes moved to and from the store at a time, where a pwrite() and a
 * pread() per path part (once the store is in its file) were 32,000 of
 * parse's 92,000 system calls on the bench's 10,000 files: its processor
 * time 0.778 s to 0.697 s (median of 11), report -j1's 3.53 s to 3.41 s. */
enum { PATHS_CHUNK = 64 * 1024 };

static int paths_flush(struct bl_paths *p)
{
	errno = 0;
	if (!p->err && p->w.len && bl_store_put(&p->st, p->end - p->w.len, p->w.data, p->w.len) < 0)
		p->err = errno ? errno : EIO;
	p->w.len = 0;
	return p->err ? -BL_EIO : 0;
}

int bl_paths_add(struct bl_paths *p, const char *path, long long size)
{
	struct pathhead h = { size, strlen(path) };
	if (p->err)
		return -BL_EIO;
	bl_buf_add(&p->w, &h, sizeof h);
	bl_buf_add(&p->w, path, h.len);
	p->end += sizeof h + h.len;
	p->n++;
	return p->w.len >= PATHS_CHUNK ? paths_flush(p) : 0;
}

/* The n bytes of the store at p->pos, from the read chunk p->rb (which
 * holds the store's bytes from p->roff). NULL when they cannot be read. */
static const char *paths_at(struct bl_paths *p, size_t n)
{
	if (p->pos < p->roff || p->pos + n > p->roff + p->rlen) {
		size_t want = p->end - p->pos < PATHS_CHUNK ? p->end - p->pos : PATHS_CHUNK;
		want = want < n ? n : want;
		if (want > p->rcap)
			p->rb = bl_xrealloc(p->rb, p->rcap = want);
		p->rlen = 0;
		if (bl_store_get(&p->st, p->pos, p->rb, want) < 0)
			return NULL;
		p->rlen = want;
		p->roff = p->pos;
	}
	return p->rb + (p->pos - p->roff);
}

const char *bl_paths_next(struct bl_paths *p, long long *size)
{
	struct pathhead h;
	free(p->cur);
	p->cur = NULL;
	if (paths_flush(p) < 0 || p->pos >= p->end)
		return NULL;
	errno = 0;
	const char *b = paths_at(p, sizeof h);
	if (b) {
		memcpy(&h, b, sizeof h);
		p->pos += sizeof h;
		if ((b = paths_at(p, h.len)) != NULL) {
			p->cur = bl_xstrndup(b, h.len);
			p->pos += h.len;
			if (size)
				*size = h.size;
			return p->cur;
		}
	}
	p->err = errno ? errno : EIO;
	return NULL;
}

void bl_paths_rewind(struct bl_paths *p)
{
	p->pos = 0;
}

void bl_paths_release(struct bl_paths *p)
{
	bl_store_release(&p->st);
	bl_buf_release(&p->w);
	free(p->rb);
	free(p->cur);
	memset(p, 0, sizeof *p);
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

static void walk(struct bl_ctx *ctx, const char *dir, struct dirstack *ds, struct bl_paths *pv)
{
	DIR *dp = opendir(dir);
	if (!dp) {
		bl_warn_at(ctx, dir, "unreadable input", "cannot open folder: %s", strerror(errno));
		ctx->input_errors++;
		return;
	}
	int dfd = dirfd(dp);
	/* The names in one buffer, each ended by its NUL, then a pointer to
	 * each: no allocation a name (a flat folder of 100,000 files held
	 * 3.2 MB of 32-byte blocks while it was listed). */
	struct { char **v; size_t n; } names = { NULL, 0 };
	struct bl_buf text = BL_BUF_INIT(0);
	struct dirent *de;
	while ((de = readdir(dp)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		bl_buf_add(&text, de->d_name, strlen(de->d_name) + 1);
		names.n++;
	}
	names.v = bl_xcalloc(names.n ? names.n : 1, sizeof *names.v);
	for (size_t i = 0, off = 0; i < names.n; off += strlen(names.v[i++]) + 1)
		names.v[i] = text.data + off;
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
			bl_paths_add(pv, path, st.size);   /* a failure: pv->err, said by the caller */
			free(path);
		} else {
			free(path); /* sockets, fifos, devices inside folders are not logs */
		}
	}
	free(names.v);
	bl_buf_release(&text);
	free(ent);
}

int bl_paths_expand(struct bl_ctx *ctx, char *const *inputs, size_t n, struct bl_paths *out)
{
	static char *const stdin_only[] = { (char *)"-" };
	if (n == 0) {                /* no inputs: standard input */
		inputs = stdin_only;
		n = 1;
	}
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		const char *in = inputs[i];
		struct stat st;
		if (strcmp(in, "-") == 0) {
			bl_paths_add(out, in, -1);
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
			walk(ctx, d, &ds, out);
			free(ds.v);
			free(d);
		} else {
			bl_paths_add(out, in, S_ISREG(st.st_mode) ? (long long)st.st_size : -1);
		}
	}
	if (paths_flush(out) < 0) {
		errno = out->err;
		return -BL_EIO;
	}
	return rc;
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
	ls->writable = ls->pad = false;
}

/* The line [p, p+len) (p NULL: only what is carried) to ls->line, or to
 * ls->too_long. */
static inline int ls_deliver(struct bl_linesplit *ls, const char *p, size_t len, bool clean)
{
	int rc = 0;
	/* a carried line is a bl_buf, NUL-terminated; a line in buf is when
	 * the splitter may write its end */
	ls->clean = clean && !ls->carry.len;
	ls->terminated = ls->carry.len || (p && ls->writable);
	ls->padded = !ls->carry.len && p && ls->writable && ls->pad;
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

/* The first c in buf[from, len), or len when there is none. */
static size_t find_byte(const char *buf, size_t from, size_t len, char c)
{
	const char *p = memchr(buf + from, c, len - from);
	return p ? (size_t)(p - buf) : len;
}

/* Line ends are found with memchr(), once for LF and once for CR: each
 * search goes on from where the last one stopped, so a CR LF file and
 * one of lone CRs are both read in one pass over the bytes. */
int bl_linesplit_feed(struct bl_linesplit *ls, const char *buf, size_t len)
{
	size_t start = 0;            /* where the current line starts */
	if (len && ls->after_cr && buf[0] == '\n')
		start = 1;
	if (len)
		ls->after_cr = false;
	size_t nl = find_byte(buf, start, len, '\n'), cr = find_byte(buf, start, len, '\r');
	/* NUL and ESC likewise, once per block, not twice per line (`summary`
	 * of 20 MB of mtest01 + time -v: 5.9x chkmmt's speed before, see
	 * docs/performance.md for after) */
	size_t nul = find_byte(buf, start, len, '\0'), esc = find_byte(buf, start, len, '\x1b');
	while (start < len) {
		if (nl < start)
			nl = find_byte(buf, start, len, '\n');
		if (cr < start)
			cr = find_byte(buf, start, len, '\r');
		if (nul < start)
			nul = find_byte(buf, start, len, '\0');
		if (esc < start)
			esc = find_byte(buf, start, len, '\x1b');
		size_t pos = nl < cr ? nl : cr;
		if (pos == len)
			break;
		size_t n = pos - start;
		bool clean = nul >= pos && esc >= pos;
		if (ls->writable)
			((char *)buf)[pos] = '\0';  /* the line ends in place */
		int rc = ls_deliver(ls, buf + start, n, clean);
		if (rc)
			return rc;
		start = pos + 1;
		if (pos == cr) {
			if (start < len && buf[start] == '\n')
				start++;
			else if (start == len)
				ls->after_cr = true;
		}
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
	if (r->ls && r->ls->padded)
		hint |= BL_LINE_PADDED;
	return r->ctx->lines.line(r->ctx, p, len, lineno, hint);
}

static void too_long_at(struct bl_ctx *ctx, const char *path, unsigned long lineno)
{
	struct bl_line ln = { "", 0, path, lineno, 0, NULL };
	ctx->lines_total++;
	bl_warn(ctx, &ln, "line too long", "line longer than %d bytes, skipped", BL_LINE_MAX);
	bl_skip(ctx, &ln, "line too long");
}

static void rd_too_long(void *ud, unsigned long lineno)
{
	struct read_state *r = ud;
	too_long_at(r->ctx, r->path, lineno);
}

/* ---- a saved HTML page (input/html.h; docs/formats.md, "HTML input") ---- */

struct html_read {
	struct bl_ctx *ctx;
	const char *path;
	const char *p, *end;      /* the page's source lines not accounted yet */
	unsigned long next;       /* the first of them */
	/* The text lines that start on source line `at` (heap copies, NULL:
	 * one over BL_LINE_MAX), held until one starts on another line:
	 * several count as that one line (mail R7 alike). */
	struct html_held {
		char *t;
		size_t n;
	} *held;
	size_t nheld, cap;
	unsigned long at;
};

/* The source lines before srcline that start no text line are markup. */
static void html_markup_to(struct html_read *r, unsigned long srcline)
{
	while (r->next < srcline && r->p < r->end) {
		const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
		const char *e = nl ? nl : r->end;
		size_t n = (size_t)(e - r->p);
		if (n > 0 && e[-1] == '\r')
			n--;
		bl_skip_raw(r->ctx, r->p, n, r->next++, "html markup");
		r->p = nl ? nl + 1 : r->end;
	}
}

/* The held text lines handed on, each as source line r->at: it counts
 * once however many start in it (bl_line_shared()). */
static int html_flush(struct html_read *r)
{
	if (!r->nheld)
		return 0;
	html_markup_to(r, r->at);
	if (r->next == r->at && r->p < r->end) {   /* the lines stand for their source line */
		const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
		r->p = nl ? nl + 1 : r->end;
		r->next++;
	}
	if (r->nheld > 1)
		bl_line_shared(r->ctx, r->at, r->nheld);
	int rc = 0;
	for (size_t i = 0; i < r->nheld; i++) {
		if (rc == 0 && !r->held[i].t)
			too_long_at(r->ctx, r->path, r->at);
		else if (rc == 0)
			rc = r->ctx->lines.line(r->ctx, r->held[i].t, r->held[i].n, r->at, 0);
		free(r->held[i].t);
	}
	r->nheld = 0;
	return rc;
}

static int html_line(void *ud, const char *t, size_t n, unsigned long srcline)
{
	struct html_read *r = ud;
	int rc = srcline != r->at ? html_flush(r) : 0;
	r->held = bl_xgrow(r->held, &r->cap, r->nheld + 1, sizeof *r->held);
	r->held[r->nheld++] = (struct html_held){ t ? bl_xstrndup(t, n) : NULL, n };
	r->at = srcline;
	return rc;
}

/* Is path named as an HTML page (.html, .htm, and either + .gz)? */
static bool html_name(const char *path)
{
	size_t n = strlen(path);
	if (n > 3 && strcasecmp(path + n - 3, ".gz") == 0)
		n -= 3;
	return (n > 5 && strncasecmp(path + n - 5, ".html", 5) == 0) ||
	       (n > 4 && strncasecmp(path + n - 4, ".htm", 4) == 0);
}

/* Read the page whole into b (BL_HTML_MAX at most) and hand its text
 * lines on. Returns 0 when done, 1 when the page is larger (b holds its
 * first bytes, to be read as plain text), or a negative bl_err. */
static int read_html(struct bl_ctx *ctx, struct bl_src *s, const char *path, struct bl_buf *b)
{
	char *buf = bl_xmalloc(IN_CHUNK);
	ssize_t n = 0;
	int err = 0;
	while (err == 0 && (n = bl_src_read(s, buf, IN_CHUNK)) > 0) {
		if (ctx->opt.stop && *ctx->opt.stop)
			err = -BL_EINTR;
		else if (bl_buf_add(b, buf, (size_t)n) != 0 || b->len > BL_HTML_MAX)
			err = 1;   /* b's cap is BL_HTML_MAX + IN_CHUNK: it holds all read */
	}
	if (err == 1) {
		free(buf);
		bl_warn_at(ctx, path, "html page too large",
			   "an HTML page over %u MiB; read as plain text, markup and all", BL_HTML_MAX >> 20);
		return 1;
	}
	free(buf);
	if (err == -BL_EINTR || (n < 0 && !bl_src_broken(n))) {
		ctx->error = -BL_EINTR;
		return -BL_EINTR;
	}
	if (n < 0) {
		bl_warn_at(ctx, path, "corrupt input", "%s; kept what was read before it", bl_src_error(s));
		ctx->input_errors++;
	}
	/* A lone CR ends a line here as in text (bl_linesplit_feed) and in a
	 * browser's <pre>; libxml2 counts LFs alone, so it becomes one. */
	char *end = b->data + b->len;
	for (char *c = b->data; c && (c = memchr(c, '\r', (size_t)(end - c))) != NULL; c++)
		if (c + 1 == end || c[1] != '\n')
			*c = '\n';
	ctx->lines.begin_unit(ctx, path, NULL);
	const char *t = bl_buf_str(b);
	struct html_read r = { ctx, path, t, t + b->len, 1, NULL, 0, 0, 0 };
	struct bl_html_note note;
	int rc = bl_html_text(r.p, b->len, false, html_line, &r, &note);
	if (rc == 0)
		rc = html_flush(&r);   /* the last source line's */
	for (size_t i = 0; i < r.nheld; i++)   /* held when the page stopped */
		free(r.held[i].t);
	free(r.held);
	if (note.read_as)
		bl_warn_at(ctx, path, "html charset", "charset \"%s\" declared but the bytes are not %s; read as %s",
			   note.declared, note.declared, note.read_as);
	if (note.error[0])
		bl_warn_at(ctx, path, "html charset", "the HTML parser stopped: %s", note.error);
	if (rc == 0)
		html_markup_to(&r, ULONG_MAX);
	int rc2 = ctx->lines.end_unit(ctx);
	bl_shared_settle(ctx);
	return rc ? rc : rc2;
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
	int rc = bl_src_open(path, ctx->opt.stop, &s);
	if (rc == 0) {
		s->progress = ctx->bytes_read;
		s->pg = ctx->progress;
	}
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
		u.out = bl_xcalloc(1, U16_OUT + BL_LINE_PAD);   /* room after the lines, as buf */
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
	struct bl_buf page = BL_BUF_INIT(BL_HTML_MAX + IN_CHUNK);
	if (rc == 0 && u.cd == (iconv_t)-1 && (bl_html_sniff(pk, pklen) || html_name(path))) {
		rc = read_html(ctx, s, path, &page);
		if (rc != 1) {
			bl_buf_release(&page);
			bl_src_close(s);
			return rc ? rc : ctx->error;
		}
	}
	ctx->lines.begin_unit(ctx, path, NULL);
	/* room after the lines (BL_LINE_PADDED): vmstat's rows are read in place */
	char *buf = bl_xcalloc(1, IN_CHUNK + BL_LINE_PAD);
	struct read_state rs = { ctx, path, NULL };
	struct bl_linesplit ls;
	bl_linesplit_init(&ls);
	ls.line = rd_line;
	ls.too_long = rd_too_long;
	ls.ud = &rs;
	ls.writable = true;          /* buf is ours */
	rs.ls = &ls;
	int err = page.len ? bl_linesplit_feed(&ls, page.data, page.len) : 0;
	bl_buf_release(&page);
	ls.pad = true;               /* buf has BL_LINE_PAD bytes more */
	bool read_failed = false;     /* the input broke, not a sink */
	for (; err == 0;) {
		ssize_t n = bl_src_read(s, buf, IN_CHUNK);
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
			rc = bl_linesplit_feed(&ls, buf, (size_t)n);
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
	ctx->lines.end_unit(ctx);
	if (broken) {
		bl_warn_at(ctx, path, "corrupt input", "%s; %s%s read before it",
			   bl_src_error(s)[0] ? bl_src_error(s) : strerror(rd_errno), whole ? "kept the " : "",
			   whole ? BL_COUNT(whole, "line") : "no line was");
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
