#!/usr/bin/env python3
"""lseek(SEEK_DATA/SEEK_HOLE), fallocate and copy_file_range through
ordinary system calls, for nfs42_ops.sh.

usage:
  nfs42_ops.py seek FILE OFFSET...
      one line per offset: "OFFSET data=ANSWER hole=ANSWER", ANSWER the
      offset lseek gives or the errno's name
  nfs42_ops.py seek-nohole SIZE OFFSET...
      the same lines as a file system without holes gives for a file of
      SIZE bytes (data up to SIZE, one hole from there)
  nfs42_ops.py fallocate FILE MODE OFFSET LENGTH
      fallocate(2) with MODE among 0, keep, punch; prints "ok" or the
      errno's name
  nfs42_ops.py write-punch FILE SIZE OFFSET LENGTH
      writes SIZE bytes of a pattern and, through the same descriptor
      before any close or fsync, punches a hole at OFFSET; prints "ok"
  nfs42_ops.py copy SRC DST
      copies SRC into DST (made empty) with copy_file_range(2) until it
      returns 0; prints the bytes copied
  nfs42_ops.py xattr FILE
      setxattr, getxattr, listxattr and removexattr of user.* names and a
      getxattr of security.selinux; one line each: "CALL ANSWER", ANSWER
      "ok", the value, the names listed, or the errno's name
"""
import ctypes
import errno
import os
import sys

FALLOC_FL_KEEP_SIZE = 1
FALLOC_FL_PUNCH_HOLE = 2
MODES = {"0": 0, "keep": FALLOC_FL_KEEP_SIZE,
         "punch": FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE}

libc = ctypes.CDLL(None, use_errno=True)
libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64,
                           ctypes.c_int64]


def seek_one(fd, off, whence):
    try:
        return str(os.lseek(fd, off, whence))
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))


def seek(path, offsets):
    fd = os.open(path, os.O_RDONLY)
    try:
        for off in offsets:
            print("%d data=%s hole=%s" % (off, seek_one(fd, off, os.SEEK_DATA),
                                          seek_one(fd, off, os.SEEK_HOLE)))
    finally:
        os.close(fd)


def seek_nohole(size, offsets):
    for off in offsets:
        ans = str(off) if off < size else "ENXIO"
        hole = str(size) if off < size else "ENXIO"
        print("%d data=%s hole=%s" % (off, ans, hole))


def fallocate(fd, mode, off, length):
    if libc.fallocate(fd, MODES[mode], off, length) == 0:
        return "ok"
    e = ctypes.get_errno()
    # ENOTSUP is the same number on Linux: say it as fallocate(2) does
    if e == errno.EOPNOTSUPP:
        return "EOPNOTSUPP"
    return errno.errorcode.get(e, str(e))


def answer(fn):
    try:
        r = fn()
    except OSError as e:
        if e.errno == errno.EOPNOTSUPP:
            return "EOPNOTSUPP"
        return errno.errorcode.get(e.errno, str(e.errno))
    if r is None:
        return "ok"
    if isinstance(r, bytes):
        return r.decode()
    return ",".join(sorted(r)) or "(none)"


def xattr(path):
    calls = [
        ("set", lambda: os.setxattr(path, "user.color", b"blue")),
        ("create", lambda: os.setxattr(path, "user.color", b"red",
                                       os.XATTR_CREATE)),
        ("get", lambda: os.getxattr(path, "user.color")),
        ("get-missing", lambda: os.getxattr(path, "user.none")),
        ("list", lambda: os.listxattr(path)),
        ("remove", lambda: os.removexattr(path, "user.color")),
        ("security", lambda: os.getxattr(path, "security.selinux")),
    ]
    for name, fn in calls:
        print(name, answer(fn))


def pattern(size):
    block = bytes((i * 7 + 3) % 251 for i in range(4096))
    return (block * (size // 4096 + 1))[:size]


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "seek":
        seek(args[0], [int(a) for a in args[1:]])
    elif cmd == "seek-nohole":
        seek_nohole(int(args[0]), [int(a) for a in args[1:]])
    elif cmd == "fallocate":
        fd = os.open(args[0], os.O_RDWR)
        print(fallocate(fd, args[1], int(args[2]), int(args[3])))
        os.close(fd)
    elif cmd == "write-punch":
        fd = os.open(args[0], os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
        os.write(fd, pattern(int(args[1])))
        print(fallocate(fd, "punch", int(args[2]), int(args[3])))
        os.close(fd)
    elif cmd == "xattr":
        xattr(args[0])
    elif cmd == "copy":
        src = os.open(args[0], os.O_RDONLY)
        dst = os.open(args[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        total = 0
        try:
            while True:
                n = os.copy_file_range(src, dst, 1 << 30)
                if n == 0:
                    break
                total += n
        except OSError as e:
            print(errno.errorcode.get(e.errno, str(e.errno)))
            sys.exit(1)
        os.close(src)
        os.close(dst)
        print(total)
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
