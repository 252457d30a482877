#!/bin/sh
# Output that cannot be written (docs/errors.md): a full disk, a reader
# that goes away, an interrupted run. Expected, by hand:
#   - standard output on /dev/full: exit 1 and one message,
#     "benchlog: cannot write output: No space left on device"
#     (strerror(ENOSPC)); the input is not blamed;
#   - -o into a full file system (a 64 KiB tmpfs in a user and mount
#     namespace; that part is skipped where unshare(1) is not allowed):
#     the message names the table file, "benchlog: cannot write
#     small/mtest01.csv: No space left on device", exit 1, and no file left in the folder, not even a
#     temporary one;
#   - stdout closed early (benchlog parse … | head -1): exit 1, nothing at
#     all on stderr, no core dump;
#   - SIGINT during parse -o: exit 130, "benchlog: interrupted", nothing
#     left in the folder (its temporary files are removed);
#   - SIGINT during report: exit 130, no report folder and
#     no temporary folder beside it (tests/e2e/report-atomic.sh covers an
#     earlier report being kept and a FIFO that never ends).
set -u
: "${BENCHLOG:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0
fail() { echo "FAIL [$case]: $*"; fails=$((fails + 1)); }
want_rc() { [ "$rc" -eq "$1" ] || { fail "exit $rc, want $1"; sed 's/^/  err: /' err | head -5; }; }
want_err() { grep -Fxq -- "$1" err || { fail "no stderr line: $1"; sed 's/^/  err: /' err | head -8; }; }
# 20000 mtest01 results: about 1.3 MB of CSV, more than any pipe holds.
seq 1 20000 | sed 's/.*/PASS ... & bytes allocated./' > many.txt

case=dev-full-stdout
if [ -w /dev/full ]; then
    "$BENCHLOG" parse -t mtest01 many.txt > /dev/full 2> err; rc=$?
    want_rc 1
    want_err "benchlog: cannot write output: No space left on device"
    [ "$(grep -c 'No space left' err)" -eq 1 ] || fail "reported $(grep -c 'No space left' err) times"
    grep -q '^many.txt' err && fail "the input was blamed: $(grep '^many.txt' err)"
    # a short output fails only when stdout is flushed at the end
    printf 'PASS ... 1 bytes allocated.\n' > one.txt
    "$BENCHLOG" parse -q -t mtest01 one.txt > /dev/full 2> err; rc=$?
    want_rc 1
    want_err "benchlog: cannot write output: No space left on device"
    [ "$(wc -l < err)" -eq 1 ] || fail "more than one message: $(cat err)"
    # The commands that print a text on stdout say it in the same words.
    for cmd in summary "stats -t mtest01 -c bytes_allocated"; do
        case="dev-full-stdout ($cmd)"
        # shellcheck disable=SC2086 # the command and its options, split
        "$BENCHLOG" $cmd -q many.txt > /dev/full 2> err; rc=$?
        want_rc 1
        want_err "benchlog: cannot write output: No space left on device"
        [ "$(wc -l < err)" -eq 1 ] || fail "more than one message: $(cat err)"
    done
else
    echo "skip: no /dev/full"
fi

case=closed-stdout
{ "$BENCHLOG" parse -t mtest01 many.txt 2> err; echo $? > rc; } | head -1 > first
rc=$(cat rc)
want_rc 1
[ ! -s err ] || { fail "stderr not empty:"; sed 's/^/  err: /' err | head -5; }
[ "$(cat first)" = "source,line,message_id,date,subject,quoted,group,group_source,run,copy_of,generation,result,bytes_allocated,target_bytes,target_pct,message" ] ||
    fail "first line: $(cat first)"
{ "$BENCHLOG" summary many.txt 2> err; echo $? > rc; } | head -0
rc=$(cat rc)
[ "$rc" -le 1 ] || fail "summary | head -0: exit $rc"
grep -qi 'sanitizer\|core dumped\|segmentation' err && fail "summary crashed: $(head -3 err)"

case=full-tmpfs
if unshare -rm true 2>/dev/null; then
    mkdir small
    unshare -rm sh -c 'mount -t tmpfs -o size=64k tmpfs small && "$0" parse -o small many.txt > out 2> err; echo $? > rc; ls -A small > left' "$BENCHLOG"
    rc=$(cat rc)
    want_rc 1
    want_err "benchlog: cannot write small/mtest01.csv: No space left on device"
    grep -q '^many.txt' err && fail "the input was blamed: $(grep '^many.txt' err)"
    [ ! -s left ] || fail "left in the full folder: $(cat left)"
else
    echo "skip: unshare -rm is not allowed here (no user namespaces)"
fi

case=SIGINT-parse-o
# Big enough that the run is still going after 0.3 s, even with ASan.
i=0; while [ $i -lt 60 ]; do cat many.txt; i=$((i + 1)); done > huge.txt
mkdir tables
# A background job of a script starts with SIGINT ignored (and benchlog
# keeps it so); env --default-signal gives it the usual disposition.
if env --default-signal=INT true 2>/dev/null; then
    env --default-signal=INT "$BENCHLOG" parse -q -o tables huge.txt > out 2> err &
    pid=$!
    # the signal once the run writes its tables, not while it still loads
    # (on a busy machine 0.3 s can pass before its handler is set)
    n=0; while [ -z "$(ls -A tables)" ] && [ $n -lt 200 ] && kill -0 $pid 2>/dev/null; do
        sleep 0.05; n=$((n + 1)); done
    kill -INT $pid
    wait $pid; rc=$?
    if [ "$rc" -eq 0 ]; then
        echo "skip: the run finished before the signal"
    else
        want_rc 130
        want_err "benchlog: interrupted"
        [ -z "$(ls -A tables)" ] || fail "left behind: $(ls -A tables)"
    fi
else
    echo "skip: env --default-signal missing (coreutils < 8.31)"
fi

case=SIGINT-report   # no report folder, no temporary one
# A stand-in gnuplot that takes a second per chart keeps the report busy
# when the signal comes, whatever the machine's speed.
if env --default-signal=INT true 2>/dev/null && "$BENCHLOG" report --help > /dev/null 2>&1; then
    mkdir slowbin
    printf '#!/bin/sh\nsleep 1\n' > slowbin/gnuplot
    chmod +x slowbin/gnuplot
    head -3 many.txt > three.txt
    PATH="$tmp/slowbin:$PATH" env --default-signal=INT "$BENCHLOG" report -q -o rep three.txt > out 2> err &
    pid=$!
    sleep 0.3
    kill -INT $pid
    wait $pid; rc=$?
    want_rc 130
    want_err "benchlog report: interrupted; rep left as it was"
    left=$(ls -d rep rep.* 2>/dev/null)
    [ -z "$left" ] || fail "left behind: $left"
else
    echo "skip: no report command or no env --default-signal"
fi

case=o-folder-chain   # -o DIR is "created if missing", with its parents (mkdir -p)
"$BENCHLOG" parse -q -o deep/p/q many.txt > out 2> err; rc=$?
want_rc 0
[ "$(wc -l < deep/p/q/mtest01.csv)" -eq 20001 ] || fail "parse -o deep/p/q: no mtest01.csv of 20,000 rows"
"$BENCHLOG" plot swpd -q -o deep/c/d "$TOP"/fixtures/seeds/000_a7bf8587c1dba76c.txt > out 2> err; rc=$?
want_rc 0
ls deep/c/d/swpd.gp > /dev/null 2>&1 || fail "plot -o deep/c/d: no swpd.gp"
"$BENCHLOG" report -q -o deep/e/f/rep many.txt > out 2> err; rc=$?
want_rc 0
test -f deep/e/f/rep/report.html || fail "report -o deep/e/f/rep: no report.html"
[ "$(ls -A deep/e/f)" = rep ] || fail "report -o deep/e/f/rep: left beside it: $(ls -A deep/e/f)"
# a file in the way is still an error, named
touch deep/file
"$BENCHLOG" parse -q -o deep/file/x many.txt > out 2> err; rc=$?
want_rc 1
want_err "benchlog parse: cannot create deep/file/x: Not a directory"
# the -o folder itself a file: "Not a directory" too, not the EACCES of
# the open that came after (issue 35)
"$BENCHLOG" parse -q -o deep/file many.txt > out 2> err; rc=$?
want_rc 1
want_err "benchlog parse: cannot create deep/file: Not a directory"
"$BENCHLOG" plot swpd -q -o deep/file "$TOP"/fixtures/seeds/000_a7bf8587c1dba76c.txt > out 2> err; rc=$?
want_rc 1
want_err "benchlog plot: cannot create deep/file: Not a directory"

echo "bad-output: $fails failed"
[ "$fails" -eq 0 ]
