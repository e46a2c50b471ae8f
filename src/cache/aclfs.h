/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * File systems of the server that keep no POSIX ACLs, by fsid: a rule
 * that lets ACL reads ("+" in `ls -l`, the kernel's permission checks)
 * be answered "no ACL" without one GETACL per file.  A table of the same
 * kind holds the file systems where the server refused SETACL, so that
 * `cp -p`, which sets each copy's ACL before it falls back to chmod, does
 * not pay a GETACL and a refused SETACL per file.
 *
 * A file system is marked when the server has shown it keeps no ACL
 * there: GETACL answered NOTSUPP, or answered with no access ACL at all,
 * not even the three entries of the mode.  Every server that keeps POSIX
 * ACLs sends at least those (Linux and Solaris build them from the mode
 * for a file without an ACL); nfs-ganesha sends none where its backend
 * stores no ACLs.  A GETACL that returns the mode's entries proves
 * nothing: most files of a file system with ACLs have none, so that
 * answer stays a per-file one (aclcache.h).
 *
 * A mark is believed for `ttl` (the mount's acdirmax: as long as cached
 * attributes may be) and then asked again with the next GETACL; it goes
 * at once when an ACL is seen or set on that file system.
 *
 * Pure: the caller passes the clock (monotonic ns) and does the locking.
 * A zeroed struct is an empty table.
 */
#ifndef NFSFUSE_CACHE_ACLFS_H
#define NFSFUSE_CACHE_ACLFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ACLFS_SLOTS 8

/* What showed that a file system keeps no ACLs. */
enum aclfs_why {
	ACLFS_EMPTY = 1,   /* GETACL answered no access ACL entries */
	ACLFS_NOTSUPP,     /* GETACL answered NFS3ERR_NOTSUPP */
	ACLFS_SET_REFUSED, /* SETACL answered NOTSUPP or GARBAGE_ARGS, or
			    * the server has no NFSACL */
};

struct aclfs_entry {
	bool used;
	enum aclfs_why why;
	uint64_t fsid;
	uint64_t fileid;   /* the file whose GETACL showed it */
	int64_t since;     /* monotonic ns of that answer */
	int64_t until;     /* believed until then */
};

struct aclfs {
	struct aclfs_entry e[ACLFS_SLOTS];
};

/* Mark fsid as keeping no ACLs from now until now + ttl; a full table
 * replaces the mark that ends first. */
void aclfs_mark(struct aclfs *t, uint64_t fsid, enum aclfs_why why,
		uint64_t fileid, int64_t now, int64_t ttl);

/* What marked fsid if the mark is still believed at now, else 0. */
enum aclfs_why aclfs_none(const struct aclfs *t, uint64_t fsid, int64_t now);

/* An ACL was seen or set on fsid: forget its mark. */
void aclfs_forget(struct aclfs *t, uint64_t fsid);

/* What a GETACL answer shows, as aclfs_why, or 0 when it shows nothing:
 * its nfsstat3, the access ACL's count field and entries, and the entries
 * of the default ACL (0 when not asked for). */
enum aclfs_why aclfs_rule(uint32_t status, uint32_t acl_count,
			  uint32_t acl_n, uint32_t dfacl_n);

/* The marks still believed at now, on one line ("; " between them), for
 * nfsfusectl; the length of the whole text (snprintf's rule: more than
 * len - 1 means it was cut). */
size_t aclfs_format(const struct aclfs *t, int64_t now, char *buf,
		    size_t len);

#endif
