#!/usr/bin/env bash
# What we wrote stays cached after close when the server's replies prove
# (or, without pre-op attributes, are consistent with) the change being
# ours alone -- so reading it back costs no READ -- and is purged when
# another client changed the file meanwhile.  nfs-ganesha sends WRITE and
# COMMIT replies with post-op attributes only, so here the second rule is
# the one at work: the end state must be exactly what our writes leave.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"
need_cmd python3
need_root # drop_caches: make the kernel ask the daemon again

T=$(make_testdir write_wcc)
S=$EXPORT_DIR/$T
A=$(new_mountpoint)
B=$(new_mountpoint)
mount_nfsfuse "$A" -o hostname=clientA
mount_nfsfuse "$B" -o hostname=clientB

# Drop the kernel's pages (not its inodes: the daemon's cache lives as
# long as the kernel knows the file).
drop_pages() { sync; echo 1 >/proc/sys/vm/drop_caches; }

# --- our own writes: kept, and read back without a READ ----------------
head -c 3000000 /dev/urandom >"$NFSFUSE_TMP/data"
p0=$(counter "$A" purge_wcc)
cp "$NFSFUSE_TMP/data" "$A/$T/mine"
assert_eq "$p0" "$(counter "$A" purge_wcc)" "our own writes, taken as ours, purge nothing"
drop_pages
r0=$(calls "$A" READ)
cmp "$NFSFUSE_TMP/data" "$A/$T/mine" || fail "read back differs from what was written"
assert_eq 0 "$(($(calls "$A" READ) - r0))" "reading back what we just wrote costs no READ"
cmp "$NFSFUSE_TMP/data" "$S/mine" || fail "the server holds other bytes"

# --- another client appends while our file is open: purged -------------
p0=$(counter "$A" purge_wcc)
python3 - "$A/$T/shared" "$NFSFUSE_TMP/go" "$NFSFUSE_TMP/ready" <<'PY' &
import os, sys, time
path, go, ready = sys.argv[1:4]
fd = os.open(path, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o666)
os.write(fd, b"a" * (1 << 20))   # large: sent at once, not held
os.fsync(fd)                     # on the server before B looks
open(ready, "w").close()
while not os.path.exists(go):
    time.sleep(0.05)
os.lseek(fd, 0, os.SEEK_SET)     # B appended meanwhile: rewrite the
os.write(fd, b"c" * (64 << 10))  # head, and close
os.close(fd)
PY
W=$!
wait_until 10 test -e "$NFSFUSE_TMP/ready" || fail "writer did not start"
printf 'TAIL-FROM-B' >>"$B/$T/shared"
touch "$NFSFUSE_TMP/go"
wait "$W" || fail "the writer failed"
[[ $(counter "$A" purge_wcc) -gt $p0 ]] || fail "another client's append went unnoticed at close (no purge)"
drop_pages
assert_eq "TAIL-FROM-B" "$(tail -c 11 "$A/$T/shared")" "A sees B's append after its own close"
assert_eq "$(stat -c %s "$S/shared")" "$(stat -c %s "$A/$T/shared")" "A's size is the server's"
echo PASS
