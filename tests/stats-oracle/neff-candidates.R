# How D15's estimator was picked (docs/statistics.md D15): the share of
# Welch tests at 5 % that call two AR(1) series of equal means different,
# for the candidate estimates of the variance of a mean, written out here
# in R from their definitions (no benchlog):
#   ar1      n_eff = n (1 - r1) / (1 + r1) in [2, n] (Bayley & Hammersley
#            1946; benchlog's D15 until it was replaced);
#   geyer    Geyer's (1992) initial positive sequence on the sample
#            autocovariances: sigma^2 = -g0 + 2 sum_k (g_2k + g_2k+1) over
#            the leading positive pairs; n_eff = n s^2 / sigma^2 in [2, n];
#   geyer_m  the same with the initial monotone sequence;
#   bm_sqrt  batch means, floor(sqrt n) batches, df = batches - 1;
#   bm_10    batch means, 10 batches, df 9;
#   d15      rules 15.1-15.3: r1's bias corrected, the exact AR(1)
#            variance of the mean, s^2's bias corrected.
# Each side's variance of the mean v and df go into Welch's test:
# t = (m_a - m_b) / sqrt(v_a + v_b), df = (v_a + v_b)^2 / (v_a^2/df_a + v_b^2/df_b).
# Run:  Rscript tests/stats-oracle/neff-candidates.R [PAIRS] [SEED]   (2,000, 1)
a <- commandArgs(TRUE)
pairs <- if (length(a) >= 1) as.integer(a[1]) else 2000L
set.seed(if (length(a) >= 2) as.integer(a[2]) else 1L)
ar1 <- function(n, phi) {
  e <- rnorm(n)
  if (phi == 0) return(e)
  e[1] <- e[1] / sqrt(1 - phi^2)
  as.numeric(stats::filter(e, phi, method = "recursive"))
}
r1f <- function(x) acf(x, lag.max = 1, plot = FALSE)$acf[2]
bound <- function(ne, n) min(max(ne, 2), n)
by_neff <- function(x, ne) list(v = var(x) / ne, df = ne - 1)
est <- list(
  ar1 = function(x) {
    n <- length(x); r <- r1f(x)
    by_neff(x, if (r <= 0) n else bound(n * (1 - r) / (1 + r), n))
  },
  geyer = function(x) geyer(x, FALSE),
  geyer_m = function(x) geyer(x, TRUE),
  bm_sqrt = function(x) bm(x, floor(length(x) / floor(sqrt(length(x))))),
  bm_10 = function(x) bm(x, 10),
  d15 = function(x) {
    n <- length(x); phi <- (n * r1f(x) + 1) / (n - 3)
    if (phi <= 0) return(by_neff(x, n))
    if (phi >= 1) return(by_neff(x, 2))
    f <- (1 + phi) / (1 - phi) - 2 * phi * (1 - phi^n) / (n * (1 - phi)^2)
    by_neff(x, if (f >= n) 2 else bound(n * (n - f) / ((n - 1) * f), n))
  })
geyer <- function(x, mono) {
  n <- length(x)
  g <- acf(x, lag.max = n - 1, type = "covariance", plot = FALSE, demean = TRUE)$acf[, 1, 1]
  G <- numeric(0)
  for (k in 0:(floor(n / 2) - 1)) {
    s <- g[2 * k + 1] + g[2 * k + 2]
    if (s <= 0) break
    G <- c(G, s)
  }
  if (length(G) == 0) return(by_neff(x, n))
  if (mono) G <- cummin(G)
  by_neff(x, bound(n * var(x) / (2 * sum(G) - g[1]), n))
}
bm <- function(x, k) {
  b <- floor(length(x) / k)
  y <- colMeans(matrix(x[1:(k * b)], nrow = b))
  list(v = var(y) / k, df = k - 1)
}
welch_p <- function(ea, eb, ma, mb) {
  v <- ea$v + eb$v
  df <- v^2 / (ea$v^2 / ea$df + eb$v^2 / eb$df)
  2 * pt(-abs((ma - mb) / sqrt(v)), df)
}
cat("| n | phi |", paste(names(est), collapse = " | "), "|\n")
cat("|---|---|", paste(rep("---|", length(est)), collapse = ""), "\n", sep = "")
for (n in c(60L, 600L)) for (phi in c(0, 0.5, 0.8, 0.95)) {
  rej <- setNames(numeric(length(est)), names(est))
  for (i in seq_len(pairs)) {
    x <- ar1(n, phi); y <- ar1(n, phi)
    for (k in names(est)) rej[k] <- rej[k] + (welch_p(est[[k]](x), est[[k]](y), mean(x), mean(y)) < 0.05)
  }
  cat(sprintf("| %d | %.2f | %s |\n", n, phi, paste(sprintf("%.1f %%", 100 * rej / pairs), collapse = " | ")))
}
