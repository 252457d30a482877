# Stop signals: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGALRM stop a
# run with 128 + the signal and leave no temporary; an earlier report stays
# as it was. The input is a FIFO fed part of a log, so the signal comes
# mid-read, deterministically.
midrun() {   # midrun SIG CMD...: start CMD reading fifo, feed a log, signal it
    sig=$1; shift
    mkfifo fifo
    env --default-signal "$@" & p=$!
    exec 3> fifo
    cat "$SEED0" >&3
    sleep 0.5
    kill -"$sig" $p
    wait $p; rc=$?
    exec 3>&-
}
for sig in HUP:129 INT:130 QUIT:131 USR1:138 ALRM:142 TERM:143; do
hc signal-report-${sig%:*} ${sig#*:} 'interrupted; rep left as it was' \
    'midrun '${sig%:*}' "$B" report -q -o rep fifo'
done
for sig in HUP:129 QUIT:131 TERM:143; do
hc signal-parse-o-${sig%:*} ${sig#*:} 'benchlog: interrupted' \
    'midrun '${sig%:*}' "$B" parse -q -o out fifo; ls -a out | grep -v "^\.\.\?$\|^earlier.csv$" && rc=99'
done
# A stop while parse -o waits for a folder another run holds (flock(1)
# here for 3 s): 128 + 15, nothing lands, no temporary left.
hc signal-parse-o-waiting-for-folder 143 'benchlog: interrupted' '
    flock -o out sleep 3 & f=$!; sleep 0.3
    env --default-signal "$B" parse -q -o out "$SEED0" & p=$!
    sleep 1; kill -TERM $p; wait $p; rc=$?; wait $f
    ls -a out | grep -v "^\.\.\?$\|^earlier.csv$" && rc=99; true'
# stats and compare stop as parse does (they said nothing and printed
# nothing before): the message, 128 + the signal, no output.
hc signal-stats-TERM 143 '^benchlog: interrupted$' 'midrun TERM "$B" stats fifo > o.txt; [ -s o.txt ] && rc=99'
hc signal-stats-csv-INT 130 '^benchlog: interrupted$' 'midrun INT "$B" stats --csv fifo > o.txt; [ -s o.txt ] && rc=99'
hc signal-compare-HUP 129 '^benchlog: interrupted$' 'midrun HUP "$B" compare fifo > o.txt; [ -s o.txt ] && rc=99'
hc signal-summary-HUP 129 'benchlog: interrupted' 'midrun HUP "$B" summary fifo > sum.txt; [ -s sum.txt ] && rc=99'
hc signal-ignored-stays-ignored 0 NONE '
    (trap "" HUP; "$B" parse -q -o out "$SEED0" & p=$!; kill -HUP $p; wait $p)'
# Leftovers of a run killed outright (SIGKILL): the next run to the same
# place removes those whose process is gone, and no other.
hc stale-report-folder 0 "$ACC" '
    mkdir rep.tmp-AbC123; echo 999999999 > rep.tmp-AbC123/.benchlog-pid; echo x > rep.tmp-AbC123/big
    "$B" report -o rep "$SEED0"; rc=$?; may_change=rep
    [ -e rep.tmp-AbC123 ] && rc=99; true'
hc stale-report-folder-live-owner 0 "$ACC" '
    mkdir keep.tmp-AbC123; echo $$ > keep.tmp-AbC123/.benchlog-pid
    "$B" report -o keep "$SEED0"; rc=$?
    [ -d keep.tmp-AbC123 ] || rc=99; rm -rf keep.tmp-AbC123 keep'
hc stale-report-folder-not-ours 0 "$ACC" '
    mkdir keep.tmp-AbC123; echo x > keep.tmp-AbC123/file
    "$B" report -o keep "$SEED0"; rc=$?
    [ -f keep.tmp-AbC123/file ] || rc=99; rm -rf keep.tmp-AbC123 keep'
hc stale-table-file 0 NONE '
    echo x > out/.vmstat.csv.benchlog-999999999-AbC123
    echo y > out/.vmstat.csv.notes
    "$B" parse -q -o out "$SEED0"; rc=$?
    [ -e out/.vmstat.csv.benchlog-999999999-AbC123 ] && rc=99
    [ -e out/.vmstat.csv.notes ] || rc=98; rm -f out/vmstat.csv out/*.csv.notes
    ls out | grep -v earlier.csv | xargs -r -I{} rm -f out/{}'
hc stale-after-sigkill 0 "$ACC" '
    mkfifo fifo; "$B" report -q -o rep2 fifo & p=$!
    exec 3> fifo; cat "$SEED0" >&3; sleep 0.5; kill -KILL $p; wait $p; exec 3>&-
    ls -d rep2.tmp-* > /dev/null 2>&1 || { echo "no leftover to clean" >&2; rc=97; }
    "$B" report -o rep2 "$SEED0"; st=$?; [ -n "$rc" ] || rc=$st
    ls -d rep2.tmp-* 2>/dev/null && rc=99; true'
