#!/bin/sh
# The catalogue of bad input (docs/errors.md): for each case the exit
# status, the exact `file[:line]: what is wrong` message, and that the good
# data before (and after) the bad part is still in the table.
#
# Expected values are worked out by hand from the inputs written here:
# mtest01 2001 lines "PASS ... N bytes allocated." give the row
#   FILE,LINE,,,,0,STEM,file,RUN,,2001,pass,N,,,PASS ... N bytes allocated.
# (RUN counts results within the group, 1-based). Two values come from
# another tool: the gzip offsets are file sizes (stat), and the number of
# whole lines a truncated .gz still holds is counted with Python's zlib.
# Cases that need privileges or a kernel feature are in bad-input-perms.sh
# and bad-output.sh.
set -u
: "${BENCHLOG:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0
fail() { echo "FAIL [$case]: $*"; fails=$((fails + 1)); }

# run ARGS...: benchlog with stdout in out, stderr in err, status in $rc
run() { "$BENCHLOG" "$@" > out 2> err; rc=$?; }
want_rc() { [ "$rc" -eq "$1" ] || { fail "exit $rc, want $1"; sed 's/^/  err: /' err | head -5; }; }
want_err() { grep -Fxq -- "$1" err || { fail "no stderr line: $1"; sed 's/^/  err: /' err | head -8; }; }
want_no_err() { grep -Fq -- "$1" err && fail "unexpected stderr: $1"; }
want_row() { grep -Fxq -- "$1" out || { fail "no row: $1"; sed 's/^/  out: /' out | head -5; }; }
want_rows() { n=$(($(wc -l < out) - 1)); [ "$n" -eq "$1" ] || fail "$n rows, want $1"; }
# The accounting line: T lines: U used, S skipped, and T = U + S.
want_lines() {
    line=$(grep '^benchlog: [0-9]* lines*:' err)
    echo "$line" | grep -Fq "benchlog: $1 lines: $2 used, $3 skipped" || fail "accounting: $line; want $1/$2/$3"
    [ "$1" -eq $(($2 + $3)) ] || fail "want-values do not add up"
}
mt() { printf 'PASS ... %s bytes allocated.\n' "$1"; }
row() { printf '%s,%s,,,,0,%s,file,%s,,2001,pass,%s,,,PASS ... %s bytes allocated.\n' "$1" "$2" "$3" "$4" "$5" "$5"; }
MT_HEADER=source,line,message_id,date,subject,quoted,group,group_source,run,copy_of,generation,result,bytes_allocated,target_bytes,target_pct,message

case=empty
: > empty.txt
run parse -t mtest01 empty.txt
want_rc 1; want_rows 0   # no records found: 1 (docs/errors.md)
want_err "benchlog: no lines; no records"
want_err "benchlog parse: no records found in the input"
[ "$(cat out)" = "$MT_HEADER" ] || fail "not the header alone"

case=headers-only   # a vmstat header with no rows: used, nothing emitted
printf 'procs -----------memory---------- ---swap-- -----io---- --system-- ----cpu----\n r  b   swpd   free   buff  cache   si   so    bi    bo   in    cs us sy id wa\n' > hdr.txt
run parse -t vmstat hdr.txt
want_rc 1; want_rows 0; want_lines 2 2 0

case=one-line   # counts worded: "1 line", "1 record", "no records"
mt 100 > one.txt
run parse -t mtest01 one.txt
want_rc 0; want_rows 1
want_err "benchlog: 1 line: 1 used, 0 skipped; 1 record"
printf 'hello\n' > prose.txt
run parse -t mtest01 prose.txt
want_rc 1; want_err "benchlog: 1 line: 0 used, 1 skipped; no records"

case=rows-without-header   # vmstat rows with no header are not guessed
{ mt 100; printf ' 1  0      0 123456  7890 456789    0    0     1     2   30   40  1  2 97  0\n'; mt 200; } > rows.txt
run parse -t mtest01 rows.txt
want_rc 0; want_rows 2; want_lines 3 2 1
want_row "$(row rows.txt 1 rows 1 100)"; want_row "$(row rows.txt 3 rows 2 200)"
want_err "  skipped        1  vmstat row before any header"

case=100MB-line   # skipped whole, never held in memory
timer=""; [ -x /usr/bin/time ] && timer="/usr/bin/time -f %M -o rss"   # GNU time: max RSS, KiB
{ mt 100; head -c 100000000 /dev/zero | tr '\0' x; printf '\n'; mt 300; } |
    $timer "$BENCHLOG" parse -t mtest01 - > out 2> err; rc=$?
if [ -n "$timer" ]; then
    [ "$(tail -1 rss)" -lt 65536 ] || fail "max RSS $(tail -1 rss) KiB for a 100 MB line"
fi
want_rc 0; want_rows 2; want_lines 3 2 1
want_err "-:2: line longer than 1048576 bytes, skipped"
want_row "$(row - 1 - 1 100)"; want_row "$(row - 3 - 2 300)"
{ mt 100; head -c 2000000 /dev/zero | tr '\0' x; } > long-last.txt   # no line end at all
run parse --strict -t mtest01 long-last.txt
want_rc 1; want_rows 1; want_err "long-last.txt:2: line longer than 1048576 bytes, skipped"

case=NUL
{ mt 100; printf 'PA\000SS ... 200 bytes allocated.\n'; mt 300; } > nul.txt
run parse -t mtest01 nul.txt
want_rc 0; want_rows 2; want_lines 3 2 1
want_row "$(row nul.txt 1 nul 1 100)"; want_row "$(row nul.txt 3 nul 2 300)"
want_err "  skipped        1  line contains NUL bytes"

case=binary-garbage   # 64 KiB of fixed pseudo-random bytes between good lines
{ mt 100; python3 -c 'import random,sys; random.seed(9); sys.stdout.buffer.write(bytes(random.getrandbits(8) for _ in range(65536)))'; printf '\n'; mt 300; } > garbage.bin
total=$(python3 -c 'import re; d=open("garbage.bin","rb").read(); print(len(re.split(rb"\r\n|\r|\n", d)) - 1)')
run parse -t mtest01 garbage.bin
want_rc 0; want_rows 2
want_row "$(row garbage.bin 1 garbage 1 100)"; want_row "$(row garbage.bin "$total" garbage 2 300)"
grep -q "^benchlog: $total lines: 2 used, $((total - 2)) skipped" err || fail "accounting: $(grep lines: err), want $total lines"

case=not-a-log   # whole-file formats known by their magic number: one warning, not read
# (the magic bytes are those of the formats' specifications: ELF, PNG,
# xz, bzip2 "BZh" + block size + the block magic "1AY&SY"); a .gz is
# looked into. The good log beside them is read as usual.
printf '\177ELF\002\001\001\000PASS ... 1 bytes allocated.\n' > prog
printf '\211PNG\r\n\032\nPASS ... 1 bytes allocated.\n' > chart.png
printf '\375' > log.xz; printf '7zXZ\000\000PASS ... 1 bytes allocated.\n' >> log.xz
printf 'BZh91AY&SYPASS ... 1 bytes allocated.\n' > log.bz2
gzip -c prog > prog.gz
mt 100 > good.txt
printf 'BZh9 is not a bzip2 header here\n' > bzh.txt    # text that starts like one
run parse -t mtest01 prog chart.png log.xz log.bz2 prog.gz good.txt bzh.txt
want_rc 0; want_rows 1; want_row "$(row good.txt 1 good 1 100)"
want_err "prog: an executable or library (ELF), not a log; skipped"
want_err "chart.png: a PNG image, not a log; skipped"
want_err "log.xz: xz-compressed, which benchlog does not read (decompress it first: unxz); skipped"
want_err "log.bz2: bzip2-compressed, which benchlog does not read (decompress it first: bunzip2); skipped"
want_err "prog.gz: an executable or library (ELF), not a log; skipped"
want_err "  warning        5  not a text file"
want_lines 2 1 1
run parse --strict -t mtest01 prog good.txt
want_rc 1

case=UTF-16   # with a byte order mark: converted, nothing lost
{ mt 100; mt 200; } | iconv -f UTF-8 -t UTF-16 > u16.txt          # iconv writes a BOM
{ printf '\376\377'; { mt 100; mt 200; } | iconv -f UTF-8 -t UTF-16BE; } > u16be.txt
run parse -t mtest01 u16.txt u16be.txt
want_rc 0; want_rows 4; want_lines 4 4 0
want_row "$(row u16.txt 2 u16 2 200)"; want_row "$(row u16be.txt 2 u16be 2 200)"
{ printf '\377\376'; { mt 100; printf 'x'; } | iconv -f UTF-8 -t UTF-16LE; printf 'A'; } > u16odd.txt
run parse -t mtest01 u16odd.txt
want_rc 0; want_row "$(row u16odd.txt 1 u16odd 1 100)"
want_err "u16odd.txt: 1 invalid UTF-16 code units (unpaired surrogates or an odd last byte) replaced by U+FFFD"
# Not guessed: split at 0A, "P\0A\0...\n" leaves "\0P\0..." and a last "\0":
# three lines, each holding NUL bytes.
{ mt 100; mt 200; } | iconv -f UTF-8 -t UTF-16LE > u16nobom.txt
run parse -t mtest01 u16nobom.txt
want_rc 1; want_rows 0; want_err "  skipped        3  line contains NUL bytes"

case=CR-only   # classic Mac line ends
printf 'PASS ... 100 bytes allocated.\rPASS ... 200 bytes allocated.\r\rPASS ... 300 bytes allocated.' > cr.txt
run parse -t mtest01 cr.txt
want_rc 0; want_rows 3; want_lines 4 3 1
want_row "$(row cr.txt 4 cr 3 300)"

case=beyond-64-bits
{ mt 100; mt 99999999999999999999999; mt 300; } > big.txt
run parse -t mtest01 big.txt
want_rc 0; want_rows 2; want_lines 3 2 1
want_err 'big.txt:2: mtest01: allocation "99999999999999999999999 bytes" out of range'
want_row "$(row big.txt 3 big 2 300)"
run parse --strict -t mtest01 big.txt
want_rc 1
sed 's/Maximum resident set size (kbytes): 1680/Maximum resident set size (kbytes): 18446744073709551616/' \
    "$TOP/fixtures/time/gnu-v-19.txt" > tv64.txt
run parse -t time tv64.txt
want_rc 0; want_rows 1
want_err 'tv64.txt:10: time -v: cannot read the value of "Maximum resident set size (kbytes)": "18446744073709551616" (more than 15 digits)'
# max_rss_kib (column 21) empty, the values before and after it kept
[ "$(tail -1 out | cut -d, -f22-25)" = "0,,0,1" ] || fail "time row: $(tail -1 out)"

case=negative-counts
sed -e 's/Major (requiring I\/O) page faults: 1/Major (requiring I\/O) page faults: -3/' \
    "$TOP/fixtures/time/gnu-v-19.txt" > tvneg.txt
run parse -t time tvneg.txt
want_rc 0; want_rows 1
want_err 'tvneg.txt:12: time -v: negative value for "Major (requiring I/O) page faults": "-3"'
[ "$(tail -1 out | cut -d, -f23-26)" = "1680,0,,98" ] || fail "time row: $(tail -1 out)"
printf 'procs -----------memory---------- ---swap-- -----io---- --system-- ----cpu----\n r  b   swpd   free   buff  cache   si   so    bi    bo   in    cs us sy id wa\n 1  0      0 123456  7890 456789    0    0     1     2   30   40  1  2 97  0\n 1  0     -5 123456  7890 456789    0    0     1     2   30   40  1  2 97  0\n' > vmneg.txt
run parse -t vmstat vmneg.txt
want_rc 0; want_rows 1; want_err 'vmneg.txt:4: vmstat row: "-5" is not a number'

case=bad-latency-bucket   # skipped with a warning; the histogram goes on as one series
printf '0.200:  10\n0.201:  -5\n0.202:  5x\n0.203:  1e2\n0.205:  3\n\n12.30: 5pm\n' > latneg.txt
run parse -t latency_series latneg.txt
want_rc 0; want_rows 1; want_lines 7 2 5
want_err 'latneg.txt:2: latency bucket 0.201: negative count "-5"'
want_err 'latneg.txt:3: latency bucket 0.202: count "5x" is not a whole number'
want_err 'latneg.txt:4: latency bucket 0.203: count "1e2" is not a whole number'
want_err "  warning        3  malformed latency bucket"
want_no_err 'latneg.txt:7'   # "12.30: 5pm" after the series is prose
# series, tool, unit, command, last_line, buckets, binned (10 + 3), overflow, total
[ "$(tail -1 out | cut -d, -f11-19)" = "histogram,int_resp_timer,s,,5,2,13,,13" ] || fail "series row: $(tail -1 out)"
run parse -q --strict -t latency_series latneg.txt
want_rc 1

case=nan-inf
sed -e 's/Percent of CPU this job got: 0%/Percent of CPU this job got: inf%/' \
    -e 's/Elapsed (wall clock) time (h:mm:ss or m:ss): 0:00.10/Elapsed (wall clock) time (h:mm:ss or m:ss): nan/' \
    "$TOP/fixtures/time/gnu-v-19.txt" > tvnan.txt
run parse -t time tvnan.txt
want_rc 0; want_rows 1
want_err 'tvnan.txt:4: time -v: cannot read the value of "Percent of CPU this job got": "inf%"'
want_err 'tvnan.txt:5: time -v: cannot read the value of "Elapsed (wall clock) time (h:mm:ss or m:ss)": "nan"'
[ "$(tail -1 out | cut -d, -f15-18)" = "0,0,," ] || fail "time row: $(tail -1 out)"
tail -1 out | cut -d, -f10- | grep -qi 'nan\|inf' && fail "nan or inf reached the table"
printf 'procs -----------memory---------- ---swap-- -----io---- --system-- ----cpu----\n r  b   swpd   free   buff  cache   si   so    bi    bo   in    cs us sy id wa\n 1  0      0 123456  7890 456789    0    0     1     2   30   40  1  2 97  0\n 1  0    nan 123456  7890 456789    0    0     1     2   30   40  1  2 97  0\n 1  0    inf 123456  7890 456789    0    0     1     2   30   40  1  2 97  0\n' > vmnan.txt
run parse -t vmstat vmnan.txt
want_rc 0; want_rows 1
want_err 'vmnan.txt:4: vmstat row: "nan" is not a number'
want_err 'vmnan.txt:5: vmstat row: "inf" is not a number'

case=truncated-gz
seq 1 2000 | sed 's/.*/PASS ... & bytes allocated./' > many.txt
gzip -9nc many.txt > many.gz
size=$(stat -c %s many.gz)
head -c $((size / 2)) many.gz > trunc.gz
cut=$((size / 2))
whole=$(python3 -c 'import zlib; print(zlib.decompressobj(31).decompress(open("trunc.gz","rb").read()).count(b"\n"))')
run parse -t mtest01 trunc.gz
want_rc 1; want_rows "$whole"
want_err "trunc.gz: truncated gzip data at offset $cut (member started at offset 0); kept the $whole lines read before it"
want_row "$(row trunc.gz "$whole" trunc "$whole" "$whole")"
want_lines $((whole + 1)) "$whole" 1
want_err "  skipped        1  line cut off by corrupt input"

case=gz-trailing-garbage
{ cat many.gz; printf 'garbage after the member\n'; } > tg.gz
run parse -t mtest01 tg.gz
want_rc 0; want_rows 2000
want_err "tg.gz: trailing garbage after gzip member ending at offset $size ignored"
want_row "$(row tg.gz 2000 tg 2000 2000)"
run parse --strict -t mtest01 tg.gz
want_rc 1
{ cat many.gz; head -c 512 /dev/zero; } > padded.gz          # NUL padding (tape blocks) is not garbage
run parse --strict -t mtest01 padded.gz
want_rc 0; want_rows 2000

case=symlink-loop   # a link back up the tree: warned, each file read once
mkdir -p loop/sub
mt 100 > loop/a.txt; mt 200 > loop/sub/b.txt
ln -s .. loop/sub/up
run parse -t mtest01 loop
want_rc 0; want_rows 2
want_err "loop/sub/up: symbolic link loop (folder already being read), not followed"
want_row "$(row loop/a.txt 1 a 1 100)"; want_row "$(row loop/sub/b.txt 1 b 1 200)"
run parse --strict -t mtest01 loop
want_rc 1
ln -s self loop/self                       # a link to itself cannot be read at all
run parse -t mtest01 loop
want_rc 1; want_rows 2
want_err "loop/self: Too many levels of symbolic links"

case=deep-folder   # 100 levels: every file read, no false "loop"
p=deep; i=0; while [ $i -lt 100 ]; do p=$p/s; i=$((i + 1)); done
mkdir -p "$p"; mt 5 > "$p/x.txt"; mt 6 > deep/y.txt
run parse --strict -t mtest01 deep
want_rc 0; want_rows 2
want_row "$(row "$p/x.txt" 1 x 1 5)"; want_row "$(row deep/y.txt 1 y 1 6)"

case=disappears   # listed when the folder was expanded, gone when its turn came
mkdir gone; mt 100 > gone/a.txt; mt 200 > gone/b.txt
mkfifo hold
# The writer's open of the FIFO waits for benchlog to open it, which it
# does after expanding "gone"; only then is b.txt removed.
{ rm gone/b.txt; mt 7; } > hold &
run parse -t mtest01 hold gone
wait
want_rc 1; want_rows 2
want_err "gone/b.txt: No such file or directory"
want_row "$(row hold 1 hold 1 7)"; want_row "$(row gone/a.txt 1 a 1 100)"

case=missing-and-folder-as-file
run parse -t mtest01 no-such.txt many.gz
want_rc 1; want_rows 2000; want_err "no-such.txt: No such file or directory"

case=output-under-a-file   # -o names a folder inside a regular file
run parse -o many.txt/tables many.txt
want_rc 1; want_err "benchlog parse: cannot create many.txt/tables: Not a directory"

echo "bad-input: $fails failed"
[ "$fails" -eq 0 ]
