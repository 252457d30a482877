#!/bin/sh
# report and `parse` read their inputs with the same pass (parsers/pass.h).
# The tables must be identical,
# also when one group holds runs of two families (seed 001's "Tweaked
# tunables": ConTest runs and the timer loop's time block) across files.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$TOP/fixtures/seeds/001_07df0cd7d9b0f35d.txt" "$tmp/a.txt"
cp "$TOP/fixtures/seeds/001_07df0cd7d9b0f35d.txt" "$tmp/b.txt"
cp "$TOP/fixtures/mtest01/generations.txt" "$tmp/c.txt"
cd "$tmp"
"$BENCHLOG" parse -q -o P a.txt b.txt c.txt
"$BENCHLOG" report -q -j 2 -o R a.txt b.txt c.txt > /dev/null
n=0
for t in P/*.csv; do
    cmp "$t" "R/csv/$(basename "$t")" || { echo "$(basename "$t") differs between parse and report"; exit 1; }
    n=$((n + 1))
done
[ "$n" -ge 5 ] || { echo "only $n tables"; exit 1; }
# the second copy's ConTest runs continue at 4..6 in both groups
[ "$(grep -c ',Default tunables,label,6,' P/contest.csv)" -eq 8 ] || { echo "want 8 loads in run 6"; exit 1; }
