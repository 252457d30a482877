#!/bin/sh
# The seed's own Perl script is the oracle for `benchlog summary`: extract
# chkmmt from seed 000, run it on generated raw mtest01 + time -v logs
# (GNU TABs, mail-mangled spacing, time block first), and require the same
# averages, line for line, to the printed precision.
set -eu
command -v perl >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -n '/^#!\/usr\/bin\/perl -w/,/^# end of script/p' "$TOP/fixtures/seeds/000_a7bf8587c1dba76c.txt" > "$tmp/chkmmt.pl"
[ "$(wc -l < "$tmp/chkmmt.pl")" -gt 40 ] || { echo "could not extract chkmmt"; exit 1; }
fail=0
for mode in tab space1 space8 mixed timefirst; do
    for seed in 1 2; do
        log="$tmp/mtest-$mode-$seed.log"
        python3 "$TOP/tests/gen-mtest-logs" "$log" $((seed * 5 + 3)) "$seed" "$mode"
        perl "$tmp/chkmmt.pl" "$log" > "$tmp/perl.out" 2>/dev/null
        "$BENCHLOG" summary -q "$log" | sed -n '/^Averages for/,/^Minor (reclaiming/p' > "$tmp/bl.out"
        if ! cmp -s "$tmp/perl.out" "$tmp/bl.out"; then
            echo "chkmmt and benchlog differ for $mode seed $seed:"
            diff "$tmp/perl.out" "$tmp/bl.out" || true
            fail=1
        fi
    done
done
exit $fail
