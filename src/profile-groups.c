/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * [groups] and @group expansion: user groups as written, their checks
 * (unknown members, cycles), and the expansion of every rule and priority
 * entry into the ruleset (scmp-run.ini(5) [groups], GROUPS).
 */
#include "profile-internal.h"
#include "suggest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "groups-flat.h"
#include "groups.h"
#include "memstream.h"
#include "syscalls.h"

/* Guard for expand(): user groups nest at most PROFILE_GROUP_DEPTH_MAX deep
 * (checked before expansion), built-in groups 2 deep. */
#define NEST_MAX (PROFILE_GROUP_DEPTH_MAX + 16)

/* A set of borrowed strings (open addressing). */
struct strset {
	const char **slots;
	size_t size, n;
};

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

/* The slot of name in l's index: where it is, or the empty slot where it
 * goes. The index is never full (index_add() keeps it at most half full). */
static size_t group_slot(const struct loader *l, const char *name)
{
	size_t mask = l->n_group_slots - 1, i = str_hash(name) & mask;

	while (l->group_slots[i] && strcmp(l->groups[l->group_slots[i] - 1].name, name))
		i = (i + 1) & mask;
	return i;
}

/* Index the group l->groups[idx], the last one. 0 or -ENOMEM. */
static int index_add(struct loader *l, size_t idx)
{
	if ((idx + 1) * 2 > l->n_group_slots) {
		size_t size = l->n_group_slots ? l->n_group_slots * 2 : 64;
		size_t *slots = calloc(size, sizeof(*slots));

		if (!slots)
			return -ENOMEM;
		free(l->group_slots);
		l->group_slots = slots;
		l->n_group_slots = size;
		for (size_t i = 0; i < idx; i++)
			l->group_slots[group_slot(l, l->groups[i].name)] = i + 1;
	}
	l->group_slots[group_slot(l, l->groups[idx].name)] = idx + 1;
	return 0;
}

static struct ugroup *find_ugroup(const struct loader *l, const char *name)
{
	size_t i;

	if (!l->n_group_slots)
		return NULL;
	i = group_slot(l, name);
	return l->group_slots[i] ? &l->groups[l->group_slots[i] - 1] : NULL;
}

static bool group_exists(struct loader *l, const char *name)
{
	return groups_lookup(name) || find_ugroup(l, name);
}

/* ---- [groups] ---- */

/* A new, empty group named key; NULL if the name cannot be defined
 * (reported) or on ENOMEM (l->oom set). */
static struct ugroup *new_group(struct key_ctx *k)
{
	struct loader *l = k->l;
	struct ugroup *g;

	if (!profile_valid_group_name(k->key)) {
		key_error(k, "invalid group name '%s': user groups are written '@name'", k->key);
		return NULL;
	}
	if (groups_lookup(k->key)) {
		key_error(k, "cannot redefine the built-in group '%s'", k->key);
		return NULL;
	}
	g = find_ugroup(l, k->key);
	if (g) {
		key_error(k, "group '%s' is already defined at %s:%u", k->key, g->loc.file,
			  g->loc.line);
		return NULL;
	}
	g = array_grow(&l->groups, &l->n_groups, &l->cap_groups, sizeof(*g));
	if (!g)
		goto oom;
	*g = (struct ugroup){ .name = strdup(k->key), .loc = k->loc };
	if (!g->name || index_add(l, l->n_groups - 1) < 0) {
		free(g->name);
		l->n_groups--;
		goto oom;
	}
	return g;
oom:
	l->oom = -ENOMEM;
	return NULL;
}

static int add_member(struct ugroup *g, struct member *m)
{
	struct member *slot =
		array_grow(&g->members, &g->n_members, &g->cap_members, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	*slot = *m;
	return 0;
}

int profile_groups_define(struct key_ctx *k)
{
	struct loader *l = k->l;
	struct ugroup *g = new_group(k);

	if (!g)
		return l->oom ? -ENOMEM : -EINVAL;
	for (size_t i = 0; i < k->pd->n_segs; i++) {
		char *rest = k->pd->segs[i].text, *w;
		struct src_loc loc;

		profile_loc(k->fr, k->pd->segs[i].line, &loc);
		while ((w = profile_next_word(&rest))) {
			struct member m = { .loc = loc };

			if (profile_parse_name(l, &loc, w, true, &m.name, &m.optional) < 0)
				continue;
			if (add_member(g, &m) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

/* ---- checks ---- */

/* The user group a member names, or NULL (a syscall or a built-in group). */
static struct ugroup *member_group(const struct loader *l, const struct member *m)
{
	return m->name[0] == '@' ? find_ugroup(l, m->name) : NULL;
}

/* Groups shown at each end of a long cycle in a message. */
#define CHAIN_SHOWN 8

/* One group on the path of the depth-first search, and its next member. */
struct dfs_frame {
	struct ugroup *g;
	size_t next;
};

/* Report "group '@a' contains itself: @a -> @b -> @a"; m is on the path. */
static void report_cycle(struct loader *l, const struct dfs_frame *path, size_t n,
			 const struct ugroup *m)
{
	char *chain;
	size_t k = 0;
	FILE *f = memstream_open(&chain);

	while (path[k].g != m)
		k++;
	if (f) {
		for (size_t i = k; i < n; i++) {
			/* A long cycle: its first and last groups are enough. */
			if (n - k > 2 * CHAIN_SHOWN && i == k + CHAIN_SHOWN) {
				fprintf(f, "(%zu more) -> ", n - k - 2 * CHAIN_SHOWN);
				i = n - CHAIN_SHOWN;
			}
			fprintf(f, "%s -> ", path[i].g->name);
		}
		fputs(m->name, f);
		memstream_close(f, &chain); /* NULL if it failed: the name alone */
	}
	diag_error(l->d, &m->loc, "group '%s' contains itself: %s", m->name,
		   chain ? chain : m->name);
	free(chain);
}

/* Report "group '@a' nests user groups 17 levels deep": g is the top of a
 * chain one level too deep; the chain follows the deepest members. */
static void report_depth(struct loader *l, const struct ugroup *g)
{
	char *chain;
	FILE *f = memstream_open(&chain);

	for (const struct ugroup *c = g; f && c;) {
		const struct ugroup *next = NULL;

		fprintf(f, "%s%s", c == g ? "" : " -> ", c->name);
		for (size_t i = 0; !next && i < c->n_members; i++) {
			const struct ugroup *m = member_group(l, &c->members[i]);

			if (m && m->mark == 2 && m->depth + 1 == c->depth)
				next = m;
		}
		c = next;
	}
	if (f)
		memstream_close(f, &chain); /* NULL if it failed: the name alone */
	diag_error(l->d, &g->loc, "group '%s' nests user groups %u levels deep (at most %d): %s",
		   g->name, g->depth, PROFILE_GROUP_DEPTH_MAX, chain ? chain : g->name);
	free(chain);
}

/* A group whose members are all done: its depth, capped one over the limit
 * so that only the first group over it is reported. */
static void finish_group(struct loader *l, struct ugroup *g)
{
	unsigned below = 0;

	for (size_t i = 0; i < g->n_members; i++) {
		const struct ugroup *m = member_group(l, &g->members[i]);

		if (m && m->mark == 2 && m->depth > below)
			below = m->depth;
	}
	g->mark = 2;
	g->depth = below + 1;
	if (g->depth == PROFILE_GROUP_DEPTH_MAX + 1)
		report_depth(l, g);
	if (g->depth > PROFILE_GROUP_DEPTH_MAX + 1)
		g->depth = PROFILE_GROUP_DEPTH_MAX + 1;
}

/*
 * Depth-first search from g for user groups that contain themselves and
 * for nesting over PROFILE_GROUP_DEPTH_MAX. Iterative: a profile may chain
 * tens of thousands of groups, more than the stack could recurse through.
 * path has room for every group (a group is on the path at most once).
 */
static void search_groups(struct loader *l, struct ugroup *g, struct dfs_frame *path)
{
	size_t n = 0;

	path[n++] = (struct dfs_frame){ .g = g };
	g->mark = 1;
	while (n) {
		struct dfs_frame *top = &path[n - 1];
		struct ugroup *m;

		if (top->next == top->g->n_members) {
			finish_group(l, top->g);
			n--;
			continue;
		}
		m = member_group(l, &top->g->members[top->next++]);
		if (!m || m->mark == 2)
			continue;
		if (m->mark == 1) {
			report_cycle(l, path, n, m);
			continue;
		}
		m->mark = 1;
		path[n++] = (struct dfs_frame){ .g = m };
	}
}

/* An unknown group at loc, with the closest built-in or user group. */
static void unknown_group(struct loader *l, const char *name, const struct src_loc *loc)
{
	struct suggest sg;

	suggest_init(&sg, name);
	groups_suggest(&sg);
	for (size_t i = 0; i < l->n_groups; i++)
		suggest_offer(&sg, l->groups[i].name);
	diag_error(l->d, loc, "unknown group '%s'", name);
	if (suggest_result(&sg))
		diag_hint(l->d, loc, "did you mean '%s'?", suggest_result(&sg));
}

void profile_groups_check(struct loader *l)
{
	struct dfs_frame *path;

	for (size_t i = 0; i < l->n_groups; i++)
		for (size_t j = 0; j < l->groups[i].n_members; j++) {
			const struct member *m = &l->groups[i].members[j];

			if (m->name[0] == '@' && !group_exists(l, m->name))
				unknown_group(l, m->name, &m->loc);
		}
	for (size_t i = 0; i < l->n_ents; i++)
		if (l->ents[i].name[0] == '@' && !group_exists(l, l->ents[i].name))
			unknown_group(l, l->ents[i].name, &l->ents[i].loc);
	path = calloc(l->n_groups + 1, sizeof(*path));
	if (!path) {
		l->oom = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < l->n_groups; i++)
		if (!l->groups[i].mark)
			search_groups(l, &l->groups[i], path);
	free(path);
}

/* ---- expansion ---- */

struct expand_ctx {
	struct loader *l;
	const struct entry *e;
	uint64_t *seen_ids;   /* names of the table already emitted for this key, by id */
	struct strset seen;   /* other names already emitted for this key */
	struct strset groups; /* groups already expanded for this key */
	size_t first_rule;    /* the key's first rule in the ruleset */
	bool single;	      /* the key names one syscall, no group: nothing to de-duplicate */
	const char *group;    /* e->name interned in the ruleset, once needed */
};

/* 1 if name (syscalls_name_id() id) is new for this key (now remembered),
 * 0 if seen, or -ENOMEM. */
static int first_time(struct expand_ctx *x, const char *name, int id)
{
	if (x->single)
		return 1;
	if (id < 0)
		return strset_add(&x->seen, name);
	if (x->seen_ids[id / 64] & (UINT64_C(1) << (id % 64)))
		return 0;
	x->seen_ids[id / 64] |= UINT64_C(1) << (id % 64);
	return 1;
}

/* A name written by itself after a group of the same key named it: its
 * rule is no longer one "through a group only" (scmp-run.ini(5) BUILT-IN
 * RULES, clone3). */
static void named_itself(struct expand_ctx *x, const char *name)
{
	struct ruleset *rs = x->l->p->rs;

	for (size_t i = x->first_rule; i < rs->n_rules; i++)
		if (!strcmp(rs->rules[i].syscall, name)) {
			rs->rules[i].via_group = false;
			rs->rules[i].group = NULL;
		}
}

/* What the entry makes of each of its names, but the name: its action and
 * location, and for a name met through a group, the group written in the
 * key (interned once per key: the one a reader finds there). Returns 0 or
 * -ENOMEM. */
static int entry_rule(struct expand_ctx *x, bool optional, bool via_group, struct rule *ret)
{
	const struct entry *e = x->e;

	*ret = (struct rule){
		.optional = optional,
		.action = e->action,
		.loc = e->loc,
		.via_group = via_group,
	};
	if (!via_group || e->name[0] != '@')
		return 0;
	if (!x->group)
		x->group = ruleset_intern_file(x->l->p->rs, e->name);
	ret->group = x->group;
	return x->group ? 0 : -ENOMEM;
}

/* A rule for each conjunction of the entry on name, whose syscalls_name_id()
 * is id (-1: a number, or a name no table has). tmpl: entry_rule() made
 * already for this optional and via_group, completed here name by name; or
 * NULL. Inline: it runs once per member of a group, hundreds of times a key. */
static inline int emit(struct expand_ctx *x, const char *name, int id, bool optional,
		       bool via_group, struct rule *tmpl)
{
	struct ruleset *rs = x->l->p->rs;
	const struct entry *e = x->e;
	struct rule own, *rule = tmpl ? tmpl : &own;
	int r = first_time(x, name, id);

	if (r == 0 && !via_group && !e->is_prio)
		named_itself(x, name);
	if (r <= 0)
		return r;
	if (e->is_prio) {
		/* An optional name the table lacks has no number to prioritise. */
		if (optional && !syscalls_known(name))
			return 0;
		return ruleset_set_priority(rs, name, e->prio, via_group, &e->loc);
	}
	if (!tmpl && entry_rule(x, optional, via_group, &own) < 0)
		return -ENOMEM;
	rule->syscall = name;
	rule->name_key = (unsigned)(id + 1);
	if (!e->cond.n_conjs)
		return ruleset_add_rule(rs, rule, false);
	for (size_t i = 0; r >= 0 && i < e->cond.n_conjs; i++) { /* in rs->arena already */
		rule->conj = e->cond.conjs[i];
		r = ruleset_add_rule(rs, rule, true);
	}
	return r < 0 ? r : 0;
}

/* bg (groups_lookup()) expanded at build time: groups_flat[] follows
 * groups_list(), then @known. */
static const struct groups_flat *flat_of(const struct group *bg)
{
	size_t n;
	const struct group *list = groups_list(&n);

	return bg >= list && bg < list + n ? &groups_flat[bg - list] : &groups_flat[n];
}

/* A built-in group, expanded at build time in the order expand() would
 * follow its members (groups-flat.h): its nested groups are not marked as
 * expanded for the key, which only costs their names a second look.
 * Members of built-in groups are optional: the table may lack some. */
static int expand_builtin(struct expand_ctx *x, const struct groups_flat *g)
{
	/* Every member gets the same rule but for its name: made once. */
	struct rule rule, *tmpl = NULL;
	int r = 0;

	if (!x->e->is_prio) {
		r = entry_rule(x, true, true, &rule);
		tmpl = &rule;
	}
	for (size_t i = g->first; r >= 0 && i < (size_t)g->first + g->n; i++) {
		unsigned v = groups_flat_ids[i];

		if (v & GROUPS_FLAT_OTHER)
			r = emit(x, groups_flat_other + (v & ~GROUPS_FLAT_OTHER), -1, true, true,
				 tmpl);
		else
			r = emit(x, syscalls_name_of_id((int)v), (int)v, true, true, tmpl);
	}
	return r;
}

static int expand(struct expand_ctx *x, const char *name, bool optional, unsigned depth)
{
	const struct group *bg;
	const struct ugroup *ug;
	int r = 0;

	if (name[0] != '@')
		return emit(x, name, syscalls_name_id(name), optional, depth > 0, NULL);
	if (depth > NEST_MAX)
		return -ELOOP;
	/* A group expands to the same names wherever it is met: once per key
	 * is enough, and a lattice of groups (@a = @b @b, @b = @c @c...) then
	 * costs its size, not 2^depth. */
	r = strset_add(&x->groups, name);
	if (r <= 0)
		return r;
	r = 0;
	bg = groups_lookup(name);
	if (bg)
		return expand_builtin(x, flat_of(bg));
	ug = find_ugroup(x->l, name);
	if (!ug)
		return -ENOENT; /* reported before expansion */
	for (size_t i = 0; r >= 0 && i < ug->n_members; i++)
		r = expand(x, ug->members[i].name, ug->members[i].optional, depth + 1);
	return r;
}

/* Rules reserved at most before expanding (80 bytes each): a key that
 * repeats a group many times makes its rules once, so a larger bound is
 * left to grow as the rules come. */
#define RULES_RESERVE_MAX 16384

/* The rules the entries make, as far as known before expanding: a user
 * group counts for nothing (its rules are added one by one). */
static size_t rules_bound(const struct loader *l)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n_ents; i++) {
		const struct entry *e = &l->ents[i];
		const struct group *bg = e->name[0] == '@' ? groups_lookup(e->name) : NULL;
		size_t names = e->name[0] != '@' ? 1 : bg ? flat_of(bg)->n : 0;

		if (!e->is_prio)
			n += names * (e->cond.n_conjs ? e->cond.n_conjs : 1);
	}
	return n;
}

int profile_groups_expand(struct loader *l)
{
	size_t words = (syscalls_name_count() + 63) / 64;
	uint64_t *seen_ids = calloc(words, sizeof(*seen_ids));
	size_t bound;
	int ret = 0;

	if (!seen_ids)
		return -ENOMEM;
	/* one allocation for the rules: @system-service alone makes ~400 */
	bound = rules_bound(l);
	if (bound <= RULES_RESERVE_MAX && ruleset_reserve(l->p->rs, bound) < 0) {
		free(seen_ids);
		return -ENOMEM;
	}
	for (size_t i = 0; i < l->n_ents && !ret;) {
		struct expand_ctx x = { .l = l,
					.first_rule = l->p->rs->n_rules,
					.seen_ids = seen_ids };
		unsigned id = l->ents[i].key_id;
		int r = 0;

		x.single = (i + 1 == l->n_ents || l->ents[i + 1].key_id != id) &&
			   l->ents[i].name[0] != '@';
		for (; i < l->n_ents && l->ents[i].key_id == id; i++) {
			x.e = &l->ents[i];
			x.group = NULL;
			r = expand(&x, l->ents[i].name, l->ents[i].optional, 0);
			if (r < 0)
				break;
		}
		strset_clear(&x.seen);
		strset_clear(&x.groups);
		memset(seen_ids, 0, words * sizeof(*seen_ids));
		if (r < 0 && r != -ENOMEM)
			diag_error(l->d, &l->ents[i].loc, "cannot expand '%s': %s", l->ents[i].name,
				   strerror(-r));
		ret = r == -ENOMEM ? r : r < 0 ? -EINVAL : 0;
	}
	free(seen_ids);
	return ret;
}

int profile_groups_keep(struct loader *l)
{
	struct profile *p = l->p;

	p->groups = calloc(l->n_groups + 1, sizeof(*p->groups));
	if (!p->groups)
		return -ENOMEM;
	for (size_t i = 0; i < l->n_groups; i++) {
		const struct ugroup *u = &l->groups[i];
		struct profile_group *g = &p->groups[p->n_groups++];

		g->loc = u->loc;
		g->name = strdup(u->name);
		g->members = calloc(u->n_members + 1, sizeof(*g->members));
		if (!g->name || !g->members)
			return -ENOMEM;
		for (size_t j = 0; j < u->n_members; j++) {
			const struct member *m = &u->members[j];

			if (asprintf(&g->members[j], "%s%s", m->name, m->optional ? "?" : "") < 0)
				return -ENOMEM;
			g->n_members++;
		}
	}
	return 0;
}

void profile_groups_free(struct loader *l)
{
	for (size_t i = 0; i < l->n_groups; i++) {
		/* the members' names are in the loader's scratch arena */
		free(l->groups[i].members);
		free(l->groups[i].name);
	}
	free(l->groups);
	free(l->group_slots);
	l->groups = NULL;
	l->group_slots = NULL;
	l->n_groups = l->cap_groups = l->n_group_slots = 0;
}
