/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Profile loader: an INI file (and its includes) read with inih through a
 * reader that counts physical lines, turned into a ruleset plus the run
 * settings (capabilities, credentials, caller state).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

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
#define PROFILE_KEEP_CAPS_MAX	  64
#define PROFILE_SIZE_MAX	  (1u << 20) /* bytes read for one profile, includes counted */

struct profile {
	char *path;	   /* the top-level file as opened */
	char *description; /* NULL if none */
	struct ruleset *rs;
	/* [capabilities] */
	int keep_caps[PROFILE_KEEP_CAPS_MAX]; /* CAP_* numbers */
	unsigned n_keep_caps;
	bool ambient;
	/* [credentials] */
	bool has_user, has_group;
	char *user, *group; /* as written (name or number) */
	struct src_loc user_loc, group_loc;
	/* [process], [environment] */
	struct caller_settings caller;
	/* [landlock]: zeroed is the default domain (scmp-run.ini(5) LANDLOCK) */
	struct landlock_config landlock;
	/* [limits]: zeroed sets nothing */
	struct rlimits_config limits;
};

/* A profile of path (copied) with no rules and every default of
 * scmp-run.ini(5): what a loader fills in. NULL on ENOMEM. Free with
 * profile_free(). */
struct profile *profile_new(const char *path);

/*
 * Load a profile file (path as given) for a filter whose "native" ABI is
 * native. All errors of the pass go to d; on any error returns -EINVAL (or
 * -ENOMEM) and *ret is NULL: nothing of a rejected profile is kept.
 */
int profile_load(const char *path, const struct arch *native, struct diag *d, struct profile **ret);
void profile_free(struct profile *p);

/*
 * --user and --group (scmp-run(1)): replace [credentials] user or group as
 * if written at the end of the profile, located at the option's name
 * ("--user", "--group"). NULL leaves that key as it is; the other key stays
 * as the profile says. Returns 0, -EINVAL for an empty value or one with
 * blanks (reported in d), or -ENOMEM.
 */
int profile_set_credentials(struct profile *p, const char *user, const char *group, struct diag *d);
