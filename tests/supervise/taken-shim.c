/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Preloaded into scmp-run by test-learn.sh: before the first linkat() a
 * file holding "taken" is made at its new name, as another process may
 * make one there at any time; linkat() itself is the kernel's. Makes the
 * name collision of --learn's last step happen when a test wants it. */
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int taken;

int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags)
{
	if (!taken) {
		int fd = openat(newdirfd, newpath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

		taken = 1;
		if (fd >= 0) {
			ssize_t n = write(fd, "taken\n", 6);

			(void)n; /* a short write: the test finds no "taken" */
			close(fd);
		}
	}
	return (int)syscall(SYS_linkat, olddirfd, oldpath, newdirfd, newpath, flags);
}
