/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The delegation proxy's parsers and rewrites (compound.c), checked
 * against the project's own NFSv4 codecs: calls built with the client's
 * encoders are read as the client meant them, and what the proxy writes
 * (a granted read or write delegation, a DELEGRETURN cut off or
 * answered, a CB_RECALL, a CB_GETATTR, a CB_NOTIFY_LOCK, a GETATTR reply
 * with the holder's size) is read back by the client's decoders.  Every
 * truncation of every message is refused or read without going past its
 * end (run under ASan to see the latter).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "delegproxy.h"
#include "rpc_msg.h"

static const uint8_t sessionid[NFS4_SESSIONID_SIZE] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static const struct nfs4_fh file_fh = { 6, { 0xf1, 0xf2, 0xf3, 0xf4, 0xf5,
					     0xf6 } };
static const uint8_t owner[] = "open-owner";
static const uint8_t proxy_other[NFS4_OTHER_SIZE] = {
	'D', 'L', 'G', 'P', 0, 0, 0, 0, 0, 0, 0, 7 };

/* An RPC COMPOUND call: header with AUTH_SYS, then the operations added
 * by add(). */
static void call_start(struct xdr_enc *e, struct nfs4_compound *c)
{
	struct rpc_cred cred = { .flavor = RPC_AUTH_SYS, .machinename = "h",
				 .uid = 1, .gid = 1 };
	struct nfs4_sequence_args seq = { .sequenceid = 9 };

	memcpy(seq.sessionid, sessionid, sizeof(sessionid));
	assert_int_equal(xdr_enc_init(e, 512, 0), 0);
	assert_int_equal(rpcmsg_enc_call(e, 0x1234, NFS4_PROGRAM, NFS4_VERSION,
					 NFS4_PROC_COMPOUND, &cred), 0);
	assert_int_equal(nfs4_compound_start(c, e, "", 1), 0);
	assert_int_equal(nfs4_add_sequence(c, &seq), 0);
}

/* Every prefix of a message is refused or read without a fault. */
static void truncations(const uint8_t *p, size_t len)
{
	struct dp_call ci;
	struct dp_reply ri;
	size_t n;

	for (n = 0; n < len; n++) {
		uint8_t *cp = malloc(n ? n : 1);

		assert_non_null(cp);
		memcpy(cp, p, n);
		(void)dp_parse_call(cp, n, &ci);
		(void)dp_parse_reply(cp, n, &ri);
		free(cp);
	}
}

static void test_open_call(void **state)
{
	struct nfs4_open_args oa = {
		.share_access = NFS4_SHARE_ACCESS_READ |
				NFS4_SHARE_WANT_READ_DELEG,
		.owner = { 5, owner, sizeof(owner) - 1 },
		.opentype = NFS4_OPEN_NOCREATE, .claim = NFS4_CLAIM_FH };
	struct nfs4_getattr_args ga = { .request = nfs4_fattr3_request };
	struct nfs4_compound c;
	struct xdr_enc e;
	struct dp_call ci;

	(void)state;
	call_start(&e, &c);
	assert_int_equal(nfs4_add_putfh(&c, &(struct nfs4_putfh_args){
		file_fh }), 0);
	assert_int_equal(nfs4_add_open(&c, &oa), 0);
	assert_int_equal(nfs4_add_getattr(&c, &ga), 0);
	assert_int_equal(xdr_enc_error(&e), 0);

	assert_int_equal(dp_parse_call(e.buf, e.len, &ci), 0);
	assert_int_equal(ci.xid, 0x1234);
	assert_int_equal(ci.nops, 4);
	assert_true(ci.have_fh);
	assert_int_equal(ci.fhlen, file_fh.len);
	assert_memory_equal(ci.fh, file_fh.data, file_fh.len);
	assert_int_equal(ci.op, NFS4OP_OPEN);
	assert_int_equal(ci.share_access & 3, NFS4_SHARE_ACCESS_READ);
	assert_int_equal(ci.claim, NFS4_CLAIM_FH);
	assert_false(ci.op_last);
	truncations(e.buf, e.len);
	xdr_enc_release(&e);
}

static void test_create_call(void **state)
{
	struct nfs4_open_args oa = {
		.share_access = NFS4_SHARE_ACCESS_BOTH,
		.owner = { 5, owner, sizeof(owner) - 1 },
		.opentype = NFS4_OPEN_CREATE,
		.createmode = NFS4_CREATE_EXCLUSIVE4_1,
		.verifier = { 1, 2, 3, 4, 5, 6, 7, 8 },
		.claim = NFS4_CLAIM_NULL, .name = nfs4_str("newfile") };
	struct nfs4_compound c;
	struct xdr_enc e;
	struct dp_call ci;

	(void)state;
	nfs4_bitmap_set(&oa.createattrs.mask, NFS4_FATTR_MODE);
	oa.createattrs.mode = 0644;
	call_start(&e, &c);
	assert_int_equal(nfs4_add_putfh(&c, &(struct nfs4_putfh_args){
		file_fh }), 0);
	assert_int_equal(nfs4_add_open(&c, &oa), 0);
	assert_int_equal(nfs4_add_getfh(&c), 0);
	assert_int_equal(xdr_enc_error(&e), 0);

	assert_int_equal(dp_parse_call(e.buf, e.len, &ci), 0);
	assert_int_equal(ci.op, NFS4OP_OPEN);
	assert_int_equal(ci.share_access, NFS4_SHARE_ACCESS_BOTH);
	assert_int_equal(ci.claim, NFS4_CLAIM_NULL);
	truncations(e.buf, e.len);
	xdr_enc_release(&e);
}

/* SEQUENCE PUTFH DELEGRETURN: the last operation cut off, and the reply
 * to what is left given its result back. */
static void test_delegreturn(void **state)
{
	struct nfs4_stateid_args da = { { 1, { 0 } } };
	struct nfs4_compound c;
	struct nfs4_compound_res r;
	struct nfs4_sequence_res sr;
	struct nfs4_status_res st;
	struct xdr_enc e;
	struct xdr_dec d;
	struct dp_call ci, ci2;
	struct dp_reply ri;
	uint8_t *out, *out2;
	size_t olen, olen2;
	/* reply: xid, REPLY, accepted, verf none, success; status 0, tag "",
	 * SEQUENCE and PUTFH results */
	uint8_t reply[24 + 8 + 4 + (8 + 16 + 20) + 8] = { 0 };
	size_t n = 0;

	(void)state;
	memcpy(da.stateid.other, proxy_other, NFS4_OTHER_SIZE);
	call_start(&e, &c);
	assert_int_equal(nfs4_add_putfh(&c, &(struct nfs4_putfh_args){
		file_fh }), 0);
	assert_int_equal(nfs4_add_delegreturn(&c, &da), 0);
	assert_int_equal(xdr_enc_error(&e), 0);
	assert_int_equal(dp_parse_call(e.buf, e.len, &ci), 0);
	assert_int_equal(ci.op, NFS4OP_DELEGRETURN);
	assert_true(ci.op_last);
	assert_int_equal(xdr_get_u32(ci.stateid), 1);
	assert_memory_equal(ci.stateid + 4, proxy_other, NFS4_OTHER_SIZE);

	assert_int_equal(dp_strip_last(e.buf, e.len, &ci, &out, &olen), 0);
	assert_int_equal(olen, e.len - 20);
	assert_int_equal(dp_parse_call(out, olen, &ci2), 0);
	assert_int_equal(ci2.nops, 2);
	assert_int_equal(ci2.op, 0);
	free(out);
	truncations(e.buf, e.len);
	xdr_enc_release(&e);

	/* Not last: refused. */
	ci.op_last = false;
	assert_int_equal(dp_strip_last(reply, sizeof(reply), &ci, &out, &olen),
			 -1);

	xdr_put_u32(reply + n, 0x1234), n += 4;
	xdr_put_u32(reply + n, RPC_REPLY), n += 4;
	n += 4 * 4; /* accepted, verf flavor, verf length, success */
	n += 4 + 4; /* status, tag */
	xdr_put_u32(reply + n, 2), n += 4;
	xdr_put_u32(reply + n, NFS4OP_SEQUENCE), n += 4;
	n += 4; /* NFS4_OK */
	memcpy(reply + n, sessionid, 16), n += 16;
	n += 20;
	xdr_put_u32(reply + n, NFS4OP_PUTFH), n += 4;
	n += 4;
	assert_int_equal(n, sizeof(reply));
	assert_int_equal(dp_parse_reply(reply, n, &ri), 0);
	assert_int_equal(ri.status, NFS4_OK);
	assert_int_equal(ri.nres, 2);
	assert_int_equal(dp_append_ok(reply, n, &ri, NFS4OP_DELEGRETURN,
				      &out2, &olen2), 0);
	assert_int_equal(olen2, n + 8);
	xdr_dec_init(&d, out2 + 24, olen2 - 24);
	assert_int_equal(nfs4_dec_compound_res(&d, &r), 0);
	assert_int_equal(r.nres, 3);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_SEQUENCE, &sr), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_PUTFH, &st), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_DELEGRETURN, &st), 0);
	assert_int_equal(st.status, NFS4_OK);
	assert_int_equal(xdr_dec_left(&r.d), 0);
	free(out2);
	truncations(reply, n);
}

/* An OPEN reply as the test server sends it (no delegation, why
 * NOT_SUPP_FTYPE), rewritten to carry a read delegation. */
static void test_grant(void **state)
{
	struct nfs4_open_res orr = {
		.stateid = { 1, { 0x51, 0x52 } },
		.rflags = NFS4_OPEN_RESULT_LOCKTYPE_POSIX,
		.delegation = { .type = NFS4_OPEN_DELEGATE_NONE_EXT,
				.why_none = NFS4_WND_NOT_SUPP_FTYPE } };
	struct nfs4_compound_res r;
	struct nfs4_sequence_res sr;
	struct nfs4_status_res st;
	struct nfs4_open_res got;
	struct nfs4_getattr_res gr;
	struct dp_reply ri;
	struct xdr_enc e;
	struct xdr_dec d;
	uint8_t *out;
	size_t olen;

	(void)state;
	assert_int_equal(xdr_enc_init(&e, 512, 0), 0);
	xdr_enc_u32(&e, 0x77);
	xdr_enc_u32(&e, RPC_REPLY);
	xdr_enc_u32(&e, MSG_ACCEPTED);
	xdr_enc_u32(&e, RPC_AUTH_NONE);
	xdr_enc_u32(&e, 0);
	xdr_enc_u32(&e, RPC_SUCCESS);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_u32(&e, 0);
	xdr_enc_u32(&e, 4);
	xdr_enc_u32(&e, NFS4OP_SEQUENCE);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_opaque_fixed(&e, sessionid, 16);
	xdr_enc_reserve(&e, 20);
	xdr_enc_u32(&e, NFS4OP_PUTFH);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_u32(&e, NFS4OP_OPEN);
	assert_int_equal(nfs4_enc_open_res(&e, &orr), 0);
	xdr_enc_u32(&e, NFS4OP_GETATTR);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_u32(&e, 0); /* empty bitmap */
	xdr_enc_u32(&e, 0); /* no values */
	assert_int_equal(xdr_enc_error(&e), 0);

	assert_int_equal(dp_parse_reply(e.buf, e.len, &ri), 0);
	assert_int_equal(ri.xid, 0x77);
	assert_true(ri.have_open);
	assert_int_equal(ri.deleg_type, NFS4_OPEN_DELEGATE_NONE_EXT);
	assert_int_equal(xdr_get_u32(ri.open_stateid), 1);
	assert_int_equal(ri.deleg_end - ri.deleg_at, 8);
	assert_int_equal(dp_grant_read(e.buf, e.len, &ri, proxy_other, &out,
				       &olen), 0);

	xdr_dec_init(&d, out + 24, olen - 24);
	assert_int_equal(nfs4_dec_compound_res(&d, &r), 0);
	assert_int_equal(r.status, NFS4_OK);
	assert_int_equal(r.nres, 4);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_SEQUENCE, &sr), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_PUTFH, &st), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_OPEN, &got), 0);
	assert_int_equal(got.status, NFS4_OK);
	assert_memory_equal(&got.stateid, &orr.stateid, sizeof(orr.stateid));
	assert_int_equal(got.delegation.type, NFS4_OPEN_DELEGATE_READ);
	assert_int_equal(got.delegation.stateid.seqid, 1);
	assert_memory_equal(got.delegation.stateid.other, proxy_other,
			    NFS4_OTHER_SIZE);
	assert_false(got.delegation.recall);
	assert_int_equal(got.delegation.permissions.type,
			 NFS4_ACE_ACCESS_ALLOWED_ACE_TYPE);
	assert_true(got.delegation.permissions.access_mask &
		    NFS4_ACE_READ_DATA);
	assert_int_equal(got.delegation.permissions.who.len, 9);
	assert_memory_equal(got.delegation.permissions.who.s, "EVERYONE@", 9);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_GETATTR, &gr), 0);
	assert_int_equal(xdr_dec_left(&r.d), 0);

	/* The rewritten reply reads as granted: a second grant finds it. */
	assert_int_equal(dp_parse_reply(out, olen, &ri), 0);
	assert_int_equal(ri.deleg_type, NFS4_OPEN_DELEGATE_READ);
	truncations(out, olen);
	truncations(e.buf, e.len);
	free(out);
	xdr_enc_release(&e);
}

/* The CB_RECALL the proxy sends, read by the client's callback decoder. */
static void test_cb_recall(void **state)
{
	uint8_t sid[16];
	struct nfs4_cb_compound_args a;
	union nfs4_cb_args u;
	struct xdr_dec d;
	uint8_t *out;
	size_t olen;
	uint32_t op;

	(void)state;
	xdr_put_u32(sid, 1);
	memcpy(sid + 4, proxy_other, NFS4_OTHER_SIZE);
	assert_int_equal(dp_cb_recall(0xabc, 0x40000000, sessionid, 3, sid,
				      file_fh.data, file_fh.len, &out, &olen),
			 0);
	assert_true(olen > 40);
	assert_int_equal(xdr_get_u32(out), 0xabc);
	assert_int_equal(xdr_get_u32(out + 4), RPC_CALL);
	assert_int_equal(xdr_get_u32(out + 12), 0x40000000);
	assert_int_equal(xdr_get_u32(out + 16), 1);
	assert_int_equal(xdr_get_u32(out + 20), NFS4_CB_PROC_COMPOUND);
	xdr_dec_init(&d, out + 40, olen - 40);
	assert_int_equal(nfs4_cb_dec_compound_args(&d, &a), 0);
	assert_int_equal(a.minorversion, 1);
	assert_int_equal(a.nops, 2);
	assert_int_equal(nfs4_cb_next_op(&a, &op, &u), 1);
	assert_int_equal(op, NFS4CBOP_SEQUENCE);
	assert_memory_equal(u.sequence.sessionid, sessionid, 16);
	assert_int_equal(u.sequence.sequenceid, 3);
	assert_int_equal(u.sequence.slotid, 0);
	assert_int_equal(u.sequence.nreferring, 0);
	assert_int_equal(nfs4_cb_next_op(&a, &op, &u), 1);
	assert_int_equal(op, NFS4CBOP_RECALL);
	assert_int_equal(u.recall.stateid.seqid, 1);
	assert_memory_equal(u.recall.stateid.other, proxy_other,
			    NFS4_OTHER_SIZE);
	assert_false(u.recall.truncate);
	assert_int_equal(u.recall.fh.len, file_fh.len);
	assert_memory_equal(u.recall.fh.data, file_fh.data, file_fh.len);
	assert_int_equal(nfs4_cb_next_op(&a, &op, &u), 0);
	free(out);
}

static const uint8_t lock_owner[] = "posix:00000000000004d2";

/* SEQUENCE PUTFH LOCK as the client sends a blocking lock: first with a
 * new lock-owner (open_to_lock_owner4), then with its lock stateid. */
static void test_lock_call(void **state)
{
	struct nfs4_lock_args la = {
		.locktype = NFS4_WRITEW_LT, .offset = 0, .length = UINT64_MAX,
		.new_lock_owner = true, .open_seqid = 0,
		.open_stateid = { 1, { 0x0a, 0x0b } }, .lock_seqid = 0,
		.lock_owner = { 0x1122334455667788ull, lock_owner,
				sizeof(lock_owner) - 1 } };
	struct nfs4_compound c;
	struct xdr_enc e;
	struct dp_call ci;

	(void)state;
	call_start(&e, &c);
	assert_int_equal(nfs4_add_putfh(&c, &(struct nfs4_putfh_args){
		file_fh }), 0);
	assert_int_equal(nfs4_add_lock(&c, &la), 0);
	assert_int_equal(xdr_enc_error(&e), 0);
	assert_int_equal(dp_parse_call(e.buf, e.len, &ci), 0);
	assert_true(ci.have_fh);
	assert_memory_equal(ci.fh, file_fh.data, file_fh.len);
	assert_int_equal(ci.op, NFS4OP_LOCK);
	assert_int_equal(ci.locktype, NFS4_WRITEW_LT);
	assert_true(ci.new_lock_owner);
	assert_true(ci.owner_fits);
	assert_true(ci.lock_owner.clientid == 0x1122334455667788ull);
	assert_int_equal(ci.lock_owner.len, sizeof(lock_owner) - 1);
	assert_memory_equal(ci.lock_owner.owner, lock_owner,
			    sizeof(lock_owner) - 1);
	truncations(e.buf, e.len);
	xdr_enc_release(&e);

	la.new_lock_owner = false;
	la.locktype = NFS4_READW_LT;
	la.lock_seqid = 2;
	la.lock_stateid = (struct nfs4_stateid){ 3, { 0x4c, 0x4b } };
	call_start(&e, &c);
	assert_int_equal(nfs4_add_putfh(&c, &(struct nfs4_putfh_args){
		file_fh }), 0);
	assert_int_equal(nfs4_add_lock(&c, &la), 0);
	assert_int_equal(xdr_enc_error(&e), 0);
	assert_int_equal(dp_parse_call(e.buf, e.len, &ci), 0);
	assert_int_equal(ci.op, NFS4OP_LOCK);
	assert_int_equal(ci.locktype, NFS4_READW_LT);
	assert_false(ci.new_lock_owner);
	assert_int_equal(xdr_get_u32(ci.stateid), 3);
	assert_int_equal(ci.stateid[4], 0x4c);
	assert_int_equal(ci.stateid[5], 0x4b);
	truncations(e.buf, e.len);
	xdr_enc_release(&e);
}

/* A lock-owner longer than the proxy keeps: parsed, not kept. */
static void test_lock_call_long_owner(void **state)
{
	uint8_t big[DP_OWNER_MAX + 1];
	struct nfs4_lock_args la = {
		.locktype = NFS4_WRITEW_LT, .length = 10,
		.new_lock_owner = true,
		.lock_owner = { 1, big, sizeof(big) } };
	struct nfs4_compound c;
	struct xdr_enc e;
	struct dp_call ci;

	(void)state;
	memset(big, 'o', sizeof(big));
	call_start(&e, &c);
	assert_int_equal(nfs4_add_putfh(&c, &(struct nfs4_putfh_args){
		file_fh }), 0);
	assert_int_equal(nfs4_add_lock(&c, &la), 0);
	assert_int_equal(xdr_enc_error(&e), 0);
	assert_int_equal(dp_parse_call(e.buf, e.len, &ci), 0);
	assert_int_equal(ci.op, NFS4OP_LOCK);
	assert_true(ci.new_lock_owner);
	assert_false(ci.owner_fits);
	xdr_enc_release(&e);
}

static void test_locku_call(void **state)
{
	struct nfs4_locku_args ua = {
		.locktype = NFS4_WRITE_LT, .seqid = 4,
		.stateid = { 5, { 0x55, 0x56 } }, .offset = 0,
		.length = UINT64_MAX };
	struct nfs4_compound c;
	struct xdr_enc e;
	struct dp_call ci;

	(void)state;
	call_start(&e, &c);
	assert_int_equal(nfs4_add_putfh(&c, &(struct nfs4_putfh_args){
		file_fh }), 0);
	assert_int_equal(nfs4_add_locku(&c, &ua), 0);
	assert_int_equal(xdr_enc_error(&e), 0);
	assert_int_equal(dp_parse_call(e.buf, e.len, &ci), 0);
	assert_int_equal(ci.op, NFS4OP_LOCKU);
	assert_int_equal(ci.locktype, NFS4_WRITE_LT);
	assert_int_equal(xdr_get_u32(ci.stateid), 5);
	assert_int_equal(ci.stateid[4], 0x55);
	truncations(e.buf, e.len);
	xdr_enc_release(&e);
}

/* A reply SEQUENCE PUTFH op(status) with what follows the status. */
static void lock_reply(struct xdr_enc *e, uint32_t op, uint32_t status)
{
	assert_int_equal(xdr_enc_init(e, 512, 0), 0);
	xdr_enc_u32(e, 0x99);
	xdr_enc_u32(e, RPC_REPLY);
	xdr_enc_u32(e, MSG_ACCEPTED);
	xdr_enc_u32(e, RPC_AUTH_NONE);
	xdr_enc_u32(e, 0);
	xdr_enc_u32(e, RPC_SUCCESS);
	xdr_enc_u32(e, status);
	xdr_enc_u32(e, 0);
	xdr_enc_u32(e, 3);
	xdr_enc_u32(e, NFS4OP_SEQUENCE);
	xdr_enc_u32(e, NFS4_OK);
	xdr_enc_opaque_fixed(e, sessionid, 16);
	xdr_enc_reserve(e, 20);
	xdr_enc_u32(e, NFS4OP_PUTFH);
	xdr_enc_u32(e, NFS4_OK);
	xdr_enc_u32(e, op);
	xdr_enc_u32(e, status);
}

static void test_lock_replies(void **state)
{
	const struct nfs4_stateid granted = { 1, { 0x6c, 0x6b } };
	struct nfs4_owner holder = { 7, owner, sizeof(owner) - 1 };
	struct dp_reply ri;
	struct xdr_enc e;

	(void)state;
	/* LOCK4denied: offset, length, locktype, the holder's owner */
	lock_reply(&e, NFS4OP_LOCK, NFS4ERR_DENIED);
	xdr_enc_u64(&e, 0);
	xdr_enc_u64(&e, UINT64_MAX);
	xdr_enc_u32(&e, NFS4_WRITE_LT);
	assert_int_equal(nfs4_enc_owner(&e, &holder), 0);
	assert_int_equal(xdr_enc_error(&e), 0);
	assert_int_equal(dp_parse_reply(e.buf, e.len, &ri), 0);
	assert_int_equal(ri.status, NFS4ERR_DENIED);
	assert_int_equal(ri.last_op, NFS4OP_LOCK);
	assert_int_equal(ri.last_status, NFS4ERR_DENIED);
	assert_false(ri.have_stateid);
	truncations(e.buf, e.len);
	xdr_enc_release(&e);

	lock_reply(&e, NFS4OP_LOCK, NFS4_OK);
	assert_int_equal(nfs4_enc_stateid(&e, &granted), 0);
	assert_int_equal(xdr_enc_error(&e), 0);
	assert_int_equal(dp_parse_reply(e.buf, e.len, &ri), 0);
	assert_int_equal(ri.last_op, NFS4OP_LOCK);
	assert_int_equal(ri.last_status, NFS4_OK);
	assert_true(ri.have_stateid);
	assert_int_equal(xdr_get_u32(ri.stateid), 1);
	assert_int_equal(ri.stateid[4], 0x6c);
	truncations(e.buf, e.len);
	xdr_enc_release(&e);

	lock_reply(&e, NFS4OP_LOCKU, NFS4_OK);
	assert_int_equal(nfs4_enc_stateid(&e, &granted), 0);
	assert_int_equal(xdr_enc_error(&e), 0);
	assert_int_equal(dp_parse_reply(e.buf, e.len, &ri), 0);
	assert_int_equal(ri.last_op, NFS4OP_LOCKU);
	assert_int_equal(ri.last_status, NFS4_OK);
	assert_true(ri.have_stateid);
	xdr_enc_release(&e);
}

/* The CB_NOTIFY_LOCK the proxy sends, read by the client's callback
 * decoder. */
static void test_cb_notify_lock(void **state)
{
	struct dp_owner o = { .clientid = 0x0102030405060708ull,
			      .len = sizeof(lock_owner) - 1 };
	struct nfs4_cb_compound_args a;
	union nfs4_cb_args u;
	struct xdr_dec d;
	uint8_t *out;
	size_t olen;
	uint32_t op;

	(void)state;
	memcpy(o.owner, lock_owner, o.len);
	assert_int_equal(dp_cb_notify_lock(0xdef, 0x40000000, sessionid, 5,
					   file_fh.data, file_fh.len, &o, &out,
					   &olen), 0);
	assert_int_equal(xdr_get_u32(out), 0xdef);
	assert_int_equal(xdr_get_u32(out + 4), RPC_CALL);
	assert_int_equal(xdr_get_u32(out + 12), 0x40000000);
	assert_int_equal(xdr_get_u32(out + 20), NFS4_CB_PROC_COMPOUND);
	xdr_dec_init(&d, out + 40, olen - 40);
	assert_int_equal(nfs4_cb_dec_compound_args(&d, &a), 0);
	assert_int_equal(a.minorversion, 1);
	assert_int_equal(a.nops, 2);
	assert_int_equal(nfs4_cb_next_op(&a, &op, &u), 1);
	assert_int_equal(op, NFS4CBOP_SEQUENCE);
	assert_memory_equal(u.sequence.sessionid, sessionid, 16);
	assert_int_equal(u.sequence.sequenceid, 5);
	assert_int_equal(u.sequence.slotid, 0);
	assert_int_equal(nfs4_cb_next_op(&a, &op, &u), 1);
	assert_int_equal(op, NFS4CBOP_NOTIFY_LOCK);
	assert_int_equal(u.notify_lock.fh.len, file_fh.len);
	assert_memory_equal(u.notify_lock.fh.data, file_fh.data, file_fh.len);
	assert_true(u.notify_lock.lock_owner.clientid ==
		    0x0102030405060708ull);
	assert_int_equal(u.notify_lock.lock_owner.owner_len, o.len);
	assert_memory_equal(u.notify_lock.lock_owner.owner, lock_owner,
			    o.len);
	assert_int_equal(nfs4_cb_next_op(&a, &op, &u), 0);
	assert_int_equal(xdr_dec_left(&a.d), 0);
	free(out);

	/* An owner longer than a dp_owner holds is refused. */
	o.len = DP_OWNER_MAX + 1;
	assert_int_equal(dp_cb_notify_lock(1, 1, sessionid, 1, file_fh.data,
					   file_fh.len, &o, &out, &olen), -1);
}

/* OPEN(CLAIM_FH) for reading and writing that wants a write delegation:
 * the WANT bits are kept beside the access. */
static void test_open_call_want_write(void **state)
{
	struct nfs4_open_args oa = {
		.share_access = NFS4_SHARE_ACCESS_BOTH |
				NFS4_SHARE_WANT_WRITE_DELEG,
		.owner = { 5, owner, sizeof(owner) - 1 },
		.opentype = NFS4_OPEN_NOCREATE, .claim = NFS4_CLAIM_FH };
	struct nfs4_compound c;
	struct xdr_enc e;
	struct dp_call ci;

	(void)state;
	call_start(&e, &c);
	assert_int_equal(nfs4_add_putfh(&c, &(struct nfs4_putfh_args){
		file_fh }), 0);
	assert_int_equal(nfs4_add_open(&c, &oa), 0);
	assert_int_equal(xdr_enc_error(&e), 0);
	assert_int_equal(dp_parse_call(e.buf, e.len, &ci), 0);
	assert_int_equal(ci.op, NFS4OP_OPEN);
	assert_int_equal(ci.claim, NFS4_CLAIM_FH);
	assert_int_equal(ci.share_access, 0x0203);
	truncations(e.buf, e.len);
	xdr_enc_release(&e);
}

/* An OPEN reply of the test server, given a write delegation: read back
 * by the client's decoder, and the bytes of open_write_delegation4 known. */
static void test_grant_write(void **state)
{
	static const uint8_t want[] = {
		0, 0, 0, 2,                           /* OPEN_DELEGATE_WRITE */
		0, 0, 0, 1, 'D', 'L', 'G', 'P', 0, 0, 0, 0, 0, 0, 0, 7,
		0, 0, 0, 0,                           /* recall false */
		0, 0, 0, 1,                           /* NFS_LIMIT_SIZE */
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0, 0, 0, 0, 0, 0, 0, 0,               /* ALLOWED, no flags */
		0, 0x12, 0, 0xa1,                     /* READ_DATA, EXECUTE,
						 * READ_ATTRIBUTES, READ_ACL,
						 * SYNCHRONIZE */
		0, 0, 0, 9, 'E', 'V', 'E', 'R', 'Y', 'O', 'N', 'E', '@', 0, 0,
		0 };
	struct nfs4_open_res orr = {
		.stateid = { 1, { 0x51, 0x52 } },
		.delegation = { .type = NFS4_OPEN_DELEGATE_NONE_EXT,
				.why_none = NFS4_WND_NOT_SUPP_FTYPE } };
	struct nfs4_compound_res r;
	struct nfs4_sequence_res sr;
	struct nfs4_status_res st;
	struct nfs4_open_res got;
	struct dp_reply ri;
	struct xdr_enc e;
	struct xdr_dec d;
	uint8_t *out;
	size_t olen;

	(void)state;
	assert_int_equal(xdr_enc_init(&e, 512, 0), 0);
	assert_int_equal(rpcmsg_enc_accepted_reply(&e, 0x78, RPC_SUCCESS), 0);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_u32(&e, 0);
	xdr_enc_u32(&e, 3);
	xdr_enc_u32(&e, NFS4OP_SEQUENCE);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_opaque_fixed(&e, sessionid, 16);
	xdr_enc_reserve(&e, 20);
	xdr_enc_u32(&e, NFS4OP_PUTFH);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_u32(&e, NFS4OP_OPEN);
	assert_int_equal(nfs4_enc_open_res(&e, &orr), 0);
	assert_int_equal(xdr_enc_error(&e), 0);

	assert_int_equal(dp_parse_reply(e.buf, e.len, &ri), 0);
	assert_true(ri.have_open);
	assert_int_equal(dp_grant_write(e.buf, e.len, &ri, proxy_other, &out,
					&olen), 0);
	assert_int_equal(olen, e.len - (ri.deleg_end - ri.deleg_at) +
			 sizeof(want));
	assert_memory_equal(out + ri.deleg_at, want, sizeof(want));

	xdr_dec_init(&d, out + 24, olen - 24);
	assert_int_equal(nfs4_dec_compound_res(&d, &r), 0);
	assert_int_equal(r.nres, 3);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_SEQUENCE, &sr), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_PUTFH, &st), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_OPEN, &got), 0);
	assert_int_equal(got.delegation.type, NFS4_OPEN_DELEGATE_WRITE);
	assert_int_equal(got.delegation.stateid.seqid, 1);
	assert_memory_equal(got.delegation.stateid.other, proxy_other,
			    NFS4_OTHER_SIZE);
	assert_false(got.delegation.recall);
	assert_int_equal(got.delegation.limitby, NFS4_LIMIT_SIZE);
	assert_true(got.delegation.filesize == UINT64_MAX);
	assert_int_equal(got.delegation.permissions.who.len, 9);
	assert_int_equal(xdr_dec_left(&r.d), 0);

	/* Read again, it is a write delegation: no second grant. */
	assert_int_equal(dp_parse_reply(out, olen, &ri), 0);
	assert_int_equal(ri.deleg_type, NFS4_OPEN_DELEGATE_WRITE);
	truncations(out, olen);
	free(out);
	xdr_enc_release(&e);
}

/* The CB_GETATTR the proxy sends, read by the client's callback decoder. */
static void test_cb_getattr(void **state)
{
	struct nfs4_cb_compound_args a;
	union nfs4_cb_args u;
	struct xdr_dec d;
	uint8_t *out;
	size_t olen;
	uint32_t op;

	(void)state;
	assert_int_equal(dp_cb_getattr(0xabd, 0x40000000, sessionid, 4,
				       file_fh.data, file_fh.len, &out, &olen),
			 0);
	assert_int_equal(xdr_get_u32(out), 0xabd);
	assert_int_equal(xdr_get_u32(out + 4), RPC_CALL);
	assert_int_equal(xdr_get_u32(out + 12), 0x40000000);
	assert_int_equal(xdr_get_u32(out + 20), NFS4_CB_PROC_COMPOUND);
	/* ... CB_GETATTR, fh<6> padded to 8, bitmap4 {CHANGE | SIZE} */
	assert_int_equal(xdr_get_u32(out + olen - 8), 1);
	assert_int_equal(xdr_get_u32(out + olen - 4), 0x18);
	assert_int_equal(xdr_get_u32(out + olen - 24), NFS4CBOP_GETATTR);
	xdr_dec_init(&d, out + 40, olen - 40);
	assert_int_equal(nfs4_cb_dec_compound_args(&d, &a), 0);
	assert_int_equal(a.minorversion, 1);
	assert_int_equal(a.nops, 2);
	assert_int_equal(nfs4_cb_next_op(&a, &op, &u), 1);
	assert_int_equal(op, NFS4CBOP_SEQUENCE);
	assert_int_equal(u.sequence.sequenceid, 4);
	assert_int_equal(u.sequence.slotid, 0);
	assert_int_equal(nfs4_cb_next_op(&a, &op, &u), 1);
	assert_int_equal(op, NFS4CBOP_GETATTR);
	assert_int_equal(u.getattr.fh.len, file_fh.len);
	assert_memory_equal(u.getattr.fh.data, file_fh.data, file_fh.len);
	assert_true(nfs4_bitmap_isset(&u.getattr.request, NFS4_FATTR_SIZE));
	assert_true(nfs4_bitmap_isset(&u.getattr.request, NFS4_FATTR_CHANGE));
	assert_false(nfs4_bitmap_isset(&u.getattr.request, NFS4_FATTR_TYPE));
	assert_int_equal(nfs4_cb_next_op(&a, &op, &u), 0);
	assert_int_equal(xdr_dec_left(&a.d), 0);
	free(out);
}

/* The client's answer to CB_GETATTR, built with its own encoder:
 * CB_SEQUENCE, then CB_GETATTR with status and (when OK) attributes. */
static void cb_getattr_answer(struct xdr_enc *e, uint32_t status,
			      const struct nfs4_fattr *f)
{
	struct nfs4_cb_sequence_res sr = { .status = NFS4_OK,
					   .sequenceid = 4 };
	struct nfs4_getattr_res gr = { .status = status };
	struct nfs4_cb_reply r;

	memcpy(sr.sessionid, sessionid, sizeof(sessionid));
	if (f)
		gr.attrs = *f;
	assert_int_equal(xdr_enc_init(e, 256, 0), 0);
	assert_int_equal(rpcmsg_enc_accepted_reply(e, 0xabd, RPC_SUCCESS), 0);
	assert_int_equal(nfs4_cb_reply_start(&r, e, NULL), 0);
	assert_int_equal(nfs4_cb_reply_add(&r, NFS4CBOP_SEQUENCE, &sr), 0);
	assert_int_equal(nfs4_cb_reply_add(&r, NFS4CBOP_GETATTR, &gr), 0);
	assert_int_equal(xdr_enc_error(e), 0);
}

/* Every prefix of a CB_GETATTR answer is refused. */
static void cb_getattr_truncations(const uint8_t *p, size_t len)
{
	struct dp_cb_attrs a;
	size_t n;

	for (n = 0; n < len; n++) {
		uint8_t *cp = malloc(n ? n : 1);

		assert_non_null(cp);
		memcpy(cp, p, n);
		assert_int_equal(dp_cb_getattr_reply(cp, n, &a), -1);
		free(cp);
	}
}

static void test_cb_getattr_reply(void **state)
{
	/* Known answer: the reply header, status 0, tag "", 2 results,
	 * CB_SEQUENCE OK (sessionid, 4, 0, 0, 0), CB_GETATTR OK with
	 * bitmap {CHANGE | SIZE} and 16 bytes: change 77, size 1234. */
	uint8_t kat[24 + 12 + 8 + 32 + 8 + 8 + 4 + 16] = { 0 };
	struct nfs4_fattr f = { .change = 77, .size = 1234 };
	struct dp_cb_attrs a;
	struct xdr_enc e;
	uint8_t *big;
	size_t n = 0;

	(void)state;
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_CHANGE);
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_SIZE);
	cb_getattr_answer(&e, NFS4_OK, &f);

	xdr_put_u32(kat + n, 0xabd), n += 4;
	xdr_put_u32(kat + n, RPC_REPLY), n += 4;
	n += 16;                               /* accepted, AUTH_NONE, OK */
	n += 8;                                /* status, tag */
	xdr_put_u32(kat + n, 2), n += 4;
	xdr_put_u32(kat + n, NFS4CBOP_SEQUENCE), n += 4;
	n += 4;
	memcpy(kat + n, sessionid, 16), n += 16;
	xdr_put_u32(kat + n, 4), n += 16;
	xdr_put_u32(kat + n, NFS4CBOP_GETATTR), n += 4;
	n += 4;
	xdr_put_u32(kat + n, 1), n += 4;
	xdr_put_u32(kat + n, 0x18), n += 4;
	xdr_put_u32(kat + n, 16), n += 4;
	xdr_put_u32(kat + n + 4, 77), n += 8;
	xdr_put_u32(kat + n + 4, 1234), n += 8;
	assert_int_equal(n, sizeof(kat));
	assert_int_equal(e.len, sizeof(kat));
	assert_memory_equal(e.buf, kat, sizeof(kat));

	assert_int_equal(dp_cb_getattr_reply(e.buf, e.len, &a), 0);
	assert_int_equal(a.status, NFS4_OK);
	assert_true(a.have_size && a.have_change);
	assert_true(a.size == 1234);
	assert_true(a.change == 77);
	cb_getattr_truncations(e.buf, e.len);

	/* One byte too many is no answer either. */
	big = malloc(e.len + 4);
	assert_non_null(big);
	memcpy(big, e.buf, e.len);
	memset(big + e.len, 0, 4);
	assert_int_equal(dp_cb_getattr_reply(big, e.len + 4, &a), -1);
	free(big);
	xdr_enc_release(&e);

	/* Only the size, with the type before it (walked over). */
	memset(&f.mask, 0, sizeof(f.mask));
	f.type = NF4REG;
	f.size = (1ull << 40) + 5;
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_TYPE);
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_SIZE);
	cb_getattr_answer(&e, NFS4_OK, &f);
	assert_int_equal(dp_cb_getattr_reply(e.buf, e.len, &a), 0);
	assert_true(a.have_size);
	assert_false(a.have_change);
	assert_true(a.size == (1ull << 40) + 5);
	cb_getattr_truncations(e.buf, e.len);
	xdr_enc_release(&e);

	/* The holder does not know the file. */
	cb_getattr_answer(&e, NFS4ERR_BADHANDLE, NULL);
	assert_int_equal(dp_cb_getattr_reply(e.buf, e.len, &a), 0);
	assert_int_equal(a.status, NFS4ERR_BADHANDLE);
	assert_false(a.have_size || a.have_change);
	cb_getattr_truncations(e.buf, e.len);
	xdr_enc_release(&e);
}

/* A GETATTR reply of the server (SEQUENCE PUTFH GETATTR) with attrs. */
static void getattr_reply(struct xdr_enc *e, const struct nfs4_fattr *f)
{
	lock_reply(e, NFS4OP_GETATTR, NFS4_OK);
	assert_int_equal(nfs4_enc_fattr(e, f), 0);
	assert_int_equal(xdr_enc_error(e), 0);
}

static void test_patch_size(void **state)
{
	struct nfs4_fattr f = { .type = NF4REG, .fh_expire_type = 0,
				.change = 99, .size = 100, .mode = 0644,
				.numlinks = 1, .fileid = 42 };
	struct nfs4_compound_res r;
	struct nfs4_sequence_res sr;
	struct nfs4_status_res st;
	struct nfs4_getattr_res gr;
	struct dp_reply ri;
	struct xdr_enc e;
	struct xdr_dec d;
	uint8_t *out;
	size_t olen, n, m;

	(void)state;
	nfs4_bitmap_set(&f.supported_attrs, NFS4_FATTR_SIZE);
	nfs4_bitmap_set(&f.supported_attrs, NFS4_FATTR_MODE);
	nfs4_bitmap_set(&f.supported_attrs, NFS4_FATTR_TIME_MODIFY);
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_SUPPORTED_ATTRS);
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_TYPE);
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_FH_EXPIRE_TYPE);
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_CHANGE);
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_SIZE);
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_FILEID);
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_MODE);
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_NUMLINKS);
	getattr_reply(&e, &f);

	assert_int_equal(dp_parse_reply(e.buf, e.len, &ri), 0);
	assert_true(ri.have_getattr);
	assert_int_equal(dp_patch_size(e.buf, e.len, &ri, 200, &out, &olen),
			 0);
	assert_int_equal(olen, e.len);
	xdr_dec_init(&d, out + 24, olen - 24);
	assert_int_equal(nfs4_dec_compound_res(&d, &r), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_SEQUENCE, &sr), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_PUTFH, &st), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_GETATTR, &gr), 0);
	assert_true(gr.attrs.size == 200);
	assert_true(gr.attrs.change == 99);
	assert_int_equal(gr.attrs.mode, 0644);
	assert_true(gr.attrs.fileid == 42);
	assert_int_equal(gr.attrs.numlinks, 1);
	assert_true(nfs4_bitmap_isset(&gr.attrs.supported_attrs,
				      NFS4_FATTR_TIME_MODIFY));
	/* Nothing but the size moved: the bytes that differ lie within 8. */
	for (n = 0; n < olen && out[n] == e.buf[n]; n++)
		;
	for (m = olen; m > n && out[m - 1] == e.buf[m - 1]; m--)
		;
	assert_true(m - n <= 8);
	free(out);

	/* Every prefix is refused, read or patched. */
	for (n = 0; n < e.len; n++) {
		uint8_t *cp = malloc(n ? n : 1);

		assert_non_null(cp);
		memcpy(cp, e.buf, n);
		if (dp_parse_reply(cp, n, &ri) == 0) {
			assert_int_equal(dp_patch_size(cp, n, &ri, 200, &out,
						       &olen), -1);
		}
		free(cp);
	}
	/* A parse of the whole used on a shorter message is refused. */
	assert_int_equal(dp_parse_reply(e.buf, e.len, &ri), 0);
	for (n = 0; n < e.len; n++)
		assert_int_equal(dp_patch_size(e.buf, n, &ri, 200, &out,
					       &olen), -1);
	xdr_enc_release(&e);

	/* No size in the reply: nothing to patch. */
	memset(&f.mask, 0, sizeof(f.mask));
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_CHANGE);
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_MODE);
	getattr_reply(&e, &f);
	assert_int_equal(dp_parse_reply(e.buf, e.len, &ri), 0);
	assert_int_equal(dp_patch_size(e.buf, e.len, &ri, 200, &out, &olen),
			 1);
	xdr_enc_release(&e);
}

/* A LOOKUP's reply (SEQUENCE PUTFH LOOKUP GETFH GETATTR): the file's
 * handle read, and the size in its attributes replaced. */
static void test_patch_lookup(void **state)
{
	struct nfs4_fattr f = { .type = NF4REG, .change = 5, .size = 4000,
				.mode = 0600 };
	struct nfs4_compound_res r;
	struct nfs4_sequence_res sr;
	struct nfs4_status_res st;
	struct nfs4_getfh_res fr;
	struct nfs4_getattr_res gr;
	struct dp_reply ri;
	struct xdr_enc e;
	struct xdr_dec d;
	uint8_t *out;
	size_t olen, n;

	(void)state;
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_TYPE);
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_CHANGE);
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_SIZE);
	nfs4_bitmap_set(&f.mask, NFS4_FATTR_MODE);
	assert_int_equal(xdr_enc_init(&e, 512, 0), 0);
	assert_int_equal(rpcmsg_enc_accepted_reply(&e, 0x79, RPC_SUCCESS), 0);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_u32(&e, 0);
	xdr_enc_u32(&e, 5);
	xdr_enc_u32(&e, NFS4OP_SEQUENCE);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_opaque_fixed(&e, sessionid, 16);
	xdr_enc_reserve(&e, 20);
	xdr_enc_u32(&e, NFS4OP_PUTFH);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_u32(&e, NFS4OP_LOOKUP);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_u32(&e, NFS4OP_GETFH);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_opaque(&e, NFS4_FHSIZE, file_fh.data, file_fh.len);
	xdr_enc_u32(&e, NFS4OP_GETATTR);
	xdr_enc_u32(&e, NFS4_OK);
	assert_int_equal(nfs4_enc_fattr(&e, &f), 0);
	assert_int_equal(xdr_enc_error(&e), 0);

	assert_int_equal(dp_parse_reply(e.buf, e.len, &ri), 0);
	assert_true(ri.have_getfh);
	assert_int_equal(ri.fhlen, file_fh.len);
	assert_memory_equal(ri.fh, file_fh.data, file_fh.len);
	assert_true(ri.have_getattr);
	assert_true(ri.getattr_at >= ri.getfh_end);
	assert_int_equal(dp_patch_size(e.buf, e.len, &ri, 4100, &out, &olen),
			 0);
	xdr_dec_init(&d, out + 24, olen - 24);
	assert_int_equal(nfs4_dec_compound_res(&d, &r), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_SEQUENCE, &sr), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_PUTFH, &st), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_LOOKUP, &st), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_GETFH, &fr), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_GETATTR, &gr), 0);
	assert_true(gr.attrs.size == 4100);
	assert_true(gr.attrs.change == 5);
	assert_int_equal(gr.attrs.mode, 0600);
	assert_int_equal(xdr_dec_left(&r.d), 0);
	free(out);
	for (n = 0; n < e.len; n++) {
		uint8_t *cp = malloc(n ? n : 1);

		assert_non_null(cp);
		memcpy(cp, e.buf, n);
		if (dp_parse_reply(cp, n, &ri) == 0)
			assert_false(ri.have_getattr);
		free(cp);
	}
	xdr_enc_release(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_call),
		cmocka_unit_test(test_create_call),
		cmocka_unit_test(test_delegreturn),
		cmocka_unit_test(test_grant),
		cmocka_unit_test(test_cb_recall),
		cmocka_unit_test(test_lock_call),
		cmocka_unit_test(test_lock_call_long_owner),
		cmocka_unit_test(test_locku_call),
		cmocka_unit_test(test_lock_replies),
		cmocka_unit_test(test_cb_notify_lock),
		cmocka_unit_test(test_open_call_want_write),
		cmocka_unit_test(test_grant_write),
		cmocka_unit_test(test_cb_getattr),
		cmocka_unit_test(test_cb_getattr_reply),
		cmocka_unit_test(test_patch_size),
		cmocka_unit_test(test_patch_lookup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
