#!/bin/sh
# The report's Findings (report/findings.h F1, F3) on two files of
# mtest01 + time -v runs, one kernel each (tests/gen-mtest-logs):
#   - by default the two files are unrelated sources: not compared, and
#     one sentence per table gives the difference of the means, not tested;
#   - with --compare-all they are compared: a Findings line for elapsed_s
#     (per command, the time table's split).
# The expected difference is computed here from the logs' own text
# (m:ss.cc Elapsed lines), not by benchlog.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
python3 "$TOP/tests/gen-mtest-logs" a.log 4 1 tab
python3 "$TOP/tests/gen-mtest-logs" b.log 4 2 tab
want=$(python3 - <<'PY'
import re
def mean(p):
    v = [int(m) * 60 + float(s) for m, s in re.findall(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\d+):([\d.]+)", open(p).read())]
    return sum(v) / len(v)
a, b = mean("a.log"), mean("b.log")
d = 100 * (b - a) / abs(a)
print("%+.1f%%" % d, ("\u2212" if d < 0 else "+") + "%.1f %%" % abs(d))
PY
)
set -- $want
"$BENCHLOG" report -q -o r a.log b.log 2>/dev/null
grep -q "^Table time: a and b come from different sources and are not compared .*elapsed\\\\_s $1" r/report.md \
	|| { sed -n '/^## Findings/,/^## Inputs/p' r/report.md; echo "want the untested difference elapsed_s $1"; exit 1; }
"$BENCHLOG" report -q --compare-all -o r2 a.log b.log 2>/dev/null
grep -q "^| time | elapsed\\\\_s[^|]* | a → b | $2 $3 \[" r2/report.md \
	|| { sed -n '/^## Findings/,/^## Inputs/p' r2/report.md; echo "want a Findings line elapsed_s $2 $3"; exit 1; }
# F2: the three seeds' Findings in order of practical importance: the
# significant first, then the other tested lines, then the untested
# (averages only, too few runs, no test), negligible last; the larger
# |change| first within each
"$BENCHLOG" report -q -o r3 "$TOP"/fixtures/seeds/*.txt 2>/dev/null
python3 - r3/report.md <<'PY'
import sys
rank = {"better": 0, "worse": 0, "higher": 0, "lower": 0, "no detectable change": 1,
        "averages only, no test possible": 2, "too few runs": 3, "no test": 4, "negligible": 5}
text = open(sys.argv[1], encoding="utf-8").read()
sec = text.split("## Findings", 1)[1].split("\n## ", 1)[0]
rows = [l.split(" | ") for l in sec.splitlines() if l.startswith("| ") and " → " in l and not l.startswith("| table ")]
key = []
for r in rows:
    verdict = r[6].rstrip(" |")
    v = next(k for k in rank if verdict.startswith(k))
    ch = r[3].split(" [")[0].replace("\u2212", "-").replace(" %", "")
    key.append((rank[v], -abs(float(ch)) if ch else 0.0))
assert len(rows) > 40 and key == sorted(key), [r[6] for r in rows]
assert key[0][0] == 0 and key[-1][0] == 5
PY
# issue 27 item 5: `compare` gives the report's numbers: on the three
# seeds (48 tests either way) every contest row of findings.csv has the
# same p, Holm and BH p, Fieller interval, band and test count in
# compare's CSV
"$BENCHLOG" compare -q -f csv "$TOP"/fixtures/seeds/*.txt > cmp.csv 2>/dev/null || true
python3 - r3/findings.csv cmp.csv <<'PY'
import csv, sys
f = [r for r in csv.DictReader(open(sys.argv[1])) if r["table"] == "contest"]
c = {(r["load"], r["column"], r["baseline"], r["candidate"]): r for r in csv.DictReader(open(sys.argv[2]))
     if r["table"] == "contest"}
assert len(f) == 48, len(f)
for r in f:
    k = c[(r["by"], r["column"], r["baseline"], r["candidate"])]
    for a, b in (("p", "p"), ("p_holm", "p_holm"), ("p_bh", "p_bh"), ("pct_lo", "pct_lo"),
                 ("pct_hi", "pct_hi"), ("tests", "tests"), ("verdict", "verdict")):
        x, y = r[a], k[b]
        same = x == y or (x and y and abs(float(x) - float(y)) <= 1e-12 * max(1, abs(float(x))))
        assert same, (r["by"], r["column"], a, x, y)
PY
exit 0
