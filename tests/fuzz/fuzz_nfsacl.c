/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the NFSACL codec (xdr/nfsacl.h) and the
 * translation between its entry lists and the Linux posix_acl xattr
 * value (nfsacl_to_xattr, nfsacl_from_xattr).
 *
 * Input: selector byte, then the message.  Selector % 3:
 *   0  nfsacl_dec_getacl_res; each list decoded becomes an xattr value
 *      (the size asked first must be the size written), and a value
 *      accepted back by nfsacl_from_xattr turns into the same value again
 *   1  nfsacl_from_xattr on the message (a default ACL when bit 7 of the
 *      selector is set); what it accepts is encoded in SETACL arguments,
 *      decoded by the server side, and turned into an xattr value again
 *   2  the other decoders: SETACL result, GETACL and SETACL arguments
 */
#include <errno.h>

#include "fuzz.h"
#include "nfsacl.h"

FUZZ_DEFINE_SINK;

/* A wire list to an xattr value and back: the round trip, if the value
 * is an ACL at all, gives the same value. */
static void check_list(const struct nfsacl_wire_list *l, bool access)
{
	long need = nfsacl_to_xattr(l, access, NULL, 0);
	struct nfsacl_entry *ents = NULL;
	uint8_t *v, *v2;
	uint32_t n = 0;
	long again;

	if (need <= 0)
		return;
	FUZZ_CHECK((size_t)need >= NFSACL_XATTR_SIZE(0));
	v = malloc((size_t)need);
	if (!v)
		abort();
	FUZZ_CHECK(nfsacl_to_xattr(l, access, v, (size_t)need) == need);
	if (nfsacl_from_xattr(v, (size_t)need, access ? 0 : NFSACL_DEFAULT,
			      1000, 1000, &ents, &n) == 0) {
		struct nfsacl_list list = { n, n, ents };
		struct nfsacl_setacl_args a;
		struct nfsacl_setacl_wire w;
		struct xdr_enc e;
		struct xdr_dec d;

		FUZZ_CHECK(n <= NFSACL_MAX_ENTRIES);
		memset(&a, 0, sizeof(a));
		a.mask = access ? NFSACL_ACL | NFSACL_ACLCNT :
				  NFSACL_DFACL | NFSACL_DFACLCNT;
		if (access)
			a.acl = list;
		else
			a.dfacl = list;
		FUZZ_CHECK(xdr_enc_init(&e, 256, 0) == 0);
		FUZZ_CHECK(nfsacl_enc_setacl_args(&e, &a) == 0);
		xdr_dec_init(&d, e.buf, e.len);
		memset(&w, 0, sizeof(w));
		FUZZ_CHECK(nfsacl_dec_setacl_args(&d, &w) == 0);
		again = nfsacl_to_xattr(access ? &w.acl : &w.dfacl, access,
					NULL, 0);
		FUZZ_CHECK(again == need);
		v2 = malloc((size_t)need);
		if (!v2)
			abort();
		FUZZ_CHECK(nfsacl_to_xattr(access ? &w.acl : &w.dfacl, access,
					   v2, (size_t)need) == need);
		FUZZ_CHECK(memcmp(v, v2, (size_t)need) == 0);
		free(v2);
		xdr_enc_release(&e);
	}
	free(ents);
	free(v);
}

static void check_from_xattr(const uint8_t *buf, size_t len, bool access)
{
	struct nfsacl_entry *ents = NULL;
	uint32_t n = 0;
	int ret = nfsacl_from_xattr(buf, len, access ? 0 : NFSACL_DEFAULT,
				    1000, 1000, &ents, &n);

	if (ret == 0) {
		struct nfsacl_list list = { n, n, ents };
		struct nfsacl_setacl_args a;
		struct nfsacl_setacl_wire w;
		struct xdr_enc e;
		struct xdr_dec d;

		FUZZ_CHECK(n <= NFSACL_MAX_ENTRIES);
		FUZZ_CHECK(n == 0 || ents);
		memset(&a, 0, sizeof(a));
		a.mask = NFSACL_ACL | NFSACL_ACLCNT;
		a.acl = list;
		FUZZ_CHECK(xdr_enc_init(&e, 256, 0) == 0);
		FUZZ_CHECK(nfsacl_enc_setacl_args(&e, &a) == 0);
		xdr_dec_init(&d, e.buf, e.len);
		memset(&w, 0, sizeof(w));
		FUZZ_CHECK(nfsacl_dec_setacl_args(&d, &w) == 0);
		FUZZ_CHECK(w.acl.n == n);
		check_list(&w.acl, access);
		xdr_enc_release(&e);
	} else {
		FUZZ_CHECK(ret == -EINVAL || ret == -EOPNOTSUPP ||
			   ret == -ENOSPC || ret == -ENOMEM);
	}
	free(ents);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t sel, *buf;
	struct xdr_dec d;
	size_t len;

	if (size < 1)
		return 0;
	sel = data[0];
	buf = fuzz_copy(data + 1, size - 1, &len);
	xdr_dec_init(&d, buf, len);
	switch (sel % 3) {
	case 0: {
		struct nfsacl_getacl_res r;

		memset(&r, 0, sizeof(r));
		if (nfsacl_dec_getacl_res(&d, &r) == 0 && r.status == NFS3_OK) {
			FUZZ_CHECK(r.acl.n <= NFSACL_MAX_ENTRIES &&
				   r.dfacl.n <= NFSACL_MAX_ENTRIES);
			fuzz_touch(r.acl.wire, 12u * r.acl.n);
			fuzz_touch(r.dfacl.wire, 12u * r.dfacl.n);
			check_list(&r.acl, true);
			check_list(&r.dfacl, false);
		}
		break;
	}
	case 1:
		check_from_xattr(buf, len, !(sel & 0x80));
		break;
	default: {
		struct nfsacl_setacl_res sr;
		struct nfsacl_getacl_args ga;
		struct nfsacl_setacl_wire sw;

		memset(&sr, 0, sizeof(sr));
		(void)nfsacl_dec_setacl_res(&d, &sr);
		xdr_dec_init(&d, buf, len);
		memset(&ga, 0, sizeof(ga));
		(void)nfsacl_dec_getacl_args(&d, &ga);
		xdr_dec_init(&d, buf, len);
		memset(&sw, 0, sizeof(sw));
		if (nfsacl_dec_setacl_args(&d, &sw) == 0) {
			fuzz_touch(sw.acl.wire, 12u * sw.acl.n);
			fuzz_touch(sw.dfacl.wire, 12u * sw.dfacl.n);
			check_list(&sw.acl, true);
			check_list(&sw.dfacl, false);
		}
		FUZZ_CHECK(d.p <= d.end);
		break;
	}
	}
	free(buf);
	return 0;
}
