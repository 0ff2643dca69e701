/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The built-in syscall groups. Names, members and meaning are systemd's
 * (SystemCallFilter= in systemd.exec(5)) so profiles mean what units mean.
 */
#include <string.h>

#include "groups.h"
#include "suggest.h"

/*
 * Membership as in systemd's src/shared/seccomp-util.c, syscall_filter_sets[],
 * at commit 1a86520849728e8a7f10e343f996976fbd1ed851 (after v257: it has
 * mseal, open_tree_attr, file_getattr). systemd's few arch conditionals in
 * these lists are gone there; names an ABI lacks are skipped per ABI by the
 * loader anyway. References to other groups ("@signal") are kept as written
 * and expanded by the profile loader. @known is systemd's "every syscall the
 * kernel declares"; here its members are every name of the syscall table.
 */

/* Member lists are data, laid out by hand. */
/* clang-format off */
static const char *const aio[] = {
	"io_cancel", "io_destroy", "io_getevents", "io_pgetevents", "io_pgetevents_time64",
	"io_setup", "io_submit", "io_uring_enter", "io_uring_register", "io_uring_setup",
	NULL,
};

static const char *const basic_io[] = {
	"_llseek", "close", "close_range", "dup", "dup2", "dup3", "llseek", "lseek", "pread64",
	"preadv", "preadv2", "pwrite64", "pwritev", "pwritev2", "read", "readv", "write",
	"writev",
	NULL,
};

static const char *const chown_[] = {
	"chown", "chown32", "fchown", "fchown32", "fchownat", "lchown", "lchown32",
	NULL,
};

static const char *const clock_[] = {
	"adjtimex", "clock_adjtime", "clock_adjtime64", "clock_settime", "clock_settime64",
	"settimeofday",
	NULL,
};

static const char *const cpu_emulation[] = {
	"modify_ldt", "subpage_prot", "switch_endian", "vm86", "vm86old",
	NULL,
};

static const char *const debug[] = {
	"lookup_dcookie", "perf_event_open", "pidfd_getfd", "ptrace", "rtas",
	"s390_runtime_instr", "sys_debug_setcontext",
	NULL,
};

static const char *const default_[] = {
	"@sandbox",
	"arch_prctl", "brk", "cacheflush", "clock_getres", "clock_getres_time64",
	"clock_gettime", "clock_gettime64", "clock_nanosleep", "clock_nanosleep_time64",
	"execve", "exit", "exit_group", "futex", "futex_time64", "futex_waitv",
	"get_robust_list", "get_thread_area", "getegid", "getegid32", "geteuid", "geteuid32",
	"getgid", "getgid32", "getgroups", "getgroups32", "getpgid", "getpgrp", "getpid",
	"getppid", "getrandom", "getresgid", "getresgid32", "getresuid", "getresuid32",
	"getrlimit", "getsid", "gettid", "gettimeofday", "getuid", "getuid32",
	"lsm_get_self_attr", "lsm_list_modules", "membarrier", "mmap", "mmap2", "mprotect",
	"mseal", "munmap", "nanosleep", "pause", "prlimit64", "restart_syscall",
	"riscv_flush_icache", "riscv_hwprobe", "rseq", "rt_sigreturn", "sched_getaffinity",
	"sched_yield", "set_robust_list", "set_thread_area", "set_tid_address", "set_tls",
	"sigreturn", "time", "ugetrlimit", "uretprobe",
	NULL,
};

static const char *const file_system[] = {
	"access", "chdir", "chmod", "close", "creat", "faccessat", "faccessat2", "fallocate",
	"fchdir", "fchmod", "fchmodat", "fchmodat2", "fcntl", "fcntl64", "fgetxattr",
	"file_getattr", "file_setattr", "flistxattr", "fremovexattr", "fsetxattr", "fstat",
	"fstat64", "fstatat", "fstatat64", "fstatfs", "fstatfs64", "ftruncate", "ftruncate64",
	"futimesat", "getcwd", "getdents", "getdents64", "getxattr", "getxattrat",
	"inotify_add_watch", "inotify_init", "inotify_init1", "inotify_rm_watch", "lgetxattr",
	"link", "linkat", "listmount", "listxattr", "listxattrat", "llistxattr", "lremovexattr",
	"lsetxattr", "lstat", "lstat64", "mkdir", "mkdirat", "mknod", "mknodat", "newfstat",
	"newfstatat", "oldfstat", "oldlstat", "oldstat", "open", "open_tree", "openat",
	"openat2", "readlink", "readlinkat", "removexattr", "removexattrat", "rename",
	"renameat", "renameat2", "rmdir", "setxattr", "setxattrat", "stat", "stat64", "statfs",
	"statfs64", "statmount", "statx", "symlink", "symlinkat", "truncate", "truncate64",
	"unlink", "unlinkat", "utime", "utimensat", "utimensat_time64", "utimes",
	NULL,
};

static const char *const io_event[] = {
	"_newselect", "epoll_create", "epoll_create1", "epoll_ctl", "epoll_ctl_old",
	"epoll_pwait", "epoll_pwait2", "epoll_wait", "epoll_wait_old", "eventfd", "eventfd2",
	"poll", "ppoll", "ppoll_time64", "pselect6", "pselect6_time64", "select",
	NULL,
};

static const char *const ipc[] = {
	"ipc", "memfd_create", "mq_getsetattr", "mq_notify", "mq_open", "mq_timedreceive",
	"mq_timedreceive_time64", "mq_timedsend", "mq_timedsend_time64", "mq_unlink", "msgctl",
	"msgget", "msgrcv", "msgsnd", "pipe", "pipe2", "process_madvise", "process_vm_readv",
	"process_vm_writev", "semctl", "semget", "semop", "semtimedop", "semtimedop_time64",
	"shmat", "shmctl", "shmdt", "shmget",
	NULL,
};

static const char *const keyring[] = {
	"add_key", "keyctl", "request_key",
	NULL,
};

static const char *const memlock[] = {
	"mlock", "mlock2", "mlockall", "munlock", "munlockall",
	NULL,
};

static const char *const module[] = {
	"delete_module", "finit_module", "init_module",
	NULL,
};

static const char *const mount[] = {
	"chroot", "fsconfig", "fsmount", "fsopen", "fspick", "mount", "mount_setattr",
	"move_mount", "open_tree_attr", "pivot_root", "umount", "umount2",
	NULL,
};

static const char *const network_io[] = {
	"accept", "accept4", "bind", "connect", "getpeername", "getsockname", "getsockopt",
	"listen", "recv", "recvfrom", "recvmmsg", "recvmmsg_time64", "recvmsg", "send",
	"sendmmsg", "sendmsg", "sendto", "setsockopt", "shutdown", "socket", "socketcall",
	"socketpair",
	NULL,
};

static const char *const obsolete[] = {
	"_sysctl", "afs_syscall", "bdflush", "break", "create_module", "ftime",
	"get_kernel_syms", "getpmsg", "gtty", "idle", "lock", "mpx", "prof", "profil",
	"putpmsg", "query_module", "security", "sgetmask", "ssetmask", "stime", "stty",
	"sysfs", "tuxcall", "ulimit", "uselib", "ustat", "vserver",
	NULL,
};

static const char *const pkey[] = {
	"pkey_alloc", "pkey_free", "pkey_mprotect",
	NULL,
};

static const char *const privileged[] = {
	"@chown", "@clock", "@module", "@raw-io", "@reboot", "@swap",
	"_sysctl", "acct", "bpf", "capset", "chroot", "fanotify_init", "fanotify_mark",
	"nfsservctl", "open_by_handle_at", "pivot_root", "quotactl", "quotactl_fd",
	"setdomainname", "setfsuid", "setfsuid32", "setgroups", "setgroups32", "sethostname",
	"setresuid", "setresuid32", "setreuid", "setreuid32", "setuid", "setuid32", "vhangup",
	NULL,
};

static const char *const process[] = {
	"capget", "clone", "clone3", "execveat", "fork", "getrusage", "kill", "pidfd_open",
	"pidfd_send_signal", "prctl", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "setns",
	"swapcontext", "tgkill", "times", "tkill", "unshare", "vfork", "wait4", "waitid",
	"waitpid",
	NULL,
};

static const char *const raw_io[] = {
	"ioperm", "iopl", "pciconfig_iobase", "pciconfig_read", "pciconfig_write",
	"s390_pci_mmio_read", "s390_pci_mmio_write",
	NULL,
};

static const char *const reboot[] = {
	"kexec_file_load", "kexec_load", "reboot",
	NULL,
};

static const char *const resources[] = {
	"ioprio_set", "mbind", "migrate_pages", "move_pages", "nice", "sched_setaffinity",
	"sched_setattr", "sched_setparam", "sched_setscheduler", "set_mempolicy",
	"set_mempolicy_home_node", "setpriority", "setrlimit",
	NULL,
};

static const char *const sandbox[] = {
	"landlock_add_rule", "landlock_create_ruleset", "landlock_restrict_self", "seccomp",
	NULL,
};

static const char *const setuid_[] = {
	"setgid", "setgid32", "setgroups", "setgroups32", "setregid", "setregid32",
	"setresgid", "setresgid32", "setresuid", "setresuid32", "setreuid", "setreuid32",
	"setuid", "setuid32",
	NULL,
};

static const char *const signal_[] = {
	"rt_sigaction", "rt_sigpending", "rt_sigprocmask", "rt_sigsuspend", "rt_sigtimedwait",
	"rt_sigtimedwait_time64", "sigaction", "sigaltstack", "signal", "signalfd", "signalfd4",
	"sigpending", "sigprocmask", "sigsuspend",
	NULL,
};

static const char *const swap[] = {
	"swapoff", "swapon",
	NULL,
};

static const char *const sync_[] = {
	"fdatasync", "fsync", "msync", "sync", "sync_file_range", "sync_file_range2", "syncfs",
	NULL,
};

static const char *const system_service[] = {
	"@aio", "@basic-io", "@chown", "@default", "@file-system", "@io-event", "@ipc",
	"@keyring", "@memlock", "@network-io", "@process", "@resources", "@setuid", "@signal",
	"@sync", "@timer",
	"arm_fadvise64_64", "capget", "capset", "copy_file_range", "fadvise64", "fadvise64_64",
	"flock", "get_mempolicy", "getcpu", "getpriority", "ioctl", "ioprio_get", "kcmp",
	"madvise", "mremap", "name_to_handle_at", "oldolduname", "olduname", "personality",
	"readahead", "readdir", "remap_file_pages", "sched_get_priority_max",
	"sched_get_priority_min", "sched_getattr", "sched_getparam", "sched_getscheduler",
	"sched_rr_get_interval", "sched_rr_get_interval_time64", "sched_yield", "sendfile",
	"sendfile64", "setfsgid", "setfsgid32", "setfsuid", "setfsuid32", "setpgid", "setsid",
	"splice", "sysinfo", "tee", "umask", "uname", "userfaultfd", "vmsplice",
	NULL,
};

static const char *const timer[] = {
	"alarm", "getitimer", "setitimer", "timer_create", "timer_delete", "timer_getoverrun",
	"timer_gettime", "timer_gettime64", "timer_settime", "timer_settime64",
	"timerfd_create", "timerfd_gettime", "timerfd_gettime64", "timerfd_settime",
	"timerfd_settime64", "times",
	NULL,
};

/* Sorted by name (strcmp order): groups_lookup() bisects. */
static const struct group groups[] = {
	{ "@aio", "asynchronous I/O: io_setup(2) family and io_uring", aio },
	{ "@basic-io", "reading, writing, seeking and closing file descriptors", basic_io },
	{ "@chown", "changing the owner of files", chown_ },
	{ "@clock", "setting the system clock", clock_ },
	{ "@cpu-emulation", "calls used to emulate other CPUs or modes (vm86, LDT)",
	  cpu_emulation },
	{ "@debug", "tracing, debugging and performance monitoring of processes", debug },
	{ "@default", "calls nearly every program needs and that are always allowed in systemd",
	  default_ },
	{ "@file-system", "opening, inspecting and changing files and directories",
	  file_system },
	{ "@io-event", "waiting for events on file descriptors: poll, select, epoll",
	  io_event },
	{ "@ipc", "pipes, SysV IPC, POSIX message queues and cross-process memory access",
	  ipc },
	{ "@keyring", "the kernel key retention service", keyring },
	{ "@memlock", "locking memory into RAM", memlock },
	{ "@module", "loading and unloading kernel modules", module },
	{ "@mount", "mounting, unmounting and changing the root of file systems", mount },
	{ "@network-io", "sockets: creating, connecting, sending and receiving", network_io },
	{ "@obsolete", "historic, unimplemented or rarely used calls", obsolete },
	{ "@pkey", "memory protection keys", pkey },
	{ "@privileged", "calls that need superuser capabilities", privileged },
	{ "@process", "creating, waiting for, signalling and namespacing processes", process },
	{ "@raw-io", "direct access to I/O ports and PCI configuration", raw_io },
	{ "@reboot", "rebooting and loading a new kernel", reboot },
	{ "@resources", "changing scheduling, memory policy and resource limits", resources },
	{ "@sandbox", "a process restricting itself: seccomp and Landlock", sandbox },
	{ "@setuid", "changing user and group credentials", setuid_ },
	{ "@signal", "signal handlers, masks and waiting for signals", signal_ },
	{ "@swap", "enabling and disabling swap space", swap },
	{ "@sync", "flushing files and memory to storage", sync_ },
	{ "@system-service", "what a typical system service needs (many groups plus more)",
	  system_service },
	{ "@timer", "timers and alarms", timer },
};

static const struct group known = {
	"@known", "every system call the syscall table knows", NULL,
};

/* clang-format on */

const struct group *groups_list(size_t *ret_n)
{
	if (ret_n)
		*ret_n = sizeof(groups) / sizeof(groups[0]);
	return groups;
}

const struct group *groups_lookup(const char *name)
{
	size_t lo = 0, hi = sizeof(groups) / sizeof(groups[0]);

	if (!name)
		return NULL;
	if (strcmp(name, known.name) == 0)
		return &known;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, groups[mid].name);

		if (c == 0)
			return &groups[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

void groups_suggest(struct suggest *s)
{
	size_t n;
	const struct group *list = groups_list(&n);

	for (size_t i = 0; i < n; i++)
		suggest_offer(s, list[i].name);
	suggest_offer(s, "@known");
}
