#!/bin/sh
# Exit statuses agree across commands (issue 29, docs/errors.md):
# - no records found is 1 in every command that reads logs (parse, summary,
#   report, stats, compare, plot), -q or not, with a line saying so;
# - an unknown --baseline is a usage error (2) in compare, report, summary
#   and plot, with the groups listed, and the report folder not written;
# - report -q prints nothing on stdout; "report written to" goes to stderr;
# - a mistyped command gets "did you mean".
set -u
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$TOP/fixtures"
fail=0
want() { # want STATUS DESCRIPTION COMMAND...
    w=$1; d=$2; shift 2
    "$@" > "$tmp/out" 2> "$tmp/err" < /dev/null
    got=$?
    if [ "$got" != "$w" ]; then echo "$d: exit $got, want $w"; cat "$tmp/err"; fail=1; fi
}
empty=errors/empty.txt
want 1 "parse, no records" "$BENCHLOG" parse "$empty"
grep -qx 'benchlog parse: no records found in the input' "$tmp/err" || { echo "parse: no 'no records found'"; fail=1; }
want 1 "parse -q -t time, no records" "$BENCHLOG" parse -q -t time "$empty"
[ -s "$tmp/err" ] || { echo "parse -q: no records, and nothing said"; fail=1; }
want 1 "parse -o, no records" "$BENCHLOG" parse -q -o "$tmp/p0" "$empty"
want 1 "plot swpd, no records" "$BENCHLOG" plot swpd -q -o "$tmp/p1" "$empty"
want 1 "plot runs, no records" "$BENCHLOG" plot runs -q -o "$tmp/p2" "$empty"
want 1 "summary, no records" "$BENCHLOG" summary "$empty"
want 1 "stats, no records" "$BENCHLOG" stats "$empty"
want 1 "compare, no records" "$BENCHLOG" compare "$empty"
want 1 "report, no records" "$BENCHLOG" report -q -o "$tmp/r0" "$empty"
grep -q 'no records found' "$tmp/err" || { echo "report: no 'no records found'"; fail=1; }

seed=seeds/001_07df0cd7d9b0f35d.txt
groups='there are: "Default tunables", "Tweaked tunables"'
for cmd in compare summary report "plot contest"; do
    # shellcheck disable=SC2086
    want 2 "$cmd --baseline nosuch" "$BENCHLOG" $cmd --baseline nosuch $( [ "$cmd" = report ] && echo "-o $tmp/rb" ) \
        $( [ "$cmd" = "plot contest" ] && echo "-o $tmp/pb" ) "$seed"
    grep -qF "$groups" "$tmp/err" || { echo "$cmd: groups not listed: $(cat "$tmp/err")"; fail=1; }
done
[ ! -e "$tmp/rb" ] || { echo "report --baseline nosuch wrote $tmp/rb"; fail=1; }

want 0 "report -q" "$BENCHLOG" report -q -o "$tmp/r1" "$seed"
[ ! -s "$tmp/out" ] || { echo "report -q: stdout not empty: $(cat "$tmp/out")"; fail=1; }
[ ! -s "$tmp/err" ] || { echo "report -q: stderr not empty: $(cat "$tmp/err")"; fail=1; }
want 0 "report" "$BENCHLOG" report -o "$tmp/r2" "$seed"
[ ! -s "$tmp/out" ] || { echo "report: stdout not empty: $(cat "$tmp/out")"; fail=1; }
grep -qx "report written to $tmp/r2/report.html" "$tmp/err" || { echo "report: no note on stderr"; fail=1; }
# a mistyped command: did you mean
want 2 "mistyped command" "$BENCHLOG" sumary "$seed"
grep -qx 'benchlog: unknown command "sumary"; did you mean "summary"?' "$tmp/err" ||
    { echo "no suggestion: $(head -1 "$tmp/err")"; fail=1; }
want 2 "unknown command" "$BENCHLOG" xyzzy "$seed"
grep -qx 'benchlog: unknown command "xyzzy"' "$tmp/err" || { echo "xyzzy: $(head -1 "$tmp/err")"; fail=1; }
exit $fail
