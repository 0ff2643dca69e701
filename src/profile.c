/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Profile keys (scmp-run.ini(5) SECTIONS): one table of {section, key,
 * parser} turns every key that profile-ini.c reads into rule entries, filter
 * attributes and run settings; groups are expanded at the end.
 */
#include "profile.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "capname.h"
#include "consts.h"
#include "hardening.h"
#include "number.h"
#include "profile-internal.h"
#include "suggest.h"
#include "syscalls.h"

/* ---- words and names ---- */

char *profile_next_word(char **s)
{
	char *w = profile_skip_blanks(*s), *e;

	if (!*w)
		return NULL;
	e = w;
	while (*e && !profile_is_blank(*e))
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

bool profile_valid_group_name(const char *s)
{
	if (s[0] != '@' || !s[1])
		return false;
	for (s++; *s; s++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_' ||
		      *s == '-'))
			return false;
	return true;
}

/* A syscall named by number, "ABI/NUMBER" or "NUMBER" (scmp-run.ini(5)
 * SYSCALL NAMES), as a canonical name: the ABI's own token and the number
 * in decimal, so that one number written twice is one name. Whether a bare
 * number is allowed depends on the filter's ABIs: policy_build() decides. */
static int parse_numbered(struct loader *l, const struct src_loc *loc, const char *word,
			  char **ret_name)
{
	char buf[64]; /* an ABI name, '/' and a 32-bit number */
	const struct arch *a;
	const char *err;
	uint32_t nr;

	if (word[strlen(word) - 1] == '?') {
		diag_error(l->d, loc,
			   "'%s': a syscall named by number cannot be optional: it applies to "
			   "its ABI whatever the table says",
			   word);
		return -EINVAL;
	}
	if (syscalls_parse_numbered(word, &a, &nr, &err) < 0) {
		diag_error(l->d, loc, "invalid syscall '%s': %s", word, err);
		return -EINVAL;
	}
	snprintf(buf, sizeof(buf), "%s%s%" PRIu32, a ? a->name : "", a ? "/" : "", nr);
	*ret_name = arena_strdup(&l->scratch, buf);
	if (!*ret_name) {
		l->oom = -ENOMEM;
		return -ENOMEM;
	}
	return 0;
}

int profile_parse_name(struct loader *l, const struct src_loc *loc, const char *word,
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
		if (!profile_valid_group_name(word)) {
			diag_error(l->d, loc, "invalid group name '%s'", word);
			return -EINVAL;
		}
	} else if (strchr(word, '/') || isdigit((unsigned char)word[0])) {
		return parse_numbered(l, loc, word, ret_name);
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
	*ret_name = arena_strndup(&l->scratch, word, n);
	if (!*ret_name) {
		l->oom = -ENOMEM;
		return -ENOMEM;
	}
	if (word[0] != '@' && !*ret_optional && !syscalls_known(*ret_name)) {
		struct suggest sg;

		suggest_init(&sg, *ret_name);
		suggest_offer(&sg, syscalls_suggest(*ret_name));
		/* a rule key may be a misspelt "syscalls" */
		if (!allow_group)
			suggest_offer(&sg, "syscalls");
		diag_error(l->d, loc, "unknown syscall '%s'", *ret_name);
		if (suggest_result(&sg))
			diag_hint(l->d, loc, "did you mean '%s'?", suggest_result(&sg));
		else
			diag_hint(l->d, loc, "write '%s?' if the name is optional", *ret_name);
		*ret_name = NULL;
		return -EINVAL;
	}
	return 0;
}

/* ---- leaf parsers: 0, or -EINVAL (-ERANGE) with a static message in
 * *reterr; the caller adds the location and what was written ---- */

/* Whether text[from..to) is one word with white space around it at most
 * (isspace(), as action_parse() squeezes it out: a file holds only blanks,
 * a --set value any white space). */
static bool one_word(const char *text, size_t from, size_t to)
{
	while (from < to && isspace((unsigned char)text[from]))
		from++;
	while (from < to && !isspace((unsigned char)text[from]))
		from++;
	while (from < to && isspace((unsigned char)text[from]))
		from++;
	return from == to;
}

/* action_parse() ignores every blank inside "(...)"; blanks are allowed
 * around the name and around the value in parentheses (scmp-run.ini(5)
 * ACTIONS), not inside either: "allow kill" is trailing garbage, not
 * "allowkill", and "errno(1 3)" is not errno(13). */
static int parse_action(const char *text, const struct arch *native, struct action *ret,
			const char **reterr)
{
	const char *paren = strchr(text, '('), *close;
	size_t head = paren ? (size_t)(paren - text) : strlen(text);

	if (!one_word(text, 0, head)) {
		*reterr = "trailing garbage after the action";
		return -EINVAL;
	}
	close = paren ? strchr(paren, ')') : NULL;
	if (close && !one_word(text, head + 1, (size_t)(close - text))) {
		*reterr = "a blank inside the value in parentheses";
		return -EINVAL;
	}
	return action_parse(text, native, ret, reterr);
}

#define PRIORITY_RANGE "0..255"
_Static_assert(RULESET_PRIORITY_MAX == 255, "PRIORITY_RANGE spells out RULESET_PRIORITY_MAX");

/* A [priority] value: a number (scmp-run.ini(5) NUMBERS) in
 * 0..RULESET_PRIORITY_MAX. -EINVAL for what is not a number, -ERANGE for a
 * number out of range. */
static int parse_priority(const char *s, unsigned *ret, const char **reterr)
{
	uint64_t v;
	int r = number_parse_max(s, RULESET_PRIORITY_MAX, &v);

	if (r == -ERANGE)
		*reterr = NUMBER_ERR_RANGE " " PRIORITY_RANGE;
	else if (r < 0)
		*reterr = NUMBER_ERR_SYNTAX ": expected " PRIORITY_RANGE;
	else
		*ret = (unsigned)v;
	return r;
}

/* An architecture name or "native": the ABI and its bit in attrs.arches. */
static int parse_arch(const char *word, const struct arch *native, const struct arch **ret,
		      uint32_t *ret_bit, const char **reterr)
{
	if (!strcmp(word, "native")) {
		*ret = native;
		*ret_bit = ARCH_NATIVE_BIT;
		return 0;
	}
	*ret = arch_lookup(word);
	if (!*ret) {
		*reterr = "unknown architecture";
		return -EINVAL;
	}
	*ret_bit = 1u << (*ret)->id;
	return 0;
}

/* ---- key parsers: 0, -EINVAL (reported), -ENOMEM ---- */

struct key_row;
typedef int key_parser(struct key_ctx *k, const struct key_row *row);
/* The caller.h parsers of [process] and [environment] keys. */
typedef int caller_parser(struct caller_settings *s, const char *value, const char **reterr);

/* Where a generic parser stores its value. */
enum key_base {
	IN_PROFILE, /* struct profile */
	IN_FILTER,  /* struct filter_attrs of the ruleset */
};

/* The parsers a row names (key_parsers[] below), and key_caller's. */
enum key_parse {
	PARSE_VERSION,
	PARSE_DESCRIPTION,
	PARSE_INCLUDE,
	PARSE_ACTION,
	PARSE_ARCHITECTURES,
	PARSE_BOOL,
	PARSE_GROUPS_DEFINE,
	PARSE_PRIORITY,
	PARSE_KEEP,
	PARSE_USER,
	PARSE_GROUP,
	PARSE_SUPP_GROUPS,
	PARSE_CALLER,
	PARSE_LANDLOCK,
	PARSE_LIMITS,
	PARSE_TTY_INJECTION,
	PARSE_HARDENING_BOOL,
	PARSE_RESTRICT_NAMESPACES,
	PARSE_RESTRICT_FAMILIES,
	PARSE_SYSCALLS,
	PARSE_CONDITION,
	PARSE_COUNT
};

enum caller_parse {
	CALLER_NONE,
	CALLER_KEEP_FDS,
	CALLER_ENV_KEEP,
	CALLER_ENV_SET,
};

/*
 * A row names its section, key and parsers by value, not by pointer: a
 * table of pointers is relocated by the loader at every start, a page
 * written per 4 KB (docs/performance.md, Launch). The parsers are called
 * through the two small tables of pointers below.
 */
struct key_row {
	char section[16]; /* "": every section named by an action */
	char key[28];	  /* "": every other key of the section */
	uint8_t parse;	  /* enum key_parse */
	uint8_t caller;	  /* enum caller_parse: key_caller's */
	bool required;	  /* must be written in the profile or an include */
	uint8_t base;	  /* enum key_base */
	/* key_bool, key_action: the field, a bool set when the key is valid
	 * (has == 0: none) and where it was written (at == 0: not kept) */
	uint32_t field, has, at;
};

/* 0, or a compile error when string literal s with its NUL does not fit
 * in field f (ARRAY_FITS()). */
#define FITS(s, f) MEMBER_FITS(s, struct key_row, f)
/* s and k unparenthesised: a parenthesised string cannot initialise an array */
#define ROW(s, k, p)	 .section = s, .key = k, .parse = (p) + FITS(s, section) + FITS(k, key)
#define FILTER_FIELD(f)	 .base = IN_FILTER, .field = offsetof(struct filter_attrs, f)
#define FILTER_HAS(f)	 .has = offsetof(struct filter_attrs, f)
#define FILTER_AT(f)	 .at = offsetof(struct filter_attrs, f)
#define PROFILE_FIELD(f) .base = IN_PROFILE, .field = offsetof(struct profile, f)
#define CALLER_PARSER(f) .caller = (f)

_Static_assert(sizeof(struct profile) <= UINT32_MAX && sizeof(struct filter_attrs) <= UINT32_MAX,
	       "field offsets fit in struct key_row");

_Static_assert(offsetof(struct filter_attrs, has_default_action) != 0 &&
		       offsetof(struct filter_attrs, has_unknown_action) != 0,
	       "offset 0 means 'no has flag' in struct key_row");

static void *key_field(const struct key_ctx *k, const struct key_row *row, size_t offset)
{
	char *base = row->base == IN_FILTER ? (char *)&k->l->p->rs->attrs : (char *)k->l->p;

	return base + offset;
}

/* Where the row's key was written, for a row that keeps it (FILTER_AT). */
static void key_mark(struct key_ctx *k, const struct key_row *row)
{
	if (row->at)
		*(struct src_loc *)key_field(k, row, row->at) = k->loc;
}

static int key_bool(struct key_ctx *k, const struct key_row *row)
{
	const char *err;

	if (number_parse_bool(k->value, key_field(k, row, row->field), &err) < 0) {
		key_error(k, "invalid boolean '%s' for '%s': %s", k->value, k->key, err);
		return -EINVAL;
	}
	key_mark(k, row);
	return 0;
}

static int key_action(struct key_ctx *k, const struct key_row *row)
{
	struct action a;
	const char *err;

	if (parse_action(k->value, k->l->native, &a, &err) < 0) {
		key_error(k, "invalid %s '%s': %s", k->key, k->value, err);
		return -EINVAL;
	}
	*(struct action *)key_field(k, row, row->field) = a;
	if (row->has)
		*(bool *)key_field(k, row, row->has) = true;
	key_mark(k, row);
	return 0;
}

static int key_version(struct key_ctx *k, const struct key_row *row)
{
	if (strcmp(k->value, "1")) {
		key_error(k, "unsupported profile version '%s': only version 1 exists", k->value);
		return -EINVAL;
	}
	return 0;
}

static int key_description(struct key_ctx *k, const struct key_row *row)
{
	char *copy = strdup(k->value);

	if (!copy)
		return -ENOMEM;
	free(k->l->p->description);
	k->l->p->description = copy;
	return 0;
}

static int key_include(struct key_ctx *k, const struct key_row *row)
{
	return profile_ini_include(k->fr, k->value, &k->loc);
}

/* Architectures that cannot share one filter (one process). */
static bool check_arch_mix(struct key_ctx *k, const struct arch *const *seen,
			   const char *const *tok, size_t n)
{
	bool bad = false;

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (!arch_compatible(seen[i], seen[j])) {
				key_error(k,
					  "architectures '%s' (%s) and '%s' (%s) cannot occur in "
					  "one process: one filter cannot mix them",
					  tok[i], seen[i]->name, tok[j], seen[j]->name);
				bad = true;
			}
	return !bad;
}

static int key_architectures(struct key_ctx *k, const struct key_row *row)
{
	const struct arch *seen[ARCH_COUNT + 1];
	const char *tok[ARCH_COUNT + 1], *err;
	char *rest = k->value, *w;
	size_t n = 0;
	uint32_t bits = 0;
	bool bad = false;

	while ((w = profile_next_word(&rest))) {
		const struct arch *a;
		uint32_t bit;

		if (parse_arch(w, k->l->native, &a, &bit, &err) < 0) {
			key_error(k, "%s '%s'", err, w);
			bad = true;
			continue;
		}
		if (bits & bit) {
			key_error(k, "duplicate architecture '%s'", w);
			bad = true;
			continue;
		}
		bits |= bit;
		if (n < ARCH_COUNT + 1) {
			seen[n] = a;
			tok[n++] = w;
		}
	}
	if (!check_arch_mix(k, seen, tok, n) || bad)
		return -EINVAL;
	k->l->p->rs->attrs.arches = bits;
	key_mark(k, row);
	return 0;
}

static int key_keep(struct key_ctx *k, const struct key_row *row)
{
	struct profile *p = k->l->p;
	const char *err;
	char *rest = k->value, *w;
	int r = 0;

	p->n_keep_caps = 0; /* a later assignment replaces the list */
	p->keep_loc = k->loc;
	while ((w = profile_next_word(&rest))) {
		int cap = capname_parse(w, &err);

		if (cap == -ENOENT) { /* libcap-ng cannot be opened: said once */
			key_error(k, "%s", err);
			return -EINVAL;
		}
		if (cap < 0) {
			key_error(k, "%s '%s'", err, w);
			r = -EINVAL;
			continue;
		}
		if (profile_keep_cap(p, cap) < 0) {
			key_error(k, "too many capabilities (at most %d)", PROFILE_KEEP_CAPS_MAX);
			return -EINVAL;
		}
	}
	return r;
}

/* A value that must be one word (credentials): a copy in *dst. */
static int key_word(struct key_ctx *k, char **dst, struct src_loc *dst_loc, bool *has)
{
	char *copy;

	if (strpbrk(k->value, " \t")) {
		key_error(k, "trailing garbage in '%s = %s': expected one name or number", k->key,
			  k->value);
		return -EINVAL;
	}
	copy = strdup(k->value);
	if (!copy)
		return -ENOMEM;
	free(*dst);
	*dst = copy;
	*dst_loc = k->loc;
	*has = true;
	return 0;
}

static int key_user(struct key_ctx *k, const struct key_row *row)
{
	struct profile *p = k->l->p;

	return key_word(k, &p->user, &p->user_loc, &p->has_user);
}

static int key_group(struct key_ctx *k, const struct key_row *row)
{
	struct profile *p = k->l->p;

	return key_word(k, &p->group, &p->group_loc, &p->has_group);
}

static void supp_groups_clear(struct profile *p)
{
	for (unsigned i = 0; i < p->n_supp_groups; i++)
		free(p->supp_groups[i]);
	p->n_supp_groups = 0;
	p->supp_init = false;
}

/* [credentials] supplementary-groups (scmp-run.ini(5)): names or numbers,
 * each once, or init alone. A later assignment replaces the list; whether
 * a name exists is asked in run mode, as for group. */
static int key_supp_groups(struct key_ctx *k, const struct key_row *row)
{
	struct profile *p = k->l->p;
	char *rest = k->value, *w;

	supp_groups_clear(p);
	p->supp_loc = k->loc;
	while ((w = profile_next_word(&rest))) {
		if (!strcmp(w, "init") && !p->supp_init) {
			p->supp_init = true;
			continue;
		}
		if (!strcmp(w, "init")) {
			key_error(k, "'init' is listed twice");
			return -EINVAL;
		}
		for (unsigned i = 0; i < p->n_supp_groups; i++)
			if (!strcmp(p->supp_groups[i], w)) {
				key_error(k, "group '%s' is listed twice", w);
				return -EINVAL;
			}
		if (p->n_supp_groups >= PROFILE_SUPP_GROUPS_MAX) {
			key_error(k, "too many groups (at most %d)", PROFILE_SUPP_GROUPS_MAX);
			return -EINVAL;
		}
		p->supp_groups[p->n_supp_groups] = strdup(w);
		if (!p->supp_groups[p->n_supp_groups])
			return -ENOMEM;
		p->n_supp_groups++;
	}
	if (p->supp_init && p->n_supp_groups) {
		key_error(k, "'init' stands alone: it takes the user's groups from the group "
			     "database");
		return -EINVAL;
	}
	return 0;
}

/* A [hardening] key written twice is an error, across includes and --set
 * too (scmp-run.ini(5) HARDENING): which one was meant? A later line must
 * not quietly switch off what an included file switched on. */
static bool hardening_first(struct key_ctx *k, struct src_loc *loc)
{
	char where[256];

	if (loc->line) {
		key_error(k, "duplicate key '%s' in [hardening] (first at %s)", k->key,
			  src_loc_format(loc, where, sizeof(where)));
		return false;
	}
	*loc = k->loc;
	return true;
}

/* [hardening] tty-injection = deny | allow (scmp-run.ini(5) [hardening]):
 * allow drops the built-in rule against TIOCSTI and TIOCLINUX. */
static int key_tty_injection(struct key_ctx *k, const struct key_row *row)
{
	struct hardening *h = &k->l->p->rs->hardening;

	if (strcmp(k->value, "deny") && strcmp(k->value, "allow")) {
		key_error(k, "invalid %s '%s': use deny or allow", k->key, k->value);
		return -EINVAL;
	}
	if (!hardening_first(k, &h->tty_injection_loc))
		return -EINVAL;
	h->tty_injection_allow = !strcmp(k->value, "allow");
	return 0;
}

/* The field and location of a yes/no preset. */
static bool *hardening_switch(struct hardening *h, const char *key, struct src_loc **ret_loc)
{
	if (!strcmp(key, "memory-deny-write-execute")) {
		*ret_loc = &h->mdwe_loc;
		return &h->mdwe;
	}
	if (!strcmp(key, "lock-personality")) {
		*ret_loc = &h->lock_personality_loc;
		return &h->lock_personality;
	}
	if (!strcmp(key, "restrict-realtime")) {
		*ret_loc = &h->realtime_loc;
		return &h->realtime;
	}
	*ret_loc = &h->suid_sgid_loc;
	return &h->suid_sgid;
}

/* [hardening] memory-deny-write-execute, lock-personality, restrict-realtime,
 * restrict-suid-sgid = yes | no (scmp-run.ini(5) HARDENING). */
static int key_hardening_bool(struct key_ctx *k, const struct key_row *row)
{
	struct src_loc *loc;
	bool *on = hardening_switch(&k->l->p->rs->hardening, k->key, &loc);
	const char *err;
	bool v;

	if (number_parse_bool(k->value, &v, &err) < 0) {
		key_error(k, "invalid boolean '%s' for '%s': %s", k->value, k->key, err);
		return -EINVAL;
	}
	if (!hardening_first(k, loc))
		return -EINVAL;
	*on = v;
	return 0;
}

/* "~" in front of a list: the words are the denied ones. */
static char *hardening_list(char *value, bool *ret_inverted)
{
	char *s = profile_skip_blanks(value);

	*ret_inverted = *s == '~';
	return *ret_inverted ? s + 1 : s;
}

/* [hardening] restrict-namespaces = yes | no | TYPE... | ~TYPE...: systemd's
 * RestrictNamespaces= (scmp-run.ini(5) HARDENING). */
static int key_restrict_namespaces(struct key_ctx *k, const struct key_row *row)
{
	struct hardening *h = &k->l->p->rs->hardening;
	const struct hardening_ns *types;
	size_t n_types;
	uint32_t all = 0, listed = 0;
	bool inverted, bad = false, v;
	const char *err;
	char *rest, *w;

	types = hardening_ns_types(&n_types);
	for (size_t i = 0; i < n_types; i++)
		all |= types[i].bit;
	if (number_parse_bool(k->value, &v, &err) == 0) {
		if (!hardening_first(k, &h->ns_loc))
			return -EINVAL;
		h->ns_denied = v ? all : 0;
		return 0;
	}
	rest = hardening_list(k->value, &inverted);
	while ((w = profile_next_word(&rest))) {
		size_t i;

		for (i = 0; i < n_types && strcmp(types[i].name, w); i++)
			;
		if (i == n_types) {
			key_error(k,
				  "unknown namespace type '%s' in '%s': use yes, no, or a list "
				  "of cgroup ipc net mnt pid user uts time (~ in front: the "
				  "denied ones)",
				  w, k->key);
			bad = true;
		} else if (listed & types[i].bit) {
			key_error(k, "duplicate namespace type '%s' in '%s'", w, k->key);
			bad = true;
		}
		listed |= i < n_types ? types[i].bit : 0;
	}
	if (!bad && !listed) {
		key_error(k, "empty list of namespace types in '%s'", k->key);
		bad = true;
	}
	if (bad || !hardening_first(k, &h->ns_loc))
		return -EINVAL;
	h->ns_denied = inverted ? listed : all & ~listed;
	return 0;
}

/* [hardening] restrict-address-families = AF_... | ~AF_...: systemd's
 * RestrictAddressFamilies= (scmp-run.ini(5) HARDENING). */
static int key_restrict_families(struct key_ctx *k, const struct key_row *row)
{
	struct hardening *h = &k->l->p->rs->hardening;
	const char *names[HARDENING_AF_MAX], *err;
	int64_t values[HARDENING_AF_MAX];
	size_t n = 0;
	bool inverted, bad = false;
	char *rest, *w;

	rest = hardening_list(k->value, &inverted);
	while ((w = profile_next_word(&rest))) {
		const char *name = strncmp(w, "AF_", 3) ? NULL : consts_static_name(w);
		int64_t v;
		size_t dup = SIZE_MAX;
		bool b;

		if (number_parse_bool(w, &b, &err) == 0) {
			key_error(k,
				  "'%s' takes a list of address families, not '%s': the AF_ "
				  "names allowed (AF_UNIX AF_INET ...), or ~ and those denied",
				  k->key, w);
			bad = true;
			continue;
		}
		if (!name || !strcmp(name, "AF_MAX") || consts_lookup(k->l->native, name, &v) < 0) {
			key_error(k,
				  "unknown address family '%s' in '%s': use AF_ names (AF_UNIX "
				  "AF_INET AF_INET6 ...), ~ in front for the denied ones",
				  w, k->key);
			bad = true;
			continue;
		}
		/* by value: AF_LOCAL is AF_UNIX, AF_ROUTE is AF_NETLINK */
		for (size_t i = 0; i < n && dup == SIZE_MAX; i++)
			dup = values[i] == v ? i : SIZE_MAX;
		if (dup != SIZE_MAX) {
			if (names[dup] == name)
				key_error(k, "duplicate address family '%s' in '%s'", w, k->key);
			else
				key_error(k,
					  "duplicate address family '%s' in '%s': the same as '%s'",
					  w, k->key, names[dup]);
			bad = true;
			continue;
		}
		if (n == HARDENING_AF_MAX) {
			key_error(k, "too many address families in '%s' (at most %d)", k->key,
				  HARDENING_AF_MAX);
			return -EINVAL;
		}
		values[n] = v;
		names[n++] = name;
	}
	if (!bad && !n) {
		key_error(k, "empty list of address families in '%s'", k->key);
		bad = true;
	}
	if (bad || !hardening_first(k, &h->af_loc))
		return -EINVAL;
	memcpy(h->af_names, names, n * sizeof(*names));
	h->n_af = n;
	h->af_deny_listed = inverted;
	h->af_restrict = true;
	return 0;
}

/* [process] keep-fds, [environment] keep and set: list keys, each
 * assignment adds (caller.h). */
static int key_caller(struct key_ctx *k, const struct key_row *row)
{
	const char *err = "invalid value";
	static caller_parser *const parsers[] = {
		[CALLER_KEEP_FDS] = caller_parse_keep_fds,
		[CALLER_ENV_KEEP] = caller_parse_env_keep,
		[CALLER_ENV_SET] = caller_parse_env_set,
	};
	int r = parsers[row->caller](&k->l->p->caller, k->value, &err);

	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		key_error(k, "invalid %s '%s': %s", k->key, k->value, err);
		return -EINVAL;
	}
	return 0;
}

static int key_groups_define(struct key_ctx *k, const struct key_row *row)
{
	return profile_groups_define(k);
}

/* [landlock] (scmp-run.ini(5) LANDLOCK): mode is one word; the other keys
 * are parsed line by line, so each path and port is located at its own line. */
static int key_landlock(struct key_ctx *k, const struct key_row *row)
{
	const struct pending *pd = k->pd;
	struct landlock_config *c = &k->l->p->landlock;
	int r = 0;

	if (!strcmp(k->key, "mode")) {
		r = landlock_parse_key_diag(c, k->key, k->value, &k->loc, k->l->d);
		return r == -ENOMEM ? r : 0;
	}
	for (size_t i = 0; i < pd->n_segs; i++) {
		struct src_loc loc;

		if (!profile_skip_blanks(pd->segs[i].text)[0])
			continue;
		profile_loc(k->fr, pd->segs[i].line, &loc);
		r = landlock_parse_key_diag(c, k->key, pd->segs[i].text, &loc, k->l->d);
		if (r == -ENOMEM)
			return r;
		if (r == -ENOENT)
			break; /* an unknown key is reported once */
	}
	return 0;
}

/* [limits] (scmp-run.ini(5) LIMITS). */
static int key_limits(struct key_ctx *k, const struct key_row *row)
{
	const char *err;
	int r = rlimits_parse_key(&k->l->p->limits, k->key, k->value, &k->loc, &err);

	if (r == -ENOENT) {
		struct suggest sg;

		key_error(k,
			  "unknown key '%s' in [limits] (cpu, address-space, data, stack, core, "
			  "file-size, open-files, processes, locked-memory, nice)",
			  k->key);
		suggest_init(&sg, k->key);
		for (int i = 0; i < RLIMITS_COUNT; i++)
			suggest_offer(&sg, rlimits_key_name((enum rlimits_key)i));
		if (suggest_result(&sg))
			diag_hint(k->l->d, &k->loc, "did you mean '%s'?", suggest_result(&sg));
	} else if (r < 0)
		key_error(k, "invalid limit '%s = %s': %s", k->key, k->value, err);
	return 0;
}

static int push_entry(struct loader *l, struct entry *e)
{
	/* capacity: the next power of two, so n entries cost O(n) copies */
	bool full = (l->n_ents & (l->n_ents - 1)) == 0;
	struct entry *n =
		full ? reallocarray(l->ents, l->n_ents ? 2 * l->n_ents : 1, sizeof(*n)) : l->ents;

	if (!n) {
		/* e->name and e->cond are in arenas */
		l->oom = -ENOMEM;
		return -ENOMEM;
	}
	l->ents = n;
	l->ents[l->n_ents++] = *e;
	return 0;
}

/* "[priority] name = N" */
static int key_priority(struct key_ctx *k, const struct key_row *row)
{
	struct entry e = { .is_prio = true, .key_id = ++k->l->key_ids, .loc = k->loc };
	const char *err;
	int r;

	r = parse_priority(k->value, &e.prio, &err);
	if (r == -ERANGE)
		key_error(k, "priority %s for '%s' is %s", k->value, k->key, err);
	else if (r < 0)
		key_error(k, "invalid priority '%s' for '%s': %s", k->value, k->key, err);
	if (r < 0)
		return -EINVAL;
	r = profile_parse_name(k->l, &e.loc, k->key, true, &e.name, &e.optional);
	if (r < 0)
		return r;
	return push_entry(k->l, &e);
}

/* Rule section: "syscalls = names...", each name located at its own line. */
static int key_syscalls(struct key_ctx *k, const struct key_row *row)
{
	const struct pending *pd = k->pd;
	unsigned id = ++k->l->key_ids;

	for (size_t i = 0; i < pd->n_segs; i++) {
		char *rest = pd->segs[i].text, *w;
		struct src_loc loc;

		profile_loc(k->fr, pd->segs[i].line, &loc);
		while ((w = profile_next_word(&rest))) {
			struct entry e = { .action = pd->sect.action, .loc = loc, .key_id = id };

			if (profile_parse_name(k->l, &loc, w, true, &e.name, &e.optional) < 0)
				continue;
			if (push_entry(k->l, &e) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

/* Where the lines of k's value start in its joined text (as join_value()
 * joins them: the empty ones left out, one blank between the others), so
 * that a condition's syntax error names its own line. 0, or -ENOMEM. */
static int value_lines(const struct key_ctx *k, struct cond_lines *ret)
{
	const struct pending *pd = k->pd;
	size_t *start = arena_alloc(&k->l->scratch, pd->n_segs * sizeof(*start)), at = 0;
	unsigned *line = arena_alloc(&k->l->scratch, pd->n_segs * sizeof(*line));
	unsigned *col = arena_alloc(&k->l->scratch, pd->n_segs * sizeof(*col));

	if (!start || !line || !col)
		return -ENOMEM;
	*ret = (struct cond_lines){ .start = start, .line = line, .col = col };
	for (size_t i = 0; i < pd->n_segs; i++) {
		size_t n = strlen(pd->segs[i].text);

		if (!n)
			continue;
		start[ret->n] = at;
		line[ret->n] = pd->segs[i].line;
		col[ret->n++] = pd->segs[i].col;
		at += n + 1;
	}
	return 0;
}

/* Rule section: "name = condition" (scmp-run.ini(5) CONDITIONS). */
static int key_condition(struct key_ctx *k, const struct key_row *row)
{
	struct entry e = { .action = k->pd->sect.action, .key_id = ++k->l->key_ids, .loc = k->loc };
	struct cond_lines lines = { 0 };
	char *err = NULL;
	int r;

	r = profile_parse_name(k->l, &e.loc, k->key, false, &e.name, &e.optional);
	if (r < 0)
		return r;
	if (k->pd->n_segs > 1 && value_lines(k, &lines) < 0)
		return -ENOMEM;
	/* parsed into the ruleset's arena: its rules share it, uncopied */
	r = cond_parse_lines(k->value, &k->l->p->rs->arena, &lines, &e.cond, &err);
	if (r == -EINVAL)
		key_error(k, "invalid condition for '%s': %s", k->key, err ? err : "syntax error");
	free(err);
	if (r < 0)
		return r;
	return push_entry(k->l, &e);
}

/* The parsers by enum key_parse. */
static key_parser *const key_parsers[PARSE_COUNT] = {
	[PARSE_VERSION] = key_version,
	[PARSE_DESCRIPTION] = key_description,
	[PARSE_INCLUDE] = key_include,
	[PARSE_ACTION] = key_action,
	[PARSE_ARCHITECTURES] = key_architectures,
	[PARSE_BOOL] = key_bool,
	[PARSE_GROUPS_DEFINE] = key_groups_define,
	[PARSE_PRIORITY] = key_priority,
	[PARSE_KEEP] = key_keep,
	[PARSE_USER] = key_user,
	[PARSE_GROUP] = key_group,
	[PARSE_SUPP_GROUPS] = key_supp_groups,
	[PARSE_CALLER] = key_caller,
	[PARSE_LANDLOCK] = key_landlock,
	[PARSE_LIMITS] = key_limits,
	[PARSE_TTY_INJECTION] = key_tty_injection,
	[PARSE_HARDENING_BOOL] = key_hardening_bool,
	[PARSE_RESTRICT_NAMESPACES] = key_restrict_namespaces,
	[PARSE_RESTRICT_FAMILIES] = key_restrict_families,
	[PARSE_SYSCALLS] = key_syscalls,
	[PARSE_CONDITION] = key_condition,
};

/*
 * Every key of every section (scmp-run.ini(5) SECTIONS). The rows of one
 * section are adjacent, in the order the unknown-section message lists them;
 * a row with key "" takes every other key of its section and comes last.
 * A new section or key is a new row and, where no generic parser fits, a
 * new key_* function.
 */
static const struct key_row key_rows[] = {
	{ ROW("profile", "version", PARSE_VERSION) },
	{ ROW("profile", "description", PARSE_DESCRIPTION) },
	{ ROW("profile", "include", PARSE_INCLUDE) },
	{ ROW("filter", "default-action", PARSE_ACTION), .required = true,
	  FILTER_FIELD(default_action), FILTER_HAS(has_default_action), FILTER_AT(default_loc) },
	{ ROW("filter", "bad-arch-action", PARSE_ACTION), FILTER_FIELD(bad_arch_action),
	  FILTER_AT(bad_arch_loc) },
	{ ROW("filter", "unknown-syscall-action", PARSE_ACTION), FILTER_FIELD(unknown_action),
	  FILTER_HAS(has_unknown_action), FILTER_AT(unknown_loc) },
	{ ROW("filter", "architectures", PARSE_ARCHITECTURES), .base = IN_FILTER,
	  FILTER_AT(arches_loc) },
	{ ROW("filter", "no-new-privs", PARSE_BOOL), FILTER_FIELD(no_new_privs),
	  FILTER_AT(nnp_loc) },
	{ ROW("filter", "tsync", PARSE_BOOL), FILTER_FIELD(tsync) },
	{ ROW("filter", "log", PARSE_BOOL), FILTER_FIELD(log) },
	{ ROW("filter", "spec-allow", PARSE_BOOL), FILTER_FIELD(spec_allow) },
	{ ROW("groups", "", PARSE_GROUPS_DEFINE) },
	{ ROW("priority", "", PARSE_PRIORITY) },
	{ ROW("capabilities", "keep", PARSE_KEEP) },
	{ ROW("capabilities", "ambient", PARSE_BOOL), PROFILE_FIELD(ambient) },
	{ ROW("credentials", "user", PARSE_USER) },
	{ ROW("credentials", "group", PARSE_GROUP) },
	{ ROW("credentials", "supplementary-groups", PARSE_SUPP_GROUPS) },
	{ ROW("process", "keep-fds", PARSE_CALLER), CALLER_PARSER(CALLER_KEEP_FDS) },
	{ ROW("process", "reset-signals", PARSE_BOOL), PROFILE_FIELD(caller.reset_signals) },
	{ ROW("process", "new-session", PARSE_BOOL), PROFILE_FIELD(caller.new_session) },
	{ ROW("process", "new-session-keyring", PARSE_BOOL),
	  PROFILE_FIELD(caller.new_session_keyring) },
	{ ROW("environment", "clear", PARSE_BOOL), PROFILE_FIELD(caller.env_clear) },
	{ ROW("environment", "keep", PARSE_CALLER), CALLER_PARSER(CALLER_ENV_KEEP) },
	{ ROW("environment", "set", PARSE_CALLER), CALLER_PARSER(CALLER_ENV_SET) },
	{ ROW("landlock", "", PARSE_LANDLOCK) },
	{ ROW("limits", "", PARSE_LIMITS) },
	/* [hardening]: one row per key; a preset that adds rules gets a parser
	 * of its own, the rules it adds are built in policy-builtins.c */
	{ ROW("hardening", "tty-injection", PARSE_TTY_INJECTION) },
	{ ROW("hardening", "memory-deny-write-execute", PARSE_HARDENING_BOOL) },
	{ ROW("hardening", "lock-personality", PARSE_HARDENING_BOOL) },
	{ ROW("hardening", "restrict-namespaces", PARSE_RESTRICT_NAMESPACES) },
	{ ROW("hardening", "restrict-address-families", PARSE_RESTRICT_FAMILIES) },
	{ ROW("hardening", "restrict-realtime", PARSE_HARDENING_BOOL) },
	{ ROW("hardening", "restrict-suid-sgid", PARSE_HARDENING_BOOL) },
	{ ROW("", "syscalls", PARSE_SYSCALLS) },
	{ ROW("", "", PARSE_CONDITION) },
};

#define N_KEY_ROWS (sizeof(key_rows) / sizeof(key_rows[0]))
_Static_assert(N_KEY_ROWS <= 64, "loader.required_seen has one bit per row");

/* The row for key in section s; NULL if the key is unknown there. */
static const struct key_row *key_lookup(const struct section *s, const char *key)
{
	size_t first = 0;

	/* the rows of the rule sections (section "") come last: start there */
	if (s->kind == SECTION_ACTION)
		for (first = N_KEY_ROWS; first > 0 && !key_rows[first - 1].section[0]; first--)
			;
	for (size_t i = first; i < N_KEY_ROWS; i++) {
		const struct key_row *row = &key_rows[i];

		if (s->kind == SECTION_ACTION ? row->section[0] != '\0'
					      : !row->section[0] || strcmp(row->section, s->name))
			continue;
		if (!row->key[0] || !strcmp(row->key, key))
			return row;
	}
	return NULL;
}

/* "profile, filter, ..., credentials": the fixed section names, in order. */
static void section_names(char *buf, size_t size)
{
	const char *prev = NULL;
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N_KEY_ROWS && len < size; i++) {
		const char *s = key_rows[i].section;

		if (!s[0] || (prev && !strcmp(prev, s)))
			continue;
		len += (size_t)snprintf(buf + len, size - len, "%s%s", prev ? ", " : "", s);
		prev = s;
	}
}

/* "did you mean '[allow]'?" for an unknown section: the closest fixed name
 * or action name; an action's "(...)" is kept as written. */
static void suggest_section(struct loader *l, const char *name, const struct src_loc *loc)
{
	size_t head = strcspn(name, "(");
	char word[SUGGEST_NAME_MAX + 1];
	struct suggest sg;

	if (head > SUGGEST_NAME_MAX)
		return;
	memcpy(word, name, head);
	word[head] = '\0';
	suggest_init(&sg, word);
	for (size_t i = 0; i < N_KEY_ROWS && !name[head]; i++)
		suggest_offer(&sg, key_rows[i].section);
	for (int kind = ACTION_KILL_PROCESS; kind <= ACTION_ALLOW; kind++)
		suggest_offer(&sg, action_kind_name((enum action_kind)kind));
	if (suggest_result(&sg))
		diag_hint(l->d, loc, "did you mean '[%s%s]'?", suggest_result(&sg), name + head);
}

/* "did you mean 'default-action'?" for a key unknown in a fixed section. */
static void suggest_key(const struct key_ctx *k, const char *section)
{
	struct suggest sg;

	suggest_init(&sg, k->key);
	for (size_t i = 0; i < N_KEY_ROWS; i++)
		if (!strcmp(key_rows[i].section, section))
			suggest_offer(&sg, key_rows[i].key);
	if (suggest_result(&sg))
		diag_hint(k->l->d, &k->loc, "did you mean '%s'?", suggest_result(&sg));
}

void profile_section_enter(struct frame *fr, const char *name, const struct src_loc *loc)
{
	struct loader *l = fr->l;
	struct action action;
	const char *err;
	char names[256];

	for (size_t i = 0; i < N_KEY_ROWS; i++) {
		if (key_rows[i].section[0] && !strcmp(name, key_rows[i].section)) {
			fr->sect = (struct section){ .kind = SECTION_NAMED,
						     .name = key_rows[i].section };
			return;
		}
	}
	if (parse_action(name, l->native, &action, &err) == 0) {
		fr->sect = (struct section){ .kind = SECTION_ACTION, .action = action };
		return;
	}
	fr->sect = (struct section){ .kind = SECTION_BAD };
	section_names(names, sizeof(names));
	if (!strcmp(err, "unknown action")) {
		diag_error(l->d, loc, "unknown section '[%s]': expected %s or an action", name,
			   names);
		suggest_section(l, name, loc);
	} else {
		diag_error(l->d, loc, "invalid action section '[%s]': %s", name, err);
	}
}

/* '#' in a value is an error (scmp-run.ini(5) FILE SYNTAX): inih keeps it. */
static bool check_hash(struct frame *fr, const struct pending *pd)
{
	bool good = true;

	for (size_t i = 0; i < pd->n_segs; i++) {
		struct src_loc sl;

		if (!strchr(pd->segs[i].text, '#'))
			continue;
		profile_loc(fr, pd->segs[i].line, &sl);
		diag_error(fr->l->d, &sl,
			   "'#' inside the value of '%s': a comment must start its own line, or "
			   "use ' ;'",
			   pd->key);
		good = false;
	}
	return good;
}

/* The lines of a value joined by one blank (empty lines skipped), in l's
 * scratch arena; NULL on ENOMEM. Linear: a value may have tens of
 * thousands of lines. */
static char *join_value(struct loader *l, const struct pending *pd)
{
	size_t len = 0, at = 0;
	char *value;

	for (size_t i = 0; i < pd->n_segs; i++)
		len += strlen(pd->segs[i].text) + 1;
	value = arena_alloc(&l->scratch, len + 1);
	if (!value)
		return NULL;
	for (size_t i = 0; i < pd->n_segs; i++) {
		size_t n = strlen(pd->segs[i].text);

		if (!n)
			continue;
		if (at)
			value[at++] = ' ';
		memcpy(value + at, pd->segs[i].text, n);
		at += n;
	}
	value[at] = '\0';
	return value;
}

void profile_key(struct frame *fr, const struct pending *pd)
{
	struct loader *l = fr->l;
	struct key_ctx k = { .l = l, .fr = fr, .pd = pd, .key = pd->key };
	const struct key_row *row = NULL;
	int r = 0;

	profile_loc(fr, pd->segs[0].line, &k.loc);
	if (pd->sect.kind == SECTION_NAMED || pd->sect.kind == SECTION_ACTION)
		row = key_lookup(&pd->sect, pd->key);
	if (row && row->required)
		l->required_seen |= UINT64_C(1) << (row - key_rows); /* even if its value is bad */
	if (!check_hash(fr, pd) || pd->sect.kind == SECTION_BAD)
		return;
	if (pd->sect.kind == SECTION_NONE) {
		key_error(&k, "key '%s' outside of any section", k.key);
		return;
	}
	k.value = join_value(l, pd);
	if (!k.value)
		r = -ENOMEM;
	else if (!k.value[0])
		key_error(&k, "empty value for '%s'", k.key);
	else if (!row) {
		key_error(&k, "unknown key '%s' in [%s]", k.key, pd->sect.name);
		suggest_key(&k, pd->sect.name);
	} else
		r = key_parsers[row->parse](&k, row);
	if (r == -ENOMEM)
		l->oom = r;
}

/* ---- --set SECTION.KEY=VALUE (scmp-run(1) OVERRIDES) ---- */

/* s without blanks at either end (cut in place). */
static char *trim(char *s)
{
	char *end;

	s = profile_skip_blanks(s);
	end = s + strlen(s);
	while (end > s && profile_is_blank(end[-1]))
		*--end = '\0';
	return s;
}

/* Split a --set argument in place: the section, the key and the value,
 * blanks around each removed as inih removes them. Returns 0 or -EINVAL
 * with a static message in *reterr. */
static int split_set(char *arg, char **ret_section, char **ret_key, char **ret_value,
		     const char **reterr)
{
	char *eq = strchr(arg, '='), *dot = NULL;
	int depth = 0;

	if (!eq) {
		*reterr = "expected SECTION.KEY=VALUE: no '='";
		return -EINVAL;
	}
	*eq = '\0';
	for (char *c = arg; *c && !dot; c++) {
		if (*c == '(')
			depth++;
		else if (*c == ')' && depth > 0)
			depth--;
		else if (*c == '.' && !depth)
			dot = c;
	}
	if (!dot) {
		*reterr = "expected SECTION.KEY=VALUE: no '.' between the section and the key";
		return -EINVAL;
	}
	*dot = '\0';
	*ret_section = trim(arg);
	*ret_key = trim(dot + 1);
	*ret_value = trim(eq + 1);
	if (!**ret_section) {
		*reterr = "expected SECTION.KEY=VALUE: the section is empty";
		return -EINVAL;
	}
	if (!**ret_key) {
		*reterr = "expected SECTION.KEY=VALUE: the key is empty";
		return -EINVAL;
	}
	return 0;
}

int profile_set_check(const char *arg, unsigned n, struct diag *d)
{
	const struct src_loc loc = { .file = PROFILE_CMDLINE_NAME, .line = n };
	char *copy = strdup(arg), *section, *key, *value;
	const char *err;
	int r;

	if (!copy)
		return -ENOMEM;
	r = split_set(copy, &section, &key, &value, &err);
	if (r < 0)
		diag_error(d, &loc, "--set '%s': %s", arg, err);
	free(copy);
	return r;
}

/* Each --set option as a key written after the whole profile, in a
 * section of its own, located at "command line:N". */
static void apply_sets(struct loader *l)
{
	const char *file = ruleset_intern_file(l->p->rs, PROFILE_CMDLINE_NAME);

	if (!file) {
		l->oom = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < l->opts->n_sets && !l->oom && !l->abort; i++) {
		struct frame fr = { .l = l,
				    .path = file,
				    .fd = -1,
				    .is_cmdline = true,
				    .sect = { .kind = SECTION_NONE } };
		char *arg = strdup(l->opts->sets[i]), *section, *key, *value;
		struct seg seg = { .line = (unsigned)i + 1 };
		struct pending pd = { .active = true, .segs = &seg, .n_segs = 1, .cap_segs = 1 };
		struct src_loc loc;
		const char *err;

		if (!arg) {
			l->oom = -ENOMEM;
			return;
		}
		profile_loc(&fr, seg.line, &loc);
		if (split_set(arg, &section, &key, &value, &err) < 0) {
			diag_error(l->d, &loc, "--set '%s': %s", l->opts->sets[i], err);
		} else {
			profile_section_enter(&fr, section, &loc);
			pd.sect = fr.sect;
			pd.key = key;
			seg.text = value;
			profile_key(&fr, &pd);
		}
		free(arg);
	}
}

/* ---- the whole profile ---- */

/* Required keys that no file wrote (a file cut short may have held them). */
static void check_required(struct loader *l, const char *top_file)
{
	struct src_loc loc = { .file = top_file, .line = 0 };

	if (l->cut_short)
		return;
	for (size_t i = 0; i < N_KEY_ROWS; i++)
		if (key_rows[i].required && !(l->required_seen & (UINT64_C(1) << i)))
			diag_error(l->d, &loc,
				   "no %s: [%s] %s is required (in this file or an included one)",
				   key_rows[i].key, key_rows[i].section, key_rows[i].key);
}

/* Checks that need the whole include tree, what [landlock] adds to the
 * filter, then group expansion into the ruleset (only for a profile
 * without errors). */
static void finish(struct loader *l, const char *top_file)
{
	const struct landlock_config *c = &l->p->landlock;
	int r;

	check_required(l, top_file);
	if (c->mode != LANDLOCK_MODE_OFF && (c->has_bind || c->has_connect))
		l->p->rs->landlock_tcp_loc = c->has_bind ? c->bind_loc : c->connect_loc;
	profile_groups_check(l);
	if (l->d->n_errors != l->errors || l->oom)
		return;
	r = profile_groups_expand(l);
	if (r == -ENOMEM)
		l->oom = r;
}

static void loader_clear(struct loader *l)
{
	free(l->ents); /* their names and conditions are in arenas */
	profile_groups_free(l);
	profile_ini_free(l);
	arena_free(&l->scratch);
}

int profile_load(const char *what, const struct profile_opts *opts, const struct arch *native,
		 struct diag *d, struct profile **ret)
{
	static const struct profile_opts by_path = { .source = PROFILE_FROM_PATH };
	struct loader l = { .native = native, .d = d, .errors = d->n_errors };
	int r = 0;

	*ret = NULL;
	l.opts = opts ? opts : &by_path;
	/* The path is known once the file is found: set at the end. */
	l.p = profile_new(what);
	if (!l.p)
		return -ENOMEM;
	/* A top file that cannot be opened needs no second error. */
	r = profile_ini_load_top(&l, what);
	if (r == 0 && !l.oom && !l.abort)
		apply_sets(&l);
	if (r == 0 && !l.oom && !l.abort)
		finish(&l, l.p->rs->files[0]);
	/* Even for a profile with errors: say which files cannot be trusted. */
	if (!l.oom) {
		profile_ini_check_trust(&l);
		l.p->trust = l.trust_done;
	}
	if (l.oom)
		r = l.oom;
	else if (r != -ENOENT)
		r = d->n_errors != l.errors ? -EINVAL : 0;
	if (r == 0) {
		free(l.p->path);
		l.p->path = strdup(l.p->rs->files[0]);
		if (!l.p->path || profile_groups_keep(&l) < 0)
			r = -ENOMEM;
	}
	loader_clear(&l);
	if (r < 0) {
		profile_free(l.p);
		return r;
	}
	*ret = l.p;
	return 0;
}

struct profile *profile_new(const char *path)
{
	struct profile *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->caller = (struct caller_settings)CALLER_SETTINGS_INIT;
	p->path = strdup(path);
	p->rs = ruleset_new();
	if (!p->path || !p->rs) {
		profile_free(p);
		return NULL;
	}
	return p;
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
	supp_groups_clear(p);
	caller_settings_clear(&p->caller);
	landlock_config_clear(&p->landlock);
	for (size_t i = 0; i < p->n_groups; i++) {
		for (size_t j = 0; j < p->groups[i].n_members; j++)
			free(p->groups[i].members[j]);
		free(p->groups[i].members);
		free(p->groups[i].name);
	}
	free(p->groups);
	for (size_t i = 0; i < p->n_lint_allows; i++)
		free(p->lint_allows[i].id);
	free(p->lint_allows);
	free(p);
}

/* One name or number, as [credentials] takes it: a copy in *dst. */
static int set_credential(const char *option, const char *value, char **dst,
			  struct src_loc *dst_loc, bool *has, struct diag *d)
{
	char *copy;

	if (!*value || strpbrk(value, " \t")) {
		diag_error(d, NULL, "%s '%s': expected one name or number", option, value);
		return -EINVAL;
	}
	copy = strdup(value);
	if (!copy)
		return -ENOMEM;
	free(*dst);
	*dst = copy;
	*dst_loc = (struct src_loc){ .file = option };
	*has = true;
	return 0;
}

bool profile_keeps_cap(const struct profile *p, int cap)
{
	for (unsigned i = 0; i < p->n_keep_caps; i++)
		if (p->keep_caps[i] == cap)
			return true;
	return false;
}

int profile_keep_cap(struct profile *p, int cap)
{
	if (profile_keeps_cap(p, cap))
		return 0;
	if (p->n_keep_caps >= PROFILE_KEEP_CAPS_MAX)
		return -E2BIG;
	p->keep_caps[p->n_keep_caps++] = cap;
	return 1;
}

int profile_set_credentials(struct profile *p, const char *user, const char *group, struct diag *d)
{
	int r = 0;

	if (user)
		r = set_credential("--user", user, &p->user, &p->user_loc, &p->has_user, d);
	if (r == 0 && group)
		r = set_credential("--group", group, &p->group, &p->group_loc, &p->has_group, d);
	return r;
}
