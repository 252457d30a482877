#!/bin/sh
# report.html: every section in the "Sections" list links to an <h2> id
# that exists (ids written by hand below from the section titles).
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BENCHLOG" report -q -o "$tmp/r" "$TOP"/fixtures/seeds/*.txt > /dev/null
h="$tmp/r/report.html"
for id in inputs mtest01-and-time-runs vmstat-swap-stutter-and-iterations contest latency-distributions tables; do
    grep -q "<h2 id=\"$id\">" "$h" || { echo "no heading id $id"; exit 1; }
done
n=0
for href in $(grep -o 'href="#[^"]*"' "$h" | sed 's/href="#//; s/"$//'); do
    grep -q "id=\"$href\"" "$h" || { echo "link #$href has no target"; exit 1; }
    n=$((n + 1))
done
[ "$n" -ge 5 ] || { echo "only $n section links"; exit 1; }
