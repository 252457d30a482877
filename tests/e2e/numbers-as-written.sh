#!/bin/sh
# Numbers as written (issue 35, docs/csv.md "Numbers"): `report` on every
# input under fixtures/ and on the real posts of shared/realworld writes no
# number with a binary-float artefact: no run of six 0s or six 9s before
# the last digit (106.94200000000001, 30.780000000000001,
# 0.29999999999999999). Every CSV of the report is read cell by cell, and
# report.md, besides; the check is a regular expression over the text, not
# benchlog's own formatting.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rw="$TOP/../shared/realworld"
[ -d "$rw" ] || rw=/work/shared/realworld
inputs=$(find "$TOP/fixtures" -type f -name '*.txt' | LC_ALL=C sort)
[ -d "$rw" ] && inputs="$inputs $(find "$rw" -type f -name '*.txt' | LC_ALL=C sort)"
# exit 1: some input was damaged on purpose (fixtures of bad input)
# shellcheck disable=SC2086
"$BENCHLOG" report -q -o "$tmp/rep" $inputs 2>"$tmp/err" || [ $? -eq 1 ] || {
    echo "report failed:"; head -5 "$tmp/err"; exit 1; }
python3 - "$tmp/rep" <<'PY'
import csv, os, re, sys
tail = re.compile(r'(0{6,}|9{6,})[0-9]{1,2}$')
def artefact(c):
    """The significant digits end in six 0s or 9s and one or two more."""
    digits = re.sub(r'e[-+]?[0-9]+$', '', c.lstrip('-')).replace('.', '').lstrip('0')
    return tail.search(digits) is not None
num = re.compile(r'-?[0-9]+\.[0-9]+(e[-+]?[0-9]+)?$|-?[0-9]+e[-+]?[0-9]+$')
csv.field_size_limit(1 << 30)
bad, cells, files = [], 0, 0
for d, _, fs in os.walk(sys.argv[1]):
    for f in sorted(fs):
        p = os.path.join(d, f)
        if f.endswith(".csv"):
            files += 1
            with open(p, newline="", encoding="utf-8") as fh:
                for row in csv.reader(fh):
                    for c in row:
                        if num.match(c):
                            cells += 1
                            if artefact(c):
                                bad.append("%s: %s" % (f, c))
        elif f.endswith(".md"):
            for w in re.findall(r'-?[0-9]+\.[0-9]{6,}(?:e[-+]?[0-9]+)?', open(p, encoding="utf-8").read()):
                if artefact(w):
                    bad.append("%s: %s" % (f, w))
if files < 5 or cells < 100:
    print("too little to check: %d CSV files, %d decimal cells" % (files, cells)); sys.exit(1)
for b in bad[:20]:
    print("float artefact:", b)
sys.exit(1 if bad else 0)
PY
