/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the user and group databases answered for NFSv4's owner strings
 * (nfs4_idmap.h), kept.  With NSS "files" each getpwnam_r() opens and
 * reads /etc/passwd, and every reply with attributes brings an owner and
 * a group to map: without this, two file reads per GETATTR, which cost
 * the daemon more than the call itself.
 *
 * The answers (unknown names included) are believed until /etc/passwd or
 * /etc/group change, which is looked at no more than once a second, and
 * for ten minutes at most: the lifetime the kernel's id mapper gives its
 * keys (nfsidmap -t), for databases whose changes show in no file (LDAP,
 * sssd).  `nfsfusectl drop` forgets them at once.  Thread-safe.
 * Counted as idmap_hits and idmap_lookups.
 */
#ifndef NFSFUSE_PROTO_NFS4_IDCACHE_H
#define NFSFUSE_PROTO_NFS4_IDCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum nfs4_idcache_db { NFS4_IDCACHE_USER, NFS4_IDCACHE_GROUP };

/* The id kept for the owner (group) string s of len bytes: true with *id,
 * false when none is (the caller asks the database, then _put_id). */
bool nfs4_idcache_id(enum nfs4_idcache_db db, const char *s, size_t len,
		     uint32_t *id);
void nfs4_idcache_put_id(enum nfs4_idcache_db db, const char *s, size_t len,
			 uint32_t id);
/* The string kept for an id going out, into out (outlen bytes). */
bool nfs4_idcache_name(enum nfs4_idcache_db db, uint32_t id, char *out,
		       size_t outlen);
void nfs4_idcache_put_name(enum nfs4_idcache_db db, uint32_t id,
			   const char *name);
/* Forget every answer. */
void nfs4_idcache_forget(void);
/* For tests: the files whose changes end the answers (NULL: the
 * system's; paths that stay valid), looked at on the next call. */
void nfs4_idcache_watch(const char *passwd, const char *group);

#endif
