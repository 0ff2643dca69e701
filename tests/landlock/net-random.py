# SPDX-License-Identifier: LGPL-2.1-or-later
"""[landlock] bind-tcp and connect-tcp at random, live (scmp-run.ini(5)
LANDLOCK, Network): random lists of ports and ranges (overlapping,
adjacent, port 0, 65535, one key or both) and random TCP binds and
connects on IPv4 and IPv6 to ports in, beside and outside them (to ports
this test listens on, and to closed ones), UDP binds, and MPTCP and SMC
sockets. Each probe runs under an allow-all profile and under the same
profile with the keys; what it must return is worked out here from the
manual: EACCES for a TCP bind (connect) to a port bind-tcp (connect-tcp)
does not list, EPROTONOSUPPORT for an MPTCP socket and EAFNOSUPPORT for
an AF_SMC one once either key is written, else exactly what it returned
without the keys.

Usage: net-random.py SCMP-RUN [CASES [FIRST-SEED]]   (as root; TAP output)
"""
import ctypes
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402

S = os.path.abspath(sys.argv[1])
CASES = int(sys.argv[2]) if len(sys.argv) > 2 else 40
FIRST = int(sys.argv[3]) if len(sys.argv) > 3 else 1

# The sandboxed side: each probe in order, one line each ("ok" or the
# errno name); sockets closed before the next.
PROBE = r"""
import errno, socket, sys
def one(p):
    kind, port = p.split(":")
    port = int(port)
    fam = socket.AF_INET6 if kind.endswith("6") else socket.AF_INET
    host = "::1" if fam == socket.AF_INET6 else "127.0.0.1"
    if kind == "mptcp":
        socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262).close()
    elif kind == "smc":
        socket.socket(43, socket.SOCK_STREAM, 0).close()
    elif kind.startswith("udp"):
        with socket.socket(fam, socket.SOCK_DGRAM) as s:
            s.bind((host, port))
    elif kind.startswith("bind"):
        with socket.socket(fam, socket.SOCK_STREAM) as s:
            s.bind((host, port))
    else:
        with socket.socket(fam, socket.SOCK_STREAM) as s:
            s.settimeout(5)
            s.connect((host, port))
    return "ok"
for p in sys.argv[1:]:
    try:
        print(one(p))
    except OSError as e:
        print(errno.errorcode.get(e.errno, str(e.errno)))
"""


def landlock_abi():
    """The kernel's Landlock ABI (landlock_create_ruleset(NULL, 0,
    LANDLOCK_CREATE_RULESET_VERSION)), 0 without Landlock."""
    libc = ctypes.CDLL(None, use_errno=True)
    r = libc.syscall(444, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    return r if r > 0 else 0


def port_set(rng, base):
    """(text of a key's value, the set of ports it allows)."""
    items, allowed = [], set()
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        if r < 0.1:
            lo = hi = rng.choice([0, 65535])
        elif r < 0.55:
            lo = hi = base + rng.randint(0, 40)
        else:
            lo = base + rng.randint(0, 40)
            hi = min(65535, lo + rng.randint(1, 12))
        items.append(str(lo) if lo == hi else "%d-%d" % (lo, hi))
        allowed.update(range(lo, hi + 1))
    return " ".join(items), allowed


def probes(rng, base, sets, listening):
    """Probe texts: ports on the edges of the sets, beside them, and random."""
    near = set()
    for s in sets:
        for p in s:
            near.update((p - 1, p, p + 1))
    near = sorted(p for p in near if 0 <= p <= 65535)
    out = []
    for _ in range(rng.randint(10, 20)):
        r = rng.random()
        port = (rng.choice(near) if near and r < 0.6 else
                rng.choice(listening) if r < 0.8 else base + rng.randint(0, 45))
        kind = rng.choice(["bind4", "bind6", "connect4", "connect6", "connect4", "udp4"])
        out.append("%s:%d" % (kind, port))
    if rng.random() < 0.5:
        out.append("mptcp:0")
    if rng.random() < 0.5:
        out.append("smc:0")
    rng.shuffle(out)
    return out


def expected(probe, keys, plain):
    kind, port = probe.split(":")
    port = int(port)
    bind, connect = keys
    if kind == "mptcp" and (bind is not None or connect is not None):
        return "EPROTONOSUPPORT"
    if kind == "smc" and (bind is not None or connect is not None):
        return "EAFNOSUPPORT"
    if kind.startswith("bind") and bind is not None and port not in bind:
        return "EACCES"
    if kind.startswith("connect") and connect is not None and port not in connect:
        return "EACCES"
    return plain


def run(profile, args):
    r = subprocess.run([S, "-p", profile, sys.executable, "-c", PROBE] + args,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    return r.returncode, r.stdout.splitlines(), r.stderr


def listen_on(rng, base):
    """Listening sockets (IPv4 and IPv6) on a few ports of the range."""
    socks, ports = [], []
    for port in rng.sample(range(base, base + 46), 6):
        try:
            a = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            a.bind(("127.0.0.1", port))
            a.listen(64)
            b = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
            b.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            b.bind(("::1", port))
            b.listen(64)
        except OSError:
            continue
        socks += [a, b]
        ports.append(port)
    return socks, ports


def main():
    if os.getuid() != 0:
        print("1..0 # SKIP needs root (ports below 1024 with CAP_NET_BIND_SERVICE)")
        return
    if landlock_abi() < 4:
        print("1..0 # SKIP the kernel's Landlock has no TCP rights (ABI 4)")
        return
    tmp = tempfile.mkdtemp(prefix="scmp-run-landlock-net.")
    head = ("[credentials]\nuser = root\n[capabilities]\nkeep = CAP_NET_BIND_SERVICE\n"
            "[filter]\ndefault-action = allow\n")
    plain_p = os.path.join(tmp, "plain.ini")
    with open(plain_p, "w") as fh:
        fh.write(head)
    bad = 0
    for seed in range(FIRST, FIRST + CASES):
        rng = random.Random(seed)
        base = rng.choice([rng.randint(20000, 60000), 60, 1000, 65490])
        socks, listening = listen_on(rng, base)
        r = rng.random()
        bind = port_set(rng, base) if r < 0.7 else None
        connect = port_set(rng, base) if r > 0.4 or bind is None else None
        prof = os.path.join(tmp, "p%d.ini" % seed)
        with open(prof, "w") as fh:
            fh.write(head + "[landlock]\n")
            if bind:
                fh.write("bind-tcp = %s\n" % bind[0])
            if connect:
                fh.write("connect-tcp = %s\n" % connect[0])
        keys = (bind[1] if bind else None, connect[1] if connect else None)
        ps = probes(rng, base, [k for k in keys if k is not None], listening or [base])
        rc_p, plain, err_p = run(plain_p, ps)
        rc, got, err = run(prof, ps)
        for s in socks:
            s.close()
        what = "seed %d: %s%s" % (seed, "bind-tcp = %s " % bind[0] if bind else "",
                                  "connect-tcp = %s" % connect[0] if connect else "")
        if rc_p != 0 or rc != 0 or len(plain) != len(ps) or len(got) != len(ps):
            tap.ok(False, "%s: runs (status %d, %d): %s %s" % (what, rc_p, rc, err_p, err))
            bad += 1
            continue
        diffs = []
        for p, pl, g in zip(ps, plain, got):
            want = expected(p, keys, pl)
            # a port another process took between the two runs: only a
            # denial must still show
            if want != "EACCES" and "EADDRINUSE" in (pl, g):
                continue
            if g != want:
                diffs.append("%s: %s, want %s (plain: %s)" % (p, g, want, pl))
        if not tap.ok(not diffs, "%s: %d probes as the manual says" % (what, len(ps))):
            bad += 1
            for d in diffs:
                print("#   " + d)
    if bad == 0:
        shutil.rmtree(tmp)
    else:
        print("# profiles kept in " + tmp)
    tap.done()


main()
