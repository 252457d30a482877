/* strmap.c — strings to dense indexes (see strmap.h). */
#include <stdlib.h>
#include <string.h>
#include "core/strmap.h"
#include "core/util.h"

static void grow(struct bl_strmap *m)
{
	size_t n = m->nslot ? 2 * m->nslot : 64;
	free(m->slot);
	m->slot = bl_xcalloc(n, sizeof *m->slot);
	m->nslot = n;
	for (size_t i = 0; i < m->n; i++) {
		size_t j = bl_hash_str(BL_HASH_INIT, m->key[i]) & (n - 1);
		while (m->slot[j])
			j = (j + 1) & (n - 1);
		m->slot[j] = i + 1;
	}
	m->key = bl_xrealloc(m->key, n / 2 * sizeof *m->key);
}

size_t bl_strmap_get(struct bl_strmap *m, const char *k, bool *added)
{
	if (2 * (m->n + 1) > m->nslot)
		grow(m);
	size_t j = bl_hash_str(BL_HASH_INIT, k) & (m->nslot - 1);
	for (; m->slot[j]; j = (j + 1) & (m->nslot - 1))
		if (strcmp(m->key[m->slot[j] - 1], k) == 0) {
			if (added)
				*added = false;
			return m->slot[j] - 1;
		}
	m->key[m->n] = bl_xstrdup(k);
	m->slot[j] = m->n + 1;
	if (added)
		*added = true;
	return m->n++;
}

long bl_strmap_find(const struct bl_strmap *m, const char *k)
{
	if (m->nslot == 0)
		return -1;
	size_t j = bl_hash_str(BL_HASH_INIT, k) & (m->nslot - 1);
	for (; m->slot[j]; j = (j + 1) & (m->nslot - 1))
		if (strcmp(m->key[m->slot[j] - 1], k) == 0)
			return (long)(m->slot[j] - 1);
	return -1;
}

void bl_strmap_release(struct bl_strmap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->key[i]);
	free(m->key);
	free(m->slot);
	memset(m, 0, sizeof *m);
}
