/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Minimal TAP producer for the C unit tests (header-only). */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* TAP_SANITIZED: built with AddressSanitizer, whose runtime owns malloc()
 * and the functions around it, so a test cannot replace them. */
#if defined(__SANITIZE_ADDRESS__)
#define TAP_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TAP_SANITIZED 1
#endif
#endif

static unsigned tap_n, tap_failed;

__attribute__((format(printf, 2, 3))) static inline bool tap_ok(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %u - ", ok ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!ok)
		tap_failed++;
	fflush(stdout);
	return ok;
}

__attribute__((format(printf, 1, 2))) static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

__attribute__((format(printf, 1, 2))) static inline void tap_skip(const char *fmt, ...)
{
	va_list ap;

	printf("ok %u - # SKIP ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* fork() with the output so far flushed (the child would print it
 * again); aborts when it fails. */
static inline pid_t tap_fork(void)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		abort();
	return pid;
}

/* Wait for the child pid: its exit status, or 128 + the signal that
 * ended it. */
static inline int tap_wait(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) < 0)
		abort();
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Print the plan and return the process exit status. */
static inline int tap_done(void)
{
	printf("1..%u\n", tap_n);
	return tap_failed ? 1 : 0;
}

#define tap_is(got, want, ...) tap_ok((got) == (want), __VA_ARGS__)
