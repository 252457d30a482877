#!/bin/sh
# D18 (c) (docs/statistics.md): the report compares two latency
# histograms of one file: p50 with Mann-Whitney (D8), p99 with its
# bootstrap variance (D19), the whole distribution with
# Kolmogorov-Smirnov (D9), on the bins; the share later than target +
# 10 ms by a normal test with the binomial variance (D19). Each row's
# values are its statistic on each side (R's quantile(type 7)); the
# bootstrap interval is checked against R's own bootstrap (4000
# resamples) to 25 % of its half-width. The input: seed 001's script and histogram
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
             distribution = c(pk, 100 * (mean(c) - mean(b)) / mean(b)))
bad <- 0
for (col in names(want)) {
  row <- fc[fc$table == "latency" & fc$column == col, ]
  stopifnot(nrow(row) == 1)
  got <- c(row$p, row$pct_change); w <- unname(want[[col]])
  if (!all(abs(got - w) <= 1e-9 * pmax(abs(w), 1e-300))) {
    cat(sprintf("%s: benchlog p %.17g change %.17g, R %.17g %.17g\n", col, got[1], got[2], w[1], w[2]))
    bad <- bad + 1
  }
}
# p99: each side's p99, and the bootstrap interval of the change (D19)
q <- function(x) unname(quantile(x, .99, type = 7))
row <- fc[fc$table == "latency" & fc$column == "p99", ]
stopifnot(nrow(row) == 1)
if (abs(row$base_mean - q(b)) > 1e-12 || abs(row$cand_mean - q(c)) > 1e-12) {
  cat("p99 values:", row$base_mean, row$cand_mean, "want", q(b), q(c), "\n"); bad <- bad + 1
}
set.seed(1)
vb <- var(replicate(4000, q(sample(b, replace = TRUE))))
vc <- var(replicate(4000, q(sample(c, replace = TRUE))))
half <- 100 * qnorm(0.975) * sqrt(vb + vc) / q(b)   # near-symmetric at this size
got <- (row$pct_hi_unadj - row$pct_lo_unadj) / 2
if (!is.finite(got) || abs(got - half) > 0.25 * half) {
  cat("p99 interval half-width:", got, "R bootstrap", half, "\n"); bad <- bad + 1
}
share <- fc[fc$table == "latency" & fc$column == "share late", ]
# later than 0.2 s + 10 ms: strictly above 0.210; z with the binomial
# variance of each share
sb <- 100 * mean(b > 0.2105); sc <- 100 * mean(c > 0.2105)
z <- (sc - sb) / sqrt(sb * (100 - sb) / length(b) + sc * (100 - sc) / length(c))
ps <- if (is.finite(z)) 2 * pnorm(-abs(z)) else 1
if (nrow(share) != 1 || abs(share$base_mean - sb) > 1e-9 || abs(share$cand_mean - sc) > 1e-9 ||
    abs(share$p - ps) > 1e-9) {
  cat("share late:", unlist(share), "want", sb, sc, ps, "\n"); bad <- bad + 1
}
if (bad == 0 && !(pw > 1e-6 && pw < 0.05)) { cat("the case should give a moderate p:", pw, "\n"); bad <- 1 }
quit(status = bad)
R
# A thread of two messages that each hold both kernels' cyclictest
# (fixtures/latency/thread-two-posts.mbox, made for this test): each
# message is its own unit (D18, C1), its rtwake T0 compared with its own
# 5.12.0-rc5 T0, five measures a family. Pooled over the thread, the
# reply's rtwake (6.07 us) was compared with the post's 5.12.0-rc5
# (14.063 us): 57 % lower, where the reply finds no difference. The mean
# row's p and change from R's t.test and mean() on each message's
# expanded histograms.
"$BENCHLOG" report -q -o "$tmp/m" "$TOP/fixtures/latency/thread-two-posts.mbox" 2>/dev/null
Rscript - "$TOP/fixtures/latency/thread-two-posts.mbox" "$tmp/m/findings.csv" <<'R'
a <- commandArgs(TRUE)
l <- grep("^[0-9]{6} [0-9]{6}$", readLines(a[1]), value = TRUE)
v <- as.integer(substr(l, 1, 6)); k <- as.integer(substr(l, 8, 13))
h <- lapply(split(seq_along(v), cumsum(v == 0)), function(i) rep(v[i], k[i]))
stopifnot(length(h) == 4, all(lengths(h) == 1000))
fc <- read.csv(a[2], stringsAsFactors = FALSE)
fc <- fc[fc$table == "latency" & fc$column == "mean", ]
bad <- 0
for (m in 1:2) {
  b <- h[[2 * m - 1]]; c <- h[[2 * m]]
  row <- fc[startsWith(fc$first_message, c("rt-post@", "rt-reply@")[m]), ]
  want <- c(mean(b), mean(c), 100 * (mean(c) - mean(b)) / mean(b), t.test(c, b)$p.value, 5)
  got <- if (nrow(row) == 1) c(row$base_mean, row$cand_mean, row$pct_change, row$p, row$tests) else NA
  if (nrow(fc) != 2 || !isTRUE(all(abs(got - want) <= 1e-9 * pmax(1, abs(want))))) {
    cat("message", m, ": benchlog", format(got, digits = 17), "R", format(want, digits = 17), "\n")
    bad <- bad + 1
  }
}
quit(status = bad)
R
exit 0
