# SPDX-License-Identifier: LGPL-2.1-or-later
# A tiny TAP producer for the shell tests (POSIX sh): source it, then
# use run/ok/is/like/unlike/skip/diag and end with 'done_testing'.

tap_n=0
tap_failed=0
TAP_TMP=$(mktemp -d "${TMPDIR:-/tmp}/scmp-run-test.XXXXXX") || exit 99
trap 'rm -rf "$TAP_TMP"' EXIT
OUT=$TAP_TMP/out
ERR=$TAP_TMP/err
RC=0
TODO=

diag() {
	printf '%s\n' "$*" | sed 's/^/# /'
}

# ok STATUS DESCRIPTION: STATUS 0 passes. With $TODO set, the test is a
# known bug: TAP's TODO directive, its failure does not fail the script.
ok() {
	tap_n=$((tap_n + 1))
	_todo=${TODO:+ # TODO $TODO}
	if [ "$1" -eq 0 ]; then
		printf 'ok %d - %s%s\n' "$tap_n" "$2" "$_todo"
		return 0
	fi
	printf 'not ok %d - %s%s\n' "$tap_n" "$2" "$_todo"
	[ -n "$TODO" ] || tap_failed=$((tap_failed + 1))
	return 1
}

# is GOT WANT DESCRIPTION
is() {
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "got:  '$1'" "want: '$2'"
		return 1
	fi
}

# like FILE FIXED-STRING DESCRIPTION: FILE contains the string.
like() {
	if grep -qF -- "$2" "$1"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diag "missing: $2" "in:"
		diag "$(head -n 20 "$1")"
		return 1
	fi
}

# unlike FILE FIXED-STRING DESCRIPTION
unlike() {
	if grep -qF -- "$2" "$1"; then
		ok 1 "$3"
		diag "unexpected: $2"
		return 1
	fi
	ok 0 "$3"
}

skip() {
	tap_n=$((tap_n + 1))
	printf 'ok %d - # SKIP %s\n' "$tap_n" "$1"
}

# run CMD [ARG...]: stdout to $OUT, stderr to $ERR, exit status in $RC.
run() {
	RC=0
	"$@" >"$OUT" 2>"$ERR" </dev/null || RC=$?
}

# run_in INPUT CMD [ARG...]: as run, with INPUT on stdin.
run_in() {
	_in=$1
	shift
	RC=0
	printf '%s' "$_in" | { "$@" >"$OUT" 2>"$ERR" || exit $?; } || RC=$?
}

# status_is WANT DESCRIPTION: the last run's exit status, stderr shown if not.
status_is() {
	if ! is "$RC" "$1" "$2"; then
		diag "stderr:"
		diag "$(head -n 10 "$ERR")"
		return 1
	fi
}

done_testing() {
	printf '1..%d\n' "$tap_n"
	[ "$tap_failed" -eq 0 ]
}

: "${SCMP_RUN:?SCMP_RUN must name the scmp-run binary}"
: "${SRCDIR:?SRCDIR must name the source tree}"

# sample_profiles: the directory to take the sample profiles (profiles/)
# from. As root it is a copy where each one includes its sample and adds
# [credentials] user = root: the uid-0 guard (scmp-run(1)) wants root
# named, and the tests run the samples as root on purpose.
sample_profiles() {
	if [ "$(id -u)" != 0 ]; then
		printf '%s\n' "$SRCDIR/profiles"
		return
	fi
	_d=$TAP_TMP/sample-profiles-as-root
	if [ ! -d "$_d" ]; then
		mkdir -p "$_d" || exit 99
		for _f in "$SRCDIR"/profiles/*.ini; do
			printf '[profile]\ninclude = %s\n\n[credentials]\nuser = root\n' "$_f" \
				>"$_d/${_f##*/}" || exit 99
		done
	fi
	printf '%s\n' "$_d"
}

# fake_libs SONAME: two directories for LD_LIBRARY_PATH that each hold a
# SONAME the dynamic loader cannot use: $TAP_TMP/empty-lib an empty file
# (no library), $TAP_TMP/libc-lib the C library under that name (a library
# without the functions wanted). For the libraries scmp-run opens with
# dlopen() (src/dynlib.h).
fake_libs() {
	mkdir -p "$TAP_TMP/empty-lib" "$TAP_TMP/libc-lib" || exit 99
	: >"$TAP_TMP/empty-lib/$1" || exit 99
	_libc=$(ldd "$SCMP_RUN" | sed -n 's/.*libc\.so\.6 => \([^ ]*\).*/\1/p')
	ln -sf "$_libc" "$TAP_TMP/libc-lib/$1" || exit 99
}

# lib_unusable SONAME USING WITHOUT LOCATED MISSING: with SONAME an empty
# file (fake_libs), --check of the profile USING, which needs the library,
# fails with an error starting "scmp-run: LOCATED", run mode of it runs
# nothing (125), and the profile WITHOUT still runs; with the C library
# under that name, the error names the function MISSING.
lib_unusable() {
	fake_libs "$1"
	run env LD_LIBRARY_PATH="$TAP_TMP/empty-lib" "$SCMP_RUN" -p "$2" --check
	status_is 1 "$1 cannot be loaded: ${2##*/} is refused"
	like "$ERR" "scmp-run: $4" "... with a located error naming the library"
	run env LD_LIBRARY_PATH="$TAP_TMP/empty-lib" "$SCMP_RUN" -p "$2" -- /bin/true
	status_is 125 "... and in run mode nothing runs (125)"
	run env LD_LIBRARY_PATH="$TAP_TMP/empty-lib" "$SCMP_RUN" -p "$3" -- /bin/true
	status_is 0 "$1 cannot be loaded: ${3##*/}, which does not need it, still runs"
	run env LD_LIBRARY_PATH="$TAP_TMP/libc-lib" "$SCMP_RUN" -p "$2" --check
	status_is 1 "a $1 without its functions: ${2##*/} is refused"
	like "$ERR" "undefined symbol: $5" "... naming the missing function"
}
