#!/bin/sh
# What benchlog writes loads without options where users take it: every
# table of the fixtures (every table `benchlog formats` lists must be among
# them) is
#   - imported into sqlite3 with `.import --csv FILE TABLE` (the sqlite3
#     shell, no other option) and read back with Python's sqlite3 module;
#   - read with Python's csv module (default dialect);
#   - written again as TSV and JSON Lines (`-f tsv`, `-f jsonl`).
# The expected values are the CSV file as Python's csv module reads it;
# sqlite3 must give the same header and every cell as the same text, the
# TSV file (its \t \n \r \\ escapes undone) the same text, and the JSON
# Lines file the same keys in the same order, null where the CSV field is
# empty, the same string for text, and for numbers a JSON number written
# with the same text as the CSV cell (one cell path: 4614226, not
# 4614226.0).
set -eu
command -v sqlite3 >/dev/null || exit 77
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BENCHLOG" parse -q -o "$tmp/csv" "$TOP/fixtures" 2>/dev/null || true
"$BENCHLOG" parse -q -f jsonl -o "$tmp/jsonl" "$TOP/fixtures" 2>/dev/null || true
"$BENCHLOG" parse -q -f tsv -o "$tmp/tsv" "$TOP/fixtures" 2>/dev/null || true
"$BENCHLOG" formats | awk '/^tables:/ { on = 1; next } on { print $1 }' > "$tmp/tables"
for f in "$tmp"/csv/*.csv; do
    t=$(basename "$f" .csv)
    sqlite3 "$tmp/db.sqlite" ".import --csv $f $t"
done
python3 - "$tmp" <<'EOF'
import csv, json, math, os, sqlite3, sys
tmp = sys.argv[1]
bad = 0
def fail(msg):
    global bad
    bad += 1
    if bad <= 20:
        print(msg)

class Num:
    """A JSON number as written."""
    def __init__(self, text):
        self.text = text


def tsv_unescape(field):
    out, i = [], 0
    while i < len(field):
        c = field[i]
        if c == "\\" and i + 1 < len(field):
            out.append({"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}.get(field[i + 1], "\\" + field[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)

want_tables = open(f"{tmp}/tables").read().split()
have = sorted(f[:-4] for f in os.listdir(f"{tmp}/csv") if f.endswith(".csv"))
for t in want_tables:
    if t not in have:
        fail(f"table {t}: no rows in the fixtures, so its import is not tested")

db = sqlite3.connect(f"{tmp}/db.sqlite")
cells = 0
for t in have:
    with open(f"{tmp}/csv/{t}.csv", newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    header, data = rows[0], rows[1:]
    if any(len(r) != len(header) for r in data):
        fail(f"{t}.csv: a row's field count differs from the header's")
    # sqlite3 .import --csv: the first row named the columns
    cur = db.execute(f'SELECT * FROM "{t}" ORDER BY rowid')
    names = [d[0] for d in cur.description]
    if names != header:
        fail(f"{t}: sqlite3 columns {names} != CSV header {header}")
    sq = [list(r) for r in cur.fetchall()]
    if sq != data:
        for i, (a, b) in enumerate(zip(data, sq)):
            if a != b:
                fail(f"{t} row {i + 2}: sqlite3 {b} != csv {a}")
                break
        if len(sq) != len(data):
            fail(f"{t}: sqlite3 {len(sq)} rows, csv {len(data)}")
    # TSV
    with open(f"{tmp}/tsv/{t}.tsv", encoding="utf-8", newline="") as fh:
        tl = fh.read().split("\n")
    if tl[-1] != "":
        fail(f"{t}.tsv: last line not ended by LF")
    tv = [[tsv_unescape(x) for x in line.split("\t")] for line in tl[:-1]]
    if tv[0] != header:
        fail(f"{t}.tsv header {tv[0]} != {header}")
    if tv[1:] != data:
        fail(f"{t}.tsv: rows differ from the CSV ({len(tv) - 1} rows, csv {len(data)})")
    # JSON Lines
    with open(f"{tmp}/jsonl/{t}.jsonl", encoding="utf-8") as fh:
        # numbers kept as their text: the same text as the CSV cell
        # (4614226, never 4614226.0: one cell path, docs/csv.md)
        objs = [json.loads(line, parse_int=Num, parse_float=Num) for line in fh]
    if len(objs) != len(data):
        fail(f"{t}.jsonl: {len(objs)} rows, csv {len(data)}")
    for i, (o, r) in enumerate(zip(objs, data)):
        if list(o) != header:
            fail(f"{t}.jsonl row {i + 1}: keys {list(o)} != {header}")
            continue
        for k, c in zip(header, r):
            v = o[k]
            cells += 1
            if c == "":
                ok = v is None or v == ""   # "" only for text known to be empty
            elif isinstance(v, bool) or v is None:
                ok = False
            elif isinstance(v, Num):
                ok = v.text == c
            else:   # text, or a non-finite number written as text
                ok = v == c
            if not ok:
                fail(f"{t}.jsonl row {i + 1} {k}: {v!r}, csv {c!r}")
print(f"{len(have)} tables, {cells} cells compared")
sys.exit(1 if bad else 0)
EOF
