#!/usr/bin/env bash
# nfsfuse in a rootless container, as contrib/container/README.md says to
# run it.  An image is made here from this build's binaries with no
# registry (contrib/container/mkrootfs.sh, then `podman import`); an
# ordinary user runs it with rootless podman, once sharing the network
# namespace (--network host) and once behind slirp4netns (the server as
# the host's loopback, 10.0.2.2).  Inside, nfsfuse mounts the test server,
# a file is written, read back and listed; on the server the bytes are
# there.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_root          # the test user and its subordinate ids
need_cmd podman newuidmap newgidmap
TEST_USER=nfsfuse-ctr
ensure_test_user

# Rootless podman maps the container's ids onto the user's subordinate
# ranges; useradd gives a new user one where /etc/subuid exists.
ensure_subids() {
	local f start
	for f in /etc/subuid /etc/subgid; do
		grep -q "^$TEST_USER:" "$f" 2>/dev/null && continue
		start=$(awk -F: '{ e = $2 + $3; if (e > m) m = e } END { print (m > 100000 ? m : 100000) }' "$f" 2>/dev/null || echo 100000)
		# usermod takes the file's lock (a useradd elsewhere rewrites it).
		if [[ $f == /etc/subuid ]]; then
			usermod --add-subuids "$start-$((start + 65535))" "$TEST_USER"
		else
			usermod --add-subgids "$start-$((start + 65535))" "$TEST_USER"
		fi || fail "cannot give $TEST_USER subordinate ids in $f"
	done
}
ensure_subids

# The user's podman: its storage, configuration and runtime directory are
# this test's own.  cgroupfs and a file event log: no systemd user session
# here.  vfs storage: works on every kernel and file system.
PHOME=$NFSFUSE_TMP/podman-home
mkdir -p "$PHOME"
chown "$TEST_UID:$TEST_GID" "$PHOME"
RUNDIR=/run/user/$TEST_UID
mkdir -p "$RUNDIR"
chown "$TEST_UID:$TEST_GID" "$RUNDIR"
chmod 0700 "$RUNDIR"
PODMAN=(podman --storage-driver vfs --cgroup-manager cgroupfs --events-backend file)
# crun, podman's default runtime, refuses a machine whose cgroups are
# mounted in hybrid mode (v1 controllers beside a v2 tree); runc takes it.
# With cgroup v2 alone (Debian 12's default) crun runs the container
# without a cgroup of its own, which a user without a systemd session
# could not be given anyway.
RUN_OPTS=()
if [[ -e /sys/fs/cgroup/cgroup.controllers ]]; then
	RUN_OPTS+=(--cgroups disabled)
else
	command -v runc >/dev/null 2>&1 ||
		fail "cgroups in hybrid mode: rootless podman needs runc here (contrib/install-deps.sh)"
	PODMAN+=(--runtime runc)
fi
upodman() {
	as_user env HOME="$PHOME" XDG_RUNTIME_DIR="$RUNDIR" timeout -k 5 180 "${PODMAN[@]}" "$@"
}
# Rootless podman keeps a pause process holding its user namespace.
stop_pause() {
	local pid
	pid=$(cat "$RUNDIR/libpod/tmp/pause.pid" 2>/dev/null) || return 0
	[[ $(stat -c %u "/proc/$pid" 2>/dev/null) == "$TEST_UID" ]] && kill "$pid" 2>/dev/null
	return 0
}
on_exit rm -rf -- "$RUNDIR"
on_exit stop_pause

# The image, from this build's binaries.
TAR=$PHOME/rootfs.tar
"$REPO_ROOT/contrib/container/mkrootfs.sh" -o "$TAR" "$NFSFUSE" "$NFSFUSECTL" >&2 ||
	fail "mkrootfs.sh failed"
chown "$TEST_UID:$TEST_GID" "$TAR"
IMAGE=localhost/nfsfuse-test:latest
out=$(upodman import "$TAR" "$IMAGE" 2>&1) || fail "podman import failed: $out"

T=$(make_testdir container)
S=$EXPORT_DIR/$T

# run_in NAME SERVER-ADDRESS podman-run-options...: mount, write, read,
# list inside the container; prints what the container printed.
run_in() {
	local name=$1 addr=$2
	shift 2
	# noresvport: the container's root may not bind a reserved port in
	# the host's network namespace.
	upodman run --rm "${RUN_OPTS[@]}" "$@" --device /dev/fuse --cap-add SYS_ADMIN "$IMAGE" /bin/sh -c "
		set -e
		mkdir -p /mnt/nfs
		nfsfuse -o noresvport $addr:$EXPORT /mnt/nfs
		echo 'written in $name' >/mnt/nfs/$T/$name.txt
		echo read: \$(cat /mnt/nfs/$T/$name.txt)
		echo list: \$(ls /mnt/nfs/$T)
		nfsfusectl /mnt/nfs stats >/dev/null && echo ctl: ok
		fusermount3 -u /mnt/nfs
		echo unmounted" 2>&1
}

check_run() { # name output
	local name=$1 out=$2
	note "$name: $(tr '\n' ' ' <<<"$out")"
	assert_contains "$out" "read: written in $name" "$name: read back inside the container"
	assert_match "$out" "list: .*$name.txt" "$name: listed inside the container"
	assert_contains "$out" "ctl: ok" "$name: nfsfusectl inside the container"
	assert_contains "$out" "unmounted" "$name: unmounted inside the container"
	assert_file_content "$S/$name.txt" "written in $name" "$name: on the server"
}

out=$(run_in host-net "$SERVER" --network host) || fail "container (--network host) failed: $out"
check_run host-net "$out"

# slirp4netns opens /dev/net/tun as the user: udev makes it 0666 on a
# normal Debian system, install-deps.sh where there is no udev.
[[ $(stat -c %a /dev/net/tun 2>/dev/null) == 666 ]] ||
	fail "/dev/net/tun is not usable by ordinary users (contrib/install-deps.sh makes it so)"
out=$(run_in slirp 10.0.2.2 --network slirp4netns:allow_host_loopback=true) ||
	fail "container (slirp4netns) failed: $out"
check_run slirp "$out"
echo "PASS: container"
