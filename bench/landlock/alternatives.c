/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Ways to open the [landlock] paths that landlock_prepare() does not take,
 * timed against what it does (docs/performance.md, Landlock launch
 * overhead): open relative to a listed parent, O_DIRECTORY or statx to learn
 * the type, the handled mask of the ruleset, and the opens batched through
 * io_uring. Prints "what min_us median_us" per line. */
#include <fcntl.h>
#include <linux/io_uring.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../timing.h"
#include "landlock-uapi.h"

#define RUNS	  2000
#define PATHS_MAX 64
/* io_uring setup flags and fields of Linux 6.5 and 6.6 (older headers) */
#define URING_NO_MMAP	 (1U << 14)
#define URING_NO_SQARRAY (1U << 16)
#define FS_ALL		 ((LANDLOCK_ACCESS_FS_IOCTL_DEV << 1) - 1)

static void report(const char *what, double *t)
{
	double med = median(t, RUNS); /* sorts t */

	printf("%s\t%.2f\t%.2f\n", what, t[0], med);
}

static void close_all(const int *fd, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fd[i] >= 0)
			close(fd[i]);
}

/* Open path[0..n) with open(2) and flags, then close them: microseconds of
 * the opens alone. */
static double open_all(char *const *path, size_t n, int flags, int *fd)
{
	double t0 = now_us(), t;

	for (size_t i = 0; i < n; i++)
		fd[i] = open(path[i], O_PATH | O_CLOEXEC | flags);
	t = now_us() - t0;
	close_all(fd, n);
	return t;
}

/* The ring's memory, given to the kernel (IORING_SETUP_NO_MMAP). */
static unsigned char sq_mem[4096] __attribute__((aligned(4096)));
static unsigned char ring_mem[4096] __attribute__((aligned(4096)));

/* Open path[0..n) O_PATH through one io_uring_enter(); -1 where unsupported. */
static int uring_open(char **path, size_t n, int *fd)
{
	struct io_uring_params p = { .flags = URING_NO_MMAP | URING_NO_SQARRAY |
					      IORING_SETUP_SINGLE_ISSUER };
	struct io_uring_sqe *sqe = (struct io_uring_sqe *)sq_mem;
	struct io_uring_cqe *cqe;
	unsigned *sq_tail, *cq_tail;
	int ring, r = -1;

	memset(ring_mem, 0, sizeof(ring_mem));
	p.sq_off.resv2 = (uintptr_t)sq_mem; /* user_addr */
	p.cq_off.resv2 = (uintptr_t)ring_mem;
	ring = (int)syscall(__NR_io_uring_setup, 32, &p);
	if (ring < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		memset(&sqe[i], 0, sizeof(sqe[i]));
		sqe[i].opcode = IORING_OP_OPENAT;
		sqe[i].fd = AT_FDCWD;
		sqe[i].addr = (uintptr_t)path[i];
		sqe[i].open_flags = O_PATH | O_CLOEXEC;
		sqe[i].user_data = i;
	}
	sq_tail = (unsigned *)(ring_mem + p.sq_off.tail);
	__atomic_store_n(sq_tail, (unsigned)n, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, ring, n, n, IORING_ENTER_GETEVENTS, NULL, 0) != (long)n)
		goto out;
	cq_tail = (unsigned *)(ring_mem + p.cq_off.tail);
	if (__atomic_load_n(cq_tail, __ATOMIC_ACQUIRE) != n)
		goto out;
	cqe = (struct io_uring_cqe *)(ring_mem + p.cq_off.cqes);
	for (size_t i = 0; i < n; i++)
		fd[cqe[i].user_data] = cqe[i].res;
	r = 0;
out:
	close(ring);
	return r;
}

int main(int argc, char **argv)
{
	static double t[2][RUNS];
	char **path = argv + 1;
	size_t n = (size_t)argc - 1, n_dir = 0, n_sub = 0;
	int fd[PATHS_MAX], parent_fd[PATHS_MAX];
	const char *rest[PATHS_MAX];
	char *dir[PATHS_MAX], *sub[PATHS_MAX];
	struct statx sx;

	if (argc < 2 || n > PATHS_MAX) {
		fprintf(stderr, "usage: landlock-alternatives PATH... (at most %d)\n", PATHS_MAX);
		return 2;
	}
	/* directories; paths below another listed path, with that parent open */
	for (size_t i = 0; i < n; i++) {
		struct stat st;

		if (stat(path[i], &st) < 0) {
			perror(path[i]);
			return 1;
		}
		if (S_ISDIR(st.st_mode))
			dir[n_dir++] = path[i];
		for (size_t j = 0; j < n; j++) {
			size_t len = strlen(path[j]);

			if (j != i && !strncmp(path[i], path[j], len) && path[i][len] == '/') {
				parent_fd[n_sub] = open(path[j], O_PATH | O_CLOEXEC);
				rest[n_sub] = path[i] + len + 1;
				sub[n_sub++] = path[i];
				break;
			}
		}
	}

	for (size_t k = 0; k < RUNS; k++) {
		double t0 = now_us();

		for (size_t i = 0; i < n_sub; i++)
			fd[i] = openat(parent_fd[i], rest[i], O_PATH | O_CLOEXEC);
		t[0][k] = now_us() - t0;
		close_all(fd, n_sub);
		t[1][k] = open_all(sub, n_sub, 0, fd);
	}
	if (n_sub) {
		printf("# %zu paths below another listed path\n", n_sub);
		report("openat_from_parent", t[0]);
		report("open_full_path", t[1]);
	}

	for (size_t k = 0; k < RUNS; k++) {
		t[0][k] = open_all(dir, n_dir, O_DIRECTORY, fd);
		t[1][k] = open_all(dir, n_dir, 0, fd);
	}
	printf("# %zu directories\n", n_dir);
	report("open_O_DIRECTORY", t[0]);
	report("open", t[1]);

	for (size_t k = 0; k < RUNS; k++) {
		double t0 = now_us();

		for (size_t i = 0; i < n; i++)
			statx(AT_FDCWD, path[i], 0, STATX_TYPE, &sx);
		t[0][k] = now_us() - t0;
		t[1][k] = open_all(path, n, 0, fd);
	}
	printf("# %zu paths\n", n);
	report("statx", t[0]);
	report("open", t[1]);

	for (size_t k = 0; k < RUNS; k++) {
		struct landlock_ruleset_attr all = { .handled_access_fs = FS_ALL },
					     block = { .handled_access_fs =
							       LANDLOCK_ACCESS_FS_MAKE_BLOCK };
		double t0 = now_us();

		close((int)syscall(SYS_landlock_create_ruleset, &all, sizeof(all.handled_access_fs),
				   0));
		t[0][k] = now_us() - t0;
		t0 = now_us();
		close((int)syscall(SYS_landlock_create_ruleset, &block,
				   sizeof(block.handled_access_fs), 0));
		t[1][k] = now_us() - t0;
	}
	printf("# one ruleset, created and closed\n");
	report("ruleset_every_fs_right", t[0]);
	report("ruleset_make_block", t[1]);

	for (size_t k = 0; k < RUNS; k++) {
		double t0 = now_us();

		if (uring_open(path, n, fd) < 0) {
			printf("# io_uring with IORING_SETUP_NO_MMAP: not available\n");
			return 0;
		}
		t[0][k] = now_us() - t0;
		close_all(fd, n);
		t[1][k] = open_all(path, n, 0, fd);
	}
	printf("# %zu paths opened through one io_uring (setup, enter, close)\n", n);
	report("io_uring_openat", t[0]);
	report("open", t[1]);
	return 0;
}
