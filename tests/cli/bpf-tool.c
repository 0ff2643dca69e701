/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test helper for exported programs. 'load FILE': does the kernel accept the
 * raw program (installed in a forked child)? 'dump PID FILE': write the
 * newest filter of a running process (PTRACE_SECCOMP_GET_FILTER) raw.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PTRACE_SECCOMP_GET_FILTER
#define PTRACE_SECCOMP_GET_FILTER 0x420c
#endif

enum {
	EXIT_SKIP = 77
};

static int read_prog(const char *path, struct sock_fprog *prog)
{
	static struct sock_filter insns[4097];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f) {
		fprintf(stderr, "bpf-tool: %s: %s\n", path, strerror(errno));
		return -1;
	}
	n = fread(insns, 1, sizeof(insns), f);
	fclose(f);
	if (n == 0 || n % sizeof(insns[0]) || n / sizeof(insns[0]) > 4096) {
		fprintf(stderr, "bpf-tool: %s: %zu bytes is not a program\n", path, n);
		return -1;
	}
	prog->len = (unsigned short)(n / sizeof(insns[0]));
	prog->filter = insns;
	return 0;
}

static int load(const char *path)
{
	struct sock_fprog prog;
	int fds[2], status, err = 0;
	pid_t pid;

	if (read_prog(path, &prog) < 0 || pipe(fds) < 0)
		return 2;
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		close(fds[0]);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
		    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0) {
			err = errno;
			if (write(fds[1], &err, sizeof(err)) != sizeof(err))
				_exit(3);
			_exit(2);
		}
		/* The filter is live: leave by a way it cannot refuse if exit is denied. */
		syscall(SYS_exit_group, 0);
		syscall(SYS_exit, 0);
		*(volatile int *)0 = 0;
		_exit(0);
	}
	close(fds[1]);
	if (waitpid(pid, &status, 0) < 0)
		return 2;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 2) {
		if (read(fds[0], &err, sizeof(err)) != sizeof(err))
			err = 0;
		printf("rejected: %s\n", strerror(err));
		return 1;
	}
	printf("accepted: %u instructions\n", prog.len);
	return 0;
}

static int dump(pid_t pid, const char *path)
{
	static struct sock_filter insns[4096];
	int status, rc = 2;
	long n;
	FILE *f;

	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) < 0) {
		fprintf(stderr, "bpf-tool: attach %d: %s\n", (int)pid, strerror(errno));
		return errno == EPERM ? EXIT_SKIP : 2;
	}
	if (waitpid(pid, &status, __WALL) < 0)
		return 2;
	n = ptrace(PTRACE_SECCOMP_GET_FILTER, pid, (void *)0, NULL);
	if (n < 0) {
		fprintf(stderr, "bpf-tool: get filter: %s\n", strerror(errno));
		rc = errno == EACCES || errno == EPERM || errno == EINVAL ? EXIT_SKIP : 2;
		goto out;
	}
	if (n > 4096 || ptrace(PTRACE_SECCOMP_GET_FILTER, pid, (void *)0, insns) != n)
		goto out;
	f = fopen(path, "wb");
	if (!f)
		goto out;
	rc = fwrite(insns, sizeof(insns[0]), (size_t)n, f) == (size_t)n && fclose(f) == 0 ? 0 : 2;
out:
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "load"))
		return load(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "dump"))
		return dump((pid_t)atoi(argv[2]), argv[3]);
	fprintf(stderr, "usage: bpf-tool load FILE | dump PID FILE\n");
	return 2;
}
