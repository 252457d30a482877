#!/bin/sh
# Regression test for the false records found on the linux-block archive
# (fixtures/archives/README.md, docs/archives.md). Expected by hand:
# - no mtest01 row: the 15 messages hold LTP library lines of other
#   tests only (tst_test.c:NNN: TBROK/TCONF ...);
# - the 8 time rows (bash `real/user/sys` blocks, read in the messages;
#   elapsed worked out from m:ss.sss, 12m18.964s = 738.964 s)
#   are grouped by their threads, the subject without Re: and [...] tags,
#   as no label stands right above them: "load", "done" and "NQN:testnqn
#   disconnected 1 controller(s)" are program output, not headings;
#   except the two REQ_OP_VERIFY blocks under "With Verify resulting in
#   REQ_OP_VERIFY to null_blk :-" and "With Emulation resulting in
#   REQ_OP_READ null_blk :-", result labels (rule L4b), whose scope ends
#   at "Below is the summary of testlog :-", before the 0.362 s and
#   0.364 s blocks of the test log.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BENCHLOG" parse -q -o "$tmp/o" "$TOP/fixtures/archives/linux-block-fp.mbox.gz"
fail=0
[ ! -f "$tmp/o/mtest01.csv" ] || [ "$(wc -l < "$tmp/o/mtest01.csv")" -le 1 ] ||
    { echo "mtest01 rows:"; cat "$tmp/o/mtest01.csv"; fail=1; }
got=$(python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("%.3f|%s|%s" % (float(r["elapsed_s"]), r["group"], r["group_source"]))' "$tmp/o/time.csv")
want='574.472|block: Add support for REQ_OP_ASSIGN_RANGE|thread
574.472|block: Add support for REQ_OP_ASSIGN_RANGE|thread
123.773|With Verify resulting in REQ_OP_VERIFY to null_blk|label
738.964|With Emulation resulting in REQ_OP_READ null_blk|label
0.362|block: add support for REQ_OP_VERIFY|thread
0.364|block: add support for REQ_OP_VERIFY|thread
330.328|block: ignore __blkdev_issue_discard() ret value|thread
118.246|block: ignore __blkdev_issue_discard() ret value|thread'
[ "$got" = "$want" ] || { echo "time rows:"; echo "$got"; fail=1; }
exit $fail
