/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Classic-BPF seccomp programs: generation from a policy (range-coalesced,
 * priority-weighted tree dispatch), structural validation and disassembly.
 */
#pragma once

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "policy.h"

#define BPF_PROG_MAX 4096u /* BPF_MAXINSNS: the kernel refuses longer programs */

struct bpf_prog {
	struct sock_filter *insns;
	size_t len;
};

/* Generate the program for a policy. If it would exceed BPF_PROG_MAX, an
 * error naming the ABI and its largest syscalls goes to d and -E2BIG is
 * returned. -ENOMEM otherwise on failure. */
int bpf_generate(const struct policy *p, struct diag *d, struct bpf_prog **ret);
void bpf_prog_free(struct bpf_prog *prog);

/*
 * Check what the kernel's seccomp_check_filter() and sk_chk_filter() check,
 * plus: every path ends in a return (no jump past the end), only the
 * seccomp subset of opcodes, aligned in-bounds seccomp_data loads.
 * Returns 0, or -EINVAL with a static message in *ret_err naming the index.
 */
int bpf_validate(const struct sock_filter *insns, size_t len, char *err, size_t err_size);

/* seccomp_data as a kernel of ABI a shows it to a program, in this host's
 * words: for an ABI of the other byte order the two 32-bit halves of every
 * 64-bit field trade places. For simulating a program made for a. */
void bpf_abi_data(const struct arch *a, const struct seccomp_data *in, struct seccomp_data *out);

/* One line per instruction: "0012: jge #0x40000000 jt 14 jf 13". */
void bpf_disasm(const struct sock_filter *insns, size_t len, FILE *f);
