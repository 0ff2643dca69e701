# SPDX-License-Identifier: LGPL-2.1-or-later
# The escapes found by attacking the sample profiles and the run-mode
# defaults, each tried again as the attacker did, live; each must fail now.
# Where the fix is in a sample profile, the same attack first succeeds under
# the profile as it was before (the fixed lines removed), so the case shows
# what the fix changed.
#
# Covered elsewhere, not repeated here:
#  - TIOCSTI into the caller's terminal (a pty from script(1)) under every
#    sample profile: tests/runner/live-profiles.sh, "tty-injection";
#  - clone(CLONE_NEWUSER|SIGCHLD with bit 32) against a '==' deny rule, in
#    the kernel: tests/engine/test-live.c;
#  - descriptors, ignored signals, the signal mask and root's HOME/USER
#    across a user switch: tests/runner/live-caller.sh; [environment]
#    clear = yes (SSH_AUTH_SOCK gone): tests/cli/test-run.sh;
#  - an include of a FIFO (refused at once, 1 and 125), an include through
#    a symlink (resolved at the real path), a 1 MiB user-group chain under
#    ulimit -s 2048 with --check, control characters, C1 controls and bidi
#    overrides escaped in errors and --check, a planted file in the current
#    directory for -p NAME as an unprivileged user, writable profiles,
#    includes and search directories under root:
#    tests/cli/test-profile-files.sh and tests/unit/test-diag.c;
#  - root without [credentials] refused with the hint (run and --check):
#    tests/runner/live-caller.sh, tests/cli/test-run.sh.
# Usage: live-escapes.sh LIVE-HELPER (environment: SCMP_RUN, SRCDIR).

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP the escapes are tried as root and as an unprivileged user: needs root"
	exit 0
fi
. "$SRCDIR/tests/tap.sh"

HELPER=${1:?usage: live-escapes.sh LIVE-HELPER}
S=$SCMP_RUN
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
LC_ALL=C
export LC_ALL

# Copies everyone may read, owned by root (trust checks under root):
# samples/ the sample profiles as they are; new/NAME.ini and old/NAME.ini
# add [credentials] user = root (the tests run as root on purpose) to the
# sample as it is and as it was before the fix.
chmod 755 "$TAP_TMP"
mkdir -m 755 "$TAP_TMP/samples" "$TAP_TMP/new" "$TAP_TMP/old" "$TAP_TMP/files"
cp "$SRCDIR"/profiles/*.ini "$TAP_TMP/samples/"
chmod 644 "$TAP_TMP"/samples/*.ini
ROOT='
[credentials]
user = root
'
# variant NAME SED-SCRIPT [EXTRA]: new/NAME.ini and old/NAME.ini (the
# sample with SED-SCRIPT applied), both with EXTRA and user = root
variant() {
	{ cat "$TAP_TMP/samples/$1.ini"; printf '%s\n%s' "${3:-}" "$ROOT"; } >"$TAP_TMP/new/$1.ini"
	{ sed "$2" "$TAP_TMP/samples/$1.ini"; printf '%s\n%s' "${3:-}" "$ROOT"; } >"$TAP_TMP/old/$1.ini"
	cmp -s "$TAP_TMP/new/$1.ini" "$TAP_TMP/old/$1.ini" && ok 1 "$1: the sed script changed nothing"
}
# pyerr EXPR: a python3 program printing "ok" or the errno name EXPR fails with
pyerr() {
	printf 'import errno, os, resource, socket, sys\ntry:\n    %s\n    print("ok")\nexcept OSError as e:\n    print(errno.errorcode[e.errno])\n' "$1"
}

# ---- -p NAME never reads a file planted in the current directory ----
# As root: the planted profile allows everything, keeps root's
# capabilities and turns no-new-privs off. The real untrusted-tool (found
# on the search path, with user = root added) makes socket() fail.
mkdir -m 755 "$TAP_TMP/evil" "$TAP_TMP/byname"
printf '[profile]\ninclude = %s\n%s' "$TAP_TMP/samples/untrusted-tool.ini" "$ROOT" \
	>"$TAP_TMP/byname/untrusted-tool.ini"
printf '[filter]\ndefault-action = allow\nno-new-privs = no\n[capabilities]\nkeep = CAP_SYS_ADMIN CAP_NET_RAW\n%s' \
	"$ROOT" >"$TAP_TMP/evil/untrusted-tool.ini"
cp "$TAP_TMP/evil/untrusted-tool.ini" "$TAP_TMP/evil/untrusted-tool"
SOCK=$(pyerr 'socket.socket(socket.AF_INET).close()')
RC=0
(cd "$TAP_TMP/evil" && SCMP_RUN_PROFILE_PATH="$TAP_TMP/byname" \
	timeout 20 "$S" -p untrusted-tool -- python3 -c "$SOCK") >"$OUT" 2>"$ERR" || RC=$?
status_is 0 "planted profile: -p untrusted-tool in its directory, as root: the command ran"
is "$(cat "$OUT")" "EPERM" "planted profile: the real untrusted-tool decided (socket fails with EPERM)"
RC=0
(cd "$TAP_TMP/evil" && SCMP_RUN_PROFILE_PATH="$TAP_TMP/byname" \
	timeout 20 "$S" -p untrusted-tool --check) >"$OUT" 2>"$ERR" || RC=$?
like "$OUT" "profile: $TAP_TMP/byname/untrusted-tool.ini" "planted profile: --check names the file on the search path"
# Without the search path, as root: the installed or /etc directory, never
# the planted file (found nowhere else: an error, 125)
RC=0
(cd "$TAP_TMP/evil" && SCMP_RUN_PROFILE_PATH=/nonexistent \
	timeout 20 "$S" -p untrusted-tool -- python3 -c "$SOCK") >"$OUT" 2>"$ERR" || RC=$?
unlike "$OUT" "ok" "planted profile: not found on the search path, the planted file is not used"

# ---- root without [credentials]: refused, nothing written ----
RC=0
SCMP_RUN_PROFILE_PATH="$TAP_TMP/samples" timeout 20 "$S" -p no-network -- \
	sh -c "echo owned >/etc/scmp-run-escape-$$" >"$OUT" 2>"$ERR" || RC=$?
status_is 125 "root, no-network without [credentials]: refused with 125"
like "$ERR" "hint: running as root: add [credentials] user = ..., or user = root to keep root" \
	"root, no-network without [credentials]: the hint"
run test -e "/etc/scmp-run-escape-$$"
status_is 1 "root, no-network without [credentials]: nothing written to /etc"
rm -f "/etc/scmp-run-escape-$$"

# ---- net-daemon: io_uring's IORING_OP_SOCKET around the family rule ----
variant net-daemon '/^ *io_uring_setup io_uring_enter io_uring_register$/d'
run "$S" -p "$TAP_TMP/samples/net-daemon.ini" --explain io_uring_setup
like "$OUT" "io_uring_setup (x86_64 425): errno(EPERM)" "net-daemon: --explain io_uring_setup: errno(EPERM)"
line=$(grep -n '^ *io_uring_setup io_uring_enter io_uring_register$' "$TAP_TMP/samples/net-daemon.ini" | cut -d: -f1)
like "$OUT" "rule: $TAP_TMP/samples/net-daemon.ini:$line" "net-daemon: decided by its io_uring line"
run "$S" -p "$TAP_TMP/samples/net-daemon.ini" --explain io_uring_enter
like "$OUT" "errno(EPERM)" "net-daemon: --explain io_uring_enter: errno(EPERM)"
run "$S" -p "$TAP_TMP/samples/net-daemon.ini" --explain io_uring_register
like "$OUT" "errno(EPERM)" "net-daemon: --explain io_uring_register: errno(EPERM)"
disabled=$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)
run timeout 20 "$S" -p "$TAP_TMP/old/net-daemon.ini" "$HELPER" uring-socket
if [ "$disabled" = 0 ]; then
	is "$(cat "$OUT")" "uring socket: netlink" \
		"net-daemon before the fix: IORING_OP_SOCKET made an AF_NETLINK socket"
else
	# the sysctl stops io_uring_setup itself: the filter must still be
	# what answers, with EPERM (checked below), whatever the sysctl says
	diag "kernel.io_uring_disabled = $disabled: io_uring_setup fails without a filter"
	skip "net-daemon before the fix: io_uring is disabled by kernel.io_uring_disabled"
fi
run timeout 20 "$S" -p "$TAP_TMP/new/net-daemon.ini" "$HELPER" uring-socket
is "$(cat "$OUT")" "io_uring_setup: EPERM" "net-daemon: io_uring_setup fails with EPERM, no socket"
run timeout 20 "$S" --report -p "$TAP_TMP/new/net-daemon.ini" "$HELPER" uring-socket
like "$ERR" "io_uring_setup(" "net-daemon: the filter denied io_uring_setup (--report)"
like "$ERR" "errno(EPERM) [x86_64 425]" "net-daemon: ... with errno(EPERM)"

# ---- net-daemon: AF_INET's SOCK_PACKET around the family rule ----
# The kernel makes an AF_PACKET socket of socket(AF_INET, SOCK_PACKET): a
# service that includes net-daemon and keeps CAP_NET_RAW (for ICMP) got a
# socket of a family the profile refuses, which reads every frame.
variant net-daemon '/type & 0xf == SOCK_PACKET$/d' '[capabilities]
keep = CAP_NET_RAW'
PKT=$(pyerr 's = socket.socket(socket.AF_INET, 10, socket.htons(3)); print(s.getsockopt(socket.SOL_SOCKET, socket.SO_DOMAIN))')
run timeout 20 "$S" -p "$TAP_TMP/old/net-daemon.ini" python3 -c "$PKT"
is "$(cat "$OUT" | tr '\n' ' ')" "17 ok " \
	"net-daemon before the fix, CAP_NET_RAW kept: SOCK_PACKET made an AF_PACKET (17) socket"
run timeout 20 "$S" -p "$TAP_TMP/new/net-daemon.ini" python3 -c "$PKT"
is "$(cat "$OUT")" "EAFNOSUPPORT" "net-daemon, CAP_NET_RAW kept: SOCK_PACKET fails with EAFNOSUPPORT"
run timeout 20 "$S" -p "$TAP_TMP/new/net-daemon.ini" python3 -c \
	"$(pyerr 'socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP).close()')"
is "$(cat "$OUT")" "ok" "net-daemon, CAP_NET_RAW kept: a raw ICMP socket still works"

# ---- minimal: openat(O_RDONLY|O_TRUNC) truncated files ----
variant minimal 's/^openat = .*/openat = flags \& O_ACCMODE == O_RDONLY/'
echo "precious" >"$TAP_TMP/files/victim"
run timeout 20 "$S" -p "$TAP_TMP/old/minimal.ini" "$HELPER" open-trunc "$TAP_TMP/files/victim"
is "$(cat "$OUT") $(stat -c %s "$TAP_TMP/files/victim")" "open-trunc: opened 0" \
	"minimal before the fix: O_RDONLY|O_TRUNC truncated the file"
echo "precious" >"$TAP_TMP/files/victim"
run timeout 20 "$S" -p "$TAP_TMP/new/minimal.ini" "$HELPER" open-trunc "$TAP_TMP/files/victim"
status_is 159 "minimal: openat(O_RDONLY|O_TRUNC) is killed (159)"
is "$(cat "$TAP_TMP/files/victim")" "precious" "minimal: the file keeps its content"
for f in O_WRONLY O_RDWR O_CREAT O_TRUNC; do
	run "$S" -p "$TAP_TMP/samples/minimal.ini" --explain openat AT_FDCWD 0 "$f"
	like "$OUT" "kill-process" "minimal: --explain openat $f: kill-process"
done
run "$S" -p "$TAP_TMP/samples/minimal.ini" --explain openat AT_FDCWD 0 O_CLOEXEC
like "$OUT" "allow" "minimal: --explain openat O_RDONLY|O_CLOEXEC: allow"

# ---- prlimit64 on another process ----
# The Landlock domain does not stop prlimit64 on a process outside it
# (scmp-run.ini(5) SECURITY MODEL): the rule does, with the domain or
# without it (mode = off).
sleep 60 &
victim=$!
PRL="resource.prlimit($victim, resource.RLIMIT_CORE, (0, 0))"
for p in net-daemon system-service no-network untrusted-tool; do
	variant "$p" '/^prlimit64 = pid != 0$/d' '[landlock]
mode = off'
	run timeout 20 "$S" -p "$TAP_TMP/old/$p.ini" python3 -c "$(pyerr "$PRL")"
	is "$(cat "$OUT")" "ok" "$p before the fix (no Landlock): prlimit64 on another process works"
	run timeout 20 "$S" -p "$TAP_TMP/new/$p.ini" python3 -c "$(pyerr "$PRL")"
	is "$(cat "$OUT")" "EPERM" "$p (no Landlock): prlimit64 on another process fails with EPERM"
	run timeout 20 "$S" -p "$TAP_TMP/new/$p.ini" python3 -c \
		"$(pyerr 'resource.setrlimit(resource.RLIMIT_CORE, resource.getrlimit(resource.RLIMIT_CORE))')"
	is "$(cat "$OUT")" "ok" "$p: its own limits still work"
done
kill "$victim" 2>/dev/null
wait "$victim" 2>/dev/null
run "$S" -p "$TAP_TMP/samples/minimal.ini" --explain prlimit64 1
like "$OUT" "kill-process" "minimal: --explain prlimit64 on pid 1: kill-process"
run "$S" -p "$TAP_TMP/samples/minimal.ini" --explain prlimit64 0
like "$OUT" "allow" "minimal: --explain prlimit64 on pid 0: allow"

# ---- no-network: perf_event_open on another process ----
# The profile denies ptrace-like access to other processes by its rules,
# not only through Landlock, which may be missing: perf_event_open on
# another process of the user (sampling its registers and stack) worked
# with the domain off. The victim runs without capabilities, as the
# sandbox does (a root process with them is out of reach anyway).
variant no-network '/^perf_event_open = pid != 0$/d' '[landlock]
mode = off'
PERF='import ctypes, errno, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
# struct perf_event_attr (PERF_ATTR_SIZE_VER0): a software task clock,
# exclude_kernel and exclude_hv
attr = ctypes.create_string_buffer(struct.pack("IIQQQQQ", 1, 64, 1, 0, 0, 0, 0x60), 64)
fd = libc.syscall(ctypes.c_long(298), attr, ctypes.c_int(int(sys.argv[1])), ctypes.c_int(-1),
                  ctypes.c_int(-1), ctypes.c_ulong(0))
print("opened" if fd >= 0 else errno.errorcode[ctypes.get_errno()])'
"$S" -p "$TAP_TMP/new/no-network.ini" sleep 60 &
victim=$!
sleep 0.5
if [ "$(uname -m)" != x86_64 ]; then
	skip "no-network, perf_event_open: an x86_64 case (its number)"
else
	run timeout 20 "$S" -p "$TAP_TMP/old/no-network.ini" python3 -c "$PERF" "$victim"
	if [ "$(cat "$OUT")" != opened ]; then
		skip "no-network before the fix: perf_event_open is refused here anyway ($(cat "$OUT"))"
	else
		ok 0 "no-network before the fix (no Landlock): perf_event_open on another process worked"
	fi
	run timeout 20 "$S" -p "$TAP_TMP/new/no-network.ini" python3 -c "$PERF" "$victim"
	is "$(cat "$OUT")" "EPERM" "no-network (no Landlock): perf_event_open on another process: EPERM"
	run timeout 20 "$S" -p "$TAP_TMP/new/no-network.ini" python3 -c "$PERF" 0
	is "$(cat "$OUT")" "opened" "no-network: perf_event_open on itself still works"
fi
kill "$victim" 2>/dev/null
wait "$victim" 2>/dev/null
for c in "perf_event_open 0 -1" "get_robust_list 1" "kcmp 0 0"; do
	# shellcheck disable=SC2086 # the call and its arguments, split on purpose
	run "$S" -p "$TAP_TMP/samples/no-network.ini" --explain $c
	like "$OUT" "errno(EPERM)" "no-network: --explain $c: errno(EPERM)"
done
run "$S" -p "$TAP_TMP/samples/no-network.ini" --explain get_robust_list 0
like "$OUT" "allow" "no-network: --explain get_robust_list 0: allow"

# ---- set-user-ID files left behind ----
# no-network and untrusted-tool deny the bits with rules of their own;
# net-daemon and system-service with restrict-suid-sgid, which saw chmod
# only at first: open(O_CREAT) with 06755 made a set-id file all the same
# (the umask holds permission bits only).
for p in no-network untrusted-tool net-daemon system-service; do
	case $p in
	no-network | untrusted-tool) variant "$p" '/S_ISUID == S_ISUID/d' ;;
	*) variant "$p" 's/^restrict-suid-sgid = yes$/restrict-suid-sgid = no/' ;;
	esac
	for v in old new; do
		d=$TAP_TMP/files/$p-$v
		mkdir -m 755 "$d"
		cp /bin/true "$d/tool"
		RC=0
		(cd "$d" && timeout 20 "$S" -p "$TAP_TMP/$v/$p.ini" python3 -c \
			"$(pyerr 'os.chmod("tool", 0o4755)')") >"$OUT" 2>"$ERR" || RC=$?
		cp "$OUT" "$d.chmod"
		RC=0
		(cd "$d" && timeout 20 "$S" -p "$TAP_TMP/$v/$p.ini" python3 -c \
			"$(pyerr 'os.close(os.open("made", os.O_CREAT | os.O_WRONLY, 0o6755))')") \
			>"$OUT" 2>"$ERR" || RC=$?
		cp "$OUT" "$d.creat"
	done
	d=$TAP_TMP/files/$p
	is "$(cat "$d-old.chmod") $(stat -c %a "$d-old/tool")" "ok 4755" \
		"$p before the fix: chmod u+s worked"
	is "$(cat "$d-new.chmod") $(stat -c %a "$d-new/tool")" "EPERM 755" \
		"$p: chmod u+s fails with EPERM, the mode is unchanged"
	is "$(cat "$d-old.creat") $(stat -c %a "$d-old/made")" "ok 6755" \
		"$p before the fix: open(O_CREAT, 06755) made a set-id file"
	is "$(cat "$d-new.creat") $(test -e "$d-new/made" && echo made)" "EPERM " \
		"$p: open(O_CREAT, 06755) fails with EPERM, nothing made"
	(cd "$d-new" && timeout 20 "$S" -p "$TAP_TMP/new/$p.ini" python3 -c \
		"$(pyerr 'os.chmod("tool", 0o700)')") >"$OUT" 2>"$ERR"
	is "$(cat "$OUT") $(stat -c %a "$d-new/tool")" "ok 700" "$p: chmod without set-id bits works"
done

# ---- untrusted-tool: a program written into a memfd, executed ----
# Only files under read-exec may be executed, says the profile; a
# memfd_create() file has no path for Landlock to check, and execve() of
# /proc/self/fd/N ran whatever the tool wrote into it. Now memfd_create
# needs MFD_NOEXEC_SEAL (8), which leaves the file without execute bits
# for good.
variant untrusted-tool 's/^memfd_create = .*$//; s/^    pipe pipe2 madvise mremap$/    pipe pipe2 memfd_create madvise mremap/'
MEMFD='import errno, os, sys
try:
    fd = os.memfd_create("tool", int(sys.argv[1]))
except OSError as e:
    sys.exit(print("memfd_create:", errno.errorcode[e.errno]))
os.write(fd, open("/bin/echo", "rb").read())
try:
    os.execv("/proc/self/fd/%d" % fd, ["tool", "memfd: executed"])
except OSError as e:
    print("execv:", errno.errorcode[e.errno])'
for v in old new; do
	for flags in 1 9; do
		RC=0
		(cd "$TAP_TMP/files" && timeout 20 "$S" -p "$TAP_TMP/$v/untrusted-tool.ini" \
			python3 -c "$MEMFD" $flags) >"$OUT" 2>"$ERR" || RC=$?
		cp "$OUT" "$TAP_TMP/files/memfd-$v-$flags"
	done
done
is "$(cat "$TAP_TMP/files/memfd-old-1")" "memfd: executed" \
	"untrusted-tool before the fix: a program in a memfd was executed"
is "$(cat "$TAP_TMP/files/memfd-new-1")" "memfd_create: EPERM" \
	"untrusted-tool: memfd_create without MFD_NOEXEC_SEAL fails with EPERM"
is "$(cat "$TAP_TMP/files/memfd-new-9")" "execv: EACCES" \
	"untrusted-tool: a memfd made with MFD_NOEXEC_SEAL cannot be executed"
run "$S" -p "$TAP_TMP/samples/untrusted-tool.ini" --explain memfd_create 0 MFD_CLOEXEC
like "$OUT" "errno(EPERM)" "untrusted-tool: --explain memfd_create MFD_CLOEXEC: errno(EPERM)"
run "$S" -p "$TAP_TMP/samples/untrusted-tool.ini" --explain memfd_create 0 MFD_NOEXEC_SEAL
like "$OUT" "allow" "untrusted-tool: --explain memfd_create MFD_NOEXEC_SEAL: allow"

# ---- no-network: a user namespace, and every capability in it ----
# The profile denied sockets and ptrace but let the program create a user
# namespace (scmp-run.ini(5) SECURITY MODEL). Now unshare(CLONE_NEWUSER)
# and clone(CLONE_NEWUSER) fail with EPERM; other processes still start.
variant no-network '/^restrict-namespaces = ~user$/d'
if [ "$(unshare -U true 2>&1 && echo ok)" != ok ]; then
	skip "no-network before the fix: this kernel refuses user namespaces anyway"
else
	run timeout 20 "$S" -p "$TAP_TMP/old/no-network.ini" unshare -U true
	status_is 0 "no-network before the fix: unshare -U made a user namespace"
fi
run timeout 20 "$S" -p "$TAP_TMP/new/no-network.ini" unshare -U true
like "$ERR" "Operation not permitted" "no-network: unshare -U fails with EPERM"
run timeout 20 "$S" -p "$TAP_TMP/new/no-network.ini" python3 -c 'import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
print("ok" if libc.unshare(0x10000000) == 0 else errno.errorcode[ctypes.get_errno()])'
is "$(cat "$OUT")" "EPERM" "no-network: unshare(CLONE_NEWUSER) fails with EPERM"
run timeout 20 "$S" -p "$TAP_TMP/new/no-network.ini" sh -c 'echo a | sort | wc -l'
is "$(cat "$OUT")" "1" "no-network: a pipeline still forks (clone without CLONE_NEWUSER)"
run "$S" -p "$TAP_TMP/samples/no-network.ini" --explain clone CLONE_NEWUSER
like "$OUT" "errno(EPERM)" "no-network: --explain clone CLONE_NEWUSER: errno(EPERM)"

# ---- system-service: socket families beyond a service's ----
# @system-service allows socket() of any family: AF_VSOCK reached the
# hypervisor's services from a guest, and AF_ALG, AF_TIPC, AF_RDS and the
# rest the kernel code behind them. restrict-address-families keeps
# AF_UNIX, AF_INET, AF_INET6 and AF_NETLINK; the others get EAFNOSUPPORT.
variant system-service '/^restrict-address-families = /d'
VSOCK=$(pyerr 'socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM).close()')
if [ "$(python3 -c "$VSOCK")" != ok ]; then
	skip "system-service before the fix: no AF_VSOCK in this kernel"
else
	run timeout 20 "$S" -p "$TAP_TMP/old/system-service.ini" python3 -c "$VSOCK"
	is "$(cat "$OUT")" "ok" "system-service before the fix: socket(AF_VSOCK) worked"
fi
run timeout 20 "$S" -p "$TAP_TMP/new/system-service.ini" python3 -c "$VSOCK"
is "$(cat "$OUT")" "EAFNOSUPPORT" "system-service: socket(AF_VSOCK) fails with EAFNOSUPPORT"
for fam in AF_UNIX AF_INET AF_INET6 AF_NETLINK; do
	run timeout 20 "$S" -p "$TAP_TMP/new/system-service.ini" python3 -c \
		"$(pyerr "socket.socket(socket.$fam, socket.SOCK_DGRAM).close()")"
	is "$(cat "$OUT")" "ok" "system-service: socket($fam) still works"
done
run timeout 20 "$S" -p "$TAP_TMP/new/system-service.ini" python3 -c \
	'import socket; print(len(socket.if_nameindex()) > 0)'
is "$(cat "$OUT")" "True" "system-service: the interfaces are listed (netlink)"

# ---- untrusted-tool: the mount table through listmount() ----
# Landlock denies /proc/self/mountinfo, but @file-system allowed
# listmount() and statmount(), which list every mount and its mount point
# (Linux 6.8). Now both get ENOSYS, as from an older kernel.
variant untrusted-tool '/^    listmount statmount$/d'
LISTMOUNT='import ctypes, errno, struct
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
req = ctypes.create_string_buffer(struct.pack("IIQQ", 24, 0, 2**64 - 1, 0))
ids = (ctypes.c_uint64 * 256)()
n = libc.syscall(ctypes.c_long(458), req, ids, ctypes.c_ulong(256), ctypes.c_uint(0))
print("listed" if n > 0 else errno.errorcode[ctypes.get_errno()])'
if [ "$(python3 -c "$LISTMOUNT")" != listed ]; then
	skip "untrusted-tool before the fix: listmount() does not list here (Linux < 6.8?)"
else
	(cd "$TAP_TMP/files" && run timeout 20 "$S" -p "$TAP_TMP/old/untrusted-tool.ini" \
		python3 -c "$LISTMOUNT")
	is "$(cat "$OUT")" "listed" "untrusted-tool before the fix: listmount() listed the mounts"
fi
(cd "$TAP_TMP/files" && run timeout 20 "$S" -p "$TAP_TMP/new/untrusted-tool.ini" \
	python3 -c "$LISTMOUNT")
is "$(cat "$OUT")" "ENOSYS" "untrusted-tool: listmount() fails with ENOSYS"
for c in listmount statmount; do
	run "$S" -p "$TAP_TMP/samples/untrusted-tool.ini" --explain $c
	like "$OUT" "errno(ENOSYS)" "untrusted-tool: --explain $c: errno(ENOSYS)"
done

# ---- a 1 MiB user-group chain in run mode: 125, not SIGSEGV ----
awk 'BEGIN {
	print "[filter]\ndefault-action = allow\n[credentials]\nuser = root\n[groups]"
	for (i = 1; size < 1048000; i++) {
		line = sprintf("@g%d = @g%d", i, i + 1)
		print line
		size += length(line) + 1
	}
	printf "@g%d = read\n[allow]\nsyscalls = @g1\n", i
}' >"$TAP_TMP/files/chain.ini"
run sh -c 'ulimit -S -s 2048 && exec timeout 20 "$0" "$@"' "$S" -p "$TAP_TMP/files/chain.ini" \
	-- sh -c 'echo ran'
status_is 125 "a 1 MiB group chain under ulimit -s 2048, run mode: 125, not a crash"
like "$ERR" "chain.ini:" "a 1 MiB group chain, run mode: a located error"
is "$(cat "$OUT")" "" "a 1 MiB group chain, run mode: the command did not run"

# ---- an action the kernel lacks: 125 naming it ----
# An outer filter answers SECCOMP_GET_ACTION_AVAIL (op 2) with EOPNOTSUPP,
# as a kernel without the action does; loading filters still works, and
# the inner scmp-run keeps what it needs to switch to root and drop. The
# first action checked is bad-arch-action's kill-process.
printf '[filter]\ndefault-action = allow\n[errno(EOPNOTSUPP)]\nseccomp = op == 2\n[capabilities]\nkeep = CAP_SETUID CAP_SETGID CAP_SETPCAP\n%s' "$ROOT" \
	>"$TAP_TMP/files/no-avail.ini"
run timeout 20 "$S" -p "$TAP_TMP/files/no-avail.ini" -- \
	"$S" -p "$SRCDIR/tests/runner/profiles/caps-none.ini" -- sh -c 'echo ran'
status_is 125 "an action the kernel lacks: 125"
like "$ERR" "error: the kernel does not support the seccomp action 'kill-process' (it needs Linux 4.14 or later)" \
	"an action the kernel lacks: named, with the kernel that has it"
is "$(cat "$OUT")" "" "an action the kernel lacks: the command did not run"
run timeout 20 "$S" -p "$TAP_TMP/files/no-avail.ini" -- sh -c 'echo ran'
is "$(cat "$OUT")" "ran" "control: the outer filter alone lets a command run"

# ---- clone3 past a condition on clone, with x86's clone3 named ----
# Naming clone3 of one ABI by number (x86/435) took the built-in clone3
# rule away from every ABI (scmp-run.ini(5) BUILT-IN RULES): on x86_64,
# clone3(CLONE_NEWUSER) made the user namespace that clone() was refused.
if [ "$(uname -m)" != x86_64 ]; then
	skip "clone3 with x86's clone3 named: an x86_64 case"
elif [ "$("$HELPER" clone3-newuser)" != "clone3: new user namespace" ]; then
	skip "clone3 with x86's clone3 named: this kernel refuses user namespaces anyway"
else
	printf '[filter]\ndefault-action = allow\narchitectures = native x86\n[errno(EPERM)]\nclone = flags & CLONE_NEWUSER != 0\n[allow]\nsyscalls = x86/435\n%s' \
		"$ROOT" >"$TAP_TMP/files/clone3-x86.ini"
	run timeout 20 "$S" -p "$TAP_TMP/files/clone3-x86.ini" -- "$HELPER" clone3-newuser
	is "$(cat "$OUT")" "clone3: ENOSYS" \
		"clone3 with x86's clone3 named: x86_64's clone3(CLONE_NEWUSER) gets ENOSYS"
fi

done_testing
