#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# A build without jansson (-Doci=disabled): the OCI options exist and say
# so, and a JSON profile never runs.
. "$(dirname "$0")/../tap.sh"
cd "$SRCDIR/tests/oci" || exit 99

run "$SCMP_RUN" -p ./json/ops.json --check
is "$RC" 1 "-p FILE.json --check fails"
like "$ERR" "built without OCI support" "... saying why"
run "$SCMP_RUN" --import-oci ./json/ops.json
is "$RC:$(cat "$OUT")" "1:" "--import-oci fails and prints nothing"
run "$SCMP_RUN" -p "$SRCDIR/profiles/minimal.ini" --export-oci -
is "$RC:$(cat "$OUT")" "1:" "--export-oci fails and prints nothing"
rm -f "$TAP_TMP/ran"
run "$SCMP_RUN" -p ./json/deny-mkdir.json -- sh -c ": > '$TAP_TMP/ran'"
[ "$RC" -eq 125 ] && [ ! -e "$TAP_TMP/ran" ]
ok $? "run mode: exit 125, the command never runs"
run "$SCMP_RUN" --help
like "$OUT" "(built without OCI support)" "--help says so"

done_testing
