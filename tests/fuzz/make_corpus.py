#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Build the seed corpus of the fuzz harnesses (tests/fuzz/corpus/).

    make_corpus.py pcap CAPTURE.pcapng OUTDIR   seeds from a capture
    make_corpus.py handmade OUTDIR               hand-made seeds

`pcap` reads the capture with tshark, reassembles each TCP direction,
splits it at the record marks (RFC 5531 section 11; UDP datagrams are
whole messages), pairs every reply with its call by XID and writes, with
the selector byte of the harness in front (see each fuzz_*.c):
  rpc_msg/  whole calls and replies (headers kept);
  nfs3/ mount/ pmap/ nlm/ nsm/  reply bodies (header stripped) and the
            call arguments that have a server-side decoder;
  record/   raw TCP byte streams, chunked as the segments arrived.
At most PER_KEY distinct seeds are kept per (harness, selector), none
over MAX_SEED bytes.
capture.sh makes a capture and runs both commands.
"""
import hashlib
import os
import struct
import subprocess
import sys

PER_KEY = 2
MAX_SEED = 8192  # bytes; larger messages (128 KiB READs) slow the fuzzer


def u32(v):
    return struct.pack(">I", v & 0xffffffff)


def u64(v):
    return struct.pack(">Q", v & 0xffffffffffffffff)


def opaque(b):
    if isinstance(b, str):
        b = b.encode()
    return u32(len(b)) + b + b"\0" * ((4 - len(b) % 4) % 4)


def fixed(b):
    return b + b"\0" * ((4 - len(b) % 4) % 4)


class Out:
    def __init__(self, root):
        self.root = root
        self.count = {}
        self.seen = set()

    def put(self, harness, key, desc, data, limit=PER_KEY):
        if len(data) > MAX_SEED:
            return
        h = hashlib.sha1(data).hexdigest()[:10]
        if (harness, h) in self.seen:
            return
        k = (harness, key)
        if self.count.get(k, 0) >= limit:
            return
        self.count[k] = self.count.get(k, 0) + 1
        self.seen.add((harness, h))
        d = os.path.join(self.root, harness)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "%s-%s" % (desc, h)), "wb") as f:
            f.write(data)


# ---------------------------------------------------------------- capture

def frames(pcap):
    fields = ["tcp.stream", "udp.stream", "tcp.srcport", "tcp.dstport",
              "udp.srcport", "udp.dstport", "tcp.payload", "udp.payload"]
    cmd = ["tshark", "-r", pcap, "-T", "fields"]
    for f in fields:
        cmd += ["-e", f]
    out = subprocess.run(cmd, check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        cols = line.split("\t")
        cols += [""] * (len(fields) - len(cols))
        ts, us, tsp, tdp, usp, udp_, tpl, upl = cols
        if ts and tpl:
            yield ("tcp", int(ts), int(tsp), int(tdp), bytes.fromhex(tpl))
        elif us and upl:
            yield ("udp", int(us), int(usp), int(udp_), bytes.fromhex(upl))


def split_records(stream):
    """Whole records of a TCP direction (a partial tail is dropped)."""
    recs, cur, off = [], b"", 0
    while len(stream) - off >= 4:
        m = struct.unpack(">I", stream[off:off + 4])[0]
        n = m & 0x7fffffff
        if len(stream) - off - 4 < n:
            break
        cur += stream[off + 4:off + 4 + n]
        off += 4 + n
        if m & 0x80000000:
            recs.append(cur)
            cur = b""
    return recs


def parse_call(m):
    """(xid, prog, vers, proc, args) or None."""
    if len(m) < 24:
        return None
    xid, mtype, rpcvers, prog, vers, proc = struct.unpack(">6I", m[:24])
    if mtype != 0 or rpcvers != 2:
        return None
    off = 24
    for _ in range(2):  # credential, verifier
        if len(m) < off + 8:
            return None
        n = struct.unpack(">I", m[off + 4:off + 8])[0]
        off += 8 + n + (4 - n % 4) % 4
    return xid, prog, vers, proc, m[off:]


def parse_reply(m):
    """(xid, body or None when not accepted SUCCESS) or None."""
    if len(m) < 12:
        return None
    xid, mtype, stat = struct.unpack(">3I", m[:12])
    if mtype != 1:
        return None
    if stat != 0 or len(m) < 20:
        return xid, None
    n = struct.unpack(">I", m[16:20])[0]
    off = 20 + n + (4 - n % 4) % 4
    if len(m) < off + 4 or struct.unpack(">I", m[off:off + 4])[0] != 0:
        return xid, None
    return xid, m[off + 4:]


NFS3_NAMES = ["null", "getattr", "setattr", "lookup", "access", "readlink",
              "read", "write", "create", "mkdir", "symlink", "mknod",
              "remove", "rmdir", "rename", "link", "readdir", "readdirplus",
              "fsstat", "fsinfo", "pathconf", "commit"]


def reply_seed(out, prog, vers, proc, body):
    sel = None
    if prog == 100003 and vers == 3 and 1 <= proc <= 21:
        out.put("nfs3", proc, "%02d-%s" % (proc, NFS3_NAMES[proc]),
                bytes([proc]) + body)
        if proc == 1 and body[:4] == u32(0):  # a real fattr3
            out.put("nfs3", 22, "22-fattr3", bytes([22]) + body[4:])
            out.put("nfs3", 23, "23-post_op_attr",
                    bytes([23]) + u32(1) + body[4:], 1)
        if proc == 3 and body[:4] == u32(0):  # a real handle
            n = struct.unpack(">I", body[4:8])[0]
            fh = body[4:8 + n + (4 - n % 4) % 4]
            out.put("nfs3", 0, "00-fh3", bytes([0]) + fh)
            out.put("nfs3", 25, "25-post_op_fh3", bytes([25]) + u32(1) + fh)
        if proc in (2, 12, 13) and len(body) > 4:  # a real wcc_data
            out.put("nfs3", 24, "24-wcc_data", bytes([24]) + body[4:])
        return
    if prog == 100005:
        sel = {(3, 1): 0, (1, 1): 1, (3, 5): 2, (1, 5): 2, (3, 2): 3,
               (1, 2): 3}.get((vers, proc))
        names = ["mnt3", "mnt1", "export", "dump"]
        if sel is not None:
            out.put("mount", sel, "%d-%s" % (sel, names[sel]),
                    bytes([sel]) + body)
        return
    if prog == 100000:
        if vers == 2:
            sel = {3: 0, 1: 1, 2: 1, 4: 2}.get(proc)
        elif proc == 3:
            sel = 3
        names = ["getport", "set", "dump", "getaddr"]
        if sel is not None:
            out.put("pmap", sel, "%d-%s" % (sel, names[sel]),
                    bytes([sel]) + body)
        if sel == 3:  # the universal address, raw
            n = struct.unpack(">I", body[:4])[0]
            out.put("pmap", 7, "7-uaddr", bytes([7]) + body[4:4 + n])
        return
    if prog == 100021 and vers == 4:
        sel = {1: 10, 2: 11, 3: 11, 4: 11, 5: 11, 22: 11, 20: 13,
               21: 13}.get(proc)
        names = {10: "testres_v4", 11: "res", 13: "shareres"}
        if sel is not None:
            out.put("nlm", sel, "%02d-%s" % (sel, names[sel]),
                    bytes([sel]) + body)
            if proc in (1, 2):
                out.put("nlm", (16, proc, 1), "16-table-v4-%d-res" % proc,
                        bytes([16, 2, proc << 1 | 1]) + body, 1)
        return
    if prog == 100024 and vers == 1:
        sel = {1: 4, 2: 4, 3: 5, 4: 5}.get(proc)
        names = {4: "stat_res", 5: "stat"}
        if sel is not None:
            out.put("nsm", sel, "%d-%s" % (sel, names[sel]),
                    bytes([sel]) + body)


def call_seed(out, prog, vers, proc, args):
    if prog == 100005 and proc in (1, 3):
        out.put("mount", 4, "4-dirpath_args", bytes([4]) + args)
    elif prog == 100000 and vers == 2 and proc in (1, 2, 3):
        out.put("pmap", 4, "4-getport_args", bytes([4]) + args)
        out.put("pmap", 6, "6-mapping", bytes([6]) + args)
    elif prog == 100000 and vers in (3, 4) and proc == 3:
        out.put("pmap", 5, "5-rpcb_args", bytes([5]) + args)
    elif prog == 100021 and vers == 4:
        sel = {1: 6, 2: 7, 22: 7, 3: 8, 4: 9, 20: 12, 21: 12,
               23: 14}.get(proc)
        names = {6: "testargs_v4", 7: "lockargs_v4", 8: "cancargs_v4",
                 9: "unlockargs_v4", 12: "shareargs", 14: "notify"}
        if sel is not None:
            out.put("nlm", sel, "%02d-%s" % (sel, names[sel]),
                    bytes([sel]) + args)
            if proc in (1, 2, 20):
                out.put("nlm", (16, proc, 0), "16-table-v4-%d-args" % proc,
                        bytes([16, 2, proc << 1]) + args, 1)
    elif prog == 100024 and vers == 1:
        sel = {1: 0, 4: 1, 3: 2, 2: 3, 6: 6}.get(proc)
        names = {0: "name", 1: "my_id", 2: "mon_id", 3: "mon",
                 6: "stat_chge"}
        if sel is not None:
            out.put("nsm", sel, "%d-%s" % (sel, names[sel]),
                    bytes([sel]) + args)


def record_seed(out, segs, n):
    """A record-reader input: limit byte, then (header, chunk) pairs; the
    zero-copy bit alternates.  At most MAX_SEED bytes of stream."""
    data, total = bytearray([0x80]), 0
    for i, s in enumerate(segs):
        s = s[:0x7fff]
        if total + len(s) > MAX_SEED - 2 * len(segs) - 1:
            break
        total += len(s)
        data += struct.pack(">H", len(s) | (0x8000 if i % 2 else 0)) + s
    if total:
        out.put("record", "tcp", "stream-%d" % n, bytes(data), 4)


def nfs4_reply_ops(pcap):
    """(client port, xid) -> the operation numbers of an NFSv4 COMPOUND
    reply, as tshark reads them (frames holding one reply only)."""
    cmd = ["tshark", "-r", pcap, "-Y", "rpc.msgtyp == 1 && nfs.opcode",
           "-T", "fields", "-e", "tcp.srcport", "-e", "tcp.dstport",
           "-e", "rpc.xid", "-e", "nfs.opcode"]
    ops = {}
    out = subprocess.run(cmd, check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        sp, dp, xid, opl = (line.split("\t") + [""] * 4)[:4]
        if not sp or "," in xid or not opl:
            continue
        client = max(int(sp), int(dp)) if min(int(sp), int(dp)) == 2049 \
            else int(dp)
        ops[(client, int(xid, 16))] = [int(o) for o in opl.split(",")]
    return ops


def nfs4_walk_seed(out, ops, body):
    """fuzz_nfs4 selector 0: the reply walked as the answer to its first
    8 operations (all of them ones the harness decodes)."""
    if not ops or any(o not in NFS4_OPS for o in ops):
        return
    ops = ops[:8]
    out.put("nfs4", ("walk", tuple(ops)), "0-walk-real",
            bytes([0, len(ops) - 1] + [NFS4_OPS.index(o) for o in ops]) +
            body)


def from_pcap(pcap, root):
    out = Out(root)
    streams = {}  # (stream, src, dst) -> [segments]
    udp = []
    for proto, sid, sp, dp, payload in frames(pcap):
        if proto == "tcp":
            streams.setdefault((sid, sp, dp), []).append(payload)
        else:
            udp.append((sid, sp, dp, payload))
    msgs = []  # (client port, message)
    for (sid, sp, dp), segs in streams.items():
        client = dp if sp < dp else sp
        for rec in split_records(b"".join(segs)):
            msgs.append((client, rec))
    for sid, sp, dp, payload in udp:
        msgs.append((dp if sp < dp else sp, payload))

    v4ops = nfs4_reply_ops(pcap)
    calls = {}
    for client, m in msgs:
        c = parse_call(m)
        if c:
            calls[(client, c[0])] = c[1:4]
            call_seed(out, *c[1:])
            out.put("rpc_msg", ("call", c[1]), "1-call", bytes([1]) + m)
    for client, m in msgs:
        r = parse_reply(m)
        if not r:
            continue
        xid, body = r
        out.put("rpc_msg", ("reply", body is None, len(m) > 64), "0-reply",
                bytes([0]) + m)
        out.put("rpc_msg", "xid", "2-xid", bytes([2]) + m[:8], 2)
        call = calls.get((client, xid))
        if call and body is not None:
            reply_seed(out, *call, body)
        if call == (100003, 4, 1) and body is not None:
            nfs4_walk_seed(out, v4ops.get((client, xid)), body)
    # Raw streams for the record reader: both directions, several sizes.
    n = 0
    for key, segs in sorted(streams.items(), key=lambda kv: len(kv[1])):
        record_seed(out, segs, n)
        n += 1


# --------------------------------------------------------------- handmade

FH3 = opaque(bytes(range(1, 29)))
FH2 = bytes(range(32))


def fattr3(ftype=1, size=11):
    return (u32(ftype) + u32(0o644) + u32(1) + u32(0) + u32(0) + u64(size) +
            u64(4096) + u32(0) + u32(0) + u64(0x1234) + u64(77) +
            u32(1700000000) + u32(5) + u32(1700000001) + u32(6) +
            u32(1700000002) + u32(999999999))


def poa(present=True):
    return u32(1) + fattr3() if present else u32(0)


def wcc():
    return u32(1) + u64(11) + u32(1) + u32(2) + u32(3) + u32(4) + poa()


def fattr2(ftype=1, rdev=0):
    return (u32(ftype) + u32(0o100644) + u32(1) + u32(0) + u32(0) +
            u32(11) + u32(4096) + u32(rdev) + u32(8) + u32(9) + u32(77) +
            u32(1700000000) + u32(5) + u32(1700000001) + u32(1000000) +
            u32(1700000002) + u32(999999))


def handmade(root):
    out = Out(root)
    P = lambda h, k, d, b: out.put(h, ("hand", k), "hand-" + d, b, 8)

    # NFSv3: empty and odd replies the server did not send us.
    ents = (u32(1) + u64(11) + opaque(".") + u64(1) +
            u32(1) + u64(12) + opaque("a-long-name-" * 3) + u64(2) + u32(0))
    P("nfs3", 16, "16-readdir-ok", bytes([16]) + u32(0) + poa() +
      b"verifier" + ents + u32(1))
    P("nfs3", 16, "16-readdir-empty", bytes([16]) + u32(0) + poa(False) +
      b"\0" * 8 + u32(0) + u32(1))
    plus = (u32(1) + u64(11) + opaque("x") + u64(1) + poa() + u32(1) + FH3 +
            u32(1) + u64(12) + opaque("y") + u64(2) + poa(False) + u32(0) +
            u32(0))
    P("nfs3", 17, "17-readdirplus-ok", bytes([17]) + u32(0) + poa() +
      b"verifier" + plus + u32(0))
    P("nfs3", 17, "17-readdirplus-badcookie", bytes([17]) + u32(10003) +
      poa())
    P("nfs3", 6, "06-read-eof", bytes([6]) + u32(0) + poa() + u32(5) +
      u32(1) + opaque("hello"))
    P("nfs3", 6, "06-read-huge-len", bytes([6]) + u32(0) + poa(False) +
      u32(5) + u32(1) + u32(0xfffffffc) + b"abcd")
    P("nfs3", 5, "05-readlink", bytes([5]) + u32(0) + poa(False) +
      opaque("../target"))
    P("nfs3", 8, "08-create-nofh", bytes([8]) + u32(0) + u32(0) +
      poa(False) + wcc())
    P("nfs3", 3, "03-lookup-jukebox", bytes([3]) + u32(10008) + poa())
    P("nfs3", 7, "07-write-ok", bytes([7]) + u32(0) + wcc() + u32(5) +
      u32(2) + b"wverf123")
    P("nfs3", 0, "00-fh3-toolong", bytes([0]) + u32(65) + b"\0" * 68)
    P("nfs3", 22, "22-fattr3-fifo", bytes([22]) + fattr3(7, 0))

    # RPC headers the server does not send unprompted.
    P("rpc_msg", 0, "0-denied-mismatch",
      bytes([0]) + u32(7) + u32(1) + u32(1) + u32(0) + u32(2) + u32(2))
    P("rpc_msg", 0, "0-denied-auth",
      bytes([0]) + u32(8) + u32(1) + u32(1) + u32(1) + u32(5))
    P("rpc_msg", 0, "0-prog-mismatch", bytes([0]) + u32(9) + u32(1) +
      u32(0) + u32(0) + u32(0) + u32(2) + u32(3) + u32(4))
    authsys = u32(1) + opaque(u32(42) + opaque("host") + u32(1000) +
                              u32(1000) + u32(16) +
                              b"".join(u32(i) for i in range(16)))
    P("rpc_msg", 1, "1-call-authsys16", bytes([1]) + u32(5) + u32(0) +
      u32(2) + u32(100003) + u32(3) + u32(1) + authsys + u32(0) + u32(0))
    P("rpc_msg", 1, "1-call-rpcvers3", bytes([1]) + u32(5) + u32(0) +
      u32(3) + u32(100003) + u32(3) + u32(1) + u32(0) * 4)

    # MOUNT: lists with content.
    exp = (u32(1) + opaque("/export") + u32(1) + opaque("host-a") + u32(1) +
           opaque("*.example") + u32(0) + u32(1) + opaque("/b") + u32(0) +
           u32(0))
    P("mount", 2, "2-export-groups", bytes([2]) + exp)
    dump = (u32(1) + opaque("client1") + opaque("/export") + u32(1) +
            opaque("c2") + opaque("/export/sub") + u32(0))
    P("mount", 3, "3-dump", bytes([3]) + dump)
    P("mount", 0, "0-mnt3-many-flavors", bytes([0]) + u32(0) + FH3 +
      u32(20) + b"".join(u32(i) for i in range(20)))
    P("mount", 1, "1-mnt1-ok", bytes([1]) + u32(0) + FH2)
    P("mount", 0, "0-mnt3-acces", bytes([0]) + u32(13))

    # Portmapper.
    P("pmap", 2, "2-dump", bytes([2]) + u32(1) +
      u32(100000) + u32(2) + u32(6) + u32(111) + u32(0))
    for ua in ("::1.8.1", "1.2.256", ".8.1"):
        P("pmap", 7, "7-uaddr", bytes([7]) + ua.encode())
    P("pmap", 3, "3-getaddr-empty", bytes([3]) + u32(0))

    # NLM versions 1 and 3 (32-bit ranges), which ganesha does not serve.
    def lock1(off, ln):
        return (opaque("client") + opaque(FH2) + opaque("owner") + u32(7) +
                u32(off) + u32(ln))
    ck = opaque("cookie")
    P("nlm", 1, "01-testargs_v1", bytes([1]) + ck + u32(1) + lock1(0, 10))
    P("nlm", 2, "02-lockargs_v1", bytes([2]) + ck + u32(1) + u32(1) +
      lock1(0xffffffff, 0) + u32(0) + u32(3))
    P("nlm", 3, "03-cancargs_v1", bytes([3]) + ck + u32(0) + u32(1) +
      lock1(5, 5))
    P("nlm", 4, "04-unlockargs_v1", bytes([4]) + ck + lock1(0, 0))
    P("nlm", 5, "05-testres_v1-denied", bytes([5]) + ck + u32(1) + u32(1) +
      u32(9) + opaque("owner") + u32(0) + u32(100))
    P("nlm", 10, "10-testres_v4-denied", bytes([10]) + ck + u32(1) +
      u32(0) + u32(9) + opaque("owner") + u64(1 << 40) + u64(0))
    P("nlm", 14, "14-notify", bytes([14]) + opaque("client.example") +
      u32(3))
    P("nlm", 0, "00-netobj", bytes([0]) + opaque(b"\0\1\2"))
    P("nlm", 16, "16-table-v1-granted", bytes([16, 0, 5 << 1]) + ck +
      u32(1) + lock1(0, 10))
    P("nlm", 16, "16-table-v3-share", bytes([16, 1, 20 << 1]) + ck +
      opaque("c") + opaque(FH2) + opaque("o") + u32(1) + u32(3) + u32(0))

    # NSM: the statd side.
    P("nsm", 3, "3-mon", bytes([3]) + opaque("server") + opaque("client") +
      u32(100021) + u32(4) + u32(16) + bytes(range(16)))
    P("nsm", 6, "6-stat_chge", bytes([6]) + opaque("server") + u32(5))
    P("nsm", 7, "7-status", bytes([7]) + opaque("server") + u32(7) +
      bytes(range(16)))
    P("nsm", 8, "8-table-mon", bytes([8, 2 << 1]) + opaque("server") +
      opaque("client") + u32(100021) + u32(4) + u32(16) + bytes(16))
    P("nsm", 8, "8-table-stat-res", bytes([8, 1 << 1 | 1]) + u32(0) +
      u32(3))

    # NFSv2 (RFC 1094): one seed per decoder.
    ents2 = (u32(1) + u32(11) + opaque(".") + u32(1) + u32(1) + u32(12) +
             opaque("file") + u32(2) + u32(0))
    for sel, desc, body in [
            (0, "void", b""),
            (1, "getattr", u32(0) + fattr2()),
            (2, "setattr-err", u32(1)),
            (4, "lookup", u32(0) + FH2 + fattr2(2)),
            (5, "readlink", u32(0) + opaque("../t")),
            (6, "read", u32(0) + fattr2() + opaque("hello")),
            (8, "write", u32(0) + fattr2()),
            (9, "create", u32(0) + FH2 + fattr2(4, 0xffffffff)),
            (11, "rename-wflush", u32(99)),
            (16, "readdir", u32(0) + ents2 + u32(1)),
            (16, "readdir-empty", u32(0) + u32(0) + u32(0)),
            (17, "statfs", u32(0) + u32(8192) + u32(4096) + u32(100) +
             u32(50) + u32(40)),
            (18, "fh", FH2),
            (19, "fattr-fifo", fattr2(8)),
            (20, "sattr", u32(0o644) + u32(0xffffffff) * 3 +
             u32(1) + u32(1000000) + u32(0xffffffff) * 2),
            (24, "sattr3", u32(31) + u32(0o755) + u32(1) + u32(2) +
             u64(100) + u32(1) + u32(0) + u32(0) + u32(2) + u32(5) +
             u32(6) + u32(1700000000) + u32(0)),
            (25, "ranges", u64(0x7fffe000) + u32(65536)),
            (26, "entries", ents2)]:
        P("nfs2", (sel, desc), "%02d-%s" % (sel, desc), bytes([sel]) + body)

    # Record reader: hand-made edge cases.
    def chunk(b, direct=False):
        return struct.pack(">H", len(b) | (0x8000 if direct else 0)) + b
    two = (u32(0x00000004) + b"abcd" + u32(0x80000002) + b"ef" +
           u32(0x80000000))
    P("record", 0, "frags-split", bytes([0x80]) + chunk(two[:3]) +
      chunk(two[3:9], True) + chunk(two[9:]))
    P("record", 1, "over-limit", bytes([2]) + chunk(u32(0x80000011) +
      b"x" * 17) + chunk(u32(0x80000001) + b"y"))
    P("record", 2, "empty-records", bytes([0x80]) + chunk(u32(0x80000000) *
      3))

    # NFSv2 -> NFSv3 conversion: v3 procedure, offset, count, v2 reply.
    def fix(proc, desc, body, off=0, cnt=0):
        P("nfs2_fixup", (proc, desc), "%02d-%s" % (proc, desc),
          bytes([proc]) + u64(off) + u32(cnt) + body)
    statfs = u32(0) + u32(8192) + u32(4096) + u32(100) + u32(50) + u32(40)
    for proc, desc, body, off, cnt in [
            (1, "getattr", u32(0) + fattr2(), 0, 0),
            (2, "setattr", u32(0) + fattr2(), 0, 0),
            (3, "lookup", u32(0) + FH2 + fattr2(2), 0, 0),
            (5, "readlink", u32(0) + opaque("../t"), 0, 0),
            (6, "read-mid", u32(0) + fattr2() + opaque("hello"), 0, 5),
            (6, "read-eof", u32(0) + fattr2() + opaque("hello"), 6, 5),
            (7, "write", u32(0) + fattr2(), 0, 5),
            (7, "write-nospc", u32(28), 100, 8192),
            (8, "create", u32(0) + FH2 + fattr2(), 0, 0),
            (10, "symlink", u32(0), 0, 0),
            (11, "mknod-fifo", u32(0) + FH2 + fattr2(4, 0xffffffff), 0, 0),
            (12, "remove-stale", u32(70), 0, 0),
            (14, "rename", u32(0), 0, 0),
            (16, "readdir", u32(0) + ents2 + u32(1), 0, 4096),
            (16, "readdir-empty", u32(0) + u32(0) + u32(0), 2, 512),
            (17, "readdirplus", u32(0) + ents2 + u32(0), 1, 8192),
            (18, "fsstat", statfs, 0, 0),
            (19, "fsinfo", statfs, 0, 0),
            (19, "fsinfo-tsize0", u32(0) + u32(0) * 5, 0, 0)]:
        fix(proc, desc, body, off, cnt)

    # Callback listener: calls as a TCP stream or as datagrams.
    def rec(b):
        return u32(0x80000000 | len(b)) + b

    def call(xid, prog, vers, proc, args=b""):
        return (u32(xid) + u32(0) + u32(2) + u32(prog) + u32(vers) +
                u32(proc) + u32(0) * 4 + args)
    lock4 = (opaque("server") + opaque("handle!") + opaque("owner") + u32(7) +
             u64(16) + u64(32))
    granted4 = ck + u32(1) + lock4
    granted1 = ck + u32(1) + (opaque("server") + opaque("handle!") +
                              opaque("owner") + u32(7) + u32(16) + u32(32))
    status = opaque("server") + u32(5) + b"\0" * 16
    g = call(1, 100021, 4, 5, granted4)
    stream = (u32(24) + g[:24] + u32(0x80000000 | (len(g) - 24)) + g[24:] +
              rec(call(2, 100021, 4, 10, granted4)) +
              rec(call(3, 100021, 4, 0)))
    P("listener", 0, "granted-server", bytes([0x10]) + chunk(stream[:30]) +
      chunk(stream[30:]))
    P("listener", 1, "granted-v1-other", bytes([0x11]) +
      chunk(rec(call(4, 100021, 1, 5, granted1)) +
            rec(call(5, 100021, 3, 10, granted1))))
    P("listener", 2, "misc", bytes([0x10]) +
      chunk(rec(call(6, 100021, 2, 5)) + rec(call(7, 100021, 4, 99)) +
            rec(call(8, 100003, 3, 0)) + rec(call(9, 100021, 4, 11)) +
            rec(call(10, 0x4e465301, 1, 1, status)) +
            rec(call(11, 100021, 4, 16, status))))
    P("listener", 3, "statd-loopback", bytes([0x12]) +
      chunk(rec(call(12, 0x4e465301, 1, 1, status)) +
            rec(call(13, 0x4e465301, 1, 0)) + rec(call(14, 0x4e465301, 1, 2))))
    P("listener", 4, "dgram-nlm", bytes([0x04]) +
      chunk(call(15, 100021, 4, 5, granted4)) +
      chunk(call(16, 100021, 4, 10, granted4)) + chunk(b"\0\0"))
    P("listener", 5, "dgram-statd", bytes([0x0e]) +
      chunk(call(17, 0x4e465301, 1, 1, status)) +
      chunk(call(18, 100021, 4, 0)))
    P("listener", 6, "over-limit", bytes([0x00]) +
      chunk(rec(call(19, 100021, 4, 0)) + u32(0x80000101) + b"x" * 8))
    # An empty record: no call, no reply (it once reached the decoder as a
    # null buffer).
    P("listener", 7, "empty-record", bytes([0x00]) +
      chunk(u32(0x80000000) * 2 + rec(call(20, 100021, 4, 0))))

    # nlm_client's reply reader: decoder, XID waited for, the stream.
    def reply(xid, body, accept=0):
        return u32(xid) + u32(1) + u32(0) + u32(0) + u32(0) + u32(accept) + body
    res = ck + u32(0)
    P("nlm_client", 0, "late-then-ours", bytes([0]) + u32(5) +
      rec(reply(4, res)) + rec(reply(5, res)) + rec(reply(5, res)))
    denied = (ck + u32(1) + u32(1) + u32(9) + opaque("owner") + u64(1 << 40) +
              u64(0))
    r = reply(6, denied)
    P("nlm_client", 1, "testres4-frags", bytes([1]) + u32(6) +
      u32(20) + r[:20] + u32(0x80000000 | (len(r) - 20)) + r[20:])
    P("nlm_client", 2, "testres1-denied", bytes([2]) + u32(7) +
      rec(reply(7, ck + u32(1) + u32(0) + u32(9) + opaque("o") + u32(0) +
                u32(100))))
    P("nlm_client", 3, "prog-unavail", bytes([0]) + u32(8) +
      rec(reply(8, b"", 1)))
    P("nlm_client", 4, "denied-auth", bytes([3]) + u32(9) +
      rec(u32(9) + u32(1) + u32(1) + u32(1) + u32(5)))
    P("nlm_client", 5, "over-limit", bytes([0]) + u32(10) +
      u32(0x80010001) + b"x" * 16)
    P("nlm_client", 6, "empty-record", bytes([0]) + u32(11) +
      u32(0x80000000) + rec(reply(11, res)))

    # Options: command lines (NUL-separated argv).
    for i, argv in enumerate([
            ["nfsfuse", "127.0.0.1:/export", "/mnt"],
            ["nfsfuse", "-o", "vers=3,proto=tcp,port=2049,mountport=20048,"
             "rsize=65536,wsize=65536,timeo=600,retrans=2,soft",
             "server:/a/b", "/mnt/x"],
            ["nfsfuse", "-f", "-d", "-oactimeo=5,noac,nocto,nordirplus",
             "[::1]:/export", "/mnt"],
            ["nfsfuse", "-o", "lookupcache=positive,cache_size=64m,"
             "hostname=client,allow_other,_netdev,defaults",
             "h:/e", "/m"],
            ["nfsfuse", "-o", "vers=2,mountvers=1,proto=udp", "h:/e", "/m"],
            ["nfsfuse", "-o", "acregmin=10,acregmax=5", "h:/e", "/m"],
            ["nfsfuse", "--help"],
            ["nfsfuse", "-V"],
            ["nfsfuse", "-o"],
            ["nfsfuse", "-o", "rsize=12abc", "h:/e", "/m"],
            ["nfsfuse", "h:relative", "/m"],
            ["nfsfuse", "-x", "h:/e", "/m", "extra"],
            ["nfsfuse", "nfs://127.0.0.1:2049/export%20dir?vers=3&rsize="
             "65536", "/m"],
            ["nfsfuse", "nfs://[::1]/e?proto=udp", "/m"],
            ["nfsfuse", "nfs://h/%2", "/m"],
            ["nfsfuse", "--list-exports", "127.0.0.1"],
            ["nfsfuse", "-o", "mountport=20048", "--list-exports=[::1]"],
            ["nfsfuse", "--list-exports", "nfs://h:1/"]]):
        P("options", i, "argv%02d" % i, "\0".join(argv).encode())

    handmade_nfs4(lambda h, k, d, b: out.put(h, ("hand", k), "hand-" + d, b,
                                               1))


# ---------------------------------------------------------------- NFSv4

# The operations fuzz_nfs4 can decode results of, in its table order,
# and the callbacks fuzz_nfs4_cb knows.
NFS4_OPS = [3, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 21, 22,
            24, 25, 26, 27, 28, 29, 31, 32, 34, 37, 38, 41, 42, 43, 44, 45,
            52, 53, 55, 57, 58, 59, 60, 62, 69]
NFS4_CB_OPS = [3, 4, 5, 8, 11, 13]
SID4 = bytes(range(16))
ST4 = u32(1) + bytes(range(0xa0, 0xac))
VERF4 = b"verifier"


def bitmap4(*bits):
    words = [0] * (max(bits) // 32 + 1 if bits else 0)
    for b in bits:
        words[b // 32] |= 1 << (b % 32)
    return u32(len(words)) + b"".join(u32(w) for w in words)


def fattr4(vals):
    """vals: [(bit, xdr bytes)] in bit order."""
    return bitmap4(*[b for b, _ in vals]) + opaque(b"".join(v for _, v in vals))


def nfstime4(s, ns=0):
    return u64(s) + u32(ns)


def fattr4_full(ftype=1):
    ace = u32(0) + u32(0) + u32(0x1f01ff) + opaque("OWNER@")
    return fattr4([(0, bitmap4(0, 1, 3, 4, 8, 20, 33, 35, 36, 37, 45, 53)),
                   (1, u32(ftype)), (2, u32(0)), (3, u64(0x1234)),
                   (4, u64(4096)), (5, u32(1)), (6, u32(1)),
                   (8, u64(1) + u64(2)), (10, u32(90)), (11, u32(0)),
                   (12, u32(1) + ace), (13, u32(3)),
                   (19, opaque(b"\x01\x02\x03\x04")), (20, u64(77)),
                   (21, u64(100)), (22, u64(100)), (23, u64(1000)),
                   (27, u64(1 << 40)), (29, u32(255)), (30, u64(1 << 20)),
                   (31, u64(1 << 20)), (33, u32(0o644)), (35, u32(1)),
                   (36, opaque("root@localdomain")),
                   (37, opaque("4242")), (41, u32(0) + u32(0)),
                   (42, u64(1 << 30)), (43, u64(1 << 30)),
                   (44, u64(1 << 31)), (45, u64(4096)),
                   (47, nfstime4(1700000000, 5)), (51, nfstime4(0, 1)),
                   (52, nfstime4(1700000001)), (53, nfstime4(1700000002)),
                   (55, u64(77)), (75, bitmap4(4, 33))])


def nfs4_results():
    """(op, result) pairs, each a plausible reply of the test server."""
    ok = u32(0)
    cinfo = u32(1) + u64(1) + u64(2)
    owner = u64(9) + opaque("lock-owner")
    entries = (u32(1) + u64(3) + opaque("a") + fattr4([(20, u64(11))]) +
               u32(1) + u64(4) + opaque("bb") + fattr4_full(2) + u32(0))
    return [
        (53, ok + SID4 + u32(1) + u32(0) + u32(63) + u32(63) + u32(0)),
        (53, u32(10052)),
        (42, ok + u64(0x5a5a) + u32(1) + u32(0x10001) + u32(0) + u64(0) +
         opaque("ganesha") + opaque("") + u32(1) + opaque("nfs-ganesha") +
         opaque("4.3") + nfstime4(0)),
        (42, ok + u64(1) + u32(1) + u32(0) + u32(1) + bitmap4(53) +
         bitmap4() + u64(0) + opaque("x") + opaque("s") + u32(0)),
        (43, ok + SID4 + u32(1) + u32(2) +
         b"".join(u32(v) for v in (0, 1 << 20, 1 << 20, 4096, 16, 64, 0)) +
         b"".join(u32(v) for v in (0, 4096, 4096, 0, 2, 1, 0))),
        (41, ok + SID4 + u32(3) + u32(0)),
        (24, ok), (22, u32(70)), (15, u32(2)), (10, ok + opaque(b"\1" * 28)),
        (9, ok + fattr4_full()), (9, u32(10032)),
        (52, ok + u32(2) + u32(6) + opaque(b"\x2a\x86\x48\x86\xf7\x12\x01"
                                          b"\x02\x02") + u32(0) + u32(1) +
         u32(1)),
        (3, ok + u32(0x3f) + u32(0x1f)),
        (18, ok + ST4 + cinfo + u32(4) + bitmap4(33) + u32(1) + ST4 +
         u32(0) + u32(0) + u32(0) + u32(1) + opaque("EVERYONE@")),
        (18, ok + ST4 + cinfo + u32(4) + bitmap4() + u32(2) + ST4 + u32(1) +
         u32(2) + u32(10) + u32(512) + u32(0) + u32(0) + u32(6) +
         opaque("OWNER@")),
        (18, ok + ST4 + cinfo + u32(0) + bitmap4() + u32(3) + u32(3)),
        (18, ok + ST4 + cinfo + u32(0) + bitmap4() + u32(3) + u32(1) + u32(1)),
        (21, ok + ST4), (4, ok + ST4), (14, u32(10025)),
        (25, ok + u32(1) + opaque("hello, world")),
        (38, ok + u32(12) + u32(0) + VERF4), (5, ok + VERF4),
        (6, ok + cinfo + bitmap4(33)), (28, ok + cinfo),
        (29, ok + cinfo + cinfo), (11, ok + cinfo),
        (27, ok + opaque("../target")),
        (26, ok + VERF4 + entries + u32(1)),
        (26, ok + VERF4 + u32(0) + u32(1)),
        (34, u32(13) + bitmap4()), (34, ok + bitmap4(4, 33)),
        (37, u32(10027)), (17, ok),
        (12, ok + ST4), (12, u32(10010) + u64(0) + u64(10) + u32(2) + owner),
        (13, u32(10010) + u64(5) + u64(1) + u32(1) + owner), (13, ok),
        (8, ok), (45, ok), (55, ok + u32(2) + u32(0) + u32(10025)),
        (69, ok + u32(0) + u64(8192)), (69, u32(10004)),
        (59, ok), (62, ok),
        (60, ok + u32(0) + u64(100) + u32(2) + VERF4 + u32(1) + u32(1)),
        (60, ok + u32(1) + ST4 + u64(0) + u32(0) + VERF4 + u32(1) + u32(0)),
        (60, u32(10094) + u32(0) + u32(1)),
        (44, ok), (57, ok), (58, u32(10054)),
    ]


def compound4_reply(results, status=None):
    if status is None:
        status = 0
        for _, r in results:
            status = struct.unpack(">I", r[:4])[0]
    return (u32(status) + opaque("") + u32(len(results)) +
            b"".join(u32(op) + r for op, r in results))


def handmade_nfs4(P):
    res = nfs4_results()
    by_op = {}
    for i, (op, r) in enumerate(res):
        by_op.setdefault(op, r)
        P("nfs4", ("res", i), "1-%s-%02d" % (op, i),
          bytes([1, NFS4_OPS.index(op)]) + r)
    seq = (53, by_op[53])
    first = lambda op, st: [r for o, r in res if o == op and r[:4] == u32(st)]
    walks = [
        [seq, (24, u32(0)), (10, by_op[10]), (9, by_op[9])],
        [seq, (22, u32(0)), (18, first(18, 0)[0]), (10, by_op[10]),
         (9, by_op[9])],
        [seq, (22, u32(0)), (26, by_op[26])],
        [seq, (22, u32(0)), (15, u32(2))],
        [seq, (22, u32(0)), (25, by_op[25])],
        [seq, (22, u32(0)), (12, first(12, 10010)[0])],
        [(42, by_op[42])], [(43, by_op[43])],
    ]
    for i, w in enumerate(walks):
        P("nfs4", ("walk", i), "0-walk-%d" % i,
          bytes([0, len(w) - 1] + [NFS4_OPS.index(op) for op, _ in w]) +
          compound4_reply(w))
    # a 4.2 operation a 4.1 server does not know
    P("nfs4", ("walk", 90), "0-walk-illegal",
      bytes([0, 2, NFS4_OPS.index(53), NFS4_OPS.index(22),
             NFS4_OPS.index(69)]) +
      compound4_reply([seq, (22, u32(0)), (10044, u32(10044))]))
    P("nfs4", "fattr", "2-fattr-full", bytes([2]) + fattr4_full())
    P("nfs4", "fattr-skip", "2-fattr-unknown",
      bytes([2]) + bitmap4(4, 24) + opaque(u64(9) + b"\0" * 8))
    for i, t in enumerate([ST4, opaque(b"\1" * 128), bitmap4(1, 3, 75),
                           nfstime4(1, 2), u64(9) + opaque("o")]):
        P("nfs4", ("type", i), "3-type-%d" % i, bytes([3, i]) + t)

    # callbacks: a CB_SEQUENCE and then each callback in turn
    cb_seq = (SID4 + u32(5) + u32(0) + u32(0) + u32(0) + u32(1) + SID4 +
              u32(1) + u32(7) + u32(3))
    fh = opaque(b"\xde\xad\xbe\xef")
    cb_args = {
        3: fh + bitmap4(3, 4),
        4: ST4 + u32(0) + fh,
        5: u32(1) + u32(3) + u32(1) + u32(1) + fh + u64(0) + u64(2**64 - 1) +
        ST4,
        8: u32(0) + bitmap4(0, 1),
        11: cb_seq,
        13: fh + u64(9) + opaque("lk"),
    }
    for op, a in cb_args.items():
        P("nfs4_cb", ("args", op), "1-args-%d" % op,
          bytes([1, NFS4_CB_OPS.index(op)]) + a)
        if op != 11:
            P("nfs4_cb", ("walk", op), "0-cb-compound-%d" % op,
              bytes([0]) + opaque("") + u32(1) + u32(0) + u32(2) +
              u32(11) + cb_seq + u32(op) + a)
    P("nfs4_cb", ("walk", 6), "0-cb-compound-notify",
      bytes([0]) + opaque("t") + u32(1) + u32(0) + u32(2) + u32(11) + cb_seq +
      u32(6) + b"\0" * 16)
    cb_res = {3: u32(0) + fattr4([(3, u64(1)), (4, u64(2))]),
              4: u32(0), 5: u32(10060), 8: u32(0),
              11: u32(0) + SID4 + u32(5) + u32(0) + u32(0) + u32(0),
              13: u32(0)}
    for op, r in cb_res.items():
        P("nfs4_cb", ("res", op), "2-res-%d" % op,
          bytes([2, NFS4_CB_OPS.index(op)]) + r)


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "pcap":
        from_pcap(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "handmade":
        handmade(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
