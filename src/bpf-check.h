/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The validator of classic-BPF seccomp programs: what the kernel checks when a filter is loaded,
 * and the opcodes seccomp accepts (shared with the simulator, sim.c).
 */
#pragma once

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BPF_PROG_MAX 4096u /* BPF_MAXINSNS: the kernel refuses longer programs */

/* True if code is one of the opcodes seccomp_check_filter() (kernel/seccomp.c) accepts. */
bool bpf_code_allowed(uint16_t code);

/*
 * Check what the kernel's seccomp_check_filter() and bpf_check_classic() check,
 * plus: every path ends in a return (no jump past the end), only the
 * seccomp subset of opcodes, aligned in-bounds seccomp_data loads.
 * Returns 0, or -EINVAL with a message naming the instruction's index in
 * err (err_size bytes, truncated; err may be NULL).
 */
int bpf_validate(const struct sock_filter *insns, size_t len, char *err, size_t err_size);
