#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The committed data/syscalls.txt and data/syscall-args.txt are what
# tools/gen-syscalls.py makes of the kernel source (skipped without it).
# Usage: regen.sh PYTHON SRCDIR
python=$1
srcdir=$2
source=${KERNEL_SOURCE:-/usr/src/linux-source-6.12.tar.xz}
if [ ! -e "$source" ]; then
	echo "1..0 # SKIP kernel source $source not installed (linux-source-6.12)"
	exit 0
fi
echo "1..1"
if out=$("$python" "$srcdir/tools/gen-syscalls.py" "$source" --check 2>&1); then
	echo "ok 1 - data files are up to date with $source"
else
	echo "$out" | sed 's/^/# /'
	echo "not ok 1 - data files differ from what tools/gen-syscalls.py generates"
	exit 1
fi
