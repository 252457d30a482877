#!/bin/sh
# `parse -f sqlite`: typed columns, NULL for empty fields, units, sources,
# group indexes; the same numbers as the CSV files, read back with
# Python's csv module; docs/schema.sql up to date and making sqlite3's
# `.import --csv` typed; `report` writes report.sqlite (issue 29).
set -eu
command -v sqlite3 >/dev/null || { echo "sqlite3 missing (scripts/install-deps)"; exit 1; }
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
BENCHLOG="$BENCHLOG" sh "$TOP/scripts/gen-schema-sql" --check

cd "$TOP/fixtures"
set -- seeds/000_a7bf8587c1dba76c.txt seeds/001_07df0cd7d9b0f35d.txt seeds/003_d72ffeddbca96304.txt \
    time/17-timev-partial-ranges-igenvar.txt
"$BENCHLOG" parse -q -f sqlite -o "$tmp/db" "$@"
"$BENCHLOG" parse -q -o "$tmp/csv" "$@"
db="$tmp/db/benchlog.sqlite"
q() { sqlite3 -batch -noheader "$db" "$1"; }
fail() { echo "FAIL: $*"; exit 1; }

[ "$(q "select distinct typeof(time_s) from contest")" = real ] || fail "contest.time_s not real"
[ "$(q "select distinct typeof(major_faults) from contest")" = integer ] || fail "contest.major_faults not integer"
[ "$(q "select distinct typeof(layout) from vmstat")" = text ] || fail "vmstat.layout not text"
# seed 003 gives no record, so 3 sources
# empty CSV fields are NULL: seed 000 (procps 2.x) has no wa column, no mail
[ "$(q "select count(*) from vmstat where wa is not null")" = 0 ] || fail "vmstat.wa not NULL"
[ "$(q "select count(*) from vmstat where message_id is not null or run is not null")" = 0 ] ||
    fail "empty provenance not NULL"
[ "$(q "select count(*) from time where elapsed_s = ''")" = 0 ] || fail "'' stored for an empty field"
[ "$(q "select unit from units where \"table\" = 'time' and \"column\" = 'elapsed_s'")" = s ] || fail "units"
[ "$(q "select unit from units where \"table\" = 'vmstat' and \"column\" = 'free'")" = KiB ] || fail "units"
[ "$(q "select count(*) from sources")" = 3 ] || fail "sources: $(q "select * from sources")"
[ "$(q "select count(*) from sqlite_master where type = 'index' and name = 'contest_group'")" = 1 ] ||
    fail "no index on contest(group)"
# the real post of time 17 alone: avg 8846.67 s over the 6 single values
# (LOG.md: longest 14952 s), not the text order's 4825 / '7902'
"$BENCHLOG" parse -q -f sqlite -o "$tmp/db17" time/17-timev-partial-ranges-igenvar.txt
[ "$(sqlite3 -batch "$tmp/db17/benchlog.sqlite" "select round(avg(elapsed_s), 2), max(elapsed_s) from time")" = \
  "8846.67|14952.0" ] || fail "time 17: $(sqlite3 "$tmp/db17/benchlog.sqlite" "select avg(elapsed_s), max(elapsed_s) from time")"

# avg, max and count equal the CSV's, computed with Python's csv module
for tc in time:elapsed_s contest:time_s contest:major_faults vmstat:free vmstat:cs latency:count; do
    t=${tc%%:*}; c=${tc#*:}
    sqlite3 -batch -noheader "$db" "select printf('%.17g', avg(\"$c\")), printf('%.17g', max(\"$c\")), count(\"$c\"), count(*) from \"$t\"" > "$tmp/sq"
    python3 - "$tmp/csv/$t.csv" "$c" "$tmp/sq" <<'PY' || fail "$tc differs from the CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="", encoding="utf-8")))
vals = [float(r[sys.argv[2]]) for r in rows if r[sys.argv[2]] != ""]
avg, mx, n, total = open(sys.argv[3]).read().strip().split("|")
ok = (int(n) == len(vals) and int(total) == len(rows) and
      abs(float(avg) - sum(vals) / len(vals)) <= 1e-9 * abs(sum(vals) / len(vals)) and
      float(mx) == max(vals))
if not ok:
    print(sys.argv[1], sys.argv[2], "csv:", sum(vals) / len(vals), max(vals), len(vals), len(rows),
          "sqlite:", avg, mx, n, total)
sys.exit(0 if ok else 1)
PY
done

# docs/schema.sql makes `.import --csv` typed, empty fields NULL
sqlite3 -batch "$tmp/imp.sqlite" < "$TOP/docs/schema.sql"
sqlite3 -batch "$tmp/imp.sqlite" ".import --csv --skip 1 $tmp/csv/time.csv time"
[ "$(sqlite3 -batch "$tmp/imp.sqlite" "select distinct typeof(elapsed_s) from time where elapsed_s is not null")" = real ] ||
    fail ".import: elapsed_s not real"
[ "$(sqlite3 -batch "$tmp/imp.sqlite" "select max(elapsed_s), count(elapsed_s) from time")" = \
  "$(q "select max(elapsed_s), count(elapsed_s) from time")" ] || fail ".import: max/count differ"

# report writes report.sqlite beside csv/
"$BENCHLOG" report -q -o "$tmp/rep" seeds/001_07df0cd7d9b0f35d.txt >/dev/null 2>&1 || true
[ "$(sqlite3 -batch "$tmp/rep/report.sqlite" "select count(*) from contest")" = 48 ] || fail "report.sqlite"
# -f sqlite needs a folder
if "$BENCHLOG" parse -f sqlite seeds/001_07df0cd7d9b0f35d.txt >/dev/null 2>&1; then fail "-f sqlite without -o"; fi
exit 0
