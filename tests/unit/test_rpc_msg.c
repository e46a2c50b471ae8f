/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ONC RPC message headers (RFC 5531): call headers with AUTH_NONE and
 * AUTH_SYS against bytes worked out by hand, every arm of a reply, every
 * truncation, oversized verifiers and the errno mapping.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../xdr/rpc_msg.h"

#define NWORDS(a) (sizeof(a) / sizeof((a)[0]))

/* Words to big-endian bytes. */
static size_t to_bytes(const uint32_t *w, size_t n, uint8_t *out)
{
	for (size_t i = 0; i < n; i++)
		xdr_put_u32(out + 4 * i, w[i]);
	return 4 * n;
}

static void assert_encoded(const struct xdr_enc *e, const uint32_t *w,
			   size_t n)
{
	uint8_t want[512];

	assert_true(4 * n <= sizeof(want));
	to_bytes(w, n, want);
	assert_int_equal(e->len, 4 * n);
	assert_memory_equal(e->buf, want, 4 * n);
}

static void test_call_auth_sys(void **state)
{
	struct rpc_cred cred = {
		.flavor = RPC_AUTH_SYS,
		.stamp = 0x01020304,
		.machinename = "host",
		.uid = 1000,
		.gid = 100,
		.ngids = 2,
		.gids = { 100, 27 },
	};
	/* RFC 5531 §9 call_body and appendix A authsys_parms, by hand. */
	static const uint32_t want[] = {
		0x12345678, /* xid */
		0,          /* CALL */
		2,          /* rpcvers */
		100003,     /* prog: NFS */
		3,          /* vers */
		1,          /* proc: GETATTR */
		1,          /* cred flavor AUTH_SYS */
		32,         /* body: 4 + 8 + 4 + 4 + 12 */
		0x01020304, /* stamp */
		4, 0x686f7374, /* "host", no padding */
		1000, 100,  /* uid, gid */
		2, 100, 27, /* gids<16> */
		0, 0,       /* verf AUTH_NONE */
	};
	struct xdr_enc e;

	(void)state;
	xdr_enc_init(&e, 0, 0);
	assert_int_equal(rpcmsg_enc_call(&e, 0x12345678, 100003, 3, 1, &cred),
			 0);
	assert_encoded(&e, want, NWORDS(want));
	xdr_enc_release(&e);
}

static void test_call_auth_sys_padding(void **state)
{
	struct rpc_cred cred = {
		.flavor = RPC_AUTH_SYS,
		.stamp = 7,
		.machinename = "ab",
		.uid = 0,
		.gid = 0,
		.ngids = 0,
	};
	static const uint32_t want[] = {
		1, 0, 2, 100005, 3, 1,
		1, 24, 7, 2, 0x61620000, 0, 0, 0,
		0, 0,
	};
	struct xdr_enc e;

	(void)state;
	xdr_enc_init(&e, 0, 0);
	assert_int_equal(rpcmsg_enc_call(&e, 1, 100005, 3, 1, &cred), 0);
	assert_encoded(&e, want, NWORDS(want));
	xdr_enc_release(&e);
}

static void test_call_auth_sys_null_name_and_extra_gids(void **state)
{
	struct rpc_cred cred = {
		.flavor = RPC_AUTH_SYS,
		.machinename = NULL,
		.uid = 5,
		.gid = 6,
		.ngids = 20, /* only 16 go out */
	};
	struct xdr_enc e;
	uint32_t w;

	(void)state;
	for (unsigned i = 0; i < RPC_AUTH_SYS_MAXGIDS; i++)
		cred.gids[i] = 1000 + i;
	xdr_enc_init(&e, 0, 0);
	assert_int_equal(rpcmsg_enc_call(&e, 9, 100003, 3, 0, &cred), 0);
	/* header 6 words, flavor, length, stamp, name length 0, uid, gid,
	 * count 16, 16 gids, verifier 2 words */
	assert_int_equal(e.len, 4 * (6 + 2 + 4 + 1 + 16 + 2));
	w = xdr_get_u32(e.buf + 4 * 7);
	assert_int_equal(w, 4 + 4 + 4 + 4 + 4 + 16 * 4);
	assert_int_equal(xdr_get_u32(e.buf + 4 * 12), 16);
	assert_int_equal(xdr_get_u32(e.buf + 4 * 28), 1015);
	xdr_enc_release(&e);
}

static void test_call_auth_none(void **state)
{
	static const uint32_t want[] = {
		0xfffffffe, 0, 2, 100000, 2, 3, 0, 0, 0, 0,
	};
	struct rpc_cred none = { .flavor = RPC_AUTH_NONE, .uid = 99 };
	struct xdr_enc e;

	(void)state;
	xdr_enc_init(&e, 0, 0);
	assert_int_equal(rpcmsg_enc_call(&e, 0xfffffffe, 100000, 2, 3, NULL),
			 0);
	assert_encoded(&e, want, NWORDS(want));
	xdr_enc_release(&e);

	xdr_enc_init(&e, 0, 0);
	assert_int_equal(rpcmsg_enc_call(&e, 0xfffffffe, 100000, 2, 3, &none),
			 0);
	assert_encoded(&e, want, NWORDS(want));
	xdr_enc_release(&e);
}

static void test_call_bad_cred(void **state)
{
	char name[300];
	struct rpc_cred cred = { .flavor = RPC_AUTH_SYS, .machinename = name };
	struct xdr_enc e;

	(void)state;
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	xdr_enc_init(&e, 0, 0);
	assert_int_equal(rpcmsg_enc_call(&e, 1, 2, 3, 4, &cred), -EINVAL);
	assert_int_equal(xdr_enc_error(&e), -EINVAL);
	xdr_enc_release(&e);

	/* exactly 255 is fine, and the body stays within 400 bytes */
	name[255] = '\0';
	cred.ngids = 16;
	xdr_enc_init(&e, 0, 0);
	assert_int_equal(rpcmsg_enc_call(&e, 1, 2, 3, 4, &cred), 0);
	assert_true(xdr_get_u32(e.buf + 4 * 7) <= RPC_AUTH_MAXBODY);
	assert_int_equal(xdr_get_u32(e.buf + 4 * 7), 4 + 4 + 256 + 4 + 4 +
			 4 + 64);
	xdr_enc_release(&e);

	cred.flavor = 6; /* RPCSEC_GSS: not ours */
	xdr_enc_init(&e, 0, 0);
	assert_int_equal(rpcmsg_enc_call(&e, 1, 2, 3, 4, &cred), -EINVAL);
	xdr_enc_release(&e);
}

/* A reply vector and what decoding it must give. */
struct reply_case {
	const char *what;
	uint32_t w[16];
	size_t n;
	int dec_ret;
	int err;          /* rpcmsg_reply_errno() */
	uint32_t reply_stat, accept_stat, low, high, reject_stat, auth_stat;
	uint32_t verf_flavor;
	size_t results;   /* bytes left after the header */
	const char *text; /* substring of rpcmsg_reply_str() */
};

static const struct reply_case reply_cases[] = {
	{ "success", { 0xabcd, 1, 0, 0, 0, 0, 0xdeadbeef }, 7, 0, 0,
	  MSG_ACCEPTED, RPC_SUCCESS, 0, 0, 0, 0, 0, 4, "success" },
	{ "success, verifier with a body",
	  { 0xabcd, 1, 0, 2, 8, 0x11111111, 0x22222222, 0, 0xdeadbeef, 1 },
	  10, 0, 0, MSG_ACCEPTED, RPC_SUCCESS, 0, 0, 0, 0, 2, 8, "success" },
	{ "prog unavail", { 0xabcd, 1, 0, 0, 0, 1 }, 6, 0, -EPROTONOSUPPORT,
	  MSG_ACCEPTED, RPC_PROG_UNAVAIL, 0, 0, 0, 0, 0, 0,
	  "program unavailable" },
	{ "prog mismatch", { 0xabcd, 1, 0, 0, 0, 2, 2, 3 }, 8, 0,
	  -EPROTONOSUPPORT, MSG_ACCEPTED, RPC_PROG_MISMATCH, 2, 3, 0, 0, 0, 0,
	  "program version mismatch (server has 2..3)" },
	{ "proc unavail", { 0xabcd, 1, 0, 0, 0, 3 }, 6, 0, -EOPNOTSUPP,
	  MSG_ACCEPTED, RPC_PROC_UNAVAIL, 0, 0, 0, 0, 0, 0,
	  "procedure unavailable" },
	{ "garbage args", { 0xabcd, 1, 0, 0, 0, 4 }, 6, 0, -EINVAL,
	  MSG_ACCEPTED, RPC_GARBAGE_ARGS, 0, 0, 0, 0, 0, 0,
	  "garbage arguments" },
	{ "system err", { 0xabcd, 1, 0, 0, 0, 5 }, 6, 0, -EIO,
	  MSG_ACCEPTED, RPC_SYSTEM_ERR, 0, 0, 0, 0, 0, 0, "system error" },
	{ "unknown accept_stat", { 0xabcd, 1, 0, 0, 0, 77 }, 6, 0, -EIO,
	  MSG_ACCEPTED, 77, 0, 0, 0, 0, 0, 0, "unknown accept status 77" },
	{ "rpc mismatch", { 0xabcd, 1, 1, 0, 2, 2 }, 6, 0, -EPROTO,
	  MSG_DENIED, 0, 2, 2, RPC_MISMATCH, 0, 0, 0,
	  "RPC version mismatch (server has 2..2)" },
	{ "auth error", { 0xabcd, 1, 1, 1, 2 }, 5, 0, -EACCES,
	  MSG_DENIED, 0, 0, 0, RPC_AUTH_ERROR, RPC_AUTH_REJECTEDCRED, 0, 0,
	  "AUTH_REJECTEDCRED" },
	{ "auth error, tooweak", { 0xabcd, 1, 1, 1, 5 }, 5, 0, -EACCES,
	  MSG_DENIED, 0, 0, 0, RPC_AUTH_ERROR, RPC_AUTH_TOOWEAK, 0, 0,
	  "AUTH_TOOWEAK" },
	{ "auth error, gss status", { 0xabcd, 1, 1, 1, 13 }, 5, 0, -EACCES,
	  MSG_DENIED, 0, 0, 0, RPC_AUTH_ERROR, 13, 0, 0, "status 13" },
};

static void test_reply_arms(void **state)
{
	(void)state;
	for (size_t i = 0; i < NWORDS(reply_cases); i++) {
		const struct reply_case *rc = &reply_cases[i];
		uint8_t buf[64];
		size_t len = to_bytes(rc->w, rc->n, buf);
		struct rpc_reply_hdr h;
		struct xdr_dec d;
		char text[128];
		uint32_t xid;

		print_message("  %s\n", rc->what);
		assert_int_equal(rpcmsg_dec_xid(buf, len, &xid), 0);
		assert_int_equal(xid, 0xabcd);
		xdr_dec_init(&d, buf, len);
		assert_int_equal(rpcmsg_dec_reply(&d, &h), rc->dec_ret);
		assert_int_equal(h.xid, 0xabcd);
		assert_int_equal(h.reply_stat, rc->reply_stat);
		assert_int_equal(h.accept_stat, rc->accept_stat);
		assert_int_equal(h.mismatch_low, rc->low);
		assert_int_equal(h.mismatch_high, rc->high);
		assert_int_equal(h.reject_stat, rc->reject_stat);
		assert_int_equal(h.auth_stat, rc->auth_stat);
		assert_int_equal(h.verf_flavor, rc->verf_flavor);
		assert_int_equal(xdr_dec_left(&d), rc->results);
		assert_int_equal(rpcmsg_reply_errno(&h), rc->err);
		assert_non_null(strstr(rpcmsg_reply_str(&h, text, sizeof(text)),
				       rc->text));
		if (rc->results >= 4 && rc->accept_stat == RPC_SUCCESS &&
		    rc->reply_stat == MSG_ACCEPTED) {
			uint32_t v;

			assert_int_equal(xdr_dec_u32(&d, &v), 0);
			assert_int_equal(v, 0xdeadbeef);
		}
	}
}

/* Every prefix of a header shorter than the header is malformed. */
static void test_reply_truncated(void **state)
{
	(void)state;
	for (size_t i = 0; i < NWORDS(reply_cases); i++) {
		const struct reply_case *rc = &reply_cases[i];
		uint8_t buf[64];
		size_t len = to_bytes(rc->w, rc->n, buf) - rc->results;

		for (size_t cut = 0; cut < len; cut++) {
			struct rpc_reply_hdr h;
			struct xdr_dec d;
			uint8_t *copy = malloc(cut ? cut : 1);

			/* a heap copy of exactly cut bytes, so that the
			 * sanitizer sees any read past the end */
			memcpy(copy, buf, cut);
			xdr_dec_init(&d, copy, cut);
			assert_int_equal(rpcmsg_dec_reply(&d, &h), -EBADMSG);
			free(copy);
		}
	}
}

static void test_reply_malformed(void **state)
{
	static const struct {
		const char *what;
		uint32_t w[8];
		size_t n;
	} bad[] = {
		{ "a call", { 1, 0, 2, 100003, 3, 0, 0, 0 }, 8 },
		{ "msg_type 2", { 1, 2, 0, 0, 0, 0 }, 6 },
		{ "reply_stat 2", { 1, 1, 2, 0, 0, 0 }, 6 },
		{ "reject_stat 2", { 1, 1, 1, 2, 0, 0 }, 6 },
		{ "verifier 401 bytes", { 1, 1, 0, 0, 401, 0 }, 6 },
		{ "verifier 2^32-1 bytes", { 1, 1, 0, 0, 0xffffffff, 0 }, 6 },
		{ "verifier longer than the record", { 1, 1, 0, 0, 400, 0 },
		  6 },
	};
	for (size_t i = 0; i < NWORDS(bad); i++) {
		uint8_t buf[64];
		size_t len = to_bytes(bad[i].w, bad[i].n, buf);
		struct rpc_reply_hdr h;
		struct xdr_dec d;

		print_message("  %s\n", bad[i].what);
		(void)state;
		xdr_dec_init(&d, buf, len);
		assert_int_equal(rpcmsg_dec_reply(&d, &h), -EBADMSG);
	}
}

static void test_reply_verifier_max(void **state)
{
	/* a 400-byte verifier body is the largest allowed */
	uint8_t buf[4 * 5 + 400 + 4];
	struct rpc_reply_hdr h;
	struct xdr_dec d;

	(void)state;
	memset(buf, 0x5a, sizeof(buf));
	xdr_put_u32(buf, 3);
	xdr_put_u32(buf + 4, RPC_REPLY);
	xdr_put_u32(buf + 8, MSG_ACCEPTED);
	xdr_put_u32(buf + 12, 9);
	xdr_put_u32(buf + 16, 400);
	xdr_put_u32(buf + 20 + 400, RPC_SUCCESS);
	xdr_dec_init(&d, buf, sizeof(buf));
	assert_int_equal(rpcmsg_dec_reply(&d, &h), 0);
	assert_int_equal(h.verf_flavor, 9);
	assert_int_equal(xdr_dec_left(&d), 0);
	assert_int_equal(rpcmsg_reply_errno(&h), 0);
}

static void test_dec_xid_short(void **state)
{
	uint8_t buf[4] = { 1, 2, 3, 4 };
	uint32_t xid = 0;

	(void)state;
	for (size_t n = 0; n < 4; n++)
		assert_int_equal(rpcmsg_dec_xid(buf, n, &xid), -EBADMSG);
	assert_int_equal(rpcmsg_dec_xid(buf, 4, &xid), 0);
	assert_int_equal(xid, 0x01020304);
}

static void test_reply_str_small_buffer(void **state)
{
	struct rpc_reply_hdr h = { .reply_stat = MSG_ACCEPTED,
				   .accept_stat = RPC_PROG_MISMATCH,
				   .mismatch_low = 2, .mismatch_high = 4 };
	char buf[8];

	(void)state;
	assert_string_equal(rpcmsg_reply_str(&h, buf, sizeof(buf)),
			    "program");
	h.reply_stat = 9;
	assert_int_equal(rpcmsg_reply_errno(&h), -EIO);
}

static void test_call_roundtrip(void **state)
{
	struct rpc_cred cred = {
		.flavor = RPC_AUTH_SYS, .stamp = 42, .machinename = "client",
		.uid = 1001, .gid = 1002, .ngids = 3, .gids = { 4, 5, 6 },
	};
	struct rpc_call_hdr h;
	struct xdr_enc e;
	struct xdr_dec d;
	uint32_t arg;

	(void)state;
	xdr_enc_init(&e, 0, 0);
	rpcmsg_enc_call(&e, 0x77, 100021, 4, 10, &cred);
	xdr_enc_u32(&e, 0xcafe);
	assert_int_equal(xdr_enc_error(&e), 0);

	xdr_dec_init(&d, e.buf, e.len);
	assert_int_equal(rpcmsg_dec_call(&d, &h), 0);
	assert_int_equal(h.xid, 0x77);
	assert_int_equal(h.prog, 100021);
	assert_int_equal(h.vers, 4);
	assert_int_equal(h.proc, 10);
	assert_int_equal(h.cred_flavor, RPC_AUTH_SYS);
	assert_int_equal(h.cred.stamp, 42);
	assert_int_equal(h.cred.uid, 1001);
	assert_int_equal(h.cred.gid, 1002);
	assert_int_equal(h.cred.ngids, 3);
	assert_int_equal(h.cred.gids[2], 6);
	assert_null(h.cred.machinename);
	assert_int_equal(xdr_dec_u32(&d, &arg), 0);
	assert_int_equal(arg, 0xcafe);

	/* every truncation of the header */
	for (size_t cut = 0; cut < e.len - 4; cut++) {
		uint8_t *copy = malloc(cut ? cut : 1);

		memcpy(copy, e.buf, cut);
		xdr_dec_init(&d, copy, cut);
		assert_int_equal(rpcmsg_dec_call(&d, &h), -EBADMSG);
		free(copy);
	}

	/* rpcvers 3: -EPROTO, with the xid known */
	xdr_put_u32(e.buf + 8, 3);
	xdr_dec_init(&d, e.buf, e.len);
	assert_int_equal(rpcmsg_dec_call(&d, &h), -EPROTO);
	assert_int_equal(h.xid, 0x77);
	xdr_put_u32(e.buf + 8, 2);

	/* a reply is not a call */
	xdr_put_u32(e.buf + 4, RPC_REPLY);
	xdr_dec_init(&d, e.buf, e.len);
	assert_int_equal(rpcmsg_dec_call(&d, &h), -EBADMSG);
	xdr_enc_release(&e);
}

static void test_call_bad_authsys_body(void **state)
{
	/* 17 gids */
	uint32_t w[64] = { 1, 0, 2, 100021, 4, 10, 1, 4 * 21, 0, 0, 0, 0,
			   17 };
	uint8_t buf[256];
	struct rpc_call_hdr h;
	struct xdr_dec d;
	size_t n = 13 + 17, len;

	(void)state;
	w[n++] = 0; /* verf */
	w[n++] = 0;
	len = to_bytes(w, n, buf);
	xdr_dec_init(&d, buf, len);
	assert_int_equal(rpcmsg_dec_call(&d, &h), -EBADMSG);

	/* a body longer than its contents */
	{
		uint32_t w2[] = { 1, 0, 2, 100021, 4, 10, 1, 24, 0, 0, 0, 0,
				  0, 0xffff, 0, 0 };

		len = to_bytes(w2, NWORDS(w2), buf);
		xdr_dec_init(&d, buf, len);
		assert_int_equal(rpcmsg_dec_call(&d, &h), -EBADMSG);
		/* and right when the length is 20 (with one word less) */
		w2[7] = 20;
		len = to_bytes(w2, NWORDS(w2), buf);
		xdr_put_u32(buf + 4 * 13, 0); /* now part of the verifier */
		xdr_dec_init(&d, buf, len - 4);
		assert_int_equal(rpcmsg_dec_call(&d, &h), 0);
	}
}

static void test_accepted_reply_roundtrip(void **state)
{
	struct rpc_reply_hdr h;
	struct xdr_enc e;
	struct xdr_dec d;

	(void)state;
	xdr_enc_init(&e, 0, 0);
	rpcmsg_enc_accepted_reply(&e, 0x99, RPC_SUCCESS);
	xdr_enc_u32(&e, 5);
	assert_int_equal(xdr_enc_error(&e), 0);
	xdr_dec_init(&d, e.buf, e.len);
	assert_int_equal(rpcmsg_dec_reply(&d, &h), 0);
	assert_int_equal(h.xid, 0x99);
	assert_int_equal(rpcmsg_reply_errno(&h), 0);
	assert_int_equal(xdr_dec_left(&d), 4);
	xdr_enc_release(&e);

	xdr_enc_init(&e, 0, 0);
	rpcmsg_enc_accepted_reply(&e, 0x9a, RPC_PROG_MISMATCH);
	xdr_enc_u32(&e, 1);
	xdr_enc_u32(&e, 4);
	xdr_dec_init(&d, e.buf, e.len);
	assert_int_equal(rpcmsg_dec_reply(&d, &h), 0);
	assert_int_equal(h.mismatch_low, 1);
	assert_int_equal(h.mismatch_high, 4);
	assert_int_equal(rpcmsg_reply_errno(&h), -EPROTONOSUPPORT);
	xdr_enc_release(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_call_auth_sys),
		cmocka_unit_test(test_call_auth_sys_padding),
		cmocka_unit_test(test_call_auth_sys_null_name_and_extra_gids),
		cmocka_unit_test(test_call_auth_none),
		cmocka_unit_test(test_call_bad_cred),
		cmocka_unit_test(test_reply_arms),
		cmocka_unit_test(test_reply_truncated),
		cmocka_unit_test(test_reply_malformed),
		cmocka_unit_test(test_reply_verifier_max),
		cmocka_unit_test(test_dec_xid_short),
		cmocka_unit_test(test_reply_str_small_buffer),
		cmocka_unit_test(test_call_roundtrip),
		cmocka_unit_test(test_call_bad_authsys_body),
		cmocka_unit_test(test_accepted_reply_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
