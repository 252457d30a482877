#!/bin/sh
# A failed run's time is not a measurement (docs/statistics.md D3c): its
# row stays in the time table with its status; summary's averages,
# stats and the report's Findings leave it out, and each says how many.
# fixtures/time/15-time-blog-bash-p-default-v-cn.txt (a real tutorial):
# line 66 says "-bash: -f: command not found", then a blank line, then
# bash's block at line 68 (real 0m0.024s): `time -f ...` ran `-f`. The
# file's other runs without a command (bash, -p and GNU's default
# format, read off the file by hand) are elapsed 5.064 14.837 0.230 0.15
# 0.12 0.081 0.068 0.068 0.083, user .02 .03 .04 .04 .03 .06 .04 .03
# .04, sys .04 .12 .03 .03 .04 .02 .03 .04 .02: python3 gives 9 runs,
# means 2.300, 0.037, 0.041 (chkmmt's %.3f), elapsed sd 4.97844.
# Before, the failed block was a tenth run (2.073, 0.033, 0.037).
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
in="$TOP/fixtures/time/15-time-blog-bash-p-default-v-cn.txt"
"$BENCHLOG" parse -q -t time "$in" > "$tmp/t.csv"
python3 - "$tmp/t.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
st = {r["line"]: r["status"] for r in rows}
assert st.get("68") == "not-found", st
assert [l for l, s in st.items() if s] == ["68"], st
PY
"$BENCHLOG" summary -q "$in" > "$tmp/s.txt"
grep -q '^Averages for 9 timed runs$' "$tmp/s.txt" &&
	grep -q '^User time (seconds): 0.037$' "$tmp/s.txt" &&
	grep -q '^System time (seconds): 0.041$' "$tmp/s.txt" &&
	grep -q '^Elapsed (wall clock) time: 2.300$' "$tmp/s.txt" &&
	grep -Eq '^elapsed_s +9 +2\.30011 +4\.97844 +0\.068 +14\.837$' "$tmp/s.txt" &&
	grep -q '^note: 1 failed run left out, whose status or exit_status says the command failed' "$tmp/s.txt" ||
	{ cat "$tmp/s.txt"; echo "summary: want 9 timed runs without the failed one, and a note"; exit 1; }
"$BENCHLOG" stats -t time -c elapsed_s "$in" > "$tmp/st.txt" 2> "$tmp/st.err"
grep -Eq '^15-time-blog-bash-p-default-v-cn +- +elapsed_s +9 +2\.30011 ' "$tmp/st.txt" &&
	grep -q '^benchlog stats: 1 failed run left out' "$tmp/st.err" ||
	{ cat "$tmp/st.txt" "$tmp/st.err"; echo "stats: want n 9 and a note"; exit 1; }
# read back from the table: the same rule by the status column
"$BENCHLOG" stats -q -f csv -t time -c elapsed_s "$tmp/t.csv" > "$tmp/st.csv"
grep -q '^time,15-time-blog-bash-p-default-v-cn,,elapsed_s,9,2.30011111111,' "$tmp/st.csv" ||
	{ cat "$tmp/st.csv"; echo "stats of the CSV: want n 9"; exit 1; }
# GNU time's status line and Exit status (fixtures/time/gnu-v-values.txt:
# "Command exited with non-zero status 3", "Exit status: 3")
"$BENCHLOG" summary -q "$TOP/fixtures/time/gnu-v-values.txt" > "$tmp/g.txt"
grep -q '^note: 1 failed run left out' "$tmp/g.txt" ||
	{ cat "$tmp/g.txt"; echo "summary: the exit-status-3 block should be left out"; exit 1; }
"$BENCHLOG" report -q -o "$tmp/rep" "$in"
grep -q '^\*\*1 timed run of a failed command\*\*' "$tmp/rep/report.md" ||
	{ grep -n failed "$tmp/rep/report.md"; echo "report: want the count of failed runs"; exit 1; }
# Made by hand: a not-found line with output after it is not the timed
# command's (line 4 keeps no status); zsh's form right before its line,
# and bash's with two blank lines before the block, are (lines 8, 12).
printf 'bash: x: command not found\nsome output\n\nreal\t0m0.100s\nuser\t0m0.000s\nsys\t0m0.000s\nzsh: command not found: foo\nfoo  0.00s user 0.00s system 0%% cpu 0.001 total\n-bash: y: command not found\n\n\nreal\t0m0.002s\nuser\t0m0.000s\nsys\t0m0.000s\n' > "$tmp/nf.txt"
"$BENCHLOG" parse -q -t time "$tmp/nf.txt" | cut -d, -f2,13 > "$tmp/nf.csv"
printf 'line,status\n4,\n8,not-found\n12,not-found\n' | cmp -s - "$tmp/nf.csv" ||
	{ cat "$tmp/nf.csv"; echo "parse: not-found only right before a block"; exit 1; }
# A shell's line for a command killed by a signal, printed before
# `time`'s output (bash's jobs.c and strsignal(), zsh's Src/jobs.c
# printjob()). A real post (fixtures/vmstat/vmstat-before-header-mmap002.eml,
# linux-mm 2000): bash's "Killed" on lines 96 and 101 above two of its six
# blocks. Its golden time table holds the status; summary averages the
# other four runs, by hand: user (16.29 + 16.06 + 15.77 + 16.08) / 4 =
# 16.050, sys (100.42 + 322.01 + 8.17 + 11.14) / 4 = 110.435; and the
# group stays the subject, not "Killed".
"$BENCHLOG" summary -q "$TOP/fixtures/vmstat/vmstat-before-header-mmap002.eml" > "$tmp/k.txt"
grep -q '^Averages for 4 timed runs$' "$tmp/k.txt" &&
	grep -q '^User time (seconds): 16.050$' "$tmp/k.txt" &&
	grep -q '^System time (seconds): 110.435$' "$tmp/k.txt" &&
	grep -q '^note: 2 failed runs left out' "$tmp/k.txt" &&
	! grep -q '^Killed$' "$tmp/k.txt" ||
	{ cat "$tmp/k.txt"; echo "summary: the two killed runs left out, no group Killed"; exit 1; }
# Made by hand from the shells' sources: bash 5.3 (the command after the
# padded text), bash in a script (NAME: line N: PID), zsh (killed 9,
# segmentation fault 11), bash before 5.3 (Aborted 6, after a blank
# line), Bus error 7 and Illegal instruction 4 in both; not a shell's
# line: one blank in "Killed by", prose between, zsh's text without the job.
printf '%s\n' 'Killed                     ./mmap002' '' 'real	0m1.000s' 'user	0m0.000s' 'sys	0m0.000s' \
	'./run.sh: line 3: 31337 Segmentation fault      (core dumped) ./a.out' '' 'real	0m2.000s' 'user	0m0.000s' 'sys	0m0.000s' \
	'zsh: killed     ./mmap002' './mmap002  0.00s user 0.00s system 0% cpu 3.000 total' \
	'zsh: segmentation fault (core dumped)  ./a.out' './a.out  0.00s user 0.00s system 0% cpu 4.000 total' \
	'Aborted (core dumped)' '' 'real 0.15' 'user 0.00' 'sys 0.00' \
	'Killed by the OOM killer' 'real	0m5.000s' 'user	0m0.000s' 'sys	0m0.000s' \
	'Terminated' 'it was stopped' 'real	0m6.000s' 'user	0m0.000s' 'sys	0m0.000s' \
	'zsh: killed' './x  0.00s user 0.00s system 0% cpu 7.000 total' \
	'Bus error (core dumped)' 'real	0m8.000s' 'user	0m0.000s' 'sys	0m0.000s' \
	'Illegal instruction        ./a.out' 'real	0m9.000s' 'user	0m0.000s' 'sys	0m0.000s' \
	'zsh: bus error  ./a.out' './a.out  0.00s user 0.00s system 0% cpu 10.000 total' \
	'zsh: illegal hardware instruction (core dumped)  ./a.out' './a.out  0.00s user 0.00s system 0% cpu 11.000 total' > "$tmp/kill.txt"
"$BENCHLOG" parse -q -t time "$tmp/kill.txt" | cut -d, -f2,7,13,14 > "$tmp/kill.csv"
printf 'line,group,status,status_code\n3,kill,signal,9\n8,kill,signal,11\n12,kill,signal,9\n14,kill,signal,11\n17,kill,signal,6\n21,kill,,\n26,kill,,\n30,kill,,\n32,kill,signal,7\n36,kill,signal,4\n40,kill,signal,7\n42,kill,signal,4\n' |
	cmp -s - "$tmp/kill.csv" || { cat "$tmp/kill.csv"; echo "parse: a shell's signal line right before a block"; exit 1; }
# An mtest01 group whose second run's time -v block failed ("Command
# exited with non-zero status 1", made by hand): chkmmt divides the time
# sums by the mtest01 runs, 3, less the failed one: user (2.00 + 2.40) / 2
# = 2.200, sys (3.00 + 3.40) / 2 = 3.200, elapsed (60 + 64) / 2 = 62.000;
# bytes stay over all 3 runs. No "3 mtest01 results but 2 time blocks"
# note: the third block is there, left out.
blk() { printf 'PASS ... 1244659712 bytes allocated.\n%s\tCommand being timed: "mtest01 -p80 -w"\n\tUser time (seconds): %s\n\tSystem time (seconds): %s\n\tPercent of CPU this job got: 8%%\n\tElapsed (wall clock) time (h:mm:ss or m:ss): %s\n\tExit status: %s\n\n' "$@"; }
{ echo 2.6.10; blk '' 2.00 3.00 1:00.00 0; blk 'Command exited with non-zero status 1\n' 2.20 3.20 1:02.00 1; blk '' 2.40 3.40 1:04.00 0; } > "$tmp/mt.txt"
"$BENCHLOG" summary -q "$tmp/mt.txt" > "$tmp/mt.out"
grep -q '^Averages for 3 mtest01 runs$' "$tmp/mt.out" &&
	grep -q '^bytes allocated: 1244659712$' "$tmp/mt.out" &&
	grep -q '^User time (seconds): 2.200$' "$tmp/mt.out" &&
	grep -q '^System time (seconds): 3.200$' "$tmp/mt.out" &&
	grep -q '^Elapsed (wall clock) time: 62.000$' "$tmp/mt.out" &&
	grep -q '^note: 1 failed run left out' "$tmp/mt.out" &&
	! grep -q 'time blocks; averages divide' "$tmp/mt.out" ||
	{ cat "$tmp/mt.out"; echo "summary: an mtest01 group's time averages leave the failed run out of the divisor"; exit 1; }
exit 0
