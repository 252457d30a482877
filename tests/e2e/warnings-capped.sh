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
# Per run, not per input (issue 29): report -j2 parses three inputs of 6
# bad rows each in parallel; the first 10 of the run are shown, in input
# order (a.txt's 6, b.txt's first 4), then one note, and the summary
# counts 3 x 6 = 18.
bad6() {
    printf 'procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n'
    printf ' r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n'
    i=0
    while [ $i -lt 6 ]; do
        printf ' 1  0      0 23181364  11684 1362484    0    0  2402  3750  527 1255 15  6 78  1  x\n'
        i=$((i + 1))
    done
}
bad6 > a.txt; bad6 > b.txt; bad6 > c.txt
for j in 1 2; do
    rm -rf rep
    "$BENCHLOG" report -j$j -o rep a.txt b.txt c.txt > out 2> err || true
    grep '^[abc].txt:[0-9]*: vmstat row: "x" is not a number$' err | cut -d: -f1 | uniq -c |
        awk '{ printf "%s %s\n", $2, $1 }' > got
    printf 'a.txt 6\nb.txt 4\n' > want
    cmp -s got want || { echo "report -j$j: shown per input:"; cat got; cat err; exit 1; }
    n=$(grep -c '^benchlog: more "bad vmstat value" warnings are counted' err || true)
    [ "$n" = 1 ] || { echo "report -j$j: $n notes"; cat err; exit 1; }
    grep -Eq '^  warning +18  ' err || { echo "report -j$j: summary does not count 18"; cat err; exit 1; }
done
exit 0
