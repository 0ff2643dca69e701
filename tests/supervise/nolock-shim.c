/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Preloaded into scmp-run by test-learn.sh: flock() fails with ENOLCK, as
 * on an NFS mount without its lock service, which a test cannot mount. */
#include <errno.h>
#include <sys/file.h>

int flock(int fd, int operation)
{
	(void)fd;
	(void)operation;
	errno = ENOLCK;
	return -1;
}
