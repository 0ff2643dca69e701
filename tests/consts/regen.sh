#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# tools/gen-constants.py --check: the comparison it reports with, and the
# committed data/constants.txt against what the kernel source gives (that
# part is skipped, with the reason, when the source is not installed).
# Usage: regen.sh PYTHON SRCDIR
python=$1
srcdir=$2
. "$srcdir/tests/tap.sh"
tool=$srcdir/tools/gen-constants.py
source=${KERNEL_SOURCE:-/usr/src/linux-source-6.12.tar.xz}

# compare(): the part of --check that needs no kernel source.
compare() {
	"$python" - "$tool" "$@" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location('gen_constants', sys.argv[1])
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
sys.exit(mod.compare(sys.argv[2], sys.argv[3]))
PY
}

printf 'A 1\nB 2\n' >"$TAP_TMP/file"
run compare "$TAP_TMP/file" "A 1
B 2
"
status_is 0 "compare: the same text is up to date"
is "$(cat "$ERR")" "" "compare: nothing said when up to date"

run compare "$TAP_TMP/file" "A 1
B 3
"
status_is 1 "compare: a changed value is out of date"
like "$ERR" "-B 2" "compare: the diff shows the committed line"
like "$ERR" "+B 3" "compare: the diff shows the generated line"
like "$ERR" "$TAP_TMP/file is out of date" "compare: names the file"

run compare "$TAP_TMP/no-such-file" "A 1
"
status_is 1 "compare: a missing file is out of date"
like "$ERR" "no-such-file: No such file or directory" "compare: says the file is missing"

if [ ! -e "$source" ]; then
	skip "kernel source $source not installed (linux-source-6.12): data/constants.txt not regenerated"
else
	run "$python" "$tool" --check "$source" "$srcdir/data/constants.txt"
	if ! status_is 0 "data/constants.txt is what tools/gen-constants.py makes of $source"; then
		diag "$(grep -v '^gen-constants: skipped' "$ERR" | head -n 40)"
	fi
fi

done_testing
