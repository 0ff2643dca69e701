#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# docs/HACKING.md, the map of the tree, cannot silently rot: every .c and .h
# file of src/ is named in it, every path it names exists, README.md links it.
set -u
: "${SRCDIR:?}"
. "$SRCDIR/tests/tap.sh"

# The top-level directories a path in the map may start with.
TOP_DIRS='src tests tools data docs bench fuzz profiles scripts completions .ci'

# The test suites (tests/SUITE/meson.build; fuzz/meson.build for fuzz).
SUITES='unit tables consts sim engine profiles cli runner supervise oci docs fuzz'

# words DOC: the path-like words of DOC, one a line. Man page references
# ("scmp-run.ini(5)") are no paths; every character that cannot be part of
# a path (blanks, backticks, brackets of links, table bars, '$', '>', ...)
# separates words; a trailing '.' ends a sentence.
words() {
	awk '{ gsub(/[A-Za-z0-9_.-]+\([0-9]\)/, " "); gsub(/[^][A-Za-z0-9_.\/*-]+/, "\n"); print }' \
		"$1" | sed 's/\.*$//' | grep -v '^$'
}

# unnamed_modules DOC ROOT: each ROOT/src/*.c and *.h that DOC does not name
# as NAME, src/NAME, or STEM.[ch] / src/STEM.[ch] for both files of a module.
unnamed_modules() {
	words "$1" >"$TAP_TMP/words"
	for f in "$2"/src/*.c "$2"/src/*.h; do
		[ -e "$f" ] || continue
		name=${f##*/}
		stem=${name%.?}
		for w in "$name" "src/$name" "$stem.[ch]" "src/$stem.[ch]"; do
			grep -qxF -- "$w" "$TAP_TMP/words" && continue 2
		done
		echo "src/$name"
	done
}

# exists ROOT PATTERN: PATTERN (a path, maybe with * or [ch]) matches
# something under ROOT.
exists() {
	# shellcheck disable=SC2086 # the pattern is expanded on purpose
	set -- "$1"/$2
	[ -e "$1" ]
}

# dead_paths DOC ROOT: each path DOC names that does not exist under ROOT.
# Checked: words that start with a top-level directory ("tests/tap.h"),
# bare source names ("run.c", "action.[ch]", looked up in src/), and bare
# names of top-level files ("meson.build", ".clang-format"). Paths outside
# the tree (/usr/..., BUILDDIR/..., include/linux/...) are not checked.
dead_paths() {
	words "$1" | sort -u | while read -r w; do
		case $w in
		*/*)
			top=${w%%/*}
			case " $TOP_DIRS " in
			*" $top "*) exists "$2" "$w" || echo "$w" ;;
			esac
			;;
		*.c | *.h | *.\[ch\])
			exists "$2" "src/$w" || echo "$w"
			;;
		.clang-format | ?*.md | ?*.txt | ?*.build | ?*.py | ?*.sh | ?*.scd | ?*.ini | ?*.vec | \
			?*.pfc | ?*.dict | ?*.sha256)
			exists "$2" "$w" || echo "$w"
			;;
		esac
	done
}

# unknown_tests DOC ROOT: each test named in DOC as `SUITE:NAME` that the
# suite's meson.build does not register ('NAME' not in it). A NAME with '*'
# only needs the suite.
unknown_tests() {
	pattern=$(echo "$SUITES" | tr ' ' '|')
	grep -oE "\`($pattern):[a-z0-9*-]+\`" "$1" | tr -d '\`' | sort -u | while read -r t; do
		suite=${t%%:*}
		name=${t#*:}
		build=$2/tests/$suite/meson.build
		[ "$suite" = fuzz ] && build=$2/fuzz/meson.build
		case $name in
		*\**) [ -f "$build" ] || echo "$t" ;;
		*) grep -qF "'$name'" "$build" 2>/dev/null || echo "$t" ;;
		esac
	done
}

# The checks themselves, on a small tree: they must be able to fail.
fake=$TAP_TMP/fake
mkdir -p "$fake/src" "$fake/tests"
: >"$fake/src/a.c"
: >"$fake/src/b.h"
: >"$fake/src/c.c"
: >"$fake/src/d.c"
: >"$fake/src/d.h"
: >"$fake/tests/x.sh"
mkdir -p "$fake/tests/unit"
printf "test('x', executable('test-x', 'test-x.c'))\n" >"$fake/tests/unit/meson.build"
cat >"$fake/MAP.md" <<'EOF'
| `a.c` | `src/b.h`, `d.[ch]` | `tests/x.sh`, `tests/missing.sh`, `tests/*.sh` |
Run `tests/x.sh BUILDDIR/src/gen.c >tests/out.txt`; see `include/linux/audit.h`,
/usr/src/linux.tar.xz and gone.c. Then `meson.build`, `.clang-format`, a.ini(5).
Tests `unit:x`, `unit:y`, `unit:*`, `cli:x`, `cli:*`.
EOF
is "$(unnamed_modules "$fake/MAP.md" "$fake" | tr '\n' ' ')" "src/c.c " \
	"checker: a source file the map does not name is reported"
is "$(dead_paths "$fake/MAP.md" "$fake" | tr '\n' ' ')" \
	".clang-format gone.c meson.build tests/missing.sh tests/out.txt " \
	"checker: paths that do not exist are reported, others outside the tree are not"
is "$(unknown_tests "$fake/MAP.md" "$fake" | tr '\n' ' ')" "cli:* cli:x unit:y " \
	"checker: tests that no meson.build registers are reported"

doc=$SRCDIR/docs/HACKING.md
if ! [ -f "$doc" ]; then
	ok 1 "docs/HACKING.md exists"
	done_testing
	exit
fi
ok 0 "docs/HACKING.md exists"

missing=$(unnamed_modules "$doc" "$SRCDIR")
is "$missing" "" "every src/*.c and src/*.h is named in docs/HACKING.md" ||
	diag "add a line to docs/HACKING.md (Modules and their tests) for:" "$missing"

dead=$(dead_paths "$doc" "$SRCDIR")
is "$dead" "" "every path docs/HACKING.md names exists" ||
	diag "docs/HACKING.md names paths that do not exist:" "$dead"

unknown=$(unknown_tests "$doc" "$SRCDIR")
is "$unknown" "" "every test docs/HACKING.md names is registered" ||
	diag "docs/HACKING.md names tests that no meson.build registers:" "$unknown"

like "$SRCDIR/README.md" "(docs/HACKING.md)" "README.md links docs/HACKING.md"

done_testing
