#!/bin/sh
# Issue 10: peak RSS of `parse` and `summary` must not grow with the size
# of an mbox archive (mail R13: an mbox is read a window at a time, about
# 1 MiB plus the message being read, not held whole).
#
# Input, from python3 below: N messages in one mbox, each a GNU time -v
# block of an mtest01 run whose elapsed time, user time and minor faults
# the generator picks; no label in the text and one subject for all, so
# every run is in the one group named after the thread ("mtest01 runs"). N = 2,000 (about 1 MB) and
# 20,000 (about 10 MB).
#
# Expected, worked out by the generator: `parse -t time` writes N rows;
# `summary` prints "Averages for N timed runs" with the mean elapsed time
# to 3 decimals and the mean minor faults to 2, as chkmmt prints them.
#
# Memory: the larger archive may take at most SLACK KiB more than the
# smaller, for each command. Held whole, as before R13, the archive of
# 20,000 messages took about 9 MiB more than that of 2,000 (parse 9.2
# against 18.3 MiB, summary 8.7 against 17.9 MiB at 6c51bd6); read a
# window at a time, 9.2 against 9.7 and 8.9 against 9.2 MiB. SLACK
# (3 MiB) is well below the old growth and well above the noise.
set -eu
command -v python3 >/dev/null || exit 77
[ -x /usr/bin/time ] || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SLACK=3072

gen() {
    python3 - "$1" "$2" <<'PY'
import random, sys
n, out = int(sys.argv[1]), sys.argv[2]
rnd = random.Random(10)
el = mf = 0.0
with open(out, "w") as f:
    for i in range(n):
        s = rnd.randint(1000, 5999)          # elapsed in centiseconds
        m = rnd.randint(1000, 99999)
        el += s / 100.0
        mf += m
        f.write("From tester@example.com Mon Jan  7 10:00:00 2002\n"
                "From: Tester <tester@example.com>\n"
                "Subject: %smtest01 runs\n"
                "Message-ID: <run%d@example.com>\n"
                "Date: Mon, 7 Jan 2002 10:00:00 +0000\n\n" % ("Re: " if i else "", i))
        f.write('\tCommand being timed: "mtest01 -p80 -w"\n'
                "\tUser time (seconds): %.2f\n"
                "\tSystem time (seconds): 2.74\n"
                "\tPercent of CPU this job got: 10%%\n"
                "\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:%02d.%02d\n"
                "\tMaximum resident set size (kbytes): 0\n"
                "\tMajor (requiring I/O) page faults: 12\n"
                "\tMinor (reclaiming a frame) page faults: %d\n"
                "\tExit status: 0\n\n" % (rnd.uniform(1, 3), s // 100, s % 100, m))
print("%.3f %.2f" % (el / n, mf / n))
PY
}

. "$TOP/tests/lib/rss.sh"

for n in 2000 20000; do
    mkdir -p "$tmp/$n"
    want=$(gen "$n" "$tmp/$n/archive.mbox")
    el=${want% *}
    mf=${want#* }
    p=$(peak_rss "$tmp/$n/parse.csv" parse -q -t time "$tmp/$n/archive.mbox")
    s=$(peak_rss "$tmp/$n/summary.txt" summary -q "$tmp/$n/archive.mbox")
    echo "$n messages: parse $p KiB, summary $s KiB"
    rows=$(($(wc -l <"$tmp/$n/parse.csv") - 1))
    [ "$rows" = "$n" ] || { echo "$n messages in, $rows time rows out"; exit 1; }
    f="$tmp/$n/summary.txt"
    grep -q "^Averages for $n timed runs\$" "$f" || { echo "no 'Averages for $n timed runs'"; cat "$f"; exit 1; }
    grep -q "^Elapsed (wall clock) time: $el\$" "$f" || { echo "mean elapsed is not $el"; cat "$f"; exit 1; }
    grep -q "^Minor (reclaiming a frame) faults: $mf\$" "$f" || { echo "mean minor faults are not $mf"; cat "$f"; exit 1; }
    eval "parse_$n=$p summary_$n=$s"
done

# Under AddressSanitizer freed memory waits in a quarantine and RSS says
# nothing about the program's own use: the comparison is for plain builds.
if asan_build; then
    echo "AddressSanitizer build: peak RSS not compared"
    exit 0
fi
[ "$parse_20000" -le $((parse_2000 + SLACK)) ] ||
    { echo "parse's peak RSS grows with the archive: $parse_2000 KiB, then $parse_20000 KiB"; exit 1; }
[ "$summary_20000" -le $((summary_2000 + SLACK)) ] ||
    { echo "summary's peak RSS grows with the archive: $summary_2000 KiB, then $summary_20000 KiB"; exit 1; }
exit 0
