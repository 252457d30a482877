# tests/lib/progress.sh — the progress line of the test runners
# (tests/run-unit, tests/run-golden, tests/hostile/run), sourced by them.
#
#   progress SUITE DONE TOTAL NAME   redraw "SUITE: DONE/TOTAL NAME" in place
#                                    (TOTAL empty: "SUITE: DONE done, NAME")
#   progress_clear                   erase it (before any other message)
#
# Drawn only when stderr is a terminal; in a log (CI, a pipe) nothing, so
# that a passing `make check` stays a few lines long.
if [ -t 2 ]; then progress_tty=1; else progress_tty=0; fi
progress() {
    [ "$progress_tty" = 1 ] || return 0
    if [ -n "$3" ]; then set -- "$1" "$2/$3" "$4"; else set -- "$1" "$2 done," "$4"; fi
    printf '\r\033[K%s: %s %s' "$1" "$2" "$3" | cut -c1-"${COLUMNS:-80}" | tr -d '\n' >&2
}
progress_clear() {
    [ "$progress_tty" = 1 ] || return 0
    printf '\r\033[K' >&2
}
