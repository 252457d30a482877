#!/bin/sh
# vmstat -d's counters count since boot, and its rows are samples of a
# time series: `stats` gives them no Student-t ci95 (docs/statistics.md
# D5), as it gives vmstat none, with a note saying what to read instead.
# fixtures/vmstat_disk/d-samples-handmade.txt: sda's reads_total in its
# four samples is 125937, 125940, 125952, 125952 (read off the file);
# mean 503781 / 4 = 125945.25, sd 7.88986691903 (python3
# statistics.stdev, 12 digits: D20). As if independent, D5 would say
# qt(0.975, 3) * sd / 2 = 12.55, an interval of a mean that only says how
# long the machine had been up.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
in="$TOP/fixtures/vmstat_disk/d-samples-handmade.txt"
"$BENCHLOG" parse -q -t vmstat_disk -o "$tmp/t" "$in" 2>/dev/null
for src in "$in" "$tmp/t/vmstat_disk.csv"; do
	"$BENCHLOG" stats -q -f csv -t vmstat_disk -c reads_total "$src" > "$tmp/st.csv" 2>/dev/null
	grep -qx 'vmstat_disk,d-samples-handmade,sda,reads_total,4,125945.25,7.88986691903,,125937,125946,,,,125952,exact,0,0' "$tmp/st.csv" ||
		{ cat "$tmp/st.csv"; echo "stats $src: sda reads_total: want n 4, mean 125945.25, sd 7.88986691903, ci95 empty"; exit 1; }
done
"$BENCHLOG" stats -q -t vmstat_disk -c reads_total "$in" > "$tmp/st.txt" 2>/dev/null
grep -Eq '^d-samples-handmade +sda +reads_total +4 +125945 +7.88987 +- ' "$tmp/st.txt" &&
	grep -q '^ci95: none for vmstat_disk, whose rows are samples of a time series: .*counters count since boot' "$tmp/st.txt" ||
	{ cat "$tmp/st.txt"; echo "stats: vmstat_disk's ci95 should be - with a note"; exit 1; }
exit 0
