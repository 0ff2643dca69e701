/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Integers as a profile and the command line write them (scmp-run.ini(5)
 * NUMBERS): decimal, 0x hex, 0o or leading-0 octal, never truncated; and
 * booleans (scmp-run.ini(5) FILE SYNTAX).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The two messages every reader of a number uses. */
#define NUMBER_ERR_SYNTAX "not a number"
#define NUMBER_ERR_RANGE  "out of range"
#define NUMBER_ERR_BOOL	  "use yes/no, true/false, on/off or 1/0"

/*
 * The len bytes at s as an unsigned integer: decimal ("42"), hex ("0x2a",
 * "0X2A"), octal ("0o52", "052"); no sign, no blanks, no digit separators.
 * Returns 0, -EINVAL for anything else ("12abc", "0x", "08", ""), or
 * -ERANGE for a well-formed number over 64 bits. *ret is set only on 0.
 */
int number_parse_u64(const char *s, size_t len, uint64_t *ret);

/*
 * A NUL-terminated number with an optional leading '-': the magnitude in
 * *ret_mag, the sign in *ret_neg ("-0" is not negative). Returns as
 * number_parse_u64().
 */
int number_parse(const char *s, bool *ret_neg, uint64_t *ret_mag);

/*
 * A NUL-terminated number in 0..max (no sign). Returns 0, -EINVAL (not a
 * number) or -ERANGE (a number with a sign, "-0" too, or one over max).
 */
int number_parse_max(const char *s, uint64_t max, uint64_t *ret);

/* True if s starts like a number: a digit, or '-' and a digit. Names
 * (errno names, constants, syscalls) never do. */
bool number_looks_like(const char *s);

/* A user or group id written as decimal digits only, below UINT32_MAX
 * ((uid_t)-1 means "unchanged" to the kernel): true with *ret set. */
bool number_parse_id(const char *s, uint32_t *ret);

/* Room for number_id_range_error()'s message about an id of a profile
 * line (at most 198 bytes long); a longer one is cut short. */
#define NUMBER_ID_MSG_MAX 320

/*
 * A user or group id written as digits only that number_parse_id()
 * refuses: no process can have it, and it is not looked up as a name
 * either (scmp-run.ini(5) [credentials]). Then the one message run mode
 * and --check give, "KIND id S is out of range: ...", goes to buf (size
 * bytes; buf may be NULL when size is 0) and the result is true. False for
 * a valid id and for anything that is not digits only. kind: "user" or
 * "group".
 */
bool number_id_range_error(const char *s, const char *kind, char *buf, size_t size);

/*
 * A boolean as scmp-run.ini(5) FILE SYNTAX spells it: yes/no, true/false,
 * on/off or 1/0, in any case. Returns 0 with *ret set, or -EINVAL with
 * *reterr NUMBER_ERR_BOOL.
 */
int number_parse_bool(const char *s, bool *ret, const char **reterr);
