# SPDX-License-Identifier: LGPL-2.1-or-later
# The same-user escapes out of a sandbox, tried from inside: the parent holds
# a buffer and runs the sandboxed command as its child; the command writes
# into the buffer through /proc/PPID/mem, attaches to the parent with ptrace,
# or signals it. Prints what happened; the shell test decides. Two more
# reach the parent past the domain (scmp-run.ini(5) SECURITY MODEL): a
# System V shared memory segment the parent attached, and its scheduling.
#
#   escape.py parent WHAT SCMP-RUN ARG... : run "SCMP-RUN ARG... python3 escape.py
#       child WHAT ADDR"; print the child's status and the buffer afterwards
#       (for shm the parent's segment, ADDR its id; for sched the parent's
#       scheduling policy afterwards)
#   escape.py child mem|ptrace|signal|shm|sched ADDR : the attempt: "ok" or the
#       errno name
#   escape.py bind|connect PORT            : TCP on 127.0.0.1: "ok" or the errno name
#   escape.py mptcp-bind|mptcp-connect PORT : the same through an MPTCP socket, which
#       speaks TCP to a TCP peer but is not a TCP socket to Landlock
#   escape.py listen                       : listen(2) on a TCP socket never bound:
#       "ok" when it listens on a port (the kernel picked one), or the errno name
import ctypes
import errno
import os
import signal
import socket
import sys

CLEAN = b"clean-buffer"
DIRTY = b"HACKED-buffr"


def shm_segment():
    """A private System V segment of 0600, attached: (id, address)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
    shmid = libc.shmget(0, 4096, 0o1000 | 0o600)  # IPC_PRIVATE, IPC_CREAT
    if shmid < 0:
        raise OSError(ctypes.get_errno(), "shmget")
    at = libc.shmat(shmid, None, 0)
    libc.shmctl(shmid, 0, None)  # IPC_RMID: gone when both detach
    if at is None or at == ctypes.c_void_p(-1).value:
        raise OSError(ctypes.get_errno(), "shmat")
    ctypes.memmove(at, CLEAN + b"\0", len(CLEAN) + 1)
    return shmid, at


def parent(what, cmd):
    buf = ctypes.create_string_buffer(CLEAN, 32)
    addr = ctypes.addressof(buf)
    if what == "shm":
        addr, at = shm_segment()
        buf = ctypes.cast(at, ctypes.c_char_p)
    pid = os.fork()
    if pid == 0:
        try:
            os.execv(cmd[0], cmd + [sys.executable, os.path.abspath(__file__), "child",
                                    what, str(addr)])
        finally:
            os._exit(99)
    # A signal from the child must not end the parent: count it instead.
    got = []
    signal.signal(signal.SIGUSR1, lambda *_: got.append(1))
    _, status = os.waitpid(pid, 0)
    print("status", os.waitstatus_to_exitcode(status))
    print("buffer", buf.value.decode())
    print("signalled", "yes" if got else "no")
    print("policy", "idle" if os.sched_getscheduler(0) == os.SCHED_IDLE else "other")
    return 0


def child(what, addr):
    ppid = os.getppid()
    try:
        if what == "mem":
            with open("/proc/%d/mem" % ppid, "r+b", buffering=0) as f:
                f.seek(addr)
                f.write(DIRTY)
        elif what == "ptrace":
            libc = ctypes.CDLL(None, use_errno=True)
            libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p,
                                    ctypes.c_void_p]
            # PTRACE_SEIZE: attach without stopping the parent; the
            # attachment ends when this process exits.
            if libc.ptrace(0x4206, ppid, None, None) != 0:
                raise OSError(ctypes.get_errno(), "ptrace")
        elif what == "signal":
            os.kill(ppid, signal.SIGUSR1)
        elif what == "shm":
            # the parent's segment, by the id anyone may list
            # (/proc/sysvipc/shm); its mode lets the same user in
            libc = ctypes.CDLL(None, use_errno=True)
            libc.shmat.restype = ctypes.c_void_p
            libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
            at = libc.shmat(addr, None, 0)
            if at is None or at == ctypes.c_void_p(-1).value:
                raise OSError(ctypes.get_errno(), "shmat")
            ctypes.memmove(at, DIRTY, len(DIRTY))
        elif what == "sched":
            os.sched_setscheduler(ppid, os.SCHED_IDLE, os.sched_param(0))
        else:
            return 2
    except OSError as e:
        print(errno.errorcode.get(e.errno, str(e.errno)))
        return 0
    print("ok")
    return 0


def tcp(what, port):
    try:
        if what.startswith("mptcp-"):
            what = what[len("mptcp-"):]
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262)  # IPPROTO_MPTCP
        else:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    except OSError as e:
        print(errno.errorcode.get(e.errno, str(e.errno)))
        return 0
    s.settimeout(5)
    try:
        if what == "bind":
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", port))
        else:
            s.connect(("127.0.0.1", port))
    except OSError as e:
        print(errno.errorcode.get(e.errno, str(e.errno)))
        return 0
    finally:
        s.close()
    print("ok")
    return 0


def listen():
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.listen(1)
    except OSError as e:
        print(errno.errorcode.get(e.errno, str(e.errno)))
        return 0
    finally:
        port = s.getsockname()[1]
        s.close()
    print("ok" if port else "port 0")
    return 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "parent":
        return parent(argv[2], argv[3:])
    if len(argv) == 4 and argv[1] == "child":
        return child(argv[2], int(argv[3]))
    if len(argv) == 3 and argv[1] in ("bind", "connect", "mptcp-bind",
                                            "mptcp-connect"):
        return tcp(argv[1], int(argv[2]))
    if len(argv) == 2 and argv[1] == "listen":
        return listen()
    print("usage: escape.py parent|child|bind|connect ...", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
