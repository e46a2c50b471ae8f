/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The NFSv4.1 session's slot table, the client owner rules, the owner
 * domain of idmapd.conf and the status translation. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../src/base/stats.h"
#include "../../src/proto/nfs42_ops.h"
#include "../../src/proto/nfs4_cb.h"
#include "../../src/proto/nfs4_idcache.h"
#include "../../src/proto/nfs4_idmap.h"
#include "../../src/proto/nfs4_owner.h"
#include "../../src/proto/nfs4_session.h"
#include "../../src/proto/nfs4_slots.h"
#include "../../src/proto/nfs4_walk.h"

static void test_slots_basic(void **state)
{
	struct nfs4_slots s;
	uint32_t slot, seq;

	(void)state;
	nfs4_slots_init(&s, 3);
	assert_int_equal(s.n, 3);
	/* lowest free slot first, every sequence id starts at 1 */
	assert_int_equal(nfs4_slots_take(&s, &slot, &seq), 0);
	assert_int_equal(slot, 0);
	assert_int_equal(seq, 1);
	assert_int_equal(nfs4_slots_take(&s, &slot, &seq), 0);
	assert_int_equal(slot, 1);
	assert_int_equal(nfs4_slots_highest(&s), 1);
	assert_int_equal(nfs4_slots_take(&s, &slot, &seq), 0);
	assert_int_equal(slot, 2);
	/* all busy: wait */
	assert_int_equal(nfs4_slots_take(&s, &slot, &seq), -1);
	/* a reply that executed advances the slot's sequence id */
	nfs4_slots_release(&s, 0, true, UINT32_MAX);
	assert_int_equal(nfs4_slots_take(&s, &slot, &seq), 0);
	assert_int_equal(slot, 0);
	assert_int_equal(seq, 2);
	/* a SEQUENCE that failed leaves it */
	nfs4_slots_release(&s, 0, false, UINT32_MAX);
	assert_int_equal(nfs4_slots_take(&s, &slot, &seq), 0);
	assert_int_equal(seq, 2);
	/* releasing a free slot or one out of range changes nothing */
	nfs4_slots_release(&s, 0, true, UINT32_MAX);
	nfs4_slots_release(&s, 0, true, UINT32_MAX);
	nfs4_slots_release(&s, 7, true, UINT32_MAX);
	assert_int_equal(s.seqid[0], 3);
	assert_int_equal(s.in_use, 2);
}

static void test_slots_target_and_limits(void **state)
{
	struct nfs4_slots s;
	uint32_t slot, seq;

	(void)state;
	nfs4_slots_init(&s, 1000);
	assert_int_equal(s.n, NFS4_SLOTS_MAX);
	nfs4_slots_init(&s, 0);
	assert_int_equal(s.n, 1);

	nfs4_slots_init(&s, 4);
	assert_int_equal(nfs4_slots_take(&s, &slot, &seq), 0);
	/* the server wants only slot 0 used */
	nfs4_slots_release(&s, slot, true, 0);
	assert_int_equal(nfs4_slots_take(&s, &slot, &seq), 0);
	assert_int_equal(slot, 0);
	assert_int_equal(nfs4_slots_take(&s, &slot, &seq), -1);
	/* a target past the slots granted is clamped */
	nfs4_slots_release(&s, 0, true, 99);
	assert_int_equal(s.target, 3);
	for (int i = 0; i < 4; i++)
		assert_int_equal(nfs4_slots_take(&s, &slot, &seq), 0);
	assert_int_equal(nfs4_slots_highest(&s), 3);
	assert_int_equal(nfs4_slots_take(&s, &slot, &seq), -1);
}

static void test_slots_misordered(void **state)
{
	struct nfs4_slots s;
	uint32_t slot, seq;

	(void)state;
	nfs4_slots_init(&s, 2);
	/* a call that got no reply: the id advances as if executed */
	assert_int_equal(nfs4_slots_take(&s, &slot, &seq), 0);
	assert_int_equal(seq, 1);
	nfs4_slots_release(&s, slot, true, UINT32_MAX);
	assert_int_equal(nfs4_slots_take(&s, &slot, &seq), 0);
	assert_int_equal(seq, 2);
	/* the server never saw it: MISORDERED steps back, slot kept */
	nfs4_slots_misordered(&s, slot, &seq);
	assert_int_equal(seq, 1);
	assert_true(s.busy[slot]);
	nfs4_slots_release(&s, slot, true, UINT32_MAX);
	assert_int_equal(s.seqid[slot], 2);
}

static void test_owner_rules(void **state)
{
	char a[NFS4_OWNER_MAX + 1], b[NFS4_OWNER_MAX + 1];
	char small[10], longpath[3000];
	const char *h = "0123456789abcdef0123456789abcdef";

	(void)state;
	/* same inputs: same owner (stable across restarts) */
	assert_true(nfs4_owner_make(h, 1000, "srv", "/e", "/mnt", a,
				    sizeof(a)) > 0);
	assert_true(nfs4_owner_make(h, 1000, "srv", "/e", "/mnt", b,
				    sizeof(b)) > 0);
	assert_string_equal(a, b);
	/* each part makes it distinct */
	nfs4_owner_make(h, 1001, "srv", "/e", "/mnt", b, sizeof(b));
	assert_string_not_equal(a, b);
	nfs4_owner_make(h, 1000, "srv2", "/e", "/mnt", b, sizeof(b));
	assert_string_not_equal(a, b);
	nfs4_owner_make(h, 1000, "srv", "/e2", "/mnt", b, sizeof(b));
	assert_string_not_equal(a, b);
	nfs4_owner_make(h, 1000, "srv", "/e", "/mnt2", b, sizeof(b));
	assert_string_not_equal(a, b);
	nfs4_owner_make("fedcba9876543210fedcba9876543210", 1000, "srv",
			"/e", "/mnt", b, sizeof(b));
	assert_string_not_equal(a, b);
	/* too long: cut to the limit, still distinct by the hash */
	memset(longpath, 'x', sizeof(longpath) - 1);
	longpath[sizeof(longpath) - 1] = '\0';
	assert_int_equal(nfs4_owner_make(h, 1, "s", longpath, "/m", a,
					 sizeof(a)), NFS4_OWNER_MAX);
	assert_int_equal(strlen(a), NFS4_OWNER_MAX);
	longpath[5] = 'y';
	nfs4_owner_make(h, 1, "s", longpath, "/m", b, sizeof(b));
	assert_int_equal(strlen(b), NFS4_OWNER_MAX);
	assert_string_not_equal(a, b);
	/* bad arguments */
	assert_int_equal(nfs4_owner_make(h, 1, "s", "/e", "/m", small,
					 sizeof(small)), -EINVAL);
	assert_int_equal(nfs4_owner_make(NULL, 1, "s", "/e", "/m", a,
					 sizeof(a)), -EINVAL);
}

static void test_hostid_kept(void **state)
{
	char dir[] = "/tmp/nfs4-hostid-test-XXXXXX", sub[64];
	char id1[NFS4_HOSTID_LEN + 1], id2[NFS4_HOSTID_LEN + 1];
	char path[128];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/state", dir);
	assert_int_equal(nfs4_hostid_load(sub, id1), 0);
	assert_int_equal(strlen(id1), NFS4_HOSTID_LEN);
	assert_int_equal(nfs4_hostid_load(sub, id2), 0);
	assert_string_equal(id1, id2);
	/* a damaged file is replaced by a new id */
	snprintf(path, sizeof(path), "%s/nfs4-hostid", sub);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("not an id\n", f);
	fclose(f);
	assert_int_equal(nfs4_hostid_load(sub, id2), 0);
	assert_string_not_equal(id1, id2);
	unlink(path);
	rmdir(sub);
	rmdir(dir);
}

static void test_idmap(void **state)
{
	char d[64];

	(void)state;
	assert_true(nfs4_idmap_conf_domain(
		"# c\n[General]\nVerbosity = 0\n  Domain =  example.org \n"
		"[Mapping]\nDomain = wrong\n", d, sizeof(d)));
	assert_string_equal(d, "example.org");
	assert_false(nfs4_idmap_conf_domain("[Mapping]\nDomain = x\n", d,
					    sizeof(d)));
	assert_false(nfs4_idmap_conf_domain("[General]\n#Domain = x\n", d,
					    sizeof(d)));
	nfs4_idmap_init("Example.ORG");
	/* numbers as they are; names of our domain through the database */
	assert_int_equal(nfs4_idmap_uid("1234", 4), 1234);
	assert_int_equal(nfs4_idmap_uid("root@example.org", 16), 0);
	assert_int_equal(nfs4_idmap_gid("root@EXAMPLE.org", 16), 0);
	/* another domain, an unknown name, junk: the overflow id */
	assert_int_equal(nfs4_idmap_uid("root@other.org", 14),
			 NFS4_IDMAP_OVERFLOW);
	assert_int_equal(nfs4_idmap_uid("no-such-user-x@example.org", 26),
			 NFS4_IDMAP_OVERFLOW);
	assert_int_equal(nfs4_idmap_uid("", 0), NFS4_IDMAP_OVERFLOW);
	assert_int_equal(nfs4_idmap_uid("99999999999", 11),
			 NFS4_IDMAP_OVERFLOW);
	nfs4_idmap_user(0, d, sizeof(d));
	assert_string_equal(d, "root@Example.ORG");
	nfs4_idmap_user(4000000000u, d, sizeof(d));
	assert_string_equal(d, "4000000000");
}

/* The database's answers are kept, and forgotten when its files change
 * (looked at once a second at most) or on request. */
static void test_idcache(void **state)
{
	char pw[] = "/tmp/nfsfuse-idcache-pw-XXXXXX";
	char gr[] = "/tmp/nfsfuse-idcache-gr-XXXXXX";
	int fp = mkstemp(pw), fg = mkstemp(gr);
	uint64_t hits = STAT_GET(idmap_hits);
	char d[64];
	uint32_t id;

	(void)state;
	assert_true(fp >= 0 && fg >= 0);
	nfs4_idcache_watch(pw, gr);
	assert_false(nfs4_idcache_id(NFS4_IDCACHE_USER, "a@x", 3, &id));
	nfs4_idcache_put_id(NFS4_IDCACHE_USER, "a@x", 3, 0);
	nfs4_idcache_put_id(NFS4_IDCACHE_GROUP, "a@xyz", 3, 7);
	assert_true(nfs4_idcache_id(NFS4_IDCACHE_USER, "a@x", 3, &id));
	assert_int_equal(id, 0);
	/* the users' and the groups' answers are apart */
	assert_true(nfs4_idcache_id(NFS4_IDCACHE_GROUP, "a@x", 3, &id));
	assert_int_equal(id, 7);
	assert_false(nfs4_idcache_name(NFS4_IDCACHE_GROUP, 7, d, sizeof(d)));
	nfs4_idcache_put_name(NFS4_IDCACHE_GROUP, 7, "g@x");
	assert_true(nfs4_idcache_name(NFS4_IDCACHE_GROUP, 7, d, sizeof(d)));
	assert_string_equal(d, "g@x");
	/* too small a buffer is no answer */
	assert_false(nfs4_idcache_name(NFS4_IDCACHE_GROUP, 7, d, 3));
	assert_int_equal(STAT_GET(idmap_hits), hits + 3);
	/* a user added: every answer may be wrong now */
	assert_int_equal(write(fp, "u:x:1:1::/:/bin/sh\n", 19), 19);
	usleep(1100 * 1000);
	assert_false(nfs4_idcache_id(NFS4_IDCACHE_USER, "a@x", 3, &id));
	assert_false(nfs4_idcache_name(NFS4_IDCACHE_GROUP, 7, d, sizeof(d)));
	nfs4_idcache_put_id(NFS4_IDCACHE_USER, "a@x", 3, 5);
	usleep(1100 * 1000); /* looked at again, unchanged: kept */
	assert_true(nfs4_idcache_id(NFS4_IDCACHE_USER, "a@x", 3, &id));
	assert_int_equal(id, 5);
	nfs4_idcache_forget();
	assert_false(nfs4_idcache_id(NFS4_IDCACHE_USER, "a@x", 3, &id));
	/* through the mapping: the second answer is the kept one */
	nfs4_idcache_watch(NULL, NULL);
	nfs4_idmap_init("example.org");
	hits = STAT_GET(idmap_hits);
	assert_int_equal(nfs4_idmap_uid("root@example.org", 16), 0);
	assert_int_equal(nfs4_idmap_uid("root@example.org", 16), 0);
	assert_int_equal(STAT_GET(idmap_hits), hits + 1);
	close(fp);
	close(fg);
	unlink(pw);
	unlink(gr);
}

static void test_status_map(void **state)
{
	(void)state;
	assert_int_equal(nfs4_stat_to_nfs3(0), 0);
	assert_int_equal(nfs4_stat_to_nfs3(2), 2);       /* NOENT */
	assert_int_equal(nfs4_stat_to_nfs3(10008), 10008); /* DELAY: JUKEBOX */
	assert_int_equal(nfs4_stat_to_nfs3(10013), 10008); /* GRACE */
	assert_int_equal(nfs4_stat_to_nfs3(10014), 70);  /* FHEXPIRED: STALE */
	assert_int_equal(nfs4_stat_to_nfs3(10015), 13);  /* SHARE_DENIED */
	assert_int_equal(nfs4_stat_to_nfs3(10052), 5);   /* BADSESSION: IO */
}

/* A CB_COMPOUND call as the server sends it on the backchannel:
 * CB_SEQUENCE (slot 0, seqid) then, with recall, a CB_RECALL. */
static void cb_call(struct xdr_enc *e, const uint8_t *sid, uint32_t minor,
		    uint32_t seqid, bool recall, uint32_t prog)
{
	struct rpc_cred none = { .flavor = RPC_AUTH_NONE };
	struct nfs4_compound c;
	struct nfs4_cb_sequence_args sa = { .sequenceid = seqid };
	struct nfs4_cb_recall_args ra = { .fh = { 4, { 1, 2, 3, 4 } } };

	memcpy(sa.sessionid, sid, NFS4_SESSIONID_SIZE);
	assert_int_equal(xdr_enc_init(e, 256, 0), 0);
	rpcmsg_enc_call(e, 77, prog, 1, NFS4_CB_PROC_COMPOUND, &none);
	nfs4_cb_compound_start(&c, e, "t", minor, 0);
	nfs4_cb_compound_add(&c, NFS4CBOP_SEQUENCE, &sa);
	if (recall)
		nfs4_cb_compound_add(&c, NFS4CBOP_RECALL, &ra);
	assert_int_equal(xdr_enc_error(e), 0);
}

/* The same with a CB_NOTIFY_LOCK of the handle { 5, 6 } after the
 * CB_SEQUENCE. */
static void cb_call_notify(struct xdr_enc *e, const uint8_t *sid,
			   uint32_t seqid)
{
	struct rpc_cred none = { .flavor = RPC_AUTH_NONE };
	struct nfs4_compound c;
	struct nfs4_cb_sequence_args sa = { .sequenceid = seqid };
	static const uint8_t owner[] = "lock-owner";
	struct nfs4_cb_notify_lock_args na = {
		.fh = { 2, { 5, 6 } },
		.lock_owner = { .clientid = 7, .owner = owner,
				.owner_len = sizeof(owner) - 1 } };

	memcpy(sa.sessionid, sid, NFS4_SESSIONID_SIZE);
	assert_int_equal(xdr_enc_init(e, 256, 0), 0);
	rpcmsg_enc_call(e, 77, NFS4_CB_PROGRAM, 1, NFS4_CB_PROC_COMPOUND,
			&none);
	nfs4_cb_compound_start(&c, e, "t", 1, 0);
	nfs4_cb_compound_add(&c, NFS4CBOP_SEQUENCE, &sa);
	nfs4_cb_compound_add(&c, NFS4CBOP_NOTIFY_LOCK, &na);
	assert_int_equal(xdr_enc_error(e), 0);
}

static void cb_call_getattr(struct xdr_enc *e, const uint8_t *sid,
			    uint32_t seqid)
{
	struct rpc_cred none = { .flavor = RPC_AUTH_NONE };
	struct nfs4_compound c;
	struct nfs4_cb_sequence_args sa = { .sequenceid = seqid };
	struct nfs4_cb_getattr_args ga = { .fh = { 2, { 5, 6 } } };

	memcpy(sa.sessionid, sid, NFS4_SESSIONID_SIZE);
	nfs4_bitmap_set(&ga.request, NFS4_FATTR_CHANGE);
	nfs4_bitmap_set(&ga.request, NFS4_FATTR_SIZE);
	assert_int_equal(xdr_enc_init(e, 256, 0), 0);
	rpcmsg_enc_call(e, 77, NFS4_CB_PROGRAM, 1, NFS4_CB_PROC_COMPOUND,
			&none);
	nfs4_cb_compound_start(&c, e, "t", 1, 0);
	nfs4_cb_compound_add(&c, NFS4CBOP_SEQUENCE, &sa);
	nfs4_cb_compound_add(&c, NFS4CBOP_GETATTR, &ga);
	assert_int_equal(xdr_enc_error(e), 0);
}

/* Runs the dispatcher on a call; the CB_COMPOUND reply's walk in *r
 * (over *reply, which the caller releases); returns the RPC accept
 * status. */
static uint32_t cb_answer(struct nfs4_session *s, struct xdr_enc *call,
			  struct xdr_enc *reply, struct nfs4_compound_res *r)
{
	struct rpc_reply_hdr h;
	struct xdr_dec d;

	assert_int_equal(xdr_enc_init(reply, 256, 0), 0);
	assert_int_equal(nfs4_cb_dispatch(s, call->buf, call->len, reply), 0);
	xdr_enc_release(call);
	xdr_dec_init(&d, reply->buf, reply->len);
	assert_int_equal(rpcmsg_dec_reply(&d, &h), 0);
	assert_int_equal(h.xid, 77);
	if (h.accept_stat == RPC_SUCCESS)
		assert_int_equal(nfs4_cb_dec_compound_res(&d, r), 0);
	return h.accept_stat;
}

/* lseek(2)'s answer from a SEEK reply (RFC 7862 §15.11). */
/* change_info4 stands for wcc pre-op attributes only when the server
 * took it atomically with the operation and the attributes read after
 * the operation are still at its "after". */
static void test_cinfo_wcc(void **state)
{
	struct nfs4_change_info ci = { .atomic = true, .before = 7,
				       .after = 8 };
	struct wcc_data w;

	(void)state;
	memset(&w, 0, sizeof(w));
	w.after.present = true;
	w.after.attr.change = 8;
	nfs4_wcc_from_cinfo(&ci, &w);
	assert_true(w.before.present);
	assert_int_equal(w.before.attr.change, 7);
	/* another change between the operation and the GETATTR */
	w.after.attr.change = 9;
	nfs4_wcc_from_cinfo(&ci, &w);
	assert_false(w.before.present);
	/* not atomic (nfs-ganesha's): proves nothing */
	w.after.attr.change = 8;
	ci.atomic = false;
	nfs4_wcc_from_cinfo(&ci, &w);
	assert_false(w.before.present);
	/* no attributes after */
	ci.atomic = true;
	w.after.present = false;
	nfs4_wcc_from_cinfo(&ci, &w);
	assert_false(w.before.present);
	/* a server without change attributes */
	w.after.present = true;
	ci.before = 0;
	nfs4_wcc_from_cinfo(&ci, &w);
	assert_false(w.before.present);
}

static void test_seek_answer(void **state)
{
	struct nfs42_seek_res r = { NFS3_OK, false, 8388608 };

	(void)state;
	/* data found: its offset; a hole found: its offset */
	assert_int_equal(nfs42_seek_answer(&r, false), 8388608);
	assert_int_equal(nfs42_seek_answer(&r, true), 8388608);
	/* the end reached: no data after the offset, but the hole at the
	 * end of the file is one */
	r.eof = true;
	assert_int_equal(nfs42_seek_answer(&r, false), -ENXIO);
	assert_int_equal(nfs42_seek_answer(&r, true), 8388608);
	/* past the end: NXIO from the server either way */
	r.status = NFS3ERR_NXIO;
	assert_int_equal(nfs42_seek_answer(&r, false), -ENXIO);
	assert_int_equal(nfs42_seek_answer(&r, true), -ENXIO);
	r.status = NFS3ERR_NOTSUPP;
	assert_int_equal(nfs42_seek_answer(&r, true), -ENOTSUP);
	/* an offset lseek cannot return */
	r.status = NFS3_OK;
	r.eof = false;
	r.offset = (uint64_t)INT64_MAX + 1;
	assert_int_equal(nfs42_seek_answer(&r, true), -EOVERFLOW);
}

/* Without a 4.2 session nothing goes out: -ENOTSUP at once. */
static void test_v42_unavailable(void **state)
{
	struct nfs_client c = { 0 };
	struct nfs4_session s = { .minor = 1 };
	struct nfs42_seek_res sr;
	struct nfs42_space_res ar;
	struct nfs42_copy_res cr;
	struct nfs_fh3 fh = { 1, { 7 } };

	(void)state;
	assert_false(nfs42_available(NULL));
	assert_false(nfs42_available(&c));
	assert_int_equal(nfs42_seek(&c, NULL, &fh, 0, true, &sr, NULL),
			 -ENOTSUP);
	c.v4 = &s; /* NFSv4.1 */
	assert_false(nfs42_available(&c));
	assert_int_equal(nfs42_space(&c, NULL, &fh, false, 0, 1, &ar, NULL),
			 -ENOTSUP);
	assert_int_equal(nfs42_copy(&c, NULL, &fh, 0, &fh, 0, 1, &cr, NULL),
			 -ENOTSUP);
	s.minor = 2;
	assert_true(nfs42_available(&c));
}

/* The lock-notification hook of test_backchannel. */
static void notify_hook(void *ctx, const struct nfs4_cb_notify_lock_args *a)
{
	assert_int_equal(a->fh.len, 2);
	assert_int_equal(a->fh.data[0], 5);
	assert_int_equal(a->fh.data[1], 6);
	assert_int_equal(a->lock_owner.clientid, 7);
	assert_int_equal(a->lock_owner.owner_len, 10);
	assert_memory_equal(a->lock_owner.owner, "lock-owner", 10);
	++*(int *)ctx;
}

/* The recall hook of test_backchannel: the handle cb_call sends. */
static uint32_t recall_hook(void *ctx, const struct nfs4_cb_recall_args *a)
{
	static const uint8_t fh[] = { 1, 2, 3, 4 };

	assert_int_equal(a->fh.len, sizeof(fh));
	assert_memory_equal(a->fh.data, fh, sizeof(fh));
	assert_false(a->truncate);
	++*(int *)ctx;
	return NFS4_OK;
}

/* The CB_GETATTR hook of test_backchannel: what a write delegation's
 * holder knows, for the handle cb_call_getattr sends. */
static uint32_t getattr_hook(void *ctx, const struct nfs4_cb_getattr_args *a,
			     struct nfs4_fattr *out)
{
	assert_int_equal(a->fh.len, 2);
	assert_int_equal(a->fh.data[0], 5);
	assert_true(nfs4_bitmap_isset(&a->request, NFS4_FATTR_SIZE));
	assert_true(nfs4_bitmap_isset(&a->request, NFS4_FATTR_CHANGE));
	nfs4_bitmap_set(&out->mask, NFS4_FATTR_CHANGE);
	nfs4_bitmap_set(&out->mask, NFS4_FATTR_SIZE);
	out->change = 0x1234567890ull;
	out->size = 4097;
	++*(int *)ctx;
	return NFS4_OK;
}

static void test_backchannel(void **state)
{
	int recalls = 0, notified = 0, getattrs = 0;
	struct nfs4_getattr_res gr;
	struct nfs4_session s;
	struct nfs4_compound_res r;
	struct nfs4_cb_sequence_res sr;
	struct nfs4_status_res st;
	struct xdr_enc call, reply;
	uint8_t other[NFS4_SESSIONID_SIZE] = { 9 };

	(void)state;
	memset(&s, 0, sizeof(s));
	pthread_mutex_init(&s.lock, NULL);
	s.minor = 1;
	memset(s.sessionid, 0xab, sizeof(s.sessionid));

	/* CB_SEQUENCE alone: answered OK, the slot's seqid taken */
	cb_call(&call, s.sessionid, 1, 1, false, NFS4_CB_PROGRAM);
	assert_int_equal(cb_answer(&s, &call, &reply, &r), RPC_SUCCESS);
	assert_int_equal(r.status, NFS4_OK);
	assert_int_equal(nfs4_compound_next(&r, NFS4CBOP_SEQUENCE, &sr), 0);
	assert_int_equal(sr.status, NFS4_OK);
	assert_int_equal(sr.sequenceid, 1);
	assert_memory_equal(sr.sessionid, s.sessionid, NFS4_SESSIONID_SIZE);
	assert_int_equal(s.cb_seqid, 1);
	xdr_enc_release(&reply);

	/* then a recall with no recall hook: SEQUENCE OK, CB_RECALL and
	 * the compound BADHANDLE (nothing is held) */
	cb_call(&call, s.sessionid, 1, 2, true, NFS4_CB_PROGRAM);
	assert_int_equal(cb_answer(&s, &call, &reply, &r), RPC_SUCCESS);
	assert_int_equal(r.status, NFS4ERR_BADHANDLE);
	assert_int_equal(nfs4_compound_next(&r, NFS4CBOP_SEQUENCE, &sr), 0);
	assert_int_equal(sr.status, NFS4_OK);
	assert_int_equal(nfs4_compound_next(&r, NFS4CBOP_RECALL, &st), 0);
	assert_int_equal(st.status, NFS4ERR_BADHANDLE);
	xdr_enc_release(&reply);

	/* with the hook: its answer, given the recall's handle */
	nfs4_session_set_recall(&s, recall_hook, &recalls);
	cb_call(&call, s.sessionid, 1, 3, true, NFS4_CB_PROGRAM);
	assert_int_equal(cb_answer(&s, &call, &reply, &r), RPC_SUCCESS);
	assert_int_equal(r.status, NFS4_OK);
	assert_int_equal(nfs4_compound_next(&r, NFS4CBOP_SEQUENCE, &sr), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4CBOP_RECALL, &st), 0);
	assert_int_equal(st.status, NFS4_OK);
	assert_int_equal(recalls, 1);
	xdr_enc_release(&reply);
	nfs4_session_set_recall(&s, NULL, NULL);

	/* CB_NOTIFY_LOCK: refused with no hook, then given to it */
	cb_call_notify(&call, s.sessionid, 4);
	assert_int_equal(cb_answer(&s, &call, &reply, &r), RPC_SUCCESS);
	assert_int_equal(r.status, NFS4ERR_NOTSUPP);
	xdr_enc_release(&reply);
	nfs4_session_set_notify_lock(&s, notify_hook, &notified);
	cb_call_notify(&call, s.sessionid, 5);
	assert_int_equal(cb_answer(&s, &call, &reply, &r), RPC_SUCCESS);
	assert_int_equal(r.status, NFS4_OK);
	assert_int_equal(nfs4_compound_next(&r, NFS4CBOP_SEQUENCE, &sr), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4CBOP_NOTIFY_LOCK, &st),
			 0);
	assert_int_equal(st.status, NFS4_OK);
	assert_int_equal(notified, 1);
	xdr_enc_release(&reply);

	/* CB_GETATTR: BADHANDLE with no hook (no write delegation is
	 * held), then the hook's size and change attribute, encoded */
	cb_call_getattr(&call, s.sessionid, 6);
	assert_int_equal(cb_answer(&s, &call, &reply, &r), RPC_SUCCESS);
	assert_int_equal(r.status, NFS4ERR_BADHANDLE);
	assert_int_equal(nfs4_compound_next(&r, NFS4CBOP_SEQUENCE, &sr), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4CBOP_GETATTR, &gr), 0);
	assert_int_equal(gr.status, NFS4ERR_BADHANDLE);
	xdr_enc_release(&reply);
	nfs4_session_set_cb_getattr(&s, getattr_hook, &getattrs);
	cb_call_getattr(&call, s.sessionid, 7);
	assert_int_equal(cb_answer(&s, &call, &reply, &r), RPC_SUCCESS);
	assert_int_equal(r.status, NFS4_OK);
	assert_int_equal(nfs4_compound_next(&r, NFS4CBOP_SEQUENCE, &sr), 0);
	memset(&gr, 0, sizeof(gr));
	assert_int_equal(nfs4_compound_next(&r, NFS4CBOP_GETATTR, &gr), 0);
	assert_int_equal(gr.status, NFS4_OK);
	assert_true(nfs4_bitmap_isset(&gr.attrs.mask, NFS4_FATTR_SIZE));
	assert_true(nfs4_bitmap_isset(&gr.attrs.mask, NFS4_FATTR_CHANGE));
	assert_false(nfs4_bitmap_isset(&gr.attrs.mask, NFS4_FATTR_TYPE));
	assert_int_equal(gr.attrs.size, 4097);
	assert_int_equal(gr.attrs.change, 0x1234567890ull);
	assert_int_equal(getattrs, 1);
	xdr_enc_release(&reply);
	nfs4_session_set_cb_getattr(&s, NULL, NULL);

	/* a sequence id out of order, another session, another minor */
	cb_call(&call, s.sessionid, 1, 12, false, NFS4_CB_PROGRAM);
	assert_int_equal(cb_answer(&s, &call, &reply, &r), RPC_SUCCESS);
	assert_int_equal(r.status, NFS4ERR_SEQ_MISORDERED);
	xdr_enc_release(&reply);
	cb_call(&call, other, 1, 8, false, NFS4_CB_PROGRAM);
	assert_int_equal(cb_answer(&s, &call, &reply, &r), RPC_SUCCESS);
	assert_int_equal(r.status, NFS4ERR_BADSESSION);
	xdr_enc_release(&reply);
	cb_call(&call, s.sessionid, 2, 8, false, NFS4_CB_PROGRAM);
	assert_int_equal(cb_answer(&s, &call, &reply, &r), RPC_SUCCESS);
	assert_int_equal(r.status, NFS4ERR_MINOR_VERS_MISMATCH);
	xdr_enc_release(&reply);
	assert_int_equal(s.cb_seqid, 7);

	/* another program: PROG_UNAVAIL */
	cb_call(&call, s.sessionid, 1, 6, false, 12345);
	assert_int_equal(cb_answer(&s, &call, &reply, &r), RPC_PROG_UNAVAIL);
	xdr_enc_release(&reply);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slots_basic),
		cmocka_unit_test(test_slots_target_and_limits),
		cmocka_unit_test(test_slots_misordered),
		cmocka_unit_test(test_owner_rules),
		cmocka_unit_test(test_hostid_kept),
		cmocka_unit_test(test_idmap),
		cmocka_unit_test(test_idcache),
		cmocka_unit_test(test_status_map),
		cmocka_unit_test(test_backchannel),
		cmocka_unit_test(test_seek_answer),
		cmocka_unit_test(test_cinfo_wcc),
		cmocka_unit_test(test_v42_unavailable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
