#!/bin/sh
# The vmstat `series` column is unique in a run of benchlog (docs/csv.md),
# also when compare reads the logs on either side of a CSV table in two
# passes: base.txt's capture is series 1 and cand.txt's series 2, as
# `parse` numbers them, so compare's label says "series 1 (...) → 2", not
# "series 1 → 1" (two captures that read as one).
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
L=' r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa'
printf '%s\n' "$L" ' 0  0  20000  50000   1000  30000   10   20     0     0  100  200  1  1 98  0' \
	' 0  0  40000  40000   1000  30000   30   60     0     0  100  200  1  1 98  0' > base.txt
printf '%s\n' "$L" ' 0  0  30000  50000   1000  30000   50  100     0     0  100  200  1  1 98  0' \
	' 0  0  60000  40000   1000  30000   70  300     0     0  100  200  1  1 98  0' > cand.txt
printf 'group,x\na,1\na,2\nb,3\nb,4\n' > mid.csv
"$BENCHLOG" parse -q -t vmstat base.txt cand.txt | awk -F, 'NR > 1 { print $7, $11 }' | sort -u > parse.txt
printf 'base 1\ncand 2\n' | cmp -s - parse.txt || { cat parse.txt; echo "parse: want base series 1, cand 2"; exit 1; }
for args in "base.txt cand.txt" "base.txt mid.csv cand.txt"; do
	"$BENCHLOG" compare -q -f csv -t vmstat -c swpd $args > cmp.csv 2>/dev/null
	grep -q '"mean, series 1 (n_eff [0-9.]*) → 2 (n_eff [0-9.]*)"' cmp.csv ||
		{ cat cmp.csv; echo "compare $args: want series 1 → 2"; exit 1; }
done
exit 0
