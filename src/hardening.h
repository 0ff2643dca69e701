/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * [hardening] presets (scmp-run.ini(5) HARDENING): the namespace types, the
 * facts of the launching process the presets depend on, and the one preset
 * the kernel enforces itself (PR_SET_MDWE).
 */
#pragma once

#include <linux/seccomp.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "ruleset.h"

/* The namespace types of restrict-namespaces and their CLONE_NEW* flags. */
struct hardening_ns {
	const char *name; /* "user" */
	const char *flag; /* "CLONE_NEWUSER": the constant conditions name */
	uint32_t bit;
};

/* The table (n entries, HARDENING_NS_TYPES, in the order the man page
 * lists them). */
const struct hardening_ns *hardening_ns_types(size_t *n);

#define HARDENING_NS_TYPES 8

/* CLONE_NEWTIME: a namespace type for unshare and setns, but in clone's
 * flags the bit lies in the exit-signal byte (CSIGNAL). */
#define HARDENING_NS_TIME 0x80u

/*
 * Fill the facts of h (ruleset.h) from this process: the personality it
 * runs with (personality(0xffffffff), a query) when lock-personality is on,
 * and whether the kernel has PR_SET_MDWE (PR_GET_MDWE answers) when
 * memory-deny-write-execute is on. Changes nothing in the process; cannot
 * fail (a failed query means no PR_SET_MDWE).
 */
void hardening_probe(struct hardening *h);

/*
 * Run mode, right before the filter: memory-deny-write-execute by the
 * kernel (PR_SET_MDWE with PR_MDWE_REFUSE_EXEC_GAIN, read back with
 * PR_GET_MDWE) when h->mdwe and h->mdwe_kernel. Returns 0, or a negative
 * errno with the failed step in d.
 */
int hardening_apply(const struct hardening *h, struct diag *d);

/*
 * --explain of a call the filter lets run, named name on ABI abi with
 * arguments in sd: with memory-deny-write-execute enforced by
 * PR_SET_MDWE (h->mdwe and h->mdwe_kernel), a "kernel:" line when the kernel
 * refuses it past the filter (scmp-run.ini(5) HARDENING): an mmap, mmap2 or
 * shmat writable and executable, an mprotect or pkey_mprotect that adds
 * execute permission. Returns 0 or -EIO.
 */
int hardening_explain(const struct hardening *h, const struct arch *abi, const char *name,
		      const struct seccomp_data *sd, FILE *f);

/* One line per preset that is on, each starting with prefix, saying how it
 * is enforced here ("PR_SET_MDWE (kernel)" or "seccomp rules") and, for
 * lock-personality, the personality kept. Returns 0 or -EIO. */
int hardening_print(const struct hardening *h, const char *prefix, FILE *f);
