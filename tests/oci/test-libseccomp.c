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
 *   test-libseccomp json-random N SEED                -p for N random
 *                                                     Docker-style JSON
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
 *    fail-closed, not libseccomp's handling; an export must match there),
 *    never laxer than libseccomp but where ipc's version bits are set
 *    (ipc_version());
 *  - strictest wins: a syscall the loader warned about (overlapping entries);
 *  - unknown to libseccomp: a name libseccomp 2.5.4 cannot resolve;
 *  - refused by libseccomp (JSON import only): a rule seccomp_rule_add_array()
 *    refused, on the call or on a sub-call of the multiplexer decided (runc
 *    would not start the container). An export scmp-run wrote
 *    must load: there a refused rule fails, and so does a program longer
 *    than EXPORT_LOADABLE, what a runtime can load after its own stub, or
 *    than the count the export checked its size with (oci_export_insns()).
 *  - unknown-syscall-action, bad-arch-action (export only): no OCI form;
 *  - built-in rule (JSON import only): a rule located at "built-in:NAME"
 *    decided (scmp-run.ini(5) BUILT-IN RULES: every profile gets them; an
 *    export carries them, so there they must agree).
 * On JSON import, where libseccomp 2.5.4 merges rules wrongly, a difference
 * that is otherwise unexplained, or on overlapping entries, or a built-in
 * rule's, is settled by each entry built alone (lone_verdict()): ours must
 * be what the man page's meaning gives; it is then counted as libseccomp's
 * merging, the argument widths, x32, or under its first cause.
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
	LONE_AGREE,
	WIDTHS,
	X32_ARG,
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
	"libseccomp's error (each entry alone decides as here)",
	"argument widths (each entry alone, on them, decides as here)",
	"x32 (a rule means there what it means on x86_64)",
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

/* libseccomp's architectures by their JSON names, and ours. */
static const struct {
	const char *name;
	uint32_t token;
	enum arch_id id;
} scmp_arches[] = {
	{ "SCMP_ARCH_X86_64", SCMP_ARCH_X86_64, ARCH_X86_64 },
	{ "SCMP_ARCH_X86", SCMP_ARCH_X86, ARCH_X86 },
	{ "SCMP_ARCH_X32", SCMP_ARCH_X32, ARCH_X32 },
	{ "SCMP_ARCH_AARCH64", SCMP_ARCH_AARCH64, ARCH_AARCH64 },
	{ "SCMP_ARCH_ARM", SCMP_ARCH_ARM, ARCH_ARM },
};
#define N_SCMP_ARCHES (sizeof(scmp_arches) / sizeof(scmp_arches[0]))

static uint32_t scmp_arch_token(const char *name)
{
	for (size_t i = 0; i < N_SCMP_ARCHES; i++)
		if (!strcmp(scmp_arches[i].name, name))
			return scmp_arches[i].token;
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

/* Do two conditions of args test the same argument? runc then adds each
 * as a rule of its own. */
static bool same_index_twice(json_t *args)
{
	unsigned count[SYSCALL_ARGS_MAX] = { 0 };
	json_t *v;
	size_t k;

	json_array_foreach(args, k, v)
	{
		uint64_t idx = json_u64(json_object_get(v, "index"));

		if (idx < SYSCALL_ARGS_MAX && ++count[idx] > 1)
			return true;
	}
	return false;
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
		size_t n = 0, k;
		bool split = same_index_twice(args);

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

/* ---- each entry alone ---- */

/*
 * Where libseccomp 2.5.4 merges the rules of a syscall wrongly (scmp-run.ini(5),
 * Differences from libseccomp), its program for the whole JSON is no oracle.
 * Each rule it gets from a kept entry, for each name (one per condition of a
 * split entry), is then built alone, under a default action no entry has:
 * that program says whether the rule matches a call, and the man page's
 * meaning what the call gets: the strictest action that matches, for one
 * action with different data the entry written first, the default action if
 * none does. Built alone, a rule is still compared on all 64 bits, where a
 * narrower argument means its width (a value zero- or sign-extended from it,
 * ordered compares unsigned on it): its values are written on that width,
 * and the calls asked have such arguments zero-extended.
 */
#define LONE_MISS      SCMP_ACT_TRACE(LONE_MISS_RET)
#define LONE_MISS_RET  4321
#define LONE_OTHER_RET 4322 /* the action of the entry beside it, below */

struct lone_rule {
	uint32_t act;
	char *text; /* the JSON with this rule alone */
	struct theirs t;
	int built; /* 0: not yet, 1: built, -1: libseccomp built nothing */
};

struct lone {
	struct lone_rule *rules; /* in the order of their entries */
	size_t n;
	uint32_t def;
	bool as_written; /* the values as the JSON writes them, not on widths */
};

/* The width of argument idx of syscall name on the native ABI (64 if unknown). */
static unsigned native_width(const char *name, uint64_t idx)
{
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	bool known;

	if (idx >= SYSCALL_ARGS_MAX || syscalls_args(arch_native(), name, args, &known) < 0 ||
	    args[idx].cls == ARG_NONE)
		return 64;
	return syscalls_arg_width(arch_native(), args[idx].cls);
}

/* A copy of the conditions args of a rule on name, each value on its
 * argument's width. */
static json_t *on_width(const char *name, json_t *args)
{
	json_t *out = json_deep_copy(args), *v;
	size_t k;

	json_array_foreach(out, k, v)
	{
		unsigned w = native_width(name, json_u64(json_object_get(v, "index")));
		static const char *const keys[] = { "value", "valueTwo" };

		for (size_t i = 0; w < 64 && i < 2; i++)
			json_object_set_new(
				v, keys[i],
				json_integer((json_int_t)(json_u64(json_object_get(v, keys[i])) &
							  width_max(w))));
	}
	return out;
}

/* Add the rule of entry e on name with conditions args. */
static int lone_add(struct lone *l, json_t *root, json_t *e, const char *name, uint32_t act,
		    json_t *args)
{
	json_t *copy = json_deep_copy(root), *one = json_object(),
	       *ret = json_object_get(e, "errnoRet");
	struct lone_rule *rules = reallocarray(l->rules, l->n + 1, sizeof(*rules));
	char *text = NULL;

	if (rules)
		l->rules = rules;
	if (copy && one && rules) {
		json_object_set_new(one, "names", json_pack("[s]", name));
		json_object_set(one, "action", json_object_get(e, "action"));
		if (ret)
			json_object_set(one, "errnoRet", ret);
		json_object_set_new(one, "args",
				    !args	    ? json_array()
				    : l->as_written ? json_deep_copy(args)
						    : on_width(name, args));
		json_object_set_new(copy, "defaultAction", json_string("SCMP_ACT_TRACE"));
		json_object_set_new(copy, "defaultErrnoRet", json_integer(LONE_MISS_RET));
		/* an entry without conditions on another real call beside it:
		 * where every such entry names a call x86_64 lacks or x86 makes
		 * through a multiplexer, libseccomp loses calls (scmp-run.ini(5),
		 * Differences from libseccomp) */
		json_object_set_new(copy, "syscalls",
				    json_pack("[O, {s:[s], s:s, s:i}]", one, "names",
					      strcmp(name, "getppid") ? "getppid" : "getpid",
					      "action", "SCMP_ACT_TRACE", "errnoRet",
					      LONE_OTHER_RET));
		text = json_dumps(copy, JSON_COMPACT);
	}
	json_decref(copy);
	json_decref(one);
	if (!text)
		return -ENOMEM;
	l->rules[l->n++] = (struct lone_rule){ .act = act, .text = text };
	return 0;
}

/* The rules of kept entry e, for each of its names: one, or one for each
 * condition where runc splits the entry. */
static int lone_add_entry(struct lone *l, json_t *root, json_t *e, uint32_t act)
{
	json_t *args = json_object_get(e, "args"), *names, *n, *v;
	bool split = same_index_twice(args);
	size_t i, k;
	int r = 0;

	if (json_is_string(json_object_get(e, "name")))
		names = json_pack("[O]", json_object_get(e, "name"));
	else
		names = json_incref(json_object_get(e, "names"));
	json_array_foreach(names, i, n)
	{
		if (r >= 0 && !split)
			r = lone_add(l, root, e, json_string_value(n), act, args);
		json_array_foreach(args, k, v)
		{
			json_t *one = split && r >= 0 ? json_pack("[O]", v) : NULL;

			if (split && r >= 0)
				r = one ? lone_add(l, root, e, json_string_value(n), act, one)
					: -ENOMEM;
			json_decref(one);
		}
	}
	json_decref(names);
	return r;
}

/* The rules of json_text's kept entries into l, their values on widths or
 * as_written (built later, when a difference asks for them). */
static int lone_make(const char *json_text, bool as_written, struct lone *l)
{
	json_t *root = load_text(json_text), *e;
	size_t i;
	bool ok;
	int r = root ? 0 : -EINVAL;

	*l = (struct lone){ .as_written = as_written };
	if (root)
		l->def = scmp_action(json_string_value(json_object_get(root, "defaultAction")),
				     json_object_get(root, "defaultErrnoRet"), &ok);
	json_array_foreach(json_object_get(root, "syscalls"), i, e)
	{
		uint32_t act = scmp_action(json_string_value(json_object_get(e, "action")),
					   json_object_get(e, "errnoRet"), &ok);

		if (r >= 0 && moby_keep(e) && act != l->def)
			r = lone_add_entry(l, root, e, act);
	}
	json_decref(root);
	return r;
}

static void lone_free(struct lone *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->rules[i].text);
		theirs_free(&l->rules[i].t);
	}
	free(l->rules);
}

/* What the man page's meaning gives the call raw, into *want. Returns 1 if
 * an entry matches, 0 if none does, -1 if an entry alone cannot say:
 * libseccomp built nothing for it, or its program returned neither the
 * entry's action nor LONE_MISS. */
static int lone_decide(struct lone *l, const struct seccomp_data *raw, uint32_t *want)
{
	bool matched = false;

	*want = l->def;
	for (size_t i = 0; i < l->n; i++) {
		struct lone_rule *r = &l->rules[i];
		struct sim_result res;

		if (!r->built)
			r->built = build_theirs(r->text, &r->t) < 0 ? -1 : 1;
		if (r->built < 0 || sim_run(r->t.insns, r->t.len, raw, &res) < 0)
			return -1;
		if (res.ret == LONE_MISS || res.ret == SCMP_ACT_TRACE(LONE_OTHER_RET))
			continue;
		if (res.ret != r->act)
			return -1;
		/* rules come in the order of their entries: a tie keeps the first */
		if (!matched || action_ret_rank(r->act) > action_ret_rank(*want))
			*want = r->act;
		matched = true;
	}
	return matched;
}

/* ---- comparing ---- */

#define DESCRIBE_MAX 256 /* a call and its answers, as describe() writes them */

struct compare {
	const struct policy *p;
	const struct bpf_prog *prog;
	const struct theirs *t;
	char **strict; /* names the loader warned about (overlaps) */
	size_t n_strict;
	char **never; /* names with a condition that can never be true */
	size_t n_never;
	bool exported; /* the export round trip: masks make every input exact */
	/* reading an export back: its policy, whose built-in rules may decide
	 * what a rule with the default action took from them (read_back_builtin()) */
	const struct policy *back;
	size_t estimate; /* the export's size count (oci_export_insns()); 0: none */
	/* JSON import: each kept entry built alone, to settle a difference;
	 * [0] its values on widths, [1] as written */
	struct lone *lone;
	size_t count[N_CAUSES];
	size_t inputs;
	char first_real[DESCRIBE_MAX];
	char first_lone[DESCRIBE_MAX]; /* the first LONE_AGREE, for the record */
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

/* Does libseccomp's program give the call sd of ABI a want? */
static bool theirs_give(const struct compare *c, const struct arch *a,
			const struct seccomp_data *sd, uint32_t want)
{
	struct seccomp_data raw;
	struct sim_result res;

	bpf_abi_data(a, sd, &raw);
	return sim_run(c->t->insns, c->t->len, &raw, &res) == 0 && res.ret == want;
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
		struct seccomp_data v = *sd;
		bool skip = false;

		for (int i = 0; i < SYSCALL_ARGS_MAX; i++) {
			uint64_t low = v.args[i] & width_max(width[i]);

			if (!(mask & (1u << i)))
				continue;
			skip |= width[i] == 64;
			v.args[i] = (low & width_sign(width[i])) ? low | ~width_max(width[i]) : low;
		}
		if (!skip && theirs_give(c, a, &v, want))
			return true;
	}
	return false;
}

/* ipc's first argument carries a version above the operation, which the
 * kernel reads from the low 16 bits (scmp-run.ini(5), Multiplexed calls),
 * where libseccomp compares the whole: clear the version of an ipc call sd;
 * false if it has none. */
static bool ipc_version(const char *name, struct seccomp_data *sd)
{
	if (!name || strcmp(name, "ipc") || !(sd->args[0] & 0xffff0000))
		return false;
	sd->args[0] &= 0xffff;
	return true;
}

static bool is_mux(const struct arch *a, const char *name)
{
	for (int k = 0; k < MUX_COUNT; k++)
		if (arch_mux_name(a, k) && name && !strcmp(arch_mux_name(a, k), name))
			return true;
	return false;
}

/* Is the sub-call the multiplexer call sd selects one with a condition that
 * can never be true? That rule produces nothing on the multiplexer
 * (scmp-run.ini(5), Multiplexed calls), where libseccomp replaces its first
 * comparison by the sub-call's number and applies the rest. */
static bool mux_never(const struct compare *c, const struct arch *a, const char *name,
		      const struct seccomp_data *sd)
{
	for (int k = 0; name && k < MUX_COUNT; k++) {
		const struct mux_subcall *subs;
		size_t n;

		if (!arch_mux_name(a, k) || strcmp(arch_mux_name(a, k), name))
			continue;
		subs = arch_mux_subcalls(k, &n);
		for (size_t i = 0; i < n; i++)
			if (subs[i].call == sd->args[0] &&
			    in_list(c->never, c->n_never, subs[i].name))
				return true;
	}
	return false;
}

/* Did libseccomp refuse a rule on a sub-call of the multiplexer name? Then
 * runc would not start, whatever the multiplexer decides. */
static bool mux_sub_refused(const struct compare *c, const struct arch *a, const char *name)
{
	for (size_t i = 0; i < c->t->n_refused; i++) {
		enum mux_kind k;

		if (arch_mux_subcall(a, c->t->refused[i], &k) && arch_mux_name(a, k) && name &&
		    !strcmp(arch_mux_name(a, k), name))
			return true;
	}
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

/* The call sd of ABI a and the two answers, for a diagnostic, into buf. */
static void describe(char buf[DESCRIBE_MAX], const struct arch *a, const char *name,
		     const struct seccomp_data *sd, uint32_t ours, uint32_t theirs)
{
	snprintf(buf, DESCRIBE_MAX,
		 "%s %s(%#" PRIx64 ", %#" PRIx64 ", %#" PRIx64 ", %#" PRIx64
		 "): ours %#x, libseccomp %#x",
		 a->name, name ? name : "?", (uint64_t)sd->args[0], (uint64_t)sd->args[1],
		 (uint64_t)sd->args[2], (uint64_t)sd->args[3], ours, theirs);
}

/* Does the meaning give the call raw what ours gave it (why: the cause so
 * far)? A built-in rule (BUILTIN) decides where no entry matches, even under
 * a default that kills (scmp-run.ini(5) BUILT-IN RULES: still refused), and
 * yields to an entry as strict or stricter. Returns 1 or 0, -1 if an entry
 * alone cannot say; the meaning's action in *want. */
static int lone_accepts(struct lone *l, const struct seccomp_data *raw, uint32_t ours,
			enum cause why, uint32_t *want)
{
	int m = lone_decide(l, raw, want);

	if (m < 0)
		return -1;
	if (why == BUILTIN)
		return !m || action_ret_rank(ours) > action_ret_rank(*want);
	return *want == ours;
}

/* The call sd of ABI a as lone_decide() asks it, into raw: its arguments
 * narrower than their register zero-extended (see lone_make()). */
static void lone_ask(const struct arch *a, const char *name, const struct seccomp_data *sd,
		     struct seccomp_data *raw)
{
	struct seccomp_data ask = *sd;
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	bool known;

	if (name && syscalls_args(a, name, args, &known) >= 0)
		for (int i = 0; i < SYSCALL_ARGS_MAX; i++)
			if (args[i].cls != ARG_NONE)
				ask.args[i] &= width_max(syscalls_arg_width(a, args[i].cls));
	bpf_abi_data(a, &ask, raw);
}

/*
 * A difference on the call sd (of ABI a, syscall name) settled by each entry
 * alone: ours must be what the meaning gives (lone_accepts()); libseccomp's
 * program then errs, or the argument's width decides, or, where the loader
 * warned of overlapping entries, strictest won. libseccomp compares every
 * argument of x32 on its low 32 bits, where a JSON rule means on x32 what it
 * means on x86_64 (scmp-run.ini(5), Differences from libseccomp): an x32
 * call the entries alone decide otherwise is asked again as the x86_64 call
 * of its name.
 */
static enum cause lone_verdict(struct compare *c, const struct arch *a, const char *name,
			       const struct seccomp_data *sd, uint32_t ours, uint32_t theirs,
			       enum cause why)
{
	const struct arch *x86_64 = arch_get(ARCH_X86_64);
	struct seccomp_data raw;
	uint32_t want = 0, nr64;
	int r;

	lone_ask(a, name, sd, &raw);
	r = lone_accepts(&c->lone[0], &raw, ours, why, &want);
	if (r == 1 && why == REAL) {
		uint32_t as_written;

		/* libseccomp's program errs if the entries as written agree
		 * too; else the difference is the argument's width */
		bpf_abi_data(a, sd, &raw);
		why = lone_accepts(&c->lone[1], &raw, ours, why, &as_written) == 1 ? LONE_AGREE
										   : WIDTHS;
	} else if (r == 1) {
		/* STRICTEST, BUILTIN: as the meaning says */
	} else if (r == 0 && a->id == ARCH_X32 && name &&
		   syscalls_lookup_name(x86_64, name, &nr64) >= 0) {
		struct seccomp_data as64 = *sd;

		as64.nr = (int)nr64;
		as64.arch = x86_64->audit_arch;
		lone_ask(x86_64, name, &as64, &raw);
		r = lone_accepts(&c->lone[0], &raw, ours, why, &want);
		why = r == 1 ? X32_ARG : REAL;
	} else {
		why = REAL;
	}
	if (r < 0 && !c->first_real[0]) {
		snprintf(c->first_real, sizeof(c->first_real),
			 "%s %s: an entry alone gave no answer", a->name, name ? name : "?");
	} else if ((why == REAL && !c->first_real[0]) || (why == LONE_AGREE && !c->first_lone[0])) {
		char *buf = why == REAL ? c->first_real : c->first_lone;

		describe(buf, a, name, sd, ours, theirs);
		snprintf(buf + strlen(buf), DESCRIBE_MAX - strlen(buf), ", the entries alone %#x",
			 want);
	}
	return why;
}

/* The cause of a difference on the call sd of ABI a (syscall name, dec its
 * policy's decision, ours our program's answer), before it is settled. */
static enum cause first_cause(const struct compare *c, const struct arch *a, const char *name,
			      const struct seccomp_data *sd, const struct decision *dec,
			      uint32_t ours)
{
	if (dec->why == DECIDE_BAD_ARCH && c->exported)
		return BAD_ARCH;
	if (dec->why == DECIDE_RULE && !c->exported && dec->rule->src->loc.file &&
	    !strncmp(dec->rule->src->loc.file, "built-in:", strlen("built-in:")))
		return BUILTIN;
	if (read_back_builtin(c, sd, dec))
		return BUILTIN_BACK;
	if (!name)
		return dec->why == DECIDE_UNKNOWN && c->exported ? UNKNOWN_NR : REAL;
	if (!c->exported && is_mux(a, name) && mux_sub_refused(c, a, name))
		return REFUSED;
	if (!c->exported && (is_mux(a, name) || (dec->why == DECIDE_RULE && dec->rule->via_mux)))
		return MUX;
	if (in_list(c->t->unknown, c->t->n_unknown, name))
		return UNKNOWN_NAME;
	if (!c->exported && in_list(c->t->refused, c->t->n_refused, name))
		return REFUSED;
	if (in_list(c->strict, c->n_strict, name))
		return STRICTEST;
	if (!c->exported && (dirty(a, name, sd) || agrees_extended(c, a, name, sd, ours)))
		return IGNORED_BITS;
	return REAL;
}

/* The cause why, settled: by each entry alone where they are at hand, and
 * by the direction of the difference. */
static enum cause settle(struct compare *c, const struct arch *a, const char *name,
			 const struct seccomp_data *sd, uint32_t ours, uint32_t theirs,
			 enum cause why)
{
	/* with its entries alone at hand, the meaning settles these */
	if (c->lone && (why == REAL || why == STRICTEST || why == BUILTIN))
		return lone_verdict(c, a, name, sd, ours, theirs, why);
	/* these three are ours being stricter by design: never laxer, but
	 * for ipc's version bits, or where libseccomp's program for the
	 * multiplexer errs (its entries alone decide as ours) */
	if ((why == MUX || why == BUILTIN || why == STRICTEST) &&
	    action_ret_rank(ours) < action_ret_rank(theirs)) {
		struct seccomp_data op = *sd;
		bool version = why == MUX && ipc_version(name, &op);

		if ((version && theirs_give(c, a, &op, ours)) || mux_never(c, a, name, &op))
			return why;
		return c->lone ? lone_verdict(c, a, name, &op, ours, theirs, REAL) : REAL;
	}
	/* an export refuses an unknown-syscall-action stricter than the
	 * default: libseccomp's is never the laxer one */
	if (why == UNKNOWN_NR && action_ret_rank(ours) > action_ret_rank(theirs))
		return REAL;
	return why;
}

static void compare_one(struct compare *c, const struct arch *a, const struct seccomp_data *sd)
{
	struct seccomp_data raw;
	struct sim_result ours, theirs;
	struct decision dec;
	const char *name = syscalls_lookup_nr(a, (uint32_t)sd->nr);
	enum cause why;

	c->inputs++;
	bpf_abi_data(a, sd, &raw);
	if (sim_run(c->prog->insns, c->prog->len, &raw, &ours) < 0 ||
	    sim_run(c->t->insns, c->t->len, &raw, &theirs) < 0) {
		c->count[REAL]++;
		snprintf(c->first_real, sizeof(c->first_real), "a program did not run");
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
	why = first_cause(c, a, name, sd, &dec, ours.ret);
	why = settle(c, a, name, sd, ours.ret, theirs.ret, why);
	c->count[why]++;
	if (why == REAL && !c->first_real[0])
		describe(c->first_real, a, name, sd, ours.ret, theirs.ret);
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
				for (int s = 0; low && s < SYSCALL_ARGS_MAX; s++)
					sd.args[s] &= UINT32_MAX;
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
	if (c->count[LONE_AGREE])
		tap_diag("first difference where libseccomp's program errs: %s", c->first_lone);
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

/* The names the loader's warnings give after text ("... match 'NAME' calls"),
 * added to *list. */
static void collect_named(const struct diag *d, const char *text, char ***list, size_t *n)
{
	size_t len = strlen(text);

	for (size_t i = 0; i < d->n_msgs; i++) {
		const char *t = d->msgs[i].text, *q = t ? strstr(t, text) : NULL;
		char name[64];

		if (!q || sscanf(q + len, "%63[^']'", name) != 1 || in_list(*list, *n, name))
			continue;
		*list = realloc(*list, (*n + 1) * sizeof(char *));
		(*list)[(*n)++] = strdup(name);
	}
}

/* The names of the loader's warnings on overlapping entries and on
 * conditions that can never be true. */
static void collect_strict(const struct diag *d, struct compare *c)
{
	collect_named(d, "can both match '", &c->strict, &c->n_strict);
	collect_named(d, "this condition of '", &c->never, &c->n_never);
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

/* In the random JSON soak (test_json_random()), JSON libseccomp builds no
 * program for (it refuses the whole, or never finishes: runc would not
 * start) is counted here; NULL elsewhere, where it fails. */
static size_t *built_nothing;

static void run_compare(const char *what, const char *json_text, const struct policy *p,
			const struct bpf_prog *prog, const struct diag *d, bool exported,
			size_t estimate)
{
	struct compare c = { .p = p, .prog = prog, .exported = exported, .estimate = estimate };
	struct theirs t = { 0 };
	struct lone lone[2] = { 0 };
	uint64_t extra[128];
	size_t n_extra = json_values(json_text, extra, 128);
	int r = build_theirs(json_text, &t);

	c.t = &t;
	if (r < 0 && built_nothing) {
		(*built_nothing)++;
		tap_diag("%s: libseccomp built no program: %s", what, strerror(-r));
	} else if (r < 0) {
		tap_ok(false, "%s: libseccomp built no program: %s", what, strerror(-r));
	} else if (!exported && (lone_make(json_text, false, &lone[0]) < 0 ||
				 lone_make(json_text, true, &lone[1]) < 0)) {
		tap_ok(false, "%s: each entry alone: out of memory", what);
	} else {
		/* an export is refused where libseccomp would merge wrongly:
		 * there its program must decide as ours, with no excuse */
		c.lone = exported ? NULL : lone;
		if (d)
			collect_strict(d, &c);
		compare_all(&c, extra, n_extra, 0x5eed + strlen(what));
		report(what, &c);
	}
	for (size_t i = 0; i < c.n_strict; i++)
		free(c.strict[i]);
	free(c.strict);
	for (size_t i = 0; i < c.n_never; i++)
		free(c.never[i]);
	free(c.never);
	lone_free(&lone[0]);
	lone_free(&lone[1]);
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

/* Profile text in a new file whose name ends in suffix (".json", ".ini"),
 * its name into path (unlink it); returns 0 or -EIO. */
static int text_file(const char *text, const char *suffix, char path[64])
{
	size_t len = strlen(text);
	int fd, r;

	snprintf(path, 64, "/tmp/test-libseccomp-XXXXXX%s", suffix);
	fd = mkstemps(path, (int)strlen(suffix));
	if (fd < 0)
		return -EIO;
	r = write(fd, text, len) != (ssize_t)len ? -EIO : 0;
	close(fd);
	if (r < 0)
		unlink(path);
	return r;
}

/* Profile text compiled as -p FILE compiles it, FILE's name ending in
 * suffix (".json" or ".ini"), into *ret. */
static int compile_text(const char *text, const char *suffix, struct diag *d, struct compiled *ret)
{
	struct oci_options opts = { 0 };
	char path[64];
	int r = text_file(text, suffix, path);

	if (r >= 0) {
		r = compile_file(path, arch_native(), &opts, d, ret);
		unlink(path);
	}
	return r;
}

/* JSON text as --import-oci prints it (malloc'ed INI text), or NULL with
 * the reason in d. */
static char *import_text(const char *json, struct diag *d)
{
	struct oci_options opts = { 0 };
	char path[64], *ini = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&ini, &len);
	int r = m ? text_file(json, ".json", path) : -ENOMEM;

	if (r >= 0) {
		r = oci_import(path, arch_native(), &opts, d, m);
		unlink(path);
	}
	if (m)
		fclose(m);
	if (r < 0) {
		free(ini);
		return NULL;
	}
	return ini;
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
struct refusal {
	const char *text;
	const char *cause;
};
#define REFUSALS_MAX 16 /* in a table of them */

static const struct refusal refusals[] = {
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
_Static_assert(N_REFUSALS <= REFUSALS_MAX, "struct soak counts every refusal");

static const char *rnd_action(struct rng *r)
{
	if (!pick(r, 200))
		return PICK(r, rnd_refused_actions);
	return PICK(r, rnd_actions);
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
	const char *sys = PICK(r, rnd_syscalls);
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

/* The cause of a refusal: the documented one the first error of d is (its
 * index in table), or -1 if one of its errors is none. */
static int refusal_cause(const struct diag *d, const struct refusal *table, size_t n)
{
	int first = -1;

	for (size_t i = 0; i < d->n_msgs; i++) {
		size_t k = 0;

		if (d->msgs[i].severity != DIAG_ERROR)
			continue;
		while (k < n && !(d->msgs[i].text && strstr(d->msgs[i].text, table[k].text)))
			k++;
		if (k == n)
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
	size_t import_differs;	      /* JSON: --import-oci compiles otherwise */
	size_t refused[REFUSALS_MAX]; /* by cause, as refusal_cause() gives it */
};

/* Count the refusal in d by its cause in table; one the man page does not
 * document fails. */
static void count_refusal(struct soak *s, const struct diag *d, const struct refusal *table,
			  size_t n, const char *what)
{
	int k = refusal_cause(d, table, n);

	if (k >= 0)
		s->refused[k]++;
	else
		tap_ok(false, "%s: refused, and not as the man page documents", what);
	s->unexplained += k < 0;
}

/* A failed case: its messages and its profile, as TAP comments. */
static void show_case(const char *what, const struct diag *d, const char *text)
{
	char *msgs = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&msgs, &len);

	if (m) {
		diag_print(d, "test", m);
		fclose(m);
	}
	tap_diag("%s:", what);
	print_profile(msgs ? msgs : "");
	print_profile(text);
	free(msgs);
}

/* The refusals of s counted by cause of table, as text into buf; returns
 * their number. */
static size_t soak_causes(const struct soak *s, const struct refusal *table, size_t n, char *buf,
			  size_t size)
{
	size_t len = 0, refused = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < n; k++) {
		refused += s->refused[k];
		if (s->refused[k] && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%zu %s", len ? ", " : "",
						s->refused[k], table[k].cause);
	}
	if (!len)
		snprintf(buf, size, "none");
	return refused;
}

/* n random profiles of seed (what kind), each made by make and checked by
 * check, which counts it in s. */
static void soak_run(struct soak *s, unsigned n, uint64_t seed, const char *kind,
		     char *(*make)(struct rng *),
		     void (*check)(struct soak *, const char *text, const char *what))
{
	struct rng r = { seed ? seed : 1 };
	char what[64];

	for (unsigned i = 0; i < n; i++) {
		char *text = make(&r);

		snprintf(what, sizeof(what), "random %s %u of seed %#" PRIx64, kind, i, seed);
		if (!text) {
			tap_ok(false, "%s: out of memory", what);
			return;
		}
		check(s, text, what);
		free(text);
	}
}

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
		count_refusal(s, &d, refusals, N_REFUSALS, what);
	} else {
		compare_export(what, json, &c);
		s->compared++;
	}
	if (show || tap_failed > failed)
		show_case(what, &d, text);
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
	struct soak s = { 0 };
	char causes[512];
	size_t refused, too_big_back = 0;

	read_back_too_big = &too_big_back;
	soak_run(&s, n, seed, "profile", rnd_profile, soak_one);
	refused = soak_causes(&s, refusals, N_REFUSALS, causes, sizeof(causes));
	read_back_too_big = NULL;
	tap_ok(s.unexplained == 0,
	       "%u random profiles of seed %#" PRIx64 ": %zu exported and compared (%zu of them "
	       "too big to read back or export again), %zu refused as documented (%s), %zu "
	       "otherwise, %zu did not compile",
	       n, seed, s.compared, too_big_back, refused, causes, s.unexplained, s.not_compiled);
	tap_ok(s.compared * 5 >= (size_t)n * 2,
	       "at least two fifths of them exported and compared (%zu of %u)", s.compared, n);
	tap_ok(s.not_compiled * 10 <= n, "at most a tenth of them fail to compile (%zu of %u)",
	       s.not_compiled, n);
}

/* ---- random JSON profiles ---- */

static const char *const rnd_oci_actions[] = {
	"SCMP_ACT_ALLOW", "SCMP_ACT_ERRNO", "SCMP_ACT_KILL", "SCMP_ACT_KILL_PROCESS",
	"SCMP_ACT_TRAP",  "SCMP_ACT_TRACE", "SCMP_ACT_LOG",
};

static const char *const rnd_oci_ops[] = {
	"SCMP_CMP_EQ", "SCMP_CMP_NE", "SCMP_CMP_LT",	    "SCMP_CMP_LE",
	"SCMP_CMP_GT", "SCMP_CMP_GE", "SCMP_CMP_MASKED_EQ",
};

/* The errors of scmp-run.ini(5) "Reading JSON" and "Differences from
 * libseccomp" a random JSON may meet, by a part of their message. */
static const struct refusal json_refusals[] = {
	{ "does not fit", "value wider than the argument" },
	{ "is a pointer: only", "pointer compared with a value" },
	{ "signed on some ABIs of the filter and unsigned on others", "signed on some ABIs" },
	{ "means another number on the 32-bit than on the 64-bit", "value of two meanings" },
	{ "has no argument", "no such argument" },
	{ "passed in two registers", "two-register argument" },
	{ "means nothing with", "valueTwo or errnoRet that means nothing" },
};
#define N_JSON_REFUSALS (sizeof(json_refusals) / sizeof(json_refusals[0]))
_Static_assert(N_JSON_REFUSALS <= REFUSALS_MAX, "struct soak counts every refusal");

/* An action as JSON keys (key, ret_key: "action", "errnoRet"), with its
 * errno or trace data now and then. */
static void rnd_oci_action(struct rng *r, FILE *m, const char *key, const char *ret_key)
{
	static const unsigned rets[] = { 0, 1, 13, 38, 4094 };
	const char *act = PICK(r, rnd_oci_actions);

	fprintf(m, "\"%s\": \"%s\"", key, act);
	if ((!strcmp(act, "SCMP_ACT_ERRNO") || !strcmp(act, "SCMP_ACT_TRACE")) && pick(r, 3))
		fprintf(m, ", \"%s\": %u", ret_key, PICK(r, rets));
}

/* A value for an argument of class cls on the native ABI (op: SCMP_CMP_...;
 * bits: the register width of the narrowest ABI of the filter): one that
 * fits it, a signed one sign-extended from its width or, compared for
 * (in)equality, also zero-extended. A wild profile also gets values that do
 * not fit, and pointers compared with other values than 0 (refused). */
static uint64_t rnd_oci_value(struct rng *r, enum arg_class cls, const char *op, bool wild,
			      unsigned bits)
{
	unsigned width = syscalls_arg_width(arch_native(), cls);
	bool equality = !strcmp(op, "SCMP_CMP_EQ") || !strcmp(op, "SCMP_CMP_NE");
	uint64_t v = rnd_value(r);

	if (wild && !pick(r, 4))
		return v;
	if (cls == ARG_PTR)
		return 0;
	width = width < bits ? width : bits;
	v &= width_max(width);
	if (syscalls_arg_signed(cls) && (v & width_sign(width)) && (!equality || pick(r, 2)))
		v |= ~width_max(width);
	return v;
}

/* An op for an argument of class cls: a pointer compares with 0 by
 * equality or "> 0" (scmp-run.ini(5)), unless the profile is wild. */
static const char *rnd_oci_op(struct rng *r, enum arg_class cls, bool wild)
{
	static const char *const ptr_ops[] = { "SCMP_CMP_EQ", "SCMP_CMP_NE", "SCMP_CMP_GT" };

	if (cls == ARG_PTR && !wild)
		return PICK(r, ptr_ops);
	return PICK(r, rnd_oci_ops);
}

/* Can an argument of class cls be compared? */
static bool comparable(enum arg_class cls)
{
	return cls != ARG_NONE && cls != ARG_PAIR && cls != ARG_PAD;
}

/* The conditions of an entry on syscall sys: 0 to 3, now and then two on one
 * argument (runc splits the entry), on arguments sys has unless the profile
 * is wild. */
static void rnd_oci_args(struct rng *r, FILE *m, const char *sys, bool wild, unsigned bits)
{
	struct syscall_arg args[SYSCALL_ARGS_MAX];
	unsigned used[3], n = pick(r, 4), n_ok = 0;
	bool known;

	if (syscalls_args(arch_native(), sys, args, &known) < 0)
		return;
	for (int i = 0; i < SYSCALL_ARGS_MAX; i++)
		n_ok += comparable(args[i].cls);
	if (!n || (!n_ok && !wild))
		return;
	fprintf(m, ", \"args\": [");
	for (unsigned k = 0; k < n; k++) {
		unsigned idx = k && !pick(r, 4) ? used[pick(r, k)] : pick(r, SYSCALL_ARGS_MAX);
		const char *op;
		uint64_t v2 = 0;

		while (!wild && !comparable(args[idx].cls))
			idx = pick(r, SYSCALL_ARGS_MAX);
		used[k] = idx;
		op = rnd_oci_op(r, args[idx].cls, wild);
		if (!strcmp(op, "SCMP_CMP_MASKED_EQ"))
			v2 = rnd_oci_value(r, args[idx].cls, op, wild, bits);
		else if (wild && !pick(r, 8))
			v2 = 1; /* refused: valueTwo means nothing there */
		fprintf(m,
			"%s{\"index\": %u, \"value\": %" PRIu64 ", \"valueTwo\": %" PRIu64
			", \"op\": \"%s\"}",
			k ? ", " : "", idx, rnd_oci_value(r, args[idx].cls, op, wild, bits), v2,
			op);
	}
	fputc(']', m);
}

/* includes or excludes, now and then: what moby decides by. */
static void rnd_oci_filter(struct rng *r, FILE *m)
{
	static const char *const tests[] = {
		"\"caps\": [\"CAP_SYS_ADMIN\"]", "\"arches\": [\"amd64\", \"arm64\"]",
		"\"arches\": [\"s390x\"]",	 "\"minKernel\": \"4.8\"",
		"\"minKernel\": \"99.1\"",
	};

	if (pick(r, 8))
		return;
	fprintf(m, ", \"%s\": {%s}", pick(r, 2) ? "includes" : "excludes", PICK(r, tests));
}

/* The JSON names of the native ABI and, now and then, of those that run
 * beside it, into out; the register width of the narrowest into *bits. */
static size_t rnd_oci_arches(struct rng *r, const char **out, unsigned *bits)
{
	const struct arch *native = arch_native();
	size_t n = 0;

	*bits = 64;
	for (size_t i = 0; i < N_SCMP_ARCHES; i++) {
		const struct arch *a = arch_get(scmp_arches[i].id);

		if (a == native || (arch_compatible(native, a) && pick(r, 2))) {
			out[n++] = scmp_arches[i].name;
			*bits = a->bits < *bits ? a->bits : *bits;
		}
	}
	return n;
}

/* A random Docker-style JSON profile (malloc'ed text), or NULL. One in
 * four is wild: it may have what the reader refuses. */
static char *rnd_json(struct rng *r)
{
	const char *arches[N_SCMP_ARCHES];
	unsigned bits;
	size_t n_arches = rnd_oci_arches(r, arches, &bits), len = 0;
	bool wild = !pick(r, 4);
	char *text = NULL;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return NULL;
	fputc('{', m);
	rnd_oci_action(r, m, "defaultAction", "defaultErrnoRet");
	if (!pick(r, 3)) { /* as Docker writes them */
		fprintf(m, ", \"archMap\": [{\"architecture\": \"%s\", \"subArchitectures\": [",
			arches[0]);
		for (size_t i = 1; i < n_arches; i++)
			fprintf(m, "%s\"%s\"", i > 1 ? ", " : "", arches[i]);
		fprintf(m, "]}]");
	} else if (pick(r, 2)) { /* as runc gets them */
		fprintf(m, ", \"architectures\": [");
		for (size_t i = 0; i < n_arches; i++)
			fprintf(m, "%s\"%s\"", i ? ", " : "", arches[i]);
		fputc(']', m);
	}
	fprintf(m, ", \"syscalls\": [");
	for (unsigned i = 0, n = 1 + pick(r, RND_RULES_MAX); i < n; i++) {
		const char *sys = PICK(r, rnd_syscalls);
		char *args = NULL;
		size_t args_len = 0;
		FILE *a = open_memstream(&args, &args_len);

		if (!a)
			break;
		rnd_oci_args(r, a, sys, wild, bits);
		fclose(a);
		/* the first name's arguments are the conditions'; other names
		 * only where there are none, or in a wild profile (their
		 * arguments differ: often refused) */
		fprintf(m, "%s{\"names\": [\"%s\"", i ? ", " : "", sys);
		for (unsigned k = !*args || wild ? pick(r, 3) : 0; k > 0; k--)
			fprintf(m, ", \"%s\"", PICK(r, rnd_syscalls));
		fprintf(m, "], ");
		rnd_oci_action(r, m, "action", "errnoRet");
		fputs(args, m);
		free(args);
		rnd_oci_filter(r, m);
		fputc('}', m);
	}
	fprintf(m, "]}\n");
	fclose(m);
	return text;
}

/* Does the --import-oci profile of JSON text compile to c's program
 * (scmp-run.ini(5), --import-oci)? */
static bool imports_alike(const struct compiled *c, const char *text, const char *what)
{
	struct compiled back = { 0 };
	struct diag d;
	char *ini;
	bool same;

	diag_init(&d);
	ini = import_text(text, &d);
	same = ini && compile_text(ini, ".ini", &d, &back) >= 0 && back.prog->len == c->prog->len &&
	       !memcmp(back.prog->insns, c->prog->insns, c->prog->len * sizeof(*c->prog->insns));
	if (!same) {
		tap_diag("%s: its --import-oci profile compiles to another program", what);
		show_case("the import's messages and profile", &d, ini ? ini : "(none)");
	}
	compiled_free(&back);
	diag_clear(&d);
	free(ini);
	return same;
}

/* One random JSON: read as -p reads it and compared with libseccomp (each
 * entry alone settling a difference), or its refusal counted. */
static void json_soak_one(struct soak *s, const char *text, const char *what)
{
	struct compiled c = { 0 };
	struct diag d;
	unsigned failed = tap_failed;

	diag_init(&d);
	if (compile_text(text, ".json", &d, &c) < 0) {
		count_refusal(s, &d, json_refusals, N_JSON_REFUSALS, what);
	} else {
		size_t nothing = *built_nothing;

		run_compare(what, text, c.policy, c.prog, &d, false, 0);
		s->compared += *built_nothing == nothing;
		s->import_differs += !imports_alike(&c, text, what);
	}
	if (tap_failed > failed)
		show_case(what, &d, text);
	compiled_free(&c);
	diag_clear(&d);
}

/*
 * json-random N SEED: N random Docker-style JSON profiles read as -p reads
 * them and compared with libseccomp as runc drives it; a difference is
 * settled by each entry alone (lone_decide()). The --import-oci profile of
 * each must compile to the same program. A refusal the man page documents
 * is counted by cause, any other fails; so does a run in which fewer than
 * half of the profiles were compared.
 */
static void test_json_random(unsigned n, uint64_t seed)
{
	struct soak s = { 0 };
	size_t nothing = 0, refused;
	char causes[512];

	built_nothing = &nothing;
	soak_run(&s, n, seed, "JSON", rnd_json, json_soak_one);
	built_nothing = NULL;
	refused = soak_causes(&s, json_refusals, N_JSON_REFUSALS, causes, sizeof(causes));
	tap_ok(s.unexplained == 0,
	       "%u random JSON profiles of seed %#" PRIx64 ": %zu compared, %zu for which "
	       "libseccomp built no program, %zu refused as documented (%s), %zu otherwise",
	       n, seed, s.compared, nothing, refused, causes, s.unexplained);
	tap_ok(s.compared * 2 >= (size_t)n, "at least half of them compared (%zu of %u)",
	       s.compared, n);
	tap_ok(s.import_differs == 0,
	       "the --import-oci profile of each compiles to its program (%zu differ)",
	       s.import_differs);
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
	if (argc == 4 && !strcmp(argv[1], "json-random")) {
		test_json_random((unsigned)strtoul(argv[2], NULL, 0), strtoull(argv[3], NULL, 0));
		return tap_done();
	}
	if (argc == 4 && !strcmp(argv[1], "export-random")) {
		test_export_random((unsigned)strtoul(argv[2], NULL, 0), strtoull(argv[3], NULL, 0));
		return tap_done();
	}
	if (argc < 2) {
		fprintf(stderr,
			"usage: %s json [--caps CAPS] FILE... | export PROFILE... | "
			"export-random N SEED | json-random N SEED | names\n",
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
