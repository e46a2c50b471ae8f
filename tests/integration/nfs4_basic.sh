#!/usr/bin/env bash
# NFSv4.1 and 4.2 mounts (vers=4.1, vers=4.2) of the test server: the
# export found through the pseudo file system, every basic operation
# checked against the export directory and against a second, NFSv3 mount
# of the same export, owners mapped from user@domain strings, and the
# statistics and the wire showing sessions (COMPOUND, SEQUENCE, and
# DESTROY_SESSION at unmount) and no MOUNT, portmapper or NLM.
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse

T=$(make_testdir nfs4)
SRC=$(tmpdir_new)/data
head -c 300001 /dev/urandom >"$SRC"

PCAP=
if [[ $(id -u) -eq 0 ]] && command -v tshark >/dev/null && command -v dumpcap >/dev/null; then
	PCAP=$(tmpdir_new)/nfs4.pcapng
	chmod 755 "$(dirname "$PCAP")"
	capture_start "$PCAP" "tcp port 2049 or port 111"
fi

M3=$(new_mountpoint)
mount_nfsfuse "$M3" -o vers=3,actimeo=0

for V in 4.1 4.2; do
	M=$(new_mountpoint)
	# actimeo=0: owners are changed on the server side below.
	mount_nfsfuse "$M" -o "vers=$V,actimeo=0"
	D=$M/$T/v$V
	S=$EXPORT_DIR/$T/v$V
	V3=$M3/$T/v$V

	# mkdir, seen on the server and through NFSv3
	mkdir "$D"
	assert_dir "$S" "mkdir over NFSv$V"
	assert_dir "$V3" "NFSv3 sees the directory made over NFSv$V"

	# create, write, read back byte-exact, on the server and over v3
	cp "$SRC" "$D/f"
	assert_file_eq "$SRC" "$S/f" "bytes on the server after cp over NFSv$V"
	assert_file_eq "$SRC" "$V3/f" "bytes through NFSv3"
	assert_file_eq "$SRC" "$D/f" "read back over NFSv$V"
	# and the other way: written over v3, read over v4
	head -c 5000 /dev/urandom >"$V3/g"
	assert_file_eq "$V3/g" "$D/g" "NFSv3 write read over NFSv$V"

	# ls -l and stat agree with the server
	ls -l "$D" >/dev/null || fail "ls -l of $D"
	assert_eq "$(stat_of '%s %a %u %g %h %F' "$S/f")" \
		"$(stat_of '%s %a %u %g %h %F' "$D/f")" "stat of f"
	assert_eq "$(ls "$S" | sort | tr '\n' ' ')" "$(ls "$D" | sort | tr '\n' ' ')" \
		"directory listing"
	# "." and "..", which an NFSv4 READDIR does not list, lead the
	# listing as on the server's disk and over NFSv3, with the numbers
	# of the directory and of its parent; a position taken with telldir
	# is one seekdir returns to, those of "." and ".." too.
	assert_eq "$(ls -a "$S" | tr '\n' ' ')" "$(ls -a "$D" | tr '\n' ' ')" \
		"directory listing with . and .."
	assert_eq "$(stat -c '%i .' "$D") $(stat -c '%i ..' "$M/$T")" \
		"$(ls -ai "$D" | head -n 2 | awk '{ print $1, $2 }' | tr '\n' ' ' | sed 's/ $//')" \
		"the numbers of . and .."
	for i in $(seq 1 40); do : >"$D/many.$i"; done
	perl -e '
		opendir(my $d, $ARGV[0]) or die "opendir: $!";
		my (@pos, @names);
		while (1) {
			my $p = telldir($d);
			my $n = readdir($d);
			last unless defined $n;
			push @pos, $p;
			push @names, $n;
		}
		die "no . and .. first: @names[0, 1]\n"
			unless $names[0] eq "." && $names[1] eq "..";
		for my $i (reverse 0 .. $#pos) {
			seekdir($d, $pos[$i]);
			my $n = readdir($d);
			die "seekdir to entry $i gave $n, not $names[$i]\n"
				unless defined $n && $n eq $names[$i];
		}
		print scalar(@names), "\n";
	' "$D" >"$NFSFUSE_TMP/seekdir.out" 2>&1 || fail "telldir and seekdir over NFSv$V: $(cat "$NFSFUSE_TMP/seekdir.out")"
	assert_eq "$(ls -a "$S" | wc -l)" "$(cat "$NFSFUSE_TMP/seekdir.out")" "entries read with telldir"
	rm -f "$D"/many.*

	# times before 1970 and after 2106: nfstime4 holds them
	TZ=UTC touch -m -d "1960-05-04 03:02:01.5" "$D/g"
	TZ=UTC touch -a -d "2200-01-02 03:04:05" "$D/g"
	assert_eq "$(stat_of '%x %y' "$S/g")" "$(stat_of '%x %y' "$D/g")" \
		"times set over NFSv$V, against the server's"
	assert_eq "$(TZ=UTC date -d "2200-01-02 03:04:05" +%s) $(TZ=UTC date -d "1960-05-04 03:02:01" +%s)" \
		"$(stat_of '%X %Y' "$S/g")" "times set over NFSv$V, on the server"

	# owners: user@domain of a user both sides know, and a bare number
	if [[ $(id -u) -eq 0 ]]; then
		chown daemon:daemon "$S/g"
		assert_eq "$(id -u daemon) $(id -g daemon)" "$(stat_of '%u %g' "$D/g")" \
			"owner daemon@domain maps to daemon's ids"
		chown 4000123:4000123 "$S/g"
		assert_eq "4000123 4000123" "$(stat_of '%u %g' "$D/g")" \
			"an owner without a name comes as its number"
		chown bin "$D/g"
		assert_eq "$(id -u bin)" "$(stat_of '%u' "$S/g")" \
			"chown over NFSv$V sets the owner on the server"
	fi

	# chmod, truncate
	chmod 640 "$D/f"
	assert_eq 640 "$(stat_of %a "$S/f")" "chmod over NFSv$V"
	truncate -s 1000 "$D/f"
	assert_eq 1000 "$(stat_of %s "$S/f")" "truncate over NFSv$V"
	assert_file_eq "$S/f" "$D/f" "read after truncate"

	# hard links: the count on both sides
	ln "$D/f" "$D/hl"
	assert_eq 2 "$(stat_of %h "$S/f")" "link count on the server"
	assert_eq 2 "$(stat_of %h "$D/f")" "link count over NFSv$V"
	assert_eq "$(stat_of %i "$S/f")" "$(stat_of %i "$S/hl")" "same inode"

	# symlink
	ln -s f "$D/sl"
	assert_eq f "$(readlink "$S/sl")" "symlink target on the server"
	assert_eq f "$(readlink "$D/sl")" "readlink over NFSv$V"

	# rename, unlink, rmdir
	mv "$D/hl" "$D/hl2"
	assert_not_exists "$S/hl" "renamed away"
	assert_exists "$S/hl2" "renamed"
	rm "$D/hl2"
	assert_not_exists "$S/hl2" "unlinked"
	assert_eq 1 "$(stat_of %h "$D/f")" "link count after unlink"
	mkdir "$D/sub"
	rmdir "$D/sub"
	assert_not_exists "$S/sub" "rmdir"
	assert_fails rmdir "$D/nope"

	# What went out: COMPOUNDs, each with a SEQUENCE, and no MOUNT
	# or NLM (no such program in this mount's statistics).
	compounds=$(calls "$M" COMPOUND)
	seqs=$(op_calls "$M" SEQUENCE)
	(( compounds > 10 )) || fail "only $compounds COMPOUNDs counted"
	(( seqs >= compounds - 3 )) || fail "$seqs SEQUENCEs for $compounds COMPOUNDs"
	(( $(op_calls "$M" EXCHANGE_ID) == 1 )) || fail "EXCHANGE_ID not sent once"
	(( $(op_calls "$M" CREATE_SESSION) == 1 )) || fail "CREATE_SESSION not sent once"
	(( $(op_calls "$M" RECLAIM_COMPLETE) == 1 )) || fail "RECLAIM_COMPLETE not sent"
	(( $(op_calls "$M" PUTROOTFH) >= 1 )) || fail "no PUTROOTFH: the export was not walked"
	[[ $(calls "$M" MNT) == 0 ]] || fail "an NFSv4 mount sent MOUNT calls"
	stats_json "$M" | python3 -c 'import json,sys
rpc = json.load(sys.stdin)["rpc"]
extra = [p for p in rpc if p not in ("NULL", "COMPOUND")]
sys.exit("NFS procedures besides COMPOUND: %s" % extra if extra else 0)' ||
		fail "NFSv4 statistics"

	t0=$SECONDS
	umount_nfsfuse "$M"
	note "unmount took $((SECONDS - t0)) s"
	note "NFSv$V: $compounds COMPOUNDs, $seqs SEQUENCEs"
done
umount_nfsfuse "$M3"

if [[ -n $PCAP ]]; then
	capture_stop
	tsh() { tshark -r "$PCAP" "$@" 2>/dev/null; }
	# Two mounts, two sessions, each destroyed with its client id.
	n=$(tsh -Y 'rpc.msgtyp == 0 && nfs.opcode == 44' -T fields -e frame.number | wc -l)
	assert_eq 2 "$n" "DESTROY_SESSION calls on the wire"
	n=$(tsh -Y 'rpc.msgtyp == 0 && nfs.opcode == 57' -T fields -e frame.number | wc -l)
	assert_eq 2 "$n" "DESTROY_CLIENTID calls on the wire"
	# Minor versions 1 and 2, as asked.
	minors=$(tsh -Y 'rpc.msgtyp == 0 && nfs.opcode == 42' -T fields -e nfs.minorversion | sort -u | tr '\n' ' ')
	assert_eq "1 2 " "$minors" "EXCHANGE_ID minor versions"
	# Every v4 COMPOUND after the set-up starts with SEQUENCE.
	bad=$(tsh -Y 'rpc.msgtyp == 0 && rpc.programversion == 4 && nfs.procedure_v4 == 1' \
		-T fields -e nfs.opcode | awk -F, '$1 != 53 && $1 != 42 && $1 != 43 && $1 != 44 && $1 != 57 && $1 != 41' | sort -u)
	[[ -z $bad ]] || fail "COMPOUNDs not starting with SEQUENCE: $bad"
	# The NFS connection's frames: port 111 is captured for capture_start's
	# probe, and carries whatever else talks to rpcbind meanwhile.
	bad=$(tsh -Y '_ws.malformed && tcp.port == 2049' -T fields -e frame.number -e _ws.col.Info | head -5)
	[[ -z $bad ]] || fail "tshark found malformed frames: $bad"
fi

# The atime a read moved on the server: an NFSv4 READ asks for no
# attributes while the cached ones are believed (default timeouts here),
# and the kernel asks again after a read; that one question goes to the
# server, and a stat shows the atime the read left, as on the server's
# disk and through the Linux client.  A second stat asks nothing.
MA=$(new_mountpoint)
mount_nfsfuse "$MA" -o vers=4.1
echo data >"$EXPORT_DIR/$T/at"
touch -a -d '2001-02-03 04:05:06' "$EXPORT_DIR/$T/at"
assert_eq 2001 "$(stat -c %x "$MA/$T/at" | cut -c1-4)" "the old atime, before the read"
a0=$(counter "$MA" attr_atime_asked)
assert_file_content "$MA/$T/at" data "the file read over NFSv4.1"
assert_eq "$(stat -c %X "$EXPORT_DIR/$T/at")" "$(stat -c %X "$MA/$T/at")" "the atime after a read, against the server's"
assert_ne 2001 "$(stat -c %x "$MA/$T/at" | cut -c1-4)" "the atime after a read"
assert_eq 1 "$(($(counter "$MA" attr_atime_asked) - a0))" "GETATTRs for the atime after one read and two stats"
# The same for a file written here, whose writes' replies answer stat:
# its hole past the written bytes is read from the server.
head -c 100 /dev/zero | tr '\0' a >"$MA/$T/aw"
truncate -s 1M "$MA/$T/aw"
touch -a -d '2001-02-03 04:05:06' "$MA/$T/aw"
assert_eq 10 "$(dd if="$MA/$T/aw" bs=10 skip=100 count=1 status=none | wc -c)" "a read of the hole"
assert_eq "$(stat -c %X "$EXPORT_DIR/$T/aw")" "$(stat -c %X "$MA/$T/aw")" "the atime after a read of a file written here"
assert_ne 2001 "$(stat -c %x "$MA/$T/aw" | cut -c1-4)" "the atime after a read of a file written here"
umount_nfsfuse "$MA"
echo "PASS: nfs4_basic"
