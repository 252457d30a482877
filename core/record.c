/* record.c — records (see record.h). */
#include <stdatomic.h>
#include <string.h>
#include <strings.h>
#include "core/record.h"

const char *const bl_prov_col_names[BL_PROV_COLS] = {
	"source", "line", "message_id", "date", "subject", "quoted", "group", "group_source", "run",
	"copy_of",
};

void bl_record_at(struct bl_record *r, const struct bl_line *ln)
{
	r->source = ln ? ln->source : "";
	r->line = ln ? ln->lineno : 0;
	r->msg = ln ? ln->msg : NULL;
	r->quoted = ln ? ln->quote_depth : 0;
	r->group = NULL;
	r->group_source = NULL;
	r->run = 0;
	r->prov_gen = 0;
	r->copy_of = NULL;
	r->digits = NULL;
}

void bl_record_init(struct bl_record *r, const struct bl_table_def *t, const struct bl_line *ln)
{
	r->table = t;
	bl_record_at(r, ln);
	r->const_gen = 0;
	r->const_cols = 0;
	/* BL_NULL is 0: one memset, where a store per column was 5 % of
	 * `parse -t vmstat` (48 columns a row) */
	memset(r->v, 0, (t->ncols < BL_MAX_COLS ? t->ncols : BL_MAX_COLS) * sizeof r->v[0]);
}

unsigned long bl_gen_new(void)
{
	static _Atomic unsigned long last;
	return atomic_fetch_add(&last, 1) + 1;
}

int bl_table_col(const struct bl_table_def *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i].name, name) == 0)
			return (int)i;
	return -1;
}

bool bl_failed_value(const struct bl_val *v)
{
	return (v->t == BL_STR && v->u.s && *v->u.s) || (v->t == BL_INT && v->u.i != 0) ||
	       (v->t == BL_NUM && v->u.d != 0);
}

bool bl_record_failed(const struct bl_record *r)
{
	/* by index, not by name (summary of 5 MB of mtest01 + time -v runs:
	 * 102.4 M instructions, 108.5 M looking the names up) */
	for (const int *c = r->table->failed_cols; c && *c >= 0; c++)
		if (bl_failed_value(&r->v[*c]))
			return true;
	return false;
}

const struct bl_col_def *bl_table_coldef(const struct bl_table_def *t, const char *name)
{
	for (size_t i = 0; t && name && i < t->ncols; i++)
		if (strcasecmp(t->cols[i].name, name) == 0)
			return &t->cols[i];
	return NULL;
}
