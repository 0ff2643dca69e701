#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Decide calls by reading a --export-pfc listing as its header says: the
first matching line decides. Usage: pfc-eval.py FILE ARCH NR..., with ARCH
and each NR numbers (AUDIT_ARCH_* value, syscall number as the kernel's
u32). Prints one line per NR: the action, or 'args' when a line that tests
an argument is reached (the call then depends on its arguments: not decided
here). Exit status 2
for a line this reader does not know, so a listing it cannot follow fails."""
import re
import sys

RANGE = re.compile(r'\$syscall in \[(\d+), (\d+)\]')


def truth(cond, arch, nr):
    """The value of a condition over $arch and $syscall; None if it reads
    an argument."""
    if '$arg' in cond:
        return None
    expr = RANGE.sub(r'(\1 <= N <= \2)', cond)
    expr = expr.replace('$arch', 'A').replace('$syscall', 'N')
    expr = expr.replace('&&', ' and ').replace('||', ' or ')
    if not re.fullmatch(r'[\sAN0-9a-fx()<=!&and or]*', expr):
        sys.exit('pfc-eval: cannot read condition: ' + cond)
    return bool(eval(expr, {}, {'A': arch, 'N': nr}))  # pylint: disable=eval-used


def decide(lines, arch, nr):
    """Walk the listing; the stack holds (indent, true) of open if-blocks."""
    stack = []
    for line in lines:
        body = line.lstrip(' ')
        indent = len(line) - len(body)
        if not body or body.startswith('#'):
            continue
        while stack and stack[-1][0] >= indent:
            stack.pop()
        active = all(t for _, t in stack)
        m = re.fullmatch(r'(?:if \((.*)\) )?action ([^;]+);(?: #.*)?', body)
        if m:
            if not active:
                continue
            t = True if m.group(1) is None else truth(m.group(1), arch, nr)
            if t is None:
                return 'args'
            if t:
                return m.group(2)
            continue
        m = re.fullmatch(r'if \((.*)\)(?: #.*)?', body)
        if not m:
            sys.exit(2)
        t = truth(m.group(1), arch, nr) if active else False
        if t is None:
            return 'args'
        stack.append((indent, t))
    return 'none'


def main():
    """pfc-eval.py FILE ARCH NR..."""
    with open(sys.argv[1], encoding='utf-8') as f:
        lines = f.read().splitlines()
    for nr in sys.argv[3:]:
        print(decide(lines, int(sys.argv[2], 0), int(nr, 0)))


main()
