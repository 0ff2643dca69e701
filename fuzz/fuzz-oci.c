/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target over the OCI JSON loader, the INI printer and the
 * exporter: an input is a JSON file; every one that loads must compile to a
 * valid program, print as INI and export (or fail cleanly), and what it
 * exports must load and export again to the same JSON (scmp-run(1),
 * --export-oci). Errors are fine; crashes, leaks, UB are not.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf-check.h"
#include "compile.h"
#include "memstream.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char fuzz_dir[] = "/tmp/fuzz-oci-XXXXXX";
static char fuzz_path[sizeof(fuzz_dir) + 16];
static char again_path[sizeof(fuzz_dir) + 16];
static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!mkdtemp(fuzz_dir))
		abort();
	snprintf(fuzz_path, sizeof(fuzz_path), "%s/fuzz.json", fuzz_dir);
	snprintf(again_path, sizeof(again_path), "%s/again.json", fuzz_dir);
	devnull = fopen("/dev/null", "we");
	if (!devnull)
		abort();
	return 0;
}

static void write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "we");

	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f))
		abort();
}

/* c exported: the JSON text, or NULL when the export refuses c. */
static char *export_text(const struct compiled *c, const struct arch *native, struct diag *d)
{
	char *text;
	FILE *m = memstream_open(&text);
	int r;

	if (!m)
		abort();
	r = oci_export(c->policy, c->rs, native, d, m);
	if (memstream_close(m, &text) < 0)
		abort();
	if (r < 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* The exported JSON read back: it must load and export to the same text. */
static void check_round_trip(const char *json, const struct arch *native,
			     const struct oci_options *opts)
{
	struct compiled c = { 0 };
	struct diag d;
	char *again;

	write_file(again_path, json, strlen(json));
	diag_init(&d);
	if (compile_file(again_path, native, opts, &d, &c) < 0) {
		diag_print(&d, "fuzz-oci", stderr);
		fprintf(stderr, "fuzz-oci: the export does not load again:\n%s\n", json);
		abort();
	}
	again = export_text(&c, native, &d);
	if (!again || strcmp(again, json)) {
		diag_print(&d, "fuzz-oci", stderr);
		fprintf(stderr, "fuzz-oci: the export exports differently:\n%s\n---\n%s\n", json,
			again ? again : "(refused)");
		abort();
	}
	free(again);
	diag_clear(&d);
	compiled_free(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct arch *native = arch_get(ARCH_X86_64);
	struct oci_options opts = { .caps = "CAP_SYS_ADMIN", .kernel_release = "6.1" };
	struct compiled c = { 0 };
	struct diag d;
	char err[128], *json;

	write_file(fuzz_path, data, size);
	diag_init(&d);
	(void)oci_import(fuzz_path, native, &opts, &d, devnull);
	diag_clear(&d);
	if (compile_file(fuzz_path, native, &opts, &d, &c) < 0)
		goto out;
	if (bpf_validate(c.prog->insns, c.prog->len, err, sizeof(err)) < 0) {
		fprintf(stderr, "fuzz-oci: generated program is invalid: %s\n", err);
		abort();
	}
	json = export_text(&c, native, &d);
	if (json)
		check_round_trip(json, native, &opts);
	free(json);
out:
	diag_print(&d, "fuzz-oci", devnull);
	diag_clear(&d);
	compiled_free(&c);
	return 0;
}
