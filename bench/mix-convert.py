#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Turn raw strace logs (-f -e raw=all -X raw) into the benchmark's syscall mix:
# one line per distinct call, "COUNT NAME ARG..." with arguments in hex.
import collections
import os
import platform
import re
import sys

CALL = re.compile(r'^(?:\d+\s+)?([a-z_0-9]+)\((.*?)(?:\)\s+=.*| <unfinished \.\.\.>)$')


def main():
    calls = collections.Counter()
    per_file = []
    for path in sys.argv[1:]:
        n = 0
        with open(path) as f:
            for line in f:
                m = CALL.match(line.rstrip('\n'))
                if not m:
                    continue
                args = m.group(2)
                vals = tuple('%x' % (int(a, 0) & (2**64 - 1))
                             for a in (args.split(', ') if args else []))
                calls[(m.group(1), vals)] += 1
                n += 1
        per_file.append('%s %d' % (os.path.basename(path).rsplit('.', 1)[0], n))
    print('# Syscall mix for bench/bench: COUNT NAME ARG0..ARGn (hex), one line per')
    print('# distinct call. Recorded with bench/record-mix.sh (strace -f -X raw) on')
    print('# %s %s: %s.' % (platform.system(), platform.machine(), ', '.join(per_file)))
    print('# %d calls, %d distinct.' % (sum(calls.values()), len(calls)))
    for (name, vals), count in sorted(calls.items(), key=lambda kv: (-kv[1], kv[0])):
        print(count, name, *vals)


if __name__ == '__main__':
    main()
