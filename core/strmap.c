/* strmap.c — strings to dense indexes (see strmap.h). */
#include <glib.h>
#include <stdlib.h>
#include <string.h>
#include "core/strmap.h"
#include "core/util.h"

size_t bl_strmap_get(struct bl_strmap *m, const char *k, bool *added)
{
	long i = bl_strmap_find(m, k);
	if (added)
		*added = i < 0;
	if (i >= 0)
		return (size_t)i;
	if (!m->h)
		m->h = g_hash_table_new(g_str_hash, g_str_equal);
	m->key = bl_xgrow(m->key, &m->cap, m->n + 1, sizeof *m->key);
	m->key[m->n] = bl_xstrdup(k);
	g_hash_table_insert(m->h, m->key[m->n], GSIZE_TO_POINTER(m->n));
	return m->n++;
}

long bl_strmap_find(const struct bl_strmap *m, const char *k)
{
	gpointer i;
	return m->h && g_hash_table_lookup_extended(m->h, k, NULL, &i) ? (long)GPOINTER_TO_SIZE(i) : -1;
}

void bl_strmap_release(struct bl_strmap *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->key[i]);
	free(m->key);
	if (m->h)
		g_hash_table_destroy(m->h);
	memset(m, 0, sizeof *m);
}
