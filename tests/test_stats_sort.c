/* test_stats_sort.c — bl__sort_double (analyze/stats.c, the sort behind
 * percentiles) puts doubles in the order libc gives: expected arrays are
 * sorted here with qsort(3) and bl__cmp_double, and, since equal values
 * must keep their order (-0.0 and +0.0 compare equal), with a stable
 * insertion sort written in this file; results are compared bit for bit.
 * Arrays of whole numbers from 0 to 2^32 - 1, which take a path of their
 * own, are compared the same way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/stats_int.h"

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Dull;
}

/* The stable reference: insertion sort by bl__cmp_double. */
static void ref_sort(double *x, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double v = x[i];
		size_t j = i;
		while (j > 0 && bl__cmp_double(&x[j - 1], &v) > 0) {
			x[j] = x[j - 1];
			j--;
		}
		x[j] = v;
	}
}

static void test_stats_sort__same_order_as_stable_libc_order(void **state)
{
	(void)state;
	static const size_t sizes[] = { 0, 1, 2, 3, 31, 32, 33, 100, 1000, 5000 };
	for (int round = 0; round < 40; round++) {
		for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
			size_t n = sizes[si];
			double *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b);
			double *c = malloc((n + 1) * sizeof *c);
			for (size_t i = 0; i < n; i++) {
				uint64_t r = rng();
				switch ((r >> 60) % 5) {
				case 0: a[i] = (double)(r % 100);                  break; /* many ties */
				case 1: a[i] = ((r >> 8) & 1) ? -0.0 : 0.0;        break; /* signed zeros */
				case 2: a[i] = (double)(int64_t)r / 1e6;            break; /* both signs */
				case 3: a[i] = ldexp((double)(r % 1000), (int)(r % 200) - 100); break;
				default: a[i] = -(double)(r % 1000000);             break;
				}
			}
			memcpy(b, a, n * sizeof *a);
			memcpy(c, a, n * sizeof *a);
			bl__sort_double(a, n);
			ref_sort(b, n);
			qsort(c, n, sizeof *c, bl__cmp_double);
			for (size_t i = 0; i < n; i++) {
				assert_true(a[i] == c[i]);                     /* the same values */
				if (memcmp(&a[i], &b[i], sizeof a[i]) != 0)    /* the same bits, order kept */
					fail_msg("n=%zu: element %zu is %a, the stable order has %a", n, i, a[i], b[i]);
			}
			free(a);
			free(b);
			free(c);
		}
	}
}

/* Arrays of whole numbers 0 .. 2^32 - 1 take a path of their own (32-bit
 * keys); the same comparison, on counters of every width, with ties, and
 * on arrays where one value (-0.0, 2^32, 0.5, a NaN-free negative) sends
 * the whole array back to the general path. */
static void test_stats_sort__whole_numbers_same_order(void **state)
{
	(void)state;
	static const size_t sizes[] = { 33, 100, 1500, 5000 };
	static const uint64_t widths[] = { 2, 256, 65536, 1ull << 24, 1ull << 32 };
	static const double odd[] = { -0.0, 4294967296.0, 0.5, -1.0, 0.0 };
	for (int round = 0; round < 10; round++)
		for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
			for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++)
				for (size_t oi = 0; oi <= sizeof odd / sizeof odd[0]; oi++) {
					size_t n = sizes[si];
					double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
					for (size_t i = 0; i < n; i++)
						a[i] = (double)(rng() % widths[wi]);
					if (oi < sizeof odd / sizeof odd[0])
						a[rng() % n] = odd[oi];   /* oi == last: none */
					memcpy(b, a, n * sizeof *a);
					bl__sort_double(a, n);
					ref_sort(b, n);
					for (size_t i = 0; i < n; i++)
						if (memcmp(&a[i], &b[i], sizeof a[i]) != 0)
							fail_msg("n=%zu, width %llu: element %zu is %a, want %a", n,
								 (unsigned long long)widths[wi], i, a[i], b[i]);
					free(a);
					free(b);
				}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_sort__same_order_as_stable_libc_order),
		cmocka_unit_test(test_stats_sort__whole_numbers_same_order),
	};
	return cmocka_run_group_tests_name("stats_sort", tests, NULL, NULL);
}
