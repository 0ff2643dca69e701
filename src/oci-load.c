/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * OCI runtime-spec / Docker seccomp JSON -> profile (scmp-run.ini(5), OCI
 * AND DOCKER PROFILES): entries filtered by includes/excludes as moby does,
 * conditions converted the way runc hands them to libseccomp, then given
 * the kernel's argument widths.
 */
#include <cap-ng.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "consts.h"
#include "oci-int.h"
#include "oci-json.h"
#include "syscalls.h"

#define OCI_CONJS_MAX 64 /* rules one entry's conditions may split into, per name */

bool oci_is_json(const char *path)
{
	size_t n = strlen(path);

	return n > 5 && !strcmp(path + n - 5, ".json");
}

/* ---- tables ---- */

static const struct {
	const char *name;
	enum action_kind kind;
} oci_actions[] = {
	{ "SCMP_ACT_KILL", ACTION_KILL_THREAD }, /* libseccomp: SCMP_ACT_KILL is kill-thread */
	{ "SCMP_ACT_KILL_THREAD", ACTION_KILL_THREAD },
	{ "SCMP_ACT_KILL_PROCESS", ACTION_KILL_PROCESS },
	{ "SCMP_ACT_TRAP", ACTION_TRAP },
	{ "SCMP_ACT_ERRNO", ACTION_ERRNO },
	{ "SCMP_ACT_NOTIFY", ACTION_NOTIFY },
	{ "SCMP_ACT_TRACE", ACTION_TRACE },
	{ "SCMP_ACT_LOG", ACTION_LOG },
	{ "SCMP_ACT_ALLOW", ACTION_ALLOW },
};

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
static const struct {
	const char *name;
	int id;
	const char *go; /* GOARCH, what moby matches includes/excludes "arches" with */
} oci_arches[] = {
	{ "SCMP_ARCH_X86_64", ARCH_X86_64, "amd64" },
	{ "SCMP_ARCH_X86", ARCH_X86, "386" },
	{ "SCMP_ARCH_X32", ARCH_X32, NULL },
	{ "SCMP_ARCH_AARCH64", ARCH_AARCH64, "arm64" },
	{ "SCMP_ARCH_ARM", ARCH_ARM, "arm" },
	{ "SCMP_ARCH_RISCV64", ARCH_RISCV64, "riscv64" },
	{ "SCMP_ARCH_PPC64LE", ARCH_PPC64LE, "ppc64le" },
	{ "SCMP_ARCH_PPC64", ARCH_PPC64, "ppc64" },
	{ "SCMP_ARCH_PPC", ARCH_PPC, "ppc" },
	{ "SCMP_ARCH_S390X", ARCH_S390X, "s390x" },
	{ "SCMP_ARCH_S390", ARCH_S390, "s390" },
	{ "SCMP_ARCH_MIPS", ARCH_MIPS, "mips" },
	{ "SCMP_ARCH_MIPSEL", ARCH_MIPSEL, "mipsle" },
	{ "SCMP_ARCH_MIPS64", ARCH_MIPS64, "mips64" },
	{ "SCMP_ARCH_MIPSEL64", ARCH_MIPSEL64, "mips64le" },
	{ "SCMP_ARCH_MIPS64N32", ARCH_MIPS64N32, NULL },
	{ "SCMP_ARCH_MIPSEL64N32", ARCH_MIPSEL64N32, NULL },
	{ "SCMP_ARCH_LOONGARCH64", ARCH_LOONGARCH64, "loong64" },
	{ "SCMP_ARCH_PARISC", -1, NULL },
	{ "SCMP_ARCH_PARISC64", -1, NULL },
	{ "SCMP_ARCH_M68K", -1, NULL },
	{ "SCMP_ARCH_SH", -1, NULL },
	{ "SCMP_ARCH_SHEB", -1, NULL },
};

/* ---- conversion state ---- */

struct conv {
	const struct ojson *j;
	struct diag *d;
	struct oci_doc *doc;
	struct ruleset *rs;
	const struct arch *native;
	const struct arch *abis[ARCH_COUNT]; /* the filter's ABIs, native first */
	size_t n_abis;
	unsigned kmajor, kminor; /* running kernel, for minKernel */
	bool kernel_known;
	struct action def;
	int oom;
};

__attribute__((format(printf, 3, 4))) static void cerr(struct conv *cv, const char *path,
						       const char *fmt, ...)
{
	struct src_loc at;
	char *text = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	ojson_loc(cv->j, path, false, &at);
	diag_error(cv->d, &at, "%s", text ? text : "out of memory");
	free(text);
}

/* An error at the key of an object member (unknown field). */
__attribute__((format(printf, 3, 4))) static void cerr_key(struct conv *cv, const char *path,
							   const char *fmt, ...)
{
	struct src_loc at;
	char *text = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	ojson_loc(cv->j, path, true, &at);
	diag_error(cv->d, &at, "%s", text ? text : "out of memory");
	free(text);
}

__attribute__((format(printf, 3, 4))) static void add_note(struct conv *cv, size_t entry,
							   const char *fmt, ...)
{
	struct oci_doc *doc = cv->doc;
	struct oci_note *n;
	char *text = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	n = text ? reallocarray(doc->notes, doc->n_notes + 1, sizeof(*n)) : NULL;
	if (!n) {
		free(text);
		cv->oom = -ENOMEM;
		return;
	}
	doc->notes = n;
	n[doc->n_notes++] = (struct oci_note){ .entry = entry, .text = text };
}

/* Every key of obj must be one of allowed (NULL-terminated). */
static void check_fields(struct conv *cv, const char *path, json_t *obj, const char *what,
			 const char *const *allowed)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v)
	{
		bool ok = false;
		char p[OJSON_PATH_MAX];

		for (const char *const *a = allowed; *a && !ok; a++)
			ok = !strcmp(*a, key);
		if (ok)
			continue;
		ojson_path_key(p, path, key);
		cerr_key(cv, p, "unknown field '%s' in %s", key, what);
	}
}

/* A member that must be a string (NULL and no error when absent). */
static const char *get_string(struct conv *cv, const char *path, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	char p[OJSON_PATH_MAX];

	if (!v)
		return NULL;
	ojson_path_key(p, path, key);
	if (!json_is_string(v)) {
		cerr(cv, p, "'%s' must be a string", key);
		return NULL;
	}
	return json_string_value(v);
}

/* A member that must be an array (NULL and no error when absent or null). */
static json_t *get_array(struct conv *cv, const char *path, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	char p[OJSON_PATH_MAX];

	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_array(v)) {
		ojson_path_key(p, path, key);
		cerr(cv, p, "'%s' must be an array", key);
		return NULL;
	}
	return v;
}

/* A member that must be an unsigned integer <= max; *has false if absent. */
static int get_uint(struct conv *cv, const char *path, json_t *obj, const char *key, uint64_t max,
		    bool *has, uint64_t *ret)
{
	json_t *v = json_object_get(obj, key);
	char p[OJSON_PATH_MAX];

	*has = false;
	*ret = 0;
	if (!v || json_is_null(v))
		return 0;
	ojson_path_key(p, path, key);
	if (!json_is_number(v)) {
		cerr(cv, p, "'%s' must be a non-negative integer", key);
		return -EINVAL;
	}
	if (ojson_uint(cv->j, p, key, max, cv->d, ret) < 0)
		return -EINVAL;
	*has = true;
	return 0;
}

/* ---- actions ---- */

static int parse_oci_action(struct conv *cv, const char *path, json_t *obj, const char *act_key,
			    const char *ret_key, const char *name_key, struct action *ret)
{
	const char *name = get_string(cv, path, obj, act_key);
	const char *errno_name = get_string(cv, path, obj, name_key);
	char p[OJSON_PATH_MAX];
	uint64_t data;
	bool has_data;
	size_t i;

	ojson_path_key(p, path, act_key);
	if (!name) {
		if (!json_object_get(obj, act_key))
			cerr(cv, path, "'%s' is missing", act_key);
		return -EINVAL;
	}
	for (i = 0; i < sizeof(oci_actions) / sizeof(oci_actions[0]); i++)
		if (!strcmp(oci_actions[i].name, name))
			break;
	if (i == sizeof(oci_actions) / sizeof(oci_actions[0])) {
		cerr(cv, p, "unknown action '%s'", name);
		return -EINVAL;
	}
	*ret = (struct action){ .kind = oci_actions[i].kind };
	if (get_uint(cv, path, obj, ret_key,
		     ret->kind == ACTION_TRACE ? ACTION_DATA_MAX : ACTION_ERRNO_MAX, &has_data,
		     &data) < 0)
		return -EINVAL;
	ojson_path_key(p, path, ret_key);
	if (has_data && ret->kind != ACTION_ERRNO && ret->kind != ACTION_TRACE) {
		cerr(cv, p,
		     "'%s' means nothing with %s (only with SCMP_ACT_ERRNO and SCMP_ACT_TRACE)",
		     ret_key, name);
		return -EINVAL;
	}
	/* runc: SCMP_ACT_ERRNO and SCMP_ACT_TRACE without a number use EPERM */
	if (ret->kind == ACTION_ERRNO || ret->kind == ACTION_TRACE)
		ret->data = has_data ? (uint32_t)data : 1;
	if (errno_name) {
		int e;

		ojson_path_key(p, path, name_key);
		if (ret->kind != ACTION_ERRNO) {
			cerr(cv, p, "'%s' means nothing with %s", name_key, name);
			return -EINVAL;
		}
		if (consts_errno(cv->native, errno_name, &e) < 0) {
			cerr(cv, p, "unknown errno name '%s'", errno_name);
			return -EINVAL;
		}
		/* runtimes read only the number: a name alone or another number
		 * would be read differently by them */
		if (!has_data || (uint32_t)e != ret->data) {
			cerr(cv, p, "'%s' is %s (%d) but '%s' is %s: runtimes use '%s' only",
			     name_key, errno_name, e, ret_key,
			     has_data ? "another number" : "missing", ret_key);
			return -EINVAL;
		}
	}
	return 0;
}

static bool action_same(const struct action *a, const struct action *b)
{
	return a->kind == b->kind && a->data == b->data;
}

/* ---- top level: architectures, flags ---- */

static int lookup_arch(const char *name)
{
	for (size_t i = 0; i < sizeof(oci_arches) / sizeof(oci_arches[0]); i++)
		if (!strcmp(oci_arches[i].name, name))
			return (int)i;
	return -1;
}

static void add_abi(struct conv *cv, const char *path, const char *name)
{
	int k = lookup_arch(name);
	const struct arch *a;

	if (k < 0) {
		cerr(cv, path, "unknown architecture '%s'", name);
		return;
	}
	if (oci_arches[k].id < 0) {
		add_note(cv, SIZE_MAX, "architecture %s: scmp-run has no such ABI; not on %s", name,
			 cv->native->name);
		return;
	}
	a = arch_get((enum arch_id)oci_arches[k].id);
	for (size_t i = 0; i < cv->n_abis; i++)
		if (cv->abis[i] == a)
			return;
	if (!arch_compatible(cv->native, a)) {
		/* libseccomp would add it; no process of this kernel can show it */
		add_note(cv, SIZE_MAX, "architecture %s left out: it cannot occur next to %s", name,
			 cv->native->name);
		return;
	}
	cv->abis[cv->n_abis++] = a;
}

/* Every element of arr must be a string. */
static void check_strings(struct conv *cv, const char *path, json_t *arr, const char *what)
{
	char p[OJSON_PATH_MAX];
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
	{
		if (json_is_string(v))
			continue;
		ojson_path_index(p, path, i);
		cerr(cv, p, "%s must be strings", what);
	}
}

static void string_list(struct conv *cv, const char *path, json_t *arr, const char *what,
			void (*each)(struct conv *, const char *, const char *))
{
	char p[OJSON_PATH_MAX];
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
	{
		ojson_path_index(p, path, i);
		if (!json_is_string(v)) {
			cerr(cv, p, "%s must be strings", what);
			continue;
		}
		each(cv, p, json_string_value(v));
	}
}

static void parse_arches(struct conv *cv, json_t *root)
{
	json_t *archs = get_array(cv, "", root, "architectures");
	json_t *map = get_array(cv, "", root, "archMap");
	const char *native_name = NULL;
	char p[OJSON_PATH_MAX], q[OJSON_PATH_MAX];
	size_t i;
	json_t *m;

	cv->abis[cv->n_abis++] = cv->native; /* libseccomp's filter always has it */
	if (archs && map) {
		cerr_key(cv, "/archMap",
			 "both 'architectures' and 'archMap' are given: use one (as moby says)");
		return;
	}
	if (archs)
		string_list(cv, "/architectures", archs, "'architectures'", add_abi);
	for (size_t k = 0; k < sizeof(oci_arches) / sizeof(oci_arches[0]); k++)
		if (oci_arches[k].id == (int)cv->native->id)
			native_name = oci_arches[k].name;
	json_array_foreach(map, i, m)
	{
		static const char *const fields[] = { "architecture", "subArchitectures", NULL };
		const char *a;
		json_t *subs;

		ojson_path_index(p, "/archMap", i);
		if (!json_is_object(m)) {
			cerr(cv, p, "'archMap' entries must be objects");
			continue;
		}
		check_fields(cv, p, m, "an archMap entry", fields);
		a = get_string(cv, p, m, "architecture");
		subs = get_array(cv, p, m, "subArchitectures");
		ojson_path_key(q, p, "architecture");
		if (!a) {
			if (!json_object_get(m, "architecture"))
				cerr(cv, p, "'architecture' is missing");
			continue;
		}
		if (lookup_arch(a) < 0) {
			cerr(cv, q, "unknown architecture '%s'", a);
			continue;
		}
		if (!subs)
			continue;
		ojson_path_key(q, p, "subArchitectures");
		/* moby uses the entry of the host's architecture only */
		if (native_name && !strcmp(a, native_name)) {
			string_list(cv, q, subs, "'subArchitectures'", add_abi);
			continue;
		}
		check_strings(cv, q, subs, "'subArchitectures'");
	}
}

static void each_flag(struct conv *cv, const char *path, const char *flag)
{
	struct filter_attrs *at = &cv->rs->attrs;

	if (!strcmp(flag, "SECCOMP_FILTER_FLAG_TSYNC"))
		at->tsync = true;
	else if (!strcmp(flag, "SECCOMP_FILTER_FLAG_LOG"))
		at->log = true;
	else if (!strcmp(flag, "SECCOMP_FILTER_FLAG_SPEC_ALLOW"))
		at->spec_allow = true;
	else if (!strcmp(flag, "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV"))
		add_note(cv, SIZE_MAX,
			 "flag %s ignored: it only changes how a notify listener waits", flag);
	else
		cerr(cv, path, "unknown or unsupported flag '%s'", flag);
}

/* ---- includes / excludes ---- */

static int parse_kernel(const char *s, unsigned *major, unsigned *minor)
{
	char tail;

	return sscanf(s, "%u.%u%c", major, minor, &tail) == 2 ? 0 : -EINVAL;
}

static bool has_cap(const struct conv *cv, const char *cap)
{
	for (size_t i = 0; i < cv->doc->n_caps; i++)
		if (!strcmp(cv->doc->caps[i], cap))
			return true;
	return false;
}

static bool in_strings(json_t *arr, const char *s)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
	{
		if (json_is_string(v) && !strcmp(json_string_value(v), s))
			return true;
	}
	return false;
}

/*
 * Decide includes (include = true) or excludes for the launched process as
 * moby's setupSeccomp() does. Returns 1 if the entry stays, 0 if the filter
 * drops it (*why says why), < 0 on a malformed filter.
 */
static int decide_filter(struct conv *cv, const char *path, json_t *obj, bool include, char *why,
			 size_t why_size)
{
	static const char *const fields[] = { "caps", "arches", "minKernel", NULL };
	const char *go = NULL, *mk;
	json_t *caps, *arches, *v;
	char p[OJSON_PATH_MAX];
	size_t errs = cv->d->n_errors, i;
	unsigned maj, min;
	bool caps_hit = false, arch_hit, kernel_ge = false;

	if (!obj || json_is_null(obj))
		return 1;
	if (!json_is_object(obj)) {
		cerr(cv, path, "'%s' must be an object", include ? "includes" : "excludes");
		return -EINVAL;
	}
	check_fields(cv, path, obj, include ? "'includes'" : "'excludes'", fields);
	caps = get_array(cv, path, obj, "caps");
	arches = get_array(cv, path, obj, "arches");
	mk = get_string(cv, path, obj, "minKernel");
	ojson_path_key(p, path, "caps");
	check_strings(cv, p, caps, "'caps'");
	ojson_path_key(p, path, "arches");
	check_strings(cv, p, arches, "'arches'");
	ojson_path_key(p, path, "minKernel");
	if (mk && parse_kernel(mk, &maj, &min) < 0)
		cerr(cv, p, "'minKernel' must be MAJOR.MINOR, not '%s'", mk);
	if (cv->d->n_errors > errs)
		return -EINVAL;
	for (size_t k = 0; k < sizeof(oci_arches) / sizeof(oci_arches[0]); k++)
		if (oci_arches[k].id == (int)cv->native->id)
			go = oci_arches[k].go;
	arch_hit = go && arches && in_strings(arches, go);
	if (mk) {
		if (!cv->kernel_known) {
			cerr(cv, p, "cannot read the running kernel's version for 'minKernel'");
			return -EINVAL;
		}
		kernel_ge = cv->kmajor > maj || (cv->kmajor == maj && cv->kminor >= min);
	}
	if (!include) {
		json_array_foreach(caps, i, v)
		{
			caps_hit |= has_cap(cv, json_string_value(v));
		}
		if (arches && json_array_size(arches) && arch_hit) {
			snprintf(why, why_size, "excluded on %s", go);
			return 0;
		}
		if (caps_hit) {
			snprintf(why, why_size,
				 "excluded: the process keeps a capability it lists");
			return 0;
		}
		if (mk && kernel_ge) {
			snprintf(why, why_size, "excluded: the kernel is %u.%u >= %s", cv->kmajor,
				 cv->kminor, mk);
			return 0;
		}
		return 1;
	}
	if (arches && json_array_size(arches) && !arch_hit) {
		snprintf(why, why_size, "only for other architectures (this is %s)",
			 go ? go : cv->native->name);
		return 0;
	}
	json_array_foreach(caps, i, v)
	{
		if (has_cap(cv, json_string_value(v)))
			continue;
		snprintf(why, why_size, "needs %s (not in --oci-caps)", json_string_value(v));
		return 0;
	}
	if (mk && !kernel_ge) {
		snprintf(why, why_size, "needs kernel >= %s (this is %u.%u)", mk, cv->kmajor,
			 cv->kminor);
		return 0;
	}
	return 1;
}

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

static void arg_type(const struct conv *cv, const char *name, unsigned index, struct argtype *t)
{
	*t = (struct argtype){ .wmin = 64, .same_width = true };
	for (size_t i = 0; i < cv->n_abis; i++) {
		const struct arch *a = cv->abis[i];
		struct syscall_arg args[SYSCALL_ARGS_MAX];
		unsigned w;
		bool known, sgn;

		if (index >= SYSCALL_ARGS_MAX || syscalls_args(a, name, args, &known) < 0)
			continue;
		sgn = args[index].cls == ARG_S32 || args[index].cls == ARG_S64;
		switch (args[index].cls) {
		case ARG_U16:
			w = 16;
			break;
		case ARG_S32:
		case ARG_U32:
			w = 32;
			break;
		case ARG_S64:
		case ARG_U64:
		case ARG_UNKNOWN:
		case ARG_PTR:
			w = a->bits;
			break;
		default:
			continue; /* no such argument: the engine says so at the rule */
		}
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

/*
 * Convert one JSON argument condition of syscall name into alternatives,
 * for the widths the argument has on the filter's ABIs (scmp-run.ini(5):
 * values mean the low bits the kernel reads; ordered compares stay
 * unsigned, as libseccomp's). Returns the number of alternatives or < 0.
 */
static int convert_cond(struct conv *cv, const char *path, const char *name, unsigned idx,
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
		alt[0].c[alt[0].n++] = cd_pattern(idx, op, v);
		return 1;
	}
	if (op == CMP_MASKED_EQ) {
		char p2[OJSON_PATH_MAX];

		ojson_path_key(p2, path, "valueTwo");
		if (!fits_width(v2, t.wmin)) {
			cerr(cv, p2,
			     "valueTwo %llu does not fit arg%u of '%s' (%u bits): the kernel reads "
			     "only the low %u bits",
			     (unsigned long long)v2, idx, name, t.wmin, t.wmin);
			return -EINVAL;
		}
		alt[0].c[0] = cd_pattern(idx, op, v2);
		alt[0].n = 1;
		if (t.same_width) {
			/* mask bits above the width only test bits the kernel ignores */
			alt[0].c[0].mmag = v & width_max(t.wmin);
			if (v & ~width_max(t.wmin))
				snprintf(note, note_size,
					 "arg%u of %s is %u-bit: mask bits above the low %u are "
					 "dropped (libseccomp compares them)",
					 idx, name, t.wmin, t.wmin);
		} else {
			alt[0].c[0].mneg = (int64_t)v < 0;
			alt[0].c[0].mmag = alt[0].c[0].mneg ? (uint64_t)0 - v : v;
		}
		return 1;
	}
	if (op == CMP_EQ || op == CMP_NE) {
		if (!fits_width(v, t.wmin)) {
			cerr(cv, pv,
			     "value %llu does not fit arg%u of '%s' (%u bits): the kernel reads only "
			     "the low %u bits",
			     (unsigned long long)v, idx, name, t.wmin, t.wmin);
			return -EINVAL;
		}
		alt[0].c[alt[0].n++] = cd_pattern(idx, op, v);
		return 1;
	}
	/* ordered: libseccomp compares unsigned */
	if (t.is_signed && t.is_unsigned) {
		cerr(cv, pv,
		     "arg%u of '%s' is signed on some ABIs of the filter and unsigned on others: "
		     "an unsigned ordered compare cannot be written for all of them",
		     idx, name);
		return -EINVAL;
	}
	if (!t.is_signed) {
		if (v > width_max(t.wmin)) {
			cerr(cv, pv,
			     "value %llu does not fit arg%u of '%s' (%u bits, unsigned): the kernel "
			     "reads only the low %u bits",
			     (unsigned long long)v, idx, name, t.wmin, t.wmin);
			return -EINVAL;
		}
		alt[0].c[alt[0].n++] = (struct cdesc){ .arg = idx, .op = op, .mag = v };
		return 1;
	}
	/* A signed argument: the unsigned order is written as signed ranges. */
	int64_t s;

	if (t.same_width && fits_width(v, t.wmin)) {
		uint64_t w = v & width_max(t.wmin);

		s = (w & width_sign(t.wmin)) ? (int64_t)(w | ~width_max(t.wmin)) : (int64_t)w;
	} else if (v > INT32_MAX && v <= UINT32_MAX) {
		cerr(cv, pv,
		     "value %llu means another number on the 32-bit than on the 64-bit ABIs of "
		     "the filter for signed arg%u of '%s'",
		     (unsigned long long)v, idx, name);
		return -EINVAL;
	} else if (fits_width(v, 32)) {
		s = (int64_t)v;
	} else {
		cerr(cv, pv, "value %llu does not fit arg%u of '%s' (%u bits)",
		     (unsigned long long)v, idx, name, t.wmin);
		return -EINVAL;
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

/* A parsed JSON argument condition. */
struct jcond {
	unsigned index;
	enum cmp_op op;
	uint64_t v, v2;
	char path[OJSON_PATH_MAX];
};

static int parse_args(struct conv *cv, const char *path, json_t *args, struct jcond **ret,
		      size_t *ret_n)
{
	static const char *const fields[] = { "index", "value", "valueTwo", "op", NULL };
	size_t errs = cv->d->n_errors, i;
	struct jcond *out;
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
		struct jcond *c = &out[i];
		const char *op;
		char p[OJSON_PATH_MAX];
		bool has_idx, has_v, has_v2;
		uint64_t idx;
		size_t k;

		ojson_path_index(c->path, path, i);
		if (!json_is_object(a)) {
			cerr(cv, c->path, "'args' entries must be objects");
			continue;
		}
		check_fields(cv, c->path, a, "an argument condition", fields);
		op = get_string(cv, c->path, a, "op");
		if (get_uint(cv, c->path, a, "index", SYSCALL_ARGS_MAX - 1, &has_idx, &idx) < 0 ||
		    get_uint(cv, c->path, a, "value", UINT64_MAX, &has_v, &c->v) < 0 ||
		    get_uint(cv, c->path, a, "valueTwo", UINT64_MAX, &has_v2, &c->v2) < 0)
			continue;
		if (!has_idx)
			cerr(cv, c->path, "'index' is missing");
		if (!op) {
			if (!json_object_get(a, "op"))
				cerr(cv, c->path, "'op' is missing");
			continue;
		}
		c->index = (unsigned)idx;
		ojson_path_key(p, c->path, "op");
		for (k = 0; k < sizeof(oci_ops) / sizeof(oci_ops[0]); k++)
			if (!strcmp(oci_ops[k].name, op))
				break;
		if (k == sizeof(oci_ops) / sizeof(oci_ops[0])) {
			cerr(cv, p, "unknown op '%s'", op);
			continue;
		}
		c->op = oci_ops[k].op;
		/* libseccomp reads the second datum only for SCMP_CMP_MASKED_EQ */
		if (c->op != CMP_MASKED_EQ && c->v2) {
			ojson_path_key(p, c->path, "valueTwo");
			cerr(cv, p,
			     "valueTwo %llu means nothing with %s (only with SCMP_CMP_MASKED_EQ)",
			     (unsigned long long)c->v2, op);
		}
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

static int add_rule(struct conv *cv, const char *name, bool optional, const struct action *act,
		    const struct conj *c, const struct src_loc *loc, size_t entry, const char *note)
{
	struct oci_doc *doc = cv->doc;
	struct oci_rule_info *info;
	int r;

	info = reallocarray(doc->info, doc->n_info + 1, sizeof(*info));
	if (!info)
		return -ENOMEM;
	doc->info = info;
	r = ruleset_add(cv->rs, name, optional, act, c, loc);
	if (r < 0)
		return r;
	info[doc->n_info] = (struct oci_rule_info){ .entry = entry };
	if (note && *note && !(info[doc->n_info].note = strdup(note)))
		r = -ENOMEM;
	doc->n_info++;
	return r;
}

/* On some ABI of the filter? */
static bool on_filter(const struct conv *cv, const char *name)
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

/*
 * The rules of one name: runc adds one rule with every condition, or, when
 * two conditions test the same argument, one rule per condition (ORed).
 * Each condition may itself split in two (signed ranges).
 */
static int add_name(struct conv *cv, const char *name, const struct src_loc *loc,
		    const struct action *act, const struct jcond *conds, size_t n_conds,
		    size_t entry)
{
	bool optional = !on_filter(cv, name), split = false;
	unsigned count[SYSCALL_ARGS_MAX] = { 0 };
	char note[512] = "";
	int r = 0;

	for (size_t i = 0; i < n_conds; i++)
		split |= ++count[conds[i].index] > 1;
	if (!n_conds)
		return add_rule(cv, name, optional, act, NULL, loc, entry, NULL);
	if (split) {
		for (size_t i = 0; i < n_conds && r >= 0; i++) {
			struct calt alt[2];
			char one[256] = "";
			int n = convert_cond(cv, conds[i].path, name, conds[i].index, conds[i].op,
					     conds[i].v, conds[i].v2, alt, one, sizeof(one));

			if (n < 0)
				return n;
			if (*one && !strstr(note, one))
				snprintf(note + strlen(note), sizeof(note) - strlen(note), "%s%s",
					 *note ? "; " : "", one);
			for (int k = 0; k < n && r >= 0; k++) {
				struct conj c = { 0 };

				r = conj_append(&c, &alt[k]);
				if (r >= 0)
					r = add_rule(cv, name, optional, act, &c, loc, entry, note);
				conj_free(&c);
			}
		}
		return r;
	}
	/* all conditions ANDed: the product of their alternatives */
	struct conj *cur = calloc(1, sizeof(*cur)), *next;
	size_t n_cur = 1;

	if (!cur)
		return -ENOMEM;
	for (size_t i = 0; i < n_conds; i++) {
		struct calt alt[2];
		char one[256] = "";
		int n = convert_cond(cv, conds[i].path, name, conds[i].index, conds[i].op,
				     conds[i].v, conds[i].v2, alt, one, sizeof(one));

		if (n < 0) {
			conjs_free(cur, n_cur);
			return n;
		}
		if (*one && !strstr(note, one))
			snprintf(note + strlen(note), sizeof(note) - strlen(note), "%s%s",
				 *note ? "; " : "", one);
		next = calloc(n_cur * (size_t)n, sizeof(*next));
		if (!next) {
			conjs_free(cur, n_cur);
			return -ENOMEM;
		}
		for (size_t j = 0; j < n_cur && r >= 0; j++)
			for (int k = 0; k < n && r >= 0; k++) {
				r = conj_copy(&next[j * (size_t)n + (size_t)k], &cur[j]);
				if (r >= 0)
					r = conj_append(&next[j * (size_t)n + (size_t)k], &alt[k]);
			}
		conjs_free(cur, n_cur);
		cur = next;
		n_cur *= (size_t)n;
		if (r < 0 || n_cur > OCI_CONJS_MAX) {
			conjs_free(cur, n_cur);
			return r < 0 ? r : -E2BIG;
		}
	}
	for (size_t j = 0; j < n_cur && r >= 0; j++)
		r = add_rule(cv, name, optional, act, &cur[j], loc, entry, note);
	conjs_free(cur, n_cur);
	return r;
}

static int parse_entry(struct conv *cv, size_t index, json_t *e)
{
	static const char *const fields[] = { "names", "name",	  "action",   "errnoRet", "errno",
					      "args",  "comment", "includes", "excludes", NULL };
	char path[OJSON_PATH_MAX], p[OJSON_PATH_MAX], why[160];
	size_t errs = cv->d->n_errors, i;
	struct jcond *conds = NULL;
	size_t n_conds = 0;
	struct action act;
	const char *name;
	json_t *names;
	int r, keep;

	ojson_path_index(path, "/syscalls", index);
	ojson_loc(cv->j, path, false, &cv->doc->entry_loc[index]);
	if (!json_is_object(e)) {
		cerr(cv, path, "'syscalls' entries must be objects");
		return -EINVAL;
	}
	check_fields(cv, path, e, "a syscalls entry", fields);
	(void)get_string(cv, path, e, "comment");
	names = get_array(cv, path, e, "names");
	name = get_string(cv, path, e, "name");
	r = parse_oci_action(cv, path, e, "action", "errnoRet", "errno", &act);
	ojson_path_key(p, path, "args");
	r = parse_args(cv, p, get_array(cv, path, e, "args"), &conds, &n_conds) < 0 ? -EINVAL : r;
	ojson_path_key(p, path, "name");
	if (name && names) {
		cerr_key(cv, p, "both 'name' and 'names' are given: use one (as moby says)");
		r = -EINVAL;
	}
	if (!name && !json_array_size(names)) {
		cerr(cv, path, "the entry names no syscall ('names')");
		r = -EINVAL;
	}
	ojson_path_key(p, path, "names");
	if (names) {
		size_t before = cv->d->n_errors;

		check_strings(cv, p, names, "'names'");
		r = cv->d->n_errors > before ? -EINVAL : r;
	}
	ojson_path_key(p, path, "excludes");
	keep = decide_filter(cv, p, json_object_get(e, "excludes"), false, why, sizeof(why));
	if (keep == 1) {
		ojson_path_key(p, path, "includes");
		keep = decide_filter(cv, p, json_object_get(e, "includes"), true, why, sizeof(why));
	}
	if (r < 0 || keep < 0 || cv->d->n_errors > errs) {
		free(conds);
		return -EINVAL;
	}
	if (!keep) {
		diag_note(cv->d, &cv->doc->entry_loc[index], "entry %zu left out: %s", index, why);
		add_note(cv, index, "left out: %s", why);
		free(conds);
		return 0;
	}
	if (action_same(&act, &cv->def)) {
		/* runc skips these: they decide nothing under this default */
		diag_note(cv->d, &cv->doc->entry_loc[index],
			  "entry %zu dropped: its action is the defaultAction (as runc does)",
			  index);
		add_note(cv, index, "dropped: its action is the defaultAction (as runc does)");
		free(conds);
		return 0;
	}
	for (i = 0; r >= 0 && i < (name ? 1 : json_array_size(names)); i++) {
		const char *n = name ? name : json_string_value(json_array_get(names, i));
		struct src_loc loc;

		if (name)
			ojson_path_key(p, path, "name");
		else {
			char q[OJSON_PATH_MAX];

			ojson_path_key(q, path, "names");
			ojson_path_index(p, q, i);
		}
		ojson_loc(cv->j, p, false, &loc);
		if (!syscalls_known(n)) {
			/* runc skips names libseccomp does not know, and so do we */
			diag_warning(cv->d, &loc, "unknown syscall '%s' skipped (as runc does)", n);
			add_note(cv, index, "unknown syscall '%s' skipped (as runc does)", n);
			continue;
		}
		r = add_name(cv, n, &loc, &act, conds, n_conds, index);
		if (r == -E2BIG) {
			cerr(cv, path, "the conditions of '%s' split into more than %d rules", n,
			     OCI_CONJS_MAX);
			r = -EINVAL;
		}
	}
	free(conds);
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

static bool rules_overlap(const struct conv *cv, const struct rule *x, const struct rule *y)
{
	for (size_t i = 0; i < x->conj.n_cmps; i++)
		for (size_t j = 0; j < y->conj.n_cmps; j++) {
			struct argtype t;

			arg_type(cv, x->syscall, (unsigned)x->conj.cmps[i].arg, &t);
			if (cmps_disjoint(&x->conj.cmps[i], &y->conj.cmps[j], t.wmin))
				return false;
		}
	return true;
}

static void warn_overlaps(struct conv *cv)
{
	const struct ruleset *rs = cv->rs;
	struct oci_doc *doc = cv->doc;
	size_t n = rs->n_rules;
	bool *done = calloc(doc->n_entries * doc->n_entries + 1, sizeof(*done));

	if (!done) {
		cv->oom = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++) {
			const struct rule *x = &rs->rules[i], *y = &rs->rules[j];
			size_t ex = doc->info[i].entry, ey = doc->info[j].entry;
			const struct rule *win;
			char bx[48], by[48], bw[48];
			const struct src_loc *lx = &doc->entry_loc[ex], *ly = &doc->entry_loc[ey];

			if (ex == ey || done[ex * doc->n_entries + ey] ||
			    action_same(&x->action, &y->action) || strcmp(x->syscall, y->syscall) ||
			    !rules_overlap(cv, x, y))
				continue;
			done[ex * doc->n_entries + ey] = true;
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
			add_note(
				cv, ey,
				"overlaps entry %zu on '%s' with another action: %s wins here (%s); "
				"runc leaves it to libseccomp's rule order",
				ex, x->syscall, bw,
				x->action.kind == y->action.kind ? "the first written"
								 : "the strictest");
		}
	free(done);
}

/* ---- the document ---- */

static int parse_caps(struct conv *cv, const char *list)
{
	struct oci_doc *doc = cv->doc;
	char *copy, *save = NULL;
	int r = 0;

	if (!list)
		return 0;
	copy = strdup(list);
	if (!copy)
		return -ENOMEM;
	for (char *w = strtok_r(copy, ", ", &save); w && r >= 0; w = strtok_r(NULL, ", ", &save)) {
		char lower[64], *norm, **caps;
		const char *bare = strncasecmp(w, "cap_", 4) ? w : w + 4;
		size_t k;

		for (k = 0; bare[k] && k + 1 < sizeof(lower); k++)
			lower[k] = (char)tolower((unsigned char)bare[k]);
		lower[k] = '\0';
		if (!*bare || bare[k] || isdigit((unsigned char)lower[0]) ||
		    capng_name_to_capability(lower) < 0) {
			diag_error(cv->d, NULL, "--oci-caps: unknown capability '%s'", w);
			r = -EINVAL;
			break;
		}
		if (asprintf(&norm, "CAP_%s", bare) < 0) {
			r = -ENOMEM;
			break;
		}
		for (char *c = norm; *c; c++)
			*c = (char)toupper((unsigned char)*c);
		caps = reallocarray(doc->caps, doc->n_caps + 1, sizeof(*caps));
		if (!caps) {
			free(norm);
			r = -ENOMEM;
			break;
		}
		doc->caps = caps;
		caps[doc->n_caps++] = norm;
		if (cv->doc->profile->n_keep_caps < PROFILE_KEEP_CAPS_MAX)
			cv->doc->profile->keep_caps[cv->doc->profile->n_keep_caps++] =
				capng_name_to_capability(lower);
	}
	free(copy);
	return r;
}

void oci_doc_free(struct oci_doc *doc)
{
	if (!doc)
		return;
	profile_free(doc->profile);
	for (size_t i = 0; i < doc->n_info; i++)
		free(doc->info[i].note);
	free(doc->info);
	for (size_t i = 0; i < doc->n_notes; i++)
		free(doc->notes[i].text);
	free(doc->notes);
	free(doc->entry_loc);
	for (size_t i = 0; i < doc->n_caps; i++)
		free(doc->caps[i]);
	free(doc->caps);
	free(doc);
}

static int convert(struct conv *cv, json_t *root)
{
	static const char *const fields[] = {
		"defaultAction", "defaultErrnoRet", "defaultErrno", "architectures",	"archMap",
		"syscalls",	 "flags",	    "listenerPath", "listenerMetadata", NULL
	};
	struct filter_attrs *at = &cv->rs->attrs;
	json_t *syscalls, *flags, *e;
	size_t errs = cv->d->n_errors, i;
	int r = 0;

	check_fields(cv, "", root, "the profile", fields);
	if (parse_oci_action(cv, "", root, "defaultAction", "defaultErrnoRet", "defaultErrno",
			     &cv->def) < 0)
		r = -EINVAL;
	at->default_action = cv->def;
	at->has_default_action = true;
	/* libseccomp: numbers it does not know get the default action too */
	at->unknown_action = cv->def;
	at->has_unknown_action = true;
	/* libseccomp's default bad-arch action is SCMP_ACT_KILL: kill-thread */
	at->bad_arch_action = (struct action){ .kind = ACTION_KILL_THREAD };
	(void)get_string(cv, "", root, "listenerPath");
	if (json_object_get(root, "listenerMetadata"))
		(void)get_string(cv, "", root, "listenerMetadata");
	if (json_object_get(root, "listenerPath"))
		add_note(cv, SIZE_MAX,
			 "listenerPath ignored: scmp-run hands notifications to no other agent");
	parse_arches(cv, root);
	for (size_t k = 0; k < cv->n_abis; k++)
		at->arches |= cv->abis[k] == cv->native ? ARCH_NATIVE_BIT : 1u << cv->abis[k]->id;
	flags = get_array(cv, "", root, "flags");
	if (flags)
		string_list(cv, "/flags", flags, "'flags'", each_flag);
	syscalls = get_array(cv, "", root, "syscalls");
	cv->doc->n_entries = json_array_size(syscalls);
	cv->doc->entry_loc = calloc(cv->doc->n_entries + 1, sizeof(*cv->doc->entry_loc));
	if (!cv->doc->entry_loc)
		return -ENOMEM;
	if (cv->d->n_errors > errs)
		return -EINVAL;
	json_array_foreach(syscalls, i, e)
	{
		int q = parse_entry(cv, i, e);

		if (q == -ENOMEM)
			return q;
		r = q < 0 ? q : r;
	}
	if (r >= 0 && cv->d->n_errors == errs)
		warn_overlaps(cv);
	if (cv->oom)
		return cv->oom;
	return cv->d->n_errors > errs ? -EINVAL : r;
}

int oci_doc_load(const char *path, const struct arch *native, const struct oci_options *opts,
		 struct diag *d, struct oci_doc **ret)
{
	struct conv cv = { .d = d, .native = native };
	struct ojson j = { 0 };
	struct utsname u;
	const char *file;
	int r;

	*ret = NULL;
	cv.doc = calloc(1, sizeof(*cv.doc));
	if (!cv.doc)
		return -ENOMEM;
	cv.doc->profile = calloc(1, sizeof(*cv.doc->profile));
	if (cv.doc->profile) {
		cv.doc->profile->path = strdup(path);
		cv.doc->profile->rs = ruleset_new();
	}
	if (!cv.doc->profile || !cv.doc->profile->path || !cv.doc->profile->rs) {
		r = -ENOMEM;
		goto fail;
	}
	cv.rs = cv.doc->profile->rs;
	file = ruleset_intern_file(cv.rs, path);
	if (!file) {
		r = -ENOMEM;
		goto fail;
	}
	if (opts && opts->kernel_release)
		cv.kernel_known =
			parse_kernel(opts->kernel_release, &cv.kmajor, &cv.kminor) == 0 ||
			sscanf(opts->kernel_release, "%u.%u", &cv.kmajor, &cv.kminor) == 2;
	else if (uname(&u) == 0)
		cv.kernel_known = sscanf(u.release, "%u.%u", &cv.kmajor, &cv.kminor) == 2;
	r = parse_caps(&cv, opts ? opts->caps : NULL);
	if (r < 0)
		goto fail;
	r = ojson_load(path, file, PROFILE_SIZE_MAX, d, &j);
	if (r < 0)
		goto fail;
	cv.j = &j;
	r = convert(&cv, j.root);
	if (r < 0)
		goto fail;
	ojson_free(&j);
	*ret = cv.doc;
	return 0;
fail:
	ojson_free(&j);
	oci_doc_free(cv.doc);
	return r;
}

int oci_load(const char *path, const struct arch *native, const struct oci_options *opts,
	     struct diag *d, struct profile **ret)
{
	struct oci_doc *doc;
	int r = oci_doc_load(path, native, opts, d, &doc);

	*ret = NULL;
	if (r < 0)
		return r;
	*ret = doc->profile;
	doc->profile = NULL;
	oci_doc_free(doc);
	return 0;
}
