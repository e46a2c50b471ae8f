#!/usr/bin/env bash
# Small writes are gathered into WRITEs of wsize (cache/wback.h), and
# what gathering holds back keeps the meaning of every call around it:
#  - a sequential writer in 4 KiB pieces sends at most size/wsize + 10 %
#    WRITEs, and a second mount reads the bytes exact after close
#    (close-to-open); the kernel asks security.capability once per
#    file, not before every write (FUSE_HANDLE_KILLPRIV_V2);
#  - a server error on a gathered WRITE (here a permission taken away on
#    the server meanwhile) is reported at fsync and close;
#  - a read after each write keeps them gathered and the kernel's pages
#    (the size the kernel asks first is answered without sending them),
#    while fstat sends them and lseek(SEEK_END) sees them;
#  - unlocking a byte-range lock sends what was written under it;
#  - mmap writes and O_APPEND from two processes reach the server whole.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
[[ -x ${NFSFUSECTL:-} ]] || skip "nfsfusectl is not built"
need_cmd python3
need_root # a second user whose file root takes away on the server
ensure_test_user

T=$(make_testdir write_gather)
S=$EXPORT_DIR/$T
chmod 0777 "$S"
A=$(new_mountpoint)
B=$(new_mountpoint)
WSIZE=262144
mount_nfsfuse "$A" -o wsize=$WSIZE,hostname=gatherA,allow_other
mount_nfsfuse "$B" -o hostname=gatherB

# --- sequential 4 KiB writes: few WRITEs, bytes exact on another mount ---
SIZE=$((16 * 1024 * 1024 + 1234))
head -c "$SIZE" /dev/urandom >"$NFSFUSE_TMP/data"
w0=$(calls "$A" WRITE)
x0=$(counter "$A" getxattr_other)
python3 - "$NFSFUSE_TMP/data" "$A/$T/seq" <<'PY'
import os, sys
src, dst = sys.argv[1:3]
data = open(src, "rb").read()
fd = os.open(dst, os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o644)
for off in range(0, len(data), 4096):
    os.write(fd, data[off:off + 4096])
os.close(fd)
PY
writes=$(($(calls "$A" WRITE) - w0))
most=$(((SIZE + WSIZE - 1) / WSIZE * 11 / 10))
note "$SIZE bytes in 4 KiB writes: $writes WRITEs (wsize $WSIZE, at most $most)"
((writes <= most)) || fail "$writes WRITEs for $SIZE bytes in 4 KiB pieces: more than size/wsize + 10 % ($most)"
[[ $(counter "$A" writes_gathered) -gt 0 ]] || fail "writes_gathered did not count"
x=$(($(counter "$A" getxattr_other) - x0))
((x <= 1)) || fail "$((SIZE / 4096 + 1)) write(2)s asked getxattr of a name that is no ACL $x times (the kernel checks security.capability at every write without FUSE_HANDLE_KILLPRIV_V2)"
cmp "$NFSFUSE_TMP/data" "$B/$T/seq" || fail "a second mount reads other bytes after close"

# Nearly sequential: odd sizes, a rewrite of bytes just written.
python3 - "$A/$T/odd" "$NFSFUSE_TMP/odd" <<'PY'
import os, sys
buf = bytearray()
fd = os.open(sys.argv[1], os.O_CREAT | os.O_WRONLY | os.O_TRUNC, 0o644)
for i in range(3000):
    piece = bytes([i % 251]) * (1 + (i * 7919) % 3000)
    os.write(fd, piece)
    buf += piece
    if i % 100 == 99:                # rewrite a little behind the end
        pos = len(buf) - 10
        os.pwrite(fd, b"0123456789", pos)
        buf[pos:pos + 10] = b"0123456789"
os.close(fd)
open(sys.argv[2], "wb").write(buf)
PY
cmp "$NFSFUSE_TMP/odd" "$B/$T/odd" || fail "nearly sequential writes: a second mount reads other bytes"

# --- a read after each write: the writes stay gathered, the pages kept ---
# Before each read the kernel asks for the size, naming the open file: the
# daemon answers with the size the gathered writes reach and sends none of
# them, so the mtime the kernel holds does not move under its own pages.
# A stat still sends them, and takes the attributes from their replies;
# lseek(SEEK_END) sees the size they reach.  The writer runs as a
# coprocess and the counters are read between its steps: it must exec
# nothing itself, as every close of a copy of its descriptor (at exec
# too) flushes.
N=512
WR_SCRIPT='
import os, sys
f, n = sys.argv[1], int(sys.argv[2])
def step(*out):
    print(*out, flush=True)
    sys.stdin.readline()
fd = os.open(f, os.O_CREAT | os.O_RDWR | os.O_TRUNC, 0o644)
os.write(fd, bytes(n * 4096))
os.fsync(fd)
before = os.fstat(fd).st_mtime_ns
while os.read(fd, 1 << 20):
    pass
step("ready")
bad = "-"
for i in range(n - 1):
    page = bytes([i % 251 + 1]) * 4096
    os.pwrite(fd, page, i * 4096)
    if os.pread(fd, 4096, i * 4096) != page:
        bad = "page%d" % i
    if os.pread(fd, 4096, (i + 1) * 4096) != bytes(4096):
        bad = "page%d" % (i + 1)
os.pwrite(fd, b"tail", n * 4096)
step(bad, os.lseek(fd, 0, os.SEEK_END))
st = os.fstat(fd)
step(st.st_size, "newer" if st.st_mtime_ns > before else "not-newer")
os.close(fd)
'
coproc WR { python3 -c "$WR_SCRIPT" "$A/$T/wr" "$N"; }
read -r -u "${WR[0]}" line && [[ $line == ready ]] || fail "the writer did not start: $line"
w0=$(calls "$A" WRITE) d0=$(counter "$A" data_hits) r0=$(calls "$A" READ) b0=$(counter "$A" attr_batch_size)
echo go >&"${WR[1]}"
read -r -u "${WR[0]}" bad end || fail "the writer stopped in its writes"
w1=$(calls "$A" WRITE) d1=$(counter "$A" data_hits) r1=$(calls "$A" READ) b1=$(counter "$A" attr_batch_size)
g1=$(calls "$A" GETATTR)
echo stat >&"${WR[1]}"
read -r -u "${WR[0]}" size newer || fail "the writer stopped at its fstat"
w2=$(calls "$A" WRITE) g2=$(calls "$A" GETATTR)
echo close >&"${WR[1]}"
wait "$WR_PID" || fail "the writer failed"
note "$N writes each followed by reads: $((w1 - w0)) WRITEs, $((d1 - d0 + r1 - r0)) reads reached the daemon, $((b1 - b0)) size checks answered"
assert_eq - "$bad" "reads after each write: the page just written, and the zeros after it"
((w1 - w0 <= N * 4096 / WSIZE + 2)) ||
	fail "$((w1 - w0)) WRITEs for $N writes each followed by reads, more than size/wsize + 2"
# A few reach the daemon as the kernel's read-ahead around each WRITE;
# one for every write would be the kernel dropping its pages.
((d1 - d0 + r1 - r0 <= N / 16)) ||
	fail "$((d1 - d0 + r1 - r0)) of $((2 * (N - 1))) reads reached the daemon: the kernel dropped its pages"
((b1 - b0 >= N / 2)) || fail "attr_batch_size rose by $((b1 - b0)) for $N writes each followed by reads"
assert_eq $((N * 4096 + 4)) "$end" "lseek(SEEK_END) with the writes gathered"
assert_eq "$((N * 4096 + 4)) newer" "$size $newer" "fstat after the writes: size, and mtime against the one before"
((w2 > w1)) || fail "fstat sent no WRITE: the gathered writes were not sent before it"
assert_eq "$g1" "$g2" "GETATTR calls for an fstat that sent the writes (their replies carry the attributes)"
assert_file_eq "$S/wr" "$A/$T/wr" "the file written with reads between, on the server and through the mount"

# --- a server error on gathered writes surfaces at fsync and close -------
# Where the other user's writer and this script signal each other.
SIG=$(tmpdir_new)
chmod 1777 "$SIG"
install -m 0666 /dev/null "$S/denied"
as_user python3 - "$A/$T/denied" "$SIG/ready" "$SIG/go" \
	>"$NFSFUSE_TMP/denied.out" 2>&1 <<'PY' &
import errno, os, sys, time
path, ready, go = sys.argv[1:4]
fd = os.open(path, os.O_WRONLY)
for k in range(4):
    os.write(fd, b"x" * 4096)
open(ready, "w").close()
while not os.path.exists(go):
    time.sleep(0.05)
os.write(fd, b"y" * 4096)       # gathered: answered before the server is asked
try:
    os.fsync(fd)
    print("fsync ok")
except OSError as e:
    print("fsync", errno.errorcode[e.errno])
try:
    os.close(fd)
    print("close ok")
except OSError as e:
    print("close", errno.errorcode[e.errno])
PY
P=$!
wait_until 20 test -e "$SIG/ready" || { cat "$NFSFUSE_TMP/denied.out" >&2; fail "the writer did not start"; }
w0=$(calls "$A" WRITE)
# Root takes write permission away through the other mount, so that the
# server itself knows at once.
chmod 0444 "$B/$T/denied"
touch "$SIG/go"
wait "$P" || { cat "$NFSFUSE_TMP/denied.out" >&2; fail "the writer failed"; }
out=$(cat "$NFSFUSE_TMP/denied.out")
note "writer: $(echo $out)"
assert_match "$out" "fsync (EACCES|EPERM)" "a refused gathered WRITE is reported at fsync"
[[ $(($(calls "$A" WRITE) - w0)) -ge 1 ]] || fail "no WRITE went out at fsync"
assert_eq 0 "$(stat -c %s "$S/denied")" "the refused bytes are not on the server"

# The same refusal with no fsync: close reports it.
chmod 0666 "$B/$T/denied"
as_user python3 - "$A/$T/denied" "$SIG/ready2" "$SIG/go2" \
	>"$NFSFUSE_TMP/denied2.out" 2>&1 <<'PY' &
import errno, os, sys, time
path, ready, go = sys.argv[1:4]
fd = os.open(path, os.O_WRONLY)
os.write(fd, b"x" * 4096)
open(ready, "w").close()
while not os.path.exists(go):
    time.sleep(0.05)
os.write(fd, b"y" * 4096)
try:
    os.close(fd)
    print("close ok")
except OSError as e:
    print("close", errno.errorcode[e.errno])
PY
P=$!
wait_until 20 test -e "$SIG/ready2" || fail "the second writer did not start"
chmod 0444 "$B/$T/denied"
touch "$SIG/go2"
wait "$P" || { cat "$NFSFUSE_TMP/denied2.out" >&2; fail "the second writer failed"; }
assert_match "$(cat "$NFSFUSE_TMP/denied2.out")" "close (EACCES|EPERM)" "a refused gathered WRITE is reported at close"

# --- unlocking a lock sends what was written under it -------------------
python3 - "$A/$T/locked" "$S/locked" <<'PY' || fail "lock/unlock did not send the writes"
import fcntl, os, sys
path, server = sys.argv[1:3]
fd = os.open(path, os.O_CREAT | os.O_RDWR | os.O_TRUNC, 0o644)
fcntl.lockf(fd, fcntl.LOCK_EX, 0, 0)
for k in range(3):
    os.write(fd, bytes([65 + k]) * 4096)
# gathered, not sent: the server has none of it yet
if os.path.getsize(server) != 0:
    sys.exit("bytes reached the server before the unlock: nothing was gathered")
fcntl.lockf(fd, fcntl.LOCK_UN, 0, 0)
# the unlock flushed: the server has every byte while the file is open
got = open(server, "rb").read()
want = b"A" * 4096 + b"B" * 4096 + b"C" * 4096
if got != want:
    sys.exit("after unlock the server holds %d bytes, not the 12288 written" % len(got))
os.close(fd)
PY

# --- mmap writes ---------------------------------------------------------
python3 - "$A/$T/mapped" <<'PY'
import mmap, os, sys
fd = os.open(sys.argv[1], os.O_CREAT | os.O_RDWR | os.O_TRUNC, 0o644)
os.ftruncate(fd, 3 * 4096 + 100)
m = mmap.mmap(fd, 3 * 4096 + 100)
m[0:5] = b"HELLO"
m[4096:4101] = b"PAGE2"
m.flush()                        # msync: written back
m[3 * 4096 + 95:3 * 4096 + 100] = b"TAIL!"
m.close()
os.close(fd)                     # close: the rest written back
PY
python3 - "$B/$T/mapped" <<'PY' || fail "mmap writes did not reach the server whole"
import sys
d = open(sys.argv[1], "rb").read()
ok = (len(d) == 3 * 4096 + 100 and d[0:5] == b"HELLO" and
      d[4096:4101] == b"PAGE2" and d[-5:] == b"TAIL!" and
      d[5:4096] == bytes(4091))
sys.exit(0 if ok else "mmap'd file on the other mount: %d bytes, head %r" % (len(d), d[:8]))
PY

# --- O_APPEND from two processes -----------------------------------------
# Two more keep asking for the size meanwhile: each stat flushes what is
# gathered, and a write that joins while a flush is settling must not be
# left out of the size then cached, which the kernel believes: the next
# append would land on top of it.  The race is narrow, so several rounds
# (one round alone lost lines one time in five before it was closed).
for round in 1 2 3 4 5 6; do
	log=$A/$T/log$round
	: >"$log"
	STATTERS=()
	for s in 1 2; do
		python3 - "$log" "$SIG/appended$round" <<'PY' &
import os, sys
while not os.path.exists(sys.argv[2]):
    os.stat(sys.argv[1])
PY
		STATTERS+=($!)
	done
	APPENDERS=()
	for who in one two; do
		python3 - "$log" "$who" <<'PY' &
import os, sys
path, who = sys.argv[1:3]
fd = os.open(path, os.O_WRONLY | os.O_APPEND)
for i in range(500):
    os.write(fd, ("%s %04d %s\n" % (who, i, "." * 50)).encode())
os.close(fd)
PY
		APPENDERS+=($!)
	done
	wait "${APPENDERS[@]}"
	touch "$SIG/appended$round"
	wait "${STATTERS[@]}"
	python3 - "$B/$T/log$round" <<'PY' ||
import sys
lines = open(sys.argv[1], "rb").read().split(b"\n")
assert lines[-1] == b""
lines = lines[:-1]
for who in (b"one", b"two"):
    mine = [l for l in lines if l.startswith(who + b" ")]
    want = [b"%s %04d %s" % (who, i, b"." * 50) for i in range(500)]
    if mine != want:
        sys.exit("%s: %d whole lines in order of 500" % (who.decode(), len(mine)))
if len(lines) != 1000:
    sys.exit("%d lines, not 1000" % len(lines))
PY
		fail "O_APPEND from two processes lost or mixed lines (round $round)"
done
