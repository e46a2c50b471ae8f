/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the NFSv4.1/4.2 codecs (xdr/nfs4.h), the side a
 * client decodes: COMPOUND replies and every operation's result, fattr4
 * and the common types.
 *
 * Input: selector byte, then (by selector % 4):
 *   0 a COMPOUND reply walked as the answer to a compound of N operations:
 *     one byte N (1..8), N bytes picking the operations (index into the
 *     decodable ones), then the reply;
 *   1 one operation's result: a byte picking the operation, the result;
 *   2 a fattr4, decoded, converted to fattr3 and round-tripped;
 *   3 the common types (stateid4, nfs_fh4, bitmap4, nfstime4, owner):
 *     a byte picking one, then the value, round-tripped.
 * Everything a result points into is read to its end; results that have
 * an encoder are encoded again and must decode and encode identically.
 */
#include <errno.h>

#include "fuzz.h"
#include "nfs4.h"

FUZZ_DEFINE_SINK;

/* The operations whose results can be decoded, in table order. */
static uint32_t ops[128];
static unsigned nops;

static void init_ops(void)
{
	if (nops)
		return;
	for (uint32_t op = 0; op < 128; op++)
		if (nfs4_op_codec(op))
			ops[nops++] = op;
}

static void touch_str(const struct nfs4_str *s, uint32_t max)
{
	FUZZ_CHECK(s->len <= max);
	fuzz_touch(s->s, s->len);
}

static void touch_fattr(const struct nfs4_fattr *f)
{
	struct nfs4_attr3 a3;
	struct nfs4_ace ace;
	struct xdr_dec it;
	uint32_t n = 0;
	int ret;

	touch_str(&f->owner, NFS4_MAXSTR);
	touch_str(&f->owner_group, NFS4_MAXSTR);
	FUZZ_CHECK(f->filehandle.len <= NFS4_FHSIZE);
	for (unsigned bit = 0; bit < 32 * NFS4_BITMAP_WORDS; bit++)
		if (nfs4_bitmap_isset(&f->mask, bit))
			FUZZ_CHECK(nfs4_fattr_known(bit));
	fuzz_touch(f->acl.raw, f->acl.raw_len);
	if (f->acl.raw) {
		xdr_dec_init(&it, f->acl.raw, f->acl.raw_len);
		while ((ret = nfs4_acl_next(&it, &ace)) == 1) {
			touch_str(&ace.who, NFS4_MAXSTR);
			n++;
		}
		FUZZ_CHECK(ret == 0);
	}
	FUZZ_CHECK(n == f->acl.naces);
	ret = nfs4_fattr_to_attr3(f, &a3);
	FUZZ_CHECK(ret == 0 || ret == -ENODATA);
	FUZZ_CHECK(a3.attr.mode <= 07777);
	fuzz_sink += (uint32_t)a3.change + a3.attr.type;
}

static void touch_result(uint32_t op, const void *res)
{
	switch (op) {
	case NFS4OP_EXCHANGE_ID: {
		const struct nfs4_exchange_id_res *r = res;

		touch_str(&r->server_major_id, NFS4_OPAQUE_LIMIT);
		touch_str(&r->server_scope, NFS4_OPAQUE_LIMIT);
		touch_str(&r->impl_id.domain, NFS4_MAXSTR);
		touch_str(&r->impl_id.name, NFS4_MAXSTR);
		break;
	}
	case NFS4OP_GETATTR:
		touch_fattr(&((const struct nfs4_getattr_res *)res)->attrs);
		break;
	case NFS4OP_GETFH:
		FUZZ_CHECK(((const struct nfs4_getfh_res *)res)->fh.len <=
			   NFS4_FHSIZE);
		break;
	case NFS4OP_SECINFO_NO_NAME: {
		const struct nfs4_secinfo_res *r = res;

		FUZZ_CHECK(r->count <= NFS4_MAXSECINFO);
		for (uint32_t i = 0; i < r->count; i++)
			touch_str(&r->flavors[i].oid, NFS4_OPAQUE_LIMIT);
		break;
	}
	case NFS4OP_OPEN:
		touch_str(&((const struct nfs4_open_res *)res)
				   ->delegation.permissions.who, NFS4_MAXSTR);
		break;
	case NFS4OP_READ: {
		const struct nfs4_read_res *r = res;

		FUZZ_CHECK(r->data_len <= NFS4_MAXDATA);
		fuzz_touch(r->data, r->data_len);
		break;
	}
	case NFS4OP_READLINK:
		touch_str(&((const struct nfs4_readlink_res *)res)->link,
			  NFS4_MAXPATHLEN);
		break;
	case NFS4OP_READDIR: {
		const struct nfs4_readdir_res *r = res;
		struct xdr_dec it = r->entries;
		struct nfs4_entry e;
		uint32_t n = 0;
		int ret;

		if (r->status != NFS4_OK)
			break;
		while ((ret = nfs4_readdir_next(&it, &e)) == 1) {
			FUZZ_CHECK(e.name.len >= 1);
			touch_str(&e.name, NFS4_MAXNAMLEN);
			touch_fattr(&e.attrs);
			n++;
		}
		FUZZ_CHECK(ret == 0 && n == r->nentries);
		break;
	}
	case NFS4OP_LOCK:
		fuzz_touch(((const struct nfs4_lock_res *)res)->denied.owner.owner,
			   ((const struct nfs4_lock_res *)res)->denied.owner.owner_len);
		break;
	case NFS4OP_LOCKT:
		fuzz_touch(((const struct nfs4_lockt_res *)res)->denied.owner.owner,
			   ((const struct nfs4_lockt_res *)res)->denied.owner.owner_len);
		break;
	case NFS4OP_TEST_STATEID: {
		struct xdr_dec it = ((const struct nfs4_test_stateid_res *)res)->codes;
		uint32_t code;

		while (xdr_dec_u32(&it, &code) == 0)
			fuzz_sink += code;
		break;
	}
	case NFS4OP_GETXATTR: {
		const struct nfs4_getxattr_res *g = res;

		FUZZ_CHECK(g->len <= NFS4_XATTR_VALUE_MAX);
		fuzz_touch(g->value, g->len);
		break;
	}
	case NFS4OP_LISTXATTRS: {
		/* The walk of checked names cannot fail, and ends. */
		const struct nfs4_listxattrs_res *lr = res;
		struct nfs4_listxattrs_res l = *lr;
		struct nfs4_str name;
		uint32_t n = 0;

		while (nfs4_listxattrs_next(&l, &name) == 0) {
			touch_str(&name, NFS4_MAXNAMLEN);
			n++;
		}
		FUZZ_CHECK(n == l.count && xdr_dec_left(&l.names) == 0);
		break;
	}
	}
}

/* Decode one result of op from d; touch it; round-trip it if it can be. */
static int one_result(uint32_t op, struct xdr_dec *d)
{
	const struct xdr_proc_codec *pc = nfs4_op_codec(op);
	void *res = calloc(1, pc->res_size);
	int ret;

	if (!res)
		abort();
	ret = pc->dec_res(d, res);
	if (ret == 0) {
		touch_result(op, res);
		if (pc->enc_res)
			FUZZ_CHECK(fuzz_round_trip(pc->enc_res, pc->dec_res,
						   res, pc->res_size) == 0);
	} else {
		FUZZ_CHECK(ret == -EBADMSG);
	}
	FUZZ_CHECK(d->p <= d->end);
	free(res);
	return ret;
}

static void walk(const uint8_t *data, size_t size)
{
	struct nfs4_compound_res r;
	uint32_t want[8];
	unsigned n;
	struct xdr_dec d;
	uint8_t *buf;
	size_t len;

	if (size < 1)
		return;
	n = data[0] % 8 + 1;
	if (size < 1 + n)
		return;
	for (unsigned i = 0; i < n; i++)
		want[i] = ops[data[1 + i] % nops];
	buf = fuzz_copy(data + 1 + n, size - 1 - n, &len);
	xdr_dec_init(&d, buf, len);
	if (nfs4_dec_compound_res(&d, &r) == 0) {
		touch_str(&r.tag, NFS4_MAXTAG);
		FUZZ_CHECK(r.nres <= NFS4_MAXOPS);
		for (unsigned i = 0; i < n; i++) {
			const struct xdr_proc_codec *pc = nfs4_op_codec(want[i]);
			void *res = calloc(1, pc->res_size);
			int ret;

			if (!res)
				abort();
			ret = nfs4_compound_next(&r, want[i], res);
			if (ret == 0)
				touch_result(want[i], res);
			free(res);
			FUZZ_CHECK(r.next <= r.nres && r.d.p <= r.d.end);
			if (ret) {
				FUZZ_CHECK(ret == -ENODATA || ret == -EBADMSG);
				break;
			}
		}
	}
	free(buf);
}

FUZZ_WRAP_CODEC(fattr, nfs4_enc_fattr, nfs4_dec_fattr, struct nfs4_fattr)
FUZZ_WRAP_CODEC(stateid, nfs4_enc_stateid, nfs4_dec_stateid,
		struct nfs4_stateid)
FUZZ_WRAP_CODEC(fh, nfs4_enc_fh, nfs4_dec_fh, struct nfs4_fh)
FUZZ_WRAP_CODEC(time, nfs4_enc_time, nfs4_dec_time, struct nfs4_time)
FUZZ_WRAP_CODEC(owner, nfs4_enc_owner, nfs4_dec_owner, struct nfs4_owner)

static int bitmap_dec(struct xdr_dec *d, void *o)
{
	return nfs4_dec_bitmap(d, o, NULL);
}

static int bitmap_enc(struct xdr_enc *e, const void *o)
{
	return nfs4_enc_bitmap(e, o);
}

static void touch_fattr_obj(const void *o)
{
	touch_fattr(o);
}

static void touch_owner(const void *o)
{
	const struct nfs4_owner *w = o;

	FUZZ_CHECK(w->owner_len <= NFS4_OPAQUE_LIMIT);
	fuzz_touch(w->owner, w->owner_len);
}

struct codec {
	fuzz_dec_fn dec;
	fuzz_enc_fn enc;
	size_t size;
	void (*touch)(const void *obj);
};

static const struct codec types[] = {
	{ stateid_dec, stateid_enc, sizeof(struct nfs4_stateid), NULL },
	{ fh_dec, fh_enc, sizeof(struct nfs4_fh), NULL },
	{ bitmap_dec, bitmap_enc, sizeof(struct nfs4_bitmap), NULL },
	{ time_dec, time_enc, sizeof(struct nfs4_time), NULL },
	{ owner_dec, owner_enc, sizeof(struct nfs4_owner), touch_owner },
};
#define NTYPES (sizeof(types) / sizeof(types[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct codec *c;
	struct xdr_dec d;
	uint8_t *buf;
	size_t len;

	init_ops();
	if (size < 2)
		return 0;
	switch (data[0] % 4) {
	case 0:
		walk(data + 1, size - 1);
		return 0;
	case 1:
		buf = fuzz_copy(data + 2, size - 2, &len);
		xdr_dec_init(&d, buf, len);
		one_result(ops[data[1] % nops], &d);
		break;
	case 2:
		buf = fuzz_copy(data + 1, size - 1, &len);
		xdr_dec_init(&d, buf, len);
		fuzz_decode_check(fattr_dec, fattr_enc,
				  sizeof(struct nfs4_fattr), touch_fattr_obj,
				  &d);
		break;
	default:
		c = &types[data[1] % NTYPES];
		buf = fuzz_copy(data + 2, size - 2, &len);
		xdr_dec_init(&d, buf, len);
		fuzz_decode_check(c->dec, c->enc, c->size, c->touch, &d);
		break;
	}
	free(buf);
	return 0;
}
