#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Exercise completions/scmp-run.fish with fish's own `complete -C`: options,
# profile names, architectures, syscalls, groups, command hand-off.
# shellcheck disable=SC2016  # the single-quoted scripts run in another shell
set -u
if ! command -v fish >/dev/null 2>&1; then
	echo "1..0 # SKIP fish is not installed"
	exit 0
fi
: "${SCMP_RUN:?}" "${SRCDIR:?}"

. "$SRCDIR/tests/tap.sh"
tmp=$TAP_TMP
mkdir -p "$tmp/bin" "$tmp/profiles" "$tmp/home"
ln -s "$SCMP_RUN" "$tmp/bin/scmp-run"
printf '[filter]\ndefault-action = allow\n' >"$tmp/profiles/alpha-test.ini"
printf '[filter]\ndefault-action = allow\n' >"$tmp/profiles/beta-test.ini"
: >"$tmp/home/docker.json"

complete_line() {
	(cd "$tmp/home" && env -i HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" \
		XDG_DATA_HOME="$tmp/home/.local/share" PATH="$tmp/bin:/usr/bin:/bin" \
		SCMP_RUN_PROFILE_PATH="$tmp/profiles" LINE="$1" FILE="$SRCDIR/completions/scmp-run.fish" \
		fish -c 'source $FILE; complete -C $LINE') 2>"$tmp/stderr" | cut -f1
}

# has LINE WORD...: every WORD is among the completions of LINE
has() {
	line=$1
	shift
	complete_line "$line" >"$tmp/out"
	r=0
	for w in "$@"; do
		grep -qxF -- "$w" "$tmp/out" || { echo "# missing '$w'"; r=1; }
	done
	[ -s "$tmp/stderr" ] && r=1
	ok $r "'$line' offers $*" || diag "$(cat "$tmp/out" "$tmp/stderr")"
}
# lacks LINE WORD...: no WORD is among them
lacks() {
	line=$1
	shift
	complete_line "$line" >"$tmp/out"
	r=0
	for w in "$@"; do
		grep -qxF -- "$w" "$tmp/out" && { echo "# unexpected '$w'"; r=1; }
	done
	ok $r "'$line' does not offer $*"
}

# shellcheck disable=SC2046
has "scmp-run --" $("$SCMP_RUN" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
has "scmp-run -p " alpha-test beta-test
has "scmp-run --profile al" alpha-test
lacks "scmp-run --profile al" beta-test
has "scmp-run --target-arch x" x86_64 x86 x32
has "scmp-run --list-groups @s" @system-service @sandbox
has "scmp-run -p alpha-test --explain opena" openat openat2
has "scmp-run --target-arch x86 -p alpha-test --explain socketc" socketcall
lacks "scmp-run -p alpha-test --explain socketc" socketcall
# --explain-path PATH ACCESS: the access words after the path
has "scmp-run -p alpha-test --explain-path /etc " read write exec
has "scmp-run -p alpha-test scmp-ru" scmp-run
has "scmp-run --user roo" root
has "scmp-run --group roo" root
has "scmp-run --user root -p alpha-test --chec" --check
# after the command, the command's own completion answers
has "scmp-run -p alpha-test -- scmp-run --target-arch x3" x32
lacks "scmp-run -p alpha-test true -" --profile --check
has "scmp-run --import-oci " docker.json
# the words after --oci-caps and --import-oci are theirs, not the command
has "scmp-run --oci-caps CAP_CHOWN -p docker.json --" --check --export-oci
has "scmp-run --import-oci docker.json --" --target-arch
# --explain-audit FILE: a file, not a command; the modes without a command
# offer none
has "scmp-run -p alpha-test --explain-audit " docker.json
lacks "scmp-run -p alpha-test --explain-audit " scmp-run
lacks "scmp-run -p alpha-test --check " scmp-run
lacks "scmp-run -p alpha-test --export-bpf=- " scmp-run
done_testing
