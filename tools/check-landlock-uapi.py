#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Check src/landlock-uapi.h against the Landlock uapi header (and the file
# rights of security/landlock/fs.c) of a Linux source tree.
"""
Usage: tools/check-landlock-uapi.py [KERNEL-SOURCE] [HEADER]

KERNEL-SOURCE is a linux-source tarball (read with tarfile, nothing is
extracted) or an extracted tree; default /usr/src/linux-source-6.12.tar.xz.
HEADER defaults to src/landlock-uapi.h. Compared: the value of every
LANDLOCK_* macro and enum constant, the members (type and name, in order)
of every struct, and the members of ACCESS_FILE. Exit status 0 when they
agree; every difference is printed.
"""

import os
import re
import sys
import tarfile

DEFAULT_SOURCE = '/usr/src/linux-source-6.12.tar.xz'
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_HEADER = os.path.join(os.path.dirname(HERE), 'src', 'landlock-uapi.h')
UAPI = 'include/uapi/linux/landlock.h'
FS_C = 'security/landlock/fs.c'
# Macros src/landlock-uapi.h has from a kernel newer than the source it
# transcribes: compared only with a source that has them.
NEWER = ('LANDLOCK_RESTRICT_SELF_LOG_',)


def read_sources(source, rels):
    """The text of each file in rels; a tarball is read once, up to the last one."""
    if os.path.isdir(source):
        out = {}
        for rel in rels:
            with open(os.path.join(source, rel), encoding='utf-8') as f:
                out[rel] = f.read()
        return out
    out = {}
    with tarfile.open(source, 'r|*') as tar:
        for member in tar:
            rel = member.name.split('/', 1)[-1]
            if rel in rels:
                out[rel] = tar.extractfile(member).read().decode('utf-8')
                if len(out) == len(rels):
                    break
    missing = [rel for rel in rels if rel not in out]
    if missing:
        sys.exit('%s: not found in %s' % (', '.join(missing), source))
    return out


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    return text.replace('\\\n', ' ')


def macros(text):
    """LANDLOCK_* object-like macros -> integer value."""
    out = {}
    for m in re.finditer(r'^#define\s+(LANDLOCK_\w+)\s+(.+)$', strip_comments(text), re.M):
        expr = re.sub(r'(\d+)U?L*L*\b', r'\1', m.group(2)).strip()
        if not re.fullmatch(r'[\d\s()<|]+', expr):
            continue
        out[m.group(1)] = eval(expr)  # digits, shifts, parentheses and | only
    return out


def enums(text):
    out = {}
    for body in re.findall(r'enum\s+\w+\s*\{(.*?)\}', strip_comments(text), re.S):
        value = -1
        for item in body.split(','):
            item = item.strip()
            if not item:
                continue
            name, _, expr = item.partition('=')
            value = int(expr, 0) if expr.strip() else value + 1
            out[name.strip()] = value
    return out


def structs(text):
    out = {}
    for name, body, tail in re.findall(r'struct\s+(\w+)\s*\{(.*?)\}([^;]*);', strip_comments(text),
                                       re.S):
        members = [' '.join(m.split()) for m in body.split(';') if m.strip()]
        out[name] = (members, ' '.join(tail.split()))
    return out


def access_file(text):
    m = re.search(r'#define\s+ACCESS_FILE\s*\((.*?)\)\s*\n', strip_comments(text), re.S)
    return sorted(x.strip() for x in m.group(1).split('|')) if m else None


def compare(what, want, got, problems):
    for k in sorted(set(want) | set(got)):
        if want.get(k) != got.get(k):
            problems.append('%s %s: kernel %r, header %r' % (what, k, want.get(k), got.get(k)))


def main(argv):
    source = argv[1] if len(argv) > 1 else DEFAULT_SOURCE
    header = argv[2] if len(argv) > 2 else DEFAULT_HEADER
    texts = read_sources(source, [UAPI, FS_C])
    uapi = texts[UAPI]
    with open(header, encoding='utf-8') as f:
        ours = f.read()
    problems = []
    want_macros = macros(uapi)
    got_macros = {k: v for k, v in macros(ours).items() if k != 'LANDLOCK_ACCESS_FS_FILE'
                  and (k in want_macros or not k.startswith(NEWER))}
    compare('macro', want_macros, got_macros, problems)
    compare('enum constant', enums(uapi), enums(ours), problems)
    compare('struct', structs(uapi), structs(ours), problems)
    want_file = access_file(texts[FS_C])
    m = re.search(r'#define\s+LANDLOCK_ACCESS_FS_FILE\s*\((.*?)\)\s*\n', strip_comments(ours), re.S)
    got_file = sorted(x.strip() for x in m.group(1).split('|')) if m else None
    if want_file is None or want_file != got_file:
        problems.append('file rights: kernel ACCESS_FILE %r, header LANDLOCK_ACCESS_FS_FILE %r'
                        % (want_file, got_file))
    for p in problems:
        print(p)
    if not want_macros:
        print('no LANDLOCK_* macro found in %s' % UAPI)
        return 1
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
