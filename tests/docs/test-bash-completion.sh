#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Exercise completions/scmp-run in a real bash with bash-completion loaded:
# options, profile names, architectures, syscalls, groups, command hand-off.
# shellcheck disable=SC2016  # the single-quoted scripts run in another shell
set -u

bc=${BASH_COMPLETION:-/usr/share/bash-completion/bash_completion}
if [ ! -r "$bc" ]; then
	echo "1..0 # SKIP bash-completion is not installed ($bc missing)"
	exit 0
fi
: "${SCMP_RUN:?}" "${SRCDIR:?}"

. "$SRCDIR/tests/tap.sh"
tmp=$TAP_TMP
mkdir -p "$tmp/bin" "$tmp/profiles"
ln -s "$SCMP_RUN" "$tmp/bin/scmp-run"
printf '[filter]\ndefault-action = allow\n' >"$tmp/profiles/alpha-test.ini"
printf '[filter]\ndefault-action = allow\n' >"$tmp/profiles/beta-test.ini"
: >"$tmp/profile-file.ini"
: >"$tmp/docker.json"

# complete LINE: print COMPREPLY, one per line, for the cursor at the end
# of LINE (a trailing space means an empty current word).
complete_line() {
	env -i HOME="$tmp" PATH="$tmp/bin:/usr/bin:/bin" SCMP_RUN_PROFILE_PATH="$tmp/profiles" \
		LINE="$1" BC="$bc" FILE="$SRCDIR/completions/scmp-run" \
		bash --norc --noprofile -c '
		cd "$HOME" || exit 1
		. "$BC"
		. "$FILE"
		COMP_LINE=$LINE
		COMP_POINT=${#LINE}
		read -ra COMP_WORDS <<<"$LINE"
		[[ $LINE == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_scmp_run scmp-run "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' 2>"$tmp/stderr"
}

# report STATUS DESCRIPTION: ok, with the completions and errors on failure
report() {
	ok "$1" "$2" || diag "$(cat "$tmp/out" "$tmp/stderr")"
}
# has LINE WORD...: every WORD is among the completions of LINE.
has() {
	local line=$1 w r=0
	shift
	complete_line "$line" >"$tmp/out"
	for w in "$@"; do
		grep -qxF -- "$w" "$tmp/out" || { echo "# missing '$w'"; r=1; }
	done
	report $r "'$line' offers $*"
}
# lacks LINE WORD...: no WORD is among the completions.
lacks() {
	local line=$1 w r=0
	shift
	complete_line "$line" >"$tmp/out"
	for w in "$@"; do
		grep -qxF -- "$w" "$tmp/out" && { echo "# unexpected '$w'"; r=1; }
	done
	report $r "'$line' does not offer $*"
}
# exactly LINE WORD...: the completions are exactly these words.
exactly() {
	local line=$1
	shift
	complete_line "$line" >"$tmp/out"
	printf '%s\n' "$@" | sort >"$tmp/want"
	sort "$tmp/out" | diff -u "$tmp/want" - >"$tmp/diff"
	local r=$?
	sed 's/^/# /' "$tmp/diff"
	report $r "'$line' offers exactly $*"
}

# every long option of --help is offered
opts=$("$SCMP_RUN" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
# shellcheck disable=SC2086
has "scmp-run --" $opts
exactly "scmp-run --list-" --list-syscalls --list-arches --list-groups --list-profiles
has "scmp-run -p " alpha-test beta-test profile-file.ini
exactly "scmp-run --profile al" alpha-test
exactly "scmp-run --profile=be" beta-test
has "scmp-run --target-arch " native x86_64 x86 aarch64 loongarch64
exactly "scmp-run --target-arch x3" x32
has "scmp-run --list-groups " @default @system-service @known
has "scmp-run -p alpha-test --explain opena" openat openat2
# --target-arch decides which syscall names exist
exactly "scmp-run --target-arch x86 -p alpha-test --explain socketc" socketcall
lacks "scmp-run -p alpha-test --explain socketc" socketcall
has "scmp-run --resolve clock_get" clock_gettime clock_getres
# --explain-path PATH ACCESS: a file name, then the access
has "scmp-run -p alpha-test --explain-path profile-fi" profile-file.ini
exactly "scmp-run -p alpha-test --explain-path /etc w" write
exactly "scmp-run -p alpha-test --explain-path /etc " read write exec
has "scmp-run --user roo" root
has "scmp-run --group roo" root
# --user and --group take a word: the next one is not the command
has "scmp-run --user root -p alpha-test --chec" --check
# the command word: commands on PATH, and after it the command's own completion
has "scmp-run -p alpha-test scmp-" scmp-run
has "scmp-run -p alpha-test -- scmp-" scmp-run
# --report takes its FILE only after '=': without one, the next word is
# the command; with one, bash splits '=' and FILE off as words of their
# own (COMP_WORDBREAKS), and the words after FILE are still scmp-run's
has "scmp-run -p alpha-test --report scmp-" scmp-run
has "scmp-run -p alpha-test --report=profile-fi" profile-file.ini
has "scmp-run -p alpha-test --report = r.txt scmp-" scmp-run
has "scmp-run -p alpha-test --report = r.txt --user roo" root
has "scmp-run -p alpha-test --explain-audit=profile-fi" profile-file.ini
has "scmp-run --import-oci " docker.json
lacks "scmp-run --import-oci " profile-file.ini
exactly "scmp-run --oci-caps CAP_SYS_AD" CAP_SYS_ADMIN
exactly "scmp-run --oci-caps CAP_CHOWN,CAP_SYS_AD" CAP_CHOWN,CAP_SYS_ADMIN
# the words after --oci-caps and --import-oci are theirs, not the command
has "scmp-run --oci-caps CAP_CHOWN -p docker.json --" --check --export-oci
has "scmp-run --import-oci docker.json --" --target-arch
# after the command, scmp-run's options are the command's: here the command
# is scmp-run itself, so its completion answers for the inner command line
exactly "scmp-run -p alpha-test scmp-run --target-arch x3" x32
lacks "scmp-run -p alpha-test true -" --profile --check
has "scmp-run -p alpha-test ls --colo" --color=
done_testing
