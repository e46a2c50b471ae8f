/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NSM (STATMON v1) codecs.  Known answers are worked by hand from
 * rpcsvc/sm_inter.x and XNFS chapter 11 (SM_NOTIFY): every field a 4-byte
 * big-endian unit, strings a length then the bytes padded with zeros to a
 * multiple of 4, opaque priv[16] as 16 bytes with no length.
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

#include "nsm.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- pieces, by hand ---- */

/* string mon_name<> = "server" (6 bytes, 2 of padding) */
#define B_SERVER 0x00, 0x00, 0x00, 0x06, \
	's', 'e', 'r', 'v', 'e', 'r', 0x00, 0x00
/* my_id: "client1", NLM 100021 = 0x186b5, version 3, procedure 16 */
#define B_MY_ID 0x00, 0x00, 0x00, 0x07, \
	'c', 'l', 'i', 'e', 'n', 't', '1', 0x00, \
	0x00, 0x01, 0x86, 0xb5, \
	0x00, 0x00, 0x00, 0x03, \
	0x00, 0x00, 0x00, 0x10
/* opaque priv[16] = 00..0f */
#define B_PRIV 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, \
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f

#define MY_ID { "client1", 7, 100021, 3, 16 }
#define PRIV { 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, \
	       0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f }

static const uint8_t priv_bytes[NSM_PRIV_SIZE] = PRIV;

static const uint8_t sm_name_bytes[] = { B_SERVER };
static const uint8_t my_id_bytes[] = { B_MY_ID };
static const uint8_t mon_id_bytes[] = { B_SERVER, B_MY_ID };
static const uint8_t mon_bytes[] = { B_SERVER, B_MY_ID, B_PRIV };
/* sm_stat_res: stat_succ, state 5 */
static const uint8_t stat_res_succ[] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05,
};
/* sm_stat_res: stat_fail, state -1 */
static const uint8_t stat_res_fail[] = {
	0x00, 0x00, 0x00, 0x01, 0xff, 0xff, 0xff, 0xff,
};
/* sm_stat: state 8 */
static const uint8_t sm_stat_bytes[] = { 0x00, 0x00, 0x00, 0x08 };
/* stat_chge: "client1" now at state 9 */
static const uint8_t stat_chge_bytes[] = {
	0x00, 0x00, 0x00, 0x07, 'c', 'l', 'i', 'e', 'n', 't', '1', 0x00,
	0x00, 0x00, 0x00, 0x09,
};
/* status (statd's callback): "server" rebooted, now 7, our priv back */
static const uint8_t status_bytes[] = { B_SERVER, 0x00, 0x00, 0x00, 0x07,
					B_PRIV };

static void assert_my_id(const struct nsm_my_id *m)
{
	assert_int_equal(m->my_name_len, 7);
	assert_memory_equal(m->my_name, "client1", 7);
	assert_int_equal(m->my_prog, 100021);
	assert_int_equal(m->my_vers, 3);
	assert_int_equal(m->my_proc, 16);
}

static void assert_server(const char *s, uint32_t len)
{
	assert_int_equal(len, 6);
	assert_memory_equal(s, "server", 6);
}

/* ---- known answers ---- */

static void test_args_known(void **state)
{
	struct nsm_name n = { "server", 6 };
	struct nsm_my_id m = MY_ID;
	struct nsm_mon_id mi = { "server", 6, MY_ID };
	struct nsm_mon mon = { { "server", 6, MY_ID }, PRIV };
	struct nsm_name rn;
	struct nsm_my_id rm;
	struct nsm_mon_id rmi;
	struct nsm_mon rmon;
	struct xdr_dec d;

	(void)state;
	xdr_check_encoding(nsm_enc_name, &n, sm_name_bytes, sizeof(sm_name_bytes));
	xdr_dec_init(&d, sm_name_bytes, sizeof(sm_name_bytes));
	assert_int_equal(nsm_dec_name(&d, &rn), 0);
	assert_server(rn.mon_name, rn.mon_name_len);
	assert_ptr_equal(rn.mon_name, (const char *)sm_name_bytes + 4);
	xdr_check_truncations(nsm_dec_name, sm_name_bytes, sizeof(sm_name_bytes),
			  sizeof(rn));

	xdr_check_encoding(nsm_enc_my_id, &m, my_id_bytes, sizeof(my_id_bytes));
	xdr_dec_init(&d, my_id_bytes, sizeof(my_id_bytes));
	assert_int_equal(nsm_dec_my_id(&d, &rm), 0);
	assert_my_id(&rm);
	xdr_check_truncations(nsm_dec_my_id, my_id_bytes, sizeof(my_id_bytes),
			  sizeof(rm));

	xdr_check_encoding(nsm_enc_mon_id, &mi, mon_id_bytes, sizeof(mon_id_bytes));
	xdr_dec_init(&d, mon_id_bytes, sizeof(mon_id_bytes));
	assert_int_equal(nsm_dec_mon_id(&d, &rmi), 0);
	assert_server(rmi.mon_name, rmi.mon_name_len);
	assert_my_id(&rmi.my_id);
	xdr_check_truncations(nsm_dec_mon_id, mon_id_bytes, sizeof(mon_id_bytes),
			  sizeof(rmi));

	xdr_check_encoding(nsm_enc_mon, &mon, mon_bytes, sizeof(mon_bytes));
	xdr_dec_init(&d, mon_bytes, sizeof(mon_bytes));
	assert_int_equal(nsm_dec_mon(&d, &rmon), 0);
	assert_int_equal(xdr_dec_left(&d), 0);
	assert_server(rmon.mon_id.mon_name, rmon.mon_id.mon_name_len);
	assert_my_id(&rmon.mon_id.my_id);
	assert_memory_equal(rmon.priv, priv_bytes, NSM_PRIV_SIZE);
	xdr_check_truncations(nsm_dec_mon, mon_bytes, sizeof(mon_bytes),
			  sizeof(rmon));
}

static void test_results_known(void **state)
{
	struct nsm_stat_res succ = { NSM_STAT_SUCC, 5 };
	struct nsm_stat_res fail = { NSM_STAT_FAIL, -1 };
	struct nsm_stat st = { 8 };
	struct nsm_stat_res r;
	struct nsm_stat rs;
	struct xdr_dec d;

	(void)state;
	xdr_check_encoding(nsm_enc_stat_res, &succ, stat_res_succ,
		       sizeof(stat_res_succ));
	xdr_dec_init(&d, stat_res_succ, sizeof(stat_res_succ));
	assert_int_equal(nsm_dec_stat_res(&d, &r), 0);
	assert_int_equal(r.res_stat, NSM_STAT_SUCC);
	assert_int_equal(r.state, 5);
	xdr_check_truncations(nsm_dec_stat_res, stat_res_succ,
			  sizeof(stat_res_succ), sizeof(r));

	xdr_check_encoding(nsm_enc_stat_res, &fail, stat_res_fail,
		       sizeof(stat_res_fail));
	xdr_dec_init(&d, stat_res_fail, sizeof(stat_res_fail));
	assert_int_equal(nsm_dec_stat_res(&d, &r), 0);
	assert_int_equal(r.res_stat, NSM_STAT_FAIL);
	assert_int_equal(r.state, -1);

	xdr_check_encoding(nsm_enc_stat, &st, sm_stat_bytes, sizeof(sm_stat_bytes));
	xdr_dec_init(&d, sm_stat_bytes, sizeof(sm_stat_bytes));
	assert_int_equal(nsm_dec_stat(&d, &rs), 0);
	assert_int_equal(rs.state, 8);
	xdr_check_truncations(nsm_dec_stat, sm_stat_bytes, sizeof(sm_stat_bytes),
			  sizeof(rs));
}

static void test_notify_status_known(void **state)
{
	struct nsm_stat_chge c = { "client1", 7, 9 };
	struct nsm_status s = { "server", 6, 7, PRIV };
	struct nsm_stat_chge rc;
	struct nsm_status rs;
	struct xdr_dec d;

	(void)state;
	xdr_check_encoding(nsm_enc_stat_chge, &c, stat_chge_bytes,
		       sizeof(stat_chge_bytes));
	xdr_dec_init(&d, stat_chge_bytes, sizeof(stat_chge_bytes));
	assert_int_equal(nsm_dec_stat_chge(&d, &rc), 0);
	assert_int_equal(rc.mon_name_len, 7);
	assert_memory_equal(rc.mon_name, "client1", 7);
	assert_int_equal(rc.state, 9);
	xdr_check_truncations(nsm_dec_stat_chge, stat_chge_bytes,
			  sizeof(stat_chge_bytes), sizeof(rc));

	xdr_check_encoding(nsm_enc_status, &s, status_bytes, sizeof(status_bytes));
	xdr_dec_init(&d, status_bytes, sizeof(status_bytes));
	assert_int_equal(nsm_dec_status(&d, &rs), 0);
	assert_server(rs.mon_name, rs.mon_name_len);
	assert_int_equal(rs.state, 7);
	assert_memory_equal(rs.priv, priv_bytes, NSM_PRIV_SIZE);
	xdr_check_truncations(nsm_dec_status, status_bytes, sizeof(status_bytes),
			  sizeof(rs));
}

/* ---- every procedure, through the table ---- */

static const struct nsm_name s_name = { "nfs-server.example", 18 };
static const struct nsm_my_id s_my_id = { "me", 2, 0x20000099u, 1, 1 };
static const struct nsm_mon_id s_mon_id = { "", 0, { "x", 1, 1, 2, 3 } };
static const struct nsm_mon s_mon = {
	{ "10.0.0.1", 8, { "client", 6, 100021, 4, 16 } },
	{ 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80 },
};
static const struct nsm_stat_res s_stat_res = { 7, 0x7fffffff };
static const struct nsm_stat s_stat = { -2 };
static const struct nsm_stat_chge s_stat_chge = { "abc", 3, 101 };

static const void *sample_for(xdr_enc_fn enc)
{
	if (enc == nsm_enc_name)
		return &s_name;
	if (enc == nsm_enc_my_id)
		return &s_my_id;
	if (enc == nsm_enc_mon_id)
		return &s_mon_id;
	if (enc == nsm_enc_mon)
		return &s_mon;
	if (enc == nsm_enc_stat_res)
		return &s_stat_res;
	if (enc == nsm_enc_stat)
		return &s_stat;
	if (enc == nsm_enc_stat_chge)
		return &s_stat_chge;
	fail_msg("no sample for this encoder");
	return NULL;
}

static void round_trip(xdr_enc_fn enc, xdr_dec_fn dec, size_t size,
		       const void *obj)
{
	struct xdr_enc e1, e2;
	struct xdr_dec d;
	uint8_t *copy;
	void *res = malloc(size);

	assert_non_null(res);
	assert_int_equal(xdr_enc_init(&e1, 0, 0), 0);
	assert_int_equal(enc(&e1, obj), 0);
	assert_int_equal(e1.len % 4, 0);
	copy = malloc(e1.len);
	assert_non_null(copy);
	memcpy(copy, e1.buf, e1.len);
	xdr_dec_init(&d, copy, e1.len);
	assert_int_equal(dec(&d, res), 0);
	assert_int_equal(xdr_dec_left(&d), 0);
	assert_int_equal(xdr_enc_init(&e2, 0, 0), 0);
	assert_int_equal(enc(&e2, res), 0);
	assert_int_equal(e2.len, e1.len);
	assert_memory_equal(e2.buf, e1.buf, e1.len);
	xdr_check_truncations(dec, e1.buf, e1.len, size);
	xdr_enc_release(&e2);
	xdr_enc_release(&e1);
	free(copy);
	free(res);
}

static void test_round_trip_all(void **state)
{
	struct nsm_status st = { "peer", 4, 3, PRIV };
	unsigned n = 0;

	(void)state;
	for (uint32_t p = 0; p < NSMPROC_COUNT; p++) {
		const struct xdr_proc_codec *c = nsm_proc_codec(p);

		assert_non_null(c);
		assert_int_equal(c->proc, p);
		assert_string_equal(c->name, nsm_proc_names[p]);
		assert_true(!c->enc_args == !c->dec_args);
		assert_true(!c->enc_res == !c->dec_res);
		if (c->enc_args) {
			round_trip(c->enc_args, c->dec_args, c->args_size,
				   sample_for(c->enc_args));
			n++;
		}
		if (c->enc_res) {
			round_trip(c->enc_res, c->dec_res, c->res_size,
				   sample_for(c->enc_res));
			n++;
		}
	}
	/* STAT MON UNMON UNMON_ALL NOTIFY args; STAT MON UNMON UNMON_ALL res */
	assert_int_equal(n, 9);
	round_trip(nsm_enc_status, nsm_dec_status, sizeof(st), &st);
}

static void test_proc_table(void **state)
{
	const struct xdr_proc_codec *c;

	(void)state;
	assert_null(nsm_proc_codec(NSMPROC_COUNT));
	assert_null(nsm_proc_codec(0xffffffffu));
	c = nsm_proc_codec(NSMPROC_NULL);
	assert_null(c->enc_args);
	assert_null(c->dec_res);
	c = nsm_proc_codec(NSMPROC_SIMU_CRASH);
	assert_string_equal(c->name, "SM_SIMU_CRASH");
	assert_null(c->enc_args);
	assert_null(c->dec_res);
	c = nsm_proc_codec(NSMPROC_STAT);
	assert_ptr_equal(c->enc_args, nsm_enc_name);
	assert_ptr_equal(c->dec_res, nsm_dec_stat_res);
	c = nsm_proc_codec(NSMPROC_MON);
	assert_ptr_equal(c->enc_args, nsm_enc_mon);
	assert_ptr_equal(c->dec_res, nsm_dec_stat_res);
	assert_int_equal(c->args_size, sizeof(struct nsm_mon));
	c = nsm_proc_codec(NSMPROC_UNMON);
	assert_ptr_equal(c->enc_args, nsm_enc_mon_id);
	assert_ptr_equal(c->dec_res, nsm_dec_stat);
	c = nsm_proc_codec(NSMPROC_UNMON_ALL);
	assert_ptr_equal(c->enc_args, nsm_enc_my_id);
	assert_ptr_equal(c->dec_res, nsm_dec_stat);
	c = nsm_proc_codec(NSMPROC_NOTIFY);
	assert_string_equal(c->name, "SM_NOTIFY");
	assert_ptr_equal(c->dec_args, nsm_dec_stat_chge);
	assert_null(c->enc_res);

	assert_false(nsm_state_up(0));
	assert_true(nsm_state_up(1));
	assert_false(nsm_state_up(100));
	assert_true(nsm_state_up(-1));
}

/* ---- hostile lengths ---- */

/* A status callback with a name of len_field (present bytes of it). */
static int decode_status_name(uint32_t len_field, size_t present, uint8_t fill)
{
	struct nsm_status r;
	struct xdr_enc e;
	uint8_t *b;
	int ret;

	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	xdr_enc_u32(&e, len_field);
	b = xdr_enc_reserve(&e, present + xdr_pad(present));
	assert_non_null(b);
	memset(b, fill, present);
	xdr_enc_i32(&e, 3);
	xdr_enc_opaque_fixed(&e, priv_bytes, NSM_PRIV_SIZE);
	assert_int_equal(xdr_enc_error(&e), 0);
	ret = xdr_check_decode(nsm_dec_status, e.buf, e.len, &r, NULL);
	xdr_enc_release(&e);
	return ret;
}

static void test_absurd_lengths(void **state)
{
	uint8_t buf[sizeof(mon_bytes)];
	struct nsm_mon rm;

	(void)state;
	assert_int_equal(decode_status_name(6, 6, 'n'), 0);
	assert_int_equal(decode_status_name(1024, 1024, 'n'), 0);
	assert_int_equal(decode_status_name(1025, 1025, 'n'), -EBADMSG);
	assert_int_equal(decode_status_name(2000, 2000, 'n'), -EBADMSG);
	assert_int_equal(decode_status_name(0xffffffffu, 0, 'n'), -EBADMSG);
	assert_int_equal(decode_status_name(0xffffffffu, 4096, 'n'), -EBADMSG);
	assert_int_equal(decode_status_name(4, 4, '\0'), -EBADMSG);

	/* my_name inside SM_MON: length 0xffffffff, then 0x00000401 */
	memcpy(buf, mon_bytes, sizeof(buf));
	buf[12] = buf[13] = buf[14] = buf[15] = 0xff;
	assert_int_equal(xdr_check_decode(nsm_dec_mon, buf, sizeof(buf), &rm, NULL),
			 -EBADMSG);
	buf[12] = buf[13] = 0;
	buf[14] = 0x04;
	buf[15] = 0x01;
	assert_int_equal(xdr_check_decode(nsm_dec_mon, buf, sizeof(buf), &rm, NULL),
			 -EBADMSG);
	/* mon_name longer than what follows */
	memcpy(buf, mon_bytes, sizeof(buf));
	buf[3] = 0x40;
	assert_int_equal(xdr_check_decode(nsm_dec_mon, buf, sizeof(buf), &rm, NULL),
			 -EBADMSG);
}

static void test_encode_limits(void **state)
{
	char *big = malloc(2001);
	struct nsm_name n;
	struct nsm_mon m = s_mon;
	struct nsm_stat_chge c = s_stat_chge;

	(void)state;
	assert_non_null(big);
	memset(big, 'h', 2000);
	big[2000] = '\0';
	n.mon_name = big;
	n.mon_name_len = 1024;
	assert_int_equal(xdr_check_encode_err(nsm_enc_name, &n), 0);
	n.mon_name_len = 1025;
	assert_int_equal(xdr_check_encode_err(nsm_enc_name, &n), -EINVAL);
	n.mon_name_len = 2000;
	assert_int_equal(xdr_check_encode_err(nsm_enc_name, &n), -EINVAL);
	n.mon_name = "a\0b";
	n.mon_name_len = 3;
	assert_int_equal(xdr_check_encode_err(nsm_enc_name, &n), -EINVAL);
	n.mon_name = NULL;
	n.mon_name_len = 2;
	assert_int_equal(xdr_check_encode_err(nsm_enc_name, &n), -EINVAL);

	m.mon_id.my_id.my_name = big;
	m.mon_id.my_id.my_name_len = 2000;
	assert_int_equal(xdr_check_encode_err(nsm_enc_mon, &m), -EINVAL);
	c.mon_name = big;
	c.mon_name_len = 1500;
	assert_int_equal(xdr_check_encode_err(nsm_enc_stat_chge, &c), -EINVAL);
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_args_known),
		cmocka_unit_test(test_results_known),
		cmocka_unit_test(test_notify_status_known),
		cmocka_unit_test(test_round_trip_all),
		cmocka_unit_test(test_proc_table),
		cmocka_unit_test(test_absurd_lengths),
		cmocka_unit_test(test_encode_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
