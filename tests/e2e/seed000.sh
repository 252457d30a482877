#!/bin/sh
# Seed 000: the chkmmt averages are summaries, never runs; the sample lines
# in the script's comments (# User time (seconds): 2.01 ...) are skipped
# with a reason. Expected values by hand from the seed text.
set -eu
cd "$TOP/fixtures/seeds"
f=000_a7bf8587c1dba76c.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BENCHLOG" parse -o "$tmp" "$f" 2> "$tmp/err"
[ ! -e "$tmp/time.csv" ] || { echo "time rows made from a summary or comment"; cat "$tmp/time.csv"; exit 1; }
[ ! -e "$tmp/mtest01.csv" ] || { echo "mtest01 rows made from comments"; exit 1; }
[ "$(wc -l < "$tmp/averages.csv")" -eq 3 ] || { echo "want 2 averages rows"; exit 1; }
grep -q "skipped        7  commented-out sample line" "$tmp/err" || { echo "want 7 commented-out lines"; cat "$tmp/err"; exit 1; }
# summary has no runs to average: it shows the two blocks as found (64.109
# and 49.513 s) and says that they allow no test, with no per-run table
"$BENCHLOG" summary -q "$f" > "$tmp/out" 2> "$tmp/err2" || true
grep -q "no per-run data, no test possible" "$tmp/out" || { echo "averages blocks not shown"; exit 1; }
[ "$(grep -c '^Elapsed (wall clock) time: ' "$tmp/out")" -eq 2 ] || { echo "want the 2 blocks"; exit 1; }
grep -q '^Elapsed (wall clock) time: 64.109$' "$tmp/out" || exit 1
grep -q '^Elapsed (wall clock) time: 49.513$' "$tmp/out" || exit 1
! grep -q "^field  *n  *mean" "$tmp/out" || { echo "summary invented runs"; cat "$tmp/out"; exit 1; }
exit 0
