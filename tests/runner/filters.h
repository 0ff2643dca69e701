/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Hand-written filters of the run-mode tests: one or two syscalls of the
 * native ABI answered with a return value of their own, everything else
 * allowed. NATIVE_AUDIT_ARCH is left undefined on other architectures.
 */
#pragma once

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>

#if defined(__x86_64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#ifdef NATIVE_AUDIT_ARCH
/* clang-format off */
/* call answered with ret: six instructions */
#define ONE_CALL_INSNS(call, ret) {                                              \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)), \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_AUDIT_ARCH, 0, 3),            \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),   \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (call), 0, 1),                       \
	BPF_STMT(BPF_RET | BPF_K, (ret)),                                        \
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),                            \
}
/* call1 answered with ret1, call2 with ret2 (instruction 6): eight */
#define TWO_CALLS_INSNS(call1, ret1, call2, ret2) {                              \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)), \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_AUDIT_ARCH, 0, 5),            \
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),   \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (call1), 0, 1),                      \
	BPF_STMT(BPF_RET | BPF_K, (ret1)),                                       \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (call2), 0, 1),                      \
	BPF_STMT(BPF_RET | BPF_K, (ret2)),                                       \
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),                            \
}
/* clang-format on */
#endif
