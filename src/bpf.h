/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Classic-BPF seccomp programs: generation from a policy (range-coalesced,
 * priority-weighted tree dispatch, bpf.c) and disassembly (bpf-dump.c).
 * The validator is bpf-check.h.
 */
#pragma once

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bpf-check.h"
#include "diag.h"
#include "policy.h"

struct bpf_prog {
	struct sock_filter *insns;
	size_t len;
	bool size_first; /* emitted for the fewest instructions (near the limit) */
	/*
	 * Per ABI of the policy (abi_len[i] goes with policy.abis[i]): the
	 * length of the program for that ABI alone, that is, what the ABI's
	 * dispatch uses plus the ABI check around it, as a filter listing
	 * only that ABI would have it. Over BPF_PROG_MAX if that ABI alone
	 * does not fit. With one ABI it is len.
	 */
	size_t abi_len[ARCH_COUNT];
};

/*
 * Generate the program for a policy into *ret (free with bpf_prog_free()),
 * with its per-ABI lengths. If it would exceed BPF_PROG_MAX, an error naming
 * the ABI and its largest syscalls goes to d and -E2BIG is returned (also,
 * with its own message, when one syscall's argument rules exceed the
 * generator's limits: 1024 distinct masked words, 4096 alternatives); an
 * internal error (an invalid program) goes to d with -EINVAL. -ENOMEM
 * otherwise on failure. *ret is NULL on every failure.
 */
int bpf_generate(const struct policy *p, struct diag *d, struct bpf_prog **ret);

/* Free a program; NULL is a no-op. */
void bpf_prog_free(struct bpf_prog *prog);

/* seccomp_data as a kernel of ABI a shows it to a program, in this host's
 * words: for an ABI of the other byte order the two 32-bit halves of every
 * 64-bit field trade places. For simulating a program made for a. */
void bpf_abi_data(const struct arch *a, const struct seccomp_data *in, struct seccomp_data *out);

/* One line per instruction: "0012: jge #0x40000000 jt 14 jf 13". */
void bpf_disasm(const struct sock_filter *insns, size_t len, FILE *f);
