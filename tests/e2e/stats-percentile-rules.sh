#!/bin/sh
# Percentiles a person can trust (issue 35; analyze/stats.h D3a, D11):
#   1. exact past the old 65,536-value cap: 200,000 rows, a small-integer
#      column with ties (vmstat's r) and a wide one (swpd), against GNU
#      datamash (type 7, as benchlog's default), and `pct` says exact;
#   2. D3a by hand: p90 needs n >= 10, p95 n >= 20, p99 n >= 100; below,
#      the CSV field is empty and the text shows "-" with a note; n = 3
#      prints no p90/p95/p99 at all;
#   3. a merged partial (sketch): text marks each percentile with "≈"
#      and says the bound (within 1 %), CSV keeps plain numbers.
set -eu
command -v datamash >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

awk 'BEGIN { srand(35); print "group,r,swpd" > "big.csv";
	for (i = 0; i < 200000; i++) {
		r = int(rand() * 4); s = 100000 + int(rand() * 50000);
		printf "a,%d,%d\n", r, s > "big.csv"; printf "%d\t%d\n", r, s > "big.tsv" } }'
"$BENCHLOG" stats -q -f csv big.csv > big.out
want=$(datamash median 1 perc:95 1 perc:99 1 median 2 perc:95 2 perc:99 2 < big.tsv | tr '\t' ' ')
got=$(awk -F, 'NR > 1 { printf "%s%s %s %s", (NR > 2 ? " " : ""), $9, $11, $12 }' big.out)
[ "$got" = "$want" ] || { echo "200,000 rows: p50 p95 p99 of r, swpd: $got, datamash $want"; exit 1; }
[ "$(awk -F, 'NR > 1 { print $14 }' big.out | sort -u)" = exact ] || { echo "200,000 rows: not exact"; cat big.out; exit 1; }

# 2. n = 9, 10, 19, 20, 99, 100: which of p90, p95, p99 are shown
{ echo group,x
  for n in 9 10 19 20 99 100; do i=0; while [ $i -lt $n ]; do echo "n$n,$i"; i=$((i + 1)); done; done; } > thin.csv
"$BENCHLOG" stats -q -f csv thin.csv | awk -F, 'NR > 1 { print $2, ($10 != ""), ($11 != ""), ($12 != "") }' > thin.out
cat > thin.want <<'W'
n9 0 0 0
n10 1 0 0
n19 1 0 0
n20 1 1 0
n99 1 1 0
n100 1 1 1
W
diff thin.want thin.out || { echo "D3a: p90/p95/p99 shown for the wrong n"; exit 1; }
# n = 100, x = 0..99: p99 = x_98 + 0.01 (x_99 - x_98) = 98.01 (type 7, by hand)
"$BENCHLOG" stats -q -f csv thin.csv | grep -q '^csv,n100,x,100,49.5,.*,98.01,99,exact' ||
	{ echo "n = 100: p99 is not 98.01"; exit 1; }
# sd = sqrt(21/9), ci95 = t(0.975, 2) sd / sqrt(3) = 4.302653 * 0.881917 (R: qt(0.975, 2))
printf 'group,x\na,1\na,2\na,4\n' > three.csv
"$BENCHLOG" stats -q three.csv > three.out
grep -q '^a      x       3  2.33333  1.52753  3.79458    1    2    -    -    -    4  exact$' three.out ||
	{ echo "n = 3: p90/p95/p99 printed"; cat three.out; exit 1; }
grep -q '^-: a percentile p is shown only when n min(p, 100 - p) / 100 >= 1' three.out ||
	{ echo "n = 3: no note on the percentiles left out"; exit 1; }

# 3. sketch estimates are marked as such
"$BENCHLOG" stats -q --partial big.csv > big.part
"$BENCHLOG" stats -q --merge big.part > merged.out
[ "$(grep -c '^a      r .*≈.*≈.*≈.*≈.* sketch$' merged.out)" = 1 ] || { echo "merged: r's percentiles not marked ≈"; cat merged.out; exit 1; }
grep -q 'marked ≈, are estimated .* within 1% of the exact value' merged.out || { echo "merged: no bound said"; exit 1; }
"$BENCHLOG" stats -q -f csv --merge big.part | grep -q '≈' && { echo "CSV holds ≈"; exit 1; }
exit 0
