/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Capability names (capabilities(7)), from libcap-ng. Unless libcap-ng is
 * linked (-Dstatic-helpers=true), it is opened with dlopen() the first
 * time a name is needed: a profile that names no capability, nearly every
 * launch, never maps it nor runs its constructor (docs/performance.md,
 * Launch).
 */
#pragma once

/* The number of a capability written in lower case without "cap_"
 * ("net_admin"). -EINVAL if there is no such capability; -ENOENT if
 * libcap-ng cannot be opened, with the reason in *reterr (static). */
int capname_number(const char *lower, const char **reterr);

/* libcap-ng's lower-case name of cap ("net_admin"); NULL if it has none
 * or cannot be opened. */
const char *capname_of(int cap);
