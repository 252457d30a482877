#!/bin/sh
# Re-running `benchlog report` into the same folder replaces it whole; a
# folder benchlog did not make is refused (exit 2, left alone); a run
# interrupted by SIGINT or SIGTERM (while it waits on a pipe that never
# ends) exits 130 or 143 (128 + the signal), leaves the earlier report
# byte for byte as it was and leaves no temporary folder behind, while a
# signal ignored when it started stays ignored; a report inside its input
# folder does not read itself.
set -eu
command -v mkfifo >/dev/null || exit 77
env --default-signal=INT true 2>/dev/null || exit 77   # coreutils 8.31 and later
tmp=$(mktemp -d)
writer=""
cleanup() {
    [ -n "$writer" ] && kill "$writer" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp"
seeds="$TOP/fixtures/seeds"
"$BENCHLOG" report -q -o rep "$seeds"/000_a7bf8587c1dba76c.txt > /dev/null
test -f rep/report.html
test -f rep/.benchlog-report
echo stale > rep/stale.txt
"$BENCHLOG" report -q -o rep/ "$seeds"/*.txt > /dev/null
test ! -e rep/stale.txt
grep -q '07df0cd7d9b0f35d' rep/report.md
cp -a rep ref

# Not ours: refused, untouched.
mkdir mine
echo keep > mine/notes.txt
rc=0; "$BENCHLOG" report -q -o mine "$seeds"/000_a7bf8587c1dba76c.txt > out 2> err || rc=$?
[ "$rc" -eq 2 ] || { echo "report into a foreign folder: exit $rc"; exit 1; }
grep -q 'benchlog did not make' err
[ "$(cat mine/notes.txt)" = keep ]
test ! -s out

# The report inside its input folder: its own files are not read, so a
# second run gives the same report.
mkdir logs
cp "$seeds"/*.txt logs/
"$BENCHLOG" report -q -o logs/rep logs > /dev/null 2> err1
cp -a logs/rep logs-rep1
"$BENCHLOG" report -q -o logs/rep logs > /dev/null 2> err2
diff -r logs-rep1 logs/rep
grep -q "not reading logs/rep (the report's own folder, inside an input folder)" err2
# 392 lines: `wc -l` counts 389 line ends and none of the three seeds ends
# with one (tail -c1), so each has one line more.
grep -q '^| \*\*total\*\* | \*\*392\*\* |' logs/rep/report.md

for sig in INT TERM; do
    mkfifo pipe
    # One record, then the pipe stays open with nothing more to read.
    ( printf '2.4.9-z\nPASS ... 1000 bytes allocated.\n'; sleep 60 ) > pipe &
    writer=$!
    # A background job of a script starts with SIGINT ignored (POSIX),
    # and benchlog leaves an ignored signal ignored: given back its
    # default action here, as an interactive shell would.
    env --default-signal=INT "$BENCHLOG" report -q -j2 -o rep "$seeds"/000_a7bf8587c1dba76c.txt pipe > out 2> err &
    pid=$!
    # Wait until the temporary folder exists, then interrupt.
    n=0
    while [ -z "$(ls -d rep.tmp-* 2>/dev/null)" ] && [ $n -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
    test -n "$(ls -d rep.tmp-* 2>/dev/null)"
    sleep 0.3
    kill -"$sig" "$pid"
    rc=0; wait "$pid" || rc=$?
    kill "$writer" 2>/dev/null || true
    wait "$writer" 2>/dev/null || true
    writer=""
    want=130; [ "$sig" = TERM ] && want=143
    [ "$rc" -eq "$want" ] || { echo "SIG$sig: exit $rc, not $want"; cat err; exit 1; }
    grep -q 'interrupted; rep left as it was' err
    test ! -s out
    diff -r ref rep
    [ -z "$(ls -d rep.* 2>/dev/null)" ] || { echo "left behind: $(ls -d rep.*)"; exit 1; }
    rm -f pipe
done

# A signal ignored when benchlog started (nohup, a background job) stays
# ignored: SIGTERM then does not stop the report, which ends when its
# input does and is written whole.
mkfifo pipe
( printf '2.4.9-z\nPASS ... 1000 bytes allocated.\n'; sleep 1 ) > pipe &
writer=$!
( trap '' TERM; exec "$BENCHLOG" report -q -j2 -o rep "$seeds"/000_a7bf8587c1dba76c.txt pipe ) > out 2> err &
pid=$!
sleep 0.4
kill -TERM "$pid" 2>/dev/null || true
rc=0; wait "$pid" || rc=$?
wait "$writer" 2>/dev/null || true
writer=""
[ "$rc" -eq 0 ] || { echo "SIGTERM ignored at start: exit $rc, not 0"; cat err; exit 1; }
[ ! -s out ]   # -q: nothing on stdout, the note silenced
test -f rep/report.html
rm -f pipe
