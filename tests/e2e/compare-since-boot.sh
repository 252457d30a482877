#!/bin/sh
# vmstat -d's counters count since boot, and its rows are samples of a
# time series: `compare` and the report's Findings run no t-test on them
# (docs/statistics.md D6), as `stats` gives them no ci95 (D5), and say why
# where the user reads: compare on stderr, report.md under the Findings.
# Made by hand in procps' layout: sda's reads_total 125937, 125940, 125952
# before and 125960, 125990, 126001 after; a Welch test took them for
# three independent runs a side ("+0.032 %, negligible").
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
hdr='disk- ------------reads------------ ------------writes----------- -----IO------
       total merged sectors      ms  total merged sectors      ms    cur    sec'
for side in before after; do
	echo "$side:"
	echo '$ vmstat -n -d 1 3'
	echo "$hdr"
	if [ "$side" = before ]; then r='125937 125940 125952'; else r='125960 125990 126001'; fi
	for x in $r; do
		echo "sda   $x  20763 7813791   46262 216410 185513 19561802 1263714      0    372"
	done
	echo
done > "$tmp/vd.txt"
why='not tested: its rows are samples of a time series, which a t-test would take for independent runs (D6); its counters count since boot'
"$BENCHLOG" compare -q -f csv -t vmstat_disk "$tmp/vd.txt" > "$tmp/c.csv" 2> "$tmp/c.err" || true
! grep -q '^vmstat_disk' "$tmp/c.csv" &&
	grep -q "^benchlog compare: table vmstat_disk $why" "$tmp/c.err" ||
	{ cat "$tmp/c.csv" "$tmp/c.err"; echo "compare: vmstat_disk should be left out of tests, with the reason"; exit 1; }
"$BENCHLOG" report -q -o "$tmp/rep" "$tmp/vd.txt"
! grep -q '^vmstat_disk' "$tmp/rep/findings.csv" &&
	grep -q "^Table vmstat\\\\_disk: $why" "$tmp/rep/report.md" ||
	{ grep -n 'vmstat' "$tmp/rep/findings.csv" "$tmp/rep/report.md"; echo "report: no Findings row for vmstat_disk, and the reason"; exit 1; }
exit 0
