/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Profile loader (SPEC 2.1): INI files read with inih through a reader that
 * counts physical lines and refuses what inih would silently misread.
 */
#include "profile.h"

#include <cap-ng.h>
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "groups.h"
#include "syscalls.h"

#define NEST_MAX 32 /* guard for built-in group nesting (the table nests 2 deep) */

enum sect {
	SECT_NONE, /* before the first section header */
	SECT_BAD,  /* after a header already reported as an error */
	SECT_PROFILE,
	SECT_FILTER,
	SECT_GROUPS,
	SECT_RULE,
	SECT_PRIORITY,
	SECT_CAPS,
	SECT_CREDS,
};

static const struct {
	const char *name;
	enum sect sect;
} fixed_sections[] = {
	{ "profile", SECT_PROFILE },   { "filter", SECT_FILTER },     { "groups", SECT_GROUPS },
	{ "priority", SECT_PRIORITY }, { "capabilities", SECT_CAPS }, { "credentials", SECT_CREDS },
};

/* One physical line of a key's value (continuation lines add more). */
struct seg {
	unsigned line;
	char *text;
};

/* A key whose value may still grow by continuation lines. */
struct pending {
	bool active;
	enum sect sect;
	struct action action; /* SECT_RULE */
	char *key;
	struct seg *segs;
	size_t n_segs;
};

/* A rule or priority entry, expanded once every group is known. */
struct entry {
	bool is_prio;
	char *name; /* syscall name or "@group" */
	bool optional;
	struct action action;
	struct cond cond; /* n_conjs == 0: unconditional */
	unsigned prio;
	struct src_loc loc;
	unsigned key_id; /* entries of one key are de-duplicated together */
};

struct member {
	char *name;
	bool optional;
	struct src_loc loc;
};

struct ugroup {
	char *name;
	struct member *members;
	size_t n_members;
	struct src_loc loc;
	int mark; /* cycle search: 0 new, 1 on the path, 2 done */
};

/* A set of borrowed strings (open addressing). */
struct strset {
	const char **slots;
	size_t size, n;
};

struct loader {
	struct profile *p;
	const struct arch *native;
	struct diag *d;
	struct entry *ents;
	size_t n_ents;
	struct ugroup *groups;
	size_t n_groups;
	const char **known; /* @known: every name of every table */
	size_t n_known;
	size_t bytes; /* read so far, all files */
	unsigned key_ids;
	bool abort;	  /* stop reading everything (size limit) */
	bool cut_short;	  /* a file was not read to its end (binary data) */
	bool saw_default; /* a default-action key, even a bad one */
	size_t errors;	  /* d->n_errors before this load */
	int oom;
};

struct frame {
	struct loader *l;
	const struct frame *parent;
	FILE *f;
	const char *path; /* interned */
	dev_t dev;
	ino_t ino;
	unsigned depth;
	unsigned line;	/* physical line last read */
	bool stop;	/* binary data: read no further */
	bool has_key;	/* mirrors inih's prev_name: continuations are possible */
	bool skip_cont; /* drop continuation lines of a refused line */
	bool cur_cont;	/* the line handed to inih is a continuation */
	enum sect sect;
	struct action sect_action;
	struct pending pend;
};

static int load_file(struct loader *l, const struct frame *parent, const char *written,
		     const char *path, const struct src_loc *inc_loc);

static void loc_at(const struct frame *fr, unsigned line, struct src_loc *ret)
{
	*ret = (struct src_loc){ .file = fr->path, .line = line };
}

/* ---- small helpers ---- */

static unsigned long str_hash(const char *s)
{
	unsigned long h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

/* Add s to the set; 1 if added, 0 if already there, -ENOMEM. */
static int strset_add(struct strset *set, const char *s)
{
	size_t i;

	if ((set->n + 1) * 2 > set->size) {
		struct strset bigger = { .size = set->size ? set->size * 2 : 64 };

		bigger.slots = calloc(bigger.size, sizeof(*bigger.slots));
		if (!bigger.slots)
			return -ENOMEM;
		for (i = 0; i < set->size; i++)
			if (set->slots[i])
				strset_add(&bigger, set->slots[i]);
		free(set->slots);
		*set = bigger;
	}
	for (i = str_hash(s) & (set->size - 1); set->slots[i]; i = (i + 1) & (set->size - 1))
		if (!strcmp(set->slots[i], s))
			return 0;
	set->slots[i] = s;
	set->n++;
	return 1;
}

static void strset_clear(struct strset *set)
{
	free(set->slots);
	*set = (struct strset){ 0 };
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static char *skip_blanks(const char *s)
{
	while (is_blank(*s))
		s++;
	return (char *)s;
}

/* inih r55's find_chars_or_comment(): the first of chars, or an inline
 * comment (';' after whitespace), or the end. */
static char *find_chars_or_comment(const char *s, const char *chars)
{
	bool was_space = false;

	while (*s && (!chars || !strchr(chars, *s)) && !(was_space && *s == ';')) {
		was_space = isspace((unsigned char)*s);
		s++;
	}
	return (char *)s;
}

/* Split s (modified in place) into blank-separated words. Returns the next
 * word or NULL. */
static char *next_word(char **s)
{
	char *w = skip_blanks(*s), *e;

	if (!*w)
		return NULL;
	e = w;
	while (*e && !is_blank(*e))
		e++;
	if (*e)
		*e++ = '\0';
	*s = e;
	return w;
}

static bool valid_syscall_name(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '_'))
			return false;
	return true;
}

static bool valid_group_name(const char *s)
{
	if (s[0] != '@' || !s[1])
		return false;
	for (s++; *s; s++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_' ||
		      *s == '-'))
			return false;
	return true;
}

/*
 * A name as written in a list: "@group", "name" or "name?". Returns 0 and
 * the bare name in ret_name (malloc'ed), or reports the error and returns
 * -EINVAL.
 */
static int parse_name(struct loader *l, const struct src_loc *loc, const char *word,
		      bool allow_group, char **ret_name, bool *ret_optional)
{
	size_t n = strlen(word);

	*ret_optional = false;
	*ret_name = NULL;
	if (word[0] == '@') {
		if (!allow_group) {
			diag_error(l->d, loc,
				   "'%s': a condition applies to one syscall, not a group", word);
			return -EINVAL;
		}
		if (!valid_group_name(word)) {
			diag_error(l->d, loc, "invalid group name '%s'", word);
			return -EINVAL;
		}
	} else {
		if (n > 1 && word[n - 1] == '?') {
			*ret_optional = true;
			n--;
		}
		if (!valid_syscall_name(word, n)) {
			diag_error(l->d, loc, "invalid syscall name '%s'", word);
			return -EINVAL;
		}
	}
	*ret_name = strndup(word, n);
	if (!*ret_name) {
		l->oom = -ENOMEM;
		return -ENOMEM;
	}
	if (word[0] != '@' && !*ret_optional && !syscalls_known(*ret_name)) {
		diag_error(l->d, loc, "unknown syscall '%s'", *ret_name);
		diag_hint(l->d, loc, "write '%s?' if the name is optional", *ret_name);
		free(*ret_name);
		*ret_name = NULL;
		return -EINVAL;
	}
	return 0;
}

/* action_parse() ignores every blank; only blanks inside "(...)" are
 * allowed, so "allow kill" is trailing garbage, not "allowkill". */
static int parse_action(struct loader *l, const char *text, struct action *ret,
			const char **ret_err)
{
	const char *paren = strchr(text, '(');
	size_t head = paren ? (size_t)(paren - text) : strlen(text);
	size_t i = 0;

	while (i < head && is_blank(text[i]))
		i++;
	while (i < head && !is_blank(text[i]))
		i++;
	while (i < head && is_blank(text[i]))
		i++;
	if (i < head) {
		*ret_err = "trailing garbage after the action";
		return -EINVAL;
	}
	return action_parse(text, l->native, ret, ret_err);
}

static int parse_bool(const char *s, bool *ret)
{
	static const char *const yes[] = { "yes", "true", "1", "on" };
	static const char *const no[] = { "no", "false", "0", "off" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(s, yes[i])) {
			*ret = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*ret = false;
			return 0;
		}
	}
	return -EINVAL;
}

/* ---- sections and keys ---- */

static void pending_clear(struct pending *pd)
{
	for (size_t i = 0; i < pd->n_segs; i++)
		free(pd->segs[i].text);
	free(pd->segs);
	free(pd->key);
	*pd = (struct pending){ 0 };
}

static int push_entry(struct loader *l, struct entry *e)
{
	/* capacity: the next power of two, so n entries cost O(n) copies */
	bool full = (l->n_ents & (l->n_ents - 1)) == 0;
	struct entry *n =
		full ? reallocarray(l->ents, l->n_ents ? 2 * l->n_ents : 1, sizeof(*n)) : l->ents;

	if (!n) {
		free(e->name);
		cond_free(&e->cond);
		l->oom = -ENOMEM;
		return -ENOMEM;
	}
	l->ents = n;
	l->ents[l->n_ents++] = *e;
	return 0;
}

static struct ugroup *find_ugroup(struct loader *l, const char *name)
{
	for (size_t i = 0; i < l->n_groups; i++)
		if (!strcmp(l->groups[i].name, name))
			return &l->groups[i];
	return NULL;
}

/* "@name = members": define a user group. */
static void key_group(struct loader *l, struct frame *fr, const char *key, struct pending *pd)
{
	struct src_loc loc;
	struct ugroup *g, *n;

	loc_at(fr, pd->segs[0].line, &loc);
	if (!valid_group_name(key)) {
		diag_error(l->d, &loc, "invalid group name '%s': user groups are written '@name'",
			   key);
		return;
	}
	if (groups_lookup(key)) {
		diag_error(l->d, &loc, "cannot redefine the built-in group '%s'", key);
		return;
	}
	g = find_ugroup(l, key);
	if (g) {
		diag_error(l->d, &loc, "group '%s' is already defined at %s:%u", key, g->loc.file,
			   g->loc.line);
		return;
	}
	n = reallocarray(l->groups, l->n_groups + 1, sizeof(*n));
	if (!n) {
		l->oom = -ENOMEM;
		return;
	}
	l->groups = n;
	g = &l->groups[l->n_groups];
	*g = (struct ugroup){ .name = strdup(key), .loc = loc };
	if (!g->name) {
		l->oom = -ENOMEM;
		return;
	}
	l->n_groups++;
	for (size_t i = 0; i < pd->n_segs; i++) {
		char *rest = pd->segs[i].text, *w;

		loc_at(fr, pd->segs[i].line, &loc);
		while ((w = next_word(&rest))) {
			struct member m = { .loc = loc }, *nm;

			if (parse_name(l, &loc, w, true, &m.name, &m.optional) < 0)
				continue;
			nm = reallocarray(g->members, g->n_members + 1, sizeof(*nm));
			if (!nm) {
				free(m.name);
				l->oom = -ENOMEM;
				return;
			}
			g->members = nm;
			g->members[g->n_members++] = m;
		}
	}
}

/* A key of a rule section: "syscalls = names..." or "name = condition". */
static void key_rule(struct loader *l, struct frame *fr, const char *key, struct pending *pd,
		     const char *value)
{
	unsigned id = ++l->key_ids;
	struct src_loc loc;

	if (!strcmp(key, "syscalls")) {
		for (size_t i = 0; i < pd->n_segs; i++) {
			char *rest = pd->segs[i].text, *w;

			loc_at(fr, pd->segs[i].line, &loc);
			while ((w = next_word(&rest))) {
				struct entry e = { .action = pd->action, .loc = loc, .key_id = id };

				if (parse_name(l, &loc, w, true, &e.name, &e.optional) < 0)
					continue;
				push_entry(l, &e);
			}
		}
		return;
	}

	struct entry e = { .action = pd->action, .key_id = id };
	char *err = NULL;
	int r;

	loc_at(fr, pd->segs[0].line, &loc);
	e.loc = loc;
	if (parse_name(l, &loc, key, false, &e.name, &e.optional) < 0)
		return;
	r = cond_parse(value, &e.cond, &err);
	if (r < 0) {
		if (r == -ENOMEM)
			l->oom = -ENOMEM;
		else
			diag_error(l->d, &loc, "invalid condition for '%s': %s", key,
				   err ? err : "syntax error");
		free(err);
		free(e.name);
		return;
	}
	push_entry(l, &e);
}

static void key_priority(struct loader *l, const struct src_loc *loc, const char *key,
			 const char *value)
{
	struct entry e = { .is_prio = true, .key_id = ++l->key_ids, .loc = *loc };
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(value, &end, 10);
	if (!isdigit((unsigned char)value[0]) || errno || *end) {
		diag_error(l->d, &e.loc, "invalid priority '%s' for '%s': expected 0..%u", value,
			   key, RULESET_PRIORITY_MAX);
		return;
	}
	if (v > RULESET_PRIORITY_MAX) {
		diag_error(l->d, &e.loc, "priority %s for '%s' is out of range 0..%u", value, key,
			   RULESET_PRIORITY_MAX);
		return;
	}
	e.prio = (unsigned)v;
	if (parse_name(l, &e.loc, key, true, &e.name, &e.optional) < 0)
		return;
	push_entry(l, &e);
}

static void key_architectures(struct loader *l, const struct src_loc *loc, char *value)
{
	const struct arch *seen[ARCH_COUNT + 1];
	const char *tok[ARCH_COUNT + 1];
	size_t n = 0;
	uint32_t bits = 0;
	bool bad = false;
	char *w;

	while ((w = next_word(&value))) {
		const struct arch *a;
		uint32_t bit;

		if (!strcmp(w, "native")) {
			a = l->native;
			bit = ARCH_NATIVE_BIT;
		} else {
			a = arch_lookup(w);
			if (!a) {
				diag_error(l->d, loc, "unknown architecture '%s'", w);
				bad = true;
				continue;
			}
			bit = 1u << a->id;
		}
		if (bits & bit) {
			diag_error(l->d, loc, "duplicate architecture '%s'", w);
			bad = true;
			continue;
		}
		bits |= bit;
		if (n < ARCH_COUNT + 1) {
			seen[n] = a;
			tok[n++] = w;
		}
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (!arch_compatible(seen[i], seen[j])) {
				diag_error(l->d, loc,
					   "architectures '%s' (%s) and '%s' (%s) cannot occur in "
					   "one process: one filter cannot mix them",
					   tok[i], seen[i]->name, tok[j], seen[j]->name);
				bad = true;
			}
	if (!bad)
		l->p->rs->attrs.arches = bits;
}

static void key_keep(struct loader *l, const struct src_loc *loc, char *value)
{
	struct profile *p = l->p;
	char *w;

	p->n_keep_caps = 0; /* a later assignment replaces the list */
	while ((w = next_word(&value))) {
		char name[64];
		const char *bare = w;
		int cap;
		bool dup = false;

		if (!strncasecmp(bare, "cap_", 4))
			bare += 4;
		if (strlen(bare) >= sizeof(name) || !*bare) {
			diag_error(l->d, loc, "unknown capability '%s'", w);
			continue;
		}
		for (size_t i = 0; (name[i] = (char)tolower((unsigned char)bare[i])); i++)
			;
		cap = isdigit((unsigned char)name[0]) ? -1 : capng_name_to_capability(name);
		if (cap < 0) {
			diag_error(l->d, loc, "unknown capability '%s'", w);
			continue;
		}
		for (unsigned i = 0; i < p->n_keep_caps; i++)
			dup |= p->keep_caps[i] == cap;
		if (dup)
			continue;
		if (p->n_keep_caps >= PROFILE_KEEP_CAPS_MAX) {
			diag_error(l->d, loc, "too many capabilities (at most %d)",
				   PROFILE_KEEP_CAPS_MAX);
			return;
		}
		p->keep_caps[p->n_keep_caps++] = cap;
	}
}

/* A value that must be one word (credentials); copied to *dst. */
static void key_word(struct loader *l, const struct src_loc *loc, const char *key,
		     const char *value, char **dst, struct src_loc *dst_loc, bool *has)
{
	char *copy;

	if (strpbrk(value, " \t")) {
		diag_error(l->d, loc, "trailing garbage in '%s = %s': expected one name or number",
			   key, value);
		return;
	}
	copy = strdup(value);
	if (!copy) {
		l->oom = -ENOMEM;
		return;
	}
	free(*dst);
	*dst = copy;
	*dst_loc = *loc;
	*has = true;
}

static void key_bool(struct loader *l, const struct src_loc *loc, const char *key,
		     const char *value, bool *dst)
{
	if (parse_bool(value, dst) < 0)
		diag_error(l->d, loc,
			   "invalid boolean '%s' for '%s': use yes/no, true/false, on/off or 1/0",
			   value, key);
}

static void key_action(struct loader *l, const struct src_loc *loc, const char *key,
		       const char *value, struct action *dst, bool *has)
{
	struct action a;
	const char *err;

	if (parse_action(l, value, &a, &err) < 0) {
		diag_error(l->d, loc, "invalid %s '%s': %s", key, value, err);
		return;
	}
	*dst = a;
	if (has)
		*has = true;
}

static void key_include(struct loader *l, struct frame *fr, const struct src_loc *loc,
			const char *value)
{
	/* Relative to the directory of the including file. */
	const char *slash = strrchr(fr->path, '/');
	char *path;
	int r;

	if (value[0] == '/' || !slash)
		r = asprintf(&path, "%s", value);
	else
		r = asprintf(&path, "%.*s/%s", (int)(slash - fr->path), fr->path, value);
	if (r < 0) {
		l->oom = -ENOMEM;
		return;
	}
	load_file(l, fr, value, path, loc);
	free(path);
}

static void unknown_key(struct loader *l, const struct src_loc *loc, const char *key,
			const char *section)
{
	diag_error(l->d, loc, "unknown key '%s' in [%s]", key, section);
}

/* Process a complete key (with its continuation lines). */
static void flush_pending(struct frame *fr)
{
	struct loader *l = fr->l;
	struct pending *pd = &fr->pend;
	struct filter_attrs *at = &l->p->rs->attrs;
	struct src_loc loc;
	const char *key = pd->key;
	char *value = NULL;
	size_t len = 0;
	bool bad = false;

	if (!pd->active)
		return;
	if (pd->sect == SECT_FILTER && !strcmp(key, "default-action"))
		l->saw_default = true; /* no second error if its value is bad */
	loc_at(fr, pd->segs[0].line, &loc);
	for (size_t i = 0; i < pd->n_segs; i++) {
		struct src_loc sl;

		loc_at(fr, pd->segs[i].line, &sl);
		if (strchr(pd->segs[i].text, '#')) {
			diag_error(l->d, &sl,
				   "'#' inside the value of '%s': a comment must start its own "
				   "line, or use ' ;'",
				   key);
			bad = true;
		}
		len += strlen(pd->segs[i].text) + 1;
	}
	if (pd->sect == SECT_BAD || bad)
		goto out;
	if (pd->sect == SECT_NONE) {
		diag_error(l->d, &loc, "key '%s' outside of any section", key);
		goto out;
	}
	value = malloc(len + 1);
	if (!value) {
		l->oom = -ENOMEM;
		goto out;
	}
	value[0] = '\0';
	for (size_t i = 0; i < pd->n_segs; i++) {
		if (!pd->segs[i].text[0])
			continue;
		if (value[0])
			strcat(value, " ");
		strcat(value, pd->segs[i].text);
	}
	if (!value[0]) {
		diag_error(l->d, &loc, "empty value for '%s'", key);
		goto out;
	}

	switch (pd->sect) {
	case SECT_PROFILE:
		if (!strcmp(key, "version")) {
			if (strcmp(value, "1"))
				diag_error(l->d, &loc,
					   "unsupported profile version '%s': only version 1 "
					   "exists",
					   value);
		} else if (!strcmp(key, "description")) {
			char *copy = strdup(value);

			if (!copy) {
				l->oom = -ENOMEM;
				break;
			}
			free(l->p->description);
			l->p->description = copy;
		} else if (!strcmp(key, "include")) {
			key_include(l, fr, &loc, value);
		} else {
			unknown_key(l, &loc, key, "profile");
		}
		break;
	case SECT_FILTER:
		if (!strcmp(key, "default-action"))
			key_action(l, &loc, key, value, &at->default_action,
				   &at->has_default_action);
		else if (!strcmp(key, "bad-arch-action"))
			key_action(l, &loc, key, value, &at->bad_arch_action, NULL);
		else if (!strcmp(key, "unknown-syscall-action"))
			key_action(l, &loc, key, value, &at->unknown_action,
				   &at->has_unknown_action);
		else if (!strcmp(key, "architectures"))
			key_architectures(l, &loc, value);
		else if (!strcmp(key, "no-new-privs"))
			key_bool(l, &loc, key, value, &at->no_new_privs);
		else if (!strcmp(key, "tsync"))
			key_bool(l, &loc, key, value, &at->tsync);
		else if (!strcmp(key, "log"))
			key_bool(l, &loc, key, value, &at->log);
		else if (!strcmp(key, "spec-allow"))
			key_bool(l, &loc, key, value, &at->spec_allow);
		else
			unknown_key(l, &loc, key, "filter");
		break;
	case SECT_GROUPS:
		key_group(l, fr, key, pd);
		break;
	case SECT_RULE:
		key_rule(l, fr, key, pd, value);
		break;
	case SECT_PRIORITY:
		key_priority(l, &loc, key, value);
		break;
	case SECT_CAPS:
		if (!strcmp(key, "keep"))
			key_keep(l, &loc, value);
		else if (!strcmp(key, "ambient"))
			key_bool(l, &loc, key, value, &l->p->ambient);
		else
			unknown_key(l, &loc, key, "capabilities");
		break;
	case SECT_CREDS:
		if (!strcmp(key, "user"))
			key_word(l, &loc, key, value, &l->p->user, &l->p->user_loc,
				 &l->p->has_user);
		else if (!strcmp(key, "group"))
			key_word(l, &loc, key, value, &l->p->group, &l->p->group_loc,
				 &l->p->has_group);
		else
			unknown_key(l, &loc, key, "credentials");
		break;
	case SECT_NONE:
	case SECT_BAD:
		break;
	}
out:
	free(value);
	pending_clear(pd);
}

/* inih handler: inih has split the line; we only collect it. */
static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct frame *fr = user;
	struct pending *pd = &fr->pend;
	struct seg *n;
	char *text;

	if (!fr->cur_cont) {
		flush_pending(fr);
		*pd = (struct pending){ .active = true,
					.sect = fr->sect,
					.action = fr->sect_action };
		pd->key = strdup(name);
		if (!pd->key)
			goto oom;
	} else if (!pd->active) {
		return 1;
	}
	text = strdup(value);
	if (!text)
		goto oom;
	n = reallocarray(pd->segs, pd->n_segs + 1, sizeof(*n));
	if (!n) {
		free(text);
		goto oom;
	}
	pd->segs = n;
	pd->segs[pd->n_segs++] = (struct seg){ .line = fr->line, .text = text };
	return 1;
oom:
	pending_clear(pd);
	fr->l->oom = -ENOMEM;
	return 1;
}

/* "[name]": set the section state; reports bad headers. */
static void section_header(struct frame *fr, char *s)
{
	struct loader *l = fr->l;
	struct src_loc loc;
	char *close = strchr(s, ']'), *name, *end, *tail;
	const char *err;

	loc_at(fr, fr->line, &loc);
	fr->sect = SECT_BAD;
	if (!close) {
		diag_error(l->d, &loc, "section header without ']'");
		return;
	}
	tail = skip_blanks(close + 1);
	if (*tail && *tail != ';') {
		diag_error(l->d, &loc, "trailing garbage after the section header: '%s'", tail);
		return;
	}
	*close = '\0';
	name = skip_blanks(s + 1);
	for (end = name + strlen(name); end > name && is_blank(end[-1]); end--)
		;
	*end = '\0';
	if (!*name) {
		diag_error(l->d, &loc, "empty section name");
		return;
	}
	for (size_t i = 0; i < sizeof(fixed_sections) / sizeof(fixed_sections[0]); i++) {
		if (!strcmp(name, fixed_sections[i].name)) {
			fr->sect = fixed_sections[i].sect;
			return;
		}
	}
	if (parse_action(l, name, &fr->sect_action, &err) == 0) {
		fr->sect = SECT_RULE;
		return;
	}
	if (!strcmp(err, "unknown action"))
		diag_error(l->d, &loc,
			   "unknown section '[%s]': expected profile, filter, groups, priority, "
			   "capabilities, credentials or an action",
			   name);
	else
		diag_error(l->d, &loc, "invalid action section '[%s]': %s", name, err);
}

/* Length of a valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/*
 * Read one physical line into buf (without "\n" or "\r\n"). Returns 1 for a
 * good line, 0 for a line refused with an error (too long, not text), -1 at
 * the end (or when reading must stop).
 */
static int read_line(struct frame *fr, char *buf, size_t *ret_len)
{
	struct loader *l = fr->l;
	struct src_loc loc;
	size_t len = 0;
	int c, last = 0, bad = 0;
	bool any = false;

	while ((c = getc_unlocked(fr->f)) != EOF) {
		any = true;
		if (++l->bytes > PROFILE_SIZE_MAX) {
			loc_at(fr, fr->line + 1, &loc);
			diag_error(l->d, &loc, "profile too large: more than %u bytes in all files",
				   PROFILE_SIZE_MAX);
			l->abort = true;
			return -1;
		}
		if (c == '\n')
			break;
		if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f || last == '\r')
			bad = bad ? bad : last == '\r' ? '\r' : c ? c : 0x100;
		if (len <= PROFILE_LINE_MAX)
			buf[len] = (char)c;
		len++;
		last = c;
	}
	if (ferror(fr->f)) {
		loc_at(fr, fr->line + 1, &loc);
		diag_error(l->d, &loc, "read error: %s", strerror(errno));
		return -1;
	}
	if (!any)
		return -1;
	buf[len <= PROFILE_LINE_MAX ? len : PROFILE_LINE_MAX + 1] = '\0';
	fr->line++;
	loc_at(fr, fr->line, &loc);
	if (last == '\r')
		len--; /* CRLF: the CR is part of the line end */
	if (bad) {
		if (bad == 0x100)
			diag_error(l->d, &loc, "NUL byte: this is not a text file");
		else
			diag_error(l->d, &loc, "control character 0x%02x: this is not a text file",
				   bad);
		fr->stop = true;
		l->cut_short = true;
		return 0;
	}
	if (len > PROFILE_LINE_MAX) {
		diag_error(l->d, &loc, "line too long (%zu bytes, at most %d)", len,
			   PROFILE_LINE_MAX);
		return 0;
	}
	for (size_t i = 0; i < len;) {
		size_t n = utf8_len((const unsigned char *)buf + i, len - i);

		if (!n) {
			diag_error(l->d, &loc, "invalid UTF-8 at byte %zu: this is not a text file",
				   i + 1);
			fr->stop = true;
			l->cut_short = true;
			return 0;
		}
		i += n;
	}
	buf[len] = '\0';
	*ret_len = len;
	return 1;
}

/*
 * The ini_reader: one physical line per call, never split. It mirrors
 * inih's classification of the line (comment, continuation, section, key)
 * to fix what r55 gets wrong: section headers and refused lines are handed
 * over as "[]" (which resets inih's notion of the previous key), inline
 * comments are cut from continuation lines (r55 keeps them).
 */
static char *reader(char *str, int num, void *stream)
{
	struct frame *fr = stream;
	struct loader *l = fr->l;
	char buf[PROFILE_LINE_MAX + 2], *s, *start;
	size_t len;
	int r;

	if (num < PROFILE_LINE_MAX + 2) {
		struct src_loc loc;

		loc_at(fr, 0, &loc);
		diag_error(l->d, &loc, "the INI parser's line buffer is too small (%d)", num);
		return NULL;
	}
	fr->cur_cont = false;
	if (fr->stop || l->abort || l->oom)
		goto eof;
	r = read_line(fr, buf, &len);
	if (r < 0)
		goto eof;
	if (r == 0) {
		flush_pending(fr);
		/* A refused header: what follows belongs to an unknown section. */
		if (!fr->stop && *skip_blanks(buf) == '[')
			fr->sect = SECT_BAD;
		fr->skip_cont = true;
		fr->has_key = false;
		strcpy(str, "[]\n");
		return str;
	}
	s = buf;
	if (fr->line == 1 && !strncmp(s, "\xef\xbb\xbf", 3))
		s += 3; /* UTF-8 byte order mark */
	start = skip_blanks(s);
	if (!*start || *start == ';' || *start == '#') {
		strcpy(str, "\n");
		return str;
	}
	if (start > s && (fr->has_key || fr->skip_cont)) {
		/* A continuation line. */
		if (fr->skip_cont) {
			strcpy(str, "\n");
			return str;
		}
		/* inih needs the indentation to see a continuation. */
		*find_chars_or_comment(start, NULL) = '\0';
		fr->cur_cont = true;
		snprintf(str, (size_t)num, "%s\n", s);
		return str;
	}
	flush_pending(fr);
	fr->skip_cont = false;
	if (*start == '[') {
		section_header(fr, start);
		fr->has_key = false;
		strcpy(str, "[]\n");
		return str;
	}
	char *sep = find_chars_or_comment(start, "=:");

	if (*sep != '=' && *sep != ':') {
		struct src_loc loc;

		loc_at(fr, fr->line, &loc);
		diag_error(l->d, &loc, "expected 'key = value', got '%s'", start);
		fr->has_key = false;
		fr->skip_cont = true;
		strcpy(str, "[]\n");
		return str;
	}
	if (sep == start) {
		struct src_loc loc;

		loc_at(fr, fr->line, &loc);
		diag_error(l->d, &loc, "missing key name before '%c'", *sep);
		fr->has_key = false;
		fr->skip_cont = true;
		strcpy(str, "[]\n");
		return str;
	}
	fr->has_key = true;
	snprintf(str, (size_t)num, "%s\n", start);
	return str;
eof:
	return NULL;
}

/* Read one file: the top one (parent NULL) or an include written as
 * "written" at inc_loc, opened as path. */
static int load_file(struct loader *l, const struct frame *parent, const char *written,
		     const char *path, const struct src_loc *inc_loc)
{
	struct frame fr = { .l = l, .parent = parent, .sect = SECT_NONE };
	struct src_loc top = { 0 };
	const struct src_loc *where = inc_loc;
	struct stat st;
	int r;

	fr.path = ruleset_intern_file(l->p->rs, path);
	if (!fr.path) {
		l->oom = -ENOMEM;
		return -ENOMEM;
	}
	if (!where) {
		top.file = fr.path;
		where = &top;
	}
	fr.depth = parent ? parent->depth + 1 : 0;
	if (fr.depth > PROFILE_INCLUDE_DEPTH_MAX) {
		diag_error(l->d, where, "include '%s' nested too deep (at most %d levels)", written,
			   PROFILE_INCLUDE_DEPTH_MAX);
		return -EINVAL;
	}
	fr.f = fopen(path, "re");
	if (!fr.f) {
		if (parent)
			diag_error(l->d, where, "cannot open include '%s' (%s): %s", written, path,
				   strerror(errno));
		else
			diag_error(l->d, where, "cannot open profile: %s", strerror(errno));
		return -EINVAL;
	}
	if (fstat(fileno(fr.f), &st) < 0 || S_ISDIR(st.st_mode)) {
		diag_error(l->d, where, "cannot read '%s': %s", path,
			   S_ISDIR(st.st_mode) ? "is a directory" : strerror(errno));
		r = -EINVAL;
		goto out;
	}
	if (S_ISREG(st.st_mode) && st.st_size > (off_t)PROFILE_SIZE_MAX) {
		diag_error(l->d, where, "'%s' is too large (%lld bytes, at most %u)", path,
			   (long long)st.st_size, PROFILE_SIZE_MAX);
		r = -EINVAL;
		goto out;
	}
	fr.dev = st.st_dev;
	fr.ino = st.st_ino;
	for (const struct frame *a = parent; a; a = a->parent) {
		if (a->dev != fr.dev || a->ino != fr.ino)
			continue;
		/* The chain from the first visit of this file down to here. */
		char *chain = NULL;
		size_t size = 0;
		FILE *m = open_memstream(&chain, &size);
		const struct frame *stack[PROFILE_INCLUDE_DEPTH_MAX + 2];
		size_t n = 0;

		for (const struct frame *b = parent; b && n < PROFILE_INCLUDE_DEPTH_MAX + 2;
		     b = b->parent) {
			stack[n++] = b;
			if (b == a)
				break;
		}
		if (m) {
			while (n--)
				fprintf(m, "%s -> ", stack[n]->path);
			fputs(path, m);
			fclose(m);
		}
		diag_error(l->d, where, "include cycle: %s", chain ? chain : path);
		free(chain);
		r = -EINVAL;
		goto out;
	}

	r = ini_parse_stream(reader, &fr, handler, &fr);
	flush_pending(&fr);
	if (r > 0) {
		struct src_loc loc;

		loc_at(&fr, (unsigned)r, &loc);
		diag_error(l->d, &loc, "syntax error");
	}
	r = 0;
out:
	pending_clear(&fr.pend);
	fclose(fr.f);
	return r;
}

/* ---- group expansion ---- */

static int collect_known(struct loader *l)
{
	if (l->known)
		return 0;
	return syscalls_names(&l->known, &l->n_known);
}

struct expand_ctx {
	struct loader *l;
	const struct entry *e;
	struct strset seen;
};

static int emit(struct expand_ctx *x, const char *name, bool optional)
{
	struct ruleset *rs = x->l->p->rs;
	const struct entry *e = x->e;
	int r = strset_add(&x->seen, name);

	if (r <= 0)
		return r;
	if (e->is_prio) {
		/* An optional name the table lacks has no number to prioritise. */
		if (optional && !syscalls_known(name))
			return 0;
		return ruleset_set_priority(rs, name, e->prio, &e->loc);
	}
	if (!e->cond.n_conjs)
		return ruleset_add(rs, name, optional, &e->action, NULL, &e->loc);
	for (size_t i = 0; i < e->cond.n_conjs; i++) {
		r = ruleset_add(rs, name, optional, &e->action, &e->cond.conjs[i], &e->loc);
		if (r < 0)
			return r;
	}
	return 0;
}

static int expand(struct expand_ctx *x, const char *name, bool optional, unsigned depth)
{
	const struct group *bg;
	const struct ugroup *ug;
	int r = 0;

	if (name[0] != '@')
		return emit(x, name, optional);
	if (depth > NEST_MAX)
		return -ELOOP;
	bg = groups_lookup(name);
	if (bg && !bg->members) {
		r = collect_known(x->l);
		for (size_t i = 0; r >= 0 && i < x->l->n_known; i++)
			r = emit(x, x->l->known[i], true);
		return r;
	}
	if (bg) {
		/* Members of built-in groups are optional: the table may lack some. */
		for (size_t i = 0; r >= 0 && bg->members[i]; i++)
			r = expand(x, bg->members[i], true, depth + 1);
		return r;
	}
	ug = find_ugroup(x->l, name);
	if (!ug)
		return -ENOENT; /* reported before expansion */
	for (size_t i = 0; r >= 0 && i < ug->n_members; i++)
		r = expand(x, ug->members[i].name, ug->members[i].optional, depth + 1);
	return r;
}

static bool group_exists(struct loader *l, const char *name)
{
	return groups_lookup(name) || find_ugroup(l, name);
}

/* Depth-first search for a user group that contains itself. */
static void find_cycle(struct loader *l, struct ugroup *g, struct ugroup **path, size_t depth)
{
	path[depth] = g;
	g->mark = 1;
	for (size_t i = 0; i < g->n_members; i++) {
		struct ugroup *m =
			g->members[i].name[0] == '@' ? find_ugroup(l, g->members[i].name) : NULL;

		if (!m || m->mark == 2)
			continue;
		if (m->mark == 1) {
			char *chain = NULL;
			size_t size = 0, k = 0;
			FILE *f = open_memstream(&chain, &size);

			while (path[k] != m)
				k++;
			if (f) {
				for (; k <= depth; k++)
					fprintf(f, "%s -> ", path[k]->name);
				fputs(m->name, f);
				fclose(f);
			}
			diag_error(l->d, &m->loc, "group '%s' contains itself: %s", m->name,
				   chain ? chain : m->name);
			free(chain);
			continue;
		}
		find_cycle(l, m, path, depth + 1);
	}
	g->mark = 2;
}

/* Checks that need the whole include tree, then group expansion into the
 * ruleset (only for a profile without errors). */
static void finish(struct loader *l, const char *top_file)
{
	struct ugroup **path;

	if (!l->p->rs->attrs.has_default_action && !l->saw_default && !l->cut_short) {
		struct src_loc loc = { .file = top_file, .line = 0 };

		diag_error(l->d, &loc,
			   "no default-action: [filter] default-action is required (in this file "
			   "or an included one)");
	}
	for (size_t i = 0; i < l->n_groups; i++)
		for (size_t j = 0; j < l->groups[i].n_members; j++) {
			const struct member *m = &l->groups[i].members[j];

			if (m->name[0] == '@' && !group_exists(l, m->name))
				diag_error(l->d, &m->loc, "unknown group '%s'", m->name);
		}
	for (size_t i = 0; i < l->n_ents; i++)
		if (l->ents[i].name[0] == '@' && !group_exists(l, l->ents[i].name))
			diag_error(l->d, &l->ents[i].loc, "unknown group '%s'", l->ents[i].name);
	path = calloc(l->n_groups + 1, sizeof(*path));
	if (!path) {
		l->oom = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < l->n_groups; i++)
		if (!l->groups[i].mark)
			find_cycle(l, &l->groups[i], path, 0);
	free(path);
	if (l->d->n_errors != l->errors || l->oom)
		return;

	for (size_t i = 0; i < l->n_ents;) {
		struct expand_ctx x = { .l = l };
		unsigned id = l->ents[i].key_id;
		int r = 0;

		for (; i < l->n_ents && l->ents[i].key_id == id; i++) {
			x.e = &l->ents[i];
			r = expand(&x, l->ents[i].name, l->ents[i].optional, 0);
			if (r < 0)
				break;
		}
		strset_clear(&x.seen);
		if (r == -ENOMEM) {
			l->oom = r;
			return;
		}
		if (r < 0) {
			diag_error(l->d, &l->ents[i].loc, "cannot expand '%s': %s", l->ents[i].name,
				   strerror(-r));
			return;
		}
	}
}

static void loader_clear(struct loader *l)
{
	for (size_t i = 0; i < l->n_ents; i++) {
		free(l->ents[i].name);
		cond_free(&l->ents[i].cond);
	}
	free(l->ents);
	for (size_t i = 0; i < l->n_groups; i++) {
		for (size_t j = 0; j < l->groups[i].n_members; j++)
			free(l->groups[i].members[j].name);
		free(l->groups[i].members);
		free(l->groups[i].name);
	}
	free(l->groups);
	free(l->known);
}

int profile_load(const char *path, const struct arch *native, struct diag *d, struct profile **ret)
{
	struct loader l = { .native = native, .d = d, .errors = d->n_errors };
	int r = 0;

	*ret = NULL;
	l.p = calloc(1, sizeof(*l.p));
	if (!l.p)
		return -ENOMEM;
	l.p->path = strdup(path);
	l.p->rs = ruleset_new();
	if (!l.p->path || !l.p->rs) {
		r = -ENOMEM;
		goto out;
	}
	/* A top file that cannot be opened needs no second error. */
	if (load_file(&l, NULL, path, path, NULL) == 0 && !l.oom && !l.abort)
		finish(&l, l.p->rs->files[0]);
	if (l.oom)
		r = l.oom;
	else if (d->n_errors != l.errors)
		r = -EINVAL;
out:
	loader_clear(&l);
	if (r < 0) {
		profile_free(l.p);
		return r;
	}
	*ret = l.p;
	return 0;
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	free(p->path);
	free(p->description);
	ruleset_free(p->rs);
	free(p->user);
	free(p->group);
	free(p);
}

/* An existing non-directory. */
static bool is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

/* dir/name or dir/name.ini if one exists; NULL otherwise (errno set). */
static char *try_dir(const char *dir, size_t dir_len, const char *name)
{
	static const char *const suffixes[] = { "", ".ini" };

	for (size_t i = 0; i < 2; i++) {
		char *p;

		if (asprintf(&p, "%.*s/%s%s", (int)dir_len, dir, name, suffixes[i]) < 0) {
			errno = ENOMEM;
			return NULL;
		}
		if (is_file(p))
			return p;
		free(p);
	}
	errno = ENOENT;
	return NULL;
}

char *profile_find(const char *name, const char *search_path, const char *installed_dir)
{
	const char *fixed[] = { "/etc/scmp-run/profiles", installed_dir };
	char *p;

	if (!name || !*name) {
		errno = ENOENT;
		return NULL;
	}
	if (strchr(name, '/') || is_file(name)) {
		p = strdup(name);
		if (!p)
			errno = ENOMEM;
		return p;
	}
	for (const char *s = search_path; s && *s;) {
		size_t n = strcspn(s, ":");

		if (n) {
			p = try_dir(s, n, name);
			if (p || errno == ENOMEM)
				return p;
		}
		s += n;
		if (*s == ':')
			s++;
	}
	for (size_t i = 0; i < 2; i++) {
		if (!fixed[i] || !*fixed[i])
			continue;
		p = try_dir(fixed[i], strlen(fixed[i]), name);
		if (p || errno == ENOMEM)
			return p;
	}
	errno = ENOENT;
	return NULL;
}
