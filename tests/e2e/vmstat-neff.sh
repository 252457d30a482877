#!/bin/sh
# Seed 000's vmstat capture: the samples of a column follow each other in
# time, so `summary` and the report give each column's lag-1
# autocorrelation r1, n_eff by D15's rules 15.1-15.3, and
# the 95 % CI of the mean with n_eff (docs/statistics.md D15). The oracle is
# R on the swpd column of benchlog's own CSV: acf() for r1 (numpy's
# sum(d[:-1] d[1:]) / sum(d d) gives the same, 0.8317283845502461),
# rules 15.1-15.3 with the AR(1) variance of the mean summed over the
# correlation matrix, qt() for the CI. Expected as printed: r1 0.832,
# n_eff 2.9, ci95 640942.33.
# `stats` gives no D5 interval of those samples (D5: they are not
# independent; as if they were, R's qt(0.975, 58) * sd(x) / sqrt(59)
# says ±64,313 KiB): ci95 empty in CSV, from the log and from the
# table's CSV alike, `-` and a note in text, so no second ci95 of the
# same mean contradicts summary's.
set -eu
command -v Rscript >/dev/null || { echo "Rscript missing (scripts/install-deps installs r-base-core)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
s000="$TOP/fixtures/seeds/000_a7bf8587c1dba76c.txt"
"$BENCHLOG" parse -q -t vmstat -o "$tmp/t" "$s000" 2>/dev/null
want=$(Rscript -e '
d <- read.csv(commandArgs(TRUE)[1])
x <- d$swpd; n <- length(x)
r1 <- acf(x, lag.max = 1, plot = FALSE)$acf[2]
phi <- (n * r1 + 1) / (n - 3)
f <- sum(phi^abs(outer(1:n, 1:n, "-"))) / n
ne <- if (phi >= 1) 2 else if (phi <= 0) n else min(max(n * (n - f) / ((n - 1) * f), 2), n)
cat(sprintf("%d %.3f %.1f %.2f", n, r1, ne, qt(0.975, ne - 1) * sd(x) / sqrt(ne)))
' "$tmp/t/vmstat.csv")
set -- $want
[ "$1" = 59 ] || { echo "R read $1 swpd samples, want 59"; exit 1; }
"$BENCHLOG" summary -q "$s000" > "$tmp/s.txt" 2>/dev/null
grep -Eq "^  swpd +59 .* $2 +$3 +$4\$" "$tmp/s.txt" || { grep swpd "$tmp/s.txt"; echo "summary: want r1 $2 n_eff $3 ci95 $4"; exit 1; }
for in in "$s000" "$tmp/t/vmstat.csv"; do
	"$BENCHLOG" stats -q -f csv -t vmstat -c swpd "$in" > "$tmp/st.csv"
	awk -F, 'NR == 2 && $4 == 59 && $7 == "" { ok = 1 } END { exit !ok }' "$tmp/st.csv" ||
		{ cat "$tmp/st.csv"; echo "stats $in: swpd's ci95 should be empty (time series, D5)"; exit 1; }
done
"$BENCHLOG" stats -q -t vmstat -c swpd "$s000" > "$tmp/st.txt"
grep -Eq '^[^ ]+ +swpd +59 +[0-9.]+ +[0-9.]+ +- ' "$tmp/st.txt" &&
	grep -q '^ci95: none for vmstat, whose rows are samples of a time series' "$tmp/st.txt" ||
	{ cat "$tmp/st.txt"; echo "stats: swpd's ci95 should be - with a note"; exit 1; }
"$BENCHLOG" report -q -o "$tmp/rep" "$s000" 2>/dev/null
grep -q "^| swpd | 59 | .* | $2 | $3 | $4 |\$" "$tmp/rep/report.md" || { grep "| swpd" "$tmp/rep/report.md"; echo "report: want r1 $2 n_eff $3 ci95 $4"; exit 1; }
exit 0
