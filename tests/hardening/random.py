# SPDX-License-Identifier: LGPL-2.1-or-later
"""The [hardening] presets that rules make, at random, live in the kernel:
random restrict-namespaces and restrict-address-families lists (allowed, or
~ and denied, names and aliases), restrict-suid-sgid, restrict-realtime and
lock-personality on or off (the launcher's personality 0 or, under
setarch -R, ADDR_NO_RANDOMIZE), and random calls they decide: socket,
socketpair, unshare, clone, setns, the calls that give a file a mode,
sched_setscheduler, sched_setattr and personality (high halves, unknown
bits, flags together), on x86_64 and, in some cases, as i386 calls too
(int $0x80, and socket and socketpair through socketcall(2)), run under an
allow-all profile and under the same profile with the presets. Each call
returns what scmp-run.ini(5)
HARDENING says: EPERM, EAFNOSUPPORT or ENOSYS where a preset denies, else
exactly what it returned without the presets. The oracle is this file's
reading of the manual, with the address families of glibc's
<bits/socket.h> and the other values written here from the C headers, not
scmp-run's constant table.
memory-deny-write-execute is PR_SET_MDWE on this kernel (tests/hardening/
live.sh); its rules, which the manual gives for a kernel without it, are
tested here through the seam binary (SCMP_RUN_TEST_NO_MDWE), on x86_64
only (the rules refuse i386, whose mmap passes its protection in memory):
mmap, mprotect, pkey_mprotect, shmat and personality.

Usage: random.py SCMP-RUN SCMP-RUN-SEAM HELPER [CASES [FIRST-SEED]]   (as root; TAP)
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402

S, SEAM, HELPER = (os.path.abspath(a) for a in sys.argv[1:4])
CASES = int(sys.argv[4]) if len(sys.argv) > 4 else 40
FIRST = int(sys.argv[5]) if len(sys.argv) > 5 else 1

# The namespace types of the manual and their CLONE_NEW* flags (sched.h).
NS = {"cgroup": 0x02000000, "ipc": 0x08000000, "net": 0x40000000, "mnt": 0x00020000,
      "pid": 0x20000000, "user": 0x10000000, "uts": 0x04000000, "time": 0x00000080}
SOCK_PACKET = 10
O_CREAT, O_TMPFILE = 0o100, 0o20200000
SCHED_RESET_ON_FORK = 0x40000000
ADDR_NO_RANDOMIZE = 0x0040000
READ_IMPLIES_EXEC = 0x0400000
PROT_WRITE, PROT_EXEC, SHM_EXEC, SHM_RDONLY = 2, 4, 0o100000, 0o10000


def glibc_families():
    """AF_ name -> value, from glibc's header (PF_x numbers, AF_x = PF_x)."""
    pf, af = {}, {}
    for path in ("/usr/include/x86_64-linux-gnu/bits/socket.h", "/usr/include/bits/socket.h"):
        if os.path.exists(path):
            with open(path) as fh:
                text = fh.read()
            break
    else:
        return None
    for m in re.finditer(r"^#define\s+PF_(\w+)\s+(\d+)", text, re.M):
        pf[m.group(1)] = int(m.group(2))
    for m in re.finditer(r"^#define\s+AF_(\w+)\s+PF_(\w+)", text, re.M):
        if m.group(2) in pf and m.group(1) != "MAX":
            af["AF_" + m.group(1)] = pf[m.group(2)]
    return af


def names_of(families, rng, values):
    """One name for each value (an alias now and then: AF_LOCAL, AF_ROUTE)."""
    out = []
    for v in values:
        names = sorted(n for n, x in families.items() if x == v)
        out.append(rng.choice(names))
    return out


def af_preset(rng, families):
    """(key line or None, (deny-listed?, the family values listed))."""
    if rng.random() < 0.15:
        return None, None
    values = sorted(set(families.values()))
    listed = rng.sample(values, rng.randint(1, 6))
    if rng.random() < 0.3 and 2 not in listed:
        listed.append(2)  # AF_INET, whose SOCK_PACKET depends on AF_PACKET
    if rng.random() < 0.3 and 17 not in listed:
        listed.append(17)
    deny = rng.random() < 0.4
    line = "restrict-address-families = %s%s" % (
        "~" if deny else "", " ".join(names_of(families, rng, listed)))
    return line, (deny, frozenset(listed))


def af_denied(af, family):
    """Whether the preset af denies family (the kernel's 32-bit int)."""
    deny, listed = af
    return ((family & 0xffffffff) in listed) == deny


def ns_preset(rng):
    """(key line or None, mask of denied CLONE_NEW* flags)."""
    r = rng.random()
    if r < 0.1:
        return None, 0
    if r < 0.15:
        return "restrict-namespaces = no", 0
    if r < 0.2:
        return "restrict-namespaces = yes", sum(NS.values())
    types = rng.sample(sorted(NS), rng.randint(1, 5))
    if rng.random() < 0.5:
        denied = types
        line = "restrict-namespaces = ~" + " ".join(types)
    else:
        denied = [t for t in NS if t not in types]
        line = "restrict-namespaces = " + " ".join(types)
    mask = 0
    for t in denied:
        mask |= NS[t]
    return line, mask


# Families this kernel is likely to have, with types each takes (so that
# more calls succeed plainly and a denial shows against an "ok").
COMMON = {1: [1, 2, 5], 2: [1, 2, 3, SOCK_PACKET], 10: [1, 2, 3], 16: [2, 3], 17: [2, 3],
          38: [5], 40: [1, 2]}


def family_value(rng, families):
    r = rng.random()
    if r < 0.5:
        return rng.choice(sorted(COMMON))
    if r < 0.75:
        return rng.choice(sorted(set(families.values())))
    if r < 0.85:
        return rng.randint(0, 50)
    if r < 0.95:  # the high half is not the family
        return (rng.choice([1, 0x80000000, 0xffffffff]) << 32) | rng.choice(sorted(COMMON))
    return rng.choice([0xffffffff, 0x7fffffff, 0x80000000, 47, 46])


def sock_type(rng, family):
    types = COMMON.get(family & 0xffffffff)
    t = rng.choice(types) if types and rng.random() < 0.7 else rng.choice([1, 2, 3, 5, 10])
    return t | rng.choice([0, 0, 0o2000000, 0o4000, 0o2004000])


def ns_flags(rng, with_time):
    flags = 0
    for t in rng.sample(sorted(NS), rng.randint(1, 3)):
        if t != "time" or with_time:
            flags |= NS[t]
    if rng.random() < 0.15:
        flags |= rng.choice([1 << 32, 1 << 40, 1 << 63])
    return flags


def mode_value(rng):
    m = rng.choice([0o644, 0o600, 0o4755, 0o2755, 0o6755, 0o1777, 0o4000, 0o2000, 0o7777])
    if rng.random() < 0.15:  # the kernel reads 16 bits of a mode
        m |= rng.choice([0x10000, 1 << 32, 0xffff0000])
    return m


def open_flags(rng):
    f = rng.choice([0o1 | O_CREAT, 0o2 | O_CREAT | 0o200, 0o2 | O_TMPFILE, 0o1,
                    0o2 | (O_TMPFILE & ~0o200000), 0o2 | O_CREAT | O_TMPFILE])
    f |= rng.choice([0, 0, 0o2000000, 0o4000])
    if rng.random() < 0.1:
        f |= 1 << 32  # the kernel reads an int
    return f


def mode_probes(rng):
    out = []
    for _ in range(rng.randint(3, 8)):
        kind = rng.choice(["chmod", "fchmod", "fchmodat", "fchmodat2", "creat", "mknod",
                           "mknodat", "open", "openat", "openat2"])
        m = mode_value(rng)
        if kind.startswith("open"):
            f = open_flags(rng)
            out.append(("%s:%d:%d" % (kind, f, m), kind, (f, m)))
        else:
            out.append(("%s:%d" % (kind, m), kind, (m,)))
    return out


def sched_probes(rng):
    out = []
    for _ in range(rng.randint(1, 4)):
        pol = rng.choice([0, 1, 2, 3, 5, 6, 7])
        if rng.random() < 0.3:
            pol |= SCHED_RESET_ON_FORK
        if rng.random() < 0.1:
            pol |= rng.choice([1 << 32, 0x80000000])
        prio = 1 if (pol & 0xf) in (1, 2) and rng.random() < 0.8 else 0
        out.append(("sched:%d:%d" % (pol, prio), "sched", (pol,)))
    if rng.random() < 0.3:
        out.append(("sched_setattr:0", "sched_setattr", ()))
    for _ in range(rng.randint(1, 3)):
        v = rng.choice([0, 0xffffffff, ADDR_NO_RANDOMIZE, 0x0008, 0x0400000,
                        rng.getrandbits(32), 1 << 32, (1 << 32) | ADDR_NO_RANDOMIZE])
        out.append(("personality:%d" % v, "personality", (v,)))
    return out


def memory_probes(rng):
    out = []
    for _ in range(rng.randint(2, 6)):
        kind = rng.choice(["mmap", "mprotect", "pkey_mprotect", "shmat"])
        if kind == "shmat":
            v = rng.choice([0, SHM_EXEC, SHM_RDONLY, SHM_EXEC | SHM_RDONLY, 0o20000 | SHM_EXEC])
        else:
            v = rng.getrandbits(3) | rng.choice([0, 0, 8, 0x01000000])  # PROT_SEM, GROWSDOWN
        if rng.random() < 0.1:
            v |= 1 << 32
        out.append(("%s:%d" % (kind, v), kind, (v,)))
    v = rng.choice([READ_IMPLIES_EXEC, READ_IMPLIES_EXEC | 8, (1 << 32) | READ_IMPLIES_EXEC,
                    0xffffffff, 0x0fffffff])
    out.append(("personality:%d" % v, "personality", (v,)))
    return out


def probes(rng, families):
    """[(probe text, kind, values)] for the helper."""
    out = []
    for _ in range(rng.randint(6, 12)):
        kind = "socket" if rng.random() < 0.7 else "socketpair"
        f = family_value(rng, families)
        t = sock_type(rng, f)
        out.append(("%s:%d:%d" % (kind, f, t), kind, (f, t)))
    for _ in range(rng.randint(2, 5)):
        fl = ns_flags(rng, True)
        out.append(("unshare:%d" % fl, "unshare", (fl,)))
    for _ in range(rng.randint(1, 3)):
        fl = ns_flags(rng, False)
        out.append(("clone:%d" % fl, "clone", (fl,)))
    for _ in range(rng.randint(1, 4)):
        t = rng.choice(sorted(NS))
        r = rng.random()
        nstype = (0 if r < 0.2 else NS[t] if r < 0.7 else NS[rng.choice(sorted(NS))] if r < 0.85
                  else NS[t] | NS[rng.choice(sorted(NS))])
        out.append(("setns:%s:%d" % (t, nstype), "setns", (nstype,)))
    out += mode_probes(rng) + sched_probes(rng) + memory_probes(rng)
    rng.shuffle(out)
    return out


def on_i386(rng, ps):
    """Some of the probes made as i386 calls (int $0x80), sockets also
    through socketcall(2)."""
    out = []
    for text, kind, values in ps:
        r = rng.random()
        if kind in ("socket", "socketpair") and r < 0.2:
            out.append(("x86sc-" + text, "socketcall", values))
        elif r < 0.5 and kind != "mmap":  # i386's has its arguments in memory
            out.append(("x86-" + text, kind, values))
        else:
            out.append((text, kind, values))
    return out


def expected_ns(kind, values, ns_mask, plain):
    if not ns_mask:
        return plain
    if kind == "unshare":
        return "EPERM" if values[0] & ns_mask else plain
    if kind == "clone":  # 0x80 is the exit signal's there, not CLONE_NEWTIME
        return "EPERM" if values[0] & ns_mask & 0xffffffff & ~0xff else plain
    nstype = values[0]
    one_allowed = nstype in NS.values() and not (nstype & ns_mask)
    return plain if one_allowed else "EPERM"


def expected_mode(kind, values, plain):
    if kind == "openat2":
        return "ENOSYS"
    mode = values[-1]
    if kind.startswith("open"):
        f = values[0] & 0xffffffff
        if not (f & O_CREAT or (f & O_TMPFILE) == O_TMPFILE):
            return plain
    return "EPERM" if mode & 0o6000 else plain


def expected(kind, values, pr, plain):
    """What the manual says the call returns under the presets pr."""
    if kind == "socketcall":  # the family is in memory: every one is refused
        return "EAFNOSUPPORT" if pr["af"] is not None else plain
    if kind in ("socket", "socketpair"):
        f, t = values
        af = pr["af"]
        if af is not None and (af_denied(af, f) or (
                (f & 0xffffffff) == 2 and (t & 0xf) == SOCK_PACKET and af_denied(af, 17))):
            return "EAFNOSUPPORT"
        return plain
    if kind in ("unshare", "clone", "setns"):
        return expected_ns(kind, values, pr["ns"], plain)
    if kind in ("sched", "sched_setattr"):
        if not pr["rt"]:
            return plain
        if kind == "sched_setattr":
            return "EPERM"
        pol = values[0] & 0xffffffff & ~SCHED_RESET_ON_FORK
        return "EPERM" if pol in (1, 2, 6) else plain
    if kind == "personality":
        v = values[0] & 0xffffffff
        if pr["lock"] and v not in (0xffffffff, pr["pers"]):
            return "EPERM"
        return "EPERM" if pr["mdwe"] and v & READ_IMPLIES_EXEC and v != 0xffffffff else plain
    if kind in ("mmap", "mprotect", "pkey_mprotect", "shmat"):
        if not pr["mdwe"]:
            return plain
        v = values[0]
        denied = (v & SHM_EXEC if kind == "shmat" else
                  v & PROT_EXEC if kind != "mmap" else
                  (v & (PROT_WRITE | PROT_EXEC)) == PROT_WRITE | PROT_EXEC)
        return "EPERM" if denied else plain
    return expected_mode(kind, values, plain) if pr["suid"] else plain


def run(profile, args, prefix, cwd, binary=S):
    os.makedirs(cwd)
    r = subprocess.run(prefix + [binary, "-p", profile, HELPER, "probes"] + args, cwd=cwd,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
    return r.returncode, r.stdout.splitlines(), r.stderr


def presets(rng, families):
    """The [hardening] lines of one case, and what they decide."""
    af_line, af = af_preset(rng, families)
    ns_line, ns_mask = ns_preset(rng)
    pr = {"af": af, "ns": ns_mask, "suid": rng.random() < 0.6,
          "rt": rng.random() < 0.5, "lock": rng.random() < 0.5,
          "pers": ADDR_NO_RANDOMIZE if rng.random() < 0.3 else 0, "mdwe": rng.random() < 0.35}
    lines = [x for x in (af_line, ns_line) if x]
    for key, on in (("restrict-suid-sgid", pr["suid"]), ("restrict-realtime", pr["rt"]),
                    ("lock-personality", pr["lock"]), ("memory-deny-write-execute", pr["mdwe"])):
        if on:
            lines.append(key + " = yes")
    return lines, pr


def int80_works():
    """Whether int $0x80 reaches the kernel's i386 entry here (some kernels
    and hypervisors do not deliver it: the helper's child dies)."""
    r = subprocess.run([HELPER, "probes", "x86-personality:%d" % 0xffffffff],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=60)
    return r.stdout.split() == ["ok"]


def main():
    if os.getuid() != 0:
        print("1..0 # SKIP needs root (namespaces and the capabilities they need)")
        return
    families = glibc_families()
    if not families:
        print("1..0 # SKIP glibc's <bits/socket.h> not found")
        return
    tmp = tempfile.mkdtemp(prefix="scmp-run-hardening-random.")
    head = ("[credentials]\nuser = root\n[capabilities]\n"
            "keep = CAP_SYS_ADMIN CAP_SYS_CHROOT CAP_NET_RAW CAP_SYS_NICE CAP_MKNOD CAP_FOWNER\n"
            "[filter]\ndefault-action = allow\n")
    for name, arches in (("plain.ini", ""), ("plain-x86.ini", "architectures = native x86\n")):
        with open(os.path.join(tmp, name), "w") as fh:
            fh.write(head + arches)
    i386_ok = int80_works()
    if not i386_ok:
        print("# int $0x80 does not reach this kernel's i386 entry: x86_64 calls only")
    bad = 0
    for seed in range(FIRST, FIRST + CASES):
        rng = random.Random(seed)
        lines, pr = presets(rng, families)
        i386 = rng.random() < 0.4 and not pr["mdwe"] and i386_ok
        arches = "architectures = native x86\n" if i386 else ""
        plain_p = os.path.join(tmp, "plain%s.ini" % ("-x86" if i386 else ""))
        prof = os.path.join(tmp, "p%d.ini" % seed)
        with open(prof, "w") as fh:
            fh.write(head + arches + "[hardening]\n" + "".join(x + "\n" for x in lines))
        ps = probes(rng, families)
        if i386:
            ps = on_i386(rng, ps)
        args = [p[0] for p in ps]
        prefix = ["setarch", "-R", "--"] if pr["pers"] else []
        binary = S
        if pr["mdwe"]:  # its rules, as on a kernel without PR_SET_MDWE
            prefix, binary = ["env", "SCMP_RUN_TEST_NO_MDWE=1"] + prefix, SEAM
        here = os.path.join(tmp, "d%d" % seed)
        # twice plainly: a family's module loaded at the first call answers the second
        run(plain_p, args, prefix, here + "-warm")
        rc_p, plain, err_p = run(plain_p, args, prefix, here + "-plain", binary)
        rc, got, err = run(prof, args, prefix, here, binary)
        what = "seed %d: %s%s%s" % (seed, "; ".join(lines) or "no preset",
                                    ", personality %#x" % pr["pers"] if pr["pers"] else "",
                                    ", x86_64 and i386" if i386 else "")
        if rc_p != 0 or rc != 0 or len(plain) != len(ps) or len(got) != len(ps):
            tap.ok(False, "%s: runs (status %d, %d): %s %s" % (what, rc_p, rc, err_p, err))
            bad += 1
            continue
        diffs = []
        for (text, kind, values), p, g in zip(ps, plain, got):
            want = expected(kind, values, pr, p)
            if g != want or p == "error":
                diffs.append("%s: %s, want %s (plain: %s)" % (text, g, want, p))
        if not tap.ok(not diffs, "%s: %d calls as the manual says" % (what, len(ps))):
            bad += 1
            for d in diffs:
                print("#   " + d)
    if bad == 0:
        shutil.rmtree(tmp)
    else:
        print("# profiles kept in " + tmp)
    tap.done()


main()
