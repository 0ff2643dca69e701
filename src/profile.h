/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Profile loader: an INI file (and its includes) read with inih through a
 * reader that counts physical lines, turned into a ruleset plus the run
 * settings (capabilities, credentials, caller state).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "caller.h"
#include "config.h"
#include "diag.h"
#include "landlock.h"
#include "rlimits.h"
#include "ruleset.h"

/* The longest physical line: one line, its "\n" and a NUL fill inih's line
 * buffer (measured by meson); inih would split a longer one, so the
 * reader refuses it. */
#define PROFILE_LINE_MAX	  (SCMP_RUN_INIH_LINE_BUFFER - 2)
#define PROFILE_INCLUDE_DEPTH_MAX 8
#define PROFILE_GROUP_DEPTH_MAX	  16 /* levels of user groups in user groups */
#define PROFILE_KEEP_CAPS_MAX	  64
#define PROFILE_SUPP_GROUPS_MAX	  64	     /* groups one supplementary-groups names */
#define PROFILE_SIZE_MAX	  (1u << 20) /* bytes read for one profile, includes counted */

/* A user group of [groups] as written, kept for --list-groups. */
struct profile_group {
	char *name;	/* "@name" */
	char **members; /* as written: "read", "name?", "@group" */
	size_t n_members;
	struct src_loc loc; /* the definition */
};

/* Why the owners and modes of a profile's files are checked (scmp-run(1)
 * TRUST); NO: they are not, unless the profile's [credentials] ask. */
enum profile_trust_why {
	PROFILE_TRUST_NO,
	PROFILE_TRUST_ROOT,	   /* scmp-run runs as root */
	PROFILE_TRUST_CAPS,	   /* it holds capabilities */
	PROFILE_TRUST_CREDENTIALS, /* the credentials change (--user, --group, [credentials]) */
};

/* What the trust check (scmp-run(1) TRUST) looked at, for --check and -v. */
struct profile_trust {
	enum profile_trust_why why; /* NO: nothing was checked */
	uid_t uid;		    /* the one owner trusted besides root */
	unsigned files, dirs;	    /* files read, directories searched for a NAME */
	unsigned above;		    /* directories on the way to those searched */
	dev_t dev;		    /* profile_locate(): the file found, as it was checked */
	ino_t ino;
};

/* "; lint: allow ID" at loc: a warning ID located there is not shown
 * (scmp-run.ini(5) LINT). */
struct lint_allow {
	struct src_loc loc; /* file interned in the ruleset */
	char *id;	    /* owned */
};

struct profile {
	char *path;	   /* the top-level file as opened, or PROFILE_STDIN_NAME */
	char *description; /* NULL if none */
	struct ruleset *rs;
	/* [capabilities] */
	int keep_caps[PROFILE_KEEP_CAPS_MAX]; /* CAP_* numbers */
	unsigned n_keep_caps;
	struct src_loc keep_loc; /* the last keep line; file NULL when none */
	bool ambient;
	/* [credentials] */
	bool has_user, has_group;
	char *user, *group; /* as written (name or number) */
	struct src_loc user_loc, group_loc;
	/* supplementary-groups: names or numbers as written (owned), or init
	 * (the user's groups of the group database); neither: the primary
	 * group alone */
	char *supp_groups[PROFILE_SUPP_GROUPS_MAX];
	unsigned n_supp_groups;
	bool supp_init;
	struct src_loc supp_loc; /* the last supplementary-groups line; file NULL when none */
	/* [process], [environment] */
	struct caller_settings caller;
	/* [landlock]: zeroed is the default domain (scmp-run.ini(5) LANDLOCK) */
	struct landlock_config landlock;
	/* [limits]: zeroed sets nothing */
	struct rlimits_config limits;
	/* [groups], in the order defined */
	struct profile_group *groups;
	size_t n_groups;
	/* set by the loader: what was checked before this profile was read */
	struct profile_trust trust;
	/* "; lint: allow ID..." comments (scmp-run.ini(5) LINT), one per ID */
	struct lint_allow *lint_allows;
	size_t n_lint_allows, cap_lint_allows;
};

/* How the first argument of profile_load() names the profile (scmp-run(1)
 * PROFILE LOOKUP). */
enum profile_source {
	PROFILE_FROM_PATH,  /* a file path, used as it is */
	PROFILE_FROM_NAME,  /* a NAME looked up in the search path */
	PROFILE_FROM_STDIN, /* standard input; the argument is ignored */
};

/* The file name diagnostics give a profile read from standard input. */
#define PROFILE_STDIN_NAME "<stdin>"

/* Where a profile and its includes come from, and how far they are trusted. */
struct profile_opts {
	enum profile_source source;
	const char *search_path;   /* $SCMP_RUN_PROFILE_PATH (NAME lookups); may be NULL */
	const char *installed_dir; /* searched last for a NAME; may be NULL */
	/* Check the owner and mode of every file and searched directory
	 * (scmp-run(1) TRUST), and why: the caller runs with euid 0, holds
	 * capabilities or switches credentials itself. A profile with
	 * [credentials] is checked anyway. */
	enum profile_trust_why trust;
	uid_t uid; /* the real uid: the one owner trusted besides root */
	/* --set SECTION.KEY=VALUE options (scmp-run(1) OVERRIDES), applied in
	 * this order after the whole profile; each is checked by
	 * profile_set_check() first */
	const char *const *sets;
	size_t n_sets;
};

/* The file name of the locations of --set options: "command line:N", N
 * counting the --set options from 1. */
#define PROFILE_CMDLINE_NAME "command line"

/*
 * The shape of the nth (from 1) --set option: "SECTION.KEY=VALUE", SECTION
 * ending at the first '.' outside parentheses, SECTION and KEY not empty.
 * Returns 0, or -EINVAL with the error in d at "command line:n". Whether
 * the section, key and value exist and fit is profile_load()'s part.
 */
int profile_set_check(const char *arg, unsigned n, struct diag *d);

/* A profile of path (copied) with no rules and every default of
 * scmp-run.ini(5): what a loader fills in. NULL on ENOMEM. Free with
 * profile_free(). */
struct profile *profile_new(const char *path);

/*
 * Load a profile (what: a path or a NAME, as opts->source says; opts NULL
 * means a path, no search path, no trust check) for a filter whose
 * "native" ABI is native. Includes by NAME use opts' search path. All errors
 * of the pass go to d; on any error returns -EINVAL (-ENOENT for a NAME
 * that is not found, with a hint naming the directories searched; -ENOMEM)
 * and *ret is NULL: nothing of a rejected profile is kept.
 */
int profile_load(const char *what, const struct profile_opts *opts, const struct arch *native,
		 struct diag *d, struct profile **ret);
void profile_free(struct profile *p);

/*
 * Find the file of a profile that profile_load() does not read (a JSON
 * file) as it would find it: what is a path or a NAME as opts->source says
 * (not standard input); it must be a regular file, and with opts->trust the
 * file and every directory searched must be trusted (scmp-run(1) TRUST).
 * Returns 0 and a malloc'ed path in *ret_path, and what the trust check
 * looked at in *ret_trust, or -ENOENT (a NAME not found) or -EINVAL with
 * the reason in d, or -ENOMEM.
 */
int profile_locate(const char *what, const struct profile_opts *opts, struct diag *d,
		   char **ret_path, struct profile_trust *ret_trust);

/*
 * --user and --group (scmp-run(1)): replace [credentials] user or group as
 * if written at the end of the profile, located at the option's name
 * ("--user", "--group"). NULL leaves that key as it is; the other key stays
 * as the profile says. Returns 0, -EINVAL for an empty value or one with
 * blanks (reported in d), or -ENOMEM.
 */
int profile_set_credentials(struct profile *p, const char *user, const char *group, struct diag *d);

/* Whether [capabilities] keep names cap (a CAP_* number). */
bool profile_keeps_cap(const struct profile *p, int cap);

/* Add cap to the capabilities kept ([capabilities] keep, --oci-caps), each
 * once: 1 when added, 0 when kept already, -E2BIG when
 * PROFILE_KEEP_CAPS_MAX are kept (the caller says where). */
int profile_keep_cap(struct profile *p, int cap);
