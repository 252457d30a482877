#!/bin/sh
# Averages only over comparable runs, on fixtures/mail/groups/commands.mbox
# (one thread, so one group "blk: faster discard"). Expected by hand:
# - summary averages the time blocks apart by command: blkdiscard
#   /dev/nvme0n1 (1 s and 3 s: mean 2.000), blkdiscard /dev/md0 (9.000),
#   and the two bash blocks whose command is unknown (2 s and 4 s: 3.000;
#   sys 1 s and 3 s: 2.000), with a note that those come from 2 messages;
# - stats -t time splits the group by command the same way.
set -eu
f="$TOP/fixtures/mail/groups/commands.mbox"
s=$("$BENCHLOG" summary -q "$f")
fail=0
want() { printf '%s\n' "$s" | grep -A"$2" -Fx -- "$1" | grep -Fxq -- "$3" ||
    { echo "summary: no \"$3\" under \"$1\""; fail=1; }; }
want "blk: faster discard [blkdiscard /dev/nvme0n1]" 2 "Elapsed (wall clock) time: 2.000"
want "blk: faster discard [blkdiscard /dev/md0]" 2 "Elapsed (wall clock) time: 9.000"
want "blk: faster discard" 4 "Elapsed (wall clock) time: 3.000"
want "blk: faster discard" 3 "System time (seconds): 2.000"
want "blk: faster discard" 5 "note: the timed command is not known and these runs come from 2 messages: they may not be runs of one experiment"
got=$("$BENCHLOG" stats -q -f csv -t time -c elapsed_s "$f" | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin): print("%s|%s|%s" % (r["command"], r["n"], r["mean"]))')
exp='blkdiscard /dev/nvme0n1|2|2
blkdiscard /dev/md0|1|9
|2|3'
[ "$got" = "$exp" ] || { echo "stats by command:"; echo "$got"; fail=1; }
exit $fail
