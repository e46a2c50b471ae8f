#!/usr/bin/env bash
# A name a LOOKUP found missing is remembered, as the kernel remembers a
# negative entry, while the directory's attributes are trusted and nobody
# else changed it: the kernel asks about such a name again before a
# create with O_EXCL or a rename over it (the Linux client sends neither
# LOOKUP), and that is answered without one.  A change by another client
# -- seen in the wcc of our next change in the directory, or once its
# attributes time out -- ends it, as does lookupcache=positive.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"
need_cmd python3
need_root # drop_caches: the kernel must forget its dentries

T=$(make_testdir absent_names)
S=$EXPORT_DIR/$T
A=$(new_mountpoint)
B=$(new_mountpoint)
mount_nfsfuse "$A" -o hostname=clientA
mount_nfsfuse "$B" -o hostname=clientB
mkdir "$S/d" # made on the server: not a directory A knows complete
stat "$A/$T/d" >/dev/null

# --- a create with O_EXCL of a name just found missing --------------------
assert_not_exists "$A/$T/d/x" "a name nobody made"
l0=$(calls "$A" LOOKUP)
h0=$(counter "$A" lookup_absent_known)
python3 - "$A/$T/d/x" <<'PY'
import os, sys
fd = os.open(sys.argv[1], os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
os.write(fd, b"x\n")
os.close(fd)
PY
assert_eq 0 "$(($(calls "$A" LOOKUP) - l0))" "LOOKUPs for an O_EXCL create of a name just found missing"
[[ $(counter "$A" lookup_absent_known) -gt $h0 ]] || fail "the kernel's second lookup was not answered from the name found missing"
assert_file_content "$S/d/x" "x" "the file the create made"

# --- a rename over a name just found missing -----------------------------
echo new >"$A/$T/d/tmp"
assert_not_exists "$A/$T/d/target" "a name nobody made"
l0=$(calls "$A" LOOKUP)
mv "$A/$T/d/tmp" "$A/$T/d/target"
assert_eq 0 "$(($(calls "$A" LOOKUP) - l0))" "LOOKUPs for a rename over a name just found missing"
assert_file_content "$A/$T/d/target" "new" "the renamed file"
assert_not_exists "$S/d/tmp" "the old name"

# --- a name we made ourselves is found, not remembered missing ------------
assert_not_exists "$A/$T/d/mine" "a name nobody made"
echo mine >"$A/$T/d/mine"
forget_dentries
assert_file_content "$A/$T/d/mine" "mine" "a name found missing, then made here"
assert_not_exists "$A/$T/d/gone" "a name nobody made"
ln -s x "$A/$T/d/gone"
mkdir "$A/$T/d/sub"
assert_not_exists "$A/$T/d/sub/moved" "a name nobody made"
mv "$A/$T/d/target" "$A/$T/d/sub/moved"
forget_dentries
[[ -L $A/$T/d/gone ]] || fail "a symlink made over a name found missing is not found"
assert_file_content "$A/$T/d/sub/moved" "new" "a file renamed over a name found missing"

# --- another client's create, seen in the wcc of our next change ---------
assert_not_exists "$A/$T/d/fromB" "a name nobody made"
echo fromB >"$B/$T/d/fromB"
echo ours >"$A/$T/d/after" # its wcc shows a change that was not ours
forget_dentries
assert_file_content "$A/$T/d/fromB" "fromB" "B's file, after A's next change in the directory"

# --- another client's create, seen once the attributes time out ----------
C=$(new_mountpoint)
mount_nfsfuse "$C" -o hostname=clientC,acdirmin=1,acdirmax=1
assert_not_exists "$C/$T/d/late" "a name nobody made"
echo late >"$B/$T/d/late"
sleep 2 # past acdirmax: C asks the server again
forget_dentries
assert_file_content "$C/$T/d/late" "late" "B's file once C's attributes of the directory timed out"

# --- lookupcache=positive: nothing missing is remembered -----------------
P=$(new_mountpoint)
mount_nfsfuse "$P" -o hostname=clientP,lookupcache=positive
assert_not_exists "$P/$T/d/p" "a name nobody made"
l0=$(calls "$P" LOOKUP)
touch "$P/$T/d/p"
[[ $(($(calls "$P" LOOKUP) - l0)) -ge 1 ]] || fail "lookupcache=positive: a create after a lookup that found nothing sent no LOOKUP"
assert_eq 0 "$(counter "$P" lookup_absent_known)" "lookupcache=positive never answers from a name found missing"
echo PASS
