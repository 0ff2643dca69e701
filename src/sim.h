/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A classic-BPF interpreter for the seccomp subset of the kernel's
 * (net/core/filter.c, kernel/seccomp.c): run a program on a seccomp_data.
 */
#pragma once

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sim_result {
	uint32_t ret;	   /* the value the program returned */
	size_t executed;   /* instructions executed, the return included */
	bool touched_args; /* loaded anything but nr and arch before returning */
};

/* Run prog on sd. Returns 0, or -EINVAL if the program does something the
 * kernel would refuse (bad opcode, out-of-range jump or load, falling off
 * the end); then ret is not meaningful. Only the executed path is checked:
 * bpf_validate() checks the whole program. */
int sim_run(const struct sock_filter *insns, size_t len, const struct seccomp_data *sd,
	    struct sim_result *ret);

/*
 * The kernel's always-allow cache check (seccomp_is_const_allow(),
 * kernel/seccomp.c, Linux >= 5.11): true if, for this arch and nr, the
 * program returns SECCOMP_RET_ALLOW along a path that only loads nr/arch
 * and uses the opcodes the kernel's emulator accepts. Always false for a
 * number of ARCH_X32_SYSCALL_BIT or more (x32's, negative ones): the
 * kernel's bitmaps end far below.
 */
bool sim_is_const_allow(const struct sock_filter *insns, size_t len, uint32_t arch, uint32_t nr);
