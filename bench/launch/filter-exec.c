/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The floor for a launcher that loads a seccomp filter and execs its
 * command: read a raw program (as 'scmp-run --export-bpf' writes it), set
 * no_new_privs, load it, execv() the arguments. No profile, no checks, no
 * other step: bench/launch/ratio times it beside scmp-run, so that what
 * scmp-run's own work costs is seen apart from what loading any filter
 * and executing a second program cost.
 * Usage: filter-exec PROGRAM COMMAND [ARG...] */
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static struct sock_filter insns[BPF_MAXINSNS];

int main(int argc, char **argv)
{
	struct sock_fprog prog = { .filter = insns };
	ssize_t n;
	int fd;

	if (argc < 3) {
		fputs("usage: filter-exec PROGRAM COMMAND [ARG...]\n", stderr);
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	/* a program of BPF_MAXINSNS instructions at most, read whole */
	n = read(fd, insns, sizeof(insns));
	close(fd);
	if (n <= 0 || n % sizeof(insns[0])) {
		fprintf(stderr, "filter-exec: %s: not a raw BPF program\n", argv[1]);
		return 2;
	}
	prog.len = (unsigned short)(n / sizeof(insns[0]));
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog)) {
		perror("filter-exec: loading the filter");
		return 2;
	}
	execv(argv[2], argv + 2);
	perror(argv[2]);
	return 127;
}
