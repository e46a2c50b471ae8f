#!/usr/bin/env bash
# NFSv4.2 open state across a server reboot with a grace period, and
# across a partition longer than the lease.
#
#  1. The server reboots (test-server.sh reboot: kill -9, then a start
#     with a grace period of 20 s and a lease of 10 s) while a file is
#     open for writing.  The client makes a new client id and session and
#     reclaims the open in the grace period (OPEN CLAIM_PREVIOUS): the
#     writer goes on and its bytes reach the server; the log says one open
#     reclaimed.
#  2. A proxy between client and server forwards nothing for 40 s (four
#     leases) while a file is open with written data.  The server expires
#     the client; when the partition ends the client recovers its session
#     but cannot reclaim the open (no grace period, and its lease ran
#     out: another client may have had the file meanwhile), so the file's
#     writes answer EIO -- never a silent success -- and the loss is
#     logged and counted.  Opening the file again works, and so do other
#     files.
#
# This reboots the shared test server: it is meant to run alone, last.
# The server is put back into its normal graceless state at the end.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
ensure_server
need_nfsfuse
need_root
need_proxy
need_cmd python3 sm-notify
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"

on_exit bash -c "'$TEST_SERVER_SH' restart >/dev/null 2>&1 || echo '# could not restart the test server' >&2"
T=$(make_testdir nfs4_lease)
export NFSFUSE_TEST_GRACE=20
out=$("$TEST_SERVER_SH" reboot 2>&1) || fail "server reboot failed: $out"
sleep 21 # the grace period of this first start ends

# ctl CMD: one command to the proxy's control socket, its answer.
ctl() { proxy_ctl "$NFSFUSE_TMP/proxy.sock" "$1"; }

start_proxy lease --control "$NFSFUSE_TMP/proxy.sock"
# timeo=20: a call lost in the partition goes again 2 s after it ends.
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -f -o "vers=4.2,port=$PROXY_PORT,timeo=20"
PID=$(daemon_pid "$MNT")

# --- 1: reboot with a grace period: the open is reclaimed ----------------
# writer PATH TAG: writes "TAG-1", waits for TAG.go, writes "TAG-2",
# closes; its status and error in TAG.rc.
writer() {
	python3 - "$1" "$NFSFUSE_TMP/$2" "$2" <<'PY' &
import os, sys
path, base, tag = sys.argv[1:4]
rc, err = 0, ""
try:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.write(fd, (tag + "-1\n").encode())
    os.fsync(fd)
    open(base + ".ready", "w").close()
    while not os.path.exists(base + ".go"):
        __import__("time").sleep(0.05)
    os.write(fd, (tag + "-2\n").encode())
    os.fsync(fd)
    os.close(fd)
except OSError as e:
    rc, err = e.errno, e.strerror
open(base + ".rc", "w").write("%d %s\n" % (rc, err))
PY
}

writer "$MNT/$T/a" a
wait_until 60 test -e "$NFSFUSE_TMP/a.ready" || fail "writer a did not start"
out=$("$TEST_SERVER_SH" reboot 2>&1) || fail "server reboot failed: $out"
note "server rebooted with a ${NFSFUSE_TEST_GRACE}s grace period"
touch "$NFSFUSE_TMP/a.go"
wait_until 120 test -e "$NFSFUSE_TMP/a.rc" || fail "writer a did not finish within 120 s"
assert_eq "0 " "$(cat "$NFSFUSE_TMP/a.rc")" "writer a across the reboot"
assert_eq "a-1 a-2" "$(tr '\n' ' ' <"$EXPORT_DIR/$T/a" | sed 's/ $//')" "bytes of a on the server"
grep -q "NFSv4 recovery: 1 open(s) reclaimed, 0 opened again (no grace period), 0 lost" "$NFSFUSE_LOG" ||
	fail "the open was not reclaimed in the grace period: $(grep 'NFSv4 recovery' "$NFSFUSE_LOG")"
assert_eq 1 "$(cache_stat "$MNT" nfs4_reclaims)" "opens reclaimed"
assert_eq 0 "$(cache_stat "$MNT" nfs4_state_lost)" "opens lost after the reboot"
sleep $((NFSFUSE_TEST_GRACE + 1)) # the grace period ends

# --- 2: a partition longer than the lease: the open is lost -------------
r0=$(cache_stat "$MNT" nfs4_recoveries)
writer "$MNT/$T/b" b
wait_until 60 test -e "$NFSFUSE_TMP/b.ready" || fail "writer b did not start"
assert_eq ok "$(ctl 'blackhole 40')" "blackhole"
touch "$NFSFUSE_TMP/b.go"
wait_until 180 test -e "$NFSFUSE_TMP/b.rc" || fail "writer b did not finish within 180 s"
assert_eq "5 Input/output error" "$(cat "$NFSFUSE_TMP/b.rc")" "writer b after its lease expired"
assert_eq "b-1" "$(cat "$EXPORT_DIR/$T/b")" "bytes of b on the server (nothing written after the loss)"
(($(cache_stat "$MNT" nfs4_recoveries) > r0)) || fail "no recovery after the partition"
(($(cache_stat "$MNT" nfs4_state_lost) >= 1)) || fail "the lost open is not counted"
grep -q "the open of file .* is lost" "$NFSFUSE_LOG" || fail "the lost open is not logged"
# Opened again, the file works; so do others.
echo again >"$MNT/$T/b" || fail "open of b again after the loss"
assert_file_content "$EXPORT_DIR/$T/b" again
echo new >"$MNT/$T/c" || fail "create after the partition"
assert_file_content "$EXPORT_DIR/$T/c" new
assert_alive "$PID" "$MNT"
umount_nfsfuse "$MNT"
stop_proxy
echo "PASS: an open reclaimed in the grace period of a reboot; an open lost to an expired lease answered EIO, and the file opened again works"
