#!/bin/sh
# A report whose files cannot be written fails whole: exit 1, one
# "cannot write" message, no report folder and no temporary folder left,
# an earlier report in its place byte for byte as it was. Checked at -j1
# and -j2 (the CSV files and report.sqlite are closed while the charts
# are made: report/report.c, csv_close and build_chartless).
#
# The limit is a file size limit (ulimit -f, SIGXFSZ ignored, so a write
# past it fails with EFBIG). Over the fixtures folder the tables are
# report.sqlite (about 1.2 MB), skipped.csv (240 KB), csv/vmstat.csv
# (520 KB), csv/contest.csv (225 KB) and smaller ones, and report.html is
# about 1.7 MB. The limits
# below fall before, between and inside those sizes, so the failing write
# comes during the pass for some and only when the tables are flushed and
# closed at its end for others; every one of them is a table, so the
# message is the tables' one. At 1 block an analysis's temporary file
# (vmstat's, in $TMPDIR, written in small pieces) can fail first, before
# the tables' first 256 KiB write: then the message names the temporary
# folder (report/report.c tmp_sink), one message still.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
in="$TOP/fixtures"

"$BENCHLOG" report -q -j2 -o rep "$in" > /dev/null 2>&1
cp -a rep ref
size() { wc -c < "$1" | tr -d ' '; }
[ "$(size rep/report.sqlite)" -gt 1000000 ] || { echo "report.sqlite smaller than this test assumes"; exit 1; }
[ "$(size rep/skipped.csv)" -gt 200000 ] || { echo "skipped.csv smaller than this test assumes"; exit 1; }
[ "$(size rep/csv/vmstat.csv)" -gt 300000 ] || { echo "vmstat.csv smaller than this test assumes"; exit 1; }

fails=0
for j in 1 2; do
    # ulimit -f counts 512-byte blocks in dash and 1024-byte blocks in
    # bash; the limits are chosen to fail in both.
    for blocks in 1 64 400 900 1100; do
        # stderr goes through a pipe, out of the limit's reach
        {
            (
                trap '' XFSZ
                ulimit -f "$blocks"
                rc=0
                "$BENCHLOG" report -q -j"$j" -o rep "$in" 2>&1 > out || rc=$?
                echo "$rc" > rc
            ) | cat > err
        }
        rc=$(cat rc)
        if [ "$rc" -ne 1 ]; then
            echo "-j$j, ulimit -f $blocks: exit $rc, not 1"; fails=1
        fi
        tables='^benchlog report: cannot write the tables: File too large$'
        [ "$blocks" -eq 1 ] && tables="$tables|^benchlog report: cannot write a temporary file in [^:]*: File too large\$"
        if ! grep -Eq "$tables" err; then
            echo "-j$j, ulimit -f $blocks: no message for the tables:"; cat err; fails=1
        fi
        if [ "$(grep -c '^benchlog report: cannot' err)" -ne 1 ]; then
            echo "-j$j, ulimit -f $blocks: not one message:"; cat err; fails=1
        fi
        test ! -s out || { echo "-j$j, ulimit -f $blocks: output on stdout"; fails=1; }
        if ! diff -r ref rep > /dev/null; then
            echo "-j$j, ulimit -f $blocks: the earlier report changed"; fails=1
        fi
        if ls -d rep.tmp-* > /dev/null 2>&1 || ls -a | grep -q '^\.rep'; then
            echo "-j$j, ulimit -f $blocks: a temporary folder was left:"; ls -a; fails=1
        fi
    done
done

# Without the limit the same command works, and gives the same report.
"$BENCHLOG" report -q -j2 -o rep "$in" > /dev/null 2>&1
diff -r ref rep > /dev/null || { echo "the report changed between two good runs"; fails=1; }
exit $fails
