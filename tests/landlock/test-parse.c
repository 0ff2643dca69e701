/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * [landlock] keys: every parse error and its message, what the keys store,
 * the rights decided per ABI (best-effort drops, require fails) and the report.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "landlock-uapi.h"
#include "landlock.h"
#include "tap.h"

static const struct src_loc loc = { .file = "p.ini", .line = 7 };

/* The diagnostic text of key = value ("" when it parsed). */
static char *parse_msg(const char *key, const char *value, int *ret)
{
	struct landlock_config c;
	struct diag d;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	landlock_config_init(&c);
	diag_init(&d);
	*ret = landlock_parse_key_diag(&c, key, value, &loc, &d);
	diag_print(&d, "scmp-run", f);
	fclose(f);
	diag_clear(&d);
	landlock_config_clear(&c);
	return out;
}

static void bad(const char *key, const char *value, int want_r, const char *want)
{
	int r;
	char *msg = parse_msg(key, value, &r);

	if (!tap_ok(r == want_r && strstr(msg, want) && strstr(msg, "p.ini:7: error: "),
		    "%s = %s: %s", key, value, want))
		tap_diag("got %d: %s", r, msg);
	free(msg);
}

static void good(const char *key, const char *value)
{
	int r;
	char *msg = parse_msg(key, value, &r);

	if (!tap_ok(r == 0 && !*msg, "%s = %s parses", key, value))
		tap_diag("got %d: %s", r, msg);
	free(msg);
}

/* The messages of 'none' and a scope on two lines, with a note at the
 * first; nothing is added. */
static void scope_lines(const char *first, const char *second, const char *want)
{
	const struct src_loc l4 = { .file = "p.ini", .line = 4 };
	struct landlock_config c;
	char *out = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&out, &size);
	struct diag d;
	int r;

	landlock_config_init(&c);
	diag_init(&d);
	landlock_parse_key_diag(&c, "scope", first, &l4, &d);
	r = landlock_parse_key_diag(&c, "scope", second, &loc, &d);
	diag_print(&d, "scmp-run", f);
	fclose(f);
	if (!tap_ok(r == -EINVAL && !strcmp(out, want) &&
			    c.scoped == (strcmp(first, "none") ? LANDLOCK_SCOPE_SIGNAL : 0),
		    "scope = %s, then scope = %s: refused, with a note at the first line", first,
		    second))
		tap_diag("got %d: %s", r, out);
	free(out);
	diag_clear(&d);
	landlock_config_clear(&c);
}

static void test_scope_lines(void)
{
	scope_lines("signal", "none",
		    "scmp-run: p.ini:7: error: scope: 'none' cannot follow a scope line that names "
		    "a scope (scope lines add up): 'none'\n"
		    "scmp-run: p.ini:4: note: a scope is named here\n");
	scope_lines("none", "signal",
		    "scmp-run: p.ini:7: error: scope: a scope cannot follow 'scope = none' (scope "
		    "lines add up): 'signal'\n"
		    "scmp-run: p.ini:4: note: 'scope = none' is here\n");
}

static void test_errors(void)
{
	bad("read", "etc", -EINVAL, "read: relative path (only '.' may be relative) 'etc'");
	bad("write", "/tmp ./x", -EINVAL, "write: relative path (only '.' may be relative) './x'");
	bad("read", "/usr/../etc", -EINVAL, "read: '..' in path '/usr/../etc'");
	bad("read", "?", -EINVAL, "read: relative path");
	bad("devices", "/dev/null ,", -EINVAL,
	    "devices: relative path (only '.' may be relative) ','");
	bad("exec", "/bin", -ENOENT, "unknown right 'exec' in [landlock]");
	bad("read-write", "/tmp", -ENOENT, "unknown right 'read-write'");
	bad("bind-tcp", "65536", -EINVAL, "bind-tcp: port out of range (0-65535) '65536'");
	bad("connect-tcp", "99999999999999999999", -EINVAL, "port out of range (0-65535)");
	bad("connect-tcp", "80 443-70000", -EINVAL, "port out of range (0-65535) '443-70000'");
	bad("bind-tcp", "9000-8000", -EINVAL,
	    "bind-tcp: bad port range (first port above last) '9000-8000'");
	bad("bind-tcp", "8000-", -EINVAL, "bind-tcp: bad port range '8000-'");
	bad("bind-tcp", "-80", -EINVAL, "bind-tcp: bad port range '-80'");
	bad("bind-tcp", "1-2-3", -EINVAL, "bind-tcp: bad port range '1-2-3'");
	bad("bind-tcp", "http", -EINVAL, "bind-tcp: not a port number 'http'");
	bad("bind-tcp", "+80", -EINVAL, "bind-tcp: not a port number '+80'");
	bad("connect-tcp", "0-65535 0-65535 1", -EINVAL, "connect-tcp: too many ports '1'");
	bad("scope", "signals", -EINVAL,
	    "scope: unknown scope (signal, abstract-unix, none) 'signals'");
	bad("scope", "signal, unix", -EINVAL, "unknown scope (signal, abstract-unix, none) 'unix'");
	bad("scope", "none signal", -EINVAL,
	    "scope: 'none' cannot be combined with another scope: 'none signal'");
	bad("scope", "signal, none", -EINVAL,
	    "scope: 'none' cannot be combined with another scope: 'signal, none'");
	bad("scope", ",", -EINVAL, "scope: no scope given");
	bad("mode", "strict", -EINVAL, "mode: unknown mode (best-effort, require, off) 'strict'");
	bad("mode", "require off", -EINVAL,
	    "mode: mode takes one value (best-effort, require, off) 'require off'");
	bad("log", "maybe", -EINVAL, "log: use yes/no, true/false, on/off or 1/0 'maybe'");
	bad("log", "yes no", -EINVAL, "log: use yes/no, true/false, on/off or 1/0 'yes no'");
	bad("read", " ", -EINVAL, "read: no path given");
	bad("bind-tcp", "\t", -EINVAL, "bind-tcp: no port given");

	good("read", "/ /etc// /usr/./share/ .");
	good("write", ". /tmp? .?");
	good("bind-tcp", "0 65535 8000-8010");
	good("scope", "signal,abstract-unix");
	good("scope", "none");
	good("log", "yes");
	good("log", "off");
	good("mode", "off");
}

/* One path of LANDLOCK_PATH_MAX - 1 bytes fits (the NUL makes it a full
 * PATH_MAX), one byte more does not; LANDLOCK_PATHS_MAX words fit in a
 * profile, one more does not. */
static void test_limits(void)
{
	char *path = malloc(LANDLOCK_PATH_MAX + 1);
	char *words = malloc(3 * (LANDLOCK_PATHS_MAX + 1) + 1);
	char *msg;
	int r;

	if (!path || !words)
		abort();
	path[0] = '/';
	memset(path + 1, 'a', LANDLOCK_PATH_MAX - 1);
	path[LANDLOCK_PATH_MAX - 1] = '\0';
	msg = parse_msg("read", path, &r);
	tap_ok(r == 0 && !*msg, "a path of %d bytes parses", LANDLOCK_PATH_MAX - 1);
	free(msg);
	path[LANDLOCK_PATH_MAX - 1] = 'a';
	path[LANDLOCK_PATH_MAX] = '\0';
	msg = parse_msg("read", path, &r);
	if (!tap_ok(r == -EINVAL && strstr(msg, "p.ini:7: error: read: path too long '/aaa"),
		    "a path of %d bytes: path too long", LANDLOCK_PATH_MAX))
		tap_diag("got %d: %.80s", r, msg);
	free(msg);

	for (int i = 0; i < LANDLOCK_PATHS_MAX; i++)
		memcpy(words + 3 * i, "/a ", 3);
	words[3 * LANDLOCK_PATHS_MAX] = '\0';
	msg = parse_msg("read", words, &r);
	tap_ok(r == 0 && !*msg, "%d paths parse", LANDLOCK_PATHS_MAX);
	free(msg);
	strcpy(words + 3 * LANDLOCK_PATHS_MAX, "/b");
	msg = parse_msg("read", words, &r);
	if (!tap_ok(r == -EINVAL &&
			    strstr(msg, "p.ini:7: error: read: too many paths (at most 4096) '/b'"),
		    "%d paths: too many paths", LANDLOCK_PATHS_MAX + 1))
		tap_diag("got %d: %.200s", r, msg);
	free(msg);
	free(words);
	free(path);
}

static void test_values(void)
{
	struct landlock_config c;
	const char *err, *w;
	int len;
	struct src_loc l2 = { .file = "p.ini", .line = 9 };

	landlock_config_init(&c);
	tap_is(landlock_parse_key(&c, "read", "/usr//share/ /etc/. / /opt/x? .", &loc, &err, &w,
				  &len),
	       0, "read with five paths");
	tap_ok(c.n_paths == 5 && !strcmp(c.paths[0].path, "/usr/share") &&
		       !strcmp(c.paths[1].path, "/etc") && !strcmp(c.paths[2].path, "/") &&
		       !strcmp(c.paths[3].path, "/opt/x") && c.paths[3].optional &&
		       !c.paths[0].optional && !strcmp(c.paths[4].path, ".") &&
		       c.paths[4].set == LANDLOCK_SET_READ && c.paths[4].loc.line == 7,
	       "paths normalised, '?' stripped and marked optional, '.' kept");
	tap_is(landlock_parse_key(&c, "write", "/tmp relative", &l2, &err, &w, &len), -EINVAL,
	       "a bad word rejects the line");
	tap_ok(c.n_paths == 5 && len == 8 && !strncmp(w, "relative", 8),
	       "nothing of the rejected line is kept; the word is named");
	tap_is(landlock_parse_key(&c, "bind-tcp", "80 8000-8002", &l2, &err, &w, &len), 0,
	       "bind-tcp");
	tap_ok(c.has_bind && !c.has_connect && c.n_ports == 2 && c.n_port_numbers == 4 &&
		       c.ports[1].lo == 8000 && c.ports[1].hi == 8002 &&
		       c.ports[0].access == LANDLOCK_ACCESS_NET_BIND_TCP && c.bind_loc.line == 9,
	       "bind-tcp stores ranges and its line; connect-tcp stays unset");
	tap_is(landlock_parse_key(&c, "scope", "abstract-unix", &loc, &err, &w, &len), 0,
	       "scope abstract-unix");
	tap_ok(c.has_scope && c.scoped == LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET,
	       "a written scope replaces the default signal scope");
	tap_is(landlock_parse_key(&c, "scope", "signal", &loc, &err, &w, &len), 0,
	       "a second scope line");
	tap_ok(c.scoped == (LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL),
	       "scope lines add up");
	tap_is(landlock_parse_key(&c, "scope", "none", &loc, &err, &w, &len), -EINVAL,
	       "scope none after a scope is refused");
	tap_is(landlock_parse_key(&c, "mode", "require", &l2, &err, &w, &len), 0, "mode require");
	tap_is(landlock_parse_key(&c, "mode", "off", &loc, &err, &w, &len), 0, "mode again");
	tap_ok(c.mode == LANDLOCK_MODE_OFF && c.mode_loc.line == 7, "a later mode replaces");
	landlock_config_clear(&c);
	tap_ok(!c.n_paths && !c.paths && c.mode == LANDLOCK_MODE_BEST_EFFORT,
	       "clear resets to the default");

	landlock_config_init(&c);
	tap_is(landlock_parse_key(&c, "scope", "none", &loc, &err, &w, &len), 0, "scope none");
	tap_is(landlock_parse_key(&c, "scope", "signal", &loc, &err, &w, &len), -EINVAL,
	       "a scope after none is refused");
	landlock_config_clear(&c);
	test_scope_lines();
}

static struct landlock_config config(const char *const *kv)
{
	struct landlock_config c;
	struct diag d;

	landlock_config_init(&c);
	diag_init(&d);
	for (; kv[0]; kv += 2)
		landlock_parse_key_diag(&c, kv[0], kv[1], &loc, &d);
	if (diag_failed(&d))
		diag_print(&d, "test", stdout);
	diag_clear(&d);
	return c;
}

static char *rights_msg(const struct landlock_config *c, int abi, int *ret,
			struct landlock_rights *rr)
{
	struct diag d;
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	diag_init(&d);
	*ret = landlock_rights_build(c, abi, &d, rr);
	diag_print(&d, "scmp-run", f);
	fclose(f);
	diag_clear(&d);
	return out;
}

static char *report(const struct landlock_config *c, const struct landlock_rights *r)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	tap_is(landlock_report(c, r, NULL, "landlock: ", f), 0, "report written");
	fclose(f);
	return out;
}

#define FS_ALL ((LANDLOCK_ACCESS_FS_IOCTL_DEV << 1) - 1)

static void test_rights(void)
{
	static const char *const none[] = { NULL };
	static const char *const fs_net[] = { "read", "/usr", "bind-tcp", "80", NULL };
	static const char *const req[] = { "mode",     "require", "write", "/tmp",
					   "bind-tcp", "8080",	  NULL };
	static const char *const req_scope[] = { "mode", "require", "scope", "abstract-unix",
						 NULL };
	static const char *const off[] = { "mode", "off", "read", "/usr", NULL };
	static const char *const no_scope[] = { "scope", "none", NULL };
	struct landlock_config c;
	struct landlock_rights r;
	char *msg, *rep;
	int ret;

	c = config(none);
	msg = rights_msg(&c, 7, &ret, &r);
	tap_ok(ret == 0 && r.domain && r.fs == LANDLOCK_ACCESS_FS_MAKE_BLOCK && !r.net &&
		       r.scoped == LANDLOCK_SCOPE_SIGNAL && !r.drop_fs && !r.fs_keys,
	       "no key: a domain handling make-block and scoping signals");
	free(msg);
	rep = report(&c, &r);
	tap_ok(strstr(rep, "landlock: kernel: Landlock ABI 7\n") &&
		       strstr(rep, "landlock: filesystem: not restricted") &&
		       strstr(rep, "landlock: bind-tcp: not restricted\n") &&
		       strstr(rep, "landlock: scope: signal\n"),
	       "report of the default domain");
	free(rep);
	msg = rights_msg(&c, 5, &ret, &r);
	tap_ok(ret == 0 && r.domain && !r.scoped && r.drop_scoped == LANDLOCK_SCOPE_SIGNAL,
	       "ABI 5, best-effort: the signal scope is dropped, the domain stays");
	free(msg);
	rep = report(&c, &r);
	tap_ok(strstr(rep, "scope: dropped, the kernel lacks them (needs ABI 6): signal\n") &&
		       strstr(rep, "scope: none\n"),
	       "the report says the signal scope was dropped");
	free(rep);
	msg = rights_msg(&c, 1, &ret, &r);
	rep = report(&c, &r);
	if (!tap_ok(ret == 0 && strstr(rep, "refer is always denied on ABI 1") &&
			    !strstr(rep, "filesystem: dropped"),
		    "ABI 1, no path key: the domain still denies refer, nothing is dropped"))
		tap_diag("%s", rep);
	free(rep);
	free(msg);
	msg = rights_msg(&c, 0, &ret, &r);
	tap_ok(ret == 0 && !r.domain, "no Landlock, best-effort: no domain, no error");
	free(msg);
	rep = report(&c, &r);
	tap_ok(strstr(rep, "kernel: no Landlock\n") && strstr(rep, "no domain"),
	       "the report says there is no domain");
	free(rep);
	tap_is(landlock_rights_build(&c, -1, NULL, &r), -EINVAL, "a negative ABI is refused");
	landlock_config_clear(&c);

	c = config(fs_net);
	msg = rights_msg(&c, 7, &ret, &r);
	tap_ok(ret == 0 && r.fs == FS_ALL && r.net == LANDLOCK_ACCESS_NET_BIND_TCP && r.fs_keys,
	       "a path key handles every fs right; bind-tcp only its own right");
	free(msg);
	msg = rights_msg(&c, 3, &ret, &r);
	tap_ok(ret == 0 && r.drop_fs == LANDLOCK_ACCESS_FS_IOCTL_DEV &&
		       r.drop_net == LANDLOCK_ACCESS_NET_BIND_TCP && !r.net &&
		       r.fs == (FS_ALL & ~LANDLOCK_ACCESS_FS_IOCTL_DEV),
	       "ABI 3, best-effort: ioctl-dev and bind-tcp dropped");
	free(msg);
	rep = report(&c, &r);
	tap_ok(strstr(rep, "landlock: filesystem: dropped, the kernel lacks them: ioctl-dev\n") &&
		       strstr(rep,
			      "landlock: bind-tcp: dropped, the kernel lacks it (needs ABI 4)"),
	       "best-effort says what it dropped");
	free(rep);
	msg = rights_msg(&c, 1, &ret, &r);
	rep = report(&c, &r);
	tap_ok(ret == 0 && !(r.fs & LANDLOCK_ACCESS_FS_REFER) &&
		       strstr(rep, "refer is always denied on ABI 1"),
	       "ABI 1: the report notes that refer is always denied");
	/* dropped means not restricted: refer is the opposite on ABI 1 */
	if (!tap_ok(strstr(rep, "landlock: filesystem: dropped, the kernel lacks them: truncate "
				"ioctl-dev\n") != NULL,
		    "ABI 1: refer is not listed as dropped"))
		tap_diag("%s", rep);
	free(rep);
	free(msg);
	landlock_config_clear(&c);

	c = config(req);
	msg = rights_msg(&c, 7, &ret, &r);
	tap_ok(ret == 0 && !*msg, "require on ABI 7: nothing missing");
	free(msg);
	msg = rights_msg(&c, 3, &ret, &r);
	if (!tap_ok(ret == -EOPNOTSUPP &&
			    strstr(msg,
				   "p.ini:7: error: landlock: filesystem right ioctl-dev needs "
				   "Landlock ABI 5; the kernel has ABI 3 (mode = require)") &&
			    strstr(msg, "error: landlock: bind-tcp needs Landlock ABI 4; the "
					"kernel has ABI 3 (mode = require)") &&
			    strstr(msg, "landlock: scope signal needs Landlock ABI 6"),
		    "require on ABI 3 fails, naming each missing right and its ABI"))
		tap_diag("%s", msg);
	free(msg);
	msg = rights_msg(&c, 0, &ret, &r);
	tap_ok(ret == -EOPNOTSUPP && strstr(msg, "the kernel has no Landlock (mode = require)") &&
		       strstr(msg, "hint: Landlock needs Linux 5.13"),
	       "require without Landlock fails with a hint");
	free(msg);
	landlock_config_clear(&c);

	c = config(req_scope);
	msg = rights_msg(&c, 5, &ret, &r);
	tap_ok(ret == -EOPNOTSUPP &&
		       strstr(msg, "error: landlock: scope abstract-unix needs Landlock ABI 6; "
				   "the kernel has ABI 5"),
	       "require: an unsupported scope fails");
	free(msg);
	landlock_config_clear(&c);

	c = config(off);
	msg = rights_msg(&c, 7, &ret, &r);
	tap_ok(ret == 0 && !r.domain && !r.fs, "mode off: no domain");
	free(msg);
	landlock_config_clear(&c);

	c = config(no_scope);
	msg = rights_msg(&c, 7, &ret, &r);
	tap_ok(ret == 0 && r.domain && !r.scoped && r.fs == LANDLOCK_ACCESS_FS_MAKE_BLOCK,
	       "scope none: still a domain, no scope");
	free(msg);
	landlock_config_clear(&c);
}

/* log = yes: LOG_NEW_EXEC_ON from ABI 7; dropped or refused before. */
static void test_log(void)
{
	static const char *const yes[] = { "log", "yes", NULL };
	static const char *const no[] = { "log", "yes", "log", "no", NULL };
	static const char *const req[] = { "mode", "require", "log", "on", NULL };
	static const char *const off[] = { "mode", "off", "log", "yes", NULL };
	struct landlock_config c;
	struct landlock_rights r;
	char *msg, *rep;
	int ret;

	c = config(yes);
	tap_ok(c.log && c.log_loc.line == 7, "log = yes is kept with its line");
	msg = rights_msg(&c, 7, &ret, &r);
	tap_ok(ret == 0 && r.restrict_flags == LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON &&
		       !r.drop_log,
	       "ABI 7: the domain logs the command's denials (LOG_NEW_EXEC_ON)");
	free(msg);
	rep = report(&c, &r);
	tap_ok(strstr(rep, "landlock: log: denials of the command are logged (audit)\n") != NULL,
	       "the report says denials are logged");
	free(rep);
	msg = rights_msg(&c, 6, &ret, &r);
	tap_ok(ret == 0 && !r.restrict_flags && r.drop_log && r.domain,
	       "ABI 6, best-effort: log is dropped, the domain stays");
	free(msg);
	rep = report(&c, &r);
	tap_ok(strstr(rep, "landlock: log: dropped, the kernel lacks it (needs ABI 7)\n") != NULL,
	       "the report says log was dropped");
	free(rep);
	landlock_config_clear(&c);

	c = config(req);
	msg = rights_msg(&c, 6, &ret, &r);
	if (!tap_ok(ret == -EOPNOTSUPP &&
			    strstr(msg, "p.ini:7: error: landlock: log needs Landlock ABI 7; the "
					"kernel has ABI 6 (mode = require)"),
		    "ABI 6, require: refused at the log line"))
		tap_diag("%s", msg);
	free(msg);
	msg = rights_msg(&c, 7, &ret, &r);
	tap_ok(ret == 0 && r.restrict_flags == LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON,
	       "ABI 7, require: accepted");
	free(msg);
	landlock_config_clear(&c);

	c = config(no);
	msg = rights_msg(&c, 7, &ret, &r);
	rep = report(&c, &r);
	tap_ok(ret == 0 && !c.log && !r.restrict_flags && !strstr(rep, "log:"),
	       "a later log = no replaces: nothing logged, nothing reported");
	free(rep);
	free(msg);
	landlock_config_clear(&c);

	c = config(off);
	msg = rights_msg(&c, 6, &ret, &r);
	tap_ok(ret == 0 && !r.domain && !r.restrict_flags && !r.drop_log,
	       "mode = off: no domain, log neither used nor dropped");
	free(msg);
	landlock_config_clear(&c);
}

int main(void)
{
	test_errors();
	test_limits();
	test_values();
	test_rights();
	test_log();
	return tap_done();
}
