#!/bin/sh
# docs/scaling.md's worked example, run as written: the commands between
# its "example" markers are extracted and run through GNU parallel on this
# machine (local jobs only), over an archive made here like the one the
# page describes: 3 kernels x 40 gzipped logs x 10 mtest01 + time -v runs
# (tests/gen-mtest-logs, seeds 1-120, so the numbers are reproducible).
# The page's "remote" command is run too, with its --sshlogin list
# replaced by ":" (this machine, no ssh), and its xargs and "tables"
# (parse per chunk, compare over the CSV tables) examples.
#
# Expected values come from benchlog itself, in one pass over the whole
# archive, and from python3 over the logs: the merged partials must give
#   - the same groups and columns, and for each the same n, mean, sd,
#     ci95, min and max as printed in the one-pass text output;
#   - n, min and max equal to python3's count, min and max of the
#     "Elapsed (wall clock) time" values of the logs (an oracle that does
#     not use benchlog);
#   - every percentile within 1% of the one-pass (exact) value, marked
#     "sketch" (docs/statistics.md D11), the one-pass ones "exact";
# and the output shown on the page must be the merged output.
set -eu
command -v parallel >/dev/null || exit 77
command -v python3 >/dev/null || exit 77
doc="$TOP/docs/scaling.md"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
ln -s "$BENCHLOG" "$tmp/bin/benchlog"
PATH="$tmp/bin:$PATH"
export PATH
cd "$tmp"

seed=0
for k in 2.4.19 2.4.20-rc1 2.5.44-mm2; do
    mkdir -p "archive/$k"
    for i in $(seq -w 1 40); do
        seed=$((seed + 1))
        python3 "$TOP/tests/gen-mtest-logs" log.tmp 10 "$seed"
        { echo "$k"; cat log.tmp; } | gzip -n > "archive/$k/run-$i.log.gz"
    done
done
rm -f log.tmp

# The blocks of the page: ```sh fences after a "<!-- NAME -->" marker.
block() {
    awk -v name="$1" '
        $0 == "<!-- " name " -->" { want = 1; next }
        want && /^```/ { if (on) exit; on = 1; next }
        on { print }' "$doc"
}
block example > example.sh
block output > shown.txt
block remote > remote.sh
for f in example.sh shown.txt remote.sh; do
    [ -s "$f" ] || { echo "docs/scaling.md: no ${f%.*} block"; exit 1; }
done
grep -q 'parallel' example.sh || { echo "the example does not use parallel"; exit 1; }

sh -eu example.sh
[ -s merged.txt ] && [ -s one-pass.txt ] || { echo "the example wrote no merged.txt / one-pass.txt"; exit 1; }
if ! cmp -s shown.txt merged.txt; then
    echo "the output shown in docs/scaling.md is not what the example prints:"
    diff shown.txt merged.txt | head -20
    exit 1
fi

# the remote form, on this machine only
sed 's/--sshlogin [^ ]*/--sshlogin :/' remote.sh > remote-local.sh
grep -q -- '--sshlogin :' remote-local.sh || { echo "the remote block has no --sshlogin"; exit 1; }
sh -eu remote-local.sh > merged-remote.txt 2> remote.err || { cat remote.err; exit 1; }

# the xargs form (elapsed_s only) must give the same rows as well
block xargs > xargs.sh
grep -q 'xargs' xargs.sh || { echo "docs/scaling.md: no xargs block"; exit 1; }
# (its partials are parts/part.*, apart from the example's parts/N.blp)
sh -eu xargs.sh > merged-xargs.txt
# the tables form: compare over the CSV tables of the chunks
block tables > tables.sh
sh -eu tables.sh > compare.txt
grep -q '^ *2.4.20-rc1 ' compare.txt && grep -q '^ *2.5.44-mm2 ' compare.txt ||
    { echo "the tables example compared nothing:"; cat compare.txt; exit 1; }

# an independent oracle for n, min, max: the logs' elapsed times
for k in 2.4.19 2.4.20-rc1 2.5.44-mm2; do
    for f in archive/"$k"/*.log.gz; do gzip -dc "$f"; done |
        sed -n "s/^.*Elapsed (wall clock) time (h:mm:ss or m:ss): /$k /p"
done > elapsed.txt

python3 - <<'EOF'
import re
def table(path):
    """(group, column) -> dict of the text table's fields (two or more
    blanks between fields: the time table's command holds single ones)."""
    rows, head = {}, None
    for line in open(path, encoding="utf-8"):
        f = re.split(r"\s{2,}", line.strip())
        if not line.split() or line.startswith(("==", "pct:")):
            continue
        if f[0] == "group":
            head = f
            continue
        if head and len(f) == len(head):
            d = dict(zip(head, f))
            rows[(d["group"], d["column"])] = d
    return rows

bad = 0
def fail(msg):
    global bad
    bad += 1
    print(msg)

one = table("one-pass.txt")
if len(one) != 12:
    fail(f"one-pass.txt: {len(one)} group x column rows, want 3 x 4")
for name in ("merged.txt", "merged-remote.txt", "merged-xargs.txt"):
    got = table(name)
    want = set(one) if name != "merged-xargs.txt" else {k for k in one if k[1] == "elapsed_s"}
    if set(got) != want:
        fail(f"{name}: rows {sorted(got)} != one pass {sorted(one)}")
    for key in want:
        a, b = one[key], got.get(key)
        if b is None:
            continue
        for f in ("n", "mean", "sd", "ci95", "min", "max"):
            if a[f] != b[f]:
                fail(f"{name} {key} {f}: {b[f]}, one pass {a[f]}")
        for f in a:
            if f.startswith("p") and f not in ("pct",):
                x, y = float(a[f].lstrip("≈")), float(b[f].lstrip("≈"))   # ≈: a sketch estimate
                if abs(x - y) > 0.01 * abs(x):
                    fail(f"{name} {key} {f}: {y}, one pass {x}: beyond 1%")
        if a["pct"] != "exact" or b["pct"] != "sketch":
            fail(f"{name} {key} pct: {b['pct']}, one pass {a['pct']}")

from decimal import Decimal
def seconds(t):     # m:ss.cc or h:mm:ss, in decimal so 1:59.96 is 119.96
    p = [Decimal(x) for x in t.split(":")]
    s = p[-1] + 60 * p[-2] + (3600 * p[-3] if len(p) > 2 else 0)
    return float(s)
ela = {}
for line in open("elapsed.txt"):
    k, t = line.split()
    ela.setdefault(k, []).append(seconds(t))
got = table("merged.txt")
for k, v in ela.items():
    r = got.get((k, "elapsed_s"))
    if r is None:
        fail(f"merged.txt: no elapsed_s row for {k}")
        continue
    if int(r["n"]) != len(v) or float(r["min"]) != min(v) or float(r["max"]) != max(v):
        fail(f"{k} elapsed_s: n {r['n']} min {r['min']} max {r['max']}, "
             f"the logs have {len(v)} values from {min(v)} to {max(v)}")
    mean = sum(v) / len(v)
    if abs(float(r["mean"]) - mean) > 5e-6 * abs(mean):
        fail(f"{k} elapsed_s mean {r['mean']}, the logs' {mean}")
if len(ela) != 3:
    fail(f"elapsed times found for {len(ela)} kernels, want 3")
raise SystemExit(1 if bad else 0)
EOF
