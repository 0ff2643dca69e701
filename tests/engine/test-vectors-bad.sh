#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The vector runner's own errors: a vector file with bad labels fails, and
# says which line and why.
# Usage: test-vectors-bad.sh TEST-VECTORS
. "$(dirname "$0")/../tap.sh"
RUNNER=${1:?usage: test-vectors-bad.sh TEST-VECTORS}
V=$SRCDIR/tests/engine/vectors-bad/labels.vec

run "$RUNNER" "$V"
ok $((RC == 0)) "a file with bad labels fails the run"
like "$OUT" "not ok 1 - labels.vec:5: label 'default' used twice or reserved" \
	"a reserved word is no label"
like "$OUT" "labels.vec:8: label 'log' used twice or reserved" "a label used twice"
like "$OUT" "not ok 3 - labels.vec:9: x86_64 -> log @allow" \
	"a check naming another rule's label fails"
like "$OUT" "labels.vec:10: no rule labelled 'trap' in this rule set" "an unknown label"
like "$OUT" "labels.vec:11: no rule labelled '3' in this rule set" "a line number is no label"
is "$(grep -c '^not ok' "$OUT")" 5 "nothing else fails"
done_testing
