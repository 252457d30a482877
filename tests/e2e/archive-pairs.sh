#!/bin/sh
# Before and after in one message (parsers/labels.c, rule L4b of
# parsers/dispatch.c) on four real messages of the linux-block archive,
# fixtures/archives/linux-block-pairs.mbox.gz (README there). Expected by
# hand from the messages (elapsed: 0m 16.62s = 16.62 s, 3m16.001s =
# 196.001 s):
#   1 zram multi-page write-back: "before modification:" over three
#     BusyBox time blocks, "after modification:" over three more;
#   2 zram writeback performance: "Without changes:" and "With changes:",
#     each with the `$ time ...` command line between label and block;
#   3 ATA PASS-THROUGH: "NOK: v6.18-rc3:" and "OK: v6.18-rc3 with
#     42f22fe36d51 reverted:", a blank line and a for-loop between each
#     label and its 21 `real` lines;
#   4 a reply quoting a message with "Without this patch:", "Just adding
#     this patch on the previous:", "With:", "Without:" over GNU time -v
#     excerpts (quoted, depth 2), then its own block under prose: the
#     quoted labels end where the reply's text starts, so its own record
#     has the thread, never "Without".
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BENCHLOG" parse -q -t time "$TOP/fixtures/archives/linux-block-pairs.mbox.gz" > "$tmp/t.csv"
got=$(python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("%s|%s|%s|%s" % (r["quoted"], r["elapsed_s"], r["group"], r["group_source"]))' "$tmp/t.csv")
nok='NOK: v6.18-rc3|label'
ok='OK: v6.18-rc3 with 42f22fe36d51 reverted|label'
want="0|16.62|before modification|label
0|15.38|before modification|label
0|15.58|before modification|label
0|1.36|after modification|label
0|1.36|after modification|label
0|1.39|after modification|label
0|68.648|Without changes|label
0|15.496|With changes|label"
for v in 1.533 1.133 6.431 1.466 5.551 6.093 9.104 0.254 36.142 196.001 290.856 0.409 \
         22.833 3.359 63.895 21.314 5.18 10.178 2.251 15.205 0.206; do
    want="$want
0|$v|$nok"
done
for v in 0.223 0.187 0.199 0.226 0.229 0.215 0.212 0.211 0.193 0.204 0.202 0.224 \
         0.223 0.219 0.194 0.209 0.211 0.225 0.197 0.204 0.189; do
    want="$want
0|$v|$ok"
done
want="$want
2|2.04|Without this patch|label
2|13.45|Just adding this patch on the previous|label
2|4.84|With|label
2|1.53|Without|label
0|1.53|block: significant performance regression in iSCSI rescan|thread"
[ "$got" = "$want" ] && exit 0
echo "time rows (quoted|elapsed|group|group_source):"
printf '%s\n' "$want" > "$tmp/want"
printf '%s\n' "$got" | diff -u "$tmp/want" - || true
exit 1
