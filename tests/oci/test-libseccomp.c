/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * OCI JSON against libseccomp, both directions.
 *
 *   test-libseccomp json [--caps CAPS] FILE.json...   -p FILE.json
 *   test-libseccomp export PROFILE.ini|FILE.json...   --export-oci round trip:
 *                                                     the JSON read back, and
 *                                                     exported again
 *   test-libseccomp export-random N SEED              the same for N random
 *                                                     INI profiles
 *
 * The libseccomp side is built here, independently of src/oci-*.c: the JSON
 * is read with jansson and handed to libseccomp the way moby and runc do
 * (archMap of the host, includes/excludes, names libseccomp does not know
 * skipped, entries with the default action skipped, one
 * seccomp_rule_add_array() per name, or one per condition when two test the
 * same argument). Its program (seccomp_export_bpf) and ours run in our
 * simulator on every syscall number of every ABI of the filter, with boundary
 * and random arguments. Differences are counted by cause; only unexplained
 * ones fail, and so does one of the multiplexer, strictest-wins or built-in
 * kind where ours is the laxer action (a lower action_ret_rank()):
 *  - ignored bits: an argument narrower than 64 bits has bits set above its
 *    width (the kernel ignores them; libseccomp compares them; JSON import
 *    only: the export masks them);
 *  - multiplexer (JSON import only): socketcall/ipc numbers (scmp-run.ini(5):
 *    fail-closed, not libseccomp's handling; an export must match there);
 *  - strictest wins: a syscall the loader warned about (overlapping entries);
 *  - unknown to libseccomp: a name libseccomp 2.5.4 cannot resolve;
 *  - refused by libseccomp (JSON import only): a rule seccomp_rule_add_array()
 *    refused (runc would not start the container). An export scmp-run wrote
 *    must load: there a refused rule fails, and so does a program longer
 *    than EXPORT_LOADABLE, what a runtime can load after its own stub, or
 *    than the count the export checked its size with (oci_export_insns()).
 *  - unknown-syscall-action, bad-arch-action (export only): no OCI form;
 *  - built-in rule (JSON import only): a rule located at "built-in:NAME"
 *    decided (scmp-run.ini(5) BUILT-IN RULES: every profile gets them; an
 *    export carries them, so there they must agree).
 * x32 inputs have a zero upper half (libseccomp compares x32 arguments as
 * 32-bit), and so do inputs of 32-bit ABIs (the kernel zero-extends them).
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "action.h"
#include "compile.h"
#include "oci.h"
#include "rng.h"
#include "rnd-cond.h"
#include "sim.h"
#include "syscalls.h"
#include "tap.h"

#define INPUTS_PER_NR 48
#define POOL_MAX      256
#define NAMES_MAX     64
/* BPF_MAXINSNS less the room scmp-run.ini(5) --export-oci keeps for the
 * stub a runtime puts in front of the program */
#define EXPORT_LOADABLE (4096 - 64)

enum cause {
	SAME,
	IGNORED_BITS,
	MUX,
	STRICTEST,
	UNKNOWN_NAME,
	REFUSED,
	UNKNOWN_NR,
	BAD_ARCH,
	BUILTIN,
	BUILTIN_BACK,
	REAL,
	N_CAUSES,
};

static const char *const cause_names[N_CAUSES] = {
	"same",
	"ignored bits",
	"multiplexer",
	"strictest wins",
	"unknown to libseccomp",
	"refused by libseccomp",
	"unknown-syscall-action",
	"bad-arch-action",
	"built-in rule",
	"built-in rule read back",
	"unexplained",
};

/* What the libseccomp side learnt while building. */
struct theirs {
	struct sock_filter *insns;
	size_t len;
	char *unknown[NAMES_MAX]; /* names it skipped */
	size_t n_unknown;
	char *refused[NAMES_MAX]; /* names whose rule it refused */
	size_t n_refused;
	uint32_t arches[8];
	size_t n_arches;
};

static const char *caps_list; /* --caps, as --oci-caps */

/* ---- the runc/moby side ---- */

static uint32_t scmp_action(const char *name, json_t *ret_v, bool *ok)
{
	uint32_t data = json_is_integer(ret_v) ? (uint32_t)json_integer_value(ret_v) : 1;

	*ok = true;
	if (!strcmp(name, "SCMP_ACT_KILL") || !strcmp(name, "SCMP_ACT_KILL_THREAD"))
		return SCMP_ACT_KILL_THREAD;
	if (!strcmp(name, "SCMP_ACT_KILL_PROCESS"))
		return SCMP_ACT_KILL_PROCESS;
	if (!strcmp(name, "SCMP_ACT_TRAP"))
		return SCMP_ACT_TRAP;
	if (!strcmp(name, "SCMP_ACT_ERRNO"))
		return SCMP_ACT_ERRNO(data);
	if (!strcmp(name, "SCMP_ACT_TRACE"))
		return SCMP_ACT_TRACE(data);
	if (!strcmp(name, "SCMP_ACT_LOG"))
		return SCMP_ACT_LOG;
	if (!strcmp(name, "SCMP_ACT_NOTIFY"))
		return SCMP_ACT_NOTIFY;
	if (!strcmp(name, "SCMP_ACT_ALLOW"))
		return SCMP_ACT_ALLOW;
	*ok = false;
	return 0;
}

static uint32_t scmp_arch_token(const char *name)
{
	static const struct {
		const char *name;
		uint32_t arch;
	} t[] = {
		{ "SCMP_ARCH_X86_64", SCMP_ARCH_X86_64 },
		{ "SCMP_ARCH_X86", SCMP_ARCH_X86 },
		{ "SCMP_ARCH_X32", SCMP_ARCH_X32 },
		{ "SCMP_ARCH_AARCH64", SCMP_ARCH_AARCH64 },
		{ "SCMP_ARCH_ARM", SCMP_ARCH_ARM },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(t[i].name, name))
			return t[i].arch;
	return 0;
}

static const char *go_arch(void)
{
	return seccomp_arch_native() == SCMP_ARCH_X86_64    ? "amd64"
	       : seccomp_arch_native() == SCMP_ARCH_AARCH64 ? "arm64"
							    : "?";
}

static bool in_array(json_t *arr, const char *s)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
	{
		if (json_is_string(v) && !strcmp(json_string_value(v), s))
			return true;
	}
	return false;
}

static bool has_cap(const char *cap)
{
	const char *p = caps_list;
	size_t n = strlen(cap);

	while (p && *p) {
		if (!strncmp(p, cap, n) && (p[n] == ',' || !p[n]))
			return true;
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	return false;
}

static bool kernel_ge(const char *v)
{
	struct utsname u;
	unsigned a, b, ka, kb;

	uname(&u);
	sscanf(u.release, "%u.%u", &ka, &kb);
	sscanf(v, "%u.%u", &a, &b);
	return ka > a || (ka == a && kb >= b);
}

/* moby's setupSeccomp(): does the entry stay? */
static bool moby_keep(json_t *e)
{
	json_t *ex = json_object_get(e, "excludes"), *in = json_object_get(e, "includes"), *v;
	size_t i;

	if (json_array_size(json_object_get(ex, "arches")) &&
	    in_array(json_object_get(ex, "arches"), go_arch()))
		return false;
	json_array_foreach(json_object_get(ex, "caps"), i, v)
	{
		if (has_cap(json_string_value(v)))
			return false;
	}
	if (json_is_string(json_object_get(ex, "minKernel")) &&
	    kernel_ge(json_string_value(json_object_get(ex, "minKernel"))))
		return false;
	if (json_array_size(json_object_get(in, "arches")) &&
	    !in_array(json_object_get(in, "arches"), go_arch()))
		return false;
	json_array_foreach(json_object_get(in, "caps"), i, v)
	{
		if (!has_cap(json_string_value(v)))
			return false;
	}
	if (json_is_string(json_object_get(in, "minKernel")) &&
	    !kernel_ge(json_string_value(json_object_get(in, "minKernel"))))
		return false;
	return true;
}

static void note_name(char **list, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(list[i], name))
			return;
	if (*n < NAMES_MAX)
		list[(*n)++] = strdup(name);
}

/* Exact unsigned values: jansson's integers stop at INT64_MAX, so
 * quote_big() turned longer numbers into strings. */
static uint64_t json_u64(json_t *v)
{
	if (json_is_integer(v))
		return (uint64_t)json_integer_value(v);
	return json_is_string(v) ? strtoull(json_string_value(v), NULL, 10) : 0;
}

/* A copy of JSON text with every integer of 19 or more digits quoted. */
static char *quote_big(const char *text)
{
	char *out = malloc(strlen(text) * 2 + 1), *o = out;
	bool in_str = false;

	for (const char *s = text; out && *s;) {
		size_t n = strspn(s, "0123456789");

		if (!in_str && n >= 19) {
			*o++ = '"';
			memcpy(o, s, n);
			o += n;
			*o++ = '"';
			s += n;
			continue;
		}
		if (*s == '"' && (s == text || s[-1] != '\\'))
			in_str = !in_str;
		*o++ = *s++;
	}
	if (o)
		*o = '\0';
	return out;
}

static json_t *load_text(const char *text)
{
	char *q = quote_big(text);
	json_t *root = q ? json_loads(q, 0, NULL) : NULL;

	free(q);
	return root;
}

static int runc_build(scmp_filter_ctx ctx, json_t *root, struct theirs *t)
{
	json_t *archs = json_object_get(root, "architectures"),
	       *map = json_object_get(root, "archMap");
	json_t *v, *e;
	uint32_t def;
	bool ok;
	size_t i;
	int r = 0;

	def = scmp_action(json_string_value(json_object_get(root, "defaultAction")),
			  json_object_get(root, "defaultErrnoRet"), &ok);
	json_array_foreach(archs, i, v)
	{
		t->arches[t->n_arches++] = scmp_arch_token(json_string_value(v));
	}
	json_array_foreach(map, i, v)
	{
		json_t *s;
		size_t k;

		if (scmp_arch_token(json_string_value(json_object_get(v, "architecture"))) !=
		    seccomp_arch_native())
			continue;
		t->arches[t->n_arches++] = seccomp_arch_native();
		json_array_foreach(json_object_get(v, "subArchitectures"), k, s)
		{
			if (scmp_arch_token(json_string_value(s)) && t->n_arches < 8)
				t->arches[t->n_arches++] = scmp_arch_token(json_string_value(s));
		}
	}
	for (size_t k = 0; k < t->n_arches && r >= 0; k++)
		if (t->arches[k] && t->arches[k] != seccomp_arch_native()) {
			r = seccomp_arch_add(ctx, t->arches[k]);
			r = r == -EEXIST ? 0 : r;
		}
	json_array_foreach(json_object_get(root, "syscalls"), i, e)
	{
		uint32_t act = scmp_action(json_string_value(json_object_get(e, "action")),
					   json_object_get(e, "errnoRet"), &ok);
		json_t *args = json_object_get(e, "args"), *names = json_object_get(e, "names");
		struct scmp_arg_cmp conds[8];
		unsigned count[6] = { 0 };
		size_t n = 0, k;
		bool split = false;

		if (!moby_keep(e) || act == def)
			continue;
		json_array_foreach(args, k, v)
		{
			unsigned idx = (unsigned)json_u64(json_object_get(v, "index"));
			const char *op = json_string_value(json_object_get(v, "op"));
			static const char *const ops[] = { NULL,	  "SCMP_CMP_NE",
							   "SCMP_CMP_LT", "SCMP_CMP_LE",
							   "SCMP_CMP_EQ", "SCMP_CMP_GE",
							   "SCMP_CMP_GT", "SCMP_CMP_MASKED_EQ" };
			int o = 1;

			while (o < 8 && strcmp(ops[o], op))
				o++;
			conds[n++] = (struct scmp_arg_cmp){
				.arg = idx,
				.op = (enum scmp_compare)o,
				.datum_a = json_u64(json_object_get(v, "value")),
				.datum_b = json_u64(json_object_get(v, "valueTwo")),
			};
			split |= ++count[idx] > 1;
		}
		if (json_is_string(json_object_get(e, "name")))
			names = json_pack("[O]", json_object_get(e, "name"));
		else
			json_incref(names);
		json_array_foreach(names, k, v)
		{
			const char *name = json_string_value(v);
			int nr = seccomp_syscall_resolve_name(name), q = 0;

			if (nr == __NR_SCMP_ERROR) {
				note_name(t->unknown, &t->n_unknown, name);
				continue;
			}
			if (!n)
				q = seccomp_rule_add_array(ctx, act, nr, 0, NULL);
			else if (!split)
				q = seccomp_rule_add_array(ctx, act, nr, (unsigned)n, conds);
			for (size_t c = 0; split && c < n && q >= 0; c++)
				q = seccomp_rule_add_array(ctx, act, nr, 1, &conds[c]);
			if (q < 0)
				note_name(t->refused, &t->n_refused, name);
		}
		json_decref(names);
	}
	return r;
}

/* libseccomp's program for the JSON text, built in a child with a time
 * limit (2.5.4 can loop in seccomp_rule_add). */
static int build_theirs(const char *text, struct theirs *t)
{
	int fd = memfd_create("bpf", MFD_CLOEXEC), pipefd[2], status, r = 0;
	json_t *root = load_text(text);
	off_t size;
	pid_t pid;

	if (fd < 0 || !root || pipe(pipefd) < 0)
		return -EINVAL;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		uint32_t def = 0;
		bool ok;
		scmp_filter_ctx ctx;
		FILE *rep = fdopen(pipefd[1], "w");

		def = scmp_action(json_string_value(json_object_get(root, "defaultAction")),
				  json_object_get(root, "defaultErrnoRet"), &ok);
		ctx = seccomp_init(def);
		r = ctx ? runc_build(ctx, root, t) : -ENOMEM;
		/* report what was skipped or refused to the parent */
		for (size_t i = 0; i < t->n_unknown; i++)
			fprintf(rep, "u %s\n", t->unknown[i]);
		for (size_t i = 0; i < t->n_refused; i++)
			fprintf(rep, "r %s\n", t->refused[i]);
		fclose(rep);
		if (r >= 0)
			r = seccomp_export_bpf(ctx, fd);
		_exit(r < 0 ? -r & 0xff : 0);
	}
	close(pipefd[1]);
	for (int i = 0; waitpid(pid, &status, WNOHANG) == 0; i++) {
		if (i == 5000) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			r = -ETIMEDOUT;
			break;
		}
		usleep(1000);
	}
	{
		FILE *rep = fdopen(pipefd[0], "r");
		char line[256];

		while (rep && fgets(line, sizeof(line), rep)) {
			line[strcspn(line, "\n")] = '\0';
			if (line[0] == 'u')
				note_name(t->unknown, &t->n_unknown, line + 2);
			else
				note_name(t->refused, &t->n_refused, line + 2);
		}
		if (rep)
			fclose(rep);
	}
	if (!r && (!WIFEXITED(status) || WEXITSTATUS(status)))
		r = WIFEXITED(status) ? -WEXITSTATUS(status) : -EINTR;
	size = lseek(fd, 0, SEEK_END);
	if (r >= 0) {
		t->insns = malloc(size > 0 ? (size_t)size : 1);
		if (size <= 0 || !t->insns || pread(fd, t->insns, (size_t)size, 0) != size)
			r = -EIO;
		t->len = (size_t)size / sizeof(struct sock_filter);
	}
	close(fd);
	json_decref(root);
	return r;
}

static void theirs_free(struct theirs *t)
{
	free(t->insns);
	for (size_t i = 0; i < t->n_unknown; i++)
		free(t->unknown[i]);
	for (size_t i = 0; i < t->n_refused; i++)
		free(t->refused[i]);
}

/* ---- comparing ---- */

struct compare {
	const struct policy *p;
	const struct bpf_prog *prog;
	const struct theirs *t;
	char **strict; /* names the loader warned about (overlaps) */
	size_t n_strict;
	bool exported; /* the export round trip: masks make every input exact */
	/* reading an export back: its policy, whose built-in rules may decide
	 * what a rule with the default action took from them (read_back_builtin()) */
	const struct policy *back;
	size_t estimate; /* the export's size count (oci_export_insns()); 0: none */
	size_t count[N_CAUSES];
	size_t inputs;
	char first_real[256];
};

static bool in_list(char *const *list, size_t n, const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

/* Arguments narrower than the register with bits set above their width? */
static bool dirty(const struct arch *a, const char *name, const struct seccomp_data *sd)
{
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	bool known;

	if (!name || syscalls_args(a, name, args, &known) < 0)
		return false;
	for (int i = 0; i < SYSCALL_ARGS_MAX; i++) {
		unsigned w = syscalls_arg_width(a, args[i].cls);

		if (args[i].cls != ARG_NONE && w < 64 && (sd->args[i] >> w))
			return true;
	}
	return false;
}

/* Does libseccomp decide like us on a variant of sd that differs only in
 * bits the kernel ignores (each narrow argument zero- or sign-extended)? */
static bool agrees_extended(const struct compare *c, const struct arch *a, const char *name,
			    const struct seccomp_data *sd, uint32_t want)
{
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	unsigned width[SYSCALL_ARGS_MAX];
	bool known;

	if (a->bits != 64 || a->id == ARCH_X32 || syscalls_args(a, name, args, &known) < 0)
		return false;
	for (int i = 0; i < SYSCALL_ARGS_MAX; i++)
		width[i] = syscalls_arg_width(a, args[i].cls);
	for (unsigned mask = 0; mask < (1u << SYSCALL_ARGS_MAX); mask++) {
		struct seccomp_data v = *sd, raw;
		struct sim_result res;
		bool skip = false;

		for (int i = 0; i < SYSCALL_ARGS_MAX; i++) {
			uint64_t low = v.args[i] & width_max(width[i]);

			if (!(mask & (1u << i)))
				continue;
			skip |= width[i] == 64;
			v.args[i] = (low & width_sign(width[i])) ? low | ~width_max(width[i]) : low;
		}
		if (skip)
			continue;
		bpf_abi_data(a, &v, &raw);
		if (sim_run(c->t->insns, c->t->len, &raw, &res) == 0 && res.ret == want)
			return true;
	}
	return false;
}

static bool is_mux(const struct arch *a, const char *name)
{
	for (int k = 0; k < MUX_COUNT; k++)
		if (arch_mux_name(a, k) && name && !strcmp(arch_mux_name(a, k), name))
			return true;
	return false;
}

/* Is this call one that a rule with the default action took from a
 * built-in rule, which decides it again once the export is read back (no
 * runtime keeps an entry with the default action)? Still refused then,
 * with the built-in rule's errno (scmp-run.ini(5), --export-oci). */
static bool read_back_builtin(const struct compare *c, const struct seccomp_data *sd,
			      const struct decision *dec)
{
	struct decision back;

	if (!c->back || !dec->abi || dec->ret != dec->abi->default_ret)
		return false;
	policy_decide(c->back, sd, &back);
	return back.why == DECIDE_RULE && policy_builtin_name(back.rule->src) &&
	       (back.ret & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ERRNO;
}

static void compare_one(struct compare *c, const struct arch *a, const struct seccomp_data *sd)
{
	struct seccomp_data raw;
	struct sim_result ours, theirs;
	struct decision dec;
	const char *name = syscalls_lookup_nr(a, (uint32_t)sd->nr);
	enum cause why = SAME;

	c->inputs++;
	bpf_abi_data(a, sd, &raw);
	if (sim_run(c->prog->insns, c->prog->len, &raw, &ours) < 0 ||
	    sim_run(c->t->insns, c->t->len, &raw, &theirs) < 0) {
		why = REAL;
		snprintf(c->first_real, sizeof(c->first_real), "a program did not run");
		c->count[why]++;
		return;
	}
	policy_decide(c->p, sd, &dec);
	if (dec.ret != ours.ret) {
		c->count[REAL]++;
		snprintf(c->first_real, sizeof(c->first_real),
			 "program and policy disagree on %s nr %d", a->name, sd->nr);
		return;
	}
	if (ours.ret == theirs.ret) {
		c->count[SAME]++;
		return;
	}
	if (dec.why == DECIDE_BAD_ARCH && c->exported)
		why = BAD_ARCH;
	else if (dec.why == DECIDE_RULE && !c->exported && dec.rule->src->loc.file &&
		 !strncmp(dec.rule->src->loc.file, "built-in:", strlen("built-in:")))
		why = BUILTIN;
	else if (read_back_builtin(c, sd, &dec))
		why = BUILTIN_BACK;
	else if (!name)
		why = dec.why == DECIDE_UNKNOWN && c->exported ? UNKNOWN_NR : REAL;
	else if (!c->exported && (is_mux(a, name) || (dec.why == DECIDE_RULE && dec.rule->via_mux)))
		why = MUX;
	else if (in_list(c->t->unknown, c->t->n_unknown, name))
		why = UNKNOWN_NAME;
	else if (!c->exported && in_list(c->t->refused, c->t->n_refused, name))
		why = REFUSED;
	else if (in_list(c->strict, c->n_strict, name))
		why = STRICTEST;
	else if (!c->exported && (dirty(a, name, sd) || agrees_extended(c, a, name, sd, ours.ret)))
		why = IGNORED_BITS;
	else
		why = REAL;
	/* these three are ours being stricter by design: never laxer */
	if ((why == MUX || why == BUILTIN || why == STRICTEST) &&
	    action_ret_rank(ours.ret) < action_ret_rank(theirs.ret))
		why = REAL;
	/* an export refuses an unknown-syscall-action stricter than the
	 * default: libseccomp's is never the laxer one */
	if (why == UNKNOWN_NR && action_ret_rank(ours.ret) > action_ret_rank(theirs.ret))
		why = REAL;
	c->count[why]++;
	if (why == REAL && !c->first_real[0])
		snprintf(c->first_real, sizeof(c->first_real),
			 "%s %s(%#" PRIx64 ", %#" PRIx64 ", %#" PRIx64 ", %#" PRIx64
			 "): ours %#x, libseccomp %#x",
			 a->name, name ? name : "?", (uint64_t)sd->args[0], (uint64_t)sd->args[1],
			 (uint64_t)sd->args[2], (uint64_t)sd->args[3], ours.ret, theirs.ret);
}

static const uint64_t boundaries[] = {
	0,
	1,
	2,
	3,
	5,
	7,
	8,
	9,
	10,
	16,
	40,
	1000,
	1001,
	0x12,
	0x3f,
	0x5412, /* TIOCSTI and TIOCLINUX: the built-in rule tty-injection */
	0x541c,
	131072,
	131080,
	0x7e020000,
	0x10000000,
	0x7ffffffe,
	0x7fffffff,
	0x80000000,
	0x80000005,
	0xfffffffe,
	0xffffffff,
	0x100000000,
	0x7fffffffffffffff,
	0x8000000000000000,
	0xffffffff80000000,
	0xfffffffffffffffe,
	0xffffffffffffffff,
};

/* Make sd match the tests of rule i of s (if it has one) where it can: the
 * first value of each set, the value of each masked equality. */
static void inside_rule(const struct rsys *s, size_t i, struct seccomp_data *sd)
{
	if (!s || i >= s->n_rules)
		return;
	for (size_t k = 0; k < s->rules[i].n_cmps; k++) {
		const struct rcmp *t = &s->rules[i].cmps[k];
		uint64_t flip = t->is_signed ? width_sign(t->width) : 0;

		if (t->kind == RCMP_IN && t->n_ivs)
			sd->args[t->arg] = t->ivs[0].lo ^ flip;
		else if (t->kind == RCMP_MASK_EQ)
			sd->args[t->arg] = t->value;
	}
}

/* Every number of every ABI of the filter (plus unknown ones), with
 * boundary values, the JSON's own values, values inside each rule's tests
 * and random ones. */
static void compare_all(struct compare *c, const uint64_t *extra, size_t n_extra, uint64_t seed)
{
	struct rng r = { seed | 1 };
	uint64_t pool[POOL_MAX];
	size_t n_pool = 0;

	for (size_t i = 0; i < sizeof(boundaries) / sizeof(boundaries[0]); i++)
		pool[n_pool++] = boundaries[i];
	for (size_t i = 0; i < n_extra && n_pool + 3 < POOL_MAX; i++) {
		pool[n_pool++] = extra[i];
		pool[n_pool++] = extra[i] + 1;
		pool[n_pool++] = extra[i] - 1;
	}
	for (size_t k = 0; k < c->p->n_abis; k++) {
		const struct abi_policy *abi = &c->p->abis[k];
		const struct arch *a = abi->arch;
		bool low = a->bits == 32 || a->id == ARCH_X32;
		uint32_t top = abi->n_known ? abi->known[abi->n_known - 1].nr : a->nr_base;

		for (size_t i = 0; i <= abi->n_known + 8; i++) {
			uint32_t nr = i < abi->n_known ? abi->known[i].nr
						       : top + (uint32_t)(i - abi->n_known);

			for (int n = 0; n < INPUTS_PER_NR; n++) {
				struct seccomp_data sd = { .nr = (int)nr, .arch = a->audit_arch };

				for (int s = 0; s < SYSCALL_ARGS_MAX; s++) {
					uint64_t v = pick(&r, 3) ? pool[pick(&r, (unsigned)n_pool)]
								 : rnd(&r);

					/* half the inputs: upper halves clear */
					if (low || n % 2)
						v &= UINT32_MAX;
					sd.args[s] = n == 0 ? 0 : v;
				}
				inside_rule(policy_rsys(abi, nr), (size_t)n - 1, &sd);
				compare_one(c, a, &sd);
			}
		}
	}
	/* an ABI outside the filter: bad-arch on both */
	for (int n = 0; n < 4; n++) {
		struct seccomp_data sd = { .nr = n, .arch = arch_get(ARCH_AARCH64)->audit_arch };

		if (c->p->abis[0].arch->id != ARCH_AARCH64)
			compare_one(c, arch_get(ARCH_AARCH64), &sd);
	}
}

static void report(const char *what, const struct compare *c)
{
	char line[512];
	size_t n = 0;

	for (int k = IGNORED_BITS; k < N_CAUSES; k++)
		if (c->count[k])
			n += (size_t)snprintf(line + n, sizeof(line) - n, ", %zu %s", c->count[k],
					      cause_names[k]);
	line[n] = '\0';
	tap_ok(c->count[REAL] == 0 && c->inputs > 0, "%s: %zu inputs, %zu decided alike%s", what,
	       c->inputs, c->count[SAME], line);
	tap_diag("%s: libseccomp's program has %zu instructions", what, c->t->len);
	if (c->exported) {
		tap_ok(!c->t->n_refused && c->t->len <= EXPORT_LOADABLE,
		       "%s: libseccomp takes every rule, and a runtime can load its %zu "
		       "instructions",
		       what, c->t->len);
		/* the count --export-oci refuses a JSON by must never be below
		 * what libseccomp builds; how close it is, for the record */
		tap_ok(c->estimate >= c->t->len,
		       "%s: the export's size count (%zu) is at least libseccomp's length (%zu), "
		       "%.2f times it",
		       what, c->estimate, c->t->len, (double)c->estimate / (double)c->t->len);
	}
	if (c->count[REAL])
		tap_diag("first unexplained difference: %s", c->first_real);
	for (size_t i = 0; i < c->t->n_unknown; i++)
		tap_diag("%s: libseccomp does not know '%s' (runc skips it)", what,
			 c->t->unknown[i]);
	for (size_t i = 0; i < c->t->n_refused; i++)
		tap_diag("%s: libseccomp refused a rule on '%s' (runc would fail to start)", what,
			 c->t->refused[i]);
	for (size_t i = 0; i < c->n_strict; i++)
		tap_diag("%s: overlapping entries on '%s': strictest wins here", what,
			 c->strict[i]);
}

/* Syscall names the loader's overlap warnings name ("... match 'NAME' calls"). */
static void collect_strict(const struct diag *d, struct compare *c)
{
	for (size_t i = 0; i < d->n_msgs; i++) {
		const char *t = d->msgs[i].text, *q = t ? strstr(t, "can both match '") : NULL;
		char name[64];

		if (!q || sscanf(q, "can both match '%63[^']'", name) != 1)
			continue;
		if (!in_list(c->strict, c->n_strict, name)) {
			c->strict = realloc(c->strict, (c->n_strict + 1) * sizeof(char *));
			c->strict[c->n_strict++] = strdup(name);
		}
	}
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int ch;

	if (!f || !m) {
		if (f)
			fclose(f);
		if (m)
			fclose(m);
		free(buf);
		return NULL;
	}
	while ((ch = fgetc(f)) != EOF)
		fputc(ch, m);
	fclose(f);
	fclose(m);
	return buf;
}

/* The values of the JSON's conditions, for the input pool. */
static size_t json_values(const char *text, uint64_t *out, size_t max)
{
	json_t *root = load_text(text), *e, *a;
	size_t i, k, n = 0;

	json_array_foreach(json_object_get(root, "syscalls"), i, e)
	{
		json_array_foreach(json_object_get(e, "args"), k, a)
		{
			if (n + 2 <= max) {
				out[n++] = json_u64(json_object_get(a, "value"));
				out[n++] = json_u64(json_object_get(a, "valueTwo"));
			}
		}
	}
	json_decref(root);
	return n;
}

static void run_compare(const char *what, const char *json_text, const struct policy *p,
			const struct bpf_prog *prog, const struct diag *d, bool exported,
			size_t estimate)
{
	struct compare c = { .p = p, .prog = prog, .exported = exported, .estimate = estimate };
	struct theirs t = { 0 };
	uint64_t extra[128];
	size_t n_extra = json_values(json_text, extra, 128);
	int r = build_theirs(json_text, &t);

	c.t = &t;
	if (r < 0) {
		tap_ok(false, "%s: libseccomp built no program: %s", what, strerror(-r));
		theirs_free(&t);
		return;
	}
	if (d)
		collect_strict(d, &c);
	compare_all(&c, extra, n_extra, 0x5eed + strlen(what));
	report(what, &c);
	for (size_t i = 0; i < c.n_strict; i++)
		free(c.strict[i]);
	free(c.strict);
	theirs_free(&t);
}

static void test_json(const char *path)
{
	struct oci_options opts = { .caps = caps_list };
	struct compiled c = { 0 };
	struct diag d;
	char *text = read_text(path), what[300];
	int r;

	snprintf(what, sizeof(what), "%s%s%s", path, caps_list ? " with " : "",
		 caps_list ? caps_list : "");
	diag_init(&d);
	r = text ? compile_file(path, arch_native(), &opts, &d, &c) : -ENOENT;
	if (r < 0) {
		tap_ok(false, "%s: loads and compiles", what);
		diag_print(&d, "test", stdout);
	} else {
		run_compare(what, text, c.policy, c.prog, &d, false, 0);
	}
	compiled_free(&c);
	diag_clear(&d);
	free(text);
}

/* The size count of c's export (oci_export_insns()); 0 if it fails. */
static size_t export_estimate(const struct compiled *c)
{
	struct diag d;
	size_t n = 0;

	diag_init(&d);
	if (oci_export_insns(c->policy, c->rs, arch_native(), &d, &n) < 0)
		n = 0;
	diag_clear(&d);
	return n;
}

/* c's policy as --export-oci writes it, into *ret (malloc'ed). */
static int export_text(const struct compiled *c, struct diag *d, char **ret)
{
	size_t len = 0;
	FILE *m = open_memstream(ret, &len);
	int r;

	if (!m)
		return -ENOMEM;
	r = oci_export(c->policy, c->rs, arch_native(), d, m);
	fclose(m);
	return r;
}

/* Profile text compiled as -p FILE compiles it, FILE's name ending in
 * suffix (".json" or ".ini"), into *ret. */
static int compile_text(const char *text, const char *suffix, struct diag *d, struct compiled *ret)
{
	char path[64];
	int fd;
	size_t len = strlen(text);
	struct oci_options opts = { 0 };
	int r;

	snprintf(path, sizeof(path), "/tmp/test-libseccomp-XXXXXX%s", suffix);
	fd = mkstemps(path, (int)strlen(suffix));
	r = fd < 0 || write(fd, text, len) != (ssize_t)len ? -EIO : 0;

	if (fd >= 0)
		close(fd);
	if (r >= 0)
		r = compile_file(path, arch_native(), &opts, d, ret);
	if (fd >= 0)
		unlink(path);
	return r;
}

/* In the random soak (test_export_random()), JSON read back that does not
 * compile or export again for its size, which scmp-run.ini(5) --export-oci
 * allows near the size bound, is counted here instead of failing; NULL
 * elsewhere, where the corpus must read back whole. */
static size_t *read_back_too_big;

static bool too_big(const struct diag *d)
{
	static const char *const texts[] = { "the kernel accepts at most",
					     "split into too many entries",
					     "instructions, more than the" };

	if (!read_back_too_big)
		return false;
	for (size_t i = 0; i < d->n_msgs; i++)
		for (size_t k = 0; k < sizeof(texts) / sizeof(texts[0]); k++)
			if (d->msgs[i].severity == DIAG_ERROR && d->msgs[i].text &&
			    strstr(d->msgs[i].text, texts[k])) {
				++*read_back_too_big;
				return true;
			}
	return false;
}

/*
 * The read-back JSON exported again (scmp-run.ini(5), --export-oci: a round
 * trip of its own output): it must export, libseccomp must decide on the
 * second JSON like the profile read back (which decides like the one it
 * all came from, but for read_back_builtin()), and the text is stable from
 * then on (a third export writes it again byte for byte).
 */
static void test_again(const char *what, const struct compiled *back)
{
	struct compiled third = { 0 };
	char *text = NULL, *text3 = NULL, what2[340];
	struct diag d;
	int r;

	snprintf(what2, sizeof(what2), "%s, exported again", what);
	diag_init(&d);
	r = export_text(back, &d, &text);
	if (r < 0 && too_big(&d))
		goto out;
	tap_ok(r >= 0, "%s: succeeds", what2);
	if (r < 0) {
		diag_print(&d, "test", stdout);
		goto out;
	}
	run_compare(what2, text, back->policy, back->prog, NULL, true, export_estimate(back));
	r = compile_text(text, ".json", &d, &third);
	if (r >= 0)
		r = export_text(&third, &d, &text3);
	tap_ok(r >= 0 && !strcmp(text, text3), "%s: a third export writes the same text", what2);
	if (r < 0)
		diag_print(&d, "test", stdout);
out:
	compiled_free(&third);
	diag_clear(&d);
	free(text);
	free(text3);
}

/* The exported JSON read back as a profile (-p FILE.json) decides like the
 * profile it was exported from, but for unknown numbers and foreign ABIs
 * (no OCI form), where the JSON is never the laxer, and the calls a rule
 * with the default action took from a built-in rule (read_back_builtin());
 * then test_again(). */
static void test_read_back(const char *what, const char *text, const struct compiled *from)
{
	struct compiled back = { 0 };
	struct diag d;
	int r;

	diag_init(&d);
	r = compile_text(text, ".json", &d, &back);
	if (r < 0 && too_big(&d)) {
		/* counted */
	} else if (r < 0) {
		tap_ok(false, "%s, read back: loads and compiles", what);
		diag_print(&d, "test", stdout);
	} else {
		struct theirs t = { .insns = back.prog->insns, .len = back.prog->len };
		struct compare c = { .p = from->policy,
				     .prog = from->prog,
				     .t = &t,
				     .exported = true,
				     .back = back.policy };
		uint64_t extra[128];

		compare_all(&c, extra, json_values(text, extra, 128), 0x5eed + strlen(text));
		tap_ok(c.count[REAL] == 0 && c.inputs > 0,
		       "%s, read back: %zu inputs, %zu decided alike, %zu unknown-syscall-action, "
		       "%zu bad-arch-action, %zu built-in rule read back",
		       what, c.inputs, c.count[SAME], c.count[UNKNOWN_NR], c.count[BAD_ARCH],
		       c.count[BUILTIN_BACK]);
		if (c.count[REAL])
			tap_diag("first unexplained difference: %s", c.first_real);
		test_again(what, &back);
	}
	compiled_free(&back);
	diag_clear(&d);
}

/* The export text of c against libseccomp, read back and exported again. */
static void compare_export(const char *what, const char *text, const struct compiled *c)
{
	run_compare(what, text, c->policy, c->prog, NULL, true, export_estimate(c));
	test_read_back(what, text, c);
}

static void test_export(const char *path)
{
	struct compiled c = { 0 };
	struct diag d;
	char *text = NULL, what[300];
	int r;

	snprintf(what, sizeof(what), "%s exported", path);
	diag_init(&d);
	r = compile_file(path, arch_native(), NULL, &d, &c);
	if (r >= 0)
		r = export_text(&c, &d, &text);
	if (r < 0) {
		tap_ok(false, "%s: compiles and exports", what);
		diag_print(&d, "test", stdout);
	} else {
		compare_export(what, text, &c);
	}
	compiled_free(&c);
	diag_clear(&d);
	free(text);
}

/* ---- random profiles ---- */

#define RND_RULES_MAX 15

/* Calls a random profile names: socketcall and ipc sub-calls, the
 * multiplexers themselves, and calls without a multiplexed form. */
static const char *const rnd_syscalls[] = {
	"socket",     "connect", "accept4", "sendto", "recvmsg",     "shmget",	 "semop",
	"socketcall", "ipc",	 "read",    "write",  "openat",	     "close",	 "kill",
	"ioctl",      "clone",	 "futex",   "prctl",  "personality", "mprotect", "fcntl",
	"lseek",      "setuid",	 "dup",	    "getpid", "exit_group",
};

/* Actions OCI has, trap without data (SCMP_ACT_TRAP carries none). */
static const char *const rnd_actions[] = {
	"allow", "log",	     "errno(EACCES)", "errno(1)",    "errno(4094)",
	"trap",	 "trace(1)", "trace(2)",      "kill-thread", "kill-process",
};

/* Actions --export-oci refuses (scmp-run.ini(5) --export-oci), now and then. */
static const char *const rnd_refused_actions[] = { "trap(5)", "notify", "errno(4095)" };

/* The refusals scmp-run.ini(5) --export-oci documents, by a part of their
 * message, and the cause they are counted under. */
static const struct {
	const char *text;
	const char *cause;
} refusals[] = {
	{ "cannot be written for libseccomp with", "multiplexer" },
	{ "but none on", "rules on one ABI only" },
	{ "decides otherwise than on the first ABI", "ABIs decide otherwise" },
	{ "compares the low 32 bits of x32", "x32 and a 64-bit argument" },
	{ "split into too many entries", "too many entries" },
	{ "instructions, more than the", "size bound" },
	{ "SCMP_ACT_TRAP carries no data", "trap with data" },
	{ "notify needs a seccomp agent", "notify rule" },
	{ "notify as the default action", "notify default" },
	{ "is stricter than the default action", "unknown-syscall-action" },
	{ "libseccomp takes at most", "errno over 4094" },
	{ "the filter does not cover", "no native ABI" },
	{ "never finishes compiling", "libseccomp loops" },
	{ "without loading the syscall number", "libseccomp loses the number" },
};
#define N_REFUSALS (sizeof(refusals) / sizeof(refusals[0]))

static const char *rnd_action(struct rng *r)
{
	if (!pick(r, 200))
		return rnd_refused_actions[pick(r, sizeof(rnd_refused_actions) /
							   sizeof(rnd_refused_actions[0]))];
	return rnd_actions[pick(r, sizeof(rnd_actions) / sizeof(rnd_actions[0]))];
}

/* The ABIs of a random profile, into out: the native one, half the time
 * with some of those that can run beside it; now and then one of those
 * without the native one (refused: a runtime always adds it). Returns
 * their count. */
static size_t rnd_abis(struct rng *r, const struct arch **out)
{
	const struct arch *native = arch_native();
	size_t n = 0;

	out[n++] = native;
	if (pick(r, 2))
		return n;
	for (int id = 0; id < ARCH_COUNT; id++) {
		const struct arch *a = arch_get((enum arch_id)id);

		if (a != native && arch_compatible(native, a) && pick(r, 2))
			out[n++] = a;
	}
	if (n > 1 && !pick(r, 16))
		out[0] = out[--n];
	return n;
}

/* A random rule on a random call, as an INI section: conditions on the
 * arguments of the first ABI that has the call, none if none has it. */
static void rnd_rule(struct rng *r, FILE *m, const struct arch *const *abis, size_t n_abis,
		     unsigned bits)
{
	const char *sys = rnd_syscalls[pick(r, sizeof(rnd_syscalls) / sizeof(rnd_syscalls[0]))];
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	char cond[160] = "";
	bool known;

	for (size_t i = 0; i < n_abis; i++)
		if (syscalls_args(abis[i], sys, args, &known) >= 0) {
			rnd_cond(r, args, bits, cond, sizeof(cond));
			break;
		}
	fprintf(m, "[%s]\n", rnd_action(r));
	if (*cond)
		fprintf(m, "%s = %s\n", sys, cond);
	else
		fprintf(m, "syscalls = %s\n", sys);
}

/* A random INI profile (malloc'ed text), or NULL. */
static char *rnd_profile(struct rng *r)
{
	const struct arch *abis[ARCH_COUNT];
	size_t n_abis = rnd_abis(r, abis), len = 0;
	const char *def = rnd_action(r);
	unsigned bits = 64; /* the narrowest ABI decides what values fit */
	char *text = NULL;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return NULL;
	fprintf(m, "[filter]\ndefault-action = %s\narchitectures =", def);
	for (size_t i = 0; i < n_abis; i++) {
		fprintf(m, " %s", abis[i]->name);
		bits = abis[i]->bits < bits ? abis[i]->bits : bits;
	}
	fputc('\n', m);
	/* errno(ENOSYS), the default when absent under a denying default
	 * action, is refused when stricter than the default (under trace) */
	if (pick(r, 4))
		fprintf(m, "unknown-syscall-action = %s\n", def);
	else if (pick(r, 2))
		fprintf(m, "unknown-syscall-action = errno(ENOSYS)\n");
	for (unsigned i = 0, n = 1 + pick(r, RND_RULES_MAX); i < n; i++)
		rnd_rule(r, m, abis, n_abis, bits);
	fclose(m);
	return text;
}

/* The cause of a refused export: the documented refusal the first error
 * of d is (its index in refusals), or -1 if one of its errors is none. */
static int refusal_cause(const struct diag *d)
{
	int first = -1;

	for (size_t i = 0; i < d->n_msgs; i++) {
		size_t k = 0;

		if (d->msgs[i].severity != DIAG_ERROR)
			continue;
		while (k < N_REFUSALS &&
		       !(d->msgs[i].text && strstr(d->msgs[i].text, refusals[k].text)))
			k++;
		if (k == N_REFUSALS)
			return -1;
		if (first < 0)
			first = (int)k;
	}
	return first;
}

static void print_profile(const char *text)
{
	for (const char *p = text; *p;) {
		int n = (int)strcspn(p, "\n");

		tap_diag("  %.*s", n, p);
		p += n + (p[n] == '\n');
	}
}

struct soak {
	size_t compared, not_compiled, unexplained;
	size_t refused[N_REFUSALS];
};

/* One random profile: compiled, exported and compared as test_export()
 * does, or its refusal counted. The profile is shown when a check fails. */
static void soak_one(struct soak *s, const char *text, const char *what)
{
	struct compiled c = { 0 };
	struct diag d;
	char *json = NULL;
	unsigned failed = tap_failed;
	bool show = false;
	int r;

	diag_init(&d);
	r = compile_text(text, ".ini", &d, &c);
	if (r < 0) {
		/* the generator's: an impossible range, a value of one ABI's width */
		show = ++s->not_compiled <= 3;
	} else if (export_text(&c, &d, &json) < 0) {
		int k = refusal_cause(&d);

		if (k >= 0)
			s->refused[k]++;
		else
			tap_ok(false, "%s: refused, and not as the man page documents", what);
		s->unexplained += k < 0;
	} else {
		compare_export(what, json, &c);
		s->compared++;
	}
	if (show || tap_failed > failed) {
		char *msgs = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&msgs, &len);

		if (m) {
			diag_print(&d, "test", m);
			fclose(m);
		}
		tap_diag("%s:", what);
		print_profile(msgs ? msgs : ""); /* as TAP comments, as the profile */
		print_profile(text);
		free(msgs);
	}
	compiled_free(&c);
	diag_clear(&d);
	free(json);
}

/*
 * export-random N SEED: N random profiles through the checks of
 * test_export(). A refusal the man page documents is counted by cause; any
 * other fails, and so does a run in which fewer than two fifths of the
 * profiles were exported and compared (a soak that tests little).
 */
static void test_export_random(unsigned n, uint64_t seed)
{
	struct rng r = { seed ? seed : 1 };
	struct soak s = { 0 };
	char causes[512] = "", what[64];
	size_t len = 0, refused = 0, too_big_back = 0;

	read_back_too_big = &too_big_back;
	for (unsigned i = 0; i < n; i++) {
		char *text = rnd_profile(&r);

		snprintf(what, sizeof(what), "random profile %u of seed %#" PRIx64, i, seed);
		if (!text) {
			tap_ok(false, "%s: out of memory", what);
			return;
		}
		soak_one(&s, text, what);
		free(text);
	}
	for (size_t k = 0; k < N_REFUSALS; k++) {
		refused += s.refused[k];
		if (s.refused[k] && len < sizeof(causes))
			len += (size_t)snprintf(causes + len, sizeof(causes) - len, "%s%zu %s",
						len ? ", " : "", s.refused[k], refusals[k].cause);
	}
	read_back_too_big = NULL;
	tap_ok(s.unexplained == 0,
	       "%u random profiles of seed %#" PRIx64 ": %zu exported and compared (%zu of them "
	       "too big to read back or export again), %zu refused as documented (%s), %zu "
	       "otherwise, %zu did not compile",
	       n, seed, s.compared, too_big_back, refused, len ? causes : "none", s.unexplained,
	       s.not_compiled);
	tap_ok(s.compared * 5 >= (size_t)n * 2,
	       "at least two fifths of them exported and compared (%zu of %u)", s.compared, n);
	tap_ok(s.not_compiled * 10 <= n, "at most a tenth of them fail to compile (%zu of %u)",
	       s.not_compiled, n);
}

/*
 * --export-oci warns about the names libseccomp 2.5 cannot resolve
 * (oci_libseccomp_unknown()): on each ABI both know, every name of the
 * table is in that list exactly when this libseccomp cannot resolve it.
 * Only with the 2.5 series, whose table the list describes.
 */
static void test_names(void)
{
	const struct scmp_version *v = seccomp_version();

	if (v->major != 2 || v->minor != 5) {
		tap_skip("libseccomp %u.%u.%u: the list describes 2.5", v->major, v->minor,
			 v->micro);
		return;
	}
	for (int id = 0; id < ARCH_COUNT; id++) {
		const struct arch *a = arch_get((enum arch_id)id);
		uint32_t token = seccomp_arch_resolve_name(a->name);
		const struct syscall *list;
		size_t n, wrong = 0;

		if (!token)
			continue; /* an ABI this libseccomp does not know at all */
		list = syscalls_list(a, &n);
		for (size_t i = 0; i < n; i++) {
			const char *name = syscall_name(&list[i]);
			bool unknown;
			int nr;

			if (!name)
				continue;
			/* unknown, or a number of its own for a call it thinks the
			 * ABI has not: a rule on it is left out there */
			nr = seccomp_syscall_resolve_name_arch(token, name);
			unknown = nr == __NR_SCMP_ERROR ||
				  (nr < 0 && !arch_mux_subcall(a, name, NULL));
			if (unknown != oci_libseccomp_unknown(a, name)) {
				tap_diag("%s: '%s' is %sknown to libseccomp", a->name, name,
					 unknown ? "un" : "");
				wrong++;
			}
		}
		tap_ok(wrong == 0, "names: the list of names libseccomp cannot resolve on %s (%zu)",
		       a->name, n);
	}
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "names")) {
		test_names();
		return tap_done();
	}
	if (argc == 4 && !strcmp(argv[1], "export-random")) {
		test_export_random((unsigned)strtoul(argv[2], NULL, 0), strtoull(argv[3], NULL, 0));
		return tap_done();
	}
	if (argc < 2) {
		fprintf(stderr,
			"usage: %s json [--caps CAPS] FILE... | export PROFILE... | "
			"export-random N SEED | names\n",
			argv[0]);
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--caps") && i + 1 < argc) {
			caps_list = argv[++i];
			continue;
		}
		if (access(argv[i], R_OK) < 0) {
			tap_skip("%s: %s (install it to run this comparison)", argv[i],
				 strerror(errno));
			continue;
		}
		if (!strcmp(argv[1], "json"))
			test_json(argv[i]);
		else
			test_export(argv[i]);
	}
	return tap_done();
}
