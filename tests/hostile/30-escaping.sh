# Input-derived text escaped for where it goes (core/escape.h): Markdown
# and HTML in the report, gnuplot strings, CSV, the terminal.
EVIL='evil ![x](http://e.example/i.png) [y](http://e.example/) **b** <script>alert(1)</script> <img src=http://e.example/j.png>
# H1 heading'
export EVIL
hc esc-report-group-option 0 '' '
    "$B" report -o r2 --group "$EVIL" "$SEED0" "$SEED1"; rc=$?
    html_own r2/report.html || rc=99
    grep -q "^# H1" r2/report.md && rc=98'
hc esc-report-group-from-file-name 0 '' '
    mkdir logs; cp "$SEED1" "logs/$(printf "![x](http:%%2F%%2Fe.example%%2Fi.png) [y](http:%%2F%%2Fe.example) <b>")"
    "$B" report -o r2 logs; rc=$?
    html_own r2/report.html || rc=99'
hc esc-report-group-regex 0 '' '
    printf "kernel: <script>x</script> ![i](http://e.example/i.png)\n" > g.txt; cat "$SEED1" >> g.txt
    "$B" report -o r2 --group-regex "^kernel: (.*)" g.txt; rc=$?
    html_own r2/report.html || rc=99'
hc esc-report-seeds-self-contained 0 '' '
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
hc esc-terminal-summary-group 0 '' '
    "$B" summary --group "$(printf "g\033[31mred")" "$SEED1" > sum.txt 2>/dev/null; rc=$?
    grep -q "$(printf "\033")" sum.txt && rc=99
    grep -qF "g\\e[31mred" sum.txt || rc=98'
hc esc-csv-byte-exact 0 '' '
    "$B" parse -t contest --group "=HYPERLINK(\"http://e.example\",\"x\")" "$SEED1" > c.csv; rc=$?
    grep -qF ",\"=HYPERLINK(\"\"http://e.example\"\",\"\"x\"\")\"," c.csv || rc=99'
hc esc-csv-spreadsheet-safe 0 '' '
    "$B" parse --spreadsheet-safe -t contest --group "@SUM(1+1)" "$SEED1" > c.csv; rc=$?
    # the text cell gets its quote; the number columns are as without it
    grep -q ",'"'"'@SUM(1+1),option," c.csv || rc=99
    "$B" parse -t contest --group "@SUM(1+1)" "$SEED1" > plain.csv
    [ "$(cut -d, -f10- c.csv | cksum)" = "$(cut -d, -f10- plain.csv | cksum)" ] || rc=98'
hc esc-gnuplot-group 0 'wrote' '
    "$B" plot contest -q -o out --group "x'"'"'; system(\"touch pwned\") #\`touch pwned2\`" "$SEED1"; rc=$?
    [ -e out/pwned ] || [ -e out/pwned2 ] || [ -e pwned ] && rc=99; true'
hc esc-file-named-pipe-cmd 1 'No such file' '"$B" parse "|touch pwned" "<x"; rc=$?; [ -e pwned ] && rc=99'
