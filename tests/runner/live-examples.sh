# SPDX-License-Identifier: LGPL-2.1-or-later
# The examples in docs/examples: the systemd unit passes systemd-analyze
# verify and its ExecStart line serves HTTP on loopback as an unprivileged
# user; sandbox-convert.sh converts a sample file and refuses a bad tool.
# Environment: SCMP_RUN, SRCDIR.

if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP run mode live tests need root (credentials, capabilities)"
	exit 0
fi
. "$SRCDIR/tests/tap.sh"

PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
LC_ALL=C
export LC_ALL
EX=$SRCDIR/docs/examples
UNIT=$EX/scmp-run-example.service

# Everything nobody must reach is copied into a world-readable directory:
# the source tree may live under a private home directory.
chmod 755 "$TAP_TMP"
B=$TAP_TMP/bin
mkdir -m 755 "$B" "$B/profiles" "$TAP_TMP/www"
cp "$SCMP_RUN" "$B/scmp-run"
cp "$SRCDIR"/profiles/*.ini "$B/profiles/"
chmod 644 "$B"/profiles/*.ini

# ---- the systemd unit ----

like "$UNIT" "ExecStart=/usr/bin/scmp-run -p net-daemon -- " "unit: ExecStart runs scmp-run -p net-daemon"
if command -v systemd-analyze >/dev/null 2>&1; then
	# verify checks that ExecStart's binary exists: point it at the build.
	# The man pages in Documentation= are not installed here: --man=no.
	mkdir "$TAP_TMP/unit"
	sed "s|/usr/bin/scmp-run|$B/scmp-run|" "$UNIT" >"$TAP_TMP/unit/scmp-run-example.service"
	run timeout 60 systemd-analyze verify --man=no "$TAP_TMP/unit/scmp-run-example.service"
	status_is 0 "unit: systemd-analyze verify succeeds"
	is "$(cat "$ERR")" "" "unit: systemd-analyze verify has no warnings"
else
	skip "unit: systemd-analyze is not installed; only its ExecStart line is run"
fi

# ExecStart as DynamicUser= would run it: an unprivileged user, the profile
# found by name, a free port on loopback and a directory to serve.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
echo "hello from the sandbox" >"$TAP_TMP/www/hello.txt"
chmod 644 "$TAP_TMP/www/hello.txt"
line=$(sed -n 's/^ExecStart=//p' "$UNIT" |
	sed "s|^/usr/bin/scmp-run |$B/scmp-run |; s|--directory [^ ]*|--directory $TAP_TMP/www|; s| 8080\$| $port|")
diag "ExecStart: $line"
# shellcheck disable=SC2086 # the unit's line is split into words as systemd does
set -- $line
env SCMP_RUN_PROFILE_PATH="$B/profiles" \
	timeout 30 setpriv --reuid=nobody --regid=nogroup --clear-groups "$@" \
	>"$TAP_TMP/daemon.out" 2>"$TAP_TMP/daemon.err" &
daemon=$!
run timeout 20 python3 -c '
import sys, time, urllib.request
url = "http://127.0.0.1:%s/hello.txt" % sys.argv[1]
end = time.monotonic() + 10
while True:
    try:
        print(urllib.request.urlopen(url, timeout=5).read().decode(), end="")
        break
    except OSError:
        if time.monotonic() > end:
            raise
        time.sleep(0.1)' "$port"
status_is 0 "unit: the ExecStart daemon answers on 127.0.0.1:$port"
is "$(cat "$OUT")" "hello from the sandbox" "unit: the daemon served the file"
kill "$daemon" 2>/dev/null
wait "$daemon" 2>/dev/null
like "$TAP_TMP/daemon.err" "GET /hello.txt" "unit: the daemon logged the request"

# ---- sandbox-convert.sh ----

X=$EX/sandbox-convert.sh
export SCMP_RUN="$B/scmp-run" SCMP_RUN_PROFILE_PATH="$B/profiles"
printf 'caf\351 cr\350me\n' >"$TAP_TMP/latin1.txt"
run timeout 60 sh "$X" "$TAP_TMP/latin1.txt" "$TAP_TMP/utf8.txt"
status_is 0 "convert: default iconv LATIN1 to UTF-8: exit 0"
is "$(od -An -tx1 "$TAP_TMP/utf8.txt" | tr -d ' \n')" "636166c3a9206372c3a86d650a" \
	"convert: the output is the UTF-8 text"

printf 'name,n\nb,2\na,1\n' >"$TAP_TMP/in.csv"
run timeout 60 sh "$X" "$TAP_TMP/in.csv" "$TAP_TMP/out.json" python3 -c '
import csv, json, sys
json.dump(sorted(csv.DictReader(sys.stdin), key=lambda r: r["name"]), sys.stdout)'
status_is 0 "convert: a python3 CSV to JSON tool: exit 0"
is "$(cat "$TAP_TMP/out.json")" '[{"name": "a", "n": "1"}, {"name": "b", "n": "2"}]' \
	"convert: the JSON output"

run timeout 60 sh "$X" "$TAP_TMP/in.csv" "$TAP_TMP/id.txt" id -u
is "$(cat "$TAP_TMP/id.txt")" "$(id -u nobody)" "convert: started as root, the tool runs as nobody"

run timeout 60 sh "$X" "$TAP_TMP/in.csv" "$TAP_TMP/net.txt" python3 -c '
import socket
socket.create_connection(("127.0.0.1", 9))'
status_is 1 "convert: a tool that opens a socket fails"
like "$ERR" "PermissionError" "convert: the socket call got EPERM"
run test -e "$TAP_TMP/net.txt"
status_is 1 "convert: no output file after a failure"
run ls "$TAP_TMP"
unlike "$OUT" "net.txt." "convert: no temporary file left behind"

run timeout 60 sh "$X" "$TAP_TMP/in.csv" "$TAP_TMP/fork.txt" sh -c 'cat | tr a-z A-Z'
status_is 2 "convert: a tool that forks fails"
like "$ERR" "Cannot fork" "convert: fork was refused"

run timeout 60 sh "$X" "$TAP_TMP/no-such-input" "$TAP_TMP/x.txt"
status_is 2 "convert: a missing input: usage error 2"

done_testing
