#!/bin/sh
# Charts cannot run commands (issue: "no gnuplot injection"). Text from the
# logs reaches gnuplot scripts as group names (--group-regex captures, short
# headings, file names), ConTest groups and vmstat event lines. Each payload
# tries what gnuplot would execute or expand: `backquotes` (a shell command
# in a double-quoted string), $(...), both quote characters, @macros,
# system('...'), and input files whose names start with '|' or '<' (gnuplot
# reads such a *data file name* as a command). Every payload would create a
# marker file; after `benchlog plot` and `benchlog report` none may exist,
# and the SVG still shows the text. Skipped (77) without gnuplot.
set -u
: "${BENCHLOG:?}"
command -v gnuplot >/dev/null 2>&1 || { echo "skip: gnuplot not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0
fail() { echo "FAIL [$case]: $*"; fails=$((fails + 1)); }
# Markers are relative: gnuplot (and a shell it started) runs in the chart
# folder, so anything executed would leave mk-* somewhere under $tmp.
no_markers() {
    left=$(find "$tmp" -name 'mk-*' | head -5)
    [ -z "$left" ] || fail "a command ran: $left"
}
svg_has() {   # svg_has FILE TEXT: the chart shows TEXT
    grep -Fq -- "$2" "$1" || fail "$1 does not show: $2"
}
# One short payload per group, so no label is cut ("...") in the charts.
P1='`touch mk-bq`'              # backquotes: a shell command in "..." strings
P2='$(touch mk-dol)'            # shell substitution
P3="q\"d'@mk_at"                # both quotes and a macro (undefined: gnuplot would fail)
P4="system('touch mk-sys')"     # gnuplot's own command runner
P5='back\slash\n'               # escapes are text in '...' strings
# Each group's data differ by its number $i: the same block again would be
# a copy of the first (core/block.h) and left out of the charts.
groups() { i=0; for p in "$P1" "$P2" "$P3" "$P4" "$P5"; do i=$((i + 1)); printf 'Group: %s\n' "$p"; "$@"; done; }

# mtest01 runs: five groups from --group-regex, two from file names.
mt() { printf 'PASS ... 10%d bytes allocated.\nPASS ... 12%d bytes allocated.\n' "${i:-0}" "${i:-0}"; }
groups mt > runs.txt
printf 'PASS ... 300 bytes allocated.\n' > '|touch mk-pipe.txt'
printf 'PASS ... 400 bytes allocated.\n' > '<touch mk-lt.txt'
printf 'Group: <b>bold</b> & plain\nPASS ... 200 bytes allocated.\n' > html.txt

# vmstat: the groups from --group-regex, and an event line with quotes,
# a macro and system() (prose never holds ` $ \ : rule V9).
vm() {
  echo 'procs -----------memory---------- ---swap-- -----io---- --system-- ----cpu----'
  echo ' r  b   swpd   free   buff  cache   si   so    bi    bo   in    cs us sy id wa'
  echo " 1  0      0 123456  7890 456789    0    0     1     2   30   4${i:-0}  1  2 97  0"
  echo ' 1  0     10 123456  7890 456789    0    0     1     2   30   40  1  2 97  0'
  echo "It starts to stutter \"d\" 'q' @mk_ev system('touch mk-ev')"
  echo ' 1  0     20 123456  7890 456789    0    0     1     2   30   40  1  2 97  0'
  echo; }
groups vm > vm.txt

# ConTest: one group from a short heading (rule L4 admits ` and ' in
# 1-4 words, 40 bytes; $ ( ) @ never), the others from --group-regex.
ct() {
  echo "noload Time: 18.82  CPU: 171%  LoadRuns: 0  LoadCPU%: 0  Major Faults: 368526  Minor Faults: 18137${i:-0}"
  echo 'process_load Time: 25.12  CPU: 125%  LoadRuns: 18  LoadCPU%: 74%  Major Faults: 368526  Minor Faults: 181375'
  echo; }
{ echo "Xq\`touch mk-h1\`'h"; echo; ct; groups ct; } > contest.txt

RE='^Group: (.*)$'

case=plot-runs
"$BENCHLOG" plot runs -q -o runs --term svg --group-regex "$RE" runs.txt '|touch mk-pipe.txt' '<touch mk-lt.txt' 2> err
rc=$?; [ $rc -eq 0 ] || { fail "exit $rc"; cat err; }
no_markers
for p in "$P1" "$P2" "$P3" "$P4" "$P5" "|touch mk-pipe" "<touch mk-lt"; do
    svg_has runs/runs.svg "$(printf '%s' "$p" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g')"
done

case=plot-swpd
"$BENCHLOG" plot swpd -q -o swpd --term svg --group-regex "$RE" vm.txt 2> err
rc=$?; [ $rc -eq 0 ] || { fail "exit $rc"; cat err; }
no_markers
"$BENCHLOG" parse -q -t events --group-regex "$RE" vm.txt > events.csv
[ "$(grep -c "@mk_ev system('touch mk-ev')" events.csv)" -eq 5 ] || fail "the event lines are not events: $(cat events.csv)"
for p in "$P1" "$P2" "$P4" "$P5"; do svg_has swpd/swpd.svg "$p"; done
ls swpd/*.svg > /dev/null 2>&1 || fail "no swpd chart"

case=plot-contest
"$BENCHLOG" plot contest -q -o contest --term svg --group-regex "$RE" contest.txt 2> err
rc=$?; [ $rc -eq 0 ] || { fail "exit $rc"; cat err; }
no_markers
[ -f contest/contest.svg ] || fail "no contest chart: $(ls contest)"
for p in "Xq\`touch mk-h1\`'h" "$P1" "$P2" "$P4"; do svg_has contest/contest.svg "$p"; done

case=report
if "$BENCHLOG" report --help > /dev/null 2>&1; then
    "$BENCHLOG" report -q -o rep --group-regex "$RE" runs.txt vm.txt contest.txt html.txt '|touch mk-pipe.txt' '<touch mk-lt.txt' > out 2> err
    rc=$?; [ $rc -eq 0 ] || { fail "exit $rc"; cat err; }
    no_markers
    ls rep/plots/*.svg > /dev/null 2>&1 || fail "no charts in the report"
    grep -rFq -- "$P1" rep/plots/ || fail "the report's charts do not show $P1"
    grep -Fq -- "touch mk-bq" rep/report.md || fail "report.md does not name the group"
    # HTML from a log is text in the report, not markup
    grep -Fq '<b>bold</b>' rep/report.html && fail "raw HTML from the log in report.html"
else
    echo "skip: no report command"
fi

echo "plot-injection: $fails failed"
[ "$fails" -eq 0 ]
