#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# --learn on real workloads (a threaded python3 TCP echo, tar czf of a
# tree, sh -c pipelines, gcc compiling a file): the learned profile passes
# --check, runs the workload again, and still denies a call the workload
# never made; two runs merge; bad learn targets are refused up front.
# shellcheck disable=SC2016
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP supervised live tests run as root"
	exit 0
fi
. "$SRCDIR/tests/tap.sh"

S=$SCMP_RUN
P=$SRCDIR/tests/supervise/profiles
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
LC_ALL=C
export LC_ALL
T=$TAP_TMP

# learned NAME WHAT [-p BASE] -- COMMAND...: learn, check, run again (as
# root, so --user root: the learned profile keeps it for the uid-0 guard)
learned() {
	_f=$T/$1.ini
	_what=$2
	shift 2
	run "$S" --learn "$_f" --user root "$@"
	status_is 0 "$_what: the learning run succeeded"
	like "$ERR" "not a sandbox" "$_what: says it is not a sandbox"
	like "$_f" "user = root" "$_what: the learned profile keeps the user of the run"
	run "$S" -p "$_f" --check
	status_is 0 "$_what: --check passes on the learned profile"
	like "$OUT" "warnings: 0" "$_what: ... and the lint says nothing"
	# drop the options before the command: -p BASE, --
	while [ "$1" != -- ]; do shift; done
	shift
	run "$S" -p "$_f" "$@"
	status_is 0 "$_what: the workload runs again under the learned profile"
}

# a call no workload makes is denied by the learned profile, live
still_denies() {
	run "$S" -p "$T/$1.ini" --explain kexec_load
	like "$OUT" "errno(EPERM)" "$2: kexec_load is denied (default-action)"
}

# ---- sh -c pipelines: forks and execs ----

learned sh "sh pipelines" -- sh -c 'seq 1 200 | sort -rn | head -n 3 | tr 0-9 a-j | wc -l'
like "$OUT" "3" "sh pipelines: same output"
# dash runs a lone command with vfork(), which the pipelines never used
run "$S" -p "$T/sh.ini" sh -c "mkdir '$T/never'"
[ "$RC" -ne 0 ]
ok $? "sh pipelines: a command run another way fails under the learned profile"
[ ! -e "$T/never" ]
ok $? "sh pipelines: the directory was not made"
still_denies sh "sh pipelines"
like "$T/sh.ini" "wait4" "sh pipelines: the fork's wait4 was learned from the shell"
like "$T/sh.ini" "clone = flags & 0x7e020000 == 0" "sh pipelines: clone learned with namespace flags"

# ---- exit and exit_group: allowed whether a run used them or not ----

learned true "true" -- true
grep -q "^;@learned x86_64 60\$" "$T/true.ini"
ok $((! $?)) "true: exit was not recorded (one thread, ended by exit_group)"
run "$S" -p "$T/true.ini" --explain exit
like "$OUT" "exit (x86_64 60): allow" "true: exit is allowed all the same"
run "$S" -p "$T/true.ini" --explain exit_group
like "$OUT" "exit_group (x86_64 231): allow" "true: exit_group is allowed"

# ---- tar czf of a tree ----

mkdir -p "$T/tree/a/b" && for i in 1 2 3 4 5; do seq 1 "${i}000" >"$T/tree/a/b/f$i"; done
learned tar "tar czf" -- tar czf "$T/tree.tgz" -C "$T" tree
run tar tzf "$T/tree.tgz"
like "$OUT" "tree/a/b/f5" "tar czf: the archive is complete"
still_denies tar "tar czf"

# ---- python3: sockets on 127.0.0.1 and threads ----

# clone3(CLONE_NEWUSER) by hand (x86_64's number; struct clone_args:
# flags, pidfd, child_tid, parent_tid, exit_signal, ...); the child ends
clone3_newuser='
import ctypes, os, struct
libc = ctypes.CDLL(None, use_errno=True)
args = ctypes.create_string_buffer(struct.pack("8Q", 0x10000000, 0, 0, 0, 17, 0, 0, 0))
pid = libc.syscall(435, args, 64)
if pid == 0:
    libc.syscall(231, 0)
os.waitpid(pid, 0)
print("clone3 ok" if pid > 0 else "clone3 failed %d" % ctypes.get_errno())'

if command -v python3 >/dev/null; then
	learned py "python3 sockets+threads" -- python3 "$SRCDIR/tests/supervise/workload.py"
	like "$OUT" "PING0 PING1 PING2" "python3: the echo worked under the learned profile"
	like "$T/py.ini" "socket = family == AF_INET && type & 0xf == SOCK_STREAM" \
		"python3: socket learned with family and type"
	like "$T/py.ini" "setsockopt = level == SOL_SOCKET && optname == " \
		"python3: setsockopt learned with level and name"
	run "$S" -p "$T/py.ini" python3 -c \
		'import socket; socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)'
	is "$RC" 1 "python3: an AF_INET6 datagram socket, never made, is denied"
	like "$ERR" "PermissionError" "python3: with EPERM"
	# The thread was started with clone3(), whose flags are in memory,
	# where no condition can look: learned as the clone() the C library
	# falls back to, and clone3 fails with ENOSYS, so that a namespace
	# flag cannot pass there (the run above went through the fallback).
	unlike "$T/py.ini" "clone3" "python3: clone3 is not allowed by the learned profile"
	run "$S" -p "$T/py.ini" --explain clone3
	like "$OUT" "errno(ENOSYS)" "python3: clone3 fails with ENOSYS under the learned profile"
	# clone3(CLONE_NEWUSER): its flags, read from memory, are learned
	if [ "$(uname -m)" = x86_64 ]; then
		run "$S" --learn "$T/c3.ini" --user root python3 -c "$clone3_newuser"
		status_is 0 "python3 clone3(CLONE_NEWUSER): learned"
		like "$OUT" "clone3 ok" "python3 clone3(CLONE_NEWUSER): the call was made"
		like "$T/c3.ini" "clone = flags & 0x7e020000 == 0x10000000" \
			"python3 clone3(CLONE_NEWUSER): learned as clone with the flags it passed"
		unlike "$T/c3.ini" "clone3" "python3 clone3(CLONE_NEWUSER): clone3 is not allowed"
	else
		skip "clone3(CLONE_NEWUSER) by number: x86_64 only"
	fi
else
	skip "python3 is not installed"
fi

# clone3() whose flags the supervisor cannot read: a command that made
# itself undumpable, under a supervisor without CAP_SYS_PTRACE. The call
# fails with ENOSYS, as under the learned profile, and the clone() the C
# library makes instead is learned: the thread starts under that profile.
undumpable_thread='
import ctypes, threading
ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)
t = threading.Thread(target=lambda: print("thread ran")); t.start(); t.join()'
if command -v python3 >/dev/null && command -v setpriv >/dev/null; then
	UD=$(mktemp -d /tmp/scmp-run-undumpable.XXXXXX)
	chmod 777 "$UD"
	run setpriv --reuid=65534 --regid=65534 --clear-groups -- \
		"$S" --learn "$UD/u.ini" python3 -c "$undumpable_thread"
	like "$OUT" "thread ran" "undumpable clone3: the thread ran while learning"
	like "$UD/u.ini" "clone = flags & 0x7e020000 == 0" \
		"undumpable clone3: learned as the clone() made instead"
	run setpriv --reuid=65534 --regid=65534 --clear-groups -- \
		"$S" -p "$UD/u.ini" python3 -c "$undumpable_thread"
	like "$OUT" "thread ran" "undumpable clone3: the thread starts under the learned profile"
	rm -rf "$UD"
else
	skip "python3 or setpriv missing: no case 'undumpable clone3'"
fi

# ---- gcc compiling a file: cc1, as, several execs ----

if command -v gcc >/dev/null; then
	printf 'int twice(int x) { return 2 * x; }\n' >"$T/c.c"
	learned gcc "gcc -c" -- gcc -c "$T/c.c" -o "$T/c.o"
	[ -s "$T/c.o" ]
	ok $? "gcc -c: the object file was written"
	still_denies gcc "gcc -c"
else
	skip "gcc is not installed"
fi

# ---- with a base: the learned profile includes it ----

learned based "with a base" -p "$P/base.ini" -- sh -c 'echo hi | cat'
like "$T/based.ini" "include = $(realpath "$P/base.ini")" "with a base: it is included"
unlike "$T/based.ini" "syscalls = brk" "with a base: what the base allows is not repeated"

# the same base again: the runs add up
cp "$T/based.ini" "$T/based.before"
learned based "with the same base again" -p "$P/base.ini" -- sh -c 'ls / >/dev/null'
[ "$(grep -c '^;@learned' "$T/based.ini")" -gt "$(grep -c '^;@learned' "$T/based.before")" ]
ok $? "with the same base again: the record grew"

# ---- two runs merge ----

run "$S" --learn "$T/m.ini" --user root sh -c 'echo one'
status_is 0 "merge: first run"
n1=$(grep -c '^;@learned' "$T/m.ini")
run "$S" --learn "$T/m.ini" --user root sh -c "mkdir '$T/m1'"
status_is 0 "merge: second run"
n2=$(grep -c '^;@learned' "$T/m.ini")
[ "$n2" -gt "$n1" ]
ok $? "merge: the record grew ($n1 -> $n2)"
run "$S" -p "$T/m.ini" sh -c "echo one; mkdir '$T/m2'"
status_is 0 "merge: both runs' calls are allowed"

# Runs at once into one file: each adds what the file holds when it
# writes, so the run that ends last keeps what the other learned meanwhile
# (the file the other one wrote first, too). The long run waits for par-go.
for start in old new; do
	rm -f "$T/par.ini" "$T/par-in" "$T/par-go"
	[ "$start" = new ] || "$S" --learn "$T/par.ini" --user root true 2>/dev/null
	"$S" --learn "$T/par.ini" --user root sh -c \
		"touch '$T/par-in'; until [ -e '$T/par-go' ]; do sleep 0.1; done" 2>/dev/null &
	long=$!
	until [ -e "$T/par-in" ]; do sleep 0.1; done
	run "$S" --learn "$T/par.ini" --user root sh -c "mkdir '$T/par-$start'"
	status_is 0 "runs at once ($start file): the short run"
	touch "$T/par-go"
	wait "$long"
	ok $? "runs at once ($start file): the long run"
	run "$S" -p "$T/par.ini" sh -c "mkdir '$T/par2-$start'"
	status_is 0 "runs at once ($start file): what the short run learned is kept"
done
# A FILE that became something else meanwhile is not overwritten either.
rm -f "$T/par-in" "$T/par-go"
"$S" --learn "$T/par.ini" --user root sh -c \
	"touch '$T/par-in'; until [ -e '$T/par-go' ]; do sleep 0.1; done" 2>"$T/par.err" &
long=$!
until [ -e "$T/par-in" ]; do sleep 0.1; done
echo 'not learned' >"$T/par.ini"
touch "$T/par-go"
RC=0
wait "$long" || RC=$?
status_is 125 "a FILE replaced meanwhile by another: the run fails"
like "$T/par.err" "is not a profile written by --learn" "... and says why"
is "$(cat "$T/par.ini")" "not learned" "... and the file is kept"

# The wait for the lock is bounded in all, not per file: FILE replaced
# every second by a copy a reader keeps locked for two (each lock is let
# go, and FILE is another file by then) is written after 10 seconds with
# a warning; it was waited on as long as the replacing went on.
if command -v flock >/dev/null; then
	"$S" --learn "$T/busy.ini" --user root true 2>/dev/null
	cp "$T/busy.ini" "$T/busy.src"
	rm -f "$T/busy-stop" "$T/busy-on"
	(
		i=0
		while [ ! -e "$T/busy-stop" ] && [ "$i" -lt 60 ]; do
			i=$((i + 1))
			cp "$T/busy.src" "$T/busy.$i"
			flock "$T/busy.$i" sleep 2 &
			until ! flock -n "$T/busy.$i" true; do sleep 0.02; done
			mv "$T/busy.$i" "$T/busy.ini"
			touch "$T/busy-on"
			sleep 1
		done
		wait
	) &
	busy=$!
	until [ -e "$T/busy-on" ]; do sleep 0.1; done
	run timeout 30 "$S" --learn "$T/busy.ini" --user root true
	touch "$T/busy-stop"
	wait "$busy"
	status_is 0 "FILE kept locked by one file after another: written within 30 seconds"
	like "$ERR" "--learn: '$T/busy.ini' stayed locked for 10 seconds: written without waiting longer" \
		"FILE kept locked by one file after another: says so"
else
	skip "flock missing: no case 'FILE kept locked'"
	skip "flock missing: no case 'FILE kept locked'"
fi

# learn_shimmed SHIM FILE COMMAND...: --learn FILE as root with
# tests/supervise/SHIM.so preloaded into scmp-run (and the command).
learn_shimmed() {
	_shim=$1 _file=$2
	shift 2
	run env LD_PRELOAD="$BUILDDIR/tests/supervise/$_shim.so" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$S" --learn "$_file" --user root "$@"
}

# A file system without flock() (nolock-shim.so: ENOLCK, as NFS without
# its lock service): FILE is merged and written as before, but the lock
# that keeps runs at once from losing each other's records is missing,
# and that is said, once.
"$S" --learn "$T/nolock.ini" --user root true 2>/dev/null
learn_shimmed nolock-shim "$T/nolock.ini" sh -c "mkdir '$T/nolock-dir'"
status_is 0 "FILE on a file system without locks: written"
like "$ERR" "--learn: '$T/nolock.ini' cannot be locked (flock: No locks available): written without the lock" \
	"FILE on a file system without locks: says so"
is "$(grep -c 'cannot be locked' "$ERR")" 1 "FILE on a file system without locks: said once"
run "$S" -p "$T/nolock.ini" sh -c "mkdir '$T/nolock-dir2'"
status_is 0 "FILE on a file system without locks: the merged profile runs the command"

# The learned profile is on disk before it replaces FILE; when it cannot
# be (fsync-shim.so: EIO), FILE keeps what it held and the run says why.
cp "$T/nolock.ini" "$T/fsync-before.ini"
learn_shimmed fsync-shim "$T/nolock.ini" sh -c "mkdir '$T/fsync-dir'"
status_is 125 "the learned profile cannot be written to disk: status 125"
like "$ERR" "--learn: writing '$T/nolock.ini' failed: Input/output error" \
	"the learned profile cannot be written to disk: says why"
cmp -s "$T/nolock.ini" "$T/fsync-before.ini"
ok $? "the learned profile cannot be written to disk: FILE unchanged"
[ -d "$T/fsync-dir" ]
ok $? "the learned profile cannot be written to disk: the command ran"

# killed_learn DIR [SHIM]: --learn DIR/k.ini as root (tests/supervise/
# SHIM.so preloaded) of a command that waits; once the command runs, the
# supervisor is killed with SIGKILL (as by the OOM killer or a stop
# timeout), then the command. RC: the supervisor's status.
killed_learn() {
	_dir=$1 _pre=
	[ -z "${2:-}" ] || _pre=$BUILDDIR/tests/supervise/$2.so
	mkdir "$_dir"
	rm -f "$_dir.pid"
	env LD_PRELOAD="$_pre" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$S" --learn "$_dir/k.ini" --user root \
		sh -c 'echo $$ >"$1.pid"; exec sleep 30' sh "$_dir" 2>/dev/null &
	_sup=$!
	_i=0
	while [ ! -s "$_dir.pid" ] && [ "$_i" -lt 100 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	kill -KILL "$_sup"
	RC=0
	wait "$_sup" 2>/dev/null || RC=$?
	[ -s "$_dir.pid" ] && kill -KILL "$(cat "$_dir.pid")" 2>/dev/null
	rm -f "$_dir.pid"
}

# learn_umask MASK SHIM FILE COMMAND...: learn_shimmed under umask MASK
# (SHIM "-": none)
learn_umask() {
	_um=$(umask)
	umask "$1"
	if [ "$2" = - ]; then
		shift 2
		_file=$1
		shift
		run "$S" --learn "$_file" --user root "$@"
	else
		shift
		learn_shimmed "$@"
	fi
	umask "$_um"
}

# The learned profile is written into a file that has no name until the
# rename at the end (O_TMPFILE): a supervisor killed during the run leaves
# nothing beside FILE. Where the file system has no such files it has a
# name from the start (tmpfile-shim.so: EOPNOTSUPP, as on NFS), which a
# killed supervisor leaves, empty (scmp-run(1) WRITING A PROFILE FOR A
# PROGRAM). Either way FILE is written with its mode, and nothing else is
# left by a run that ends.
if command -v python3 >/dev/null &&
	python3 -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_TMPFILE | os.O_WRONLY, 0o600))' \
		"$T" 2>/dev/null; then
	killed_learn "$T/kill"
	is "$RC:$(ls -A "$T/kill")" "137:" "supervisor killed: nothing is left beside FILE"
	learn_umask 077 - "$T/kill/k.ini" true
	is "$RC:$(stat -c %a "$T/kill/k.ini"):$(ls -A "$T/kill")" "0:600:k.ini" \
		"a new FILE: written with its mode, nothing else left"
	like "$T/kill/k.ini" ";@learned" "a new FILE: it holds the record"
	learn_umask 022 - "$T/kill/k.ini" sh -c "mkdir '$T/kill-dir'"
	is "$RC:$(stat -c %a "$T/kill/k.ini"):$(ls -A "$T/kill")" "0:600:k.ini" \
		"FILE replaced: written with its mode, nothing else left"
	# The name given at the end is taken meanwhile (taken-shim.so): the
	# file there is left alone and another name is found.
	learn_shimmed taken-shim "$T/kill/k.ini" sh -c "mkdir '$T/taken-dir'"
	status_is 0 "the temporary name taken at the end: written"
	set -- "$T/kill"/k.ini.*
	is "$#:$(cat "$1")" "1:taken" "the temporary name taken at the end: that file is left as it was"
	run "$S" -p "$T/kill/k.ini" sh -c "mkdir '$T/kill-dir2'; mkdir '$T/taken-dir2'"
	status_is 0 "the temporary name taken at the end: FILE holds both runs' calls"
else
	for i in 1 2 3 4 5 6 7; do
		skip "no O_TMPFILE in $T (or no python3 to tell): no case 'unnamed temporary file'"
	done
fi
killed_learn "$T/killfb" tmpfile-shim
set -- "$T/killfb"/k.ini.*
is "$RC:$#:$(wc -c <"$1")" "137:1:0" \
	"no O_TMPFILE, supervisor killed: its temporary file is left, empty"
rm -f "$1"
learn_umask 077 tmpfile-shim "$T/killfb/k.ini" true
is "$RC:$(stat -c %a "$T/killfb/k.ini"):$(ls -A "$T/killfb")" "0:600:k.ini" \
	"no O_TMPFILE, a new FILE: written with its mode, nothing else left"
learn_umask 022 tmpfile-shim "$T/killfb/k.ini" sh -c "mkdir '$T/killfb-dir'"
is "$RC:$(stat -c %a "$T/killfb/k.ini"):$(ls -A "$T/killfb")" "0:600:k.ini" \
	"no O_TMPFILE, FILE replaced: written with its mode, nothing else left"
# O_TMPFILE refused otherwise (a security module's EACCES, 13): the file
# is named from the start as well.
export TMPFILE_ERRNO=13
learn_umask 022 tmpfile-shim "$T/killfb/k.ini" sh -c "mkdir '$T/killfb-lsm'"
unset TMPFILE_ERRNO
is "$RC:$(ls -A "$T/killfb")" "0:k.ini" "O_TMPFILE refused with EACCES: FILE written, nothing else left"
# Without /proc/self/fd (a mount over it) the unnamed file could not be
# given its name at the end: it is named from the start instead.
if unshare -m true 2>/dev/null; then
	mkdir "$T/nofd" "$T/nofd-empty"
	run unshare -m sh -c 'mount --make-rprivate / && mount --bind "$1" "/proc/$$/fd" &&
		exec "$2" --learn "$3" --user root true' sh "$T/nofd-empty" "$S" "$T/nofd/k.ini"
	is "$RC:$(ls -A "$T/nofd")" "0:k.ini" "no /proc/self/fd: FILE written, nothing else left"
else
	skip "unshare -m fails here: no case 'no /proc/self/fd'"
fi

# Reading FILE again at the end takes one descriptor more than anything
# before it: under the highest RLIMIT_NOFILE at which a run fails, the
# command has run and that step is the one that fails, with its errno
# (EMFILE), not as a lack of memory; FILE is kept.
if command -v prlimit >/dev/null; then
	"$S" --learn "$T/nofile.ini" --user root true 2>/dev/null
	cp "$T/nofile.ini" "$T/nofile.before"
	n=4 last=
	while [ "$n" -le 64 ]; do
		rm -f "$T/ran"
		run prlimit --nofile=$n:$n "$S" --learn "$T/nofile.ini" --user root \
			sh -c "touch '$T/ran'"
		[ "$RC" = 0 ] && break
		last="$RC:$([ -e "$T/ran" ] && echo ran)"
		cp "$ERR" "$T/nofile.err"
		cmp -s "$T/nofile.ini" "$T/nofile.before"
		kept=$?
		n=$((n + 1))
	done
	is "$last" "125:ran" "RLIMIT_NOFILE $((n - 1)): the command ran, then 125"
	like "$T/nofile.err" "--learn: reading '$T/nofile.ini' again failed: Too many open files" \
		"RLIMIT_NOFILE $((n - 1)): the failed step and its errno are said"
	unlike "$T/nofile.err" "out of memory" "RLIMIT_NOFILE $((n - 1)): not called a lack of memory"
	ok "$kept" "RLIMIT_NOFILE $((n - 1)): FILE is kept"
	rm -f "$T/ran"
else
	skip "prlimit missing: no case 'RLIMIT_NOFILE'"
	skip "prlimit missing: no case 'RLIMIT_NOFILE'"
	skip "prlimit missing: no case 'RLIMIT_NOFILE'"
	skip "prlimit missing: no case 'RLIMIT_NOFILE'"
fi

# The learned file's mode: 0644 less the umask, and never more open
# than the file it replaces (the header holds the command line).
(umask 077 && "$S" --learn "$T/mode.ini" --user root true 2>/dev/null)
is "$(stat -c %a "$T/mode.ini")" 600 "mode: a new learned file follows the umask"
chmod 640 "$T/mode.ini"
(umask 022 && "$S" --learn "$T/mode.ini" --user root true 2>/dev/null)
is "$(stat -c %a "$T/mode.ini")" 640 "mode: a merge keeps a file closed to others closed"
rm -f "$T/mode.ini"
(umask 022 && "$S" --learn "$T/mode.ini" --user root true 2>/dev/null)
is "$(stat -c %a "$T/mode.ini")" 644 "mode: a new learned file is 0644 under umask 022"

# An x32 call (the x32 bit in the number: on x86_64 the kernel tells the
# ABI by it) is learned as x32's, so the learned profile names the ABI
# and the run again is not stopped as a foreign architecture. (The kernel
# may have x32 off: the call then fails with ENOSYS in both runs.)
if [ "$(uname -m)" = x86_64 ]; then
	x32call='import ctypes; ctypes.CDLL(None).syscall(0x40000000 | 39); print("done")'
	run "$S" --learn "$T/x32.ini" --user root python3 -c "$x32call"
	status_is 0 "x32 call: learned"
	like "$T/x32.ini" "architectures = native x32" "x32 call: the learned profile names x32"
	run "$S" -p "$T/x32.ini" python3 -c "$x32call"
	status_is 0 "x32 call: the command runs again under the learned profile"
	like "$OUT" "done" "x32 call: ... to its end"
else
	skip "x32 calls are learned as x32's: x86_64 only"
fi

# A number without a name is written as ABI/NUMBER with the number seccomp
# sees: x32's with the x32 bit, or the rule would name another number.
# (rawcall: calls by number, and nothing but a static start-up besides.)
if [ "$(uname -m)" = x86_64 ]; then
	RAW=$BUILDDIR/tests/supervise/rawcall
	run "$S" --learn "$T/abi.ini" --user root "$RAW" 0x40000258
	status_is 0 "an x32 number without a name: learned"
	run "$S" -p "$T/abi.ini" --check
	status_is 0 "an x32 number without a name: --check passes on the learned profile"
	run "$S" -p "$T/abi.ini" --target-arch x32 --explain 0x40000258
	like "$OUT" "(x32 1073742424): allow" "an x32 number without a name: allowed"
	like "$T/abi.ini" "x32/1073742424" "an x32 number without a name: written as seccomp sees it"
else
	skip "an x32 number without a name: x86_64 only"
fi

# A name allows the call on every ABI of the profile: calls seen on x32
# alone are allowed on x32 alone, by number, conditions and all.
if [ "$(uname -m)" = x86_64 ]; then
	run "$S" --learn "$T/x32only.ini" --user root "$RAW" 0x40000027 0x40000029,2,1
	status_is 0 "x32 calls alone: learned"
	run "$S" -p "$T/x32only.ini" --check
	status_is 0 "x32 calls alone: --check passes on the learned profile"
	like "$OUT" "warnings: 0" "x32 calls alone: ... and the lint says nothing"
	run "$S" -p "$T/x32only.ini" --explain getpid
	like "$OUT" "getpid (x86_64 39): errno(EPERM)" "x32 calls alone: x86_64's getpid is denied"
	run "$S" -p "$T/x32only.ini" --explain socket AF_INET SOCK_STREAM 0
	like "$OUT" "errno(EPERM)" "x32 calls alone: x86_64's socket(AF_INET) is denied"
	run "$S" -p "$T/x32only.ini" --target-arch x32 --explain 0x40000027
	like "$OUT" "getpid (x32 1073741863): allow" "x32 calls alone: x32's getpid is allowed"
	run "$S" -p "$T/x32only.ini" --target-arch x32 --explain 0x40000029 AF_INET SOCK_STREAM 0
	like "$OUT" "socket (x32 1073741865): allow" "x32 calls alone: x32's socket(AF_INET) is allowed"
	run "$S" -p "$T/x32only.ini" "$RAW" 0x40000027 0x40000029,2,1
	status_is 0 "x32 calls alone: the command runs again under the learned profile"
else
	skip "calls seen on x32 alone are allowed there alone: x86_64 only"
fi

# A base for several ABIs: the learned profile's rules hold on all of
# them (it includes the base), so a name or a condition is written for
# the ABIs it was seen on (x86's mmap has no prot: a condition by name
# would not load), and x86's read, never made, stays denied.
if [ "$(uname -m)" = x86_64 ]; then
	printf '[filter]\ndefault-action = errno(EPERM)\narchitectures = native x86\n' \
		>"$T/x86-base.ini"
	learned l86 "a base for x86_64 and x86" -p "$T/x86-base.ini" -- true
	run "$S" -p "$T/l86.ini" --target-arch x86 --explain read
	like "$OUT" "read (x86 3): errno(EPERM)" "a base for x86_64 and x86: x86's read is denied"
	run "$S" -p "$T/l86.ini" --explain read
	like "$OUT" "read (x86_64 0): allow" "a base for x86_64 and x86: x86_64's read is allowed"
else
	skip "a base for x86_64 and x86: x86_64 only"
fi

# A call a rule of the base denies is learned, but the learned profile
# includes that rule, which still wins: said at the rule, once per rule.
printf '[filter]\ndefault-action = allow\n\n[errno(EACCES)]\nsyscalls = mkdir\n' >"$T/denying-base.ini"
run "$S" --learn "$T/bd.ini" --user root -p "$T/denying-base.ini" \
	sh -c "mkdir '$T/bd1'; mkdir '$T/bd2'"
status_is 0 "base that denies a used call: learned"
like "$ERR" "denying-base.ini:5: warning: --learn: the command used 'mkdir', which this rule of the base denies" \
	"base that denies a used call: the warning is at the base's rule"
is "$(grep -c 'rule of the base denies' "$ERR")" 1 "base that denies a used call: said once"
printf '[filter]\ndefault-action = errno(EPERM)\n\n[allow]\nsyscalls = mkdir\n' >"$T/allowing-base.ini"
run "$S" --learn "$T/ba.ini" --user root -p "$T/allowing-base.ini" sh -c "mkdir '$T/ba1'"
status_is 0 "base that denies by default only: learned"
unlike "$ERR" "rule of the base denies" "base that denies by default only: no warning"

# So is a call a built-in rule denies, with a base or without: the learned
# profile has the rule too (ioctl TIOCSTI, here on a descriptor that is
# not open: nothing is typed anywhere).
TTY_CALL='import fcntl, termios
try:
    fcntl.ioctl(99, termios.TIOCSTI, b"x")
except OSError:
    pass'
run "$S" --learn "$T/tty.ini" --user root python3 -c "$TTY_CALL"
status_is 0 "a call a built-in rule denies, no base: learned"
like "$ERR" "built-in:tty-injection: warning: --learn: the command used 'ioctl', which the built-in rule tty-injection denies" \
	"a call a built-in rule denies, no base: the warning names the rule"
unlike "$ERR" "rule of the base" "a call a built-in rule denies, no base: no base is blamed"
run "$S" -p "$T/tty.ini" --explain ioctl 99 TIOCSTI
like "$OUT" "errno(EPERM)" "a call a built-in rule denies: the learned profile still denies it"
run "$S" --learn "$T/tty-b.ini" --user root -p "$T/denying-base.ini" python3 -c "$TTY_CALL"
status_is 0 "a call a built-in rule denies, with a base: learned"
like "$ERR" "built-in:tty-injection: warning: --learn: the command used 'ioctl', which the built-in rule tty-injection denies" \
	"a call a built-in rule denies, with a base: the warning names the rule"
unlike "$ERR" "rule of the base" "a call a built-in rule denies, with a base: the base is not blamed"
# a base whose default gives the built-in rule's result: its program has
# no use for the rule, the learned profile, allowing ioctl by rule, has
run "$S" --learn "$T/tty-d.ini" --user root -p "$T/allowing-base.ini" python3 -c "$TTY_CALL"
status_is 0 "a call a built-in rule denies, base denying alike: learned"
like "$ERR" "which the built-in rule tty-injection denies" \
	"a call a built-in rule denies, base denying alike: the warning names the rule"
is "$(grep -c 'which the built-in rule' "$ERR")" 1 "a call a built-in rule denies: said once"
run "$S" -p "$T/tty-d.ini" --explain ioctl 99 TIOCSTI
like "$OUT" "built-in:tty-injection" "a call a built-in rule denies, base denying alike: the rule denies it"
# a [hardening] preset of the base is a rule of the base, said at its
# key, also when the base's default gives its result
printf '[filter]\ndefault-action = errno(EPERM)\n\n[hardening]\nlock-personality = yes\n' \
	>"$T/lock-base.ini"
run "$S" --learn "$T/pers.ini" --user root -p "$T/lock-base.ini" python3 -c 'import ctypes
ctypes.CDLL(None).personality(0x0008)'
status_is 0 "a call a [hardening] preset denies: learned"
like "$ERR" "lock-base.ini:5: warning: --learn: the command used 'personality', which this rule of the base denies" \
	"a call a [hardening] preset denies: the warning is at the preset's key"

# More distinct calls than a record keeps: said in so many words, and
# nothing written (the index keeps this to seconds: a lookup per call).
run "$S" --learn "$T/big.ini" --user root python3 -c '
import fcntl, os
fd = os.open("/dev/null", os.O_RDONLY)
for i in range(100001):
    try:
        fcntl.ioctl(fd, 0x10000 + i)
    except OSError:
        pass
print("done")
'
is "$RC:$(cat "$OUT")" "125:done" "100001 distinct calls: the command ran to its end, then 125"
like "$ERR" "--learn: the command made more than 100000 distinct calls" \
	"100001 distinct calls: says so"
[ ! -e "$T/big.ini" ]
ok $? "100001 distinct calls: nothing written"

# ---- bad targets, refused before the command runs ----

run "$S" --learn "$T/root.ini" sh -c "touch '$T/ran'"
status_is 125 "--learn as root without --user: refused (uid-0 guard)"
like "$ERR" "the command would run as root" "--learn as root without --user: says so"
[ ! -e "$T/ran" ]
ok $? "--learn as root without --user: the command did not run"
[ ! -e "$T/root.ini" ]
ok $? "--learn as root without --user: nothing learned, nothing written"

run "$S" --learn /proc/learned.ini sh -c "touch '$T/ran'"
status_is 125 "unwritable --learn FILE: 125"
like "$ERR" "cannot write '/proc/learned.ini'" "unwritable --learn FILE: says so"
[ ! -e "$T/ran" ]
ok $? "unwritable --learn FILE: the command did not run"

printf '[filter]\ndefault-action = allow\n' >"$T/hand.ini"
run "$S" --learn "$T/hand.ini" sh -c "touch '$T/ran'"
status_is 125 "--learn into a hand-written profile: refused"
like "$ERR" "is not a profile written by --learn" "--learn into a hand-written profile: says so"
[ ! -e "$T/ran" ]
ok $? "--learn into a hand-written profile: the command did not run"

printf ';@learned x86_64 nonsense\n' >"$T/broken.ini"
run "$S" --learn "$T/broken.ini" true
status_is 125 "--learn into a broken record: refused"
like "$ERR" "broken.ini:1: error: malformed record" "--learn into a broken record: located"

# A record of an ABI that cannot run beside this machine's (a file
# learned on another machine): no profile could allow both, so the merge
# is refused, at the line, before the command runs, and the file is kept.
foreign=aarch64
[ "$(uname -m)" = aarch64 ] && foreign=x86_64
"$S" --learn "$T/foreign.ini" --user root true 2>/dev/null
printf ';@learned %s 63\n' "$foreign" >>"$T/foreign.ini"
cp "$T/foreign.ini" "$T/foreign.before"
lines=$(wc -l <"$T/foreign.ini")
run "$S" --learn "$T/foreign.ini" --user root sh -c "touch '$T/ran'"
status_is 125 "--learn into a record of a foreign ABI: refused"
like "$ERR" "foreign.ini:$lines: error: a record of $foreign, which cannot run beside" \
	"--learn into a record of a foreign ABI: located"
[ ! -e "$T/ran" ] && cmp -s "$T/foreign.ini" "$T/foreign.before"
ok $? "--learn into a record of a foreign ABI: the command did not run, the file is kept"

# A socketcall record of an earlier version, which had no operation: the
# call whole would allow every socket operation, so the merge is refused.
if [ "$(uname -m)" = x86_64 ]; then
	"$S" --learn "$T/oldmux.ini" --user root true 2>/dev/null
	printf ';@learned x86 102\n' >>"$T/oldmux.ini"
	lines=$(wc -l <"$T/oldmux.ini")
	run "$S" --learn "$T/oldmux.ini" --user root sh -c "touch '$T/ran'"
	status_is 125 "--learn into a socketcall record without its operation: refused"
	like "$ERR" "oldmux.ini:$lines: error: a record of socketcall without the arguments this version records" \
		"... located, and says why"
	[ ! -e "$T/ran" ]
	ok $? "... the command did not run"
else
	skip "a socketcall record of an earlier version: x86_64 only"
	skip "a socketcall record of an earlier version: x86_64 only"
	skip "a socketcall record of an earlier version: x86_64 only"
fi

# A record line longer than any buffer is read whole: a piece of it is
# neither that record nor another (here the value's leading zeros would
# have left 0 in the first piece: ioctl cmd == 0, and 0x5413 dropped).
if [ "$(uname -m)" = x86_64 ]; then
	"$S" --learn "$T/longrec.ini" --user root true 2>/dev/null
	printf ';@learned x86_64 16 1&0xffffffff=0x%0600d5413\n' 0 >>"$T/longrec.ini"
	run "$S" --learn "$T/longrec.ini" --user root true
	status_is 0 "a long record line: merged"
	like "$T/longrec.ini" ";@learned x86_64 16 1&0xffffffff=0x5413" \
		"a long record line: its record is kept"
	unlike "$T/longrec.ini" ";@learned x86_64 16 1&0xffffffff=0x0" \
		"a long record line: no record made of a piece of it"
else
	skip "a long record line: the record is x86_64's"
fi

# A clone3 record of an earlier version (which allowed clone3 with any
# flags) is merged as the narrowest clone it may stand for.
if [ "$(uname -m)" = x86_64 ]; then
	"$S" --learn "$T/old3.ini" --user root true 2>/dev/null
	printf ';@learned x86_64 435\n' >>"$T/old3.ini"
	run "$S" --learn "$T/old3.ini" --user root true
	status_is 0 "an old clone3 record: merged"
	unlike "$T/old3.ini" "clone3" "an old clone3 record: clone3 is not allowed"
	unlike "$T/old3.ini" ";@learned x86_64 435" "an old clone3 record: not kept"
	like "$T/old3.ini" "clone = flags & 0x7e020000 == 0" \
		"an old clone3 record: a clone without namespace flags is"
else
	skip "an old clone3 record: the record is x86_64's"
fi

# refused_learn WHAT MESSAGE [RUNNER...] -- ARG...: RUNNER scmp-run --learn
# ARG... sh -c 'touch RAN': 125 at once, MESSAGE on stderr, and the
# command did not run (RAN: $RAN, default $T/ran).
refused_learn() {
	_what=$1 _msg=$2 _ran=${RAN:-$T/ran}
	shift 2
	_runner=
	while [ "$1" != -- ]; do
		_runner="$_runner $1"
		shift
	done
	shift
	rm -f "$_ran"
	# shellcheck disable=SC2086
	run timeout 20 $_runner "$S" --learn "$@" sh -c "touch '$_ran'"
	status_is 125 "$_what: 125"
	like "$ERR" "$_msg" "$_what: says why"
	[ ! -e "$_ran" ]
	ok $? "$_what: the command did not run"
}

mkfifo "$T/fifo.ini"
refused_learn "--learn into a FIFO" "--learn: '$T/fifo.ini' is not a regular file" \
	-- "$T/fifo.ini" --user root
mkdir "$T/dir.ini"
refused_learn "--learn into a directory" "--learn: '$T/dir.ini' is not a regular file" \
	-- "$T/dir.ini" --user root

# Runs merge only under the header they were learned under: the base
# (what it allows by rule was not recorded) and the credentials. A run
# with another is refused before the command runs, the file kept.
cp "$T/based.ini" "$T/based.before"
base_line=$(grep -n '^include = ' "$T/based.ini" | cut -d: -f1)
refused_learn "--learn without the base of the file's runs" \
	"based.ini:$base_line: error: --learn: this file was learned with the base '$(realpath "$P/base.ini")', this run with none" \
	-- "$T/based.ini" --user root
printf '[filter]\ndefault-action = allow\n' >"$T/other-base.ini"
refused_learn "--learn with another base than the file's runs" \
	"this file was learned with the base '$(realpath "$P/base.ini")', this run with '$(realpath "$T/other-base.ini")'" \
	-- "$T/based.ini" --user root -p "$T/other-base.ini"
user_line=$(grep -n '^user = ' "$T/based.ini" | cut -d: -f1)
refused_learn "--learn as another user than the file's runs" \
	"based.ini:$user_line: error: --learn: this file was learned with the user 'root', this run with 'nobody'" \
	-- "$T/based.ini" --user nobody -p "$P/base.ini"
cmp -s "$T/based.ini" "$T/based.before"
ok $? "--learn under another header: the file is left as it was"
"$S" --learn "$T/nobase.ini" --user root true 2>/dev/null
refused_learn "--learn with a base into a file learned without one" \
	"--learn: '$T/nobase.ini' was learned with no base, this run with '$(realpath "$P/base.ini")'" \
	-- "$T/nobase.ini" --user root -p "$P/base.ini"
# ... and at the end: a run that finds FILE written meanwhile under
# another header writes nothing (125), and FILE is kept as the other wrote it
rm -f "$T/hdr.ini" "$T/hdr-in" "$T/hdr-go"
"$S" --learn "$T/hdr.ini" --user root -p "$P/base.ini" sh -c \
	"touch '$T/hdr-in'; until [ -e '$T/hdr-go' ]; do sleep 0.1; done" 2>"$T/hdr.err" &
long=$!
until [ -e "$T/hdr-in" ]; do sleep 0.1; done
run "$S" --learn "$T/hdr.ini" --user root true
status_is 0 "FILE written meanwhile without the base: the short run"
cp "$T/hdr.ini" "$T/hdr.before"
touch "$T/hdr-go"
rc=0
wait "$long" || rc=$?
is "$rc" 125 "FILE written meanwhile without the base: the long run fails with 125"
like "$T/hdr.err" "hdr.ini' was learned with no base, this run with '$(realpath "$P/base.ini")'" \
	"FILE written meanwhile without the base: says why"
cmp -s "$T/hdr.ini" "$T/hdr.before"
ok $? "FILE written meanwhile without the base: FILE is kept as the short run wrote it"

# More records than a record keeps (a file edited or joined by hand): the
# run would not be written at its end, so it is refused before the command
# runs, at the line past the limit (it was 125 without a word).
if [ "$(uname -m)" = x86_64 ]; then
	"$S" --learn "$T/many.ini" --user root true 2>/dev/null
	awk 'BEGIN { for (i = 0; i <= 100000; i++)
		printf ";@learned x86_64 16 1&0xffffffff=0x%x\n", 65536 + i }' >>"$T/many.ini"
	lines=$(wc -l <"$T/many.ini")
	recs=$(grep -c '^;@learned' "$T/many.ini")
	refused_learn "--learn into a file of $recs records" \
		"many.ini:$((lines - recs + 100001)): error: more than 100000 distinct calls" \
		-- "$T/many.ini" --user root
else
	skip "a file of too many records: the records are x86_64's"
	skip "a file of too many records: the records are x86_64's"
	skip "a file of too many records: the records are x86_64's"
fi

# refused_for_nobody WHAT MESSAGE FILE: refused_learn, run as uid 65534,
# into FILE, left by root (an earlier learned profile) in FILE's
# directory, which the test set up.
refused_for_nobody() {
	if command -v setpriv >/dev/null && [ -s "$3" ]; then
		RAN=$(dirname "$3")/ran refused_learn "$1" "$2" \
			setpriv --reuid=65534 --regid=65534 --clear-groups -- "$3"
	else
		skip "setpriv missing, or no learned file: no case '$1'"
	fi
}

# another user's file in a sticky directory of a third: only its owner,
# the directory's or root may replace it, so the rename at the end fails
SD=$(mktemp -d /tmp/scmp-run-sticky.XXXXXX)
chmod 1777 "$SD"
"$S" --learn "$SD/owned.ini" --user root true 2>/dev/null
refused_for_nobody "--learn into another user's file in a sticky directory" \
	"--learn: '$SD/owned.ini' cannot be replaced: it is another user's, in a sticky directory" \
	"$SD/owned.ini"
rm -rf "$SD"

# a symbolic link: the rename would replace the link (here root's, in a
# sticky directory: only root could), not the caller's own file it names
SD=$(mktemp -d /tmp/scmp-run-sticky.XXXXXX)
OD=$(mktemp -d /tmp/scmp-run-own.XXXXXX)
chmod 1777 "$SD"
chmod 777 "$OD"
if command -v setpriv >/dev/null; then
	setpriv --reuid=65534 --regid=65534 --clear-groups -- \
		"$S" --learn "$OD/mine.ini" true 2>/dev/null
	ln -s "$OD/mine.ini" "$SD/link.ini"
	cp "$OD/mine.ini" "$T/mine.before"
	RAN=$SD/ran refused_learn "--learn into a symbolic link" \
		"--learn: '$SD/link.ini' is a symbolic link" \
		setpriv --reuid=65534 --regid=65534 --clear-groups -- "$SD/link.ini"
	[ -L "$SD/link.ini" ] && cmp -s "$OD/mine.ini" "$T/mine.before"
	ok $? "--learn into a symbolic link: the link and its target are left as they were"
else
	skip "setpriv missing: no case '--learn into a symbolic link'"
fi
rm -rf "$SD" "$OD"

# an earlier learned file the caller cannot read: what it holds would be
# lost, so the run is refused before it starts
UD=$(mktemp -d /tmp/scmp-run-unreadable.XXXXXX)
chmod 755 "$UD"
"$S" --learn "$UD/root.ini" --user root true 2>/dev/null
chmod 600 "$UD/root.ini"
chmod 777 "$UD"
refused_for_nobody "--learn into a file the caller cannot read" \
	"--learn: cannot read '$UD/root.ini': Permission denied" "$UD/root.ini"
rm -rf "$UD"

# a base the learned profile could not include
printf '[filter]\ndefault-action = allow\n' >"$T/base.ini"
run_in "$(cat "$T/base.ini")" "$S" --learn "$T/stdin.ini" --user root -p - sh -c "touch '$T/ran'"
status_is 125 "--learn with a base on standard input: 125"
like "$ERR" "--learn: the learned profile includes its base, and <stdin> cannot be included" \
	"--learn with a base on standard input: says why"
[ ! -e "$T/ran" ] && [ ! -e "$T/stdin.ini" ]
ok $? "--learn with a base on standard input: the command did not run"
printf '{"defaultAction": "SCMP_ACT_ALLOW"}\n' >"$T/base.json"
refused_learn "--learn with a JSON base" "cannot be included: write the base to an INI file (--import-oci)" \
	-- "$T/json.ini" --user root -p "$T/base.json"
mkdir "$T/a ;b"
cp "$T/base.ini" "$T/a ;b/base.ini"
refused_learn "--learn with a base whose path has ' ;'" \
	"cannot be named by an include line: a ';' after a blank would start a comment" \
	-- "$T/semi.ini" --user root -p "$T/a ;b/base.ini"
cp "$T/base.ini" "$T/base.ini "
refused_learn "--learn with a base whose path ends with a blank" \
	"cannot be named by an include line: it begins or ends with a blank" \
	-- "$T/blank.ini" --user root -p "$T/base.ini "
# (the part after ':' is printf's escape for the character)
for odd in 'a tab:\t' 'a NEL (U+0085):\302\205'; do
	# shellcheck disable=SC2059
	dir=$(printf "%s/a${odd#*:}b" "$T")
	mkdir "$dir"
	cp "$T/base.ini" "$dir/base.ini"
	refused_learn "--learn with a base whose path holds ${odd%%:*}" \
		"cannot be named by an include line: it holds a control character" \
		-- "$T/odd.ini" --user root -p "$dir/base.ini"
done
long=$T/$(printf '%0200d' 0)
mkdir "$long"
cp "$T/base.ini" "$long/base.ini"
refused_learn "--learn with a base path too long for a line" \
	"cannot be named by an include line: too long for a line of a profile" \
	-- "$T/long.ini" --user root -p "$long/base.ini"

# the command in the header comment: escaped, and cut between characters
esc=$(printf 'a\033b')
wide=$(printf 'é%.0s' $(seq 100))
run "$S" --learn "$T/header.ini" --user root true "$esc" "$wide"
status_is 0 "--learn of a command with ESC and 100 'é': ran"
run "$S" -p "$T/header.ini" --check
status_is 0 "--learn of a command with ESC and 100 'é': --check passes on the learned profile"
like "$T/header.ini" '# Command: true a\x1bb éé' "--learn: ESC in the header is escaped"
grep -q '^# Command: .*é\.\.\.$' "$T/header.ini"
ok $? "--learn: the long header is cut after a whole character"

done_testing
