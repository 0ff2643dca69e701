/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LD_PRELOAD allocation failure for tests/oom: the FAILMALLOC_AT-th
 * allocation of the process (counted from this library's constructor, so
 * the C library's own start-up is left alone) returns NULL with ENOMEM,
 * every other one is served by the C library. When it fails one, it
 * creates the file FAILMALLOC_MARK, so the test knows the run reached it.
 * The constructor removes LD_PRELOAD from the environment: the command
 * scmp-run executes allocates normally.
 *
 * Allocations inside the C library's user and group lookups, and those
 * jansson makes, are never failed: glibc 2.36 crashes when they fail
 * (nss_database.c dereferences NULL, or asserts), jansson 2.14 asserts
 * (load.c, lex_scan_string); theirs to fix, not scmp-run's.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <link.h>
#include <pwd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);

static unsigned long fail_at, count;
static const char *mark;
static int armed, in_nss;

static int (*real_getpwnam_r)(const char *, struct passwd *, char *, size_t, struct passwd **);
static int (*real_getpwuid_r)(uid_t, struct passwd *, char *, size_t, struct passwd **);
static struct passwd *(*real_getpwnam)(const char *);
static struct passwd *(*real_getpwuid)(uid_t);
static struct group *(*real_getgrnam)(const char *);
static int (*real_getgrnam_r)(const char *, struct group *, char *, size_t, struct group **);

__attribute__((constructor)) static void failmalloc_init(void)
{
	const char *at = getenv("FAILMALLOC_AT");

	fail_at = at ? strtoul(at, NULL, 10) : 0;
	mark = getenv("FAILMALLOC_MARK");
	unsetenv("LD_PRELOAD");
	/* function pointers from dlsym()'s void * (POSIX allows it) */
	*(void **)&real_getpwnam_r = dlsym(RTLD_NEXT, "getpwnam_r");
	*(void **)&real_getpwuid_r = dlsym(RTLD_NEXT, "getpwuid_r");
	*(void **)&real_getpwnam = dlsym(RTLD_NEXT, "getpwnam");
	*(void **)&real_getpwuid = dlsym(RTLD_NEXT, "getpwuid");
	*(void **)&real_getgrnam = dlsym(RTLD_NEXT, "getgrnam");
	*(void **)&real_getgrnam_r = dlsym(RTLD_NEXT, "getgrnam_r");
	armed = 1;
}

/* Where jansson is mapped, once it is (scmp-run opens it with dlopen()). */
static uintptr_t jansson_lo, jansson_hi;

static int find_jansson(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "libjansson"))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;

		if (ph->p_type != PT_LOAD)
			continue;
		if (!jansson_lo || lo < jansson_lo)
			jansson_lo = lo;
		if (hi > jansson_hi)
			jansson_hi = hi;
	}
	return 1;
}

/* 1 if the code at address at is jansson's. */
static int in_jansson(void *at)
{
	if (!jansson_hi)
		dl_iterate_phdr(find_jansson, NULL);
	return (uintptr_t)at >= jansson_lo && (uintptr_t)at < jansson_hi;
}

/* 1 if this allocation, asked for by the code at caller, is the one to fail. */
static int fails(void *caller)
{
	static int asking; /* dl_iterate_phdr() is not asked again from inside */
	int theirs;

	if (!armed || in_nss || asking)
		return 0;
	asking = 1;
	theirs = in_jansson(caller);
	asking = 0;
	if (theirs || ++count != fail_at)
		return 0;
	if (mark) {
		int fd = open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);

		if (fd >= 0)
			close(fd);
	}
	errno = ENOMEM;
	return 1;
}

void *malloc(size_t size)
{
	return fails(__builtin_return_address(0)) ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	return fails(__builtin_return_address(0)) ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	return fails(__builtin_return_address(0)) ? NULL : __libc_realloc(p, size);
}

void *reallocarray(void *p, size_t n, size_t size)
{
	if (size && n > (size_t)-1 / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n * size);
}

void *aligned_alloc(size_t align, size_t size)
{
	return fails(__builtin_return_address(0)) ? NULL : __libc_memalign(align, size);
}

int posix_memalign(void **ret, size_t align, size_t size)
{
	void *p = fails(__builtin_return_address(0)) ? NULL : __libc_memalign(align, size);

	if (!p)
		return ENOMEM;
	*ret = p;
	return 0;
}

/* The lookups scmp-run makes, with failures off while they run: NAME with
 * the parameters PARAMS, calling the C library's with ARGS. */
#define NSS_GUARDED(type, name, params, args) \
	type name params                      \
	{                                     \
		type r;                       \
                                              \
		in_nss++;                     \
		r = real_##name args;         \
		in_nss--;                     \
		return r;                     \
	}

NSS_GUARDED(int, getpwnam_r,
	    (const char *name, struct passwd *pw, char *buf, size_t size, struct passwd **res),
	    (name, pw, buf, size, res))
NSS_GUARDED(int, getpwuid_r,
	    (uid_t uid, struct passwd *pw, char *buf, size_t size, struct passwd **res),
	    (uid, pw, buf, size, res))
NSS_GUARDED(struct passwd *, getpwnam, (const char *name), (name))
NSS_GUARDED(struct passwd *, getpwuid, (uid_t uid), (uid))
NSS_GUARDED(struct group *, getgrnam, (const char *name), (name))
NSS_GUARDED(int, getgrnam_r,
	    (const char *name, struct group *gr, char *buf, size_t size, struct group **res),
	    (name, gr, buf, size, res))
