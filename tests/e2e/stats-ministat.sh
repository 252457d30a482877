#!/bin/sh
# `benchlog compare` against ministat and tests/stats-oracle/ref.py.
#   ministat (Debian 20150715) runs Student's t-test with a pooled
#   variance, so it is compared with `compare --test student`: the verdict
#   ("Difference at 95.0% confidence" / "No difference proven") must be
#   the same, and the difference, its +/- half-width and the % change with
#   its half-width must agree (ministat prints 6 digits and takes t from a
#   3-decimal table: 1e-5 for the differences, 2e-3 for the half-widths).
#   The default test, Welch's, has its p-values checked to 1e-6 relative
#   against ref.py's t_sf() (mpmath, the t CDF by numerical integration of
#   the density; D6's t and df written out in python3 below).
# Data: seed 001's ConTest times per load (default vs tweaked tunables, as
# `benchlog parse` reads them), and generated pairs (awk, fixed seed) of
# unequal sizes and spreads.
set -eu
command -v ministat >/dev/null || exit 77
command -v python3 >/dev/null || exit 77
python3 -c 'import mpmath' 2>/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
seed="$TOP/fixtures/seeds/001_07df0cd7d9b0f35d.txt"

# generated cases: name, n_a, n_b, shift, spread_b
awk 'BEGIN {
	srand(1947);
	print "case,group,value" > "gen.csv";
	split("shift:5:7:4:1 same:12:15:0:1 small:40:30:1.5:1.5 wide:6:9:8:4 null:25:25:0:1", cs, " ");
	for (i = 1; i in cs; i++) {
		split(cs[i], f, ":");
		for (k = 0; k < f[2]; k++)
			printf "%s,A,%.6f\n", f[1], 50 + 3 * (rand() + rand() + rand() - 1.5) > "gen.csv";
		for (k = 0; k < f[3]; k++)
			printf "%s,B,%.6f\n", f[1], 50 + f[4] + 3 * f[5] * (rand() + rand() + rand() - 1.5) > "gen.csv";
	}
}'
"$BENCHLOG" parse -q -t contest "$seed" > contest.csv
python3 - <<'EOF'
import csv
for r in csv.DictReader(open("contest.csv", newline="")):
    side = "a" if r["group"] == "Default tunables" else "b"
    open(f"seed_{r['load']}.{side}", "a").write(r["time_s"] + "\n")
for r in csv.DictReader(open("gen.csv", newline="")):
    open(f"gen_{r['case']}.{'a' if r['group'] == 'A' else 'b'}", "a").write(r["value"] + "\n")
EOF
for a in seed_*.a gen_*.a; do
	ministat -c 95 -A "$a" "${a%.a}.b" > "${a%.a}.ministat"
done
"$BENCHLOG" compare -q -f csv --test student -t contest -c time_s "$seed" > seed-student.csv
"$BENCHLOG" compare -q -f csv -t contest -c time_s "$seed" > seed-welch.csv
"$BENCHLOG" compare -q -f csv --test student --by case gen.csv > gen-student.csv
"$BENCHLOG" compare -q -f csv --by case gen.csv > gen-welch.csv

python3 - "$TOP/tests/stats-oracle" <<'EOF'
import csv, glob, re, sys
sys.path.insert(0, sys.argv[1])
import statistics
from mpmath import mpf, sqrt
import ref   # tests/stats-oracle/ref.py: t_sf(t, df) by numerical integration

def welch_p(a, b):
    # D6 as ref.welch() computes it, without the (slow) CI quantile
    va = mpf(statistics.variance(a)) / len(a)
    vb = mpf(statistics.variance(b)) / len(b)
    t = (mpf(statistics.fmean(b)) - mpf(statistics.fmean(a))) / sqrt(va + vb)
    df = (va + vb) ** 2 / (va ** 2 / (len(a) - 1) + vb ** 2 / (len(b) - 1))
    return df, 2 * ref.t_sf(abs(t), df)
bad = 0
def close(got, want, rel, what):
    global bad
    if abs(got - want) > rel * max(abs(want), 1e-300):
        print(f"{what}: benchlog {got!r}, reference {want!r}"); bad += 1
def rows(path, key):
    return {r[key]: r for r in csv.DictReader(open(path, newline=""))}
student = {**{"seed_" + k: v for k, v in rows("seed-student.csv", "load").items()},
           **{"gen_" + k: v for k, v in rows("gen-student.csv", "case").items()}}
welch = {**{"seed_" + k: v for k, v in rows("seed-welch.csv", "load").items()},
         **{"gen_" + k: v for k, v in rows("gen-welch.csv", "case").items()}}
n_diff = n_same = 0
for path in sorted(glob.glob("*.ministat")):
    name = path[:-len(".ministat")]
    text = open(path).read()
    r = student[name]
    m = re.search(r"Difference at 95\.0% confidence\n\s+(\S+) \+/- (\S+)\n\s+(\S+)% \+/- (\S+)%", text)
    # ministat tests one pair at a time: compare with the raw p (the
    # verdicts use p adjusted over the whole run, D12)
    if m:
        n_diff += 1
        if not float(r["p"]) < 0.05:
            print(name, "ministat finds a difference, benchlog's p is", r["p"]); bad += 1
        d, h, pct, ph = (float(x) for x in m.groups())
        close(float(r["diff"]), d, 1e-5, name + " diff")
        close((float(r["diff_hi"]) - float(r["diff_lo"])) / 2, h, 2e-3, name + " half-width")
        close(float(r["pct_change"]), pct, 1e-5, name + " % change")
        # ministat's % interval is the difference's divided by the
        # baseline mean (benchlog's pct_lo/pct_hi are Fieller's, D14)
        close(100 * (float(r["diff_hi"]) - float(r["diff_lo"])) / 2 / float(r["base_mean"]), ph, 2e-3,
              name + " % half-width")
    elif "No difference proven at 95.0% confidence" in text:
        n_same += 1
        if not float(r["p"]) >= 0.05:
            print(name, "ministat: no difference; benchlog's p is", r["p"]); bad += 1
    else:
        print(name, "unexpected ministat output:\n" + text); bad += 1
    # Welch p against ref.py on the same numbers
    a = [float(x) for x in open(name + ".a")]
    b = [float(x) for x in open(name + ".b")]
    df, p = welch_p(a, b)
    w = welch[name]
    close(float(w["p"]), float(p), 1e-6, name + " Welch p")
    close(float(w["df"]), float(df), 1e-9, name + " Welch df")
if n_diff < 3 or n_same < 3:
    print(f"want both verdicts several times: {n_diff} differences, {n_same} none"); bad += 1
if len(glob.glob("*.ministat")) != 13:
    print("want 8 loads + 5 generated cases"); bad += 1
sys.exit(1 if bad else 0)
EOF
exit 0
