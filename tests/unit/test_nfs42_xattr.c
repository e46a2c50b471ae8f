/* SPDX-License-Identifier: GPL-2.0-or-later */
/* NFSv4.2 extended attributes (RFC 8276): the COMPOUNDs built, and the
 * replies read into what listxattr(2) and getxattr(2) return. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/proto/nfs42_xattr.h"
#include "../../src/proto/nfs4_walk.h"
#include "xdr_check.h"

static const struct nfs_fh3 fh = { 4, { 1, 2, 3, 4 } };

static void built(struct nfs42_xattr_call *q, uint32_t *ops, uint32_t *n)
{
	struct nfs4_compound c;
	struct xdr_enc e;

	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(nfs4_compound_start(&c, &e, "", 2), 0);
	assert_int_equal(nfs42_xattr_build(&c, q), 0);
	assert_int_equal(xdr_enc_error(&e), 0);
	*n = c.nops;
	memcpy(ops, c.ops, c.nops * sizeof(*ops));
	xdr_enc_release(&e);
}

static void test_build(void **state)
{
	struct nfs42_xattr_res res;
	struct nfs42_xattr_call q = { .fh = &fh, .name = { "k", 1 },
				      .value = "v", .value_len = 1,
				      .res = &res };
	uint32_t ops[NFS4_MAXOPS], n;

	(void)state;
	q.op = NFS4OP_GETXATTR;
	built(&q, ops, &n);
	assert_int_equal(n, 2);
	assert_int_equal(ops[1], NFS4OP_GETXATTR);
	/* A change reads the file's attributes after it: its ctime. */
	q.op = NFS4OP_SETXATTR;
	built(&q, ops, &n);
	assert_int_equal(n, 3);
	assert_int_equal(ops[0], NFS4OP_PUTFH);
	assert_int_equal(ops[1], NFS4OP_SETXATTR);
	assert_int_equal(ops[2], NFS4OP_GETATTR);
	q.op = NFS4OP_REMOVEXATTR;
	built(&q, ops, &n);
	assert_int_equal(n, 3);
	assert_int_equal(ops[1], NFS4OP_REMOVEXATTR);
	q.op = NFS4OP_LISTXATTRS;
	built(&q, ops, &n);
	assert_int_equal(n, 2);
	assert_int_equal(ops[1], NFS4OP_LISTXATTRS);
}

/* The results e holds (after SEQUENCE, as the session hands them on),
 * walked by the parser; e becomes the whole reply, which the results
 * point into. */
static int parse(struct xdr_enc *e, uint32_t nres,
		 struct nfs42_xattr_call *q)
{
	struct nfs4_compound_res r;

	xdr_check_compound_reply(e, nres, &r);
	return nfs42_xattr_parse(&r, q);
}

static void putfh_ok(struct xdr_enc *e)
{
	assert_int_equal(xdr_enc_init(e, 0, 0), 0);
	xdr_enc_u32(e, NFS4OP_PUTFH);
	xdr_enc_u32(e, NFS4_OK);
}

static void test_get(void **state)
{
	struct nfs42_xattr_res res;
	char buf[8];
	struct nfs42_xattr_call q = { .fh = &fh, .op = NFS4OP_GETXATTR,
				      .name = { "k", 1 }, .buf = buf,
				      .size = 3, .res = &res };
	struct xdr_enc e;

	(void)state;
	memset(&res, 0, sizeof(res));
	memset(buf, 0, sizeof(buf));
	putfh_ok(&e);
	xdr_enc_u32(&e, NFS4OP_GETXATTR);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_opaque(&e, 100, "value", 5);
	assert_int_equal(parse(&e, 2, &q), 0);
	assert_int_equal(res.st4, NFS4_OK);
	/* Its whole length, and as much of it as the buffer takes. */
	assert_int_equal(res.len, 5);
	assert_memory_equal(buf, "val\0", 4);
	xdr_enc_release(&e);

	putfh_ok(&e);
	xdr_enc_u32(&e, NFS4OP_GETXATTR);
	xdr_enc_u32(&e, NFS4ERR_NOXATTR);
	assert_int_equal(parse(&e, 2, &q), 0);
	assert_int_equal(res.st4, NFS4ERR_NOXATTR);
	xdr_enc_release(&e);
}

static void test_set(void **state)
{
	struct nfs42_xattr_res res;
	struct nfs42_xattr_call q = { .fh = &fh, .op = NFS4OP_SETXATTR,
				      .name = { "k", 1 }, .value = "v",
				      .value_len = 1, .res = &res };
	struct nfs4_getattr_res gr;
	struct xdr_enc e;

	(void)state;
	memset(&res, 0, sizeof(res));
	memset(&gr, 0, sizeof(gr));
	gr.attrs.mask = nfs4_fattr3_request;
	gr.attrs.type = NF4REG;
	gr.attrs.mode = 0644;
	gr.attrs.fileid = 9;
	gr.attrs.owner = nfs4_str("0");
	gr.attrs.owner_group = nfs4_str("0");
	gr.attrs.time_metadata.seconds = 1800000000;
	putfh_ok(&e);
	xdr_enc_u32(&e, NFS4OP_SETXATTR);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_bool(&e, true);
	xdr_enc_u64(&e, 1);
	xdr_enc_u64(&e, 2);
	xdr_enc_u32(&e, NFS4OP_GETATTR);
	nfs4_enc_getattr_res(&e, &gr);
	assert_int_equal(parse(&e, 3, &q), 0);
	assert_int_equal(res.st4, NFS4_OK);
	assert_true(res.attr.present);
	assert_true(res.attr.attr.ctime.seconds == 1800000000);
	xdr_enc_release(&e);

	/* CREATE of a name there already: the COMPOUND stops there. */
	putfh_ok(&e);
	xdr_enc_u32(&e, NFS4OP_SETXATTR);
	xdr_enc_u32(&e, NFS4ERR_EXIST);
	assert_int_equal(parse(&e, 2, &q), 0);
	assert_int_equal(res.st4, NFS4ERR_EXIST);
	assert_false(res.attr.present);
	xdr_enc_release(&e);
}

/* A LISTXATTRS reply of the names given, from cookie to next. */
static int list_reply(struct nfs42_xattr_call *q, uint64_t next,
		      const char *const *names, unsigned n, bool eof)
{
	struct xdr_enc e;
	int ret;

	putfh_ok(&e);
	xdr_enc_u32(&e, NFS4OP_LISTXATTRS);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_u64(&e, next);
	xdr_enc_u32(&e, n);
	for (unsigned i = 0; i < n; i++)
		xdr_enc_opaque(&e, 255, names[i], (uint32_t)strlen(names[i]));
	xdr_enc_bool(&e, eof);
	ret = parse(&e, 2, q);
	xdr_enc_release(&e);
	return ret;
}

static void test_list(void **state)
{
	static const char *const first[] = { "a", "bb" }, *const last[] = { "c" };
	static const char want[] = "user.a\0user.bb\0user.c";
	struct nfs42_xattr_res res;
	char buf[64];
	struct nfs42_xattr_call q = { .fh = &fh, .op = NFS4OP_LISTXATTRS,
				      .buf = buf, .size = sizeof(buf),
				      .res = &res };

	(void)state;
	memset(&res, 0, sizeof(res));
	/* Two replies: the names of both, each with its prefix. */
	assert_int_equal(list_reply(&q, 5, first, 2, false), 0);
	assert_int_equal(res.st4, NFS4_OK);
	assert_true(q.cookie == 5);
	assert_false(q.eof);
	assert_int_equal(list_reply(&q, 6, last, 1, true), 0);
	assert_true(q.eof);
	assert_int_equal(res.len, sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
	/* No names and no end, from the same cookie: it would never end. */
	assert_int_equal(list_reply(&q, 6, NULL, 0, false), -EIO);
	/* Past listxattr(2)'s bound: E2BIG. */
	res.len = NFS42_XATTR_LIST_MAX - 4;
	assert_int_equal(list_reply(&q, 7, first, 1, true), -E2BIG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_get),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
