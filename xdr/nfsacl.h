/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSACL, program 100227: POSIX draft ACLs beside NFSv3 (and NFSv2).
 * There is no RFC; the protocol is Sun's (Solaris nfs_acl.x) and what
 * Linux (fs/nfs_common/nfsacl.c, fs/nfs/nfs3acl.c) and Wireshark
 * (packet-nfsacl.c) make of it.  Version 3 has two procedures:
 *
 *	struct aclent { int type; uid id; o_mode perm; };
 *	struct secattr {
 *		u_int mask;                  NFSACL_ACL ... NFSACL_DFACLCNT
 *		int aclcnt;
 *		aclent aclentp<NFS_ACL_MAX_ENTRIES>;
 *		int dfaclcnt;
 *		aclent dfaclentp<NFS_ACL_MAX_ENTRIES>;
 *	};
 *	struct GETACL3args { nfs_fh3 fh; u_int mask; };
 *	union GETACL3res switch (nfsstat3 status) {
 *	case NFS3_OK:  post_op_attr attr; secattr acl;
 *	default:       post_op_attr attr;
 *	};
 * (nfs-ganesha 4.3 sends nothing after a failed status: the decoders
 * take a reply that ends there as "no attributes".)
 *	struct SETACL3args { nfs_fh3 fh; secattr acl; };
 *	union SETACL3res switch (nfsstat3 status) {
 *	default:       post_op_attr attr;     (the same for every status)
 *	};
 *
 * Entry types are the Linux ACL_* tags; default-ACL entries carry
 * NFSACL_DEFAULT in addition.  Solaris wants a minimal ACL as four entries
 * (a CLASS_OBJ, i.e. mask, equal to the group's permissions) and the ids of
 * USER_OBJ and GROUP_OBJ to be the owner's; MASK and OTHER carry id 0.
 *
 * Ownership: decoded entry lists point into the buffer being decoded
 * (nfsacl_entry_get() reads entry i); they are valid as long as it is.
 * Decoders return 0 or -EBADMSG; the NFS status is data.  Encoders return
 * 0 or the encoder's sticky error (-EINVAL for more than
 * NFSACL_MAX_ENTRIES entries).
 *
 * The second half converts between wire entries and the Linux
 * "system.posix_acl_access"/"system.posix_acl_default" xattr format
 * (a little-endian header { u32 version = 2 } and entries
 * { u16 tag, u16 perm, u32 id }), with the rules of the Linux client.
 */
#ifndef NFSFUSE_XDR_NFSACL_H
#define NFSFUSE_XDR_NFSACL_H

#include "xdr.h"
#include "nfs3.h"

#define NFSACL_PROGRAM 100227u
#define NFSACL_V3 3u

/* The Linux client's limit; more on the wire is malformed. */
#define NFSACL_MAX_ENTRIES 1024u

enum nfsacl_proc {
	NFSACLPROC_NULL = 0,
	NFSACLPROC3_GETACL = 1,
	NFSACLPROC3_SETACL = 2,
	NFSACLPROC_COUNT = 3
};
extern const char *const nfsacl_proc_names[NFSACLPROC_COUNT];

/* secattr.mask: which parts are asked for or present */
#define NFSACL_ACL 0x0001u
#define NFSACL_ACLCNT 0x0002u
#define NFSACL_DFACL 0x0004u
#define NFSACL_DFACLCNT 0x0008u
#define NFSACL_MASK_ALL 0x000fu

/* aclent.type */
#define NFSACL_USER_OBJ 0x01u
#define NFSACL_USER 0x02u
#define NFSACL_GROUP_OBJ 0x04u
#define NFSACL_GROUP 0x08u
#define NFSACL_CLASS_OBJ 0x10u /* the mask */
#define NFSACL_OTHER_OBJ 0x20u
#define NFSACL_DEFAULT 0x1000u

struct nfsacl_entry {
	uint32_t type;
	uint32_t id;
	uint32_t perm;
};

/* A decoded entry list: n records of 12 bytes at `wire`. */
struct nfsacl_wire_list {
	uint32_t count;     /* aclcnt / dfaclcnt as sent */
	uint32_t n;         /* entries in the array */
	const uint8_t *wire;
};
void nfsacl_entry_get(const struct nfsacl_wire_list *l, uint32_t i,
		      struct nfsacl_entry *e);

/* An entry list to encode: count is sent as aclcnt (normally n). */
struct nfsacl_list {
	uint32_t count;
	uint32_t n;
	const struct nfsacl_entry *entries;
};

struct nfsacl_getacl_args {
	struct nfs_fh3 fh;
	uint32_t mask;
};
struct nfsacl_getacl_res {
	uint32_t status;              /* enum nfsstat3 */
	struct post_op_attr attr;     /* every status */
	uint32_t mask;                /* NFS3_OK only, as below */
	struct nfsacl_wire_list acl;
	struct nfsacl_wire_list dfacl;
};
struct nfsacl_setacl_args {
	struct nfs_fh3 fh;
	uint32_t mask;
	struct nfsacl_list acl;
	struct nfsacl_list dfacl;
};
struct nfsacl_setacl_res {
	uint32_t status;
	struct post_op_attr attr;
};

int nfsacl_enc_getacl_args(struct xdr_enc *e, const void *args);
int nfsacl_dec_getacl_res(struct xdr_dec *d, void *res);
int nfsacl_enc_setacl_args(struct xdr_enc *e, const void *args);
int nfsacl_dec_setacl_res(struct xdr_dec *d, void *res);

/* Server side, for tests and fake servers.  The SETACL decoder gives
 * wire lists in nfsacl_setacl_wire. */
struct nfsacl_setacl_wire {
	struct nfs_fh3 fh;
	uint32_t mask;
	struct nfsacl_wire_list acl;
	struct nfsacl_wire_list dfacl;
};
int nfsacl_dec_getacl_args(struct xdr_dec *d, void *args);
int nfsacl_dec_setacl_args(struct xdr_dec *d, void *args);
/* res->acl/dfacl are ignored: the lists come from acl/dfacl. */
int nfsacl_enc_getacl_res(struct xdr_enc *e, const struct nfsacl_getacl_res *r,
			  const struct nfsacl_list *acl,
			  const struct nfsacl_list *dfacl);
int nfsacl_enc_setacl_res(struct xdr_enc *e, const void *res);

/* ---- Linux posix_acl xattr format ---- */

#define NFSACL_XATTR_VERSION 2u
#define NFSACL_XATTR_UNDEFINED_ID 0xffffffffu
/* Bytes of an xattr value with n entries. */
#define NFSACL_XATTR_SIZE(n) (4u + 8u * (size_t)(n))

/*
 * Wire entries (of one kind: the NFSACL_DEFAULT bit is ignored) to an
 * xattr value, as the Linux client presents them: sorted by tag then id,
 * ids of USER_OBJ, GROUP_OBJ, MASK and OTHER undefined, the mask of a
 * minimal four-entry ACL dropped (when it equals the group's permissions).
 *
 * Returns the value's size (0: no ACL — an access ACL that says no more
 * than the mode, or an empty list; the caller answers ENODATA), or
 * -EIO for entries that are not an ACL (an unknown type, bad permission
 * bits, a duplicate), -ENOMEM.  buf may be NULL or too small (size < the
 * result): then nothing is written and the size is still returned.
 * `access` selects the "says no more than the mode" rule.
 */
long nfsacl_to_xattr(const struct nfsacl_wire_list *l, bool access,
		     void *buf, size_t size);

/*
 * An xattr value to wire entries: *out is a malloc'd, sorted array of *n
 * entries with `flag` (0 or NFSACL_DEFAULT) in each type, ids of USER_OBJ
 * and GROUP_OBJ set to uid and gid and of MASK and OTHER to 0, and a mask
 * added to a minimal ACL (Solaris wants four entries).  An empty value
 * (header only) gives *n = 0 and *out = NULL.
 *
 * 0, -EINVAL for a malformed value or an invalid ACL (POSIX 1003.1e
 * rules: exactly one USER_OBJ, GROUP_OBJ and OTHER; a MASK when there are
 * named entries, at most one; no duplicate ids; permissions within rwx),
 * -EOPNOTSUPP for a header version other than 2, -ENOSPC for more than
 * NFSACL_MAX_ENTRIES entries (as the Linux client), -ENOMEM.
 */
int nfsacl_from_xattr(const void *value, size_t size, uint32_t flag,
		      uint32_t uid, uint32_t gid, struct nfsacl_entry **out,
		      uint32_t *n);

/*
 * Rewrite in place the ids of the named entries (USER, GROUP) of an xattr
 * value: map(ctx, group, &id) changes *id, or returns false when the id
 * has no counterpart; then this returns -EINVAL (the value partly
 * rewritten).  -EINVAL also for a malformed value.  For ids translated
 * between a user namespace and the server.
 */
typedef bool (*nfsacl_id_map_fn)(void *ctx, bool group, uint32_t *id);
int nfsacl_xattr_map_ids(void *value, size_t size, nfsacl_id_map_fn map,
			 void *ctx);

/* The minimal ACL of a mode, in wire form (four entries, as above). */
void nfsacl_from_mode(uint32_t mode, uint32_t uid, uint32_t gid,
		      struct nfsacl_entry out[4]);

#endif
