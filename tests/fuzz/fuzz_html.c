/* fuzz_html.c — bytes through input/html.h (libxml2's HTML parser): the
 * text lines a page gives must hold no line end (a text line is one
 * line), start on a line the input has (srcline from 1 to its count of
 * LF and CR plus one), and be no longer than BL_LINE_MAX bytes (longer
 * ones are reported, text NULL). The first byte: bit 0 = the bytes are
 * UTF-8 whatever the page declares (a mail part), else the page's own
 * charset; bit 1 = also sniff the bytes as a file's start.
 */
#include "tests/fuzz/common.h"   /* first: system headers before core/banned.h */
#include "input/html.h"
#include "input/reader.h"

struct fzh { unsigned long maxline; };

static int fzh_line(void *ud, const char *t, size_t n, unsigned long srcline)
{
	const struct fzh *h = ud;
	if (srcline < 1 || srcline > h->maxline)
		fz_fail("html: line %lu outside 1..%lu", srcline, h->maxline);
	if (!t)
		return 0;
	if (n > BL_LINE_MAX)
		fz_fail("html: text line of %zu bytes", n);
	if (memchr(t, '\n', n) || memchr(t, '\r', n))
		fz_fail("html: a line end inside a text line");
	return 0;
}

int bl_fuzz_html(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned cfg = data[0];
	const char *p = (const char *)data + 1;
	size--;
	struct fzh h = { 1 };
	for (size_t i = 0; i < size; i++)
		h.maxline += p[i] == '\n' || p[i] == '\r';
	if (cfg & 2)
		(void)bl_html_sniff(p, size);
	if (bl_html_text(p, size, cfg & 1, fzh_line, &h, NULL) != 0)
		fz_fail("html: the converter failed");
	return 0;
}

#ifndef BL_FUZZ_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return bl_fuzz_html(data, size);
}
#endif
