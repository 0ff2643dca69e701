/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target over callfmt_format(): everything it formats comes from
 * the sandboxed program (the ABI it calls with, the number, the six
 * registers, the memory its pointers lead to), so an input is all of
 * these, and the memory is served by a read callback that fails or reads
 * short where the input says. The text goes into a --report line
 * (scmp-run(1) FINDING WHAT WAS DENIED): it must fit its buffer, hold
 * printable ASCII only (no line break, nothing for a terminal), keep the
 * program's bytes inside escaped quotes, and be cut cleanly when too long.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "arch.h"
#include "callfmt.h"
#include "syscalls.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HEAD	   (3 + 4 + 8 * SYSCALL_ARGS_MAX) /* bytes before the memory */
#define FULL_SIZE  4096				  /* never too small: the reference text */
#define WINDOW	   0xfff /* address bits that pick an offset in the memory */
#define REPORT_BUF 512	 /* the size supervise.c formats into */

/* Flags of the second input byte. */
enum {
	NO_NAME = 1,	 /* the number has no name (as for an unknown one) */
	NO_READ = 2,	 /* no callback: strings are not read */
	READ_FAILS = 4,	 /* past the memory: an error, else a short read */
	NR_IN_TABLE = 8, /* the number is a small one past the ABI's base */
};

struct mem {
	const uint8_t *p;
	size_t len;
	unsigned flags;
	size_t reads;
};

/* The caller's memory: an address picks an offset into the blob; a read
 * past its end fails or stops there, as at an unmapped page. */
static ssize_t read_mem(void *data, uint64_t addr, char *buf, size_t size)
{
	struct mem *m = data;
	size_t off = (size_t)(addr & WINDOW), n;

	m->reads++;
	if (size > CALLFMT_STRING_MAX)
		abort(); /* more than the caller asked to be shown */
	if (off >= m->len || (off + size > m->len && (m->flags & READ_FAILS)))
		return -EFAULT;
	n = m->len - off < size ? m->len - off : size;
	memcpy(buf, m->p + off, n);
	return (ssize_t)n;
}

static void fail(const char *what, const char *text, size_t size)
{
	fprintf(stderr, "fuzz-callfmt: %s (buffer %zu): [%s]\n", what, size, text);
	abort();
}

/* Inside quotes, the program's bytes: only \" \\ and \xNN escapes (but
 * where a cut text ends in "...", which may split one). The rest is ours:
 * no backslash, no quote but the delimiters. True if the text ends
 * outside a string. */
static bool check_quoting(const char *s, size_t size, bool cut)
{
	bool in = false;

	for (const char *p = s; *p; p++) {
		if ((unsigned char)*p < 0x20 || (unsigned char)*p > 0x7e)
			fail("a byte that is not printable ASCII", s, size);
		if (!in) {
			if (*p == '\\')
				fail("a backslash outside a string", s, size);
			in = *p == '"';
			continue;
		}
		if (*p == '"') {
			in = false;
		} else if (*p == '\\') {
			if (p[1] == '"' || p[1] == '\\')
				p++;
			else if (p[1] == 'x' && isxdigit((unsigned char)p[2]) &&
				 isxdigit((unsigned char)p[3]))
				p += 3;
			else if (!cut || strlen(p) > 6) /* \x4... */
				fail("an escape that is none", s, size);
		}
	}
	return !in;
}

static void check_text(const char *s, size_t size, const char *name, bool cut)
{
	size_t len = strnlen(s, size);

	if (len >= size)
		fail("not NUL-terminated in its buffer", "", size);
	check_quoting(s, size, cut);
	if (name && strncmp(s, name, strlen(name)))
		fail("the text does not start with the name", s, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t args[SYSCALL_ARGS_MAX];
	char full[FULL_SIZE], *small;
	const struct arch *a;
	const char *name;
	struct mem m;
	size_t bufsize, len;
	uint32_t nr;

	if (size < HEAD)
		return -1;
	a = arch_get((enum arch_id)(data[0] % ARCH_COUNT));
	m = (struct mem){ .p = data + HEAD, .len = size - HEAD, .flags = data[1] };
	bufsize = data[2] ? data[2] : REPORT_BUF;
	memcpy(&nr, data + 3, sizeof(nr));
	if (m.flags & NR_IN_TABLE)
		nr = a->nr_base + nr % 1024;
	memcpy(args, data + 7, sizeof(args));
	name = m.flags & NO_NAME ? NULL : syscalls_lookup_nr(a, nr);

	callfmt_format(a, name, nr, args, m.flags & NO_READ ? NULL : read_mem, &m, full,
		       sizeof(full));
	check_text(full, sizeof(full), name, false);
	len = strlen(full);
	if (len + 1 >= sizeof(full))
		fail("the reference text does not fit its buffer", full, sizeof(full));
	if (full[len - 1] != ')' || !check_quoting(full, sizeof(full), false))
		fail("a complete text that does not end its list", full, sizeof(full));
	if ((m.flags & NO_READ) && m.reads)
		abort();

	/* the same call into a buffer of the input's size (exactly that
	 * much, for ASan): the text, or its head ending in "..." */
	small = malloc(bufsize);
	if (!small)
		return 0;
	memset(small, 'Z', bufsize);
	callfmt_format(a, name, nr, args, m.flags & NO_READ ? NULL : read_mem, &m, small, bufsize);
	check_text(small, bufsize, NULL, len >= bufsize);
	if (len < bufsize) {
		if (strcmp(small, full))
			fail("a text that fits differs from the reference", small, bufsize);
	} else if (bufsize > 4) {
		if (strlen(small) != bufsize - 1 || strncmp(small, full, bufsize - 4) ||
		    strcmp(small + bufsize - 4, "..."))
			fail("a cut text is not the reference's head and \"...\"", small, bufsize);
	} else if (strlen(small) != bufsize - 1 || strncmp(small, full, bufsize - 1)) {
		fail("a cut text is not the reference's head", small, bufsize);
	}
	free(small);
	return 0;
}
