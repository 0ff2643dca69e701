/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A system call as text for the supervisor's report: name and arguments,
 * decoded with the constant table (families, flags, ioctl requests) and
 * strings read from the caller through a callback. Display only.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "arch.h"
#include "syscalls.h"

#define CALLFMT_STRING_MAX 96 /* bytes of a string argument shown */

/* Read up to size bytes at addr of the calling process into buf; returns the
 * number of bytes read, or a negative errno. NULL: strings are not read. */
typedef ssize_t (*callfmt_read_fn)(void *data, uint64_t addr, char *buf, size_t size);

/*
 * Write "name(arg, ...)" into buf (always NUL-terminated, truncated with
 * "..." when it does not fit). name may be NULL (the number is unknown):
 * then "syscall_NR(args as numbers)". Never fails.
 */
void callfmt_format(const struct arch *a, const char *name, uint32_t nr,
		    const uint64_t args[SYSCALL_ARGS_MAX], callfmt_read_fn read, void *data,
		    char *buf, size_t size);

/* The name of value on ABI a among the constants that start with prefix
 * (first in name order, aliases skipped); NULL if none. */
const char *callfmt_const_name(const struct arch *a, const char *prefix, int64_t value);
