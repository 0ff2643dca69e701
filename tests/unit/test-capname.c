/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Unit tests of capability names (capname.h): the spellings a profile may
 * use, what is never a name, and the text made of a number, with and
 * without a name, in any buffer.
 */
#include <errno.h>
#include <string.h>

#include "src/capname.h"
#include "tests/tap.h"

static void parses(const char *word, int want)
{
	const char *err = NULL;
	int r = capname_parse(word, &err);

	tap_ok(r == want, "'%s' is capability %d (got %d%s%s)", word, want, r, r < 0 ? ": " : "",
	       r < 0 && err ? err : "");
}

static void refused(const char *word)
{
	const char *err = NULL;
	int r = capname_parse(word, &err);

	tap_ok(r == -EINVAL && err && !strcmp(err, "unknown capability"),
	       "'%s' is no capability (got %d)", word, r);
}

/* cap into the first size bytes of a larger buffer: the rest must stay as
 * it was */
static void formats(int cap, size_t size, const char *want)
{
	char buf[96];
	bool untouched = true;

	memset(buf, 'x', sizeof(buf) - 1);
	buf[sizeof(buf) - 1] = '\0';
	capname_format(cap, buf, size);
	for (size_t i = size; i < sizeof(buf) - 1; i++)
		untouched &= buf[i] == 'x';
	tap_ok(!strcmp(buf, want) && untouched, "%d in %zu bytes is '%s' (got '%.*s'%s)", cap, size,
	       want, (int)size, buf, untouched ? "" : ", and wrote past them");
}

int main(void)
{
	const char *err = NULL;

	if (capname_parse("net_admin", &err) == -ENOENT) {
		tap_skip("libcap-ng cannot be opened: %s", err);
		return tap_done();
	}
	parses("net_admin", 12);
	parses("CAP_NET_ADMIN", 12);
	parses("cap_Net_Bind_Service", 10);
	parses("chown", 0);
	refused("");
	refused("cap_");
	refused("12");
	refused("cap_12");
	refused("net_admins");
	refused("cap_net_bind_service_and_then_a_great_deal_more_than_sixty_four_bytes");

	formats(10, 64, "CAP_NET_BIND_SERVICE");
	formats(0, 64, "CAP_CHOWN");
	/* no name: the number, never an empty or a foreign text */
	formats(63, 64, "capability 63");
	formats(-1, 64, "capability -1");
	/* a short buffer is cut, and nothing past it is touched */
	formats(10, 7, "CAP_NE");
	formats(10, 3, "CA");
	formats(10, 1, "");
	return tap_done();
}
