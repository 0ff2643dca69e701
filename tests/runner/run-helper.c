/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Test helper exec'd under run_exec(): reports what getppid() returns (to
 * prove the filter is live), then copies /proc/self/status to stdout. */
#include <errno.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	char buf[4096];
	size_t n;
	long r;
	FILE *f;

	errno = 0;
	r = syscall(SYS_getppid);
	printf("getppid=%ld errno=%d\n", r < 0 ? -1L : 1L, r < 0 ? errno : 0);
	f = fopen("/proc/self/status", "r");
	if (!f) {
		perror("run-helper: /proc/self/status");
		return 1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
	return fflush(stdout) == 0 ? 0 : 1;
}
