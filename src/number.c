/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Integer syntax shared by conditions, actions, priorities and the command
 * line (scmp-run.ini(5) NUMBERS). */
#include "number.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int number_parse_u64(const char *s, size_t len, uint64_t *ret)
{
	const char *e = s + len;
	unsigned base = 10;
	uint64_t v = 0;
	bool range = false;

	if (len >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (len >= 2 && s[0] == '0' && (s[1] == 'o' || s[1] == 'O')) {
		base = 8;
		s += 2;
	} else if (len >= 2 && s[0] == '0') {
		base = 8;
		s += 1;
	}
	if (s == e)
		return -EINVAL;
	/* Read to the end even after an overflow: "99999999999999999999x" is
	 * not a number, not one out of range. */
	for (; s < e; s++) {
		unsigned dig = 99;

		if (isdigit((unsigned char)*s))
			dig = (unsigned)(*s - '0');
		else if (isxdigit((unsigned char)*s))
			dig = (unsigned)(tolower((unsigned char)*s) - 'a' + 10);
		if (dig >= base)
			return -EINVAL;
		if (v > (UINT64_MAX - dig) / base)
			range = true;
		v = v * base + dig;
	}
	if (range)
		return -ERANGE;
	*ret = v;
	return 0;
}

int number_parse(const char *s, bool *ret_neg, uint64_t *ret_mag)
{
	bool neg = s[0] == '-';
	uint64_t v;
	int r = number_parse_u64(s + neg, strlen(s + neg), &v);

	if (r < 0)
		return r;
	*ret_neg = neg && v;
	*ret_mag = v;
	return 0;
}

int number_parse_max(const char *s, uint64_t max, uint64_t *ret)
{
	bool neg;
	uint64_t v;
	int r = number_parse(s, &neg, &v);

	if (r < 0)
		return r;
	/* No sign where a negative value makes no sense, not even on a zero
	 * (scmp-run.ini(5) NUMBERS): "errno(-0)" is a typo, not errno 0. */
	if (s[0] == '-' || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

bool number_looks_like(const char *s)
{
	return isdigit((unsigned char)s[0]) || (s[0] == '-' && isdigit((unsigned char)s[1]));
}

bool number_parse_id(const char *s, uint32_t *ret)
{
	unsigned long long v = 0;

	if (!*s)
		return false;
	for (const char *c = s; *c; c++) {
		if (!isdigit((unsigned char)*c))
			return false;
		v = v * 10 + (unsigned)(*c - '0');
		if (v >= UINT32_MAX) /* (uid_t)-1 means "unchanged" to the kernel */
			return false;
	}
	*ret = (uint32_t)v;
	return true;
}

bool number_id_range_error(const char *s, const char *kind, char *buf, size_t size)
{
	uint32_t id;

	if (!*s || s[strspn(s, "0123456789")] || number_parse_id(s, &id))
		return false;
	snprintf(buf, size,
		 "%s id %s is out of range: at most %u (%u means 'unchanged' to the kernel)", kind,
		 s, UINT32_MAX - 1, UINT32_MAX);
	return true;
}

int number_parse_bool(const char *s, bool *ret, const char **reterr)
{
	static const char *const yes[] = { "yes", "true", "1", "on" };
	static const char *const no[] = { "no", "false", "0", "off" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(s, yes[i])) {
			*ret = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*ret = false;
			return 0;
		}
	}
	*reterr = NUMBER_ERR_BOOL;
	return -EINVAL;
}
