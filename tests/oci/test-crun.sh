#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# A real OCI runtime runs a profile exported with --export-oci: crun starts a
# minimal container (a rootfs made here from a static busybox) whose
# linux.seccomp is the export of a sample profile. A call the profile denies
# fails inside with the same errno as under scmp-run itself; an allowed
# program runs; the built-in rule against terminal injection holds inside.
# Usage: test-crun.sh [TTY-IOCTL HARDENING-HELPER]   (the static helpers
# tests/oci/tty-ioctl.c and tests/hardening/helper.c)
. "$(dirname "$0")/../tap.sh"

busybox=$(command -v busybox || true)
why=
[ "$(id -u)" -eq 0 ] || why="crun needs root here"
command -v crun >/dev/null 2>&1 || why="no crun (apt-get install crun)"
[ -n "$busybox" ] || why="no busybox (apt-get install busybox-static)"
if [ -z "$why" ] && ldd "$busybox" >/dev/null 2>&1; then
	why="$busybox is not static (apt-get install busybox-static)"
fi
if [ -z "$why" ] && ! unshare -m sh -c 'mount -t cgroup2 none /sys/fs/cgroup' 2>/dev/null; then
	why="cannot mount a cgroup2 hierarchy in a new mount namespace"
fi
if [ -n "$why" ]; then
	skip "$why"
	done_testing
	exit
fi

bundle=$TAP_TMP/bundle
mkdir -p "$bundle/rootfs/bin" "$TAP_TMP/state" || exit 99
cp "$busybox" "$bundle/rootfs/bin/busybox" || exit 99
(cd "$bundle" && crun spec) || exit 99
n=0

# in_container PROFILE.json CMD: run CMD (sh -c) in the container; output
# in $OUT and $ERR, status in $RC.
in_container() {
	n=$((n + 1))
	python3 - "$bundle/config.json" "$1" "$2" <<'PY' || exit 99
import json, sys
path, profile, cmd = sys.argv[1:]
c = json.load(open(path))
c["process"]["terminal"] = False
c["process"]["args"] = ["/bin/busybox", "sh", "-c", cmd]
c["linux"]["seccomp"] = json.load(open(profile))
json.dump(c, open(path, "w"), indent=1)
PY
	# shellcheck disable=SC2086 # $wrap is a command and its arguments
	run unshare -m sh -c 'mount -t cgroup2 none /sys/fs/cgroup &&
		root=$1 bundle=$2 id=$3 && shift 3 &&
		exec "$@" crun --cgroup-manager=disabled --root "$root" run -b "$bundle" "$id"' \
		sh "$TAP_TMP/state" "$bundle" "scmp-run-test-$$-$n" $wrap
}
wrap=

# check PROFILE CMD TEXT: CMD fails with TEXT (the errno's message) inside
# the container and under scmp-run alike. PROFILE: a sample profile, or a
# path in the source tree.
check() {
	case $1 in
	*/*) profile=$SRCDIR/$1 ;;
	*) profile=$SRCDIR/profiles/$1 ;;
	esac
	json=$TAP_TMP/$(basename "$1").json
	run "$SCMP_RUN" -p "$profile" --export-oci "$json"
	is "$RC" 0 "$1: --export-oci succeeds"
	in_container "$json" "echo hello from busybox"
	is "$RC:$(cat "$OUT")" "0:hello from busybox" "$1: crun runs an allowed program"
	[ "$RC" -eq 0 ] || diag "$(cat "$ERR")"
	in_container "$json" "busybox $2"
	inside=$(grep -F "$3" "$ERR")
	ok $? "$1: 'busybox $2' fails inside with '$3'"
	[ -n "$inside" ] || diag "$(cat "$ERR")"
	run "$SCMP_RUN" -p "$profile" --user root "$busybox" $2
	outside=$(grep -F "$3" "$ERR")
	is "$inside" "$outside" "$1: the same error under scmp-run"
}

check no-network.ini "nc 127.0.0.1 9" "socket: Operation not permitted"
run "$SCMP_RUN" -p "$SRCDIR/profiles/no-network.ini" --explain socket AF_INET
like "$OUT" "errno(EPERM)" "no-network: --explain says EPERM for socket(AF_INET)"
check net-daemon.ini "arping -c1 -I lo 127.0.0.1" "socket: Address family not supported by protocol"
run "$SCMP_RUN" -p "$SRCDIR/profiles/net-daemon.ini" --explain socket AF_PACKET
like "$OUT" "errno(EAFNOSUPPORT)" "net-daemon: --explain says EAFNOSUPPORT for socket(AF_PACKET)"
# Docker's shape: socketcall and ipc allowed by name beside rules on socket
# and shmget, x86 and x32 in archMap; socket refused for AF_INET only
check tests/oci/json/mux-allowed.json "nc 127.0.0.1 9" "socket: Operation not permitted"
like "$TAP_TMP/mux-allowed.json.json" '"SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"' \
	"mux-allowed.json: exported for x86 and x32 too"
in_container "$TAP_TMP/mux-allowed.json.json" "busybox mkdir /x"
like "$ERR" "mkdir: can't create directory '/x': Operation not permitted" \
	"mux-allowed.json: a call it does not name gets the defaultAction inside"

# The flags the runtime installs the filter with: crun and runc read a
# JSON without "flags" as SECCOMP_FILTER_FLAG_SPEC_ALLOW (the speculative
# store bypass mitigation off), which scmp-run sets only for spec-allow = yes.
if command -v strace >/dev/null 2>&1; then
	wrap="strace -f -qq -e trace=seccomp -o $TAP_TMP/strace"
	in_container "$TAP_TMP/no-network.ini.json" "true"
	wrap=
	grep -E 'SECCOMP_SET_MODE_FILTER, [^,]*, \{len=' "$TAP_TMP/strace" >"$TAP_TMP/installs"
	is "$RC:$(wc -l <"$TAP_TMP/installs")" "0:1" "flags: crun installs the exported filter once"
	unlike "$TAP_TMP/installs" "SPEC_ALLOW" "flags: ... without SECCOMP_FILTER_FLAG_SPEC_ALLOW"
	[ -s "$TAP_TMP/installs" ] || diag "$(cat "$TAP_TMP/strace")"
else
	skip "no strace: the flags crun installs the filter with are not checked"
fi

# The built-in rule tty-injection is part of the exported program: the
# runtime refuses TIOCSTI and TIOCLINUX as scmp-run does (without a filter
# they fail otherwise: standard input is no terminal).
tty_ioctl=${1:-}
if ! "$SCMP_RUN" -p "$SRCDIR/profiles/no-network.ini" --explain ioctl 0 0x5412 2>/dev/null |
	grep -qF "built-in:tty-injection"; then
	skip "no built-in rule tty-injection in this build"
elif [ -n "$tty_ioctl" ]; then
	denied="TIOCSTI: Operation not permitted
TIOCLINUX: Operation not permitted"
	cp "$tty_ioctl" "$bundle/rootfs/bin/tty-ioctl" || exit 99
	in_container "$TAP_TMP/no-network.ini.json" /bin/tty-ioctl
	is "$RC:$(cat "$OUT")" "0:$denied" "tty-injection: crun refuses TIOCSTI and TIOCLINUX"
	run "$SCMP_RUN" -p "$SRCDIR/profiles/no-network.ini" --user root "$tty_ioctl"
	is "$RC:$(cat "$OUT")" "0:$denied" "tty-injection: so does scmp-run"
	run "$tty_ioctl"
	unlike "$OUT" "not permitted" "tty-injection: without a filter the calls fail otherwise"
else
	skip "no static tty-ioctl helper (no static libc)"
fi

# memory-deny-write-execute, which run mode sets with PR_SET_MDWE where the
# kernel has it, is exported as rules: the runtime enforces it too.
helper=${2:-}
if [ -n "$helper" ]; then
	cp "$helper" "$bundle/rootfs/bin/hardening-helper" || exit 99
	printf '[filter]\ndefault-action = allow\n[hardening]\nmemory-deny-write-execute = yes\n' \
		>"$TAP_TMP/mdwe.ini"
	run "$SCMP_RUN" -p "$TAP_TMP/mdwe.ini" --export-oci "$TAP_TMP/mdwe.json"
	is "$RC" 0 "mdwe: --export-oci succeeds"
	for c in mprotect-rx mmap-wx mprotect-r; do
		want=EPERM
		[ $c = mprotect-r ] && want=ok
		in_container "$TAP_TMP/mdwe.json" "/bin/hardening-helper $c"
		is "$RC:$(cat "$OUT")" "0:$want" "mdwe: $c in the container: $want"
	done
else
	skip "no static hardening helper (no static libc)"
fi

done_testing
