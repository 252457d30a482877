#!/bin/sh
# Progress within one large file (issue 29), in parse, summary, stats and
# report: on a terminal (script(1)'s pseudo-terminal), the progress line
# counts the bytes read inside the file being parsed, with the share, the
# rate and the time left ("benchlog: 0/1 files, 1.0 of 2.3 MB (44%), 0.9
# MB/s, 0:01 left"), at most 4 lines a second (core/progress.h; the issue
# allows 10); nothing when stderr is not a terminal.
#
# Robust on a fast machine and on a busy one: the input is one gzip file
# (concatenated members, so it is made in a moment and small on disk: the
# share counts its compressed bytes) grown until a plain parse of it takes
# 1.5 s of CPU time (doubling it), more than the second before the first
# line; on a busy machine the runs only last longer and draw more lines. No command is cut short except
# report, which is stopped once it has drawn such a line (its charts of
# millions of rows are not what is tested).
set -eu
command -v script >/dev/null || exit 77
command -v gzip >/dev/null || exit 77
command -v timeout >/dev/null || exit 77
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
now() { date +%s.%N; }
row=' 1  0      0 23181364  11684 1362484    0    0  2402  3750  527 1255 15  6 78  1  0'
printf '$ vmstat 1\nprocs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n' |
    gzip -1 > head.gz
yes "$row" | head -n 300000 | gzip -1 > rows.gz     # 25 MB of rows
cat head.gz rows.gz > big.gz
k=1 took=0
while :; do
    # double the rows
    i=0; while [ $i -lt $k ]; do cat rows.gz >> big.gz; i=$((i + 1)); done
    k=$((k * 2))
    # the CPU time of a plain parse (user + system: what the machine's
    # load does not change, so a busy machine during calibration does not
    # make the input too small for a quiet one after it)
    took=$(python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime)' "$BENCHLOG" parse -q -t vmstat -o cal big.gz)
    rm -rf cal
    awk -v t="$took" 'BEGIN { exit !(t >= 1.5) }' && break
    [ "$k" -le 256 ] || { echo "a parse of $k x 25 MB still takes ${took}s: the machine is too fast to test"; exit 77; }
done
size=$(wc -c < big.gz)
mb=$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1e6 }')
fail=0
# check NAME COMMAND: run COMMAND on a pty; its progress lines must
# include one from inside the file (0 of 1 files done, share below 100 %)
# with a rate and a time left, and be at most 10 a second
check() {
    name=$1; shift
    t0=$(now)
    script -qec "$*" /dev/null < /dev/null > tty.out || true
    el=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')
    tr '\r' '\n' < tty.out | grep -a '^benchlog: [01]/1 files' > lines || true
    if ! grep -Eq "^benchlog: 0/1 files, [0-9.]+ of $mb MB \\([0-9]{1,2}%\\), [0-9.]+ MB/s, [0-9]+:[0-9][0-9] left" lines; then
        echo "$name: no progress line from inside the file ($mb MB, ${el}s):"; head -5 lines; fail=1
    fi
    n=$(wc -l < lines)
    if ! awk -v n="$n" -v t="$el" 'BEGIN { exit !(n <= 10 * t + 1) }'; then
        echo "$name: $n progress lines in ${el}s, more than 10 a second"; fail=1
    fi
}
check parse "$BENCHLOG" parse -t vmstat big.gz '>' /dev/null
check summary "$BENCHLOG" summary big.gz '>' /dev/null
check stats "$BENCHLOG" stats -t vmstat big.gz '>' /dev/null
# report: its charts of millions of rows are not what is tested, so it is
# stopped (SIGTERM: an asynchronous command ignores SIGINT) once a line
# from inside the file has been drawn, or after 120 s; a busy machine only
# makes it wait longer
script -qec "$BENCHLOG report -j2 -o rep big.gz & echo \$! > report.pid; wait" /dev/null < /dev/null > tty.out &
spid=$!
t0=$(now) waited=0
while [ $waited -lt 240 ]; do
    sleep 0.5
    waited=$((waited + 1))
    if tr '\r' '\n' < tty.out | grep -Eaq "^benchlog: 0/1 files, [0-9.]+ of $mb MB \\([0-9]{1,2}%\\), [0-9.]+ MB/s, [0-9]+:[0-9][0-9] left"; then
        break
    fi
done
[ -s report.pid ] && kill -TERM "$(cat report.pid)" 2>/dev/null || true
wait $spid || true
el=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')
tr '\r' '\n' < tty.out | grep -a '^benchlog: [01]/1 files' > lines || true
if ! grep -Eq "^benchlog: 0/1 files, [0-9.]+ of $mb MB \\([0-9]{1,2}%\\), [0-9.]+ MB/s, [0-9]+:[0-9][0-9] left" lines; then
    echo "report: no progress line from inside the file ($mb MB, ${el}s):"; head -5 lines; fail=1
fi
n=$(wc -l < lines)
awk -v n="$n" -v t="$el" 'BEGIN { exit !(n <= 10 * t + 1) }' ||
    { echo "report: $n progress lines in ${el}s, more than 10 a second"; fail=1; }
# stderr not a terminal (stdout is): no progress line at all
script -qec "$BENCHLOG parse -t vmstat big.gz 2> err.txt > /dev/null" /dev/null < /dev/null > /dev/null || true
if grep -aq 'files, ' err.txt; then echo "progress on a stderr that is a file"; fail=1; fi
# -q: none either
script -qec "$BENCHLOG parse -q -t vmstat big.gz > /dev/null" /dev/null < /dev/null > tty.out || true
if tr '\r' '\n' < tty.out | grep -aq '^benchlog: 0/1 files'; then echo "progress with -q"; fail=1; fi
exit $fail
