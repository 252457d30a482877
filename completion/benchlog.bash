# bash completion for benchlog(1)                            -*- shell-script -*-
#
# Completes the commands, each command's options, and option values:
# table names after -t/--table, chart kinds after `plot`, column names
# after -c/-g/--by when -t names a table, folders after -o, and the
# choices an option's --help line names (--format csv|tsv|jsonl|sqlite,
# --term png,svg,dumb, --since-boot auto|keep|drop, …: cli/opts.c makes
# those lines from the one description of each option); anything else
# completes file names.
#
# Commands, options, tables, chart kinds and columns are read from the
# benchlog being completed (`benchlog --help`, `benchlog CMD --help`,
# `benchlog formats`, the CSV header of `benchlog parse -t TABLE`), once per
# shell, so they follow the installed version. Installed by `make install`
# to $(PREFIX)/share/bash-completion/completions/benchlog.

# _benchlog_ask KEY COMMAND...: the output of COMMAND, cached under KEY.
_benchlog_ask()
{
    local key=$1
    shift
    # per binary: build/benchlog and the installed one may differ
    local var="_benchlog_cache_${key}_$1"
    var=${var//[^A-Za-z0-9_]/_}
    if [[ -z ${!var+set} ]]; then
        printf -v "$var" '%s' "$("$@" 2>/dev/null)"
    fi
    printf '%s\n' "${!var}"
}

# _benchlog_list CUR WORD...: COMPREPLY = the WORDs that start with CUR
# (for a comma-separated list, the part after the last comma).
_benchlog_list()
{
    local cur=$1 prefix=""
    shift
    if [[ $_benchlog_commas == 1 && $cur == *,* ]]; then
        prefix=${cur%,*},
        cur=${cur##*,}
    fi
    local w
    COMPREPLY=()
    for w in "$@"; do
        [[ $w == "$cur"* ]] && COMPREPLY+=("$prefix$w")
    done
    if [[ $_benchlog_commas == 1 && ${#COMPREPLY[@]} -gt 0 ]]; then
        compopt -o nospace 2>/dev/null
    fi
}

_benchlog()
{
    local cur prev bin cmd i w
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    bin=${COMP_WORDS[0]}
    _benchlog_commas=0

    # --name=value: bash splits it at '=' (COMP_WORDBREAKS)
    if [[ $cur == = ]]; then
        cur= prev=${COMP_WORDS[COMP_CWORD - 1]}
    elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
        prev=${COMP_WORDS[COMP_CWORD - 2]}
    fi

    # the command: the first word after benchlog that is not an option
    cmd=
    for ((i = 1; i < COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        if [[ $w != -* ]]; then
            cmd=$w
            break
        fi
    done

    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            _benchlog_list "$cur" --help --version
        else
            _benchlog_list "$cur" $(_benchlog_ask commands "$bin" --help |
                awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1; next } on { exit }')
        fi
        return 0
    fi

    # `plot KIND`: the word right after plot
    if [[ $cmd == plot && $COMP_CWORD -eq $((i + 1)) && $cur != -* ]]; then
        _benchlog_list "$cur" $(_benchlog_ask plot_usage "$bin" plot --help |
            sed -n '1s/^usage: benchlog plot \([^ ]*\).*/\1/p' | tr '|' ' ')
        return 0
    fi

    # the table named on the line, for column names
    local table= j
    for ((j = i + 1; j < COMP_CWORD; j++)); do
        case ${COMP_WORDS[j]} in
        -t | --table)
            [[ ${COMP_WORDS[j + 1]} == = ]] && table=${COMP_WORDS[j + 2]} || table=${COMP_WORDS[j + 1]}
            ;;
        -t?*) table=${COMP_WORDS[j]#-t} ;;
        esac
    done

    case $prev in
    -t | --table)
        _benchlog_list "$cur" $(_benchlog_ask tables "$bin" formats |
            awk '/^tables:/ { on = 1; next } on { print $1 }')
        return 0
        ;;
    -c | --column | -g | --group-by | --by)
        if [[ -n $table ]]; then
            _benchlog_commas=1
            _benchlog_list "$cur" $(_benchlog_ask "columns_$table" "$bin" parse -q -t "$table" /dev/null |
                head -n 1 | tr ',' ' ')
        else
            compopt +o default +o bashdefault 2>/dev/null
        fi
        return 0
        ;;
    -o | --output)
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -d -- "$cur"))
        return 0
        ;;
    -?*)
        # the option's argument as its --help line shows it (cli/opts.c):
        # choices "auto|keep|drop" or "png,svg,dumb" (a comma-separated
        # list of them), a lower-case word such as "subject" (the one
        # choice), or a placeholder in capitals (a value of the user's own:
        # nothing offered, no file names)
        local arg
        arg=$(_benchlog_ask "help_$cmd" "$bin" "$cmd" --help |
            awk -v o="$prev" '/^ +-[A-Za-z-]/ {
                sub(/^ +/, ""); n = index($0, "  "); if (n) $0 = substr($0, 1, n - 1)
                k = split($0, w, " ")
                for (i = 1; i < k; i++) { x = w[i]; sub(/,$/, "", x); if (x == o) { print w[k]; exit } } }')
        if [[ -n $arg ]]; then
            if [[ $arg == *[[:upper:]]* ]]; then
                compopt +o default +o bashdefault 2>/dev/null
            elif [[ $arg == *,* ]]; then
                _benchlog_commas=1
                _benchlog_list "$cur" ${arg//,/ }
            else
                _benchlog_list "$cur" ${arg//|/ }
            fi
            return 0
        fi
        ;;
    esac

    if [[ $cur == -* ]]; then
        # the options of the --help lines that start with one, before
        # their description (two blanks)
        _benchlog_list "$cur" $(_benchlog_ask "help_$cmd" "$bin" "$cmd" --help |
            awk '/^ +-[A-Za-z-]/ { sub(/^ +/, ""); n = index($0, "  "); if (n) $0 = substr($0, 1, n - 1); print }' |
            grep -oE -- '--?[A-Za-z][A-Za-z0-9-]*' | sort -u)
        return 0
    fi
    # input files: the shell's own file name completion
    compopt -o default 2>/dev/null
    COMPREPLY=()
    return 0
}

complete -o bashdefault -o default -F _benchlog benchlog
