# Input-derived text escaped for where it goes (core/escape.h): Markdown
# and HTML in the report, gnuplot strings, CSV, the terminal.
EVIL='evil ![x](http://e.example/i.png) [y](http://e.example/) **b** <script>alert(1)</script> <img src=http://e.example/j.png>
# H1 heading'
export EVIL
hc esc-report-group-option 0 "$ACC" '
    "$B" report -o r2 --group "$EVIL" "$SEED0" "$SEED1"; rc=$?
    html_own r2/report.html || rc=99
    grep -q "^# H1" r2/report.md && rc=98'
hc esc-report-group-from-file-name 0 "$ACC" '
    mkdir logs; cp "$SEED1" "logs/$(printf "![x](http:%%2F%%2Fe.example%%2Fi.png) [y](http:%%2F%%2Fe.example) <b>")"
    "$B" report -o r2 logs; rc=$?
    html_own r2/report.html || rc=99'
hc esc-report-group-regex 0 "$ACC" '
    printf "kernel: <script>x</script> ![i](http://e.example/i.png)\n" > g.txt; cat "$SEED1" >> g.txt
    "$B" report -o r2 --group-regex "^kernel: (.*)" g.txt; rc=$?
    html_own r2/report.html || rc=99'
hc esc-report-seeds-self-contained 0 "$ACC" '
    "$B" report -o r2 "$FX/seeds"; rc=$?
    html_own r2/report.html || rc=99'
hc esc-terminal-file-name 1 'No such file' '
    "$B" parse "$(printf "a\033]0;pwned\007\033[2J\233""31m.txt")"; rc=$?
    grep -q "$(printf "\033")" err && rc=99
    grep -q "$(printf "\233")" err && rc=98
    grep -qF "a\\e]0;pwned\\x07\\e[2J\\x9b31m.txt" err || rc=97'
hc esc-terminal-quoted-value 0 'cannot read the value' '
    printf "\tCommand being timed: \"x\"\n\tUser time (seconds): 1.5\033[2Jx\n\tSystem time (seconds): 1.0\n" > t.txt
    "$B" parse -q t.txt > /dev/null; rc=$?
    grep -q "$(printf "\033")" err && rc=99'
hc esc-terminal-summary-group 0 NONE '
    "$B" summary --group "$(printf "g\033[31mred")" "$SEED1" > sum.txt 2>/dev/null; rc=$?
    grep -q "$(printf "\033")" sum.txt && rc=99
    grep -qF "g\\e[31mred" sum.txt || rc=98'
hc esc-csv-byte-exact 0 "$ACC" '
    "$B" parse -t contest --group "=HYPERLINK(\"http://e.example\",\"x\")" "$SEED1" > c.csv; rc=$?
    grep -qF ",\"=HYPERLINK(\"\"http://e.example\"\",\"\"x\"\")\"," c.csv || rc=99'
hc esc-csv-spreadsheet-safe 0 "$ACC" '
    "$B" parse --spreadsheet-safe -t contest --group "@SUM(1+1)" "$SEED1" > c.csv; rc=$?
    # the text cell gets its quote; the number columns are as without it
    grep -q ",'"'"'@SUM(1+1),option," c.csv || rc=99
    "$B" parse -t contest --group "@SUM(1+1)" "$SEED1" > plain.csv
    [ "$(cut -d, -f10- c.csv | cksum)" = "$(cut -d, -f10- plain.csv | cksum)" ] || rc=98'
hc esc-gnuplot-group 0 'wrote' '
    "$B" plot contest -o out --group "x'"'"'; system(\"touch pwned\") #\`touch pwned2\`" "$SEED1"; rc=$?
    [ -e out/pwned ] || [ -e out/pwned2 ] || [ -e pwned ] && rc=99; true'
hc esc-file-named-pipe-cmd 1 'No such file' '"$B" parse "|touch pwned" "<x"; rc=$?; [ -e pwned ] && rc=99'
# Terminal text everywhere (core/escape.h E7): getopt's own messages are
# off (it printed argv raw) and said again escaped; gnuplot's stderr,
# compare's and report's messages, and the group names of summary, stats
# and compare text show ESC as \e and C1 controls as \xHH. noraw FILE...:
# no ESC, BEL or C1 CSI byte in them.
noraw() { ! grep -q "$(printf '\033')\|$(printf '\007')\|$(printf '\302\233')" "$@"; }
EVT=$(printf 'g\033]0;pwned\007\033[2J\302\23331m')
export EVT
hc esc-getopt-long 2 "^benchlog parse: unrecognized option '--xg\\\\e\\]0;pwned\\\\x07\\\\e\\[2J\\\\xc2\\\\x9b31m'\$" '
    "$B" parse "--x$EVT" "$SEED0"; rc=$?; noraw err || rc=99'
hc esc-getopt-long-with-value 2 "unrecognized option '--xg\\\\e" '
    "$B" stats "--x$EVT=1" "$SEED0"; rc=$?; noraw err || rc=99'
hc esc-getopt-short 2 "^benchlog summary: invalid option -- '\\\\e'\$" '
    "$B" summary "-$(printf "\033")" "$SEED0"; rc=$?; noraw err || rc=99'
hc esc-getopt-missing-arg 2 "^benchlog plot: option requires an argument -- 'o'\$" '"$B" plot swpd -o'
hc esc-getopt-ambiguous 2 "^benchlog parse: option '--gr' is ambiguous; possibilities: '--group' '--group-regex' '--group-from'\$" '
    "$B" parse --gr x "$SEED0"'
hc esc-getopt-no-argument 2 "^benchlog report: option '--strict' doesn't allow an argument\$" '
    "$B" report -o r2 --strict="$EVT" "$SEED0"; rc=$?; noraw err || rc=99'
hc esc-gnuplot-stderr 1 'swpd.gp: \\e\]0;pwned\\x07\\e\[2J\\xc2\\x9b31m fake failure' '
    mkdir -p fakebin; printf "#!/bin/sh\nexec sh \"%s/fake-gnuplot\" evilerr \"\$@\"\n" "$HOST" > fakebin/gnuplot
    chmod +x fakebin/gnuplot; PATH="$W/fakebin:$PATH" "$B" plot swpd -q -o out "$SEED0"; rc=$?
    noraw err || rc=99'
hc esc-summary-vmstat-group 0 "$ACC" '
    "$B" summary --group "$EVT" "$SEED0" > sum.txt; rc=$?
    noraw sum.txt err || rc=99
    grep -qF "group g\\e]0;pwned\\x07\\e[2J\\xc2\\x9b31m" sum.txt || rc=98'
hc esc-stats-group 0 "$ACC" '
    "$B" stats --group "$EVT" "$SEED1" > s.txt; rc=$?
    noraw s.txt err || rc=99
    "$B" stats --format md --group "$EVT" "$SEED1" > s.md || rc=97
    noraw s.md || rc=98'
hc esc-stats-csv-names 0 "$ACC" '
    printf "grp,v%s\n%s,1\n%s,2\nB,3\nB,4\n" "$EVT" "$EVT" "$EVT" > e.csv
    "$B" stats -t "t$EVT" e.csv > s.txt; rc=$?
    noraw s.txt err || rc=99
    "$B" compare -g grp e.csv > c.txt; noraw c.txt err || rc=98'
hc esc-compare-baseline-missing 2 'no group "zzg\\e\]0;pwned' '
    "$B" compare --baseline "zz$EVT" "$SEED1" > c.txt; rc=$?; noraw c.txt err || rc=99'
hc esc-compare-one-group 1 'one group only \(g\\e\]0;pwned' '
    "$B" compare --group "$EVT" "$SEED1" > c.txt; rc=$?; noraw c.txt err || rc=99'
hc esc-report-baseline-missing 2 'no group "zzg\\e\]0;pwned' '
    "$B" report -q -o rep --baseline "zz$EVT" "$SEED1"; rc=$?; noraw err || rc=99'
hc esc-plot-dumb-c1 0 'wrote out/swpd \(script swpd.gp' '
    "$B" plot swpd --term dumb -o out --group "$EVT" "$SEED0" > d.txt; rc=$?
    noraw d.txt err || rc=99
    [ -s d.txt ] || rc=98'
hc esc-summary-event-text 0 "$ACC" '
    sed "s/^Around here, mp3blaster/Around here$(printf "\007\302\233")2J, mp3blaster/" "$SEED0" > ev.txt
    "$B" summary ev.txt > sum.txt; rc=$?
    noraw sum.txt err || rc=99
    grep -qF "stutter_start  Around here\\x07\\xc2\\x9b2J, mp3blaster" sum.txt || rc=98'
# Bytes valid UTF-8 or shown escaped (core/escape.h E1-E4, tables/table.h
# bl_utf8_clean, parsers/dispatch.c L2): --group-regex matches a line that
# is not UTF-8 byte by byte and says so once per input; 14 labels that
# differ only in bytes that are not UTF-8 stay 14 in CSV, JSON Lines and
# SQLite, every cell valid UTF-8; report.md and report.html hold only
# valid UTF-8 and no C0 or C1 control for any group name or event text.
labels14() {   # 14 labels, distinct as bytes (by hand: \xff, \xfe, two
               # overlongs, two surrogates, a cut sequence, past U+10FFFF,
               # two lone continuation bytes, the text \xff, U+FFFD, ?, U+00FF)
    for l in 'k\377' 'k\376' 'k\300\257' 'k\340\200\257' 'k\355\240\200' 'k\355\277\277' 'k\303' \
             'k\364\220\200\200' 'k\200' 'k\277' 'k\\xff' 'k\357\277\275' 'k?' 'k\303\277'; do
        printf "kernel: $l\nPASS ... 1000 bytes allocated.\n"
    done > l.txt
}
hc esc-group-regex-invalid-utf8 0 'g\.txt:1: line is not valid UTF-8; --group-regex matched it byte by byte' '
    printf "kernel: 2.4\377-x\nPASS ... 1000 bytes allocated.\nkernel: 2.6\376\nPASS ... 1001 bytes allocated.\n" > g.txt
    "$B" parse -t mtest01 --group-regex "^kernel: (.*)" g.txt > g.csv; rc=$?
    grep -qF ",2.4\\xff-x,option," g.csv || rc=99
    grep -qF ",2.6\\xfe,option," g.csv || rc=98
    [ "$(grep -c "line is not valid UTF-8" err)" -eq 1 ] || rc=97'
hc esc-labels-14-distinct 0 'l\.txt:1: line is not valid UTF-8' '
    labels14
    "$B" parse -q -t mtest01 --group-regex "^kernel: (.*)" l.txt > l.csv || rc=90
    "$B" parse -q -t mtest01 -f jsonl --group-regex "^kernel: (.*)" l.txt > l.jsonl || rc=91
    mkdir db; "$B" parse -q -f sqlite -o db --group-regex "^kernel: (.*)" l.txt || rc=92
    python3 - <<PY || rc=99
import csv, json, sqlite3, sys
c = list(csv.DictReader(open("l.csv", encoding="utf-8", errors="strict")))
j = [json.loads(x) for x in open("l.jsonl", encoding="utf-8", errors="strict")]
s = [r[0] for r in sqlite3.connect("db/benchlog.sqlite").execute("select \"group\" from mtest01")]
for name, v in (("csv", [r["group"] for r in c]), ("jsonl", [r["group"] for r in j]), ("sqlite", s)):
    if len(v) != 14 or len(set(v)) != 14:
        sys.exit("%s: %d rows, %d distinct groups, want 14: %r" % (name, len(v), len(set(v)), v))
PY
    true'
hc esc-report-valid-utf8-no-controls 0 "$ACC" '
    G=$(printf "g\007b\302\233c\377d\033e\001f\tg\rh\302\205i")
    sed "s/^Around here, mp3blaster/Around here$(printf "\007\302\233\377\033\001\r")x, mp3blaster/" "$SEED0" > ev.txt
    "$B" report -o r2 --group "$G" ev.txt "$SEED1"; rc=$?
    python3 - <<PY || rc=99
import re, sys
for f in ("r2/report.md", "r2/report.html"):
    t = open(f, "rb").read().decode("utf-8", errors="strict")
    bad = [hex(ord(ch)) for ch in t if (ord(ch) < 32 and ch not in "\n\t") or 0x7f <= ord(ch) <= 0x9f]
    if bad:
        sys.exit("%s: control characters %s" % (f, bad[:6]))
PY
    html_own r2/report.html || rc=98'
