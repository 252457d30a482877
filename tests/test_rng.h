/* test_rng.h — the tests' random numbers: Marsaglia's xorshift64 (13, 7,
 * 17), one step per call on a state the caller seeds, so every run of a
 * test draws the same sequence. Not for anything but tests. */
#ifndef BENCHLOG_TEST_RNG_H
#define BENCHLOG_TEST_RNG_H
#include <stdint.h>

static inline uint64_t test_xorshift64(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}
#endif
