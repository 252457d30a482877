/* chart.c — helpers on the chart data shapes of analyze/chart.h. */
#include <math.h>
#include <stdint.h>
#include "analyze/chart.h"

double bl_swpd_val(const struct bl_swpd_sample *s, int k)
{
	return k == 0 ? s->swpd_kib : k == 1 ? s->free_kib : k == 2 ? s->si_kibps : s->so_kibps;
}

static void swpd_set(struct bl_swpd_sample *s, int k, double v)
{
	if (k == 0)
		s->swpd_kib = v;
	else if (k == 1)
		s->free_kib = v;
	else if (k == 2)
		s->si_kibps = v;
	else
		s->so_kibps = v;
}

void bl_swpd_minmax(const struct bl_swpd_sample *s, size_t i, size_t e, struct bl_swpd_sample *a,
		    struct bl_swpd_sample *z)
{
	*a = s[i];
	*z = s[e - 1];
	for (int k = 0; k < 4; k++) {
		size_t imin = SIZE_MAX, imax = SIZE_MAX;
		for (size_t q = i; q < e; q++) {
			double v = bl_swpd_val(&s[q], k);
			if (isnan(v))
				continue;
			if (imin == SIZE_MAX || v < bl_swpd_val(&s[imin], k))
				imin = q;
			if (imax == SIZE_MAX || v > bl_swpd_val(&s[imax], k))
				imax = q;
		}
		double x = NAN, y = NAN;
		if (imin != SIZE_MAX) {
			x = bl_swpd_val(&s[imin < imax ? imin : imax], k);
			y = bl_swpd_val(&s[imin < imax ? imax : imin], k);
		}
		swpd_set(a, k, x);
		swpd_set(z, k, y);
	}
}
