#!/bin/sh
# A saved page of ASCII bytes is read as ASCII whatever its <meta charset>
# says (input/html.h): a page declaring UTF-16, UTF-32 or EBCDIC (which
# browsers do not follow on such bytes either) was decoded by libxml2
# into other characters, every line lost, and libxml2 printed "encoding
# error" lines with no file or line.
# Expected by hand: line 1 holds the markup up to <pre> (its newline is
# dropped), lines 2-10 the `time -v` block, line 11 the closing tags: one
# row at line 2 with user 10.5 s, system 2.25 s, 99 %, elapsed 12.8 s;
# 11 lines, 9 used, 2 skipped (html markup), nothing else on stderr.
set -u
: "${BENCHLOG:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0
for cs in UTF-16LE utf-16 utf-32 ebcdic-cp-us; do
    { echo "<!DOCTYPE html><html><head><meta charset=\"$cs\"></head><body><pre>"
      printf '\tCommand being timed: "make -j4"\n\tUser time (seconds): 10.50\n'
      printf '\tSystem time (seconds): 2.25\n\tPercent of CPU this job got: 99%%\n'
      printf '\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:12.80\n'
      printf '\tMaximum resident set size (kbytes): 1000\n\tMajor (requiring I/O) page faults: 0\n'
      printf '\tMinor (reclaiming a frame) page faults: 100\n\tExit status: 0\n'
      echo "</pre></body></html>"; } > page.html
    got=$("$BENCHLOG" parse -t time page.html 2> err | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    print(r["line"], r["command"], r["user_s"], r["sys_s"], r["cpu_pct"], r["elapsed_s"])')
    want="2 make -j4 10.5 2.25 99 12.8"
    [ "$got" = "$want" ] || { echo "FAIL $cs: got '$got', want '$want'"; fails=$((fails + 1)); }
    first=$(head -1 err)
    [ "$first" = "benchlog: 11 lines: 9 used, 2 skipped; 1 record" ] && [ "$(grep -c '' err)" = 2 ] ||
        { echo "FAIL $cs stderr: $(cat err)"; fails=$((fails + 1)); }
done
exit $((fails > 0))
