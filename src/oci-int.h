/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internals of the OCI modules: the state of one conversion (oci-load.c,
 * oci-cond.c) and the converted document, which keeps next to its profile
 * where each rule came from and the notes --import-oci prints; the entries
 * an export writes, and what libseccomp makes of them.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf-check.h"
#include "oci-json.h"
#include "oci.h"
#include "syscalls.h"

/* Per rule of the ruleset (same index). */
struct oci_rule_info {
	size_t entry; /* index in "syscalls" */
	char *note;   /* change of meaning for this rule (owned), or NULL */
};

/* A note about an entry as a whole (skipped, dropped, overlap...). */
struct oci_note {
	size_t entry; /* SIZE_MAX: about the whole file */
	char *text;
};

struct oci_doc {
	struct profile *profile;
	struct oci_rule_info *info; /* parallel to profile->rs->rules */
	size_t n_info, cap_info;
	struct oci_note *notes;
	size_t n_notes, cap_notes;
	struct src_loc *entry_loc; /* where each entry of "syscalls" starts */
	size_t n_entries;
	char **caps; /* --oci-caps names, normalised ("CAP_SYS_ADMIN") */
	size_t n_caps;
};

/* Convert a JSON file; on success *ret holds the document (free with
 * oci_doc_free()). Errors and warnings as oci_load() says. */
int oci_doc_load(const char *path, const struct arch *native, const struct oci_options *opts,
		 struct diag *d, struct oci_doc **ret);
void oci_doc_free(struct oci_doc *doc);

/* One conversion in progress. */
struct oci_conv {
	const struct ojson *j; /* reports its errors to d */
	struct diag *d;
	struct oci_doc *doc;
	struct ruleset *rs; /* doc->profile->rs */
	const struct arch *native;
	const struct arch *abis[ARCH_COUNT]; /* the filter's ABIs, native first */
	size_t n_abis;
	unsigned kmajor, kminor; /* running kernel, for minKernel */
	bool kernel_known;
	struct action def;
	int oom; /* -ENOMEM once a note could not be kept */
};

/* Add a note about entry (SIZE_MAX: the whole file) for --import-oci. */
void oci_note(struct oci_conv *cv, size_t entry, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline bool oci_action_same(const struct action *a, const struct action *b)
{
	return a->kind == b->kind && a->data == b->data;
}

/* A parsed JSON argument condition. */
struct oci_jcond {
	unsigned index;
	enum cmp_op op;
	uint64_t v, v2;
	char path[OJSON_PATH_MAX];
};

/* Read the "args" array at path (NULL: none) into *ret (malloc'ed, *ret_n
 * conditions). Errors are located; returns 0, -EINVAL or -ENOMEM. */
int oci_parse_args(struct oci_conv *cv, const char *path, json_t *args, struct oci_jcond **ret,
		   size_t *ret_n);

/*
 * Add the rules of syscall name (located at loc) of entry, with action act
 * under the conditions conds, as runc hands them to libseccomp. Returns 0,
 * -EINVAL (an error at the condition), -E2BIG (more than OCI_CONJS_MAX
 * rules) or -ENOMEM.
 */
#define OCI_CONJS_MAX 64 /* rules one entry's conditions may split into, per name */
/* The largest errno libseccomp takes in SCMP_ACT_ERRNO() (it refuses 4095,
 * MAX_ERRNO, which the kernel would take): a runtime refuses a profile with
 * more, so reading one fails and --export-oci refuses to write one. */
#define OCI_ERRNO_MAX 4094u
int oci_add_name(struct oci_conv *cv, const char *name, const struct src_loc *loc,
		 const struct action *act, const struct oci_jcond *conds, size_t n_conds,
		 size_t entry);

/* Warn (and note) where entries with other actions can match one call:
 * the strictest wins here, libseccomp's rule order decides for runc. At
 * most OCI_OVERLAPS_MAX overlaps (a pair of entries on one syscall) are
 * named, then one warning says there are more. */
#define OCI_OVERLAPS_MAX 32
void oci_warn_overlaps(struct oci_conv *cv);

/*
 * Whether test t holds in the region where every test of ctx[0..n) holds
 * (of one ABI's policy): 1 everywhere, 0 nowhere (or the region is empty),
 * -1 undecided (in part, or not known). Never wrong when it decides.
 */
int oci_region_decide(const struct rcmp *ctx, size_t n, const struct rcmp *t);

/* ---- what --export-oci writes (oci-export.c), and libseccomp's view of
 * it (oci-libseccomp.c) ---- */

/* How a cube compares: masked, or in the unsigned order of the register. */
enum oci_cube_op {
	OCI_CUBE_MASKED, /* (arg & mask) == value: SCMP_CMP_EQ, SCMP_CMP_MASKED_EQ */
	OCI_CUBE_GT,	 /* arg > value: SCMP_CMP_GT */
};

/* "(arg & mask) == value" on the register, as libseccomp compares it; or,
 * for a pointer's "!= 0" (leaf_sets()), "> 0", whose mask is the
 * register's (never 0: the cube tests something). */
struct oci_cube {
	uint64_t mask, value;
	enum oci_cube_op op;
};

/* One entry of the output: an action and at most one cube per argument. */
struct oci_entry {
	uint32_t ret;
	struct oci_cube arg[SYSCALL_ARGS_MAX];
	const char **names; /* borrowed from the policy */
	size_t n_names, cap_names;
};

/* The largest program a runtime may be left with: the kernel's limit less
 * room for the stub runc puts in front of it (numbers newer than the
 * profile get ENOSYS). */
#define OCI_LSC_STUB_RESERVE 64u
#define OCI_EXPORT_INSNS_MAX (BPF_PROG_MAX - OCI_LSC_STUB_RESERVE)

/*
 * Whether libseccomp 2.5.4 may never finish adding entries[0..n) (of one
 * name, on a 64-bit ABI): two of them test an argument with "> 0" and a
 * later argument on values that differ above bit 31 (oci-libseccomp.c).
 */
bool oci_lsc_loops(const struct oci_entry *entries, size_t n);

/*
 * The instructions libseccomp 2.5.4 emits at most for the entries that
 * name name (of entries[0..n_entries)), on every ABI of p: a conservative
 * count (oci-libseccomp.c). SIZE_MAX when out of memory.
 */
size_t oci_lsc_name_insns(const struct policy *p, const struct oci_entry *entries, size_t n_entries,
			  const char *name);

/* The whole program's instructions at most, given the sum of
 * oci_lsc_name_insns() over the names written. */
size_t oci_lsc_program_insns(const struct policy *p, const struct oci_entry *entries,
			     size_t n_entries, size_t names_insns);
