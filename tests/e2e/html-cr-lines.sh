#!/bin/sh
# An HTML page with old-Mac line ends (a lone CR) is read line by line, as
# a text file is (input/reader.c splits on LF, CR LF and a lone CR) and as
# a browser shows <pre>. Before, the page was one line and a time -v block
# one record whose command was the whole block.
# Expected by hand, page 1 (CR only): 1 <!DOCTYPE html>, 2 <html><body><pre>
# (the line end after <pre> dropped), 3 the command, 4 user time, 5 system
# time, 6 </pre>, 7 </body></html>: 7 lines, 3 used (3-5), 4 html markup;
# one record at line 3: make, 1 s user, 0.5 s system.
# Page 2: the same with CR CR LF after the doctype (a lone CR, then CR LF:
# two line ends, an empty line 2) and CR LF after <pre>'s lines: every line
# from the third one down by one: 8 lines, 3 used, 5 skipped, record at 4.
set -u
: "${BENCHLOG:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0
check() {   # check FILE WANT-ROW WANT-ACCOUNTING
    got=$("$BENCHLOG" parse -t time "$1" 2> err | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    print(r["line"], r["command"], r["user_s"], r["sys_s"])')
    [ "$got" = "$2" ] || { echo "FAIL $1: got '$got', want '$2'"; fails=$((fails + 1)); }
    [ "$(head -1 err)" = "$3" ] || { echo "FAIL $1 stderr:"; cat err; fails=$((fails + 1)); }
}
printf '<!DOCTYPE html>\r<html><body><pre>\r\tCommand being timed: "make"\r\tUser time (seconds): 1.0\r\tSystem time (seconds): 0.5\r</pre>\r</body></html>\r' > cr.html
check cr.html "3 make 1 0.5" "benchlog: 7 lines: 3 used, 4 skipped; 1 record"
printf '<!DOCTYPE html>\r\r\n<html><body><pre>\r\tCommand being timed: "make"\r\n\tUser time (seconds): 1.0\r\n\tSystem time (seconds): 0.5\r</pre>\r</body></html>\r\n' > mixed.html
check mixed.html "4 make 1 0.5" "benchlog: 8 lines: 3 used, 5 skipped; 1 record"
exit $((fails > 0))
