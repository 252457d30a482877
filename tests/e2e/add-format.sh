#!/bin/sh
# parsers/parser.h's "to add a format" checklist (and docs/architecture.md,
# which repeats it) is true: follow it, step by step, on a copy of the
# source tree, for a small format of die rolls ("dice roll: 4"), build,
# and parse a fixture with it; then list the files it touched: by hand
# the parser, one registry line, the fixtures and a docs/formats.md
# section; the rest is made by `make docs` (issue 36 item 6). The expected CSV is written by hand below:
# the provenance columns of docs/csv.md, the group from the file name's
# stem (docs/formats.md, "Groups"), no run (the table has no run family).
# The copy's own doc checks (tests/e2e/csv-doc.sh, help-man.sh) must pass
# too: the checklist's documentation steps are all a format needs.
set -eu
command -v make >/dev/null || exit 77
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src="$tmp/src"
mkdir "$src"
# The tree, with the build folder of the binary under test (mtimes kept,
# so only what the new format touches is compiled again).
bdir=$(cd "$(dirname "$BENCHLOG")" && pwd)
build=$(basename "$bdir")
san=
[ "$build" = build-san ] && san=address,undefined
(cd "$TOP" && tar -cf - --exclude=./.git --exclude='./build*' --exclude=./demo-report .) | (cd "$src" && tar -xpf -)
if [ "$(dirname "$bdir")" = "$TOP" ]; then
    cp -Rp "$bdir" "$src/$build"
    rm -rf "$src/$build/tests" "$src/$build/man"
fi
cd "$src"

# 1. parsers/<format>.c: one `const struct bl_parser bl_parser_<format>`
#    and the struct bl_table_def of its tables, each column with its
#    type, doc, unit, role and better direction.
cat > parsers/dice.c <<'EOF'
/* dice.c — die rolls, one a line: "dice roll: 4" (a test format). */
#include "core/util.h"
#include "parsers/parser.h"

enum { DICE_VALUE, DICE_NCOLS };

static const struct bl_col_def dice_cols[DICE_NCOLS] = {
	[DICE_VALUE] = { "value", BL_INT, "the face rolled, 1 to 6", "", BL_ROLE_MEASURE, BL_BETTER_HIGHER },
};

const struct bl_table_def bl_table_dice = {
	"dice", "one row per `dice roll: N` line", DICE_NCOLS, dice_cols,
	"Parser: parsers/dice.c.", .group_col = "group",
};

static enum bl_verdict dice_line(void *st, struct bl_ctx *ctx, const struct bl_line *ln, unsigned flags)
{
	(void)st;
	(void)flags;
	static const char head[] = "dice roll: ";
	long long v;
	if (!bl_startswith(ln->text, ln->len, head) ||
	    bl_parse_ll(ln->text + sizeof head - 1, ln->len - (sizeof head - 1), &v) || v < 1 || v > 6)
		return BL_NO;
	struct bl_record r;
	bl_record_init(&r, &bl_table_dice, ln);
	bl_set_int(&r, DICE_VALUE, v);
	bl_emit(ctx, &r);
	return BL_USED;
}

static const struct bl_table_def *const dice_tables[] = { &bl_table_dice, NULL };

const struct bl_parser bl_parser_dice = {
	.name = "dice",
	.summary = "die rolls, one a line (dice roll: N)",
	.tables = dice_tables,
	.line = dice_line,
};
EOF

# 2. one line in the registry (parsers/registry.c), and its extern.
awk '/^extern const struct bl_parser bl_parser_/ && !d { print "extern const struct bl_parser bl_parser_dice;"; d = 1 }
     /^\tNULL,$/ && !e { print "\t&bl_parser_dice,"; e = 1 } { print }' parsers/registry.c > registry.c.new
mv registry.c.new parsers/registry.c
grep -q '&bl_parser_dice,' parsers/registry.c || { echo "registry line not added"; exit 1; }

# 3. a fixture and its expected CSV (tests/run-golden reads
#    fixtures/<format>/<case>.<table>.csv).
mkdir fixtures/dice
printf 'Two rolls:\ndice roll: 4\ndice roll: 6\ndice roll: 9\n' > fixtures/dice/rolls.txt
cat > fixtures/dice/rolls.dice.csv <<'EOF'
source,line,message_id,date,subject,quoted,group,group_source,run,copy_of,value
rolls.txt,2,,,,0,rolls,file,,,4
rolls.txt,3,,,,0,rolls,file,,,6
EOF

# 4. the prose: a section of docs/formats.md (the one doc written by hand).
printf '\n## Dice\n\n`dice roll: N` lines, N from 1 to 6, into the `dice` table.\n' >> docs/formats.md

# 5. make docs: docs/csv.md, docs/schema.sql and the man pages' lists of
#    formats and tables, made from the definitions (it builds benchlog).
make -s -j2 BUILD="$build" ${san:+SANITIZE=$san} docs > make.log 2>&1 || { tail -30 make.log; exit 1; }
bin="$src/$build/benchlog"

# The format works: its table is listed, its rows are the hand-made ones,
# the line it does not claim is skipped with the usual reason.
"$bin" formats | grep -q '^  dice ' || { "$bin" formats; echo "dice not in benchlog formats"; exit 1; }
(cd fixtures/dice && "$bin" parse -q -t dice rolls.txt) > got.csv
cmp got.csv fixtures/dice/rolls.dice.csv || { diff fixtures/dice/rolls.dice.csv got.csv; exit 1; }
(cd fixtures/dice && "$bin" parse -t dice rolls.txt 2>&1 >/dev/null) | grep -q 'no format recognised' ||
    { echo "unclaimed lines not reported"; exit 1; }
# ... and the copy's own checks of the docs agree.
for t in csv-doc help-man docs-generated; do
    rc=0
    BENCHLOG="$bin" TOP="$src" sh "tests/e2e/$t.sh" > "$t.log" 2>&1 || rc=$?
    [ "$rc" = 0 ] || [ "$rc" = 77 ] || { cat "$t.log"; echo "$t.sh fails after adding the format"; exit 1; }
done
# What the checklist made: files written by hand, and by make docs.
(cd "$TOP" && tar -cf - --exclude=./.git --exclude='./build*' --exclude=./demo-report .) |
    (mkdir "$tmp/orig" && cd "$tmp/orig" && tar -xpf -)
changed=$(diff -rq "$tmp/orig" "$src" -x "$build" -x make.log -x got.csv -x '*.log' 2>/dev/null |
    sed -n "s|^Files $tmp/orig/\([^ ]*\) and .* differ\$|\1|p; s|^Only in $src\(/*[^:]*\): \(.*\)|\1/\2|p" | sed 's|^/||' | sort)
echo "add-format: files the checklist touched:"
echo "$changed" | sed 's/^/  /'
n=$(echo "$changed" | grep -c .)
# by hand: the parser, the registry, the fixture folder, docs/formats.md;
# by make docs: docs/csv.md, docs/schema.sql, the two man pages
want="docs/csv.md docs/formats.md docs/schema.sql fixtures/dice man/benchlog-formats.1.scd man/benchlog-parse.1.scd parsers/dice.c parsers/registry.c"
[ "$(echo $changed)" = "$want" ] || { echo "add-format: touched [$(echo $changed)], want [$want]"; exit 1; }
echo "add-format: $n files or folders (4 by hand, 4 by make docs)"
