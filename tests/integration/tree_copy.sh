#!/usr/bin/env bash
# A real source tree copied in and out, compared byte for byte; a large file
# with a known checksum; a directory of 5,000 entries; a cross-check with
# libnfs, a second and independent client.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse

T=$(make_testdir tree)
S=$EXPORT_DIR/$T
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT"
M=$MNT/$T

# A tree of real headers, with its symlinks and modes.
SRC=/usr/include/glib-2.0
[[ -d $SRC ]] || skip "$SRC is missing (libglib2.0-dev)"
cp -a "$SRC" "$M/glib"
diff -r "$SRC" "$S/glib" || fail "tree as the server stored it differs"
diff -r "$SRC" "$M/glib" || fail "tree read back through the mount differs"
assert_eq "$(cd "$SRC" && find . -printf '%P %y %m\n' | sort)" \
	"$(cd "$M/glib" && find . -printf '%P %y %m\n' | sort)" "names, types and modes"

# 100 MiB with a known checksum, written and read back.
BIG=$(tmpdir_new)/big
head -c $((100 << 20)) /dev/urandom >"$BIG"
want=$(sha256sum <"$BIG" | cut -d' ' -f1)
dd if="$BIG" of="$M/big" bs=1M status=none
assert_eq "$want" "$(sha256sum <"$S/big" | cut -d' ' -f1)" "100 MiB on the server"
# Read it back through a fresh mount so no page cache answers for the server.
umount_nfsfuse "$MNT"
mount_nfsfuse "$MNT"
assert_eq "$want" "$(sha256sum <"$M/big" | cut -d' ' -f1)" "100 MiB read back"

# 5,000 entries, created through the mount, listed both ways.
mkdir "$M/many"
(cd "$M/many" && for i in $(seq 1 5000); do : >"f$i"; done)
assert_eq 5000 "$(find "$S/many" -type f | wc -l)" "5,000 files on the server"
assert_eq 5000 "$(ls "$M/many" | wc -l)" "5,000 names listed through the mount"
assert_eq "$(ls "$S/many" | sort)" "$(ls "$M/many" | sort)" "the same names"
assert_eq 5000 "$(ls -l "$M/many" | grep -c '^-rw')" "ls -l sees every file"

# libnfs, an independent client, sees what nfsfuse wrote.
if command -v nfs-ls >/dev/null && command -v nfs-cat >/dev/null; then
	url="nfs://$SERVER$EXPORT/$T"
	assert_eq "$(ls "$M/glib" | sort)" \
		"$(nfs-ls "$url/glib" | awk '{ print $NF }' | grep -v '^\.\.\?$' | sort)" \
		"nfs-ls of the copied tree"
	assert_eq "$(sha256sum <"$SRC/glib.h" | cut -d' ' -f1)" \
		"$(nfs-cat "$url/glib/glib.h" | sha256sum | cut -d' ' -f1)" "nfs-cat of a copied file"
else
	skip "libnfs-utils (nfs-ls, nfs-cat) missing"
fi
umount_nfsfuse "$MNT"
echo "PASS: tree_copy"
