/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the NLM codecs (xdr/nlm.h).
 *
 * Input: selector byte, then the XDR message.  Selector % 17:
 *   0..15  one decoder from the table below (both directions: results and
 *          the arguments a server or the callback listener decodes);
 *   16     the per-version procedure table: the next byte picks the
 *          version (1, 3, 4 or a bad one), the one after the procedure,
 *          its low bit arguments or results; then the message.
 * Every netobj and name is read to its end, and everything decoded is
 * encoded again: the re-encoding must decode and encode identically.
 */
#include "fuzz.h"
#include "nlm.h"

FUZZ_DEFINE_SINK;

static void touch_netobj(const struct nlm_netobj *o)
{
	FUZZ_CHECK(o->len <= NLM_MAXNETOBJ);
	fuzz_touch(o->data, o->len);
}

static void touch_name(const char *s, uint32_t len, uint32_t max)
{
	FUZZ_CHECK(len <= max);
	fuzz_touch(s, len);
	FUZZ_CHECK(len == 0 || memchr(s, '\0', len) == NULL);
}

static void touch_lock(const struct nlm_lock *l)
{
	touch_name(l->caller_name, l->caller_name_len, NLM_MAXSTRLEN);
	touch_netobj(&l->fh);
	touch_netobj(&l->oh);
}

static void touch_netobj_v(const void *p)
{
	touch_netobj(p);
}

static void touch_testargs(const void *p)
{
	const struct nlm_testargs *a = p;

	touch_netobj(&a->cookie);
	touch_lock(&a->alock);
}

static void touch_lockargs(const void *p)
{
	const struct nlm_lockargs *a = p;

	touch_netobj(&a->cookie);
	touch_lock(&a->alock);
}

static void touch_cancargs(const void *p)
{
	const struct nlm_cancargs *a = p;

	touch_netobj(&a->cookie);
	touch_lock(&a->alock);
}

static void touch_unlockargs(const void *p)
{
	const struct nlm_unlockargs *a = p;

	touch_netobj(&a->cookie);
	touch_lock(&a->alock);
}

static void touch_testres(const void *p)
{
	const struct nlm_testres *r = p;

	touch_netobj(&r->cookie);
	touch_netobj(&r->holder.oh);
	fuzz_sink += nlm_stat_name(r->stat) != NULL;
	fuzz_sink += (uint32_t)nlm_stat_errno(r->stat);
}

static void touch_res(const void *p)
{
	const struct nlm_res *r = p;

	touch_netobj(&r->cookie);
	fuzz_sink += nlm_stat_name(r->stat) != NULL;
	fuzz_sink += (uint32_t)nlm_stat_errno(r->stat);
}

static void touch_shareargs(const void *p)
{
	const struct nlm_shareargs *a = p;

	touch_netobj(&a->cookie);
	touch_name(a->share.caller_name, a->share.caller_name_len,
		   NLM_MAXSTRLEN);
	touch_netobj(&a->share.fh);
	touch_netobj(&a->share.oh);
}

static void touch_shareres(const void *p)
{
	const struct nlm_shareres *r = p;

	touch_netobj(&r->cookie);
}

static void touch_notify(const void *p)
{
	const struct nlm_notify *n = p;

	touch_name(n->name, n->name_len, NLM_MAXNAMELEN);
}

static int enc_netobj(struct xdr_enc *e, const void *o)
{
	return nlm_enc_netobj(e, o);
}

static int dec_netobj(struct xdr_dec *d, void *o)
{
	return nlm_dec_netobj(d, o);
}

struct codec {
	xdr_dec_fn dec;
	xdr_enc_fn enc;
	size_t size;
	void (*touch)(const void *obj);
};

#define C(name, type, touch)                                            \
	{ nlm_dec_##name, nlm_enc_##name, sizeof(struct type), touch }

static const struct codec codecs[] = {
	{ dec_netobj, enc_netobj, sizeof(struct nlm_netobj), touch_netobj_v },
	C(testargs_v1, nlm_testargs, touch_testargs),
	C(lockargs_v1, nlm_lockargs, touch_lockargs),
	C(cancargs_v1, nlm_cancargs, touch_cancargs),
	C(unlockargs_v1, nlm_unlockargs, touch_unlockargs),
	C(testres_v1, nlm_testres, touch_testres),
	C(testargs_v4, nlm_testargs, touch_testargs),
	C(lockargs_v4, nlm_lockargs, touch_lockargs),
	C(cancargs_v4, nlm_cancargs, touch_cancargs),
	C(unlockargs_v4, nlm_unlockargs, touch_unlockargs),
	C(testres_v4, nlm_testres, touch_testres),
	C(res, nlm_res, touch_res),
	C(shareargs, nlm_shareargs, touch_shareargs),
	C(shareres, nlm_shareres, touch_shareres),
	C(notify, nlm_notify, touch_notify),
};
#define NCODECS (sizeof(codecs) / sizeof(codecs[0]))
/* fuzz_decode_check requires every decoded value to encode again: a _v1
 * encoder may refuse a range only when it came from a v4 decoder, which
 * the codec tables never pair. */

static void run_table(uint8_t vsel, uint8_t psel, struct xdr_dec *d)
{
	static const uint32_t versions[] = { NLM_V1, NLM_V3, NLM_V4, 2 };
	uint32_t vers = versions[vsel % 4];
	uint32_t proc = (uint32_t)(psel >> 1) % (NLMPROC_COUNT + 2);
	const struct xdr_proc_codec *pc = nlm_proc_codec(vers, proc);

	if (!pc) {
		FUZZ_CHECK(vers == 2 || proc >= NLMPROC_COUNT ||
			   nlm_proc_names[proc] == NULL ||
			   (vers == NLM_V1 && proc > NLMPROC_GRANTED_RES));
		return;
	}
	FUZZ_CHECK(pc->proc == proc && pc->name);
	if (psel & 1) {
		FUZZ_CHECK(!pc->dec_res == !pc->enc_res);
		if (pc->dec_res)
			fuzz_decode_check(pc->dec_res, pc->enc_res,
					  pc->res_size, NULL, d);
	} else {
		FUZZ_CHECK(!pc->dec_args == !pc->enc_args);
		if (pc->dec_args)
			fuzz_decode_check(pc->dec_args, pc->enc_args,
					  pc->args_size, NULL, d);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xdr_dec d;
	unsigned sel;
	uint8_t *buf;
	size_t len;

	if (size < 1)
		return 0;
	sel = data[0] % (NCODECS + 2);
	if (sel < NCODECS) {
		buf = fuzz_copy(data + 1, size - 1, &len);
		xdr_dec_init(&d, buf, len);
		fuzz_decode_check(codecs[sel].dec, codecs[sel].enc,
				  codecs[sel].size, codecs[sel].touch, &d);
	} else {
		if (size < 3)
			return 0;
		buf = fuzz_copy(data + 3, size - 3, &len);
		xdr_dec_init(&d, buf, len);
		run_table(data[1], data[2], &d);
	}
	free(buf);
	return 0;
}
