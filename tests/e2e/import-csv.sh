#!/bin/sh
# What benchlog writes loads without options where users take it: every
# table of the fixtures imported into sqlite3 (.import --csv) and read with
# Python's csv module; row counts must agree with the file (lines - 1), and
# TSV/JSONL must hold the same rows.
set -eu
command -v sqlite3 >/dev/null || exit 77
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BENCHLOG" parse -q -o "$tmp/csv" "$TOP/fixtures" 2>/dev/null || true
"$BENCHLOG" parse -q -f jsonl -o "$tmp/jsonl" "$TOP/fixtures" 2>/dev/null || true
"$BENCHLOG" parse -q -f tsv -o "$tmp/tsv" "$TOP/fixtures" 2>/dev/null || true
n=0
for f in "$tmp"/csv/*.csv; do
    t=$(basename "$f" .csv)
    lines=$(python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8"))); print(len(r)-1)' "$f")
    sq=$(sqlite3 "$tmp/db.sqlite" ".import --csv $f $t" "select count(*) from $t;")
    js=$(python3 -c 'import json,sys; print(sum(1 for l in open(sys.argv[1], encoding="utf-8") if json.loads(l) is not None))' "$tmp/jsonl/$t.jsonl")
    tv=$(($(wc -l < "$tmp/tsv/$t.tsv") - 1))
    if [ "$lines" != "$sq" ] || [ "$lines" != "$js" ] || [ "$lines" != "$tv" ]; then
        echo "$t: python csv $lines rows, sqlite3 $sq, jsonl $js, tsv $tv"
        exit 1
    fi
    n=$((n + 1))
done
[ "$n" -ge 3 ] || { echo "expected at least 3 tables, got $n"; exit 1; }
exit 0
