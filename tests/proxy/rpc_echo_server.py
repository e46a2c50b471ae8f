#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Tiny ONC RPC echo server and client for the nfsproxy self-test.

serve:  answers every call with an accepted, successful reply whose results
        are the call's arguments, over TCP (record marking) and UDP on the
        same port number.
client: sends COUNT calls through the proxy and reports, per XID, how many
        replies came back and whether they echo the arguments.  Output is
        one "key=value ..." summary line the shell test can check.
ctl:    sends one line to the proxy's control socket and prints the answer.

Only loopback addresses are used.
"""
import argparse
import os
import socket
import struct
import sys
import threading
import time

HOST = "127.0.0.1"
CALL_HDR = 40   # xid, CALL, rpcvers, prog, vers, proc, cred(2), verf(2)
REPLY_HDR = 24  # xid, REPLY, MSG_ACCEPTED, verf(2), SUCCESS
XID_BASE = 0x10000000


def recv_exact(sock, n):
    buf = b""
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            return None
        buf += chunk
    return buf


def recv_record(sock):
    """One record, fragments joined; None on EOF."""
    body = b""
    while True:
        mark = recv_exact(sock, 4)
        if mark is None:
            return None
        (word,) = struct.unpack(">I", mark)
        frag = recv_exact(sock, word & 0x7FFFFFFF)
        if frag is None:
            return None
        body += frag
        if word & 0x80000000:
            return body


def send_record(sock, body, frag=0):
    """Sends body, split in fragments of frag bytes when frag > 0."""
    out = b""
    pieces = [body[i:i + frag] for i in range(0, len(body), frag)] if frag else [body]
    for i, p in enumerate(pieces):
        last = 0x80000000 if i == len(pieces) - 1 else 0
        out += struct.pack(">I", last | len(p)) + p
    sock.sendall(out)


def make_reply(call):
    if len(call) < 4:
        return None
    args = call[CALL_HDR:] if len(call) >= CALL_HDR else b""
    return call[:4] + struct.pack(">IIIII", 1, 0, 0, 0, 0) + args


def make_call(xid, args):
    return struct.pack(">IIIIIIIIII", xid, 0, 2, 0x20000099, 1, 1, 0, 0, 0, 0) + args


def call_args(i):
    # An opaque<>: a small length word, so "enlarge" has something to find.
    data = bytes((i + k) & 0xFF for k in range(16 + i % 16))
    pad = b"\0" * (-len(data) % 4)
    return struct.pack(">I", len(data)) + data + pad


# ---- server ----

def serve_tcp_conn(conn):
    with conn:
        while True:
            try:
                call = recv_record(conn)
            except OSError:
                return
            if call is None:
                return
            reply = make_reply(call)
            if reply is not None:
                try:
                    send_record(conn, reply)
                except OSError:
                    return


def serve(args):
    for _ in range(50):
        tsock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        tsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        tsock.bind((HOST, 0))
        port = tsock.getsockname()[1]
        usock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            usock.bind((HOST, port))
            break
        except OSError:
            tsock.close()
            usock.close()
    else:
        sys.exit("rpc_echo_server: no port free for both TCP and UDP")
    tsock.listen(16)

    def udp_loop():
        while True:
            data, addr = usock.recvfrom(65536)
            reply = make_reply(data)
            if reply is not None:
                usock.sendto(reply, addr)

    threading.Thread(target=udp_loop, daemon=True).start()
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % port)
    os.rename(tmp, args.port_file)
    while True:
        conn, _ = tsock.accept()
        threading.Thread(target=serve_tcp_conn, args=(conn,), daemon=True).start()


# ---- client ----

class Tally:
    def __init__(self):
        self.replies = {}
        self.bad = 0
        self.short = 0
        self.lens = []

    def add(self, rec, expect):
        self.lens.append(len(rec))
        if len(rec) < 4:
            self.bad += 1
            return
        (xid,) = struct.unpack(">I", rec[:4])
        self.replies[xid] = self.replies.get(xid, 0) + 1
        want = expect.get(xid)
        if want is None:
            self.bad += 1
        elif len(rec) < len(want):
            self.short += 1
        elif rec != want:
            self.bad += 1

    def count(self):
        return sum(self.replies.values())

    def summary(self, sent, extra=""):
        got = sum(self.replies.values())
        dup = sum(1 for n in self.replies.values() if n > 1)
        return ("sent=%d got=%d distinct=%d dupxids=%d bad=%d short=%d%s"
                % (sent, got, len(self.replies), dup, self.bad, self.short, extra))


def wait_time(args, tally):
    """How long to wait for the next reply: up to the --bound while fewer
    than --expect replies have come (a loaded machine may be slow to
    deliver them) or fewer than --expect-distinct XIDs answered, then
    --idle, the quiet time that shows nothing more
    is coming."""
    if (tally.count() < args.expect
            or len(tally.replies) < args.expect_distinct):
        return args.bound
    return args.idle


def client_udp(args, tally, expect):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.connect((HOST, args.port))
    for i in range(args.count):
        xid = XID_BASE + i
        s.send(make_call(xid, call_args(i)))
    try:
        while True:
            s.settimeout(wait_time(args, tally))
            tally.add(s.recv(65536), expect)
    except (socket.timeout, ConnectionRefusedError):
        pass
    return ""


def tcp_connect(args, src_port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((HOST, src_port))
    s.connect((HOST, args.port))
    return s


def client_tcp_batch(args, tally, expect):
    """All calls at once, then read until the line goes quiet."""
    s = tcp_connect(args, 0)
    for i in range(args.count):
        send_record(s, make_call(XID_BASE + i, call_args(i)), args.frag)
    try:
        while True:
            s.settimeout(wait_time(args, tally))
            rec = recv_record(s)
            if rec is None:
                break
            tally.add(rec, expect)
    except socket.timeout:
        pass
    s.close()
    return ""


def client_tcp_reconnect(args, tally, expect):
    """One call at a time, like an RPC client: on a lost connection,
    reconnect from the same source port and send the call again."""
    s = tcp_connect(args, 0)
    src = s.getsockname()[1]
    reconnects = 0
    deadline = time.monotonic() + args.bound
    for i in range(args.count):
        call = make_call(XID_BASE + i, call_args(i))
        while time.monotonic() < deadline:
            try:
                send_record(s, call)
                s.settimeout(args.idle)
                rec = recv_record(s)
            except (OSError, socket.timeout):
                rec = None
            if rec is not None:
                tally.add(rec, expect)
                break
            s.close()
            for _ in range(100):
                try:
                    s = tcp_connect(args, src)
                    break
                except OSError:
                    time.sleep(0.05)
            reconnects += 1
        time.sleep(args.interval)
    s.close()
    return " src_port=%d reconnects=%d" % (src, reconnects)


def client(args):
    tally = Tally()
    expect = {XID_BASE + i: make_reply(make_call(XID_BASE + i, call_args(i)))
              for i in range(args.count)}
    if args.proto == "udp":
        extra = client_udp(args, tally, expect)
    elif args.reconnect:
        extra = client_tcp_reconnect(args, tally, expect)
    else:
        extra = client_tcp_batch(args, tally, expect)
    print(tally.summary(args.count, extra))


def ctl(args):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(args.path)
    s.sendall((args.command + "\n").encode())
    s.settimeout(60)
    buf = b""
    while not buf.endswith(b"\n"):
        chunk = s.recv(4096)
        if not chunk:
            break
        buf += chunk
    print(buf.decode().strip())


def raw(args):
    """Sends raw bytes (hex) on a TCP connection; reports whether the peer
    closed it within the idle time."""
    s = tcp_connect(args, 0)
    s.sendall(bytes.fromhex(args.hex))
    s.settimeout(args.idle)
    try:
        closed = s.recv(65536) == b""
    except socket.timeout:
        closed = False
    except ConnectionResetError:
        closed = True
    print("closed=%d" % closed)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("serve")
    p.add_argument("--port-file", required=True)
    p = sub.add_parser("client")
    p.add_argument("--proto", choices=("tcp", "udp"), default="tcp")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--count", type=int, default=10)
    p.add_argument("--idle", type=float, default=1.0)
    p.add_argument("--frag", type=int, default=0)
    p.add_argument("--reconnect", action="store_true")
    p.add_argument("--interval", type=float, default=0.0)
    p.add_argument("--expect", type=int, default=0,
                   help="replies to wait for, up to --bound seconds")
    p.add_argument("--expect-distinct", type=int, default=0,
                   help="distinct XIDs to wait for, up to --bound seconds")
    p.add_argument("--bound", type=float, default=120.0)
    p = sub.add_parser("ctl")
    p.add_argument("path")
    p.add_argument("command")
    p = sub.add_parser("raw")
    p.add_argument("--port", type=int, required=True)
    # Only a close is ever expected: wait for it generously.
    p.add_argument("--idle", type=float, default=60.0)
    p.add_argument("hex")
    args = ap.parse_args()
    {"serve": serve, "client": client, "ctl": ctl, "raw": raw}[args.cmd](args)


if __name__ == "__main__":
    main()
