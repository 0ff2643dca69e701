#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Extract named constants (errno, O_*, AF_*, CLONE_*, ...) per ABI from a Linux
# source tree's uapi headers and write data/constants.txt.
#
# Usage: gen-constants.py [--check] KSRC OUTPUT
#   KSRC is an extracted kernel tree or a linux-source-*.tar.xz.
#   --check writes nothing: it regenerates OUTPUT in memory, compares it with
#   the file and exits 1 with a unified diff on stderr if they differ.
#
# Each ABI's headers are run through the C preprocessor alone (-nostdinc, with
# the ABI's compiler macros defined by hand), following the same include chain
# the kernel's "make headers_install" produces: arch/ARCH/include/uapi first,
# then asm-generic for every asm/ header the arch does not provide, then
# include/uapi. The host's /usr/include is never searched. The macro values
# are then evaluated here with C integer semantics for the ABI's type sizes.

import collections
import difflib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

# ABI token -> (enum arch_family name, arch dir, sizeof(long), predefined macros).
# The predefined macros are what the ABI's compiler defines; only those that
# the uapi headers test are listed.
ABIS = [
    ('x86_64', 'FAMILY_X86', 'x86', 8, {'__x86_64__': 1}),
    ('x86', 'FAMILY_X86', 'x86', 4, {'__i386__': 1}),
    ('x32', 'FAMILY_X86', 'x86', 4, {'__x86_64__': 1, '__ILP32__': 1}),
    ('aarch64', 'FAMILY_ARM', 'arm64', 8, {'__aarch64__': 1}),
    ('arm', 'FAMILY_ARM', 'arm', 4, {'__arm__': 1}),
    ('riscv64', 'FAMILY_RISCV', 'riscv', 8, {'__riscv': 1, '__riscv_xlen': 64}),
    ('ppc64le', 'FAMILY_PPC_LE', 'powerpc', 8,
     {'__powerpc__': 1, '__powerpc64__': 1, '__PPC64__': 1, '__LITTLE_ENDIAN__': 1}),
    ('ppc64', 'FAMILY_PPC_BE', 'powerpc', 8,
     {'__powerpc__': 1, '__powerpc64__': 1, '__PPC64__': 1, '__BIG_ENDIAN__': 1}),
    ('ppc', 'FAMILY_PPC_BE', 'powerpc', 4, {'__powerpc__': 1, '__PPC__': 1, '__BIG_ENDIAN__': 1}),
    ('s390x', 'FAMILY_S390', 's390', 8, {'__s390__': 1, '__s390x__': 1}),
    ('s390', 'FAMILY_S390', 's390', 4, {'__s390__': 1}),
    ('mips', 'FAMILY_MIPS_BE', 'mips', 4,
     {'__mips__': 1, '__mips': 32, '_MIPS_SIM': 1, '_MIPS_SZLONG': 32, '__MIPSEB__': 1}),
    ('mipsel', 'FAMILY_MIPS_LE', 'mips', 4,
     {'__mips__': 1, '__mips': 32, '_MIPS_SIM': 1, '_MIPS_SZLONG': 32, '__MIPSEL__': 1}),
    ('mips64', 'FAMILY_MIPS_BE', 'mips', 8,
     {'__mips__': 1, '__mips': 64, '__mips64': 1, '_MIPS_SIM': 3, '_MIPS_SZLONG': 64,
      '__MIPSEB__': 1}),
    ('mipsel64', 'FAMILY_MIPS_LE', 'mips', 8,
     {'__mips__': 1, '__mips': 64, '__mips64': 1, '_MIPS_SIM': 3, '_MIPS_SZLONG': 64,
      '__MIPSEL__': 1}),
    ('mips64n32', 'FAMILY_MIPS_BE', 'mips', 4,
     {'__mips__': 1, '__mips': 64, '__mips64': 1, '_MIPS_SIM': 2, '_MIPS_SZLONG': 32,
      '__MIPSEB__': 1}),
    ('mipsel64n32', 'FAMILY_MIPS_LE', 'mips', 4,
     {'__mips__': 1, '__mips': 64, '__mips64': 1, '_MIPS_SIM': 2, '_MIPS_SZLONG': 32,
      '__MIPSEL__': 1}),
    ('loongarch64', 'FAMILY_LOONGARCH', 'loongarch', 8,
     {'__loongarch__': 1, '__loongarch64': 1, '__loongarch_grlen': 64, '__loongarch_lp64': 1}),
]

COMMON_PREDEFS = {
    '__linux__': 1,
    '__CHAR_BIT__': 8,
    '__SIZEOF_INT__': 4,
    '__SIZEOF_LONG_LONG__': 8,
    '__force': '',  # a sparse annotation in casts
    # values the MIPS compilers predefine (same as asm/sgidefs.h)
    '_MIPS_SIM_ABI32': 1,
    '_MIPS_SIM_NABI32': 2,
    '_MIPS_SIM_ABI64': 3,
}

# uapi headers read for every ABI
HEADERS = [
    'asm/errno.h', 'asm/fcntl.h', 'linux/fcntl.h', 'asm/mman.h', 'linux/mman.h',
    'linux/sched.h', 'linux/prctl.h', 'asm/signal.h', 'asm/ioctls.h', 'asm/sockios.h',
    'linux/mount.h', 'linux/seccomp.h', 'linux/stat.h', 'asm/socket.h', 'linux/netlink.h',
    'linux/eventfd.h', 'linux/memfd.h', 'linux/random.h', 'linux/fs.h', 'linux/in.h',
    'linux/in6.h', 'asm/resource.h', 'linux/resource.h', 'linux/time.h', 'linux/wait.h',
    'linux/fadvise.h', 'linux/capability.h', 'linux/eventpoll.h', 'linux/inotify.h',
    'linux/timerfd.h', 'linux/signalfd.h', 'linux/futex.h', 'linux/personality.h',
    'asm/termios.h', 'asm/termbits.h', 'linux/shm.h',
]

# Which macros become constants: (regex on the basename of the header that
# defines the macro, regex on the macro name). Macros defined elsewhere
# (helpers, include guards) are ignored.
SELECT = [
    (r'errno(-base)?\.h', r'E[A-Z0-9]+'),
    (r'fcntl\.h', r'(O|F|FD|AT|DN)_\w+'),
    (r'mman(-common)?\.h', r'(PROT|MAP|MADV|MCL|MREMAP|MLOCK|MS)_\w+'),
    (r'sched\.h', r'(CLONE|SCHED)_\w+'),
    (r'prctl\.h', r'PR_\w+'),
    (r'signal(-defs)?\.h', r'SIG[A-Z0-9]+|SIG_(BLOCK|UNBLOCK|SETMASK)|SA_\w+|SS_\w+|MINSIGSTKSZ'),
    (r'ioctls\.h|sockios\.h', r'(TIOC|FIO|TC|SIOC)\w+'),
    (r'termios\.h|termbits\.h', r'TIOCM_\w+|TIOCSER_TEMT'),
    (r'mount\.h', r'(MS|MNT|MOUNT_ATTR|MOVE_MOUNT|OPEN_TREE|FSMOUNT|FSOPEN|FSPICK)_\w+'),
    (r'seccomp\.h', r'SECCOMP_\w+'),
    (r'stat\.h', r'S_I[A-Z]+'),
    (r'socket\.h', r'SOL_\w+|SO_\w+|SCM_\w+|AF_\w+|PF_\w+|MSG_\w+|SOMAXCONN'),
    (r'net\.h', r'SOCK_\w+|SHUT_\w+'),
    (r'netlink\.h', r'NETLINK_\w+'),
    (r'eventfd\.h', r'EFD_\w+'),
    (r'memfd\.h', r'MFD_\w+'),
    (r'random\.h', r'GRND_\w+'),
    (r'fs\.h', r'RENAME_\w+'),
    (r'in6?\.h', r'IPPROTO_\w+'),
    (r'resource\.h', r'RLIMIT_\w+|RLIM_INFINITY|PRIO_(PROCESS|PGRP|USER)'),
    (r'time\.h', r'CLOCK_\w+|TIMER_ABSTIME'),
    (r'wait\.h', r'W(NOHANG|UNTRACED|STOPPED|EXITED|CONTINUED|NOWAIT)|P_(ALL|PID|PGID|PIDFD)'),
    (r'fadvise\.h', r'POSIX_FADV_\w+'),
    (r'capability\.h', r'CAP_(?!LAST_CAP)[A-Z_]+'),
    (r'eventpoll\.h', r'EPOLL\w+'),
    (r'inotify\.h', r'IN_\w+'),
    (r'timerfd\.h', r'TFD_\w+'),
    (r'signalfd\.h', r'SFD_\w+'),
    (r'futex\.h', r'FUTEX_\w+'),
    (r'shm\.h', r'SHM_(EXEC|RDONLY|RND|REMAP|HUGETLB|NORESERVE|LOCK|UNLOCK)'),
    (r'personality\.h', r'PER_\w+|UNAME26|ADDR_\w+|FDPIC_FUNCPTRS|MMAP_PAGE_ZERO|READ_IMPLIES_EXEC'
     r'|SHORT_INODE|WHOLE_SECONDS|STICKY_TIMEOUTS'),
]

# Kernel-internal names that match a pattern above but are no user ABI.
EXCLUDE = {
    'MSG_CMSG_COMPAT', 'MSG_INTERNAL_SENDMSG_FLAGS', 'MSG_SENDPAGE_NOPOLICY',
    'MSG_NO_SHARED_FRAGS', 'MSG_SENDPAGE_DECRYPTED', 'MSG_SPLICE_PAGES', 'SOCK_MAX',
    'SOCK_TYPE_MASK', 'PER_CLEAR_ON_SETID', 'SECCOMP_IOC_MAGIC', 'IN_ALL_EVENTS',
    'EPOLL_PACKED',
    # The uapi SIGRTMIN/SIGRTMAX are the kernel's bounds (32, _NSIG), not the
    # C library's (SIGRTMIN is 34 with glibc); a filter would only mislead.
    'SIGRTMIN', 'SIGRTMAX',
    # grows whenever the kernel adds a flag; a filter must not depend on it
    'MOVE_MOUNT__MASK',
}

# The reviewed hand list: names the uapi headers do not define, as
# name -> (header it counts as, definition). Evaluated per ABI like the rest.
#  - ENOTSUP is the C library's name for EOPNOTSUPP.
#  - SIGCLD is the C library's name for SIGCHLD (only MIPS's uapi has it).
#  - SOCK_* and SHUT_* are enums in the kernel's include/linux/net.h (MIPS
#    overrides the socket types in arch/mips/include/asm/socket.h); they are
#    read from those files by enum_defines() below, not typed here.
HAND = {
    'ENOTSUP': ('errno.h', 'EOPNOTSUPP'),
    'SIGCLD': ('signal.h', 'SIGCHLD'),
}

# sizeof() of the types the ioctl request macros use, per ABI (bytes). Plain
# C types follow the ABI's long size; the termios structures are the layouts
# of arch/*/include/uapi/asm/termbits.h.
def type_size(abi, words):
    lsz = abi[3]
    t = ' '.join(words)
    plain = {
        'char': 1, 'unsigned char': 1, 'signed char': 1, 'short': 2, 'unsigned short': 2,
        'int': 4, 'unsigned int': 4, 'unsigned': 4, 'long': lsz, 'unsigned long': lsz,
        'long long': 8, 'unsigned long long': 8, '__u8': 1, '__s8': 1, '__u16': 2,
        '__s16': 2, '__u32': 4, '__s32': 4, '__u64': 8, '__s64': 8, 'pid_t': 4,
        'loff_t': 8, 'struct winsize': 8, 'struct sgttyb': 6, 'struct tchars': 6,
        'struct ltchars': 6,
        # The C library picks 32- or 64-bit time_t on 32-bit ABIs, so names that
        # depend on it (SO_RCVTIMEO, SO_TIMESTAMP*, SCM_TIMESTAMP*) are left out.
        'time_t': None,
    }
    if t in plain:
        return plain[t]
    if t.endswith('*'):
        return lsz
    if t == 'struct termios2':
        # 4 tcflag_t, c_line, c_cc[NCCS], 2 speed_t; NCCS is 23 on MIPS, else 19
        return 48 if abi[2] == 'mips' else 44
    # linux/seccomp.h: fixed-size fields only, the same on every ABI
    if t == 'struct seccomp_notif':
        return 80
    if t in ('struct seccomp_notif_resp', 'struct seccomp_notif_addfd'):
        return 24
    if abi[2] == 'powerpc':
        # 4 tcflag_t, c_cc[19], c_line, 2 speed_t
        if t == 'struct termios':
            return 44
        # 4 unsigned short, c_line, c_cc[10], padded to 2
        if t == 'struct termio':
            return 20
    return None


INT_TYPES = {
    # name -> (rank, unsigned); rank 1 int, 2 long, 3 long long
    'int': (1, False), 'signed int': (1, False), 'unsigned int': (1, True), 'unsigned': (1, True),
    'long': (2, False), 'unsigned long': (2, True), 'long long': (3, False),
    'unsigned long long': (3, True), 'char': (1, False), 'unsigned char': (1, True),
    'short': (1, False), 'unsigned short': (1, True),
    '__u32': (1, True), '__s32': (1, False), '__u64': (3, True), '__s64': (3, False),
    '__u16': (1, True), '__u8': (1, True), '__poll_t': (1, True), '__kernel_long_t': (2, False),
    '__kernel_ulong_t': (2, True), 'size_t': (2, True), 'umode_t': (1, True),
}
TYPE_WORDS = {'int', 'unsigned', 'signed', 'long', 'short', 'char', 'struct', 'const'}


class EvalError(Exception):
    pass


class Val:
    """A C integer value with its type: rank (1 int, 2 long, 3 long long), signedness."""

    def __init__(self, v, rank, uns, lsz):
        self.rank, self.uns, self.lsz = rank, uns, lsz
        w = self.width()
        v &= (1 << w) - 1
        if not uns and v >> (w - 1):
            v -= 1 << w
        self.v = v

    def width(self):
        return 32 if self.rank == 1 else (self.lsz * 8 if self.rank == 2 else 64)


def common(a, b):
    lsz = a.lsz
    if a.rank == b.rank:
        return a.rank, a.uns or b.uns
    hi, lo = (a, b) if a.rank > b.rank else (b, a)
    if hi.uns:
        return hi.rank, True
    if not lo.uns or hi.width() > lo.width():
        return hi.rank, False
    return hi.rank, True


TOKEN_RE = re.compile(r"\s*(?:(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)|('(?:\\.|[^'])')|([A-Za-z_]\w*)"
                      r"|(<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^~!<>?:(),]))")


def tokenize(s):
    out = []
    pos = 0
    s = s.strip()
    while pos < len(s):
        m = TOKEN_RE.match(s, pos)
        if not m or m.end() == pos:
            raise EvalError('cannot tokenize %r' % s[pos:])
        pos = m.end()
        if m.group(1):
            out.append(('num', m.group(1), m.group(2)))
        elif m.group(3):
            out.append(('chr', m.group(3)))
        elif m.group(4):
            out.append(('id', m.group(4)))
        else:
            out.append(('op', m.group(5)))
        while pos < len(s) and s[pos].isspace():
            pos += 1
    return out


class Evaluator:
    def __init__(self, abi, macros):
        self.abi = abi
        self.lsz = abi[3]
        self.macros = macros  # name -> (params or None, body)

    def expand(self, toks, active):
        out = []
        i = 0
        while i < len(toks):
            t = toks[i]
            if t[0] == 'id' and t[1] in self.macros and t[1] not in active:
                params, body = self.macros[t[1]]
                if params is None:
                    out += self.expand(tokenize(body), active | {t[1]})
                    i += 1
                    continue
                if i + 1 < len(toks) and toks[i + 1] == ('op', '('):
                    args, i = self.collect_args(toks, i + 2)
                    if len(params) != len(args) and not (params == [] and args == [[]]):
                        raise EvalError('argument count for ' + t[1])
                    args = [self.expand(a, active) for a in args]
                    sub = []
                    for bt in tokenize(body):
                        if bt[0] == 'id' and bt[1] in params:
                            sub += args[params.index(bt[1])]
                        else:
                            sub.append(bt)
                    out += self.expand(sub, active | {t[1]})
                    continue
            out.append(t)
            i += 1
        return out

    @staticmethod
    def collect_args(toks, i):
        args, cur, depth = [], [], 0
        while i < len(toks):
            t = toks[i]
            if t == ('op', '(') :
                depth += 1
            elif t == ('op', ')'):
                if depth == 0:
                    args.append(cur)
                    return args, i + 1
                depth -= 1
            elif t == ('op', ',') and depth == 0:
                args.append(cur)
                cur = []
                i += 1
                continue
            cur.append(t)
            i += 1
        raise EvalError('unterminated macro call')

    def value(self, name):
        toks = self.expand([('id', name)], set())
        self.toks, self.pos = toks, 0
        v = self.ternary()
        if self.pos != len(self.toks):
            raise EvalError('trailing tokens in %s' % name)
        return v

    # --- recursive descent over the expanded tokens, C precedence ---
    def peek(self):
        return self.toks[self.pos] if self.pos < len(self.toks) else ('eof',)

    def take(self, op=None):
        t = self.peek()
        if op is not None and t != ('op', op):
            raise EvalError('expected %s' % op)
        self.pos += 1
        return t

    def mk(self, v, rank, uns):
        return Val(v, rank, uns, self.lsz)

    def ternary(self):
        c = self.binary(0)
        if self.peek() == ('op', '?'):
            self.take()
            a = self.ternary()
            self.take(':')
            b = self.ternary()
            r, u = common(a, b)
            return self.mk(a.v if c.v else b.v, r, u)
        return c

    LEVELS = [['||'], ['&&'], ['|'], ['^'], ['&'], ['==', '!='], ['<', '>', '<=', '>='],
              ['<<', '>>'], ['+', '-'], ['*', '/', '%']]

    def binary(self, level):
        if level == len(self.LEVELS):
            return self.unary()
        a = self.binary(level + 1)
        while self.peek()[0] == 'op' and self.peek()[1] in self.LEVELS[level]:
            op = self.take()[1]
            b = self.binary(level + 1)
            a = self.apply(op, a, b)
        return a

    def apply(self, op, a, b):
        if op in ('||', '&&'):
            r = (a.v != 0 or b.v != 0) if op == '||' else (a.v != 0 and b.v != 0)
            return self.mk(int(r), 1, False)
        if op in ('<<', '>>'):
            if b.v < 0 or b.v >= a.width():
                raise EvalError('shift out of range')
            return self.mk(a.v << b.v if op == '<<' else a.v >> b.v, a.rank, a.uns)
        r, u = common(a, b)
        x, y = self.mk(a.v, r, u).v, self.mk(b.v, r, u).v
        if op in ('==', '!=', '<', '>', '<=', '>='):
            res = {'==': x == y, '!=': x != y, '<': x < y, '>': x > y, '<=': x <= y,
                   '>=': x >= y}[op]
            return self.mk(int(res), 1, False)
        if op in ('/', '%'):
            if y == 0:
                raise EvalError('division by zero')
            q = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
            return self.mk(q if op == '/' else x - q * y, r, u)
        res = {'|': x | y, '^': x ^ y, '&': x & y, '+': x + y, '-': x - y, '*': x * y}[op]
        return self.mk(res, r, u)

    def type_words(self, start, any_name=False):
        """If tokens from start are 'type-name )', return (words, index after ')').
        In sizeof() any identifier is taken as a type name (pid_t, loff_t)."""
        i, words = start, []
        while i < len(self.toks) and self.toks[i][0] == 'id':
            w = self.toks[i][1]
            if not (any_name or w in TYPE_WORDS or w in INT_TYPES or
                    (words and words[-1] == 'struct')):
                return None
            words.append(w)
            i += 1
        while i < len(self.toks) and self.toks[i] == ('op', '*'):
            words.append('*')
            i += 1
        if words and i < len(self.toks) and self.toks[i] == ('op', ')'):
            return [w for w in words if w != 'const'], i + 1
        return None

    def unary(self):
        t = self.peek()
        if t[0] == 'op' and t[1] in ('-', '+', '~', '!'):
            self.take()
            a = self.unary()
            if t[1] == '!':
                return self.mk(int(a.v == 0), 1, False)
            if a.rank == 1 and a.width() < 32:
                a = self.mk(a.v, 1, False)
            return self.mk({'-': -a.v, '+': a.v, '~': ~a.v}[t[1]], a.rank, a.uns)
        if t == ('id', 'sizeof'):
            self.take()
            self.take('(')
            tw = self.type_words(self.pos, True)
            if tw is None:
                raise EvalError('sizeof of an expression')
            words, self.pos = tw
            size = type_size(self.abi, words)
            if size is None:
                raise EvalError('unknown size of %s' % ' '.join(words))
            return self.mk(size, 2, True)
        if t == ('op', '('):
            tw = self.type_words(self.pos + 1)
            if tw is not None:
                words, after = tw
                name = ' '.join(words)
                if name not in INT_TYPES:
                    raise EvalError('cast to %s' % name)
                self.pos = after
                a = self.unary()
                rank, uns = INT_TYPES[name]
                return self.mk(a.v, rank, uns)
            self.take()
            v = self.ternary()
            self.take(')')
            return v
        return self.primary()

    def primary(self):
        t = self.take()
        if t[0] == 'num':
            return self.literal(t[1], t[2])
        if t[0] == 'chr':
            body = t[1][1:-1]
            if body.startswith('\\'):
                esc = {'n': 10, 't': 9, '0': 0, '\\': 92, "'": 39}
                if body[1] not in esc:
                    raise EvalError('char escape')
                return self.mk(esc[body[1]], 1, False)
            return self.mk(ord(body), 1, False)
        raise EvalError('unexpected %r' % (t,))

    def literal(self, text, suffix):
        base = 16 if text[:2].lower() == '0x' else (8 if len(text) > 1 and text[0] == '0' else 10)
        v = int(text, base)
        suf = suffix.lower()
        uns = 'u' in suf
        rank = 3 if 'll' in suf else (2 if 'l' in suf else 1)
        # C11 6.4.4.1: the first type in the list that can hold the value
        cands = [(r, u) for r in (1, 2, 3) if r >= rank for u in (False, True)
                 if (u or not uns) and (u or base != 10 or not uns)]
        if base == 10 and not uns:
            cands = [(r, False) for r in (1, 2, 3) if r >= rank]
        for r, u in cands:
            w = 32 if r == 1 else (self.lsz * 8 if r == 2 else 64)
            if v < (1 << (w if u else w - 1)):
                return self.mk(v, r, u)
        raise EvalError('literal too large')


DEFINE_RE = re.compile(r'#define\s+(\w+)(\(([^)]*)\))?\s*(.*)$')
LINEMARK_RE = re.compile(r'#\s+\d+\s+"([^"]*)"')


def run_cpp(ksrc, work, abi):
    token, family, adir, lsz, predefs = abi
    src = os.path.join(work, 'in-%s.c' % token)
    with open(src, 'w') as f:
        for h in HEADERS:
            f.write('#include <%s>\n' % h)
        f.write('#include "%s"\n' % os.path.join(work, 'extra-%s' % token, 'net.h'))
        f.write('#include "%s"\n' % os.path.join(work, 'extra-%s' % token, 'socket.h'))
        f.write('#include "%s"\n' % os.path.join(work, 'extra-%s' % token, 'personality.h'))
        f.write('#include "%s"\n' % os.path.join(work, 'extra-%s' % token, 'in.h'))
        for h in sorted({h for h, _ in HAND.values()}):
            f.write('#include "%s"\n' % os.path.join(work, 'extra-%s' % token, h))
    defs = dict(COMMON_PREDEFS)
    defs.update(predefs)
    defs['__SIZEOF_LONG__'] = lsz
    defs['__SIZEOF_POINTER__'] = lsz
    cmd = ['gcc', '-E', '-dD', '-undef', '-nostdinc', '-w', '-x', 'c']
    cmd += ['-D%s=%s' % (k, v) for k, v in sorted(defs.items())]
    cmd += ['-I', os.path.join(ksrc, 'arch', adir, 'include', 'uapi'),
            '-I', os.path.join(work, 'generic'),
            '-I', os.path.join(ksrc, 'include', 'uapi'),
            '-I', os.path.join(work, 'stub'), src]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit('gen-constants: preprocessing for %s failed:\n%s' % (token, res.stderr))
    macros, origin = {}, {}
    cur = ''
    for line in res.stdout.splitlines():
        m = LINEMARK_RE.match(line)
        if m:
            cur = m.group(1)
            continue
        if line.startswith('#undef'):
            name = line.split()[1]
            macros.pop(name, None)
            origin.pop(name, None)
            continue
        m = DEFINE_RE.match(line)
        if not m:
            continue
        name = m.group(1)
        params = None
        if m.group(2) is not None:
            params = [p.strip() for p in m.group(3).split(',') if p.strip()]
        macros[name] = (params, m.group(4))
        origin[name] = os.path.basename(cur)
    return macros, origin


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


def enum_defines(text, name_re, tag_re=r'\w*'):
    """#define lines for the enumerators whose names match name_re, of every
    enum in text whose tag matches tag_re."""
    text = strip_comments(text)
    out = []
    for tag, body in re.findall(r'enum\s*(\w*)\s*\{(.*?)\}', text, flags=re.S):
        if not re.fullmatch(tag_re, tag):
            continue
        body = '\n'.join(l for l in body.splitlines() if not l.strip().startswith('#'))
        prev = None
        for item in body.split(','):
            item = ' '.join(item.split())
            if not item:
                continue
            if '=' in item:
                n, e = (x.strip() for x in item.split('=', 1))
            else:
                n, e = item, ('0' if prev is None else '(%s + 1)' % prev)
            prev = n
            if re.fullmatch(name_re, n):
                out.append('#undef %s\n#define %s (%s)\n' % (n, n, e))
    return ''.join(out)


def define_lines(text, name_re, exclude):
    out = []
    for line in strip_comments(text).splitlines():
        m = re.match(r'\s*#\s*define\s+(\w+)\s+(.+)$', line)
        if m and re.fullmatch(name_re, m.group(1)) and m.group(1) not in exclude:
            out.append('#define %s %s\n' % (m.group(1), m.group(2).strip()))
    return ''.join(out)


def read(ksrc, path):
    with open(os.path.join(ksrc, path)) as f:
        return f.read()


def prepare(ksrc, work):
    """Wrapper headers for asm-generic fallbacks, stubs, and per-ABI extras."""
    gen = os.path.join(work, 'generic', 'asm')
    os.makedirs(gen)
    for h in os.listdir(os.path.join(ksrc, 'include', 'uapi', 'asm-generic')):
        with open(os.path.join(gen, h), 'w') as f:
            f.write('#include <asm-generic/%s>\n' % h)
    stub = os.path.join(work, 'stub', 'linux')
    os.makedirs(stub)
    # linux/compiler*.h are kernel-internal; the uapi headers include them only
    # for annotations that do not matter to macro values
    for h in ('compiler_types.h', 'compiler.h'):
        open(os.path.join(stub, h), 'w').close()
    # linux/shm.h includes the C library's <unistd.h> outside the kernel,
    # for nothing its macros need
    open(os.path.join(work, 'stub', 'unistd.h'), 'w').close()

    net = read(ksrc, 'include/linux/net.h')
    sock = read(ksrc, 'include/linux/socket.h')
    pers = read(ksrc, 'include/uapi/linux/personality.h')
    inh = read(ksrc, 'include/uapi/linux/in.h')
    for abi in ABIS:
        d = os.path.join(work, 'extra-%s' % abi[0])
        os.makedirs(d)
        # An arch that defines ARCH_HAS_SOCKET_TYPES in its asm/socket.h
        # (MIPS) replaces the socket type enum of include/linux/net.h.
        types = net
        archsock = os.path.join(ksrc, 'arch', abi[2], 'include', 'asm', 'socket.h')
        if os.path.exists(archsock) and 'ARCH_HAS_SOCKET_TYPES' in read(ksrc, archsock):
            types = read(ksrc, archsock)
        with open(os.path.join(d, 'net.h'), 'w') as f:
            f.write(enum_defines(types, r'SOCK_\w+', 'sock_type'))
            f.write(define_lines(types, r'SOCK_(CLOEXEC|NONBLOCK)', ()))
            f.write(enum_defines(net, r'SHUT_\w+', 'sock_shutdown_cmd'))
        with open(os.path.join(d, 'socket.h'), 'w') as f:
            f.write(define_lines(sock, r'(AF|PF|MSG|SOL)_\w+|SOMAXCONN', EXCLUDE))
        with open(os.path.join(d, 'personality.h'), 'w') as f:
            f.write(enum_defines(pers, r'\w+'))
        with open(os.path.join(d, 'in.h'), 'w') as f:
            f.write(enum_defines(inh, r'IPPROTO_\w+'))
        for h in {h for h, _ in HAND.values()}:
            with open(os.path.join(d, h), 'w') as f:
                for name, (hh, body) in sorted(HAND.items()):
                    if hh == h:
                        f.write('#undef %s\n#define %s %s\n' % (name, name, body))


def extract_tarball(path, work):
    want = re.compile(r'^[^/]+/(include/uapi/|arch/[^/]+/include/uapi/|Makefile$'
                      r'|include/linux/(net|socket)\.h$|arch/[^/]+/include/asm/socket\.h$)')
    dest = os.path.join(work, 'src')
    with tarfile.open(path) as tf:
        members = [m for m in tf.getmembers() if want.match(m.name)]
        tf.extractall(dest, members=members, filter='data')
    (top,) = os.listdir(dest)
    return os.path.join(dest, top)


def kernel_version(ksrc):
    text = read(ksrc, 'Makefile')
    v = {k: re.search(r'^%s\s*=\s*(\S*)' % k, text, re.M) for k in
         ('VERSION', 'PATCHLEVEL', 'SUBLEVEL')}
    return '.'.join(v[k].group(1) for k in ('VERSION', 'PATCHLEVEL', 'SUBLEVEL'))


def selected(name, org):
    if name in EXCLUDE:
        return False
    if name in HAND:
        return True
    return any(re.fullmatch(fr, org) and re.fullmatch(nr, name) for fr, nr in SELECT)


def fmt(v):
    return str(v) if -4096 < v < 4096 else ('-0x%x' % -v if v < 0 else '0x%x' % v)


def main(argv):
    check = '--check' in argv
    args = [a for a in argv if a != '--check']
    if len(args) != 2:
        sys.exit('usage: gen-constants.py [--check] KSRC-DIR|linux-source.tar.xz OUTPUT')
    work = tempfile.mkdtemp(prefix='gen-constants-')
    try:
        ksrc = args[0]
        if os.path.isfile(ksrc):
            ksrc = extract_tarball(ksrc, work)
        prepare(ksrc, work)
        values = collections.defaultdict(dict)  # name -> {abi token: value}
        failed = collections.defaultdict(list)
        kinds = {}  # errno name -> 'errno', or 'errno-alias' if defined as another name
        for abi in ABIS:
            macros, origin = run_cpp(ksrc, work, abi)
            ev = Evaluator(abi, macros)
            for name, (params, body) in macros.items():
                if params is not None or not selected(name, origin[name]):
                    continue
                if re.fullmatch(SELECT[0][0], origin[name]):
                    alias = re.fullmatch(r'\s*\(?\s*(E[A-Z0-9]+)\s*\)?\s*', body)
                    if alias or kinds.get(name) == 'errno-alias':
                        kinds[name] = 'errno-alias'
                    else:
                        kinds[name] = 'errno'
                try:
                    values[name][abi[0]] = ev.value(name).v
                except EvalError as e:
                    failed[name].append('%s: %s' % (abi[0], e))
        version = kernel_version(ksrc)
    finally:
        shutil.rmtree(work)

    # A name that cannot be evaluated on some ABI that defines it is dropped
    # entirely rather than be reported missing there.
    for name, why in sorted(failed.items()):
        print('gen-constants: skipped %s (%s)' % (name, why[0]), file=sys.stderr)
        values.pop(name, None)

    text = render(version, values, kinds)
    if check:
        return compare(args[1], text)
    with open(args[1], 'w') as f:
        f.write(text)
    return 0


# How many diff lines --check shows before it stops.
DIFF_LINES_MAX = 200


def compare(path, text):
    """0 if the file at path holds text; else 1 and a unified diff on stderr."""
    try:
        with open(path) as f:
            old = f.read()
    except OSError as e:
        print('gen-constants: %s: %s' % (path, e.strerror), file=sys.stderr)
        return 1
    if old == text:
        return 0
    diff = list(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                     path + ' (committed)', path + ' (generated)'))
    sys.stderr.writelines(diff[:DIFF_LINES_MAX])
    if len(diff) > DIFF_LINES_MAX:
        print('... %d more diff lines' % (len(diff) - DIFF_LINES_MAX), file=sys.stderr)
    print('gen-constants: %s is out of date (regenerate it with tools/gen-constants.py)' % path,
          file=sys.stderr)
    return 1




def render(version, values, kinds):
    """The text of data/constants.txt."""
    tokens = [a[0] for a in ABIS]
    families = collections.OrderedDict()
    for a in ABIS:
        families.setdefault(a[1], []).append(a[0])
    lines = []
    n_over = 0
    for name in sorted(values):
        per = values[name]
        # the common value: the one most ABIs have (ties: x86_64's)
        cnt = collections.Counter(per.get(t) for t in tokens)
        best = max(cnt.values())
        common = per.get('x86_64') if cnt[per.get('x86_64')] == best else \
            next(v for v, c in cnt.items() if c == best)
        lines.append('%s %s%s\n' % (name, '-' if common is None else fmt(common),
                                     ' ' + kinds[name] if name in kinds else ''))

        def val(t):
            return per.get(t)  # None: not defined on t
        for fam, members in families.items():
            vs = {val(t) for t in members}
            if len(vs) == 1 and vs != {common} and len(members) > 1:
                v = vs.pop()
                lines.append('@%s %s %s\n' % (fam, name, '-' if v is None else fmt(v)))
                n_over += 1
                continue
            for t in members:
                if val(t) != common:
                    lines.append('@%s %s %s\n' % (t, name, '-' if val(t) is None else fmt(val(t))))
                    n_over += 1
    head = [
        '# Named constants per ABI from the Linux %s headers.\n' % version,
        '# generated by tools/gen-constants.py; do not edit\n',
        '#\n',
        '# NAME VALUE             the value on every ABI not overridden below\n',
        '# @FAMILY_x NAME VALUE   override for every ABI of an enum arch_family\n',
        '# @abi NAME VALUE        override for one ABI (a profile token)\n',
        '# VALUE "-" means the name does not exist on that ABI.\n',
        '# A trailing "errno" marks an error number, "errno-alias" a second\n',
        '# name of one (EWOULDBLOCK); aliases are not used to name numbers.\n',
        '# %d names, %d overrides\n' % (len(values), n_over),
    ]
    return ''.join(head + lines)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
