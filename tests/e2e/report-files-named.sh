#!/bin/sh
# Every file and folder a report writes is named in `report --help`, in
# benchlog-report(1) and in the README (issue 35 item 5): a report on the
# seeds, and on 26 small inputs for inputs.csv (written past 25).
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BENCHLOG" report -q -o "$tmp/r" "$TOP"/fixtures/seeds/*.txt || [ $? -eq 1 ]
mkdir "$tmp/in"
for i in $(seq 26); do printf 'PASS ... %d bytes allocated.\n' "$i" > "$tmp/in/m$i.txt"; done
"$BENCHLOG" report -q -o "$tmp/r2" "$tmp/in"
"$BENCHLOG" report --help > "$tmp/help"
fail=0
for name in $( (ls "$tmp/r"; ls "$tmp/r2") | sort -u); do
    [ -d "$tmp/r/$name" ] || [ -d "$tmp/r2/$name" ] && name="$name/"
    for doc in "$tmp/help" "$TOP/man/benchlog-report.1.scd" "$TOP/README.md"; do
        grep -qF -- "$name" "$doc" || { echo "$name: not named in $doc"; fail=1; }
    done
done
exit $fail
