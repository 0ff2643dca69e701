#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Print one line per (profile, target) with the SHA-256 of the program that
# --export-bpf writes, or "rejected" when the profile does not compile.
# Every .ini file under profiles/ and tests/ (except the bad fixtures) for
# x86_64 and aarch64. tests/cli/golden/bpf.sha256 keeps the expected output:
# a change to the generator that alters a program regenerates it on purpose
# (tests/cli/bpf-digests.sh SCMP-RUN >tests/cli/golden/bpf.sha256) and says
# why in its commit message.
# Usage: bpf-digests.sh SCMP-RUN   (from the source root)
set -u
scmp_run=${1:?usage: $0 SCMP-RUN}
tmp=$(mktemp) || exit 99
trap 'rm -f "$tmp"' EXIT
git ls-files -- 'profiles/*.ini' 'tests/*.ini' 2>/dev/null | grep -v '/bad/' | sort |
while read -r p; do
	for arch in x86_64 aarch64; do
		if "$scmp_run" -p "./$p" --target-arch "$arch" --export-bpf "$tmp" \
			>/dev/null 2>&1; then
			sum=$(sha256sum <"$tmp" | cut -d' ' -f1)
		else
			sum=rejected
		fi
		printf '%s %s %s\n' "$sum" "$arch" "$p"
	done
done
