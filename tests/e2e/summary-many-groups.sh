#!/bin/sh
# Issues 10 and 34: `benchlog summary` under 16 MiB whatever the input; a
# folder of small logs can have a group (kernel name) per file, tens of
# thousands of them. The runs analysis holds 256 groups in memory and
# every group's accumulator and name, the index from name to group and
# the chart points in stores that move to temporary files past 256 KiB
# (analyze/runs.c); so do the parse context's run numbers (core/ctx.h)
# and the list of input paths (input/reader.h); --baseline's check keeps
# the first 100 names only (analyze/registry.c, BL_GROUPS_LISTED).
#
# Input, from python3 below: G groups, each in two files, one in a/ and one
# in b/ (so every group comes back after all the others: read back from
# the temporary file once G > 256), each file one GNU time -v block whose
# elapsed time, user time and minor faults the generator picks per file.
# Expected, worked out by the generator: for every group, "Averages for 2
# timed runs", the mean elapsed time to 3 decimals, the mean user time and
# the mean minor faults (to 2 decimals, as chkmmt prints them), and every
# group printed once.
#
# Memory: 2,000 and 20,000 groups (4,000 and 40,000 files) may differ by
# at most SLACK KiB. Measured on 2026-12-06: 11.1 and 19.5 MiB before the
# stores (8.4 MiB growth, about 500 bytes a group: massif named the
# runs slot table, group names and maps, the run counters, the list of
# paths), 10.6 and 14.7 MiB after (4.1 MiB), 10.4 and 13.9 MiB with the
# parse context's run numbers (core/ctx.h, which number a group's runs
# across files) in stores too, 10.8 and 11.0 MiB with the list of paths
# (input/reader.h) in a store as well. Nothing kept grows with the groups
# or files now but those seven stores (4 of the runs analysis, 2 of the
# run numbers, the paths), each at most 256 KiB in memory, the rest in
# temporary files: SLACK is 2 MiB (1.75 MiB of stores filling up, and
# allocator noise), which the build before either change failed.
#
# Then the error path: with a file size limit (ulimit -f, SIGXFSZ ignored)
# the temporary file cannot be written: exit 1, a clear message, nothing
# on stdout.
set -eu
command -v python3 >/dev/null || exit 77
[ -x /usr/bin/time ] || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SLACK=2048

gen() {
    python3 - "$1" "$2" <<'PY'
import os, sys
out, g = sys.argv[1], int(sys.argv[2])
block = """\tCommand being timed: "mtest01 -p80 -w"
\tUser time (seconds): {user:.2f}
\tSystem time (seconds): 2.74
\tPercent of CPU this job got: 10%
\tElapsed (wall clock) time (h:mm:ss or m:ss): {mm}:{ss:05.2f}
\tAverage shared text size (kbytes): 0
\tAverage unshared data size (kbytes): 0
\tAverage stack size (kbytes): 0
\tAverage total size (kbytes): 0
\tMaximum resident set size (kbytes): 0
\tAverage resident set size (kbytes): 0
\tMajor (requiring I/O) page faults: 140
\tMinor (reclaiming a frame) page faults: {minor}
\tVoluntary context switches: 0
\tInvoluntary context switches: 817
\tSwaps: 0
\tFile system inputs: 0
\tFile system outputs: 0
\tSocket messages sent: 0
\tSocket messages received: 0
\tSignals delivered: 0
\tPage size (bytes): 4096
\tExit status: 0
"""
want = open(os.path.join(out, 'want'), 'w')
for half in ('a', 'b'):
    os.makedirs(os.path.join(out, half), exist_ok=True)
for i in range(g):
    vals = []
    for k, half in enumerate(('a', 'b')):
        el = 30 + (i * 7 + k * 13) % 200 + ((i + k) % 100) / 100   # seconds, 2 decimals
        user = ((i * 3 + k * 5) % 500) / 100
        minor = 1000 + (i * 11 + k * 17) % 90000
        vals.append((el, user, minor))
        with open(os.path.join(out, half, 'f%05d.txt' % i), 'w') as f:
            f.write('2.4.%d-grp%d\n\n' % (i % 30, i))
            f.write(block.format(user=user, mm=int(el // 60), ss=el - 60 * int(el // 60), minor=minor))
    el = (vals[0][0] + vals[1][0]) / 2
    user = (vals[0][1] + vals[1][1]) / 2
    minor = (vals[0][2] + vals[1][2]) / 2
    want.write('2.4.%d-grp%d|%.3f|%.3f|%.2f\n' % (i % 30, i, el, user, minor))
PY
}

# check DIR OUT: every group's block in OUT against DIR/want
check() {
    python3 - "$1/want" "$2" <<'PY'
import sys
want = {}
for line in open(sys.argv[1]):
    g, el, user, minor = line.rstrip('\n').split('|')
    want[g] = (el, user, minor)
lines = open(sys.argv[2]).read().split('\n')
seen = {}
for i, l in enumerate(lines):
    if l in want and i + 1 < len(lines) and lines[i + 1].startswith('Averages for'):
        if l in seen:
            sys.exit('%s printed twice' % l)
        blk = lines[i + 1:i + 8]
        got = {}
        for b in blk:
            if b.startswith('Elapsed (wall clock) time: '):
                got['el'] = b.split(': ')[1]
            elif b.startswith('User time (seconds): '):
                got['user'] = b.split(': ')[1]
            elif b.startswith('Minor (reclaiming a frame) faults: '):
                got['minor'] = b.split(': ')[1]
        el, user, minor = want[l]
        if blk[0] != 'Averages for 2 timed runs' or got.get('el') != el or \
           got.get('user') != user or got.get('minor') != minor:
            sys.exit('%s: got %r %r, want 2 runs, elapsed %s, user %s, minor %s'
                     % (l, blk[0], got, el, user, minor))
        seen[l] = True
if len(seen) != len(want):
    sys.exit('%d of %d groups printed' % (len(seen), len(want)))
PY
}

. "$TOP/tests/lib/rss.sh"

mkdir "$tmp/small" "$tmp/large"
gen "$tmp/small" 2000
gen "$tmp/large" 20000
small=$(peak_rss "$tmp/small.out" summary -q "$tmp/small/a" "$tmp/small/b")
large=$(peak_rss "$tmp/large.out" summary -q "$tmp/large/a" "$tmp/large/b")
echo "peak RSS: 2,000 groups $small KiB, 20,000 groups $large KiB"
check "$tmp/small" "$tmp/small.out"
check "$tmp/large" "$tmp/large.out"
# Under AddressSanitizer freed memory waits in a quarantine and RSS says
# nothing about the program's own use: the comparison is for plain builds
# (the output and the error path are checked all the same).
if asan_build; then
    echo "AddressSanitizer build: peak RSS not compared"
elif [ $((large - small)) -gt "$SLACK" ]; then
    echo "summary's peak RSS grows with the groups: $small KiB for 2,000, $large KiB for 20,000"
    exit 1
fi

. "$TOP/tests/lib/summary-temp-limit.sh"
temp_limit_check "$tmp" "$tmp/large/a" "$tmp/large/b"
exit 0
