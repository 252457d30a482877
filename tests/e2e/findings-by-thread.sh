#!/bin/sh
# A question is one baseline -> candidate pair within one mail thread
# (docs/statistics.md D12, analyze/compare.h C1): inside one mbox each
# thread's baseline is its own, by the rule for a file. On
# fixtures/mail/groups/threads-baseline.mbox, by hand:
#   alpha: 2.6.1 (10, 11, 12 s) first, 2.6.2 (20, 22, 24 s):
#          2.6.1 -> 2.6.2, 11 -> 22 s, 100 (22 - 11) / 11 = +100 %
#   beta:  2.6.2 (5, 6, 7 s) first, 2.6.1 (8, 10, 12 s) in a reply; the
#          mbox saw 2.6.1 first, but beta's baseline is its own first:
#          2.6.2 -> 2.6.1, 6 -> 10 s, 100 (10 - 6) / 6 = +66.6667 %
#   gamma: patched (3, 4, 5 s) before vanilla (6, 8, 10 s); "vanilla"
#          names the baseline side: vanilla -> patched, 8 -> 4 s, -50 %
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BENCHLOG" report -q -o "$tmp/r" "$TOP/fixtures/mail/groups/threads-baseline.mbox"
got=$(python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["column"] == "elapsed_s":
        print("%s|%s|%s|%s|%s|%.4f" % (r["thread"], r["baseline"], r["candidate"], r["base_mean"],
                                       r["cand_mean"], float(r["pct_change"])))' "$tmp/r/findings.csv" | sort)
want='thread: alpha: results|2.6.1|2.6.2|11|22|100.0000
thread: beta: results|2.6.2|2.6.1|6|10|66.6667
thread: gamma: results|vanilla|patched|8|4|-50.0000'
[ "$got" = "$want" ] || { printf 'got:\n%s\nwant:\n%s\n' "$got" "$want"; exit 1; }
# --help says the same: by default, groups of one mail thread (report/findings.h F1)
"$BENCHLOG" report --help | tr -s ' \n' '  ' | grep -qF 'by default only groups of one mail thread or one file' ||
    { echo "report --help: want the default scope to be one mail thread or one file"; exit 1; }
exit 0
