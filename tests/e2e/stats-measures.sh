#!/bin/sh
# The default columns of `benchlog compare` / `stats` are the measures
# (analyze/table_stats.h R6, docs/stats.md), and the latency table of
# histogram buckets is not read by them (R7). The vmstat and latency
# tables are compared by their analyses (analyze/compare.h C4,
# docs/statistics.md D18): only swpd, si, so, free and mean, p50, p99,
# distribution, share late, whatever -c names.
# Expected values:
#   - the identifier/position/setting columns below are read by hand from
#     `benchlog formats --columns` (their meaning column);
#   - each of them is present in the inputs with two or more sets to
#     compare: with -c they do get rows (checked first, so the "no row by
#     default" check can fail);
#   - seed 000's vmstat capture: 59 rows, one a second, no since-boot row
#     (fixtures/seeds/README.md), so t_s is 0..58: n 59, mean 29,
#     sd sqrt(59*60/12) = sqrt(295) (sum of squares of 0..n-1 about the mean);
#   - 001_07df0cd7d9b0f35d.latency.csv: header + 28 buckets = 29 lines
#     (fixtures/seeds/README.md: 28 buckets, lines 135-162).
set -eu
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$*"; exit 1; }
F="$TOP/fixtures"
not_measures="series,sample,t_s,since_boot,tid,priority,last_line,time_line,thread,interval_us,hist_limit_us,page_size_bytes,exit_status,status_code,target_bytes,target_pct,buckets,binned,total,footer_total,status_cycles,count"

# --- -c still names them: each gets rows (the inputs can show the bug) ----------
# (time rows are compared per command: each fixtures/time file copied under
# another name gives a second group for its commands; status_code is set
# on failed runs only, which every statistic leaves out: D3c)
mkdir "$tmp/again"
for f in "$F"/time/*.txt; do cp "$f" "$tmp/again/again-$(basename "$f")"; done
"$BENCHLOG" compare -q -f csv -c "$not_measures" "$F/seeds" "$F/latency" "$F/vmstat" \
	"$F/time" "$tmp/again" "$F/mtest01" > "$tmp/named.csv" 2>/dev/null || true
python3 - "$tmp/named.csv" <<'PY'
import csv, sys
got = {(r["table"], r["column"]) for r in csv.DictReader(open(sys.argv[1], newline=""))}
want = [("latency_series", c) for c in ("tid", "priority", "last_line", "time_line", "thread",
                                        "interval_us", "hist_limit_us", "buckets", "binned",
                                        "total", "footer_total", "status_cycles")] + \
       [("time", c) for c in ("page_size_bytes", "exit_status")] + \
       [("mtest01", c) for c in ("target_bytes", "target_pct")]
missing = [w for w in want if w not in got]
if missing:
    print("-c did not compare", missing); sys.exit(1)
PY

# --- default columns: none of them, on the seeds and on every table -------------
check_default() {
	out=$1; shift
	"$BENCHLOG" compare -q -f csv "$@" > "$tmp/$out.csv" 2>/dev/null || true
	python3 - "$tmp/$out.csv" "$not_measures" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
bad = set(sys.argv[2].split(","))
# latency and vmstat: only the measures their analyses compare (D18)
own = {"latency": {"mean", "p50", "p99", "distribution", "share late"}, "vmstat": {"swpd", "si", "so", "free"}}
wrong = sorted({(r["table"], r["column"]) for r in rows
                if r["column"] in bad or (r["table"] in own and r["column"] not in own[r["table"]])})
if wrong:
    print("compared by default:", wrong); sys.exit(1)
if not rows:
    print("nothing compared"); sys.exit(1)
PY
}
check_default seeds "$F/seeds"
check_default all "$F/seeds" "$F/latency" "$F/vmstat" "$F/time" "$F/mtest01" "$F/contest"
# measures stay: vmstat swpd and time elapsed_s, latency_series status_max_us
python3 - "$tmp/all.csv" <<'PY'
import csv, sys
got = {(r["table"], r["column"]) for r in csv.DictReader(open(sys.argv[1], newline=""))}
for w in (("vmstat", "swpd"), ("vmstat", "free"), ("time", "elapsed_s"), ("contest", "time_s"),
          ("latency_series", "status_max_us"), ("mtest01", "bytes_allocated"), ("latency", "p50")):
    if w not in got:
        print("measure not compared:", w); sys.exit(1)
PY
# the text output a user reads: no "t_s" heading, no verdict on it
"$BENCHLOG" compare -q "$F/seeds" > "$tmp/seeds.txt" 2>/dev/null || true
if grep -Eq '^== [a-z_]+: (t_s|sample|series|since_boot)( |$)' "$tmp/seeds.txt"; then
	fail "seeds: a position column compared by default"
fi

# --- -c t_s by hand: 0..58 --------------------------------------------------------
"$BENCHLOG" stats -q -f csv -t vmstat -c t_s "$F/seeds/000_a7bf8587c1dba76c.txt" > "$tmp/ts.csv"
python3 - "$tmp/ts.csv" <<'PY'
import csv, math, sys
r = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(r) == 1, r
r = r[0]
ok = r["column"] == "t_s" and r["n"] == "59" and float(r["mean"]) == 29 and \
     abs(float(r["sd"]) - math.sqrt(295)) < 6e-12 * math.sqrt(295)
if not ok:
    print(r); sys.exit(1)
PY

# --- R7: the latency table ----------------------------------------------------------
st() { set +e; "$@" > "$tmp/o" 2> "$tmp/e"; echo $?; set -e; }
msg='the latency table holds histogram buckets weighted by count: use `benchlog summary` (latency section: percentiles from the bins, Mann-Whitney between series)'
cyc="$F/latency/24-cyclictest-h-2threads-annotated-cn.txt"
[ "$(st "$BENCHLOG" stats -t latency "$cyc")" = 2 ] || fail "stats -t latency: want exit 2"
grep -qF "benchlog stats: $msg" "$tmp/e" || { cat "$tmp/e"; fail "stats -t latency message"; }
[ -s "$tmp/o" ] && fail "stats -t latency wrote output"
# compare -t latency: its analysis compares the histograms (D18), not
# the buckets' columns
[ "$(st "$BENCHLOG" compare -q -f csv -t latency "$F/latency")" = 0 ] || { cat "$tmp/e"; fail "compare -t latency: want exit 0"; }
cut -d, -f1,2 "$tmp/o" | sort -u | tr '\n' ' ' | grep -qx 'latency,distribution latency,mean latency,p50 latency,p99 latency,share late table,column ' ||
	{ cat "$tmp/o"; fail "compare -t latency: want mean, p50, p99, distribution and share late rows only"; }
# vmstat's columns other than its analysis's measures are not compared,
# and compare says so when that leaves nothing
[ "$(st "$BENCHLOG" compare -q -t vmstat -c cs "$F/vmstat/e-events.txt")" = 1 ] || fail "compare -t vmstat -c cs: want exit 1"
grep -qF "benchlog compare: table vmstat: none of its analysis's measures is among -c's columns" "$tmp/e" ||
	{ cat "$tmp/e"; fail "compare -t vmstat -c cs: no note"; }
[ -s "$tmp/o" ] && fail "compare -t vmstat -c cs wrote output"
# without -t: left out silently, the other tables summarised
[ "$(st "$BENCHLOG" stats -f csv "$cyc")" = 0 ] || { cat "$tmp/e"; fail "stats on a cyclictest log"; }
grep -q '^latency,' "$tmp/o" && fail "stats listed the latency table"
# the status lines' Max: 27 and 31 (lines 8-9 of the log): n 2, mean 29
grep -q '^latency_series,24-cyclictest-h-2threads-annotated-cn,status_max_us,2,29,' "$tmp/o" \
	|| { cat "$tmp/o"; fail "latency_series missing"; }
grep -Eq ',(tid|priority|interval_us|hist_limit_us|thread|status_cycles|total),' "$tmp/o" \
	&& { cat "$tmp/o"; fail "stats took a setting column"; }
grep -qi 'latency.*histogram\|warning' "$tmp/e" && { cat "$tmp/e"; fail "not silent"; }
# a CSV of it (by header: the seed's file is not named latency.csv) is
# counted as skipped, line by line
[ "$(st "$BENCHLOG" stats "$F/seeds/001_07df0cd7d9b0f35d.latency.csv")" = 1 ] || fail "latency CSV alone: nothing to summarise"
grep -Eq '^  skipped +29  latency histogram buckets \(benchlog summary reads them\)$' "$tmp/e" \
	|| { cat "$tmp/e"; fail "latency CSV lines not counted"; }
cp "$F/seeds/001_07df0cd7d9b0f35d.latency.csv" "$tmp/latency.csv"
[ "$(st "$BENCHLOG" stats "$tmp/latency.csv")" = 1 ] || fail "latency.csv alone"
grep -Eq '^  skipped +29  latency histogram buckets' "$tmp/e" || { cat "$tmp/e"; fail "latency.csv lines not counted"; }
exit 0
