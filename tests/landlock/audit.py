#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The kernel's Landlock audit records of one command, read from the audit
log multicast (NETLINK_AUDIT, group AUDIT_NLGRP_READLOG; CAP_AUDIT_READ),
which printk's rate limit does not thin out.

Usage: audit.py enabled           exit 0 when audit is enabled, 1 when not,
                                  2 when that cannot be asked
       audit.py run CMD [ARG...]  run CMD, then print the Landlock records
                                  (types 1423 and 1424) of the domains its
                                  process entered, one a line
"""

import os
import select
import socket
import struct
import subprocess
import sys
import time

NETLINK_AUDIT = 9
AUDIT_GET = 1000
AUDIT_NLGRP_READLOG = 1
LANDLOCK_ACCESS, LANDLOCK_DOMAIN = 1423, 1424


def enabled():
    try:
        s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_AUDIT)
        s.bind((0, 0))
        s.send(struct.pack('IHHII', 16, AUDIT_GET, 1, 1, 0))
        data = s.recv(8192)
    except OSError as e:
        print('audit.py: %s' % e, file=sys.stderr)
        return 2
    if struct.unpack_from('H', data, 4)[0] != AUDIT_GET:
        return 2
    return 0 if struct.unpack_from('I', data, 20)[0] else 1


def records(s):
    """(type, text) of each message in one read of s."""
    data, out = s.recv(65536), []
    while len(data) >= 16:
        length, kind = struct.unpack_from('IH', data)
        out.append((kind, data[16:length].rstrip(b'\0').decode(errors='replace')))
        data = data[(length + 3) & ~3:]
    return out


def field(text, name):
    for word in text.split():
        if word.startswith(name + '='):
            return word[len(name) + 1:]
    return None


def run(cmd):
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_AUDIT)
    s.bind((0, 1 << (AUDIT_NLGRP_READLOG - 1)))
    child = subprocess.Popen(cmd)
    seen, domains, freed = [], set(), set()
    end = None
    while True:
        if end is None and child.poll() is not None:
            end = time.monotonic() + 2  # a domain is freed after its last process
        if end is not None and (time.monotonic() > end or (domains and domains <= freed)):
            break
        if select.select([s], [], [], 0.1)[0]:
            for kind, text in records(s):
                if kind not in (LANDLOCK_ACCESS, LANDLOCK_DOMAIN):
                    continue
                seen.append((kind, text))
                if kind == LANDLOCK_DOMAIN and field(text, 'pid') == str(child.pid):
                    domains.add(field(text, 'domain'))
                if kind == LANDLOCK_DOMAIN and field(text, 'status') == 'deallocated':
                    freed.add(field(text, 'domain'))
    for kind, text in seen:
        if field(text, 'domain') in domains:
            print('type=%d %s' % (kind, text))
    return child.returncode


def main(argv):
    if len(argv) == 2 and argv[1] == 'enabled':
        return enabled()
    if len(argv) > 2 and argv[1] == 'run':
        return run(argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
