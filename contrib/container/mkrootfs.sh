#!/usr/bin/env bash
# Make a minimal root file system tarball for an nfsfuse container image
# from binaries already built on this machine: no registry, no base image.
#
#   contrib/container/mkrootfs.sh [-o OUT.tar] [NFSFUSE [NFSFUSECTL]]
#
# The tarball holds nfsfuse and nfsfusectl (default: build/src/nfsfuse and
# build/tools/nfsfusectl of this checkout), fusermount3, a small shell and
# the few tools a mount needs to be used (sh, cat, ls, mkdir, rm, sleep),
# every shared library they load (as ldd finds them), and an /etc with
# root and nobody.  Import it with
#
#   podman import OUT.tar localhost/nfsfuse:latest
#   docker import OUT.tar nfsfuse:latest
#
# and run it as contrib/container/README.md shows.  The image is only as
# portable as the machine it came from: it carries that machine's libc.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SCRIPT_DIR/../.." && pwd)
OUT=nfsfuse-rootfs.tar
if [[ ${1:-} == -o ]]; then
	[[ $# -ge 2 ]] || { echo "usage: $0 [-o OUT.tar] [NFSFUSE [NFSFUSECTL]]" >&2; exit 2; }
	OUT=$2
	shift 2
fi
NFSFUSE=${1:-$REPO/build/src/nfsfuse}
NFSFUSECTL=${2:-$REPO/build/tools/nfsfusectl}
PATH=$PATH:/usr/sbin:/sbin

die() { echo "mkrootfs: error: $*" >&2; exit 1; }
[[ -x $NFSFUSE ]] || die "$NFSFUSE is not an executable (build first: ninja -C build)"
[[ -x $NFSFUSECTL ]] || die "$NFSFUSECTL is not an executable"
FUSERMOUNT=$(command -v fusermount3) || die "fusermount3 is missing (package fuse3)"
command -v ldd >/dev/null || die "ldd is missing"

ROOT=$(mktemp -d "${TMPDIR:-/tmp}/nfsfuse-rootfs.XXXXXX")
trap 'rm -rf -- "$ROOT"' EXIT
mkdir -p "$ROOT"/{usr/bin,etc,dev,proc,sys,tmp,run,mnt,root}
chmod 1777 "$ROOT/tmp"
ln -s usr/bin "$ROOT/bin"

# The libraries (and the dynamic loader) a program loads, copied to the
# same paths, symlinks resolved.
add_libs() {
	local lib
	for lib in $(ldd "$1" | awk '/=> \// { print $3 } /^\t\// { print $1 }'); do
		[[ -e $ROOT$lib ]] && continue
		mkdir -p "$ROOT$(dirname "$lib")"
		cp -L -- "$lib" "$ROOT$lib"
	done
}
add_prog() { # path-in-image program
	cp -L -- "$2" "$ROOT$1"
	add_libs "$2"
}

add_prog /usr/bin/nfsfuse "$NFSFUSE"
add_prog /usr/bin/nfsfusectl "$NFSFUSECTL"
# Set-uid as in the fuse3 package: it is what an ordinary user of the
# container mounts with, where the container may mount at all.
add_prog /usr/bin/fusermount3 "$FUSERMOUNT"
chmod 4755 "$ROOT/usr/bin/fusermount3"
for p in sh cat ls mkdir rm sleep; do
	add_prog "/usr/bin/$p" "$(command -v "$p")" || die "$p is missing"
done
# Where libc looks for the libraries when run as /lib64/ld-linux...: the
# copied paths are those of this machine, so the default search finds them.

cat >"$ROOT/etc/passwd" <<'PASSWD'
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/sh
PASSWD
cat >"$ROOT/etc/group" <<'GROUP'
root:x:0:
nogroup:x:65534:
GROUP
echo 'passwd: files
group: files
hosts: files' >"$ROOT/etc/nsswitch.conf"
echo '127.0.0.1 localhost' >"$ROOT/etc/hosts"
# fusermount3 reads it; user_allow_other lets a user's mount take
# allow_other, as on a host where the administrator allows it.
echo 'user_allow_other' >"$ROOT/etc/fuse.conf"
ln -s ../proc/self/mounts "$ROOT/etc/mtab"

tar --numeric-owner --owner=0 --group=0 -C "$ROOT" -cf "$OUT" .
echo "mkrootfs: wrote $OUT ($(du -h "$OUT" | cut -f1))"
