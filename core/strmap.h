/* strmap.h — strings to dense indexes, in the order they were first seen.
 *
 * For the per-group state of the analyses: a folder of small logs has
 * thousands of groups and every record asks for its own, so lookups are
 * by hash (a GLib hash table), not by comparing names. Index i is the
 * i-th distinct key added; callers keep their own arrays indexed by it.
 *
 * Memory: the map owns copies of its keys; bl_strmap_key() pointers stay
 * valid until bl_strmap_release(). Allocation failure aborts (bl_xmalloc).
 */
#ifndef BL_STRMAP_H
#define BL_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

struct _GHashTable;
struct bl_strmap {
	char **key;            /* key[i]: the i-th distinct key */
	size_t n;              /* keys */
	size_t cap;            /* room in key */
	struct _GHashTable *h; /* key -> index; NULL before the first key */
};
#define BL_STRMAP_INIT { NULL, 0, 0, NULL }

/* Index of k, added at the end when new (*added set when not NULL). */
size_t bl_strmap_get(struct bl_strmap *m, const char *k, bool *added);
/* Index of k, or -1 when it was never added. */
long bl_strmap_find(const struct bl_strmap *m, const char *k);
/* The i-th key (i < m->n). */
static inline const char *bl_strmap_key(const struct bl_strmap *m, size_t i) { return m->key[i]; }
/* Frees the keys and the table; m is empty again (NULL-safe fields). */
void bl_strmap_release(struct bl_strmap *m);

#endif
