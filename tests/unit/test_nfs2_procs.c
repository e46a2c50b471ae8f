/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of nfs_version2 (src/proto/nfs2_procs.c): the table that puts
 * the NFSv3-typed calls of the upper layers on the wire as NFSv2 and turns
 * NFSv2 replies into NFSv3 results.  No server: encoders are run into a
 * buffer and compared, decoders (and fixups) are fed hand-built v2 replies.
 *
 * - what v2 cannot say is refused before sending: handles not 32 bytes,
 *   READ past 2 GiB - 1 (-EOVERFLOW), WRITE reaching past it or a SETATTR
 *   of such a size (-EFBIG), 64-bit cookies;
 * - procedures v2 lacks have no entry (ACCESS, PATHCONF, COMMIT);
 * - WRITE comes back FILE_SYNC with the full count; READ gets its eof;
 * - READDIR and READDIRPLUS entries are rewritten in the v3 format into a
 *   buffer that replaces the reply's, and nfs3_readdir(plus)_next() reads
 *   them; FSINFO is made from STATFS.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/proto/nfs.h"
#include "nfs2.h"

static const struct nfs_proc *proc(enum nfs3_proc p)
{
	return &nfs_version2.procs[p];
}

static struct nfs_fh3 fh32(uint8_t fill)
{
	struct nfs_fh3 fh = { .len = NFS2_FHSIZE };

	memset(fh.data, fill, NFS2_FHSIZE);
	return fh;
}

/* Encode args with the table's encoder: its return value. */
static int enc(enum nfs3_proc p, const void *args, struct xdr_enc *e)
{
	int ret;

	assert_int_equal(xdr_enc_init(e, 256, 0), 0);
	ret = proc(p)->enc(e, args);
	return ret ? ret : xdr_enc_error(e);
}

static int enc_only(enum nfs3_proc p, const void *args)
{
	struct xdr_enc e;
	int ret = enc(p, args, &e);

	xdr_enc_release(&e);
	return ret;
}

/* Decode a reply body (and run the fixup) as nfs_call() does: the reply
 * buffer is a malloc'd copy that the fixup may replace. */
static int dec(enum nfs3_proc p, const void *args, const void *body,
	       size_t len, void *res, struct rpc_reply *reply)
{
	struct xdr_dec d;
	int ret;

	reply->buf = malloc(len ? len : 1);
	assert_non_null(reply->buf);
	memcpy(reply->buf, body, len);
	reply->len = len;
	xdr_dec_init(&d, reply->buf, len);
	ret = proc(p)->dec(&d, res);
	if (ret == 0 && proc(p)->fixup)
		ret = proc(p)->fixup(args, res, reply);
	return ret;
}

/* A v2 fattr of a regular file of `size` bytes. */
static void put_fattr(struct xdr_enc *e, uint32_t size)
{
	struct nfs2_fattr a = {
		.type = NF2REG, .mode = NFS2MODE_REG | 0644, .nlink = 1,
		.size = size, .blocksize = 512, .blocks = (size + 511) / 512,
		.fileid = 42,
	};

	nfs2_enc_fattr(e, &a);
}

static void test_absent(void **state)
{
	(void)state;
	assert_null(proc(NFS3PROC_ACCESS)->dec);
	assert_null(proc(NFS3PROC_PATHCONF)->dec);
	assert_null(proc(NFS3PROC_COMMIT)->dec);
	assert_int_equal(nfs_version2.vers, 2);
	assert_int_equal(proc(NFS3PROC_MKNOD)->wire_proc, NFS2PROC_CREATE);
	assert_int_equal(proc(NFS3PROC_FSINFO)->wire_proc, NFS2PROC_STATFS);
	assert_int_equal(proc(NFS3PROC_READDIRPLUS)->wire_proc,
			 NFS2PROC_READDIR);
	for (int p = 1; p < NFS3PROC_COUNT; p++)
		if (proc(p)->dec)
			assert_true(proc(p)->wire_proc < NFS2PROC_COUNT);
}

static void test_handles(void **state)
{
	struct nfs3_getattr_args a = { .object = fh32(7) };
	struct xdr_enc e;
	uint8_t want[NFS2_FHSIZE];

	(void)state;
	assert_int_equal(enc(NFS3PROC_GETATTR, &a, &e), 0);
	memset(want, 7, sizeof(want));
	assert_int_equal(e.len, NFS2_FHSIZE);
	assert_memory_equal(e.buf, want, NFS2_FHSIZE);
	xdr_enc_release(&e);
	a.object.len = 24; /* a v3 handle */
	assert_int_equal(enc_only(NFS3PROC_GETATTR, &a), -EINVAL);
	a.object.len = 0;
	assert_int_equal(enc_only(NFS3PROC_GETATTR, &a), -EINVAL);
}

static void test_limits(void **state)
{
	struct nfs3_read_args r = { .file = fh32(1), .count = 100 };
	struct nfs3_write_args w = { .file = fh32(1), .count = 1,
				     .stable = UNSTABLE, .data = "x" };
	struct nfs3_setattr_args s = { .object = fh32(1) };
	struct nfs3_readdir_args d = { .dir = fh32(1), .count = 4096 };
	struct xdr_enc e;

	(void)state;
	r.offset = NFS2_MAXFILESIZE + 1ull;
	assert_int_equal(enc_only(NFS3PROC_READ, &r), -EOVERFLOW);
	r.offset = 1ull << 32; /* would wrap to 0 */
	assert_int_equal(enc_only(NFS3PROC_READ, &r), -EOVERFLOW);
	r.offset = NFS2_MAXFILESIZE - 10; /* cut to a short read */
	assert_int_equal(enc(NFS3PROC_READ, &r, &e), 0);
	assert_int_equal(xdr_get_u32(e.buf + 32), NFS2_MAXFILESIZE - 10);
	assert_int_equal(xdr_get_u32(e.buf + 36), 10);
	xdr_enc_release(&e);

	w.offset = 1ull << 31;
	assert_int_equal(enc_only(NFS3PROC_WRITE, &w), -EFBIG);
	w.offset = NFS2_MAXFILESIZE;
	assert_int_equal(enc_only(NFS3PROC_WRITE, &w), -EFBIG);
	w.offset = NFS2_MAXFILESIZE - 1; /* the last byte */
	assert_int_equal(enc(NFS3PROC_WRITE, &w, &e), 0);
	/* fh, beginoffset, offset, totalcount, data<> */
	assert_int_equal(xdr_get_u32(e.buf + 36), NFS2_MAXFILESIZE - 1);
	assert_int_equal(xdr_get_u32(e.buf + 44), 1);
	xdr_enc_release(&e);
	w.count = 2; /* one byte would not fit: all or nothing */
	w.data = "xy";
	assert_int_equal(enc_only(NFS3PROC_WRITE, &w), -EFBIG);
	w.offset = 0;
	w.count = NFS2_MAXDATA + 1;
	assert_int_equal(enc_only(NFS3PROC_WRITE, &w), -EINVAL);

	s.new_attributes.set_size = true;
	s.new_attributes.size = 1ull << 31;
	assert_int_equal(enc_only(NFS3PROC_SETATTR, &s), -EFBIG);
	s.new_attributes.size = 5;
	s.guard_check = true;
	assert_int_equal(enc_only(NFS3PROC_SETATTR, &s), -ENOTSUP);

	d.cookie = 1ull << 32;
	assert_int_equal(enc_only(NFS3PROC_READDIR, &d), -EINVAL);
	d.cookie = 0xfffffffful;
	assert_int_equal(enc(NFS3PROC_READDIR, &d, &e), 0);
	assert_int_equal(xdr_get_u32(e.buf + 32), 0xffffffffu);
	xdr_enc_release(&e);
}

static void test_mknod(void **state)
{
	struct nfs_fh3 dir = fh32(2);
	struct nfs3_mknod_args a = { .where = { &dir, "n" } };
	struct xdr_enc e;

	(void)state;
	a.attributes.set_mode = true;
	a.attributes.mode = 0640;
	a.type = NF3FIFO;
	assert_int_equal(enc(NFS3PROC_MKNOD, &a, &e), 0);
	/* fh, name "n" (4 + 4), then sattr: mode, uid, gid, size */
	assert_int_equal(xdr_get_u32(e.buf + 40), NFS2MODE_CHR | 0640);
	assert_int_equal(xdr_get_u32(e.buf + 52), NFS2_FIFO_DEV);
	xdr_enc_release(&e);
	a.type = NF3BLK;
	a.spec.specdata1 = 7;
	a.spec.specdata2 = 0x12345;
	assert_int_equal(enc(NFS3PROC_MKNOD, &a, &e), 0);
	assert_int_equal(xdr_get_u32(e.buf + 40), NFS2MODE_BLK | 0640);
	assert_int_equal(xdr_get_u32(e.buf + 52), 0x45u | 7u << 8 | 0x12300u << 12);
	xdr_enc_release(&e);
	a.spec.specdata1 = 0x1000;
	assert_int_equal(enc_only(NFS3PROC_MKNOD, &a), -EOVERFLOW);
}

static void test_write_read(void **state)
{
	struct nfs3_write_args w = { .file = fh32(1), .offset = 100,
				     .count = 5, .data = "hello" };
	struct nfs3_write_res wr;
	struct nfs3_read_args ra = { .file = fh32(1), .offset = 95,
				     .count = 10 };
	struct nfs3_read_res rr;
	struct rpc_reply reply;
	struct xdr_enc e;

	(void)state;
	assert_int_equal(xdr_enc_init(&e, 256, 0), 0);
	xdr_enc_u32(&e, NFS2_OK);
	put_fattr(&e, 105);
	assert_int_equal(dec(NFS3PROC_WRITE, &w, e.buf, e.len, &wr, &reply), 0);
	rpc_reply_release(&reply);
	assert_int_equal(wr.status, NFS3_OK);
	assert_int_equal(wr.count, 5);
	assert_int_equal(wr.committed, FILE_SYNC);
	assert_false(wr.file_wcc.before.present);
	assert_true(wr.file_wcc.after.present);
	assert_int_equal(wr.file_wcc.after.attr.size, 105);
	assert_int_equal(wr.file_wcc.after.attr.type, NF3REG);

	/* READ of the last 10 bytes: eof although v2 does not say it. */
	xdr_enc_opaque(&e, NFS2_MAXDATA, "0123456789", 10);
	assert_int_equal(dec(NFS3PROC_READ, &ra, e.buf, e.len, &rr, &reply), 0);
	assert_int_equal(rr.status, NFS3_OK);
	assert_int_equal(rr.count, 10);
	assert_int_equal(rr.data_len, 10);
	assert_memory_equal(rr.data, "0123456789", 10);
	assert_true(rr.eof);
	rpc_reply_release(&reply);
	ra.offset = 0;
	assert_int_equal(dec(NFS3PROC_READ, &ra, e.buf, e.len, &rr, &reply), 0);
	assert_false(rr.eof);
	rpc_reply_release(&reply);
	xdr_enc_release(&e);

	/* A failure: only the status, mapped. */
	assert_int_equal(xdr_enc_init(&e, 16, 0), 0);
	xdr_enc_u32(&e, NFS2ERR_WFLUSH);
	assert_int_equal(dec(NFS3PROC_WRITE, &w, e.buf, e.len, &wr, &reply), 0);
	assert_int_equal(wr.status, NFS3ERR_IO);
	assert_false(wr.file_wcc.after.present);
	rpc_reply_release(&reply);
	xdr_enc_release(&e);
}

/* readdirres with the given names; cookies 100, 101, ... */
static void put_readdir(struct xdr_enc *e, const char *const *names, int n,
			bool eof)
{
	xdr_enc_u32(e, NFS2_OK);
	for (int i = 0; i < n; i++) {
		xdr_enc_bool(e, true);
		xdr_enc_u32(e, 1000u + (uint32_t)i);
		xdr_enc_string(e, NFS2_MAXNAMLEN, names[i]);
		xdr_enc_u32(e, 100u + (uint32_t)i);
	}
	xdr_enc_bool(e, false);
	xdr_enc_bool(e, eof);
}

static void test_readdir(void **state)
{
	static const char *const names[] = { ".", "..", "a-longer-name", "b" };
	struct nfs3_readdir_args a = { .dir = fh32(3), .count = 8192 };
	struct nfs3_readdirplus_args ap = { .dir = fh32(3), .dircount = 8192,
					    .maxcount = 8192 };
	struct nfs3_readdir_res r;
	struct nfs3_readdirplus_res rp;
	struct nfs3_entryplus ep;
	struct nfs3_entry en;
	struct rpc_reply reply;
	struct xdr_enc e;
	int i;

	(void)state;
	assert_int_equal(xdr_enc_init(&e, 256, 0), 0);
	put_readdir(&e, names, 4, true);
	assert_int_equal(dec(NFS3PROC_READDIR, &a, e.buf, e.len, &r, &reply), 0);
	assert_int_equal(r.status, NFS3_OK);
	assert_int_equal(r.nentries, 4);
	assert_true(r.eof);
	assert_false(r.dir_attributes.present);
	/* The entries now live in the buffer that replaced the reply's. */
	assert_ptr_equal(r.entries.p, reply.buf);
	for (i = 0; nfs3_readdir_next(&r.entries, &en) == 1; i++) {
		assert_true(i < 4);
		assert_int_equal(en.fileid, 1000 + i);
		assert_int_equal(en.cookie, 100 + i);
		assert_int_equal(en.namelen, strlen(names[i]));
		assert_memory_equal(en.name, names[i], en.namelen);
	}
	assert_int_equal(i, 4);
	rpc_reply_release(&reply);

	assert_int_equal(dec(NFS3PROC_READDIRPLUS, &ap, e.buf, e.len, &rp,
			     &reply), 0);
	assert_int_equal(rp.nentries, 4);
	assert_ptr_equal(rp.entries.p, reply.buf);
	for (i = 0; nfs3_readdirplus_next(&rp.entries, &ep) == 1; i++) {
		assert_int_equal(ep.cookie, 100 + i);
		assert_memory_equal(ep.name, names[i], ep.namelen);
		assert_false(ep.name_attributes.present);
		assert_false(ep.name_handle.present);
	}
	assert_int_equal(i, 4);
	rpc_reply_release(&reply);
	xdr_enc_release(&e);

	/* Empty directory, not at eof; and a failure (no rewrite). */
	assert_int_equal(xdr_enc_init(&e, 64, 0), 0);
	put_readdir(&e, names, 0, false);
	assert_int_equal(dec(NFS3PROC_READDIR, &a, e.buf, e.len, &r, &reply), 0);
	assert_int_equal(r.nentries, 0);
	assert_false(r.eof);
	assert_int_equal(nfs3_readdir_next(&r.entries, &en), 0);
	rpc_reply_release(&reply);
	xdr_enc_release(&e);
	assert_int_equal(xdr_enc_init(&e, 64, 0), 0);
	xdr_enc_u32(&e, NFS2ERR_STALE);
	assert_int_equal(dec(NFS3PROC_READDIR, &a, e.buf, e.len, &r, &reply), 0);
	assert_int_equal(r.status, NFS3ERR_STALE);
	rpc_reply_release(&reply);
	/* Truncated: malformed, whatever the fixup would do. */
	xdr_enc_release(&e);
	assert_int_equal(xdr_enc_init(&e, 256, 0), 0);
	put_readdir(&e, names, 4, true);
	assert_int_equal(dec(NFS3PROC_READDIR, &a, e.buf, e.len - 6, &r,
			     &reply), -EBADMSG);
	rpc_reply_release(&reply);
	xdr_enc_release(&e);
}

static void test_fsinfo(void **state)
{
	struct nfs3_fsinfo_args a = { .fsroot = fh32(4) };
	struct nfs3_fsinfo_res r;
	struct nfs3_fsstat_res s;
	struct rpc_reply reply;
	struct xdr_enc e;

	(void)state;
	assert_int_equal(xdr_enc_init(&e, 64, 0), 0);
	xdr_enc_u32(&e, NFS2_OK);
	xdr_enc_u32(&e, 65536); /* tsize: more than v2 can move */
	xdr_enc_u32(&e, 4096);
	xdr_enc_u32(&e, 3000000); /* 12 GB: over 32 bits in bytes */
	xdr_enc_u32(&e, 1000);
	xdr_enc_u32(&e, 900);
	assert_int_equal(dec(NFS3PROC_FSINFO, &a, e.buf, e.len, &r, &reply), 0);
	rpc_reply_release(&reply);
	assert_int_equal(r.status, NFS3_OK);
	assert_int_equal(r.rtmax, NFS2_MAXDATA);
	assert_int_equal(r.wtmax, NFS2_MAXDATA);
	assert_int_equal(r.maxfilesize, NFS2_MAXFILESIZE);
	assert_int_equal(r.time_delta.seconds, 1);
	assert_int_equal(dec(NFS3PROC_FSSTAT, &a, e.buf, e.len, &s, &reply), 0);
	rpc_reply_release(&reply);
	assert_int_equal(s.tbytes, 3000000ull * 4096);
	assert_int_equal(s.fbytes, 1000ull * 4096);
	assert_int_equal(s.abytes, 900ull * 4096);
	xdr_enc_release(&e);
}

/* REMOVE, RMDIR, RENAME, LINK and SYMLINK: the v2 status in the v3
 * result, every other field (wcc data, attributes, handle) absent; a
 * reply without a status is malformed. */
static void test_bare_status(void **state)
{
	static const uint8_t noent[] = { 0, 0, 0, NFS2ERR_NOENT };
	static const struct {
		enum nfs3_proc p;
		size_t size;
	} procs[] = {
		{ NFS3PROC_REMOVE, sizeof(struct nfs3_wccstat_res) },
		{ NFS3PROC_RMDIR, sizeof(struct nfs3_wccstat_res) },
		{ NFS3PROC_RENAME, sizeof(struct nfs3_rename_res) },
		{ NFS3PROC_LINK, sizeof(struct nfs3_link_res) },
		{ NFS3PROC_SYMLINK, sizeof(struct nfs3_diropres) },
	};
	union {
		struct nfs3_wccstat_res wcc;
		struct nfs3_rename_res rename;
		struct nfs3_link_res link;
		struct nfs3_diropres dirop;
	} r, zero;
	const uint8_t *rb = (const uint8_t *)&r, *zb = (const uint8_t *)&zero;
	struct rpc_reply reply;

	(void)state;
	for (size_t i = 0; i < sizeof(procs) / sizeof(procs[0]); i++) {
		memset(&r, 0xa5, sizeof(r));
		memset(&zero, 0, sizeof(zero));
		assert_int_equal(dec(procs[i].p, NULL, noent, sizeof(noent), &r,
				     &reply), 0);
		rpc_reply_release(&reply);
		assert_int_equal(r.wcc.status, NFS3ERR_NOENT);
		assert_memory_equal(rb + sizeof(uint32_t), zb + sizeof(uint32_t),
				    procs[i].size - sizeof(uint32_t));
		/* Nothing written past the procedure's own result. */
		if (procs[i].size < sizeof(r))
			assert_int_equal(rb[procs[i].size], 0xa5);
		assert_int_equal(dec(procs[i].p, NULL, noent, 2, &r, &reply),
				 -EBADMSG);
		rpc_reply_release(&reply);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_handles),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_mknod),
		cmocka_unit_test(test_write_read),
		cmocka_unit_test(test_readdir),
		cmocka_unit_test(test_fsinfo),
		cmocka_unit_test(test_bare_status),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
