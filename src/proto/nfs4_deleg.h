/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4.1 delegations (RFC 8881 §10.2): the server's promise that no
 * other client will change a file (a read delegation), or even open it
 * (a write delegation), without first asking for it back.  While one is
 * held the attributes and data cached for the file are current however
 * old they are, so a stat needs no GETATTR.
 *
 * Taken: an OPEN of an existing file asks for a read delegation when it
 * is for reading only (OPEN4_SHARE_ACCESS_WANT_READ_DELEG), for a write
 * delegation when it is for writing (WANT_WRITE_DELEG); an OPEN that
 * creates asks for none.  One offered while the file already has one, or
 * to an OPEN that asked for none, is given back at once (DELEGRETURN).
 * The delegation stateid is never used for I/O (the open stateid is),
 * only to give it back.
 *
 * A write delegation lets the server ask us, instead of its disk, for the
 * size and change attribute of a file we write (CB_GETATTR, answered on
 * the transport thread from what the layer above reports: the bytes
 * accepted from write(2) and not yet sent count).
 *
 * Recalled: CB_RECALL (on the backchannel's transport thread) marks it no
 * longer held, which the caches see at once, and queues it; a thread of
 * its own then has the layer above send and commit what it holds of a
 * written file (the flush hook: the server must have every byte before
 * anyone else opens it), forget what the delegation let it believe
 * (expire the attributes, here and in the kernel), and sends
 * DELEGRETURN.  A recall of a handle we hold nothing for is
 * NFS4ERR_BADHANDLE, of another stateid NFS4ERR_BAD_STATEID.
 *
 * Revoked: a recall answered too late, or revoked state flagged in a
 * SEQUENCE reply, is freed (FREE_STATEID) once DELEGRETURN says so; the
 * opens under it stand.
 *
 * Ended: this mount's own open for writing gives a read one back first;
 * every one held is given back at unmount, before the session is
 * destroyed (a written file's bytes flushed first); a lost client id
 * (server restart, lease expired) loses them all, with no DELEGRETURN
 * (the server forgot them; what our writes hold is resent through the
 * reclaimed open).
 *
 * Locks: the table's mutex is never held across an RPC or a hook; the
 * hooks run under no lock at all (a flush waits for replies the
 * transport thread reads, while that thread may be answering a
 * CB_GETATTR), but counted, so that taking them away waits for the calls
 * in progress.
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

/* type: NFS4_OPEN_DELEGATE_READ or _WRITE.  0: kept; -EEXIST: the file
 * has another one already (give this one back); -EALREADY: this very one
 * is held (a server may name it again in a later OPEN's reply: keep it);
 * -EINVAL; -ENOMEM. */
int nfs4_delegs_add(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
		    const struct nfs4_stateid *sid, uint32_t type,
		    int64_t now_ns);
/* The type of the delegation held for fh and not recalled, or 0. */
uint32_t nfs4_delegs_held(struct nfs4_delegs *t, const struct nfs_fh3 *fh);
/* CB_RECALL: NFS4_OK (marked recalled; *queued true the first time),
 * NFS4ERR_BADHANDLE or NFS4ERR_BAD_STATEID. */
uint32_t nfs4_delegs_recall(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
			    const struct nfs4_stateid *sid, bool *queued);
/* Every one held and not yet recalled marked recalled and queued, as if
 * each had its CB_RECALL; how many. */
size_t nfs4_delegs_recall_all(struct nfs4_delegs *t);
/* Each take returns the type of the one taken out of the table (for
 * its DELEGRETURN), or 0 when there is none. */
/* A recalled one. */
uint32_t nfs4_delegs_take_recalled(struct nfs4_delegs *t, struct nfs_fh3 *fh,
				   struct nfs4_stateid *sid);
/* fh's, recalled or not, if its type is only (0: any). */
uint32_t nfs4_delegs_take(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
			  uint32_t only, struct nfs4_stateid *sid);
/* Any one (unmount, or all lost). */
uint32_t nfs4_delegs_take_any(struct nfs4_delegs *t, struct nfs_fh3 *fh,
			      struct nfs4_stateid *sid);
/* How many the table holds (recalled or not). */
size_t nfs4_delegs_count(struct nfs4_delegs *t);
/* For nfsfusectl: 0 with its type, when it was granted and whether it
 * is recalled, or -ENOENT. */
int nfs4_delegs_describe(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
			 uint32_t *type, int64_t *granted_ns, bool *recalled);

/* What the layer above knows of a file it holds a write delegation for. */
struct nfs4_deleg_report {
	uint64_t size;    /* with the bytes written here and not yet sent */
	uint64_t change;  /* the server's change attribute, as last seen */
	bool dirty;       /* bytes written here are not yet on the server */
	uint64_t wgen;    /* bumped by every write accepted here */
};
/* CB_GETATTR's change attribute for fh: NFS4_OK and *change, or
 * NFS4ERR_BADHANDLE when no write delegation for fh is in the table. */
uint32_t nfs4_delegs_cb_change(struct nfs4_delegs *t, const struct nfs_fh3 *fh,
			       const struct nfs4_deleg_report *r,
			       uint64_t *change);

/* ---- on a mount (nfs4_deleg_return.c) ---- */

/* What the layer above does for delegations (nfs4_delegs_set_hooks). */
struct nfs4_deleg_hooks {
	/* Forget what the delegation let it believe: fh's attributes are
	 * no longer current.  recalled: a CB_RECALL (another client is
	 * about to change the file: the kernel must ask again too); false
	 * at a loss or at unmount.  Runs on the delegation thread or the
	 * recovery thread; it must not wait for an RPC. */
	void (*forget)(void *ctx, const struct nfs_fh3 *fh, bool recalled);
	/* Before a write delegation goes back: send and commit every byte
	 * written to fh here.  An error stays for the writer's next fsync
	 * or close; it is only logged here.  May wait for RPCs. */
	int (*flush)(void *ctx, const struct nfs_fh3 *fh);
	/* CB_GETATTR, on the transport thread: 0 and *r, or -ENOENT when
	 * fh is unknown.  Must not wait for an RPC. */
	int (*report)(void *ctx, const struct nfs_fh3 *fh,
		      struct nfs4_deleg_report *r);
	void *ctx;
};

/* The table and its return thread on c (c->v4delegs), and the recall hook
 * on c's session.  0 or a negative errno. */
int nfs4_delegs_start(struct nfs_client *c);
/* Every delegation held given back (DELEGRETURN), the thread stopped and
 * the table freed.  Before the session is destroyed. */
void nfs4_delegs_stop(struct nfs_client *c);
/* The hooks (NULL: none; copied); waits for a call of the old ones to
 * end. */
void nfs4_delegs_set_hooks(struct nfs_client *c,
			   const struct nfs4_deleg_hooks *h);
/* The server revoked some (SEQ4_STATUS_RECALLABLE_STATE_REVOKED): which
 * ones is not said, so every one held goes back as if recalled, and each
 * DELEGRETURN the server answers NFS4ERR_DELEG_REVOKED is followed by
 * FREE_STATEID.  The opens and locks stand.  Sends nothing itself: the
 * return thread does (this runs on the renewal thread, in a recovery). */
void nfs4_delegs_revoked(struct nfs_client *c);
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
 * what we write is then never believed past the server's word).  A
 * write delegation stays. */
void nfs4_deleg_before_write(struct nfs_client *c, const struct nfs_fh3 *fh);
/* The type of the delegation held for fh, or 0 (always on a mount
 * without them). */
uint32_t nfs4_deleg_held(struct nfs_client *c, const struct nfs_fh3 *fh);

#endif
