#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# Join a new session keyring, as a login does (pam_keyinit), put a user key
# "scmp-run-test" with the value "planted" in it, then exec the arguments
# (the session keyring survives execve and a user switch). Test helper of
# live-caller.sh.
import ctypes
import os
import sys

KEYCTL_JOIN_SESSION_KEYRING = 1
KEY_SPEC_SESSION_KEYRING = -3
NR_ADD_KEY, NR_KEYCTL = 248, 250  # x86_64 (arch/x86/entry/syscalls/syscall_64.tbl)

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
if libc.syscall(ctypes.c_long(NR_KEYCTL), ctypes.c_long(KEYCTL_JOIN_SESSION_KEYRING),
                None) < 0:
    sys.exit("keyplant: joining a session keyring: " + os.strerror(ctypes.get_errno()))
if libc.syscall(ctypes.c_long(NR_ADD_KEY), b"user", b"scmp-run-test", b"planted",
                ctypes.c_size_t(7), ctypes.c_long(KEY_SPEC_SESSION_KEYRING)) < 0:
    sys.exit("keyplant: add_key: " + os.strerror(ctypes.get_errno()))
os.execv(sys.argv[1], sys.argv[1:])
