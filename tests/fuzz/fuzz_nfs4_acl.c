/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for NFSv4 ACLs (xdr/nfs4.h): fattr4_acl as a reply
 * carries it and the system.nfs4_acl xattr value a caller hands to
 * setxattr.
 *
 * Input: selector byte, then (by selector % 2):
 *   0 a fattr4_acl from the wire: decoded, its entries walked, turned
 *     into the xattr value, which must decode to the same entries; when
 *     the xattr check accepts it, it must equal the input.
 *   1 an xattr value: checked; when accepted, every entry is one the
 *     check allows, and the value encodes (as raw and as entries) to
 *     exactly the input, which the wire decoder reads back.
 */
#include <errno.h>
#include <stdlib.h>

#include "fuzz.h"
#include "nfs4.h"

FUZZ_DEFINE_SINK;

#define MAX_WALK 64 /* entries copied for the second encoding */

/* Walks the raw entries: their count, or -1 when malformed. */
static long walk(const struct nfs4_acl *acl, struct nfs4_ace *copy,
		 unsigned max)
{
	struct nfs4_ace ace;
	struct xdr_dec it;
	long n = 0;
	int ret;

	xdr_dec_init(&it, acl->raw, acl->raw_len);
	while ((ret = nfs4_acl_next(&it, &ace)) == 1) {
		FUZZ_CHECK(ace.who.len <= NFS4_MAXSTR);
		fuzz_touch(ace.who.s, ace.who.len);
		fuzz_sink += ace.type + ace.flag + ace.access_mask;
		if (copy && (unsigned long)n < max)
			copy[n] = ace;
		n++;
	}
	return ret == 0 ? n : -1;
}

static void wire(const uint8_t *msg, size_t len)
{
	struct nfs4_acl acl, back;
	struct xdr_dec d;
	uint8_t *x;
	long n;

	xdr_dec_init(&d, msg, len);
	if (nfs4_dec_acl(&d, &acl))
		return;
	fuzz_touch(acl.raw, acl.raw_len);
	FUZZ_CHECK(walk(&acl, NULL, 0) == (long)acl.naces);
	n = nfs4_acl_to_xattr(&acl, NULL, 0);
	FUZZ_CHECK(n == 4 + (long)acl.raw_len);
	x = malloc((size_t)n);
	if (!x)
		return;
	FUZZ_CHECK(nfs4_acl_to_xattr(&acl, x, (size_t)n) == n);
	FUZZ_CHECK(nfs4_acl_to_xattr(&acl, x, (size_t)n - 1) == -ERANGE);
	FUZZ_CHECK(!memcmp(x, msg, (size_t)n));
	if (nfs4_acl_from_xattr(x, (size_t)n, &back) == 0) {
		FUZZ_CHECK(back.naces == acl.naces);
		FUZZ_CHECK(back.raw_len == acl.raw_len);
	}
	free(x);
}

static void value(const uint8_t *msg, size_t len)
{
	static struct nfs4_ace aces[MAX_WALK];
	struct nfs4_acl acl, again;
	struct xdr_dec d;
	uint8_t *x;
	long n, walked;

	if (nfs4_acl_from_xattr(msg, len, &acl))
		return;
	FUZZ_CHECK(acl.naces <= NFS4_MAXACES);
	walked = walk(&acl, aces, MAX_WALK);
	FUZZ_CHECK(walked == (long)acl.naces);
	for (long i = 0; i < walked && i < MAX_WALK; i++) {
		FUZZ_CHECK(aces[i].type <= NFS4_ACE_SYSTEM_ALARM_ACE_TYPE);
		FUZZ_CHECK(!(aces[i].flag & ~NFS4_ACE_FLAGS_ALL));
		FUZZ_CHECK(!(aces[i].access_mask & ~NFS4_ACE_MASK_ALL));
		FUZZ_CHECK(aces[i].who.len > 0);
	}
	n = nfs4_acl_to_xattr(&acl, NULL, 0);
	FUZZ_CHECK(n == (long)len);
	x = malloc(len);
	if (!x)
		return;
	FUZZ_CHECK(nfs4_acl_to_xattr(&acl, x, len) == n);
	FUZZ_CHECK(!memcmp(x, msg, len));
	/* From the entries: the same bytes but for the padding, which the
	 * encoder writes as zeros. */
	if (walked <= MAX_WALK) {
		again = (struct nfs4_acl){ .naces = acl.naces, .aces = aces };
		n = nfs4_acl_to_xattr(&again, x, len);
		FUZZ_CHECK(n == (long)len);
		xdr_dec_init(&d, x, len);
		FUZZ_CHECK(nfs4_dec_acl(&d, &again) == 0);
		FUZZ_CHECK(xdr_dec_left(&d) == 0 && again.naces == acl.naces);
	}
	free(x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *msg;
	size_t len;

	if (size < 1)
		return 0;
	msg = fuzz_copy(data + 1, size - 1, &len);
	if (data[0] % 2 == 0)
		wire(msg, len);
	else
		value(msg, len);
	free(msg);
	return 0;
}
