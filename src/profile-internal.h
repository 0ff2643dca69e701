/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The profile loader's private interface, shared by profile.c (the key table),
 * profile-ini.c (physical lines, inih, includes) and profile-groups.c ([groups]
 * and @group expansion). No other module includes this header.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "action.h"
#include "arena.h"
#include "cond.h"
#include "diag.h"
#include "profile.h"

/* The section a key belongs to. */
enum section_kind {
	SECTION_NONE,	/* before the first section header */
	SECTION_BAD,	/* after a header already reported as an error */
	SECTION_NAMED,	/* a fixed name of the key table: [filter], [groups]... */
	SECTION_ACTION, /* a rule section, named by its action: [allow] */
};

struct section {
	enum section_kind kind;
	const char *name;     /* SECTION_NAMED: the key table's spelling */
	struct action action; /* SECTION_ACTION */
};

/* One physical line of a key's value (continuation lines add more). */
struct seg {
	unsigned line;
	unsigned col; /* where text starts on its line (1-based); 0: not known */
	char *text;   /* in the loader's scratch arena */
};

/* A key whose value may still grow by continuation lines. */
struct pending {
	bool active;
	struct section sect; /* the section at the key's first line */
	char *key;	     /* in the loader's scratch arena */
	struct seg *segs;    /* at least one while active; the array is the frame's */
	size_t n_segs, cap_segs;
};

/* A rule or priority entry, expanded once every group is known. */
struct entry {
	bool is_prio;
	char *name; /* syscall name or "@group", in the loader's scratch arena */
	bool optional;
	struct action action;
	struct cond cond; /* n_conjs == 0: unconditional; in the ruleset's arena */
	unsigned prio;
	struct src_loc loc;
	unsigned key_id; /* entries of one key are de-duplicated together */
};

/* A member of a user group as written. */
struct member {
	char *name; /* in the loader's scratch arena */
	bool optional;
	struct src_loc loc;
};

/* A group of [groups]. */
struct ugroup {
	char *name;
	struct member *members;
	size_t n_members, cap_members;
	struct src_loc loc;
	int mark;	/* cycle search: 0 new, 1 on the path, 2 done */
	unsigned depth; /* levels of user groups, itself included (once done) */
};

/* A file or directory whose owner and mode the trust check looks at
 * (scmp-run(1) TRUST). */
struct trust_rec {
	char *path;	    /* as opened or searched (owned) */
	char *what;	    /* the include or NAME as written (owned); NULL: the top file */
	char *below;	    /* on the way to this directory searched (owned); else NULL */
	bool is_dir;	    /* a directory searched for a NAME, or on the way to one */
	struct src_loc loc; /* the include line; file NULL for the top file or -p NAME */
	uid_t uid;
	mode_t mode;
	bool reported; /* refused already, before the file was read */
};

/* The state of one profile_load(), all files together. */
struct loader {
	struct profile *p;
	const struct profile_opts *opts;
	struct trust_rec *trust;
	size_t n_trust, cap_trust;
	struct profile_trust trust_done; /* filled by profile_ini_check_trust() */
	const struct arch *native;
	struct diag *d;
	struct entry *ents;
	size_t n_ents;
	struct ugroup *groups;
	size_t n_groups, cap_groups;
	size_t *group_slots; /* hash index of groups by name: index + 1, 0 empty */
	size_t n_group_slots;
	size_t bytes;	      /* read so far, all files */
	struct arena scratch; /* what lives as long as the load: keys, value lines */
	unsigned key_ids;
	uint64_t required_seen; /* bit i: required row i of the key table was written */
	bool abort;		/* stop reading everything (size limit) */
	bool cut_short;		/* a file was not read whole (binary data, untrusted, not opened) */
	size_t errors;		/* d->n_errors before this load */
	int oom;
};

/* One file being read; parent is the file that includes it. */
struct frame {
	struct loader *l;
	const struct frame *parent;
	int fd;		  /* the file, read with read(2) (load_file() closes it) */
	bool eof;	  /* read(2) said 0 */
	int read_err;	  /* errno of a failed read(2), or 0 */
	char chunk[4096]; /* read from fd, not yet handed over: chunk[at .. end) */
	size_t at, end;
	const char *path; /* interned */
	char *inc_dir;	  /* relative includes start here ("" for none; owned) */
	bool is_stdin;	  /* read from standard input: no directory */
	bool is_cmdline;  /* the --set options: no directory */
	dev_t dev;
	ino_t ino;
	unsigned depth;
	unsigned line;	      /* physical line last read */
	bool stop;	      /* binary data: read no further */
	bool has_key;	      /* mirrors inih's prev_name: continuations are possible */
	bool skip_cont;	      /* drop continuation lines of a refused line */
	bool cur_cont;	      /* the line handed to inih is a continuation */
	const char *hand_buf; /* inih's line buffer, as last handed over */
	size_t hand_col;      /* the column its first byte had on the physical line */
	struct section sect;
	struct pending pend;
};

/* What a key parser of the key table gets: one complete key. */
struct key_ctx {
	struct loader *l;
	struct frame *fr;
	const struct pending *pd; /* the physical lines, for per-line locations */
	const char *key;
	char *value;	    /* the lines joined by one blank; the parser may modify it */
	struct src_loc loc; /* the key's first line */
};

/* An error located at the key's first line. */
#define key_error(k, ...) diag_error((k)->l->d, &(k)->loc, __VA_ARGS__)

static inline void profile_loc(const struct frame *fr, unsigned line, struct src_loc *ret)
{
	*ret = (struct src_loc){ .file = fr->path, .line = line };
}

static inline bool profile_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static inline char *profile_skip_blanks(const char *s)
{
	while (profile_is_blank(*s))
		s++;
	return (char *)s;
}

/* ---- profile.c ---- */

/* Split s (modified in place) into blank-separated words: the next word, or
 * NULL at the end. */
char *profile_next_word(char **s);

/*
 * A name as written in a list: "@group", "name" or "name?". Returns 0 and
 * the bare name in *ret_name (in l's scratch arena); or reports the error at loc and
 * returns -EINVAL; or -ENOMEM (l->oom set).
 */
int profile_parse_name(struct loader *l, const struct src_loc *loc, const char *word,
		       bool allow_group, char **ret_name, bool *ret_optional);

/* "@name" with lower-case letters, digits, '_' and '-'. */
bool profile_valid_group_name(const char *s);

/* A section header "[name]" was read (name trimmed, not empty): set
 * fr->sect, or report an unknown section and set SECTION_BAD. */
void profile_section_enter(struct frame *fr, const char *name, const struct src_loc *loc);

/* A complete key (pd active, with its continuation lines): check and join
 * its value, look it up in the key table and run its parser. Errors go to
 * fr->l->d, allocation failures to fr->l->oom. pd stays the caller's. */
void profile_key(struct frame *fr, const struct pending *pd);

/* ---- profile-ini.c ---- */

/*
 * Read the top file of a profile: what names it as l->opts->source says
 * (a path, a NAME looked up in the search path, or standard input). Each
 * complete key goes to profile_key(), each section header to
 * profile_section_enter(). Returns 0 when the file was read (its errors
 * are in l->d), -ENOENT for a NAME not found, -EINVAL when it could not be
 * opened or read (reported), -ENOMEM.
 */
int profile_ini_load_top(struct loader *l, const char *what);

/*
 * "include = value" at loc in the file fr (scmp-run.ini(5) [profile]): a
 * path (with a '/' or ending in ".ini") relative to the directory of fr's
 * real path, or a NAME looked up like -p NAME. Reads the file at this
 * point. Returns 0 (errors are reported) or -ENOMEM.
 */
int profile_ini_include(struct frame *fr, const char *value, const struct src_loc *loc);

/* The trust check (scmp-run(1) TRUST) of every file read and directory
 * searched, when l->opts asks for it or the profile switches credentials.
 * Errors go to l->d; what was looked at to l->trust_done. */
void profile_ini_check_trust(struct loader *l);

/* Free the trust records of l. */
void profile_ini_free(struct loader *l);

/* ---- profile-groups.c ---- */

/* Key parser of [groups]: "@name = members" defines a user group. */
int profile_groups_define(struct key_ctx *k);

/* Checks that need every file read: unknown groups named in groups and
 * entries, groups that contain themselves, user groups nested more than
 * PROFILE_GROUP_DEPTH_MAX deep. Errors go to l->d. */
void profile_groups_check(struct loader *l);

/* Expand l->ents (groups resolved, names of one key de-duplicated) into the
 * ruleset. Returns 0, -ENOMEM, or -EINVAL (reported). */
int profile_groups_expand(struct loader *l);

/* Copy the user groups of l, as written, to l->p. Returns 0 or -ENOMEM. */
int profile_groups_keep(struct loader *l);

/* Free the user groups of l. */
void profile_groups_free(struct loader *l);
