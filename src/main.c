/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * scmp-run: the command line. Options -> mode -> the module that does the
 * job -> exit status. Every message goes through a struct diag printed here,
 * and exit_status() is the one place that turns an outcome into an exit code.
 */
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "audit.h"
#include "caps.h"
#include "compile.h"
#include "config.h"
#include "explain.h"
#include "export.h"
#include "groups.h"
#include "hardening.h"
#include "landlock.h"
#include "lint.h"
#include "listing.h"
#include "memstream.h"
#include "oci.h"
#include "run.h"
#include "summary.h"
#include "supervise.h"
#include "syscalls.h"

#define PROG "scmp-run"

#if SCMP_RUN_OCI
#define OCI_NOTE ""
#else
#define OCI_NOTE " (built without OCI support)"
#endif

/* What came of a mode; exit_status() turns it into the exit code. */
enum outcome {
	OUTCOME_OK,
	OUTCOME_USAGE,		/* the command line is wrong */
	OUTCOME_REJECTED,	/* a rejected profile, a failed lookup or write, a failed run */
	OUTCOME_NOT_FOUND,	/* run mode: the command was not found */
	OUTCOME_NOT_EXECUTABLE, /* run mode: the command could not be executed */
	OUTCOME_COMMAND,	/* supervised run mode: the command ran; its status counts */
};

enum mode {
	MODE_RUN,
	MODE_CHECK,
	MODE_EXPORT_BPF,
	MODE_EXPORT_PFC,
	MODE_EXPORT_OCI,
	MODE_IMPORT_OCI,
	MODE_EXPLAIN,
	MODE_EXPLAIN_AUDIT,
	MODE_EXPLAIN_PATH,
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
	const char *import;  /* --import-oci FILE */
	struct oci_options oci;
	const struct arch *target;
	const char *user, *group; /* --user, --group */
	const char **sets;	  /* --set, in order (room for every argument) */
	size_t n_sets;
	bool verbose;
	bool unlisted;		   /* --list-groups --unlisted */
	bool strict;		   /* --strict: warnings of --check are errors */
	struct supervise_opts sup; /* --report, --permissive, --learn */
	bool sup_conflict;	   /* --learn with --report or --permissive */
	uint64_t given;		   /* the value options seen, by row of option_names[] */
	uint64_t given_value;	   /* ... of those, the ones seen with a value */
	const char *twice;	   /* a value option given twice (its long name) */
};

enum {
	OPT_CHECK = 0x100,
	OPT_EXPORT_BPF,
	OPT_EXPORT_PFC,
	OPT_EXPLAIN,
	OPT_EXPLAIN_PATH,
	OPT_RESOLVE,
	OPT_LIST_SYSCALLS,
	OPT_LIST_ARCHES,
	OPT_LIST_GROUPS,
	OPT_LIST_PROFILES,
	OPT_TARGET_ARCH,
	OPT_USER,
	OPT_GROUP,
	OPT_VERSION,
	OPT_EXPORT_OCI,
	OPT_IMPORT_OCI,
	OPT_OCI_CAPS,
	OPT_REPORT,
	OPT_PERMISSIVE,
	OPT_LEARN,
	OPT_EXPLAIN_AUDIT,
	OPT_SET,
	OPT_UNLISTED,
	OPT_STRICT,
};

#define OPTION_NAME_SIZE 16
/* One row, its name checked to fit with its NUL when compiled (ARRAY_FITS()). */
/* clang-format off */
#define OPT(s, has_arg, val) { s, (has_arg) + (int)ARRAY_FITS(s, OPTION_NAME_SIZE), val }
/* clang-format on */

/*
 * The long options, turned into getopt_long()'s table by long_options():
 * a table of struct option holds pointers, which the loader would
 * relocate at every start (docs/performance.md, Launch).
 */
static const struct {
	char name[OPTION_NAME_SIZE];
	int has_arg, val;
} option_names[] = {
	OPT("profile", required_argument, 'p'),
	OPT("check", no_argument, OPT_CHECK),
	OPT("strict", no_argument, OPT_STRICT),
	OPT("export-bpf", required_argument, OPT_EXPORT_BPF),
	OPT("export-pfc", required_argument, OPT_EXPORT_PFC),
	OPT("export-oci", required_argument, OPT_EXPORT_OCI),
	OPT("import-oci", required_argument, OPT_IMPORT_OCI),
	OPT("oci-caps", required_argument, OPT_OCI_CAPS),
	OPT("explain", no_argument, OPT_EXPLAIN),
	OPT("explain-path", no_argument, OPT_EXPLAIN_PATH),
	OPT("resolve", required_argument, OPT_RESOLVE),
	OPT("list-syscalls", no_argument, OPT_LIST_SYSCALLS),
	OPT("list-arches", no_argument, OPT_LIST_ARCHES),
	OPT("list-groups", no_argument, OPT_LIST_GROUPS),
	OPT("unlisted", no_argument, OPT_UNLISTED),
	OPT("list-profiles", no_argument, OPT_LIST_PROFILES),
	OPT("target-arch", required_argument, OPT_TARGET_ARCH),
	OPT("user", required_argument, OPT_USER),
	OPT("group", required_argument, OPT_GROUP),
	OPT("set", required_argument, OPT_SET),
	OPT("verbose", no_argument, 'v'),
	OPT("help", no_argument, 'h'),
	OPT("version", no_argument, OPT_VERSION),
	OPT("report", optional_argument, OPT_REPORT),
	OPT("permissive", no_argument, OPT_PERMISSIVE),
	OPT("learn", required_argument, OPT_LEARN),
	OPT("explain-audit", optional_argument, OPT_EXPLAIN_AUDIT),
};

#define N_LONG_OPTIONS (sizeof(option_names) / sizeof(option_names[0]))
_Static_assert(N_LONG_OPTIONS <= 64, "struct options.given has a bit per long option");

static void long_options(struct option out[N_LONG_OPTIONS + 1])
{
	for (size_t i = 0; i < N_LONG_OPTIONS; i++)
		out[i] = (struct option){ option_names[i].name, option_names[i].has_arg, NULL,
					  option_names[i].val };
	out[N_LONG_OPTIONS] = (struct option){ 0 };
}

static void usage(FILE *f)
{
	fputs("Usage:\n"
	      "  " PROG " [OPTIONS] -p PROFILE [--] COMMAND [ARG...]  run COMMAND sandboxed\n"
	      "  " PROG " -p PROFILE --check [--strict]              validate, print a summary\n"
	      "  " PROG " -p PROFILE --export-bpf FILE|-             write the raw BPF program\n"
	      "  " PROG " -p PROFILE --export-pfc FILE|-             write pseudo filter code\n"
	      "  " PROG " -p PROFILE --export-oci FILE|-             write OCI seccomp JSON\n"
	      "  " PROG " --import-oci FILE.json                     print it as an INI profile\n"
	      "  " PROG " -p PROFILE --explain SYSCALL [ARG...]      show the action for a call\n"
	      "  " PROG
	      " -p PROFILE --explain-audit [FILE|-]        explain seccomp audit records\n"
	      "  " PROG
	      " -p PROFILE --explain-path PATH [ACCESS]    show the [landlock] line for a path\n"
	      "  " PROG " --resolve NAME|NUMBER                      syscall name <-> number\n"
	      "  " PROG " --list-syscalls | --list-arches | --list-profiles\n"
	      "  " PROG " [-p PROFILE] --list-groups [--unlisted | @GROUP]\n"
	      "  " PROG " --help | --version\n"
	      "\n"
	      "Options:\n"
	      "  -p, --profile PROFILE  profile file (with a '/'), '-' for standard input, or a\n"
	      "                         name, never looked up in the current directory but in\n"
	      "                         $SCMP_RUN_PROFILE_PATH, " SCMP_RUN_SYSCONF_PROFILEDIR
	      " and\n"
	      "                         " SCMP_RUN_PROFILEDIR "\n"
	      "      --check            validate the profile and print a summary\n"
	      "      --strict           with --check: warnings are errors (exit status 1)\n"
	      "      --export-bpf FILE  write the program run mode would load ('-': stdout)\n"
	      "      --export-pfc FILE  write readable pseudo filter code ('-': stdout)\n"
	      "      --export-oci FILE  write the profile as OCI runtime-spec seccomp JSON\n"
	      "                         ('-': stdout)" OCI_NOTE "\n"
	      "      --import-oci FILE  print an OCI/Docker seccomp JSON file as an INI profile" OCI_NOTE
	      "\n"
	      "      --oci-caps CAPS    capabilities the process keeps, for the includes/excludes\n"
	      "                         of a JSON profile (CAP_A,CAP_B; default none)" OCI_NOTE "\n"
	      "      --explain          print the action for SYSCALL [ARG...], the deciding rule\n"
	      "                         and the instructions executed\n"
	      "      --explain-path     print whether [landlock] allows PATH for ACCESS (read,\n"
	      "                         write or exec; default read) and the deciding line\n"
	      "      --resolve NAME     print the number of a syscall name, or the name of a number\n"
	      "      --list-syscalls    list the syscalls of the target architecture\n"
	      "      --list-arches      list the architecture tokens\n"
	      "      --list-groups      list the syscall groups (with -p: the profile's too),\n"
	      "                         or the members of @GROUP\n"
	      "      --unlisted         with --list-groups: the target architecture's syscalls\n"
	      "                         in no built-in group\n"
	      "      --list-profiles    list the profiles found by name\n"
	      "      --target-arch ARCH compile for ARCH ('native' means ARCH; not in run mode)\n"
	      "      --user USER        run as USER (name or number), instead of [credentials] user\n"
	      "      --group GROUP      run as GROUP, instead of [credentials] group\n"
	      "      --set SECTION.KEY=VALUE\n"
	      "                         add a profile line after the whole profile (repeatable):\n"
	      "                         a scalar key replaces, a rule or list key adds\n"
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

/* scmp-run(1) EXIT STATUS. In run mode every failure of scmp-run itself is
 * 125: the command did not run. A supervised command's own status is
 * passed on (command_status). */
static int exit_status(enum mode mode, enum outcome o, int command_status)
{
	switch (o) {
	case OUTCOME_OK:
		return 0;
	case OUTCOME_COMMAND:
		return command_status;
	case OUTCOME_NOT_FOUND:
		return 127;
	case OUTCOME_NOT_EXECUTABLE:
		return 126;
	case OUTCOME_USAGE:
		return mode == MODE_RUN ? 125 : 2;
	case OUTCOME_REJECTED:
		break;
	}
	return mode == MODE_RUN ? 125 : 1;
}

__attribute__((format(printf, 2, 3))) static enum outcome usage_error(struct diag *d,
								      const char *fmt, ...)
{
	va_list ap;
	char *text = NULL;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	diag_error(d, NULL, "%s", text ? text : "out of memory");
	diag_hint(d, NULL, "try '" PROG " --help' for more information");
	free(text);
	return OUTCOME_USAGE;
}

static enum outcome outcome_of(int r)
{
	return r < 0 ? OUTCOME_REJECTED : OUTCOME_OK;
}

/* A syscall given by name or number (--resolve, --explain): one that is
 * not there is a lookup that found nothing, a malformed or out-of-range
 * number a wrong operand, as a wrong ARG of --explain is (scmp-run(1)
 * EXIT STATUS). */
static enum outcome lookup_outcome(int r)
{
	return r == -EINVAL ? OUTCOME_USAGE : outcome_of(r);
}

/*
 * scmp-run(1) TRUST: every privilege scmp-run uses is its caller's. Started
 * set-user-ID, set-group-ID or with file capabilities (the kernel then sets
 * AT_SECURE) by a user who is not root, it would trust that user's profile
 * (owned by the real uid), switch to any --user and write any --export-*
 * FILE with privileges the user does not have. A caller whose real uid is 0
 * gains nothing from it. True if it must stop.
 */
static bool privileges_not_callers(struct diag *d)
{
	if (!getauxval(AT_SECURE) || getuid() == 0)
		return false;
	diag_error(d, NULL,
		   "started set-user-ID, set-group-ID or with file capabilities (uid %u, "
		   "effective uid %u): scmp-run runs with its caller's privileges only",
		   (unsigned)getuid(), (unsigned)geteuid());
	diag_hint(d, NULL,
		  "remove the set-user-ID or set-group-ID bit (chmod u-s,g-s) or the file "
		  "capabilities (setcap -r), and start scmp-run as root (sudo, a systemd unit)");
	return true;
}

/* ---- modes that need no profile ---- */

/* --list-groups [--unlisted] [@GROUP], with the user groups of p (may be
 * NULL) */
static enum outcome list_groups(const struct options *o, const struct profile *p, int argc,
				char **argv, struct diag *d)
{
	int r;

	if (argc > 1 || (o->unlisted && argc))
		return usage_error(d, "unexpected argument '%s'", argv[o->unlisted ? 0 : 1]);
	if (o->unlisted)
		return outcome_of(listing_unlisted(o->target, stdout));
	r = listing_groups(argc ? argv[0] : NULL, p, stdout, d);
	return r == -ENOENT ? OUTCOME_USAGE : outcome_of(r);
}

static enum outcome version(void)
{
	printf(PROG " %s (syscall table: Linux %s)\n", SCMP_RUN_VERSION, syscalls_kernel_version());
	return OUTCOME_OK;
}

/* The modes without a profile; false if o->mode needs one. */
static bool dispatch_tables(const struct options *o, int argc, char **argv, struct diag *d,
			    enum outcome *ret)
{
	/* --help and --version too: a command after them would not run,
	 * and exit status 0 would say it did */
	bool no_operands = o->mode == MODE_RESOLVE || o->mode == MODE_LIST_SYSCALLS ||
			   o->mode == MODE_LIST_ARCHES || o->mode == MODE_LIST_PROFILES ||
			   o->mode == MODE_IMPORT_OCI || o->mode == MODE_HELP ||
			   o->mode == MODE_VERSION;

	if (no_operands && argc) {
		*ret = usage_error(d, "unexpected argument '%s'", argv[0]);
		return true;
	}
	switch (o->mode) {
	case MODE_HELP:
		usage(stdout);
		*ret = OUTCOME_OK;
		return true;
	case MODE_VERSION:
		*ret = version();
		return true;
	case MODE_RESOLVE:
		*ret = lookup_outcome(explain_resolve(o->target, o->resolve, stdout, d));
		return true;
	case MODE_LIST_SYSCALLS:
		*ret = outcome_of(listing_syscalls(o->target, stdout));
		return true;
	case MODE_LIST_ARCHES:
		*ret = outcome_of(listing_arches(stdout));
		return true;
	case MODE_LIST_PROFILES:
		*ret = outcome_of(listing_profiles(getenv("SCMP_RUN_PROFILE_PATH"),
						   SCMP_RUN_PROFILEDIR, stdout, d));
		return true;
	case MODE_LIST_GROUPS:
		/* with the profile's user groups */
		if (o->profile)
			return false;
		*ret = list_groups(o, NULL, argc, argv, d);
		return true;
	case MODE_IMPORT_OCI: {
		size_t errors = d->n_errors;

		*ret = outcome_of(
			diag_oom(d, errors, oci_import(o->import, o->target, &o->oci, d, stdout)));
		return true;
	}
	default:
		return false;
	}
}

/* ---- modes that compile a profile ---- */

static enum outcome explain(const struct options *o, const struct compiled *c, int argc,
			    char **argv, struct diag *d)
{
	struct seccomp_data sd = { .arch = o->target->audit_arch };
	uint32_t nr;
	int r;

	if (argc < 1)
		return usage_error(d, "%s", "--explain needs a SYSCALL");
	if (argc > 1 + SYSCALL_ARGS_MAX)
		return usage_error(d, "%s", "--explain takes at most 6 arguments");
	r = explain_parse_syscall(o->target, argv[0], &nr, d);
	if (r < 0)
		return lookup_outcome(r);
	sd.nr = (int)nr;
	for (int i = 1; i < argc; i++) {
		uint64_t v;

		if (explain_parse_value(o->target, argv[i], &v, d) < 0)
			return OUTCOME_USAGE;
		sd.args[i - 1] = v;
	}
	return outcome_of(explain_call(c, o->target, &sd, stdout, d));
}

/* What PATH is now, as open() sees it: symbolic links followed. A path
 * that does not exist (ENOENT, or ENOTDIR beneath a file) is missing: a
 * write would try to create it. 0, or a negative errno. */
static int path_kind(const char *path, enum landlock_kind *ret)
{
	struct stat st;

	*ret = LANDLOCK_KIND_MISSING;
	if (stat(path, &st) == 0) {
		*ret = S_ISDIR(st.st_mode)   ? LANDLOCK_KIND_DIR
		       : S_ISREG(st.st_mode) ? LANDLOCK_KIND_REG
					     : LANDLOCK_KIND_OTHER;
		return 0;
	}
	return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
}

/* --explain-path PATH [read|write|exec]: '.' in the profile is the
 * working directory, as at launch; the rights an access needs follow what
 * PATH is (scmp-run.ini(5) LANDLOCK, "Explaining a path"). */
static enum outcome explain_path(const struct compiled *c, int argc, char **argv, struct diag *d)
{
	enum landlock_access a = LANDLOCK_ACCESS_READ;
	size_t errors = d->n_errors;
	enum landlock_kind kind;
	char *cwd;
	int r;

	if (argc < 1)
		return usage_error(d, "%s", "--explain-path needs a PATH");
	if (argc > 2)
		return usage_error(d, "unexpected argument '%s'", argv[2]);
	if (argc == 2 && landlock_access_parse(argv[1], &a) < 0)
		return usage_error(d, "unknown access '%s': use read, write or exec", argv[1]);
	r = path_kind(argv[0], &kind);
	if (r < 0)
		return usage_error(d, "cannot tell what '%s' is: stat failed: %s", argv[0],
				   strerror(-r));
	/* without a working directory, '.' in the profile matches nothing:
	 * only a directory that is gone may do that, not lack of memory */
	cwd = getcwd(NULL, 0);
	if (!cwd && errno == ENOMEM)
		return outcome_of(diag_oom(d, errors, -ENOMEM));
	r = landlock_explain_print(&c->profile->landlock, cwd, argv[0], kind, a, stdout);
	free(cwd);
	if (r == -EINVAL)
		return usage_error(d,
				   "cannot compare '%s' with the profile's paths: it must be "
				   "absolute (or relative to a known working directory), "
				   "without '..', at most %d bytes",
				   argv[0], LANDLOCK_PATH_MAX - 1);
	return outcome_of(diag_oom(d, errors, r));
}

/* -v in run mode: what Landlock will enforce on this kernel, before the
 * command runs (scmp-run(1) OPTIONS, -v). */
static void note_landlock(const struct compiled *c)
{
	struct landlock_rights rights;
	struct diag scratch;
	int abi = landlock_abi_for(&c->profile->landlock);

	/* A right that require cannot have is reported by run mode itself. */
	diag_init(&scratch);
	if (landlock_rights_probed(&c->profile->landlock, abi, &scratch, &rights) == 0) {
		landlock_report(&c->profile->landlock, &rights, NULL, PROG ": landlock: ", stderr);
		rlimits_print(&c->profile->limits, PROG ": limit: ", stderr);
		hardening_print(&c->profile->rs->hardening, PROG ": hardening: ", stderr);
	}
	diag_clear(&scratch);
}

/* "12 instructions for x86_64 x86; running true" */
static void note_running(const struct compiled *c, const char *cmd, struct diag *d)
{
	const struct src_loc loc = { .file = c->profile->path };
	char abis[256] = "";
	size_t len = 0;

	for (size_t i = 0; i < c->policy->n_abis && len < sizeof(abis); i++)
		len += (size_t)snprintf(abis + len, sizeof(abis) - len, " %s",
					c->policy->abis[i].arch->name);
	diag_note(d, &loc, "%zu instructions for%s; running %s", c->prog->len, abis, cmd);
}

/* -v: the unknown-syscall action when the profile does not write it
 * (scmp-run.ini(5) UNKNOWN SYSCALLS), the built-in rules and the trust
 * check (summary_defaults()), one note each. Returns 0 or -ENOMEM. */
static int note_defaults(const struct compiled *c, struct diag *d)
{
	const struct filter_attrs *attrs = &c->rs->attrs;
	const struct src_loc loc = { .file = c->profile->path };
	char *text = NULL, buf[64];
	struct action unknown;
	FILE *f;

	if (!attrs->has_unknown_action) {
		policy_unknown_action(attrs, &unknown);
		diag_note(d, &loc, "unknown-syscall action: %s (not written: %s)",
			  action_format(&unknown, buf, sizeof(buf)),
			  policy_action_denies(attrs->default_action.kind)
				  ? "the default action denies"
				  : "the default action");
	}
	f = memstream_open(&text);
	if (!f)
		return -ENOMEM;
	summary_defaults(c, f);
	if (memstream_close(f, &text) < 0)
		return -ENOMEM;
	diag_note_lines(d, &loc, text);
	free(text);
	return 0;
}

static enum outcome outcome_of_run(enum run_failure fail)
{
	switch (fail) {
	case RUN_FAIL_NOT_FOUND:
		return OUTCOME_NOT_FOUND;
	case RUN_FAIL_NOT_EXECUTABLE:
		return OUTCOME_NOT_EXECUTABLE;
	default:
		return OUTCOME_REJECTED;
	}
}

/*
 * The checks before anything changes, then -v's notes. Everything said so
 * far is printed and cleared: execve() does not return, and a supervised
 * child would get a copy of d. False if the command must not run.
 */
static bool announce_run(const struct options *o, const struct compiled *c,
			 const struct bpf_prog *answers, char **argv, struct diag *d)
{
	if (run_prepare(c->profile, answers, argv, d) < 0)
		return false;
	if (o->verbose) {
		note_running(c, argv[0], d);
		if (run_describe(c->profile, d) < 0 || note_defaults(c, d) < 0)
			diag_error(d, NULL, "out of memory");
	}
	if (diag_failed(d))
		return false;
	diag_print(d, PROG, stderr);
	diag_clear(d);
	return true;
}

/* Run mode (scmp-run(1) Run mode): the checks that change nothing, then
 * run_exec(), which returns only on failure. Once the filter is installed,
 * nothing but the report (if the filter lets it through) runs before
 * _exit(): whatever else the filter stops would turn the exit status into a
 * signal. */
static enum outcome run(const struct options *o, const struct compiled *c, char **argv,
			struct diag *d)
{
	enum run_failure fail = RUN_FAIL_SETUP;
	enum run_state state = RUN_STATE_OPEN;

	if (!announce_run(o, c, c->prog, argv, d))
		return OUTCOME_REJECTED;
	if (o->verbose)
		note_landlock(c);
	run_exec(c->profile, c->prog, argv[0], argv, d, &fail, &state);
	if (state != RUN_STATE_OPEN) {
		if (state == RUN_STATE_FILTERED)
			diag_print(d, PROG, stderr);
		_exit(exit_status(MODE_RUN, outcome_of_run(fail), 0));
	}
	return outcome_of_run(fail);
}

/* Supervised run mode (scmp-run(1), FINDING WHAT WAS DENIED): the checks of
 * run mode, then the command runs as a child and scmp-run waits for it. */
static enum outcome run_supervised(const struct options *o, const struct compiled *c, char **argv,
				   struct diag *d, int *ret_status)
{
	enum run_failure fail = RUN_FAIL_SETUP;
	size_t errors = d->n_errors;
	int r;

	if (supervise_check(c->profile, d) < 0 ||
	    !announce_run(o, c, supervise_answers(c, o->sup.mode), argv, d))
		return OUTCOME_REJECTED;
	r = diag_oom(d, errors, supervise_run(&o->sup, c, argv, d, &fail));
	if (r < 0)
		return outcome_of_run(fail);
	*ret_status = r;
	return OUTCOME_COMMAND;
}

/* --explain-audit [FILE|-]: FILE as the option's value or as the operand. */
static enum outcome explain_audit(const struct options *o, const struct compiled *c, int argc,
				  char **argv, struct diag *d)
{
	const char *file = o->out;
	int r;

	if (argc > (file ? 0 : 1))
		return usage_error(d, "unexpected argument '%s'", argv[file ? 0 : 1]);
	if (!file && argc)
		file = argv[0];
	r = audit_explain_file(c->policy, file, stdout, d);
	if (r == 0)
		diag_error(d, NULL, "no seccomp audit record (type=1326) in %s",
			   !file	       ? "the kernel log"
			   : strcmp(file, "-") ? file
					       : "the input");
	return r > 0 ? OUTCOME_OK : OUTCOME_REJECTED;
}

/* --check: the summary, then the lint (scmp-run.ini(5) LINT); an error of
 * the lint (what run mode refuses for every command) rejects the profile,
 * and with --strict, so does any warning left. */
static enum outcome check(const struct options *o, const struct compiled *c, struct diag *d)
{
	size_t errors = d->n_errors;
	struct lint_env env;
	int r = summary_print(c, stdout, d);

	if (r == 0)
		r = summary_print_confine(c, landlock_abi_for(&c->profile->landlock), d, stdout);
	if (r < 0)
		return OUTCOME_REJECTED;
	lint_env_probe(c->profile, &env);
	env.arch = o->target;
	r = lint_check(c, &env, d);
	if (r < 0) {
		diag_error(d, NULL, "out of memory");
		return OUTCOME_REJECTED;
	}
	printf("warnings: %zu%s", d->n_warnings, r ? "" : "\n");
	if (r)
		printf(" (%d more silenced by lint comments)\n", r);
	if (d->n_errors > errors)
		return OUTCOME_REJECTED;
	if (o->strict && d->n_warnings) {
		diag_error(d, NULL, "--strict: %zu warning%s", d->n_warnings,
			   d->n_warnings == 1 ? "" : "s");
		return OUTCOME_REJECTED;
	}
	return OUTCOME_OK;
}

/*
 * Launch time (docs/performance.md, Launch): loading and building a profile
 * touches fresh heap, one page fault per page; by the command's execve()
 * the sample profiles have used 36 KB (minimal.ini) to 130 KB
 * (system-service.ini with its [hardening] presets; net-daemon.ini 122 KB).
 * main() makes every growth of the heap at least this large (M_TOP_PAD;
 * set before options are parsed, since parsing allocates, so in every
 * mode); in run mode the part not used yet of the first one is populated
 * with one madvise() here, which costs a fraction of the faults where they
 * are expensive (virtual machines). A page populated and never used costs
 * about a tenth of a fault, so the size follows the larger profiles, with
 * a few pages to spare. Best effort: without MADV_POPULATE_WRITE (Linux
 * 5.14), or with another allocator, nothing happens.
 */
#define HEAP_PREFAULT (136 * 1024)

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static void heap_prefault(void)
{
	const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	void *probe = malloc(1);
	uintptr_t start = (uintptr_t)probe & ~(page - 1);
	uintptr_t end = (uintptr_t)sbrk(0);

	/* The heap's top: from the page of a fresh small block to the break
	 * (the block comes from elsewhere when the allocator is not brk's). */
	if (probe && end > start && end - start <= 2 * HEAP_PREFAULT)
		(void)madvise((void *)start, end - start, MADV_POPULATE_WRITE);
	free(probe);
}

/* scmp-run(1) TRUST: as root, holding capabilities, or switching
 * credentials, files another user could write are refused. */
static enum profile_trust_why trust_of(const struct options *o)
{
	if (geteuid() == 0)
		return PROFILE_TRUST_ROOT;
	if (o->user || o->group)
		return PROFILE_TRUST_CREDENTIALS;
	return caps_held() ? PROFILE_TRUST_CAPS : PROFILE_TRUST_NO;
}

/* c rebuilt after a change of its ruleset. 0, or -1 with c freed (the
 * reason in d, out of memory too). */
static int rebuild(struct compiled *c, const struct arch *target, struct diag *d)
{
	size_t errors = d->n_errors;

	if (diag_oom(d, errors, compile_rebuild(c, target, d)) < 0) {
		compiled_free(c);
		return -1;
	}
	return 0;
}

/*
 * The program a runtime gets in linux.seccomp (scmp-run.ini(5),
 * --export-oci): memory-deny-write-execute as rules, whatever this kernel
 * (a runtime sets no PR_SET_MDWE), and without the rules a [landlock] TCP
 * key adds: they close a gap of the Landlock domain (MPTCP and SMC sockets
 * past the TCP rights), and a runtime runs the command without the domain,
 * as the export's warning says. c rebuilt once. 0, or -1 with c freed.
 */
static int oci_rules(struct compiled *c, const struct arch *target, struct diag *d)
{
	struct ruleset *rs = c->profile->rs;

	if (!rs->hardening.mdwe_kernel && !rs->landlock_tcp_loc.line)
		return 0;
	rs->hardening.mdwe_kernel = false;
	rs->landlock_tcp_loc = (struct src_loc){ 0 };
	return rebuild(c, target, d);
}

static enum outcome dispatch_profile(const struct options *o, int argc, char **argv, struct diag *d,
				     int *ret_status)
{
	bool learn_base = !o->profile && o->sup.mode == SUPERVISE_LEARN;
	struct profile_opts popts;
	struct compiled c;
	enum outcome ret;
	size_t errors;
	int r;

	if (!o->profile && !learn_base)
		return usage_error(d, "%s", "no profile: use -p PROFILE");
	if (o->mode == MODE_RUN && !argc)
		return usage_error(d, "%s", "no command to run");
	if (o->mode != MODE_RUN && o->mode != MODE_EXPLAIN && o->mode != MODE_EXPLAIN_AUDIT &&
	    o->mode != MODE_EXPLAIN_PATH && o->mode != MODE_LIST_GROUPS && argc)
		return usage_error(d, "unexpected argument '%s'", argv[0]);

	popts = (struct profile_opts){
		.search_path = getenv("SCMP_RUN_PROFILE_PATH"),
		.installed_dir = SCMP_RUN_PROFILEDIR,
		.trust = trust_of(o),
		.uid = getuid(),
		.sets = o->sets,
		.n_sets = o->n_sets,
	};
	if (o->mode == MODE_RUN)
		heap_prefault();
	errors = d->n_errors;
	if (learn_base) /* --learn without -p: everything allowed, everything seen */
		r = supervise_learn_base(o->target, d, &c);
	else
		r = compile_profile(o->profile, &popts, o->target, &o->oci, d, &c);
	if (diag_oom(d, errors, r) < 0)
		return OUTCOME_REJECTED;
	if (o->mode == MODE_EXPORT_OCI && oci_rules(&c, o->target, d) < 0)
		return OUTCOME_REJECTED;
#ifdef SCMP_RUN_TEST_SEAM
	/* Only in the test build of tests/landlock (never installed): act as
	 * if the kernel had an older Landlock ABI. */
	if (getenv("SCMP_RUN_TEST_LANDLOCK_ABI"))
		c.profile->landlock.abi_max = atoi(getenv("SCMP_RUN_TEST_LANDLOCK_ABI"));
	/* ... and as if it had no PR_SET_MDWE: the rules instead. */
	if (getenv("SCMP_RUN_TEST_NO_MDWE") && c.profile->rs->hardening.mdwe_kernel) {
		c.profile->rs->hardening.mdwe_kernel = false;
		if (rebuild(&c, o->target, d) < 0)
			return OUTCOME_REJECTED;
	}
#endif
	r = profile_set_credentials(c.profile, o->user, o->group, d);
	if (r < 0) {
		if (r == -ENOMEM)
			diag_error(d, NULL, "out of memory");
		compiled_free(&c);
		return r == -EINVAL ? OUTCOME_USAGE : OUTCOME_REJECTED;
	}
	/* Warnings cannot weaken a filter: show them when asked to check, or
	 * when verbose; a service log gets only what stopped it. */
	if (o->mode == MODE_RUN && !o->verbose)
		diag_clear(d);
	errors = d->n_errors;
	switch (o->mode) {
	case MODE_CHECK:
		ret = check(o, &c, d);
		break;
	case MODE_EXPORT_BPF:
		ret = outcome_of(diag_oom(d, errors, export_bpf(&c, o->out, d)));
		break;
	case MODE_EXPORT_PFC:
		ret = outcome_of(diag_oom(d, errors, export_pfc(&c, o->out, d)));
		break;
	case MODE_EXPORT_OCI:
		ret = outcome_of(diag_oom(d, errors, export_oci(&c, o->target, o->out, d)));
		break;
	case MODE_EXPLAIN:
		ret = explain(o, &c, argc, argv, d);
		break;
	case MODE_EXPLAIN_AUDIT:
		ret = explain_audit(o, &c, argc, argv, d);
		break;
	case MODE_EXPLAIN_PATH:
		ret = explain_path(&c, argc, argv, d);
		break;
	case MODE_LIST_GROUPS:
		ret = list_groups(o, c.profile, argc, argv, d);
		break;
	default:
		if (o->sup.mode != SUPERVISE_NONE)
			ret = run_supervised(o, &c, argv, d, ret_status);
		else
			ret = run(o, &c, argv, d);
		break;
	}
	compiled_free(&c);
	return ret;
}

/* ---- options ---- */

static int set_mode(struct options *o, enum mode m)
{
	if (o->mode_set && o->mode != m)
		return -1;
	o->mode = m;
	o->mode_set = true;
	return 0;
}

/* The options that select a mode. */
static const struct {
	int opt;
	enum mode mode;
} mode_options[] = {
	{ 'h', MODE_HELP },
	{ OPT_VERSION, MODE_VERSION },
	{ OPT_CHECK, MODE_CHECK },
	{ OPT_EXPORT_BPF, MODE_EXPORT_BPF },
	{ OPT_EXPORT_PFC, MODE_EXPORT_PFC },
	{ OPT_EXPORT_OCI, MODE_EXPORT_OCI },
	{ OPT_IMPORT_OCI, MODE_IMPORT_OCI },
	{ OPT_EXPLAIN, MODE_EXPLAIN },
	{ OPT_EXPLAIN_AUDIT, MODE_EXPLAIN_AUDIT },
	{ OPT_EXPLAIN_PATH, MODE_EXPLAIN_PATH },
	{ OPT_RESOLVE, MODE_RESOLVE },
	{ OPT_LIST_SYSCALLS, MODE_LIST_SYSCALLS },
	{ OPT_LIST_ARCHES, MODE_LIST_ARCHES },
	{ OPT_LIST_GROUPS, MODE_LIST_GROUPS },
	{ OPT_LIST_PROFILES, MODE_LIST_PROFILES },
};

/* getopt's: stop at the command, ':' for a missing argument, -p -v -h */
#define SHORT_OPTIONS "+:p:vh"

/*
 * What getopt_long() refused (opt '?': an unknown or ambiguous option, ':'
 * an option without its argument). A long option is named by its word,
 * arg, which getopt_long() has always stepped past: optopt is then 0 or the
 * option's value (0x100 up, or the short letter of --profile, --verbose,
 * --help: one of SHORT_OPTIONS). A short one is named by optopt: its word
 * may hold more options (-vZ), and arg is still the word before while
 * getopt is inside it (-Zv).
 */
static void option_error(struct diag *d, int opt, const char *arg)
{
	char s[3] = { '-', (char)optopt, 0 };
	bool long_word = !strncmp(arg, "--", 2) &&
			 (optopt == 0 || optopt >= 0x100 || strchr(SHORT_OPTIONS, optopt));
	const char *name = long_word ? arg : s;

	if (opt == ':')
		diag_error(d, NULL, "option '%s' needs an argument", name);
	else if (long_word && optopt) /* known, but given "=VALUE" */
		diag_error(d, NULL, "option '%.*s' takes no argument", (int)strcspn(arg, "="), arg);
	else
		diag_error(d, NULL, "unknown option '%s'", name);
}

/*
 * A value option given twice is refused, --set aside (repeatable, OVERRIDES
 * in scmp-run(1)): keeping the last silently drops the first, and of two
 * profiles or users which one was meant is not for the launcher to guess.
 * An optional value (--report, --explain-audit) counts when either of the
 * two has one: "--report=FILE --report" would drop FILE for stderr.
 */
static void note_given(struct options *o, int opt)
{
	for (size_t i = 0; i < N_LONG_OPTIONS; i++) {
		uint64_t bit = UINT64_C(1) << i;

		if (option_names[i].val != opt || option_names[i].has_arg == no_argument ||
		    opt == OPT_SET)
			continue;
		if ((o->given & bit) && (optarg || (o->given_value & bit)) && !o->twice)
			o->twice = option_names[i].name;
		o->given |= bit;
		if (optarg)
			o->given_value |= bit;
	}
}

/* One option of getopt_long(); false if it was not one of ours. */
static bool take_option(struct options *o, int opt, const char **bad_arch, bool *conflict)
{
	bool is_mode = false;

	note_given(o, opt);
	for (size_t i = 0; i < sizeof(mode_options) / sizeof(mode_options[0]); i++) {
		if (mode_options[i].opt == opt) {
			*conflict |= set_mode(o, mode_options[i].mode) < 0;
			is_mode = true;
		}
	}
	switch (opt) {
	case 'p':
		o->profile = optarg;
		break;
	case 'v':
		o->verbose = true;
		break;
	case OPT_EXPORT_BPF:
	case OPT_EXPORT_PFC:
	case OPT_EXPORT_OCI:
		o->out = optarg;
		break;
	case OPT_IMPORT_OCI:
		o->import = optarg;
		break;
	case OPT_OCI_CAPS:
		o->oci.caps = optarg;
		break;
	case OPT_RESOLVE:
		o->resolve = optarg;
		break;
	case OPT_EXPLAIN_AUDIT:
		o->out = optarg;
		break;
	case OPT_REPORT:
		o->sup_conflict |= o->sup.mode == SUPERVISE_LEARN;
		if (o->sup.mode == SUPERVISE_NONE)
			o->sup.mode = SUPERVISE_REPORT;
		o->sup.report_path = optarg;
		break;
	case OPT_PERMISSIVE: /* implies --report */
		o->sup_conflict |= o->sup.mode == SUPERVISE_LEARN;
		o->sup.mode = SUPERVISE_PERMISSIVE;
		break;
	case OPT_LEARN:
		o->sup_conflict |= o->sup.mode != SUPERVISE_NONE && o->sup.mode != SUPERVISE_LEARN;
		o->sup.mode = SUPERVISE_LEARN;
		o->sup.learn_path = optarg;
		break;
	case OPT_TARGET_ARCH:
		o->target = strcmp(optarg, "native") ? arch_lookup(optarg) : arch_native();
		if (!o->target)
			*bad_arch = optarg;
		break;
	case OPT_USER:
		o->user = optarg;
		break;
	case OPT_STRICT:
		o->strict = true;
		break;
	case OPT_GROUP:
		o->group = optarg;
		break;
	case OPT_SET:
		o->sets[o->n_sets++] = optarg;
		break;
	case OPT_UNLISTED:
		o->unlisted = true;
		break;
	default:
		return is_mode; /* else getopt said what is wrong */
	}
	return true;
}

/* After --explain, "-1" or "-0x10" is a negative SYSCALL number, not an
 * option: no option of ours is a digit, so none is mistaken for it
 * (scmp-run(1) --explain). */
static bool negative_number_next(const struct options *o, int argc, char **argv)
{
	return o->mode == MODE_EXPLAIN && optind < argc && argv[optind][0] == '-' &&
	       argv[optind][1] >= '0' && argv[optind][1] <= '9';
}

/* The modes that never read a profile. -p with one of them would be
 * ignored, and whoever gave it expected it to count (scmp-run(1), -p).
 * --help shows the help whatever else is given. */
static bool mode_reads_profile(enum mode m)
{
	return m != MODE_RESOLVE && m != MODE_LIST_SYSCALLS && m != MODE_LIST_ARCHES &&
	       m != MODE_LIST_PROFILES && m != MODE_IMPORT_OCI && m != MODE_VERSION;
}

/* The same for --target-arch; run mode has its own message. --list-groups
 * lists the same groups on every ABI: only --unlisted's list, or the
 * profile it compiles, depends on one. */
static bool mode_reads_target(const struct options *o)
{
	if (o->mode == MODE_LIST_GROUPS)
		return o->unlisted || o->profile;
	return o->mode != MODE_LIST_ARCHES && o->mode != MODE_LIST_PROFILES &&
	       o->mode != MODE_VERSION;
}

/* Parse the options; *ret_argc/argv are left at the operands. The mode is
 * known before anything is reported: it decides the exit code. Not
 * inlined: its option table (about 900 bytes) would stay in main()'s
 * frame, under every call of the launch. */
static __attribute__((noinline)) enum outcome parse_options(struct options *o, int *ret_argc,
							    char ***ret_argv, struct diag *d)
{
	struct option options[N_LONG_OPTIONS + 1];
	const char *bad_arch = NULL;
	bool bad_option = false, conflict = false, bad_set = false;
	int opt;

	long_options(options);
	opterr = 0; /* getopt's own messages would not start with "scmp-run: error:" */
	while (!negative_number_next(o, *ret_argc, *ret_argv) &&
	       (opt = getopt_long(*ret_argc, *ret_argv, SHORT_OPTIONS, options, NULL)) != -1) {
		if (opt == '?' || opt == ':')
			option_error(d, opt, (*ret_argv)[optind - 1]);
		bad_option |= !take_option(o, opt, &bad_arch, &conflict);
	}
	*ret_argc -= optind;
	*ret_argv += optind;

	if (bad_option) {
		diag_hint(d, NULL, "try '" PROG " --help' for more information");
		return OUTCOME_USAGE;
	}
	if (o->twice)
		return usage_error(d, "option '--%s' given twice: give it once", o->twice);
	if (conflict) {
		return usage_error(d, "%s",
				   "conflicting modes: give one of --check, --export-bpf, "
				   "--export-pfc, --export-oci, --import-oci, --explain, "
				   "--explain-audit, --explain-path, --resolve, --list-*, "
				   "--help, --version");
	}
	if (o->sup_conflict)
		return usage_error(d, "%s",
				   "--learn cannot be combined with --report or --permissive");
	if (o->sup.mode != SUPERVISE_NONE && o->mode != MODE_RUN)
		return usage_error(d, "%s", "--report, --permissive and --learn are for run mode");
	/* Written when the command ends: a name that cannot be a file must
	 * stop the run before the command starts (scmp-run(1), --learn). */
	if (o->sup.learn_path && !*o->sup.learn_path)
		return usage_error(d, "%s", "option '--learn' needs a FILE, not an empty name");
	if (o->sup.report_path && !*o->sup.report_path)
		return usage_error(d, "%s", "option '--report' needs a FILE, not an empty name");
	o->sup.has_base = o->profile != NULL;
	o->sup.verbose = o->verbose;
	if (bad_arch)
		return usage_error(d, "unknown architecture '%s' (see --list-arches)", bad_arch);
	if (o->mode == MODE_RUN && o->target)
		return usage_error(d, "%s",
				   "--target-arch is for --check, --export-*, --explain and "
				   "--explain-path; "
				   "run mode always uses this machine's ABI");
	if (o->profile && !mode_reads_profile(o->mode))
		return usage_error(d, "%s",
				   "-p is not used by --resolve, --list-syscalls, --list-arches, "
				   "--list-profiles, --import-oci or --version");
	if (o->target && !mode_reads_target(o))
		return usage_error(d, "%s",
				   "--target-arch is not used by --list-arches, --list-profiles, "
				   "--version or --list-groups without -p or --unlisted");
	/* the modes without a JSON profile would ignore it; --learn without
	 * -p has no profile at all */
	if (o->oci.caps && o->mode != MODE_IMPORT_OCI && !(o->profile && oci_is_json(o->profile)))
		return usage_error(d, "%s",
				   "--oci-caps is for JSON profiles (-p FILE.json, --import-oci)");
	if (o->strict && o->mode != MODE_CHECK)
		return usage_error(d, "%s", "--strict is for --check");
	if (o->mode != MODE_RUN && o->mode != MODE_CHECK && (o->user || o->group))
		return usage_error(d, "%s", "--user and --group are for run mode and --check");
	if (o->unlisted && o->mode != MODE_LIST_GROUPS)
		return usage_error(d, "%s", "--unlisted is for --list-groups");
	/* its list is the built-in groups': a profile's would be ignored */
	if (o->unlisted && o->profile)
		return usage_error(d, "%s", "-p is not used by --list-groups --unlisted");
	if (o->n_sets && !o->profile)
		return usage_error(d, "%s", "--set needs a profile: use -p PROFILE");
	if (o->n_sets && strcmp(o->profile, "-") && oci_is_json(o->profile))
		return usage_error(d, "%s", "--set is for INI profiles, not JSON");
	/* the learned profile includes the base file, which has no --set */
	if (o->n_sets && o->sup.mode == SUPERVISE_LEARN)
		return usage_error(
			d, "%s",
			"--set cannot be carried into the profile --learn writes: write the "
			"change into the base profile");
	for (size_t i = 0; i < o->n_sets; i++) {
		int r = profile_set_check(o->sets[i], (unsigned)i + 1, d);

		if (r == -ENOMEM)
			diag_error(d, NULL, "out of memory");
		bad_set |= r < 0;
	}
	if (bad_set) {
		diag_hint(d, NULL, "try '" PROG " --help' for more information");
		return OUTCOME_USAGE;
	}
	if (!o->target)
		o->target = arch_native();
	return OUTCOME_OK;
}

int main(int argc, char **argv)
{
	struct options o = { .mode = MODE_RUN };
	struct diag d;
	enum outcome ret;
	int command_status = 0;

	/* before the first allocation: see heap_prefault() */
	mallopt(M_TOP_PAD, HEAP_PREFAULT);
	diag_init(&d);
	o.sets = calloc((size_t)argc + 1, sizeof(*o.sets));
	if (!o.sets) {
		fputs(PROG ": error: out of memory\n", stderr);
		return exit_status(MODE_RUN, OUTCOME_REJECTED, 0);
	}
	ret = parse_options(&o, &argc, &argv, &d);
	if (ret == OUTCOME_OK && privileges_not_callers(&d))
		ret = OUTCOME_REJECTED;
	if (ret == OUTCOME_OK && !dispatch_tables(&o, argc, argv, &d, &ret))
		ret = dispatch_profile(&o, argc, argv, &d, &command_status);
	/* Output to standard output counts: a full disk is not a success. */
	errno = 0;
	if ((fflush(stdout) != 0 || ferror(stdout)) && !diag_failed(&d)) {
		diag_error(&d, NULL, "writing standard output: %s", strerror(errno ? errno : EIO));
		ret = OUTCOME_REJECTED;
	}
	diag_print(&d, PROG, stderr);
	diag_clear(&d);
	free(o.sets);
	return exit_status(o.mode, ret, command_status);
}
