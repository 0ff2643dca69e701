#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Convert one file with a tool you do not trust, under scmp-run's
# untrusted-tool profile: no network, no new processes, bounded time.
#
# Usage: sandbox-convert.sh INPUT OUTPUT [COMMAND [ARG...]]
#   The command reads INPUT on its standard input and writes the result on
#   its standard output; OUTPUT appears only if it succeeds. The default
#   command is 'iconv -f LATIN1 -t UTF-8'.
# Environment:
#   SCMP_RUN                 the scmp-run binary (default: scmp-run on PATH)
#   SANDBOX_CONVERT_PROFILE  profile name or path (default: untrusted-tool)
#   SANDBOX_CONVERT_USER     when run as root, the user the tool runs as
#                            (default: nobody; empty: stay root)
#   SANDBOX_CONVERT_TIMEOUT  seconds before the tool is stopped (default: 60)
#
# What the filter cannot do: seccomp sees no paths, so the tool can still
# open any file its user may read. Running it as an unprivileged user (the
# default when started as root) limits that; a Landlock ruleset or a mount
# namespace would limit it further.
set -eu

SCMP_RUN=${SCMP_RUN:-scmp-run}
PROFILE=${SANDBOX_CONVERT_PROFILE:-untrusted-tool}
RUN_AS=${SANDBOX_CONVERT_USER-nobody}
LIMIT=${SANDBOX_CONVERT_TIMEOUT:-60}

if [ $# -lt 2 ]; then
	echo "usage: sandbox-convert.sh INPUT OUTPUT [COMMAND [ARG...]]" >&2
	exit 2
fi
in=$1
out=$2
shift 2
if [ $# -eq 0 ]; then
	set -- iconv -f LATIN1 -t UTF-8
fi
if [ ! -r "$in" ] || [ -d "$in" ]; then
	echo "sandbox-convert.sh: cannot read '$in'" >&2
	exit 2
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/sandbox-convert.XXXXXX")
trap 'rm -rf "$work"' EXIT
profile=$PROFILE
if [ "$(id -u)" = 0 ] && [ -n "$RUN_AS" ]; then
	# The sample profile plus a user: include it by its resolved path.
	base=$("$SCMP_RUN" -p "$PROFILE" --check | sed -n 's/^profile: //p')
	if [ -z "$base" ]; then
		echo "sandbox-convert.sh: profile '$PROFILE' not usable" >&2
		exit 2
	fi
	case $base in
	/*) ;;
	*) base=$PWD/$base ;;
	esac
	profile=$work/convert.ini
	printf '[profile]\ninclude = %s\n\n[credentials]\nuser = %s\n' "$base" "$RUN_AS" >"$profile"
fi

# The script opens both files; the tool gets only descriptors 0 and 1.
# The result goes to a temporary file beside OUTPUT, renamed on success.
tmp=$(mktemp "$out.XXXXXX")
status=0
(
	# CPU seconds (dash, bash and busybox sh have -t; POSIX names only -f)
	# shellcheck disable=SC3045
	ulimit -t "$LIMIT" 2>/dev/null || true
	exec timeout "$LIMIT" "$SCMP_RUN" -p "$profile" -- "$@" <"$in" >"$tmp"
) || status=$?
if [ "$status" -ne 0 ]; then
	rm -f "$tmp"
	echo "sandbox-convert.sh: '$1' failed with status $status; '$out' not written" >&2
	exit "$status"
fi
chmod 644 "$tmp"
mv -f "$tmp" "$out"
