/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The --revoke parsers and rewrites of the delegation proxy
 * (revoke_compound.c), checked against the project's own NFSv4 codecs:
 * the flag OR-ed into a SEQUENCE result, the FREE_STATEID the client
 * encodes read back, and a DELEGRETURN or FREE_STATEID result added to a
 * reply that the client's decoders read as meant.  Known offsets, and
 * every truncated prefix refused without reading past its end (run under
 * ASan to see the latter).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "revoke.h"
#include "rpc_msg.h"

static const uint8_t sessionid[NFS4_SESSIONID_SIZE] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static const struct nfs4_fh file_fh = { 6, { 0xf1, 0xf2, 0xf3, 0xf4, 0xf5,
					     0xf6 } };
static const uint8_t proxy_other[NFS4_OTHER_SIZE] = {
	'D', 'L', 'G', 'P', 0, 0, 0, 0, 0, 0, 0, 7 };

/* The offset of sr_status_flags in reply_seq_putfh(): RPC reply header
 * (24), status, tag "", count, SEQUENCE's op and status, sessionid and
 * four counters. */
#define FLAGS_AT (24 + 4 + 4 + 4 + 8 + 16 + 16)
#define REPLY_LEN (FLAGS_AT + 4 + 8)

/* A reply as the test server sends one to SEQUENCE PUTFH: xid 0x1234,
 * accepted, AUTH_NONE verifier, success; SEQUENCE with flags, PUTFH. */
static void reply_seq_putfh(uint8_t r[REPLY_LEN], uint32_t flags)
{
	size_t n = 0;

	memset(r, 0, REPLY_LEN);
	xdr_put_u32(r + n, 0x1234), n += 4;
	xdr_put_u32(r + n, RPC_REPLY), n += 4;
	n += 4 * 4; /* accepted, verf flavor, verf length, success */
	n += 4 + 4; /* status, tag */
	xdr_put_u32(r + n, 2), n += 4;
	xdr_put_u32(r + n, NFS4OP_SEQUENCE), n += 4;
	n += 4; /* NFS4_OK */
	memcpy(r + n, sessionid, 16), n += 16;
	xdr_put_u32(r + n, 9), n += 4;      /* sequenceid */
	n += 4;                              /* slotid */
	xdr_put_u32(r + n, 63), n += 4;     /* highest_slotid */
	xdr_put_u32(r + n, 63), n += 4;     /* target_highest_slotid */
	assert_int_equal(n, FLAGS_AT);
	xdr_put_u32(r + n, flags), n += 4;
	xdr_put_u32(r + n, NFS4OP_PUTFH), n += 4;
	n += 4;
	assert_int_equal(n, REPLY_LEN);
}

/* The reply decoded by the client's codecs: its SEQUENCE result. */
static void dec_seq(const uint8_t *p, size_t len,
		    struct nfs4_compound_res *r, struct nfs4_sequence_res *sr)
{
	struct xdr_dec d;

	xdr_dec_init(&d, p + 24, len - 24);
	assert_int_equal(nfs4_dec_compound_res(&d, r), 0);
	assert_int_equal(nfs4_compound_next(r, NFS4OP_SEQUENCE, sr), 0);
}

static void test_seq_flags(void **state)
{
	struct nfs4_compound_res r;
	struct nfs4_sequence_res sr;
	struct nfs4_status_res st;
	uint8_t reply[REPLY_LEN];
	size_t at, n;

	(void)state;
	reply_seq_putfh(reply, NFS4_SEQ4_STATUS_CB_PATH_DOWN);
	assert_int_equal(dp_seq_flags_at(reply, sizeof(reply), &at), 0);
	assert_int_equal(at, FLAGS_AT);
	xdr_put_u32(reply + at, xdr_get_u32(reply + at) |
		    NFS4_SEQ4_STATUS_RECALLABLE_STATE_REVOKED);
	dec_seq(reply, sizeof(reply), &r, &sr);
	assert_int_equal(sr.status, NFS4_OK);
	assert_int_equal(sr.sequenceid, 9);
	assert_int_equal(sr.status_flags,
			 NFS4_SEQ4_STATUS_CB_PATH_DOWN |
			 NFS4_SEQ4_STATUS_RECALLABLE_STATE_REVOKED);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_PUTFH, &st), 0);
	assert_int_equal(xdr_dec_left(&r.d), 0);

	/* Every prefix that cuts into the SEQUENCE result is refused; one
	 * that holds it whole finds the same place (the rest is not read:
	 * the flag is all that changes). */
	for (n = 0; n < sizeof(reply); n++) {
		uint8_t *cp = malloc(n ? n : 1);

		assert_non_null(cp);
		memcpy(cp, reply, n);
		if (n < FLAGS_AT + 4) {
			assert_int_equal(dp_seq_flags_at(cp, n, &at), -1);
		} else {
			assert_int_equal(dp_seq_flags_at(cp, n, &at), 0);
			assert_int_equal(at, FLAGS_AT);
		}
		free(cp);
	}
}

/* What carries no SEQUENCE result to flag is left alone. */
static void test_seq_flags_refused(void **state)
{
	uint8_t reply[REPLY_LEN];
	size_t at;

	(void)state;
	/* A SEQUENCE that failed has no resok. */
	reply_seq_putfh(reply, 0);
	xdr_put_u32(reply + 24, NFS4ERR_BADSESSION);
	xdr_put_u32(reply + 40, NFS4ERR_BADSESSION);
	assert_int_equal(dp_seq_flags_at(reply, 44, &at), -1);
	assert_int_equal(dp_seq_flags_at(reply, sizeof(reply), &at), -1);
	/* Another first operation (EXCHANGE_ID, CREATE_SESSION). */
	reply_seq_putfh(reply, 0);
	xdr_put_u32(reply + 36, NFS4OP_CREATE_SESSION);
	assert_int_equal(dp_seq_flags_at(reply, sizeof(reply), &at), -1);
	/* No result at all. */
	reply_seq_putfh(reply, 0);
	xdr_put_u32(reply + 32, 0);
	assert_int_equal(dp_seq_flags_at(reply, sizeof(reply), &at), -1);
	/* A call (our CB_RECALL goes the same way), a denied reply, an
	 * RPC error. */
	reply_seq_putfh(reply, 0);
	xdr_put_u32(reply + 4, RPC_CALL);
	assert_int_equal(dp_seq_flags_at(reply, sizeof(reply), &at), -1);
	reply_seq_putfh(reply, 0);
	xdr_put_u32(reply + 8, MSG_DENIED);
	assert_int_equal(dp_seq_flags_at(reply, sizeof(reply), &at), -1);
	reply_seq_putfh(reply, 0);
	xdr_put_u32(reply + 20, RPC_GARBAGE_ARGS);
	assert_int_equal(dp_seq_flags_at(reply, sizeof(reply), &at), -1);
}

/* SEQUENCE PUTFH FREE_STATEID, as the client encodes it (ops: 2 more
 * after SEQUENCE); extra: one more operation after it. */
static void free_call(struct xdr_enc *e, bool extra)
{
	struct rpc_cred cred = { .flavor = RPC_AUTH_SYS, .machinename = "h",
				 .uid = 1, .gid = 1 };
	struct nfs4_sequence_args seq = { .sequenceid = 9 };
	struct nfs4_stateid_args fa = { { 1, { 0 } } };
	struct nfs4_compound c;

	memcpy(seq.sessionid, sessionid, sizeof(sessionid));
	memcpy(fa.stateid.other, proxy_other, NFS4_OTHER_SIZE);
	assert_int_equal(xdr_enc_init(e, 512, 0), 0);
	assert_int_equal(rpcmsg_enc_call(e, 0x1234, NFS4_PROGRAM, NFS4_VERSION,
					 NFS4_PROC_COMPOUND, &cred), 0);
	assert_int_equal(nfs4_compound_start(&c, e, "", 1), 0);
	assert_int_equal(nfs4_add_sequence(&c, &seq), 0);
	assert_int_equal(nfs4_add_putfh(&c, &(struct nfs4_putfh_args){
		file_fh }), 0);
	assert_int_equal(nfs4_add_free_stateid(&c, &fa), 0);
	if (extra)
		assert_int_equal(nfs4_add_getfh(&c), 0);
	assert_int_equal(xdr_enc_error(e), 0);
}

static void test_free_stateid(void **state)
{
	struct dp_call ci, ci2;
	struct xdr_enc e;
	uint8_t sid[16];
	uint8_t *out;
	size_t olen, n;

	(void)state;
	free_call(&e, false);
	assert_int_equal(dp_parse_call(e.buf, e.len, &ci), 0);
	assert_true(ci.have_fh);
	assert_int_equal(ci.op, NFS4OP_FREE_STATEID);
	assert_int_equal(ci.nops, 3);
	assert_int_equal(dp_free_stateid_arg(e.buf, e.len, &ci, sid), 0);
	assert_int_equal(xdr_get_u32(sid), 1);
	assert_memory_equal(sid + 4, proxy_other, NFS4_OTHER_SIZE);
	/* FREE_STATEID4args is the stateid alone: 20 bytes with the op. */
	assert_int_equal(ci.op_at + 20, e.len);

	/* Cut off as revoke.c does: SEQUENCE PUTFH go on. */
	ci.op_last = true;
	assert_int_equal(dp_strip_last(e.buf, e.len, &ci, &out, &olen), 0);
	assert_int_equal(olen, e.len - 20);
	assert_int_equal(dp_parse_call(out, olen, &ci2), 0);
	assert_int_equal(ci2.nops, 2);
	assert_int_equal(ci2.op, 0);
	free(out);

	/* Every prefix refused: the stateid must end the message. */
	for (n = 0; n < e.len; n++) {
		uint8_t *cp = malloc(n ? n : 1);

		assert_non_null(cp);
		memcpy(cp, e.buf, n);
		if (dp_parse_call(cp, n, &ci2) == 0)
			assert_int_equal(dp_free_stateid_arg(cp, n, &ci2, sid),
					 -1);
		free(cp);
	}
	/* A parse of the whole message applied to a shorter one. */
	assert_int_equal(dp_free_stateid_arg(e.buf, ci.op_at + 19, &ci, sid),
			 -1);
	assert_int_equal(dp_free_stateid_arg(e.buf, ci.op_at, &ci, sid), -1);
	assert_int_equal(dp_free_stateid_arg(e.buf, 0, &ci, sid), -1);
	xdr_enc_release(&e);

	/* Not last in its compound: not ours to cut. */
	free_call(&e, true);
	assert_int_equal(dp_parse_call(e.buf, e.len, &ci), 0);
	assert_int_equal(ci.op, NFS4OP_FREE_STATEID);
	assert_int_equal(dp_free_stateid_arg(e.buf, e.len, &ci, sid), -1);
	xdr_enc_release(&e);
}

/* The reply to SEQUENCE PUTFH given the DELEGRETURN result
 * NFS4ERR_DELEG_REVOKED, or the FREE_STATEID result NFS4_OK. */
static void test_append_result(void **state)
{
	struct nfs4_compound_res r;
	struct nfs4_sequence_res sr;
	struct nfs4_status_res st;
	uint8_t reply[REPLY_LEN], longer[REPLY_LEN + 4] = { 0 };
	uint8_t *out;
	size_t olen, n;

	(void)state;
	reply_seq_putfh(reply, 0);
	assert_int_equal(dp_append_result(reply, sizeof(reply),
					  NFS4OP_DELEGRETURN,
					  NFS4ERR_DELEG_REVOKED, &out, &olen),
			 0);
	assert_int_equal(olen, sizeof(reply) + 8);
	assert_int_equal(xdr_get_u32(out + 24), NFS4ERR_DELEG_REVOKED);
	dec_seq(out, olen, &r, &sr);
	assert_int_equal(r.status, NFS4ERR_DELEG_REVOKED);
	assert_int_equal(r.nres, 3);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_PUTFH, &st), 0);
	assert_int_equal(st.status, NFS4_OK);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_DELEGRETURN, &st), 0);
	assert_int_equal(st.status, NFS4ERR_DELEG_REVOKED);
	assert_true(r.stopped);
	assert_int_equal(xdr_dec_left(&r.d), 0);
	free(out);

	assert_int_equal(dp_append_result(reply, sizeof(reply),
					  NFS4OP_FREE_STATEID, NFS4_OK, &out,
					  &olen), 0);
	dec_seq(out, olen, &r, &sr);
	assert_int_equal(r.status, NFS4_OK);
	assert_int_equal(r.nres, 3);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_PUTFH, &st), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_FREE_STATEID, &st), 0);
	assert_int_equal(st.status, NFS4_OK);
	assert_false(r.stopped);
	assert_int_equal(xdr_dec_left(&r.d), 0);
	free(out);

	/* Every prefix refused, and a reply with more after its results
	 * or another result in it. */
	for (n = 0; n < sizeof(reply); n++) {
		uint8_t *cp = malloc(n ? n : 1);

		assert_non_null(cp);
		memcpy(cp, reply, n);
		assert_int_equal(dp_append_result(cp, n, NFS4OP_DELEGRETURN,
						  NFS4ERR_DELEG_REVOKED, &out,
						  &olen), -1);
		free(cp);
	}
	memcpy(longer, reply, sizeof(reply));
	assert_int_equal(dp_append_result(longer, sizeof(longer),
					  NFS4OP_DELEGRETURN, NFS4_OK, &out,
					  &olen), -1);
	xdr_put_u32(reply + FLAGS_AT + 4, NFS4OP_GETFH);
	assert_int_equal(dp_append_result(reply, sizeof(reply),
					  NFS4OP_DELEGRETURN, NFS4_OK, &out,
					  &olen), -1);
	/* A failed PUTFH: the call was not run, nothing is added. */
	reply_seq_putfh(reply, 0);
	xdr_put_u32(reply + FLAGS_AT + 8, NFS4ERR_STALE);
	assert_int_equal(dp_append_result(reply, sizeof(reply),
					  NFS4OP_DELEGRETURN, NFS4_OK, &out,
					  &olen), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seq_flags),
		cmocka_unit_test(test_seq_flags_refused),
		cmocka_unit_test(test_free_stateid),
		cmocka_unit_test(test_append_result),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
