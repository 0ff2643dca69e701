#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The bad-input suite through the command line: every fixture of
# tests/profiles/bad and tests/cli/bad must be rejected by 'scmp-run --check'
# with exit status 1 and each of its '; expect: [FILE:]LINE: TEXT' errors at
# FILE:LINE (line 0: no line); plus the 4096-instruction limit.
. "$(dirname "$0")/../tap.sh"
cd "$SRCDIR" || exit 99

# check_fixture PATH: one TAP line per fixture.
check_fixture() {
	f=$1
	dir=$(dirname "$f")
	grep -a '^; expect: ' "$f" | sed 's/^; expect: //' >"$TAP_TMP/expects"
	run "$SCMP_RUN" -p "$f" --check
	good=0
	why=""
	[ "$RC" -eq 1 ] || { good=1; why="exit status $RC, want 1"; }
	[ -s "$TAP_TMP/expects" ] || { good=1; why="no '; expect:' line"; }
	grep -q '^scmp-run: .*error: ' "$ERR" || { good=1; why="no 'error:' line"; }
	[ -s "$OUT" ] && { good=1; why="printed a summary for a rejected profile"; }
	while IFS= read -r e; do
		case $e in
		[0-9]*) file=$f rest=$e ;;
		*) file=$dir/${e%%:*} rest=${e#*:} ;;
		esac
		line=${rest%%:*}
		text=${rest#*: }
		if [ "$line" = 0 ]; then
			prefix="scmp-run: $file: error: "
		else
			prefix="scmp-run: $file:$line: error: "
		fi
		if ! grep -aF -- "$prefix" "$ERR" | grep -qaF -- "$text"; then
			good=1
			why="$why${why:+; }missing '$prefix...$text'"
		fi
	done <"$TAP_TMP/expects"
	if ! ok $good "$f rejected at its FILE:LINE"; then
		diag "$why" "stderr:"
		diag "$(head -n 8 "$ERR")"
	fi
}

n=0
for f in tests/profiles/bad/*.ini tests/cli/bad/*.ini; do
	[ -f "$f" ] || continue
	check_fixture "$f"
	n=$((n + 1))
done
[ "$n" -ge 10 ]
ok $? "at least 10 bad fixtures were run ($n)"

# Every bad fixture is also rejected by the other profile modes.
for f in tests/cli/bad/pointer-compare.ini tests/profiles/bad/unknown-syscall.ini \
	tests/profiles/bad/process-bad.ini tests/profiles/bad/environment-bad.ini \
	tests/profiles/bad/hardening-ns-unknown.ini tests/profiles/bad/hardening-af-yes.ini \
	tests/profiles/bad/hardening-af-unknown.ini tests/profiles/bad/hardening-duplicate.ini \
	tests/profiles/bad/hardening-duplicate-include.ini; do
	run "$SCMP_RUN" -p "$f" --export-pfc -
	status_is 1 "$f: --export-pfc exits 1"
	[ -s "$OUT" ]
	ok $((! $?)) "$f: --export-pfc writes nothing"
	run "$SCMP_RUN" -p "$f" -- true
	status_is 125 "$f: run mode exits 125"
done

# An include that cannot be opened is the one error: what it would have
# said is not known, so no required key is called missing after it.
printf '[profile]\ninclude = %s\n' "$TAP_TMP/no-such.ini" >"$TAP_TMP/only-include.ini"
run "$SCMP_RUN" -p "$TAP_TMP/only-include.ini" --check
is "$RC:$(grep -c 'error:' "$ERR")" "1:1" "a missing include: one error, no missing default-action"
# The same for every other include that is not read: a NAME not found, a
# file over the size limit, one nested too deep, a relative path with no
# directory to start from.
printf '[profile]\ninclude = no-such-profile-name\n' >"$TAP_TMP/only-name.ini"
run env SCMP_RUN_PROFILE_PATH="$TAP_TMP" "$SCMP_RUN" -p "$TAP_TMP/only-name.ini" --check
is "$RC:$(grep -c 'error:' "$ERR")" "1:1" "an include NAME not found: one error"
head -c 1100000 /dev/zero | tr '\0' ';' >"$TAP_TMP/huge.ini"
printf '[profile]\ninclude = huge.ini\n' >"$TAP_TMP/only-huge.ini"
run "$SCMP_RUN" -p "$TAP_TMP/only-huge.ini" --check
is "$RC:$(grep -c 'error:' "$ERR")" "1:1" "an include over the size limit: one error"
i=1
while [ $i -le 9 ]; do
	printf '[profile]\ninclude = deep%d.ini\n' $((i + 1)) >"$TAP_TMP/deep$i.ini"
	i=$((i + 1))
done
printf '[filter]\ndefault-action = allow\n' >"$TAP_TMP/deep10.ini"
run "$SCMP_RUN" -p "$TAP_TMP/deep1.ini" --check
is "$RC:$(grep -c 'error:' "$ERR")" "1:1" "an include nested too deep: one error"
run_in '[profile]' "$SCMP_RUN" -p - --set profile.include=base.ini --check
is "$RC:$(grep -c 'error:' "$ERR")" "1:1" "a relative include in --set: one error"

# Over 4096 instructions: many rules that each test two arguments for
# values no other rule has, so no two share a test. The error names the
# ABI and the largest rules.
# gen_big ARCHES: a profile of 6 x 400 rules on stdout.
gen_big() {
	echo "[filter]"
	echo "default-action = allow"
	echo "architectures = $1"
	echo "[errno(EPERM)]"
	for sc in "mprotect prot len" "ioctl arg cmd" "fcntl arg cmd" "prctl arg2 arg3" \
		"munmap addr len" "mremap flags new_len"; do
		set -- $sc
		i=0
		while [ $i -lt 400 ]; do
			echo "$1 = $2 == $((i * 1000)) && $3 == $((i * 1001 + 1))"
			i=$((i + 1))
		done
	done
}
for arch in x86_64 x86; do
	big=$TAP_TMP/big-$arch.ini
	gen_big "$arch" >"$big"
	run "$SCMP_RUN" -p "$big" --check
	status_is 1 "$arch: a program over 4096 instructions: 1"
	like "$ERR" "error: the filter needs " "$arch: over the limit: says how many it needs"
	like "$ERR" "the kernel accepts at most 4096" "$arch: over the limit: names the limit"
	like "$ERR" "note: $arch: " "$arch: over the limit: names the ABI"
	grep -q "^scmp-run: $big:[0-9]*: note: $arch: '[a-z0-9_]*' takes [0-9]* instructions for 400 rules" "$ERR"
	if ! ok $? "$arch: over the limit: names the largest rules at their FILE:LINE"; then
		diag "$(head -n 8 "$ERR")"
	fi
	run "$SCMP_RUN" -p "$big" -- true
	status_is 125 "$arch: over the limit in run mode: 125"
done

# Over 64 different masked words on one syscall: more than a decision tree
# tracks, so the rules are compiled one by one; the program still decides
# as the rules do (--explain checks both).
wide=$TAP_TMP/wide.ini
{
	printf '[filter]\ndefault-action = allow\narchitectures = x86_64\n[errno(EPERM)]\n'
	i=0
	while [ $i -lt 70 ]; do
		m=$(printf '0x%x' $(((1 << (i % 31)) | (1 << (i / 31 + 20)) | 0x80000000)))
		echo "ioctl = cmd & $m == $m"
		i=$((i + 1))
	done
} >"$wide"
run "$SCMP_RUN" -p "$wide" --check
status_is 0 "70 masked words on one syscall: compiled"
for cmd in 0x80100001 0x80100000 0x80000000 0x1 0xffffffff 0x80300000; do
	run "$SCMP_RUN" -p "$wide" --explain ioctl 0 "$cmd"
	status_is 0 "70 masked words: ioctl cmd $cmd decided as the rules say"
done

done_testing
