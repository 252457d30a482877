#!/bin/sh
# Whole numbers (docs/formats.md, "Numbers"): benchlog reads none of more
# than 15 digits, and no output shows one of 15 digits or fewer other than
# as the log wrote it. The fixtures whole-numbers.txt of vmstat, time,
# mtest01, contest and latency hold values of 16 and 17 digits (and
# 2^53 + 1), which make no value; their goldens check the tables and the
# warnings. Here every other output of the same input: each CSV of
# `report` and findings.csv, report.sqlite, TSV and JSON Lines, `stats`
# and `summary`. Expected values by hand: 976562499999 MiB x 1024 =
# 999999999998976 KiB (bytes for kbytes); the kept histogram counts
# 999999999999990 + 9 = 999999999999999.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
F=$TOP/fixtures
in="$F/vmstat/whole-numbers.txt $F/time/whole-numbers.txt $F/mtest01/whole-numbers.txt"
in="$in $F/contest/whole-numbers.txt $F/latency/whole-numbers.txt"
fail() { echo "$*"; exit 1; }

# shellcheck disable=SC2086
"$BENCHLOG" report -q -o "$tmp/rep" $in 2>"$tmp/err" || fail "report: exit $?"
# no number of 16 digits or more, nor one written 1e+15 .. 9.9e+19, in a
# table a user reads (skipped.csv holds the skipped lines' own text)
bad=$(find "$tmp/rep" -name '*.csv' ! -name skipped.csv -exec grep -HnoE \
    '(^|[^0-9.])([0-9]{16,}|[0-9](\.[0-9]+)?e\+1[5-9])' {} + || true)
[ -z "$bad" ] || fail "a number past 15 digits: $bad"

q() { sqlite3 "$tmp/rep/report.sqlite" "$1" | tr '\n' ' '; }
got=$(q "select cast(free as integer) from vmstat order by line")
[ "$got" = "999999999999999 10 999999999998976 " ] || fail "sqlite vmstat.free: $got"
got=$(q "select max_rss_kib, minor_faults is null, voluntary_cs is null from time where line = 1")
[ "$got" = "999999999999999|1|1 " ] || fail "sqlite time: $got"
got=$(q "select ifnull(bytes_allocated, '-') from mtest01 order by line")
[ "$got" = "999999999998976 - 999999999999999 " ] || fail "sqlite mtest01: $got"
got=$(q "select major_faults from contest")
[ "$got" = "999999999999999 " ] || fail "sqlite contest: $got"
got=$(q "select binned, total, footer_total from latency_series")
[ "$got" = "999999999999999|999999999999999|999999999999999 " ] || fail "sqlite latency_series: $got"

for f in tsv jsonl; do
    "$BENCHLOG" parse -q -t vmstat -f "$f" "$F/vmstat/whole-numbers.txt" > "$tmp/v.$f" 2>/dev/null
    got=$(python3 - "$f" "$tmp/v.$f" <<'PY'
import csv, json, sys
f, path = sys.argv[1], sys.argv[2]
with open(path, newline="") as fh:
    if f == "jsonl":
        rows = [{k: json.dumps(v) for k, v in json.loads(l).items()} for l in fh]
    else:
        rows = list(csv.DictReader(fh, delimiter="\t"))
print(" ".join(r["free"] + "/" + r["in"] for r in rows))
PY
)
    [ "$got" = "999999999999999/1000 10/123456789012345 999999999998976/1000" ] || fail "-f $f: $got"
done

# stats' text table: min, p50 and max are input values, in full
"$BENCHLOG" stats -q --since-boot keep -c free,in "$F/vmstat/whole-numbers.txt" > "$tmp/stats" 2>/dev/null
grep -Eq '^whole-numbers +free +3 .* 10 +999999999998976 +- +- +- +999999999999999 +exact$' "$tmp/stats" ||
    fail "stats free: $(cat "$tmp/stats")"
grep -Eq '^whole-numbers +in +3 .* 1000 +1000 +- +- +- +123456789012345 +exact$' "$tmp/stats" ||
    fail "stats in: $(cat "$tmp/stats")"
"$BENCHLOG" summary "$F/latency/whole-numbers.txt" > "$tmp/sum" 2>/dev/null
grep -q '^  samples    999999999999999 in 2 non-empty buckets$' "$tmp/sum" || fail "summary: $(cat "$tmp/sum")"
exit 0
