/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NFSv4.1 lock state this client keeps (RFC 8881 §8.2, §9): pure
 * tables and rules, no I/O and no locks; nfs4_lock.c holds its mutex
 * around every call.
 *
 *   lock-owners: one per FUSE lock owner and kind (fcntl and flock owners
 *       are separate spaces), named on the wire by nfs4_lkowner_name();
 *       the client id already makes the name unique to this mount.
 *   lock stateids: one per (file, lock-owner), made by the first LOCK
 *       (open_to_lock_owner4 from an open stateid) and moved on by every
 *       later LOCK and LOCKU (exist_lock_owner4); the entry remembers
 *       the newest stateid and whether locks may still be held under it.
 *       An entry is busy while an operation on its stateid is in flight,
 *       so that LOCKs of one owner on one file go out one at a time.
 *       It keeps the ranges the server granted (nfs4_lkrange.h), what a
 *       recovery reclaims.
 *   lock opens: where no open of the caller can be named, the open this
 *       client makes for locking alone, one per (file, uid), counted by
 *       the lock stateids made from it.
 */
#ifndef NFSFUSE_PROTO_NFS4_LOCKSTATE_H
#define NFSFUSE_PROTO_NFS4_LOCKSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../xdr/nfs3.h"
#include "../../xdr/nfs4.h"
#include "../../xdr/rpc_msg.h"
#include "nfs4_lkrange.h"

/* "posix:" or "flock:" and 16 hex digits, and a NUL. */
#define NFS4_LKOWNER_NAME_MAX 24u

/* The wire name of a lock-owner into out; returns its length. */
size_t nfs4_lkowner_name(uint64_t owner, bool flock,
			 char out[NFS4_LKOWNER_NAME_MAX]);

/* A POSIX range (len 0: to the end of the file) as LOCK's offset and
 * length (UINT64_MAX: to the end); a range whose end passes 2^64 - 1
 * runs to the end too. */
void nfs4_lock_range_to4(uint64_t start, uint64_t len, uint64_t *offset,
			 uint64_t *length);
/* LOCK4denied's range for struct flock: len 0 when it runs to the end of
 * the file or past what off_t holds; the start clamped to INT64_MAX. */
void nfs4_lock_range_from4(uint64_t offset, uint64_t length, uint64_t *start,
			   uint64_t *len);
/* Is a newer than b (sequence-number arithmetic over the stateid's
 * 32-bit seqid, same "other")?  A different "other" is newer. */
bool nfs4_stateid_newer(const struct nfs4_stateid *a,
			const struct nfs4_stateid *b);

struct nfs4_lkopen;

struct nfs4_lkstate {
	struct nfs_fh3 fh;
	uint64_t ino;
	uint64_t owner;         /* FUSE lock owner */
	bool flock;
	uint32_t uid;           /* whose open the stateid was made from */
	bool has_stateid;
	struct nfs4_stateid stateid;
	uint32_t lock_seqid;    /* the lock-owner's next seqid (4.1 servers
				 * ignore it; kept right all the same) */
	bool held;              /* locks may be held under the stateid */
	bool busy;              /* an operation on it is in flight */
	struct nfs4_lkopen *open; /* the lock open it came from, or NULL */
	struct nfs4_lkranges ranges; /* held, as the server granted them */
	uint32_t gen;           /* reclaims of it: a call that went out
				 * before one names a stateid since replaced */
	struct nfs4_lkstate *next;
};

struct nfs4_lkopen {
	struct nfs_fh3 fh;
	uint32_t uid;
	bool has_stateid;
	struct nfs4_stateid stateid;
	uint32_t access;        /* NFS4_SHARE_ACCESS_* granted */
	struct rpc_cred cred;   /* of the OPEN, for its CLOSE */
	unsigned refs;          /* lock stateids made from it, and callers
				 * that are opening it */
	bool busy;              /* an OPEN of it in flight */
	bool closing;           /* its CLOSE is due: found no more */
	bool reclaimed;         /* had again by the reclaim under way */
	struct nfs4_lkopen *next;
};

struct nfs4_lktable {
	struct nfs4_lkstate *states;
	struct nfs4_lkopen *opens;
	size_t nstates;
	size_t nopens;
	uint64_t *lost;         /* files (node ids) where a lock was lost */
	size_t nlost;
};

void nfs4_lktable_init(struct nfs4_lktable *t);
/* Frees every entry (the server's state is the caller's business). */
void nfs4_lktable_clear(struct nfs4_lktable *t);

/* The entry of (fh, owner, kind); made (no stateid) when create is true
 * and none is there: NULL only then, when out of memory or fh is bad. */
struct nfs4_lkstate *nfs4_lkstate_get(struct nfs4_lktable *t,
				      const struct nfs_fh3 *fh, uint64_t ino,
				      uint64_t owner, bool flock, bool create);
/* A LOCK succeeded with stateid sid (the first one, or a later one). */
void nfs4_lkstate_granted(struct nfs4_lkstate *e,
			  const struct nfs4_stateid *sid);
/* A LOCKU succeeded with sid; whole: of the whole file, so nothing is
 * held any more. */
void nfs4_lkstate_unlocked(struct nfs4_lkstate *e,
			   const struct nfs4_stateid *sid, bool whole);
/* The range of a LOCK (lock) or LOCKU the server granted, into e's
 * ranges: 0 or -ENOMEM (the ranges are then unchanged). */
int nfs4_lkstate_record(struct nfs4_lkstate *e, uint64_t start, uint64_t len,
			bool lock, bool excl);
/* The server no longer knows the stateid (BAD_STATEID, OLD_STATEID,
 * EXPIRED, freed): the next LOCK starts over from an open, and no range
 * is held. */
void nfs4_lkstate_lost(struct nfs4_lkstate *e);
/* Removes e when it has no stateid and nothing in flight; returns its
 * lock open (whose reference e held, now the caller's to drop) or NULL.
 * true in *removed when e is gone. */
struct nfs4_lkopen *nfs4_lkstate_put(struct nfs4_lktable *t,
				     struct nfs4_lkstate *e, bool *removed);
/* Does owner hold (or may it hold) any lock on ino? */
bool nfs4_lkstate_holds(const struct nfs4_lktable *t, uint64_t ino,
			uint64_t owner, bool flock);

/* A lock on ino was lost in a recovery: as on NFSv3 mounts (and in the
 * Linux client), its file's I/O fails with EIO until it is opened again.
 * mark: 0 or -ENOMEM; reopened forgets ino. */
int nfs4_lktable_mark_lost(struct nfs4_lktable *t, uint64_t ino);
bool nfs4_lktable_ino_lost(const struct nfs4_lktable *t, uint64_t ino);
void nfs4_lktable_reopened(struct nfs4_lktable *t, uint64_t ino);

/* The lock open of (fh, uid), made when missing, with a reference taken;
 * NULL when out of memory or fh is bad. */
struct nfs4_lkopen *nfs4_lkopen_get(struct nfs4_lktable *t,
				    const struct nfs_fh3 *fh, uint32_t uid);
/* Drops one reference; true when it was the last and the open holds a
 * stateid: it is then closing (no get finds it again), and the caller
 * CLOSEs it, then calls nfs4_lkopen_free.  An open with no stateid and
 * no reference is freed here. */
bool nfs4_lkopen_put(struct nfs4_lktable *t, struct nfs4_lkopen *o);
void nfs4_lkopen_free(struct nfs4_lktable *t, struct nfs4_lkopen *o);

#endif
