#!/bin/sh
# Without gnuplot on PATH, `benchlog report` still writes the report: each
# chart's script and data are in plots/, no image is made, stderr says how
# to render them, report.md says so too, and report.html puts a note naming
# the script where the chart would be. Exit status 0.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
mkdir empty-path
rc=0
PATH="$tmp/empty-path" "$BENCHLOG" report -q -o rep "$TOP"/fixtures/seeds/*.txt > out 2> err || rc=$?
[ "$rc" -eq 0 ] || { echo "exit $rc"; cat err; exit 1; }
[ ! -s out ]   # -q: nothing on stdout
grep -q 'gnuplot not found: the charts are scripts and data in rep/plots; render them with: cd rep/plots && for f in \*.gp; do gnuplot "$f"; done' err
# Every chart the report names has its script and data, and no image.
charts=$(sed -n 's/^Files of chart `\([^`]*\)`.*/\1/p' rep/report.md)
[ -n "$charts" ] || { echo "no chart named in report.md"; exit 1; }
for c in $charts; do
    test -f "rep/plots/$c.gp"
    test -f "rep/plots/$c-1.dat"
    test ! -e "rep/plots/$c.png"
    test ! -e "rep/plots/$c.svg"
    grep -q "chart not rendered (gnuplot was not found): run gnuplot $c.gp in the plots folder" rep/report.html
done
grep -q 'gnuplot was not found when this report was made' rep/report.md
if grep -q '<img' rep/report.html; then echo "an <img> without its image"; exit 1; fi
# The scripts render as the message says (when gnuplot is here).
if command -v gnuplot >/dev/null; then
    (cd rep/plots && for f in *.gp; do gnuplot "$f"; done)
    for c in $charts; do
        test -s "rep/plots/$c.png"
        test -s "rep/plots/$c.svg"
    done
fi
