#!/bin/sh
# --help and the manual pages agree (man/*.scd, rendered by scdoc as
# `make` renders them):
#   - every command in `benchlog --help`'s list has man/benchlog-CMD.1.scd,
#     and benchlog.1 lists it under COMMANDS;
#   - the page's SYNOPSIS, as a reader sees it (roff markup and escapes
#     removed), is the command's `--help` usage line without "usage: "
#     (for benchlog.1: both usage lines of `benchlog --help`);
#   - every long option (--name) and short option (-x,) that `--help`
#     shows appears in the page outside EXAMPLES, as does every table `benchlog formats`
#     lists in benchlog-parse.1;
#   - `benchlog CMD -h` and `benchlog help CMD` print the same text as
#     `benchlog CMD --help`;
#   - `benchlog --version` prints "benchlog " and the VERSION file, and
#     CHANGELOG.md has a section for that version.
# The expected text is benchlog's own --help output: the test checks that
# two descriptions of the same interface agree, not what either says.
set -eu
command -v scdoc >/dev/null || exit 77
command -v python3 >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

want=$(cat "$TOP/VERSION")
got=$("$BENCHLOG" --version)
[ "$got" = "benchlog $want" ] || { echo "--version: '$got', want 'benchlog $want'"; exit 1; }
grep -q "^## \[$want\] - [0-9]\{4\}-[0-9][0-9]-[0-9][0-9]\$" "$TOP/CHANGELOG.md" ||
    { echo "CHANGELOG.md has no '## [$want] - YYYY-MM-DD' section"; exit 1; }

"$BENCHLOG" --help > "$tmp/main.help"
scdoc < "$TOP/man/benchlog.1.scd" > "$tmp/benchlog.1"
cmds=$(awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1; next } on { on = 0 }' "$tmp/main.help")
[ -n "$cmds" ] || { echo "no commands in benchlog --help"; exit 1; }
for c in $cmds; do
    [ -f "$TOP/man/benchlog-$c.1.scd" ] || { echo "man/benchlog-$c.1.scd missing"; exit 1; }
    scdoc < "$TOP/man/benchlog-$c.1.scd" > "$tmp/$c.1" || { echo "scdoc failed on benchlog-$c.1.scd"; exit 1; }
    "$BENCHLOG" "$c" --help > "$tmp/$c.help"
    "$BENCHLOG" "$c" -h > "$tmp/$c.h"
    cmp -s "$tmp/$c.help" "$tmp/$c.h" || { echo "benchlog $c -h differs from --help"; exit 1; }
    "$BENCHLOG" help "$c" > "$tmp/$c.hc"
    cmp -s "$tmp/$c.help" "$tmp/$c.hc" || { echo "benchlog help $c differs from benchlog $c --help"; exit 1; }
done
"$BENCHLOG" formats | awk '/^tables:/ { on = 1; next } on { print $1 }' > "$tmp/tables"

python3 - "$tmp" $cmds <<'EOF'
import re, sys
tmp, cmds = sys.argv[1], sys.argv[2:]

def text(roff):
    """Section name -> list of display lines of a scdoc-made roff page."""
    secs, cur, lines = {}, None, []
    for raw in open(roff, encoding="utf-8"):
        raw = raw.rstrip("\n")
        if raw.startswith(".SH "):
            cur = raw[4:].strip().strip('"')
            secs[cur] = []
            continue
        if raw.startswith(".") or raw.startswith("'") or cur is None:
            if raw.startswith(".br") and cur is not None:
                secs[cur].append("\n")
            continue
        t = re.sub(r"\\f[BIRP]", "", raw)
        t = t.replace("\\&", "").replace("\\(aq", "'").replace("\\*(Aq", "'")
        t = t.replace("\\-", "-").replace("\\\\", "\\").replace("\\e", "\\")
        secs[cur].append(t)
    return secs

def synopsis(secs):
    body = " ".join(secs.get("SYNOPSIS", []))
    return [" ".join(p.split()) for p in body.split("\n") if p.strip()]

def options(help_text):
    longs = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", help_text))
    shorts = set(re.findall(r"^\s+(-[a-zA-Z]),", help_text, re.M))
    return longs, shorts

bad = 0
def fail(msg):
    global bad
    bad += 1
    print(msg)

main = open(f"{tmp}/main.help", encoding="utf-8").read().splitlines()
want = [main[0][len("usage: "):].strip(), main[1].strip()]
secs = text(f"{tmp}/benchlog.1")
if synopsis(secs) != want:
    fail(f"benchlog.1 SYNOPSIS {synopsis(secs)!r}, --help says {want!r}")
page = "\n".join(l for s in secs.values() for l in s)
commands = "\n".join(secs.get("COMMANDS", []))
for c in cmds:
    if not re.search(rf"^{re.escape(c)}$", commands, re.M):
        fail(f"benchlog.1: command {c} not under COMMANDS")
for o in ("--version", "--help"):
    if o not in page:
        fail(f"benchlog.1: {o} missing")

tables = open(f"{tmp}/tables", encoding="utf-8").read().split()
for c in cmds:
    help_text = open(f"{tmp}/{c}.help", encoding="utf-8").read()
    first = help_text.splitlines()[0]
    if not first.startswith("usage: "):
        fail(f"benchlog {c} --help: first line is not 'usage: ...': {first!r}")
        continue
    secs = text(f"{tmp}/{c}.1")
    syn = synopsis(secs)
    if syn != [first[len("usage: "):].strip()]:
        fail(f"benchlog-{c}.1 SYNOPSIS\n  {syn!r}\n--help usage line\n  {first[7:]!r}")
    # options count where they are described, not in the examples
    page = "\n".join(l for k, s in secs.items() if k != "EXAMPLES" for l in s)
    longs, shorts = options(help_text)
    for o in sorted(longs):
        if not re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", page):
            fail(f"benchlog-{c}.1: {o} (in --help) is not in the page")
    for o in sorted(shorts):
        if not re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", page):
            fail(f"benchlog-{c}.1: {o} (in --help) is not in the page")
    if c == "parse":
        for t in tables:
            if not re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", page):
                fail(f"benchlog-parse.1: table {t} not named")
sys.exit(1 if bad else 0)
EOF
