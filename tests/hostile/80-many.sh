# Many things in one input (issue 34): threads, loads, stutter intervals.
# The report holds a bounded number of each and lists at most a stated
# number per list in report.md, saying how many are not shown; every
# record is still in the tables. Smaller versions of `make bench`'s
# cases (tests/gen-many writes them and counts lines, records,
# intervals and iterations itself); memory and time are measured there,
# not here.
GEN=$TOP/tests/gen-many
# many_acc GEN-STDERR: the accounting line's line count is the generator's
many_acc() {
    want=$(sed -n 's/^lines \([0-9]*\) .*/\1/p' "$1")
    got=$(sed -n 's/^benchlog: \([0-9]*\) lines: .*/\1/p' err)
    [ -n "$want" ] && [ "$want" = "$got" ]
}
# rows FILE: data rows of a CSV file with one line per record
rows() { echo $(( $(wc -l < "$1") - 1 )); }

hc many-threads 0 'lines: [0-9]+ used, [0-9]+ skipped' '
    "$GEN" cyclictest 5000 > cyc.txt 2> gen.txt
    "$B" report -j1 -o many cyc.txt; rc=$?
    many_acc gen.txt || rc=99
    [ "$(rows many/csv/latency_series.csv)" -eq 5000 ] || rc=98
    # every thread: 8 buckets of 1-3 samples and its overflow (0), a row each
    [ "$(rows many/csv/latency.csv)" -eq 45000 ] || rc=97
    grep -qx "The first 25 series of 5000 are shown (4975 not shown); every bucket of all of them is in \[csv/latency.csv\](csv/latency.csv) and every series. figures in \[csv/latency_series.csv\](csv/latency_series.csv). The comparisons and the Findings take the series held only: the first 4096, at most 1024 of a group." many/report.md || rc=96
    # 1024 held (one group), 25 of them in the comparison table
    grep -q "^The first 25 series of 1024 are shown (999 not shown)" many/report.md || rc=95
    [ "$(grep -c "^#### cyc T" many/report.md)" -eq 25 ] || rc=94'
hc many-threads-few 0 'lines: [0-9]+ used, [0-9]+ skipped' '
    # 25 threads: every one shown, nothing said about more
    "$GEN" cyclictest 25 > cyc.txt 2> gen.txt
    "$B" report -j1 -o many cyc.txt; rc=$?
    many_acc gen.txt || rc=99
    [ "$(grep -c "^#### cyc T" many/report.md)" -eq 25 ] || rc=98
    ! grep -q "not shown)" many/report.md || rc=97'
hc many-loads 0 'lines: [0-9]+ used, [0-9]+ skipped' '
    "$GEN" contest 3000 > con.txt 2> gen.txt
    "$B" report -j1 -o many con.txt; rc=$?
    many_acc gen.txt || rc=99
    [ "$(rows many/csv/contest.csv)" -eq 3000 ] || rc=98
    # 64 loads held, 25 of them shown; 3000 - 64 records not held
    grep -q "^2936 of the records are of loads or groups past the first 64 of each, which the report does not hold (not shown)" many/report.md || rc=97
    grep -q "^The first 25 loads of 3000 and the first 1 groups of 1 are shown here and below (2975 loads and 0 groups not shown)" many/report.md || rc=96
    [ "$(grep -c "^w[0-9]*_load:$" many/report.md)" -eq 25 ] || rc=95'
# The ConTest headline counts every load, group and run seen, held or
# not (analyze/contest.c CT_KEEP, CT_COUNT); it said "of 64 loads in 64
# groups (...: 15 runs ...)" for 100 loads in 80 groups. Runs by hand
# (parsers/contest.c 4): w0..w48 get a bit each, w49..w99 share the
# last, so each of w50..w99 starts a run: 51 (4951 of 5000 loads).
# 100 x 80 records, 64 x 64 held: 3904 not held. Past 64 + 4096 names
# the count is "more than".
hc summary-contest-counts-past-held 0 'lines: [0-9]+ used, [0-9]+ skipped' '
    "$GEN" contest 100 80 > con.txt 2> /dev/null
    "$B" summary con.txt > sum.txt; rc=$?
    sed -n 3p sum.txt | grep -q "^8000 ConTest records of 100 loads in 80 groups (2\.5\.40-test: 51 runs; " || rc=99
    sed -n 3p sum.txt | grep -q "; 2\.5\.103-test: 51 runs; 16 more)\.$" || rc=98
    sed -n 4p sum.txt | grep -q "^3904 of the records" || rc=97
    "$B" report -q -j1 -o r con.txt || rc=96
    grep -q "^8000 ConTest records of 100 loads in 80 groups (.*; 55 more)\.$" r/report.md || rc=95
    grep -q "^The first 25 loads of 100 and the first 25 groups of 80 are shown here and below (75 loads and 55 groups not shown)" r/report.md || rc=94
    "$GEN" contest 5000 2 > c5.txt 2> /dev/null
    "$B" summary -q c5.txt 2> /dev/null | sed -n 3p | grep -q "^10000 ConTest records of more than 4160 loads in 2 groups (2\.5\.40-test: 4951 runs; 2\.5\.41-test: 4951 runs)\.$" || rc=93'
hc many-loads-two-groups 0 'lines: [0-9]+ used, [0-9]+ skipped' '
    # two kernels, 40 loads each: the Findings compare every load
    "$GEN" contest 40 2 > con.txt 2> gen.txt
    "$B" report -j1 -o many con.txt; rc=$?
    many_acc gen.txt || rc=99
    [ "$(rows many/csv/contest.csv)" -eq 80 ] || rc=98
    grep -q "(15 loads and 0 groups not shown)" many/report.md || rc=97
    [ "$(cut -d, -f2 many/findings.csv | grep -c "^w[0-9]*_load$")" -eq 240 ] || rc=96'
hc many-intervals 0 'lines: [0-9]+ used, [0-9]+ skipped' '
    "$GEN" stutter 20000 > vm.txt 2> gen.txt
    "$B" report -j1 -o many vm.txt; rc=$?
    many_acc gen.txt || rc=99
    read _ _ _ rec _ iv _ it < gen.txt
    [ "$(rows many/csv/vmstat.csv)" -eq "$rec" ] || rc=98
    [ "$(rows many/csv/events.csv)" -eq $((2 * iv)) ] || rc=97
    grep -q "^The first 50 stutter intervals of $iv are shown ($((iv - 50)) not shown)" many/report.md || rc=96
    grep -q "^The first 50 iterations of $it are shown ($((it - 50)) not shown)" many/report.md || rc=95
    grep -q "^The first 50 events of $((2 * iv)) are shown ($((2 * iv - 50)) not shown)" many/report.md || rc=94
    # the terminal summary lists every interval
    "$B" summary -q vm.txt > sum.txt 2>/dev/null || rc=93
    [ "$(grep -c "^    #[0-9]* samples" sum.txt)" -eq "$iv" ] || rc=92'
hc many-loads-one-question 0 'lines: [0-9]+ used, [0-9]+ skipped' '
    # one question of 3000 loads x 6 measures: its rows wait in an
    # unlinked temporary file until the family is adjusted (compare.h C6);
    # every row reaches findings.csv, nothing is left in TMPDIR
    "$GEN" contest 3000 2 > con.txt 2> gen.txt
    mkdir tmp
    TMPDIR=$PWD/tmp "$B" report -j1 -o many con.txt; rc=$?
    many_acc gen.txt || rc=99
    [ -z "$(ls -A tmp)" ] || rc=98
    [ "$(cut -d, -f2 many/findings.csv | grep -c "^w[0-9]*_load$")" -eq 18000 ] || rc=97
    [ "$(cut -d, -f2,5 many/findings.csv | grep "^w[0-9]*_load," | sort -u | wc -l)" -eq 18000 ] || rc=96
    # one run a side for every load: every row is "too few runs"
    [ "$(grep -c ",too few runs," many/findings.csv)" -eq 18000 ] || rc=95'
# stats with more groups than a table holds in memory (4096, T4a in
# analyze/table_stats.h): the others wait, names and cells, in an
# unlinked temporary file with an index in another, read back when their
# rows come again. Rows in group order (each group put out once) and
# round by round (every group read back for each row) give datamash's
# numbers for every group; nothing is left in TMPDIR. Memory on 10^6
# groups is measured in `make bench`; many-groups-memory below only
# checks that it does not grow with the groups.
# many_groups ORDER: generate, run stats, compare with datamash
many_groups() {
    "$GEN" groups 6000 3 $1 > g.csv 2> gen.txt
    mkdir tmp
    TMPDIR=$PWD/tmp "$B" stats --csv -f csv g.csv > out.csv; rc=$?
    many_acc gen.txt || rc=99
    [ -z "$(ls -A tmp)" ] || rc=98
    [ "$(grep -c ",time_s," out.csv)" -eq 6000 ] && [ "$(grep -c ",faults," out.csv)" -eq 6000 ] || rc=97
    # table,group,column,n,mean,sd,ci95,min,p50,p90,p95,p99,max,pct,...
    awk -F, '$3 == "time_s" { print $2, $4, $5, $8, $9, $13 }' out.csv | sort > bl.txt
    datamash -t, --format '%.17g' --header-in -s -g 1 count 2 mean 2 min 2 median 2 max 2 < g.csv | tr , " " > dm.txt
    # the same numbers, compared as numbers
    paste -d" " bl.txt dm.txt | awk '{ for (i = 2; i <= 6; i++) { d = $i - $(i + 6); if (d > 1e-9 || d < -1e-9 || $1 != $7) bad++ } }
        END { exit bad ? 1 : 0 }' || rc=96
    TMPDIR=$PWD/tmp "$B" stats -q --csv --partial g.csv > g.part || rc=95
    TMPDIR=$PWD/tmp "$B" stats -q -f csv --merge g.part > merged.csv || rc=94
    [ "$(grep -c ",time_s,3," merged.csv)" -eq 6000 ] || rc=93
    [ -z "$(ls -A tmp)" ] || rc=92
}
command -v datamash >/dev/null || HC_NO_DATAMASH=1
hc many-groups-sorted 0 'lines: [0-9]+ used, [0-9]+ skipped' '
    [ -z "${HC_NO_DATAMASH:-}" ] || skip "no datamash"
    many_groups sorted'
hc many-groups-mixed 0 'lines: [0-9]+ used, [0-9]+ skipped' '
    [ -z "${HC_NO_DATAMASH:-}" ] || skip "no datamash"
    many_groups mixed'
# compare holds no row in memory (compare.h C6): every comparison waits in
# an unlinked temporary file with only its p in memory, and CSV goes out
# 10,000 rows at a time. 3000 and 30000 loads in two groups (18,000 and
# 180,000 rows of one question): every row written, nothing left in
# TMPDIR, and ten times the rows cost far less than ten times the memory
# (before: 50 -> 307 MiB; now about 30 -> 51 MiB, the groups' index and
# 48 bytes a row). Not under AddressSanitizer, whose quarantine holds
# freed memory.
hc many-loads-compare 0 'fewer than 3 values on a side' '
    "$GEN" contest 3000 2 > c3.txt 2> /dev/null
    "$GEN" contest 30000 2 > c30.txt 2> /dev/null
    mkdir tmp
    . "$TOP/tests/lib/rss.sh"
    tmp=$PWD BENCHLOG=$B
    small=$(TMPDIR=$PWD/tmp peak_rss c3.csv compare -q -f csv c3.txt) || rc=99
    large=$(TMPDIR=$PWD/tmp peak_rss c30.csv compare -q -f csv c30.txt) || rc=98
    cat c30.csv.err >&2
    [ -z "$(ls -A tmp)" ] || rc=97
    [ "$(grep -c "^contest,w[0-9]*_load," c3.csv)" -eq 18000 ] || rc=96
    [ "$(cut -d, -f2,3 c30.csv | grep "^w[0-9]*_load," | sort -u | wc -l)" -eq 180000 ] || rc=95
    [ "$(grep -c ",too few runs," c30.csv)" -eq 180000 ] || rc=94
    asan_build || [ "$large" -le $((small + 40960)) ] || rc=93'
# compare's text and Markdown go out in pages of 10,000 rows (compare.h
# C5), each aligned and headed on its own, as `stats` pages: one table of
# a column held 107 MiB at 300,000 comparisons (make bench's
# compare_rows). 3400 loads of 3 kernels: 10,200 rows a column, a
# baseline line and two candidates a load; rows 1-10,000 are page one
# (w0_load to the baseline line of w3333_load), so page two starts with
# that baseline line again, then w3333_load's candidates.
hc many-loads-compare-pages 0 'fewer than 3 values on a side' '
    "$GEN" contest 3400 3 > c.txt 2> /dev/null
    COLUMNS=200 "$B" compare -q -f text c.txt > t.txt || rc=99
    [ "$(grep -c "^== contest: " t.txt)" -eq 6 ] || rc=98
    [ "$(grep -c "^load  *group" t.txt)" -eq 12 ] || rc=97
    [ "$(grep -A1 "^load  *group" t.txt | grep -c "^w3333_load  *2\.5\.40-test  *1  *90\.27 ")" -eq 1 ] || rc=96
    [ "$(grep -c "too few runs" t.txt)" -eq 40800 ] || rc=95
    # page one of time_s: from its column header to the blank line
    [ "$(awk "/^load/ { p = 1; next } p && /^\$/ { exit } p { n++ } END { print n }" t.txt)" -eq 10000 ] || rc=94
    "$B" compare -q -f md c.txt > m.md || rc=93
    [ "$(grep -c "^| load | group |" m.md)" -eq 12 ] || rc=92
    [ "$(grep -c "^| w3333_load | 2\.5\.40-test |" m.md)" -eq 12 ] || rc=91'
hc compare-no-tmpdir 1 'benchlog compare: cannot write a temporary file in .*/none: No such file or directory' '
    "$GEN" contest 3 2 > c.txt 2> /dev/null
    TMPDIR=$PWD/none "$B" compare -q c.txt > out.txt'
# vmstat series go to temporary files as they end (analyze/vmstat.c):
# without one the pass stops after the first series, which compare said
# as "no two series of different groups to compare", comparing a part
# of the input; now it names the temporary file and compares nothing.
hc compare-vmstat-no-tmpdir 1 'benchlog compare: cannot write a temporary file in .*/none: No such file or directory' '
    { printf "kernel A\n\n r  b  w   swpd   free   buff  cache  si  so    bi    bo   in    cs  us  sy  id\n"
      for i in 1 2 3 4; do echo " 1  0  0 1000$i  5000  300  9000   0   0    10    20  100   200   5   3  92"; done
      printf "\nkernel B\n\n r  b  w   swpd   free   buff  cache  si  so    bi    bo   in    cs  us  sy  id\n"
      for i in 1 2 3 4; do echo " 1  0  0 2000$i  5000  300  9000   0   0    10    20  100   200   5   3  92"; done; } > v.txt
    TMPDIR=$PWD/none "$B" compare -q v.txt > out.txt; rc=$?
    [ -s out.txt ] && rc=99
    grep -q "no two series" err && rc=98'
# The last series goes to its temporary file when the pass is over
# (analyze/vmstat.c close_series): a failure there (ulimit -f) left it
# out of the comparison, again said as "no two series".
hc compare-vmstat-last-series-fsize 1 'benchlog compare: cannot write a temporary file in .*/tmp: File too large' '
    { printf "kernel A\n\n r  b  w   swpd   free   buff  cache  si  so    bi    bo   in    cs  us  sy  id\n"
      for i in 1 2 3 4; do echo " 1  0  0 1000$i  5000  300  9000   0   0    10    20  100   200   5   3  92"; done
      printf "\nkernel B\n\n"; "$TOP/tests/gen-many" stutter 20000 2> /dev/null; } > v.txt
    mkdir tmp
    (ulimit -f 100; TMPDIR=$PWD/tmp "$B" compare -q v.txt > out.txt); rc=$?
    [ -s out.txt ] && rc=99
    [ -z "$(ls -A tmp)" ] || rc=97
    grep -q "no two series" err && rc=98'
# report without a temporary folder said "cannot write the tables" (an
# analysis's temporary file stopped the pass) or, on ConTest input,
# "cannot write findings.csv" (the Findings' rows wait in one): now it
# names the temporary folder, as compare does, and leaves no report.
hc report-no-tmpdir 1 '^benchlog report: cannot write a temporary file in .*/none: No such file or directory$' '
    TMPDIR=$PWD/none "$B" report -q -o r "$SEED0"; rc=$?
    [ -e r ] && rc=99
    grep -v "a temporary file in" err | grep -q "cannot write" && rc=98'
hc report-findings-no-tmpdir 1 '^benchlog report: cannot write a temporary file in .*/none: No such file or directory$' '
    "$GEN" contest 100 80 > con.txt 2> /dev/null
    TMPDIR=$PWD/none "$B" report -q -o r con.txt; rc=$?
    [ -e r ] && rc=99
    grep -v "a temporary file in" err | grep -q "cannot write" && rc=98'
# The Message-IDs of a pass past 4 * 256 KiB go to temporary files
# (core/ctx.h bl_msgids): 5000 messages of 7 lines, then the same mbox
# again: every copy is found and named by where it was first met (message
# i at line 7(i-1)+2, its first header); without a temporary folder the
# pass stops, said, with no table written.
mbox5000() {
    awk "BEGIN { for (i = 1; i <= 5000; i++) printf \"From a@b Mon Jan  1 00:00:00 2024\nFrom: a@example.org\nSubject: mtest01\nMessage-ID: <m%d.x@example.org>\n\nPASS ... %d bytes allocated.\n\n\", i, 1000000 + i }" > a.mbox
    cp a.mbox b.mbox
}
hc msgids-spill 0 '^benchlog: 70000 lines: 5000 used, 65000 skipped; 5000 records$' '
    mbox5000; mkdir tmp
    TMPDIR=$PWD/tmp "$B" report -j1 -o r a.mbox b.mbox; rc=$?
    [ "$(rows r/csv/mtest01.csv)" -eq 5000 ] || rc=99
    [ "$(grep -c "^b\.mbox,.*,duplicate of the message at a\.mbox:" r/skipped.csv)" -eq 5000 ] || rc=98
    grep -q "^b\.mbox,34995,35000,6,duplicate of the message at a\.mbox:34995,m5000\.x@example\.org," r/skipped.csv || rc=97
    grep -q "^b\.mbox,2,7,6,duplicate of the message at a\.mbox:2,m1\.x@example\.org," r/skipped.csv || rc=96
    [ -z "$(ls -A tmp)" ] || rc=95'
hc msgids-no-tmpdir 1 '^benchlog: cannot write a temporary file in .*/none: No such file or directory$' '
    mbox5000
    TMPDIR=$PWD/none "$B" parse -q -o o a.mbox b.mbox; rc=$?
    [ -z "$(ls -A o 2>/dev/null)" ] || rc=99'
# report.sqlite's sources past 2 * 256 KiB of keys go to temporary files
# (tables/sqlite.c): 1300 messages of Message-IDs of about 200 bytes,
# which the CSV tables alone hold in memory. Without a temporary folder
# the database said "cannot write output" (parse) or "cannot write the
# tables" (report); now it names the folder, as every command does.
mbox1300() {
    awk "BEGIN { for (i = 1; i <= 1300; i++) printf \"From a@b Mon Jan  1 00:00:00 2024\nFrom: a@example.org\nSubject: mtest01\nMessage-ID: <m%d.%0180d@example.org>\n\nPASS ... %d bytes allocated.\n\n\", i, 0, 1000000 + i }" > a.mbox
}
hc sqlite-sources-no-tmpdir 1 '^benchlog: cannot write a temporary file in .*/none: No such file or directory$' '
    mbox1300
    TMPDIR=$PWD/none "$B" parse -q -o c a.mbox || rc=99
    [ "$(rows c/mtest01.csv)" -eq 1300 ] || rc=98
    if [ -z "$rc" ]; then TMPDIR=$PWD/none "$B" parse -q -f sqlite -o o a.mbox; rc=$?; fi
    [ -e o/benchlog.sqlite ] && rc=97'
hc report-sources-no-tmpdir 1 '^benchlog report: cannot write a temporary file in .*/none: No such file or directory$' '
    mbox1300
    TMPDIR=$PWD/none "$B" report -q -o r a.mbox; rc=$?
    [ -e r ] && rc=99
    grep -v "a temporary file in" err | grep -q "cannot write" && rc=98'
# compare puts every row into its temporary file, and flushes it, before
# it prints (compare.h C6): a write that failed there (ulimit -f) was said
# after the tables' baseline rows and the footer had been printed; now
# before the first byte, and nothing is printed.
hc compare-spill-fsize 1 '^benchlog compare: cannot write a temporary file in .*/tmp: File too large$' '
    "$GEN" groups 3000 3 > g.csv 2> /dev/null
    mkdir tmp
    (ulimit -f 50; TMPDIR=$PWD/tmp "$B" compare -q g.csv > out.txt); rc=$?
    [ -s out.txt ] && rc=99
    [ -z "$(ls -A tmp)" ] || rc=97'
# Groups of runs past those held go to temporary files (analyze/runs.c):
# without one the pass stops early; plot drew the groups read so far,
# said "wrote pl/runs.png" and exited 1 without a reason. Now it names
# the temporary file and draws nothing.
hc plot-runs-no-tmpdir 1 '^benchlog plot: cannot write a temporary file in .*/none: No such file or directory$' '
    for g in $(seq 1 600); do printf "kernel k%d\nPASS ... %d bytes allocated.\n\n" $g $((1000000 + g)); done > r.txt
    TMPDIR=$PWD/none "$B" plot runs -o pl r.txt; rc=$?
    [ -e pl/runs.png ] && rc=99
    grep -q "wrote" err && rc=98'
# Twenty times the groups, round by round (every row reads its group
# back): the same memory but for the index's cache (at most 8 MiB; before,
# about 170 bytes a group stayed: 17.8 -> 33.0 MiB for 5000 -> 100000
# groups, now 18.6 -> 23.0). Not under AddressSanitizer.
hc many-groups-memory 0 NONE '
    "$GEN" groups 5000 2 mixed > s.csv 2> /dev/null
    "$GEN" groups 100000 2 mixed > l.csv 2> /dev/null
    mkdir tmp
    . "$TOP/tests/lib/rss.sh"
    tmp=$PWD BENCHLOG=$B
    small=$(TMPDIR=$PWD/tmp peak_rss s.out stats -q --csv -f csv s.csv) || rc=99
    large=$(TMPDIR=$PWD/tmp peak_rss l.out stats -q --csv -f csv l.csv) || rc=98
    [ -z "$(ls -A tmp)" ] || rc=97
    [ "$(grep -c ",time_s,2," l.out)" -eq 100000 ] || rc=96
    asan_build || [ "$large" -le $((small + 9216)) ] || rc=95'
hc stats-no-tmpdir 1 'benchlog stats: cannot write a temporary file in .*/none: No such file or directory' '
    "$GEN" groups 6000 2 mixed > g.csv 2> /dev/null
    TMPDIR=$PWD/none "$B" stats -q --csv g.csv > out.txt'
# A stop signal while stats and compare hold groups put out (the spill
# and the index, table_stats.h T4a): 128 + the signal, no output, nothing
# left in TMPDIR (both files are unlinked when made).
stop_many() {   # stop_many SIG CMD...: CMD reads a FIFO fed 20000 groups, then the signal
    sig=$1; shift
    "$GEN" $GENARGS > in.txt 2> /dev/null
    mkdir tmp; mkfifo fifo
    TMPDIR=$PWD/tmp env --default-signal "$@" fifo > o.txt & p=$!
    exec 3> fifo
    cat in.txt >&3
    sleep 1
    kill -"$sig" $p
    wait $p; rc=$?
    exec 3>&-
    [ -s o.txt ] && rc=99
    [ -z "$(ls -A tmp)" ] || rc=98
}
hc many-groups-stats-TERM 143 '^benchlog: interrupted$' 'GENARGS="groups 20000 2 mixed" stop_many TERM "$B" stats -q --csv'
hc many-loads-compare-INT 130 '^benchlog: interrupted$' 'GENARGS="contest 3000 2" stop_many INT "$B" compare -q'
# More runs in the drawn groups than a runs chart takes (analyze/chart.h
# BL_RUNS_PLOT_MAX, 100000): the first 100000 are drawn and the caption
# says how many there are; every run is in csv/mtest01.csv. The report
# used to fail ("runs chart needs 1-100000 runs").
hc many-runs 0 '100003 lines: 100003 used, 0 skipped' '
    { echo "kernel 6.1"; seq 100002 | sed "s/.*/PASS ... & bytes allocated./"; } > runs.txt
    "$B" report -j1 -o many runs.txt; rc=$?
    [ "$(rows many/csv/mtest01.csv)" -eq 100002 ] || rc=99
    [ "$(grep -vc "^#" many/plots/runs-1.dat)" -eq 100000 ] || rc=98
    grep -q "(1 group; the first 100000 of their 100002 runs, every run in the tables)" many/report.md || rc=97
    # the legend says what the title and report.md say: the group has
    # 100002 runs, of which the first 100000 are drawn, and their mean is
    # (1 + 100002) / 2 = 50001.5 bytes = 0.0476851 MiB to six digits, as
    # the runs table shows a mean (the drawn: 0.0476842)
    grep -q "title .kernel 6.1 (100002 runs, the first 100000 drawn): allocated 0.0476851 MiB." many/plots/runs.gp || rc=96
    grep -q "^bytes allocated: 50001.5$" many/report.md || rc=95'
# compare's groups past those held go to a temporary file (table_stats
# T4a). One that could not be written there read back as empty groups,
# and compare printed 1,000-odd wrong rows ("no baseline values here") in
# place of 39,998, with exit status 0: 20,000 groups of 2 rows under a
# file size limit of 1,600 to 2,600 KiB fail that file only (dash's
# ulimit -f counts 512-byte blocks: 4000 is 2,000 KiB). Now: the
# documented message, exit 1, nothing printed (docs/errors.md).
hc many-groups-compare-ulimit-f 1 '^benchlog compare: cannot write a temporary file in .*: File too large$' '
    "$GEN" groups 20000 2 > g.csv 2> /dev/null
    ( ulimit -f 4000; "$B" compare -q --csv -f csv g.csv > o.csv ); rc=$?
    [ -s o.csv ] && rc=99'
# stats alike: the pass knows a group could not be put out before the
# first row is printed; it printed 100 KB of rows (the groups put out
# missing or empty) and then the message, exit 1. Now nothing is printed.
hc many-groups-stats-ulimit-f 1 '^benchlog stats: cannot write a temporary file in .*: File too large$' '
    "$GEN" groups 20000 2 > g.csv 2> /dev/null
    ( ulimit -f 4000; "$B" stats -q --csv g.csv > o.txt ); rc=$?
    [ -s o.txt ] && rc=99'
# parse to standard output without -t keeps each table's rows in a
# temporary file until it knows only one table has rows. That file was
# made by tmpfile(3), in /tmp whatever $TMPDIR said; now in $TMPDIR like
# every other, and a folder that cannot hold it is named (docs/errors.md).
hc parse-pick-tmpdir-missing 1 '^benchlog: cannot write a temporary file in .*/gone: No such file or directory$' '
    TMPDIR=$PWD/gone "$B" parse -q "$FX/vmstat/18-vmstat-t-timestamps-procps33.txt" > o.csv; rc=$?
    [ -s o.csv ] && rc=99'
