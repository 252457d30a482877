# lib.sh — what every hostile case checks (tests/hostile/README.md).
#
#   hc NAME STATUS REGEX SCRIPT
#
# runs SCRIPT (sh, through eval) in a fresh folder $W holding out/, an
# earlier output folder with one file (out/earlier.csv) and a planted
# report from an earlier run (rep/, made once by the runner). Then:
#   1. the exit status of SCRIPT's last command is STATUS (SCRIPT sets $rc
#      itself when it must run commands after benchlog);
#   2. stderr matches the extended regex REGEX (grep -E), or is empty
#      when REGEX is NONE; $ACC is the accounting line of a clean run
#      (no warning);
#   3. no temporary is left anywhere under $W: no *.tmp-*, no .gp-*, no
#      hidden *.benchlog-* file;
#   4. out/earlier.csv and rep/ are as they were, unless the case names
#      them in $may_change (space-separated) to say it replaced them;
#   5. no sanitizer report ("Sanitizer", "runtime error") on stderr;
#   6. when stderr holds benchlog's accounting line ("N lines: U used, S
#      skipped"), U + S = N.
# Variables for SCRIPT: $B (benchlog), $FX (fixtures/), $SEED0 and $SEED1
# (the seed mails), $W, $HOST (tests/hostile). stderr of benchlog must go
# to $W/err (the runner's default: SCRIPT's own stderr).
# A case may call `skip REASON` (exit 77 style: counted, not failed) only
# for a build that cannot run it (ulimit -v under AddressSanitizer).

hc_pass=0; hc_fail=0; hc_skip=0
ACC='^benchlog: [0-9]+ lines?: [0-9]+ used, [0-9]+ skipped; [0-9]+ records?$'


skip() { echo "$*" > "$W/.skip"; }

# shim: tests/hostile/shim.c (faults no user causes at will) built as
# $W/shim.so to preload; false, the case skipped, under a sanitizer
# (whose runtime must be loaded first) or without a C compiler:
#   shim || exit 0
shim() {
    if [ -n "$SANITIZE" ] || grep -q __asan_init "$B" 2>/dev/null; then
        skip "a preloaded shim under a sanitizer"; return 1
    fi
    command -v "${CC:-cc}" >/dev/null || { skip "no C compiler"; return 1; }
    "${CC:-cc}" -shared -fPIC -o "$W/shim.so" "$HOST/shim.c" -ldl
}

hc_run() {
    name=$1 want=$2 re=$3 script=$4
    W=$(mktemp -d "${TMPDIR:-/tmp}/hostile.XXXXXX")
    mkdir "$W/out"
    printf 'earlier,output\n1,2\n' > "$W/out/earlier.csv"
    cp -R "$HC_REP" "$W/rep"
    before=$(cd "$W" && find out rep -type f -exec cksum {} + | LC_ALL=C sort)
    may_change=""
    rc=""
    (
        cd "$W" || exit 99
        set +e
        eval "$script"
        st=$?
        [ -n "$rc" ] && st=$rc
        echo "$may_change" > "$W/.may"
        exit "$st"
    ) > "$W/.out" 2> "$W/err"
    got=$?
    bad=""
    if [ -f "$W/.skip" ]; then
        hc_skip=$((hc_skip + 1)); progress_clear; echo "skipped: $name: $(cat "$W/.skip")" >&2
        rm -rf "$W"; return
    fi
    may_change=$(cat "$W/.may" 2>/dev/null)
    [ "$got" = "$want" ] || bad="exit $got, want $want;"
    if [ "$re" = NONE ]; then
        [ ! -s "$W/err" ] || bad="$bad stderr not empty;"
    elif [ -z "$re" ]; then
        bad="$bad no message to check;"
    elif ! grep -Eq -- "$re" "$W/err"; then
        bad="$bad stderr lacks /$re/;"
    fi
    left=$(find "$W" \( -name '*.tmp-*' -o -name '.gp-*' -o -name '.*.benchlog-*' \) -print | head -3)
    [ -z "$left" ] || bad="$bad left behind: $left;"
    # every file there before is there still, with the same bytes (new
    # files beside them are the run's own output)
    after=$(cd "$W" && find out rep -type f -exec cksum {} + 2>/dev/null | LC_ALL=C sort)
    for d in out rep; do
        case " $may_change " in *" $d "*) continue ;; esac
        gone=$(echo "$before" | grep " $d/" | while IFS= read -r l; do
            echo "$after" | grep -qxF "$l" || echo "$l"; done)
        [ -z "$gone" ] || bad="$bad $d/ changed: $gone;"
    done
    if grep -Eq 'Sanitizer|runtime error:' "$W/err"; then bad="$bad sanitizer report;"; fi
    acc=$(sed -n 's/^benchlog: \([0-9]*\) lines*: \([0-9]*\) used, \([0-9]*\) skipped.*/\1 \2 \3/p' "$W/err")
    if [ -n "$acc" ]; then
        set -- $acc
        [ $(($2 + $3)) -eq "$1" ] || bad="$bad used + skipped != lines ($acc);"
    fi
    if [ -z "$bad" ]; then
        hc_pass=$((hc_pass + 1))
        rm -rf "$W"
    else
        hc_fail=$((hc_fail + 1))
        progress_clear
        echo "FAIL hostile $name: $bad" >&2
        sed -n 1,12p "$W/err" | sed 's/^/    /' >&2
        rm -rf "$W"
    fi
}

hc() { hc_run "$@"; }

# html_own FILE: the report refers to nothing outside itself (html-own.py).
html_own() { python3 "$HOST/html-own.py" "$1"; }
