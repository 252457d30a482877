#!/bin/sh
# `parse` without -t and -o (issue 29): the one table that has rows goes to
# stdout; several tables with rows are a usage error naming them; none
# gives "no records found", exit 1 and nothing on stdout.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$TOP/fixtures/vmstat"
# a vmstat-only file: exactly its golden vmstat table
"$BENCHLOG" parse -q l-3x-wa.txt > "$tmp/out"
cmp "$tmp/out" l-3x-wa.vmstat.csv || { echo "vmstat-only file: not its vmstat table"; exit 1; }
# seed 000: averages, vmstat and events have rows
cd "$TOP/fixtures/seeds"
rc=0
"$BENCHLOG" parse -q 000_a7bf8587c1dba76c.txt > "$tmp/out" 2> "$tmp/err" || rc=$?
[ "$rc" = 2 ] || { echo "several tables: exit $rc, want 2"; exit 1; }
[ ! -s "$tmp/out" ] || { echo "several tables: stdout not empty"; exit 1; }
want='benchlog parse: 3 tables have rows (averages, vmstat, events): choose one with -t, or write them all with -o DIR'
[ "$(cat "$tmp/err")" = "$want" ] || { echo "several tables: stderr: $(cat "$tmp/err")"; exit 1; }
# nothing recognised: exit 1, as from every command (docs/errors.md)
rc=0; "$BENCHLOG" parse 003_d72ffeddbca96304.txt > "$tmp/out" 2> "$tmp/err" || rc=$?
[ "$rc" -eq 1 ] || { echo "no records: exit $rc, want 1"; exit 1; }
[ ! -s "$tmp/out" ] || { echo "no records: stdout not empty"; exit 1; }
grep -qx 'benchlog parse: no records found in the input' "$tmp/err" || { echo "no records: $(cat "$tmp/err")"; exit 1; }
exit 0
