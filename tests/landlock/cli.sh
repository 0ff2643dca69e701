# SPDX-License-Identifier: LGPL-2.1-or-later
# [landlock] and [limits] through the command line, live in the kernel: each
# run as root (user = root) and as uid 65534 (scmp-run itself unprivileged).
# Usage: cli.sh SCMP-RUN-SEAM ESCAPE-PY AUDIT-PY (environment: SCMP_RUN, SRCDIR).

# $AS is a command prefix, split on purpose; '$PPID' in single quotes is
# for the sandboxed shell.
# shellcheck disable=SC2086,SC2016
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root (runs as root and as uid 65534)"
	exit 0
fi
if ! [ -x /usr/bin/python3 ] || ! command -v setpriv >/dev/null; then
	echo "1..0 # SKIP needs /usr/bin/python3 and setpriv"
	exit 0
fi
. "$SRCDIR/tests/tap.sh"

SEAM=${1:?usage: cli.sh SCMP-RUN-SEAM ESCAPE-PY AUDIT-PY}
ESC=${2:?usage: cli.sh SCMP-RUN-SEAM ESCAPE-PY AUDIT-PY}
AUDIT=${3:?usage: cli.sh SCMP-RUN-SEAM ESCAPE-PY AUDIT-PY}
S=$SCMP_RUN
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
LC_ALL=C
export LC_ALL
PY=/usr/bin/python3
NOBODY="setpriv --reuid 65534 --regid 65534 --clear-groups"


# The test directory: readable by uid 65534, with one directory each user
# may write.
chmod 755 "$TAP_TMP"
P=$TAP_TMP/p
mkdir "$P" "$TAP_TMP/w" "$TAP_TMP/other" "$TAP_TMP/secret"
# sticky and writable by all: the sandboxed root has no CAP_DAC_OVERRIDE,
# and a denial must come from Landlock, not from the file mode
chmod 1777 "$TAP_TMP/w" "$TAP_TMP/other"
echo hidden >"$TAP_TMP/secret/file"
chmod 755 "$TAP_TMP/secret"
chmod 644 "$TAP_TMP/secret/file"

# prof NAME: the profile from standard input after an allow-all [filter],
# as $P/NAME.ini; $P/NAME-root.ini adds user = root (run mode as root
# refuses to keep uid 0 silently).
prof() {
	{
		printf '[filter]\ndefault-action = allow\n'
		cat
	} >"$P/$1.ini"
	{
		cat "$P/$1.ini"
		printf '[credentials]\nuser = root\n'
	} >"$P/$1-root.ini"
}

# launch WHO NAME CMD...: run CMD under profile NAME as WHO (root or nobody)
launch() {
	_who=$1
	_name=$2
	shift 2
	if [ "$_who" = root ]; then
		run "$S" -p "$P/$_name-root.ini" "$@"
	else
		run $NOBODY "$S" -p "$P/$_name.ini" "$@"
	fi
}

prof plain </dev/null
ABI=$("$S" -p "$P/plain.ini" --check | sed -n 's/^landlock: kernel: Landlock ABI //p')

# What the command needs to start: the programs and their libraries.
SYS='[landlock]
read-exec = /usr /bin? /lib? /lib64? /sbin?
read = /etc/ld.so.cache?'

# ---- --check and -v show the ABI and what is enforced ----

if [ -z "$ABI" ]; then
	skip "the kernel has no Landlock"
	done_testing
	exit
fi
ok 0 "--check names the kernel's Landlock ABI ($ABI)"

printf '%s\nwrite = %s\n' "$SYS" "$TAP_TMP/w" | prof fs
run "$S" -p "$P/fs.ini" --check
status_is 0 "--check of a [landlock] profile"
like "$OUT" "landlock: mode: best-effort" "--check: the mode"
like "$OUT" "landlock: filesystem: only the listed paths" "--check: the filesystem is restricted"
cp "$OUT" "$TAP_TMP/check-fs"
like "$OUT" "landlock: ptrace and /proc/PID/mem of processes outside the domain: denied" \
	"--check: ptrace and /proc/PID/mem"

run "$S" -v -p "$P/fs-root.ini" true
status_is 0 "-v run"
like "$ERR" "scmp-run: landlock: kernel: Landlock ABI $ABI" "-v: the ABI before the command runs"
like "$ERR" "scmp-run: landlock: scope: signal" "-v: the default scope"

# ---- filesystem: write paths, unlisted directories ----

for who in root nobody; do
	w=$TAP_TMP/w
	launch $who fs sh -c "echo x >$w/ok && cat $w/ok"
	status_is 0 "$who: writing inside a write path"
	is "$(cat "$OUT")" x "$who: and reading it back"

	launch $who fs sh -c "echo x >$TAP_TMP/other/f"
	is "$RC" 2 "$who: writing outside the write paths fails"
	like "$ERR" "Permission denied" "$who: with EACCES"
	[ ! -e "$TAP_TMP/other/f" ]
	ok $? "$who: and nothing was written"

	launch $who fs cat "$TAP_TMP/secret/file"
	is "$RC" 1 "$who: reading a file in an unlisted directory fails"
	like "$ERR" "Permission denied" "$who: with EACCES"
	launch $who fs ls "$TAP_TMP/secret"
	is "$RC" 2 "$who: listing an unlisted directory fails"
	like "$ERR" "Permission denied" "$who: with EACCES"
	rm -f "$w/ok"
done

# ---- a link planted below a write path on an earlier run ----

# Below a path the command may make links in, none is followed: a run
# could put one to anywhere (here the secret directory) in the place of a
# listed path, and the next run's rule would grant what it leads to.
job=$TAP_TMP/job
mkdir -m 1777 "$job"
printf '%s\nwrite = %s\nread = %s/tools?\n' "$SYS" "$job" "$job" | prof planted
for who in root nobody; do
	launch $who planted ln -s "$TAP_TMP/secret" "$job/tools"
	status_is 0 "$who: a run may make a link below its write path"
	launch $who planted cat "$job/tools/file"
	status_is 125 "$who: the next run refuses the profile"
	like "$ERR" "Too many levels of symbolic links" "$who: ... the link is not followed"
	like "$ERR" "none is followed: the command may have made it on an earlier run" \
		"$who: ... and says why"
	unlike "$OUT" hidden "$who: nothing of what the link leads to was read"
	rm -f "$job/tools"
done
ln -s "$TAP_TMP/secret" "$job/tools"
run "$S" -p "$P/planted.ini" --check
like "$ERR" "landlock: a symbolic link is on the way to '$job/tools'" "--check: warns of the link"
rm -f "$job/tools"
# 'write = .' makes links in the working directory as much as its path does
printf '%s\nwrite = .\nread = %s/tools?\n' "$SYS" "$job" | prof planted-dot
for who in root nobody; do
	(cd "$job" && launch $who planted-dot ln -s "$TAP_TMP/secret" tools &&
		echo "$RC" >"$TAP_TMP/rc")
	is "$(cat "$TAP_TMP/rc")" 0 "$who: a run may make a link below '.'"
	(cd "$job" && launch $who planted-dot cat "$job/tools/file" &&
		echo "$RC" >"$TAP_TMP/rc")
	is "$(cat "$TAP_TMP/rc")" 125 "$who: the next run in that directory refuses the profile"
	like "$ERR" "Too many levels of symbolic links" "$who: ... the link below '.' is not followed"
	unlike "$OUT" hidden "$who: nothing of what the link below '.' leads to was read"
	rm -f "$job/tools"
done
ln -s "$TAP_TMP/secret" "$job/tools"
(cd "$job" && run "$S" -p "$P/planted-dot.ini" --check)
like "$ERR" "landlock: a symbolic link is on the way to '$job/tools'" \
	"--check: warns of a link below '.'"
# '.' is compared by identity: a removed working directory needs no path
mkdir "$TAP_TMP/gone"
(cd "$TAP_TMP/gone" && rmdir "$TAP_TMP/gone" && run "$S" -p "$P/planted-dot-root.ini" true &&
	echo "$RC" >"$TAP_TMP/rc")
is "$(cat "$TAP_TMP/rc")" 0 "a removed working directory with 'write = .': runs"
rm -f "$job/tools"
mkdir -m 755 "$job/tools" && echo tool >"$job/tools/file" && chmod 644 "$job/tools/file"
launch nobody planted cat "$job/tools/file"
status_is 0 "a directory below a write path: accepted"
is "$(cat "$OUT")" tool "... and its rule applies"

# Below a write path is decided by the directories reached, not by how a
# path is spelled: a link above every write path that leads into one (or a
# write path spelled through such a link) takes a rule into the write
# directory all the same, where no link is followed.
app=$TAP_TMP/app
mkdir -m 1777 "$app"
ln -s app "$TAP_TMP/srv"
printf '%s\nwrite = %s\nread = %s/x?\n' "$SYS" "$app" "$TAP_TMP/srv" | prof alias-read
printf '%s\nwrite = %s\nread = %s/x?\n' "$SYS" "$TAP_TMP/srv" "$app" | prof alias-write
for name in alias-read alias-write; do
	[ "$name" = alias-read ] && rule=$TAP_TMP/srv/x || rule=$app/x
	for who in root nobody; do
		[ "$who" = root ] && file=$P/$name-root.ini || file=$P/$name.ini
		launch $who $name ln -s "$TAP_TMP/secret" "$app/x"
		status_is 0 "$name, $who: a run may make a link in its write directory"
		launch $who $name cat "$rule/file"
		status_is 125 "$name, $who: the next run refuses the profile"
		like "$ERR" "$file:7: error: landlock: opening '$rule' failed: Too many levels of symbolic links" \
			"$name, $who: ... the link is not followed, located at the rule"
		like "$ERR" "none is followed: the command may have made it on an earlier run" \
			"$name, $who: ... and says why"
		unlike "$OUT" hidden "$name, $who: nothing of what the link leads to was read"
		rm -f "$app/x"
	done
	ln -s "$TAP_TMP/secret" "$app/x"
	run "$S" -p "$P/$name.ini" --check
	like "$ERR" "landlock: a symbolic link is on the way to '$rule'" "$name: --check warns of the link"
	rm -f "$app/x"
done
# Links above every write path are followed: relative, with '..', into a
# write directory to a real directory, and a /proc link.
mkdir -m 755 "$app/tools" && echo tool >"$app/tools/file" && chmod 644 "$app/tools/file"
ln -s "../${TAP_TMP##*/}/secret" "$TAP_TMP/up"
printf '%s\nwrite = %s\nread = %s/up %s/srv/tools\ndevices = /dev/stdout\n' \
	"$SYS" "$app" "$TAP_TMP" "$TAP_TMP" | prof above
for who in root nobody; do
	launch $who above cat "$TAP_TMP/up/file" "$TAP_TMP/srv/tools/file"
	status_is 0 "$who: links above every write path are followed"
	is "$(cat "$OUT")" "hidden
tool" "$who: ... and their rules apply"
done
ln -s "$app" "$TAP_TMP/abs"
launch nobody above cat "$TAP_TMP/abs/tools/file"
status_is 0 "an absolute link above every write path is followed"
# A /proc link at the end may lead where no path does: the kernel follows
# it (a pipe, which takes no rule)
run sh -c '{ "$0" -p "$1" true; echo $? >"$2"; } | cat' "$S" "$P/above-root.ini" "$TAP_TMP/rc"
is "$(cat "$TAP_TMP/rc")" 125 "/dev/stdout to a pipe with a write path: refused"
like "$ERR" "$P/above-root.ini:8: error: landlock: adding the rule for '/dev/stdout' failed" \
	"... the kernel followed the /proc link to the pipe"
ln -s loop "$TAP_TMP/loop"
printf '%s\nwrite = %s\nread = %s/loop\n' "$SYS" "$app" "$TAP_TMP" | prof loop
launch root loop true
status_is 125 "a link loop above every write path: refused"
like "$ERR" "$P/loop-root.ini:7: error: landlock: opening '$TAP_TMP/loop' failed: Too many levels of symbolic links" \
	"... located at its line"
unlike "$ERR" "none is followed" "... and not taken for a link the command made"
# A link whose target, with what follows it, is longer than a path: the
# walk cannot resolve it, so the profile is refused (the kernel alone
# would follow it, as a profile without a write path does)
ln -s "$("$PY" -c 'print("./" * 2047 + ".")')" "$TAP_TMP/long"
printf '%s\nwrite = %s\nread = %s/long/secret\n' "$SYS" "$app" "$TAP_TMP" | prof long
launch root long true
status_is 125 "a link too long to walk: refused"
like "$ERR" "$P/long-root.ini:7: error: landlock: opening '$TAP_TMP/long/secret' failed: File name too long" \
	"... located at its line"
printf '%s\nread = %s/long/secret\n' "$SYS" "$TAP_TMP" | prof long-nowrite
launch root long-nowrite true
status_is 0 "near miss: without a write path the kernel follows it"
# Without openat2(2) (an outer filter answers ENOSYS) each component is
# looked at: the same link is refused, the same links are followed.
printf '[errno(ENOSYS)]\nsyscalls = openat2\n[landlock]\nmode = off\n' | prof no-openat2
ln -s "$TAP_TMP/secret" "$app/x"
run $NOBODY "$S" -p "$P/no-openat2.ini" "$S" -p "$P/alias-read.ini" cat "$TAP_TMP/srv/x/file"
is "$RC" 125 "no openat2: a link in a write directory is refused (125)"
like "$ERR" "$P/alias-read.ini:7: error: landlock: opening '$TAP_TMP/srv/x' failed: Too many levels of symbolic links" \
	"no openat2: ... located at the rule"
unlike "$OUT" hidden "no openat2: ... and nothing of what it leads to was read"
rm -f "$app/x"
run $NOBODY "$S" -p "$P/no-openat2.ini" "$S" -p "$P/above.ini" cat "$TAP_TMP/up/file" \
	"$TAP_TMP/srv/tools/file"
status_is 0 "no openat2: links above every write path are followed"
is "$(cat "$OUT")" "hidden
tool" "no openat2: ... and their rules apply"
# An outer filter that answers EPERM for openat2 (as container profiles
# do for calls they do not know) is told from a path refused with EPERM:
# the paths are opened as without openat2, and the rules are in force.
printf '[errno(EPERM)]\nsyscalls = openat2\n[landlock]\nmode = off\n' | prof eperm-openat2
EPERM_OUTER="$S -p $P/eperm-openat2.ini"
run $NOBODY $EPERM_OUTER "$S" -p "$P/fs.ini" sh -c "echo x >$TAP_TMP/w/ok && cat $TAP_TMP/w/ok"
status_is 0 "openat2 refused with EPERM: the command runs"
is "$(cat "$OUT")" x "openat2 refused with EPERM: ... writing in the write path works"
rm -f "$TAP_TMP/w/ok"
run $NOBODY $EPERM_OUTER "$S" -p "$P/fs.ini" sh -c "echo x >$TAP_TMP/other/f"
is "$RC" 2 "openat2 refused with EPERM: writing outside the write paths fails"
like "$ERR" "Permission denied" "openat2 refused with EPERM: ... with EACCES"
run $NOBODY $EPERM_OUTER "$S" -p "$P/fs.ini" cat "$TAP_TMP/secret/file"
is "$RC" 1 "openat2 refused with EPERM: reading an unlisted directory fails"
run $NOBODY $EPERM_OUTER "$S" -p "$P/above.ini" cat "$TAP_TMP/up/file" "$TAP_TMP/srv/tools/file"
status_is 0 "openat2 refused with EPERM: links above every write path are followed"
is "$(cat "$OUT")" "hidden
tool" "openat2 refused with EPERM: ... and their rules apply"
ln -s "$TAP_TMP/secret" "$app/x"
run $NOBODY $EPERM_OUTER "$S" -p "$P/alias-read.ini" cat "$TAP_TMP/srv/x/file"
is "$RC" 125 "openat2 refused with EPERM: a link in a write directory is refused (125)"
like "$ERR" "$P/alias-read.ini:7: error: landlock: opening '$TAP_TMP/srv/x' failed: Too many levels of symbolic links" \
	"openat2 refused with EPERM: ... located at the rule"
like "$ERR" "none is followed: the command may have made it on an earlier run" \
	"openat2 refused with EPERM: ... and says why"
unlike "$OUT" hidden "openat2 refused with EPERM: ... and nothing of what it leads to was read"
rm -f "$app/x"
rm -rf "$app/tools"
# A command left running from an earlier run swaps a directory in its
# write directory with a link to the secret directory, over and over
# (renameat2(2) RENAME_EXCHANGE): a rule path through that directory must
# never be opened through the link, also when the link appears after the
# path was looked at. Each try that does not fail with ELOOP opened the
# directory, so only the rule on the secret file can let cat read it.
mkdir -m 755 "$app/flip" && echo decoy >"$app/flip/file" && chmod 644 "$app/flip/file"
ln -s "$TAP_TMP/secret" "$app/flop"
printf '%s\nwrite = %s\nread = %s/flip/file\n' "$SYS" "$app" "$app" | prof flip
"$PY" -c '
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = os.fsencode(sys.argv[1]), os.fsencode(sys.argv[2])
while libc.renameat2(-100, a, -100, b, 2) == 0:
	pass
sys.exit("renameat2: " + os.strerror(ctypes.get_errno()))' "$app/flip" "$app/flop" &
swapper=$!
leaked=0
tries=0
while [ $tries -lt 300 ] && [ $leaked = 0 ]; do
	run $NOBODY "$S" -p "$P/no-openat2.ini" "$S" -p "$P/flip.ini" cat "$TAP_TMP/secret/file"
	[ "$RC" != 0 ] || leaked=1
	tries=$((tries + 1))
done
kill "$swapper"
wait "$swapper" 2>/dev/null
is "$leaked" 0 "no openat2: a directory swapped with a link meanwhile is not followed ($tries tries)"
rm -rf "$app/flip" "$app/flop"

# execute is checked by execve(2) alone: the dynamic loader maps a program
# it may read, and runs it inside its own process (scmp-run.ini(5)
# LANDLOCK, Rights: mapping a file executable is not confined)
LD=$("$PY" -c '
import struct
d = open("/bin/echo", "rb").read()
if d[4] == 2 and d[5] == 1:  # 64-bit little-endian
    off, size, n = struct.unpack_from("<Q", d, 32)[0], *struct.unpack_from("<HH", d, 54)
    for i in range(n):
        h = off + i * size
        if struct.unpack_from("<I", d, h)[0] == 3:  # PT_INTERP
            o, l = struct.unpack_from("<Q", d, h + 8)[0], struct.unpack_from("<Q", d, h + 32)[0]
            print(d[o : o + l - 1].decode())
')
if [ -n "$LD" ] && [ -x "$LD" ]; then
	cp /bin/echo "$TAP_TMP/w/prog"
	chmod 755 "$TAP_TMP/w/prog"
	for who in root nobody; do
		launch $who fs "$TAP_TMP/w/prog" ran
		is "$RC" 126 "$who: executing a program in a write path fails"
		launch $who fs "$LD" "$TAP_TMP/w/prog" ran
		status_is 0 "$who: the loader maps and runs it all the same"
		is "$(cat "$OUT")" ran "$who: ... and the program ran"
	done
	rm -f "$TAP_TMP/w/prog"
else
	skip "no 64-bit little-endian dynamic loader found"
fi
run "$S" -p "$P/fs.ini" --check
like "$OUT" "landlock: filesystem: mapping a file executable is not restricted" \
	"--check: mapping a file executable is not restricted"

# connect(2) to a Unix socket by its path asks Landlock for no right: it
# is reached outside the paths, as scmp-run.ini(5) LANDLOCK, Paths says,
# and --check says so
like "$TAP_TMP/check-fs" \
	"landlock: filesystem: connecting to a Unix socket by its path is not restricted" \
	"--check: a Unix socket by its path is not restricted"
"$PY" -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(1)
print("ready", flush=True)
s.settimeout(20)
c, _ = s.accept()
print(c.recv(16).decode(), flush=True)
' "$TAP_TMP/secret/sock" >"$TAP_TMP/sock.out" &
srv=$!
i=0
while ! grep -q ready "$TAP_TMP/sock.out" && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
chmod 666 "$TAP_TMP/secret/sock"
launch nobody fs "$PY" -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.send(b"reached")
' "$TAP_TMP/secret/sock"
status_is 0 "nobody: connecting to a Unix socket in an unlisted directory works"
wait $srv
like "$TAP_TMP/sock.out" reached "... and the server got the message"
rm -f "$TAP_TMP/secret/sock"

# The supervised modes deny nothing in the filter, but the [landlock]
# domain is entered as in run mode (scmp-run(1) --permissive): the paths
# stay confined, and the banner says so rather than "nothing is denied".
for mode in --permissive --learn; do
	args=$mode
	[ $mode = --learn ] && args="--learn $TAP_TMP/learned.ini"
	run "$S" $args -p "$P/fs-root.ini" cat "$TAP_TMP/secret/file"
	is "$RC" 1 "$mode: [landlock] still denies a path outside the rules"
	like "$ERR" "Permission denied" "$mode: with EACCES"
	like "$ERR" "$mode: the filter denies nothing; [landlock] still confines the command" \
		"$mode: the banner says [landlock] still applies"
	unlike "$ERR" "nothing is denied" "$mode: and does not claim that nothing is denied"
done
run "$S" --permissive -p "$P/plain-root.ini" true
like "$ERR" "--permissive: the filter denies nothing, this is not a sandbox" \
	"--permissive: no [landlock] key, no note about it"
rm -f "$TAP_TMP/learned.ini"

# '.' is the directory at launch
printf '%s\nwrite = .\n' "$SYS" | prof dot
for who in root nobody; do
	(cd "$TAP_TMP/w" && launch $who dot sh -c 'echo y >here' && echo "$RC" >"$TAP_TMP/rc")
	is "$(cat "$TAP_TMP/rc")" 0 "$who: '.' is the launch directory: writing there works"
	[ -e "$TAP_TMP/w/here" ]
	ok $? "$who: and the file exists"
	(cd "$TAP_TMP/w" && launch $who dot sh -c "echo y >$TAP_TMP/other/there" &&
		echo "$RC" >"$TAP_TMP/rc")
	is "$(cat "$TAP_TMP/rc")" 2 "$who: '.' does not open other directories"
	rm -f "$TAP_TMP/w/here"
done
(cd "$TAP_TMP/w" && "$S" -p "$P/dot.ini" --explain-path "$TAP_TMP/w/x" write >"$OUT")
is "$(cat "$OUT")" "$TAP_TMP/w/x: write allowed by $P/dot.ini:6 (creating it: make-reg and write-file on its directory)" \
	"--explain-path: '.' is the current directory, named by its line"
run "$S" -p "$P/dot.ini" --explain-path /etc/passwd
status_is 0 "--explain-path: denied is exit 0"
is "$(cat "$OUT")" "/etc/passwd: read denied (no rule covers it)" "--explain-path: denied"
run "$S" -p "$P/dot.ini" --explain-path /usr/bin/true exec
is "$(cat "$OUT")" "/usr/bin/true: exec allowed by $P/dot.ini:4" "--explain-path: exec"
# scmp-run(1) DIAGNOSTICS: the profile's file name and PATH are escaped
ESCINI=$(printf '%s/e\033[31mX.ini' "$P")
cp "$P/dot.ini" "$ESCINI"
run "$S" -p "$ESCINI" --explain-path "$(printf '/usr/bin/\033]0;t')" exec
is "$(cat "$OUT")" "/usr/bin/\\x1b]0;t: exec allowed by $P/e\\x1b[31mX.ini:4" \
	"--explain-path: the path and the file name are escaped"
rm -f "$ESCINI"
run "$S" -p "$P/dot.ini" --explain-path /etc append
is "$RC" 2 "--explain-path: an unknown access is a usage error"
run "$S" -p "$SRCDIR/tests/profiles/bad/unknown-section.ini" --explain-path /etc
is "$RC" 1 "--explain-path: a profile error is exit 1"

# ---- --explain-path and the kernel agree: the rights an access needs
# follow what the path is (scmp-run.ini(5) LANDLOCK, "Explaining a path") ----

# devices on a directory grants reading and writing its files, not listing
# it (read-dir), creating in it (make-reg) or truncating (truncate); a
# write key above a devices key grants make-reg where devices grants
# write-file. Lines: 6 devices, 7 write, 8 devices.
LL=$TAP_TMP/ll
mkdir -p "$LL/d" "$LL/w/dev"
echo x >"$LL/d/f"
echo x >"$LL/w/f"
printf '%s\ndevices = %s /dev/null\nwrite = %s\ndevices = %s\n' "$SYS" "$LL/d" "$LL/w" \
	"$LL/w/dev" | prof kinds
K=$P/kinds.ini

# explained PATH ACCESS LINE: what --explain-path prints for PATH
explained() {
	run "$S" -p "$K" --explain-path "$1" "$2"
	is "$(cat "$OUT")" "$1: $2 $3" "--explain-path ${1#"$LL"/} $2: $3"
}

# kernel WANT CMD...: CMD run under the profile as root gives status WANT,
# and when WANT is not 0, EACCES from Landlock
kernel() {
	_want=$1
	shift
	launch root kinds "$@"
	is "$RC" "$_want" "the kernel agrees: $*"
	[ "$_want" = 0 ] || like "$ERR" "Permission denied" "... with EACCES"
}

explained "$LL/d" read "denied (no rule grants read-dir)"
kernel 2 ls "$LL/d"
explained "$LL/d/f" read "allowed by $K:6"
kernel 0 cat "$LL/d/f"
explained "$LL/d/new" write "denied (creating it: no rule grants make-reg on its directory)"
kernel 1 touch "$LL/d/new"
[ ! -e "$LL/d/new" ]
ok $? "and nothing was created"
explained "$LL/d" write "denied (creating a file in it: no rule grants make-reg)"
kernel 2 sh -c "echo y >$LL/d/new"
explained /dev/null write "allowed by $K:6"
kernel 0 sh -c 'echo y >/dev/null'
if [ "$ABI" -ge 3 ]; then
	explained "$LL/d/f" write "allowed by $K:6; truncating it denied (no rule grants truncate)"
	kernel 0 sh -c "echo y >>$LL/d/f"
	kernel 2 sh -c "echo y >$LL/d/f"
	is "$(cat "$LL/d/f")" "$(printf 'x\ny')" "appended, not truncated"
	explained "$LL/w/f" write "allowed by $K:7; truncating it allowed by $K:7"
	kernel 0 sh -c "echo y >$LL/w/f"
else
	skip "Landlock ABI $ABI has no truncate right"
fi
explained "$LL/w/dev/new" write \
	"allowed (creating it: make-reg on its directory by $K:7, write-file by $K:8)"
kernel 0 touch "$LL/w/dev/new"
explained "$LL/w/dev" write \
	"allowed (creating a file in it: make-reg by $K:7, write-file by $K:8)"
kernel 0 sh -c "echo y >$LL/w/dev/other"
explained "$LL/w/new" write \
	"allowed by $K:7 (creating it: make-reg and write-file on its directory)"
kernel 0 sh -c "echo y >$LL/w/new"
explained "$LL/other" write "denied (creating it: no rule covers its directory)"
kernel 2 sh -c "echo y >$LL/other"

# what the path is cannot be told: a usage error, nothing printed
ln -s loop "$LL/loop"
run "$S" -p "$K" --explain-path "$LL/loop" write
is "$RC" 2 "--explain-path: a path stat() cannot follow is a usage error"
like "$ERR" "error: cannot tell what '$LL/loop' is: stat failed: Too many levels of symbolic links" \
	"... which says why"
is "$(cat "$OUT")" "" "... and prints no verdict"

# a missing path: an error unless written with '?'
printf '[landlock]\nread = /nonexistent/scmp-run\n' | prof missing
for who in root nobody; do
	launch $who missing touch "$TAP_TMP/w/ran"
	is "$RC" 125 "$who: a missing path is an error (125)"
	like "$ERR" ".ini:4: error: landlock: opening '/nonexistent/scmp-run' failed" \
		"$who: located at its line"
	[ ! -e "$TAP_TMP/w/ran" ]
	ok $? "$who: and nothing ran"
done
printf '%s\nread = /nonexistent/scmp-run?\nwrite = %s\n' "$SYS" "$TAP_TMP/w" | prof optional
for who in root nobody; do
	launch $who optional touch "$TAP_TMP/w/ran"
	status_is 0 "$who: a missing path written with '?' is skipped"
	rm -f "$TAP_TMP/w/ran"
done

# ---- network: 127.0.0.1, bounded (each attempt times out after 5 s) ----

if [ "$ABI" -ge 4 ]; then
	port=$("$PY" -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	other=$((port == 65535 ? port - 1 : port + 1))
	printf '[landlock]\nbind-tcp = %s\nconnect-tcp = %s\n' "$port" "$port" | prof net
	for who in root nobody; do
		launch $who net "$PY" "$ESC" bind "$other"
		is "$(cat "$OUT")" EACCES "$who: binding an unlisted port fails with EACCES"
		launch $who net "$PY" "$ESC" bind "$port"
		is "$(cat "$OUT")" ok "$who: binding the listed port works"
		launch $who net "$PY" "$ESC" connect "$other"
		is "$(cat "$OUT")" EACCES "$who: connecting to an unlisted port fails with EACCES"
		# nothing listens there: the kernel's answer, not Landlock's
		launch $who net "$PY" "$ESC" connect "$port"
		is "$(cat "$OUT")" ECONNREFUSED "$who: connecting to the listed port reaches the stack"
		# An MPTCP socket speaks TCP to a TCP peer, but Landlock's TCP
		# rights cover IPPROTO_TCP sockets only: a TCP key refuses it
		# (scmp-run.ini(5) LANDLOCK, Network)
		launch $who net "$PY" "$ESC" mptcp-connect "$other"
		is "$(cat "$OUT")" EPROTONOSUPPORT \
			"$who: an MPTCP socket cannot connect to an unlisted port"
		launch $who net "$PY" "$ESC" mptcp-bind "$other"
		is "$(cat "$OUT")" EPROTONOSUPPORT "$who: an MPTCP socket cannot bind an unlisted port"
		# listen(2) on a socket never bound takes a port the kernel
		# picks, without bind(2): Landlock cannot see it, as the man
		# page and --check say
		launch $who net "$PY" "$ESC" listen
		is "$(cat "$OUT")" ok "$who: listen without bind takes a port past bind-tcp"
	done
	run "$S" -p "$P/net.ini" --check
	like "$OUT" \
		"landlock rule: $P/net.ini:4: errno(EPROTONOSUPPORT) socket if protocol in { IPPROTO_MPTCP, IPPROTO_SMC }" \
		"--check: the MPTCP and SMC rule, at the first TCP key"
	like "$OUT" "landlock rule: $P/net.ini:4: errno(EAFNOSUPPORT) socket if family == AF_SMC" \
		"--check: the AF_SMC rule, at the first TCP key"
	like "$OUT" "landlock: bind-tcp: listening on a socket never bound is not restricted" \
		"--check: listen without bind is not restricted"
	printf '[landlock]\nmode = off\nconnect-tcp = 80\n' | prof net-off
	run "$S" -p "$P/net-off.ini" --check
	unlike "$OUT" "IPPROTO_MPTCP" "--check: near miss: no MPTCP rule with mode = off"
	# near miss: without a TCP key, MPTCP is the kernel's to answer
	if [ "$("$PY" "$ESC" mptcp-bind 0)" = ok ]; then
		launch nobody plain "$PY" "$ESC" mptcp-bind 0
		is "$(cat "$OUT")" ok "no TCP key: an MPTCP socket binds"
	else
		skip "the kernel has no MPTCP"
	fi
else
	skip "Landlock ABI $ABI has no TCP rules"
fi

# ---- the same-user escapes: closed without any [landlock] section ----

printf '[landlock]\nmode = off\n' | prof off
printf '[landlock]\nscope = none\n' | prof noscope
# As uid 65534 on both sides: the same user, no capabilities, the case that
# seccomp alone leaves open.
for what in mem ptrace signal; do
	run $NOBODY "$PY" "$ESC" parent $what "$S" -p "$P/plain.ini"
	like "$OUT" "status 0" "$what: the command ran"
	if [ $what = mem ]; then
		like "$OUT" EACCES "/proc/PPID/mem: denied without a [landlock] section"
		like "$OUT" "buffer clean-buffer" "/proc/PPID/mem: the parent's memory is unchanged"
	elif [ $what = ptrace ]; then
		like "$OUT" EPERM "ptrace of the parent: denied without a [landlock] section"
	else
		like "$OUT" EPERM "kill of the parent: denied under the default scope signal"
		like "$OUT" "signalled no" "kill of the parent: no signal arrived"
	fi
	run $NOBODY "$PY" "$ESC" parent $what "$S" -p "$P/off.ini"
	like "$OUT" "ok" "$what: works again with mode = off"
	[ $what = mem ] && like "$OUT" "buffer HACKED-buffr" "/proc/PPID/mem: written with mode = off"
	[ $what = signal ] && like "$OUT" "signalled yes" "kill of the parent: arrives with mode = off"
done
# Past the domain (scmp-run.ini(5) SECURITY MODEL, ptrace and access to
# other processes): the parent's System V segment is attached and written,
# and its scheduling policy set to SCHED_IDLE; rules on the calls stop both.
printf '[errno(EPERM)]\nsyscalls = shmat\nsched_setscheduler = pid != 0\n' | prof no-reach
# past WHAT CALL CHANGED UNCHANGED: the domain lets CALL change the parent
# (its output shows CHANGED), the rule of no-reach.ini stops it (UNCHANGED)
past() {
	run $NOBODY "$PY" "$ESC" parent "$1" "$S" -p "$P/plain.ini"
	is "$(head -1 "$OUT")" ok "$1: the domain does not stop $2 on the parent"
	like "$OUT" "$3" "$1: the parent is changed ('$3')"
	run $NOBODY "$PY" "$ESC" parent "$1" "$S" -p "$P/no-reach.ini"
	is "$(head -1 "$OUT")" EPERM "$1: a rule on $2 stops it"
	like "$OUT" "$4" "$1: with the rule the parent is unchanged ('$4')"
}
past shm shmat "buffer HACKED-buffr" "buffer clean-buffer"
past sched sched_setscheduler "policy idle" "policy other"
# mode = off enters no domain and needs no Landlock: inside a sandbox that
# denies landlock_create_ruleset (EPERM), the profile still runs, while
# best-effort refuses to run unconfined (scmp-run.ini(5) LANDLOCK, Mode).
printf '[errno(EPERM)]\nsyscalls = landlock_create_ruleset\n[landlock]\nmode = off\n' |
	prof no-landlock
run $NOBODY "$S" -p "$P/no-landlock.ini" "$S" -p "$P/off.ini" echo ran
status_is 0 "mode = off: runs where probing Landlock fails with EPERM"
is "$(cat "$OUT")" ran "mode = off: the command ran"
run $NOBODY "$S" -p "$P/no-landlock.ini" "$S" -p "$P/plain.ini" echo ran
is "$RC" 125 "best-effort: probing Landlock fails with EPERM: 125"
like "$ERR" "probing the Landlock ABI failed" "best-effort: ... which says why"
is "$(cat "$OUT")" "" "best-effort: and nothing ran"
run $NOBODY "$S" -p "$P/no-landlock.ini" "$S" -v -p "$P/plain.ini" echo ran
like "$ERR" "landlock: kernel: asking for the Landlock ABI failed: Operation not permitted" \
	"-v: names the failed probe"
unlike "$ERR" "no Landlock" "-v: ... and does not call it a kernel without Landlock"
run $NOBODY "$S" -p "$P/no-landlock.ini" "$S" -p "$P/plain.ini" --check
like "$OUT" "landlock: kernel: asking for the Landlock ABI failed: Operation not permitted" \
	"--check: names the failed probe"
unlike "$OUT" "no Landlock" "--check: ... and does not call it a kernel without Landlock"
# An outer filter that fakes success for landlock_restrict_self (errno 0)
# would leave the command without its domain, reading what the paths
# keep from it: the fake is found (the call succeeds without a ruleset)
# and nothing runs.
printf '[errno(0)]\nsyscalls = landlock_restrict_self\n[landlock]\nmode = off\n' |
	prof fake-landlock
run $NOBODY "$S" -p "$P/fake-landlock.ini" "$S" -p "$P/fs.ini" cat "$TAP_TMP/secret/file"
is "$RC" 125 "a faked landlock_restrict_self: 125"
like "$ERR" "landlock_restrict_self() succeeded without a ruleset" "... which says why"
is "$(cat "$OUT")" "" "... and the file outside the paths was not read"
# A kernel without Landlock (ENOSYS): best-effort enters no domain, but a
# missing path is still an error, as --check says (scmp-run.ini(5)
# LANDLOCK, Paths).
printf '[errno(ENOSYS)]\nsyscalls = landlock_create_ruleset\n[landlock]\nmode = off\n' |
	prof enosys
run $NOBODY "$S" -p "$P/enosys.ini" "$S" -p "$P/missing.ini" touch "$TAP_TMP/w/ran"
is "$RC" 125 "no Landlock: a missing path is still an error (125)"
like "$ERR" "missing.ini:4: error: landlock: opening '/nonexistent/scmp-run' failed" \
	"no Landlock: located at its line"
[ ! -e "$TAP_TMP/w/ran" ]
ok $? "no Landlock: and nothing ran"
run $NOBODY "$S" -p "$P/enosys.ini" "$S" -p "$P/optional.ini" touch "$TAP_TMP/w/ran"
status_is 0 "no Landlock: near miss: an optional missing path, the command runs"
rm -f "$TAP_TMP/w/ran"
run $NOBODY "$PY" "$ESC" parent signal "$S" -p "$P/noscope.ini"
like "$OUT" "signalled yes" "scope = none: signals reach the parent"
run $NOBODY "$PY" "$ESC" parent mem "$S" -p "$P/noscope.ini"
like "$OUT" "buffer clean-buffer" "scope = none: the domain still guards /proc/PPID/mem"

# ---- require on an older kernel (the test build's seam) ----

printf '[landlock]\nmode = require\nbind-tcp = 8080\n' | prof require
SCMP_RUN_TEST_LANDLOCK_ABI=3 run "$SEAM" -p "$P/require-root.ini" touch "$TAP_TMP/w/ran"
is "$RC" 125 "require: a right the kernel lacks (ABI 3, bind-tcp) is 125"
like "$ERR" "require-root.ini:5: error: landlock: bind-tcp needs Landlock ABI 4" \
	"require: located at the key"
[ ! -e "$TAP_TMP/w/ran" ]
ok $? "require: and nothing ran"
SCMP_RUN_TEST_LANDLOCK_ABI=3 run "$SEAM" -p "$P/require.ini" --check
status_is 0 "require: --check warns, the kernel of the run may differ"
like "$ERR" "warning" "require: the warning"
printf '[landlock]\nbind-tcp = 8080\n' | prof besteffort
SCMP_RUN_TEST_LANDLOCK_ABI=3 run "$SEAM" -v -p "$P/besteffort-root.ini" true
status_is 0 "best-effort: runs on ABI 3"
like "$ERR" "landlock: kernel: Landlock ABI 3" "best-effort: -v names the simulated ABI"
like "$ERR" "bind-tcp: dropped" "best-effort: -v says what is dropped"
# ABI 1 has no refer right: renames across directories are always denied
# there, which "dropped" (not restricted) would contradict
SCMP_RUN_TEST_LANDLOCK_ABI=1 run "$SEAM" -p "$P/fs.ini" --check
like "$OUT" "landlock: filesystem: dropped, the kernel lacks them: truncate ioctl-dev" \
	"ABI 1: truncate and ioctl-dev are dropped"
unlike "$OUT" "lacks them: refer" "ABI 1: refer is not called dropped"
like "$OUT" "landlock: filesystem: refer is always denied on ABI 1" "ABI 1: refer is denied"
# log = yes asks ABI 7 to log the command's denials: refused by require
# before it, dropped by best-effort, and -v and --check say so
printf '[landlock]\nmode = require\nlog = yes\n' | prof log-require
SCMP_RUN_TEST_LANDLOCK_ABI=6 run "$SEAM" -p "$P/log-require-root.ini" touch "$TAP_TMP/w/ran"
is "$RC" 125 "require: log on ABI 6 is 125"
like "$ERR" "log-require-root.ini:5: error: landlock: log needs Landlock ABI 7; the kernel has ABI 6 (mode = require)" \
	"require: located at the log line"
[ ! -e "$TAP_TMP/w/ran" ]
ok $? "require: and nothing ran"
printf '%s\nlog = yes\n' "$SYS" | prof logged
SCMP_RUN_TEST_LANDLOCK_ABI=6 run "$SEAM" -v -p "$P/logged-root.ini" true
status_is 0 "best-effort: log on ABI 6 runs"
like "$ERR" "scmp-run: landlock: log: dropped, the kernel lacks it (needs ABI 7)" \
	"best-effort: -v says log is dropped"
SCMP_RUN_TEST_LANDLOCK_ABI=6 run "$SEAM" -p "$P/logged.ini" --check
like "$OUT" "landlock: log: dropped, the kernel lacks it (needs ABI 7)" \
	"best-effort: --check says log is dropped"
SCMP_RUN_TEST_LANDLOCK_ABI=3 run "$S" -v -p "$P/besteffort-root.ini" true
like "$ERR" "landlock: kernel: Landlock ABI $ABI" "the installed build ignores the seam"

# ---- log = yes: the command's denials in the kernel's audit log ----

printf '%s\n' "$SYS" | prof unlogged
if [ "$ABI" -lt 7 ]; then
	skip "log = yes: Landlock ABI $ABI logs no denial of the command (needs ABI 7)"
elif ! "$PY" "$AUDIT" usable; then
	skip "log = yes: audit is disabled and cannot be enabled here: the kernel logs no Landlock denial"
else
	run "$S" -p "$P/logged.ini" --check
	like "$OUT" "landlock: log: denials of the command are logged (audit)" \
		"log = yes: --check says denials are logged"
	run "$PY" "$AUDIT" run "$S" -p "$P/logged-root.ini" cat "$TAP_TMP/secret/file"
	is "$RC" 1 "log = yes: a read outside the paths fails"
	like "$OUT" "blockers=fs.read_file path=\"$TAP_TMP/secret/file\"" \
		"log = yes: the kernel logs the command's denial"
	run "$PY" "$AUDIT" run "$S" -p "$P/unlogged-root.ini" cat "$TAP_TMP/secret/file"
	is "$RC" 1 "near miss: without log the read fails as well"
	is "$(cat "$OUT")" "" "near miss: without log nothing of the command is logged"
fi

# ---- [limits]: applied before the command, read back inside it; only
# lowered (root here lacks CAP_SYS_RESOURCE) ----

printf '[limits]\nopen-files = 64:128\ncore = 0\nfile-size = 1M:2M\nnice = 0\n' | prof limits
for who in root nobody; do
	launch $who limits cat /proc/self/limits
	status_is 0 "$who: [limits] run"
	like "$OUT" "$(printf 'Max open files            64                   128')" \
		"$who: open-files read back"
	like "$OUT" "$(printf 'Max core file size        0                    0')" \
		"$who: core read back"
	like "$OUT" "$(printf 'Max file size             1048576              2097152')" \
		"$who: file-size read back (1024-based)"
	like "$OUT" "$(printf 'Max nice priority         0                    0')" \
		"$who: nice read back"
done
# raising a hard limit needs CAP_SYS_RESOURCE: uid 65534 has none
printf '[limits]\nopen-files = 100:200\n' | prof raise
run sh -c "ulimit -n 150 && exec $NOBODY $S -p $P/raise.ini touch $TAP_TMP/w/ran"
is "$RC" 125 "raising a hard limit without CAP_SYS_RESOURCE is 125"
like "$ERR" "raise.ini:4: error: setting the limit 'open-files' to 100:200 failed" \
	"raising a hard limit: the key and its line"
like "$ERR" "CAP_SYS_RESOURCE" "raising a hard limit: the hint"
[ ! -e "$TAP_TMP/w/ran" ]
ok $? "raising a hard limit: nothing ran"
# a limit below what the launcher's own steps need (the Landlock ruleset
# and /proc/self/status beside 0, 1 and 2): the hint names the key
printf '[limits]\nopen-files = 4\n' | prof few-fds
run $NOBODY $S -p $P/few-fds.ini touch $TAP_TMP/w/ran
is "$RC" 125 "open-files = 4: the launcher's steps fail, 125"
like "$ERR" "few-fds.ini:4: hint: open-files leaves scmp-run too few descriptors" \
	"open-files = 4: the hint names the key"
[ ! -e "$TAP_TMP/w/ran" ]
ok $? "open-files = 4: nothing ran"

# ---- bad input: a located error, and nothing runs ----

# bad NAME LINE MESSAGE SECTION: SECTION (printf format) is refused in run
# mode (125) and by --check (1), at LINE, and the command never runs.
bad() {
	# shellcheck disable=SC2059
	printf "$4" | prof "$1"
	run "$S" -p "$P/$1-root.ini" touch "$TAP_TMP/w/ran"
	is "$RC" 125 "$1: refused in run mode"
	like "$ERR" "$1-root.ini:$2: error: $3" "$1: located error"
	[ ! -e "$TAP_TMP/w/ran" ]
	ok $? "$1: nothing ran"
	run "$S" -p "$P/$1.ini" --check
	is "$RC" 1 "$1: refused by --check"
}
bad relative 4 "write: relative path" '[landlock]\nwrite = tmp\n'
bad unknown-right 4 "unknown right 'execute'" '[landlock]\nexecute = /usr\n'
bad port-range 4 "bind-tcp: port out of range" '[landlock]\nbind-tcp = 65536\n'
bad mode-value 4 "mode:" '[landlock]\nmode = strict\n'
bad scope-value 4 "scope:" '[landlock]\nscope = ipc\n'
bad limit-parse 4 "invalid limit 'stack = 8X'" '[limits]\nstack = 8X\n'
bad limit-order 4 "invalid limit 'cpu = 10:5': the hard limit is below the soft limit" '[limits]\ncpu = 10:5\n'
bad limit-key 4 "unknown key 'threads' in [limits]" '[limits]\nthreads = 5\n'
bad limit-nice 4 "invalid limit 'nice = 41': nice limit out of range" '[limits]\nnice = 41\n'

done_testing
