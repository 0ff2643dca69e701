/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * OCI runtime-spec / Docker seccomp JSON -> profile (scmp-run.ini(5), OCI
 * AND DOCKER PROFILES): entries filtered by includes/excludes as moby does,
 * conditions converted the way runc hands them to libseccomp, then given
 * the kernel's argument widths.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "array.h"
#include "capname.h"
#include "consts.h"
#include "oci-int.h"
#include "oci-json.h"
#include "syscalls.h"

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
	int id;
	/* what moby compares includes/excludes "arches" with: its
	 * goToNative[GOARCH], libseccomp's name of the host's architecture
	 * (NULL: that table has no entry for it, so no name matches) */
	const char *moby;
} oci_arches[] = {
	{ "SCMP_ARCH_X86_64", ARCH_X86_64, "amd64" },
	{ "SCMP_ARCH_X86", ARCH_X86, "x86" },
	{ "SCMP_ARCH_X32", ARCH_X32, NULL },
	{ "SCMP_ARCH_AARCH64", ARCH_AARCH64, "arm64" },
	{ "SCMP_ARCH_ARM", ARCH_ARM, "arm" },
	{ "SCMP_ARCH_RISCV64", ARCH_RISCV64, "riscv64" },
	{ "SCMP_ARCH_PPC64LE", ARCH_PPC64LE, "ppc64le" },
	{ "SCMP_ARCH_PPC64", ARCH_PPC64, "ppc64" },
	{ "SCMP_ARCH_PPC", ARCH_PPC, "ppc" },
	{ "SCMP_ARCH_S390X", ARCH_S390X, "s390x" },
	{ "SCMP_ARCH_S390", ARCH_S390, "s390" },
	{ "SCMP_ARCH_MIPS", ARCH_MIPS, NULL },
	{ "SCMP_ARCH_MIPSEL", ARCH_MIPSEL, "mipsel" },
	{ "SCMP_ARCH_MIPS64", ARCH_MIPS64, "mips64" },
	{ "SCMP_ARCH_MIPSEL64", ARCH_MIPSEL64, "mipsel64" },
	{ "SCMP_ARCH_MIPS64N32", ARCH_MIPS64N32, "mips64n32" },
	{ "SCMP_ARCH_MIPSEL64N32", ARCH_MIPSEL64N32, "mips3l64n32" },
	{ "SCMP_ARCH_LOONGARCH64", ARCH_LOONGARCH64, "loongarch64" },
	{ "SCMP_ARCH_PARISC", -1, NULL },
	{ "SCMP_ARCH_PARISC64", -1, NULL },
	{ "SCMP_ARCH_M68K", -1, NULL },
	{ "SCMP_ARCH_SH", -1, NULL },
	{ "SCMP_ARCH_SHEB", -1, NULL },
};

/* ---- conversion state ---- */

void oci_note(struct oci_conv *cv, size_t entry, const char *fmt, ...)
{
	struct oci_doc *doc = cv->doc;
	struct oci_note *n;
	char *text = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	n = text ? array_grow(&doc->notes, &doc->n_notes, &doc->cap_notes, sizeof(*n)) : NULL;
	if (!n) {
		free(text);
		cv->oom = -ENOMEM;
		return;
	}
	*n = (struct oci_note){ .entry = entry, .text = text };
}

/* ---- actions ---- */

static int parse_oci_action(struct oci_conv *cv, const char *path, json_t *obj, const char *act_key,
			    const char *ret_key, const char *name_key, struct action *ret)
{
	const char *name = ojson_get_string(cv->j, path, obj, act_key);
	const char *errno_name = ojson_get_string(cv->j, path, obj, name_key);
	char p[OJSON_PATH_MAX];
	uint64_t data;
	bool has_data;
	size_t i;

	ojson_path_key(p, path, act_key);
	if (!name) {
		if (!json_object_get(obj, act_key))
			ojson_error(cv->j, path, "'%s' is missing", act_key);
		return -EINVAL;
	}
	for (i = 0; i < sizeof(oci_actions) / sizeof(oci_actions[0]); i++)
		if (!strcmp(oci_actions[i].name, name))
			break;
	if (i == sizeof(oci_actions) / sizeof(oci_actions[0])) {
		ojson_error(cv->j, p, "unknown action '%s'", name);
		return -EINVAL;
	}
	*ret = (struct action){ .kind = oci_actions[i].kind };
	if (ojson_get_uint(cv->j, path, obj, ret_key,
			   ret->kind == ACTION_TRACE ? ACTION_DATA_MAX : OCI_ERRNO_MAX, &has_data,
			   &data) < 0)
		return -EINVAL;
	ojson_path_key(p, path, ret_key);
	if (has_data && ret->kind != ACTION_ERRNO && ret->kind != ACTION_TRACE) {
		ojson_error(
			cv->j, p,
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
			ojson_error(cv->j, p, "'%s' means nothing with %s", name_key, name);
			return -EINVAL;
		}
		if (consts_errno(cv->native, errno_name, &e) < 0) {
			ojson_error(cv->j, p, "unknown errno name '%s'", errno_name);
			return -EINVAL;
		}
		/* runtimes read only the number: a name alone or another number
		 * would be read differently by them */
		if (!has_data || (uint32_t)e != ret->data) {
			ojson_error(cv->j, p,
				    "'%s' is %s (%d) but '%s' is %s: runtimes use '%s' only",
				    name_key, errno_name, e, ret_key,
				    has_data ? "another number" : "missing", ret_key);
			return -EINVAL;
		}
	}
	return 0;
}

/* Two members that say one thing: moby refuses both; the error is at the
 * key of the second (path). */
static void both_given(struct oci_conv *cv, const char *path, const char *a, const char *b)
{
	struct src_loc at;

	ojson_loc(cv->j, path, true, &at);
	diag_error(cv->d, &at, "both '%s' and '%s' are given: use one (as moby says)", a, b);
}

/* ---- top level: architectures, flags ---- */

static int lookup_arch(const char *name)
{
	for (size_t i = 0; i < sizeof(oci_arches) / sizeof(oci_arches[0]); i++)
		if (!strcmp(oci_arches[i].name, name))
			return (int)i;
	return -1;
}

static void add_abi(struct oci_conv *cv, const char *path, const char *name)
{
	int k = lookup_arch(name);
	const struct arch *a;

	if (k < 0) {
		ojson_error(cv->j, path, "unknown architecture '%s'", name);
		return;
	}
	if (oci_arches[k].id < 0) {
		oci_note(cv, SIZE_MAX, "architecture %s: scmp-run has no such ABI; not on %s", name,
			 cv->native->name);
		return;
	}
	a = arch_get((enum arch_id)oci_arches[k].id);
	for (size_t i = 0; i < cv->n_abis; i++)
		if (cv->abis[i] == a)
			return;
	if (!arch_compatible(cv->native, a)) {
		/* libseccomp would add it; no process of this kernel can show it */
		oci_note(cv, SIZE_MAX, "architecture %s left out: it cannot occur next to %s", name,
			 cv->native->name);
		return;
	}
	cv->abis[cv->n_abis++] = a;
}

/* Every element of arr must be a string; each (if not NULL) is called with
 * each string and its path. */
static void string_list(struct oci_conv *cv, const char *path, json_t *arr, const char *what,
			void (*each)(struct oci_conv *, const char *, const char *))
{
	char p[OJSON_PATH_MAX];
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
	{
		ojson_path_index(p, path, i);
		if (!json_is_string(v)) {
			ojson_error(cv->j, p, "%s must be strings", what);
			continue;
		}
		if (each)
			each(cv, p, json_string_value(v));
	}
}

static void parse_arches(struct oci_conv *cv, json_t *root)
{
	json_t *archs = ojson_get_array(cv->j, "", root, "architectures");
	json_t *map = ojson_get_array(cv->j, "", root, "archMap");
	const char *native_name = NULL;
	bool host_entry, host_seen = false;
	char p[OJSON_PATH_MAX], q[OJSON_PATH_MAX];
	size_t i;
	json_t *m;

	cv->abis[cv->n_abis++] = cv->native; /* libseccomp's filter always has it */
	if (archs && map) {
		both_given(cv, "/archMap", "architectures", "archMap");
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
			ojson_error(cv->j, p, "'archMap' entries must be objects");
			continue;
		}
		ojson_check_fields(cv->j, p, m, "an archMap entry", fields);
		a = ojson_get_string(cv->j, p, m, "architecture");
		subs = ojson_get_array(cv->j, p, m, "subArchitectures");
		ojson_path_key(q, p, "architecture");
		if (!a) {
			if (!json_object_get(m, "architecture"))
				ojson_error(cv->j, p, "'architecture' is missing");
			continue;
		}
		if (lookup_arch(a) < 0) {
			ojson_error(cv->j, q, "unknown architecture '%s'", a);
			continue;
		}
		ojson_path_key(q, p, "subArchitectures");
		/* moby uses the first entry of the host's architecture only */
		host_entry = native_name && !strcmp(a, native_name);
		if (host_entry && host_seen) {
			struct src_loc loc;

			ojson_loc(cv->j, p, false, &loc);
			diag_warning(cv->d, &loc,
				     "a second archMap entry for %s, the host's architecture: "
				     "ignored, as moby uses the first one only",
				     a);
		}
		string_list(cv, q, subs, "'subArchitectures'",
			    host_entry && !host_seen ? add_abi : NULL);
		host_seen |= host_entry;
	}
}

static void each_flag(struct oci_conv *cv, const char *path, const char *flag)
{
	struct filter_attrs *at = &cv->rs->attrs;

	if (!strcmp(flag, "SECCOMP_FILTER_FLAG_TSYNC"))
		at->tsync = true;
	else if (!strcmp(flag, "SECCOMP_FILTER_FLAG_LOG"))
		at->log = true;
	else if (!strcmp(flag, "SECCOMP_FILTER_FLAG_SPEC_ALLOW"))
		at->spec_allow = true;
	else if (!strcmp(flag, "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV"))
		oci_note(cv, SIZE_MAX,
			 "flag %s ignored: it only changes how a notify listener waits", flag);
	else
		ojson_error(cv->j, path, "unknown or unsupported flag '%s'", flag);
}

/* ---- includes / excludes ---- */

static int parse_kernel(const char *s, unsigned *major, unsigned *minor)
{
	char tail;

	return sscanf(s, "%u.%u%c", major, minor, &tail) == 2 ? 0 : -EINVAL;
}

/*
 * A minKernel as moby reads it (profiles/seccomp, KernelVersion): two
 * decimal numbers of at most 255 (Go's ParseUint(s, 10, 8): no sign, no
 * space) that are not both 0. What moby refuses is refused, so that no
 * entry is kept or left out by a number read otherwise.
 */
static int parse_min_kernel(const char *s, unsigned *major, unsigned *minor)
{
	unsigned v[2] = { 0, 0 };
	const char *p = s;

	for (int k = 0; k < 2; k++) {
		const char *start = p;

		for (; *p >= '0' && *p <= '9'; p++) {
			v[k] = v[k] * 10 + (unsigned)(*p - '0');
			if (v[k] > 255)
				return -EINVAL;
		}
		if (p == start || *p != (k ? '\0' : '.'))
			return -EINVAL;
		p++;
	}
	if (!v[0] && !v[1])
		return -EINVAL;
	*major = v[0];
	*minor = v[1];
	return 0;
}

static bool has_cap(const struct oci_conv *cv, const char *cap)
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
static int decide_filter(struct oci_conv *cv, const char *path, json_t *obj, bool include,
			 char *why, size_t why_size)
{
	static const char *const fields[] = { "caps", "arches", "minKernel", NULL };
	const char *host = NULL, *mk;
	json_t *caps, *arches, *v;
	char p[OJSON_PATH_MAX];
	size_t errs = cv->d->n_errors, i;
	unsigned maj = 0, min = 0; /* set when mk is: parse_min_kernel() */
	bool caps_hit = false, arch_hit, kernel_ge = false;

	if (!obj || json_is_null(obj))
		return 1;
	if (!json_is_object(obj)) {
		ojson_error(cv->j, path, "'%s' must be an object",
			    include ? "includes" : "excludes");
		return -EINVAL;
	}
	ojson_check_fields(cv->j, path, obj, include ? "'includes'" : "'excludes'", fields);
	caps = ojson_get_array(cv->j, path, obj, "caps");
	arches = ojson_get_array(cv->j, path, obj, "arches");
	mk = ojson_get_string(cv->j, path, obj, "minKernel");
	ojson_path_key(p, path, "caps");
	string_list(cv, p, caps, "'caps'", NULL);
	ojson_path_key(p, path, "arches");
	string_list(cv, p, arches, "'arches'", NULL);
	ojson_path_key(p, path, "minKernel");
	if (mk && parse_min_kernel(mk, &maj, &min) < 0)
		ojson_error(cv->j, p,
			    "'minKernel' must be MAJOR.MINOR, numbers of at most 255 not both 0 "
			    "(as moby reads it), not '%s'",
			    mk);
	if (cv->d->n_errors > errs)
		return -EINVAL;
	for (size_t k = 0; k < sizeof(oci_arches) / sizeof(oci_arches[0]); k++)
		if (oci_arches[k].id == (int)cv->native->id)
			host = oci_arches[k].moby;
	arch_hit = host && arches && in_strings(arches, host);
	if (mk) {
		if (!cv->kernel_known) {
			ojson_error(cv->j, p,
				    "cannot read the running kernel's version for 'minKernel'");
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
			snprintf(why, why_size, "excluded on %s", host);
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
			 host ? host : cv->native->name);
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

/*
 * runc refuses a profile with an empty syscall name ("empty string is not a
 * valid syscall") before it skips the entries with the default action; it
 * is refused here in every entry, also one that includes or excludes leave
 * out, as a malformed includes is.
 */
static void each_name(struct oci_conv *cv, const char *path, const char *name)
{
	if (!*name)
		ojson_error(cv->j, path, "an empty syscall name");
}

static int parse_entry(struct oci_conv *cv, size_t index, json_t *e)
{
	static const char *const fields[] = { "names", "name",	  "action",   "errnoRet", "errno",
					      "args",  "comment", "includes", "excludes", NULL };
	char path[OJSON_PATH_MAX], p[OJSON_PATH_MAX], why[160], why_in[160] = "";
	size_t errs = cv->d->n_errors, i;
	struct oci_jcond *conds = NULL;
	size_t n_conds = 0;
	struct action act;
	const char *name;
	json_t *names;
	int r, ra, keep, keep_in;

	ojson_path_index(path, "/syscalls", index);
	ojson_loc(cv->j, path, false, &cv->doc->entry_loc[index]);
	if (!json_is_object(e)) {
		ojson_error(cv->j, path, "'syscalls' entries must be objects");
		return -EINVAL;
	}
	ojson_check_fields(cv->j, path, e, "a syscalls entry", fields);
	(void)ojson_get_string(cv->j, path, e, "comment");
	names = ojson_get_array(cv->j, path, e, "names");
	name = ojson_get_string(cv->j, path, e, "name");
	r = parse_oci_action(cv, path, e, "action", "errnoRet", "errno", &act);
	ojson_path_key(p, path, "args");
	ra = oci_parse_args(cv, p, ojson_get_array(cv->j, path, e, "args"), &conds, &n_conds);
	if (ra == -ENOMEM) /* nothing allocated: out of memory is said by the caller */
		return ra;
	r = ra < 0 ? -EINVAL : r;
	ojson_path_key(p, path, "name");
	if (name && names) {
		both_given(cv, p, "name", "names");
		r = -EINVAL;
	}
	if (!name && !json_array_size(names)) {
		ojson_error(cv->j, path, "the entry names no syscall ('names')");
		r = -EINVAL;
	}
	ojson_path_key(p, path, "names");
	if (names) {
		size_t before = cv->d->n_errors;

		string_list(cv, p, names, "'names'", each_name);
		r = cv->d->n_errors > before ? -EINVAL : r;
	}
	if (name && !*name) {
		ojson_path_key(p, path, "name");
		each_name(cv, p, name);
		r = -EINVAL;
	}
	ojson_path_key(p, path, "excludes");
	/* both are read whatever the first decides: moby decodes (and refuses)
	 * a malformed includes of an entry its excludes leave out */
	keep = decide_filter(cv, p, json_object_get(e, "excludes"), false, why, sizeof(why));
	ojson_path_key(p, path, "includes");
	keep_in =
		decide_filter(cv, p, json_object_get(e, "includes"), true, why_in, sizeof(why_in));
	if (keep == 1 || keep_in < 0) {
		keep = keep_in;
		memcpy(why, why_in, sizeof(why));
	}
	if (r < 0 || keep < 0 || cv->d->n_errors > errs) {
		free(conds);
		return -EINVAL;
	}
	if (!keep) {
		diag_note(cv->d, &cv->doc->entry_loc[index], "entry %zu left out: %s", index, why);
		oci_note(cv, index, "left out: %s", why);
		free(conds);
		return 0;
	}
	if (oci_action_same(&act, &cv->def)) {
		/* runc skips these: they decide nothing under this default */
		diag_note(cv->d, &cv->doc->entry_loc[index],
			  "entry %zu dropped: its action is the defaultAction (as runc does)",
			  index);
		oci_note(cv, index, "dropped: its action is the defaultAction (as runc does)");
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
			oci_note(cv, index, "unknown syscall '%s' skipped (as runc does)", n);
			continue;
		}
		r = oci_add_name(cv, n, &loc, &act, conds, n_conds, index);
		if (r == -E2BIG) {
			ojson_error(cv->j, path,
				    "the conditions of '%s' split into more than %d rules", n,
				    OCI_CONJS_MAX);
			r = -EINVAL;
		}
	}
	free(conds);
	return r;
}

/* ---- the document ---- */

static int parse_caps(struct oci_conv *cv, const char *list)
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
		char name[80], *norm, **caps;
		const char *err;
		int cap = capname_parse(w, &err);

		if (cap == -ENOENT) {
			diag_error(cv->d, NULL, "--oci-caps: %s", err);
			r = -EINVAL;
			break;
		}
		if (cap < 0) {
			diag_error(cv->d, NULL, "--oci-caps: unknown capability '%s'", w);
			r = -EINVAL;
			break;
		}
		/* a capability named twice is kept once, as [capabilities] keep
		 * does: includes/excludes are decided on doc->caps, and every one
		 * of them must be kept in run mode too */
		r = profile_keep_cap(doc->profile, cap);
		if (r == 0)
			continue;
		if (r < 0) {
			diag_error(cv->d, NULL, "--oci-caps: too many capabilities (at most %d)",
				   PROFILE_KEEP_CAPS_MAX);
			r = -EINVAL;
			break;
		}
		r = 0;
		capname_format(cap, name, sizeof(name));
		norm = strdup(name);
		if (!norm) {
			r = -ENOMEM;
			break;
		}
		caps = reallocarray(doc->caps, doc->n_caps + 1, sizeof(*caps));
		if (!caps) {
			free(norm);
			r = -ENOMEM;
			break;
		}
		doc->caps = caps;
		caps[doc->n_caps++] = norm;
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

static int convert(struct oci_conv *cv, json_t *root)
{
	static const char *const fields[] = {
		"defaultAction", "defaultErrnoRet", "defaultErrno", "architectures",	"archMap",
		"syscalls",	 "flags",	    "listenerPath", "listenerMetadata", NULL
	};
	struct filter_attrs *at = &cv->rs->attrs;
	json_t *syscalls, *flags, *e;
	size_t errs = cv->d->n_errors, i;
	int r = 0;

	ojson_check_fields(cv->j, "", root, "the profile", fields);
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
	(void)ojson_get_string(cv->j, "", root, "listenerPath");
	if (json_object_get(root, "listenerMetadata"))
		(void)ojson_get_string(cv->j, "", root, "listenerMetadata");
	if (json_object_get(root, "listenerPath"))
		oci_note(cv, SIZE_MAX,
			 "listenerPath ignored: scmp-run hands notifications to no other agent");
	parse_arches(cv, root);
	for (size_t k = 0; k < cv->n_abis; k++)
		at->arches |= cv->abis[k] == cv->native ? ARCH_NATIVE_BIT : 1u << cv->abis[k]->id;
	flags = ojson_get_array(cv->j, "", root, "flags");
	if (flags)
		string_list(cv, "/flags", flags, "'flags'", each_flag);
	syscalls = ojson_get_array(cv->j, "", root, "syscalls");
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
		oci_warn_overlaps(cv);
	if (cv->oom)
		return cv->oom;
	return cv->d->n_errors > errs ? -EINVAL : r;
}

int oci_doc_load(const char *path, const struct arch *native, const struct oci_options *opts,
		 struct diag *d, struct oci_doc **ret)
{
	struct oci_conv cv = { .d = d, .native = native };
	struct ojson j = { 0 };
	struct utsname u;
	const char *file;
	int r;

	*ret = NULL;
	cv.doc = calloc(1, sizeof(*cv.doc));
	if (!cv.doc)
		return -ENOMEM;
	cv.doc->profile = profile_new(path);
	if (!cv.doc->profile) {
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
	r = ojson_load(path, file, PROFILE_SIZE_MAX,
		       opts && opts->same_file ? &(struct ojson_file_id){ opts->dev, opts->ino }
					       : NULL,
		       d, &j);
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
