#!/bin/sh
# D20 (docs/statistics.md): a computed value from 10^12 to 10^15 in size
# is written with every whole digit and no fraction, in CSV as in the
# text table (one rule, bl_fmt_stat). Three values of 15 digits,
# 780864197253085 twice and 780864197253086: the mean is
# 780864197253085 + 1/3 by hand, so both formats write 780864197253085
# (CSV wrote 780864197253085.4 and text 780864197253085). min and max are
# the input's own, as written.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'group,x\na,780864197253085\na,780864197253085\na,780864197253086\n' > "$tmp/big.csv"
"$BENCHLOG" stats -q -f csv -c x "$tmp/big.csv" > "$tmp/st.csv"
awk -F, 'NR == 2 { ok = $4 == "3" && $5 == "780864197253085" && $8 == "780864197253085" && $13 == "780864197253086" } END { exit !ok }' "$tmp/st.csv" ||
	{ cat "$tmp/st.csv"; echo "stats CSV: want n 3, mean 780864197253085 (whole digits, D20)"; exit 1; }
"$BENCHLOG" stats -q -c x "$tmp/big.csv" > "$tmp/st.txt"
grep -Eq '^a +x +3 +780864197253085 ' "$tmp/st.txt" ||
	{ cat "$tmp/st.txt"; echo "stats text: want mean 780864197253085"; exit 1; }
# The same three values in a vmstat capture's `in` column, after its
# since-boot row (5, left out): summary's and report.md's series table
# write the mean as stats does, 780864197253085 (they wrote
# 780864197253085.38: two decimals of a double that near 10^15 shows its
# rounding); the median is 780864197253085; sd sqrt(1/3) = 0.577 stays
# 0.58.
{
	echo 'procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----'
	echo ' r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa'
	for v in 5 780864197253085 780864197253085 780864197253086; do
		echo "1 0 0 10 20 30 0 0 0 0 $v 5 5 5 90 0"
	done
} > "$tmp/vm.txt"
"$BENCHLOG" stats -q -t vmstat -c in "$tmp/vm.txt" > "$tmp/vst.txt"
grep -Eq '^vm +in +3 +780864197253085 ' "$tmp/vst.txt" ||
	{ cat "$tmp/vst.txt"; echo "stats vmstat: want mean 780864197253085"; exit 1; }
"$BENCHLOG" summary -q "$tmp/vm.txt" > "$tmp/vsum.txt"
grep -Eq '^  in +3 +780864197253085 +0\.58 +780864197253085 +780864197253085 ' "$tmp/vsum.txt" ||
	{ grep -E '^  (column|in) ' "$tmp/vsum.txt"; echo "summary: want mean and median 780864197253085 (D20)"; exit 1; }
"$BENCHLOG" report -q -o "$tmp/rep" "$tmp/vm.txt"
grep -q '^| in | 3 | 780864197253085 | 0.58 | 780864197253085 | 780864197253085 |' "$tmp/rep/report.md" ||
	{ grep '^| in ' "$tmp/rep/report.md"; echo "report.md: want mean and median 780864197253085 (D20)"; exit 1; }
exit 0
