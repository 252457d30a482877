#!/bin/sh
# stats and compare leave records quoted in mail replies out unless
# --quoted include (docs/stats.md); benchlog's CSV read back keeps the
# quote depth in its provenance column `quoted`, and the rows written from
# quoted records are left out the same way, so stats of a log and of its
# CSV agree. A foreign CSV's own "quoted" column leaves nothing out.
#
# Input: three mtest01 results of one kernel, the first two quoted with
# "> ". By hand: without the quoted ones, n 1, mean 5000; with them, n 3,
# mean (1000 + 3000 + 5000) / 3 = 3000, min 1000.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
printf '2.4.9\n> PASS ... 1000 bytes allocated.\n> PASS ... 3000 bytes allocated.\nPASS ... 5000 bytes allocated.\n' > m.txt
"$BENCHLOG" parse -q -o out m.txt
fails=0
nmean() {   # nmean FILE: "n mean min" of the one stats row
    awk '$1 == "2.4.9" && $2 == "bytes_allocated" { print $3, $4, $7 }' "$1"
}
want() {    # want WHAT GOT EXPECTED
    [ "$2" = "$3" ] || { echo "$1: got '$2', want '$3'"; fails=1; }
}
for in in m.txt out/mtest01.csv; do
    "$BENCHLOG" stats -t mtest01 -c bytes_allocated "$in" > s.out 2> s.err
    want "stats $in" "$(nmean s.out)" "1 5000 5000"
    grep -q '^benchlog stats: 2 records quoted in mail replies left out' s.err || { echo "stats $in: no note:"; cat s.err; fails=1; }
    "$BENCHLOG" stats --quoted include -t mtest01 -c bytes_allocated "$in" > s.out 2> s.err
    want "stats --quoted include $in" "$(nmean s.out)" "3 3000 1000"
done
# A CSV of the user's own with a "quoted" column: nothing left out.
printf 'group,quoted,bytes_allocated\n2.4.9,1,1000\n2.4.9,1,3000\n2.4.9,0,5000\n' > mine.csv
"$BENCHLOG" stats -c bytes_allocated mine.csv > s.out 2> s.err
want "stats mine.csv" "$(nmean s.out)" "3 3000 1000"
exit $fails
