#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Supervised run mode, live: the report line and the enacted decision,
# folding, signals and exit statuses, the handoff under a profile that
# denies sendmsg/recvmsg, the supervisor's death (ENOSYS, never unfiltered),
# --permissive, --explain-audit on the kernel's own records, bad input.
# shellcheck disable=SC2016
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP supervised live tests run as root"
	exit 0
fi
. "$SRCDIR/tests/tap.sh"

# wait_for FILE: until FILE exists (at most 10 s).
wait_for() {
	_i=0
	while [ ! -e "$1" ] && [ $_i -lt 200 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
}

S=$SCMP_RUN
P=$SRCDIR/tests/supervise/profiles
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
LC_ALL=C
export LC_ALL
T=$TAP_TMP
ABI=$("$S" --list-arches | sed -n 2p)
[ "$(uname -m)" = x86_64 ] && ABI=x86_64
UNAME_NR=$("$S" --resolve uname)
MKDIR_NR=$("$S" --resolve mkdir)

# ---- --report: errno, then kill-process ----

run "$S" --report -p "$P/deny.ini" sh -c 'uname; echo after=$?'
status_is 0 "report: the command goes on after EPERM"
like "$OUT" "after=1" "report: uname failed in the command"
like "$ERR" "scmp-run: denied: uname(0x" "report: names the call"
like "$ERR" "-> errno(EPERM) [$ABI $UNAME_NR] pid " "report: the action and [ABI NR]"
like "$ERR" "by $P/deny.ini:6" "report: the deciding rule as FILE:LINE"
grep -qE "\] pid [0-9]+ \(uname\) by" "$ERR"
ok $? "report: the pid and the command name"

# The thread's name is the caller's (here the name of the file it runs):
# a C1 control (CSI), a text-reordering character and a byte that is not
# UTF-8 are escaped as diagnostics are, never written as they are.
odd=$(printf 'u\302\233\342\200\256\377')
cp "$(command -v uname)" "$T/$odd"
run "$S" --report -p "$P/deny.ini" "$T/$odd"
like "$ERR" "] pid " "report: the call of a command with an odd name is reported"
like "$ERR" '(u\u009b\u202e\xff) by' "report: the command's name is escaped"
# (the command's own message names itself as it is)
grep "^scmp-run: denied: " "$ERR" | grep -qF "$odd"
ok $((! $?)) "report: ... and not written as it is"
# A newline inside the name is the caller's too: escaped with the rest,
# not taken for the end of the name (the kernel ends it with one more).
nl=$(printf 'u\nx\033[1m')
cp "$(command -v uname)" "$T/$nl"
run "$S" --report -p "$P/deny.ini" "$T/$nl"
like "$ERR" '(u\nx\x1b[1m) by' "report: a name with a newline is escaped whole"
# The name ends at the first ')': one of its own is written \x29, so that
# it cannot put a rule of its choosing after it.
fake='x) by f.ini:1'
cp "$(command -v uname)" "$T/$fake"
run "$S" --report -p "$P/deny.ini" "$T/$fake"
like "$ERR" "(x\\x29 by f.ini:1) by $P/deny.ini:6" "report: a ')' in the name is escaped"
grep "^scmp-run: denied: " "$ERR" | grep -qF "($fake)"
ok $((! $?)) "report: ... so that no rule seems to follow the name"

run "$S" --report -p "$P/deny.ini" mkdir "$T/killed"
status_is 159 "report: kill-process ends in status 159"
like "$ERR" "denied: mkdir(\"$T/killed\", 0777) -> kill-process [$ABI $MKDIR_NR]" \
	"report: the kill-process line with the path read from the caller"
[ ! -e "$T/killed" ]
ok $? "report: the killed call never ran"

# A /proc of another pid namespace would name other processes by the
# pids the kernel gives: refused before the command starts; with a /proc
# of its own, the report works.
if unshare -p -f true 2>/dev/null; then
	run unshare -p -f "$S" --report -p "$P/deny.ini" touch "$T/other-proc"
	status_is 125 "a /proc of another pid namespace: refused"
	like "$ERR" "need the /proc of their own pid namespace: /proc/self here is " \
		"a /proc of another pid namespace: says so"
	[ ! -e "$T/other-proc" ]
	ok $? "a /proc of another pid namespace: the command did not run"
	run unshare -p -f --mount-proc "$S" --report -p "$P/deny.ini" sh -c 'uname; true'
	like "$ERR" "] pid 3 (uname) by $P/deny.ini:6" "a pid namespace with its /proc: reported"
else
	for i in 1 2 3 4; do skip "unshare --pid is refused here"; done
fi

run "$S" --report -p "$P/deny.ini" sh -c 'for i in 1 2 3 4 5; do uname 2>/dev/null; done; true'
status_is 0 "folding: ran"
is "$(grep -c 'denied: uname' "$ERR")" 1 "folding: five denials, one line"
grep -qE "^scmp-run: +5  uname -> errno\(EPERM\)" "$ERR"
ok $? "folding: the summary counts them"

# The number as the line shows it, signed as the kernel's int (and its
# audit records): -1 in the summary too, not 4294967295.
if [ "$(uname -m)" = x86_64 ]; then
	printf '[filter]\ndefault-action = allow\nunknown-syscall-action = errno(ENOSYS)\n' \
		>"$T/unknown.ini"
	run "$S" --report --user root -p "$T/unknown.ini" "$BUILDDIR/tests/supervise/rawcall" -1 -1
	like "$ERR" "-> errno(ENOSYS) [x86_64 -1] pid " "folding: syscall -1 in the line"
	like "$ERR" "-> errno(ENOSYS) [x86_64 -1] by unknown-syscall-action" \
		"folding: ... and in the summary, the same"
	# 4096 kinds are folded at most, so a command cannot grow the
	# supervisor without bound; past them, one notice and no line for a
	# call of an untabled kind, so that it cannot grow the report either:
	# 4096 lines, the notice, a summary of 4096 kinds and its two lines
	# around them, whatever the number of calls (scmp-run(1) FINDING WHAT
	# WAS DENIED). Here 5000 kinds, then one of them 10000 times more:
	# 904 + 10000 calls are not shown.
	run "$S" --report="$T/many.log" --user root -p "$T/unknown.ini" sh -c \
		"'$BUILDDIR/tests/supervise/rawcall' 100000:5000:1 200000:10000; exit 7"
	status_is 7 "folding: past 4096 kinds, the command's own status"
	is "$(grep -c ': -1 Function not implemented$' "$OUT")" 15000 \
		"folding: ... every call failed with ENOSYS"
	is "$(grep -c '^scmp-run: denied: ' "$T/many.log")" 4096 "folding: ... a line for each kind counted"
	is "$(grep -c '^scmp-run: calls of kinds past the 4096 counted are not shown' \
		"$T/many.log")" 1 "folding: ... then one notice"
	is "$(grep -c 'denied: syscall_104096(\|syscall_200000(' "$T/many.log")" 0 \
		"folding: ... and no line for the kinds past it"
	like "$T/many.log" "15000 calls denied or logged, 4096 distinct:" "folding: 4096 kinds counted"
	like "$T/many.log" "scmp-run:   10904 more calls not counted by kind" \
		"folding: ... and the others, exactly"
	n=$(wc -l <"$T/many.log")
	[ "$n" -le $((2 * 4096 + 3)) ]
	ok $? "folding: the report is bounded ($n lines)"
	# kill-process is enacted past the table all the same
	printf '%s\n[kill-process]\nsyscalls = mkdir\n' "$(cat "$T/unknown.ini")" >"$T/kill-many.ini"
	run "$S" --report="$T/kill-many.log" --user root -p "$T/kill-many.ini" sh -c \
		"'$BUILDDIR/tests/supervise/rawcall' 100000:4200:1 >/dev/null; exec mkdir '$T/many-made'"
	status_is 159 "folding: past 4096 kinds, kill-process still ends in status 159"
	[ ! -e "$T/many-made" ]
	ok $? "folding: ... and the killed call never ran"
else
	skip "syscall -1 in the summary: x86_64 only"
fi

run "$S" --report="$T/report.txt" -p "$P/deny.ini" sh -c 'uname 2>/dev/null; exit 7'
status_is 7 "report=FILE: the command's own status"
like "$T/report.txt" "denied: uname(" "report=FILE: the line is in FILE"
unlike "$ERR" "denied:" "report=FILE: not on stderr"

"$S" --report -p "$P/deny.ini" sleep 30 >/dev/null 2>&1 &
pid=$!
sleep 0.5
kill -TERM "$pid"
wait "$pid"
is $? 143 "SIGTERM is forwarded: 128 + 15"

run "$S" --report -p "$P/deny.ini" sh -c 'kill -USR1 $$'
status_is 138 "a command killed by a signal: 128 + N"

# Every forwarded signal reaches the command, and only the command: it
# traps it and exits with its own status (scmp-run dying of the signal
# would show 128 + N instead). A background job of a non-interactive
# shell ignores SIGINT and SIGQUIT, so the dispositions are reset first.
# A signal not forwarded ends the wait after 20 s with status 99.
code=40
for sig in INT HUP QUIT USR1 USR2 WINCH; do
	code=$((code + 1))
	rm -f "$T/ready"
	env --default-signal "$S" --report -p "$P/deny.ini" sh -c \
		"trap 'exit $code' $sig; : >'$T/ready'; i=0
		while [ \$i -lt 400 ]; do sleep 0.05; i=\$((i + 1)); done; exit 99" \
		>/dev/null 2>&1 &
	pid=$!
	wait_for "$T/ready"
	kill -"$sig" "$pid"
	wait "$pid"
	is $? $code "SIG$sig is forwarded to the command, which handles it"
done

# ^C on the terminal: the command in the foreground group gets SIGINT from
# the terminal itself (not forwarded again); a command in a session of its
# own gets it from the supervisor.
if command -v python3 >/dev/null; then
	for prof in deny new-session; do
		rm -f "$T/ready"
		RC=0
		python3 "$SRCDIR/tests/supervise/tty-intr.py" "$T/ready" env --default-signal \
			"$S" --report -p "$P/$prof.ini" sh -c \
			"trap 'exit 7' INT; : >'$T/ready'; i=0
			while [ \$i -lt 400 ]; do sleep 0.05; i=\$((i + 1)); done; exit 99" \
			>/dev/null 2>&1 || RC=$?
		is "$RC" 7 "^C on the terminal ($prof.ini): the command gets SIGINT"
	done
else
	skip "python3 is not installed"
	skip "python3 is not installed"
fi

# kill-process on a process the command started: that process dies with
# SIGKILL (its parent sees 137), the command goes on (scmp-run(1))
run "$S" --report -p "$P/deny.ini" sh -c "mkdir '$T/gc'; echo child=\$?; exit 5"
status_is 5 "kill-process on a grandchild: the command's own status"
like "$OUT" "child=137" "kill-process on a grandchild: it died of SIGKILL"
like "$ERR" "denied: mkdir(\"$T/gc\", 0777) -> kill-process" "kill-process on a grandchild: reported"
[ ! -e "$T/gc" ]
ok $? "kill-process on a grandchild: the call never ran"

# the command sees none of the supervisor's descriptors (nor the
# listener): the same as in run mode
run "$S" -p "$P/deny.ini" sh -c 'cd /proc/$$/fd && echo *'
plain_fds=$(cat "$OUT")
run "$S" --report -p "$P/deny.ini" sh -c 'cd /proc/$$/fd && echo *'
status_is 0 "descriptors: ran"
is "$(cat "$OUT")" "$plain_fds" "descriptors: the command's are those of run mode"

# nor does the supervisor keep one of the child's: run mode's read-back
# descriptor (/proc/self/status, opened while the table was shared) is
# gone from both tables while the command runs (it waits on a fifo); with
# readback.ini the read-back's prctl went through the supervisor
mkfifo "$T/gate"
for c in report:deny permissive:deny learn:deny report:readback; do
	mode=${c%:*}
	prof=${c#*:}
	opt=--$mode
	[ "$mode" = learn ] && opt=--learn=$T/fd-learn.ini
	rm -f "$T/cmd.pid"
	"$S" "$opt" -p "$P/$prof.ini" sh -c 'echo $$ >"$1.tmp" && mv "$1.tmp" "$1"
		read -r x <"$2"; exit 0' sh "$T/cmd.pid" "$T/gate" >/dev/null 2>&1 &
	sup=$!
	wait_for "$T/cmd.pid" # written whole: moved into place
	cmd=$(cat "$T/cmd.pid" 2>/dev/null)
	sleep 0.1 # the supervisor closes it within about 1 ms of the read-back
	# read here: in a child of the command, /proc/self would differ
	sup_links=$(for f in /proc/"$sup"/fd/*; do readlink "$f"; done)
	cmd_links=$(for f in /proc/"${cmd:-0}"/fd/*; do readlink "$f"; done)
	: >"$T/gate"
	wait "$sup"
	is $? 0 "read-back descriptor, --$mode $prof.ini: the command ran"
	[ -n "$cmd" ] && [ -n "$sup_links" ] &&
		! printf '%s\n' "$sup_links" | grep -qx "/proc/$cmd/status"
	ok $? "read-back descriptor, --$mode $prof.ini: the supervisor does not keep it"
	[ -n "$cmd_links" ] && ! printf '%s\n' "$cmd_links" | grep -q '/status$'
	ok $? "read-back descriptor, --$mode $prof.ini: the command does not inherit it"
done

# socket activation: LISTEN_PID names the command
exec 3</dev/null
run env LISTEN_FDS=1 sh -c "LISTEN_PID=\$\$ exec '$S' --report -p '$P/deny.ini' \
	sh -c 'echo \"\$LISTEN_PID \$\$\"'"
exec 3<&-
status_is 0 "socket activation: ran"
read -r lp self <"$OUT"
is "$lp" "$self" "socket activation: LISTEN_PID is the command's pid"

# a LISTEN_PID that is not plain digits names no process: nothing is kept,
# as in run mode (and LISTEN_FDS is not read)
for fds in 1 abc; do
	exec 3</dev/null
	run sh -c "LISTEN_PID=\${\$}x LISTEN_FDS=$fds exec '$S' --report -p '$P/deny.ini' \
		sh -c 'test -e /proc/self/fd/3 && echo open || echo closed'"
	exec 3<&-
	status_is 0 "socket activation, LISTEN_PID '\$\$x', LISTEN_FDS=$fds: ran"
	is "$(cat "$OUT")" closed "socket activation, LISTEN_PID '\$\$x', LISTEN_FDS=$fds: 3 is closed"
done

# A report reader that goes away: the supervisor goes on enacting the
# profile (kill-process too) and says once that the report is lost.
mkfifo "$T/reader"
head -n 1 "$T/reader" >"$T/first-line" &
reader=$!
run "$S" --report="$T/reader" -p "$P/deny.ini" sh -c \
	"uname 2>/dev/null; while grep -q '^State:.*[RSD]' /proc/$reader/status 2>/dev/null; do
		sleep 0.05; done; exec mkdir '$T/gone'"
wait "$reader"
status_is 159 "report reader gone: kill-process still ends in status 159"
[ ! -e "$T/gone" ]
ok $? "report reader gone: the killed call never ran"
like "$T/first-line" "denied: uname(" "report reader gone: the reader had the first line"
like "$ERR" "--report: writing '$T/reader' failed: Broken pipe; the profile is enacted" \
	"report reader gone: says so on stderr"
is "$(grep -c 'writing' "$ERR")" 1 "report reader gone: says it once"

# A report past the caller's file-size limit, which the command grows with
# denials of its own: the supervisor does not die of SIGXFSZ (the command
# would go on without it, every notified call failing with ENOSYS), it says
# once that the report is lost and still enacts kill-process.
printf '[filter]\ndefault-action = allow\nunknown-syscall-action = errno(ENOSYS)\n
[kill-process]\nsyscalls = mkdir\n\n[credentials]\nuser = root\n' >"$T/fsize.ini"
# shellcheck disable=SC2016
run sh -c 'ulimit -f 2 && exec "$@"' sh "$S" --report="$T/fsize.log" -p "$T/fsize.ini" \
	sh -c "'$BUILDDIR/tests/supervise/rawcall' \$(seq 100000 100100) >/dev/null;
		exec mkdir '$T/fsize-made'"
status_is 159 "report past the file-size limit: kill-process still ends in status 159"
[ ! -e "$T/fsize-made" ]
ok $? "report past the file-size limit: the killed call never ran"
like "$ERR" "--report: writing '$T/fsize.log' failed: File too large; the profile is enacted" \
	"report past the file-size limit: says so on stderr"
# ... and the command gets the caller's SIGXFSZ back (reset-signals = no
# keeps it as it is): its own write past the limit kills it
printf '[filter]\ndefault-action = allow\n\n[process]\nreset-signals = no\n
[credentials]\nuser = root\n' >"$T/fsize-keep.ini"
# shellcheck disable=SC2016
run sh -c 'ulimit -f 2 && exec "$@"' sh "$S" --report -p "$T/fsize-keep.ini" \
	sh -c "exec head -c 100000 /dev/zero >'$T/fsize-big'"
status_is 153 "report past the file-size limit: the command's own SIGXFSZ is the default"

# A signal that ends the setup before the command runs: pending before
# scmp-run starts (blocked by sigblock.py), forwarded to the child as soon
# as it exists, and delivered when run mode empties the signal mask. The
# child's setup (a passwd lookup, Landlock) takes far longer than the
# forward, but a loaded machine may let the command start first, which
# the signal then ends (138), or even finish (0) before the forward comes:
# up to five tries for the setup's case.
for try in 1 2 3 4 5; do
	rm -f "$T/ran-usr1"
	run "$SRCDIR/tests/runner/sigblock.py" /bin/sh -c \
		"kill -USR1 \$\$; exec '$S' --report -p '$P/deny.ini' sh -c ': >\"$T/ran-usr1\"'"
	[ "$RC" = 138 ] || [ "$RC" = 0 ] || break
done
status_is 125 "signal during the setup: 125"
like "$ERR" "the command was not run: its setup ended before the execve(), killed by signal" \
	"signal during the setup: says why"
like "$ERR" "(SIGUSR1)" "signal during the setup: names the signal"
[ ! -e "$T/ran-usr1" ]
ok $? "signal during the setup: the command did not run"

# A setup that ends with a status of its own, as a library that calls
# exit() would: exit-shim.so exits 7 where run mode sets no_new_privs.
# The sanitizer runtime insists on coming first; the shim only replaces
# prctl(), which it does not need.
rm -f "$T/ran-shim"
run env LD_PRELOAD="$BUILDDIR/tests/supervise/exit-shim.so" \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	"$S" --report -p "$P/deny.ini" sh -c ": >'$T/ran-shim'"
status_is 125 "setup ended with a status: 125"
like "$ERR" "the command was not run: its setup ended before the execve(), with status 7" \
	"setup ended with a status: says so, with the status"
[ ! -e "$T/ran-shim" ]
ok $? "setup ended with a status: the command did not run"

# A notification whose caller went away before the check of its id (a
# signal interrupted the call, which then comes again) is not counted:
# stale-shim.so fails the first check, and the second uname has its line.
run env LD_PRELOAD="$BUILDDIR/tests/supervise/stale-shim.so" \
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
	"$S" --report -p "$P/deny.ini" sh -c 'uname 2>/dev/null; uname 2>/dev/null; true'
status_is 0 "a call gone before its check: ran"
is "$(grep -c 'denied: uname' "$ERR")" 1 "a call gone before its check: the next one has the line"
grep -qE "^scmp-run: +1  uname -> errno\(EPERM\)" "$ERR"
ok $? "a call gone before its check: not in the summary"

# A signal that comes while the supervisor has a call does not cut the
# call short: the caller waits for the profile's answer (EPERM, not EINTR
# from a handler without SA_RESTART), and kill-process still kills and is
# reported. hold-shim.so holds each call a second once taken and creates
# $T/taken then; sigcall signals the calling thread from that moment on.
SIGCALL=$BUILDDIR/tests/supervise/sigcall
HOLD="env LD_PRELOAD=$BUILDDIR/tests/supervise/hold-shim.so HOLD_SHIM_MARK=$T/taken
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
rm -f "$T/taken"
# shellcheck disable=SC2086
run $HOLD "$S" --report -p "$P/deny.ini" "$SIGCALL" "$T/taken" "$UNAME_NR"
status_is 0 "a signal while the supervisor has the call: ran"
is "$(cat "$OUT")" "-1 Operation not permitted" \
	"a signal while the supervisor has the call: the profile's errno, not EINTR"
like "$ERR" "denied: uname(" "a signal while the supervisor has the call: reported"
rm -f "$T/taken"
# shellcheck disable=SC2086
run $HOLD "$S" --report -p "$P/deny.ini" "$SIGCALL" "$T/taken" "$MKDIR_NR" "$T/sig-dir"
status_is 159 "a signal while the supervisor has a kill-process call: killed, 159"
like "$ERR" "denied: mkdir(\"$T/sig-dir\", 0755) -> kill-process" \
	"a signal while the supervisor has a kill-process call: reported"
[ ! -e "$T/sig-dir" ]
ok $? "a signal while the supervisor has a kill-process call: the call never ran"
# A kill-process call names its victim by a pidfd taken while the caller
# waits, never by a number: reuse-shim.so ends the caller's group, has its
# parent reap it and gives its pid to another process, all between the
# supervisor's check and its signal (in a pid namespace of the test's own).
# That process is not killed, and the call still never ran.
REUSE="env LD_PRELOAD=$BUILDDIR/tests/supervise/reuse-shim.so
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
# A run in which the other process did not get the pid ("not-taken") tests
# nothing (reuse-shim.c): it is run again, five times at most.
for try in 1 2 3 4 5; do
	rm -f "$T/reused"
	# shellcheck disable=SC2086
	run $REUSE REUSE_SHIM_MARK="$T/reused" unshare --pid --fork --mount-proc \
		"$S" --report -p "$P/deny.ini" sh -c "mkdir '$T/reuse-dir' & wait"
	[ "$(cat "$T/reused" 2>/dev/null)" = not-taken ] || break
	diag "a pid reused before the kill: run $try void (the pid was not taken)"
done
status_is 0 "a pid reused before the kill: the command went on"
is "$(cat "$T/reused" 2>/dev/null)" alive "a pid reused before the kill: its new owner lives"
[ ! -e "$T/reuse-dir" ]
ok $? "a pid reused before the kill: the call never ran"
# Where no pidfd can be had, the call fails with ENOSYS and that is said,
# once: the summary counts every such call, so that a command repeating
# one cannot grow the report with them.
# shellcheck disable=SC2086
run $REUSE REUSE_SHIM_NO_FD=1 "$S" --report -p "$P/deny.ini" \
	sh -c "mkdir '$T/nofd-dir'; echo after=\$?; mkdir '$T/nofd-2'; mkdir '$T/nofd-3'; true"
status_is 0 "no pidfd for a kill: the command went on"
like "$OUT" "after=1" "no pidfd for a kill: the call failed"
like "$ERR" "Function not implemented" "no pidfd for a kill: with ENOSYS"
grep -qE "cannot kill pid [0-9]+ for its call: pidfd_open: Too many open files; the call fails with ENOSYS" "$ERR"
ok $? "no pidfd for a kill: says so"
[ ! -e "$T/nofd-dir" ] && [ ! -e "$T/nofd-3" ]
ok $? "no pidfd for a kill: no call ran"
is "$(grep -c 'cannot kill pid' "$ERR")" 1 "no pidfd for a kill: said once"
like "$ERR" "scmp-run:   3 calls could not be killed and failed with ENOSYS" \
	"no pidfd for a kill: the summary counts them"
# The same for real: a command of the caller's user lowers its
# supervisor's descriptor limit (prlimit(1) on its parent), which leaves it
# no descriptor for the pidfd, nor for reading the caller's memory (nor
# for the leak checker of a sanitizer build, which reads /proc at exit).
run env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$S" --report -p "$P/deny.ini" sh -c "prlimit --pid \$PPID --nofile=3:3 &&
	mkdir '$T/lim-dir'; echo after=\$?; mkdir '$T/lim-dir'; true"
status_is 0 "a supervisor's limit lowered by the command: the command went on"
like "$OUT" "after=1" "a supervisor's limit lowered by the command: the call failed"
grep -qE "cannot kill pid [0-9]+ for its call: pidfd_open: Too many open files" "$ERR"
ok $? "a supervisor's limit lowered by the command: says so"
[ ! -e "$T/lim-dir" ]
ok $? "a supervisor's limit lowered by the command: no call ran"
like "$ERR" "scmp-run:   2 calls could not be killed and failed with ENOSYS" \
	"a supervisor's limit lowered by the command: the summary counts them"
# A limit set before scmp-run starts never leads there: at every limit the
# run either does not start (the command never runs) or the kill is enacted.
lim_ok=0
for n in 4 5 6 7 8 9 10 12 16; do
	rm -rf "$T/lim-$n"
	sh -c "ulimit -n $n; exec \"\$0\" \"\$@\"" "$S" --report -p "$P/deny.ini" \
		sh -c "mkdir '$T/lim-$n'; echo after=\$?" >"$T/lim.out" 2>"$T/lim.err"
	rc=$?
	if [ -e "$T/lim-$n" ] || grep -q "cannot kill" "$T/lim.err" ||
		{ [ "$rc" != 125 ] && ! grep -qx "after=137" "$T/lim.out"; }; then
		diag "ulimit -n $n: status $rc, $(cat "$T/lim.out") $(head -c 300 "$T/lim.err")"
		lim_ok=1
	fi
done
ok $lim_ok "a descriptor limit before the start: the run is refused (125) or the kill enacted"
# A kernel before Linux 5.19 refuses the flag that makes the caller wait
# (EINVAL, here from an outer filter): the filter is installed without it.
run "$S" -p "$P/old-kernel.ini" -- "$S" --report -p "$P/deny.ini" sh -c 'uname; echo after=$?'
status_is 0 "a kernel without WAIT_KILLABLE_RECV: ran"
like "$OUT" "after=1" "a kernel without WAIT_KILLABLE_RECV: uname failed in the command"
like "$ERR" "denied: uname(" "a kernel without WAIT_KILLABLE_RECV: reported"

# The supervisor that cannot make itself undumpable does not start the
# command (here an outer filter refuses it).
rm -f "$T/ran"
run "$S" -p "$P/no-dumpable.ini" -- "$S" --report -p "$P/deny.ini" sh -c ": >'$T/ran'"
status_is 125 "PR_SET_DUMPABLE refused: 125"
like "$ERR" "starting the supervisor failed: prctl(PR_SET_DUMPABLE): Operation not permitted" \
	"PR_SET_DUMPABLE refused: says so"
[ ! -e "$T/ran" ]
ok $? "PR_SET_DUMPABLE refused: the command did not run"

# A parent-death signal that cannot be read (here an outer filter refuses
# prctl(PR_GET_PDEATHSIG)) cannot be kept: neither the supervisor nor run
# mode, before its user switch, starts the command.
for mode in --report ""; do
	rm -f "$T/ran"
	# shellcheck disable=SC2086
	run "$S" -p "$P/no-pdeath-read.ini" -- "$S" $mode -p "$P/deny.ini" sh -c ": >'$T/ran'"
	status_is 125 "PR_GET_PDEATHSIG refused${mode:+, $mode}: 125"
	like "$ERR" "reading the parent-death signal failed: Operation not permitted (EPERM)" \
		"PR_GET_PDEATHSIG refused${mode:+, $mode}: says so"
	[ ! -e "$T/ran" ]
	ok $? "PR_GET_PDEATHSIG refused${mode:+, $mode}: the command did not run"
done

run "$S" --report="$T/no/such/dir/report" -p "$P/deny.ini" sh -c ": >'$T/ran'"
status_is 125 "--report=FILE unwritable: 125"
like "$ERR" "--report: cannot write '$T/no/such/dir/report'" "--report=FILE unwritable: says so"
[ ! -e "$T/ran" ]
ok $? "--report=FILE unwritable: the command did not run"

# --report=FILE where another user could plant a name (a directory of
# nobody's; this machine need not protect links in sticky directories):
# no link is followed and no file but the caller's own is written.
sh_dir=$T/shared
chmod 711 "$T"
mkdir "$sh_dir"
chown 65534 "$sh_dir"
echo secret >"$T/victim"
ln -s "$T/victim" "$sh_dir/link"
ln "$T/victim" "$sh_dir/hard"
setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "echo theirs >'$sh_dir/theirs'"
for name in link hard theirs; do
	rm -f "$T/ran"
	run "$S" --report="$sh_dir/$name" -p "$P/deny.ini" sh -c "uname; : >'$T/ran'"
	status_is 125 "--report=FILE, $name in another user's directory: 125"
	[ ! -e "$T/ran" ]
	ok $? "--report=FILE, $name in another user's directory: the command did not run"
done
like "$ERR" "cannot write '$sh_dir/theirs': in a directory other users may write, only" \
	"--report=FILE, another user's file: says why"
run "$S" --report="$sh_dir/link" -p "$P/deny.ini" true
like "$ERR" "cannot write '$sh_dir/link': it is a symbolic link in a directory other users" \
	"--report=FILE, a link in another user's directory: says why"
is "$(cat "$T/victim")" secret "--report=FILE refused: the link's target is untouched"
is "$(cat "$sh_dir/theirs")" theirs "--report=FILE refused: the other user's file is untouched"
echo old >"$sh_dir/mine"
for name in new mine; do
	run "$S" --report="$sh_dir/$name" -p "$P/deny.ini" sh -c 'uname 2>/dev/null; true'
	status_is 0 "--report=FILE, $name file in another user's directory: ran"
	like "$sh_dir/$name" "denied: uname(" "--report=FILE, $name file there: has the line"
	unlike "$sh_dir/$name" "old" "--report=FILE, $name file there: truncated"
done
# In a directory only root writes, a link is root's own choice: followed.
ln -s "$T/followed" "$T/root-link"
run "$S" --report="$T/root-link" -p "$P/deny.ini" sh -c 'uname 2>/dev/null; true'
like "$T/followed" "denied: uname(" "--report=FILE, root's link in root's directory: followed"
run "$S" --report=/dev/stderr -p "$P/deny.ini" sh -c 'uname 2>/dev/null; true'
like "$ERR" "denied: uname(" "--report=/dev/stderr: the line is on stderr"

# ---- as an unprivileged user ----

if command -v setpriv >/dev/null && command -v prlimit >/dev/null; then
	U="setpriv --reuid=65534 --regid=65534 --clear-groups"
	# shellcheck disable=SC2086
	run $U "$S" --report -p "$P/unprivileged.ini" sh -c 'uname; echo after=$?'
	status_is 0 "uid 65534: --report runs"
	like "$OUT" "after=1" "uid 65534: uname failed in the command"
	like "$ERR" "denied: uname(" "uid 65534: reported"
	# (a sanitizer build's leak check starts a tracer at exit: the limit
	# forbids it too)
	# shellcheck disable=SC2086
	run $U env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		prlimit --nproc=1 "$S" --report -p "$P/unprivileged.ini" true
	status_is 125 "no process left for the command: 125"
	like "$ERR" "starting the command failed: clone:" "no process left for the command: says so"
	# The supervisor enacts the profile: the command, the same user, must
	# not write into it, even without a Landlock domain to stop ptrace.
	# shellcheck disable=SC2016,SC2086
	run $U "$S" --report -p "$P/no-domain.ini" \
		sh -c '(exec 3<>/proc/$PPID/mem) 2>/dev/null && echo opened || echo refused'
	is "$(cat "$OUT")" refused "uid 65534: the command cannot open the supervisor's memory"
	# shellcheck disable=SC2016,SC2086
	run $U "$S" --report -p "$P/no-domain.ini" \
		sh -c '(exec 3<>/proc/self/mem) 2>/dev/null && echo opened || echo refused'
	is "$(cat "$OUT")" opened "uid 65534: ... while its own stays open to it"
else
	skip "setpriv or prlimit missing: no unprivileged cases"
fi

# ---- run mode's own calls after the filter are not the command's ----

printf '#!/nonexistent/interpreter\n' >"$T/noint"
chmod +x "$T/noint"
run "$S" --report -p "$P/deny.ini" "$T/noint"
status_is 127 "missing interpreter: 127, as in run mode"
like "$ERR" "executing '$T/noint' failed" "missing interpreter: run mode's message"
unlike "$ERR" "summary:" "missing interpreter: nothing reported"
run "$S" --report -p "$P/no-write.ini" "$T/noint"
status_is 127 "missing interpreter, write denied: 127"
unlike "$ERR" "denied: write" "missing interpreter, write denied: run mode's write is not reported"
unlike "$ERR" "executing" "missing interpreter, write denied: the message failed as in run mode"

# a child that cannot exit after a failed execve() still ends (in run
# mode glibc's _exit() ends it with a trap)
run timeout 20 "$S" --report -p "$P/no-exit.ini" "$T/noint"
status_is 127 "missing interpreter, exit denied: 127, the child does not spin"
like "$ERR" "executing '$T/noint' failed" "missing interpreter, exit denied: run mode's message"

# the read-back after the install goes through the supervisor
run "$S" --report -p "$P/readback.ini" sh -c 'echo ran'
status_is 0 "read-back answered with errno, supervised: ran"
like "$OUT" "ran" "read-back answered with errno, supervised: the command ran"
unlike "$ERR" "prctl" "read-back answered with errno, supervised: run mode's own call not reported"
if command -v python3 >/dev/null; then
	run "$S" --report -p "$P/readback.ini" python3 -c \
		'import ctypes; print(ctypes.CDLL(None).prctl(21, 0, 0, 0, 0))'
	like "$ERR" "denied: prctl(PR_GET_SECCOMP" \
		"read-back profile: the command's own prctl is reported"
else
	skip "python3 is not installed"
fi

# The wake: at the execve() when the filter lets the child's calls until
# then run (deny.ini), before the install otherwise (readback.ini: the
# read-back's prctl is notified). An outer filter that fails the wake's
# write (no-wake.ini) stops the command either way, with a message.
for c in deny:"the command was not run: waking the supervisor under the filter failed" \
	readback:"preparing the supervisor's listener failed"; do
	prof=${c%%:*}
	rm -f "$T/woke"
	run timeout 20 "$S" -p "$P/no-wake.ini" -- \
		"$S" --report -p "$P/$prof.ini" sh -c ": >'$T/woke'"
	status_is 125 "wake denied by an outer filter, $prof.ini: 125"
	like "$ERR" "${c#*:}: Operation not permitted" "wake denied, $prof.ini: says so"
	[ ! -e "$T/woke" ]
	ok $? "wake denied, $prof.ini: the command did not run"
done
run timeout 20 "$S" -p "$P/no-wake.ini" -- "$S" -p "$P/deny.ini" sh -c 'echo ran'
is "$(cat "$OUT")" "ran" "control: unsupervised, the outer filter lets a command run"

# the uid-0 guard holds supervised too
sed '/^\[credentials\]/,$d' "$P/deny.ini" >"$T/no-user.ini"
run "$S" --report -p "$T/no-user.ini" sh -c ": >'$T/ran-root'"
status_is 125 "--report as root, no [credentials] user: refused"
like "$ERR" "the command would run as root" "--report as root: the uid-0 guard's message"
[ ! -e "$T/ran-root" ]
ok $? "--report as root: the command did not run"
run "$S" --report -p "$T/no-user.ini" --user root sh -c 'echo ran'
status_is 0 "--report as root with --user root: ran"

# --permissive lets run mode's own calls run: a base that kills every call
# but a few (unusable in run mode: nothing can verify the filter) runs
run "$S" -p "$P/base.ini" --user root true
status_is 125 "kill-everything base: refused in run mode"
run "$S" --permissive -p "$P/base.ini" --user root sh -c 'echo ran'
status_is 0 "kill-everything base, --permissive: ran"
like "$OUT" "ran" "kill-everything base, --permissive: the command's output"
like "$ERR" "would deny: " "kill-everything base, --permissive: reported"
# ... execve() included: the check that refuses a profile that would stop
# the command's own execve() asks what the mode answers, not the profile
printf '[filter]\ndefault-action = errno(EPERM)\n[credentials]\nuser = root\n' >"$T/no-exec.ini"
run "$S" -p "$T/no-exec.ini" true
status_is 125 "a profile that denies execve: refused in run mode"
like "$ERR" "the filter would stop the execve() of the command itself" \
	"a profile that denies execve: says why"
run "$S" --permissive -p "$T/no-exec.ini" sh -c 'echo ran'
status_is 0 "a profile that denies execve, --permissive: ran"
like "$OUT" "ran" "a profile that denies execve, --permissive: the command's output"

# ---- a profile that denies the calls a socket handoff would need ----

run "$S" --report -p "$P/no-sendmsg.ini" sh -c 'uname; echo after=$?'
status_is 0 "no sendmsg/recvmsg: ran"
like "$OUT" "after=1" "no sendmsg/recvmsg: the command went on"
like "$ERR" "denied: uname(" "no sendmsg/recvmsg: reported"

# ---- the supervisor dies: ENOSYS, never unfiltered ----

"$S" --report -p "$P/deny.ini" sh -c "sleep 1; uname 2>&1; mkdir '$T/dead' 2>&1; echo end" \
	>"$T/dead.out" 2>&1 &
pid=$!
sleep 0.4
kill -KILL "$pid"
wait "$pid" 2>/dev/null
sleep 1.5
like "$T/dead.out" "uname: cannot get system name: Function not implemented" \
	"supervisor dead: a notified call fails with ENOSYS"
like "$T/dead.out" "Function not implemented" "supervisor dead: mkdir too"
[ ! -e "$T/dead" ]
ok $? "supervisor dead: the denied mkdir never ran"
like "$T/dead.out" "end" "supervisor dead: the command went on"

# ---- --permissive ----

run "$S" --permissive -p "$P/deny.ini" sh -c "uname -s; mkdir '$T/made' && echo made"
status_is 0 "permissive: ran"
like "$OUT" "made" "permissive: the denied mkdir succeeded"
[ -d "$T/made" ]
ok $? "permissive: the directory exists"
like "$ERR" "would deny: mkdir(" "permissive: reported as 'would deny'"
like "$ERR" "would deny: uname(" "permissive: uname reported"
like "$ERR" "this is not a sandbox" "permissive: says it is not a sandbox"

# log lets the call run in every mode: "logged", and "would log" when
# permissive (scmp-run(1), FINDING WHAT WAS DENIED)
printf '[filter]\ndefault-action = allow\n[log]\nsyscalls = uname\n[credentials]\nuser = root\n' \
	>"$T/log.ini"
run "$S" --report -p "$T/log.ini" uname -s
is "$RC:$(cat "$OUT")" "0:Linux" "report, log: the call ran"
like "$ERR" "logged: uname(" "report, log: reported as 'logged'"
run "$S" --permissive -p "$T/log.ini" uname -s
is "$RC:$(cat "$OUT")" "0:Linux" "permissive, log: the call ran"
like "$ERR" "would log: uname(" "permissive, log: reported as 'would log'"

# ---- bad input ----

run "$S" --report -p "$P/notify.ini" true
status_is 125 "--report with a notify profile: refused"
like "$ERR" "notify action cannot be used with --report" "--report with notify: says why"
like "$ERR" "notify.ini:5" "--report with notify: located"

run "$S" --learn "$T/l.ini" --report -p "$P/deny.ini" true
status_is 125 "--learn with --report: usage error"

run "$S" --report -p "$P/deny.ini" --check
status_is 2 "--report outside run mode: usage error"

# ---- --explain-audit ----

printf 'hello\nworld\n' >"$T/noaudit"
run "$S" -p "$P/deny.ini" --explain-audit "$T/noaudit"
status_is 1 "--explain-audit on lines without records: exit 1"
like "$ERR" "no seccomp audit record" "--explain-audit: says so"

printf 'audit: type=1326 audit(1.2:3): pid=1 comm="x arch=c000003e syscall=83 code=0x80000000\n' \
	>"$T/bad-audit"
run "$S" -p "$P/deny.ini" --explain-audit "$T/bad-audit"
status_is 1 "--explain-audit on a malformed record: exit 1"
like "$ERR" "malformed seccomp audit record" "--explain-audit: malformed record warned"

run "$S" -p "$P/deny.ini" --explain-audit "$T/no-such-log"
status_is 1 "--explain-audit on a missing file: exit 1"
like "$ERR" "scmp-run: error: opening '$T/no-such-log' failed: No such file or directory" \
	"--explain-audit on a missing file: says why"
run "$S" -p "$P/deny.ini" --explain-audit "$T"
status_is 1 "--explain-audit on a directory: exit 1"
like "$ERR" "scmp-run: error: reading '$T' failed: Is a directory" \
	"--explain-audit on a directory: says why"
# Without a file the records come from /dev/kmsg, which dmesg_restrict
# closes to an unprivileged user.
U="setpriv --reuid=65534 --regid=65534 --clear-groups"
# shellcheck disable=SC2086
if command -v setpriv >/dev/null && ! $U sh -c 'exec 3</dev/kmsg' 2>/dev/null; then
	# shellcheck disable=SC2086
	run $U "$S" -p "$P/deny.ini" --explain-audit
	status_is 1 "--explain-audit, /dev/kmsg closed: exit 1"
	like "$ERR" "scmp-run: error: reading the kernel log (/dev/kmsg) failed: Operation not permitted" \
		"--explain-audit, /dev/kmsg closed: says why"
	like "$ERR" "hint: pass the records as a file" "--explain-audit, /dev/kmsg closed: the way round"
else
	skip "uid 65534 may read /dev/kmsg here (kernel.dmesg_restrict = 0)"
fi
# A read error of /dev/kmsg is an error, not the end of the records: an
# outer filter fails the reads of the record buffer (AUDIT_LINE_MAX bytes)
# with EIO; the profile's own reads ask for less.
cat >"$T/kmsg-eio.ini" <<EOF
[filter]
default-action = allow
[errno(EIO)]
read = count == 16384
[credentials]
user = root
[capabilities]
keep = CAP_SYSLOG
EOF
run "$S" -p "$T/kmsg-eio.ini" "$S" -p "$P/deny.ini" --explain-audit
status_is 1 "--explain-audit, /dev/kmsg read fails: exit 1"
like "$ERR" "scmp-run: error: reading the kernel log (/dev/kmsg) failed after 0 records: Input/output error" \
	"--explain-audit, /dev/kmsg read fails: says so, not 'no record'"

# real records, from the kernel: a kill-process profile with log = yes
if dmesg >/dev/null 2>&1; then
	sh -c "echo \$\$ >'$T/pid'; exec '$S' -p '$P/kill-log.ini' mkdir '$T/audit-dir'" \
		>/dev/null 2>&1
	rc=$?
	is "$rc" 159 "audit: the kernel killed mkdir"
	apid=$(cat "$T/pid")
	sleep 0.2
	dmesg | grep "type=1326" | grep " pid=$apid " >"$T/audit.log"
	if [ -s "$T/audit.log" ]; then
		run "$S" -p "$P/kill-log.ini" --explain-audit "$T/audit.log"
		status_is 0 "--explain-audit on the kernel's record"
		like "$OUT" "mkdir [$ABI $MKDIR_NR] pid $apid (mkdir): the kernel took kill-process" \
			"--explain-audit: the syscall, pid and action"
		like "$OUT" "decision: kill-process by $P/kill-log.ini:7" \
			"--explain-audit: the decision and its rule"
		run "$S" -p "$P/deny.ini" --explain-audit - <"$T/audit.log"
		RC=0
		"$S" -p "$P/deny.ini" --explain-audit - <"$T/audit.log" >"$OUT" 2>"$ERR" || RC=$?
		status_is 0 "--explain-audit from stdin"
		like "$OUT" "decision: kill-process by $P/deny.ini:9" \
			"--explain-audit: another profile's decision"
	else
		skip "the kernel logged no seccomp record (audit rate limit or printk off)"
	fi
else
	skip "dmesg is not readable here: no kernel records to explain"
fi

# records PROFILE NR COMMAND...: run COMMAND under PROFILE (log = yes), keep
# the kernel's records of its call NR in $T/rec.log; $apid is its pid.
records() {
	_p=$1 _nr=$2
	shift 2
	rm -f "$T/pid"
	sh -c 'echo $$ >"$0"; exec "$@"' "$T/pid" "$S" -p "$_p" "$@" >/dev/null 2>&1
	apid=$(cat "$T/pid")
	sleep 0.2
	dmesg | grep "type=1326" | grep " pid=$apid " | grep " syscall=$_nr " | tail -1 >"$T/rec.log"
}

# explains WHAT PROFILE KIND TEXT...: --explain-audit of $T/rec.log under
# PROFILE says the kernel took KIND (the kind alone, as logged), prints
# every TEXT and never "never produces".
explains() {
	_what=$1 _p=$2 _kind=$3
	shift 3
	if [ ! -s "$T/rec.log" ]; then
		skip "$_what: the kernel logged no record (audit rate limit or printk off)"
		return
	fi
	run "$S" -p "$_p" --explain-audit "$T/rec.log"
	status_is 0 "$_what: explained"
	grep -qE "\] pid $apid \([a-z0-9]+\): the kernel took $_kind\$" "$OUT"
	ok $? "$_what: the kernel took $_kind" || diag "$(cat "$OUT")"
	for _t in "$@"; do
		like "$OUT" "$_t" "$_what: $_t"
	done
	unlike "$OUT" "never produces" "$_what: the profile produces the record"
}

# The kernel logs errno, trap and trace records with the action alone
# (code=0x50000 for any errno): each comes from a rule of the profile.
L=$P/log-actions.ini
D=$P/log-default.ini
if dmesg >/dev/null 2>&1; then
	records "$L" "$UNAME_NR" uname
	explains "errno record" "$L" errno "decision: errno(EPERM) by $L:8"
	records "$L" "$("$S" --resolve sync)" sync
	explains "trap(7) record" "$L" trap "decision: trap(7) by $L:11"
	if command -v python3 >/dev/null; then
		records "$L" "$("$S" --resolve socket)" python3 -c \
			'import socket; socket.socket(socket.AF_INET6, socket.SOCK_STREAM)'
		explains "conditional errno record" "$L" errno "depends on the arguments" \
			"rules that produce it: $L:14"
	else
		skip "python3 is not installed: no socket record"
	fi
	records "$D" "$("$S" --resolve chroot)" chroot / true
	explains "default-action errno record" "$D" errno "decision: errno(EPERM) by default-action"
	# dmesg -x puts the facility and level in front of the time.
	dmesg -x | grep "type=1326" | grep " pid=$apid " | tail -1 >"$T/rec.log"
	grep -q '^kern *:[a-z]* *: ' "$T/rec.log" || [ ! -s "$T/rec.log" ]
	ok $? "dmesg -x: the line starts with the facility and level"
	explains "dmesg -x line" "$D" errno "decision: errno(EPERM) by default-action"
	if [ -s "$T/rec.log" ]; then
		run "$S" -p "$L" --explain-audit "$T/rec.log"
		like "$OUT" "never produces errno for this call: the record comes from another filter" \
			"an errno record the profile never gives: another filter"
	fi
	# A warning about a record of /dev/kmsg names it as dmesg shows it.
	M="scmp-run-test-$$"
	echo "audit: type=1326 audit(1.2:3): pid=1 comm=\"$M arch=c000003e syscall=83 code=0x0" \
		>/dev/kmsg
	run "$S" -p "$L" --explain-audit
	ts=$(dmesg | grep -F "comm=\"$M " | tail -1 | sed 's/\].*/]/')
	like "$ERR" "scmp-run: /dev/kmsg: warning: malformed seccomp audit record (record " \
		"/dev/kmsg warning: names a record, not a line"
	[ -n "$ts" ] && like "$ERR" "$ts in dmesg): skipped" "/dev/kmsg warning: the time dmesg shows"
	[ -n "$ts" ] || ok 1 "/dev/kmsg warning: the record written is in dmesg"
	# The kernel prints the number signed: syscall=-1, syscall=-2.
	if command -v python3 >/dev/null; then
		K=$P/kill-unknown.ini
		records "$K" -1 python3 -c 'import ctypes; ctypes.CDLL(None).syscall(-1)'
		explains "syscall(-1) record" "$K" kill-process "unknown [$ABI -1] pid $apid" \
			"decision: kill-process by unknown-syscall-action" "note: -1 is no syscall"
		records "$K" -2 python3 -c 'import ctypes; ctypes.CDLL(None).syscall(-2)'
		explains "syscall(-2) record" "$K" kill-process " -2] pid $apid" \
			"note: -2 is no syscall"
	else
		skip "python3 is not installed: no syscall(-1) record"
	fi
else
	skip "dmesg is not readable here: no kernel records to explain"
fi

done_testing
