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
# An open, a truncate or a chmod by someone else flushes those writes
# first, but is done all the same: the refusal is not theirs to report.
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

# Handles held by a process of their own, driven one command a line:
# "open NAME FLAGS PATH", "write NAME BYTES", "fsync NAME", "close NAME",
# "truncate NAME SIZE", "chmod NAME OCTAL"; each answers "ok" or the
# errno's name.  (Not descriptors of this shell: every command it forks
# would close its copy on exit, and that close flushes the file.)
IO_PROG='
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
        elif cmd == "truncate":
            os.ftruncate(fds[name], int(arg[0]))
        elif cmd == "chmod":
            os.fchmod(fds[name], int(arg[0], 8))
        print("ok")
    except OSError as e:
        print(errno.errorcode[e.errno])
'
read -ra AS_USER <<<"$(user_argv "$TEST_USER")"
coproc USER_IO { "${AS_USER[@]}" /usr/bin/python3 -u -c "$IO_PROG"; }
register_pid "$USER_IO_PID"
# Root's; bash warns of a second coproc, and it is meant.
{ coproc ROOT_IO { /usr/bin/python3 -u -c "$IO_PROG"; }; } 2>/dev/null
register_pid "$ROOT_IO_PID"

# as WHO CMD...: one command to WHO's process (USER_IO or ROOT_IO); its
# answer.
as() {
	local -n io=$1
	local answer
	shift
	echo "$*" >&"${io[1]}"
	read -r -t 30 answer <&"${io[0]}" || fail "$1's process did not answer '$*'"
	echo "$answer"
}
user() { as USER_IO "$@"; }
root() { as ROOT_IO "$@"; }

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

# Another's open, truncate or chmod meets the refusal in the flush that
# must come before it: the refusal is the writer's to hear, at its fsync,
# and the open, the truncate and the chmod are done (as on the Linux
# client), not failed with an error that was never theirs.
h=$MNT/$T/h
printf 'zero\n' >"$h"
chmod 0666 "$h"
assert_eq ok "$(user open w4 O_WRONLY "$h")" "open w4 for writing"
assert_eq ok "$(user write w4 three)" "write through w4 (gathered)"
chmod 0644 "$S/h"
truncate -s 2 "$h" || fail "root's open and truncate failed on the user's refused write"
assert_eq "ze" "$(cat "$S/h")" "the file on the server after root's truncate"
assert_eq EACCES "$(user fsync w4)" "fsync of w4, whose write root's open met"
assert_eq ok "$(user close w4)" "close of w4, which reported it already"
# On a descriptor root opened before: the truncate and the chmod
# themselves flush the user's write.
chmod 0666 "$h"
assert_eq ok "$(root open r0 O_RDWR "$h")" "root opens the file"
assert_eq ok "$(user open w5 O_WRONLY "$h")" "open w5 for writing"
assert_eq ok "$(user write w5 four)" "write through w5 (gathered)"
chmod 0644 "$S/h"
assert_eq ok "$(root truncate r0 1)" "root's ftruncate, which meets the user's refused write"
assert_eq "z" "$(cat "$S/h")" "the file on the server after root's ftruncate"
assert_eq EACCES "$(user close w5)" "close of w5, whose write root's ftruncate met"
chmod 0666 "$h"
assert_eq ok "$(user open w6 O_WRONLY "$h")" "open w6 for writing"
assert_eq ok "$(user write w6 five)" "write through w6 (gathered)"
chmod 0644 "$S/h"
assert_eq ok "$(root chmod r0 600)" "root's fchmod, which meets the user's refused write"
assert_eq 600 "$(stat_of %a "$S/h")" "the mode on the server after root's fchmod"
assert_eq EACCES "$(user close w6)" "close of w6, whose write root's fchmod met"
root close r0 >/dev/null
assert_eq "z" "$(cat "$S/h")" "the file on the server after w5 and w6"
note "an open, a truncate and a chmod by another are done; the refusal stays the writer's"
