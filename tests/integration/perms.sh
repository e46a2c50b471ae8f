#!/usr/bin/env bash
# Permissions as strict as a local disk, for every caller, on one
# allow_other mount: users A and B (B in a group G of the test's own) try
# what the mode bits forbid, and each outcome is compared with the same
# operation on the export directory itself (the server's local disk).
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_root
need_cmd setpriv
need_cmd mkfifo

UA=nfsfuse-pa UB=nfsfuse-pb G=nfsfuse-pg
PY=/usr/bin/python3

ensure_group "$G"
ensure_user "$UA" "$G"
ensure_user "$UB" "$G"
GID_G=$(getent group "$G" | cut -d: -f3)
UID_B=$(id -u "$UB")

# One system call, its outcome printed: "ok" (and what was read), or the
# errno's name.
OP=$NFSFUSE_TMP/op.py
cat >"$OP" <<'PY'
import errno, os, sys
op, path = sys.argv[1], sys.argv[2]
arg = sys.argv[3] if len(sys.argv) > 3 else None
FL = {"RDONLY": os.O_RDONLY, "WRONLY": os.O_WRONLY, "RDWR": os.O_RDWR,
      "TRUNC": os.O_TRUNC, "NONBLOCK": os.O_NONBLOCK, "CREAT": os.O_CREAT,
      "DIRECTORY": os.O_DIRECTORY}
try:
    out = "ok"
    if op == "open":
        flags = 0
        for f in arg.split("|"):
            flags |= FL[f]
        os.close(os.open(path, flags, 0o644))
    elif op == "read":
        with open(path) as f:
            out = "ok " + f.read().strip()
    elif op == "chmod":
        os.chmod(path, int(arg, 8))
    elif op == "chown":
        os.chown(path, int(arg), -1)
    elif op == "utime":
        os.utime(path, (1000000000, 1000000000))
    elif op == "truncate":
        os.truncate(path, int(arg))
    elif op == "link":
        os.link(path, arg)
    elif op == "stat":
        os.stat(path)
    elif op == "create":
        with open(path, "w") as f:
            f.write(arg or "")
    else:
        sys.exit("unknown op " + op)
    print(out)
except OSError as e:
    print(errno.errorcode[e.errno])
PY
chmod 0644 "$OP"

as_a() { setpriv --reuid="$UA" --regid="$UA" --init-groups -- "$PY" "$OP" "$@"; }
as_b() { setpriv --reuid="$UB" --regid="$UB" --init-groups -- "$PY" "$OP" "$@"; }
# B with the same uid and gid but no supplementary groups.
as_b_nogroups() { setpriv --reuid="$UB" --regid="$UB" --clear-groups -- "$PY" "$OP" "$@"; }

T=$(make_testdir perms)
S=$EXPORT_DIR/$T
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -o allow_other
M=$MNT/$T

# expect WHO WANT OP NAME [ARG]: the outcome of OP on NAME (relative to the
# test directory) through the mount is WANT, and the same as on the export
# directory when COMPARE_LOCAL=1 (ops that change nothing when refused).
expect() {
	local who=$1 want=$2 op=$3 name=$4 arg=${5:-} got
	got=$("$who" "$op" "$M/$name" ${arg:+"$arg"})
	assert_eq "$want" "$got" "$who $op $name ${arg:+$arg }through the mount"
	if [[ ${COMPARE_LOCAL:-1} -eq 1 ]]; then
		got=$("$who" "$op" "$S/$name" ${arg:+"$arg"})
		assert_eq "$want" "$got" "$who $op $name ${arg:+$arg }on the export directory (local disk)"
	fi
}

# --- files made by A through the mount carry A's identity on the server
assert_eq ok "$(as_a create "$M/a600" secret)" "A creates a file"
assert_eq "$UA" "$(stat_of %U "$S/a600")" "owner on the server of A's file"
chmod_a() { assert_eq ok "$(as_a chmod "$M/$1" "$2")" "A: chmod $2 $1"; }
chmod_a a600 600
assert_eq ok "$(as_a create "$M/a640" group-data)" "A creates a file"
setpriv --reuid="$UA" --regid="$UA" --init-groups -- chgrp "$G" "$M/a640" ||
	fail "A cannot give its file to group $G"
chmod_a a640 640
assert_eq "$GID_G" "$(stat_of %g "$S/a640")" "group on the server"

# --- A's 0600 file is refused to B; its owner alone may chmod, chown, utime
expect as_b EACCES read a600
expect as_b EACCES open a600 WRONLY
expect as_b EACCES truncate a600 0
expect as_b EPERM chmod a600 666
expect as_b EPERM chown a600 "$UID_B"
expect as_b EPERM utime a600
assert_file_content "$S/a600" secret "A's file after B's attempts"
assert_eq 600 "$(stat_of %a "$S/a600")" "mode after B's attempts"

# --- group G's file: B reads it only through its supplementary group, also
# right after a read with the group, and again with it afterwards
expect as_b "ok group-data" read a640
expect as_b_nogroups EACCES read a640
expect as_b_nogroups EACCES open a640 RDONLY
expect as_b "ok group-data" read a640
expect as_b EACCES open a640 WRONLY

# --- a 0644 file inside A's 0700 directory, just used by A: the kernel has
# the names cached, and still B may not pass the directory
assert_eq ok "$(as_a stat "$M")" "A reaches the test directory"
mkdir_out=$(setpriv --reuid="$UA" --regid="$UA" --init-groups -- mkdir -m 0700 "$M/adir" 2>&1) ||
	fail "A cannot mkdir: $mkdir_out"
assert_eq ok "$(as_a create "$M/adir/f" inner)" "A creates a file in its 0700 directory"
chmod_a adir/f 644
assert_eq "ok inner" "$(as_a read "$M/adir/f")" "A reads its file"
expect as_b EACCES read adir/f
expect as_b EACCES stat adir/f
expect as_b EACCES chmod adir/f 666
expect as_b EACCES chown adir/f "$UID_B"
expect as_b EACCES truncate adir/f 0
COMPARE_LOCAL=0 expect as_b EACCES link adir/f "$M/blink"
assert_eq EACCES "$(as_b link "$S/adir/f" "$S/blink")" "B links A's file on the export directory"
assert_not_exists "$S/blink" "a link made by B"
assert_file_content "$S/adir/f" inner "A's file after B's attempts"
assert_eq 644 "$(stat_of %a "$S/adir/f")" "its mode after B's attempts"

# --- a FIFO and a directory with mode 0 refuse open, to B and to A alike
setpriv --reuid="$UA" --regid="$UA" --init-groups -- mkfifo -m 0600 "$M/fifo" ||
	fail "A cannot make a FIFO"
setpriv --reuid="$UA" --regid="$UA" --init-groups -- mkdir "$M/d0" ||
	fail "A cannot mkdir"
chmod_a fifo 000
chmod_a d0 000
assert_eq p "$(stat_of %A "$S/fifo" | cut -c1)" "a FIFO on the server"
for who in as_a as_b; do
	expect "$who" EACCES open fifo "RDONLY|NONBLOCK"
	expect "$who" EACCES open fifo "WRONLY|NONBLOCK"
	expect "$who" EACCES open d0 "RDONLY|DIRECTORY"
done

# --- the owner of a 0477 file may not truncate it through O_RDONLY|O_TRUNC
assert_eq ok "$(as_a create "$M/a477" keepme)" "A creates a file"
chmod_a a477 477
expect as_a EACCES open a477 "RDONLY|TRUNC"
assert_file_content "$S/a477" keepme "the bytes of the 0477 file"
assert_eq "ok keepme" "$(as_a read "$M/a477")" "the 0477 file read by its owner"

# --- and what is allowed still works, with the caller's identity
chmod_a adir 755
expect as_b "ok inner" read adir/f
assert_eq ok "$(as_b create "$M/bfile" mine)" "B creates a file"
assert_eq "$UB" "$(stat_of %U "$S/bfile")" "owner on the server of B's file"

# --- one thread that takes another identity is sent that identity's groups
# at once, however soon after its last request (the daemon keeps callers'
# groups by thread id, uid and gid): a request as B's uid with A's gid and
# no groups, or as A with B's gid, then B with group G reads G's file
SWITCH=$NFSFUSE_TMP/switch.py
cat >"$SWITCH" <<'PY'
import os, sys
m, name, uid0, gid0, uid1, gid1, g = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
os.setgroups([])
os.setresgid(gid0, gid0, 0)
os.setresuid(uid0, uid0, 0)
try:
    os.stat(m + "/" + name)
except FileNotFoundError:
    pass
os.setresuid(-1, 0, -1)
os.setgroups([g])
os.setresgid(gid1, gid1, 0)
os.setresuid(-1, uid1, -1)
try:
    with open(m + "/a640") as f:
        print("ok " + f.read().strip())
except OSError as e:
    print(os.strerror(e.errno))
PY
UID_A=$(id -u "$UA")
GID_A=$(id -g "$UA")
GID_B=$(id -g "$UB")
assert_eq "ok group-data" "$("$PY" "$SWITCH" "$M" nosuch.gid "$UID_B" "$GID_A" "$UID_B" "$GID_B" "$GID_G")" \
	"B with group G right after B's uid with another gid and no groups"
assert_eq "ok group-data" "$("$PY" "$SWITCH" "$M" nosuch.uid "$UID_A" "$GID_B" "$UID_B" "$GID_B" "$GID_G")" \
	"B with group G right after another uid with B's gid and no groups"

umount_nfsfuse "$MNT"
echo "PASS: perms"
