#!/bin/sh
# A mail message that holds two groups of a table is its own comparison
# unit: its groups are compared with each other only, and the Findings
# row names that message (report/findings.h F1, docs/statistics.md D18).
# Messages that hold one group are compared across their thread as
# before (tests/e2e/findings-by-thread.sh keeps its beta thread).
#
# fixtures/archives/linux-block-units.mbox: "[PATCH v4] zram: Implement
# multi-page write-back" (2025-11-06) and its author's reply (2025-11-10),
# each with "before modification:" and "after modification:", three
# `time` results a side. Pooled over the thread (the old answer) each
# side had 6 runs and no change was detected. Per message, Welch (D6) in
# R, t.test(after, before), Bonferroni over the family's m = 3 measures:
#   post:  real 16.62 15.38 15.58 -> 1.36 1.36 1.39: 15.86 -> 1.37 s,
#          -91.3619 %, p 0.000697713, p_adj 0.00209314;
#          sys 5.98 5.31 5.49 -> 1.13 1.11 1.16: 5.593333 -> 1.133333 s,
#          -79.7378 %, p 0.0019178, p_adj 0.0057534
#   reply: real 0.624 0.663 0.635 -> 0.340 0.326 0.313: 0.640667 ->
#          0.326333 s, -49.0635 %, p 6.55996e-05, p_adj 0.000196799;
#          sys 0.347 0.354 0.335 -> 0.239 0.230 0.223: 0.345333 ->
#          0.230667 s, -33.2046 %, p 0.000113848, p_adj 0.000341545
# Each row names its own message: the post's Message-Id and date, or the
# reply's.
#
# A thread with both kinds, made here: "delta: results" posts before
# (1, 2, 3 s) and after (4, 5, 6 s) in one message, d1; two replies post
# before (10, 11, 12 s, d2) and after (20, 22, 24 s, d3) one each. By
# hand: d1 alone, before -> after, 2 -> 5 s, +150 %; d2 against d3,
# 11 -> 22 s, +100 %, named by d2, the first message of the thread's
# comparison (d1 is its own).
set -eu
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$BENCHLOG" report -q -o "$tmp/r" "$TOP/fixtures/archives/linux-block-units.mbox"
got=$(python3 - "$tmp/r/findings.csv" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline="")):
    if r["column"] in ("elapsed_s", "sys_s"):
        print("%s|%s|%s|%s|%s|%s|%.6g|%.6g|%.4f|%.6g|%.6g|%s|%s" % (
            r["first_message"], r["column"], r["baseline"], r["candidate"], r["base_n"], r["cand_n"],
            float(r["base_mean"]), float(r["cand_mean"]), float(r["pct_change"]), float(r["p"]),
            float(r["p_adj"]), r["tests"], r["verdict"]))
PY
)
got=$(printf '%s\n' "$got" | sort)
want='6e08b4ebc5455c08@example.org, 2025-11-06|elapsed_s|before modification|after modification|3|3|15.86|1.37|-91.3619|0.000697713|0.00209314|3|faster
6e08b4ebc5455c08@example.org, 2025-11-06|sys_s|before modification|after modification|3|3|5.59333|1.13333|-79.7378|0.0019178|0.0057534|3|faster
7361b7932da92e4c@example.org, 2025-11-10|elapsed_s|before modification|after modification|3|3|0.640667|0.326333|-49.0635|6.55996e-05|0.000196799|3|faster
7361b7932da92e4c@example.org, 2025-11-10|sys_s|before modification|after modification|3|3|0.345333|0.230667|-33.2046|0.000113848|0.000341545|3|faster'
[ "$got" = "$want" ] || fail "$(printf 'zram thread:\ngot:\n%s\nwant:\n%s' "$got" "$want")"
# report.md names the two messages: the rows come from two units of one thread
grep -qF '(7361b7932da92e4c@example.org, 2025-11-10)' "$tmp/r/report.md" ||
    fail "report.md does not name the reply's message"

# a thread with a message unit and a thread unit
msg() {   # id, subject, label, three elapsed seconds
    printf 'From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: user@example.org\nSubject: %s\n' "$2"
    printf 'Date: Mon, 1 Jan 2024 00:00:00 +0000\nMessage-ID: <%s@example.org>\n\nResults.\n\n' "$1"
    shift 2
    while [ $# -gt 0 ]; do
        printf '%s:\n' "$1"
        for s in $2 $3 $4; do printf 'real\t0m%s.000s\nuser\t0m1.000s\nsys\t0m1.000s\n\n' "$s"; done
        shift 4
    done
    printf '\n'
}
{
    msg d1 'delta: results' before 1 2 3 after 4 5 6
    msg d2 'Re: delta: results' before 10 11 12
    msg d3 'Re: delta: results' after 20 22 24
} > "$tmp/delta.mbox"
"$BENCHLOG" report -q -o "$tmp/d" "$tmp/delta.mbox"
got=$(python3 - "$tmp/d/findings.csv" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline="")):
    if r["column"] == "elapsed_s":
        print("%s|%s|%s|%s|%s|%s|%s|%.4f" % (r["thread"], r["first_message"], r["baseline"], r["candidate"],
                                           r["base_mean"], r["cand_mean"], r["base_n"], float(r["pct_change"])))
PY
)
got=$(printf '%s\n' "$got" | sort)
want='thread: delta: results|d1@example.org, 2024-01-01|before|after|2|5|3|150.0000
thread: delta: results|d2@example.org, 2024-01-01|before|after|11|22|3|100.0000'
[ "$got" = "$want" ] || fail "$(printf 'delta thread:\ngot:\n%s\nwant:\n%s' "$got" "$want")"

# The hold's bound (TS_HOLD_MAX, TS_HOLD_BYTES in analyze/table_stats.c):
# a message's records of a table are held until it shows a second group,
# at most 4,096 records and 1 MiB; past either, those held go to the
# thread, and so do the message's later records of the table. A `time`
# record held takes about 960 bytes: 1 MiB is reached at about 1,100.
# e1 and z1 each post "before:" 2,000 runs (real 10, 10.5, 11, 11.5,
# 12 s, 400 times each; z1 20 s more) and "after:" three (20 22 24 s;
# z1 40 42 44 s); z2 replies to z1 with "after:" 41 43 45 s. e1, alone in
# its thread, is compared in full as its own unit would be; z1 went to
# its thread, so z2's runs join its "after" (D18). R, t.test(after,
# before), m = 3 (user and sys are equal, p 1):
#   e1: 11 -> 22 s, +100 %, p 0.0108292716, p_adj 0.0324878149
#   z1 + z2: 31 -> 42.5 s (6 runs), +37.0967742 %, p 2.32771819e-05,
#   p_adj 6.98315457e-05
# Without the bound, z1 would be its own unit: 31 -> 42 s, 3 runs.
long() {   # id, subject, runs before, their base, the runs after
    printf 'From mboxrd@z Thu Jan  1 00:00:00 1970\nFrom: user@example.org\nSubject: %s\n' "$2"
    printf 'Date: Mon, 1 Jan 2024 00:00:00 +0000\nMessage-ID: <%s@example.org>\n\n' "$1"
    [ "$3" = 0 ] || printf 'before:\n'
    awk -v n="$3" -v b="$4" 'BEGIN { for (i = 0; i < n; i++) printf "real\t0m%.1fs\nuser\t0m1.0s\nsys\t0m1.0s\n\n", b + i % 5 * 0.5 }'
    printf 'after:\n'
    shift 4
    for s in "$@"; do printf 'real\t0m%s.0s\nuser\t0m1.0s\nsys\t0m1.0s\n\n' "$s"; done
}
{
    long e1 'epsilon: results' 2000 10 20 22 24
    long z1 'zeta: results' 2000 30 40 42 44
    long z2 'Re: zeta: results' 0 0 41 43 45
} > "$tmp/hold.mbox"
"$BENCHLOG" report -q -o "$tmp/h" "$tmp/hold.mbox"
got=$(python3 - "$tmp/h/findings.csv" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline="")):
    if r["column"] == "elapsed_s":
        print("%s|%s|%s|%s|%s|%.9g|%.9g|%.9g|%.9g|%.9g|%s|%s" % (
            r["first_message"], r["baseline"], r["candidate"], r["base_n"], r["cand_n"], float(r["base_mean"]),
            float(r["cand_mean"]), float(r["pct_change"]), float(r["p"]), float(r["p_adj"]), r["tests"], r["verdict"]))
PY
)
got=$(printf '%s\n' "$got" | sort)
want='e1@example.org, 2024-01-01|before|after|2000|3|11|22|100|0.0108292716|0.0324878149|3|slower
z1@example.org, 2024-01-01|before|after|2000|6|31|42.5|37.0967742|2.32771819e-05|6.98315457e-05|3|slower'
[ "$got" = "$want" ] || fail "$(printf 'past the hold bound:\ngot:\n%s\nwant:\n%s' "$got" "$want")"
exit 0
