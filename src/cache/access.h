/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ACCESS cache: what the server's ACCESS said about one file for one
 * whole credential (uid, gid and the supplementary groups that went out
 * with the call), as the Linux client keys its access cache by cred.  A
 * process of the same uid with other groups, or a user since removed from
 * a group, has another credential and is asked about again.
 *
 * An answer is believed while the file's ctime is the one it was given
 * under (chmod, chown and ACL changes move ctime) and for at most
 * ACCESS_MAX_AGE_NS.  A file keeps the answers of ACCESS_SLOTS
 * credentials; a new one replaces the oldest.
 *
 * The functions are pure: the caller passes the clock (monotonic ns) and
 * does the locking (the inode lock).  A NULL cache holds no answer: all
 * but access_store take one.
 */
#ifndef NFSFUSE_CACHE_ACCESS_H
#define NFSFUSE_CACHE_ACCESS_H

#include <stdbool.h>
#include <stdint.h>

#include "../../xdr/nfs3.h"
#include "../../xdr/rpc_msg.h"

#define ACCESS_SLOTS 4
#define ACCESS_MAX_AGE_NS (60ll * 1000000000ll)
#define ACCESS3_ALL (ACCESS3_READ | ACCESS3_LOOKUP | ACCESS3_MODIFY | \
		     ACCESS3_EXTEND | ACCESS3_DELETE | ACCESS3_EXECUTE)

/* A credential as the cache compares it: the groups sorted, so that the
 * order the kernel lists them in does not matter. */
struct access_key {
	uint32_t uid, gid, ngids;
	uint32_t gids[RPC_AUTH_SYS_MAXGIDS];
};

struct access_entry {
	bool used;
	struct access_key key;
	uint32_t asked;          /* ACCESS3_* bits the server was asked */
	uint32_t granted;        /* and those it granted */
	struct nfstime3 ctime;   /* the file's ctime when it answered */
	int64_t when;            /* monotonic ns of the answer */
};

struct access_cache {
	struct access_entry e[ACCESS_SLOTS];
};

/* The key of an AUTH_SYS credential (only the first ngids groups count). */
void access_key_of(struct access_key *k, const struct rpc_cred *cred);

/*
 * Is there a believable answer for k covering every bit of want, given the
 * file's ctime now?  On true, *granted holds the bits granted (of all those
 * asked, not only want).
 */
bool access_lookup(const struct access_cache *c, const struct access_key *k,
		   uint32_t want, const struct nfstime3 *ctime, int64_t now,
		   uint32_t *granted);

/* Remember the server's answer for k (replacing k's old one, else an
 * unused slot, else the oldest). */
void access_store(struct access_cache *c, const struct access_key *k,
		  uint32_t asked, uint32_t granted,
		  const struct nfstime3 *ctime, int64_t now);

/* How many credentials have an answer (believable or not). */
unsigned access_count(const struct access_cache *c);

/* Forget every answer. */
void access_clear(struct access_cache *c);

/*
 * For a server without ACCESS (NFSv2): the ACCESS3_* bits the mode bits of
 * a grant to cred, read as the kernel's generic_permission() does (root
 * may do all but execute a file nobody may execute).
 */
uint32_t access_from_mode(const struct fattr3 *a, const struct rpc_cred *cred);

#endif
