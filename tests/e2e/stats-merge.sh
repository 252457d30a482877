#!/bin/sh
# The merge property through the command line (docs/stats.md): split an
# input into K parts, `benchlog stats --partial` each, `--merge` the
# partials, and compare with the one-pass output of the whole:
#   n, min, max equal; mean and sd within 1e-12 relative; percentiles
#   within the sketch's stated 1% (D11), and marked "sketch".
# Splits: `split -n l/4` of a CSV (the header put back on each part),
# a random assignment of rows to 5 parts (awk, fixed seed), and log files
# (raw mtest01 + time -v runs from tests/gen-mtest-logs) merged by file.
# Also: merging a single whole-input partial gives the same percentiles as
# merging the parts, bit for bit (sketch bucket counts add exactly).
set -eu
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

awk 'BEGIN {
	srand(77);
	print "group,latency_us,size_kib";
	for (i = 0; i < 90000; i++) {
		g = int(rand() * 3);
		u = rand();
		printf "%s,%.9g,%d\n", g == 0 ? "base" : g == 1 ? "\"cand, 1\"" : "cand2",
			g == 2 ? exp(10 * u) : 50 + 900 * u * u * (g + 1), int(rand() * 4096) - 100;
	}
}' > whole.csv
P=1,10,50,90,99,99.9
"$BENCHLOG" stats -q -f csv --percentiles $P whole.csv > one.csv

check() {   # $1: merged CSV; compares with one.csv
	python3 - "$1" <<'EOF'
import csv, sys
one = {(r["group"], r["column"]): r for r in csv.DictReader(open("one.csv", newline=""))}
got = {(r["group"], r["column"]): r for r in csv.DictReader(open(sys.argv[1], newline=""))}
bad = 0
if set(one) != set(got) or len(one) != 6:
    print("groups x columns differ:", sorted(one), sorted(got)); bad += 1
for k, a in one.items():
    b = got.get(k)
    if b is None:
        continue
    for f in ("n", "min", "max"):
        if a[f] != b[f]:
            print(k, f, a[f], b[f]); bad += 1
    for f in ("mean", "sd"):
        if abs(float(a[f]) - float(b[f])) > 1e-12 * abs(float(a[f])):
            print(k, f, a[f], b[f]); bad += 1
    for f in a:
        if f.startswith("p") and f != "pct":
            x, y = float(a[f]), float(b[f])
            if abs(x - y) > 0.01 * abs(x):
                print(k, f, x, y, "beyond 1%"); bad += 1
    if a["pct"] != "exact" or b["pct"] != "sketch":
        print(k, "pct", a["pct"], b["pct"]); bad += 1
sys.exit(1 if bad else 0)
EOF
}

# 1. split -n l/4, header back on each part
head -n 1 whole.csv > header
tail -n +2 whole.csv > body && split -n l/4 body part.
for p in part.??; do cat header "$p" > "$p.csv"; "$BENCHLOG" stats -q --partial "$p.csv" > "$p.blp"; done
"$BENCHLOG" stats -f csv --percentiles $P --merge part.*.blp > merged1.csv
check merged1.csv

# 2. random assignment of rows to 5 parts
awk -v seed=5 'BEGIN { srand(seed) } NR == 1 { h = $0; for (k = 0; k < 5; k++) print h > ("rnd" k ".csv"); next }
	{ print > ("rnd" int(rand() * 5) ".csv") }' whole.csv
for k in 0 1 2 3 4; do "$BENCHLOG" stats -q --partial "rnd$k.csv" > "rnd$k.blp"; done
"$BENCHLOG" stats -f csv --percentiles $P --merge rnd4.blp rnd1.blp rnd3.blp rnd0.blp rnd2.blp > merged2.csv
check merged2.csv
# the partials of the whole, merged alone: the same sketch, so the same
# percentiles to the last bit
"$BENCHLOG" stats -q --partial whole.csv > whole.blp
"$BENCHLOG" stats -f csv --percentiles $P --merge whole.blp > merged-whole.csv
python3 - <<'EOF'
import csv, sys
a = {(r["group"], r["column"]): r for r in csv.DictReader(open("merged2.csv", newline=""))}
b = {(r["group"], r["column"]): r for r in csv.DictReader(open("merged-whole.csv", newline=""))}
bad = [(k, f) for k in a for f in a[k] if f.startswith("p") and f != "pct" and a[k][f] != b[k][f]]
if bad:
    print("percentiles differ:", bad[:5]); sys.exit(1)
EOF

# 3. logs split by files: one-pass over all files vs a partial per file
for k in 1 2 3 4; do python3 "$TOP/tests/gen-mtest-logs" "run$k.log" 7 "$k" tab; done
"$BENCHLOG" stats -q -f csv --group k -t time -c user_s,elapsed_s,minor_faults run1.log run2.log run3.log run4.log > logs-one.csv
for k in 1 2 3 4; do
	"$BENCHLOG" stats -q --partial --group k -t time -c user_s,elapsed_s,minor_faults "run$k.log" > "run$k.blp"
done
"$BENCHLOG" stats -f csv --merge run3.blp run1.blp run4.blp run2.blp > logs-merged.csv
python3 - <<'EOF'
import csv, sys
one = {r["column"]: r for r in csv.DictReader(open("logs-one.csv", newline=""))}
got = {r["column"]: r for r in csv.DictReader(open("logs-merged.csv", newline=""))}
bad = 0
if sorted(one) != ["elapsed_s", "minor_faults", "user_s"] or sorted(got) != sorted(one):
    print("columns", sorted(one), sorted(got)); bad += 1
for c, a in one.items():
    b = got[c]
    if a["n"] != "28" or b["n"] != "28" or a["min"] != b["min"] or a["max"] != b["max"]:
        print(c, a["n"], b["n"], a["min"], b["min"], a["max"], b["max"]); bad += 1
    for f in ("mean", "sd"):
        if abs(float(a[f]) - float(b[f])) > 1e-12 * abs(float(a[f])):
            print(c, f, a[f], b[f]); bad += 1
sys.exit(1 if bad else 0)
EOF

# a damaged partial is refused with file:line
sed '5s/.*/count x/' run1.blp > bad.blp
if "$BENCHLOG" stats --merge bad.blp > out 2> err; then echo "bad partial accepted"; exit 1; fi
grep -q "^bad.blp:5: " err || { echo "want bad.blp:5: in the message"; cat err; exit 1; }
exit 0
