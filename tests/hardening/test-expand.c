/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The rules of the [hardening] presets through the reference semantics
 * (policy_decide()): each preset's edges, the facts of the launcher, ties
 * with profile rules, and the located error of MDWE rules on i386. */
#include <errno.h>
#include <linux/seccomp.h>
#include <string.h>

#include "compile.h"
#include "consts.h"
#include "tap.h"

static const struct arch *x86_64;

/* The return value for syscall name with args on x86_64, or ~0u if the
 * ruleset does not compile. */
static uint32_t decide(const struct compiled *c, const char *name, uint64_t a0, uint64_t a1,
		       uint64_t a2)
{
	struct seccomp_data sd = { .arch = x86_64->audit_arch };
	struct decision dec;
	uint32_t nr;

	if (syscalls_lookup_name(x86_64, name, &nr) < 0)
		return ~0u;
	sd.nr = (int)nr;
	sd.args[0] = a0;
	sd.args[1] = a1;
	sd.args[2] = a2;
	policy_decide(c->policy, &sd, &dec);
	return dec.ret;
}

#define ALLOW  SECCOMP_RET_ALLOW
#define ERR(e) (SECCOMP_RET_ERRNO | (e))
#define LOC(l) ((struct src_loc){ .file = "test.ini", .line = (l) })

static struct ruleset *base(void)
{
	struct ruleset *rs = ruleset_new();

	rs->attrs.default_action = (struct action){ .kind = ACTION_ALLOW };
	rs->attrs.has_default_action = true;
	return rs;
}

static int build(struct ruleset *rs, struct compiled *c, struct diag *d)
{
	diag_init(d);
	return compile_ruleset(rs, x86_64, d, c);
}

static void test_personality(void)
{
	struct ruleset *rs = base();
	struct compiled c;
	struct diag d;

	rs->hardening.lock_personality = true;
	rs->hardening.lock_personality_loc = LOC(3);
	rs->hardening.launch_personality = 0x0008; /* PER_LINUX32 at launch */
	tap_ok(build(rs, &c, &d) == 0, "personality: compiles");
	tap_is(decide(&c, "personality", 8, 0, 0), ALLOW, "personality: the launch value");
	tap_is(decide(&c, "personality", 0xffffffff, 0, 0), ALLOW, "personality: the query");
	tap_is(decide(&c, "personality", 0, 0, 0), ERR(EPERM), "personality: PER_LINUX -> EPERM");
	tap_is(decide(&c, "personality", 0x100000008, 0, 0), ALLOW,
	       "personality: 32-bit argument, upper half ignored like the kernel");
	tap_ok(c.policy->n_builtins == 2 && c.policy->builtins[1].loc.line == 3,
	       "personality: the rule is located at the key");
	compiled_free(&c);
	diag_clear(&d);
	ruleset_free(rs);
}

static void test_mdwe(void)
{
	struct ruleset *rs = base();
	struct compiled c;
	struct diag d;

	rs->hardening.mdwe = true;
	rs->hardening.mdwe_loc = LOC(4);
	rs->hardening.mdwe_kernel = true;
	tap_ok(build(rs, &c, &d) == 0, "mdwe by the kernel: compiles");
	tap_is(decide(&c, "mprotect", 0, 4096, 7), ALLOW, "mdwe by the kernel: no rule");
	tap_is(decide(&c, "personality", 0x400000, 0, 0), ALLOW,
	       "mdwe by the kernel: no personality rule (the kernel refuses the mapping)");
	compiled_free(&c);
	diag_clear(&d);

	rs->hardening.mdwe_kernel = false;
	tap_ok(build(rs, &c, &d) == 0, "mdwe by rules: compiles");
	tap_is(decide(&c, "mprotect", 0, 4096, 5), ERR(EPERM), "mdwe: mprotect R|X -> EPERM");
	tap_is(decide(&c, "mprotect", 0, 4096, 1 | (1ull << 40) | 4), ERR(EPERM),
	       "mdwe: mprotect X with garbage above -> EPERM");
	tap_is(decide(&c, "mprotect", 0, 4096, 3), ALLOW, "mdwe: mprotect R|W");
	tap_is(decide(&c, "pkey_mprotect", 0, 4096, 4), ERR(EPERM), "mdwe: pkey_mprotect X");
	tap_is(decide(&c, "mmap", 0, 4096, 6), ERR(EPERM), "mdwe: mmap W|X -> EPERM");
	tap_is(decide(&c, "mmap", 0, 4096, 5), ALLOW, "mdwe: mmap R|X");
	tap_is(decide(&c, "shmat", 1, 0, 0x8000), ERR(EPERM), "mdwe: shmat SHM_EXEC");
	tap_is(decide(&c, "shmat", 1, 0, 0x1000), ALLOW, "mdwe: shmat SHM_RDONLY");
	tap_is(decide(&c, "personality", 0x400000, 0, 0), ERR(EPERM),
	       "mdwe: personality READ_IMPLIES_EXEC -> EPERM");
	tap_is(decide(&c, "personality", 0x400008, 0, 0), ERR(EPERM),
	       "mdwe: personality PER_LINUX32|READ_IMPLIES_EXEC -> EPERM");
	tap_is(decide(&c, "personality", (1ull << 32) | 0x400000, 0, 0), ERR(EPERM),
	       "mdwe: personality READ_IMPLIES_EXEC with garbage above -> EPERM");
	tap_is(decide(&c, "personality", 0xffffffff, 0, 0), ALLOW, "mdwe: personality query");
	tap_is(decide(&c, "personality", 0x1ffffffff, 0, 0), ALLOW,
	       "mdwe: personality query, upper half ignored like the kernel");
	tap_is(decide(&c, "personality", 0x0040008, 0, 0), ALLOW,
	       "mdwe: personality ADDR_NO_RANDOMIZE|PER_LINUX32");
	tap_ok(c.policy->n_builtins == 7 && c.policy->builtins[6].loc.line == 4,
	       "mdwe: the personality rule is located at the key");
	compiled_free(&c);
	diag_clear(&d);

	/* old_mmap on i386 hides prot: an error at the key */
	rs->attrs.arches = ARCH_NATIVE_BIT | (1u << arch_lookup("x86")->id);
	tap_is(build(rs, &c, &d), -EINVAL, "mdwe by rules with x86: rejected");
	tap_ok(d.n_errors == 1 && d.msgs[0].loc.line == 4 &&
		       strstr(d.msgs[0].text, "on x86 mmap passes its protection in memory"),
	       "mdwe by rules with x86: the error is at the key");
	compiled_free(&c);
	diag_clear(&d);
	rs->hardening.mdwe_kernel = true;
	tap_ok(build(rs, &c, &d) == 0, "mdwe by the kernel with x86: compiles");
	compiled_free(&c);
	diag_clear(&d);
	ruleset_free(rs);
}

static void test_namespaces(void)
{
	struct ruleset *rs = base();
	struct compiled c;
	struct diag d;

	rs->hardening.ns_denied = 0x7e020080; /* every type */
	rs->hardening.ns_loc = LOC(5);
	tap_ok(build(rs, &c, &d) == 0, "namespaces: compiles");
	tap_is(decide(&c, "clone", 0x80 | 0x100, 0, 0), ALLOW,
	       "namespaces: clone 0x80 is the exit signal");
	tap_is(decide(&c, "clone", 0x10000000, 0, 0), ERR(EPERM), "namespaces: clone NEWUSER");
	tap_is(decide(&c, "clone", 1ull << 60, 0, 0), ALLOW,
	       "namespaces: clone's flags are 32-bit (the kernel drops the rest)");
	tap_is(decide(&c, "unshare", 0x80, 0, 0), ERR(EPERM), "namespaces: unshare NEWTIME");
	tap_is(decide(&c, "unshare", 0x400, 0, 0), ALLOW, "namespaces: unshare CLONE_FILES");
	tap_is(decide(&c, "setns", 3, 0x40000000, 0), ERR(EPERM), "namespaces: setns NEWNET");
	tap_is(decide(&c, "clone3", 0, 0, 0), ERR(ENOSYS), "namespaces: clone3 -> ENOSYS");
	compiled_free(&c);
	diag_clear(&d);

	rs->hardening.ns_denied = 0x7e020080 & ~0x40000000u; /* net allowed */
	tap_ok(build(rs, &c, &d) == 0, "namespaces but net: compiles");
	tap_is(decide(&c, "setns", 3, 0x40000000, 0), ALLOW, "namespaces but net: setns NEWNET");
	tap_is(decide(&c, "setns", 3, 0, 0), ERR(EPERM), "namespaces but net: setns 0 -> EPERM");
	tap_is(decide(&c, "setns", 3, 0x40000000 | 0x10000000, 0), ERR(EPERM),
	       "namespaces but net: setns NEWNET|NEWUSER -> EPERM");
	tap_is(decide(&c, "unshare", 0x40000000, 0, 0), ALLOW, "namespaces but net: unshare");
	compiled_free(&c);
	diag_clear(&d);
	ruleset_free(rs);
}

static void test_families_and_ties(void)
{
	struct ruleset *rs = base();
	struct action eacces = { .kind = ACTION_ERRNO, .data = EACCES, .errno_name = "EACCES" };
	struct action allow = { .kind = ACTION_ALLOW };
	struct compiled c;
	struct diag d;
	struct cond cd;
	char *err = NULL;

	tap_ok(cond_parse("family == AF_NETLINK", &cd, &err) == 0, "families: condition");
	ruleset_add(rs, "socket", false, &eacces, &cd.conjs[0], &LOC(1));
	ruleset_add(rs, "sched_setattr", false, &allow, NULL, &LOC(2));
	cond_free(&cd);
	rs->hardening.af_restrict = true;
	rs->hardening.af_names[0] = consts_static_name("AF_UNIX");
	rs->hardening.n_af = 1;
	rs->hardening.af_loc = LOC(6);
	rs->hardening.realtime = true;
	rs->hardening.realtime_loc = LOC(7);
	rs->hardening.suid_sgid = true;
	rs->hardening.suid_sgid_loc = LOC(8);
	tap_ok(build(rs, &c, &d) == 0, "families: compiles");
	tap_is(decide(&c, "socket", 2, 1, 0), ERR(EAFNOSUPPORT), "families: AF_INET");
	tap_is(decide(&c, "socket", 1, 1, 0), ALLOW, "families: AF_UNIX");
	tap_is(decide(&c, "socket", (1ull << 32) | 1, 1, 0), ALLOW,
	       "families: 32-bit family, upper half ignored");
	tap_is(decide(&c, "socketpair", 10, 1, 0), ERR(EAFNOSUPPORT), "families: socketpair");
	tap_is(decide(&c, "socket", 16, 3, 0), ERR(EACCES),
	       "families: the profile's errno wins the tie");
	tap_is(decide(&c, "sched_setattr", 0, 0, 0), ERR(EPERM),
	       "realtime: the preset is stricter than [allow]");
	tap_is(decide(&c, "sched_setscheduler", 0, 0x40000002, 0), ERR(EPERM),
	       "realtime: RR|RESET_ON_FORK");
	tap_is(decide(&c, "sched_setscheduler", 0, 5, 0), ALLOW, "realtime: SCHED_IDLE");
	tap_is(decide(&c, "sched_setscheduler", 0, 0x80000001, 0), ALLOW,
	       "realtime: an invalid policy is the kernel's EINVAL");
	tap_is(decide(&c, "chmod", 0, 04755, 0), ERR(EPERM), "suid: chmod 4755");
	tap_is(decide(&c, "fchmodat", 3, 0, 02755), ERR(EPERM), "suid: fchmodat 2755");
	tap_is(decide(&c, "fchmod", 3, 0x10000 | 0644, 0), ALLOW,
	       "suid: mode is 16-bit (umode_t), upper bits ignored");
	tap_is(decide(&c, "chmod", 0, 01777, 0), ALLOW, "suid: the sticky bit");
	/* x86_64 open(filename, flags, mode), creat(pathname, mode),
	 * mknod(filename, mode, dev); O_CREAT 0100, O_TMPFILE 020200000 */
	tap_is(decide(&c, "open", 0, 0101, 04755), ERR(EPERM), "suid: open O_CREAT 4755");
	tap_is(decide(&c, "open", 0, 020200001, 02755), ERR(EPERM), "suid: open O_TMPFILE 2755");
	tap_is(decide(&c, "open", 0, 020000001, 02755), ALLOW,
	       "suid: open with __O_TMPFILE alone: the kernel's EINVAL");
	tap_is(decide(&c, "open", 0, 1, 04755), ALLOW, "suid: open without O_CREAT: no mode used");
	tap_is(decide(&c, "open", 0, 0101, 01755), ALLOW, "suid: open O_CREAT, the sticky bit");
	tap_is(decide(&c, "creat", 0, 06755, 0), ERR(EPERM), "suid: creat 6755");
	tap_is(decide(&c, "creat", 0, 0755, 0), ALLOW, "suid: creat 755");
	tap_is(decide(&c, "mknod", 0, 0104755, 0), ERR(EPERM), "suid: mknod S_IFREG|4755");
	tap_is(decide(&c, "mkdir", 0, 02755, 0), ALLOW, "suid: mkdir (the kernel drops both bits)");
	tap_is(decide(&c, "openat2", 0, 0, 0), ERR(ENOSYS), "suid: openat2, its mode in memory");
	tap_ok(d.n_warnings == 0, "families: no tie warning for a preset");
	compiled_free(&c);
	diag_clear(&d);
	ruleset_free(rs);
}

/* (AF_INET, SOCK_PACKET) makes an AF_PACKET socket: denied with AF_PACKET
 * unless AF_INET is denied anyway or AF_PACKET is allowed. */
static void test_sock_packet(void)
{
	static const char *const lists[][2] = { { "AF_UNIX", "AF_INET" },
						{ "AF_INET", "AF_PACKET" } };
	for (size_t i = 0; i < 2; i++) {
		struct ruleset *rs = base();
		struct compiled c;
		struct diag d;
		uint32_t packet = i ? ALLOW : ERR(EAFNOSUPPORT);

		rs->hardening.af_restrict = true;
		rs->hardening.af_names[0] = consts_static_name(lists[i][0]);
		rs->hardening.af_names[1] = consts_static_name(lists[i][1]);
		rs->hardening.n_af = 2;
		rs->hardening.af_loc = LOC(6);
		tap_ok(build(rs, &c, &d) == 0, "SOCK_PACKET: compiles");
		tap_is(decide(&c, "socket", 2, 10, 0), packet, "SOCK_PACKET: AF_INET, SOCK_PACKET");
		tap_is(decide(&c, "socket", 2, 0x8000a, 0), packet,
		       "SOCK_PACKET: with SOCK_CLOEXEC");
		tap_is(decide(&c, "socket", (1ull << 32) | 2, (1ull << 32) | 10, 0), packet,
		       "SOCK_PACKET: upper halves ignored");
		tap_is(decide(&c, "socketpair", 2, 10, 0), packet, "SOCK_PACKET: socketpair");
		tap_is(decide(&c, "socket", 2, 2, 0), ALLOW, "SOCK_PACKET: AF_INET, SOCK_DGRAM");
		compiled_free(&c);
		diag_clear(&d);
		ruleset_free(rs);
	}
}

/* A [landlock] TCP key: MPTCP and SMC sockets, which Landlock's TCP rights
 * do not cover, get EPROTONOSUPPORT or EAFNOSUPPORT, on the multiplexed
 * socket too. */
static void test_landlock_mptcp(void)
{
	const struct arch *x86 = arch_lookup("x86");
	struct seccomp_data sd = { .arch = x86->audit_arch, .nr = 102, .args = { 1 } };
	struct action allow = { .kind = ACTION_ALLOW };
	struct ruleset *rs = base();
	struct decision dec;
	struct compiled c;
	struct diag d;

	tap_ok(build(rs, &c, &d) == 0 && c.policy->n_builtins == 1,
	       "mptcp: no TCP key, no rule (tty-injection alone)");
	compiled_free(&c);
	diag_clear(&d);
	ruleset_add(rs, "socket", false, &allow, NULL, &LOC(1));
	rs->landlock_tcp_loc = LOC(5);
	rs->attrs.arches = ARCH_NATIVE_BIT | (1u << x86->id);
	tap_ok(build(rs, &c, &d) == 0, "mptcp: compiles");
	tap_is(decide(&c, "socket", 2, 1, 262), ERR(EPROTONOSUPPORT),
	       "mptcp: AF_INET, IPPROTO_MPTCP, over [allow]");
	tap_is(decide(&c, "socket", 10, 0x80801, 262), ERR(EPROTONOSUPPORT),
	       "mptcp: AF_INET6, SOCK_STREAM|SOCK_NONBLOCK|SOCK_CLOEXEC");
	tap_is(decide(&c, "socket", 2, 1, (1ull << 32) | 262), ERR(EPROTONOSUPPORT),
	       "mptcp: 32-bit protocol, upper half ignored like the kernel");
	tap_is(decide(&c, "socket", 2, 1, 6), ALLOW, "mptcp: IPPROTO_TCP");
	tap_is(decide(&c, "socket", 2, 1, 0), ALLOW, "mptcp: protocol 0");
	tap_is(decide(&c, "socket", 2, 1, 256), ERR(EPROTONOSUPPORT),
	       "smc: AF_INET, IPPROTO_SMC, over [allow]");
	tap_is(decide(&c, "socket", 43, 1, 0), ERR(EAFNOSUPPORT), "smc: AF_SMC, over [allow]");
	tap_is(decide(&c, "socket", 43, 1, 1), ERR(EAFNOSUPPORT), "smc: AF_SMC, SMCPROTO_SMC6");
	tap_is(decide(&c, "socket", 2, 1, 257), ALLOW, "smc: near miss: protocol 257");
	tap_ok(c.policy->n_builtins == 3 && c.policy->builtins[1].loc.line == 5 &&
		       c.policy->builtins[2].loc.line == 5,
	       "mptcp, smc: the rules are located at the TCP key");
	policy_decide(c.policy, &sd, &dec);
	tap_is(dec.ret, ERR(EPROTONOSUPPORT), "mptcp: x86 socketcall(SYS_SOCKET), protocol hidden");
	compiled_free(&c);
	diag_clear(&d);
	ruleset_free(rs);
}

int main(void)
{
	x86_64 = arch_lookup("x86_64");
	test_personality();
	test_mdwe();
	test_namespaces();
	test_families_and_ties();
	test_sock_packet();
	test_landlock_mptcp();
	return tap_done();
}
