/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * [hardening] presets (scmp-run.ini(5) HARDENING): namespace names, the
 * probe of the launching process and PR_SET_MDWE in run mode. The rules the
 * presets expand into are built in policy-builtins.c.
 */
#include "hardening.h"

#include <errno.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>

#include "consts.h"
#include "syscalls.h"

/* linux/prctl.h of Linux 6.3; older C library headers lack them */
#ifndef PR_SET_MDWE
#define PR_SET_MDWE 65
#endif
#ifndef PR_GET_MDWE
#define PR_GET_MDWE 66
#endif
#ifndef PR_MDWE_REFUSE_EXEC_GAIN
#define PR_MDWE_REFUSE_EXEC_GAIN 1u
#endif

static const struct hardening_ns ns_types[] = {
	{ "cgroup", "CLONE_NEWCGROUP", 0x02000000u },
	{ "ipc", "CLONE_NEWIPC", 0x08000000u },
	{ "net", "CLONE_NEWNET", 0x40000000u },
	{ "mnt", "CLONE_NEWNS", 0x00020000u },
	{ "pid", "CLONE_NEWPID", 0x20000000u },
	{ "user", "CLONE_NEWUSER", 0x10000000u },
	{ "uts", "CLONE_NEWUTS", 0x04000000u },
	{ "time", "CLONE_NEWTIME", HARDENING_NS_TIME },
};
_Static_assert(sizeof(ns_types) / sizeof(ns_types[0]) == HARDENING_NS_TYPES,
	       "HARDENING_NS_TYPES counts the table");

const struct hardening_ns *hardening_ns_types(size_t *n)
{
	*n = sizeof(ns_types) / sizeof(ns_types[0]);
	return ns_types;
}

void hardening_probe(struct hardening *h)
{
	if (h->lock_personality)
		h->launch_personality = (uint32_t)personality(0xffffffff);
	if (h->mdwe)
		h->mdwe_kernel = prctl(PR_GET_MDWE, 0, 0, 0, 0) >= 0;
}

int hardening_apply(const struct hardening *h, struct diag *d)
{
	int r;

	if (!h->mdwe || !h->mdwe_kernel)
		return 0;
	if (prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) < 0) {
		r = errno;
		diag_error(d, &h->mdwe_loc,
			   "memory-deny-write-execute: PR_SET_MDWE failed: %s (errno %d)",
			   strerror(r), r);
		return -r;
	}
	r = prctl(PR_GET_MDWE, 0, 0, 0, 0);
	if (r < 0 || !(r & PR_MDWE_REFUSE_EXEC_GAIN)) {
		diag_error(d, &h->mdwe_loc,
			   "memory-deny-write-execute: PR_SET_MDWE is not in force on read-back");
		return -EPERM;
	}
	return 0;
}

/* Does the argument called arg of name on abi have a bit of the constant
 * flag set? False when there is no such argument, as for x86's mmap
 * (old_mmap), which passes its arguments in memory. */
static bool arg_has(const struct arch *abi, const char *name, const char *arg,
		    const struct seccomp_data *sd, const char *flag)
{
	struct syscall_arg slots[SYSCALL_ARGS_MAX];
	int64_t bits;
	bool known;

	if (syscalls_args(abi, name, slots, &known) < 0 || consts_lookup(abi, flag, &bits) < 0)
		return false;
	for (int k = 0; k < SYSCALL_ARGS_MAX; k++)
		if (syscalls_arg_named(&slots[k], arg))
			return sd->args[k] & (uint64_t)bits;
	return false;
}

/* How PR_MDWE_REFUSE_EXEC_GAIN answers the call: NULL when it runs it, ""
 * when it refuses it, or the condition of a refusal that depends on the
 * memory (scmp-run.ini(5) HARDENING): a new mapping is refused when
 * writable and executable, a change of protection also when the memory
 * gains execute permission. shmat maps writable without SHM_RDONLY. */
static const char *mdwe_refusal(const struct arch *abi, const char *name,
				const struct seccomp_data *sd)
{
	bool mprotect = !strcmp(name, "mprotect") || !strcmp(name, "pkey_mprotect");
	bool exec, write;

	if (!strcmp(name, "shmat")) {
		exec = arg_has(abi, name, "shmflg", sd, "SHM_EXEC");
		write = !arg_has(abi, name, "shmflg", sd, "SHM_RDONLY");
	} else if (mprotect || !strcmp(name, "mmap") || !strcmp(name, "mmap2")) {
		exec = arg_has(abi, name, "prot", sd, "PROT_EXEC");
		write = arg_has(abi, name, "prot", sd, "PROT_WRITE");
	} else {
		return NULL;
	}
	if (!exec)
		return NULL;
	if (write)
		return "";
	return mprotect ? " unless the memory is executable already" : NULL;
}

int hardening_explain(const struct hardening *h, const struct arch *abi, const char *name,
		      const struct seccomp_data *sd, FILE *f)
{
	const char *refusal;
	char loc[256];

	if (!h->mdwe || !h->mdwe_kernel || !name)
		return 0;
	refusal = mdwe_refusal(abi, name, sd);
	if (refusal)
		fprintf(f,
			"kernel: memory-deny-write-execute (%s) is PR_SET_MDWE here: the kernel "
			"refuses this call with EACCES%s\n",
			src_loc_format(&h->mdwe_loc, loc, sizeof(loc)), refusal);
	return ferror(f) ? -EIO : 0;
}

int hardening_print(const struct hardening *h, const char *prefix, FILE *f)
{
	char loc[256];

	if (h->mdwe)
		fprintf(f, "%smemory-deny-write-execute (%s): %s\n", prefix,
			src_loc_format(&h->mdwe_loc, loc, sizeof(loc)),
			h->mdwe_kernel ? "PR_SET_MDWE (the kernel refuses with EACCES)"
				       : "seccomp rules (EPERM): this kernel has no PR_SET_MDWE");
	if (h->lock_personality)
		fprintf(f, "%slock-personality (%s): personality %#x kept (this process's)\n",
			prefix, src_loc_format(&h->lock_personality_loc, loc, sizeof(loc)),
			h->launch_personality);
	return ferror(f) ? -EIO : 0;
}
