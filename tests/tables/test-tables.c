/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Invariants of the ABI descriptors and the generated syscall tables, and spot
 * checks of argument slots against the kernel prototypes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "syscalls-table.h"
#include "syscalls.h"
#include "tap.h"

static void test_arches(void)
{
	static const struct {
		const char *token;
		uint32_t audit;
		unsigned bits;
		bool be;
		const char *table;
		uint32_t base;
		bool pair;
	} want[] = {
		{ "x86_64", 0xC000003E, 64, false, "x86_64", 0, false },
		{ "x86", 0x40000003, 32, false, "i386", 0, false },
		{ "x32", 0xC000003E, 64, false, "x32", 0x40000000, false },
		{ "aarch64", 0xC00000B7, 64, false, "arm64", 0, false },
		{ "arm", 0x40000028, 32, false, "arm", 0, true },
		{ "riscv64", 0xC00000F3, 64, false, "riscv64", 0, false },
		{ "ppc64le", 0xC0000015, 64, false, "ppc64", 0, false },
		{ "ppc64", 0x80000015, 64, true, "ppc64", 0, false },
		{ "ppc", 0x14, 32, true, "ppc32", 0, true },
		{ "s390x", 0x80000016, 64, true, "s390x", 0, false },
		{ "s390", 0x16, 32, true, "s390", 0, false },
		{ "mips", 0x8, 32, true, "mips-o32", 4000, true },
		{ "mipsel", 0x40000008, 32, false, "mips-o32", 4000, true },
		{ "mips64", 0x80000008, 64, true, "mips-n64", 5000, false },
		{ "mipsel64", 0xC0000008, 64, false, "mips-n64", 5000, false },
		{ "mips64n32", 0xA0000008, 64, true, "mips-n32", 6000, false },
		{ "mipsel64n32", 0xE0000008, 64, false, "mips-n32", 6000, false },
		{ "loongarch64", 0xC0000102, 64, false, "loongarch64", 0, false },
	};
	size_t n = sizeof(want) / sizeof(want[0]);

	tap_is(n, (size_t)ARCH_COUNT, "every arch_id has an expected descriptor");
	for (size_t i = 0; i < n; i++) {
		const struct arch *a = arch_lookup(want[i].token);

		if (!tap_ok(a != NULL, "arch_lookup(%s)", want[i].token))
			continue;
		tap_ok(a == arch_get(a->id) && strcmp(a->name, want[i].token) == 0 &&
			       a->audit_arch == want[i].audit && a->bits == want[i].bits &&
			       a->big_endian == want[i].be &&
			       strcmp(a->table, want[i].table) == 0 && a->nr_base == want[i].base &&
			       a->pair_aligned == want[i].pair,
		       "%s: audit 0x%08x bits %u %s-endian table %s base %u%s", want[i].token,
		       a->audit_arch, a->bits, a->big_endian ? "big" : "little", a->table,
		       a->nr_base, a->pair_aligned ? " pair-aligned" : "");
	}
	tap_ok(arch_lookup("i386") == arch_get(ARCH_X86) &&
		       arch_lookup("i686") == arch_get(ARCH_X86),
	       "i386 and i686 are aliases of x86");
	tap_ok(arch_lookup("arm64") == arch_get(ARCH_AARCH64), "arm64 is an alias of aarch64");
	tap_ok(!arch_lookup("native") && !arch_lookup("X86_64") && !arch_lookup("") &&
		       !arch_lookup(NULL) && !arch_lookup("sparc"),
	       "unknown tokens (and native) are rejected");
	tap_ok(arch_get(ARCH_COUNT) == NULL, "arch_get(ARCH_COUNT) is NULL");
#if defined(__x86_64__) && !defined(__ILP32__)
	tap_ok(arch_native() == arch_get(ARCH_X86_64), "arch_native() is x86_64");
#else
	tap_ok(arch_native() != NULL, "arch_native() is %s", arch_native()->name);
#endif

	tap_ok(arch_compatible(arch_get(ARCH_X86_64), arch_get(ARCH_X32)) &&
		       arch_compatible(arch_get(ARCH_X86_64), arch_get(ARCH_X86)) &&
		       arch_compatible(arch_get(ARCH_AARCH64), arch_get(ARCH_ARM)) &&
		       arch_compatible(arch_get(ARCH_S390X), arch_get(ARCH_S390)) &&
		       arch_compatible(arch_get(ARCH_PPC64), arch_get(ARCH_PPC)) &&
		       arch_compatible(arch_get(ARCH_MIPS64), arch_get(ARCH_MIPS64N32)),
	       "ABIs of one kernel are compatible");
	tap_ok(!arch_compatible(arch_get(ARCH_X86_64), arch_get(ARCH_AARCH64)) &&
		       !arch_compatible(arch_get(ARCH_PPC64LE), arch_get(ARCH_PPC64)) &&
		       !arch_compatible(arch_get(ARCH_PPC64LE), arch_get(ARCH_PPC)) &&
		       !arch_compatible(arch_get(ARCH_MIPS), arch_get(ARCH_MIPSEL)) &&
		       !arch_compatible(arch_get(ARCH_RISCV64), arch_get(ARCH_LOONGARCH64)) &&
		       !arch_compatible(arch_get(ARCH_X86), NULL),
	       "ABIs of different kernels or byte orders are not");
	for (size_t i = 0; i < ARCH_COUNT; i++) {
		const struct arch *a = arch_get(i);

		if (!arch_compatible(a, a) ||
		    (a->audit_arch & 0x40000000u ? a->big_endian : !a->big_endian) ||
		    (a->bits == 64) != !!(a->audit_arch & 0x80000000u)) {
			tap_ok(false, "%s: AUDIT_ARCH bits agree with bits/endianness", a->name);
			return;
		}
	}
	tap_ok(true, "AUDIT_ARCH 64BIT/LE bits agree with bits/endianness on every ABI");

	/* a call as seccomp sees it: x86_64 and x32 share their audit_arch */
	tap_ok(arch_of_call(0xC000003E, 39) == arch_get(ARCH_X86_64) &&
		       arch_of_call(0xC000003E, 0x40000000u | 39) == arch_get(ARCH_X32) &&
		       arch_of_call(0xC000003E, UINT32_MAX) == arch_get(ARCH_X86_64) &&
		       arch_of_call(0x40000003, 0x40000000u | 39) == arch_get(ARCH_X86) &&
		       arch_of_call(0xC00000B7, 0) == arch_get(ARCH_AARCH64) &&
		       arch_of_call(0x12345678, 0) == NULL,
	       "arch_of_call(): x32 by its bit, -1 and other ABIs by audit_arch alone");
	for (size_t i = 0; i < ARCH_COUNT; i++) {
		const struct arch *a = arch_get(i);

		if (arch_of_call(a->audit_arch, a->nr_base) != a) {
			tap_ok(false, "arch_of_call() of %s's first number is %s", a->name,
			       arch_of_call(a->audit_arch, a->nr_base)->name);
			return;
		}
	}
	tap_ok(true, "arch_of_call() of every ABI's first number is that ABI");
}

static void test_mux(void)
{
	static const char *const with[] = { "x86",  "ppc",   "ppc64", "ppc64le",
					    "s390", "s390x", "mips",  "mipsel" };
	static const char *const without[] = { "x86_64",  "x32",    "arm",	 "aarch64",
					       "riscv64", "mips64", "mips64n32", "loongarch64" };
	const struct mux_subcall *sc;
	size_t n;
	uint32_t nr;

	for (size_t i = 0; i < sizeof(with) / sizeof(with[0]); i++) {
		const struct arch *a = arch_lookup(with[i]);

		tap_ok(arch_mux_name(a, MUX_SOCKETCALL) && arch_mux_name(a, MUX_IPC) &&
			       syscalls_lookup_name(a, arch_mux_name(a, MUX_SOCKETCALL), &nr) ==
				       0 &&
			       syscalls_lookup_name(a, arch_mux_name(a, MUX_IPC), &nr) == 0,
		       "%s has socketcall and ipc, both in its table", with[i]);
	}
	for (size_t i = 0; i < sizeof(without) / sizeof(without[0]); i++) {
		const struct arch *a = arch_lookup(without[i]);

		tap_ok(!arch_mux_name(a, MUX_SOCKETCALL) && !arch_mux_name(a, MUX_IPC) &&
			       syscalls_lookup_name(a, "socketcall", &nr) == -ENOENT,
		       "%s has no multiplexer", without[i]);
	}

	sc = arch_mux_subcalls(MUX_SOCKETCALL, &n);
	tap_ok(n == 20 && sc[0].call == 1 && strcmp(sc[0].name, "socket") == 0 &&
		       sc[9].call == 10 && strcmp(sc[9].name, "recv") == 0 && sc[10].call == 11 &&
		       strcmp(sc[10].name, "sendto") == 0 && sc[19].call == 20 &&
		       strcmp(sc[19].name, "sendmmsg") == 0,
	       "socketcall: SYS_SOCKET=1 .. SYS_RECV=10, SYS_SENDTO=11 .. SYS_SENDMMSG=20");
	for (size_t i = 0; i < n; i++)
		if (sc[i].call != i + 1 || !syscalls_known(sc[i].name))
			tap_ok(false, "socketcall sub-call %zu (%s)", i, sc[i].name);
	tap_ok(arch_mux_call_mask(MUX_SOCKETCALL) == 0xffffffffu, "socketcall mask");

	sc = arch_mux_subcalls(MUX_IPC, &n);
	tap_ok(n == 12 && sc[0].call == 1 && strcmp(sc[0].name, "semop") == 0 && sc[4].call == 11 &&
		       strcmp(sc[4].name, "msgsnd") == 0 && sc[11].call == 24 &&
		       strcmp(sc[11].name, "shmctl") == 0,
	       "ipc: SEMOP=1 .. MSGSND=11 .. SHMCTL=24");
	tap_ok(arch_mux_call_mask(MUX_IPC) == 0xffffu, "ipc mask keeps the version out");
}

static void test_table_invariants(void)
{
	for (size_t i = 0; i < ARCH_COUNT; i++) {
		const struct arch *a = arch_get(i);
		const struct syscall *s;
		size_t n;
		bool sorted = true, names = true, base = true, lookup = true;

		s = syscalls_list(a, &n);
		if (!tap_ok(s && n > 300, "%s: table %s has %zu syscalls", a->name, a->table, n))
			continue;
		for (size_t k = 0; k < n; k++) {
			uint32_t nr;

			if (k && s[k - 1].nr >= s[k].nr)
				sorted = false;
			if (s[k].nr < a->nr_base)
				base = false;
			if (syscalls_lookup_name(a, syscall_name(&s[k]), &nr) < 0 || nr != s[k].nr)
				names = false;
			if (syscalls_lookup_nr(a, s[k].nr) != syscall_name(&s[k]) ||
			    !syscalls_known(syscall_name(&s[k])))
				lookup = false;
		}
		tap_ok(sorted, "%s: numbers sorted and unique", a->name);
		tap_ok(names, "%s: every name resolves to its own number (names unique)", a->name);
		tap_ok(lookup, "%s: every number resolves to its own name", a->name);
		tap_ok(base, "%s: every number carries nr_base %u", a->name, a->nr_base);
	}
	/* the generated tables were built with the same bases arch.c declares */
	for (size_t i = 0; i < ARCH_COUNT; i++) {
		const struct arch *a = arch_get(i);
		bool found = false;

		for (size_t k = 0; k < sct_tables_n; k++)
			if (strcmp(sct_strings + sct_tables[k].name, a->table) == 0)
				found = sct_tables[k].base == a->nr_base;
		if (!found)
			tap_ok(false, "%s: table base matches nr_base", a->name);
	}
	tap_ok(strncmp(syscalls_kernel_version(), "6.12.", 5) == 0, "kernel version %s",
	       syscalls_kernel_version());
}

/* syscalls_names(): every table name once, in the order of the first ABI
 * (enum arch_id order) that has it, then that ABI's number order. */
static void test_all_names(void)
{
	const char **names = NULL;
	size_t n = 0, want = 0, pos = 0;
	bool order = true, unique = true;

	tap_ok(syscalls_names(&names, &n) == 0 && names, "syscalls_names: %zu names", n);
	tap_is(n, sct_names_n, "syscalls_names: as many as the sorted name list");
	for (int id = 0; id < ARCH_COUNT; id++) {
		size_t m;
		const struct syscall *s = syscalls_list(arch_get((enum arch_id)id), &m);

		for (size_t k = 0; k < m; k++) {
			uint32_t nr;
			int first = id;

			for (int e = 0; e < id && first == id; e++)
				if (syscalls_lookup_name(arch_get((enum arch_id)e),
							 syscall_name(&s[k]), &nr) == 0)
					first = e;
			if (first != id)
				continue;
			want++;
			if (pos >= n || strcmp(names[pos++], syscall_name(&s[k])))
				order = false;
		}
	}
	for (size_t i = 1; i < n; i++)
		if (!strcmp(names[i - 1], names[i]))
			unique = false;
	tap_ok(order && want == n, "syscalls_names: first ABI first, then number order");
	tap_ok(unique, "syscalls_names: no name twice in a row");
	free(names);
}

static void test_find_nr(void)
{
	const struct arch *a = arch_get(ARCH_X32);
	size_t n;
	const struct syscall *s = syscalls_list(a, &n), *f;

	f = syscalls_find_nr(s, n, ARCH_X32_SYSCALL_BIT);
	tap_ok(f && !strcmp(syscall_name(f), "read"), "syscalls_find_nr: x32 read at the x32 bit");
	f = syscalls_find_nr(s, n, s[n - 1].nr);
	tap_ok(f == &s[n - 1], "syscalls_find_nr: the last entry");
	tap_ok(!syscalls_find_nr(s, n, 0) && !syscalls_find_nr(s, n, UINT32_MAX),
	       "syscalls_find_nr: numbers outside the list");
	tap_ok(!syscalls_find_nr(NULL, 0, 0) && !syscalls_find_nr(s, 0, s[0].nr),
	       "syscalls_find_nr: an empty list");
}

/* Numbers from the 6.12 .tbl files (and the reviewed newer ones) */
static void test_numbers(void)
{
	static const struct {
		const char *arch, *name;
		uint32_t nr;
	} want[] = {
		{ "x86_64", "read", 0 },
		{ "x86_64", "mseal", 462 },
		{ "x86_64", "uretprobe", 335 },
		{ "x86_64", "uprobe", 336 },
		{ "x86_64", "listns", 470 },
		{ "x86_64", "newfstatat", 262 },
		{ "x32", "read", 0x40000000 },
		{ "x32", "rt_sigaction", 0x40000000 + 512 },
		{ "x32", "pwritev2", 0x40000000 + 547 },
		{ "x32", "mseal", 0x40000000 + 462 },
		{ "x86", "socketcall", 102 },
		{ "x86", "ipc", 117 },
		{ "x86", "mmap2", 192 },
		{ "x86", "mseal", 462 },
		{ "x86", "setxattrat", 463 },
		{ "x86", "break", 17 },
		{ "aarch64", "openat", 56 },
		{ "aarch64", "renameat", 38 },
		{ "aarch64", "getrlimit", 163 },
		{ "aarch64", "memfd_secret", 447 },
		{ "riscv64", "riscv_hwprobe", 258 },
		{ "riscv64", "memfd_secret", 447 },
		{ "loongarch64", "newfstatat", 79 },
		{ "loongarch64", "fstat", 80 },
		{ "arm", "breakpoint", 0x0f0001 },
		{ "arm", "cacheflush", 0x0f0002 },
		{ "arm", "usr26", 0x0f0003 },
		{ "arm", "usr32", 0x0f0004 },
		{ "arm", "set_tls", 0x0f0005 },
		{ "arm", "get_tls", 0x0f0006 },
		{ "arm", "arm_fadvise64_64", 270 },
		{ "ppc64le", "socketcall", 102 },
		{ "ppc", "mseal", 462 },
		{ "s390x", "socketcall", 102 },
		{ "s390", "mmap2", 192 },
		{ "mips", "read", 4003 },
		{ "mipsel", "socketcall", 4102 },
		{ "mips64", "read", 5000 },
		{ "mipsel64", "mseal", 5462 },
		{ "mips64n32", "read", 6000 },
		{ "mipsel64n32", "mseal", 6462 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct arch *a = arch_lookup(want[i].arch);
		uint32_t nr = 0;
		int r = syscalls_lookup_name(a, want[i].name, &nr);

		tap_ok(r == 0 && nr == want[i].nr, "%s %s = %u (got %d, %u)", want[i].arch,
		       want[i].name, want[i].nr, r, nr);
	}
}

/* The highest number of each table: the kernel's last entry (or the newest
 * reviewed addition), so a truncated or mis-filtered table is noticed. */
static void test_maximum(void)
{
	static const struct {
		const char *arch, *last;
		uint32_t nr;
	} want[] = {
		{ "x86_64", "listns", 470 },	 { "x32", "pwritev2", 0x40000000 + 547 },
		{ "x86", "listns", 470 },	 { "aarch64", "listns", 470 },
		{ "arm", "get_tls", 0x0f0006 },	 { "riscv64", "listns", 470 },
		{ "ppc64", "listns", 470 },	 { "ppc", "listns", 470 },
		{ "s390x", "listns", 470 },	 { "s390", "listns", 470 },
		{ "mips", "listns", 4470 },	 { "mips64", "listns", 5470 },
		{ "mips64n32", "listns", 6470 }, { "loongarch64", "listns", 470 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct arch *a = arch_lookup(want[i].arch);
		size_t n;
		const struct syscall *s = syscalls_list(a, &n);

		tap_ok(n && s[n - 1].nr == want[i].nr &&
			       strcmp(syscall_name(&s[n - 1]), want[i].last) == 0,
		       "%s: highest number %u is %s", want[i].arch, want[i].nr, want[i].last);
	}
	/* the x86_64 table of 6.12 itself ends at mseal = 462 below the overlay */
	tap_ok(syscalls_lookup_nr(arch_get(ARCH_X86_64), 463) &&
		       !syscalls_lookup_nr(arch_get(ARCH_X86_64), 471) &&
		       !syscalls_lookup_nr(arch_get(ARCH_X86_64), 512),
	       "x86_64: 463.. are the overlay's, nothing above 470, x32 numbers not native");
}

static void test_names(void)
{
	uint32_t nr;

	tap_ok(syscalls_known("openat") && syscalls_known("_llseek") && syscalls_known("mmap2") &&
		       syscalls_known("newfstatat") && syscalls_known("breakpoint") &&
		       syscalls_known("lookup_dcookie"),
	       "syscalls_known: names of some table");
	tap_ok(!syscalls_known("opn") && !syscalls_known("") && !syscalls_known(NULL) &&
		       !syscalls_known("reserved177") && !syscalls_known("unused18"),
	       "syscalls_known: unknown names and placeholders");
	tap_ok(syscalls_lookup_name(arch_get(ARCH_X86_64), "mmap2", &nr) == -ENOENT &&
		       syscalls_lookup_name(arch_get(ARCH_AARCH64), "open", &nr) == -ENOENT &&
		       syscalls_lookup_name(arch_get(ARCH_ARM), "socketcall", &nr) == -ENOENT,
	       "names a table lacks are -ENOENT");
	tap_ok(syscalls_lookup_nr(arch_get(ARCH_X86_64), 0x40000000) == NULL &&
		       syscalls_lookup_nr(arch_get(ARCH_X32), 0) == NULL &&
		       syscalls_lookup_nr(arch_get(ARCH_MIPS), 3) == NULL &&
		       syscalls_lookup_nr(arch_get(ARCH_X86_64), 0xffffffffu) == NULL,
	       "numbers without the ABI's base are unknown");
}

static const char *cls_name(enum arg_class c)
{
	static const char *const n[] = {
		[ARG_UNKNOWN] = "UNKNOWN", [ARG_U16] = "U16",	[ARG_S32] = "S32",
		[ARG_U32] = "U32",	   [ARG_S64] = "S64",	[ARG_U64] = "U64",
		[ARG_PTR] = "PTR",	   [ARG_PAIR] = "PAIR", [ARG_PAD] = "PAD",
		[ARG_NONE] = "NONE",
	};

	return (unsigned)c < sizeof(n) / sizeof(n[0]) ? n[c] : "?";
}

/* want: classes of the six slots, "NAME:CLS" or "CLS" (then the name is not
 * checked), separated by spaces. */
static void check_args(const char *arch, const char *name, const char *want)
{
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	char got[256] = "";
	bool known = false;
	int r = syscalls_args(arch_lookup(arch), name, args, &known);

	for (size_t i = 0; r == 0 && i < SYSCALL_ARGS_MAX; i++) {
		size_t len = strlen(got);

		snprintf(got + len, sizeof(got) - len, "%s%s%s%s", i ? " " : "",
			 args[i].name ? args[i].name : "", args[i].name ? ":" : "",
			 cls_name(args[i].cls));
	}
	tap_ok(r == 0 && known && strcmp(got, want) == 0, "%s %s: %s", arch, name, got);
	if (strcmp(got, want) != 0)
		tap_diag("want %s", want);
}

static void test_args(void)
{
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	bool known = true;

	check_args("x86_64", "openat", "dfd:S32 filename:PTR flags:S32 mode:U16 NONE NONE");
	check_args("x86", "openat", "dfd:S32 filename:PTR flags:S32 mode:U16 NONE NONE");
	check_args("x86_64", "ioctl", "fd:U32 cmd:U32 arg:U64 NONE NONE NONE");
	check_args("x86", "ioctl", "fd:U32 cmd:U32 arg:U32 NONE NONE NONE");
	/* x32's ioctl entry is compat_sys_ioctl: arg is a compat_ulong_t */
	check_args("x32", "ioctl", "fd:U32 cmd:U32 arg:U32 NONE NONE NONE");
	/* clone's flags: 32 bits on every ABI (data/kernel-widths.txt) */
	check_args("x86_64", "clone",
		   "flags:U32 newsp:U64 parent_tid:PTR child_tid:PTR tls:U64 NONE");
	check_args("x86", "clone", "flags:U32 newsp:U32 parent_tid:PTR tls:U32 child_tid:PTR NONE");
	check_args("aarch64", "clone",
		   "flags:U32 newsp:U64 parent_tid:PTR tls:U64 child_tid:PTR NONE");
	check_args("s390x", "clone",
		   "newsp:U64 flags:U32 parent_tid:PTR child_tid:PTR tls:U64 NONE");
	check_args("loongarch64", "clone",
		   "flags:U32 newsp:U64 parent_tid:PTR child_tid:PTR tls:U64 NONE");
	check_args("x86_64", "mmap", "addr:U64 len:U64 prot:U64 flags:U64 fd:U32 off:U64");
	check_args("aarch64", "mmap", "addr:U64 len:U64 prot:U64 flags:U64 fd:U32 off:U64");
	check_args("x86_64", "readv", "fd:U32 vec:PTR vlen:U32 NONE NONE NONE");
	check_args("x86_64", "ptrace", "request:S64 pid:S32 addr:U64 data:U64 NONE NONE");
	check_args("ppc64", "personality", "personality:U32 NONE NONE NONE NONE NONE");
	/* the u64 mask is one register on 64-bit ABIs, two on 32-bit ones */
	check_args("x86_64", "fanotify_mark",
		   "fanotify_fd:S32 flags:U32 mask:U64 fd:S32 pathname:PTR NONE");
	check_args("x86", "fanotify_mark",
		   "fanotify_fd:S32 flags:U32 mask:PAIR mask:PAIR fd:S32 pathname:PTR");
	check_args("x86", "mmap", "arg:PTR NONE NONE NONE NONE NONE");
	check_args("x86", "mmap2", "addr:U32 len:U32 prot:U32 flags:U32 fd:U32 pgoff:U32");
	check_args("x86_64", "pread64", "fd:U32 buf:PTR count:U64 pos:S64 NONE NONE");
	check_args("x86", "pread64", "fd:U32 buf:PTR count:U32 pos:PAIR pos:PAIR NONE");
	check_args("arm", "pread64", "fd:U32 buf:PTR count:U32 PAD pos:PAIR pos:PAIR");
	check_args("ppc", "pread64", "fd:U32 buf:PTR count:U32 PAD pos:PAIR pos:PAIR");
	check_args("mips", "pread64", "fd:U32 buf:PTR count:U32 PAD pos:PAIR pos:PAIR");
	check_args("s390", "pread64", "fd:U32 buf:PTR count:U32 pos:PAIR pos:PAIR NONE");
	check_args("arm", "arm_fadvise64_64",
		   "fd:S32 advice:S32 offset:PAIR offset:PAIR len:PAIR len:PAIR");
	check_args("ppc", "fadvise64_64",
		   "fd:S32 advice:S32 offset:PAIR offset:PAIR len:PAIR len:PAIR");
	check_args("x86", "fadvise64_64",
		   "fd:S32 offset:PAIR offset:PAIR len:PAIR len:PAIR advice:S32");
	/* ARM EABI pads before a pair at an odd slot; a pair past slot 5 is cut */
	check_args("arm", "readahead", "fd:S32 PAD offset:PAIR offset:PAIR count:U32 NONE");
	check_args("x86_64", "lseek", "fd:U32 offset:S64 whence:U32 NONE NONE NONE");
	check_args("x86", "lseek", "fd:U32 offset:S32 whence:U32 NONE NONE NONE");
	check_args("x86_64", "getpid", "NONE NONE NONE NONE NONE NONE");
	check_args("x86", "socketcall", "call:S32 args:PTR NONE NONE NONE NONE");
	check_args("x86_64", "socket", "family:S32 type:S32 protocol:S32 NONE NONE NONE");
	check_args("x86_64", "setxattrat",
		   "dfd:S32 path:PTR at_flags:U32 name:PTR args:PTR size:U64");
	check_args("x86_64", "capget", "header:PTR dataptr:PTR NONE NONE NONE NONE");

	/* both spellings (scmp-run.ini(5) CONDITIONS) */
	tap_ok(syscalls_args(arch_get(ARCH_X86_64), "clone", args, &known) == 0 &&
		       syscalls_arg_named(&args[0], "flags") &&
		       syscalls_arg_named(&args[0], "clone_flags") &&
		       !syscalls_arg_named(&args[0], "clone") &&
		       !syscalls_arg_named(&args[0], "flag") &&
		       syscalls_arg_named(&args[2], "parent_tidptr"),
	       "clone: flags is also clone_flags (kernel/fork.c), parent_tid parent_tidptr");
	tap_ok(syscalls_args(arch_get(ARCH_X32), "recvfrom", args, &known) == 0 &&
		       syscalls_arg_named(&args[2], "len") &&
		       syscalls_arg_named(&args[2], "size") && args[2].cls == ARG_U32,
	       "x32 recvfrom: len (compat) and size (syscalls.h), 32 bits");
	tap_ok(syscalls_args(arch_get(ARCH_X86_64), "recvfrom", args, &known) == 0 &&
		       syscalls_arg_named(&args[2], "len") &&
		       syscalls_arg_named(&args[2], "size") &&
		       syscalls_arg_named(&args[5], "addr_len") &&
		       syscalls_arg_named(&args[5], "addrlen") && args[2].cls == ARG_U64,
	       "x86_64 recvfrom: the x32 names resolve too");
	tap_ok(syscalls_args(arch_get(ARCH_X86_64), "fanotify_mark", args, &known) == 0 &&
		       syscalls_arg_named(&args[3], "dfd") && syscalls_arg_named(&args[3], "fd"),
	       "fanotify_mark: fd (syscalls.h) and dfd (SYSCALL_DEFINE)");
	tap_ok(syscalls_args(arch_get(ARCH_X86_64), "afs_syscall", args, &known) == 0 && !known &&
		       args[0].cls == ARG_UNKNOWN && args[5].cls == ARG_UNKNOWN && !args[0].name,
	       "a syscall without prototype: ARG_UNKNOWN in every slot, not known");
	tap_ok(syscalls_args(arch_get(ARCH_X86_64), "mmap2", args, &known) == -ENOENT,
	       "syscalls_args on a name the ABI lacks: -ENOENT");
}

/* Every name of every table: the argument metadata resolves without error
 * and the slots are consistent. */
static void test_args_all(void)
{
	size_t total = 0, known_n = 0, bad = 0;

	for (size_t i = 0; i < ARCH_COUNT; i++) {
		const struct arch *a = arch_get(i);
		size_t n;
		const struct syscall *s = syscalls_list(a, &n);

		for (size_t k = 0; k < n; k++) {
			struct syscall_arg args[SYSCALL_ARGS_MAX];
			bool known = false, none = false;

			total++;
			if (syscalls_args(a, syscall_name(&s[k]), args, &known) < 0) {
				bad++;
				continue;
			}
			known_n += known;
			for (size_t j = 0; j < SYSCALL_ARGS_MAX; j++) {
				enum arg_class c = args[j].cls;

				if ((none && c != ARG_NONE) || (!known && c != ARG_UNKNOWN) ||
				    (known && c == ARG_UNKNOWN) ||
				    (a->bits == 64 && (c == ARG_PAIR || c == ARG_PAD)) ||
				    (c != ARG_PAD && c != ARG_NONE && c != ARG_UNKNOWN &&
				     !args[j].name))
					bad++;
				none = c == ARG_NONE;
			}
		}
	}
	tap_ok(bad == 0, "argument slots of all %zu (ABI, syscall) pairs are consistent", total);
	tap_diag("%zu of %zu (ABI, syscall) pairs have known arguments", known_n, total);
	tap_ok(known_n * 100 / total >= 95, "at least 95%% have known arguments");
}

int main(void)
{
	test_arches();
	test_mux();
	test_table_invariants();
	test_numbers();
	test_all_names();
	test_find_nr();
	test_maximum();
	test_names();
	test_args();
	test_args_all();
	return tap_done();
}
