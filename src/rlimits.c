/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * [limits]: values -> soft and hard limits (pure), then setrlimit(2) and a
 * read-back with getrlimit(2). Rules: scmp-run.ini(5) LIMITS.
 */
#include "rlimits.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum unit {
	UNIT_COUNT,   /* a plain number */
	UNIT_SECONDS, /* cpu */
	UNIT_BYTES,   /* K, M, G allowed */
	UNIT_NICE,    /* 0..40, or a signed nice level */
};

/* The names live in the rows, not behind pointers: a table of pointers
 * is relocated at every start (docs/performance.md, Launch). */
static const struct {
	char name[16];
	int resource;
	enum unit unit;
} keys[RLIMITS_COUNT] = {
	[RLIMITS_CPU] = { "cpu", RLIMIT_CPU, UNIT_SECONDS },
	[RLIMITS_ADDRESS_SPACE] = { "address-space", RLIMIT_AS, UNIT_BYTES },
	[RLIMITS_DATA] = { "data", RLIMIT_DATA, UNIT_BYTES },
	[RLIMITS_STACK] = { "stack", RLIMIT_STACK, UNIT_BYTES },
	[RLIMITS_CORE] = { "core", RLIMIT_CORE, UNIT_BYTES },
	[RLIMITS_FILE_SIZE] = { "file-size", RLIMIT_FSIZE, UNIT_BYTES },
	[RLIMITS_OPEN_FILES] = { "open-files", RLIMIT_NOFILE, UNIT_COUNT },
	[RLIMITS_PROCESSES] = { "processes", RLIMIT_NPROC, UNIT_COUNT },
	[RLIMITS_LOCKED_MEMORY] = { "locked-memory", RLIMIT_MEMLOCK, UNIT_BYTES },
	[RLIMITS_NICE] = { "nice", RLIMIT_NICE, UNIT_NICE },
};

const char *rlimits_key_name(enum rlimits_key k)
{
	return k < RLIMITS_COUNT ? keys[k].name : "?";
}

int rlimits_resource(enum rlimits_key k)
{
	return k < RLIMITS_COUNT ? keys[k].resource : -1;
}

/*
 * One side of a value: s[0..len). RLIMIT_NICE (setrlimit(2)): the nice
 * ceiling is 20 - value, so 0..40; a signed level -20..19 is converted.
 */
static int parse_one(const char *s, size_t len, enum unit unit, rlim_t *ret, const char **reterr)
{
	uint64_t v = 0, mult = 1;
	bool sign = false, neg = false;
	size_t i = 0;

	if (len == 8 && !strncmp(s, "infinity", 8)) {
		if (unit == UNIT_NICE) {
			*reterr = "nice takes 0..40 or a level -20..19, not infinity";
			return -EINVAL;
		}
		*ret = RLIM_INFINITY;
		return 0;
	}
	if (unit == UNIT_NICE && len && (s[0] == '+' || s[0] == '-')) {
		sign = true;
		neg = s[0] == '-';
		i = 1;
	}
	if (unit == UNIT_BYTES && len > 1) {
		switch (s[len - 1]) {
		case 'K':
		case 'k':
			mult = 1024;
			break;
		case 'M':
		case 'm':
			mult = 1024 * 1024;
			break;
		case 'G':
		case 'g':
			mult = 1024 * 1024 * 1024;
			break;
		default:
			break;
		}
		if (mult > 1)
			len--;
	}
	if (i >= len) {
		*reterr = "expected a number or infinity";
		return -EINVAL;
	}
	for (; i < len; i++) {
		if (!isdigit((unsigned char)s[i])) {
			*reterr = unit == UNIT_BYTES ? "expected a number (K, M, G: 1024-based) or "
						       "infinity"
						     : "expected a number or infinity";
			return -EINVAL;
		}
		if (v > (UINT64_MAX - 9) / 10) {
			*reterr = "number too large";
			return -EINVAL;
		}
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > (uint64_t)(RLIM_INFINITY - 1) / mult) {
		*reterr = "number too large (write infinity for no limit)";
		return -EINVAL;
	}
	v *= mult;
	if (unit == UNIT_NICE) {
		if (sign && (neg ? v > 20 : v > 19)) {
			*reterr = "nice level out of range -20..19";
			return -EINVAL;
		}
		if (!sign && v > 40) {
			*reterr =
				"nice limit out of range 0..40 (or a level -20..19 with its sign)";
			return -EINVAL;
		}
		if (sign)
			v = neg ? 20 + v : 20 - v;
	}
	*ret = (rlim_t)v;
	return 0;
}

int rlimits_parse_key(struct rlimits_config *c, const char *key, const char *value,
		      const struct src_loc *loc, const char **reterr)
{
	const char *colon = strchr(value, ':');
	size_t k;
	rlim_t soft, hard;
	int r;

	for (k = 0; k < RLIMITS_COUNT; k++)
		if (!strcmp(key, keys[k].name))
			break;
	if (k == RLIMITS_COUNT) {
		*reterr = "unknown limit";
		return -ENOENT;
	}
	if (colon) {
		r = parse_one(value, (size_t)(colon - value), keys[k].unit, &soft, reterr);
		if (r >= 0)
			r = parse_one(colon + 1, strlen(colon + 1), keys[k].unit, &hard, reterr);
		if (r < 0)
			return r;
	} else {
		r = parse_one(value, strlen(value), keys[k].unit, &soft, reterr);
		if (r < 0)
			return r;
		hard = soft;
	}
	/* RLIM_INFINITY is the largest rlim_t: plain comparison holds. */
	if (hard < soft) {
		*reterr = "the hard limit is below the soft limit";
		return -EINVAL;
	}
	c->e[k] = (struct rlimits_entry){ .set = true, .soft = soft, .hard = hard, .loc = *loc };
	return 0;
}

static const char *errno_name(int err)
{
	const char *n = strerrorname_np(err);

	return n ? n : "unknown errno";
}

/* "1024", "infinity" */
static const char *format_value(rlim_t v, char *buf, size_t size)
{
	if (v == RLIM_INFINITY)
		return "infinity";
	snprintf(buf, size, "%llu", (unsigned long long)v);
	return buf;
}

/* fs.nr_open, the ceiling of RLIMIT_NOFILE for every process, root with
 * CAP_SYS_RESOURCE too (setrlimit(2): EPERM above it); 0 if unknown. Read
 * without stdio: nothing is allocated, so lack of memory cannot turn it
 * into another number. */
static unsigned long long read_nr_open(void)
{
	char buf[32], *end;
	unsigned long long v;
	ssize_t n;
	int fd = open("/proc/sys/fs/nr_open", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return 0;
	return v;
}

/* Why the kernel would refuse entry k of c with EPERM: above fs.nr_open
 * for open-files (checked first, whatever the capabilities: then only a
 * smaller value helps), or a hard limit above now_max without
 * CAP_SYS_RESOURCE (!can_raise). The most that may be set in *ret_max. */
enum blocked {
	NOT_BLOCKED,
	BLOCKED_NR_OPEN,
	BLOCKED_HARD
};

static enum blocked limit_blocked(size_t k, const struct rlimits_entry *e, rlim_t now_max,
				  bool can_raise, rlim_t *ret_max)
{
	unsigned long long nr_open = keys[k].resource == RLIMIT_NOFILE ? read_nr_open() : 0;

	if (nr_open && e->hard > nr_open) {
		*ret_max = (rlim_t)nr_open;
		return BLOCKED_NR_OPEN;
	}
	if (!can_raise && e->hard > now_max) {
		*ret_max = now_max;
		return BLOCKED_HARD;
	}
	return NOT_BLOCKED;
}

/* The hint for entry k, e, which setrlimit() refused with err. */
static void hint_refused(size_t k, const struct rlimits_entry *e, rlim_t now_max, int err,
			 struct diag *d)
{
	rlim_t max;
	char b[32];

	if (err != EPERM)
		return;
	switch (limit_blocked(k, e, now_max, false, &max)) {
	case BLOCKED_NR_OPEN:
		diag_hint(d, &e->loc,
			  "open-files cannot exceed fs.nr_open, %s here "
			  "(/proc/sys/fs/nr_open), even with CAP_SYS_RESOURCE",
			  format_value(max, b, sizeof(b)));
		break;
	case BLOCKED_HARD:
		diag_hint(d, &e->loc,
			  "the hard limit now is %s: raising it needs "
			  "CAP_SYS_RESOURCE, which this process lacks",
			  format_value(max, b, sizeof(b)));
		break;
	case NOT_BLOCKED:
		break;
	}
}

int rlimits_apply(const struct rlimits_config *c, struct diag *d)
{
	for (size_t k = 0; k < RLIMITS_COUNT; k++) {
		const struct rlimits_entry *e = &c->e[k];
		struct rlimit now, want = { .rlim_cur = e->soft, .rlim_max = e->hard }, got;
		char b1[32], b2[32];
		int err;

		if (!e->set)
			continue;
		if (getrlimit(keys[k].resource, &now) < 0) {
			err = errno;
			diag_error(d, &e->loc, "reading the limit '%s' failed: %s (%s)",
				   keys[k].name, strerror(err), errno_name(err));
			return -err;
		}
		if (setrlimit(keys[k].resource, &want) < 0) {
			err = errno;
			diag_error(d, &e->loc, "setting the limit '%s' to %s:%s failed: %s (%s)",
				   keys[k].name, format_value(e->soft, b1, sizeof(b1)),
				   format_value(e->hard, b2, sizeof(b2)), strerror(err),
				   errno_name(err));
			hint_refused(k, e, now.rlim_max, err, d);
			return -err;
		}
		if (getrlimit(keys[k].resource, &got) < 0 || got.rlim_cur != want.rlim_cur ||
		    got.rlim_max != want.rlim_max) {
			diag_error(d, &e->loc,
				   "setting the limit '%s' failed: the value read back differs",
				   keys[k].name);
			return -EIO;
		}
	}
	return 0;
}

unsigned long long rlimits_stack_need(char *const argv[], char *const envp[])
{
	unsigned long long need = RLIMITS_STACK_ROOM + 2 * sizeof(char *);

	for (char *const *v = argv; v && *v; v++)
		need += strlen(*v) + 1 + sizeof(char *);
	for (char *const *v = envp; v && *v; v++)
		need += strlen(*v) + 1 + sizeof(char *);
	return need;
}

int rlimits_check_stack(const struct rlimits_config *c, char *const argv[], char *const envp[],
			struct diag *d)
{
	const struct rlimits_entry *e = &c->e[RLIMITS_STACK];
	unsigned long long need = rlimits_stack_need(argv, envp);
	char b[32];

	if (!e->set || e->soft == RLIM_INFINITY || e->soft >= need)
		return 0;
	diag_error(d, &e->loc,
		   "stack = %s is too small to start the command: execve() needs %llu bytes "
		   "here, for its arguments and environment and %u bytes of room",
		   format_value(e->soft, b, sizeof(b)), need, RLIMITS_STACK_ROOM);
	return -E2BIG;
}

bool rlimits_check(const struct rlimits_config *c, bool can_raise, enum rlimits_key *ret_key,
		   rlim_t *ret_max, bool *ret_nr_open)
{
	for (size_t k = 0; k < RLIMITS_COUNT; k++) {
		const struct rlimits_entry *e = &c->e[k];
		struct rlimit now;
		enum blocked b;

		if (!e->set || getrlimit(keys[k].resource, &now) < 0)
			continue;
		b = limit_blocked(k, e, now.rlim_max, can_raise, ret_max);
		if (b != NOT_BLOCKED) {
			*ret_key = (enum rlimits_key)k;
			*ret_nr_open = b == BLOCKED_NR_OPEN;
			return true;
		}
	}
	return false;
}

int rlimits_print(const struct rlimits_config *c, const char *prefix, FILE *f)
{
	for (size_t k = 0; k < RLIMITS_COUNT; k++) {
		char b1[32], b2[32];

		if (!c->e[k].set)
			continue;
		if (fprintf(f, "%s%s: %s:%s\n", prefix, keys[k].name,
			    format_value(c->e[k].soft, b1, sizeof(b1)),
			    format_value(c->e[k].hard, b2, sizeof(b2))) < 0)
			return -EIO;
	}
	return 0;
}
