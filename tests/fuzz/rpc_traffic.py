#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""rpc_traffic.py EXPORT SUBDIR: real RPC traffic for the seed corpus.

Talks to the server on 127.0.0.1 (rpcbind, MOUNT v1/v3, NFSv3, NLM v4 and
the local statd) with hand-built calls, so that every decoder of ours sees
a reply of the real server: successes, failures and RPC-level errors.
SUBDIR is a scratch directory inside the export that capture.sh made
(with a.txt, bin, link -> a.txt and sub/); the calls change only it.
Run by capture.sh while dumpcap records the loopback interface.
"""
import socket
import struct
import sys

HOST = "127.0.0.1"
xid = 0x5eed0000
EXPORT, SUB = sys.argv[1], sys.argv[2]


def u32(v):
    return struct.pack(">I", v & 0xffffffff)


def u64(v):
    return struct.pack(">Q", v)


def opaque(b):
    return u32(len(b)) + b + b"\0" * ((4 - len(b) % 4) % 4)


def string(s):
    return opaque(s.encode() if isinstance(s, str) else s)


def authsys():
    body = u32(12345) + string("fuzzseed") + u32(0) + u32(0) + u32(1) + u32(0)
    return u32(1) + opaque(body)


class Conn:
    def __init__(self, port, udp=False):
        self.udp = udp
        if udp:
            self.s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            self.s.connect((HOST, port))
        else:
            self.s = socket.create_connection((HOST, port))
        self.s.settimeout(5)

    def call(self, prog, vers, proc, args=b"", cred=None):
        global xid
        xid += 1
        msg = (u32(xid) + u32(0) + u32(2) + u32(prog) + u32(vers) + u32(proc)
               + (cred or authsys()) + u32(0) + u32(0) + args)
        if self.udp:
            self.s.send(msg)
            rep = self.s.recv(65536)
        else:
            self.s.sendall(u32(0x80000000 | len(msg)) + msg)
            rep = b""
            while True:
                m = self.recvn(4)
                n = struct.unpack(">I", m)[0]
                rep += self.recvn(n & 0x7fffffff)
                if n & 0x80000000:
                    break
        return rep

    def recvn(self, n):
        b = b""
        while len(b) < n:
            c = self.s.recv(n - len(b))
            if not c:
                raise EOFError
            b += c
        return b


def body(rep):
    # skip xid, mtype, reply_stat, verf, accept_stat
    vlen = struct.unpack(">I", rep[16:20])[0]
    off = 20 + vlen + (4 - vlen % 4) % 4
    return rep[off + 4:]


def try_(f):
    try:
        return f()
    except Exception as e:  # keep going: we want traffic, not a test
        print("warn:", e, file=sys.stderr)


# --- portmapper / rpcbind
for udp in (False, True):
    pm = Conn(111, udp)
    pm.call(100000, 2, 0)
    pm.call(100000, 2, 3, u32(100003) + u32(3) + u32(6) + u32(0))
    pm.call(100000, 2, 3, u32(100005) + u32(3) + u32(17) + u32(0))
    pm.call(100000, 2, 3, u32(424242) + u32(1) + u32(6) + u32(0))
    if not udp:
        pm.call(100000, 2, 4)
    for v in (3, 4):
        pm.call(100000, v, 3, u32(100003) + u32(3) + string("tcp") + string("") + string(""))
        pm.call(100000, v, 3, u32(100021) + u32(4) + string("udp") + string("") + string(""))
        pm.call(100000, v, 3, u32(424242) + u32(1) + string("tcp") + string("") + string(""))
    # unknown program version: PROG_MISMATCH reply header
    pm.call(100000, 9, 0)
    pm.call(100000, 2, 99)  # PROC_UNAVAIL
# garbage args
try_(lambda: Conn(111).call(100000, 2, 3, b"\0\0"))

# --- MOUNT v1 and v3
mnt = Conn(20048)
mnt.call(100005, 3, 0)
r3 = mnt.call(100005, 3, 1, string(EXPORT))
mnt.call(100005, 3, 1, string("/no/such/export"))
mnt.call(100005, 1, 1, string(EXPORT))
mnt.call(100005, 3, 2)
mnt.call(100005, 1, 2)
mnt.call(100005, 3, 5)
mnt.call(100005, 1, 5)
mnt.call(100005, 3, 3, string(EXPORT))
mnt.call(100005, 9, 0)  # version mismatch
mntu = Conn(20048, True)
mntu.call(100005, 3, 5)
mntu.call(100005, 3, 1, string(EXPORT))

b = body(r3)
assert struct.unpack(">I", b[:4])[0] == 0, "mount failed"
fhlen = struct.unpack(">I", b[4:8])[0]
root = b[8:8 + fhlen]

# --- NFSv3
nfs = Conn(2049)


def fhof(rep):
    b = body(rep)
    if struct.unpack(">I", b[:4])[0] != 0:
        return None
    n = struct.unpack(">I", b[4:8])[0]
    return b[8:8 + n]


def lookup(dirfh, name):
    return nfs.call(100003, 3, 3, opaque(dirfh) + string(name))


NOSATTR = u32(0) * 4 + u32(0) + u32(0)
nfs.call(100003, 3, 0)
nfs.call(100003, 3, 1, opaque(root))
nfs.call(100003, 3, 1, opaque(b"\x01" * 20))  # bad handle
dfh = fhof(lookup(root, SUB))
lookup(root, "no-such-name")
afh = fhof(lookup(dfh, "a.txt"))
bfh = fhof(lookup(dfh, "bin"))
lfh = fhof(lookup(dfh, "link"))
subfh = fhof(lookup(dfh, "sub"))
nfs.call(100003, 3, 4, opaque(afh) + u32(0x3f))
nfs.call(100003, 3, 4, opaque(dfh) + u32(0x3f))
nfs.call(100003, 3, 5, opaque(lfh))
nfs.call(100003, 3, 5, opaque(afh))  # readlink of a file: INVAL
nfs.call(100003, 3, 6, opaque(afh) + u64(0) + u32(4096))
nfs.call(100003, 3, 6, opaque(bfh) + u64(1000) + u32(300))
nfs.call(100003, 3, 6, opaque(dfh) + u64(0) + u32(100))  # ISDIR
nfs.call(100003, 3, 7, opaque(afh) + u64(6) + u32(5) + u32(0) + opaque(b"world"))
nfs.call(100003, 3, 7, opaque(afh) + u64(0) + u32(3) + u32(2) + opaque(b"HEL"))
nfs.call(100003, 3, 21, opaque(afh) + u64(0) + u32(0))
# SETATTR: mode 0644, guarded with a wrong ctime (NOT_SYNC)
nfs.call(100003, 3, 2, opaque(afh) + u32(1) + u32(0o644) + u32(0) * 3 + u32(0) + u32(0) + u32(0))
nfs.call(100003, 3, 2, opaque(afh) + u32(1) + u32(0o600) + u32(0) * 3 + u32(0) + u32(0) + u32(1) + u32(1) + u32(2))
nfs.call(100003, 3, 2, opaque(bfh) + u32(0) * 3 + u32(1) + u64(10) + u32(1) + u32(1) + u32(0))
# CREATE unchecked, guarded (EXIST), exclusive
nfs.call(100003, 3, 8, opaque(dfh) + string("new") + u32(0) + u32(1) + u32(0o644) + u32(0) * 3 + u32(0) + u32(0))
nfs.call(100003, 3, 8, opaque(dfh) + string("new") + u32(1) + NOSATTR)
nfs.call(100003, 3, 8, opaque(dfh) + string("excl") + u32(2) + b"verf1234")
nfs.call(100003, 3, 9, opaque(dfh) + string("dir2") + u32(1) + u32(0o755) + u32(0) * 3 + u32(0) + u32(0))
nfs.call(100003, 3, 9, opaque(dfh) + string("dir2") + NOSATTR)  # EXIST
nfs.call(100003, 3, 10, opaque(dfh) + string("sl") + NOSATTR + string("../a/b/c"))
nfs.call(100003, 3, 11, opaque(dfh) + string("fifo2") + u32(7) + NOSATTR)
nfs.call(100003, 3, 11, opaque(dfh) + string("chr") + u32(4) + NOSATTR + u32(1) + u32(3))
nfs.call(100003, 3, 15, opaque(afh) + opaque(dfh) + string("hard"))
nfs.call(100003, 3, 14, opaque(dfh) + string("hard") + opaque(subfh) + string("moved"))
nfs.call(100003, 3, 14, opaque(dfh) + string("nothere") + opaque(subfh) + string("x"))
nfs.call(100003, 3, 12, opaque(subfh) + string("moved"))
nfs.call(100003, 3, 12, opaque(dfh) + string("nothere"))
nfs.call(100003, 3, 13, opaque(dfh) + string("dir2"))
nfs.call(100003, 3, 13, opaque(dfh) + string("sub"))  # NOTEMPTY
for cnt in (4096, 300):
    nfs.call(100003, 3, 16, opaque(dfh) + u64(0) + b"\0" * 8 + u32(cnt))
    nfs.call(100003, 3, 17, opaque(dfh) + u64(0) + b"\0" * 8 + u32(cnt) + u32(cnt * 4))
nfs.call(100003, 3, 16, opaque(afh) + u64(0) + b"\0" * 8 + u32(4096))  # NOTDIR
nfs.call(100003, 3, 17, opaque(subfh) + u64(0) + b"\0" * 8 + u32(4096) + u32(8192))
nfs.call(100003, 3, 18, opaque(root))
nfs.call(100003, 3, 19, opaque(root))
nfs.call(100003, 3, 20, opaque(root))
nfs.call(100003, 3, 12, opaque(dfh) + string("../x"))
nfs.call(100003, 3, 30, b"")      # PROC_UNAVAIL
nfs.call(100003, 2, 0)            # PROG_MISMATCH
nfs.call(100003, 3, 1, b"\0\0\0\xff")  # garbage args
nfs.call(100003, 3, 0, cred=u32(0) + u32(0))  # AUTH_NONE
nfs.call(100003, 3, 1, opaque(root), cred=u32(6) + opaque(b"x" * 8))  # bad flavor
nfsu = Conn(2049, True)
nfsu.call(100003, 3, 1, opaque(root))
nfsu.call(100003, 3, 19, opaque(root))

# --- NLM v4
nlm = Conn(32803)


def lock4(fh, svid, off, ln, owner=b"owner-1"):
    return string("fuzzseed") + opaque(fh) + opaque(owner) + u32(svid) + u64(off) + u64(ln)


nlm.call(100021, 4, 0)
nlm.call(100021, 4, 1, opaque(b"ck01") + u32(1) + lock4(afh, 1, 0, 10))
nlm.call(100021, 4, 2, opaque(b"ck02") + u32(0) + u32(1) + lock4(afh, 1, 0, 10) + u32(0) + u32(3))
nlm.call(100021, 4, 1, opaque(b"ck03") + u32(1) + lock4(afh, 2, 5, 10, b"owner-2"))
nlm.call(100021, 4, 2, opaque(b"ck04") + u32(0) + u32(1) + lock4(afh, 2, 5, 10, b"owner-2") + u32(0) + u32(3))
nlm.call(100021, 4, 3, opaque(b"ck05") + u32(0) + u32(1) + lock4(afh, 2, 5, 10, b"owner-2"))
nlm.call(100021, 4, 4, opaque(b"ck06") + lock4(afh, 1, 0, 10))
nlm.call(100021, 4, 4, opaque(b"") + lock4(afh, 1, 0, 0))
nlm.call(100021, 4, 20, opaque(b"ck07") + string("fuzzseed") + opaque(afh) + opaque(b"owner-1") + u32(0) + u32(1) + u32(0))
nlm.call(100021, 4, 21, opaque(b"ck08") + string("fuzzseed") + opaque(afh) + opaque(b"owner-1") + u32(0) + u32(1) + u32(0))
nlm.call(100021, 4, 1, opaque(b"ck09") + u32(0) + lock4(b"\x02" * 16, 1, 0, 10))  # stale fh
nlm.call(100021, 4, 22, opaque(b"ck10") + u32(0) + u32(0) + lock4(afh, 3, 0, 1) + u32(0) + u32(0))
nlm.call(100021, 4, 4, opaque(b"ck11") + lock4(afh, 3, 0, 1))
nlm.call(100021, 1, 0)  # version mismatch

# --- NSM (the local statd)
pm = Conn(111)
rep = pm.call(100000, 2, 3, u32(100024) + u32(1) + u32(6) + u32(0))
port = struct.unpack(">I", body(rep)[:4])[0]
if port:
    sm = Conn(port)
    sm.call(100024, 1, 0)
    sm.call(100024, 1, 1, string("127.0.0.1"))
    sm.call(100024, 1, 1, string("localhost"))
    sm.call(100024, 1, 3, string("fuzzseed.invalid") + string("127.0.0.1") + u32(100021) + u32(4) + u32(16))
    sm.call(100024, 1, 9)

# rquota: not one of ours, skipped
print("traffic done")
