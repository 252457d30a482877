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
# for people: 2-3 significant digits (compare.h bl_fmt_pct_person)
a = abs(d)
t = "%.0f" % a if a >= 9.95 else "%.1f" % a if a >= 0.995 else "%.2g" % a
print(("-" if d < 0 else "+") + t + "%", ("\u2212" if d < 0 else "+") + t + " %")
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
rank = {"faster": 0, "slower": 0, "more ": 0, "less ": 0, "fewer ": 0, "higher": 0, "lower": 0,
        "no change detected": 1,
        "averages only, no test possible": 2, "too few runs": 3, "no test": 4, "negligible": 5}
text = open(sys.argv[1], encoding="utf-8").read()
sec = text.split("## Findings", 1)[1].split("\n## ", 1)[0]
# F5: the full table is the one in <details>; the changed rows above it
# are its first rows
changed, sec = sec.split("<details>", 1)
rows = [l.split(" | ") for l in sec.splitlines() if l.startswith("| ") and " → " in l and not l.startswith("| table ")]
key = []
for r in rows:
    verdict = r[5].rstrip(" |")
    v = next(k for k in rank if verdict.startswith(k))
    ch = r[3].split(" [")[0].replace("\u2212", "-").replace(" %", "").replace("<", "")
    key.append((rank[v], -abs(float(ch)) if ch else 0.0))
assert len(rows) > 40 and key == sorted(key), [r[5] for r in rows]
assert key[0][0] == 0 and key[-1][0] == 5
first = [l for l in changed.splitlines() if l.startswith("| ") and " → " in l and not l.startswith("| table ")]
assert first and first == [" | ".join(r) for r in rows[:len(first)]], first
assert all(next(k for k in rank if r.split(" | ")[5].startswith(k)) in
           ("faster", "slower", "more ", "less ", "fewer ", "higher", "lower") for r in first), first
PY
# issue 27 item 5: `compare` gives the report's numbers (analyze/compare.h
# C4: both make their rows with bl_analyses_findings()). same_rows checks
# that every row of the report's findings.csv is in compare's CSV (by
# table, by, column, baseline and candidate) with the same n, means,
# change, Fieller interval, p, Holm and BH p, test count, detectable
# change and verdict, and that compare's other rows are those F4 leaves
# out of the Findings (no values on a side: no difference). The report's
# numbers are checked against independent oracles elsewhere: contest by
# compare-adjust-r.sh and stats-seeds.sh (R's p.adjust, ref.py), vmstat
# by report-vmstat-findings.sh (R: acf, pt, Fieller by uniroot), latency
# by report-latency-findings.sh (R: wilcox.test, ks.test).
same_rows() {   # same_rows FINDINGS.CSV COMPARE.CSV MIN_ROWS TABLES...
    python3 - "$@" <<'PY'
import csv, sys
fpath, cpath, least, tables = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
key = lambda r: (r["table"], r["by"], r["column"], r["baseline"], r["candidate"])
num = ("base_n", "cand_n", "base_mean", "cand_mean", "pct_change", "pct_lo", "pct_hi", "p", "p_holm",
       "p_bh", "tests", "detectable_pct", "p_adj", "pct_lo_unadj", "pct_hi_unadj")
def differs(r, k):   # the first field where compare's row k is not the report's r
    for a in num:
        x, y = r[a], k[a]
        if not (x == y or (x != "" and y != "" and abs(float(x) - float(y)) <= 1e-12 * max(1, abs(float(x))))):
            return (a, x, y)
    if r["verdict"] != k["verdict"]:
        return ("verdict", r["verdict"], k["verdict"])
    # compare's note of "no change detected" starts with D16's change
    if not (k["note"] == r["note"] or (k["note"].startswith("changes under ±") and k["note"].endswith(r["note"]))):
        return ("note", r["note"], k["note"])
    return None
f = [r for r in csv.DictReader(open(fpath, newline="")) if r["table"] in tables]
c = {}   # a key may name several rows (threads of one name in several sources)
for r in csv.DictReader(open(cpath, newline="")):
    if r["table"] in tables:
        c.setdefault(key(r), []).append(r)
assert len(f) >= least, (fpath, len(f))
for r in f:
    ks = c.get(key(r), [])
    assert ks, ("not in compare", key(r))
    why = [differs(r, k) for k in ks]
    assert None in why, (key(r), why)
    del ks[why.index(None)]
left = [k for v in c.values() for k in v]
for k in left:
    assert k["diff"] == "" and k["pct_change"] == "", ("only in compare", key(k))
PY
}
"$BENCHLOG" compare -q -f csv "$TOP"/fixtures/seeds/*.txt > cmp.csv 2>/dev/null || true
same_rows r3/findings.csv cmp.csv 48 contest
# the three seeds: 48 contest tests, the number in compare's text
"$BENCHLOG" compare -q "$TOP"/fixtures/seeds/*.txt 2>/dev/null | grep -q '^48 tests in this run\. ' ||
    { echo "compare on the seeds: not 48 tests"; exit 1; }
# vmstat (D18 (a), (b)): two kernels of one file, series means with n_eff
# and iterations' peaks; the text states the report's number of tests
ev="$TOP/fixtures/vmstat/e-events.txt"
"$BENCHLOG" report -q -o rv "$ev" 2>/dev/null
"$BENCHLOG" compare -q -f csv "$ev" > cv.csv 2>/dev/null
same_rows rv/findings.csv cv.csv 6 vmstat mtest01
m=$(python3 -c 'import csv, sys; print(sum(r["p"] != "" for r in csv.DictReader(open(sys.argv[1]))))' rv/findings.csv)
"$BENCHLOG" compare -q "$ev" 2>/dev/null | grep -q "^$m tests in this run\\. " ||
    { echo "compare on $ev: not $m tests"; exit 1; }
# seed 000 (its vmstat stream, with stutter marked: the iteration where
# stutter ended) and the same file, as the report compares them when told
# to (--compare-all; compare compares all), also with --baseline and
# --negligible
s000="$TOP/fixtures/seeds/000_a7bf8587c1dba76c.txt"
"$BENCHLOG" report -q --compare-all -o r0 "$s000" "$ev" 2>/dev/null
"$BENCHLOG" compare -q -f csv "$s000" "$ev" > c0.csv 2>/dev/null
same_rows r0/findings.csv c0.csv 7 vmstat averages time mtest01
grep -q '^vmstat,"where stutter ended, per iteration",' r0/findings.csv ||
    { echo "seed 000: no stutter iteration row"; exit 1; }
opts="--baseline 2.4.12aa1 --negligible swpd=400% --negligible 2%"
"$BENCHLOG" report -q $opts -o r0b "$s000" "$ev" 2>/dev/null
"$BENCHLOG" compare -q -f csv $opts "$s000" "$ev" > c0b.csv 2>/dev/null
same_rows r0b/findings.csv c0b.csv 7 vmstat averages time mtest01
grep -q '^vmstat,"mean, series [^"]*",[^,]*,,swpd,2\.4\.12aa1,2\.4\.13-pre2aa1,.*,negligible,,' r0b/findings.csv ||
    { grep '^vmstat' r0b/findings.csv; echo "--negligible swpd=400% not applied"; exit 1; }
# latency (D18 (c)): p50 by Mann-Whitney, p99 by Kolmogorov-Smirnov, the
# share late; --late as the report takes it
python3 "$TOP/tests/gen-latency-pair" "$TOP/fixtures/seeds/001_07df0cd7d9b0f35d.txt" .
"$BENCHLOG" report -q -o rl lat.txt 2>/dev/null
"$BENCHLOG" compare -q -f csv lat.txt > cl.csv 2>/dev/null
same_rows rl/findings.csv cl.csv 3 latency
"$BENCHLOG" report -q --late 5ms -o rl5 lat.txt 2>/dev/null
"$BENCHLOG" compare -q -f csv --late 5ms lat.txt > cl5.csv 2>/dev/null
same_rows rl5/findings.csv cl5.csv 3 latency
grep -q 'later than target + 5 ms' cl5.csv || { cat cl5.csv; echo "compare --late 5ms not applied"; exit 1; }
# every log of fixtures/ (compare would read its CSV files as tables, the
# report as text): at least 400 Findings rows
mkdir fx
(cd "$TOP/fixtures" && find . -type f ! -name '*.csv' ! -name '*.csv.gz') | while IFS= read -r f; do
    mkdir -p "fx/${f%/*}" && cp "$TOP/fixtures/$f" "fx/$f"
done
"$BENCHLOG" report -q --compare-all -o rx fx 2>/dev/null
"$BENCHLOG" compare -q -f csv fx > cx.csv 2>/dev/null
same_rows rx/findings.csv cx.csv 400 vmstat latency contest contest_report time mtest01 averages
exit 0
