/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * OCI runtime-spec and Docker seccomp profiles (scmp-run.ini(5), OCI AND
 * DOCKER PROFILES): JSON to a profile (-p FILE.json), to INI text
 * (--import-oci), and a compiled policy back to runtime-spec JSON
 * (--export-oci).
 */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "diag.h"
#include "policy.h"
#include "profile.h"
#include "ruleset.h"

/* How includes/excludes of a Docker profile are decided for the launched
 * process. */
struct oci_options {
	const char *caps;	    /* --oci-caps "CAP_A,CAP_B": kept by the process; NULL: none */
	const char *kernel_release; /* for minKernel; NULL: the running kernel's (uname) */
	/* The file read must be this one (profile_locate() found and checked
	 * it by its path): a file put in its place meanwhile is refused. */
	bool same_file;
	dev_t dev;
	ino_t ino;
};

/* True if -p names an OCI profile: a name ending in ".json". */
bool oci_is_json(const char *path);

/*
 * Load an OCI/Docker seccomp JSON file as a profile for a filter whose
 * "native" ABI is native: its ruleset decides like libseccomp as runc drives
 * it, with the kernel's argument widths and the two documented exceptions
 * (entries whose action is the default dropped, strictest wins where
 * entries overlap, with a warning). Errors (with FILE:LINE:COLUMN) and
 * warnings go to d. Returns 0 and *ret, or -EINVAL / -ENOMEM / -EOPNOTSUPP
 * (built without OCI support) and *ret NULL.
 */
int oci_load(const char *path, const struct arch *native, const struct oci_options *opts,
	     struct diag *d, struct profile **ret);

/*
 * Load like oci_load() and print the equivalent INI profile to f, with
 * comments naming the JSON entry of each rule and every change of meaning.
 * Returns 0 or a negative errno (problems in d; nothing printed then).
 */
int oci_import(const char *path, const struct arch *native, const struct oci_options *opts,
	       struct diag *d, FILE *f);

/*
 * Write a policy p built from rs (whose native ABI is native) as
 * runtime-spec linux.seccomp JSON to f, such that libseccomp's compilation
 * of it decides like p on every input.
 * What OCI cannot say is a warning in d; rules it cannot match exactly
 * are errors (with their locations), and then nothing is written.
 * Returns 0 or a negative errno.
 */
int oci_export(const struct policy *p, const struct ruleset *rs, const struct arch *native,
	       struct diag *d, FILE *f);

/*
 * What oci_export() checks the size of its JSON with: the instructions
 * libseccomp 2.5.4 may compile it to at most (scmp-run.ini(5),
 * --export-oci), into *ret (0 when the export stops before counting).
 * Writes nothing; returns as oci_export() does.
 */
int oci_export_insns(const struct policy *p, const struct ruleset *rs, const struct arch *native,
		     struct diag *d, size_t *ret);

/* Whether libseccomp 2.5, which runc and crun link, cannot resolve the
 * syscall name on ABI a (scmp-run.ini(5), --export-oci): a runtime then
 * skips the name's JSON entries, and --export-oci warns. */
bool oci_libseccomp_unknown(const struct arch *a, const char *name);
