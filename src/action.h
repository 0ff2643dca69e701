/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Actions: parse "errno(EACCES)", "trap(3)", "kill"...; map them to
 * SECCOMP_RET_* values; order them by the kernel's precedence.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "arch.h"

#define ACTION_ERRNO_MAX 4095u
#define ACTION_DATA_MAX	 65535u /* trace(N), trap(N) */

/* Listed from most to least restrictive: the kernel's precedence order
 * (Documentation/userspace-api/seccomp_filter.rst). */
enum action_kind {
	ACTION_KILL_PROCESS,
	ACTION_KILL_THREAD,
	ACTION_TRAP,
	ACTION_ERRNO,
	ACTION_NOTIFY,
	ACTION_TRACE,
	ACTION_LOG,
	ACTION_ALLOW,
};

struct action {
	enum action_kind kind;
	uint32_t data;		/* errno / trace / trap value */
	const char *errno_name; /* static; set when written as a name: resolved per ABI */
};

/*
 * Parse an action token (case-insensitive, blanks allowed inside the
 * parentheses). Errno names are checked against a (they are resolved again
 * per ABI at generation time, see action_ret()). Returns 0, or -EINVAL with
 * a static message in *ret_err.
 */
int action_parse(const char *s, const struct arch *a, struct action *ret, const char **ret_err);

/* The SECCOMP_RET_* value for the action on ABI a (errno names resolved
 * for a). Returns 0 and sets *ret, or -ENOENT if the errno name is unknown
 * on a. */
int action_ret(const struct action *act, const struct arch *a, uint32_t *ret);

/* Precedence rank: higher is more restrictive (kill-process highest). */
int action_rank(enum action_kind kind);

/* Rank of a SECCOMP_RET_* value, in the same scale. */
int action_ret_rank(uint32_t ret);

/* Canonical text of an action ("errno(EACCES)", "kill-process") into buf. */
const char *action_format(const struct action *act, char *buf, unsigned size);

/* Text of a SECCOMP_RET_* value ("errno(13)", "allow") into buf; errno
 * numbers are named for ABI a when a is not NULL. */
const char *action_format_ret(uint32_t ret, const struct arch *a, char *buf, unsigned size);

/* The kind of a SECCOMP_RET_* value alone, its data left out ("errno" for
 * any errno); "unknown action, kill-process" for a value no kind has. */
const char *action_ret_kind_name(uint32_t ret);

/* Lower-case name of an action kind ("kill-process"). */
const char *action_kind_name(enum action_kind kind);
