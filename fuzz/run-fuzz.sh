#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Run a libFuzzer target as a TAP test: replay the seed corpus, then fuzz for
# a bounded time. Crash reproducers land in the build directory.
# Usage: run-fuzz.sh FUZZER SRCDIR OUTDIR SECONDS [DICT SEED-DIR...]
# Without DICT and seeds: the profile dictionary and the profiles of the tree.
fuzzer=$1
src=$2
out=$3
secs=${4:-60}
name=$(basename "$fuzzer")
mkdir -p "$out/corpus" "$out/artifacts" || exit 99
# FUZZ_SEEDS (directories under SRCDIR) and FUZZ_DICT pick another corpus
# (FUZZ_DICT set but empty: no dictionary).
seeds="$src/profiles $src/tests/profiles/good $src/tests/profiles/bad $src/tests/profiles/bad/include
$src/tests/cli/profiles $src/tests/cli/bad $src/fuzz/profile-seeds $src/fuzz/regressions"
if [ -n "${FUZZ_SEEDS:-}" ]; then
	seeds=
	for d in $FUZZ_SEEDS; do
		seeds="$seeds $src/$d"
	done
fi
dict=${FUZZ_DICT-fuzz/profile.dict}
common="-rss_limit_mb=2048 -timeout=20 ${dict:+-dict=$src/$dict} -artifact_prefix=$out/artifacts/"
failed=0

# shellcheck disable=SC2086
if "$fuzzer" $common -runs=0 $seeds >"$out/replay.log" 2>&1; then
	echo "ok 1 - $name: the seed corpus runs clean"
else
	echo "not ok 1 - $name: the seed corpus runs clean"
	tail -n 40 "$out/replay.log" | sed 's/^/# /'
	failed=1
fi
# shellcheck disable=SC2086
if "$fuzzer" $common -max_total_time="$secs" -print_final_stats=1 "$out/corpus" $seeds \
	>"$out/fuzz.log" 2>&1; then
	echo "ok 2 - $name: ${secs}s of fuzzing without a crash, leak or UB"
	grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$out/fuzz.log" | sed 's/^/# /'
else
	echo "not ok 2 - $name: ${secs}s of fuzzing without a crash, leak or UB"
	grep -A 40 -E "^==[0-9]+==|runtime error|$name:" "$out/fuzz.log" | head -n 60 |
		sed 's/^/# /'
	ls "$out/artifacts" | sed 's/^/# reproducer: /'
	failed=1
fi
echo "1..2"
exit $failed
