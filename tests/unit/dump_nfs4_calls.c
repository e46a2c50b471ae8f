/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writes NFSv4.1/4.2 COMPOUNDs built by xdr/nfs4.c, each in an ONC RPC
 * record (record mark, call or accepted-reply header built here by hand
 * with the cursor's primitives), as a text2pcap hex dump with I/O
 * direction lines (text2pcap -D): "O" the client's side, "I" the
 * server's.  Then a CB_COMPOUND from the server on the same connection
 * (the backchannel) and the client's reply to it.
 * tests/unit/tshark_nfs4.sh feeds it to text2pcap and tshark.
 *
 * Usage: dump_nfs4_calls > calls.txt
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfs4.h"

#define NFS4_CB_PROGRAM 0x40000000u

static const struct nfs4_stateid st = {
	1, { 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9,
	     0xaa, 0xab } };
static const uint8_t sid[NFS4_SESSIONID_SIZE] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f };
static const struct nfs4_putfh_args fh = {
	{ 8, { 0x43, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x2a } } };
static const struct nfs4_owner owner = { 0x5a5a, (const uint8_t *)"open id:1000",
					 12 };
static const struct nfs4_owner lowner = { 0x5a5a, (const uint8_t *)"lock id:7",
					  9 };

static void dump(const char *dir, struct xdr_enc *e)
{
	xdr_put_u32(e->buf, 0x80000000u | (uint32_t)(e->len - 4));
	printf("%s\n", dir);
	for (size_t i = 0; i < e->len; i++) {
		if (i % 16 == 0)
			printf("%06zx", i);
		printf(" %02x", e->buf[i]);
		if (i % 16 == 15 || i + 1 == e->len)
			printf("\n");
	}
	printf("\n");
}

static void call_header(struct xdr_enc *e, uint32_t xid, uint32_t prog,
			uint32_t vers, uint32_t proc)
{
	xdr_enc_init(e, 512, 4);
	xdr_enc_u32(e, xid);
	xdr_enc_u32(e, 0);          /* CALL */
	xdr_enc_u32(e, 2);          /* rpcvers */
	xdr_enc_u32(e, prog);
	xdr_enc_u32(e, vers);
	xdr_enc_u32(e, proc);
	xdr_enc_u32(e, 0);          /* cred AUTH_NONE */
	xdr_enc_u32(e, 0);
	xdr_enc_u32(e, 0);          /* verf AUTH_NONE */
	xdr_enc_u32(e, 0);
}

static void reply_header(struct xdr_enc *e, uint32_t xid)
{
	xdr_enc_init(e, 512, 4);
	xdr_enc_u32(e, xid);
	xdr_enc_u32(e, 1);          /* REPLY */
	xdr_enc_u32(e, 0);          /* MSG_ACCEPTED */
	xdr_enc_u32(e, 0);          /* verf AUTH_NONE */
	xdr_enc_u32(e, 0);
	xdr_enc_u32(e, 0);          /* SUCCESS */
}

static struct nfs4_sequence_args seq(uint32_t slot)
{
	struct nfs4_sequence_args s = { .sequenceid = 7, .slotid = slot,
					.highest_slotid = 3 };

	memcpy(s.sessionid, sid, sizeof(sid));
	return s;
}

static int finish(const char *dir, struct xdr_enc *e)
{
	int err = xdr_enc_error(e);

	if (!err)
		dump(dir, e);
	xdr_enc_release(e);
	return err;
}

/* Start a COMPOUND call: header, tag, minor version, SEQUENCE. */
static void start(struct xdr_enc *e, struct nfs4_compound *c, uint32_t xid,
		  uint32_t minor, bool with_seq)
{
	struct nfs4_sequence_args s = seq(xid & 3);

	call_header(e, xid, NFS4_PROGRAM, NFS4_VERSION, NFS4_PROC_COMPOUND);
	nfs4_compound_start(c, e, "nfsfuse", minor);
	if (with_seq)
		nfs4_add_sequence(c, &s);
}

static int session_calls(void)
{
	struct nfs4_exchange_id_args ex = {
		.verifier = { 1, 2, 3, 4, 5, 6, 7, 8 },
		.ownerid = (const uint8_t *)"nfsfuse host 1000", .ownerid_len = 17,
		.flags = NFS4_EXCHGID_FLAG_SUPP_MOVED_REFER |
			 NFS4_EXCHGID_FLAG_BIND_PRINC_STATEID,
		.has_impl_id = true,
		.impl_id = { { "nfsfuse.example", 15 }, { "nfsfuse", 7 },
			     { 1700000000, 0 } },
	};
	struct nfs4_create_session_args cs = {
		.clientid = 0x5a5a, .sequenceid = 1,
		.flags = NFS4_CREATE_SESSION_FLAG_CONN_BACK_CHAN,
		.fore = { 0, 1049620, 1049480, 3428, 8, 64, false, 0 },
		.back = { 0, 4096, 4096, 0, 2, 1, false, 0 },
		.cb_program = NFS4_CB_PROGRAM, .nsec = 1,
		.sec = { { .flavor = 1, .machinename = "client", .uid = 0 } },
	};
	struct nfs4_bind_conn_args bc = { .dir = NFS4_CDFC4_FORE_OR_BOTH };
	struct nfs4_reclaim_complete_args rc = { false };
	struct nfs4_destroy_session_args ds;
	struct nfs4_destroy_clientid_args dc = { 0x5a5a };
	struct nfs4_secinfo_no_name_args si = { NFS4_SECINFO_STYLE_CURRENT_FH };
	struct nfs4_getattr_args ga = { nfs4_fattr3_request };
	struct nfs4_lookup_args lk = { { "export", 6 } };
	struct nfs4_compound c;
	struct xdr_enc e;
	int err = 0;

	memcpy(bc.sessionid, sid, sizeof(sid));
	memcpy(ds.sessionid, sid, sizeof(sid));
	start(&e, &c, 0x101, 1, false);
	nfs4_add_exchange_id(&c, &ex);
	err |= finish("O", &e);
	start(&e, &c, 0x102, 1, false);
	nfs4_add_create_session(&c, &cs);
	err |= finish("O", &e);
	start(&e, &c, 0x103, 1, false);
	nfs4_add_bind_conn_to_session(&c, &bc);
	err |= finish("O", &e);
	start(&e, &c, 0x104, 1, true);
	nfs4_add_reclaim_complete(&c, &rc);
	err |= finish("O", &e);
	start(&e, &c, 0x105, 1, true);
	nfs4_add_putrootfh(&c);
	nfs4_add_secinfo_no_name(&c, &si);
	nfs4_add_lookup(&c, &lk);
	nfs4_add_getfh(&c);
	nfs4_add_getattr(&c, &ga);
	err |= finish("O", &e);
	start(&e, &c, 0x106, 1, false);
	nfs4_add_destroy_session(&c, &ds);
	err |= finish("O", &e);
	start(&e, &c, 0x107, 1, false);
	nfs4_add_destroy_clientid(&c, &dc);
	err |= finish("O", &e);
	return err;
}

static int file_calls(void)
{
	struct nfs4_open_args op;
	struct nfs4_read_args rd = { st, 4096, 65536 };
	struct nfs4_write_args wr = { st, 8192, NFS4_UNSTABLE, "hello", 5 };
	struct nfs4_commit_args cm = { 0, 0 };
	struct nfs4_close_args cl = { 0, st };
	struct nfs4_open_downgrade_args od = { st, 0, NFS4_SHARE_ACCESS_READ,
					       NFS4_SHARE_DENY_NONE };
	struct nfs4_access_args ac = { 0x1f };
	struct nfs4_getattr_args ga = { nfs4_fattr3_request };
	struct nfs4_compound c;
	struct xdr_enc e;
	int err = 0;

	memset(&op, 0, sizeof(op));
	op.share_access = NFS4_SHARE_ACCESS_BOTH | NFS4_SHARE_WANT_NO_DELEG;
	op.owner = owner;
	op.opentype = NFS4_OPEN_CREATE;
	op.createmode = NFS4_CREATE_GUARDED;
	nfs4_bitmap_set(&op.createattrs.mask, NFS4_FATTR_MODE);
	op.createattrs.mode = 0640;
	op.claim = NFS4_CLAIM_NULL;
	op.name = nfs4_str("new-file");
	start(&e, &c, 0x201, 1, true);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_open(&c, &op);
	nfs4_add_getfh(&c);
	nfs4_add_getattr(&c, &ga);
	err |= finish("O", &e);

	op.share_access = NFS4_SHARE_ACCESS_READ;
	op.opentype = NFS4_OPEN_NOCREATE;
	op.claim = NFS4_CLAIM_FH;
	start(&e, &c, 0x202, 1, true);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_open(&c, &op);
	nfs4_add_access(&c, &ac);
	err |= finish("O", &e);

	op.opentype = NFS4_OPEN_CREATE;
	op.createmode = NFS4_CREATE_EXCLUSIVE4_1;
	memcpy(op.verifier, "excl-vf!", 8);
	op.claim = NFS4_CLAIM_NULL;
	start(&e, &c, 0x203, 1, true);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_open(&c, &op);
	err |= finish("O", &e);

	start(&e, &c, 0x204, 1, true);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_read(&c, &rd);
	err |= finish("O", &e);
	start(&e, &c, 0x205, 1, true);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_write(&c, &wr);
	nfs4_add_commit(&c, &cm);
	err |= finish("O", &e);
	start(&e, &c, 0x206, 1, true);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_open_downgrade(&c, &od);
	nfs4_add_close(&c, &cl);
	err |= finish("O", &e);
	return err;
}

static int dir_calls(void)
{
	struct nfs4_create_args cr;
	struct nfs4_remove_args rm = { { "old", 3 } };
	struct nfs4_rename_args rn = { { "a", 1 }, { "b", 1 } };
	struct nfs4_link_args ln = { { "hard", 4 } };
	struct nfs4_readdir_args rd = { .cookie = 0, .dircount = 8192,
					.maxcount = 32768,
					.request = nfs4_fattr3_request };
	struct nfs4_setattr_args sa;
	struct nfs4_verify_args vf;
	struct sattr3 s3 = { .set_mode = true, .mode = 0600, .set_size = true,
			     .size = 12345, .set_mtime = SET_TO_CLIENT_TIME,
			     .mtime = { 1700000000, 500 },
			     .set_atime = SET_TO_SERVER_TIME };
	struct nfs4_compound c;
	struct xdr_enc e;
	int err = 0;

	memset(&cr, 0, sizeof(cr));
	cr.type = NF4LNK;
	cr.linkdata = nfs4_str("../target");
	cr.name = nfs4_str("link");
	start(&e, &c, 0x301, 1, true);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_create(&c, &cr);
	nfs4_add_remove(&c, &rm);
	err |= finish("O", &e);
	start(&e, &c, 0x302, 1, true);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_savefh(&c);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_rename(&c, &rn);
	nfs4_add_restorefh(&c);
	nfs4_add_link(&c, &ln);
	err |= finish("O", &e);
	start(&e, &c, 0x303, 1, true);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_readdir(&c, &rd);
	err |= finish("O", &e);
	memset(&sa, 0, sizeof(sa));
	sa.stateid = st;
	nfs4_fattr_from_sattr3(&s3, "1000@localdomain", "1000", &sa.attrs);
	memset(&vf, 0, sizeof(vf));
	nfs4_bitmap_set(&vf.attrs.mask, NFS4_FATTR_CHANGE);
	vf.attrs.change = 0x1234;
	start(&e, &c, 0x304, 1, true);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_verify(&c, &vf);
	nfs4_add_setattr(&c, &sa);
	nfs4_add_nverify(&c, &vf);
	nfs4_add_readlink(&c);
	nfs4_add_lookupp(&c);
	err |= finish("O", &e);
	return err;
}

static int lock_and_42_calls(void)
{
	struct nfs4_lock_args lk;
	struct nfs4_lockt_args lt = { NFS4_WRITE_LT, 100, 10, lowner };
	struct nfs4_locku_args lu = { NFS4_WRITE_LT, 0, st, 0, UINT64_MAX };
	struct nfs4_stateid_args sa = { st };
	struct nfs4_stateid two[2] = { st, st };
	struct nfs4_test_stateid_args ts = { 2, two };
	struct nfs4_seek_args sk = { st, 4096, NFS4_CONTENT_HOLE };
	struct nfs4_allocate_args al = { st, 0, 1 << 20 };
	struct nfs4_copy_args cp = { st, st, 0, 4096, 1 << 20, false, true };
	struct nfs4_compound c;
	struct xdr_enc e;
	int err = 0;

	memset(&lk, 0, sizeof(lk));
	lk.locktype = NFS4_WRITEW_LT;
	lk.offset = 0;
	lk.length = UINT64_MAX;
	lk.new_lock_owner = true;
	lk.open_stateid = st;
	lk.lock_owner = lowner;
	start(&e, &c, 0x401, 1, true);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_lock(&c, &lk);
	nfs4_add_lockt(&c, &lt);
	nfs4_add_locku(&c, &lu);
	err |= finish("O", &e);
	start(&e, &c, 0x402, 1, true);
	nfs4_add_delegreturn(&c, &sa);
	nfs4_add_free_stateid(&c, &sa);
	nfs4_add_test_stateid(&c, &ts);
	err |= finish("O", &e);
	start(&e, &c, 0x403, 2, true);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_seek(&c, &sk);
	nfs4_add_allocate(&c, &al);
	nfs4_add_deallocate(&c, &al);
	err |= finish("O", &e);
	start(&e, &c, 0x404, 2, true);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_savefh(&c);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_copy(&c, &cp);
	err |= finish("O", &e);
	return err;
}

/* A GETATTR and an OPEN answered by the server, with the result encoders
 * a test server uses. */
static int replies(void)
{
	struct nfs4_sequence_args s = seq(1);
	struct nfs4_sequence_res sr = { .sequenceid = 7, .slotid = 1,
					.highest_slotid = 3,
					.target_highest_slotid = 3 };
	struct nfs4_status_res ok = { NFS4_OK };
	struct nfs4_getattr_args ga = { nfs4_fattr3_request };
	struct nfs4_getattr_res gr;
	struct nfs4_open_res orr;
	struct nfs4_open_args op;
	struct nfs4_compound c;
	struct xdr_enc e;
	int err = 0;

	memcpy(sr.sessionid, sid, sizeof(sid));
	call_header(&e, 0x501, NFS4_PROGRAM, NFS4_VERSION, NFS4_PROC_COMPOUND);
	nfs4_compound_start(&c, &e, "nfsfuse", 1);
	nfs4_add_sequence(&c, &s);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_getattr(&c, &ga);
	err |= finish("O", &e);

	memset(&gr, 0, sizeof(gr));
	gr.attrs.mask = nfs4_fattr3_request;
	gr.attrs.type = NF4REG;
	gr.attrs.change = 0x1122334455667788ull;
	gr.attrs.size = 12345;
	gr.attrs.fsid.major = 1;
	gr.attrs.fsid.minor = 2;
	gr.attrs.fileid = 4242;
	gr.attrs.mode = 0644;
	gr.attrs.numlinks = 1;
	gr.attrs.owner = nfs4_str("root@localdomain");
	gr.attrs.owner_group = nfs4_str("root@localdomain");
	gr.attrs.space_used = 16384;
	gr.attrs.time_access.seconds = 1700000000;
	gr.attrs.time_modify.seconds = 1700000001;
	gr.attrs.time_metadata.seconds = 1700000002;
	gr.attrs.mounted_on_fileid = 4242;
	reply_header(&e, 0x501);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_string(&e, NFS4_MAXTAG, "nfsfuse");
	xdr_enc_u32(&e, 3);
	xdr_enc_u32(&e, NFS4OP_SEQUENCE);
	nfs4_enc_sequence_res(&e, &sr);
	xdr_enc_u32(&e, NFS4OP_PUTFH);
	nfs4_enc_status_res(&e, &ok);
	xdr_enc_u32(&e, NFS4OP_GETATTR);
	nfs4_enc_getattr_res(&e, &gr);
	err |= finish("I", &e);

	memset(&op, 0, sizeof(op));
	op.share_access = NFS4_SHARE_ACCESS_READ;
	op.owner = owner;
	op.claim = NFS4_CLAIM_FH;
	call_header(&e, 0x502, NFS4_PROGRAM, NFS4_VERSION, NFS4_PROC_COMPOUND);
	nfs4_compound_start(&c, &e, "nfsfuse", 1);
	nfs4_add_sequence(&c, &s);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_open(&c, &op);
	err |= finish("O", &e);
	memset(&orr, 0, sizeof(orr));
	orr.stateid = st;
	orr.stateid.seqid = 2;
	orr.cinfo.atomic = true;
	orr.cinfo.before = 10;
	orr.cinfo.after = 11;
	orr.rflags = NFS4_OPEN_RESULT_LOCKTYPE_POSIX;
	orr.delegation.type = NFS4_OPEN_DELEGATE_READ;
	orr.delegation.stateid = st;
	orr.delegation.stateid.seqid = 3;
	orr.delegation.permissions.access_mask = 0x1;
	orr.delegation.permissions.who = nfs4_str("EVERYONE@");
	reply_header(&e, 0x502);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_string(&e, NFS4_MAXTAG, "nfsfuse");
	xdr_enc_u32(&e, 3);
	xdr_enc_u32(&e, NFS4OP_SEQUENCE);
	nfs4_enc_sequence_res(&e, &sr);
	xdr_enc_u32(&e, NFS4OP_PUTFH);
	nfs4_enc_status_res(&e, &ok);
	xdr_enc_u32(&e, NFS4OP_OPEN);
	nfs4_enc_open_res(&e, &orr);
	err |= finish("I", &e);
	return err;
}

/* The server recalls the delegation over the backchannel; we answer. */
static int callback(void)
{
	struct nfs4_cb_sequence_args cs = { .sequenceid = 1, .slotid = 0 };
	struct nfs4_cb_recall_args rc = { st, false, fh.fh };
	struct nfs4_cb_sequence_res sr = { .sequenceid = 1 };
	struct nfs4_status_res ok = { NFS4_OK };
	struct nfs4_cb_reply rep;
	struct nfs4_compound c;
	struct xdr_enc e;
	int err = 0;

	memcpy(cs.sessionid, sid, sizeof(sid));
	memcpy(sr.sessionid, sid, sizeof(sid));
	rc.stateid.seqid = 3;
	call_header(&e, 0x601, NFS4_CB_PROGRAM, 1, NFS4_CB_PROC_COMPOUND);
	nfs4_cb_compound_start(&c, &e, "", 1, 0);
	nfs4_cb_compound_add(&c, NFS4CBOP_SEQUENCE, &cs);
	nfs4_cb_compound_add(&c, NFS4CBOP_RECALL, &rc);
	err |= finish("I", &e);
	reply_header(&e, 0x601);
	nfs4_cb_reply_start(&rep, &e, NULL);
	nfs4_cb_reply_add(&rep, NFS4CBOP_SEQUENCE, &sr);
	nfs4_cb_reply_add(&rep, NFS4CBOP_RECALL, &ok);
	err |= finish("O", &e);
	return err;
}

/* An ACL set (SETATTR of the ACL alone, then GETATTR), and a GETATTR
 * answered with supported_attrs and the ACL. */
static int acl_calls(void)
{
	static const struct nfs4_ace aces[] = {
		{ NFS4_ACE_ACCESS_ALLOWED_ACE_TYPE, 0, 0x1601a7, { "OWNER@", 6 } },
		{ NFS4_ACE_ACCESS_DENIED_ACE_TYPE, NFS4_ACE_IDENTIFIER_GROUP,
		  0x6, { "GROUP@", 6 } },
		{ NFS4_ACE_ACCESS_ALLOWED_ACE_TYPE, 0, 0x120081,
		  { "1000@localdomain", 16 } },
	};
	struct nfs4_sequence_args s = seq(2);
	struct nfs4_sequence_res sr = { .sequenceid = 8, .slotid = 2,
					.highest_slotid = 3,
					.target_highest_slotid = 3 };
	struct nfs4_status_res ok = { NFS4_OK };
	struct nfs4_getattr_args ga = { nfs4_fattr3_request };
	struct nfs4_setattr_args sa;
	struct nfs4_getattr_res gr;
	struct nfs4_compound c;
	struct xdr_enc e;
	int err = 0;

	memset(&sa, 0, sizeof(sa));
	nfs4_bitmap_set(&sa.attrs.mask, NFS4_FATTR_ACL);
	sa.attrs.acl.naces = 3;
	sa.attrs.acl.aces = aces;
	nfs4_bitmap_set(&ga.request, NFS4_FATTR_SUPPORTED_ATTRS);
	nfs4_bitmap_set(&ga.request, NFS4_FATTR_ACL);
	call_header(&e, 0x701, NFS4_PROGRAM, NFS4_VERSION, NFS4_PROC_COMPOUND);
	nfs4_compound_start(&c, &e, "nfsfuse", 2);
	nfs4_add_sequence(&c, &s);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_setattr(&c, &sa);
	nfs4_add_getattr(&c, &ga);
	err |= finish("O", &e);

	memset(&gr, 0, sizeof(gr));
	nfs4_bitmap_set(&gr.attrs.mask, NFS4_FATTR_SUPPORTED_ATTRS);
	nfs4_bitmap_set(&gr.attrs.mask, NFS4_FATTR_ACL);
	nfs4_bitmap_set(&gr.attrs.supported_attrs, NFS4_FATTR_ACL);
	nfs4_bitmap_set(&gr.attrs.supported_attrs, NFS4_FATTR_ACLSUPPORT);
	gr.attrs.acl.naces = 3;
	gr.attrs.acl.aces = aces;
	memcpy(sr.sessionid, sid, sizeof(sid));
	reply_header(&e, 0x701);
	xdr_enc_u32(&e, NFS4_OK);
	xdr_enc_string(&e, NFS4_MAXTAG, "nfsfuse");
	xdr_enc_u32(&e, 3);
	xdr_enc_u32(&e, NFS4OP_SEQUENCE);
	nfs4_enc_sequence_res(&e, &sr);
	xdr_enc_u32(&e, NFS4OP_PUTFH);
	nfs4_enc_status_res(&e, &ok);
	xdr_enc_u32(&e, NFS4OP_GETATTR);
	nfs4_enc_getattr_res(&e, &gr);
	err |= finish("I", &e);
	return err;
}

/* RFC 8276: the four extended attribute operations in one COMPOUND. */
static int xattr_calls(void)
{
	struct nfs4_getxattr_args g = { { "color", 5 } };
	struct nfs4_setxattr_args sx = { NFS4_SETXATTR_CREATE, { "color", 5 },
					 "blue", 4 };
	struct nfs4_listxattrs_args l = { 0, 32768 };
	struct nfs4_removexattr_args r = { { "color", 5 } };
	struct nfs4_compound c;
	struct xdr_enc e;

	start(&e, &c, 0x405, 2, true);
	nfs4_add_putfh(&c, &fh);
	nfs4_add_setxattr(&c, &sx);
	nfs4_add_getxattr(&c, &g);
	nfs4_add_listxattrs(&c, &l);
	nfs4_add_removexattr(&c, &r);
	return finish("O", &e);
}

int main(void)
{
	int err = 0;

	err |= session_calls();
	err |= file_calls();
	err |= dir_calls();
	err |= lock_and_42_calls();
	err |= replies();
	err |= callback();
	err |= acl_calls();
	err |= xattr_calls();
	if (err) {
		fprintf(stderr, "dump_nfs4_calls: an encoder failed\n");
		return 1;
	}
	return 0;
}
