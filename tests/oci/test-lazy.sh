#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# jansson is opened when a JSON profile is read, not at every launch
# (docs/performance.md, Launch): an INI profile never maps it, a JSON
# profile does, and a jansson that cannot be loaded is a located error for
# JSON profiles only.
. "$(dirname "$0")/../tap.sh"

if ! grep -q '^#define SCMP_RUN_JANSSON_DLOPEN 1' "$BUILDDIR/config.h"; then
	skip "jansson is linked in this build (-Dstatic-helpers=true)"
	done_testing
	exit 0
fi
printf '[filter]\ndefault-action = allow\n[credentials]\nuser = root\n' >"$TAP_TMP/p.ini"
printf '{ "defaultAction": "SCMP_ACT_ALLOW" }\n' >"$TAP_TMP/p.json"

run env LD_DEBUG=libs "$SCMP_RUN" -p "$TAP_TMP/p.ini" --check
status_is 0 "an INI profile: --check"
unlike "$ERR" "libjansson" "an INI profile: jansson is not loaded"
run env LD_DEBUG=libs "$SCMP_RUN" -p "$TAP_TMP/p.json" --check
status_is 0 "a JSON profile: --check"
like "$ERR" "libjansson.so.4" "a JSON profile: jansson is loaded"

# A library by that name that is no library: JSON fails, located; INI runs.
# One without jansson's functions: the missing one is named.
lib_unusable libjansson.so.4 "$TAP_TMP/p.json" "$TAP_TMP/p.ini" \
	"$TAP_TMP/p.json: error: reading JSON needs libjansson.so.4: " json_loadb

done_testing
