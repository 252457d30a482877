#!/bin/sh
# D18 (c) (docs/statistics.md): the report compares two latency
# histograms of one file: p50 with Mann-Whitney (D8), p99 with
# Kolmogorov-Smirnov (D9), on the bins; the share later than target +
# 10 ms is shown, not tested. The input: seed 001's script and histogram
# ("Tweaked tunables") after a baseline histogram ("Default tunables",
# the seed's with 59 samples moved from 0.210 s to 0.201 s). The oracle
# is R on the expanded samples: wilcox.test(exact = FALSE, correct = TRUE)
# for p; ks.test's statistic D and D9's asymptotic p from it (Stephens'
# lambda, the Kolmogorov series summed here); median() and quantile(type
# 7) for the change. findings.csv's p (before Holm) to 1e-9 relative.
set -eu
command -v Rscript >/dev/null || { echo "Rscript missing (scripts/install-deps installs r-base-core)"; exit 1; }
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$TOP/tests/gen-latency-pair" "$TOP/fixtures/seeds/001_07df0cd7d9b0f35d.txt" "$tmp"
"$BENCHLOG" report -q -o "$tmp/r" "$tmp/lat.txt" 2>/dev/null
Rscript - "$tmp/base" "$tmp/cand" "$tmp/r/findings.csv" <<'R'
a <- commandArgs(TRUE)
b <- scan(a[1], quiet = TRUE); c <- scan(a[2], quiet = TRUE)
fc <- read.csv(a[3], stringsAsFactors = FALSE)
stopifnot(length(b) == 1000, length(c) == 1000)
pw <- suppressWarnings(wilcox.test(c, b, exact = FALSE, correct = TRUE))$p.value
d <- unname(suppressWarnings(ks.test(b, c))$statistic)
ne <- length(b) * length(c) / (length(b) + length(c))
lam <- (sqrt(ne) + 0.12 + 0.11 / sqrt(ne)) * d
j <- 1:200
pk <- min(1, max(0, 2 * sum((-1)^(j - 1) * exp(-2 * j^2 * lam^2))))
want <- list(p50 = c(pw, 100 * (median(c) - median(b)) / median(b)),
             p99 = c(pk, 100 * (quantile(c, .99, type = 7) - quantile(b, .99, type = 7)) / quantile(b, .99, type = 7)))
bad <- 0
for (col in names(want)) {
  row <- fc[fc$table == "latency" & fc$column == col, ]
  stopifnot(nrow(row) == 1)
  got <- c(row$p, row$pct_change); w <- unname(want[[col]])
  if (!all(abs(got - w) <= 1e-9 * abs(w))) {
    cat(sprintf("%s: benchlog p %.17g change %.17g, R %.17g %.17g\n", col, got[1], got[2], w[1], w[2]))
    bad <- bad + 1
  }
}
share <- fc[fc$table == "latency" & fc$column == "share late", ]
# later than 0.2 s + 10 ms: strictly above 0.210
sb <- 100 * mean(b > 0.2105); sc <- 100 * mean(c > 0.2105)
if (nrow(share) != 1 || share$verdict != "no test" || abs(share$pct_change - 100 * (sc - sb) / sb) > 1e-9 * 100 * sc / sb) {
  cat("share late:", unlist(share), "want", sb, sc, "\n"); bad <- bad + 1
}
if (bad == 0 && !(pw > 1e-6 && pw < 0.05)) { cat("the case should give a moderate p:", pw, "\n"); bad <- 1 }
quit(status = bad)
R
exit 0
