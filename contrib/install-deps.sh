#!/usr/bin/env bash
# Install everything needed to build nfsfuse and run its test suite on
# Debian 12 (bookworm).  Idempotent: when every package is already present
# it touches nothing, not even the package lists.
#
# Runs apt-get as root, through sudo when started by an ordinary user.
set -euo pipefail

PACKAGES=(
	# build
	build-essential pkg-config meson ninja-build clang clang-14
	libfuse3-dev libglib2.0-dev libcmocka-dev libfuzzer-14-dev
	# sanitizer runtimes for clang builds (gcc's come with build-essential)
	libclang-rt-14-dev
	# runtime of the FUSE daemon
	fuse3
	# loopback NFSv3 test server and its helpers
	nfs-ganesha nfs-ganesha-vfs nfs-ganesha-mem rpcbind nfs-common
	# test tools: reference NFS client, packet capture, leak checking,
	# process and socket inspection, xattr/ACL command-line tools (POSIX
	# and NFSv4: nfs4_getfacl); for the benchmark, libnfs's headers (its
	# random-read baseline) and fio
	libnfs-utils libnfs-dev fio tshark valgrind procps psmisc iproute2 attr acl
	nfs4-acl-tools
	# profiles of the daemon (perf record -g -p PID)
	linux-perf
	# setpriv, runuser, mountpoint (essential, listed for clarity)
	util-linux
	# man pages (scdoc sources, checked with man and groff), the bash
	# completion's directory, the Prometheus text parser of the tests
	scdoc man-db groff-base bash-completion python3-prometheus-client
	# the rootless container test: podman, the subordinate-id helpers,
	# user-mode networking, and runc for machines whose cgroups are in
	# hybrid mode (crun refuses those)
	podman uidmap slirp4netns runc
)

# Ordinary users mount through fusermount3, which opens /dev/fuse as the
# user.  udev makes it 0666 on a normal Debian system; machines without
# udev (containers, minimal VMs) leave it 0600 and rootless mounts fail.
fuse_device_for_all() {
	[[ -c /dev/fuse ]] || return 0
	[[ $(stat -c %a /dev/fuse) == 666 ]] && return 0
	if [[ $(id -u) -eq 0 ]]; then
		chmod 0666 /dev/fuse
	elif command -v sudo >/dev/null 2>&1; then
		sudo chmod 0666 /dev/fuse
	fi
}
# slirp4netns (rootless containers' networking) opens /dev/net/tun as the
# user: 0666 from udev on a normal system, 0600 where there is no udev.
tun_device_for_all() {
	[[ -c /dev/net/tun ]] || return 0
	[[ $(stat -c %a /dev/net/tun) == 666 ]] && return 0
	if [[ $(id -u) -eq 0 ]]; then
		chmod 0666 /dev/net/tun
	elif command -v sudo >/dev/null 2>&1; then
		sudo chmod 0666 /dev/net/tun
	fi
}
trap 'fuse_device_for_all; tun_device_for_all' EXIT

missing=()
for p in "${PACKAGES[@]}"; do
	# dpkg-query exits 0 for removed-but-configured packages too, so look
	# at the status text rather than the exit code.
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[[ $status == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
	echo "install-deps: all ${#PACKAGES[@]} packages already installed"
	exit 0
fi
echo "install-deps: installing ${missing[*]}"

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=(sudo)
	else
		echo "install-deps: error: must run as root to install ${missing[*]} (sudo is not available)" >&2
		exit 1
	fi
fi

# No questions (tshark asks whether non-root users may capture), and wait
# for a concurrent apt/dpkg run instead of failing on its lock.
export DEBIAN_FRONTEND=noninteractive
APT=("${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -y)

# Mirrors hiccup; a fresh machine has no package lists at all, and a stale
# list can name versions the mirror no longer has, so update before every
# attempt.
for attempt in 1 2 3; do
	if "${APT[@]}" update && "${APT[@]}" install "${missing[@]}"; then
		echo "install-deps: done"
		exit 0
	fi
	echo "install-deps: attempt $attempt failed" >&2
	sleep $((attempt * 5))
done
echo "install-deps: error: could not install ${missing[*]}" >&2
exit 1
