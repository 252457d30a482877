#!/bin/sh
# Real-world timing logs (copies of shared/realworld 05, 15, 17 in
# fixtures/time/): the values shared/realworld/LOG.md lists, worked out by
# hand there, must come out of `benchlog parse -t time`.
set -eu
cd "$TOP/fixtures/time"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
col() { # file column -> the column's values, one per line
    "$BENCHLOG" parse -q -t time "$1" | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin): print(r[sys.argv[1]])' "$2"
}
fail=0
want() { # what got expected
    if [ "$2" != "$3" ]; then echo "$1: got [$2], want [$3]"; fail=1; fi
}
f=05-timev-interleaved-commentary.txt
want "05 rows" "$(col $f format | wc -l)" 1
want "05 command" "$(col $f command)" "apt-get update"
want "05 status" "$(col $f status) $(col $f status_code)" "exited 100"
want "05 elapsed" "$(col $f elapsed_s)" 0.32
want "05 maxrss" "$(col $f max_rss_kib)" 0
want "05 faults" "$(col $f major_faults) $(col $f minor_faults)" "320 21"
want "05 page size" "$(col $f page_size_bytes)" 4096
f=15-time-blog-bash-p-default-v-cn.txt
want "15 bash real" "$("$BENCHLOG" parse -q -t time $f | python3 -c '
import csv, sys
print(" ".join(r["elapsed_s"] for r in csv.DictReader(sys.stdin) if r["format"] == "bash"))')" \
    "5.064 14.837 0.23 0.024 0.081 0.068 0.068 0.083"
want "15 -p" "$("$BENCHLOG" parse -q -t time $f | grep ',posix-p,' | cut -d, -f18)" 0.15
want "15 default" "$("$BENCHLOG" parse -q -t time $f | grep ',gnu-default,' | cut -d, -f17,18,25,26)" "55,0.12,154,63"
want "15 -v" "$("$BENCHLOG" parse -q -t time $f | grep ',gnu-v,' | cut -d, -f18,23,25,26,36)" "0.17,0,153,64,0"
f=17-timev-partial-ranges-igenvar.txt
want "17 blocks" "$(col $f format | wc -l)" 11
"$BENCHLOG" parse -t time $f > /dev/null 2> "$tmp/err"
want "17 range lines" "$(grep 'value range' "$tmp/err" | awk '{print $2}')" 15
want "17 L1" "$(col $f elapsed_s | sed -n 1p) $(col $f max_rss_kib | sed -n 1p)" "4935 19226000"
want "17 max rss" "$(col $f max_rss_kib | sort -n | tail -1)" 19670912
want "17 longest" "$(col $f elapsed_s | sort -n | tail -1)" 14952
want "17 max ics" "$(col $f involuntary_cs | sort -n | tail -1)" 2703304840
exit $fail
