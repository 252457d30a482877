#!/bin/sh
# Issue 10: one long vmstat capture must not make `benchlog summary` grow
# past its memory bound either. A series keeps its rows for exact
# percentiles (S2 in analyze/vmstat.h) up to BL_VM_EXACT_MAX = 16384 rows
# per column; beyond that, median and p95 come from the D11 sketch and the
# summary says so.
#
# Expected values (python3 below, independent of benchlog):
#   - with 16384 rows the swpd median is exact: type-7 median of the
#     generated values (statistics.median, which for type 7 at p = 50 is
#     the same: the mean of the two middle values for even n);
#   - with 16385 rows the note "median and p95 estimated" appears and the
#     swpd median is within 1% of python's (D11's relative error bound);
#   - peak RSS with 200,000 rows is at most SLACK KiB above 20,000 rows'
#     (before the cap: 8 bytes a row per column up to 65,536 rows, 17
#     columns: about 9 MiB more; with it about 0.3 MiB).
set -eu
command -v python3 >/dev/null || exit 77
[ -x /usr/bin/time ] || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
SLACK=2048

gen() {   # gen ROWS FILE: one series, swpd climbing slowly with noise
    python3 - "$1" "$2" <<'PY'
import sys, random
n, out = int(sys.argv[1]), sys.argv[2]
random.seed(7)
swpd = []
with open(out, "w") as f:
    f.write("procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n")
    f.write(" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n")
    for i in range(n + 1):          # the first row is the since-boot one
        s = 100000 + i * 3 + random.randint(0, 5000)
        if i:
            swpd.append(s)
        f.write(" 1  0 %6d  50000   1000  20000    0 %4d     0  %4d  300  500 10 20 60 10  0\n"
                % (s, random.randint(0, 900), random.randint(0, 9000)))
with open(out + ".median", "w") as m:
    import statistics
    m.write("%r\n" % statistics.median(swpd))
PY
}

median_of() {   # the swpd median column of the summary
    awk '$1 == "swpd" { print $6; exit }' "$1"
}

gen 16384 "$tmp/a.txt"
"$BENCHLOG" summary -q "$tmp/a.txt" > "$tmp/a.out"
if grep -q 'median and p95 estimated' "$tmp/a.out"; then
    echo "16384 rows: percentiles should be exact"; exit 1
fi
want=$(cat "$tmp/a.txt.median")
got=$(median_of "$tmp/a.out")
python3 -c "import sys; w, g = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if abs(w - g) < 0.01 else 1)" "$want" "$got" ||
    { echo "16384 rows: swpd median $got, want $want"; exit 1; }

gen 16385 "$tmp/b.txt"
"$BENCHLOG" summary -q "$tmp/b.txt" > "$tmp/b.out"
grep -q 'median and p95 estimated (more than 16384 rows' "$tmp/b.out" ||
    { echo "16385 rows: no note that percentiles are estimated"; exit 1; }
want=$(cat "$tmp/b.txt.median")
got=$(median_of "$tmp/b.out")
case $got in ≈*) got=${got#≈} ;; *) echo "16385 rows: swpd median $got not marked as an estimate (≈)"; exit 1 ;; esac
python3 -c "import sys; w, g = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if abs(w - g) <= 0.01 * abs(w) else 1)" "$want" "$got" ||
    { echo "16385 rows: swpd median $got, not within 1% of $want"; exit 1; }

# Memory: AddressSanitizer holds freed memory back, so RSS says nothing there.
. "$TOP/tests/lib/rss.sh"
if asan_build; then exit 0; fi
gen 20000 "$tmp/c.txt"
gen 200000 "$tmp/d.txt"
small=$(peak_rss "$tmp/c.out" summary -q "$tmp/c.txt")
big=$(peak_rss "$tmp/d.out" summary -q "$tmp/d.txt")
if [ "$big" -gt $((small + SLACK)) ]; then
    echo "peak RSS: 20,000 rows $small KiB, 200,000 rows $big KiB (more than $SLACK KiB apart)"
    exit 1
fi
