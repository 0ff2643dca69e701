/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of actions: parsing (forms, case, blanks, every error message),
 * SECCOMP_RET values per ABI, precedence ranks and the canonical texts.
 */
#include <errno.h>
#include <linux/seccomp.h>
#include <string.h>

#include "src/action.h"
#include "src/arch.h"
#include "tests/tap.h"

static const struct arch *x86_64(void)
{
	return arch_get(ARCH_X86_64);
}

/* Parse text; expect success and the canonical text want. */
static void ok_parse(const char *text, const char *want)
{
	struct action a;
	const char *err = NULL;
	char buf[64];
	int r = action_parse(text, x86_64(), &a, &err);

	tap_ok(r == 0 && !strcmp(action_format(&a, buf, sizeof(buf)), want),
	       "parse '%s' -> '%s' (%d, got '%s')", text, want, r, r == 0 ? buf : err);
}

/* Parse text; expect -EINVAL and the message want. */
static void bad_parse(const char *text, const char *want)
{
	struct action a;
	const char *err = NULL;
	int r = action_parse(text, x86_64(), &a, &err);

	tap_ok(r == -EINVAL && err && !strcmp(err, want), "refuse '%s': %s (%d, '%s')", text, want,
	       r, err ? err : "");
}

static void test_parse(void)
{
	ok_parse("allow", "allow");
	ok_parse("  ALLOW ", "allow");
	ok_parse("kill", "kill-process");
	ok_parse("Kill-Thread", "kill-thread");
	ok_parse("log", "log");
	ok_parse("notify", "notify");
	ok_parse("trap", "trap(0)");
	ok_parse("trap( 7 )", "trap(7)");
	ok_parse("trace(65535)", "trace(65535)");
	ok_parse("errno(eacces)", "errno(EACCES)");
	ok_parse("errno( EPERM )", "errno(EPERM)");
	ok_parse("errno(0x10)", "errno(16)");
	ok_parse("errno(4095)", "errno(4095)");
	/* scmp-run.ini(5) NUMBERS: every spelling, everywhere a number is read */
	ok_parse("errno(0o17)", "errno(15)");
	ok_parse("errno(017)", "errno(15)");
	ok_parse("errno(0XfFf)", "errno(4095)");
	ok_parse("trace(0o177777)", "trace(65535)");
	ok_parse("trap(0x10)", "trap(16)");
	ok_parse("trap(010)", "trap(8)");

	bad_parse("al low", "unknown action");
	bad_parse("permit", "unknown action");
	bad_parse("", "unknown action");
	bad_parse("errno", "errno needs a value: errno(EPERM) or errno(1)");
	bad_parse("errno(", "malformed action: expected 'name(value)'");
	bad_parse("errno()", "malformed action: expected 'name(value)'");
	bad_parse("errno(1)x", "malformed action: expected 'name(value)'");
	bad_parse("errno(4096)", "errno value out of range 0..4095");
	bad_parse("errno(ENOTANERRNO)", "unknown errno name");
	bad_parse("trace", "trace needs a value: trace(N), 0..65535");
	bad_parse("trap(65536)", "value out of range 0..65535");
	bad_parse("trap(-1)", "value out of range 0..65535");
	bad_parse("errno(-1)", "errno value out of range 0..4095");
	bad_parse("errno(0x1000)", "errno value out of range 0..4095");
	bad_parse("errno(99999999999999999999)", "errno value out of range 0..4095");
	bad_parse("errno(1x)", "the value is not a number");
	bad_parse("errno(08)", "the value is not a number");
	bad_parse("errno(0x)", "the value is not a number");
	bad_parse("trace(0o8)", "the value is not a number");
	bad_parse("trap(ten)", "the value is not a number");
	bad_parse("trace(0x10000)", "value out of range 0..65535");
	bad_parse("allow(1)", "this action takes no value");
	bad_parse("errno(EPERMEPERMEPERMEPERMEPERMEPERMEPERMEPERMEPERMEPERMEPERMEPERMEPERM)",
		  "unknown action");
}

static void test_ret(void)
{
	struct action a;
	const char *err;
	uint32_t ret = 0;

	action_parse("errno(EDEADLK)", x86_64(), &a, &err);
	tap_ok(action_ret(&a, x86_64(), &ret) == 0 && ret == (SECCOMP_RET_ERRNO | 35),
	       "errno(EDEADLK) on x86_64 is 35");
	tap_ok(action_ret(&a, arch_get(ARCH_MIPS), &ret) == 0 && ret == (SECCOMP_RET_ERRNO | 45),
	       "errno names are resolved per ABI: EDEADLK on mips is 45");
	a = (struct action){ .kind = ACTION_ERRNO, .errno_name = "ENOTANERRNO" };
	ret = 1;
	tap_ok(action_ret(&a, x86_64(), &ret) == -ENOENT && ret == 1,
	       "action_ret: an errno name the ABI lacks is -ENOENT, *ret untouched");
	a = (struct action){ .kind = ACTION_TRAP, .data = 7 };
	tap_ok(action_ret(&a, x86_64(), &ret) == 0 && ret == (SECCOMP_RET_TRAP | 7), "trap(7)");
	a = (struct action){ .kind = ACTION_KILL_PROCESS };
	tap_ok(action_ret(&a, x86_64(), &ret) == 0 && ret == SECCOMP_RET_KILL_PROCESS,
	       "kill-process");
}

static void test_rank(void)
{
	bool order = true;

	for (int k = ACTION_KILL_PROCESS; k < ACTION_ALLOW; k++)
		order &= action_rank((enum action_kind)k) > action_rank((enum action_kind)(k + 1));
	tap_ok(order, "ranks fall from kill-process to allow");
	tap_ok(action_ret_rank(SECCOMP_RET_ERRNO | 13) == action_rank(ACTION_ERRNO) &&
		       action_ret_rank(SECCOMP_RET_ALLOW) == action_rank(ACTION_ALLOW),
	       "ret_rank ignores the data");
	tap_ok(action_ret_rank(0x12340000u) == action_rank(ACTION_KILL_PROCESS),
	       "an unknown return value ranks as kill-process");
}

static void test_format(void)
{
	char buf[64];

	tap_ok(!strcmp(action_format_ret(SECCOMP_RET_ERRNO | 13, x86_64(), buf, sizeof(buf)),
		       "errno(EACCES)"),
	       "format_ret names errno numbers for an ABI");
	tap_ok(!strcmp(action_format_ret(SECCOMP_RET_ERRNO | 13, NULL, buf, sizeof(buf)),
		       "errno(13)"),
	       "format_ret without an ABI keeps the number");
	tap_ok(!strcmp(action_format_ret(SECCOMP_RET_TRACE | 5, NULL, buf, sizeof(buf)),
		       "trace(5)"),
	       "format_ret trace(5)");
	tap_ok(!strcmp(action_format_ret(0x12340000u, NULL, buf, sizeof(buf)),
		       "unknown action, kill-process"),
	       "format_ret of a value the kernel does not know");
	tap_ok(!strcmp(action_format_ret(SECCOMP_RET_USER_NOTIF, NULL, buf, 4), "not"),
	       "format_ret truncates to the buffer");
	tap_ok(!strcmp(action_kind_name(ACTION_KILL_THREAD), "kill-thread"), "kind names");
	tap_ok(!strcmp(action_ret_kind_name(SECCOMP_RET_ERRNO), "errno") &&
		       !strcmp(action_ret_kind_name(SECCOMP_RET_TRAP | 7), "trap") &&
		       !strcmp(action_ret_kind_name(SECCOMP_RET_KILL_THREAD), "kill-thread"),
	       "ret_kind_name: the kind without its data");
	tap_ok(!strcmp(action_ret_kind_name(0x12340000u), "unknown action, kill-process"),
	       "ret_kind_name of a value the kernel does not know");
}

int main(void)
{
	test_parse();
	test_ret();
	test_rank();
	test_format();
	return tap_done();
}
