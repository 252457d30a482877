#!/bin/sh
# Issue 37 item 7 (docs/statistics.md D18 (c), D19): two cyclictest
# files compared with --compare-all. Thread T1 of the candidate
# (fixtures/latency/cyclictest-2threads-overflow.txt) is compared with
# T1 of the baseline (realworld 24), not with T0; each row shows the
# statistic it compares on both sides (no p99 row: the candidate's
# threads hold too few samples for one, D3a).
# Expected values: from the histogram rows by hand in Python here (T1:
# sum v c / sum c over the 19 buckets = 14.147; p50 by the type 7
# rule on the expanded 60000 samples), never from benchlog.
set -eu
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
base="$TOP/fixtures/latency/24-cyclictest-h-2threads-annotated-cn.txt"
cand="$TOP/fixtures/latency/cyclictest-2threads-overflow.txt"
"$BENCHLOG" report -q --compare-all -o "$tmp/r" "$base" "$cand" 2>/dev/null || true
[ -f "$tmp/r/findings.csv" ] || { echo "no findings.csv"; exit 1; }
python3 - "$base" "$tmp/r/findings.csv" <<'PY'
import csv, re, sys
rows = [tuple(int(x) for x in l.split()) for l in open(sys.argv[1], encoding="utf-8")
        if re.match(r"^\d{6}\s+\d{6}\s+\d{6}\s*$", l)]
def side(t):
    xs = [v for r in rows for v in [r[0]] * r[1 + t]]
    xs.sort()
    def q(p):
        h = (len(xs) - 1) * p / 100; j = int(h)
        return xs[j] + (h - j) * (xs[min(j + 1, len(xs) - 1)] - xs[j])
    return len(xs), sum(xs) / len(xs), q(50), q(99)
n1, m1, p50_1, p99_1 = side(1)
assert n1 == 60000 and abs(m1 - 14.147) < 5e-4 and p50_1 == 14, (n1, m1, p50_1)
f = [r for r in csv.DictReader(open(sys.argv[2], newline="", encoding="utf-8")) if r["table"] == "latency"]
def row(col, thread):
    got = [r for r in f if r["column"] == col and r["by"].split(",")[0] == thread]
    assert len(got) == 1, (col, thread, [r["by"] for r in f])
    return got[0]
assert abs(float(row("mean", "T1")["base_mean"]) - m1) < 1e-9, row("mean", "T1")
assert float(row("p50", "T1")["base_mean"]) == p50_1, row("p50", "T1")
# the candidate's T1 has 10 samples and T0 12: p99 needs 100 (D3a), so
# no p99 row is compared (tests/e2e/latency-d3a.sh)
assert not [r for r in f if r["column"] == "p99"], [r["by"] for r in f]
n0, m0, p50_0, p99_0 = side(0)
assert abs(float(row("mean", "T0")["base_mean"]) - m0) < 1e-9
PY
