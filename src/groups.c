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

/* Member lists are data, laid out by hand: each name ended by a NUL, and
 * the list by an empty name (groups.h). Strings rather than arrays of
 * pointers: nothing here is relocated when the program starts. */
/* clang-format off */
static const char aio[] =
	"io_cancel\0" "io_destroy\0" "io_getevents\0" "io_pgetevents\0" "io_pgetevents_time64\0"
	"io_setup\0" "io_submit\0" "io_uring_enter\0" "io_uring_register\0" "io_uring_setup\0";

static const char basic_io[] =
	"_llseek\0" "close\0" "close_range\0" "dup\0" "dup2\0" "dup3\0" "llseek\0" "lseek\0"
	"pread64\0" "preadv\0" "preadv2\0" "pwrite64\0" "pwritev\0" "pwritev2\0" "read\0"
	"readv\0" "write\0" "writev\0";

static const char chown_[] =
	"chown\0" "chown32\0" "fchown\0" "fchown32\0" "fchownat\0" "lchown\0" "lchown32\0";

static const char clock_[] =
	"adjtimex\0" "clock_adjtime\0" "clock_adjtime64\0" "clock_settime\0" "clock_settime64\0"
	"settimeofday\0";

static const char cpu_emulation[] =
	"modify_ldt\0" "subpage_prot\0" "switch_endian\0" "vm86\0" "vm86old\0";

static const char debug[] =
	"lookup_dcookie\0" "perf_event_open\0" "pidfd_getfd\0" "ptrace\0" "rtas\0"
	"s390_runtime_instr\0" "sys_debug_setcontext\0";

static const char default_[] =
	"@sandbox\0"
	"arch_prctl\0" "brk\0" "cacheflush\0" "clock_getres\0" "clock_getres_time64\0"
	"clock_gettime\0" "clock_gettime64\0" "clock_nanosleep\0" "clock_nanosleep_time64\0"
	"execve\0" "exit\0" "exit_group\0" "futex\0" "futex_time64\0" "futex_waitv\0"
	"get_robust_list\0" "get_thread_area\0" "getegid\0" "getegid32\0" "geteuid\0"
	"geteuid32\0" "getgid\0" "getgid32\0" "getgroups\0" "getgroups32\0" "getpgid\0"
	"getpgrp\0" "getpid\0" "getppid\0" "getrandom\0" "getresgid\0" "getresgid32\0"
	"getresuid\0" "getresuid32\0" "getrlimit\0" "getsid\0" "gettid\0" "gettimeofday\0"
	"getuid\0" "getuid32\0" "lsm_get_self_attr\0" "lsm_list_modules\0" "membarrier\0"
	"mmap\0" "mmap2\0" "mprotect\0" "mseal\0" "munmap\0" "nanosleep\0" "pause\0"
	"prlimit64\0" "restart_syscall\0" "riscv_flush_icache\0" "riscv_hwprobe\0" "rseq\0"
	"rt_sigreturn\0" "sched_getaffinity\0" "sched_yield\0" "set_robust_list\0"
	"set_thread_area\0" "set_tid_address\0" "set_tls\0" "sigreturn\0" "time\0"
	"ugetrlimit\0" "uretprobe\0";

static const char file_system[] =
	"access\0" "chdir\0" "chmod\0" "close\0" "creat\0" "faccessat\0" "faccessat2\0"
	"fallocate\0" "fchdir\0" "fchmod\0" "fchmodat\0" "fchmodat2\0" "fcntl\0" "fcntl64\0"
	"fgetxattr\0" "file_getattr\0" "file_setattr\0" "flistxattr\0" "fremovexattr\0"
	"fsetxattr\0" "fstat\0" "fstat64\0" "fstatat\0" "fstatat64\0" "fstatfs\0" "fstatfs64\0"
	"ftruncate\0" "ftruncate64\0" "futimesat\0" "getcwd\0" "getdents\0" "getdents64\0"
	"getxattr\0" "getxattrat\0" "inotify_add_watch\0" "inotify_init\0" "inotify_init1\0"
	"inotify_rm_watch\0" "lgetxattr\0" "link\0" "linkat\0" "listmount\0" "listxattr\0"
	"listxattrat\0" "llistxattr\0" "lremovexattr\0" "lsetxattr\0" "lstat\0" "lstat64\0"
	"mkdir\0" "mkdirat\0" "mknod\0" "mknodat\0" "newfstat\0" "newfstatat\0" "oldfstat\0"
	"oldlstat\0" "oldstat\0" "open\0" "open_tree\0" "openat\0" "openat2\0" "readlink\0"
	"readlinkat\0" "removexattr\0" "removexattrat\0" "rename\0" "renameat\0" "renameat2\0"
	"rmdir\0" "setxattr\0" "setxattrat\0" "stat\0" "stat64\0" "statfs\0" "statfs64\0"
	"statmount\0" "statx\0" "symlink\0" "symlinkat\0" "truncate\0" "truncate64\0" "unlink\0"
	"unlinkat\0" "utime\0" "utimensat\0" "utimensat_time64\0" "utimes\0";

static const char io_event[] =
	"_newselect\0" "epoll_create\0" "epoll_create1\0" "epoll_ctl\0" "epoll_ctl_old\0"
	"epoll_pwait\0" "epoll_pwait2\0" "epoll_wait\0" "epoll_wait_old\0" "eventfd\0"
	"eventfd2\0" "poll\0" "ppoll\0" "ppoll_time64\0" "pselect6\0" "pselect6_time64\0"
	"select\0";

static const char ipc[] =
	"ipc\0" "memfd_create\0" "mq_getsetattr\0" "mq_notify\0" "mq_open\0" "mq_timedreceive\0"
	"mq_timedreceive_time64\0" "mq_timedsend\0" "mq_timedsend_time64\0" "mq_unlink\0"
	"msgctl\0" "msgget\0" "msgrcv\0" "msgsnd\0" "pipe\0" "pipe2\0" "process_madvise\0"
	"process_vm_readv\0" "process_vm_writev\0" "semctl\0" "semget\0" "semop\0"
	"semtimedop\0" "semtimedop_time64\0" "shmat\0" "shmctl\0" "shmdt\0" "shmget\0";

static const char keyring[] =
	"add_key\0" "keyctl\0" "request_key\0";

static const char memlock[] =
	"mlock\0" "mlock2\0" "mlockall\0" "munlock\0" "munlockall\0";

static const char module[] =
	"delete_module\0" "finit_module\0" "init_module\0";

static const char mount[] =
	"chroot\0" "fsconfig\0" "fsmount\0" "fsopen\0" "fspick\0" "mount\0" "mount_setattr\0"
	"move_mount\0" "open_tree_attr\0" "pivot_root\0" "umount\0" "umount2\0";

static const char network_io[] =
	"accept\0" "accept4\0" "bind\0" "connect\0" "getpeername\0" "getsockname\0"
	"getsockopt\0" "listen\0" "recv\0" "recvfrom\0" "recvmmsg\0" "recvmmsg_time64\0"
	"recvmsg\0" "send\0" "sendmmsg\0" "sendmsg\0" "sendto\0" "setsockopt\0" "shutdown\0"
	"socket\0" "socketcall\0" "socketpair\0";

static const char obsolete[] =
	"_sysctl\0" "afs_syscall\0" "bdflush\0" "break\0" "create_module\0" "ftime\0"
	"get_kernel_syms\0" "getpmsg\0" "gtty\0" "idle\0" "lock\0" "mpx\0" "prof\0" "profil\0"
	"putpmsg\0" "query_module\0" "security\0" "sgetmask\0" "ssetmask\0" "stime\0" "stty\0"
	"sysfs\0" "tuxcall\0" "ulimit\0" "uselib\0" "ustat\0" "vserver\0";

static const char pkey[] =
	"pkey_alloc\0" "pkey_free\0" "pkey_mprotect\0";

static const char privileged[] =
	"@chown\0" "@clock\0" "@module\0" "@raw-io\0" "@reboot\0" "@swap\0"
	"_sysctl\0" "acct\0" "bpf\0" "capset\0" "chroot\0" "fanotify_init\0" "fanotify_mark\0"
	"nfsservctl\0" "open_by_handle_at\0" "pivot_root\0" "quotactl\0" "quotactl_fd\0"
	"setdomainname\0" "setfsuid\0" "setfsuid32\0" "setgroups\0" "setgroups32\0"
	"sethostname\0" "setresuid\0" "setresuid32\0" "setreuid\0" "setreuid32\0" "setuid\0"
	"setuid32\0" "vhangup\0";

static const char process[] =
	"capget\0" "clone\0" "clone3\0" "execveat\0" "fork\0" "getrusage\0" "kill\0"
	"pidfd_open\0" "pidfd_send_signal\0" "prctl\0" "rt_sigqueueinfo\0" "rt_tgsigqueueinfo\0"
	"setns\0" "swapcontext\0" "tgkill\0" "times\0" "tkill\0" "unshare\0" "vfork\0" "wait4\0"
	"waitid\0" "waitpid\0";

static const char raw_io[] =
	"ioperm\0" "iopl\0" "pciconfig_iobase\0" "pciconfig_read\0" "pciconfig_write\0"
	"s390_pci_mmio_read\0" "s390_pci_mmio_write\0";

static const char reboot[] =
	"kexec_file_load\0" "kexec_load\0" "reboot\0";

static const char resources[] =
	"ioprio_set\0" "mbind\0" "migrate_pages\0" "move_pages\0" "nice\0" "sched_setaffinity\0"
	"sched_setattr\0" "sched_setparam\0" "sched_setscheduler\0" "set_mempolicy\0"
	"set_mempolicy_home_node\0" "setpriority\0" "setrlimit\0";

static const char sandbox[] =
	"landlock_add_rule\0" "landlock_create_ruleset\0" "landlock_restrict_self\0" "seccomp\0";

static const char setuid_[] =
	"setgid\0" "setgid32\0" "setgroups\0" "setgroups32\0" "setregid\0" "setregid32\0"
	"setresgid\0" "setresgid32\0" "setresuid\0" "setresuid32\0" "setreuid\0" "setreuid32\0"
	"setuid\0" "setuid32\0";

static const char signal_[] =
	"rt_sigaction\0" "rt_sigpending\0" "rt_sigprocmask\0" "rt_sigsuspend\0"
	"rt_sigtimedwait\0" "rt_sigtimedwait_time64\0" "sigaction\0" "sigaltstack\0" "signal\0"
	"signalfd\0" "signalfd4\0" "sigpending\0" "sigprocmask\0" "sigsuspend\0";

static const char swap[] =
	"swapoff\0" "swapon\0";

static const char sync_[] =
	"fdatasync\0" "fsync\0" "msync\0" "sync\0" "sync_file_range\0" "sync_file_range2\0"
	"syncfs\0";

static const char system_service[] =
	"@aio\0" "@basic-io\0" "@chown\0" "@default\0" "@file-system\0" "@io-event\0" "@ipc\0"
	"@keyring\0" "@memlock\0" "@network-io\0" "@process\0" "@resources\0" "@setuid\0"
	"@signal\0" "@sync\0" "@timer\0"
	"arm_fadvise64_64\0" "capget\0" "capset\0" "copy_file_range\0" "fadvise64\0"
	"fadvise64_64\0" "flock\0" "get_mempolicy\0" "getcpu\0" "getpriority\0" "ioctl\0"
	"ioprio_get\0" "kcmp\0" "madvise\0" "mremap\0" "name_to_handle_at\0" "oldolduname\0"
	"olduname\0" "personality\0" "readahead\0" "readdir\0" "remap_file_pages\0"
	"sched_get_priority_max\0" "sched_get_priority_min\0" "sched_getattr\0"
	"sched_getparam\0" "sched_getscheduler\0" "sched_rr_get_interval\0"
	"sched_rr_get_interval_time64\0" "sched_yield\0" "sendfile\0" "sendfile64\0"
	"setfsgid\0" "setfsgid32\0" "setfsuid\0" "setfsuid32\0" "setpgid\0" "setsid\0"
	"splice\0" "sysinfo\0" "tee\0" "umask\0" "uname\0" "userfaultfd\0" "vmsplice\0";

static const char timer[] =
	"alarm\0" "getitimer\0" "setitimer\0" "timer_create\0" "timer_delete\0"
	"timer_getoverrun\0" "timer_gettime\0" "timer_gettime64\0" "timer_settime\0"
	"timer_settime64\0" "timerfd_create\0" "timerfd_gettime\0" "timerfd_gettime64\0"
	"timerfd_settime\0" "timerfd_settime64\0" "times\0";

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
