#!/usr/bin/env bash
# NFSv4.1 byte-range locks between two nfsfuse mounts of one export (two
# NFSv4 clients, each with a client id of its own): exclusion, F_GETLK
# with the holder's range, a blocked F_SETLKW granted after the holder's
# unlock, an interrupted F_SETLKW, release when any descriptor of the
# holder closes, flock(2) exclusion, a counter incremented by both under
# locks, and LOCK/LOCKU/LOCKT in the statistics.  Nothing goes through NLM.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/locks_lib.sh"
need_cmd python3
ensure_server
need_nfsfuse

T=$(make_testdir nfs4locks)
MA=$(new_mountpoint)
MB=$(new_mountpoint)
mount_nfsfuse "$MA" -o vers=4.1,actimeo=0
mount_nfsfuse "$MB" -o vers=4.2,actimeo=0
F=$T/f
: >"$EXPORT_DIR/$F"
chmod 666 "$EXPORT_DIR/$F"
R=$NFSFUSE_TMP/rel

locks_of() { "$NFSFUSECTL" "$1" locks; }
stat_of_mnt() { # MNT KEY: a value of nfsfusectl stats --json
	"$NFSFUSECTL" "$1" stats --json | python3 -c 'import json, sys
s = json.load(sys.stdin)
flat = {}
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            flat.setdefault(k, v)
            walk(v)
walk(s)
print(flat.get(sys.argv[1], ""))' "$2"
}
# For wait_for: the current state each time it runs.
waiting_in() { locks_of "$1" | grep "^waiting ino=.* kind=$2 " >/dev/null; }
nothing_held() { ! locks_of "$1" | grep '^held ' >/dev/null; }

assert_match "$(stat_of_mnt "$MA" lock_mode)" '^nfsv4' "an NFSv4 mount locks through NFSv4"
assert_eq "" "$(stat_of_mnt "$MA" lock_nlm_version)" "no NLM lock manager on an NFSv4 mount"

# ---- exclusion and F_GETLK with the holder's range
lk_bg "$NFSFUSE_TMP/holdA" hold "$MA/$F" 100 50 w "$R.1"
wait_file_has "$NFSFUSE_TMP/holdA" locked 30 || fail "A did not get its lock: $(cat "$NFSFUSE_TMP/holdA")"
assert_eq "Resource temporarily unavailable" "$(lk try "$MB/$F" 120 10 w)" "overlapping write lock from B"
assert_eq "Resource temporarily unavailable" "$(lk try "$MB/$F" 140 100 r)" "overlapping read lock from B"
assert_eq ok "$(lk try "$MB/$F" 150 10 w)" "disjoint range (just after A's) from B"
assert_eq ok "$(lk try "$MB/$F" 0 100 w)" "disjoint range (just before A's) from B"
assert_eq "w 100 50" "$(lk getlk "$MB/$F" 0 0 r)" "F_GETLK from B reports A's lock and range"
assert_match "$(lk getlk "$MB/$F" 200 10 w)" "^u " "F_GETLK on a free range"
assert_match "$(locks_of "$MA")" "^held ino=[0-9]+ owner=[0-9a-f]+ kind=posix " "A lists its lock stateid"
touch "$R.1" "$R.1.exit"
wait_file_has "$NFSFUSE_TMP/holdA" unlocked 30 || fail "A did not unlock"
assert_eq ok "$(lk try "$MB/$F" 120 10 w)" "after A's unlock B gets the range"
wait_for 30 nothing_held "$MA" || fail "A still lists a lock after its unlock: $(locks_of "$MA")"

# ---- F_SETLKW on A waits for B's lock, and is granted after B unlocks
lk_bg "$NFSFUSE_TMP/holdB" hold "$MB/$F" 0 0 w "$R.2"
wait_file_has "$NFSFUSE_TMP/holdB" locked 30 || fail "B did not lock"
lk_bg "$NFSFUSE_TMP/waitA" wait "$MA/$F" 0 10 w "$R.2w"
wait_for 30 waiting_in "$MA" posix || fail "A does not list its F_SETLKW as waiting: $(locks_of "$MA") $(cat "$NFSFUSE_TMP/waitA")"
assert_eq waiting "$(cat "$NFSFUSE_TMP/waitA")" "A's F_SETLKW blocks while B holds the lock"
touch "$R.2" "$R.2.exit"
wait_file_has "$NFSFUSE_TMP/waitA" granted 60 || fail "A's F_SETLKW not granted after B's unlock: $(cat "$NFSFUSE_TMP/waitA")"
assert_match "$(stat_of_mnt "$MA" lock_v4_granted_poll)" '^[1-9]' "A's grant counted as by polling"
assert_eq "Resource temporarily unavailable" "$(lk try "$MB/$F" 5 1 r)" "A now holds the range it waited for"
touch "$R.2w" # A's process exits without unlocking: its close releases it
wait_for 30 try_ok "$MB/$F" 0 0 w || fail "the server still holds A's lock after its process exited"

# ---- a signal ends a waiting F_SETLKW with EINTR
lk_bg "$NFSFUSE_TMP/holdB3" hold "$MB/$F" 0 0 w "$R.3"
wait_file_has "$NFSFUSE_TMP/holdB3" locked 30 || fail "B did not lock"
lk_bg "$NFSFUSE_TMP/waitA3" wait "$MA/$F" 0 0 w "$R.3w"
WPID=$LK_PID
wait_for 30 waiting_in "$MA" posix || fail "A's F_SETLKW is not waiting: $(cat "$NFSFUSE_TMP/waitA3")"
kill -USR1 "$WPID"
wait_file_has "$NFSFUSE_TMP/waitA3" error 30 || fail "the signal did not end F_SETLKW: $(cat "$NFSFUSE_TMP/waitA3")"
assert_eq "error Interrupted system call" "$(tail -n 1 "$NFSFUSE_TMP/waitA3")" "F_SETLKW fails with EINTR"
wait_for 30 eval '! waiting_in "$MA" posix' || fail "A still lists the interrupted wait: $(locks_of "$MA")"
touch "$R.3" "$R.3.exit" "$R.3w"
wait_file_has "$NFSFUSE_TMP/holdB3" unlocked 30 || fail "B did not unlock"
assert_eq ok "$(lk try "$MB/$F" 0 0 w)" "nothing held for A's interrupted wait"

# ---- closing any descriptor of the holder releases its locks (POSIX)
CLOSE_PY=$NFSFUSE_TMP/close_other.py
cat >"$CLOSE_PY" <<'EOF'
import fcntl, os, struct, sys, time
path, rel = sys.argv[1], sys.argv[2]
fd = os.open(path, os.O_RDWR)
fcntl.fcntl(fd, fcntl.F_SETLK, struct.pack('hhqqi', fcntl.F_WRLCK, 0, 0, 0, 0))
print('locked', flush=True)
while not os.path.exists(rel):
    time.sleep(0.01)
other = os.open(path, os.O_RDONLY)
os.close(other)  # a second descriptor of the same file, closed
print('closed', flush=True)
while not os.path.exists(rel + '.exit'):
    time.sleep(0.01)
EOF
python3 "$CLOSE_PY" "$MA/$F" "$R.4" >"$NFSFUSE_TMP/closeA" 2>&1 &
register_pid "$!"
wait_file_has "$NFSFUSE_TMP/closeA" locked 30 || fail "A did not lock: $(cat "$NFSFUSE_TMP/closeA")"
assert_eq "Resource temporarily unavailable" "$(lk try "$MB/$F" 0 1 w)" "A's whole-file lock holds"
touch "$R.4"
wait_file_has "$NFSFUSE_TMP/closeA" closed 30 || fail "A did not close its second descriptor"
wait_for 30 try_ok "$MB/$F" 0 0 w || fail "closing another descriptor of A's file did not release A's lock"
wait_for 30 nothing_held "$MA" || fail "A still lists a lock after the close: $(locks_of "$MA")"
touch "$R.4.exit"

# ---- flock(2) between the two mounts
lk_bg "$NFSFUSE_TMP/flA" flock "$MA/$F" ex "$R.5"
wait_file_has "$NFSFUSE_TMP/flA" locked 30 || fail "A's flock failed: $(cat "$NFSFUSE_TMP/flA")"
assert_eq "Resource temporarily unavailable" "$(lk flock "$MB/$F" exnb "$R.5")" "B's flock(LOCK_EX|LOCK_NB) conflicts"
assert_match "$(locks_of "$MA")" "kind=flock" "A lists a flock lock stateid"
lk_bg "$NFSFUSE_TMP/flB" flock "$MB/$F" ex "$R.6"
wait_for 30 waiting_in "$MB" flock || fail "B's blocking flock is not waiting: $(locks_of "$MB") $(cat "$NFSFUSE_TMP/flB")"
assert_eq "" "$(cat "$NFSFUSE_TMP/flB")" "B's blocking flock waits"
touch "$R.5" # A's process exits: its flock goes with its file
wait_file_has "$NFSFUSE_TMP/flB" locked 60 || fail "B's flock not granted after A's close: $(cat "$NFSFUSE_TMP/flB")"
assert_eq "Resource temporarily unavailable" "$(lk flock "$MA/$F" exnb "$R.6")" "now A's flock conflicts with B's"
touch "$R.6"
wait_for 30 eval '[[ $(lk flock "$MA/$F" exnb "$R.6") == locked* ]]' || fail "B's flock not released at close"

# ---- flock(LOCK_EX) on a descriptor opened read-only: the caller's open
# cannot carry a write lock, so the mount opens the file for the lock
RO_PY=$NFSFUSE_TMP/flock_ro.py
cat >"$RO_PY" <<'EOF'
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
try:
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    print('locked', flush=True)
except OSError as e:
    print(os.strerror(e.errno), flush=True)
    sys.exit(0)
while not os.path.exists(sys.argv[2]):
    time.sleep(0.01)
EOF
lo0=$(stat_of_mnt "$MA" lock_v4_from_lock_open)
python3 "$RO_PY" "$MA/$F" "$R.7" >"$NFSFUSE_TMP/roA" 2>&1 &
register_pid "$!"
wait_file_has "$NFSFUSE_TMP/roA" . 30 || fail "no answer to A's flock on a read-only descriptor"
assert_eq locked "$(cat "$NFSFUSE_TMP/roA")" "flock(LOCK_EX) on a read-only descriptor"
assert_eq "Resource temporarily unavailable" "$(lk flock "$MB/$F" exnb "$R.7")" "B's flock conflicts with it"
[[ $(stat_of_mnt "$MA" lock_v4_from_lock_open) -gt $lo0 ]] || fail "the read-only flock did not take an open of its own"
touch "$R.7"
wait_for 30 eval '[[ $(lk flock "$MB/$F" exnb "$R.7") == locked* ]]' || fail "A's read-only flock not released at close"
wait_for 30 eval '[[ $(stat_of_mnt "$MA" lock_v4_opens) == 0 ]]' ||
	fail "A keeps its lock open after the lock went: $(stat_of_mnt "$MA" lock_v4_opens)"
assert_match "$(stat_of_mnt "$MA" lock_v4_from_caller_open)" "^[1-9]" "other locks named the caller's own open"

# ---- a counter incremented under F_SETLKW by both mounts at once: every
# increment sees the other mount's (a grant revalidates, an unlock writes
# back first)
C=$T/counter
: >"$EXPORT_DIR/$C"
chmod 666 "$EXPORT_DIR/$C"
with_timeout 300 python3 "$LK_PY" counter "$MA/$C" 200 &
CA=$!
with_timeout 300 python3 "$LK_PY" counter "$MB/$C" 200 &
CB=$!
wait "$CA" || fail "A's increments failed"
wait "$CB" || fail "B's increments failed"
assert_eq 0000000400 "$(cat "$EXPORT_DIR/$C")" "200 + 200 increments under NFSv4 locks"

# ---- the operations counted, and every lock state given back
for op in LOCK LOCKU LOCKT; do
	assert_match "$(op_calls "$MB" "$op")" '^[1-9]' "$op counted in B's nfs4ops statistics"
done
assert_match "$(op_calls "$MA" FREE_STATEID)" '^[1-9]' "A frees its lock stateids"
wait_for 30 eval '[[ $(stat_of_mnt "$MA" lock_v4_stateids) == 0 ]]' ||
	fail "A keeps lock stateids with nothing locked: $(locks_of "$MA")"
assert_eq 0 "$(op_calls "$MA" RELEASE_LOCKOWNER)" "no RELEASE_LOCKOWNER (NFSv4.0 only) on 4.1"
echo PASS
