/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Arguments of a call as text: constants by name, flag words as NAME|NAME,
 * strings quoted and escaped (scmp-run(1), FINDING WHAT WAS DENIED).
 */
#include "callfmt.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "consts.h"

/* Second names of a value; the first name is shown. */
static const char *const aliases[] = {
	"MAP_ANON", "MAP_FILE",	   "MAP_TYPE", "O_NDELAY",  "O_FSYNC",	 "O_RSYNC",   "O_ACCMODE",
	"SIGIOT",   "SIGCLD",	   "SIGPOLL",  "SIGUNUSED", "F_GETLK64", "F_SETLK64", "F_SETLKW64",
	"F_EXLCK",  "F_SHLCK",	   "F_RDLCK",  "F_WRLCK",   "F_UNLCK",	 "PER_MASK",  "SIGSTKSZ",
	"CSIGNAL",  "IPPROTO_MAX", "AF_FILE",  "AF_LOCAL",  NULL,
};

static bool is_alias(const char *name)
{
	for (const char *const *a = aliases; *a; a++)
		if (!strcmp(*a, name))
			return true;
	/* sub-values of a prctl option, owner kinds, seal bits: not options;
	 * modem lines, packet-mode and line-status bits (tty_ioctl(4)): not
	 * ioctl requests */
	return !strncmp(name, "PR_SET_MM_", 10) || !strncmp(name, "PR_SET_VMA_", 11) ||
	       !strncmp(name, "PR_SET_PTRACER_", 15) || !strncmp(name, "F_OWNER_", 8) ||
	       !strncmp(name, "F_SEAL_", 7) || !strncmp(name, "SIG_", 4) ||
	       !strncmp(name, "MAP_HUGE_", 9) || !strncmp(name, "TIOCM_", 6) ||
	       !strncmp(name, "TIOCPKT_", 8) || !strcmp(name, "TIOCSER_TEMT");
}

const char *callfmt_const_name(const struct arch *a, const char *prefix, int64_t value)
{
	size_t n = consts_count(), len = strlen(prefix);

	for (size_t i = 0; i < n; i++) {
		const char *name = consts_name(i);
		int64_t v;

		if (strncmp(name, prefix, len) || is_alias(name))
			continue;
		if (consts_lookup(a, name, &v) == 0 && v == value)
			return name;
	}
	return NULL;
}

struct out {
	char *buf;
	size_t size, len;
	bool full;
};

__attribute__((format(printf, 2, 3))) static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->size - o->len) {
		o->full = true;
		o->len = o->size - 1;
		return;
	}
	o->len += (size_t)n;
}

/* Flags: every single-bit constant of prefix that is set, then the rest. */
static void put_flags(struct out *o, const struct arch *a, const char *prefix, uint64_t v,
		      const char *sep)
{
	size_t n = consts_count(), len = strlen(prefix);
	bool any = false;

	for (size_t i = 0; i < n && v; i++) {
		const char *name = consts_name(i);
		int64_t c;

		if (strncmp(name, prefix, len) || is_alias(name) ||
		    consts_lookup(a, name, &c) < 0 || c <= 0 || ((uint64_t)c & ((uint64_t)c - 1)) ||
		    !(v & (uint64_t)c))
			continue;
		put(o, "%s%s", any ? "|" : sep, name);
		sep = "";
		v &= ~(uint64_t)c;
		any = true;
	}
	if (v || !any)
		put(o, "%s%#" PRIx64, any ? "|" : sep, v);
}

static void put_const(struct out *o, const struct arch *a, const char *prefix, int64_t v)
{
	const char *name = callfmt_const_name(a, prefix, v);

	if (name)
		put(o, "%s", name);
	else
		put(o, "%" PRId64, v);
}

/* A word whose bits under mask are one value, a kind (the socket type
 * of socket(2), the mapping type of mmap(2): MAP_SHARED_VALIDATE is 3, not
 * MAP_SHARED|MAP_PRIVATE), and the rest flags. */
static void put_kind_flags(struct out *o, const struct arch *a, const char *prefix, uint64_t v,
			   uint64_t mask)
{
	put_const(o, a, prefix, (int64_t)(v & mask));
	if (v & ~mask)
		put_flags(o, a, prefix, v & ~mask, "|");
}

static void put_string(struct out *o, uint64_t addr, callfmt_read_fn read, void *data)
{
	char s[CALLFMT_STRING_MAX + 1];
	ssize_t n = read ? read(data, addr, s, CALLFMT_STRING_MAX) : -1;
	size_t len;

	if (n < 0) {
		put(o, "%#" PRIx64, addr);
		return;
	}
	len = strnlen(s, (size_t)n);
	put(o, "\"");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			put(o, "\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			put(o, "%c", c);
		else
			put(o, "\\x%02x", c);
	}
	put(o, len == (size_t)n ? "\"..." : "\"");
}

/*
 * The prctl(2) options that are not named PR_SET_* or PR_GET_*. Every other
 * PR_ name is a value of an option's argument, and shares numbers with the
 * options: PR_ENDIAN_BIG is 0, PR_PPC_DEXCR_CTRL_MASK is 31, which is
 * PR_TASK_PERF_EVENTS_DISABLE.
 */
static const char *const prctl_options[] = {
	"PR_CAPBSET_READ",
	"PR_CAPBSET_DROP",
	"PR_TASK_PERF_EVENTS_DISABLE",
	"PR_TASK_PERF_EVENTS_ENABLE",
	"PR_MCE_KILL",
	"PR_MCE_KILL_GET",
	"PR_MPX_ENABLE_MANAGEMENT",
	"PR_MPX_DISABLE_MANAGEMENT",
	"PR_CAP_AMBIENT",
	"PR_SVE_SET_VL",
	"PR_SVE_GET_VL",
	"PR_PAC_RESET_KEYS",
	"PR_PAC_SET_ENABLED_KEYS",
	"PR_PAC_GET_ENABLED_KEYS",
	"PR_SCHED_CORE",
	"PR_SME_SET_VL",
	"PR_SME_GET_VL",
	"PR_RISCV_V_SET_CONTROL",
	"PR_RISCV_V_GET_CONTROL",
	"PR_RISCV_SET_ICACHE_FLUSH_CTX",
	"PR_PPC_GET_DEXCR",
	"PR_PPC_SET_DEXCR",
	NULL,
};

/* The name of prctl(2) option v on a, or NULL. */
static const char *prctl_option_name(const struct arch *a, int32_t v)
{
	const char *n = callfmt_const_name(a, "PR_SET_", v);
	int64_t c;

	if (!n)
		n = callfmt_const_name(a, "PR_GET_", v);
	for (const char *const *o = prctl_options; !n && *o; o++)
		if (consts_lookup(a, *o, &c) == 0 && c == v)
			n = *o;
	return n;
}

static bool is_string_param(const char *name)
{
	static const char *const names[] = {
		"filename", "pathname", "path",	    "oldname",	    "newname", "specialfile",
		"library",  "dev_name", "dir_name", "new_root",	    "put_old", "uservaddr_unused",
		"fsname",   "key",	"_key",	    "_description", NULL,
	};

	if (!name)
		return false;
	for (const char *const *n = names; *n; n++)
		if (!strcmp(*n, name))
			return true;
	return false;
}

static bool is(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

/* Decode one argument; false if nothing special applies. */
static bool put_special(struct out *o, const struct arch *a, const char *sys,
			const struct syscall_arg *arg, unsigned i, const uint64_t args[])
{
	uint64_t v = args[i];
	int32_t s32 = (int32_t)(uint32_t)v;
	const char *p = arg->name;

	if ((is(sys, "socket") || is(sys, "socketpair")) && i == 0) {
		put_const(o, a, "AF_", s32);
	} else if ((is(sys, "socket") || is(sys, "socketpair")) && i == 1) {
		put_kind_flags(o, a, "SOCK_", (uint32_t)v, 0xf);
	} else if (is(sys, "ioctl") && i == 1) {
		const char *n = callfmt_const_name(a, "TIOC", (uint32_t)v);

		if (!n)
			n = callfmt_const_name(a, "FIO", (uint32_t)v);
		if (!n)
			n = callfmt_const_name(a, "TC", (uint32_t)v);
		if (n)
			put(o, "%s", n);
		else
			put(o, "%#" PRIx32, (uint32_t)v);
	} else if (is(sys, "prctl") && i == 0) {
		const char *n = prctl_option_name(a, s32);

		if (n)
			put(o, "%s", n);
		else
			put(o, "%" PRId32, s32);
	} else if ((is(sys, "fcntl") || is(sys, "fcntl64")) && i == 1) {
		put_const(o, a, "F_", s32);
	} else if ((is(sys, "setsockopt") || is(sys, "getsockopt")) && i == 1) {
		put_const(o, a, s32 == 1 ? "SOL_SOCKET" : "SOL_", s32);
	} else if ((is(sys, "setsockopt") || is(sys, "getsockopt")) && i == 2 &&
		   (int32_t)args[1] == 1) {
		put_const(o, a, "SO_", s32);
	} else if ((is(p, "prot") && (arg->cls != ARG_PTR))) {
		if (v)
			put_flags(o, a, "PROT_", v, "");
		else
			put(o, "PROT_NONE");
	} else if (is(p, "flags") && (is(sys, "mmap") || is(sys, "mmap2"))) {
		int64_t type;

		if (consts_lookup(a, "MAP_TYPE", &type) == 0)
			put_kind_flags(o, a, "MAP_", v, (uint64_t)type);
		else
			put_flags(o, a, "MAP_", v, "");
	} else if ((is(p, "flags") || is(p, "clone_flags") || is(p, "unshare_flags")) &&
		   (is(sys, "clone") || is(sys, "unshare"))) {
		/* clone(2) reads the low 32 bits of its flags, unshare(2) all 64
		 * (and refuses a bit it does not know) */
		uint64_t f = is(sys, "clone") ? (uint32_t)v : v;

		if (is(sys, "clone") && (f & 0xff)) {
			put_const(o, a, "SIG", (int64_t)(f & 0xff));
			f &= ~0xffull;
			if (f)
				put(o, "|");
			else
				return true;
		}
		put_flags(o, a, "CLONE_", f, "");
	} else if (is(p, "flags") && (is(sys, "open") || is(sys, "openat") || is(sys, "creat"))) {
		static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "3" };

		put(o, "%s", acc[v & 3]);
		if (v & ~3ull)
			put_flags(o, a, "O_", (uint32_t)v & ~3u, "|");
	} else if (is(p, "mode") && arg->cls == ARG_U16) {
		put(o, "%#" PRIo64, v & 0xffff); /* 0644, and 0 alone */
	} else if (is(p, "dfd") || is(p, "olddfd") || is(p, "newdfd") || is(p, "dirfd") ||
		   is(p, "fd")) {
		/* the kernel reads a descriptor as an int, whatever the type */
		if (s32 == -100)
			put(o, "AT_FDCWD");
		else
			put(o, "%" PRId32, s32);
	} else if ((is(p, "sig") || is(p, "signum")) && s32 > 0 && s32 < 65) {
		put_const(o, a, "SIG", s32);
	} else if (is(sys, "personality") && i == 0) {
		const char *n = callfmt_const_name(a, "PER_", s32);

		if (n)
			put(o, "%s", n);
		else
			put(o, "%#" PRIx32, (uint32_t)v);
	} else {
		return false;
	}
	return true;
}

/* An argument by its type alone. */
static void put_plain(struct out *o, const struct syscall_arg *type, uint64_t v,
		      callfmt_read_fn read, void *data)
{
	switch (type->cls) {
	case ARG_PTR:
		if (!v)
			put(o, "NULL");
		else if (is_string_param(type->name))
			put_string(o, v, read, data);
		else
			put(o, "%#" PRIx64, v);
		break;
	case ARG_S32:
		put(o, "%" PRId32, (int32_t)(uint32_t)v);
		break;
	case ARG_S64:
		put(o, "%" PRId64, (int64_t)v);
		break;
	case ARG_U16:
		put(o, "%#" PRIx64, v & 0xffff);
		break;
	case ARG_U32:
		v &= UINT32_MAX;
		__attribute__((fallthrough));
	default:
		if (v < 0x10000)
			put(o, "%" PRIu64, v);
		else
			put(o, "%#" PRIx64, v);
		break;
	}
}

void callfmt_format(const struct arch *a, const char *name, uint32_t nr,
		    const uint64_t args[SYSCALL_ARGS_MAX], callfmt_read_fn read, void *data,
		    char *buf, size_t size)
{
	struct syscall_arg types[SYSCALL_ARGS_MAX];
	struct out o = { .buf = buf, .size = size };
	bool known = false;
	unsigned n = SYSCALL_ARGS_MAX;
	uint64_t v[SYSCALL_ARGS_MAX];

	if (!size)
		return;
	buf[0] = 0;
	/* a 32-bit ABI's arguments are the low halves: the kernel ignores the
	 * rest, which seccomp may still show, for decoded words as for numbers */
	for (unsigned i = 0; i < SYSCALL_ARGS_MAX; i++)
		v[i] = a->bits == 32 ? args[i] & UINT32_MAX : args[i];
	if (!name || syscalls_args(a, name, types, &known) < 0) {
		for (unsigned i = 0; i < SYSCALL_ARGS_MAX; i++)
			types[i] = (struct syscall_arg){ .cls = ARG_UNKNOWN };
	}
	if (name)
		put(&o, "%s(", name);
	else
		put(&o, "syscall_%" PRIu32 "(", nr);
	if (known)
		for (n = 0; n < SYSCALL_ARGS_MAX && types[n].cls != ARG_NONE; n++)
			;
	for (unsigned i = 0; i < n; i++) {
		if (i)
			put(&o, ", ");
		if (!put_special(&o, a, name, &types[i], i, v))
			put_plain(&o, &types[i], v[i], read, data);
	}
	put(&o, ")");
	if (o.full && size > 4)
		memcpy(buf + size - 4, "...", 4);
}
