/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Makes one call that a [hardening] preset decides and prints its outcome:
 * "ok" or the errno name. Usage: hardening-helper CALL [ARG...] (see
 * main()), or hardening-helper probes PROBE... (see probe_child()).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SHM_EXEC
#define SHM_EXEC 0100000
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x80
#endif

static const char *errname(int e)
{
	static const struct {
		int e;
		const char *n;
	} names[] = { { EPERM, "EPERM" },   { EACCES, "EACCES" }, { ENOSYS, "ENOSYS" },
		      { EINVAL, "EINVAL" }, { EFAULT, "EFAULT" }, { EAFNOSUPPORT, "EAFNOSUPPORT" },
		      { ENOENT, "ENOENT" }, { EBADF, "EBADF" } };
	static char buf[32];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == e)
			return names[i].n;
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

static int outcome(long r)
{
	puts(r < 0 ? errname(errno) : "ok");
	return 0;
}

/* mmap RW, then mprotect to prot */
static int mprotect_to(int prot)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 2;
	return outcome(mprotect(p, 4096, prot));
}

static int mmap_prot(int prot)
{
	void *p = mmap(NULL, 4096, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return outcome(p == MAP_FAILED ? -1 : 0);
}

/* The attack on memory-deny-write-execute by rules: with READ_IMPLIES_EXEC
 * the kernel adds PROT_EXEC to a readable mmap itself, where a rule on prot
 * cannot see it. Prints the errno of personality() or mmap(), "rwx" if the
 * read-write mapping came out executable, else "ok". */
static int rie_mmap(void)
{
	char line[256], perms[8];
	unsigned long lo, hi;
	bool rwx = false;
	void *p;
	FILE *f;

	if (syscall(SYS_personality, READ_IMPLIES_EXEC) < 0)
		return outcome(-1);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return outcome(-1);
	f = fopen("/proc/self/maps", "r");
	if (!f)
		return 2;
	/* the line whose range holds p: a neighbour may have merged with it */
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && lo <= (unsigned long)p &&
		    (unsigned long)p < hi)
			rwx = !strncmp(perms, "rwx", 3);
	fclose(f);
	puts(rwx ? "rwx" : "ok");
	return 0;
}

static int shmat_flags(int flags)
{
	int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0700); /* SHM_EXEC needs x */
	void *p;
	int e;

	if (id < 0)
		return 2;
	p = shmat(id, NULL, flags);
	e = errno;
	shmctl(id, IPC_RMID, NULL);
	errno = e;
	return outcome(p == (void *)-1 ? -1 : 0);
}

static int sched_to(int policy)
{
	int rt = (policy & ~SCHED_RESET_ON_FORK) == SCHED_FIFO ||
		 (policy & ~SCHED_RESET_ON_FORK) == SCHED_RR;
	struct sched_param sp = { .sched_priority = rt ? 1 : 0 };

	return outcome(syscall(SYS_sched_setscheduler, 0, policy, &sp));
}

static int setns_to(int nstype)
{
	int fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 2;
	return outcome(syscall(SYS_setns, fd, nstype));
}

/* socket(FAMILY, TYPE, 0), TYPE SOCK_STREAM when not given: "ok" and the
 * domain of the socket made (SO_DOMAIN), which is not the family asked for
 * with AF_INET and SOCK_PACKET, or the errno name. */
static int socket_of(const char *family, const char *type)
{
	int fd = socket((int)strtol(family, NULL, 0),
			type ? (int)strtol(type, NULL, 0) : SOCK_STREAM, 0);
	int domain = -1;
	socklen_t len = sizeof(domain);

	if (fd < 0 || !type)
		return outcome(fd);
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0)
		return 2;
	printf("ok %d\n", domain);
	return 0;
}

/* A file made with a mode (octal): open, openat, creat and mknod at path,
 * an unnamed O_TMPFILE in the directory path, openat2 with O_CREAT; the
 * descriptor made is left to exit. */
static int create(const char *call, const char *mode_text, const char *path)
{
	mode_t mode = (mode_t)strtoul(mode_text, NULL, 8);
	const int wr = O_WRONLY | O_CLOEXEC;

	if (!strcmp(call, "open"))
		return outcome(syscall(SYS_open, path, O_CREAT | wr, mode));
	if (!strcmp(call, "openat"))
		return outcome(syscall(SYS_openat, AT_FDCWD, path, O_CREAT | wr, mode));
	if (!strcmp(call, "creat"))
		return outcome(syscall(SYS_creat, path, mode));
	if (!strcmp(call, "mknod"))
		return outcome(syscall(SYS_mknod, path, S_IFREG | mode, 0));
	if (!strcmp(call, "mknodat"))
		return outcome(syscall(SYS_mknodat, AT_FDCWD, path, S_IFREG | mode, 0));
	if (!strcmp(call, "tmpfile"))
		return outcome(syscall(SYS_openat, AT_FDCWD, path, O_TMPFILE | wr, mode));
	if (!strcmp(call, "openat2")) {
		/* struct open_how (linux/openat2.h): flags, mode, resolve */
		uint64_t how[3] = { (uint64_t)(O_CREAT | wr), mode, 0 };

		return outcome(syscall(SYS_openat2, AT_FDCWD, path, how, sizeof(how)));
	}
	return 2;
}

/* One probe of the random test (random.py), made in a child of its own so
 * that a namespace it enters or a socket it opens is gone for the next:
 *   socket:FAMILY:TYPE  socketpair:FAMILY:TYPE   (64-bit values: the kernel
 *                                                 reads the low 32 bits)
 *   unshare:FLAGS  clone:FLAGS                  (clone adds SIGCHLD)
 *   setns:TYPE:NSTYPE                           (an fd of /proc/self/ns/TYPE)
 *   sched:POLICY:PRIORITY  sched_setattr:0       (on the child itself)
 *   personality:VALUE
 * and the calls of a mode, on a file of the current directory named after
 * the probe's index i (the chmod calls make it first, with mode 0600):
 *   chmod:MODE  fchmod:MODE  fchmodat:MODE  fchmodat2:MODE  creat:MODE
 *   mknod:MODE  mknodat:MODE  (a regular file)
 *   open:FLAGS:MODE  openat:FLAGS:MODE  openat2:FLAGS:MODE
 *                               (O_TMPFILE in FLAGS: the directory ".")
 * Prints "ok" (socket: "ok DOMAIN") or the errno name. */
static int probe_child(char *p, int i)
{
	char *kind = strtok(p, ":"), *a = strtok(NULL, ":"), *b = strtok(NULL, ":");
	unsigned long x = a ? strtoul(a, NULL, 0) : 0, y = b ? strtoul(b, NULL, 0) : 0;
	char path[64];

	if (!kind || !a)
		return 2;
	snprintf(path, sizeof(path), "f%d", i);
	if (!strcmp(kind, "sched")) {
		struct sched_param sp = { .sched_priority = (int)y };

		return outcome(syscall(SYS_sched_setscheduler, 0, x, &sp));
	}
	if (!strcmp(kind, "sched_setattr")) {
		uint32_t attr[14] = { 48 }; /* size, then SCHED_OTHER, nice 0 */

		return outcome(syscall(SYS_sched_setattr, 0, attr, 0));
	}
	if (!strcmp(kind, "personality"))
		return outcome(syscall(SYS_personality, x));
	if (strstr(kind, "chmod")) {
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

		if (fd < 0)
			return 2;
		if (!strcmp(kind, "chmod"))
			return outcome(syscall(SYS_chmod, path, x));
		if (!strcmp(kind, "fchmod"))
			return outcome(syscall(SYS_fchmod, fd, x));
		if (!strcmp(kind, "fchmodat"))
			return outcome(syscall(SYS_fchmodat, AT_FDCWD, path, x));
		if (!strcmp(kind, "fchmodat2"))
			return outcome(syscall(452, AT_FDCWD, path, x, 0));
		return 2;
	}
	if (!strcmp(kind, "creat"))
		return outcome(syscall(SYS_creat, path, x));
	if (!strcmp(kind, "mknod"))
		return outcome(syscall(SYS_mknod, path, S_IFREG | x, 0));
	if (!strcmp(kind, "mknodat"))
		return outcome(syscall(SYS_mknodat, AT_FDCWD, path, S_IFREG | x, 0));
	if (!strncmp(kind, "open", 4)) {
		const char *at = (x & O_TMPFILE) == O_TMPFILE ? "." : path;

		if (!strcmp(kind, "open"))
			return outcome(syscall(SYS_open, at, x, y));
		if (!strcmp(kind, "openat"))
			return outcome(syscall(SYS_openat, AT_FDCWD, at, x, y));
		if (!strcmp(kind, "openat2")) {
			uint64_t how[3] = { x & 0xffffffff, y, 0 }; /* struct open_how */

			return outcome(syscall(SYS_openat2, AT_FDCWD, at, how, sizeof(how)));
		}
		return 2;
	}
	if (!strcmp(kind, "socket")) {
		long fd = syscall(SYS_socket, x, y, 0);
		int domain = -1;
		socklen_t len = sizeof(domain);

		if (fd < 0)
			return outcome(fd);
		if (getsockopt((int)fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0)
			return 2;
		printf("ok %d\n", domain);
		return 0;
	}
	if (!strcmp(kind, "socketpair")) {
		int sv[2];

		return outcome(syscall(SYS_socketpair, x, y, 0, sv));
	}
	if (!strcmp(kind, "unshare"))
		return outcome(syscall(SYS_unshare, x));
	if (!strcmp(kind, "clone")) {
		long pid = syscall(SYS_clone, x | SIGCHLD, 0, 0, 0, 0);

		if (pid == 0)
			_exit(0);
		if (pid > 0)
			waitpid((pid_t)pid, NULL, 0);
		return outcome(pid);
	}
	if (!strcmp(kind, "setns") && b) {
		char ns[64];
		int fd;

		snprintf(ns, sizeof(ns), "/proc/self/ns/%s", a);
		fd = open(ns, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return 2;
		return outcome(syscall(SYS_setns, fd, y));
	}
	return 2;
}

/* Each probe in a child, one line of output each, in order; a child that
 * fails to report prints "error". */
static int probes(int n, char **p)
{
	for (int i = 0; i < n; i++) {
		pid_t pid;
		int st;

		fflush(stdout);
		pid = fork();
		if (pid < 0)
			return 2;
		if (pid == 0) {
			int r = probe_child(p[i], i);

			fflush(stdout);
			_exit(r);
		}
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			puts("error");
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";
	const char *a = argc > 2 ? argv[2] : NULL;

	if (!strcmp(c, "mprotect-rwx"))
		return mprotect_to(PROT_READ | PROT_WRITE | PROT_EXEC);
	if (!strcmp(c, "mprotect-rx"))
		return mprotect_to(PROT_READ | PROT_EXEC);
	if (!strcmp(c, "mprotect-r"))
		return mprotect_to(PROT_READ);
	if (!strcmp(c, "mmap-wx"))
		return mmap_prot(PROT_READ | PROT_WRITE | PROT_EXEC);
	if (!strcmp(c, "mmap-rw"))
		return mmap_prot(PROT_READ | PROT_WRITE);
	if (!strcmp(c, "rie-mmap"))
		return rie_mmap();
	if (!strcmp(c, "shmat-exec"))
		return shmat_flags(SHM_EXEC);
	if (!strcmp(c, "shmat"))
		return shmat_flags(0);
	if (!strcmp(c, "personality"))
		return outcome(syscall(SYS_personality, strtoul(a, NULL, 0)));
	if (!strcmp(c, "unshare"))
		return outcome(syscall(SYS_unshare, strtoul(a, NULL, 0)));
	if (!strcmp(c, "setns"))
		return setns_to((int)strtol(a, NULL, 0));
	if (!strcmp(c, "clone3"))
		return outcome(syscall(435, NULL, 0));
	if (!strcmp(c, "probes"))
		return probes(argc - 2, argv + 2);
	if (!strcmp(c, "socket"))
		return socket_of(a, argc > 3 ? argv[3] : NULL);
	if (!strcmp(c, "socketpair")) {
		int sv[2];

		return outcome(socketpair((int)strtol(a, NULL, 0), SOCK_STREAM, 0, sv));
	}
	if (!strcmp(c, "sched"))
		return sched_to((int)strtol(a, NULL, 0));
	if (!strcmp(c, "sched_setattr")) {
		uint32_t attr[14] = { 48 }; /* size, then SCHED_OTHER, nice 0 */

		return outcome(syscall(SYS_sched_setattr, 0, attr, 0));
	}
	if (!strcmp(c, "chmod"))
		return outcome(chmod(argv[3], (mode_t)strtoul(a, NULL, 8)));
	if (!strncmp(c, "create-", 7) && a && argc > 3)
		return create(c + 7, a, argv[3]);
	fprintf(stderr, "hardening-helper: unknown call '%s'\n", c);
	return 2;
}
