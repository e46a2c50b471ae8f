#!/usr/bin/env bash
# A corrupt reply must cost one call, never the file.  The kernel takes a
# file whose attributes come back with another type, or with no valid
# type, for a broken one, and fails every use of it until it is
# forgotten.  So attributes of no valid type, or of another type than the
# file's, fail the call that brought them (EIO) and are not believed.
#
# The proxy turns, in every reply, the first small word after the status
# into 0xffffff00: a GETATTR's file type.  Once the proxy forwards
# soundly again, the same directory and file must work as before.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
ensure_server
need_nfsfuse
need_proxy
need_cmd python3

T=$(make_testdir faults_attr_type)
mkdir "$EXPORT_DIR/$T/d"
echo hello >"$EXPORT_DIR/$T/d/f"

SOCK=$NFSFUSE_TMP/proxy.sock
start_proxy attr-type --control "$SOCK"
MNT=$(new_mountpoint)
# noac: every stat is a GETATTR, so the corrupt replies are the ones
# that answer it.
mount_nfsfuse "$MNT" -o "port=$PROXY_PORT,mountport=$MOUNT_PORT,timeo=5,nolock,noac"
PID=$(daemon_pid "$MNT")

[[ $(stat -c %F "$MNT/$T/d") == directory ]] || fail "d is no directory before the faults"
[[ $(cat "$MNT/$T/d/f") == hello ]] || fail "f does not read back before the faults"

for cmd in "corrupt-mode enlarge" "corrupt-replies 100"; do
	r=$(proxy_ctl "$SOCK" "$cmd")
	[[ $r == ok* ]] || fail "proxy refused '$cmd': $r"
done
refused0=$(cache_stat "$MNT" attr_refused)
if out=$(stat -c %F "$MNT/$T/d" 2>&1); then
	fail "stat of d succeeded on a reply with no valid file type: '$out'"
fi
[[ $out == *"Input/output error"* ]] ||
	fail "stat of d on a corrupt reply: expected EIO, got '$out'"
if out=$(stat -c %F "$MNT/$T/d/f" 2>&1); then
	fail "stat of d/f succeeded on a reply with no valid file type: '$out'"
fi
r=$(proxy_ctl "$SOCK" "corrupt-replies 0")
[[ $r == ok* ]] || fail "proxy refused to stop corrupting: $r"
(($(grep -c '^corrupt reply.*mode=enlarge len' "$PROXY_LOG") > 0)) ||
	fail "the proxy corrupted no reply"
(($(cache_stat "$MNT" attr_refused) > refused0)) ||
	fail "no attributes were counted as refused (attr_refused)"

# Sound replies again: one call each, the same objects as before.
[[ $(stat -c %F "$MNT/$T/d" 2>&1) == directory ]] ||
	fail "d after the corrupt replies: $(stat -c %F "$MNT/$T/d" 2>&1)"
[[ $(stat -c %F "$MNT/$T/d/f" 2>&1) == "regular file" ]] ||
	fail "d/f after the corrupt replies: $(stat -c %F "$MNT/$T/d/f" 2>&1)"
[[ $(cat "$MNT/$T/d/f" 2>&1) == hello ]] ||
	fail "d/f does not read back after the corrupt replies: $(cat "$MNT/$T/d/f" 2>&1)"
[[ $(ls "$MNT/$T/d" 2>&1) == f ]] ||
	fail "d does not list after the corrupt replies: $(ls "$MNT/$T/d" 2>&1)"
echo more >"$MNT/$T/d/g" || fail "cannot create in d after the corrupt replies"
[[ $(cat "$EXPORT_DIR/$T/d/g") == more ]] || fail "d/g did not reach the server"
assert_alive "$PID" "$MNT"
umount_nfsfuse "$MNT"
stop_proxy
echo "PASS: replies with a broken file type failed their call, and the files stayed sound"
