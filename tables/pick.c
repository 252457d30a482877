/* pick.c — the one table that has rows (tables/pick.h). */
#include <stdlib.h>
#include <string.h>
#include "core/util.h"
#include "tables/pick.h"

struct pick_table {
	const struct bl_table_def *def;
	FILE *tmp;
	struct bl_sink s;     /* a stream sink into tmp */
};

struct pick_sink {
	FILE *f;
	struct bl_table_opts o;
	struct bl_pick *res;
	struct pick_table *t;
	size_t n;
};

static struct pick_table *pick_get(struct pick_sink *p, const struct bl_table_def *def)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->t[i].def == def)
			return &p->t[i];
	FILE *tmp = tmpfile();
	if (!tmp)
		return NULL;
	p->t = bl_xrealloc(p->t, (p->n + 1) * sizeof *p->t);
	struct pick_table *pt = &p->t[p->n++];
	pt->def = def;
	pt->tmp = tmp;
	bl_stream_sink(&pt->s, tmp, def, &p->o);
	return pt;
}

static int pick_record(void *ud, const struct bl_record *r)
{
	struct pick_table *pt = pick_get(ud, r->table);
	return pt ? pt->s.record(pt->s.ud, r) : -BL_EIO;
}

static int copy_out(FILE *from, FILE *to)
{
	char buf[65536];
	size_t k;
	rewind(from);
	while ((k = fread(buf, 1, sizeof buf, from)) > 0)
		if (fwrite(buf, 1, k, to) != k)
			return -BL_EIO;
	return ferror(from) || fflush(to) != 0 || ferror(to) ? -BL_EIO : 0;
}

static int pick_finish(void *ud, int ok)
{
	struct pick_sink *p = ud;
	int rc = 0;
	for (size_t i = 0; i < p->n; i++) {
		int r = p->t[i].s.finish(p->t[i].s.ud, ok);
		rc = rc ? rc : r;
	}
	p->res->n = p->n;
	for (size_t i = 0; i < p->n && i < BL_PICK_MAX; i++)
		p->res->t[i] = p->t[i].def;
	if (ok && rc == 0 && p->n == 1)
		rc = copy_out(p->t[0].tmp, p->f);
	return rc;
}

static void pick_free(void *ud)
{
	struct pick_sink *p = ud;
	for (size_t i = 0; i < p->n; i++) {
		p->t[i].s.free(p->t[i].s.ud);
		fclose(p->t[i].tmp);
	}
	free(p->t);
	free(p);
}

int bl_pick_sink(struct bl_sink *out, FILE *f, const struct bl_table_opts *o, struct bl_pick *res)
{
	struct pick_sink *p = bl_xcalloc(1, sizeof *p);
	p->f = f;
	p->o = *o;
	p->res = res;
	memset(res, 0, sizeof *res);
	out->record = pick_record;
	out->copies = true;   /* a copy keeps its row (core/block.h B4) */
	out->finish = pick_finish;
	out->free = pick_free;
	out->ud = p;
	return 0;
}
