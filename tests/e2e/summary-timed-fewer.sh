#!/bin/sh
# A group of time blocks without mtest01 results ("timed runs") averages
# each field over the blocks that have it (analyze/runs.c). Bash's `time`
# and `time -p` print three times only, so beside them a `time -v` block's
# CPU and faults come from fewer runs than the heading counts: the
# summary says so under the averages.
#
# Input: two `time -p` blocks (real 1.50 / 2.50, user 0.20 / 0.40, sys
# 0.10 / 0.20) and one `time -v` block without its command line (a block
# naming another command than the others is averaged apart) (user 0.60, sys 0.30, elapsed
# 0:03.50, CPU 40%, 7 major and 1000 minor faults). By hand: user
# (0.2 + 0.4 + 0.6) / 3 = 0.400, sys 0.200, elapsed (1.5 + 2.5 + 3.5) / 3
# = 2.500; CPU, major and minor faults from the one block that has them.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tab=$(printf '\t')
cat > "$tmp/t.txt" <<EOT
2.6.0-test9
real 1.50
user 0.20
sys 0.10

real 2.50
user 0.40
sys 0.20

${tab}User time (seconds): 0.60
${tab}System time (seconds): 0.30
${tab}Percent of CPU this job got: 40%
${tab}Elapsed (wall clock) time (h:mm:ss or m:ss): 0:03.50
${tab}Major (requiring I/O) page faults: 7
${tab}Minor (reclaiming a frame) page faults: 1000
${tab}Exit status: 0
EOT
"$BENCHLOG" summary -q "$tmp/t.txt" > "$tmp/out"
sed -n '/^2.6.0-test9$/,/^field/p' "$tmp/out" > "$tmp/block"
cat > "$tmp/want" <<'EOT'
2.6.0-test9
Averages for 3 timed runs
User time (seconds): 0.400
System time (seconds): 0.200
Elapsed (wall clock) time: 2.500
Percent of CPU this job got: 40.00%
Major (requiring I/O) page faults: 7.00
Minor (reclaiming a frame) faults: 1000.00
note: averaged over the runs that have it: cpu_pct 1, major_faults 1, minor_faults 1 of 3 runs
EOT
sed '$d' "$tmp/block" | diff "$tmp/want" - || { echo "the averages block differs (want, got)"; exit 1; }

# Every run has every field: no note.
sed -n '/User time (seconds): 0.60/,$p' "$tmp/t.txt" | sed '1i 2.6.0-test9' > "$tmp/v.txt"
"$BENCHLOG" summary -q "$tmp/v.txt" > "$tmp/vout"
grep -q '^Averages for 1 timed runs$' "$tmp/vout" || { echo "no block for the time -v run:"; cat "$tmp/vout"; exit 1; }
! grep -q '^note:' "$tmp/vout" || { echo "a note where every run has every field:"; cat "$tmp/vout"; exit 1; }
