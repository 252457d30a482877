#!/bin/sh
# D18 (a) (docs/statistics.md): the report compares vmstat series by the
# mean of swpd, si, so and free with D15's effective sample size: Welch's
# test with s^2/n_eff and n_eff - 1 in the df, Fieller's CI with the same
# variances. The oracle is R on benchlog's vmstat CSV of
# fixtures/vmstat/e-events.txt (two kernels, one series each): acf() for
# r1, n_eff by D15's rules 15.1-15.3 (the AR(1) variance of the mean
# summed over the correlation matrix), pt() for p, Fieller's
# interval by root-finding (uniroot) on the pivot, raised to -100 % since
# no value is negative. Compared with findings.csv's p (before the Holm
# adjustment), pct_lo and pct_hi, to 1e-9 relative.
# A thread of two messages that each hold both kernels
# (fixtures/vmstat/thread-two-posts.mbox, made for this test: a post's
# 512 MB P4 and a reply's 128 MB K6-2): each message is its own unit
# (D18, C1), so series 1 -> 2 and 3 -> 4, four measures a family; the
# thread pooled would compare the reply's 2.6.0-test5-mm1 (series 4) with
# the post's 2.6.0-test5 (series 1) and find so 78 % lower.
set -eu
command -v Rscript >/dev/null || { echo "Rscript missing (scripts/install-deps installs r-base-core)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() {   # an input, then its pairs of series compared, "b:c"
    "$BENCHLOG" parse -q -t vmstat -o "$tmp/t$#" "$1" 2>/dev/null
    "$BENCHLOG" report -q -o "$tmp/r$#" "$1" 2>/dev/null
    shift
    Rscript - "$tmp/t$(($# + 1))/vmstat.csv" "$tmp/r$(($# + 1))/findings.csv" "$@" <<'R'
a <- commandArgs(TRUE)
d <- read.csv(a[1]); fc <- read.csv(a[2], stringsAsFactors = FALSE)
side <- function(x) {
  n <- length(x); r1 <- acf(x, lag.max = 1, plot = FALSE)$acf[2]
  phi <- if (is.na(r1)) 0 else (n * r1 + 1) / (n - 3)
  f <- if (phi > 0 && phi < 1) sum(phi^abs(outer(1:n, 1:n, "-"))) / n else 1
  ne <- if (phi >= 1) 2 else if (phi <= 0) n else min(max(n * (n - f) / ((n - 1) * f), 2), n)
  list(n = n, m = mean(x), vm = var(x) / ne, ne = ne)
}
bad <- 0
means <- fc[fc$table == "vmstat" & startsWith(fc$by, "mean"), ]
if (nrow(means) != 4 * (length(a) - 2)) { cat("mean rows:", means$by, sep = "\n"); bad <- 1 }
for (pr in a[-(1:2)]) for (col in c("swpd", "si", "so", "free")) {
  ids <- as.integer(strsplit(pr, ":")[[1]])
  b <- side(d[d$series == ids[1], col]); c <- side(d[d$series == ids[2], col])
  se <- sqrt(b$vm + c$vm)
  df <- (b$vm + c$vm)^2 / (b$vm^2 / (b$ne - 1) + c$vm^2 / (c$ne - 1))
  p <- 2 * pt(-abs((c$m - b$m) / se), df)
  row <- means[means$column == col & startsWith(means$by, sprintf("mean, series %d (", ids[1])) &
               grepl(sprintf(" → %d (", ids[2]), means$by, fixed = TRUE), ]
  if (nrow(row) != 1) { cat(col, pr, ": no row\n"); bad <- bad + 1; next }
  # D14 at 95 % (pct_*_unadj) and at 1 - 0.05 / m, m the row's family (D12)
  fl <- function(conf) {
    q <- qt((1 + conf) / 2, df)
    h <- function(r) (c$m - r * b$m)^2 - q^2 * (c$vm + r^2 * b$vm)
    r0 <- c$m / b$m
    hi <- if (b$m^2 - q^2 * b$vm > 0) uniroot(h, c(r0, 1e9), tol = 1e-14)$root else Inf
    lo <- if (b$m^2 - q^2 * b$vm > 0) uniroot(h, c(-1e9, r0), tol = 1e-14)$root else -Inf
    lo <- max(lo, 0)
    c(100 * (lo - 1), 100 * (hi - 1))
  }
  got <- c(row$p, row$pct_lo_unadj, row$pct_hi_unadj, row$pct_lo, row$pct_hi, row$p_adj, row$tests)
  want <- c(p, fl(0.95), fl(1 - 0.05 / row$tests), min(1, row$tests * p), 4)
  ok <- ifelse(is.finite(want), abs(got - want) <= 1e-9 * pmax(1, abs(want)), got == want)
  if (!all(ok)) {
    cat(col, pr, ": benchlog", format(got, digits = 17), "R", format(want, digits = 17), "\n")
    bad <- bad + 1
  }
}
quit(status = bad)
R
}
check "$TOP/fixtures/vmstat/e-events.txt" 1:2
check "$TOP/fixtures/vmstat/thread-two-posts.mbox" 1:2 3:4
# the report states r1's effect: n_eff beside each series in the Findings line
grep -q "^| vmstat | swpd, mean, series 1 (n\\\\_eff 2) → 2 (n\\\\_eff 2) | 2\\.4\\.12aa1 → 2\\.4\\.13-pre2aa1 | −97 % \[" "$tmp/r2/report.md" ||
    { grep "| vmstat" "$tmp/r2/report.md"; echo "no swpd Findings line"; exit 1; }
exit 0
