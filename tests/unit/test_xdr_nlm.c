/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NLM v1/v3 and v4 codecs.  Known answers are worked by hand from
 * rpcsvc/nlm_prot.x (XNFS, versions 1 and 3) and RFC 1813 Appendix II
 * (version 4): every field a 4-byte big-endian unit, opaques and strings a
 * length then the bytes padded with zeros to a multiple of 4, uint64 as
 * two units, high first.
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

#include "nlm.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void assert_netobj(const struct nlm_netobj *o, const void *data,
			  uint32_t len)
{
	assert_int_equal(o->len, len);
	if (len)
		assert_memory_equal(o->data, data, len);
}

/* ---- the pieces of the known answers, by hand ---- */

/* netobj cookie<4> = c0 0c 1e 01 */
#define B_COOKIE 0x00, 0x00, 0x00, 0x04, 0xc0, 0x0c, 0x1e, 0x01
/* string caller_name<> = "client1" (7 bytes, one of padding) */
#define B_CALLER 0x00, 0x00, 0x00, 0x07, 'c', 'l', 'i', 'e', 'n', 't', '1', 0x00
/* netobj fh<8> = f0..f7 */
#define B_FH 0x00, 0x00, 0x00, 0x08, \
	0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7
/* netobj oh<7> = "42@host" */
#define B_OH 0x00, 0x00, 0x00, 0x07, '4', '2', '@', 'h', 'o', 's', 't', 0x00
/* int svid = 42 */
#define B_SVID 0x00, 0x00, 0x00, 0x2a
#define B_TRUE 0x00, 0x00, 0x00, 0x01
#define B_FALSE 0x00, 0x00, 0x00, 0x00

static const uint8_t cookie_bytes[] = { 0xc0, 0x0c, 0x1e, 0x01 };
static const uint8_t fh_bytes[] = { 0xf0, 0xf1, 0xf2, 0xf3,
				    0xf4, 0xf5, 0xf6, 0xf7 };

#define COOKIE { cookie_bytes, 4 }
#define LOCK(off, len) { "client1", 7, { fh_bytes, 8 }, \
	{ (const uint8_t *)"42@host", 7 }, 42, (off), (len) }

static void assert_lock(const struct nlm_lock *l, uint64_t off, uint64_t len)
{
	assert_int_equal(l->caller_name_len, 7);
	assert_memory_equal(l->caller_name, "client1", 7);
	assert_netobj(&l->fh, fh_bytes, 8);
	assert_netobj(&l->oh, "42@host", 7);
	assert_int_equal(l->svid, 42);
	assert_true(l->l_offset == off);
	assert_true(l->l_len == len);
}

/* v4 LOCK: block, exclusive, offset 0x123456789, to EOF, no reclaim,
 * NSM state 3. */
static const uint8_t lockargs_v4[] = {
	B_COOKIE,
	B_TRUE,  /* block */
	B_TRUE,  /* exclusive */
	B_CALLER, B_FH, B_OH, B_SVID,
	0x00, 0x00, 0x00, 0x01, 0x23, 0x45, 0x67, 0x89, /* l_offset */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* l_len */
	B_FALSE, /* reclaim */
	0x00, 0x00, 0x00, 0x03, /* state */
};

/* v1/3 LOCK: the same lock at 0x1000 for 0x200 bytes, reclaim, state 7 */
static const uint8_t lockargs_v1[] = {
	B_COOKIE,
	B_FALSE, /* block */
	B_TRUE,  /* exclusive */
	B_CALLER, B_FH, B_OH, B_SVID,
	0x00, 0x00, 0x10, 0x00, /* l_offset */
	0x00, 0x00, 0x02, 0x00, /* l_len */
	B_TRUE,  /* reclaim */
	0x00, 0x00, 0x00, 0x07, /* state */
};

/* v4 GRANTED_MSG (and TEST, TEST_MSG, GRANTED): shared, whole file */
static const uint8_t testargs_v4[] = {
	B_COOKIE,
	B_FALSE, /* exclusive */
	B_CALLER, B_FH, B_OH, B_SVID,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* v1 TEST: exclusive, 0xffffffff bytes at 0xfffffffe (the 32-bit edge) */
static const uint8_t testargs_v1[] = {
	B_COOKIE,
	B_TRUE,
	B_CALLER, B_FH, B_OH, B_SVID,
	0xff, 0xff, 0xff, 0xfe,
	0xff, 0xff, 0xff, 0xff,
};

/* v4 CANCEL: block, shared, 16 bytes at 2^40 */
static const uint8_t cancargs_v4[] = {
	B_COOKIE,
	B_TRUE,  /* block */
	B_FALSE, /* exclusive */
	B_CALLER, B_FH, B_OH, B_SVID,
	0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
};

/* v1 UNLOCK: 1 byte at 0 */
static const uint8_t unlockargs_v1[] = {
	B_COOKIE,
	B_CALLER, B_FH, B_OH, B_SVID,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,
};

/* v4 UNLOCK: everything from 2^63 - 1 */
static const uint8_t unlockargs_v4[] = {
	B_COOKIE,
	B_CALLER, B_FH, B_OH, B_SVID,
	0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* v4 TEST result: denied by an exclusive holder, svid 7, oh "99@srv",
 * 16 bytes at 0xffffffff00000000 */
static const uint8_t testres_denied_v4[] = {
	B_COOKIE,
	0x00, 0x00, 0x00, 0x01, /* NLM4_DENIED */
	B_TRUE,                 /* holder.exclusive */
	0x00, 0x00, 0x00, 0x07, /* holder.svid */
	0x00, 0x00, 0x00, 0x06, '9', '9', '@', 's', 'r', 'v', 0x00, 0x00,
	0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
};

/* v1 TEST result: denied by a shared holder, svid -1, empty oh, from 16 to
 * EOF */
static const uint8_t testres_denied_v1[] = {
	B_COOKIE,
	0x00, 0x00, 0x00, 0x01, /* nlm_denied */
	B_FALSE,
	0xff, 0xff, 0xff, 0xff, /* svid -1 */
	0x00, 0x00, 0x00, 0x00, /* oh<0> */
	0x00, 0x00, 0x00, 0x10,
	0x00, 0x00, 0x00, 0x00,
};

/* TEST result: granted, no holder (any version) */
static const uint8_t testres_granted[] = {
	B_COOKIE,
	0x00, 0x00, 0x00, 0x00,
};

/* LOCK result / GRANTED_RES argument: NLM4_DEADLCK */
static const uint8_t res_deadlck[] = {
	B_COOKIE,
	0x00, 0x00, 0x00, 0x05,
};

/* GRANTED_RES with an empty cookie, granted */
static const uint8_t res_empty_cookie[] = {
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,
};

/* SHARE: deny write, read/write access, no reclaim */
static const uint8_t shareargs_bytes[] = {
	B_COOKIE,
	B_CALLER, B_FH, B_OH,
	0x00, 0x00, 0x00, 0x02, /* fsm_DW */
	0x00, 0x00, 0x00, 0x03, /* fsa_RW */
	B_FALSE,
};

/* SHARE result: granted, sequence 5 */
static const uint8_t shareres_bytes[] = {
	B_COOKIE,
	0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x05,
};

/* FREE_ALL("client1", 3) */
static const uint8_t notify_bytes[] = {
	B_CALLER,
	0x00, 0x00, 0x00, 0x03,
};

/* ---- known answers ---- */

static void test_lockargs_v4_known(void **state)
{
	struct nlm_lockargs a = { COOKIE, true, true, LOCK(0x123456789ull, 0),
				  false, 3 };
	struct nlm_lockargs r;
	struct xdr_dec d;

	(void)state;
	xdr_check_encoding(nlm_enc_lockargs_v4, &a, lockargs_v4,
		       sizeof(lockargs_v4));
	xdr_dec_init(&d, lockargs_v4, sizeof(lockargs_v4));
	assert_int_equal(nlm_dec_lockargs_v4(&d, &r), 0);
	assert_int_equal(xdr_dec_left(&d), 0);
	assert_netobj(&r.cookie, cookie_bytes, 4);
	/* zero-copy: the cookie points into the buffer */
	assert_ptr_equal(r.cookie.data, lockargs_v4 + 4);
	assert_true(r.block);
	assert_true(r.exclusive);
	assert_lock(&r.alock, 0x123456789ull, 0);
	assert_false(r.reclaim);
	assert_int_equal(r.state, 3);
	xdr_check_truncations(nlm_dec_lockargs_v4, lockargs_v4,
			  sizeof(lockargs_v4), sizeof(r));
}

static void test_lockargs_v1_known(void **state)
{
	struct nlm_lockargs a = { COOKIE, false, true, LOCK(0x1000, 0x200),
				  true, 7 };
	struct nlm_lockargs r;
	struct xdr_dec d;

	(void)state;
	xdr_check_encoding(nlm_enc_lockargs_v1, &a, lockargs_v1,
		       sizeof(lockargs_v1));
	xdr_dec_init(&d, lockargs_v1, sizeof(lockargs_v1));
	assert_int_equal(nlm_dec_lockargs_v1(&d, &r), 0);
	assert_int_equal(xdr_dec_left(&d), 0);
	assert_netobj(&r.cookie, cookie_bytes, 4);
	assert_false(r.block);
	assert_true(r.exclusive);
	assert_lock(&r.alock, 0x1000, 0x200);
	assert_true(r.reclaim);
	assert_int_equal(r.state, 7);
	xdr_check_truncations(nlm_dec_lockargs_v1, lockargs_v1,
			  sizeof(lockargs_v1), sizeof(r));
	/* The same bytes are not a v4 LOCK: the v4 decoder runs short. */
	assert_int_equal(xdr_check_decode(nlm_dec_lockargs_v4, lockargs_v1,
				     sizeof(lockargs_v1), &r, NULL), -EBADMSG);
}

static void test_testargs_known(void **state)
{
	struct nlm_testargs a4 = { COOKIE, false, LOCK(0, 0) };
	struct nlm_testargs a1 = { COOKIE, true,
				   LOCK(0xfffffffeull, 0xffffffffull) };
	struct nlm_testargs r;
	struct xdr_dec d;

	(void)state;
	xdr_check_encoding(nlm_enc_testargs_v4, &a4, testargs_v4,
		       sizeof(testargs_v4));
	xdr_dec_init(&d, testargs_v4, sizeof(testargs_v4));
	assert_int_equal(nlm_dec_testargs_v4(&d, &r), 0);
	assert_netobj(&r.cookie, cookie_bytes, 4);
	assert_false(r.exclusive);
	assert_lock(&r.alock, 0, 0);
	xdr_check_truncations(nlm_dec_testargs_v4, testargs_v4,
			  sizeof(testargs_v4), sizeof(r));

	xdr_check_encoding(nlm_enc_testargs_v1, &a1, testargs_v1,
		       sizeof(testargs_v1));
	xdr_dec_init(&d, testargs_v1, sizeof(testargs_v1));
	assert_int_equal(nlm_dec_testargs_v1(&d, &r), 0);
	assert_true(r.exclusive);
	assert_lock(&r.alock, 0xfffffffeull, 0xffffffffull);
	xdr_check_truncations(nlm_dec_testargs_v1, testargs_v1,
			  sizeof(testargs_v1), sizeof(r));
}

static void test_cancargs_unlockargs_known(void **state)
{
	struct nlm_cancargs c = { COOKIE, true, false,
				  LOCK(1ull << 40, 16) };
	struct nlm_unlockargs u1 = { COOKIE, LOCK(0, 1) };
	struct nlm_unlockargs u4 = { COOKIE, LOCK(0x7fffffffffffffffull, 0) };
	struct nlm_cancargs rc;
	struct nlm_unlockargs ru;
	struct xdr_dec d;

	(void)state;
	xdr_check_encoding(nlm_enc_cancargs_v4, &c, cancargs_v4,
		       sizeof(cancargs_v4));
	xdr_dec_init(&d, cancargs_v4, sizeof(cancargs_v4));
	assert_int_equal(nlm_dec_cancargs_v4(&d, &rc), 0);
	assert_true(rc.block);
	assert_false(rc.exclusive);
	assert_lock(&rc.alock, 1ull << 40, 16);
	xdr_check_truncations(nlm_dec_cancargs_v4, cancargs_v4,
			  sizeof(cancargs_v4), sizeof(rc));

	xdr_check_encoding(nlm_enc_unlockargs_v1, &u1, unlockargs_v1,
		       sizeof(unlockargs_v1));
	xdr_dec_init(&d, unlockargs_v1, sizeof(unlockargs_v1));
	assert_int_equal(nlm_dec_unlockargs_v1(&d, &ru), 0);
	assert_netobj(&ru.cookie, cookie_bytes, 4);
	assert_lock(&ru.alock, 0, 1);
	xdr_check_truncations(nlm_dec_unlockargs_v1, unlockargs_v1,
			  sizeof(unlockargs_v1), sizeof(ru));

	xdr_check_encoding(nlm_enc_unlockargs_v4, &u4, unlockargs_v4,
		       sizeof(unlockargs_v4));
	xdr_dec_init(&d, unlockargs_v4, sizeof(unlockargs_v4));
	assert_int_equal(nlm_dec_unlockargs_v4(&d, &ru), 0);
	assert_lock(&ru.alock, 0x7fffffffffffffffull, 0);
	xdr_check_truncations(nlm_dec_unlockargs_v4, unlockargs_v4,
			  sizeof(unlockargs_v4), sizeof(ru));
}

static void test_testres_known(void **state)
{
	struct nlm_testres d4 = {
		COOKIE, NLM_DENIED,
		{ true, 7, { (const uint8_t *)"99@srv", 6 },
		  0xffffffff00000000ull, 16 },
	};
	struct nlm_testres d1 = {
		COOKIE, NLM_DENIED, { false, -1, { NULL, 0 }, 16, 0 },
	};
	/* The holder is not sent unless denied, whatever it holds. */
	struct nlm_testres g = {
		COOKIE, NLM_GRANTED, { true, 9, { NULL, 0 }, 1ull << 50, 1 },
	};
	struct nlm_testres r;
	struct xdr_dec d;

	(void)state;
	xdr_check_encoding(nlm_enc_testres_v4, &d4, testres_denied_v4,
		       sizeof(testres_denied_v4));
	xdr_dec_init(&d, testres_denied_v4, sizeof(testres_denied_v4));
	assert_int_equal(nlm_dec_testres_v4(&d, &r), 0);
	assert_netobj(&r.cookie, cookie_bytes, 4);
	assert_int_equal(r.stat, NLM_DENIED);
	assert_true(r.holder.exclusive);
	assert_int_equal(r.holder.svid, 7);
	assert_netobj(&r.holder.oh, "99@srv", 6);
	assert_true(r.holder.l_offset == 0xffffffff00000000ull);
	assert_true(r.holder.l_len == 16);
	xdr_check_truncations(nlm_dec_testres_v4, testres_denied_v4,
			  sizeof(testres_denied_v4), sizeof(r));

	xdr_check_encoding(nlm_enc_testres_v1, &d1, testres_denied_v1,
		       sizeof(testres_denied_v1));
	xdr_dec_init(&d, testres_denied_v1, sizeof(testres_denied_v1));
	assert_int_equal(nlm_dec_testres_v1(&d, &r), 0);
	assert_int_equal(r.stat, NLM_DENIED);
	assert_false(r.holder.exclusive);
	assert_int_equal(r.holder.svid, -1);
	assert_int_equal(r.holder.oh.len, 0);
	assert_true(r.holder.l_offset == 16);
	assert_true(r.holder.l_len == 0);
	xdr_check_truncations(nlm_dec_testres_v1, testres_denied_v1,
			  sizeof(testres_denied_v1), sizeof(r));

	xdr_check_encoding(nlm_enc_testres_v4, &g, testres_granted,
		       sizeof(testres_granted));
	xdr_check_encoding(nlm_enc_testres_v1, &g, testres_granted,
		       sizeof(testres_granted));
	xdr_dec_init(&d, testres_granted, sizeof(testres_granted));
	assert_int_equal(nlm_dec_testres_v4(&d, &r), 0);
	assert_int_equal(r.stat, NLM_GRANTED);
	assert_int_equal(r.holder.svid, 0); /* zeroed, not sent */
	assert_true(r.holder.l_offset == 0);
	xdr_check_truncations(nlm_dec_testres_v4, testres_granted,
			  sizeof(testres_granted), sizeof(r));
	xdr_check_truncations(nlm_dec_testres_v1, testres_granted,
			  sizeof(testres_granted), sizeof(r));
}

static void test_res_known(void **state)
{
	struct nlm_res a = { COOKIE, NLM4_DEADLCK };
	struct nlm_res empty = { { NULL, 0 }, NLM_GRANTED };
	struct nlm_res r;
	struct xdr_dec d;

	(void)state;
	xdr_check_encoding(nlm_enc_res, &a, res_deadlck, sizeof(res_deadlck));
	xdr_dec_init(&d, res_deadlck, sizeof(res_deadlck));
	assert_int_equal(nlm_dec_res(&d, &r), 0);
	assert_netobj(&r.cookie, cookie_bytes, 4);
	assert_int_equal(r.stat, NLM4_DEADLCK);
	xdr_check_truncations(nlm_dec_res, res_deadlck, sizeof(res_deadlck),
			  sizeof(r));

	xdr_check_encoding(nlm_enc_res, &empty, res_empty_cookie,
		       sizeof(res_empty_cookie));
	xdr_dec_init(&d, res_empty_cookie, sizeof(res_empty_cookie));
	assert_int_equal(nlm_dec_res(&d, &r), 0);
	assert_int_equal(r.cookie.len, 0);
	assert_int_equal(r.stat, NLM_GRANTED);
	xdr_check_truncations(nlm_dec_res, res_empty_cookie,
			  sizeof(res_empty_cookie), sizeof(r));

	/* A status this code does not know is data, not malformation. */
	{
		static const uint8_t odd[] = { B_COOKIE, 0x00, 0x00, 0x30, 0x39 };

		xdr_dec_init(&d, odd, sizeof(odd));
		assert_int_equal(nlm_dec_res(&d, &r), 0);
		assert_int_equal(r.stat, 12345);
	}
}

static void test_share_notify_known(void **state)
{
	struct nlm_shareargs sa = {
		COOKIE,
		{ "client1", 7, { fh_bytes, 8 },
		  { (const uint8_t *)"42@host", 7 }, NLM_FSM_DW, NLM_FSA_RW },
		false,
	};
	struct nlm_shareres sr = { COOKIE, NLM_GRANTED, 5 };
	struct nlm_notify n = { "client1", 7, 3 };
	struct nlm_shareargs rsa;
	struct nlm_shareres rsr;
	struct nlm_notify rn;
	struct xdr_dec d;

	(void)state;
	xdr_check_encoding(nlm_enc_shareargs, &sa, shareargs_bytes,
		       sizeof(shareargs_bytes));
	xdr_dec_init(&d, shareargs_bytes, sizeof(shareargs_bytes));
	assert_int_equal(nlm_dec_shareargs(&d, &rsa), 0);
	assert_netobj(&rsa.cookie, cookie_bytes, 4);
	assert_int_equal(rsa.share.caller_name_len, 7);
	assert_memory_equal(rsa.share.caller_name, "client1", 7);
	assert_netobj(&rsa.share.fh, fh_bytes, 8);
	assert_netobj(&rsa.share.oh, "42@host", 7);
	assert_int_equal(rsa.share.mode, NLM_FSM_DW);
	assert_int_equal(rsa.share.access, NLM_FSA_RW);
	assert_false(rsa.reclaim);
	xdr_check_truncations(nlm_dec_shareargs, shareargs_bytes,
			  sizeof(shareargs_bytes), sizeof(rsa));

	xdr_check_encoding(nlm_enc_shareres, &sr, shareres_bytes,
		       sizeof(shareres_bytes));
	xdr_dec_init(&d, shareres_bytes, sizeof(shareres_bytes));
	assert_int_equal(nlm_dec_shareres(&d, &rsr), 0);
	assert_int_equal(rsr.stat, NLM_GRANTED);
	assert_int_equal(rsr.sequence, 5);
	xdr_check_truncations(nlm_dec_shareres, shareres_bytes,
			  sizeof(shareres_bytes), sizeof(rsr));

	xdr_check_encoding(nlm_enc_notify, &n, notify_bytes, sizeof(notify_bytes));
	xdr_dec_init(&d, notify_bytes, sizeof(notify_bytes));
	assert_int_equal(nlm_dec_notify(&d, &rn), 0);
	assert_int_equal(rn.name_len, 7);
	assert_memory_equal(rn.name, "client1", 7);
	assert_int_equal(rn.state, 3);
	xdr_check_truncations(nlm_dec_notify, notify_bytes, sizeof(notify_bytes),
			  sizeof(rn));
}

/* ---- every procedure of every version, through the tables ---- */

static const uint8_t oh_sample[] = { 'o', 'w', 'n', 'e', 'r', '#', '1' };

static const struct nlm_testargs s_testargs = {
	{ cookie_bytes, 3 }, true,
	{ "host.example", 12, { fh_bytes, 8 }, { oh_sample, 7 }, -5,
	  0xfffff000u, 0x1000 },
};
static const struct nlm_lockargs s_lockargs = {
	{ cookie_bytes, 4 }, true, false,
	{ "h", 1, { fh_bytes, 5 }, { oh_sample, 1 }, 123456, 512, 0 },
	true, 0x7fffffff,
};
static const struct nlm_cancargs s_cancargs = {
	{ NULL, 0 }, false, true,
	{ "", 0, { fh_bytes, 8 }, { oh_sample, 7 }, 0, 0, 0xffffffffu },
};
static const struct nlm_unlockargs s_unlockargs = {
	{ cookie_bytes, 2 },
	{ "abcd", 4, { NULL, 0 }, { oh_sample, 6 }, 1, 7, 9 },
};
static const struct nlm_testres s_testres = {
	{ cookie_bytes, 4 }, NLM_DENIED,
	{ true, 77, { oh_sample, 5 }, 100, 200 },
};
static const struct nlm_res s_res = { { cookie_bytes, 1 }, NLM_BLOCKED };
static const struct nlm_shareargs s_shareargs = {
	{ cookie_bytes, 4 },
	{ "share-host", 10, { fh_bytes, 8 }, { oh_sample, 3 }, NLM_FSM_DRW,
	  NLM_FSA_R },
	true,
};
static const struct nlm_shareres s_shareres = {
	{ cookie_bytes, 4 }, NLM_DENIED_GRACE_PERIOD, -2,
};
static const struct nlm_notify s_notify = { "rebooted-client", 15, 0 };

static const void *sample_for(xdr_enc_fn enc)
{
	if (enc == nlm_enc_testargs_v1 || enc == nlm_enc_testargs_v4)
		return &s_testargs;
	if (enc == nlm_enc_lockargs_v1 || enc == nlm_enc_lockargs_v4)
		return &s_lockargs;
	if (enc == nlm_enc_cancargs_v1 || enc == nlm_enc_cancargs_v4)
		return &s_cancargs;
	if (enc == nlm_enc_unlockargs_v1 || enc == nlm_enc_unlockargs_v4)
		return &s_unlockargs;
	if (enc == nlm_enc_testres_v1 || enc == nlm_enc_testres_v4)
		return &s_testres;
	if (enc == nlm_enc_res)
		return &s_res;
	if (enc == nlm_enc_shareargs)
		return &s_shareargs;
	if (enc == nlm_enc_shareres)
		return &s_shareres;
	if (enc == nlm_enc_notify)
		return &s_notify;
	fail_msg("no sample for this encoder");
	return NULL;
}

/* Encode, decode from an exact copy, encode again: the same bytes; and
 * every prefix is malformed.  Returns the encoded length. */
static size_t round_trip(xdr_enc_fn enc, xdr_dec_fn dec, size_t size)
{
	const void *obj = sample_for(enc);
	struct xdr_enc e1, e2;
	struct xdr_dec d;
	uint8_t *copy;
	void *res = malloc(size);
	size_t len;

	assert_non_null(res);
	assert_int_equal(xdr_enc_init(&e1, 0, 0), 0);
	assert_int_equal(enc(&e1, obj), 0);
	len = e1.len;
	assert_int_equal(len % 4, 0);
	copy = malloc(len);
	assert_non_null(copy);
	memcpy(copy, e1.buf, len);
	xdr_dec_init(&d, copy, len);
	assert_int_equal(dec(&d, res), 0);
	assert_int_equal(xdr_dec_left(&d), 0);
	assert_int_equal(xdr_enc_init(&e2, 0, 0), 0);
	assert_int_equal(enc(&e2, res), 0);
	assert_int_equal(e2.len, len);
	assert_memory_equal(e2.buf, e1.buf, len);
	xdr_check_truncations(dec, e1.buf, len, size);
	xdr_enc_release(&e2);
	xdr_enc_release(&e1);
	free(copy);
	free(res);
	return len;
}

static void test_round_trip_all(void **state)
{
	static const uint32_t versions[] = { NLM_V1, NLM_V3, NLM_V4 };
	unsigned n = 0;

	(void)state;
	for (size_t v = 0; v < ARRAY_SIZE(versions); v++) {
		for (uint32_t p = 0; p < NLMPROC_COUNT; p++) {
			const struct xdr_proc_codec *c =
				nlm_proc_codec(versions[v], p);

			if (!c)
				continue;
			assert_int_equal(c->proc, p);
			assert_string_equal(c->name, nlm_proc_names[p]);
			assert_true(!c->enc_args == !c->dec_args);
			assert_true(!c->enc_res == !c->dec_res);
			if (c->enc_args) {
				round_trip(c->enc_args, c->dec_args,
					   c->args_size);
				n++;
			}
			if (c->enc_res) {
				round_trip(c->enc_res, c->dec_res,
					   c->res_size);
				n++;
			}
		}
	}
	/* v1: 15 args + 5 results; v3 and v4: 19 args + 8 results each */
	assert_int_equal(n, 20 + 27 + 27);
}

static void test_proc_table(void **state)
{
	const struct xdr_proc_codec *c;

	(void)state;
	for (uint32_t p = 0; p <= NLMPROC_GRANTED_RES; p++) {
		assert_non_null(nlm_proc_codec(NLM_V1, p));
		assert_non_null(nlm_proc_codec(NLM_V3, p));
		assert_non_null(nlm_proc_codec(NLM_V4, p));
	}
	for (uint32_t p = 16; p < NLMPROC_SHARE; p++) {
		assert_null(nlm_proc_codec(NLM_V3, p));
		assert_null(nlm_proc_codec(NLM_V4, p));
		assert_null(nlm_proc_names[p]);
	}
	for (uint32_t p = NLMPROC_SHARE; p <= NLMPROC_FREE_ALL; p++) {
		assert_null(nlm_proc_codec(NLM_V1, p));
		assert_non_null(nlm_proc_codec(NLM_V3, p));
		assert_non_null(nlm_proc_codec(NLM_V4, p));
	}
	assert_null(nlm_proc_codec(NLM_V4, NLMPROC_COUNT));
	assert_null(nlm_proc_codec(NLM_V4, 0xffffffffu));
	assert_null(nlm_proc_codec(2, NLMPROC_LOCK));
	assert_null(nlm_proc_codec(5, NLMPROC_LOCK));
	assert_null(nlm_proc_codec(0, NLMPROC_NULL));

	c = nlm_proc_codec(NLM_V4, NLMPROC_NULL);
	assert_null(c->enc_args);
	assert_null(c->enc_res);
	c = nlm_proc_codec(NLM_V3, NLMPROC_LOCK);
	assert_ptr_equal(c->enc_args, nlm_enc_lockargs_v1);
	assert_ptr_equal(c->dec_res, nlm_dec_res);
	c = nlm_proc_codec(NLM_V4, NLMPROC_LOCK);
	assert_ptr_equal(c->enc_args, nlm_enc_lockargs_v4);
	c = nlm_proc_codec(NLM_V4, NLMPROC_TEST);
	assert_ptr_equal(c->dec_res, nlm_dec_testres_v4);
	assert_int_equal(c->res_size, sizeof(struct nlm_testres));
	c = nlm_proc_codec(NLM_V4, NLMPROC_GRANTED_MSG);
	assert_ptr_equal(c->dec_args, nlm_dec_testargs_v4);
	assert_null(c->enc_res);
	c = nlm_proc_codec(NLM_V4, NLMPROC_GRANTED_RES);
	assert_ptr_equal(c->dec_args, nlm_dec_res);
	assert_null(c->dec_res);
	c = nlm_proc_codec(NLM_V1, NLMPROC_TEST_RES);
	assert_ptr_equal(c->dec_args, nlm_dec_testres_v1);
	c = nlm_proc_codec(NLM_V4, NLMPROC_NM_LOCK);
	assert_ptr_equal(c->enc_args, nlm_enc_lockargs_v4);
	assert_ptr_equal(c->dec_res, nlm_dec_res);
	c = nlm_proc_codec(NLM_V4, NLMPROC_FREE_ALL);
	assert_ptr_equal(c->enc_args, nlm_enc_notify);
	assert_null(c->enc_res);
	assert_string_equal(nlm_proc_names[NLMPROC_GRANTED_MSG], "GRANTED_MSG");
	assert_string_equal(nlm_proc_names[NLMPROC_FREE_ALL], "FREE_ALL");
}

static void test_stat_table(void **state)
{
	static const struct {
		uint32_t st;
		int err;
		const char *name;
	} cases[] = {
		{ 0, 0, "NLM_GRANTED" },
		{ 1, -EAGAIN, "NLM_DENIED" },
		{ 2, -ENOLCK, "NLM_DENIED_NOLOCKS" },
		{ 3, NLM_ERRNO_BLOCKED, "NLM_BLOCKED" },
		{ 4, -EAGAIN, "NLM_DENIED_GRACE_PERIOD" },
		{ 5, -EDEADLK, "NLM4_DEADLCK" },
		{ 6, -EROFS, "NLM4_ROFS" },
		{ 7, -ESTALE, "NLM4_STALE_FH" },
		{ 8, -EFBIG, "NLM4_FBIG" },
		{ 9, -ENOLCK, "NLM4_FAILED" },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(nlm_stat_errno(cases[i].st), cases[i].err);
		assert_string_equal(nlm_stat_name(cases[i].st), cases[i].name);
	}
	assert_true(NLM_ERRNO_BLOCKED > 0);
	assert_int_equal(nlm_stat_errno(10), -EIO);
	assert_int_equal(nlm_stat_errno(0xffffffffu), -EIO);
	assert_null(nlm_stat_name(10));
	assert_null(nlm_stat_name(0xffffffffu));
}

static void test_stat_table_v1(void **state)
{
	static const struct {
		uint32_t st;
		int err;
	} cases[] = {
		{ 0, 0 },
		{ 1, -EAGAIN },
		{ 2, -ENOLCK },
		{ 3, NLM_ERRNO_BLOCKED },
		{ 4, -EAGAIN },
		/* v4 only: unknown to a v1/v3 peer */
		{ 5, -EIO },
		{ 6, -EIO },
		{ 7, -EIO },
		{ 8, -EIO },
		{ 9, -EIO },
		{ 10, -EIO },
		{ 0xffffffffu, -EIO },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		assert_int_equal(nlm_stat_errno_v1(cases[i].st), cases[i].err);
}

static void test_range_fits_v1(void **state)
{
	(void)state;
	assert_true(nlm_range_fits_v1(0, 0));
	assert_true(nlm_range_fits_v1(0, 1));
	assert_true(nlm_range_fits_v1(0, 0x80000000ull));   /* bytes 0..2^31-1 */
	assert_false(nlm_range_fits_v1(0, 0x80000001ull));
	assert_true(nlm_range_fits_v1(0x7fffffffull, 0));    /* to EOF */
	assert_true(nlm_range_fits_v1(0x7fffffffull, 1));    /* the last byte */
	assert_false(nlm_range_fits_v1(0x7fffffffull, 2));
	assert_true(nlm_range_fits_v1(100, 0x7fffff9cull));
	assert_false(nlm_range_fits_v1(100, 0x7fffff9dull));
	assert_false(nlm_range_fits_v1(0x80000000ull, 0));
	assert_false(nlm_range_fits_v1(0x80000000ull, 1));
	assert_false(nlm_range_fits_v1(1ull << 32, 0));
	assert_false(nlm_range_fits_v1(0, 1ull << 32));
	assert_false(nlm_range_fits_v1(1, UINT64_MAX));
	assert_false(nlm_range_fits_v1(UINT64_MAX, 1));
}

/* What the range check lets through, the v1 encoder takes. */
static void test_range_fits_encodes_v1(void **state)
{
	static const uint64_t r[][2] = {
		{ 0, 0 }, { 0, 0x80000000ull }, { 0x7fffffffull, 0 },
		{ 0x7fffffffull, 1 }, { 100, 0x7fffff9cull },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(r); i++) {
		struct nlm_lockargs la = { COOKIE, false, true,
					   LOCK(r[i][0], r[i][1]), false, 1 };

		assert_true(nlm_range_fits_v1(r[i][0], r[i][1]));
		assert_int_equal(xdr_check_encode_err(nlm_enc_lockargs_v1, &la), 0);
	}
}

/* ---- v1/3 ranges that do not fit ---- */

static void test_v1_overflow(void **state)
{
	struct nlm_lockargs la = { COOKIE, true, true, LOCK(1ull << 32, 1),
				   false, 1 };
	struct nlm_testargs ta = { COOKIE, true, LOCK(0, 0x100000000ull) };
	struct nlm_cancargs ca = { COOKIE, true, true,
				   LOCK(0xffffffffffffffffull, 0) };
	struct nlm_unlockargs ua = { COOKIE, LOCK(0x100000000ull, 0) };
	struct nlm_testres tr = {
		COOKIE, NLM_DENIED, { true, 1, { NULL, 0 }, 0, 1ull << 33 },
	};
	struct xdr_enc e;

	(void)state;
	assert_int_equal(xdr_check_encode_err(nlm_enc_lockargs_v1, &la), -EOVERFLOW);
	assert_int_equal(xdr_check_encode_err(nlm_enc_lockargs_v4, &la), 0);
	la.alock.l_offset = 0;
	la.alock.l_len = 1ull << 32;
	assert_int_equal(xdr_check_encode_err(nlm_enc_lockargs_v1, &la), -EOVERFLOW);
	la.alock.l_offset = 0xffffffffu;
	la.alock.l_len = 0xffffffffu;
	assert_int_equal(xdr_check_encode_err(nlm_enc_lockargs_v1, &la), 0);

	assert_int_equal(xdr_check_encode_err(nlm_enc_testargs_v1, &ta), -EOVERFLOW);
	assert_int_equal(xdr_check_encode_err(nlm_enc_testargs_v4, &ta), 0);
	assert_int_equal(xdr_check_encode_err(nlm_enc_cancargs_v1, &ca), -EOVERFLOW);
	assert_int_equal(xdr_check_encode_err(nlm_enc_cancargs_v4, &ca), 0);
	assert_int_equal(xdr_check_encode_err(nlm_enc_unlockargs_v1, &ua), -EOVERFLOW);
	assert_int_equal(xdr_check_encode_err(nlm_enc_unlockargs_v4, &ua), 0);
	assert_int_equal(xdr_check_encode_err(nlm_enc_testres_v1, &tr), -EOVERFLOW);
	assert_int_equal(xdr_check_encode_err(nlm_enc_testres_v4, &tr), 0);
	/* Not denied: the holder is not sent, so it cannot overflow. */
	tr.stat = NLM_GRANTED;
	assert_int_equal(xdr_check_encode_err(nlm_enc_testres_v1, &tr), 0);

	/* The error is sticky. */
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(nlm_enc_unlockargs_v1(&e, &ua), -EOVERFLOW);
	assert_int_equal(xdr_enc_u32(&e, 1), -EOVERFLOW);
	assert_int_equal(nlm_enc_res(&e, &s_res), -EOVERFLOW);
	assert_int_equal(xdr_enc_error(&e), -EOVERFLOW);
	xdr_enc_release(&e);

	/* An earlier error is kept, not replaced. */
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	e.err = -ENOMEM;
	assert_int_equal(nlm_enc_unlockargs_v1(&e, &ua), -ENOMEM);
	xdr_enc_release(&e);
}

/* ---- hostile lengths and values ---- */

/* Builds, with the cursor's primitives only, a v4 UNLOCK whose cookie,
 * caller_name, fh and oh are given as (length field, bytes present). */
struct piece {
	uint32_t len_field;
	size_t present;
	uint8_t fill;
};

static void build_unlock(struct xdr_enc *e, struct piece cookie,
			 struct piece name, struct piece fh, struct piece oh)
{
	const struct piece *pp[] = { &cookie, &name, &fh, &oh };

	assert_int_equal(xdr_enc_init(e, 0, 0), 0);
	for (size_t i = 0; i < ARRAY_SIZE(pp); i++) {
		uint8_t *b;

		xdr_enc_u32(e, pp[i]->len_field);
		b = xdr_enc_reserve(e, pp[i]->present + xdr_pad(pp[i]->present));
		assert_non_null(b);
		memset(b, pp[i]->fill, pp[i]->present);
	}
	xdr_enc_i32(e, 1);     /* svid */
	xdr_enc_u64(e, 0);     /* l_offset */
	xdr_enc_u64(e, 0);     /* l_len */
	assert_int_equal(xdr_enc_error(e), 0);
}

static int decode_unlock(struct piece cookie, struct piece name,
			 struct piece fh, struct piece oh)
{
	struct nlm_unlockargs r;
	struct xdr_enc e;
	int ret;

	build_unlock(&e, cookie, name, fh, oh);
	ret = xdr_check_decode(nlm_dec_unlockargs_v4, e.buf, e.len, &r, NULL);
	xdr_enc_release(&e);
	return ret;
}

static void test_absurd_lengths(void **state)
{
	const struct piece ok4 = { 4, 4, 'x' };
	const struct piece name_ok = { 7, 7, 'n' };

	(void)state;
	assert_int_equal(decode_unlock(ok4, name_ok, ok4, ok4), 0);
	/* netobj lengths of 0xffffffff with little or much behind them */
	assert_int_equal(decode_unlock((struct piece){ 0xffffffffu, 4, 1 },
				       name_ok, ok4, ok4), -EBADMSG);
	assert_int_equal(decode_unlock(ok4, name_ok,
				       (struct piece){ 0xffffffffu, 2048, 1 },
				       ok4), -EBADMSG);
	assert_int_equal(decode_unlock(ok4, name_ok, ok4,
				       (struct piece){ 0xfffffffcu, 0, 0 }),
			 -EBADMSG);
	/* netobj at and over its limit, all bytes present */
	assert_int_equal(decode_unlock((struct piece){ 1024, 1024, 7 },
				       name_ok, ok4, ok4), 0);
	assert_int_equal(decode_unlock((struct piece){ 1025, 1025, 7 },
				       name_ok, ok4, ok4), -EBADMSG);
	assert_int_equal(decode_unlock(ok4, name_ok,
				       (struct piece){ 1028, 1028, 7 }, ok4),
			 -EBADMSG);
	/* caller_name: 1024 accepted; 1025 and 2000 refused even when all
	 * the bytes are there */
	assert_int_equal(decode_unlock(ok4, (struct piece){ 1024, 1024, 'a' },
				       ok4, ok4), 0);
	assert_int_equal(decode_unlock(ok4, (struct piece){ 1025, 1025, 'a' },
				       ok4, ok4), -EBADMSG);
	assert_int_equal(decode_unlock(ok4, (struct piece){ 2000, 2000, 'a' },
				       ok4, ok4), -EBADMSG);
	assert_int_equal(decode_unlock(ok4,
				       (struct piece){ 0xffffffffu, 16, 'a' },
				       ok4, ok4), -EBADMSG);
	/* a NUL inside the caller name */
	assert_int_equal(decode_unlock(ok4, (struct piece){ 4, 4, 0 },
				       ok4, ok4), -EBADMSG);
}

static void test_absurd_notify(void **state)
{
	struct nlm_notify r;
	struct xdr_enc e;
	uint8_t *b;

	(void)state;
	/* MAXNAMELEN is LM_MAXSTRLEN+1 = 1025 */
	for (uint32_t n = 1025; n <= 1026; n++) {
		assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
		xdr_enc_u32(&e, n);
		b = xdr_enc_reserve(&e, n + xdr_pad(n));
		memset(b, 'z', n);
		xdr_enc_i32(&e, 0);
		assert_int_equal(xdr_check_decode(nlm_dec_notify, e.buf, e.len, &r,
					     NULL),
				 n == 1025 ? 0 : -EBADMSG);
		xdr_enc_release(&e);
	}
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	xdr_enc_u32(&e, 0xffffffffu);
	xdr_enc_i32(&e, 0);
	assert_int_equal(xdr_check_decode(nlm_dec_notify, e.buf, e.len, &r, NULL),
			 -EBADMSG);
	xdr_enc_release(&e);
}

static void test_bad_bools(void **state)
{
	uint8_t buf[sizeof(lockargs_v4)];
	struct nlm_lockargs r;
	/* offsets of block, exclusive and reclaim in lockargs_v4 */
	static const size_t at[] = { 8, 12, 72 };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(at); i++) {
		memcpy(buf, lockargs_v4, sizeof(buf));
		buf[at[i] + 3] = 2;
		assert_int_equal(xdr_check_decode(nlm_dec_lockargs_v4, buf,
					     sizeof(buf), &r, NULL), -EBADMSG);
		buf[at[i] + 3] = 0;
		buf[at[i]] = 0x80;
		assert_int_equal(xdr_check_decode(nlm_dec_lockargs_v4, buf,
					     sizeof(buf), &r, NULL), -EBADMSG);
	}
	/* holder.exclusive in a denied TEST result */
	{
		uint8_t tb[sizeof(testres_denied_v4)];
		struct nlm_testres tr;

		memcpy(tb, testres_denied_v4, sizeof(tb));
		tb[15] = 3;
		assert_int_equal(xdr_check_decode(nlm_dec_testres_v4, tb, sizeof(tb),
					     &tr, NULL), -EBADMSG);
	}
}

static void test_encode_limits(void **state)
{
	char *big = malloc(2001);
	uint8_t *obj = calloc(1, 1025);
	struct nlm_lockargs la = { COOKIE, true, true, LOCK(0, 0), false, 1 };
	struct nlm_notify n = { NULL, 0, 0 };
	struct nlm_shareargs sa = s_shareargs;

	(void)state;
	assert_non_null(big);
	assert_non_null(obj);
	memset(big, 'q', 2000);
	big[2000] = '\0';

	la.alock.caller_name = big;
	la.alock.caller_name_len = 2000;
	assert_int_equal(xdr_check_encode_err(nlm_enc_lockargs_v4, &la), -EINVAL);
	la.alock.caller_name_len = 1025;
	assert_int_equal(xdr_check_encode_err(nlm_enc_lockargs_v4, &la), -EINVAL);
	la.alock.caller_name_len = 1024;
	assert_int_equal(xdr_check_encode_err(nlm_enc_lockargs_v4, &la), 0);
	la.alock.caller_name = "a\0b";
	la.alock.caller_name_len = 3;
	assert_int_equal(xdr_check_encode_err(nlm_enc_lockargs_v4, &la), -EINVAL);
	la.alock.caller_name = NULL;
	la.alock.caller_name_len = 0;
	assert_int_equal(xdr_check_encode_err(nlm_enc_lockargs_v4, &la), 0);
	la.alock.caller_name_len = 1;
	assert_int_equal(xdr_check_encode_err(nlm_enc_lockargs_v4, &la), -EINVAL);
	la.alock.caller_name = "client1";
	la.alock.caller_name_len = 7;

	la.alock.fh.data = obj;
	la.alock.fh.len = 1025;
	assert_int_equal(xdr_check_encode_err(nlm_enc_lockargs_v4, &la), -EINVAL);
	la.alock.fh.len = 1024;
	assert_int_equal(xdr_check_encode_err(nlm_enc_lockargs_v4, &la), 0);
	la.cookie.data = NULL;
	la.cookie.len = 4;
	assert_int_equal(xdr_check_encode_err(nlm_enc_lockargs_v4, &la), -EINVAL);

	n.name = big;
	n.name_len = 1025;
	assert_int_equal(xdr_check_encode_err(nlm_enc_notify, &n), 0);
	n.name_len = 1026;
	assert_int_equal(xdr_check_encode_err(nlm_enc_notify, &n), -EINVAL);

	sa.share.caller_name = big;
	sa.share.caller_name_len = 2000;
	assert_int_equal(xdr_check_encode_err(nlm_enc_shareargs, &sa), -EINVAL);
	free(big);
	free(obj);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lockargs_v4_known),
		cmocka_unit_test(test_lockargs_v1_known),
		cmocka_unit_test(test_testargs_known),
		cmocka_unit_test(test_cancargs_unlockargs_known),
		cmocka_unit_test(test_testres_known),
		cmocka_unit_test(test_res_known),
		cmocka_unit_test(test_share_notify_known),
		cmocka_unit_test(test_round_trip_all),
		cmocka_unit_test(test_proc_table),
		cmocka_unit_test(test_stat_table),
		cmocka_unit_test(test_stat_table_v1),
		cmocka_unit_test(test_range_fits_v1),
		cmocka_unit_test(test_range_fits_encodes_v1),
		cmocka_unit_test(test_v1_overflow),
		cmocka_unit_test(test_absurd_lengths),
		cmocka_unit_test(test_absurd_notify),
		cmocka_unit_test(test_bad_bools),
		cmocka_unit_test(test_encode_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
