#!/bin/sh
# Never a post against its own copy (issue 37 item 6, core/block.h B1-B5).
# Expected values by hand, from reading the files:
# - seed 001 and ../shared/realworld 01 (fixtures/contest/01-…) are
#   the same post: its "Default tunables" ConTest table (seed lines 9-56,
#   24 records, first row line 9), its "Tweaked tunables" table (lines
#   58-105, 24 records) and the int_resp_timer.pl histogram with its
#   `time` (lines 134-165: the command line 134 that starts the series,
#   28 buckets on 135-162, `real` on 163) come again in realworld 01:
#   24 + 24 + 30 = 78 records in 3 blocks, marked copy_of = seed:9,
#   seed:58 and seed:134 (a block's smallest line).
# - realworld 21 pastes one vmstat table three times: lines 11-14, then
#   103-106 and 128-131 (the same 4 rows, value for value): 8 records in 2
#   blocks, copy_of = 21:11.
# So the two reports' inputs sections say 78 and 86 records; read_load's
# time row is one row in findings.csv of both, with the same numbers, and
# no vmstat row of realworld 21 is in the Findings (one table left).
# Then the rule's edges, on made-up inputs:
# - one record is never a copy (two `time -v` blocks that print the same
#   numbers, in one file and in another);
# - runs that print the same few numbers are not either (mtest01's bytes);
# - a reply that quotes three `time` results ('>') is a copy of the post.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seeds="$TOP/fixtures/seeds"
rw01="$TOP/fixtures/contest/01-contest-raw-wrapped-histogram-bashtime.txt"
rw21="$TOP/fixtures/vmstat/21-vmstat-w-SM-markdown-repeated.txt"
fail() { echo "FAIL: $*"; exit 1; }

# the real posts
"$BENCHLOG" report -q -o "$tmp/s" "$seeds"/*.txt 2> /dev/null
"$BENCHLOG" report -q -o "$tmp/a" "$seeds"/*.txt "$rw01" \
    "$rw21" 2> /dev/null
grep -q '^\*\*86 records in 5 blocks copy earlier ones\*\*' "$tmp/a/report.md" ||
    fail "inputs section: $(grep -i 'cop' "$tmp/a/report.md" | head -3)"
! grep -q 'copy earlier ones' "$tmp/s/report.md" || fail "copies among the seeds alone"
python3 - "$tmp" <<'PY'
import csv, os, sys
tmp = sys.argv[1]
def rows(rep, table):
    return list(csv.DictReader(open(os.path.join(tmp, rep, "csv", table + ".csv"), newline="")))
def copies(rep, table):
    out = {}
    for r in rows(rep, table):
        if r["copy_of"]:
            k = (os.path.basename(r["source"]), os.path.basename(r["copy_of"]))
            out[k] = out.get(k, 0) + 1
    return out
S, R1, R21 = "001_07df0cd7d9b0f35d.txt", "01-contest-raw-wrapped-histogram-bashtime.txt", \
    "21-vmstat-w-SM-markdown-repeated.txt"
want = {
    "contest": {(R1, S + ":9"): 24, (R1, S + ":58"): 24},
    "latency": {(R1, S + ":134"): 28},
    "latency_series": {(R1, S + ":134"): 1},
    "time": {(R1, S + ":134"): 1},
    "vmstat": {(R21, R21 + ":11"): 8},
}
for t, w in want.items():
    got = copies("a", t)
    assert got == w, (t, got, w)
    assert copies("s", t) == {}, t
lines = sorted(int(r["line"]) for r in rows("a", "vmstat") if r["copy_of"])
assert lines == [103, 104, 105, 106, 128, 129, 130, 131], lines
# read_load's time: one row, the same numbers with and without the copy
def read_load(rep):
    f = list(csv.DictReader(open(os.path.join(tmp, rep, "findings.csv"), newline="")))
    got = [r for r in f if r["table"] == "contest" and r["by"] == "read_load" and r["column"] == "time_s"]
    assert len(got) == 1, (rep, len(got))
    return got[0], f
a, fa = read_load("a")
s, _ = read_load("s")
assert a == s, (a, s)
assert a["verdict"] == "faster", a["verdict"]
assert not [r for r in fa if r["source"].endswith(R21)], "realworld 21 compared with itself"
assert not [r for r in fa if r["source"].endswith(R1)], "realworld 01 compared again"
PY

# one record is never a copy; runs that print the same few numbers neither
gnuv() {
    printf '\tCommand being timed: "sleep 1"\n\tUser time (seconds): 0.01\n\tSystem time (seconds): 0.02\n'
    printf '\tPercent of CPU this job got: 3%%\n\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:01.00\n'
    printf '\tMaximum resident set size (kbytes): 1664\n\tMajor (requiring I/O) page faults: 0\n'
    printf '\tMinor (reclaiming a frame) page faults: 74\n\tVoluntary context switches: 2\n'
    printf '\tInvoluntary context switches: 1\n\tExit status: 0\n'
}
{ echo '$ /usr/bin/time -v sleep 1'; gnuv; echo '$ /usr/bin/time -v sleep 1'; gnuv; } > "$tmp/one.txt"
cp "$tmp/one.txt" "$tmp/two.txt"
printf 'PASS ... 1048576 bytes allocated.\nPASS ... 1048576 bytes allocated.\nPASS ... 1048576 bytes allocated.\n' > "$tmp/m1.txt"
cp "$tmp/m1.txt" "$tmp/m2.txt"
(cd "$tmp" && "$BENCHLOG" parse -q -o p one.txt two.txt m1.txt m2.txt)
python3 - "$tmp/p" <<'PY'
import csv, sys
for t, n in (("time", 4), ("mtest01", 6)):
    r = list(csv.DictReader(open(sys.argv[1] + "/" + t + ".csv", newline="")))
    assert len(r) == n and not [x for x in r if x["copy_of"]], (t, r)
PY

# stats reading the CSV says what it left out: the contest table's two
# copied blocks (24 + 24 records, copy_of seed:9 and seed:58, above)
"$BENCHLOG" stats --csv "$tmp/a/csv/contest.csv" 2> "$tmp/stats.err" > /dev/null
grep -q '; 48 records in 2 blocks copying earlier ones (copy_of)' "$tmp/stats.err" ||
    fail "stats --csv does not say the copies it left out: $(tail -1 "$tmp/stats.err")"

# a reply quoting a post's three results is a copy of them
msg() {   # msg ID SUBJECT QUOTE
    printf 'From user@example.org Mon Nov  3 10:00:00 2025\nFrom: user@example.org\n'
    printf 'Subject: %s\nMessage-ID: <%s@example.org>\nDate: Mon, 3 Nov 2025 10:00:00 +0000\n\n' "$2" "$1"
    q=$3
    printf '%sbefore modification:\n' "$q"
    for t in '0.624 0.000 0.347' '0.663 0.001 0.354' '0.635 0.000 0.335'; do
        set -- $t
        printf '%sreal\t0m%ss\n%suser\t0m%ss\n%ssys\t0m%ss\n%s\n' "$q" "$1" "$q" "$2" "$q" "$3" "$q"
    done
    echo 'Thanks.'
    echo
}
{ msg m1 "[PATCH] zram: write back in batches" ""; msg m2 "Re: [PATCH] zram: write back in batches" "> "; } > "$tmp/t.mbox"
# the post's first `real` line: 5 header lines, a blank, "before …" on 7, real on 8
(cd "$tmp" && "$BENCHLOG" parse -q -t time t.mbox) > "$tmp/t.csv"
python3 - "$tmp/t.csv" <<'PY'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1], newline="")))
assert [x["copy_of"] for x in r] == ["", "", "", "t.mbox:8", "t.mbox:8", "t.mbox:8"], [(x["line"], x["copy_of"]) for x in r]
assert [x["quoted"] for x in r] == ["0"] * 3 + ["1"] * 3
PY
# a capture that differs from an earlier one by a trade between two
# columns (swpd + 1, free - 1 in its second row) is not a copy; the same
# capture pasted again is: rows on lines 5-7, 13-15 (the trade, line 14)
# and 21-23 (a copy of line 5)
cap() {   # cap SWPD FREE
    printf 'capture\n\nprocs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n'
    printf ' r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n'
    printf ' 1  0  35666   8547  24245  39578    0    0   380   429  396  862  3  1 96  0  0\n'
    printf ' 2  0  %s  %s  31218  26026    0    0     0   606 9936 4287  2  5 93  0  0\n' "$1" "$2"
    printf ' 0  1  38738   2804  19743   2032    0    0    17   309 5402 6801  1  2 97  0  0\n'
}
{ cap 35453 36020; echo; cap 35454 36019; echo; cap 35453 36020; } > "$tmp/trade.txt"
"$BENCHLOG" parse -q -t vmstat "$tmp/trade.txt" > "$tmp/trade.csv"
python3 - "$tmp/trade.csv" "$tmp/trade.txt" <<'PY'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1], newline="")))
assert [x["line"] for x in r] == ["5", "6", "7", "13", "14", "15", "21", "22", "23"], [x["line"] for x in r]
assert [x["copy_of"] for x in r] == [""] * 6 + [sys.argv[2] + ":5"] * 3, [(x["line"], x["copy_of"]) for x in r]
PY
echo "copies: ok"
