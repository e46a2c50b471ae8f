#!/usr/bin/env bash
# The NLM callback listener cannot be jammed or fooled:
#   - it listens on the local address that reaches the server, not on all;
#   - a GRANTED from another address than the server's is refused (TCP
#     and UDP), and one whose owner handle lacks the daemon's secret
#     (a guessed or stale handle) is refused; each refusal is counted and
#     shown by nfsfusectl stats (text and --json);
#   - 100 idle connections do not keep a GRANTED out, and idle
#     connections are closed.
# The test server's nfs-ganesha owns NLM v4 on every address, so an NFSv3
# mount here cannot take callbacks; an NFSv2 mount (through nfs2to3proxy,
# as in nfsv2_locks.sh) speaks NLM v3, registers it and takes callbacks.
# The GRANTED calls are made by this test, from 127.0.0.1 (the server's
# address) and from 127.0.0.2 / 127.0.0.3 (strangers).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/locks_lib.sh"
need_cmd python3
ensure_server
need_nfsfuse

start_v2proxy --nlm

T=$(make_testdir locks_listener)
MA=$(new_mountpoint)
MB=$(new_mountpoint)
SA=$NFSFUSE_TMP/state-lsn-a
SB=$NFSFUSE_TMP/state-lsn-b
mount_nfsfuse "$MA" -f -o "hostname=lsnA$$,statedir=$SA,actimeo=0,$V2"
mount_nfsfuse "$MB" -f -o "hostname=lsnB$$,statedir=$SB,actimeo=0,$V2,nlm_callback=no"
PID_A=$(nfsfuse_pids "$MA" | head -n 1)
F=$T/f
: >"$EXPORT_DIR/$F"
chmod 666 "$EXPORT_DIR/$F"
R=$NFSFUSE_TMP/rel

wait_until 10 test -s "$SA/status" || fail "no status file in $SA"
mode=$(status_get "$SA" mode)
assert_match "$mode" '^callback \(NLM v3 registered with rpcbind, port [0-9]+ at 127\.0\.0\.1\)' "A takes callbacks on the server's side of loopback"
LP=$(sed -n 's/.*port \([0-9]*\) at.*/\1/p' <<<"$mode")
# The UDP port, from rpcbind (portmap GETPORT of NLM v3 over UDP).
LPU=$(python3 - <<'PY'
import socket, struct
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(5)
s.sendto(struct.pack('>10I', 0x706d6170, 0, 2, 100000, 2, 3, 0, 0, 0, 0) + struct.pack('>4I', 100021, 3, 17, 0), ('127.0.0.1', 111))
r = s.recv(512)
print(struct.unpack('>I', r[24:28])[0])
PY
)
[[ $LPU -gt 0 ]] || fail "no NLM v3 UDP port registered: $LPU"
# Bound to that address alone, TCP and UDP.
socks=$(ss -Hlntup | grep "pid=$PID_A," | awk '{ print $5 }' | sort -u | tr '\n' ' ')
assert_contains "$socks" "127.0.0.1:$LP" "the listener's TCP socket"
assert_contains "$socks" "127.0.0.1:$LPU" "the listener's UDP socket"
for s in $socks; do
	[[ $s == 0.0.0.0:* || $s == \*:* || $s == "[::]:"* ]] && fail "the daemon listens on all addresses: $s (all: $socks)"
done

# A waits for B's lock.
lk_bg "$NFSFUSE_TMP/holdB" hold "$MB/$F" 0 0 w "$R.1"
wait_file_has "$NFSFUSE_TMP/holdB" locked 30 || fail "B did not lock: $(cat "$NFSFUSE_TMP/holdB")"
lk_bg "$NFSFUSE_TMP/waitA" wait "$MA/$F" 0 0 w "$R.1w"
wait_until 30 grep -q '^waiting ino=' "$SA/status" || fail "A's F_SETLKW does not wait: $(cat "$NFSFUSE_TMP/waitA")"
W=$(grep -m1 '^waiting ino=' "$SA/status")
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$W"; }
FH=$(field fh)
OH=$(field oh)
SVID=$(field svid)
[[ -n $FH && -n $OH && -n $SVID ]] || fail "no handles in A's waiting line: $W"

GRANT=$NFSFUSE_TMP/grant.py
cat >"$GRANT" <<'EOF'
# grant.py PROTO SRC PORT FH OH SVID [IDLE]: send NLM v3 GRANTED (proc 5)
# for an exclusive lock of the whole file to 127.0.0.1:PORT from address
# SRC; print the nlm_res stat of the reply (0 granted, 1 denied).  With
# IDLE, first open that many connections and leave them idle; after the
# GRANTED, wait (up to 60 s) until the listener has closed them all and
# print "closed N".
import os, socket, struct, sys, time
proto, src, port, fh, oh, svid = sys.argv[1], sys.argv[2], int(sys.argv[3]), bytes.fromhex(sys.argv[4]), bytes.fromhex(sys.argv[5]), int(sys.argv[6])
idle = int(sys.argv[7]) if len(sys.argv) > 7 else 0
def opaque(b):
    return struct.pack('>I', len(b)) + b + b'\0' * (-len(b) % 4)
xid = 0x6c6b0000 | (os.getpid() & 0xffff)
call = struct.pack('>IIIIII', xid, 0, 2, 100021, 3, 5) + struct.pack('>IIII', 0, 0, 0, 0)
args = opaque(b'forged-cookie') + struct.pack('>I', 1) + opaque(b'server') + opaque(fh) + opaque(oh) + struct.pack('>iII', svid, 0, 0)
msg = call + args
conns = []
for _ in range(idle):
    c = socket.socket()
    c.bind(('127.0.0.1', 0))
    c.connect(('127.0.0.1', port))
    conns.append(c)
if proto == 'tcp':
    s = socket.socket()
    s.bind((src, 0))
    s.settimeout(10)
    s.connect(('127.0.0.1', port))
    try:
        s.sendall(struct.pack('>I', 0x80000000 | len(msg)) + msg)
    except OSError:
        pass
    buf = b''
    while True:
        try:
            chunk = s.recv(4096)
        except OSError:  # a time-out, or the listener closed on us
            break
        if not chunk:
            break
        buf += chunk
        if len(buf) >= 4 and len(buf) - 4 >= struct.unpack('>I', buf[:4])[0] & 0x7fffffff:
            break
    body = buf[4:]
else:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((src, 0))
    s.settimeout(10)
    s.sendto(msg, ('127.0.0.1', port))
    try:
        body = s.recv(65536)
    except socket.timeout:
        body = b''
if len(body) >= 24 and struct.unpack('>III', body[:12]) == (xid, 1, 0) and struct.unpack('>I', body[20:24])[0] == 0:
    off = 24
    clen = struct.unpack('>I', body[off:off + 4])[0]
    off += 4 + clen + (-clen % 4)
    print(struct.unpack('>I', body[off:off + 4])[0])
else:
    print('noreply')
if idle:
    deadline = time.monotonic() + 60
    closed = set()
    while len(closed) < idle and time.monotonic() < deadline:
        for i, c in enumerate(conns):
            if i in closed:
                continue
            c.setblocking(False)
            try:
                if c.recv(1) == b'':
                    closed.add(i)
            except BlockingIOError:
                pass
            except OSError:
                closed.add(i)
        time.sleep(0.2)
    print('closed %d' % len(closed))
EOF
grant() { with_timeout 120 python3 "$GRANT" "$@"; }

# ---- refusals: the wrong address (TCP, UDP), the wrong owner secret
r0=$(status_get "$SA" callbacks_refused_address)
m0=$(status_get "$SA" callbacks_refused_match)
assert_eq 1 "$(grant tcp 127.0.0.2 "$LP" "$FH" "$OH" "$SVID")" "a GRANTED over TCP from 127.0.0.2 is answered DENIED"
assert_eq 1 "$(grant udp 127.0.0.3 "$LPU" "$FH" "$OH" "$SVID")" "a GRANTED over UDP from 127.0.0.3 is answered DENIED"
wait_until 10 counter_gt "$SA" callbacks_refused_address $((r0 + 1)) ||
	fail "refusals by address not counted: $(status_get "$SA" callbacks_refused_address) (was $r0)"
# The owner handle with another secret: what a stale or guessed one is.
BAD=$(python3 -c 'import sys; h = bytes.fromhex(sys.argv[1]); i = h.index(b"@") - 1; print((h[:i] + bytes([h[i] ^ 1]) + h[i + 1:]).hex())' "$OH")
assert_eq 1 "$(grant tcp 127.0.0.1 "$LP" "$FH" "$BAD" "$SVID")" "a GRANTED without the owner's secret is answered DENIED"
wait_until 10 counter_gt "$SA" callbacks_refused_match "$m0" ||
	fail "a refusal for the wrong owner handle not counted"
assert_eq waiting "$(cat "$NFSFUSE_TMP/waitA")" "no refused GRANTED ended A's wait"
assert_eq 0 "$(status_get "$SA" granted_callback)" "no refused GRANTED granted anything"

# ---- 100 idle connections do not keep the server's GRANTED out
out=$(grant tcp 127.0.0.1 "$LP" "$FH" "$OH" "$SVID" 100)
assert_eq 0 "$(head -n 1 <<<"$out")" "the server's GRANTED is taken behind 100 idle connections"
wait_file_has "$NFSFUSE_TMP/waitA" granted 30 || fail "A's F_SETLKW not granted by the GRANTED: $(cat "$NFSFUSE_TMP/waitA")"
wait_until 10 counter_gt "$SA" granted_callback 0 || fail "the grant was not counted as by callback"
assert_eq "closed 100" "$(tail -n 1 <<<"$out")" "every idle connection was closed by the listener"
[[ $(status_get "$SA" listener_evicted) -gt 0 ]] || fail "no connection was evicted for a new one"
wait_until 30 counter_gt "$SA" listener_idle_closed 0 || fail "no idle connection closed for idleness"

# ---- the refusals in nfsfusectl stats, text and JSON
txt=$("$NFSFUSECTL" "$MA" stats)
assert_match "$txt" "lock_callbacks_refused_address +[2-9]" "address refusals in nfsfusectl stats"
assert_match "$txt" "lock_callbacks_refused_match +[1-9]" "owner refusals in nfsfusectl stats"
js=$("$NFSFUSECTL" "$MA" stats --json)
python3 - "$js" <<'PY' || fail "refusal counters missing from nfsfusectl stats --json: $js"
import json, sys
flat = {}
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            flat.setdefault(k, v)
            walk(v)
walk(json.loads(sys.argv[1]))
assert flat["lock_callbacks_refused_address"] >= 2, flat.get("lock_callbacks_refused_address")
assert flat["lock_callbacks_refused_match"] >= 1, flat.get("lock_callbacks_refused_match")
assert flat["lock_listener_evicted"] >= 1, flat.get("lock_listener_evicted")
PY
touch "$R.1w" "$R.1" "$R.1.exit"
echo PASS
