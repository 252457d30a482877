/* reader.h — one reader for every input: plain files, gzip (detected by its
 * magic bytes 1f 8b, concatenated members, trailing garbage reported),
 * stdin ("-"), folders (recursed in sorted order) and mail (handed to
 * input/mail.c when the start of the data looks like a message or an mbox).
 *
 * Text: a UTF-8 byte order mark at the start is dropped; a UTF-16 one
 * (FF FE or FE FF) makes the whole input UTF-16, converted to UTF-8 with
 * iconv (invalid code units become U+FFFD, with one warning). UTF-16
 * without a byte order mark is not guessed: its lines hold NUL bytes and
 * are skipped with that reason.
 *
 * Lines: LF, CR LF and lone CR all end a line. A line longer than
 * BL_LINE_MAX bytes is reported ("line longer than … bytes") and skipped
 * whole, never split. A line holding a NUL byte is skipped with that reason.
 * Bytes are passed through unchanged otherwise (invalid UTF-8 included).
 *
 * A truncated or corrupt .gz is reported with its compressed offset; the
 * lines read before it are kept.
 */
#ifndef BL_READER_H
#define BL_READER_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>
#include "core/ctx.h"
#include "core/store.h"
#include "core/util.h"

#define BL_LINE_MAX (1024 * 1024)    /* bytes per line, line end excluded */
#define BL_SNIFF_MAX (64 * 1024)     /* bytes looked at to detect mail */

/* A decompressed byte stream of one input. */
struct bl_src;
/* Open path ("-" = stdin). Returns 0 and *out, or a negative bl_err with
 * errno set; the caller frees with bl_src_close(). stop (may be NULL) is
 * a flag a signal handler sets: an open or read interrupted by a signal
 * (EINTR) while *stop is set fails with -BL_EINTR instead of being
 * retried, so a FIFO or pipe that never ends cannot hold an interrupted
 * run (the handler must be installed without SA_RESTART). */
int bl_src_open(const char *path, volatile sig_atomic_t *stop, struct bl_src **out);
/* Read up to n decompressed bytes. Returns bytes read, 0 at end, or a
 * negative bl_err (-BL_ECORRUPT for bad gzip data; bl_src_error() says more). */
ssize_t bl_src_read(struct bl_src *s, void *buf, size_t n);
/* Look at the first bytes without consuming them: *p and *len valid until the
 * next call on s. Returns 0 or a negative bl_err. */
int bl_src_peek(struct bl_src *s, const char **p, size_t *len);
/* Human-readable description of the last error, with offset; "" when none. */
const char *bl_src_error(const struct bl_src *s);
/* A non-fatal problem found at the end ("trailing garbage after gzip
 * member at offset N"), or NULL. */
const char *bl_src_warning(const struct bl_src *s);
void bl_src_close(struct bl_src *s);

/* The user's inputs expanded, in order: folders are walked recursively
 * (sorted by name, byte order; symlink loops and unreadable entries
 * reported, not fatal), "-" stays "-"; no inputs (n = 0) is "-". Each
 * path comes with its size as the expansion's stat() saw it: st_size of
 * a regular file, -1 for "-" and anything else.
 *
 * Memory, whatever the number of files: the paths go to a store
 * (core/store.h) as they are found, at most BL_STORE_MEM bytes in memory
 * and the rest in a temporary file, and are read back one at a time.
 * Not bounded: while a folder is listed (sorted, then each entry
 * stat'ed), each entry costs its name and NUL, an 8-byte pointer and 32
 * bytes of its stat, 52 bytes for a name like f000000.txt: about 5 MB for
 * a flat folder of 100,000 files (parse of 100,000 empty files: 13.2 MiB
 * peak RSS, of 10: 9.0). That is held for each folder from the input down
 * to the one being listed, and given back before any file is read.
 * A zeroed struct bl_paths is empty; bl_paths_release() frees it. */
struct bl_paths {
	struct bl_store st;
	size_t n;                    /* paths */
	size_t end, pos;             /* bytes added; where bl_paths_next() reads */
	struct bl_buf w;             /* the last bytes added, not yet in st */
	char *rb;                    /* rlen of st's bytes from roff, read ahead */
	size_t rlen, rcap, roff;
	char *cur;                   /* what bl_paths_next() gave last (heap) */
	int err;                     /* errno of the first store failure, else 0 */
};
/* Add the inputs' paths to *out. Returns 0, -BL_ENOTFOUND when an input
 * does not exist (reported through ctx; the rest are added all the same),
 * or -BL_EIO with errno when the temporary file cannot be written. */
int bl_paths_expand(struct bl_ctx *ctx, char *const *inputs, size_t n, struct bl_paths *out);
/* Add one path (copied) and its size. 0 or -BL_EIO (p->err). */
int bl_paths_add(struct bl_paths *p, const char *path, long long size);
/* The next path, valid until the next call, and *size (size may be
 * NULL); NULL at the end or when the store cannot be read (p->err). */
const char *bl_paths_next(struct bl_paths *p, long long *size);
/* bl_paths_next() starts from the first path again. */
void bl_paths_rewind(struct bl_paths *p);
void bl_paths_release(struct bl_paths *p);

/* Line splitter over arbitrary chunks (the reader's core, exposed so tests
 * can feed it in every chunk size). LF, CR LF and lone CR end a line; a
 * line over BL_LINE_MAX bytes is reported with too_long() and dropped.
 * Callbacks return 0 to go on or a negative bl_err to stop. */
struct bl_linesplit {
	int (*line)(void *ud, const char *p, size_t len, unsigned long lineno);
	void (*too_long)(void *ud, unsigned long lineno);
	void *ud;
	/* Set before each line() call: true when the line is known to hold
	 * no NUL and no ESC byte (found in the same pass as the line end);
	 * false means "not checked", not "present". */
	bool clean;
	/* Set before each line() call: p[len] is a NUL. */
	bool terminated;
	/* Set before each line() call: terminated, and BL_LINE_PAD bytes
	 * after p[len] can be read (core/line.h). */
	bool padded;
	/* Set by the caller before feeding: buf may be written (each line's
	 * end is overwritten with a NUL, so lines are terminated in place);
	 * with pad, BL_LINE_PAD bytes after buf's end can be read too. */
	bool writable, pad;
	/* private */
	struct bl_buf carry;
	bool discarding;
	bool after_cr;
	unsigned long lineno;
};
void bl_linesplit_init(struct bl_linesplit *ls);
int bl_linesplit_feed(struct bl_linesplit *ls, const char *buf, size_t n);
/* End of input: a last line without a line end is delivered. */
int bl_linesplit_end(struct bl_linesplit *ls);
void bl_linesplit_release(struct bl_linesplit *ls);

/* Did a read that returned err fail because the input broke (a truncated
 * or corrupt .gz, a read error), as opposed to a stop by a signal? */
bool bl_src_broken(ssize_t err);
/* The input broke off inside line lineno of source: the text read of that
 * line is not parsed (cut short, "…: 16804" would read as "…: 168"), the
 * line is counted skipped with reason BL_SKIP_CUT_LINE. msg: the message
 * the line belongs to, or NULL. The plain reader and the mail layer both
 * call this for the last, partial line before the damage. */
#define BL_SKIP_CUT_LINE "line cut off by corrupt input"
void bl_skip_cut_line(struct bl_ctx *ctx, const char *source, unsigned long lineno,
		      const struct bl_msg *msg);

/* Read one input completely, its lines handed to ctx->lines (core/ctx.h;
 * mail detected and handed to input/mail.c). The handler must be set (a
 * pass opened with bl_dispatch_open()).
 * Returns 0, or a negative bl_err for an input that could not be read at
 * all; data errors mid-way are warnings and keep what was read. When
 * ctx->opt.stop is set (between chunks, or during a blocked read) it stops
 * with ctx->error = -BL_EINTR. */
int bl_read_input(struct bl_ctx *ctx, const char *path);

#endif
