#!/bin/sh
# The runs chart on many groups (issue 35 item 4): at most 8 groups
# (analyze/chart.h BL_RUNS_CHART_GROUPS, one colour of the palette each),
# those with the most runs; its title names the measures drawn and counts
# the groups left out; one legend below the panels, a line per group.
# Input: 12 groups, group k with k time -v runs (elapsed k seconds, no
# CPU line): by hand, groups 5..12 are drawn, 1..4 are not.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
for k in $(seq 12); do
    for r in $(seq "$k"); do
        printf '=== group g%02d\n\tCommand being timed: "make"\n\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:%02d.00\n\tExit status: 0\n\n' "$k" "$k"
    done
done > runs.txt
rc=0
"$BENCHLOG" plot runs -q -o p --term svg --group-regex '^=== group (\S+)' runs.txt > out 2> err || rc=$?
[ "$rc" -eq 0 ] || { echo "plot runs: exit $rc"; cat err; exit 1; }
gp=p/runs.gp
grep -q "set multiplot title 'Runs: wall-clock time per run, the 8 groups with the most runs, of 12'" "$gp" ||
    { echo "title:"; grep multiplot "$gp"; exit 1; }
for k in 5 6 7 8 9 10 11 12; do
    kk=$(printf %02d "$k")
    grep -q "title 'g$kk [^']*($k runs): elapsed $k s'" "$gp" ||
        { echo "group g$kk not in the legend:"; grep "title 'g" "$gp"; exit 1; }
done
for k in 01 02 03 04; do
    ! grep -q "'g$k " "$gp" || { echo "group g$k drawn"; exit 1; }
done
# one panel (elapsed only), one legend of 8 lines
[ "$(grep -c "^ *set title 'Elapsed" "$gp")" -eq 1 ] || { echo "not one elapsed panel"; exit 1; }
! grep -q "set title 'Percent of CPU" "$gp" || { echo "a CPU panel without CPU values"; exit 1; }
grep -q 'maxrows 8$' "$gp" || { echo "legend not of 8 lines"; grep 'set key' "$gp"; exit 1; }
exit 0
