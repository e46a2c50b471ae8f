#!/usr/bin/env bash
# An ordinary user mounts with default options from inside a user
# namespace, as rootless containers do (unshare -U with newuidmap and
# newgidmap): the mount comes up although root of the namespace may not
# bind a reserved port; every call carries the machine's ids, not the
# namespace's; owners read back as the namespace knows them (unmapped:
# the overflow id); a supplementary group works through its mapping;
# nfsfusectl reaches the mount from inside; chown to an id the namespace
# does not map fails with EINVAL and sends nothing.  All of it over NFSv3,
# then over NFSv4.1, where the daemon must not listen on any socket (its
# callbacks come back over its own connection).
#
# Namespace of user U:  uid 0 -> U, uid 1000 -> V (another user)
#                       gid 0 -> U's group, gid 1000 -> group G (U is in G)
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_root
need_cmd unshare newuidmap newgidmap python3
ensure_test_user            # V: nfsfuse-tu
U=nfsfuse-uns
G=nfsfuse-uns-g
for ((i = 0; i < 20; i++)); do
	getent group "$G" >/dev/null && break
	groupadd "$G" >/dev/null 2>&1 || sleep 0.2
done
for ((i = 0; i < 20; i++)); do
	id -u "$U" >/dev/null 2>&1 && break
	useradd --user-group --groups "$G" --no-create-home \
		--home-dir /nonexistent --shell /bin/sh "$U" >/dev/null 2>&1 || sleep 0.2
done
UID_U=$(id -u "$U") || fail "cannot create user $U"
GID_U=$(id -g "$U")
GID_G=$(getent group "$G" | cut -d: -f3)
[[ " $(id -G "$U") " == *" $GID_G "* ]] || usermod -a -G "$G" "$U"
# What newuidmap and newgidmap let U map, beside U's own ids.  usermod
# takes the files' locks: an append of ours could be lost to a useradd
# that rewrites them at the same moment.
grep -qx "$U:$TEST_UID:1" /etc/subuid 2>/dev/null ||
	usermod --add-subuids "$TEST_UID-$TEST_UID" "$U" || fail "cannot give $U subordinate uid $TEST_UID"
grep -qx "$U:$GID_G:1" /etc/subgid 2>/dev/null ||
	usermod --add-subgids "$GID_G-$GID_G" "$U" || fail "cannot give $U subordinate gid $GID_G"

# run_case NAME MOUNT-OPTIONS...: the whole check, over one protocol.
run_case() {
	local name=$1
	shift
	MOUNT_OPTS=("$@")
	T=$(make_testdir "userns_$name")
	S=$EXPORT_DIR/$T
	mkdir "$S/home" "$S/grp"
	chown "$UID_U:$GID_U" "$S/home"
	chmod 0755 "$S/home"
	# Writable by U only through its supplementary group G; owned by V so that
	# both owner ids are mapped (the kernel refuses writes to a directory
	# whose owner the namespace cannot name).
	chown "$TEST_UID:$GID_G" "$S/grp"
	chmod 2770 "$S/grp"
	# A file of a user this namespace does not map.
	echo other >"$S/other"
	chown 4242:4242 "$S/other"

	MNT=$(new_mountpoint)
	chown "$UID_U" "$MNT"
	OUT=$(tmpdir_new)
	chmod 0777 "$OUT"
	INNER=$NFSFUSE_TMP/inner.sh
	cat >"$INNER" <<'INNER_EOF'
# Runs as root of the namespace: $1 mount point, $2 test dir, $3 output,
# then the mount's options.
M=$1 T=$2 O=$3
cat /proc/self/uid_map >"$O/uid_map"
cat /proc/self/gid_map >"$O/gid_map"
id -G >"$O/groups"
shift 3
"$NFSFUSE" "$@" "$SERVER:$EXPORT" "$M" >"$O/mount.log" 2>&1 || { echo mount-failed >"$O/status"; exit 1; }
for i in $(seq 100); do
	grep -q " $M fuse" /proc/self/mounts && break
	sleep 0.1
done
ss -H -l -t -u -p >"$O/listening" 2>&1
ss -H -t -p >"$O/connected" 2>&1
echo data >"$M/$T/home/f" 2>"$O/write.err"
stat -c %u:%g "$M/$T/home/f" >"$O/f.owner" 2>&1
stat -c %u:%g "$M/$T/other" >"$O/other.owner" 2>&1
stat -c %u:%g "$M/$T/grp" >"$O/grp.owner" 2>&1
echo grp >"$M/$T/grp/g" 2>"$O/grp.err"
stat -c %u:%g "$M/$T/grp/g" >"$O/g.owner" 2>&1
"$NFSFUSECTL" "$M" stats --json >"$O/stats1.json" 2>"$O/stats1.err"
chown 4242 "$M/$T/home/f" 2>"$O/chown.err"; echo $? >"$O/chown.rc"
chown 1000:1000 "$M/$T/home/f" 2>"$O/chown2.err"; echo $? >"$O/chown2.rc"
"$NFSFUSECTL" "$M" stats --json >"$O/stats2.json" 2>"$O/stats2.err"
umount "$M" 2>"$O/umount.err"
echo done >"$O/status"
INNER_EOF
	chmod 0755 "$INNER"

	# The namespace waits on a FIFO while U writes its maps with newuidmap
	# and newgidmap, as podman does.  HOME=/: no home of U's to keep lock
	# state in (the fallback is then /tmp/nfsfuse-UID, as the machine knows U).
	FIFO=$NFSFUSE_TMP/go.$name
	mkfifo -m 0666 "$FIFO"
	as_u() { setpriv --reuid="$UID_U" --regid="$GID_U" --init-groups -- "$@"; }
	# (setpriv, env and unshare each exec the next: $! is the namespace's.)
	setpriv --reuid="$UID_U" --regid="$GID_U" --init-groups -- \
		env HOME=/ SERVER="$SERVER" EXPORT="$EXPORT" NFSFUSE="$NFSFUSE" \
		NFSFUSECTL="$NFSFUSECTL" unshare --user --mount -- \
		sh -c 'read -r _ <"$0" && exec sh "$@"' "$FIFO" "$INNER" "$MNT" "$T" "$OUT" "${MOUNT_OPTS[@]}" \
		>"$OUT/unshare.log" 2>&1 &
	NSPID=$!
	register_pid "$NSPID"
	wait_until 10 bash -c "[[ \$(readlink /proc/$NSPID/ns/user) != \$(readlink /proc/self/ns/user) ]]" ||
		fail "unshare did not start: $(cat "$OUT/unshare.log")"
	as_u newuidmap "$NSPID" 0 "$UID_U" 1 1000 "$TEST_UID" 1 || fail "newuidmap failed"
	as_u newgidmap "$NSPID" 0 "$GID_U" 1 1000 "$GID_G" 1 || fail "newgidmap failed"
	echo go >"$FIFO"
	wait_until 60 _pid_gone "$NSPID" || fail "the namespace's run did not end within 60 s"
	wait "$NSPID" 2>/dev/null || true
	on_exit sh -c "pkill -KILL -u $UID_U -x nfsfuse 2>/dev/null || true"

	[[ -s $OUT/uid_map ]] || fail "unshare did not run: $(cat "$OUT/unshare.log")"
	note "uid_map: $(tr -s ' \n' ' ' <"$OUT/uid_map")"
	note "gid_map: $(tr -s ' \n' ' ' <"$OUT/gid_map")"
	assert_eq "0 1000" "$(cat "$OUT/groups")" "groups inside the namespace"
	assert_eq done "$(cat "$OUT/status")" \
		"the namespace's run: $(cat "$OUT/mount.log" "$OUT/unshare.log" 2>/dev/null)"

	# The write in U's own server directory went out as U.
	assert_eq "" "$(cat "$OUT/write.err")" "write into the user's own directory"
	assert_eq data "$(cat "$S/home/f")" "written through the mount"
	assert_eq "$UID_U:$GID_U" "$(stat_of %u:%g "$S/home/f")" "owner on the server"
	assert_eq "0:0" "$(cat "$OUT/f.owner")" "owner inside the namespace"
	assert_eq "65534:65534" "$(cat "$OUT/other.owner")" "an unmapped owner"
	assert_eq "1000:1000" "$(cat "$OUT/grp.owner")" "a mapped other user and group"

	# The supplementary group went out as G.
	assert_eq "" "$(cat "$OUT/grp.err")" "write through the supplementary group"
	assert_eq grp "$(cat "$S/grp/g")" "written through the group"
	assert_eq "$UID_U:$GID_G" "$(stat_of %u:%g "$S/grp/g")" "group file on the server"
	assert_eq "0:1000" "$(cat "$OUT/g.owner")" "group file inside"

	# nfsfusectl inside reached the daemon inside.
	assert_eq "" "$(cat "$OUT/stats1.err")" "nfsfusectl stats inside"
	setattrs() { # NFSv4 counts the operation inside its COMPOUND
		python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], {}).get("SETATTR", {}).get("calls", 0))' \
			"$1" "$stats_key"
	}
	stats_key=rpc
	if [[ $name == v41 ]]; then
		stats_key=nfs4ops
		(( $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["rpc"].get("COMPOUND", {}).get("calls", 0))' "$OUT/stats1.json") > 0 )) ||
			fail "$name: the mount did not speak NFSv4"
		# ss sees the daemon's sockets (its connection to the server), and
		# none of them listens.
		grep -q '"nfsfuse"' "$OUT/connected" ||
			fail "$name: ss inside shows no connection of the daemon: $(cat "$OUT/connected")"
		! grep -q '"nfsfuse"' "$OUT/listening" ||
			fail "$name: the daemon listens: $(grep '"nfsfuse"' "$OUT/listening")"
	fi
	s1=$(setattrs "$OUT/stats1.json")

	# chown to an id the namespace has no mapping for: EINVAL, nothing sent;
	# to mapped ids: the server gets the machine's ids.
	assert_eq 1 "$(cat "$OUT/chown.rc")" "chown to an unmapped id"
	assert_contains "$(cat "$OUT/chown.err")" "Invalid argument" "chown to an unmapped id"
	assert_ne 0 "$(cat "$OUT/chown2.rc")" "U may not give a file away (the server says no)"
	s2=$(setattrs "$OUT/stats2.json")
	assert_eq "$((s1 + 1))" "$s2" "SETATTR calls: none for the unmapped chown, one for the mapped one"
	assert_eq "$UID_U:$GID_U" "$(stat_of %u:%g "$S/home/f")" "owner unchanged on the server"
}

run_case v3
# NFSv4.1 brings its callbacks back over the client's own connection:
# nothing of the daemon listens, so a rootless container needs no port.
run_case v41 -o vers=4.1
echo "PASS: userns"
