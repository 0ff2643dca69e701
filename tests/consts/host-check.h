/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The host headers the cross-check compares with, and the generated table of
 * their values (host-check-table.c). Tests only: the product never uses these.
 */
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>

struct host_value {
	const char *name;
	int64_t value;
};

/* Terminated by an entry with name NULL. */
extern const struct host_value host_values[];
