# Memory: running out anywhere (benchlog's allocations, or GLib's inside
# GMime) prints "benchlog: out of memory", exits 1 and leaves no temporary.
# ulimit -v cannot work under AddressSanitizer (its shadow memory alone is
# larger), so these cases skip in a sanitizer build.
bigmail() {   # a mail whose body is $1 MB of short lines
    python3 -c "
import sys
sys.stdout.write('From a@b Thu Jan  1 00:00:00 2020\nFrom: user@example.org\nSubject: big\n\n' + ('x' * 99 + '\n') * ($1 * 10000))" > big.mbox
}
hc oom-report-gmime 1 '^benchlog: out of memory$' '
    [ -z "$SANITIZE" ] || { skip "ulimit -v under a sanitizer"; exit 0; }
    bigmail 200
    ( ulimit -v 400000; "$B" report -q -o rep "$SEED0" big.mbox )'
hc oom-parse-o-gmime 1 '^benchlog: out of memory$' '
    [ -z "$SANITIZE" ] || { skip "ulimit -v under a sanitizer"; exit 0; }
    bigmail 200
    ( ulimit -v 400000; "$B" parse -q -o out "$SEED0" big.mbox )'
hc oom-summary-gmime 1 '^benchlog: out of memory$' '
    [ -z "$SANITIZE" ] || { skip "ulimit -v under a sanitizer"; exit 0; }
    bigmail 200
    ( ulimit -v 400000; "$B" summary "$SEED0" big.mbox > /dev/null )'
# An HTML page over the 64 MiB it is parsed whole up to (input/html.h H4)
# is read as plain text, with a warning: memory stays bounded, and a BSD
# time line on a line of its own is still read (1 record).
hc html-over-cap 0 'an HTML page over 64 MiB; read as plain text' '
    { printf "<!DOCTYPE html>\n<html><body>\n"
      head -c 68000000 /dev/zero | tr "\0" x | fold -w 99
      printf "\n<pre>\n  1.11 real         0.48 user         0.57 sys\n</pre></body></html>\n"
    } > big.html
    "$B" parse -t time big.html > t.csv; rc=$?
    [ "$(grep -c ",bsd," t.csv)" = 1 ] || rc=98'
hc long-line 0 'line longer than 1048576 bytes, skipped' '
    { head -c 2000000 /dev/zero | tr "\0" x; echo; cat "$SEED0"; } > long.txt
    "$B" parse -o out long.txt'
hc many-long-lines 0 'line longer than' '
    for i in 1 2 3; do head -c 1100000 /dev/zero | tr "\0" y; echo; done > long.txt
    cat "$SEED1" >> long.txt; "$B" parse -o out long.txt'
# A mail line over 1 MiB (a header, a folded header, a body line) is let
# go as it is read, so memory stays bounded: skipped with a warning naming
# it, and the message around it read as before (input/mail.c R15).
longmail() {   # longmail MB: an mbox, line 3 a Subject: of MB MiB, then 4 vmstat rows
    python3 -c "
import sys
o = sys.stdout.buffer
o.write(b'From a@b Thu Jan  1 00:00:00 2020\nFrom: user@example.org\nSubject: ')
x = b'x' * (1 << 20)
for i in range($1):
    o.write(x)
o.write(b'\nMessage-ID: <l@example.org>\n\n')"
    sed -n 57,62p "$SEED0"
}
hc mail-subject-1gib 0 '^-:3: line longer than 1048576 bytes, skipped$' '
    [ -z "$SANITIZE" ] || { skip "ulimit -v under a sanitizer"; exit 0; }
    # 1 GiB on stdin, under 200 MB of address space: never held
    longmail 1024 | ( ulimit -v 200000; "$B" parse -t vmstat - > v.csv ); rc=$?
    [ "$(wc -l < v.csv)" -eq 5 ] || rc=99'
hc mail-subject-3mib 0 '^big.mbox:3: line longer than 1048576 bytes, skipped$' '
    longmail 3 > big.mbox; "$B" parse -t vmstat big.mbox > v.csv; rc=$?
    [ "$(wc -l < v.csv)" -eq 5 ] || rc=99
    grep -q "^big.mbox,8,l@example.org," v.csv || rc=98'
hc mail-subject-3mib-strict 1 'line longer than 1048576 bytes' '
    longmail 3 > big.mbox; "$B" parse --strict -t vmstat big.mbox > /dev/null'
hc mail-folded-header-long 0 '^f.eml:3: line longer than 1048576 bytes, skipped$' '
    { printf "From: user@example.org\nSubject: vmstat\n "; head -c 2000000 /dev/zero | tr "\0" y
      printf "\nMessage-ID: <f@example.org>\n\n"; sed -n 57,62p "$SEED0"; } > f.eml
    "$B" parse -t vmstat f.eml > v.csv; rc=$?
    # the subject is what the first line of the field said
    [ "$(grep -c ",f@example.org,,vmstat," v.csv)" -eq 4 ] || rc=99'
hc mail-body-line-long 0 '^b.eml:8: line longer than 1048576 bytes, skipped$' '
    { printf "From: user@example.org\nSubject: vmstat\nMessage-ID: <b@example.org>\n\n"
      sed -n 57,59p "$SEED0"; head -c 3000000 /dev/zero | tr "\0" z; echo; sed -n 60,62p "$SEED0"; } > b.eml
    "$B" parse -t vmstat b.eml > v.csv; rc=$?
    [ "$(wc -l < v.csv)" -eq 5 ] || rc=99'
# A message larger than the cap (BENCHLOG_MAIL_MAX, 256 MiB by default;
# 4 MiB here) ends the input there, like a truncated .gz: exit 1, the
# line the cap falls in named, what came before it kept.
capmail() {   # a message of about 15 MB: 200,000 vmstat rows
    { printf "From: user@example.org\nSubject: vmstat\nMessage-ID: <c@example.org>\n\n"; sed -n 57,58p "$SEED0"
      python3 -c "import sys; sys.stdout.write(' 1  0  0 14696 10000 20000 30000    0    0     0     0  100   200  1  2 97\n' * 200000)"; }
}
hc mail-cap-single 1 'mail input larger than 4194304 bytes' '
    capmail > cap.eml
    n=$(( $(head -c 4194304 cap.eml | wc -l) + 1 ))
    BENCHLOG_MAIL_MAX=4194304 "$B" parse -t vmstat cap.eml > v.csv; rc=$?
    grep -qx "cap.eml:$n: mail input larger than 4194304 bytes (BENCHLOG_MAIL_MAX): not read from this line on" err || rc=99
    # every row before that line is a record
    [ "$(wc -l < v.csv)" -eq $((n - 7 + 1)) ] || rc=98'
hc mail-cap-mbox 1 'mail message larger than 4194304 bytes' '
    { printf "From a@b Thu Jan  1 00:00:00 2020\nFrom: user@example.org\nSubject: one\nMessage-ID: <1@example.org>\n\n"
      sed -n 57,62p "$SEED0"; echo; echo "From a@b Thu Jan  1 00:00:00 2020"; capmail; } > cap.mbox
    BENCHLOG_MAIL_MAX=4194304 "$B" parse -t vmstat cap.mbox > v.csv; rc=$?
    [ "$(grep -c ",1@example.org," v.csv)" -eq 4 ] || rc=99'
hc env-mail-max-bad 2 '^benchlog: BENCHLOG_MAIL_MAX takes a number of bytes from 4194304 to 1073741824, not "12x"$' '
    BENCHLOG_MAIL_MAX=12x "$B" parse "$SEED0"'
