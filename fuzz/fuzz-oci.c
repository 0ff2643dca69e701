/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target over the OCI JSON loader, the INI printer and the
 * exporter: an input is a JSON file; every one that loads must compile to a
 * valid program, print as INI and export (or fail cleanly). Errors are fine;
 * crashes, leaks, UB are not.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bpf-check.h"
#include "compile.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fuzz_dir[] = "/tmp/fuzz-oci-XXXXXX";
static char fuzz_path[sizeof(fuzz_dir) + 16];
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!mkdtemp(fuzz_dir))
		abort();
	snprintf(fuzz_path, sizeof(fuzz_path), "%s/fuzz.json", fuzz_dir);
	devnull = fopen("/dev/null", "we");
	if (!devnull)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct arch *native = arch_get(ARCH_X86_64);
	struct oci_options opts = { .caps = "CAP_SYS_ADMIN", .kernel_release = "6.1" };
	struct compiled c = { 0 };
	struct diag d;
	char err[128];
	FILE *f = fopen(fuzz_path, "we");

	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	if (fclose(f))
		abort();
	diag_init(&d);
	(void)oci_import(fuzz_path, native, &opts, &d, devnull);
	diag_clear(&d);
	if (compile_file(fuzz_path, native, &opts, &d, &c) < 0)
		goto out;
	if (bpf_validate(c.prog->insns, c.prog->len, err, sizeof(err)) < 0) {
		fprintf(stderr, "fuzz-oci: generated program is invalid: %s\n", err);
		abort();
	}
	(void)oci_export(c.policy, c.rs, native, &d, devnull);
out:
	diag_print(&d, "fuzz-oci", devnull);
	diag_clear(&d);
	compiled_free(&c);
	return 0;
}
