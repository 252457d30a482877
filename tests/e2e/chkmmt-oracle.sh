#!/bin/sh
# The seed's own Perl script is the oracle for `benchlog summary`: extract
# chkmmt from seed 000, run it on generated raw mtest01 + time -v logs
# (GNU TABs, mail-mangled spacing, time block first), and require the same
# averages, line for line, to the printed precision.
# Also the Elapsed rounding case (docs/statistics.md D21): four runs of
# 1:48.86, 1:17.59, 1:53.13 and 0:01.07, which the script totals as
# minutes x 60 plus seconds, two additions a run, and prints 75.163 (the
# sums per run would give 75.162); and 20 random groups of 2-12 runs.
set -eu
command -v perl >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -n '/^#!\/usr\/bin\/perl -w/,/^# end of script/p' "$TOP/fixtures/seeds/000_a7bf8587c1dba76c.txt" > "$tmp/chkmmt.pl"
[ "$(wc -l < "$tmp/chkmmt.pl")" -gt 40 ] || { echo "could not extract chkmmt"; exit 1; }
fail=0
same() {    # $1: log, $2: what it is; the script's output and benchlog's
    perl "$tmp/chkmmt.pl" "$1" > "$tmp/perl.out" 2>/dev/null
    "$BENCHLOG" summary -q "$1" | sed -n '/^Averages for/,/^Minor (reclaiming/p' > "$tmp/bl.out"
    if ! cmp -s "$tmp/perl.out" "$tmp/bl.out"; then
        echo "chkmmt and benchlog differ for $2:"
        diff "$tmp/perl.out" "$tmp/bl.out" || true
        fail=1
    fi
}
for mode in tab space1 space8 mixed timefirst; do
    for seed in 1 2; do
        log="$tmp/mtest-$mode-$seed.log"
        python3 "$TOP/tests/gen-mtest-logs" "$log" $((seed * 5 + 3)) "$seed" "$mode"
        same "$log" "$mode seed $seed"
    done
done

# The four-run rounding case, then random groups (the generator's seeds).
i=0
for el in 1:48.86 1:17.59 1:53.13 0:01.07; do
    i=$((i + 1))
    printf 'PASS ... 12%02d000000 bytes allocated.\n\tUser time (seconds): 2.0%d\n\tSystem time (seconds): 2.8%d\n\tPercent of CPU this job got: 8%%\n\tElapsed (wall clock) time (h:mm:ss or m:ss): %s\n\tMajor (requiring I/O) page faults: 10%d\n\tMinor (reclaiming a frame) page faults: 30465%d\n' \
        "$i" "$i" "$i" "$el" "$i" "$i"
done > "$tmp/round.log"
perl "$tmp/chkmmt.pl" "$tmp/round.log" > "$tmp/perl.out" 2>/dev/null
grep -qx 'Elapsed (wall clock) time: 75.163' "$tmp/perl.out" || { echo "the script itself no longer prints 75.163"; fail=1; }
same "$tmp/round.log" "the rounding case"
seed=100
while [ $seed -lt 120 ]; do
    log="$tmp/rand-$seed.log"
    python3 "$TOP/tests/gen-mtest-logs" "$log" $((seed % 11 + 2)) "$seed" tab
    same "$log" "random seed $seed"
    seed=$((seed + 1))
done
exit $fail
