# summary-temp-limit.sh — sourced by end-to-end tests (not a test itself).
#
# temp_limit_check TMPDIR INPUT...: `benchlog summary -q INPUT...` with a
# file size limit of 1 MiB (ulimit -f, SIGXFSZ ignored, so a write past it
# fails with EFBIG) must fail cleanly when its temporary files need more:
# exit status 1, nothing on stdout (no truncated summary), and a message
# that names the temporary file and the error (and no "cannot write
# output": stdout was never written). Exits the calling test
# with 1 when it does not; scratch files go in TMPDIR.
temp_limit_check() {
    _dir=$1
    shift
    set +e
    ( trap '' XFSZ; ulimit -f 1024; exec "$BENCHLOG" summary -q "$@" ) >"$_dir/full.out" 2>"$_dir/full.err"
    _rc=$?
    set -e
    [ "$_rc" = 1 ] || { echo "temporary file over the size limit: exit $_rc, not 1"; cat "$_dir/full.err"; exit 1; }
    [ ! -s "$_dir/full.out" ] || { echo "temporary file over the size limit: a truncated summary was printed"; exit 1; }
    grep -q 'cannot write a temporary file.*File too large' "$_dir/full.err" ||
        { echo "temporary file over the size limit: no clear message"; cat "$_dir/full.err"; exit 1; }
    # and not called output: stdout was never written
    ! grep -q 'cannot write output' "$_dir/full.err" ||
        { echo "temporary file over the size limit: reported as an output error"; cat "$_dir/full.err"; exit 1; }
}
