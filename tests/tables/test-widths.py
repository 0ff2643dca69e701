#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# The kernel-width table and the parameter spellings of tools/gen-syscalls.py
# without a kernel tree: the reader of data/kernel-widths.txt, the check of
# its cited lines, how entries narrow arguments, and every error on the way.
# Usage: test-widths.py SRCDIR
import contextlib
import importlib.util
import io
import os
import sys
import tempfile

srcdir = sys.argv[1]
spec = importlib.util.spec_from_file_location(
    'gen_syscalls', os.path.join(srcdir, 'tools', 'gen-syscalls.py'))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from tap import done, ok  # noqa: E402


def dies(fn, want, what):
    """fn() must stop the generator with a message containing want."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            fn()
    except SystemExit:
        ok(want in err.getvalue(), what)
        if want not in err.getvalue():
            print('# got: %s' % err.getvalue().strip())
        return
    ok(False, what + ' (no error)')


def widths_file(text):
    f = tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False)
    f.write(text)
    f.close()
    return f.name


class FakeSource:
    def __init__(self, files):
        self.files = files

    def get(self, rel):
        return self.files[rel]


GOOD = '''# comment
clone flags u32
\tkernel/fork.c:2 .flags = (lower_32_bits(clone_flags) & ~CSIGNAL),
@ppc64 personality personality u32
\tarch/x.c:1 ret = ksys_personality(personality);
'''
SRC = FakeSource({
    'kernel/fork.c': 'x\n\t\t.flags\t\t= (lower_32_bits(clone_flags) & ~CSIGNAL),\n',
    'arch/x.c': 'ret = ksys_personality(personality);\n',
})

# ---- the committed table ----
committed = gen.parse_widths(os.path.join(srcdir, 'data', 'kernel-widths.txt'))
ok(len(committed) >= 10 and all(e['cites'] for e in committed),
   'data/kernel-widths.txt: %d entries, each citing kernel lines' % len(committed))
ok(any(e['name'] == 'clone' and e['param'] == 'flags' and e['cls'] == 'u32' for e in committed),
   'data/kernel-widths.txt narrows clone flags to 32 bits')

# ---- reading ----
entries = gen.parse_widths(widths_file(GOOD))
ok([(e['table'], e['name'], e['param'], e['cls']) for e in entries] ==
   [(None, 'clone', 'flags', 'u32'), ('ppc64', 'personality', 'personality', 'u32')],
   'entries and their tables are read')
ok(entries[0]['cites'][0][:2] == ('kernel/fork.c', 2), 'a citation is FILE:LINE TEXT')
dies(lambda: gen.parse_widths(widths_file('clone flags u32\n')), 'cites no kernel line',
     'an entry without a citation is an error')
dies(lambda: gen.parse_widths(widths_file('clone flags u64\n\tk.c:1 x\n')),
     'CLASS one of', 'a class that is not narrower is an error')
dies(lambda: gen.parse_widths(widths_file('@vax clone flags u32\n\tk.c:1 x\n')),
     'unknown table vax', 'an unknown table is an error')
dies(lambda: gen.parse_widths(widths_file('\tk.c:1 x\n')), 'indented',
     'a citation before any entry is an error')
dies(lambda: gen.parse_widths(widths_file('clone flags u32\n\tno line number\n')), 'indented',
     'a citation without FILE:LINE is an error')

# ---- checking the citations ----
gen.check_widths(SRC, entries, 'w.txt')
ok(True, 'citations that read as quoted pass (blanks normalised)')
moved = FakeSource(dict(SRC.files, **{'kernel/fork.c': '\n\nflags = clone_flags;\n'}))
dies(lambda: gen.check_widths(moved, entries, 'w.txt'), 'review clone flags again',
     'a cited line that changed stops the generator')
short = FakeSource(dict(SRC.files, **{'kernel/fork.c': 'x\n'}))
dies(lambda: gen.check_widths(short, entries, 'w.txt'), 'does not read',
     'a cited line past the end of the file stops the generator')

# ---- applying ----
res = {
    ('x86_64', 'clone'): (('flags|clone_flags', 'ulong'), ('newsp', 'ulong')),
    ('i386', 'clone'): (('flags|clone_flags', 'ulong'), ('newsp', 'ulong')),
    ('ppc64', 'personality'): (('personality', 'ulong'),),
    ('x86_64', 'personality'): (('personality', 'u32'),),
}
gen.apply_widths(res, entries, 'w.txt')
ok(res[('x86_64', 'clone')] == (('flags|clone_flags', 'u32'), ('newsp', 'ulong')),
   'clone flags become u32, newsp stays register-wide')
ok(res[('i386', 'clone')][0][1] == 'u32', 'on every table that has the argument')
ok(res[('ppc64', 'personality')] == (('personality', 'u32'),),
   '@TABLE narrows that table only')
res = {('x86_64', 'clone'): (('clone_flags|flags', 'ulong'),)}
gen.apply_widths(res, entries[:1], 'w.txt')
ok(res[('x86_64', 'clone')][0][1] == 'u32', 'an entry matches any spelling of the parameter')
dies(lambda: gen.apply_widths({('x86_64', 'clone'): (('flags', 'u32'),)}, entries[:1], 'w.txt'),
     'changes nothing', 'an entry that narrows nothing is an error')
dies(lambda: gen.apply_widths({('x86_64', 'clone'): (('flags', 'ptr'),)}, entries[:1], 'w.txt'),
     'not a number the kernel can narrow', 'an entry on a pointer is an error')

# ---- spellings ----
protos = {'recvfrom': (('fd', 's32'), ('ubuf', 'ptr'), ('size', 'ulong'))}
compat = {'recvfrom': (('fd', 's32'), ('buf', 'ptr'), ('len', 'u32'))}
gdefs = {('sys', 'recvfrom'): {(('int', 'fd'), ('void __user *', 'ubuf'),
                                ('size_t', 'size'))},
         ('compat', 'recvfrom'): {(('int', 'fd'), ('void __user *', 'buf'),
                                   ('compat_size_t', 'len'))}}
out = gen.add_spellings({('x32', 'recvfrom'): compat['recvfrom']},
                        {('x32', 'recvfrom'): ('sys', 'recvfrom')}, protos, compat, gdefs, False)
ok(out[('x32', 'recvfrom')] == (('fd', 's32'), ('ubuf|buf', 'ptr'), ('size|len', 'u32')),
   'x32 recvfrom: syscalls.h names first, then the compat ones; the classes stay')
other = {}
other[('sys', 'recvfrom')] = {(('int', 'fd'), ('size_t', 'size'), ('void __user *', 'ubuf'))}
out = gen.add_spellings({('x86_64', 'recvfrom'): protos['recvfrom']},
                        {('x86_64', 'recvfrom'): ('sys', 'recvfrom')}, protos, {}, other, False)
ok(out[('x86_64', 'recvfrom')][1][0] == 'ubuf',
   'a definition with another layout gives no names')
two = {}
two[('sys', 'recvfrom')] = {(('int', 'fd'), ('void __user *', 'p'), ('size_t', 'n')),
                            (('int', 'fd'), ('void __user *', 'q'), ('size_t', 'm'))}
out = gen.add_spellings({('x86_64', 'recvfrom'): protos['recvfrom']},
                        {('x86_64', 'recvfrom'): ('sys', 'recvfrom')}, protos, {}, two, False)
ok(out[('x86_64', 'recvfrom')][1][0] == 'ubuf',
   'a definition written in two ways under #ifdef gives no names')
clash = {('sys', 'recvfrom'): {(('int', 'fd'), ('void __user *', 'size'), ('size_t', 'n'))}}
dies(lambda: gen.add_spellings({('x86_64', 'recvfrom'): protos['recvfrom']},
                               {('x86_64', 'recvfrom'): ('sys', 'recvfrom')}, protos, {}, clash,
                               False),
     'names parameters 1 and 2', 'one name for two parameters is an error')

done()
