#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Rewrite the golden PFC files in tests/cli/golden from the current binary.
# Usage: tests/cli/regen-golden.sh BUILDDIR   (review the diff before committing)
set -eu
build=${1:?usage: $0 BUILDDIR}
cd "$(dirname "$0")/../.."
scmp_run=$(cd "$build" && pwd)/src/scmp-run
grep -v '^#' tests/cli/golden/LIST | while read -r profile arch; do
	[ -n "$profile" ] || continue
	out=tests/cli/golden/$profile.$arch.pfc
	"$scmp_run" -p "tests/cli/profiles/$profile.ini" --target-arch "$arch" --export-pfc "$out"
	echo "wrote $out"
done
