/* dispatch_text.h — a whole text handed to the dispatcher line by line
 * (LF, CR LF or CR line ends), the first line numbered first_lineno, as
 * input/ hands a file's lines. For the unit tests that parse a string. */
#ifndef TESTS_DISPATCH_TEXT_H
#define TESTS_DISPATCH_TEXT_H

#include "parsers/dispatch.h"

static inline int dispatch_text(struct bl_ctx *ctx, const char *text, size_t len,
				unsigned long first_lineno)
{
	unsigned long no = first_lineno;
	size_t i = 0;
	while (i < len) {
		size_t j = i;
		while (j < len && text[j] != '\n' && text[j] != '\r')
			j++;
		int rc = bl_dispatch_line(ctx, text + i, j - i, no++, 0);
		if (rc)
			return rc;
		if (j < len && text[j] == '\r' && j + 1 < len && text[j + 1] == '\n')
			j++;
		i = j + 1;
	}
	return ctx->error;
}

#endif
