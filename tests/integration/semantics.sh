#!/usr/bin/env bash
# File semantics that NFSv3 leaves to the client to get right, checked
# against the export directory itself (the local disk) as the oracle:
#  - link counts after every order of link, unlink and rename (over an
#    existing name too), through names and through open descriptors (a
#    file unlinked while open shows 0 links, as on a local disk), seen by
#    the mount that made the change and by a second mount looking;
#  - a write by a non-owner to a setuid/setgid file it may write succeeds
#    and clears the bits on the server (allow_other mount, second user).
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_cmd python3
OPS=$NFSFUSE_LIB_DIR/nlink_ops.py

T=$(make_testdir semantics)
A=$(new_mountpoint)
B=$(new_mountpoint)
mount_nfsfuse "$A" -o hostname=semA
# The looking mount revalidates at every stat: what it shows is what the
# server says, read through a second client's cache.
mount_nfsfuse "$B" -o hostname=semB,noac

# --- link counts ---------------------------------------------------------
mkdir "$EXPORT_DIR/$T/local" "$A/$T/mine" "$A/$T/shared"
python3 "$OPS" "$EXPORT_DIR/$T/local" >"$NFSFUSE_TMP/local.out" ||
	fail "the oracle run on the local disk failed"
with_timeout python3 "$OPS" "$A/$T/mine" >"$NFSFUSE_TMP/mine.out" ||
	fail "the run through the mount failed"
diff -u "$NFSFUSE_TMP/local.out" "$NFSFUSE_TMP/mine.out" >&2 ||
	fail "link counts through the mount differ from the local disk's"
# Every name the runs made is gone, .nfs names included.
assert_eq "" "$(ls -A "$EXPORT_DIR/$T/mine")" "names left behind on the server"
with_timeout python3 "$OPS" "$A/$T/shared" "$B/$T/shared" >"$NFSFUSE_TMP/shared.out" ||
	fail "the run seen through a second mount failed"
diff -u "$NFSFUSE_TMP/local.out" "$NFSFUSE_TMP/shared.out" >&2 ||
	fail "link counts seen by a second mount differ from the local disk's"

echo PASS
