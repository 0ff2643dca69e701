#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The lint of --check (scmp-run.ini(5) LINT): every fixture of tests/cli/lint
# says at its end what --check must print: '; warn: LINE: TEXT' and
# '; hint: LINE: TEXT' lines (exactly these warnings, at FILE:LINE; line 0:
# the file alone; '; +TEXT' continues the line above), '; nowarn: ID' (no
# warning of that ID) and '; silenced: N'. Then --strict, and the warnings
# that depend on who runs scmp-run (root, capabilities).
. "$(dirname "$0")/../tap.sh"
cd "$SRCDIR" || exit 99

# expectations FILE: the '; warn:'... lines of FILE, continuations joined.
expectations() {
	awk '/^; \+/ { line = line " " substr($0, 4); next }
	     /^; (warn|hint|nowarn|silenced): / { if (line != "") print line; line = substr($0, 3); next }
	     END { if (line != "") print line }' "$1"
}

# located FILE LINE: "FILE:LINE", or "FILE" for line 0.
located() {
	if [ "$2" = 0 ]; then printf '%s' "$1"; else printf '%s:%s' "$1" "$2"; fi
}

check_fixture() {
	f=$1
	expectations "$f" >"$TAP_TMP/expects"
	run "$SCMP_RUN" -p "$f" --check
	good=0
	why=""
	[ "$RC" -eq 0 ] || { good=1; why="exit status $RC, want 0"; }
	grep -q '^profile: ' "$OUT" || { good=1; why="$why; no summary"; }
	n_warn=0
	silenced=0
	while IFS= read -r e; do
		kind=${e%%: *}
		rest=${e#*: }
		case $kind in
		warn | hint)
			line=${rest%%: *}
			text=${rest#*: }
			sev=warning
			[ "$kind" = hint ] && sev=hint
			[ "$kind" = warn ] && n_warn=$((n_warn + 1))
			want="scmp-run: $(located "$f" "$line"): $sev: $text"
			grep -qxF -- "$want" "$ERR" || { good=1; why="$why; missing '$want'"; }
			;;
		nowarn)
			grep -qF -- "[$rest]" "$ERR" && { good=1; why="$why; unexpected [$rest]"; }
			;;
		silenced) silenced=$rest ;;
		esac
	done <"$TAP_TMP/expects"
	got=$(grep -c '^scmp-run: .*: warning: ' "$ERR")
	[ "$got" -eq "$n_warn" ] || { good=1; why="$why; $got warnings, want $n_warn"; }
	if [ "$silenced" -gt 0 ]; then
		want="warnings: $n_warn ($silenced more silenced by lint comments)"
	else
		want="warnings: $n_warn"
	fi
	grep -qxF -- "$want" "$OUT" || { good=1; why="$why; no line '$want'"; }
	if ! ok $good "$f: --check warns as its expectations say"; then
		diag "$why" "stderr:"
		diag "$(cat "$ERR")"
	fi
	# --strict: the same warnings are errors.
	run "$SCMP_RUN" -p "$f" --check --strict
	if [ "$n_warn" -gt 0 ]; then
		s=""
		[ "$n_warn" -gt 1 ] && s=s
		status_is 1 "$f: --check --strict exits 1"
		like "$ERR" "scmp-run: error: --strict: $n_warn warning$s" "$f: --strict says why"
	else
		status_is 0 "$f: --check --strict exits 0 without warnings"
	fi
}

n=0
for f in tests/cli/lint/*.ini; do
	check_fixture "$f"
	n=$((n + 1))
done
[ "$n" -ge 15 ]
ok $? "every lint fixture was run ($n)"

# Every warning ID has a fixture that triggers it, and a near miss.
for id in io-uring ptrace proc-mem flag-equals arg-position shadowed unknown-optional other-abi \
	unknown-allow exit-denied; do
	grep -lF "[$id]" tests/cli/lint/*.ini | grep -qv near
	ok $? "$id: a fixture triggers it"
	grep -lxF "; nowarn: $id" tests/cli/lint/*-near*.ini >/dev/null
	ok $? "$id: a near-miss fixture must not trigger it"
done

# Every row of the flag-argument table (src/lint.c flag_args) names a real
# parameter, and an '==' deny rule on it is warned about.
sed -n 's/^\t{ "\([a-z0-9_]*\)", "\([a-z_]*\)" },$/\1 \2/p' src/lint.c >"$TAP_TMP/flag-args"
rows=0
while read -r sc param; do
	rows=$((rows + 1))
	printf '[filter]\ndefault-action = allow ; lint: allow io-uring\n' >"$TAP_TMP/flag.ini"
	arch=x86_64 # or x86 for what x86_64 lacks (send, recv, mmap2)
	"$SCMP_RUN" --resolve "$sc" --target-arch x86_64 >/dev/null 2>&1 || arch=x86
	printf 'architectures = %s\n[credentials]\nuser = nobody\n' $arch >>"$TAP_TMP/flag.ini"
	printf '[errno(EPERM)]\n%s = %s == 1\n' "$sc" "$param" >>"$TAP_TMP/flag.ini"
	run "$SCMP_RUN" -p "$TAP_TMP/flag.ini" --check
	if ! grep -qF "$TAP_TMP/flag.ini:7: warning: '==' on the flag argument '$param' of '$sc'" "$ERR"; then
		ok 1 "flag argument $sc $param: warned about"
		diag "$(cat "$ERR")"
	fi
done <"$TAP_TMP/flag-args"
[ "$rows" -ge 30 ]
ok $? "every row of the flag-argument table warns ($rows rows)"

# A JSON profile: located at the file, a hint in its own terms.
if "$SCMP_RUN" --help | grep -q 'built without OCI'; then
	skip "io-uring in a JSON profile: built without OCI support"
else
	run "$SCMP_RUN" -p ./tests/oci/json/deny-mkdir.json --check --user nobody
	like "$ERR" "scmp-run: ./tests/oci/json/deny-mkdir.json: hint: deny them: add an entry with the names io_uring_setup, io_uring_enter, io_uring_register and the action SCMP_ACT_ERRNO" \
		"io-uring in a JSON profile: warned, with a JSON hint"
	printf '{ "defaultAction": "SCMP_ACT_ERRNO", "syscalls": [ { "names": [ "read", "exit_group" ], "action": "SCMP_ACT_ALLOW" } ] }\n' \
		>"$TAP_TMP/no-exit.json"
	run "$SCMP_RUN" -p "$TAP_TMP/no-exit.json" --check --user nobody
	like "$ERR" "scmp-run: $TAP_TMP/no-exit.json: warning: exit denied by the default action: " \
		"exit-denied in a JSON profile: warned at the file"
	like "$ERR" "scmp-run: $TAP_TMP/no-exit.json: hint: allow them: add an entry with the names exit, exit_group and the action SCMP_ACT_ALLOW" \
		"... with a JSON hint"
fi

# --strict belongs to --check.
run "$SCMP_RUN" -p tests/cli/lint/io-uring.ini --export-pfc - --strict
status_is 2 "--strict with --export-pfc: usage error, exit 2"
like "$ERR" "scmp-run: error: --strict is for --check" "... says --strict is for --check"
[ -s "$OUT" ]
ok $((! $?)) "... and writes nothing"
run "$SCMP_RUN" --strict -p tests/cli/lint/io-uring.ini -- true
status_is 125 "--strict in run mode: usage error, exit 125"
like "$ERR" "scmp-run: error: --strict is for --check" "... says --strict is for --check"

# The "||" alternatives of one line are one warning, and one silenced.
printf '[filter]\ndefault-action = allow\n[credentials]\nuser = nobody\n[errno(EPERM)]\n%s\n%s\n' \
	'unshare = unshare_flags == CLONE_NEWUSER || unshare_flags == CLONE_NEWNET' \
	'syscalls = io_uring_setup io_uring_enter io_uring_register' >"$TAP_TMP/alt.ini"
run "$SCMP_RUN" -p "$TAP_TMP/alt.ini" --check
is "$(grep -c '\[flag-equals\]' "$ERR")" 1 "two alternatives on one line: one flag-equals warning"
like "$OUT" "warnings: 1" "... counted once"
sed -i 's/CLONE_NEWNET$/CLONE_NEWNET ; lint: allow flag-equals/' "$TAP_TMP/alt.ini"
run "$SCMP_RUN" -p "$TAP_TMP/alt.ini" --check
like "$OUT" "(1 more silenced by lint comments)" "... and silenced once"

# An unknown ID in a lint comment: warned at the comment's line, with a
# "did you mean" hint when a known ID is close, and none when nothing is.
cat >"$TAP_TMP/unknown-id.ini" <<'EOF'
[filter]
default-action = errno(EPERM)
[credentials]
user = nobody
[allow]
syscalls = exit exit_group execve ; lint: allow io_uring
syscalls = getpid ; lint: allow zzzz-qqqq
EOF
run "$SCMP_RUN" -p "$TAP_TMP/unknown-id.ini" --check
like "$ERR" "scmp-run: $TAP_TMP/unknown-id.ini:6: warning: unknown lint warning 'io_uring' in a lint comment" \
	"unknown lint ID, near miss: warned at its line"
like "$ERR" "scmp-run: $TAP_TMP/unknown-id.ini:6: hint: did you mean 'io-uring'?" \
	"... with a hint naming the close ID"
like "$ERR" "scmp-run: $TAP_TMP/unknown-id.ini:7: warning: unknown lint warning 'zzzz-qqqq' in a lint comment" \
	"unknown lint ID, far off: warned at its line"
unlike "$ERR" "scmp-run: $TAP_TMP/unknown-id.ini:7: hint:" "... with no hint"
is "$(grep -c ': hint: ' "$ERR")" 1 "... one hint in all"

# A condition on a syscall no ABI of the filter has: an error in every mode.
run "$SCMP_RUN" -p tests/cli/bad/cond-no-abi.ini --export-bpf /dev/null
status_is 1 "cond-no-abi.ini: --export-bpf exits 1"
is "$(grep -c "error: condition on 'mmap2'" "$ERR")" 1 "cond-no-abi.ini: one error for the two alternatives of one key"
run "$SCMP_RUN" -p tests/cli/bad/cond-no-abi.ini -- true
status_is 125 "cond-no-abi.ini: run mode exits 125"
# ... but not a sub-call of a multiplexer the filter has (accept on x86).
cat >"$TAP_TMP/mux.ini" <<'EOF'
[filter]
default-action = errno(EPERM)
architectures = x86
[credentials]
user = nobody
[allow]
syscalls = exit exit_group execve
accept = fd == 3
EOF
run "$SCMP_RUN" -p "$TAP_TMP/mux.ini" --check --target-arch x86
status_is 0 "accept = ... on x86 (through socketcall) is no error"

# run-as-root: the caller is root and the profile names no user.
cat >"$TAP_TMP/no-user.ini" <<'EOF'
[filter]
default-action = errno(EPERM)
[allow]
syscalls = exit exit_group execve
EOF
run "$SCMP_RUN" -p "$TAP_TMP/no-user.ini" --check
if [ "$(id -u)" = 0 ]; then
	like "$ERR" "scmp-run: $TAP_TMP/no-user.ini: warning: run mode would refuse this profile here: the command would run as root (uid 0), and the profile does not say so [run-as-root]" \
		"run-as-root: warned at the file, as root"
	like "$ERR" "scmp-run: $TAP_TMP/no-user.ini: hint: running as root: add [credentials] user = ..., or user = root to keep root" \
		"run-as-root: ... with its hint"
	run "$SCMP_RUN" -p "$TAP_TMP/no-user.ini" --check --strict
	status_is 1 "run-as-root: --strict exits 1"
	printf '; lint: allow run-as-root\n' >>"$TAP_TMP/no-user.ini"
	run "$SCMP_RUN" -p "$TAP_TMP/no-user.ini" --check --strict
	status_is 0 "run-as-root: a lint comment anywhere in the file silences it"
	unlike "$ERR" "[run-as-root]" "run-as-root: ... and nothing is said"
else
	unlike "$ERR" "[run-as-root]" "run-as-root: not as $(id -un)"
	skip "run-as-root: needs root"
	skip "run-as-root: needs root"
	skip "run-as-root: needs root"
	skip "run-as-root: needs root"
fi
run "$SCMP_RUN" -p "$TAP_TMP/no-user.ini" --check --user nobody
unlike "$ERR" "[run-as-root]" "run-as-root: near miss: --user names a user"

# cap-ambient: keep without ambient for a user who is not root.
cat >"$TAP_TMP/keep.ini" <<'EOF'
[filter]
default-action = errno(EPERM)
[allow]
syscalls = exit exit_group
[credentials]
user = nobody
[capabilities]
keep = CAP_NET_BIND_SERVICE
EOF
run "$SCMP_RUN" -p "$TAP_TMP/keep.ini" --check
like "$ERR" "scmp-run: $TAP_TMP/keep.ini:8: warning: keep without 'ambient = yes' for user 'nobody', who is not root: the kernel drops the kept capabilities at execve, and the command runs without them [cap-ambient]" \
	"cap-ambient: warned at the keep line"
like "$ERR" "scmp-run: $TAP_TMP/keep.ini:8: hint: add [capabilities] ambient = yes to pass them on through execve" \
	"cap-ambient: ... with its hint"
printf 'ambient = yes\n' >>"$TAP_TMP/keep.ini"
run "$SCMP_RUN" -p "$TAP_TMP/keep.ini" --check
unlike "$ERR" "[cap-ambient]" "cap-ambient: near miss: ambient = yes"
run "$SCMP_RUN" -p "$TAP_TMP/keep.ini" --check --user root
unlike "$ERR" "[cap-ambient]" "cap-ambient: near miss: the user is root"

# cap-missing: a capability the caller's permitted set lacks.
prm=$(awk '/^CapPrm:/ { print $2 }' /proc/self/status)
missing=""
present=""
for c in 10:NET_BIND_SERVICE 24:SYS_RESOURCE 12:NET_ADMIN 21:SYS_ADMIN; do
	bit=${c%%:*}
	if [ $(((0x$prm >> bit) & 1)) -eq 0 ]; then
		[ -n "$missing" ] || missing=${c#*:}
	else
		[ -n "$present" ] || present=${c#*:}
	fi
done
keep_profile() {
	printf '[filter]\ndefault-action = errno(EPERM)\n[allow]\nsyscalls = exit exit_group\n'
	printf '[credentials]\nuser = root\n[capabilities]\nkeep = CAP_%s\n' "$1"
}
if [ -n "$missing" ]; then
	keep_profile "$missing" >"$TAP_TMP/keep-missing.ini"
	run "$SCMP_RUN" -p "$TAP_TMP/keep-missing.ini" --check
	like "$ERR" "scmp-run: $TAP_TMP/keep-missing.ini:8: warning: kept capabilities the caller (uid $(id -u)) does not have: CAP_$missing; run mode cannot give them to the command [cap-missing]" \
		"cap-missing: warned at the keep line (CAP_$missing)"
else
	skip "cap-missing: the caller has every capability tried"
fi
if [ -n "$present" ]; then
	keep_profile "$present" >"$TAP_TMP/keep-present.ini"
	run "$SCMP_RUN" -p "$TAP_TMP/keep-present.ini" --check
	unlike "$ERR" "[cap-missing]" "cap-missing: near miss: the caller has CAP_$present"
else
	skip "cap-missing near miss: the caller has none of the capabilities tried"
fi

# path-missing: run mode refuses a [landlock] path without '?' that it
# cannot open; --check can only say that it cannot open it now.
T=$TAP_TMP
mkdir "$T/here"
ln -s loop "$T/loop"
cat >"$T/paths.ini" <<EOF
[filter]
default-action = allow ; lint: allow io-uring
[credentials]
user = root
[landlock]
read = /etc $T/gone
write = $T/here $T/also-gone? $T/here/file/x
devices = $T/loop?
EOF
run "$SCMP_RUN" -p "$T/paths.ini" --check
status_is 0 "path-missing: only a warning (the path may exist at launch)"
like "$ERR" "scmp-run: $T/paths.ini:6: warning: landlock: '$T/gone' does not exist now (No such file or directory): run mode would refuse the profile [path-missing]" \
	"path-missing: warned at the path's line"
like "$ERR" "scmp-run: $T/paths.ini:6: hint: write '$T/gone?' for a path that may be missing" \
	"path-missing: ... with the hint to make it optional"
unlike "$ERR" "also-gone" "path-missing: near miss: an optional path"
unlike "$ERR" "'/etc'" "path-missing: near miss: a path that exists"
unlike "$ERR" "'$T/here'" "path-missing: near miss: a directory that exists"
touch "$T/here/file"
run "$SCMP_RUN" -p "$T/paths.ini" --check
like "$ERR" "scmp-run: $T/paths.ini:7: warning: landlock: '$T/here/file/x' does not exist now (Not a directory)" \
	"path-missing: beneath a file (ENOTDIR)"
# an optional path is skipped only when missing: a loop stops run mode too
like "$ERR" "scmp-run: $T/paths.ini:8: warning: landlock: opening '$T/loop' fails now (Too many levels of symbolic links): run mode would refuse the profile [path-missing]" \
	"path-missing: another failure to open, even with '?'"
like "$ERR" "scmp-run: $T/paths.ini:8: hint: run mode opens the paths as the caller, before the credential switch" \
	"path-missing: ... with its hint"
like "$OUT" "warnings: 3 (1 more silenced by lint comments)" "path-missing: counted"
run "$SCMP_RUN" -p "$T/paths.ini" true
is "$RC" 125 "path-missing: run mode refuses it indeed"
like "$ERR" "$T/paths.ini:6: error: landlock: opening '$T/gone' failed" \
	"path-missing: ... at that line"
run "$SCMP_RUN" -p "$T/paths.ini" --check --strict
status_is 1 "path-missing: --strict exits 1"
rm -f "$T/loop"
sed -i -e 's|/gone$|/gone ; lint: allow path-missing|' \
	-e 's|/x$|/x ; lint: allow path-missing|' "$T/paths.ini"
run "$SCMP_RUN" -p "$T/paths.ini" --check --strict
status_is 0 "path-missing: a lint comment at the line silences it"
like "$OUT" "warnings: 0 (3 more silenced by lint comments)" \
	"path-missing: ... counted as silenced"
sed -i 's| ; lint: allow path-missing||' "$T/paths.ini"
printf '[landlock]\nmode = off\n' >>"$T/paths.ini"
run "$SCMP_RUN" -p "$T/paths.ini" --check
unlike "$ERR" "[path-missing]" "path-missing: near miss: mode = off opens nothing"

# A path that opens but that Landlock takes no rule on: a namespace file,
# or a pipe behind /dev/stdout. Run mode fails adding its rule (EBADFD).
cat >"$T/norule.ini" <<EOF
[filter]
default-action = allow ; lint: allow io-uring
[credentials]
user = root
[landlock]
read = /proc/self/ns/net /etc
EOF
if "$SCMP_RUN" -p "$T/norule.ini" --check | grep -q '^landlock: kernel: Landlock ABI'; then
	run "$SCMP_RUN" -p "$T/norule.ini" --check
	status_is 0 "path-missing: no rule on a namespace file: only a warning"
	like "$ERR" "scmp-run: $T/norule.ini:6: warning: landlock: Landlock takes no rule on '/proc/self/ns/net' now (File descriptor in bad state): run mode would refuse the profile [path-missing]" \
		"path-missing: no rule on a namespace file: warned at its line"
	like "$ERR" "scmp-run: $T/norule.ini:6: hint: Landlock takes no rule on a pipe, a socket or a namespace file" \
		"path-missing: no rule on a namespace file: the hint says why"
	run "$SCMP_RUN" -p "$T/norule.ini" true
	is "$RC" 125 "no rule on a namespace file: run mode refuses it indeed"
	like "$ERR" "scmp-run: $T/norule.ini:6: hint: Landlock takes no rule on a pipe, a socket or a namespace file" \
		"no rule on a namespace file: run mode's error has the hint too"
	printf '[filter]\ndefault-action = allow\n[landlock]\ndevices = /dev/stdout\n' >"$T/stdout.ini"
	"$SCMP_RUN" -p "$T/stdout.ini" --check 2>"$T/stdout.err" | cat >/dev/null
	like "$T/stdout.err" "warning: landlock: Landlock takes no rule on '/dev/stdout' now" \
		"path-missing: /dev/stdout to a pipe"
	"$SCMP_RUN" -p "$T/stdout.ini" --check >"$T/stdout.out" 2>"$T/stdout.err"
	unlike "$T/stdout.err" "no rule on '/dev/stdout'" \
		"path-missing: near miss: /dev/stdout to a file"
else
	skip "no Landlock: --check cannot ask for a rule"
fi

# limits: a limit run mode cannot set here. open-files above fs.nr_open
# is refused whatever the capabilities.
nr_open=$(cat /proc/sys/fs/nr_open)
cat >"$T/limits.ini" <<EOF
[filter]
default-action = allow ; lint: allow io-uring
[credentials]
user = root
[limits]
open-files = 64:$((nr_open + 1))
EOF
run "$SCMP_RUN" -p "$T/limits.ini" true
is "$RC" 125 "limits: run mode refuses open-files above fs.nr_open"
run "$SCMP_RUN" -p "$T/limits.ini" --check
status_is 0 "limits: only a warning"
like "$ERR" "scmp-run: $T/limits.ini:6: warning: run mode would refuse this profile here: the hard limit of open-files, $((nr_open + 1)), is above $nr_open, the most this process may set [limits]" \
	"limits: above fs.nr_open, warned at the line"
like "$ERR" "scmp-run: $T/limits.ini:6: hint: open-files cannot exceed fs.nr_open (/proc/sys/fs/nr_open), even with CAP_SYS_RESOURCE" \
	"limits: ... with its hint"
run "$SCMP_RUN" -p "$T/limits.ini" --check --strict
status_is 1 "limits: --strict exits 1"
# A hard limit above the current one, without CAP_SYS_RESOURCE: as uid
# 65534 under a hard limit lowered first.
sed -i "s/^open-files = .*/open-files = 64:200/" "$T/limits.ini"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$T" && chmod 644 "$T/limits.ini"
	run sh -c 'ulimit -n 100 && exec setpriv --reuid=65534 --regid=65534 --clear-groups "$@"' \
		sh "$SCMP_RUN" -p "$T/limits.ini" --user 65534 --check
	like "$ERR" "scmp-run: $T/limits.ini:6: warning: run mode would refuse this profile here: the hard limit of open-files, 200, is above 100, the most this process may set [limits]" \
		"limits: above the hard limit, without CAP_SYS_RESOURCE"
	like "$ERR" "scmp-run: $T/limits.ini:6: hint: raising a hard limit needs CAP_SYS_RESOURCE, which this process lacks: lower it, or start scmp-run with it" \
		"limits: ... with its hint"
	run sh -c 'ulimit -n 300 && exec setpriv --reuid=65534 --regid=65534 --clear-groups "$@"' \
		sh "$SCMP_RUN" -p "$T/limits.ini" --user 65534 --check
	unlike "$ERR" "[limits]" "limits: near miss: below the hard limit"
else
	skip "limits: needs root and setpriv"
	skip "limits: needs root and setpriv"
	skip "limits: needs root and setpriv"
fi

done_testing
