# SPDX-License-Identifier: LGPL-2.1-or-later
"""TAP output for the Python tests: ok() per check, done() at the end."""
import sys

_n = 0
_failed = 0


def ok(cond, what):
    """One test line; returns cond."""
    global _n, _failed
    _n += 1
    if not cond:
        _failed += 1
    print('%s %d - %s' % ('ok' if cond else 'not ok', _n, what))
    return cond


def done():
    """The plan line, and the exit status: 1 if any check failed."""
    print('1..%d' % _n)
    sys.exit(1 if _failed else 0)
