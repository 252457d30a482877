#!/bin/sh
# Repeated warnings (issue 29): the first 10 of one kind are printed, then
# one note, and the line-accounting summary counts them all.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
{ printf 'procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n'
  printf ' r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n'
  i=0
  while [ $i -lt 15 ]; do
      printf ' 1  0      0 23181364  11684 1362484    0    0  2402  3750  527 1255 15  6 78  1  x\n'
      i=$((i + 1))
  done; } > bad.txt
"$BENCHLOG" parse -t vmstat bad.txt > out 2> err || true
n=$(grep -c '^bad.txt:[0-9]*: vmstat row: "x" is not a number$' err || true)
[ "$n" = 10 ] || { echo "$n warning lines, want 10"; cat err; exit 1; }
grep -q '^benchlog: more ".*" warnings are counted, not shown (the first 10 are above)$' err ||
    { echo "no note"; cat err; exit 1; }
grep -Eq '^  warning +15  ' err || { echo "summary does not count 15"; cat err; exit 1; }
exit 0
