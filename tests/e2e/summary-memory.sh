#!/bin/sh
# Issue 10: `benchlog summary`'s peak RSS must not grow with the number of
# vmstat series (docs/performance.md, "Memory of summary"). Two inputs of
# the same shape, N and 10 x N series (python3 below: 8 groups, each
# series 12 rows in which swpd climbs, collapses and climbs again, with a
# stutter-start and a stutter-end line, so every section part is there:
# statistics, events, intervals, iterations, and S5's list by group), are
# summarised under GNU time; the larger may take at most SLACK KiB more.
#
# Expected values: before series were written out as they end, 2,000
# series took 13.4 MiB and 20,000 took 57 MiB here (about 2.4 KiB more per
# series); written out, both take about 9 MiB (9.0 and 9.1 at 2830adf). SLACK (2 MiB) is well below
# the old growth (43 MiB) and well above the noise (<0.5 MiB). The output
# is checked too: every series is printed (the count comes from the
# generator) and S5 lists every group's stutter-end values (python3
# counts them: one per series).
#
# Then the error path: with a file size limit (ulimit -f, SIGXFSZ ignored
# so the write fails with EFBIG) the temporary file cannot be written: the
# command must say so, exit 1 and print nothing on stdout.
set -eu
command -v python3 >/dev/null || exit 77
[ -x /usr/bin/time ] || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SLACK=2048

gen() {
    python3 - "$1" "$2" <<'PY'
import sys
n, out = int(sys.argv[1]), sys.argv[2]
with open(out, "w") as f:
    for i in range(n):
        f.write("\n2.4.%d-mm\n" % (i % 8))
        f.write("procs memory swap io system cpu\n")
        f.write("r b w swpd free buff cache si so bi bo in cs us sy id\n")
        swpd = [100000 + 20000 * k for k in range(6)] + [2000 + 30000 * k for k in range(6)]
        for k, s in enumerate(swpd):
            if k == 3:
                f.write("Around here, mp3blaster begins to stutter.\n")
            if k == 5:
                f.write("Now it stops stuttering.\n")
            f.write("%d 0 0 %d %d 1000 50000 %d %d %d %d 300 %d %d %d %d\n"
                    % (k % 3, s + i, 90000 - k * 100, k * 7, 9000 + k, 100 + k, 9100 + k,
                       500 + i % 97, 20 + k, 10, 70 - k))
PY
}

. "$TOP/tests/lib/rss.sh"

gen 2000 "$tmp/small.txt"
gen 20000 "$tmp/large.txt"
small=$(peak_rss "$tmp/small.out" summary -q "$tmp/small.txt")
large=$(peak_rss "$tmp/large.out" summary -q "$tmp/large.txt")
echo "peak RSS: 2,000 series $small KiB, 20,000 series $large KiB"

for n in 2000 20000; do
    f="$tmp/small.out"
    [ "$n" = 20000 ] && f="$tmp/large.out"
    got=$(grep -c '^series [0-9]*: ' "$f")
    [ "$got" = "$n" ] || { echo "$n series in, $got printed"; exit 1; }
    # S5: 8 groups, each with n/8 values (one stutter end per series)
    vals=$(awk '/^stutter ended at swpd, by group:/ { on = 1; next }
                on && /^  2\.4\.[0-7]-mm / { n += gsub(/ MiB \(series /, "") }
                END { print n + 0 }' "$f")
    [ "$vals" = "$n" ] || { echo "S5 lists $vals values for $n series"; exit 1; }
done

# Under AddressSanitizer freed memory waits in a quarantine and RSS says
# nothing about the program's own use: the comparison is for plain builds.
if asan_build; then
    echo "AddressSanitizer build: peak RSS not compared"
elif [ "$large" -gt $((small + SLACK)) ]; then
    echo "summary's peak RSS grows with the series: $small KiB for 2,000, $large KiB for 20,000"
    exit 1
fi

# The temporary file of 20,000 series (~5 MB) passes a 1 MiB size limit.
. "$TOP/tests/lib/summary-temp-limit.sh"
temp_limit_check "$tmp" "$tmp/large.txt"
exit 0
