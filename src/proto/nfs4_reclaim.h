/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Open state after a recovery of the NFSv4.1 session (RFC 8881 §8.4.2.1):
 * the session's reclaim hook (nfs4_session_set_reclaim) walks the open
 * table (nfs4_opens_walk) and, for each open held:
 *
 *   reclaim in grace: PUTFH OPEN(CLAIM_PREVIOUS, the access held, no
 *           delegation) as the same open-owner; a server restarted
 *           without a grace period answers NFS4ERR_NO_GRACE, and the open
 *           is then made again (OPEN CLAIM_FH), as the Linux client does,
 *           unless the lease ran out before the recovery (a partition
 *           longer than the lease: the server may have expired the
 *           client and given the file to others): then it is lost;
 *   state lost (the lease expired during a partition, state revoked):
 *           nothing is sent: the server may have let others in meanwhile.
 *
 * An open that could not be had again is marked lost (nfs4_opens_mark_lost):
 * its READs, WRITEs and size changes fail with EIO until the file is
 * opened again; each is logged once.  Counted: nfs4_reclaims,
 * nfs4_state_lost.
 *
 * Then, still before RECLAIM_COMPLETE, the byte-range locks held are
 * reclaimed from the reclaimed opens (nfs4_lock_reclaim, nfs4_lock.h).
 */
#ifndef NFSFUSE_PROTO_NFS4_RECLAIM_H
#define NFSFUSE_PROTO_NFS4_RECLAIM_H

#include "nfs.h"

/* Registers the hook on c's session (c->v4 and c->v4opens set). */
void nfs4_reclaim_register(struct nfs_client *c);

#endif
