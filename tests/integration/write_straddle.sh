#!/usr/bin/env bash
# Attributes that a call brings show the file at one moment of the call.
# When a batch of our own writes to it settles meanwhile (another thread's
# fsync, close or stat flushes it), they lack writes the kernel has already
# seen complete.  Cached, or handed to the kernel in an entry, they make the
# file shorter than its bytes, and the next O_APPEND lands on its last line.
#
# The proxy holds back the replies of one procedure, so that a flush surely
# comes between that call and its answer: ACCESS (an open by another user),
# LOOKUP (a stat once the name's entry timed out) and READDIRPLUS (ls -l).
# A truncate, a chmod, a link and an unlink of ours are such changes too.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/faults_lib.sh"
ensure_server
need_nfsfuse
need_proxy
need_cmd python3
need_root # a second user, whose open asks ACCESS of its own
ensure_test_user

T=$(make_testdir write_straddle)
S=$EXPORT_DIR/$T
chmod 0777 "$S"
CTL=$NFSFUSE_TMP/straddle.ctl
start_proxy straddle --control "$CTL"
MNT=$(new_mountpoint)
# Entries and attributes for a second: the LOOKUP case waits
# that long for the kernel to ask for the name again.
mount_nfsfuse "$MNT" -o "port=$PROXY_PORT,mountport=$MOUNT_PORT,nolock,allow_other,actimeo=1"

# The late call's process, for the Python of the cases below (on their
# PYTHONPATH): start() runs argv in f's directory once fire() tells it to.
# It is started before the file is opened: a child would close its copy of
# the descriptor at exec, and the kernel flushes at every close.  In the
# file's directory, so that only the file's name is looked up.
cat >"$NFSFUSE_TMP/trigger.py" <<'PY'
import os, subprocess

def start(f, argv, stdout=subprocess.DEVNULL):
    return subprocess.Popen(["sh", "-c", 'cd "$0" && read go && exec "$@"',
                             os.path.dirname(f)] + argv,
                            stdin=subprocess.PIPE, stdout=stdout)

def fire(t):
    t.stdin.write(b"go\n")
    t.stdin.close()
PY

# set_delay PROC MS: the replies to NFS procedure PROC come MS late.
set_delay() {
	[[ $(proxy_ctl "$CTL" "delay-reply-procs $1") == ok* ]] || fail "proxy: delay-reply-procs $1"
	[[ $(proxy_ctl "$CTL" "delay-ms $2") == ok* ]] || fail "proxy: delay-ms $2"
}

# straddle_case NAME PROC WHEN TRIGGER...: with the file holding "zero",
# a writer appends "one", and TRIGGER runs in the background: its call of
# PROC goes out now, and its reply comes 400 ms late.  Meanwhile the writer
# fsyncs, which settles the batch of writes that is open: WHEN=before, the
# writer appended "two" before TRIGGER began (the kernel has seen that
# write complete, and believes the size in the late reply); WHEN=during, it
# appends "two" after (the kernel discards that reply's attributes, but the
# daemon's cache must not keep them either).  Once the reply is in, the
# file must be as long as the writer made it, and a third append must
# follow "two".
straddle_case() {
	local name=$1 proc=$2 when=$3 f=$MNT/$T/$1 out
	shift 3
	printf 'zero\n' >"$f"
	chmod 0644 "$f"
	set_delay "$proc" 400
	out=$(PYTHONPATH=$NFSFUSE_TMP python3 - "$f" "$when" "$@" <<'PY'
import os, subprocess, sys, time
import trigger
f, when, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
t = trigger.start(f, argv, subprocess.PIPE)
# Writes at offsets: an O_APPEND write has the kernel ask for the size
# first once it timed out, and that flushes what is gathered.
fd = os.open(f, os.O_WRONLY)
os.pwrite(fd, b"one\n", 5)
time.sleep(1.2)  # the name's entry times out (actimeo=1)
if when == "before":
    os.pwrite(fd, b"two\n", 9)
trigger.fire(t)
time.sleep(0.15)
if when == "during":
    os.pwrite(fd, b"two\n", 9)
os.fsync(fd)
shown = t.stdout.read().decode()
t.wait()
time.sleep(0.1)
# The size the trigger showed (stat -c %s, ls -l), if it shows one.
seen = "-"
for w in (line.split() for line in shown.splitlines()):
    if len(w) == 1 and w[0].isdigit():
        seen = w[0]
    elif len(w) >= 9 and w[-1] == os.path.basename(f):
        seen = w[4]
print(os.stat(f).st_size, seen)
os.close(fd)
fd = os.open(f, os.O_WRONLY | os.O_APPEND)
os.write(fd, b"three\n")
os.close(fd)
PY
) || fail "$name: the writer failed"
	set_delay 0 0
	want=$(printf 'zero\none\ntwo\n' | wc -c)
	assert_eq "$want" "${out% *}" \
		"$name: the size the writer sees once the late reply is in"
	# Shown during the writes, the size may be either.
	[[ $when == during || ${out#* } == - ]] || assert_eq "$want" "${out#* }" \
		"$name: the size $1 showed, after the writer's two writes"
	assert_eq "zero one two three" "$(tr '\n' ' ' <"$S/$name" | sed 's/ $//')" \
		"$name: the lines on the server after a third append"
	note "$name: a late reply to procedure $proc left the size and the appends whole"
}

s0=$(counter "$MNT" attr_straddled)
# ACCESS (4): another user's open asks it, with the file's attributes.
read -ra AS_USER <<<"$(user_argv "$TEST_USER")"
straddle_case access 4 during "${AS_USER[@]}" /usr/bin/python3 -c \
	'import os, sys; os.close(os.open(sys.argv[1], os.O_RDONLY))' access
# LOOKUP (3): a stat of the name, its entry timed out.
straddle_case lookup 3 before stat -c %s lookup
straddle_case lookup_during 3 during stat -c %s lookup_during
# READDIRPLUS (17): a listing, whose entries carry attributes.
straddle_case readdirplus 17 before ls -ln
straddle_case readdirplus_during 17 during ls -ln
# --- our own changes overtake a LOOKUP or a listing -------------------
# change_case NAME CHANGE WANT [PROC TRIGGER...]: the LOOKUP of a stat of
# NAME (or PROC, 3 or 17, of TRIGGER run in NAME's directory) goes out;
# then the process that holds NAME open makes CHANGE (Python, with fd and
# f); then the call's reply comes, from before the change.  It must not be
# cached: afterwards, by name and by descriptor, the file shows WANT
# ("size mode links"), and so does the daemon's cache.
change_case() {
	local name=$1 change=$2 want=$3 proc=${4:-3} f=$MNT/$T/$1 out cached
	shift $(($# > 3 ? 4 : 3))
	(($#)) || set -- stat "$name"
	set_delay "$proc" 400
	out=$(PYTHONPATH=$NFSFUSE_TMP python3 - "$f" "$change" "$@" <<'PY'
import os, sys, time
import trigger
f, change, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
t = trigger.start(f, argv)
fd = os.open(f, os.O_WRONLY)
time.sleep(1.2)  # the name's entry times out (actimeo=1)
trigger.fire(t)
time.sleep(0.15)
exec(change)
t.wait()
time.sleep(0.1)
for st in (os.stat(f), os.fstat(fd)):
    print(st.st_size, oct(st.st_mode & 0o7777)[2:], st.st_nlink)
os.close(fd)
PY
) || fail "$name: the change failed"
	set_delay 0 0
	assert_eq "$(printf '%s\n%s' "$want" "$want")" "$out" \
		"$name: size, mode and links by name and by descriptor once the late reply to $* is in"
	# The kernel may hold the change's own answer still; the daemon's
	# cache must not hold the late one either.
	cached=$("$NFSFUSECTL" "$MNT" cache "$f" | awk '
		$1 == "attributes:" && $2 == "size" && / believed$/ { size = $3 }
		$1 == "metadata:" { sub(/,$/, "", $3); mode = $3 + 0; links = $4 }
		END { if (size != "") print size, mode, links }')
	[[ -z $cached ]] || assert_eq "$want" "$cached" \
		"$name: size, mode and links the daemon caches once the late reply to $* is in"
	note "$name: a late reply to $* did not undo it"
}

printf 'zero one\n' >"$MNT/$T/truncated"
chmod 0644 "$MNT/$T/truncated"
change_case truncated 'os.ftruncate(fd, 0)' "0 644 1"
printf 'zero one\n' >"$MNT/$T/chmodded"
chmod 0644 "$MNT/$T/chmodded"
change_case chmodded 'os.fchmod(fd, 0o600)' "9 600 1"

# A link made or removed elsewhere changes the file's link count: by
# descriptor (through /proc, so that the name is not looked up) and in
# another directory, whose lock the listing does not hold.  The late call
# is a listing's: a link looks up the new name whatever the kernel holds,
# and would wait for a late LOOKUP reply of its own.
mkdir "$MNT/$T/other"
printf 'zero one\n' >"$MNT/$T/linked"
chmod 0644 "$MNT/$T/linked"
# (os.link would link the /proc symlink itself: linkat with
# AT_SYMLINK_FOLLOW, 0x400, from the current directory, AT_FDCWD.)
change_case linked 'import ctypes
libc = ctypes.CDLL(None, use_errno=True)
if libc.linkat(-100, b"/proc/self/fd/%d" % fd, -100,
               os.path.join(os.path.dirname(f), "other", "linked").encode(), 0x400):
    raise OSError(ctypes.get_errno(), "linkat")' "9 644 2" 17 ls -ln
printf 'zero one\n' >"$MNT/$T/unlinked"
chmod 0644 "$MNT/$T/unlinked"
ln "$MNT/$T/unlinked" "$MNT/$T/other/unlinked"
change_case unlinked 'os.unlink(os.path.join(os.path.dirname(f), "other", "unlinked"))' \
	"9 644 1" 17 ls -ln

s=$(($(counter "$MNT" attr_straddled) - s0))
((s >= 2)) || fail "attr_straddled rose by $s, not at least 2 (a LOOKUP and a listing)"
note "entries whose attributes a settle overtook: $s"
