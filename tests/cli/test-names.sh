#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Names and overrides on the command line: did-you-mean hints for every kind
# of name (scmp-run.ini(5) SYSCALL NAMES), syscalls named by number, --set,
# and --list-groups --unlisted / user groups.
. "$(dirname "$0")/../tap.sh"
cd "$TAP_TMP" || exit 99

# profile NAME BODY...: write NAME.ini with a [filter] that denies by default.
profile() {
	_f=$TAP_TMP/$1.ini
	shift
	printf '[filter]\ndefault-action = errno(EPERM)\n' >"$_f"
	printf '%s\n' "$@" >>"$_f"
}

# stderr_is WANT DESCRIPTION: the last run's stderr, exactly.
stderr_is() {
	is "$(cat "$ERR")" "$1" "$2"
}

# ---- did you mean ----

profile typo '[allow]' 'syscalls = read opneat'
run "$SCMP_RUN" -p ./typo.ini --check
status_is 1 "a misspelt syscall is rejected"
stderr_is "scmp-run: ./typo.ini:4: error: unknown syscall 'opneat'
scmp-run: ./typo.ini:4: hint: did you mean 'openat'?" "a misspelt syscall: did you mean"

profile far '[allow]' 'syscalls = xyzzyq'
run "$SCMP_RUN" -p ./far.ini --check
stderr_is "scmp-run: ./far.ini:4: error: unknown syscall 'xyzzyq'
scmp-run: ./far.ini:4: hint: write 'xyzzyq?' if the name is optional" \
	"a name close to nothing keeps the '?' hint"

profile kill '[kill-process]' 'syscalls = ptarce'
run "$SCMP_RUN" -p ./kill.ini --check
stderr_is "scmp-run: ./kill.ini:4: error: unknown syscall 'ptarce'
scmp-run: ./kill.ini:4: hint: did you mean 'ptrace'?" "a transposition is one edit"

profile rulekey '[allow]' 'sycalls = read'
run "$SCMP_RUN" -p ./rulekey.ini --check
stderr_is "scmp-run: ./rulekey.ini:4: error: unknown syscall 'sycalls'
scmp-run: ./rulekey.ini:4: hint: did you mean 'syscalls'?" "a misspelt 'syscalls' key"

profile badgroup '[allow]' 'syscalls = read @Bad!name'
run "$SCMP_RUN" -p ./badgroup.ini --check
stderr_is "scmp-run: ./badgroup.ini:4: error: invalid group name '@Bad!name'" \
	"a group name that no group may have, in a rule"

# An ABI name longer than any there is: refused before it is looked up.
long=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
profile longabi '[allow]' "syscalls = $long/1"
run "$SCMP_RUN" -p ./longabi.ini --check
stderr_is "scmp-run: ./longabi.ini:4: error: invalid syscall '$long/1': unknown architecture before '/'" \
	"a 32-character ABI name before '/'"

profile key 'defualt-action = allow'
run "$SCMP_RUN" -p ./key.ini --check
stderr_is "scmp-run: ./key.ini:3: error: unknown key 'defualt-action' in [filter]
scmp-run: ./key.ini:3: hint: did you mean 'default-action'?" "a misspelt key"

profile limits '[limits]' 'open-file = 10'
run "$SCMP_RUN" -p ./limits.ini --check
stderr_is "scmp-run: ./limits.ini:4: error: unknown key 'open-file' in [limits] (cpu, address-space, data, stack, core, file-size, open-files, processes, locked-memory, nice)
scmp-run: ./limits.ini:4: hint: did you mean 'open-files'?" "a misspelt [limits] key"

profile ll '[landlock]' 'raed = /usr'
run "$SCMP_RUN" -p ./ll.ini --check
like "$ERR" "scmp-run: ./ll.ini:4: hint: did you mean 'read'?" "a misspelt [landlock] key"

profile sect '[alow]' 'syscalls = read'
run "$SCMP_RUN" -p ./sect.ini --check
like "$ERR" "scmp-run: ./sect.ini:3: hint: did you mean '[allow]'?" "a misspelt section"

profile sect2 '[errn(EPERM)]' 'syscalls = read'
run "$SCMP_RUN" -p ./sect2.ini --check
like "$ERR" "scmp-run: ./sect2.ini:3: hint: did you mean '[errno(EPERM)]'?" \
	"a misspelt action section keeps its value"

profile sect3 '[credential]' 'user = nobody'
run "$SCMP_RUN" -p ./sect3.ini --check
like "$ERR" "scmp-run: ./sect3.ini:3: hint: did you mean '[credentials]'?" \
	"a misspelt fixed section"

profile group '[allow]' 'syscalls = @basic-oi'
run "$SCMP_RUN" -p ./group.ini --check
stderr_is "scmp-run: ./group.ini:4: error: unknown group '@basic-oi'
scmp-run: ./group.ini:4: hint: did you mean '@basic-io'?" "a misspelt built-in group"

profile ugroup '[groups]' '@my-files = read write' '[allow]' 'syscalls = @my-file'
run "$SCMP_RUN" -p ./ugroup.ini --check
stderr_is "scmp-run: ./ugroup.ini:6: error: unknown group '@my-file'
scmp-run: ./ugroup.ini:6: hint: did you mean '@my-files'?" "a misspelt user group"

profile const '[errno(EACCES)]' 'openat = flags & O_ACCMOD == 0'
run "$SCMP_RUN" -p ./const.ini --check
stderr_is "scmp-run: ./const.ini:4: error: unknown constant 'O_ACCMOD'
scmp-run: ./const.ini:4: hint: did you mean 'O_ACCMODE'?" "a misspelt constant"

profile param '[errno(EACCES)]' 'openat = flag == 0'
run "$SCMP_RUN" -p ./param.ini --check
stderr_is "scmp-run: ./param.ini:4: error: 'openat' has no parameter 'flag': its parameters are dfd, filename, flags, mode
scmp-run: ./param.ini:4: hint: did you mean 'flags'?" \
	"a misspelt parameter: the real names and did you mean"

profile alias '[errno(EACCES)]' 'clone = clone_flag == 0'
run "$SCMP_RUN" -p ./alias.ini --target-arch x86_64 --check
like "$ERR" "scmp-run: ./alias.ini:4: hint: did you mean 'clone_flags'?" \
	"a parameter's other spelling is offered too"

profile good '[allow]' 'syscalls = read'
run "$SCMP_RUN" -p ./good.ini --explain opneat
like "$ERR" "scmp-run: hint: did you mean 'openat'?" "--explain: a misspelt syscall"
run "$SCMP_RUN" --resolve opneat
status_is 1 "--resolve: a misspelt syscall fails"
like "$ERR" "scmp-run: hint: did you mean 'openat'?" "--resolve: did you mean"
run "$SCMP_RUN" --list-groups @fle-system
status_is 2 "--list-groups: an unknown group is a usage error"
stderr_is "scmp-run: error: unknown group '@fle-system'
scmp-run: hint: did you mean '@file-system'?" "--list-groups: did you mean"

# ---- --set ----

profile base '[allow]' 'syscalls = read execve'
run "$SCMP_RUN" -p ./base.ini --set filter.default-action=kill-process --check
status_is 0 "--set: a scalar key"
like "$OUT" "default action: kill-process" "--set: a scalar key replaces the profile's"

run "$SCMP_RUN" -p ./base.ini --set 'allow.syscalls = write' --explain write
status_is 0 "--set: a list key"
like "$OUT" "rule: command line:1" "--set: a list key adds, located at command line:1"
run "$SCMP_RUN" -p ./base.ini --set 'allow.syscalls = write' --explain read
like "$OUT" "rule: ./base.ini:4" "--set: the profile's list stays"

run "$SCMP_RUN" -p ./base.ini --set filter.log=no \
	--set 'errno(EACCES).openat = flags & O_ACCMODE != O_RDONLY' --explain openat 0 0 1
like "$OUT" "errno(EACCES)" "--set: a rule in an action section"
like "$OUT" "rule: command line:2" "--set: N counts the --set options"
run "$SCMP_RUN" -p ./base.ini --set 'errno(EACCES).openat = flags & O_ACCMODE != O_RDONLY' \
	--export-pfc -
like "$OUT" "action errno(EACCES); # command line:1" "--set: PFC names command line:N"

# The control: a good --set in run mode, and the command runs (as root the
# uid-0 guard wants user = root named: also through --set).
as_root=
[ "$(id -u)" = 0 ] && as_root="--set credentials.user=root"
# shellcheck disable=SC2086 # as_root is empty or two words
run "$SCMP_RUN" -p ./base.ini --set filter.default-action=allow $as_root \
	-- /bin/sh -c ": >'$TAP_TMP/ran'"
status_is 0 "--set in run mode: the command runs"
[ -e "$TAP_TMP/ran" ]
ok $? "--set in run mode: the command's file exists"

# Bad --set: a located error, and the command never runs.
bad_set() {
	_want_rc=$1 _want=$2 _desc=$3
	shift 3
	rm -f "$TAP_TMP/ran"
	# shellcheck disable=SC2086
	run "$SCMP_RUN" -p ./base.ini "$@" --set filter.default-action=allow $as_root \
		-- /bin/sh -c ": >'$TAP_TMP/ran'"
	status_is 125 "$_desc: run mode exits 125"
	like "$ERR" "$_want" "$_desc: located error"
	[ ! -e "$TAP_TMP/ran" ]
	ok $? "$_desc: the command did not run"
	run "$SCMP_RUN" -p ./base.ini "$@" --check
	status_is "$_want_rc" "$_desc: --check exits $_want_rc"
}
bad_set 1 "scmp-run: command line:1: error: unknown key 'defualt-action' in [filter]" \
	"unknown key" --set filter.defualt-action=allow
like "$ERR" "scmp-run: command line:1: hint: did you mean 'default-action'?" \
	"--set: an unknown key gets did you mean"
bad_set 1 "scmp-run: command line:2: error: unknown section '[filtr]'" \
	"unknown section" --set filter.log=no --set filtr.log=yes
like "$ERR" "scmp-run: command line:2: hint: did you mean '[filter]'?" \
	"--set: an unknown section gets did you mean"
bad_set 1 "scmp-run: command line:1: error: invalid boolean 'maybe' for 'log'" \
	"bad value" --set filter.log=maybe
bad_set 1 "scmp-run: command line:1: error: unknown syscall 'opneat'" \
	"unknown syscall" --set allow.syscalls=opneat
bad_set 2 "scmp-run: command line:1: error: --set 'filter.log': expected SECTION.KEY=VALUE: no '='" \
	"no '='" --set filter.log
bad_set 2 "scmp-run: command line:1: error: --set 'log=yes': expected SECTION.KEY=VALUE: no '.' between the section and the key" \
	"no '.'" --set log=yes
bad_set 2 "scmp-run: command line:1: error: --set 'filter.=yes': expected SECTION.KEY=VALUE: the key is empty" \
	"empty key" --set filter.=yes
bad_set 2 "scmp-run: command line:1: error: --set '.log=yes': expected SECTION.KEY=VALUE: the section is empty" \
	"empty section" --set .log=yes
bad_set 1 "scmp-run: command line:1: error: empty value for 'log'" \
	"empty value" --set filter.log=
bad_set 1 "scmp-run: command line:1: error: include 'x.ini': a relative path has no directory to start from in --set" \
	"relative include" --set profile.include=x.ini

# A [hardening] key is written once (scmp-run.ini(5) HARDENING): --set of
# one the profile sets is the duplicate it would be in the file, for
# every key alike; one the profile leaves out is set.
profile hard '[allow]' 'syscalls = read execve' '[hardening]' 'tty-injection = deny' \
	'lock-personality = yes'
for kv in tty-injection=allow lock-personality=no; do
	run "$SCMP_RUN" -p ./hard.ini --set "hardening.$kv" --check
	status_is 1 "--set hardening.$kv the profile sets: rejected"
	like "$ERR" "scmp-run: command line:1: error: duplicate key '${kv%%=*}' in [hardening] (first at ./hard.ini:" \
		"--set hardening.$kv the profile sets: the duplicate, located"
done
run "$SCMP_RUN" -p ./hard.ini --set hardening.restrict-realtime=yes --check
status_is 0 "--set of a [hardening] key the profile leaves out"
run "$SCMP_RUN" -p ./base.ini --set hardening.tty-injection=allow --check
like "$OUT" "built-in rule: tty-injection: off ([hardening] tty-injection = allow at command line:1)" \
	"--set hardening.tty-injection on a profile without it: set"

run "$SCMP_RUN" --set filter.log=yes --list-syscalls
status_is 2 "--set without a profile is a usage error"
like "$ERR" "error: --set needs a profile: use -p PROFILE" "... saying so"
printf '{ "defaultAction": "SCMP_ACT_ALLOW" }\n' >"$TAP_TMP/p.json"
run "$SCMP_RUN" -p ./p.json --set filter.log=yes --check
status_is 2 "--set with a JSON profile is a usage error"
like "$ERR" "--set is for INI profiles" "--set with JSON: says why"
run_in "$(cat "$TAP_TMP/base.ini")" "$SCMP_RUN" -p - --set 'allow.syscalls = write' \
	--explain write
status_is 0 "--set with -p -"
like "$OUT" "rule: command line:1" "--set with -p -: located at command line:1"

# ---- syscalls named by number ----

# one_abi NAME BODY...: a profile for x86_64 alone
one_abi() {
	_n=$1
	shift
	profile "$_n" 'architectures = x86_64' "$@"
}

one_abi num '[allow]' 'syscalls = read x86_64/471 0x1d8' \
	'[errno(EACCES)]' 'x86_64/900 = arg0 == 5' 'x86_64/1 = fd == 7'
run "$SCMP_RUN" -p ./num.ini --target-arch x86_64 --explain 471
status_is 0 "ABI/NUMBER in a list"
is "$(head -n 2 "$OUT")" "unknown (x86_64 471): allow
rule: ./num.ini:5" "ABI/NUMBER in a list: the rule decides a number the table lacks"
run "$SCMP_RUN" -p ./num.ini --target-arch x86_64 --explain 472
like "$OUT" "rule: ./num.ini:5" "a bare number (hex) in a single-ABI filter"
run "$SCMP_RUN" -p ./num.ini --target-arch x86_64 --explain 900 5
is "$(head -n 2 "$OUT")" "unknown (x86_64 900): errno(EACCES)
rule: ./num.ini:7" "ABI/NUMBER as a rule key"
run "$SCMP_RUN" -p ./num.ini --target-arch x86_64 --explain 900 4
is "$(head -n 2 "$OUT")" "unknown (x86_64 900): errno(EPERM)
rule: default" "a named number is known: the default action, not the unknown-syscall one"
run "$SCMP_RUN" -p ./num.ini --target-arch x86_64 --explain 901
like "$OUT" "rule: unknown-syscall" "a number not named stays unknown"
run "$SCMP_RUN" -p ./num.ini --target-arch x86_64 --explain write 7
is "$(head -n 2 "$OUT")" "write (x86_64 1): errno(EACCES)
rule: ./num.ini:8" "a number the table names takes its parameter names"

one_abi nonum '[allow]' 'syscalls = read'
run "$SCMP_RUN" -p ./num.ini --target-arch x86_64 --export-bpf "$TAP_TMP/num.bpf"
run "$SCMP_RUN" -p ./nonum.ini --target-arch x86_64 --export-bpf "$TAP_TMP/nonum.bpf"
! cmp -s "$TAP_TMP/num.bpf" "$TAP_TMP/nonum.bpf"
ok $? "numbers change the exported program"
run "$SCMP_RUN" -p ./num.ini --target-arch x86_64 --export-pfc -
like "$OUT" "if (\$syscall == 471) # x86_64/471" "PFC: the number's own test"
profile native '[allow]' 'syscalls = read x86_64/471'
run "$SCMP_RUN" -p ./native.ini --target-arch aarch64 --export-pfc -
status_is 0 "ABI/NUMBER for an ABI the filter lacks"
unlike "$OUT" "471" "ABI/NUMBER applies to its ABI only"
run "$SCMP_RUN" -p ./num.ini --target-arch x86_64 --export-oci -
status_is 1 "--export-oci refuses a number without a name"
like "$ERR" "scmp-run: error: --export-oci: 'x86_64/471' on x86_64 cannot be written for libseccomp: OCI names syscalls" \
	"--export-oci: says why"

profile twoabi 'architectures = x86_64 x86' '[allow]' 'syscalls = read 471 x86/4' \
	'[priority]' '472 = 3'
run "$SCMP_RUN" -p ./twoabi.ini --target-arch x86_64 --check
status_is 1 "a bare number in a multi-ABI filter is rejected"
stderr_is "scmp-run: ./twoabi.ini:7: error: syscall number 472 in a filter for several ABIs: write ABI/NUMBER, e.g. 'x86_64/472'
scmp-run: ./twoabi.ini:5: error: syscall number 471 in a filter for several ABIs: write ABI/NUMBER, e.g. 'x86_64/471'" \
	"a bare number in a multi-ABI filter: located, says to write ABI/NUMBER"

profile badnum '[allow]' 'syscalls = x86-64/3 x86_64/0x1g x86_64/1? 4294967296'
run "$SCMP_RUN" -p ./badnum.ini --check
status_is 1 "malformed numbers are rejected"
stderr_is "scmp-run: ./badnum.ini:4: error: invalid syscall 'x86-64/3': unknown architecture before '/' (see --list-arches)
scmp-run: ./badnum.ini:4: error: invalid syscall 'x86_64/0x1g': syscall number not a number
scmp-run: ./badnum.ini:4: error: 'x86_64/1?': a syscall named by number cannot be optional: it applies to its ABI whatever the table says
scmp-run: ./badnum.ini:4: error: invalid syscall '4294967296': syscall number out of range 0..4294967295" \
	"malformed numbers: each located"

# x86_64 and x32 share one AUDIT_ARCH: the filter sends a number to x32 by
# its bit 0x40000000 (-1 excepted), so a rule of the other ABI on it would
# never decide a call, and a denial would stop nothing
profile deadnum 'architectures = x86_64 x32' '[kill-process]' \
	'syscalls = x86_64/0x40000001 x32/1 x32/4294967295 x32/0x40000001 x86_64/4294967295' \
	'[priority]' 'x86_64/1073741826 = 5'
run "$SCMP_RUN" -p ./deadnum.ini --target-arch x86_64 --export-pfc -
status_is 1 "a number its ABI never sees is rejected"
stderr_is "scmp-run: ./deadnum.ini:7: error: syscall number x86_64/1073741826 is never a call of the x86_64 ABI: a call with this number is x32's (x32's numbers have bit 0x40000000 set, and -1 is x86_64's)
scmp-run: ./deadnum.ini:7: hint: write 'x32/1073741826'
scmp-run: ./deadnum.ini:5: error: syscall number x86_64/1073741825 is never a call of the x86_64 ABI: a call with this number is x32's (x32's numbers have bit 0x40000000 set, and -1 is x86_64's)
scmp-run: ./deadnum.ini:5: hint: write 'x32/1073741825'
scmp-run: ./deadnum.ini:5: error: syscall number x32/1 is never a call of the x32 ABI: a call with this number is x86_64's (x32's numbers have bit 0x40000000 set, and -1 is x86_64's)
scmp-run: ./deadnum.ini:5: hint: write 'x32/1073741825', as --list-syscalls prints it
scmp-run: ./deadnum.ini:5: error: syscall number x32/4294967295 is never a call of the x32 ABI: a call with this number is x86_64's (x32's numbers have bit 0x40000000 set, and -1 is x86_64's)
scmp-run: ./deadnum.ini:5: hint: write 'x86_64/4294967295'" \
	"a number its ABI never sees: located, says which ABI's it is and how to write it"
# ... once per key, not once per '||' alternative
one_abi deadalt '[kill-process]' 'x86_64/0x40000001 = arg0 == 1 || arg0 == 2'
run "$SCMP_RUN" -p ./deadalt.ini --target-arch x86_64 --export-pfc -
is "$RC:$(grep -c 'error:' "$ERR")" "1:1" "a number its ABI never sees, with alternatives: one error"
one_abi deadbare '[kill-process]' 'syscalls = 0x40000001'
run "$SCMP_RUN" -p ./deadbare.ini --target-arch x86_64 --export-pfc -
status_is 1 "a bare number its one ABI never sees is rejected"
like "$ERR" "deadbare.ini:5: error: syscall number 1073741825 is never a call of the x86_64 ABI" \
	"a bare number its one ABI never sees: located"
profile okx32 'architectures = x86_64 x32' '[kill-process]' 'syscalls = x32/0x40000001'
run "$SCMP_RUN" -p ./okx32.ini --target-arch x86_64 --explain 1073741825
is "$(head -n 2 "$OUT")" "write (x32 1073741825): kill-process
rule: ./okx32.ini:5" "x32's number with its bit decides x32's call (control)"

# naming clone3 by number counts as naming it: no built-in clone3 rule
one_abi c3 '[allow]' 'syscalls = read x86_64/435' 'clone = flags == 0'
run "$SCMP_RUN" -p ./c3.ini --target-arch x86_64 --explain clone3
like "$OUT" "rule: ./c3.ini:5" "clone3 by number: the profile's rule, not built-in:clone3"
one_abi c3b '[allow]' 'syscalls = read' 'clone = flags == 0'
run "$SCMP_RUN" -p ./c3b.ini --target-arch x86_64 --explain clone3
like "$OUT" "rule: built-in:clone3" "clone3 not named: the built-in rule (control)"
# ... on its ABI only: x86's clone3 named leaves x86_64's built-in rule
profile c3x86 'architectures = x86_64 x86' '[errno(EPERM)]' 'clone = flags & CLONE_NEWUSER != 0' \
	'[allow]' 'syscalls = x86/435'
run "$SCMP_RUN" -p ./c3x86.ini --check
like "$OUT" "built-in rule: built-in:clone3: errno(ENOSYS) x86_64/435" \
	"x86's clone3 named: --check lists x86_64's clone3 built-in rule"
unlike "$OUT" "built-in:clone3: errno(ENOSYS) x86/" "x86's clone3 named: none for x86"
run "$SCMP_RUN" -p ./c3x86.ini --target-arch x86_64 --explain clone3
is "$(head -n 2 "$OUT")" "clone3 (x86_64 435): errno(ENOSYS)
rule: built-in:clone3" "x86's clone3 named: x86_64's clone3 gets ENOSYS from the built-in rule"
run "$SCMP_RUN" -p ./c3x86.ini --target-arch x86 --explain clone3
is "$(head -n 2 "$OUT")" "clone3 (x86 435): allow
rule: ./c3x86.ini:7" "x86's clone3 named: the profile's rule decides x86's clone3"
# a condition on x86's clone only: x86's clone3 only
profile c3cond 'architectures = x86_64 x86' '[allow]' 'x86/120 = flags & CLONE_NEWUSER == 0' \
	'syscalls = clone @process'
run "$SCMP_RUN" -p ./c3cond.ini --check
like "$OUT" "built-in rule: built-in:clone3: errno(ENOSYS) x86/435" \
	"a condition on x86's clone: x86's clone3 built-in rule"
unlike "$OUT" "built-in:clone3: errno(ENOSYS) x86_64/" "a condition on x86's clone: none for x86_64"
run "$SCMP_RUN" -p ./c3cond.ini --target-arch x86 --explain clone3
like "$OUT" "rule: built-in:clone3" "a condition on x86's clone: x86's clone3 gets ENOSYS"
run "$SCMP_RUN" -p ./c3cond.ini --target-arch x86_64 --explain clone3
is "$(head -n 2 "$OUT")" "clone3 (x86_64 435): allow
rule: ./c3cond.ini:6" "a condition on x86's clone: x86_64's clone3 is the profile's (@process)"

# ---- --list-groups --unlisted, user groups ----

run "$SCMP_RUN" --list-groups --unlisted --target-arch x86_64
status_is 0 "--list-groups --unlisted"
is "$(tr '\n' ' ' <"$OUT")" "mincore syslog uprobe memfd_secret process_mrelease cachestat \
map_shadow_stack futex_wake futex_wait futex_requeue lsm_set_self_attr listns " \
	"--unlisted: x86_64's syscalls in no built-in group, in number order"
unlike "$OUT" "@" "--unlisted: no group names"
run "$SCMP_RUN" -p ./nosuch.ini --list-groups --unlisted --target-arch x86_64
status_is 2 "-p P --list-groups --unlisted: a usage error, the profile would not be read"
like "$ERR" "error: -p is not used by --list-groups --unlisted" "... saying so"
run "$SCMP_RUN" --list-groups --unlisted @default
status_is 2 "--unlisted with @GROUP is a usage error"
like "$ERR" "error: unexpected argument '@default'" "... naming the argument"
run "$SCMP_RUN" --unlisted --list-syscalls
status_is 2 "--unlisted without --list-groups is a usage error"
like "$ERR" "error: --unlisted is for --list-groups" "... saying so"

# an option the mode would ignore is refused, not dropped in silence
for mode in "--resolve 1" --list-syscalls --list-arches --list-profiles \
	"--import-oci ./none.json" --version; do
	run "$SCMP_RUN" -p ./nosuch.ini $mode
	status_is 2 "-p with $mode is a usage error"
	like "$ERR" "error: -p is not used by --resolve, " "... saying where -p is not used"
done
for mode in --list-arches --list-profiles --version; do
	run "$SCMP_RUN" --target-arch x86 $mode
	status_is 2 "--target-arch with $mode is a usage error"
	like "$ERR" "error: --target-arch is not used by " "... saying so"
done
run "$SCMP_RUN" -p ./nosuch.ini --help
status_is 0 "-p with --help shows the help"

profile mine '[groups]' '@mine = read write?' '  @basic-io' '@other = @mine close' \
	'[allow]' 'syscalls = @other'
run "$SCMP_RUN" -p ./mine.ini --list-groups
status_is 0 "-p P --list-groups"
like "$OUT" "@basic-io " "-p P --list-groups: the built-in groups"
is "$(tail -n 2 "$OUT")" "@mine            user group (./mine.ini:4)
@other           user group (./mine.ini:6)" "-p P --list-groups: the user groups, located"
run "$SCMP_RUN" -p ./mine.ini --list-groups @mine
status_is 0 "-p P --list-groups @mine"
is "$(cat "$OUT")" "read
write?
@basic-io" "@mine: the members as written"
run "$SCMP_RUN" -p ./mine.ini --list-groups @mien
status_is 2 "-p P --list-groups: an unknown group"
stderr_is "scmp-run: error: unknown group '@mien'
scmp-run: hint: did you mean '@mine'?" "-p P --list-groups: did you mean a user group"
run "$SCMP_RUN" --list-groups @mine
status_is 2 "a user group without -p is unknown"

done_testing
