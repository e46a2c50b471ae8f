#!/usr/bin/env bash
# Exclusive create (NFSv3 EXCLUSIVE with a verifier, then SETATTR) and
# silly rename (unlink or rename over a file that is still open), each
# checked against the export directory on the server side.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_cmd python3
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"

T=$(make_testdir silly)
S=$EXPORT_DIR/$T             # the server's view
MNT=$(new_mountpoint)
# Each mount its own AUTH_SYS name: mounts with locks need one apiece.
mount_nfsfuse "$MNT" -o actimeo=0,hostname=sillyA
M=$MNT/$T                    # the client's view

silly_on_server() { # DIR: the .nfs names in a server directory
	find "$1" -maxdepth 1 -name '.nfs*' -printf '%f\n'
}
no_silly() { [[ -z $(silly_on_server "$1") ]]; }
# The kernel sends RELEASE after close(2) has returned: what happens at
# the last close is awaited, not assumed done.
assert_no_silly() { # DIR MSG
	wait_until 5 no_silly "$1" || fail "$2: $(silly_on_server "$1")"
}

# ---------------------------------------------------------------- O_EXCL

echo old >"$M/exists"
out=$(python3 - "$M/exists" <<'PY'
import os, sys
try:
    os.open(sys.argv[1], os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    print("created")
except FileExistsError:
    print("EEXIST")
PY
)
assert_eq EEXIST "$out" "O_EXCL create of an existing name"
assert_file_content "$S/exists" old "the existing file is untouched"

# A new name: the requested mode, and times that are times (the server
# may have kept our verifier in atime/mtime until the SETATTR).
before=$(date +%s)
python3 - "$M/new" <<'PY'
import os, sys
os.umask(0o022)
fd = os.open(sys.argv[1], os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o640)
os.write(fd, b"fresh\n")
os.close(fd)
PY
after=$(date +%s)
assert_eq 640 "$(stat_of %a "$S/new")" "mode of an exclusive create (server side)"
assert_file_content "$S/new" fresh "data of an exclusive create"
for t in %Y %X; do
	v=$(stat_of "$t" "$S/new")
	((v >= before - 2 && v <= after + 2)) ||
		fail "time $t of an exclusive create is $v, not between $before and $after"
done
assert_eq 640 "$(stat_of %a "$M/new")" "mode seen through the mount"

# Plain O_CREAT on a name that appeared behind the kernel's back opens it.
out=$(python3 - "$M/later" "$S/later" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_CREAT | os.O_WRONLY, 0o600)
os.write(fd, b"mine\n")
os.close(fd)
print(open(sys.argv[2]).read().strip())
PY
)
assert_eq mine "$out" "plain O_CREAT"

# Two mounts race for the same names: exactly one O_EXCL create wins each.
MNT2=$(new_mountpoint)
mount_nfsfuse "$MNT2" -o actimeo=0,hostname=sillyB
GO=$NFSFUSE_TMP/go
race() { # MNT NAME...: print W for each name this mount created, L if not
	python3 - "$GO" "$@" <<'PY'
import os, sys, time
go, d = sys.argv[1], sys.argv[2]
while not os.path.exists(go):   # both start together
    time.sleep(0.001)
out = []
for n in sys.argv[3:]:
    try:
        os.close(os.open(os.path.join(d, n), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        out.append("W")
    except FileExistsError:
        out.append("L")
print("".join(out))
PY
}
names=$(seq -f 'race%g' 1 40)
# shellcheck disable=SC2086
race "$M" $names >"$NFSFUSE_TMP/r1" &
p1=$!
# shellcheck disable=SC2086
race "$MNT2/$T" $names >"$NFSFUSE_TMP/r2" &
p2=$!
sleep 0.5
touch "$GO"
wait "$p1" || fail "racer 1 failed"
wait "$p2" || fail "racer 2 failed"
r1=$(cat "$NFSFUSE_TMP/r1") r2=$(cat "$NFSFUSE_TMP/r2")
assert_eq 40 "${#r1}" "racer 1 answered every name"
assert_eq 40 "${#r2}" "racer 2 answered every name"
for ((k = 0; k < 40; k++)); do
	w="${r1:k:1}${r2:k:1}"
	[[ $w == WL || $w == LW ]] || fail "race$((k + 1)): outcomes $w, not exactly one winner"
done
note "race winners: mount 1 ${r1//[^W]/} / mount 2 ${r2//[^W]/}"
umount_nfsfuse "$MNT2"

# -o excl=guarded: the same semantics through GUARDED creates.
MNT3=$(new_mountpoint)
mount_nfsfuse "$MNT3" -o actimeo=0,excl=guarded,hostname=sillyC
out=$(python3 - "$MNT3/$T/guarded" <<'PY'
import os, sys
os.close(os.open(sys.argv[1], os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
try:
    os.open(sys.argv[1], os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    print("created twice")
except FileExistsError:
    print("EEXIST")
PY
)
assert_eq EEXIST "$out" "excl=guarded"
assert_eq 600 "$(stat_of %a "$S/guarded")" "mode of a guarded create"
umount_nfsfuse "$MNT3"
expect_fail_with "excl" "$NFSFUSE" "$SERVER:$EXPORT" "$(new_mountpoint)" -o excl=bogus

# ---------------------------------------------------------------- silly rename

renames0=$(counter "$MNT" silly_renames)
removes0=$(counter "$MNT" silly_removes)

# Unlink an open file: it stays readable and writable through the
# descriptor under a .nfs name, which is listed, and goes at close.
printf 'hello\n' >"$M/open1"
out=$(python3 - "$M" "$S" <<'PY'
import os, sys
m, s = sys.argv[1], sys.argv[2]
fd = os.open(os.path.join(m, "open1"), os.O_RDWR)
os.unlink(os.path.join(m, "open1"))
assert not os.path.exists(os.path.join(m, "open1")), "name still there"
assert os.pread(fd, 100, 0) == b"hello\n", "read after unlink"
os.pwrite(fd, b"world\n", 6)
os.fsync(fd)
assert os.pread(fd, 100, 0) == b"hello\nworld\n", "read back after write"
silly_m = [n for n in os.listdir(m) if n.startswith(".nfs")]
silly_s = [n for n in os.listdir(s) if n.startswith(".nfs")]
assert len(silly_m) == 1, "listed through the mount: %r" % silly_m
assert silly_m == silly_s, "mount %r, server %r" % (silly_m, silly_s)
assert open(os.path.join(s, silly_s[0]), "rb").read() == b"hello\nworld\n", \
    "the silly file on the server holds what was written"
assert os.fstat(fd).st_size == 12, "fstat after unlink"
os.close(fd)
print(silly_s[0])
PY
) || fail "unlink of an open file: $out"
assert_match "$out" '^\.nfs[0-9a-f]{16}$' "silly name"
assert_no_silly "$S" "the silly name is removed at close"
assert_eq $((renames0 + 1)) "$(counter "$MNT" silly_renames)" "silly_renames"
# The REMOVE goes out in the last release, which the kernel may send
# after close() returned.
wait_until 60 counter_is "$MNT" silly_removes $((removes0 + 1)) || true
assert_eq $((removes0 + 1)) "$(counter "$MNT" silly_removes)" "silly_removes"

# A file that is not open is removed at once.
echo x >"$M/closed"
rm "$M/closed"
assert_not_exists "$S/closed" "unlink of a closed file"
assert_no_silly "$S" "no silly name for a closed file"

# Rename over an open file: the target's data lives on through its
# descriptor, and the new name holds the source.
echo target >"$M/tgt"
echo source >"$M/src"
out=$(python3 - "$M" "$S" <<'PY'
import os, sys
m, s = sys.argv[1], sys.argv[2]
fd = os.open(os.path.join(m, "tgt"), os.O_RDONLY)
os.rename(os.path.join(m, "src"), os.path.join(m, "tgt"))
assert open(os.path.join(s, "tgt")).read() == "source\n", "rename result"
assert os.pread(fd, 100, 0) == b"target\n", "old target through its fd"
n = [x for x in os.listdir(s) if x.startswith(".nfs")]
assert len(n) == 1, "one silly name on the server: %r" % n
os.close(fd)
print("ok")
PY
) || fail "rename over an open file: $out"
assert_no_silly "$S" "rename target's silly name removed at close"

# rmdir of a directory whose only entry is our silly file: it succeeds,
# the file stays usable, and the silly name goes at close.
mkdir "$M/dir"
echo inside >"$M/dir/f"
out=$(python3 - "$M" "$S" <<'PY'
import os, sys
m, s = sys.argv[1], sys.argv[2]
fd = os.open(os.path.join(m, "dir/f"), os.O_RDWR)
os.unlink(os.path.join(m, "dir/f"))
os.rmdir(os.path.join(m, "dir"))
assert not os.path.exists(os.path.join(s, "dir")), "dir still on the server"
assert os.pread(fd, 100, 0) == b"inside\n", "read after rmdir"
os.pwrite(fd, b"INSIDE\n", 0)
os.fsync(fd)
assert os.pread(fd, 100, 0) == b"INSIDE\n", "write after rmdir"
os.close(fd)
print("ok")
PY
) || fail "rmdir with a silly file inside: $out"
assert_not_exists "$S/dir" "rmdir"
assert_no_silly "$S" "moved silly name removed at close"

# ... but a directory with anything else in it is still not empty.
mkdir "$M/dir2"
echo a >"$M/dir2/f"
echo b >"$M/dir2/other"
exec 3<"$M/dir2/f"
rm "$M/dir2/f"
expect_fail_with "Directory not empty" rmdir "$M/dir2"
assert_exists "$S/dir2/other" "the other entry"
[[ -n $(silly_on_server "$S/dir2") ]] || fail "the silly file stays where it was"
exec 3<&-
assert_no_silly "$S/dir2" "silly name removed at close"
rm "$M/dir2/other"
rmdir "$M/dir2"

# ---------------------------------------------------------------- crash cleanup

# A daemon killed while it holds an unlinked file leaves its .nfs name;
# the next mount of the same export at the same place removes it when it
# lists the directory.
CM=$(new_mountpoint)
mount_nfsfuse "$CM" -f -o actimeo=0,hostname=sillyD
echo doomed >"$CM/$T/crash"
exec 3<"$CM/$T/crash"
rm "$CM/$T/crash"
left=$(silly_on_server "$S")
[[ -n $left ]] || fail "no silly name before the crash"
pid=$(nfsfuse_pids "$(realpath "$CM")")
[[ -n $pid ]] || fail "no daemon for $CM"
kill -KILL $pid
wait_until 10 _pid_gone "$pid" || fail "daemon did not die"
exec 3<&- || true
umount_nfsfuse "$CM"
# Another mount does not take what it did not leave.
ls -a "$M" >/dev/null
assert_eq "$left" "$(silly_on_server "$S")" "another mount leaves the name alone"
mount_nfsfuse "$CM" -o actimeo=0,hostname=sillyD
listing=$(ls -a "$CM/$T")
[[ $listing != *"$left"* ]] || fail "the orphan is listed: $listing"
assert_eq "" "$(silly_on_server "$S")" "orphan removed by the next mount"
assert_eq 1 "$(counter "$CM" silly_orphans)" "silly_orphans"
umount_nfsfuse "$CM"

umount_nfsfuse "$MNT"
echo PASS
