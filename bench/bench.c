/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Engine benchmark: the same rule sets compiled by our engine (from the INI
 * profiles in bench/profiles/) and by libseccomp (through its API, optimize
 * levels 1 and 2); program length, instructions executed over a recorded
 * syscall mix, always-allow cache share and compile CPU time.
 * Usage: bench BENCHDIR [SYSTEM-SERVICE.INI [RESULTS.TSV]]
 *        bench BENCHDIR --write-profiles
 *        bench BENCHDIR --load-build [-r REPS] [-n RUNS] PROFILE...
 * A call of the recorded mix that two engines decide differently fails the
 * run (status 1) once every set is printed: lengths of programs that do
 * not agree compare nothing.
 * The last form times profile load + build alone (profile_load() and
 * policy_build(): the profile up to the resolved policy, before the
 * program is generated): the median CPU time of RUNS runs (default 400),
 * repeated REPS times (default 5), with the spread of the repetitions.
 */
#include <errno.h>
#include <inttypes.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bpf.h"
#include "compile.h"
#include "hardening.h"
#include "profile.h"
#include "policy.h"
#include "sim.h"
#include "syscalls.h"
#include "rng.h"
#include "timing.h"

#define MAX_CMPS     3
#define MAX_ABIS     3
#define LINE_MAX_INI 180 /* the loader refuses lines over 198 bytes */

/* ---- rule sets, as data both engines are given ---- */

enum bop {
	B_EQ,
	B_NE,
	B_LT,
	B_LE,
	B_GT,
	B_GE,
	B_MASK
};

static const char *const bop_text[] = { "==", "!=", "<", "<=", ">", ">=" };
static const enum scmp_compare bop_scmp[] = {
	SCMP_CMP_EQ, SCMP_CMP_NE, SCMP_CMP_LT, SCMP_CMP_LE, SCMP_CMP_GT, SCMP_CMP_GE,
};

struct bcmp {
	unsigned arg;
	enum bop op;
	uint64_t v, mask;
	bool narrow; /* a 32-bit type on a 64-bit ABI */
};

struct brule {
	const char *name;
	unsigned act;
	unsigned n_cmps;
	struct bcmp c[MAX_CMPS];
	bool in_group; /* a single "==": written with its neighbours as "in { }" */
};

struct act {
	const char *text;
	uint32_t scmp;
};

enum {
	ACT_ALLOW,
	ACT_EPERM,
	ACT_EACCES,
	ACT_KILL,
	ACT_COUNT
};

static const struct act acts[ACT_COUNT] = {
	[ACT_ALLOW] = { "allow", SCMP_ACT_ALLOW },
	[ACT_EPERM] = { "errno(EPERM)", SCMP_ACT_ERRNO(EPERM) },
	[ACT_EACCES] = { "errno(EACCES)", SCMP_ACT_ERRNO(EACCES) },
	[ACT_KILL] = { "kill-process", SCMP_ACT_KILL_PROCESS },
};

struct bset {
	const char *id;
	const char *desc;
	const struct arch *abis[MAX_ABIS];
	uint32_t scmp_arches[MAX_ABIS];
	unsigned n_abis;
	unsigned def;
	struct brule *rules;
	size_t n_rules, cap;
	unsigned n_cmps;  /* libseccomp comparisons */
	unsigned dropped; /* names one of the two tables lacks */
	char **owned;	  /* names read from files */
	size_t n_owned;
};

static void die(const char *what)
{
	fprintf(stderr, "bench: %s\n", what);
	exit(1);
}

static struct brule *set_push(struct bset *s)
{
	if (s->n_rules == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->rules = reallocarray(s->rules, s->cap, sizeof(*s->rules));
		if (!s->rules)
			die("out of memory");
	}
	memset(&s->rules[s->n_rules], 0, sizeof(s->rules[0]));
	return &s->rules[s->n_rules++];
}

static void set_free(struct bset *s)
{
	for (size_t i = 0; i < s->n_owned; i++)
		free(s->owned[i]);
	free(s->owned);
	free(s->rules);
}

/* True if both tables agree on name for every ABI of s and one has it. */
enum usable {
	USABLE,
	ABSENT,
	DISAGREE
};

/* USABLE if both tables agree on name for every ABI of s and have it on
 * one; ABSENT if neither has it on these ABIs. */
static enum usable name_usable(const struct bset *s, const char *name)
{
	bool some = false, differ = seccomp_syscall_resolve_name(name) == __NR_SCMP_ERROR;

	for (unsigned k = 0; k < s->n_abis; k++) {
		int theirs = seccomp_syscall_resolve_name_arch(s->scmp_arches[k], name);
		uint32_t nr;
		bool ours = syscalls_lookup_name(s->abis[k], name, &nr) >= 0;

		/* libseccomp names socket and IPC calls of x86 by negative
		 * pseudo numbers (it adds the socketcall/ipc form and the
		 * direct one); we know the direct number: both cover both. */
		if (ours ? theirs == __NR_SCMP_ERROR || (theirs >= 0 && nr != (uint32_t)theirs)
			 : theirs >= 0)
			differ = true;
		some = some || ours || theirs >= 0;
	}
	return !some ? ABSENT : differ ? DISAGREE : USABLE;
}

static void set_abis(struct bset *s, const char *const *names, const uint32_t *scmp, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		s->abis[k] = arch_lookup(names[k]);
		s->scmp_arches[k] = scmp[k];
	}
	s->n_abis = n;
}

static void add_uncond(struct bset *s, const char *name, unsigned act)
{
	struct brule *r;

	switch (name_usable(s, name)) {
	case USABLE:
		break;
	case DISAGREE:
		s->dropped++;
		fprintf(stderr, "bench: set %s: left out '%s' (the tables differ)\n", s->id, name);
		return;
	case ABSENT:
		return;
	}
	r = set_push(s);
	r->name = name;
	r->act = act;
}

/* A minimal allow-list: what a small static C program needs. */
static void make_s(struct bset *s)
{
	static const char *const names[] = {
		"read",		  "write",	  "close",	"fstat", "newfstatat",
		"mmap",		  "munmap",	  "mprotect",	"brk",	 "rt_sigaction",
		"rt_sigprocmask", "rt_sigreturn", "exit_group", "futex", "openat",
		"lseek",	  "getrandom",
	};

	s->id = "S";
	s->desc = "a minimal allow-list (17 syscalls)";
	set_abis(s, (const char *const[]){ "x86_64" }, (const uint32_t[]){ SCMP_ARCH_X86_64 }, 1);
	s->def = ACT_EPERM;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		add_uncond(s, names[i], ACT_ALLOW);
}

static void make_d(struct bset *s, const char *benchdir, bool multi)
{
	char path[4096], line[256];
	FILE *f;

	s->id = multi ? "Dx" : "D";
	s->desc = multi ? "Docker's default allow-list on x86_64 + x86 + x32"
			: "Docker's default allow-list";
	if (multi)
		set_abis(s, (const char *const[]){ "x86_64", "x86", "x32" },
			 (const uint32_t[]){ SCMP_ARCH_X86_64, SCMP_ARCH_X86, SCMP_ARCH_X32 }, 3);
	else
		set_abis(s, (const char *const[]){ "x86_64" },
			 (const uint32_t[]){ SCMP_ARCH_X86_64 }, 1);
	s->def = ACT_EPERM;
	snprintf(path, sizeof(path), "%s/data/docker-default-allow.txt", benchdir);
	f = fopen(path, "re");
	if (!f)
		die("cannot open data/docker-default-allow.txt");
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, " \t\r\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		s->owned = reallocarray(s->owned, s->n_owned + 1, sizeof(*s->owned));
		if (!s->owned || !(s->owned[s->n_owned] = strdup(line)))
			die("out of memory");
		add_uncond(s, s->owned[s->n_owned++], ACT_ALLOW);
	}
	fclose(f);
}

/* An argument slot of a syscall on x86_64 that both engines compare alike. */
struct slot {
	bool usable, ptr, is_signed, narrow;
};

static struct slot slot_of(const char *name, unsigned i)
{
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	struct slot sl = { 0 };
	bool known;

	if (syscalls_args(arch_get(ARCH_X86_64), name, args, &known) < 0 || !known)
		return sl;
	switch (args[i].cls) {
	case ARG_PTR:
		sl.ptr = true;
		break;
	case ARG_S32:
	case ARG_U32:
		sl.narrow = true;
		break;
	case ARG_S64:
	case ARG_U64:
		break;
	default:
		return sl;
	}
	sl.usable = true;
	sl.is_signed = args[i].cls == ARG_S32 || args[i].cls == ARG_S64;
	return sl;
}

/* A plausible argument value: small numbers, flag bits, boundaries. */
static uint64_t rnd_arg(struct rng *r, bool narrow)
{
	static const uint64_t bounds[] = { 0, 1, 2, 3, 0x7fffffff, 0xffffffff, 0x100000000 };
	uint64_t v;

	switch (pick(r, 4)) {
	case 0:
		v = pick(r, 64);
		break;
	case 1:
		v = 1ull << pick(r, narrow ? 31 : 40);
		break;
	case 2:
		v = bounds[pick(r, sizeof(bounds) / sizeof(bounds[0]))];
		break;
	default:
		v = rnd(r) & 0xfffff;
	}
	return narrow ? v & UINT32_MAX : v;
}

static void rnd_cmp(struct rng *r, const struct slot *sl, unsigned arg, struct bcmp *c)
{
	c->arg = arg;
	c->narrow = sl->narrow;
	if (sl->ptr) {
		c->op = pick(r, 2) ? B_EQ : B_NE;
		c->v = 0;
		return;
	}
	c->op = (enum bop)pick(r, B_MASK + 1);
	c->v = rnd_arg(r, sl->narrow);
	if (c->op == B_MASK) {
		c->mask = rnd_arg(r, sl->narrow) | 1;
		c->v &= c->mask;
	}
	/* libseccomp orders unsigned: signed ordered values stay non-negative */
	if (sl->is_signed && c->op >= B_LT && c->op <= B_GE)
		c->v &= sl->narrow ? INT32_MAX : INT64_MAX;
}

/* The x86_64 syscalls both tables know, in a fixed shuffled order. */
static size_t usable_names(struct bset *s, struct rng *r, const char **out, size_t max)
{
	size_t n_all, n = 0;
	const struct syscall *all = syscalls_list(arch_get(ARCH_X86_64), &n_all);

	for (size_t i = 0; i < n_all && n < max; i++)
		if (name_usable(s, syscall_name(&all[i])) == USABLE)
			out[n++] = syscall_name(&all[i]);
	for (size_t i = n; i > 1; i--) {
		size_t j = pick(r, (unsigned)i);
		const char *t = out[i - 1];

		out[i - 1] = out[j];
		out[j] = t;
	}
	return n;
}

/* ~300 syscalls, ~370 argument comparisons, in the shapes where libseccomp
 * 2.5.4 is right (see tests/engine/test-libseccomp.c): value sets on one
 * argument, or one conjunction per syscall. */
static void make_a(struct bset *s)
{
	struct rng r = { 0xa11ce5 };
	const char *names[512];
	size_t n;

	s->id = "A";
	s->desc = "300 syscalls, ~370 argument comparisons";
	set_abis(s, (const char *const[]){ "x86_64" }, (const uint32_t[]){ SCMP_ARCH_X86_64 }, 1);
	s->def = ACT_EPERM;
	n = usable_names(s, &r, names, 512);
	if (n > 300)
		n = 300;
	for (size_t i = 0; i < n; i++) {
		struct slot sl[SYSCALL_ARGS_MAX];
		unsigned n_usable = 0, plain[SYSCALL_ARGS_MAX], n_plain = 0;

		for (unsigned k = 0; k < SYSCALL_ARGS_MAX; k++) {
			sl[k] = slot_of(names[i], k);
			n_usable += sl[k].usable;
			if (sl[k].usable && !sl[k].ptr)
				plain[n_plain++] = k;
		}
		if (s->n_cmps >= 370 || !n_usable || !pick(&r, 2)) {
			add_uncond(s, names[i], pick(&r, 12) ? ACT_ALLOW : ACT_KILL);
			continue;
		}
		if (n_plain && pick(&r, 2)) { /* a value set: "fd in { 0, 1, 2 }" */
			unsigned arg = plain[pick(&r, n_plain)], k = 2 + pick(&r, 7);
			uint64_t base = rnd_arg(&r, sl[arg].narrow);

			for (unsigned j = 0; j < k; j++) {
				struct brule *br = set_push(s);

				br->name = names[i];
				br->act = ACT_ALLOW;
				br->in_group = true;
				br->n_cmps = 1;
				uint64_t v = base + j * (1 + pick(&r, 4));

				br->c[0] = (struct bcmp){
					.arg = arg,
					.op = B_EQ,
					.narrow = sl[arg].narrow,
					.v = sl[arg].narrow ? v & UINT32_MAX : v,
				};
				s->n_cmps++;
			}
		} else { /* one conjunction */
			struct brule *br = set_push(s);
			unsigned used = 0, want = 1 + pick(&r, MAX_CMPS);

			br->name = names[i];
			br->act = pick(&r, 6) ? ACT_ALLOW : ACT_EACCES;
			for (unsigned t = 0; t < 12 && br->n_cmps < want; t++) {
				unsigned arg = pick(&r, SYSCALL_ARGS_MAX);

				if (!sl[arg].usable || used & (1u << arg))
					continue;
				used |= 1u << arg;
				rnd_cmp(&r, &sl[arg], arg, &br->c[br->n_cmps++]);
			}
			s->n_cmps += br->n_cmps;
		}
	}
}

/* ~5000 rules "argN == value", 20 values on one argument of 250 syscalls,
 * clustered like ioctl request numbers. */
static void make_l(struct bset *s)
{
	struct rng r = { 0x1a26e };
	const char *names[512];
	size_t n, done = 0;

	s->id = "L";
	s->desc = "250 syscalls x 20 argument values (5000 rules)";
	set_abis(s, (const char *const[]){ "x86_64" }, (const uint32_t[]){ SCMP_ARCH_X86_64 }, 1);
	s->def = ACT_EPERM;
	n = usable_names(s, &r, names, 512);
	for (size_t i = 0; i < n && done < 250; i++) {
		unsigned plain[SYSCALL_ARGS_MAX], n_plain = 0, arg;
		struct slot sl[SYSCALL_ARGS_MAX];
		uint64_t base;

		for (unsigned k = 0; k < SYSCALL_ARGS_MAX; k++) {
			sl[k] = slot_of(names[i], k);
			if (sl[k].usable && !sl[k].ptr)
				plain[n_plain++] = k;
		}
		if (!n_plain)
			continue;
		arg = plain[pick(&r, n_plain)];
		base = (rnd(&r) & 0xffff) << pick(&r, 12);
		for (unsigned j = 0; j < 20; j++) {
			struct brule *br = set_push(s);

			br->name = names[i];
			br->act = ACT_ALLOW;
			br->n_cmps = 1;
			base += 1 + pick(&r, 6);
			br->c[0] = (struct bcmp){ .arg = arg,
						  .op = B_EQ,
						  .v = base & UINT32_MAX,
						  .narrow = sl[arg].narrow };
			s->n_cmps++;
		}
		done++;
	}
}

/* A rule of set C: its comparisons are given without their width. */
static void c_rule(struct bset *s, const char *name, unsigned act, const struct bcmp *c, unsigned n,
		   bool in_group)
{
	struct brule *br;

	if (name_usable(s, name) != USABLE)
		die("set C names a syscall the two tables disagree on");
	br = set_push(s);
	br->name = name;
	br->act = act;
	br->in_group = in_group;
	br->n_cmps = n;
	for (unsigned k = 0; k < n; k++) {
		struct slot sl = slot_of(name, c[k].arg);

		if (!sl.usable || sl.ptr)
			die("set C compares an argument the bench cannot");
		br->c[k] = c[k];
		br->c[k].narrow = sl.narrow;
		if (sl.narrow)
			br->c[k].v &= UINT32_MAX;
		s->n_cmps++;
	}
}

#define C_RULE(name, act, ...)                                     \
	c_rule(s, name, act, (const struct bcmp[]){ __VA_ARGS__ }, \
	       sizeof((const struct bcmp[]){ __VA_ARGS__ }) / sizeof(struct bcmp), false)
#define EQ(a_, v_)                                           \
	{                                                    \
		.arg = (a_), .op = B_EQ, .v = (uint64_t)(v_) \
	}
#define GE(a_, v_)                                 \
	{                                          \
		.arg = (a_), .op = B_GE, .v = (v_) \
	}
#define MASK(a_, m_, v_)                                           \
	{                                                          \
		.arg = (a_), .op = B_MASK, .v = (v_), .mask = (m_) \
	}

/* "name = argN in { values }": one rule per value, written as a set. */
static void c_set(struct bset *s, const char *name, unsigned act, unsigned arg, const int64_t *v,
		  size_t n)
{
	for (size_t i = 0; i < n; i++)
		c_rule(s, name, act, (const struct bcmp[]){ EQ(arg, v[i]) }, 1, true);
}

#define C_SET(name, act, arg, ...)                                 \
	c_set(s, name, act, arg, (const int64_t[]){ __VA_ARGS__ }, \
	      sizeof((const int64_t[]){ __VA_ARGS__ }) / sizeof(int64_t))

/* A service's allow-list with the argument rules a hand-written profile
 * has: multi-condition rules on socket, openat, setsockopt, getsockopt,
 * rt_sigprocmask, futex command masks, signed value sets (clock ids,
 * AT_FDCWD, pid -1). */
static void make_c(struct bset *s)
{
	static const char *const plain[] = {
		"read",
		"write",
		"close",
		"fstat",
		"pread64",
		"pwrite64",
		"readv",
		"writev",
		"brk",
		"munmap",
		"mremap",
		"rt_sigreturn",
		"exit",
		"exit_group",
		"getpid",
		"gettid",
		"getuid",
		"geteuid",
		"getgid",
		"getegid",
		"getppid",
		"uname",
		"sched_yield",
		"nanosleep",
		"epoll_wait",
		"epoll_create1",
		"bind",
		"listen",
		"connect",
		"getsockname",
		"getpeername",
		"sendmsg",
		"recvmsg",
		"poll",
		"ppoll",
		"select",
		"pselect6",
		"readlinkat",
		"getcwd",
		"chdir",
		"getdents64",
		"set_robust_list",
		"set_tid_address",
		"rseq",
		"sigaltstack",
		"restart_syscall",
		"getrlimit",
		"prlimit64",
		"sysinfo",
		"getrusage",
		"times",
		"umask",
		"fdatasync",
		"fsync",
		"ftruncate",
		"renameat2",
		"mkdirat",
		"fchmod",
		"capget",
		"sched_getaffinity",
	};
	static const int64_t so_sock[] = { 2, 7, 8, 9, 13, 15, 20, 21, 1, 6 };
	static const int64_t so_tcp[] = { 1, 4, 5, 6, 9, 23, 3 };
	static const int64_t so_ip[] = { 1, 2, 12, 3 };
	static const int64_t so_ip6[] = { 26, 16, 67 };

	s->id = "C";
	s->desc = "a service profile: 42 syscalls with argument rules, ~320 rules";
	set_abis(s, (const char *const[]){ "x86_64" }, (const uint32_t[]){ SCMP_ARCH_X86_64 }, 1);
	s->def = ACT_EPERM;
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		add_uncond(s, plain[i], ACT_ALLOW);

	for (int64_t fam = 1; fam <= 10; fam += fam == 2 ? 8 : 1) /* AF_UNIX, AF_INET, AF_INET6 */
		for (int64_t type = 1; type <= 5; type += type == 2 ? 3 : 1)
			if (type != 5 || fam == 1)
				C_RULE("socket", ACT_ALLOW, EQ(0, fam), MASK(1, 0xf, type));
	C_RULE("socket", ACT_ALLOW, EQ(0, 16), EQ(2, 0));
	C_RULE("socket", ACT_ALLOW, EQ(0, 16), EQ(2, 9));
	C_RULE("socket", ACT_ALLOW, EQ(0, 16), EQ(2, 15));
	C_RULE("socketpair", ACT_ALLOW, EQ(0, 1), MASK(1, 0xf, 1));
	C_RULE("socketpair", ACT_ALLOW, EQ(0, 1), MASK(1, 0xf, 2));

	C_RULE("openat", ACT_ALLOW, MASK(2, 3, 0));
	C_RULE("openat", ACT_ALLOW, EQ(0, -100), MASK(2, 3, 1));
	C_RULE("openat", ACT_ALLOW, EQ(0, -100), MASK(2, 3, 2));
	C_RULE("openat", ACT_ALLOW, EQ(0, -100), MASK(2, 0x40, 0x40));
	C_RULE("openat", ACT_EACCES, MASK(2, 0x200, 0x200));

	for (int pass = 0; pass < 2; pass++) {
		const char *name = pass ? "getsockopt" : "setsockopt";

		for (size_t i = 0; i < sizeof(so_sock) / sizeof(so_sock[0]); i++)
			C_RULE(name, ACT_ALLOW, EQ(1, 1), EQ(2, so_sock[i]));
		for (size_t i = 0; i < sizeof(so_tcp) / sizeof(so_tcp[0]); i++)
			C_RULE(name, ACT_ALLOW, EQ(1, 6), EQ(2, so_tcp[i]));
		for (size_t i = 0; i < sizeof(so_ip) / sizeof(so_ip[0]); i++)
			C_RULE(name, ACT_ALLOW, EQ(1, 0), EQ(2, so_ip[i]));
		for (size_t i = 0; i < sizeof(so_ip6) / sizeof(so_ip6[0]); i++)
			C_RULE(name, ACT_ALLOW, EQ(1, 41), EQ(2, so_ip6[i]));
	}
	C_SET("getsockopt", ACT_ALLOW, 2, 4, 3, 17, 31);

	for (int64_t how = 0; how <= 2; how++)
		C_RULE("rt_sigprocmask", ACT_ALLOW, EQ(0, how), EQ(3, 8));
	for (int64_t sig = 1; sig <= 31; sig++)
		if (sig != 9 && sig != 19 && (sig <= 17 || sig >= 28))
			C_RULE("rt_sigaction", ACT_ALLOW, EQ(0, sig), EQ(3, 8));
	for (uint64_t op = 0; op <= 13; op++)
		C_RULE("futex", ACT_ALLOW, MASK(1, 0x7f, op));

	C_SET("fcntl", ACT_ALLOW, 1, 0, 1, 2, 3, 4, 5, 6, 7, 1030, 1031, 1032);
	C_SET("ioctl", ACT_ALLOW, 1, 0x5401, 0x5413, 0x541b, 0x5421, 0x5451, 0x5450, 0x540f);
	for (int64_t fd = 0; fd <= 2; fd++)
		C_RULE("ioctl", ACT_ALLOW, EQ(0, fd), EQ(1, 0x5402));
	C_SET("kill", ACT_ALLOW, 1, 0, 1, 9, 10, 12, 15);
	C_RULE("kill", ACT_ALLOW, EQ(0, -1), EQ(1, 15));
	C_SET("tgkill", ACT_ALLOW, 2, 5, 6, 11);
	C_SET("prctl", ACT_ALLOW, 0, 1, 3, 15, 16, 23, 36, 38);
	C_RULE("prctl", ACT_ALLOW, EQ(0, 4), EQ(1, 0));
	C_RULE("mmap", ACT_ALLOW, MASK(2, 4, 0));
	C_RULE("mmap", ACT_ALLOW, EQ(2, 5), MASK(3, 0x20, 0));
	C_RULE("mprotect", ACT_ALLOW, MASK(2, 4, 0));
	C_RULE("clone", ACT_ALLOW, MASK(0, 0x7e020000, 0));
	for (int64_t which = 0; which <= 3; which++)
		C_RULE("waitid", ACT_ALLOW, EQ(0, which), MASK(3, 0x1000000, 0));
	for (int64_t op = 1; op <= 3; op++)
		C_RULE("epoll_ctl", ACT_ALLOW, EQ(1, op), GE(2, 3));
	C_RULE("wait4", ACT_ALLOW, EQ(0, -1), MASK(2, 0xfffffff8, 0));
	C_RULE("wait4", ACT_ALLOW, GE(0, 1), MASK(2, 0xfffffff8, 0));
	C_RULE("accept4", ACT_ALLOW, MASK(3, 0xfff7f7ff, 0));
	C_SET("sendto", ACT_ALLOW, 3, 0, 0x40, 0x4000, 0x4040);
	C_SET("recvfrom", ACT_ALLOW, 3, 0, 0x40, 0x2, 0x42, 0x100);
	C_SET("madvise", ACT_ALLOW, 2, 0, 1, 2, 3, 4, 8, 9, 14, 15, 18, 19);
	C_SET("lseek", ACT_ALLOW, 2, 0, 1, 2, 3, 4);
	C_SET("getrandom", ACT_ALLOW, 2, 0, 1, 2, 4);
	C_SET("clock_gettime", ACT_ALLOW, 0, 0, 1, 2, 3, 4, 5, 6, 7, -6, -2, -10, -14);
	C_RULE("clock_nanosleep", ACT_ALLOW, EQ(0, 0), MASK(1, 0xfffffffe, 0));
	C_RULE("clock_nanosleep", ACT_ALLOW, EQ(0, 1), MASK(1, 0xfffffffe, 0));
	for (int64_t clk = 0; clk <= 7; clk += clk == 1 ? 6 : 1)
		C_RULE("timerfd_create", ACT_ALLOW, EQ(0, clk), MASK(1, 0xfff7f7ff, 0));
	C_RULE("eventfd2", ACT_ALLOW, MASK(1, 0xfff7f7fe, 0));
	C_SET("pipe2", ACT_ALLOW, 1, 0, 0x800, 0x80000, 0x80800);
	C_SET("dup3", ACT_ALLOW, 2, 0, 0x80000);
	C_SET("fadvise64", ACT_ALLOW, 3, 0, 1, 2, 3, 4, 5);
	for (int64_t which = 0; which <= 2; which++)
		C_RULE("setpriority", ACT_ALLOW, EQ(0, which), EQ(1, 0));
	C_SET("sched_setscheduler", ACT_ALLOW, 1, 0, 3, 5);
	C_SET("personality", ACT_ALLOW, 0, 0, 8, 0xffffffff);
	C_RULE("statx", ACT_ALLOW, EQ(0, -100), MASK(2, 0xffff8eff, 0));
	C_RULE("statx", ACT_ALLOW, GE(0, 0), MASK(2, 0xffff8eff, 0));
	C_SET("unlinkat", ACT_ALLOW, 2, 0, 0x200);
	C_RULE("newfstatat", ACT_ALLOW, MASK(3, 0xffffe6ff, 0));
	C_SET("faccessat2", ACT_ALLOW, 2, 0, 1, 2, 4, 6, 7);
	C_RULE("memfd_create", ACT_EACCES, MASK(1, 0x10, 0x10));
	C_RULE("memfd_create", ACT_EACCES, MASK(1, 0x4, 0x4));
	C_RULE("memfd_create", ACT_ALLOW, MASK(1, 0xffffffec, 0));
	C_SET("msync", ACT_ALLOW, 2, 1, 4, 5, 6);
	C_SET("shutdown", ACT_ALLOW, 1, 0, 1, 2);
}

/* ---- the INI profiles ---- */

static void cond_text(const struct brule *br, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < br->n_cmps && len < size; i++) {
		const struct bcmp *c = &br->c[i];
		const char *sep = i ? " && " : "";

		if (c->op == B_MASK)
			len += (size_t)snprintf(buf + len, size - len,
						"%sarg%u & 0x%" PRIx64 " == 0x%" PRIx64, sep,
						c->arg, c->mask, c->v);
		else
			len += (size_t)snprintf(buf + len, size - len, "%sarg%u %s 0x%" PRIx64, sep,
						c->arg, bop_text[c->op], c->v);
	}
}

static void write_profile(const struct bset *s, FILE *f)
{
	fprintf(f, "; SPDX-License-Identifier: LGPL-2.1-or-later\n");
	fprintf(f, "; Rule set %s of bench/bench: %s.\n", s->id, s->desc);
	fprintf(f, "; Written by 'bench/bench bench --write-profiles'; do not edit.\n\n");
	fprintf(f, "[profile]\ndescription = benchmark set %s\n\n", s->id);
	fprintf(f, "[filter]\ndefault-action = %s\narchitectures =", acts[s->def].text);
	for (unsigned k = 0; k < s->n_abis; k++)
		fprintf(f, " %s", s->abis[k]->name);
	fputc('\n', f);
	for (unsigned a = 0; a < ACT_COUNT; a++) {
		size_t col = 0;
		bool any = false;

		for (size_t i = 0; i < s->n_rules; i++)
			any = any || s->rules[i].act == a;
		if (!any)
			continue;
		fprintf(f, "\n[%s]\n", acts[a].text);
		for (size_t i = 0; i < s->n_rules; i++) {
			const char *name = s->rules[i].name;

			if (s->rules[i].act != a || s->rules[i].n_cmps)
				continue;
			if (!col || col + strlen(name) + 1 > 90) {
				fputs(col ? "\n\t" : "syscalls =", f);
				col = 8;
			}
			fprintf(f, " %s", name);
			col += strlen(name) + 1;
		}
		if (col)
			fputc('\n', f);
		for (size_t i = 0; i < s->n_rules;) {
			const struct brule *br = &s->rules[i];
			char cond[256];
			size_t j = i + 1;

			if (br->act != a || !br->n_cmps) {
				i++;
				continue;
			}
			if (!br->in_group) {
				cond_text(br, cond, sizeof(cond));
				fprintf(f, "%s = %s\n", br->name, cond);
				i++;
				continue;
			}
			/* "name = argN in { v, ... }", split to keep lines short */
			col = (size_t)fprintf(f, "%s = arg%u in { 0x%" PRIx64, br->name,
					      br->c[0].arg, br->c[0].v);
			for (; j < s->n_rules && s->rules[j].in_group && s->rules[j].act == a &&
			       !strcmp(s->rules[j].name, br->name) &&
			       s->rules[j].c[0].arg == br->c[0].arg;
			     j++) {
				if (col > LINE_MAX_INI - 24) {
					fputs(" }\n", f);
					col = (size_t)fprintf(f, "%s = arg%u in { 0x%" PRIx64,
							      br->name, br->c[0].arg,
							      s->rules[j].c[0].v);
					continue;
				}
				col += (size_t)fprintf(f, ", 0x%" PRIx64, s->rules[j].c[0].v);
			}
			fputs(" }\n", f);
			i = j;
		}
	}
}

/* ---- compiling ---- */

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct prog {
	struct sock_filter *insns;
	size_t len;
	char err[256]; /* set if the engine refused */
};

static void prog_clear(struct prog *p)
{
	free(p->insns);
	memset(p, 0, sizeof(*p));
}

/* Ours: load the profile, build the policy, generate. */
static int build_ours(const char *path, struct prog *out)
{
	struct compiled c;
	struct diag d;
	int r;

	diag_init(&d);
	r = compile_file(path, arch_native(), NULL, &d, &c);
	if (r >= 0 && out) {
		out->len = c.prog->len;
		out->insns = malloc(c.prog->len * sizeof(*c.prog->insns));
		if (!out->insns)
			die("out of memory");
		memcpy(out->insns, c.prog->insns, c.prog->len * sizeof(*c.prog->insns));
	} else if (r < 0 && out) {
		for (size_t i = 0; i < d.n_msgs; i++)
			if (d.msgs[i].severity == DIAG_ERROR && d.msgs[i].text) {
				snprintf(out->err, sizeof(out->err), "%s", d.msgs[i].text);
				break;
			}
	}
	compiled_free(&c);
	diag_clear(&d);
	return r;
}

static struct scmp_arg_cmp scmp_cmp(const struct bcmp *c)
{
	struct scmp_arg_cmp out = { .arg = c->arg };

	if (c->op == B_MASK) {
		out.op = SCMP_CMP_MASKED_EQ;
		out.datum_a = c->mask;
		out.datum_b = c->v;
	} else if (c->narrow && c->op == B_EQ) {
		/* exact on the low half whatever the upper half holds */
		out.op = SCMP_CMP_MASKED_EQ;
		out.datum_a = UINT32_MAX;
		out.datum_b = c->v;
	} else {
		/* SCMP_CMP32() is this with (uint32_t)v for narrow arguments */
		out.op = bop_scmp[c->op];
		out.datum_a = c->v;
	}
	return out;
}

/* libseccomp: the same rules through its API, exported to a memfd. */
static int build_theirs(const struct bset *s, unsigned opt, struct prog *out)
{
	scmp_filter_ctx ctx = seccomp_init(acts[s->def].scmp);
	bool native = false;
	int r, fd;

	if (!ctx)
		return -ENOMEM;
	r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	if (r >= 0)
		r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, opt);
	for (unsigned k = 0; r >= 0 && k < s->n_abis; k++) {
		if (s->scmp_arches[k] == seccomp_arch_native())
			native = true;
		else
			r = seccomp_arch_add(ctx, s->scmp_arches[k]);
	}
	if (r >= 0 && !native)
		r = seccomp_arch_remove(ctx, SCMP_ARCH_NATIVE);
	for (size_t i = 0; r >= 0 && i < s->n_rules; i++) {
		const struct brule *br = &s->rules[i];
		struct scmp_arg_cmp cmps[MAX_CMPS];

		for (unsigned k = 0; k < br->n_cmps; k++)
			cmps[k] = scmp_cmp(&br->c[k]);
		int nr = seccomp_syscall_resolve_name(br->name);

		r = seccomp_rule_add_array(ctx, acts[br->act].scmp, nr, br->n_cmps, cmps);
	}
	fd = r >= 0 ? memfd_create("bpf", MFD_CLOEXEC) : -1;
	if (r >= 0)
		r = fd < 0 ? -errno : seccomp_export_bpf(ctx, fd);
	if (r >= 0 && out) {
		off_t size = lseek(fd, 0, SEEK_END);

		out->len = (size_t)size / sizeof(struct sock_filter);
		out->insns = malloc((size_t)size);
		if (!out->insns || pread(fd, out->insns, (size_t)size, 0) != size)
			die("cannot read libseccomp's program back");
	} else if (r < 0 && out) {
		snprintf(out->err, sizeof(out->err), "libseccomp: %s", strerror(-r));
	}
	if (fd >= 0)
		close(fd);
	seccomp_release(ctx);
	return r;
}

enum engine {
	ENG_OURS,
	ENG_LS1,
	ENG_LS2,
	ENG_COUNT
};

static const char *const engine_names[] = { "ours", "libseccomp opt=1", "libseccomp opt=2" };

static int build(enum engine e, const struct bset *s, const char *profile, struct prog *out)
{
	if (e == ENG_OURS)
		return build_ours(profile, out);
	return build_theirs(s, e == ENG_LS1 ? 1 : 2, out);
}

/* Median CPU seconds of one compile: repeated for ~0.4 s, 5..400 runs
 * (3 when one run takes over 2 s). */
static double median_compile(enum engine e, const struct bset *s, const char *profile)
{
	double t[400], start = cpu_now(), once;
	unsigned n = 0, want;

	build(e, s, profile, NULL);
	once = cpu_now() - start;
	want = once > 0.08 ? 5 : once < 0.001 ? 400 : (unsigned)(0.4 / once);
	if (want < 5)
		want = 5;
	if (once > 2.0) { /* libseccomp on L: three runs, the first included */
		t[n++] = once;
		want = 3;
	}
	for (; n < want && n < 400; n++) {
		double t0 = cpu_now();

		build(e, s, profile, NULL);
		t[n] = cpu_now() - t0;
	}
	return median(t, n);
}

/* Median CPU seconds of our compile_ruleset() on a profile that
 * is already loaded: the work libseccomp does between its first
 * seccomp_rule_add() and the export, without our INI parsing. */
static double median_ours_from_ruleset(const char *profile)
{
	struct profile *prof = NULL;
	struct diag d;
	double t[400];
	unsigned n = 0;

	diag_init(&d);
	if (profile_load(profile, NULL, arch_native(), &d, &prof) < 0) {
		diag_clear(&d);
		return 0;
	}
	for (double start = cpu_now(); n < 400 && (n < 5 || cpu_now() - start < 0.4); n++) {
		struct compiled c;
		double t0 = cpu_now();

		compile_ruleset(prof->rs, arch_native(), &d, &c);
		t[n] = cpu_now() - t0;
		compiled_free(&c);
		diag_clear(&d);
	}
	profile_free(prof);
	return median(t, n);
}

/* ---- profile load + build ---- */

/*
 * One profile load + build of path, as compile_file() does it before it
 * generates the program: profile_load(), hardening_probe() and
 * policy_build(). Returns the CPU seconds of the whole and of the load
 * alone in *ret_load; freeing is not counted. Dies if the profile fails.
 */
static double load_build_once(const char *path, double *ret_load)
{
	struct profile *prof = NULL;
	struct policy *pol = NULL;
	struct diag d;
	double t0, t1, t2;

	diag_init(&d);
	t0 = cpu_now();
	if (profile_load(path, NULL, arch_native(), &d, &prof) < 0)
		die("a profile does not load");
	hardening_probe(&prof->rs->hardening);
	t1 = cpu_now();
	if (policy_build(prof->rs, arch_native(), &d, &pol) < 0)
		die("a profile does not build");
	t2 = cpu_now();
	policy_free(pol);
	profile_free(prof);
	diag_clear(&d);
	if (ret_load)
		*ret_load = t1 - t0;
	return t2 - t0;
}

/* Median CPU seconds of n load + builds of path (n <= 4000), the load
 * alone in *ret_load. */
static double median_load_build(const char *path, unsigned n, double *ret_load)
{
	static double t[4000], tl[4000];

	load_build_once(path, NULL); /* warm-up */
	for (unsigned i = 0; i < n; i++)
		t[i] = load_build_once(path, &tl[i]);
	if (ret_load)
		*ret_load = median(tl, n);
	return median(t, n);
}

/* bench BENCHDIR --load-build [-r REPS] [-n RUNS] PROFILE...: the profiles
 * interleaved, one repetition of each after the other. */
static int load_build_main(int argc, char **argv)
{
	unsigned reps = 5, runs = 400;
	int first = 0;
	double med[64][32], load[64][32];

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-r") && i + 1 < argc)
			reps = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			runs = (unsigned)atoi(argv[++i]);
		else
			break;
		first = i + 1;
	}
	if (reps < 1 || reps > 32 || runs < 1 || runs > 4000 || argc - first < 1 ||
	    argc - first > 64)
		die("usage: bench BENCHDIR --load-build [-r 1..32] [-n 1..4000] PROFILE...");
	for (unsigned r = 0; r < reps; r++)
		for (int p = first; p < argc; p++)
			med[p - first][r] = median_load_build(argv[p], runs, &load[p - first][r]);
	printf("profile load + build (profile_load + policy_build), median CPU of %u runs, "
	       "%u repetitions\n\n",
	       runs, reps);
	printf("| profile | load + build us: median of the repetitions (min..max) | "
	       "load alone us |\n|---|---:|---:|\n");
	for (int p = first; p < argc; p++) {
		double *m = med[p - first], *l = load[p - first];

		double mm = median(m, reps); /* sorts m */

		printf("| %s | %.1f (%.1f..%.1f) | %.1f |\n", argv[p], mm * 1e6, m[0] * 1e6,
		       m[reps - 1] * 1e6, median(l, reps) * 1e6);
	}
	return 0;
}

/* ---- the syscall mix ---- */

struct call {
	unsigned long count;
	uint32_t nr;
	uint64_t args[6];
};

struct mix {
	struct call *calls;
	size_t n;
	unsigned long total, unknown;
};

static void mix_load(const char *benchdir, struct mix *m)
{
	char path[4096], line[512], name[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/data/syscall-mix.txt", benchdir);
	f = fopen(path, "re");
	if (!f)
		die("cannot open data/syscall-mix.txt");
	memset(m, 0, sizeof(*m));
	while (fgets(line, sizeof(line), f)) {
		struct call c = { 0 };
		char *p = line;
		int used;

		if (line[0] == '#' || sscanf(p, "%lu %63s%n", &c.count, name, &used) != 2)
			continue;
		p += used;
		for (int i = 0; i < 6 && sscanf(p, "%" SCNx64 "%n", &c.args[i], &used) == 1; i++)
			p += used;
		m->total += c.count;
		if (syscalls_lookup_name(arch_get(ARCH_X86_64), name, &c.nr) < 0) {
			m->unknown += c.count;
			continue;
		}
		m->calls = reallocarray(m->calls, m->n + 1, sizeof(*m->calls));
		if (!m->calls)
			die("out of memory");
		m->calls[m->n++] = c;
	}
	fclose(f);
}

struct figures {
	size_t len;
	double mean, cache, compile;
	size_t max;
	char err[256];
};

static void replay(const struct prog *p, const struct mix *m, struct figures *fg, uint32_t *rets)
{
	double sum = 0, cached = 0, n = 0;

	fg->max = 0;
	for (size_t i = 0; i < m->n; i++) {
		struct seccomp_data sd = { .nr = (int)m->calls[i].nr,
					   .arch = arch_get(ARCH_X86_64)->audit_arch };
		struct sim_result res;

		memcpy(sd.args, m->calls[i].args, sizeof(sd.args));
		if (sim_run(p->insns, p->len, &sd, &res) < 0)
			die("a program failed in the simulator");
		rets[i] = res.ret;
		sum += (double)res.executed * (double)m->calls[i].count;
		n += (double)m->calls[i].count;
		if (res.executed > fg->max)
			fg->max = res.executed;
		if (sim_is_const_allow(p->insns, p->len, sd.arch, m->calls[i].nr))
			cached += (double)m->calls[i].count;
	}
	fg->mean = n ? sum / n : 0;
	fg->cache = n ? cached / n : 0;
}

static void profile_path(const char *benchdir, const char *id, char *buf, size_t size)
{
	snprintf(buf, size, "%s/profiles/%s.ini", benchdir, id);
}

static int write_profiles(const char *benchdir, struct bset *sets, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char path[4096];
		FILE *f;

		profile_path(benchdir, sets[i].id, path, sizeof(path));
		f = fopen(path, "we");
		if (!f)
			die("cannot write a profile");
		write_profile(&sets[i], f);
		if (fclose(f) != 0)
			die("cannot write a profile");
		printf("wrote %s\n", path);
	}
	return 0;
}

/* The committed profile must say what the generator says. */
static bool profile_current(const struct bset *s, const char *path)
{
	char *want = NULL, *have = NULL;
	size_t want_len = 0, have_len = 0;
	FILE *w = open_memstream(&want, &want_len), *h = fopen(path, "re");
	bool same = false;

	if (w && h) {
		write_profile(s, w);
		fclose(w);
		w = NULL;
		have = malloc(want_len + 2);
		if (have) {
			have_len = fread(have, 1, want_len + 1, h);
			same = have_len == want_len && !memcmp(want, have, want_len);
		}
	}
	if (w)
		fclose(w);
	if (h)
		fclose(h);
	free(want);
	free(have);
	return same;
}

/* "r1, r2" for figure k (length, mean, max, compile) of ours against both
 * libseccomp levels; "-" where a program was refused. */
static void print_ratios(const struct figures *fg, int k)
{
	for (int e = ENG_LS1; e <= ENG_LS2; e++) {
		double a, b;

		switch (k) {
		case 0:
			a = (double)fg[0].len, b = (double)fg[e].len;
			break;
		case 1:
			a = fg[0].mean, b = fg[e].mean;
			break;
		case 2:
			a = (double)fg[0].max, b = (double)fg[e].max;
			break;
		default:
			a = fg[0].compile, b = fg[e].compile;
		}
		if ((k < 3 && (fg[0].err[0] || fg[e].err[0])) || b <= 0)
			printf("-");
		else
			printf("%.3g", a / b);
		printf(e == ENG_LS1 ? ", " : " ");
	}
	printf("| ");
}

int main(int argc, char **argv)
{
	const char *benchdir = argc > 1 ? argv[1] : "bench";
	const char *service = argc > 2 ? argv[2] : "profiles/system-service.ini";
	const char *tsv = argc > 3 ? argv[3] : NULL;
	struct bset sets[6] = { 0 };
	struct mix mix;
	FILE *out = NULL;
	double t_load[200], t_all[200];
	unsigned long disagree = 0; /* calls of the mix decided differently, all sets */

	if (argc > 2 && !strcmp(argv[2], "--load-build"))
		return load_build_main(argc - 3, argv + 3);
	make_s(&sets[0]);
	make_d(&sets[1], benchdir, false);
	make_d(&sets[2], benchdir, true);
	make_a(&sets[3]);
	make_l(&sets[4]);
	make_c(&sets[5]);
	if (argc > 2 && !strcmp(argv[2], "--write-profiles"))
		return write_profiles(benchdir, sets, 6);
	mix_load(benchdir, &mix);
	if (tsv && !(out = fopen(tsv, "we")))
		die("cannot write the results file");
	if (out)
		fprintf(out, "set\tengine\tlength\tmean\tmax\tcache\tcompile_us\terror\n");

	printf("syscall mix: %lu calls (%zu distinct) replayed on x86_64", mix.total, mix.n);
	if (mix.unknown)
		printf(", %lu of unknown names left out", mix.unknown);
	printf("\n\n");
	printf("| set | rules (arg cmps) | engine | length | mean exec | max exec | "
	       "cache share | compile (CPU) |\n");
	printf("|---|---|---|---:|---:|---:|---:|---:|\n");
	for (size_t i = 0; i < 6; i++) {
		struct bset *s = &sets[i];
		struct figures fg[ENG_COUNT] = { 0 };
		uint32_t *rets[ENG_COUNT];
		unsigned long differ = 0;
		char path[4096];

		profile_path(benchdir, s->id, path, sizeof(path));
		/* ours compiles the file, libseccomp the generator's rules:
		 * unless they agree, the two would be given different sets */
		if (!profile_current(s, path)) {
			fprintf(stderr,
				"bench: %s is not what the generator writes: "
				"run 'bench --write-profiles'\n",
				path);
			return 1;
		}
		for (int e = 0; e < ENG_COUNT; e++) {
			struct prog p = { 0 };

			rets[e] = calloc(mix.n + 1, sizeof(uint32_t));
			if (!rets[e])
				die("out of memory");
			if (build((enum engine)e, s, path, &p) < 0) {
				snprintf(fg[e].err, sizeof(fg[e].err), "%s", p.err);
				fg[e].compile = median_compile((enum engine)e, s, path);
				prog_clear(&p);
				continue;
			}
			fg[e].len = p.len;
			if (p.len > BPF_PROG_MAX) { /* the kernel would refuse it */
				snprintf(fg[e].err, sizeof(fg[e].err),
					 "%zu instructions, over the kernel's %u", p.len,
					 BPF_PROG_MAX);
				fg[e].compile = median_compile((enum engine)e, s, path);
				prog_clear(&p);
				continue;
			}
			replay(&p, &mix, &fg[e], rets[e]);
			fg[e].compile = median_compile((enum engine)e, s, path);
			prog_clear(&p);
		}
		for (size_t k = 0; k < mix.n; k++)
			for (int e = 1; e < ENG_COUNT; e++)
				if (!fg[0].err[0] && !fg[e].err[0] && rets[e][k] != rets[0][k]) {
					differ += mix.calls[k].count;
					break;
				}
		for (int e = 0; e < ENG_COUNT; e++) {
			printf("| %s | %zu (%u) | %s | ", e ? "" : s->id, s->n_rules, s->n_cmps,
			       engine_names[e]);
			if (fg[e].err[0])
				printf("refused: %s | | | | %.1f us |\n", fg[e].err,
				       fg[e].compile * 1e6);
			else
				printf("%zu | %.2f | %zu | %.1f%% | %.1f us |\n", fg[e].len,
				       fg[e].mean, fg[e].max, 100 * fg[e].cache,
				       fg[e].compile * 1e6);
			if (out)
				fprintf(out, "%s\t%s\t%zu\t%.3f\t%zu\t%.4f\t%.2f\t%s\n", s->id,
					engine_names[e], fg[e].len, fg[e].mean, fg[e].max,
					fg[e].cache, fg[e].compile * 1e6, fg[e].err);
			free(rets[e]);
		}
		if (differ)
			fprintf(stderr, "bench: set %s: %lu calls of the mix decided differently\n",
				s->id, differ);
		disagree += differ;
		printf("| | | ratio ours / opt=1, opt=2 | ");
		print_ratios(fg, 0);
		print_ratios(fg, 1);
		print_ratios(fg, 2);
		printf("| ");
		print_ratios(fg, 3);
		printf("\n");
		if (!fg[0].err[0] && fg[1].len && fg[2].len && !fg[1].err[0] && !fg[2].err[0]) {
			size_t shorter = fg[1].len < fg[2].len ? fg[1].len : fg[2].len;

			printf("| | | length / libseccomp's shorter program | %.3g | | | | |\n",
			       (double)fg[0].len / (double)shorter);
		}
		{
			double c = median_ours_from_ruleset(path);

			printf("| | | ours without INI parsing (ruleset to program) | | | | | "
			       "%.1f us (%.3g, %.3g) |\n",
			       c * 1e6, fg[1].compile > 0 ? c / fg[1].compile : 0,
			       fg[2].compile > 0 ? c / fg[2].compile : 0);
		}
		{
			/* ~0.4 s of runs: 400 for a small set, fewer for L */
			double once = load_build_once(path, NULL);
			unsigned n = once > 0.001 ? (unsigned)(0.4 / once) + 5 : 400;
			double l, c = median_load_build(path, n < 400 ? n : 400, &l);

			printf("| | | ours: profile load + build (to the policy; load alone %.1f us) "
			       "| | | | | %.1f us |\n",
			       l * 1e6, c * 1e6);
		}
		if (s->dropped)
			printf("| | %u names left out (the two tables differ) | | | | | | |\n",
			       s->dropped);
	}

	/* The sample profile: loading alone, and loading + compiling. */
	for (int k = 0; k < 200; k++) {
		struct profile *prof = NULL;
		struct diag d;
		double t0 = cpu_now();

		diag_init(&d);
		if (profile_load(service, NULL, arch_native(), &d, &prof) < 0) {
			fprintf(stderr, "bench: %s does not load\n", service);
			return 1;
		}
		t_load[k] = cpu_now() - t0;
		profile_free(prof);
		diag_clear(&d);
		t0 = cpu_now();
		if (build_ours(service, NULL) < 0)
			die("the sample profile does not compile");
		t_all[k] = cpu_now() - t0;
	}
	double med_load = median(t_load, 200), med_all = median(t_all, 200); /* t_all sorted */

	printf("\n%s: load %.1f us, load + compile %.1f us CPU (median of 200; max %.1f us)\n",
	       service, med_load * 1e6, med_all * 1e6, t_all[199] * 1e6);
	if (out) {
		fprintf(out, "system-service\tours\t0\t0\t0\t0\t%.2f\t\n", med_all * 1e6);
		fclose(out);
	}
	for (size_t i = 0; i < 6; i++)
		set_free(&sets[i]);
	free(mix.calls);
	/* lengths and counts of programs that decide differently compare
	 * nothing: the run fails, and bench/run keeps no results */
	return disagree ? 1 : 0;
}
