#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every complete profile shown in scmp-run.ini(5) and README.md (a literal
# block with a [filter] section) is accepted by scmp-run --check.
set -u
: "${SCMP_RUN:?}" "${SRCDIR:?}"

. "$SRCDIR/tests/tap.sh"
tmp=$TAP_TMP

# Split the literal blocks (``` or ```ini fences) of each file into
# tmp/FILE-N.ini, keeping only those that are whole profiles.
for doc in docs/scmp-run.ini.5.scd README.md; do
	[ -r "$SRCDIR/$doc" ] || { echo "# $doc is missing"; continue; }
	base=$(basename "$doc")
	awk -v out="$tmp/$base" '
		/^[ \t]*```/ { if (inb) { close(f); inb = 0 } else { n++; f = out "-" n ".ini"; inb = 1; printf "" > f }; next }
		inb { sub(/^\t/, ""); print > f }
	' "$SRCDIR/$doc"
done
for f in "$tmp"/*.ini; do
	grep -q '^\[filter\]' "$f" || rm -f "$f"
done

ls "$tmp"/*.ini >"$tmp/list" 2>/dev/null
count=$(wc -l <"$tmp/list")
viewer=$(grep -l '^description = file viewer' "$tmp"/*.ini | head -1)
daemon=$(grep -l '^description = network daemon' "$tmp"/*.ini | head -1)
readme=$(find "$tmp" -name "README.md-*.ini" | sort | head -1)
# what the man page's notes and the README say about their examples:
# PROFILE|SYSCALL ARG...|expected action
cat >"$tmp/claims" <<EOC
$viewer|write 1|allow
$viewer|write 3|errno(EPERM)
$viewer|openat AT_FDCWD 0 O_WRONLY|errno(EACCES)
$viewer|openat AT_FDCWD 0 O_RDONLY|allow
$viewer|execve|allow
$viewer|ptrace|kill-process
$daemon|io_uring_setup|errno(EPERM)
$daemon|socket AF_NETLINK|errno(EAFNOSUPPORT)
$daemon|socket AF_INET6|allow
$readme|socket AF_NETLINK|errno(EPERM)
$readme|socket AF_INET|allow
$readme|io_uring_setup|errno(EPERM)
$readme|mount|kill-process
$readme|999|errno(ENOSYS)
EOC
# the synopsis includes a base profile: an empty one stands in for it
: >"$tmp/base.ini"
# at least the two annotated examples of the man page and the README's one
[ "$count" -ge 3 ]
ok $? "found $count example profiles (at least 3)"
while read -r f; do
	out=$("$SCMP_RUN" -p "$f" --check 2>&1)
	ok $? "$(basename "$f") passes --check" || diag "$out" "$(sed 's/^/  | /' "$f")"
done <"$tmp/list"
while IFS='|' read -r prof call want; do
	# shellcheck disable=SC2086
	got=$("$SCMP_RUN" -p "${prof:-/nonexistent}" --explain $call 2>"$tmp/err" | head -1 |
		sed 's/.*: //')
	is "$got" "$want" "$(basename "${prof:-missing}"): $call -> $want" || diag "$(cat "$tmp/err")"
done <"$tmp/claims"
done_testing
