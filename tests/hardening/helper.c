/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Makes one call that a [hardening] preset decides and prints its outcome:
 * "ok" or the errno name. Usage: hardening-helper CALL [ARG...] (see
 * main()), or hardening-helper probes PROBE... (see probe_child()).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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

/* Where a probe's call points: one page below 4 GiB (i386 reads 32-bit
 * pointers): the call's own data, the file the calls of a mode make, and
 * the directory O_TMPFILE opens. */
struct low {
	uint32_t args[16]; /* socketcall's arguments; socketpair's pair at [8] */
	uint64_t how[3];   /* struct open_how (linux/openat2.h) */
	char data[64];	   /* sched_param, sched_attr, a /proc/self/ns path */
	char path[PATH_MAX];
	char dir[PATH_MAX];
};

/* socket(FAMILY, TYPE, 0), or through i386's socketcall (via): "ok" (with
 * the domain of the socket made when domain is set: it is not the family
 * asked for with AF_INET and SOCK_PACKET), or the errno name. */
static int probe_socket(const struct pcall *c, unsigned long x, unsigned long y, bool via,
			bool domain, struct low *low)
{
	int made = -1;
	socklen_t len = sizeof(made);
	long fd;

	low->args[0] = (uint32_t)x, low->args[1] = (uint32_t)y, low->args[2] = 0;
	fd = via ? int80(I386_SOCKETCALL, 1, (long)(uintptr_t)low->args, 0, 0, 0)
		 : pcall(c, (long)x, (long)y, 0, 0, 0);
	if (fd < 0 || !domain)
		return outcome(fd);
	if (getsockopt((int)fd, SOL_SOCKET, SO_DOMAIN, &made, &len) < 0)
		return 2;
	printf("ok %d\n", made);
	return 0;
}

static int probe_socketpair(const struct pcall *c, unsigned long x, unsigned long y, bool via,
			    struct low *low)
{
	uint32_t *sv = low->args + 8;

	low->args[0] = (uint32_t)x, low->args[1] = (uint32_t)y, low->args[2] = 0;
	low->args[3] = (uint32_t)(uintptr_t)sv;
	return outcome(via ? int80(I386_SOCKETCALL, 8, (long)(uintptr_t)low->args, 0, 0, 0)
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

static int probe_setns(const struct pcall *c, const char *type, unsigned long y, struct low *low)
{
	int fd;

	snprintf(low->data, sizeof(low->data), "/proc/self/ns/%s", type);
	fd = open(low->data, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 2;
	return outcome(pcall(c, fd, (long)y, 0, 0, 0));
}

/* The calls of a mode, on low->path: the chmod calls make it first, with
 * mode 0600; O_TMPFILE in the open calls' flags opens low->dir instead. */
static int probe_mode(const struct pcall *c, const char *kind, unsigned long x, unsigned long y,
		      struct low *low)
{
	long path = (long)(uintptr_t)low->path;

	if (strstr(kind, "chmod")) {
		int fd = open(low->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

		if (fd < 0)
			return 2;
		if (!strcmp(kind, "fchmod"))
			return outcome(pcall(c, fd, (long)x, 0, 0, 0));
		if (!strcmp(kind, "chmod"))
			return outcome(pcall(c, path, (long)x, 0, 0, 0));
		return outcome(pcall(c, AT_FDCWD, path, (long)x, 0, 0));
	}
	if (!strcmp(kind, "creat"))
		return outcome(pcall(c, path, (long)x, 0, 0, 0));
	if (!strcmp(kind, "mknod"))
		return outcome(pcall(c, path, (long)(S_IFREG | x), 0, 0, 0));
	if (!strcmp(kind, "mknodat"))
		return outcome(pcall(c, AT_FDCWD, path, (long)(S_IFREG | x), 0, 0));
	if ((x & O_TMPFILE) == O_TMPFILE)
		path = (long)(uintptr_t)low->dir;
	if (!strcmp(kind, "open"))
		return outcome(pcall(c, path, (long)x, (long)y, 0, 0));
	if (!strcmp(kind, "openat"))
		return outcome(pcall(c, AT_FDCWD, path, (long)x, (long)y, 0));
	low->how[0] = x & 0xffffffff, low->how[1] = y, low->how[2] = 0;
	return outcome(pcall(c, AT_FDCWD, path, (long)(uintptr_t)low->how, sizeof(low->how), 0));
}

/* mmap:PROT (anonymous, private), mprotect:PROT and pkey_mprotect:PROT (of
 * a fresh read-write mapping), shmat:SHMFLG (a fresh segment, mode 0700:
 * SHM_EXEC needs x). */
static int probe_memory(const struct pcall *c, const char *kind, unsigned long x)
{
	void *p;
	int id, e;
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
	e = errno;
	shmctl(id, IPC_RMID, NULL);
	errno = e;
	return outcome(r);
}

/* One call of kind (a name of probe_nrs[]) on i386 (abi32) or x86_64, with
 * a (its text) and x, y (as numbers) and the file path and directory dir
 * of the calls of a mode; via: i386's socketcall. Prints its outcome as
 * outcome() does. */
static int probe_run(bool abi32, bool via, const char *kind, const char *a, unsigned long x,
		     unsigned long y, const char *path, const char *dir)
{
	struct pcall c = { abi32, -1 };
	struct low *low;

	for (size_t k = 0; k < sizeof(probe_nrs) / sizeof(probe_nrs[0]); k++)
		if (!strcmp(kind, probe_nrs[k].kind))
			c.nr = abi32 ? probe_nrs[k].nr32 : probe_nrs[k].nr64;
	low = mmap(NULL, sizeof(*low), PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (c.nr < 0 || low == MAP_FAILED)
		return 2;
	snprintf(low->path, sizeof(low->path), "%s", path);
	snprintf(low->dir, sizeof(low->dir), "%s", dir);
	if (!strcmp(kind, "socket"))
		return probe_socket(&c, x, y, via, true, low);
	if (!strcmp(kind, "socketpair"))
		return probe_socketpair(&c, x, y, via, low);
	if (!strcmp(kind, "unshare") || !strcmp(kind, "personality"))
		return outcome(pcall(&c, (long)x, 0, 0, 0, 0));
	if (!strcmp(kind, "clone"))
		return probe_clone(&c, x);
	if (!strcmp(kind, "setns"))
		return probe_setns(&c, a, y, low);
	if (!strcmp(kind, "sched")) {
		memcpy(low->data, &(struct sched_param){ .sched_priority = (int)y },
		       sizeof(struct sched_param));
		return outcome(pcall(&c, 0, (long)x, (long)(uintptr_t)low->data, 0, 0));
	}
	if (!strcmp(kind, "sched_setattr")) {
		memcpy(low->data, (uint32_t[]){ 48 }, 4); /* size, then SCHED_OTHER, nice 0 */
		return outcome(pcall(&c, 0, (long)(uintptr_t)low->data, 0, 0, 0));
	}
	if (strstr(kind, "mmap") || strstr(kind, "mprotect") || !strcmp(kind, "shmat"))
		return probe_memory(&c, kind, x);
	return probe_mode(&c, kind, x, y, low);
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
 * probe's index i, O_TMPFILE the directory itself. With the prefix "x86-"
 * the call is i386's (int $0x80), with "x86sc-" (socket and socketpair)
 * i386's socketcall(2). Prints "ok" (socket: "ok DOMAIN") or the errno
 * name. */
static int probe_child(char *p, int i)
{
	char *kind = strtok(p, ":"), *a = strtok(NULL, ":"), *b = strtok(NULL, ":");
	bool abi32 = false, via = false;
	char path[32];

	if (!kind || !a)
		return 2;
	if (!strncmp(kind, "x86-", 4) || !strncmp(kind, "x86sc-", 6)) {
		via = kind[3] == 's';
		kind += via ? 6 : 4;
		abi32 = true;
	}
	if (!strcmp(kind, "setns") && !b)
		return 2;
	snprintf(path, sizeof(path), "f%d", i);
	return probe_run(abi32, via, kind, a, strtoul(a, NULL, 0), b ? strtoul(b, NULL, 0) : 0,
			 path, ".");
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

/* create-CALL MODE PATH (mode in octal): a file made with a mode at PATH
 * (tmpfile: unnamed, in the directory PATH), O_CREAT for the open calls;
 * the descriptor made is left to exit. */
static int create(const char *call, const char *mode_text, const char *path)
{
	unsigned long mode = strtoul(mode_text, NULL, 8);
	const unsigned long wr = O_WRONLY | O_CLOEXEC;

	if (!strcmp(call, "tmpfile"))
		return probe_run(false, false, "openat", NULL, O_TMPFILE | wr, mode, path, path);
	if (!strncmp(call, "open", 4))
		return probe_run(false, false, call, NULL, O_CREAT | wr, mode, path, path);
	return probe_run(false, false, call, NULL, mode, 0, path, path);
}

/* One call on x86_64, as probe_run() makes it. */
static int native(const char *kind, unsigned long x, unsigned long y)
{
	return probe_run(false, false, kind, NULL, x, y, "", "");
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";
	const char *a = argc > 2 ? argv[2] : NULL;
	unsigned long x = a ? strtoul(a, NULL, 0) : 0;

	if (!strcmp(c, "mprotect-rwx"))
		return native("mprotect", PROT_READ | PROT_WRITE | PROT_EXEC, 0);
	if (!strcmp(c, "mprotect-rx"))
		return native("mprotect", PROT_READ | PROT_EXEC, 0);
	if (!strcmp(c, "mprotect-r"))
		return native("mprotect", PROT_READ, 0);
	if (!strcmp(c, "mmap-wx"))
		return native("mmap", PROT_READ | PROT_WRITE | PROT_EXEC, 0);
	if (!strcmp(c, "mmap-rw"))
		return native("mmap", PROT_READ | PROT_WRITE, 0);
	if (!strcmp(c, "rie-mmap"))
		return rie_mmap();
	if (!strcmp(c, "shmat-exec"))
		return native("shmat", SHM_EXEC, 0);
	if (!strcmp(c, "shmat"))
		return native("shmat", 0, 0);
	if (!strcmp(c, "personality") || !strcmp(c, "unshare"))
		return native(c, x, 0);
	if (!strcmp(c, "setns")) /* setns NSTYPE: a descriptor of the net namespace */
		return probe_run(false, false, "setns", "net", 0, x, "", "");
	if (!strcmp(c, "clone3"))
		return outcome(syscall(435, NULL, 0));
	if (!strcmp(c, "probes"))
		return probes(argc - 2, argv + 2);
	if (!strcmp(c, "socket") && argc > 3) /* socket FAMILY TYPE: "ok DOMAIN" */
		return native("socket", x, strtoul(argv[3], NULL, 0));
	if (!strcmp(c, "socket")) { /* socket FAMILY: a stream socket, "ok" */
		struct pcall sc = { false, SYS_socket };
		struct low scratch;

		return probe_socket(&sc, x, SOCK_STREAM, false, false, &scratch);
	}
	if (!strcmp(c, "socketpair"))
		return native("socketpair", x, SOCK_STREAM);
	if (!strcmp(c, "sched")) { /* sched POLICY, priority 1 for the real-time ones */
		unsigned long p = x & ~(unsigned long)SCHED_RESET_ON_FORK;

		return native("sched", x, p == SCHED_FIFO || p == SCHED_RR);
	}
	if (!strcmp(c, "sched_setattr"))
		return native("sched_setattr", 0, 0);
	if (!strcmp(c, "chmod"))
		return outcome(chmod(argv[3], (mode_t)strtoul(a, NULL, 8)));
	if (!strncmp(c, "create-", 7) && a && argc > 3)
		return create(c + 7, a, argv[3]);
	fprintf(stderr, "hardening-helper: unknown call '%s'\n", c);
	return 2;
}
