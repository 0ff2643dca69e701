#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run a command on a new pseudo-terminal, type ^C once READY exists, and
exit with the command's status (99 if it is still running after 20 s).
Usage: tty-intr.py READY COMMAND [ARG...]"""
import os
import pty
import sys
import time

ready = sys.argv[1]
pid, master = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
end = time.monotonic() + 20
while not os.path.exists(ready) and time.monotonic() < end:
    time.sleep(0.05)
os.write(master, b"\x03")
while time.monotonic() < end:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        sys.exit(os.waitstatus_to_exitcode(status) % 256)
    try:
        os.read(master, 4096)  # keep the terminal drained
    except OSError:
        time.sleep(0.05)
os.kill(pid, 9)
os.waitpid(pid, 0)
sys.exit(99)
