#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Syntax checks of the three completion files with their own shells; a shell
# that is not installed is an explicit skip.
set -u
: "${SRCDIR:?}"
. "$SRCDIR/tests/tap.sh"
dir=$SRCDIR/completions
# check SHELL FILE: run SHELL -n FILE, or skip if SHELL is missing
check() {
	if ! command -v "$1" >/dev/null 2>&1; then
		skip "$1 is not installed"
		return
	fi
	out=$("$1" -n "$dir/$2" 2>&1)
	r=$?
	[ -z "$out" ] || r=1
	ok $r "$1 -n $2" || diag "$out"
}
check bash scmp-run
check zsh _scmp-run
check fish scmp-run.fish
done_testing
