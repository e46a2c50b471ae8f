#!/usr/bin/env bash
# What goes on the wire, decoded by tshark (independently of our codecs):
# every NFSv3 procedure the FUSE operations use appears, MOUNT and portmap
# are used at mount time, and no frame is malformed (unless the capture
# itself missed segments, which is said).
. "$(dirname "$0")/lib.sh"
ensure_server
need_nfsfuse
need_root
need_cmd tshark

T=$(make_testdir wire)
MNT=$(new_mountpoint)
MNT2=$(new_mountpoint)
PCAP=$(tmpdir_new)/wire.pcapng
chmod 755 "$(dirname "$PCAP")"

capture_start "$PCAP"
mount_nfsfuse "$MNT"
mount_nfsfuse "$MNT2" -o nordirplus
M=$MNT/$T
echo data >"$M/f"                       # LOOKUP CREATE WRITE (FILE_SYNC)
head -c 3000000 /dev/zero >"$M/big"     # more than one wsize: UNSTABLE WRITEs, then COMMIT
cat "$MNT2/$T/f" >/dev/null             # ACCESS READ (the writer's cache would answer)
chmod 600 "$M/f"                        # SETATTR
mkdir "$M/d"                            # MKDIR
ln -s f "$M/s"; readlink "$M/s" >/dev/null   # SYMLINK READLINK
ln "$M/f" "$M/h"                        # LINK
mkfifo "$M/p"                           # MKNOD
mv "$M/h" "$M/h2"                       # RENAME
rm "$M/h2"; rmdir "$M/d"                # REMOVE RMDIR
ls -l "$M" >/dev/null                   # READDIRPLUS GETATTR
ls "$MNT2/$T" >/dev/null                # READDIR
df "$M" >/dev/null                      # FSSTAT
umount_nfsfuse "$MNT"
umount_nfsfuse "$MNT2"
capture_stop

procs=$(tshark -r "$PCAP" -Y 'rpc.msgtyp == 0 && nfs' -T fields -e nfs.procedure_v3 2>/dev/null |
	sort -u | tr '\n' ' ')
note "NFSv3 procedures seen (numbers): $procs"
names=$(tshark -r "$PCAP" -Y 'rpc.msgtyp == 0 && nfs' -T fields -e _ws.col.Info 2>/dev/null |
	grep -oE 'V3 [A-Z]+ Call' | awk '{ print $2 }' | sort -u | tr '\n' ' ')
note "NFSv3 calls seen: $names"
for p in GETATTR SETATTR LOOKUP ACCESS READLINK READ WRITE CREATE MKDIR SYMLINK \
	MKNOD REMOVE RMDIR RENAME LINK READDIR READDIRPLUS FSSTAT FSINFO COMMIT; do
	[[ " $names " == *" $p "* ]] || fail "no $p call on the wire"
done
[[ -n $(tshark -r "$PCAP" -Y 'mount.procedure_v3 == 1' -T fields -e frame.number 2>/dev/null) ]] ||
	fail "no MOUNT MNT call"
[[ -n $(tshark -r "$PCAP" -Y 'mount.procedure_v3 == 3' -T fields -e frame.number 2>/dev/null) ]] ||
	fail "no MOUNT UMNT call"
# rpcbind v4 is asked first (GETADDR, procedure 3); portmap v2 only when
# v4 and v3 are not spoken, which the test server's rpcbind does not need.
[[ -n $(tshark -r "$PCAP" -Y 'portmap.procedure_v4 == 3' -T fields -e frame.number 2>/dev/null) ]] ||
	fail "no rpcbind v4 GETADDR call"
bad=$(tshark -r "$PCAP" -Y '_ws.malformed' \
	-T fields -e frame.number -e _ws.col.Info 2>/dev/null | head -n 5)
if [[ -n $bad ]]; then
	# What they were: enough to tell our frames from a damaged capture.
	tshark -r "$PCAP" -Y '_ws.malformed' -T fields -e frame.number \
		-e tcp.srcport -e tcp.dstport -e frame.protocols -e frame.len \
		2>/dev/null | head -n 5 | sed 's/^/# /' >&2
	# A capture that missed segments (dumpcap falls behind on a busy
	# machine) leaves tshark decoding the middle of a record as a
	# message of its own.  Our framing is checked by the server, which
	# would break the connection on a bad record: so those frames are
	# the capture's, said, and not failed.
	lost=$(tshark -r "$PCAP" -Y 'tcp.analysis.lost_segment || tcp.analysis.ack_lost_segment' \
		-T fields -e frame.number 2>/dev/null | wc -l)
	((lost > 0)) ||
		fail "tshark found malformed or suspicious frames: $bad"
	note "malformed frames after $lost segments the capture missed: $bad"
fi
echo "PASS: wire"
