/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writes NLM messages encoded by xdr/nlm.c, each in an ONC RPC record
 * (record mark, call or accepted-reply header built here by hand with the
 * cursor's primitives), as a text2pcap hex dump with I/O direction lines
 * (text2pcap -D).  "O" is the client's side, "I" the server's.
 * tests/unit/tshark_nlm.sh feeds it to text2pcap and tshark.
 *
 * Usage: dump_nlm_calls > calls.txt
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nlm.h"

static const uint8_t cookie[] = { 0xc0, 0x0c, 0x1e, 0x01 };
static const uint8_t fh[] = { 0x01, 0x00, 0x07, 0x00, 0x2a, 0x00, 0x00, 0x00,
			      0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
			      0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x00 };
static const uint8_t oh[] = "4242@client.example";

#define LOCK(off, len) { "client.example", 14, { fh, sizeof(fh) }, \
	{ oh, sizeof(oh) - 1 }, 4242, (off), (len) }

static int dump(const char *dir, const struct xdr_enc *e)
{
	uint8_t mark[4];
	size_t body = e->len - 4;

	/* The record mark was reserved as the encoder's headroom. */
	xdr_put_u32(mark, 0x80000000u | (uint32_t)body);
	memcpy(e->buf, mark, 4);
	printf("%s\n", dir);
	for (size_t i = 0; i < e->len; i++) {
		if (i % 16 == 0)
			printf("%06zx", i);
		printf(" %02x", e->buf[i]);
		if (i % 16 == 15 || i + 1 == e->len)
			printf("\n");
	}
	printf("\n");
	return 0;
}

/* A call from `dir`: header with AUTH_NONE credential and verifier. */
static int call(const char *dir, uint32_t xid, uint32_t vers, uint32_t proc,
		const void *args)
{
	const struct xdr_proc_codec *c = nlm_proc_codec(vers, proc);
	struct xdr_enc e;
	int ret;

	if (!c || xdr_enc_init(&e, 256, 4))
		return -1;
	xdr_enc_u32(&e, xid);
	xdr_enc_u32(&e, 0);           /* CALL */
	xdr_enc_u32(&e, 2);           /* rpcvers */
	xdr_enc_u32(&e, NLM_PROGRAM);
	xdr_enc_u32(&e, vers);
	xdr_enc_u32(&e, proc);
	xdr_enc_u32(&e, 0);           /* cred AUTH_NONE */
	xdr_enc_u32(&e, 0);
	xdr_enc_u32(&e, 0);           /* verf AUTH_NONE */
	xdr_enc_u32(&e, 0);
	ret = c->enc_args ? c->enc_args(&e, args) : xdr_enc_error(&e);
	if (ret == 0)
		dump(dir, &e);
	xdr_enc_release(&e);
	return ret;
}

/* The accepted, successful reply to xid with the results of proc. */
static int reply(const char *dir, uint32_t xid, uint32_t vers, uint32_t proc,
		 const void *res)
{
	const struct xdr_proc_codec *c = nlm_proc_codec(vers, proc);
	struct xdr_enc e;
	int ret;

	if (!c || !c->enc_res || xdr_enc_init(&e, 256, 4))
		return -1;
	xdr_enc_u32(&e, xid);
	xdr_enc_u32(&e, 1); /* REPLY */
	xdr_enc_u32(&e, 0); /* MSG_ACCEPTED */
	xdr_enc_u32(&e, 0); /* verf AUTH_NONE */
	xdr_enc_u32(&e, 0);
	xdr_enc_u32(&e, 0); /* SUCCESS */
	ret = c->enc_res(&e, res);
	if (ret == 0)
		dump(dir, &e);
	xdr_enc_release(&e);
	return ret;
}

int main(void)
{
	const struct nlm_lockargs lock = {
		{ cookie, 4 }, true, true, LOCK(0x100000000ull, 4096), false, 3,
	};
	const struct nlm_lockargs lock_v3 = {
		{ cookie, 4 }, false, false, LOCK(512, 0), true, 3,
	};
	const struct nlm_res blocked = { { cookie, 4 }, NLM_BLOCKED };
	const struct nlm_res granted = { { cookie, 4 }, NLM_GRANTED };
	const struct nlm_testargs test = { { cookie, 4 }, true, LOCK(0, 0) };
	const struct nlm_testres denied = {
		{ cookie, 4 }, NLM_DENIED,
		{ true, 77, { (const uint8_t *)"77@other", 8 }, 100, 50 },
	};
	const struct nlm_cancargs canc = {
		{ cookie, 4 }, true, true, LOCK(0x100000000ull, 4096),
	};
	const struct nlm_unlockargs unlock = {
		{ cookie, 4 }, LOCK(0x100000000ull, 4096),
	};
	const struct nlm_testargs grant = {
		{ cookie, 4 }, true, LOCK(0x100000000ull, 4096),
	};
	/* XNFS says state "should be 0"; Linux sends its NSM state.  Not 0
	 * here, so that a 64-bit field would show in tshark's decoding. */
	const struct nlm_notify freeall = { "client.example", 14, 3 };
	const struct nlm_shareargs share = {
		{ cookie, 4 },
		{ "client.example", 14, { fh, sizeof(fh) }, { oh, sizeof(oh) - 1 },
		  NLM_FSM_DW, NLM_FSA_RW },
		false,
	};
	const struct nlm_shareres shareres = { { cookie, 4 }, NLM_GRANTED, 1 };
	int err = 0;

	err |= call("O", 0x1001, NLM_V4, NLMPROC_LOCK, &lock);
	err |= reply("I", 0x1001, NLM_V4, NLMPROC_LOCK, &blocked);
	err |= call("O", 0x1002, NLM_V4, NLMPROC_TEST, &test);
	err |= reply("I", 0x1002, NLM_V4, NLMPROC_TEST, &denied);
	err |= call("O", 0x1003, NLM_V4, NLMPROC_CANCEL, &canc);
	err |= reply("I", 0x1003, NLM_V4, NLMPROC_CANCEL, &granted);
	err |= call("O", 0x1004, NLM_V4, NLMPROC_UNLOCK, &unlock);
	err |= reply("I", 0x1004, NLM_V4, NLMPROC_UNLOCK, &granted);
	/* the server's callbacks and our answers */
	err |= call("I", 0x2001, NLM_V4, NLMPROC_GRANTED, &grant);
	err |= reply("O", 0x2001, NLM_V4, NLMPROC_GRANTED, &granted);
	err |= call("I", 0x2002, NLM_V4, NLMPROC_GRANTED_MSG, &grant);
	err |= call("O", 0x1005, NLM_V4, NLMPROC_GRANTED_RES, &granted);
	/* the rest of version 4, and version 3 */
	err |= call("O", 0x1006, NLM_V4, NLMPROC_SHARE, &share);
	err |= reply("I", 0x1006, NLM_V4, NLMPROC_SHARE, &shareres);
	err |= call("O", 0x1007, NLM_V4, NLMPROC_FREE_ALL, &freeall);
	err |= call("O", 0x1008, NLM_V3, NLMPROC_LOCK, &lock_v3);
	err |= reply("I", 0x1008, NLM_V3, NLMPROC_LOCK, &granted);
	if (err) {
		fprintf(stderr, "dump_nlm_calls: an encoder failed\n");
		return 1;
	}
	return 0;
}
