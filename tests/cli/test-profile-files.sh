#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Where a profile comes from and which files scmp-run agrees to read
# (scmp-run(1) PROFILE LOOKUP, TRUST; scmp-run.ini(5) [profile] include):
# no lookup in the current directory, includes by NAME and beside the real
# path, regular files only, standard input, the trust check as root, user
# groups nested deep, and no user string echoed to the terminal verbatim.
. "$(dirname "$0")/../tap.sh"
cd "$SRCDIR" || exit 99
LC_ALL=C
export LC_ALL

D=$TAP_TMP/files
mkdir -p "$D"
chmod 755 "$TAP_TMP"
# prof DESCRIPTION [EXTRA-LINES]: a valid profile on stdout
prof() {
	printf '[profile]\ndescription = %s\n[filter]\ndefault-action = allow\n%b' "$1" "${2:-}"
}
# Run mode as root needs the user named (scmp-run(1) Caller state).
AS_ROOT=
[ "$(id -u)" = 0 ] && AS_ROOT="--user root"
# elapsed_ok START: the time since START (date +%s) is at most 2 seconds
elapsed_ok() {
	[ $(($(date +%s) - $1)) -le 2 ]
}
# accepted_at_once FILE ACCEPTED FAST: --check of FILE succeeds (test
# ACCEPTED) within 2 seconds (test FAST)
accepted_at_once() {
	_t0=$(date +%s)
	run timeout 20 "$SCMP_RUN" -p "$1" --check
	status_is 0 "$2"
	elapsed_ok "$_t0"
	ok $? "$3"
}

# ---- -p NAME is never looked up in the current directory ----

evil=$D/evil-dir-with-untrusted-tool.ini
mkdir "$evil"
# A planted profile that denies everything: the command could not even start.
printf '[profile]\ndescription = planted\n[filter]\ndefault-action = kill-process\n' \
	>"$evil/untrusted-tool.ini"
cp "$evil/untrusted-tool.ini" "$evil/untrusted-tool"
(cd "$evil" && "$SCMP_RUN" -p untrusted-tool --check) >"$OUT" 2>"$ERR"
like "$OUT" "profile: $SRCDIR/profiles/untrusted-tool.ini" \
	"-p NAME in a directory holding NAME.ini: the profile of the search path"
unlike "$OUT" "planted" "-p NAME: the planted file is not read"
RC=0
# shellcheck disable=SC2086
(cd "$evil" && "$SCMP_RUN" $AS_ROOT -p untrusted-tool -- true) >"$OUT" 2>"$ERR" || RC=$?
status_is 0 "-p NAME in run mode: runs under the real profile, not the planted one"
RC=0
(cd "$evil" && env SCMP_RUN_PROFILE_PATH=".::untrusted-tool:$evil/../nowhere" \
	"$SCMP_RUN" -p untrusted-tool --check) >"$OUT" 2>"$ERR" || RC=$?
status_is 1 "relative and empty search path entries are ignored: not found"
like "$ERR" "error: profile 'untrusted-tool' not found" "not found: says so"
like "$ERR" "never in the current directory" "not found: the hint says where it never looks"
RC=0
(cd "$evil" && "$SCMP_RUN" -p ./untrusted-tool.ini --check) >"$OUT" 2>"$ERR" || RC=$?
like "$OUT" "description: planted" "'./NAME.ini' is a path: the file in the current directory"

# ---- include: a path beside the real file, or a NAME ----

mkdir "$D/lib" "$D/top"
prof "base from the search path" >"$D/lib/base.ini"
prof "base beside the file" >"$D/top/base.ini"
printf '[profile]\ninclude = base\n' >"$D/top/by-name.ini"
printf '[profile]\ninclude = base.ini\n' >"$D/top/by-path.ini"
printf '[profile]\ninclude = nosuch\n[filter]\ndefault-action = allow\n' >"$D/top/missing.ini"
run env SCMP_RUN_PROFILE_PATH="$D/lib" "$SCMP_RUN" -p "$D/top/by-name.ini" --check
like "$OUT" "description: base from the search path" "include = NAME: looked up like -p NAME"
run env SCMP_RUN_PROFILE_PATH="$D/lib" "$SCMP_RUN" -p "$D/top/by-path.ini" --check
like "$OUT" "description: base beside the file" "include = NAME.ini: a path beside the file"
RC=0
(cd "$D/top" && env SCMP_RUN_PROFILE_PATH="$D/nowhere" "$SCMP_RUN" -p ./by-name.ini --check) \
	>"$OUT" 2>"$ERR" || RC=$?
status_is 1 "include = NAME: never the file beside it, nor in the current directory"
like "$ERR" "./by-name.ini:2: error: include 'base': no profile of that name" \
	"include = NAME not found: located"
run env SCMP_RUN_PROFILE_PATH="$D/lib" "$SCMP_RUN" -p "$D/top/missing.ini" -- true
status_is 125 "include = NAME not found, run mode: 125"
like "$ERR" "missing.ini:2: error: include 'nosuch': no profile of that name" \
	"run mode: the same located error"

# A search path entry of PATH_MAX bytes or more cannot be opened, but may
# name a directory (here $D/top, padded with slashes) that holds the first
# match: the lookup ends with an error, never goes on to the next entry.
pad=$(printf '%4100s' '' | tr ' ' /)
run env SCMP_RUN_PROFILE_PATH="$pad$D/top:$D/lib" "$SCMP_RUN" -p base --check
status_is 1 "search path entry of PATH_MAX bytes: --check 1"
like "$ERR" "error: cannot look in directory '////" "... says where it cannot look"
like "$ERR" "for 'base': File name too long" "... and why"
unlike "$OUT" "base from the search path" "... not the profile of the next entry"
run env SCMP_RUN_PROFILE_PATH="$pad$D/top:$D/lib" "$SCMP_RUN" -p "$D/top/by-name.ini" -- true
status_is 125 "search path entry of PATH_MAX bytes, include = NAME, run mode: 125"
like "$ERR" "by-name.ini:2: error: cannot look in directory '////" "... located at the include"
run env SCMP_RUN_PROFILE_PATH="$pad$D/top:$D/lib" "$SCMP_RUN" --list-profiles
status_is 0 "search path entry of PATH_MAX bytes: --list-profiles skips it"
like "$OUT" "base" "... and lists the other directories"

# Through a symbolic link: relative includes start beside the target.
mkdir "$D/real" "$D/links"
printf '[profile]\ninclude = inc.ini\n' >"$D/real/real.ini"
prof "beside the target" >"$D/real/inc.ini"
prof "beside the link" >"$D/links/inc.ini"
ln -s ../real/real.ini "$D/links/link.ini"
printf '[profile]\ninclude = link.ini\n' >"$D/links/top.ini"
run "$SCMP_RUN" -p "$D/links/link.ini" --check
like "$OUT" "description: beside the target" "-p LINK: its includes resolve beside the target"
unlike "$OUT" "beside the link" "-p LINK: not beside the link"
run "$SCMP_RUN" -p "$D/links/top.ini" --check
like "$OUT" "description: beside the target" "an include through a link: its includes too"
# A linked directory: the file is no link, so its includes start in the
# directory as written, which is the target's.
ln -s real "$D/dirlink"
run "$SCMP_RUN" -p "$D/dirlink/real.ini" --check
like "$OUT" "description: beside the target" "-p DIRLINK/FILE: its includes resolve beside it"
like "$OUT" "profile: $D/dirlink/real.ini" "-p DIRLINK/FILE: named as written"

# ---- only regular files, refused before anything can block ----

mkfifo "$D/top/fifo.ini"
printf '[profile]\ninclude = fifo.ini\n[filter]\ndefault-action = allow\n' >"$D/top/inc-fifo.ini"
t0=$(date +%s)
run timeout 10 "$SCMP_RUN" -p "$D/top/inc-fifo.ini" --check
elapsed_ok "$t0"
ok $? "an include of a FIFO returns at once"
status_is 1 "an include of a FIFO: 1 (not a timeout)"
like "$ERR" "inc-fifo.ini:2: error: cannot open include 'fifo.ini' ($D/top/fifo.ini): a FIFO, not a regular file" \
	"an include of a FIFO: located, says why"
run timeout 10 "$SCMP_RUN" -p "$D/top/inc-fifo.ini" -- true
status_is 125 "an include of a FIFO in run mode: 125"
run timeout 10 "$SCMP_RUN" -p "$D/top/fifo.ini" --check
status_is 1 "-p FIFO: 1"
like "$ERR" "fifo.ini: error: cannot open profile: a FIFO, not a regular file" "-p FIFO: says why"
mkfifo "$D/lib/pipe.ini"
run timeout 10 env SCMP_RUN_PROFILE_PATH="$D/lib" "$SCMP_RUN" -p pipe --check
status_is 1 "-p NAME finding a FIFO: refused, not skipped"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$D/top/sock.ini"
run timeout 10 "$SCMP_RUN" -p "$D/top/sock.ini" --check
status_is 1 "-p SOCKET: 1"
like "$ERR" "sock.ini: error: cannot open profile: a socket, not a regular file" "-p SOCKET: says why"
printf '[profile]\ninclude = /dev/null\n[filter]\ndefault-action = allow\n' >"$D/top/inc-null.ini"
run timeout 10 "$SCMP_RUN" -p "$D/top/inc-null.ini" --check
like "$ERR" "inc-null.ini:2: error: cannot open include '/dev/null' (/dev/null): a character device, not a regular file" \
	"an include of a character device: refused"
if [ -c /dev/tty ]; then
	printf '[profile]\ninclude = /dev/tty\n[filter]\ndefault-action = allow\n' >"$D/top/inc-tty.ini"
	run timeout 10 "$SCMP_RUN" -p "$D/top/inc-tty.ini" --check
	like "$ERR" "a character device, not a regular file" "an include of /dev/tty: refused"
else
	skip "no /dev/tty here"
fi
# A regular file whose read fails: /proc/self/mem at offset 0 (unmapped).
run "$SCMP_RUN" -p /proc/self/mem --check
status_is 1 "a profile whose read fails: 1"
like "$ERR" "/proc/self/mem:1: error: read error: Input/output error" "a failed read: located, says why"
printf '[profile]\ninclude = ../lib/\n[filter]\ndefault-action = allow\n' >"$D/top/inc-dir.ini"
run "$SCMP_RUN" -p "$D/top/inc-dir.ini" --check
like "$ERR" "inc-dir.ini:2: error: cannot open include '../lib/'" "an include of a directory: located"
like "$ERR" "a directory, not a regular file" "an include of a directory: says why"

# JSON profiles (scmp-run.ini(5) OCI AND DOCKER PROFILES) are found and
# opened the same way.
printf '{"defaultAction": "SCMP_ACT_ALLOW"}\n' >"$D/lib/oci.json"
if "$SCMP_RUN" -p "$D/lib/oci.json" --check >/dev/null 2>&1; then
	cp "$D/lib/oci.json" "$evil/planted.json"
	RC=0
	(cd "$evil" && env SCMP_RUN_PROFILE_PATH="$D/lib" "$SCMP_RUN" -p planted.json --check) \
		>"$OUT" 2>"$ERR" || RC=$?
	status_is 1 "-p NAME.json: not from the current directory"
	run env SCMP_RUN_PROFILE_PATH="$D/lib" "$SCMP_RUN" -p oci.json --check
	like "$OUT" "profile: $D/lib/oci.json" "-p NAME.json: from the search path"
	mkfifo "$D/top/fifo.json"
	t0=$(date +%s)
	run timeout 10 "$SCMP_RUN" -p "$D/top/fifo.json" --check
	elapsed_ok "$t0"
	ok $? "-p FIFO.json returns at once"
	like "$ERR" "fifo.json: error: cannot open profile: a FIFO, not a regular file" \
		"-p FIFO.json: refused"
else
	skip "built without JSON profiles"
	skip "built without JSON profiles"
	skip "built without JSON profiles"
	skip "built without JSON profiles"
fi

# ---- -p -: the profile on standard input ----

run_in "$(prof 'from standard input')" "$SCMP_RUN" -p - --check
status_is 0 "-p -: read from standard input"
like "$OUT" "profile: <stdin>" "-p -: named <stdin>"
like "$OUT" "description: from standard input" "-p -: its keys"
RC=0
"$SCMP_RUN" -p - --check </ >"$OUT" 2>"$ERR" || RC=$?
status_is 1 "-p - from a directory: 1"
like "$ERR" "scmp-run: <stdin>: error: cannot read standard input: it is a directory" \
	"-p - from a directory: says so"
run_in "$(prof 'stdin' 'bogus = 1\n')" "$SCMP_RUN" -p - --check
status_is 1 "-p - with an error: 1"
like "$ERR" "scmp-run: <stdin>:5: error: unknown key 'bogus' in [filter]" \
	"-p -: errors located at <stdin>:LINE"
run_in "$(printf '[profile]\ninclude = base.ini\n[filter]\ndefault-action = allow\n')" \
	"$SCMP_RUN" -p - --check
status_is 1 "-p - including a relative path: 1"
like "$ERR" "<stdin>:2: error: include 'base.ini': a relative path has no directory" \
	"-p - including a relative path: located, says why"
run_in "$(printf '[profile]\ninclude = %s\n' "$D/top/base.ini")" "$SCMP_RUN" -p - --check
like "$OUT" "description: base beside the file" "-p - including an absolute path"
run_in "$(printf '[profile]\ninclude = base\n')" env SCMP_RUN_PROFILE_PATH="$D/lib" \
	"$SCMP_RUN" -p - --check
like "$OUT" "description: base from the search path" "-p - including a NAME"
# shellcheck disable=SC2086
run_in "$(printf '[filter]\ndefault-action = allow\n[errno(EPERM)]\nsyscalls = mkdir mkdirat\n')" \
	"$SCMP_RUN" $AS_ROOT -p - -- sh -c "mkdir '$D/made' 2>/dev/null; echo \$?"
status_is 0 "-p - in run mode: the command ran"
is "$(cat "$OUT")" "1" "-p - in run mode: under that filter (mkdir denied)"

# ---- user groups: a 1 MiB chain is a located error, not a crash ----

# gen_groups LAST: @g1 = @g2, @g2 = @g3 ... up to 1 MiB, the last one = LAST
gen_groups() {
	awk -v last="$1" 'BEGIN {
		print "[filter]\ndefault-action = allow\n[groups]"
		size = 50
		for (i = 1; size < 1048000; i++) {
			line = sprintf("@g%d = @g%d", i, i + 1)
			print line
			size += length(line) + 1
		}
		printf "@g%d = %s\n[allow]\nsyscalls = @g1\n", i, last
	}'
}
gen_groups read >"$D/chain.ini"
run sh -c 'ulimit -S -s 2048 && exec timeout 20 "$0" "$@"' "$SCMP_RUN" -p "$D/chain.ini" --check
status_is 1 "a 1 MiB group chain under ulimit -s 2048: 1, not a crash"
grep -q "^scmp-run: $D/chain.ini:[0-9]*: error: group '@g[0-9]*' nests user groups 17 levels deep (at most 16)" "$ERR"
ok $? "a 1 MiB group chain: a located error"
gen_groups @g1 >"$D/cycle.ini"
run sh -c 'ulimit -S -s 2048 && exec timeout 20 "$0" "$@"' "$SCMP_RUN" -p "$D/cycle.ini" --check
status_is 1 "a 1 MiB group cycle under ulimit -s 2048: 1"
like "$ERR" "cycle.ini:4: error: group '@g1' contains itself: @g1 -> @g2" \
	"a 1 MiB group cycle: located"
like "$ERR" "more) -> " "a 1 MiB group cycle: the middle of the chain is left out"
# 16 levels, each naming the next eight times: 8^16 paths, 16 groups.
awk 'BEGIN {
	print "[filter]\ndefault-action = allow\n[groups]"
	for (i = 1; i < 16; i++) {
		n = sprintf("@l%d", i + 1)
		printf "@l%d = %s %s %s %s %s %s %s %s\n", i, n, n, n, n, n, n, n, n
	}
	print "@l16 = read\n[allow]\nsyscalls = @l1"
}' >"$D/lattice.ini"
accepted_at_once "$D/lattice.ini" "a lattice of groups nested 16 deep: accepted" \
	"a lattice of groups: expanded once per group, at once"

# One key naming @known 54,000 times (continuation lines): its rules are
# made once, and the room for them is not asked for 54,000 times over.
awk 'BEGIN {
	print "[filter]\ndefault-action = allow\n[log]\nsyscalls = @known"
	for (i = 0; i < 2000; i++) {
		line = " "
		for (j = 0; j < 27; j++)
			line = line " @known"
		print line
	}
}' >"$D/repeat.ini"
accepted_at_once "$D/repeat.ini" "a key naming @known 54,000 times: accepted" "... at once"

# ---- no user string reaches the terminal verbatim ----

RLO=$(printf '\342\200\256')
CSI=$(printf '\302\233')
printf '[profile]\nversion = 1%s2\ninclude = x%s.ini\n[filter]\ndefault-action = allow\n' \
	"$RLO" "$CSI" >"$D/top/evil-inc.ini"
printf '[profile]\ninclude = evil-inc.ini\ndescription = a%sb%sc\n' "$RLO" "$CSI" \
	>"$D/top/evil.ini"
run "$SCMP_RUN" -p "$D/top/evil.ini" --check
status_is 1 "lines with U+202E: refused"
like "$ERR" "evil-inc.ini:2: error: character U+202E at byte 12" \
	"an included line with U+202E: refused where it is"
like "$ERR" "evil.ini:3: error: character U+202E at byte 16" "a line with U+202E: refused where it is"
unlike "$ERR" "$RLO" "no RIGHT-TO-LEFT OVERRIDE on the terminal"
unlike "$ERR" "$CSI" "no C1 CSI on the terminal"
# A file's name is the caller's, not a profile's: escaped where printed.
prof "odd name" >"$D/top/a${RLO}b${CSI}c.ini"
run "$SCMP_RUN" -p "$D/top/a${RLO}b${CSI}c.ini" --check
like "$OUT" 'a\u202eb\u009bc.ini' "--check: the file name escaped"
unlike "$OUT" "$RLO" "--check: no bidi override printed"
run "$SCMP_RUN" -p "$(printf '%s/top/no\033[2Jsuch.ini' "$D")" --check
like "$ERR" 'no\x1b[2Jsuch.ini: error: cannot open profile' "a file name with ESC: escaped"

# ---- trust: as root, files others could write are refused ----

if [ "$(id -u)" != 0 ]; then
	skip "trust checks: not root"
	done_testing
	exit $?
fi
T=$D/trust
mkdir -m 755 "$T" "$T/lib"
mkdir -m 777 "$T/open"
prof "trusted" >"$T/good.ini"
prof "lib profile" >"$T/lib/named.ini"
marker=$T/ran
# refused WHAT FILE WANT-IN-STDERR [ENV...]: --check 1, run mode 125 for
# the same reason, and the command did not run
refused() {
	_what=$1 _p=$2 _want=$3
	shift 3
	run env "$@" "$SCMP_RUN" -p "$_p" --check
	status_is 1 "$_what: --check 1"
	like "$ERR" "$_want" "$_what: located, says why"
	run env "$@" "$SCMP_RUN" --user root -p "$_p" -- touch "$marker"
	status_is 125 "$_what: run mode 125"
	like "$ERR" "$_want" "$_what: run mode says why"
	[ -e "$marker" ]
	ok $((! $?)) "$_what: the command did not run"
}
run "$SCMP_RUN" -p "$T/good.ini" --check
status_is 0 "root: a profile owned by root, mode 0644: accepted"
cp "$T/good.ini" "$T/open/good.ini"
run "$SCMP_RUN" -p "$T/open/good.ini" --check
status_is 0 "root: directories above a profile given by path are not checked"

cp "$T/good.ini" "$T/gw.ini" && chmod 664 "$T/gw.ini"
refused "root: a group-writable profile" "$T/gw.ini" \
	"$T/gw.ini: error: untrusted profile: writable by group or others (mode 0664)"
cp "$T/good.ini" "$T/other.ini" && chown nobody "$T/other.ini"
refused "root: a profile owned by another user" "$T/other.ini" \
	"$T/other.ini: error: untrusted profile: owned by uid $(id -u nobody), not by root or uid 0"
prof "world-writable include" >"$T/ww.ini" && chmod 666 "$T/ww.ini"
printf '[profile]\ninclude = ww.ini\n' >"$T/inc-ww.ini"
refused "root: a world-writable include" "$T/inc-ww.ini" \
	"$T/inc-ww.ini:2: error: untrusted include 'ww.ini' ($T/ww.ini): writable by group or others (mode 0666)"
# Refused before it is read: what an untrusted file includes is never
# opened, so a file only root may read cannot reach the messages.
printf 'secret line\n' >"$T/secret" && chmod 600 "$T/secret"
printf '[profile]\ninclude = %s/secret\n' "$T" >"$T/ww-inc.ini" && chmod 666 "$T/ww-inc.ini"
printf '[profile]\ninclude = ww-inc.ini\n' >"$T/inc-ww-inc.ini"
refused "root: a world-writable include of a root-only file" "$T/inc-ww-inc.ini" \
	"$T/inc-ww-inc.ini:2: error: untrusted include 'ww-inc.ini'"
unlike "$ERR" "secret line" "root: an untrusted include is not read"
ln -s "$T/secret" "$T/open/planted.ini"
refused "root: -p NAME, a link planted in a world-writable directory" planted \
	"$T/open: error: untrusted directory searched for profile 'planted'" \
	SCMP_RUN_PROFILE_PATH="$T/open"
unlike "$ERR" "secret line" "root: nothing is read from an untrusted directory"
cp "$T/lib/named.ini" "$T/open/named.ini"
refused "root: -p NAME from a world-writable directory" named \
	"$T/open: error: untrusted directory searched for profile 'named': writable by group or others (mode 0777)" \
	SCMP_RUN_PROFILE_PATH="$T/open"
refused "root: a world-writable directory searched before the one that has it" named \
	"$T/open: error: untrusted directory searched for profile 'named'" \
	SCMP_RUN_PROFILE_PATH="$T/open:$T/lib"
mkdir -m 775 "$T/group"
cp "$T/lib/named.ini" "$T/group/named.ini"
printf '[profile]\ninclude = named\n' >"$T/inc-named.ini"
refused "root: include = NAME from a group-writable directory" "$T/inc-named.ini" \
	"$T/inc-named.ini:2: error: untrusted directory '$T/group' searched for include 'named': writable by group or others (mode 0775)" \
	SCMP_RUN_PROFILE_PATH="$T/group"
run env SCMP_RUN_PROFILE_PATH="$T/lib" "$SCMP_RUN" -p named --check
status_is 0 "root: -p NAME from a directory owned by root, mode 0755: accepted"
# The directories on the way to one searched count too: whoever may write
# one of them could put another directory in the place of the next.
mkdir -m 755 "$T/theirs" && cp -r "$T/lib" "$T/theirs/lib" && chown nobody "$T/theirs"
refused "root: -p NAME below a directory another user owns" named \
	"$T/theirs: error: untrusted directory on the way to '$T/theirs/lib', searched for profile 'named': owned by uid $(id -u nobody), not by root or uid 0" \
	SCMP_RUN_PROFILE_PATH="$T/theirs/lib"
ln -s "$T/theirs/lib" "$T/via-link"
refused "root: -p NAME through a link to below a directory another user owns" named \
	"$T/theirs: error: untrusted directory on the way to '$T/via-link'" \
	SCMP_RUN_PROFILE_PATH="$T/via-link"
mkdir -m 757 "$T/open-above" && cp -r "$T/lib" "$T/open-above/lib"
refused "root: -p NAME below a directory others may write" named \
	"$T/open-above: error: untrusted directory on the way to '$T/open-above/lib', searched for profile 'named': writable by group or others (mode 0757)" \
	SCMP_RUN_PROFILE_PATH="$T/open-above/lib"
# A directory on the way whose name, links resolved, is longer than
# PATH_MAX: a chain of 250-byte names reached through two short links, the
# last but one writable by others. Its name cannot be told from its
# parent's, which the check has seen: the lookup ends there.
python3 - "$T" <<'EOP'
import os, sys
t = sys.argv[1]
def chain(fd, letter, n):
    names = []
    for i in range(n):
        name = '%s%02d' % (letter, i) + letter * 247
        os.mkdir(name, 0o755, dir_fd=fd)
        nfd = os.open(name, os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = nfd
        names.append(name)
    return fd, '/'.join(names)
os.mkdir(t + '/deep', 0o755)
d, rel_d = chain(os.open(t + '/deep', os.O_RDONLY), 'd', 14)
e, rel_e = chain(os.dup(d), 'e', 4)
os.fchmod(os.open('..', os.O_RDONLY, dir_fd=e), 0o777)
os.symlink(rel_e, 'L2', dir_fd=d)
os.symlink('deep/' + rel_d, t + '/L1')
with open(os.open('named.ini', os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=e), 'w') as f:
    f.write('[filter]\ndefault-action = allow\n')
EOP
refused "root: -p NAME through a directory whose name is longer than PATH_MAX" named \
	"error: cannot look in directory '$T/L1/L2' for 'named': File name too long" \
	SCMP_RUN_PROFILE_PATH="$T/L1/L2"
printf '[profile]\ninclude = named\n' >"$T/inc-theirs.ini"
refused "root: include = NAME below a directory another user owns" "$T/inc-theirs.ini" \
	"$T/inc-theirs.ini:2: error: untrusted directory '$T/theirs' on the way to '$T/theirs/lib', searched for include 'named'" \
	SCMP_RUN_PROFILE_PATH="$T/theirs/lib"
refused "root: below an untrusted directory, even where the searched one is missing" named \
	"$T/theirs: error: untrusted directory on the way to '$T/theirs/none'" \
	SCMP_RUN_PROFILE_PATH="$T/theirs/none:$T/lib"
mkdir -m 1777 "$T/sticky" && cp -r "$T/lib" "$T/sticky/lib"
run env SCMP_RUN_PROFILE_PATH="$T/sticky/lib" "$SCMP_RUN" -p named --check
status_is 0 "root: a sticky directory others may write, on the way: accepted"
run env SCMP_RUN_PROFILE_PATH="$T/sticky" "$SCMP_RUN" -p named --check
status_is 1 "root: ... but not as the directory searched"
# A name in a searched directory that cannot be examined (here a loop of
# links) may be the first match: the lookup ends, never goes on to the
# next directory.
mkdir -m 755 "$T/loops" && ln -s named.ini "$T/loops/named.ini"
refused "root: -p NAME, a loop of links where it is searched first" named \
	"error: cannot look in directory '$T/loops' for 'named': Too many levels of symbolic links" \
	SCMP_RUN_PROFILE_PATH="$T/loops:$T/lib"
if [ -s "$D/lib/oci.json" ] && "$SCMP_RUN" -p "$D/lib/oci.json" --check >/dev/null 2>&1; then
	cp "$D/lib/oci.json" "$T/gw.json" && chmod 664 "$T/gw.json"
	refused "root: a group-writable JSON profile" "$T/gw.json" \
		"$T/gw.json: error: untrusted profile: writable by group or others (mode 0664)"
	refused "root: -p NAME.json from a world-writable directory" gw.json \
		"$T/open: error: untrusted directory searched for profile 'gw.json'" \
		SCMP_RUN_PROFILE_PATH="$T/open:$T"
else
	skip "built without JSON profiles"
fi
run env SCMP_RUN_PROFILE_PATH="$T/lib" "$SCMP_RUN" -p "$T/inc-named.ini" --check
status_is 0 "root: include = NAME from a trusted directory: accepted"
run_in "$(prof 'piped')" "$SCMP_RUN" -p - --check
status_is 0 "root: -p - from a pipe: the caller's own input, accepted"
RC=0
"$SCMP_RUN" -p - --check <"$T/gw.ini" >"$OUT" 2>"$ERR" || RC=$?
status_is 1 "root: -p - from a group-writable file: refused like the file"
like "$ERR" "<stdin>: error: untrusted profile: writable by group or others" \
	"root: -p - from a file: says why"

# Unprivileged: checked when the profile switches credentials.
if ! command -v setpriv >/dev/null; then
	skip "setpriv (util-linux) is not installed: no unprivileged trust cases"
else
	AS_NOBODY="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	chmod 755 "$D"
	cp "$T/inc-ww.ini" "$T/inc-ww-creds.ini"
	printf '[credentials]\nuser = nobody\n' >>"$T/inc-ww-creds.ini"
	# shellcheck disable=SC2086
	run $AS_NOBODY "$SCMP_RUN" -p "$T/inc-ww.ini" --check
	status_is 0 "unprivileged, no credentials: files are not checked"
	like "$OUT" "trust: not checked (scmp-run does not run as root, holds no capability and switches no credentials)" \
		"unprivileged, no credentials: --check says why"
	# a capability is a privilege the profile decides over, as root's
	# (a systemd unit's AmbientCapabilities=)
	# shellcheck disable=SC2086
	run $AS_NOBODY --inh-caps +net_bind_service --ambient-caps +net_bind_service \
		"$SCMP_RUN" -p "$T/inc-ww.ini" --check
	status_is 1 "unprivileged with a capability: a world-writable include refused"
	like "$ERR" "untrusted include 'ww.ini'" "unprivileged with a capability: says which"
	chmod 644 "$T/ww.ini"
	# shellcheck disable=SC2086
	run $AS_NOBODY --inh-caps +net_bind_service --ambient-caps +net_bind_service \
		"$SCMP_RUN" -p "$T/inc-ww.ini" --check
	status_is 0 "unprivileged with a capability: trusted files accepted"
	like "$OUT" "(scmp-run holds capabilities)" "... and --check says why they were checked"
	chmod 666 "$T/ww.ini"
	# shellcheck disable=SC2086
	run $AS_NOBODY "$SCMP_RUN" -p "$T/inc-ww-creds.ini" --check
	status_is 1 "unprivileged, [credentials]: a world-writable include refused"
	like "$ERR" "untrusted include 'ww.ini'" "unprivileged, [credentials]: says which"
	prof "owned by nobody" "[credentials]\nuser = nobody\n" >"$T/mine.ini"
	chown nobody "$T/mine.ini"
	# shellcheck disable=SC2086
	run $AS_NOBODY "$SCMP_RUN" -p "$T/mine.ini" --check
	status_is 0 "unprivileged, [credentials]: a profile owned by the real uid is trusted"
	# a searched directory it may not search may hold the first match
	mkdir -m 700 "$T/closed" && cp "$T/lib/named.ini" "$T/closed/named.ini"
	# shellcheck disable=SC2086
	run env SCMP_RUN_PROFILE_PATH="$T/closed:$T/lib" $AS_NOBODY "$SCMP_RUN" -p named --check
	status_is 1 "unprivileged: -p NAME, a searched directory it may not search: refused"
	like "$ERR" "error: cannot look in directory '$T/closed' for 'named': Permission denied" \
		"unprivileged: ... says which, and why"
	cp "$T/mine.ini" "$T/open-above/lib/creds.ini"
	chown root "$T/open-above/lib/creds.ini"
	# shellcheck disable=SC2086
	run env SCMP_RUN_PROFILE_PATH="$T/open-above/lib" $AS_NOBODY "$SCMP_RUN" -p creds --check
	status_is 1 "unprivileged, [credentials]: -p NAME below a directory others may write"
	like "$ERR" "$T/open-above: error: untrusted directory on the way to '$T/open-above/lib'" \
		"unprivileged, [credentials]: ... names that directory"
fi

done_testing
