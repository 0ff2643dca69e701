#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The build-time generator of the flat groups (tools/gen-groups-flat.c):
# it writes the file the build uses, byte for byte, every time, and a
# generator that cannot write its file says so and fails the build instead
# of leaving a partial table.
# Usage: test-gen-groups-flat.sh GEN-GROUPS-FLAT GROUPS-FLAT.C
. "$(dirname "$0")/../tap.sh"

GEN=$1
BUILT=$2

run "$GEN" "$TAP_TMP/again.c"
status_is 0 "the generator runs"
run cmp "$TAP_TMP/again.c" "$BUILT"
status_is 0 "... and writes the build's groups-flat.c again, byte for byte"

run "$GEN"
status_is 1 "no output file: refused"
like "$ERR" "usage: gen-groups-flat OUTPUT.c" "... with the usage"

run "$GEN" "$TAP_TMP/no/such/dir/groups-flat.c"
status_is 1 "an output that cannot be created: refused"
like "$ERR" "gen-groups-flat: cannot write the output" "... and said"

if [ -w /dev/full ]; then
	run "$GEN" /dev/full
	status_is 1 "a full disk: refused"
	like "$ERR" "gen-groups-flat: writing the output failed" "... and said"
else
	skip "no /dev/full"
fi
done_testing
