#!/bin/sh
# An unreadable input and an output folder that cannot be written
# (docs/errors.md). Permission bits do not stop root, so as root the runs
# drop to uid/gid 65534 with setpriv(1); without setpriv, or where the
# container forbids it, or when that user cannot reach BENCHLOG, the
# script is skipped (77) and says why. Expected messages by hand:
# strerror(EACCES) is "Permission denied".
set -u
: "${BENCHLOG:?}"
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
cd "$tmp" || exit 1

as_user=""
if [ "$(id -u)" -eq 0 ]; then
    drop="setpriv --reuid=65534 --regid=65534 --clear-groups"
    if ! command -v setpriv >/dev/null 2>&1; then
        echo "skip: running as root and setpriv is missing (chmod does not stop root)"; exit 77
    fi
    if ! $drop true 2>/dev/null; then
        echo "skip: running as root and cannot drop privileges with setpriv here"; exit 77
    fi
    if ! $drop test -x "$BENCHLOG"; then
        echo "skip: uid 65534 cannot execute $BENCHLOG (a folder on its path is private)"; exit 77
    fi
    as_user=$drop
fi

fails=0
fail() { echo "FAIL [$case]: $*"; fails=$((fails + 1)); }
run() { $as_user "$BENCHLOG" "$@" > out 2> err; rc=$?; }
want_rc() { [ "$rc" -eq "$1" ] || { fail "exit $rc, want $1"; sed 's/^/  err: /' err | head -5; }; }
want_err() { grep -Fxq -- "$1" err || { fail "no stderr line: $1"; sed 's/^/  err: /' err | head -8; }; }
row() { printf '%s,%s,,,,0,%s,file,%s,,2001,pass,%s,,,PASS ... %s bytes allocated.\n' "$1" "$2" "$3" "$4" "$5" "$5"; }
want_row() { grep -Fxq -- "$1" out || { fail "no row: $1"; sed 's/^/  out: /' out | head -5; }; }

# out and err must be writable by the dropped user
: > out; : > err; chmod 666 out err

case=unreadable-file
printf 'PASS ... 100 bytes allocated.\n' > ok.txt
printf 'PASS ... 200 bytes allocated.\n' > secret.txt
chmod 644 ok.txt; chmod 000 secret.txt
run parse -t mtest01 ok.txt secret.txt
want_rc 1
want_err "secret.txt: Permission denied"
want_row "$(row ok.txt 1 ok 1 100)"

case=unreadable-in-folder   # the folder's other files are still read
mkdir logs; cp ok.txt logs/a.txt; cp secret.txt logs/b.txt
chmod 644 logs/a.txt; chmod 000 logs/b.txt; chmod 755 logs
run parse -t mtest01 logs
want_rc 1
want_err "logs/b.txt: Permission denied"
want_row "$(row logs/a.txt 1 a 1 100)"

case=unreadable-folder
mkdir -p shut/inner; cp ok.txt shut/inner/c.txt; chmod 000 shut/inner
run parse -t mtest01 shut ok.txt
want_rc 1
want_err "shut/inner: cannot open folder: Permission denied"
want_row "$(row ok.txt 1 ok 1 100)"

case=output-folder-read-only
mkdir ro; chmod 555 ro
run parse -o ro ok.txt
want_rc 1
want_err "benchlog parse: cannot write into ro: Permission denied"
[ -z "$(ls -A ro)" ] || fail "files left in ro: $(ls -A ro)"
run parse -o ro/new ok.txt
want_rc 1
want_err "benchlog parse: cannot create ro/new: Permission denied"

echo "bad-input-perms: $fails failed"
[ "$fails" -eq 0 ]
