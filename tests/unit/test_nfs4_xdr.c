/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4.1 codecs: COMPOUND framing, the reply walk, the session
 * operations and fattr4.  Known answers are worked by hand from the
 * RFC 8881 XDR: every field a big-endian 4-byte unit (hyper: 8), opaque
 * and strings a length then the bytes padded with zeros to a multiple
 * of 4, fixed opaques (verifier4, sessionid4, stateid4's other) with no
 * length.
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
#define U64(v) U32((uint64_t)(v) >> 32), U32((uint64_t)(v) & 0xffffffffu)
#define SID 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, \
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f

static const uint8_t sessionid[NFS4_SESSIONID_SIZE] = { SID };

/* ---- COMPOUND encoding ---- */

/* tag "t", minor 1, SEQUENCE(sid, 1, 0, 0, false), PUTROOTFH, GETFH */
static const uint8_t compound_bytes[] = {
	U32(1), 't', 0, 0, 0,
	U32(1),
	U32(3),
	U32(53), SID, U32(1), U32(0), U32(0), U32(0),
	U32(24),
	U32(10),
};

static void test_compound_encode(void **state)
{
	struct nfs4_sequence_args seq = { .sequenceid = 1 };
	struct nfs4_compound c;
	struct xdr_enc e;

	(void)state;
	memcpy(seq.sessionid, sessionid, sizeof(sessionid));
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(nfs4_compound_start(&c, &e, "t", 1), 0);
	assert_int_equal(nfs4_add_sequence(&c, &seq), 0);
	assert_int_equal(nfs4_add_putrootfh(&c), 0);
	assert_int_equal(nfs4_add_getfh(&c), 0);
	assert_int_equal(xdr_enc_error(&e), 0);
	assert_int_equal(e.len, sizeof(compound_bytes));
	assert_memory_equal(e.buf, compound_bytes, sizeof(compound_bytes));
	assert_int_equal(c.nops, 3);
	assert_int_equal(c.ops[0], NFS4OP_SEQUENCE);
	assert_int_equal(c.ops[2], NFS4OP_GETFH);
	xdr_enc_release(&e);
}

static void test_compound_limits(void **state)
{
	struct nfs4_lookup_args empty = { { "", 0 } };
	struct nfs4_compound c;
	struct xdr_enc e;

	(void)state;
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	nfs4_compound_start(&c, &e, NULL, 1);
	for (unsigned i = 0; i < NFS4_MAXOPS; i++)
		assert_int_equal(nfs4_add_putrootfh(&c), 0);
	assert_int_equal(nfs4_add_putrootfh(&c), -E2BIG);
	assert_int_equal(xdr_enc_error(&e), -E2BIG);
	xdr_enc_release(&e);

	/* An empty name, a missing argument, an unknown operation. */
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	nfs4_compound_start(&c, &e, "", 1);
	assert_int_equal(nfs4_add_lookup(&c, &empty), -EINVAL);
	xdr_enc_release(&e);
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	nfs4_compound_start(&c, &e, "", 1);
	assert_int_equal(nfs4_compound_add(&c, NFS4OP_PUTFH, NULL), -EINVAL);
	xdr_enc_release(&e);
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	nfs4_compound_start(&c, &e, "", 1);
	assert_int_equal(nfs4_compound_add(&c, 1, NULL), -EINVAL);
	xdr_enc_release(&e);
}

/* ---- the reply walk ---- */

#define SEQ_OK U32(53), U32(0), SID, U32(1), U32(0), U32(7), U32(7), U32(0)

/* OK, tag "t": SEQUENCE, PUTROOTFH, GETFH (de ad be ef) */
static const uint8_t reply_ok[] = {
	U32(0), U32(1), 't', 0, 0, 0, U32(3),
	SEQ_OK,
	U32(24), U32(0),
	U32(10), U32(0), U32(4), 0xde, 0xad, 0xbe, 0xef,
};

static int walk_ok(struct xdr_dec *d, void *res)
{
	struct nfs4_compound_res *r = res;
	struct nfs4_sequence_res seq;
	struct nfs4_status_res st;
	struct nfs4_getfh_res fh;

	if (nfs4_dec_compound_res(d, r) ||
	    nfs4_compound_next(r, NFS4OP_SEQUENCE, &seq) ||
	    nfs4_compound_next(r, NFS4OP_PUTROOTFH, &st) ||
	    nfs4_compound_next(r, NFS4OP_GETFH, &fh))
		return -EBADMSG;
	if (seq.status || seq.highest_slotid != 7 || st.status ||
	    fh.status || fh.fh.len != 4 || fh.fh.data[0] != 0xde)
		return -EINVAL;
	if (nfs4_compound_next(r, NFS4OP_GETFH, &fh) != -ENODATA)
		return -EINVAL;
	*d = r->d;
	return 0;
}

static void test_reply_walk(void **state)
{
	struct nfs4_compound_res r;

	(void)state;
	free(xdr_check_decode_all(walk_ok, reply_ok, sizeof(reply_ok), &r,
				  sizeof(r)));
	assert_int_equal(r.status, NFS4_OK);
	assert_int_equal(r.nres, 3);
	assert_int_equal(r.next, 3);
	assert_false(r.stopped);
}

/* NOENT: SEQUENCE, LOOKUP failed; GETFH never ran. */
static const uint8_t reply_noent[] = {
	U32(2), U32(0), U32(2),
	SEQ_OK,
	U32(15), U32(2),
};
/* The same with a GETFH result after the failure: malformed. */
static const uint8_t reply_after_fail[] = {
	U32(2), U32(0), U32(3),
	SEQ_OK,
	U32(15), U32(2),
	U32(10), U32(0), U32(4), 0xde, 0xad, 0xbe, 0xef,
};
/* A result for another operation than the one sent. */
static const uint8_t reply_wrong_op[] = {
	U32(0), U32(0), U32(2),
	SEQ_OK,
	U32(16), U32(0),
};
/* The server did not know the second operation. */
static const uint8_t reply_illegal[] = {
	U32(10044), U32(0), U32(2),
	SEQ_OK,
	U32(10044), U32(10044),
};
/* More results than anyone may send. */
static const uint8_t reply_huge[] = {
	U32(0), U32(0), U32(0x7fffffff),
	SEQ_OK,
};

static void test_reply_failures(void **state)
{
	struct nfs4_compound_res r;
	struct nfs4_sequence_res seq;
	struct nfs4_status_res st;
	struct nfs4_getfh_res fh;
	struct xdr_dec d;

	(void)state;
	xdr_dec_init(&d, reply_noent, sizeof(reply_noent));
	assert_int_equal(nfs4_dec_compound_res(&d, &r), 0);
	assert_int_equal(r.status, NFS4ERR_NOENT);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_SEQUENCE, &seq), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_LOOKUP, &st), 0);
	assert_int_equal(st.status, NFS4ERR_NOENT);
	assert_true(r.stopped);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_GETFH, &fh), -ENODATA);

	xdr_dec_init(&d, reply_after_fail, sizeof(reply_after_fail));
	assert_int_equal(nfs4_dec_compound_res(&d, &r), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_SEQUENCE, &seq), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_LOOKUP, &st), -EBADMSG);

	xdr_dec_init(&d, reply_wrong_op, sizeof(reply_wrong_op));
	assert_int_equal(nfs4_dec_compound_res(&d, &r), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_SEQUENCE, &seq), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_LOOKUP, &st), -EBADMSG);

	xdr_dec_init(&d, reply_illegal, sizeof(reply_illegal));
	assert_int_equal(nfs4_dec_compound_res(&d, &r), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_SEQUENCE, &seq), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_RECLAIM_COMPLETE, &st),
			 0);
	assert_int_equal(st.status, NFS4ERR_OP_ILLEGAL);
	assert_true(r.stopped);

	xdr_dec_init(&d, reply_huge, sizeof(reply_huge));
	assert_int_equal(nfs4_dec_compound_res(&d, &r), -EBADMSG);
}

/* ---- session operations ---- */

static const uint8_t exchange_id_args[] = {
	0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,
	U32(3), 'a', 'b', 'c', 0,
	U32(1),
	U32(0),
	U32(0),
};

static const uint8_t exchange_id_res[] = {
	U32(0),
	U64(0x0102030405060708ull), U32(1), U32(0x00010001),
	U32(0),
	U64(0), U32(3), 'g', 'a', 'n', 0,
	U32(0),
	U32(1), U32(1), 'd', 0, 0, 0, U32(1), 'n', 0, 0, 0, U64(5), U32(0),
};

/* SP4_MACH_CRED with two bitmaps, then the rest. */
static const uint8_t exchange_id_mach[] = {
	U32(0),
	U64(9), U32(2), U32(0),
	U32(1), U32(1), U32(0x8), U32(2), U32(1), U32(2),
	U64(0), U32(0),
	U32(0),
	U32(0),
};

static void test_exchange_id(void **state)
{
	struct nfs4_exchange_id_args a = {
		.verifier = { 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11 },
		.ownerid = (const uint8_t *)"abc", .ownerid_len = 3,
		.flags = NFS4_EXCHGID_FLAG_SUPP_MOVED_REFER,
	};
	struct nfs4_exchange_id_res r;
	uint8_t *copy;

	(void)state;
	xdr_check_encoding(nfs4_enc_exchange_id_args, &a, exchange_id_args,
			   sizeof(exchange_id_args));
	copy = xdr_check_decode_all(nfs4_dec_exchange_id_res, exchange_id_res,
				    sizeof(exchange_id_res), &r, sizeof(r));
	assert_int_equal(r.status, 0);
	assert_true(r.clientid == 0x0102030405060708ull);
	assert_int_equal(r.sequenceid, 1);
	assert_int_equal(r.flags, NFS4_EXCHGID_FLAG_USE_NON_PNFS |
			 NFS4_EXCHGID_FLAG_SUPP_MOVED_REFER);
	assert_int_equal(r.server_major_id.len, 3);
	assert_memory_equal(r.server_major_id.s, "gan", 3);
	assert_int_equal(r.server_scope.len, 0);
	assert_true(r.has_impl_id);
	assert_memory_equal(r.impl_id.name.s, "n", 1);
	assert_true(r.impl_id.date.seconds == 5);
	free(copy);
	free(xdr_check_decode_all(nfs4_dec_exchange_id_res, exchange_id_mach,
				  sizeof(exchange_id_mach), &r, sizeof(r)));
	assert_int_equal(r.state_protect, NFS4_SP4_MACH_CRED);
	assert_int_equal(r.sequenceid, 2);

	/* No owner: refused before anything is sent. */
	a.ownerid_len = 0;
	assert_int_equal(xdr_check_encode_err(nfs4_enc_exchange_id_args, &a),
			 -EINVAL);
}

static const uint8_t create_session_args[] = {
	U64(0x0102030405060708ull), U32(1), U32(2),
	U32(0), U32(0x00100000), U32(0x00100000), U32(0x1000), U32(8),
	U32(16), U32(0),
	U32(0), U32(0x1000), U32(0x1000), U32(0), U32(2), U32(1), U32(0),
	U32(0x40000000),
	U32(1),
	U32(1), U32(0), U32(1), 'h', 0, 0, 0, U32(0), U32(0), U32(0),
};

static const uint8_t create_session_res[] = {
	U32(0),
	SID, U32(1), U32(2),
	U32(0), U32(0x00100000), U32(0x00100000), U32(0x1000), U32(8),
	U32(16), U32(0),
	U32(0), U32(0x1000), U32(0x1000), U32(0), U32(2), U32(1), U32(1),
	U32(5),
};

static void test_create_session(void **state)
{
	struct nfs4_create_session_args a = {
		.clientid = 0x0102030405060708ull, .sequenceid = 1,
		.flags = NFS4_CREATE_SESSION_FLAG_CONN_BACK_CHAN,
		.fore = { 0, 0x00100000, 0x00100000, 0x1000, 8, 16, false, 0 },
		.back = { 0, 0x1000, 0x1000, 0, 2, 1, false, 0 },
		.cb_program = 0x40000000, .nsec = 1,
		.sec = { { .flavor = 1, .machinename = "h" } },
	};
	struct nfs4_create_session_res r;

	(void)state;
	xdr_check_encoding(nfs4_enc_create_session_args, &a,
			   create_session_args, sizeof(create_session_args));
	free(xdr_check_decode_all(nfs4_dec_create_session_res,
				  create_session_res,
				  sizeof(create_session_res), &r, sizeof(r)));
	assert_memory_equal(r.sessionid, sessionid, sizeof(sessionid));
	assert_int_equal(r.fore.maxrequests, 16);
	assert_int_equal(r.back.maxoperations, 2);
	assert_true(r.back.has_rdma_ird);
	assert_int_equal(r.back.rdma_ird, 5);
	a.nsec = 3;
	assert_int_equal(xdr_check_encode_err(nfs4_enc_create_session_args,
					      &a), -EINVAL);
}

static const uint8_t sequence_res_err[] = { U32(10052) };

static void test_sequence_and_small_ops(void **state)
{
	static const uint8_t destroy[] = { SID };
	static const uint8_t clientid[] = { U64(42) };
	static const uint8_t reclaim[] = { U32(1) };
	static const uint8_t bind[] = { SID, U32(3), U32(0) };
	static const uint8_t bind_res[] = { U32(0), SID, U32(3), U32(0) };
	static const uint8_t putfh[] = { U32(2), 0xab, 0xcd, 0, 0 };
	static const uint8_t lookup[] = { U32(5), 'h', 'e', 'l', 'l', 'o',
					  0, 0, 0 };
	static const uint8_t getattr[] = { U32(2), U32(0x0010011a),
					   U32(0x00b0a23a) };
	static const uint8_t secinfo[] = { U32(0), U32(2),
		U32(6), U32(9), 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x12, 0x01,
		0x02, 0x02, 0, 0, 0, U32(0), U32(1),
		U32(1) };
	struct nfs4_destroy_session_args ds;
	struct nfs4_destroy_clientid_args dc = { 42 };
	struct nfs4_reclaim_complete_args rc = { true };
	struct nfs4_bind_conn_args bc = { .dir = NFS4_CDFC4_FORE_OR_BOTH };
	struct nfs4_putfh_args pf = { { 2, { 0xab, 0xcd } } };
	struct nfs4_lookup_args lk = { { "hello", 5 } };
	struct nfs4_getattr_args ga = { nfs4_fattr3_request };
	struct nfs4_sequence_res sr;
	struct nfs4_bind_conn_res br;
	struct nfs4_secinfo_res si;

	(void)state;
	memcpy(ds.sessionid, sessionid, sizeof(sessionid));
	memcpy(bc.sessionid, sessionid, sizeof(sessionid));
	xdr_check_encoding(nfs4_enc_destroy_session_args, &ds, destroy,
			   sizeof(destroy));
	xdr_check_encoding(nfs4_enc_destroy_clientid_args, &dc, clientid,
			   sizeof(clientid));
	xdr_check_encoding(nfs4_enc_reclaim_complete_args, &rc, reclaim,
			   sizeof(reclaim));
	xdr_check_encoding(nfs4_enc_bind_conn_args, &bc, bind, sizeof(bind));
	xdr_check_encoding(nfs4_enc_putfh_args, &pf, putfh, sizeof(putfh));
	xdr_check_encoding(nfs4_enc_lookup_args, &lk, lookup, sizeof(lookup));
	xdr_check_encoding(nfs4_enc_getattr_args, &ga, getattr,
			   sizeof(getattr));
	free(xdr_check_decode_all(nfs4_dec_bind_conn_res, bind_res,
				  sizeof(bind_res), &br, sizeof(br)));
	assert_int_equal(br.dir, NFS4_CDFS4_BOTH);
	free(xdr_check_decode_all(nfs4_dec_sequence_res, sequence_res_err,
				  sizeof(sequence_res_err), &sr, sizeof(sr)));
	assert_int_equal(sr.status, NFS4ERR_BADSESSION);
	free(xdr_check_decode_all(nfs4_dec_secinfo_res, secinfo,
				  sizeof(secinfo), &si, sizeof(si)));
	assert_int_equal(si.count, 2);
	assert_int_equal(si.flavors[0].flavor, 6);
	assert_int_equal(si.flavors[0].oid.len, 9);
	assert_int_equal(si.flavors[0].service, 1);
	assert_int_equal(si.flavors[1].flavor, 1);
}

/* ---- fattr4 ---- */

/* type, change, size, mode, owner */
static const uint8_t fattr_bytes[] = {
	U32(2), U32(0x1a), U32(0x12),
	U32(32),
	U32(1), U64(7), U64(0x1000), U32(0644), U32(3), 'u', '@', 'd', 0,
};

static int dec_fattr(struct xdr_dec *d, void *a)
{
	return nfs4_dec_fattr(d, a);
}

static int enc_fattr(struct xdr_enc *e, const void *a)
{
	return nfs4_enc_fattr(e, a);
}

static void test_fattr_known(void **state)
{
	struct nfs4_fattr f;
	struct nfs4_attr3 a3;
	uint8_t *copy;

	(void)state;
	copy = xdr_check_decode_all(dec_fattr, fattr_bytes,
				    sizeof(fattr_bytes), &f, sizeof(f));
	assert_int_equal(f.type, NF4REG);
	assert_true(f.change == 7);
	assert_true(f.size == 0x1000);
	assert_int_equal(f.mode, 0644);
	assert_int_equal(f.owner.len, 3);
	assert_memory_equal(f.owner.s, "u@d", 3);
	assert_false(f.skipped);
	assert_true(nfs4_bitmap_isset(&f.mask, NFS4_FATTR_OWNER));
	assert_false(nfs4_bitmap_isset(&f.mask, NFS4_FATTR_FILEID));
	xdr_check_encoding(enc_fattr, &f, fattr_bytes, sizeof(fattr_bytes));

	assert_int_equal(nfs4_fattr_to_attr3(&f, &a3), -ENODATA);
	assert_int_equal(a3.attr.type, NF3REG);
	assert_int_equal(a3.attr.mode, 0644);
	assert_true(a3.attr.size == 0x1000);
	assert_true(a3.change == 7);
	assert_int_equal(a3.owner.len, 3);
	assert_true(nfs4_bitmap_isset(&a3.missing, NFS4_FATTR_FILEID));
	assert_false(nfs4_bitmap_isset(&a3.missing, NFS4_FATTR_SIZE));
	assert_false(nfs4_bitmap_isset(&a3.missing,
				       NFS4_FATTR_MOUNTED_ON_FILEID));
	free(copy);
}

/* size, then fs_locations (not known here): the rest is skipped. */
static const uint8_t fattr_unknown[] = {
	U32(1), U32(0x01000010),
	U32(16),
	U64(99), U32(0), U32(0),
};
/* a fourth bitmap word with a bit set: skipped as well. */
static const uint8_t fattr_beyond[] = {
	U32(4), U32(0x10), U32(0), U32(0), U32(1),
	U32(12),
	U64(99), U32(0xdead),
};
/* bytes left over after the values named: malformed. */
static const uint8_t fattr_leftover[] = {
	U32(1), U32(0x10),
	U32(12),
	U64(99), U32(0),
};
/* a NUL in the owner */
static const uint8_t fattr_nul[] = {
	U32(2), U32(0), U32(0x10),
	U32(8),
	U32(3), 'u', 0, 'd', 0,
};
/* time_modify with 10^9 nanoseconds */
static const uint8_t fattr_badtime[] = {
	U32(2), U32(0), U32(1u << 21),
	U32(12),
	U64(1), U32(1000000000u),
};

static void test_fattr_hostile(void **state)
{
	struct nfs4_fattr f;
	struct xdr_dec d;

	(void)state;
	xdr_dec_init(&d, fattr_unknown, sizeof(fattr_unknown));
	assert_int_equal(nfs4_dec_fattr(&d, &f), 0);
	assert_int_equal(xdr_dec_left(&d), 0);
	assert_true(f.skipped);
	assert_true(f.size == 99);
	assert_int_equal(f.mask.w[0], 0x10);

	xdr_dec_init(&d, fattr_beyond, sizeof(fattr_beyond));
	assert_int_equal(nfs4_dec_fattr(&d, &f), 0);
	assert_true(f.skipped);
	assert_int_equal(f.mask.w[0], 0x10);

	xdr_dec_init(&d, fattr_leftover, sizeof(fattr_leftover));
	assert_int_equal(nfs4_dec_fattr(&d, &f), -EBADMSG);
	xdr_dec_init(&d, fattr_nul, sizeof(fattr_nul));
	assert_int_equal(nfs4_dec_fattr(&d, &f), -EBADMSG);
	xdr_dec_init(&d, fattr_badtime, sizeof(fattr_badtime));
	assert_int_equal(nfs4_dec_fattr(&d, &f), -EBADMSG);

	/* An attribute this code cannot encode. */
	memset(&f, 0, sizeof(f));
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_FS_LOCATIONS);
	assert_int_equal(xdr_check_encode_err(enc_fattr, &f), -EINVAL);
}

/* size 16, mode 0644, owner "0", time_modify_set client 5 s 6 ns */
static const uint8_t sattr_bytes[] = {
	U32(2), U32(0x10), U32(0x00400012),
	U32(36),
	U64(16), U32(0644), U32(1), '0', 0, 0, 0, U32(1), U64(5), U32(6),
};

static void test_fattr_from_sattr3(void **state)
{
	struct sattr3 s = {
		.set_mode = true, .mode = 0100644, .set_size = true,
		.size = 16, .set_uid = true, .uid = 7,
		.set_mtime = SET_TO_CLIENT_TIME, .mtime = { 5, 6 },
	};
	struct nfs4_fattr f;

	(void)state;
	assert_int_equal(nfs4_fattr_from_sattr3(&s, "0", NULL, &f), 0);
	xdr_check_encoding(enc_fattr, &f, sattr_bytes, sizeof(sattr_bytes));
	s.set_atime = 7;
	assert_int_equal(nfs4_fattr_from_sattr3(&s, "0", NULL, &f), -EINVAL);
}

/* Every attribute that fills a fattr3, and the conversion. */
static void test_fattr_to_attr3(void **state)
{
	struct nfs4_fattr f, g;
	struct nfs4_attr3 a3;
	struct xdr_enc e;
	struct xdr_dec d;

	(void)state;
	memset(&f, 0, sizeof(f));
	f.mask = nfs4_fattr3_request;
	f.type = NF4LNK;
	f.change = 0x1122334455667788ull;
	f.size = 5;
	f.fsid.major = 1;
	f.fsid.minor = 2;
	f.fileid = 77;
	f.mode = 0120777;
	f.numlinks = 1;
	f.owner = nfs4_str("root@localdomain");
	f.owner_group = nfs4_str("4242");
	f.rawdev.specdata1 = 8;
	f.space_used = 4096;
	f.time_access.seconds = -5;
	f.time_modify.seconds = 0x1ffffffffll;
	f.time_metadata.seconds = 1000;
	f.time_metadata.nseconds = 999;
	f.mounted_on_fileid = 78;
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(nfs4_enc_fattr(&e, &f), 0);
	xdr_dec_init(&d, e.buf, e.len);
	assert_int_equal(nfs4_dec_fattr(&d, &g), 0);
	assert_int_equal(xdr_dec_left(&d), 0);
	assert_int_equal(nfs4_fattr_to_attr3(&g, &a3), 0);
	assert_int_equal(a3.attr.type, NF3LNK);
	assert_int_equal(a3.attr.mode, 0777);
	assert_true(a3.attr.fsid == (1ull ^ (2ull << 32)));
	assert_true(a3.attr.fileid == 77);
	assert_int_equal(a3.attr.rdev.specdata1, 8);
	/* Before 1970 and after 2106 as NFSv4 has them. */
	assert_true(a3.attr.atime.seconds == -5);
	assert_true(a3.attr.mtime.seconds == 0x1ffffffffll);
	assert_int_equal(a3.attr.ctime.seconds, 1000);
	assert_int_equal(a3.attr.ctime.nseconds, 999);
	assert_true(a3.change == 0x1122334455667788ull);
	assert_int_equal(a3.owner_group.len, 4);
	assert_memory_equal(a3.owner_group.s, "4242", 4);
	assert_int_equal(a3.attr.uid, 0);
	/* A server's most distant times are clamped where nanoseconds
	 * would no longer fit an int64. */
	g.time_access.seconds = INT64_MAX;
	g.time_modify.seconds = INT64_MIN;
	assert_int_equal(nfs4_fattr_to_attr3(&g, &a3), 0);
	assert_true(a3.attr.atime.seconds == NFSTIME3_SECONDS_MAX);
	assert_true(a3.attr.mtime.seconds == -NFSTIME3_SECONDS_MAX);
	xdr_check_truncations(dec_fattr, e.buf, e.len, sizeof(g));
	xdr_enc_release(&e);
}

static int walk_readdir(struct xdr_dec *d, void *res)
{
	struct nfs4_compound_res *r = res;
	struct nfs4_sequence_res seq;
	struct nfs4_status_res st;
	struct nfs4_readdir_res rd;

	if (nfs4_dec_compound_res(d, r) ||
	    nfs4_compound_next(r, NFS4OP_SEQUENCE, &seq) ||
	    nfs4_compound_next(r, NFS4OP_PUTFH, &st) ||
	    nfs4_compound_next(r, NFS4OP_READDIR, &rd))
		return -EBADMSG;
	*d = r->d;
	return 0;
}

/*
 * Real traffic: nfs-ganesha 4.3's reply to SEQUENCE, PUTFH, READDIR of a
 * directory holding a fifo, a symlink, a directory and two files, asked
 * for type, change, size, fsid, rdattr_error, filehandle, fileid, mode,
 * numlinks, owner, owner_group, rawdev, space_used, the times and
 * mounted_on_fileid.  The values checked are those tshark reads from the
 * same bytes.
 */
static const uint8_t ganesha_readdir[] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03,
	0x00, 0x00, 0x00, 0x35, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0xfe, 0xdb, 0x11, 0x6b, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x6a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x3f,
	0x00, 0x00, 0x00, 0x3f, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x16,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1a, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x4d, 0xeb, 0xf9, 0xc1, 0xf6, 0xed, 0xa9, 0xa2, 0x00, 0x00, 0x00, 0x04,
	0x66, 0x69, 0x66, 0x6f, 0x00, 0x00, 0x00, 0x02, 0x00, 0x18, 0x09, 0x1a,
	0x00, 0xb0, 0xa2, 0x3a, 0x00, 0x00, 0x00, 0xb8, 0x00, 0x00, 0x00, 0x07,
	0x18, 0xed, 0xda, 0xf0, 0x92, 0x22, 0x07, 0xc2, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x7f, 0x09, 0xa5, 0x52,
	0x00, 0x00, 0x00, 0x00, 0x9d, 0xef, 0xd3, 0xde, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x17, 0x43, 0x00, 0x00, 0x01, 0x12, 0x44, 0x52, 0xa5,
	0x09, 0x7f, 0xde, 0xd3, 0xef, 0x9d, 0x01, 0x79, 0xe0, 0x56, 0x00, 0xfd,
	0x50, 0x34, 0xdb, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x56, 0xe0, 0x79,
	0x00, 0x00, 0x01, 0xa4, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x10,
	0x72, 0x6f, 0x6f, 0x74, 0x40, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x64, 0x6f,
	0x6d, 0x61, 0x69, 0x6e, 0x00, 0x00, 0x00, 0x10, 0x72, 0x6f, 0x6f, 0x74,
	0x40, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x64, 0x6f, 0x6d, 0x61, 0x69, 0x6e,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x6b, 0x11, 0xdc, 0x09,
	0x0a, 0x18, 0xed, 0xc2, 0x00, 0x00, 0x00, 0x00, 0x6b, 0x11, 0xdc, 0x09,
	0x0a, 0x18, 0xed, 0xc2, 0x00, 0x00, 0x00, 0x00, 0x6b, 0x11, 0xdc, 0x09,
	0x0a, 0x18, 0xed, 0xc2, 0x00, 0x00, 0x00, 0x00, 0x00, 0x56, 0xe0, 0x79,
	0x00, 0x00, 0x00, 0x01, 0x54, 0xcc, 0xde, 0x4f, 0xc2, 0x08, 0x61, 0xa4,
	0x00, 0x00, 0x00, 0x04, 0x6c, 0x69, 0x6e, 0x6b, 0x00, 0x00, 0x00, 0x02,
	0x00, 0x18, 0x09, 0x1a, 0x00, 0xb0, 0xa2, 0x3a, 0x00, 0x00, 0x00, 0xb8,
	0x00, 0x00, 0x00, 0x05, 0x18, 0xed, 0xda, 0xf0, 0x8e, 0x51, 0x77, 0xc2,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00,
	0x7f, 0x09, 0xa5, 0x52, 0x00, 0x00, 0x00, 0x00, 0x9d, 0xef, 0xd3, 0xde,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x17, 0x43, 0x00, 0x00, 0x01,
	0x12, 0x44, 0x52, 0xa5, 0x09, 0x7f, 0xde, 0xd3, 0xef, 0x9d, 0x01, 0x2e,
	0xe0, 0x56, 0x00, 0x3c, 0x5c, 0x41, 0xc7, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x56, 0xe0, 0x2e, 0x00, 0x00, 0x01, 0xff, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x10, 0x72, 0x6f, 0x6f, 0x74, 0x40, 0x6c, 0x6f, 0x63,
	0x61, 0x6c, 0x64, 0x6f, 0x6d, 0x61, 0x69, 0x6e, 0x00, 0x00, 0x00, 0x10,
	0x72, 0x6f, 0x6f, 0x74, 0x40, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x64, 0x6f,
	0x6d, 0x61, 0x69, 0x6e, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x6b, 0x11, 0xdc, 0x09, 0x06, 0x9c, 0x38, 0x7a, 0x00, 0x00, 0x00, 0x00,
	0x6b, 0x11, 0xdc, 0x09, 0x06, 0x48, 0x5d, 0xc2, 0x00, 0x00, 0x00, 0x00,
	0x6b, 0x11, 0xdc, 0x09, 0x06, 0x48, 0x5d, 0xc2, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x56, 0xe0, 0x2e, 0x00, 0x00, 0x00, 0x01, 0x58, 0x3a, 0x64, 0xd7,
	0x30, 0x40, 0xba, 0x1e, 0x00, 0x00, 0x00, 0x03, 0x73, 0x75, 0x62, 0x00,
	0x00, 0x00, 0x00, 0x02, 0x00, 0x18, 0x09, 0x1a, 0x00, 0xb0, 0xa2, 0x3a,
	0x00, 0x00, 0x00, 0xb8, 0x00, 0x00, 0x00, 0x02, 0x18, 0xed, 0xda, 0xf0,
	0x86, 0x36, 0x45, 0xc2, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x7f, 0x09, 0xa5, 0x52, 0x00, 0x00, 0x00, 0x00,
	0x9d, 0xef, 0xd3, 0xde, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x17,
	0x43, 0x00, 0x00, 0x01, 0x12, 0x44, 0x52, 0xa5, 0x09, 0x7f, 0xde, 0xd3,
	0xef, 0x9d, 0x01, 0x70, 0xe0, 0x56, 0x00, 0xff, 0x95, 0xec, 0x71, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x56, 0xe0, 0x70, 0x00, 0x00, 0x01, 0xed,
	0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x10, 0x72, 0x6f, 0x6f, 0x74,
	0x40, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x64, 0x6f, 0x6d, 0x61, 0x69, 0x6e,
	0x00, 0x00, 0x00, 0x10, 0x72, 0x6f, 0x6f, 0x74, 0x40, 0x6c, 0x6f, 0x63,
	0x61, 0x6c, 0x64, 0x6f, 0x6d, 0x61, 0x69, 0x6e, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x6b, 0x11, 0xdc, 0x08, 0x39, 0xc7, 0xf5, 0xc2,
	0x00, 0x00, 0x00, 0x00, 0x6b, 0x11, 0xdc, 0x08, 0x39, 0xc7, 0xf5, 0xc2,
	0x00, 0x00, 0x00, 0x00, 0x6b, 0x11, 0xdc, 0x08, 0x39, 0xc7, 0xf5, 0xc2,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x56, 0xe0, 0x70, 0x00, 0x00, 0x00, 0x01,
	0x79, 0x64, 0x71, 0x58, 0x94, 0xa6, 0x7a, 0x14, 0x00, 0x00, 0x00, 0x05,
	0x61, 0x2e, 0x74, 0x78, 0x74, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
	0x00, 0x18, 0x09, 0x1a, 0x00, 0xb0, 0xa2, 0x3a, 0x00, 0x00, 0x00, 0xb8,
	0x00, 0x00, 0x00, 0x01, 0x18, 0xed, 0xda, 0xf0, 0x86, 0x8d, 0x21, 0x28,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x00,
	0x7f, 0x09, 0xa5, 0x52, 0x00, 0x00, 0x00, 0x00, 0x9d, 0xef, 0xd3, 0xde,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x17, 0x43, 0x00, 0x00, 0x01,
	0x12, 0x44, 0x52, 0xa5, 0x09, 0x7f, 0xde, 0xd3, 0xef, 0x9d, 0x01, 0x78,
	0xe0, 0x56, 0x00, 0x60, 0x55, 0x94, 0xb6, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x56, 0xe0, 0x78, 0x00, 0x00, 0x01, 0xa4, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x10, 0x72, 0x6f, 0x6f, 0x74, 0x40, 0x6c, 0x6f, 0x63,
	0x61, 0x6c, 0x64, 0x6f, 0x6d, 0x61, 0x69, 0x6e, 0x00, 0x00, 0x00, 0x10,
	0x72, 0x6f, 0x6f, 0x74, 0x40, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x64, 0x6f,
	0x6d, 0x61, 0x69, 0x6e, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x6b, 0x11, 0xdc, 0x08, 0x39, 0xc7, 0xf5, 0xc2, 0x00, 0x00, 0x00, 0x00,
	0x6b, 0x11, 0xdc, 0x08, 0x3a, 0x1e, 0xd1, 0x28, 0x00, 0x00, 0x00, 0x00,
	0x6b, 0x11, 0xdc, 0x08, 0x3a, 0x1e, 0xd1, 0x28, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x56, 0xe0, 0x78, 0x00, 0x00, 0x00, 0x01, 0x7f, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x03, 0x62, 0x69, 0x6e, 0x00,
	0x00, 0x00, 0x00, 0x02, 0x00, 0x18, 0x09, 0x1a, 0x00, 0xb0, 0xa2, 0x3a,
	0x00, 0x00, 0x00, 0xb8, 0x00, 0x00, 0x00, 0x01, 0x18, 0xed, 0xda, 0xf0,
	0x87, 0x67, 0x72, 0xc2, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x11, 0x70,
	0x00, 0x00, 0x00, 0x00, 0x7f, 0x09, 0xa5, 0x52, 0x00, 0x00, 0x00, 0x00,
	0x9d, 0xef, 0xd3, 0xde, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x17,
	0x43, 0x00, 0x00, 0x01, 0x12, 0x44, 0x52, 0xa5, 0x09, 0x7f, 0xde, 0xd3,
	0xef, 0x9d, 0x01, 0x24, 0xe0, 0x56, 0x00, 0x7b, 0x9e, 0xb7, 0x78, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x56, 0xe0, 0x24, 0x00, 0x00, 0x01, 0xa4,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x10, 0x72, 0x6f, 0x6f, 0x74,
	0x40, 0x6c, 0x6f, 0x63, 0x61, 0x6c, 0x64, 0x6f, 0x6d, 0x61, 0x69, 0x6e,
	0x00, 0x00, 0x00, 0x10, 0x72, 0x6f, 0x6f, 0x74, 0x40, 0x6c, 0x6f, 0x63,
	0x61, 0x6c, 0x64, 0x6f, 0x6d, 0x61, 0x69, 0x6e, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x20, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x6b, 0x11, 0xdc, 0x08, 0x3a, 0x7f, 0x10, 0xc2,
	0x00, 0x00, 0x00, 0x00, 0x6b, 0x11, 0xdc, 0x08, 0x3a, 0xf9, 0x22, 0xc2,
	0x00, 0x00, 0x00, 0x00, 0x6b, 0x11, 0xdc, 0x08, 0x3a, 0xf9, 0x22, 0xc2,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x56, 0xe0, 0x24, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
};

static void test_real_readdir(void **state)
{
	static const char *const names[] = { "fifo", "link", "sub", "a.txt",
					     "bin" };
	static const uint64_t cookies[] = {
		5614855971914230178ull, 6110503228574032292ull,
		6357504699377170974ull, 8747241001525344788ull,
		9223372036854775807ull };
	static const uint32_t types[] = { NF4FIFO, NF4LNK, NF4DIR, NF4REG,
					  NF4REG };
	static const uint64_t sizes[] = { 0, 5, 4096, 6, 70000 };
	static const uint32_t modes[] = { 0644, 0777, 0755, 0644, 0644 };
	static const uint64_t fileids[] = { 5693561, 5693486, 5693552,
					    5693560, 5693476 };
	struct nfs4_compound_res r;
	struct nfs4_sequence_res seq;
	struct nfs4_status_res st;
	struct nfs4_readdir_res rd;
	struct nfs4_entry e;
	struct nfs4_attr3 a3;
	struct xdr_dec d;

	(void)state;
	xdr_dec_init(&d, ganesha_readdir, sizeof(ganesha_readdir));
	assert_int_equal(nfs4_dec_compound_res(&d, &r), 0);
	assert_int_equal(r.nres, 3);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_SEQUENCE, &seq), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_PUTFH, &st), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_READDIR, &rd), 0);
	assert_int_equal(xdr_dec_left(&r.d), 0);
	assert_int_equal(rd.status, NFS4_OK);
	assert_int_equal(rd.nentries, 5);
	assert_true(rd.eof);
	for (int i = 0; i < 5; i++) {
		assert_int_equal(nfs4_readdir_next(&rd.entries, &e), 1);
		assert_int_equal(e.name.len, strlen(names[i]));
		assert_memory_equal(e.name.s, names[i], e.name.len);
		assert_true(e.cookie == cookies[i]);
		assert_false(e.attrs.skipped);
		assert_int_equal(e.attrs.type, types[i]);
		assert_true(e.attrs.size == sizes[i]);
		assert_int_equal(e.attrs.mode, modes[i]);
		assert_true(e.attrs.fileid == fileids[i]);
		assert_int_equal(e.attrs.filehandle.len, 23);
		assert_int_equal(e.attrs.rdattr_error, NFS4_OK);
		assert_int_equal(e.attrs.owner.len, 16);
		assert_memory_equal(e.attrs.owner.s, "root@localdomain", 16);
		assert_int_equal(nfs4_fattr_to_attr3(&e.attrs, &a3), 0);
		assert_int_equal(a3.attr.type, types[i]);
		assert_true(a3.attr.fileid == fileids[i]);
	}
	assert_int_equal(nfs4_readdir_next(&rd.entries, &e), 0);
	xdr_check_truncations(walk_readdir, ganesha_readdir,
			      sizeof(ganesha_readdir), sizeof(r));
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(nfs4_op_name(NFS4OP_SEQUENCE), "SEQUENCE");
	assert_string_equal(nfs4_op_name(NFS4OP_CLONE), "CLONE");
	assert_string_equal(nfs4_op_name(NFS4OP_REMOVEXATTR), "REMOVEXATTR");
	assert_null(nfs4_op_name(76));
	assert_string_equal(nfs4_cb_op_name(NFS4CBOP_RECALL), "CB_RECALL");
	assert_string_equal(nfs4_stat_name(NFS4ERR_BADSESSION),
			    "NFS4ERR_BADSESSION");
	assert_null(nfs4_stat_name(10073));
	for (uint32_t op = 0; op < 80; op++) {
		const struct xdr_proc_codec *c = nfs4_op_codec(op);

		if (c) {
			assert_int_equal(c->proc, op);
			assert_string_equal(c->name, nfs4_op_name(op));
			assert_non_null(c->dec_res);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compound_encode),
		cmocka_unit_test(test_compound_limits),
		cmocka_unit_test(test_reply_walk),
		cmocka_unit_test(test_reply_failures),
		cmocka_unit_test(test_exchange_id),
		cmocka_unit_test(test_create_session),
		cmocka_unit_test(test_sequence_and_small_ops),
		cmocka_unit_test(test_fattr_known),
		cmocka_unit_test(test_fattr_hostile),
		cmocka_unit_test(test_fattr_from_sattr3),
		cmocka_unit_test(test_fattr_to_attr3),
		cmocka_unit_test(test_real_readdir),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
