#!/bin/sh
# Results mailed again are counted once (core/block.h B6), on real
# messages of the linux-block archive (fixtures/archives/README.md).
# Expected values by hand, from reading the messages:
# - linux-block-repost.mbox: "[PATCH blktests v2 0/9] nvme testsuite
#   runtime optimization" and, the next morning, "[PATCH REPOST blktests
#   v2 0/9]" with the same body byte for byte (lines 12-139 and 151-278).
#   Each posts eight `real/user/sys` results, one under each of the
#   headings loop, rdma, tcp, fc, under each of two settings lines
#   (the `real` lines 24 29 34 39 46 51 56 61, and 163 168 173 178 185
#   190 195 200): every block is one record, which a block is never
#   compared as (B3). The REPOST's eight are copies of the first
#   message, copy_of = its first record's line:
#   linux-block-repost.mbox:24. The thread's Findings then see each
#   transport (by) under each settings line once: 1 run a side, not 2.
# - linux-block-verify.mbox.gz: the REQ_OP_VERIFY RFC cover letter (two
#   results, `real` on lines 104 and 110), its V2 (the same two, lines
#   1230 and 1236, then two new ones of its own in a test log, lines 1497
#   and 1608: real 0m0.362s and 0m0.364s), and an LSF/MM topic mail whose
#   base64 body (encoded lines 1706-1747, 57 bytes each) posts the two
#   again: the decoded `real` lines start at bytes 1742 and 1844 of the
#   text, on encoded lines 1706 + 1742 / 57 = 1736 and 1706 + 1844 / 57
#   = 1738. V2's first two and the topic's two are copies of the RFC
#   (copy_of = linux-block-verify.mbox.gz:104); V2's own two are not.
# - No false copies: two mails that print the same numbers must stay
#   apart: the same three mtest01 results; the same two `time -v`
#   blocks, alike (11 different measured values, but every record the
#   same: a program that prints the same each run); two `real/user/sys`
#   results with 3 different values only (0.002/0.008 s).
set -eu
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx="$TOP/fixtures/archives"
fail() { echo "FAIL: $*"; exit 1; }

(cd "$fx" && "$BENCHLOG" parse -q -t time linux-block-repost.mbox linux-block-verify.mbox.gz) > "$tmp/t.csv"
python3 - "$tmp/t.csv" <<'PY'
import csv, sys
r = [(x["source"], int(x["line"]), x["copy_of"]) for x in csv.DictReader(open(sys.argv[1], newline=""))]
R, V = "linux-block-repost.mbox", "linux-block-verify.mbox.gz"
want = [(R, n, "") for n in (24, 29, 34, 39, 46, 51, 56, 61)]
want += [(R, n, R + ":24") for n in (163, 168, 173, 178, 185, 190, 195, 200)]
want += [(V, 104, ""), (V, 110, ""), (V, 1230, V + ":104"), (V, 1236, V + ":104"),
         (V, 1497, ""), (V, 1608, ""), (V, 1736, V + ":104"), (V, 1738, V + ":104")]
assert r == want, "\n".join(f"{g} want {w}" for g, w in zip(r, want) if g != w) or (len(r), len(want))
PY

# the report counts them, and its Findings see each result once
"$BENCHLOG" report -q -o "$tmp/r" "$fx/linux-block-repost.mbox" 2> /dev/null || [ $? -eq 1 ]
grep -q '^\*\*8 records in 1 block copy earlier ones\*\*' "$tmp/r/report.md" ||
    fail "inputs section: $(grep -i 'cop' "$tmp/r/report.md" | head -3)"
python3 - "$tmp/r/findings.csv" <<'PY'
import csv, sys
rows = [x for x in csv.DictReader(open(sys.argv[1], newline="")) if x["table"] == "time"]
runs = {}
for x in rows:
    for side, n in ((x["baseline"], x["base_n"]), (x["candidate"], x["cand_n"])):
        runs.setdefault((side, x["by"]), set()).add(n)
assert runs and all(v == {"1"} for v in runs.values()), runs
PY

# no false copies
msg() {   # msg ID: a mail whose body is standard input
    printf 'From user@example.org Mon Nov  3 10:00:00 2025\nFrom: user@example.org\n'
    printf 'Subject: results %s\nMessage-ID: <%s@example.org>\nDate: Mon, 3 Nov 2025 10:00:00 +0000\n\n' "$1" "$1"
    cat
    echo
}
mt() { printf 'PASS ... 1048576 bytes allocated.\nPASS ... 1048576 bytes allocated.\nPASS ... 1048576 bytes allocated.\n'; }
gnuv() {
    printf '$ /usr/bin/time -v sleep 1\n'
    printf '\tCommand being timed: "sleep 1"\n\tUser time (seconds): 0.01\n\tSystem time (seconds): 0.02\n'
    printf '\tPercent of CPU this job got: 3%%\n\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:01.00\n'
    printf '\tMaximum resident set size (kbytes): 1664\n\tMajor (requiring I/O) page faults: 0\n'
    printf '\tMinor (reclaiming a frame) page faults: 74\n\tVoluntary context switches: 2\n'
    printf '\tInvoluntary context switches: 1\n\tFile system outputs: 8\n\tSocket messages sent: 5\n'
    printf '\tExit status: 0\n'
}
rus() { printf 'before\nreal\t0m0.002s\nuser\t0m0.000s\nsys\t0m0.002s\n\nafter\nreal\t0m0.008s\nuser\t0m0.000s\nsys\t0m0.002s\n'; }
{ mt | msg m1; mt | msg m2; { gnuv; gnuv; } | msg v1; { gnuv; gnuv; } | msg v2; rus | msg b1; rus | msg b2; } > "$tmp/n.mbox"
(cd "$tmp" && "$BENCHLOG" parse -q -o p n.mbox)
python3 - "$tmp/p" <<'PY'
import csv, sys
for t, n in (("mtest01", 6), ("time", 8)):
    r = list(csv.DictReader(open(sys.argv[1] + "/" + t + ".csv", newline="")))
    assert len(r) == n and not [x for x in r if x["copy_of"]], (t, [(x["line"], x["copy_of"]) for x in r])
PY
echo "archive-repost: ok"
