#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Random file operations checked against a model.

    randops.py FILE [--seed N] [--ops N] [--max-size BYTES]
               [--full-every N] [--server-copy PATH] [--log FILE] [--quiet]
               [--no-mmap]

Opens FILE (created empty) and runs a seeded series of operations on it --
pwrite, pread, ftruncate, fsync, fstat, close and open again (sometimes
with O_TRUNC), reads through a second descriptor, and reads and writes
through a shared mapping of part of the file (written pages left for the
kernel's write-back or msync'd) -- applying each one
to an in-memory model (a bytearray) too.  Every read must return what the
model holds, every fstat its size, and at the end the whole file must
equal the model, read through a fresh descriptor and, with --server-copy,
read from the server's own copy of the file (the export directory) after
close -- close-to-open says it is all there by then.

A failure prints the operation number, the operation, the seed and the
first differing byte, and exits 1.  The same seed replays the same run.
"""
import argparse
import mmap
import os
import random
import sys
import time


class Failure(Exception):
    pass


def first_diff(a, b):
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n if len(a) != len(b) else -1


def check_equal(what, got, want):
    if got != want:
        d = first_diff(got, want)
        g = got[d:d + 8].hex() if d < len(got) else "(end)"
        w = want[d:d + 8].hex() if d < len(want) else "(end)"
        raise Failure(f"{what}: {len(got)} bytes, expected {len(want)}; "
                      f"first difference at +{d}: got {g}, expected {w}")


def pread_all(fd, size, off):
    out = bytearray()
    while len(out) < size:
        b = os.pread(fd, size - len(out), off + len(out))
        if not b:
            break
        out += b
    return bytes(out)


def pwrite_all(fd, data, off):
    done = 0
    while done < len(data):
        done += os.pwrite(fd, data[done:], off + done)


def read_whole(path):
    with open(path, "rb") as f:
        return f.read()


class Run:
    def __init__(self, path, seed, max_size, use_mmap=True):
        self.path = path
        self.use_mmap = use_mmap
        self.rnd = random.Random(seed)
        self.max_size = max_size
        self.model = bytearray()
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
        self.counts = {}

    def length(self):
        r = self.rnd.random()
        if r < 0.3:
            return self.rnd.randint(1, 64)
        if r < 0.6:
            return self.rnd.randint(1, 8192)
        if r < 0.9:
            return self.rnd.randint(4096, 65536)
        return self.rnd.randint(65536, 300000)

    def offset(self, room):
        size = len(self.model)
        r = self.rnd.random()
        if r < 0.15 or size == 0:
            off = self.rnd.randint(0, self.max_size)   # anywhere, holes too
        elif r < 0.3:
            off = size                                # append
        elif r < 0.45:
            off = self.rnd.randrange(0, size + 1) & ~4095  # page aligned
        else:
            off = self.rnd.randint(0, size)
        return min(off, max(0, self.max_size - room))

    def op_write(self):
        n = self.length()
        off = self.offset(n)
        n = min(n, self.max_size - off)
        data = self.rnd.randbytes(n)
        pwrite_all(self.fd, data, off)
        if off > len(self.model):
            self.model += bytes(off - len(self.model))
        self.model[off:off + n] = data
        return f"pwrite off={off} len={n}"

    def op_read(self, fd=None):
        n = self.length()
        size = len(self.model)
        off = self.rnd.randint(0, size + 100) if size else 0
        got = pread_all(self.fd if fd is None else fd, n, off)
        check_equal(f"pread off={off} len={n}", got,
                    bytes(self.model[off:off + n]))
        return f"pread off={off} len={n}"

    def op_read_other_fd(self):
        fd = os.open(self.path, os.O_RDONLY)
        try:
            return "other fd: " + self.op_read(fd)
        finally:
            os.close(fd)

    def op_truncate(self):
        r = self.rnd.random()
        size = len(self.model)
        if r < 0.3:
            new = self.rnd.randint(0, size)           # shrink
        elif r < 0.4:
            new = 0
        else:
            new = self.rnd.randint(0, self.max_size)  # grow or shrink
        os.ftruncate(self.fd, new)
        if new < size:
            del self.model[new:]
        else:
            self.model += bytes(new - size)
        return f"ftruncate {new}"

    def map_range(self):
        """A range inside the file (a mapping past its end faults) and the
        page-aligned mapping that holds it: (start, length, off, n)."""
        size = len(self.model)
        off = self.rnd.randrange(size)
        n = min(self.length(), size - off)
        start = off & ~(mmap.ALLOCATIONGRANULARITY - 1)
        return start, off + n - start, off, n

    def op_mapread(self):
        if not self.model:
            return self.op_fstat()
        start, length, off, n = self.map_range()
        with mmap.mmap(self.fd, length, offset=start,
                       access=mmap.ACCESS_READ) as m:
            got = m[off - start:off - start + n]
        check_equal(f"mmap read off={off} len={n}", got,
                    bytes(self.model[off:off + n]))
        return f"mmap read off={off} len={n}"

    def op_mapwrite(self):
        if not self.model:
            return self.op_fstat()
        start, length, off, n = self.map_range()
        data = self.rnd.randbytes(n)
        sync = self.rnd.random() < 0.5
        with mmap.mmap(self.fd, length, offset=start,
                       access=mmap.ACCESS_WRITE) as m:
            m[off - start:off - start + n] = data
            if sync:
                m.flush()
        self.model[off:off + n] = data
        return f"mmap write off={off} len={n}" + (" msync" if sync else "")

    def op_fstat(self):
        st = os.fstat(self.fd)
        if st.st_size != len(self.model):
            raise Failure(f"fstat: size {st.st_size}, expected {len(self.model)}")
        return "fstat"

    def op_fsync(self):
        os.fsync(self.fd)
        return "fsync"

    def op_reopen(self):
        os.close(self.fd)
        flags = os.O_RDWR
        if self.rnd.random() < 0.1:
            flags |= os.O_TRUNC
            del self.model[:]
        self.fd = os.open(self.path, flags)
        return "close+open" + (" O_TRUNC" if flags & os.O_TRUNC else "")

    def verify_all(self, what):
        check_equal(what, pread_all(self.fd, len(self.model) + 4096, 0),
                    bytes(self.model))

    def run(self, nops, full_every, log=None):
        ops = [(self.op_write, 40), (self.op_read, 36),
               (self.op_read_other_fd, 4), (self.op_truncate, 6),
               (self.op_fstat, 8), (self.op_fsync, 3), (self.op_reopen, 3)]
        if self.use_mmap:
            ops += [(self.op_mapread, 4), (self.op_mapwrite, 4)]
        funcs = [f for f, _ in ops]
        weights = [w for _, w in ops]
        last = "start"
        for i in range(nops):
            f = self.rnd.choices(funcs, weights)[0]
            try:
                last = f()
                if full_every and (i + 1) % full_every == 0:
                    self.verify_all(f"whole file after op {i}")
            except (Failure, OSError) as e:
                raise Failure(f"op {i} ({f.__name__}; previous: {last}): {e}")
            if log:
                print(i, last, len(self.model), file=log)
            name = f.__name__[3:]
            self.counts[name] = self.counts.get(name, 0) + 1
        self.verify_all("whole file at the end")
        os.close(self.fd)
        self.fd = -1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ops", type=int, default=20000)
    ap.add_argument("--max-size", type=int, default=4 << 20)
    ap.add_argument("--full-every", type=int, default=1000)
    ap.add_argument("--server-copy")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--no-mmap", action="store_true",
                    help="no reads or writes through a mapping")
    ap.add_argument("--log", help="write every operation to this file")
    a = ap.parse_args()

    t0 = time.monotonic()
    r = Run(a.file, a.seed, a.max_size, not a.no_mmap)
    try:
        log = open(a.log, "w") if a.log else None
        r.run(a.ops, a.full_every, log)
        check_equal("whole file through a new descriptor",
                    read_whole(a.file), bytes(r.model))
        if a.server_copy:
            check_equal("the server's copy after close",
                        read_whole(a.server_copy), bytes(r.model))
    except (Failure, OSError) as e:
        print(f"randops FAIL (seed {a.seed}): {e}", file=sys.stderr)
        return 1
    if not a.quiet:
        counts = " ".join(f"{k}={v}" for k, v in sorted(r.counts.items()))
        print(f"randops: seed {a.seed}, {a.ops} ops in "
              f"{time.monotonic() - t0:.1f} s, final size {len(r.model)}: "
              f"{counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
