# SPDX-License-Identifier: LGPL-2.1-or-later
# Real programs under every sample profile in profiles/: coreutils
# pipelines, python3 with imports, tar, a loopback TCP server and client, and in
# each profile one forbidden operation failing the way the profile says;
# TIOCSTI on the controlling terminal refused under every one of them.
# Usage: live-profiles.sh LIVE-TCP-SCRIPT LIVE-HELPER (environment: SCMP_RUN,
# SRCDIR).

# $tool below is split into words on purpose; RC is read by status_is.
# shellcheck disable=SC2086,SC2034
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP run mode live tests need root (credentials, capabilities)"
	exit 0
fi
. "$SRCDIR/tests/tap.sh"

TCP=${1:?usage: live-profiles.sh LIVE-TCP-SCRIPT LIVE-HELPER}
HELPER=${2:?usage: live-profiles.sh LIVE-TCP-SCRIPT LIVE-HELPER}
S=$SCMP_RUN
P=$(sample_profiles) # as root: each sample plus user = root
CTL=$SRCDIR/tests/runner/profiles/caps-none.ini # control: allow all, no caps
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
LC_ALL=C
export LC_ALL

PIPE='printf "b\na\nb\n" | sort | uniq -c | wc -l; ls / | wc -l; echo abc | sha256sum | tr a-f A-F'
PYIMP='import json, os, re, hashlib
d = {"pid": os.getpid() > 0, "m": re.sub("a", "b", "aa"), "cwd": os.getcwd()}
print(hashlib.sha256(json.dumps(d, sort_keys=True).encode()).hexdigest()[:16])'
# pyerr EXPR: print the errno name EXPR fails with, or "ok"
pyerr() {
	printf 'import errno, os, socket, subprocess\ntry:\n    %s\n    print("ok")\nexcept OSError as e:\n    print(errno.errorcode[e.errno])\n' "$1"
}

# The expected outputs come from the same programs, unsandboxed.
want_pipe=$(sh -c "$PIPE")
want_py=$(python3 -c "$PYIMP")

# works PROFILE: the pipeline and python3 give the unsandboxed results
works() {
	run timeout 20 "$S" -p "$P/$1.ini" sh -c "$PIPE"
	status_is 0 "$1: sh -c pipeline of coreutils: exit 0"
	is "$(cat "$OUT")" "$want_pipe" "$1: sh -c pipeline of coreutils: same output"
	run timeout 20 "$S" -p "$P/$1.ini" python3 -c "$PYIMP"
	status_is 0 "$1: python3 -c with imports: exit 0"
	is "$(cat "$OUT")" "$want_py" "$1: python3 -c with imports: same output"
}

# fails_as PROFILE WHAT PYTHON-STATEMENT ERRNO: unsandboxed (control
# profile) the statement succeeds; under PROFILE it fails with ERRNO
fails_as() {
	run timeout 20 "$S" -p "$CTL" python3 -c "$(pyerr "$3")"
	is "$(cat "$OUT")" "ok" "$1: $2 works without the profile"
	run timeout 20 "$S" -p "$P/$1.ini" python3 -c "$(pyerr "$3")"
	is "$(cat "$OUT")" "$4" "$1: $2 fails with $4"
}

for p in minimal net-daemon system-service no-network untrusted-tool; do
	if [ ! -f "$P/$p.ini" ]; then
		ok 1 "sample profile $p.ini exists"
	fi
done

# ---- minimal: stdin in, stdout out, anything else kills ----
run_in 'hello minimal
' timeout 10 "$S" -p "$P/minimal.ini" cat
status_is 0 "minimal: cat of stdin: exit 0"
is "$(cat "$OUT")" "hello minimal" "minimal: cat copies stdin to stdout"
run timeout 10 "$S" -p "$P/minimal.ini" /bin/true
status_is 0 "minimal: /bin/true runs"
run timeout 10 "$S" -p "$P/minimal.ini" ls /
status_is 159 "minimal: ls / is killed with SIGSYS (getdents64)"
is "$(cat "$OUT")" "" "minimal: ls / printed nothing"
run timeout 10 "$S" -p "$P/minimal.ini" python3 -c 'print(1)'
status_is 159 "minimal: python3 is killed with SIGSYS"

# ---- net-daemon ----
works net-daemon
rm -f "$TAP_TMP/port"
timeout 30 "$S" -p "$P/net-daemon.ini" python3 "$TCP" server "$TAP_TMP/port" \
	>"$TAP_TMP/server.out" 2>"$TAP_TMP/server.err" &
srv=$!
n=0
while [ ! -s "$TAP_TMP/port" ] && [ $n -lt 100 ] && kill -0 $srv 2>/dev/null; do
	sleep 0.1
	n=$((n + 1))
done
if [ -s "$TAP_TMP/port" ]; then
	ok 0 "net-daemon: python3 TCP server listens on 127.0.0.1"
	run timeout 15 "$S" -p "$P/net-daemon.ini" python3 "$TCP" client "$(cat "$TAP_TMP/port")"
	status_is 0 "net-daemon: python3 TCP client: exit 0"
	is "$(cat "$OUT")" "client: got PING" "net-daemon: the client got the server's answer"
else
	ok 1 "net-daemon: python3 TCP server listens on 127.0.0.1"
	diag "$(cat "$TAP_TMP/server.err")"
fi
RC=0
wait $srv || RC=$?
status_is 0 "net-daemon: the server served one client and exited 0"
is "$(cat "$TAP_TMP/server.out")" "server: served ping" "net-daemon: the server saw the request"
fails_as net-daemon "socket(AF_NETLINK)" \
	'socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0).close()' EAFNOSUPPORT
run timeout 10 "$S" -p "$CTL" unshare --user true
status_is 0 "net-daemon: unshare --user works without the profile"
run timeout 10 "$S" -p "$P/net-daemon.ini" unshare --user true
status_is 1 "net-daemon: unshare --user fails"
like "$ERR" "Operation not permitted" "net-daemon: unshare fails with EPERM"

# ---- system-service ----
works system-service
# ptrace (@debug) is outside @system-service: the default errno(EPERM).
PTRACE='import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
r = libc.ptrace(0, 0, 0, 0)
print("ok" if r == 0 else errno.errorcode[ctypes.get_errno()])'
run timeout 20 "$S" -p "$CTL" python3 -c "$PTRACE"
is "$(cat "$OUT")" "ok" "system-service: ptrace(PTRACE_TRACEME) works without the profile"
run timeout 20 "$S" -p "$P/system-service.ini" python3 -c "$PTRACE"
is "$(cat "$OUT")" "EPERM" "system-service: ptrace(PTRACE_TRACEME) fails with EPERM"

# ---- no-network ----
works no-network
run timeout 20 "$S" -p "$P/no-network.ini" python3 -c "$(pyerr 'a, b = socket.socketpair(); a.send(b"x"); assert b.recv(1) == b"x"')"
is "$(cat "$OUT")" "ok" "no-network: an AF_UNIX socketpair works"
fails_as no-network "socket(AF_INET)" 'socket.socket(socket.AF_INET).close()' EPERM
fails_as no-network "socket(AF_INET6, SOCK_DGRAM)" \
	'socket.socket(socket.AF_INET6, socket.SOCK_DGRAM).close()' EPERM
# [landlock] scope = abstract-unix: an @socket outside cannot be reached
ABS=scmp-run-test-$$
timeout 20 python3 -c "import socket, time
s = socket.socket(socket.AF_UNIX)
s.bind('\\0$ABS')
s.listen(4)
print('up', flush=True)
time.sleep(20)" >"$TAP_TMP/abs.out" 2>&1 &
abs_pid=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do
	grep -q up "$TAP_TMP/abs.out" && break
	sleep 0.5
done
CONNECT="s = socket.socket(socket.AF_UNIX); s.connect('\\0$ABS'); s.close()"
run timeout 10 python3 -c "$(pyerr "$CONNECT")"
is "$(cat "$OUT")" ok "no-network: the @socket is reachable without the profile"
if "$S" -p "$P/no-network.ini" --check | grep -q "^landlock: scope: .*abstract-unix"; then
	run timeout 10 "$S" -p "$P/no-network.ini" python3 -c "$(pyerr "$CONNECT")"
	is "$(cat "$OUT")" EPERM "no-network: connecting to an @socket outside fails with EPERM"
else
	skip "the kernel lacks Landlock's abstract-unix scope (ABI 6)"
fi
kill "$abs_pid" 2>/dev/null
wait "$abs_pid" 2>/dev/null

# ---- untrusted-tool: files and pipes, threads, no new processes ----
printf 'name,n\nb,2\na,1\n' >"$TAP_TMP/in.csv"
CONVERT='import csv, json, sys, threading, hashlib
out = {}
def work():
    with open(sys.argv[1]) as f:
        out["rows"] = sorted(csv.DictReader(f), key=lambda r: r["name"])
t = threading.Thread(target=work)
t.start()
t.join()
with open(sys.argv[2], "w") as f:
    json.dump(out, f, sort_keys=True)
print(hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()[:16])'
# [landlock] write = . : the tool writes where it is launched
(cd "$TAP_TMP" && run timeout 20 "$S" -p "$P/untrusted-tool.ini" python3 -c "$CONVERT" in.csv out.json &&
	echo "$RC" >"$TAP_TMP/rc")
RC=$(cat "$TAP_TMP/rc")
status_is 0 "untrusted-tool: python3 CSV to JSON with a thread: exit 0"
is "$(cat "$TAP_TMP/out.json")" '{"rows": [{"n": "1", "name": "a"}, {"n": "2", "name": "b"}]}' \
	"untrusted-tool: the converted file"
for tool in "sha256sum in.csv" "sort in.csv" "tr a-z A-Z"; do
	want=$(cd "$TAP_TMP" && $tool <in.csv)
	RC=0
	(cd "$TAP_TMP" && timeout 10 "$S" -p "$P/untrusted-tool.ini" $tool <in.csv) >"$OUT" 2>"$ERR" ||
		RC=$?
	status_is 0 "untrusted-tool: ${tool%% *}: exit 0"
	is "$(cat "$OUT")" "$want" "untrusted-tool: ${tool%% *}: same output"
done
run timeout 20 "$S" -p "$P/untrusted-tool.ini" python3 -c "$PYIMP"
is "$(cat "$OUT")" "$want_py" "untrusted-tool: python3 -c with imports: same output"
run timeout 20 "$S" -p "$P/untrusted-tool.ini" sh -c "$PIPE"
status_is 2 "untrusted-tool: a sh pipeline cannot start (no fork)"
like "$ERR" "Cannot fork" "untrusted-tool: sh says it cannot fork"
fails_as untrusted-tool "subprocess.run" 'subprocess.run(["true"])' EPERM
fails_as untrusted-tool "socket(AF_UNIX)" 'socket.socket(socket.AF_UNIX).close()' EPERM
# [landlock]: outside the launch directory nothing is writable, and only
# the system directories are readable
mkdir "$TAP_TMP/wd"
(cd "$TAP_TMP/wd" && run timeout 10 "$S" -p "$P/untrusted-tool.ini" python3 -c \
	"$(pyerr 'open("../escaped", "w")')" && cp "$OUT" "$TAP_TMP/py.out")
is "$(cat "$TAP_TMP/py.out")" EACCES \
	"untrusted-tool: writing outside the launch directory fails with EACCES"
[ ! -e "$TAP_TMP/escaped" ]
ok $? "untrusted-tool: and nothing was written"
(cd "$TAP_TMP/wd" && run timeout 10 "$S" -p "$P/untrusted-tool.ini" python3 -c \
	"$(pyerr 'os.listdir("/root")')" && cp "$OUT" "$TAP_TMP/py.out")
is "$(cat "$TAP_TMP/py.out")" EACCES \
	"untrusted-tool: listing /root fails with EACCES"
(cd "$TAP_TMP/wd" && run timeout 10 "$S" -p "$P/untrusted-tool.ini" python3 -c \
	"$(pyerr 'open("/etc/hostname").read()')" && cp "$OUT" "$TAP_TMP/py.out")
is "$(cat "$TAP_TMP/py.out")" "ok" "untrusted-tool: /etc stays readable"

# ---- tar: an archive of a tree, written and unpacked, under each profile
# that allows files (untrusted-tool cannot start gzip: plain tar; it reads
# only below its launch directory: the archive comes on stdin) ----
mkdir -p "$TAP_TMP/tar/tree/sub"
echo one >"$TAP_TMP/tar/tree/a"
echo two >"$TAP_TMP/tar/tree/sub/b"
chmod 750 "$TAP_TMP/tar/tree/sub/b"
for p in net-daemon system-service no-network untrusted-tool; do
	rm -rf "$TAP_TMP/tar/out" "$TAP_TMP/tar/t.tar"
	mkdir "$TAP_TMP/tar/out"
	RC=0
	(cd "$TAP_TMP/tar" && timeout 20 "$S" -p "$P/$p.ini" tar cf t.tar tree &&
		cd out && timeout 20 "$S" -p "$P/$p.ini" tar xf - --no-same-owner <../t.tar) \
		>"$OUT" 2>"$ERR" || RC=$?
	status_is 0 "$p: tar cf and tar xf of a tree: exit 0"
	is "$(cat "$TAP_TMP/tar/out/tree/sub/b") $(stat -c %a "$TAP_TMP/tar/out/tree/sub/b")" \
		"two 750" "$p: tar: the unpacked file and its mode"
done

# ---- tty-injection (scmp-run.ini(5) BUILT-IN RULES) in every profile ----
# script(1) gives the command a new session whose controlling terminal is a
# pty: TIOCSTI there types into the terminal's input, as a sandboxed program
# would into the shell that launched it.
# tiocsti PROFILE [python]: what TIOCSTI on the terminal gave, made by the
# helper or (where a profile's Landlock paths do not reach the build
# directory) by python3
TIOCSTI_PY='import errno, fcntl, termios
try:
    fcntl.ioctl(0, termios.TIOCSTI, b"\n"); r = "typed"
except OSError as e:
    r = errno.errorcode[e.errno]
print("tiocsti: " + r)'
tiocsti() {
	if [ "${2:-}" = python ]; then
		cmd="$S -p $1 python3 -c '$TIOCSTI_PY'"
	else
		cmd="$S -p $1 $HELPER tiocsti"
	fi
	timeout 20 script -qec "$cmd" /dev/null </dev/null 2>&1 | tr -d '\r' | sed -n 's/^tiocsti: //p'
}
if command -v script >/dev/null 2>&1; then
	is "$(tiocsti "$SRCDIR/tests/runner/profiles/tty-allowed.ini")" "typed" \
		"tty-injection: TIOCSTI types into the terminal with tty-injection = allow"
	is "$(tiocsti "$SRCDIR/tests/runner/profiles/tty-allowed.ini" python)" "typed" \
		"tty-injection: python3's TIOCSTI types into the terminal as well"
	is "$(tiocsti "$P/minimal.ini")" "EPERM" "minimal: TIOCSTI on the terminal fails with EPERM"
	for p in net-daemon system-service no-network untrusted-tool; do
		is "$(tiocsti "$P/$p.ini" python)" "EPERM" \
			"$p: TIOCSTI on the terminal fails with EPERM"
	done
else
	skip "tty-injection: script(1) is not installed (util-linux)"
fi

done_testing
