#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every allocation of a launch may fail (tests/oom/failmalloc.c fails the
# Nth one, for every N until a run makes fewer than N), in each MODE given
# (see label_of below): scmp-run never crashes, says why it stopped, once,
# what a run that succeeds wrote (its output, an export, a learned
# profile) is what it writes with all the memory it wants, and the command
# either runs with the filter and no_new_privs in place or does not run at
# all.
# Usage: test-oom.sh FAILMALLOC-LIBRARY MODE...
. "$(dirname "$0")/../tap.sh"

FM=$1
shift
MARK=$TAP_TMP/failed
# The sample profile, and more of what a profile can say: a user group,
# conditions, Landlock paths ('.' too) and ports, limits, a kept
# capability, and the sample profile's hardening presets (one of them,
# restrict-address-families, built as text).
P=$TAP_TMP/oom.ini
cat >"$P" <<EOF
[profile]
include = $(sample_profiles)/system-service.ini
[groups]
@mine = read write readv?
[allow]
syscalls = @mine
[errno(EACCES)]
openat = flags & O_CREAT == O_CREAT && mode & 0o002 != 0
[landlock]
read-exec = /usr /bin? /lib? /lib64?
read = /etc /proc .
connect-tcp = 53 443 8000-8080
[limits]
open-files = 1024
[capabilities]
keep = cap_net_bind_service
EOF

LEARNED=$TAP_TMP/learned.ini
# Kernel audit records of two calls the profile denies, and one it allows
# that another filter killed.
AUDIT=$TAP_TMP/audit.log
cat >"$AUDIT" <<EOF
[  915.971400] audit: type=1326 audit(1796310492.789:2143): auid=4294967295 uid=0 gid=0 ses=4294967295 pid=26598 comm="unshare" exe="/usr/bin/unshare" sig=0 arch=c000003e syscall=272 compat=0 ip=0x7f0c2b1a7b6b code=0x50001
[  915.971500] audit: type=1326 audit(1796310492.790:2144): auid=4294967295 uid=0 gid=0 ses=4294967295 pid=26599 comm="python3" exe="/usr/bin/python3" sig=0 arch=c000003e syscall=302 compat=0 ip=0x7f0c2b1a7b6b code=0x50001
[  915.971600] audit: type=1326 audit(1796310492.791:2145): auid=4294967295 uid=0 gid=0 ses=4294967295 pid=26600 comm="cat" exe="/usr/bin/cat" sig=31 arch=c000003e syscall=0 compat=0 ip=0x7f0c2b1a7b6b code=0x80000000
EOF

# Whether MODE runs the command: "yes" or nothing.
command_of() {
	case $1 in
	run | report | learn) echo yes ;;
	esac
}

# The options of a supervised MODE.
supervised() {
	case $1 in
	report) echo --report ;;
	learn) echo --learn "$LEARNED" ;;
	esac
}

# The file a MODE writes, which must come out whole: what the run writes
# when nothing fails (run mode and --report: what the command printed).
product_of() {
	case $1 in
	bpf) echo "$TAP_TMP/export.bpf" ;;
	export) echo "$TAP_TMP/export.json" ;;
	learn) echo "$LEARNED" ;;
	*) echo "$TAP_TMP/out" ;;
	esac
}

# launch MODE [VAR=VALUE...]: one run of MODE with the environment given
launch() {
	mode=$1
	shift
	case $mode in
	audit) env "$@" "$SCMP_RUN" -p "$P" --explain-audit "$AUDIT" ;;
	bpf) env "$@" "$SCMP_RUN" -p "$P" --export-bpf "$TAP_TMP/export.bpf" ;;
	export) env "$@" "$SCMP_RUN" -p "$P" --export-oci "$TAP_TMP/export.json" ;;
	import) env "$@" "$SCMP_RUN" --import-oci "$JSON" ;;
	check) env "$@" "$SCMP_RUN" -p "$P" --check ;;
	explain) env "$@" "$SCMP_RUN" -p "$P" --explain openat 0 0 0x41 0o777 ;;
	path) env "$@" "$SCMP_RUN" -p "$P" --explain-path "$PWD/inside" read ;;
	json) env "$@" "$SCMP_RUN" -p "$JSON" --check ;;
	*) # run, report or learn: run mode, or under the supervisor
		rm -f "$LEARNED"
		# shellcheck disable=SC2046 # the mode's options: separate words
		env "$@" "$SCMP_RUN" $(supervised "$mode") -p "$P" -- \
			/bin/grep -E '^(NoNewPrivs|Seccomp):' /proc/self/status
		;;
	esac >"$TAP_TMP/out" 2>"$TAP_TMP/err"
}

# sweep MODE: a run without failures (its product is the reference), then
# one run per allocation; prints "N CRASHED SILENT UNFILTERED TWICE CUT
# REFERENCE-FAILED", and what went wrong into $TAP_TMP/problems.MODE
sweep() {
	n=1 crashed=0 silent=0 unfiltered=0 twice=0 cut=0 ref=0 runs=$(command_of "$1")
	product=$(product_of "$1")
	if launch "$1" && cp "$product" "$TAP_TMP/want.$1"; then
		:
	else
		ref=1
		echo "without a failure: status $?" >>"$TAP_TMP/problems.$1"
	fi
	while [ "$n" -lt 20000 ]; do
		rm -f "$MARK"
		rm -f "$product"
		launch "$1" LD_PRELOAD="$FM" FAILMALLOC_AT=$n FAILMALLOC_MARK="$MARK"
		st=$?
		if [ "$1" = learn ] && [ "$st" -eq 0 ] &&
			! { grep -q '^# Command: /bin/grep' "$LEARNED" &&
				"$SCMP_RUN" -p "$LEARNED" --check >/dev/null 2>&1; }; then
			silent=$((silent + 1))
			echo "allocation $n: status 0 and no good learned profile" \
				>>"$TAP_TMP/problems.$1"
		fi
		if [ "$st" -eq 0 ] && ! cmp -s "$product" "$TAP_TMP/want.$1"; then
			cut=$((cut + 1))
			echo "allocation $n: status 0 and not what it writes otherwise" \
				>>"$TAP_TMP/problems.$1"
		fi
		[ -e "$MARK" ] || break # fewer than n allocations: the sweep is done
		[ "$st" -lt 128 ] || {
			crashed=$((crashed + 1))
			echo "allocation $n: status $st" >>"$TAP_TMP/problems.$1"
		}
		if [ "$st" -ne 0 ] && [ ! -s "$TAP_TMP/err" ]; then
			silent=$((silent + 1))
			echo "allocation $n: status $st and no message" >>"$TAP_TMP/problems.$1"
		fi
		[ "$st" -eq 0 ] || dup=$(sort "$TAP_TMP/err" | uniq -d)
		if [ "$st" -ne 0 ] && [ -n "$dup" ]; then
			twice=$((twice + 1))
			echo "allocation $n: said twice: $dup" >>"$TAP_TMP/problems.$1"
		fi
		if [ -n "$runs" ] && [ -s "$TAP_TMP/out" ] &&
			! { grep -q '^NoNewPrivs:	1$' "$TAP_TMP/out" &&
				grep -q '^Seccomp:	2$' "$TAP_TMP/out"; }; then
			unfiltered=$((unfiltered + 1))
			echo "allocation $n: the command ran without its sandbox" \
				>>"$TAP_TMP/problems.$1"
		fi
		n=$((n + 1))
	done
	echo "$((n - 1)) $crashed $silent $unfiltered $twice $cut $ref"
}

# verdict MODE LABEL: sweep MODE and say what it found
verdict() {
	# shellcheck disable=SC2046 # seven numbers
	set -- $(sweep "$1") "$1" "$2"
	is "$7" 0 "$9: runs without a failure (the reference)"
	ok "$([ "$1" -ge 100 ] && echo 0 || echo 1)" "$9: $1 allocations, each failed once"
	is "$2" 0 "$9: no crash"
	is "$3" 0 "$9: every failure says why"
	is "$5" 0 "$9: no message said twice"
	if [ -n "$(command_of "$8")" ]; then
		is "$4" 0 "$9: the command never ran without its filter and no_new_privs"
	fi
	is "$6" 0 "$9: what it wrote on success is whole"
	[ -e "$TAP_TMP/problems.$8" ] && diag "$(head -n 20 "$TAP_TMP/problems.$8")"
	return 0
}

label_of() {
	case $1 in
	check) echo "--check" ;;
	run) echo "run mode" ;;
	report) echo "--report" ;;
	learn) echo "--learn" ;;
	audit) echo "--explain-audit" ;;
	explain) echo "--explain" ;;
	path) echo "--explain-path (of a path under '.')" ;;
	bpf) echo "--export-bpf" ;;
	json) echo "JSON --check" ;;
	export) echo "--export-oci" ;;
	import) echo "--import-oci" ;;
	esac
}

# An OCI profile, read through jansson (whose own allocations are left
# alone, see failmalloc.c) and converted; the profile exported as one.
JSON=$TAP_TMP/ops.json
# (with execve allowed: --check rejects a profile that stops it)
sed 's/"syscalls": \[/&\n\t\t{ "names": [ "execve" ], "action": "SCMP_ACT_ALLOW" },/' \
	"$SRCDIR/tests/oci/json/ops.json" >"$JSON"
oci=$(grep -c '^#define SCMP_RUN_OCI 1' "$BUILDDIR/config.h")
for mode in "$@"; do
	case $mode in
	json | export | import)
		if [ "$oci" = 0 ]; then
			skip "$(label_of "$mode"): no OCI support in this build"
			continue
		fi
		;;
	esac
	verdict "$mode" "$(label_of "$mode")"
done

done_testing
