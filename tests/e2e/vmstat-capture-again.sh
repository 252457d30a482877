#!/bin/sh
# A vmstat capture pasted twice into one file (`cat log log`) is two
# series in the table, the second marked as a copy of the first (core/
# block.h B1: a new capture ends a block) and left out of the summary and
# the charts, which are drawn; t_s that goes back inside a series is
# a warning naming its line, not a failed chart; a chart gnuplot cannot
# draw is a warning in `report`, whose status stays 0.
#
# Expected values, by hand from fixtures/vmstat/18-… (230 lines, the
# header pair on lines 1-2, 210 rows from 09:03:09 to 09:06:39, LOG.md):
# the copy's since-boot row is line 230 + 3 = 233, its last row line 460;
# each series has 209 samples once the since-boot row is left out, over
# 210 - 1 = 209 s.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
one="$TOP/fixtures/vmstat/18-vmstat-t-timestamps-procps33.txt"
cat "$one" "$one" > two.txt

"$BENCHLOG" summary two.txt > sum 2> err
grep -q '^series 1: two.txt lines 3-230, group two$' sum
! grep -q '^series 2' sum || { cat sum; exit 1; }
[ "$(grep -c '^  209 samples over 209 s,' sum)" -eq 1 ] || { cat sum; exit 1; }
grep -q '; 210 records in 1 block copying earlier ones (copy_of)' err || { cat err; exit 1; }

# The table: the copy starts again at series 2, sample 0, t_s 0, since-boot.
"$BENCHLOG" parse -q -t vmstat two.txt > vm.csv
awk -F, '$2 == 233 { print $11, $12, $13, $14 }' vm.csv > row233
[ "$(cat row233)" = "2 0 0 1" ] || { echo "line 233: $(cat row233)"; exit 1; }
awk -F, '$2 == 460 { print $11, $12, $13, $14 }' vm.csv > row460
[ "$(cat row460)" = "2 209 210 0" ] || { echo "line 460: $(cat row460)"; exit 1; }
# every row of the copy, lines 233-460, is marked copy_of two.txt:3
python3 - vm.csv <<'PY'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1], newline="")))
first = [x["copy_of"] for x in r if int(x["line"]) <= 230]
copy = [x["copy_of"] for x in r if int(x["line"]) >= 233]
assert set(first) == {""} and len(first) == 210, (len(first), set(first))
assert set(copy) == {"two.txt:3"} and len(copy) == 210, (len(copy), set(copy))
PY

# The same with a blank line between the pastes: the copy's rows are
# lines 234-461 (230 lines, the blank line 231, its header pair 232-233).
{ cat "$one"; echo; cat "$one"; } > blank.txt
"$BENCHLOG" parse -q -t vmstat blank.txt > vb.csv
python3 - vb.csv <<'PY'
import csv, sys
r = list(csv.DictReader(open(sys.argv[1], newline="")))
copy = [x["copy_of"] for x in r if int(x["line"]) >= 234]
assert set(copy) == {"blank.txt:3"} and len(copy) == 210, (len(copy), set(copy))
assert not [x for x in r if int(x["line"]) <= 230 and x["copy_of"]]
PY

# The charts: drawn (or left as scripts without gnuplot), no failure.
rc=0
"$BENCHLOG" plot swpd -q -o p two.txt > out 2> err || rc=$?
[ "$rc" -eq 0 ] || { echo "plot exit $rc"; cat err; exit 1; }
if grep -q 'backwards\|invalid usage\|could not be drawn' err; then cat err; exit 1; fi
! grep -q "capture 2" p/swpd.gp
rc=0
"$BENCHLOG" report -q -o rep two.txt > out 2> err || rc=$?
[ "$rc" -eq 0 ] || { echo "report exit $rc"; cat err; exit 1; }
if grep -q 'could not be drawn' err rep/report.md; then cat err; exit 1; fi

# A -t clock set back an hour with no header in between: one series whose
# t_s goes from 2 to -3600 at line 6; the chart draws the rows from there
# on after the others and says where.
{
    sed -n 1,2p "$one"
    echo ' 1  0  16592 11289720 1659092 16500420    0    0     0     2    0    0  1  0 99  0  0 2018-03-21 10:00:00'
    echo ' 0  0  16592 11288572 1659092 16500424    0    0     0     1  557  585  0  0 100  0  0 2018-03-21 10:00:01'
    echo ' 0  0  16592 11288272 1659092 16500404    0    0     0     0  443  605  0  0 100  0  0 2018-03-21 10:00:02'
    echo ' 0  0  16592 11288272 1659092 16500404    0    0     0     0  443  605  0  0 100  0  0 2018-03-21 09:00:00'
} > back.txt
rc=0
"$BENCHLOG" plot swpd -q -o pb back.txt > out 2> err || rc=$?
[ "$rc" -eq 0 ] || { echo "plot exit $rc"; cat err; exit 1; }
grep -q '^benchlog: back.txt:6: vmstat time goes back from t_s 2 to -3600 inside series 1: ' err
if grep -q 'invalid usage\|could not be drawn' err; then cat err; exit 1; fi

# A chart gnuplot cannot draw fails the report: said, status 1, and the
# earlier report (rep, made above) left as it was, with one thread
# drawing and with helpers (-j 2).
mkdir bin
printf '#!/bin/sh\necho "gnuplot: cannot draw" >&2\nexit 1\n' > bin/gnuplot
chmod +x bin/gnuplot
before=$(cat rep/report.md | cksum)
for j in 1 2; do
    rc=0
    PATH="$tmp/bin:$PATH" "$BENCHLOG" report -q -j "$j" -o rep two.txt > out 2> err || rc=$?
    [ "$rc" -eq 1 ] || { echo "report -j $j: exit $rc"; cat err; exit 1; }
    [ ! -s out ]   # -q: nothing on stdout
    grep -q '^benchlog report: the vmstat charts could not be drawn (.*)$' err \
        || { echo "report -j $j:"; cat err; exit 1; }
    grep -q '^benchlog report: a chart could not be drawn; rep left as it was$' err \
        || { echo "report -j $j:"; cat err; exit 1; }
    [ "$(cat rep/report.md | cksum)" = "$before" ] || { echo "report -j $j: rep changed"; exit 1; }
    ! ls -d rep.tmp-* 2>/dev/null || { echo "report -j $j: temporary folder left"; exit 1; }
done
