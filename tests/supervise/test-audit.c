/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * audit_parse() on real and broken records (untrusted input: strict, no
 * reads past the end), audit_explain() on records as the kernel writes
 * them. callfmt_format() is tested in tests/unit.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch.h"
#include "audit.h"
#include "compile.h"
#include "../rng.h"
#include "tap.h"

static int parse(const char *s, struct audit_rec *r)
{
	/* an exact-size copy: ASan sees any read past len */
	size_t len = strlen(s);
	char *copy = malloc(len ? len : 1);
	int ret;

	memcpy(copy, s, len);
	ret = audit_parse(copy, len, r);
	free(copy);
	return ret;
}

static char dir[] = "/tmp/test-audit-XXXXXX";

/* Write text to dir/name and return the path (static storage, one at a time). */
static const char *write_file(const char *name, const char *text)
{
	static char path[sizeof(dir) + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
	return path;
}

/* Remove dir and the files written into it. */
static void remove_dir(void)
{
	DIR *dh = opendir(dir);
	struct dirent *e;

	while (dh && (e = readdir(dh)))
		if (e->d_name[0] != '.')
			unlinkat(dirfd(dh), e->d_name, 0);
	if (dh)
		closedir(dh);
	rmdir(dir);
}

/* Compile a profile for x86_64 (the records below are x86_64's). */
static void compile_text(const char *name, const char *text, struct compiled *c)
{
	struct diag d;

	diag_init(&d);
	if (compile_file(write_file(name, text), arch_get(ARCH_X86_64), NULL, &d, c) < 0) {
		diag_print(&d, "test-audit", stderr);
		abort();
	}
	diag_clear(&d);
}

/* The explanation of one record line (malloc'ed). */
static char *explain(const struct compiled *c, const char *line)
{
	struct audit_rec r;
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	if (!out || audit_parse(line, strlen(line), &r) != 1)
		abort();
	audit_explain(c->policy, &r, out);
	if (fclose(out))
		abort();
	return text;
}

/* audit_explain_file() of path, its output dropped. */
static int explain_file(const struct compiled *c, const char *path, struct diag *d)
{
	FILE *out = fopen("/dev/null", "we");
	int n;

	if (!out)
		abort();
	n = audit_explain_file(c->policy, path, out, d);
	fclose(out);
	return n;
}

/* Whether the explanation of line holds want (and, when not NULL, lacks
 * unwanted), with the text shown when it does not. */
static void explains(const struct compiled *c, const char *line, const char *want,
		     const char *unwanted, const char *what)
{
	char *text = explain(c, line);

	if (!tap_ok(strstr(text, want) && !(unwanted && strstr(text, unwanted)), "%s", what))
		tap_diag("got: %s", text);
	free(text);
}

#define REC(nr, code) \
	"type=1326 audit(1.2:3): pid=7 comm=\"t\" arch=c000003e syscall=" nr " code=" code
#define NEVER "never produces"

/* The kernel logs errno, trap and trace without their data: a record says
 * "errno", and any errno rule of that kind produces it. */
static void test_action_kinds(void)
{
	static const char profile[] = "[filter]\n"		       /* 1 */
				      "default-action = allow\n"       /* 2 */
				      "[kill-process]\n"	       /* 3 */
				      "syscalls = mkdir\n"	       /* 4 */
				      "[errno(EPERM)]\n"	       /* 5 */
				      "syscalls = uname\n"	       /* 6 */
				      "[trap(7)]\n"		       /* 7 */
				      "syscalls = getcwd\n"	       /* 8 */
				      "[errno(EAFNOSUPPORT)]\n"	       /* 9 */
				      "socket = family == AF_INET6\n"; /* 10 */
	static const char deny[] = "[filter]\n"
				   "default-action = errno(EPERM)\n"
				   "bad-arch-action = errno(ENOSYS)\n"
				   "[allow]\n"
				   "syscalls = read\n";
	struct compiled c = { 0 }, cd = { 0 };
	char want[sizeof(dir) + 64];

	compile_text("kinds.ini", profile, &c);
	explains(&c, REC("63", "0x50000"), ": the kernel took errno\n", NULL,
		 "errno record: the kernel took errno, no errno(0)");
	snprintf(want, sizeof(want), "decision: errno(EPERM) by %s/kinds.ini:6\n", dir);
	explains(&c, REC("63", "0x50000"), want, NEVER, "errno record: the rule produces it");
	explains(&c, REC("79", "0x30000"), ": the kernel took trap\n", NEVER,
		 "trap(7) record: the rule produces it");
	snprintf(want, sizeof(want), "rules that produce it: %s/kinds.ini:10\n", dir);
	explains(&c, REC("41", "0x50000"), want, NEVER, "conditional errno: the rule is listed");
	explains(&c, REC("63", "0x30000"), "never produces trap for this call", NULL,
		 "another kind than the rule's: another filter");
	explains(&c, REC("41", "0x30000"), "never produces trap for this call", "rules that",
		 "conditional, another kind: another filter");
	explains(&c, REC("83", "0x50000"), "never produces errno for this call", NULL,
		 "errno record of a kill-process call: another filter");

	compile_text("deny.ini", deny, &cd);
	explains(&cd, REC("83", "0x50000"), "decision: errno(EPERM) by default-action\n", NEVER,
		 "default-action = errno(EPERM): produces the errno record");
	explains(&cd, REC("0", "0x50000"), NEVER " errno", NULL,
		 "an errno record of an allowed call: another filter");
	explains(&cd, "type=1326 pid=7 arch=40000003 syscall=5 code=0x50000", "bad-arch-action",
		 NEVER, "bad-arch-action = errno(ENOSYS): produces the record");
	compiled_free(&c);
	compiled_free(&cd);
}

/* Numbers the kernel prints negative: -1 is the unknown-syscall action's
 * (scmp-run.ini(5) ARCHITECTURES); after trace, the tracer's. */
static void test_negative(void)
{
	static const char profile[] = "[filter]\n"
				      "default-action = allow\n"
				      "unknown-syscall-action = kill-process\n";
	struct compiled c = { 0 };

	compile_text("unknown.ini", profile, &c);
	explains(&c, REC("-1", "0x80000000"), "unknown [x86_64 -1] pid 7 (t)", NULL,
		 "syscall=-1: shown as the kernel printed it");
	explains(&c, REC("-1", "0x80000000"), "decision: kill-process by unknown-syscall-action",
		 NEVER, "syscall=-1: the unknown-syscall action produces it");
	explains(&c, REC("-1", "0x80000000"), "note: -1 is no syscall", NULL,
		 "syscall=-1: said to be no syscall");
	explains(&c, REC("-3", "0x80000000"), "note: -3 is no syscall", NULL,
		 "syscall=-3: said to be no syscall");
	explains(&c, REC("-1", "0x7ff00000"), "a tracer that skips a call after trace", NEVER,
		 "trace record of -1: the number may be the tracer's");
	compiled_free(&c);
}

/* A name is shown as a report line shows it: escaped, its ')' as \x29, so
 * that a name cannot end early and put a decision of its choosing after it. */
static void test_comm_shown(void)
{
	static const char profile[] = "[filter]\n"
				      "default-action = allow\n"
				      "[kill-process]\n"
				      "syscalls = mkdir\n";
	struct compiled c = { 0 };

	compile_text("comm.ini", profile, &c);
	explains(&c,
		 "type=1326 pid=7 comm=78293A20746F6F6B20616C6C6F77 arch=c000003e syscall=83 "
		 "code=0x80000000",
		 "pid 7 (x\\x29: took allow): the kernel took kill-process\n", NULL,
		 "a ')' in the name: written \\x29");
	explains(&c,
		 "type=1326 pid=7 comm=\"a\x01\x1b[2J\" arch=c000003e syscall=83 code=0x80000000",
		 "pid 7 (a\\x01\\x1b[2J): the kernel took", NULL,
		 "control bytes in the name: escaped as diagnostics are");
	explains(&c,
		 "type=1326 pid=7 comm=\"caf\xc3\xa9\" arch=c000003e syscall=83 code=0x80000000",
		 "pid 7 (caf\xc3\xa9): the kernel took", NULL, "UTF-8 in the name: shown as it is");
	compiled_free(&c);
}

/* A call of an ABI the filter does not list: x32 shares x86_64's arch,
 * and the bad-arch errno is named. */
static void test_bad_arch(void)
{
	static const char native[] = "[filter]\n"
				     "default-action = allow\n"
				     "bad-arch-action = errno(ENOSYS)\n";
	static const char x32[] = "[filter]\n"
				  "default-action = allow\n"
				  "architectures = x32\n";
	struct compiled c = { 0 }, cx = { 0 };

	compile_text("native.ini", native, &c);
	explains(&c, REC("1073741907", "0x50000"), "mkdir [x32 1073741907] pid 7 (t)", NULL,
		 "x32 record: the call named for its ABI");
	explains(&c, REC("1073741907", "0x50000"),
		 "decision: errno(ENOSYS) (bad-arch-action: the x32 ABI is not in the filter; "
		 "arch 0xc000003e is, for x86_64, and bit 0x40000000 of the number tells them "
		 "apart)\n",
		 NEVER, "x32 record: its ABI, not its arch, is missing; the errno named");
	explains(&c, "type=1326 arch=40000003 syscall=5 code=0x50000",
		 "open [x86 5]: the kernel took errno\n"
		 "  decision: errno(ENOSYS) (bad-arch-action: the x86 ABI, arch 0x40000003, is "
		 "not in the filter)\n",
		 NEVER, "x86 record: the ABI named");
	explains(&c, "type=1326 arch=12345 syscall=5 code=0x50000",
		 "unknown [bad arch 5]: the kernel took errno\n"
		 "  decision: errno(ENOSYS) (bad-arch-action: arch 0x12345 is not in the filter)\n",
		 NEVER, "an arch no ABI has");
	compile_text("x32.ini", x32, &cx);
	explains(&cx, REC("83", "0x80000000"),
		 "(bad-arch-action: the x86_64 ABI is not in the filter; arch 0xc000003e is, for "
		 "x32,",
		 NEVER, "x86_64 record, x32 filter: the x86_64 ABI is missing");
	compiled_free(&c);
	compiled_free(&cx);
}

/* A record with exe= hex-encoded at length n (the kernel's form of a path
 * with a blank), malloc'ed. */
static char *long_record(size_t n)
{
	static const char head[] = "type=SECCOMP msg=audit(1.2:3): pid=9 comm=\"x\" exe=",
			  tail[] = " sig=31 arch=c000003e syscall=83 compat=0 code=0x80000000";
	char *line = malloc(sizeof(head) + n + sizeof(tail));

	if (!line)
		abort();
	strcpy(line, head);
	for (size_t i = 0; i < n; i++)
		line[sizeof(head) - 1 + i] = "2F61"[i % 4];
	strcpy(line + sizeof(head) - 1 + n, tail);
	return line;
}

/* Lines up to AUDIT_LINE_MAX are records; a longer one is reported, not
 * dropped unsaid. */
static void test_long_lines(void)
{
	char *fit = long_record(8400), *over = long_record(AUDIT_LINE_MAX);
	struct compiled c = { 0 };
	char *text = NULL;
	size_t size = 0;
	struct audit_rec r;
	struct diag d;
	FILE *f;
	int n;

	tap_is(parse(fit, &r), 1, "exe= of 8400 hex digits: a record");
	tap_ok(r.nr == 83 && r.code == 0x80000000u, "exe= of 8400 hex digits: its fields");
	tap_is(parse(over, &r), -E2BIG, "a record over AUDIT_LINE_MAX: too long");
	memcpy(over, "type=1400", 9);
	tap_is(parse(over, &r), 0, "another record type over AUDIT_LINE_MAX: no record");
	memcpy(over, "type=SECC", 9);

	f = open_memstream(&text, &size);
	if (!f || fprintf(f, "%s\n%s\n", fit, over) < 0 || fclose(f))
		abort();
	compile_text("allow.ini", "[filter]\ndefault-action = allow\n", &c);
	diag_init(&d);
	n = explain_file(&c, write_file("long.log", text), &d);
	tap_is(n, 1, "a file with a long record and one too long: one explained");
	tap_ok(d.n_warnings == 1 && d.msgs[0].loc.line == 2 &&
		       strstr(d.msgs[0].text,
			      "seccomp audit record longer than 16384 bytes: skipped"),
	       "the one too long: a warning at its line");
	diag_clear(&d);
	compiled_free(&c);
	free(text);
	free(fit);
	free(over);
}

/* A line longer than the memory the reader may take (here 96 MiB, under
 * a 64 MiB RLIMIT_DATA) between two records: both records explained, the
 * line skipped, and a record that long is said. getline() would grow to
 * hold the line and, out of memory, end the input without an error on the
 * stream: the second record lost unsaid. Run in a child, with the file
 * written into a pipe by another. */
static void test_huge_line(void)
{
	static const char rec[] = REC("83", "0x80000000") "\n";
	struct compiled c = { 0 };
	int fds[2], status;
	char path[32], chunk[65536];
	pid_t writer, reader;

#ifdef TAP_SANITIZED
	tap_skip("a line larger than memory: the sanitizers' runtime maps more than the limit");
	return;
#endif
	compile_text("allow.ini", "[filter]\ndefault-action = allow\n", &c);
	memset(chunk, 'a', sizeof(chunk));
	memcpy(chunk, "type=1326 ", 10); /* a record: said when skipped */
	if (pipe(fds) < 0)
		abort();
	writer = fork();
	if (writer == 0) {
		close(fds[0]);
		if (write(fds[1], rec, strlen(rec)) < 0)
			_exit(1);
		for (int i = 0; i < 96 * 16; i++)
			if (write(fds[1], chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk))
				_exit(1);
		if (write(fds[1], "\n", 1) < 0 || write(fds[1], rec, strlen(rec)) < 0)
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
	reader = fork();
	if (reader == 0) {
		struct rlimit lim = { 64 << 20, 64 << 20 };
		struct diag d;
		int n;

		if (setrlimit(RLIMIT_DATA, &lim) < 0)
			_exit(99);
		diag_init(&d);
		n = explain_file(&c, path, &d);
		_exit(n == 2 && d.n_errors == 0 && d.n_warnings == 1 ? 0 : 10 + (n < 0 ? 0 : n));
	}
	close(fds[0]);
	waitpid(writer, NULL, 0);
	waitpid(reader, &status, 0);
	if (!tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "a line of 96 MiB between two records, memory 64 MiB: both explained, "
		    "the line said"))
		tap_diag("status %#x", status);
	compiled_free(&c);
}

/* A log with CRLF line ends: every record read, no warning. */
static void test_crlf_file(void)
{
	struct compiled c = { 0 };
	struct diag d;
	int n;

	compile_text("allow.ini", "[filter]\ndefault-action = allow\n", &c);
	diag_init(&d);
	n = explain_file(
		&c,
		write_file("crlf.log", REC("83", "0x80000000") "\r\n" REC("63", "0x50000") "\r\n"),
		&d);
	tap_ok(n == 2 && !d.n_warnings, "a CRLF file: both records, no warning");
	diag_clear(&d);
	compiled_free(&c);
}

int main(void)
{
	struct audit_rec r;
	static const char kernel[] =
		"[  915.971400] audit: type=1326 audit(1796310492.789:2143): auid=4294967295 "
		"uid=0 gid=0 ses=4294967295 pid=26598 comm=\"mkdir\" exe=\"/usr/bin/mkdir\" "
		"sig=31 arch=c000003e syscall=83 compat=0 ip=0x7f6028a34f37 code=0x80000000";
	static const char auditd[] =
		"type=SECCOMP msg=audit(1796310492.789:2143): auid=1000 uid=1000 gid=1000 "
		"ses=2 pid=77 comm=6D7920636D64 exe=\"/x\" sig=0 arch=40000003 syscall=5 "
		"compat=1 ip=0xf7 code=0x50001";

	tap_is(parse(kernel, &r), 1, "dmesg line: a record");
	tap_ok(r.arch == 0xc000003e && r.nr == 83 && r.code == 0x80000000u,
	       "dmesg line: arch, syscall, code");
	tap_ok(r.has_pid && r.pid == 26598 && !strcmp(r.comm, "mkdir"), "dmesg line: pid, comm");
	tap_is(parse(auditd, &r), 1, "auditd line (type=SECCOMP): a record");
	tap_ok(r.arch == 0x40000003 && r.nr == 5 && r.code == 0x50001, "auditd line: fields");
	tap_ok(!strcmp(r.comm, "my cmd"), "auditd line: hex-encoded comm decoded");

	/* auditd's default log_format = ENRICHED: its reading of the fields
	 * after a 0x1D byte */
	tap_is(parse("type=SECCOMP msg=audit(1796469721.036:9268): auid=4294967295 uid=0 gid=0 "
		     "ses=4294967295 subj=unconfined pid=4629 comm=\"mkdir\" exe=\"/usr/bin/mkdir\" "
		     "sig=31 arch=c000003e syscall=83 compat=0 ip=0x7f09b9639f37 code=0x80000000"
		     "\x1d"
		     "AUID=\"unset\" UID=\"root\" GID=\"root\" ARCH=x86_64 SYSCALL=mkdir",
		     &r),
	       1, "auditd ENRICHED line: a record");
	tap_ok(r.arch == 0xc000003e && r.nr == 83 && r.code == 0x80000000u && r.pid == 4629 &&
		       !strcmp(r.comm, "mkdir"),
	       "auditd ENRICHED line: the kernel's fields");
	tap_is(parse("type=SECCOMP arch=c000003e syscall=83 code=0x80000000\x1d"
		     "comm=\"x syscall=1 code=zz",
		     &r),
	       1, "auditd ENRICHED line: nothing after 0x1D is read");
	tap_is(parse("type=SECCOMP arch=c000003e\x1dsyscall=83 code=0x80000000", &r), -EINVAL,
	       "a record cut short by 0x1D: malformed");
	tap_ok(parse("type=1326 arch=c000003e syscall=83 code=0x80000000\r\n", &r) == 1 &&
		       r.code == 0x80000000u,
	       "CRLF line end: a record");
	tap_ok(parse("type=1326 arch=c000003e syscall=83 code=0x80000000\r", &r) == 1 &&
		       r.code == 0x80000000u,
	       "CR at the end of the input: a record");
	tap_is(parse("type=1326 arch=c000003e syscall=83\r code=0x80000000", &r), -EINVAL,
	       "CR inside the line: malformed");
	tap_is(parse("hello world", &r), 0, "plain text: no record");
	tap_is(parse("", &r), 0, "empty line: no record");
	tap_is(parse("type=1400 audit(1:2): apparmor=\"DENIED\"", &r), 0,
	       "another record type: no record");
	tap_is(parse("type=1326 arch=c000003e syscall=83", &r), -EINVAL, "no code: malformed");
	tap_is(parse("type=1326 arch=c000003e syscall=83 syscall=84 code=0x0", &r), -EINVAL,
	       "a field twice: malformed");
	tap_is(parse("type=1326 arch=c000003e syscall=99999999999 code=0x0", &r), -EINVAL,
	       "syscall out of range: malformed");
	tap_is(parse("type=1326 arch=c000003e syscall=-1 code=0x80000000", &r), 1,
	       "syscall=-1 (printed signed by the kernel): a record");
	tap_ok(r.nr == 0xffffffffu, "syscall=-1: the number the filter saw, 0xffffffff");
	tap_ok(parse("type=1326 arch=c000003e syscall=-2147483648 code=0x0", &r) == 1 &&
		       r.nr == 0x80000000u,
	       "syscall=-2147483648: the lowest int");
	tap_ok(parse("type=1326 arch=c000003e syscall=2147483647 code=0x0", &r) == 1 &&
		       r.nr == 0x7fffffffu,
	       "syscall=2147483647: the highest int");
	tap_is(parse("type=1326 arch=c000003e syscall=-2147483649 code=0x0", &r), -EINVAL,
	       "syscall below an int: malformed");
	tap_is(parse("type=1326 arch=c000003e syscall=4294967295 code=0x0", &r), -EINVAL,
	       "syscall above an int (the kernel prints -1): malformed");
	tap_is(parse("type=1326 arch=c000003e syscall=- code=0x0", &r), -EINVAL,
	       "syscall=-: malformed");
	tap_is(parse("type=1326 arch=c000003e syscall=--1 code=0x0", &r), -EINVAL,
	       "syscall=--1: malformed");
	tap_is(parse("type=1326 arch=c000003e syscall=+1 code=0x0", &r), -EINVAL,
	       "syscall=+1: malformed");
	tap_is(parse("type=1326 arch=zz syscall=1 code=0x0", &r), -EINVAL, "bad hex: malformed");
	tap_is(parse("type=1326 comm=\"abc arch=c000003e syscall=1 code=0x0", &r), -EINVAL,
	       "unterminated string: malformed");
	tap_is(parse("type=1326 comm=ABC arch=c000003e syscall=1 code=0x0", &r), -EINVAL,
	       "odd hex comm: malformed");
	tap_is(parse("type=1326 arch=c000003e syscall=1 code=80000000", &r), -EINVAL,
	       "code without 0x: malformed");
	tap_is(parse("type=1326 comm=\"a\x01\x7f\" arch=c000003e syscall=1 code=0x0", &r), 1,
	       "control bytes in comm: accepted");
	tap_ok(!strcmp(r.comm, "a\x01\x7f"), "control bytes in comm: kept as they are");
	/* "x): took allow", hex-encoded as the kernel writes a name with blanks */
	tap_is(parse("type=1326 comm=78293A20746F6F6B20616C6C6F77 arch=c000003e syscall=1 "
		     "code=0x0",
		     &r),
	       1, "a ')' in comm: accepted");
	tap_ok(!strcmp(r.comm, "x): took allow"), "a ')' in comm: kept as it is");
	/* a NUL ends the name, in hex as the kernel never writes it */
	tap_is(parse("type=1326 comm=610062 arch=c000003e syscall=1 code=0x0", &r), 1,
	       "a NUL in a hex comm: accepted");
	tap_ok(!strcmp(r.comm, "a"), "a NUL in a hex comm: the name ends there");

	/* the record begins the log message, whatever the log's own prefix */
	static const char *const layouts[] = {
		"audit: ",
		"6,2143,915971400,-;audit: ",
		"[Mon Mar  1 12:00:00 2027] audit: ",
		"kern  :notice: [  915.971400] audit: ",
		"kern  :warn  : [Mon Mar  1 12:00:00 2027] audit: ",
		"Mar  1 12:00:00 host kernel: audit: ",
		"2027-03-01T12:00:00.123+00:00 host kernel: [  915.971400] audit: ",
		"    MESSAGE=audit: ",
		"node=host ",
		/* RFC 5424 (rsyslog's RSYSLOG_SyslogProtocol23Format), kern facility */
		"<5>1 2027-03-01T12:00:00.123456+00:00 host kernel - - - audit: ",
		"<4>1 2027-03-01T12:00:00Z host kernel - - - [  915.971400] audit: ",
	};
	char line[1024];

	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		snprintf(line, sizeof(line), "%s%s", layouts[i], auditd);
		tap_is(parse(line, &r), 1, "a record after '%s'", layouts[i]);
	}
	/* A file name a kernel message quotes (a crash in a mapping of it),
	 * which any user chooses: no record, said. */
	static const char *const quoted[] = {
		"[ 2234.958035] traps: forge[27758] trap invalid opcode ip:7f80ba371000 "
		"sp:7ffe4fc96e18 error:0 in x audit: ",
		"Mar  1 12:00:00 host kernel: traps: forge[27758] trap invalid opcode in kernel: "
		"audit: ",
		"[ 2234.958035] forge[27758]: segfault at 0 in x ",
		"user  :notice: [ 2234.958035] audit: ",
		"kern  :notice: [ 2234.958035] forge[27758]: segfault at 0 in x ",
		/* RFC 5424: another facility than kern (user.notice is 13),
		 * another program, structured data */
		"<13>1 2027-03-01T12:00:00Z host kernel - - - audit: ",
		"<5>1 2027-03-01T12:00:00Z host logger - - - audit: ",
		"<5>1 2027-03-01T12:00:00Z host kernel - - [x@1 a=\"b\"] audit: ",
		"<5>2 2027-03-01T12:00:00Z host kernel - - - audit: ",
	};

	for (size_t i = 0; i < sizeof(quoted) / sizeof(quoted[0]); i++) {
		snprintf(line, sizeof(line), "%s%s x=[0,7f80ba371000+1000]", quoted[i],
			 kernel + strlen("[  915.971400] audit: "));
		tap_is(parse(line, &r), -EBADMSG, "a record quoted in another message %zu", i);
	}

	/* every prefix of a record, and random mutations: no crash, no
	 * read past the end (under ASan), a defined result */
	bool defined = true;

	for (size_t n = 0; n <= sizeof(kernel) - 1; n++) {
		char *copy = malloc(n ? n : 1);
		int ret;

		memcpy(copy, kernel, n);
		ret = audit_parse(copy, n, &r);
		defined &= ret == 0 || ret == 1 || ret == -EINVAL || ret == -EBADMSG;
		free(copy);
	}
	struct rng rng = { 1326 };
	for (unsigned i = 0; i < 20000; i++) {
		char buf[sizeof(kernel)];
		int ret;

		memcpy(buf, kernel, sizeof(buf));
		for (unsigned k = 0; k < 1 + rnd(&rng) % 8; k++)
			buf[rnd(&rng) % (sizeof(buf) - 1)] = (char)rnd(&rng);
		ret = audit_parse(buf, sizeof(buf) - 1, &r);
		defined &= ret == 0 || ret == 1 || ret == -EINVAL || ret == -EBADMSG;
	}
	tap_ok(defined, "prefixes and 20000 mutations: a defined result each");

	if (!mkdtemp(dir))
		abort();
	test_action_kinds();
	test_negative();
	test_long_lines();
	test_crlf_file();
	test_huge_line();
	test_bad_arch();
	test_comm_shown();
	remove_dir();

	return tap_done();
}
