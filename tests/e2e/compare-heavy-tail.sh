#!/bin/sh
# Heavy tails (docs/statistics.md D6a). The ATA PASS-THROUGH regression
# report in fixtures/archives/linux-block-pairs.mbox.gz times one command
# 21 times a kernel: NOK 0.206-290.856 s, OK 0.187-0.229 s. A side
# spanning a factor of 10 or more is compared on ln values: the change is
# that of the geometric means, Welch's t-test and its interval on ln x,
# each checked here against R's t.test(log(ok), log(nok)) on the values
# of the parsed table. Welch on the means said p = 0.051, "no change
# detected". Then the threshold, by hand: a side of 1, 2, 9.99 s keeps D6
# on the means; 1, 2, 10 s is compared on ln values.
set -eu
command -v Rscript >/dev/null || { echo "Rscript missing (scripts/install-deps installs r-base-core)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$*"; exit 1; }
mb="$TOP/fixtures/archives/linux-block-pairs.mbox.gz"

"$BENCHLOG" parse -q -t time "$mb" > "$tmp/t.csv"
"$BENCHLOG" compare -q -f csv --baseline 'NOK: v6.18-rc3' "$mb" > "$tmp/c.csv" 2>/dev/null
Rscript -e '
a <- commandArgs(TRUE)
t <- read.csv(a[1], stringsAsFactors = FALSE)
t <- t[t$quoted == 0 & grepl("ATA PASS", t$subject), ]
nok <- t$elapsed_s[t$group == "NOK: v6.18-rc3"]
ok <- t$elapsed_s[t$group == "OK: v6.18-rc3 with 42f22fe36d51 reverted"]
if (length(nok) != 21 || length(ok) != 21) { cat("want 21 runs a side, got", length(nok), length(ok), "\n"); quit(status = 1) }
d <- read.csv(a[2], stringsAsFactors = FALSE)
r <- d[d$candidate == "OK: v6.18-rc3 with 42f22fe36d51 reverted" & d$column == "elapsed_s", ]
if (nrow(r) != 1) { cat("want one ATA row, got", nrow(r), "\n"); quit(status = 1) }
tt <- t.test(log(ok), log(nok))
# the sides and their difference stay the arithmetic means; the change
# and its interval those of the geometric means, at 95 % (m = 1: one measure)
want <- c(mean(nok), mean(ok), mean(ok) - mean(nok), 100 * expm1(mean(log(ok)) - mean(log(nok))),
          100 * expm1(tt$conf.int), tt$p.value, tt$statistic, tt$parameter)
got <- c(r$base_mean, r$cand_mean, r$diff, r$pct_change, r$pct_lo, r$pct_hi, r$p, r$t, r$df)
e <- max(abs(got - want) / abs(want))
if (!(e < 1e-9)) { cat("differs from R by", e, "\ngot ", got, "\nwant", want, "\n"); quit(status = 1) }
if (r$verdict != "faster" || r$test != "welch, ln values" || !grepl("D6a", r$note)) {
  cat("verdict", r$verdict, "test", r$test, "note", r$note, "\n"); quit(status = 1) }
' "$tmp/t.csv" "$tmp/c.csv" || fail "compare: the ATA heavy-tailed row differs from R"

# the report says the same, and marks the measure
"$BENCHLOG" report -q -o "$tmp/r" "$mb"
grep -qF 'elapsed\_s (geometric mean)' "$tmp/r/report.md" || fail "report.md: measure not marked (geometric mean)"
grep -qF 'A measure marked (geometric mean)' "$tmp/r/report.md" || fail "report.md: no line says what (geometric mean) means"

# the threshold: max / min >= 10 on a side, every value > 0
side() {   # label, then three run times in seconds
    printf '%s:\n' "$1"; shift
    for v; do printf 'real\t0m%ss\n' "$v"; done
}
{ side base 1.000 1.100 1.200; side new 1.000 2.000 9.990; } > "$tmp/under.txt"
{ side base 1.000 1.100 1.200; side new 1.000 2.000 10.000; } > "$tmp/at.txt"
test_of() { "$BENCHLOG" compare -q -f csv "$1" 2>/dev/null | python3 -c '
import csv, sys
print(" ".join(r["test"] for r in csv.DictReader(sys.stdin) if r["column"] == "elapsed_s"))'; }
[ "$(test_of "$tmp/under.txt")" = "welch" ] || fail "1, 2, 9.99 s: want Welch on the means, got $(test_of "$tmp/under.txt")"
[ "$(test_of "$tmp/at.txt")" = "welch, ln values" ] || fail "1, 2, 10 s: want ln values, got $(test_of "$tmp/at.txt")"
exit 0
