#!/bin/sh
# Issue 37: an answer a user can trust, on the first screen.
#   - report.md opens, before any table, with one plain-words paragraph
#     per question (report/headline.h H1): seed 001's names Tweaked
#     tunables, read_load and 27 % (by hand from the seed's rows:
#     100 (22.343 - 30.780) / 30.780 = -27.4 %, 2 significant digits), and
#     the interval 4.5-48 % (R: Fieller at 1 - 0.05/48 in
#     tests/stats-oracle/ref.R, [-48.2 %, -4.46 %]), no p-value, no
#     method name;
#   - a family is a question (docs/statistics.md D12): adding
#     ../shared/realworld to the seeds leaves read_load's verdict,
#     interval and adjusted p as they were;
#   - the verdict agrees with its interval (D13) in every findings.csv
#     row of both reports;
#   - `compare` on the seeds gives findings.csv's read_load numbers, and
#     report.sqlite's findings table holds findings.csv's.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
seeds="$TOP/fixtures/seeds"
real=/work/shared/realworld
"$BENCHLOG" report -q -o "$tmp/a" "$seeds"/*.txt 2>/dev/null || fail "report of the seeds"
set -- "$seeds"/*.txt
if [ -d "$real" ]; then set -- "$@" "$real"/*.txt; fi
"$BENCHLOG" report -q -o "$tmp/b" "$@" 2>/dev/null || true
[ -f "$tmp/b/findings.csv" ] || fail "report of the seeds and realworld"
# a thread named by its subject and date alone (realworld 03 has no
# Message-ID): no separator left before the date
if [ -d "$real" ] && grep -q '(\\\?, ' "$tmp/b/report.md"; then fail "empty Message-ID printed as '(, '"; fi
"$BENCHLOG" compare -q -f csv "$seeds"/*.txt > "$tmp/c.csv" 2>/dev/null || true
python3 - "$tmp/a" "$tmp/b" "$tmp/c.csv" <<'PY'
import csv, sys
a, b, c = sys.argv[1:4]
md = open(a + "/report.md", encoding="utf-8").read()
paras = [p for p in md.split("\n\n") if p.strip()]
assert paras[0] == "# benchlog report", paras[0]
first = paras[1]
for want in ("Tweaked tunables", "Default tunables", "read\\_load", "27 %", "4.5–48 %", "3 runs each"):
    assert want in first, (want, first)
for not_want in ("p =", "Welch", "Holm", "Bonferroni", "Fieller", "e-0", "e+0"):
    assert not_want not in first, (not_want, first)
assert md.index(first) < md.index("\n|"), "a table before the answer"
def rows(d):
    return list(csv.DictReader(open(d + "/findings.csv", newline="", encoding="utf-8")))
def read_load(rs):
    return [r for r in rs if r["table"] == "contest" and r["by"] == "read_load" and r["column"] == "time_s"
            and r["source"].endswith("001_07df0cd7d9b0f35d.txt")]
ra, rb = read_load(rows(a)), read_load(rows(b))
assert len(ra) == 1 and len(rb) == 1, (len(ra), len(rb))
keys = ("pct_change", "pct_lo", "pct_hi", "p", "p_adj", "tests", "verdict", "pct_lo_unadj", "pct_hi_unadj")
assert all(ra[0][k] == rb[0][k] for k in keys), [(k, ra[0][k], rb[0][k]) for k in keys if ra[0][k] != rb[0][k]]
r = ra[0]
assert r["verdict"] == "faster" and r["tests"] == "48", (r["verdict"], r["tests"])
# R (tests/stats-oracle/ref.R): family48 bonferroni 0.029226868674487705,
# fieller at 1 - 0.05/48: -48.213851890602541, -4.4618589093415757
for k, want in (("p_adj", 0.029226868674487705), ("pct_lo", -48.213851890602541), ("pct_hi", -4.4618589093415757)):
    assert abs(float(r[k]) - want) <= 1e-9 * abs(want), (k, r[k], want)
# D13 in every row of both reports (the default band, +-1 %)
for d in (a, b):
    for x in rows(d):
        if x["pct_lo"] == "":
            continue
        lo, hi = float(x["pct_lo"]), float(x["pct_hi"])
        if x["verdict"] == "no change detected":
            assert lo <= 0 <= hi, (d, x)
        if x["verdict"] == "negligible":
            assert -1 <= lo and hi <= 1, (d, x)
# compare: the same numbers for the same question
cr = [x for x in csv.DictReader(open(c, newline="", encoding="utf-8"))
      if x["table"] == "contest" and x.get("load") == "read_load" and x["column"] == "time_s"]
assert len(cr) == 1, len(cr)
for k in ("pct_change", "pct_lo", "pct_hi", "p", "p_adj", "tests", "verdict"):
    assert cr[0][k] == r[k], (k, cr[0][k], r[k])
PY
# report.sqlite's findings table holds findings.csv's rows and numbers
# (report/findings.h F6)
if command -v sqlite3 >/dev/null; then
    for d in a b; do
        sqlite3 -csv -header "$tmp/$d/report.sqlite" 'SELECT * FROM findings' > "$tmp/$d.db.csv"
        python3 - "$tmp/$d/findings.csv" "$tmp/$d.db.csv" <<'PY'
import csv, sys
a = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
b = list(csv.DictReader(open(sys.argv[2], newline="", encoding="utf-8")))
assert len(a) == len(b) and len(a) > 40, (len(a), len(b))
for x, y in zip(a, b):
    for k in x:
        if x[k] != y[k]:
            # sqlite3's shell prints 15 significant digits
            u, v = float(x[k]), float(y[k])
            assert x[k] != "" and (u == v or abs(u - v) <= 1e-13 * abs(u)), (k, x[k], y[k])
PY
    done
fi
exit 0
