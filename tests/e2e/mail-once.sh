#!/bin/sh
# Each message once (input/mail.c R14): a Message-ID met again — in the
# same archive (a cross-posted copy), or in a second archive on the same
# command line — is read once; the other copies' lines are skipped
# "duplicate message", told to skipped.csv as "duplicate of the message
# at FILE:LINE". Every command that reads several inputs agrees with
# parse, report too (it reads them with parse's pass, parsers/pass.h),
# with -j1 and -j2 alike. Expected by hand:
#   a.mbox (27 lines): <a@example.org> 1 s (lines 1-9), <b@example.org>
#           2 s (lines 10-18), <a@example.org> again, cross-posted with
#           another list's tag (lines 19-27)
#   b.mbox (18 lines): <b@example.org> again (lines 1-9),
#           <c@example.org> 3 s (lines 10-18)
# Each message is 9 lines: the From_ line, 3 header lines and the blank
# after them, real/user/sys, and a blank that ends it (an mbox separator
# line). Read: 3 messages, 3 time rows (1, 2, 3 s), 9 lines used (3 x
# real/user/sys), 12 mail header lines (3 x 4). Copies: a.mbox lines 20-26
# and b.mbox lines 2-8, 2 x 7 = 14 duplicate lines; the 5 From_ lines and
# the 5 blanks that end messages are 10 mbox separator lines. 9 + 14 + 12
# + 10 = 45 lines. Per input: a.mbox 6 used, 21 skipped, 2 records;
# b.mbox 3 used, 15 skipped (7 + 4 + 4), 1 record. Each group ("loop:
# one", "two", "three", the thread) has one run; a second copy read would
# give "loop: two" n = 2.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
msg() { # id subject seconds
    printf 'From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: user@example.org\nSubject: %s\nMessage-ID: <%s>\n\nreal\t0m%s.000s\nuser\t0m0.000s\nsys\t0m0.100s\n\n' "$2" "$1" "$3"
}
{ msg a@example.org "[PATCH] loop: one" 1; msg b@example.org "[PATCH] loop: two" 2
  msg a@example.org "[other-list] [PATCH] loop: one" 1; } > "$tmp/a.mbox"
{ msg b@example.org "[PATCH] loop: two" 2; msg c@example.org "[PATCH] loop: three" 3; } > "$tmp/b.mbox"
cd "$tmp"
fail=0
elapsed() { # CSV file: its elapsed_s column, one line
    python3 -c '
import csv, sys
print(" ".join(r["elapsed_s"] for r in csv.DictReader(open(sys.argv[1]))))' "$1"
}
# the line-accounting summary parse, summary, stats, compare and plot print
counts() { # stderr file, command
    grep -q '^benchlog: 45 lines: 9 used, 36 skipped; 3 records$' "$1" &&
        grep -q '^  skipped  *14  duplicate message$' "$1" ||
        { echo "$2: want 45 lines, 9 used, 36 skipped, 3 records, 14 duplicate lines:"; cat "$1"; fail=1; }
}

"$BENCHLOG" parse -o out a.mbox b.mbox 2> err
got=$(elapsed out/time.csv)
[ "$got" = "1 2 3" ] || { echo "parse: time rows: got [$got], want [1 2 3]"; fail=1; }
counts err parse

"$BENCHLOG" summary a.mbox b.mbox > sum.txt 2> err
counts err summary
got=$(grep -c '^Averages for 1 timed runs$' sum.txt || true)
[ "$got" = 3 ] || { echo "summary: want 3 groups of 1 run:"; cat sum.txt; fail=1; }

"$BENCHLOG" stats -f csv -c elapsed_s a.mbox b.mbox > st.csv 2> err
counts err stats
got=$(python3 -c '
import csv
print(" ".join("%s=%s/%s" % (r["group"], r["n"], r["mean"]) for r in csv.DictReader(open("st.csv"))))')
[ "$got" = "loop: one=1/1 loop: two=1/2 loop: three=1/3" ] ||
    { echo "stats: got [$got]"; fail=1; }

"$BENCHLOG" compare -f csv -b "loop: one" -c elapsed_s a.mbox b.mbox > cmp.csv 2> err
counts err compare
got=$(python3 -c '
import csv
print(" ".join("%s=%s/%s" % (r["candidate"], r["cand_n"], r["cand_mean"]) for r in csv.DictReader(open("cmp.csv"))))')
[ "$got" = "loop: two=1/2 loop: three=1/3" ] || { echo "compare: got [$got]"; fail=1; }

"$BENCHLOG" plot runs -o pl --term svg a.mbox b.mbox 2> err
counts err plot
for k in 1 2 3; do   # runs-K.dat: group K's runs, one each, elapsed K s
    got=$(grep -v '^#' "pl/runs-$k.dat" | cut -d' ' -f1-2 | tr '\n' ';')
    [ "$got" = "1 $k;" ] || { echo "plot: runs-$k.dat: got [$got], want [1 $k;]"; fail=1; }
done

# report, with its inputs parsed on one thread and on two
for j in 1 2; do
    "$BENCHLOG" report -q -j $j -o rep$j a.mbox b.mbox 2> err || { cat err; fail=1; }
    got=$(elapsed rep$j/csv/time.csv)
    [ "$got" = "1 2 3" ] || { echo "report -j$j: time rows: got [$got], want [1 2 3]"; fail=1; }
    for want in '| a.mbox | 27 | 6 | 21 | 2 | 0 |' '| b.mbox | 18 | 3 | 15 | 1 | 0 |' \
                '| **total** | **45** | **9** | **36** | **3** | **0** |' '| duplicate message | 14 |'; do
        grep -qxF "$want" rep$j/report.md || { echo "report -j$j: report.md lacks [$want]"; fail=1; }
    done
    # skipped.csv: each copy's run names the first copy's first line (a
    # blank line joins the run before it: 8 lines each); the runs add up
    # to the 36 skipped lines
    for want in 'a.mbox,20,27,8,duplicate of the message at a.mbox:2' \
                'b.mbox,2,9,8,duplicate of the message at a.mbox:11'; do
        grep -q "^$want," rep$j/skipped.csv || { echo "report -j$j: skipped.csv lacks [$want]"; fail=1; }
    done
    got=$(python3 -c '
import csv, sys
print(sum(int(r["lines"]) for r in csv.DictReader(open(sys.argv[1]))))' rep$j/skipped.csv)
    [ "$got" = 36 ] || { echo "report -j$j: skipped.csv has $got lines, want 36"; fail=1; }
    for k in 1 2 3; do
        got=$(grep -v '^#' "rep$j/plots/runs-$k.dat" | cut -d' ' -f1-2 | tr '\n' ';')
        [ "$got" = "1 $k;" ] || { echo "report -j$j: runs-$k.dat: got [$got]"; fail=1; }
    done
done
for f in skipped.csv csv/time.csv report.md; do
    cmp -s rep1/$f rep2/$f || { echo "report: $f differs between -j1 and -j2"; diff rep1/$f rep2/$f; fail=1; }
done

# the same archive twice: the second is all copies of the first
"$BENCHLOG" report -q -j 2 -o rep3 a.mbox a.mbox 2> err || { cat err; fail=1; }
got=$(elapsed rep3/csv/time.csv)
[ "$got" = "1 2" ] || { echo "report a.mbox a.mbox: time rows: got [$got], want [1 2]"; fail=1; }
grep -qxF '| duplicate message | 28 |' rep3/report.md ||   # 7 + 3 x 7
    { echo "report a.mbox a.mbox: want 28 duplicate lines"; grep -F '| duplicate' rep3/report.md; fail=1; }

# 40 small archives in a folder, each with the same message <x@example.org>
# (1 s, lines 1-9) and one of its own (2 s, lines 10-18): read once, in
# m00.mbox (the first in the walk's byte order), whichever thread gets
# which file first. 41 time rows; 39 x 7 = 273 duplicate lines.
mkdir many
for i in $(seq 0 39); do
    n=$(printf %02d "$i")
    { msg x@example.org "[PATCH] shared" 1; msg "u$n@example.org" "[PATCH] unique $n" 2; } > many/m$n.mbox
done
"$BENCHLOG" parse -q -o pm many 2> err || { cat err; fail=1; }
for j in 1 2; do
    "$BENCHLOG" report -q -j $j -o rm$j many 2> err || { cat err; fail=1; }
    got=$(python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(len(rows), sum(r["elapsed_s"] == "1" for r in rows), rows[0]["source"])' rm$j/csv/time.csv)
    [ "$got" = "41 1 many/m00.mbox" ] || { echo "report -j$j many: got [$got], want [41 1 many/m00.mbox]"; fail=1; }
    got=$(grep -c ',duplicate of the message at many/m00.mbox:2,' rm$j/skipped.csv || true)
    [ "$got" = 39 ] || { echo "report -j$j many: $got copies name many/m00.mbox:2, want 39"; fail=1; }
    grep -qxF '| duplicate message | 273 |' rm$j/report.md ||
        { echo "report -j$j many: want 273 duplicate lines"; grep -F '| dupl' rm$j/report.md; fail=1; }
    cmp -s pm/time.csv rm$j/csv/time.csv || { echo "report -j$j many: time.csv is not parse's"; fail=1; }
done
exit $fail
