#!/usr/bin/env bash
# A write the server refuses is reported to its writer, whoever's flush met
# the refusal.  Writes are gathered, so they reach the server at a flush:
# the writer's own fsync or close, but also a stat by anyone, another
# handle's close or fsync.  That flush drops the refused bytes and hears
# the error once; every handle open for writing when it came must still
# report it at its next fsync or close (once each), as Linux's errseq
# does for fsync.  A handle opened for reading, or after the error, has
# nothing to report.
#
# The refusal: a file of root's, mode 0666, written by an ordinary user;
# root takes the write permission away on the server meanwhile, and the
# server refuses that user's WRITE (NFS checks every call).
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_cmd python3
need_root # an ordinary user, and root to change the file on the server
ensure_test_user

T=$(make_testdir write_errors)
S=$EXPORT_DIR/$T
chmod 0777 "$S"
MNT=$(new_mountpoint)
mount_nfsfuse "$MNT" -o nolock,allow_other
f=$MNT/$T/f
g=$MNT/$T/g
printf 'zero\n' | tee "$f" >"$g"
chmod 0666 "$f" "$g"

# The ordinary user's handles, driven one command a line: "open NAME
# FLAGS PATH", "write NAME BYTES", "fsync NAME", "close NAME"; each
# answers "ok" or the errno's name.
read -ra AS_USER <<<"$(user_argv "$TEST_USER")"
coproc USER_IO { "${AS_USER[@]}" /usr/bin/python3 -u -c '
import errno, os, sys
fds = {}
for line in sys.stdin:
    cmd, name, *arg = line.split()
    try:
        if cmd == "open":
            fds[name] = os.open(arg[1], getattr(os, arg[0]))
        elif cmd == "write":
            os.write(fds[name], arg[0].encode() + b"\n")
        elif cmd == "fsync":
            os.fsync(fds[name])
        elif cmd == "close":
            os.close(fds.pop(name))
        print("ok")
    except OSError as e:
        print(errno.errorcode[e.errno])
'; }
register_pid "$USER_IO_PID"

# user CMD...: one command to the user's process; its answer.
user() {
	local answer
	echo "$*" >&"${USER_IO[1]}"
	read -r -t 30 answer <&"${USER_IO[0]}" || fail "the user's process did not answer '$*'"
	echo "$answer"
}

assert_eq ok "$(user open w1 O_WRONLY "$f")" "open w1 for writing"
assert_eq ok "$(user open w2 O_WRONLY "$f")" "open w2 for writing"
assert_eq ok "$(user open r O_RDONLY "$f")" "open r for reading"
assert_eq ok "$(user write w1 one)" "write through w1 (gathered)"

chmod 0644 "$S/f" # on the server: the user may not write any more
# root's stat flushes the gathered write as the user: refused, and the
# bytes dropped.  Not root's error to report.
stat -c %s "$f" >/dev/null || fail "root's stat failed"
root_fd_after() { python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_WRONLY); os.fsync(fd); os.close(fd)' "$f"; }
root_fd_after || fail "a handle opened after the error reported it"

assert_eq EACCES "$(user fsync w2)" "fsync of w2, open when the write was refused"
assert_eq ok "$(user fsync w2)" "a second fsync of w2 (reported once)"
assert_eq ok "$(user close r)" "close of r, open for reading only"
assert_eq EACCES "$(user close w1)" "close of w1, whose write was refused by another's flush"
assert_eq ok "$(user close w2)" "close of w2, which reported it already"
assert_eq "zero" "$(cat "$S/f")" "the file on the server: the refused line is not there"
note "a refused write reached its writers at fsync and close, once each"

# The writer's own flush: its close reports what its flush met.
assert_eq ok "$(user open w3 O_WRONLY "$g")" "open w3 for writing"
assert_eq ok "$(user write w3 two)" "write through w3 (gathered)"
chmod 0644 "$S/g"
assert_eq EACCES "$(user close w3)" "close of w3, its own flush refused"
assert_eq "zero" "$(cat "$S/g")" "the file on the server after w3"
