/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4.1 byte-range locks (RFC 8881 §9, §18.10-18.12) on behalf of FUSE
 * lock owners: what NLM does for NFSv3 mounts (src/lock/), done here
 * with the client id and session of the mount, so that no callback port,
 * rpcbind or statd is needed.
 *
 *   lock:    LOCK; the first of a lock-owner on a file names the open it
 *            comes from (open_to_lock_owner4), later ones the lock
 *            stateid (exist_lock_owner4).  The open is the caller's
 *            own (nfs4_open.h: the open stateid of (file, uid)) when it
 *            allows the lock's type; else one this client makes for
 *            locking (OPEN by handle, an open-owner "lock-open-UID",
 *            closed when its last lock stateid is freed).
 *   wait:    F_SETLKW and flock without LOCK_NB poll: LOCK again (the
 *            blocking lock types, READW/WRITEW) after 100 ms, doubling up
 *            to 2 s, from one thread that polls for every wait, so
 *            that no FUSE worker sleeps and a blocked lock costs no
 *            thread; an interrupt ends the wait with -EINTR.
 *            CB_NOTIFY_LOCK is not taken: polling alone grants.
 *   test:    LOCKT (needs no stateid): the holder's range and type.
 *   unlock:  LOCKU; when the whole file is unlocked (an unlock of the
 *            whole range, or the owner's close), the lock stateid is
 *            freed with FREE_STATEID, which is how NFSv4.1 lets go of a
 *            lock-owner's state (RELEASE_LOCKOWNER is NFSv4.0 only).
 *   stop:    every lock still held is unlocked, its stateid freed, every
 *            lock open closed: the client id can then be destroyed.
 *   reclaim: after a server restart, in the recovery (nfs4_lock_reclaim.c):
 *            each range held is asked for again.
 *
 * Errors are negative errnos: -EAGAIN (conflict), -EDEADLK, -EINTR,
 * -ESTALE, -EACCES, -EBADF (the open does not allow the lock's type),
 * -EINVAL (bad range), -ENOLCK (anything else the server said), or the
 * transport's.
 *
 * Threads: any FUSE worker calls in; one mutex guards the table and is
 * never held across an RPC.  Operations on one lock stateid go out one
 * at a time (the entry is busy meanwhile).
 */
#ifndef NFSFUSE_PROTO_NFS4_LOCK_H
#define NFSFUSE_PROTO_NFS4_LOCK_H

#include <stdbool.h>
#include <stdint.h>

#include <glib.h>

#include "../../xdr/nfs3.h"
#include "../../xdr/rpc_msg.h"
#include "nfs.h"
#include "nfs4_recover.h"

struct nfs4_locks;

struct nfs4_lock_req {
	const struct nfs_fh3 *fh;
	uint64_t ino;           /* FUSE node id, for listings */
	uint64_t owner;         /* FUSE lock owner */
	bool flock;             /* flock(2): owners of their own */
	bool excl;
	uint64_t start;
	uint64_t len;           /* 0: to the end of the file */
	const struct rpc_cred *cred;
};

struct nfs4_lock_conflict {
	bool found;
	bool excl;
	uint64_t start;
	uint64_t len;           /* 0: to the end of the file */
};

/* c must have a started NFSv4 session (c->v4). */
int nfs4_locks_start(struct nfs_client *c, struct nfs4_locks **out);
/* Ends the waits, unlocks and frees every lock stateid, closes the lock
 * opens, frees L (NULL: nothing).  Before the session stops. */
void nfs4_locks_stop(struct nfs4_locks *L);

/*
 * The calls below that take `interrupted` (may be NULL) return -EINTR
 * once it is set while their call is on the wire: for a caller that
 * died.  The call still goes on to its end, and a lock the server
 * grants a LOCK so left is unlocked at once (`lock_v4_undone`).
 */

/* LOCKT: is a lock of another owner in the way? */
int nfs4_lock_test(struct nfs4_locks *L, const struct nfs4_lock_req *r,
		   struct nfs4_lock_conflict *c, volatile int *interrupted);

/* The answer to a lock that waited: 0 (granted) or a negative errno. */
typedef void (*nfs4_lock_done_fn)(void *ctx, int result);
struct nfs4_lock_wait;

/*
 * LOCK.  Without wait, or when the first LOCK is answered otherwise than
 * by a conflict: the result.  When it must wait: -EINPROGRESS and *wp;
 * after nfs4_lock_wait_arm(*wp), done(ctx, ...) runs exactly once, on
 * the polling thread, when the lock is granted, fails, or is
 * interrupted (nfs4_lock_wait_interrupt: -EINTR).  *wp is valid until
 * done() returns.
 */
int nfs4_lock_lock(struct nfs4_locks *L, const struct nfs4_lock_req *r,
		   bool wait, nfs4_lock_done_fn done, void *ctx,
		   struct nfs4_lock_wait **wp, volatile int *interrupted);
void nfs4_lock_wait_arm(struct nfs4_locks *L, struct nfs4_lock_wait *w);
void nfs4_lock_wait_interrupt(struct nfs4_locks *L, struct nfs4_lock_wait *w);
/* Every wait ends with -EINTR; returns when each done() has returned. */
void nfs4_lock_end_waits(struct nfs4_locks *L);

/* LOCKU of the range (POSIX: may split a held lock); 0 when the owner
 * holds nothing on the file. */
int nfs4_lock_unlock(struct nfs4_locks *L, const struct nfs4_lock_req *r,
		     volatile int *interrupted);

/* May owner hold a lock on ino?  (So that close need not send LOCKU.) */
bool nfs4_lock_owner_holds(struct nfs4_locks *L, uint64_t ino,
			   uint64_t owner, bool flock);

/* Was a lock on ino lost in a recovery?  (Its I/O then answers EIO, as
 * on NFSv3, until the file is opened again: nfs4_lock_reopened.) */
bool nfs4_lock_ino_lost(struct nfs4_locks *L, uint64_t ino);
void nfs4_lock_reopened(struct nfs4_locks *L, uint64_t ino);

/*
 * The recovery's reclaim of c's locks (from the session's reclaim hook,
 * after the opens were reclaimed, before RECLAIM_COMPLETE; lapsed: the
 * lease ran out before the recovery).  In a grace period each range held
 * is asked for with LOCK reclaim=true, from the reclaimed open (a lock
 * open is reclaimed first); where the server has none (NO_GRACE) and the
 * lease did not lapse, with an ordinary LOCK.  New lock stateids replace
 * the old ones.  What is refused, or whose open is gone, is lost: logged
 * with the file's hash and the owner, counted (nfs4_locks_lost), its file
 * marked (nfs4_lock_ino_lost), its unlock a local success.  kind LOST:
 * every lock is lost.  0, or the session's error (lost again: the
 * recovery starts over and calls this again).
 */
int nfs4_lock_reclaim(struct nfs_client *c, enum nfs4_reclaim_kind kind,
		      bool lapsed);

/* "key value" lines for `nfsfusectl stats`, and one line per lock
 * stateid and per waiting lock for `nfsfusectl MNT locks`. */
void nfs4_lock_format_stats(struct nfs4_locks *L, GString *out);
void nfs4_lock_format_locks(struct nfs4_locks *L, GString *out);

#endif
