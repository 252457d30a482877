#!/bin/sh
# C1 (analyze/compare.h): without --baseline, the set whose label names
# the baseline side is the baseline, whatever its place; and rule L4c
# (parsers/dispatch.c): the keys under a side pair per key. A real
# message of the linux-block archive, fixtures/archives/linux-block-order.mbox
# (README there), posts its new results first: "with 'optimizations'"
# over four blktests timings, then "base:" over four more, each side's
# four under the indented transport keys "loop:", "rdma:", "tcp:",
# "fc:". So the groups are "base / loop" ... "with 'optimizations' /
# fc", one run each, and each transport compares base -> with
# 'optimizations' on its own (by = the transport), never the four
# pooled. Expected by hand from the message, elapsed (real) in s:
#   key   base                   with 'optimizations'
#   loop  7m35.061s = 455.061    4m43.981s = 283.981
#   rdma  8m29.347s = 509.347    2m35.160s = 155.160
#   tcp   8m11.357s = 491.357    2m30.391s = 150.391
#   fc    5m46.615s = 346.615    2m19.738s = 139.738
# change 100 (cand - base) / base; one run a side: too few runs, no
# test, no p. `compare` and the report's findings.csv give the same
# rows. The report names the question by its thread (F7 of
# report/findings.h), by hand from the message's headers: the subject
# without its [RFC v1 0/1] tag, the Message-ID as the fixture has it,
# the date of "Wed, 19 Apr 2023 10:56:42 +0200"; 3 measures x 4 keys
# = 12 untested.
set -eu
command -v Rscript >/dev/null || { echo "Rscript missing (scripts/install-deps installs r-base-core)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
f="$TOP/fixtures/archives/linux-block-order.mbox"
"$BENCHLOG" compare -q -t time -c elapsed_s -f csv "$f" > "$tmp/c.csv"
"$BENCHLOG" report -q -o "$tmp/r" "$f" 2>/dev/null || [ $? -eq 1 ]
Rscript - "$tmp/c.csv" "$tmp/r/findings.csv" <<'R'
a <- commandArgs(TRUE)
key <- c("loop", "rdma", "tcp", "fc")
b <- c(455.061, 509.347, 491.357, 346.615); c <- c(283.981, 155.160, 150.391, 139.738)
bad <- 0
for (f in a) {
  d <- read.csv(f, stringsAsFactors = FALSE)
  d <- d[d$table == "time" & d$column == "elapsed_s", ]
  d <- d[match(key, d$by), ]
  ok <- nrow(d) == 4 && all(d$by == key) && all(d$baseline == "base") &&
    all(d$candidate == "with 'optimizations'") && all(d$base_n == 1) && all(d$cand_n == 1) &&
    all(abs(d$base_mean - b) < 1e-9) && all(abs(d$cand_mean - c) < 1e-9) &&
    all(abs(d$pct_change - 100 * (c - b) / b) < 1e-9) && all(is.na(d$p)) &&
    all(d$verdict == "too few runs")
  if (!isTRUE(ok)) { cat(f, ": want base -> with 'optimizations' per key\n"); print(d); bad <- bad + 1 }
}
quit(status = bad)
R
where="“nvme testsuite runtime optimization” (37c53652b4606fa4@example.org, 2023-04-19)"
grep -qF "**with 'optimizations'** vs **base** (time, $where, 1 run each): 12 measures not tested (too few runs, or no test possible)." "$tmp/r/report.md" ||
    { head -5 "$tmp/r/report.md"; echo "headline: want the thread named $where"; exit 1; }
grep -qF "| time | elapsed\\_s, loop | base → with 'optimizations' | −38 % |  | too few runs (1 against 1) |" "$tmp/r/report.md" ||
    { grep "^| time" "$tmp/r/report.md"; echo "Findings: one thread, so no source in the measure"; exit 1; }
grep -q ',"37c53652b4606fa4@example.org, 2023-04-19"$' "$tmp/r/findings.csv" ||
    { cat "$tmp/r/findings.csv"; echo "findings.csv: no first_message"; exit 1; }
