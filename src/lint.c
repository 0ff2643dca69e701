/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The lint of --check (scmp-run.ini(5) LINT): looks at the rules as written
 * and the policy as resolved, and warns where a valid profile is risky or
 * does not mean what it seems to.
 */
#include "lint.h"

#include <errno.h>
#include <linux/capability.h>
#include <linux/seccomp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "caller.h"
#include "capname.h"
#include "caps.h"
#include "groups.h"
#include "number.h"
#include "oci.h"
#include "suggest.h"
#include "syscalls.h"

/* The warnings, by ID (scmp-run.ini(5) LINT lists each). */
static const char *const lint_ids[] = {
	"io-uring",    "ptrace",	   "proc-mem",	    "flag-equals",
	"shadowed",    "unknown-optional", "unknown-allow", "cap-missing",
	"cap-ambient", "run-as-root",	   "exit-denied",   "path-missing",
	"credentials", "limits",	   "arg-position",  "other-abi",
};

/* True if id names a warning of the lint. */
static bool lint_id_known(const char *id)
{
	for (size_t i = 0; i < sizeof(lint_ids) / sizeof(lint_ids[0]); i++)
		if (!strcmp(lint_ids[i], id))
			return true;
	return false;
}

/*
 * Flag arguments: the kernel reads each bit of them on its own, so one
 * value names one combination of bits, and a call that adds a bit the rule
 * did not write (an unknown bit the kernel ignores, or one that changes
 * nothing, O_CLOEXEC, SOCK_NONBLOCK) is another value. Each row says why
 * the argument is a bit set.
 */
static const struct flag_arg {
	const char *syscall, *param;
} flag_args[] = {
	/* O_* bits; open(2): unknown flags are ignored (only openat2 checks) */
	{ "open", "flags" },
	{ "openat", "flags" },
	/* PROT_* bits; mmap(2), mprotect(2) and pkey_mprotect(2) read each one */
	{ "mmap", "prot" },
	{ "mmap2", "prot" },
	{ "mprotect", "prot" },
	{ "pkey_mprotect", "prot" },
	/* MAP_* bits; mmap(2): unknown flags are ignored without MAP_SHARED_VALIDATE */
	{ "mmap", "flags" },
	{ "mmap2", "flags" },
	/* MREMAP_* bits */
	{ "mremap", "flags" },
	/* CLONE_* bits, and the exit signal in the low byte */
	{ "clone", "flags" },
	/* CLONE_NEW* bits; unshare(2) */
	{ "unshare", "unshare_flags" },
	/* mode bits; chmod(2): the kernel keeps mode & S_IALLUGO */
	{ "chmod", "mode" },
	{ "fchmod", "mode" },
	{ "fchmodat", "mode" },
	{ "fchmodat2", "mode" },
	/* the socket type carries SOCK_NONBLOCK and SOCK_CLOEXEC; socket(2) */
	{ "socket", "type" },
	{ "socketpair", "type" },
	/* MS_* bits; mount(2) */
	{ "mount", "flags" },
	/* MNT_*, UMOUNT_* bits; umount2(2) */
	{ "umount2", "flags" },
	/* PER_* persona and ADDR_* bits in one word; personality(2) */
	{ "personality", "personality" },
	/* SHM_* bits and mode bits; shmat(2), shmget(2) */
	{ "shmat", "shmflg" },
	{ "shmget", "shmflg" },
	/* *_CLOEXEC, *_NONBLOCK and friends: each flags argument is a bit set */
	{ "accept4", "flags" },
	{ "pipe2", "flags" },
	{ "dup3", "flags" },
	{ "eventfd2", "flags" },
	{ "memfd_create", "flags" },
	{ "execveat", "flags" },
	{ "renameat2", "flags" },
	/* MSG_* bits; send(2), recv(2) */
	{ "send", "flags" },
	{ "sendto", "flags" },
	{ "sendmsg", "flags" },
	{ "recv", "flags" },
	{ "recvfrom", "flags" },
	{ "recvmsg", "flags" },
};

/* One pass of the lint. */
struct lint {
	const struct compiled *c;
	const struct lint_env *env;
	struct diag *d;
	struct src_loc file_loc; /* the profile's top file, no line */
	int silenced;
	int oom;
	/* the last warning, to say it once: the alternatives of one "||"
	 * line are rules of their own that would repeat it word for word */
	const char *last_id;
	struct src_loc last_loc;
	char *last_text;
};

static bool repeats_last(const struct lint *L, const char *id, const struct src_loc *loc,
			 const char *text)
{
	return L->last_text && !strcmp(L->last_id, id) && L->last_loc.file == loc->file &&
	       L->last_loc.line == loc->line && !strcmp(L->last_text, text);
}

/* Is a warning id at loc silenced by a "; lint: allow" comment? At its
 * line; a warning located at a file alone, anywhere in that file. */
static bool silenced(const struct lint *L, const char *id, const struct src_loc *loc)
{
	const struct profile *p = L->c->profile;

	for (size_t i = 0; loc->file && i < p->n_lint_allows; i++) {
		const struct lint_allow *a = &p->lint_allows[i];

		if (!strcmp(a->id, id) && a->loc.file && !strcmp(a->loc.file, loc->file) &&
		    (loc->line == 0 || a->loc.line == loc->line))
			return true;
	}
	return false;
}

/* A warning "TEXT [ID]" at loc, then "hint: HINT" there. */
__attribute__((format(printf, 5, 6))) static void warn(struct lint *L, const char *id,
						       const struct src_loc *loc, const char *hint,
						       const char *fmt, ...)
{
	char *text = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0) {
		text = NULL;
		L->oom = -ENOMEM;
	}
	va_end(ap);
	if (text && repeats_last(L, id, loc, text)) {
		free(text);
		return;
	}
	free(L->last_text);
	L->last_text = text;
	L->last_id = id;
	L->last_loc = *loc;
	if (silenced(L, id, loc)) {
		L->silenced++;
		return;
	}
	diag_warning(L->d, loc, "%s [%s]", text ? text : "out of memory", id);
	diag_hint(L->d, loc, "%s", hint);
}

/* " (through @group)" for a rule named through a group. */
static const char *through(const struct rule *r, char *buf, size_t size)
{
	if (!r->group)
		return "";
	snprintf(buf, size, " (through %s)", r->group);
	return buf;
}

/* ---- what allows or denies a syscall ---- */

/* The rules (or the default action, rule NULL) that let a syscall through,
 * or that deny it, on some ABI of the filter, each location once, with the
 * syscalls (static strings of the caller) each decides. */
#define DECIDERS_MAX 32
#define DECIDED_MAX  3

struct deciders {
	struct decider {
		const struct rule *rule; /* NULL: the default action */
		const char *names[DECIDED_MAX];
		size_t n_names;
	} v[DECIDERS_MAX];
	size_t n;
};

/* Two rules of one line and one group are one place to the reader. */
static bool same_place(const struct rule *a, const struct rule *b)
{
	if (!a || !b)
		return a == b;
	return a->loc.file == b->loc.file && a->loc.line == b->loc.line && a->group == b->group;
}

static void deciders_add(struct deciders *a, const struct rule *rule, const char *name)
{
	struct decider *w = NULL;

	for (size_t i = 0; i < a->n && !w; i++)
		if (same_place(a->v[i].rule, rule))
			w = &a->v[i];
	if (!w) {
		if (a->n >= DECIDERS_MAX)
			return;
		w = &a->v[a->n++];
		*w = (struct decider){ .rule = rule };
	}
	for (size_t i = 0; i < w->n_names; i++)
		if (w->names[i] == name)
			return;
	if (w->n_names < DECIDED_MAX)
		w->names[w->n_names++] = name;
}

/* "a, b, c" */
static const char *decider_names(const struct decider *w, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < w->n_names && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", w->names[i]);
	return buf;
}

/* Add what lets name through (denies false) or denies it (denies true) on
 * every ABI of the policy: each rule whose action does so, and the default
 * action when no unconditional rule decides the number and the default
 * does so. */
static void decided_by(const struct lint *L, const char *name, bool denies, struct deciders *a)
{
	const struct policy *p = L->c->policy;
	bool by_default = policy_action_denies(L->c->rs->attrs.default_action.kind) == denies;

	for (size_t i = 0; i < p->n_abis; i++) {
		const struct abi_policy *abi = &p->abis[i];
		const struct rsys *s;
		bool decided = false;
		uint32_t nr;

		if (syscalls_lookup_name(abi->arch, name, &nr) < 0)
			continue;
		s = policy_rsys(abi, nr);
		for (size_t j = 0; s && j < s->n_rules; j++) {
			if (policy_action_denies(s->rules[j].src->action.kind) == denies)
				deciders_add(a, s->rules[j].src, name);
			decided |= s->rules[j].n_cmps == 0;
		}
		if (!decided && by_default)
			deciders_add(a, NULL, name);
	}
}

/* The location of a decider: its rule's, or the default-action line. */
static const struct src_loc *decider_loc(const struct lint *L, const struct decider *w)
{
	const struct filter_attrs *attrs = &L->c->rs->attrs;

	if (w->rule)
		return &w->rule->loc;
	return attrs->default_loc.file ? &attrs->default_loc : &L->file_loc;
}

/* One warning for each place that lets the syscalls names through (denies
 * false) or denies them: "NAMES allowed|denied[ by the default
 * action][ (through @group)]WHY", at the rule's line or the default
 * action's. */
static void warn_deciders(struct lint *L, const char *id, const char *const *names, size_t n_names,
			  bool denies, const char *why, const char *hint)
{
	struct deciders a = { .n = 0 };
	char buf[128], names_buf[128];

	for (size_t i = 0; i < n_names; i++)
		decided_by(L, names[i], denies, &a);
	for (size_t i = 0; i < a.n; i++) {
		const struct decider *w = &a.v[i];

		warn(L, id, decider_loc(L, w), hint, "%s %s%s%s%s",
		     decider_names(w, names_buf, sizeof(names_buf)), denies ? "denied" : "allowed",
		     w->rule ? "" : " by the default action",
		     w->rule ? through(w->rule, buf, sizeof(buf)) : "", why);
	}
}

/* ---- io-uring ---- */

static void check_io_uring(struct lint *L)
{
	static const char *const names[] = { "io_uring_setup", "io_uring_enter",
					     "io_uring_register" };
	const char *hint =
		oci_is_json(L->c->profile->path)
			? "deny them: add an entry with the names io_uring_setup, "
			  "io_uring_enter, io_uring_register and the action SCMP_ACT_ERRNO"
			: "deny them: add 'io_uring_setup io_uring_enter io_uring_register' "
			  "to a denying section such as [errno(EPERM)] (the stricter action "
			  "wins)";
	const struct src_loc *tcp = &L->c->rs->landlock_tcp_loc;
	char why[512], tcp_note[320] = "", at[256];

	/* Landlock checks io_uring's bind and connect, but the filter does
	 * not see its socket operation, which makes the MPTCP and SMC sockets
	 * that the TCP keys rely on the filter to refuse (scmp-run.ini(5)
	 * LANDLOCK, Network). */
	if (tcp->line)
		snprintf(tcp_note, sizeof(tcp_note),
			 ", and makes MPTCP and SMC sockets, which the [landlock] TCP key at %s "
			 "does not restrict",
			 src_loc_format(tcp, at, sizeof(at)));
	snprintf(why, sizeof(why),
		 ": io_uring runs operations (open, connect, ...) in the kernel without passing "
		 "the seccomp filter%s",
		 tcp_note);
	warn_deciders(L, "io-uring", names, 3, false, why, hint);
}

/* ---- ptrace, proc-mem: reachable with no Landlock domain ---- */

static void check_no_domain(struct lint *L, const char *id, const char *const *names,
			    size_t n_names, const char *what, const char *hint)
{
	const struct landlock_config *ll = &L->c->profile->landlock;
	char at[256], why[512];

	if (ll->mode != LANDLOCK_MODE_OFF)
		return;
	src_loc_format(&ll->mode_loc, at, sizeof(at));
	snprintf(why, sizeof(why), ", and [landlock] mode = off at %s: %s", at, what);
	warn_deciders(L, id, names, n_names, false, why, hint);
}

static void check_ptrace(struct lint *L)
{
	static const char *const names[] = { "ptrace", "process_vm_writev" };
	static const char *const opens[] = { "open", "openat", "openat2" };

	check_no_domain(L, "ptrace", names, 2,
			"the command can attach to or write the memory of any process of its "
			"user outside the sandbox",
			"deny ptrace and process_vm_writev, or drop 'mode = off': any Landlock "
			"domain stops them outside the domain");
	check_no_domain(L, "proc-mem", opens, 3,
			"the command can open /proc/PID/mem of any process of its user outside "
			"the sandbox and write to it",
			"drop 'mode = off': any Landlock domain stops /proc/PID/mem access outside "
			"the domain (seccomp cannot see paths)");
}

/* ---- exit-denied ---- */

/* A program ends through exit_group (the process) and exit (a thread), and
 * cannot do anything else with them; glibc's wrappers do not return when
 * they fail (scmp-run.ini(5) LINT). */
static void check_exit(struct lint *L)
{
	static const char *const names[] = { "exit_group", "exit" };
	const char *hint =
		oci_is_json(L->c->profile->path)
			? "allow them: add an entry with the names exit, exit_group and "
			  "the action SCMP_ACT_ALLOW; they can only end the calling "
			  "thread or process"
			: "allow them: add 'exit exit_group' to [allow]; they can only end "
			  "the calling thread or process";

	warn_deciders(L, "exit-denied", names, 2, true,
		      ": a program ends through exit_group (the process) and exit (a thread); "
		      "when exit_group fails, glibc ends only the calling thread, or crashes "
		      "with SIGSEGV if exit fails too; a thread whose exit fails spins at full "
		      "CPU; a kill action ends every run with SIGSYS",
		      hint);
}

/* The argument slots of syscall on the first ABI of the filter that has
 * it, into args; false if none has it or its types are not known. */
static bool first_abi_args(const struct lint *L, const char *syscall,
			   struct syscall_arg args[SYSCALL_ARGS_MAX])
{
	const struct policy *p = L->c->policy;
	bool known = false;

	for (size_t i = 0; i < p->n_abis; i++)
		if (syscalls_args(p->abis[i].arch, syscall, args, &known) == 0 ||
		    syscalls_proto_args(p->abis[i].arch, syscall, args, &known) == 0)
			return known;
	return false;
}

/* ---- flag-equals ---- */

/* The prototype name of the slot a comparison tests, on the first ABI of
 * the filter that has the syscall; NULL if unknown. */
static const struct flag_arg *flag_arg_of(const struct lint *L, const struct rule *r,
					  const struct cmp *c)
{
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	int slot = c->arg;

	if (!first_abi_args(L, r->syscall, args))
		return NULL;
	for (int k = 0; slot < 0 && k < SYSCALL_ARGS_MAX; k++)
		if (syscalls_arg_named(&args[k], c->param))
			slot = k;
	if (slot < 0)
		return NULL;
	for (size_t k = 0; k < sizeof(flag_args) / sizeof(flag_args[0]); k++)
		if (!strcmp(flag_args[k].syscall, r->syscall) &&
		    syscalls_arg_named(&args[slot], flag_args[k].param))
			return &flag_args[k];
	return NULL;
}

static void check_flag_equals(struct lint *L)
{
	const struct ruleset *rs = L->c->rs;

	for (size_t i = 0; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i];

		if (!policy_action_denies(r->action.kind))
			continue;
		for (size_t j = 0; j < r->conj.n_cmps; j++) {
			const struct cmp *c = &r->conj.cmps[j];
			const struct flag_arg *fa;
			char hint[256];

			if (c->op != CMP_EQ && c->op != CMP_IN)
				continue;
			fa = flag_arg_of(L, r, c);
			if (!fa)
				continue;
			snprintf(hint, sizeof(hint),
				 "test the bits with a mask: '%s & X == X' matches every call with "
				 "the bits X set",
				 c->param ? c->param : fa->param);
			warn(L, "flag-equals", &r->loc, hint,
			     "'%s' on the flag argument '%s' of '%s' matches one exact set of bits: "
			     "the same call with any other bit added (one the kernel ignores, or "
			     "one that changes nothing) is not denied",
			     c->op == CMP_EQ ? "==" : "in", c->param ? c->param : fa->param,
			     r->syscall);
		}
	}
}

/* ---- arg-position ---- */

/* The position of the parameter the kernel calls "arg<n>" on the first ABI
 * of the filter that has syscall, where that is not n (prctl's "arg2" is
 * its argument 1); -1 if none. */
static int kernel_argn_at(const struct lint *L, const char *syscall, int n)
{
	struct syscall_arg args[SYSCALL_ARGS_MAX];

	if (!first_abi_args(L, syscall, args))
		return -1;
	for (int k = 0; k < SYSCALL_ARGS_MAX; k++)
		if (syscalls_arg_misnumbered(&args[k], k) == n)
			return k;
	return -1;
}

/* "argN" is always position N (scmp-run.ini(5) CONDITIONS), also where the
 * kernel calls another argument argN: whoever copies prctl(2)'s "arg2"
 * into a condition tests its arg3. */
static void check_arg_position(struct lint *L)
{
	const struct ruleset *rs = L->c->rs;

	for (size_t i = 0; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i];

		for (size_t j = 0; j < r->conj.n_cmps; j++) {
			const struct cmp *c = &r->conj.cmps[j];
			int k = c->arg >= 0 ? kernel_argn_at(L, r->syscall, c->arg) : -1;
			char hint[160];

			if (k < 0)
				continue;
			snprintf(hint, sizeof(hint), "the kernel's 'arg%d' is written 'arg%d'",
				 c->arg, k);
			warn(L, "arg-position", &r->loc, hint,
			     "'arg%d' of '%s' is its argument at position %d, not the one the kernel "
			     "calls 'arg%d'",
			     c->arg, r->syscall, c->arg, c->arg);
		}
	}
}

/* ---- shadowed ---- */

/* The rrule of r among s's (not a multiplexer's copy); NULL if none. */
static const struct rrule *find_rrule(const struct rsys *s, const struct rule *r)
{
	for (size_t i = 0; s && i < s->n_rules; i++)
		if (s->rules[i].src == r && !s->rules[i].via_mux)
			return &s->rules[i];
	return NULL;
}

/* An unconditional built-in rule (scmp-run.ini(5) BUILT-IN RULES,
 * HARDENING) on r's syscall that comes before r in the decision order. */
static const struct rule *builtin_shadow(const struct policy *p, const struct rule *r)
{
	for (size_t i = 0; i < p->n_builtins; i++) {
		const struct rule *b = &p->builtins[i];

		if (b->conj.n_cmps || strcmp(b->syscall, r->syscall))
			continue;
		if (action_rank(b->action.kind) > action_rank(r->action.kind) ||
		    (b->action.kind == r->action.kind && b->action.data == r->action.data))
			return b;
	}
	return NULL;
}

/* Whether deleting the candidate mine of s changes no decision, given u,
 * the first unconditional candidate, after it with the same result: the calls
 * mine decides then go to the next candidate that matches, at most u. A
 * candidate in between with another result (the same action kind with other
 * data: the one written first wins, scmp-run.ini(5) MEANING OF A PROFILE)
 * could take some of them, so it keeps mine useful. */
static bool same_result_up_to(const struct rrule *mine, const struct rrule *u)
{
	if (mine->ret != u->ret || mine > u)
		return false;
	for (const struct rrule *x = mine + 1; x < u; x++)
		if (x->ret != mine->ret)
			return false;
	return true;
}

/*
 * Whether r's syscall is a sub-call of a multiplexer of abi (socketcall,
 * ipc) that has a rule of its own with r's action kind and other data,
 * written after r. On the multiplexer's path r can be the sub-call's first
 * candidate, and the written-first tie between the two picks r
 * (scmp-run.ini(5) MEANING OF A PROFILE): without r, that rule would win.
 */
static bool mux_tie_after(const struct abi_policy *abi, const struct rule *r)
{
	const struct rsys *s;
	enum mux_kind k;
	const char *mux;
	uint32_t ret, nr;

	if (action_ret(&r->action, abi->arch, &ret) < 0)
		return true;
	if (!arch_mux_subcall(abi->arch, r->syscall, &k))
		return false;
	mux = arch_mux_name(abi->arch, k);
	if (!mux || syscalls_lookup_name(abi->arch, mux, &nr) < 0)
		return false;
	s = policy_rsys(abi, nr);
	for (size_t i = 0; s && i < s->n_rules; i++) {
		const struct rrule *x = &s->rules[i];

		if (!x->via_mux && x->src->action.kind == r->action.kind && x->src->seq > r->seq &&
		    x->ret != ret)
			return true;
	}
	return false;
}

/* The unconditional rule that makes the conditional rule r decide nothing
 * on every ABI that has its syscall; NULL if there is none. On an ABI, r
 * decides nothing when the policy dropped it behind an unconditional rule,
 * or when every candidate from r down to the first unconditional one has
 * r's very result. */
static const struct rule *shadow_of(const struct lint *L, const struct rule *r)
{
	const struct policy *p = L->c->policy;
	const struct rule *by = NULL;
	bool has = false;

	for (size_t i = 0; i < p->n_abis; i++) {
		const struct abi_policy *abi = &p->abis[i];
		const struct rsys *s;
		const struct rrule *mine, *u = NULL;
		uint32_t nr;

		if (mux_tie_after(abi, r))
			return NULL;
		if (syscalls_lookup_name(abi->arch, r->syscall, &nr) < 0)
			continue;
		has = true;
		s = policy_rsys(abi, nr);
		for (size_t j = 0; s && j < s->n_rules && !u; j++)
			if (!s->rules[j].n_cmps && !s->rules[j].via_mux)
				u = &s->rules[j];
		if (!u) {
			/* A number whose rules all decide like the default is
			 * left out of the policy: a built-in rule may be why. */
			const struct rule *b = s ? NULL : builtin_shadow(p, r);

			if (!b)
				return NULL;
			by = b;
			continue;
		}
		/* a condition always true on this ABI (count >= 0 on an
		 * unsigned count): r is the unconditional rule, and decides */
		if (u->src == r)
			return NULL;
		mine = find_rrule(s, r);
		if (mine && !same_result_up_to(mine, u))
			return NULL;
		if (!mine) {
			/* Dropped behind u only if u comes first in the decision
			 * order; else r is missing for another reason (a
			 * condition that is never true, warned about apart). */
			int ru = action_rank(u->src->action.kind), rr = action_rank(r->action.kind);

			if (ru < rr || (ru == rr && u->src->seq > r->seq))
				return NULL;
		}
		by = u->src;
	}
	return has ? by : NULL;
}

static void check_shadowed(struct lint *L)
{
	const struct ruleset *rs = L->c->rs;
	char act[64], at[256], buf[128];

	for (size_t i = 0; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i], *u;

		if (!r->conj.n_cmps)
			continue;
		u = shadow_of(L, r);
		if (!u)
			continue;
		warn(L, "shadowed", &r->loc,
		     "remove one of the two rules: as written, the condition changes nothing",
		     "this condition on '%s' never decides: %s %s%s at %s applies to every call of "
		     "'%s' with an action at least as strict",
		     r->syscall, action_format(&u->action, act, sizeof(act)), u->syscall,
		     through(u, buf, sizeof(buf)), src_loc_format(&u->loc, at, sizeof(at)),
		     r->syscall);
	}
}

/* ---- unknown-optional ---- */

/* Whether a built-in group lists name. */
static bool in_builtin_group(const char *name)
{
	size_t n;
	const struct group *g = groups_list(&n);

	for (size_t i = 0; i < n; i++)
		for (const char *m = g[i].members; m && *m; m = groups_next(m))
			if (!strcmp(m, name))
				return true;
	return false;
}

/* "x86_64 x86": the names of the filter's ABIs, into buf. */
static const char *filter_abis(const struct policy *p, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < p->n_abis && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "",
					p->abis[i].arch->name);
	return buf;
}

static void check_unknown_optional(struct lint *L)
{
	const struct ruleset *rs = L->c->rs;
	char abis[128];

	filter_abis(L->c->policy, abis, sizeof(abis));
	for (size_t i = 0; i < rs->n_rules; i++) {
		const struct rule *r = &rs->rules[i];

		if (!r->optional || policy_reaches(L->c->policy, r->syscall))
			continue;
		/* a group's member for other ABIs is what groups are for, and
		 * systemd's groups list names no kernel has; any other name no
		 * table has is a typo, in a [groups] line as well */
		if (r->via_group && (syscalls_known(r->syscall) || in_builtin_group(r->syscall)))
			continue;
		if (!syscalls_known(r->syscall))
			warn(L, "unknown-optional", &r->loc,
			     "check the spelling: '?' makes a real name optional on the ABIs that "
			     "lack it, it does not make a typo harmless",
			     "'%s?'%s%s%s names no syscall the table knows: the rule matches "
			     "nothing",
			     r->syscall, r->via_group ? " (in " : "", r->via_group ? r->group : "",
			     r->via_group ? ")" : "");
		else
			warn(L, "unknown-optional", &r->loc,
			     "remove it if the profile is only for these ABIs; silence this warning "
			     "if the rule is meant for other architectures",
			     "'%s?' names no syscall of the filter's ABIs (%s): the rule matches "
			     "nothing here",
			     r->syscall, abis);
	}
}

/* ---- other-abi ---- */

/* Whether syscall is written "ABI/NUMBER" for an ABI the filter does not
 * have, by itself (via_group false: a group may name members for several
 * ABIs). */
static bool other_abi(const struct policy *p, const char *syscall, bool via_group)
{
	const struct arch *by;
	const char *err;
	uint32_t nr;

	if (via_group || syscalls_parse_numbered(syscall, &by, &nr, &err) < 0 || !by)
		return false;
	for (size_t a = 0; a < p->n_abis; a++)
		if (p->abis[a].arch == by)
			return false;
	return true;
}

/* The warning for the numbers of one line, collected in names: of rules,
 * or (prio) of a [priority] key. */
static void warn_other_abi(struct lint *L, const struct src_loc *loc, const char *names, bool prio)
{
	char abis[128], hint[160];

	snprintf(hint, sizeof(hint),
		 "add the ABI to [filter] architectures or correct the one before '/'; silence "
		 "this warning if the %s is meant for other architectures",
		 prio ? "priority" : "rule");
	warn(L, "other-abi", loc, hint, "%s: %s on an ABI the filter does not have (%s): %s", names,
	     prio ? "priority for a number" : "by number",
	     filter_abis(L->c->policy, abis, sizeof(abis)),
	     prio ? "it applies to nothing here" : "matches nothing here");
}

/* A rule on "ABI/NUMBER" of an ABI the filter lacks never decides a call
 * (scmp-run.ini(5) SYSCALL NAMES): right in a profile for several machines,
 * a typo of the ABI otherwise, and then a denial stops nothing. One warning
 * per line, naming its numbers. A [priority] key so written orders nothing. */
static void check_other_abi(struct lint *L)
{
	const struct ruleset *rs = L->c->rs;
	const struct rule *first = NULL, *last = NULL;
	char names[160];
	size_t len = 0;

	for (size_t i = 0; i <= rs->n_rules; i++) {
		const struct rule *r = i < rs->n_rules ? &rs->rules[i] : NULL;

		if (first &&
		    (!r || r->loc.file != first->loc.file || r->loc.line != first->loc.line)) {
			warn_other_abi(L, &first->loc, names, false);
			first = NULL;
		}
		if (!r || r->name_key || !other_abi(L->c->policy, r->syscall, r->via_group))
			continue;
		if (!first) {
			first = r;
			len = 0;
			names[0] = '\0';
		} else if (!strcmp(last->syscall, r->syscall)) {
			continue; /* the "||" alternatives of one key */
		}
		if (len < sizeof(names))
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s'%s'",
						len ? ", " : "", r->syscall);
		last = r;
	}
	/* [priority]: one key a line, so one number a warning */
	for (size_t i = 0; i < rs->n_prios; i++) {
		const struct priority *q = &rs->prios[i];
		char name[80];

		if (!other_abi(L->c->policy, q->syscall, q->via_group))
			continue;
		snprintf(name, sizeof(name), "'%s'", q->syscall);
		warn_other_abi(L, &q->loc, name, true);
	}
}

/* ---- unknown-allow ---- */

static void check_unknown_allow(struct lint *L)
{
	const struct filter_attrs *a = &L->c->rs->attrs;
	char act[64];

	if (!a->has_unknown_action || policy_action_denies(a->unknown_action.kind) ||
	    !policy_action_denies(a->default_action.kind))
		return;
	warn(L, "unknown-allow", &a->unknown_loc,
	     "remove the key: the default, errno(ENOSYS), makes libc fall back to an older "
	     "call; name a syscall the table predates by its number to allow it",
	     "unknown-syscall-action = %s under a default action that denies: every syscall "
	     "newer than the table runs unfiltered",
	     action_format(&a->unknown_action, act, sizeof(act)));
}

/* ---- capabilities and credentials ---- */

static void check_caps(struct lint *L)
{
	const struct profile *p = L->c->profile;
	const struct lint_env *env = L->env;
	char missing[512] = "", user[64], name[64];
	size_t len = 0;

	if (!p->n_keep_caps)
		return;
	for (unsigned i = 0; i < p->n_keep_caps && len < sizeof(missing); i++) {
		int cap = p->keep_caps[i];

		if (cap >= 0 && cap < 64 && (env->caller_caps & (UINT64_C(1) << cap)))
			continue;
		capname_format(cap, name, sizeof(name));
		len += (size_t)snprintf(missing + len, sizeof(missing) - len, "%s%s",
					len ? " " : "", name);
	}
	if (len)
		warn(L, "cap-missing", &p->keep_loc,
		     "run scmp-run with these capabilities (as root), or remove them from keep",
		     "kept capabilities the caller (uid %u) does not have: %s; run mode cannot "
		     "give them to the command",
		     (unsigned)env->caller_uid, missing);
	if (p->ambient || !env->target_known || env->target_root)
		return;
	if (p->has_user)
		snprintf(user, sizeof(user), "user '%s'", p->user);
	else
		snprintf(user, sizeof(user), "the caller (uid %u)", (unsigned)env->caller_uid);
	warn(L, "cap-ambient", &p->keep_loc,
	     "add [capabilities] ambient = yes to pass them on through execve",
	     "keep without 'ambient = yes' for %s, who is not root: the kernel drops the kept "
	     "capabilities at execve, and the command runs without them",
	     user);
}

static void check_root(struct lint *L)
{
	const struct profile *p = L->c->profile;
	const struct src_loc loc = { .file = p->path };

	if (!L->env->caller_root || p->has_user)
		return;
	warn(L, "run-as-root", &loc, CALLER_ROOT_HINT,
	     "run mode would refuse this profile here: the command would run as root (uid 0), "
	     "and the profile does not say so");
}

/* [credentials] as this machine would apply them: run mode looks the
 * names up (scmp-run(1), Run mode) and refuses the profile when one is
 * not found. */
static void check_credentials(struct lint *L)
{
	const struct lint_env *env = L->env;
	const char *name = env->cred_name;
	char msg[NUMBER_ID_MSG_MAX];

	switch (env->cred) {
	case LINT_CRED_OK:
		return;
	case LINT_CRED_USER_RANGE:
	case LINT_CRED_GROUP_RANGE:
		/* run mode's message (resolve_user(), lookup_group()) */
		(void)number_id_range_error(name,
					    env->cred == LINT_CRED_USER_RANGE ? "user" : "group",
					    msg, sizeof(msg));
		warn(L, "credentials", &env->cred_loc, "write a number below 4294967295, or a name",
		     "run mode would refuse this profile here: %s", msg);
		return;
	case LINT_CRED_NO_USER:
	case LINT_CRED_NO_GROUP:
		warn(L, "credentials", &env->cred_loc,
		     "names are looked up on the machine that runs the command: add it there, "
		     "or name another",
		     "run mode would refuse this profile here: unknown %s '%s'",
		     env->cred == LINT_CRED_NO_USER ? "user" : "group", name);
		return;
	case LINT_CRED_NO_PRIMARY:
		warn(L, "credentials", &env->cred_loc, "set 'group' as well",
		     "run mode would refuse this profile here: user id %s has no passwd entry, "
		     "so it has no primary group",
		     name);
		return;
	case LINT_CRED_SUPP_ALONE:
		warn(L, "credentials", &env->cred_loc,
		     "set [credentials] user or group: the groups are set when the credentials "
		     "are switched",
		     "run mode would refuse this profile here: supplementary-groups needs "
		     "[credentials] user or group");
		return;
	}
}

/* A limit of [limits] that setrlimit(2) refuses in this process: run mode
 * sets the limits first and refuses the profile (scmp-run.ini(5) LIMITS). */
static void check_limits(struct lint *L)
{
	const struct lint_env *env = L->env;
	const struct rlimits_entry *e = &L->c->profile->limits.e[env->limit_key];
	char want[32], max[32];

	if (!env->limit_bad)
		return;
	snprintf(want, sizeof(want), "%llu", (unsigned long long)e->hard);
	if (e->hard == RLIM_INFINITY)
		snprintf(want, sizeof(want), "infinity");
	snprintf(max, sizeof(max), "%llu", (unsigned long long)env->limit_max);
	if (env->limit_max == RLIM_INFINITY)
		snprintf(max, sizeof(max), "infinity");
	warn(L, "limits", &e->loc,
	     env->limit_nr_open
		     ? "open-files cannot exceed fs.nr_open (/proc/sys/fs/nr_open), even with "
		       "CAP_SYS_RESOURCE"
		     : "raising a hard limit needs CAP_SYS_RESOURCE, which this process lacks: "
		       "lower it, or start scmp-run with it",
	     "run mode would refuse this profile here: the hard limit of %s, %s, is above %s, "
	     "the most this process may set",
	     rlimits_key_name(env->limit_key), want, max);
}

/* ---- what run mode refuses for every command: errors ---- */

/*
 * Run mode asks the filter about its own execve() of the command, with the
 * pointers execve() gets, and refuses a filter that stops it (scmp-run(1),
 * Run mode): decided here the same way, on the ABI run mode would use. A
 * profile problem, not a fact of this machine: an error of --check.
 */
static void check_execve(struct lint *L)
{
	const struct arch *a = L->env->arch;
	char *const argv[] = { "COMMAND", NULL };
	struct seccomp_data sd = { .arch = a ? a->audit_arch : 0 };
	const struct src_loc *loc;
	struct decision dec;
	uint32_t nr, action;
	char buf[64];

	if (!a || syscalls_lookup_name(a, "execve", &nr) < 0)
		return;
	sd.nr = (int)nr;
	sd.args[0] = (uintptr_t)argv[0];
	sd.args[1] = (uintptr_t)argv;
	sd.args[2] = (uintptr_t)argv + sizeof(argv);
	policy_decide(L->c->policy, &sd, &dec);
	action = dec.ret & SECCOMP_RET_ACTION_FULL;
	if (action == SECCOMP_RET_ALLOW || action == SECCOMP_RET_LOG)
		return;
	loc = &L->file_loc;
	if (dec.why == DECIDE_RULE)
		loc = &dec.rule->src->loc;
	else if (L->c->rs->attrs.default_loc.file)
		loc = &L->c->rs->attrs.default_loc;
	diag_error(L->d, loc,
		   "run mode refuses this profile: the filter stops the execve() of the command "
		   "itself (%s)",
		   action_format_ret(dec.ret, a, buf, sizeof(buf)));
	diag_hint(L->d, loc,
		  "allow 'execve'; a profile for a launcher that installs the filter after its "
		  "own execve() is for --export-bpf or --export-oci");
}

/* The notify action hands a call to a supervising process: run mode has
 * none, and the supervised modes keep the listener for themselves
 * (scmp-run(1), Run mode and FINDING WHAT WAS DENIED). An error of
 * --check, as check_execve()'s. */
static void check_notify(struct lint *L)
{
	const struct src_loc *loc = ruleset_notify_at(L->c->rs, &L->file_loc);

	if (!loc)
		return;
	diag_error(L->d, loc,
		   "scmp-run refuses to run this profile: the notify action needs a supervisor; "
		   "run mode has none, and --report, --permissive and --learn keep the listener "
		   "for themselves");
	diag_hint(L->d, loc,
		  "use the profile through --export-bpf or --export-oci with a launcher that "
		  "supervises the command");
}

/* no-new-privs = no: the filter can then be installed only by a process
 * with CAP_SYS_ADMIN, which run mode keeps only if [capabilities] keep
 * names it (scmp-run.ini(5) no-new-privs). An error, as check_execve()'s;
 * a kept capability the caller lacks is cap-missing's. */
static void check_nnp(struct lint *L)
{
	const struct filter_attrs *at = &L->c->rs->attrs;
	const struct profile *p = L->c->profile;
	const struct src_loc *loc = at->nnp_loc.file ? &at->nnp_loc : &L->file_loc;

	if (at->no_new_privs)
		return;
	if (profile_keeps_cap(p, CAP_SYS_ADMIN))
		return;
	diag_error(L->d, loc, "run mode refuses this profile: %s", CAPS_NNP_NEEDS_SYS_ADMIN);
	diag_hint(L->d, loc, "%s", CAPS_NNP_HINT);
}

/* ---- [landlock] paths ---- */

/*
 * A path without '?' that cannot be opened now: run mode opens every path
 * before anything changes and refuses the profile when one fails
 * (scmp-run.ini(5) LANDLOCK, Paths). Only a warning: the path may exist
 * at launch, on the machine the profile is for. With mode = off nothing
 * is opened.
 */
static void check_landlock_paths(struct lint *L)
{
	const struct landlock_config *ll = &L->c->profile->landlock;
	struct landlock_link_dirs *ld;

	/* without the write directories (out of memory) no path can be
	 * opened as run mode opens it */
	if (ll->mode == LANDLOCK_MODE_OFF || landlock_link_dirs_new(ll, &ld) < 0)
		return;
	for (size_t i = 0; i < ll->n_paths; i++) {
		const struct landlock_path_rule *pr = &ll->paths[i];
		bool planted;
		int r = landlock_path_check(ld, pr, &planted);
		char hint[LANDLOCK_PATH_MAX + 64];

		if (r == 0)
			continue;
		if (r == -ENOENT || r == -ENOTDIR) {
			snprintf(hint, sizeof(hint), "write '%s?' for a path that may be missing",
				 pr->path);
			warn(L, "path-missing", &pr->loc, hint,
			     "landlock: '%s' does not exist now (%s): run mode would refuse the "
			     "profile",
			     pr->path, strerror(-r));
			continue;
		}
		if (r == -EBADFD) {
			warn(L, "path-missing", &pr->loc, landlock_no_rule_hint,
			     "landlock: Landlock takes no rule on '%s' now (%s): run mode would "
			     "refuse the profile",
			     pr->path, strerror(-r));
			continue;
		}
		if (r == -ELOOP && planted) {
			warn(L, "path-missing", &pr->loc, landlock_link_hint,
			     "landlock: a symbolic link is on the way to '%s' (%s): run mode "
			     "would refuse the profile",
			     pr->path, strerror(-r));
			continue;
		}
		warn(L, "path-missing", &pr->loc,
		     "run mode opens the paths as the caller, before the credential switch",
		     "landlock: opening '%s' fails now (%s): run mode would refuse the profile",
		     pr->path, strerror(-r));
	}
	landlock_link_dirs_free(ld);
}

/* ---- the comments themselves ---- */

/* An unknown ID in a lint comment: a warning at the comment, with "did you
 * mean 'io-uring'?" when a known ID is close (suggest.h). */
static void check_comments(struct lint *L)
{
	const struct profile *p = L->c->profile;

	for (size_t i = 0; i < p->n_lint_allows; i++) {
		const struct lint_allow *a = &p->lint_allows[i];
		struct suggest sg;

		if (lint_id_known(a->id))
			continue;
		diag_warning(L->d, &a->loc,
			     "unknown lint warning '%s' in a lint comment (see "
			     "scmp-run.ini(5) LINT)",
			     a->id);
		suggest_init(&sg, a->id);
		for (size_t j = 0; j < sizeof(lint_ids) / sizeof(lint_ids[0]); j++)
			suggest_offer(&sg, lint_ids[j]);
		if (suggest_result(&sg))
			diag_hint(L->d, &a->loc, "did you mean '%s'?", suggest_result(&sg));
	}
}

int lint_check(const struct compiled *c, const struct lint_env *env, struct diag *d)
{
	struct lint L = { .c = c, .env = env, .d = d, .file_loc = { .file = c->profile->path } };

	check_comments(&L);
	check_io_uring(&L);
	check_ptrace(&L);
	check_exit(&L);
	check_flag_equals(&L);
	check_arg_position(&L);
	check_shadowed(&L);
	check_unknown_optional(&L);
	check_other_abi(&L);
	check_unknown_allow(&L);
	check_caps(&L);
	check_root(&L);
	check_credentials(&L);
	check_limits(&L);
	check_execve(&L);
	check_notify(&L);
	check_nnp(&L);
	check_landlock_paths(&L);
	free(L.last_text);
	return L.oom ? L.oom : L.silenced;
}

/* Records what run mode would refuse; true, for the caller to stop. */
static bool set_cred(struct lint_env *ret, enum lint_cred cred, const char *name,
		     const struct src_loc *loc)
{
	ret->cred = cred;
	ret->cred_name = name;
	ret->cred_loc = *loc;
	return true;
}

/* Would run mode refuse the group name (or number) written at loc? As
 * run mode reads it: digits are a gid, or out of range, never a name. */
static bool probe_group(const char *name, const struct src_loc *loc, struct lint_env *ret)
{
	uint32_t id;

	if (number_parse_id(name, &id))
		return false;
	if (number_id_range_error(name, "group", NULL, 0))
		return set_cred(ret, LINT_CRED_GROUP_RANGE, name, loc);
	if (!caller_group_known(name))
		return set_cred(ret, LINT_CRED_NO_GROUP, name, loc);
	return false;
}

/* The lookups of run mode's credential switch, in its order (run.c,
 * plan_build()): the first it would refuse. True if there is one. */
static bool probe_credentials(const struct profile *p, struct lint_env *ret)
{
	bool set_uid = p->has_user && p->user, set_gid = p->has_group && p->group;
	uint32_t id;

	if (set_uid) {
		bool num = number_parse_id(p->user, &id);
		const struct passwd *pw;

		/* as run mode reads it: digits are a uid, or out of range */
		if (number_id_range_error(p->user, "user", NULL, 0))
			return set_cred(ret, LINT_CRED_USER_RANGE, p->user, &p->user_loc);
		pw = num ? getpwuid(id) : getpwnam(p->user);
		ret->target_known = pw || num;
		ret->target_root = ret->target_known && (pw ? pw->pw_uid : id) == 0;
		if (!pw && !num)
			return set_cred(ret, LINT_CRED_NO_USER, p->user, &p->user_loc);
		if (!pw && !set_gid)
			return set_cred(ret, LINT_CRED_NO_PRIMARY, p->user, &p->user_loc);
	}
	if (set_gid && probe_group(p->group, &p->group_loc, ret))
		return true;
	for (unsigned i = 0; i < p->n_supp_groups; i++)
		if (probe_group(p->supp_groups[i], &p->supp_loc, ret))
			return true;
	if ((p->supp_init || p->n_supp_groups) && !set_uid && !set_gid)
		return set_cred(ret, LINT_CRED_SUPP_ALONE, NULL, &p->supp_loc);
	return false;
}

void lint_env_probe(const struct profile *p, struct lint_env *ret)
{
	struct caps_sets now = { 0 };

	*ret = (struct lint_env){
		.caller_root = getuid() == 0 || geteuid() == 0,
		.caller_uid = getuid(),
	};
	if (caps_read(&now) == 0)
		ret->caller_caps = now.prm;
	if (!p->has_user) {
		ret->target_known = true;
		ret->target_root = getuid() == 0;
	}
	(void)probe_credentials(p, ret);
	/* setrlimit(2): raising a hard limit needs CAP_SYS_RESOURCE, effective */
	ret->limit_bad = rlimits_check(&p->limits, now.eff & (UINT64_C(1) << CAP_SYS_RESOURCE),
				       &ret->limit_key, &ret->limit_max, &ret->limit_nr_open);
}
