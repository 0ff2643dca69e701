/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Random argument conditions in the profile language (header-only), for the
 * tests that build random rule sets: boundary-heavy values, every operator
 * of scmp-run.ini(5) CONDITIONS, values that fit the argument's class. */
#pragma once

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "policy.h"
#include "rng.h"
#include "syscalls.h"

/* clang-format off */
static const uint64_t rnd_boundaries[] = {
	0, 1, 2, 3, 5, 0x7f, 0x80, 0xff, 0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe,
	0xffffffff, 0x100000000, 0x100000001, 0x17fffffff, 0x7fffffffffffffff,
	0x8000000000000000, 0xfffffffffffffffe, 0xffffffffffffffff, 0xffffffff00000000,
	0xffffffff80000000, 0x00000001ffffffff,
};
/* clang-format on */

/* A random value, most often a boundary of some width or next to one. */
static inline uint64_t rnd_value(struct rng *r)
{
	unsigned n = sizeof(rnd_boundaries) / sizeof(rnd_boundaries[0]);

	switch (pick(r, 4)) {
	case 0:
		return rnd(r);
	case 1:
		return rnd_boundaries[pick(r, n)] + pick(r, 3) - 1;
	default:
		return rnd_boundaries[pick(r, n)];
	}
}

/* A random comparison on argument slot arg of class cls, as text; bits is
 * the register width of the narrowest ABI of the filter. */
static inline void rnd_cmp(struct rng *r, char *buf, size_t size, unsigned arg, enum arg_class cls,
			   unsigned bits)
{
	static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=" };
	unsigned width = cls == ARG_U16					    ? 16
			 : (cls == ARG_S32 || cls == ARG_U32 || bits == 32) ? 32
									    : 64;
	bool is_signed = cls == ARG_S32 || cls == ARG_S64;
	uint64_t v = rnd_value(r), m = rnd_value(r);
	uint64_t mask = width_max(width);
	char val[40], val2[40];

	v &= mask;
	m &= mask;
	/* Ordered comparisons on signed arguments take values in range. */
	if (is_signed) {
		int64_t sv = width == 32 ? (int32_t)(uint32_t)v : (int64_t)v;

		snprintf(val, sizeof(val), "%" PRId64, sv);
		sv = width == 32 ? (int32_t)(uint32_t)m : (int64_t)m;
		snprintf(val2, sizeof(val2), "%" PRId64, sv);
	} else {
		snprintf(val, sizeof(val), "0x%" PRIx64, v);
		snprintf(val2, sizeof(val2), "0x%" PRIx64, m);
	}
	/* a pointer compares with 0 only (scmp-run.ini(5)) */
	if (cls == ARG_PTR) {
		snprintf(buf, size, "arg%u %s 0", arg, pick(r, 2) ? "==" : "!=");
		return;
	}
	switch (pick(r, 9)) {
	case 0:
		snprintf(buf, size, "arg%u & 0x%" PRIx64 " %s 0x%" PRIx64, arg, m,
			 pick(r, 2) ? "==" : "!=", v & m);
		break;
	case 1:
		snprintf(buf, size, "arg%u in { %s, %s, 7 }", arg, val, val2);
		break;
	case 2:
		snprintf(buf, size, "arg%u not in { %s, %s }", arg, val, val2);
		break;
	case 3:
		snprintf(buf, size, "arg%u >= %s && arg%u <= %s", arg, val, arg, val2);
		break;
	default:
		snprintf(buf, size, "arg%u %s %s", arg, ops[pick(r, 6)], val);
	}
}

/* A random condition of 0 to 2 comparisons on the arguments args of a
 * syscall (as syscalls_args() gives them), mostly ANDed, sometimes ORed,
 * into cond (cut short rather than overflow); "" for none. */
static inline void rnd_cond(struct rng *r, const struct syscall_arg *args, unsigned bits,
			    char *cond, size_t size)
{
	*cond = '\0';
	for (unsigned n = pick(r, 3), k = 0; k < n; k++) {
		unsigned arg = pick(r, SYSCALL_ARGS_MAX);
		char one[192];

		/* two-register and padding slots cannot be compared */
		if (args[arg].cls == ARG_NONE || args[arg].cls == ARG_PAIR ||
		    args[arg].cls == ARG_PAD)
			continue;
		rnd_cmp(r, one, sizeof(one), arg, args[arg].cls, bits);
		if (strlen(cond) + strlen(one) + 5 >= size)
			break;
		if (*cond)
			strcat(cond, pick(r, 4) ? " && " : " || ");
		strcat(cond, one);
	}
}
