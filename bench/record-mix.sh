#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Record the real syscall mix the benchmark replays (bench/data/syscall-mix.txt)
# with strace on a few everyday workloads; needs strace and python3.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
st() {
	out=$1
	shift
	strace -f -qq -e raw=all -X raw -o "$tmp/$out" "$@" >/dev/null
}

seq 1 200000 >"$tmp/nums.txt"
st python.txt python3 -c 'import json, os, hashlib
d = {str(i): [i, i * 2] for i in range(2000)}
s = json.dumps(d)
json.loads(s)
print(len(s), hashlib.sha256(s.encode()).hexdigest()[:8], len(os.listdir("/usr/lib")))'
st tar.txt sh -c 'cd /usr/share/doc && tar -cf "$0" $(ls | head -60)' "$tmp/doc.tar"
st pipe.txt sh -c 'ls /usr/bin | sort | wc'
st gzip.txt gzip -kf "$tmp/nums.txt"
python3 "$here/mix-convert.py" "$tmp/python.txt" "$tmp/tar.txt" "$tmp/pipe.txt" \
	"$tmp/gzip.txt" >"$here/data/syscall-mix.txt"
