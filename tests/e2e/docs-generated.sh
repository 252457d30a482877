#!/bin/sh
# What `make docs` makes is up to date (issue 36 item 6): docs/csv.md,
# docs/schema.sql and the man pages' format and table lists equal what
# the table definitions and the parser registry give now, so adding a
# format cannot leave one of them stale.
set -eu
command -v scdoc >/dev/null || exit 77
fail=0
for g in gen-csv-doc gen-schema-sql gen-man-lists; do
    BENCHLOG="$BENCHLOG" sh "$TOP/scripts/$g" --check || { echo "$g: stale; run make docs"; fail=1; }
done
exit $fail
