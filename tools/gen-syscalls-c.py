#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Turn data/syscalls.txt and data/syscall-args.txt into syscalls-table.c, the
# static tables behind src/syscalls.c (interface: src/syscalls-table.h).
"""Usage: gen-syscalls-c.py SYSCALLS.TXT SYSCALL-ARGS.TXT OUTPUT.C"""

import re
import sys

# Number added to every table number: the ABI's nr_base in src/arch.c
# (x32: __X32_SYSCALL_BIT; mips: __NR_O32/N64/N32_Linux in
# arch/mips/include/uapi/asm/unistd.h). tests/tables checks they agree.
BASES = {'x32': 0x40000000, 'mips-o32': 4000, 'mips-n64': 5000, 'mips-n32': 6000}

CLASSES = {'u16': 'SCT_U16', 's32': 'SCT_S32', 'u32': 'SCT_U32', 'slong': 'SCT_SLONG', 'ulong': 'SCT_ULONG',
       's64': 'SCT_S64', 'u64': 'SCT_U64', 'ptr': 'SCT_PTR'}
ARGS_MAX = 6
NAME = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')


def fail(path, ln, msg):
    sys.stderr.write('%s:%d: error: %s\n' % (path, ln, msg))
    sys.exit(1)


def data_lines(path):
    for ln, line in enumerate(open(path, encoding='utf-8'), 1):
        line = line.strip()
        if line and not line.startswith('#'):
            yield ln, line


def kernel_version(path):
    for line in open(path, encoding='utf-8'):
        m = re.match(r'^# kernel (\S+)$', line.strip())
        if m:
            return m.group(1)
    fail(path, 1, 'no "# kernel VERSION" line')
    return None


def read_syscalls(path):
    tables = {}
    for ln, line in data_lines(path):
        f = line.split()
        if len(f) != 3 or not f[1].isdigit() or not NAME.match(f[2]):
            fail(path, ln, 'want "TABLE NR NAME"')
        rows = tables.setdefault(f[0], {})
        nr = int(f[1]) + BASES.get(f[0], 0)
        if nr in rows or f[2] in rows.values():
            fail(path, ln, 'duplicate number or name in table %s' % f[0])
        if nr > 0xffffffff:
            fail(path, ln, 'number out of range')
        rows[nr] = f[2]
    return tables


def read_args(path, tables):
    protos = {}
    for ln, line in data_lines(path):
        f = line.split()
        table = None
        if f[0].startswith('@'):
            table = f[0][1:]
            if table not in tables:
                fail(path, ln, 'unknown table %s' % table)
            f = f[1:]
        if not f or not NAME.match(f[0]):
            fail(path, ln, 'want "[@TABLE] NAME PARAM:CLASS..."')
        name, params = f[0], []
        if f[1:] == ['?']:
            params = None
        else:
            for p in f[1:]:
                pn, _, c = p.partition(':')
                spellings = pn.split('|')
                if not all(NAME.match(n) for n in spellings) or c not in CLASSES:
                    fail(path, ln, 'bad parameter %r' % p)
                params.append((spellings, c))
            if len(params) > ARGS_MAX:
                fail(path, ln, 'more than %d parameters' % ARGS_MAX)
        key = (name, table or '')
        if key in protos:
            fail(path, ln, 'duplicate line for %s' % name)
        if table and (name, '') not in protos:
            fail(path, ln, '@%s line before the default line of %s' % (table, name))
        protos[key] = params
    return protos


def name_hash(text):
    """FNV-1a, 32 bits, over the bytes of text: syscalls.c computes the same."""
    h = 2166136261
    for b in text.encode():
        h = ((h ^ b) * 16777619) & 0xffffffff
    return h


def hash_slots(keys):
    """Open addressing with linear probing: a power of two of at least twice
    len(keys) slots, each the index + 1 of its key in keys, 0 empty."""
    size = 1
    while size < 2 * len(keys):
        size *= 2
    slots = [0] * size
    for k, key in enumerate(keys):
        i = name_hash(key) & (size - 1)
        while slots[i]:
            i = (i + 1) & (size - 1)
        slots[i] = k + 1
    return slots


def u16_array(name, values):
    out = ['const uint16_t %s[] = {\n' % name]
    for k in range(0, len(values), 12):
        out.append('\t' + ' '.join('%d,' % v for v in values[k:k + 12]) + '\n')
    out.append('};\n\n')
    return out


def cstr(s):
    return '"%s"' % s


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__ + '\n')
        return 2
    sc_path, args_path, out_path = argv
    version = kernel_version(sc_path)
    tables = read_syscalls(sc_path)
    protos = read_args(args_path, tables)

    # Every string once, in one block: the tables hold offsets into it, so
    # they have no pointers and need no relocation when the program loads.
    strings = {'': 0}
    block = ['']
    end = [1]  # the offset after the last string

    def soff(text):
        if text not in strings:
            strings[text] = end[0]
            end[0] += len(text) + 1
            block.append(text)
        return strings[text]

    body = []
    names = sorted({n for rows in tables.values() for n in rows.values()})
    tnames = sorted(tables)
    first = 0
    heads = []
    body.append('const struct syscall sct_calls[] = {\n')
    name_id = {n: k for k, n in enumerate(names)}
    if len(names) >= 0xffff:
        fail(sc_path, 0, 'too many names')
    name_call = []  # per table, per name: its position in the table, 0xffff: none
    for t in tnames:
        rows = tables[t]
        nrs = sorted(rows)
        if len(nrs) > 0xffff:
            fail(sc_path, 0, 'table %s too large' % t)
        body.append('\t/* %s */\n' % t)
        for nr in nrs:
            body.append('\t{ %d, %du }, /* %s */\n' % (soff(rows[nr]), nr, rows[nr]))
        pos = [0xffff] * len(names)
        for k, nr in enumerate(nrs):
            pos[name_id[rows[nr]]] = k
        name_call += pos
        heads.append((t, first, len(nrs)))
        first += len(nrs)
    body.append('};\n\n')
    body += u16_array('sct_name_call', name_call)
    body.append('const struct sct_table sct_tables[] = {\n')
    for t, fi, n in heads:
        body.append('\t{ %d, %du, %d, %d }, /* %s */\n' % (soff(t), BASES.get(t, 0), fi, n, t))
    body.append('};\n\nconst size_t sct_tables_n = %d;\n\n' % len(tnames))

    if len(tnames) >= 0xff:  # sct_table_slots holds index + 1 in a uint8_t
        fail(sc_path, 0, 'too many tables')
    tslots = hash_slots(tnames)
    body.append('const uint8_t sct_table_slots[] = {\n\t%s\n};\n\n' %
                ' '.join('%d,' % v for v in tslots))
    body.append('const size_t sct_table_slots_n = %d;\n\n' % len(tslots))

    if len(protos) >= 0xffff:  # sct_name_proto holds the line in 16 bits, 0xffff: none
        fail(args_path, 0, 'too many prototypes')
    name_proto = [0xffff] * len(names)  # per name: its first line in sct_protos
    body.append('const struct sct_proto sct_protos[] = {\n')
    for k, (name, table) in enumerate(sorted(protos, key=lambda k: (k[0].encode(),
                                                                    k[1].encode()))):
        if name in name_id and name_proto[name_id[name]] == 0xffff:
            name_proto[name_id[name]] = k
        params = protos[(name, table)]
        if params is None:
            body.append('\t{ %d, %d, -1, { { 0, 0, SCT_S32 } } }, /* %s */\n' %
                        (soff(name), soff(table), name))
            continue
        # the first spelling, then the others '|'-separated (0: none)
        ps = ', '.join('{ %d, %d, %s }' % (soff(pn[0]), soff('|'.join(pn[1:])), CLASSES[c])
                       for pn, c in params)
        body.append('\t{ %d, %d, %d, { %s } }, /* %s */\n' %
                    (soff(name), soff(table), len(params), ps or '{ 0, 0, SCT_S32 }', name))
    body.append('};\n\nconst size_t sct_protos_n = %d;\n\n' % len(protos))

    body.append('const uint32_t sct_names[] = {\n')
    for n in names:
        body.append('\t%d, /* %s */\n' % (soff(n), n))
    body.append('};\n\nconst size_t sct_names_n = %d;\n\n' % len(names))
    body += u16_array('sct_name_proto', name_proto)
    nslots = hash_slots(names)
    body += u16_array('sct_name_slots', nslots)
    body.append('const size_t sct_name_slots_n = %d;\n' % len(nslots))

    out = ['/* SPDX-License-Identifier: LGPL-2.1-or-later */\n',
           '/* Generated by tools/gen-syscalls-c.py from data/syscalls.txt and\n',
           ' * data/syscall-args.txt; do not edit. */\n',
           '#include "syscalls-table.h"\n\n',
           'const char sct_kernel_version[] = %s;\n\n' % cstr(version),
           '/* one block, longer than the 4095 bytes ISO C promises for a literal */\n',
           '#pragma GCC diagnostic ignored "-Woverlength-strings"\n',
           'const char sct_strings[] =\n']
    for k in range(0, len(block), 8):
        out.append('\t"' + ''.join(x + '\\0' for x in block[k:k + 8]) + '"\n')
    out.append('\t;\n\n')
    out += body
    with open(out_path, 'w', encoding='utf-8') as f:
        f.write(''.join(out))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
