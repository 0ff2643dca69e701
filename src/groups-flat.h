/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The built-in groups expanded at build time (tools/gen-groups-flat.c,
 * into groups-flat.c): each group's syscalls in the order the profile
 * loader emits them, nested groups followed depth first, each name once,
 * as ids of the syscall table (syscalls_name_id()). A launch then expands
 * @system-service without looking up one name.
 */
#pragma once

#include <stdint.h>

/* An entry with this bit is no id but the offset of a name no table has
 * in groups_flat_other ("fstatat": kept, since systemd lists it). */
#define GROUPS_FLAT_OTHER 0x8000u

struct groups_flat {
	uint16_t first; /* in groups_flat_ids */
	uint16_t n;
};

extern const uint16_t groups_flat_ids[];
extern const char groups_flat_other[];
/* One per group of groups_list(), in its order; then @known, every name of
 * every ABI's table in the order of syscalls_names(). */
extern const struct groups_flat groups_flat[];
extern const unsigned groups_flat_n;
