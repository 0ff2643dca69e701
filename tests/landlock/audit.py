#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The kernel's Landlock audit records of one command, read from the audit
log multicast (NETLINK_AUDIT, group AUDIT_NLGRP_READLOG; CAP_AUDIT_READ),
which printk's rate limit does not thin out.

Usage: audit.py usable            exit 0 when audit is enabled or can be
                                  enabled for a run (root), 1 when not, 2
                                  when that cannot be asked
       audit.py run CMD [ARG...]  run CMD, then print the Landlock records
                                  (types 1423 and 1424) of the domains its
                                  process entered, one a line; audit, if
                                  disabled, is enabled for the run and
                                  disabled again after it
"""

import os
import select
import socket
import struct
import subprocess
import sys
import time

NETLINK_AUDIT = 9
AUDIT_GET, AUDIT_SET = 1000, 1001
AUDIT_STATUS_ENABLED = 1
NLMSG_ERROR, NLM_F_REQUEST, NLM_F_ACK = 2, 1, 4
AUDIT_NLGRP_READLOG = 1
LANDLOCK_ACCESS, LANDLOCK_DOMAIN = 1423, 1424


def status():
    """The kernel's audit 'enabled' value (0 off, 1 on, 2 locked), or None."""
    try:
        s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_AUDIT)
        s.bind((0, 0))
        s.send(struct.pack('IHHII', 16, AUDIT_GET, NLM_F_REQUEST, 1, 0))
        data = s.recv(8192)
    except OSError as e:
        print('audit.py: %s' % e, file=sys.stderr)
        return None
    if struct.unpack_from('H', data, 4)[0] != AUDIT_GET:
        return None
    return struct.unpack_from('I', data, 20)[0]


def set_enabled(on):
    """Switch audit on or off (CAP_AUDIT_CONTROL); True when the kernel took it."""
    try:
        s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_AUDIT)
        s.bind((0, 0))
        s.send(struct.pack('IHHIIII', 24, AUDIT_SET, NLM_F_REQUEST | NLM_F_ACK, 1, 0,
                           AUDIT_STATUS_ENABLED, 1 if on else 0))
        data = s.recv(8192)
    except OSError as e:
        print('audit.py: %s' % e, file=sys.stderr)
        return False
    return (struct.unpack_from('H', data, 4)[0] == NLMSG_ERROR and
            struct.unpack_from('i', data, 16)[0] == 0)


def usable():
    st = status()
    if st is None:
        return 2
    if st:
        return 0
    # off: usable if it can be switched on (and is switched back at once)
    return 0 if set_enabled(True) and set_enabled(False) else 1


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
    was_off = status() == 0
    if was_off and not set_enabled(True):
        print('audit.py: audit is disabled and cannot be enabled', file=sys.stderr)
        return 2
    try:
        return watch(cmd)
    finally:
        if was_off:
            set_enabled(False)


def watch(cmd):
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
    if len(argv) == 2 and argv[1] == 'usable':
        return usable()
    if len(argv) > 2 and argv[1] == 'run':
        return run(argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
