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
set -eu
command -v Rscript >/dev/null || { echo "Rscript missing (scripts/install-deps installs r-base-core)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
f="$TOP/fixtures/vmstat/e-events.txt"
"$BENCHLOG" parse -q -t vmstat -o "$tmp/t" "$f" 2>/dev/null
"$BENCHLOG" report -q -o "$tmp/r" "$f" 2>/dev/null
Rscript - "$tmp/t/vmstat.csv" "$tmp/r/findings.csv" <<'R'
a <- commandArgs(TRUE)
d <- read.csv(a[1]); fc <- read.csv(a[2], stringsAsFactors = FALSE)
ser <- split(d, d$series)
stopifnot(length(ser) == 2)
side <- function(x) {
  n <- length(x); r1 <- acf(x, lag.max = 1, plot = FALSE)$acf[2]
  phi <- if (is.na(r1)) 0 else (n * r1 + 1) / (n - 3)
  f <- if (phi > 0 && phi < 1) sum(phi^abs(outer(1:n, 1:n, "-"))) / n else 1
  ne <- if (phi >= 1) 2 else if (phi <= 0) n else min(max(n * (n - f) / ((n - 1) * f), 2), n)
  list(n = n, m = mean(x), vm = var(x) / ne, ne = ne)
}
bad <- 0
for (col in c("swpd", "si", "so", "free")) {
  b <- side(ser[[1]][[col]]); c <- side(ser[[2]][[col]])
  se <- sqrt(b$vm + c$vm)
  df <- (b$vm + c$vm)^2 / (b$vm^2 / (b$ne - 1) + c$vm^2 / (c$ne - 1))
  p <- 2 * pt(-abs((c$m - b$m) / se), df)
  row <- fc[fc$table == "vmstat" & fc$column == col & grepl("^mean", fc$by), ]
  stopifnot(nrow(row) == 1)
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
  got <- c(row$p, row$pct_lo_unadj, row$pct_hi_unadj, row$pct_lo, row$pct_hi, row$p_adj)
  want <- c(p, fl(0.95), fl(1 - 0.05 / row$tests), min(1, row$tests * p))
  ok <- ifelse(is.finite(want), abs(got - want) <= 1e-9 * pmax(1, abs(want)), got == want)
  if (!all(ok)) {
    cat(col, ": benchlog", format(got, digits = 17), "R", format(want, digits = 17), "\n")
    bad <- bad + 1
  }
}
quit(status = bad)
R
# the report states r1's effect: n_eff beside each series in the Findings line
grep -q "^| vmstat | swpd, mean, series 1 (n\\\\_eff 2) → 2 (n\\\\_eff 2) | 2\\.4\\.12aa1 → 2\\.4\\.13-pre2aa1 | −97 % \[" "$tmp/r/report.md" ||
    { grep "| vmstat" "$tmp/r/report.md"; echo "no swpd Findings line"; exit 1; }
exit 0
