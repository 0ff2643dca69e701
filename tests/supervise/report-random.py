# SPDX-License-Identifier: LGPL-2.1-or-later
"""--report enacts what the kernel would, --permissive lets all run: random profiles on harmless
system calls with conditions on their arguments, and random calls of them
(rawcall, x86_64 and x32 numbers), run plainly (the kernel runs the
program) and under --report (the supervisor decides from the profile and
answers): each call returns the same, and the run ends the same
(scmp-run(1), FINDING WHAT WAS DENIED: the supervisor enacts each
decision). --report names denials exactly when the plain run saw a call
refused with an errno the profile gives, or killed. Under --permissive
every call returns what it returns under a profile that allows all, and
"would deny" lines appear exactly when the plain run saw a denial.

Usage: report-random.py SCMP-RUN RAWCALL [CASES [FIRST-SEED]]   (as root; TAP)
"""
import os
import random
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402

S, RAWCALL = sys.argv[1], sys.argv[2]
CASES = int(sys.argv[3]) if len(sys.argv) > 3 else 60
FIRST = int(sys.argv[4]) if len(sys.argv) > 4 else 1
X32 = 0x40000000

# Calls that do nothing harmful whatever their arguments (no pointers, no
# descriptors closed): x86_64 number, the class of each argument (signed or
# unsigned, its width), as the syscall table types them.
CALLS = {
    "getpriority": (140, ["s32", "s32"]), "getpgid": (121, ["s32"]),
    "getsid": (124, ["s32"]), "sched_getscheduler": (145, ["s32"]),
    "sched_get_priority_max": (146, ["s32"]), "sched_get_priority_min": (147, ["s32"]),
    "ioprio_get": (252, ["s32", "s32"]), "umask": (95, ["s32"]), "dup": (32, ["u32"]),
    "lseek": (8, ["u32", "s64", "u32"]), "sched_yield": (24, []),
}
BOUNDS = [0, 1, 2, 3, 7, 0x7f, 0x80, 0xff, 0x7fffffff, 0x80000000, 0xffffffff,
          0x100000000, 0x1ffffffff, 0x7fffffffffffffff, 0x8000000000000000,
          0xffffffff00000000, 0xffffffff80000000, 0xffffffffffffffff]
ACTIONS = ["allow", "log", "errno(EACCES)", "errno(ENOTTY)", "errno(EDOM)", "kill-process"]
OPS = ["==", "!=", "<", "<=", ">", ">="]


def value(rng):
    r = rng.random()
    if r < 0.6:
        return rng.choice(BOUNDS)
    if r < 0.8:
        return (rng.choice(BOUNDS) + rng.choice([-1, 1])) % (1 << 64)
    return rng.getrandbits(64 if rng.random() < 0.5 else 32)


def in_class(v, cls):
    """v as a value of an argument of class cls, as a profile writes it."""
    bits = int(cls[1:])
    v &= (1 << bits) - 1
    if cls[0] == "s" and v >> (bits - 1):
        v -= 1 << bits
    return v


def condition(rng, classes):
    """Text of a condition on the arguments (by slot), or '' for none."""
    parts = []
    for _ in range(rng.randint(0, 2) if classes else 0):
        a = rng.randrange(len(classes))
        v, m = in_class(value(rng), classes[a]), in_class(value(rng), classes[a])
        kind = rng.random()
        if kind < 0.5:
            parts.append("arg%d %s %d" % (a, rng.choice(OPS), v))
        elif kind < 0.7:
            m &= (1 << int(classes[a][1:])) - 1  # a mask is bits: written unsigned
            parts.append("arg%d & %d == %d" % (a, m, v & m))
        elif kind < 0.85:
            parts.append("arg%d in { %d, %d, 7 }" % (a, v, m))
        else:
            parts.append("arg%d not in { %d, %d }" % (a, v, m))
    return (" && " if rng.random() < 0.8 else " || ").join(parts)


def profile(rng):
    lines = ["[filter]", "default-action = %s" % rng.choice(["allow", "errno(EPERM)", "log"])]
    if rng.random() < 0.4:
        lines.append("architectures = native x32")
    sections = {}
    for _ in range(rng.randint(1, 10)):
        name = rng.choice(sorted(CALLS))
        act = rng.choice(ACTIONS[:-1] if rng.random() < 0.85 else ACTIONS)
        cond = condition(rng, CALLS[name][1])
        sections.setdefault(act, []).append("%s = %s" % (name, cond) if cond else
                                            "syscalls = %s" % name)
    # what a run needs besides the calls tried: the default may be EPERM
    sections.setdefault("allow", []).append(
        "syscalls = @default @basic-io @file-system @process @signal brk mmap munmap "
        "mprotect arch_prctl set_tid_address set_robust_list rseq prlimit64 getrandom "
        "newfstatat exit_group")
    for act, keys in sections.items():
        lines.append("[%s]" % act)
        lines.extend(keys)
    return "\n".join(lines) + "\n"


def calls(rng, x32):
    out = []
    for _ in range(rng.randint(5, 25)):
        name = rng.choice(sorted(CALLS))
        nr, classes = CALLS[name]
        if x32 and rng.random() < 0.4:
            nr |= X32
        args = [value(rng) for _ in classes]
        if name == "dup":  # a descriptor that exists now and then
            args = [rng.choice([0, 1, 2, 99, args[0]])]
        out.append(",".join(["%d" % nr] + ["%d" % a for a in args]))
    return out


def run(cmd):
    """Status as a shell shows it (128 + signal: a plain run killed by the
    kernel ends with the command's own SIGSYS, where --report says 159),
    the lines printed, the messages."""
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    status = 128 - p.returncode if p.returncode < 0 else p.returncode
    return status, p.stdout.splitlines(), p.stderr


def denials(text, verb, action=""):
    """Report lines of text with verb ("denied", "would deny") and action."""
    return sum(1 for ln in text.splitlines() if ": %s: " % verb in ln and action in ln)


def case(seed, tmp):
    rng = random.Random(seed)
    text = profile(rng)
    prof = os.path.join(tmp, "p%d.ini" % seed)
    with open(prof, "w") as fh:
        fh.write(text)
    todo = calls(rng, "x32" in text)
    plain = run([S, "--user", "root", "-p", prof, RAWCALL] + todo)
    if plain[0] == 125:
        return "refused", True  # the profile does not compile: nothing to compare
    rep = run([S, "--report", "--user", "root", "-p", prof, RAWCALL] + todo)
    # the calls the plain run saw refused by the profile: its errno values,
    # or the kill (status 159) that ended it at the next call
    refused = sum(1 for ln in plain[1]
                  if ln.endswith(("Permission denied", "Operation not permitted",
                                  "Inappropriate ioctl for device",
                                  "Numerical argument out of domain")))
    killed = plain[0] == 159
    good = rep[0] == plain[0] and rep[1] == plain[1]
    if killed:  # what the killed run printed is lost with its buffer
        good = good and denials(rep[2], "denied", "-> kill-process") > 0
    else:  # (repeated calls are folded into one line: only whether)
        good = good and (denials(rep[2], "denied") > 0) == (refused > 0)
    # --permissive: every call runs as under a profile that allows all (on
    # the same ABIs), and what the profile would have refused is named
    perm = run([S, "--permissive", "--user", "root", "-p", prof, RAWCALL] + todo)
    allow_all = os.path.join(tmp, "a%d.ini" % seed)
    with open(allow_all, "w") as fh:
        fh.write("\n".join(text.splitlines()[:1] + ["default-action = allow"] +
                           [ln for ln in text.splitlines() if ln.startswith("architectures")]))
    free = run([S, "--user", "root", "-p", allow_all, RAWCALL] + todo)
    good_perm = (perm[:2] == free[:2] and
                 (denials(perm[2], "would deny") > 0) == (refused > 0 or killed))
    if not good or not good_perm:
        tap.ok(False, "seed %d: %s as the kernel" % (seed, "--permissive" if good else "--report"))
        print("# profile:\n# " + text.replace("\n", "\n# "))
        print("# calls: %s" % " ".join(todo))
        for what, r in (("plain", plain), ("report", rep), ("allow-all", free),
                        ("permissive", perm)):
            print("# %s %d %r\n#   %s" % (what, r[0], r[1], r[2][-300:].replace("\n", "\n#   ")))
        return "differs", False
    os.unlink(prof)
    os.unlink(allow_all)
    return "killed" if killed else "errno" if refused else "allowed", True


def main():
    if os.geteuid() != 0:
        print("1..0 # SKIP --report runs as root here (--user root)")
        return
    tmp = tempfile.mkdtemp(prefix="scmp-run-report-")
    seen, failed = {}, 0
    for seed in range(FIRST, FIRST + CASES):
        kind, good = case(seed, tmp)
        seen[kind] = seen.get(kind, 0) + 1
        failed += not good
    shown = ", ".join("%s %d" % kv for kv in sorted(seen.items()))
    tap.ok(failed == 0, "%d random profiles and calls: --report returns what the kernel "
           "returns, --permissive what a profile allowing all returns (%s)" % (CASES, shown))
    tap.ok(seen.get("killed", 0) and seen.get("errno", 0) and
           seen.get("refused", 0) < CASES / 4,
           "the cases reach an errno, a kill, and mostly profiles that compile")
    if not failed:
        os.rmdir(tmp)
    tap.done()


main()
