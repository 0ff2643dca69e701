# SPDX-License-Identifier: LGPL-2.1-or-later
"""[landlock] rule paths through random trees of directories, files and
symbolic links, live (scmp-run.ini(5) LANDLOCK, Paths).

Each case builds a tree, picks one of its directories as the write path and
a path through the tree (links on the way, links in link targets, loops,
missing names) as a read path, and runs scmp-run with that profile. What it
must do is worked out here from the man page's rules, independently of the
launcher's code: walk the path one component at a time, follow each link
until the write directory has been reached (by identity), refuse any link
after that (ELOOP), or a missing name (ENOENT) or a file on the way
(ENOTDIR). When the launcher runs the command, the kernel says what the
rule granted: the file or directory the walk reached is readable, a file
outside it and outside the write directory is not.

Usage: walk-random.py SCMP-RUN [CASES [FIRST-SEED]]   (as root; TAP output)
"""
import errno
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tap  # noqa: E402

S = sys.argv[1]
CASES = int(sys.argv[2]) if len(sys.argv) > 2 else 300
FIRST = int(sys.argv[3]) if len(sys.argv) > 3 else 1
LINKS_MAX = 40
# scmp-run unprivileged: root would have to name itself in [credentials],
# and could not switch again under the outer launcher
NOBODY = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups"]
# Every third case runs under an outer filter that refuses openat2 as
# container profiles do (ENOSYS) or as some deny-lists do (EPERM): the
# launcher then walks the path without it, with the same outcome.
OUTER = [None, "outer-enosys.ini", "outer-eperm.ini"]
SYS = ("read-exec = /usr /bin? /lib? /lib64? /sbin?\n"
       "read = /etc/ld.so.cache?\n")


def build_tree(rng, base):
    """Directories, files and links below base; returns the directories
    and every name made (as paths relative to base)."""
    dirs, names = [""], []
    for i in range(rng.randint(2, 6)):
        d = os.path.join(rng.choice(dirs), "d%d" % i)
        os.mkdir(os.path.join(base, d))
        dirs.append(d)
        names.append(d)
    for i in range(rng.randint(1, 4)):
        f = os.path.join(rng.choice(dirs), "f%d" % i)
        with open(os.path.join(base, f), "w") as fh:
            fh.write("file %s\n" % f)
        names.append(f)
    for i in range(rng.randint(1, 6)):
        at = rng.choice(dirs)
        link = os.path.join(at, "l%d" % i)
        kind = rng.random()
        if kind < 0.35:  # relative, up and down
            up = [".."] * rng.randint(0, at.count("/") + 1 if at else 0)
            target = os.path.join(*(up + [rng.choice(names + ["missing"])])) \
                if up else rng.choice(names + ["missing"]).split("/")[-1]
        elif kind < 0.8:  # absolute, to any name (links included)
            target = os.path.join(base, rng.choice(names + ["nowhere"]))
        elif kind < 0.9:  # itself: a loop
            target = os.path.basename(link)
        else:  # through another link, and on
            target = os.path.join(base, rng.choice(names), rng.choice(["d1", "f0", "l0", ".."]))
        os.symlink(target, os.path.join(base, link))
        names.append(link)
    return dirs, names


def pick_path(rng, base, names):
    """A path below base that mostly exists: names of the tree, some
    through links, now and then one that does not."""
    parts = []
    for _ in range(rng.randint(1, 4)):
        here = os.path.realpath(os.path.join(base, *parts)) if parts else base
        try:
            kids = sorted(os.listdir(here)) if os.path.isdir(here) else []
        except OSError:
            kids = []
        r = rng.random()
        if kids and r < 0.8:
            parts.append(rng.choice(kids))
        elif r < 0.9:
            parts.append(rng.choice(names).split("/")[-1])
        else:
            parts.append(rng.choice([".", "missing"]))
    return os.path.join(base, *parts)


def normalize(path):
    """A rule path as the profile keeps it: '.' and empty components taken
    away (pick_path() makes no '..', which a rule path may not have)."""
    return "/" + "/".join(c for c in path.split("/") if c not in ("", "."))


def parent(p):
    return os.path.dirname(p) or "/"


def reference(path, wid):
    """(errno, planted) or (0, the path reached), by the man page."""
    done, todo, inside, links = "/", normalize(path).split("/")[1:], False, 0
    while todo:
        c = todo.pop(0)
        if c in ("", "."):
            continue
        if c == "..":
            done = parent(done)
            continue
        done = os.path.join(done, c)
        if inside:
            continue
        try:
            st = os.lstat(done)
        except OSError as e:
            return e.errno, False
        if os.path.islink(done):
            links += 1
            if links > LINKS_MAX:
                return errno.ELOOP, False
            target = os.readlink(done)
            done = "/" if target.startswith("/") else parent(done)
            todo = target.split("/") + todo
        elif os.path.isdir(done) and (st.st_dev, st.st_ino) == wid:
            inside = True
    # the end, opened following no link
    at = "/"
    for c in done.split("/")[1:]:
        at = os.path.join(at, c)
        try:
            st = os.lstat(at)
        except OSError as e:
            return e.errno, False
        if os.path.islink(at):
            return errno.ELOOP, inside
        if at != done and not os.path.isdir(at):
            return errno.ENOTDIR, False
    return 0, done


def below(p, d):
    return p == d or p.startswith(d.rstrip("/") + "/")


def run_case(seed, root):
    rng = random.Random(seed)
    base = tempfile.mkdtemp(prefix="c%d-" % seed, dir=root)
    os.chmod(base, 0o755)
    dirs, names = build_tree(rng, base)
    w = os.path.join(base, rng.choice(dirs[1:]))
    st = os.stat(w)
    rule = pick_path(rng, base, names)
    want, reached = reference(rule, (st.st_dev, st.st_ino))
    decoy = os.path.join(root, "decoy")
    prof = os.path.join(root, "p%d.ini" % seed)
    with open(prof, "w") as fh:
        fh.write("[filter]\ndefault-action = allow\n[landlock]\n%swrite = %s\nread = %s\n"
                 % (SYS, w, rule))
    if want == 0 and os.path.isdir(reached):
        probe = "ls %s" % reached
    elif want == 0:
        probe = "cat %s" % reached
    else:
        probe = "true"
    outer = OUTER[seed % len(OUTER)]
    cmd = NOBODY + ([S, "-p", os.path.join(root, outer)] if outer else []) + [
        S, "-p", prof, "/bin/sh", "-c",
           "%s && echo granted=yes || echo granted=no; "
           "cat %s && echo decoy=yes || echo decoy=no" % (probe, decoy)]
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    what = "seed %d: read = %s (write = %s%s)" % (seed, rule[len(root):], w[len(root):],
                                                 ", under " + outer if outer else "")
    if want:
        good = p.returncode == 125 and os.strerror(want) in p.stderr
        # the hint for a link below the write path, and only for it
        good = good and ("none is followed" in p.stderr) == (want == errno.ELOOP and reached)
        why = "refused with %s%s" % (errno.errorcode[want], ", planted" if reached else "")
    else:
        decoy_seen = below(decoy, reached) or below(decoy, w)
        good = (p.returncode == 0 and "granted=yes" in p.stdout and
                ("decoy=no" in p.stdout or decoy_seen))
        why = "runs, %s readable, nothing else" % reached[len(root):]
    if not good:
        tap.ok(False, "%s: %s" % (what, why))
        print("# status %d, out %r, err %r" % (p.returncode, p.stdout, p.stderr[-300:]))
        print("# tree: %s" % subprocess.run(["find", base, "-printf", "%P %l\\n"],
                                             capture_output=True, text=True).stdout)
        return outcome(want, reached), False
    shutil.rmtree(base)
    os.unlink(prof)
    return outcome(want, reached), True


def outcome(want, reached):
    """The kind of case, for the count: ELOOP planted apart."""
    if want == errno.ELOOP and reached:
        return "ELOOP-planted"
    return errno.errorcode[want] if want else "ok"


def main():
    if os.geteuid() != 0:
        print("1..0 # SKIP needs root, to run the launcher as uid 65534")
        return
    root = tempfile.mkdtemp(prefix="scmp-run-walk-")
    os.chmod(root, 0o755)
    with open(os.path.join(root, "decoy"), "w") as fh:
        fh.write("decoy\n")
    for name, err in (("outer-enosys.ini", "ENOSYS"), ("outer-eperm.ini", "EPERM")):
        with open(os.path.join(root, name), "w") as fh:
            fh.write("[filter]\ndefault-action = allow\n"
                     "[errno(%s)]\nsyscalls = openat2\n[landlock]\nmode = off\n" % err)
    seen, failed = {}, 0
    for seed in range(FIRST, FIRST + CASES):
        want, good = run_case(seed, root)
        seen[want] = seen.get(want, 0) + 1
        failed += not good
    shown = ", ".join("%s %d" % (k, n) for k, n in sorted(seen.items()))
    tap.ok(failed == 0, "%d random trees and paths: the launcher did as the rules say (%s)"
           % (CASES, shown))
    # every outcome is met, or the cases test less than they claim
    tap.ok(all(seen.get(k, 0) for k in ("ok", "ENOENT", "ENOTDIR", "ELOOP", "ELOOP-planted")),
           "the cases reach a path granted, a missing one, a file on the way, a loop "
           "and a link below the write path")
    if not failed:
        shutil.rmtree(root)
    tap.done()


main()
