/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Seccomp audit records: a strict key=value parser and the explanation of
 * a record against a policy.
 */
#include "audit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <inttypes.h>
#include <linux/seccomp.h>
#include <string.h>

#include "action.h"
#include "diag.h"
#include "syscalls.h"

struct field {
	const char *key, *val;
	size_t val_len;
	bool quoted;
};

static bool is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

/* Parse an unsigned number of the whole value: base 10 or 16 (with or
 * without 0x, as base says), at most max. */
static bool parse_num(const char *s, size_t n, unsigned base, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;

	if (base == 16 && n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		n -= 2;
	}
	if (!n || n > 20)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned d;

		if (s[i] >= '0' && s[i] <= '9')
			d = (unsigned)(s[i] - '0');
		else if (base == 16 && s[i] >= 'a' && s[i] <= 'f')
			d = (unsigned)(s[i] - 'a' + 10);
		else if (base == 16 && s[i] >= 'A' && s[i] <= 'F')
			d = (unsigned)(s[i] - 'A' + 10);
		else
			return false;
		if (v > (max - d) / base)
			return false;
		v = v * base + d;
	}
	*ret = v;
	return true;
}

/*
 * syscall=: seccomp_data.nr is an int, and audit_seccomp() prints it signed
 * ("syscall=%ld" in kernel/auditsc.c): -1 is "-1", never 4294967295. Kept
 * as the 32-bit value the filter compared.
 */
static bool parse_nr(const char *s, size_t n, uint32_t *ret)
{
	bool neg = n && s[0] == '-';
	uint64_t v;

	if (!parse_num(s + neg, n - neg, 10, neg ? (uint64_t)INT32_MAX + 1 : INT32_MAX, &v))
		return false;
	*ret = (uint32_t)(neg ? 0 - v : v);
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* comm="text" or comm=HEX (the kernel hex-encodes odd names), its bytes
 * as they are up to the first NUL: audit_explain() escapes them. */
static bool parse_comm(const struct field *f, char *out)
{
	size_t o = 0;
	bool ended = false; /* at a NUL, or with AUDIT_COMM_MAX - 1 bytes */

	if (f->quoted) {
		for (size_t i = 0; i < f->val_len && o + 1 < AUDIT_COMM_MAX && f->val[i]; i++)
			out[o++] = f->val[i];
	} else if (f->val_len == 1 && f->val[0] == '?') {
		out[o++] = '?';
	} else {
		if (f->val_len % 2)
			return false;
		for (size_t i = 0; i < f->val_len; i += 2) {
			int hi = hexval(f->val[i]), lo = hexval(f->val[i + 1]);

			if (hi < 0 || lo < 0)
				return false;
			ended |= o + 1 == AUDIT_COMM_MAX || (hi | lo) == 0;
			if (!ended)
				out[o++] = (char)(hi * 16 + lo);
		}
	}
	out[o] = 0;
	return true;
}

/* The type field of a seccomp record, as the kernel and auditd write it
 * (arrays, not pointers: nothing to relocate at start-up). */
static const char seccomp_types[][sizeof("type=SECCOMP")] = { "type=1326", "type=SECCOMP" };

/* Whether the len bytes at s hold a seccomp type field. */
static bool has_seccomp_type(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof(seccomp_types) / sizeof(seccomp_types[0]); i++)
		if (memmem(s, len, seccomp_types[i], strlen(seccomp_types[i])))
			return true;
	return false;
}

/*
 * The length of the record in line: up to its first '\n', or its first 0x1D
 * (ASCII group separator). auditd with log_format = ENRICHED, Debian's
 * default, writes its own reading of the fields after that byte
 * (AUID="unset" UID="root" ARCH=x86_64 SYSCALL=mkdir): auditd's
 * interpretation, not the kernel's record. A '\r' before the line's end
 * is a CRLF line end (a log copied through another system), no part of
 * the last value.
 */
static size_t record_len(const char *line, size_t len)
{
	size_t n = 0;

	while (n < len && line[n] != '\n' && line[n] != 0x1d)
		n++;
	if (n && line[n - 1] == '\r' && (n == len || line[n] == '\n'))
		n--;
	return n;
}

static bool at(const char *line, size_t len, size_t i, const char *s)
{
	size_t n = strlen(s);

	return len - i >= n && !memcmp(line + i, s, n);
}

static size_t skip_blanks(const char *line, size_t len, size_t i)
{
	while (i < len && line[i] == ' ')
		i++;
	return i;
}

/* The end of the word at i (a run of other bytes than blanks). */
static size_t word_end(const char *line, size_t len, size_t i)
{
	while (i < len && line[i] != ' ')
		i++;
	return i;
}

/* dmesg's "[  915.971400] " or "[Mon Mar  1 12:00:00 2027] " at i, if there. */
static size_t skip_time(const char *line, size_t len, size_t i)
{
	const char *end = i < len && line[i] == '[' ? memchr(line + i, ']', len - i) : NULL;

	return end ? skip_blanks(line, len, (size_t)(end - line) + 1) : i;
}

/* /dev/kmsg's "PRIO,SEQ,USEC,FLAGS;" (Documentation/ABI/testing/dev-kmsg) at i, if there. */
static size_t skip_kmsg(const char *line, size_t len, size_t i)
{
	size_t j = i;

	for (int commas = 0; commas < 3; commas++) {
		size_t digits = j;

		while (j < len && line[j] >= '0' && line[j] <= '9')
			j++;
		if (j == digits || j >= len || line[j] != ',')
			return i;
		j++;
	}
	while (j < len && line[j] != ';' && line[j] != ' ')
		j++;
	return j < len && line[j] == ';' ? j + 1 : i;
}

/* dmesg -x's "kern  :notice: " at i, if there: the kernel's facility only
 * (a user's message to the kernel log is "user  :"), then a level. */
static size_t skip_level(const char *line, size_t len, size_t i)
{
	size_t j;

	if (!at(line, len, i, "kern"))
		return i;
	j = skip_blanks(line, len, i + strlen("kern"));
	if (j >= len || line[j] != ':')
		return i;
	j++;
	while (j < len && line[j] >= 'a' && line[j] <= 'z')
		j++;
	j = skip_blanks(line, len, j);
	return at(line, len, j, ": ") ? j + 2 : i;
}

/* A syslog or journal header at i, "Mar  1 12:00:00 host kernel: ", its
 * "kernel:" among its first words; returns i if there is none. */
static size_t skip_syslog(const char *line, size_t len, size_t i)
{
	size_t j = i;

	for (unsigned words = 0; words < 6 && j < len; words++) {
		size_t end = word_end(line, len, j);

		if (end - j == 7 && !memcmp(line + j, "kernel:", 7))
			return skip_time(line, len, skip_blanks(line, len, end));
		j = skip_blanks(line, len, end);
	}
	return i;
}

/* An RFC 5424 header of the kernel's facility at i, "<5>1 TIMESTAMP HOST
 * kernel - - - ", with no structured data (the kernel's messages carry
 * none); returns i if there is none. PRI below 8 is the kern facility,
 * which a user's syslog(3) message never has. */
static size_t skip_rfc5424(const char *line, size_t len, size_t i)
{
	static const char *const tail[] = { "kernel", "-", "-", "-" };
	size_t j = i + 1;

	if (!at(line, len, i, "<"))
		return i;
	while (j < len && line[j] >= '0' && line[j] <= '9')
		j++;
	if (j == i + 1 || j - i > 2 || !at(line, len, j, ">1 ") || line[j - 1] > '7')
		return i;
	j += strlen(">1 ");
	for (unsigned w = 0; w < 2; w++) /* TIMESTAMP HOSTNAME */
		j = skip_blanks(line, len, word_end(line, len, j));
	for (size_t w = 0; w < sizeof(tail) / sizeof(tail[0]); w++) {
		size_t end = word_end(line, len, j);

		if (end - j != strlen(tail[w]) || memcmp(line + j, tail[w], end - j))
			return i;
		j = skip_blanks(line, len, end);
	}
	return skip_time(line, len, j);
}

/*
 * Where the record's type field is: at the start of the log message (after
 * auditd's "node=HOST", dmesg's level and time, a kernel log prefix, a syslog
 * header or an RFC 5424 one, then the kernel's "audit: "), or nowhere
 * (len). A type field further on is text another message quotes: a file
 * name in a kernel message about a crash, which any user can choose, would
 * otherwise be taken for a record (scmp-run(1) FINDING WHAT WAS DENIED).
 */
static size_t record_start(const char *line, size_t len)
{
	size_t i = skip_blanks(line, len, 0), j;

	if (at(line, len, i, "MESSAGE=")) /* journalctl -o verbose */
		i += strlen("MESSAGE=");
	if (at(line, len, i, "node="))
		i = skip_blanks(line, len, word_end(line, len, i));
	if (at(line, len, i, "type="))
		return i;
	i = skip_time(line, len, skip_level(line, len, skip_kmsg(line, len, i)));
	if (!at(line, len, i, "audit: "))
		i = skip_rfc5424(line, len, i);
	if (!at(line, len, i, "audit: "))
		i = skip_syslog(line, len, i);
	if (!at(line, len, i, "audit: "))
		return len;
	j = skip_blanks(line, len, i + strlen("audit: "));
	return at(line, len, j, "type=") ? j : len;
}

int audit_parse(const char *line, size_t len, struct audit_rec *ret)
{
	bool seccomp = false, seen_arch = false, seen_nr = false, seen_code = false,
	     seen_pid = false, seen_comm = false, bad = false;
	size_t i = 0;

	memset(ret, 0, sizeof(*ret));
	len = record_len(line, len);
	if (len > AUDIT_LINE_MAX)
		/* no kernel record is that long: one that is cut is reported */
		return has_seccomp_type(line, len) ? -E2BIG : 0;
	i = record_start(line, len);
	if (i == len)
		return has_seccomp_type(line, len) ? -EBADMSG : 0;
	while (i < len && line[i] != '\n') {
		struct field f = { 0 };
		size_t k = i;

		/* a key: a run of key characters followed by '=' */
		while (k < len && is_key_char(line[k]))
			k++;
		if (k == i || k >= len || line[k] != '=') {
			/* not a field: skip the word */
			while (i < len && line[i] != ' ' && line[i] != '\n')
				i++;
			while (i < len && line[i] == ' ')
				i++;
			continue;
		}
		f.key = line + i;
		size_t key_len = k - i;

		i = k + 1;
		if (i < len && line[i] == '"') {
			size_t end = i + 1;

			while (end < len && line[end] != '"' && line[end] != '\n')
				end++;
			if (end >= len || line[end] != '"') {
				bad = true; /* unterminated */
				break;
			}
			f.val = line + i + 1;
			f.val_len = end - i - 1;
			f.quoted = true;
			i = end + 1;
		} else {
			size_t end = i;

			while (end < len && line[end] != ' ' && line[end] != '\n')
				end++;
			f.val = line + i;
			f.val_len = end - i;
			i = end;
		}
		while (i < len && line[i] == ' ')
			i++;

#define KEY(s) (key_len == sizeof(s) - 1 && !memcmp(f.key, s, sizeof(s) - 1))
		uint64_t v = 0;

		if (KEY("type")) {
			if ((f.val_len == 4 && !memcmp(f.val, "1326", 4)) ||
			    (f.val_len == 7 && !memcmp(f.val, "SECCOMP", 7)))
				seccomp = true;
			else
				return 0; /* another record type */
		} else if (KEY("arch")) {
			bad |= seen_arch || f.quoted ||
			       !parse_num(f.val, f.val_len, 16, UINT32_MAX, &v);
			ret->arch = (uint32_t)v;
			seen_arch = true;
		} else if (KEY("syscall")) {
			bad |= seen_nr || f.quoted || !parse_nr(f.val, f.val_len, &ret->nr);
			seen_nr = true;
		} else if (KEY("code")) {
			bad |= seen_code || f.quoted || f.val_len < 3 || f.val[0] != '0' ||
			       f.val[1] != 'x' || !parse_num(f.val, f.val_len, 16, UINT32_MAX, &v);
			ret->code = (uint32_t)v;
			seen_code = true;
		} else if (KEY("pid")) {
			bad |= seen_pid || f.quoted ||
			       !parse_num(f.val, f.val_len, 10, INT32_MAX, &v);
			ret->pid = (uint32_t)v;
			ret->has_pid = true;
			seen_pid = true;
		} else if (KEY("comm")) {
			bad |= seen_comm || !parse_comm(&f, ret->comm);
			seen_comm = true;
		}
#undef KEY
		if (bad)
			break;
	}
	if (!seccomp)
		return 0;
	if (bad || !seen_arch || !seen_nr || !seen_code)
		return -EINVAL;
	return 1;
}

static void put_loc(FILE *out, const struct rrule *rr)
{
	char loc[256];

	fprintf(out, "%s%s", src_loc_format(&rr->src->loc, loc, sizeof(loc)),
		rr->via_mux ? " (through the multiplexer)" : "");
}

/*
 * The kernel logs the action of a call without its data: __seccomp_filter()
 * in kernel/seccomp.c hands filter_ret & SECCOMP_RET_ACTION_FULL to
 * seccomp_log(), so every errno record says code=0x50000 and every trap
 * record 0x30000. A rule produces a record when its action is of that kind.
 */
static bool same_action(uint32_t ret, uint32_t code)
{
	return (ret & SECCOMP_RET_ACTION_FULL) == (code & SECCOMP_RET_ACTION_FULL);
}

/* A call no rule names: the default or the unknown-syscall action. */
static bool explain_unruled(const struct policy *p, const struct audit_rec *rec,
			    const struct arch *a, FILE *out)
{
	struct seccomp_data sd = { .nr = (int)rec->nr, .arch = rec->arch };
	struct decision dec;
	char buf[64];

	policy_decide(p, &sd, &dec);
	fprintf(out, "  decision: %s by %s\n", action_format_ret(dec.ret, a, buf, sizeof(buf)),
		dec.why == DECIDE_UNKNOWN ? "unknown-syscall-action" : "default-action");
	return same_action(dec.ret, rec->code);
}

/* Conditional rules: the record has no arguments, so every rule (and the
 * default, which a call no rule matches reaches) that gives the action
 * the kernel took is listed. */
static bool list_producers(const struct abi_policy *abi, const struct rsys *s,
			   const struct audit_rec *rec, FILE *out)
{
	bool any = false, reaches_default = true;

	fputs("  decision: depends on the arguments (the record has none)\n", out);
	for (size_t i = 0; i < s->n_rules; i++) {
		if (!s->rules[i].n_cmps)
			reaches_default = false;
		if (!same_action(s->rules[i].ret, rec->code))
			continue;
		fputs(any ? ", " : "  rules that produce it: ", out);
		put_loc(out, &s->rules[i]);
		any = true;
	}
	if (reaches_default && same_action(abi->default_ret, rec->code)) {
		fputs(any ? ", " : "  rules that produce it: ", out);
		fputs("default-action", out);
		any = true;
	}
	if (any)
		fputc('\n', out);
	return any;
}

/* A call of an ABI of the filter; true if the profile can produce the
 * record's action for it. */
static bool explain_abi(const struct policy *p, const struct abi_policy *abi,
			const struct audit_rec *rec, FILE *out)
{
	const struct rsys *s = policy_rsys(abi, rec->nr);
	char buf[64];

	if (!s)
		return explain_unruled(p, rec, abi->arch, out);
	for (size_t i = 0; i < s->n_rules; i++)
		if (s->rules[i].n_cmps)
			return list_producers(abi, s, rec, out);
	fprintf(out, "  decision: %s by ",
		action_format_ret(s->rules[0].ret, abi->arch, buf, sizeof(buf)));
	put_loc(out, &s->rules[0]);
	fputc('\n', out);
	return same_action(s->rules[0].ret, rec->code);
}

/*
 * A call of an ABI the filter does not list. x32 shares AUDIT_ARCH_X86_64
 * with x86_64 and is told apart by the x32 bit of the number
 * (scmp-run.ini(5) ARCHITECTURES): its arch can be in the filter while its
 * ABI is not. call is the call's ABI (NULL: an arch no ABI has).
 */
static bool explain_bad_arch(const struct policy *p, const struct audit_rec *rec,
			     const struct arch *call, FILE *out)
{
	/* policy_build() resolves the bad-arch errno name for the first ABI */
	const struct arch *first = p->n_abis ? p->abis[0].arch : NULL;
	const struct arch *sibling = NULL;
	char buf[64];

	for (size_t i = 0; i < p->n_abis; i++)
		if (p->abis[i].arch->audit_arch == rec->arch)
			sibling = p->abis[i].arch;
	fprintf(out, "  decision: %s (bad-arch-action: ",
		action_format_ret(p->bad_arch_ret, first, buf, sizeof(buf)));
	if (call && sibling)
		fprintf(out,
			"the %s ABI is not in the filter; arch %#" PRIx32
			" is, for %s, and bit %#x of the number tells them apart)\n",
			call->name, rec->arch, sibling->name, ARCH_X32_SYSCALL_BIT);
	else if (call)
		fprintf(out, "the %s ABI, arch %#" PRIx32 ", is not in the filter)\n", call->name,
			rec->arch);
	else
		fprintf(out, "arch %#" PRIx32 " is not in the filter)\n", rec->arch);
	return same_action(p->bad_arch_ret, rec->code);
}

/*
 * A negative number is no syscall: a program asked for it, or, after
 * trace, a tracer that skips the call set it, and __seccomp_filter()
 * (kernel/seccomp.c) then logs that number rather than the call's. Returns
 * true when the record may not name the call the filter decided.
 */
static bool note_negative(const struct audit_rec *rec, bool abi_in_filter, FILE *out)
{
	int32_t nr = (int32_t)rec->nr;

	if (nr >= 0)
		return false;
	if ((rec->code & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_TRACE) {
		fprintf(out,
			"  note: a tracer that skips a call after trace sets its number to %" PRId32
			", which the kernel then logs: the record may not name the traced call\n",
			nr);
		return true;
	}
	if (nr == -1 && abi_in_filter)
		/* the number a tracer uses to skip a call: policy_abi_for() */
		fputs("  note: -1 is no syscall; the filter gives it unknown-syscall-action, "
		      "never bad-arch-action (scmp-run.ini(5) ARCHITECTURES)\n",
		      out);
	else
		fprintf(out, "  note: %" PRId32 " is no syscall\n", nr);
	return false;
}

void audit_explain(const struct policy *p, const struct audit_rec *rec, FILE *out)
{
	const struct abi_policy *abi = policy_abi_for(p, rec->arch, rec->nr);
	/* the call's ABI, in the filter or not */
	const struct arch *a = abi ? abi->arch : arch_of_call(rec->arch, rec->nr);
	const char *name = a ? syscalls_lookup_nr(a, rec->nr) : NULL;
	const char *took = action_ret_kind_name(rec->code);
	bool produced;

	/* the number as the kernel printed it: signed (parse_nr()) */
	fprintf(out, "%s [%s %" PRId32 "]", name ? name : "unknown", a ? a->name : "bad arch",
		(int32_t)rec->nr);
	if (rec->has_pid)
		fprintf(out, " pid %" PRIu32, rec->pid);
	if (rec->comm[0]) {
		fputs(" (", out);
		diag_fputs_escaped_name(rec->comm, out);
		fputc(')', out);
	}
	fprintf(out, ": the kernel took %s\n", took);

	produced = abi ? explain_abi(p, abi, rec, out) : explain_bad_arch(p, rec, a, out);
	if (note_negative(rec, abi != NULL, out))
		produced = true;
	if (!produced)
		fprintf(out,
			"  this profile never produces %s for this call: the record comes "
			"from another filter or another version of the profile\n",
			took);
}

/* One line at loc; where, after the message, says more of its place. */
static void one_line(const struct policy *p, const char *line, size_t len,
		     const struct src_loc *loc, const char *where, FILE *out, struct diag *d,
		     int *n)
{
	struct audit_rec rec;
	int r = audit_parse(line, len, &rec);

	if (r == -E2BIG) {
		diag_warning(d, loc, "seccomp audit record%s longer than %d bytes: skipped", where,
			     AUDIT_LINE_MAX);
	} else if (r == -EBADMSG) {
		diag_warning(d, loc,
			     "seccomp audit record type not at the start of a log message%s "
			     "(text another message quotes?): skipped",
			     where);
	} else if (r < 0) {
		diag_warning(d, loc, "malformed seccomp audit record%s: skipped", where);
	} else if (r > 0) {
		if (*n)
			fputc('\n', out);
		audit_explain(p, &rec, out);
		(*n)++;
	}
}

/*
 * Where a /dev/kmsg record is, for a warning: a record has no line number,
 * but its prefix "PRIO,SEQ,USEC,FLAGS;" (Documentation/ABI/testing/dev-kmsg)
 * gives its sequence number and the time dmesg shows in front of it. index
 * counts the records read, for a prefix that does not parse. rec is
 * NUL-terminated.
 */
static void kmsg_where(const char *rec, unsigned index, char *buf, size_t size)
{
	unsigned long long seq, usec;

	if (sscanf(rec, "%*u,%llu,%llu,", &seq, &usec) == 2)
		snprintf(buf, size, " (record %llu, [%5llu.%06llu] in dmesg)", seq, usec / 1000000,
			 usec % 1000000);
	else
		snprintf(buf, size, " (record %u read)", index);
}

/*
 * The kernel log, one record per read(); EAGAIN at the end of the buffer.
 * Any other error ends the explanation with an error, not a short list:
 * the records after it would be missing without a word (EINVAL, a record
 * longer than the buffer, even repeats forever, as the kernel does not
 * move past it; Documentation/ABI/testing/dev-kmsg).
 */
static int explain_kmsg(const struct policy *p, FILE *out, struct diag *d)
{
	static const struct src_loc loc = { .file = "/dev/kmsg" };
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char buf[AUDIT_LINE_MAX + 1], where[64];
	unsigned index = 0;
	int n = 0;

	if (fd < 0) {
		int err = errno;

		diag_error(d, NULL, "reading the kernel log (/dev/kmsg) failed: %s", strerror(err));
		diag_hint(d, NULL, "pass the records as a file, or '-' with dmesg | ...");
		return -err;
	}
	for (;;) {
		ssize_t got = read(fd, buf, sizeof(buf) - 1);

		if (got < 0 && errno == EPIPE)
			continue; /* records were overwritten meanwhile */
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno != EAGAIN) {
			n = -errno;
			diag_error(d, NULL,
				   "reading the kernel log (/dev/kmsg) failed after %u records: %s",
				   index, strerror(-n));
			break;
		}
		if (got <= 0)
			break;
		buf[got] = 0;
		kmsg_where(buf, ++index, where, sizeof(where));
		one_line(p, buf, (size_t)got, &loc, where, out, d, &n);
	}
	close(fd);
	return n;
}

/* Does the record part of a line, whose last bytes are win (size bytes,
 * the latest last), end with a seccomp type field as audit_parse() looks
 * for it? */
static bool ends_seccomp_type(const char *win, size_t size)
{
	for (size_t i = 0; i < sizeof(seccomp_types) / sizeof(seccomp_types[0]); i++) {
		size_t len = strlen(seccomp_types[i]);

		if (len <= size && !memcmp(win + size - len, seccomp_types[i], len))
			return true;
	}
	return false;
}

/*
 * One line of f, without its '\n', into buf: AUDIT_LINE_MAX + 1 bytes at
 * most, one more than a record may have. The rest of a longer line is read
 * and dropped, so that a line takes bounded memory whatever the input
 * (getline() grows to hold it, and out of memory fails without an error
 * on the stream: the input would end early, unsaid). *ret_seccomp: the
 * dropped rest is part of a seccomp record (a type field in it, before a
 * 0x1D: record_len()), which is then too long. Returns the length kept,
 * or -1 at the end of f or on an error (ferror()).
 */
static ssize_t read_line(FILE *f, char *buf, bool *ret_seccomp)
{
	char win[16]; /* the last bytes of the record part: a type field may straddle */
	size_t n = 0;
	bool record = true;
	int c;

	*ret_seccomp = false;
	while ((c = getc_unlocked(f)) != EOF && c != '\n') {
		if (c == 0x1d)
			record = false;
		if (n < AUDIT_LINE_MAX + 1) {
			buf[n++] = (char)c;
			if (n == AUDIT_LINE_MAX + 1)
				memcpy(win, buf + n - sizeof(win), sizeof(win));
			continue;
		}
		if (!record || *ret_seccomp)
			continue;
		memmove(win, win + 1, sizeof(win) - 1);
		win[sizeof(win) - 1] = (char)c;
		*ret_seccomp = ends_seccomp_type(win, sizeof(win));
	}
	return c == EOF && (n == 0 || ferror(f)) ? -1 : (ssize_t)n;
}

int audit_explain_file(const struct policy *p, const char *path, FILE *out, struct diag *d)
{
	const char *name;
	struct src_loc loc = { 0 };
	char *line;
	bool long_seccomp;
	ssize_t got;
	FILE *f;
	int err, n = 0;

	if (!path)
		return explain_kmsg(p, out, d);
	name = strcmp(path, "-") ? path : "standard input";
	f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	if (!f) {
		err = errno;
		diag_error(d, NULL, "opening '%s' failed: %s", path, strerror(err));
		return -err;
	}
	loc.file = name;
	line = malloc(AUDIT_LINE_MAX + 1);
	if (!line) {
		if (f != stdin)
			fclose(f);
		diag_error(d, NULL, "out of memory");
		return -ENOMEM;
	}
	errno = 0;
	while ((got = read_line(f, line, &long_seccomp)) >= 0) {
		loc.line++;
		if (long_seccomp)
			diag_warning(d, &loc, "seccomp audit record longer than %d bytes: skipped",
				     AUDIT_LINE_MAX);
		else
			one_line(p, line, (size_t)got, &loc, "", out, d, &n);
	}
	err = errno; /* getc()'s, when it failed rather than ended */
	free(line);
	if (ferror(f)) {
		diag_error(d, NULL, "reading '%s' failed: %s", name, strerror(err));
		n = -EIO;
	}
	if (f != stdin)
		fclose(f);
	return n;
}
