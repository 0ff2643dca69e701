#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# How scmp-run is linked for launch (docs/performance.md, Launch): full
# RELRO, relative relocations packed, little relocated data, and libcap-ng
# opened when a capability name is read, not at every launch: a profile
# that names no capability never maps it, one that does maps it and keeps
# the capability, and a libcap-ng that cannot be loaded is a located error
# for such profiles only.
. "$(dirname "$0")/../tap.sh"

if command -v readelf >/dev/null 2>&1; then
	readelf -d "$SCMP_RUN" >"$TAP_TMP/dynamic"
	like "$TAP_TMP/dynamic" "BIND_NOW" "bound at start-up (-z now)"
	readelf -l "$SCMP_RUN" >"$TAP_TMP/segments"
	like "$TAP_TMP/segments" "GNU_RELRO" "... with a read-only GOT (-z relro)"
	if grep -q '^#define SCMP_RUN_PACKED_RELOCS 1' "$BUILDDIR/config.h"; then
		like "$TAP_TMP/dynamic" "(RELR) " "relative relocations packed (DT_RELR)"
		readelf -r "$SCMP_RUN" >"$TAP_TMP/relocs"
		n=$(grep -c '_RELATIVE' "$TAP_TMP/relocs" || true)
		[ "$n" -lt 100 ]
		ok $? "... not listed one by one ($n left)"
	else
		skip "the linker or the C library cannot pack relocations"
	fi
	# What pointers the tables hold is written at every start, a page
	# copied per 4 KB (docs/performance.md, Launch): names live in arrays,
	# and the read-only-after-relocation part fits in two pages. Sanitizers
	# add tables of their own.
	if readelf -s "$SCMP_RUN" | grep -q -e '__asan_init' -e '__ubsan_handle'; then
		skip "a sanitized build: its RELRO holds the sanitizer's tables"
	else
		relro=$(readelf -lW "$SCMP_RUN" | awk '$1 == "GNU_RELRO" { print $6 }')
		[ -n "$relro" ] && [ $((relro)) -le 8192 ]
		ok $? "the relocated data fits in two pages ($((relro)) bytes)"
	fi
else
	skip "no readelf"
fi

if ! grep -q '^#define SCMP_RUN_CAPNG_DLOPEN 1' "$BUILDDIR/config.h"; then
	skip "libcap-ng is linked in this build (-Dstatic-helpers=true)"
	done_testing
	exit 0
fi
printf '[filter]\ndefault-action = allow\n[credentials]\nuser = root\n' >"$TAP_TMP/plain.ini"
printf '[filter]\ndefault-action = allow\n[credentials]\nuser = root\n[capabilities]\nkeep = cap_net_bind_service\n' \
	>"$TAP_TMP/caps.ini"
printf '{ "defaultAction": "SCMP_ACT_ALLOW" }\n' >"$TAP_TMP/p.json"

run env LD_DEBUG=libs "$SCMP_RUN" -p "$TAP_TMP/plain.ini" -- /bin/true
status_is 0 "no capability named: the command runs"
unlike "$ERR" "libcap-ng" "... and libcap-ng is not loaded"
run env LD_DEBUG=libs "$SCMP_RUN" -p "$TAP_TMP/caps.ini" -- /bin/grep '^CapEff' /proc/self/status
status_is 0 "a capability named: the command runs"
like "$ERR" "libcap-ng.so.0" "... libcap-ng is loaded"
like "$OUT" "CapEff:	0000000000000400" "... and CAP_NET_BIND_SERVICE (bit 10) alone is kept"

# A library by that name that is no library: the named capability is refused
# at its key, nothing runs; a profile without capabilities still runs. One
# without libcap-ng's functions: the missing one is named.
lib_unusable libcap-ng.so.0 "$TAP_TMP/caps.ini" "$TAP_TMP/plain.ini" \
	"$TAP_TMP/caps.ini:6: error: capability names need libcap-ng.so.0: " \
	capng_name_to_capability
run env LD_LIBRARY_PATH="$TAP_TMP/libc-lib" "$SCMP_RUN" --oci-caps CAP_NET_ADMIN \
	-p "$TAP_TMP/p.json" --check
status_is 1 "... --oci-caps is refused too"
like "$ERR" "--oci-caps: capability names need libcap-ng.so.0: " "... saying why"

done_testing
