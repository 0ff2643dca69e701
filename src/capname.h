/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Capability names (capabilities(7)), from libcap-ng. Unless libcap-ng is
 * linked (-Dstatic-helpers=true), it is opened with dlopen() the first
 * time a name is needed: a profile that names no capability, nearly every
 * launch, never maps it nor runs its constructor (docs/performance.md,
 * Launch).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The number of a capability written "CAP_NET_ADMIN" or "net_admin", in
 * any case; never a number. -EINVAL if there is no such capability;
 * -ENOENT if libcap-ng cannot be opened, with the reason in *reterr
 * (static). */
int capname_parse(const char *word, const char **reterr);

/* libcap-ng's lower-case name of cap ("net_admin"); NULL if it has none
 * or cannot be opened. */
const char *capname_of(int cap);

/* "CAP_NET_ADMIN" for cap into buf, or "capability N" when it has no name. */
void capname_format(int cap, char *buf, size_t size);

/* The "capabilities:" line of --check and -v: what [capabilities] keep
 * (n numbers in keep) and ambient leave the command (scmp-run(1), Run
 * mode). Returns 0 or -EIO. */
int capname_describe_keep(const int *keep, unsigned n, bool ambient, FILE *f);
