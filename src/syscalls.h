/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Syscall names, numbers and argument types per ABI, over the table that is
 * generated at build time from data/syscalls.txt and data/syscall-args.txt.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch.h"

#define SYSCALL_ARGS_MAX 6

/* A syscall of a table. The name is an offset into the table's string
 * block (the table holds no pointers): read it with syscall_name().
 * SYSCALL_NO_NAME: a number a profile named that the table lacks. */
#define SYSCALL_NO_NAME UINT32_MAX
struct syscall {
	uint32_t name_at;
	uint32_t nr; /* the number seccomp sees: table number + arch->nr_base */
};

/* The name of a table entry; static storage. NULL for SYSCALL_NO_NAME. */
const char *syscall_name(const struct syscall *s);

/* Class of one argument slot (seccomp_data.args[i]) on one ABI. */
enum arg_class {
	ARG_UNKNOWN, /* no prototype known: compared as unsigned, full register width */
	ARG_U16,     /* umode_t, old_uid_t: the kernel keeps the low 16 bits only */
	ARG_S32,     /* int, pid_t, ...: low 32 bits, signed */
	ARG_U32,     /* unsigned int, umode_t, uid_t, ...: low 32 bits, unsigned */
	ARG_S64,     /* long, loff_t, ... on a 64-bit ABI: all 64 bits, signed */
	ARG_U64,     /* unsigned long, size_t, u64 on a 64-bit ABI: all 64 bits */
	ARG_PTR,     /* a pointer: only == 0 and != 0 can be compared */
	ARG_PAIR,    /* one half of a 64-bit value split over two registers */
	ARG_PAD,     /* an alignment slot before a register pair */
	ARG_NONE,    /* the syscall has no argument in this slot */
};

struct syscall_arg {
	const char *name; /* kernel prototype parameter name; NULL if unknown */
	enum arg_class cls;
	const char *aliases; /* its other spellings in the kernel source, '|'-separated; or NULL */
};

/* The low bits of the register that an argument of class cls holds on ABI a,
 * and whether they are signed (scmp-run.ini(5) ARGUMENT WIDTHS AND
 * SIGNEDNESS). For the classes a condition can test: not ARG_PAIR, ARG_PAD
 * or ARG_NONE. */
static inline unsigned syscalls_arg_width(const struct arch *a, enum arg_class cls)
{
	if (cls == ARG_U16)
		return 16;
	return cls == ARG_S32 || cls == ARG_U32 ? 32 : a->bits;
}

static inline bool syscalls_arg_signed(enum arg_class cls)
{
	return cls == ARG_S32 || cls == ARG_S64;
}

/* The kernel version the table was generated from, e.g. "6.12.57". */
const char *syscalls_kernel_version(void);

/* Every syscall of an ABI, sorted by number, unique numbers. */
const struct syscall *syscalls_list(const struct arch *a, size_t *ret_n);

/* The entry of nr in list[0..n), a list sorted by number (as syscalls_list()
 * returns it); NULL if nr is not there. */
const struct syscall *syscalls_find_nr(const struct syscall *list, size_t n, uint32_t nr);

/*
 * Every syscall name of every ABI, each once: the ABIs in enum arch_id
 * order, each in number order, listing the names no earlier ABI has (the
 * order of the @known group). Returns 0 and a malloc'd array of *ret_n
 * pointers to static strings in *ret (the caller frees the array), or
 * -ENOMEM.
 */
int syscalls_names(const char ***ret, size_t *ret_n);

/* The table entry of a name on an ABI (number and name); NULL if that ABI
 * has no such syscall. */
const struct syscall *syscalls_lookup(const struct arch *a, const char *name);

/* An ABI's table, found once by a caller that looks up many names on it
 * (the resolver: hundreds per ABI); NULL if the ABI has none. */
struct sct_table;
const struct sct_table *syscalls_table(const struct arch *a);

/* syscalls_lookup() on table t for a name by its syscalls_name_id(): no
 * hashing, no search for the table. */
const struct syscall *syscalls_table_lookup_id(const struct sct_table *t, int id);

/* The name of a syscalls_name_id(); static storage. NULL for an id out of range. */
const char *syscalls_name_of_id(int id);

/* Number of a name on an ABI; -ENOENT if that ABI has no such syscall. */
int syscalls_lookup_name(const struct arch *a, const char *name, uint32_t *ret_nr);

/* Name of a number (as seccomp sees it) on an ABI; NULL if none. */
const char *syscalls_lookup_nr(const struct arch *a, uint32_t nr);

/* The name of any ABI's table closest to word (did-you-mean, suggest.h);
 * NULL if none is close. Static storage. */
const char *syscalls_suggest(const char *word);

/*
 * A syscall named by number (scmp-run.ini(5) SYSCALL NAMES): "ABI/NUMBER"
 * ("x86_64/471") or a bare "NUMBER", the number as seccomp sees it
 * (--list-syscalls), 0..UINT32_MAX in any base of scmp-run.ini(5) NUMBERS.
 * Returns 0 with the ABI (NULL for a bare number) and the number; -ENOENT
 * if s is not written as a number (a name: it does not start with a digit
 * and has no '/'); -EINVAL for an unknown ABI or a malformed number, with
 * a static message in *reterr; -ERANGE for a number over UINT32_MAX.
 */
int syscalls_parse_numbered(const char *s, const struct arch **ret_arch, uint32_t *ret_nr,
			    const char **reterr);

/* True if any ABI of the table has this name. */
bool syscalls_known(const char *name);

/* A dense number for a name any ABI of the table has, 0 ..
 * syscalls_name_count() - 1 (for bitmaps of names); -1 for any other. */
int syscalls_name_id(const char *name);
size_t syscalls_name_count(void);

/* True if an argument slot is called name: its prototype name or one of
 * its other spellings (scmp-run.ini(5) CONDITIONS: "flags" and "clone_flags"). */
bool syscalls_arg_named(const struct syscall_arg *arg, const char *name);

/* N if the prototype calls the argument at position pos "argN" with N
 * other than pos (prctl(2)'s "arg2" is its argument 1), which a condition
 * cannot write: its "argN" is always position N (scmp-run.ini(5)
 * CONDITIONS). -1 otherwise. */
int syscalls_arg_misnumbered(const struct syscall_arg *arg, int pos);

/*
 * Argument slots of a syscall on one ABI, resolved from the prototype: on
 * 32-bit ABIs long is 32 bits and 64-bit values take two slots (ARG_PAIR,
 * preceded by ARG_PAD where the ABI aligns pairs). Slots past the last
 * argument are ARG_NONE. A syscall without a known prototype gets
 * ARG_UNKNOWN in every slot and returns 0 with *ret_known = false.
 * Returns -ENOENT if the ABI has no such syscall.
 */
int syscalls_args(const struct arch *a, const char *name, struct syscall_arg ret[SYSCALL_ARGS_MAX],
		  bool *ret_known);

/* The same for a syscall the ABI does not have by itself but reaches
 * through a multiplexer (i386 has no accept syscall, only socketcall's
 * SYS_ACCEPT): the prototype of the name, laid out in this ABI's registers.
 * Returns -ENOENT if no ABI of the table has the name. */
int syscalls_proto_args(const struct arch *a, const char *name,
			struct syscall_arg ret[SYSCALL_ARGS_MAX], bool *ret_known);
