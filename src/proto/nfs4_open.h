/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4.1 open state (RFC 8881 §9): the OPENs a mount holds while files
 * are open, and the stateids READ, WRITE and SETATTR(size) carry.
 *
 * Owners: one open-owner per user (uid of the call's credential) per
 * mount, named nfs4_open_owner_name(uid); the client id already tells
 * mounts apart.  In 4.1 an open-owner's seqid is unused (always 0).
 *
 * State: one entry per (file handle, uid), holding the open stateid the
 * server gave that owner for that file and how many of the user's opens
 * share it, counted by share access (READ, WRITE, BOTH).  Every open(2)
 * sends an OPEN (which also brings the attributes close-to-open needs);
 * the server then holds the union of the accesses asked for.  At each
 * release the union of the opens left is compared with what the server
 * holds: smaller, an OPEN_DOWNGRADE; nothing left, a CLOSE (the caller
 * sends it after its write-behind has been flushed).  OPEN, OPEN_DOWNGRADE
 * and CLOSE of one entry go out one at a time (a CLOSE must not overtake
 * an OPEN of the same stateid); I/O never waits for them.
 *
 * READ, WRITE and SETATTR(size) look up the entry of (handle, uid of the
 * call) when they are encoded (nfs4_opens_stateid_for: one whose access
 * allows the operation, READ for a READ, WRITE for the others; an
 * O_RDONLY|O_TRUNC open truncates without it) and carry its stateid
 * with seqid 0 ("the current one", §8.2.2), so that an OPEN that bumps
 * the seqid while they are in flight cannot make them OLD_STATEID; with
 * no entry (a truncate by path by a user who has not the file open, a
 * descriptor passed to another user) they carry the anonymous stateid.
 * COMMIT carries none.
 *
 * Delegations: an open for reading only asks for a read delegation, and
 * what an OPEN brings goes to nfs4_deleg.h, which keeps or returns it.
 *
 * Locking: the table's mutex protects every entry's fields; it is never
 * held across an RPC.  An entry being OPENed, downgraded or CLOSEd is
 * marked busy, and the next state change of the same entry waits on the
 * table's condition variable (I/O and walks do not).
 *
 * Layers: the FUSE layer calls this only on NFSv4 mounts (c->v4 set);
 * the operations table (nfs4_procs.c) reads stateids from it.
 */
#ifndef NFSFUSE_PROTO_NFS4_OPEN_H
#define NFSFUSE_PROTO_NFS4_OPEN_H

#include <stdbool.h>
#include <stdint.h>

#include "../../xdr/nfs4.h"
#include "nfs.h"

/* ---- the table (pure: no RPC; nfs4_open.c) ---- */

struct nfs4_opens;
struct nfs4_open;      /* one (file handle, uid); opaque */

/* An empty table, or NULL (out of memory). */
struct nfs4_opens *nfs4_opens_new(void);
/* Frees every entry (the server's state is the session's to drop). */
void nfs4_opens_free(struct nfs4_opens *t);

/* Open-owner string of uid into out (NUL-terminated, at most 31 bytes);
 * its length.  The same string a reclaim must name. */
#define NFS4_OPEN_OWNER_MAX 32u
int nfs4_open_owner_name(uint32_t uid, char out[NFS4_OPEN_OWNER_MAX]);

/* Share access (NFS4_SHARE_ACCESS_READ/WRITE/BOTH) of open(2) flags. */
uint32_t nfs4_open_access_of(int flags);

/*
 * Before an OPEN of (fh, uid): 0 with *out the entry, found or made,
 * with this caller's claim on it and marked busy (waits while another
 * state change of it is on the wire), to be followed by one
 * nfs4_opens_end_open(); or -ENOMEM, or -EINTR once *interrupted (may be
 * NULL) is set while it waits, with nothing claimed.
 */
int nfs4_opens_begin_open(struct nfs4_opens *t, const struct nfs_fh3 *fh,
			  uint32_t uid, volatile int *interrupted,
			  struct nfs4_open **out);
/*
 * After the OPEN: ok with the stateid the server returned (its access
 * is now held and counted once), or !ok (the claim is dropped, and an
 * entry nobody else holds goes).  Returns o when ok, else NULL.
 */
struct nfs4_open *nfs4_opens_end_open(struct nfs4_opens *t,
				      struct nfs4_open *o, uint32_t access,
				      bool ok,
				      const struct nfs4_stateid *sid);

enum nfs4_open_action {
	NFS4_OPEN_KEEP,       /* others still use what the server holds */
	NFS4_OPEN_DOWNGRADE,  /* send OPEN_DOWNGRADE to *want */
	NFS4_OPEN_CLOSE,      /* the last one: send CLOSE */
};
/*
 * One open of access released: what must go to the server, with the
 * stateid to send (*sid, its real seqid) and for a downgrade the access
 * left (*want).  For KEEP the release is complete; otherwise the entry
 * is busy until nfs4_opens_end_release().
 */
enum nfs4_open_action nfs4_opens_begin_release(struct nfs4_opens *t,
					       struct nfs4_open *o,
					       uint32_t access,
					       uint32_t *want,
					       struct nfs4_stateid *sid);
/* The same; keep_idle (a delegation is held for the file): the last
 * release sends no CLOSE but leaves the entry idle, open on the server,
 * for nfs4_opens_reuse() or nfs4_opens_take_idle(). */
enum nfs4_open_action nfs4_opens_begin_release_idle(struct nfs4_opens *t,
						    struct nfs4_open *o,
						    uint32_t access,
						    bool keep_idle,
						    uint32_t *want,
						    struct nfs4_stateid *sid);
/* An open of (fh, uid) made here, with no OPEN: counted on the entry the
 * server already holds with at least access (idle or in use), when one
 * is there and no state change of it is under way.  The open, or NULL
 * (send an OPEN). */
struct nfs4_open *nfs4_opens_reuse(struct nfs4_opens *t,
				   const struct nfs_fh3 *fh, uint32_t uid,
				   uint32_t access);
/* An idle entry of fh (of any file when fh is NULL), made busy for its
 * CLOSE with its owner's uid and stateid; end it with
 * nfs4_opens_end_release(NFS4_OPEN_CLOSE).  NULL when none is idle. */
struct nfs4_open *nfs4_opens_take_idle(struct nfs4_opens *t,
				       const struct nfs_fh3 *fh,
				       uint32_t *uid,
				       struct nfs4_stateid *sid);
/* After the OPEN_DOWNGRADE or CLOSE: ok with the server's new stateid
 * (a downgrade's; ignored for CLOSE).  A CLOSE ends the entry whatever
 * its outcome (the server forgets it, or it was lost already). */
void nfs4_opens_end_release(struct nfs4_opens *t, struct nfs4_open *o,
			    enum nfs4_open_action action, bool ok,
			    const struct nfs4_stateid *sid);

/* The open stateid of (fh, uid) as the server last gave it: 0, or
 * -ENOENT when that user holds no open of the file, -EIO when the
 * server lost it (nfs4_opens_mark_lost). */
int nfs4_opens_stateid(struct nfs4_opens *t, const struct nfs_fh3 *fh,
		       uint32_t uid, struct nfs4_stateid *out);
/* The same, only when the share access the server holds for it includes
 * need (NFS4_SHARE_ACCESS_*): a WRITE or a truncation under a read-only
 * open would be refused (NFS4ERR_OPENMODE) where the anonymous stateid
 * is not.  0 or -ENOENT. */
int nfs4_opens_stateid_for(struct nfs4_opens *t, const struct nfs_fh3 *fh,
			   uint32_t uid, uint32_t need,
			   struct nfs4_stateid *out);
/* Share access the server holds for (fh, uid), 0 for none. */
uint32_t nfs4_opens_access(struct nfs4_opens *t, const struct nfs_fh3 *fh,
			   uint32_t uid);

/* One open as nfs4_open_walk() hands it out (a copy). */
struct nfs4_open_info {
	struct nfs_fh3 fh;
	uint32_t uid;
	uint32_t access;            /* share access the server holds */
	struct nfs4_stateid stateid;
	unsigned nopens;            /* opens of the user sharing it */
};
/*
 * Every open held (OPEN succeeded, not yet CLOSEd), for recovery after a
 * server restart: fn runs once per open, without the table's lock (a
 * snapshot is taken first, so fn may send RPCs and call the functions
 * here); a non-zero return from fn stops the walk and is returned.
 * Opens made or closed during the walk may or may not be seen.  After a
 * reclaim (OPEN with CLAIM_PREVIOUS as nfs4_open_owner_name(uid)), store
 * the new stateid with nfs4_opens_set_stateid().  0, -ENOMEM, or fn's.
 */
typedef int (*nfs4_open_walk_fn)(const struct nfs4_open_info *o, void *ctx);
int nfs4_opens_walk(struct nfs4_opens *t, nfs4_open_walk_fn fn, void *ctx);
/* Replace the stateid of (fh, uid) (a reclaim's): 0 or -ENOENT. */
int nfs4_opens_set_stateid(struct nfs4_opens *t, const struct nfs_fh3 *fh,
			   uint32_t uid, const struct nfs4_stateid *sid);
/* The server lost the open of (fh, uid) and it could not be reclaimed:
 * nfs4_opens_stateid() answers -EIO for it (so its READs and WRITEs fail
 * with EIO, never go out on another stateid) until an OPEN of the same
 * (fh, uid) succeeds again or a reclaim stores a stateid.  0 or -ENOENT. */
int nfs4_opens_mark_lost(struct nfs4_opens *t, const struct nfs_fh3 *fh,
			 uint32_t uid);
/* Opens held (entries with a stateid), for statistics and tests. */
unsigned nfs4_opens_count(struct nfs4_opens *t);
/* The file handle of o (which the caller holds). */
void nfs4_open_fh_of(const struct nfs4_open *o, struct nfs_fh3 *out);

/* ---- on the wire (nfs4_open_ops.c): c->v4 and c->v4opens set ---- */

/*
 * The open stateid of (fh, uid) on c, for operations built on an open
 * (LOCK's open_to_lock_owner4, I/O): 0 or -ENOENT (also on a mount that
 * is not NFSv4).
 */
int nfs4_open_stateid(struct nfs_client *c, const struct nfs_fh3 *fh,
		      uint32_t uid, struct nfs4_stateid *out);

/* CLOSE of the idle opens of fh (of every file when fh is NULL): after
 * its delegation went back, and at unmount. */
void nfs4_open_close_idle(struct nfs_client *c, const struct nfs_fh3 *fh);

/* DELEGRETURN of sid on fh, as cred, and FREE_STATEID of a stateid the
 * server revoked (so that it stops flagging revoked state in every
 * SEQUENCE): 0 with *st4 the operation's status, or a negative errno
 * when there was no answer. */
int nfs4_delegreturn(struct nfs_client *c, const struct rpc_cred *cred,
		     const struct nfs_fh3 *fh, const struct nfs4_stateid *sid,
		     uint32_t *st4);
int nfs4_free_stateid(struct nfs_client *c, const struct rpc_cred *cred,
		      const struct nfs_fh3 *fh, const struct nfs4_stateid *sid,
		      uint32_t *st4);

/* An ACCESS asked in the same COMPOUND as an OPEN: the bits asked
 * (ACCESS3_*), and on return whether the server answered and what it
 * granted. */
struct nfs4_access_ask {
	uint32_t asked;
	bool answered;
	uint32_t granted;
};

/*
 * open(2) of an existing file: PUTFH OPEN(CLAIM_FH, access) [ACCESS]
 * GETATTR, as cred (its uid names the open-owner).  0 with *out the open
 * (to release) and *attr the file's attributes after it (present when the
 * server sent them), or a negative errno (nothing held).  With ask, the
 * caller's ACCESS rights come with it, as the Linux client asks them
 * (one round trip for both); an open the server already holds (under a
 * delegation) sends nothing and answers nothing.
 */
int nfs4_open_fh(struct nfs_client *c, const struct rpc_cred *cred,
		 const struct nfs_fh3 *fh, uint32_t access,
		 struct nfs4_open **out, struct post_op_attr *attr,
		 struct nfs4_access_ask *ask, volatile int *interrupted);

/*
 * A create that opens: PUTFH dir SAVEFH OPEN(CLAIM_NULL, OPEN4_CREATE)
 * GETFH [SETATTR] GETATTR RESTOREFH GETATTR.  a->mode UNCHECKED and
 * GUARDED carry obj_attributes; EXCLUSIVE becomes EXCLUSIVE4_1 with
 * a->verf, and then_set (NULL: none; no size, no owner) is set on the new
 * file by a SETATTR in the same COMPOUND: the attributes an exclusive
 * create must set after, as with NFSv3, without a round trip of their
 * own.  *then_set_done says they were set (otherwise the caller sets
 * them).  The result is shaped as NFSv3's CREATE (status in res->status,
 * handle and attributes, the directory's wcc from its attributes after
 * and the OPEN's change_info4, nfs4_walk.h).  0 (look at res->status; on
 * NFS3_OK *out is the open, to release) or a negative errno.
 */
int nfs4_open_create(struct nfs_client *c, const struct rpc_cred *cred,
		     const struct nfs3_create_args *a, uint32_t access,
		     const struct sattr3 *then_set, bool *then_set_done,
		     struct nfs3_diropres *res, struct nfs4_open **out,
		     volatile int *interrupted);

/*
 * One open of access given back, as cred (the opener's): OPEN_DOWNGRADE
 * or CLOSE when the opens left need it (see above).  Call it after the
 * file's written data reached the server.  o may be NULL (nothing).
 * Returns 0 or the errno of a failed CLOSE/OPEN_DOWNGRADE (logged; the
 * local state is released anyway).
 */
int nfs4_open_release(struct nfs_client *c, const struct rpc_cred *cred,
		      struct nfs4_open *o, uint32_t access);

#endif
