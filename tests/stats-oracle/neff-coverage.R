# D15's coverage by simulation (docs/statistics.md D15): how often
# `benchlog compare` calls two vmstat series of equal means different.
# For each phi in 0, 0.5, 0.8, 0.95 and n in 60, 600, it writes PAIRS
# pairs of vmstat captures whose swpd, free, si and so columns are four
# independent stationary AR(1) series x_t = phi x_{t-1} + e_t (e_t
# N(0, 1), x_1 from the stationary law), scaled and shifted to positive
# integers, the same law on both sides; runs `benchlog compare -f csv` on
# each pair; and counts the tests with raw p < 0.05 (nominal 5 %) and the
# pairs with any family-adjusted p_adj < 0.05 (family-wise, nominal 5 %).
# Run:  Rscript tests/stats-oracle/neff-coverage.R build/benchlog [PAIRS] [SEED]
# (2,000 pairs, seed 1 by default: about 3 minutes).
a <- commandArgs(TRUE)
bl <- normalizePath(a[1])
pairs <- if (length(a) >= 2) as.integer(a[2]) else 2000L
set.seed(if (length(a) >= 3) as.integer(a[3]) else 1L)
ar1 <- function(n, phi) {
  e <- rnorm(n)
  if (phi == 0) return(e)
  e[1] <- e[1] / sqrt(1 - phi^2)
  as.numeric(stats::filter(e, phi, method = "recursive"))
}
capture <- function(file, label, n, phi) {
  col <- function(mid, sd) as.integer(round(mid + sd * ar1(n, phi)))
  rows <- sprintf("%2d %2d %7d %7d %6d %6d %5d %5d %5d %5d %4d %4d %2d %2d %2d %2d",
                  1L, 0L, col(500000, 10000), col(200000, 10000), 1000L, 20000L,
                  col(50000, 1000), col(50000, 1000), 0L, 0L, 100L, 200L, 1L, 1L, 98L, 0L)
  writeLines(c(paste0(label, ":"),
               " r  b    swpd    free   buff  cache    si    so    bi    bo   in   cs us sy id wa",
               rows), file)
}
dir <- tempfile("neff-coverage"); dir.create(dir)
on.exit(unlink(dir, recursive = TRUE))
fa <- file.path(dir, "base.txt"); fb <- file.path(dir, "cand.txt")
cat(sprintf("| n | phi | tests | raw p < 0.05 | pairs | family p_adj < 0.05 |\n|---|---|---|---|---|---|\n"))
for (n in c(60L, 600L)) for (phi in c(0, 0.5, 0.8, 0.95)) {
  raw <- 0; tests <- 0; fam <- 0
  for (i in seq_len(pairs)) {
    capture(fa, "base", n, phi); capture(fb, "cand", n, phi)
    out <- system2(bl, c("compare", "-q", "--since-boot", "keep", "-f", "csv", fa, fb),
                   stdout = TRUE, stderr = FALSE)
    d <- read.csv(text = out, stringsAsFactors = FALSE)
    d <- d[d$table == "vmstat" & grepl("^mean", d$by), ]
    stopifnot(nrow(d) == 4, all(d$base_n == n), all(is.finite(d$p)))
    raw <- raw + sum(d$p < 0.05); tests <- tests + nrow(d)
    fam <- fam + any(d$p_adj < 0.05)
  }
  cat(sprintf("| %d | %.2f | %d | %.1f %% | %d | %.1f %% |\n", n, phi, tests, 100 * raw / tests,
              pairs, 100 * fam / pairs))
}
