#!/bin/sh
# The report's Findings a source at a time (analyze/compare.h C8): a
# question lives in one file, so adding another file never changes it.
# b.log posts 2.6.2 first (real 5, 6, 7 s) and 2.6.1 after (8, 10, 12 s);
# a.log, read before it, posts 2.6.1 first. Alone or after a.log, b.log's
# question is 2.6.2 -> 2.6.1, means 6 and 10 s, +66.7 % (by hand:
# 100 (10 - 6) / 6); a.log's is 2.6.1 -> 2.6.2, 11 -> 22 s, +100 %.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
side() { printf '%s\n' "$1"; shift; for r in "$@"; do printf 'real\t0m%ss\nuser\t0m1.0s\nsys\t0m1.0s\n' "$r"; done; echo; }
{ side 2.6.1 10.0 11.0 12.0; side 2.6.2 20.0 22.0 24.0; } > a.log
{ side 2.6.2 5.0 6.0 7.0; side 2.6.1 8.0 10.0 12.0; } > b.log
"$BENCHLOG" report -q -o r1 b.log
"$BENCHLOG" report -q -o r2 a.log b.log
row() { python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["column"] == "elapsed_s" and r["source"] == sys.argv[2]:
        print("%s|%s|%s|%s|%.4f" % (r["baseline"], r["candidate"], r["base_mean"], r["cand_mean"], float(r["pct_change"])))' "$@"; }
want_b='2.6.2|2.6.1|6|10|66.6667'
want_a='2.6.1|2.6.2|11|22|100.0000'
for got in "$(row r1/findings.csv b.log)" "$(row r2/findings.csv b.log)"; do
    [ "$got" = "$want_b" ] || { echo "b.log: got $got, want $want_b"; exit 1; }
done
got=$(row r2/findings.csv a.log)
[ "$got" = "$want_a" ] || { echo "a.log: got $got, want $want_a"; exit 1; }
exit 0
