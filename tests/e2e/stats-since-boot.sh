#!/bin/sh
# vmstat's since-boot row in `benchlog stats` and `compare` (docs/formats.md,
# "The since-boot row"; analyze/vmstat.h S1, shared with summary): under
# --since-boot auto (the default) the marked row is left out, under keep it
# is counted, under drop it is never written; the same from a log and from
# benchlog's CSV read back (its since_boot column).
#
# Expected values: GNU datamash over the cs column cut from the capture
# with awk (every row: a line of numbers; the first row is the since-boot
# one, since the capture starts with both header lines; the repeated
# headers inside it mark nothing), not from benchlog.
set -eu
command -v datamash >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fails=0
fail() { echo "FAIL [$case]: $*"; fails=$((fails + 1)); }

cp "$TOP/fixtures/vmstat/18-vmstat-t-timestamps-procps33.txt" a.txt
head -60 a.txt > b.txt            # a second group: the first 54 rows
awk '/^ *[0-9]+ +[0-9]+ / { print $12 }' a.txt > a.all
awk '/^ *[0-9]+ +[0-9]+ / { print $12 }' b.txt > b.all
tail -n +2 a.all > a.samples
tail -n +2 b.all > b.samples
[ "$(wc -l < a.all)" -eq 210 ] || { echo "awk found $(wc -l < a.all) rows, want 210"; exit 1; }

# n,mean,sd,min,p50,p90,max of a file of numbers, as stats -f csv prints them
dm() { datamash --format '%.17g' -W count 1 mean 1 sstdev 1 min 1 median 1 perc:90 1 max 1 < "$1" | tr '\t' ,; }
# the same fields of benchlog's row (columns n mean sd ci95 min p50 p90 max)
bl() { tail -1 "$1" | awk -F, '{ print $4 "," $5 "," $6 "," $8 "," $9 "," $10 "," $11 }'; }
# same: equal numbers to the 12 significant digits benchlog writes a statistic
# with (docs/statistics.md, D20: half a unit of the 12th digit is at most 5e-12
# of the value; mean and sd are sums in another order)
same() {
    awk -F, -v a="$1" -v b="$2" 'BEGIN {
        n = split(a, x, ","); m = split(b, y, ",");
        if (n != 7 || m != 7) exit 1;
        for (i = 1; i <= n; i++) {
            d = x[i] - y[i]; if (d < 0) d = -d;
            t = y[i] < 0 ? -y[i] : y[i];
            if (d > 6e-12 * t && d > 1e-300) exit 1;
        }
    }'
}
check() {   # check OUT WANTFILE
    got=$(bl "$1"); want=$(dm "$2")
    same "$got" "$want" || fail "benchlog $got, datamash $want"
}
stats() { "$BENCHLOG" stats -q -c cs -f csv --percentiles 50,90 "$@" > out.csv 2> err; }

case=log-auto
# the note is not an error: -q silences it (docs/errors.md), so no -q here
"$BENCHLOG" stats -c cs -f csv --percentiles 50,90 -t vmstat a.txt > out.csv 2> err; check out.csv a.samples
grep -Fxq 'benchlog stats: 1 vmstat since-boot row left out (--since-boot keep counts them)' err ||
    fail "no note: $(cat err)"
case=log-auto-explicit
stats -t vmstat --since-boot auto a.txt; check out.csv a.samples
case=log-keep
stats -t vmstat --since-boot keep a.txt; check out.csv a.all
[ -s err ] && fail "stderr: $(cat err)"
case=log-drop
stats -t vmstat --since-boot drop a.txt; check out.csv a.samples

# benchlog's own CSV read back: the row is there with since_boot = 1
"$BENCHLOG" parse -q -o csv a.txt
"$BENCHLOG" parse -q --since-boot keep -t vmstat a.txt > kept.csv
[ "$(grep -c ',1,3.3-st -t,' csv/vmstat.csv)" -eq 1 ] || fail "parse: not one since_boot row"
case=csv-auto
stats csv/vmstat.csv; check out.csv a.samples
case=csv-keep
stats --since-boot keep csv/vmstat.csv; check out.csv a.all
case=csv-drop
stats --since-boot drop csv/vmstat.csv; check out.csv a.samples
case=csv-unnamed   # not named after its table: benchlog's header is enough
stats kept.csv; check out.csv a.samples
stats --since-boot keep kept.csv; check out.csv a.all

# compare: vmstat series are compared by the vmstat analysis (D18 of
# docs/statistics.md), which leaves the since-boot row out the same way:
# both sides' n and mean of free (the 4th field of a row)
awk '/^ *[0-9]+ +[0-9]+ / { print $4 }' a.txt > a.free.all
awk '/^ *[0-9]+ +[0-9]+ / { print $4 }' b.txt > b.free.all
tail -n +2 a.free.all > a.free
tail -n +2 b.free.all > b.free
cmp_check() {   # cmp_check OUT BASEFILE CANDFILE
    got=$(grep '^vmstat,free,.*"mean, series' "$1" | awk -F, '{ print $6 "," $7 "," $10 "," $11 }')
    want=$( (datamash --format '%.17g' count 1 mean 1 < "$2"; datamash --format '%.17g' count 1 mean 1 < "$3") |
        tr '\t\n' ',,' | sed 's/,$//')
    awk -F, -v a="$got" -v b="$want" 'BEGIN {
        n = split(a, x, ","); m = split(b, y, ",");
        if (n != 4 || m != 4) exit 1;
        for (i = 1; i <= n; i++) { d = x[i] - y[i]; if (d < 0) d = -d; if (d > 6e-12 * (y[i] < 0 ? -y[i] : y[i])) exit 1 }
    }' || fail "compare: benchlog $got, datamash $want"
}
case=compare-auto
"$BENCHLOG" compare -t vmstat -c free -f csv a.txt b.txt > cmp.csv 2> err
cmp_check cmp.csv a.free b.free
grep -Fxq 'benchlog compare: 2 vmstat since-boot rows left out (--since-boot keep counts them)' err ||
    fail "no note: $(cat err)"
case=compare-keep
"$BENCHLOG" compare -q -t vmstat -c free -f csv --since-boot keep a.txt b.txt > cmp.csv
cmp_check cmp.csv a.free.all b.free.all
# a CSV table holds samples, not series from a log: not compared (C4), and
# the reason said
case=compare-csv
"$BENCHLOG" parse -q -t vmstat a.txt b.txt > vmstat.csv
st=0
"$BENCHLOG" compare -q -t vmstat -c free -f csv vmstat.csv > cmp.csv 2> err || st=$?
[ "$st" -eq 1 ] || fail "exit $st, want 1"
grep -q '^benchlog compare: table vmstat not compared: its rows come from a CSV table' err || fail "no reason: $(cat err)"
[ -s cmp.csv ] && fail "output: $(cat cmp.csv)"

echo "stats-since-boot: $fails failed"
[ "$fails" -eq 0 ]
