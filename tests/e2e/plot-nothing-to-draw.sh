#!/bin/sh
# A time block whose one value cannot be read (fixtures/errors/badvalue.txt:
# "User time (seconds): 1.5x") is a run with nothing to draw. `plot runs`
# says so ("the input has runs data but nothing this chart can draw",
# exit 1, beside the file:line warning); `report` draws no runs chart and
# warns of no failed one (exit 0). Neither calls it a usage error: the
# plot library's "invalid usage" is for its callers' mistakes, not for
# data.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
in="$TOP/fixtures/errors/badvalue.txt"
rc=0
"$BENCHLOG" plot runs -q -o p "$in" > out 2> err || rc=$?
[ "$rc" -eq 1 ] || { echo "plot runs: exit $rc, not 1"; cat err; exit 1; }
grep -q '^benchlog plot: the input has runs data but nothing this chart can draw$' err ||
    { echo "plot runs: no 'nothing this chart can draw':"; cat err; exit 1; }
grep -q 'badvalue.txt:1: time -v: cannot read the value of "User time (seconds)": "1.5x"' err ||
    { echo "plot runs: no warning for the value:"; cat err; exit 1; }
! grep -q 'invalid usage' err || { echo "plot runs: a usage error:"; cat err; exit 1; }
rc=0
"$BENCHLOG" report -q -o r "$in" > out 2> err || rc=$?
[ "$rc" -eq 0 ] || { echo "report: exit $rc, not 0"; cat err; exit 1; }
! grep -q 'could not be drawn\|invalid usage' err || { echo "report: a failed chart:"; cat err; exit 1; }
test ! -e r/plots/runs.gp || { echo "report: a runs chart with nothing in it"; exit 1; }
