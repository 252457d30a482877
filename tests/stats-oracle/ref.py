#!/usr/bin/env python3
"""Independent reference values for tests/test_stats.c.

Nothing here shares code with analyze/: the t distribution is integrated
numerically with mpmath (50 digits) instead of GSL's incomplete beta, the
Mann-Whitney U is counted over expanded samples with midranks from a sort,
and the Kolmogorov series is summed directly at high precision.

Run:  python3 tests/stats-oracle/ref.py
The output lines are what tests/test_stats.c expects (values pasted there
with this command named next to them).
"""
import math
import statistics
from mpmath import mp, mpf, quad, gamma, sqrt, pi, inf, findroot, exp

mp.dps = 50

# Data (see tests/test_stats.c for provenance: seed 001 ConTest times,
# realworld/24 cyclictest histogram).
SEED001 = {
    "noload": ([18.82, 18.67, 18.56], [18.62, 18.70, 18.95]),
    "read_load": ([31.20, 30.11, 31.03], [22.66, 23.11, 21.26]),
    "ctar_load": ([32.73, 24.48, 68.20], [27.53, 73.84, 23.68]),
    "process_load": ([25.12, 20.57, 26.16], [27.54, 27.37, 27.44]),
}
ALL_DEF = [18.82, 25.12, 32.73, 30.51, 37.13, 31.20, 22.33, 39.70,
           18.67, 20.57, 24.48, 31.33, 32.06, 30.11, 19.49, 47.46,
           18.56, 26.16, 68.20, 28.97, 29.25, 31.03, 21.81, 47.05]
ALL_TW = [18.62, 27.54, 27.53, 32.61, 42.57, 22.66, 21.63, 44.48,
          18.70, 27.37, 73.84, 25.15, 35.49, 23.11, 21.61, 42.15,
          18.95, 27.44, 23.68, 31.76, 33.40, 21.26, 20.29, 51.10]
UNEQ_A = [1.1, 2.3, 2.9, 4.0, 5.5, 6.1, 7.7]
UNEQ_B = [3.0, 3.1, 3.3, 3.2, 2.9, 3.05, 3.15, 3.22, 3.08, 3.11, 2.98]
TIES_A = [1, 2, 2, 3, 3, 3, 4, 5]
TIES_B = [3, 3, 4, 4, 5, 5, 6, 7, 7]
# realworld/24: cyclictest -h histogram, value us: (thread 0, thread 1)
CYC = [(10, 111, 5), (11, 250, 48), (12, 171, 25), (13, 2, 2), (14, 5528, 51245),
       (15, 10738, 8519), (16, 66, 73), (17, 31732, 50), (18, 11253, 15),
       (19, 99, 4), (20, 29, 3), (21, 7, 0), (22, 4, 0), (23, 3, 3),
       (24, 2, 3), (25, 2, 1), (26, 2, 1), (27, 1, 2), (31, 0, 1)]


def t_pdf(x, nu):
    nu = mpf(nu)
    return gamma((nu + 1) / 2) / (sqrt(nu * pi) * gamma(nu / 2)) * (1 + x * x / nu) ** (-(nu + 1) / 2)


def t_sf(t, nu):
    """P(T > t) for t >= 0 by numerical integration of the density."""
    t = mpf(t)
    return quad(lambda x: t_pdf(x, nu), [t, t + 10, inf])


def t_quantile(q, nu):
    """x with P(T <= x) = q, q > 0.5."""
    target = 1 - mpf(q)
    return findroot(lambda x: t_sf(x, nu) - target, mpf(2))


def welch(base, cand, conf=0.95):
    nb, nc = len(base), len(cand)
    vb = mpf(statistics.variance(base)) / nb
    vc = mpf(statistics.variance(cand)) / nc
    d = mpf(statistics.fmean(cand)) - mpf(statistics.fmean(base))
    se = sqrt(vb + vc)
    df = (vb + vc) ** 2 / (vb ** 2 / (nb - 1) + vc ** 2 / (nc - 1))
    t = d / se
    p = 2 * t_sf(abs(t), df)
    half = t_quantile((1 + mpf(conf)) / 2, df) * se
    return d, t, df, p, d - half, d + half


def pooled(base, cand, conf=0.95):
    nb, nc = len(base), len(cand)
    m2 = mpf(statistics.variance(base)) * (nb - 1) + mpf(statistics.variance(cand)) * (nc - 1)
    df = nb + nc - 2
    sp = sqrt(m2 / df)
    se = sp * sqrt(mpf(1) / nb + mpf(1) / nc)
    d = mpf(statistics.fmean(cand)) - mpf(statistics.fmean(base))
    t = d / se
    p = 2 * t_sf(abs(t), df)
    half = t_quantile((1 + mpf(conf)) / 2, df) * se
    return d, t, df, p, d - half, d + half, sp


def midranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    ties = 0.0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        r = (i + 1 + j + 1) / 2.0
        for k in range(i, j + 1):
            ranks[order[k]] = r
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    return ranks, ties


def mannwhitney(base, cand):
    pooled_v = list(base) + list(cand)
    ranks, ties = midranks(pooled_v)
    nb, nc = len(base), len(cand)
    rc = sum(ranks[nb:])
    uc = rc - nc * (nc + 1) / 2.0
    n = nb + nc
    mu = nb * nc / 2.0
    var = nb * nc / 12.0 * ((n + 1) - ties / (n * (n - 1)))
    d = uc - mu
    z = math.copysign(max(abs(d) - 0.5, 0.0), d) / math.sqrt(var)
    p = min(1.0, math.erfc(abs(z) / math.sqrt(2)))
    return uc, nb * nc - uc, ties, z, p


def ks(base, cand):
    import bisect
    a, b = sorted(base), sorted(cand)
    d = 0.0
    for x in sorted(set(a + b)):
        fa = bisect.bisect_right(a, x) / len(a)
        fb = bisect.bisect_right(b, x) / len(b)
        d = max(d, abs(fa - fb))
    en = mpf(len(a) * len(b)) / (len(a) + len(b))
    lam = (sqrt(en) + mpf("0.12") + mpf("0.11") / sqrt(en)) * d
    q = 2 * mp.nsum(lambda j: (-1) ** (j - 1) * exp(-2 * j * j * lam * lam), [1, inf])
    return d, min(max(q, 0), 1)


def f(x):
    return mp.nstr(mpf(x), 17, min_fixed=-30, max_fixed=30)


def main():
    for name, (b, c) in SEED001.items():
        d, t, df, p, lo, hi = welch(b, c)
        print(f"welch {name}: diff={f(d)} t={f(t)} df={f(df)} p={f(p)} ci=[{f(lo)}, {f(hi)}]")
        d, t, df, p, lo, hi, sp = pooled(b, c)
        print(f"pooled {name}: diff={f(d)} t={f(t)} df={df} p={f(p)} ci=[{f(lo)}, {f(hi)}] sp={f(sp)}")
    for name, b, c in (("all", ALL_DEF, ALL_TW), ("uneq", UNEQ_A, UNEQ_B)):
        d, t, df, p, lo, hi = welch(b, c)
        print(f"welch {name}: diff={f(d)} t={f(t)} df={f(df)} p={f(p)} ci=[{f(lo)}, {f(hi)}]")
        d, t, df, p, lo, hi, sp = pooled(b, c)
        print(f"pooled {name}: diff={f(d)} t={f(t)} df={df} p={f(p)} ci=[{f(lo)}, {f(hi)}] sp={f(sp)}")
    for conf in (0.95, 0.99):
        for n in (2, 3, 10, 1000):
            print(f"tq conf={conf} df={n - 1}: {f(t_quantile((1 + mpf(conf)) / 2, n - 1))}")
    for name, b, c in (("ties", TIES_A, TIES_B), ("all", ALL_DEF, ALL_TW), ("uneq", UNEQ_A, UNEQ_B)):
        uc, ub, ties, z, p = mannwhitney(b, c)
        print(f"mwu {name}: u_cand={uc} u_base={ub} ties={ties} z={z!r} p={p!r}")
        d, p = ks(b, c)
        print(f"ks {name}: d={d!r} p={f(p)}")
    t0 = [v for v, c0, c1 in CYC for _ in range(c0)]
    t1 = [v for v, c0, c1 in CYC for _ in range(c1)]
    uc, ub, ties, z, p = mannwhitney(t0, t1)
    print(f"mwu cyclictest: n={len(t0)},{len(t1)} u_cand={uc} u_base={ub} ties={ties} z={z!r} p={p!r}")
    d, p = ks(t0, t1)
    print(f"ks cyclictest: d={d!r} p={f(p)}")
    # The same with the last bucket of thread 1 (31 us, 1 value) turned
    # into an overflow count: overflow is a tie group above 27 us.
    t1o = [v for v, c0, c1 in CYC if v != 31 for _ in range(c1)] + [1e9]
    uc, ub, ties, z, p = mannwhitney(t0, t1o)
    print(f"mwu cyclictest-ovf: u_cand={uc} ties={ties} z={z!r} p={p!r}")
    for name, x in (("t0", t0), ("t1", t1)):
        print(f"cyc {name}: n={len(x)} mean={statistics.fmean(x)!r} sd={statistics.stdev(x)!r}")
    n = 10
    print(f"kolmogorov q: " + " ".join(f"{l}:{f(2 * mp.nsum(lambda j: (-1) ** (j - 1) * exp(-2 * j * j * mpf(l) ** 2), [1, inf]))}"
                                       for l in ("0.3", "0.5", "0.8", "1.0", "1.18", "1.5", "2.5")))


if __name__ == "__main__":
    main()
