#!/bin/sh
# `benchlog report` on 1,000 generated logs (plain, .gz and mbox, in ten
# folders; tests/e2e/gen-mixed-logs.py) gives the same folder, byte for
# byte (diff -r, nothing excluded), and the same stderr and exit status
# with -j1 and -j2; and no line is lost: the lines the report counts equal
# the physical lines of the generated files as counted by the generator
# (Python, not benchlog), and skipped.csv has exactly "skipped" rows.
set -eu
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
lines=$(python3 "$TOP/tests/e2e/gen-mixed-logs.py" "$TOP" logs 1000 | sed -n 's/^lines //p')
[ "$(find logs -type f | wc -l)" -eq 1000 ]
[ "$(find logs -name '*.gz' | wc -l)" -eq 333 ]
[ "$(find logs -name '*.mbox' | wc -l)" -eq 333 ]
rc1=0; "$BENCHLOG" report -j1 -o r1 logs > out1 2> err1 || rc1=$?
rc2=0; "$BENCHLOG" report -j2 -o r2 logs > out2 2> err2 || rc2=$?
[ "$rc1" -le 1 ] || { echo "exit $rc1"; cat err1; exit 1; }
[ "$rc1" = "$rc2" ] || { echo "exit status -j1 $rc1, -j2 $rc2"; exit 1; }
diff -r r1 r2
sed 's/r1/rX/' out1 > o1; sed 's/r2/rX/' out2 > o2
cmp o1 o2
# the same warnings in the same order; the last line names the folder
grep -v '^report written to ' err1 > err1.w
grep -v '^report written to ' err2 > err2.w
cmp err1.w err2.w
# the counts in report.md: "**1000 inputs**, L lines: **U used**, S skipped;"
python3 - r1 "$lines" <<'PY'
import csv, re, sys
d, want = sys.argv[1], int(sys.argv[2])
md = open(d + "/report.md", encoding="utf-8").read()
m = re.search(r"\*\*(\d+) inputs\*\*, (\d+) lines: \*\*(\d+) used\*\*, (\d+) skipped", md)
assert m, "no counts line in report.md"
inputs, total, used, skipped = map(int, m.groups())
rows = sum(int(r["lines"]) for r in csv.DictReader(open(d + "/skipped.csv", newline="", encoding="utf-8")))
# report.md lists the first 25 inputs (analysis.h BL_MD_SHOWN) and
# counts the rest; inputs.csv has every one
inputs_sec = md.split("\n## Inputs\n", 1)[1].split("\n## ", 1)[0]
listed = [l for l in inputs_sec.splitlines()
          if re.match(r"\| logs/[^|]* \| \d+ \| \d+ \| \d+ \| \d+ \| \d+ \|$", l)]
per = [(int(r["lines"]), int(r["used"]), int(r["skipped"]))
       for r in csv.DictReader(open(d + "/inputs.csv", newline="", encoding="utf-8"))]
errors = []
if len(listed) != 25: errors.append("report.md lists %d inputs, not 25" % len(listed))
if "| 975 more inputs, each in [inputs.csv](inputs.csv) |" not in inputs_sec:
    errors.append("report.md does not count the 975 inputs it does not list")
if inputs != 1000: errors.append("inputs %d" % inputs)
if total != want: errors.append("lines %d, generator counted %d" % (total, want))
if used + skipped != total: errors.append("used %d + skipped %d != %d" % (used, skipped, total))
if rows != skipped: errors.append("skipped.csv's ranges hold %d lines, report says %d" % (rows, skipped))
if len(per) != 1000: errors.append("%d input rows" % len(per))
if sum(p[0] for p in per) != total: errors.append("input rows do not add up")
if any(p[1] + p[2] != p[0] for p in per): errors.append("an input's used + skipped != lines")
if errors:
    sys.exit("\n".join(errors))
print("ok: %d lines, %d used, %d skipped" % (total, used, skipped))
PY
