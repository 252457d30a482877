/* fuzz_csv.c — bytes as a CSV table or a statistics partial file
 * (analyze/table_stats.c, analyze/dist.c), the inputs `benchlog stats`
 * and `benchlog compare` read besides logs.
 *
 * First byte, bit 0 clear: the rest is a CSV file for
 * bl_tstats_read_csv(); every cell's statistics are computed, the
 * collector is written as partials (T6) and read back into a new one,
 * which must give every cell the same n, min and max (D10: exact after a
 * merge). Every physical line must be counted used or skipped.
 * Bit 0 set: the rest is a partial file for bl_tstats_read_partials().
 */
#include "tests/fuzz/common.h"   /* first: system headers before core/banned.h */
#include "analyze/table_stats.h"

static const double fzc_p[3] = { 50, 90, 99 };

/* Every cell's statistics, for the exercise; NaN only where D0-D3 allow. */
static void fzc_cells(struct bl_tstats *ts)
{
	for (size_t t = 0; t < bl_tstats_ntables(ts); t++)
		for (size_t g = 0; g < bl_tstats_ngroups(ts, t); g++)
			for (size_t c = 0; c < bl_tstats_ncols(ts, t); c++) {
				struct bl_cellstat cs;
				double pct[3];
				/* cell indices also count the unlisted runs column */
				long ci = bl_tstats_find_col(ts, t, bl_tstats_col(ts, t, c));
				if (ci < 0)
					fz_fail("listed column %s has no cell", bl_tstats_col(ts, t, c));
				if (!bl_tstats_cell(ts, t, g, ci, fzc_p, 3, BL_PCT_TYPE7, &cs, pct))
					continue;
				if (cs.w.n > 0 && (isnan(cs.w.min) || isnan(cs.w.max) || cs.w.min > cs.w.max))
					fz_fail("cell %zu/%zu/%zu: min %g max %g", t, g, c, cs.w.min, cs.w.max);
			}
}

/* Group g of table t of a in b (same table name and group values), or -1. */
static long fzc_find_group(struct bl_tstats *a, size_t t, size_t g, struct bl_tstats *b, size_t tb)
{
	size_t k = bl_tstats_ngcols(a, t);
	if (bl_tstats_ngcols(b, tb) != k)
		return -1;
	for (size_t h = 0; h < bl_tstats_ngroups(b, tb); h++) {
		size_t i;
		for (i = 0; i < k; i++)
			if (strcmp(bl_tstats_gval(a, t, g, i), bl_tstats_gval(b, tb, h, i)) != 0)
				break;
		if (i == k)
			return (long)h;
	}
	return -1;
}

static void fzc_roundtrip(struct bl_tstats *a, const struct bl_tstats_opts *o, struct bl_ctx *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		fz_fail("open_memstream");
	int rc = bl_tstats_write_partials(a, f);
	fclose(f);
	if (rc) {
		free(buf);
		return;
	}
	char path[64];
	int fd = fz_memfile((const uint8_t *)buf, len, path, sizeof path);
	struct bl_tstats *b = bl_tstats_new(o, ctx);
	if (bl_tstats_read_partials(b, path) != 0)
		fz_fail("partials benchlog wrote do not read back");
	for (size_t t = 0; t < bl_tstats_ntables(a); t++) {
		size_t tb;
		for (tb = 0; tb < bl_tstats_ntables(b); tb++)
			if (strcmp(bl_tstats_table(a, t), bl_tstats_table(b, tb)) == 0)
				break;
		for (size_t g = 0; g < bl_tstats_ngroups(a, t); g++)
			for (size_t c = 0; c < bl_tstats_ncols(a, t); c++) {
				struct bl_cellstat x, y;
				long ca = bl_tstats_find_col(a, t, bl_tstats_col(a, t, c));
				if (!bl_tstats_cell(a, t, g, ca, fzc_p, 0, BL_PCT_TYPE7, &x, NULL) || x.w.n == 0)
					continue;
				long gb = tb < bl_tstats_ntables(b) ? fzc_find_group(a, t, g, b, tb) : -1;
				long cb = gb >= 0 ? bl_tstats_find_col(b, tb, bl_tstats_col(a, t, c)) : -1;
				if (cb < 0 || !bl_tstats_cell(b, tb, (size_t)gb, cb, fzc_p, 0, BL_PCT_TYPE7, &y, NULL))
					fz_fail("cell %s/%zu/%s lost in the partials", bl_tstats_table(a, t), g,
						bl_tstats_col(a, t, c));
				if (x.w.n != y.w.n || x.w.min != y.w.min || x.w.max != y.w.max)
					fz_fail("cell %s/%zu/%s: n %llu/%llu min %g/%g max %g/%g after the partials",
						bl_tstats_table(a, t), g, bl_tstats_col(a, t, c),
						(unsigned long long)x.w.n, (unsigned long long)y.w.n,
						x.w.min, y.w.min, x.w.max, y.w.max);
			}
	}
	bl_tstats_free(b);
	close(fd);
	free(buf);
}

int bl_fuzz_csv(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned cfg = data[0];
	char path[64];
	int fd = fz_memfile(data + 1, size - 1, path, sizeof path);
	struct bl_opts po;
	bl_opts_init(&po);
	po.quiet = true;
	struct bl_ctx ctx;
	bl_ctx_init(&ctx, &po);
	ctx.diag = NULL;
	struct bl_tstats_opts o;
	memset(&o, 0, sizeof o);
	struct bl_tstats *ts = bl_tstats_new(&o, &ctx);
	if (cfg & 1) {
		bl_tstats_read_partials(ts, path);
		fzc_cells(ts);
	} else {
		bl_tstats_read_csv(ts, path);
		if (ctx.lines_total != ctx.lines_used + ctx.lines_skipped)
			fz_fail("CSV lines: %lu total != %lu used + %lu skipped", ctx.lines_total,
				ctx.lines_used, ctx.lines_skipped);
		fzc_cells(ts);
		fzc_roundtrip(ts, &o, &ctx);
	}
	bl_tstats_free(ts);
	bl_ctx_release(&ctx);
	close(fd);
	return 0;
}

#ifndef BL_FUZZ_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return bl_fuzz_csv(data, size);
}
#endif
