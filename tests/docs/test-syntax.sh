#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Syntax checks of the three completion files with their own shells; a shell
# that is not installed is an explicit skip.
set -u
: "${SRCDIR:?}"
dir=$SRCDIR/completions
n=0
fails=0
echo "1..3"
# check SHELL FILE: run SHELL -n FILE, or skip if SHELL is missing
check() {
	n=$((n + 1))
	if ! command -v "$1" >/dev/null 2>&1; then
		echo "ok $n # SKIP $1 is not installed"
		return
	fi
	if out=$("$1" -n "$dir/$2" 2>&1) && [ -z "$out" ]; then
		echo "ok $n - $1 -n $2"
	else
		echo "not ok $n - $1 -n $2"
		printf '%s\n' "$out" | sed 's/^/# /'
		fails=$((fails + 1))
	fi
}
check bash scmp-run
check zsh _scmp-run
check fish scmp-run.fish
[ "$fails" -eq 0 ]
