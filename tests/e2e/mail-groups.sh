#!/bin/sh
# Groups in mail (docs/formats.md "Groups", parsers/dispatch.c L1-L6), on
# fixtures/mail/groups/groups.mbox: one time block per message, elapsed
# 1..9 s naming the message. Expected by hand from the rules:
#   1 "With patch" above the data, after a line ending a sentence: label
#   2 the same thread, no label: message 1's label does not carry over;
#     the thread is the subject without Re: and [PATCH v2 1/3]
#   3 "Petr" under "Kind regards,": a sign-off, never a group
#   4 "poll01.c:69: PASS: poll() POLLIN": program output, never a group
#   5 "gave consistent results": the tail of a wrapped sentence
#   6 an attribution line and quoted text above; the subject names
#     5.10.245-rc1 (the first x.y.z version in it)
#   7 "Tested on Linux 6.1.0-rc3 ...": the kernel the body names
#   8 "> Before fix": quoted, the data is not: not its heading
#   9 "done" is program output; the thread of "Fwd: AW: [LIST] done"
# and a plain file's group is its stem.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BENCHLOG" parse -q -t time "$TOP/fixtures/mail/groups/groups.mbox" > "$tmp/t.csv"
got=$(python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("%s|%s|%s" % (r["elapsed_s"], r["group"], r["group_source"]))' "$tmp/t.csv")
want='1|With patch|label
2|loop: speed up LOOP_SET_BLOCK_SIZE|thread
3|zram writeback batching|thread
4|poll01 results|thread
5|poll01 results|thread
6|5.10.245-rc1|subject
7|6.1.0-rc3|kernel
8|discard is slow|thread
9|done|thread'
fail=0
[ "$got" = "$want" ] || { echo "mail groups:"; echo "$got" | diff -u - /dev/fd/3 3<<EOF2 || true
$want
EOF2
fail=1; }
printf 'real\t0m1.500s\nuser\t0m0.000s\nsys\t0m0.100s\n' > "$tmp/kernel-2.6.0.log"
g=$("$BENCHLOG" parse -q -t time "$tmp/kernel-2.6.0.log" | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin): print("%s|%s" % (r["group"], r["group_source"]))')
[ "$g" = "kernel-2.6.0|file" ] || { echo "plain file: got $g, want kernel-2.6.0|file"; fail=1; }
exit $fail
