/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * callfmt_format(): a call as --report prints it. Each decoding of the
 * argument table (families, socket types, ioctl requests, prctl options,
 * fcntl commands, socket levels and options, protections, mmap and clone
 * flags, open flags, modes, descriptors, signals, personalities), plain
 * numbers by type, strings read from the caller with their escapes and
 * limit, an unknown number, a 32-bit ABI, and truncation.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "callfmt.h"
#include "tap.h"

#define AT_FDCWD_ARG ((uint64_t)-100)
#define NEG1	     ((uint64_t)-1)

struct call {
	enum arch_id abi;
	const char *name; /* NULL: the number is unknown */
	uint32_t nr;
	uint64_t args[SYSCALL_ARGS_MAX];
	const char *str; /* what every string argument reads as; NULL: unreadable */
	const char *want;
};

static const struct call calls[] = {
	{ ARCH_X86_64,
	  "socket",
	  41,
	  { 16, 3 | 0x80000 },
	  NULL,
	  "socket(AF_NETLINK, SOCK_RAW|SOCK_CLOEXEC, 0)" },
	{ ARCH_X86_64,
	  "openat",
	  257,
	  { AT_FDCWD_ARG, 0x1000, 0x241, 0644 },
	  NULL,
	  "openat(AT_FDCWD, 0x1000, O_WRONLY|O_CREAT|O_TRUNC, 0644)" },
	{ ARCH_X86_64, "ioctl", 16, { 0, 0x5401 }, NULL, "ioctl(0, TCGETS, 0)" },
	{ ARCH_X86_64, "ioctl", 16, { 1, 0x5412 }, NULL, "ioctl(1, TIOCSTI, 0)" },
	{ ARCH_X86_64, "ioctl", 16, { 1, 0xdeadbeef }, NULL, "ioctl(1, 0xdeadbeef, 0)" },
	/* modem and packet-mode bits are no requests */
	{ ARCH_X86_64, "ioctl", 16, { 1, 1 }, NULL, "ioctl(1, 0x1, 0)" },
	{ ARCH_X86_64, "ioctl", 16, { 1, 0 }, NULL, "ioctl(1, 0, 0)" },
	{ ARCH_X86_64,
	  "mmap",
	  9,
	  { 0, 4096, 3, 0x22, NEG1, 0 },
	  NULL,
	  "mmap(0, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0)" },
	/* the mapping type is a number in the low bits, not two flags */
	{ ARCH_X86_64,
	  "mmap",
	  9,
	  { 0, 4096, 3, 0x80003, 3, 0 },
	  NULL,
	  "mmap(0, 4096, PROT_READ|PROT_WRITE, MAP_SHARED_VALIDATE|MAP_SYNC, 3, 0)" },
	{ ARCH_X86_64,
	  "mmap",
	  9,
	  { 0, 4096, 3, 0x28, NEG1, 0 },
	  NULL,
	  "mmap(0, 4096, PROT_READ|PROT_WRITE, MAP_DROPPABLE|MAP_ANONYMOUS, -1, 0)" },
	{ ARCH_X86_64, "mmap", 9, { 0, 4096, 0, 0 }, NULL, "mmap(0, 4096, PROT_NONE, 0, 0, 0)" },
	{ ARCH_X86_64,
	  "mprotect",
	  10,
	  { 0x7f0000001000, 4096, 0 },
	  NULL,
	  "mprotect(0x7f0000001000, 4096, PROT_NONE)" },
	{ ARCH_X86_64, "prctl", 157, { 38, 1 }, NULL, "prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)" },
	{ ARCH_X86_64, "prctl", 157, { 23, 5 }, NULL, "prctl(PR_CAPBSET_READ, 5, 0, 0, 0)" },
	{ ARCH_X86_64, "prctl", 157, { 0x7ffffff0 }, NULL, "prctl(2147483632, 0, 0, 0, 0)" },
	/* an option, not a value of another option's argument */
	{ ARCH_X86_64, "prctl", 157, { 31 }, NULL, "prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0)" },
	{ ARCH_X86_64, "prctl", 157, { 47, 2, 12 }, NULL, "prctl(PR_CAP_AMBIENT, 2, 12, 0, 0)" },
	{ ARCH_X86_64, "prctl", 157, { 0 }, NULL, "prctl(0, 0, 0, 0, 0)" },
	/* PR_SET_PTRACER_ANY is a value of PR_SET_PTRACER's argument */
	{ ARCH_X86_64, "prctl", 157, { 0xffffffff }, NULL, "prctl(-1, 0, 0, 0, 0)" },
	{ ARCH_X86_64, "fcntl", 72, { 3, 3 }, NULL, "fcntl(3, F_GETFL, 0)" },
	{ ARCH_X86_64,
	  "setsockopt",
	  54,
	  { 3, 1, 2, 0x7ffc0000, 4 },
	  NULL,
	  "setsockopt(3, SOL_SOCKET, SO_REUSEADDR, 0x7ffc0000, 4)" },
	{ ARCH_X86_64,
	  "setsockopt",
	  54,
	  { 3, 6, 1, 0x7ffc0000, 4 },
	  NULL,
	  "setsockopt(3, SOL_TCP, 1, 0x7ffc0000, 4)" },
	{ ARCH_X86_64,
	  "clone",
	  56,
	  { 0x01200011, 0, 0, 0, 0x7f00 },
	  NULL,
	  "clone(SIGCHLD|CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID, 0, NULL, NULL, 32512)" },
	{ ARCH_X86_64, "clone", 56, { 17 }, NULL, "clone(SIGCHLD, 0, NULL, NULL, 0)" },
	{ ARCH_X86_64, "unshare", 272, { 0x10020000 }, NULL, "unshare(CLONE_NEWNS|CLONE_NEWUSER)" },
	/* unshare's flags are 64 bits wide (clone's 32): the kernel refuses the
	 * call for the upper bit, which must show */
	{ ARCH_X86_64,
	  "unshare",
	  272,
	  { 0x1010000000ull },
	  NULL,
	  "unshare(CLONE_NEWUSER|0x1000000000)" },
	{ ARCH_X86_64,
	  "clone",
	  56,
	  { 0x110000011ull },
	  NULL,
	  "clone(SIGCHLD|CLONE_NEWUSER, 0, NULL, NULL, 0)" },
	{ ARCH_X86_64, "kill", 62, { 123, 9 }, NULL, "kill(123, SIGKILL)" },
	{ ARCH_X86_64, "personality", 135, { 8 }, NULL, "personality(PER_LINUX32)" },
	{ ARCH_X86_64, "personality", 135, { 0xffffffff }, NULL, "personality(0xffffffff)" },
	{ ARCH_X86_64, "close", 3, { NEG1 }, NULL, "close(-1)" },
	{ ARCH_X86_64, "lseek", 8, { 3, NEG1, 2 }, NULL, "lseek(3, -1, 2)" },
	{ ARCH_X86_64,
	  NULL,
	  999,
	  { 1, 2, 0x10000, 4, 5, 6 },
	  NULL,
	  "syscall_999(1, 2, 0x10000, 4, 5, 6)" },
	{ ARCH_X86_64,
	  "openat",
	  257,
	  { AT_FDCWD_ARG, 0x1000 },
	  "/etc/passwd",
	  "openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY, 0)" },
	{ ARCH_X86_64,
	  "openat",
	  257,
	  { AT_FDCWD_ARG, 0x1000, 0x80000 },
	  "a\"b\\c\n\x01\x7f",
	  "openat(AT_FDCWD, \"a\\\"b\\\\c\\x0a\\x01\\x7f\", O_RDONLY|O_CLOEXEC, 0)" },
	{ ARCH_X86_64, "openat", 257, { 3, 0, 2 }, "x", "openat(3, NULL, O_RDWR, 0)" },
	{ ARCH_X86_64,
	  "fchmodat",
	  268,
	  { AT_FDCWD_ARG, 0x1000, 04755 },
	  "f",
	  "fchmodat(AT_FDCWD, \"f\", 04755)" },
	/* 32-bit ABI: only the low 32 bits of each argument exist */
	{ ARCH_X86,
	  "mmap2",
	  192,
	  { 0, 4096, 3, 0x22, 0xffffffff },
	  NULL,
	  "mmap2(0, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0)" },
	{ ARCH_X86, "kill", 37, { 0xffffffff00000001ull, 15 }, NULL, "kill(1, SIGTERM)" },
	/* ... the decoded ones too (flag words, protections) */
	{ ARCH_X86,
	  "mmap2",
	  192,
	  { 0, 4096, 0x100000003ull, 0xff00000022ull, 0xffffffff },
	  NULL,
	  "mmap2(0, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0)" },
	{ ARCH_X86,
	  "mprotect",
	  125,
	  { 0x1000, 4096, 0x100000000ull },
	  NULL,
	  "mprotect(4096, 4096, PROT_NONE)" },
};

/* The caller's memory: every string reads as data (NUL included). */
static ssize_t read_str(void *data, uint64_t addr, char *buf, size_t size)
{
	size_t n = strlen(data) + 1;

	(void)addr;
	if (n > size)
		n = size;
	memcpy(buf, data, n);
	return (ssize_t)n;
}

static ssize_t read_fails(void *data, uint64_t addr, char *buf, size_t size)
{
	(void)data;
	(void)addr;
	(void)buf;
	(void)size;
	return -EFAULT;
}

static void format(const struct call *c, callfmt_read_fn rd, char *buf, size_t size)
{
	callfmt_format(arch_get(c->abi), c->name, c->nr, c->args, c->str ? rd : NULL,
		       (void *)c->str, buf, size);
}

int main(void)
{
	char buf[512], big[CALLFMT_STRING_MAX + 20];

	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		format(&calls[i], read_str, buf, sizeof(buf));
		if (!tap_ok(!strcmp(buf, calls[i].want), "%s", calls[i].want))
			tap_diag("got: %s", buf);
	}

	/* a string longer than the limit: cut, and marked as cut */
	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	const struct call longer = { ARCH_X86_64, "openat", 257, { AT_FDCWD_ARG, 0x1000 }, big, "" };
	char want[256];

	snprintf(want, sizeof(want), "openat(AT_FDCWD, \"%.*s\"..., O_RDONLY, 0)",
		 CALLFMT_STRING_MAX, big);
	format(&longer, read_str, buf, sizeof(buf));
	if (!tap_ok(!strcmp(buf, want), "a string over %d bytes is cut with \"...\"",
		    CALLFMT_STRING_MAX))
		tap_diag("got: %s", buf);

	/* memory that cannot be read: the address, as a pointer */
	const struct call unreadable = { ARCH_X86_64,  "openat", 257, { AT_FDCWD_ARG, 0x1000 },
					 "never read", "" };

	format(&unreadable, read_fails, buf, sizeof(buf));
	if (!tap_ok(!strcmp(buf, "openat(AT_FDCWD, 0x1000, O_RDONLY, 0)"),
		    "an unreadable string: its address"))
		tap_diag("got: %s", buf);

	/* learn mode names an ioctl request through the same lookup */
	tap_ok(!callfmt_const_name(arch_get(ARCH_X86_64), "TIOC", 1) &&
		       !callfmt_const_name(arch_get(ARCH_X86_64), "TIOC", 0),
	       "TIOCM_* and TIOCPKT_* bits name no ioctl request");

	/* a buffer too small: NUL-terminated, ending in "..." */
	format(&calls[0], read_str, buf, 12);
	tap_ok(strlen(buf) == 11 && !strcmp(buf + 8, "..."), "truncated to the buffer, with ...");
	memset(buf, 'q', sizeof(buf));
	format(&calls[0], read_str, buf, 0);
	tap_ok(buf[0] == 'q', "a buffer of 0 bytes is not written");
	return tap_done();
}
