#!/bin/sh
# Bash completion (completion/benchlog.bash), sourced in bash and driven as
# bash drives it: COMP_WORDS / COMP_CWORD set, then _benchlog, then
# COMPREPLY compared with what a user must be offered. The expected
# words are written out here (commands, option names and choices from the
# man pages), except the lists that must follow the binary: the commands of
# `benchlog --help` and the tables of `benchlog formats`. The registered
# compspec is checked with `complete -p` and `compgen -F`.
set -eu
command -v bash >/dev/null || exit 77
cmds=$("$BENCHLOG" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { printf "%s ", $1; next } on { exit }')
tables=$("$BENCHLOG" formats | awk '/^tables:/ { on = 1; next } on { printf "%s ", $1 }')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" "$tmp/outdir"
ln -s "$BENCHLOG" "$tmp/bin/benchlog"
: > "$tmp/run1.log"

PATH="$tmp/bin:$PATH" CMDS="$cmds" TABLES="$tables" bash --norc --noprofile -c '
set -u
cd "$1"
source "$2"
bad=0
# t WANT WORD...: complete the last WORD of "benchlog WORD..."
t() {
    local want=$1
    shift
    COMP_WORDS=(benchlog "$@")
    COMP_CWORD=$#
    COMP_LINE="benchlog $*"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    _benchlog
    # compared as sets: the order bash shows them in is its own
    local got=$(printf "%s\n" "${COMPREPLY[@]:-}" | sort | xargs)
    want=$(printf "%s\n" $want | sort | xargs)
    if [[ "$got" != "$want" ]]; then
        echo "benchlog $* <TAB>: got [$got], want [$want]"
        bad=$((bad + 1))
    fi
}
t "${CMDS% }" ""
t "parse" pa
t "stats summary" s
t "--help --version" -
t "--format" parse --fo
t "--output" parse --ou
t "--table --target" compare --ta
t "--test" compare --te
t "--columns --help --sql" formats -
t "--since-boot --spreadsheet-safe --stutter-end --stutter-start --strict" report --s
t "latency latency_series" parse -t la
t "${TABLES% }" stats -t ""
t "time" stats --table = ti
t "mtest01" parse -q -o outdir -t m
t "swpd contest latency runs" plot ""
t "latency" plot l
t "--term --target" plot swpd --t
t "png,svg" plot swpd --term png,s
t "csv tsv jsonl sqlite" parse -f ""
t "text csv md" stats --format ""
t "md" compare -f m
t "welch student" compare --test ""
t "drop" summary --since-boot d
t "s ms us ns" parse --unit ""
t "include exclude" report --quoted ""
t "type7 nearest" stats --rule ""
t "subject" parse --group-from ""
t "elapsed_s,user_s" stats -t time -c elapsed_s,us
t "major_faults" compare -t time -c maj
t "outdir" parse -o out
# every long option of each command s --help is offered after "--"
for c in $CMDS; do
    COMP_WORDS=(benchlog "$c" --); COMP_CWORD=2; COMPREPLY=(); _benchlog
    for o in $(benchlog "$c" --help | grep -oE -- "--[a-z][a-z0-9-]*" | sort -u); do
        case " ${COMPREPLY[*]} " in
        *" $o "*) ;;
        *) echo "benchlog $c --<TAB>: $o missing"; bad=$((bad + 1)) ;;
        esac
    done
done
# the compspec bash uses
complete -p benchlog | grep -q -- "-F _benchlog" || { echo "no compspec for benchlog"; bad=$((bad + 1)); }
got=$(COMP_WORDS=(benchlog fo); COMP_CWORD=1; compgen -F _benchlog -- fo 2>/dev/null)
[[ "$got" == formats ]] || { echo "compgen -F _benchlog: [$got], want [formats]"; bad=$((bad + 1)); }
exit $((bad > 0))
' bash "$tmp" "$TOP/completion/benchlog.bash"
