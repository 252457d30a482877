#!/bin/sh
# Seed 001 through the CLI: the latency section of `benchlog summary` shows
# what the issue asks for (28 buckets, n = 1000, min 0.192 s, max 0.385 s,
# mean 0.20774 s, median 0.209 s, 3 samples above 0.25 s, the shell time
# real 208.568 s / user 0.329 s / sys 1.260 s and the cross-check 207.74 s
# against 208.568 s), --target/--late are accepted by summary and plot and
# refused when malformed (exit 2), and `plot latency` draws a PNG.
# Expected values: the issue text and datamash over the expanded samples
# (see tests/test_latency.c).
set -eu
cd "$TOP/fixtures/seeds"
f=001_07df0cd7d9b0f35d.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BENCHLOG" summary -q "$f" > "$tmp/out"
want() {
    grep -qF -- "$1" "$tmp/out" || { echo "summary lacks: $1"; sed -n '/Latency/,$p' "$tmp/out"; exit 1; }
}
want "samples    1000 in 28 non-empty buckets"
want "mean       0.20774 s"
want "min 0.192 s   max 0.385 s"
want "p50 0.209 "
want "shell time real 208.568 s, user 0.329 s, sys 1.26 s (line 163)"
want "n x mean = 207.74 s from the histogram against real 208.568 s"
"$BENCHLOG" summary -q --target 0.2s --late 50ms "$f" > "$tmp/out"
want "target     0.2 s (--target)"
want "later than target + 50 ms: 3 (0.3%)"
# bad values are usage errors
if "$BENCHLOG" summary -q --late 10parsecs "$f" > /dev/null 2>&1; then echo "--late 10parsecs accepted"; exit 1; fi
"$BENCHLOG" summary -q --target fast "$f" > /dev/null 2>&1 && { echo "--target fast accepted"; exit 1; }
rc=0; "$BENCHLOG" plot latency -q --target x "$f" > /dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || { echo "plot --target x: exit $rc, want 2"; exit 1; }
# the chart
command -v gnuplot > /dev/null 2>&1 || exit 77
"$BENCHLOG" plot latency -q --target 0.2s -o "$tmp/plots" "$f" 2> "$tmp/err"
[ -s "$tmp/plots/latency.gp" ] || { echo "no latency.gp"; cat "$tmp/err"; exit 1; }
[ "$(wc -c < "$tmp/plots/latency.png")" -gt 10000 ] || { echo "latency.png missing or tiny"; exit 1; }
grep -q "target + 50 ms" "$tmp/plots/latency.gp" || { echo "no threshold line in the script"; exit 1; }
exit 0
