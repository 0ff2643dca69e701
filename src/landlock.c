/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * [landlock]: keys -> config (pure), config + ABI -> rights (pure), rights ->
 * ruleset fd (opens paths), ruleset fd -> domain. Rules: scmp-run.ini(5) LANDLOCK.
 */
#include "landlock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "array.h"
#include "landlock-uapi.h"
#include "number.h"
#include "path-walk.h"
#include "suggest.h"

/* Every filesystem right of LANDLOCK_ABI_KNOWN (bits 0-15). */
#define FS_ALL	  ((LANDLOCK_ACCESS_FS_IOCTL_DEV << 1) - 1)
#define NET_ALL	  (LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP)
#define SCOPE_ALL (LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL)

/*
 * The right sets of the path keys (scmp-run.ini(5) LANDLOCK, "Rights"):
 * read reads files and lists directories; read-exec adds execute; write is
 * every right except execute, making device nodes and device ioctls (it
 * includes reading, so a writable directory is also readable); devices
 * reads, writes and ioctls device files.
 */
#define RIGHTS_READ	 (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define RIGHTS_READ_EXEC (RIGHTS_READ | LANDLOCK_ACCESS_FS_EXECUTE)
#define RIGHTS_WRITE                                                            \
	(FS_ALL & ~(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_MAKE_CHAR | \
		    LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_IOCTL_DEV))
#define RIGHTS_DEVICES                                                  \
	(LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE | \
	 LANDLOCK_ACCESS_FS_IOCTL_DEV)

static const struct {
	const char *key;
	enum landlock_set set;
	uint64_t rights;
} path_keys[] = {
	{ "read", LANDLOCK_SET_READ, RIGHTS_READ },
	{ "read-exec", LANDLOCK_SET_READ_EXEC, RIGHTS_READ_EXEC },
	{ "write", LANDLOCK_SET_WRITE, RIGHTS_WRITE },
	{ "devices", LANDLOCK_SET_DEVICES, RIGHTS_DEVICES },
};

/* Names for the report, by bit. */
static const char *const fs_names[] = {
	"execute",   "write-file", "read-file", "read-dir",  "remove-dir", "remove-file",
	"make-char", "make-dir",   "make-reg",	"make-sock", "make-fifo",  "make-block",
	"make-sym",  "refer",	   "truncate",	"ioctl-dev",
};
static const char *const scope_names[] = { "abstract-unix", "signal" };

/* Rights and scopes per ABI; Documentation/userspace-api/landlock.rst. */
static uint64_t abi_fs(int abi)
{
	uint64_t fs = 0;

	if (abi >= 1)
		fs |= (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;
	if (abi >= 2)
		fs |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		fs |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		fs |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return fs;
}

static uint64_t abi_net(int abi)
{
	return abi >= 4 ? NET_ALL : 0;
}

static uint64_t abi_scoped(int abi)
{
	return abi >= 6 ? SCOPE_ALL : 0;
}

/* The first ABI with a filesystem right (bit). */
static int fs_bit_abi(unsigned bit)
{
	uint64_t b = (uint64_t)1 << bit;

	for (int abi = 1; abi <= LANDLOCK_ABI_KNOWN; abi++)
		if (abi_fs(abi) & b)
			return abi;
	return LANDLOCK_ABI_KNOWN + 1;
}

static uint64_t set_rights(enum landlock_set set)
{
	for (size_t i = 0; i < sizeof(path_keys) / sizeof(path_keys[0]); i++)
		if (path_keys[i].set == set)
			return path_keys[i].rights;
	return 0;
}

void landlock_config_init(struct landlock_config *c)
{
	*c = (struct landlock_config){ .mode = LANDLOCK_MODE_BEST_EFFORT };
}

void landlock_config_clear(struct landlock_config *c)
{
	for (size_t i = 0; i < c->n_paths; i++)
		free(c->paths[i].path);
	free(c->paths);
	free(c->ports);
	landlock_config_init(c);
}

/* ---- parsing (pure) ---- */

static bool is_sep(char ch, bool comma)
{
	return ch == ' ' || ch == '\t' || (comma && ch == ',');
}

/* The next word of *s (length in *ret_len), or NULL at the end. */
static const char *next_word(const char **s, bool comma, int *ret_len)
{
	const char *w = *s, *e;

	while (*w && is_sep(*w, comma))
		w++;
	if (!*w)
		return NULL;
	for (e = w; *e && !is_sep(*e, comma); e++)
		;
	*s = e;
	*ret_len = (int)(e - w);
	return w;
}

static bool word_is(const char *w, int len, const char *s)
{
	return (size_t)len == strlen(s) && !memcmp(w, s, (size_t)len);
}

/*
 * Normalise an absolute path of len bytes into out (LANDLOCK_PATH_MAX
 * bytes): no repeated '/', no '.' component, no trailing '/' but for "/".
 * '..' is refused: lexical and kernel resolution would differ on symlinks.
 */
static int path_normalize(const char *in, size_t len, char *out, const char **reterr)
{
	size_t o = 0, i = 0;

	if (!len || in[0] != '/') {
		*reterr = "relative path (only '.' may be relative)";
		return -EINVAL;
	}
	while (i < len) {
		size_t j;

		while (i < len && in[i] == '/')
			i++;
		for (j = i; j < len && in[j] != '/'; j++)
			;
		if (j - i == 1 && in[i] == '.') {
			i = j;
			continue;
		}
		if (j - i == 2 && in[i] == '.' && in[i + 1] == '.') {
			*reterr = "'..' in path";
			return -EINVAL;
		}
		if (j == i)
			break;
		if (o + 1 + (j - i) >= LANDLOCK_PATH_MAX) {
			*reterr = "path too long";
			return -EINVAL;
		}
		out[o++] = '/';
		memcpy(out + o, in + i, j - i);
		o += j - i;
		i = j;
	}
	if (!o)
		out[o++] = '/';
	out[o] = '\0';
	return 0;
}

/*
 * Append the n elements of items (size bytes each) to *array_ptr, which
 * holds *n_array: the last step of a path or port key, which adds all its
 * words or, on error, none (landlock_parse_key()). 0 or -ENOMEM, with the
 * array unchanged.
 */
static int append_all(void *array_ptr, size_t *n_array, const void *items, size_t n, size_t size)
{
	void **array = array_ptr;
	char *p = reallocarray(*array, *n_array + n, size);

	if (!p)
		return -ENOMEM;
	memcpy(p + *n_array * size, items, n * size);
	*array = p;
	*n_array += n;
	return 0;
}

static int parse_paths(struct landlock_config *c, enum landlock_set set, const char *value,
		       const struct src_loc *loc, const char **reterr, const char **ret_word,
		       int *ret_word_len)
{
	struct landlock_path_rule *nr = NULL, *slot;
	size_t n = 0, cap = 0;
	const char *w;
	char *buf = malloc(LANDLOCK_PATH_MAX);
	int len, r = -ENOMEM;

	if (!buf)
		goto out;
	while ((w = next_word(&value, false, &len))) {
		struct landlock_path_rule pr = { .set = set, .loc = *loc };
		int plen = len;

		*ret_word = w;
		*ret_word_len = len;
		if (w[plen - 1] == '?') {
			pr.optional = true;
			plen--;
		}
		if (plen == 1 && w[0] == '.') {
			strcpy(buf, ".");
		} else {
			r = path_normalize(w, (size_t)plen, buf, reterr);
			if (r < 0)
				goto out;
		}
		r = -EINVAL;
		if (c->n_paths + n >= LANDLOCK_PATHS_MAX) {
			*reterr = "too many paths (at most 4096)";
			goto out;
		}
		r = -ENOMEM;
		pr.path = strdup(buf);
		slot = pr.path ? array_push(&nr, &n, &cap, sizeof(*nr)) : NULL;
		if (!slot) {
			free(pr.path);
			goto out;
		}
		*slot = pr;
	}
	r = -EINVAL;
	if (!n) {
		*reterr = "no path given";
		goto out;
	}
	r = append_all(&c->paths, &c->n_paths, nr, n, sizeof(*nr));
	if (r >= 0)
		n = 0; /* the paths are c's now */
out:
	for (size_t i = 0; i < n; i++)
		free(nr[i].path);
	free(nr);
	free(buf);
	return r;
}

/* A decimal port number of len bytes. */
static int parse_port(const char *s, int len, uint16_t *ret, const char **reterr)
{
	unsigned long v = 0;

	if (!len) {
		*reterr = "bad port range";
		return -EINVAL;
	}
	for (int i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9') {
			*reterr = "not a port number";
			return -EINVAL;
		}
		v = v * 10 + (unsigned long)(s[i] - '0');
		if (v > 65535) {
			*reterr = "port out of range (0-65535)";
			return -EINVAL;
		}
	}
	*ret = (uint16_t)v;
	return 0;
}

static int parse_ports(struct landlock_config *c, uint64_t access, const char *value,
		       const struct src_loc *loc, const char **reterr, const char **ret_word,
		       int *ret_word_len)
{
	struct landlock_port_rule *nr = NULL, *slot;
	size_t n = 0, cap = 0, count = 0;
	const char *w;
	int len, r;

	while ((w = next_word(&value, false, &len))) {
		struct landlock_port_rule pr = { .access = access, .loc = *loc };
		const char *dash = memchr(w, '-', (size_t)len);

		*ret_word = w;
		*ret_word_len = len;
		if (!dash) {
			r = parse_port(w, len, &pr.lo, reterr);
			pr.hi = pr.lo;
		} else {
			int llen = (int)(dash - w);

			r = parse_port(w, llen, &pr.lo, reterr);
			if (r >= 0)
				r = parse_port(dash + 1, len - llen - 1, &pr.hi, reterr);
			if (r < 0 && !strcmp(*reterr, "not a port number") &&
			    memchr(dash + 1, '-', (size_t)(len - llen - 1)))
				*reterr = "bad port range";
			if (r >= 0 && pr.lo > pr.hi) {
				*reterr = "bad port range (first port above last)";
				r = -EINVAL;
			}
		}
		if (r < 0)
			goto out;
		count += (size_t)pr.hi - pr.lo + 1;
		if (c->n_port_numbers + count > LANDLOCK_PORTS_MAX) {
			*reterr = "too many ports";
			r = -EINVAL;
			goto out;
		}
		r = -ENOMEM;
		slot = array_push(&nr, &n, &cap, sizeof(*nr));
		if (!slot)
			goto out;
		*slot = pr;
	}
	r = -EINVAL;
	if (!n) {
		*reterr = "no port given";
		goto out;
	}
	r = append_all(&c->ports, &c->n_ports, nr, n, sizeof(*nr));
	if (r < 0)
		goto out;
	c->n_port_numbers += count;
	if (access == LANDLOCK_ACCESS_NET_BIND_TCP && !c->has_bind) {
		c->has_bind = true;
		c->bind_loc = *loc;
	} else if (access == LANDLOCK_ACCESS_NET_CONNECT_TCP && !c->has_connect) {
		c->has_connect = true;
		c->connect_loc = *loc;
	}
	r = 0;
out:
	free(nr);
	return r;
}

/*
 * 'none' and a scope contradict each other, also on different lines, since
 * scope lines add up (scmp-run.ini(5) LANDLOCK, Scope). The last two are
 * about an earlier line: landlock_parse_key_diag() adds a note there.
 */
static const char scope_none_with[] = "'none' cannot be combined with another scope:";
static const char scope_none_after[] =
	"'none' cannot follow a scope line that names a scope (scope lines add up):";
static const char scope_after_none[] = "a scope cannot follow 'scope = none' (scope lines add up):";

static int parse_scope(struct landlock_config *c, const char *value, const struct src_loc *loc,
		       const char **reterr, const char **ret_word, int *ret_word_len)
{
	const char *all = value, *w;
	uint64_t scoped = 0;
	bool none = false;
	int len;

	while ((w = next_word(&value, true, &len))) {
		*ret_word = w;
		*ret_word_len = len;
		if (word_is(w, len, "signal")) {
			scoped |= LANDLOCK_SCOPE_SIGNAL;
		} else if (word_is(w, len, "abstract-unix")) {
			scoped |= LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET;
		} else if (word_is(w, len, "none")) {
			none = true;
		} else {
			*reterr = "unknown scope (signal, abstract-unix, none)";
			return -EINVAL;
		}
	}
	if (!none && !scoped) {
		*reterr = "no scope given";
		*ret_word = value;
		*ret_word_len = 0;
		return -EINVAL;
	}
	*ret_word = all;
	*ret_word_len = (int)strlen(all);
	if (none && scoped) {
		*reterr = scope_none_with;
		return -EINVAL;
	}
	if (none && c->has_scope && c->scoped) {
		*reterr = scope_none_after;
		return -EINVAL;
	}
	if (c->has_scope && !c->scoped && scoped) {
		*reterr = scope_after_none;
		return -EINVAL;
	}
	if (!c->has_scope)
		c->scope_loc = *loc;
	c->has_scope = true;
	c->scoped |= scoped;
	return 0;
}

static int parse_mode(struct landlock_config *c, const char *value, const struct src_loc *loc,
		      const char **reterr, const char **ret_word, int *ret_word_len)
{
	static const struct {
		const char *name;
		enum landlock_mode mode;
	} modes[] = {
		{ "best-effort", LANDLOCK_MODE_BEST_EFFORT },
		{ "require", LANDLOCK_MODE_REQUIRE },
		{ "off", LANDLOCK_MODE_OFF },
	};
	const char *w, *rest = value;
	int len, extra;

	w = next_word(&rest, false, &len);
	*ret_word = value;
	*ret_word_len = (int)strlen(value);
	if (!w || next_word(&rest, false, &extra)) {
		*reterr = "mode takes one value (best-effort, require, off)";
		return -EINVAL;
	}
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (word_is(w, len, modes[i].name)) {
			c->mode = modes[i].mode;
			c->has_mode = true;
			c->mode_loc = *loc;
			return 0;
		}
	}
	*ret_word = w;
	*ret_word_len = len;
	*reterr = "unknown mode (best-effort, require, off)";
	return -EINVAL;
}

/* log = yes|no; a later line replaces (scmp-run.ini(5) LANDLOCK, Logging). */
static int parse_log(struct landlock_config *c, const char *value, const struct src_loc *loc,
		     const char **reterr, const char **ret_word, int *ret_word_len)
{
	bool v;

	*ret_word = value;
	*ret_word_len = (int)strlen(value);
	if (number_parse_bool(value, &v, reterr) < 0)
		return -EINVAL;
	c->log = v;
	c->log_loc = *loc;
	return 0;
}

int landlock_parse_key(struct landlock_config *c, const char *key, const char *value,
		       const struct src_loc *loc, const char **reterr, const char **ret_word,
		       int *ret_word_len)
{
	*reterr = NULL;
	*ret_word = key;
	*ret_word_len = (int)strlen(key);
	for (size_t i = 0; i < sizeof(path_keys) / sizeof(path_keys[0]); i++)
		if (!strcmp(key, path_keys[i].key))
			return parse_paths(c, path_keys[i].set, value, loc, reterr, ret_word,
					   ret_word_len);
	if (!strcmp(key, "bind-tcp"))
		return parse_ports(c, LANDLOCK_ACCESS_NET_BIND_TCP, value, loc, reterr, ret_word,
				   ret_word_len);
	if (!strcmp(key, "connect-tcp"))
		return parse_ports(c, LANDLOCK_ACCESS_NET_CONNECT_TCP, value, loc, reterr, ret_word,
				   ret_word_len);
	if (!strcmp(key, "scope"))
		return parse_scope(c, value, loc, reterr, ret_word, ret_word_len);
	if (!strcmp(key, "mode"))
		return parse_mode(c, value, loc, reterr, ret_word, ret_word_len);
	if (!strcmp(key, "log"))
		return parse_log(c, value, loc, reterr, ret_word, ret_word_len);
	*reterr = "unknown right";
	return -ENOENT;
}

int landlock_parse_key_diag(struct landlock_config *c, const char *key, const char *value,
			    const struct src_loc *loc, struct diag *d)
{
	const char *err, *word;
	int len, r = landlock_parse_key(c, key, value, loc, &err, &word, &len);

	if (r == -ENOENT) {
		static const char *const keys[] = { "read",    "read-exec", "write",
						    "devices", "bind-tcp",  "connect-tcp",
						    "scope",   "mode",	    "log" };
		struct suggest sg;

		diag_error(d, loc,
			   "unknown right '%s' in [landlock] (read, read-exec, write, devices, "
			   "bind-tcp, connect-tcp; also scope, mode, log)",
			   key);
		suggest_init(&sg, key);
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			suggest_offer(&sg, keys[i]);
		if (suggest_result(&sg))
			diag_hint(d, loc, "did you mean '%s'?", suggest_result(&sg));
	} else if (r == -EINVAL) {
		diag_error(d, loc, "%s: %s '%.*s'", key, err, len, word);
		/* c is unchanged: scope_loc is its first scope line, which
		 * named a scope, or 'none' */
		if (err == scope_none_after)
			diag_note(d, &c->scope_loc, "a scope is named here");
		else if (err == scope_after_none)
			diag_note(d, &c->scope_loc, "'scope = none' is here");
	}
	return r;
}

const struct src_loc *landlock_first_key(const struct landlock_config *c)
{
	if (c->mode == LANDLOCK_MODE_OFF)
		return NULL;
	if (c->n_paths)
		return &c->paths[0].loc;
	if (c->has_bind)
		return &c->bind_loc;
	if (c->has_connect)
		return &c->connect_loc;
	return c->has_scope ? &c->scope_loc : NULL;
}

/* ---- rights for an ABI (pure) ---- */

static int names_print(FILE *f, uint64_t bits, const char *const *names, size_t n_names)
{
	const char *sep = "";

	for (size_t i = 0; i < n_names; i++) {
		if (!(bits & ((uint64_t)1 << i)))
			continue;
		if (fprintf(f, "%s%s", sep, names[i]) < 0)
			return -EIO;
		sep = " ";
	}
	return 0;
}

/* bits as names (into a fixed buffer, for diagnostics) */
static const char *names_str(char *buf, size_t size, uint64_t bits, const char *const *names,
			     size_t n_names)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n_names && o < size; i++) {
		if (!(bits & ((uint64_t)1 << i)))
			continue;
		o += (size_t)snprintf(buf + o, size - o, "%s%s", o ? " " : "", names[i]);
	}
	return buf;
}

static void require_failed(struct diag *d, const struct landlock_config *c,
			   const struct src_loc *at, int abi, const char *what, int need_abi)
{
	if (abi)
		diag_error(d, at,
			   "landlock: %s needs Landlock ABI %d; the kernel has ABI %d "
			   "(mode = require)",
			   what, need_abi, abi);
	else
		diag_error(d, at,
			   "landlock: %s needs Landlock ABI %d; the kernel has no Landlock "
			   "(mode = require)",
			   what, need_abi);
	if (c->has_mode && at != &c->mode_loc)
		diag_note(d, &c->mode_loc, "mode = require is set here");
	if (!abi)
		diag_hint(d, NULL,
			  "Landlock needs Linux 5.13 built with CONFIG_SECURITY_LANDLOCK and "
			  "'landlock' in the lsm= boot parameter");
}

int landlock_rights_build(const struct landlock_config *c, int abi, struct diag *d,
			  struct landlock_rights *ret)
{
	uint64_t want_fs, want_net = 0, want_scoped;
	char buf[256];
	int r = 0;

	*ret = (struct landlock_rights){ .abi = abi, .fs_keys = c->n_paths > 0 };
	if (abi < 0)
		return -EINVAL;
	if (c->mode == LANDLOCK_MODE_OFF)
		return 0;
	/* With no path key, make-block alone: a domain always exists. */
	want_fs = c->n_paths ? FS_ALL : LANDLOCK_ACCESS_FS_MAKE_BLOCK;
	if (c->has_bind)
		want_net |= LANDLOCK_ACCESS_NET_BIND_TCP;
	if (c->has_connect)
		want_net |= LANDLOCK_ACCESS_NET_CONNECT_TCP;
	want_scoped = c->has_scope ? c->scoped : LANDLOCK_SCOPE_SIGNAL;

	ret->fs = want_fs & abi_fs(abi);
	ret->net = want_net & abi_net(abi);
	ret->scoped = want_scoped & abi_scoped(abi);
	ret->drop_fs = want_fs & ~ret->fs;
	ret->drop_net = want_net & ~ret->net;
	ret->drop_scoped = want_scoped & ~ret->scoped;
	ret->domain = ret->fs || ret->net || ret->scoped;
	/* Denials after execve(2), the command's, are not logged unless asked
	 * (landlock_restrict_self(2), ABI 7). */
	if (c->log && abi >= 7)
		ret->restrict_flags = LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON;
	ret->drop_log = c->log && abi < 7;
	if (c->mode != LANDLOCK_MODE_REQUIRE)
		return 0;

	if (ret->drop_fs) {
		int need = 1;

		for (unsigned b = 0; b < 64; b++)
			if (ret->drop_fs & ((uint64_t)1 << b) && fs_bit_abi(b) > need)
				need = fs_bit_abi(b);
		snprintf(buf, sizeof(buf), "filesystem right %s",
			 names_str((char[160]){ 0 }, 160, ret->drop_fs, fs_names, 16));
		require_failed(d, c, c->n_paths ? &c->paths[0].loc : &c->mode_loc, abi, buf, need);
		r = -EOPNOTSUPP;
	}
	if (ret->drop_net & LANDLOCK_ACCESS_NET_BIND_TCP) {
		require_failed(d, c, &c->bind_loc, abi, "bind-tcp", 4);
		r = -EOPNOTSUPP;
	}
	if (ret->drop_net & LANDLOCK_ACCESS_NET_CONNECT_TCP) {
		require_failed(d, c, &c->connect_loc, abi, "connect-tcp", 4);
		r = -EOPNOTSUPP;
	}
	if (ret->drop_scoped) {
		snprintf(buf, sizeof(buf), "scope %s",
			 names_str((char[64]){ 0 }, 64, ret->drop_scoped, scope_names, 2));
		require_failed(d, c, c->has_scope ? &c->scope_loc : &c->mode_loc, abi, buf, 6);
		r = -EOPNOTSUPP;
	}
	if (ret->drop_log) {
		require_failed(d, c, &c->log_loc, abi, "log", 7);
		r = -EOPNOTSUPP;
	}
	return r;
}

/* ---- the kernel ---- */

int landlock_abi_probe(void)
{
	long v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

	if (v >= 0)
		return (int)v;
	if (errno == ENOSYS || errno == EOPNOTSUPP)
		return 0;
	return -errno;
}

int landlock_abi_for(const struct landlock_config *c)
{
	int abi = landlock_abi_probe();

	return c->abi_max > 0 && abi > c->abi_max ? c->abi_max : abi;
}

int landlock_rights_probed(const struct landlock_config *c, int abi, struct diag *d,
			   struct landlock_rights *ret)
{
	int r = landlock_rights_build(c, abi < 0 ? 0 : abi, d, ret);

	ret->probe_err = abi < 0 ? -abi : 0;
	return r;
}

static const char *errno_name(int err)
{
	const char *n = strerrorname_np(err);

	return n ? n : "unknown errno";
}

static int step_failed(struct diag *d, const struct src_loc *loc, const char *step,
		       const char *path, int err)
{
	if (path)
		diag_error(d, loc, "landlock: %s '%s' failed: %s (%s)", step, path, strerror(err),
			   errno_name(err));
	else
		diag_error(d, loc, "landlock: %s failed: %s (%s)", step, strerror(err),
			   errno_name(err));
	return -err;
}

/* landlock_add_rule(2) of a path-beneath rule; 0 or an errno value. */
static int add_beneath(int ruleset_fd, const struct landlock_path_beneath_attr *attr)
{
	return syscall(SYS_landlock_add_rule, ruleset_fd, LANDLOCK_RULE_PATH_BENEATH, attr, 0) < 0
		       ? errno
		       : 0;
}

/*
 * The O_PATH descriptors of the path rules, held until their rules are
 * added and then closed together: one close_range(2) per run of
 * consecutive numbers costs about what one close(2) does, and a system
 * call is most of what a rule costs (docs/performance.md).
 */
#define HELD_MAX 64

struct held_fds {
	int fd[HELD_MAX];
	size_t n;
};

static void held_close(struct held_fds *h)
{
	size_t first = 0;

	for (size_t i = 1; i <= h->n; i++) {
		if (i < h->n && h->fd[i] == h->fd[i - 1] + 1)
			continue;
		/* A kernel or filter without close_range: one by one. */
		if (close_range((unsigned)h->fd[first], (unsigned)h->fd[i - 1], 0) < 0)
			for (size_t j = first; j < i; j++)
				close(h->fd[j]);
		first = i;
	}
	h->n = 0;
}

/*
 * The directories of the paths whose key makes symbolic links, by identity
 * (st_dev, st_ino): below one, the command may have put a link in the
 * place of a directory or of a missing path on an earlier run, and a rule
 * that followed it would grant what the link leads to. Which directory a
 * rule path reaches is what counts, not how it is spelled (scmp-run.ini(5)
 * LANDLOCK, Paths).
 */
struct landlock_link_dirs {
	size_t n;
	bool root;	 /* "/" is one: every link is below it */
	dev_t root_dev;	 /* the file system of "/": known when links are looked at */
	bool proc_asked; /* /proc was looked at: proc_dev is known if has_proc */
	bool has_proc;
	dev_t proc_dev;
	bool openat2_works; /* an openat2 succeeded: an EPERM from it is the path's */
	bool no_openat2;    /* openat2 is missing or refused: one component at a time */
	struct link_dir {
		dev_t dev;
		ino_t ino;
	} id[];
};

static bool link_dirs_has(const struct landlock_link_dirs *ld, const struct stat *st)
{
	for (size_t i = 0; i < ld->n; i++)
		if (ld->id[i].dev == st->st_dev && ld->id[i].ino == st->st_ino)
			return true;
	return false;
}

int landlock_link_dirs_new(const struct landlock_config *c, struct landlock_link_dirs **ret)
{
	struct landlock_link_dirs *ld = calloc(1, sizeof(*ld) + c->n_paths * sizeof(ld->id[0]));
	struct stat st;

	if (!ld)
		return -ENOMEM;
	for (size_t i = 0; i < c->n_paths; i++) {
		/* A path that cannot be looked up now is no directory to
		 * guard: its own rule fails, or is skipped, when opened. */
		if (!(set_rights(c->paths[i].set) & LANDLOCK_ACCESS_FS_MAKE_SYM) ||
		    stat(c->paths[i].path, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		ld->id[ld->n++] = (struct link_dir){ .dev = st.st_dev, .ino = st.st_ino };
	}
	/* "/" that cannot be told apart counts as one: no link is followed */
	ld->root = ld->n && (stat("/", &st) < 0 || link_dirs_has(ld, &st));
	if (ld->n && !ld->root)
		ld->root_dev = st.st_dev;
	*ret = ld;
	return 0;
}

void landlock_link_dirs_free(struct landlock_link_dirs *ld)
{
	free(ld);
}

/* openat2(2) of path, O_PATH, following no link: a descriptor or -errno. */
static int openat2_path(const char *path)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS };
	int fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));

	return fd < 0 ? -errno : fd;
}

/*
 * Whether openat2(2) itself is refused, asked after it failed with EPERM:
 * an outer seccomp filter may answer a call it does not know with EPERM
 * rather than ENOSYS (scmp-run.ini(5) LANDLOCK, Paths). "/" is no link
 * and can always be looked up, so openat2 of "/" with the same arguments
 * tells a refused call from a refused path; once it worked, it is not
 * asked again.
 */
static bool openat2_refused(struct landlock_link_dirs *ld)
{
	int fd;

	if (ld->openat2_works)
		return false;
	fd = openat2_path("/");
	if (fd >= 0) {
		close(fd);
		ld->openat2_works = true;
	}
	return fd == -EPERM;
}

/*
 * openat2(2) of path with RESOLVE_NO_SYMLINKS: the descriptor, or a
 * negative errno; -ENOSYS, with no call once known, where openat2 cannot
 * be used: the kernel lacks it, or a filter refuses it with ENOSYS or
 * EPERM. The caller then goes one component at a time (open_no_links).
 */
static int openat2_no_links(struct landlock_link_dirs *ld, const char *path)
{
	int fd;

	if (ld->no_openat2)
		return -ENOSYS;
	fd = openat2_path(path);
	if (fd >= 0)
		ld->openat2_works = true;
	else if (fd == -ENOSYS || (fd == -EPERM && openat2_refused(ld)))
		ld->no_openat2 = true;
	return ld->no_openat2 ? -ENOSYS : fd;
}

/*
 * A rule path resolved one component at a time: done is the part resolved,
 * with no link in it, todo what is left, each link's target put in front
 * of it (path-walk.h).
 */
struct walk {
	struct landlock_link_dirs *ld;
	bool inside; /* done is at or below a directory of ld */
	unsigned links;
	char *cursor; /* into todo */
	char done[LANDLOCK_PATH_MAX];
	char todo[LANDLOCK_PATH_MAX];
	char link[LANDLOCK_PATH_MAX];
	char name[NAME_MAX + 1];
};

/*
 * Whether a link (st, from lstat) is on /proc, where a link may lead where
 * no path does (a pipe, a deleted file). A link on the file system of "/"
 * is not: "/" would have to be a proc file system, which holds no program
 * to launch or to run. Otherwise /proc is looked at once per ld, when a
 * walk first ends at such a link.
 */
static bool link_in_proc(struct landlock_link_dirs *ld, const struct stat *st)
{
	struct statfs sf;
	struct stat ps;

	if (st->st_dev == ld->root_dev)
		return false;
	if (!ld->proc_asked) {
		ld->proc_asked = true;
		ld->has_proc = statfs("/proc", &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC &&
			       stat("/proc", &ps) == 0;
		ld->proc_dev = ld->has_proc ? ps.st_dev : 0;
	}
	return ld->has_proc && st->st_dev == ld->proc_dev;
}

/* Put the target of the link that ends w->done in front of what is left,
 * and go back to the link's directory (to "/" for an absolute target). */
static int walk_follow(struct walk *w)
{
	ssize_t n = readlink(w->done, w->link, sizeof(w->link));

	if (n < 0)
		return -errno;
	if (n == (ssize_t)sizeof(w->link))
		return -ENAMETOOLONG;
	if (w->link[0] == '/')
		strcpy(w->done, "/");
	else
		path_walk_step(w->done, sizeof(w->done), "..");
	return path_walk_follow(w->todo, sizeof(w->todo), &w->cursor, w->link, (size_t)n);
}

/*
 * After a link above every directory of ld is followed: the whole path now
 * reached (w->done, then what is left) opened at once, following no link.
 * When that works no link is left on the way, and what it opened is what
 * the walk would reach, one call instead of one per component left; when
 * it fails (ELOOP for a link further on, or any other error) the walk goes
 * on and decides, as without this try. The descriptor in *ret_fd when it
 * worked.
 */
static void walk_retry(struct walk *w, int *ret_fd)
{
	size_t n = (size_t)snprintf(w->link, sizeof(w->link), "%s/%s", w->done[1] ? w->done : "",
				    w->cursor);
	int fd;

	if (n >= sizeof(w->link))
		return;
	/* as for the walk, which skips empty components, a '/' at the end
	 * (the one put after the link's target) asks for no directory */
	while (n > 1 && w->link[n - 1] == '/')
		w->link[--n] = '\0';
	fd = openat2_no_links(w->ld, w->link);
	if (fd >= 0)
		*ret_fd = fd;
}

/*
 * The component in w->name: 0 to go on, or a negative errno, or a
 * descriptor in *ret_fd when the walk ends early: at a /proc link, or
 * where what is left has no link (walk_retry).
 */
static int walk_step(struct walk *w, int *ret_fd)
{
	bool up = !strcmp(w->name, "..");
	struct stat st;
	int r = path_walk_step(w->done, sizeof(w->done), w->name);

	/* ".." comes from a link's target only (rule paths have none) and
	 * leads to a directory already looked at */
	if (r < 0 || up)
		return r;
	/* below a directory of ld, the final open refuses any link */
	if (w->inside)
		return 0;
	if (lstat(w->done, &st) < 0)
		return -errno;
	if (!S_ISLNK(st.st_mode)) {
		w->inside |= S_ISDIR(st.st_mode) && link_dirs_has(w->ld, &st);
		return 0;
	}
	if (++w->links > PATH_WALK_LINKS_MAX)
		return -ELOOP;
	/* A /proc link at the end (/dev/stdout leads to /proc/self/fd/1)
	 * may lead where no path does: the kernel follows it, as open(2)
	 * would. Nothing is looked up below what it leads to. */
	if (!w->cursor[strspn(w->cursor, "/")] && link_in_proc(w->ld, &st)) {
		*ret_fd = open(w->done, O_PATH | O_CLOEXEC);
		return *ret_fd < 0 ? -errno : 0;
	}
	r = walk_follow(w);
	if (r == 0)
		walk_retry(w, ret_fd);
	return r;
}

/*
 * openat2(2) RESOLVE_NO_SYMLINKS without openat2: path (absolute, with no
 * "..", as a walk leaves it) opened one component at a time below the
 * descriptor of the one before, with O_NOFOLLOW, a link refused with
 * ELOOP. Looking at each component by its path and then opening the whole
 * path would follow a directory that a running command replaced with a
 * link meanwhile; a held descriptor cannot be redirected. The descriptor,
 * or a negative errno.
 */
static int open_no_links(char *path)
{
	char name[NAME_MAX + 1];
	int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), r;

	if (fd < 0)
		return -errno;
	while ((r = path_walk_next(&path, name)) > 0) {
		int next = openat(fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;

		r = next < 0 || fstat(next, &st) < 0 ? -errno : S_ISLNK(st.st_mode) ? -ELOOP : 0;
		close(fd);
		fd = next;
		if (r < 0)
			break;
	}
	if (r < 0 && fd >= 0)
		close(fd);
	return r < 0 ? r : fd;
}

/* Open w->done, where the walk ended, following no link. */
static int walk_open_done(struct walk *w, bool *ret_planted)
{
	int fd = openat2_no_links(w->ld, w->done);

	if (fd == -ENOSYS)
		fd = open_no_links(w->done);
	*ret_planted = fd == -ELOOP && w->inside;
	return fd;
}

/*
 * open_rule_path() of an absolute path with a link on the way: each
 * component is looked up without following links (lstat(2)) until a
 * directory of ld is reached; a link before that is followed by putting
 * its target in front of the rest. The path reached is opened following
 * no link, with openat2(2) RESOLVE_NO_SYMLINKS or, without openat2
 * (openat2_no_links), one component at a time: a link below a directory
 * of ld, made before or meanwhile, is refused with ELOOP (*ret_planted
 * set).
 */
static int walk_open(struct landlock_link_dirs *ld, const char *path, bool *ret_planted)
{
	struct walk *w = malloc(sizeof(*w));
	int fd = -1, r = 0;

	if (!w)
		return -ENOMEM;
	w->ld = ld;
	w->inside = ld->root;
	w->links = 0;
	strcpy(w->done, "/");
	snprintf(w->todo, sizeof(w->todo), "%s", path);
	w->cursor = w->todo;
	while (r >= 0 && fd < 0 && (r = path_walk_next(&w->cursor, w->name)) > 0)
		r = walk_step(w, &fd);
	if (r >= 0)
		r = fd >= 0 ? fd : walk_open_done(w, ret_planted);
	free(w);
	return r;
}

/*
 * open(path, O_PATH | O_CLOEXEC) for a rule, or -errno. Below a directory
 * of ld no symbolic link is followed: one there fails with ELOOP, and
 * *ret_planted is set (scmp-run.ini(5) LANDLOCK, Paths). Without ld ('.'
 * is not looked up) this is one open(2); with it, a path with no link on
 * the way is one openat2(2), and only one with a link, or every one where
 * openat2 cannot be used, is walked.
 */
static int open_rule_path(struct landlock_link_dirs *ld, const char *path, bool *ret_planted)
{
	int fd;

	*ret_planted = false;
	if (!ld || !ld->n || path[0] != '/') {
		fd = open(path, O_PATH | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	fd = openat2_no_links(ld, path);
	if (fd >= 0 || (fd != -ELOOP && fd != -ENOSYS))
		return fd;
	return walk_open(ld, path, ret_planted);
}

/*
 * open_rule_path() into h. When h is full, or the open-files limit is
 * reached while h holds descriptors, h is closed first: a low [limits]
 * open-files needs no more than one descriptor at a time.
 */
static int held_open(struct held_fds *h, struct landlock_link_dirs *ld, const char *path,
		     bool *ret_planted)
{
	int fd;

	if (h->n == HELD_MAX)
		held_close(h);
	fd = open_rule_path(ld, path, ret_planted);
	if (fd == -EMFILE && h->n) {
		held_close(h);
		fd = open_rule_path(ld, path, ret_planted);
	}
	if (fd < 0)
		return fd;
	h->fd[h->n++] = fd;
	return fd;
}

/* A path whose open failed with err that run mode skips: an optional
 * path that does not exist (scmp-run.ini(5) LANDLOCK, Paths). */
static bool path_skipped(const struct landlock_path_rule *pr, int err)
{
	return pr->optional && (err == ENOENT || err == ENOTDIR);
}

const char landlock_no_rule_hint[] =
	"Landlock takes no rule on a pipe, a socket or a namespace file (an internal "
	"filesystem); /dev/stdin, /dev/stdout and /dev/stderr lead to one when redirected";

/*
 * Whether the kernel takes a rule on fd: not on a pipe, socket or
 * namespace file, which it refuses with EBADFD (landlock_add_rule(2)). Asked
 * of a scratch ruleset; 0 when there is no Landlock to ask.
 */
static int rule_check(int fd)
{
	struct landlock_ruleset_attr attr = { .handled_access_fs = LANDLOCK_ACCESS_FS_READ_FILE };
	struct landlock_path_beneath_attr pb = { .allowed_access = LANDLOCK_ACCESS_FS_READ_FILE,
						 .parent_fd = fd };
	long rs = syscall(SYS_landlock_create_ruleset, &attr,
			  offsetof(struct landlock_ruleset_attr, handled_access_net), 0);
	int err;

	if (rs < 0)
		return 0;
	err = add_beneath((int)rs, &pb);
	close((int)rs);
	return err == EBADFD ? -EBADFD : 0;
}

const char landlock_link_hint[] =
	"below a path the command may make symbolic links in, none is followed: the "
	"command may have made it on an earlier run; name the path the link leads to";

int landlock_path_check(struct landlock_link_dirs *ld, const struct landlock_path_rule *pr,
			bool *ret_planted)
{
	int fd, r;

	fd = open_rule_path(ld, pr->path, ret_planted);
	if (fd < 0)
		return path_skipped(pr, -fd) ? 0 : fd;
	r = rule_check(fd);
	close(fd);
	return r;
}

/*
 * One path rule: open (O_PATH, held in h), add. A rule on a file may carry
 * only the file rights: the kernel refuses the directory rights on a
 * non-directory with EINVAL (landlock_add_rule(2)). Rather than fstat()
 * every path, the rule is added with every right of its set, and only on
 * EINVAL again with the file rights: a directory (the common case) and a
 * set of file rights alone (devices) cost one call less. A directory
 * refused with EINVAL for another reason gets fewer rights, never more.
 */
static int add_path(struct landlock_link_dirs *ld, const struct landlock_path_rule *pr,
		    int ruleset_fd, uint64_t handled, struct held_fds *h, struct diag *d,
		    struct landlock_plan *plan)
{
	struct landlock_path_beneath_attr attr = { .allowed_access =
							   set_rights(pr->set) & handled };
	bool planted;
	int fd, err, r;

	fd = held_open(h, ld, pr->path, &planted);
	if (fd < 0) {
		r = -fd;
		if (path_skipped(pr, r)) {
			plan->n_missing++;
			return 0;
		}
		r = step_failed(d, &pr->loc, "opening", pr->path, r);
		if (r == -ENOENT)
			diag_hint(d, &pr->loc, "write '%s?' for a path that may be missing",
				  pr->path);
		else if (r == -ELOOP && planted)
			diag_hint(d, &pr->loc, "%s", landlock_link_hint);
		return r;
	}
	if (!attr.allowed_access)
		return 0;
	attr.parent_fd = fd;
	err = add_beneath(ruleset_fd, &attr);
	if (err == EINVAL && (attr.allowed_access & ~(uint64_t)LANDLOCK_ACCESS_FS_FILE)) {
		attr.allowed_access &= LANDLOCK_ACCESS_FS_FILE;
		if (!attr.allowed_access)
			return 0;
		err = add_beneath(ruleset_fd, &attr);
	}
	if (err) {
		r = step_failed(d, &pr->loc, "adding the rule for", pr->path, err);
		if (err == EBADFD)
			diag_hint(d, &pr->loc, "%s", landlock_no_rule_hint);
		return r;
	}
	plan->n_path_rules++;
	return 0;
}

static int add_ports(const struct landlock_port_rule *pr, int ruleset_fd, uint64_t handled,
		     struct diag *d, struct landlock_plan *plan)
{
	struct landlock_net_port_attr attr = { .allowed_access = pr->access & handled };

	if (!attr.allowed_access)
		return 0; /* dropped (best-effort) */
	for (uint32_t p = pr->lo; p <= pr->hi; p++) {
		attr.port = p;
		if (syscall(SYS_landlock_add_rule, ruleset_fd, LANDLOCK_RULE_NET_PORT, &attr, 0) <
		    0)
			return step_failed(d, &pr->loc, "adding a port rule", NULL, errno);
		plan->n_port_numbers++;
	}
	return 0;
}

int landlock_prepare(const struct landlock_config *c, int abi, struct diag *d,
		     struct landlock_plan *ret)
{
	struct landlock_ruleset_attr attr;
	struct held_fds held = { .n = 0 };
	struct landlock_link_dirs *ld = NULL;
	size_t size;
	long fd;
	int r;

	*ret = (struct landlock_plan){ .ruleset_fd = -1 };
	r = landlock_rights_build(c, abi, d, &ret->rights);
	if (r < 0 || c->mode == LANDLOCK_MODE_OFF)
		return r;
	/* Without a domain (best-effort, no Landlock) the paths are still
	 * opened: a missing one is an error on every kernel (scmp-run.ini(5)
	 * LANDLOCK, Paths). Nothing is handled, so no rule is added. */
	if (ret->rights.domain) {
		attr = (struct landlock_ruleset_attr){
			.handled_access_fs = ret->rights.fs,
			.handled_access_net = ret->rights.net,
			.scoped = ret->rights.scoped,
		};
		/* The struct grew with ABI 4 (net) and 6 (scoped); older
		 * kernels take the prefix they know. */
		size = abi >= 6	  ? sizeof(attr)
		       : abi >= 4 ? offsetof(struct landlock_ruleset_attr, scoped)
				  : offsetof(struct landlock_ruleset_attr, handled_access_net);
		fd = syscall(SYS_landlock_create_ruleset, &attr, size, 0);
		if (fd < 0)
			return step_failed(d, NULL, "creating the ruleset", NULL, errno);
		ret->ruleset_fd = (int)fd;
	}
	r = landlock_link_dirs_new(c, &ld);
	if (r < 0) {
		step_failed(d, NULL, "finding the directories of the write paths", NULL, -r);
		goto fail;
	}
	for (size_t i = 0; i < c->n_paths; i++) {
		r = add_path(ld, &c->paths[i], ret->ruleset_fd, ret->rights.fs, &held, d, ret);
		if (r < 0)
			goto fail;
	}
	held_close(&held);
	for (size_t i = 0; i < c->n_ports; i++) {
		r = add_ports(&c->ports[i], ret->ruleset_fd, ret->rights.net, d, ret);
		if (r < 0)
			goto fail;
	}
	landlock_link_dirs_free(ld);
	return 0;
fail:
	landlock_link_dirs_free(ld);
	held_close(&held);
	landlock_plan_close(ret);
	return r;
}

/*
 * Whether landlock_restrict_self() answers as the kernel does: with no
 * ruleset (-1) it fails with EBADF. An outer seccomp filter that returns
 * errno 0 for it fakes success for every call, ours too, and the command
 * would run without its domain (scmp-run.ini(5) LANDLOCK, Mode and kernel
 * versions). Any other failure is the real call's to report.
 */
static int restrict_self_genuine(struct diag *d)
{
	if (syscall(SYS_landlock_restrict_self, -1, 0) != 0)
		return 0;
	diag_error(d, NULL,
		   "entering the Landlock domain cannot be trusted: landlock_restrict_self() "
		   "succeeded without a ruleset, so an outer seccomp filter answers it in the "
		   "kernel's place");
	diag_hint(d, NULL,
		  "the sandbox that starts scmp-run must let landlock_restrict_self() through, "
		  "or deny it with an error");
	return -EPERM;
}

int landlock_enforce(struct landlock_plan *p, struct diag *d)
{
	int r = 0;

	if (p->ruleset_fd < 0)
		return 0;
	r = restrict_self_genuine(d);
	if (r < 0) {
		landlock_plan_close(p);
		return r;
	}
	if (syscall(SYS_landlock_restrict_self, p->ruleset_fd, p->rights.restrict_flags) < 0) {
		int err = errno;

		r = step_failed(d, NULL, "entering the domain (landlock_restrict_self)", NULL, err);
		if (err == EPERM)
			diag_hint(d, NULL,
				  "entering a Landlock domain needs no_new_privs or "
				  "CAP_SYS_ADMIN");
		else if (err == E2BIG)
			diag_hint(d, NULL,
				  "the process is already in 16 stacked Landlock domains, the "
				  "kernel's limit");
	}
	landlock_plan_close(p);
	return r;
}

void landlock_plan_close(struct landlock_plan *p)
{
	if (p->ruleset_fd >= 0)
		close(p->ruleset_fd);
	p->ruleset_fd = -1;
}

/* ---- report ---- */

static const char *mode_name(enum landlock_mode m)
{
	switch (m) {
	case LANDLOCK_MODE_REQUIRE:
		return "require";
	case LANDLOCK_MODE_OFF:
		return "off";
	case LANDLOCK_MODE_BEST_EFFORT:
		break;
	}
	return "best-effort";
}

static int ports_print(const struct landlock_config *c, uint64_t access, FILE *f)
{
	for (size_t i = 0; i < c->n_ports; i++) {
		const struct landlock_port_rule *pr = &c->ports[i];
		int n;

		if (pr->access != access)
			continue;
		n = pr->lo == pr->hi ? fprintf(f, " %u", pr->lo)
				     : fprintf(f, " %u-%u", pr->lo, pr->hi);
		if (n < 0)
			return -EIO;
	}
	return 0;
}

static int report_net(const struct landlock_config *c, const struct landlock_rights *r,
		      uint64_t access, const char *key, const char *prefix, FILE *f)
{
	bool on = access == LANDLOCK_ACCESS_NET_BIND_TCP ? c->has_bind : c->has_connect;

	if (!on)
		return fprintf(f, "%s%s: not restricted\n", prefix, key) < 0 ? -EIO : 0;
	if (r->drop_net & access)
		return fprintf(f,
			       "%s%s: dropped, the kernel lacks it (needs ABI 4); not restricted\n",
			       prefix, key) < 0
			       ? -EIO
			       : 0;
	if (fprintf(f, "%s%s: only ports", prefix, key) < 0 || ports_print(c, access, f) < 0 ||
	    fputc('\n', f) == EOF)
		return -EIO;
	/* listen(2) binds a socket never bound itself, asking Landlock
	 * nothing (scmp-run.ini(5) LANDLOCK, Network) */
	if (access == LANDLOCK_ACCESS_NET_BIND_TCP &&
	    fprintf(f,
		    "%sbind-tcp: listening on a socket never bound is not restricted (the kernel "
		    "picks a port without bind)\n",
		    prefix) < 0)
		return -EIO;
	return 0;
}

int landlock_report(const struct landlock_config *c, const struct landlock_rights *r,
		    const struct landlock_plan *plan, const char *prefix, FILE *f)
{
	int e = 0;

	if (r->abi)
		e |= fprintf(f, "%skernel: Landlock ABI %d\n", prefix, r->abi) < 0;
	else if (r->probe_err)
		e |= fprintf(f, "%skernel: asking for the Landlock ABI failed: %s\n", prefix,
			     strerror(r->probe_err)) < 0;
	else
		e |= fprintf(f, "%skernel: no Landlock\n", prefix) < 0;
	e |= fprintf(f, "%smode: %s\n", prefix, mode_name(c->mode)) < 0;
	if (c->mode == LANDLOCK_MODE_OFF || !r->domain) {
		e |= fprintf(f,
			     "%sno domain: paths, ports, ptrace and signals are not restricted\n",
			     prefix) < 0;
		return e ? -EIO : 0;
	}
	if (r->fs_keys) {
		e |= fprintf(f, "%sfilesystem: only the listed paths (%zu); handled: ", prefix,
			     c->n_paths) < 0;
		e |= names_print(f, r->fs, fs_names, 16) < 0;
		e |= fputc('\n', f) == EOF;
		/* connect(2) resolves the path but asks for no Landlock right */
		e |= fprintf(f,
			     "%sfilesystem: connecting to a Unix socket by its path is not "
			     "restricted (no Landlock right covers it)\n",
			     prefix) < 0;
		/* execute is asked by execve(2) only: ld.so and dlopen(3) map
		 * what they may read (scmp-run.ini(5) LANDLOCK, Rights) */
		e |= fprintf(f,
			     "%sfilesystem: mapping a file executable is not restricted (execute "
			     "confines execve alone: a loader runs what it may read)\n",
			     prefix) < 0;
	} else {
		e |= fprintf(f,
			     "%sfilesystem: not restricted (no path key; make-block is handled "
			     "so that a domain exists)\n",
			     prefix) < 0;
	}
	if (r->drop_fs & ~(uint64_t)LANDLOCK_ACCESS_FS_REFER) {
		e |= fprintf(f, "%sfilesystem: dropped, the kernel lacks them: ", prefix) < 0;
		e |= names_print(f, r->drop_fs & ~(uint64_t)LANDLOCK_ACCESS_FS_REFER, fs_names,
				 16) < 0;
		e |= fputc('\n', f) == EOF;
	}
	/* Not "dropped", which means not restricted: before refer existed
	 * (ABI 2), a domain that handles any filesystem right denies every
	 * rename and link across directories (scmp-run.ini(5) LANDLOCK, Mode
	 * and kernel versions), with or without a path key. */
	if (r->fs && !(abi_fs(r->abi) & LANDLOCK_ACCESS_FS_REFER))
		e |= fprintf(f,
			     "%sfilesystem: refer is always denied on ABI 1 (no rename or link "
			     "across directories)\n",
			     prefix) < 0;
	e |= report_net(c, r, LANDLOCK_ACCESS_NET_BIND_TCP, "bind-tcp", prefix, f) < 0;
	e |= report_net(c, r, LANDLOCK_ACCESS_NET_CONNECT_TCP, "connect-tcp", prefix, f) < 0;
	e |= fprintf(f, "%sscope: ", prefix) < 0;
	if (r->scoped)
		e |= names_print(f, r->scoped, scope_names, 2) < 0;
	else
		e |= fputs("none", f) == EOF;
	e |= fputc('\n', f) == EOF;
	if (r->drop_scoped) {
		e |= fprintf(f, "%sscope: dropped, the kernel lacks them (needs ABI 6): ", prefix) <
		     0;
		e |= names_print(f, r->drop_scoped, scope_names, 2) < 0;
		e |= fputc('\n', f) == EOF;
	}
	if (c->log)
		e |= fprintf(f, "%slog: %s\n", prefix,
			     r->drop_log ? "dropped, the kernel lacks it (needs ABI 7)"
					 : "denials of the command are logged (audit)") < 0;
	e |= fprintf(f, "%sptrace and /proc/PID/mem of processes outside the domain: denied\n",
		     prefix) < 0;
	if (plan)
		e |= fprintf(f,
			     "%sruleset: %zu path rules, %zu optional paths missing, %zu port "
			     "rules\n",
			     prefix, plan->n_path_rules, plan->n_missing, plan->n_port_numbers) < 0;
	return e ? -EIO : 0;
}

/* ---- explain (pure) ---- */

int landlock_access_parse(const char *s, enum landlock_access *ret)
{
	static const char *const names[] = { "read", "write", "exec" };

	for (int i = 0; i < 3; i++) {
		if (!strcmp(s, names[i])) {
			*ret = (enum landlock_access)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *landlock_access_name(enum landlock_access a)
{
	switch (a) {
	case LANDLOCK_ACCESS_WRITE:
		return "write";
	case LANDLOCK_ACCESS_EXEC:
		return "exec";
	case LANDLOCK_ACCESS_READ:
		break;
	}
	return "read";
}

/*
 * The rights access a to a path of kind needs (scmp-run.ini(5) LANDLOCK,
 * "Explaining a path"). Writing where nothing is creates a regular file:
 * make-reg on the directory, then write-file to open it. open(2) with
 * O_TRUNC truncates only a regular file that it did not create, so only
 * then is truncate checked too.
 */
static void needs_of(enum landlock_kind kind, enum landlock_access a,
		     struct landlock_explanation *e)
{
	*e = (struct landlock_explanation){ .n_needs = 1 };
	if (a == LANDLOCK_ACCESS_EXEC) {
		e->needs[0].right = LANDLOCK_ACCESS_FS_EXECUTE;
	} else if (a == LANDLOCK_ACCESS_READ) {
		e->needs[0].right = kind == LANDLOCK_KIND_DIR ? LANDLOCK_ACCESS_FS_READ_DIR
							      : LANDLOCK_ACCESS_FS_READ_FILE;
	} else if (kind == LANDLOCK_KIND_REG || kind == LANDLOCK_KIND_OTHER) {
		e->needs[0].right = LANDLOCK_ACCESS_FS_WRITE_FILE;
		if (kind == LANDLOCK_KIND_REG)
			e->truncate.right = LANDLOCK_ACCESS_FS_TRUNCATE;
	} else {
		e->needs[0].right = LANDLOCK_ACCESS_FS_MAKE_REG;
		e->needs[1].right = LANDLOCK_ACCESS_FS_WRITE_FILE;
		e->n_needs = 2;
		e->in_parent = kind == LANDLOCK_KIND_MISSING;
	}
}

/* rule (normalised) covers path: the same path or an ancestor of it. */
static size_t covers(const char *rule, const char *path)
{
	size_t n = strlen(rule);

	if (!strcmp(rule, "/"))
		return 1;
	if (strncmp(rule, path, n) || (path[n] && path[n] != '/'))
		return 0;
	return n;
}

/*
 * The rule on target or on its nearest listed ancestor that grants right,
 * the first line of several on one path; NULL when none does. dot is what
 * '.' stands for (NULL: '.' matches nothing). *covered is set when any rule
 * is on target or above it, whatever it grants.
 */
static const struct landlock_path_rule *decide(const struct landlock_config *c, const char *dot,
					       const char *target, uint64_t right, bool *covered)
{
	const struct landlock_path_rule *best = NULL;
	size_t best_len = 0;

	for (size_t i = 0; i < c->n_paths; i++) {
		const struct landlock_path_rule *pr = &c->paths[i];
		const char *rp = strcmp(pr->path, ".") ? pr->path : dot;
		size_t n = rp ? covers(rp, target) : 0;

		if (!n)
			continue;
		*covered = true;
		if ((set_rights(pr->set) & right) && n > best_len) {
			best_len = n;
			best = pr;
		}
	}
	return best;
}

/* The directory above a normalised path, in place ("/" stays "/"). */
static void path_parent(char *q)
{
	char *slash = strrchr(q, '/');

	if (slash)
		slash[slash == q] = '\0';
}

/* cwd joined with a relative path, normalised into q (LANDLOCK_PATH_MAX). */
static int explained_path(const char *cwd, const char *path, char *q)
{
	char *joined = NULL;
	const char *reterr;
	int r;

	if (path[0] != '/') {
		if (!cwd)
			return -EINVAL;
		if (asprintf(&joined, "%s/%s", cwd, path) < 0)
			return -ENOMEM;
		path = joined;
	}
	r = path_normalize(path, strlen(path), q, &reterr);
	free(joined);
	return r;
}

int landlock_explain(const struct landlock_config *c, const char *cwd, const char *path,
		     enum landlock_kind kind, enum landlock_access a,
		     struct landlock_explanation *ret)
{
	char *q = malloc(LANDLOCK_PATH_MAX), *dot = malloc(LANDLOCK_PATH_MAX);
	const char *reterr;
	int r = -ENOMEM;

	needs_of(kind, a, ret);
	if (!q || !dot)
		goto out;
	r = explained_path(cwd, path, q);
	if (r < 0)
		goto out;
	if (!cwd || path_normalize(cwd, strlen(cwd), dot, &reterr) < 0) {
		free(dot);
		dot = NULL;
	}
	r = LANDLOCK_UNRESTRICTED;
	if (c->mode == LANDLOCK_MODE_OFF || !c->n_paths)
		goto out;
	if (ret->in_parent)
		path_parent(q);
	r = LANDLOCK_ALLOWED;
	for (size_t i = 0; i < ret->n_needs; i++) {
		ret->needs[i].rule = decide(c, dot, q, ret->needs[i].right, &ret->covered);
		if (!ret->needs[i].rule)
			r = LANDLOCK_DENIED;
	}
	if (ret->truncate.right)
		ret->truncate.rule = decide(c, dot, q, ret->truncate.right, &ret->covered);
out:
	free(q);
	free(dot);
	return r;
}

/*
 * "FILE:LINE" of a rule. The file name may come from an include line and
 * PATH from the command line: both are escaped (scmp-run(1) DIAGNOSTICS).
 */
static int loc_print(const struct src_loc *loc, FILE *f)
{
	if (diag_fputs_escaped(loc->file ? loc->file : "?", f) < 0 ||
	    fprintf(f, ":%u", loc->line) < 0)
		return -EIO;
	return 0;
}

/* " by FILE:LINE", and a note for an optional path, which may be skipped. */
static int by_print(const struct landlock_path_rule *pr, FILE *f)
{
	if (fputs(" by ", f) == EOF || loc_print(&pr->loc, f) < 0 ||
	    (pr->optional && fputs(" (an optional path: if it exists at launch)", f) == EOF))
		return -EIO;
	return 0;
}

static const char *right_name(uint64_t right)
{
	return fs_names[__builtin_ctzll(right)];
}

/* What the rights of a write are for: "creating it" or "creating a file in it". */
static const char *write_context(const struct landlock_explanation *e)
{
	return e->in_parent ? "creating it" : "creating a file in it";
}

/* Where the rights of a write are checked, when not on PATH itself. */
static const char *where(const struct landlock_explanation *e)
{
	return e->in_parent ? " on its directory" : "";
}

/* "allowed by F:L", with what a write that creates needed, by line when
 * different rules grant its rights. */
static int allowed_print(const struct landlock_explanation *e, FILE *f)
{
	int e1 = 0;

	if (e->n_needs == 1 || e->needs[0].rule == e->needs[1].rule) {
		e1 |= fputs("allowed", f) == EOF || by_print(e->needs[0].rule, f) < 0;
		if (e->n_needs > 1)
			e1 |= fprintf(f, " (%s: %s and %s%s)", write_context(e),
				      right_name(e->needs[0].right), right_name(e->needs[1].right),
				      where(e)) < 0;
		return e1 ? -EIO : 0;
	}
	e1 |= fprintf(f, "allowed (%s: ", write_context(e)) < 0;
	for (size_t i = 0; i < e->n_needs; i++)
		e1 |= fprintf(f, "%s%s%s", i ? ", " : "", right_name(e->needs[i].right),
			      i ? "" : where(e)) < 0 ||
		      by_print(e->needs[i].rule, f) < 0;
	e1 |= fputc(')', f) == EOF;
	return e1 ? -EIO : 0;
}

/* "denied (...)": no rule at all, or the rights no rule grants. */
static int denied_print(const struct landlock_explanation *e, FILE *f)
{
	const char *sep = "";
	int e1 = 0;

	e1 |= fputs("denied (", f) == EOF;
	if (e->n_needs > 1)
		e1 |= fprintf(f, "%s: ", write_context(e)) < 0;
	if (!e->covered) {
		e1 |= fprintf(f, "no rule covers %s)", e->in_parent ? "its directory" : "it") < 0;
		return e1 ? -EIO : 0;
	}
	e1 |= fputs("no rule grants ", f) == EOF;
	for (size_t i = 0; i < e->n_needs; i++) {
		if (e->needs[i].rule)
			continue;
		e1 |= fprintf(f, "%s%s", sep, right_name(e->needs[i].right)) < 0;
		sep = " or ";
	}
	e1 |= fprintf(f, "%s)", where(e)) < 0;
	return e1 ? -EIO : 0;
}

/* "; truncating it allowed by F:L" or "; truncating it denied (...)". */
static int truncate_print(const struct landlock_explanation *e, FILE *f)
{
	if (fputs("; truncating it ", f) == EOF)
		return -EIO;
	if (e->truncate.rule)
		return fputs("allowed", f) == EOF ? -EIO : by_print(e->truncate.rule, f);
	return fprintf(f, "denied (no rule grants %s)", right_name(e->truncate.right)) < 0 ? -EIO
											   : 0;
}

int landlock_explain_print(const struct landlock_config *c, const char *cwd, const char *path,
			   enum landlock_kind kind, enum landlock_access a, FILE *f)
{
	struct landlock_explanation e;
	int r = landlock_explain(c, cwd, path, kind, a, &e), w;

	if (r < 0)
		return r;
	if (diag_fputs_escaped(path, f) < 0 || fprintf(f, ": %s ", landlock_access_name(a)) < 0)
		return -EIO;
	if (r == LANDLOCK_UNRESTRICTED)
		w = fprintf(f, "allowed (paths are not restricted: %s)",
			    c->mode == LANDLOCK_MODE_OFF ? "[landlock] mode = off"
							 : "no path key in [landlock]") < 0
			    ? -EIO
			    : 0;
	else if (r == LANDLOCK_ALLOWED)
		w = allowed_print(&e, f);
	else
		w = denied_print(&e, f);
	/* A shell's '>' opens with O_TRUNC: truncate is checked as well. */
	if (w == 0 && r == LANDLOCK_ALLOWED && e.truncate.right)
		w = truncate_print(&e, f);
	if (w == 0 && fputc('\n', f) == EOF)
		w = -EIO;
	return w < 0 ? w : r;
}
