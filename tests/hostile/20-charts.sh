# Chart files: gnuplot writes into a private folder; benchlog checks its
# exit status and that each image is complete, then renames them into
# place (plot/plot.h). Fake gnuplots on PATH stand for failing, hanging
# or truncating ones ($HOST/fake-gnuplot MODE).
fakegp() {   # fakegp MODE: a gnuplot on PATH that behaves as MODE
    mkdir -p "$W/fakebin"
    printf '#!/bin/sh\nexec sh "%s/fake-gnuplot" %s "$@"\n' "$HOST" "$1" > "$W/fakebin/gnuplot"
    chmod +x "$W/fakebin/gnuplot"
    PATH="$W/fakebin:$PATH"
}

# (no -q: the "wrote …" line is what these cases read; -q silences it)
hc chart-symlink-png 0 'wrote out/swpd.png' '
    echo secret > target; ln -s "$W/target" out/swpd.png
    "$B" plot swpd -o out "$SEED0"; rc=$?
    [ "$(cat target)" = secret ] && [ ! -L out/swpd.png ] && [ -s out/swpd.png ] || rc=99'
hc chart-symlink-svg 0 'wrote out/swpd.png and .svg' '
    echo secret > target; ln -s "$W/target" out/swpd.svg
    "$B" plot swpd -o out "$SEED0"; rc=$?
    [ "$(cat target)" = secret ] && [ ! -L out/swpd.svg ] || rc=99'
hc chart-symlink-dangling 0 'wrote' '
    ln -s "$W/nothere" out/swpd.png
    "$B" plot swpd -o out "$SEED0"; rc=$?
    [ ! -e nothere ] && [ ! -L out/swpd.png ] || rc=99'
# Under ulimit -f (a full disk, in KiB): non-zero, and only complete
# images (swpd.png is about 75 KB: 40 cannot hold it, 4000 can). The
# closing line gives the real reason, not a stale errno ("Is a
# directory"): the write's own (1 KiB: the analysis's temporary file) or
# the charts' lines above it.
for lim in 1:1 4:1 40:1 4000:0; do
re='is incomplete \(disk full\?\)|File too large'
[ "${lim#*:}" = 0 ] && re='wrote out/swpd.png and .svg'
hc chart-ulimit-f-${lim%:*} ${lim#*:} "$re" '
    ( ulimit -f '${lim%:*}'; "$B" plot swpd -o out "$SEED0" ); rc=$?
    for f in out/*.png; do [ -f "$f" ] || continue
        tail -c 8 "$f" | od -An -c | grep -q "I   E   N   D" || { echo "incomplete $f" >&2; rc=98; }; done
    for f in out/*.svg; do [ -f "$f" ] || continue
        tail -c 16 "$f" | grep -q "</svg>" || { echo "incomplete $f" >&2; rc=98; }; done
    grep "could not be drawn" err | grep -Ev "drawn: (File too large|see above)\$" && rc=97'
done
hc chart-gnuplot-fails 1 'gnuplot: .*exit status 3|swpd.gp.*fake failure' '
    fakegp fail; "$B" plot swpd -q -o out "$SEED0"; rc=$?
    ls out | grep -q "\.png\|\.svg" && rc=99'
hc chart-gnuplot-truncated-png 1 'swpd.png is incomplete' '
    fakegp truncpng; "$B" plot swpd -q -o out "$SEED0"; rc=$?
    ls out | grep -q "\.png\|\.svg" && rc=99'
hc chart-gnuplot-truncated-svg 1 'swpd.svg is incomplete' '
    fakegp truncsvg; "$B" plot swpd -q -o out "$SEED0"; rc=$?
    ls out | grep -q "\.png\|\.svg" && rc=99'
hc chart-gnuplot-killed 1 'killed by signal 9' '
    fakegp kill9; "$B" plot swpd -q -o out "$SEED0"; rc=$?
    ls out | grep -q "\.png\|\.svg" && rc=99'
hc chart-gnuplot-no-image 1 'gnuplot made no swpd.png' '
    fakegp nothing; "$B" plot swpd -q -o out "$SEED0"'
# Interrupted while gnuplot (and a child it started) hangs: 128 + signal,
# the process group killed, nothing written after benchlog exits.
for sig in INT:130 TERM:143 HUP:129; do
hc chart-interrupt-${sig%:*} ${sig#*:} 'interrupted' '
    fakegp hang; env --default-signal "$B" plot swpd -q -o out "$SEED0" & p=$!
    i=0; while [ ! -s child.pid ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -'${sig%:*}' $p; wait $p; rc=$?
    sleep 1.5
    [ -e out/late.png ] && { echo "written after exit" >&2; rc=99; }
    # alive, not a zombie left for a reaper that is slow to come
    ps -o stat= -p "$(cat child.pid)" 2>/dev/null | grep -qv Z && { echo "child alive" >&2; rc=98; }
    ls out | grep -q "\.png\|\.svg" && rc=97'
done
hc chart-stale-private-folder 0 'wrote' '
    mkdir out/.gp-AbCdEf; echo 999999999 > out/.gp-AbCdEf/.benchlog-pid; echo x > out/.gp-AbCdEf/swpd.png
    "$B" plot swpd -o out "$SEED0"'
# A gnuplot that hangs is killed after the timeout (120 s;
# BENCHLOG_GNUPLOT_TIMEOUT makes it 1 s here), its process group with it:
# the child it started does not write late.png 3 s later, and is gone.
hc chart-gnuplot-timeout 1 'swpd.gp: killed after 1 s' '
    fakegp hang; BENCHLOG_GNUPLOT_TIMEOUT=1 "$B" plot swpd -q -o out "$SEED0"; rc=$?
    sleep 2.5
    [ -e out/late.png ] && { echo "written after the timeout" >&2; rc=99; }
    ps -o stat= -p "$(cat child.pid)" 2>/dev/null | grep -qv Z && { echo "child alive" >&2; rc=98; }
    ls out | grep -q "\.png\|\.svg" && rc=97; true'
hc chart-gnuplot-timeout-report 1 'a chart could not be drawn; rep left as it was' '
    fakegp hang; BENCHLOG_GNUPLOT_TIMEOUT=1 "$B" report -q -o rep "$SEED0"; rc=$?
    sleep 2.5
    [ -e rep/plots/late.png ] || ls rep.tmp-*/plots/late.png 2>/dev/null && rc=99; true'
hc env-gnuplot-timeout-bad 2 '^benchlog: BENCHLOG_GNUPLOT_TIMEOUT takes a whole number of seconds from 1 to 86400, not "0"$' '
    BENCHLOG_GNUPLOT_TIMEOUT=0 "$B" plot swpd -o out "$SEED0"'
# A failed chart fails the report: status 1, the earlier report left as
# it was, no temporary folder.
hc chart-report-gnuplot-fails 1 'a chart could not be drawn; rep left as it was' '
    fakegp fail; "$B" report -q -o rep "$SEED0"; rc=$?
    grep "could not be drawn (" err | grep -qv "drawn (see above)\$" && rc=97'
# A temporary file of the analyses that cannot be written (a full /tmp:
# shim.c HC_FULL_SPOOL, each of the report's three spools in turn) fails
# the report with the real reason, as plot gives it, never a bare
# "input/output error".
hc report-spool-full 1 'vmstat charts could not be drawn \(No space left on device\)' '
    shim || exit 0
    rc=1
    for n in 1 2 3; do
        HC_FULL_SPOOL=$n LD_PRELOAD="$W/shim.so" "$B" report -q -o rep2 "$SEED0"
        [ $? = 1 ] && [ ! -e rep2 ] || rc=99
    done
    grep -q "input/output error" err && rc=97'
# The analyses' temporary files are made complete (analysis.h finish)
# before any section is written: the runs section's (seed 000's chkmmt
# averages, the report's first spool) on a full /tmp reads as
# docs/errors.md says, where it read "cannot write the runs section".
hc report-spool-full-finish 1 '^benchlog report: cannot write a temporary file in .*: No space left on device$' '
    shim || exit 0
    HC_FULL_SPOOL=1 LD_PRELOAD="$W/shim.so" "$B" report -q -o rep "$FX/mail/seed000.eml"; rc=$?
    grep -q "section" err && rc=97; true'
hc chart-report-truncated-png 1 'swpd.png is incomplete' '
    fakegp truncpng; "$B" report -q -o rep "$SEED0"'
# The report never removes what it did not write (report/outdir.h O1): a
# file written into the -o folder while the report is built (here by the
# gnuplot it runs) is there afterwards, with the new report around it.
hc outdir-user-file-empty-folder 0 'rep2/user.txt was not written by benchlog \(it appeared during the run\); kept' '
    mkdir rep2; HC_WRITE=$W/rep2/user.txt; export HC_WRITE; fakegp write
    "$B" report -q -o rep2 "$SEED0"; rc=$?
    [ "$(cat rep2/user.txt)" = "the user'"'"'s own" ] || rc=99
    [ -s rep2/report.html ] && [ -f rep2/.benchlog-report ] || rc=98
    ls -d rep2.kept-* 2>/dev/null && rc=97; true'
hc outdir-user-file-earlier-report 0 'rep/plots/user.txt was not written by benchlog' '
    may_change=rep; HC_WRITE=$W/rep/plots/user.txt; export HC_WRITE; fakegp write
    "$B" report -q -o rep "$SEED1"; rc=$?
    [ -f rep/plots/user.txt ] || rc=99
    grep -q contest rep/report.md || rc=98
    ls rep/plots | grep -q swpd && rc=97; true'
hc outdir-user-replaces-report-file 0 'earlier folder is kept whole as rep\.kept-' '
    may_change=rep; HC_WRITE=$W/rep/report.md; export HC_WRITE; rm rep/report.md; fakegp write
    "$B" report -q -o rep "$SEED1"; rc=$?
    [ "$(cat rep.kept-*/report.md)" = "the user'"'"'s own" ] || rc=99
    grep -q contest rep/report.md || rc=98'
hc outdir-folder-made-during-run 0 'rep3/user.txt was not written by benchlog' '
    HC_WRITE=$W/rep3/user.txt; export HC_WRITE
    mkdir -p fakebin; printf "#!/bin/sh\nmkdir -p \"%s/rep3\"\nexec sh \"%s/fake-gnuplot\" write \"\$@\"\n" "$W" "$HOST" > fakebin/gnuplot
    chmod +x fakebin/gnuplot; PATH="$W/fakebin:$PATH" "$B" report -q -o rep3 "$SEED0"; rc=$?
    [ -f rep3/user.txt ] && [ -s rep3/report.md ] || rc=99'
