#!/bin/sh
# gnuplot is found on PATH and run in the output folder:
# - a relative PATH entry ("bin", relative to where benchlog was started)
#   still finds it, though gnuplot runs elsewhere (it used to fail: the
#   relative path was run from inside the output folder);
# - a gnuplot that cannot run (its interpreter is missing) makes each
#   chart fail with "gnuplot: cannot run <path>: <reason>", and the report
#   fails (exit status 1): no report is written.
set -eu
command -v gnuplot >/dev/null || { echo "skip: no gnuplot"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
mkdir bin broken
ln -s "$(command -v gnuplot)" bin/gnuplot
seed="$TOP"/fixtures/seeds/000_a7bf8587c1dba76c.txt
rc=0
PATH="bin:/usr/bin:/bin" "$BENCHLOG" plot swpd -o rel "$seed" > out 2> err || rc=$?
[ "$rc" -eq 0 ] || { echo "relative PATH: exit $rc"; cat err; exit 1; }
test -s rel/swpd.png
test -s rel/swpd.svg

printf '#!/nonexistent/interpreter\n' > broken/gnuplot
chmod +x broken/gnuplot
rc=0
PATH="$tmp/broken:/usr/bin:/bin" "$BENCHLOG" report -q -o rep "$seed" > out 2> err || rc=$?
[ "$rc" -eq 1 ] || { echo "broken gnuplot: exit $rc"; cat err; exit 1; }
grep -q "chart: gnuplot: cannot run $tmp/broken/gnuplot: " err || { cat err; exit 1; }
grep -q 'a chart could not be drawn; rep left as it was' err || { cat err; exit 1; }
test ! -e rep

# A gnuplot that draws the PNG but not the SVG (it is told fmts = 'png'
# whatever it was asked): with -j2 each chart's PNG and SVG are gnuplot
# runs of their own on the pool (report/report.c), and a missing file is
# still found and named. Which one is named first depends on timing: the
# SVG run also writes the PNG here, so either of a swpd chart's files can
# be the one found missing.
mkdir pngonly
cat > pngonly/gnuplot <<EOS
#!/bin/sh
script=
for a in "\$@"; do script=\$a; done
exec $(command -v gnuplot) -d -e "fmts = 'png'" "\$script"
EOS
chmod +x pngonly/gnuplot
rc=0
PATH="$tmp/pngonly:/usr/bin:/bin" "$BENCHLOG" report -q -j2 -o half "$seed" > out 2> err || rc=$?
[ "$rc" -eq 1 ] || { echo "png-only gnuplot: exit $rc"; cat err; exit 1; }
grep -Eq "swpd(-stutter)? chart: gnuplot made no swpd(-stutter)?\.(svg|png)$" err || { echo "png-only gnuplot:"; cat err; exit 1; }
test ! -e half
