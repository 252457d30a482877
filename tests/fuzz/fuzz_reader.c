/* fuzz_reader.c — arbitrary bytes through the line splitter, the dispatcher
 * and every parser, table writer and analysis (in memory, no files).
 *
 * The first byte chooses options and the chunk size the splitter is fed
 * with, so option-dependent paths and chunk boundaries get fuzzed too:
 *   bit 0     --strict
 *   bit 1     --group-regex '^== (.*) ==$'
 *   bit 2     the unit has mail provenance, subject = the first line,
 *             with --group-from subject
 *   bit 3     --unit ms (one latency per line)
 *   bits 4-5  --since-boot auto/keep/drop (3 = auto)
 *   bits 6-7  chunk size 1, 7, 4096 or everything at once
 * The bytes 01 02 03 in a row end a unit and start the next (a new file
 * name, so a new default group): state must not leak across units.
 */
#include "tests/fuzz/common.h"

struct fzr {
	struct bl_ctx *ctx;
	const char *source;
};

static int fzr_line(void *ud, const char *p, size_t len, unsigned long lineno)
{
	struct fzr *r = ud;
	return bl_dispatch_line(r->ctx, p, len, lineno, 0);
}

/* What input/reader.c does for an over-long line. */
static void fzr_too_long(void *ud, unsigned long lineno)
{
	struct fzr *r = ud;
	struct bl_line ln = { "", 0, r->source, lineno, 0, NULL };
	r->ctx->lines_total++;
	bl_skip(r->ctx, &ln, "line too long");
}

static void fzr_unit(struct bl_ctx *ctx, const char *source, const struct bl_msg *msg,
		     const uint8_t *data, size_t size, size_t chunk)
{
	struct fzr r = { ctx, source };
	struct bl_linesplit ls;
	bl_linesplit_init(&ls);
	ls.line = fzr_line;
	ls.too_long = fzr_too_long;
	ls.ud = &r;
	bl_dispatch_begin_unit(ctx, source, msg);
	int rc = 0;
	for (size_t i = 0; i < size && rc == 0; i += chunk)
		rc = bl_linesplit_feed(&ls, (const char *)data + i, size - i < chunk ? size - i : chunk);
	if (rc == 0)
		bl_linesplit_end(&ls);
	bl_dispatch_end_unit(ctx);
	bl_linesplit_release(&ls);
}

int bl_fuzz_reader(const uint8_t *data, size_t size)
{
	static const size_t chunks[4] = { 1, 7, 4096, (size_t)-1 };
	static const char *const sources[] = { "fuzz.txt", "logs/2.4.12aa1.txt.gz", "-", "2.6.0-test4" };
	if (size < 1)
		return 0;
	unsigned cfg = data[0];
	data++;
	size--;
	struct bl_opts o;
	bl_opts_init(&o);
	o.quiet = true;
	o.strict = cfg & 1;
	if (cfg & 2)
		o.group_regex = "^== (.*) ==$";
	o.group_from_subject = (cfg & 4) != 0;
	if (cfg & 8)
		o.latency_unit = "ms";
	unsigned sb = (cfg >> 4) & 3;
	o.since_boot = sb == 1 ? BL_SB_KEEP : sb == 2 ? BL_SB_DROP : BL_SB_AUTO;
	size_t chunk = chunks[(cfg >> 6) & 3];

	/* Subject for bit 2: the first line, up to 200 bytes, NULs cut. */
	char *subject = NULL;
	struct bl_msg msg = { "fuzz@example.org", "2002-01-10T00:31:48-05:00", "", 1 };
	if (cfg & 4) {
		size_t n = 0;
		while (n < size && n < 200 && data[n] != '\n' && data[n] != '\0')
			n++;
		subject = bl_xstrndup((const char *)data, n);
		msg.subject = subject;
	}

	struct fz_pass p;
	fz_begin(&p, &o);
	if (bl_dispatch_open(&p.ctx) == 0) {
		size_t start = 0, unit = 0;
		for (size_t i = 0; i + 3 <= size; i++) {
			if (data[i] == 1 && data[i + 1] == 2 && data[i + 2] == 3) {
				fzr_unit(&p.ctx, sources[unit++ % 4], (cfg & 4) ? &msg : NULL,
					 data + start, i - start, chunk);
				start = i + 3;
				i += 2;
			}
		}
		fzr_unit(&p.ctx, sources[unit % 4], (cfg & 4) ? &msg : NULL,
			 data + start, size - start, chunk);
		bl_dispatch_close(&p.ctx);
	}
	fz_end(&p);
	free(subject);
	return 0;
}

#ifndef BL_FUZZ_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return bl_fuzz_reader(data, size);
}
#endif
