#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every profile in the tree exports the program recorded in
# golden/bpf.sha256: a refactoring must not change a single byte, and a
# generator change that does regenerates the list on purpose (see
# bpf-digests.sh).
. "$(dirname "$0")/../tap.sh"
cd "$SRCDIR" || exit 99
want=tests/cli/golden/bpf.sha256
got=$TAP_TMP/got
if ! git rev-parse --git-dir >/dev/null 2>&1; then
	skip "not a git checkout: the profile list comes from git ls-files"
	done_testing
	exit
fi
sh tests/cli/bpf-digests.sh "$SCMP_RUN" >"$got"
is "$(wc -l <"$got" | tr -d ' ')" "$(wc -l <"$want" | tr -d ' ')" \
	"as many (profile, arch) pairs as recorded"
while read -r sum arch p; do
	g=$(awk -v a="$arch" -v p="$p" '$2 == a && $3 == p { print $1 }' "$got")
	is "$g" "$sum" "$p ($arch): same program as recorded"
done <"$want"
done_testing
