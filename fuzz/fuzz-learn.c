/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target over --learn: an input is the calls a sandboxed program
 * makes on x86_64 (on x86_64, x86 or x32, any number, any registers; a
 * clone3() with its flags as if read from its memory). They are recorded,
 * the profile is written and compiled again, and it must do what
 * scmp-run(1) WRITING A PROFILE FOR A PROGRAM promises: compile, give back
 * every record when read (learn_load()) and be written again the same, and
 * allow every call seen (but what a built-in rule denies), by the rules
 * and by the program, and no call with other decisive arguments that was
 * not seen.
 */
#include <linux/seccomp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "bpf.h"
#include "compile.h"
#include "diag.h"
#include "learn.h"
#include "memstream.h"
#include "policy.h"
#include "sim.h"
#include "syscalls.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CALLS_MAX 64 /* calls per input */

struct call {
	const struct arch *abi;
	uint32_t nr;
	uint64_t args[SYSCALL_ARGS_MAX];
};

static char fuzz_dir[] = "/tmp/fuzz-learn-XXXXXX";
static char fuzz_path[sizeof(fuzz_dir) + 16];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!mkdtemp(fuzz_dir))
		abort();
	snprintf(fuzz_path, sizeof(fuzz_path), "%s/learned.ini", fuzz_dir);
	return 0;
}

/*
 * One call: a byte (the ABI: x86_64, x86, x32; bit 2: clone3 on it), the
 * number in two bytes (x32's with its bit, as seccomp shows it), a byte
 * whose bits say which registers follow, eight bytes each (the rest 0).
 * Returns the bytes used, 0 at the end of the input.
 */
static size_t parse_call(const uint8_t *p, size_t size, struct call *c, bool *clone3)
{
	static const enum arch_id abis[] = { ARCH_X86_64, ARCH_X86, ARCH_X32, ARCH_X86_64 };
	size_t used = 4;

	if (size < used)
		return 0;
	memset(c, 0, sizeof(*c));
	c->abi = arch_get(abis[p[0] & 3]);
	*clone3 = p[0] & 4;
	c->nr = c->abi->nr_base + (uint32_t)(p[1] | p[2] << 8);
	for (unsigned i = 0; i < SYSCALL_ARGS_MAX; i++) {
		if (!(p[3] & (1u << i)))
			continue;
		if (size - used < sizeof(c->args[i]))
			break;
		memcpy(&c->args[i], p + used, sizeof(c->args[i]));
		used += sizeof(c->args[i]);
	}
	if (*clone3) {
		uint32_t nr;

		if (syscalls_lookup_name(c->abi, "clone3", &nr) < 0)
			*clone3 = false;
		else
			c->nr = nr;
	}
	return used;
}

/* Record c as the supervisor does (supervise.c, learn_call()): a clone3()
 * as the clone() with its flags (the first register here). Afterwards c
 * is the call the profile must allow. */
static int record(struct learn *l, struct call *c, bool clone3)
{
	int r;

	if (!clone3)
		return learn_record(l, c->abi, c->nr, c->args);
	r = learn_record_clone3(l, c->abi, c->args[0]);
	if (syscalls_lookup_name(c->abi, "clone", &c->nr) < 0)
		abort(); /* x86 ABIs all have clone */
	/* clone's flags are its first argument on x86 */
	memset(c->args + 1, 0, sizeof(c->args) - sizeof(c->args[0]));
	return r;
}

static bool is_exit(const struct arch *a, uint32_t nr)
{
	const char *name = syscalls_lookup_nr(a, nr);

	return name && (!strcmp(name, "exit") || !strcmp(name, "exit_group"));
}

static void fail(const char *what, const struct call *c, const char *text)
{
	fprintf(stderr, "fuzz-learn: %s\n", what);
	if (c) {
		const char *name = syscalls_lookup_nr(c->abi, c->nr);

		fprintf(stderr, "  %s %u (%s) args %#llx %#llx %#llx\n", c->abi->name, c->nr,
			name ? name : "no name", (unsigned long long)c->args[0],
			(unsigned long long)c->args[1], (unsigned long long)c->args[2]);
	}
	fputs(text ? text : "", stderr);
	abort();
}

/* Whether a built-in rule decided (scmp-run.ini(5) BUILT-IN RULES). */
static bool by_builtin(const struct policy *p, const struct decision *dec)
{
	return dec->why == DECIDE_RULE && dec->rule->src >= p->builtins &&
	       dec->rule->src < p->builtins + p->n_builtins;
}

/* The decision of the rules, and of the program, which must agree: true
 * for allow, and for a built-in rule's denial if builtin_ok (the learned
 * profile keeps the built-in rules, and --learn says when one of them
 * denies a call it saw: scmp-run(1) WRITING A PROFILE FOR A PROGRAM). */
static bool allowed(const struct compiled *cc, const struct call *c, bool builtin_ok,
		    const char *text)
{
	struct seccomp_data sd = { .arch = c->abi->audit_arch, .nr = (int)c->nr }, raw;
	struct sim_result res;
	struct decision dec;

	memcpy(sd.args, c->args, sizeof(sd.args));
	policy_decide(cc->policy, &sd, &dec);
	bpf_abi_data(c->abi, &sd, &raw);
	if (sim_run(cc->prog->insns, cc->prog->len, &raw, &res) < 0 || res.ret != dec.ret)
		fail("the program and the rules disagree", c, text);
	return (dec.ret & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ALLOW ||
	       (builtin_ok && by_builtin(cc->policy, &dec));
}

static char *write_text(const struct learn *l, const struct learn_header *h)
{
	char *text = NULL;
	FILE *f = memstream_open(&text);

	if (!f)
		abort();
	if (learn_write(l, h, f) < 0 || memstream_close(f, &text) < 0)
		abort();
	return text;
}

/* The written text read back: every record, and written again the same. */
static void check_load(const struct learn *l, const struct learn_header *h, const char *text)
{
	struct learn *back = learn_new();
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct diag d;
	char *again;
	int r;

	if (!back || !f)
		abort();
	diag_init(&d);
	r = learn_load(back, f, fuzz_path, h, &d);
	fclose(f);
	if (r < 0) {
		diag_print(&d, "fuzz-learn", stderr);
		fail("learn_load() refuses the written profile", NULL, text);
	}
	diag_clear(&d);
	if ((size_t)r != learn_count(l) || learn_count(back) != learn_count(l))
		fail("learn_load() reads back another number of records", NULL, text);
	again = write_text(back, h);
	if (strcmp(again, text)) {
		fprintf(stderr, "%s\n---- read back and written again:\n", text);
		fail("the records read back are written otherwise", NULL, again);
	}
	free(again);
	learn_free(back);
}

static void compile_text(const char *text, struct compiled *cc)
{
	FILE *f = fopen(fuzz_path, "we");
	struct diag d;

	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
	diag_init(&d);
	if (compile_file(fuzz_path, arch_get(ARCH_X86_64), NULL, &d, cc) < 0) {
		diag_print(&d, "fuzz-learn", stderr);
		fail("the learned profile does not compile", NULL, text);
	}
	diag_clear(&d);
}

/* Every call seen is allowed; the same call with its registers flipped,
 * if that is a call not seen (a new record), is not. Run last: it adds
 * the flipped calls to l. */
static void check_decisions(struct learn *l, const struct compiled *cc, const struct call *calls,
			    size_t n, const char *text)
{
	for (size_t i = 0; i < n; i++)
		if (!allowed(cc, &calls[i], true, text))
			fail("a call seen is not allowed", &calls[i], text);
	for (size_t i = 0; i < n; i++) {
		struct call c = calls[i];

		for (unsigned k = 0; k < SYSCALL_ARGS_MAX; k++)
			c.args[k] = ~c.args[k];
		if (learn_record(l, c.abi, c.nr, c.args) == 1 && !is_exit(c.abi, c.nr) &&
		    allowed(cc, &c, false, text))
			fail("a call never seen is allowed", &c, text);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct learn_header h = { .native = arch_get(ARCH_X86_64) };
	struct call calls[CALLS_MAX];
	struct learn *l = learn_new();
	struct compiled cc = { 0 };
	size_t n = 0, used;
	bool clone3;
	char *text;

	if (!l)
		abort();
	while (n < CALLS_MAX && (used = parse_call(data, size, &calls[n], &clone3))) {
		data += used;
		size -= used;
		if (record(l, &calls[n], clone3) < 0)
			abort();
		n++;
	}
	text = write_text(l, &h);
	compile_text(text, &cc);
	if (n)
		check_load(l, &h, text);
	check_decisions(l, &cc, calls, n, text);
	compiled_free(&cc);
	free(text);
	learn_free(l);
	return 0;
}
