#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The options of 'scmp-run --help' and the exit statuses of the modes that
# do not run a command (scmp-run(1) EXIT STATUS: 0 success, 1 profile
# rejected, 2 usage).
. "$(dirname "$0")/../tap.sh"
cd "$SRCDIR" || exit 99
P=tests/cli/profiles

# --help lists every option, and every option it lists is accepted.
run "$SCMP_RUN" --help
status_is 0 "--help exits 0"
# Every line of the usage block names the program.
usage_bad=$(sed -n '/^Usage:/,/^$/p' "$OUT" | sed '1d;$d' | grep -v '^  scmp-run ' || true)
ok "$([ -z "$usage_bad" ]; echo $?)" "every usage line starts with the program name${usage_bad:+: $usage_bad}"
for opt in -p --profile --check --export-bpf --export-pfc --explain --resolve \
	--list-syscalls --list-arches --list-groups --list-profiles --target-arch \
	--user --group -v --verbose -h --version; do
	like "$OUT" " $opt" "--help mentions $opt"
done
opts=$(grep -o -- '--[a-z][a-z-]*' "$OUT" | sort -u)
for opt in $opts; do
	case $opt in
	--profile | --export-bpf | --export-pfc | --resolve | --target-arch | --user | --group)
		continue
		;;
	esac
	run "$SCMP_RUN" "$opt" --bogus-option
	unlike "$ERR" "unknown option '$opt'" "getopt knows $opt"
done
# getopt's refusals in the program's own words, the option named as written
for c in "--bogus-option:unknown option '--bogus-option'" "-vZ:unknown option '-Z'" \
	"-Zv:unknown option '-Z'" "--check=1:option '--check' takes no argument" \
	"--user:option '--user' needs an argument" "--profile:option '--profile' needs an argument" \
	"-vp:option '-p' needs an argument"; do
	run "$SCMP_RUN" --check "${c%%:*}"
	status_is 2 "${c%%:*}: a usage error"
	is "$(head -n 1 "$ERR")" "scmp-run: error: ${c#*:}" "${c%%:*}: says so"
done
# A command after --help or --version is not run, and exit status 0 would
# say it was: refused like any operand of a mode that takes none.
for m in --help -h --version; do
	run "$SCMP_RUN" "$m" -- true
	status_is 2 "$m with a command: 2"
	like "$ERR" "unexpected argument 'true'" "$m with a command: says so"
done
run "$SCMP_RUN" -h
status_is 0 "-h exits 0"
like "$OUT" "Usage:" "-h prints the usage"

run "$SCMP_RUN" --version
status_is 0 "--version exits 0"
like "$OUT" "scmp-run " "--version names the program"
like "$OUT" "syscall table: Linux " "--version names the table's kernel"

# Usage errors: 2 in the non-run modes.
run "$SCMP_RUN" --check --bogus
status_is 2 "unknown option with --check: 2"
like "$ERR" "--help" "unknown option points at --help"
run "$SCMP_RUN" -p "$P/small.ini" --check --export-pfc -
status_is 2 "two modes: 2"
like "$ERR" "conflicting modes" "two modes: message"
run "$SCMP_RUN" -p "$P/small.ini" --help --check
status_is 2 "--help with --check: 2"
like "$ERR" "--list-*, --help, --version" "--help with --check: names --help"
# An option with a value given twice: the first would be dropped unsaid.
for c in "--check -p $P/small.ini:--profile" "--export-bpf $TAP_TMP/a.bpf:--export-bpf" \
	"--export-pfc -:--export-pfc" "--check --target-arch x86:--target-arch" \
	"--check --user root:--user" "--check --group root:--group" \
	"--explain-audit=-:--explain-audit"; do
	twice=${c%:*}
	# shellcheck disable=SC2086 # split on purpose
	run "$SCMP_RUN" -p "$P/small.ini" $twice ${twice#--check }
	status_is 2 "twice $twice: 2"
	is "$(head -n 1 "$ERR")" "scmp-run: error: option '${c##*:}' given twice: give it once" \
		"twice $twice: says so"
done
# An optional value beside the bare option: one would be dropped (the FILE
# for the kernel log, the report file for stderr).
for c in "--explain-audit=- --explain-audit" "--explain-audit --explain-audit=-"; do
	# shellcheck disable=SC2086 # split on purpose
	run "$SCMP_RUN" -p "$P/small.ini" $c </dev/null
	status_is 2 "$c: 2"
	is "$(head -n 1 "$ERR")" "scmp-run: error: option '--explain-audit' given twice: give it once" \
		"$c: says so"
done
run "$SCMP_RUN" --report="$TAP_TMP/rep" --report -p "$P/small.ini" true
status_is 125 "--report=FILE --report: 125"
is "$(head -n 1 "$ERR")" "scmp-run: error: option '--report' given twice: give it once" \
	"--report=FILE --report: says so"
run "$SCMP_RUN" --report --report -p "$P/small.ini" --check
like "$ERR" "are for run mode" "--report --report: no value dropped, not refused as twice"
# --oci-caps counts only for a JSON profile: elsewhere it would be ignored,
# and --learn without -p has no profile to look at.
for c in "--resolve read" "--list-syscalls" "--list-groups" "--help" \
	"-p $P/small.ini --check"; do
	# shellcheck disable=SC2086 # split on purpose
	run "$SCMP_RUN" --oci-caps CAP_CHOWN $c
	status_is 2 "--oci-caps with $c: 2"
	like "$ERR" "--oci-caps is for JSON profiles" "--oci-caps with $c: says so"
done
run "$SCMP_RUN" --learn "$TAP_TMP/learned.ini" --oci-caps CAP_CHOWN --user nobody true
status_is 125 "--learn without -p, with --oci-caps: 125"
like "$ERR" "--oci-caps is for JSON profiles" "--learn without -p, with --oci-caps: says so"
run "$SCMP_RUN" --resolve read --resolve write
status_is 2 "--resolve twice: 2"
run "$SCMP_RUN" -p "$P/small.ini" --set filter.log=yes --set filter.log=no --check
status_is 0 "--set twice: repeatable"
run "$SCMP_RUN" --check
status_is 2 "--check without -p: 2"
like "$ERR" "no profile" "--check without -p: message"
run "$SCMP_RUN" -p "$P/small.ini" --check extra
status_is 2 "--check with an argument: 2"
run "$SCMP_RUN" -p "$P/small.ini" --check --target-arch vax
status_is 2 "unknown --target-arch: 2"
like "$ERR" "unknown architecture 'vax'" "unknown --target-arch: message"
run "$SCMP_RUN" -p "$P/small.ini" --explain
status_is 2 "--explain without a syscall: 2"
run "$SCMP_RUN" -p "$P/small.ini" --explain write 1 2 3 4 5 6 7
status_is 2 "--explain with 7 arguments: 2"
run "$SCMP_RUN" -p "$P/small.ini" --explain write NOT_A_CONSTANT
status_is 2 "--explain with a bad argument: 2"
run "$SCMP_RUN" --resolve read extra
status_is 2 "--resolve with two arguments: 2"
run "$SCMP_RUN" --list-groups @nosuch
status_is 2 "--list-groups of an unknown group: 2"
run "$SCMP_RUN" --list-arches extra
status_is 2 "--list-arches with an argument: 2"

# Profile rejected: 1.
run "$SCMP_RUN" -p "$P/no-such-profile" --check
status_is 1 "missing profile: 1"
like "$ERR" "$P/no-such-profile: error: cannot open profile" "missing profile: message"
run "$SCMP_RUN" -p no-such-profile-name --check
status_is 1 "unknown profile name: 1"
like "$ERR" "hint: looked in" "unknown profile name: where it looked"
run "$SCMP_RUN" -p tests/profiles/bad/unknown-syscall.ini --check
status_is 1 "bad profile with --check: 1"
run "$SCMP_RUN" -p tests/profiles/bad/unknown-syscall.ini --export-bpf "$TAP_TMP/x.bpf"
status_is 1 "bad profile with --export-bpf: 1"
[ -e "$TAP_TMP/x.bpf" ]
ok $((! $?)) "bad profile: nothing exported"
run "$SCMP_RUN" -p tests/profiles/bad/unknown-syscall.ini --export-pfc -
status_is 1 "bad profile with --export-pfc: 1"
run "$SCMP_RUN" -p tests/profiles/bad/unknown-syscall.ini --explain read
status_is 1 "bad profile with --explain: 1"
run "$SCMP_RUN" -p "$P/small.ini" --export-bpf /nonexistent-dir/x.bpf
status_is 1 "unwritable --export-bpf file: 1"
like "$ERR" "/nonexistent-dir/x.bpf" "unwritable file: named"

# Good profiles compile silently: no warning, and no sanitizer report in a
# sanitized build. (--user: run as root, --check warns about the uid-0
# guard otherwise; test-run.sh tests that.) The lint's findings on the
# samples (tests/cli/test-lint.sh tests the lint) may stay: io_uring
# through @system-service in the profile that copies systemd's list, exit
# left out of the two small allow-lists of the golden files.
for p in minimal net-daemon no-network system-service:io-uring untrusted-tool \
	"$P/small.ini:exit-denied" "$P/multi-abi.ini:exit-denied" "$P/conditions.ini" \
	"$P/no-rules.ini"; do
	ids=${p#*:}
	[ "$ids" = "$p" ] && ids=""
	p=${p%%:*}
	run "$SCMP_RUN" -p "$p" --user "$(id -un)" --check
	status_is 0 "--check $p: 0"
	for id in $ids; do
		grep -v -e "warning: .* \[$id\]\$" -e ": hint: " "$ERR" >"$TAP_TMP/err-left"
		mv "$TAP_TMP/err-left" "$ERR"
	done
	if [ -s "$ERR" ]; then
		ok 1 "--check $p: nothing on stderr${ids:+ but the lint's $ids}"
		diag "$(head -n 5 "$ERR")"
	else
		ok 0 "--check $p: nothing on stderr${ids:+ but the lint's $ids}"
	fi
done

# --check prints a summary.
run "$SCMP_RUN" -p "$P/small.ini" --check
status_is 0 "--check of a good profile: 0"
like "$OUT" "description: small profile for the golden files" "--check: description"
like "$OUT" "default action: errno(EPERM)" "--check: default action"
like "$OUT" "program: " "--check: program size"
run "$SCMP_RUN" -v -p "$P/small.ini" --check
status_is 0 "-v --check: 0"
run "$SCMP_RUN" --verbose -p "$P/small.ini" --check
status_is 0 "--verbose --check: 0"
run "$SCMP_RUN" --profile "$P/small.ini" --check
status_is 0 "--profile is -p"

# --resolve, both ways, on this machine and another.
run "$SCMP_RUN" --resolve read
status_is 0 "--resolve read: 0"
nr=$(cat "$OUT")
case $nr in '' | *[!0-9]*) ok 1 "--resolve read prints a number" ;; *) ok 0 "--resolve read prints a number" ;; esac
run "$SCMP_RUN" --resolve "$nr"
is "$(cat "$OUT")" "read" "--resolve NUMBER gives the name back"
run "$SCMP_RUN" --target-arch x86_64 --resolve openat
is "$(cat "$OUT")" "257" "--resolve openat on x86_64 is 257"
run "$SCMP_RUN" --target-arch x86 --resolve read
is "$(cat "$OUT")" "3" "--resolve read on x86 is 3"
run "$SCMP_RUN" --target-arch aarch64 --resolve 63
is "$(cat "$OUT")" "read" "--resolve 63 on aarch64 is read"
run "$SCMP_RUN" --target-arch aarch64 --resolve open
status_is 1 "--resolve of a name the ABI lacks: 1"
like "$ERR" "no syscall 'open' on aarch64" "--resolve: ABI lacks it"
run "$SCMP_RUN" --resolve no_such_call
status_is 1 "--resolve of an unknown name: 1"
like "$ERR" "unknown syscall 'no_such_call'" "--resolve: unknown name"
run "$SCMP_RUN" --resolve 99999
status_is 1 "--resolve of an unused number: 1"

# --list-*
run "$SCMP_RUN" --list-syscalls
status_is 0 "--list-syscalls: 0"
grep -q "^openat	257$" "$OUT"
ok $? "--list-syscalls: name TAB number"
run "$SCMP_RUN" --list-syscalls --target-arch x86
grep -q "^socketcall	102$" "$OUT"
ok $? "--list-syscalls --target-arch x86 has socketcall"
run "$SCMP_RUN" --list-arches
status_is 0 "--list-arches: 0"
for a in native x86_64 x86 x32 aarch64 arm riscv64 s390x; do
	grep -qx "$a" "$OUT"
	ok $? "--list-arches has $a"
done
run "$SCMP_RUN" --list-groups
status_is 0 "--list-groups: 0"
for g in @default @system-service @network-io @known; do
	grep -q "^$g " "$OUT"
	ok $? "--list-groups has $g"
done
run "$SCMP_RUN" --list-groups @basic-io
status_is 0 "--list-groups @basic-io: 0"
grep -qx read "$OUT" && grep -qx write "$OUT"
ok $? "--list-groups @basic-io lists read and write"
run "$SCMP_RUN" --list-profiles
status_is 0 "--list-profiles: 0"
for p in minimal net-daemon no-network system-service untrusted-tool; do
	grep -qx "$p" "$OUT"
	ok $? "--list-profiles finds $p in SCMP_RUN_PROFILE_PATH"
done

# --target-arch with the profile modes.
run "$SCMP_RUN" -p "$P/small.ini" --check --target-arch aarch64
status_is 0 "--check --target-arch aarch64: 0"
like "$OUT" "aarch64:" "--target-arch aarch64: native means aarch64"
run "$SCMP_RUN" -p "$P/small.ini" --target-arch native --check
status_is 0 "--target-arch native: 0"
# The built-in groups are the same on every ABI: an ARCH would be ignored.
run "$SCMP_RUN" --list-groups --target-arch x86
status_is 2 "--list-groups --target-arch: 2"
like "$ERR" "--target-arch is not used by" "--list-groups --target-arch: says so"
run "$SCMP_RUN" --list-groups --unlisted --target-arch x86
status_is 0 "--list-groups --unlisted --target-arch: 0"
run "$SCMP_RUN" -p "$P/small.ini" --list-groups --target-arch x86
status_is 0 "-p P --list-groups --target-arch: 0"

# Every usage and output error names what went wrong.
run "$SCMP_RUN" --target-arch x86 -p "$P/small.ini" true
status_is 125 "--target-arch in run mode: 125"
like "$ERR" "run mode always uses this machine's ABI" "--target-arch in run mode: says why"
run "$SCMP_RUN" --resolve 99999
status_is 1 "--resolve of an unused number: 1"
like "$ERR" "no syscall number 99999 on x86_64" "--resolve 99999: says so"
run "$SCMP_RUN" --list-arches extra
status_is 2 "--list-arches with an argument: 2"
like "$ERR" "unexpected argument 'extra'" "unexpected argument: named"
run "$SCMP_RUN" -p "$P/small.ini" --explain
status_is 2 "--explain without a syscall: 2"
like "$ERR" "--explain needs a SYSCALL" "--explain without a syscall: says so"
run "$SCMP_RUN" -p "$P/small.ini" --explain read 1 2 3 4 5 6 7
status_is 2 "--explain with 7 arguments: 2"
like "$ERR" "at most 6 arguments" "--explain with 7 arguments: says so"

# Numbers on the command line (scmp-run.ini(5) NUMBERS): every spelling; a
# malformed number is "not a number", a big one "out of range".
for n in 2 0x2 0X2 0o2 02; do
	run "$SCMP_RUN" -p "$P/small.ini" --explain write "$n"
	like "$OUT" "rule: $P/small.ini:11" "--explain write $n: fd 2, allowed by line 11"
done
run "$SCMP_RUN" -p "$P/small.ini" --explain 0o1 3
like "$OUT" "write (x86_64 1): errno(EPERM)" "--explain 0o1: a syscall number in octal"
run "$SCMP_RUN" -p "$P/small.ini" --explain write 0x1g
status_is 2 "--explain with a malformed number: 2"
like "$ERR" "error: argument '0x1g' is not a number" "--explain 0x1g: not a number"
run "$SCMP_RUN" -p "$P/small.ini" --explain write 08
like "$ERR" "error: argument '08' is not a number" "--explain 08: not a number"
run "$SCMP_RUN" -p "$P/small.ini" --explain write 0x10000000000000000
status_is 2 "--explain with a number over 64 bits: 2"
like "$ERR" "error: argument '0x10000000000000000' is out of range (64 bits)" \
	"--explain 0x10000000000000000: out of range"
run "$SCMP_RUN" -p "$P/small.ini" --explain write -0x8000000000000001
like "$ERR" "is out of range" "--explain -0x8000000000000001: out of range"
run "$SCMP_RUN" -p "$P/small.ini" --explain write -0x8000000000000000
status_is 0 "--explain -0x8000000000000000: the lowest negative register value"
# A negative syscall number right after the options is the operand, with or
# without '--' (no option is a digit); a real option after --explain still is
# one, and an unknown one is still refused.
run "$SCMP_RUN" -p "$P/small.ini" --target-arch x86_64 --explain -1
status_is 0 "--explain -1: 0"
like "$OUT" "unknown (x86_64 4294967295): errno(ENOSYS)" "--explain -1: the number -1"
cp "$OUT" "$TAP_TMP/minus1"
run "$SCMP_RUN" -p "$P/small.ini" --target-arch x86_64 --explain -- -1
cmp -s "$OUT" "$TAP_TMP/minus1"
ok $? "--explain -1 prints what --explain -- -1 prints"
run "$SCMP_RUN" --explain -p "$P/small.ini" -0x2147483648
like "$ERR" "syscall number '-0x2147483648' is out of range" \
	"--explain -0x2147483648: the operand, out of range"
run "$SCMP_RUN" --explain -v -p "$P/small.ini" --target-arch x86_64 -1
like "$OUT" "unknown (x86_64 4294967295)" "--explain -v -p P -1: options before the number"
run "$SCMP_RUN" -p "$P/small.ini" --explain -x
status_is 2 "--explain -x: an unknown option, 2"
like "$ERR" "scmp-run: error: unknown option '-x'" "--explain -x: says so"
# A SYSCALL that is a malformed number is a wrong operand, as a wrong ARG
# is (2); a name or number with no syscall is a lookup that found nothing (1).
run "$SCMP_RUN" -p "$P/small.ini" --explain 12abc
status_is 2 "--explain with a malformed syscall number: 2"
like "$ERR" "error: syscall number '12abc' is not a number" "--explain 12abc: not a number"
run "$SCMP_RUN" -p "$P/small.ini" --explain 0x100000000
status_is 2 "--explain with a syscall number out of range: 2"
like "$ERR" "syscall number '0x100000000' is out of range" "--explain 0x100000000: out of range"
run "$SCMP_RUN" -p "$P/small.ini" --explain no_such_call
status_is 1 "--explain of an unknown syscall name: 1"
run "$SCMP_RUN" --resolve 0x100000000
status_is 2 "--resolve of a number out of range: 2"
run "$SCMP_RUN" --target-arch x86_64 --resolve 0o1
is "$(cat "$OUT")" "write" "--resolve 0o1 is write"
run "$SCMP_RUN" --resolve 1x
status_is 2 "--resolve 1x: 2"
like "$ERR" "error: syscall number '1x' is not a number" "--resolve 1x: not a number"
run "$SCMP_RUN" -p "$P/small.ini" --export-bpf "$TAP_TMP/no/such/dir/f"
status_is 1 "--export-bpf into a missing directory: 1"
like "$ERR" "opening '$TAP_TMP/no/such/dir/f'" "--export-bpf: names the file"
if [ -w /dev/full ]; then
	run "$SCMP_RUN" -p "$P/small.ini" --export-pfc /dev/full
	status_is 1 "--export-pfc to a full device: 1"
	like "$ERR" "writing '/dev/full'" "--export-pfc to a full device: says so"
	run "$SCMP_RUN" -p "$P/small.ini" --export-bpf /dev/full
	status_is 1 "--export-bpf to a full device: 1"
	like "$ERR" "writing '/dev/full'" "--export-bpf to a full device: says so"
	# Results on standard output are checked as well.
	for mode in --list-syscalls --list-groups --list-arches --version; do
		RC=0
		"$SCMP_RUN" $mode >/dev/full 2>"$ERR" || RC=$?
		status_is 1 "$mode to a full device: 1"
		like "$ERR" "writing standard output" "$mode to a full device: says so"
	done
	RC=0
	"$SCMP_RUN" -p "$P/small.ini" --check >/dev/full 2>"$ERR" || RC=$?
	status_is 1 "--check to a full device: 1"
	RC=0
	"$SCMP_RUN" -p "$P/small.ini" --export-pfc - >/dev/full 2>"$ERR" || RC=$?
	status_is 1 "--export-pfc - to a full device: 1"
	is "$(grep -c error "$ERR")" 1 "--export-pfc - to a full device: one error"
else
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
		skip "/dev/full is not writable here"
	done
fi

done_testing
