#!/bin/sh
# The Findings keep at most the first 100 rows (report/findings.h F8) and
# stream every row to findings.csv and report.sqlite. 150 files, each one
# question: "base" (real 10, 11, 12 s; user 1 s; sys 1 s) against
# "patched" (real 20, 22, 24 s; user 2 s; sys 0.5 s). By hand: 3 measures
# a file, 450 rows; elapsed 11 -> 22 s, +100 %; report.md shows 100 rows
# and says 350 more are not shown; the headline names 8 questions and
# counts the other 142.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/in"
i=1
while [ $i -le 150 ]; do
    {
        printf 'base:\n'
        for r in 10.0 11.0 12.0; do printf 'real\t0m%ss\nuser\t0m1.0s\nsys\t0m1.0s\n\n' $r; done
        printf 'patched:\n'
        for r in 20.0 22.0 24.0; do printf 'real\t0m%ss\nuser\t0m2.0s\nsys\t0m0.5s\n\n' $r; done
    } > "$tmp/in/f$i.log"
    i=$((i + 1))
done
"$BENCHLOG" report -q -o "$tmp/r" "$tmp/in"
fail=0
got=$(python3 -c '
import csv, sys, collections
rows = list(csv.DictReader(open(sys.argv[1])))
per = collections.Counter(r["source"] for r in rows)
el = [r for r in rows if r["column"] == "elapsed_s"]
ok = all(r["baseline"] == "base" and r["candidate"] == "patched" and float(r["base_mean"]) == 11
         and float(r["cand_mean"]) == 22 and abs(float(r["pct_change"]) - 100) < 1e-9 for r in el)
print(len(rows), len(per), set(per.values()), len(el), ok)' "$tmp/r/findings.csv")
want="450 150 {3} 150 True"
[ "$got" = "$want" ] || { echo "findings.csv: got $got, want $want"; fail=1; }
n=$(sqlite3 "$tmp/r/report.sqlite" 'SELECT count(*), count(DISTINCT source) FROM findings')
[ "$n" = "450|150" ] || { echo "report.sqlite findings: got $n, want 450|150"; fail=1; }
grep -q '^350 more comparisons are not shown; every one is in \[findings.csv\](findings.csv): ' "$tmp/r/report.md" ||
    { echo "report.md does not say 350 more comparisons"; fail=1; }
grep -q '^142 more comparisons of a candidate with its baseline' "$tmp/r/report.md" ||
    { echo "the headline does not count 142 more questions"; fail=1; }
rows=$(sed -n '/<summary>All 450 comparisons/,/^<\/details>/p' "$tmp/r/report.md" | grep -c '^| time |' || true)
[ "$rows" = 100 ] || { echo "report.md's full table: $rows rows, want 100"; fail=1; }
exit $fail
