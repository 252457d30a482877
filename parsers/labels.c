/* labels.c — result labels (see labels.h).
 *
 * Found in the linux-block archive (docs/archives.md, "Before and after"):
 * patch mails and bug reports put a line over each side's results,
 * "before modification:" / "after modification:", "Without changes:" /
 * "With changes:", "******* Without the patchset:", "with 'optimizations'"
 * / "base:", "NOK: v6.18-rc3:" / "OK: v6.18-rc3 with 42f22fe36d51
 * reverted:", "Just adding this patch on the previous:". A line is a
 * result label when, with blanks, decoration ('*', '=', '-' runs at
 * either end) and a final ':' or ':-' taken off, the rest (the label)
 *   R1 is 1-60 bytes and 1-8 words, a letter first;
 *   R2 holds none of = < > | { } [ ] " ` ; ! ? , @ $ % & \ # or a TAB, a
 *      '.' only inside a word (v6.18-rc3), a ':' only before a blank and
 *      at most once, a '/' only inside a word (w/o; " / " joins a nested
 *      group, bl_label_nested): program output ("poll01.c:69: PASS:")
 *      and code never are, nor is a sentence;
 *   R3 is no clause: no personal pronoun (I, we, you, he, she, they, me,
 *      us, my, our, your) and none of is, are, was, were, be, been, has,
 *      have, had, here, there: "With a small/slow VM I got following
 *      values:" and "Here is the run on the patched kernel:" are prose
 *      that introduces, not a side;
 *   R4 with ':' (COLON): starts with a side word (side_words[]) or "by
 *      using", or has a patch word (patch_words[]) or a kernel version
 *      (v6.18-rc3, 5.11.0-rc5+) among its words;
 *   R5 without ':' (BARE), stricter, since prose lines have no ':' either:
 *      a side word that stands for a whole side (bare_sides[]), alone or
 *      with one of kernel, code, version, run, runs, result, results; or
 *      with / without / w/ / w/o and 1-3 more words ("with the patch",
 *      "with 'optimizations'"); or "using X", "by using X" in at most 4
 *      words;
 *   R6 or, with or without ':', is settings (SETTINGS): 1-4 words NAME=VALUE (NAME a
 *      letter first, then letters, digits, '_', '.', '-'; VALUE 1 or more
 *      bytes, none a blank or one of R2's, ' ( ) * or =), 2 of them or a
 *      final remark in parentheses ("nvme_num_iter=100 nvme_img_size=350M
 *      (new defaults)"): the configuration a post's results were run
 *      with, not a shell assignment (LOOP_MNT="/mnt/loop0") nor
 *      LTP's analysis=exit.
 * Whether the label introduces results (data follows), and at which quote
 * depth, is the dispatcher's rule L4b.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <glib.h>
#include "core/util.h"
#include "parsers/dispatch.h"
#include "parsers/labels.h"

#define LABEL_MAX 60
#define WORDS_MAX 8

static const char *const side_words[] = {
	"before", "after", "with", "without", "w/", "w/o", "base", "baseline", "vanilla",
	"stock", "upstream", "mainline", "patched", "unpatched", "old", "new", "original",
	"orig", "modified", "unmodified", "reverted", "fixed", "unfixed", "current",
	"default", "using", NULL,
};
static const char *const patch_words[] = {
	"patch", "patched", "patches", "patchset", "series", "revert", "reverted", "applied",
	"modification", "modifications", "changes", "fix", NULL,
};
static const char *const bare_sides[] = {
	"before", "after", "base", "baseline", "vanilla", "stock", "patched", "unpatched",
	"old", "new", "original", "modified", "unmodified", "reverted", NULL,
};
static const char *const bare_tails[] = {
	"kernel", "code", "version", "run", "runs", "result", "results", NULL,
};
static const char *const base_words[] = {
	"before", "without", "w/o", "base", "baseline", "vanilla", "stock", "old", "unpatched",
	"unmodified", "unfixed", "original", "orig", "default", NULL,
};
static const char *const cand_words[] = {
	"after", "with", "w/", "patched", "new", "candidate", "modified", "fixed", NULL,
};
static const char *const with_words[] = { "with", "without", "w/", "w/o", NULL };
/* Words of a clause, never of a label (R3). */
static const char *const prose_words[] = {
	"i", "we", "you", "he", "she", "they", "me", "us", "my", "our", "your",
	"is", "are", "was", "were", "be", "been", "has", "have", "had", "here", "there", NULL,
};

struct word {
	const char *p;
	size_t n;
};

static bool word_in(const struct word *w, const char *const *list)
{
	return bl_word_index(w->p, w->n, list, true) >= 0;
}

/* A kernel version word: an optional 'v', digits '.' digits, then any of
 * letters, digits and . + _ ~ - (6.1, v6.18-rc3, 5.11.0-rc5+). */
static bool is_version(const struct word *w)
{
	size_t i = 0;
	if (i < w->n && (w->p[i] == 'v' || w->p[i] == 'V'))
		i++;
	size_t d = i;
	while (i < w->n && g_ascii_isdigit(w->p[i]))
		i++;
	if (i == d || i >= w->n || w->p[i] != '.')
		return false;
	i++;
	if (i >= w->n || !g_ascii_isdigit(w->p[i]))
		return false;
	for (; i < w->n; i++)
		if (!g_ascii_isalpha(w->p[i]) && !g_ascii_isdigit(w->p[i]) && !strchr(".+_~-", w->p[i]))
			return false;
	return true;
}

/* Take blanks and decoration off both ends of s[*b..*e); returns whether
 * a final ':' or ':-' was there (and takes it off too). */
static bool strip(const char *s, size_t *b, size_t *e)
{
	while (*b < *e && strchr(" \t*=-", s[*b]))
		(*b)++;
	while (*e > *b && strchr(" \t*=", s[*e - 1]))
		(*e)--;
	bool colon = false;
	if (*e - *b >= 2 && s[*e - 2] == ':' && s[*e - 1] == '-') {
		*e -= 2;
		colon = true;
	} else if (*e > *b && s[*e - 1] == ':') {
		(*e)--;
		colon = true;
	}
	while (*e > *b && (s[*e - 1] == ' ' || s[*e - 1] == '\t'))
		(*e)--;
	return colon;
}

/* R1-R3 on s[b..e), splitting it into words[]; returns the word count or
 * 0 when the text cannot be a label. */
static size_t split_words(const char *s, size_t b, size_t e, struct word *words)
{
	if (e - b == 0 || e - b > LABEL_MAX || !g_ascii_isalpha(s[b]))
		return 0;
	size_t nw = 0, colons = 0;
	for (size_t i = b; i < e;) {
		if (s[i] == ' ') {
			i++;
			continue;
		}
		size_t j = i;
		while (j < e && s[j] != ' ') {
			char c = s[j];
			if (strchr("\t=<>|{}[]\"`;!?,@$%&\\#", c))
				return 0;
			if (c == '.' && (j + 1 >= e || s[j + 1] == ' '))
				return 0;
			if (c == ':' && (j + 1 >= e || s[j + 1] != ' ' || ++colons > 1))
				return 0;
			j++;
		}
		if (j - i == 1 && s[i] == '/')
			return 0;
		if (nw == WORDS_MAX)
			return 0;
		words[nw++] = (struct word){ s + i, j - i };
		if (s[j - 1] == ':')
			words[nw - 1].n--;
		if (word_in(&words[nw - 1], prose_words))
			return 0;
		i = j;
	}
	return nw;
}

static bool colon_label(const struct word *w, size_t nw)
{
	if (word_in(&w[0], side_words))
		return true;
	if (nw >= 2 && w[0].n == 2 && strncasecmp(w[0].p, "by", 2) == 0 && w[1].n == 5 &&
	    strncasecmp(w[1].p, "using", 5) == 0)
		return true;
	for (size_t i = 0; i < nw; i++)
		if (word_in(&w[i], patch_words) || is_version(&w[i]))
			return true;
	return false;
}

static bool bare_label(const struct word *w, size_t nw)
{
	if (word_in(&w[0], bare_sides))
		return nw == 1 || (nw == 2 && word_in(&w[1], bare_tails));
	if (word_in(&w[0], with_words))
		return nw >= 2 && nw <= 4;
	if (w[0].n == 5 && strncasecmp(w[0].p, "using", 5) == 0)
		return nw >= 2 && nw <= 4;
	if (w[0].n == 2 && strncasecmp(w[0].p, "by", 2) == 0)
		return nw >= 3 && nw <= 4 && w[1].n == 5 && strncasecmp(w[1].p, "using", 5) == 0;
	return false;
}

/* R6 on s[b..e). */
static bool settings(const char *s, size_t b, size_t e)
{
	size_t words = 0, i = b;
	if (e - b > LABEL_MAX)
		return false;
	while (i < e && s[i] != '(') {
		size_t j = i;
		if (!g_ascii_isalpha(s[j]) || ++words > 4)
			return false;
		while (j < e && (g_ascii_isalnum(s[j]) || strchr("_.-", s[j])))
			j++;
		if (j >= e || s[j] != '=')
			return false;
		size_t v = ++j;
		while (j < e && !strchr(" \t=<>|{}[]\"`;!?,@$&\\#'()*", s[j]))
			j++;
		if (j == v || (j < e && s[j] != ' ' && s[j] != '('))
			return false;
		for (i = j; i < e && s[i] == ' '; i++)
			;
	}
	if (i < e && (s[e - 1] != ')' || memchr(s + i + 1, '(', e - i - 1) || memchr(s + i, ')', e - i - 1)))
		return false;
	return words > 1 || (words && i < e);
}

enum bl_rlabel bl_result_label(const char *s, size_t n, size_t *off, size_t *len)
{
	size_t b = 0, e = n;
	if (n > 4 * LABEL_MAX)
		return BL_RLABEL_NONE;
	bool colon = strip(s, &b, &e);
	if (settings(s, b, e)) {
		*off = b;
		*len = e - b;
		return BL_RLABEL_SETTINGS;
	}
	struct word w[WORDS_MAX];
	size_t nw = split_words(s, b, e, w);
	if (!nw)
		return BL_RLABEL_NONE;
	enum bl_rlabel r = colon ? (colon_label(w, nw) ? BL_RLABEL_COLON : BL_RLABEL_NONE)
		: (bare_label(w, nw) ? BL_RLABEL_BARE : BL_RLABEL_NONE);
	if (r) {
		*off = b;
		*len = e - b;
	}
	return r;
}

int bl_label_side(const char *label)
{
	if (label == NULL)
		return 0;
	struct word w = { label + strspn(label, " \t*=-"), 0 };
	w.n = strcspn(w.p, " \t");
	if (w.n > 1 && w.p[w.n - 1] == ':')
		w.n--;
	return word_in(&w, base_words) ? -1 : word_in(&w, cand_words) ? 1 : 0;
}

/* Is s[0..n) a result label's name (R1-R6, with or without its ':'), or
 * a round "#N" (rule L4d)? */
static bool side_name(const char *s, size_t n)
{
	size_t off, len, d = n > 1 && s[0] == '#' ? strspn(s + 1, "0123456789") : 0;
	if (d && d + 1 == n)
		return true;
	char *colon = bl_xasprintf("%.*s:", (int)n, s);
	enum bl_rlabel r = bl_result_label(colon, n, &off, &len);
	bool ok = r == BL_RLABEL_BARE || r == BL_RLABEL_SETTINGS ||
		  bl_result_label(colon, n + 1, &off, &len) == BL_RLABEL_COLON;
	free(colon);
	return ok && off == 0 && len == n;
}

bool bl_label_nested(const char *group, struct bl_nested *g)
{
	const char *sep = group ? strstr(group, " / ") : NULL;
	if (!sep)
		return false;
	size_t n = (size_t)(sep - group), m = strlen(sep + 3);
	if (bl_dispatch_is_heading(sep + 3, m) && side_name(group, n))
		*g = (struct bl_nested){ 0, n, n + 3, m };
	else if (bl_dispatch_is_heading(group, n) && side_name(sep + 3, m))
		*g = (struct bl_nested){ n + 3, m, 0, n };
	else
		return false;
	return true;
}
