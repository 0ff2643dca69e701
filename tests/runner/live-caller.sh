# SPDX-License-Identifier: LGPL-2.1-or-later
# The caller's state through the command line (scmp-run(1), Caller state):
# descriptors, socket activation, signals, the session keyring,
# environment on a user switch, the parent-death signal, the uid-0 guard;
# as root and as an unprivileged user (uid 65534).
# Usage: live-caller.sh STATE-HELPER ORPHAN-SHIM (environment: SCMP_RUN, SRCDIR).
. "$SRCDIR/tests/tap.sh"

H=${1:?usage: live-caller.sh STATE-HELPER ORPHAN-SHIM}
ORPHAN_SHIM=${2:?usage: live-caller.sh STATE-HELPER ORPHAN-SHIM}
S=$SCMP_RUN
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH

# field NAME: the value after "NAME:" or "NAME=" in the last output
field() {
	sed -n "s/^$1[:=][[:space:]]*//p" "$OUT"
}

# Profiles: allow all; as root with user = root, or user = nobody.
D=$TAP_TMP/p
mkdir -m 755 "$D" && chmod 755 "$TAP_TMP"
printf '[filter]\ndefault-action = allow\n' >"$D/plain.ini"
printf '[filter]\ndefault-action = allow\n[credentials]\nuser = root\n' >"$D/root.ini"
printf '[filter]\ndefault-action = allow\n[credentials]\nuser = nobody\n' >"$D/nobody.ini"
cp "$H" "$D/state-helper" && chmod 755 "$D/state-helper"
cp "$S" "$D/scmp-run" && chmod 755 "$D/scmp-run"
H=$D/state-helper
S=$D/scmp-run

cp "$SRCDIR/tests/runner/sigblock.py" "$D/sigblock.py" && chmod 755 "$D/sigblock.py"
cp "$SRCDIR/tests/runner/keyplant.py" "$D/keyplant.py" && chmod 755 "$D/keyplant.py"
for p in plain root nobody; do
	{ cat "$D/$p.ini"; printf '[process]\nnew-session-keyring = no\n'; } >"$D/$p-keyring.ini"
done
# keyplant.py: python3 and the x86_64 syscall numbers, a kernel with keys
KEYS=
if [ "$(uname -m)" = x86_64 ] && command -v python3 >/dev/null &&
	"$D/keyplant.py" "$H" 2>/dev/null | grep -q '^session-key: planted$'; then
	KEYS=yes
fi
if [ "$(id -u)" = 0 ]; then
	P=$D/root.ini
else
	P=$D/plain.ini
fi

# caller_state WRAPPER...: the checks for one kind of caller
caller_state() {
	# descriptors: 5 and 7 open in the caller are not passed
	run "$@" sh -c 'exec "$0" -p "$1" "$2" 5</dev/null 7</dev/null' "$S" "$P" "$H"
	status_is 0 "$WHO: ran"
	is "$(field fds)" "0 1 2" "$WHO: descriptors 5 and 7 of the caller are closed"

	# socket activation: LISTEN_PID is scmp-run's pid (sh execs it)
	run "$@" sh -c 'LISTEN_PID=$$ LISTEN_FDS=2 exec "$0" -p "$1" "$2" 3</dev/null 4</dev/null 5</dev/null' \
		"$S" "$P" "$H"
	is "$(field fds)" "0 1 2 3 4" "$WHO: LISTEN_FDS=2 for this pid keeps 3 and 4, closes 5"
	run "$@" sh -c 'LISTEN_PID=1 LISTEN_FDS=2 exec "$0" -p "$1" "$2" 3</dev/null 4</dev/null' \
		"$S" "$P" "$H"
	is "$(field fds)" "0 1 2" "$WHO: another process's LISTEN_PID keeps nothing"
	run "$@" sh -c 'LISTEN_PID=$$ LISTEN_FDS=2x exec "$0" -p "$1" "$2" 3</dev/null' "$S" "$P" "$H"
	status_is 125 "$WHO: our LISTEN_PID with LISTEN_FDS=2x: 125"
	like "$ERR" "LISTEN_FDS is not a descriptor count" "$WHO: LISTEN_FDS=2x: says why"
	is "$(cat "$OUT")" "" "$WHO: LISTEN_FDS=2x: the command did not run"

	# signals: ignored ones and a blocked mask do not reach the command
	run "$@" sh -c 'trap "" INT QUIT PIPE; exec "$0" -p "$1" "$2"' "$S" "$P" "$H"
	is "$(field SigIgn)" "0000000000000000" "$WHO: ignored signals are reset"
	run "$@" "$D/sigblock.py" "$S" -p "$P" "$H"
	is "$(field SigBlk)" "0000000000000000" "$WHO: the blocked mask is emptied"

	# the session keyring: a key the caller's holds (a login's secrets)
	# does not reach the command; new-session-keyring = no passes it on
	if [ -z "$KEYS" ]; then
		skip "$WHO: no session keyring case (python3, x86_64 or kernel keys missing)"
		skip "$WHO: no session keyring case"
		skip "$WHO: no session keyring case"
		return
	fi
	run "$@" "$D/keyplant.py" "$H"
	is "$(field session-key)" "planted" "$WHO: control: the key is in the caller's session keyring"
	run "$@" "$D/keyplant.py" "$S" -p "$P" "$H"
	is "$(field session-key)" "none (ENOKEY)" "$WHO: the caller's session keyring is not the command's"
	run "$@" "$D/keyplant.py" "$S" -p "${P%.ini}-keyring.ini" "$H"
	is "$(field session-key)" "planted" "$WHO: new-session-keyring = no: the caller's is passed on"
}

WHO=root
if [ "$(id -u)" = 0 ]; then
	caller_state
	if command -v setpriv >/dev/null && command -v python3 >/dev/null; then
		P=$D/plain.ini
		WHO="uid 65534"
		caller_state setpriv --reuid=65534 --regid=65534 --clear-groups
	else
		skip "setpriv or python3 missing: no unprivileged cases"
	fi
else
	WHO="uid $(id -u)"
	caller_state
fi

if [ "$(id -u)" = 0 ]; then
	# The uid-0 guard.
	marker=$TAP_TMP/ran
	run "$S" -p "$D/plain.ini" sh -c "touch $marker"
	status_is 125 "root without [credentials]: 125"
	like "$ERR" "running as root: add [credentials] user = ..., or user = root to keep root" \
		"root without [credentials]: the hint"
	run test -e "$marker"
	status_is 1 "root without [credentials]: the command did not run"
	run "$S" -p "$D/root.ini" sh -c 'id -u'
	status_is 0 "explicit user = root: runs"
	is "$(cat "$OUT")" 0 "explicit user = root: as uid 0"

	# Environment on a user switch: the four from nobody's entry; the
	# rest (SSH_AUTH_SOCK) unchanged, as scmp-run.ini(5) says.
	NHOME=$(getent passwd nobody | cut -d: -f6)
	NSHELL=$(getent passwd nobody | cut -d: -f7)
	run env HOME=/root USER=root LOGNAME=root SHELL=/bin/bash SSH_AUTH_SOCK=/tmp/agent \
		"$S" -p "$D/nobody.ini" "$H" HOME USER LOGNAME SHELL SSH_AUTH_SOCK
	status_is 0 "user = nobody: ran"
	is "$(field HOME) $(field USER) $(field LOGNAME) $(field SHELL)" \
		"$NHOME nobody nobody ${NSHELL:-/bin/sh}" "user = nobody: HOME USER LOGNAME SHELL from passwd"
	is "$(field SSH_AUTH_SOCK)" "/tmp/agent" "user = nobody: other variables are left as they are"
	run env HOME=/root USER=root "$S" -p "$D/root.ini" "$H" HOME USER
	is "$(field HOME) $(field USER)" "/root root" "user = root: HOME and USER from root's entry"
	# root's session keyring after a switch to nobody: a key is read by
	# whoever possesses the keyring, whatever the uid (keyrings(7))
	if [ -n "$KEYS" ]; then
		run "$D/keyplant.py" "$S" -p "$D/nobody.ini" "$H"
		is "$(field session-key)" "none (ENOKEY)" "user = nobody: root's session key is out of reach"
		run "$D/keyplant.py" "$S" -p "$D/nobody-keyring.ini" "$H"
		is "$(field session-key)" "planted" "user = nobody, new-session-keyring = no: root's key is read"
	else
		skip "no session keyring case (python3, x86_64 or kernel keys missing)"
		skip "no session keyring case"
	fi
	# The parent-death signal the caller set: the kernel clears it when
	# the ids change (prctl(2), PR_SET_PDEATHSIG); the command keeps it
	# with a user switch as without one.
	if command -v python3 >/dev/null; then
		for p in root nobody; do
			run python3 -c 'import ctypes, os, signal, sys
ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)
os.execv(sys.argv[1], sys.argv[1:])' "$S" -p "$D/$p.ini" "$H"
			status_is 0 "user = $p, a parent-death signal: ran"
			is "$(field pdeathsig)" 15 "user = $p: the caller's parent-death signal is kept"
		done
		# Without one, none is set.
		run "$S" -p "$D/nobody.ini" "$H"
		is "$(field pdeathsig)" 0 "user = nobody, no parent-death signal: none"
		# Supervised, the command is the supervisor's child, which
		# inherits none: the caller's is set for the supervisor's death,
		# and kept across the switch.
		run python3 -c 'import ctypes, os, signal, sys
ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)
os.execv(sys.argv[1], sys.argv[1:])' "$S" --report -p "$D/nobody.ini" "$H"
		status_is 0 "--report, a parent-death signal: ran"
		is "$(field pdeathsig)" 15 "--report: the caller's parent-death signal is the command's"
		# The supervisor killed: the command gets it. A subreaper
		# collects the orphan's status.
		run python3 -c 'import ctypes, os, signal, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
sup = os.fork()
if sup == 0:
    libc.prctl(1, signal.SIGTERM, 0, 0, 0)
    os.execv(sys.argv[1], sys.argv[1:])
def running():
    try:
        with open("/proc/%d/task/%d/children" % (sup, sup)) as f:
            kids = f.read().split()
        return any(open("/proc/%s/comm" % k).read().strip() == "sleep" for k in kids)
    except OSError:
        return False
for _ in range(1000):
    if running():
        break
    time.sleep(0.01)
os.kill(sup, signal.SIGKILL)
os.waitpid(sup, 0)
pid, st = os.wait()
print("orphan:", os.waitstatus_to_exitcode(st))' "$S" --report -p "$D/nobody.ini" sleep 20
		is "$(field orphan)" -15 "--report, the supervisor killed: the command gets the signal"
		# The parent dies right after the switch, before the signal is
		# set again (orphan-shim.c): it is sent then, and the command
		# does not run. A subreaper collects the orphan's status.
		mkdir -m 1777 "$TAP_TMP/orphan"
		marker=$TAP_TMP/orphan/ran
		run python3 -c 'import ctypes, os, signal, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
parent = os.fork()
if parent == 0:
    r, w = os.pipe()
    if os.fork() == 0:
        os.close(r)
        os.set_inheritable(w, True)
        os.environ["ORPHAN_SHIM_FD"] = str(w)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)
        os.execvp(sys.argv[1], sys.argv[1:])
    os.close(w)
    if not os.read(r, 1):
        os.wait()
    os._exit(0)
while True:
    try:
        pid, st = os.wait()
    except ChildProcessError:
        break
    if pid != parent:
        print("orphan:", os.waitstatus_to_exitcode(st))' \
			env LD_PRELOAD="$ORPHAN_SHIM" \
			ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
			"$S" -p "$D/nobody.ini" sh -c "touch $marker"
		is "$(field orphan)" -15 "the parent died after the switch: SIGTERM is sent then"
		run test -e "$marker"
		status_is 1 "the parent died after the switch: the command did not run"
	else
		skip "python3 missing: no parent-death signal case"
	fi

	# A user id: the entry that resolved it gives the four too.
	printf '[filter]\ndefault-action = allow\n[credentials]\nuser = %s\n' "$(id -u nobody)" \
		>"$D/nobody-id.ini"
	run env HOME=/root USER=root "$S" -p "$D/nobody-id.ini" "$H" HOME USER LOGNAME SHELL
	is "$(field HOME) $(field USER) $(field LOGNAME) $(field SHELL)" \
		"$NHOME nobody nobody ${NSHELL:-/bin/sh}" "user = nobody's id: the four from passwd"

	# Signals are reset from the ignored set in /proc/self/status: where
	# it cannot be read, nothing runs (fail closed). An empty file is bound
	# over the status of the shell that execs scmp-run (same pid); the
	# rest of /proc stays (sanitizer builds read it).
	if command -v unshare >/dev/null; then
		marker=$TAP_TMP/ran-noproc
		run unshare -m sh -c 'mount --bind /dev/null /proc/$$/status &&
			exec "$0" -p "$1" sh -c "touch $2"' "$S" "$D/root.ini" "$marker"
		status_is 125 "without /proc/self/status: 125"
		like "$ERR" "reading the ignored signals failed" "without /proc/self/status: says why"
		run test -e "$marker"
		status_is 1 "without /proc/self/status: the command did not run"
	else
		skip "unshare (util-linux) is not installed: no /proc case"
	fi

	# A caller with 2000 supplementary groups: the Groups line puts SigIgn
	# beyond the first page of /proc/self/status.
	if command -v python3 >/dev/null; then
		run python3 -c 'import os, sys
os.setgroups(range(1000000, 1002000))
os.execv(sys.argv[1], sys.argv[1:])' /bin/sh -c 'trap "" INT QUIT; exec "$0" -p "$1" "$2"' \
			"$S" "$D/root.ini" "$H"
		status_is 0 "2000 supplementary groups: ran"
		is "$(field SigIgn)" "0000000000000000" "2000 supplementary groups: ignored signals are reset"
		# ... and kept to the read-back, unprivileged, without [credentials]:
		# Seccomp_filters lies beyond the first read of the status text too
		# (scmp-run(1) KERNEL CHECKS).
		run python3 -c 'import os, sys
os.setgroups(range(1000000, 1002000))
os.setresgid(65534, 65534, 65534)
os.setresuid(65534, 65534, 65534)
os.execv(sys.argv[1], sys.argv[1:])' "$S" -p "$D/plain.ini" cat /proc/self/status
		status_is 0 "2000 supplementary groups kept: the read-back finds the count"
		is "$(field Seccomp_filters)" 1 "2000 supplementary groups kept: the filter is in place"
		is "$(field Groups | wc -w)" 2000 "2000 supplementary groups kept: the command has them"
	else
		skip "python3 missing: no case with many supplementary groups"
	fi

	# An id of (uid_t)-1 in the user or group database: setresuid(2) and
	# setresgid(2) take it as "unchanged", so the switch would leave root.
	# Refused before anything changes, at the line. The databases are
	# replaced in a mount namespace of their own.
	if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
		{ cat /etc/passwd; echo 'scmpminus:x:4294967295:4294967295::/nonexistent:/bin/sh'; } \
			>"$D/passwd"
		{ cat /etc/group; echo 'scmpminusg:x:4294967295:nobody'; } >"$D/group"
		c="[filter]\ndefault-action = allow\n[credentials]\n"
		printf "${c}user = scmpminus\n" >"$D/m-uid.ini"
		printf "${c}user = scmpminus\ngroup = nogroup\n" >"$D/m-uid-group.ini"
		printf "${c}user = nobody\ngroup = scmpminusg\n" >"$D/m-group.ini"
		printf "${c}user = nobody\nsupplementary-groups = scmpminusg\n" >"$D/m-supp.ini"
		printf "${c}user = nobody\nsupplementary-groups = init\n" >"$D/m-init.ini"
		for c in "m-uid|4|user 'scmpminus' has user id 4294967295 in the user database" \
			"m-uid-group|4|user 'scmpminus' has user id 4294967295 in the user database" \
			"m-group|5|group 'scmpminusg' has group id 4294967295 in the group database" \
			"m-supp|5|group 'scmpminusg' has group id 4294967295 in the group database" \
			"m-init|5|the group database gives user 'nobody' group id 4294967295"; do
			p=${c%%|*}
			rest=${c#*|}
			run unshare -m sh -c 'mount --bind "$1/passwd" /etc/passwd &&
				mount --bind "$1/group" /etc/group && exec "$2" -p "$1/$3.ini" id -u' \
				sh "$D" "$S" "$p"
			status_is 125 "$p: an id of 4294967295 in the database: 125"
			like "$ERR" "$p.ini:${rest%%|*}: error: ${rest#*|}" "$p: says which id, at the line"
			is "$(cat "$OUT")" "" "$p: the command did not run"
		done
	else
		skip "unshare -m missing or refused: no (uid_t)-1 database cases"
	fi

	# Executable as the target user: a file only root may execute.
	install -m 0700 "$H" "$D/root-only"
	run "$S" -p "$D/nobody.ini" "$D/root-only"
	status_is 126 "user = nobody, a root-only executable: 126"
	like "$ERR" "cannot execute: Permission denied" "root-only executable as nobody: says why"
	run "$S" -p "$D/root.ini" "$D/root-only"
	status_is 0 "user = root, the same file: runs"
fi

done_testing
