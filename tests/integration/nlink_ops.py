#!/usr/bin/env python3
"""Link counts through orders of link, unlink and rename (over an existing
name too), each step followed at once by a stat of every name and an fstat
of every descriptor held, in one process and with no pause.  Prints one
line per step; the test compares the lines a local disk gives with those
of the mount.

usage: nlink_ops.py DIR [LOOKDIR]
  DIR      where the operations are made
  LOOKDIR  where names are stat'ed (the same directory through another
           mount); DIR by default.  Descriptors are always DIR's.
"""
import os
import sys

def main():
    work = sys.argv[1]
    look = sys.argv[2] if len(sys.argv) > 2 else work
    out = []

    def p(name):
        return os.path.join(work, name)

    def show(case, step, names, fds=()):
        cells = []
        for n in names:
            try:
                cells.append("%s=%d" % (n, os.stat(os.path.join(look, n)).st_nlink))
            except FileNotFoundError:
                cells.append("%s=-" % n)
        for label, fd in fds:
            cells.append("%s=%d" % (label, os.fstat(fd).st_nlink))
        out.append("%s %s: %s" % (case, step, " ".join(cells)))

    def new(name):
        fd = os.open(p(name), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        os.write(fd, name.encode())
        os.close(fd)

    def clean(*names):
        for n in names:
            try:
                os.unlink(p(n))
            except FileNotFoundError:
                pass

    # The order the issue names: rename aside, link back, drop the aside.
    new("f")
    show("c1", "new", ["f"])
    os.rename(p("f"), p("n"))
    show("c1", "rename f n", ["f", "n"])
    os.link(p("n"), p("f"))
    show("c1", "link n f", ["f", "n"])
    os.unlink(p("n"))
    show("c1", "unlink n", ["f", "n"])
    clean("f", "n")

    # link, then unlink either name
    new("a")
    show("c2", "new", ["a"])
    os.link(p("a"), p("b"))
    show("c2", "link a b", ["a", "b"])
    os.unlink(p("a"))
    show("c2", "unlink a", ["a", "b"])
    os.link(p("b"), p("c"))
    os.link(p("b"), p("d"))
    show("c2", "link b c d", ["b", "c", "d"])
    os.unlink(p("d"))
    os.unlink(p("c"))
    show("c2", "unlink d c", ["b", "c", "d"])
    clean("a", "b", "c", "d")

    # rename over a name of a file with two
    new("a")
    os.link(p("a"), p("b"))
    new("x")
    show("c3", "link a b, new x", ["a", "b", "x"])
    os.rename(p("x"), p("b"))
    show("c3", "rename x b", ["a", "b", "x"])
    os.rename(p("b"), p("a"))
    show("c3", "rename b a", ["a", "b"])
    clean("a", "b")

    # rename between two names of one file changes nothing
    new("a")
    os.link(p("a"), p("b"))
    os.rename(p("a"), p("b"))
    show("c4", "link a b, rename a b", ["a", "b"])
    clean("a", "b")

    # descriptors: an open file loses its names one by one
    new("a")
    fd = os.open(p("a"), os.O_RDWR)
    os.link(p("a"), p("b"))
    show("c5", "open a, link a b", ["a", "b"], [("fd", fd)])
    os.unlink(p("a"))
    show("c5", "unlink a", ["a", "b"], [("fd", fd)])
    os.unlink(p("b"))
    show("c5", "unlink b", ["a", "b"], [("fd", fd)])
    os.write(fd, b"still writable")
    show("c5", "write", [], [("fd", fd)])
    os.close(fd)
    clean("a", "b")

    # descriptors: an open file renamed over
    new("t")
    new("x")
    fd = os.open(p("t"), os.O_RDONLY)
    show("c6", "open t", ["t", "x"], [("fd", fd)])
    os.rename(p("x"), p("t"))
    show("c6", "rename x t", ["t", "x"], [("fd", fd)])
    os.close(fd)
    clean("t", "x")

    # descriptors: an open file with two names renamed over keeps one
    new("a")
    os.link(p("a"), p("b"))
    new("x")
    fd = os.open(p("a"), os.O_RDONLY)
    os.rename(p("x"), p("b"))
    show("c7", "rename x b", ["a", "b"], [("fd", fd)])
    os.rename(p("a"), p("b"))
    show("c7", "rename a b", ["a", "b"], [("fd", fd)])
    os.unlink(p("b"))
    show("c7", "unlink b", ["a", "b"], [("fd", fd)])
    os.close(fd)
    clean("a", "b")

    # directories: one removed while open shows no links, whether by
    # rmdir or by a rename over its name; the parent's count follows
    os.mkdir(p("d"))
    os.mkdir(p("d/sub"))
    fd = os.open(p("d/sub"), os.O_RDONLY | os.O_DIRECTORY)
    show("c8", "open d/sub", ["d", "d/sub"], [("fd", fd)])
    os.rmdir(p("d/sub"))
    show("c8", "rmdir d/sub", ["d", "d/sub"], [("fd", fd)])
    os.close(fd)
    os.mkdir(p("d/src"))
    os.mkdir(p("d/dst"))
    fd = os.open(p("d/dst"), os.O_RDONLY | os.O_DIRECTORY)
    show("c9", "open d/dst", ["d", "d/src", "d/dst"], [("fd", fd)])
    os.rename(p("d/src"), p("d/dst"))
    show("c9", "rename d/src d/dst", ["d", "d/src", "d/dst"], [("fd", fd)])
    os.close(fd)
    os.rmdir(p("d/dst"))
    os.rmdir(p("d"))

    print("\n".join(out))

if __name__ == "__main__":
    main()
