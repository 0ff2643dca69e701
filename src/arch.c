/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ABI descriptors: AUDIT_ARCH values (include/uapi/linux/audit.h), register
 * width, byte order, syscall-number bases and multiplexers of every ABI.
 */
#include <stddef.h>
#include <string.h>

#include "arch.h"
#include "array.h"

/* AUDIT_ARCH_* = EM_* | __AUDIT_ARCH_64BIT (0x80000000) | __AUDIT_ARCH_LE
 * (0x40000000) [| __AUDIT_ARCH_CONVENTION_MIPS64_N32 (0x20000000)]. */
/* The constants are aligned by hand. */
/* clang-format off */
#define AA_64 0x80000000u
#define AA_LE 0x40000000u
#define AA_N32 0x20000000u
#define EM_386_ 3u
#define EM_MIPS_ 8u
#define EM_PPC_ 20u
#define EM_PPC64_ 21u
#define EM_S390_ 22u
#define EM_ARM_ 40u
#define EM_X86_64_ 62u
#define EM_AARCH64_ 183u
#define EM_RISCV_ 243u
#define EM_LOONGARCH_ 258u

/* mips: __NR_O32_Linux, __NR_64_Linux, __NR_N32_Linux
 * (arch/mips/include/uapi/asm/unistd.h). */
#define MIPS_O32_BASE 4000u
#define MIPS_N64_BASE 5000u
#define MIPS_N32_BASE 6000u

/* socketcall(2)/ipc(2) exist where the ABI's table has them: i386, ppc (32
 * and 64), s390 (31 and 64), mips o32; on arm they are OABI-only. */
/* clang-format on */

/* Fields left out are 0 or false: little-endian, no nr_base, no pair
 * alignment, no multiplexers. */
static const struct arch arches[ARCH_COUNT] = {
	[ARCH_X86_64] = {
		.id = ARCH_X86_64,
		.name = "x86_64",
		.audit_arch = EM_X86_64_ | AA_64 | AA_LE,
		.bits = 64,
		.family = FAMILY_X86,
		.table = "x86_64",
	},
	[ARCH_X86] = {
		.id = ARCH_X86,
		.name = "x86",
		.audit_arch = EM_386_ | AA_LE,
		.bits = 32,
		.family = FAMILY_X86,
		.table = "i386",
		.has_mux = true,
	},
	/* x32 passes every argument in a 64-bit register */
	[ARCH_X32] = {
		.id = ARCH_X32,
		.name = "x32",
		.audit_arch = EM_X86_64_ | AA_64 | AA_LE,
		.bits = 64,
		.family = FAMILY_X86,
		.table = "x32",
		.nr_base = ARCH_X32_SYSCALL_BIT,
	},
	[ARCH_AARCH64] = {
		.id = ARCH_AARCH64,
		.name = "aarch64",
		.audit_arch = EM_AARCH64_ | AA_64 | AA_LE,
		.bits = 64,
		.family = FAMILY_ARM,
		.table = "arm64",
	},
	/* EABI: 64-bit arguments go in an even/odd register pair */
	[ARCH_ARM] = {
		.id = ARCH_ARM,
		.name = "arm",
		.audit_arch = EM_ARM_ | AA_LE,
		.bits = 32,
		.family = FAMILY_ARM,
		.table = "arm",
		.pair_aligned = true,
	},
	[ARCH_RISCV64] = {
		.id = ARCH_RISCV64,
		.name = "riscv64",
		.audit_arch = EM_RISCV_ | AA_64 | AA_LE,
		.bits = 64,
		.family = FAMILY_RISCV,
		.table = "riscv64",
	},
	[ARCH_PPC64LE] = {
		.id = ARCH_PPC64LE,
		.name = "ppc64le",
		.audit_arch = EM_PPC64_ | AA_64 | AA_LE,
		.bits = 64,
		.family = FAMILY_PPC_LE,
		.table = "ppc64",
		.has_mux = true,
	},
	[ARCH_PPC64] = {
		.id = ARCH_PPC64,
		.name = "ppc64",
		.audit_arch = EM_PPC64_ | AA_64,
		.bits = 64,
		.big_endian = true,
		.family = FAMILY_PPC_BE,
		.table = "ppc64",
		.has_mux = true,
	},
	/* ppc32: 64-bit arguments start at r3, r5 or r7 */
	[ARCH_PPC] = {
		.id = ARCH_PPC,
		.name = "ppc",
		.audit_arch = EM_PPC_,
		.bits = 32,
		.big_endian = true,
		.family = FAMILY_PPC_BE,
		.table = "ppc32",
		.pair_aligned = true,
		.has_mux = true,
	},
	[ARCH_S390X] = {
		.id = ARCH_S390X,
		.name = "s390x",
		.audit_arch = EM_S390_ | AA_64,
		.bits = 64,
		.big_endian = true,
		.family = FAMILY_S390,
		.table = "s390x",
		.has_mux = true,
	},
	/* 31-bit s390 passes 64-bit arguments in any two consecutive registers */
	[ARCH_S390] = {
		.id = ARCH_S390,
		.name = "s390",
		.audit_arch = EM_S390_,
		.bits = 32,
		.big_endian = true,
		.family = FAMILY_S390,
		.table = "s390",
		.has_mux = true,
	},
	/* o32: 64-bit arguments in an aligned register (or stack slot) pair */
	[ARCH_MIPS] = {
		.id = ARCH_MIPS,
		.name = "mips",
		.audit_arch = EM_MIPS_,
		.bits = 32,
		.big_endian = true,
		.family = FAMILY_MIPS_BE,
		.table = "mips-o32",
		.nr_base = MIPS_O32_BASE,
		.pair_aligned = true,
		.has_mux = true,
	},
	[ARCH_MIPSEL] = {
		.id = ARCH_MIPSEL,
		.name = "mipsel",
		.audit_arch = EM_MIPS_ | AA_LE,
		.bits = 32,
		.family = FAMILY_MIPS_LE,
		.table = "mips-o32",
		.nr_base = MIPS_O32_BASE,
		.pair_aligned = true,
		.has_mux = true,
	},
	[ARCH_MIPS64] = {
		.id = ARCH_MIPS64,
		.name = "mips64",
		.audit_arch = EM_MIPS_ | AA_64,
		.bits = 64,
		.big_endian = true,
		.family = FAMILY_MIPS_BE,
		.table = "mips-n64",
		.nr_base = MIPS_N64_BASE,
	},
	[ARCH_MIPSEL64] = {
		.id = ARCH_MIPSEL64,
		.name = "mipsel64",
		.audit_arch = EM_MIPS_ | AA_64 | AA_LE,
		.bits = 64,
		.family = FAMILY_MIPS_LE,
		.table = "mips-n64",
		.nr_base = MIPS_N64_BASE,
	},
	/* n32 passes every argument in a 64-bit register, like x32 */
	[ARCH_MIPS64N32] = {
		.id = ARCH_MIPS64N32,
		.name = "mips64n32",
		.audit_arch = EM_MIPS_ | AA_64 | AA_N32,
		.bits = 64,
		.big_endian = true,
		.family = FAMILY_MIPS_BE,
		.table = "mips-n32",
		.nr_base = MIPS_N32_BASE,
	},
	[ARCH_MIPSEL64N32] = {
		.id = ARCH_MIPSEL64N32,
		.name = "mipsel64n32",
		.audit_arch = EM_MIPS_ | AA_64 | AA_LE | AA_N32,
		.bits = 64,
		.family = FAMILY_MIPS_LE,
		.table = "mips-n32",
		.nr_base = MIPS_N32_BASE,
	},
	[ARCH_LOONGARCH64] = {
		.id = ARCH_LOONGARCH64,
		.name = "loongarch64",
		.audit_arch = EM_LOONGARCH_ | AA_64 | AA_LE,
		.bits = 64,
		.family = FAMILY_LOONGARCH,
		.table = "loongarch64",
	},
};

static const struct {
	const char *alias;
	enum arch_id id;
} aliases[] = {
	{ "i386", ARCH_X86 },
	{ "i686", ARCH_X86 },
	{ "arm64", ARCH_AARCH64 },
};

/* One row, its name checked to fit with its NUL when compiled (MEMBER_FITS()). */
/* clang-format off */
#define SUB(s, call) { s, (call) + (uint32_t)MEMBER_FITS(s, struct mux_subcall, name) }
/* clang-format on */

/* include/uapi/linux/net.h: SYS_SOCKET .. SYS_SENDMMSG */
static const struct mux_subcall socketcall_subcalls[] = {
	SUB("socket", 1),    SUB("bind", 2),	    SUB("connect", 3),	   SUB("listen", 4),
	SUB("accept", 5),    SUB("getsockname", 6), SUB("getpeername", 7), SUB("socketpair", 8),
	SUB("send", 9),	     SUB("recv", 10),	    SUB("sendto", 11),	   SUB("recvfrom", 12),
	SUB("shutdown", 13), SUB("setsockopt", 14), SUB("getsockopt", 15), SUB("sendmsg", 16),
	SUB("recvmsg", 17),  SUB("accept4", 18),    SUB("recvmmsg", 19),   SUB("sendmmsg", 20),
};

/* include/uapi/linux/ipc.h: SEMOP .. SHMCTL */
static const struct mux_subcall ipc_subcalls[] = {
	SUB("semop", 1),   SUB("semget", 2),  SUB("semctl", 3),	 SUB("semtimedop", 4),
	SUB("msgsnd", 11), SUB("msgrcv", 12), SUB("msgget", 13), SUB("msgctl", 14),
	SUB("shmat", 21),  SUB("shmdt", 22),  SUB("shmget", 23), SUB("shmctl", 24),
};

const char *arch_mux_name(const struct arch *a, enum mux_kind k)
{
	if (!a->has_mux)
		return NULL;
	return k == MUX_SOCKETCALL ? "socketcall" : k == MUX_IPC ? "ipc" : NULL;
}

const struct arch *arch_get(enum arch_id id)
{
	if ((unsigned)id >= ARCH_COUNT)
		return NULL;
	return &arches[id];
}

const struct arch *arch_lookup(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < ARCH_COUNT; i++)
		if (strcmp(arches[i].name, name) == 0)
			return &arches[i];
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (strcmp(aliases[i].alias, name) == 0)
			return &arches[aliases[i].id];
	return NULL;
}

const struct arch *arch_of_call(uint32_t audit_arch, uint32_t nr)
{
	/* -1 (a tracer skipping the call) is an unknown number, never x32's */
	bool x32 = nr != UINT32_MAX && (nr & ARCH_X32_SYSCALL_BIT);

	for (size_t i = 0; i < ARCH_COUNT; i++)
		if (arches[i].audit_arch == audit_arch &&
		    (arches[i].audit_arch != arches[ARCH_X32].audit_arch || (i == ARCH_X32) == x32))
			return &arches[i];
	return NULL;
}

const struct arch *arch_native(void)
{
#if defined(__x86_64__) && defined(__ILP32__)
	return &arches[ARCH_X32];
#elif defined(__x86_64__)
	return &arches[ARCH_X86_64];
#elif defined(__i386__)
	return &arches[ARCH_X86];
#elif defined(__aarch64__)
	return &arches[ARCH_AARCH64];
#elif defined(__arm__)
	return &arches[ARCH_ARM];
#elif defined(__riscv) && __riscv_xlen == 64
	return &arches[ARCH_RISCV64];
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
	return &arches[ARCH_PPC64LE];
#elif defined(__powerpc64__)
	return &arches[ARCH_PPC64];
#elif defined(__powerpc__)
	return &arches[ARCH_PPC];
#elif defined(__s390x__)
	return &arches[ARCH_S390X];
#elif defined(__s390__)
	return &arches[ARCH_S390];
#elif defined(__mips__) && defined(__MIPSEL__) && _MIPS_SIM == _ABIO32
	return &arches[ARCH_MIPSEL];
#elif defined(__mips__) && _MIPS_SIM == _ABIO32
	return &arches[ARCH_MIPS];
#elif defined(__mips__) && defined(__MIPSEL__) && _MIPS_SIM == _ABIN32
	return &arches[ARCH_MIPSEL64N32];
#elif defined(__mips__) && _MIPS_SIM == _ABIN32
	return &arches[ARCH_MIPS64N32];
#elif defined(__mips__) && defined(__MIPSEL__) && _MIPS_SIM == _ABI64
	return &arches[ARCH_MIPSEL64];
#elif defined(__mips__) && _MIPS_SIM == _ABI64
	return &arches[ARCH_MIPS64];
#elif defined(__loongarch64)
	return &arches[ARCH_LOONGARCH64];
#else
#error "unsupported architecture"
#endif
}

const struct mux_subcall *arch_mux_subcalls(enum mux_kind kind, size_t *ret_n)
{
	switch (kind) {
	case MUX_SOCKETCALL:
		*ret_n = sizeof(socketcall_subcalls) / sizeof(socketcall_subcalls[0]);
		return socketcall_subcalls;
	case MUX_IPC:
		*ret_n = sizeof(ipc_subcalls) / sizeof(ipc_subcalls[0]);
		return ipc_subcalls;
	default:
		*ret_n = 0;
		return NULL;
	}
}

bool arch_mux_subcall(const struct arch *a, const char *name, enum mux_kind *ret_kind)
{
	for (int k = 0; k < MUX_COUNT; k++) {
		const struct mux_subcall *subs;
		size_t n_subs;

		if (!arch_mux_name(a, (enum mux_kind)k))
			continue;
		subs = arch_mux_subcalls((enum mux_kind)k, &n_subs);
		for (size_t m = 0; m < n_subs; m++)
			if (!strcmp(name, subs[m].name)) {
				if (ret_kind)
					*ret_kind = (enum mux_kind)k;
				return true;
			}
	}
	return false;
}

uint32_t arch_mux_call_mask(enum mux_kind kind)
{
	/* ipc/syscall.c: "version = call >> 16; call &= 0xffff;" */
	return kind == MUX_IPC ? 0xffffu : 0xffffffffu;
}

bool arch_compatible(const struct arch *a, const struct arch *b)
{
	return a && b && a->family == b->family;
}
