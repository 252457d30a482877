#!/bin/sh
# `parse -o DIR` run again into the same folder: a table that has no rows
# this time, but whose file is there from the earlier run, is rewritten
# with its header only, so no table file in DIR holds rows of an earlier
# run; with -t only that table is concerned; a failed (--strict) run
# leaves the folder as it was; files that are not benchlog tables stay.
# Expected values by hand from the inputs written here (mtest01 2001
# lines, one contest-free and vmstat-free input).
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
printf 'PASS ... 100 bytes allocated.\n' > mt.txt
cat > vm.txt <<'VM'
procs memory swap io system cpu
r b w swpd free buff cache si so bi bo in cs us sy id
0 0 0 10 20 30 40 0 0 0 0 100 200 1 2 97
VM
"$BENCHLOG" parse -q -o out mt.txt vm.txt
[ "$(wc -l < out/mtest01.csv)" -eq 2 ] || { echo "first run: mtest01.csv"; exit 1; }
[ "$(wc -l < out/vmstat.csv)" -eq 2 ] || { echo "first run: vmstat.csv"; exit 1; }
echo keep > out/notes.txt
header=$(head -1 out/vmstat.csv)

# -t mtest01: vmstat.csv is not this run's concern and stays as it was
"$BENCHLOG" parse -q -t mtest01 -o out mt.txt
[ "$(wc -l < out/vmstat.csv)" -eq 2 ] || { echo "-t mtest01 touched vmstat.csv"; exit 1; }

# a failed strict run changes nothing
printf 'PASS ... 100 bytes allocated.\n\tUser time (seconds): x\n' > bad.txt
if "$BENCHLOG" parse -q --strict -o out bad.txt 2>/dev/null; then echo "strict run succeeded"; exit 1; fi
[ "$(wc -l < out/vmstat.csv)" -eq 2 ] || { echo "failed run touched vmstat.csv"; exit 1; }

# mtest01 only: vmstat.csv keeps its header and loses the old row
"$BENCHLOG" parse -q -o out mt.txt
[ "$(cat out/vmstat.csv)" = "$header" ] || { echo "stale vmstat.csv: $(cat out/vmstat.csv)"; exit 1; }
[ "$(wc -l < out/mtest01.csv)" -eq 2 ] || { echo "mtest01.csv"; exit 1; }
[ "$(cat out/notes.txt)" = keep ] || { echo "notes.txt touched"; exit 1; }
# no table appears that was never there
[ ! -e out/contest.csv ] || { echo "contest.csv created"; exit 1; }
[ -z "$(ls -A out | grep '^\.')" ] || { echo "temporary files left: $(ls -A out)"; exit 1; }
