#!/bin/sh
# Progress within one large file (issue 29): on a terminal, report's
# progress line counts the bytes read inside the file being parsed, with
# the share and the time left ("0/1 files, 58.7 of 134.4 MB (43%), 56.9
# MB/s, 0:01 left"), at most 4 lines a second. The terminal is script(1)'s pseudo-terminal; the report is
# interrupted once the parse is over (its charts of 1.6 million rows are
# not what is tested).
set -eu
command -v script >/dev/null || exit 77
command -v timeout >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
# 134 MB: 1.6 million vmstat rows under one header, so the parse alone
# takes more than the second before the first progress line
row=' 1  0      0 23181364  11684 1362484    0    0  2402  3750  527 1255 15  6 78  1  0'
{ printf '$ vmstat 1\nprocs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n'
  printf ' r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n'
  printf '%s\n' "$row" "$row" "$row" "$row" "$row" "$row" "$row" "$row" > r8
  cat r8 r8 r8 r8 r8 r8 r8 r8 > r64; cat r64 r64 r64 r64 r64 r64 r64 r64 > r512
  cat r512 r512 r512 r512 r512 r512 r512 r512 > r4k; cat r4k r4k r4k r4k r4k r4k r4k r4k > r32k
  for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 \
           33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49; do cat r32k; done; } > big.txt
rm -f r8 r64 r512 r4k r32k
size=$(wc -c < big.txt)
script -qec "timeout -s INT 5 $BENCHLOG report -j2 -o rep big.txt" /dev/null < /dev/null > tty.out || true
tr '\r' '\n' < tty.out | grep -a '^benchlog: [01]/1 files' > lines || { echo "no progress line"; cat tty.out | head -5; exit 1; }
mb=$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1e6 }')
# a line from inside the file: 0 of 1 files done, a share below 100 %
grep -Eq "^benchlog: 0/1 files, [0-9.]+ of $mb MB \\([0-9]%\\)|^benchlog: 0/1 files, [0-9.]+ of $mb MB \\([1-9][0-9]%\\)" lines ||
    { echo "no progress within the file:"; cat lines; exit 1; }
grep -Eq ', [0-9.]+ MB/s, [0-9]+:[0-9][0-9] left' lines || { echo "no rate or time left:"; cat lines; exit 1; }
# (stderr not a terminal, no progress: tests/e2e/report-progress.sh)
exit 0
