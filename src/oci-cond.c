/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The argument conditions of OCI entries (scmp-run.ini(5), OCI AND DOCKER
 * PROFILES): read the way runc hands them to libseccomp, given the kernel's
 * argument widths, turned into rules; and the warning when entries with
 * other actions can match the same call.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "oci-int.h"
#include "syscalls.h"

static const struct {
	const char *name;
	enum cmp_op op;
} oci_ops[] = {
	{ "SCMP_CMP_NE", CMP_NE },
	{ "SCMP_CMP_LT", CMP_LT },
	{ "SCMP_CMP_LE", CMP_LE },
	{ "SCMP_CMP_EQ", CMP_EQ },
	{ "SCMP_CMP_GE", CMP_GE },
	{ "SCMP_CMP_GT", CMP_GT },
	{ "SCMP_CMP_MASKED_EQ", CMP_MASKED_EQ },
};

/* libseccomp's architecture names; id -1: valid, but no ABI scmp-run has
 * (such an ABI can never occur next to one that scmp-run has). */

/* ---- conditions ---- */

/* One comparison to emit, its value as sign and magnitude. */
struct cdesc {
	unsigned arg;
	enum cmp_op op;
	bool neg, mneg;
	uint64_t mag, mmag; /* value, and the mask of CMP_MASKED_EQ */
};

/* One condition of JSON becomes one or two alternatives (ORed), each of at
 * most two comparisons (ANDed). */
struct calt {
	struct cdesc c[2];
	size_t n;
};

struct argtype {
	bool any;		     /* some ABI of the filter has the syscall and the slot */
	unsigned wmin;		     /* smallest width on those ABIs */
	bool wide_abi;		     /* a 64-bit ABI compares it on fewer than 64 bits */
	bool is_signed, is_unsigned; /* classes seen */
	bool same_width;	     /* one width on all */
	const char *ctype;	     /* for notes */
};

static void arg_type(const struct oci_conv *cv, const char *name, unsigned index, struct argtype *t)
{
	*t = (struct argtype){ .wmin = 64, .same_width = true };
	for (size_t i = 0; i < cv->n_abis; i++) {
		const struct arch *a = cv->abis[i];
		struct syscall_arg args[SYSCALL_ARGS_MAX];
		enum arg_class cls;
		unsigned w;
		bool known, sgn;

		if (index >= SYSCALL_ARGS_MAX || syscalls_args(a, name, args, &known) < 0)
			continue;
		cls = args[index].cls;
		if (cls == ARG_PAIR || cls == ARG_PAD || cls == ARG_NONE)
			continue; /* no such argument: the engine says so at the rule */
		w = syscalls_arg_width(a, cls);
		sgn = syscalls_arg_signed(cls);
		if (t->any && w != t->wmin)
			t->same_width = false;
		t->any = true;
		t->wmin = w < t->wmin ? w : t->wmin;
		t->wide_abi |= a->bits == 64 && w < 64;
		t->is_signed |= sgn;
		t->is_unsigned |= !sgn;
	}
}

/* Does the 64-bit JSON value v mean one value on a w-bit argument: zero- or
 * sign-extended from w bits? */
static bool fits_width(uint64_t v, unsigned w)
{
	return v <= width_max(w) || (uint64_t)0 - v <= width_sign(w);
}

static struct cdesc cd_pattern(unsigned arg, enum cmp_op op, uint64_t v)
{
	bool neg = (int64_t)v < 0;

	return (struct cdesc){ .arg = arg, .op = op, .neg = neg, .mag = neg ? (uint64_t)0 - v : v };
}

static struct cdesc cd_signed(unsigned arg, enum cmp_op op, int64_t s)
{
	return cd_pattern(arg, op, (uint64_t)s);
}

/* SCMP_CMP_MASKED_EQ as libseccomp reads it: (arg & mask) == (datum & mask),
 * the mask as the JSON's 64-bit pattern. */
static struct cdesc cd_masked(unsigned arg, uint64_t mask, uint64_t datum)
{
	struct cdesc c = cd_pattern(arg, CMP_MASKED_EQ, datum & mask);

	c.mneg = (int64_t)mask < 0;
	c.mmag = c.mneg ? (uint64_t)0 - mask : mask;
	return c;
}

/* The error for a value (what: "value", "valueTwo") wider than the
 * argument; kind qualifies the width (", unsigned"). */
static int too_wide(struct oci_conv *cv, const char *path, const char *what, uint64_t v,
		    unsigned idx, const char *name, unsigned width, const char *kind)
{
	ojson_error(cv->j, path,
		    "%s %llu does not fit arg%u of '%s' (%u bits%s): the kernel reads only the "
		    "low %u bits",
		    what, (unsigned long long)v, idx, name, width, kind, width);
	return -EINVAL;
}

/*
 * Convert one JSON argument condition of syscall name into alternatives,
 * for the widths the argument has on the filter's ABIs (scmp-run.ini(5):
 * values mean the low bits the kernel reads; ordered compares stay
 * unsigned, as libseccomp's). Returns the number of alternatives or < 0.
 */
static int convert_cond(struct oci_conv *cv, const char *path, const char *name, unsigned idx,
			enum cmp_op op, uint64_t v, uint64_t v2, struct calt alt[2], char *note,
			size_t note_size)
{
	struct argtype t;
	char pv[OJSON_PATH_MAX];

	ojson_path_key(pv, path, "value");
	arg_type(cv, name, idx, &t);
	memset(alt, 0, 2 * sizeof(*alt));
	if (t.wide_abi)
		snprintf(note, note_size,
			 "arg%u of %s is %u-bit: the low %u bits are compared, where libseccomp "
			 "compares all 64",
			 idx, name, t.wmin, t.wmin);
	if (!t.any) { /* no ABI of the filter has it: the rule is optional and idle */
		alt[0].c[alt[0].n++] =
			op == CMP_MASKED_EQ ? cd_masked(idx, v, v2) : cd_pattern(idx, op, v);
		return 1;
	}
	if (op == CMP_MASKED_EQ) {
		char p2[OJSON_PATH_MAX];

		/* libseccomp masks the datum too: (arg & value) == (valueTwo &
		 * value); a bit of valueTwo outside the mask never counts */
		if (v2 & ~v)
			snprintf(note, note_size,
				 "valueTwo %#llx has bits outside the mask %#llx: libseccomp "
				 "drops them, and so does this rule",
				 (unsigned long long)v2, (unsigned long long)v);
		v2 &= v;
		ojson_path_key(p2, path, "valueTwo");
		if (!fits_width(v2, t.wmin))
			return too_wide(cv, p2, "valueTwo", v2, idx, name, t.wmin, "");
		alt[0].c[0] = cd_masked(idx, v, v2);
		alt[0].n = 1;
		if (t.same_width) {
			/* mask bits above the width only test bits the kernel ignores */
			alt[0].c[0].mneg = false;
			alt[0].c[0].mmag = v & width_max(t.wmin);
			if (v & ~width_max(t.wmin))
				snprintf(note, note_size,
					 "arg%u of %s is %u-bit: mask bits above the low %u are "
					 "dropped (libseccomp compares them)",
					 idx, name, t.wmin, t.wmin);
		}
		return 1;
	}
	if (op == CMP_EQ || op == CMP_NE) {
		if (!fits_width(v, t.wmin))
			return too_wide(cv, pv, "value", v, idx, name, t.wmin, "");
		alt[0].c[alt[0].n++] = cd_pattern(idx, op, v);
		return 1;
	}
	/* ordered: libseccomp compares unsigned */
	if (t.is_signed && t.is_unsigned) {
		ojson_error(
			cv->j, pv,
			"arg%u of '%s' is signed on some ABIs of the filter and unsigned on others: "
			"an unsigned ordered compare cannot be written for all of them",
			idx, name);
		return -EINVAL;
	}
	if (!t.is_signed) {
		if (v > width_max(t.wmin))
			return too_wide(cv, pv, "value", v, idx, name, t.wmin, ", unsigned");
		/* "> 0" is "!= 0": how --export-oci writes a pointer's "!= 0",
		 * which a pointer may be compared with (scmp-run.ini(5),
		 * --export-oci) */
		if (op == CMP_GT && v == 0)
			op = CMP_NE;
		alt[0].c[alt[0].n++] = (struct cdesc){ .arg = idx, .op = op, .mag = v };
		return 1;
	}
	/* A signed argument: the unsigned order is written as signed ranges. */
	int64_t s;

	if (t.same_width && fits_width(v, t.wmin)) {
		uint64_t w = v & width_max(t.wmin);

		s = (w & width_sign(t.wmin)) ? (int64_t)(w | ~width_max(t.wmin)) : (int64_t)w;
	} else if (v > INT32_MAX && v <= UINT32_MAX) {
		ojson_error(
			cv->j, pv,
			"value %llu means another number on the 32-bit than on the 64-bit ABIs of "
			"the filter for signed arg%u of '%s'",
			(unsigned long long)v, idx, name);
		return -EINVAL;
	} else if (fits_width(v, 32)) {
		s = (int64_t)v;
	} else {
		return too_wide(cv, pv, "value", v, idx, name, t.wmin, "");
	}
	snprintf(note + strlen(note), note_size - strlen(note),
		 "%sarg%u of %s is signed: the unsigned compare is written as signed ranges",
		 *note ? "; " : "", idx, name);
	switch (op) {
	case CMP_LT:
	case CMP_LE:
		if (s >= 0) {
			alt[0].c[0] = cd_signed(idx, CMP_GE, 0);
			alt[0].c[1] = cd_signed(idx, op, s);
			alt[0].n = 2;
			return 1;
		}
		alt[0].c[0] = cd_signed(idx, CMP_GE, 0);
		alt[0].n = 1;
		alt[1].c[0] = cd_signed(idx, op, s);
		alt[1].n = 1;
		return 2;
	default: /* GT, GE */
		if (s >= 0) {
			alt[0].c[0] = cd_signed(idx, op, s);
			alt[0].n = 1;
			alt[1].c[0] = cd_signed(idx, CMP_LT, 0);
			alt[1].n = 1;
			return 2;
		}
		alt[0].c[0] = cd_signed(idx, CMP_LT, 0);
		alt[0].c[1] = cd_signed(idx, op, s);
		alt[0].n = 2;
		return 1;
	}
}

static int make_value(struct value *val, bool neg, uint64_t mag)
{
	val->terms = calloc(1, sizeof(*val->terms));
	if (!val->terms)
		return -ENOMEM;
	val->terms[0] = (struct term){ .lit = mag, .neg = neg && mag };
	val->n_terms = 1;
	return 0;
}

/* Append the comparisons of alternative a to conjunction c. */
static int conj_append(struct conj *c, const struct calt *a)
{
	struct cmp *cmps = reallocarray(c->cmps, c->n_cmps + a->n + 1, sizeof(*cmps));

	if (!cmps)
		return -ENOMEM;
	c->cmps = cmps;
	for (size_t i = 0; i < a->n; i++) {
		const struct cdesc *d = &a->c[i];
		struct cmp *m = &cmps[c->n_cmps];

		*m = (struct cmp){ .arg = (int)d->arg, .op = d->op };
		m->values = calloc(1, sizeof(*m->values));
		if (!m->values)
			return -ENOMEM;
		m->n_values = 1;
		c->n_cmps++;
		if (make_value(&m->values[0], d->neg, d->mag) < 0)
			return -ENOMEM;
		if (d->op == CMP_MASKED_EQ && make_value(&m->mask, d->mneg, d->mmag) < 0)
			return -ENOMEM;
	}
	return 0;
}

int oci_parse_args(struct oci_conv *cv, const char *path, json_t *args, struct oci_jcond **ret,
		   size_t *ret_n)
{
	static const char *const fields[] = { "index", "value", "valueTwo", "op", NULL };
	size_t errs = cv->d->n_errors, i;
	struct oci_jcond *out;
	json_t *a;

	*ret = NULL;
	*ret_n = 0;
	if (!args || !json_array_size(args))
		return 0;
	out = calloc(json_array_size(args), sizeof(*out));
	if (!out)
		return -ENOMEM;
	json_array_foreach(args, i, a)
	{
		struct oci_jcond *c = &out[i];
		const char *op;
		char p[OJSON_PATH_MAX];
		bool has_idx, has_v, has_v2;
		uint64_t idx;
		size_t k;

		ojson_path_index(c->path, path, i);
		if (!json_is_object(a)) {
			ojson_error(cv->j, c->path, "'args' entries must be objects");
			continue;
		}
		ojson_check_fields(cv->j, c->path, a, "an argument condition", fields);
		op = ojson_get_string(cv->j, c->path, a, "op");
		if (ojson_get_uint(cv->j, c->path, a, "index", SYSCALL_ARGS_MAX - 1, &has_idx,
				   &idx) < 0 ||
		    ojson_get_uint(cv->j, c->path, a, "value", UINT64_MAX, &has_v, &c->v) < 0 ||
		    ojson_get_uint(cv->j, c->path, a, "valueTwo", UINT64_MAX, &has_v2, &c->v2) < 0)
			continue;
		if (!has_idx)
			ojson_error(cv->j, c->path, "'index' is missing");
		if (!op) {
			if (!json_object_get(a, "op"))
				ojson_error(cv->j, c->path, "'op' is missing");
			continue;
		}
		c->index = (unsigned)idx;
		ojson_path_key(p, c->path, "op");
		for (k = 0; k < sizeof(oci_ops) / sizeof(oci_ops[0]); k++)
			if (!strcmp(oci_ops[k].name, op))
				break;
		if (k == sizeof(oci_ops) / sizeof(oci_ops[0])) {
			ojson_error(cv->j, p, "unknown op '%s'", op);
			continue;
		}
		c->op = oci_ops[k].op;
		/* libseccomp reads the second datum only for SCMP_CMP_MASKED_EQ */
		if (c->op != CMP_MASKED_EQ && c->v2) {
			ojson_path_key(p, c->path, "valueTwo");
			ojson_error(
				cv->j, p,
				"valueTwo %llu means nothing with %s (only with SCMP_CMP_MASKED_EQ)",
				(unsigned long long)c->v2, op);
		}
	}
	/* crun reads the first six conditions of an entry only (it splits or
	 * ANDs those), runc every one: past six, the runtimes decide the entry
	 * differently, and the conditions left out by one may make its filter
	 * weaker than the other's */
	if (json_array_size(args) > SYSCALL_ARGS_MAX) {
		char p[OJSON_PATH_MAX];

		ojson_path_index(p, path, SYSCALL_ARGS_MAX);
		ojson_error(cv->j, p,
			    "more than %d conditions in one entry: crun reads the first %d only, "
			    "runc all of them; write the others in an entry of their own",
			    SYSCALL_ARGS_MAX, SYSCALL_ARGS_MAX);
	}
	if (cv->d->n_errors > errs) {
		free(out);
		return -EINVAL;
	}
	*ret = out;
	*ret_n = json_array_size(args);
	return 0;
}

/* ---- entries ---- */

/* What the rules of one name in one entry share. */
struct name_rules {
	const char *name;
	bool optional; /* on no ABI of the filter */
	const struct action *act;
	const struct src_loc *loc;
	size_t entry;
	char note[512]; /* the changes of meaning, "; "-separated */
};

/* One JSON condition converted: its alternatives (ORed). */
struct converted {
	struct calt alt[2];
	int n;
};

static int add_rule(struct oci_conv *cv, const struct name_rules *nr, const struct conj *c)
{
	struct oci_doc *doc = cv->doc;
	struct oci_rule_info *info;
	int r;

	/* info stays parallel to the rules: its slot first, then the rule */
	info = array_grow(&doc->info, &doc->n_info, &doc->cap_info, sizeof(*info));
	if (!info)
		return -ENOMEM;
	info->entry = nr->entry;
	r = ruleset_add(cv->rs, nr->name, nr->optional, nr->act, c, nr->loc);
	if (r < 0) {
		doc->n_info--;
		return r;
	}
	if (*nr->note && !(info->note = strdup(nr->note)))
		return -ENOMEM;
	return 0;
}

/* On some ABI of the filter? */
static bool on_filter(const struct oci_conv *cv, const char *name)
{
	uint32_t nr;

	for (size_t i = 0; i < cv->n_abis; i++)
		if (syscalls_lookup_name(cv->abis[i], name, &nr) == 0)
			return true;
	return false;
}

static void conjs_free(struct conj *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		conj_free(&c[i]);
	free(c);
}

/* The rules of the conditions cc[0..n) ANDed: one per element of the
 * product of their alternatives. */
static int add_product(struct oci_conv *cv, const struct name_rules *nr, const struct converted *cc,
		       size_t n)
{
	struct conj *cur = calloc(1, sizeof(*cur)), *next;
	size_t n_cur = 1;
	int r = 0;

	if (!cur)
		return -ENOMEM;
	for (size_t i = 0; i < n && r >= 0; i++) {
		size_t k_n = (size_t)cc[i].n;

		next = calloc(n_cur * k_n, sizeof(*next));
		if (!next) {
			r = -ENOMEM;
			break;
		}
		for (size_t j = 0; j < n_cur && r >= 0; j++)
			for (size_t k = 0; k < k_n && r >= 0; k++) {
				r = conj_copy(&next[j * k_n + k], &cur[j]);
				if (r >= 0)
					r = conj_append(&next[j * k_n + k], &cc[i].alt[k]);
			}
		conjs_free(cur, n_cur);
		cur = next;
		n_cur *= k_n;
		if (r >= 0 && n_cur > OCI_CONJS_MAX)
			r = -E2BIG;
	}
	for (size_t j = 0; j < n_cur && r >= 0; j++)
		r = add_rule(cv, nr, &cur[j]);
	conjs_free(cur, n_cur);
	return r;
}

/*
 * The rules of one name: runc adds one rule with every condition, or, when
 * two conditions test the same argument, one rule per condition (ORed).
 * Each condition may itself split in two (signed ranges).
 */
int oci_add_name(struct oci_conv *cv, const char *name, const struct src_loc *loc,
		 const struct action *act, const struct oci_jcond *conds, size_t n_conds,
		 size_t entry)
{
	struct name_rules nr = { .name = name,
				 .optional = !on_filter(cv, name),
				 .act = act,
				 .loc = loc,
				 .entry = entry };
	unsigned count[SYSCALL_ARGS_MAX] = { 0 };
	struct converted *cc;
	bool split = false;
	int r = 0;

	if (!n_conds)
		return add_rule(cv, &nr, NULL);
	cc = calloc(n_conds, sizeof(*cc));
	if (!cc)
		return -ENOMEM;
	for (size_t i = 0; i < n_conds && r >= 0; i++) {
		const struct oci_jcond *c = &conds[i];
		char one[256] = "";
		size_t len = strlen(nr.note);

		split |= ++count[c->index] > 1;
		cc[i].n = convert_cond(cv, c->path, name, c->index, c->op, c->v, c->v2, cc[i].alt,
				       one, sizeof(one));
		r = cc[i].n < 0 ? cc[i].n : 0;
		if (*one && !strstr(nr.note, one))
			snprintf(nr.note + len, sizeof(nr.note) - len, "%s%s", len ? "; " : "",
				 one);
	}
	if (r >= 0 && split) {
		for (size_t i = 0; i < n_conds && r >= 0; i++)
			r = add_product(cv, &nr, &cc[i], 1);
	} else if (r >= 0) {
		r = add_product(cv, &nr, cc, n_conds);
	}
	free(cc);
	return r;
}

/* ---- overlaps: strictest wins (scmp-run.ini(5)) ---- */

static bool value_of(const struct cmp *m, const struct value *v, uint64_t *ret)
{
	(void)m;
	if (v->n_terms != 1 || v->terms[0].name)
		return false;
	*ret = v->terms[0].neg ? (uint64_t)0 - v->terms[0].lit : v->terms[0].lit;
	return true;
}

/* Can no call satisfy both comparisons (same argument, width w)? */
static bool cmps_disjoint(const struct cmp *a, const struct cmp *b, unsigned w)
{
	uint64_t va, vb, ma = width_max(w), mb = width_max(w), wm = width_max(w);

	if (a->arg != b->arg || !value_of(a, &a->values[0], &va) ||
	    !value_of(b, &b->values[0], &vb))
		return false;
	if (a->op == CMP_MASKED_EQ && !value_of(a, &a->mask, &ma))
		return false;
	if (b->op == CMP_MASKED_EQ && !value_of(b, &b->mask, &mb))
		return false;
	if ((a->op == CMP_EQ || a->op == CMP_MASKED_EQ) &&
	    (b->op == CMP_EQ || b->op == CMP_MASKED_EQ))
		return ((va ^ vb) & ma & mb & wm) != 0;
	if ((a->op == CMP_EQ && b->op == CMP_NE) || (a->op == CMP_NE && b->op == CMP_EQ))
		return ((va ^ vb) & wm) == 0;
	return false;
}

/* Can some call match both rules (of one syscall)? w[k]: the width of
 * argument k of that syscall, 0 while not known. */
static bool rules_overlap(const struct oci_conv *cv, const struct rule *x, const struct rule *y,
			  unsigned w[SYSCALL_ARGS_MAX])
{
	for (size_t i = 0; i < x->conj.n_cmps; i++) {
		const struct cmp *m = &x->conj.cmps[i];

		if (m->arg < 0 || m->arg >= SYSCALL_ARGS_MAX)
			continue; /* a compare on no argument: decides nothing here */
		if (!w[m->arg]) {
			struct argtype t;

			arg_type(cv, x->syscall, (unsigned)m->arg, &t);
			w[m->arg] = t.wmin;
		}
		for (size_t j = 0; j < y->conj.n_cmps; j++)
			if (cmps_disjoint(m, &y->conj.cmps[j], w[m->arg]))
				return false;
	}
	return true;
}

struct by_name {
	const char *name;
	size_t rule;
};

static int cmp_by_name(const void *a, const void *b)
{
	const struct by_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->rule > y->rule) - (x->rule < y->rule);
}

/*
 * Warn about the first OCI_OVERLAPS_MAX overlaps, each a pair of entries on
 * one syscall, then once that there are more: a file of thousands of
 * entries on one syscall would otherwise give a warning per pair (a
 * quadratic number of them). A pair that overlaps on several syscalls is
 * named for each: every syscall named is one that may be decided otherwise
 * than under runc. Only rules of one syscall are paired (next[] chains them
 * in file order).
 */
void oci_warn_overlaps(struct oci_conv *cv)
{
	const struct ruleset *rs = cv->rs;
	struct oci_doc *doc = cv->doc;
	size_t n = rs->n_rules, n_warned = 0;
	struct by_name *order = calloc(n + 1, sizeof(*order));
	size_t *next = calloc(n + 1, sizeof(*next)), *skip = calloc(n + 1, sizeof(*skip));
	struct {
		size_t ex, ey;
		const char *name;
	} warned[OCI_OVERLAPS_MAX];
	bool more = false;

	if (!order || !next || !skip) {
		cv->oom = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = (struct by_name){ .name = rs->rules[i].syscall, .rule = i };
	qsort(order, n, sizeof(*order), cmp_by_name);
	for (size_t k = 0; k < n; k++)
		next[order[k].rule] = k + 1 < n && !strcmp(order[k].name, order[k + 1].name)
					      ? order[k + 1].rule
					      : SIZE_MAX;
	/* skip[j]: the first rule from j on in its chain whose action is not
	 * j's, so that a run of one action is passed in one step */
	for (size_t k = n; k-- > 0;) {
		size_t j = order[k].rule, nj = next[j];

		if (nj == SIZE_MAX)
			skip[j] = SIZE_MAX;
		else if (oci_action_same(&rs->rules[j].action, &rs->rules[nj].action))
			skip[j] = skip[nj];
		else
			skip[j] = nj;
	}
	for (size_t i = 0; i < n && !more; i++) {
		unsigned w[SYSCALL_ARGS_MAX] = { 0 };

		for (size_t j = next[i]; j != SIZE_MAX; j = next[j]) {
			const struct rule *x = &rs->rules[i], *y, *win;
			const struct src_loc *lx, *ly;
			char bx[48], by[48], bw[48];
			size_t ex, ey, k;

			if (oci_action_same(&x->action, &rs->rules[j].action)) {
				j = skip[j];
				if (j == SIZE_MAX)
					break;
			}
			y = &rs->rules[j];
			ex = doc->info[i].entry;
			ey = doc->info[j].entry;
			lx = &doc->entry_loc[ex];
			ly = &doc->entry_loc[ey];
			if (ex == ey)
				continue;
			for (k = 0; k < n_warned; k++)
				if (warned[k].ex == ex && warned[k].ey == ey &&
				    !strcmp(warned[k].name, x->syscall))
					break;
			if (k < n_warned || !rules_overlap(cv, x, y, w))
				continue;
			if (n_warned == OCI_OVERLAPS_MAX) {
				more = true;
				break;
			}
			warned[n_warned].ex = ex;
			warned[n_warned].ey = ey;
			warned[n_warned++].name = x->syscall;
			win = action_rank(x->action.kind) >= action_rank(y->action.kind) ? x : y;
			action_format(&x->action, bx, sizeof(bx));
			action_format(&y->action, by, sizeof(by));
			action_format(&win->action, bw, sizeof(bw));
			diag_warning(
				cv->d, &y->loc,
				"entries %zu (%s, line %u) and %zu (%s, line %u) can both match "
				"'%s' calls: %s wins here (%s); runc leaves it to libseccomp's "
				"rule order, which may pick the other",
				ex, bx, lx->line, ey, by, ly->line, x->syscall, bw,
				x->action.kind == y->action.kind ? "the first written"
								 : "the strictest");
			oci_note(
				cv, ey,
				"overlaps entry %zu on '%s' with another action: %s wins here (%s); "
				"runc leaves it to libseccomp's rule order",
				ex, x->syscall, bw,
				x->action.kind == y->action.kind ? "the first written"
								 : "the strictest");
		}
	}
	if (more) {
		struct src_loc at = { .file = cv->j->file };

		diag_warning(cv->d, &at,
			     "more entries than the %d pairs named can match the same calls with "
			     "other actions (decided as those are)",
			     OCI_OVERLAPS_MAX);
		oci_note(cv, SIZE_MAX,
			 "more entries than the %d pairs named below overlap with other actions",
			 OCI_OVERLAPS_MAX);
	}
out:
	free(order);
	free(next);
	free(skip);
}
