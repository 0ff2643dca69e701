/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * scmp-run: command line and mode dispatch. The only place that prints
 * diagnostics and decides exit codes.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "audit.h"
#include "config.h"
#include "consts.h"
#include "groups.h"
#include "pfc.h"
#include "profile.h"
#include "run.h"
#include "sim.h"
#include "supervise.h"
#include "syscalls.h"

#define PROG "scmp-run"

/* Exit codes (SPEC 5). */
enum {
	EXIT_REJECTED = 1, /* non-run modes: the profile was rejected */
	EXIT_USAGE = 2,
	EXIT_RUN_FAILED = 125,
};

enum mode {
	MODE_RUN,
	MODE_CHECK,
	MODE_EXPORT_BPF,
	MODE_EXPORT_PFC,
	MODE_EXPLAIN,
	MODE_EXPLAIN_AUDIT,
	MODE_RESOLVE,
	MODE_LIST_SYSCALLS,
	MODE_LIST_ARCHES,
	MODE_LIST_GROUPS,
	MODE_LIST_PROFILES,
	MODE_HELP,
	MODE_VERSION,
};

struct options {
	enum mode mode;
	bool mode_set;
	const char *profile;
	const char *out;     /* --export-* FILE */
	const char *resolve; /* --resolve NAME|NUMBER */
	const struct arch *target;
	bool verbose;
	struct supervise_opts sup; /* --report, --permissive, --learn */
};

enum {
	OPT_CHECK = 0x100,
	OPT_EXPORT_BPF,
	OPT_EXPORT_PFC,
	OPT_EXPLAIN,
	OPT_RESOLVE,
	OPT_LIST_SYSCALLS,
	OPT_LIST_ARCHES,
	OPT_LIST_GROUPS,
	OPT_LIST_PROFILES,
	OPT_TARGET_ARCH,
	OPT_VERSION,
	OPT_REPORT,
	OPT_PERMISSIVE,
	OPT_LEARN,
	OPT_EXPLAIN_AUDIT,
};

static const struct option long_options[] = {
	{ "profile", required_argument, NULL, 'p' },
	{ "check", no_argument, NULL, OPT_CHECK },
	{ "export-bpf", required_argument, NULL, OPT_EXPORT_BPF },
	{ "export-pfc", required_argument, NULL, OPT_EXPORT_PFC },
	{ "explain", no_argument, NULL, OPT_EXPLAIN },
	{ "resolve", required_argument, NULL, OPT_RESOLVE },
	{ "list-syscalls", no_argument, NULL, OPT_LIST_SYSCALLS },
	{ "list-arches", no_argument, NULL, OPT_LIST_ARCHES },
	{ "list-groups", no_argument, NULL, OPT_LIST_GROUPS },
	{ "list-profiles", no_argument, NULL, OPT_LIST_PROFILES },
	{ "target-arch", required_argument, NULL, OPT_TARGET_ARCH },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "report", optional_argument, NULL, OPT_REPORT },
	{ "permissive", no_argument, NULL, OPT_PERMISSIVE },
	{ "learn", required_argument, NULL, OPT_LEARN },
	{ "explain-audit", optional_argument, NULL, OPT_EXPLAIN_AUDIT },
	{ 0 },
};

static void usage(FILE *f)
{
	fputs("Usage:\n"
	      "  " PROG " [OPTIONS] -p PROFILE [--] COMMAND [ARG...]  run COMMAND sandboxed\n"
	      "  " PROG " -p PROFILE --check                         validate, print a summary\n"
	      "  " PROG " -p PROFILE --export-bpf FILE|-             write the raw BPF program\n"
	      "  " PROG " -p PROFILE --export-pfc FILE|-             write pseudo filter code\n"
	      "  " PROG " -p PROFILE --explain SYSCALL [ARG...]      show the action for a call\n"
	      "  " PROG
	      " -p PROFILE --explain-audit [FILE|-]        explain seccomp audit records\n"
	      "  " PROG " --resolve NAME|NUMBER                      syscall name <-> number\n"
	      "  " PROG
	      " --list-syscalls | --list-arches | --list-groups [@GROUP] | --list-profiles\n"
	      "  " PROG " --help | --version\n"
	      "\n"
	      "Options:\n"
	      "  -p, --profile PROFILE  profile file, or name looked up in $SCMP_RUN_PROFILE_PATH,\n"
	      "                         " SCMP_RUN_SYSCONF_PROFILEDIR " and " SCMP_RUN_PROFILEDIR
	      "\n"
	      "      --check            validate the profile and print a summary\n"
	      "      --export-bpf FILE  write the program run mode would load ('-': stdout)\n"
	      "      --export-pfc FILE  write readable pseudo filter code ('-': stdout)\n"
	      "      --explain          print the action for SYSCALL [ARG...], the deciding rule\n"
	      "                         and the instructions executed\n"
	      "      --resolve NAME     print the number of a syscall name, or the name of a number\n"
	      "      --list-syscalls    list the syscalls of the target architecture\n"
	      "      --list-arches      list the architecture tokens\n"
	      "      --list-groups      list the syscall groups, or the members of @GROUP\n"
	      "      --list-profiles    list the profiles found by name\n"
	      "      --target-arch ARCH compile for ARCH ('native' means ARCH; not in run mode)\n"
	      "      --report[=FILE]    run supervised: report each denied call and its rule\n"
	      "                         to stderr (or FILE), then enact the profile's action\n"
	      "      --permissive       run supervised: report what would be denied, deny nothing\n"
	      "      --learn FILE       run supervised: write a profile allowing what the command\n"
	      "                         did (-p: the base it includes); not a sandbox\n"
	      "      --explain-audit [FILE|-]\n"
	      "                         explain the kernel's seccomp audit records (type=1326)\n"
	      "                         of FILE, stdin or the kernel log against the profile\n"
	      "  -v, --verbose          more detail\n"
	      "  -h, --help             show this help\n"
	      "      --version          show the version and the syscall table's kernel version\n",
	      f);
}

/* ---- small helpers ---- */

/* Usage errors exit 2, or 125 in run mode (SPEC 5: the command did not
 * run because scmp-run failed before exec). */
__attribute__((format(printf, 2, 3))) static int fail_usage_in(enum mode mode, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROG ": error: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '" PROG " --help' for more information.\n");
	return mode == MODE_RUN ? EXIT_RUN_FAILED : EXIT_USAGE;
}

#define fail_usage(...) fail_usage_in(MODE_CHECK, __VA_ARGS__)

static bool parse_u64(const char *s, uint64_t *ret)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	*ret = strtoull(s, &end, 0);
	return !errno && !*end;
}

/* A number, "-number", or a constant of ABI a, as a register value. */
static bool parse_arg_value(const char *s, const struct arch *a, uint64_t *ret)
{
	int64_t c;

	if (*s == '-' && parse_u64(s + 1, ret)) {
		*ret = (uint64_t)0 - *ret;
		return true;
	}
	if (parse_u64(s, ret))
		return true;
	if (consts_lookup(a, s, &c) == 0) {
		*ret = (uint64_t)c;
		return true;
	}
	return false;
}

static FILE *open_out(const char *path)
{
	if (!strcmp(path, "-"))
		return stdout;
	return fopen(path, "we");
}

static int close_out(FILE *f, const char *path)
{
	int r = 0;

	if (fflush(f) != 0 || ferror(f))
		r = -errno ? -errno : -EIO;
	if (f != stdout && fclose(f) != 0 && !r)
		r = -errno;
	if (r < 0)
		fprintf(stderr, PROG ": error: writing '%s': %s\n", path, strerror(-r));
	return r;
}

/* ---- modes that need no profile ---- */

static int do_resolve(const struct options *o)
{
	uint64_t nr;
	uint32_t got;

	if (parse_u64(o->resolve, &nr)) {
		const char *name =
			nr <= UINT32_MAX ? syscalls_lookup_nr(o->target, (uint32_t)nr) : NULL;

		if (!name) {
			fprintf(stderr, PROG ": error: no syscall number %s on %s\n", o->resolve,
				o->target->name);
			return EXIT_REJECTED;
		}
		printf("%s\n", name);
		return 0;
	}
	if (syscalls_lookup_name(o->target, o->resolve, &got) < 0) {
		fprintf(stderr, PROG ": error: %s '%s' on %s\n",
			syscalls_known(o->resolve) ? "no syscall" : "unknown syscall", o->resolve,
			o->target->name);
		return EXIT_REJECTED;
	}
	printf("%" PRIu32 "\n", got);
	return 0;
}

static int do_list_syscalls(const struct options *o)
{
	size_t n;
	const struct syscall *list = syscalls_list(o->target, &n);

	for (size_t i = 0; i < n; i++)
		printf("%s\t%" PRIu32 "\n", list[i].name, list[i].nr);
	return 0;
}

static int do_list_arches(void)
{
	printf("native\n");
	for (int id = 0; id < ARCH_COUNT; id++)
		printf("%s\n", arch_get((enum arch_id)id)->name);
	return 0;
}

static int do_list_groups(const char *group)
{
	size_t n;
	const struct group *list = groups_list(&n);

	if (!group) {
		for (size_t i = 0; i < n; i++)
			printf("%-16s %s\n", list[i].name, list[i].description);
		printf("%-16s %s\n", "@known", "every syscall name of the table");
		return 0;
	}
	const struct group *g = groups_lookup(group);

	if (!g)
		return fail_usage("unknown group '%s'", group);
	if (!g->members) { /* @known */
		for (int id = 0; id < ARCH_COUNT; id++) {
			const struct syscall *l = syscalls_list(arch_get((enum arch_id)id), &n);

			for (size_t i = 0; i < n; i++) {
				uint32_t nr;
				int first = id;

				/* print each name once: at the first ABI that has it */
				for (int k = 0; k < id; k++)
					if (syscalls_lookup_name(arch_get((enum arch_id)k),
								 l[i].name, &nr) == 0) {
						first = k;
						break;
					}
				if (first == id)
					printf("%s\n", l[i].name);
			}
		}
		return 0;
	}
	for (const char *const *m = g->members; *m; m++)
		printf("%s\n", *m);
	return 0;
}

static void list_dir(const char *dir, char ***names, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char *name, **grown;
		bool dup = false;

		if (len < 5 || strcmp(e->d_name + len - 4, ".ini"))
			continue;
		name = strndup(e->d_name, len - 4);
		for (size_t i = 0; name && i < *n; i++)
			dup |= !strcmp((*names)[i], name);
		grown = name && !dup ? reallocarray(*names, *n + 1, sizeof(char *)) : NULL;
		if (!grown) {
			free(name);
			continue;
		}
		*names = grown;
		grown[(*n)++] = name;
	}
	closedir(d);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int do_list_profiles(void)
{
	const char *env = getenv("SCMP_RUN_PROFILE_PATH");
	char **names = NULL, *copy = env ? strdup(env) : NULL, *save = NULL;
	size_t n = 0;

	for (char *dir = copy ? strtok_r(copy, ":", &save) : NULL; dir;
	     dir = strtok_r(NULL, ":", &save))
		list_dir(dir, &names, &n);
	list_dir(SCMP_RUN_SYSCONF_PROFILEDIR, &names, &n);
	list_dir(SCMP_RUN_PROFILEDIR, &names, &n);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++) {
		printf("%s\n", names[i]);
		free(names[i]);
	}
	free(names);
	free(copy);
	return 0;
}

/* ---- modes that compile a profile ---- */

struct compiled {
	struct profile *profile;
	struct policy *policy;
	struct bpf_prog *prog;
};

static void compiled_free(struct compiled *c)
{
	bpf_prog_free(c->prog);
	policy_free(c->policy);
	profile_free(c->profile);
}

/* Find, load and compile; diagnostics are printed here. */
static int compile(const struct options *o, struct compiled *c)
{
	struct diag d;
	char *path;
	int r;

	memset(c, 0, sizeof(*c));
	if (!o->profile) { /* --learn without a base */
		diag_init(&d);
		r = supervise_learn_base(&c->profile);
		if (r >= 0)
			r = rules_build(c->profile->rs, o->target, &d, &c->policy);
		if (r >= 0)
			r = bpf_generate(c->policy, &d, &c->prog);
		diag_print(&d, PROG, stderr);
		diag_clear(&d);
		if (r < 0)
			compiled_free(c);
		return r;
	}
	path = profile_find(o->profile, getenv("SCMP_RUN_PROFILE_PATH"), SCMP_RUN_PROFILEDIR);
	if (!path) {
		fprintf(stderr, PROG ": error: profile '%s' not found\n", o->profile);
		if (!strchr(o->profile, '/'))
			fprintf(stderr, PROG
				": hint: looked in $SCMP_RUN_PROFILE_PATH, " SCMP_RUN_SYSCONF_PROFILEDIR
				" and " SCMP_RUN_PROFILEDIR "; '" PROG
				" --list-profiles' lists them\n");
		return -ENOENT;
	}
	diag_init(&d);
	r = profile_load(path, o->target, &d, &c->profile);
	if (r >= 0)
		r = rules_build(c->profile->rs, o->target, &d, &c->policy);
	if (r >= 0)
		r = bpf_generate(c->policy, &d, &c->prog);
	if (r >= 0 && diag_failed(&d))
		r = -EINVAL;
	/* Warnings cannot weaken a filter: show them when asked to check, or
	 * when verbose; a service log gets only what stopped it. */
	if (r < 0 || o->mode != MODE_RUN || o->verbose)
		diag_print(&d, PROG, stderr);
	diag_clear(&d);
	free(path);
	if (r < 0)
		compiled_free(c);
	return r;
}

static bool uses_notify(const struct ruleset *rs)
{
	if (rs->attrs.default_action.kind == ACTION_NOTIFY ||
	    rs->attrs.bad_arch_action.kind == ACTION_NOTIFY ||
	    (rs->attrs.has_unknown_action && rs->attrs.unknown_action.kind == ACTION_NOTIFY))
		return true;
	for (size_t i = 0; i < rs->n_rules; i++)
		if (rs->rules[i].action.kind == ACTION_NOTIFY)
			return true;
	return false;
}

static void count_cache(const struct bpf_prog *prog, const struct abi_policy *abi,
			size_t *ret_cached, size_t *ret_total)
{
	*ret_cached = 0;
	*ret_total = abi->n_known;
	for (size_t i = 0; i < abi->n_known; i++)
		*ret_cached += sim_is_const_allow(prog->insns, prog->len, abi->arch->audit_arch,
						  abi->known[i].nr);
}

static int do_check(const struct options *o, const struct compiled *c)
{
	const struct ruleset *rs = c->profile->rs;
	const struct policy *p = c->policy;
	size_t per_action[ACTION_ALLOW + 1] = { 0 };
	char buf[64];

	printf("profile: %s\n", c->profile->path);
	if (c->profile->description)
		printf("description: %s\n", c->profile->description);
	printf("default action: %s\n", action_format(&rs->attrs.default_action, buf, sizeof(buf)));
	printf("unknown-syscall action: %s\n",
	       action_format(rs->attrs.has_unknown_action ? &rs->attrs.unknown_action
							  : &rs->attrs.default_action,
			     buf, sizeof(buf)));
	printf("bad-arch action: %s\n",
	       action_format(&rs->attrs.bad_arch_action, buf, sizeof(buf)));
	printf("no-new-privs: %s, tsync: %s, log: %s, spec-allow: %s\n",
	       rs->attrs.no_new_privs ? "yes" : "no", rs->attrs.tsync ? "yes" : "no",
	       rs->attrs.log ? "yes" : "no", rs->attrs.spec_allow ? "yes" : "no");
	for (size_t i = 0; i < rs->n_rules; i++)
		per_action[rs->rules[i].action.kind]++;
	printf("rules:");
	for (int k = 0; k <= ACTION_ALLOW; k++)
		if (per_action[k])
			printf(" %s %zu", action_kind_name((enum action_kind)k), per_action[k]);
	printf("%s\n", rs->n_rules ? "" : " none");
	printf("program: %zu instructions (limit %u)\n", c->prog->len, BPF_PROG_MAX);
	for (size_t i = 0; i < p->n_abis; i++) {
		struct policy one = *p;
		struct bpf_prog *prog = NULL;
		struct diag d;
		size_t cached, total;

		one.abis = &p->abis[i];
		one.n_abis = 1;
		diag_init(&d);
		if (bpf_generate(&one, &d, &prog) < 0) {
			printf("  %s: over the limit on its own\n", p->abis[i].arch->name);
			diag_clear(&d);
			continue;
		}
		count_cache(c->prog, &p->abis[i], &cached, &total);
		printf("  %s: %zu instructions alone; %zu of %zu syscalls served by the kernel's "
		       "always-allow cache\n",
		       p->abis[i].arch->name, prog->len, cached, total);
		bpf_prog_free(prog);
		diag_clear(&d);
	}
	return 0;
}

static int do_export_bpf(const struct options *o, const struct compiled *c)
{
	FILE *f = open_out(o->out);

	if (!f) {
		fprintf(stderr, PROG ": error: opening '%s': %s\n", o->out, strerror(errno));
		return EXIT_REJECTED;
	}
	fwrite(c->prog->insns, sizeof(*c->prog->insns), c->prog->len, f);
	return close_out(f, o->out) < 0 ? EXIT_REJECTED : 0;
}

static int do_export_pfc(const struct options *o, const struct compiled *c)
{
	FILE *f = open_out(o->out);

	if (!f) {
		fprintf(stderr, PROG ": error: opening '%s': %s\n", o->out, strerror(errno));
		return EXIT_REJECTED;
	}
	pfc_print(c->policy, f);
	return close_out(f, o->out) < 0 ? EXIT_REJECTED : 0;
}

static int do_explain(const struct options *o, const struct compiled *c, int argc, char **argv)
{
	const struct arch *a = o->target;
	struct seccomp_data sd = { .arch = a->audit_arch };
	struct sim_result res;
	struct decision dec;
	uint64_t nr;
	uint32_t nr32;
	char buf[64];

	if (argc < 1)
		return fail_usage("%s", "--explain needs a SYSCALL");
	if (argc > 1 + SYSCALL_ARGS_MAX)
		return fail_usage("%s", "--explain takes at most 6 arguments");
	if (parse_u64(argv[0], &nr) && nr <= UINT32_MAX) {
		nr32 = (uint32_t)nr;
	} else if (syscalls_lookup_name(a, argv[0], &nr32) < 0) {
		fprintf(stderr, PROG ": error: %s '%s' on %s\n",
			syscalls_known(argv[0]) ? "no syscall" : "unknown syscall", argv[0],
			a->name);
		return EXIT_REJECTED;
	}
	sd.nr = (int)nr32;
	for (int i = 1; i < argc; i++) {
		uint64_t v;

		if (!parse_arg_value(argv[i], a, &v)) {
			fprintf(stderr, PROG ": error: bad argument '%s': a number or a constant\n",
				argv[i]);
			return EXIT_USAGE;
		}
		sd.args[i - 1] = v;
	}
	struct seccomp_data raw;

	bpf_abi_data(a, &sd, &raw);
	if (sim_run(c->prog->insns, c->prog->len, &raw, &res) < 0) {
		fprintf(stderr, PROG ": internal error: the program did not run\n");
		return EXIT_REJECTED;
	}
	policy_decide(c->policy, &sd, &dec);
	if (dec.ret != res.ret) {
		fprintf(stderr, PROG ": internal error: program says 0x%08x, rules say 0x%08x\n",
			res.ret, dec.ret);
		return EXIT_REJECTED;
	}
	const char *name = syscalls_lookup_nr(a, nr32);

	printf("%s (%s %" PRIu32 "): %s\n", name ? name : "unknown", a->name, nr32,
	       action_format_ret(res.ret, a, buf, sizeof(buf)));
	switch (dec.why) {
	case DECIDE_RULE:
		printf("rule: %s:%u%s\n", dec.rule->src->loc.file, dec.rule->src->loc.line,
		       dec.rule->via_mux ? " (through the multiplexer, arguments not visible)"
					 : "");
		break;
	case DECIDE_DEFAULT:
		printf("rule: default\n");
		break;
	case DECIDE_UNKNOWN:
		printf("rule: unknown-syscall (not in the table for %s)\n", a->name);
		break;
	case DECIDE_BAD_ARCH:
		printf("rule: bad-arch\n");
		break;
	}
	printf("instructions executed: %zu of %zu\n", res.executed, c->prog->len);
	return 0;
}

/* Run mode (SPEC 5): everything is compiled and checked before anything
 * about the process changes; every failure exits 125. */
static int do_run(const struct options *o, const struct compiled *c, char **argv)
{
	extern char **environ;
	struct seccomp_data sd = { .arch = o->target->audit_arch };
	struct sim_result res;
	struct diag d;
	uint32_t nr;
	char *path = NULL;
	int status = EXIT_RUN_FAILED;

	if (o->sup.mode == SUPERVISE_NONE && uses_notify(c->profile->rs)) {
		fprintf(stderr,
			PROG ": error: %s: the 'notify' action needs a supervisor; run mode "
			     "has none\n",
			c->profile->path);
		return EXIT_RUN_FAILED;
	}
	diag_init(&d);
	if (o->sup.mode != SUPERVISE_NONE && supervise_check(c->profile, &d) < 0)
		goto out;
	path = run_resolve_command(argv[0], &d, &status);
	if (!path)
		goto out;
	/* The filter must let our own execve() through. */
	if (syscalls_lookup_name(o->target, "execve", &nr) == 0) {
		sd.nr = (int)nr;
		sd.args[0] = (uintptr_t)path;
		sd.args[1] = (uintptr_t)argv;
		sd.args[2] = (uintptr_t)environ;
		if (sim_run(c->prog->insns, c->prog->len, &sd, &res) < 0 ||
		    (res.ret != SECCOMP_RET_ALLOW && res.ret != SECCOMP_RET_LOG)) {
			char buf[64];

			diag_error(&d, NULL,
				   "%s: the filter would stop the execve() of the command itself "
				   "(%s)",
				   c->profile->path,
				   action_format_ret(res.ret, o->target, buf, sizeof(buf)));
			diag_hint(&d, NULL, "allow 'execve' in the profile");
			status = EXIT_RUN_FAILED;
			goto out;
		}
	}
	if (o->verbose) {
		fprintf(stderr, PROG ": %s: %zu instructions for", c->profile->path, c->prog->len);
		for (size_t i = 0; i < c->policy->n_abis; i++)
			fprintf(stderr, " %s", c->policy->abis[i].arch->name);
		fprintf(stderr, "; running %s\n", path);
	}
	status = EXIT_RUN_FAILED;
	if (o->sup.mode != SUPERVISE_NONE)
		status = supervise_run(&o->sup, c->profile, c->policy, path, argv, &d);
	else
		run_exec(c->profile, c->prog, path, argv, &d, &status);
out:
	diag_print(&d, PROG, stderr);
	diag_clear(&d);
	free(path);
	return status;
}

static int set_mode(struct options *o, enum mode m)
{
	if (o->mode_set && o->mode != m)
		return -1;
	o->mode = m;
	o->mode_set = true;
	return 0;
}

int main(int argc, char **argv)
{
	struct options o = { .mode = MODE_RUN };
	struct compiled c;
	const char *bad_arch = NULL;
	bool bad_option = false, conflict = false, conflict_sup = false;
	int opt, r;

	while ((opt = getopt_long(argc, argv, "+p:vh", long_options, NULL)) != -1) {
		r = 0;
		switch (opt) {
		case 'p':
			o.profile = optarg;
			break;
		case 'v':
			o.verbose = true;
			break;
		case 'h':
			r = set_mode(&o, MODE_HELP);
			break;
		case OPT_VERSION:
			r = set_mode(&o, MODE_VERSION);
			break;
		case OPT_CHECK:
			r = set_mode(&o, MODE_CHECK);
			break;
		case OPT_EXPORT_BPF:
		case OPT_EXPORT_PFC:
			r = set_mode(&o, opt == OPT_EXPORT_BPF ? MODE_EXPORT_BPF : MODE_EXPORT_PFC);
			o.out = optarg;
			break;
		case OPT_EXPLAIN:
			r = set_mode(&o, MODE_EXPLAIN);
			break;
		case OPT_RESOLVE:
			r = set_mode(&o, MODE_RESOLVE);
			o.resolve = optarg;
			break;
		case OPT_LIST_SYSCALLS:
			r = set_mode(&o, MODE_LIST_SYSCALLS);
			break;
		case OPT_LIST_ARCHES:
			r = set_mode(&o, MODE_LIST_ARCHES);
			break;
		case OPT_LIST_GROUPS:
			r = set_mode(&o, MODE_LIST_GROUPS);
			break;
		case OPT_LIST_PROFILES:
			r = set_mode(&o, MODE_LIST_PROFILES);
			break;
		case OPT_EXPLAIN_AUDIT:
			r = set_mode(&o, MODE_EXPLAIN_AUDIT);
			o.out = optarg;
			break;
		case OPT_REPORT:
			if (o.sup.mode == SUPERVISE_NONE)
				o.sup.mode = SUPERVISE_REPORT;
			o.sup.report_path = optarg;
			conflict_sup |= o.sup.mode == SUPERVISE_LEARN;
			break;
		case OPT_PERMISSIVE:
			conflict_sup |= o.sup.mode == SUPERVISE_LEARN;
			o.sup.mode = SUPERVISE_PERMISSIVE;
			break;
		case OPT_LEARN:
			conflict_sup |=
				o.sup.mode != SUPERVISE_NONE && o.sup.mode != SUPERVISE_LEARN;
			o.sup.mode = SUPERVISE_LEARN;
			o.sup.learn_path = optarg;
			break;
		case OPT_TARGET_ARCH:
			o.target = strcmp(optarg, "native") ? arch_lookup(optarg) : arch_native();
			if (!o.target)
				bad_arch = optarg;
			break;
		default:
			bad_option = true; /* getopt said what */
			break;
		}
		conflict |= r < 0;
	}
	argc -= optind;
	argv += optind;

	/* Report after parsing everything: the mode decides the exit code. */
	if (bad_option) {
		fprintf(stderr, "Try '" PROG " --help' for more information.\n");
		return o.mode == MODE_RUN ? EXIT_RUN_FAILED : EXIT_USAGE;
	}
	if (conflict)
		return fail_usage("%s", "conflicting modes: give one of --check, --export-bpf, "
					"--export-pfc, --explain, --resolve, --list-*");
	if (conflict_sup)
		return fail_usage_in(o.mode, "%s",
				     "--learn cannot be combined with --report or "
				     "--permissive");
	if (o.sup.mode != SUPERVISE_NONE && o.mode != MODE_RUN)
		return fail_usage("%s", "--report, --permissive and --learn are for run mode");
	o.sup.has_base = o.profile != NULL;
	o.sup.verbose = o.verbose;
	if (bad_arch)
		return fail_usage_in(o.mode, "unknown architecture '%s' (see --list-arches)",
				     bad_arch);
	if (o.mode == MODE_RUN && o.target)
		return fail_usage_in(o.mode, "%s",
				     "--target-arch is for --check, --export-* and --explain; "
				     "run mode always uses this machine's ABI");
	if (!o.target)
		o.target = arch_native();

	switch (o.mode) {
	case MODE_HELP:
		usage(stdout);
		return 0;
	case MODE_VERSION:
		printf(PROG " %s (syscall table: Linux %s)\n", SCMP_RUN_VERSION,
		       syscalls_kernel_version());
		return 0;
	case MODE_RESOLVE:
		return argc ? fail_usage("unexpected argument '%s'", argv[0]) : do_resolve(&o);
	case MODE_LIST_SYSCALLS:
		return argc ? fail_usage("unexpected argument '%s'", argv[0])
			    : do_list_syscalls(&o);
	case MODE_LIST_ARCHES:
		return argc ? fail_usage("unexpected argument '%s'", argv[0]) : do_list_arches();
	case MODE_LIST_PROFILES:
		return argc ? fail_usage("unexpected argument '%s'", argv[0]) : do_list_profiles();
	case MODE_LIST_GROUPS:
		if (argc > 1)
			return fail_usage("unexpected argument '%s'", argv[1]);
		return do_list_groups(argc ? argv[0] : NULL);
	default:
		break;
	}

	if (!o.profile && o.sup.mode != SUPERVISE_LEARN) {
		return fail_usage_in(o.mode, "%s", "no profile: use -p PROFILE");
	}
	if (o.mode == MODE_RUN && !argc)
		return fail_usage_in(o.mode, "%s", "no command to run");
	if (o.mode == MODE_EXPLAIN_AUDIT && !o.out && argc == 1) {
		o.out = argv[0]; /* --explain-audit FILE */
		argc--;
	}
	if (o.mode != MODE_RUN && o.mode != MODE_EXPLAIN && argc)
		return fail_usage("unexpected argument '%s'", argv[0]);

	if (compile(&o, &c) < 0)
		return o.mode == MODE_RUN ? EXIT_RUN_FAILED : EXIT_REJECTED;
	switch (o.mode) {
	case MODE_CHECK:
		r = do_check(&o, &c);
		break;
	case MODE_EXPORT_BPF:
		r = do_export_bpf(&o, &c);
		break;
	case MODE_EXPORT_PFC:
		r = do_export_pfc(&o, &c);
		break;
	case MODE_EXPLAIN:
		r = do_explain(&o, &c, argc, argv);
		break;
	case MODE_EXPLAIN_AUDIT: {
		struct diag d;

		diag_init(&d);
		r = audit_explain_file(c.policy, o.out, stdout, &d);
		diag_print(&d, PROG, stderr);
		diag_clear(&d);
		if (r == 0)
			fprintf(stderr, PROG ": no seccomp audit record (type=1326) in %s\n",
				!o.out		     ? "the kernel log"
				: strcmp(o.out, "-") ? o.out
						     : "the input");
		r = r > 0 ? 0 : EXIT_REJECTED;
		break;
	}
	default:
		r = do_run(&o, &c, argv);
		break;
	}
	compiled_free(&c);
	return r;
}
