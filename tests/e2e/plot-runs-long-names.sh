#!/bin/sh
# The runs chart's legend cuts a group's name to 40 characters, but names
# that differ only past their first 40 stay told apart (plot/runs.c
# short_names): fixtures/time/17-timev-partial-ranges-igenvar.txt has one
# group per iGenVar command, and the commands differ in their inputs and
# in their output folder (results/.../L1/, S1/, S1L1/, ... read off the
# file), 100 characters and more in. Before, all six drawn groups read
# "17-timev-partial-ranges-igenvar [`./buil…". Each legend name must be at
# most 40 characters, all six different, each with its output folder.
# Then a made-up pair of long names in Chinese that differ in their last
# character: cut on character boundaries (valid UTF-8), still different.
set -eu
command -v python3 >/dev/null || { echo "python3 missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
"$BENCHLOG" plot runs -q -o p --term svg "$TOP/fixtures/time/17-timev-partial-ranges-igenvar.txt" > out 2> err ||
	{ cat err; echo "plot runs failed"; exit 1; }
# the same beside realworld 15's two groups (names of another file: they
# are not the iGenVar names' peers and change nothing in them)
"$BENCHLOG" plot runs -q -o q --term svg "$TOP/fixtures/time/15-time-blog-bash-p-default-v-cn.txt" \
	"$TOP/fixtures/time/17-timev-partial-ranges-igenvar.txt" > out 2> err ||
	{ cat err; echo "plot runs (15 and 17) failed"; exit 1; }
for gp in p/runs.gp q/runs.gp; do
	python3 - $gp L1 S1 S1L1 S1L2 S1L3 S2L1 <<'PY'
import re, sys
gp = open(sys.argv[1], encoding="utf-8").read()
names = [n for n in re.findall(r"linespoints [^\n]* title '(.*?) \(\d+ runs?\):", gp) if n.startswith("17-")]
want = sys.argv[2:]
assert len(names) == len(want), names
assert len(set(names)) == len(names), names
for n, w in zip(names, want):
    assert len(n) <= 40, (len(n), n)
    assert re.search(r"/%s…$" % w, n), (w, n)
PY
done
printf '=== %s\n\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:01.00\n\tExit status: 0\n=== %s\n\tElapsed (wall clock) time (h:mm:ss or m:ss): 0:02.00\n\tExit status: 0\n' \
	"测试组测试组测试组测试组测试组测试组测试组测试组测试组测试组测试组测试组测试组测试组甲" "测试组测试组测试组测试组测试组测试组测试组测试组测试组测试组测试组测试组测试组测试组乙" > cjk.txt
"$BENCHLOG" plot runs -q -o c --term svg --group-regex '^=== (.+)' cjk.txt > out 2> err ||
	{ cat err; echo "plot runs (cjk) failed"; exit 1; }
python3 - c/runs.gp <<'PY'
import re, sys
gp = open(sys.argv[1], "rb").read().decode("utf-8")   # fails on a cut character
names = re.findall(r"linespoints [^\n]* title '(.*?) \(\d+ runs?\):", gp)
assert len(names) == 2 and names[0] != names[1], names
assert all(len(n) <= 40 for n in names), names
assert names[0].endswith("甲") and names[1].endswith("乙"), names
PY
exit 0
