# What already held when the catalogue was written: kept as cases so it
# goes on holding.
hc gz-truncated 1 'unexpected end of file|truncated' '
    gzip -c "$SEED0" | head -c 3000 > t.gz; "$B" parse -o out t.gz'
hc gz-corrupt 1 'corrupt|invalid|incorrect' '
    gzip -c "$SEED0" > c.gz; printf "\377\377\377\377" | dd of=c.gz bs=1 seek=200 conv=notrunc 2>/dev/null
    "$B" parse -o out c.gz'
hc gz-bomb 0 '^bomb.gz:1: line longer than 1048576 bytes, skipped$' '
    head -c 200000000 /dev/zero | gzip -1 > bomb.gz; cat "$SEED0" | gzip >> bomb.gz
    "$B" parse -o out bomb.gz'
hc gz-trailing-garbage 0 'trailing garbage' '
    gzip -c "$SEED0" > g.gz; echo junk >> g.gz; "$B" parse -o out g.gz'
hc gz-trailing-garbage-strict 1 'trailing garbage' '
    gzip -c "$SEED0" > g.gz; echo junk >> g.gz; "$B" parse --strict -o out g.gz'
hc nul-bytes 0 "$ACC" '
    { head -c 100 "$SEED0"; printf "\0\0\0"; cat "$SEED0"; } > n.txt; "$B" parse -o out n.txt'
hc utf16 0 "$ACC" '
    iconv -f UTF-8 -t UTF-16 "$SEED0" > u16.txt; "$B" parse -o out u16.txt'
# UTF-16 text is converted 64 KiB at a time, and vmstat reads a row in
# place when the buffer has room after it: a row that ends at the end of
# a converted piece gives the same table as the UTF-8 file, wherever the
# rows fall (the blank lines in front move them a byte each); run under
# the sanitizer build, a read past the piece fails the case
hc utf16-vmstat-rows 0 NONE '
    python3 - <<PY
h = "procs ---memory--- ---swap-- ---io--- -system-- ----cpu----\\n r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\\n"
r = " 1  0      0 100000  2000 300000    0    0     1    2  100  200  1  2 97  0  0\\n"
for k in range(len(r)):
    t = "\\n" * k + h + r * 1800
    open("u8-%d.txt" % k, "w").write(t)
    open("u16-%d.txt" % k, "wb").write(b"\\xff\\xfe" + t.encode("utf-16-le"))
PY
    rc=0
    for f in u8-*.txt; do
        "$B" parse -q --group g -t vmstat "$f" | cut -d, -f2- > a.csv
        "$B" parse -q --group g -t vmstat "u16-${f#u8-}" | cut -d, -f2- > b.csv
        [ -s a.csv ] && cmp -s a.csv b.csv || rc=99
    done'
hc crlf 0 "$ACC" '
    sed "s/\$/\r/" "$SEED0" > crlf.txt; "$B" parse -o out crlf.txt
    [ -s out/vmstat.csv ] || rc=99'
hc cr-only 0 "$ACC" '
    tr "\n" "\r" < "$SEED0" > cr.txt; "$B" parse -o out cr.txt'
hc symlink-loop 0 'symbolic link loop' '
    mkdir -p d/sub; cp "$SEED0" d/sub/; ln -s .. d/sub/up; "$B" parse -o out d'
hc symlink-self 1 'Too many levels of symbolic links' '
    mkdir d; cp "$SEED0" d/; ln -s self d/self; "$B" parse -o out d'
hc fifo-in-folder 0 "$ACC" '
    mkdir d; cp "$SEED0" d/; mkfifo d/fifo; "$B" parse -o out d'
hc missing-input 1 'nothere.txt: No such file or directory' '"$B" parse -o out nothere.txt "$SEED0"'
hc output-dangling-symlink 1 '^benchlog parse: cannot create link: No such file or directory$' '
    ln -s nowhere/x link; "$B" parse -o link "$SEED0"'
hc unreadable-input 1 'Permission denied|' '
    cp "$SEED0" u.txt; chmod 000 u.txt
    if [ "$(id -u)" = 0 ]; then rc=1; echo "Permission denied (root reads all)" >&2; else "$B" parse -o out u.txt; fi'
hc output-full-disk 1 'No space left on device' '"$B" parse -t vmstat "$SEED0" > /dev/full'
hc output-ulimit-f 1 'File too large|cannot write' '( ulimit -f 1; "$B" parse -o out "$SEED0" "$SEED1" )'
# no records found: exit 1 from every command (docs/errors.md), parse too
hc empty-input 1 '^benchlog: no lines; no records$' ': > e.txt; "$B" parse -o out e.txt'
hc binary-input 1 'not a log|PNG image' '
    printf "\211PNG\r\n\032\n" > pic.png; head -c 1000 /dev/urandom >> pic.png; "$B" parse -o out pic.png'
hc injection-file-name 0 NONE '
    cp "$SEED1" "./\$(touch pwned)\`touch pwned2\`;touch pwned3"
    "$B" report -q -o r2 ./*touch* > /dev/null; rc=$?
    [ -e pwned ] || [ -e pwned2 ] || [ -e pwned3 ] && rc=99; true'
# Output errors name the file and the real reason, and a run's tables land
# all or none (tables/table.c dir_finish): a folder where vmstat.csv goes
# fails the run before any table is renamed into place.
hc out-table-path-is-folder 1 '^benchlog: cannot write out/vmstat\.csv: Is a directory$' '
    mkdir out/vmstat.csv; "$B" parse -q -o out "$SEED0"; rc=$?
    [ "$(ls -A out | LC_ALL=C sort | tr "\n" " ")" = "earlier.csv vmstat.csv " ] || rc=99
    [ -z "$(ls -A out/vmstat.csv)" ] || rc=98'
hc out-table-path-is-folder-tsv 1 '^benchlog: cannot write out/averages\.tsv: Is a directory$' '
    mkdir out/averages.tsv; "$B" parse -q -f tsv -o out "$SEED0"; rc=$?
    [ "$(ls -A out | LC_ALL=C sort | tr "\n" " ")" = "averages.tsv earlier.csv " ] || rc=99'
# A message gives the failed call's errno, taken before anything is freed
# (shim.c HC_FREE_ERRNO: free() changes errno, as C allows).
hc errno-after-free 1 '^benchlog report: cannot create a folder beside f/sub/rep: Not a directory$' '
    shim || exit 0
    touch f; HC_FREE_ERRNO=1 LD_PRELOAD="$W/shim.so" "$B" report -q -o f/sub/rep "$SEED0"'
