#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# --export-bpf (exactly len*8 bytes, stable, accepted by the kernel, equal to
# what run mode loads), --export-pfc against the golden files, --explain.
# Usage: test-export.sh BPF-TOOL
. "$(dirname "$0")/../tap.sh"
cd "$SRCDIR" || exit 99
BPF_TOOL=${1:?usage: test-export.sh BPF-TOOL}
P=tests/cli/profiles
X=$TAP_TMP

# program length as --check reports it
prog_len() {
	"$SCMP_RUN" -p "$1" --check ${2:+--target-arch "$2"} |
		sed -n 's/^program: \([0-9]*\) instructions.*/\1/p'
}

# ---- --export-bpf ----
for p in minimal net-daemon no-network system-service untrusted-tool \
	"$P/small.ini" "$P/multi-abi.ini" "$P/conditions.ini"; do
	name=$(basename "$p" .ini)
	run "$SCMP_RUN" -p "$p" --check
	status_is 0 "$name: --check accepts it"
	len=$(prog_len "$p")
	run "$SCMP_RUN" -p "$p" --export-bpf "$X/$name.bpf"
	status_is 0 "$name: --export-bpf FILE: 0"
	[ ! -s "$OUT" ] && [ ! -s "$ERR" ]
	ok $? "$name: --export-bpf FILE prints nothing"
	is "$(wc -c <"$X/$name.bpf" | tr -d ' ')" "$((len * 8))" \
		"$name: exactly len*8 bytes ($len instructions)"
	"$SCMP_RUN" -p "$p" --export-bpf - >"$X/$name.stdout.bpf"
	cmp -s "$X/$name.bpf" "$X/$name.stdout.bpf"
	ok $? "$name: --export-bpf - writes the same bytes to stdout"
	"$SCMP_RUN" -p "$p" --export-bpf "$X/$name.again.bpf"
	cmp -s "$X/$name.bpf" "$X/$name.again.bpf"
	ok $? "$name: a re-export is identical"
	run "$BPF_TOOL" load "$X/$name.bpf"
	status_is 0 "$name: the kernel accepts the program"
done

# Another target: the arch check changes, the kernel still accepts it.
run "$SCMP_RUN" -p "$P/small.ini" --target-arch aarch64 --export-bpf "$X/small-a64.bpf"
status_is 0 "--target-arch aarch64 --export-bpf: 0"
is "$(wc -c <"$X/small-a64.bpf" | tr -d ' ')" "$(($(prog_len "$P/small.ini" aarch64) * 8))" \
	"aarch64: exactly len*8 bytes"
cmp -s "$X/small-a64.bpf" "$X/small.bpf"
ok $((! $?)) "aarch64 program differs from the native one"
run "$BPF_TOOL" load "$X/small-a64.bpf"
status_is 0 "aarch64 program: the kernel accepts it"

# The helper itself refuses a broken program (the check can fail).
printf '\025\000\011\000\000\000\000\000' >"$X/broken.bpf"
run "$BPF_TOOL" load "$X/broken.bpf"
status_is 1 "a program with a jump past its end is rejected by the kernel"

# What run mode loads is what --export-bpf wrote: read the filter back from
# a running sandboxed process (PTRACE_SECCOMP_GET_FILTER, needs CAP_SYS_ADMIN).
for p in no-network system-service net-daemon untrusted-tool; do
	# as root, the sample plus user = root (same filter)
	SCMP_RUN_PROFILE_PATH=$(sample_profiles) "$SCMP_RUN" -p "$p" -- sleep 30 &
	pid=$!
	i=0
	while [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" != "$(command -v sleep)" ] &&
		[ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	run "$BPF_TOOL" dump "$pid" "$X/$p.live.bpf"
	rc=$RC
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	if [ "$rc" = 77 ]; then
		skip "$p: cannot read a filter back (needs CAP_SYS_ADMIN and ptrace)"
		continue
	fi
	is "$rc" 0 "$p: read the loaded filter back from the running command"
	cmp -s "$X/$p.bpf" "$X/$p.live.bpf"
	ok $? "$p: the loaded filter equals --export-bpf"
done

# ---- --export-pfc against the golden files ----
grep -v '^#' tests/cli/golden/LIST | while read -r profile arch; do
	[ -n "$profile" ] || continue
	echo "$profile $arch"
done >"$X/golden.list"
n=0
while read -r profile arch; do
	golden=tests/cli/golden/$profile.$arch.pfc
	run "$SCMP_RUN" -p "$P/$profile.ini" --target-arch "$arch" --export-pfc -
	status_is 0 "$profile ($arch): --export-pfc -: 0"
	if cmp -s "$OUT" "$golden"; then
		ok 0 "$profile ($arch): matches $golden"
	else
		ok 1 "$profile ($arch): matches $golden"
		diag "$(diff -u "$golden" "$OUT" | head -n 30)"
		diag "regenerate with tests/cli/regen-golden.sh BUILDDIR if the change is right"
	fi
	"$SCMP_RUN" -p "$P/$profile.ini" --target-arch "$arch" --export-pfc "$X/pfc"
	cmp -s "$OUT" "$X/pfc"
	ok $? "$profile ($arch): --export-pfc FILE writes the same"
	n=$((n + 1))
done <"$X/golden.list"
[ "$n" -ge 4 ]
ok $? "at least 4 golden files ($n)"
# every rule line carries its FILE:LINE
like tests/cli/golden/multi-abi.x86_64.pfc "# tests/cli/profiles/multi-abi.ini:16" \
	"PFC: the socket rule's FILE:LINE"
like tests/cli/golden/multi-abi.x86_64.pfc "filter for arch x32" "PFC: multi-ABI golden has x32"
like tests/cli/golden/multi-abi.x86_64.pfc "(multiplexed)" "PFC: socketcall sub-call on x86"

# The PFC decides as the program: read by its own rule (the first matching
# line decides, tests/cli/pfc-eval.py) for numbers of every kind: x86_64's,
# holes, above the table, x32's (bit 30), bit 31 alone, -1. Calls whose
# outcome depends on their arguments are left to the goldens.
audit_arch() {
	case $1 in
	x86_64) echo 0xc000003e ;;
	x86) echo 0x40000003 ;;
	aarch64) echo 0xc00000b7 ;;
	esac
}
pfc_agrees() { # PROFILE ARCH: prints "compared mismatches"
	nrs="0 1 2 16 39 59 101 102 231 257 335 336 400 435 470 471 1000 0x3fffffff 0x40000000
		0x40000001 0x40000008 0x40000027 0x40000150 0x40000200 0x400003e8 0x7fffffff
		0x80000005 0xc0000001 0xfffffffe 0xffffffff"
	"$SCMP_RUN" -p "$P/$1.ini" --target-arch "$2" --export-pfc "$X/eval.pfc" || return 1
	# shellcheck disable=SC2086 # one number per word
	python3 tests/cli/pfc-eval.py "$X/eval.pfc" "$(audit_arch "$2")" $nrs >"$X/eval.out" ||
		return 1
	c=0
	bad=0
	for nr in $nrs; do
		read -r want || return 1
		[ "$want" = args ] && continue
		got=$("$SCMP_RUN" -p "$P/$1.ini" --target-arch "$2" --explain "$nr" | sed -n '1s/.*): //p')
		c=$((c + 1))
		if [ "$got" != "$want" ]; then
			bad=$((bad + 1))
			diag "$1 ($2) nr $nr: PFC $want, program $got" >&2
		fi
	done <"$X/eval.out"
	echo "$c $bad"
}
for pa in "native-only x86_64" "multi-abi x86_64" "multi-abi x86" "small x86_64" "small aarch64" \
	"conditions x86_64"; do
	set -- $pa
	r=$(pfc_agrees "$1" "$2")
	set -- $pa $r
	[ -n "${3:-}" ] && [ "$3" -ge 20 ] && [ "$4" -eq 0 ]
	ok $? "PFC of $1 ($2) decides as the program on ${3:-0} numbers"
done
G=tests/cli/golden/native-only.x86_64.pfc
like "$G" 'if ($arch == 0xc000003e && (($syscall & 0x40000000) == 0 || $syscall == 0xffffffff))' \
	"PFC: x86_64's block tests the x32 bit, -1 is x86_64's"
like "$G" '  if ($syscall in [0, 336] || $syscall in [424, 470]) action errno(200);' \
	"PFC: the default action for the numbers of the table"
like tests/cli/golden/multi-abi.x86_64.pfc \
	'if ($arch == 0xc000003e && ($syscall & 0x40000000) != 0 && $syscall != 0xffffffff)' \
	"PFC: x32's block tests the x32 bit"
like tests/cli/golden/builtins.x86_64.pfc "every other number, named by the table or not" \
	"PFC: one catch-all line when the default and unknown actions agree"
printf '[filter]\ndefault-action = allow\nbad-arch-action = errno(EPERM)\n' >"$X/bad-arch.ini"
run "$SCMP_RUN" -p "$X/bad-arch.ini" --target-arch x86_64 --export-pfc -
is "$(tail -n 1 "$OUT")" "action errno(EPERM);" \
	"PFC: the bad-arch errno named, as the first ABI resolved it"

# ---- --explain ----
E="$SCMP_RUN -p $P/small.ini --target-arch x86_64 --explain"
run $E write 1
status_is 0 "explain write 1: 0"
like "$OUT" "write (x86_64 1): allow" "explain write 1: action"
like "$OUT" "rule: $P/small.ini:11" "explain write 1: deciding FILE:LINE"
like "$OUT" "instructions executed: " "explain: instructions executed"
run $E write 5
like "$OUT" "write (x86_64 1): errno(EPERM)" "explain write 5: the default action"
like "$OUT" "rule: default" "explain write 5: decided by the default"
run $E ptrace
like "$OUT" "ptrace (x86_64 101): kill-process" "explain ptrace: kill-process"
like "$OUT" "rule: $P/small.ini:14" "explain ptrace: FILE:LINE"
run $E 1 2
like "$OUT" "write (x86_64 1): allow" "explain by number with an argument"
run $E 1000
status_is 0 "explain of a number the table does not name: 0"
like "$OUT" "rule: unknown-syscall" "explain 1000: unknown-syscall"
run $E no_such_call
status_is 1 "explain of an unknown name: 1"
# instruction counts are numbers within the program
n_exec=$(sed -n 's/^instructions executed: \([0-9]*\) of \([0-9]*\)$/\1 \2/p' "$OUT")
run $E read
n_exec=$(sed -n 's/^instructions executed: \([0-9]*\) of \([0-9]*\)$/\1 \2/p' "$OUT")
set -- $n_exec
[ -n "${1:-}" ] && [ "$1" -gt 0 ] && [ "$1" -le "$2" ] && [ "$2" = "$(prog_len "$P/small.ini" x86_64)" ]
ok $? "explain read: 0 < executed <= program length ($n_exec)"

# constants as arguments
M="$SCMP_RUN -p $P/multi-abi.ini --explain"
run $M socket AF_UNIX
like "$OUT" ": allow" "explain socket AF_UNIX: allow"
like "$OUT" "rule: $P/multi-abi.ini:16" "explain socket AF_UNIX: FILE:LINE"
run $M socket AF_INET
like "$OUT" ": errno(EPERM)" "explain socket AF_INET: default errno(EPERM)"
run $M openat AT_FDCWD 0 O_RDWR
like "$OUT" ": errno(EACCES)" "explain openat AT_FDCWD 0 O_RDWR: errno(EACCES)"
like "$OUT" "multi-abi.ini:19" "explain openat O_RDWR: the errno rule's line"
run $M openat AT_FDCWD 0 O_RDONLY
like "$OUT" ": allow" "explain openat O_RDONLY: allow"
run $M --target-arch x86 socketcall 3
like "$OUT" "socketcall (x86 102): trap(0)" "explain socketcall(SYS_CONNECT) on x86: trap"
like "$OUT" "through the multiplexer" "explain: says the multiplexer decided"
C="$SCMP_RUN -p $P/conditions.ini --explain"
run $C kill -1 SIGTERM
like "$OUT" ": kill-thread" "explain kill -1 SIGTERM: negative argument"
run $C kill 5 SIGTERM
like "$OUT" ": allow" "explain kill 5 SIGTERM: allow"
run $C ioctl 0 TIOCSTI
like "$OUT" ": errno(EINVAL)" "explain ioctl 0 TIOCSTI: errno(EINVAL)"
run $C ioctl 0 0x100005412
like "$OUT" ": errno(EINVAL)" "explain ioctl: the upper half of a 32-bit argument is ignored"
run $C personality 0x100
like "$OUT" ": trap(7)" "explain personality 0x100: trap(7)"
run $C lseek 3 -5
like "$OUT" ": errno(EINVAL)" "explain lseek 3 -5: signed 64-bit comparison"

# Set members in any order (each value of the set must match).
S="$SCMP_RUN -p $P/set-order.ini --target-arch x86_64 --explain"
for v in 3 15; do
	run $S write $v
	like "$OUT" ": errno(EBADF)" "explain write $v: 'fd in { 15, 3 }' matches $v"
done
for v in 2 4 14 16; do
	run $S write $v
	like "$OUT" ": allow" "explain write $v: 'fd in { 15, 3 }' does not match $v"
done
for v in 0 4 9; do
	run $S read $v
	like "$OUT" ": allow" "explain read $v: 'fd not in { 9, 0, 4 }' does not match $v"
done
for v in 1 3 5 8 10; do
	run $S read $v
	like "$OUT" ": errno(EBADF)" "explain read $v: 'fd not in { 9, 0, 4 }' matches $v"
done
for v in TIOCSTI TIOCLINUX 0x5401; do
	run $S ioctl 0 $v
	like "$OUT" ": errno(EPERM)" "explain ioctl $v: in the unordered set"
done

# ---- built-in rules (scmp-run.ini(5) BUILT-IN RULES) ----
B="$SCMP_RUN -p $P/builtins.ini --target-arch x86_64 --explain"
run $B clone3 0 88
like "$OUT" "clone3 (x86_64 435): errno(ENOSYS)" "explain clone3: errno(ENOSYS) for a profile with a condition on clone"
like "$OUT" "rule: built-in:clone3" "explain clone3: the built-in rule decides"
run $B ioctl 0 TIOCSTI
like "$OUT" "ioctl (x86_64 16): errno(EPERM)" "explain ioctl TIOCSTI: errno(EPERM)"
like "$OUT" "rule: built-in:tty-injection" "explain ioctl TIOCSTI: the built-in rule decides"
run $B ioctl 0 0xffffffff0000541c
like "$OUT" ": errno(EPERM)" "explain ioctl TIOCLINUX with the upper half set: errno(EPERM)"
run $B ioctl 0 TIOCGWINSZ
like "$OUT" "rule: default" "explain ioctl TIOCGWINSZ: the default"
run "$SCMP_RUN" -p "$P/builtins.ini" --target-arch x86_64 --check
like "$OUT" "built-in rule: built-in:tty-injection: errno(EPERM) ioctl if cmd in { TIOCSTI, TIOCLINUX }" \
	"--check lists the tty-injection rule"
like "$OUT" "built-in rule: built-in:clone3: errno(ENOSYS) clone3" "--check lists the clone3 rule"
run "$SCMP_RUN" -p "$P/builtins.ini" --target-arch x86_64 --export-pfc -
like "$OUT" "action errno(ENOSYS); # built-in:clone3" "PFC shows the clone3 rule with its location"
like "$OUT" "action errno(EPERM); # built-in:tty-injection" "PFC shows the tty-injection rule"
O="$SCMP_RUN -p $P/builtins-off.ini --target-arch x86_64 --explain"
run $O ioctl 0 TIOCSTI
like "$OUT" "ioctl (x86_64 16): allow" "tty-injection = allow: TIOCSTI allowed"
like "$OUT" "rule: default" "tty-injection = allow: no built-in rule"
run $O clone3 0 88
like "$OUT" "rule: $P/builtins-off.ini:15" "clone3 named by itself: the profile's rule decides"
run "$SCMP_RUN" -p "$P/builtins-off.ini" --target-arch x86_64 --check
like "$OUT" "tty-injection: off ([hardening] tty-injection = allow at $P/builtins-off.ini:9)" \
	"--check says tty-injection is off and where"
unlike "$OUT" "built-in:clone3" "--check: no clone3 rule when the profile names clone3"
# unknown-syscall-action: errno(ENOSYS) under a denying default
run "$SCMP_RUN" -p "$P/small.ini" --target-arch x86_64 --check
like "$OUT" "unknown-syscall action: errno(ENOSYS) (not written: the default action denies)" \
	"--check: the unknown-syscall default"
run "$SCMP_RUN" -p "$P/small.ini" --target-arch x86_64 --explain 1000
like "$OUT" "1000): errno(ENOSYS)" "explain 1000: errno(ENOSYS) under a denying default"

# An x32 number is named by x32's table, whether x32 is in the filter or not.
run "$SCMP_RUN" -p "$P/multi-abi.ini" --target-arch x86_64 --explain 0x40000008 1000 -1
like "$OUT" "lseek (x32 1073741832): errno(EPERM)" "explain 0x40000008: x32's lseek"
run "$SCMP_RUN" -p "$P/native-only.ini" --target-arch x86_64 --explain 0x40000027
like "$OUT" "getpid (x32 1073741863): errno(202)" "explain 0x40000027 without x32: x32's getpid"
like "$OUT" "rule: bad-arch" "explain 0x40000027 without x32: bad-arch"
run "$SCMP_RUN" -p "$P/native-only.ini" --target-arch x86_64 --explain -- -1
like "$OUT" "unknown (x86_64 4294967295): errno(201)" "explain -1: x86_64's unknown number"

# uretprobe and uprobe: x86_64's numbers skip every seccomp filter on newer
# kernels (scmp-run.ini(5) SECURITY MODEL); x32's uprobe and i386's 335 do not.
run "$SCMP_RUN" -p "$P/native-only.ini" --target-arch x86_64 --explain uretprobe
like "$OUT" "uretprobe (x86_64 335): errno(200)" "explain uretprobe: the filter's action"
like "$OUT" "kernel: Linux 6.14 and later run uretprobe on x86_64 without consulting seccomp filters" \
	"explain uretprobe: the kernel does not filter it"
run "$SCMP_RUN" -p "$P/native-only.ini" --target-arch x86_64 --explain 336
like "$OUT" "kernel: Linux 6.18 and later run uprobe on x86_64 without consulting seccomp filters" \
	"explain 336: the kernel does not filter uprobe"
run "$SCMP_RUN" -p "$P/multi-abi.ini" --target-arch x86_64 --explain 0x40000150
like "$OUT" "uprobe (x32 1073742160)" "explain x32's uprobe: named"
unlike "$OUT" "kernel:" "explain x32's uprobe: filtered as usual"
run "$SCMP_RUN" -p "$P/multi-abi.ini" --target-arch x86 --explain 335
unlike "$OUT" "kernel:" "explain i386's 335: filtered as usual"
run "$SCMP_RUN" -p "$P/native-only.ini" --target-arch x86_64 --explain read
unlike "$OUT" "kernel:" "explain read: no kernel line"

# The always-allow cache: per native and compat ABI, never x32's numbers.
run "$SCMP_RUN" -p "$P/multi-abi.ini" --target-arch x86_64 --check
cache_line() { grep -q "^  $1: [0-9]* instructions alone; $2 of [0-9]* syscalls served by the kernel's always-allow cache$3\$" "$OUT"; }
cache_line x32 0 " (none can be: its numbers carry bit 0x40000000, beyond the cache)"
ok $? "--check: no x32 call is served by the cache, and why"
cache_line x86 "[1-9][0-9]*" ""
ok $? "--check: i386 calls are served by the compat cache"
cache_line x86_64 "[1-9][0-9]*" ""
ok $? "--check: x86_64 calls are served by the native cache"

done_testing
