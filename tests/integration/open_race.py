#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Opens that race with unlinks and renames over the name, on one mount.

    open_race.py DIR [--rounds N] [--mode replace|unlink]

Four processes share DIR.  Two replace files under their names, round
after round: "replace" writes a new version under a temporary name and
renames it over the old one (how editors, package managers and git
update a file); "unlink" removes the name and creates the file again.
One process opens the replaced file "r", reads it whole and checks that
it holds one complete version; another opens "a" with O_APPEND, writes,
fsyncs and closes it.  Once open succeeded, a file must stay usable
until its close whatever happens to its name, as on a local disk: no
read, write, fsync or close may fail, and no read may return a torn or
foreign version.

An open itself may find no such file (ENOENT, in "unlink" mode, between
the removal and the new create), or one not yet written whole (between
the create and the end of its write).  It may also say ESTALE, rarely: the
kernel walks the path and then sends FUSE's OPEN for the file it found,
and when a removal takes that file in between, and again after the
kernel's one retry, nothing but the kernel could close the gap.  These
are counted and printed, not failed; so is EREMOTEIO, which nfs-ganesha
at times gives an OPEN of a handle removed a moment before
(NFS4ERR_SERVERFAULT).

Prints one summary line; exits 1 on any failure, with the first ones.
"""
import argparse
import errno
import multiprocessing as mp
import os
import sys

SIZE = 24576


def version(gen):
    head = b"gen %08d\n" % gen
    body = bytes((gen + i) & 0xff for i in range(SIZE - len(head)))
    return head + body


def check_version(data, mode):
    # "unlink" makes the file and then writes it: it may be opened while
    # empty or half written, as on a local disk.  A rename puts only
    # whole versions under the name.
    partial = mode == "unlink"
    if partial and len(data) < 12:
        head_ok = b"gen ".startswith(data[:4]) and \
            (len(data) <= 4 or data[4:].isdigit())
        return None if head_ok else f"{len(data)} bytes {data!r}"
    if (len(data) != SIZE and not partial) or len(data) > SIZE or \
            not data.startswith(b"gen "):
        return f"{len(data)} bytes starting {data[:12]!r}"
    try:
        gen = int(data[4:12])
    except ValueError:
        return f"bad header {data[:12]!r}"
    if data != version(gen)[:len(data)]:
        return f"version {gen} torn"
    return None


def write_file(path, data):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def replacer(d, name, mode, rounds, appendable):
    bad = []
    path = os.path.join(d, name)
    tmp = os.path.join(d, "." + name + ".tmp")
    for gen in range(1, rounds + 1):
        data = b"" if appendable else version(gen)
        try:
            if mode == "replace":
                write_file(tmp, data)
                os.rename(tmp, path)
            else:
                try:
                    os.unlink(path)
                except FileNotFoundError:
                    pass
                write_file(path, data)
        except OSError as e:
            bad.append(f"replacing {name}, round {gen}: {e}")
    return bad


def read_whole(fd, mode):
    """Read an open "r" whole: None, or what is wrong with it."""
    data = b""
    while True:
        b = os.read(fd, 65536)
        if not b:
            break
        data += b
    why = check_version(data, mode)
    return f"read {why}" if why else None


def append_synced(fd, mode):
    os.write(fd, b"x" * 100)
    os.fsync(fd)
    return None


def opener(d, name, flags, use, mode, rounds):
    """Open d/name rounds times and use(fd, mode) each open file: the
    failures, and the counts of the open errors allowed (by errno)."""
    bad, counts = [], {}
    path = os.path.join(d, name)
    for i in range(rounds):
        try:
            fd = os.open(path, flags)
        except OSError as e:
            # EREMOTEIO: nfs-ganesha answers an OPEN of a handle removed
            # a moment before with NFS4ERR_SERVERFAULT at times.
            if e.errno in (errno.ESTALE, errno.EREMOTEIO) or \
                    (e.errno == errno.ENOENT and mode == "unlink"):
                counts[e.errno] = counts.get(e.errno, 0) + 1
            else:
                bad.append(f"round {i}: open: {e}")
            continue
        try:
            why = use(fd, mode)
            if why:
                bad.append(f"round {i}: {why}")
        except OSError as e:
            bad.append(f"round {i}: {use.__name__} of an open file: {e}")
        finally:
            try:
                os.close(fd)
            except OSError as e:
                bad.append(f"round {i}: close of an open file: {e}")
    return bad, counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--rounds", type=int, default=2000)
    ap.add_argument("--mode", choices=("replace", "unlink"),
                    default="replace")
    o = ap.parse_args()
    write_file(os.path.join(o.dir, "r"), version(0))
    write_file(os.path.join(o.dir, "a"), b"")
    with mp.Pool(4) as pool:
        jobs = [pool.apply_async(replacer, (o.dir, "r", o.mode, o.rounds,
                                            False)),
                pool.apply_async(replacer, (o.dir, "a", o.mode, o.rounds,
                                            True)),
                pool.apply_async(opener, (o.dir, "r", os.O_RDONLY,
                                          read_whole, o.mode, o.rounds)),
                pool.apply_async(opener, (o.dir, "a",
                                          os.O_WRONLY | os.O_APPEND,
                                          append_synced, o.mode,
                                          o.rounds))]
        bad = jobs[0].get() + jobs[1].get()
        rb, rc = jobs[2].get()
        ab, ac = jobs[3].get()
    bad += rb + ab
    opened_r = o.rounds - sum(rc.values())
    opened_a = o.rounds - sum(ac.values())
    print(f"{o.mode}: {o.rounds} rounds; reader opened {opened_r} "
          f"(ESTALE {rc.get(errno.ESTALE, 0)}, ENOENT "
          f"{rc.get(errno.ENOENT, 0)}), appender opened {opened_a} "
          f"(ESTALE {ac.get(errno.ESTALE, 0)}, ENOENT "
          f"{ac.get(errno.ENOENT, 0)}); failures {len(bad)}")
    for b in bad[:10]:
        print("  " + b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
