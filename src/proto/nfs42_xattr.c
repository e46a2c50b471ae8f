/* SPDX-License-Identifier: GPL-2.0-or-later */
/* NFSv4.2 extended attributes (RFC 8276): see nfs42_xattr.h. */
#include "nfs42_xattr.h"

#include <errno.h>
#include <string.h>

#include "../../xdr/nfs4.h"
#include "nfs42_ops.h"
#include "nfs4_session.h"
#include "nfs4_walk.h"

#define USER_PREFIX "user."
#define USER_PREFIX_LEN (sizeof(USER_PREFIX) - 1)

/* Bytes of names one LISTXATTRS asks for: a whole list fits twice over
 * in what a session's replies may carry. */
#define LIST_CHUNK 32768u

/* A listing that never ends is given up on after this many replies
 * (each brings a name at least, or its end). */
#define LIST_ROUNDS_MAX 1024

int nfs42_xattr_build(struct nfs4_compound *cmp, void *ctx)
{
	struct nfs42_xattr_call *q = ctx;
	int ret = nfs4_add_putfh3(cmp, q->fh);

	if (ret)
		return ret;
	switch (q->op) {
	case NFS4OP_GETXATTR: {
		struct nfs4_getxattr_args a = { q->name };

		return nfs4_add_getxattr(cmp, &a);
	}
	case NFS4OP_SETXATTR: {
		struct nfs4_setxattr_args a = { q->option, q->name, q->value,
						(uint32_t)q->value_len };

		nfs4_add_setxattr(cmp, &a);
		return nfs4_add_getattr3(cmp);
	}
	case NFS4OP_REMOVEXATTR: {
		struct nfs4_removexattr_args a = { q->name };

		nfs4_add_removexattr(cmp, &a);
		return nfs4_add_getattr3(cmp);
	}
	default: {
		struct nfs4_listxattrs_args a = { q->cookie, LIST_CHUNK };

		return nfs4_add_listxattrs(cmp, &a);
	}
	}
}

/* Copy n bytes at the answer's length so far, as far as buf goes. */
static void put(struct nfs42_xattr_call *q, const void *p, size_t n)
{
	size_t at = q->res->len;

	if (at < q->size)
		memcpy(q->buf + at, p, n < q->size - at ? n : q->size - at);
	q->res->len += n;
}

static int parse_list(struct nfs4_compound_res *r, struct nfs4_walk *w,
		      struct nfs42_xattr_call *q)
{
	struct nfs4_listxattrs_res lr;
	struct nfs4_str name;
	int ret = nfs4_walk_next(r, w, NFS4OP_LISTXATTRS, &lr);

	if (ret <= 0)
		return ret;
	while ((ret = nfs4_listxattrs_next(&lr, &name)) == 0) {
		if (q->res->len + USER_PREFIX_LEN + name.len + 1 >
		    NFS42_XATTR_LIST_MAX)
			return -E2BIG;
		put(q, USER_PREFIX, USER_PREFIX_LEN);
		put(q, name.s, name.len);
		put(q, "", 1);
	}
	if (ret != -ENODATA)
		return -EBADMSG;
	/* A reply with no names and no end: the next would be the same. */
	if (!lr.eof && lr.count == 0 && lr.cookie == q->cookie)
		return -EIO;
	q->cookie = lr.cookie;
	q->eof = lr.eof;
	return 0;
}

int nfs42_xattr_parse(struct nfs4_compound_res *r, void *ctx)
{
	struct nfs42_xattr_call *q = ctx;
	struct nfs4_walk w = NFS4_WALK_INIT;
	struct nfs4_status_res sr;
	struct nfs4_getxattr_res gr;
	struct nfs4_cinfo_res cr;
	int ret;

	q->res->attr.present = false;
	if ((ret = nfs4_walk_next(r, &w, NFS4OP_PUTFH, &sr)) <= 0)
		goto out;
	switch (q->op) {
	case NFS4OP_GETXATTR:
		if ((ret = nfs4_walk_next(r, &w, q->op, &gr)) <= 0)
			goto out;
		q->res->len = 0;
		put(q, gr.value, gr.len);
		break;
	case NFS4OP_SETXATTR:
	case NFS4OP_REMOVEXATTR:
		if ((ret = nfs4_walk_next(r, &w, q->op, &cr)) <= 0)
			goto out;
		ret = nfs4_walk_attr(r, &w, &q->res->attr);
		break;
	default:
		ret = parse_list(r, &w, q);
		break;
	}
out:
	if (ret < 0)
		return ret;
	q->res->st4 = w.st4;
	return 0;
}

/* The key of a "user." name: what follows the prefix. */
static int key_of(const char *name, struct nfs4_str *key)
{
	size_t n = strlen(name);

	if (n > NFS4_MAXNAMLEN)
		return -ENAMETOOLONG;
	if (n == 0)
		return -EINVAL;
	*key = (struct nfs4_str){ name, (uint32_t)n };
	return 0;
}

static int call(struct nfs_client *c, const struct rpc_cred *cred,
		struct nfs42_xattr_call *q, unsigned flags,
		volatile int *interrupted)
{
	if (!nfs42_available(c))
		return -ENOTSUP;
	if (q->op != NFS4OP_LISTXATTRS) {
		int ret = key_of(q->name.s, &q->name);

		if (ret)
			return ret;
	}
	memset(q->res, 0, sizeof(*q->res));
	return nfs4_session_call(c->v4, cred, flags, nfs42_xattr_build,
				 nfs42_xattr_parse, q, NULL, interrupted);
}

int nfs42_getxattr(struct nfs_client *c, const struct rpc_cred *cred,
		   const struct nfs_fh3 *fh, const char *name, void *buf,
		   size_t size, struct nfs42_xattr_res *res,
		   volatile int *interrupted)
{
	struct nfs42_xattr_call q = { .fh = fh, .op = NFS4OP_GETXATTR,
				.name = { name, 0 }, .buf = buf,
				.size = buf ? size : 0, .res = res };

	return call(c, cred, &q, 0, interrupted);
}

int nfs42_setxattr(struct nfs_client *c, const struct rpc_cred *cred,
		   const struct nfs_fh3 *fh, const char *name,
		   const void *value, size_t len, uint32_t option,
		   struct nfs42_xattr_res *res, volatile int *interrupted)
{
	struct nfs42_xattr_call q = { .fh = fh, .op = NFS4OP_SETXATTR,
				.name = { name, 0 }, .value = value,
				.value_len = len, .option = option,
				.res = res };

	if (len > NFS4_XATTR_VALUE_MAX)
		return -E2BIG;
	return call(c, cred, &q, NFS4_CALL_CACHETHIS, interrupted);
}

int nfs42_removexattr(struct nfs_client *c, const struct rpc_cred *cred,
		      const struct nfs_fh3 *fh, const char *name,
		      struct nfs42_xattr_res *res, volatile int *interrupted)
{
	struct nfs42_xattr_call q = { .fh = fh, .op = NFS4OP_REMOVEXATTR,
				.name = { name, 0 }, .res = res };

	return call(c, cred, &q, NFS4_CALL_CACHETHIS, interrupted);
}

int nfs42_listxattrs(struct nfs_client *c, const struct rpc_cred *cred,
		     const struct nfs_fh3 *fh, char *buf, size_t size,
		     struct nfs42_xattr_res *res, volatile int *interrupted)
{
	struct nfs42_xattr_call q = { .fh = fh, .op = NFS4OP_LISTXATTRS,
				.buf = buf, .size = buf ? size : 0,
				.res = res };
	int ret;

	if (!nfs42_available(c))
		return -ENOTSUP;
	memset(res, 0, sizeof(*res));
	/* The names of each reply add to those before (res->len). */
	for (int round = 0; round < LIST_ROUNDS_MAX; round++) {
		ret = nfs4_session_call(c->v4, cred, 0, nfs42_xattr_build,
					nfs42_xattr_parse, &q, NULL,
					interrupted);
		if (ret)
			return ret;
		if (res->st4 != NFS4_OK || q.eof)
			return 0;
	}
	return -EIO;
}
