#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Generate data/syscalls.txt (numbers per ABI table) and data/syscall-args.txt
# (argument names and classes) from a Linux source tree plus the reviewed overlays.
"""
Usage: tools/gen-syscalls.py [KERNEL-SOURCE] [--check] [--review]

KERNEL-SOURCE is a linux-source tarball (read with tarfile, nothing is
extracted) or an extracted tree; default /usr/src/linux-source-6.12.tar.xz.
With --check nothing is written; the exit status says whether the committed
files are up to date. --review lists the entry points whose arguments were
taken from the prototype of the syscall's name (wrappers without a prototype
of their own) and the spellings left out (another layout, or written in
several ways), for a human to check after a kernel update.

Rules the output follows (each one is a fact of the kernel build, see the
comments at TABLES and in the functions below):

* Which rows of a .tbl file belong to an ABI is decided by the "abis" filter
  the kernel Makefiles pass to scripts/syscalltbl.sh, not by the .tbl file.
* A row whose entry point is sys_ni_syscall (or "-", or missing) still has a
  number the kernel assigns and a name userspace headers export (__NR_*), so
  it is kept: a profile may name it, e.g. to kill on lookup_dcookie. libseccomp
  resolves these names too (lookup_dcookie, _sysctl, vserver, break, timerfd).
  Only the placeholder rows named "reservedNNN" / "unusedNNN" (mips) are
  dropped: they are no syscall's name, and libseccomp does not resolve them.
* Numbers are stored as the table has them: without the x32 bit 0x40000000
  and without the mips bases 4000/5000/6000 (src/arch.c adds nr_base).
* A parameter gets every name the kernel source gives it where the layout is
  the same: the prototype in include/linux/syscalls.h or compat.h and the
  SYSCALL_DEFINE / COMPAT_SYSCALL_DEFINE definition (add_spellings()).
* data/kernel-widths.txt narrows the arguments the kernel uses fewer bits of
  than the prototype says; each entry cites the kernel lines, and the cited
  lines must still read as quoted (check_widths()).
"""

import os
import re
import sys
import tarfile

DEFAULT_SOURCE = '/usr/src/linux-source-6.12.tar.xz'
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), 'data')

# table name -> (tbl file, abis kept, arch source directory, bits, entry column)
# The abis are those the kernel build passes for that ABI:
#   x86: arch/x86/entry/syscalls/Makefile (unistd_64.h: common,64;
#        unistd_x32.h: common,x32; unistd_32.h: i386)
#   arm64: scripts/Makefile.asm-headers (common,64) plus
#        arch/arm64/kernel/Makefile.syscalls (renameat rlimit memfd_secret)
#   riscv: scripts/Makefile.asm-headers plus arch/riscv/kernel/Makefile.syscalls
#        (riscv rlimit memfd_secret)
#   loongarch: scripts/Makefile.asm-headers only (arch Makefile.syscalls adds none)
#   arm: arch/arm/tools/Makefile (common,eabi; the "oabi" rows are OABI only)
#   powerpc: arch/powerpc/kernel/syscalls/Makefile (common,nospu,64 / common,nospu,32)
#   s390: arch/s390/kernel/syscalls/Makefile (common,64 / common,32)
#   mips: arch/mips/kernel/syscalls/Makefile passes no filter (one ABI per file)
# The entry column is the .tbl column holding the entry point the ABI really
# calls: 3 (native) everywhere except the 31-bit s390 ABI, which only exists as
# the compat ABI of a 64-bit kernel (column 4).
TABLES = {
    'x86_64': ('arch/x86/entry/syscalls/syscall_64.tbl', 'common,64', 'x86', 64, 3),
    'x32': ('arch/x86/entry/syscalls/syscall_64.tbl', 'common,x32', 'x86', 64, 3),
    'i386': ('arch/x86/entry/syscalls/syscall_32.tbl', 'i386', 'x86', 32, 3),
    'arm64': ('arch/arm64/tools/syscall_64.tbl', 'common,64,renameat,rlimit,memfd_secret',
          'arm64', 64, 3),
    'arm': ('arch/arm/tools/syscall.tbl', 'common,eabi', 'arm', 32, 3),
    'riscv64': ('scripts/syscall.tbl', 'common,64,riscv,rlimit,memfd_secret', 'riscv', 64, 3),
    'loongarch64': ('scripts/syscall.tbl', 'common,64', 'loongarch', 64, 3),
    'ppc64': ('arch/powerpc/kernel/syscalls/syscall.tbl', 'common,nospu,64', 'powerpc', 64, 3),
    'ppc32': ('arch/powerpc/kernel/syscalls/syscall.tbl', 'common,nospu,32', 'powerpc', 32, 3),
    's390x': ('arch/s390/kernel/syscalls/syscall.tbl', 'common,64', 's390', 64, 3),
    's390': ('arch/s390/kernel/syscalls/syscall.tbl', 'common,32', 's390', 32, 4),
    'mips-o32': ('arch/mips/kernel/syscalls/syscall_o32.tbl', None, 'mips', 32, 3),
    'mips-n64': ('arch/mips/kernel/syscalls/syscall_n64.tbl', None, 'mips', 64, 3),
    'mips-n32': ('arch/mips/kernel/syscalls/syscall_n32.tbl', None, 'mips', 64, 3),
}

# Order in which a name's argument list is chosen as the default line of
# data/syscall-args.txt; other tables get an "@TABLE" line where they differ.
TABLE_PRIORITY = ['x86_64', 'arm64', 'riscv64', 'loongarch64', 'ppc64', 's390x', 'mips-n64',
          'i386', 'arm', 'ppc32', 's390', 'mips-o32', 'x32', 'mips-n32']

# ABIs whose registers are 64 bits wide but whose compat entry points
# (compat_sys_*) take 32-bit types: the kernel truncates those arguments.
COMPAT64_TABLES = {'x32', 'mips-n32'}

# ARM private syscalls: arch/arm/include/uapi/asm/unistd.h, __ARM_NR_BASE + n.
ARM_PRIVATE = ['breakpoint', 'cacheflush', 'usr26', 'usr32', 'set_tls', 'get_tls']
ARM_NR_BASE = 0x0f0000

# Entry columns that name no function of the ABI: not implemented ("-",
# sys_ni_syscall) or dispatched by arm_syscall() (described in the overlay).
NO_ENTRY = {'-', 'sys_ni_syscall', 'arm_syscall'}
INHERIT = 'inherit'

PLACEHOLDER = re.compile(r'^(reserved|unused)[0-9]+$')

# Parameter names the kernel prototype in include/linux/syscalls.h leaves out,
# taken from the SYSCALL_DEFINE of the same function (file named per entry).
UNNAMED = {
    'io_submit': ['ctx_id', 'nr', 'iocbpp'],                       # fs/aio.c
    'pselect6': ['n', 'inp', 'outp', 'exp', 'tsp', 'sig'],          # fs/select.c
    'pselect6_time32': ['n', 'inp', 'outp', 'exp', 'tsp', 'sig'],   # fs/select.c
    'ppoll': ['ufds', 'nfds', 'tsp', 'sigmask', 'sigsetsize'],      # fs/select.c
    'ppoll_time32': ['ufds', 'nfds', 'tsp', 'sigmask', 'sigsetsize'],
    'rt_sigaction': ['sig', 'act', 'oact', 'sigsetsize'],           # kernel/signal.c
    'sigaction': ['sig', 'act', 'oact'],                            # kernel/signal.c
    'socket': ['family', 'type', 'protocol'],                       # net/socket.c
    'socketpair': ['family', 'type', 'protocol', 'usockvec'],
    'bind': ['fd', 'umyaddr', 'addrlen'],
    'listen': ['fd', 'backlog'],
    'accept': ['fd', 'upeer_sockaddr', 'upeer_addrlen'],
    'accept4': ['fd', 'upeer_sockaddr', 'upeer_addrlen', 'flags'],
    'connect': ['fd', 'uservaddr', 'addrlen'],
    'getsockname': ['fd', 'usockaddr', 'usockaddr_len'],
    'getpeername': ['fd', 'usockaddr', 'usockaddr_len'],
    'sendto': ['fd', 'buff', 'len', 'flags', 'addr', 'addr_len'],
    'recvfrom': ['fd', 'ubuf', 'size', 'flags', 'addr', 'addr_len'],
    'send': ['fd', 'buff', 'len', 'flags'],
    'recv': ['fd', 'ubuf', 'size', 'flags'],
    'shutdown': ['fd', 'how'],
    'old_readdir': ['fd', 'dirent', 'count'],                       # fs/readdir.c
    'uname': ['name'],                                              # kernel/sys.c
    'olduname': ['name'],
}

# Prototypes declared more than once in include/linux/syscalls.h under #ifdef;
# data/syscall-args-overlay.txt describes them per ABI instead.
OVERLAY_ONLY = {'clone', 'sigsuspend'}
# fanotify_mark: the CONFIG_ARCH_SPLIT_ARG64 variant (x86_32, ppc32), declared
# first, passes the u64 mask as two u32 in the same registers the generic rule
# gives a u64 on those ABIs; the u64 form, declared last, is used everywhere
# (the 64-bit ABIs have five arguments: dfd is the fourth).
PREFER_LAST = {'fanotify_mark'}

# 32-bit entry points that split 64-bit values into two 32-bit registers,
# checked by hand to use the same register layout as the generic prototype
# with the ABI's pairing rule (src/syscalls.c): same order, pairs low/high as
# the ABI passes them, a padding register exactly where pair_aligned puts one.
REVIEWED_SPLIT = {
    # arch/x86/kernel/sys_ia32.c: i386 passes pairs unaligned
    'sys_ia32_pread64', 'sys_ia32_pwrite64', 'sys_ia32_truncate64',
    'sys_ia32_ftruncate64', 'sys_ia32_readahead', 'sys_ia32_fadvise64',
    'sys_ia32_fadvise64_64', 'sys_ia32_sync_file_range', 'sys_ia32_fallocate',
    # arch/powerpc/kernel/sys_ppc32.c: pairs start at an even slot (r3/r5/r7)
    'sys_ppc_pread64', 'sys_ppc_pwrite64', 'sys_ppc_readahead', 'sys_ppc_truncate64',
    'sys_ppc_ftruncate64', 'sys_ppc32_fadvise64', 'sys_ppc_sync_file_range2',
    'sys_ppc_fallocate',
    # arch/s390/kernel/compat_linux.c: 31-bit s390 passes pairs unaligned
    'compat_sys_s390_truncate64', 'compat_sys_s390_ftruncate64',
    'compat_sys_s390_pread64', 'compat_sys_s390_pwrite64', 'compat_sys_s390_readahead',
    'compat_sys_s390_fadvise64',
    'compat_sys_s390_sync_file_range', 'compat_sys_s390_fallocate',
}

# Argument classes, see data/syscall-args.txt. Every type met in a prototype
# must be listed; anything with a '*' is a pointer.
TYPE_CLASS = {
    # 32-bit signed: int and the kernel typedefs of int
    'int': 's32', 'signed int': 's32', '__s32': 's32', 'pid_t': 's32',
    'key_serial_t': 's32', 'key_t': 's32', 'clockid_t': 's32', 'timer_t': 's32',
    'mqd_t': 's32', 'rwf_t': 's32',
    # 16-bit unsigned: the kernel truncates the register to these types, so
    # the filter must compare only the low 16 bits (0x10777 is mode 0777).
    'umode_t': 'u16', 'old_uid_t': 'u16', 'old_gid_t': 'u16', 'compat_mode_t': 'u16',
    # 32-bit unsigned
    'unsigned int': 'u32', 'unsigned': 'u32', 'uint': 'u32', 'u32': 'u32', '__u32': 'u32',
    'uint32_t': 'u32', 'uid_t': 'u32', 'gid_t': 'u32', 'qid_t': 'u32',
    'enum landlock_rule_type': 'u32',  # an enum without negative values
    # register-wide
    'long': 'slong', 'off_t': 'slong',
    'unsigned long': 'ulong', 'size_t': 'ulong', 'aio_context_t': 'ulong',
    'old_sigset_t': 'ulong', 'uintptr_t': 'ulong',
    # 64-bit values
    'loff_t': 's64', '__s64': 's64', 's64': 's64',
    'u64': 'u64', '__u64': 'u64',
    # pointer typedefs
    'cap_user_header_t': 'ptr', 'cap_user_data_t': 'ptr', '__sighandler_t': 'ptr',
    # include/linux/compat.h: the 32-bit types of compat entry points
    'compat_long_t': 's32', 'compat_off_t': 's32', 'compat_ssize_t': 's32',
    'compat_pid_t': 's32', 'compat_int_t': 's32',
    'compat_ulong_t': 'u32', 'compat_size_t': 'u32', 'compat_uint_t': 'u32',
    'compat_aio_context_t': 'u32',
    'compat_uptr_t': 'ptr',
}

# Types met that TYPE_CLASS does not list: reported together, then fatal.
UNCLASSIFIED = set()

CLASSES = ('u16', 's32', 'u32', 'slong', 'ulong', 's64', 'u64', 'ptr')


def die(msg):
    sys.stderr.write('gen-syscalls: error: %s\n' % msg)
    sys.exit(1)


class Source:
    """Files of a kernel tree or tarball, read on demand (tarball: one pass).
    wanted: files, and directories ending in '/' whose .c files are read;
    trees: directories whose .c files anywhere below are read when they
    define a syscall (SYSCALL_DEFINE), or single .c files."""

    def __init__(self, path, wanted, trees=()):
        self.files = {}
        in_tree = lambda rel: rel.endswith('.c') and \
            any(rel == t or (t.endswith('/') and rel.startswith(t)) for t in trees)
        if os.path.isdir(path):
            for rel in wanted:
                if rel.endswith('/'):
                    d = os.path.join(path, rel)
                    for fn in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                        if fn.endswith('.c'):
                            self.files[rel + fn] = open(os.path.join(d, fn),
                                            encoding='utf-8').read()
                else:
                    self.files[rel] = open(os.path.join(path, rel),
                                   encoding='utf-8').read()
            for t in trees:
                top = os.path.join(path, t)
                walk = [(os.path.dirname(top), [], [os.path.basename(top)])] \
                    if not t.endswith('/') else os.walk(top)
                for d, _, fns in walk:
                    for fn in fns:
                        rel = os.path.relpath(os.path.join(d, fn), path)
                        if in_tree(rel) and rel not in self.files:
                            self.keep_define(rel, open(os.path.join(d, fn), 'rb').read())
            return
        links = {}
        with tarfile.open(path, 'r:*') as tar:
            for m in tar:
                rel = m.name.split('/', 1)[1] if '/' in m.name else m.name
                d = rel.rsplit('/', 1)[0] + '/'
                if m.issym() and rel in wanted:
                    links[rel] = os.path.normpath(os.path.join(d, m.linkname))
                if not m.isfile():
                    continue
                if rel in wanted or (d in wanted and rel.endswith('.c')) or \
                   rel in links.values():
                    self.files[rel] = tar.extractfile(m).read().decode('utf-8')
                elif in_tree(rel):
                    self.keep_define(rel, tar.extractfile(m).read())
        for rel, target in links.items():
            if target not in self.files:
                die('%s: %s links to %s, which comes first' % (path, rel, target))
            self.files[rel] = self.files[target]
        for rel in wanted:
            if not rel.endswith('/') and rel not in self.files:
                die('%s: missing %s' % (path, rel))

    def keep_define(self, rel, data):
        if b'SYSCALL_DEFINE' in data:
            self.files[rel] = data.decode('utf-8')

    def get(self, rel):
        return self.files[rel]

    def has(self, rel):
        return rel in self.files

    def under(self, d):
        return sorted(k for k in self.files if k.startswith(d) and k.endswith('.c'))

    def in_trees(self, trees):
        return sorted(k for k in self.files if k.endswith('.c') and
                  any(k == t or (t.endswith('/') and k.startswith(t)) for t in trees))


def kernel_version(src):
    mk = src.get('Makefile')
    v = {}
    for key in ('VERSION', 'PATCHLEVEL', 'SUBLEVEL'):
        m = re.search(r'^%s\s*=\s*(\d+)\s*$' % key, mk, re.M)
        if not m:
            die('Makefile: no %s' % key)
        v[key] = m.group(1)
    return '%s.%s.%s' % (v['VERSION'], v['PATCHLEVEL'], v['SUBLEVEL'])


def read_tbl(text, abis):
    """Rows (nr, name, entry columns) of a .tbl file kept by the abi filter."""
    keep = set(abis.split(',')) if abis else None
    rows = []
    for line in text.splitlines():
        line = line.split('#', 1)[0].strip()
        if not line:
            continue
        f = line.split()
        if len(f) < 3:
            die('bad .tbl line: %r' % line)
        if keep is not None and f[1] not in keep:
            continue
        rows.append((int(f[0]), f[2], f[3:]))
    return rows


def build_tables(src):
    tables = {}
    for t, (tbl, abis, _, _, col) in TABLES.items():
        rows = []
        for nr, name, entries in read_tbl(src.get(tbl), abis):
            if PLACEHOLDER.match(name):
                continue
            e = entries[col - 3] if len(entries) > col - 3 else '-'
            rows.append((nr, name, e))
        tables[t] = rows
    text = src.get('arch/arm/include/uapi/asm/unistd.h')
    for i, name in enumerate(ARM_PRIVATE, 1):
        m = re.search(r'#define\s+__ARM_NR_%s\s+\(__ARM_NR_BASE\+(\d+)\)' % name, text)
        if not m or int(m.group(1)) != i:
            die('arm unistd.h: __ARM_NR_%s is not __ARM_NR_BASE+%d' % (name, i))
        tables['arm'].append((ARM_NR_BASE + i, name, 'arm_syscall'))
    if not re.search(r'#define\s+__ARM_NR_BASE\s+\(__NR_SYSCALL_BASE\+0x0f0000\)', text):
        die('arm unistd.h: __ARM_NR_BASE moved')
    return tables


def parse_overlay(path):
    """data/syscalls-overlay.txt: TABLES NR NAME SINCE SUBJECT."""
    out = []
    for ln, line in enumerate(open(path, encoding='utf-8'), 1):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        f = line.split(None, 4)
        if len(f) < 5 or not re.match(r'^\d+\.\d+$', f[3]):
            die('%s:%d: want "TABLES NR NAME VERSION SUBJECT"' % (path, ln))
        tabs = list(TABLES) if f[0] == '*' else f[0].split(',')
        for t in tabs:
            if t not in TABLES:
                die('%s:%d: unknown table %s' % (path, ln, t))
            out.append((t, int(f[1]), f[2]))
    return out


# ---------------------------------------------------------------- prototypes

def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def classify(ctype, where):
    t = ' '.join(ctype.replace('__user', ' ').split())
    if '*' in t:
        return 'ptr'
    t = ' '.join(w for w in t.split() if w not in ('const', 'volatile', '__force'))
    if t not in TYPE_CLASS:
        UNCLASSIFIED.add('%s: %r' % (where, ctype))
        return 'ptr'
    return TYPE_CLASS[t]


def split_param(p):
    """'const char __user *name' -> (type, name); name None if unnamed."""
    p = ' '.join(p.split())
    m = re.match(r'^(.*?[\s*])(\w+)$', p)
    if not m:
        return p, None
    ctype, name = m.group(1).strip(), m.group(2)
    words = ctype.replace('*', ' ').split()
    if not words or words[-1] in ('struct', 'union', 'enum') or \
       ctype.replace('*', '').strip() in ('', 'const') or \
       name in TYPE_CLASS or name in ('int', 'long', 'char', 'void', 'unsigned'):
        return p, None
    return ctype, name


def parse_decls(text, prefix, where):
    """asmlinkage long PREFIXname(...); declarations -> {name: [(type, pname)]}."""
    out = {}
    dups = set()
    for m in re.finditer(r'asmlinkage\s+(?:long|ssize_t)\s+%s(\w+)\s*\(([^;{]*?)\)\s*;' % prefix,
                 strip_comments(text)):
        name, args = m.group(1), ' '.join(m.group(2).split())
        params = []
        if args not in ('', 'void'):
            params = [split_param(p) for p in args.split(',')]
        if name in out:
            dups.add(name)
            if name in PREFER_LAST:
                out[name] = params
            continue
        out[name] = params
    return out, dups


def balanced_args(text, start):
    depth, i = 1, start
    while depth:
        c = text[i]
        depth += c == '('
        depth -= c == ')'
        i += 1
    return text[start:i - 1]


def parse_defines(src, d):
    """SYSCALL_DEFINEn / COMPAT_SYSCALL_DEFINEn and plain asmlinkage long sys_X(...) {
    definitions of the arch's kernel/*.c -> {entry function: params}. A name
    defined twice (under #ifdef) is dropped: it must be resolved by hand."""
    out, dups = {}, set()
    for rel in src.under(d):
        text = strip_comments(src.get(rel))
        for m in re.finditer(r'\b(COMPAT_|PPC32_)?SYSCALL_DEFINE(\d)\(\s*(\w+)', text):
            kind, n, name = m.group(1), int(m.group(2)), m.group(3)
            body = balanced_args(text, m.start() + text[m.start():].index('(') + 1)
            parts = [p.strip() for p in body.split(',')][1:]
            if len(parts) != 2 * n:
                continue
            params = [(parts[2 * i], parts[2 * i + 1]) for i in range(n)]
            fns = ['compat_sys_' + name] if kind == 'COMPAT_' else ['sys_' + name]
            if kind == 'PPC32_':
                fns.append('compat_sys_' + name)
            for fn in fns:
                if fn in out and out[fn] != params:
                    dups.add(fn)
                out[fn] = params
        for m in re.finditer(r'asmlinkage\s+long\s+(sys_\w+)\s*\(([^;{]*?)\)\s*\{', text):
            args = ' '.join(m.group(2).split())
            out[m.group(1)] = [split_param(p) for p in args.split(',')] \
                if args not in ('', 'void') else []
    for fn in dups:
        del out[fn]
    return out


def to_classes(params, where):
    res = []
    for ctype, pname in params:
        if pname is None:
            die('%s: unnamed parameter %r' % (where, ctype))
        res.append((pname, classify(ctype, where)))
    return tuple(res)


def generic_protos(src):
    text = src.get('include/linux/syscalls.h')
    decls, dups = parse_decls(text, 'sys_', 'syscalls.h')
    for name in list(dups):
        if name in PREFER_LAST:
            dups.discard(name)
    if dups - OVERLAY_ONLY:
        die('syscalls.h: declared twice: %s' % ' '.join(sorted(dups - OVERLAY_ONLY)))
    protos = {}
    for name, params in decls.items():
        if name in OVERLAY_ONLY:
            continue
        if any(p is None for _, p in params):
            names = UNNAMED.get(name)
            if not names or len(names) != len(params):
                die('syscalls.h: sys_%s has unnamed parameters' % name)
            params = [(t, n) for (t, _), n in zip(params, names)]
        protos[name] = to_classes(params, 'sys_' + name)
    cdecls, _ = parse_decls(src.get('include/linux/compat.h'), 'compat_sys_', 'compat.h')
    compat = {}
    for name, params in cdecls.items():
        if any('(' in t for t, _ in params):
            continue  # compat_arg_u64(): split halves of 32-bit compat ABIs only
        if any(p is None for _, p in params):
            # compat.h leaves names out too: the generic prototype's names
            # belong to the same parameters when the counts agree.
            if name not in protos or len(protos[name]) != len(params):
                continue
            params = [(t, g[0]) for (t, _), g in zip(params, protos[name])]
        compat[name] = to_classes(params, 'compat_sys_' + name)
    return protos, compat


# ---------------------------------------------------------------- spellings

# Where the syscalls every ABI shares are defined (SYSCALL_DEFINE and
# COMPAT_SYSCALL_DEFINE outside arch/): the parameter names of a definition
# are a spelling a profile may use besides the prototype's in
# include/linux/syscalls.h or include/linux/compat.h (scmp-run.ini(5)
# CONDITIONS). Source.in_trees() reads the .c files below these that define
# a syscall.
GENERIC_TREES = ('kernel/', 'mm/', 'fs/', 'ipc/', 'net/', 'security/', 'block/', 'io_uring/',
         'drivers/char/random.c', 'drivers/pci/syscall.c')

WIDE_TYPES = {'loff_t', 'compat_loff_t', 'u64', '__u64', 's64', '__s64'}


def kind_of_type(ctype):
    """What a C parameter type occupies, for checking that two spellings
    describe the same layout: 'ptr', 'wide' (a 64-bit value) or 'scalar'."""
    t = ctype.replace('__user', ' ')
    if '*' in t:
        return 'ptr'
    t = ' '.join(w for w in t.split() if w not in ('const', 'volatile'))
    if TYPE_CLASS.get(t) == 'ptr':
        return 'ptr'
    return 'wide' if t in WIDE_TYPES else 'scalar'


def kind_of_class(c):
    return 'ptr' if c == 'ptr' else ('wide' if c in ('s64', 'u64') else 'scalar')


def parse_generic_defines(src):
    """Every SYSCALL_DEFINEn(X, ...) and COMPAT_SYSCALL_DEFINEn(X, ...) of the
    generic trees -> {('sys' or 'compat', X): {params}}; params is a tuple
    of (type, name). A name defined under #ifdef in several ways has several."""
    out = {}
    for rel in src.in_trees(GENERIC_TREES):
        text = strip_comments(src.get(rel))
        for m in re.finditer(r'\b(COMPAT_)?SYSCALL_DEFINE(\d)\(\s*(\w+)', text):
            kind, n, name = m.group(1), int(m.group(2)), m.group(3)
            body = balanced_args(text, m.start() + text[m.start():].index('(') + 1)
            parts = [' '.join(p.split()) for p in body.split(',')][1:]
            if len(parts) != 2 * n:
                continue
            params = tuple((parts[2 * i], parts[2 * i + 1]) for i in range(n))
            out.setdefault(('compat' if kind else 'sys', name), set()).add(params)
    return out


def spelling_sources(x, protos, compat, gdefs, review):
    """The spellings of function X as lists of (name, kind): the prototypes
    in syscalls.h (sys_X) and compat.h (compat_sys_X), and the definitions
    SYSCALL_DEFINE(X) and COMPAT_SYSCALL_DEFINE(X). A definition written in
    several ways whose names differ is left out (say so with --review)."""
    out = []
    if x in protos:
        out.append(('sys_%s in syscalls.h' % x, [(n, kind_of_class(c)) for n, c in protos[x]]))
    if x in compat:
        out.append(('compat_sys_%s in compat.h' % x,
                [(n, kind_of_class(c)) for n, c in compat[x]]))
    for kind, macro in (('sys', 'SYSCALL_DEFINE'), ('compat', 'COMPAT_SYSCALL_DEFINE')):
        variants = gdefs.get((kind, x), set())
        if len({tuple(n for _, n in v) for v in variants}) > 1:
            if review:
                sys.stderr.write('review: %s(%s) is written in %d ways: its names are not '
                         'used\n' % (macro, x, len(variants)))
            continue
        for v in variants:
            out.append(('%s(%s)' % (macro, x), [(n, kind_of_type(t)) for t, n in v]))
    return out


def add_spellings(resolved, origin, protos, compat, gdefs, review):
    """Give every parameter of every list taken from the prototype of a
    function X the names the other spellings of X use for it: "flags|clone_flags"
    (the overlay writes such lists by hand). A spelling is used only where it
    describes the same layout: as many parameters, pointers and 64-bit
    values at the same places. A name may stand for one parameter only."""
    out = {}
    for key, proto in resolved.items():
        o = origin.get(key)
        if proto in (None, INHERIT):
            out[key] = proto
            continue
        # The spellings in a fixed order (syscalls.h first), so that ABIs
        # with the same names write them alike; then the list's own.
        names = [[] for _ in proto]
        for where, spell in (spelling_sources(o[1], protos, compat, gdefs, review)
                     if o else []):
            if len(spell) != len(proto) or \
               any(k != kind_of_class(c) for (_, k), (_, c) in zip(spell, proto)):
                if review:
                    sys.stderr.write('review: %s %s: %s has another layout\n' %
                             (key[0], key[1], where))
                continue
            for i, (n, _) in enumerate(spell):
                if n not in names[i]:
                    names[i].append(n)
        for i, (pn, _) in enumerate(proto):
            names[i] += [n for n in pn.split('|') if n not in names[i]]
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                both = set(names[i]) & set(names[j])
                if both:
                    die('%s %s: %s names parameters %d and %d' %
                        (key[0], key[1], ' '.join(sorted(both)), i, j))
        out[key] = tuple(('|'.join(names[i]), c) for i, (_, c) in enumerate(proto))
    return out


# ---------------------------------------------------------------- kernel widths

NARROW_CLASSES = ('u16', 's32', 'u32')


def norm(text):
    return ' '.join(text.split())


def split_table(f, path, ln):
    """A data line's fields without its leading "@TABLE", and that table
    (None when the line applies to every table)."""
    if not f[0].startswith('@'):
        return None, f
    if f[0][1:] not in TABLES:
        die('%s:%d: unknown table %s' % (path, ln, f[0][1:]))
    return f[0][1:], f[1:]


def parse_widths(path):
    """data/kernel-widths.txt: "[@TABLE] NAME PARAM CLASS" lines, each
    followed by indented "FILE:LINE TEXT" lines citing the kernel source."""
    entries, cur = [], None
    for ln, raw in enumerate(open(path, encoding='utf-8'), 1):
        line = raw.rstrip('\n')
        if not line.strip() or line.lstrip().startswith('#'):
            continue
        if line[0] in ' \t':
            m = re.match(r'^\s+([\w./-]+):(\d+)\s+(\S.*)$', line)
            if cur is None or not m:
                die('%s:%d: want an indented "FILE:LINE TEXT" under an entry' % (path, ln))
            cur['cites'].append((m.group(1), int(m.group(2)), m.group(3), ln))
            continue
        f = line.split()
        table, f = split_table(f, path, ln)
        if len(f) != 3 or f[2] not in NARROW_CLASSES:
            die('%s:%d: want "[@TABLE] NAME PARAM CLASS" with CLASS one of %s' %
                (path, ln, ' '.join(NARROW_CLASSES)))
        cur = {'table': table, 'name': f[0], 'param': f[1], 'cls': f[2], 'cites': [],
               'ln': ln}
        entries.append(cur)
    for e in entries:
        if not e['cites']:
            die('%s:%d: %s %s cites no kernel line' % (path, e['ln'], e['name'], e['param']))
    return entries


def check_widths(src, entries, path):
    """Every cited line must still read as quoted (blanks normalised): a
    kernel update that moves or changes one needs a new review."""
    for e in entries:
        for rel, line, text, ln in e['cites']:
            lines = src.get(rel).split('\n')
            if line > len(lines) or norm(text) not in norm(lines[line - 1]):
                die('%s:%d: %s:%d does not read %r: review %s %s again' %
                    (path, ln, rel, line, text, e['name'], e['param']))


def apply_widths(resolved, entries, path):
    """Narrow each listed parameter where the prototype makes it register-wide."""
    for e in entries:
        changed = False
        for key, proto in list(resolved.items()):
            t, name = key
            if name != e['name'] or (e['table'] and t != e['table']) or \
               proto in (None, INHERIT):
                continue
            new = list(proto)
            for i, (pn, c) in enumerate(proto):
                if e['param'] not in pn.split('|'):
                    continue
                if c not in ('slong', 'ulong') + NARROW_CLASSES:
                    die('%s:%d: %s %s is %s on %s: not a number the kernel can narrow' %
                        (path, e['ln'], name, e['param'], c, t))
                if c in ('slong', 'ulong'):
                    new[i] = (pn, e['cls'])
                    changed = True
            resolved[key] = tuple(new)
        if not changed:
            die('%s:%d: %s %s is register-wide on no table: the entry changes nothing' %
                (path, e['ln'], e['name'], e['param']))


def parse_args_overlay(path):
    """data/syscall-args-overlay.txt: lines NAME p:c ... or @TABLE NAME p:c ..."""
    default, per = {}, {}
    for ln, line in enumerate(open(path, encoding='utf-8'), 1):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        f = line.split()
        table, f = split_table(f, path, ln)
        name, params = f[0], []
        if f[1:] == ['?']:
            params = None
        else:
            for p in f[1:]:
                pn, _, c = p.partition(':')
                if c not in CLASSES or not all(re.match(r'^\w+$', n) for n in pn.split('|')):
                    die('%s:%d: bad parameter %r' % (path, ln, p))
                params.append((pn, c))
            params = tuple(params)
        if table:
            per[(table, name)] = params
        else:
            default[name] = params
    return default, per


def is_split(proto):
    return proto is not None and any(c in ('s64', 'u64') for _, c in proto)


def resolve_args(tables, protos, compat, archdefs, odefault, oper, review):
    """Argument list of every (table, name), from the entry point the table
    names, in this order: the overlay's @TABLE line; nothing of its own for an
    unimplemented entry (INHERIT: the name's list from other ABIs); the compat
    prototype (include/linux/compat.h) for compat_sys_* on x32/n32, whose
    64-bit registers the compat entry truncates; the generic prototype of the
    entry (sys_X in include/linux/syscalls.h, also for a renamed entry such as
    _llseek -> sys_llseek); for an arch entry (SYSCALL_DEFINE in
    arch/*/kernel/*.c): the name's generic prototype if the entry only splits
    64-bit values into register halves (REVIEWED_SPLIT), else the arch
    entry's own; the name's generic or overlay prototype; unknown (None)."""
    res, origin = {}, {}
    problems = []
    used_split = set()
    for t, rows in tables.items():
        arch, bits = TABLES[t][2], TABLES[t][3]
        adefs = archdefs[arch]
        for _, name, fn in rows:
            key = (t, name)
            if key in oper:
                res[key] = oper[key]
                continue
            base = protos.get(name, odefault.get(name))
            base_origin = ('sys', name) if name in protos else None
            if fn in NO_ENTRY:
                # No entry point of its own: the kernel returns ENOSYS
                # whatever the arguments. Use the name's prototype as
                # other ABIs have it (never sys_ni_syscall(void)).
                res[key] = INHERIT
                continue
            x = re.sub(r'^(__sys_|sysm_|sys_|compat_sys_)', '', fn)
            if fn not in adefs and fn.startswith(('__sys_', 'sysm_')):
                fn = 'sys_' + x  # assembly stub in front of sys_X
            if t in COMPAT64_TABLES and fn.startswith('compat_sys_') and x in compat:
                res[key] = compat[x]
                origin[key] = ('sys', x)
                continue
            if fn.startswith('compat_sys_') and t in COMPAT64_TABLES:
                # Without a compat prototype the generic one is used; it
                # must not claim a register-wide argument the compat
                # entry truncates to 32 bits.
                if base is None or any(c in ('slong', 'ulong') for _, c in base):
                    problems.append('%s %s: compat entry %s has no prototype' %
                            (t, name, fn))
            if x in protos and (bits == 32 or not fn.startswith('compat_sys_')):
                # A 32-bit ABI's registers are 32 bits wide: its compat
                # entry compat_sys_X has the layout of sys_X.
                res[key] = protos[x]
                origin[key] = ('sys', x)
                continue
            if bits == 32 and fn.startswith('compat_sys_') and x in compat:
                res[key] = compat[x]
                origin[key] = ('sys', x)
                continue
            if fn in adefs and base is not None:
                if bits == 32 and is_split(base):
                    if fn not in REVIEWED_SPLIT:
                        problems.append('%s %s: unreviewed split entry %s' %
                                (t, name, fn))
                    used_split.add(fn)
                    res[key] = base
                    origin[key] = base_origin
                else:
                    res[key] = to_classes(adefs[fn], fn)
                continue
            if base is not None:
                if review and fn != 'sys_' + name:
                    sys.stderr.write('review: %s %s: entry %s, prototype of %s\n' %
                             (t, name, fn, name))
                res[key] = base
                origin[key] = base_origin
                continue
            if fn in adefs:
                res[key] = to_classes(adefs[fn], fn)
                continue
            res[key] = None
    for fn in sorted(REVIEWED_SPLIT - used_split):
        problems.append('REVIEWED_SPLIT lists %s, which no table uses' % fn)
    if problems:
        die('argument resolution:\n  ' + '\n  '.join(problems))
    return res, origin


# ---------------------------------------------------------------- output

def header(version, what):
    return ('# SPDX-License-Identifier: LGPL-2.1-or-later\n'
        '# %s\n'
        '# generated by tools/gen-syscalls.py; do not edit\n'
        '# kernel %s\n' % (what, version))


def render_syscalls(version, tables):
    out = [header(version, 'Syscall numbers per ABI table: TABLE NR NAME '
              '(Linux tables plus data/syscalls-overlay.txt).')]
    for t in sorted(tables):
        for nr, name, _ in sorted(tables[t]):
            out.append('%s %d %s\n' % (t, nr, name))
    return ''.join(out)


def fmt_proto(name, proto):
    if proto is None:
        return name + ' ?'
    return ' '.join([name] + ['%s:%s' % p for p in proto])


def render_args(version, tables, resolved):
    out = [header(version, 'Syscall arguments: NAME PARAM:CLASS ..., per-ABI exceptions as '
              '@TABLE NAME ...\n'
              '# Classes: u16 (low 16 bits of the register), s32 u32 (low 32 bits),\n'
              '# slong ulong (the whole register), s64 u64 (64-bit value: two registers on\n'
              '# 32-bit ABIs), ptr. A parameter spelt several ways in the kernel source\n'
              '# lists every spelling, "flags|clone_flags". data/kernel-widths.txt narrows\n'
              '# the arguments the kernel uses fewer bits of than the prototype says.\n'
              '# "@TABLE NAME ?": arguments unknown on that ABI; no line: unknown everywhere.')]
    names = sorted({name for rows in tables.values() for _, name, _ in rows})
    for name in names:
        present = [t for t in TABLE_PRIORITY if (t, name) in resolved]
        default = None
        for t in present:
            if resolved[(t, name)] not in (None, INHERIT):
                default = resolved[(t, name)]
                break
        if default is None:
            continue
        out.append(fmt_proto(name, default) + '\n')
        for t in sorted(present):
            if resolved[(t, name)] not in (default, INHERIT):
                out.append('@%s %s\n' % (t, fmt_proto(name, resolved[(t, name)])))
    return ''.join(out)


def main(argv):
    check = '--check' in argv
    review = '--review' in argv
    args = [a for a in argv if a not in ('--check', '--review')]
    path = args[0] if args else DEFAULT_SOURCE
    wanted = {'Makefile', 'include/linux/syscalls.h', 'include/linux/compat.h',
          'arch/arm/include/uapi/asm/unistd.h'}
    wanted |= {v[0] for v in TABLES.values()}
    arches = sorted({v[2] for v in TABLES.values()})
    wanted |= {'arch/%s/kernel/' % a for a in arches}
    widths_path = os.path.join(DATA, 'kernel-widths.txt')
    widths = parse_widths(widths_path)
    wanted |= {c[0] for e in widths for c in e['cites']}
    src = Source(path, wanted, GENERIC_TREES)
    version = kernel_version(src)
    check_widths(src, widths, widths_path)

    tables = build_tables(src)
    for t, nr, name in parse_overlay(os.path.join(DATA, 'syscalls-overlay.txt')):
        if any(r[1] == name for r in tables[t]):
            die('overlay: %s already has %s' % (t, name))
        if any(r[0] == nr for r in tables[t]):
            die('overlay: %s already has number %d' % (t, nr))
        tables[t].append((nr, name, 'overlay'))
    for t, rows in tables.items():
        if len({r[0] for r in rows}) != len(rows) or len({r[1] for r in rows}) != len(rows):
            die('%s: duplicate number or name' % t)

    protos, compat = generic_protos(src)
    archdefs = {a: parse_defines(src, 'arch/%s/kernel/' % a) for a in arches}
    odefault, oper = parse_args_overlay(os.path.join(DATA, 'syscall-args-overlay.txt'))
    for name in odefault:
        if name in protos:
            die('args overlay: %s is already in syscalls.h' % name)
    resolved, origin = resolve_args(tables, protos, compat, archdefs, odefault, oper, review)
    if UNCLASSIFIED:
        die('unclassified types:\n  ' + '\n  '.join(sorted(UNCLASSIFIED)))
    resolved = add_spellings(resolved, origin, protos, compat, parse_generic_defines(src),
                 review)
    apply_widths(resolved, widths, widths_path)

    outputs = {
        os.path.join(DATA, 'syscalls.txt'): render_syscalls(version, tables),
        os.path.join(DATA, 'syscall-args.txt'): render_args(version, tables, resolved),
    }
    stale = 0
    for fn, text in outputs.items():
        old = open(fn, encoding='utf-8').read() if os.path.exists(fn) else None
        if old == text:
            continue
        stale += 1
        if check:
            sys.stderr.write('gen-syscalls: %s is out of date\n' % fn)
        else:
            with open(fn, 'w', encoding='utf-8') as f:
                f.write(text)
    known = {n for (t, n), p in resolved.items() if p not in (None, INHERIT)}
    unknown = sorted({n for (t, n) in resolved} - known)
    sys.stderr.write('gen-syscalls: kernel %s, %d table rows, %d names without prototype\n' %
             (version, sum(len(r) for r in tables.values()), len(unknown)))
    return 1 if check and stale else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
