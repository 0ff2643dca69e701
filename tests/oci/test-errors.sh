#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Malformed OCI JSON: every fixture of tests/oci/bad is rejected with its
# error at FILE:LINE:COLUMN (bad/EXPECT: "FILE LINE:COLUMN TEXT"), by --check,
# --import-oci (nothing printed) and run mode (exit 125, nothing runs).
. "$(dirname "$0")/../tap.sh"
cd "$SRCDIR/tests/oci/bad" || exit 99
me=$(id -un)

n=0
while read -r file pos text; do
	n=$((n + 1))
	want="scmp-run: ./$file:$pos: error: $text"
	run "$SCMP_RUN" -p "./$file" --check
	if [ "$RC" -eq 1 ] && grep -qxF -- "$want" "$ERR" && [ ! -s "$OUT" ]; then
		ok 0 "$file: --check says $pos"
	else
		ok 1 "$file: --check says $pos"
		diag "exit $RC; want: $want" "stderr:" "$(cat "$ERR")"
	fi
	run "$SCMP_RUN" --import-oci "./$file"
	[ "$RC" -eq 1 ] && [ ! -s "$OUT" ] && grep -qxF -- "$want" "$ERR"
	ok $? "$file: --import-oci fails, prints nothing"
	rm -f "$TAP_TMP/ran"
	run "$SCMP_RUN" -p "./$file" --user "$me" -- /bin/sh -c ": > '$TAP_TMP/ran'"
	[ "$RC" -eq 125 ] && [ ! -e "$TAP_TMP/ran" ]
	ok $? "$file: run mode exits 125, the command never runs"
done <EXPECT
is "$n" "$(ls ./*.json | wc -l)" "every fixture has an EXPECT line"

cd "$SRCDIR/tests/oci" || exit 99
# Unknown syscall names are skipped with a located warning, as runc does.
run "$SCMP_RUN" -p ./unknown-name.json --check
is "$RC" 0 "unknown syscall name: the profile loads"
like "$ERR" "scmp-run: ./unknown-name.json:4:16: warning: unknown syscall 'no_such_call' skipped (as runc does)" \
	"unknown syscall name: warning at its LINE:COLUMN"
run "$SCMP_RUN" --import-oci ./unknown-name.json
like "$OUT" "# unknown syscall 'no_such_call' skipped (as runc does)" "--import-oci says so too"

run "$SCMP_RUN" -p ./unknown-name.json --oci-caps CAP_SYS_ADMIN,CAP_NO_SUCH --check
is "$RC" 1 "--oci-caps with an unknown capability is rejected"
like "$ERR" "scmp-run: error: --oci-caps: unknown capability 'CAP_NO_SUCH'" "... naming it"

# A path longer than the position index keeps (a very long unknown key):
# still rejected, located at the file only, never at another value.
long=$(printf 'k%.0s' $(seq 300))
printf '{ "defaultAction": "SCMP_ACT_ALLOW",\n  "%s": { "x": 1 } }\n' "$long" >"$TAP_TMP/long.json"
run "$SCMP_RUN" -p "$TAP_TMP/long.json" --check
is "$RC" 1 "a very long unknown key is rejected"
like "$ERR" "scmp-run: $TAP_TMP/long.json: error: unknown field 'kkk" "... located at the file (the documented limit)"

# The size limit of a profile holds for JSON too: one byte over is refused
# before anything is read (the file is sparse), the limit itself is read.
truncate -s 1048577 "$TAP_TMP/big.json"
run "$SCMP_RUN" -p "$TAP_TMP/big.json" --check
is "$RC" 1 "a JSON profile over 1 MiB is rejected"
like "$ERR" "scmp-run: $TAP_TMP/big.json: error: '$TAP_TMP/big.json' is too large (1048577 bytes, at most 1048576)" \
	"... saying how large, and the limit"
truncate -s 1048576 "$TAP_TMP/limit.json"
run "$SCMP_RUN" -p "$TAP_TMP/limit.json" --check
like "$ERR" "$TAP_TMP/limit.json:1:1: error: invalid JSON" \
	"a JSON profile of exactly 1 MiB is read (and its content judged)"
unlike "$ERR" "too large" "... not refused for its size"

run "$SCMP_RUN" -p "$SRCDIR/profiles/minimal.ini" --oci-caps CAP_SYS_ADMIN --check
is "$RC" 2 "--oci-caps with an INI profile is a usage error"
like "$ERR" "--oci-caps is for JSON profiles" "... saying so"

# --export-oci: what cannot be matched is a located error, and nothing is
# written; what has no OCI form is a warning.
cat >"$TAP_TMP/no-native.ini" <<'EOI'
[filter]
default-action = errno(EPERM)
architectures = x86
[allow]
syscalls = read
EOI
cat >"$TAP_TMP/trap-data.ini" <<'EOI'
[filter]
default-action = allow
[trap(5)]
syscalls = ptrace
EOI
cat >"$TAP_TMP/per-abi.ini" <<'EOI'
[filter]
default-action = errno(EPERM)
architectures = native x86
[allow]
lseek = offset > 5
EOI
cat >"$TAP_TMP/one-abi.ini" <<'EOI'
[filter]
default-action = errno(EPERM)
architectures = native x86
[allow]
syscalls = x86/3
EOI
cat >"$TAP_TMP/warnings.ini" <<'EOI'
[filter]
default-action = errno(EPERM)
unknown-syscall-action = errno(ENOSYS)
bad-arch-action = kill-process
architectures = native x86
[allow]
syscalls = read write
[priority]
read = 200
[errno(EACCES)]
syscalls = socket
EOI
# export_fails PROFILE MESSAGE DESCRIPTION
export_fails() {
	rm -f "$TAP_TMP/out.json"
	run "$SCMP_RUN" -p "$TAP_TMP/$1" --export-oci "$TAP_TMP/out.json"
	[ "$RC" -eq 1 ] && [ ! -e "$TAP_TMP/out.json" ] && grep -qF -- "$2" "$ERR"
	ok $? "$3"
	[ "$RC" -eq 1 ] || diag "exit $RC" "$(cat "$ERR")"
}
export_fails no-native.ini \
	"scmp-run: $TAP_TMP/no-native.ini:3: error: --export-oci: the filter does not cover $(uname -m | sed 's/amd64/x86_64/'), the native ABI" \
	"--export-oci: a profile without the native ABI is an error at its architectures key"
export_fails trap-data.ini "$TAP_TMP/trap-data.ini:4: error: --export-oci: trap(5) has no OCI form" \
	"--export-oci: trap with data is a located error"
# notify needs an agent that listenerPath names: runc refuses the JSON
# without one (and as defaultAction, and on write), crun fails the call
# with ENOSYS. Said once per rule, however many ABIs and names it has.
printf '[filter]\ndefault-action = allow\narchitectures = native x86\n[notify]\nsyscalls = mkdir write\n' \
	>"$TAP_TMP/notify-rule.ini"
printf '[filter]\ndefault-action = notify\n[allow]\nsyscalls = @default\n' >"$TAP_TMP/notify-default.ini"
printf '[filter]\ndefault-action = allow\narchitectures = native x86\n[trap(5)]\nsyscalls = ptrace\n' \
	>"$TAP_TMP/trap-two-abis.ini"
# SCMP_ACT_TRAP as defaultAction would lose the data too (si_errno 0).
printf '[filter]\ndefault-action = trap(5)\n[allow]\nsyscalls = @default\n' >"$TAP_TMP/trap-default.ini"
export_fails notify-rule.ini \
	"$TAP_TMP/notify-rule.ini:5: error: --export-oci: notify needs a seccomp agent named by listenerPath" \
	"--export-oci: a notify rule is a located error"
is "$(grep -c "error: --export-oci: notify" "$ERR")" 1 "... said once for two names on two ABIs"
export_fails notify-default.ini \
	"$TAP_TMP/notify-default.ini:2: error: --export-oci: notify as the default action: runc refuses SCMP_ACT_NOTIFY as defaultAction" \
	"--export-oci: notify as the default action is a located error"
export_fails trap-two-abis.ini "$TAP_TMP/trap-two-abis.ini:5: error: --export-oci: trap(5) has no OCI form" \
	"--export-oci: trap with data on two ABIs is an error"
is "$(grep -c "trap(5)" "$ERR")" 1 "... said once"
export_fails trap-default.ini \
	"$TAP_TMP/trap-default.ini:2: error: --export-oci: trap(5) has no OCI form: SCMP_ACT_TRAP carries no data" \
	"--export-oci: trap with data as the default action is a located error"
export_fails one-abi.ini \
	"scmp-run: $TAP_TMP/one-abi.ini:3: error: --export-oci: 'read' has rules on x86 but none on $(uname -m | sed 's/amd64/x86_64/'): JSON entries apply to every ABI alike" \
	"--export-oci: a syscall with rules on one ABI only is an error at the architectures key"
like "$ERR" "$TAP_TMP/one-abi.ini:5: note: this rule of 'read'" "... naming the rule"
export_fails per-abi.ini "$TAP_TMP/per-abi.ini:5: note: this rule of 'lseek'" \
	"--export-oci: a rule deciding differently per ABI is named"
# With i386 in the filter libseccomp writes the entries of a sub-call onto
# socketcall or ipc as well (scmp-run.ini(5), --export-oci).
cat >"$TAP_TMP/mux-cond.ini" <<'EOI'
[filter]
default-action = errno(EPERM)
architectures = native x86
[allow]
syscalls = exit_group
socket = family == AF_UNIX
[errno(EAFNOSUPPORT)]
socket = family == AF_INET6
EOI
cat >"$TAP_TMP/mux-ipc.ini" <<'EOI'
[filter]
default-action = errno(EPERM)
architectures = native x86
[allow]
syscalls = exit_group shmget
EOI
cat >"$TAP_TMP/mux-own.ini" <<'EOI'
[filter]
default-action = errno(EPERM)
architectures = native x86
[allow]
syscalls = exit_group socketcall
[errno(EACCES)]
syscalls = socket
EOI
export_fails mux-cond.ini \
	"scmp-run: error: --export-oci: 'socket' cannot be written for libseccomp with x86: libseccomp drops its conditions on the socketcall form" \
	"--export-oci: conditional rules on a socketcall sub-call with x86 are an error"
like "$ERR" "$TAP_TMP/mux-cond.ini:6: note: this rule of 'socket'" "... naming the first rule"
like "$ERR" "$TAP_TMP/mux-cond.ini:8: note: this rule of 'socket'" "... and the second"
export_fails mux-ipc.ini \
	"scmp-run: error: --export-oci: 'shmget' cannot be written for libseccomp with x86: libseccomp compares ipc's call number whole" \
	"--export-oci: a rule on an ipc sub-call with x86 is an error"
cat >"$TAP_TMP/mux-own-cond.ini" <<'EOI'
[filter]
default-action = errno(EPERM)
architectures = native x86
[allow]
syscalls = exit_group socket
socketcall = call == 1
EOI
# socketcall itself allowed, and socket's rules of two actions that both
# yield to it there: libseccomp refuses the second on socketcall when both
# come before socketcall's own entry
cat >"$TAP_TMP/mux-actions.ini" <<'EOI'
[filter]
default-action = kill-process
architectures = native x86
[errno(EPERM)]
syscalls = exit_group socketcall
[allow]
socket = family == AF_UNIX
[log]
socket = family == AF_INET
EOI
export_fails mux-own.ini \
	"scmp-run: error: --export-oci: 'socket' cannot be written for libseccomp with x86: libseccomp gives its socketcall form the action of the entry of 'socketcall', and the profile decides it otherwise (see scmp-run.ini(5), Multiplexed calls)" \
	"--export-oci: a sub-call stricter than its allowed multiplexer with x86 is an error"
like "$ERR" "$TAP_TMP/mux-own.ini:7: note: this rule of 'socket'" "... naming the rule"
like "$ERR" "$TAP_TMP/mux-own.ini:3: hint: remove x86 from the architectures (from archMap's subArchitectures in a JSON profile), or make the rules of 'socket' no stricter than that of 'socketcall'" \
	"... and saying what to change"
export_fails mux-own-cond.ini \
	"scmp-run: error: --export-oci: 'socket' cannot be written for libseccomp with x86: libseccomp adds its entries to those of 'socketcall', which compare arguments" \
	"--export-oci: a sub-call beside a conditional rule on the multiplexer with x86 is an error"
like "$ERR" "$TAP_TMP/mux-own-cond.ini:3: hint: remove x86 from the architectures (from archMap's subArchitectures in a JSON profile), or give 'socketcall' one rule without conditions" \
	"... and saying what to change"
export_fails mux-actions.ini \
	"scmp-run: error: --export-oci: 'socket' cannot be written for libseccomp with x86: its entries have several actions, which libseccomp refuses on socketcall unless the entry of 'socketcall' comes first" \
	"--export-oci: sub-call entries of two actions beside the multiplexer's with x86 are an error"
like "$ERR" "$TAP_TMP/mux-actions.ini:3: hint: remove x86 from the architectures (from archMap's subArchitectures in a JSON profile), or give 'socket' rules of one action" \
	"... and saying what to change"
# recv is a socketcall sub-call i386 has no syscall for: no entry carries
# its rule, and libseccomp gives socketcall(SYS_RECV) the defaultAction
printf '[filter]\ndefault-action = allow\narchitectures = native x86\n[errno(EPERM)]\nsyscalls = recv\n' \
	>"$TAP_TMP/mux-recv.ini"
export_fails mux-recv.ini \
	"scmp-run: error: --export-oci: 'recv' cannot be written for libseccomp with x86: libseccomp gives its socketcall form the defaultAction, and the profile decides it otherwise" \
	"--export-oci: a rule on a sub-call reached only through socketcall with x86 is an error"
like "$ERR" "$TAP_TMP/mux-recv.ini:5: note: this rule of 'recv'" "... naming the rule"
grep -qxF "scmp-run: $TAP_TMP/mux-recv.ini:3: hint: remove x86 from the architectures (from archMap's subArchitectures in a JSON profile)" "$ERR"
ok $? "... and saying what to change"
# Two shapes libseccomp 2.5.4 mishandles are refused (scmp-run.ini(5),
# --export-oci): a pointer's '!= 0' in two entries that go on to test an
# argument on values that differ above bit 31 (libseccomp never finishes
# adding the second, so the runtime would hang) ...
printf '[filter]\ndefault-action = errno(EACCES)\narchitectures = x86_64\n[kill-thread]\nread = buf != 0 && count in { 0x100, 0x100000000 }\n' \
	>"$TAP_TMP/lsc-loops.ini"
export_fails lsc-loops.ini \
	"scmp-run: error: --export-oci: 'read' on x86_64 cannot be written for libseccomp: libseccomp 2.5 never finishes compiling its entries" \
	"--export-oci: entries libseccomp never finishes adding are an error"
like "$ERR" "$TAP_TMP/lsc-loops.ini:5: note: this rule of 'read'" "... naming the rule"
# ... and, with x86_64, x32 and x86, entries without arguments on calls
# x86_64 lacks only, where libseccomp would compare the architecture as
# the syscall number and give every call of x86_64 the defaultAction
printf '[filter]\ndefault-action = log\narchitectures = x86_64 x86 x32\n[allow]\nsyscalls = socketcall\n' \
	>"$TAP_TMP/lsc-load.ini"
export_fails lsc-load.ini \
	"scmp-run: $TAP_TMP/lsc-load.ini:3: error: --export-oci: libseccomp 2.5 would compile this JSON without loading the syscall number for x86_64 and x32" \
	"--export-oci: a JSON libseccomp compiles without the number load is an error"
like "$ERR" "$TAP_TMP/lsc-load.ini:5: note: this rule of 'socketcall'" "... naming the rule"
like "$ERR" "$TAP_TMP/lsc-load.ini:3: hint: remove x32 from the architectures, or give a call x86_64 has a rule without a condition" \
	"... saying what avoids it"
sed 's/= socketcall$/= socketcall read/' "$TAP_TMP/lsc-load.ini" >"$TAP_TMP/lsc-load-read.ini"
run "$SCMP_RUN" -p "$TAP_TMP/lsc-load-read.ini" --export-oci /dev/null
is "$RC" 0 "... and a rule without a condition on a call x86_64 has is written"
# A multiplexer allowed by name beside allowed sub-calls (Docker's and
# Podman's default profiles, with x86 in archMap): libseccomp's entry of the
# multiplexer decides every call of it, as the profile does
run "$SCMP_RUN" -p "$SRCDIR/tests/oci/json/mux-allowed.json" --export-oci -
is "$RC" 0 "--export-oci: a multiplexer and its sub-calls allowed with x86 are written"
like "$OUT" '"SCMP_ARCH_X86"' "... for x86"
unlike "$ERR" "multiplexer" "... without a warning"
run "$SCMP_RUN" -p "$SRCDIR/tests/oci/export/x86-socket.ini" --export-oci -
is "$RC" 0 "--export-oci: unconditional rules on socketcall sub-calls with x86 are written"
# ... exactly (tests/oci/test-libseccomp.c compiles them), so without a warning
unlike "$ERR" "multiplexer" "--export-oci: unconditional rules on socketcall sub-calls: no warning"

# The size libseccomp may compile the JSON to: export/bound.ini is the
# largest of its shape that is written, one value more is refused.
run "$SCMP_RUN" -p "$SRCDIR/tests/oci/export/bound.ini" --export-oci -
is "$RC" 0 "--export-oci: an export at the size bound is written"
sed 's/3853 }$/3853, 3855 }/' "$SRCDIR/tests/oci/export/bound.ini" >"$TAP_TMP/over.ini"
export_fails over.ini \
	"scmp-run: error: --export-oci: libseccomp may compile the JSON to 4033 instructions, more than the 4032 a runtime can load" \
	"--export-oci: an export one entry over the size bound is an error"
like "$ERR" "$TAP_TMP/over.ini:9: note: this rule of 'kill' (522 instructions with its other rules)" \
	"... naming the rules that cost most"

run "$SCMP_RUN" -p "$TAP_TMP/warnings.ini" --export-oci -
is "$RC" 0 "--export-oci: what OCI cannot say does not stop the export"
like "$ERR" "$TAP_TMP/warnings.ini:3: warning: --export-oci: unknown-syscall-action has no OCI form" \
	"... unknown-syscall-action, at its line"
like "$ERR" "$TAP_TMP/warnings.ini:4: warning: --export-oci: bad-arch-action has no OCI form" \
	"... bad-arch-action, at its line"
like "$ERR" "$TAP_TMP/warnings.ini:9: warning: --export-oci: priorities have no OCI form" "... priorities"
like "$OUT" '"defaultErrnoRet": 1,' "... and the JSON is written"

# An unknown-syscall-action stricter than the default: the JSON would give
# unknown numbers the weaker defaultAction. An error at the line to change,
# unless a profile that includes it says the default action is meant.
printf '[filter]\ndefault-action = allow\nunknown-syscall-action = kill-process\n[errno(EPERM)]\nsyscalls = ptrace\n' \
	>"$TAP_TMP/unknown-kill.ini"
printf '[filter]\ndefault-action = trace(1)\n[allow]\nsyscalls = read\n' >"$TAP_TMP/unknown-trace.ini"
printf '[profile]\ninclude = unknown-kill.ini\n[filter]\nunknown-syscall-action = allow\n' \
	>"$TAP_TMP/unknown-meant.ini"
export_fails unknown-kill.ini \
	"$TAP_TMP/unknown-kill.ini:3: error: --export-oci: unknown-syscall-action kill-process is stricter than the default action allow" \
	"--export-oci: an unknown-syscall-action stricter than the default is a located error"
like "$ERR" "$TAP_TMP/unknown-kill.ini:3: hint: to export it anyway, giving them allow, set unknown-syscall-action = allow" \
	"... with a hint"
export_fails unknown-trace.ini \
	"$TAP_TMP/unknown-trace.ini:2: error: --export-oci: unknown-syscall-action errno(ENOSYS) (its default) is stricter than the default action trace(1)" \
	"--export-oci: ... also the errno(ENOSYS) it defaults to under trace, at default-action"
run "$SCMP_RUN" -p "$TAP_TMP/unknown-meant.ini" --export-oci -
is "$RC" 0 "--export-oci: unknown-syscall-action set to the default action: written"
like "$OUT" '"defaultAction": "SCMP_ACT_ALLOW"' "... with the default action"

# A name libseccomp 2.5 cannot resolve: runc and crun skip its entries, so
# a rule stricter than the defaultAction would not hold there.
printf '[filter]\ndefault-action = allow\n[errno(EPERM)]\nsyscalls = mseal ptrace\n' \
	>"$TAP_TMP/new-deny.ini"
run "$SCMP_RUN" -p "$TAP_TMP/new-deny.ini" --export-oci -
is "$RC" 0 "--export-oci: a name libseccomp 2.5 does not know is written"
like "$ERR" "$TAP_TMP/new-deny.ini:4: warning: --export-oci: libseccomp 2.5 (2.5.4 in Debian 12) does not know 'mseal' on $(uname -m | sed 's/amd64/x86_64/'): runc and crun linked with it skip its entries, and give its calls the defaultAction" \
	"... with a located warning where the rule is stricter than the defaultAction"
unlike "$ERR" "'ptrace'" "... and none for a name it knows"
like "$OUT" '"mseal"' "... and its entry is in the JSON"
printf '[filter]\ndefault-action = errno(EPERM)\n[allow]\nsyscalls = mseal exit_group\n' \
	>"$TAP_TMP/new-allow.ini"
run "$SCMP_RUN" -p "$TAP_TMP/new-allow.ini" --export-oci -
unlike "$ERR" "does not know 'mseal'" \
	"--export-oci: no warning where a skipped rule only leaves the stricter defaultAction"
printf '[filter]\ndefault-action = errno(EPERM)\n[kill-process]\nsyscalls = mseal\n' \
	>"$TAP_TMP/new-kill.ini"
run "$SCMP_RUN" -p "$TAP_TMP/new-kill.ini" --export-oci -
like "$ERR" "$TAP_TMP/new-kill.ini:4: warning: --export-oci: libseccomp 2.5 (2.5.4 in Debian 12) does not know 'mseal'" \
	"--export-oci: a warning for kill-process under an errno defaultAction"

# [landlock] restricts what linux.seccomp cannot say: the runtime would run
# the command without those paths, ports and scopes. A warning at the
# first key; none for mode = off, which asks for nothing.
cat >"$TAP_TMP/landlock.ini" <<'EOI'
[filter]
default-action = allow
[landlock]
bind-tcp = 8080
write = /tmp
EOI
run "$SCMP_RUN" -p "$TAP_TMP/landlock.ini" --export-oci -
is "$RC" 0 "--export-oci: [landlock] does not stop the export"
like "$ERR" "$TAP_TMP/landlock.ini:5: warning: --export-oci: [landlock] has no OCI form" \
	"... but is a warning, at its first path key"
unlike "$OUT" '"valueTwo": 262' \
	"... and the rules its TCP key adds (MPTCP refused) are left out with the domain"
unlike "$OUT" '"valueTwo": 43,' "... (AF_SMC refused) too"
printf '[filter]\ndefault-action = allow\n[landlock]\nscope = abstract-unix\n' \
	>"$TAP_TMP/landlock-scope.ini"
run "$SCMP_RUN" -p "$TAP_TMP/landlock-scope.ini" --export-oci -
like "$ERR" "$TAP_TMP/landlock-scope.ini:4: warning: --export-oci: [landlock] has no OCI form" \
	"... a scope too"
printf '[filter]\ndefault-action = allow\n[landlock]\nmode = off\nwrite = /tmp\n' \
	>"$TAP_TMP/landlock-off.ini"
run "$SCMP_RUN" -p "$TAP_TMP/landlock-off.ini" --export-oci -
unlike "$ERR" "[landlock]" "--export-oci: near miss: mode = off asks for no domain"

# A JSON profile in run mode and --explain: the errno of the entry. JSON
# names no user: --user names the one the tests run as (the uid-0 guard).
run "$SCMP_RUN" -p ./json/deny-mkdir.json --user "$me" -- mkdir "$TAP_TMP/made"
[ "$RC" -ne 0 ] && [ ! -e "$TAP_TMP/made" ]
ok $? "run mode: mkdir is denied by the JSON profile"
like "$ERR" "Permission denied" "... with errnoRet 13 (EACCES)"
run "$SCMP_RUN" -p ./json/deny-mkdir.json --user "$me" -- sh -c "echo ran"
is "$RC:$(cat "$OUT")" "0:ran" "run mode: an allowed program runs"
if [ "$(id -u)" -eq 0 ]; then
	run "$SCMP_RUN" -p ./json/deny-mkdir.json -- sh -c "echo ran"
	is "$RC:$(cat "$OUT")" "125:" "run mode as root: a JSON profile names no user, the uid-0 guard refuses"
	like "$ERR" "hint: running as root" "... with its hint"
else
	skip "the uid-0 guard needs root"
fi
# The file read is the file the trust check looked at: one renamed over it
# in between (swap-shim.so does it at the open) is refused, not read. As
# root, where the check applies; the sanitizer runtime insists on coming
# first, the shim only replaces open().
if [ "$(id -u)" -eq 0 ]; then
	SW=$TAP_TMP/swap
	mkdir -m 755 "$SW"
	cp ./json/deny-mkdir.json "$SW/p.json"
	printf '{ "defaultAction": "SCMP_ACT_ALLOW" }\n' >"$SW/planted.json"
	chmod 666 "$SW/planted.json"
	run env LD_PRELOAD="$BUILDDIR/tests/oci/swap-shim.so" SCMP_TEST_SWAP_TO="$SW/p.json" \
		SCMP_TEST_SWAP_FROM="$SW/planted.json" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$SCMP_RUN" -p "$SW/p.json" --check
	is "$RC" 1 "a JSON profile replaced after its trust check: refused"
	like "$ERR" "is another file than the one checked a moment before" "... and says so"
	[ ! -e "$SW/planted.json" ]
	ok $? "... the file was replaced indeed"
else
	skip "the trust check applies as root"
	skip "the trust check applies as root"
	skip "the trust check applies as root"
fi
# 2000 levels of nesting (jansson takes 2048) on a 256 KiB stack: refused
# at the 33rd, not a crash of the recursion that indexes the text.
awk 'BEGIN { printf "{\"defaultAction\":\"SCMP_ACT_ALLOW\",\"x\":";
	for (i = 0; i < 2000; i++) printf "["; for (i = 0; i < 2000; i++) printf "]"; print "}" }' \
	>"$TAP_TMP/deep.json"
run sh -c 'ulimit -s 256 && exec "$@"' sh "$SCMP_RUN" -p "$TAP_TMP/deep.json" --check
is "$RC" 1 "2000 levels of nesting on a small stack: rejected, no crash"
like "$ERR" "error: JSON nested deeper than 32 levels" "... saying why"

# One syscall named 130,000 times by one entry (about the most 1 MiB holds),
# next to an entry of another action: the search for ties between rules is
# bounded. It took 15 s of CPU in the debug build; now under 1 s, 1 s with
# the sanitizers. A limit on CPU time, which a busy machine does not move.
awk 'BEGIN { printf "{\"defaultAction\":\"SCMP_ACT_ERRNO\",\"syscalls\":[{\"names\":[\"execve\"],\"action\":\"SCMP_ACT_ALLOW\"},{\"names\":[";
	for (i = 0; i < 130000; i++) printf "%s\"read\"", i ? "," : "";
	printf "],\"action\":\"SCMP_ACT_ALLOW\"},{\"names\":[\"read\"],\"action\":\"SCMP_ACT_LOG\"}]}\n" }' \
	>"$TAP_TMP/many-reads.json"
run sh -c 'ulimit -t 6 && exec "$@"' sh "$SCMP_RUN" -p "$TAP_TMP/many-reads.json" --check
is "$RC" 0 "one syscall named 130,000 times: --check ends within 6 s of CPU"
run "$SCMP_RUN" -p ./json/deny-mkdir.json --check
like "$OUT" "signals: dispositions and mask reset (default)" \
	"--check: a JSON profile has the caller-state defaults"
run "$SCMP_RUN" -p ./json/deny-mkdir.json --explain mkdirat
like "$OUT" "errno(EACCES)" "--explain: the JSON entry's errno"
like "$OUT" "rule: ./json/deny-mkdir.json:4" "--explain: the rule's JSON line"
run "$SCMP_RUN" -p ./json/deny-mkdir.json --explain socket 40
like "$OUT" "errno(EAFNOSUPPORT)" "--explain: a JSON condition decides (AF_VSOCK)"
run "$SCMP_RUN" -p ./json/deny-mkdir.json --explain socket 0x100000028
like "$OUT" "errno(EAFNOSUPPORT)" "--explain: garbage in the upper half of an int does not bypass it"

done_testing
