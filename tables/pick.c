/* pick.c — the one table that has rows (tables/pick.h). */
#include <stdlib.h>
#include <string.h>
#include "core/store.h"
#include "core/util.h"
#include "tables/pick.h"

struct pick_table {
	const struct bl_table_def *def;
	struct bl_spool sp;   /* its rows, in bl_tmp_dir() like every temporary file */
	struct bl_sink s;     /* a stream sink into sp */
};

struct pick_sink {
	FILE *f;
	struct bl_table_opts o;
	struct bl_pick *res;
	struct pick_table *t;
	size_t n;
	struct bl_ctx *ctx;   /* where a failed temporary file is said */
};

static struct pick_table *pick_get(struct pick_sink *p, const struct bl_table_def *def)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->t[i].def == def)
			return &p->t[i];
	struct bl_spool sp = { 0 };
	FILE *tmp = bl_spool_append(&sp, NULL);
	if (!tmp)
		return NULL;
	p->t = bl_xrealloc(p->t, (p->n + 1) * sizeof *p->t);
	struct pick_table *pt = &p->t[p->n++];
	pt->def = def;
	pt->sp = sp;
	bl_stream_sink(&pt->s, tmp, def, &p->o);
	return pt;
}

static int pick_record(void *ud, const struct bl_record *r)
{
	struct pick_sink *p = ud;
	struct pick_table *pt = pick_get(p, r->table);
	if (pt)
		return pt->s.record(pt->s.ud, r);
	bl_ctx_temp_failed(p->ctx);
	return -BL_EIO;
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
		rc = bl_spool_copy(&p->t[0].sp, p->f) || fflush(p->f) != 0 ? -BL_EIO : 0;
	return rc;
}

static void pick_free(void *ud)
{
	struct pick_sink *p = ud;
	for (size_t i = 0; i < p->n; i++) {
		p->t[i].s.free(p->t[i].s.ud);
		bl_spool_release(&p->t[i].sp);
	}
	free(p->t);
	free(p);
}

int bl_pick_sink(struct bl_sink *out, FILE *f, const struct bl_table_opts *o, struct bl_pick *res,
		 struct bl_ctx *ctx)
{
	struct pick_sink *p = bl_xcalloc(1, sizeof *p);
	p->f = f;
	p->ctx = ctx;
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
