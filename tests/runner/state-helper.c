/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Test helper exec'd by scmp-run: prints the caller state it got: its open
 * descriptors, SigIgn and SigBlk, and the environment variables named. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *de;
	char line[256];
	FILE *f;

	if (!dir)
		return 1;
	printf("fds:");
	while ((de = readdir(dir)))
		if (de->d_name[0] != '.' && atoi(de->d_name) != dirfd(dir))
			printf(" %s", de->d_name);
	printf("\n");
	closedir(dir);
	f = fopen("/proc/self/status", "r");
	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "SigIgn:", 7) || !strncmp(line, "SigBlk:", 7))
			fputs(line, stdout);
	fclose(f);
	for (int i = 1; i < argc; i++) {
		const char *v = getenv(argv[i]);

		printf("%s=%s\n", argv[i], v ? v : "(unset)");
	}
	return 0;
}
