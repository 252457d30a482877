# rss.sh — sourced by end-to-end tests (not a test itself).
#
# peak_rss OUT CMD...: runs "$BENCHLOG" CMD... under GNU time with its
# stdout in OUT and its stderr in OUT.err, and prints its peak resident
# set size in KiB (`%M`); fails (status 1, a message on stderr) when
# benchlog does or no number comes back, so a caller under `set -e` stops
# rather than compare nothing. Needs /usr/bin/time (a test without it
# exits 77) and a scratch folder in $tmp.
#
# asan_build: true when $BENCHLOG was built with AddressSanitizer, which
# holds freed memory back (its quarantine), so peak RSS says nothing about
# benchlog's own memory there: the memory tests compare it only without.
peak_rss() {
    _out=$1
    shift
    /usr/bin/time -f %M -o "$tmp/peak_rss" "$BENCHLOG" "$@" >"$_out" 2>"$_out.err" || {
        echo "peak_rss: benchlog $* failed:" >&2
        cat "$_out.err" >&2
        return 1
    }
    _kib=$(tail -1 "$tmp/peak_rss")
    case $_kib in
    '' | *[!0-9]*) echo "peak_rss: GNU time gave no peak RSS for benchlog $*: $_kib" >&2; return 1 ;;
    esac
    echo "$_kib"
}

asan_build() {
    grep -q __asan_init "$BENCHLOG"
}
