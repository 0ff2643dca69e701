/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * The Landlock user-space ABI, transcribed from include/uapi/linux/landlock.h
 * of Linux 6.12 (Debian's linux-source-6.12); the system's <linux/landlock.h>
 * may be older. tools/check-landlock-uapi.py checks it against the source.
 */
#pragma once

#ifdef _UAPI_LINUX_LANDLOCK_H
#error "include landlock-uapi.h instead of <linux/landlock.h>"
#endif
#define _UAPI_LINUX_LANDLOCK_H /* a later <linux/landlock.h> adds nothing */

#include <linux/types.h>

/* Argument of landlock_create_ruleset(); the kernel accepts a shorter
 * (older) struct by its size. */
struct landlock_ruleset_attr {
	__u64 handled_access_fs;
	__u64 handled_access_net;
	__u64 scoped;
};

/* landlock_create_ruleset() flags */
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#define LANDLOCK_CREATE_RULESET_ERRATA	(1U << 1)

/*
 * landlock_restrict_self() flags, ABI 7 (Linux 6.15): newer than the source
 * above, so tools/check-landlock-uapi.py compares them only with a source
 * that has them.
 */
#define LANDLOCK_RESTRICT_SELF_LOG_SAME_EXEC_OFF  (1U << 0)
#define LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON	  (1U << 1)
#define LANDLOCK_RESTRICT_SELF_LOG_SUBDOMAINS_OFF (1U << 2)

/* landlock_add_rule() rule types */
enum landlock_rule_type {
	LANDLOCK_RULE_PATH_BENEATH = 1,
	LANDLOCK_RULE_NET_PORT,
};

struct landlock_path_beneath_attr {
	__u64 allowed_access;
	__s32 parent_fd;
} __attribute__((packed));

struct landlock_net_port_attr {
	__u64 allowed_access;
	__u64 port; /* host byte order */
};

/* Filesystem rights; the comment names the first ABI with the right. */
#define LANDLOCK_ACCESS_FS_EXECUTE     (1ULL << 0)  /* ABI 1 */
#define LANDLOCK_ACCESS_FS_WRITE_FILE  (1ULL << 1)  /* ABI 1 */
#define LANDLOCK_ACCESS_FS_READ_FILE   (1ULL << 2)  /* ABI 1 */
#define LANDLOCK_ACCESS_FS_READ_DIR    (1ULL << 3)  /* ABI 1 */
#define LANDLOCK_ACCESS_FS_REMOVE_DIR  (1ULL << 4)  /* ABI 1 */
#define LANDLOCK_ACCESS_FS_REMOVE_FILE (1ULL << 5)  /* ABI 1 */
#define LANDLOCK_ACCESS_FS_MAKE_CHAR   (1ULL << 6)  /* ABI 1 */
#define LANDLOCK_ACCESS_FS_MAKE_DIR    (1ULL << 7)  /* ABI 1 */
#define LANDLOCK_ACCESS_FS_MAKE_REG    (1ULL << 8)  /* ABI 1 */
#define LANDLOCK_ACCESS_FS_MAKE_SOCK   (1ULL << 9)  /* ABI 1 */
#define LANDLOCK_ACCESS_FS_MAKE_FIFO   (1ULL << 10) /* ABI 1 */
#define LANDLOCK_ACCESS_FS_MAKE_BLOCK  (1ULL << 11) /* ABI 1 */
#define LANDLOCK_ACCESS_FS_MAKE_SYM    (1ULL << 12) /* ABI 1 */
#define LANDLOCK_ACCESS_FS_REFER       (1ULL << 13) /* ABI 2 */
#define LANDLOCK_ACCESS_FS_TRUNCATE    (1ULL << 14) /* ABI 3 */
#define LANDLOCK_ACCESS_FS_IOCTL_DEV   (1ULL << 15) /* ABI 5 */

/* Network rights (ABI 4) */
#define LANDLOCK_ACCESS_NET_BIND_TCP	(1ULL << 0)
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)

/* Scopes (ABI 6) */
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LANDLOCK_SCOPE_SIGNAL		    (1ULL << 1)

/*
 * Not in the uapi: the rights a rule on a file (not a directory) may carry,
 * ACCESS_FILE in security/landlock/fs.c. landlock_add_rule() fails with
 * EINVAL for any other right on a file.
 */
#define LANDLOCK_ACCESS_FS_FILE                                       \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | \
	 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE | \
	 LANDLOCK_ACCESS_FS_IOCTL_DEV)
