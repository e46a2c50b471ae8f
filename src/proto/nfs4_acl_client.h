/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4 ACLs of one file (RFC 8881 §6): the ACL attribute read and set
 * with GETATTR and SETATTR, for the system.nfs4_acl extended attribute.
 * They have no NFSv3 procedure to stand behind in the version-neutral
 * table (NFSv3 has its ACLs in NFSACL), so, like nfs4_root_fh(), they
 * are NFSv4 calls of their own: the nfs_client must have v4.
 *
 *   get:  PUTFH GETATTR(supported_attrs, acl, the fattr3 attributes)
 *   set:  PUTFH SETATTR(acl) GETATTR(the fattr3 attributes)
 *
 * A server leaves out of GETATTR an attribute its file system does not
 * keep, and answers SETATTR of one with NFS4ERR_ATTRNOTSUPP; both are
 * data here (supported, st4), not errors.
 */
#ifndef NFSFUSE_PROTO_NFS4_ACL_CLIENT_H
#define NFSFUSE_PROTO_NFS4_ACL_CLIENT_H

#include "../../xdr/nfs4.h"
#include "nfs.h"

struct nfs4_getacl_res {
	uint32_t st4;           /* nfsstat4 of the first operation that failed */
	bool supported;         /* supported_attrs names the ACL attribute */
	bool has_acl;           /* the ACL came back: acl holds it */
	struct nfs4_acl acl;    /* entries into *reply */
	struct post_op_attr attr; /* owner and group mapped (nfs4_idmap.h) */
};

/* 0 when the reply was read (see st4), or the transport's negative errno;
 * on 0, *reply owns what acl points into. */
int nfs4_getacl(struct nfs_client *c, const struct rpc_cred *cred,
		const struct nfs_fh3 *fh, struct nfs4_getacl_res *res,
		struct rpc_reply *reply, volatile int *interrupted);

struct nfs4_setacl_res {
	uint32_t st4;
	struct post_op_attr attr; /* after the SETATTR */
};

/* acl is sent as it is (nfs4_acl_from_xattr checked it): its pointers
 * are read during the call only.  0 or a negative errno, as above. */
int nfs4_setacl(struct nfs_client *c, const struct rpc_cred *cred,
		const struct nfs_fh3 *fh, const struct nfs4_acl *acl,
		struct nfs4_setacl_res *res, volatile int *interrupted);

/* One call's state, and its COMPOUND's two halves as the session calls
 * them (nfs4_build_fn, nfs4_parse_fn), exported for the unit tests:
 * get or set is set, the other NULL; acl is what set sends. */
struct nfs4_aclcall {
	const struct nfs_fh3 *fh;
	const struct nfs4_acl *acl;
	struct nfs4_getacl_res *get;
	struct nfs4_setacl_res *set;
};
int nfs4_aclcall_build(struct nfs4_compound *cmp, void *ctx);
int nfs4_aclcall_parse(struct nfs4_compound_res *r, void *ctx);

#endif
