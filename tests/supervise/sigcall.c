/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* sigcall MARK NR [PATH]: makes system call NR (with PATH as its first
 * argument, and 0755) while a second thread sends the calling thread
 * SIGUSR1 every 10 ms from the moment the file MARK exists until the call
 * returns. The handler is installed without SA_RESTART: a call the signal
 * interrupts fails with EINTR. Prints what the call returned. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const char *mark;
static pid_t target;
static volatile int done;

static void on_usr1(int sig)
{
	(void)sig;
}

static void *interrupt(void *arg)
{
	const struct timespec tick = { 0, 10000000 };

	(void)arg;
	while (!done && access(mark, F_OK) < 0)
		nanosleep(&tick, NULL);
	while (!done) {
		syscall(SYS_tgkill, getpid(), target, SIGUSR1);
		nanosleep(&tick, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	pthread_t t;
	long r;

	if (argc < 3)
		return 2;
	mark = argv[1];
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	target = (pid_t)syscall(SYS_gettid);
	if (pthread_create(&t, NULL, interrupt, NULL))
		return 2;
	r = syscall(strtol(argv[2], NULL, 0), argc > 3 ? argv[3] : NULL, 0755);
	printf("%ld %s\n", r, r < 0 ? strerror(errno) : "");
	fflush(stdout);
	done = 1;
	pthread_join(t, NULL);
	return 0;
}
