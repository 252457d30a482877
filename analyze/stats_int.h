/* stats_int.h — helpers shared by the files of analyze/ that implement
 * stats.h; not part of the public API. */
#ifndef BL_STATS_INT_H
#define BL_STATS_INT_H

#include "analyze/stats.h"

/* A copy of bins b[0..n) sorted by value, zero counts dropped (D4), after
 * checking values, counts and overflow (D0). The caller frees *out (NULL
 * when *nout = 0). 0, -BL_EUSAGE or -BL_ERANGE. */
int bl__bins_sorted(const struct bl_bin *b, size_t n, double overflow,
		    struct bl_bin **out, size_t *nout);

/* D3: p in [0,100] (false for NaN). */
bool bl__pct_ok(double p);
/* D3 positions among n ordered values: type 7 gives the 0-based *j and the
 * interpolation fraction; nearest rank gives *j = r - 1 and *frac = 0.
 * n >= 1 and bl__pct_ok(p) must hold. */
void bl__pct_position(double n, double p, enum bl_pct_rule rule,
		      double *j, double *frac);

/* D3's interpolation lo + frac (hi - lo), 0 <= frac <= 1, without
 * overflow: where hi - lo is not finite (ends near -DBL_MAX and +DBL_MAX)
 * it is (1 - frac) lo + frac hi, which stays within [lo, hi]. */
double bl__lerp(double lo, double hi, double frac);

/* qsort comparator for finite doubles, ascending. */
int bl__cmp_double(const void *a, const void *b);
/* Sort finite doubles ascending, stably (equal values, -0.0 and +0.0
 * included, keep their order): the order qsort(bl__cmp_double) gives with
 * glibc's merge sort, several times faster (radix sort). */
void bl__sort_double(double *x, size_t n);

/* D2: set a Welford aggregate from its parts as a partial file (D10)
 * holds them; the cached scale factors are derived. n >= 1. */
void bl__welford_set(struct bl_welford *w, unsigned long long n, double mean,
		     double min, double max, double shift, double off, double m2,
		     int scale);

#endif
