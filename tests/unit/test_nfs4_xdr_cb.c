/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4.1 callback codecs: CB_COMPOUND both ways, CB_SEQUENCE with its
 * referring calls, CB_RECALL, CB_GETATTR, CB_NOTIFY_LOCK, CB_RECALL_ANY,
 * CB_LAYOUTRECALL, and the answers to callbacks this code does not
 * decode.  Known answers worked by hand from the RFC 8881 XDR.
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
#define ST U32(1), 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, \
	0xa8, 0xa9, 0xaa, 0xab
#define FH U32(4), 0xde, 0xad, 0xbe, 0xef

static const uint8_t sessionid[NFS4_SESSIONID_SIZE] = { SID };
static const struct nfs4_stateid st = {
	1, { 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9,
	     0xaa, 0xab } };
static const struct nfs4_fh fh = { 4, { 0xde, 0xad, 0xbe, 0xef } };

/* tag "", minor 1, ident 0: CB_SEQUENCE (referring: slot 7 seq 3 ... ),
 * CB_RECALL */
static const uint8_t cb_args[] = {
	U32(0), U32(1), U32(0), U32(2),
	U32(11), SID, U32(5), U32(0), U32(0), U32(0),
		U32(1), SID, U32(1), U32(7), U32(3),
	U32(4), ST, U32(0), FH,
};

static void test_cb_compound_args(void **state)
{
	struct nfs4_cb_referring ref = { { SID }, 7, 3 };
	struct nfs4_cb_sequence_args seq = {
		.sequenceid = 5, .nreferring = 1, .referring = &ref };
	struct nfs4_cb_recall_args rc = { st, false, fh };
	struct nfs4_cb_compound_args a;
	struct nfs4_cb_referring_it it;
	struct nfs4_cb_referring c;
	union nfs4_cb_args u;
	struct nfs4_compound cc;
	struct xdr_enc e;
	struct xdr_dec d;
	uint32_t op;

	(void)state;
	memcpy(seq.sessionid, sessionid, sizeof(sessionid));
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	nfs4_cb_compound_start(&cc, &e, "", 1, 0);
	assert_int_equal(nfs4_cb_compound_add(&cc, NFS4CBOP_SEQUENCE, &seq), 0);
	assert_int_equal(nfs4_cb_compound_add(&cc, NFS4CBOP_RECALL, &rc), 0);
	assert_int_equal(e.len, sizeof(cb_args));
	assert_memory_equal(e.buf, cb_args, sizeof(cb_args));
	xdr_enc_release(&e);

	xdr_dec_init(&d, cb_args, sizeof(cb_args));
	assert_int_equal(nfs4_cb_dec_compound_args(&d, &a), 0);
	assert_int_equal(a.minorversion, 1);
	assert_int_equal(a.nops, 2);
	assert_int_equal(nfs4_cb_next_op(&a, &op, &u), 1);
	assert_int_equal(op, NFS4CBOP_SEQUENCE);
	assert_memory_equal(u.sequence.sessionid, sessionid, sizeof(sessionid));
	assert_int_equal(u.sequence.sequenceid, 5);
	assert_int_equal(u.sequence.nreferring, 1);
	nfs4_cb_referring_start(&u.sequence, &it);
	assert_int_equal(nfs4_cb_referring_next(&it, &c), 1);
	assert_int_equal(c.sequenceid, 7);
	assert_int_equal(c.slotid, 3);
	assert_int_equal(nfs4_cb_referring_next(&it, &c), 0);
	assert_int_equal(nfs4_cb_next_op(&a, &op, &u), 1);
	assert_int_equal(op, NFS4CBOP_RECALL);
	assert_int_equal(u.recall.stateid.seqid, 1);
	assert_int_equal(u.recall.fh.len, 4);
	assert_false(u.recall.truncate);
	assert_int_equal(nfs4_cb_next_op(&a, &op, &u), 0);
	assert_int_equal(xdr_dec_left(&a.d), 0);

	/* Every truncation of the CB_SEQUENCE arguments is refused. */
	xdr_check_truncations(nfs4_dec_cb_sequence_args, cb_args + 20,
			      sizeof(cb_args) - 20 - 32, sizeof(u.sequence));
	/* re-encoded from what was decoded: the raw lists go back */
	xdr_dec_init(&d, cb_args + 20, sizeof(cb_args) - 20 - 32);
	assert_int_equal(nfs4_dec_cb_sequence_args(&d, &u.sequence), 0);
	xdr_check_encoding(nfs4_enc_cb_sequence_args, &u.sequence,
			   cb_args + 20, sizeof(cb_args) - 20 - 32);
}

/* CB_SEQUENCE OK, CB_RECALL OK */
static const uint8_t cb_reply[] = {
	U32(0), U32(0), U32(2),
	U32(11), U32(0), SID, U32(5), U32(0), U32(0), U32(0),
	U32(4), U32(0),
};

static void test_cb_reply(void **state)
{
	struct nfs4_cb_sequence_res sr = { .sequenceid = 5 };
	struct nfs4_status_res ok = { NFS4_OK };
	struct nfs4_compound_res r;
	struct nfs4_cb_sequence_res sr2;
	struct nfs4_status_res st2;
	struct nfs4_cb_reply rep;
	struct xdr_enc e;
	struct xdr_dec d;

	(void)state;
	memcpy(sr.sessionid, sessionid, sizeof(sessionid));
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	nfs4_cb_reply_start(&rep, &e, NULL);
	assert_int_equal(nfs4_cb_reply_add(&rep, NFS4CBOP_SEQUENCE, &sr), 0);
	assert_int_equal(nfs4_cb_reply_add(&rep, NFS4CBOP_RECALL, &ok), 0);
	assert_int_equal(e.len, sizeof(cb_reply));
	assert_memory_equal(e.buf, cb_reply, sizeof(cb_reply));
	xdr_enc_release(&e);

	xdr_dec_init(&d, cb_reply, sizeof(cb_reply));
	assert_int_equal(nfs4_cb_dec_compound_res(&d, &r), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4CBOP_SEQUENCE, &sr2), 0);
	assert_int_equal(sr2.sequenceid, 5);
	assert_int_equal(nfs4_compound_next(&r, NFS4CBOP_RECALL, &st2), 0);
	assert_int_equal(st2.status, NFS4_OK);
	assert_int_equal(nfs4_compound_next(&r, NFS4CBOP_RECALL, &st2),
			 -ENODATA);
}

/* CB_NOTIFY (not decoded here) after CB_SEQUENCE, and a number outside
 * the protocol: answered NOTSUPP and OP_ILLEGAL. */
static void test_cb_unsupported(void **state)
{
	static const uint8_t args[] = {
		U32(1), 'x', 0, 0, 0, U32(1), U32(0), U32(2),
		U32(11), SID, U32(5), U32(0), U32(0), U32(0), U32(0),
		U32(6), U32(0xffffffff) };
	static const uint8_t want_notsupp[] = {
		U32(10004), U32(1), 'x', 0, 0, 0, U32(2),
		U32(11), U32(0), SID, U32(5), U32(0), U32(0), U32(0),
		U32(6), U32(10004) };
	static const uint8_t want_illegal[] = {
		U32(10044), U32(0), U32(1), U32(10044), U32(10044) };
	struct nfs4_cb_sequence_res sr = { .sequenceid = 5 };
	struct nfs4_cb_compound_args a;
	struct nfs4_cb_reply rep;
	union nfs4_cb_args u;
	struct xdr_enc e;
	struct xdr_dec d;
	uint32_t op;

	(void)state;
	memcpy(sr.sessionid, sessionid, sizeof(sessionid));
	xdr_dec_init(&d, args, sizeof(args));
	assert_int_equal(nfs4_cb_dec_compound_args(&d, &a), 0);
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	nfs4_cb_reply_start(&rep, &e, &a.tag);
	assert_int_equal(nfs4_cb_next_op(&a, &op, &u), 1);
	nfs4_cb_reply_add(&rep, op, &sr);
	assert_int_equal(nfs4_cb_next_op(&a, &op, &u), -EOPNOTSUPP);
	assert_int_equal(op, NFS4CBOP_NOTIFY);
	assert_int_equal(nfs4_cb_reply_unsupported(&rep, op), 0);
	assert_int_equal(e.len, sizeof(want_notsupp));
	assert_memory_equal(e.buf, want_notsupp, sizeof(want_notsupp));
	xdr_enc_release(&e);

	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	nfs4_cb_reply_start(&rep, &e, NULL);
	assert_int_equal(nfs4_cb_reply_unsupported(&rep, 77), 0);
	assert_int_equal(e.len, sizeof(want_illegal));
	assert_memory_equal(e.buf, want_illegal, sizeof(want_illegal));
	xdr_enc_release(&e);
}

static void test_cb_getattr(void **state)
{
	static const uint8_t args[] = { FH, U32(1), U32(0x18) };
	static const uint8_t res[] = { U32(0), U32(1), U32(0x18), U32(16),
				       U64(9), U64(4096) };
	struct nfs4_cb_getattr_args a;
	struct nfs4_getattr_res r;
	struct nfs4_cb_reply rep;
	struct xdr_enc e;

	(void)state;
	free(xdr_check_decode_all(nfs4_dec_cb_getattr_args, args, sizeof(args),
				  &a, sizeof(a)));
	assert_true(nfs4_bitmap_isset(&a.request, NFS4_FATTR_CHANGE));
	assert_true(nfs4_bitmap_isset(&a.request, NFS4_FATTR_SIZE));
	memset(&r, 0, sizeof(r));
	nfs4_bitmap_set(&r.attrs.mask, NFS4_FATTR_CHANGE);
	nfs4_bitmap_set(&r.attrs.mask, NFS4_FATTR_SIZE);
	r.attrs.change = 9;
	r.attrs.size = 4096;
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	nfs4_cb_reply_start(&rep, &e, NULL);
	assert_int_equal(nfs4_cb_reply_add(&rep, NFS4CBOP_GETATTR, &r), 0);
	assert_int_equal(e.len, 12 + 4 + sizeof(res));
	assert_memory_equal(e.buf + 16, res, sizeof(res));
	xdr_enc_release(&e);
}

static void test_cb_small(void **state)
{
	static const uint8_t notify_lock[] = { FH, U64(9), U32(2), 'l', 'k',
					       0, 0 };
	static const uint8_t recall_any[] = { U32(0), U32(1), U32(3) };
	static const uint8_t lr_file[] = { U32(1), U32(3), U32(1), U32(1), FH,
					   U64(0), U64(UINT64_MAX), ST };
	static const uint8_t lr_fsid[] = { U32(1), U32(1), U32(0), U32(2),
					   U64(1), U64(2) };
	static const uint8_t lr_all[] = { U32(1), U32(1), U32(0), U32(3) };
	static const uint8_t lr_bad[] = { U32(1), U32(1), U32(0), U32(4) };
	static const uint8_t seq_huge[] = { SID, U32(1), U32(0), U32(0),
					    U32(0), U32(0x10000000) };
	struct nfs4_cb_notify_lock_args nl;
	struct nfs4_cb_recall_any_args ra;
	struct nfs4_cb_layoutrecall_args lr;
	struct nfs4_cb_sequence_args sq;
	struct xdr_dec d;
	uint8_t *copy;

	(void)state;
	copy = xdr_check_decode_all(nfs4_dec_cb_notify_lock_args, notify_lock,
				    sizeof(notify_lock), &nl, sizeof(nl));
	assert_true(nl.lock_owner.clientid == 9);
	assert_memory_equal(nl.lock_owner.owner, "lk", 2);
	xdr_check_encoding(nfs4_enc_cb_notify_lock_args, &nl, notify_lock,
			   sizeof(notify_lock));
	free(copy);
	free(xdr_check_decode_all(nfs4_dec_cb_recall_any_args, recall_any,
				  sizeof(recall_any), &ra, sizeof(ra)));
	assert_int_equal(ra.type_mask.w[0], 3);
	free(xdr_check_decode_all(nfs4_dec_cb_layoutrecall_args, lr_file,
				  sizeof(lr_file), &lr, sizeof(lr)));
	assert_int_equal(lr.recall_type, NFS4_LAYOUTRECALL_FILE);
	assert_true(lr.changed);
	assert_true(lr.length == UINT64_MAX);
	xdr_check_encoding(nfs4_enc_cb_layoutrecall_args, &lr, lr_file,
			   sizeof(lr_file));
	free(xdr_check_decode_all(nfs4_dec_cb_layoutrecall_args, lr_fsid,
				  sizeof(lr_fsid), &lr, sizeof(lr)));
	assert_true(lr.fsid.minor == 2);
	free(xdr_check_decode_all(nfs4_dec_cb_layoutrecall_args, lr_all,
				  sizeof(lr_all), &lr, sizeof(lr)));
	xdr_dec_init(&d, lr_bad, sizeof(lr_bad));
	assert_int_equal(nfs4_dec_cb_layoutrecall_args(&d, &lr), -EBADMSG);
	xdr_dec_init(&d, seq_huge, sizeof(seq_huge));
	assert_int_equal(nfs4_dec_cb_sequence_args(&d, &sq), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cb_compound_args),
		cmocka_unit_test(test_cb_reply),
		cmocka_unit_test(test_cb_unsupported),
		cmocka_unit_test(test_cb_getattr),
		cmocka_unit_test(test_cb_small),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
