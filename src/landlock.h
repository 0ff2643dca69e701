/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * [landlock]: parse the keys (pure), decide the rights for a kernel ABI,
 * open the paths and build the ruleset fd, enter the domain, explain a path.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"

#define LANDLOCK_ABI_KNOWN 7	      /* the newest ABI whose additions this build uses */
#define LANDLOCK_PATHS_MAX 4096	      /* path words in one profile */
#define LANDLOCK_PATH_MAX  4096	      /* bytes of one path, as PATH_MAX */
#define LANDLOCK_PORTS_MAX (1u << 17) /* ports in one profile (bind + connect) */

enum landlock_mode {
	LANDLOCK_MODE_BEST_EFFORT, /* the default */
	LANDLOCK_MODE_REQUIRE,
	LANDLOCK_MODE_OFF,
};

/* The path keys; their rights are in scmp-run.ini(5) LANDLOCK. */
enum landlock_set {
	LANDLOCK_SET_READ,
	LANDLOCK_SET_READ_EXEC,
	LANDLOCK_SET_WRITE,
	LANDLOCK_SET_DEVICES,
};

struct landlock_path_rule {
	char *path;    /* owned; absolute and normalised, or "." (the working directory) */
	bool optional; /* written with a trailing '?': a missing path is skipped */
	enum landlock_set set;
	struct src_loc loc;
};

struct landlock_port_rule {
	uint16_t lo, hi; /* inclusive */
	uint64_t access; /* LANDLOCK_ACCESS_NET_BIND_TCP or _CONNECT_TCP */
	struct src_loc loc;
};

/*
 * The section as written. Zero-initialised (or landlock_config_init) it is
 * the default: best-effort, no keys, scope signal. loc.file pointers are
 * borrowed from the caller (the profile's interned file names) and must
 * outlive the config.
 */
struct landlock_config {
	enum landlock_mode mode;
	bool has_mode;
	struct src_loc mode_loc;
	struct landlock_path_rule *paths;
	size_t n_paths;
	struct landlock_port_rule *ports;
	size_t n_ports;
	bool has_bind, has_connect;	      /* the key is present: its right is handled */
	struct src_loc bind_loc, connect_loc; /* first line of each key */
	bool has_scope;	 /* a scope key was written; else the default (signal) */
	uint64_t scoped; /* LANDLOCK_SCOPE_* bits, valid when has_scope */
	struct src_loc scope_loc;
	/* log = yes: the command's denials are logged (ABI 7); its last line */
	bool log;
	struct src_loc log_loc;
	size_t n_port_numbers; /* ports counted over all ranges, for LANDLOCK_PORTS_MAX */
	/* > 0: act as if the kernel's ABI were at most this. No key sets it:
	 * only a test build simulates an older kernel with it. */
	int abi_max;
};

void landlock_config_init(struct landlock_config *c);
/* Frees what the config owns; the struct itself is the caller's. */
void landlock_config_clear(struct landlock_config *c);

/*
 * Parse one key of [landlock] (key and value as written; value non-empty,
 * words separated by blanks, and for scope also by commas) into c. Pure:
 * touches no file. Path and port keys add to what earlier lines gave;
 * mode replaces; scope adds to earlier scope lines.
 * Returns 0; -ENOENT for a key that is not one of [landlock]; -EINVAL for a
 * bad value; -ENOMEM. On -ENOENT/-EINVAL *reterr is a static lower-case
 * message and *ret_word, *ret_word_len the word it is about (pointing into
 * key or value), to be printed as "KEY: MESSAGE 'WORD'". On error c is
 * unchanged. loc is copied into each rule (loc->file is borrowed).
 */
int landlock_parse_key(struct landlock_config *c, const char *key, const char *value,
		       const struct src_loc *loc, const char **reterr, const char **ret_word,
		       int *ret_word_len);

/*
 * landlock_parse_key() with the error reported into d at loc, as
 * "KEY: MESSAGE 'WORD'". Returns what landlock_parse_key() returned.
 */
int landlock_parse_key_diag(struct landlock_config *c, const char *key, const char *value,
			    const struct src_loc *loc, struct diag *d);

/*
 * Where c asks for a restriction of its own: the line of its first path
 * key, else of bind-tcp, connect-tcp, then scope. NULL with mode = off or
 * without such a key (the default domain alone). For what cannot carry a
 * Landlock domain (--export-oci). Pure.
 */
const struct src_loc *landlock_first_key(const struct landlock_config *c);

/*
 * The Landlock ABI of the running kernel (LANDLOCK_CREATE_RULESET_VERSION):
 * >= 1, 0 when the kernel has no Landlock (ENOSYS, or EOPNOTSUPP: built in
 * but disabled at boot), or a negative errno. Changes nothing.
 */
int landlock_abi_probe(void);

/*
 * The ABI to build c's domain for: landlock_abi_probe(), lowered to
 * c->abi_max when that is set. Same return values.
 */
int landlock_abi_for(const struct landlock_config *c);

/* What a config means on a given ABI. */
struct landlock_rights {
	int abi;	   /* the ABI decided for (0: no Landlock) */
	int probe_err;	   /* landlock_rights_probed(): the probe's errno, else 0 */
	bool domain;	   /* a domain will be entered */
	bool fs_keys;	   /* a path key is present */
	uint64_t fs, net;  /* handled rights */
	uint64_t scoped;   /* scopes */
	uint64_t drop_fs;  /* rights the section asks for that the ABI lacks (best-effort) */
	uint64_t drop_net; /* idem */
	uint64_t drop_scoped;
	uint32_t restrict_flags; /* for landlock_restrict_self(): log = yes on ABI 7 */
	bool drop_log;		 /* log = yes that the ABI lacks (best-effort) */
};

/*
 * Decide the handled rights and scopes of c on ABI abi (what
 * landlock_abi_probe() returned, or a lower value to simulate an older
 * kernel). Pure. With mode = off: no domain, nothing dropped. With
 * best-effort, rights the ABI lacks go to drop_* (log = yes to drop_log);
 * with require, each is an error located at the key that asks for it (and
 * mode's line), and the result is -EOPNOTSUPP. Returns 0 or -EOPNOTSUPP;
 * abi < 0 is -EINVAL.
 */
int landlock_rights_build(const struct landlock_config *c, int abi, struct diag *d,
			  struct landlock_rights *ret);

/*
 * landlock_rights_build() for what landlock_abi_for() returned, to
 * describe it (-v, --check): a failed probe (abi < 0) is described as no
 * Landlock, with its errno in probe_err, which landlock_report() names.
 * Run mode does not describe: it refuses to start on a failed probe.
 */
int landlock_rights_probed(const struct landlock_config *c, int abi, struct diag *d,
			   struct landlock_rights *ret);

/* The ruleset prepared before the credential switch. */
struct landlock_plan {
	struct landlock_rights rights;
	int ruleset_fd;	       /* O_CLOEXEC; -1 when no domain is entered */
	size_t n_path_rules;   /* paths added */
	size_t n_missing;      /* optional paths skipped because they do not exist */
	size_t n_port_numbers; /* port rules added */
};

/*
 * Prepare the domain for c on ABI abi: decide the rights
 * (landlock_rights_build), open each path O_PATH|O_CLOEXEC (following
 * symbolic links except below a directory of a path of c that makes them,
 * as landlock_link_dirs_new() finds them; '.' is the working directory
 * now), restrict the rights of
 * a path that is not a directory to the rights a file can carry, create the
 * ruleset and add every rule. Run it before the credential switch, with
 * the real kernel's ABI from landlock_abi_probe(); tests pass a lower abi.
 * Changes nothing in the process but its fd table: the ruleset fd stays
 * open in ret->ruleset_fd (the fd-closing step must keep it); path fds are
 * closed again, up to 64 at a time once their rules are added (fewer when
 * the open-files limit is reached). Returns 0, or a negative errno with the
 * failed step (path and line) in d; on error nothing is left open and
 * ret->ruleset_fd is -1. Without a domain (mode best-effort on a kernel
 * without Landlock) the paths are opened all the same, and ruleset_fd is
 * -1; with mode = off nothing is opened.
 */
int landlock_prepare(const struct landlock_config *c, int abi, struct diag *d,
		     struct landlock_plan *ret);

/*
 * The directories of the paths of c whose key may make symbolic links
 * (write), by identity, as they are now: below one, no link is followed
 * (scmp-run.ini(5) LANDLOCK, Paths). A path that cannot be looked up is
 * left out (its own rule fails or is skipped). Returns 0 with *ret owned
 * by the caller (landlock_link_dirs_free), or -ENOMEM.
 */
struct landlock_link_dirs;
int landlock_link_dirs_new(const struct landlock_config *c, struct landlock_link_dirs **ret);
void landlock_link_dirs_free(struct landlock_link_dirs *ld);

/*
 * Open pr->path as landlock_prepare() does (O_PATH, following symbolic
 * links except below a directory of ld, from landlock_link_dirs_new() of
 * its config; '.' is the working directory now), ask a scratch ruleset
 * whether the kernel takes a rule on it, and close both again: 0 when run
 * mode would take the rule (an optional path that is missing included,
 * and any path when there is no Landlock to ask), or the negative errno
 * with which it would refuse the profile: open's, or -EBADFD for what
 * Landlock takes no rule on (landlock_no_rule_hint). *ret_planted tells
 * whether an -ELOOP is a link below a directory of ld. Changes nothing
 * (but what ld caches); for --check, which cannot know the paths at launch.
 */
int landlock_path_check(struct landlock_link_dirs *ld, const struct landlock_path_rule *pr,
			bool *ret_planted);

/* Why the kernel refused a rule with EBADFD, as a hint. */
extern const char landlock_no_rule_hint[];

/* Why a path failed with ELOOP below such a directory, as a hint. */
extern const char landlock_link_hint[];

/*
 * Enter the prepared domain (landlock_restrict_self, with the plan's
 * restrict_flags) and close the ruleset fd. Run it after no_new_privs is
 * set (or with CAP_SYS_ADMIN), right before the seccomp filter is
 * installed. A plan without domain is a no-op.
 * Returns 0 or a negative errno with a message (and hint) in d.
 */
int landlock_enforce(struct landlock_plan *p, struct diag *d);

/* Close the ruleset fd if still open (on a failure path). */
void landlock_plan_close(struct landlock_plan *p);

/*
 * Print for --check and -v: the kernel's ABI, the mode, and per kind
 * (filesystem, bind-tcp, connect-tcp, scope, log when asked for) what is
 * enforced and what is dropped, as lines starting with prefix. plan may
 * be NULL (--check: no fds); then only the rights are printed. Returns 0
 * or -EIO.
 */
int landlock_report(const struct landlock_config *c, const struct landlock_rights *r,
		    const struct landlock_plan *plan, const char *prefix, FILE *f);

enum landlock_access {
	LANDLOCK_ACCESS_READ,
	LANDLOCK_ACCESS_WRITE,
	LANDLOCK_ACCESS_EXEC,
};

/* "read", "write" or "exec" -> *ret. Returns 0 or -EINVAL. */
int landlock_access_parse(const char *s, enum landlock_access *ret);
const char *landlock_access_name(enum landlock_access a);

enum landlock_verdict {
	LANDLOCK_DENIED,       /* a right the access needs is granted by no rule */
	LANDLOCK_ALLOWED,      /* rules grant every right the access needs */
	LANDLOCK_UNRESTRICTED, /* mode = off, or no path key: paths are not restricted */
};

/* What PATH is now: the rights an access needs depend on it. */
enum landlock_kind {
	LANDLOCK_KIND_DIR,     /* a directory */
	LANDLOCK_KIND_REG,     /* a regular file */
	LANDLOCK_KIND_OTHER,   /* a device, FIFO or socket: O_TRUNC does not truncate it */
	LANDLOCK_KIND_MISSING, /* nothing: writing creates it in its parent directory */
};

#define LANDLOCK_NEEDS_MAX 2

/* One Landlock right and the rule that grants it. */
struct landlock_need {
	uint64_t right;			       /* one LANDLOCK_ACCESS_FS_* bit */
	const struct landlock_path_rule *rule; /* the deciding rule; NULL: none grants it */
};

/*
 * The rights an access to PATH needs, each with its deciding rule
 * (scmp-run.ini(5) LANDLOCK, "Explaining a path"): read of a directory:
 * read-dir; read of anything else: read-file; exec: execute; write of a
 * file: write-file; write of a directory: make-reg and write-file (a new
 * file in it); write of a missing path: make-reg and write-file, checked
 * on its parent directory (creating it). For a write of a regular file,
 * truncate tells whether truncating it too (O_TRUNC, a shell's '>') is
 * allowed; its right is 0 otherwise.
 */
struct landlock_explanation {
	struct landlock_need needs[LANDLOCK_NEEDS_MAX];
	size_t n_needs;
	struct landlock_need truncate;
	bool in_parent; /* the rights are checked on PATH's parent: creating PATH */
	bool covered;	/* a rule is on the checked path or above it, granting or not */
};

/*
 * Explain access a to path, which is of the given kind. Each right the
 * access needs is decided by the rule on the checked path or on its
 * nearest listed ancestor whose right set grants it (the kernel takes the
 * union of the rules on a path and above it), the first such line if
 * several name the same path. Pure and lexical: path and cwd (the working
 * directory '.' stands for; may be NULL, then '.' rules match nothing) are
 * compared as written after removing '.' components and repeated '/',
 * symbolic links are not followed, and the kernel's ABI is not considered.
 * A relative path is taken relative to cwd. Returns a verdict (>= 0; *ret
 * filled, its rules NULL for LANDLOCK_UNRESTRICTED) or -EINVAL for a path
 * that cannot be compared (relative without cwd, a '..' component, too
 * long), -ENOMEM.
 */
int landlock_explain(const struct landlock_config *c, const char *cwd, const char *path,
		     enum landlock_kind kind, enum landlock_access a,
		     struct landlock_explanation *ret);

/*
 * landlock_explain() printed as one line, "PATH: ACCESS allowed by
 * FILE:LINE", "PATH: ACCESS denied (no rule grants RIGHT)", or "PATH:
 * ACCESS allowed (paths are not restricted: REASON)", with the variants of
 * scmp-run.ini(5) LANDLOCK, "Explaining a path", for rights granted by
 * different rules, for creating a file and for truncating. PATH and FILE
 * are escaped as by diag_fputs_escaped(). Returns the verdict, -EINVAL as
 * landlock_explain() (nothing printed), -ENOMEM or -EIO.
 */
int landlock_explain_print(const struct landlock_config *c, const char *cwd, const char *path,
			   enum landlock_kind kind, enum landlock_access a, FILE *f);
