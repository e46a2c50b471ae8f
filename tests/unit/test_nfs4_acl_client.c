/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The COMPOUNDs of NFSv4 ACLs (proto/nfs4_acl_client.h): what a read and
 * a set put after the SEQUENCE, and what they make of the replies a
 * server that keeps ACLs sends, of a file system without them and of a
 * SETATTR refused.  The replies are built with the codecs' own result
 * encoders, as a test server would.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "xdr_check.h"

#include "../../src/proto/nfs4_acl_client.h"

static const struct nfs_fh3 fh = { 4, { 1, 2, 3, 4 } };

static const struct nfs4_ace aces[] = {
	{ NFS4_ACE_ACCESS_ALLOWED_ACE_TYPE, 0, 0x1601a7, { "OWNER@", 6 } },
	{ NFS4_ACE_ACCESS_DENIED_ACE_TYPE, NFS4_ACE_IDENTIFIER_GROUP, 0x6,
	  { "GROUP@", 6 } },
	{ NFS4_ACE_ACCESS_ALLOWED_ACE_TYPE, 0, 0x120081,
	  { "1000@localdomain", 16 } },
};

/* The operations build added, and the GETATTR's bitmap. */
static void built(struct nfs4_aclcall *q, uint32_t *ops, uint32_t *nops,
		  struct xdr_enc *e)
{
	struct nfs4_compound c;

	assert_int_equal(xdr_enc_init(e, 0, 0), 0);
	assert_int_equal(nfs4_compound_start(&c, e, "", 1), 0);
	assert_int_equal(nfs4_aclcall_build(&c, q), 0);
	assert_int_equal(xdr_enc_error(e), 0);
	*nops = c.nops;
	memcpy(ops, c.ops, c.nops * sizeof(*ops));
}

static void test_build_get(void **state)
{
	struct nfs4_getacl_res res;
	struct nfs4_aclcall q = { .fh = &fh, .get = &res };
	uint32_t ops[NFS4_MAXOPS], n;
	struct xdr_enc e;

	(void)state;
	built(&q, ops, &n, &e);
	assert_int_equal(n, 2);
	assert_int_equal(ops[0], NFS4OP_PUTFH);
	assert_int_equal(ops[1], NFS4OP_GETATTR);
	/* the GETATTR's bitmap (the last three units: its two words and
	 * the count before them) names supported_attrs and the ACL beside
	 * the fattr3 ones */
	assert_true(e.len >= 16);
	{
		const uint8_t *p = e.buf + e.len - 12;
		uint32_t w0 = xdr_get_u32(p + 4);

		assert_int_equal(xdr_get_u32(p - 4), NFS4OP_GETATTR);
		assert_int_equal(xdr_get_u32(p), 2);
		assert_true(w0 & 1u << NFS4_FATTR_ACL);
		assert_true(w0 & 1u << NFS4_FATTR_SUPPORTED_ATTRS);
		assert_true(w0 & 1u << NFS4_FATTR_CHANGE);
	}
	xdr_enc_release(&e);
}

static void test_build_set(void **state)
{
	struct nfs4_acl acl = { 3, aces, NULL, 0 };
	struct nfs4_setacl_res res;
	struct nfs4_aclcall q = { .fh = &fh, .acl = &acl, .set = &res };
	uint32_t ops[NFS4_MAXOPS], n;
	struct nfs4_setattr_args sa;
	struct xdr_enc e, want;
	uint8_t *hit;

	(void)state;
	built(&q, ops, &n, &e);
	assert_int_equal(n, 3);
	assert_int_equal(ops[0], NFS4OP_PUTFH);
	assert_int_equal(ops[1], NFS4OP_SETATTR);
	assert_int_equal(ops[2], NFS4OP_GETATTR);
	/* the SETATTR sets the ACL alone, under the anonymous stateid */
	memset(&sa, 0, sizeof(sa));
	nfs4_bitmap_set(&sa.attrs.mask, NFS4_FATTR_ACL);
	sa.attrs.acl = acl;
	assert_int_equal(xdr_enc_init(&want, 0, 0), 0);
	xdr_enc_u32(&want, NFS4OP_SETATTR);
	nfs4_enc_setattr_args(&want, &sa);
	assert_int_equal(xdr_enc_error(&want), 0);
	hit = memmem(e.buf, e.len, want.buf, want.len);
	assert_non_null(hit);
	xdr_enc_release(&want);
	xdr_enc_release(&e);
}

/* A reply of the results given (after SEQUENCE, as the session hands it
 * on), walked by the parser into q. */
static int parse_reply(struct xdr_enc *e, uint32_t nres,
		       struct nfs4_aclcall *q)
{
	struct nfs4_compound_res r;

	xdr_check_compound_reply(e, nres, &r);
	return nfs4_aclcall_parse(&r, q);
}

static void reply_getattr(struct xdr_enc *e, bool keeps)
{
	struct nfs4_status_res ok = { NFS4_OK };
	struct nfs4_getattr_res gr;

	memset(&gr, 0, sizeof(gr));
	gr.attrs.mask = nfs4_fattr3_request;
	nfs4_bitmap_set(&gr.attrs.mask, NFS4_FATTR_SUPPORTED_ATTRS);
	nfs4_bitmap_set(&gr.attrs.supported_attrs, NFS4_FATTR_TYPE);
	if (keeps) {
		nfs4_bitmap_set(&gr.attrs.mask, NFS4_FATTR_ACL);
		nfs4_bitmap_set(&gr.attrs.supported_attrs, NFS4_FATTR_ACL);
		gr.attrs.acl.naces = 3;
		gr.attrs.acl.aces = aces;
	}
	gr.attrs.type = NF4REG;
	gr.attrs.mode = 0640;
	gr.attrs.fileid = 77;
	gr.attrs.owner = nfs4_str("0");
	gr.attrs.owner_group = nfs4_str("0");
	gr.attrs.time_metadata.seconds = 1700000000;
	xdr_enc_u32(e, NFS4OP_PUTFH);
	nfs4_enc_status_res(e, &ok);
	xdr_enc_u32(e, NFS4OP_GETATTR);
	nfs4_enc_getattr_res(e, &gr);
}

static void test_parse_get(void **state)
{
	struct nfs4_getacl_res res;
	struct nfs4_aclcall q = { .fh = &fh, .get = &res };
	uint8_t want[512], got[512];
	struct nfs4_acl from = { 3, aces, NULL, 0 };
	struct xdr_enc e;
	long n;

	(void)state;
	memset(&res, 0, sizeof(res));
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	reply_getattr(&e, true);
	assert_int_equal(parse_reply(&e, 2, &q), 0);
	assert_int_equal(res.st4, NFS4_OK);
	assert_true(res.supported);
	assert_true(res.has_acl);
	assert_int_equal(res.acl.naces, 3);
	assert_true(res.attr.present);
	assert_int_equal(res.attr.attr.mode, 0640);
	assert_int_equal(res.attr.attr.fileid, 77);
	assert_int_equal(res.attr.attr.ctime.seconds, 1700000000);
	/* the xattr value is the ACL's XDR, as encoded from the entries */
	n = nfs4_acl_to_xattr(&from, want, sizeof(want));
	assert_true(n > 4);
	assert_int_equal(nfs4_acl_to_xattr(&res.acl, got, sizeof(got)), n);
	assert_memory_equal(got, want, (size_t)n);
	xdr_enc_release(&e);
}

static void test_parse_get_no_acl_attr(void **state)
{
	struct nfs4_getacl_res res;
	struct nfs4_aclcall q = { .fh = &fh, .get = &res };
	struct xdr_enc e;

	(void)state;
	memset(&res, 0, sizeof(res));
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	reply_getattr(&e, false);
	assert_int_equal(parse_reply(&e, 2, &q), 0);
	assert_int_equal(res.st4, NFS4_OK);
	assert_false(res.supported);
	assert_false(res.has_acl);
	assert_true(res.attr.present);
	xdr_enc_release(&e);
}

static void test_parse_set(void **state)
{
	struct nfs4_acl acl = { 3, aces, NULL, 0 };
	struct nfs4_setacl_res res;
	struct nfs4_aclcall q = { .fh = &fh, .acl = &acl, .set = &res };
	struct nfs4_status_res ok = { NFS4_OK };
	struct nfs4_bitmap set = { { 1u << NFS4_FATTR_ACL, 0, 0 } };
	struct nfs4_getattr_res gr;
	struct xdr_enc e;

	(void)state;
	/* done: PUTFH, SETATTR (attrsset: the ACL), GETATTR */
	memset(&res, 0, sizeof(res));
	memset(&gr, 0, sizeof(gr));
	gr.attrs.mask = nfs4_fattr3_request;
	gr.attrs.type = NF4REG;
	gr.attrs.mode = 0600;
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	xdr_enc_u32(&e, NFS4OP_PUTFH);
	nfs4_enc_status_res(&e, &ok);
	xdr_enc_u32(&e, NFS4OP_SETATTR);
	xdr_enc_u32(&e, NFS4_OK);
	nfs4_enc_bitmap(&e, &set);
	xdr_enc_u32(&e, NFS4OP_GETATTR);
	nfs4_enc_getattr_res(&e, &gr);
	assert_int_equal(parse_reply(&e, 3, &q), 0);
	assert_int_equal(res.st4, NFS4_OK);
	assert_true(res.attr.present);
	assert_int_equal(res.attr.attr.mode, 0600);
	xdr_enc_release(&e);

	/* refused: the compound stops at the SETATTR */
	memset(&res, 0, sizeof(res));
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	xdr_enc_u32(&e, NFS4OP_PUTFH);
	nfs4_enc_status_res(&e, &ok);
	xdr_enc_u32(&e, NFS4OP_SETATTR);
	xdr_enc_u32(&e, NFS4ERR_ATTRNOTSUPP);
	nfs4_enc_bitmap(&e, &(struct nfs4_bitmap){ { 0, 0, 0 } });
	assert_int_equal(parse_reply(&e, 2, &q), 0);
	assert_int_equal(res.st4, NFS4ERR_ATTRNOTSUPP);
	assert_false(res.attr.present);
	xdr_enc_release(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_get),
		cmocka_unit_test(test_build_set),
		cmocka_unit_test(test_parse_get),
		cmocka_unit_test(test_parse_get_no_acl_attr),
		cmocka_unit_test(test_parse_set),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
