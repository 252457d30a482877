#!/bin/sh
# --term dumb charts a person can read (issue 35 item 5): on seed 001,
# the ConTest key names the character each group's bars are drawn with
# (dumb has no colours), the y label stands beside the tic numbers, not
# over them, and the latency marks' labels are not cut by the other
# marks' lines ("target 0.2 s", not "t|rget 0.2 s").
set -eu
command -v gnuplot >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seed="$TOP/fixtures/seeds/001_07df0cd7d9b0f35d.txt"
"$BENCHLOG" plot contest --term dumb -q -o "$tmp/c" "$seed" > "$tmp/contest.txt"
grep -q 'Default tunables \[\*\] *Tweaked tunables \[#\]' "$tmp/contest.txt" ||
    { echo "contest key without its characters:"; head -5 "$tmp/contest.txt"; exit 1; }
grep -q '^ *Time (s) *40 |' "$tmp/contest.txt" || { echo "contest y label over the tics:"; cat "$tmp/contest.txt"; exit 1; }
"$BENCHLOG" plot latency --term dumb -q -o "$tmp/l" "$seed" > "$tmp/latency.txt"
for l in 'target 0.2 s' 'target + 10 ms' 'target + 50 ms' 'target + 100 ms'; do
    grep -qF "$l" "$tmp/latency.txt" || { echo "latency: \"$l\" not readable:"; head -16 "$tmp/latency.txt"; exit 1; }
done
exit 0
