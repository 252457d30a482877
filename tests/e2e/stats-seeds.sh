#!/bin/sh
# The seeds through `benchlog compare` and `benchlog stats`, and the
# commands' documented behaviour (exit status, help, input rules).
#   Seed 001 (issue 4): tweaked read_load 22.343 s against default 30.780 s
#   is a significant change, ctar_load is not. Expected values: the means
#   by hand from the seed text (31.20 30.11 31.03 / 22.66 23.11 21.26);
#   Welch p from tests/stats-oracle/ref.py ("welch read_load: ...
#   p=0.00060889309738515917", "welch ctar_load: ... p=0.99571616647265636").
#   -c time_s narrows the question to 8 tests (D12): Bonferroni's p is
#   8 x 0.000609 = 0.00487, and the change's interval is Fieller's at
#   1 - 0.05 / 8 (R's root-finding in tests/stats-oracle/ref.R:
#   [-39.4 %, -14.7 %]; at 95 %, in the CSV: [-33.3 %, -21.3 %]).
#   Seed 000: two chkmmt averages blocks, one row per kernel: averages alone
#   (no per-run data) allow no test.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
s001="$TOP/fixtures/seeds/001_07df0cd7d9b0f35d.txt"
s000="$TOP/fixtures/seeds/000_a7bf8587c1dba76c.txt"
fail() { echo "$*"; exit 1; }

# --- seed 001: text output as a user sees it -------------------------------
# a wide terminal: every column (80 columns leave some out: compare-width.sh)
COLUMNS=400 "$BENCHLOG" compare -q -t contest -c time_s "$s001" > "$tmp/c1.txt"
grep -q "^== contest: time_s (lower is better) — baseline Default tunables, Welch's t-test, 95% confidence ==$" "$tmp/c1.txt" \
	|| { cat "$tmp/c1.txt"; fail "seed 001: heading"; }
# the candidate row of read_load: mean 22.3433, -27%, verdict "faster"
grep -Eq '^ +Tweaked tunables +3 +22\.3433 .* -27% +\[-39%, -15%\] +0\.000609 +0\.00487 +8 +faster$' "$tmp/c1.txt" \
	|| { cat "$tmp/c1.txt"; fail "seed 001: read_load verdict"; }
grep -Eq '^read_load +Default tunables +3 +30\.78 ' "$tmp/c1.txt" || fail "seed 001: read_load baseline 30.78"
# ctar_load: not significant
awk '/^ctar_load/ { getline; print }' "$tmp/c1.txt" | grep -Eq ' no change detected  changes under ' \
	|| fail "seed 001: ctar_load must be no change detected"
# every load compared, exactly one significant
[ "$(grep -c ' Tweaked tunables ' "$tmp/c1.txt")" -eq 8 ] || fail "seed 001: want 8 loads"
[ "$(grep -c 'faster$\|slower$' "$tmp/c1.txt")" -eq 1 ] || fail "seed 001: want one significant load"

# --- seed 001: CSV, numbers against the references --------------------------
"$BENCHLOG" compare -q -f csv -t contest -c time_s "$s001" > "$tmp/c1.csv"
python3 - "$tmp/c1.csv" <<'EOF'
import csv, sys
r = {x["load"]: x for x in csv.DictReader(open(sys.argv[1], newline=""))}
bad = 0
def close(got, want, rel, what):
    global bad
    if abs(float(got) - want) > rel * abs(want):
        print(what, got, want); bad += 1
rd, ct = r["read_load"], r["ctar_load"]
close(rd["base_mean"], (31.20 + 30.11 + 31.03) / 3, 6e-12, "read_load baseline mean")
close(rd["cand_mean"], (22.66 + 23.11 + 21.26) / 3, 6e-12, "read_load candidate mean")
close(rd["p"], 0.00060889309738515917, 1e-6, "read_load Welch p")       # ref.py
close(ct["p"], 0.99571616647265636, 1e-6, "ctar_load Welch p")          # ref.py
close(rd["pct_lo"], -39.427673869792166, 1e-9, "read_load family interval")   # ref.R
close(rd["pct_hi"], -14.706016818508584, 1e-9, "read_load family interval")
close(rd["pct_lo_unadj"], -33.315970443247537, 1e-9, "read_load 95 % interval")
close(rd["pct_hi_unadj"], -21.342283703625863, 1e-9, "read_load 95 % interval")
if rd["verdict"] != "faster" or ct["verdict"] != "no change detected" or rd["better"] != "lower":
    print("verdicts", rd["verdict"], ct["verdict"], rd["better"]); bad += 1
if rd["baseline"] != "Default tunables" or rd["candidate"] != "Tweaked tunables":
    print("sets", rd["baseline"], rd["candidate"]); bad += 1
sys.exit(1 if bad else 0)
EOF

# --baseline turns the comparison round
"$BENCHLOG" compare -q -f csv -t contest -c time_s --baseline "Tweaked tunables" "$s001" > "$tmp/c1r.csv"
grep -q '^contest,read_load,time_s,lower,Tweaked tunables,Default tunables,.*,welch,0.95,slower,,read_load,.*$' "$tmp/c1r.csv" \
	|| { cat "$tmp/c1r.csv"; fail "seed 001: reversed baseline"; }
# an unknown baseline names the sets and fails
if "$BENCHLOG" compare -q -t contest --baseline nope "$s001" > "$tmp/o" 2> "$tmp/e"; then fail "unknown baseline accepted"; fi
grep -q 'no group "nope"; there are: "Default tunables", "Tweaked tunables"' "$tmp/e" || { cat "$tmp/e"; fail "baseline message"; }

# --- seed 000: averages only --------------------------------------------------
COLUMNS=400 "$BENCHLOG" compare -q "$s000" > "$tmp/c0.txt" 2>/dev/null
grep -q "averages alone (no per-run data) allow no test" "$tmp/c0.txt" || { cat "$tmp/c0.txt"; fail "seed 000: no-test note"; }
grep -q "each row is already the mean of 10 runs" "$tmp/c0.txt" || fail "seed 000: runs"
"$BENCHLOG" compare -q -f csv -t averages "$s000" > "$tmp/c0.csv"
python3 - "$tmp/c0.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
bad = 0
if len(rows) != 7:   # the seven averaged fields
    print("want 7 rows, got", len(rows)); bad += 1
for r in rows:
    if r["verdict"] != "averages only, no test possible" or r["p"] != "" or r["note"] != "averages alone (no per-run data) allow no test":
        print(r); bad += 1
    if r["base_n"] != "1" or r["cand_n"] != "1":
        print("n", r["base_n"], r["cand_n"]); bad += 1
e = {r["column"]: r for r in rows}["elapsed_s"]
# the change of the means is still shown: (49.513 - 64.109) / 64.109 by hand
if abs(float(e["pct_change"]) - 100 * (49.513 - 64.109) / 64.109) > 1e-9:
    print("elapsed change", e["pct_change"]); bad += 1
sys.exit(1 if bad else 0)
EOF

# --- stats on the seeds ---------------------------------------------------------
"$BENCHLOG" stats -q -t contest -c time_s -f md "$s001" > "$tmp/s1.md"
grep -q '^| Default tunables | noload | time_s | 3 | 18.6833 | 0.130512 | ' "$tmp/s1.md" || { cat "$tmp/s1.md"; fail "stats md"; }
grep -q '^| group | load | column | n | mean | sd | ci95 | min | p50 | p90 | p95 | p99 | max | pct |$' "$tmp/s1.md" || fail "stats md header"

# --- the CSV input rule -----------------------------------------------------------
cd "$tmp"
printf 'kernel,time_s\n2.4.12,1\n2.4.12,2\n2.4.12,4\n' > runs.csv
printf 'kernel,time_s\n2.4.12,1\n2.4.12,2\n2.4.12,4\n' > runs.txt
printf '18.82,19.1\n' > nohead.csv
"$BENCHLOG" stats -q -f csv -g kernel runs.csv > a.csv
# 7/3 to 12 significant digits (docs/statistics.md, D20): python3 f"{7/3:.12g}"
grep -q '^csv,2.4.12,time_s,3,2.33333333333,' a.csv || { cat a.csv; fail "CSV by name"; }
# the same text without .csv is a log (nothing in it), with --csv a table
if "$BENCHLOG" stats -q -g kernel runs.txt > /dev/null 2>&1; then fail "runs.txt read as CSV without --csv"; fi
"$BENCHLOG" stats -q -f csv --csv -g kernel runs.txt > b.csv
cmp -s a.csv b.csv || fail "--csv differs from the .csv rule"
"$BENCHLOG" stats -q --csv -f csv -g kernel - < runs.txt > c.csv
cmp -s a.csv c.csv || fail "--csv on stdin differs"
"$BENCHLOG" stats nohead.csv > /dev/null 2> e || true
grep -q "nohead.csv: read as a log, not as a CSV table: header field 1 ('18.82') is a number" e || { cat e; fail "sniff note"; }

# --- usage and data errors ---------------------------------------------------------
st() { set +e; "$@" > /dev/null 2>&1; echo $?; set -e; }
[ "$(st "$BENCHLOG" stats --bins 0 runs.csv)" = 2 ] || fail "--bins 0 must be a usage error"
[ "$(st "$BENCHLOG" stats --percentiles 50,101 runs.csv)" = 2 ] || fail "--percentiles 101"
[ "$(st "$BENCHLOG" stats -t nosuchtable "$s001")" = 2 ] || fail "unknown table"
[ "$(st "$BENCHLOG" stats --partial --merge x)" = 2 ] || fail "--partial --merge"
[ "$(st "$BENCHLOG" compare --confidence 1 "$s001")" = 2 ] || fail "--confidence 1"
[ "$(st "$BENCHLOG" compare --test t "$s001")" = 2 ] || fail "--test t"
[ "$(st "$BENCHLOG" stats missing.csv)" = 1 ] || fail "missing input"
[ "$(st "$BENCHLOG" stats -g nosuchcolumn runs.csv)" = 1 ] || fail "missing group column"
[ "$(st "$BENCHLOG" compare -g kernel runs.csv)" = 1 ] || fail "one set only"
# --help: the first line is the synopsis of the command table
for c in stats compare; do
	syn=$("$BENCHLOG" "$c" --help | head -n 1)
	case "$syn" in "usage: benchlog $c ["*) ;; *) fail "$c --help: $syn" ;; esac
	"$BENCHLOG" --help | grep -q "^  $c " || fail "$c missing from benchlog --help"
done
exit 0
