/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Differential test against libseccomp 2.5.4: the same random rule sets are
 * compiled by our engine and by libseccomp, and both programs are run in our
 * simulator over random and boundary inputs. They must never disagree.
 * Usage: test-libseccomp [SETS [SEED [SHAPES]]]   (SHAPES: enum shape bits)
 *
 * The domain where scmp-run.ini(5) (ARGUMENT WIDTHS AND SIGNEDNESS, MEANING
 * OF A PROFILE) and libseccomp 2.5.4 mean the same thing:
 *  - ABIs: x86_64, aarch64, x86_64 + x86, x86_64 + x86 + x32. No syscall
 *    that is multiplexed on one of them (socketcall/ipc families): our
 *    fail-closed mux rules are not libseccomp's. A syscall is used only if
 *    both tables give it the same number on every ABI of the set.
 *  - x86_64 numbers 0x80000000..0xbfffffff (neither x32 nor -1): the kernel
 *    and we treat them as unknown x86_64 numbers, libseccomp as bad-arch (it
 *    tests nr >= 0x40000000, not the x32 bit). Left out.
 *  - x32: libseccomp treats it as a 32-bit ABI and compares the low halves
 *    only; we (and the kernel, which reads whole registers) compare 64-bit
 *    arguments in full. x32 inputs have a zero upper half.
 *  - Per syscall a single action, and rules of these shapes (DOMAIN_SHAPES):
 *    unconditional; unconditional plus conditional; one conditional rule
 *    ("in" only as its sole comparison); value sets on one argument
 *    ("argN == v" / "argN in {...}" rules). Overlapping rules of different
 *    actions resolve differently from our precedence rule (libseccomp refuses
 *    a second action for the same condition). Several conditional rules that
 *    compare other operators or several arguments are outside: libseccomp
 *    2.5.4 gets them wrong (it drops rules, e.g. "a1 == 0" then
 *    "a0 >= 0x80 && a1 != 0"; it compares a stale accumulator, e.g. four
 *    rules on mprotect's a0 ">= 0x100000001", "== 0x7ffffffe",
 *    "== 0x7fffffffffffffff", "< 1" match a0 = 0xfffffffe; and
 *    seccomp_rule_add() can loop forever). SHAPES 0x70 runs those shapes.
 *  - A rule whose action is the default action is fed to our engine only
 *    (libseccomp refuses it; it cannot change a result).
 *  - At most one comparison per argument in a rule (libseccomp refuses
 *    more). "in { a, b }" becomes one libseccomp rule per value. No masked
 *    "!=", no "not in" (no such libseccomp operator); a masked value has no
 *    bits outside its mask (libseccomp drops them, we never match). trap
 *    without data only. No unknown-syscall-action (libseccomp has none): our
 *    sets write the default action as theirs.
 *  - The built-in tty-injection rule (scmp-run.ini(5) BUILT-IN RULES) is
 *    given to libseccomp as a rule of its own in the sets without ioctl
 *    rules; the sets with ioctl rules opt out of it.
 *  - Argument slots whose type is the same width and signedness on every
 *    64-bit ABI of the set; no 16-bit (umode_t) slots, no register pairs.
 *    With a 32-bit ABI in the set every value fits 32 bits, and the inputs
 *    of a 32-bit ABI have a zero upper half, as the kernel gives them.
 *  - 64-bit arguments: SCMP_CMP64 comparisons, all 64 bits, any input.
 *  - 32-bit arguments (int, unsigned int...) on a 64-bit ABI: we compare the
 *    low half only. libseccomp 2.5.4's SCMP_CMP32() is SCMP_CMP64() with the
 *    datum cast to uint32_t: it compares all 64 bits against a zero upper
 *    half. So "==", "in" and masked "==" are given to libseccomp as
 *    SCMP_CMP_MASKED_EQ with a 32-bit mask (exact for any upper half), and
 *    "!=" and the ordered operators as SCMP_CMP32(); the inputs of a slot
 *    compared that way have a zero upper half (where the two agree).
 *  - Ordered comparisons of signed arguments: libseccomp orders unsigned.
 *    Their values are non-negative and their inputs too (0..INT32_MAX for
 *    32-bit arguments, 0..INT64_MAX for 64-bit ones), where the orders agree.
 *  - Pointers: "== 0" and "!= 0" only, as ARGUMENT WIDTHS AND SIGNEDNESS requires.
 * libseccomp's program is built with SCMP_FLTATR_CTL_OPTIMIZE 1 and 2 on
 * alternate rule sets (in a child process, with a time limit), exported with
 * seccomp_export_bpf() to a memfd.
 */
#include <errno.h>
#include <inttypes.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine-util.h"
#include "sim.h"
#include "tap.h"
#include "rng.h"
#include "rnd-cond.h"

#define MAX_ABIS       3
#define MAX_SYS	       24
#define MAX_RULES      96
#define MAX_CMPS       3
#define INPUTS_PER_SET 400
#define DEFAULT_SETS   1000
/* the shapes (enum shape bits) where the two agree; argv[3] overrides */
#define DOMAIN_SHAPES 0xfu

struct abi_set {
	const char *names[MAX_ABIS];
	uint32_t scmp[MAX_ABIS];
};

static const struct abi_set abi_sets[] = {
	{ { "x86_64" }, { SCMP_ARCH_X86_64 } },
	{ { "aarch64" }, { SCMP_ARCH_AARCH64 } },
	{ { "x86_64", "x86" }, { SCMP_ARCH_X86_64, SCMP_ARCH_X86 } },
	{ { "x86_64", "x86", "x32" }, { SCMP_ARCH_X86_64, SCMP_ARCH_X86, SCMP_ARCH_X32 } },
};
#define N_ABI_SETS (sizeof(abi_sets) / sizeof(abi_sets[0]))

/* Not multiplexed on any ABI above; a mix of argument types. */
/* clang-format off */
static const char *const syscall_pool[] = {
	"read", "write", "close", "openat", "kill", "ioctl", "lseek", "mprotect", "madvise",
	"fcntl", "dup", "dup3", "prctl", "setuid", "personality", "futex", "getpriority",
	"setpriority", "umask", "mmap", "munmap", "pread64", "exit_group", "getpid", "setpgid",
	"tgkill", "fchown", "ftruncate", "pipe2", "eventfd2", "epoll_create1", "timerfd_create",
	"getrandom", "memfd_create", "mlock", "brk", "flock", "fsync", "sched_setaffinity",
	"clock_gettime", "nanosleep", "wait4", "setresuid", "fchdir", "sendfile", "splice",
	"tee", "readahead", "mremap", "msync", "getcwd", "unshare", "setns", "capget",
};
/* clang-format on */
#define N_POOL (sizeof(syscall_pool) / sizeof(syscall_pool[0]))

struct act {
	const char *text;
	uint32_t scmp;
};

static const struct act actions[] = {
	{ "allow", SCMP_ACT_ALLOW },
	{ "log", SCMP_ACT_LOG },
	{ "errno(1)", SCMP_ACT_ERRNO(1) },
	{ "errno(13)", SCMP_ACT_ERRNO(13) },
	{ "errno(38)", SCMP_ACT_ERRNO(38) },
	{ "trace(7)", SCMP_ACT_TRACE(7) },
	{ "trap", SCMP_ACT_TRAP },
	{ "kill-thread", SCMP_ACT_KILL_THREAD },
	{ "kill-process", SCMP_ACT_KILL_PROCESS },
	{ "notify", SCMP_ACT_NOTIFY },
};
#define N_ACTIONS	  (sizeof(actions) / sizeof(actions[0]))
#define N_DEFAULT_ACTIONS (N_ACTIONS - 1) /* notify is a rule action only here */

/* What one argument slot of one syscall is on every ABI of the set. */
struct slot {
	bool usable;
	bool ptr;
	bool is_signed;
	bool narrow;	    /* a 32-bit type on a 64-bit ABI */
	unsigned vbits;	    /* values must fit: 32 or 64 */
	bool low32_inputs;  /* "!=" or ordered SCMP_CMP32 on it: upper half zero */
	bool nonneg_inputs; /* signed ordered comparison on it */
};

/* How the rules of one syscall look. */
enum shape {
	SHAPE_UNCOND,	   /* one unconditional rule */
	SHAPE_UNCOND_COND, /* an unconditional rule and conditional ones */
	SHAPE_ONE,	   /* one conditional rule ("in" only if it is alone) */
	SHAPE_IN_SET,	   /* conditional rules "argN == v" / "argN in {...}", one N */
	SHAPE_ONE_ARG,	   /* conditional rules that all compare one argument */
	SHAPE_SAME_ARGS,   /* conditional rules that compare the same arguments */
	SHAPE_FREE,	   /* conditional rules on any arguments */
	SHAPE_COUNT,
};

struct dsys {
	const char *name;
	int scmp_nr;
	uint32_t nr[MAX_ABIS];
	struct slot slots[SYSCALL_ARGS_MAX];
	unsigned action;
	enum shape shape;
};

enum dop {
	OP_EQ,
	OP_NE,
	OP_LT,
	OP_LE,
	OP_GT,
	OP_GE,
	OP_MASK,
	OP_IN,
	OP_COUNT
};

static const char *const op_text[] = { "==", "!=", "<", "<=", ">", ">=" };
static const enum scmp_compare op_scmp[] = {
	SCMP_CMP_EQ, SCMP_CMP_NE, SCMP_CMP_LT, SCMP_CMP_LE, SCMP_CMP_GT, SCMP_CMP_GE,
};

struct dcmp {
	unsigned arg;
	enum dop op;
	uint64_t v[2]; /* value; OP_MASK: mask, value; OP_IN: the two values */
};

struct drule {
	unsigned sys;
	unsigned n_cmps;
	struct dcmp cmps[MAX_CMPS];
};

struct dset {
	unsigned abi_set, n_abis;
	const struct arch *abis[MAX_ABIS];
	bool has32;
	unsigned def, bad_arch, opt;
	struct dsys sys[MAX_SYS];
	unsigned n_sys;
	struct drule rules[MAX_RULES];
	unsigned n_rules;
};

static unsigned class_width(enum arg_class cls, const struct arch *a)
{
	if (a->bits == 32 || cls == ARG_S32 || cls == ARG_U32)
		return 32;
	return 64;
}

/* Describe slot i of a syscall over the ABIs of the set. */
static void slot_describe(const struct dset *s, const char *name, unsigned i, struct slot *ret)
{
	unsigned w64 = 0;

	memset(ret, 0, sizeof(*ret));
	ret->usable = true;
	ret->vbits = s->has32 ? 32 : 64;
	for (unsigned k = 0; k < s->n_abis; k++) {
		struct syscall_arg args[SYSCALL_ARGS_MAX];
		bool known;
		enum arg_class cls;
		bool sgn;

		if (syscalls_args(s->abis[k], name, args, &known) < 0) {
			ret->usable = false;
			return;
		}
		cls = args[i].cls;
		if (cls == ARG_NONE || cls == ARG_PAIR || cls == ARG_PAD || cls == ARG_U16) {
			ret->usable = false;
			return;
		}
		sgn = cls == ARG_S32 || cls == ARG_S64;
		if (k == 0) {
			ret->ptr = cls == ARG_PTR;
			ret->is_signed = sgn;
		} else if (ret->ptr != (cls == ARG_PTR) || ret->is_signed != sgn) {
			ret->usable = false;
			return;
		}
		if (s->abis[k]->bits == 64) {
			unsigned w = cls == ARG_PTR ? 64 : class_width(cls, s->abis[k]);

			if (w64 && w64 != w) {
				ret->usable = false;
				return;
			}
			w64 = w;
		}
	}
	ret->narrow = w64 == 32;
	if (ret->narrow)
		ret->vbits = 32;
}

static uint64_t width_mask(unsigned bits)
{
	return bits == 32 ? UINT32_MAX : UINT64_MAX;
}

static void rnd_dcmp(struct rng *r, struct dsys *sys, unsigned arg, struct dcmp *c, enum dop only)
{
	struct slot *sl = &sys->slots[arg];
	uint64_t wm = width_mask(sl->vbits);

	c->arg = arg;
	if (sl->ptr) {
		c->op = pick(r, 2) ? OP_EQ : OP_NE;
		c->v[0] = 0;
		return;
	}
	c->op = (enum dop)pick(r, OP_COUNT);
	if (only == OP_IN && c->op == OP_IN)
		c->op = OP_EQ; /* "in" among other comparisons */
	else if (only != OP_COUNT && only != OP_IN)
		c->op = pick(r, 2) ? OP_EQ : OP_IN;
	c->v[0] = rnd_value(r) & wm;
	c->v[1] = rnd_value(r) & wm;
	if (c->op >= OP_LT && c->op <= OP_GE && sl->is_signed) {
		c->v[0] &= wm >> 1; /* non-negative */
		sl->nonneg_inputs = true;
	}
	if (c->op == OP_MASK) /* libseccomp drops value bits outside the mask */
		c->v[1] &= c->v[0];
	if (sl->narrow && c->op >= OP_NE && c->op <= OP_GE)
		sl->low32_inputs = true;
}

static void rnd_set(struct rng *r, struct dset *s, unsigned idx, unsigned shapes)
{
	const struct abi_set *as = &abi_sets[pick(r, N_ABI_SETS)];
	unsigned want = 1 + pick(r, 20);

	memset(s, 0, sizeof(*s));
	s->abi_set = (unsigned)(as - abi_sets);
	for (unsigned k = 0; k < MAX_ABIS && as->names[k]; k++) {
		s->abis[s->n_abis++] = arch_lookup(as->names[k]);
		if (s->abis[k]->bits == 32)
			s->has32 = true;
	}
	s->def = pick(r, N_DEFAULT_ACTIONS);
	s->bad_arch = pick(r, N_DEFAULT_ACTIONS);
	s->opt = 1 + idx % 2;

	for (unsigned tries = 0; s->n_sys < want && tries < 4 * want; tries++) {
		const char *name = syscall_pool[pick(r, N_POOL)];
		struct dsys *d = &s->sys[s->n_sys];
		bool ok = true;

		for (unsigned i = 0; i < s->n_sys; i++)
			ok = ok && strcmp(s->sys[i].name, name);
		d->scmp_nr = seccomp_syscall_resolve_name(name);
		ok = ok && d->scmp_nr != __NR_SCMP_ERROR;
		for (unsigned k = 0; ok && k < s->n_abis; k++) {
			int theirs = seccomp_syscall_resolve_name_arch(as->scmp[k], name);

			ok = syscalls_lookup_name(s->abis[k], name, &d->nr[k]) >= 0 &&
			     theirs >= 0 && (uint32_t)theirs == d->nr[k];
		}
		if (!ok)
			continue;
		d->name = name;
		d->action = pick(r, N_ACTIONS);
		for (unsigned i = 0; i < SYSCALL_ARGS_MAX; i++)
			slot_describe(s, name, i, &d->slots[i]);
		s->n_sys++;
	}

	for (unsigned i = 0; i < s->n_sys; i++) {
		enum shape sh = (enum shape)pick(r, SHAPE_COUNT);
		unsigned n = 1 + pick(r, 4), args[MAX_CMPS], n_args = 0;

		while (!(shapes & (1u << sh)))
			sh = (enum shape)pick(r, SHAPE_COUNT);
		s->sys[i].shape = sh;
		if (sh == SHAPE_UNCOND || sh == SHAPE_UNCOND_COND)
			s->rules[s->n_rules++] = (struct drule){ .sys = i };
		if (sh == SHAPE_UNCOND)
			continue;
		if (sh == SHAPE_ONE)
			n = 1;
		if (sh == SHAPE_IN_SET)
			for (unsigned t = 0; t < 8 && !n_args; t++) {
				unsigned arg = pick(r, SYSCALL_ARGS_MAX);

				if (s->sys[i].slots[arg].usable && !s->sys[i].slots[arg].ptr)
					args[n_args++] = arg;
			}
		/* the arguments every rule of SHAPE_ONE_ARG / SHAPE_SAME_ARGS compares */
		for (unsigned t = 0; t < 8 && sh != SHAPE_IN_SET &&
				     n_args < (sh == SHAPE_ONE_ARG ? 1u : 1 + pick(r, MAX_CMPS));
		     t++) {
			unsigned arg = pick(r, SYSCALL_ARGS_MAX);
			bool dup = false;

			for (unsigned k = 0; k < n_args; k++)
				dup = dup || args[k] == arg;
			if (s->sys[i].slots[arg].usable && !dup)
				args[n_args++] = arg;
		}
		for (unsigned j = 0; j < n && n_args && s->n_rules < MAX_RULES; j++) {
			struct drule *dr = &s->rules[s->n_rules];
			unsigned used = 0, want_cmps = 1 + pick(r, MAX_CMPS);

			memset(dr, 0, sizeof(*dr));
			dr->sys = i;
			if (sh == SHAPE_IN_SET || sh == SHAPE_ONE_ARG || sh == SHAPE_SAME_ARGS) {
				for (unsigned k = 0; k < n_args; k++)
					rnd_dcmp(r, &s->sys[i], args[k], &dr->cmps[dr->n_cmps++],
						 sh == SHAPE_IN_SET ? OP_EQ : OP_COUNT);
				s->n_rules++;
				continue;
			}
			for (unsigned t = 0; t < 8 && dr->n_cmps < want_cmps; t++) {
				unsigned arg = pick(r, SYSCALL_ARGS_MAX);

				if (!s->sys[i].slots[arg].usable || used & (1u << arg))
					continue;
				used |= 1u << arg;
				rnd_dcmp(r, &s->sys[i], arg, &dr->cmps[dr->n_cmps++],
					 sh == SHAPE_ONE && want_cmps > 1 ? OP_IN : OP_COUNT);
			}
			if (dr->n_cmps)
				s->n_rules++;
		}
	}
}

static void cond_text(const struct drule *dr, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < dr->n_cmps; i++) {
		const struct dcmp *c = &dr->cmps[i];
		const char *sep = i ? " && " : "";

		if (c->op == OP_MASK)
			len += (size_t)snprintf(buf + len, size - len,
						"%sarg%u & 0x%" PRIx64 " == 0x%" PRIx64, sep,
						c->arg, c->v[0], c->v[1]);
		else if (c->op == OP_IN)
			len += (size_t)snprintf(buf + len, size - len,
						"%sarg%u in { 0x%" PRIx64 ", 0x%" PRIx64 " }", sep,
						c->arg, c->v[0], c->v[1]);
		else
			len += (size_t)snprintf(buf + len, size - len, "%sarg%u %s 0x%" PRIx64, sep,
						c->arg, op_text[c->op], c->v[0]);
		if (len >= size)
			abort();
	}
}

/* Does the set have rules on ioctl? Then the built-in tty-injection rule
 * would overlap them, where the two libraries order candidates differently:
 * the set opts out of it ([hardening] tty-injection = allow). Otherwise
 * libseccomp gets the rule as scmp-run.ini(5) BUILT-IN RULES states it. */
static bool set_has_ioctl(const struct dset *s)
{
	for (unsigned i = 0; i < s->n_sys; i++)
		if (!strcmp(s->sys[i].name, "ioctl"))
			return true;
	return false;
}

static int build_ours(const struct dset *s, struct tcase *c)
{
	const struct arch *first = s->abis[0];
	const char *err;

	c->rs = ruleset_new();
	if (!c->rs)
		return -ENOMEM;
	for (unsigned k = 0; k < s->n_abis; k++)
		c->rs->attrs.arches |= 1u << s->abis[k]->id;
	action_parse(actions[s->def].text, first, &c->rs->attrs.default_action, &err);
	c->rs->attrs.has_default_action = true;
	action_parse(actions[s->bad_arch].text, first, &c->rs->attrs.bad_arch_action, &err);
	/* libseccomp has no unknown-syscall-action: the default decides there */
	c->rs->attrs.unknown_action = c->rs->attrs.default_action;
	c->rs->attrs.has_unknown_action = true;
	c->rs->hardening.tty_injection_allow = set_has_ioctl(s);
	for (unsigned i = 0; i < s->n_rules; i++) {
		const struct drule *dr = &s->rules[i];
		char cond[256];

		cond_text(dr, cond, sizeof(cond));
		if (util_add_rule(c->rs, actions[s->sys[dr->sys].action].text, s->sys[dr->sys].name,
				  cond, i + 1) < 0)
			return -EINVAL;
	}
	return util_compile(c);
}

/* One comparison for libseccomp. Written out field by field: the SCMP_CMP*()
 * macros trip clang's warnings; the values are what they would build. */
static struct scmp_arg_cmp scmp_cmp(const struct dsys *sys, const struct dcmp *c, uint64_t v)
{
	const struct slot *sl = &sys->slots[c->arg];
	struct scmp_arg_cmp out = { .arg = c->arg };

	if (c->op == OP_MASK) {
		out.op = SCMP_CMP_MASKED_EQ;
		out.datum_a = c->v[0];
		out.datum_b = c->v[1];
	} else if (sl->narrow && (c->op == OP_EQ || c->op == OP_IN)) {
		/* exact on the low half, whatever the upper half holds */
		out.op = SCMP_CMP_MASKED_EQ;
		out.datum_a = UINT32_MAX;
		out.datum_b = v;
	} else if (sl->narrow) {
		/* SCMP_CMP32(arg, op, v): a 64-bit comparison with (uint32_t)v */
		out.op = op_scmp[c->op];
		out.datum_a = (uint32_t)v;
	} else {
		out.op = op_scmp[c->op == OP_IN ? OP_EQ : c->op];
		out.datum_a = v;
	}
	return out;
}

/* Add dr to ctx, one libseccomp rule per combination of "in" values. */
static int add_theirs(scmp_filter_ctx ctx, const struct dset *s, const struct drule *dr)
{
	const struct dsys *sys = &s->sys[dr->sys];
	unsigned n_in = 0;

	for (unsigned i = 0; i < dr->n_cmps; i++)
		n_in += dr->cmps[i].op == OP_IN;
	for (unsigned combo = 0; combo < (1u << n_in); combo++) {
		struct scmp_arg_cmp cmps[MAX_CMPS];
		unsigned bit = 0;
		int r;

		for (unsigned i = 0; i < dr->n_cmps; i++) {
			const struct dcmp *c = &dr->cmps[i];
			uint64_t v = c->v[0];

			if (c->op == OP_IN)
				v = c->v[(combo >> bit++) & 1];
			cmps[i] = scmp_cmp(sys, c, v);
		}
		r = seccomp_rule_add_array(ctx, actions[sys->action].scmp, sys->scmp_nr, dr->n_cmps,
					   cmps);
		if (r < 0)
			return r;
	}
	return 0;
}

/* libseccomp's program for s into fd; a negative errno on failure. */
static int export_theirs(const struct dset *s, int fd)
{
	const struct abi_set *as = &abi_sets[s->abi_set];
	scmp_filter_ctx ctx = seccomp_init(actions[s->def].scmp);
	bool native = false;
	int r;

	if (!ctx)
		return -ENOMEM;
	r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, actions[s->bad_arch].scmp);
	if (r >= 0)
		r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, s->opt);
	for (unsigned k = 0; r >= 0 && k < s->n_abis; k++) {
		if (as->scmp[k] == seccomp_arch_native())
			native = true;
		else
			r = seccomp_arch_add(ctx, as->scmp[k]);
	}
	if (r >= 0 && !native)
		r = seccomp_arch_remove(ctx, SCMP_ARCH_NATIVE);
	for (unsigned i = 0; r >= 0 && i < s->n_rules; i++)
		if (s->sys[s->rules[i].sys].action != s->def)
			r = add_theirs(ctx, s, &s->rules[i]);
	/* the built-in tty-injection rule: cmd is 32 bits, TIOCSTI 0x5412 and
	 * TIOCLINUX 0x541c on every ABI of the sets */
	for (unsigned k = 0;
	     r >= 0 && k < 2 && !set_has_ioctl(s) && actions[s->def].scmp != SCMP_ACT_ERRNO(1);
	     k++) {
		struct scmp_arg_cmp cmd = { .arg = 1,
					    .op = SCMP_CMP_MASKED_EQ,
					    .datum_a = UINT32_MAX,
					    .datum_b = k ? 0x541c : 0x5412 };

		r = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(1),
					   seccomp_syscall_resolve_name("ioctl"), 1, &cmd);
	}
	if (r >= 0)
		r = seccomp_export_bpf(ctx, fd);
	seccomp_release(ctx);
	return r;
}

/*
 * libseccomp's program for s, built in a child process: 2.5.4 can loop
 * forever in seccomp_rule_add() on some rule sets (see the report at the
 * end). Returns 0, -ETIMEDOUT, or the negative errno libseccomp gave.
 */
static int build_theirs(const struct dset *s, struct sock_filter **ret, size_t *ret_len)
{
	int fd = memfd_create("bpf", MFD_CLOEXEC), status, r = 0;
	off_t size;
	pid_t pid;

	*ret = NULL;
	if (fd < 0)
		return -errno;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(fd);
		return -errno;
	}
	if (pid == 0)
		_exit(-export_theirs(s, fd) & 0xff);
	for (int i = 0; waitpid(pid, &status, WNOHANG) == 0; i++) {
		if (i == 2000) { /* 2 s */
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			close(fd);
			return -ETIMEDOUT;
		}
		usleep(1000);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		r = WIFEXITED(status) ? -WEXITSTATUS(status) : -EINTR;
	size = lseek(fd, 0, SEEK_END);
	if (r >= 0) {
		*ret = malloc(size > 0 ? (size_t)size : 1);
		if (size <= 0 || !*ret || pread(fd, *ret, (size_t)size, 0) != size)
			r = -EIO;
		*ret_len = (size_t)size / sizeof(struct sock_filter);
	}
	close(fd);
	if (r < 0) {
		free(*ret);
		*ret = NULL;
	}
	return r;
}

static void rnd_input(struct rng *r, const struct dset *s, const struct tcase *c,
		      struct seccomp_data *sd)
{
	unsigned k = pick(r, s->n_abis);
	const struct abi_policy *abi = NULL;
	const struct dsys *sys = NULL;
	bool low = false;

	for (size_t i = 0; i < c->out.policy->n_abis; i++)
		if (c->out.policy->abis[i].arch == s->abis[k])
			abi = &c->out.policy->abis[i];
	memset(sd, 0, sizeof(*sd));
	sd->arch = s->abis[k]->audit_arch;
	if (!pick(r, 25))
		sd->arch = arch_get((enum arch_id)pick(r, ARCH_COUNT))->audit_arch;
	switch (pick(r, 10)) {
	case 0:
		sd->nr = (int)(uint32_t)rnd_value(r);
		break;
	case 1:
		sd->nr = (int)(s->abis[k]->nr_base + pick(r, 1100));
		break;
	case 2:
		sd->nr = (int)((s->abis[k]->nr_base + pick(r, 1100)) ^ ARCH_X32_SYSCALL_BIT);
		break;
	case 3:
	case 4:
		sd->nr = (int)abi->known[pick(r, (unsigned)abi->n_known)].nr;
		break;
	default:
		sd->nr = s->n_sys ? (int)s->sys[pick(r, s->n_sys)].nr[k] : -1;
	}
	/* Outside the domain: see the top. */
	if (sd->arch == arch_get(ARCH_X86_64)->audit_arch && ((uint32_t)sd->nr >> 30) == 2)
		sd->nr = (int)((uint32_t)sd->nr | ARCH_X32_SYSCALL_BIT);
	/* The ABI that really handles the call (x32 numbers on x86_64...). */
	abi = policy_abi_for(c->out.policy, sd->arch, (uint32_t)sd->nr);
	for (unsigned a = 0; abi && a < s->n_abis; a++)
		if (abi->arch == s->abis[a]) {
			k = a;
			low = s->abis[a]->bits == 32 || s->abis[a]->id == ARCH_X32;
			for (unsigned i = 0; i < s->n_sys; i++)
				if (s->sys[i].nr[a] == (uint32_t)sd->nr)
					sys = &s->sys[i];
		}
	for (unsigned i = 0; i < SYSCALL_ARGS_MAX; i++) {
		uint64_t v = rnd_value(r);

		if (low)
			v &= UINT32_MAX; /* compat: zero-extended; x32: see the top */
		if (sys && sys->slots[i].nonneg_inputs)
			v &= (sys->slots[i].narrow || low) ? INT32_MAX : INT64_MAX;
		else if (sys && sys->slots[i].low32_inputs)
			v &= UINT32_MAX;
		sd->args[i] = v;
	}
	/* the requests of the built-in tty-injection rule, and their neighbours */
	if (!set_has_ioctl(s) && !pick(r, 12)) {
		static const uint64_t cmds[] = {
			0x5412, 0x541c, 0x5413, 0x541b, 0xffffffff00005412, 0x10000541c
		};
		uint32_t nr;

		k = pick(r, s->n_abis);
		low = s->abis[k]->bits == 32 || s->abis[k]->id == ARCH_X32;
		if (syscalls_lookup_name(s->abis[k], "ioctl", &nr) == 0) {
			sd->arch = s->abis[k]->audit_arch;
			sd->nr = (int)nr;
			sd->args[1] = cmds[pick(r, low ? 4 : 6)];
		}
	}
}

static void dump_set(const struct dset *s)
{
	char cond[256];

	tap_diag("  abis %s%s%s%s%s, default %s, bad-arch %s, optimize %u", s->abis[0]->name,
		 s->n_abis > 1 ? " " : "", s->n_abis > 1 ? s->abis[1]->name : "",
		 s->n_abis > 2 ? " " : "", s->n_abis > 2 ? s->abis[2]->name : "",
		 actions[s->def].text, actions[s->bad_arch].text, s->opt);
	for (unsigned i = 0; i < s->n_rules; i++) {
		cond_text(&s->rules[i], cond, sizeof(cond));
		tap_diag("  %s %s %s", actions[s->sys[s->rules[i].sys].action].text,
			 s->sys[s->rules[i].sys].name, cond);
	}
}

/* clang-format off */
static const char *const shape_names[] = {
	"unconditional", "unconditional+conditional", "one conditional rule",
	"value sets on one argument", "rules on one argument", "rules on the same arguments",
	"rules on any arguments",
};
/* clang-format on */

int main(int argc, char **argv)
{
	unsigned sets = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : DEFAULT_SETS;
	struct rng rng = { argc > 2 ? strtoull(argv[2], NULL, 0) : 0x5eed1ebu };
	unsigned shapes = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : DOMAIN_SHAPES;
	uint64_t seed = rng.state;
	unsigned long compared = 0, disagree = 0, ours_failed = 0, theirs_failed = 0,
		      theirs_hung = 0, policy_disagree = 0, rules = 0, by_opt[3] = { 0 },
		      shape_cmp[SHAPE_COUNT] = { 0 }, shape_bad[SHAPE_COUNT] = { 0 };
	static struct dset s;

	if (!rng.state)
		rng.state = 1;
	shapes &= (1u << SHAPE_COUNT) - 1;
	if (!shapes)
		shapes = DOMAIN_SHAPES;
	for (unsigned n = 0; n < sets; n++) {
		struct tcase c = { 0 };
		struct sock_filter *theirs = NULL;
		size_t theirs_len = 0;
		bool dumped = false;
		int r;

		rnd_set(&rng, &s, n, shapes);
		if (build_ours(&s, &c) < 0) {
			if (++ours_failed <= 3) {
				tap_diag("set %u: our engine refused it:", n);
				for (size_t i = 0; i < c.d.n_msgs; i++)
					tap_diag("  %s", c.d.msgs[i].text);
				dump_set(&s);
			}
			util_compiled_free(&c);
			continue;
		}
		r = build_theirs(&s, &theirs, &theirs_len);
		if (r == -ETIMEDOUT) {
			if (++theirs_hung <= 3) {
				tap_diag("set %u: libseccomp did not return within 2 s:", n);
				dump_set(&s);
			}
			util_compiled_free(&c);
			continue;
		}
		if (r < 0) {
			if (++theirs_failed <= 3) {
				tap_diag("set %u: libseccomp refused it: %s", n, strerror(-r));
				dump_set(&s);
			}
			util_compiled_free(&c);
			continue;
		}
		rules += s.n_rules;
		for (unsigned k = 0; k < INPUTS_PER_SET; k++) {
			struct seccomp_data sd, raw;
			struct sim_result res = { 0 };
			const struct abi_policy *abi;
			const struct dsys *sys = NULL;
			bool agree;
			uint32_t got;

			rnd_input(&rng, &s, &c, &sd);
			got = util_eval(&c, &sd, &agree, NULL);
			if (!agree)
				policy_disagree++;
			abi = policy_abi_for(c.out.policy, sd.arch, (uint32_t)sd.nr);
			bpf_abi_data(abi ? abi->arch : s.abis[0], &sd, &raw);
			if (sim_run(theirs, theirs_len, &raw, &res) < 0)
				res.ret = 0xdeadbeef;
			compared++;
			by_opt[s.opt]++;
			for (unsigned a = 0; abi && a < s.n_abis; a++)
				for (unsigned i = 0; abi->arch == s.abis[a] && i < s.n_sys; i++)
					if (s.sys[i].nr[a] == (uint32_t)sd.nr)
						sys = &s.sys[i];
			if (sys)
				shape_cmp[sys->shape]++;
			if (res.ret == got)
				continue;
			if (sys)
				shape_bad[sys->shape]++;
			if (++disagree <= 10) {
				tap_diag("set %u: arch 0x%x nr %d args %" PRIx64 " %" PRIx64
					 " %" PRIx64 " %" PRIx64 " %" PRIx64 " %" PRIx64
					 ": ours 0x%x libseccomp 0x%x",
					 n, sd.arch, sd.nr, (uint64_t)sd.args[0],
					 (uint64_t)sd.args[1], (uint64_t)sd.args[2],
					 (uint64_t)sd.args[3], (uint64_t)sd.args[4],
					 (uint64_t)sd.args[5], got, res.ret);
				if (!dumped)
					dump_set(&s);
				dumped = true;
			}
		}
		free(theirs);
		util_compiled_free(&c);
	}
	tap_diag("%lu comparisons (%lu at optimize=1, %lu at optimize=2) over %u rule sets "
		 "with %lu rules, seed 0x%" PRIx64 ", shapes 0x%x",
		 compared, by_opt[1], by_opt[2], sets, rules, seed, shapes);
	for (unsigned i = 0; i < SHAPE_COUNT; i++)
		if (shapes & (1u << i))
			tap_diag("  %s: %lu comparisons on its syscalls, %lu disagreements",
				 shape_names[i], shape_cmp[i], shape_bad[i]);
	tap_ok(compared >= 100000 || sets < DEFAULT_SETS, "at least 100000 comparisons (%lu)",
	       compared);
	tap_ok(ours_failed == 0, "our engine compiles every rule set (%lu refused)", ours_failed);
	tap_ok(theirs_failed == 0, "libseccomp compiles every rule set (%lu refused)",
	       theirs_failed);
	tap_ok(theirs_hung == 0, "libseccomp returns on every rule set (%lu hung)", theirs_hung);
	tap_ok(policy_disagree == 0, "our program agrees with our reference semantics (%lu)",
	       policy_disagree);
	tap_ok(disagree == 0, "our program and libseccomp's agree (%lu disagreements)", disagree);
	return tap_done();
}
