/* test_async.c — the writer-thread sink (tables/async.c) hands every record
 * to the inner sink unchanged and in order.
 *
 * Where the expected values come from: the records themselves. A
 * pseudo-random generator (fixed seed) makes records of every shape the
 * packed encoding distinguishes — empty, integer (the extremes included),
 * other number (NaN and -0.0 included, compared bit for bit), string
 * (empty, long, larger than a block), provenance strings that repeat,
 * change, are absent or are rewritten in place under the same pointer,
 * mail provenance, quote depths, runs 0 and negative — and the inner sink
 * must receive exactly what was given, field by field.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tables/async.h"
#include "tables/table.h"
#include "core/util.h"
#include "tests/test_rng.h"
#include "parsers/parser.h"

/* A deep copy of a record, as the inner sink saw it (or as it was sent). */
struct copy {
	const struct bl_table_def *table;
	char *source, *group;
	unsigned long line;
	int quoted;
	long run;
	bool has_msg;
	char *mid, *date, *subject;
	unsigned long msg_index;
	struct bl_val v[BL_MAX_COLS];
	char *str[BL_MAX_COLS];
};

static char *dup_or_null(const char *s)
{
	return s ? bl_xstrdup(s) : NULL;
}

static void take(struct copy *c, const struct bl_record *r)
{
	memset(c, 0, sizeof *c);
	c->table = r->table;
	c->source = dup_or_null(r->source);
	c->group = dup_or_null(r->group);
	c->line = r->line;
	c->quoted = r->quoted;
	c->run = r->run;
	if (r->msg) {
		c->has_msg = true;
		c->mid = dup_or_null(r->msg->message_id);
		c->date = dup_or_null(r->msg->date);
		c->subject = dup_or_null(r->msg->subject);
		c->msg_index = r->msg->index;
	}
	for (size_t i = 0; i < r->table->ncols; i++) {
		c->v[i] = r->v[i];
		if (r->v[i].t == BL_STR)
			c->str[i] = bl_xstrdup(r->v[i].u.s ? r->v[i].u.s : "");
	}
}

static void drop(struct copy *c)
{
	free(c->source);
	free(c->group);
	free(c->mid);
	free(c->date);
	free(c->subject);
	for (size_t i = 0; i < BL_MAX_COLS; i++)
		free(c->str[i]);
}

struct got {
	struct copy *c;
	size_t n, cap;
	int finished;
};

static int got_record(void *ud, const struct bl_record *r)
{
	struct got *g = ud;
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 256;
		g->c = bl_xrealloc(g->c, g->cap * sizeof *g->c);
	}
	take(&g->c[g->n++], r);
	return 0;
}

static int got_finish(void *ud, int ok)
{
	struct got *g = ud;
	g->finished = ok ? 1 : -1;
	return 0;
}

/* msg strings: "" is sent for NULL (the async copy stores "" then) */
static void same_str(const char *want, const char *got)
{
	assert_string_equal(want ? want : "", got ? got : "");
}

static void same(const struct copy *want, const struct copy *got)
{
	assert_ptr_equal(want->table, got->table);
	if (!want->source)
		assert_null(got->source);
	else
		assert_string_equal(want->source, got->source);
	if (!want->group)
		assert_null(got->group);
	else
		assert_string_equal(want->group, got->group);
	assert_int_equal(want->line, got->line);
	assert_int_equal(want->quoted, got->quoted);
	assert_int_equal(want->run, got->run);
	assert_int_equal(want->has_msg, got->has_msg);
	if (want->has_msg) {
		same_str(want->mid, got->mid);
		same_str(want->date, got->date);
		same_str(want->subject, got->subject);
		assert_int_equal(want->msg_index, got->msg_index);
	}
	for (size_t i = 0; i < want->table->ncols; i++) {
		assert_int_equal(want->v[i].t, got->v[i].t);
		if (want->v[i].t == BL_INT)
			assert_true(want->v[i].u.i == got->v[i].u.i);
		else if (want->v[i].t == BL_NUM)
			assert_memory_equal(&want->v[i].u.d, &got->v[i].u.d, sizeof(double));
		else if (want->v[i].t == BL_STR)
			assert_string_equal(want->str[i], got->str[i]);
	}
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
	return test_xorshift64(&rng);
}

static void test_async__every_record_arrives_unchanged_and_in_order(void **state)
{
	(void)state;
	const struct bl_table_def *t = bl_table_find("vmstat");
	assert_non_null(t);
	assert_true(t->ncols >= 30);

	struct got g = { 0 };
	struct bl_sink inner = { got_record, got_finish, NULL, &g, NULL }, out;
	assert_int_equal(bl_async_sink(&out, &inner), 0);

	enum { N = 20000 };
	struct copy *sent = bl_xcalloc(N, sizeof *sent);
	static const long long ints[] = { 0, 1, -1, 127, 128, -64, -65, 16383, 16384,
		LLONG_MAX, LLONG_MIN, LLONG_MIN + 1, 1234567890123ll };
	static const double nums[] = { 0.0, -0.0, 1.5, -2.25, 1e300, 5e-324, NAN, INFINITY };
	char *huge = bl_xmalloc(BL_ASYNC_BLOCK + 1000);   /* larger than a block */
	memset(huge, 'x', BL_ASYNC_BLOCK + 999);
	huge[BL_ASYNC_BLOCK + 999] = '\0';
	/* a group buffer rewritten in place: same pointer, new text */
	char group[32] = "2.4.19";
	char sources[3][40] = { "logs/a.txt", "logs/b.txt", "logs/a.txt" };
	char strs[8][64];
	struct bl_msg msg = { "<id@example>", "2002-03-04T05:06:07+00:00", "vmstat, 2.4.19", 7 };
	struct bl_msg msg_nulls = { NULL, NULL, NULL, 9 };

	for (size_t k = 0; k < N; k++) {
		struct bl_record r;
		struct bl_line ln = { "", 0, NULL, 0, 0, NULL };
		bl_record_init(&r, t, &ln);
		uint64_t x = next();
		r.source = (x & 7) == 0 ? NULL : sources[(k / 50) % 3];
		if (k % 997 == 0)
			group[0] = (char)('2' + (k / 997) % 4);   /* same pointer, changed */
		r.group = (x >> 3 & 7) == 0 ? NULL : group;
		r.line = (unsigned long)(x >> 20);
		r.quoted = (int)(x >> 6 & 3);
		r.run = (long)(x >> 9 & 15) - 2;
		r.msg = (x >> 13 & 7) == 0 ? &msg : (x >> 13 & 7) == 1 ? &msg_nulls : NULL;
		for (size_t i = 0; i < t->ncols; i++) {
			uint64_t y = next();
			switch (y & 3) {
			case 0:
				break;           /* empty */
			case 1:
				bl_set_int(&r, i, (y >> 2 & 1) ? ints[(y >> 3) % 13] : (long long)(y >> 8) - (1ll << 40));
				break;
			case 2:
				bl_set_num(&r, i, (y >> 2 & 1) ? nums[(y >> 3) % 8] : (double)(y >> 11) / 3.0);
				break;
			case 3: {
				char *s = strs[i % 8];
				size_t len = (size_t)(y >> 4) % 60;
				for (size_t c = 0; c < len; c++)
					s[c] = (char)('a' + (y >> (c % 50)) % 26);
				s[len] = '\0';
				bl_set_str(&r, i, (k % 5000 == 1 && i == 3) ? huge : s);
				break;
			}
			}
		}
		take(&sent[k], &r);
		assert_int_equal(out.record(out.ud, &r), 0);
	}
	assert_int_equal(out.finish(out.ud, 1), 0);
	assert_int_equal(g.finished, 1);
	assert_int_equal(g.n, N);
	for (size_t k = 0; k < N; k++)
		same(&sent[k], &g.c[k]);
	out.free(out.ud);
	for (size_t k = 0; k < N; k++) {
		drop(&sent[k]);
		drop(&g.c[k]);
	}
	free(sent);
	free(g.c);
	free(huge);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_async__every_record_arrives_unchanged_and_in_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
