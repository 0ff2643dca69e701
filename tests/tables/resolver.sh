#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Compare our syscall numbers with Debian's scmp_sys_resolver (libseccomp) for
# a dozen names across ABIs. Usage: resolver.sh PATH-TO-TABLES-RESOLVE
resolve=$1
if ! command -v scmp_sys_resolver >/dev/null 2>&1; then
	echo "1..0 # SKIP scmp_sys_resolver not installed (Debian package seccomp)"
	exit 0
fi
n=0
fail=0
while read -r arch name; do
	n=$((n + 1))
	theirs=$(scmp_sys_resolver -a "$arch" "$name")
	ours=$("$resolve" "$arch" "$name")
	if [ -n "$theirs" ] && [ "$theirs" = "$ours" ]; then
		echo "ok $n - $arch $name = $ours"
	else
		echo "not ok $n - $arch $name: ours '$ours', scmp_sys_resolver '$theirs'"
		fail=1
	fi
done <<LIST
x86_64 openat
x86_64 read
x86 socketcall
x86 mmap2
x32 openat
x32 rt_sigaction
aarch64 openat
arm _llseek
arm arm_fadvise64_64
riscv64 clone3
ppc64le ipc
ppc mmap2
s390x socketcall
s390 _llseek
mips openat
mips64 read
mips64n32 execve
mipsel64n32 rt_sigaction
LIST
echo "1..$n"
exit $fail
