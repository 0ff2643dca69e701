/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ABI descriptors: for every ABI a filter can name, its AUDIT_ARCH value,
 * argument width, byte order, syscall-number base and multiplexers.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum arch_id {
	ARCH_X86_64,
	ARCH_X86,
	ARCH_X32,
	ARCH_AARCH64,
	ARCH_ARM,
	ARCH_RISCV64,
	ARCH_PPC64LE,
	ARCH_PPC64,
	ARCH_PPC,
	ARCH_S390X,
	ARCH_S390,
	ARCH_MIPS,
	ARCH_MIPSEL,
	ARCH_MIPS64,
	ARCH_MIPSEL64,
	ARCH_MIPS64N32,
	ARCH_MIPSEL64N32,
	ARCH_LOONGARCH64,
	ARCH_COUNT,
};

/* The x32 ABI shares AUDIT_ARCH_X86_64 with x86_64 and marks its syscall
 * numbers with this bit (__X32_SYSCALL_BIT, arch/x86/include/uapi/asm/unistd.h):
 * it is x32's nr_base. */
#define ARCH_X32_SYSCALL_BIT 0x40000000u

/* Families: the ABIs one process can be presented with by one kernel. */
enum arch_family {
	FAMILY_X86,
	FAMILY_ARM,
	FAMILY_RISCV,
	FAMILY_PPC_LE,
	FAMILY_PPC_BE,
	FAMILY_S390,
	FAMILY_MIPS_BE,
	FAMILY_MIPS_LE,
	FAMILY_LOONGARCH,
};

/* A syscall multiplexer: one syscall whose first argument selects the real
 * operation (socketcall(2), ipc(2)). */
enum mux_kind {
	MUX_SOCKETCALL,
	MUX_IPC,
	MUX_COUNT,
};

struct mux_subcall {
	char name[12]; /* the direct syscall's name, e.g. "socket" (no pointer: no relocation) */
	uint32_t call; /* the multiplexer's selector, e.g. SYS_SOCKET = 1 */
};

struct arch {
	enum arch_id id;
	char name[12];	     /* the profile token, e.g. "x86_64" (arrays: no relocation) */
	uint32_t audit_arch; /* AUDIT_ARCH_* as seen in seccomp_data.arch */
	unsigned bits;	     /* width of a syscall argument register: 32 or 64 */
	bool big_endian;
	enum arch_family family;
	char table[12];	  /* name of the syscall table, see syscalls.h */
	uint32_t nr_base; /* added to table numbers: x32 ARCH_X32_SYSCALL_BIT, mips 4000/5000/6000 */
	bool pair_aligned; /* 64-bit args in two registers start at an even slot */
	bool has_mux;	   /* socketcall(2) and ipc(2): see arch_mux_name() */
};

/* The name of a's multiplexer syscall of kind k ("socketcall", "ipc"), or
 * NULL if a has none. */
const char *arch_mux_name(const struct arch *a, enum mux_kind k);

/* The descriptor of an ABI; never NULL for a valid id. */
const struct arch *arch_get(enum arch_id id);

/* Look up a token ("x86_64", "x86", "i386", ...). "native" is not handled
 * here: see arch_native(). Returns NULL if unknown. */
const struct arch *arch_lookup(const char *name);

/* The ABI this binary was built for. */
const struct arch *arch_native(void);

/* The ABI of a call as seccomp sees it (seccomp_data.arch and .nr): x32
 * when AUDIT_ARCH_X86_64 comes with the x32 bit in the number, else the
 * one ABI of that audit_arch. NULL for an audit_arch no ABI has. */
const struct arch *arch_of_call(uint32_t audit_arch, uint32_t nr);

/* The sub-calls of a multiplexer (n written to ret_n). */
const struct mux_subcall *arch_mux_subcalls(enum mux_kind kind, size_t *ret_n);

/* Whether name is a sub-call of one of a's multiplexers (its kind in
 * *ret_kind unless NULL). */
bool arch_mux_subcall(const struct arch *a, const char *name, enum mux_kind *ret_kind);

/* Mask applied to the multiplexer's first argument before comparing it with
 * the sub-call number: ipc(2) keeps a version in the upper 16 bits. */
uint32_t arch_mux_call_mask(enum mux_kind kind);

/* True if ABIs a and b can both occur in one process on one kernel. */
bool arch_compatible(const struct arch *a, const struct arch *b);
