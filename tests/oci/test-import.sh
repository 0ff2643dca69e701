#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# --import-oci prints an INI profile that compiles to the very program
# -p FILE.json compiles to (byte for byte), with comments naming each entry
# and every change of meaning; --check names the dropped entries.
. "$(dirname "$0")/../tap.sh"
cd "$SRCDIR/tests/oci" || exit 99
podman=/usr/share/containers/seccomp.json

# same_program FILE [OPTION...]: the import of FILE and FILE itself compile
# to the same program.
same_program() {
	f=$1
	shift
	run "$SCMP_RUN" "$@" --import-oci "$f"
	cp "$OUT" "$TAP_TMP/imported.ini"
	is "$RC" 0 "$f $*: --import-oci succeeds"
	# (--check would reject a profile that denies execve or uses notify,
	# which run mode refuses: the fixtures do both)
	run "$SCMP_RUN" -p "$TAP_TMP/imported.ini" --export-bpf "$TAP_TMP/ini.bpf"
	is "$RC" 0 "$f $*: the imported profile loads"
	[ "$RC" -eq 0 ] || diag "$(cat "$ERR")"
	"$SCMP_RUN" "$@" -p "$f" --export-bpf "$TAP_TMP/json.bpf" 2>/dev/null
	cmp -s "$TAP_TMP/ini.bpf" "$TAP_TMP/json.bpf" && [ -s "$TAP_TMP/json.bpf" ]
	ok $? "$f $*: the imported profile compiles to the same program"
}

for f in json/*.json; do
	same_program "./$f"
done
same_program ./json/includes.json --oci-caps CAP_SYS_ADMIN,CAP_NET_ADMIN
if [ -r "$podman" ]; then
	same_program "$podman"
	same_program "$podman" --oci-caps CAP_SYS_ADMIN,CAP_SYS_PTRACE
	run "$SCMP_RUN" --import-oci "$podman"
	like "$OUT" "overlaps entry 1 on 'setns' with another action: errno(1) wins here (the strictest)" \
		"Podman: the overlap on setns is named"
else
	skip "$podman is missing (apt-get install golang-github-containers-common)"
fi

run "$SCMP_RUN" --import-oci ./json/includes.json
like "$OUT" "# entry 1, line 11" "entries are announced with their line"
like "$OUT" "# left out: needs CAP_SYS_ADMIN (not in --oci-caps)" "a left-out entry says why (caps)"
like "$OUT" "# left out: only for other architectures (this is amd64)" "... (arches)"
like "$OUT" "# left out: needs kernel >= 255.0" "... (minKernel)"
like "$OUT" "# left out: excluded: the kernel is" "... (excludes minKernel)"
like "$OUT" "architectures = x86_64 x86 x32" "archMap: the host's entry"
like "$OUT" "# unknown syscall 'bogus_syscall' skipped (as runc does)" "a skipped name is named"
# --oci-caps names a capability twice (or in two spellings): kept once. The
# includes of a capability named after many repeats decide as the
# capability is kept, and so it must be kept in run mode too.
many=$(printf 'CAP_CHOWN,%.0s' $(seq 64))cap_sys_admin,chown
run "$SCMP_RUN" -p ./json/includes.json --oci-caps "$many" --check
like "$OUT" "capabilities: kept CAP_CHOWN CAP_SYS_ADMIN;" \
	"--oci-caps, a capability repeated: kept once, and the one after the repeats kept too"
run "$SCMP_RUN" -p ./json/includes.json --oci-caps "$many" --explain mount
like "$OUT" ": allow" "--oci-caps, a capability repeated: the entry that needs the last one is kept"
# The keep line of many --oci-caps is wrapped: the imported profile loads
# and keeps what -p on the JSON keeps.
caps=CAP_SYS_ADMIN,CAP_NET_ADMIN,CAP_SYS_PTRACE,CAP_DAC_OVERRIDE,CAP_DAC_READ_SEARCH
caps=$caps,CAP_NET_BIND_SERVICE,CAP_NET_RAW,CAP_SYS_CHROOT,CAP_SYS_MODULE,CAP_SYS_RAWIO
caps=$caps,CAP_SYS_BOOT,CAP_SYS_NICE,CAP_SYS_RESOURCE,CAP_SYS_TIME,CAP_AUDIT_CONTROL
same_program ./json/includes.json --oci-caps "$caps"
"$SCMP_RUN" -p ./json/includes.json --oci-caps "$caps" --check 2>/dev/null |
	grep '^capabilities:' >"$TAP_TMP/caps.json.txt"
"$SCMP_RUN" -p "$TAP_TMP/imported.ini" --check 2>/dev/null |
	grep '^capabilities:' >"$TAP_TMP/caps.ini.txt"
[ -s "$TAP_TMP/caps.json.txt" ] && cmp -s "$TAP_TMP/caps.json.txt" "$TAP_TMP/caps.ini.txt"
ok $? "--oci-caps, 15 capabilities: the imported profile keeps what the JSON keeps"
run "$SCMP_RUN" --import-oci ./json/ops.json
like "$OUT" "# arg0 of dup is 32-bit: the low 32 bits are compared, where libseccomp compares all" \
	"width changes are named"
like "$OUT" "fdatasync = arg0 >= 3" "unsigned compares stay plain on unsigned arguments"
like "$OUT" "setpgid = arg0 >= 0" "unsigned compares on signed arguments become signed ranges"
like "$OUT" "setpgid = arg0 < -0x7ffffffb" "... with the second range as its own rule"
like "$OUT" "umask = arg0 & 63 == 18" "SCMP_CMP_MASKED_EQ is (arg & value) == valueTwo"
like "$OUT" "default-action = errno(38)" "defaultErrnoRet"
like "$OUT" "unknown-syscall-action = errno(38)" "unknown numbers get the default, as in libseccomp"
run "$SCMP_RUN" --import-oci ./json/actions.json
like "$OUT" "[kill-thread]" "SCMP_ACT_KILL is kill-thread"
like "$OUT" "[trace(1)]" "SCMP_ACT_TRACE without errnoRet is trace(1)"
like "$OUT" "log = yes" "flags: SECCOMP_FILTER_FLAG_LOG"
like "$OUT" "spec-allow = yes" "flags: SECCOMP_FILTER_FLAG_SPEC_ALLOW"
run "$SCMP_RUN" -p ./json/actions.json --check
like "$ERR" "./json/actions.json:15:3: note: entry 10 dropped: its action is the defaultAction (as runc does)" \
	"--check names an entry dropped for having the default action"

# The built-in rules (scmp-run.ini(5) BUILT-IN RULES): an export writes
# them as entries (the runtime must load the program run mode loads); the
# import of that export leaves out the rules that restate them, and the
# built-in decides again.
nn=$SRCDIR/profiles/no-network.ini
if "$SCMP_RUN" -p "$nn" --explain ioctl 0 0x5412 2>/dev/null | grep -qF "built-in:tty-injection"; then
	run "$SCMP_RUN" -p "$nn" --export-oci "$TAP_TMP/nn.json"
	is "$RC" 0 "built-ins: --export-oci succeeds"
	for v in 21522 21532; do
		like "$TAP_TMP/nn.json" "\"value\": 4294967295, \"valueTwo\": $v" \
			"built-ins: the export has the tty-injection entry for $v"
	done
	run "$SCMP_RUN" --import-oci "$TAP_TMP/nn.json"
	cp "$OUT" "$TAP_TMP/nn.ini"
	like "$OUT" "# 'ioctl' left out: the built-in rule tty-injection says the same" \
		"built-ins: the import leaves out the rules that restate one"
	unlike "$OUT" "ioctl =" "built-ins: ... and writes no rule on ioctl"
	run "$SCMP_RUN" -p "$TAP_TMP/nn.ini" --explain ioctl 0 0x541c
	like "$OUT" "rule: built-in:tty-injection" "built-ins: the imported profile's built-in decides"
	run "$SCMP_RUN" -p "$TAP_TMP/nn.ini" --export-oci "$TAP_TMP/nn2.json"
	cmp -s "$TAP_TMP/nn.json" "$TAP_TMP/nn2.json"
	ok $? "built-ins: exporting the import gives the first export again"
	printf '[hardening]\ntty-injection = allow\n' >>"$TAP_TMP/nn.ini"
	run "$SCMP_RUN" -p "$TAP_TMP/nn.ini" --explain ioctl 0 0x5412
	is "$RC:$(head -n1 "$OUT" | sed 's/.*: //')" "0:allow" \
		"built-ins: [hardening] can still drop it in the imported profile"
else
	skip "no built-in rule tty-injection in this build"
fi
# clone3: its entry in an export stays a rule when imported (a profile that
# names clone3 gets no built-in rule for it), and decides alike.
printf '[filter]\ndefault-action = allow\n[errno(EPERM)]\nclone = arg0 & 0x10000000 == 0x10000000\n' \
	>"$TAP_TMP/clone.ini"
if "$SCMP_RUN" -p "$TAP_TMP/clone.ini" --explain clone3 2>/dev/null | grep -qF "built-in:clone3"; then
	run "$SCMP_RUN" -p "$TAP_TMP/clone.ini" --export-oci "$TAP_TMP/clone.json"
	like "$TAP_TMP/clone.json" '"names": [ "clone3" ]' "built-ins: the export has the clone3 entry"
	run "$SCMP_RUN" --import-oci "$TAP_TMP/clone.json"
	cp "$OUT" "$TAP_TMP/clone2.ini"
	like "$OUT" "syscalls = clone3" "built-ins: its import keeps clone3 as a rule"
	run "$SCMP_RUN" -p "$TAP_TMP/clone2.ini" --export-oci "$TAP_TMP/clone2.json"
	cmp -s "$TAP_TMP/clone.json" "$TAP_TMP/clone2.json"
	ok $? "built-ins: exporting that import gives the first export again"
else
	skip "no built-in rule clone3 in this build"
fi

# valueTwo bits outside the mask: libseccomp masks the datum as well,
# (arg & value) == (valueTwo & value), so they never count
printf '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["umask"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13, "args": [{"index": 0, "value": 1, "valueTwo": 3, "op": "SCMP_CMP_MASKED_EQ"}]}]}\n' \
	>"$TAP_TMP/masked.json"
for a in 1 3 2; do
	run "$SCMP_RUN" -p "$TAP_TMP/masked.json" --explain umask $a
	sed -n 1p "$OUT" >"$TAP_TMP/masked.$a"
done
like "$TAP_TMP/masked.1" "errno(EACCES)" "MASKED_EQ, valueTwo 3 under mask 1: umask(1) is denied"
like "$TAP_TMP/masked.3" "errno(EACCES)" "MASKED_EQ, valueTwo 3 under mask 1: umask(3) is denied"
like "$TAP_TMP/masked.2" "allow" "MASKED_EQ, valueTwo 3 under mask 1: umask(2) is not"
run "$SCMP_RUN" --import-oci "$TAP_TMP/masked.json"
like "$OUT" "umask = arg0 & 1 == 1" "MASKED_EQ, valueTwo outside the mask: imported masked"
like "$OUT" "# valueTwo 0x3 has bits outside the mask 0x1: libseccomp drops them" \
	"MASKED_EQ, valueTwo outside the mask: the import says so"
# ... also on a syscall that no ABI of the filter has (arm's, read on
# x86_64): its rule matches nothing here, but the printed condition is the
# JSON's, for a profile that adds that ABI
printf '{"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["arm_fadvise64_64"], "action": "SCMP_ACT_ERRNO", "errnoRet": 13, "args": [{"index": 0, "value": 4, "valueTwo": 4, "op": "SCMP_CMP_MASKED_EQ"}]}]}\n' \
	>"$TAP_TMP/masked-idle.json"
run "$SCMP_RUN" --target-arch x86_64 --import-oci "$TAP_TMP/masked-idle.json"
like "$OUT" "arm_fadvise64_64? = arg0 & 4 == 4" \
	"MASKED_EQ on a syscall of no ABI of the filter: imported as (arg & value) == valueTwo"

# includes/excludes "arches" are compared with moby's name of the host's
# architecture (goToNative[GOARCH]): "x86" on a 32-bit x86 host, not "386"
printf '{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["modify_ldt"], "action": "SCMP_ACT_ALLOW", "includes": {"arches": ["amd64", "x32", "x86"]}}, {"names": ["uname"], "action": "SCMP_ACT_ALLOW", "includes": {"arches": ["386"]}}]}\n' \
	>"$TAP_TMP/arches.json"
run "$SCMP_RUN" --target-arch x86 -p "$TAP_TMP/arches.json" --explain modify_ldt
like "$OUT" ": allow" "includes arches 'x86' on an x86 target: the entry is kept"
run "$SCMP_RUN" --target-arch x86 -p "$TAP_TMP/arches.json" --explain uname
like "$OUT" ": errno(EPERM)" "includes arches '386' (Go's name) on an x86 target: left out, as moby does"

# archMap: moby takes the first entry of the host's architecture only
printf '{"defaultAction": "SCMP_ACT_ERRNO", "archMap": [{"architecture": "SCMP_ARCH_X86_64", "subArchitectures": []}, {"architecture": "SCMP_ARCH_X86_64", "subArchitectures": ["SCMP_ARCH_X86"]}], "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ALLOW"}]}\n' \
	>"$TAP_TMP/archmap2.json"
if [ "$(uname -m)" = x86_64 ]; then
	run "$SCMP_RUN" --import-oci "$TAP_TMP/archmap2.json"
	like "$OUT" "architectures = x86_64" "archMap, two entries of the host: the first one's ABIs"
	unlike "$OUT" "architectures = x86_64 x86" "archMap, two entries of the host: not the second's"
	like "$ERR" "a second archMap entry for SCMP_ARCH_X86_64, the host's architecture: ignored" \
		"archMap, two entries of the host: says so"
else
	skip "archMap of x86_64: x86_64 hosts only"
fi

# Strings of the JSON reach the comments (a skipped name, a capability an
# entry needs): a newline in one must not end the comment and write a rule.
printf '{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["x\\n[allow]\\nsyscalls = getppid"], "action": "SCMP_ACT_ALLOW"}, {"names": ["getpid"], "action": "SCMP_ACT_ALLOW", "includes": {"caps": ["X\\n[allow]\\nsyscalls = getuid"]}}, {"names": ["read"], "action": "SCMP_ACT_ALLOW"}]}\n' \
	>"$TAP_TMP/inject.json"
run "$SCMP_RUN" --import-oci "$TAP_TMP/inject.json"
cp "$OUT" "$TAP_TMP/inject.ini"
like "$OUT" "# unknown syscall 'x\\n[allow]\\nsyscalls = getppid' skipped" \
	"a newline in a skipped name: the comment shows it escaped"
like "$OUT" "# left out: needs X\\n[allow]\\nsyscalls = getuid (not in --oci-caps)" \
	"a newline in a capability: the comment shows it escaped"
! grep -qE '^syscalls = (getppid|getuid)' "$TAP_TMP/inject.ini"
ok $? "... and no line of the profile comes from the JSON's strings"
for c in getppid getuid; do
	run "$SCMP_RUN" -p "$TAP_TMP/inject.ini" --explain $c
	like "$OUT" "$c (" "$c: explained"
	like "$OUT" ": errno(EPERM)" "the imported profile denies $c, as the JSON does"
done

# A long word of a comment is cut to wrap it, never inside a character
# (the loader refuses a profile that is not UTF-8): a name of 4-byte
# characters after 0 to 3 bytes of ASCII.
long=$(printf '\360\237\230\200%.0s' $(seq 40))
for pre in '' x xx xxx; do
	printf '{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["%s%s"], "action": "SCMP_ACT_ALLOW"}, {"names": ["read"], "action": "SCMP_ACT_ALLOW"}]}\n' \
		"$pre" "$long" >"$TAP_TMP/utf8.json"
	"$SCMP_RUN" --import-oci "$TAP_TMP/utf8.json" >"$TAP_TMP/utf8.ini" 2>/dev/null
	run "$SCMP_RUN" -p "$TAP_TMP/utf8.ini" --export-bpf /dev/null
	is "$RC" 0 "a long name of 4-byte characters after '$pre': the import loads"
	[ "$RC" -eq 0 ] || diag "$(cat "$ERR")"
done

# Overlaps are named for the first pairs of entries only: 400 entries on
# one syscall with two actions are 40000 overlapping pairs (a warning each
# took minutes and gigabytes for a file of a few thousand entries).
awk 'BEGIN {
	printf "{\"defaultAction\": \"SCMP_ACT_ERRNO\", \"syscalls\": [";
	for (i = 0; i < 400; i++)
		printf "%s{\"names\": [\"read\"], \"action\": \"SCMP_ACT_%s\"}", i ? ", " : "", i % 2 ? "LOG" : "ALLOW";
	print ", {\"names\": [\"execve\"], \"action\": \"SCMP_ACT_ALLOW\"}]}" }' >"$TAP_TMP/overlaps.json"
run "$SCMP_RUN" -p "$TAP_TMP/overlaps.json" --check
is "$RC:$(grep -c "can both match 'read' calls" "$ERR")" "0:32" "many overlaps: 32 pairs are named"
like "$ERR" "warning: more entries than the 32 pairs named can match the same calls with other actions" \
	"many overlaps: ... and one warning says there are more"
like "$ERR" "entries 0 (allow, line 1) and 1 (log, line 1) can both match 'read' calls: log wins here" \
	"many overlaps: the first pair is named"
run "$SCMP_RUN" --import-oci "$TAP_TMP/overlaps.json"
is "$RC:$(grep -c "^# overlaps entry" "$OUT")" "0:32" "many overlaps: --import-oci names 32 pairs too"

# "flags": runc and crun read a missing list as SECCOMP_FILTER_FLAG_SPEC_ALLOW
# (the speculative store bypass mitigation off); "flags": [] is no flag.
# An export says the flags the profile has, the empty list too.
printf '[filter]\ndefault-action = allow\n[errno(EPERM)]\nsyscalls = mkdir\n' \
	>"$TAP_TMP/noflags.ini"
run "$SCMP_RUN" -p "$TAP_TMP/noflags.ini" --export-oci "$TAP_TMP/noflags.json"
is "$RC" 0 "--export-oci without flags: written"
like "$TAP_TMP/noflags.json" '"flags": [ ],' "--export-oci without flags: an empty list, not none"
printf '[filter]\ndefault-action = allow\nspec-allow = yes\n[errno(EPERM)]\nsyscalls = mkdir\n' \
	>"$TAP_TMP/specallow.ini"
run "$SCMP_RUN" -p "$TAP_TMP/specallow.ini" --export-oci "$TAP_TMP/specallow.json"
like "$TAP_TMP/specallow.json" '"flags": [ "SECCOMP_FILTER_FLAG_SPEC_ALLOW" ],' \
	"--export-oci with spec-allow = yes: the flag"

# A pair of entries that overlaps on two syscalls is named for each: both
# are decided otherwise than runc may decide them.
run "$SCMP_RUN" -p ./json/overlap-names.json --check
for c in lseek kill; do
	like "$ERR" "entries 0 (kill-process, line 4) and 1 (trap(0), line 6) can both match '$c' calls" \
		"overlap on two syscalls: '$c' is named"
done

# --export-oci: what libseccomp refuses or reads otherwise is an error
printf '[filter]\ndefault-action = allow\n[errno(4095)]\nsyscalls = mkdir\n' >"$TAP_TMP/e4095.ini"
run "$SCMP_RUN" -p "$TAP_TMP/e4095.ini" --export-oci -
is "$RC" 1 "--export-oci of errno(4095): refused"
like "$ERR" "e4095.ini:4: error: --export-oci: errno 4095: libseccomp takes at most 4094" \
	"--export-oci of errno(4095): located at the rule"
printf '[filter]\ndefault-action = errno(4095)\n[allow]\nsyscalls = read\n' >"$TAP_TMP/d4095.ini"
run "$SCMP_RUN" -p "$TAP_TMP/d4095.ini" --export-oci -
is "$RC" 1 "--export-oci of default-action = errno(4095): refused"
like "$ERR" "d4095.ini:2: error: --export-oci: errno 4095" \
	"--export-oci of default-action = errno(4095): located at the key"
printf '[filter]\ndefault-action = allow\n[errno(4094)]\nsyscalls = mkdir\n' >"$TAP_TMP/e4094.ini"
run "$SCMP_RUN" -p "$TAP_TMP/e4094.ini" --export-oci -
is "$RC" 0 "--export-oci of errno(4094): written"
# x32: libseccomp compares the low 32 bits of every argument
printf '[filter]\ndefault-action = kill-process\narchitectures = native x32\n[allow]\nsyscalls = exit_group\nlseek = offset == 0x100000000\n' \
	>"$TAP_TMP/x32wide.ini"
run "$SCMP_RUN" --target-arch x86_64 -p "$TAP_TMP/x32wide.ini" --export-oci -
is "$RC" 1 "--export-oci, x32 and a 64-bit argument: refused"
like "$ERR" "'lseek' on x32 cannot be written for libseccomp: libseccomp compares the low 32 bits of x32's arguments" \
	"--export-oci, x32 and a 64-bit argument: says why"
printf '[filter]\ndefault-action = kill-process\narchitectures = native x32\n[allow]\nsyscalls = exit_group\nlseek = whence == 1\n' \
	>"$TAP_TMP/x32narrow.ini"
run "$SCMP_RUN" --target-arch x86_64 -p "$TAP_TMP/x32narrow.ini" --export-oci -
is "$RC" 0 "--export-oci, x32 and a 32-bit argument: written"

done_testing
