#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The round trip of --export-oci's own output (scmp-run(1), --export-oci):
# the JSON read back (-p OUT.json) and its --import-oci profile export
# again, and write the first export byte for byte. (That the JSON decides
# like its source, under libseccomp and read back, is the libseccomp-export
# test's.)
. "$(dirname "$0")/../tap.sh"
cd "$SRCDIR/tests/oci" || exit 99

# round_trip FILE: export FILE, then its read-back and its import.
round_trip() {
	f=$1
	run "$SCMP_RUN" -p "$f" --export-oci "$TAP_TMP/one.json"
	is "$RC" 0 "$f: --export-oci succeeds"
	[ "$RC" -eq 0 ] || { diag "$(cat "$ERR")"; return; }
	run "$SCMP_RUN" -p "$TAP_TMP/one.json" --export-oci "$TAP_TMP/two.json"
	is "$RC" 0 "$f: the export read back exports again"
	[ "$RC" -eq 0 ] || diag "$(grep -v ': note: ' "$ERR" | head -n 3)"
	cmp -s "$TAP_TMP/one.json" "$TAP_TMP/two.json"
	ok $? "$f: ... and writes the same JSON"
	run "$SCMP_RUN" --import-oci "$TAP_TMP/one.json"
	cp "$OUT" "$TAP_TMP/one.ini"
	is "$RC" 0 "$f: --import-oci of the export succeeds"
	run "$SCMP_RUN" -p "$TAP_TMP/one.ini" --export-oci "$TAP_TMP/three.json"
	is "$RC" 0 "$f: the imported profile exports"
	[ "$RC" -eq 0 ] || diag "$(grep -v ': note: ' "$ERR" | head -n 3)"
	cmp -s "$TAP_TMP/one.json" "$TAP_TMP/three.json"
	ok $? "$f: ... and writes the same JSON"
}

for f in ../../profiles/*.ini export/*.ini export/*.json json/*.json; do
	case $f in
	*/actions.json) continue ;; # notify: no OCI form, checked below
	*/builtin-read-back.ini) continue ;; # gains the built-in rule: below
	esac
	round_trip "./$f"
done
run "$SCMP_RUN" -p ./json/actions.json --export-oci -
is "$RC" 1 "a profile with notify still cannot be exported"

# A profile that turns the built-in rules off: JSON cannot, so read back it
# gets them again, and its export gains exactly their entries.
run "$SCMP_RUN" -p ../cli/profiles/builtins-off.ini --export-oci "$TAP_TMP/bo1.json"
run "$SCMP_RUN" -p "$TAP_TMP/bo1.json" --export-oci "$TAP_TMP/bo2.json"
is "$RC" 0 "built-ins off: the export read back exports again"
is "$(grep -c '"ioctl"' "$TAP_TMP/bo1.json")/$(grep -c '"clone3"' "$TAP_TMP/bo1.json")" 0/0 \
	"built-ins off: the export has no entry for them"
is "$(grep -A1 '"ioctl"' "$TAP_TMP/bo2.json" | grep -c '"errnoRet": 1,')" 2 \
	"built-ins off: read back, TIOCSTI and TIOCLINUX get EPERM"
is "$(grep -A1 '"clone3"' "$TAP_TMP/bo2.json" | grep -c '"errnoRet": 38')" 1 \
	"built-ins off: read back, clone3 gets ENOSYS"
is "$(grep -c '"names"' "$TAP_TMP/bo2.json")" 4 "built-ins off: ... and nothing else is added"

# A rule with the default action that overrides a built-in rule is left
# out, so read back the built-in rule is back, and so are its entries.
run "$SCMP_RUN" -p ./export/builtin-read-back.ini --export-oci "$TAP_TMP/br1.json"
run "$SCMP_RUN" -p "$TAP_TMP/br1.json" --export-oci "$TAP_TMP/br2.json"
is "$RC" 0 "a built-in rule overridden by the default action: the export read back exports again"
is "$(grep -c '"ioctl"' "$TAP_TMP/br1.json")" 0 "... the export has no ioctl entry"
is "$(grep -A1 '"ioctl"' "$TAP_TMP/br2.json" | grep -c '"errnoRet": 1,')" 2 \
	"... read back, TIOCSTI and TIOCLINUX get EPERM"
is "$(grep -c '"names"' "$TAP_TMP/br2.json")" "$(($(grep -c '"names"' "$TAP_TMP/br1.json") + 2))" \
	"... and nothing else is added"

done_testing
