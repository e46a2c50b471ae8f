/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4.1 read delegations (RFC 8881 §10.2): the server's promise that no
 * other client will change a file without first asking for it back.
 * While one is held the attributes and data cached for the file are
 * current however old they are, so a stat needs no GETATTR.
 *
 * Taken: an OPEN for reading only of an existing file asks for a read
 * delegation (OPEN4_SHARE_ACCESS_WANT_READ_DELEG); every other OPEN asks
 * for none.  A write delegation, or one offered while the file already
 * has one, is given back at once (DELEGRETURN): nothing here would answer
 * its CB_GETATTR.  The delegation stateid is never used for I/O (the open
 * stateid is), only to give it back.
 *
 * Recalled: CB_RECALL (on the backchannel's transport thread) marks it no
 * longer held, which the caches see at once, and queues it; a thread of
 * its own then tells the layer above (the forget hook: expire the
 * attributes, here and in the kernel) and sends DELEGRETURN.  A recall of
 * a handle we hold nothing for is NFS4ERR_BADHANDLE, of another stateid
 * NFS4ERR_BAD_STATEID.
 *
 * Ended: this mount's own open for writing gives it back first; every
 * one held is given back at unmount, before the session is
 * destroyed; a lost client id (server restart, lease expired) loses them
 * all, with no DELEGRETURN (the server forgot them).
 *
 * Locks: the table's mutex is never held across an RPC or the hook; the
 * hook runs under a mutex of its own, so that taking the hook away waits
 * for a call of it in progress.
 */
#ifndef NFSFUSE_PROTO_NFS4_DELEG_H
#define NFSFUSE_PROTO_NFS4_DELEG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../xdr/nfs4.h"
#include "nfs.h"

struct nfs4_delegs;

/* ---- the table (pure: no RPC, no thread; nfs4_deleg.c) ---- */

struct nfs4_delegs *nfs4_delegs_new(void);
/* Frees every entry: what was held is the caller's to have returned. */
void nfs4_delegs_free(struct nfs4_delegs *t);

/* 0: kept; -EEXIST: the file has one already (give this one back);
 * -ENOMEM. */
int nfs4_delegs_add(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
		    const struct nfs4_stateid *sid, int64_t now_ns);
/* A delegation for fh is held and not recalled. */
bool nfs4_delegs_held(struct nfs4_delegs *t, const struct nfs_fh3 *fh);
/* CB_RECALL: NFS4_OK (marked recalled; *queued true the first time),
 * NFS4ERR_BADHANDLE or NFS4ERR_BAD_STATEID. */
uint32_t nfs4_delegs_recall(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
			    const struct nfs4_stateid *sid, bool *queued);
/* A recalled one, out of the table, for its DELEGRETURN: 1, or 0 when
 * none is waiting. */
int nfs4_delegs_take_recalled(struct nfs4_delegs *t, struct nfs_fh3 *fh,
			      struct nfs4_stateid *sid);
/* fh's, recalled or not, out of the table: 1, or 0 when none. */
int nfs4_delegs_take(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
		     struct nfs4_stateid *sid);
/* Any one, out of the table (unmount, or all lost): 1, or 0 when empty. */
int nfs4_delegs_take_any(struct nfs4_delegs *t, struct nfs_fh3 *fh,
			 struct nfs4_stateid *sid);
/* How many the table holds (recalled or not). */
size_t nfs4_delegs_count(struct nfs4_delegs *t);
/* For nfsfusectl: 0 with when it was granted and whether it is recalled,
 * or -ENOENT. */
int nfs4_delegs_describe(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
			 int64_t *granted_ns, bool *recalled);

/* ---- on a mount (nfs4_deleg_return.c) ---- */

/*
 * The layer above forgets what the delegation let it believe: fh's
 * attributes are no longer current.  recalled: a CB_RECALL (another
 * client is about to change the file: the kernel must ask again too);
 * false at a loss or at unmount.  Runs on the delegation thread or the
 * recovery thread; it must not wait for an RPC.
 */
typedef void (*nfs4_deleg_forget_fn)(void *ctx, const struct nfs_fh3 *fh,
				     bool recalled);

/* The table and its return thread on c (c->v4delegs), and the recall hook
 * on c's session.  0 or a negative errno. */
int nfs4_delegs_start(struct nfs_client *c);
/* Every delegation held given back (DELEGRETURN), the thread stopped and
 * the table freed.  Before the session is destroyed. */
void nfs4_delegs_stop(struct nfs_client *c);
/* The hook (NULL: none); waits for a call of the old one to end. */
void nfs4_delegs_set_forget(struct nfs_client *c, nfs4_deleg_forget_fn fn,
			    void *ctx);
/* The server lost them (a new client id): each forgotten, none returned. */
void nfs4_delegs_lost(struct nfs_client *c);

/* The share access wish for an OPEN of an existing file with access. */
uint32_t nfs4_deleg_want(const struct nfs_client *c, uint32_t access);
/* After an OPEN of fh: the delegation it carried (if any) kept, or given
 * back (as the daemon) when wanted is false or it cannot be kept. */
void nfs4_deleg_offered(struct nfs_client *c, const struct nfs_fh3 *fh,
			const struct nfs4_open_delegation *d, bool wanted);
/* Before this mount opens fh for writing: its read delegation, if held,
 * given back first (a read delegation is kept only while we only read:
 * what we write is then never believed past the server's word). */
void nfs4_deleg_before_write(struct nfs_client *c, const struct nfs_fh3 *fh);
/* A delegation for fh is held (false on a mount without them). */
bool nfs4_deleg_held(struct nfs_client *c, const struct nfs_fh3 *fh);

#endif
