#!/bin/sh
# The runs chart draws a panel on a log axis when the groups' means are
# more than a hundredfold apart (realworld 05: 0.32 s; realworld 17: 8847 s
# mean elapsed, by hand from LOG.md's blocks), and on a linear axis from 0
# otherwise (CPU: 6% against 265.8%).
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$TOP/fixtures/time"
"$BENCHLOG" plot runs -q -o "$tmp" 05-timev-interleaved-commentary.txt 17-timev-partial-ranges-igenvar.txt 2> "$tmp/err"
gp="$tmp/runs.gp"
grep -q "set title 'Elapsed (wall-clock) (log scale)'" "$gp" || { echo "elapsed not on a log axis"; exit 1; }
grep -q "set title 'Percent of CPU this job got'$" "$gp" || { echo "CPU panel should stay linear"; exit 1; }
[ -s "$tmp/runs.png" ] || [ ! -x "$(command -v gnuplot)" ] || { echo "no PNG"; exit 1; }
