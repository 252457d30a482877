#!/bin/sh
# Each message once (input/mail.c R14): a Message-ID met again — in the
# same archive (a cross-posted copy), or in a second archive on the same
# command line — is read once; the other copies' lines are skipped
# "duplicate message", told to skipped.csv as "duplicate of the message
# at FILE:LINE". Expected by hand:
#   a.mbox: <a@example.org> 1 s (lines 1-8), <b@example.org> 2 s
#           (lines 10-17), <a@example.org> again, cross-posted with
#           another list's tag (lines 19-26)
#   b.mbox: <b@example.org> again (lines 1-8), <c@example.org> 3 s
#           (lines 10-17)
# parse a.mbox b.mbox: 3 time rows (1, 2, 3 s); the two copies are 2 x 7
# lines (header lines 2-5, blank, real/user/sys: 8 - the From_ line; the
# blank line before the next From_ is the separator's), 14 duplicate
# lines, and the separators stay "mbox separator".
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
msg() { # id subject seconds
    printf 'From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: user@example.org\nSubject: %s\nMessage-ID: <%s>\n\nreal\t0m%s.000s\nuser\t0m0.000s\nsys\t0m0.100s\n\n' "$2" "$1" "$3"
}
{ msg a@example.org "[PATCH] loop: one" 1; msg b@example.org "[PATCH] loop: two" 2
  msg a@example.org "[other-list] [PATCH] loop: one" 1; } > "$tmp/a.mbox"
{ msg b@example.org "[PATCH] loop: two" 2; msg c@example.org "[PATCH] loop: three" 3; } > "$tmp/b.mbox"
cd "$tmp"
fail=0
"$BENCHLOG" parse -o out a.mbox b.mbox 2> err
got=$(python3 -c '
import csv
print(" ".join(r["elapsed_s"] for r in csv.DictReader(open("out/time.csv"))))')
[ "$got" = "1 2 3" ] || { echo "time rows: got [$got], want [1 2 3]"; fail=1; }
grep -q '^  skipped  *14  duplicate message$' err || { echo "want 14 duplicate lines:"; cat err; fail=1; }
# report: skipped.csv says where the first copy is (report parses each
# input apart, so only copies within one input are found there)
"$BENCHLOG" report -q -j 1 -o rep a.mbox 2> err || { cat err; fail=1; }
grep -q 'duplicate of the message at a.mbox:2' rep/skipped.csv ||
    { echo "skipped.csv does not name a.mbox:2"; grep -i dupl rep/skipped.csv | head; fail=1; }
exit $fail
