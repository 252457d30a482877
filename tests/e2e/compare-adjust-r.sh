#!/bin/sh
# `benchlog compare` on seed 001 adjusts the tests of its one question
# (Default -> Tweaked tunables, ConTest) as one family (docs/statistics.md
# D12): the p_adj, p_holm and p_bh columns must equal R's
# p.adjust(p, "bonferroni" / "holm" / "BH") of its own p column, the
# family size is stated (48: 8 loads x 6 measures), the verdicts follow
# D13 (read_load "faster", the minor-fault changes "negligible") and agree
# with the interval beside them.
# R (r-base-core) is the independent oracle; scripts/install-deps installs it.
set -eu
command -v Rscript >/dev/null || { echo "Rscript missing (scripts/install-deps installs r-base-core)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
s001="$TOP/fixtures/seeds/001_07df0cd7d9b0f35d.txt"
fail() { echo "$*"; exit 1; }

"$BENCHLOG" compare -q -f csv "$s001" > "$tmp/c.csv" 2>/dev/null
Rscript -e '
d <- read.csv(commandArgs(TRUE)[1], stringsAsFactors = FALSE)
t <- !is.na(d$p)
bad <- 0
if (sum(t) != 48 || any(d$tests != 48)) { cat("want 48 tests, got", sum(t), unique(d$tests), "\n"); bad <- 1 }
h <- p.adjust(d$p[t], "holm"); b <- p.adjust(d$p[t], "BH")
bf <- p.adjust(d$p[t], "bonferroni")
# 1e-11: p and the adjusted p are each written to 12 digits (docs/statistics.md, D20)
ef <- max(abs(bf - d$p_adj[t]) / pmax(bf, 1e-300))
if (ef > 1e-11) { cat("Bonferroni p differ from R:", ef, "\n"); bad <- 1 }
eh <- max(abs(h - d$p_holm[t]) / pmax(h, 1e-300)); eb <- max(abs(b - d$p_bh[t]) / pmax(b, 1e-300))
if (eh > 1e-11 || eb > 1e-11) { cat("adjusted p differ from R: holm", eh, "BH", eb, "\n"); bad <- 1 }
# Holm keeps 3 of the 11 raw p < 0.05, BH 9
if (sum(d$p[t] < 0.05) != 11 || sum(h < 0.05) != 3 || sum(b < 0.05) != 9) {
  cat("counts", sum(d$p[t] < 0.05), sum(h < 0.05), sum(b < 0.05), "\n"); bad <- 1 }
quit(status = bad)
' "$tmp/c.csv" || fail "compare: adjusted p-values differ from R's p.adjust"
python3 - "$tmp/c.csv" <<'PY' || fail "compare: verdicts"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
bad = 0
rd = [r for r in rows if r["load"] == "read_load" and r["column"] == "time_s"][0]
if rd["verdict"] != "faster" or abs(float(rd["pct_change"]) + 27.4096) > 1e-3:
    print("read_load", rd["verdict"], rd["pct_change"]); bad += 1
# the seven minor-fault changes of about +0.004 % (raw p < 0.05) are negligible
small = [r for r in rows if r["column"] == "minor_faults" and float(r["p"]) < 0.05]
if len(small) != 7:
    print("want 7 significant minor-fault rows, got", len(small)); bad += 1
for r in small:
    if r["verdict"] != "negligible" or abs(float(r["pct_change"])) > 0.01:
        print("minor faults", r["load"], r["pct_change"], r["verdict"]); bad += 1
# D13: the verdict agrees with the family interval beside it
for r in rows:
    if r["pct_lo"] == "":
        continue
    lo, hi = float(r["pct_lo"]), float(r["pct_hi"])
    if r["verdict"] == "no change detected" and not (lo <= 0 <= hi):
        print("no change beside", r["load"], r["column"], lo, hi); bad += 1
    if r["verdict"] == "negligible" and not (-1 <= lo and hi <= 1):
        print("negligible beside", r["load"], r["column"], lo, hi); bad += 1
    if r["verdict"] in ("faster", "slower", "higher", "lower") and lo <= 0 <= hi:
        print("change beside", r["load"], r["column"], lo, hi); bad += 1
sys.exit(1 if bad else 0)
PY
# the text output states the number of tests
"$BENCHLOG" compare -q "$s001" 2>/dev/null | grep -q '^48 tests in this run\. ' || fail "compare: number of tests not stated"
exit 0
