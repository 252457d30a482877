#!/bin/sh
# A vmstat table pasted again in the same file, after prose or under a
# label, is a copy (core/block.h B1, B4): the vmstat parser holds prose
# lines as possible events (parsers/vmstat.c V8), so the dispatcher never
# sees them as the text that ends a block; the parser ends the block when
# it gives them back or takes one as a label.
# Expected values by hand, from the files written here: each paste is 4
# rows (3 before the interjection, 1 after) and the interjection's
# `events` record, 5 records a block; copy_of is FILE:LINE of the first
# paste's first row.
# - p3.txt: labels "first paste" (line 1), "again" (line 11), "and again"
#   (line 21), each with a blank line, then the table (header lines 3-4,
#   13-14, 23-24; rows 5-7, 9; 15-17, 19; 25-27, 29) and a blank line:
#   10 records in 2 blocks, copy_of p3.txt:5.
# - p2.txt: the table (header 1-2, rows 3-5, 7), a sentence on line 8, two
#   blank lines, the table again (header 11-12, rows 13-15, 17): 5 records
#   in 1 block, copy_of p2.txt:3; 17 lines, of which the sentence and the
#   blank lines are skipped (3) and the rest used (14).
set -u
: "${BENCHLOG:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

table() {
    echo ' r  b  w   swpd   free   buff  cache  si  so    bi    bo   in    cs  us  sy  id'
    echo '26 13  1   1260   5216 125304 695560   0   0   183    51  829  1473  62  38   0'
    echo '23 36  1   1260   2312 124692 693468   0   0   411    76  970  2362  76  24   0'
    echo '27 53  2   1260 654044  34656 132704   0   0  1773  1652 3881 15430  43  31  26'
    echo '(no response for at least 30 seconds here)'
    echo ' 8 43 20  39528 857256  19660  17056 388 38332   985 10906 5160 32640   1  65  34'
}
vmhead='   procs                      memory    swap          io     system         cpu'
{ for l in "first paste" "again" "and again"; do
    echo "$l"; echo; echo "$vmhead"; table; echo
  done; } > p3.txt
{ echo "$vmhead"; table; echo "As you can see, it threw out the cache again."; echo; echo
  echo "$vmhead"; table; } > p2.txt

# FILE: vmstat lines and their copy_of, as "line:copy_of" words
marks() {
    "$BENCHLOG" parse -t vmstat "$1" 2> err | awk -F, 'NR > 1 { printf "%s:%s ", $2, $10 }'
}
got=$(marks p3.txt)
want="5: 6: 7: 9: 15:p3.txt:5 16:p3.txt:5 17:p3.txt:5 19:p3.txt:5 25:p3.txt:5 26:p3.txt:5 27:p3.txt:5 29:p3.txt:5 "
[ "$got" = "$want" ] || fail "p3.txt: got '$got', want '$want'"
grep -q '10 records in 2 blocks copying earlier ones' err || fail "p3.txt: $(cat err)"

got=$(marks p2.txt)
want="3: 4: 5: 7: 13:p2.txt:3 14:p2.txt:3 15:p2.txt:3 17:p2.txt:3 "
[ "$got" = "$want" ] || fail "p2.txt: got '$got', want '$want'"
grep -q '5 records in 1 block copying earlier ones' err || fail "p2.txt: $(cat err)"
grep -q '^benchlog: 17 lines: 14 used, 3 skipped' err || fail "p2.txt accounting: $(cat err)"
exit $((fails > 0))
