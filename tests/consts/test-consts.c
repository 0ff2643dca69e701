/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Named constants: values per ABI against facts from the kernel headers,
 * errno round trips, and the sorted name list.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "consts-table.h"
#include "consts.h"
#include "tests/tap.h"

/* Descriptors with just what consts.c reads (id, family, name), so these
 * tests do not depend on arch.c. */
static const struct arch abis[] = {
	{ .id = ARCH_X86_64, .name = "x86_64", .family = FAMILY_X86, .bits = 64 },
	{ .id = ARCH_X86, .name = "x86", .family = FAMILY_X86, .bits = 32 },
	{ .id = ARCH_X32, .name = "x32", .family = FAMILY_X86, .bits = 64 },
	{ .id = ARCH_AARCH64, .name = "aarch64", .family = FAMILY_ARM, .bits = 64 },
	{ .id = ARCH_ARM, .name = "arm", .family = FAMILY_ARM, .bits = 32 },
	{ .id = ARCH_RISCV64, .name = "riscv64", .family = FAMILY_RISCV, .bits = 64 },
	{ .id = ARCH_PPC64LE, .name = "ppc64le", .family = FAMILY_PPC_LE, .bits = 64 },
	{ .id = ARCH_PPC64, .name = "ppc64", .family = FAMILY_PPC_BE, .bits = 64 },
	{ .id = ARCH_PPC, .name = "ppc", .family = FAMILY_PPC_BE, .bits = 32 },
	{ .id = ARCH_S390X, .name = "s390x", .family = FAMILY_S390, .bits = 64 },
	{ .id = ARCH_S390, .name = "s390", .family = FAMILY_S390, .bits = 32 },
	{ .id = ARCH_MIPS, .name = "mips", .family = FAMILY_MIPS_BE, .bits = 32 },
	{ .id = ARCH_MIPSEL, .name = "mipsel", .family = FAMILY_MIPS_LE, .bits = 32 },
	{ .id = ARCH_MIPS64, .name = "mips64", .family = FAMILY_MIPS_BE, .bits = 64 },
	{ .id = ARCH_MIPSEL64, .name = "mipsel64", .family = FAMILY_MIPS_LE, .bits = 64 },
	{ .id = ARCH_MIPS64N32, .name = "mips64n32", .family = FAMILY_MIPS_BE, .bits = 64 },
	{ .id = ARCH_MIPSEL64N32, .name = "mipsel64n32", .family = FAMILY_MIPS_LE, .bits = 64 },
	{ .id = ARCH_LOONGARCH64, .name = "loongarch64", .family = FAMILY_LOONGARCH, .bits = 64 },
};

#define N_ABIS (sizeof(abis) / sizeof(abis[0]))

/* Every constant name, as a NULL-terminated list (consts_name() by index). */
static const char *const *all_names(size_t *ret_n)
{
	static const char *names[8192];
	size_t n = consts_count();

	if (n >= sizeof(names) / sizeof(names[0]))
		n = sizeof(names) / sizeof(names[0]) - 1;
	for (size_t i = 0; i < n; i++)
		names[i] = consts_name(i);
	names[n] = NULL;
	*ret_n = n;
	return names;
}

static const struct arch *abi(enum arch_id id)
{
	for (size_t i = 0; i < N_ABIS; i++)
		if (abis[i].id == id)
			return &abis[i];
	return NULL;
}

/* Expected values, from the kernel's uapi headers (asm-generic and the arch
 * overrides) as documented in the man pages. */
static const struct {
	enum arch_id id;
	const char *name;
	uint64_t value;
} facts[] = {
	{ ARCH_X86_64, "AT_FDCWD", UINT64_C(0xffffffffffffff9c) },
	{ ARCH_MIPS, "AT_FDCWD", UINT64_C(0xffffffffffffff9c) },
	{ ARCH_X86, "AT_FDCWD", UINT64_C(0xffffffffffffff9c) },
	{ ARCH_X86_64, "O_DIRECTORY", 0200000 },
	{ ARCH_AARCH64, "O_DIRECTORY", 040000 },
	{ ARCH_ARM, "O_DIRECTORY", 040000 },
	{ ARCH_PPC64LE, "O_DIRECTORY", 040000 },
	{ ARCH_RISCV64, "O_DIRECTORY", 0200000 },
	{ ARCH_X86_64, "O_NONBLOCK", 04000 },
	{ ARCH_MIPS64, "O_NONBLOCK", 0200 },
	{ ARCH_X86_64, "O_CLOEXEC", 02000000 },
	{ ARCH_X86_64, "O_TMPFILE", 020200000 },
	{ ARCH_AARCH64, "O_TMPFILE", 020040000 },
	{ ARCH_X86_64, "SOCK_STREAM", 1 },
	{ ARCH_X86_64, "SOCK_DGRAM", 2 },
	{ ARCH_AARCH64, "SOCK_STREAM", 1 },
	{ ARCH_MIPS, "SOCK_STREAM", 2 },
	{ ARCH_MIPS, "SOCK_DGRAM", 1 },
	{ ARCH_MIPSEL64, "SOCK_STREAM", 2 },
	{ ARCH_X86_64, "SOCK_NONBLOCK", 04000 },
	{ ARCH_MIPS, "SOCK_NONBLOCK", 0200 },
	{ ARCH_X86_64, "SOCK_CLOEXEC", 02000000 },
	{ ARCH_X86_64, "EAGAIN", 11 },
	{ ARCH_MIPS, "EAGAIN", 11 },
	{ ARCH_X86_64, "ENOSYS", 38 },
	{ ARCH_MIPS, "ENOSYS", 89 },
	{ ARCH_MIPS64N32, "ENOSYS", 89 },
	{ ARCH_PPC64, "ENOSYS", 38 },
	{ ARCH_PPC, "EDEADLOCK", 58 },
	{ ARCH_MIPS, "EOPNOTSUPP", 122 },
	{ ARCH_MIPS, "ENOTSUP", 122 },
	{ ARCH_X86_64, "ENOTSUP", 95 },
	{ ARCH_X86_64, "TIOCSTI", 0x5412 },
	{ ARCH_MIPS, "TIOCSTI", 0x5472 },
	/* powerpc keeps the generic number for TIOCSTI (ioctls.h), but not for
	 * the termios requests */
	{ ARCH_PPC64LE, "TIOCSTI", 0x5412 },
	{ ARCH_X86_64, "TCGETS", 0x5401 },
	{ ARCH_PPC64LE, "TCGETS", 0x402c7413 },
	{ ARCH_MIPS, "TCGETS", 0x540d },
	{ ARCH_X86_64, "FIONREAD", 0x541b },
	{ ARCH_PPC, "FIONREAD", 0x4004667f },
	{ ARCH_MIPS, "FIONREAD", 0x467f },
	{ ARCH_X86_64, "TIOCGWINSZ", 0x5413 },
	{ ARCH_PPC64, "TIOCGWINSZ", 0x40087468 },
	{ ARCH_X86_64, "SIGUSR1", 10 },
	{ ARCH_MIPS, "SIGUSR1", 16 },
	{ ARCH_X86_64, "SIGCHLD", 17 },
	{ ARCH_MIPS, "SIGCHLD", 18 },
	{ ARCH_X86_64, "SIGSYS", 31 },
	{ ARCH_MIPS, "SIGSYS", 12 },
	{ ARCH_X86_64, "CLONE_NEWUSER", 0x10000000 },
	{ ARCH_S390, "CLONE_NEWUSER", 0x10000000 },
	{ ARCH_X86_64, "CLONE_IO", 0x80000000 },
	{ ARCH_X86_64, "MAP_ANONYMOUS", 0x20 },
	{ ARCH_MIPS, "MAP_ANONYMOUS", 0x800 },
	{ ARCH_PPC64LE, "MAP_ANONYMOUS", 0x20 },
	{ ARCH_X86_64, "MAP_32BIT", 0x40 },
	{ ARCH_X86_64, "PROT_EXEC", 4 },
	{ ARCH_X86_64, "SOL_SOCKET", 1 },
	{ ARCH_MIPS, "SOL_SOCKET", 0xffff },
	{ ARCH_X86_64, "AF_INET6", 10 },
	{ ARCH_X86_64, "AF_NETLINK", 16 },
	{ ARCH_X86_64, "IPPROTO_TCP", 6 },
	{ ARCH_X86_64, "IPPROTO_UDP", 17 },
	{ ARCH_X86_64, "PR_SET_NO_NEW_PRIVS", 38 },
	{ ARCH_X86_64, "MS_RDONLY", 1 },
	{ ARCH_X86_64, "MS_BIND", 4096 },
	{ ARCH_X86_64, "PER_LINUX", 0 },
	{ ARCH_X86_64, "PER_LINUX32", 8 },
	{ ARCH_X86_64, "F_SETFD", 2 },
	{ ARCH_X86_64, "FD_CLOEXEC", 1 },
	{ ARCH_X86_64, "SECCOMP_SET_MODE_FILTER", 1 },
	{ ARCH_X86_64, "SECCOMP_RET_KILL_PROCESS", 0x80000000 },
	{ ARCH_X86_64, "MADV_DONTNEED", 4 },
	{ ARCH_X86_64, "S_IFREG", 0100000 },
	{ ARCH_X86_64, "NETLINK_ROUTE", 0 },
	{ ARCH_X86_64, "EFD_CLOEXEC", 02000000 },
	{ ARCH_MIPS, "EFD_NONBLOCK", 0200 },
	{ ARCH_X86_64, "MFD_CLOEXEC", 1 },
	{ ARCH_X86_64, "GRND_NONBLOCK", 1 },
	{ ARCH_X86_64, "RENAME_NOREPLACE", 1 },
	{ ARCH_X86_64, "RLIM_INFINITY", UINT64_C(0xffffffffffffffff) },
	{ ARCH_X86, "RLIM_INFINITY", 0xffffffff },
	{ ARCH_MIPS, "RLIM_INFINITY", 0x7fffffff },
	{ ARCH_S390X, "POSIX_FADV_DONTNEED", 6 },
	{ ARCH_S390, "POSIX_FADV_DONTNEED", 4 },
};

/* Names a 64-bit ABI does not have (only the 32-bit struct flock64 calls). */
static const struct {
	enum arch_id id;
	const char *name;
} absent[] = {
	{ ARCH_X86_64, "F_GETLK64" },
	{ ARCH_AARCH64, "MAP_32BIT" },
	{ ARCH_X86_64, "PROT_BTI" },
	{ ARCH_X86_64, "EINIT" },
};

static void test_facts(void)
{
	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		const struct arch *a = abi(facts[i].id);
		int64_t v = 0;
		int r = consts_lookup(a, facts[i].name, &v);

		tap_ok(r == 0 && (uint64_t)v == facts[i].value,
		       "%s on %s = 0x%" PRIx64 " (got r=%d 0x%" PRIx64 ")", facts[i].name, a->name,
		       facts[i].value, r, (uint64_t)v);
	}
	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++) {
		const struct arch *a = abi(absent[i].id);
		int64_t v = 0;

		tap_is(consts_lookup(a, absent[i].name, &v), -ENOENT, "%s does not exist on %s",
		       absent[i].name, a->name);
	}
	tap_is(consts_lookup(abi(ARCH_X86), "F_GETLK64", NULL), 0, "F_GETLK64 exists on x86");
	tap_is(consts_lookup(abi(ARCH_X86_64), "NO_SUCH_CONSTANT", NULL), -ENOENT,
	       "unknown name is -ENOENT");
	tap_is(consts_lookup(abi(ARCH_X86_64), "o_rdonly", NULL), -ENOENT,
	       "names are case-sensitive");
	tap_is(consts_lookup(abi(ARCH_X86_64), "", NULL), -ENOENT, "empty name is -ENOENT");
}

/* Every name must resolve or be absent the same way on ABIs whose headers
 * are the same: mips/mipsel and the two ppc64 byte orders differ only in
 * byte order, never in constants. */
static void test_byte_order_twins(void)
{
	static const enum arch_id twins[][2] = {
		{ ARCH_MIPS, ARCH_MIPSEL },
		{ ARCH_MIPS64, ARCH_MIPSEL64 },
		{ ARCH_MIPS64N32, ARCH_MIPSEL64N32 },
		{ ARCH_PPC64, ARCH_PPC64LE },
	};
	size_t n;
	const char *const *names = all_names(&n);

	for (size_t t = 0; t < sizeof(twins) / sizeof(twins[0]); t++) {
		const struct arch *a = abi(twins[t][0]), *b = abi(twins[t][1]);
		size_t bad = 0;

		for (size_t i = 0; i < n; i++) {
			int64_t va = 0, vb = 0;
			int ra = consts_lookup(a, names[i], &va);
			int rb = consts_lookup(b, names[i], &vb);

			if (ra != rb || va != vb) {
				if (bad++ < 5)
					tap_diag("%s: %s %d/0x%" PRIx64 " vs %s %d/0x%" PRIx64,
						 names[i], a->name, ra, (uint64_t)va, b->name, rb,
						 (uint64_t)vb);
			}
		}
		tap_is(bad, (size_t)0, "%s and %s agree on every constant", a->name, b->name);
	}
}

static void test_errno(void)
{
	int e = 0;

	tap_ok(consts_errno(abi(ARCH_X86_64), "EPERM", &e) == 0 && e == 1, "EPERM is 1");
	tap_ok(consts_errno(abi(ARCH_MIPS), "ENOSYS", &e) == 0 && e == 89, "ENOSYS is 89 on mips");
	tap_ok(consts_errno(abi(ARCH_X86_64), "EWOULDBLOCK", &e) == 0 && e == 11,
	       "EWOULDBLOCK is an errno name");
	tap_is(consts_errno(abi(ARCH_X86_64), "O_RDONLY", &e), -ENOENT,
	       "O_RDONLY is not an errno name");
	tap_is(consts_errno(abi(ARCH_X86_64), "EPOLLIN", &e), -ENOENT,
	       "EPOLLIN is not an errno name");
	tap_is(consts_errno(abi(ARCH_X86_64), "EINIT", &e), -ENOENT, "EINIT exists only on mips");
	tap_ok(consts_errno(abi(ARCH_MIPS), "EINIT", &e) == 0 && e == 141, "EINIT is 141 on mips");

	tap_ok(consts_errno_name(abi(ARCH_X86_64), 11) &&
		       strcmp(consts_errno_name(abi(ARCH_X86_64), 11), "EAGAIN") == 0,
	       "11 is named EAGAIN, not EWOULDBLOCK");
	tap_ok(consts_errno_name(abi(ARCH_X86_64), 35) &&
		       strcmp(consts_errno_name(abi(ARCH_X86_64), 35), "EDEADLK") == 0,
	       "35 is named EDEADLK on x86_64");
	tap_ok(consts_errno_name(abi(ARCH_MIPS), 56) &&
		       strcmp(consts_errno_name(abi(ARCH_MIPS), 56), "EDEADLOCK") == 0,
	       "56 is EDEADLOCK on mips (its own number there)");
	tap_ok(consts_errno_name(abi(ARCH_MIPS), 89) &&
		       strcmp(consts_errno_name(abi(ARCH_MIPS), 89), "ENOSYS") == 0,
	       "89 is ENOSYS on mips");
	tap_ok(consts_errno_name(abi(ARCH_X86_64), 95) &&
		       strcmp(consts_errno_name(abi(ARCH_X86_64), 95), "EOPNOTSUPP") == 0,
	       "95 is EOPNOTSUPP, not ENOTSUP");
	tap_ok(consts_errno_name(abi(ARCH_X86_64), 0) == NULL, "0 has no errno name");
	tap_ok(consts_errno_name(abi(ARCH_X86_64), 4095) == NULL, "4095 has no errno name");

	/* Round trips on every ABI: every errno number 1..200 that has a name maps
	 * back to itself, and every errno name maps to a number whose name has
	 * the same number. */
	for (size_t i = 0; i < N_ABIS; i++) {
		const struct arch *a = &abis[i];
		size_t n, bad = 0, named = 0;
		const char *const *names = all_names(&n);

		for (int v = 1; v < 200; v++) {
			const char *name = consts_errno_name(a, v);

			if (!name)
				continue;
			named++;
			if (consts_errno(a, name, &e) != 0 || e != v)
				bad++;
		}
		for (size_t k = 0; k < n; k++) {
			const char *back;
			int e2 = -1;

			if (consts_errno(a, names[k], &e) != 0)
				continue;
			back = consts_errno_name(a, e);
			if (!back || consts_errno(a, back, &e2) != 0 || e2 != e)
				bad++;
		}
		tap_ok(bad == 0 && named >= 130, "errno round trips on %s (%zu numbers named)",
		       a->name, named);
	}
}

static void test_names(void)
{
	size_t n = 0;
	const char *const *names = all_names(&n);
	size_t unsorted = 0;

	tap_ok(names && n > 1000, "consts_count: %zu names", n);
	for (size_t i = 1; i < n; i++)
		if (strcmp(names[i - 1], names[i]) >= 0)
			unsorted++;
	tap_is(unsorted, (size_t)0, "names are sorted and unique");
	tap_ok(names[n] == NULL, "the list is NULL-terminated");
	tap_is(consts_table_len, n, "the table has one entry per name");

	/* every name resolves on at least one ABI */
	size_t orphans = 0;
	for (size_t i = 0; i < n; i++) {
		bool any = false;

		for (size_t k = 0; k < N_ABIS && !any; k++)
			any = consts_lookup(&abis[k], names[i], NULL) == 0;
		if (!any)
			orphans++;
	}
	tap_is(orphans, (size_t)0, "every name exists on some ABI");

	static const char *const families[] = {
		"AF_",	"SOCK_", "IPPROTO_", "O_",   "AT_",  "PROT_", "MAP_",	"CLONE_",   "PR_",
		"F_",	"FD_",	 "SIG",	     "TIOC", "FIO",  "MS_",   "PER_",	"SECCOMP_", "MADV_",
		"S_IF", "SO_",	 "NETLINK_", "EFD_", "MFD_", "GRND_", "RENAME_"
	};
	for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++) {
		size_t count = 0;

		for (size_t i = 0; i < n; i++)
			count += strncmp(names[i], families[f], strlen(families[f])) == 0;
		tap_ok(count > 0, "family %s* present (%zu names)", families[f], count);
	}
}

int main(void)
{
	test_facts();
	test_byte_order_twins();
	test_errno();
	test_names();
	return tap_done();
}
