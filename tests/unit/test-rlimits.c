/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of [limits]: every value form and every refusal of the parser,
 * then apply and read back in a forked child (lowering only).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "src/rlimits.h"
#include "tests/tap.h"

static const struct src_loc here = { .file = "t.ini", .line = 3 };

/* parse KEY = VALUE into a fresh config: 0 and the soft and hard limits, or
 * the error and its message. */
static int parse(const char *key, const char *value, rlim_t *soft, rlim_t *hard, const char **err)
{
	struct rlimits_config c = { 0 };
	int r;

	*err = "";
	r = rlimits_parse_key(&c, key, value, &here, err);
	for (int k = 0; k < RLIMITS_COUNT; k++) {
		if (!c.e[k].set)
			continue;
		*soft = c.e[k].soft;
		*hard = c.e[k].hard;
	}
	return r;
}

static void good(const char *key, const char *value, rlim_t soft, rlim_t hard)
{
	rlim_t s = 0, h = 0;
	const char *err;
	int r = parse(key, value, &s, &h, &err);

	tap_ok(r == 0 && s == soft && h == hard, "%s = %s -> %llu:%llu", key, value,
	       (unsigned long long)soft, (unsigned long long)hard);
}

static void bad(const char *key, const char *value, int want, const char *msg)
{
	rlim_t s = 0, h = 0;
	const char *err;
	int r = parse(key, value, &s, &h, &err);

	tap_ok(r == want && strstr(err, msg), "%s = %s refused: %s", key, value, msg);
	if (r != want || !strstr(err, msg))
		tap_diag("got %d '%s'", r, err);
}

static void test_parse(void)
{
	good("open-files", "64", 64, 64);
	good("open-files", "64:128", 64, 128);
	good("cpu", "infinity", RLIM_INFINITY, RLIM_INFINITY);
	good("cpu", "10:infinity", 10, RLIM_INFINITY);
	good("stack", "8M", 8u << 20, 8u << 20);
	good("address-space", "1k:2G", 1024, (rlim_t)2 << 30);
	good("core", "0", 0, 0);
	good("nice", "40", 40, 40);
	good("nice", "+19", 1, 1);
	good("nice", "-20", 40, 40);
	good("nice", "0:+0", 0, 20);
	bad("open-files", "128:64", -EINVAL, "hard limit is below the soft limit");
	bad("cpu", "infinity:5", -EINVAL, "hard limit is below the soft limit");
	bad("threads", "5", -ENOENT, "unknown limit");
	bad("cpu", "abc", -EINVAL, "expected a number");
	bad("cpu", "1K", -EINVAL, "expected a number");
	bad("stack", "K", -EINVAL, "expected a number");
	bad("stack", "8X", -EINVAL, "K, M, G");
	bad("stack", "-1", -EINVAL, "expected a number");
	bad("open-files", ":5", -EINVAL, "expected a number");
	bad("open-files", "5:", -EINVAL, "expected a number");
	bad("open-files", "99999999999999999999999", -EINVAL, "too large");
	bad("open-files", "18446744073709551615", -EINVAL, "too large");
	bad("data", "17179869184G", -EINVAL, "too large");
	bad("nice", "41", -EINVAL, "out of range 0..40");
	bad("nice", "+20", -EINVAL, "out of range -20..19");
	bad("nice", "-21", -EINVAL, "out of range -20..19");
	bad("nice", "+", -EINVAL, "expected a number");
	bad("nice", "infinity", -EINVAL, "not infinity");
	tap_ok(!strcmp(rlimits_key_name(RLIMITS_OPEN_FILES), "open-files") &&
		       rlimits_resource(RLIMITS_OPEN_FILES) == RLIMIT_NOFILE &&
		       rlimits_resource(RLIMITS_COUNT) == -1,
	       "key names and resources");
}

/* In a child: apply c; exit 0 if it succeeded and getrlimit() agrees. */
static int apply_in_child(const struct rlimits_config *c, int resource, rlim_t soft, rlim_t hard)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		struct diag d;
		struct rlimit got;

		diag_init(&d);
		if (rlimits_apply(c, &d) < 0)
			_exit(d.n_errors == 1 ? 3 : 4);
		if (getrlimit(resource, &got) < 0 || got.rlim_cur != soft || got.rlim_max != hard)
			_exit(2);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* In a child: apply c, which must fail with EPERM; exit 0 if a hint
 * contains want. */
static int hint_in_child(const struct rlimits_config *c, const char *want)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		struct diag d;

		diag_init(&d);
		if (rlimits_apply(c, &d) != -EPERM)
			_exit(2);
		for (size_t i = 0; i < d.n_msgs; i++)
			if (d.msgs[i].severity == DIAG_HINT && strstr(d.msgs[i].text, want))
				_exit(0);
		for (size_t i = 0; i < d.n_msgs; i++)
			fprintf(stderr, "# %s\n", d.msgs[i].text);
		_exit(1);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Above fs.nr_open, setrlimit() says EPERM whatever the capabilities:
 * the hint names nr_open, not CAP_SYS_RESOURCE. */
static void test_nr_open(void)
{
	struct rlimits_config c = { 0 };
	unsigned long long nr_open = 0;
	const char *err;
	char buf[64];
	FILE *f = fopen("/proc/sys/fs/nr_open", "r");

	if (!f || fscanf(f, "%llu", &nr_open) != 1 || nr_open >= RLIM_INFINITY - 1) {
		if (f)
			fclose(f);
		tap_skip("/proc/sys/fs/nr_open cannot be read");
		return;
	}
	fclose(f);
	snprintf(buf, sizeof(buf), "%llu", nr_open + 1);
	rlimits_parse_key(&c, "open-files", buf, &here, &err);
	tap_ok(hint_in_child(&c, "cannot exceed fs.nr_open") == 0,
	       "open-files above fs.nr_open: the hint names nr_open");
}

static void test_apply(void)
{
	struct rlimits_config c = { 0 };
	struct rlimit now;
	const char *err;
	char buf[64];
	FILE *f;
	char *text = NULL;
	size_t size = 0;

	getrlimit(RLIMIT_NOFILE, &now);
	rlimits_parse_key(&c, "open-files", "32:64", &here, &err);
	tap_ok(apply_in_child(&c, RLIMIT_NOFILE, 32, 64) == 0, "lowering open-files: read back");
	if (now.rlim_max != RLIM_INFINITY) {
		snprintf(buf, sizeof(buf), "1:%llu", (unsigned long long)now.rlim_max + 1);
		rlimits_parse_key(&c, "open-files", buf, &here, &err);
		/* Raising needs CAP_SYS_RESOURCE; with it, this succeeds. */
		pid_t pid = fork();
		int status = -1;

		if (pid == 0) {
			if (setrlimit(RLIMIT_NOFILE, &now) < 0 || setuid(65534) < 0)
				_exit(5);
			_exit(apply_in_child(&c, RLIMIT_NOFILE, 1, now.rlim_max + 1));
		}
		waitpid(pid, &status, 0);
		if (getuid() == 0)
			tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 3,
			       "raising a hard limit as uid 65534: one error");
		else
			tap_skip("needs root to become uid 65534");
	} else {
		tap_skip("the hard limit of open files is infinity here");
	}
	f = open_memstream(&text, &size);
	rlimits_parse_key(&c, "cpu", "infinity", &here, &err);
	rlimits_print(&c, "limit: ", f);
	fclose(f);
	tap_ok(strstr(text, "limit: cpu: infinity:infinity\n") != NULL, "print: infinity");
	free(text);
}

/* The stack execve() needs: each string with its NUL and its pointer, the
 * two NULL pointers, and the room; a limit below it is refused at its line,
 * one at it, infinity and none pass. */
static void test_stack(void)
{
	char *argv[] = { "sh", "-c", NULL }, *envp[] = { "A=1", NULL };
	unsigned long long need = RLIMITS_STACK_ROOM + 3 + 3 + 4 + 5 * sizeof(char *);
	struct rlimits_config c = { 0 };
	struct diag d;
	const char *err;
	char buf[32];

	diag_init(&d);
	tap_is(rlimits_stack_need(argv, envp), need, "stack need: strings, pointers and room");
	tap_is(rlimits_check_stack(&c, argv, envp, &d), 0, "stack need: no limit set passes");
	snprintf(buf, sizeof(buf), "%llu:infinity", need - 1);
	rlimits_parse_key(&c, "stack", buf, &here, &err);
	tap_is(rlimits_check_stack(&c, argv, envp, &d), -E2BIG, "stack need: one byte less: E2BIG");
	tap_ok(d.n_errors == 1 && strstr(d.msgs[0].text, "stack = ") && d.msgs[0].loc.line == 3,
	       "stack need: ... one error, at the key's line");
	snprintf(buf, sizeof(buf), "%llu", need);
	rlimits_parse_key(&c, "stack", buf, &here, &err);
	tap_is(rlimits_check_stack(&c, argv, envp, &d), 0, "stack need: exactly enough passes");
	rlimits_parse_key(&c, "stack", "infinity", &here, &err);
	tap_is(rlimits_check_stack(&c, argv, envp, &d), 0, "stack need: infinity passes");
	diag_clear(&d);
}

int main(void)
{
	test_parse();
	test_apply();
	test_nr_open();
	test_stack();
	return tap_done();
}
