/* store.h — the temporary files that keep a pass's memory bounded
 * whatever the number of groups, series, rows or messages (issue 34),
 * in two shapes over one way of making them (bl_tmp_dir(), mkstemp(3),
 * unlinked at once: nothing is left behind, whatever way the process
 * ends):
 *
 * - a spool (struct bl_spool): records appended with stdio and read
 *   back from where each starts (table_stats' groups put out, compare's
 *   rows, the vmstat series and S5 values, the chkmmt averages' text);
 * - a store (struct bl_store): bytes at offsets, in memory up to
 *   BL_STORE_MEM and past it all of them in the file (run numbers,
 *   Message-IDs, group accumulators), and the string index over two
 *   stores (struct bl_index).
 *
 * Every message about a failure names the folder: "cannot write a
 * temporary file in DIR: reason" (docs/errors.md). Each struct is empty
 * when zeroed, freed by its *_release() (the file goes with it). One
 * thread.
 */
#ifndef BL_STORE_H
#define BL_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "core/util.h"

#define BL_STORE_MEM (256 * 1024)   /* bytes a store keeps in memory */

struct bl_store {
	char *mem;
	size_t len, cap;
	FILE *f;
};

/* The folder temporary files are made in: $TMPDIR when set and not
 * empty, else "/tmp". Static or the environment's; never NULL. */
const char *bl_tmp_dir(void);
/* "benchlog CMD: cannot write a temporary file in DIR: reason" and a line
 * end on f (docs/errors.md), as every command says it; err an errno, 0
 * for EIO. */
void bl_tmp_say(FILE *f, const char *cmd, int err);

/* A spool. Appends after appends, and a read where the last one ended,
 * do not seek: each seek costs a flush or a refill (table_stats' 10^6
 * groups took 2x the time with one per group). */
struct bl_spool {
	FILE *f;        /* NULL until the first append */
	int err;        /* errno of the first failure kept; 0 none */
	bool writing;   /* the last call was an append */
};

/* s's file at its end for appending with stdio, made on first use; *off
 * (unless NULL) is where the next byte goes. NULL, errno set, once s has
 * failed (the file could not be made: ENOENT, EACCES). */
FILE *bl_spool_append(struct bl_spool *s, long long *off);
/* s's file at off for reading with stdio (what was appended flushed
 * first). NULL, errno set, once s has failed or when nothing was
 * appended. */
FILE *bl_spool_read(struct bl_spool *s, long long off);
/* The calls on s's file since the last check went well (ok, and its
 * error flag clear): 0; else s keeps the failure (errno, or EIO when
 * the failing call left none) and every later call fails: -1, errno
 * set. */
int bl_spool_check(struct bl_spool *s, bool ok);
/* All of s from its start to out (nothing when nothing was appended);
 * s stays at its end for more appends. 0, or -1 with errno (EIO where
 * the failing call set none): s had failed or could not be flushed
 * (nothing written to out then) or read back, or out could not be
 * written. */
int bl_spool_copy(struct bl_spool *s, FILE *out);
void bl_spool_release(struct bl_spool *s);

/* The one codec of the temporary files' strings and arrays. A string s
 * (NULL allowed) goes to f as a size_t, its length + 1 (0 for NULL),
 * then its bytes; an array as its n items of size bytes (nothing for
 * none; its n is the caller's to write). A failed write sets f's error
 * flag. Read back: *s, or *(void **)arr, a heap copy the caller frees
 * (NULL for NULL, or none); 0, or -1 when f ended or failed first (*s
 * NULL; *arr still the caller's to free) or a string's length is over
 * 1 GiB (a damaged file). */
void bl_spool_put_str(FILE *f, const char *s);
int bl_spool_get_str(FILE *f, char **s);
static inline void bl_spool_put_arr(FILE *f, const void *p, size_t n, size_t size)
{
	if (n)   /* fwrite must not be given NULL, even for nothing */
		fwrite(p, size, n, f);
}
/* inline: a call each cost compare 1.2 % more instructions (bl_dist_load) */
static inline int bl_spool_get_arr(FILE *f, void *arr, size_t n, size_t size)
{
	void **p = arr;
	*p = n ? bl_xmalloc(n * size) : NULL;
	return n == 0 || fread(*p, size, n, f) == n ? 0 : -1;
}

/* n bytes of p into t at off. 0, or -1 with errno (the temporary file
 * could not be made or written: ENOSPC, EFBIG). */
int bl_store_put(struct bl_store *t, size_t off, const void *p, size_t n);
/* n bytes of t at off into p. 0, or -1 with errno. */
int bl_store_get(struct bl_store *t, size_t off, void *p, size_t n);
/* len bytes of t from off to out. 0, or -1 with errno. */
int bl_store_copy(struct bl_store *t, size_t off, size_t len, FILE *out);
void bl_store_release(struct bl_store *t);

/* A string index in two stores: every key met gets the next number (0, 1,
 * 2 …, in the order first met). Buckets (open addressing, at most half
 * full) and the keys, one after another, are stores, so at most
 * 2 * BL_STORE_MEM bytes are in memory whatever the number of keys. */
struct bl_index {
	struct bl_store buckets, keys;
	size_t n, nbucket;
	size_t keys_len;
};

/* The number of key (len bytes, no NUL needed), made on first use
 * (*added true, key stored); *off is where its len bytes are in x->keys
 * (bl_store_get() reads them back). 0, or -1 with errno (a temporary file
 * could not be made, written or read). */
int bl_index_find(struct bl_index *x, const char *key, size_t len, size_t *id, size_t *off, bool *added);
/* The number of key (len bytes), when x has met it: 0 with *id; 1 when
 * it has not (nothing is added); -1 with errno (a temporary file could
 * not be read). */
int bl_index_get(struct bl_index *x, const char *key, size_t len, size_t *id);
void bl_index_release(struct bl_index *x);

#endif
