#!/bin/sh
# C1 (analyze/compare.h): without --baseline, the set whose label names
# the baseline side is the baseline, whatever its place. A real message
# of the linux-block archive, fixtures/archives/linux-block-order.mbox
# (README there), posts its new results first: "with 'optimizations'"
# over four blktests timings, then "base:" over four more. Expected by
# hand from the message: base elapsed 7m35.061s 8m29.347s 8m11.357s
# 5m46.615s, mean 1802.380 / 4 = 450.595 s; with 'optimizations'
# 4m43.981s 2m35.160s 2m30.391s 2m19.738s, mean 729.270 / 4 = 182.3175 s;
# change 100 (182.3175 - 450.595) / 450.595 = -59.5 %; p from R's
# t.test (Welch) on the eight values. `compare` and the report's
# findings.csv give the same pair, base -> with 'optimizations'.
# The report names the question by its thread (F7 of report/findings.h),
# by hand from the message's headers: the subject without its [RFC v1
# 0/1] tag, the Message-ID as the fixture has it, the date of "Wed, 19
# Apr 2023 10:56:42 +0200".
set -eu
command -v Rscript >/dev/null || { echo "Rscript missing (scripts/install-deps installs r-base-core)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
f="$TOP/fixtures/archives/linux-block-order.mbox"
"$BENCHLOG" compare -q -t time -c elapsed_s -f csv "$f" > "$tmp/c.csv"
"$BENCHLOG" report -q -o "$tmp/r" "$f" 2>/dev/null || [ $? -eq 1 ]
Rscript - "$tmp/c.csv" "$tmp/r/findings.csv" <<'R'
a <- commandArgs(TRUE)
b <- c(455.061, 509.347, 491.357, 346.615); c <- c(283.981, 155.160, 150.391, 139.738)
p <- t.test(c, b)$p.value
bad <- 0
for (f in a) {
  d <- read.csv(f, stringsAsFactors = FALSE)
  d <- d[d$table == "time" & d$column == "elapsed_s", ]
  ok <- nrow(d) == 1 && d$baseline == "base" && d$candidate == "with 'optimizations'" &&
    abs(d$base_mean - 450.595) < 1e-9 && abs(d$cand_mean - 182.3175) < 1e-9 &&
    abs(d$pct_change - 100 * (182.3175 - 450.595) / 450.595) < 1e-9 &&
    abs(d$p - p) <= 1e-9 * p
  if (!isTRUE(ok)) { cat(f, ": want base -> with 'optimizations', p", p, "\n"); print(d); bad <- bad + 1 }
}
quit(status = bad)
R
where="“nvme testsuite runtime optimization” (37c53652b4606fa4@example.org, 2023-04-19)"
grep -qF "**with 'optimizations'** vs **base** (time, $where, 4 runs each): elapsed\\_s 60 % shorter" "$tmp/r/report.md" ||
    { head -5 "$tmp/r/report.md"; echo "headline: want the thread named $where"; exit 1; }
grep -qF "| time | elapsed\\_s | base → with 'optimizations' |" "$tmp/r/report.md" ||
    { grep "^| time" "$tmp/r/report.md"; echo "Findings: one thread, so no source in the measure"; exit 1; }
grep -q ',"37c53652b4606fa4@example.org, 2023-04-19"$' "$tmp/r/findings.csv" ||
    { cat "$tmp/r/findings.csv"; echo "findings.csv: no first_message"; exit 1; }
