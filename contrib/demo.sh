#!/usr/bin/env bash
# One command from a fresh checkout to a mounted NFS export:
#
#   contrib/demo.sh [MOUNTPOINT]        (default /tmp/nfsfuse-demo)
#
# Installs the dependencies (root or sudo needed only if something is
# missing), builds nfsfuse into build/, starts the loopback test server
# (contrib/test-server.sh) and mounts its export at MOUNTPOINT.
#
# Everything after the install step also works as an ordinary user, once the
# server is running (starting it needs root or sudo).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
# mountpoint and the RPC tools live in /usr/sbin, missing from ordinary
# users' PATH on Debian.
PATH=$PATH:/usr/sbin:/sbin

MNT=$(realpath -m -- "${1:-/tmp/nfsfuse-demo}")
STATE_DIR=$(realpath -m -- "${NFSFUSE_TEST_STATEDIR:-/tmp/nfsfuse-test-server}")
SERVER=127.0.0.1

say() { printf '\n==> %s\n' "$*"; }
die() {
	echo "demo: error: $*" >&2
	exit 1
}

is_fuse_mount() {
	awk -v m="$1" '$2 == m && $3 ~ /^fuse/ { f = 1 } END { exit !f }' /proc/self/mounts
}

say "checking dependencies"
bash contrib/install-deps.sh

say "building nfsfuse in build/"
if [[ ! -f build/meson-private/coredata.dat ]]; then
	meson setup build
fi
meson compile -C build
NFSFUSE=
for f in build/src/nfsfuse build/nfsfuse; do
	[[ -x $f ]] && { NFSFUSE=$ROOT/$f; break; }
done
[[ -n $NFSFUSE ]] || die "the build produced no nfsfuse binary"

say "starting the loopback NFS server"
bash contrib/test-server.sh start
EXPORT=$(cat "$STATE_DIR/export.path" 2>/dev/null) || EXPORT=$STATE_DIR/export

say "mounting $SERVER:$EXPORT at $MNT"
mkdir -p -- "$MNT"
if is_fuse_mount "$MNT"; then
	echo "already mounted; leaving it as it is"
else
	[[ -z $(ls -A -- "$MNT") ]] || die "$MNT is not empty; pick another mount point"
	# nfsfuse reports mount errors itself and detaches only once the
	# mount exists.
	"$NFSFUSE" "$SERVER:$EXPORT" "$MNT"
	for ((i = 0; i < 100; i++)); do
		is_fuse_mount "$MNT" && break
		sleep 0.1
	done
	is_fuse_mount "$MNT" || die "nfsfuse did not mount $MNT within 10 s"
fi

say "contents of $MNT"
# A misbehaving daemon must not leave the demo hanging with the user's shell.
if ! timeout 20 ls -la -- "$MNT"; then
	echo "demo: listing $MNT failed or took over 20 s; see above." >&2
	echo "demo: unmount with: fusermount3 -u $MNT  (or kill the nfsfuse process first if it hangs)" >&2
	exit 1
fi

cat <<EOF

nfsfuse is serving $SERVER:$EXPORT at $MNT.

  use it like any directory:                 echo hello >$MNT/hello.txt; ls -l $MNT
  the server-side view of the same files:    ls -l $EXPORT
  server log:                                $STATE_DIR/ganesha.log

When done:
  unmount (the nfsfuse daemon then exits):   fusermount3 -u $MNT
  stop the NFS server (as root):             contrib/test-server.sh stop
EOF
