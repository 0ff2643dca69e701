/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * audit_parse() on real and broken records (untrusted input: strict, no
 * reads past the end). callfmt_format() is tested in tests/unit.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
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

	tap_is(parse("hello world", &r), 0, "plain text: no record");
	tap_is(parse("", &r), 0, "empty line: no record");
	tap_is(parse("type=1400 audit(1:2): apparmor=\"DENIED\"", &r), 0,
	       "another record type: no record");
	tap_is(parse("type=1326 arch=c000003e syscall=83", &r), -EINVAL, "no code: malformed");
	tap_is(parse("type=1326 arch=c000003e syscall=83 syscall=84 code=0x0", &r), -EINVAL,
	       "a field twice: malformed");
	tap_is(parse("type=1326 arch=c000003e syscall=99999999999 code=0x0", &r), -EINVAL,
	       "syscall out of range: malformed");
	tap_is(parse("type=1326 arch=zz syscall=1 code=0x0", &r), -EINVAL, "bad hex: malformed");
	tap_is(parse("type=1326 comm=\"abc arch=c000003e syscall=1 code=0x0", &r), -EINVAL,
	       "unterminated string: malformed");
	tap_is(parse("type=1326 comm=ABC arch=c000003e syscall=1 code=0x0", &r), -EINVAL,
	       "odd hex comm: malformed");
	tap_is(parse("type=1326 arch=c000003e syscall=1 code=80000000", &r), -EINVAL,
	       "code without 0x: malformed");
	tap_is(parse("type=1326 comm=\"a\x01\x7f\" arch=c000003e syscall=1 code=0x0", &r), 1,
	       "control bytes in comm: accepted");
	tap_ok(!strcmp(r.comm, "a??"), "control bytes in comm: shown as '?'");

	/* every prefix of a record, and random mutations: no crash, no
	 * read past the end (under ASan), a defined result */
	bool defined = true;

	for (size_t n = 0; n <= sizeof(kernel) - 1; n++) {
		char *copy = malloc(n ? n : 1);
		int ret;

		memcpy(copy, kernel, n);
		ret = audit_parse(copy, n, &r);
		defined &= ret == 0 || ret == 1 || ret == -EINVAL;
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
		defined &= ret == 0 || ret == 1 || ret == -EINVAL;
	}
	tap_ok(defined, "prefixes and 20000 mutations: a defined result each");

	return tap_done();
}
