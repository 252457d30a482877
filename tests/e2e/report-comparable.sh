#!/bin/sh
# What the report compares (report/findings.h F1, issue 27): groups of one
# mail thread, or one plain file, or named by --baseline; --compare-all
# compares across unrelated sources. An mbox of seed 001's two halves:
#   a.mbox: the post ("Default tunables") and a reply in its thread
#           ("Re: ..." with "Tweaked tunables") -> compared, read_load's
#           time -27.4 % (by hand from the seed's rows: 30.78 s -> 22.343 s);
#   b.mbox: the same two halves under unrelated subjects (the second
#           headed "WITH EXT2") -> not compared: one sentence with the
#           untested differences; with --compare-all or --baseline compared.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
seed="$TOP/fixtures/seeds/001_07df0cd7d9b0f35d.txt"
fail() { echo "FAIL: $*"; sed -n '/^## Findings/,/^## Inputs/p' "$1" | head -20; exit 1; }
msg() {   # msg FROM-LINE-NUMBER TO-LINE-NUMBER SUBJECT ID [HEADING]
    printf 'From user@example.org Thu Dec 26 09:01:54 2002\nFrom: user@example.org\n'
    printf 'Subject: %s\nMessage-ID: <%s@example.org>\nDate: Thu, 26 Dec 2002 09:01:54 -0600\n\n' "$3" "$4"
    if [ -n "${5:-}" ]; then echo "$5"; sed -n "$(($1 + 1)),$2p" "$seed"; else sed -n "$1,$2p" "$seed"; fi
    echo
}
# lines 8-56: "Default tunables" and its rows; 57-105: "Tweaked tunables" ...
{ msg 8 56 "[BENCHMARK] scheduler tunables with contest" m1
  msg 57 105 "Re: [BENCHMARK] scheduler tunables with contest" m2; } > "$tmp/a.mbox"
{ msg 8 56 "[BENCHMARK] scheduler tunables with contest" m1
  msg 57 105 "ext2 against ext3 under load" m3 "WITH EXT2"; } > "$tmp/b.mbox"
want=$(python3 - "$seed" <<'PY'
import re, sys
t = [float(x) for x in re.findall(r"^read_load Time: ([\d.]+)", open(sys.argv[1]).read(), re.M)]
a, b = sum(t[:3]) / 3, sum(t[3:]) / 3
print("\u2212%.0f %%" % (100 * (a - b) / a))   # 2-3 significant digits
PY
)
[ "$want" = "−27 %" ] || { echo "FAIL: python: $want"; exit 1; }

"$BENCHLOG" report -q -o "$tmp/ra" "$tmp/a.mbox" 2> /dev/null
grep -q "^| contest | time\\\\_s, read\\\\_load | Default tunables → Tweaked tunables | $want \[" "$tmp/ra/report.md" ||
    fail "$tmp/ra/report.md" "a reply in the thread is not compared with the post"
"$BENCHLOG" report -q -o "$tmp/rb" "$tmp/b.mbox" 2> /dev/null
! grep -q "WITH EXT2 |" "$tmp/rb/report.md" || fail "$tmp/rb/report.md" "unrelated mails compared"
grep -q "^Table contest: Default tunables and WITH EXT2 come from different sources and are not compared .*time\\\\_s " "$tmp/rb/report.md" ||
    fail "$tmp/rb/report.md" "no sentence for the unrelated mails"
"$BENCHLOG" report -q --compare-all -o "$tmp/rc" "$tmp/b.mbox" 2> /dev/null
grep -q "^| contest | time\\\\_s, read\\\\_load | Default tunables → WITH EXT2 | $want \[" "$tmp/rc/report.md" ||
    fail "$tmp/rc/report.md" "--compare-all does not compare"
"$BENCHLOG" report -q --baseline "Default tunables" -o "$tmp/rd" "$tmp/b.mbox" 2> /dev/null
grep -q "^| contest | time\\\\_s, read\\\\_load | Default tunables → WITH EXT2 | $want \[" "$tmp/rd/report.md" ||
    fail "$tmp/rd/report.md" "--baseline does not compare"
exit 0
