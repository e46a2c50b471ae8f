/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Port mapper v2 and rpcbind GETADDR codecs.  Known answers are worked by
 * hand from RFC 1833, or are reply bodies captured from rpcbind on
 * 127.0.0.1 (record mark and the 24-byte accepted reply header removed).
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

#include "pmap.h"

static void check_bytes(const struct xdr_enc *e, const uint8_t *want,
			size_t len)
{
	assert_int_equal(xdr_enc_error(e), 0);
	assert_int_equal(e->len, len);
	assert_memory_equal(e->buf, want, len);
}

/* ---- known answers, by hand from RFC 1833 ---- */

/* GETPORT(mapping{100005 MOUNT, 3, IPPROTO_TCP, 0}) */
static const uint8_t getport_args_mnt3_tcp[] = {
	0x00, 0x01, 0x86, 0xa5, /* prog 100005 */
	0x00, 0x00, 0x00, 0x03, /* vers 3 */
	0x00, 0x00, 0x00, 0x06, /* prot IPPROTO_TCP */
	0x00, 0x00, 0x00, 0x00, /* port (ignored) */
};

/* DUMP: two mappings, then the end of the list. */
static const uint8_t dump_two[] = {
	0x00, 0x00, 0x00, 0x01, /* value follows */
	0x00, 0x01, 0x86, 0xa0, /* 100000 */
	0x00, 0x00, 0x00, 0x02, /* v2 */
	0x00, 0x00, 0x00, 0x11, /* udp */
	0x00, 0x00, 0x00, 0x6f, /* 111 */
	0x00, 0x00, 0x00, 0x01, /* value follows */
	0x00, 0x01, 0x86, 0xa3, /* 100003 */
	0x00, 0x00, 0x00, 0x03, /* v3 */
	0x00, 0x00, 0x00, 0x06, /* tcp */
	0x00, 0x00, 0x08, 0x01, /* 2049 */
	0x00, 0x00, 0x00, 0x00, /* no value follows */
};

/* rpcb{100003, 3, "tcp", "", ""} */
static const uint8_t rpcb_args_nfs3_tcp[] = {
	0x00, 0x01, 0x86, 0xa3, /* r_prog */
	0x00, 0x00, 0x00, 0x03, /* r_vers */
	0x00, 0x00, 0x00, 0x03, 't', 'c', 'p', 0x00, /* r_netid */
	0x00, 0x00, 0x00, 0x00, /* r_addr "" */
	0x00, 0x00, 0x00, 0x00, /* r_owner "" */
};

/* rpcb{100021, 4, "tcp6", "::.128.35", ""}: the lock listener's rpcbind
 * v4 SET of NLM v4 on port 32803 over IPv6. */
static const uint8_t rpcb_set_nlm4_tcp6[] = {
	0x00, 0x01, 0x86, 0xb5, /* r_prog 100021 */
	0x00, 0x00, 0x00, 0x04, /* r_vers 4 */
	0x00, 0x00, 0x00, 0x04, 't', 'c', 'p', '6', /* r_netid */
	0x00, 0x00, 0x00, 0x09, ':', ':', '.', '1', /* r_addr */
	'2', '8', '.', '3', '5', 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, /* r_owner "" */
};

/* GETADDR(100003, 3, "tcp6") answered by rpcbind 1.2.6 asked on ::1:
 * "::1.8.1" (the server's wildcard merged with the address asked). */
static const uint8_t cap_getaddr_nfs_tcp6[] = {
	0x00, 0x00, 0x00, 0x07, ':', ':', '1', '.',
	'8', '.', '1', 0x00,
};

/* ---- captured from rpcbind 1.2.6 on 127.0.0.1 ---- */

/* PMAPPROC_GETPORT(100005, 3, tcp) -> 20048 */
static const uint8_t cap_getport_mountd[] = { 0x00, 0x00, 0x4e, 0x50 };
/* PMAPPROC_GETPORT(100099, 1, tcp) -> 0, not registered */
static const uint8_t cap_getport_unreg[] = { 0x00, 0x00, 0x00, 0x00 };

/* RPCBPROC_GETADDR v4 (showmount asking for mountd) -> "127.0.0.1.78.80" */
static const uint8_t cap_getaddr_mountd[] = {
	0x00, 0x00, 0x00, 0x0f, 0x31, 0x32, 0x37, 0x2e, 0x30, 0x2e, 0x30,
	0x2e, 0x31, 0x2e, 0x37, 0x38, 0x2e, 0x38, 0x30, 0x00,
};

/* PMAPPROC_DUMP (rpcinfo -p 127.0.0.1): 18 mappings */
static const uint8_t cap_dump[] = {
	0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x86, 0xa0, 0x00, 0x00, 0x00, 0x04,
	0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x6f, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x01, 0x86, 0xa0, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x06,
	0x00, 0x00, 0x00, 0x6f, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x86, 0xa0,
	0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00, 0x6f,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x86, 0xa0, 0x00, 0x00, 0x00, 0x04,
	0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x6f, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x01, 0x86, 0xa0, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x11,
	0x00, 0x00, 0x00, 0x6f, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x86, 0xa0,
	0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x6f,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x86, 0xa3, 0x00, 0x00, 0x00, 0x03,
	0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x08, 0x01, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x01, 0x86, 0xa3, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x06,
	0x00, 0x00, 0x08, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x86, 0xa5,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x4e, 0x50,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x86, 0xa5, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x4e, 0x50, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x01, 0x86, 0xa5, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x11,
	0x00, 0x00, 0x4e, 0x50, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x86, 0xa5,
	0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x4e, 0x50,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x86, 0xb5, 0x00, 0x00, 0x00, 0x04,
	0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x80, 0x23, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x01, 0x86, 0xb5, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x06,
	0x00, 0x00, 0x80, 0x23, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x86, 0xab,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x03, 0x6b,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x86, 0xab, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x03, 0x6b, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x01, 0x86, 0xab, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x11,
	0x00, 0x00, 0x03, 0x6b, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x86, 0xab,
	0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x03, 0x6b,
	0x00, 0x00, 0x00, 0x00,
};

static void test_proc_names(void **state)
{
	(void)state;
	assert_string_equal(pmap_proc_names[PMAPPROC_GETPORT], "GETPORT");
	assert_string_equal(pmap_proc_names[PMAPPROC_DUMP], "DUMP");
	assert_string_equal(pmap_rpcb_proc_names[RPCBPROC_GETADDR], "GETADDR");
}

static void test_getport_args_known(void **state)
{
	struct pmap_getport_args a = {
		{ 100005, 3, PMAP_PROT_TCP, 0 }
	};
	struct pmap_getport_args back;
	struct xdr_enc e;
	struct xdr_dec d;

	(void)state;
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(pmap_enc_getport_args(&e, &a), 0);
	check_bytes(&e, getport_args_mnt3_tcp, sizeof(getport_args_mnt3_tcp));

	xdr_dec_init(&d, e.buf, e.len);
	assert_int_equal(pmap_dec_getport_args(&d, &back), 0);
	assert_memory_equal(&back, &a, sizeof(a));
	assert_int_equal(xdr_dec_left(&d), 0);
	xdr_enc_release(&e);
	xdr_check_truncations(pmap_dec_getport_args, getport_args_mnt3_tcp,
			  sizeof(getport_args_mnt3_tcp),
			  sizeof(struct pmap_getport_args));
}

static void test_getport_res_captured(void **state)
{
	struct pmap_getport_res r;

	(void)state;
	assert_int_equal(xdr_check_decode(pmap_dec_getport_res, cap_getport_mountd,
				     4, &r, NULL), 0);
	assert_int_equal(r.port, 20048);
	assert_int_equal(xdr_check_decode(pmap_dec_getport_res, cap_getport_unreg,
				     4, &r, NULL), 0);
	assert_int_equal(r.port, 0);
	xdr_check_truncations(pmap_dec_getport_res, cap_getport_mountd, 4,
			  sizeof(r));
}

static void test_getport_res_round_trip(void **state)
{
	static const uint32_t ports[] = { 0, 1, 111, 2049, 65535, 0xffffffff };
	struct xdr_enc e;

	(void)state;
	for (size_t i = 0; i < sizeof(ports) / sizeof(ports[0]); i++) {
		struct pmap_getport_res r = { ports[i] }, back;

		assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
		assert_int_equal(pmap_enc_getport_res(&e, &r), 0);
		assert_int_equal(xdr_check_decode(pmap_dec_getport_res, e.buf, e.len,
					     &back, NULL), 0);
		assert_int_equal(back.port, ports[i]);
		xdr_enc_release(&e);
	}
}

static void test_set_res(void **state)
{
	static const uint8_t yes[] = { 0, 0, 0, 1 }, no[] = { 0, 0, 0, 0 },
			     two[] = { 0, 0, 0, 2 };
	struct pmap_set_res r;

	(void)state;
	assert_int_equal(xdr_check_decode(pmap_dec_set_res, yes, 4, &r, NULL), 0);
	assert_true(r.ok);
	assert_int_equal(xdr_check_decode(pmap_dec_set_res, no, 4, &r, NULL), 0);
	assert_false(r.ok);
	assert_int_equal(xdr_check_decode(pmap_dec_set_res, two, 4, &r, NULL),
			 -EBADMSG);
	xdr_check_truncations(pmap_dec_set_res, yes, 4, sizeof(r));
}

static void test_dump_known(void **state)
{
	struct pmap_dump_res r;
	struct pmap_mapping m;
	struct xdr_dec d;
	size_t used;

	(void)state;
	assert_int_equal(xdr_check_decode(pmap_dec_dump_res, dump_two,
				     sizeof(dump_two), &r, &used), 0);
	assert_int_equal(used, sizeof(dump_two));
	assert_int_equal(r.nentries, 2);
	xdr_check_truncations(pmap_dec_dump_res, dump_two, sizeof(dump_two),
			  sizeof(r));

	/* Iterate over the original buffer (the copy above is gone). */
	xdr_dec_init(&d, dump_two, sizeof(dump_two));
	assert_int_equal(pmap_dec_dump_res(&d, &r), 0);
	assert_int_equal(pmap_dump_next(&r.entries, &m), 1);
	assert_int_equal(m.prog, 100000);
	assert_int_equal(m.vers, 2);
	assert_int_equal(m.prot, PMAP_PROT_UDP);
	assert_int_equal(m.port, 111);
	assert_int_equal(pmap_dump_next(&r.entries, &m), 1);
	assert_int_equal(m.prog, 100003);
	assert_int_equal(m.vers, 3);
	assert_int_equal(m.prot, PMAP_PROT_TCP);
	assert_int_equal(m.port, 2049);
	assert_int_equal(pmap_dump_next(&r.entries, &m), 0);
	/* The end is sticky. */
	assert_int_equal(pmap_dump_next(&r.entries, &m), 0);
}

static void test_dump_captured(void **state)
{
	struct pmap_dump_res r;
	struct pmap_mapping m;
	struct xdr_dec d;
	uint32_t n = 0;
	bool saw_mountd_tcp = false, saw_nfs_tcp = false;

	(void)state;
	xdr_check_truncations(pmap_dec_dump_res, cap_dump, sizeof(cap_dump),
			  sizeof(r));
	xdr_dec_init(&d, cap_dump, sizeof(cap_dump));
	assert_int_equal(pmap_dec_dump_res(&d, &r), 0);
	assert_int_equal(r.nentries, 18);
	while (pmap_dump_next(&r.entries, &m) == 1) {
		n++;
		if (m.prog == 100005 && m.vers == 3 && m.prot == PMAP_PROT_TCP)
			saw_mountd_tcp = m.port == 20048;
		if (m.prog == 100003 && m.vers == 3 && m.prot == PMAP_PROT_TCP)
			saw_nfs_tcp = m.port == 2049;
	}
	assert_int_equal(n, 18);
	assert_true(saw_mountd_tcp);
	assert_true(saw_nfs_tcp);
}

static void test_dump_empty(void **state)
{
	static const uint8_t empty[] = { 0, 0, 0, 0 };
	struct pmap_dump_res r;
	struct pmap_mapping m;
	struct xdr_dec d;

	(void)state;
	xdr_dec_init(&d, empty, sizeof(empty));
	assert_int_equal(pmap_dec_dump_res(&d, &r), 0);
	assert_int_equal(r.nentries, 0);
	assert_int_equal(pmap_dump_next(&r.entries, &m), 0);
	xdr_check_truncations(pmap_dec_dump_res, empty, sizeof(empty), sizeof(r));
}

static void test_dump_bad_bool(void **state)
{
	uint8_t buf[sizeof(dump_two)];
	struct pmap_dump_res r;

	(void)state;
	/* value_follows 2, first and second. */
	memcpy(buf, dump_two, sizeof(buf));
	xdr_put_u32(buf, 2);
	assert_int_equal(xdr_check_decode(pmap_dec_dump_res, buf, sizeof(buf), &r,
				     NULL), -EBADMSG);
	memcpy(buf, dump_two, sizeof(buf));
	xdr_put_u32(buf + 20, 2);
	assert_int_equal(xdr_check_decode(pmap_dec_dump_res, buf, sizeof(buf), &r,
				     NULL), -EBADMSG);
	memcpy(buf, dump_two, sizeof(buf));
	xdr_put_u32(buf + 40, 0xffffffff);
	assert_int_equal(xdr_check_decode(pmap_dec_dump_res, buf, sizeof(buf), &r,
				     NULL), -EBADMSG);
}

/* A list that never ends: TRUE mapping, over and over, to the end of
 * a large buffer. */
static void test_dump_never_ends(void **state)
{
	enum { N = 4096 };
	uint8_t *buf = malloc(N * 20);
	struct pmap_dump_res r;

	(void)state;
	assert_non_null(buf);
	for (size_t i = 0; i < N; i++) {
		xdr_put_u32(buf + 20 * i, 1);
		xdr_put_u32(buf + 20 * i + 4, 100000);
		xdr_put_u32(buf + 20 * i + 8, 2);
		xdr_put_u32(buf + 20 * i + 12, 6);
		xdr_put_u32(buf + 20 * i + 16, 111);
	}
	assert_int_equal(xdr_check_decode(pmap_dec_dump_res, buf, N * 20, &r, NULL),
			 -EBADMSG);
	free(buf);
}

static void test_dump_round_trip(void **state)
{
	struct pmap_mapping maps[100], m;
	struct pmap_dump_res r;
	struct xdr_enc e;
	struct xdr_dec d;
	size_t i;

	(void)state;
	for (i = 0; i < 100; i++) {
		maps[i].prog = 100000 + (uint32_t)i;
		maps[i].vers = (uint32_t)i % 5;
		maps[i].prot = i & 1 ? PMAP_PROT_UDP : PMAP_PROT_TCP;
		maps[i].port = 0xffffffffu - (uint32_t)i;
	}
	for (size_t n = 0; n <= 100; n += 25) {
		assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
		assert_int_equal(pmap_enc_dump_res(&e, maps, n), 0);
		assert_int_equal(e.len, 4 + 20 * n);
		xdr_dec_init(&d, e.buf, e.len);
		assert_int_equal(pmap_dec_dump_res(&d, &r), 0);
		assert_int_equal(xdr_dec_left(&d), 0);
		assert_int_equal(r.nentries, n);
		for (i = 0; pmap_dump_next(&r.entries, &m) == 1; i++)
			assert_memory_equal(&m, &maps[i], sizeof(m));
		assert_int_equal(i, n);
		xdr_enc_release(&e);
	}
}

static void test_dump_trailing_bytes_untouched(void **state)
{
	uint8_t buf[sizeof(dump_two) + 8];
	struct pmap_dump_res r;
	struct xdr_dec d;

	(void)state;
	memcpy(buf, dump_two, sizeof(dump_two));
	memset(buf + sizeof(dump_two), 0xee, 8);
	xdr_dec_init(&d, buf, sizeof(buf));
	assert_int_equal(pmap_dec_dump_res(&d, &r), 0);
	assert_int_equal(xdr_dec_left(&d), 8);
	assert_int_equal(r.entries.end - r.entries.p, sizeof(dump_two));
}

static void test_rpcb_args_known(void **state)
{
	struct pmap_rpcb_args a = { 100003, 3, "tcp", NULL, "" };
	struct pmap_rpcb_dec back;
	struct xdr_enc e;
	struct xdr_dec d;

	(void)state;
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(pmap_enc_rpcb_args(&e, &a), 0);
	check_bytes(&e, rpcb_args_nfs3_tcp, sizeof(rpcb_args_nfs3_tcp));
	xdr_enc_release(&e);

	xdr_dec_init(&d, rpcb_args_nfs3_tcp, sizeof(rpcb_args_nfs3_tcp));
	assert_int_equal(pmap_dec_rpcb_args(&d, &back), 0);
	assert_int_equal(back.prog, 100003);
	assert_int_equal(back.vers, 3);
	assert_int_equal(back.netid_len, 3);
	assert_memory_equal(back.netid, "tcp", 3);
	assert_int_equal(back.addr_len, 0);
	assert_int_equal(back.owner_len, 0);

	for (size_t k = 0; k < sizeof(rpcb_args_nfs3_tcp); k++) {
		uint8_t *copy = malloc(k ? k : 1);

		assert_non_null(copy);
		memcpy(copy, rpcb_args_nfs3_tcp, k);
		xdr_dec_init(&d, copy, k);
		assert_int_equal(pmap_dec_rpcb_args(&d, &back), -EBADMSG);
		free(copy);
	}
}

static void test_rpcb_args_round_trip(void **state)
{
	struct pmap_rpcb_args a = { 100021, 4, "udp6", "::1.3.233", "nfsfuse" };
	struct pmap_rpcb_dec back;
	struct xdr_enc e;
	struct xdr_dec d;

	(void)state;
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(pmap_enc_rpcb_args(&e, &a), 0);
	xdr_dec_init(&d, e.buf, e.len);
	assert_int_equal(pmap_dec_rpcb_args(&d, &back), 0);
	assert_int_equal(xdr_dec_left(&d), 0);
	assert_int_equal(back.prog, a.prog);
	assert_int_equal(back.vers, a.vers);
	assert_int_equal(back.netid_len, strlen(a.netid));
	assert_memory_equal(back.netid, a.netid, back.netid_len);
	assert_int_equal(back.addr_len, strlen(a.addr));
	assert_memory_equal(back.addr, a.addr, back.addr_len);
	assert_int_equal(back.owner_len, strlen(a.owner));
	assert_memory_equal(back.owner, a.owner, back.owner_len);
	xdr_enc_release(&e);
}

static void test_rpcb_args_too_long(void **state)
{
	char netid[PMAP_MAXNETID + 2];
	struct pmap_rpcb_args a = { 1, 1, netid, NULL, NULL };
	struct xdr_enc e;

	(void)state;
	memset(netid, 'x', sizeof(netid) - 1);
	netid[sizeof(netid) - 1] = '\0';
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(pmap_enc_rpcb_args(&e, &a), -EINVAL);
	/* Sticky. */
	assert_int_equal(xdr_enc_u32(&e, 1), -EINVAL);
	xdr_enc_release(&e);
}

static void test_getaddr_res_captured(void **state)
{
	struct pmap_getaddr_res r;
	struct xdr_dec d;
	uint16_t port;

	(void)state;
	xdr_check_truncations(pmap_dec_getaddr_res, cap_getaddr_mountd,
			  sizeof(cap_getaddr_mountd), sizeof(r));
	xdr_dec_init(&d, cap_getaddr_mountd, sizeof(cap_getaddr_mountd));
	assert_int_equal(pmap_dec_getaddr_res(&d, &r), 0);
	assert_int_equal(r.uaddr_len, 15);
	assert_memory_equal(r.uaddr, "127.0.0.1.78.80", 15);
	assert_int_equal(pmap_uaddr_port(r.uaddr, r.uaddr_len, &port), 0);
	assert_int_equal(port, 20048);
}

static void test_rpcb_set_tcp6_known(void **state)
{
	struct pmap_rpcb_args a = { 100021, 4, "tcp6", "::.128.35", NULL };
	struct pmap_rpcb_dec back;
	struct xdr_enc e;
	struct xdr_dec d;

	(void)state;
	assert_int_equal(xdr_enc_init(&e, 16, 0), 0);
	assert_int_equal(pmap_enc_rpcb_args(&e, &a), 0);
	check_bytes(&e, rpcb_set_nlm4_tcp6, sizeof(rpcb_set_nlm4_tcp6));
	xdr_enc_release(&e);
	xdr_dec_init(&d, rpcb_set_nlm4_tcp6, sizeof(rpcb_set_nlm4_tcp6));
	assert_int_equal(pmap_dec_rpcb_args(&d, &back), 0);
	assert_int_equal(back.prog, 100021);
	assert_int_equal(back.addr_len, 9);
	assert_memory_equal(back.addr, "::.128.35", 9);
	assert_int_equal(back.netid_len, 4);
	assert_memory_equal(back.netid, "tcp6", 4);
	for (size_t k = 0; k < sizeof(rpcb_set_nlm4_tcp6); k++) {
		xdr_dec_init(&d, rpcb_set_nlm4_tcp6, k);
		assert_int_equal(pmap_dec_rpcb_args(&d, &back), -EBADMSG);
	}
	assert_string_equal(pmap_rpcb_proc_names[RPCBPROC_SET], "SET");
	assert_string_equal(pmap_rpcb_proc_names[RPCBPROC_UNSET], "UNSET");
}

static void test_getaddr_res_ipv6_captured(void **state)
{
	struct pmap_getaddr_res r;
	struct xdr_dec d;
	uint16_t port;

	(void)state;
	xdr_check_truncations(pmap_dec_getaddr_res, cap_getaddr_nfs_tcp6,
			      sizeof(cap_getaddr_nfs_tcp6), sizeof(r));
	xdr_dec_init(&d, cap_getaddr_nfs_tcp6, sizeof(cap_getaddr_nfs_tcp6));
	assert_int_equal(pmap_dec_getaddr_res(&d, &r), 0);
	assert_int_equal(r.uaddr_len, 7);
	assert_memory_equal(r.uaddr, "::1.8.1", 7);
	assert_int_equal(pmap_uaddr_port(r.uaddr, r.uaddr_len, &port), 0);
	assert_int_equal(port, 2049);
}

static void test_getaddr_res_round_trip(void **state)
{
	static const char *const addrs[] = { "", "127.0.0.1.8.1",
					     "::1.0.111", "fe80::1.255.255" };
	struct pmap_getaddr_res r;
	struct xdr_enc e;
	struct xdr_dec d;

	(void)state;
	for (size_t i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
		assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
		assert_int_equal(pmap_enc_getaddr_res(&e, addrs[i]), 0);
		xdr_dec_init(&d, e.buf, e.len);
		assert_int_equal(pmap_dec_getaddr_res(&d, &r), 0);
		assert_int_equal(xdr_dec_left(&d), 0);
		assert_int_equal(r.uaddr_len, strlen(addrs[i]));
		assert_memory_equal(r.uaddr, addrs[i], r.uaddr_len);
		xdr_enc_release(&e);
	}
}

static void test_getaddr_res_absurd(void **state)
{
	uint8_t buf[8 + PMAP_MAXUADDR + 4];
	struct pmap_getaddr_res r;

	(void)state;
	memset(buf, '1', sizeof(buf));
	/* Length 0xFFFFFFFF. */
	xdr_put_u32(buf, 0xffffffff);
	assert_int_equal(xdr_check_decode(pmap_dec_getaddr_res, buf, sizeof(buf),
				     &r, NULL), -EBADMSG);
	/* One over our limit, with the bytes present. */
	xdr_put_u32(buf, PMAP_MAXUADDR + 1);
	assert_int_equal(xdr_check_decode(pmap_dec_getaddr_res, buf, sizeof(buf),
				     &r, NULL), -EBADMSG);
	/* A NUL inside. */
	xdr_put_u32(buf, 4);
	buf[6] = '\0';
	assert_int_equal(xdr_check_decode(pmap_dec_getaddr_res, buf, 8, &r, NULL),
			 -EBADMSG);
}

static void test_uaddr_port(void **state)
{
	static const struct {
		const char *s;
		int ret;
		uint16_t port;
	} cases[] = {
		{ "127.0.0.1.8.1", 0, 2049 },
		{ "127.0.0.1.78.80", 0, 20048 },
		{ "0.0.0.0.0.111", 0, 111 },
		{ "10.1.2.3.255.255", 0, 65535 },
		{ "10.1.2.3.0.0", 0, 0 },
		{ "::1.8.1", 0, 2049 },
		{ "fe80::1:2.3.107", 0, 875 },
		{ "h.0.7", 0, 7 },
		{ "", -EINVAL, 0 },
		{ "8.1", -EINVAL, 0 },
		{ ".8.1", -EINVAL, 0 },
		{ "127.0.0.1.8.", -EINVAL, 0 },
		{ "127.0.0.1..1", -EINVAL, 0 },
		{ "127.0.0.1.256.1", -EINVAL, 0 },
		{ "127.0.0.1.8.256", -EINVAL, 0 },
		{ "127.0.0.1.0008.1", -EINVAL, 0 },
		{ "127.0.0.1.-1.1", -EINVAL, 0 },
		{ "127.0.0.1.+8.1", -EINVAL, 0 },
		{ "127.0.0.1.8.1 ", -EINVAL, 0 },
		{ "127.0.0.1.8.x", -EINVAL, 0 },
		{ "127001", -EINVAL, 0 },
	};
	uint16_t port;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = strlen(cases[i].s);
		char *copy = malloc(len ? len : 1);
		int ret;

		assert_non_null(copy);
		memcpy(copy, cases[i].s, len); /* no NUL: exact-size */
		port = 0xdead;
		ret = pmap_uaddr_port(copy, len, &port);
		free(copy);
		if (ret != cases[i].ret)
			fail_msg("\"%s\": %d, want %d", cases[i].s, ret,
				 cases[i].ret);
		if (ret == 0 && port != cases[i].port)
			fail_msg("\"%s\": port %u, want %u", cases[i].s, port,
				 cases[i].port);
		if (ret != 0 && port != 0xdead)
			fail_msg("\"%s\": port written on error", cases[i].s);
	}
	assert_int_equal(pmap_uaddr_port(NULL, 0, &port), -EINVAL);
	assert_int_equal(pmap_uaddr_port("1.2\0.3.4", 8, &port), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proc_names),
		cmocka_unit_test(test_getport_args_known),
		cmocka_unit_test(test_getport_res_captured),
		cmocka_unit_test(test_getport_res_round_trip),
		cmocka_unit_test(test_set_res),
		cmocka_unit_test(test_dump_known),
		cmocka_unit_test(test_dump_captured),
		cmocka_unit_test(test_dump_empty),
		cmocka_unit_test(test_dump_bad_bool),
		cmocka_unit_test(test_dump_never_ends),
		cmocka_unit_test(test_dump_round_trip),
		cmocka_unit_test(test_dump_trailing_bytes_untouched),
		cmocka_unit_test(test_rpcb_args_known),
		cmocka_unit_test(test_rpcb_args_round_trip),
		cmocka_unit_test(test_rpcb_args_too_long),
		cmocka_unit_test(test_getaddr_res_captured),
		cmocka_unit_test(test_getaddr_res_round_trip),
		cmocka_unit_test(test_getaddr_res_absurd),
		cmocka_unit_test(test_uaddr_port),
		cmocka_unit_test(test_rpcb_set_tcp6_known),
		cmocka_unit_test(test_getaddr_res_ipv6_captured),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
