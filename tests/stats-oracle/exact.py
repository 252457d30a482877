#!/usr/bin/env python3
"""Exact reference values for the D2 accuracy tests in tests/test_stats.c.

Each value is parsed as Python parses it (correctly rounded, as strtod
does), turned into an exact rational (fractions.Fraction of the double),
and the mean and the sample variance are computed exactly; the sd is the
square root of the exact variance at 40 digits (mpmath). Nothing here
shares code or rounding with analyze/stats.c.

Run:  python3 tests/stats-oracle/exact.py
"""
from fractions import Fraction
from mpmath import mp, mpf, sqrt

mp.dps = 40

SETS = {
    # subnormal values (strtod flags them ERANGE; D0 reads them)
    "subnormal": ["1e-310", "2e-310", "3e-310", "5e-310", "2.5e-310"],
    # finite values near DBL_MAX, both signs: x - mean and M2 overflow
    # in a plain Welford update
    "near_max": ["1.7e308", "1.6e308", "1.79e308", "1.0e308", "-1.5e308"],
    # a large offset with small steps: 1e15 + 0.1 k, k = 1..12 (as parsed)
    # ministat's textbook formula prints -nan for these
    "offset_1e8": ["100000000.1", "100000000.2", "100000000.3"],
    "offset_1e15": ["%d.%d" % (10**15 + k // 10, k % 10) for k in range(1, 13)],
}


def exact(xs):
    q = [Fraction(float(x)) for x in xs]
    n = len(q)
    mean = sum(q) / n
    var = sum((v - mean) ** 2 for v in q) / (n - 1)
    # the exact rational through mpmath at 40 digits
    return (mpf(mean.numerator) / mean.denominator,
            sqrt(mpf(var.numerator) / var.denominator))


for name, xs in SETS.items():
    m, s = exact(xs)
    print("%-12s mean %s sd %s" % (name, mp.nstr(m, 20), mp.nstr(s, 20)))
