/* fuzz_mail.c — bytes through the mail layer (input/mail.c, GMime).
 *
 * First byte: bit 0 set = hand the data to bl_mail_read() even when
 * bl_mail_sniff() says it is not mail (the reader never does this, but
 * the mail layer must not trust the sniffer); bit 1 = --group-from
 * subject; bit 2 = --strict. bl_mail_subject_group() also gets the first
 * line of the data as a subject.
 */
#include "tests/fuzz/common.h"   /* first: system headers before core/banned.h */
#include "input/mail.h"

int bl_fuzz_mail(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned cfg = data[0];
	data++;
	size--;

	size_t n = 0;
	while (n < size && n < 1000 && data[n] != '\n' && data[n] != '\0')
		n++;
	char *subj = bl_xstrndup((const char *)data, n);
	free(bl_mail_subject_group(subj));
	free(subj);

	char path[64];
	int fd = fz_memfile(data, size, path, sizeof path);
	struct bl_opts o;
	bl_opts_init(&o);
	o.quiet = true;
	o.group_from_subject = (cfg & 2) != 0;
	o.strict = (cfg & 4) != 0;
	struct fz_pass p;
	fz_begin(&p, &o);
	struct bl_src *s;
	if (bl_dispatch_open(&p.ctx) == 0) {
		if (bl_src_open(path, NULL, &s) == 0) {
			const char *pk;
			size_t pklen;
			if (bl_src_peek(s, &pk, &pklen) == 0 &&
			    (bl_mail_sniff(pk, pklen) || (cfg & 1)))
				bl_mail_read(&p.ctx, s, "fuzz.mbox");
			bl_src_close(s);
		}
		bl_dispatch_close(&p.ctx);
	}
	fz_end(&p);
	close(fd);
	return 0;
}

#ifndef BL_FUZZ_NO_ENTRY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return bl_fuzz_mail(data, size);
}
#endif
