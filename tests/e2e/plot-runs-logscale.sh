#!/bin/sh
# The runs chart draws a panel on a log axis when the groups' means are
# more than a hundredfold apart (realworld 15's `find` runs: 0.17 s and
# 2.3 s; realworld 17's groups: 4935 s to 14952 s elapsed, by hand from
# LOG.md's blocks), and on a linear axis from 0 otherwise (CPU: 47% to
# 336%). (Realworld 05's 0.32 s run, used here before, is apt-get update
# exiting 100: a failed run, not drawn: docs/statistics.md D3c.)
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$TOP/fixtures/time"
"$BENCHLOG" plot runs -q -o "$tmp" 15-time-blog-bash-p-default-v-cn.txt 17-timev-partial-ranges-igenvar.txt 2> "$tmp/err"
gp="$tmp/runs.gp"
grep -q "set title 'Elapsed (wall-clock) (log scale)'" "$gp" || { echo "elapsed not on a log axis"; exit 1; }
grep -q "set title 'Percent of CPU this job got'$" "$gp" || { echo "CPU panel should stay linear"; exit 1; }
[ -s "$tmp/runs.png" ] || [ ! -x "$(command -v gnuplot)" ] || { echo "no PNG"; exit 1; }
