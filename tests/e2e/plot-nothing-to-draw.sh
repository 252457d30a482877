#!/bin/sh
# A time block whose one value cannot be read (fixtures/errors/badvalue.txt:
# "User time (seconds): 1.5x") is a run with nothing to draw. `plot runs`
# says so and what it needs ("the input has runs data but nothing this
# chart can draw: it needs one point per run: …", exit 1, beside the
# file:line warning); `report` draws no runs chart and
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
grep -q '^benchlog plot: the input has runs data but nothing this chart can draw: it needs one point per run: bytes_allocated of an mtest01 result or elapsed_s, cpu_pct of a time block' err ||
    { echo "plot runs: no 'nothing this chart can draw: it needs ...':"; cat err; exit 1; }
grep -q 'badvalue.txt:1: time -v: cannot read the value of "User time (seconds)": "1.5x"' err ||
    { echo "plot runs: no warning for the value:"; cat err; exit 1; }
! grep -q 'invalid usage' err || { echo "plot runs: a usage error:"; cat err; exit 1; }
# the seeds: chkmmt averages and a time block timing a latency loop, no run
rc=0
"$BENCHLOG" plot runs -q -o p "$TOP"/fixtures/seeds/*.txt > out 2> err || rc=$?
[ "$rc" -eq 1 ] || { echo "plot runs (seeds): exit $rc, not 1"; cat err; exit 1; }
grep -q 'chkmmt averages blocks are means without their runs' err ||
    { echo "plot runs (seeds): does not say what it needs:"; cat err; exit 1; }
# -q: errors only, no "wrote ..." lines
"$BENCHLOG" plot swpd -q -o p "$TOP"/fixtures/seeds/000_a7bf8587c1dba76c.txt > out 2> err
[ ! -s err ] && [ ! -s out ] || { echo "plot -q printed:"; cat out err; exit 1; }
rc=0
"$BENCHLOG" report -q -o r "$in" > out 2> err || rc=$?
[ "$rc" -eq 0 ] || { echo "report: exit $rc, not 0"; cat err; exit 1; }
! grep -q 'could not be drawn\|invalid usage' err || { echo "report: a failed chart:"; cat err; exit 1; }
test ! -e r/plots/runs.gp || { echo "report: a runs chart with nothing in it"; exit 1; }

# Runs with nothing to draw take no place among the chart's groups: 16
# such groups, then one whose block is whole, draw that one's runs.
: > g17.txt
for i in $(seq 16); do
    printf '=== group g%02d\n\tUser time (seconds): 1.5x\n\tExit status: 0\n\n' "$i" >> g17.txt
done
printf '=== group good\n\tUser time (seconds): 1.50\n\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:02.00\n\tPercent of CPU this job got: 75%%\n\tExit status: 0\n' >> g17.txt
rc=0
"$BENCHLOG" plot runs -q -o p17 --term svg --group-regex '^=== group (\S+)' g17.txt > out 2> err || rc=$?
[ "$rc" -eq 0 ] || { echo "plot runs, 16 empty groups and a good one: exit $rc"; cat err; exit 1; }
grep -q "title 'good (1 run): elapsed 2 s, CPU 75 %'" p17/runs.gp || { echo "plot runs: the good group is not drawn"; exit 1; }
! grep -q "title 'g01" p17/runs.gp || { echo "plot runs: an empty group is drawn"; exit 1; }
