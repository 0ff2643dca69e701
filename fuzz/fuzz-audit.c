/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target over --explain-audit's parser: an input is kernel log
 * text (untrusted). Every line goes through audit_parse() on an exact-size
 * copy (a read past the end is a crash), every record it accepts must be
 * well-formed and is explained against a profile with conditional rules.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "audit.h"
#include "compile.h"
#include "diag.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Rules that give every kind of explanation: unconditional, conditional,
 * through a multiplexer, default, unknown syscall, other ABIs. */
static const char profile_text[] = "[filter]\n"
				   "default-action = errno(EPERM)\n"
				   "unknown-syscall-action = errno(ENOSYS)\n"
				   "architectures = native x86 x32\n"
				   "log = yes\n"
				   "[allow]\n"
				   "syscalls = read write close exit_group\n"
				   "socket = family == AF_UNIX\n"
				   "[errno(EAFNOSUPPORT)]\n"
				   "socket = family != AF_UNIX\n"
				   "[kill-process]\n"
				   "syscalls = mkdir ptrace\n"
				   "[log]\n"
				   "syscalls = uname\n"
				   "[trap]\n"
				   "syscalls = kexec_load\n";

static char dir[] = "/tmp/fuzz-audit-XXXXXX";
static char input_path[sizeof(dir) + 16];
static struct compiled compiled;
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[sizeof(dir) + 16];
	struct diag d;
	FILE *f;

	(void)argc;
	(void)argv;
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/p.ini", dir);
	snprintf(input_path, sizeof(input_path), "%s/input", dir);
	f = fopen(path, "we");
	if (!f ||
	    fwrite(profile_text, 1, sizeof(profile_text) - 1, f) != sizeof(profile_text) - 1 ||
	    fclose(f))
		abort();
	diag_init(&d);
	if (compile_file(path, arch_native(), NULL, &d, &compiled) < 0) {
		diag_print(&d, "fuzz-audit", stderr);
		abort();
	}
	diag_clear(&d);
	devnull = fopen("/dev/null", "we");
	if (!devnull)
		abort();
	return 0;
}

/* What audit_parse() promises about a record it accepts. */
static void check_record(const struct audit_rec *r)
{
	size_t len = strnlen(r->comm, sizeof(r->comm));

	if (len == sizeof(r->comm)) {
		fprintf(stderr, "fuzz-audit: comm is not terminated\n");
		abort();
	}
}

/* The explanation of r, shown to a terminal: the name is kept as logged and
 * escaped there, so no control byte but the line ends may come out. */
static void check_explained(const struct audit_rec *r)
{
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	if (!out)
		abort();
	audit_explain(compiled.policy, r, out);
	if (fclose(out))
		abort();
	for (size_t i = 0; i < size; i++)
		if (((unsigned char)text[i] < 0x20 && text[i] != '\n') || text[i] == 0x7f) {
			fprintf(stderr, "fuzz-audit: explanation byte %zu is 0x%02x\n", i,
				(unsigned char)text[i]);
			abort();
		}
	free(text);
}

/* One line, copied to a buffer of exactly its size. */
static void one_line(const uint8_t *line, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);
	struct audit_rec r, again;
	int ret;

	if (!copy)
		abort();
	memcpy(copy, line, len);
	memset(&r, 0xa5, sizeof(r));
	ret = audit_parse((const char *)copy, len, &r);
	if (ret != 1 && ret != 0 && ret != -EINVAL && ret != -E2BIG && ret != -EBADMSG) {
		fprintf(stderr, "fuzz-audit: audit_parse returned %d\n", ret);
		abort();
	}
	if (ret == 1) {
		check_record(&r);
		/* the same line, the same record */
		memset(&again, 0, sizeof(again));
		if (audit_parse((const char *)copy, len, &again) != 1 || again.arch != r.arch ||
		    again.nr != r.nr || again.code != r.code || again.has_pid != r.has_pid ||
		    (r.has_pid && again.pid != r.pid) || strcmp(again.comm, r.comm)) {
			fprintf(stderr, "fuzz-audit: a second parse differs\n");
			abort();
		}
		check_explained(&r);
	}
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag d;
	size_t start = 0;
	FILE *f;

	/* line by line, as the reader splits them */
	for (size_t i = 0; i <= size; i++)
		if (i == size || data[i] == '\n') {
			if (i > start || i < size)
				one_line(data + start, i - start);
			start = i + 1;
		}

	/* and the whole input through the file reader */
	f = fopen(input_path, "we");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		abort();
	diag_init(&d);
	if (audit_explain_file(compiled.policy, input_path, devnull, &d) < 0 && !diag_failed(&d)) {
		fprintf(stderr, "fuzz-audit: a failure without an error\n");
		abort();
	}
	diag_print(&d, "fuzz-audit", devnull);
	diag_clear(&d);
	return 0;
}
