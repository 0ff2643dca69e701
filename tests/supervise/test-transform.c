/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The programs the supervised modes load (supervise_program()) decide every
 * call as the transformed policy does (supervise_transform() then
 * policy_decide()), and --report and --permissive keep the profile's
 * program instruction for instruction but for the return values.
 */
#include <errno.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf.h"
#include "compile.h"
#include "sim.h"
#include "supervise.h"
#include "tap.h"

static const char profile_text[] = "[filter]\n"
				   "default-action = errno(EPERM)\n"
				   "unknown-syscall-action = errno(ENOSYS)\n"
				   "architectures = native x86 x32\n"
				   "[allow]\n"
				   "syscalls = read write close exit_group\n"
				   "socket = family == AF_UNIX\n"
				   "[errno(EAFNOSUPPORT)]\n"
				   "socket = family != AF_UNIX\n"
				   "[kill-process]\n"
				   "syscalls = mkdir\n"
				   "[kill-thread]\n"
				   "syscalls = ptrace\n"
				   "[log]\n"
				   "syscalls = uname\n"
				   "[trap]\n"
				   "syscalls = kexec_load\n";

static const char *const mode_names[] = { "none", "report", "permissive", "learn" };

/* The transformed policy's action for a call by name on the native ABI. */
static uint32_t decide(const struct policy *p, const char *name, uint64_t arg0)
{
	const struct arch *a = arch_native();
	struct seccomp_data sd = { .arch = a->audit_arch, .args = { arg0 } };
	struct decision dec;
	uint32_t nr;

	if (syscalls_lookup_name(a, name, &nr) < 0)
		return 0xdeadbeef;
	sd.nr = (int)nr;
	policy_decide(p, &sd, &dec);
	return dec.ret & SECCOMP_RET_ACTION_FULL;
}

/* Every call of every ABI with a few argument values, and a foreign ABI:
 * the number of calls where the program and the policy disagree. */
static size_t disagreements(const struct policy *p, const struct bpf_prog *prog, size_t *ret_n)
{
	static const uint64_t values[] = { 0, 1, 2, 10, 0xffffffffu, UINT64_MAX };
	size_t bad = 0, n = 0;

	for (size_t a = 0; a <= p->n_abis; a++) {
		const struct arch *arch = a < p->n_abis ? p->abis[a].arch : p->abis[0].arch;
		uint32_t audit = a < p->n_abis ? arch->audit_arch : 0x12345678;
		size_t n_known = a < p->n_abis ? p->abis[a].n_known : 1;

		for (size_t i = 0; i <= n_known; i++) {
			for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
				struct seccomp_data sd = { .arch = audit }, raw;
				struct sim_result res;
				struct decision dec;

				sd.nr = a < p->n_abis && i < n_known ? (int)p->abis[a].known[i].nr
								     : (int)(arch->nr_base + 4000);
				sd.args[0] = values[v];
				policy_decide(p, &sd, &dec);
				bpf_abi_data(arch, &sd, &raw);
				if (sim_run(prog->insns, prog->len, &raw, &res) < 0 ||
				    res.ret != dec.ret) {
					if (bad++ < 3)
						tap_diag("arch %#x nr %d arg0 %#llx: program %#x, "
							 "policy %#x",
							 audit, sd.nr,
							 (unsigned long long)values[v], res.ret,
							 dec.ret);
				}
				n++;
			}
		}
	}
	*ret_n = n;
	return bad;
}

/* Only the return values differ. */
static bool same_shape(const struct bpf_prog *a, const struct bpf_prog *b)
{
	if (a->len != b->len)
		return false;
	for (size_t i = 0; i < a->len; i++) {
		const struct sock_filter *x = &a->insns[i], *y = &b->insns[i];

		if (x->code != y->code || x->jt != y->jt || x->jf != y->jf ||
		    (BPF_CLASS(x->code) != BPF_RET && x->k != y->k))
			return false;
	}
	return true;
}

int main(void)
{
	char dir[] = "/tmp/test-transform-XXXXXX", path[sizeof(dir) + 8];
	struct compiled c;
	struct diag d;
	FILE *f;

	if (!mkdtemp(dir))
		return 99;
	snprintf(path, sizeof(path), "%s/p.ini", dir);
	f = fopen(path, "we");
	if (!f || fputs(profile_text, f) < 0 || fclose(f))
		return 99;
	diag_init(&d);
	if (compile_file(path, arch_native(), NULL, &d, &c) < 0) {
		diag_print(&d, "test-transform", stderr);
		return 99;
	}

	for (int m = SUPERVISE_REPORT; m <= SUPERVISE_LEARN; m++) {
		const char *name = mode_names[m];
		struct bpf_prog *prog = NULL;
		struct policy *p = NULL;
		size_t n = 0, bad;

		tap_ok(supervise_program(&c, (enum supervise_mode)m, &d, &prog) == 0,
		       "%s: the program is made", name);
		tap_ok(policy_build(c.rs, arch_native(), &d, &p) == 0, "%s: a policy copy", name);
		if (!prog || !p)
			return 1;
		supervise_transform(p, (enum supervise_mode)m);
		bad = disagreements(p, prog, &n);
		tap_ok(bad == 0 && n > 1000, "%s: %zu calls decided as the transformed policy does",
		       name, n);
		if (m != SUPERVISE_LEARN)
			tap_ok(same_shape(c.prog, prog),
			       "%s: the profile's program but for its returns", name);

		switch (m) {
		case SUPERVISE_REPORT:
			tap_ok(decide(p, "mkdir", 0) == SECCOMP_RET_USER_NOTIF &&
				       decide(p, "uname", 0) == SECCOMP_RET_USER_NOTIF &&
				       decide(p, "socket", 2) == SECCOMP_RET_USER_NOTIF &&
				       decide(p, "open", 0) == SECCOMP_RET_USER_NOTIF,
			       "report: errno, kill-process, log and the default are notified");
			tap_ok(decide(p, "kexec_load", 0) == SECCOMP_RET_TRAP &&
				       decide(p, "ptrace", 0) == SECCOMP_RET_KILL_THREAD &&
				       decide(p, "read", 0) == SECCOMP_RET_ALLOW &&
				       decide(p, "socket", 1) == SECCOMP_RET_ALLOW,
			       "report: trap, kill-thread and allow stay the kernel's");
			break;
		case SUPERVISE_PERMISSIVE:
			tap_ok(decide(p, "kexec_load", 0) == SECCOMP_RET_USER_NOTIF &&
				       decide(p, "ptrace", 0) == SECCOMP_RET_USER_NOTIF &&
				       decide(p, "read", 0) == SECCOMP_RET_ALLOW,
			       "permissive: everything but allow is notified");
			break;
		default:
			tap_ok(decide(p, "read", 0) == SECCOMP_RET_ALLOW &&
				       decide(p, "socket", 1) == SECCOMP_RET_ALLOW &&
				       decide(p, "open", 0) == SECCOMP_RET_USER_NOTIF,
			       "learn: allow rules stay, the default is notified");
			break;
		}
		bpf_prog_free(prog);
		policy_free(p);
	}

	/* the built-in base of --learn without -p allows everything, so that
	 * everything is notified under learn */
	{
		struct compiled base;
		struct bpf_prog *prog = NULL;
		struct policy *p = NULL;

		tap_ok(supervise_learn_base(arch_native(), &d, &base) == 0 && base.profile &&
			       base.profile->caller.reset_signals,
		       "learn base: compiled, with run mode's default caller state");
		tap_ok(decide(base.policy, "kexec_load", 0) == SECCOMP_RET_ALLOW,
		       "learn base: allows by default");
		if (supervise_program(&base, SUPERVISE_LEARN, &d, &prog) == 0 &&
		    policy_build(base.rs, arch_native(), &d, &p) == 0) {
			supervise_transform(p, SUPERVISE_LEARN);
			tap_ok(decide(p, "read", 0) == SECCOMP_RET_USER_NOTIF,
			       "learn base: under learn, every call is notified");
		} else {
			tap_ok(false, "learn base: under learn, every call is notified");
		}
		bpf_prog_free(prog);
		policy_free(p);
		compiled_free(&base);
	}

	diag_print(&d, "test-transform", stderr);
	diag_clear(&d);
	compiled_free(&c);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
