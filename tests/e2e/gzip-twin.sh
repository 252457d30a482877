#!/bin/sh
# A folder holding x and x.gz (gzip -k): both are read, with a warning that
# a copy counts its records twice.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$TOP/fixtures/mtest01/generations.txt" "$tmp/a.txt"
gzip -k "$tmp/a.txt"
"$BENCHLOG" parse -q -t mtest01 "$tmp" > "$tmp/out" 2> "$tmp/err"
grep -q "a.txt.gz: a.txt is here too: both are read" "$tmp/err" || { cat "$tmp/err"; exit 1; }
# 6 results in each copy (fixtures/mtest01/generations.mtest01.csv)
[ "$(($(wc -l < "$tmp/out") - 1))" -eq 12 ] || { echo "want 12 rows"; exit 1; }
