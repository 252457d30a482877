#!/bin/sh
# Rules L4d and L4e (parsers/dispatch.c) and C1 (analyze/compare.h): keys
# with no side label over them, and keys over their sides, compare per
# key, never the keys pooled nor compared as if they were sides.
#
# fixtures/archives/linux-block-v3.mbox (README there), the blktests v3
# cover letter, gives "loop:" with the defaults, "loop:" again with
# nvme_img_size=16M nvme_num_iter=10, then "tcp:", "rdma:" for the one
# and "tcp:", "rdma:" for the other, no side label anywhere. Each key's
# Nth result is round N ("#1 / loop", "#2 / loop"), so each transport
# compares #1 -> #2 on its own, one run a side: too few runs, no test.
# Elapsed (real) by hand from the message, in s:
#   key   #1                      #2
#   loop  13m17.778s = 797.778    6m2.588s  = 362.588
#   tcp   8m29.010s  = 509.010    2m18.117s = 138.117
#   rdma  8m46.285s  = 526.285    2m5.546s  = 125.546
# fixtures/archives/nested-inverted.txt gives the RFC's results of
# linux-block-order.mbox with each transport's key over its two sides
# ("loop:" over "  base:" and "  with 'optimizations':"), so it compares
# as that message does (tests/e2e/archive-baseline-order.sh, by hand):
#   key   base                   with 'optimizations'
#   loop  7m35.061s = 455.061    4m43.981s = 283.981
#   rdma  8m29.347s = 509.347    2m35.160s = 155.160
#   tcp   8m11.357s = 491.357    2m30.391s = 150.391
#   fc    5m46.615s = 346.615    2m19.738s = 139.738
# change 100 (cand - base) / base.
set -eu
command -v Rscript >/dev/null || { echo "Rscript missing (scripts/install-deps installs r-base-core)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
a="$TOP/fixtures/archives"
"$BENCHLOG" compare -q -t time -c elapsed_s -f csv "$a/linux-block-v3.mbox" > "$tmp/v3.csv"
"$BENCHLOG" compare -q -t time -c elapsed_s -f csv "$a/nested-inverted.txt" > "$tmp/inv.csv"
Rscript - "$tmp/v3.csv" "$tmp/inv.csv" <<'R'
a <- commandArgs(TRUE)
check <- function(f, key, base, cand, b, c) {
  d <- read.csv(f, stringsAsFactors = FALSE)
  d <- d[d$table == "time" & d$column == "elapsed_s", ]
  ok <- nrow(d) == length(key)
  d <- d[match(key, d$by), ]
  ok <- ok && all(d$by == key) && all(d$baseline == base) && all(d$candidate == cand) &&
    all(d$base_n == 1) && all(d$cand_n == 1) &&
    all(abs(d$base_mean - b) < 1e-9) && all(abs(d$cand_mean - c) < 1e-9) &&
    all(abs(d$pct_change - 100 * (c - b) / b) < 1e-9) && all(is.na(d$p)) &&
    all(d$verdict == "too few runs")
  if (!isTRUE(ok)) { cat(f, ": want", base, "->", cand, "per key\n"); print(d) }
  isTRUE(ok)
}
ok <- check(a[1], c("loop", "tcp", "rdma"), "#1", "#2",
            c(797.778, 509.010, 526.285), c(362.588, 138.117, 125.546))
ok <- check(a[2], c("loop", "rdma", "tcp", "fc"), "base", "with 'optimizations'",
            c(455.061, 509.347, 491.357, 346.615), c(283.981, 155.160, 150.391, 139.738)) && ok
quit(status = if (ok) 0 else 1)
R
