#!/usr/bin/env bash
# NFSv4.1 open state against the test server: an OPEN for every open(2)
# and a CLOSE at each user's last close of a file (OPEN_DOWNGRADE when
# the access left shrinks), counted in `nfsfusectl stats`; a file
# unlinked while open stays readable and writable through its descriptor;
# O_CREAT|O_EXCL of a name that exists on the server gives EEXIST; two
# users each have their own open-owner (one's CLOSE leaves the other's
# open alone); READ, WRITE and ftruncate carry the open's stateid, not
# the anonymous one (seen on the wire with tshark); a truncate by path
# survives another process's close of the open whose stateid it took.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_root
need_cmd python3
need_cmd tshark
need_cmd dumpcap
TEST_USER=nfsfuse-v4open
ensure_test_user

T=$(make_testdir nfs4open)
S=$EXPORT_DIR/$T
chmod 777 "$S"
PCAP=$(tmpdir_new)/nfs4open.pcapng
chmod 755 "$(dirname "$PCAP")"
# With rpcbind (port 111) in: capture_start and capture_stop probe
# it to know the capture has begun and that it holds every last packet.
capture_start "$PCAP" "tcp port 2049 or port 111"

M=$(new_mountpoint)
# dircomplete and directories believed for a minute: the O_EXCL create
# below must reach the server for a name the daemon thinks absent.
mount_nfsfuse "$M" -o vers=4.1,allow_other,acdirmin=60,acdirmax=60,dircomplete
D=$M/$T
# stats_op OP: operations OP sent inside COMPOUNDs.
stats_op() {
	"$NFSFUSECTL" "$M" stats --json | python3 -c 'import json,sys
print(json.load(sys.stdin)["nfs4ops"].get(sys.argv[1], {}).get("calls", 0))' "$1"
}

# The program: each step, then the counters it must leave.  It prints
# how many open(2)s and last close(2)s it did.
cat >"$NFSFUSE_TMP/opens.py" <<'EOF'
import json, os, subprocess, sys, time

ctl, mnt, d, s = sys.argv[1:5]

def ops():
    out = subprocess.run([ctl, mnt, "stats", "--json"], check=True,
                         capture_output=True, text=True).stdout
    v4 = json.loads(out)["nfs4ops"]
    return {k: v4.get(k, {}).get("calls", 0)
            for k in ("OPEN", "CLOSE", "OPEN_DOWNGRADE")}

base = ops()

def wait_for(what, **want):
    # The kernel sends a release after close(2) returns: wait for it.
    for _ in range(600):
        now = ops()
        got = {k: now[k] - base[k] for k in want}
        if got == want:
            return
        time.sleep(0.05)
    sys.exit("%s: counters %s, expected %s" % (what, got, want))

opens = last_closes = 0
f = os.path.join(d, "a")
rw = os.open(f, os.O_RDWR | os.O_CREAT, 0o644); opens += 1
os.write(rw, b"hello")
r1 = os.open(f, os.O_RDONLY); opens += 1
r2 = os.open(f, os.O_RDONLY); opens += 1
wait_for("three opens", OPEN=3, CLOSE=0)
os.close(r1)
os.close(rw)  # only READ is left: a downgrade, no CLOSE
wait_for("downgrade", OPEN=3, CLOSE=0, OPEN_DOWNGRADE=1)
if os.pread(r2, 5, 0) != b"hello":
    sys.exit("read after the downgrade")
os.close(r2); last_closes += 1
wait_for("last close", OPEN=3, CLOSE=1, OPEN_DOWNGRADE=1)
# a file made on the server, opened and closed once
g = os.open(os.path.join(d, "b"), os.O_RDONLY); opens += 1
if os.read(g, 100) != b"server\n":
    sys.exit("read of b")
os.close(g); last_closes += 1
wait_for("open and close of b", OPEN=4, CLOSE=2, OPEN_DOWNGRADE=1)
print(opens, last_closes)
EOF
echo server >"$S/b"
out=$(python3 "$NFSFUSE_TMP/opens.py" "$NFSFUSECTL" "$M" "$D" "$S") ||
	fail "open and close counts: $out"
assert_eq "4 2" "$out" "opens and last closes of the program"
assert_eq hello "$(cat "$S/a")" "bytes written through the open"

# Unlinked while open: the descriptor still reads and writes.
python3 - "$D/c" <<'EOF' || fail "unlinked file through its descriptor"
import os, sys
p = sys.argv[1]
fd = os.open(p, os.O_RDWR | os.O_CREAT, 0o600)
os.write(fd, b"x" * 70000)
os.fsync(fd)
os.unlink(p)
if os.path.exists(p):
    sys.exit("still there after unlink")
os.pwrite(fd, b"after unlink", 65536)
os.fsync(fd)
if os.pread(fd, 12, 65536) != b"after unlink":
    sys.exit("read back after unlink")
os.ftruncate(fd, 65548)
if os.fstat(fd).st_size != 65548:
    sys.exit("size after ftruncate of the unlinked file")
os.close(fd)
EOF
no_silly() { ! ls -A "$S" | grep '^\.nfs' >/dev/null; }
wait_until 30 no_silly ||
	fail "a silly-renamed file stayed after the last close: $(ls -A "$S")"
assert_not_exists "$S/c" "unlinked file"

# O_EXCL of a name the kernel and the daemon believe absent but the
# server has: the kernel looks the name up again for O_EXCL, so the
# daemon must answer that from a directory made here (dircomplete), and
# the name is made behind its back.
mkdir "$D/x"
ls "$D/x" >/dev/null
echo mine >"$S/x/e"
before=$(stats_op OPEN)
python3 - "$D/x/e" <<'EOF' || fail "O_EXCL create of an existing name"
import errno, os, sys
try:
    os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
except FileExistsError:
    sys.exit(0)
sys.exit("no EEXIST")
EOF
assert_eq $((before + 1)) "$(stats_op OPEN)" "the exclusive OPEN reached the server"
assert_eq mine "$(cat "$S/x/e")" "the existing file untouched"

# An exclusive create of a new name: the mode, and times that are not
# the verifier, set by a SETATTR in the OPEN's own COMPOUND.
c0=$(calls "$M" COMPOUND) s0=$(stats_op SETATTR) o0=$(stats_op OPEN) l0=$(stats_op LOOKUP)
python3 - "$D/x/n" <<'EOF' || fail "O_EXCL create of a new name"
import os, sys
os.close(os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o640))
EOF
assert_eq $((o0 + 1)) "$(stats_op OPEN)" "OPENs of an exclusive create"
assert_eq $((s0 + 1)) "$(stats_op SETATTR)" "SETATTRs of an exclusive create"
# (and the LOOKUP of the name, if the daemon did not know it missing)
assert_eq $((c0 + 2 + $(stats_op LOOKUP) - l0)) "$(calls "$M" COMPOUND)" "COMPOUNDs of an exclusive create and its close"
assert_eq 640 "$(stat -c %a "$S/x/n")" "the mode of the exclusive create, on the server"
now=$(date +%s)
for t in X Y; do
	d=$((now - $(stat -c "%$t" "$S/x/n")))
	((d >= -5 && d <= 60)) || fail "time %$t of the exclusive create is $d s from now: the verifier, not a time"
done

# Two users: each its own open-owner.  Root's last close of the file
# must leave the other user's open (and so its WRITEs) alone.
echo shared >"$S/u"
chmod 666 "$S/u"
before=$(stats_op CLOSE)
python3 - "$D/u" "$TEST_UID" "$TEST_GID" "$NFSFUSECTL" "$M" "$before" <<'EOF' ||
import json, os, subprocess, sys, time
p, uid, gid, ctl, mnt, before = sys.argv[1], int(sys.argv[2]), \
    int(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6])
def closes():
    out = subprocess.run([ctl, mnt, "stats", "--json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)["nfs4ops"].get("CLOSE", {}).get("calls", 0)
opened_r, opened_w = os.pipe()
go_r, go_w = os.pipe()
pid = os.fork()
if pid == 0:
    os.setgroups([]); os.setgid(gid); os.setuid(uid)
    fd = os.open(p, os.O_RDWR)
    os.write(opened_w, b"1")
    os.read(go_r, 1)
    try:
        os.pwrite(fd, b"USER", 0)
        os.fsync(fd)
        os.close(fd)
    except OSError as e:
        print("other user's write after root's close:", e, file=sys.stderr)
        os._exit(1)
    os._exit(0)
os.read(opened_r, 1)
fd = os.open(p, os.O_RDWR)
os.close(fd)
for _ in range(600):
    if closes() == before + 1:
        break
    time.sleep(0.05)
else:
    sys.exit("root's last close sent no CLOSE while the other user "
             "had the file open")
os.write(go_w, b"1")
_, st = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(st))
EOF
	fail "two users' opens"
assert_eq USERed "$(cat "$S/u")" "the other user's write"
closes_are() { [[ $(stats_op CLOSE) == "$1" ]]; }
wait_until 30 closes_are $((before + 2)) ||
	fail "the other user's last close: $(stats_op CLOSE) CLOSEs, expected $((before + 2))"

# Reads, writes and ftruncate through the open.
head -c 200000 /dev/urandom >"$S/r"
python3 - "$D/r" "$D/w" <<'EOF' || fail "I/O through the open"
import os, sys
r, w = sys.argv[1:3]
fd = os.open(r, os.O_RDONLY)
data = b""
while True:
    b = os.read(fd, 65536)
    if not b:
        break
    data += b
os.close(fd)
if len(data) != 200000:
    sys.exit("read %d bytes" % len(data))
fd = os.open(w, os.O_RDWR | os.O_CREAT, 0o644)
os.write(fd, data)
os.fsync(fd)
os.ftruncate(fd, 1000)
os.close(fd)
EOF
cmp <(head -c 1000 "$S/r") "$S/w" || fail "bytes written and truncated"
assert_eq 1000 "$(stat_of %s "$S/w")" "size after ftruncate"
# O_RDONLY|O_TRUNC: an open for reading, a truncation all the same (its
# stateid cannot carry it)
cp "$S/w" "$S/t"
python3 -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_TRUNC))' \
	"$D/t" || fail "O_RDONLY|O_TRUNC"
assert_eq 0 "$(stat_of %s "$S/t")" "size after O_RDONLY|O_TRUNC"

# truncate(2) by path takes the stateid of the open another process of
# the same user holds, and that process's close may end the open while
# the SETATTR is on the wire: the truncate must still succeed.
python3 - "$D/tr" 1500 <<'EOF' || fail "truncate by path while another process opens and closes the file"
import multiprocessing as mp, os, sys
path, rounds = sys.argv[1], int(sys.argv[2])
def opener():
    for _ in range(rounds):
        os.close(os.open(path, os.O_RDWR))
def truncater():
    bad = []
    for i in range(rounds):
        try:
            os.truncate(path, i % 5000)
        except OSError as e:
            bad.append(f"round {i}: {e}")
    return bad
open(path, "w").close()
with mp.Pool(2) as pool:
    a = pool.apply_async(opener)
    t = pool.apply_async(truncater)
    a.get()
    bad = t.get()
if bad:
    sys.exit(f"{len(bad)} of {rounds} truncates failed, first: {bad[0]}")
EOF
assert_eq 1499 "$(stat_of %s "$S/tr")" "size after the last truncate"

umount_nfsfuse "$M"
capture_stop

tsh() { tshark -r "$PCAP" "$@" 2>/dev/null; }
# stateid "other" fields of the calls holding operation $1, one a line
# (tshark prints bytes with or without colons, several per frame with
# commas)
others() {
	tsh -Y "rpc.msgtyp == 0 && nfs.opcode == $1${2:+ && $2}" -T fields \
		-e nfs.stateid.other | tr ',' '\n' | tr -d ':' | grep . || true
}
anon_of() { others "$@" | grep -c '^0*$' || true; }
n_reads=$(others 25 | wc -l)
(( n_reads > 0 )) || fail "no READ on the wire"
assert_eq 0 "$(anon_of 25)" "READs with the anonymous stateid (of $n_reads)"
n_writes=$(others 38 | wc -l)
(( n_writes > 0 )) || fail "no WRITE on the wire"
assert_eq 0 "$(anon_of 38)" "WRITEs with the anonymous stateid (of $n_writes)"
# SETATTR of a size (ftruncate, O_TRUNC) with an open's stateid
n=$(others 34 nfs.fattr4.size | grep -vc '^0*$' || true)
(( n > 0 )) || fail "no SETATTR of a size with an open's stateid"
note "$n_reads READs, $n_writes WRITEs, $n sized SETATTRs with open stateids"
# Two open-owners: root's and the other user's.
owners=$(tsh -Y "rpc.msgtyp == 0 && nfs.opcode == 18" -T fields -e nfs.open_owner4 | sort -u | grep -c .)
assert_eq 2 "$owners" "open-owners in the OPENs"
# The NFS connection's frames: port 111 is captured for capture_start's
# probe, and carries whatever else talks to rpcbind meanwhile.
bad=$(tsh -Y '_ws.malformed && tcp.port == 2049' -T fields -e frame.number | head -3)
[[ -z $bad ]] || fail "tshark found malformed frames: $bad"
echo "PASS: nfs4_open"
