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
exit 0
