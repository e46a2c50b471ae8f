#!/usr/bin/env bash
# IPv6: a test server on ::1 mounted by the literal [::1], by an nfs://[::1]
# URL and by a name with only an AAAA record; a tree copied and compared;
# --list-exports [::1]; the rpcbind v4 GETADDR for "tcp6" asked first; a
# name whose first address does not answer mounted by its next one; locks
# between two daemons over IPv6, with the callback listener on an IPv6
# socket; clientaddr= in IPv6 and of the wrong family.
#
# ganesha takes one Bind_addr, and the shared test server binds 127.0.0.1
# where the machine has other interfaces.  So this test runs in a network
# and mount namespace of its own (root only), with a server of its own on
# ::1, its own rpcbind and statd, a second IPv6 address on loopback for the
# lock client that takes callbacks, and private /etc/hosts and
# /etc/gai.conf for the names it resolves.
#
# nfs-ganesha 4.3 cannot call an IPv6 NLM client back (it looks the client
# up in rpcbind with the IPv4 network id "tcp": "Cannot create NLM async
# tcp connection to client <IPv6>"), so a blocked lock over IPv6 is granted
# by polling; the listener's IPv6 path is driven by sending it NLM calls
# from the server's address.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# The lock client A's address: a ULA that exists only on this namespace's
# loopback.
A6=fd6e:6673:6675::a

case ${NFSFUSE_IPV6_STAGE:-} in
'')
	if [[ $(id -u) -ne 0 ]]; then
		echo "SKIP: needs root (a network namespace of its own)" >&2
		exit 77
	fi
	command -v unshare >/dev/null && command -v ip >/dev/null ||
		{ echo "SKIP: unshare or ip is missing" >&2; exit 77; }
	exec unshare -n -m --propagation private -- \
		env NFSFUSE_IPV6_STAGE=setup bash "$0" "$@"
	;;
setup)
	ip link set lo up
	ip -6 addr add "$A6/128" dev lo nodad
	# Private /run (rpcbind's socket, statd's pid), /var/lib/nfs (statd's
	# state) and /tmp (the server's state directory), as tools/nsrun does.
	snap=$(mktemp -d /tmp/nfsfuse-ipv6-snap.XXXXXX)
	cp -a /var/lib/nfs/. "$snap"/ 2>/dev/null || true
	mount -t tmpfs tmpfs /var/lib/nfs
	cp -a "$snap"/. /var/lib/nfs/
	rm -rf "$snap"
	mount -t tmpfs -o mode=755 tmpfs /run
	mkdir -p /run/lock /run/user /run/mount /run/sendsigs.omit.d
	mount -t tmpfs -o mode=1777 tmpfs /tmp
	# Names of this test only: one with an AAAA record alone; one whose
	# IPv4 address (first, by the gai.conf below) has no server on it.
	{
		cat /etc/hosts
		echo "::1 nfsfuse-v6only.test"
		echo "127.0.0.1 nfsfuse-dual.test"
		echo "::1 nfsfuse-dual.test"
	} >/tmp/hosts
	echo "precedence ::ffff:0:0/96 100" >/tmp/gai.conf
	mount --bind /tmp/hosts /etc/hosts
	# glibc reads its address-sorting table from /etc/gai.conf only.
	[[ -e /etc/gai.conf ]] && mount --bind /tmp/gai.conf /etc/gai.conf
	export NFSFUSE_TEST_BIND_ADDR=::1
	rc=0
	bash "$HERE/../../contrib/test-server.sh" start >/dev/null || rc=$?
	if [[ $rc -eq 0 ]]; then
		NFSFUSE_IPV6_STAGE=body bash "$0" "$@" || rc=$?
	else
		echo "FAIL: cannot start a test server on ::1" >&2
		rc=1
	fi
	# rpcbind and statd too: this namespace is gone with the test, and
	# they would stay in it, held by nothing.
	bash "$HERE/../../contrib/test-server.sh" stop --all >/dev/null 2>&1 || true
	exit "$rc"
	;;
body) ;;
*) echo "bad NFSFUSE_IPV6_STAGE" >&2; exit 1 ;;
esac

. "$HERE/lib.sh"
. "$HERE/locks_lib.sh"
need_nfsfuse
ensure_server
SERVER='[::1]'
LK_ADDR_A=$A6

# nfsfuse's TCP peers (remote address:port) while it runs.
peers_of() { ss -Htnp state established 2>/dev/null | awk -v p="pid=$1," 'index($0, p) { print $4 }'; }
# PID is connected to NFS at [::1]:2049, and to nothing over IPv4.
nfs_over_ipv6() {
	local peers
	peers=$(peers_of "$1")
	grep -qx '\[::1\]:2049' <<<"$peers" || fail "no NFS connection to [::1]:2049: $(echo $peers)"
	if grep -qv '^\[' <<<"$peers"; then
		fail "IPv4 connections: $(echo $peers)"
	fi
}

# ---- --list-exports by IPv6 literal, bracketed and bare
out=$(with_timeout 30 "$NFSFUSE" --list-exports '[::1]' 2>&1) ||
	fail "--list-exports [::1] failed: $out"
assert_contains "$out" "Export list for ::1:" "--list-exports [::1] header"
assert_contains "$out" "$EXPORT " "--list-exports [::1] lists the export"
out=$(with_timeout 30 "$NFSFUSE" --list-exports ::1 2>&1) ||
	fail "--list-exports ::1 failed: $out"
assert_contains "$out" "$EXPORT " "--list-exports ::1"

# ---- mount by [::1]: rpcbind v4 GETADDR for tcp6 first, a tree copied
T=$(make_testdir ipv6)
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -d
LOG=$NFSFUSE_LOG
assert_match "$(cat "$LOG")" 'portmapper ::1: rpcbind v4 GETADDR 100005 v3 tcp6: "::1\.78\.80"' \
	"MOUNT found with rpcbind v4 GETADDR for tcp6"
assert_match "$(cat "$LOG")" 'portmapper ::1: rpcbind v4 GETADDR 100003 v3 tcp6: "::1\.8\.1"' \
	"NFS found with rpcbind v4 GETADDR for tcp6"
if grep -q "portmap v2 GETPORT" "$LOG"; then
	fail "portmap v2 asked although rpcbind v4 answered: $(grep GETPORT "$LOG" | head -n 3)"
fi
nfs_over_ipv6 "$(nfsfuse_pids "$MNT" | head -n 1)"

SRC=/usr/include/glib-2.0/gobject
[[ -d $SRC ]] || skip "$SRC is missing (libglib2.0-dev)"
M=$MNT/$T
cp -a "$SRC" "$M/glib"
diff -r "$SRC" "$EXPORT_DIR/$T/glib" || fail "the tree as the server stored it differs"
diff -r "$SRC" "$M/glib" || fail "the tree read back through the mount differs"
assert_eq "$(cd "$SRC" && find . -printf '%P %y %m\n' | sort)" \
	"$(cd "$M/glib" && find . -printf '%P %y %m\n' | sort)" "names, types and modes"
echo "over IPv6" >"$M/note"
umount_nfsfuse "$MNT"

# ---- an nfs://[::1]/... URL
MU=$(new_mountpoint)
NFSFUSE_MOUNT_SRC="nfs://[::1]$EXPORT/$T" mount_nfsfuse "$MU"
assert_eq "over IPv6" "$(cat "$MU/note")" "read through nfs://[::1]$EXPORT/$T"
umount_nfsfuse "$MU"

# ---- a name with only an AAAA record
getent ahosts nfsfuse-v6only.test | grep '^::1 ' >/dev/null || fail "the private /etc/hosts is not in use"
MN=$(new_mountpoint)
NFSFUSE_MOUNT_SRC="nfsfuse-v6only.test:$EXPORT" mount_nfsfuse "$MN"
assert_eq "over IPv6" "$(cat "$MN/$T/note")" "read through a name with only an AAAA record"
nfs_over_ipv6 "$(nfsfuse_pids "$MN" | head -n 1)"
umount_nfsfuse "$MN"

# ---- every address of a name, in order: 127.0.0.1 first (gai.conf), where
# rpcbind answers but nothing serves MOUNT; then ::1
MD=$(new_mountpoint)
NFSFUSE_MOUNT_SRC="nfsfuse-dual.test:$EXPORT" mount_nfsfuse "$MD" -d
assert_match "$(cat "$NFSFUSE_LOG")" "nfsfuse-dual.test at 127.0.0.1: .*; trying its next address" \
	"the unanswered first address is given up"
assert_eq "over IPv6" "$(cat "$MD/$T/note")" "mounted by the name's second address"
umount_nfsfuse "$MD"

# ---- clientaddr= of the other family is refused with one clear line
MX=$(new_mountpoint)
out=$(with_timeout 30 "$NFSFUSE" "[::1]:$EXPORT" "$MX" -f -o clientaddr=127.0.0.1 2>&1) &&
	fail "clientaddr=127.0.0.1 with an IPv6 server was accepted"
assert_contains "$out" "clientaddr=127.0.0.1: the server is reached over IPv6" "clientaddr= family error"

# ---- locks between two daemons over IPv6
F=$T/f
: >"$EXPORT_DIR/$F"
chmod 666 "$EXPORT_DIR/$F"
MA=$(new_mountpoint)
MB=$(new_mountpoint)
SA=$NFSFUSE_TMP/state-a
SB=$NFSFUSE_TMP/state-b
mount_locks_a "$MA" "$SA" "" -d
mount_locks_b "$MB" "$SB"
R=$NFSFUSE_TMP/rel
# A (clientaddr= IPv6) listens on the server's NLM port at its own IPv6
# address; B shares the host's registration and polls.
assert_eq "callback (shared NLM port 32803 at $A6)" "$(status_get "$SA" mode)" "A's listener is on IPv6"
pid=$(nfsfuse_pids "$MA" | head -n 1)
assert_match "$(ss -Hltnp 2>/dev/null | awk -v p="pid=$pid," 'index($0, p) { print $4 }')" \
	"^\\[$A6\\]:32803\$" "A listens at [$A6]:32803"

lk_exclusion_checks "$MA" "$MB" "$F" "$SA" "$R.1"
# A's NLM calls leave from clientaddr=.
assert_match "$(peers_of "$pid" | tr '\n' ' ')" '\[::1\]:32803' "A's NLM connection goes to [::1]:32803"
assert_match "$(ss -Htn state established "dport = :32803" | awk '{ print $3 }' | tr '\n' ' ')" \
	"\\[$A6\\]:" "A's NLM calls come from [$A6]"

# A blocked lock over IPv6, granted once B unlocks (by polling: see above).
lk_wait_granted "$MA" "$MB" "$F" "$SA" "$R.2"
wait_until 5 held_is "$SA" 1 || fail "A does not list the granted lock: $(cat "$SA/status")"
touch "$R.2w"
wait_until 10 held_is "$SA" 0 || fail "A's lock not released at close"

# NSM over IPv6: the lock journal records the server by its IPv6 address
# (the form recovery parses back), and its statd is found with rpcbind v4
# GETADDR for udp6.
wait_until 10 grep -q '^S ::1 ' "$SA"/journal-* ||
	fail "A's lock journal does not name the IPv6 server: $(cat "$SA"/journal-* 2>/dev/null)"
wait_until 10 grep -q 'rpcbind v4 GETADDR 100024 v1 udp6' "$LOG_A" ||
	fail "SM_STAT to the server's statd was not sent over IPv6"

# The listener over IPv6: NLM GRANTED (v4, synchronous) from the server's
# address is taken as the server's (counted as a callback; no such waiter:
# DENIED); from another address it is refused; a statd notice with a
# foreign priv is refused.
nlm_granted() { # FROM ADDR PORT: prints the reply's nlm4_stats
	with_timeout 10 python3 - "$@" <<'PY'
import socket, struct, sys
src, addr, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
def opaque(b):
    return struct.pack(">I", len(b)) + b + b"\0" * (-len(b) % 4)
call = struct.pack(">IIIIIIIIII", 0x6e6f, 0, 2, 100021, 4, 5, 0, 0, 0, 0)
# nlm4_testargs: cookie, exclusive, nlm4_lock{caller_name, fh, oh, svid,
# offset, len}
args = (opaque(b"ck") + struct.pack(">I", 1) + opaque(b"server") +
        opaque(b"\1" * 16) + opaque(b"nobody's") +
        struct.pack(">iQQ", 4242, 0, 10))
msg = call + args
s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
s.settimeout(5)
s.bind((src, 0))
s.connect((addr, port))
s.sendall(struct.pack(">I", 0x80000000 | len(msg)) + msg)
buf = b""
while len(buf) < 4 + 24 + 8:
    chunk = s.recv(4096)
    if not chunk:
        break
    buf += chunk
xid, mtype, rstat, vflav, vlen, astat = struct.unpack(">IIIIII", buf[4:28])
if (xid, mtype, rstat, astat) != (0x6e6f, 1, 0, 0):
    print("bad reply")
    sys.exit(0)
n = struct.unpack(">I", buf[28:32])[0]
off = 32 + n + (-n % 4)
print(struct.unpack(">I", buf[off:off + 4])[0])
PY
}
c0=$(status_get "$SA" callbacks)
r0=$(status_get "$SA" callbacks_rejected)
assert_eq 1 "$(nlm_granted ::1 "$A6" 32803)" "GRANTED from [::1] for no waiter: NLM4_DENIED"
wait_until 5 counter_gt "$SA" callbacks "$c0" || fail "GRANTED from the server over IPv6 not counted"
assert_eq 1 "$(nlm_granted "$A6" "$A6" 32803)" "GRANTED from another address: NLM4_DENIED"
wait_until 5 counter_gt "$SA" callbacks_rejected "$r0" || fail "GRANTED from a foreign IPv6 address not refused"
r1=$(status_get "$SA" callbacks_rejected)
assert_eq 0 "$(nlm_notify "$A6" 32803 7)" "a statd notice over IPv6 is answered"
wait_until 5 counter_gt "$SA" callbacks_rejected "$r1" || fail "a statd notice with a foreign priv was not refused"
