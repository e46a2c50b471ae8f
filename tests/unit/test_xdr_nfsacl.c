/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSACL v3 codecs and the posix_acl xattr conversion.  Known answers are
 * worked by hand from the protocol as Linux (fs/nfs_common/nfsacl.c) and
 * Wireshark (packet-nfsacl.c) describe it: every field a 4-byte big-endian
 * unit; an ACL is aclcnt, then the array length and 12-byte entries
 * { type, id, perm }.  The xattr format is little-endian: u32 version 2,
 * then { u16 tag, u16 perm, u32 id } per entry.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nfsacl.h"
#include "xdr_check.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

typedef int (*dec_fn)(struct xdr_dec *d, void *res);

/* Decode from an exact-size copy (xdr_check.h) that must be used up; the
 * copy is handed to copy_out (may be NULL) so that decoded lists stay
 * valid until the caller frees it. */
static int decode_exact(dec_fn dec, const uint8_t *buf, size_t len, void *res,
			uint8_t **copy_out)
{
	size_t used;
	int ret = xdr_check_decode_copy(dec, buf, len, res, &used, copy_out);

	if (ret == 0 && used != len)
		fail_msg("%zu bytes left after decoding", len - used);
	return ret;
}

/* Every proper prefix is malformed, except the ones in `ok` (a failure
 * status alone, which nfs-ganesha sends). */
static void check_truncations(dec_fn dec, const uint8_t *buf, size_t len,
			      size_t res_size, size_t ok)
{
	void *res = malloc(res_size);

	assert_non_null(res);
	for (size_t k = 0; k < len; k++) {
		int ret = decode_exact(dec, buf, k, res, NULL);

		if (k == ok && ret == 0)
			continue;
		if (ret != -EBADMSG)
			fail_msg("prefix of %zu/%zu bytes gave %d", k, len, ret);
	}
	free(res);
}

#define U32(v) (uint8_t)((v) >> 24), (uint8_t)((v) >> 16), \
	       (uint8_t)((v) >> 8), (uint8_t)(v)

static const struct nfs_fh3 fh4 = { 4, { 1, 2, 3, 4 } };

static void test_getacl_args(void **state)
{
	static const uint8_t want[] = { U32(4), 1, 2, 3, 4, U32(0xf) };
	struct nfsacl_getacl_args a = { fh4, NFSACL_MASK_ALL }, back;

	(void)state;
	xdr_check_encoding(nfsacl_enc_getacl_args, &a, want, sizeof(want));
	assert_int_equal(decode_exact(nfsacl_dec_getacl_args, want,
				      sizeof(want), &back, NULL), 0);
	assert_int_equal(back.fh.len, 4);
	assert_int_equal(back.mask, 0xf);
}

/* user::rw- user:65534:r-- group::r-- mask::r-- other::r-- and a default
 * ACL of user::rwx group::r-x other::--- (with the default bit). */
static const uint8_t getacl_ok[] = {
	U32(0),                 /* NFS3_OK */
	U32(0),                 /* post_op_attr: none */
	U32(0xf),               /* mask */
	U32(5), U32(5),         /* aclcnt, array length */
	U32(0x01), U32(0), U32(6),
	U32(0x02), U32(65534), U32(4),
	U32(0x04), U32(0), U32(4),
	U32(0x10), U32(0), U32(4),
	U32(0x20), U32(0), U32(4),
	U32(3), U32(3),
	U32(0x1001), U32(0), U32(7),
	U32(0x1004), U32(0), U32(5),
	U32(0x1020), U32(0), U32(0),
};

static void test_getacl_res(void **state)
{
	struct nfsacl_getacl_res r;
	struct nfsacl_entry e;
	uint8_t *buf;

	(void)state;
	assert_int_equal(decode_exact(nfsacl_dec_getacl_res, getacl_ok,
				      sizeof(getacl_ok), &r, &buf), 0);
	assert_int_equal(r.status, 0);
	assert_false(r.attr.present);
	assert_int_equal(r.mask, 0xf);
	assert_int_equal(r.acl.count, 5);
	assert_int_equal(r.acl.n, 5);
	nfsacl_entry_get(&r.acl, 1, &e);
	assert_int_equal(e.type, NFSACL_USER);
	assert_int_equal(e.id, 65534);
	assert_int_equal(e.perm, 4);
	assert_int_equal(r.dfacl.n, 3);
	nfsacl_entry_get(&r.dfacl, 2, &e);
	assert_int_equal(e.type, NFSACL_DEFAULT | NFSACL_OTHER_OBJ);
	free(buf);
	check_truncations(nfsacl_dec_getacl_res, getacl_ok, sizeof(getacl_ok),
			  sizeof(r), SIZE_MAX);
}

static void test_getacl_res_failure(void **state)
{
	/* Linux: the failure arm has post_op_attr; ganesha: nothing. */
	static const uint8_t linux_fail[] = { U32(70), U32(0) };
	static const uint8_t ganesha_fail[] = { U32(10004) };
	struct nfsacl_getacl_res r;

	(void)state;
	assert_int_equal(decode_exact(nfsacl_dec_getacl_res, linux_fail,
				      sizeof(linux_fail), &r, NULL), 0);
	assert_int_equal(r.status, 70);
	assert_int_equal(decode_exact(nfsacl_dec_getacl_res, ganesha_fail,
				      sizeof(ganesha_fail), &r, NULL), 0);
	assert_int_equal(r.status, NFS3ERR_NOTSUPP);
	assert_false(r.attr.present);
	check_truncations(nfsacl_dec_getacl_res, linux_fail,
			  sizeof(linux_fail), sizeof(r), 4);
	/* a bad bool where the attributes start */
	{
		static const uint8_t bad[] = { U32(70), U32(2) };

		assert_int_equal(decode_exact(nfsacl_dec_getacl_res, bad,
					      sizeof(bad), &r, NULL),
				 -EBADMSG);
	}
}

static void test_absurd_lengths(void **state)
{
	static const uint32_t lens[] = { NFSACL_MAX_ENTRIES + 1, 0x15555556u,
					 0xffffffffu, 2 };
	struct nfsacl_getacl_res r;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(lens); i++) {
		/* array length lens[i] followed by one entry only */
		const uint8_t buf[] = { U32(0), U32(0), U32(3), U32(1),
					U32(lens[i]), U32(1), U32(0), U32(6),
					U32(0), U32(0) };

		assert_int_equal(decode_exact(nfsacl_dec_getacl_res, buf,
					      sizeof(buf), &r, NULL),
				 -EBADMSG);
	}
}

static void test_setacl(void **state)
{
	static const struct nfsacl_entry acc[] = {
		{ NFSACL_USER_OBJ, 1000, 6 }, { NFSACL_GROUP_OBJ, 100, 4 },
		{ NFSACL_CLASS_OBJ, 0, 4 }, { NFSACL_OTHER_OBJ, 0, 0 },
	};
	static const uint8_t want[] = {
		U32(4), 1, 2, 3, 4, U32(3),
		U32(4), U32(4),
		U32(1), U32(1000), U32(6), U32(4), U32(100), U32(4),
		U32(0x10), U32(0), U32(4), U32(0x20), U32(0), U32(0),
		U32(0), U32(0),
	};
	struct nfsacl_setacl_args a = {
		fh4, NFSACL_ACL | NFSACL_ACLCNT, { 4, 4, acc }, { 0, 0, NULL },
	};
	struct nfsacl_setacl_wire w;
	struct nfsacl_setacl_res r;
	struct nfsacl_entry e;
	struct xdr_enc enc;
	uint8_t *buf;

	(void)state;
	xdr_check_encoding(nfsacl_enc_setacl_args, &a, want, sizeof(want));
	assert_int_equal(decode_exact(nfsacl_dec_setacl_args, want,
				      sizeof(want), &w, &buf), 0);
	assert_int_equal(w.mask, 3);
	assert_int_equal(w.acl.n, 4);
	nfsacl_entry_get(&w.acl, 1, &e);
	assert_int_equal(e.id, 100);
	assert_int_equal(w.dfacl.n, 0);
	free(buf);
	check_truncations(nfsacl_dec_setacl_args, want, sizeof(want),
			  sizeof(w), SIZE_MAX);

	/* more than NFSACL_MAX_ENTRIES: the encoder refuses */
	a.acl.n = NFSACL_MAX_ENTRIES + 1;
	assert_int_equal(xdr_enc_init(&enc, 16, 0), 0);
	assert_int_equal(nfsacl_enc_setacl_args(&enc, &a), -EINVAL);
	xdr_enc_release(&enc);

	{
		static const uint8_t ok[] = { U32(0), U32(0) };
		static const uint8_t ganesha_inval[] = { U32(22) };

		assert_int_equal(decode_exact(nfsacl_dec_setacl_res, ok,
					      sizeof(ok), &r, NULL), 0);
		assert_int_equal(decode_exact(nfsacl_dec_setacl_res,
					      ganesha_inval,
					      sizeof(ganesha_inval), &r, NULL),
				 0);
		assert_int_equal(r.status, 22);
		check_truncations(nfsacl_dec_setacl_res, ok, sizeof(ok),
				  sizeof(r), SIZE_MAX);
	}
}

/* The server-side encoder gives back what the client decoder reads. */
static void test_getacl_res_roundtrip(void **state)
{
	static const struct nfsacl_entry acc[] = {
		{ NFSACL_USER_OBJ, 0, 6 }, { NFSACL_USER, 65534, 4 },
		{ NFSACL_GROUP_OBJ, 0, 4 }, { NFSACL_CLASS_OBJ, 0, 4 },
		{ NFSACL_OTHER_OBJ, 0, 4 },
	};
	static const struct nfsacl_entry def[] = {
		{ NFSACL_DEFAULT | NFSACL_USER_OBJ, 0, 7 },
		{ NFSACL_DEFAULT | NFSACL_GROUP_OBJ, 0, 5 },
		{ NFSACL_DEFAULT | NFSACL_OTHER_OBJ, 0, 0 },
	};
	struct nfsacl_getacl_res r = { .status = 0, .mask = 0xf };
	struct nfsacl_list a = { 5, 5, acc }, d = { 3, 3, def };
	struct xdr_enc e;

	(void)state;
	assert_int_equal(xdr_enc_init(&e, 16, 0), 0);
	assert_int_equal(nfsacl_enc_getacl_res(&e, &r, &a, &d), 0);
	assert_int_equal(e.len, sizeof(getacl_ok));
	assert_memory_equal(e.buf, getacl_ok, sizeof(getacl_ok));
	xdr_enc_release(&e);
}

/* ---- xattr conversion ---- */

#define LE16(v) (uint8_t)(v), (uint8_t)((v) >> 8)
#define LE32(v) LE16((v) & 0xffff), LE16((uint32_t)(v) >> 16)
#define XE(tag, perm, id) LE16(tag), LE16(perm), LE32(id)
#define UNDEF 0xffffffffu

static void test_to_xattr(void **state)
{
	static const uint8_t want_acc[] = {
		LE32(2),
		XE(0x01, 6, UNDEF), XE(0x02, 4, 65534), XE(0x04, 4, UNDEF),
		XE(0x10, 4, UNDEF), XE(0x20, 4, UNDEF),
	};
	/* the default ACL of getacl_ok: three entries, default bit gone */
	static const uint8_t want_def[] = {
		LE32(2), XE(0x01, 7, UNDEF), XE(0x04, 5, UNDEF),
		XE(0x20, 0, UNDEF),
	};
	struct nfsacl_getacl_res r;
	uint8_t out[64], *buf;
	long n;

	(void)state;
	assert_int_equal(decode_exact(nfsacl_dec_getacl_res, getacl_ok,
				      sizeof(getacl_ok), &r, &buf), 0);
	n = nfsacl_to_xattr(&r.acl, true, NULL, 0);
	assert_int_equal(n, sizeof(want_acc));
	/* too small: the size, nothing written */
	memset(out, 0xaa, sizeof(out));
	assert_int_equal(nfsacl_to_xattr(&r.acl, true, out, 10), n);
	assert_int_equal(out[0], 0xaa);
	assert_int_equal(nfsacl_to_xattr(&r.acl, true, out, sizeof(out)), n);
	assert_memory_equal(out, want_acc, sizeof(want_acc));
	/* a default ACL without named entries is still an ACL */
	n = nfsacl_to_xattr(&r.dfacl, false, out, sizeof(out));
	assert_int_equal(n, sizeof(want_def));
	assert_memory_equal(out, want_def, sizeof(want_def));
	/* ... but as an access ACL it says no more than the mode */
	assert_int_equal(nfsacl_to_xattr(&r.dfacl, true, out, sizeof(out)),
			 0);
	free(buf);
}

/* A namespace whose uid 0.. are 1000.., gid 0.. are 2000.. (10 each). */
static bool to_server(void *ctx, bool group, uint32_t *id)
{
	(void)ctx;
	if (*id >= 10)
		return false;
	*id += group ? 2000 : 1000;
	return true;
}

static void test_xattr_map_ids(void **state)
{
	uint8_t acl[] = {
		LE32(2),
		XE(0x01, 6, UNDEF), XE(0x02, 4, 3), XE(0x04, 4, UNDEF),
		XE(0x08, 4, 5), XE(0x10, 4, UNDEF), XE(0x20, 4, UNDEF),
	};
	static const uint8_t want[] = {
		LE32(2),
		XE(0x01, 6, UNDEF), XE(0x02, 4, 1003), XE(0x04, 4, UNDEF),
		XE(0x08, 4, 2005), XE(0x10, 4, UNDEF), XE(0x20, 4, UNDEF),
	};
	uint8_t unmapped[] = { LE32(2), XE(0x02, 4, UNDEF) };
	uint8_t bad_version[] = { LE32(1), XE(0x02, 4, 3) };

	(void)state;
	assert_int_equal(nfsacl_xattr_map_ids(acl, sizeof(acl), to_server,
					      NULL), 0);
	assert_memory_equal(acl, want, sizeof(want));
	/* (uid_t)-1 is what the kernel writes for an id of no namespace */
	assert_int_equal(nfsacl_xattr_map_ids(unmapped, sizeof(unmapped),
					      to_server, NULL), -EINVAL);
	assert_int_equal(nfsacl_xattr_map_ids(bad_version,
					      sizeof(bad_version), to_server,
					      NULL), -EINVAL);
	assert_int_equal(nfsacl_xattr_map_ids(acl, sizeof(acl) - 1, to_server,
					      NULL), -EINVAL);
	assert_int_equal(nfsacl_xattr_map_ids(acl, 4, to_server, NULL), 0);
}

/* Build a wire list from entries (for the conversion tests). */
static struct nfsacl_wire_list wire_of(const uint32_t (*ents)[3], uint32_t n,
				       uint8_t *store)
{
	for (uint32_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++)
			xdr_put_u32(store + 12 * i + 4 * k, ents[i][k]);
	return (struct nfsacl_wire_list){ n, n, store };
}

static void test_to_xattr_rules(void **state)
{
	/* Solaris minimal ACL, unsorted: mask equals group, is dropped */
	static const uint32_t minimal[][3] = {
		{ 0x20, 9, 4 }, { 0x10, 9, 5 }, { 0x04, 100, 5 }, { 0x01, 1000, 7 },
	};
	static const uint8_t want_min[] = {
		LE32(2), XE(0x01, 7, UNDEF), XE(0x04, 5, UNDEF),
		XE(0x20, 4, UNDEF),
	};
	/* mask differs from group: kept (and still no named entry) */
	static const uint32_t masked[][3] = {
		{ 0x01, 0, 7 }, { 0x04, 0, 5 }, { 0x10, 0, 1 }, { 0x20, 0, 4 },
	};
	/* named users sorted by id */
	static const uint32_t named[][3] = {
		{ 0x02, 7, 1 }, { 0x01, 0, 7 }, { 0x02, 3, 2 }, { 0x04, 0, 5 },
		{ 0x10, 0, 7 }, { 0x20, 0, 0 },
	};
	static const uint8_t want_named[] = {
		LE32(2), XE(0x01, 7, UNDEF), XE(0x02, 2, 3), XE(0x02, 1, 7),
		XE(0x04, 5, UNDEF), XE(0x10, 7, UNDEF), XE(0x20, 0, UNDEF),
	};
	static const uint32_t bad[][4][3] = {
		{ { 0x01, 0, 7 }, { 0x01, 0, 7 }, { 0x04, 0, 5 }, { 0x20, 0, 0 } },
		{ { 0x01, 0, 8 }, { 0x04, 0, 5 }, { 0x10, 0, 5 }, { 0x20, 0, 0 } },
		{ { 0x01, 0, 7 }, { 0x40, 0, 5 }, { 0x04, 0, 5 }, { 0x20, 0, 0 } },
		{ { 0x01, 0, 7 }, { 0x02, 5, 5 }, { 0x04, 0, 5 }, { 0x20, 0, 0 } },
	};
	uint8_t store[12 * 8], out[128];

	(void)state;
	{
		struct nfsacl_wire_list l = wire_of(minimal, 4, store);

		assert_int_equal(nfsacl_to_xattr(&l, true, out, sizeof(out)), 0);
		assert_int_equal(nfsacl_to_xattr(&l, false, out, sizeof(out)),
				 sizeof(want_min));
		assert_memory_equal(out, want_min, sizeof(want_min));
	}
	{
		struct nfsacl_wire_list l = wire_of(masked, 4, store);

		assert_int_equal(nfsacl_to_xattr(&l, true, out, sizeof(out)), 0);
		assert_int_equal(nfsacl_to_xattr(&l, false, out, sizeof(out)),
				 NFSACL_XATTR_SIZE(4));
	}
	{
		struct nfsacl_wire_list l = wire_of(named, 6, store);

		assert_int_equal(nfsacl_to_xattr(&l, true, out, sizeof(out)),
				 sizeof(want_named));
		assert_memory_equal(out, want_named, sizeof(want_named));
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct nfsacl_wire_list l = wire_of(bad[i], 4, store);

		if (nfsacl_to_xattr(&l, true, out, sizeof(out)) != -EIO)
			fail_msg("bad list %zu was accepted", i);
	}
	{
		struct nfsacl_wire_list empty = { 0, 0, store };

		assert_int_equal(nfsacl_to_xattr(&empty, false, NULL, 0), 0);
	}
}

static void test_from_xattr(void **state)
{
	/* setfacl's minimal ACL: three entries, ids undefined */
	static const uint8_t minimal[] = {
		LE32(2), XE(0x01, 6, UNDEF), XE(0x04, 4, UNDEF),
		XE(0x20, 0, UNDEF),
	};
	/* unsorted, with a named group and a mask */
	static const uint8_t named[] = {
		LE32(2), XE(0x20, 0, UNDEF), XE(0x08, 5, 50), XE(0x01, 7, UNDEF),
		XE(0x10, 5, UNDEF), XE(0x04, 4, UNDEF),
	};
	struct nfsacl_entry *e;
	uint32_t n;

	(void)state;
	assert_int_equal(nfsacl_from_xattr(minimal, sizeof(minimal), 0, 1000,
					   100, &e, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(e[0].type, NFSACL_USER_OBJ);
	assert_int_equal(e[0].id, 1000);
	assert_int_equal(e[1].type, NFSACL_GROUP_OBJ);
	assert_int_equal(e[1].id, 100);
	assert_int_equal(e[2].type, NFSACL_CLASS_OBJ);
	assert_int_equal(e[2].perm, 4); /* the group's */
	assert_int_equal(e[2].id, 0);
	assert_int_equal(e[3].type, NFSACL_OTHER_OBJ);
	assert_int_equal(e[3].id, 0);
	free(e);

	assert_int_equal(nfsacl_from_xattr(named, sizeof(named), NFSACL_DEFAULT,
					   1, 2, &e, &n), 0);
	assert_int_equal(n, 5);
	assert_int_equal(e[0].type, NFSACL_DEFAULT | NFSACL_USER_OBJ);
	assert_int_equal(e[1].type, NFSACL_DEFAULT | NFSACL_GROUP_OBJ);
	assert_int_equal(e[2].type, NFSACL_DEFAULT | NFSACL_GROUP);
	assert_int_equal(e[2].id, 50);
	assert_int_equal(e[3].type, NFSACL_DEFAULT | NFSACL_CLASS_OBJ);
	assert_int_equal(e[4].type, NFSACL_DEFAULT | NFSACL_OTHER_OBJ);
	free(e);

	/* header only: no ACL */
	assert_int_equal(nfsacl_from_xattr(named, 4, 0, 1, 2, &e, &n), 0);
	assert_int_equal(n, 0);
	assert_null(e);
}

static void test_from_xattr_bad(void **state)
{
	static const struct {
		uint8_t v[4 + 8 * 5];
		size_t len;
		int want;
	} cases[] = {
		{ { LE32(1) }, 4, -EOPNOTSUPP },
		{ { LE32(2) }, 3, -EINVAL },
		{ { LE32(2), XE(1, 6, 0) }, 9, -EINVAL },
		/* no GROUP_OBJ */
		{ { LE32(2), XE(1, 6, 0), XE(0x20, 0, 0) }, 20, -EINVAL },
		/* named user without a mask */
		{ { LE32(2), XE(1, 6, 0), XE(2, 4, 5), XE(4, 4, 0),
		    XE(0x20, 0, 0) }, 36, -EINVAL },
		/* duplicate named user */
		{ { LE32(2), XE(1, 6, 0), XE(2, 4, 5), XE(2, 6, 5),
		    XE(4, 4, 0), XE(0x10, 4, 0) }, 44, -EINVAL },
		/* permission bits beyond rwx */
		{ { LE32(2), XE(1, 8, 0), XE(4, 4, 0), XE(0x20, 0, 0) }, 28,
		  -EINVAL },
		/* unknown tag */
		{ { LE32(2), XE(1, 6, 0), XE(4, 4, 0), XE(0x40, 0, 0) }, 28,
		  -EINVAL },
		/* two masks */
		{ { LE32(2), XE(1, 6, 0), XE(4, 4, 0), XE(0x10, 4, 0),
		    XE(0x10, 4, 0), XE(0x20, 0, 0) }, 44, -EINVAL },
	};
	struct nfsacl_entry *e;
	uint32_t n;
	uint8_t *big;
	size_t bigsz = NFSACL_XATTR_SIZE(NFSACL_MAX_ENTRIES + 1);

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int ret = nfsacl_from_xattr(cases[i].v, cases[i].len, 0, 0, 0,
					    &e, &n);

		if (ret != cases[i].want)
			fail_msg("case %zu: %d, want %d", i, ret, cases[i].want);
		assert_null(e);
	}
	big = calloc(1, bigsz);
	assert_non_null(big);
	big[0] = 2;
	assert_int_equal(nfsacl_from_xattr(big, bigsz, 0, 0, 0, &e, &n),
			 -ENOSPC);
	free(big);
}

static void test_from_mode(void **state)
{
	struct nfsacl_entry e[4];

	(void)state;
	nfsacl_from_mode(0754, 7, 8, e);
	assert_int_equal(e[0].perm, 7);
	assert_int_equal(e[0].id, 7);
	assert_int_equal(e[1].perm, 5);
	assert_int_equal(e[1].id, 8);
	assert_int_equal(e[2].type, NFSACL_CLASS_OBJ);
	assert_int_equal(e[2].perm, 5);
	assert_int_equal(e[3].perm, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_getacl_args),
		cmocka_unit_test(test_getacl_res),
		cmocka_unit_test(test_getacl_res_failure),
		cmocka_unit_test(test_absurd_lengths),
		cmocka_unit_test(test_setacl),
		cmocka_unit_test(test_getacl_res_roundtrip),
		cmocka_unit_test(test_to_xattr),
		cmocka_unit_test(test_to_xattr_rules),
		cmocka_unit_test(test_from_xattr),
		cmocka_unit_test(test_from_xattr_bad),
		cmocka_unit_test(test_from_mode),
		cmocka_unit_test(test_xattr_map_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
