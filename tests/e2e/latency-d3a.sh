#!/bin/sh
# D3a wherever a latency percentile is read (docs/statistics.md D3a, D17,
# D18 (c)): the one rule that hides a percentile in the percentile line
# hides it in the lateness line, in report.md and in the Findings too.
#   1. Seed 001: 1000 samples. p99.99 needs n >= 10000 (n min(p, 100 - p)
#      / 100 >= 1), so it is "-" in both lines. p99.9 needs 1000: shown.
#      By hand from the buckets (lines 159-162: ... 0.303: 1, 0.304: 1,
#      0.385: 1): h = 999 * 0.999 = 998.001, x_(998) = 0.304, x_(999) =
#      0.385, p99.9 = 0.304 + 0.001 * 0.081 = 0.304081; the target is the
#      script's sleep(.2), so its lateness is +0.104081.
#   2. Two cyclictest files whose candidate threads hold 12 and 10
#      samples: p99 needs 100, so no p99 row is compared (findings.csv,
#      report.md leave it out; compare shows it empty, saying why), while the baseline's 60000-sample threads keep theirs
#      in the summary.
set -eu
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
s001="$TOP/fixtures/seeds/001_07df0cd7d9b0f35d.txt"
"$BENCHLOG" summary -q "$s001" > "$tmp/s.txt" 2>/dev/null
grep -q '^  percentile .* p99.9 0.304081   p99.99 -  (s)$' "$tmp/s.txt" ||
	{ grep percentile "$tmp/s.txt"; echo "summary: want p99.9 0.304081, p99.99 -"; exit 1; }
grep -q '^  lateness .*, p99.9 +0.104081, p99.99 -; ' "$tmp/s.txt" ||
	{ grep lateness "$tmp/s.txt"; echo "summary lateness: want p99.9 +0.104081, p99.99 -"; exit 1; }
"$BENCHLOG" report -q -o "$tmp/r" "$s001" 2>/dev/null
grep -q '^- lateness: .*, p99.9 +0.104081, p99.99 -; ' "$tmp/r/report.md" ||
	{ grep lateness "$tmp/r/report.md"; echo "report lateness: want p99.99 -"; exit 1; }
grep -q '| 0.304081 | - | 0.385 |$' "$tmp/r/report.md" ||
	{ grep '0.304081' "$tmp/r/report.md"; echo "report: want p99.99 -"; exit 1; }

base="$TOP/fixtures/latency/24-cyclictest-h-2threads-annotated-cn.txt"
cand="$TOP/fixtures/latency/cyclictest-2threads-overflow.txt"
"$BENCHLOG" report -q --compare-all -o "$tmp/c" "$base" "$cand" 2>/dev/null || true
python3 - "$tmp/c/findings.csv" <<'PY'
import csv, sys
cols = [r["column"] for r in csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8"))
        if r["table"] == "latency"]
assert cols.count("mean") == 2, cols
assert "p99" not in cols, ("a p99 of 10 or 12 samples compared (D3a)", cols)
PY
"$BENCHLOG" compare -q -f csv "$base" "$cand" 2>/dev/null > "$tmp/cmp.csv" || true
python3 - "$tmp/cmp.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8"))
        if r["table"] == "latency" and r["column"] == "p99"]
assert len(rows) == 2, rows
for r in rows:
    assert r["cand_mean"] == "" and r["verdict"] == "no test", r
    assert r["note"] == "p99 needs 100 samples a side (D3a)", r
PY
grep -q '| latency | p99' "$tmp/c/report.md" && { echo "report.md: a p99 of 10 or 12 samples compared"; exit 1; }
grep -Eq '^- lateness: .*, p99 -, p99\.9 -, p99\.99 -; ' "$tmp/c/report.md" ||
	{ grep lateness "$tmp/c/report.md"; echo "report: 12 samples, want p99 and beyond -"; exit 1; }
exit 0
