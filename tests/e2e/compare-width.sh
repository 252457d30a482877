#!/bin/sh
# compare's text fits the terminal (issue 35; analyze/compare.h C5): the
# terminal's width when stdout is one (TIOCGWINSZ), else $COLUMNS, else
# 80. Columns are left out in the stated order (note, median, ci95, diff,
# p, m, n, mean), then long names cut with "…" but never so far that two
# names read the same; a line says what is not shown; headings and the
# footer are wrapped. Widths are counted in characters (python3).
set -eu
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seed="$TOP/fixtures/seeds/001_07df0cd7d9b0f35d.txt"
widest() { python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")))' "$1"; }

# a pipe, COLUMNS unset: 80
env -u COLUMNS "$BENCHLOG" compare -q "$seed" > "$tmp/80.txt" 2>/dev/null || [ $? -eq 1 ]
[ "$(widest "$tmp/80.txt")" -le 80 ] || { echo "pipe: lines wider than 80"; exit 1; }
grep -q '^(80 columns: not shown: note, median, ci95, diff, p, m, n, mean; long names cut' "$tmp/80.txt" ||
	{ echo "pipe: no line saying what is not shown"; exit 1; }
[ "$(grep -c '' "$tmp/80.txt")" -gt 100 ] && grep -q '^48 tests in this run\. p: Welch' "$tmp/80.txt" ||
	{ echo "pipe: footer missing"; exit 1; }
# every comparison is still there: 8 loads x 6 measures, a candidate row each
[ "$(grep -c '^ *Tweaked' "$tmp/80.txt")" = 48 ] || { echo "pipe: rows lost"; exit 1; }
COLUMNS=80 "$BENCHLOG" compare -q "$seed" 2>/dev/null | cmp -s - "$tmp/80.txt" || { echo "COLUMNS=80 differs from the default"; exit 1; }

# a $COLUMNS that is no width (negative, past 65535, not a number) is
# not there: 80, as above (strtoul read -5 as 2^64 - 5 and left nothing out)
for c in -5 65536 99999999999999999999 80x; do
	COLUMNS=$c "$BENCHLOG" compare -q "$seed" 2>/dev/null | cmp -s - "$tmp/80.txt" ||
		{ echo "COLUMNS=$c differs from the default"; exit 1; }
done

# wide: nothing left out, footer one line
COLUMNS=400 "$BENCHLOG" compare -q "$seed" > "$tmp/400.txt" 2>/dev/null || [ $? -eq 1 ]
grep -q 'not shown' "$tmp/400.txt" && { echo "400 columns: columns left out"; exit 1; }
grep -q '  changes under ±6.8% cannot be detected (80% power)$' "$tmp/400.txt" || { echo "400 columns: note missing"; exit 1; }
[ "$(grep -c 'tests in this run' "$tmp/400.txt")" = 1 ] && [ "$(widest "$tmp/400.txt")" -le 400 ] ||
	{ echo "400 columns: footer"; exit 1; }

# a terminal of 100 columns wins over $COLUMNS
if command -v script >/dev/null; then
	script -qc "stty cols 100; COLUMNS=50 '$BENCHLOG' compare -q '$seed' 2>/dev/null" /dev/null | tr -d '\r' > "$tmp/tty.txt" || true
	[ "$(widest "$tmp/tty.txt")" -le 100 ] && [ "$(widest "$tmp/tty.txt")" -gt 80 ] ||
		{ echo "terminal of 100 columns: widest line $(widest "$tmp/tty.txt")"; exit 1; }
	grep -q '^(100 columns: not shown: note, median, ci95, diff, p, m; ' "$tmp/tty.txt" || { echo "tty: dropped"; exit 1; }
fi

# long names differing at the end stay apart when cut
{ echo group,t
  for i in 1 2 3 4; do
	echo "linux-2.6.18-rc1-mm1-with-the-io-scheduler-patches-A,1$i"
	echo "linux-2.6.18-rc1-mm1-with-the-io-scheduler-patches-B,2$i"; done; } > "$tmp/long.csv"
COLUMNS=60 "$BENCHLOG" compare -q "$tmp/long.csv" > "$tmp/long.txt" 2>/dev/null || [ $? -eq 1 ]
grep -q '^linux-2.6.18-rc1-mm1-with-the-io-scheduler-patches-A *$' "$tmp/long.txt" &&
grep -q '^linux-2.6.18-rc1-mm1-with-the-io-scheduler-patches-B ' "$tmp/long.txt" ||
	{ echo "long names merged by the cut:"; cat "$tmp/long.txt"; exit 1; }
exit 0
