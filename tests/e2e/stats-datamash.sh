#!/bin/sh
# `benchlog stats` against GNU datamash on the same data: count, mean,
# sstdev (n-1), min, max, median and perc:P (datamash's percentiles are
# Hyndman-Fan type 7, as benchlog's default, docs/statistics.md D3).
#   1. a generated table (awk, fixed seed) written twice: as CSV with a
#      quoted group name holding a comma (benchlog) and as TSV (datamash,
#      which does not read CSV quoting);
#   2. seed 001 read as a log by `benchlog stats`, and the same records
#      as `benchlog parse` writes them, summarised by datamash;
#   3. --rule nearest against the nearest-rank formula in python3, and
#      --bins against a python3 count over the same edges.
set -eu
command -v datamash >/dev/null || exit 77
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

awk 'BEGIN {
	srand(20021226);
	print "group,\"wall, s\",faults" > "data.csv";
	print "group\twall_s\tfaults" > "data.tsv";
	for (i = 0; i < 1500; i++) {
		g = int(rand() * 3);
		name = g == 0 ? "2.4.12aa1" : g == 1 ? "2.4.13-pre2aa1" : "mm, tweaked";
		w = (g + 1) * 10 + rand() * rand() * 7;
		f = int(rand() * 1000) + (g == 2 ? 0 : 100000);
		q = g == 2 ? "\"" name "\"" : name;
		printf "%s,%.6f,%d\n", q, w, f > "data.csv";
		printf "%s\t%.6f\t%d\n", name, w, f > "data.tsv";
	}
}'

"$BENCHLOG" stats -q -f csv --percentiles 10,50,90,99 data.csv > bl.csv
for col in 2 3; do
	datamash -s --header-in --format '%.17g' -g 1 count $col mean $col sstdev $col min $col \
		perc:10 $col median $col perc:90 $col perc:99 $col max $col < data.tsv > dm$col.tsv
done

python3 - "$tmp" <<'EOF'
import csv, sys
tmp = sys.argv[1]
bl = {}
for r in csv.DictReader(open(f"{tmp}/bl.csv", newline="")):
    bl[(r["group"], r["column"])] = r
cols = {2: "wall, s", 3: "faults"}
fields = ["n", "mean", "sd", "min", "p10", "p50", "p90", "p99", "max"]
bad = 0
checked = 0
for c, name in cols.items():
    for line in open(f"{tmp}/dm{c}.tsv"):
        v = line.rstrip("\n").split("\t")
        g, dm = v[0], [float(x) for x in v[1:]]
        r = bl.get((g, name))
        if r is None:
            print("benchlog has no row for", g, name); bad += 1; continue
        for f, want in zip(fields, dm):
            got = float(r[f])
            if abs(got - want) > 6e-12 * max(abs(want), 1e-300):   # 12 digits (docs/statistics.md, D20)
                print(f"{g} {name} {f}: benchlog {got!r}, datamash {want!r}"); bad += 1
            checked += 1
        if r["pct"] != "exact":
            print("percentiles of", g, name, "not exact"); bad += 1
if checked != 2 * 3 * len(fields):
    print("checked", checked, "values"); bad += 1
sys.exit(1 if bad else 0)
EOF

# 2. seed 001 as a log, against datamash over benchlog parse's CSV
seed="$TOP/fixtures/seeds/001_07df0cd7d9b0f35d.txt"
"$BENCHLOG" stats -q -f csv -t contest -c time_s,cpu_pct --percentiles 50,90 "$seed" > seed.csv
"$BENCHLOG" parse -q -t contest "$seed" > contest.csv
python3 - "$tmp" <<'EOF'
import csv, sys
tmp = sys.argv[1]
# datamash input: group, load, time_s, cpu_pct as TSV (no commas inside)
with open(f"{tmp}/contest.tsv", "w") as out:
    for r in csv.DictReader(open(f"{tmp}/contest.csv", newline="")):
        out.write("\t".join([r["group"], r["load"], r["time_s"], r["cpu_pct"]]) + "\n")
EOF
datamash -s --format '%.17g' -g 1,2 count 3 mean 3 sstdev 3 min 3 median 3 perc:90 3 max 3 \
	mean 4 sstdev 4 median 4 < contest.tsv > seed-dm.tsv
python3 - "$tmp" <<'EOF'
import csv, sys
tmp = sys.argv[1]
bl = {(r["group"], r["load"], r["column"]): r for r in csv.DictReader(open(f"{tmp}/seed.csv", newline=""))}
bad = rows = 0
for line in open(f"{tmp}/seed-dm.tsv"):
    v = line.rstrip("\n").split("\t")
    g, load, d = v[0], v[1], [float(x) for x in v[2:]]
    t = bl[(g, load, "time_s")]
    c = bl[(g, load, "cpu_pct")]
    pairs = [(t["n"], d[0]), (t["mean"], d[1]), (t["sd"], d[2]), (t["min"], d[3]),
             (t["p50"], d[4]), (t["max"], d[6]),
             (c["mean"], d[7]), (c["sd"], d[8]), (c["p50"], d[9])]
    for got, want in pairs:
        if abs(float(got) - want) > 6e-12 * max(abs(want), 1e-300):   # 12 digits (docs/statistics.md, D20)
            print(g, load, got, want); bad += 1
    # D3a: p90 needs n >= 10; these cells have 3 values (datamash's d[5]
    # interpolates between the two largest there), so the field is empty
    if int(t["n"]) != 3 or t["p90"] != "":
        print(g, load, "n", t["n"], "p90", repr(t["p90"]), "want n 3 and no p90"); bad += 1
    rows += 1
if rows != 16:
    print("want 16 groups x loads, got", rows); bad += 1
sys.exit(1 if bad else 0)
EOF

# 3. nearest rank and histogram bins, computed in python3 from the TSV
"$BENCHLOG" stats -q -f csv --rule nearest --percentiles 0,1,33.3,50,90,100 -c faults data.csv > near.csv
"$BENCHLOG" stats -q -f csv --bins 6 -c 'wall\, s' data.csv > bins.csv
python3 - "$tmp" <<'EOF'
import csv, math, sys
tmp = sys.argv[1]
data = {}
for line in list(open(f"{tmp}/data.tsv"))[1:]:
    g, w, f = line.rstrip("\n").split("\t")
    data.setdefault(g, ([], []))
    data[g][0].append(float(w)); data[g][1].append(float(f))
bad = 0
for r in csv.DictReader(open(f"{tmp}/near.csv", newline="")):
    x = sorted(data[r["group"]][1])
    for p in ("0", "1", "33.3", "50", "90", "100"):
        k = max(1, math.ceil(len(x) * float(p) / 100))   # smallest x with >= p% at or below
        if float(r["p" + p]) != x[k - 1]:
            print("nearest", r["group"], p, r["p" + p], x[k - 1]); bad += 1
seen = 0
for r in csv.DictReader(open(f"{tmp}/bins.csv", newline="")):
    x = data[r["group"]][0]
    mn, mx = min(x), max(x)
    b = int(r["bin"]); nb = 6
    lo = mn + (mx - mn) * (b - 1) / nb
    hi = mx if b == nb else mn + (mx - mn) * b / nb
    want = sum(1 for v in x if lo <= v < hi or (b == nb and v == hi))
    # edges as written (docs/statistics.md, D20): 12 significant digits
    near = lambda t, x: t == f"{x:.12g}"
    if not near(r["from"], lo) or not near(r["to"], hi) or int(r["count"]) != want or r["counts"] != "exact":
        print("bin", r, lo, hi, want); bad += 1
    seen += 1
if seen != 18:
    print("want 3 groups x 6 bins, got", seen); bad += 1
sys.exit(1 if bad else 0)
EOF
exit 0
