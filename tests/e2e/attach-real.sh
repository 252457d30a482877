#!/bin/sh
# Attachments read as text (input/mail.c R5; issue 29), on a real post:
# fixtures/attach/octet-text-real.eml, a linux-block reply of 2022-10-11
# ("Re: again? - Write I/O queue hangup at random on recent Linus'
# kernels", addresses replaced) with a dmesg log attached as text/x-log and
# the output of a debugfs walk attached as application/octet-stream, both
# base64. Neither holds a benchmark, so the check is the accounting: every
# raw line of both attachments' bodies is read as text (skipped.csv gives
# them text reasons: no format recognised, blank line, encoded line) and
# none is a "non-text part". The bodies' line ranges and their decoded
# content come from Python's email package, not from benchlog; the R5 test
# of text (no NUL, a line end, at most 1 byte in 50 of the first 64 KiB
# another control character) is made on that decoded content. For
# contrast, the gzip attachment of fixtures/attach/octet-vmstat.eml is a
# "non-text part" over its whole body.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx="$TOP/fixtures/attach"
fail=0
check() {   # check EML CONTENT-TYPE NAME WANT(text|binary)
    "$BENCHLOG" report -q -o "$tmp/rep" "$1" >/dev/null 2>&1 || true
    python3 - "$1" "$2" "$3" "$4" "$tmp/rep/skipped.csv" <<'PY' || fail=1
import csv, email, sys
from email import policy
eml, ctype, name, want, skipped = sys.argv[1:]
raw = open(eml, "rb").read().split(b"\n")
msg = email.message_from_bytes(b"\n".join(raw), policy=policy.default)
part = next(p for p in msg.walk() if p.get_content_type() == ctype and p.get_param("name") == name)
data = part.get_payload(decode=True)
head = data[:65536]
ctrl = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13, 27))
is_text = b"\0" not in data and b"\n" in data and ctrl * 50 <= len(head)
if is_text != (want == "text"):
    sys.exit("%s: %s is %s by R5's rule, the test expects %s" % (eml, ctype, is_text, want))
# the part's body: from the line after the blank line that ends its headers
# to the line before the next boundary (file lines, from 1)
first = next(i for i, l in enumerate(raw) if l.startswith(b"Content-Type: " + ctype.encode())
             and name.encode() in l)
while raw[first].strip():
    first += 1
first += 2                      # 1-based, after the blank line
last = next(i for i in range(first, len(raw)) if raw[i].startswith(b"--")) # 0-based boundary = 1-based last
body = set(range(first, last + 1))
seen, bad = set(), []
for r in csv.DictReader(open(skipped, newline="")):
    a, b = int(r["first_line"]), int(r["last_line"])
    lines = set(range(a, b + 1)) & body
    if not lines:
        continue
    seen |= lines
    if r["reason"].startswith("no record: "):
        # a message that gave no record is one row per range (issue 35
        # item 3): its reasons with their counts, not which line had
        # which; a text part's lines are never "non-text part" lines, and
        # a non-text part's body, beyond its first line (the blank line
        # that may join the header run), makes some
        names = [x.rsplit(" ", 1)[0] for x in r["reason"][len("no record: "):].split("; ")]
        if (want == "text" and "non-text part" in names) or \
           (want != "text" and len(lines) > 1 and "non-text part" not in names):
            bad.append("%d-%d %s" % (a, b, r["reason"]))
        continue
    textual = r["reason"] in ("no format recognised", "blank line",
                              "encoded line (decoded text has fewer lines)")
    if (want == "text") != textual:
        bad.append("%d-%d %s" % (a, b, r["reason"]))
if bad:
    sys.exit("%s: %s lines %d-%d: rows with the wrong reason: %s" % (eml, ctype, first, last, bad[:3]))
if want == "text" and seen != body:
    sys.exit("%s: %s: %d of its %d body lines are not in skipped.csv"
             % (eml, ctype, len(body - seen), len(body)))
if want == "binary" and seen != body:
    sys.exit("%s: %s: the non-text part's %d lines are not all accounted" % (eml, ctype, len(body)))
print("%s: %s, lines %d-%d (%d decoded lines): %s" % (eml.split("/")[-1], ctype, first, last,
      data.count(b"\n"), "read as text" if want == "text" else "non-text part"))
PY
    rm -rf "$tmp/rep"
}
check "$fx/octet-text-real.eml" application/octet-stream command.logs text
check "$fx/octet-text-real.eml" text/x-log dmesg-20221011.log text
check "$fx/octet-vmstat.eml" application/octet-stream dump.gz binary
exit $fail
