#!/bin/sh
# A saved HTML page counts each of its source lines once, as `wc -l`
# does, where several text lines start on one (mail R7 alike,
# docs/formats.md "HTML input"). The page below, by hand (7 lines, wc -l
# 7): 1 <html><body>, markup; 2 two paragraphs, prose, one skipped line;
# 3 a paragraph and the `real` line of a time -p block: used, as one of
# its text lines is; 4-5 user and sys, used; 6 three lines a <br> apart,
# prose, one skipped line; 7 </body></html>, markup. So 7 lines: 3 used,
# 4 skipped (2 html markup, 2 no format recognised), one record at line
# 3; and skipped.csv has the skipped lines once, line 3 in no row. Before,
# each text line counted: 11 lines, 3 used, 8 skipped.
set -u
: "${BENCHLOG:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
printf '<html><body>\n<p>hello</p><p>world</p>\n<p>note</p><pre>real 1.00\nuser 0.50\nsys 0.20</pre>\n<p>a<br>b<br>c</p>\n</body></html>\n' > page.html
[ "$(wc -l < page.html)" -eq 7 ] || { echo "page.html is not 7 lines"; exit 1; }
fails=0
"$BENCHLOG" parse -t time page.html > time.csv 2> err
got=$(python3 -c '
import csv
for r in csv.DictReader(open("time.csv")):
    print(r["line"], r["user_s"], r["sys_s"], r["elapsed_s"])')
[ "$got" = "3 0.5 0.2 1" ] || { echo "record: got '$got', want '3 0.5 0.2 1'"; fails=$((fails + 1)); }
printf 'benchlog: 7 lines: 3 used, 4 skipped; 1 record\n  skipped        2  html markup\n  skipped        2  no format recognised\n' > want
cmp -s want err || { echo "stderr:"; diff want err; fails=$((fails + 1)); }
"$BENCHLOG" report -q -o rep page.html 2> err || { cat err; exit 1; }
cut -d, -f2-5 rep/skipped.csv > got
printf 'first_line,last_line,lines,reason\n1,1,1,html markup\n2,2,1,no format recognised\n6,6,1,no format recognised\n7,7,1,html markup\n' > want
cmp -s want got || { echo "skipped.csv:"; diff want got; fails=$((fails + 1)); }
exit $((fails > 0))
