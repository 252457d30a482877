#!/bin/sh
# The rows of numbers and the line ends go through AVX-512, AVX2 or plain
# SSE2 code, whichever the processor runs (core/util.c, input/reader.c);
# BENCHLOG_SIMD=avx2 or sse2 caps the choice. The three must write the
# same bytes. Inputs: every vmstat fixture, and a generated capture whose
# rows are 16 to over 255 bytes long (many 32, 64, 96 and 128, where the
# SIMD paths change the way they read), with tabs, runs of blanks,
# leading zeros, 18- and 19-digit numbers, a letter or a NUL or an ESC
# here and there, CR LF and lone CR line ends, in the procps 2.0 and
# procps-ng 4 layouts, plain and gzipped. The expected output is the
# plain path's: the unit tests check that one against strtoll and printf
# (tests/test_util.c), so here the three need only agree, on `parse`
# (CSV, the hot path) and `summary`. A machine without AVX-512 or AVX2
# runs the plain path under every name: the test then proves less, not
# something false.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/gen.txt" <<'EOF'
import random, sys
rnd = random.Random(20261202)
out = []
def row(n):
    # n numbers; the row's length is pushed toward the SIMD edges
    nums = []
    for _ in range(n):
        k = rnd.random()
        if k < 0.05:
            nums.append("0" * rnd.randint(1, 3) + str(rnd.randint(0, 999)))
        elif k < 0.08:
            nums.append(str(rnd.randint(10**17, 10**18 - 1)))
        elif k < 0.09:
            nums.append(str(rnd.randint(10**18, 10**19 - 1)))   # 19 digits
        else:
            nums.append(str(rnd.randint(0, 10 ** rnd.randint(1, 7))))
    seps = [rnd.choice([" ", "  ", "\t", " \t ", "   "]) for _ in nums]
    s = "".join(sep + x for sep, x in zip(seps, nums))
    target = rnd.choice([16, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 200, 255, 256, 300])
    if len(s) < target and rnd.random() < 0.7:
        s = " " * (target - len(s)) + s
    k = rnd.random()
    if k < 0.02:
        i = rnd.randrange(len(s))
        s = s[:i] + rnd.choice("x:-.\0\x1b") + s[i + 1:]
    elif k < 0.04:
        s += rnd.choice(["\0", "\x1b[0m", " "])
    return s
eols = ["\n"] * 18 + ["\r\n", "\r"]
for block in range(300):
    ng = block % 2 == 1
    if ng:
        out.append("procs -----------memory---------- ---swap-- -----io---- -system-- -------cpu-------")
        out.append(" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st gu")
        n = 18
    else:
        out.append("   procs                      memory    swap          io     system         cpu")
        out.append(" r  b  w   swpd   free   buff  cache  si  so    bi    bo   in    cs  us  sy  id")
        n = 16
    for _ in range(rnd.randint(5, 60)):
        out.append(row(n))
with open(sys.argv[1], "w", newline="") as f:
    for line in out:
        f.write(line + rnd.choice(eols))
EOF
gzip -k -n "$tmp/gen.txt"
cp -r "$TOP/fixtures/vmstat" "$tmp/fixtures"
for simd in "" avx2 sse2; do
    for input in "$tmp/gen.txt" "$tmp/gen.txt.gz" "$tmp/fixtures"; do
        name=$(basename "$input")
        BENCHLOG_SIMD=$simd "$BENCHLOG" parse -q -t vmstat "$input" \
            > "$tmp/parse-$name-$simd.csv" 2> /dev/null || true
        BENCHLOG_SIMD=$simd "$BENCHLOG" summary -q "$input" \
            > "$tmp/summary-$name-$simd.txt" 2> /dev/null || true
    done
done
fail=0
for input in gen.txt gen.txt.gz fixtures; do
    for what in parse summary; do
        ext=csv
        [ "$what" = summary ] && ext=txt
        for simd in "" avx2; do
            if ! cmp -s "$tmp/$what-$input-$simd.$ext" "$tmp/$what-$input-sse2.$ext"; then
                echo "simd-paths: $what $input: BENCHLOG_SIMD='$simd' differs from sse2:"
                diff "$tmp/$what-$input-sse2.$ext" "$tmp/$what-$input-$simd.$ext" | head -5
                fail=1
            fi
        done
    done
done
# not vacuous: the generated capture gives thousands of rows, most of
# them through the fast path (a row is 16 or 18 numbers and blanks)
rows=$(($(wc -l < "$tmp/parse-gen.txt-sse2.csv") - 1))
[ "$rows" -ge 5000 ] || { echo "simd-paths: only $rows rows parsed"; fail=1; }
exit $fail
