# Independent reference values for tests/test_infer.c (D12-D16 of
# analyze/stats.h), computed by R, sharing nothing with analyze/:
#   D12  p.adjust(p, "holm") and p.adjust(p, "BH");
#   D14  Fieller's interval found by root-finding (uniroot) on the pivot
#        T(rho) = (mc - rho mb) / sqrt(vc + rho^2 vb) = -+ t, not by the
#        closed-form quadratic the code uses;
#   D15  the lag-1 autocorrelation from acf(), rules 15.1-15.3 written
#        out here, and the exact AR(1) variance of the mean as a sum
#        over the correlation matrix (not rule 15.2's closed form);
#   D16  qt() quantiles, and power.t.test()'s exact noncentral-t delta.
# Run:  Rscript tests/stats-oracle/ref.R
options(digits = 17)
out <- function(...) cat(sprintf(...), "\n", sep = "")

# D12: p-values with ties, a 1 and an NA
p <- c(0.01, 0.04, 0.03, 0.005, 0.04, NA, 0.5, 1, 0.0001, 0.2)
out("holm %s", paste(format(p.adjust(p, "holm"), digits = 17), collapse = " "))
out("bh   %s", paste(format(p.adjust(p, "BH"), digits = 17), collapse = " "))

# D14: Fieller by root-finding; Welch df of the difference
welch_df <- function(b, c) {
  vb <- var(b) / length(b); vc <- var(c) / length(c)
  (vb + vc)^2 / (vb^2 / (length(b) - 1) + vc^2 / (length(c) - 1))
}
fieller <- function(b, c, conf = 0.95) {
  mb <- mean(b); mc <- mean(c); vb <- var(b) / length(b); vc <- var(c) / length(c)
  t <- qt((1 + conf) / 2, welch_df(b, c))
  T <- function(r) (mc - r * mb) / sqrt(vc + r^2 * vb)
  r0 <- mc / mb
  # T decreases through r0 (for mb > 0); find T = +t below, T = -t above
  lo <- uniroot(function(r) T(r) - sign(mb) * t, c(r0 - 1e4, r0), tol = 1e-14)$root
  hi <- uniroot(function(r) T(r) + sign(mb) * t, c(r0, r0 + 1e4), tol = 1e-14)$root
  s <- sign(mb)
  pct <- 100 * (mc - mb) / abs(mb)
  ends <- if (s > 0) 100 * (c(lo, hi) - 1) else sort(-100 * (c(lo, hi) - 1))
  out("fieller pct %.17g lo %.17g hi %.17g df %.17g", pct, ends[1], ends[2], welch_df(b, c))
}
# seed 001 ConTest read_load and ctar_load (time_s), Default vs Tweaked
fieller(c(31.20, 30.11, 31.03), c(22.66, 23.11, 21.26))
fieller(c(32.73, 24.48, 68.20), c(27.53, 73.84, 23.68))
# a negative baseline mean: candidate 10 above
fieller(c(-52, -50, -48, -49, -51), c(-42, -40, -38, -39, -41))

# D15: seed 000's vmstat swpd series (59 samples, KiB)
swpd <- c(554920,565652,574848,586608,603504,621424,640880,660848,678768,696176,
  716144,738160,14700,14696,26728,39312,50420,66564,80204,97400,116720,134488,
  151236,168032,187324,200484,220224,236512,253836,270624,294176,317728,335136,
  356128,373024,394528,413984,433952,458528,478496,499132,520632,531272,539920,
  556728,573612,590508,610988,629420,650924,669868,688300,706220,728748,13904,
  13904,20304,37960,53588)
r1 <- acf(swpd, lag.max = 1, plot = FALSE)$acf[2]
n <- length(swpd)
# rule 15.1: phi from r1 (Marriott & Pope); 15.2: n Var(xbar) / gamma0 of
# AR(1), here summed over the n x n correlation matrix phi^|i-j| rather
# than by the closed form; 15.3: n_eff = n (n - f) / ((n - 1) f) in [2, n]
neff15 <- function(r1, n) {
  phi <- (n * r1 + 1) / (n - 3)
  if (phi <= 0) return(n)
  if (phi >= 1) return(2)
  f <- sum(phi^abs(outer(1:n, 1:n, "-"))) / n
  min(max(n * (n - f) / ((n - 1) * f), 2), n)
}
neff <- neff15(r1, n)
out("swpd r1 %.17g neff %.17g ci95 %.17g", r1, neff, qt(0.975, neff - 1) * sd(swpd) / sqrt(neff))
for (c in list(c(0.3, 60), c(0.8, 60), c(0.95, 600), c(-0.01, 60), c(-0.5, 60), c(0.94, 60)))
  out("neff r1 %g n %d: %.17g", c[1], c[2], neff15(c[1], c[2]))

# D16: read_load's Welch se and df; and the approximation's error
b <- c(31.20, 30.11, 31.03); c <- c(22.66, 23.11, 21.26)
se <- sqrt(var(b) / 3 + var(c) / 3); df <- welch_df(b, c)
out("detect se %.17g df %.17g delta %.17g", se, df, (qt(0.975, df) + qt(0.8, df)) * se)
for (n in c(3, 30)) {
  exact <- power.t.test(n = n, sd = 1, power = 0.8, strict = TRUE)$delta
  approx <- (qt(0.975, 2 * n - 2) + qt(0.8, 2 * n - 2)) * sqrt(2 / n)
  out("power n %d exact %.17g approx %.17g ratio %.6f", n, exact, approx, approx / exact)
}

# D12/D13: read_load in its family of 48 (seed 001 ConTest, Default ->
# Tweaked): Bonferroni's p and Fieller's interval at 1 - 0.05 / 48
b <- c(31.20, 30.11, 31.03); c <- c(22.66, 23.11, 21.26)
p <- t.test(c, b)$p.value
out("family48 p %.17g bonferroni %.17g", p, min(1, 48 * p))
fieller(b, c, conf = 1 - 0.05 / 48)

# D16 with equal means (an integer counter): delta at alpha / 8 in % of
# the mean, 3 values a side
b <- c(10, 12, 14); c <- c(14, 10, 12)
se <- sqrt(var(b) / 3 + var(c) / 3); df <- welch_df(b, c)
out("detect_equal se %.17g df %.17g pct %.17g", se, df,
    100 * (qt(1 - 0.05 / 8 / 2, df) + qt(0.8, df)) * se / mean(b))

# D12: read_load in `compare -c time_s`'s narrowed family of 8
fieller(c(31.20, 30.11, 31.03), c(22.66, 23.11, 21.26), conf = 1 - 0.05 / 8)
