/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Setting this process's capability sets directly: capset(2) and
 * prctl(2), without a library's model of the process (scmp-run(1), "Run mode").
 */
#include "caps.h"

#include <errno.h>
#include <linux/capability.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* capset(2) with the same 64-bit set as effective, permitted and
 * (inh) inheritable. */
static int set3(uint64_t eff_prm, uint64_t inh)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {
		{ (uint32_t)eff_prm, (uint32_t)eff_prm, (uint32_t)inh },
		{ (uint32_t)(eff_prm >> 32), (uint32_t)(eff_prm >> 32), (uint32_t)(inh >> 32) },
	};

	return syscall(SYS_capset, &hdr, data) < 0 ? -errno : 0;
}

int caps_drop_bounding(uint64_t keep)
{
	/* up to the kernel's last capability: past it, EINVAL */
	for (int c = 0; c < 64; c++) {
		if (keep & (uint64_t)1 << c)
			continue;
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0) {
			if (errno == EINVAL && c > 0)
				break;
			return -errno;
		}
	}
	return 0;
}

int caps_set(uint64_t keep, bool bound, const char **ret_step)
{
	const uint64_t setpcap = (uint64_t)1 << CAP_SETPCAP;
	int r;

	*ret_step = "dropping capabilities";
	if (bound) {
		/* CAP_SETPCAP effective while the bounding set shrinks */
		r = set3(keep | setpcap, keep);
		if (r < 0)
			return r;
		*ret_step = "dropping the capability bounding set";
		r = caps_drop_bounding(keep);
		if (r < 0)
			return r;
		*ret_step = "dropping capabilities";
	}
	return set3(keep, keep);
}

int caps_read(struct caps_sets *c)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) < 0)
		return -errno;
	c->eff = data[0].effective | (uint64_t)data[1].effective << 32;
	c->prm = data[0].permitted | (uint64_t)data[1].permitted << 32;
	c->inh = data[0].inheritable | (uint64_t)data[1].inheritable << 32;
	return 0;
}

bool caps_held(void)
{
	struct caps_sets now;

	return caps_read(&now) < 0 || now.prm || now.eff;
}
