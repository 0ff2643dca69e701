/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Test helper exec'd by scmp-run: prints the caller state it got: its open
 * descriptors, SigIgn and SigBlk, its parent-death signal, the value of the
 * user key "scmp-run-test" its session keyring holds (keyplant.py), and the
 * environment variables named. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* keyctl(2) operations and the session keyring's id (linux/keyctl.h) */
#define KEYCTL_SEARCH		 10
#define KEYCTL_READ		 11
#define KEY_SPEC_SESSION_KEYRING (-3)

/* The key's value, or "none" with the errno name of the search. */
static void print_session_key(void)
{
	char value[64];
	long key = syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_SESSION_KEYRING, "user",
			   "scmp-run-test", 0);
	long n = key < 0 ? -1 : syscall(SYS_keyctl, KEYCTL_READ, key, value, sizeof(value) - 1);

	if (n < 0) {
		printf("session-key: none (%s)\n", strerrorname_np(errno));
		return;
	}
	value[n < (long)sizeof(value) ? n : (long)sizeof(value) - 1] = 0;
	printf("session-key: %s\n", value);
}

int main(int argc, char **argv)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *de;
	char line[256];
	int pdeath = -1;
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
	if (prctl(PR_GET_PDEATHSIG, &pdeath, 0, 0, 0) < 0)
		return 1;
	printf("pdeathsig: %d\n", pdeath);
	print_session_key();
	for (int i = 1; i < argc; i++) {
		const char *v = getenv(argv[i]);

		printf("%s=%s\n", argv[i], v ? v : "(unset)");
	}
	return 0;
}
