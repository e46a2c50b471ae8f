#!/usr/bin/env bash
# A server that stops answering must not keep the daemon alive after the
# unmount.  NFSv4.1 has state to give back when a mount ends (the CLOSE
# of a file closed just before, DESTROY_SESSION, DESTROY_CLIENTID); on a
# hard mount each would wait for the server for ever.  Through a proxy
# that is then stopped (SIGSTOP: the connection stays, nothing answers),
# a file is closed and the mount unmounted: the daemon must exit (the
# teardown has NFS4_TEARDOWN_S, 10 s, after which the server is left to
# its lease), having said so in its log.  NFSv3 alongside, which has no
# such state: its daemon exits too.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
ensure_server
need_nfsfuse
need_proxy

T=$(make_testdir dead_unmount)
echo data >"$EXPORT_DIR/$T/f"

# run_case NAME OPTS: mount OPTS through a proxy, open f, stop the proxy,
# close f, unmount; the daemon must be gone (umount_nfsfuse waits 120 s
# for it and fails showing where its threads wait).
run_case() {
	local name=$1 opts=$2 mnt fd pid
	start_proxy "dead-$name"
	mnt=$(new_mountpoint)
	mount_nfsfuse "$mnt" -f -o "$opts,port=$PROXY_PORT"
	pid=$(daemon_pid "$mnt")
	assert_eq data "$(cat "$mnt/$T/f")" "$name: f read through the proxy"
	exec {fd}<"$mnt/$T/f"
	kill -STOP "$PROXY_PID"
	# The kernel sends the release without waiting for its answer.
	exec {fd}<&-
	umount_nfsfuse "$mnt"
	_pid_gone "$pid" || fail "$name: the daemon outlived the unmount"
	kill -CONT "$PROXY_PID" 2>/dev/null || true
	stop_proxy
}

run_case v3 "vers=3,mountport=$MOUNT_PORT,nolock"
run_case v41 "vers=4.1"
grep -q "did not take back this mount's state within" "$NFSFUSE_LOG" ||
	fail "the v4.1 daemon did not say it gave up on the server's state: $(tail -n 5 "$NFSFUSE_LOG")"
echo "PASS: nfs4_dead_unmount"
