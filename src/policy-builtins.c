/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The rules scmp-run adds to what a profile says: the built-in rules and
 * the rules of the [hardening] presets that are on (scmp-run.ini(5)
 * BUILT-IN RULES, HARDENING), written in the profile language and parsed
 * into the policy, located at their key or at "built-in:NAME".
 */
#include "policy.h"
#include "policy-build.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "hardening.h"
#include "syscalls.h"

/*
 * The syscall r names by itself (not only through a group), or NULL, and
 * in *ret_abis the ABIs of abis[] it names it on (bit i: abis[i]). The one
 * place that decides what "naming a syscall" means for the built-in rules
 * (scmp-run.ini(5) SYSCALL NAMES): a name on every ABI, ABI/NUMBER on
 * that ABI only, a bare number on the filter's one ABI.
 */
static const char *named_by(const struct rule *r, const struct arch *const *abis, size_t n_abis,
			    uint32_t *ret_abis)
{
	const struct arch *by;
	const char *err;
	uint32_t nr;

	*ret_abis = 0;
	if (r->via_group)
		return NULL;
	if (syscalls_parse_numbered(r->syscall, &by, &nr, &err) < 0) {
		*ret_abis = (uint32_t)((1ull << n_abis) - 1);
		return r->syscall;
	}
	by = by ? by : n_abis == 1 ? abis[0] : NULL;
	for (size_t i = 0; by && i < n_abis; i++)
		if (abis[i] == by)
			*ret_abis = 1u << i;
	return *ret_abis ? syscalls_lookup_nr(by, nr) : NULL;
}

#define BUILTIN_PREFIX "built-in:"

const char *policy_builtin_name(const struct rule *r)
{
	size_t n = strlen(BUILTIN_PREFIX);

	return r->loc.file && !strncmp(r->loc.file, BUILTIN_PREFIX, n) ? r->loc.file + n : NULL;
}

/* Where built-in rules are added: the policy's list and its capacity. */
struct builtins {
	struct policy *p;
	const struct ruleset *rs;
	size_t cap;
};

/* Append a rule located at loc (syscall, errno name and loc.file are static
 * or live as long as rs; cond is parsed into the policy's arena, which owns
 * it). Returns 0, -ENOMEM, or -EINVAL for a condition that does not parse
 * (a bug here, not in a profile). */
static int add_rule_at(struct builtins *bs, const struct src_loc *loc, const char *syscall,
		       const char *errno_name, uint32_t errno_value, const char *cond)
{
	struct policy *p = bs->p;
	struct rule *r;
	char *err = NULL;

	r = array_grow(&p->builtins, &p->n_builtins, &bs->cap, sizeof(*r));
	if (!r)
		return -ENOMEM;
	*r = (struct rule){
		.syscall = syscall,
		.optional = true, /* an ABI without the syscall skips it */
		.action = { .kind = ACTION_ERRNO, .data = errno_value, .errno_name = errno_name },
		.loc = *loc,
		.seq = (unsigned)(bs->rs->n_rules + p->n_builtins -
				  1), /* after every rule written */
	};
	if (cond) {
		struct cond c;
		int ret = cond_parse_in(cond, &p->lists, &c, &err);

		free(err);
		if (ret < 0) {
			p->n_builtins--;
			return ret == -ENOMEM ? ret : -EINVAL;
		}
		r->conj = c.conjs[0]; /* one conjunction, no "||" */
	}
	return 0;
}

/* A built-in rule of scmp-run.ini(5) BUILT-IN RULES, located at loc_name. */
static int add_builtin(struct builtins *bs, const char *loc_name, const char *syscall,
		       const char *errno_name, uint32_t errno_value, const char *cond)
{
	const struct src_loc loc = { .file = loc_name, .line = 0 };

	return add_rule_at(bs, &loc, syscall, errno_name, errno_value, cond);
}

/* add_rule_at() with a condition made by printf. */
__attribute__((format(printf, 6, 7))) static int add_rule_fmt(
	struct builtins *bs, const struct src_loc *loc, const char *syscall, const char *errno_name,
	uint32_t errno_value, const char *fmt, ...)
{
	char *cond = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&cond, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	r = add_rule_at(bs, loc, syscall, errno_name, errno_value, cond);
	free(cond);
	return r;
}

/* ---- [hardening] presets (scmp-run.ini(5) HARDENING) ---- */

/* sched_setscheduler(2): the kernel masks SCHED_RESET_ON_FORK (0x40000000)
 * off the policy before it checks it. */
#define SCHED_POLICY_MASK "0xbfffffff"

/* personality(2) with 0xffffffff only reads the persona and changes
 * nothing: every rule on personality lets it through. The argument is an
 * unsigned int, so a condition sees the 32 bits the kernel reads
 * (scmp-run.ini(5) ARGUMENT WIDTHS AND SIGNEDNESS). */
#define PERSONALITY_QUERY "0xffffffff"

/*
 * memory-deny-write-execute by rules (the kernel lacks PR_SET_MDWE). An ABI
 * whose mmap takes its arguments in memory (i386, s390: old_mmap) would let
 * a writable and executable mapping through: an error, at the key. With
 * READ_IMPLIES_EXEC in the personality the kernel adds PROT_EXEC to every
 * readable mmap itself, past the rule on prot: setting it is refused
 * (scmp-run.ini(5) HARDENING).
 */
static int add_mdwe(struct builtins *bs, const struct hardening *h, const struct arch *const *abis,
		    size_t n_abis, struct diag *d)
{
	static const char *const calls[] = { "mprotect", "pkey_mprotect" };
	const struct src_loc *loc = &h->mdwe_loc;
	int r = 0;

	for (size_t i = 0; i < n_abis; i++) {
		struct syscall_arg args[SYSCALL_ARGS_MAX];
		bool known, named = false;
		uint32_t nr;

		if (syscalls_lookup_name(abis[i], "mmap", &nr) < 0 ||
		    syscalls_args(abis[i], "mmap", args, &known) < 0)
			continue;
		for (int k = 0; k < SYSCALL_ARGS_MAX; k++)
			named |= syscalls_arg_named(&args[k], "prot");
		if (!named) {
			diag_error(d, loc,
				   "memory-deny-write-execute: this kernel has no PR_SET_MDWE, and "
				   "on %s mmap passes its protection in memory, where seccomp "
				   "cannot see it",
				   abis[i]->name);
			return -EINVAL;
		}
	}
	r = add_rule_at(bs, loc, "mmap", "EPERM", EPERM,
			"prot & PROT_WRITE|PROT_EXEC == PROT_WRITE|PROT_EXEC");
	if (r >= 0)
		r = add_rule_at(bs, loc, "mmap2", "EPERM", EPERM,
				"prot & PROT_WRITE|PROT_EXEC == PROT_WRITE|PROT_EXEC");
	for (size_t i = 0; i < 2 && r >= 0; i++)
		r = add_rule_at(bs, loc, calls[i], "EPERM", EPERM, "prot & PROT_EXEC != 0");
	if (r >= 0)
		r = add_rule_at(bs, loc, "shmat", "EPERM", EPERM, "shmflg & SHM_EXEC != 0");
	if (r >= 0)
		r = add_rule_at(bs, loc, "personality", "EPERM", EPERM,
				"personality & READ_IMPLIES_EXEC != 0 && "
				"personality != " PERSONALITY_QUERY);
	return r;
}

/* The names of names[0..n) that are not NULL, joined by sep, in a new
 * string; NULL: out of memory. The length is counted first: stdio here cost
 * more than parsing the rules the text goes into. */
static char *join(const char *const *names, size_t n, const char *sep)
{
	size_t len = 0, k = 0, sep_len = strlen(sep);
	char *text, *at;

	for (size_t i = 0; i < n; i++)
		if (names[i])
			len += (k++ ? sep_len : 0) + strlen(names[i]);
	text = malloc(len + 1);
	if (!text)
		return NULL;
	at = text;
	for (size_t i = 0; i < n; i++) {
		if (!names[i])
			continue;
		if (at != text)
			at = mempcpy(at, sep, sep_len);
		at = mempcpy(at, names[i], strlen(names[i]));
	}
	*at = '\0';
	return text;
}

/* The CLONE_NEW* names of the namespace types restrict-namespaces denies
 * (or allows), joined by sep; CLONE_NEWTIME left out when clone is true (in
 * clone's flags, 0x80 is part of the exit signal). NULL: out of memory. */
static char *ns_flags(const struct hardening *h, bool denied, bool clone, const char *sep)
{
	const char *flags[HARDENING_NS_TYPES];
	size_t n_types;
	const struct hardening_ns *types = hardening_ns_types(&n_types);

	for (size_t i = 0; i < n_types; i++) {
		bool listed = !!(h->ns_denied & types[i].bit) == denied &&
			      !(clone && types[i].bit == HARDENING_NS_TIME);

		flags[i] = listed ? types[i].flag : NULL;
	}
	return join(flags, n_types, sep);
}

/* restrict-namespaces: unshare and clone with a prohibited flag, setns to
 * anything but an allowed type (0 means any type), clone3 (its flags are
 * in memory). */
static int add_namespaces(struct builtins *bs, const struct hardening *h)
{
	const struct src_loc *loc = &h->ns_loc;
	char *denied, *denied_clone, *allowed;
	int r = -ENOMEM;

	if (!h->ns_denied)
		return 0;
	denied = ns_flags(h, true, false, "|");
	denied_clone = ns_flags(h, true, true, "|");
	allowed = ns_flags(h, false, false, ", ");
	if (denied && denied_clone && allowed)
		r = add_rule_fmt(bs, loc, "unshare", "EPERM", EPERM, "unshare_flags & %s != 0",
				 denied);
	if (r >= 0 && *denied_clone)
		r = add_rule_fmt(bs, loc, "clone", "EPERM", EPERM, "flags & %s != 0", denied_clone);
	if (r >= 0)
		r = *allowed ? add_rule_fmt(bs, loc, "setns", "EPERM", EPERM,
					    "nstype not in { %s }", allowed)
			     : add_rule_at(bs, loc, "setns", "EPERM", EPERM, NULL);
	if (r >= 0)
		r = add_rule_at(bs, loc, "clone3", "ENOSYS", ENOSYS, NULL);
	free(denied);
	free(denied_clone);
	free(allowed);
	return r;
}

/* S_ISUID or S_ISGID in a mode argument. */
#define SET_ID_MODE "mode & S_ISUID|S_ISGID != 0"

/*
 * restrict-suid-sgid: every call that gives a file S_ISUID or S_ISGID by its
 * mode argument: chmod, and the calls that make a file (the umask holds
 * permission bits only, so a new file keeps the bits it was made with).
 * open and openat use the mode only with O_CREAT or O_TMPFILE; openat2
 * passes it in memory (ENOSYS, as from an older kernel). mkdir is left
 * alone: the kernel drops both bits from its mode (scmp-run.ini(5)
 * HARDENING).
 */
static int add_suid_sgid(struct builtins *bs, const struct hardening *h)
{
	static const char calls[][10] = { "chmod", "fchmod", "fchmodat", "fchmodat2",
					  "creat", "mknod",  "mknodat" }; /* no relocations */
	static const char opens[][7] = { "open", "openat" };
	const struct src_loc *loc = &h->suid_sgid_loc;
	int r = 0;

	if (!h->suid_sgid)
		return 0;
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]) && r >= 0; i++)
		r = add_rule_at(bs, loc, calls[i], "EPERM", EPERM, SET_ID_MODE);
	for (size_t i = 0; i < 2 && r >= 0; i++) {
		r = add_rule_at(bs, loc, opens[i], "EPERM", EPERM,
				"flags & O_CREAT != 0 && " SET_ID_MODE);
		if (r >= 0)
			r = add_rule_at(bs, loc, opens[i], "EPERM", EPERM,
					"flags & O_TMPFILE == O_TMPFILE && " SET_ID_MODE);
	}
	if (r >= 0)
		r = add_rule_at(bs, loc, "openat2", "ENOSYS", ENOSYS, NULL);
	return r;
}

/* Does restrict-address-families deny family (a name of the constant
 * table, as h->af_names holds them: no two of them share a value)? */
static bool af_denied(const struct hardening *h, const char *family)
{
	bool listed = false;

	for (size_t i = 0; i < h->n_af && !listed; i++)
		listed = !strcmp(h->af_names[i], family);
	return listed == h->af_deny_listed;
}

/* The kernel turns (AF_INET, SOCK_PACKET) into an AF_PACKET socket
 * (__sock_create(), for programs older than AF_PACKET), past a rule on the
 * family alone; it reads the type's low 4 bits (SOCK_TYPE_MASK), the rest
 * being SOCK_CLOEXEC and SOCK_NONBLOCK. */
#define INET_SOCK_PACKET "family == AF_INET && type & 0xf == SOCK_PACKET"

/* restrict-address-families: socket and socketpair with a denied family,
 * and AF_INET's SOCK_PACKET when AF_PACKET is denied and AF_INET is not. */
static int add_families(struct builtins *bs, const struct hardening *h)
{
	static const char *const calls[] = { "socket", "socketpair" };
	bool packet = af_denied(h, "AF_PACKET") && !af_denied(h, "AF_INET");
	char *set;
	int r = 0;

	if (!h->af_restrict)
		return 0;
	set = join(h->af_names, h->n_af, ", ");
	if (!set)
		return -ENOMEM;
	for (size_t i = 0; i < 2 && r >= 0; i++) {
		r = add_rule_fmt(bs, &h->af_loc, calls[i], "EAFNOSUPPORT", EAFNOSUPPORT,
				 "family %sin { %s }", h->af_deny_listed ? "" : "not ", set);
		if (r >= 0 && packet)
			r = add_rule_at(bs, &h->af_loc, calls[i], "EAFNOSUPPORT", EAFNOSUPPORT,
					INET_SOCK_PACKET);
	}
	free(set);
	return r;
}

/* The rules of every preset that is on, located at its key. Returns 0,
 * -EINVAL (reported to d) or -ENOMEM. */
static int add_hardening(struct builtins *bs, const struct hardening *h,
			 const struct arch *const *abis, size_t n_abis, struct diag *d)
{
	static const char *const rt[] = { "SCHED_FIFO", "SCHED_RR", "SCHED_DEADLINE" };
	int r = 0;

	if (h->mdwe && !h->mdwe_kernel)
		r = add_mdwe(bs, h, abis, n_abis, d);
	if (r >= 0 && h->lock_personality)
		r = add_rule_fmt(bs, &h->lock_personality_loc, "personality", "EPERM", EPERM,
				 "personality not in { %#x, " PERSONALITY_QUERY " }",
				 h->launch_personality);
	if (r >= 0)
		r = add_namespaces(bs, h);
	if (r >= 0)
		r = add_families(bs, h);
	for (size_t i = 0; i < 3 && r >= 0 && h->realtime; i++)
		r = add_rule_fmt(bs, &h->realtime_loc, "sched_setscheduler", "EPERM", EPERM,
				 "policy & " SCHED_POLICY_MASK " == %s", rt[i]);
	if (r >= 0 && h->realtime)
		r = add_rule_at(bs, &h->realtime_loc, "sched_setattr", "EPERM", EPERM, NULL);
	if (r >= 0)
		r = add_suid_sgid(bs, h);
	return r;
}

/*
 * The clone3 built-in rule (scmp-run.ini(5) BUILT-IN RULES), decided per
 * ABI: clone3's flags are in memory, so on an ABI where a rule puts a
 * condition on clone and no rule names clone3, clone3 would pass that
 * condition. Other ABIs are not concerned: a call is decided by its own
 * ABI's rules. Written by name when every ABI needs it, else as ABI/NUMBER
 * for each ABI that does (the name in the policy's arena).
 */
static int add_clone3(struct builtins *bs, const struct arch *const *abis, size_t n_abis)
{
	const struct ruleset *rs = bs->rs;
	uint32_t all = (uint32_t)((1ull << n_abis) - 1), cond = 0, named = 0, need;
	int r = 0;

	for (size_t i = 0; i < rs->n_rules; i++) {
		uint32_t on;
		const char *name = named_by(&rs->rules[i], abis, n_abis, &on);

		if (!name || strncmp(name, "clone", 5))
			continue;
		cond |= !strcmp(name, "clone") && rs->rules[i].conj.n_cmps ? on : 0;
		named |= !strcmp(name, "clone3") ? on : 0;
	}
	need = cond & ~named;
	if (need == all)
		return add_builtin(bs, "built-in:clone3", "clone3", "ENOSYS", ENOSYS, NULL);
	for (size_t i = 0; i < n_abis && r >= 0; i++) {
		size_t len = strlen(abis[i]->name) + sizeof("/4294967295");
		char *syscall;
		uint32_t nr;

		if (!(need & (1u << i)) || syscalls_lookup_name(abis[i], "clone3", &nr) < 0)
			continue;
		syscall = arena_alloc(&bs->p->lists, len);
		if (!syscall)
			return -ENOMEM;
		snprintf(syscall, len, "%s/%" PRIu32, abis[i]->name, nr);
		r = add_builtin(bs, "built-in:clone3", syscall, "ENOSYS", ENOSYS, NULL);
	}
	return r;
}

/*
 * A [landlock] TCP key: Landlock's TCP rights cover IPPROTO_TCP sockets
 * only. An MPTCP socket (IPPROTO_MPTCP) talks plain TCP to a peer without
 * MPTCP, and an SMC socket (AF_SMC, or IPPROTO_SMC since Linux 6.11) falls
 * back to plain TCP where there is no SMC peer or device, binding and
 * connecting its inner TCP socket from the kernel, past the hooks: on any
 * port. socket() gets what a kernel without them answers,
 * EPROTONOSUPPORT for the protocols and EAFNOSUPPORT for the family, on
 * which programs fall back to TCP (scmp-run.ini(5) LANDLOCK, Network).
 */
static int add_landlock_tcp(struct builtins *bs)
{
	const struct src_loc *at = &bs->rs->landlock_tcp_loc;
	int r;

	if (!at->line)
		return 0;
	r = add_rule_at(bs, at, "socket", "EPROTONOSUPPORT", EPROTONOSUPPORT,
			"protocol in { IPPROTO_MPTCP, IPPROTO_SMC }");
	if (r >= 0)
		r = add_rule_at(bs, at, "socket", "EAFNOSUPPORT", EAFNOSUPPORT, "family == AF_SMC");
	return r;
}

int policy_add_builtins(const struct ruleset *rs, struct policy *p, const struct arch *const *abis,
			size_t n_abis, struct diag *d)
{
	struct builtins bs = { .p = p, .rs = rs };
	int r = 0;

	if (!rs->hardening.tty_injection_allow)
		r = add_builtin(&bs, "built-in:tty-injection", "ioctl", "EPERM", EPERM,
				"cmd in { TIOCSTI, TIOCLINUX }");
	if (r >= 0)
		r = add_clone3(&bs, abis, n_abis);
	if (r >= 0)
		r = add_hardening(&bs, &rs->hardening, abis, n_abis, d);
	if (r >= 0)
		r = add_landlock_tcp(&bs);
	return r;
}
