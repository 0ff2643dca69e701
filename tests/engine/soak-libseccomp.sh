#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Longer soak of the libseccomp differential test: random seeds, more sets.
# Usage: soak-libseccomp.sh [BUILDDIR [ROUNDS [SETS [SHAPES]]]]
set -eu

builddir=${1:-build}
rounds=${2:-20}
sets=${3:-20000}
shapes=${4:-0xf}
bin=$builddir/tests/engine/test-libseccomp

if [ ! -x "$bin" ]; then
	echo "soak-libseccomp: $bin not found (build with libseccomp first)" >&2
	exit 2
fi
failed=0
i=0
while [ "$i" -lt "$rounds" ]; do
	seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
	out=$("$bin" "$sets" "$seed" "$shapes") && status=0 || status=$?
	printf '%s\n' "$out" | grep '^# [0-9]* comparisons' || true
	if [ "$status" -ne 0 ]; then
		printf '%s\n' "$out" | grep -v '^ok' >&2
		echo "soak-libseccomp: seed $seed failed (rerun: $bin $sets $seed $shapes)" >&2
		failed=$((failed + 1))
	fi
	i=$((i + 1))
done
echo "soak-libseccomp: $((rounds - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
