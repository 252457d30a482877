#!/bin/sh
# The writers copy a vmstat row's digits as the line wrote them only where
# that is the value's own text (core/record.h struct bl_digits): leading
# zeros and -S M memory (x 1024) are made from the value, a 15-digit
# count (the longest whole number read, docs/formats.md "Numbers") is
# copied in full, the same in CSV, TSV and JSON Lines. Rows 1-2 of a capture reach the
# writers held (core/block.h), without the line's digits; rows 3-4 with.
# Expected values by hand.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
row='1 0 %s 10 20 30 0 0 0 0 %s %s 5 5 90 0'
{
    echo 'vmstat 1'
    echo 'procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----'
    echo ' r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa'
    for s in 007 0 000 12; do
        printf "$row\n" "$s" 123456789012345 0042
    done
    echo
    echo 'vmstat -S M 1'
    echo 'procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----'
    echo ' r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa'
    for s in 3 03 4 0; do
        printf "$row\n" "$s" 7 100
    done
} > "$tmp/v.txt"
want='7 10 123456789012345 42
0 10 123456789012345 42
0 10 123456789012345 42
12 10 123456789012345 42
3072 10240 7 100
3072 10240 7 100
4096 10240 7 100
0 10240 7 100'
for f in csv tsv jsonl; do
    "$BENCHLOG" parse -q -t vmstat -f "$f" "$tmp/v.txt" > "$tmp/out.$f"
    got=$(python3 - "$f" "$tmp/out.$f" <<'PY'
import csv, json, sys
f, path = sys.argv[1], sys.argv[2]
cols = ("swpd", "free", "in", "cs")
with open(path, newline="") as fh:
    if f == "jsonl":
        rows = [{k: json.dumps(v) for k, v in json.loads(l).items()} for l in fh]
    else:
        rows = list(csv.DictReader(fh, delimiter="," if f == "csv" else "\t"))
for r in rows:
    print(" ".join(r[c] for c in cols))
PY
)
    if [ "$got" != "$want" ]; then
        echo "-f $f: swpd free in cs are"; echo "$got"; echo "want"; echo "$want"; exit 1
    fi
done
