# Command-line options: every usage error exits 2 with its message and
# reads nothing; run under the sanitizers by `make SANITIZE=... check`
# (plot --term jpeg once printed its message from freed memory).
hc opt-term-jpeg 2 '^benchlog plot: --term takes png, svg, dumb, not "jpeg"$' \
    '"$B" plot swpd --term jpeg "$SEED0"'
hc opt-term-list-jpeg 2 'not "jpeg"$' '"$B" plot swpd --term png,jpeg "$SEED0"'
hc opt-term-empty 2 'not ","$' '"$B" plot swpd --term , "$SEED0"'
hc opt-term-long-word 2 'not "x{300}"$' '"$B" plot swpd --term "png,$(printf "%0300d" 0 | tr 0 x)" "$SEED0"'
hc opt-plot-kind 2 'unknown chart "nosuch"' '"$B" plot nosuch "$SEED0"'
hc opt-plot-no-kind 2 'which chart\?' '"$B" plot'
hc opt-parse-format 2 '--format takes csv, tsv, jsonl.* not "xml"' '"$B" parse -f xml "$SEED0"'
hc opt-parse-table 2 'unknown table "nosuch"' '"$B" parse -t nosuch "$SEED0"'
hc opt-stats-columns 2 '-c takes column names' '"$B" stats -c , "$SEED0"'
hc opt-report-jobs-0 2 '-j takes a number of jobs from 1 to 256, not "0"' '"$B" report -o rep -j 0 "$SEED0"'
hc opt-report-jobs-word 2 'not "abc"' '"$B" report -o rep -j abc "$SEED0"'
hc opt-report-jobs-huge 2 'not "99999999999999999999"' '"$B" report -o rep -j 99999999999999999999 "$SEED0"'
hc opt-confidence 2 '--confidence takes a number between 0 and 1, not "2"' '"$B" compare --confidence 2 "$SEED0"'
hc opt-group-regex 2 '--group-regex: missing closing parenthesis' '"$B" parse --group-regex "(" "$SEED0"'
hc opt-unknown 2 "unrecognized option '--nope'" '"$B" parse --nope "$SEED0"'
hc opt-quoted 2 '--quoted takes include or exclude, not "maybe"' '"$B" summary --quoted maybe "$SEED0"'
hc opt-missing-arg 2 "option '--baseline' requires an argument" '"$B" compare --baseline'
hc opt-report-onto-file 2 'exists and is not a folder' '"$B" report -o out/earlier.csv "$SEED0"'
hc opt-unknown-command 2 'unknown command "nosuch"' '"$B" nosuch'
hc opt-escape-in-value 2 'not "\\e]0;pwn\\x07"$' '"$B" plot swpd --term "$(printf "\033]0;pwn\007")" "$SEED0"; rc=$?; grep -q "$(printf "\033")" err && rc=99'
# A newline (or CR) in an option value never starts a line on stderr
# (core/escape.h E7: what a conversion puts into a diagnostic shows LF as
# \n, CR as \r): no line of stderr may begin with the forged text.
FORGE=$(printf 'nope\nbenchlog: forged line\r')
export FORGE
noforge() { ! grep -q '^benchlog: forged' err; }
hc opt-newline-compare-baseline 2 'no group "nope\\nbenchlog: forged line\\r"' '
    "$B" compare --baseline "$FORGE" "$SEED1" > /dev/null; rc=$?; noforge || rc=99'
hc opt-newline-report-baseline 2 'no group "nope\\nbenchlog: forged line\\r"' '
    "$B" report -q -o r2 --baseline "$FORGE" "$SEED1"; rc=$?; noforge || rc=99'
hc opt-newline-parse-table 2 'unknown table "nope\\nbenchlog: forged line\\r"' '
    "$B" parse -t "$FORGE" "$SEED1"; rc=$?; noforge || rc=99'
hc opt-newline-plot-term 2 'not "nope\\nbenchlog: forged line\\r"' '
    "$B" plot swpd --term "$FORGE" "$SEED0"; rc=$?; noforge || rc=99'
hc opt-newline-stats-column 1 "no table in the input has a column 'nope\\\\nbenchlog: forged line\\\\r'" '
    "$B" stats -c "$FORGE" "$SEED1" > /dev/null; rc=$?; noforge || rc=99'
hc opt-newline-stats-group 1 "has no column 'nope\\\\nbenchlog: forged line\\\\r' to group by" '
    "$B" stats -g "$FORGE" "$SEED1" > /dev/null; rc=$?; noforge || rc=99'
hc opt-newline-long-option 2 "unrecognized option '--nope\\\\nbenchlog: forged line\\\\r'" '
    "$B" summary "--$FORGE" "$SEED1"; rc=$?; noforge || rc=99'
hc opt-newline-input-name 1 'nope\\nbenchlog: forged line\\r: No such file' '
    "$B" parse "$FORGE"; rc=$?; noforge || rc=99'
hc opt-newline-group-regex 2 'group-regex: missing closing parenthesis' '
    "$B" parse --group-regex "($FORGE" "$SEED1"; rc=$?; noforge || rc=99'
# A TAB in a quoted value is shown as \t like the other control bytes
# (issue 34 item 5), so a value's blanks are not mistaken for layout.
hc opt-tab-compare-baseline 2 'no group "no\\tpe"' '
    "$B" compare --baseline "$(printf "no\tpe")" "$SEED1" > /dev/null; rc=$?
    ! grep -q "$(printf "\t")" err || rc=99'
