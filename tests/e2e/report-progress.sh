#!/bin/sh
# Progress ("benchlog: N/M files, B MB, X MB/s, m:ss left": a FIFO has no
# size, so no total and no share) appears on stderr
# when it is a terminal and the work takes more than a second; never with
# -q, never when stderr is a file; stdout carries nothing, the note
# "report written to ..." goes to stderr unless -q.
# The terminal is a pseudo-terminal from script(1) (util-linux); a FIFO
# whose writer waits 2 s before it writes makes the pass last that long;
# the line is drawn after each chunk read (parsers/pass.c), so once the
# FIFO's data come.
set -eu
command -v script >/dev/null || exit 77
command -v mkfifo >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
seed="$TOP/fixtures/seeds/000_a7bf8587c1dba76c.txt"
slow() {   # slow OUTPUT-FILE BENCHLOG-ARGS...: run with a 2 s input on a pty
    out=$1; shift
    rm -f pipe; mkfifo pipe
    ( sleep 2; cat "$seed" ) > pipe &
    script -qec "$*" /dev/null < /dev/null > "$out"
    wait
}
slow tty.out "$BENCHLOG" report -j2 -o rep "$seed" pipe
grep -q 'benchlog: 1/2 files, [0-9.]* MB, [0-9.]* MB/s, [0-9?:]* left' tty.out
grep -q 'report written to rep/report.html' tty.out
slow quiet.out "$BENCHLOG" report -q -j2 -o rep "$seed" pipe
if grep -q 'MB/s' quiet.out; then echo "progress with -q"; exit 1; fi
if grep -q 'report written to' quiet.out; then echo "note with -q"; exit 1; fi
# stderr to a file: no progress there, and nothing but the result on stdout
rm -f pipe; mkfifo pipe
( cat "$seed"; sleep 2 ) > pipe &
"$BENCHLOG" report -j2 -o rep "$seed" pipe > out 2> err
wait
if grep -q 'MB/s' err; then echo "progress on a file"; exit 1; fi
[ ! -s out ]
grep -qx 'report written to rep/report.html' err
