#!/bin/sh
# A folder holding x and x.gz (gzip -k): both are read, with a warning that
# a copy counts its records twice. Only x and x.gz are paired: a name that
# sorts between them (a.txt.1) and a .gz without its plain twin get none.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$TOP/fixtures/mtest01/generations.txt" "$tmp/a.txt"
gzip -k "$tmp/a.txt"
cp "$tmp/a.txt" "$tmp/a.txt.1"
cp "$tmp/a.txt" "$tmp/b.log"
gzip "$tmp/b.log"
"$BENCHLOG" parse -q -t mtest01 "$tmp" > "$tmp/out" 2> "$tmp/err"
grep -q "a.txt.gz: a.txt is here too: both are read" "$tmp/err" || { cat "$tmp/err"; exit 1; }
[ "$(grep -c "is here too" "$tmp/err")" -eq 1 ] || { cat "$tmp/err"; echo "want one twin warning"; exit 1; }
# 6 results in each of the 4 files (fixtures/mtest01/generations.mtest01.csv)
[ "$(($(wc -l < "$tmp/out") - 1))" -eq 24 ] || { echo "want 24 rows"; exit 1; }
