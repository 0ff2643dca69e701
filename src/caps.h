/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Capability sets of this process, set with capset(2) and
 * prctl(PR_CAPBSET_DROP) directly: one call per set, no /proc reads.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/*
 * Make the effective, permitted and inheritable sets exactly keep (a bit
 * per capability number); with bound, also drop every capability not in
 * keep from the bounding set (needs CAP_SETPCAP permitted: it is kept
 * effective until the bounding set is done). Ambient capabilities are the
 * caller's. Returns 0, or -errno with *ret_step naming the step that
 * failed. The caller verifies the result by reading it back.
 */
int caps_set(uint64_t keep, bool bound, const char **ret_step);

/* Drop every capability not in keep from the bounding set, up to the
 * kernel's last one (needs CAP_SETPCAP effective). Returns 0 or -errno. */
int caps_drop_bounding(uint64_t keep);

/* The effective, permitted and inheritable sets, a bit per capability. */
struct caps_sets {
	uint64_t eff, prm, inh;
};

/* Read this process's sets with capget(2) directly (independent of
 * libcap-ng's cached state). Returns 0 or -errno. */
int caps_read(struct caps_sets *c);

/* Whether this process holds a capability (permitted or effective, which
 * ambient ones are too): privileges a profile hands on, as root's are
 * (scmp-run(1) TRUST). True when the sets cannot be read. */
bool caps_held(void);

/* no-new-privs = no with CAP_SYS_ADMIN not in [capabilities] keep: run
 * mode's refusal and --check's error (scmp-run.ini(5) no-new-privs). */
#define CAPS_NNP_NEEDS_SYS_ADMIN                                                               \
	"no-new-privs = no needs CAP_SYS_ADMIN in [capabilities] keep: the kernel installs a " \
	"seccomp filter without no_new_privs only for a process that has CAP_SYS_ADMIN"
#define CAPS_NNP_HINT                                                                         \
	"set no-new-privs = yes unless the command must gain privileges through set-user-ID " \
	"programs or file capabilities"
