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

/* The calls the probes make, by their number on x86_64 and on i386 (the
 * kernel's arch/x86/entry/syscalls/syscall_32.tbl; written out, since
 * <asm/unistd_32.h> cannot be included beside the x86_64 names). */
static const struct {
	const char *kind;
	long nr64, nr32;
} probe_nrs[] = {
	{ "socket", SYS_socket, 359 },
	{ "socketpair", SYS_socketpair, 360 },
	{ "unshare", SYS_unshare, 310 },
	{ "clone", SYS_clone, 120 },
	{ "setns", SYS_setns, 346 },
	{ "sched", SYS_sched_setscheduler, 156 },
	{ "sched_setattr", SYS_sched_setattr, 351 },
	{ "personality", SYS_personality, 136 },
	{ "chmod", SYS_chmod, 15 },
	{ "fchmod", SYS_fchmod, 94 },
	{ "fchmodat", SYS_fchmodat, 306 },
	{ "fchmodat2", 452, 452 },
	{ "creat", SYS_creat, 8 },
	{ "mknod", SYS_mknod, 14 },
	{ "mknodat", SYS_mknodat, 297 },
	{ "open", SYS_open, 5 },
	{ "openat", SYS_openat, 295 },
	{ "openat2", SYS_openat2, 437 },
	{ "mmap", SYS_mmap, -1 }, /* i386's passes its arguments in memory */
	{ "mprotect", SYS_mprotect, 125 },
	{ "pkey_mprotect", SYS_pkey_mprotect, 380 },
	{ "shmat", SYS_shmat, 397 },
};

#define I386_SOCKETCALL 102 /* socketcall(2): SYS_SOCKET 1, SYS_SOCKETPAIR 8 */

/* The i386 system call nr from this x86_64 process (int $0x80: the kernel
 * runs it as a 32-bit call, and the filter sees AUDIT_ARCH_I386); pointers
 * must be below 4 GiB. */
static long int80(long nr, long a, long b, long c, long d, long e)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
			 : "memory", "r8", "r9", "r10", "r11");
	if (ret < 0 && ret > -4096) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

/* The probe's call on one ABI (i386: abi32). */
struct pcall {
	bool abi32;
	long nr;
};

static long pcall(const struct pcall *c, long a, long b, long c3, long d, long e)
{
	return c->abi32 ? int80(c->nr, a, b, c3, d, e) : syscall(c->nr, a, b, c3, d, e);
}

/* socket(FAMILY, TYPE, 0), or through i386's socketcall (via = 1): "ok"
 * and the domain of the socket made, or the errno name. */
static int probe_socket(const struct pcall *c, unsigned long x, unsigned long y, bool via,
			uint32_t *low)
{
	int domain = -1;
	socklen_t len = sizeof(domain);
	long fd;

	low[0] = (uint32_t)x, low[1] = (uint32_t)y, low[2] = 0;
	fd = via ? int80(I386_SOCKETCALL, 1, (long)(uintptr_t)low, 0, 0, 0)
		 : pcall(c, (long)x, (long)y, 0, 0, 0);
	if (fd < 0)
		return outcome(fd);
	if (getsockopt((int)fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0)
		return 2;
	printf("ok %d\n", domain);
	return 0;
}

static int probe_socketpair(const struct pcall *c, unsigned long x, unsigned long y, bool via,
			    uint32_t *low)
{
	int *sv = (int *)(low + 8);

	low[0] = (uint32_t)x, low[1] = (uint32_t)y, low[2] = 0;
	low[3] = (uint32_t)(uintptr_t)sv;
	return outcome(via ? int80(I386_SOCKETCALL, 8, (long)(uintptr_t)low, 0, 0, 0)
			   : pcall(c, (long)x, (long)y, 0, (long)(uintptr_t)sv, 0));
}

static int probe_clone(const struct pcall *c, unsigned long x)
{
	long pid = pcall(c, (long)(x | SIGCHLD), 0, 0, 0, 0);

	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid((pid_t)pid, NULL, 0);
	return outcome(pid);
}

static int probe_setns(const struct pcall *c, const char *type, unsigned long y, char *low)
{
	int fd;

	snprintf(low, 64, "/proc/self/ns/%s", type);
	fd = open(low, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 2;
	return outcome(pcall(c, fd, (long)y, 0, 0, 0));
}

/* The calls of a mode, on the file path (in low memory): the chmod calls
 * make it first, with mode 0600; O_TMPFILE in the open calls' flags opens
 * the directory "." instead. */
static int probe_mode(const struct pcall *c, const char *kind, unsigned long x, unsigned long y,
		      char *path)
{
	char *dot = path + 64;
	uint64_t *how = (uint64_t *)(path + 128); /* struct open_how */

	strcpy(dot, ".");
	if (strstr(kind, "chmod")) {
		int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

		if (fd < 0)
			return 2;
		if (!strcmp(kind, "fchmod"))
			return outcome(pcall(c, fd, (long)x, 0, 0, 0));
		if (!strcmp(kind, "chmod"))
			return outcome(pcall(c, (long)(uintptr_t)path, (long)x, 0, 0, 0));
		return outcome(pcall(c, AT_FDCWD, (long)(uintptr_t)path, (long)x, 0, 0));
	}
	if (!strcmp(kind, "creat"))
		return outcome(pcall(c, (long)(uintptr_t)path, (long)x, 0, 0, 0));
	if (!strcmp(kind, "mknod"))
		return outcome(pcall(c, (long)(uintptr_t)path, (long)(S_IFREG | x), 0, 0, 0));
	if (!strcmp(kind, "mknodat"))
		return outcome(
			pcall(c, AT_FDCWD, (long)(uintptr_t)path, (long)(S_IFREG | x), 0, 0));
	if ((x & O_TMPFILE) == O_TMPFILE)
		path = dot;
	if (!strcmp(kind, "open"))
		return outcome(pcall(c, (long)(uintptr_t)path, (long)x, (long)y, 0, 0));
	if (!strcmp(kind, "openat"))
		return outcome(pcall(c, AT_FDCWD, (long)(uintptr_t)path, (long)x, (long)y, 0));
	how[0] = x & 0xffffffff, how[1] = y, how[2] = 0;
	return outcome(pcall(c, AT_FDCWD, (long)(uintptr_t)path, (long)(uintptr_t)how, 24, 0));
}

/* mmap:PROT (anonymous, private), mprotect:PROT and pkey_mprotect:PROT (of
 * a fresh read-write mapping), shmat:SHMFLG (a fresh segment, mode 0700). */
static int probe_memory(const struct pcall *c, const char *kind, unsigned long x)
{
	void *p;
	int id;
	long r;

	if (!strcmp(kind, "mmap")) /* six arguments: x86_64 only */
		return outcome(syscall(c->nr, 0, 4096, x, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
	if (strstr(kind, "mprotect")) {
		p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return 2;
		return outcome(pcall(c, (long)(uintptr_t)p, 4096, (long)x, -1, 0));
	}
	id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0700);
	if (id < 0)
		return 2;
	r = pcall(c, id, 0, (long)x, 0, 0);
	shmctl(id, IPC_RMID, NULL);
	return outcome(r);
}

/* One probe of the random test (random.py), made in a child of its own so
 * that a namespace it enters or a socket it opens is gone for the next:
 *   socket:FAMILY:TYPE  socketpair:FAMILY:TYPE   (64-bit values: the kernel
 *                                                 reads the low 32 bits)
 *   unshare:FLAGS  clone:FLAGS                  (clone adds SIGCHLD)
 *   setns:TYPE:NSTYPE                           (an fd of /proc/self/ns/TYPE)
 *   sched:POLICY:PRIORITY  sched_setattr:0       (on the child itself)
 *   personality:VALUE
 *   chmod:MODE  fchmod:MODE  fchmodat:MODE  fchmodat2:MODE  creat:MODE
 *   mknod:MODE  mknodat:MODE  (a regular file)
 *   open:FLAGS:MODE  openat:FLAGS:MODE  openat2:FLAGS:MODE
 *   mmap:PROT  mprotect:PROT  pkey_mprotect:PROT  shmat:SHMFLG
 * The calls of a mode use a file of the current directory named after the
 * probe's index i. With the prefix "x86-" the call is i386's (int $0x80),
 * with "x86sc-" (socket and socketpair) i386's socketcall(2). Prints "ok"
 * (socket: "ok DOMAIN") or the errno name. */
static int probe_child(char *p, int i)
{
	char *kind = strtok(p, ":"), *a = strtok(NULL, ":"), *b = strtok(NULL, ":");
	unsigned long x = a ? strtoul(a, NULL, 0) : 0, y = b ? strtoul(b, NULL, 0) : 0;
	struct pcall c = { false, -1 };
	bool via = false;
	char *low;

	if (!kind || !a)
		return 2;
	if (!strncmp(kind, "x86-", 4) || !strncmp(kind, "x86sc-", 6)) {
		via = kind[3] == 's';
		kind += via ? 6 : 4;
		c.abi32 = true;
	}
	for (size_t k = 0; k < sizeof(probe_nrs) / sizeof(probe_nrs[0]); k++)
		if (!strcmp(kind, probe_nrs[k].kind))
			c.nr = c.abi32 ? probe_nrs[k].nr32 : probe_nrs[k].nr64;
	/* what the calls point at, below 4 GiB for i386 */
	low = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1,
		   0);
	if (c.nr < 0 || low == MAP_FAILED)
		return 2;
	snprintf(low + 256, 64, "f%d", i);
	if (!strcmp(kind, "socket"))
		return probe_socket(&c, x, y, via, (uint32_t *)low);
	if (!strcmp(kind, "socketpair"))
		return probe_socketpair(&c, x, y, via, (uint32_t *)low);
	if (!strcmp(kind, "unshare"))
		return outcome(pcall(&c, (long)x, 0, 0, 0, 0));
	if (!strcmp(kind, "clone"))
		return probe_clone(&c, x);
	if (!strcmp(kind, "setns") && b)
		return probe_setns(&c, a, y, low);
	if (!strcmp(kind, "sched")) {
		memcpy(low, &(struct sched_param){ .sched_priority = (int)y },
		       sizeof(struct sched_param));
		return outcome(pcall(&c, 0, (long)x, (long)(uintptr_t)low, 0, 0));
	}
	if (!strcmp(kind, "sched_setattr")) {
		memcpy(low, (uint32_t[]){ 48 }, 4); /* size, then SCHED_OTHER, nice 0 */
		return outcome(pcall(&c, 0, (long)(uintptr_t)low, 0, 0, 0));
	}
	if (!strcmp(kind, "personality"))
		return outcome(pcall(&c, (long)x, 0, 0, 0, 0));
	if (strstr(kind, "mmap") || strstr(kind, "mprotect") || !strcmp(kind, "shmat"))
		return probe_memory(&c, kind, x);
	return probe_mode(&c, kind, x, y, low + 256);
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
