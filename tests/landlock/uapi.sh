#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# src/landlock-uapi.h agrees with the kernel's Landlock uapi header
# (tools/check-landlock-uapi.py; skipped without the kernel source).
# Usage: uapi.sh PYTHON SRCDIR
python=$1
srcdir=$2
source=${KERNEL_SOURCE:-/usr/src/linux-source-6.12.tar.xz}
if [ ! -e "$source" ]; then
	echo "1..0 # SKIP kernel source $source not installed (linux-source-6.12)"
	exit 0
fi
echo "1..1"
if out=$("$python" "$srcdir/tools/check-landlock-uapi.py" "$source" 2>&1); then
	echo "ok 1 - src/landlock-uapi.h matches $source"
else
	echo "$out" | sed 's/^/# /'
	echo "not ok 1 - src/landlock-uapi.h differs from the kernel's uapi"
	exit 1
fi
