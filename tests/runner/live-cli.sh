# SPDX-License-Identifier: LGPL-2.1-or-later
# Run mode end to end through the command line, as root: what the command
# sees in /proc/self/status, the actions as a real program meets them, exit
# statuses, and that nothing runs unsandboxed when scmp-run fails.
# Usage: live-cli.sh LIVE-HELPER (environment: SCMP_RUN, SRCDIR).

# $AS_NOBODY is a command prefix, split on purpose; '$$' and '$VAR' in
# single quotes are for the sandboxed shell.
# shellcheck disable=SC2086,SC2016
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP run mode live tests need root (credentials, capabilities)"
	exit 0
fi
. "$SRCDIR/tests/tap.sh"

HELPER=${1:?usage: live-cli.sh LIVE-HELPER}
S=$SCMP_RUN
T=$SRCDIR/tests/runner/profiles
# A fixed PATH: the command is resolved on it, and version-manager shims
# (shell scripts that fork) must not stand in for the real programs.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
LC_ALL=C
export LC_ALL

# field NAME: the value of NAME: in the last output ($OUT), tabs as spaces
field() {
	awk -v k="$1:" '$1 == k { $1 = ""; sub(/^ /, ""); sub(/ $/, ""); print }' "$OUT"
}

# status PROFILE [WRAPPER...]: the command's own /proc/self/status
status() {
	_p=$1
	shift
	run timeout 10 "$@" "$S" -p "$_p" cat /proc/self/status
}

# sandbox_is WHAT NNP: Seccomp 2 (filter mode) and NoNewPrivs as configured
sandbox_is() {
	is "$(field Seccomp) $(field NoNewPrivs)" "2 $2" "$1: Seccomp 2, NoNewPrivs $2"
}

# caps_are WHAT INH PRM EFF BND AMB (hex, 16 digits as the kernel prints)
caps_are() {
	is "$(field CapInh) $(field CapPrm) $(field CapEff) $(field CapBnd) $(field CapAmb)" \
		"$2 $3 $4 $5 $6" "$1: CapInh CapPrm CapEff CapBnd CapAmb"
}

ids_are() {
	is "$(field Uid) / $(field Gid) / $(field Groups)" "$2 / $3 / $4" "$1: Uid / Gid / Groups"
}

Z=0000000000000000
NOBODY=$(id -u nobody)
NOGROUP=$(getent group nogroup | cut -d: -f3)

# ---- /proc/self/status of the command, as configured ----

status "$T/caps-none.ini"
status_is 0 "caps-none: ran"
sandbox_is caps-none 1
caps_are caps-none $Z $Z $Z $Z $Z
ids_are caps-none "0 0 0 0" "0 0 0 0" "0" # user = root: groups = the primary one

status "$T/caps-root.ini"
status_is 0 "caps-root: ran"
sandbox_is caps-root 1
caps_are caps-root 0000000000000400 0000000000000400 0000000000000400 0000000000000400 $Z

status "$T/nobody-ambient.ini"
status_is 0 "nobody-ambient: ran"
sandbox_is nobody-ambient 1
C=0000000000002400
caps_are nobody-ambient $C $C $C $C $C
ids_are nobody-ambient "$NOBODY $NOBODY $NOBODY $NOBODY" \
	"$NOGROUP $NOGROUP $NOGROUP $NOGROUP" "$NOGROUP"

status "$T/nobody-inheritable.ini"
status_is 0 "nobody-inheritable: ran"
sandbox_is nobody-inheritable 1
caps_are nobody-inheritable 0000000000000400 $Z $Z 0000000000000400 $Z
G=$(id -g nobody)
ids_are nobody-inheritable "$NOBODY $NOBODY $NOBODY $NOBODY" "$G $G $G $G" "$G"

status "$T/numeric-ids.ini"
status_is 0 "numeric-ids: ran"
ids_are numeric-ids "4242 4242 4242 4242" "4343 4343 4343 4343" "4343"
caps_are numeric-ids $Z $Z $Z $Z $Z

# SECBIT_KEEP_CAPS_LOCKED (inherited through execve): no capability can be
# kept across the switch from root. Nothing kept: the switch goes on, and
# the sets, the bounding set too, end as without the bit. Something kept:
# refused before anything changes, naming the bit.
if command -v setpriv >/dev/null; then
	status "$T/numeric-ids.ini" setpriv --securebits +keep_caps_locked
	status_is 0 "KEEPCAPS locked, nothing kept: ran"
	ids_are "KEEPCAPS locked, nothing kept" "4242 4242 4242 4242" "4343 4343 4343 4343" "4343"
	caps_are "KEEPCAPS locked, nothing kept" $Z $Z $Z $Z $Z
	status "$T/nobody-ambient.ini" setpriv --securebits +keep_caps_locked
	status_is 125 "KEEPCAPS locked, capabilities kept: refused, 125"
	like "$ERR" "nobody-ambient.ini:11: error: [capabilities] keep needs the capabilities kept across the switch from root to user 'nobody', and SECBIT_KEEP_CAPS_LOCKED is set" \
		"KEEPCAPS locked, capabilities kept: names the securebit, at keep"
	is "$(cat "$OUT")" "" "KEEPCAPS locked, capabilities kept: the command did not run"
else
	for i in 1 2 3 4 5 6 7; do skip "setpriv (util-linux) is not installed"; done
fi

# [credentials] supplementary-groups: named, numbered, the primary again
# (set once); the kernel lists Groups sorted.
ADM=$(getent group adm | cut -d: -f3)
status "$T/supp-groups.ini"
status_is 0 "supp-groups: ran"
ids_are supp-groups "$NOBODY $NOBODY $NOBODY $NOBODY" "$NOGROUP $NOGROUP $NOGROUP $NOGROUP" \
	"$(printf '%s\n' "$ADM" 4242 "$NOGROUP" | sort -n | tr '\n' ' ' | sed 's/ $//')"
# init: the user's groups of the group database, against id(1) on the same
# database: a copy of /etc/group that makes nobody a member of two groups,
# mounted over it in a mount namespace of the test's own.
if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
	GF=$TAP_TMP/group
	{
		cat /etc/group
		echo "scmp-test-a:x:4545:daemon,nobody"
		echo "scmp-test-b:x:4546:nobody"
		echo "scmp-test-c:x:4547:daemon"
	} >"$GF"
	chmod 644 "$GF"
	BIND='mount --bind "$0" /etc/group && exec "$@"'
	want=$(unshare -m sh -c "$BIND" "$GF" id -G nobody | tr ' ' '\n' | sort -n |
		tr '\n' ' ' | sed 's/ $//')
	status "$T/supp-init.ini" unshare -m sh -c "$BIND" "$GF"
	status_is 0 "supp-init: ran"
	ids_are supp-init "$NOBODY $NOBODY $NOBODY $NOBODY" "$NOGROUP $NOGROUP $NOGROUP $NOGROUP" \
		"$want"
	like "$OUT" "4545 4546" "supp-init: the memberships of the group database (id -G: $want)"
	# a member of more groups than the kernel takes: refused, not cut short
	{
		cat /etc/group
		awk -v n="$(getconf NGROUPS_MAX)" 'BEGIN { for (i = 0; i <= n; i++)
			printf "scmp-many-%d:x:%d:nobody\n", i, 100000 + i }'
	} >"$GF.many"
	chmod 644 "$GF.many"
	rm -f "$TAP_TMP/ran-many"
	run timeout 20 unshare -m sh -c "$BIND" "$GF.many" \
		"$S" -p "$T/supp-init.ini" touch "$TAP_TMP/ran-many"
	status_is 125 "supp-init, too many groups: 125"
	max=$(getconf NGROUPS_MAX)
	like "$ERR" "user 'nobody' failed: $((max + 2)) groups, the kernel takes at most $max" \
		"supp-init, too many groups: says how many (NGROUPS_MAX and the primary group)"
	[ ! -e "$TAP_TMP/ran-many" ]
	ok $? "supp-init, too many groups: the command did not run"
else
	for i in 1 2 3 4 5 6; do
		skip "unshare -m is not available: no private /etc/group for supplementary-groups = init"
	done
fi

status "$T/nnp-off.ini"
status_is 0 "nnp-off: ran"
sandbox_is nnp-off 0
C=0000000000200000
caps_are nnp-off $C $C $C $C $Z

# Unprivileged caller: no credentials to switch, no bounding set to drop
# (that needs CAP_SETPCAP; with no_new_privs the bounding set cannot add
# anything). The binary and profiles are copied where nobody can read them.
U=$TAP_TMP/u
mkdir -m 755 "$U" && chmod 755 "$TAP_TMP" && cp "$S" "$U/scmp-run" &&
	cp "$T/nobody-ambient.ini" "$U/"
# Unprivileged: the same profiles without the user = root they have for root.
for f in caps-none nnp-off; do
	sed '/^; Run as root by the tests/,$d' "$T/$f.ini" >"$U/$f.ini"
done
mkdir -m 777 "$U/w"
AS_NOBODY="setpriv --reuid=nobody --regid=nogroup --clear-groups"
if ! command -v setpriv >/dev/null; then
	skip "setpriv (util-linux) is not installed: no unprivileged cases"
else
	BND=$(awk '$1 == "CapBnd:" { print $2 }' /proc/self/status)
	S0=$S
	S=$U/scmp-run
	status "$U/caps-none.ini" $AS_NOBODY
	status_is 0 "unprivileged caps-none: ran"
	sandbox_is "unprivileged caps-none" 1
	caps_are "unprivileged caps-none" $Z $Z $Z "$BND" $Z
	ids_are "unprivileged caps-none" "$NOBODY $NOBODY $NOBODY $NOBODY" \
		"$NOGROUP $NOGROUP $NOGROUP $NOGROUP" ""

	run timeout 10 $AS_NOBODY "$S" -p "$U/nobody-ambient.ini" touch "$U/w/ran"
	status_is 125 "unprivileged with [credentials]: 125"
	like "$ERR" "lacks CAP_SETUID" "unprivileged with [credentials]: says why"
	run test -e "$U/w/ran"
	status_is 1 "unprivileged with [credentials]: the command did not run"

	run timeout 10 $AS_NOBODY "$S" -p "$U/nnp-off.ini" touch "$U/w/ran"
	status_is 125 "unprivileged with no-new-privs = no: 125"
	like "$ERR" "CAP_SYS_ADMIN" "unprivileged with no-new-privs = no: says why"
	run test -e "$U/w/ran"
	status_is 1 "unprivileged with no-new-privs = no: the command did not run"

	# Installed set-user-ID root, scmp-run would run anything as root for
	# anyone (--user root, a profile of the caller's own) and write any
	# file (--export-bpf): it refuses to run at all (scmp-run(1) TRUST).
	cp "$S" "$U/scmp-run-suid" && chmod 4755 "$U/scmp-run-suid"
	printf '[filter]\ndefault-action = allow\n' >"$U/w/own.ini"
	chown nobody "$U/w/own.ini"
	chmod 644 "$U/w/own.ini"
	if findmnt -n -o OPTIONS -T "$U" 2>/dev/null | grep -q nosuid; then
		skip "$U is on a nosuid mount: no set-user-ID case"
		skip "$U is on a nosuid mount: no set-user-ID case"
		skip "$U is on a nosuid mount: no set-user-ID case"
		skip "$U is on a nosuid mount: no set-user-ID case"
		skip "$U is on a nosuid mount: no set-user-ID case"
	else
		run timeout 10 $AS_NOBODY "$U/scmp-run-suid" -p "$U/w/own.ini" --user root \
			touch "$U/suid-ran"
		status_is 125 "installed set-user-ID: run mode refused, 125"
		like "$ERR" "set-user-ID" "installed set-user-ID: says why"
		run test -e "$U/suid-ran"
		status_is 1 "installed set-user-ID: the command did not run as root"
		run timeout 10 $AS_NOBODY "$U/scmp-run-suid" -p "$U/w/own.ini" \
			--export-bpf "$U/suid-bpf"
		status_is 1 "installed set-user-ID: --export-bpf refused, 1"
		run test -e "$U/suid-bpf"
		status_is 1 "installed set-user-ID: no file written as root"
	fi
	rm -f "$U/scmp-run-suid"
	S=$S0
fi

# ---- actions as a real program meets them ----

run timeout 10 "$S" -p "$T/errnos.ini" python3 -c '
import os
def e(f, *a):
    try:
        f(*a)
        return "ok"
    except OSError as x:
        return str(x.errno)
print(e(os.mkdir, "/nonexistent-dir-scmp/x"), e(os.uname), e(os.chdir, "/"), e(os.listdir, "/"))'
status_is 0 "errnos: python3 ran"
is "$(cat "$OUT")" "30 133 4095 ok" \
	"errnos: mkdir EROFS, uname EHWPOISON, chdir errno 4095, listdir allowed"
run timeout 10 "$S" -p "$T/errnos.ini" "$HELPER" getppid
is "$(cut -d' ' -f1-2 "$OUT")" "getppid=-1 errno=13" "errnos: getppid errno(eacces) gives EACCES"

run timeout 10 "$S" -p "$T/action-kill-thread.ini" "$HELPER" threads
status_is 0 "kill-thread: the process lives on"
is "$(cat "$OUT")" "main: start
main: joined (0)" "kill-thread: only the thread that called getppid ended"

run timeout 10 "$S" -p "$T/action-kill-process.ini" "$HELPER" threads
status_is 159 "kill-process: the whole process ends with SIGSYS (128+31)"
is "$(cat "$OUT")" "main: start" "kill-process: the main thread did not go on"

run timeout 10 "$S" -p "$T/action-kill-thread.ini" "$HELPER" getppid
status_is 159 "kill-thread in the only thread: the process ends with SIGSYS"

run timeout 10 "$S" -p "$T/action-trap.ini" "$HELPER" trap
status_is 0 "trap: the handler ran"
is "$(cat "$OUT")" "sigsys code=1 syscall=110 data=0 arch=0xc000003e" \
	"trap: SIGSYS with SYS_SECCOMP, getppid's number, data 0, AUDIT_ARCH_X86_64"
run timeout 10 "$S" -p "$T/action-trap42.ini" "$HELPER" trap
is "$(cat "$OUT")" "sigsys code=1 syscall=110 data=42 arch=0xc000003e" "trap(42): si_errno 42"

run timeout 10 "$S" -p "$T/action-log.ini" "$HELPER" getppid
status_is 0 "log: ran"
got=$(cut -d' ' -f1-2 "$OUT")
case $got in
"getppid=-1 "*) ok 1 "log: getppid allowed ($got)" ;;
getppid=*" errno=0") ok 0 "log: getppid allowed" ;;
*) ok 1 "log: getppid allowed ($got)" ;;
esac
pid=$(sed -n 's/.* pid=//p' "$OUT")
run timeout 10 "$S" -p "$T/action-log.ini" --explain getppid
like "$OUT" "getppid (x86_64 110): log" "log: the [log] rule outranks the allow-list"
if ! dmesg >/dev/null 2>&1; then
	skip "log: the kernel log is not readable here"
else
	# SECCOMP_RET_LOG is 0x7ffc0000; the audit record may take a moment.
	# Without auditd the kernel prints audit records rate-limited, so a
	# missing line is a skip, not a failure.
	n=0
	until dmesg | grep -q "pid=$pid .*syscall=110 .*code=0x7ffc0000" || [ $n -ge 20 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	if dmesg | grep -q "pid=$pid .*syscall=110 .*code=0x7ffc0000"; then
		ok 0 "log: the kernel logged getppid of pid $pid with SECCOMP_RET_LOG"
	else
		skip "log: no audit record for pid $pid (printk rate limit)"
	fi
fi
run timeout 10 "$S" -p "$T/action-log-default.ini" "$HELPER" threads
status_is 0 "default-action = log: a threaded program runs"
is "$(cat "$OUT")" "main: start
thread: getppid returned, errno=0
main: joined (0)" "default-action = log: every call ran"

# i386 entry point from a 64-bit program: not an ABI of a native-only filter.
# Some kernels (ia32_emulation=0) and hypervisors never deliver int 0x80 to
# the i386 entry: the process dies of SIGSEGV before any filter is asked.
if [ "$("$HELPER" int80 2>/dev/null)" != "int80 getpid: own pid" ]; then
	for t in "bad-arch errno(EXDEV)" "bad-arch default (status)" "bad-arch default (output)" \
		"bad-arch trap(7)" "architectures = native x86"; do
		skip "$t: int 0x80 does not reach this kernel's i386 entry"
	done
else
	run timeout 10 "$S" -p "$T/badarch-errno.ini" "$HELPER" int80
	is "$(cat "$OUT")" "int80 getpid: errno=18" "bad-arch errno(EXDEV): int 0x80 gets EXDEV"
	run timeout 10 "$S" -p "$T/badarch-default.ini" "$HELPER" int80
	status_is 159 "bad-arch default: int 0x80 kills the process with SIGSYS"
	is "$(cat "$OUT")" "" "bad-arch default: no output after the call (handler bypassed)"
	run timeout 10 "$S" -p "$T/badarch-trap.ini" "$HELPER" int80
	is "$(cat "$OUT")" "sigsys code=1 syscall=20 data=7 arch=0x40000003" \
		"bad-arch trap(7): SIGSYS with AUDIT_ARCH_I386 and data 7"
	run timeout 10 "$S" -p "$T/badarch-with-x86.ini" "$HELPER" int80
	is "$(cat "$OUT")" "int80 getpid: own pid" "architectures = native x86: int 0x80 getpid runs"
fi

# ---- command line and exit statuses ----

run timeout 10 "$S" -p "$T/caps-none.ini" ls -l -d /
status_is 0 "-p P ls -l -d /: ran"
like "$OUT" "drwx" "-p P ls -l: '-l' went to ls"
run timeout 10 "$S" -p "$T/caps-none.ini" echo --help -p x -v --check
is "$(cat "$OUT")" "--help -p x -v --check" "options after the command belong to the command"
run timeout 10 "$S" -p "$T/caps-none.ini" -- echo -- x
is "$(cat "$OUT")" "-- x" "'--' ends scmp-run's options; a later '--' is the command's"
run timeout 10 "$S" -p "$T/caps-none.ini" sh -c 'exit 7'
status_is 7 "sh -c 'exit 7': 7 passes through"
run timeout 10 "$S" -p "$T/caps-none.ini" -- sh -c 'exit 0'
status_is 0 "sh -c 'exit 0': 0"
run timeout 10 "$S" -p "$T/caps-none.ini" sh -c 'kill -TERM $$'
status_is 143 "a command killed by SIGTERM: 128+15 as from the command itself"
run env SCMP_LIVE_VAR=kept timeout 10 "$S" -p "$T/caps-none.ini" sh -c 'echo "$SCMP_LIVE_VAR"'
is "$(cat "$OUT")" "kept" "the environment passes through"
# The parent of the command is timeout(1) itself: scmp-run did not fork.
timeout 10 "$S" -p "$T/caps-none.ini" sh -c 'echo $PPID' >"$TAP_TMP/pid" &
bg=$!
wait $bg
is "$(cat "$TAP_TMP/pid")" "$bg" "the command replaces scmp-run (no fork in between)"
run env SCMP_RUN_PROFILE_PATH="$T" timeout 10 "$S" -p caps-none true
status_is 0 "-p NAME is found on SCMP_RUN_PROFILE_PATH"

printf 'echo should-not-run\n' >"$TAP_TMP/noexec"
chmod 644 "$TAP_TMP/noexec"
run timeout 10 "$S" -p "$T/caps-none.ini" "$TAP_TMP/noexec"
status_is 126 "not executable: 126"
mkdir "$TAP_TMP/dir"
run timeout 10 "$S" -p "$T/caps-none.ini" "$TAP_TMP/dir"
status_is 126 "a directory: 126"
run timeout 10 "$S" -p "$T/caps-none.ini" no-such-command-scmp
status_is 127 "not found on PATH: 127"
like "$ERR" "command not found" "not found: says so"
run timeout 10 "$S" -p "$T/caps-none.ini" /no/such/file
status_is 127 "a path that does not exist: 127"

# execve() fails after the filter is in place: no execvp()-style retry
# through /bin/sh, the script without '#!' does not run.
printf 'echo plain-script-ran\n' >"$TAP_TMP/plain"
chmod 755 "$TAP_TMP/plain"
run timeout 10 "$S" -p "$T/caps-none.ini" "$TAP_TMP/plain"
status_is 126 "ENOEXEC from execve: 126, as env(1)"
unlike "$OUT" "plain-script-ran" "ENOEXEC: not retried through a shell"
like "$ERR" "ENOEXEC" "ENOEXEC: named"
printf '#!/no/such/interpreter\n' >"$TAP_TMP/badinterp"
chmod 755 "$TAP_TMP/badinterp"
run timeout 10 "$S" -p "$T/caps-none.ini" "$TAP_TMP/badinterp"
status_is 127 "missing '#!' interpreter (ENOENT from execve): 127, as env(1)"

# A candidate on PATH that Landlock does not let execute (access(2), which
# the lookup uses, does not see that right): execve() goes on to the next
# candidate, as execvp() would.
mkdir "$TAP_TMP/deny" "$TAP_TMP/allow"
for d in deny allow; do
	printf '#!/bin/sh\necho from-%s\n' "$d" >"$TAP_TMP/$d/tool"
	chmod 755 "$TAP_TMP/$d/tool"
done
printf '[filter]\ndefault-action = allow\n[credentials]\nuser = root\n[landlock]\nread-exec = /usr /lib /lib64? /bin %s\nread = /etc\n' \
	"$TAP_TMP/allow" >"$TAP_TMP/exec-allow.ini"
run env PATH="$TAP_TMP/deny:$TAP_TMP/allow:/usr/bin:/bin" timeout 10 \
	"$S" -p "$TAP_TMP/exec-allow.ini" tool
status_is 0 "a PATH candidate Landlock refuses to execute: the next one runs"
is "$(cat "$OUT")" "from-allow" "a PATH candidate Landlock refuses: the one it allows ran"
run env PATH="$TAP_TMP/deny:/usr/bin:/bin" timeout 10 "$S" -p "$TAP_TMP/exec-allow.ini" tool
status_is 126 "the only PATH candidate refused by Landlock: 126"
like "$ERR" "executing '$TAP_TMP/deny/tool' failed: Permission denied" \
	"the only PATH candidate refused by Landlock: named"

# A stack limit execve() could not start the command under: refused
# before the exec (below), where the kernel would kill the command with
# SIGSEGV and no message. One with room enough runs the command.
for size in 4096 96K; do
	printf '[filter]\ndefault-action = allow\n[credentials]\nuser = root\n[limits]\nstack = %s\n' \
		"$size" >"$TAP_TMP/stack-$size.ini"
done
run timeout 10 "$S" -p "$TAP_TMP/stack-96K.ini" sh -c 'echo ran'
status_is 0 "stack = 96K: the command runs"
is "$(cat "$OUT")" ran "stack = 96K: and prints"

# A file-size limit that scmp-run's own standard error is already past:
# its messages get EFBIG instead of a SIGXFSZ that would kill it, so it
# exits with its own status; the command gets SIGXFSZ as the caller gave
# it (the default, or ignored with reset-signals = no).
printf '[filter]\ndefault-action = allow\n[credentials]\nuser = root\n[limits]\nfile-size = 1K\n' \
	>"$TAP_TMP/fsize.ini"
printf '[process]\nreset-signals = no\n' | cat "$TAP_TMP/fsize.ini" - >"$TAP_TMP/fsize-keep.ini"
BIG=$TAP_TMP/big-stderr
head -c 4096 /dev/zero >"$BIG"
RC=0
timeout 10 "$S" -p "$TAP_TMP/fsize.ini" no-such-command-scmp </dev/null >"$OUT" 2>>"$BIG" || RC=$?
status_is 127 "file-size below the size of its stderr: a missing command is still 127"
RC=0
timeout 10 sh -c 'trap "" XFSZ; exec "$@"' sh "$S" -p "$TAP_TMP/fsize.ini" \
	no-such-command-scmp </dev/null >"$OUT" 2>>"$BIG" || RC=$?
status_is 127 "file-size, SIGXFSZ ignored by the caller and reset: a missing command is 127"
run timeout 10 sh -c 'trap "" XFSZ; exec "$@"' sh "$S" -p "$TAP_TMP/fsize.ini" \
	sh -c 'head -c 2048 /dev/zero >"$0"; echo "$?"' "$TAP_TMP/grow-reset"
is "$(cat "$OUT")" 153 "file-size, SIGXFSZ ignored by the caller and reset: the command gets the default"
printf '[limits]\nfile-size = 1K\n' | cat "$TAP_TMP/exec-allow.ini" - >"$TAP_TMP/fsize-exec.ini"
RC=0
env PATH="$TAP_TMP/deny:/usr/bin:/bin" timeout 10 "$S" -p "$TAP_TMP/fsize-exec.ini" \
	tool </dev/null >"$OUT" 2>>"$BIG" || RC=$?
status_is 126 "file-size, the exec refused after the filter: 126"
# The handler returns through rt_sigreturn: where the filter denies it,
# scmp-run says nothing after the filter rather than crash.
printf '[errno(EPERM)]\nsyscalls = rt_sigreturn\n' | cat "$TAP_TMP/fsize-exec.ini" - \
	>"$TAP_TMP/fsize-nosigreturn.ini"
RC=0
env PATH="$TAP_TMP/deny:/usr/bin:/bin" timeout 10 "$S" -p "$TAP_TMP/fsize-nosigreturn.ini" \
	tool </dev/null >"$OUT" 2>>"$BIG" || RC=$?
status_is 126 "file-size, the exec refused, rt_sigreturn denied: 126"
# The same limit from the caller, the profile setting none.
RC=0
prlimit --fsize=1024 timeout 10 "$S" -p "$TAP_TMP/exec-allow.ini" no-such-command-scmp \
	</dev/null >"$OUT" 2>>"$BIG" || RC=$?
status_is 127 "the caller's file-size limit below its stderr: a missing command is 127"
printf '[errno(EPERM)]\nsyscalls = rt_sigreturn\n' | cat "$TAP_TMP/exec-allow.ini" - \
	>"$TAP_TMP/nosigreturn.ini"
RC=0
env PATH="$TAP_TMP/deny:/usr/bin:/bin" prlimit --fsize=1024 timeout 10 "$S" \
	-p "$TAP_TMP/nosigreturn.ini" tool </dev/null >"$OUT" 2>>"$BIG" || RC=$?
status_is 126 "the caller's file-size limit, the exec refused, rt_sigreturn denied: 126"
run timeout 10 "$S" -p "$TAP_TMP/fsize.ini" sh -c 'head -c 2048 /dev/zero >"$0"' "$TAP_TMP/grow"
status_is 153 "file-size: the command dies of SIGXFSZ at the limit (default disposition)"
run timeout 10 sh -c 'trap "" XFSZ; exec "$@"' sh "$S" -p "$TAP_TMP/fsize-keep.ini" \
	sh -c 'head -c 2048 /dev/zero >"$0"; echo "$?"' "$TAP_TMP/grow"
status_is 0 "file-size, SIGXFSZ ignored by the caller, reset-signals = no: the command lives"
is "$(cat "$OUT")" 1 "file-size, SIGXFSZ ignored and kept: head failed with EFBIG instead"

# ---- nothing runs unsandboxed on any failure: 125, marker never made ----

M=$TAP_TMP/ran
# fails_closed DESCRIPTION MESSAGE PROFILE-ARGS...: 125, MESSAGE on stderr,
# and 'touch M' never ran
fails_closed() {
	_d=$1
	_m=$2
	shift 2
	rm -f "$M"
	run timeout 10 "$S" "$@" touch "$M"
	status_is 125 "$_d: 125"
	like "$ERR" "$_m" "$_d: says why"
	run test -e "$M"
	status_is 1 "$_d: the command did not run"
}

fails_closed "a profile with an error" "unknown syscall 'opn'" -p "$T/broken.ini"
fails_closed "a profile that does not exist" "No such file" -p "$T/no-such-profile.ini"
fails_closed "a profile name that is not found" "not found" -p no-such-profile-scmp
fails_closed "a filter that stops execve" "execve" -p "$T/no-execve.ini"
fails_closed "the notify action" "notify" -p "$T/action-notify.ini"
fails_closed "an unknown user" "unknown user 'no-such-user-scmp'" -p "$T/unknown-user.ini"
fails_closed "a stack limit too small to start the command" \
	"stack-4096.ini:6: error: stack = 4096 is too small to start the command: execve() needs" \
	-p "$TAP_TMP/stack-4096.ini"
fails_closed "an unknown supplementary group" "unknown group 'no-such-group-scmp'" \
	-p "$T/supp-unknown.ini"
fails_closed "supplementary-groups without a user" "supplementary-groups needs [credentials] user" \
	-p "$T/supp-no-user.ini"
fails_closed "supplementary-groups = init for a uid without a passwd entry" \
	"supplementary-groups = init needs a user with a passwd entry" -p "$T/supp-init-numeric.ini"
# setgroups(2) faked by an outer filter: the groups read back differ
fails_closed "supplementary groups not set, read back" "the ids read back differ" \
	-p "$T/fake-setgroups.ini" "$S" -p "$T/supp-groups.ini"
fails_closed "the primary group alone not set, read back" "the ids read back differ" \
	-p "$T/fake-setgroups.ini" "$S" -p "$T/nobody-ambient.ini"
fails_closed "no-new-privs = no without CAP_SYS_ADMIN" \
	"nnp-off-nocap.ini:6: error: no-new-privs = no needs CAP_SYS_ADMIN in [capabilities] keep" \
	-p "$T/nnp-off-nocap.ini"
# --check rejects it too: the profile, not this machine, decides it.
run "$S" -p "$T/nnp-off-nocap.ini" --check
status_is 1 "no-new-privs = no without CAP_SYS_ADMIN: --check rejects it"
like "$ERR" "nnp-off-nocap.ini:6: error: run mode refuses this profile: no-new-privs = no needs CAP_SYS_ADMIN" \
	"no-new-privs = no without CAP_SYS_ADMIN: --check says why, at the key"
run "$S" -p "$T/nnp-off.ini" --check
status_is 0 "no-new-privs = no with CAP_SYS_ADMIN kept: --check takes it"
fails_closed "no profile" "no profile" --
fails_closed "an unknown option" "unknown option '--no-such-option'" --no-such-option -p "$T/caps-none.ini"
fails_closed "--target-arch in run mode" "target-arch" --target-arch x86_64 -p "$T/caps-none.ini"
rm -f "$M"
run timeout 10 "$S" -p "$T/caps-none.ini"
status_is 125 "no command: 125"

# A /proc of another pid namespace: the read-back cannot tell the filter
# is loaded; nothing runs, and the hint names that cause first.
if unshare -p -f true 2>/dev/null; then
	rm -f "$M"
	run timeout 10 unshare -p -f "$S" -p "$T/caps-none.ini" touch "$M"
	status_is 125 "a /proc of another pid namespace: 125"
	like "$ERR" "hint: the /proc mounted here may belong to another pid namespace" \
		"a /proc of another pid namespace: the hint says so"
	[ ! -e "$M" ]
	ok $? "a /proc of another pid namespace: the command did not run"
else
	for i in 1 2 3; do skip "unshare --pid is refused here"; done
fi

# The filter is in place before the command's first instruction: a denied
# call made by the first program is refused, and its status says Seccomp 2
# (checked above for every profile).
run timeout 10 "$S" -p "$T/errnos.ini" "$HELPER" getppid
like "$OUT" "errno=13" "the first program exec'd is already filtered"

done_testing
