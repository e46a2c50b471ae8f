/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4 ACLs: fattr4_acl on the wire (RFC 8881 §6.2.1: nfsace4 is type,
 * flag, access_mask, each a 4-byte unit, then who as a utf8 string, a
 * length and the bytes padded with zeros to a multiple of 4) and the
 * system.nfs4_acl xattr value, which is the same bytes.  Known answers
 * worked by hand; the three-entry ACL is what `nfs4_getfacl` shows as
 *   A::OWNER@:rwaxtcy
 *   D:g:GROUP@:wa
 *   A::EVERYONE@:rtcy
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

#include "nfs4.h"

#define U32(v) (uint8_t)((v) >> 24), (uint8_t)((v) >> 16), \
	(uint8_t)((v) >> 8), (uint8_t)(v)

static const uint8_t acl_bytes[] = {
	U32(3),
	U32(0), U32(0), U32(0x001200a7), U32(6), 'O', 'W', 'N', 'E', 'R',
	'@', 0, 0,
	U32(1), U32(0x40), U32(0x00000006), U32(6), 'G', 'R', 'O', 'U', 'P',
	'@', 0, 0,
	U32(0), U32(0), U32(0x00120081), U32(9), 'E', 'V', 'E', 'R', 'Y',
	'O', 'N', 'E', '@', 0, 0, 0,
};

static const struct nfs4_ace acl_aces[] = {
	{ NFS4_ACE_ACCESS_ALLOWED_ACE_TYPE, 0,
	  NFS4_ACE_READ_DATA | NFS4_ACE_WRITE_DATA | NFS4_ACE_APPEND_DATA |
		  NFS4_ACE_EXECUTE | NFS4_ACE_READ_ATTRIBUTES |
		  NFS4_ACE_READ_ACL | NFS4_ACE_SYNCHRONIZE,
	  { "OWNER@", 6 } },
	{ NFS4_ACE_ACCESS_DENIED_ACE_TYPE, NFS4_ACE_IDENTIFIER_GROUP,
	  NFS4_ACE_WRITE_DATA | NFS4_ACE_APPEND_DATA, { "GROUP@", 6 } },
	{ NFS4_ACE_ACCESS_ALLOWED_ACE_TYPE, 0,
	  NFS4_ACE_READ_DATA | NFS4_ACE_READ_ATTRIBUTES | NFS4_ACE_READ_ACL |
		  NFS4_ACE_SYNCHRONIZE,
	  { "EVERYONE@", 9 } },
};

static int dec_acl(struct xdr_dec *d, void *res)
{
	return nfs4_dec_acl(d, res);
}

static int enc_acl(struct xdr_enc *e, const void *obj)
{
	return nfs4_enc_acl(e, obj);
}

static void test_acl_decode(void **state)
{
	struct nfs4_acl acl;
	struct nfs4_ace ace;
	struct xdr_dec it;
	uint8_t *copy;
	unsigned n = 0;

	(void)state;
	copy = xdr_check_decode_all(dec_acl, acl_bytes, sizeof(acl_bytes),
				    &acl, sizeof(acl));
	assert_int_equal(acl.naces, 3);
	assert_null(acl.aces);
	assert_int_equal(acl.raw_len, sizeof(acl_bytes) - 4);
	xdr_dec_init(&it, acl.raw, acl.raw_len);
	while (nfs4_acl_next(&it, &ace) == 1) {
		assert_int_equal(ace.type, acl_aces[n].type);
		assert_int_equal(ace.flag, acl_aces[n].flag);
		assert_int_equal(ace.access_mask, acl_aces[n].access_mask);
		assert_int_equal(ace.who.len, acl_aces[n].who.len);
		assert_memory_equal(ace.who.s, acl_aces[n].who.s, ace.who.len);
		n++;
	}
	assert_int_equal(n, 3);
	free(copy);
}

static void test_acl_encode(void **state)
{
	struct nfs4_acl from_aces = { 3, acl_aces, NULL, 0 };
	struct nfs4_acl from_raw = { 3, NULL, acl_bytes + 4,
				     sizeof(acl_bytes) - 4 };
	struct nfs4_acl too_many = { NFS4_MAXACES + 1, acl_aces, NULL, 0 };
	struct nfs4_acl ragged = { 1, NULL, acl_bytes + 4, 6 };

	(void)state;
	xdr_check_encoding(enc_acl, &from_aces, acl_bytes, sizeof(acl_bytes));
	xdr_check_encoding(enc_acl, &from_raw, acl_bytes, sizeof(acl_bytes));
	assert_int_equal(xdr_check_encode_err(enc_acl, &too_many), -EINVAL);
	assert_int_equal(xdr_check_encode_err(enc_acl, &ragged), -EINVAL);
}

static void test_acl_decode_limits(void **state)
{
	static const uint8_t too_many[] = { U32(NFS4_MAXACES + 1) };
	static const uint8_t huge_who[] = { U32(1), U32(0), U32(0), U32(1),
					    U32(NFS4_MAXSTR + 1) };
	static const uint8_t nul_who[] = { U32(1), U32(0), U32(0), U32(1),
					   U32(2), 'a', 0, 0, 0 };
	struct nfs4_acl acl;

	(void)state;
	assert_int_equal(xdr_check_decode(dec_acl, too_many, sizeof(too_many),
					  &acl, NULL), -EBADMSG);
	assert_int_equal(xdr_check_decode(dec_acl, huge_who, sizeof(huge_who),
					  &acl, NULL), -EBADMSG);
	assert_int_equal(xdr_check_decode(dec_acl, nul_who, sizeof(nul_who),
					  &acl, NULL), -EBADMSG);
}

/* The xattr value of an ACL read from a reply is the attribute's bytes. */
static void test_xattr_from_reply(void **state)
{
	struct nfs4_acl acl;
	uint8_t buf[sizeof(acl_bytes)];
	uint8_t *copy;

	(void)state;
	copy = xdr_check_decode_all(dec_acl, acl_bytes, sizeof(acl_bytes),
				    &acl, sizeof(acl));
	assert_int_equal(nfs4_acl_to_xattr(&acl, NULL, 0), sizeof(acl_bytes));
	assert_int_equal(nfs4_acl_to_xattr(&acl, buf, sizeof(buf) - 1),
			 -ERANGE);
	assert_int_equal(nfs4_acl_to_xattr(&acl, buf, sizeof(buf)),
			 sizeof(acl_bytes));
	assert_memory_equal(buf, acl_bytes, sizeof(acl_bytes));
	free(copy);
}

static void test_xattr_from_aces(void **state)
{
	struct nfs4_acl acl = { 3, acl_aces, NULL, 0 };
	struct nfs4_acl empty = { 0, NULL, NULL, 0 };
	uint8_t buf[sizeof(acl_bytes) + 8];
	static const uint8_t zero[] = { U32(0) };

	(void)state;
	assert_int_equal(nfs4_acl_to_xattr(&acl, buf, sizeof(buf)),
			 sizeof(acl_bytes));
	assert_memory_equal(buf, acl_bytes, sizeof(acl_bytes));
	assert_int_equal(nfs4_acl_to_xattr(&acl, buf, 10), -ERANGE);
	assert_int_equal(nfs4_acl_to_xattr(&empty, buf, sizeof(buf)), 4);
	assert_memory_equal(buf, zero, 4);
}

static void test_xattr_accepted(void **state)
{
	static const uint8_t none[] = { U32(0) };
	struct nfs4_acl acl;

	(void)state;
	assert_int_equal(nfs4_acl_from_xattr(acl_bytes, sizeof(acl_bytes),
					     &acl), 0);
	assert_int_equal(acl.naces, 3);
	assert_ptr_equal(acl.raw, acl_bytes + 4);
	assert_int_equal(acl.raw_len, sizeof(acl_bytes) - 4);
	/* What goes out is the value as given. */
	xdr_check_encoding(enc_acl, &acl, acl_bytes, sizeof(acl_bytes));
	assert_int_equal(nfs4_acl_from_xattr(none, sizeof(none), &acl), 0);
	assert_int_equal(acl.naces, 0);
}

/* One ACE (type, flag, mask, who) as an xattr value. */
static size_t one_ace(uint8_t *b, uint32_t type, uint32_t flag,
		      uint32_t mask, const char *who, uint32_t wholen)
{
	struct nfs4_ace ace = { type, flag, mask, { who, wholen } };
	struct xdr_enc e;
	size_t n;

	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	xdr_enc_u32(&e, 1);
	xdr_enc_u32(&e, ace.type);
	xdr_enc_u32(&e, ace.flag);
	xdr_enc_u32(&e, ace.access_mask);
	xdr_enc_opaque(&e, 4096, who, wholen);
	assert_int_equal(xdr_enc_error(&e), 0);
	n = e.len;
	memcpy(b, e.buf, n);
	xdr_enc_release(&e);
	return n;
}

static void test_xattr_refused(void **state)
{
	static const uint8_t count_only[] = { U32(2) };
	static const uint8_t too_many[] = { U32(NFS4_MAXACES + 1) };
	uint8_t b[sizeof(acl_bytes) + 16];
	struct nfs4_acl acl;
	size_t n;

	(void)state;
	assert_int_equal(nfs4_acl_from_xattr(NULL, 0, &acl), -EINVAL);
	assert_int_equal(nfs4_acl_from_xattr(acl_bytes, 0, &acl), -EINVAL);
	assert_int_equal(nfs4_acl_from_xattr(acl_bytes, 3, &acl), -EINVAL);
	assert_int_equal(nfs4_acl_from_xattr(count_only, 4, &acl), -EINVAL);
	assert_int_equal(nfs4_acl_from_xattr(too_many, 4, &acl), -EINVAL);
	/* every truncation, and a byte (a unit) too many */
	for (size_t k = 0; k < sizeof(acl_bytes); k++)
		assert_int_equal(nfs4_acl_from_xattr(acl_bytes, k, &acl),
				 -EINVAL);
	memcpy(b, acl_bytes, sizeof(acl_bytes));
	memset(b + sizeof(acl_bytes), 0, 4);
	assert_int_equal(nfs4_acl_from_xattr(b, sizeof(acl_bytes) + 4, &acl),
			 -EINVAL);
	assert_int_equal(acl.naces, 0);
	/* a count that says fewer entries than there are */
	b[3] = 2;
	assert_int_equal(nfs4_acl_from_xattr(b, sizeof(acl_bytes), &acl),
			 -EINVAL);
	/* fields: the good one, then each field wrong */
	n = one_ace(b, 0, 0, NFS4_ACE_READ_DATA, "OWNER@", 6);
	assert_int_equal(nfs4_acl_from_xattr(b, n, &acl), 0);
	n = one_ace(b, 4, 0, NFS4_ACE_READ_DATA, "OWNER@", 6);
	assert_int_equal(nfs4_acl_from_xattr(b, n, &acl), -EINVAL);
	n = one_ace(b, 0, 0x100, NFS4_ACE_READ_DATA, "OWNER@", 6);
	assert_int_equal(nfs4_acl_from_xattr(b, n, &acl), -EINVAL);
	n = one_ace(b, 0, 0, 0x800, "OWNER@", 6);
	assert_int_equal(nfs4_acl_from_xattr(b, n, &acl), -EINVAL);
	n = one_ace(b, 0, 0, NFS4_ACE_READ_DATA, "", 0);
	assert_int_equal(nfs4_acl_from_xattr(b, n, &acl), -EINVAL);
	n = one_ace(b, 0, 0, NFS4_ACE_READ_DATA, "a\0b", 3);
	assert_int_equal(nfs4_acl_from_xattr(b, n, &acl), -EINVAL);
	/* every flag and mask bit RFC 8881 names, and the alarm type */
	n = one_ace(b, NFS4_ACE_SYSTEM_ALARM_ACE_TYPE, NFS4_ACE_FLAGS_ALL,
		    NFS4_ACE_MASK_ALL, "1000", 4);
	assert_int_equal(nfs4_acl_from_xattr(b, n, &acl), 0);
}

/* The largest value accepted is bounded before it is walked. */
static void test_xattr_bound(void **state)
{
	size_t big = 4 + (size_t)NFS4_MAXACES * (16 + NFS4_MAXSTR) + 4;
	uint8_t *b = calloc(1, big);
	struct nfs4_acl acl;

	(void)state;
	assert_non_null(b);
	b[3] = 1;
	assert_int_equal(nfs4_acl_from_xattr(b, big, &acl), -EINVAL);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_acl_decode),
		cmocka_unit_test(test_acl_encode),
		cmocka_unit_test(test_acl_decode_limits),
		cmocka_unit_test(test_xattr_from_reply),
		cmocka_unit_test(test_xattr_from_aces),
		cmocka_unit_test(test_xattr_accepted),
		cmocka_unit_test(test_xattr_refused),
		cmocka_unit_test(test_xattr_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
