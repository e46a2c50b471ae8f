/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Extended attributes of the user namespace over NFSv4.2 (RFC 8276), one
 * COMPOUND each on the mount's session:
 *
 *   get      PUTFH GETXATTR
 *   set      PUTFH SETXATTR GETATTR     (the file's ctime moves)
 *   remove   PUTFH REMOVEXATTR GETATTR
 *   list     PUTFH LISTXATTRS           (again from its cookie to eof)
 *
 * Names go on the wire without their "user." prefix, as RFC 8276 keys
 * are, and come back from a listing with it, as listxattr(2) gives them.
 *
 * On a mount that is not NFSv4.2 every call returns -ENOTSUP without a
 * round trip.  Otherwise 0 when the reply was parsed (look at res->st4,
 * an nfsstat4: NFS4ERR_NOXATTR, NFS4ERR_NOTSUPP where the server keeps
 * no xattrs there), or a negative errno of the transport or session.
 */
#ifndef NFSFUSE_PROTO_NFS42_XATTR_H
#define NFSFUSE_PROTO_NFS42_XATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../xdr/nfs4.h"
#include "nfs.h"

/* listxattr(2)'s bound on a list (Linux's XATTR_LIST_MAX). */
#define NFS42_XATTR_LIST_MAX 65536u

struct nfs42_xattr_res {
	uint32_t st4;              /* nfsstat4 */
	size_t len;                /* get, list: the bytes the answer has */
	struct post_op_attr attr;  /* set, remove: the file after */
};

/* The value of name: its length in res->len, its first min(len, size)
 * bytes copied to buf. */
int nfs42_getxattr(struct nfs_client *c, const struct rpc_cred *cred,
		   const struct nfs_fh3 *fh, const char *name, void *buf,
		   size_t size, struct nfs42_xattr_res *res,
		   volatile int *interrupted);
/* option: NFS4_SETXATTR_EITHER, _CREATE (fails NFS4ERR_EXIST) or
 * _REPLACE (fails NFS4ERR_NOXATTR). */
int nfs42_setxattr(struct nfs_client *c, const struct rpc_cred *cred,
		   const struct nfs_fh3 *fh, const char *name,
		   const void *value, size_t len, uint32_t option,
		   struct nfs42_xattr_res *res, volatile int *interrupted);
int nfs42_removexattr(struct nfs_client *c, const struct rpc_cred *cred,
		      const struct nfs_fh3 *fh, const char *name,
		      struct nfs42_xattr_res *res, volatile int *interrupted);
/* Every name, as "user.NAME\0" one after the other: their length in
 * res->len, the first min(len, size) bytes in buf.  A list longer than
 * NFS42_XATTR_LIST_MAX is -E2BIG, as listxattr(2) has it. */
int nfs42_listxattrs(struct nfs_client *c, const struct rpc_cred *cred,
		     const struct nfs_fh3 *fh, char *buf, size_t size,
		     struct nfs42_xattr_res *res, volatile int *interrupted);

/* One call's state, and its COMPOUND's two halves as the session calls
 * them (nfs4_build_fn, nfs4_parse_fn), exported for the unit tests.  A
 * listing's parse adds each reply's names to res->len and moves cookie
 * on, eof telling the last; -E2BIG past NFS42_XATTR_LIST_MAX, -EIO for
 * a reply that neither names one nor ends. */
struct nfs42_xattr_call {
	const struct nfs_fh3 *fh;
	uint32_t op;                 /* NFS4OP_GETXATTR ... REMOVEXATTR */
	struct nfs4_str name;        /* the key, without "user." */
	const void *value;           /* SETXATTR */
	size_t value_len;
	uint32_t option;             /* SETXATTR: NFS4_SETXATTR_* */
	uint64_t cookie;             /* LISTXATTRS: from here */
	char *buf;                   /* GETXATTR, LISTXATTRS: copied here */
	size_t size;
	bool eof;                    /* LISTXATTRS: the last names came */
	struct nfs42_xattr_res *res;
};
int nfs42_xattr_build(struct nfs4_compound *cmp, void *ctx);
int nfs42_xattr_parse(struct nfs4_compound_res *r, void *ctx);

#endif
