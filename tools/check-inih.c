/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Configure-time probe of the inih library the build links (run by meson):
 * prints the size of the line buffer inih hands its reader, and fails if
 * the dialect differs from what src/profile-ini.c relies on.
 */
#include <ini.h>
#include <stdio.h>
#include <string.h>

static int buffer_size;

/* Record the buffer size of the first call; then "end of file". */
static char *size_reader(char *str, int num, void *stream)
{
	buffer_size = num;
	return NULL;
}

struct expect {
	const char *name, *value;
};

/* What inih must hand the handler for the text below, in order. */
static const char text[] = "a = b ;c\n" /* an inline comment is ' ;' */
			   "d = e;f\n"	/* a ';' without a blank is text */
			   "g : h\n"	/* ':' separates like '=' */
			   "i = j #k\n" /* '#' is not an inline comment */
			   "  l\n"	/* a continuation line */
			   "\n"		/* a blank line ... */
			   "; m\n"	/* ... or a comment ... */
			   "  n\n"	/* ... does not end the continued value */
			   "[]\n"	/* a section header ... */
			   "o = p\n";	/* ... then a key */
static const struct expect expected[] = {
	{ "a", "b" }, { "d", "e;f" }, { "g", "h" }, { "i", "j #k" },
	{ "i", "l" }, { "i", "n" },   { "o", "p" },
};
static size_t n_seen;
static int bad;

static int handler(void *user, const char *section, const char *name, const char *value)
{
	const size_t n = sizeof(expected) / sizeof(expected[0]);

	if (n_seen >= n || strcmp(name, expected[n_seen].name) ||
	    strcmp(value, expected[n_seen].value)) {
		fprintf(stderr, "unexpected key %zu: '%s' = '%s'\n", n_seen + 1, name, value);
		bad = 1;
	}
	n_seen++;
	return 1;
}

int main(void)
{
	int r;

	if (ini_parse_stream(size_reader, NULL, handler, NULL) != 0 || buffer_size < 3) {
		fprintf(stderr, "cannot measure the line buffer\n");
		return 1;
	}
	r = ini_parse_string(text, handler, NULL);
	if (r != 0 || bad || n_seen != sizeof(expected) / sizeof(expected[0])) {
		fprintf(stderr, "inih does not read the dialect scmp-run expects (result %d)\n", r);
		return 1;
	}
	printf("%d\n", buffer_size);
	return 0;
}
