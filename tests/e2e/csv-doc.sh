#!/bin/sh
# docs/csv.md cannot drift from the table definitions: everything after its
# marker line (and the blank line that follows it) must be exactly what
# `benchlog formats --columns` prints, and scripts/gen-csv-doc --check
# must agree. The generated Markdown must also be well-formed: every table
# row has as many cells as its header (a '|' in a doc string is escaped),
# and every table and column benchlog knows is documented: the tables of
# `benchlog formats`, and each table's columns as `benchlog parse -t T`
# prints them in its CSV header (an empty input gives the header alone).
set -eu
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
doc="$TOP/docs/csv.md"
marker='<!-- Generated from the table definitions by scripts/gen-csv-doc (benchlog formats --columns); do not edit below this line. -->'

n=$(grep -cxF -- "$marker" "$doc" || true)
[ "$n" = 1 ] || { echo "docs/csv.md: the marker line is there $n times, want 1"; exit 1; }
awk -v m="$marker" 'found { print } $0 == m { found = 1; getline; if ($0 != "") print }' "$doc" > "$tmp/doc-part"
"$BENCHLOG" formats --columns > "$tmp/gen"
if ! cmp -s "$tmp/doc-part" "$tmp/gen"; then
    echo "docs/csv.md differs from \`benchlog formats --columns\`: run scripts/gen-csv-doc"
    diff -u "$tmp/doc-part" "$tmp/gen" | head -30
    exit 1
fi
BENCHLOG="$BENCHLOG" sh "$TOP/scripts/gen-csv-doc" --check

"$BENCHLOG" formats | awk '/^tables:/ { on = 1; next } on { print $1 }' > "$tmp/tables"
for t in $(cat "$tmp/tables"); do
    "$BENCHLOG" parse -q -t "$t" /dev/null > "$tmp/$t.header" 2> /dev/null || [ $? -eq 1 ]
done
python3 - "$tmp" <<'EOF'
import re, sys
tmp = sys.argv[1]
lines = open(f"{tmp}/gen", encoding="utf-8").read().split("\n")
bad = 0
def cells(row):
    return [c.strip() for c in re.split(r"(?<!\\)\|", row.strip())[1:-1]]
documented, table, ncell = {}, None, None
for i, l in enumerate(lines, 1):
    m = re.match(r"^## `([a-z0-9_]+)`$", l)
    if m:
        table = m.group(1)
        documented[table] = []
        ncell = None
        continue
    if l.startswith("## "):
        table, ncell = "(provenance)", None
        documented[table] = []
        continue
    if l.startswith("|"):
        c = cells(l)
        if ncell is None:
            ncell = len(c)
        elif len(c) != ncell:
            print(f"generated line {i}: {len(c)} cells, header has {ncell}: {l[:80]}")
            bad += 1
        m = re.match(r"^`([^`]+)`$", c[0]) if c else None
        if m:
            documented[table].append(m.group(1))
    else:
        ncell = None
tables = open(f"{tmp}/tables").read().split()
prov = documented.get("(provenance)", [])
for t in tables:
    header = open(f"{tmp}/{t}.header", encoding="utf-8").readline().strip().split(",")
    want = header[len(prov):]
    if header[:len(prov)] != prov:
        print(f"{t}: CSV header starts {header[:len(prov)]}, documented provenance {prov}")
        bad += 1
    if documented.get(t) != want:
        print(f"{t}: documented columns {documented.get(t)} != CSV header {want}")
        bad += 1
sys.exit(1 if bad else 0)
EOF
