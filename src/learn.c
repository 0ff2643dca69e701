/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --learn: a set of recorded calls, and the profile written from it. The
 * decisive arguments and the file layout are described in scmp-run(1),
 * WRITING A PROFILE FOR A PROGRAM.
 */
#include "learn.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "callfmt.h"
#include "consts.h"
#include "groups.h"
#include "profile.h"

/* Namespace flags of clone(2) and unshare(2); CLONE_NEWTIME (0x80) lies in
 * clone's exit-signal byte and is a namespace flag only for unshare. */
#define NS_FLAGS   0x7e020000ull
#define PROT_EXEC_ 0x4ull
#define FULL	   UINT64_MAX

/* Names in arrays, not pointers: the table needs no relocation at start-up. */
struct decisive {
	char syscall[16];
	char param[LEARN_TESTS_MAX][16]; /* parameter names; "": unused */
	uint64_t mask[LEARN_TESTS_MAX];	 /* FULL: the argument's whole width */
	char prefix[LEARN_TESTS_MAX][8]; /* constants to name values with; "": none */
};

/* Rows with one or two decisive parameters (name, mask, prefix each), the
 * names checked to fit with their NUL when compiled (ARRAY_FITS()). */
#define FITS_ROW(sc, p, pre)                                                                     \
	(MEMBER_FITS(sc, struct decisive, syscall) + MEMBER_FITS(p, struct decisive, param[0]) + \
	 MEMBER_FITS(pre, struct decisive, prefix[0]))
/* clang-format off */
#define DECISIVE1(sc, p, m, pre) \
	{ sc, { p }, { (m) + FITS_ROW(sc, p, pre) }, { pre } }
#define DECISIVE2(sc, p1, m1, pre1, p2, m2, pre2) \
	{ sc, { p1, p2 }, { (m1) + FITS_ROW(sc, p1, pre1), (m2) + FITS_ROW(sc, p2, pre2) }, \
	  { pre1, pre2 } }
/* clang-format on */

static const struct decisive decisive[] = {
	DECISIVE2("socket", "family", FULL, "AF_", "type", 0xf, "SOCK_"),
	DECISIVE2("socketpair", "family", FULL, "AF_", "type", 0xf, "SOCK_"),
	DECISIVE1("ioctl", "cmd", FULL, ""),
	DECISIVE1("prctl", "option", FULL, ""),
	DECISIVE1("fcntl", "cmd", FULL, "F_"),
	DECISIVE1("fcntl64", "cmd", FULL, "F_"),
	DECISIVE1("clone", "flags", NS_FLAGS, ""),
	DECISIVE1("unshare", "unshare_flags", NS_FLAGS | 0x80, ""),
	DECISIVE1("mmap", "prot", PROT_EXEC_, ""),
	DECISIVE1("mmap2", "prot", PROT_EXEC_, ""),
	DECISIVE1("mprotect", "prot", PROT_EXEC_, ""),
	DECISIVE1("pkey_mprotect", "prot", PROT_EXEC_, ""),
	DECISIVE1("personality", "personality", FULL, "PER_"),
	DECISIVE2("setsockopt", "level", FULL, "", "optname", FULL, ""),
	DECISIVE2("getsockopt", "level", FULL, "", "optname", FULL, ""),
	/* the operation: the one argument of a multiplexer in a register
	 * (scmp-run.ini(5) Multiplexed calls); allowed by name, it would
	 * allow every socket or IPC operation */
	DECISIVE1("socketcall", "call", FULL, ""),
	DECISIVE1("ipc", "call", FULL, ""),
};

struct rec {
	const struct arch *abi;
	uint32_t nr;
	const char *name; /* static (the syscall table); NULL: unknown number */
	unsigned n;
	uint8_t arg[LEARN_TESTS_MAX];
	uint64_t mask[LEARN_TESTS_MAX], value[LEARN_TESTS_MAX];
	const struct decisive *how;
};

/* The records, and an index to find one by its content: every notified
 * call is looked up (a call already recorded is notified again), so a
 * scan of all records would make a program of many distinct calls cost
 * the supervisor time quadratic in their number. */
struct learn {
	struct rec *recs;
	size_t n, cap;
	uint32_t *slots; /* open addressing: record number + 1, 0 for empty */
	size_t n_slots;	 /* a power of two, at least twice n */
};

struct learn *learn_new(void)
{
	return calloc(1, sizeof(struct learn));
}

void learn_free(struct learn *l)
{
	if (!l)
		return;
	free(l->recs);
	free(l->slots);
	free(l);
}

size_t learn_count(const struct learn *l)
{
	return l->n;
}

static const struct decisive *decisive_for(const char *name)
{
	for (size_t i = 0; name && i < sizeof(decisive) / sizeof(decisive[0]); i++)
		if (!strcmp(decisive[i].syscall, name))
			return &decisive[i];
	return NULL;
}

/* The width mask of a parameter on a. */
static uint64_t width_of(enum arg_class c, const struct arch *a)
{
	switch (c) {
	case ARG_U16:
		return 0xffff;
	case ARG_S32:
	case ARG_U32:
		return UINT32_MAX;
	default:
		return a->bits == 32 ? UINT32_MAX : UINT64_MAX;
	}
}

/* Fill r's tests from the arguments (args NULL: masks only). */
static void rec_tests(struct rec *r, const uint64_t *args)
{
	struct syscall_arg types[SYSCALL_ARGS_MAX];
	const struct decisive *how = decisive_for(r->name);
	bool known;

	r->n = 0;
	r->how = how;
	if (!how || syscalls_args(r->abi, r->name, types, &known) < 0 || !known)
		return;
	for (unsigned t = 0; t < LEARN_TESTS_MAX && how->param[t][0]; t++) {
		for (unsigned i = 0; i < SYSCALL_ARGS_MAX; i++) {
			if (!types[i].name || strcmp(types[i].name, how->param[t]))
				continue;
			r->arg[r->n] = (uint8_t)i;
			r->mask[r->n] = how->mask[t] & width_of(types[i].cls, r->abi);
			if (args)
				r->value[r->n] = args[i] & r->mask[r->n];
			r->n++;
			break;
		}
	}
}

static bool rec_eq(const struct rec *a, const struct rec *b)
{
	if (a->abi != b->abi || a->nr != b->nr || a->n != b->n)
		return false;
	for (unsigned i = 0; i < a->n; i++)
		if (a->arg[i] != b->arg[i] || a->mask[i] != b->mask[i] ||
		    a->value[i] != b->value[i])
			return false;
	return true;
}

/* FNV-1a over what rec_eq() compares */
static uint64_t rec_hash(const struct rec *r)
{
	uint64_t words[2 + 3 * LEARN_TESTS_MAX] = { r->abi->audit_arch,
						    (uint64_t)r->nr << 8 | r->n };
	uint64_t h = 0xcbf29ce484222325u;

	for (unsigned i = 0; i < r->n; i++) {
		words[2 + 3 * i] = r->arg[i];
		words[3 + 3 * i] = r->mask[i];
		words[4 + 3 * i] = r->value[i];
	}
	for (size_t i = 0; i < 2 + 3 * r->n; i++)
		for (unsigned b = 0; b < 64; b += 8) {
			h ^= (words[i] >> b) & 0xff;
			h *= 0x100000001b3u;
		}
	return h;
}

/* The slot of r in the index: the one that holds it, or the empty one
 * where it would go. */
static size_t rec_slot(const struct learn *l, const struct rec *r)
{
	size_t mask = l->n_slots - 1, s = (size_t)rec_hash(r) & mask;

	while (l->slots[s] && !rec_eq(&l->recs[l->slots[s] - 1], r))
		s = (s + 1) & mask;
	return s;
}

/* Room in the index for one more record: 0 or -ENOMEM. */
static int index_grow(struct learn *l)
{
	size_t n_slots = l->n_slots ? l->n_slots * 2 : 128;
	uint32_t *slots;

	if ((l->n + 1) * 2 <= l->n_slots)
		return 0;
	slots = calloc(n_slots, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	free(l->slots);
	l->slots = slots;
	l->n_slots = n_slots;
	for (size_t i = 0; i < l->n; i++)
		l->slots[rec_slot(l, &l->recs[i])] = (uint32_t)i + 1;
	return 0;
}

static int rec_add(struct learn *l, const struct rec *r)
{
	size_t s;

	if (l->n_slots && l->slots[rec_slot(l, r)])
		return 0;
	if (l->n >= LEARN_RECORDS_MAX)
		return -E2BIG;
	if (index_grow(l) < 0)
		return -ENOMEM;
	s = rec_slot(l, r);
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct rec *n = reallocarray(l->recs, cap, sizeof(*n));

		if (!n)
			return -ENOMEM;
		l->recs = n;
		l->cap = cap;
	}
	l->recs[l->n++] = *r;
	l->slots[s] = (uint32_t)l->n;
	return 1;
}

int learn_record(struct learn *l, const struct arch *a, uint32_t nr,
		 const uint64_t args[SYSCALL_ARGS_MAX])
{
	struct rec r = { .abi = a, .nr = nr, .name = syscalls_lookup_nr(a, nr) };

	rec_tests(&r, args);
	return rec_add(l, &r);
}

int learn_record_clone3(struct learn *l, const struct arch *a, uint64_t flags)
{
	struct syscall_arg types[SYSCALL_ARGS_MAX];
	uint64_t args[SYSCALL_ARGS_MAX] = { 0 };
	bool known = false;
	uint32_t nr;

	if (syscalls_lookup_name(a, "clone", &nr) < 0 ||
	    syscalls_args(a, "clone", types, &known) < 0 || !known)
		return 0; /* no clone to fall back to: clone3 stays denied */
	for (unsigned i = 0; i < SYSCALL_ARGS_MAX; i++)
		if (types[i].name && !strcmp(types[i].name, "flags"))
			args[i] = flags;
	return learn_record(l, a, nr, args);
}

/* ---- reading records back ---- */

static bool parse_hex(const char *s, char **end, uint64_t *ret)
{
	if (strncmp(s, "0x", 2))
		return false;
	errno = 0;
	*ret = strtoull(s, end, 16);
	return !errno && *end > s + 2;
}

/* ";@learned ABI NR [ARG&MASK=VALUE]..." */
static int parse_record(const char *line, struct rec *r)
{
	char abi[32], *end;
	const char *p = line + strlen(LEARN_TAG);
	unsigned long long nr;
	int used = 0;

	memset(r, 0, sizeof(*r));
	if (*p != ' ' || sscanf(p, " %31s %n", abi, &used) != 1)
		return -EINVAL;
	r->abi = arch_lookup(abi);
	p += used;
	if (!r->abi || *p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	nr = strtoull(p, &end, 10);
	if (errno || nr > UINT32_MAX || (*end != ' ' && *end && *end != '\n'))
		return -EINVAL;
	r->nr = (uint32_t)nr;
	/* a number the ABI never sees (an x32 one without its bit): recorded
	 * calls have none, and the profile would refuse its rule */
	if (arch_of_call(r->abi->audit_arch, r->nr) != r->abi)
		return -EINVAL;
	r->name = syscalls_lookup_nr(r->abi, r->nr);
	p = end;
	while (*p == ' ') {
		uint64_t arg, mask, value;

		p++;
		if (*p < '0' || *p > '5' || p[1] != '&' || r->n >= LEARN_TESTS_MAX)
			return -EINVAL;
		arg = (uint64_t)(*p - '0');
		if (!parse_hex(p + 2, &end, &mask) || *end != '=' ||
		    !parse_hex(end + 1, &end, &value) || (value & ~mask))
			return -EINVAL;
		r->arg[r->n] = (uint8_t)arg;
		r->mask[r->n] = mask;
		r->value[r->n] = value;
		r->n++;
		p = end;
	}
	if (*p && *p != '\n')
		return -EINVAL;
	/* the tests must be the ones this version records for the call */
	struct rec want = *r;

	rec_tests(&want, NULL);
	if (want.n != r->n)
		return r->n == 0 ? -EPROTO : -EINVAL; /* an earlier version's, without them */
	for (unsigned i = 0; i < r->n; i++)
		if (want.arg[i] != r->arg[i] || want.mask[i] != r->mask[i])
			return -EINVAL;
	r->how = want.how;
	return 0;
}

/* ---- the header a learned profile was written under ---- */

#define INCLUDE_KEY "include = "

/* The lines of learn_write()'s header that merged runs must share, each
 * with its value in this run's header. */
enum {
	HEADER_BASE,
	HEADER_USER,
	HEADER_GROUP,
	HEADER_KEYS
};

static const struct {
	const char *key;
	const char *what;
} header_keys[HEADER_KEYS] = {
	[HEADER_BASE] = { INCLUDE_KEY, "base" },
	[HEADER_USER] = { "user = ", "user" },
	[HEADER_GROUP] = { "group = ", "group" },
};

static const char *header_value(const struct learn_header *h, int k)
{
	return k == HEADER_BASE ? h->base : k == HEADER_USER ? h->user : h->group;
}

/*
 * A header line of a file being merged (line, at loc, with its '\n'):
 * -EINVAL with the error in d if this run's header has another value for
 * it, else 0; seen[] notes the keys met.
 */
static int header_line_check(const char *line, const struct learn_header *h, bool seen[HEADER_KEYS],
			     const struct src_loc *loc, struct diag *d)
{
	for (int k = 0; k < HEADER_KEYS; k++) {
		size_t n = strlen(header_keys[k].key);
		const char *mine = header_value(h, k), *value = line + n;
		size_t len;

		if (strncmp(line, header_keys[k].key, n))
			continue;
		seen[k] = true;
		len = strcspn(value, "\n");
		if (mine && strlen(mine) == len && !memcmp(mine, value, len))
			return 0;
		diag_error(d, loc,
			   "--learn: this file was learned with the %s '%.*s', this run with "
			   "%s%s%s: merged, the earlier runs would no longer run as learned; "
			   "learn into another file",
			   header_keys[k].what, (int)len, value, mine ? "'" : "",
			   mine ? mine : "none", mine ? "'" : "");
		return -EINVAL;
	}
	return 0;
}

/* After the last line: a key this run writes that the file has not. */
static int header_missing_check(const char *path, const struct learn_header *h,
				const bool seen[HEADER_KEYS], struct diag *d)
{
	for (int k = 0; k < HEADER_KEYS; k++) {
		const char *mine = header_value(h, k);

		if (seen[k] || !mine)
			continue;
		diag_error(d, NULL,
			   "--learn: '%s' was learned with no %s, this run with '%s': merged, "
			   "the earlier runs would no longer run as learned; learn into another "
			   "file",
			   path, header_keys[k].what, mine);
		return -EINVAL;
	}
	return 0;
}

int learn_load(struct learn *l, FILE *f, const char *path, const struct learn_header *h,
	       struct diag *d)
{
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	unsigned lineno = 0;
	int n = 0, r = 0;
	bool seen[HEADER_KEYS] = { false };

	/* whole lines, however long: a piece of one is not a line, and a
	 * record cut short would be read as another record */
	while ((len = getline(&line, &size, f)) >= 0) {
		struct src_loc loc = { .file = path, .line = ++lineno };
		struct rec rec;

		if (strncmp(line, LEARN_TAG, strlen(LEARN_TAG))) {
			r = header_line_check(line, h, seen, &loc, d);
			if (r < 0)
				goto out;
			continue;
		}
		r = strlen(line) != (size_t)len ? -EINVAL : parse_record(line, &rec);
		if (r == -EPROTO) {
			/* socketcall and ipc: their operation was not recorded,
			 * and allowing the call whole would allow every one */
			diag_error(d, &loc,
				   "a record of %s without the arguments this version records "
				   "(written by an earlier version): learn into another file",
				   rec.name ? rec.name : "a call");
			r = -EINVAL;
			goto out;
		}
		if (r < 0) {
			diag_error(d, &loc, "malformed record line of a learned profile");
			r = -EINVAL;
			goto out;
		}
		/* the written profile lists the ABI beside native, which one
		 * filter cannot do: it would not load (scmp-run.ini(5)
		 * ARCHITECTURES) */
		if (!arch_compatible(h->native, rec.abi)) {
			diag_error(d, &loc,
				   "a record of %s, which cannot run beside %s: the file was "
				   "learned on another machine; learn into another file",
				   rec.abi->name, h->native->name);
			r = -EINVAL;
			goto out;
		}
		/* an earlier version recorded clone3 itself, and allowed it
		 * with any flags: now the narrowest clone it may stand for */
		if (rec.name && !strcmp(rec.name, "clone3"))
			r = learn_record_clone3(l, rec.abi, 0);
		else
			r = rec_add(l, &rec);
		if (r == -E2BIG)
			diag_error(d, &loc,
				   "more than %d distinct calls (counting the decisive arguments) "
				   "with this record: learn into another file",
				   LEARN_RECORDS_MAX);
		else if (r < 0)
			diag_error(d, &loc, "out of memory");
		if (r < 0)
			goto out;
		n++;
	}
	/* getline() fails without an error on the stream when out of
	 * memory: only the end of the file ends the record */
	if (ferror(f) || !feof(f)) {
		r = errno == ENOMEM && !ferror(f) ? -ENOMEM : -EIO;
		diag_error(d, NULL, "reading '%s' failed: %s", path, strerror(-r));
	} else if (!n) {
		diag_error(d, NULL,
			   "'%s' exists and is not a profile written by --learn (no '%s' "
			   "lines): not overwritten",
			   path, LEARN_TAG);
		r = -EINVAL;
	} else {
		r = header_missing_check(path, h, seen, d);
		if (r == 0)
			r = n;
	}
out:
	free(line);
	return r;
}

/* ---- writing ---- */

/* By ABI, then the calls with a name by name, then the numbers without
 * one. A total order: qsort() needs one, and the file written must not
 * depend on the order the records came in (a merge reads them back in the
 * written one). Names compared between named calls and numbers otherwise
 * made cycles: a before b by name, b before a call without a name and
 * that call before a by number. */
static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->abi->id != y->abi->id)
		return x->abi->id < y->abi->id ? -1 : 1;
	if (!x->name != !y->name)
		return x->name ? -1 : 1;
	if (x->name && strcmp(x->name, y->name))
		return strcmp(x->name, y->name);
	if (x->nr != y->nr)
		return x->nr < y->nr ? -1 : 1;
	for (unsigned i = 0; i < x->n && i < y->n; i++)
		if (x->value[i] != y->value[i])
			return x->value[i] < y->value[i] ? -1 : 1;
	return (int)x->n - (int)y->n;
}

/* The ABIs of the written profile (its architectures line): the native
 * one first, then every other one the base's filter or a record has. */
struct abis {
	const struct arch *a[ARCH_COUNT];
	size_t n;
};

static void profile_abis(const struct rec *recs, size_t n, const struct learn_header *h,
			 struct abis *ret)
{
	ret->n = 0;
	ret->a[ret->n++] = h->native;
	for (int id = 0; id < ARCH_COUNT; id++) {
		const struct arch *a = arch_get((enum arch_id)id);
		bool seen = false;

		for (size_t i = 0; i < h->n_base_abis && !seen; i++)
			seen = h->base_abis[i] == a;
		for (size_t i = 0; i < n && !seen; i++)
			seen = recs[i].abi == a;
		if (seen && a != h->native)
			ret->a[ret->n++] = a;
	}
}

/* True if name is recorded unconditionally on ABI a: found through the
 * index, since the writer asks once per record. */
static bool used_plain(const struct learn *l, const struct arch *a, const char *name)
{
	struct rec r = { .abi = a };

	return l->n_slots && syscalls_lookup_name(a, name, &r.nr) == 0 && l->slots[rec_slot(l, &r)];
}

/* A name in a rule is that call on every ABI of the profile that has it
 * (scmp-run.ini(5) SYSCALL NAMES): it may stand for what was recorded only
 * if the call was seen, unconditionally, on each of them. */
static bool plain_everywhere(const struct learn *l, const struct abis *abis, const char *name)
{
	for (size_t k = 0; k < abis->n; k++) {
		uint32_t nr;

		if (syscalls_lookup_name(abis->a[k], name, &nr) == 0 &&
		    !used_plain(l, abis->a[k], name))
			return false;
	}
	return true;
}

/* On how many ABIs of the profile a call has this name. */
static size_t abis_with(const struct abis *abis, const char *name)
{
	size_t count = 0;

	for (size_t k = 0; k < abis->n; k++) {
		uint32_t nr;

		count += syscalls_lookup_name(abis->a[k], name, &nr) == 0;
	}
	return count;
}

/* Is every member of g (recursively) recorded on every ABI of the profile
 * that has it (a group allows its members on each)? *ret_count counts the
 * members on each ABI. */
static bool group_complete(const struct group *g, const struct learn *l, const struct abis *abis,
			   unsigned depth, size_t *ret_count)
{
	bool all = true;

	if (!g->members || depth > 4)
		return false;
	for (const char *m = g->members; *m; m = groups_next(m)) {
		if (*m == '@') {
			const struct group *sub = groups_lookup(m);

			if (!sub || !group_complete(sub, l, abis, depth + 1, ret_count))
				all = false;
			continue;
		}
		*ret_count += abis_with(abis, m);
		if (!plain_everywhere(l, abis, m))
			all = false;
	}
	return all;
}

static bool group_has(const struct group *g, const char *name, unsigned depth)
{
	if (!g->members || depth > 4)
		return false;
	for (const char *m = g->members; *m; m = groups_next(m)) {
		if (*m == '@') {
			const struct group *sub = groups_lookup(m);

			if (sub && group_has(sub, name, depth + 1))
				return true;
		} else if (!strcmp(m, name)) {
			return true;
		}
	}
	return false;
}

static void mark_group(const struct group *g, bool *done, const struct rec *recs, size_t n,
		       unsigned depth)
{
	for (size_t i = 0; i < n; i++)
		if (recs[i].n == 0 && recs[i].name && group_has(g, recs[i].name, depth))
			done[i] = true;
}

/* The plain records of name, on every ABI: one word of a list allows them. */
static void mark_name(const char *name, bool *done, const struct rec *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (recs[i].n == 0 && recs[i].name && !strcmp(recs[i].name, name))
			done[i] = true;
}

/* The groups a comment names: not the meta groups that hold nearly all. */
static bool is_meta(const char *name)
{
	return !strcmp(name, "@default") || !strcmp(name, "@system-service") ||
	       !strcmp(name, "@known");
}

/* A list of names wrapped under 100 columns (continuation lines). */
struct wrap {
	FILE *f;
	size_t col;
	bool open;
};

static void wrap_word(struct wrap *w, const char *word)
{
	size_t len = strlen(word);

	if (!w->open) {
		fprintf(w->f, "syscalls = %s", word);
		w->col = 11 + len;
		w->open = true;
	} else if (w->col + 1 + len > 96) {
		fprintf(w->f, "\n\t%s", word);
		w->col = 8 + len;
	} else {
		fprintf(w->f, " %s", word);
		w->col += 1 + len;
	}
}

static void wrap_end(struct wrap *w)
{
	if (w->open)
		fputc('\n', w->f);
	w->open = false;
}

/* The call on its ABI alone: ABI/NUMBER, the number seccomp sees (x32's
 * with its bit; scmp-run.ini(5) SYSCALL NAMES). */
static void number_of(const struct rec *r, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%" PRIu32, r->abi->name, r->nr);
}

static void write_value(FILE *f, const struct rec *r, unsigned t)
{
	const char *prefix =
		r->how && t < LEARN_TESTS_MAX && r->how->prefix[t][0] ? r->how->prefix[t] : NULL;
	const char *name = NULL;
	uint64_t v = r->value[t];

	if (r->name && !strcmp(r->name, "ioctl")) {
		name = callfmt_const_name(r->abi, "TIOC", (int64_t)v);
		if (!name)
			name = callfmt_const_name(r->abi, "FIO", (int64_t)v);
		if (!name)
			name = callfmt_const_name(r->abi, "TC", (int64_t)v);
	} else if (r->name && !strcmp(r->name, "prctl")) {
		name = callfmt_const_name(r->abi, "PR_SET_", (int32_t)v);
		if (!name)
			name = callfmt_const_name(r->abi, "PR_GET_", (int32_t)v);
	} else if (r->name && strstr(r->name, "sockopt") && t == 0) {
		name = callfmt_const_name(r->abi, v == 1 ? "SOL_SOCKET" : "SOL_", (int32_t)v);
	} else if (prefix) {
		name = callfmt_const_name(r->abi, prefix, (int64_t)v);
	}
	if (r->mask[t] == PROT_EXEC_)
		name = v ? "PROT_EXEC" : NULL;
	if (name)
		fputs(name, f);
	else if (v < 10)
		fprintf(f, "%" PRIu64, v);
	else
		fprintf(f, "%#" PRIx64, v);
}

/* One conditional rule; by_number: keyed by ABI/NUMBER, for r's ABI alone. */
static void write_cond(FILE *f, const struct rec *r, bool by_number)
{
	struct syscall_arg types[SYSCALL_ARGS_MAX];
	bool known = false;
	char key[64];

	if (syscalls_args(r->abi, r->name, types, &known) < 0)
		known = false;
	if (by_number)
		number_of(r, key, sizeof(key));
	fprintf(f, "%s = ", by_number ? key : r->name);
	for (unsigned t = 0; t < r->n; t++) {
		unsigned i = r->arg[t];
		bool full = r->mask[t] == width_of(known ? types[i].cls : ARG_UNKNOWN, r->abi);

		if (t)
			fputs(" && ", f);
		if (known && types[i].name)
			fputs(types[i].name, f);
		else
			fprintf(f, "arg%u", i);
		if (r->mask[t] == PROT_EXEC_)
			fputs(" & PROT_EXEC", f);
		else if (!full)
			fprintf(f, " & %#" PRIx64, r->mask[t]);
		fputs(" == ", f);
		write_value(f, r, t);
	}
	fputc('\n', f);
}

const char *learn_include_unfit(const char *path)
{
	const unsigned char *u = (const unsigned char *)path;
	size_t n = strlen(path);

	if (n > PROFILE_LINE_MAX - strlen(INCLUDE_KEY))
		return "too long for a line of a profile";
	if (!n || isspace(u[0]) || isspace(u[n - 1]))
		return "it begins or ends with a blank";
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t len = utf8_decode(u + i, n - i, &cp);

		/* what the loader refuses in any line (scmp-run.ini(5) FILE SYNTAX) */
		if (!len || cp < 0x20 || cp == 0x7f || utf8_hides_text(cp))
			return "it holds a control character or a byte that is not UTF-8";
		if (cp == ';' && i && isspace(u[i - 1]))
			return "a ';' after a blank would start a comment";
		i += len;
	}
	return NULL;
}

int learn_write(const struct learn *l, const struct learn_header *h, FILE *f)
{
	size_t n = l->n, ngroups;
	struct rec *recs = n ? malloc(n * sizeof(*recs)) : NULL;
	bool *done = n ? calloc(n, sizeof(*done)) : NULL;
	const struct group *groups = groups_list(&ngroups);
	struct abis abis;
	struct wrap w = { .f = f };
	char name[64];

	if (n && (!recs || !done)) {
		free(recs);
		free(done);
		return -ENOMEM;
	}
	if (n)
		memcpy(recs, l->recs, n * sizeof(*recs));
	if (n)
		qsort(recs, n, sizeof(*recs), cmp_rec);

	fputs("# Written by scmp-run --learn: it allows what the runs below did", f);
	fputs(h->base ? " beyond the\n# base profile, and denies everything else.\n"
		      : ",\n# and denies everything else.\n",
	      f);
	fputs("# Later runs with --learn on this file add to it; the rules are rewritten\n"
	      "# from the " LEARN_TAG " lines at the end, so edit a copy.\n",
	      f);
	if (h->command)
		fprintf(f, "# Command: %s\n", h->command);
	fputs("\n[profile]\nversion = 1\n", f);
	if (h->base)
		fprintf(f, INCLUDE_KEY "%s\n", h->base);
	fputs("\n[filter]\ndefault-action = errno(EPERM)\n"
	      "unknown-syscall-action = errno(ENOSYS)\n",
	      f);
	profile_abis(recs, n, h, &abis);
	if (abis.n > 1) {
		fputs("architectures = native", f);
		for (size_t k = 1; k < abis.n; k++)
			fprintf(f, " %s", abis.a[k]->name);
		fputc('\n', f);
	}
	if (h->user || h->group) {
		fputs("\n[credentials]\n", f);
		if (h->user)
			fprintf(f, "user = %s\n", h->user);
		if (h->group)
			fprintf(f, "group = %s\n", h->group);
	}
	fputs("\n[allow]\n", f);

	/* complete groups, the larger first */
	for (;;) {
		const struct group *best = NULL;
		size_t best_size = 0;

		for (size_t g = 0; g < ngroups; g++) {
			size_t count = 0;
			bool fresh = false;

			if (!strcmp(groups[g].name, "@known") ||
			    !group_complete(&groups[g], l, &abis, 0, &count) || !count)
				continue;
			for (size_t i = 0; i < n && !fresh; i++)
				fresh = !done[i] && recs[i].n == 0 && recs[i].name &&
					group_has(&groups[g], recs[i].name, 0);
			if (fresh && count > best_size) {
				best = &groups[g];
				best_size = count;
			}
		}
		if (!best)
			break;
		fprintf(f, "# %s: every member was used\n", best->name);
		fprintf(f, "syscalls = %s\n", best->name);
		mark_group(best, done, recs, n, 0);
	}
	/* a thread or the process ends through these: allowed whether a run
	 * used them or not (scmp-run(1) WRITING A PROFILE FOR A PROGRAM) */
	fputs("# ending a thread or the process: always allowed\nsyscalls = exit exit_group\n", f);
	for (size_t i = 0; i < n; i++)
		done[i] |= recs[i].n == 0 && recs[i].name &&
			   (!strcmp(recs[i].name, "exit") || !strcmp(recs[i].name, "exit_group"));
	/* the other plain names, under the first group that has them */
	for (size_t g = 0; g <= ngroups; g++) {
		const struct group *grp = g < ngroups ? &groups[g] : NULL;
		bool any = false;

		if (grp && is_meta(grp->name))
			continue;
		for (size_t i = 0; i < n; i++) {
			if (done[i] || recs[i].n)
				continue;
			if (grp && (!recs[i].name || !group_has(grp, recs[i].name, 0)))
				continue;
			if (!any)
				fprintf(f, grp ? "# from %s\n" : "# in no group\n",
					grp ? grp->name : "");
			any = true;
			if (recs[i].name && plain_everywhere(l, &abis, recs[i].name)) {
				wrap_word(&w, recs[i].name);
				mark_name(recs[i].name, done, recs, n);
			} else {
				number_of(&recs[i], name, sizeof(name));
				wrap_word(&w, name);
			}
			done[i] = true;
		}
		wrap_end(&w);
	}
	/* conditional rules: one conjunction a line (rules accumulate) */
	for (size_t i = 0; i < n; i++) {
		if (done[i] || !recs[i].n)
			continue;
		if (used_plain(l, recs[i].abi, recs[i].name))
			continue; /* allowed whatever the arguments */
		write_cond(f, &recs[i], abis_with(&abis, recs[i].name) > 1);
	}

	fputs("\n# The record of the runs: one line a distinct call.\n", f);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, LEARN_TAG " %s %" PRIu32, recs[i].abi->name, recs[i].nr);
		for (unsigned t = 0; t < recs[i].n; t++)
			fprintf(f, " %u&0x%" PRIx64 "=0x%" PRIx64, recs[i].arg[t], recs[i].mask[t],
				recs[i].value[t]);
		fputc('\n', f);
	}
	free(recs);
	free(done);
	return ferror(f) ? -EIO : 0;
}
