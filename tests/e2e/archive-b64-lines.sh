#!/bin/sh
# Mail R7 (docs/mail.md): every line of the file is used or skipped once,
# also where several decoded lines start in one base64 line; the count is
# the file's (wc -l), and stderr, report.md and skipped.csv say the same.
# fixtures/archives/linux-block-b64.mbox (README there) is one message of
# the linux-block archive, its body base64 (13 lines). By hand, with
# 57 decoded bytes per 76-character line: line 1 and 25 "mbox
# separator", 2-10 "mail header"; decoded lines start in lines 11-13,
# 15, 16, 18-23 and in none of 14 and 17; line 24 (empty, in the part)
# holds none either: "encoded line" 14, 17, 24. The first decoded line
# starting in each: blank (">>>   ", ">", "") in 12, 21, 23: "blank
# line" 3; prose in 11, 13, 15, 16, 18, 19, 20, 22: "no format
# recognised" 8. 2 + 9 + 3 + 3 + 8 = 25 lines, 0 used.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$TOP/fixtures/archives"
f=linux-block-b64.mbox
[ "$(wc -l < "$f")" -eq 25 ] || { echo "fixture: want 25 lines"; exit 1; }
"$BENCHLOG" report -o "$tmp/r" "$f" 2>"$tmp/err" || [ $? -eq 1 ]
want="benchlog: 25 lines: 0 used, 25 skipped; no records
  skipped        9  mail header
  skipped        8  no format recognised
  skipped        3  blank line
  skipped        3  encoded line (decoded text has fewer lines)
  skipped        2  mbox separator"
[ "$(head -6 "$tmp/err")" = "$want" ] || { cat "$tmp/err"; echo "stderr: want $want"; exit 1; }
grep -qF '**1 input**, 25 lines: **0 used**, 25 skipped;' "$tmp/r/report.md" ||
    { grep lines "$tmp/r/report.md"; echo "report.md: want 25 lines"; exit 1; }
grep -qF '| linux-block-b64.mbox | 25 | 0 | 25 | 0 | 0 |' "$tmp/r/report.md" ||
    { grep '^| ' "$tmp/r/report.md"; echo "report.md: want 25 lines of the input"; exit 1; }
# skipped.csv: the message's lines as one row, 1-25, each line once
awk -F, 'NR > 1 { n += $4; if ($2 != 1 || $3 != 25) bad = 1 } END { exit !(n == 25 && !bad) }' \
    "$tmp/r/skipped.csv" || { cat "$tmp/r/skipped.csv"; echo "skipped.csv: want lines 1-25"; exit 1; }
