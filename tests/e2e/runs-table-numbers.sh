#!/bin/sh
# The runs table after chkmmt's averages (summary, report.md) and the runs
# chart's legend show a whole number whole and a fraction in fixed
# notation, as every text table does (analyze/outtab.h, bl_outtab_num):
# 29390380 faults, not 2.93904e+07; 999999999999999, not 1e+15; elapsed
# 4:09:12 = 4*3600 + 9*60 + 12 = 14952 s, not 1.495e+04 s. The averages
# above the table keep the seed chkmmt script's layout (analyze/runs.c) and
# are not checked here. Expected values by hand.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "$*"; exit 1; }
cat > "$tmp/run.txt" <<'LOG'
	Command being timed: "make -j2"
	User time (seconds): 7861.94
	System time (seconds): 2660.63
	Percent of CPU this job got: 213%
	Elapsed (wall clock) time (h:mm:ss or m:ss): 4:09:12
	Major (requiring I/O) page faults: 999999999999999
	Minor (reclaiming a frame) page faults: 29390380
	Exit status: 0
LOG
"$BENCHLOG" summary "$tmp/run.txt" > "$tmp/sum" 2>/dev/null || fail "summary: exit $?"
for want in 'user_s +1 +7861\.94 +- +7861\.94 +7861\.94' 'elapsed_s +1 +14952 +- +14952 +14952' \
    'major_faults +1 +999999999999999 +- +999999999999999 +999999999999999' \
    'minor_faults +1 +29390380 +- +29390380 +29390380'; do
    grep -Eq "^$want\$" "$tmp/sum" || fail "summary: no /$want/ in $(cat "$tmp/sum")"
done
"$BENCHLOG" report -q -o "$tmp/rep" "$tmp/run.txt" 2>/dev/null || fail "report: exit $?"
for want in '| elapsed_s | 1 | 14952 | - | 14952 | 14952 |' \
    '| major_faults | 1 | 999999999999999 | - | 999999999999999 | 999999999999999 |' \
    '| minor_faults | 1 | 29390380 | - | 29390380 | 29390380 |'; do
    grep -Fxq "$want" "$tmp/rep/report.md" || fail "report.md: no \"$want\""
done
if command -v gnuplot >/dev/null; then
    grep -q "(1 run): elapsed 14952 s, CPU 213 %" "$tmp/rep/plots/runs.gp" ||
        fail "runs.gp legend: $(grep -o '(1 run)[^'\'']*' "$tmp/rep/plots/runs.gp")"
fi
exit 0
