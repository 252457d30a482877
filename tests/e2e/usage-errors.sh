#!/bin/sh
# Usage errors read the same for every command and option (docs/errors.md,
# "Usage errors"): one line "benchlog CMD: what is wrong", then the
# command's own usage line (the first line of `benchlog CMD --help`),
# nothing on stdout, exit 2. Checked for the options every command shares
# (cli/main.c, cli_common_opt), whose bad values once printed a bare
# "benchlog: ..." with no usage line, for --group beside a rule that finds
# the group in the text (it used to win silently), and for an unknown
# option.
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
in="$TOP/fixtures/seeds/000_a7bf8587c1dba76c.txt"
fails=0
check() {   # check CMD WANT-FIRST-LINE ARGS...
    cmd=$1 want=$2
    shift 2
    rc=0
    "$BENCHLOG" "$cmd" "$@" > out 2> err || rc=$?
    usage=$("$BENCHLOG" "$cmd" --help | head -1)
    if [ "$rc" -ne 2 ]; then
        echo "benchlog $cmd $*: exit $rc, not 2"; fails=1
    fi
    if [ "$(sed -n 1p err)" != "$want" ]; then
        echo "benchlog $cmd $*: first line '$(sed -n 1p err)', want '$want'"; fails=1
    fi
    if [ "$(sed -n 2p err)" != "$usage" ] || [ "$(wc -l < err)" -ne 2 ]; then
        echo "benchlog $cmd $*: not the message then the usage line:"; cat err; fails=1
    fi
    test ! -s out || { echo "benchlog $cmd $*: output on stdout"; fails=1; }
}
for cmd in parse summary stats compare plot report; do
    # plot needs a chart kind, and stats a table, before the inputs
    case $cmd in
    plot) pre="swpd" ;;
    *) pre="" ;;
    esac
    # shellcheck disable=SC2086 # $pre is one word or none
    {
        check "$cmd" "benchlog $cmd: --since-boot takes auto, keep or drop, not \"maybe\"" $pre --since-boot maybe "$in"
        check "$cmd" "benchlog $cmd: --interval takes seconds in (0, 86400], not \"0\"" $pre --interval 0 "$in"
        check "$cmd" "benchlog $cmd: --unit takes s, ms, us or ns, not \"xs\"" $pre --unit xs "$in"
        check "$cmd" "benchlog $cmd: --group-from takes \"subject\", not \"body\"" $pre --group-from body "$in"
        check "$cmd" "benchlog $cmd: --group-regex: missing closing parenthesis at offset 1" $pre --group-regex '(' "$in"
        check "$cmd" "benchlog $cmd: --stutter-start: missing closing parenthesis at offset 1" $pre --stutter-start '(' "$in"
        check "$cmd" "benchlog $cmd: unrecognized option '--no-such-option'" $pre --no-such-option "$in"
        check "$cmd" "benchlog $cmd: --group puts every record in one group; it cannot go with --group-regex" $pre --group k --group-regex '^(2\.[46]\S*)' "$in"
        check "$cmd" "benchlog $cmd: --group puts every record in one group; it cannot go with --group-regex" $pre --group-regex '^(2\.[46]\S*)' --group k "$in"
        check "$cmd" "benchlog $cmd: --group puts every record in one group; it cannot go with --group-from" $pre --group-from subject --group k "$in"
    }
done
# A mistyped long option (issue 29): getopt's line, then the nearest
# option of that command within two edits, then the usage line; the
# options are each command's own (a shared one and one of its own).
typo() {   # typo CMD TYPED MEANT ARGS...
    cmd=$1 typed=$2 meant=$3
    shift 3
    rc=0
    "$BENCHLOG" "$cmd" "$@" > out 2> err || rc=$?
    usage=$("$BENCHLOG" "$cmd" --help | head -1)
    printf '%s\n' "benchlog $cmd: unrecognized option '$typed'" \
        "benchlog $cmd: did you mean \"$meant\"?" "$usage" > want
    [ "$rc" -eq 2 ] || { echo "benchlog $cmd $typed: exit $rc, not 2"; fails=1; }
    cmp -s err want || { echo "benchlog $cmd $typed:"; diff want err; fails=1; }
    test ! -s out || { echo "benchlog $cmd $typed: output on stdout"; fails=1; }
}
typo parse --stirct --strict --stirct "$in"
typo parse --tabel --table --tabel vmstat "$in"
typo parse --fromat=csv --format --fromat=csv "$in"
typo summary --baseilne --baseline --baseilne x "$in"
typo stats --grup-by --group-by --grup-by group "$in"
typo compare --colunm --column --colunm swpd "$in"
typo plot --outptu --output swpd --outptu x "$in"
typo report --jbos --jobs --jbos 2 "$in"
typo report --quite --quiet --quite "$in"
# formats reads its one option through the same table as the others
rc=0
"$BENCHLOG" formats --colums > out 2> err || rc=$?
printf '%s\n' "benchlog formats: unrecognized option '--colums'" 'benchlog formats: did you mean "--columns"?' \
    "$("$BENCHLOG" formats --help | head -1)" > want
[ "$rc" -eq 2 ] && cmp -s err want || { echo "formats --colums: exit $rc"; diff want err; fails=1; }
exit $fails
