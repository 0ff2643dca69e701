/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The least a supervisor that stays the command's parent costs, for
 * bench/supervise/run. "clone": start the command in a child that shares
 * this process's memory until its execve() (as the supervisor does), wait
 * for it, and exit with its status; no filter, no listener, no signals.
 * "exec": execute the command in this process, the baseline (this
 * program's own start is in both).
 * Usage: parent clone|exec COMMAND [ARG...] */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define STACK_SIZE (1UL << 20)

static int start(void *argv)
{
	execvp(((char **)argv)[0], argv);
	perror("parent: execvp");
	return 127;
}

int main(int argc, char **argv)
{
	char *stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	int status;
	pid_t pid;

	if (argc < 3 || stack == MAP_FAILED)
		return 125;
	if (!strcmp(argv[1], "exec"))
		return start(argv + 2);
	pid = clone(start, stack + STACK_SIZE, CLONE_VM | CLONE_VFORK | SIGCHLD, argv + 2);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 125;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
