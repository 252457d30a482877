#!/bin/sh
# The golden CSVs are what their oracle scripts write (worked out without
# benchlog: fixtures/*/README.md). Each script is run again here and its
# output compared byte for byte with the committed file, so a golden file
# edited by hand or regenerated with benchlog, or an oracle left behind by
# a new column, fails here.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fx="$TOP/fixtures"
bad=0
same() {   # same GOT WANT
    if ! cmp -s "$1" "$2"; then
        echo "FAIL: $2 is not what its oracle writes:"
        diff "$1" "$2" | head -5
        bad=1
    fi
}

# vmstat: every case expect.pl knows, each table it has a file of
cd "$fx/vmstat"
n=0
for f in *.vmstat.csv *.events.csv; do
    c=${f%.*.csv}
    # real posts with an oracle of their own (below)
    [ "$c" = vmstat-cut-columns-pdflush ] && continue
    [ "$c" = v13-rows-before-header ] && continue
    case $c in vmstat-before-header-*) continue ;; esac
    t=${f#"$c".}
    t=${t%.csv}
    perl expect.pl "$c" "$t" > "$tmp/out.csv"
    same "$tmp/out.csv" "$f"
    n=$((n + 1))
done
perl expect.pl s-sinceboot vmstat drop > "$tmp/out.csv"
same "$tmp/out.csv" s-sinceboot-drop.stdout
perl expect.pl e-custom-re events > "$tmp/out.csv"
same "$tmp/out.csv" e-custom-re.stdout
[ "$n" -ge 30 ] || { echo "FAIL: only $n vmstat cases"; exit 1; }

python3 expect-cut.py vmstat-cut-columns-pdflush.eml > "$tmp/out.csv"
same "$tmp/out.csv" vmstat-cut-columns-pdflush.vmstat.csv
for c in vmstat-before-header-k6 vmstat-before-header-mmap002 vmstat-before-header-quoted; do
    python3 expect-before.py "$c.eml" > "$tmp/out.csv"
    same "$tmp/out.csv" "$c.vmstat.csv"
done
mkdir "$tmp/v13"
cp v13-rows-before-header.txt 21-vmstat-w-SM-markdown-repeated.vmstat.csv v13-expected.py "$tmp/v13/"
(cd "$tmp/v13" && python3 v13-expected.py)
same "$tmp/v13/v13-rows-before-header.vmstat.csv" v13-rows-before-header.vmstat.csv

# contest: the raw real-world logs, and the one-header table of a real post
cd "$fx/contest"
for c in 01-contest-raw-wrapped-histogram-bashtime 03-contest-old-format-tabs-wrapped; do
    perl expect-raw.pl "$c.txt" > "$tmp/out.csv"
    same "$tmp/out.csv" "$c.contest.csv"
done
python3 expect-onehdr.py contest-onehdr-gcc32.eml > "$tmp/out.csv"
same "$tmp/out.csv" contest-onehdr-gcc32.contest_report.csv

# latency: the real cyclictest histogram with elided rows (the script
# writes its CSVs beside its input)
mkdir "$tmp/latency"
cp "$fx/latency/expected-elided.py" "$fx/latency/cyclictest-openshift-elided.txt" "$tmp/latency/"
(cd "$tmp/latency" && python3 expected-elided.py)
for t in latency latency_series; do
    same "$tmp/latency/cyclictest-openshift-elided.$t.csv" "$fx/latency/cyclictest-openshift-elided.$t.csv"
done

# time and mtest01: the scripts write their CSVs into the folder they run in
for d in time mtest01; do
    mkdir "$tmp/$d"
    cp "$fx/$d/expected.py" "$tmp/$d/"
    (cd "$tmp/$d" && python3 expected.py)
    for f in "$tmp/$d"/*.csv; do
        same "$f" "$fx/$d/$(basename "$f")"
    done
done
exit $bad
