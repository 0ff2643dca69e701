/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * --explain-audit: kernel audit records of seccomp (type=1326, SECCOMP),
 * parsed strictly (they are untrusted input), and explained against a
 * policy (scmp-run(1), FINDING WHAT WAS DENIED).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "policy.h"

/* The longest line read as a record. auditd receives a record in a buffer
 * of MAX_AUDIT_MESSAGE_LENGTH, 8970 bytes (its libaudit.h), sized for an
 * exe= of PATH_MAX hex-encoded; printk keeps less of one in the kernel
 * log. The rest leaves room for what dmesg, a journal or auditd put in
 * front. */
#define AUDIT_LINE_MAX 16384
#define AUDIT_COMM_MAX 64 /* bytes of comm kept (the kernel's is 16) */

struct audit_rec {
	uint32_t arch; /* AUDIT_ARCH_* */
	uint32_t nr;   /* syscall number as the filter saw it */
	uint32_t code; /* the SECCOMP_RET_* action the kernel logged (no data) */
	bool has_pid;
	uint32_t pid;
	char comm[AUDIT_COMM_MAX]; /* as logged, unescaped; empty if absent */
};

/*
 * Parse one line of len bytes (need not be NUL-terminated). Returns 1 and
 * fills *ret for a seccomp record (type=1326 or type=SECCOMP with arch,
 * syscall and code), 0 for a line that is no seccomp record, -EINVAL for a
 * seccomp record that is malformed (a field twice, a bad number, an
 * unterminated string), -E2BIG for a line longer than AUDIT_LINE_MAX that
 * names a seccomp record type, -EBADMSG for a seccomp record type further
 * on in the line than a log message begins (quoted by another message).
 * Never reads past len.
 */
int audit_parse(const char *line, size_t len, struct audit_rec *ret);

/*
 * Explain a record against p: the syscall, the profile's decision (or that
 * it depends on arguments the record does not carry) and the rules that
 * can produce the action the kernel took, written to out.
 */
void audit_explain(const struct policy *p, const struct audit_rec *rec, FILE *out);

/*
 * Explain every seccomp record of path ("-": stdin; NULL: the kernel log,
 * /dev/kmsg) to out. Lines that are no seccomp record are skipped; a
 * malformed record gets a warning in d with its line. Returns the number
 * of records explained (0: none in the input), or a negative errno with an
 * error in d.
 */
int audit_explain_file(const struct policy *p, const char *path, FILE *out, struct diag *d);
