/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Actions: parsing, SECCOMP_RET_* values and the kernel's precedence. */
#include "action.h"

#include <ctype.h>
#include <errno.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "consts.h"
#include "number.h"

static const struct {
	const char *name;
	enum action_kind kind;
	uint32_t ret; /* SECCOMP_RET_* without data */
} kinds[] = {
	{ "kill-process", ACTION_KILL_PROCESS, SECCOMP_RET_KILL_PROCESS },
	{ "kill-thread", ACTION_KILL_THREAD, SECCOMP_RET_KILL_THREAD },
	{ "trap", ACTION_TRAP, SECCOMP_RET_TRAP },
	{ "errno", ACTION_ERRNO, SECCOMP_RET_ERRNO },
	{ "notify", ACTION_NOTIFY, SECCOMP_RET_USER_NOTIF },
	{ "trace", ACTION_TRACE, SECCOMP_RET_TRACE },
	{ "log", ACTION_LOG, SECCOMP_RET_LOG },
	{ "allow", ACTION_ALLOW, SECCOMP_RET_ALLOW },
};

const char *action_kind_name(enum action_kind kind)
{
	return kinds[kind].name;
}

const char *action_ret_kind_name(uint32_t ret)
{
	uint32_t full = ret & SECCOMP_RET_ACTION_FULL;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].ret == full)
			return kinds[i].name;
	/* kernel/seccomp.c: an action it does not know kills the process */
	return "unknown action, kill-process";
}

int action_rank(enum action_kind kind)
{
	return ACTION_ALLOW - (int)kind;
}

int action_ret_rank(uint32_t ret)
{
	uint32_t full = ret & SECCOMP_RET_ACTION_FULL;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].ret == full)
			return action_rank(kinds[i].kind);
	/* Unknown values act as kill-process in the kernel (seccomp(2)). */
	return action_rank(ACTION_KILL_PROCESS);
}

/* Copy s in lower case without the blanks around it and inside "(...)",
 * where the case is kept for errno names. A blank anywhere else is an
 * error: "al low" is not "allow". */
static int squeeze(const char *s, char *buf, size_t size)
{
	size_t n = 0, len = strlen(s);
	bool in_paren = false;

	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	while (len && isspace((unsigned char)*s))
		s++, len--;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '(')
			in_paren = true;
		if (isspace((unsigned char)s[i])) {
			if (!in_paren)
				return -EINVAL;
			continue;
		}
		if (n + 1 >= size)
			return -ENAMETOOLONG;
		buf[n++] = in_paren ? s[i] : (char)tolower((unsigned char)s[i]);
	}
	buf[n] = '\0';
	return 0;
}

_Static_assert(ACTION_ERRNO_MAX == 4095u && ACTION_DATA_MAX == 65535u,
	       "the messages of action_parse() spell out the maximums");

/* A number in 0..max (scmp-run.ini(5) NUMBERS); the message tells a
 * malformed number from one out of range. */
static int parse_number(const char *s, unsigned long max, uint32_t *ret, const char *range_err,
			const char **ret_err)
{
	uint64_t v;
	int r = number_parse_max(s, max, &v);

	if (r < 0) {
		*ret_err = r == -ERANGE ? range_err : "the value is " NUMBER_ERR_SYNTAX;
		return -EINVAL;
	}
	*ret = (uint32_t)v;
	return 0;
}

/* The table's own copy of a constant name, so that actions need no
 * allocation; NULL if the name is not in the table. */
static const char *static_name(const char *name)
{
	return consts_static_name(name);
}

int action_parse(const char *s, const struct arch *a, struct action *ret, const char **ret_err)
{
	char buf[64], *arg = NULL, *close;
	size_t i;

	*ret_err = "unknown action";
	if (squeeze(s, buf, sizeof(buf)) < 0)
		return -EINVAL;
	close = strchr(buf, '(');
	if (close) {
		arg = close + 1;
		*close = '\0';
		close = strchr(arg, ')');
		if (!close || close[1] || close == arg) {
			*ret_err = "malformed action: expected 'name(value)'";
			return -EINVAL;
		}
		*close = '\0';
	}
	if (!strcmp(buf, "kill"))
		strcpy(buf, "kill-process");
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(buf, kinds[i].name))
			break;
	if (i == sizeof(kinds) / sizeof(kinds[0]))
		return -EINVAL;

	*ret = (struct action){ .kind = kinds[i].kind };
	switch (ret->kind) {
	case ACTION_ERRNO: {
		int e;

		if (!arg) {
			*ret_err = "errno needs a value: errno(EPERM) or errno(1)";
			return -EINVAL;
		}
		if (number_looks_like(arg))
			return parse_number(arg, ACTION_ERRNO_MAX, &ret->data,
					    "errno value " NUMBER_ERR_RANGE " 0..4095", ret_err);
		for (char *p = arg; *p; p++)
			*p = (char)toupper((unsigned char)*p);
		if (consts_errno(a, arg, &e) < 0) {
			*ret_err = "unknown errno name";
			return -EINVAL;
		}
		ret->data = (uint32_t)e;
		ret->errno_name = static_name(arg);
		return 0;
	}
	case ACTION_TRACE:
	case ACTION_TRAP:
		if (!arg) {
			if (ret->kind == ACTION_TRACE) {
				*ret_err = "trace needs a value: trace(N), 0..65535";
				return -EINVAL;
			}
			return 0;
		}
		return parse_number(arg, ACTION_DATA_MAX, &ret->data,
				    "value " NUMBER_ERR_RANGE " 0..65535", ret_err);
	default:
		if (arg) {
			*ret_err = "this action takes no value";
			return -EINVAL;
		}
		return 0;
	}
}

int action_ret(const struct action *act, const struct arch *a, uint32_t *ret)
{
	uint32_t data = act->data;

	if (act->errno_name) {
		int e;

		if (consts_errno(a, act->errno_name, &e) < 0)
			return -ENOENT;
		data = (uint32_t)e;
	}
	*ret = kinds[act->kind].ret | (data & SECCOMP_RET_DATA);
	return 0;
}

const char *action_format(const struct action *act, char *buf, unsigned size)
{
	switch (act->kind) {
	case ACTION_ERRNO:
		if (act->errno_name)
			snprintf(buf, size, "errno(%s)", act->errno_name);
		else
			snprintf(buf, size, "errno(%u)", act->data);
		break;
	case ACTION_TRACE:
	case ACTION_TRAP:
		snprintf(buf, size, "%s(%u)", kinds[act->kind].name, act->data);
		break;
	default:
		snprintf(buf, size, "%s", kinds[act->kind].name);
	}
	return buf;
}

const char *action_format_ret(uint32_t ret, const struct arch *a, char *buf, unsigned size)
{
	uint32_t full = ret & SECCOMP_RET_ACTION_FULL, data = ret & SECCOMP_RET_DATA;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (kinds[i].ret != full)
			continue;
		switch (kinds[i].kind) {
		case ACTION_ERRNO: {
			const char *name = a ? consts_errno_name(a, (int)data) : NULL;

			if (name)
				snprintf(buf, size, "errno(%s)", name);
			else
				snprintf(buf, size, "errno(%u)", data);
			return buf;
		}
		case ACTION_TRACE:
		case ACTION_TRAP:
			snprintf(buf, size, "%s(%u)", kinds[i].name, data);
			return buf;
		default:
			snprintf(buf, size, "%s", kinds[i].name);
			return buf;
		}
	}
	/* kernel/seccomp.c: an action it does not know kills the process */
	snprintf(buf, size, "unknown action, kill-process");
	return buf;
}
