/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The profile --learn writes (learn_write()) allows what was recorded and
 * nothing more: compiled again, every call of every ABI of the profile
 * with the recorded argument values is allowed only if a record covers
 * it (exit and exit_group aside, scmp-run(1) WRITING A PROFILE FOR A
 * PROGRAM), and every record is allowed. Calls seen on one ABI of several
 * are the cases where a name, which means the call on every ABI, is wider.
 * Records read back (learn_load()) must be calls their ABI can see.
 */
#include <errno.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile.h"
#include "learn.h"
#include "memstream.h"
#include "tap.h"

struct call {
	enum arch_id abi;
	uint32_t nr;
	uint64_t args[SYSCALL_ARGS_MAX];
};

/* Does a recorded call cover sd: the same ABI and number, and the same
 * decisive arguments (the learned rule's conditions)? Judged by learning
 * sd into a set of its own: known (0) if a record equals it. */
static bool covered(const struct call *calls, size_t n, const struct arch *a,
		    const struct seccomp_data *sd)
{
	struct learn *l = learn_new();
	uint64_t args[SYSCALL_ARGS_MAX];
	bool r = false;

	for (size_t i = 0; i < n; i++)
		learn_record(l, arch_get(calls[i].abi), calls[i].nr, calls[i].args);
	for (unsigned i = 0; i < SYSCALL_ARGS_MAX; i++)
		args[i] = sd->args[i];
	r = learn_record(l, a, (uint32_t)sd->nr, args) == 0;
	learn_free(l);
	return r;
}

static bool is_exit(const struct arch *a, uint32_t nr)
{
	const char *name = syscalls_lookup_nr(a, nr);

	return name && (!strcmp(name, "exit") || !strcmp(name, "exit_group"));
}

/* Learn calls, write the profile, compile it: 0, or -1 (said). */
static int learned(const struct call *calls, size_t n, struct compiled *c)
{
	char path[] = "/tmp/test-learn-write-XXXXXX";
	struct learn_header h = { .user = "root", .native = arch_get(ARCH_X86_64) };
	struct learn *l = learn_new();
	struct diag d;
	int fd = mkstemp(path), r = -1;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	for (size_t i = 0; i < n; i++)
		learn_record(l, arch_get(calls[i].abi), calls[i].nr, calls[i].args);
	if (f && learn_write(l, &h, f) == 0 && fclose(f) == 0) {
		f = NULL;
		diag_init(&d);
		r = compile_file(path, arch_get(ARCH_X86_64), NULL, &d, c);
		if (r < 0)
			diag_print(&d, "test-learn-write", stdout);
		diag_clear(&d);
	}
	if (f)
		fclose(f);
	learn_free(l);
	unlink(path);
	return r < 0 ? -1 : 0;
}

/* Every known call of every ABI of the profile, with each argument
 * vector the records hold and zeros: allowed only if covered. */
static void check(const char *what, const struct call *calls, size_t n)
{
	struct compiled c;
	size_t wide = 0, narrow = 0;

	if (learned(calls, n, &c) < 0) {
		tap_ok(false, "%s: the learned profile compiles", what);
		return;
	}
	for (size_t a = 0; a < c.policy->n_abis; a++) {
		const struct abi_policy *abi = &c.policy->abis[a];

		for (size_t k = 0; k < abi->n_known; k++) {
			for (size_t v = 0; v <= n; v++) {
				struct seccomp_data sd = { .arch = abi->arch->audit_arch,
							   .nr = (int)abi->known[k].nr };
				struct decision dec;

				if (v < n)
					memcpy(sd.args, calls[v].args, sizeof(sd.args));
				policy_decide(c.policy, &sd, &dec);
				if ((dec.ret & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_ALLOW ||
				    is_exit(abi->arch, (uint32_t)sd.nr) ||
				    covered(calls, n, abi->arch, &sd))
					continue;
				if (wide++ < 3)
					tap_diag("%s: allowed, never seen: %s %s", what,
						 abi->arch->name,
						 syscalls_lookup_nr(abi->arch, (uint32_t)sd.nr));
				break; /* counted once a call */
			}
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct arch *a = arch_get(calls[i].abi);
		struct seccomp_data sd = { .arch = a->audit_arch, .nr = (int)calls[i].nr };
		struct decision dec;

		memcpy(sd.args, calls[i].args, sizeof(sd.args));
		policy_decide(c.policy, &sd, &dec);
		if ((dec.ret & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_ALLOW && narrow++ < 3)
			tap_diag("%s: seen, not allowed: %s %#x", what, a->name, calls[i].nr);
	}
	tap_ok(!wide, "%s: nothing allowed that was not seen (%zu calls)", what, wide);
	tap_ok(!narrow, "%s: everything seen is allowed (%zu)", what, narrow);
	compiled_free(&c);
}

/* After learning calls, does the profile allow call nr of abi with args? */
static bool allows(const struct call *calls, size_t n, enum arch_id abi, uint32_t nr,
		   const uint64_t args[SYSCALL_ARGS_MAX])
{
	struct seccomp_data sd = { .arch = arch_get(abi)->audit_arch, .nr = (int)nr };
	struct compiled c;
	struct decision dec;

	if (learned(calls, n, &c) < 0)
		return true; /* said; counted as the wider answer */
	memcpy(sd.args, args, sizeof(sd.args));
	policy_decide(c.policy, &sd, &dec);
	compiled_free(&c);
	return (dec.ret & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ALLOW;
}

#define X32(nr) (0x40000000u | (nr))

/* The profile written from calls learned in the order perm[] gives;
 * NULL when out of memory. */
static char *written(const struct call *calls, const size_t *perm, size_t n)
{
	struct learn_header h = { .native = arch_get(ARCH_X86_64) };
	struct learn *l = learn_new();
	char *text = NULL;
	FILE *f = l ? memstream_open(&text) : NULL;

	for (size_t i = 0; f && i < n; i++)
		learn_record(l, arch_get(calls[perm[i]].abi), calls[perm[i]].nr,
			     calls[perm[i]].args);
	if (f && (learn_write(l, &h, f) < 0 || memstream_close(f, &text) < 0))
		text = NULL;
	learn_free(l);
	return text;
}

/* The same records give the same file, in whatever order they were seen:
 * a merge reads them back in the written order, and must write the file
 * again as it was. Calls with a name and numbers without one, together,
 * in every order (Heap's algorithm). */
static void same_in_any_order(void)
{
	const struct call calls[] = {
		{ ARCH_X32, X32(1), { 0 } },	/* write */
		{ ARCH_X32, X32(56), { 0 } },	/* clone */
		{ ARCH_X32, X32(16), { 0 } },	/* ioctl */
		{ ARCH_X32, X32(4608), { 0 } }, /* no name */
	};
	enum {
		N = sizeof(calls) / sizeof(calls[0])
	};
	size_t perm[N] = { 0, 1, 2, 3 }, c[N] = { 0 }, orders = 1, differ = 0;
	char *first = written(calls, perm, N);

	for (size_t i = 1; first && i < N;) {
		char *text;

		if (c[i] >= i) {
			c[i++] = 0;
			continue;
		}
		size_t j = i % 2 ? c[i] : 0, t = perm[j];

		perm[j] = perm[i];
		perm[i] = t;
		c[i]++;
		i = 1;
		text = written(calls, perm, N);
		differ += !text || strcmp(text, first);
		orders++;
		free(text);
	}
	tap_ok(first && orders == 24 && !differ,
	       "the same records, in any of %zu orders, are written the same (%zu differ)", orders,
	       differ);
	free(first);
}

int main(void)
{
	const struct call native_only[] = {
		{ ARCH_X86_64, 0, { 0 } },     /* read */
		{ ARCH_X86_64, 59, { 0 } },    /* execve */
		{ ARCH_X86_64, 41, { 1, 1 } }, /* socket(AF_UNIX, SOCK_STREAM) */
	};
	const struct call x32_too[] = {
		{ ARCH_X86_64, 0, { 0 } },	 /* read */
		{ ARCH_X86_64, 59, { 0 } },	 /* execve */
		{ ARCH_X32, X32(39), { 0 } },	 /* getpid */
		{ ARCH_X32, X32(600), { 0 } },	 /* no name */
		{ ARCH_X32, X32(41), { 2, 1 } }, /* socket(AF_INET, SOCK_STREAM) */
		{ ARCH_X86_64, 41, { 1, 1 } },	 /* socket(AF_UNIX, SOCK_STREAM) */
	};
	const struct call x86_too[] = {
		{ ARCH_X86_64, 0, { 0 } },    /* read */
		{ ARCH_X86_64, 59, { 0 } },   /* execve */
		{ ARCH_X86, 3, { 0 } },	      /* read */
		{ ARCH_X86, 4, { 0 } },	      /* write */
		{ ARCH_X86, 102, { 1, 0 } },  /* socketcall */
		{ ARCH_X86, 359, { 2, 1 } },  /* socket */
		{ ARCH_X86_64, 1000, { 0 } }, /* no name */
	};

	const struct call group_x32[] = {
		{ ARCH_X86_64, 59, { 0 } },   /* execve */
		{ ARCH_X86_64, 167, { 0 } },  /* swapon: with swapoff, all of @swap */
		{ ARCH_X86_64, 168, { 0 } },  /* swapoff */
		{ ARCH_X32, X32(39), { 0 } }, /* getpid */
	};

	printf("TAP version 13\n");
	same_in_any_order();
	check("the native ABI alone", native_only, sizeof(native_only) / sizeof(native_only[0]));
	check("x86_64 and x32 calls", x32_too, sizeof(x32_too) / sizeof(x32_too[0]));
	check("x86_64 and x86 calls", x86_too, sizeof(x86_too) / sizeof(x86_too[0]));
	check("a group used on x86_64, not on x32", group_x32,
	      sizeof(group_x32) / sizeof(group_x32[0]));
	/* a multiplexer's operation is decisive: socketcall(SYS_SOCKET) seen
	 * does not allow socketcall(SYS_CONNECT), nor ipc(SEMOP) ipc(SHMAT) */
	{
		const struct call mux[] = {
			{ ARCH_X86_64, 59, { 0 } }, /* execve */
			{ ARCH_X86, 102, { 1 } },   /* socketcall(SYS_SOCKET) */
			{ ARCH_X86, 117, { 1 } },   /* ipc(SEMOP) */
		};
		const uint64_t sys_socket[SYSCALL_ARGS_MAX] = { 1 },
			       sys_connect[SYSCALL_ARGS_MAX] = { 3 },
			       shmat[SYSCALL_ARGS_MAX] = { 21 };
		size_t n = sizeof(mux) / sizeof(mux[0]);

		check("socketcall and ipc on x86", mux, n);
		tap_ok(allows(mux, n, ARCH_X86, 102, sys_socket),
		       "socketcall(SYS_SOCKET): allowed");
		tap_ok(!allows(mux, n, ARCH_X86, 102, sys_connect),
		       "socketcall(SYS_CONNECT), never seen: denied");
		tap_ok(!allows(mux, n, ARCH_X86, 117, shmat), "ipc(SHMAT), never seen: denied");
	}
	/* records read back (learn_load()): a number its ABI never sees, an
	 * x32 one without its bit or an x86_64 one with it (-1 excepted), is
	 * no call --learn records, and the profile would refuse its rule */
	{
		static const struct {
			const char *line;
			int want;
		} recs[] = {
			{ ";@learned x32 1073741863\n", 1 }, /* getpid */
			{ ";@learned x86_64 4294967295\n", 1 },
			{ ";@learned x32 39\n", -EINVAL },
			{ ";@learned x32 4294967295\n", -EINVAL },
			{ ";@learned x86_64 1073741863\n", -EINVAL },
		};

		for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
			FILE *f = fmemopen((void *)recs[i].line, strlen(recs[i].line), "r");
			struct learn *l = learn_new();
			struct diag d;
			int r = -ENOMEM;

			diag_init(&d);
			if (f && l)
				r = learn_load(
					l, f, "learned.ini",
					&(struct learn_header){ .native = arch_get(ARCH_X86_64) },
					&d);
			tap_ok(r == recs[i].want &&
				       (r > 0 || (d.n_errors == 1 && d.msgs[0].loc.line == 1)),
			       "record read back: %.*s: %s", (int)strlen(recs[i].line) - 1,
			       recs[i].line, recs[i].want > 0 ? "kept" : "refused at its line");
			if (f)
				fclose(f);
			learn_free(l);
			diag_clear(&d);
		}
	}
	/* a file read back for a merge: its header lines must be this run's */
	{
		static const struct {
			const char *text, *base, *user, *group;
			int want;
			unsigned line; /* of the error; 0: none at a line */
		} files[] = {
			{ "include = /b.ini\nuser = u\n;@learned x86_64 39\n", "/b.ini", "u", NULL,
			  1, 0 },
			{ ";@learned x86_64 39\n", NULL, NULL, NULL, 1, 0 },
			{ "include = /b.ini\n;@learned x86_64 39\n", "/c.ini", NULL, NULL, -EINVAL,
			  1 },
			{ "include = /b.ini\n;@learned x86_64 39\n", "/b.in", NULL, NULL, -EINVAL,
			  1 },
			{ "include = /b.ini\n;@learned x86_64 39\n", NULL, NULL, NULL, -EINVAL, 1 },
			{ "\ngroup = g\n;@learned x86_64 39\n", NULL, NULL, "h", -EINVAL, 2 },
			{ "user = u\n;@learned x86_64 39\n", NULL, NULL, NULL, -EINVAL, 1 },
			{ ";@learned x86_64 39\n", "/b.ini", NULL, NULL, -EINVAL, 0 },
			{ ";@learned x86_64 39\n", NULL, "u", NULL, -EINVAL, 0 },
		};

		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
			const char *text = files[i].text;
			FILE *f = fmemopen((void *)text, strlen(text), "r");
			struct learn *l = learn_new();
			struct learn_header h = { .base = files[i].base,
						  .user = files[i].user,
						  .group = files[i].group,
						  .native = arch_get(ARCH_X86_64) };
			struct diag d;
			int r = -ENOMEM;

			diag_init(&d);
			if (f && l)
				r = learn_load(l, f, "learned.ini", &h, &d);
			tap_ok(r == files[i].want &&
				       (r > 0 ||
					(d.n_errors == 1 && d.msgs[0].loc.line == files[i].line)),
			       "header read back %zu: %s", i,
			       files[i].want > 0 ? "merged" : "refused");
			if (f)
				fclose(f);
			learn_free(l);
			diag_clear(&d);
		}
	}
	/* the file's value in the message is escaped, as diagnostics quote
	 * what they read */
	{
		static const char text[] = "include = /b\033[2J.ini\n;@learned x86_64 39\n";
		FILE *f = fmemopen((void *)text, strlen(text), "r");
		struct learn *l = learn_new();
		struct learn_header h = { .base = "/c.ini", .native = arch_get(ARCH_X86_64) };
		struct diag d;
		int r = -ENOMEM;

		diag_init(&d);
		if (f && l)
			r = learn_load(l, f, "learned.ini", &h, &d);
		tap_ok(r == -EINVAL && d.n_msgs == 1 && d.msgs[0].text &&
			       strstr(d.msgs[0].text, "'/b\\x1b[2J.ini'") &&
			       !strchr(d.msgs[0].text, '\033'),
		       "header read back: the file's value is escaped in the message");
		if (f)
			fclose(f);
		learn_free(l);
		diag_clear(&d);
	}
	printf("1..%u\n", tap_n);
	return tap_failed ? 1 : 0;
}
