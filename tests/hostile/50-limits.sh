# Memory: running out anywhere (benchlog's allocations, or GLib's inside
# GMime) prints "benchlog: out of memory", exits 1 and leaves no temporary.
# ulimit -v cannot work under AddressSanitizer (its shadow memory alone is
# larger), so these cases skip in a sanitizer build.
bigmail() {   # a mail whose Subject: is $1 MB long
    python3 -c "
import sys
sys.stdout.write('From a@b Thu Jan  1 00:00:00 2020\nFrom: user@example.org\nSubject: ' + 'x' * ($1 * 1000000) + '\n\nbody\n')" > big.mbox
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
hc long-line 0 'line longer than 1048576 bytes, skipped' '
    { head -c 2000000 /dev/zero | tr "\0" x; echo; cat "$SEED0"; } > long.txt
    "$B" parse -o out long.txt'
hc many-long-lines 0 'line longer than' '
    for i in 1 2 3; do head -c 1100000 /dev/zero | tr "\0" y; echo; done > long.txt
    cat "$SEED1" >> long.txt; "$B" parse -o out long.txt'
