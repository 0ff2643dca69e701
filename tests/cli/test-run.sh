#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Run mode: exit statuses (125/126/127/the command's own), -p lookup, option
# parsing that stops at the command, refusals before anything runs, and the
# sample profiles running real programs and stopping one forbidden call each.
# Usage: test-run.sh TINY-DYNAMIC [TINY-STATIC]
. "$(dirname "$0")/../tap.sh"
cd "$SRCDIR" || exit 99
P=tests/cli/profiles
# Run mode as root: the sample profiles by NAME, with user = root added.
SCMP_RUN_PROFILE_PATH=$(sample_profiles):${SCMP_RUN_PROFILE_PATH:-}
export SCMP_RUN_PROFILE_PATH
TINY_DYN=${1:-}
TINY_STATIC=${2:-}

# ---- exit statuses ----
run "$SCMP_RUN" -p no-network -- sh -c 'exit 42'
status_is 42 "the command's own status"
run "$SCMP_RUN" -p no-network -- true
status_is 0 "true: 0"
run "$SCMP_RUN" -p no-network -- /nonexistent/cmd
status_is 127 "missing path: 127"
like "$ERR" "command not found" "missing path: message"
run "$SCMP_RUN" -p no-network -- no-such-command-anywhere
status_is 127 "name not on PATH: 127"
printf 'echo hi\n' >"$TAP_TMP/noexec"
chmod 644 "$TAP_TMP/noexec"
if [ "$(id -u)" = 0 ] || [ ! -x "$TAP_TMP/noexec" ]; then
	run "$SCMP_RUN" -p no-network -- "$TAP_TMP/noexec"
	status_is 126 "file without x bit: 126"
	like "$ERR" "cannot execute" "file without x bit: message"
fi
run "$SCMP_RUN" -p no-network -- "$TAP_TMP"
status_is 126 "directory: 126"
run env PATH="$TAP_TMP" "$SCMP_RUN" -p no-network -- noexec
status_is 126 "found on PATH, not executable: 126"
# An executable file the kernel cannot run is found but not executable, as
# for sh, bash and env; execve() only says so after the filter is in place.
printf '\177ELF not really\n' >"$TAP_TMP/badelf"
chmod 755 "$TAP_TMP/badelf"
# (a sanitized build cannot look for leaks once the filter denies ptrace)
run env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$SCMP_RUN" -p no-network -- "$TAP_TMP/badelf"
status_is 126 "executable file in an unknown format (ENOEXEC): 126"
like "$ERR" "Exec format error" "ENOEXEC: message"

# 125: scmp-run failed before exec; the command never runs.
marker=$TAP_TMP/ran
run "$SCMP_RUN" -- sh -c "touch $marker"
status_is 125 "no -p in run mode: 125"
run "$SCMP_RUN" -p no-network
status_is 125 "no command: 125"
run "$SCMP_RUN" --bogus -p no-network -- sh -c "touch $marker"
status_is 125 "unknown option in run mode: 125"
run "$SCMP_RUN" --target-arch x86 -p no-network -- sh -c "touch $marker"
status_is 125 "--target-arch in run mode: 125"
run "$SCMP_RUN" -p no-such-profile-name -- sh -c "touch $marker"
status_is 125 "unknown profile in run mode: 125"
# Two profiles, users or groups: which one was meant is not the launcher's
# to guess (a unit's -p and one a wrapper adds), so neither runs.
for twice in "-p no-network --profile $P/small.ini" "--user root --user nobody" \
	"--group root --group nogroup"; do
	# shellcheck disable=SC2086 # split on purpose
	run "$SCMP_RUN" -p no-network $twice -- sh -c "touch $marker"
	status_is 125 "$twice: 125"
	like "$ERR" "given twice" "$twice: says so"
done
# An id of digits only that does not fit: (uid_t)-1 would leave the id
# unchanged, a larger one is no id; neither is looked up as a name.
for c in "--user 4294967295|--user: error: user id 4294967295" \
	"--user 99999999999|--user: error: user id 99999999999" \
	"--user root --group 4294967295|--group: error: group id 4294967295"; do
	opts=${c%%|*}
	# shellcheck disable=SC2086 # split on purpose
	run "$SCMP_RUN" -p no-network $opts -- sh -c "touch $marker"
	status_is 125 "$opts: 125"
	like "$ERR" "${c#*|} is out of range: at most 4294967294" \
		"$opts: says it is out of range, at the option"
	run test -e "$marker"
	status_is 1 "$opts: the command did not run"
done
run "$SCMP_RUN" -p tests/profiles/bad/unknown-syscall.ini -- sh -c "touch $marker"
status_is 125 "bad profile in run mode: 125"
like "$ERR" "unknown-syscall.ini:6: error: unknown syscall 'opn'" "bad profile: FILE:LINE"
run "$SCMP_RUN" -p "$P/notify.ini" -- sh -c "touch $marker"
status_is 125 "notify profile in run mode: 125"
like "$ERR" "notify.ini:6: error: the 'notify' action needs a supervisor" "notify: says why, at the rule"
# --check rejects what run mode refuses whatever the command, at the line.
run "$SCMP_RUN" -p "$P/notify.ini" --check
status_is 1 "notify profile: --check rejects it"
like "$ERR" "notify.ini:6: error: scmp-run refuses to run this profile: the notify action needs a supervisor" \
	"notify profile: --check says why, at the rule"
run "$SCMP_RUN" -p "$P/notify.ini" --export-bpf /dev/null
status_is 0 "notify profile: --export-bpf takes it"
for f in no-execve:7:"errno(EACCES)" kill-execve:6:kill-process; do
	name=${f%%:*}
	line=${f#*:}
	line=${line%%:*}
	run "$SCMP_RUN" -p "$P/$name.ini" --check
	status_is 1 "$name: --check rejects it"
	like "$ERR" "$name.ini:$line: error: run mode refuses this profile: the filter stops the execve() of the command itself (${f##*:})" \
		"$name: --check says why, at the rule that decides"
done
run "$SCMP_RUN" -p "$P/no-execve.ini" -- sh -c "touch $marker"
status_is 125 "filter that blocks execve: 125"
like "$ERR" "no-execve.ini: error: the filter would stop the execve() of the command itself (errno(EACCES))" \
	"blocked execve: says why, with the action, at the profile"
like "$ERR" "no-execve.ini: hint: allow 'execve' in the profile ('--check' names the rule" \
	"blocked execve: says where to find the rule"
run "$SCMP_RUN" -p "$P/kill-execve.ini" -- sh -c "touch $marker"
status_is 125 "filter that kills a conditional execve: 125"
like "$ERR" "would stop the execve() of the command itself (kill-process)" \
	"conditional kill of execve: says why"
# An empty FILE of --learn or --report cannot be written: refused before
# the command runs (125 says it did not).
for opt in "--learn=" "--report="; do
	run "$SCMP_RUN" "$opt" -p no-network -- sh -c "touch $marker"
	status_is 125 "$opt with an empty FILE: 125"
	like "$ERR" "option '${opt%=}' needs a FILE, not an empty name" "$opt with an empty FILE: says so"
done
[ -e "$marker" ]
ok $((! $?)) "no refused command ran"

# ---- -p lookup (scmp-run(1) OPTIONS -p, ENVIRONMENT, FILES) ----
lookup=$TAP_TMP/lookup
mkdir -p "$lookup/a" "$lookup/b"
desc() {
	printf '[profile]\ndescription = %s\n[filter]\ndefault-action = allow\n' "$1"
}
desc "plain name in a" >"$lookup/a/plain"
desc "plain.ini in b" >"$lookup/b/plain.ini"
desc "ext.ini in b" >"$lookup/b/ext.ini"
desc "cwd file" >"$lookup/cwdname"
run env SCMP_RUN_PROFILE_PATH="$lookup/missing:$lookup/a:$lookup/b" \
	"$SCMP_RUN" -p plain --check
like "$OUT" "description: plain name in a" "NAME: first directory of the path that has it"
run env SCMP_RUN_PROFILE_PATH="$lookup/missing:$lookup/b" "$SCMP_RUN" -p plain --check
like "$OUT" "description: plain.ini in b" "NAME: NAME.ini found"
run env SCMP_RUN_PROFILE_PATH="$lookup/b" "$SCMP_RUN" -p ext --check
status_is 0 "NAME.ini without the extension: 0"
run env SCMP_RUN_PROFILE_PATH="$lookup/b" "$SCMP_RUN" -p ext.ini --check
status_is 0 "NAME.ini with the extension: 0"
like "$OUT" "description: ext.ini in b" "NAME.ini with the extension: found"
run env SCMP_RUN_PROFILE_PATH="$lookup/a" "$SCMP_RUN" -p "$lookup/b/plain.ini" --check
like "$OUT" "description: plain.ini in b" "a path with '/' is used as is"
run env SCMP_RUN_PROFILE_PATH="$lookup/a" "$SCMP_RUN" -p ./plain --check
status_is 1 "'./NAME' is a path: not looked up"
(cd "$lookup" && env SCMP_RUN_PROFILE_PATH="$lookup/a" "$SCMP_RUN" -p cwdname --check) \
	>"$OUT" 2>"$ERR"
unlike "$OUT" "description: cwd file" "NAME: never a file in the current directory"
cp "$lookup/a/plain" "$lookup/plain"
sed -i 's/plain name in a/plain in cwd/' "$lookup/plain"
(cd "$lookup" && env SCMP_RUN_PROFILE_PATH="$lookup/a" "$SCMP_RUN" -p plain --check) \
	>"$OUT" 2>"$ERR"
like "$OUT" "description: plain name in a" "NAME: the search path, not the current directory"
run env SCMP_RUN_PROFILE_PATH="$lookup/a" "$SCMP_RUN" -p no-network --check
status_is 1 "a name not in the search path (nor installed): 1"
run "$SCMP_RUN" -p no-network --check
status_is 0 "a sample profile by name through SCMP_RUN_PROFILE_PATH"

# ---- option parsing stops at the command ----
run "$SCMP_RUN" -p no-network sh -c 'printf "%s," "$@"' argv0 -l --check -p x --
status_is 0 "options after the command are the command's"
is "$(cat "$OUT")" "-l,--check,-p,x,--," "the command got every argument after it"
run "$SCMP_RUN" -p no-network ls -l /
status_is 0 "'-p P ls -l /': 0"
like "$OUT" "total " "'-p P ls -l' passed -l to ls"
run "$SCMP_RUN" -p no-network -- ls -d /
is "$(cat "$OUT")" "/" "'--' ends the options"

# ---- the sample profiles ----
PY=""
for c in /usr/bin/python3 /usr/local/bin/python3; do
	[ -x "$c" ] && PY=$c && break
done
PIPELINE='ls /usr/bin | sort | uniq | wc -l >/dev/null; echo abc | tr a-z A-Z;
printf "b\na\nb\n" | sort -u | paste -sd, -; sha256sum /dev/null | cut -c1-8'
PIPE_WANT='ABC
a,b
e3b0c442'
PYPROG='import json, os, re, hashlib, tempfile, threading
d = tempfile.mkdtemp()
p = os.path.join(d, "in.json")
with open(p, "w") as f:
    json.dump({"k": [3, 1, 2]}, f)
with open(p) as f:
    data = json.load(f)
r, w = os.pipe()
t = threading.Thread(target=lambda: os.write(w, json.dumps(sorted(data["k"])).encode()))
t.start(); t.join()
out = os.read(r, 100).decode()
h = hashlib.sha256(out.encode()).hexdigest()
os.unlink(p); os.rmdir(d)
print(re.sub(r"\s", "", out), h[:8])'
EXP=$(printf '%s' '[1, 2, 3]' | sha256sum | cut -c1-8)
PY_WANT="[1,2,3] $EXP"

for p in no-network system-service net-daemon; do
	run "$SCMP_RUN" -p "$p" -- sh -c "$PIPELINE"
	status_is 0 "$p: a pipeline of coreutils runs"
	is "$(cat "$OUT")" "$PIPE_WANT" "$p: the pipeline's output"
done
for p in no-network system-service net-daemon untrusted-tool; do
	[ -n "$PY" ] || { skip "$p: no system python3"; continue; }
	run "$SCMP_RUN" -p "$p" -- "$PY" -c "$PYPROG"
	status_is 0 "$p: python3 with json, os, re, hashlib, threads and a pipe runs"
	is "$(cat "$OUT")" "$PY_WANT" "$p: python3's output"
done
for p in system-service net-daemon; do
	[ -n "$PY" ] || { skip "$p: no system python3"; continue; }
	run "$SCMP_RUN" -p "$p" -- "$PY" "$SRCDIR/tests/cli/net-echo.py"
	status_is 0 "$p: an epoll echo server over TCP/IPv4, IPv6, UDP and AF_UNIX"
	like "$OUT" "echo: ping ping ping ping" "$p: every echo came back"
done

# untrusted-tool: file tools, one at a time
printf 'b\na\n' >"$TAP_TMP/in.txt"
# (in its launch directory: the only one [landlock] lets it write)
(cd "$TAP_TMP" && run "$SCMP_RUN" -p untrusted-tool -- sort -o out.txt in.txt && echo "$RC" >rc)
RC=$(cat "$TAP_TMP/rc")
status_is 0 "untrusted-tool: sort FILE -o FILE"
is "$(cat "$TAP_TMP/out.txt")" "a
b" "untrusted-tool: sort wrote the file"

# One forbidden operation per profile, failing the way the profile says.
py_errno() { # PROFILE CODE: run CODE, print errno name of the OSError it raises
	"$SCMP_RUN" -p "$1" -- "$PY" -c "import errno
try:
    $2
    print('no error')
except OSError as e:
    print(errno.errorcode[e.errno])"
}
if [ -n "$PY" ]; then
	is "$(py_errno no-network 'import socket; socket.socket(socket.AF_INET)')" EPERM \
		"no-network: socket(AF_INET) fails with EPERM"
	is "$(py_errno no-network 'import socket; socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)')" \
		EPERM "no-network: socket(AF_INET6) fails with EPERM"
	is "$(py_errno no-network 'import socket; a, b = socket.socketpair(); a.send(b"x"); b.recv(1)')" \
		"no error" "no-network: AF_UNIX socketpair works"
	# PTRACE_PEEKDATA of a process we do not trace: ESRCH without the filter
	is "$(py_errno no-network 'import ctypes, os
    c = ctypes.CDLL(None, use_errno=True)
    if c.ptrace(2, os.getppid(), 0, 0) == -1: raise OSError(ctypes.get_errno(), "ptrace")')" \
		EPERM "no-network: ptrace fails with EPERM"
	is "$(py_errno system-service 'import os; os.chroot("/")')" EPERM \
		"system-service: chroot (not in @system-service) fails with EPERM"
	is "$(py_errno system-service 'import os; os.uname(); os.getpid()')" "no error" \
		"system-service: uname and getpid work"
	is "$(py_errno net-daemon 'import socket; socket.socket(socket.AF_NETLINK, socket.SOCK_RAW)')" \
		EAFNOSUPPORT "net-daemon: socket(AF_NETLINK) fails with EAFNOSUPPORT"
	is "$(py_errno net-daemon 'import ctypes, os
    c = ctypes.CDLL(None, use_errno=True)
    if c.unshare(0x04000000) == -1: raise OSError(ctypes.get_errno(), "unshare")')" \
		EPERM "net-daemon: unshare(CLONE_NEWUTS) fails with EPERM"
	is "$(py_errno net-daemon 'import os
    pid = os.fork()
    if pid == 0: os._exit(0)
    os.waitpid(pid, 0)')" "no error" "net-daemon: fork works"
	is "$(py_errno untrusted-tool 'import subprocess; subprocess.run(["true"])')" EPERM \
		"untrusted-tool: starting another program fails with EPERM"
	is "$(py_errno untrusted-tool 'import socket; socket.socket(socket.AF_UNIX)')" EPERM \
		"untrusted-tool: socket() fails with EPERM"
	is "$(py_errno untrusted-tool 'import fcntl, termios; fcntl.ioctl(0, termios.TIOCSTI, b"x")')" \
		EPERM "untrusted-tool: TIOCSTI fails with EPERM (not ENOTTY)"
	is "$(py_errno untrusted-tool 'import fcntl, termios; fcntl.ioctl(0, termios.TCGETS, bytes(64))')" \
		ENOTTY "untrusted-tool: other ioctls reach the kernel (ENOTTY on a pipe)"
else
	skip "forbidden operations: no system python3"
fi
if command -v unshare >/dev/null; then
	run "$SCMP_RUN" -p net-daemon -- unshare -U true
	ok $((RC == 0)) "net-daemon: unshare(1) fails"
	like "$ERR" "Operation not permitted" "net-daemon: unshare(1) got EPERM"
else
	skip "net-daemon: no unshare(1)"
fi

# minimal: a tiny static and dynamic program; anything else is killed.
for t in "$TINY_STATIC" "$TINY_DYN"; do
	[ -n "$t" ] || { skip "minimal: no static tiny program (no static libc)"; continue; }
	run_in 'hello' "$SCMP_RUN" -p minimal -- "$t"
	status_is 0 "minimal: $(basename "$t") runs"
	is "$(cat "$OUT")" "hello" "minimal: $(basename "$t") copied stdin to stdout"
	is "$(cat "$ERR")" "tiny" "minimal: $(basename "$t") wrote stderr"
done
if [ -n "$TINY_STATIC" ]; then
	# Descriptors >= 3 are not passed (scmp-run(1), Caller state): with no
	# fd 3 open here, the write to fd 3 fails with EBADF (exit 5), so the
	# launcher's own descriptors (the read-back one) did not leak either.
	RC=0
	printf 'to fd 3' | "$SCMP_RUN" -p minimal -- "$TINY_STATIC" x >/dev/null 2>&1 || RC=$?
	status_is 5 "minimal: no descriptor 3 reaches the command"
	# With the caller's fd 3 open, minimal's filter (read on fd 0 and 3,
	# prctl killed) leaves the read-back no call to make: refused.
	RC=0
	printf 'to fd 3' | "$SCMP_RUN" -p minimal -- "$TINY_STATIC" x 3>"$TAP_TMP/fd3" \
		>/dev/null 2>"$ERR" || RC=$?
	status_is 125 "minimal with the caller's fd 3 open: 125"
	like "$ERR" "could not be verified after loading" "minimal with fd 3 open: says why"
	is "$(cat "$TAP_TMP/fd3")" "" "minimal: the caller's fd 3 got nothing"
	# [process] keep-fds = 3 passes it; prctl(PR_GET_SECCOMP) allowed
	# gives the read-back its call (fd 3 is the caller's now).
	printf '[profile]\ninclude = %s/minimal.ini\n[process]\nkeep-fds = 3\n' \
		"$(sample_profiles)" >"$TAP_TMP/minimal-fd3.ini"
	printf '[allow]\nprctl = option == PR_GET_SECCOMP\n' >>"$TAP_TMP/minimal-fd3.ini"
	RC=0
	printf 'to fd 3' | "$SCMP_RUN" -p "$TAP_TMP/minimal-fd3.ini" -- "$TINY_STATIC" x \
		3>"$TAP_TMP/fd3" >/dev/null 2>"$ERR" || RC=$?
	status_is 0 "minimal with keep-fds = 3: the command ran"
	is "$(cat "$TAP_TMP/fd3")" "to fd 3" "keep-fds = 3: the command wrote to the caller's fd 3"
fi
run_in 'x' "$SCMP_RUN" -p minimal -- cat
status_is 0 "minimal: cat of stdin runs"
run "$SCMP_RUN" -p minimal -- ls /
status_is $((128 + 31)) "minimal: ls / is killed by SIGSYS (getdents64)"

# ---- [process] and [environment] (scmp-run.ini(5)), --user, --group ----
C=$TAP_TMP/caller
mkdir -m 755 "$C" && chmod 755 "$TAP_TMP"
# prof NAME LINE...: an allow-all profile (user = root as root, for the
# uid-0 guard) with the given lines.
prof() {
	_f=$C/$1.ini
	shift
	printf '[filter]\ndefault-action = allow\n' >"$_f"
	[ "$(id -u)" = 0 ] && printf '[credentials]\nuser = root\n' >>"$_f"
	printf '%s\n' "$@" >>"$_f"
}

# Bad values: located errors, 125 in run mode, and the command never runs.
run "$SCMP_RUN" -p tests/profiles/bad/process-bad.ini -- sh -c "touch $marker"
status_is 125 "bad [process] value in run mode: 125"
like "$ERR" "process-bad.ini:12: error: invalid keep-fds '2'" "bad keep-fds: FILE:LINE"
like "$ERR" "process-bad.ini:16: error: invalid boolean 'maybe' for 'reset-signals'" \
	"bad reset-signals: FILE:LINE"
run "$SCMP_RUN" -p tests/profiles/bad/environment-bad.ini -- sh -c "touch $marker"
status_is 125 "bad [environment] value in run mode: 125"
like "$ERR" "environment-bad.ini:12: error: invalid set 'NOEQUALS': not NAME=VALUE" \
	"bad set: FILE:LINE"
run "$SCMP_RUN" -p tests/profiles/bad/environment-bad.ini --check
status_is 1 "bad [environment] value with --check: 1"
[ -e "$marker" ]
ok $((! $?)) "no command with a bad [process] or [environment] ran"

# keep-fds: a listed descriptor reaches the command, the others do not.
prof keep5 '[process]' 'keep-fds = 5'
prof plain
run sh -c 'exec "$0" -p "$1" -- sh -c "echo kept >&5" 5>"$2"' "$SCMP_RUN" "$C/keep5.ini" "$C/fd5"
status_is 0 "keep-fds = 5: the command wrote to fd 5"
is "$(cat "$C/fd5")" "kept" "keep-fds = 5: into the caller's file"
run sh -c 'exec "$0" -p "$1" -- sh -c "echo kept >&5" 5>"$2"' "$SCMP_RUN" "$C/plain.ini" "$C/fd5"
ok $((RC == 0)) "without keep-fds: fd 5 is closed in the command"
is "$(cat "$C/fd5")" "" "without keep-fds: the caller's file got nothing"
prof keepall '[process]' 'keep-fds = all'
run sh -c 'exec "$0" -p "$1" -- sh -c "echo all >&7" 7>"$2"' "$SCMP_RUN" "$C/keepall.ini" "$C/fd7"
is "$(cat "$C/fd7")" "all" "keep-fds = all: fd 7 reaches the command"

# reset-signals = no: an ignored signal stays ignored (SIGUSR1: bit 9).
prof nosig '[process]' 'reset-signals = no'
run sh -c 'trap "" USR1; exec "$0" -p "$1" -- grep SigIgn /proc/self/status' \
	"$SCMP_RUN" "$C/nosig.ini"
# Only bit 9 is asserted: the caller may ignore others (nohup: SIGHUP).
ign=$(printf '%s\n' "$OUT" | sed -n 's/^SigIgn:[[:space:]]*//p')
ok $(((0x${ign:-0} >> 9) & 1)) "reset-signals = no: SIGUSR1 stays ignored"
run sh -c 'trap "" USR1; exec "$0" -p "$1" -- grep SigIgn /proc/self/status' \
	"$SCMP_RUN" "$C/plain.ini"
like "$OUT" "SigIgn:	0000000000000000" "reset-signals default: SIGUSR1 reset"

# new-session: the command leads a session of its own (field 6 of stat).
prof session '[process]' 'new-session = yes'
sid_script='read -r l </proc/$$/stat; set -- ${l#*) }; echo "$$ $4"'
run "$SCMP_RUN" -p "$C/session.ini" -- sh -c "$sid_script"
status_is 0 "new-session = yes: ran"
set -- $(cat "$OUT")
is "${2:-}" "${1:-x}" "new-session = yes: the command's session is its own pid"
run "$SCMP_RUN" -p "$C/plain.ini" -- sh -c "$sid_script"
set -- $(cat "$OUT")
[ -n "${2:-}" ] && [ "$1" != "$2" ]
ok $? "new-session default: the caller's session"

# [environment]: clear, keep, then (user = root as root) the four, then set.
prof env '[environment]' 'clear = yes' 'keep = PATH KEEPME MISSING' \
	'set = GREETING=hello world=1' 'set = KEEPME=second' 'set = EMPTY='
run env KEEPME=first DROPME=x SSH_AUTH_SOCK=/tmp/agent "$SCMP_RUN" -p "$C/env.ini" -- env
status_is 0 "[environment]: ran"
sort "$OUT" | grep -v '^PATH=' >"$C/env.got"
if [ "$(id -u)" = 0 ]; then
	home=$(getent passwd root | cut -d: -f6)
	shell=$(getent passwd root | cut -d: -f7)
	printf '%s\n' "EMPTY=" "GREETING=hello world=1" "HOME=$home" "KEEPME=second" \
		"LOGNAME=root" "SHELL=${shell:-/bin/sh}" "USER=root" >"$C/env.want"
else
	printf '%s\n' "EMPTY=" "GREETING=hello world=1" "KEEPME=second" >"$C/env.want"
fi
is "$(cat "$C/env.got")" "$(cat "$C/env.want")" "[environment]: clear, keep, set in order"
like "$OUT" "PATH=" "[environment]: PATH kept"

# --check and -v say what the settings do.
run "$SCMP_RUN" -p "$C/plain.ini" --check
like "$OUT" "descriptors: closed from 3 up, except those of socket activation (LISTEN_FDS) (default)" \
	"--check: descriptors"
like "$OUT" "signals: dispositions and mask reset (default)" "--check: signals"
like "$OUT" "session: the caller's (default)" "--check: session"
like "$OUT" "session keyring: a new one (default)" "--check: session keyring"
like "$OUT" "capabilities: none kept (default)" "--check: capabilities"
prof caps '[capabilities]' 'keep = net_bind_service cap_chown'
run "$SCMP_RUN" -p "$C/caps.ini" --check
like "$OUT" "capabilities: kept CAP_NET_BIND_SERVICE CAP_CHOWN; not ambient: the command keeps them only if it runs as root" \
	"--check: capabilities kept, not ambient"
printf 'ambient = yes\n' >>"$C/caps.ini"
run "$SCMP_RUN" -p "$C/caps.ini" --check
like "$OUT" "capabilities: kept CAP_NET_BIND_SERVICE CAP_CHOWN; ambient: passed on through execve" \
	"--check: capabilities kept, ambient"
prof all '[process]' 'keep-fds = 9 5' 'reset-signals = no' 'new-session = yes' \
	'new-session-keyring = no' \
	'[environment]' 'clear = yes' 'keep = TERM' 'set = A=1'
run "$SCMP_RUN" -p "$C/all.ini" --check
status_is 0 "--check with [process] and [environment]: 0"
like "$OUT" "descriptors: closed from 3 up, except those of socket activation (LISTEN_FDS) and 5 9 (keep-fds)" \
	"--check: keep-fds"
like "$OUT" "signals: passed on (reset-signals = no)" "--check: reset-signals = no"
like "$OUT" "session: a new one (new-session = yes)" "--check: new-session"
like "$OUT" "session keyring: the caller's (new-session-keyring = no)" \
	"--check: new-session-keyring = no"
if [ "$(id -u)" = 0 ]; then
	like "$OUT" "environment: cleared except TERM; HOME USER LOGNAME SHELL of user 'root'; set A" \
		"--check: environment"
else
	like "$OUT" "environment: cleared except TERM; set A" "--check: environment"
fi
run sh -c 'LISTEN_PID=$$ LISTEN_FDS=2 exec "$0" -v -p "$1" -- true' "$SCMP_RUN" "$C/keep5.ini"
status_is 0 "-v: ran"
like "$ERR" "keep5.ini: note: descriptors: closed from 3 up, except 3..4 (socket activation) and 5 (keep-fds)" \
	"-v: the descriptors kept, socket activation's counted"
like "$ERR" "keep5.ini: note: environment: " "-v: environment"
like "$ERR" "keep5.ini: note: capabilities: none kept (default)" "-v: capabilities"
run "$SCMP_RUN" -p "$C/keep5.ini" -- true
is "$(cat "$ERR")" "" "without -v: nothing said"

# --check and -v: the built-in rules, the user and what the trust check
# looked at (scmp-run(1) Caller state, TRUST).
prof clone '[allow]' 'clone = flags & CLONE_THREAD != 0'
run "$SCMP_RUN" -p "$C/clone.ini" --check
like "$OUT" "built-in rule: built-in:tty-injection: errno(EPERM) ioctl if cmd in { TIOCSTI, TIOCLINUX }" \
	"--check: the tty-injection built-in"
like "$OUT" "built-in rule: built-in:clone3: errno(ENOSYS) clone3" "--check: the clone3 built-in"
prof tty '[hardening]' 'tty-injection = allow'
run "$SCMP_RUN" -p "$C/tty.ini" --check
like "$OUT" "built-in rule: tty-injection: off ([hardening] tty-injection = allow at $C/tty.ini:" \
	"--check: tty-injection switched off, and where"
unlike "$OUT" "built-in:clone3" "--check: no clone3 built-in without a clone condition"
run "$SCMP_RUN" -v -p "$C/clone.ini" -- true
status_is 0 "-v with a clone condition: ran"
like "$ERR" "clone.ini: note: built-in rule: built-in:tty-injection: errno(EPERM)" \
	"-v: the tty-injection built-in"
like "$ERR" "clone.ini: note: built-in rule: built-in:clone3: errno(ENOSYS) clone3" \
	"-v: the clone3 built-in"
like "$ERR" "clone.ini: note: unknown-syscall action: allow (not written: the default action)" \
	"-v: the unknown-syscall default of an allow-by-default profile"
prof deny-unknown '[filter]' 'default-action = errno(EPERM)' '[allow]' 'syscalls = @system-service'
run "$SCMP_RUN" -v -p "$C/deny-unknown.ini" -- true
like "$ERR" "deny-unknown.ini: note: unknown-syscall action: errno(ENOSYS) (not written: the default action denies)" \
	"-v: the unknown-syscall default"
# [credentials] supplementary-groups in --check, as written, escaped
R=$SRCDIR/tests/runner/profiles
run "$SCMP_RUN" -p "$R/supp-groups.ini" --check
like "$OUT" "supplementary groups: adm 4242 nogroup (set at $R/supp-groups.ini:10)" \
	"--check: the supplementary groups, and where they are set"
run "$SCMP_RUN" -p "$R/supp-init.ini" --check
like "$OUT" "supplementary groups: the user's, from the group database (init; set at" \
	"--check: supplementary-groups = init"
run "$SCMP_RUN" -p "$C/clone.ini" --set "credentials.supplementary-groups=$(printf 'g\033x')" --check
like "$OUT" 'supplementary groups: g\x1bx (set at' "--check: a group's name escaped"
# a user name from the command line is escaped in --check, as in messages
run "$SCMP_RUN" -p "$C/clone.ini" --user "$(printf 'r\033x')" --check
like "$OUT" 'user: r\x1bx (set at --user)' "--check: the user's name escaped"
like "$OUT" "of user 'r\\x1bx'" "--check: ... also in the environment line"
if [ "$(id -u)" = 0 ]; then
	run "$SCMP_RUN" -p "$C/clone.ini" --check
	like "$OUT" "trust: checked 1 file and 0 searched directories: owned by root or uid 0, not writable by group or others (scmp-run runs as root)" \
		"--check as root: trust checked, one file"
	like "$OUT" "user: root (set at $C/clone.ini:4)" "--check: the user, and where it is set"
	run "$SCMP_RUN" -v -p "$C/clone.ini" -- true
	like "$ERR" "clone.ini: note: trust: checked 1 file and 0 searched directories" \
		"-v as root: what the trust check looked at"
	printf '[profile]\ninclude = clone.ini\n' >"$C/inc.ini"
	mkdir -m 755 "$C/by-name"
	cp "$C/inc.ini" "$C/by-name/inc.ini"
	cp "$C/clone.ini" "$C/by-name/clone.ini"
	run env SCMP_RUN_PROFILE_PATH="$C/by-name" "$SCMP_RUN" -p inc --check
	above=$(printf '%s' "$C/by-name" | tr -cd / | wc -c)
	like "$OUT" "trust: checked 2 files, 1 searched directory and $above directories on the way:" \
		"--check -p NAME with an include: 2 files, 1 directory and those on the way to it"
	run_in "$(printf '[filter]\ndefault-action = allow\n')" "$SCMP_RUN" -p - --user root --check
	like "$OUT" "trust: nothing to check (standard input is the caller's own)" \
		"--check -p - from a pipe: nothing to check"
	like "$OUT" "user: root (set at --user)" "--check --user root: the user, from the option"
	if command -v setpriv >/dev/null; then
		run setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$SCMP_RUN" -p "$C/tty.ini" --user 65534 --check
		like "$OUT" "trust: checked 1 file and 0 searched directories: owned by root or uid 65534, not writable by group or others (the credentials change)" \
			"--check --user as uid 65534: trust checked, because of the switch"
		printf '[filter]\ndefault-action = allow\n' >"$C/plain-nouser.ini"
		run setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$SCMP_RUN" -p "$C/plain-nouser.ini" --check
		like "$OUT" "trust: not checked (scmp-run does not run as root, holds no capability and switches no credentials)" \
			"--check as uid 65534: trust not checked"
		like "$OUT" "user: the caller's (default; run mode refuses to run a command as root)" \
			"--check without a user: the caller's"
	else
		skip "no setpriv: trust as uid 65534"
		skip "no setpriv: trust as uid 65534"
		skip "no setpriv: trust as uid 65534"
	fi
else
	run "$SCMP_RUN" -p "$C/clone.ini" --check
	like "$OUT" "trust: not checked (scmp-run does not run as root, holds no capability and switches no credentials)" \
		"--check unprivileged: trust not checked"
fi

# The uid-0 guard in --check: a warning (a fact of this process), exit 0.
if [ "$(id -u)" = 0 ]; then
	printf '[filter]\ndefault-action = allow ; lint: allow io-uring\n' >"$C/nouser.ini"
	run "$SCMP_RUN" -p "$C/nouser.ini" --check
	status_is 0 "--check as root without [credentials]: 0"
	like "$ERR" "nouser.ini: warning: run mode would refuse this profile here" \
		"--check as root without [credentials]: a warning"
	like "$ERR" "hint: running as root: add [credentials] user = ..., or user = root to keep root" \
		"--check as root without [credentials]: the hint"
	run "$SCMP_RUN" -p "$C/nouser.ini" --user root --check
	is "$(cat "$ERR")" "" "--check --user root: no warning"
	if command -v setpriv >/dev/null; then
		run setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$SCMP_RUN" -p "$C/nouser.ini" --check
		status_is 0 "--check as uid 65534: 0"
		is "$(cat "$ERR")" "" "--check as uid 65534: no warning"
	else
		skip "no setpriv: --check unprivileged"
		skip "no setpriv: --check unprivileged"
	fi

	# What run mode refuses about [credentials] on this machine, --check
	# says as a warning [credentials] (--strict: status 1), at the line.
	uid=54321
	while getent passwd "$uid" >/dev/null; do uid=$((uid + 1)); done
	for c in "--user no-such-user-scmp|--user: |unknown user 'no-such-user-scmp'" \
		"--user $uid|--user: |user id $uid has no passwd entry, so it has no primary group" \
		"--user root --group no-such-group-scmp|--group: |unknown group 'no-such-group-scmp'" \
		"--user root --set credentials.supplementary-groups=no-such-group-scmp|command line:1: |unknown group 'no-such-group-scmp'" \
		"--user 4294967295|--user: |user id 4294967295 is out of range: at most 4294967294 (4294967295 means 'unchanged' to the kernel)" \
		"--user root --group 99999999999|--group: |group id 99999999999 is out of range: at most 4294967294" \
		"--user root --set credentials.supplementary-groups=4294967295|command line:1: |group id 4294967295 is out of range: at most 4294967294"; do
		opts=${c%%|*}
		rest=${c#*|}
		at=${rest%%|*}
		what=${rest#*|}
		# shellcheck disable=SC2086 # split on purpose
		run "$SCMP_RUN" -p "$C/nouser.ini" $opts -- sh -c "touch $marker"
		status_is 125 "$opts: run mode refuses, 125"
		like "$ERR" "$what" "$opts: run mode says why"
		# shellcheck disable=SC2086
		run "$SCMP_RUN" -p "$C/nouser.ini" $opts --check
		status_is 0 "$opts: --check, 0"
		like "$ERR" "scmp-run: ${at}warning: run mode would refuse this profile here: $what" \
			"$opts: --check warns at the line"
		like "$ERR" "[credentials]" "$opts: ... with its ID"
		# shellcheck disable=SC2086
		run "$SCMP_RUN" -p "$C/nouser.ini" $opts --check --strict
		status_is 1 "$opts: --check --strict, 1"
	done
	run "$SCMP_RUN" -p "$C/nouser.ini" --user root --group nogroup --check
	like "$OUT" "group: nogroup (set at --group)" "--check --group: the group, from the option"
	# A user id without a passwd entry: the four variables are removed,
	# and --check and -v say so.
	run env HOME=/root USER=root "$SCMP_RUN" -p "$C/nouser.ini" --user "$uid" --group "$uid" \
		-- sh -c 'echo "${HOME-unset} ${USER-unset} ${LOGNAME-unset} ${SHELL-unset}"'
	is "$(cat "$OUT")" "unset unset unset unset" "--user $uid without an entry: HOME USER LOGNAME SHELL removed"
	run "$SCMP_RUN" -p "$C/nouser.ini" --user "$uid" --group "$uid" --check
	like "$OUT" "environment: passed on; HOME USER LOGNAME SHELL removed (user id $uid has no passwd entry)" \
		"--check --user $uid without an entry: says they are removed"
	run "$SCMP_RUN" -v -p "$C/nouser.ini" --user "$uid" --group "$uid" -- true
	like "$ERR" "note: environment: passed on; HOME USER LOGNAME SHELL removed (user id $uid has no passwd entry)" \
		"-v --user $uid without an entry: says they are removed"

	# --user and --group override [credentials]; --user root counts as
	# user = root.
	run "$SCMP_RUN" -p "$C/nouser.ini" -- sh -c "touch $marker"
	status_is 125 "root without [credentials] or --user: 125"
	run "$SCMP_RUN" --user root -p "$C/nouser.ini" -- id -u
	status_is 0 "--user root: runs"
	is "$(cat "$OUT")" 0 "--user root: as uid 0"
	run "$SCMP_RUN" --user nobody -p "$C/plain.ini" -- sh -c 'id -u; id -g; echo $USER'
	status_is 0 "--user nobody over user = root: runs"
	is "$(cat "$OUT")" "$(id -u nobody)
$(id -g nobody)
nobody" "--user nobody: its ids and USER"
	run "$SCMP_RUN" --user nobody --group 4242 -p "$C/plain.ini" -- id -G
	is "$(cat "$OUT")" 4242 "--group 4242: the group, alone"
	run "$SCMP_RUN" --group 4242 -p "$C/plain.ini" -- sh -c 'id -u; id -G'
	is "$(cat "$OUT")" "0
4242" "--group alone: user = root of the profile stays"
	run "$SCMP_RUN" --user no-such-user-xyz -p "$C/plain.ini" -- sh -c "touch $marker"
	status_is 125 "--user of an unknown user: 125"
	like "$ERR" "scmp-run: --user: error: unknown user 'no-such-user-xyz'" \
		"--user of an unknown user: located at the option"
	run "$SCMP_RUN" --group no-such-group-xyz -p "$C/plain.ini" -- sh -c "touch $marker"
	status_is 125 "--group of an unknown group: 125"
	like "$ERR" "scmp-run: --group: error: unknown group 'no-such-group-xyz'" \
		"--group of an unknown group: located at the option"
else
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do
		skip "the uid-0 guard and --user/--group need root"
	done
fi
run "$SCMP_RUN" --user "" -p "$C/plain.ini" -- sh -c "touch $marker"
status_is 125 "--user '': 125"
like "$ERR" "--user '': expected one name or number" "--user '': says why"
run "$SCMP_RUN" --user "a b" -p "$C/plain.ini" --check
status_is 2 "--user 'a b' with --check: 2"
run "$SCMP_RUN" --user root -p "$C/plain.ini" --export-pfc -
status_is 2 "--user with --export-pfc: 2"
like "$ERR" "--user and --group are for run mode and --check" "--user with --export-pfc: says why"

# the supervised modes: options they do not go with
run "$SCMP_RUN" --learn "$TAP_TMP/l.ini" --report -p "$C/plain.ini" -- sh -c "touch $marker"
status_is 125 "--learn with --report: 125"
like "$ERR" "--learn cannot be combined with --report or --permissive" "--learn with --report: says why"
run "$SCMP_RUN" --report -p "$C/plain.ini" --check
status_is 2 "--report with --check: 2"
like "$ERR" "--report, --permissive and --learn are for run mode" "--report with --check: says why"
run "$SCMP_RUN" --learn "$TAP_TMP/l.ini" -p "$C/plain.ini" --set allow.syscalls=mkdir -- \
	sh -c "touch $marker"
status_is 125 "--learn with --set: 125"
like "$ERR" "--set cannot be carried into the profile --learn writes" "--learn with --set: says why"
[ ! -e "$TAP_TMP/l.ini" ]
ok $? "--learn with --set: nothing written"
[ -e "$marker" ]
ok $((! $?)) "no refused command ran"

done_testing
