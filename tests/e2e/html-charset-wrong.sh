#!/bin/sh
# A saved page whose bytes are not ASCII and whose <meta charset> names an
# encoding that does not read ASCII as ASCII (UTF-16/32, EBCDIC) and that
# the bytes do not fit (no byte order mark, no NUL) is read as UTF-8 when
# the bytes are valid UTF-8, else as ISO-8859-1, with one warning
# (input/html.h H5). Before, every line was lost without a warning and
# UTF-32 made libxml2 print "encoding error" lines with no file or line.
# Expected by hand: <pre>'s text starts on line 1 (after the markup), the
# command on line 1 and the user time on line 2; line 3 holds only the
# closing tags (html markup): 3 lines, 2 used, 1 skipped, 1 record, one
# warning. The command "mäke" is written as UTF-8 (c3 a4) either way.
# A page whose declared charset is ASCII-compatible but whose bytes fail
# it (EUC-JP, ff fe fd): libxml2's message becomes a warning naming the
# file, nothing raw on stderr.
set -u
: "${BENCHLOG:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0
page() {   # page CHARSET COMMAND-BYTES (printf escapes)
    printf '<!DOCTYPE html><html><head><meta charset="%s"></head><body><pre>' "$1"
    printf "\tCommand being timed: \"$2\"\n\tUser time (seconds): 1.0\n</pre></body></html>\n"
}
for c in "utf-32 m\\344ke ISO-8859-1" "utf-32 m\\303\\244ke UTF-8" "UTF-16 m\\303\\244ke UTF-8" \
         "IBM037 m\\344ke ISO-8859-1" "utf-16le m\\303\\244ke UTF-8"; do
    set -- $c
    page "$1" "$2" > page.html
    got=$("$BENCHLOG" parse -t time page.html 2> err | python3 -c '
import csv, sys
for r in csv.DictReader(sys.stdin):
    print(r["line"], r["command"].encode().hex(), r["user_s"])')
    want="1 6dc3a46b65 1"
    [ "$got" = "$want" ] || { echo "FAIL $c: got '$got', want '$want'"; fails=$((fails + 1)); }
    printf '%s\n' "page.html: charset \"$1\" declared but the bytes are not $1; read as $3" \
        "benchlog: 3 lines: 2 used, 1 skipped; 1 record; 1 warning" \
        "  skipped        1  html markup" "  warning        1  html charset" > want.err
    cmp -s err want.err || { echo "FAIL $c stderr:"; cat err; fails=$((fails + 1)); }
done
printf '<html><head><meta http-equiv="Content-Type" content="text/html; charset=euc-jp"></head><body><pre>a\377\376\375 b\n</pre></body></html>\n' > bad.html
"$BENCHLOG" parse bad.html > /dev/null 2> err
grep -q '^bad.html: the HTML parser stopped: input conversion failed' err &&
    ! grep -v '^bad.html: \|^benchlog[ :]\|^  ' err ||
    { echo "FAIL euc-jp stderr:"; cat err; fails=$((fails + 1)); }
exit $((fails > 0))
