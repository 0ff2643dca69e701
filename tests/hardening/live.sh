#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# [hardening] presets through the command line, live in the kernel: every
# preset shows the denial it promises and a near miss still works, as root
# and as uid 65534; memory-deny-write-execute with PR_SET_MDWE and with the
# rules that replace it on older kernels (the seam binary).
# Usage: live.sh SCMP-RUN-SEAM HELPER (environment: SCMP_RUN, SRCDIR).

# $NOBODY is a command prefix, split on purpose.
# shellcheck disable=SC2086
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root (runs as root and as uid 65534)"
	exit 0
fi
if ! command -v setpriv >/dev/null; then
	echo "1..0 # SKIP needs setpriv"
	exit 0
fi
. "$SRCDIR/tests/tap.sh"

SEAM=${1:?usage: live.sh SCMP-RUN-SEAM HELPER}
H=${2:?usage: live.sh SCMP-RUN-SEAM HELPER}
S=$SCMP_RUN
NOBODY="setpriv --reuid 65534 --regid 65534 --clear-groups"
chmod 755 "$TAP_TMP"
P=$TAP_TMP/p
mkdir "$P"
# the helper must be executable by uid 65534
cp "$H" "$TAP_TMP/helper"
chmod 755 "$TAP_TMP/helper"
H=$TAP_TMP/helper

# prof NAME: an allow-all profile, root with the capabilities the near
# misses need (so a denial comes from the preset, not from a missing
# capability), then [hardening] from standard input; NAME-nobody.ini is
# the same without credentials and capabilities.
prof() {
	{
		printf '[filter]\ndefault-action = allow\n[hardening]\n'
		cat
	} >"$P/$1-nobody.ini"
	{
		printf '[credentials]\nuser = root\n'
		printf '[capabilities]\nkeep = CAP_SYS_ADMIN CAP_SYS_NICE CAP_NET_RAW\n'
		cat "$P/$1-nobody.ini"
	} >"$P/$1.ini"
}

# expect NAME WANT CALL [ARG...]: the helper's CALL under profile NAME
# prints WANT ("ok" or an errno name).
expect() {
	_name=$1
	_want=$2
	shift 2
	run "$S" -p "$P/$_name.ini" "$H" "$@"
	is "$(cat "$OUT")" "$_want" "$_name: $* -> $_want"
}

# The same without the preset: each call works (the denials below come
# from the presets).
prof base </dev/null
printf 'tty-injection = deny\n' | prof base
for c in "mprotect-rwx" "mmap-wx" "shmat-exec" "personality 8" "unshare 0x10000000" \
	"setns 0" "setns 0x40000000" "socket 2" "sched 1" "sched 0x40000001" "sched_setattr"; do
	expect base ok $c
done
touch "$TAP_TMP/f"
expect base ok chmod 4755 "$TAP_TMP/f"
expect base EINVAL clone3
# READ_IMPLIES_EXEC makes the kernel add PROT_EXEC to a read-write mmap
expect base rwx rie-mmap

# ---- memory-deny-write-execute: PR_SET_MDWE, then the rules ----

printf 'memory-deny-write-execute = yes\n' | prof mdwe
run "$S" -p "$P/mdwe.ini" --check
like "$OUT" "hardening: memory-deny-write-execute ($P/mdwe.ini:8): PR_SET_MDWE" \
	"--check: PR_SET_MDWE is used"
unlike "$OUT" "hardening rule:" "--check: no rules with PR_SET_MDWE"
run "$S" -v -p "$P/mdwe.ini" true
like "$ERR" "scmp-run: hardening: memory-deny-write-execute ($P/mdwe.ini:8): PR_SET_MDWE" \
	"-v: PR_SET_MDWE is used"
expect mdwe EACCES mprotect-rwx
expect mdwe EACCES mprotect-rx
expect mdwe EACCES mmap-wx
expect mdwe ok mprotect-r
expect mdwe ok mmap-rw
expect mdwe EACCES rie-mmap
expect mdwe EACCES shmat-exec
# --explain: no rule decides these, the kernel refuses them past the filter
K="kernel: memory-deny-write-execute ($P/mdwe.ini:8) is PR_SET_MDWE here: the kernel refuses this call with EACCES"
for c in "mprotect 0 4096 7" "pkey_mprotect 0 4096 6 0" "mmap 0 4096 6 0x22 -1 0" \
	"shmat 0 0 0x8000"; do
	# $c is a call and its arguments, split on purpose
	run "$S" -p "$P/mdwe.ini" --explain $c
	like "$OUT" "$K" "--explain $c: the kernel refuses it (PR_SET_MDWE)"
done
run "$S" -p "$P/mdwe.ini" --explain mprotect 0 4096 5
like "$OUT" "$K unless the memory is executable already" \
	"--explain mprotect PROT_READ|PROT_EXEC: refused unless executable already"
for c in "mprotect 0 4096 1" "mmap 0 4096 5 0x22 -1 0" "shmat 0 0 0x9000"; do
	run "$S" -p "$P/mdwe.ini" --explain $c
	unlike "$OUT" "kernel:" "--explain $c: the kernel runs it"
done

# A runtime sets no PR_SET_MDWE: the JSON carries the rules, whatever the
# kernel that exports it (tests/oci/test-crun.sh runs them under crun)
run "$S" -p "$P/mdwe.ini" --export-oci "$TAP_TMP/mdwe.json"
if [ "$RC" = 0 ]; then
	tr -d ' \n' <"$TAP_TMP/mdwe.json" >"$TAP_TMP/mdwe.flat"
	like "$TAP_TMP/mdwe.flat" '"names":["mmap"],"action":"SCMP_ACT_ERRNO","errnoRet":1,"args":[{"index":2,"value":6,"valueTwo":6,"op":"SCMP_CMP_MASKED_EQ"}]' \
		"--export-oci with PR_SET_MDWE here: mmap with PROT_WRITE|PROT_EXEC denied by rule"
	like "$TAP_TMP/mdwe.flat" '"names":["mprotect","pkey_mprotect"],"action":"SCMP_ACT_ERRNO","errnoRet":1,"args":[{"index":2,"value":4,"valueTwo":4,"op":"SCMP_CMP_MASKED_EQ"}]' \
		"... and mprotect with PROT_EXEC"
	unlike "$ERR" "memory-deny-write-execute" "... with no warning about it"
else
	skip "--export-oci is not built"
	skip "--export-oci is not built"
	skip "--export-oci is not built"
fi

run env SCMP_RUN_TEST_NO_MDWE=1 "$SEAM" -p "$P/mdwe.ini" --check
like "$OUT" "hardening: memory-deny-write-execute ($P/mdwe.ini:8): seccomp rules" \
	"--check without PR_SET_MDWE: the rules"
like "$OUT" "hardening rule: $P/mdwe.ini:8: errno(EPERM) mprotect if prot & PROT_EXEC != 0" \
	"--check lists the mprotect rule at the key's line"
like "$OUT" "hardening rule: $P/mdwe.ini:8: errno(EPERM) shmat if shmflg & SHM_EXEC != 0" \
	"--check lists the shmat rule"
for c in "mprotect-rwx:EPERM" "mprotect-rx:EPERM" "mmap-wx:EPERM" "shmat-exec:EPERM" \
	"mprotect-r:ok" "mmap-rw:ok" "shmat:ok"; do
	run env SCMP_RUN_TEST_NO_MDWE=1 "$SEAM" -p "$P/mdwe.ini" "$H" "${c%%:*}"
	is "$(cat "$OUT")" "${c#*:}" "mdwe by rules: ${c%%:*} -> ${c#*:}"
done
# personality(READ_IMPLIES_EXEC) would make the next read-write mmap
# executable behind the rule on prot; the query and other personas pass.
for c in "rie-mmap:EPERM" "personality 0x400000:EPERM" "personality 0x100400000:EPERM" \
	"personality 0xffffffff:ok" "personality 8:ok"; do
	# $a is a call and its argument, split on purpose
	a=${c%%:*}
	run env SCMP_RUN_TEST_NO_MDWE=1 "$SEAM" -p "$P/mdwe.ini" "$H" $a
	is "$(cat "$OUT")" "${c#*:}" "mdwe by rules: $a -> ${c#*:}"
done
run env SCMP_RUN_TEST_NO_MDWE=1 "$SEAM" -p "$P/mdwe.ini" --check
like "$OUT" "hardening rule: $P/mdwe.ini:8: errno(EPERM) personality if personality & READ_IMPLIES_EXEC != 0 && personality != 0xffffffff" \
	"--check lists the personality rule"
run env SCMP_RUN_TEST_NO_MDWE=1 "$SEAM" -p "$P/mdwe.ini" --explain mprotect 0 4096 7
like "$OUT" "rule: $P/mdwe.ini:8" "--explain names the [hardening] line"
unlike "$OUT" "kernel:" "--explain without PR_SET_MDWE: no kernel line"

# Rules cannot see old_mmap's protection (i386): an error at the key.
printf '[filter]\ndefault-action = allow\narchitectures = x86_64 x86\n[hardening]\n' \
	>"$P/mdwe-i386.ini"
printf 'memory-deny-write-execute = yes\n' >>"$P/mdwe-i386.ini"
run env SCMP_RUN_TEST_NO_MDWE=1 "$SEAM" -p "$P/mdwe-i386.ini" --check
status_is 1 "mdwe by rules with i386: --check exits 1"
like "$ERR" "scmp-run: $P/mdwe-i386.ini:5: error: memory-deny-write-execute: this kernel has no PR_SET_MDWE, and on x86 mmap" \
	"mdwe by rules with i386: the error is at the key"
run env SCMP_RUN_TEST_NO_MDWE=1 "$SEAM" -p "$P/mdwe-i386.ini" "$H" mmap-rw
status_is 125 "mdwe by rules with i386: run mode exits 125"
[ -s "$OUT" ]
ok $((! $?)) "mdwe by rules with i386: nothing ran"
run "$S" -p "$P/mdwe-i386.ini" --check
status_is 0 "mdwe with i386 and PR_SET_MDWE: no rules, no error"

# ---- lock-personality ----

printf 'lock-personality = yes\n' | prof pers
expect pers EPERM personality 8
expect pers ok personality 0
expect pers ok personality 0xffffffff
run "$S" -p "$P/pers.ini" --explain personality 8
like "$OUT" "rule: $P/pers.ini:8" "--explain personality: the [hardening] line"
run "$S" -p "$P/pers.ini" --check
like "$OUT" "hardening: lock-personality ($P/pers.ini:8): personality 0 kept" \
	"--check names the personality kept"

# ---- restrict-namespaces ----

printf 'restrict-namespaces = net\n' | prof ns-net
expect ns-net EPERM unshare 0x10000000
expect ns-net ok unshare 0x40000000
expect ns-net EPERM setns 0
expect ns-net ok setns 0x40000000
expect ns-net ENOSYS clone3
printf 'restrict-namespaces = ~user\n' | prof ns-nouser
expect ns-nouser EPERM unshare 0x10000000
expect ns-nouser ok unshare 0x40000000
printf 'restrict-namespaces = yes\n' | prof ns-yes
expect ns-yes EPERM setns 0x40000000
expect ns-yes EPERM unshare 0x80
run "$S" -p "$P/ns-yes.ini" --explain clone 0x80
like "$OUT" "allow" "clone: 0x80 is the exit signal, not CLONE_NEWTIME"
run "$S" -p "$P/ns-yes.ini" --explain unshare 0x80
like "$OUT" "rule: $P/ns-yes.ini:8" "unshare: CLONE_NEWTIME is denied at the [hardening] line"
run "$S" -p "$P/ns-yes.ini" --explain clone 0x10000000
like "$OUT" "errno(EPERM)" "clone with CLONE_NEWUSER is denied"
run "$S" -p "$P/ns-yes.ini" --explain clone 0x1000000010000000
like "$OUT" "errno(EPERM)" "clone: bits above the kernel's 32 do not hide a flag"
printf 'restrict-namespaces = no\n' | prof ns-no
expect ns-no ok unshare 0x10000000

# ---- restrict-address-families ----

printf 'restrict-address-families = AF_UNIX\n' | prof af
expect af EAFNOSUPPORT socket 2
expect af EAFNOSUPPORT socket 10
expect af ok socket 1
expect af ok socketpair 1
run "$S" -p "$P/af.ini" --explain socket 2 1 0
like "$OUT" "rule: $P/af.ini:8" "--explain socket: the [hardening] line"
run "$S" -p "$P/af.ini" --explain socket 0x100000001 1 0
like "$OUT" "allow" "socket: the family is 32 bits (upper half ignored like the kernel)"
# i386: socketcall hides socket's family; the strictest outcome decides.
run "$S" -p "$P/af.ini" --target-arch x86 --explain socketcall 1 0
like "$OUT" "errno(EAFNOSUPPORT)" "socketcall(SYS_SOCKET) on x86: EAFNOSUPPORT (family hidden)"
like "$OUT" "rule: $P/af.ini:8 (through the multiplexer" "socketcall: the [hardening] line"
run "$S" -p "$P/af.ini" --target-arch x86 --explain socketcall 3 0
like "$OUT" "allow" "socketcall(SYS_CONNECT) on x86: not decided by the preset"
# (AF_INET, SOCK_PACKET) is an AF_PACKET socket to the kernel (17)
expect base "ok 17" socket 2 10
expect af EAFNOSUPPORT socket 2 10
printf 'restrict-address-families = AF_UNIX AF_INET\n' | prof af-inet
expect af-inet EAFNOSUPPORT socket 2 10
expect af-inet EAFNOSUPPORT socket 2 0x8000a
expect af-inet "ok 2" socket 2 2
expect af-inet EAFNOSUPPORT socket 17 3
printf 'restrict-address-families = AF_INET AF_PACKET\n' | prof af-packet
expect af-packet "ok 17" socket 2 10
printf 'restrict-address-families = ~AF_INET AF_INET6\n' | prof af-deny
expect af-deny EAFNOSUPPORT socket 2
expect af-deny EAFNOSUPPORT socket 10
expect af-deny ok socket 1
printf 'restrict-address-families = ~AF_PACKET\n' | prof af-deny-packet
expect af-deny-packet EAFNOSUPPORT socket 2 10
expect af-deny-packet "ok 2" socket 2 1

# ---- restrict-realtime ----

printf 'restrict-realtime = yes\n' | prof rt
expect rt EPERM sched 1
expect rt EPERM sched 2
expect rt EPERM sched 0x40000001
expect rt EPERM sched_setattr
expect rt ok sched 0
expect rt ok sched 3

# ---- restrict-suid-sgid ----

printf 'restrict-suid-sgid = yes\n' | prof suid
expect suid EPERM chmod 4755 "$TAP_TMP/f"
expect suid EPERM chmod 2755 "$TAP_TMP/f"
expect suid ok chmod 644 "$TAP_TMP/f"
expect suid ok chmod 1755 "$TAP_TMP/f"
# A file made with the bits is the same door as chmod: every call that
# takes a mode for a new file (the umask holds permission bits only)
mkdir -m 755 "$TAP_TMP/made"
for c in open openat creat mknod mknodat; do
	for m in 4755 2755; do
		expect suid EPERM "create-$c" "$m" "$TAP_TMP/made/$c-$m"
		run test -e "$TAP_TMP/made/$c-$m"
		status_is 1 "suid: create-$c $m: nothing made"
	done
	expect suid ok "create-$c" 1755 "$TAP_TMP/made/$c-1755"
	is "$(stat -c %a "$TAP_TMP/made/$c-1755")" 1755 "suid: create-$c 1755: made, mode 1755"
done
expect suid EPERM create-tmpfile 4755 "$TAP_TMP/made"
expect suid ok create-tmpfile 755 "$TAP_TMP/made"
# openat2 passes its mode in memory
expect suid ENOSYS create-openat2 644 "$TAP_TMP/made/openat2"
# without the preset, each makes a set-id file
mkdir -m 755 "$TAP_TMP/made-base"
for c in open openat creat mknod mknodat; do
	expect base ok "create-$c" 6755 "$TAP_TMP/made-base/$c"
	is "$(stat -c %a "$TAP_TMP/made-base/$c")" 6755 "base: create-$c 6755: a set-id file"
done
expect base ok create-openat2 4755 "$TAP_TMP/made-base/openat2"

# ---- as uid 65534 ----

printf 'memory-deny-write-execute = yes\nlock-personality = yes\nrestrict-address-families = AF_UNIX\nrestrict-suid-sgid = yes\n' |
	prof all
for c in "mprotect-rwx:EACCES" "mprotect-r:ok" "personality 8:EPERM" "personality 0:ok" \
	"socket 2:EAFNOSUPPORT" "socket 1:ok"; do
	run $NOBODY "$S" -p "$P/all-nobody.ini" "$H" ${c%%:*}
	is "$(cat "$OUT")" "${c#*:}" "uid 65534: ${c%%:*} -> ${c#*:}"
done
mkdir "$TAP_TMP/nb" && chown 65534 "$TAP_TMP/nb" && touch "$TAP_TMP/nb/f" && chown 65534 "$TAP_TMP/nb/f"
run $NOBODY "$S" -p "$P/all-nobody.ini" "$H" chmod 4755 "$TAP_TMP/nb/f"
is "$(cat "$OUT")" EPERM "uid 65534: chmod u+s of its own file -> EPERM"
run $NOBODY "$S" -p "$P/all-nobody.ini" "$H" chmod 600 "$TAP_TMP/nb/f"
is "$(cat "$OUT")" ok "uid 65534: chmod 600 of its own file -> ok"
run $NOBODY "$S" -p "$P/all-nobody.ini" "$H" create-openat 4755 "$TAP_TMP/nb/made"
is "$(cat "$OUT") $(test -e "$TAP_TMP/nb/made" || echo none)" "EPERM none" \
	"uid 65534: a new set-id file of its own -> EPERM, nothing made"

done_testing
