/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Preloaded into scmp-run by test-learn.sh: fsync() fails with EIO, as
 * when a disk fails a write back, which a test cannot make it do. */
#include <errno.h>
#include <unistd.h>

int fsync(int fd)
{
	(void)fd;
	errno = EIO;
	return -1;
}
