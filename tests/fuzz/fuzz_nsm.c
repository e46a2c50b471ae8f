/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the NSM (statd) codecs (xdr/nsm.h).
 *
 * Input: selector byte, then the XDR message.  Selector % 9:
 *   0 sm_name  1 my_id  2 mon_id  3 mon  4 sm_stat_res  5 sm_stat
 *   6 stat_chge  7 status (the statd callback)
 *   8 the procedure table: the next byte picks the procedure (low bit:
 *     arguments or results), then the message.
 * Every name is read to its end; everything decoded is encoded again and
 * the re-encoding must decode and encode identically.
 */
#include "fuzz.h"
#include "nsm.h"

FUZZ_DEFINE_SINK;

static void touch_name(const char *s, uint32_t len)
{
	FUZZ_CHECK(len <= NSM_MAXSTRLEN);
	fuzz_touch(s, len);
	FUZZ_CHECK(len == 0 || memchr(s, '\0', len) == NULL);
}

static void touch_sm_name(const void *p)
{
	const struct nsm_name *n = p;

	touch_name(n->mon_name, n->mon_name_len);
}

static void touch_my_id(const void *p)
{
	const struct nsm_my_id *m = p;

	touch_name(m->my_name, m->my_name_len);
}

static void touch_mon_id(const void *p)
{
	const struct nsm_mon_id *m = p;

	touch_name(m->mon_name, m->mon_name_len);
	touch_my_id(&m->my_id);
}

static void touch_mon(const void *p)
{
	const struct nsm_mon *m = p;

	touch_mon_id(&m->mon_id);
	fuzz_touch(m->priv, sizeof(m->priv));
}

static void touch_stat_res(const void *p)
{
	const struct nsm_stat_res *r = p;

	fuzz_sink += r->res_stat + nsm_state_up(r->state);
}

static void touch_stat_chge(const void *p)
{
	const struct nsm_stat_chge *c = p;

	touch_name(c->mon_name, c->mon_name_len);
}

static void touch_status(const void *p)
{
	const struct nsm_status *s = p;

	touch_name(s->mon_name, s->mon_name_len);
}

struct codec {
	xdr_dec_fn dec;
	xdr_enc_fn enc;
	size_t size;
	void (*touch)(const void *obj);
};

#define C(name, touch)                                                  \
	{ nsm_dec_##name, nsm_enc_##name, sizeof(struct nsm_##name), touch }

static const struct codec codecs[] = {
	C(name, touch_sm_name),
	C(my_id, touch_my_id),
	C(mon_id, touch_mon_id),
	C(mon, touch_mon),
	C(stat_res, touch_stat_res),
	C(stat, NULL),
	C(stat_chge, touch_stat_chge),
	C(status, touch_status),
};
#define NCODECS (sizeof(codecs) / sizeof(codecs[0]))

static void run_table(uint8_t psel, struct xdr_dec *d)
{
	uint32_t proc = (uint32_t)(psel >> 1) % (NSMPROC_COUNT + 1);
	const struct xdr_proc_codec *pc = nsm_proc_codec(proc);

	if (!pc) {
		FUZZ_CHECK(proc >= NSMPROC_COUNT);
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
	sel = data[0] % (NCODECS + 1);
	if (sel < NCODECS) {
		buf = fuzz_copy(data + 1, size - 1, &len);
		xdr_dec_init(&d, buf, len);
		fuzz_decode_check(codecs[sel].dec, codecs[sel].enc,
				  codecs[sel].size, codecs[sel].touch, &d);
	} else {
		if (size < 2)
			return 0;
		buf = fuzz_copy(data + 2, size - 2, &len);
		xdr_dec_init(&d, buf, len);
		run_table(data[1], &d);
	}
	free(buf);
	return 0;
}
