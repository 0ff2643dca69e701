#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# The limits of tools/gen-syscalls-c.py: the generated tables keep table
# slots in 8 bits and prototype lines in 16, so data past either limit is
# refused with a located error instead of being written truncated.
# Usage: test-gen-limits.py PYTHON SRCDIR
import os
import subprocess
import sys
import tempfile

python, srcdir = sys.argv[1], sys.argv[2]
gen = os.path.join(srcdir, 'tools', 'gen-syscalls-c.py')
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from tap import done, ok  # noqa: E402


def generate(tmp, n_tables, n_protos):
    """Run the generator on n_tables tables of one syscall each and
    n_protos prototypes; its exit status and standard error."""
    sc = os.path.join(tmp, 'syscalls.txt')
    args = os.path.join(tmp, 'args.txt')
    with open(sc, 'w', encoding='utf-8') as f:
        f.write('# kernel 6.12\n')
        for t in range(n_tables):
            f.write('t%d 0 call%d\n' % (t, t))
    with open(args, 'w', encoding='utf-8') as f:
        for k in range(n_protos):
            f.write('p%d fd:s32\n' % k)
    p = subprocess.run([python, gen, sc, args, os.path.join(tmp, 'out.c')],
                       capture_output=True, text=True, check=False)
    return p.returncode, p.stderr


with tempfile.TemporaryDirectory() as tmp:
    rc, err = generate(tmp, 254, 10)
    ok(rc == 0, '254 tables fit the 8-bit table slots (%d: %s)' % (rc, err.strip()))
    rc, err = generate(tmp, 255, 10)
    ok(rc == 1 and 'syscalls.txt:0: error: too many tables' in err,
       '255 tables are refused (%d: %s)' % (rc, err.strip()))
    rc, err = generate(tmp, 2, 0xfffe)
    ok(rc == 0, '65534 prototypes fit the 16-bit lines (%d: %s)' % (rc, err.strip()))
    rc, err = generate(tmp, 2, 0xffff)
    ok(rc == 1 and 'args.txt:0: error: too many prototypes' in err,
       '65535 prototypes are refused (%d: %s)' % (rc, err.strip()))

done()
