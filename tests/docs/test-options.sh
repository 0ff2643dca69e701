#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The documentation follows the program: every long option of --help is in
# scmp-run(1)'s OPTIONS and in each completion; every group and architecture
# the program knows, and every entry of data/kernel-widths.txt, is in
# scmp-run.ini(5).
set -u
: "${SCMP_RUN:?}" "${SRCDIR:?}"

. "$SRCDIR/tests/tap.sh"
tmp=$TAP_TMP

man1=$SRCDIR/docs/scmp-run.1.scd
man5=$SRCDIR/docs/scmp-run.ini.5.scd
"$SCMP_RUN" --help >"$tmp/help"
grep -oE -- '--[a-z][a-z-]*' "$tmp/help" | sort -u >"$tmp/opts"
# the OPTIONS section of scmp-run(1): from "# OPTIONS" to the next "# "
sed -n '/^# OPTIONS$/,/^# [A-Z]/p' "$man1" >"$tmp/options-section"

# Each form of the SYNOPSIS is a paragraph of its own: scdoc joins lines
# that no blank line separates, and two forms would print as one.
joined=$(sed -n '/^# SYNOPSIS$/,/^# [A-Z]/p' "$man1" |
	awk '/^\*scmp-run\*/ && prev ~ /^\*scmp-run\*/ { print } { prev = $0 }')
[ -z "$joined" ]
ok $? "every SYNOPSIS form of scmp-run(1) is a paragraph of its own${joined:+: $joined}"

# --help must list something, or every check below passes vacuously
[ "$(wc -l <"$tmp/opts")" -ge 10 ]
ok $? "--help lists $(wc -l <"$tmp/opts") long options"

# check_all LIST FILE PATTERN DESC: for every word W of LIST, PATTERN with
# W substituted (sed-free: prefix and suffix) must occur in FILE.
check_all() {
	r=0
	while read -r w; do
		grep -qF -- "$3$w$4" "$2" || { echo "# '$w' missing from $5"; r=1; }
	done <"$1"
	return $r
}

check_all "$tmp/opts" "$tmp/options-section" '*' '*' "scmp-run.1 OPTIONS"
ok $? "every long option is described in scmp-run(1) OPTIONS"

# check_words LIST FILE DESC: every word of LIST occurs in FILE as a whole
# option word (not as the prefix of a longer option).
check_words() {
	r=0
	while read -r w; do
		grep -qE -- "(^|[^a-z-])$w([^a-z-]|\$)" "$2" || { echo "# '$w' missing from $3"; r=1; }
	done <"$1"
	return $r
}

# the option lists themselves, not other mentions of an option
sed -n '/^_scmp_run_options()/,/^}/p' "$SRCDIR/completions/scmp-run" >"$tmp/bash-list"
check_words "$tmp/opts" "$tmp/bash-list" "the bash completion's option list"
ok $? "every long option is in the bash completion"

sed -n '/_arguments /,/->rest/p' "$SRCDIR/completions/_scmp-run" >"$tmp/zsh-list"
check_words "$tmp/opts" "$tmp/zsh-list" "the zsh completion's _arguments"
ok $? "every long option is in the zsh completion"

sed 's/^--/-l /' "$tmp/opts" >"$tmp/fish-opts"
check_words "$tmp/fish-opts" "$SRCDIR/completions/scmp-run.fish" "the fish completion"
ok $? "every long option is in the fish completion"

"$SCMP_RUN" --list-groups | awk '{ print $1 }' >"$tmp/groups"
[ -s "$tmp/groups" ] && check_all "$tmp/groups" "$man5" '|  ' '' "scmp-run.ini.5 GROUPS"
ok $? "every built-in group ($(wc -l <"$tmp/groups")) is in the table of scmp-run.ini(5)"

"$SCMP_RUN" --list-arches >"$tmp/arches"
[ -s "$tmp/arches" ] && check_all "$tmp/arches" "$man5" '*' '*' "scmp-run.ini.5 ARCHITECTURES"
ok $? "every architecture token ($(wc -l <"$tmp/arches")) is in scmp-run.ini(5)"

# every entry of the kernel-width table is in the table of scmp-run.ini(5)
# ARGUMENT WIDTHS AND SIGNEDNESS, and the table has nothing else
grep -vE '^[[:space:]]|^#|^$' "$SRCDIR/data/kernel-widths.txt" | sed 's/^@[^ ]* //' |
	awk '{ print $1 " " $2 }' | sort -u >"$tmp/widths"
grep '^|  ' "$man5" | sed -n '/clone flags/,/process_madvise/p' >"$tmp/width-rows"
r=0
[ -s "$tmp/widths" ] || r=1
while read -r name param; do
	grep -qE -- "(^\|  |, )$name $param(,|\$| \()" "$tmp/width-rows" ||
		{ echo "# '$name $param' missing from the table of scmp-run.ini.5"; r=1; }
done <"$tmp/widths"
n_rows=$(sed 's/ ([^)]*)//' "$tmp/width-rows" | tr ',' '\n' | grep -c .)
[ "$n_rows" -eq "$(wc -l <"$tmp/widths")" ] ||
	{ echo "# the table has $n_rows entries, data/kernel-widths.txt $(wc -l <"$tmp/widths")"; r=1; }
ok $r "every kernel width ($(wc -l <"$tmp/widths")) is in the table of scmp-run.ini(5), and only those"

done_testing
