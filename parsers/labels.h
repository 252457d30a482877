/* labels.h — result labels: the lines of patch mails and posts that say
 * which side of a before/after comparison the results under them are
 * ("Before:", "Without the patch:", "base", "patched", "by using X",
 * "NOK: v6.18-rc3:"). Rule L4b of parsers/dispatch.c, which decides
 * whether such a line introduces results; docs/formats.md, "Groups". */
#ifndef BL_LABELS_H
#define BL_LABELS_H

#include <stdbool.h>
#include <stddef.h>

/* The form of a result label. */
enum bl_rlabel {
	BL_RLABEL_NONE = 0,
	BL_RLABEL_COLON,   /* ends in ':' or ':-' ("Before:", "Without the patch:") */
	BL_RLABEL_BARE,    /* the label alone ("base", "patched", "with the patch") */
	BL_RLABEL_SETTINGS,   /* R6, with or without ':' ("nvme_num_iter=100 (new defaults)") */
};

/* Is the line s[0..n) (quote prefix already stripped; blanks around
 * allowed; need not be NUL-terminated) a result label? On a label, the
 * group's name is s[*off .. *off + *len): the label without decoration
 * (leading and trailing runs of '*', '=', '-'), blanks and the final
 * ':' / ':-'. The rules (R1-R5) are stated in labels.c. */
enum bl_rlabel bl_result_label(const char *s, size_t n, size_t *off, size_t *len);

/* Which side of a before/after comparison the group name label states,
 * by its first word (case-insensitive, a final ':' ignored): -1 the
 * baseline (before, without, w/o, base, baseline, vanilla, stock, old,
 * unpatched, unmodified, unfixed, original, orig, default), +1 the
 * candidate (after, with, w/, patched, new, candidate, modified, fixed),
 * 0 neither or NULL. */
int bl_label_side(const char *label);

/* A nested group (rules L4c, L4d of parsers/dispatch.c): "SIDE / KEY"
 * or "KEY / SIDE", where SIDE is a result label's name (R1-R6, with or
 * without its ':') or a round "#N", and KEY a heading (dispatch.h
 * bl_dispatch_is_heading): "base / loop", "#2 / tcp", "loop / before".
 * Returns whether group (NUL-terminated, or NULL) is nested; then *g
 * holds the byte offsets and lengths of its side and its key in group. */
struct bl_nested {
	size_t side_off, side_len, key_off, key_len;
};
bool bl_label_nested(const char *group, struct bl_nested *g);

#endif
