/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NFSv4.1/4.2 file operation codecs: OPEN in each claim and create mode,
 * its delegations, I/O, READDIR, locks, stateids, SEEK and COPY.  Known
 * answers worked by hand from the RFC 8881 and RFC 7862 XDR (see
 * test_nfs4_xdr.c for the conventions).
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

#include "nfs4.h"

#define U32(v) (uint8_t)((v) >> 24), (uint8_t)((v) >> 16), \
	(uint8_t)((v) >> 8), (uint8_t)(v)
#define U64(v) U32((uint64_t)(v) >> 32), U32((uint64_t)(v) & 0xffffffffu)
/* stateid4: seqid 1, other a0..ab */
#define ST U32(1), 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, \
	0xa8, 0xa9, 0xaa, 0xab
#define VERF 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55
/* open_owner4 / lock_owner4: client id 9, owner "o1" */
#define OWNER U64(9), U32(2), 'o', '1', 0, 0
/* fattr4 with mode 0644 */
#define FATTR_MODE U32(2), U32(0), U32(2), U32(4), U32(0644)
#define FATTR_NONE U32(1), U32(0), U32(0)
#define NAME_F U32(1), 'f', 0, 0, 0

static const struct nfs4_stateid st = {
	1, { 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9,
	     0xaa, 0xab } };
static const struct nfs4_owner owner = { 9, (const uint8_t *)"o1", 2 };

static void mode_attrs(struct nfs4_fattr *f, uint32_t mode)
{
	memset(f, 0, sizeof(*f));
	nfs4_bitmap_set(&f->mask, NFS4_FATTR_MODE);
	f->mode = mode;
}

/* ---- OPEN arguments ---- */

static void test_open_args(void **state)
{
	static const uint8_t create_unchecked[] = {
		U32(0), U32(0x403), U32(0), OWNER,
		U32(1), U32(0), FATTR_MODE,
		U32(0), NAME_F };
	static const uint8_t create_excl41[] = {
		U32(0), U32(3), U32(0), OWNER,
		U32(1), U32(3), VERF, FATTR_NONE,
		U32(0), NAME_F };
	static const uint8_t claim_fh[] = {
		U32(0), U32(1), U32(0), OWNER, U32(0), U32(4) };
	static const uint8_t claim_previous[] = {
		U32(0), U32(1), U32(0), OWNER, U32(0), U32(1), U32(1) };
	static const uint8_t claim_deleg_cur[] = {
		U32(0), U32(1), U32(0), OWNER, U32(0), U32(2), ST, NAME_F };
	static const uint8_t claim_deleg_cur_fh[] = {
		U32(0), U32(1), U32(0), OWNER, U32(0), U32(5), ST };
	struct nfs4_open_args a;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.share_access = NFS4_SHARE_ACCESS_BOTH | NFS4_SHARE_WANT_NO_DELEG;
	a.owner = owner;
	a.opentype = NFS4_OPEN_CREATE;
	a.createmode = NFS4_CREATE_UNCHECKED;
	mode_attrs(&a.createattrs, 0644);
	a.claim = NFS4_CLAIM_NULL;
	a.name = nfs4_str("f");
	xdr_check_encoding(nfs4_enc_open_args, &a, create_unchecked,
			   sizeof(create_unchecked));

	a.share_access = NFS4_SHARE_ACCESS_BOTH;
	a.createmode = NFS4_CREATE_EXCLUSIVE4_1;
	memset(&a.createattrs, 0, sizeof(a.createattrs));
	memset(a.verifier, 0x55, sizeof(a.verifier));
	xdr_check_encoding(nfs4_enc_open_args, &a, create_excl41,
			   sizeof(create_excl41));

	a.share_access = NFS4_SHARE_ACCESS_READ;
	a.opentype = NFS4_OPEN_NOCREATE;
	a.claim = NFS4_CLAIM_FH;
	xdr_check_encoding(nfs4_enc_open_args, &a, claim_fh, sizeof(claim_fh));
	a.claim = NFS4_CLAIM_PREVIOUS;
	a.delegate_type = NFS4_OPEN_DELEGATE_READ;
	xdr_check_encoding(nfs4_enc_open_args, &a, claim_previous,
			   sizeof(claim_previous));
	a.claim = NFS4_CLAIM_DELEGATE_CUR;
	a.delegate_stateid = st;
	xdr_check_encoding(nfs4_enc_open_args, &a, claim_deleg_cur,
			   sizeof(claim_deleg_cur));
	a.claim = NFS4_CLAIM_DELEG_CUR_FH;
	xdr_check_encoding(nfs4_enc_open_args, &a, claim_deleg_cur_fh,
			   sizeof(claim_deleg_cur_fh));

	a.claim = 7;
	assert_int_equal(xdr_check_encode_err(nfs4_enc_open_args, &a), -EINVAL);
	a.claim = NFS4_CLAIM_NULL;
	a.name = nfs4_str("");
	assert_int_equal(xdr_check_encode_err(nfs4_enc_open_args, &a), -EINVAL);
	a.name = nfs4_str("f");
	a.opentype = NFS4_OPEN_CREATE;
	a.createmode = 4;
	assert_int_equal(xdr_check_encode_err(nfs4_enc_open_args, &a), -EINVAL);
}

/* ---- OPEN results ---- */

static void test_open_res(void **state)
{
	static const uint8_t read_deleg[] = {
		U32(0), ST, U32(1), U64(1), U64(2), U32(4),
		U32(2), U32(0), U32(2),
		U32(1), ST, U32(0),
		U32(0), U32(0), U32(1), U32(9), 'E', 'V', 'E', 'R', 'Y',
		'O', 'N', 'E', '@', 0, 0, 0 };
	static const uint8_t write_deleg[] = {
		U32(0), ST, U32(0), U64(1), U64(2), U32(0), U32(1), U32(0),
		U32(2), ST, U32(1), U32(1), U64(1u << 20),
		U32(0), U32(0), U32(6), U32(0) };
	static const uint8_t none_ftype[] = {
		U32(0), ST, U32(1), U64(1), U64(2), U32(0), U32(0),
		U32(3), U32(3) };
	static const uint8_t none_contention[] = {
		U32(0), ST, U32(1), U64(1), U64(2), U32(0), U32(0),
		U32(3), U32(1), U32(1) };
	static const uint8_t bad_deleg[] = {
		U32(0), ST, U32(1), U64(1), U64(2), U32(0), U32(0), U32(4) };
	struct nfs4_open_res r;
	struct xdr_dec d;
	uint8_t *copy;

	(void)state;
	copy = xdr_check_decode_all(nfs4_dec_open_res, read_deleg,
				    sizeof(read_deleg), &r, sizeof(r));
	assert_int_equal(r.stateid.seqid, 1);
	assert_memory_equal(r.stateid.other, st.other, NFS4_OTHER_SIZE);
	assert_true(r.cinfo.atomic);
	assert_true(r.cinfo.after == 2);
	assert_int_equal(r.rflags, NFS4_OPEN_RESULT_LOCKTYPE_POSIX);
	assert_true(nfs4_bitmap_isset(&r.attrset, NFS4_FATTR_MODE));
	assert_int_equal(r.delegation.type, NFS4_OPEN_DELEGATE_READ);
	assert_false(r.delegation.recall);
	assert_int_equal(r.delegation.permissions.access_mask, 1);
	assert_int_equal(r.delegation.permissions.who.len, 9);
	xdr_check_encoding(nfs4_enc_open_res, &r, read_deleg,
			   sizeof(read_deleg));
	free(copy);

	copy = xdr_check_decode_all(nfs4_dec_open_res, write_deleg,
				    sizeof(write_deleg), &r, sizeof(r));
	assert_int_equal(r.delegation.type, NFS4_OPEN_DELEGATE_WRITE);
	assert_true(r.delegation.recall);
	assert_int_equal(r.delegation.limitby, NFS4_LIMIT_SIZE);
	assert_true(r.delegation.filesize == 1u << 20);
	xdr_check_encoding(nfs4_enc_open_res, &r, write_deleg,
			   sizeof(write_deleg));
	free(copy);

	free(xdr_check_decode_all(nfs4_dec_open_res, none_ftype,
				  sizeof(none_ftype), &r, sizeof(r)));
	assert_int_equal(r.delegation.type, NFS4_OPEN_DELEGATE_NONE_EXT);
	assert_int_equal(r.delegation.why_none, NFS4_WND_NOT_SUPP_FTYPE);
	free(xdr_check_decode_all(nfs4_dec_open_res, none_contention,
				  sizeof(none_contention), &r, sizeof(r)));
	assert_true(r.delegation.will_push_or_signal);

	xdr_dec_init(&d, bad_deleg, sizeof(bad_deleg));
	assert_int_equal(nfs4_dec_open_res(&d, &r), -EBADMSG);
}

/* ---- I/O, directory operations ---- */

static void test_io(void **state)
{
	static const uint8_t read_args[] = { ST, U64(4096), U32(65536) };
	static const uint8_t read_res[] = { U32(0), U32(1), U32(5),
					    'a', 'b', 'c', 'd', 'e', 0, 0, 0 };
	static const uint8_t write_args[] = { ST, U64(4096), U32(0), U32(3),
					      'x', 'y', 'z', 0 };
	static const uint8_t write_res[] = { U32(0), U32(3), U32(2), VERF };
	static const uint8_t write_bad[] = { U32(0), U32(3), U32(3), VERF };
	static const uint8_t commit_args[] = { U64(0), U32(0) };
	static const uint8_t commit_res[] = { U32(0), VERF };
	static const uint8_t access_res[] = { U32(0), U32(0x3f), U32(3) };
	struct nfs4_read_args ra = { st, 4096, 65536 };
	struct nfs4_write_args wa = { st, 4096, NFS4_UNSTABLE, "xyz", 3 };
	struct nfs4_commit_args ca = { 0, 0 };
	struct nfs4_read_res rr;
	struct nfs4_write_res wr;
	struct nfs4_commit_res cr;
	struct nfs4_access_res ar;
	struct xdr_dec d;
	uint8_t *copy;

	(void)state;
	xdr_check_encoding(nfs4_enc_read_args, &ra, read_args,
			   sizeof(read_args));
	copy = xdr_check_decode_all(nfs4_dec_read_res, read_res,
				    sizeof(read_res), &rr, sizeof(rr));
	assert_true(rr.eof);
	assert_int_equal(rr.data_len, 5);
	assert_memory_equal(rr.data, "abcde", 5);
	assert_ptr_equal(rr.data, copy + 12);
	free(copy);
	xdr_check_encoding(nfs4_enc_write_args, &wa, write_args,
			   sizeof(write_args));
	free(xdr_check_decode_all(nfs4_dec_write_res, write_res,
				  sizeof(write_res), &wr, sizeof(wr)));
	assert_int_equal(wr.count, 3);
	assert_int_equal(wr.committed, NFS4_FILE_SYNC);
	xdr_dec_init(&d, write_bad, sizeof(write_bad));
	assert_int_equal(nfs4_dec_write_res(&d, &wr), -EBADMSG);
	xdr_check_encoding(nfs4_enc_commit_args, &ca, commit_args,
			   sizeof(commit_args));
	free(xdr_check_decode_all(nfs4_dec_commit_res, commit_res,
				  sizeof(commit_res), &cr, sizeof(cr)));
	assert_int_equal(cr.verifier[7], 0x55);
	free(xdr_check_decode_all(nfs4_dec_access_res, access_res,
				  sizeof(access_res), &ar, sizeof(ar)));
	assert_int_equal(ar.supported, 0x3f);
	assert_int_equal(ar.access, 3);
	wa.data_len = NFS4_MAXDATA + 1;
	assert_int_equal(xdr_check_encode_err(nfs4_enc_write_args, &wa),
			 -EINVAL);
}

static void test_dirops(void **state)
{
	static const uint8_t create_lnk[] = { U32(5), U32(3), 't', 'g', 't', 0,
					      U32(1), 'l', 0, 0, 0, FATTR_NONE };
	static const uint8_t create_chr[] = { U32(4), U32(1), U32(3),
					      U32(1), 'c', 0, 0, 0, FATTR_MODE };
	static const uint8_t create_res[] = { U32(0), U32(0), U64(1), U64(2),
					      U32(2), U32(0), U32(2) };
	static const uint8_t rename_args[] = { NAME_F, U32(2), 'g', 'h', 0, 0 };
	static const uint8_t rename_res[] = { U32(0), U32(1), U64(1), U64(2),
					      U32(1), U64(3), U64(4) };
	static const uint8_t remove_res[] = { U32(66) };
	static const uint8_t readlink_res[] = { U32(0), U32(6), 't', 'a', 'r',
						'g', 'e', 't', 0, 0 };
	static const uint8_t setattr_err[] = { U32(13), U32(0) };
	static const uint8_t setattr_ok[] = { U32(0), U32(1), U32(0x10) };
	struct nfs4_create_args ca;
	struct nfs4_rename_args rn = { nfs4_str("f"), nfs4_str("gh") };
	struct nfs4_create_res cr;
	struct nfs4_rename_res rr;
	struct nfs4_cinfo_res xr;
	struct nfs4_readlink_res lr;
	struct nfs4_setattr_res sr;

	(void)state;
	memset(&ca, 0, sizeof(ca));
	ca.type = NF4LNK;
	ca.linkdata = nfs4_str("tgt");
	ca.name = nfs4_str("l");
	xdr_check_encoding(nfs4_enc_create_args, &ca, create_lnk,
			   sizeof(create_lnk));
	ca.type = NF4CHR;
	ca.devdata.specdata1 = 1;
	ca.devdata.specdata2 = 3;
	ca.name = nfs4_str("c");
	mode_attrs(&ca.attrs, 0644);
	xdr_check_encoding(nfs4_enc_create_args, &ca, create_chr,
			   sizeof(create_chr));
	ca.type = NF4REG;
	assert_int_equal(xdr_check_encode_err(nfs4_enc_create_args, &ca),
			 -EINVAL);
	free(xdr_check_decode_all(nfs4_dec_create_res, create_res,
				  sizeof(create_res), &cr, sizeof(cr)));
	assert_true(cr.cinfo.after == 2);
	assert_true(nfs4_bitmap_isset(&cr.attrset, NFS4_FATTR_MODE));
	xdr_check_encoding(nfs4_enc_rename_args, &rn, rename_args,
			   sizeof(rename_args));
	free(xdr_check_decode_all(nfs4_dec_rename_res, rename_res,
				  sizeof(rename_res), &rr, sizeof(rr)));
	assert_true(rr.target.before == 3);
	free(xdr_check_decode_all(nfs4_dec_cinfo_res, remove_res,
				  sizeof(remove_res), &xr, sizeof(xr)));
	assert_int_equal(xr.status, NFS4ERR_NOTEMPTY);
	free(xdr_check_decode_all(nfs4_dec_readlink_res, readlink_res,
				  sizeof(readlink_res), &lr, sizeof(lr)));
	assert_int_equal(lr.link.len, 6);
	free(xdr_check_decode_all(nfs4_dec_setattr_res, setattr_err,
				  sizeof(setattr_err), &sr, sizeof(sr)));
	assert_int_equal(sr.status, NFS4ERR_ACCESS);
	free(xdr_check_decode_all(nfs4_dec_setattr_res, setattr_ok,
				  sizeof(setattr_ok), &sr, sizeof(sr)));
	assert_true(nfs4_bitmap_isset(&sr.attrsset, NFS4_FATTR_SIZE));
}

/* ---- READDIR ---- */

static const uint8_t readdir_res[] = {
	U32(0), VERF,
	U32(1), U64(3), U32(1), 'a', 0, 0, 0,
		U32(1), U32(0x00100000), U32(8), U64(77),
	U32(1), U64(4), U32(2), 'b', 'b', 0, 0, FATTR_NONE,
	U32(0), U32(1),
};
/* an entry with an empty name */
static const uint8_t readdir_empty_name[] = {
	U32(0), VERF, U32(1), U64(3), U32(0), FATTR_NONE, U32(0), U32(1),
};

static void test_readdir(void **state)
{
	static const uint8_t args[] = { U64(0), VERF, U32(4096), U32(32768),
					U32(2), U32(0x0010011a),
					U32(0x00b0a23a) };
	struct nfs4_readdir_args a = { .cookie = 0, .dircount = 4096,
				       .maxcount = 32768,
				       .request = nfs4_fattr3_request };
	struct nfs4_readdir_res r;
	struct nfs4_entry e;
	struct xdr_dec d;
	uint8_t *copy;

	(void)state;
	memset(a.cookieverf, 0x55, sizeof(a.cookieverf));
	xdr_check_encoding(nfs4_enc_readdir_args, &a, args, sizeof(args));
	copy = xdr_check_decode_all(nfs4_dec_readdir_res, readdir_res,
				    sizeof(readdir_res), &r, sizeof(r));
	assert_int_equal(r.nentries, 2);
	assert_true(r.eof);
	assert_int_equal(nfs4_readdir_next(&r.entries, &e), 1);
	assert_true(e.cookie == 3);
	assert_int_equal(e.name.len, 1);
	assert_memory_equal(e.name.s, "a", 1);
	assert_true(e.attrs.fileid == 77);
	assert_true(nfs4_bitmap_isset(&e.attrs.mask, NFS4_FATTR_FILEID));
	assert_int_equal(nfs4_readdir_next(&r.entries, &e), 1);
	assert_memory_equal(e.name.s, "bb", 2);
	assert_false(nfs4_bitmap_isset(&e.attrs.mask, NFS4_FATTR_FILEID));
	assert_int_equal(nfs4_readdir_next(&r.entries, &e), 0);
	free(copy);
	xdr_dec_init(&d, readdir_empty_name, sizeof(readdir_empty_name));
	assert_int_equal(nfs4_dec_readdir_res(&d, &r), -EBADMSG);
}

/* ---- locks ---- */

static void test_locks(void **state)
{
	static const uint8_t lock_new[] = {
		U32(2), U32(0), U64(0), U64(UINT64_MAX), U32(1),
		U32(0), ST, U32(0), OWNER };
	static const uint8_t lock_existing[] = {
		U32(1), U32(1), U64(10), U64(5), U32(0), ST, U32(0) };
	static const uint8_t lock_ok[] = { U32(0), ST };
	static const uint8_t lock_denied[] = {
		U32(10010), U64(10), U64(5), U32(2), OWNER };
	static const uint8_t lockt_args[] = { U32(4), U64(0), U64(1), OWNER };
	static const uint8_t locku_args[] = { U32(2), U32(0), ST, U64(0),
					      U64(UINT64_MAX) };
	static const uint8_t locku_res[] = { U32(0), ST };
	static const uint8_t lockt_grace[] = { U32(10013) };
	struct nfs4_lock_args la;
	struct nfs4_lockt_args ta = { NFS4_WRITEW_LT, 0, 1, owner };
	struct nfs4_locku_args ua = { NFS4_WRITE_LT, 0, st, 0, UINT64_MAX };
	struct nfs4_lock_res lr;
	struct nfs4_lockt_res tr;
	struct nfs4_stateid_res ur;
	uint8_t *copy;

	(void)state;
	memset(&la, 0, sizeof(la));
	la.locktype = NFS4_WRITE_LT;
	la.length = UINT64_MAX;
	la.new_lock_owner = true;
	la.open_stateid = st;
	la.lock_owner = owner;
	xdr_check_encoding(nfs4_enc_lock_args, &la, lock_new, sizeof(lock_new));
	la.locktype = NFS4_READ_LT;
	la.reclaim = true;
	la.offset = 10;
	la.length = 5;
	la.new_lock_owner = false;
	la.lock_stateid = st;
	xdr_check_encoding(nfs4_enc_lock_args, &la, lock_existing,
			   sizeof(lock_existing));
	la.length = 0;
	assert_int_equal(xdr_check_encode_err(nfs4_enc_lock_args, &la), -EINVAL);
	/* a range past 2^64 - 1 that is not "to the end" */
	la.offset = UINT64_MAX - 4;
	la.length = 5;
	assert_int_equal(xdr_check_encode_err(nfs4_enc_lock_args, &la), -EINVAL);
	la.length = 4;
	assert_int_equal(xdr_check_encode_err(nfs4_enc_lock_args, &la), 0);
	free(xdr_check_decode_all(nfs4_dec_lock_res, lock_ok, sizeof(lock_ok),
				  &lr, sizeof(lr)));
	assert_int_equal(lr.stateid.seqid, 1);
	copy = xdr_check_decode_all(nfs4_dec_lock_res, lock_denied,
				    sizeof(lock_denied), &lr, sizeof(lr));
	assert_int_equal(lr.status, NFS4ERR_DENIED);
	assert_true(lr.denied.offset == 10);
	assert_int_equal(lr.denied.locktype, NFS4_WRITE_LT);
	assert_int_equal(lr.denied.owner.owner_len, 2);
	assert_true(lr.denied.owner.clientid == 9);
	free(copy);
	xdr_check_encoding(nfs4_enc_lockt_args, &ta, lockt_args,
			   sizeof(lockt_args));
	free(xdr_check_decode_all(nfs4_dec_lockt_res, lock_denied,
				  sizeof(lock_denied), &tr, sizeof(tr)));
	assert_true(tr.denied.length == 5);
	free(xdr_check_decode_all(nfs4_dec_lockt_res, lockt_grace,
				  sizeof(lockt_grace), &tr, sizeof(tr)));
	assert_int_equal(tr.status, NFS4ERR_GRACE);
	xdr_check_encoding(nfs4_enc_locku_args, &ua, locku_args,
			   sizeof(locku_args));
	free(xdr_check_decode_all(nfs4_dec_stateid_res, locku_res,
				  sizeof(locku_res), &ur, sizeof(ur)));
	assert_int_equal(ur.stateid.seqid, 1);
}

/* ---- stateids and 4.2 ---- */

static void test_stateids_and_42(void **state)
{
	static const uint8_t stateid_args[] = { ST };
	static const uint8_t test_args[] = { U32(2), ST, ST };
	static const uint8_t test_res[] = { U32(0), U32(2), U32(0),
					    U32(10025) };
	static const uint8_t test_huge[] = { U32(0), U32(0x40000000) };
	static const uint8_t seek_args[] = { ST, U64(0), U32(1) };
	static const uint8_t seek_res[] = { U32(0), U32(0), U64(8192) };
	static const uint8_t alloc_args[] = { ST, U64(4096), U64(8192) };
	static const uint8_t copy_args[] = { ST, ST, U64(0), U64(10), U64(100),
					     U32(0), U32(1), U32(0) };
	static const uint8_t copy_res[] = { U32(0), U32(0), U64(100), U32(2),
					    VERF, U32(1), U32(1) };
	static const uint8_t copy_async[] = { U32(0), U32(1), ST, U64(0),
					      U32(0), VERF, U32(1), U32(0) };
	static const uint8_t copy_noreqs[] = { U32(10094), U32(0), U32(1) };
	struct nfs4_stateid two[2] = { st, st };
	struct nfs4_stateid_args sa = { st };
	struct nfs4_test_stateid_args ta = { 2, two };
	struct nfs4_seek_args ka = { st, 0, NFS4_CONTENT_HOLE };
	struct nfs4_allocate_args aa = { st, 4096, 8192 };
	struct nfs4_copy_args ca = { st, st, 0, 10, 100, false, true };
	struct nfs4_test_stateid_res tr;
	struct nfs4_seek_res kr;
	struct nfs4_copy_res cr;
	struct xdr_dec d;
	uint32_t code;
	uint8_t *copy;

	(void)state;
	xdr_check_encoding(nfs4_enc_stateid_args, &sa, stateid_args,
			   sizeof(stateid_args));
	xdr_check_encoding(nfs4_enc_test_stateid_args, &ta, test_args,
			   sizeof(test_args));
	copy = xdr_check_decode_all(nfs4_dec_test_stateid_res, test_res,
				    sizeof(test_res), &tr, sizeof(tr));
	assert_int_equal(tr.count, 2);
	assert_int_equal(xdr_dec_u32(&tr.codes, &code), 0);
	assert_int_equal(code, 0);
	assert_int_equal(xdr_dec_u32(&tr.codes, &code), 0);
	assert_int_equal(code, NFS4ERR_BAD_STATEID);
	assert_int_equal(xdr_dec_left(&tr.codes), 0);
	free(copy);
	xdr_dec_init(&d, test_huge, sizeof(test_huge));
	assert_int_equal(nfs4_dec_test_stateid_res(&d, &tr), -EBADMSG);

	xdr_check_encoding(nfs4_enc_seek_args, &ka, seek_args,
			   sizeof(seek_args));
	free(xdr_check_decode_all(nfs4_dec_seek_res, seek_res,
				  sizeof(seek_res), &kr, sizeof(kr)));
	assert_false(kr.eof);
	assert_true(kr.offset == 8192);
	xdr_check_encoding(nfs4_enc_allocate_args, &aa, alloc_args,
			   sizeof(alloc_args));
	xdr_check_encoding(nfs4_enc_copy_args, &ca, copy_args,
			   sizeof(copy_args));
	free(xdr_check_decode_all(nfs4_dec_copy_res, copy_res,
				  sizeof(copy_res), &cr, sizeof(cr)));
	assert_false(cr.has_callback_id);
	assert_true(cr.count == 100);
	assert_int_equal(cr.committed, NFS4_FILE_SYNC);
	assert_true(cr.consecutive && cr.synchronous);
	free(xdr_check_decode_all(nfs4_dec_copy_res, copy_async,
				  sizeof(copy_async), &cr, sizeof(cr)));
	assert_true(cr.has_callback_id);
	assert_false(cr.synchronous);
	free(xdr_check_decode_all(nfs4_dec_copy_res, copy_noreqs,
				  sizeof(copy_noreqs), &cr, sizeof(cr)));
	assert_int_equal(cr.status, NFS4ERR_OFFLOAD_NO_REQS);
	assert_true(cr.synchronous);
}

/* RFC 8276: GETXATTR, SETXATTR, LISTXATTRS, REMOVEXATTR. */
static void test_xattr_ops(void **state)
{
	static const uint8_t get_args[] = { U32(3), 'a', 'b', 'c', 0 };
	static const uint8_t get_res[] = { U32(0), U32(5), 'v', 'a', 'l',
					   'u', 'e', 0, 0, 0 };
	static const uint8_t get_none[] = { U32(10095) };
	static const uint8_t get_huge[] = { U32(0), U32(65537) };
	static const uint8_t set_args[] = { U32(1), U32(3), 'a', 'b', 'c', 0,
					    U32(2), 'h', 'i', 0, 0 };
	static const uint8_t set_res[] = { U32(0), U32(0), U64(1), U64(2) };
	static const uint8_t list_args[] = { U64(7), U32(4096) };
	static const uint8_t list_res[] = { U32(0), U64(9), U32(2),
					    U32(1), 'x', 0, 0, 0,
					    U32(4), 'l', 'o', 'n', 'g',
					    U32(1) };
	/* A count of names the rest of the reply cannot hold, an empty
	 * name: malformed. */
	static const uint8_t list_count[] = { U32(0), U64(9),
					      U32(0x20000000), U32(1) };
	static const uint8_t list_empty[] = { U32(0), U64(9), U32(1),
					      U32(0), U32(1) };
	struct nfs4_getxattr_args ga = { nfs4_str("abc") };
	struct nfs4_setxattr_args sa = { NFS4_SETXATTR_CREATE,
					 nfs4_str("abc"), "hi", 2 };
	struct nfs4_listxattrs_args la = { 7, 4096 };
	struct nfs4_removexattr_args ra = { nfs4_str("abc") };
	struct nfs4_getxattr_res gr;
	struct nfs4_listxattrs_res lr;
	struct nfs4_cinfo_res cr;
	struct nfs4_str name;
	struct xdr_dec d;
	uint8_t *copy;

	(void)state;
	xdr_check_encoding(nfs4_enc_getxattr_args, &ga, get_args,
			   sizeof(get_args));
	xdr_check_encoding(nfs4_enc_removexattr_args, &ra, get_args,
			   sizeof(get_args));
	xdr_check_encoding(nfs4_enc_setxattr_args, &sa, set_args,
			   sizeof(set_args));
	xdr_check_encoding(nfs4_enc_listxattrs_args, &la, list_args,
			   sizeof(list_args));
	/* Not on the wire: an option RFC 8276 lacks, a value too long, no
	 * name, no room for names. */
	sa.option = 3;
	assert_int_equal(xdr_check_encode_err(nfs4_enc_setxattr_args, &sa),
			 -EINVAL);
	sa.option = NFS4_SETXATTR_EITHER;
	sa.len = NFS4_XATTR_VALUE_MAX + 1;
	assert_int_equal(xdr_check_encode_err(nfs4_enc_setxattr_args, &sa),
			 -EINVAL);
	ga.name.len = 0;
	assert_int_equal(xdr_check_encode_err(nfs4_enc_getxattr_args, &ga),
			 -EINVAL);
	la.maxcount = 0;
	assert_int_equal(xdr_check_encode_err(nfs4_enc_listxattrs_args, &la),
			 -EINVAL);

	copy = xdr_check_decode_all(nfs4_dec_getxattr_res, get_res,
				    sizeof(get_res), &gr, sizeof(gr));
	assert_int_equal(gr.len, 5);
	assert_memory_equal(gr.value, "value", 5);
	free(copy);
	free(xdr_check_decode_all(nfs4_dec_getxattr_res, get_none,
				  sizeof(get_none), &gr, sizeof(gr)));
	assert_int_equal(gr.status, NFS4ERR_NOXATTR);
	xdr_dec_init(&d, get_huge, sizeof(get_huge));
	assert_int_equal(nfs4_dec_getxattr_res(&d, &gr), -EBADMSG);
	free(xdr_check_decode_all(nfs4_dec_cinfo_res, set_res,
				  sizeof(set_res), &cr, sizeof(cr)));
	assert_true(cr.cinfo.after == 2);

	copy = xdr_check_decode_all(nfs4_dec_listxattrs_res, list_res,
				    sizeof(list_res), &lr, sizeof(lr));
	assert_true(lr.cookie == 9);
	assert_int_equal(lr.count, 2);
	assert_true(lr.eof);
	assert_int_equal(nfs4_listxattrs_next(&lr, &name), 0);
	assert_int_equal(name.len, 1);
	assert_memory_equal(name.s, "x", 1);
	assert_int_equal(nfs4_listxattrs_next(&lr, &name), 0);
	assert_int_equal(name.len, 4);
	assert_memory_equal(name.s, "long", 4);
	assert_int_equal(nfs4_listxattrs_next(&lr, &name), -ENODATA);
	free(copy);
	xdr_dec_init(&d, list_count, sizeof(list_count));
	assert_int_equal(nfs4_dec_listxattrs_res(&d, &lr), -EBADMSG);
	xdr_dec_init(&d, list_empty, sizeof(list_empty));
	assert_int_equal(nfs4_dec_listxattrs_res(&d, &lr), -EBADMSG);
}

/* A 4.2 operation that a 4.1 server does not know comes back ILLEGAL. */
static void test_seek_illegal(void **state)
{
	static const uint8_t reply[] = {
		U32(10044), U32(0), U32(2),
		U32(22), U32(0),
		U32(10044), U32(10044) };
	struct nfs4_compound_res r;
	struct nfs4_status_res pr;
	struct nfs4_seek_res kr;
	struct xdr_dec d;

	(void)state;
	xdr_dec_init(&d, reply, sizeof(reply));
	assert_int_equal(nfs4_dec_compound_res(&d, &r), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_PUTFH, &pr), 0);
	assert_int_equal(nfs4_compound_next(&r, NFS4OP_SEEK, &kr), 0);
	assert_int_equal(kr.status, NFS4ERR_OP_ILLEGAL);
	assert_true(r.stopped);
}

/* The remaining argument encoders, each against its bytes. */
static void test_small_args(void **state)
{
	static const uint8_t access[] = { U32(0x1f) };
	static const uint8_t downgrade[] = { ST, U32(0), U32(1), U32(0) };
	static const uint8_t close_args[] = { U32(0), ST };
	static const uint8_t remove[] = { U32(3), 'o', 'l', 'd', 0 };
	static const uint8_t link[] = { U32(4), 'h', 'a', 'r', 'd' };
	static const uint8_t verify[] = { U32(1), U32(0x8), U32(8), U64(0x1234) };
	/* size 0 with the open's stateid, then mode, owner_group, atime set
	 * by the server */
	static const uint8_t setattr[] = {
		ST, U32(2), U32(0x10), U32(0x00010022), U32(24),
		U64(0), U32(0600), U32(4), '1', '0', '0', '0', U32(0) };
	struct nfs4_access_args ac = { 0x1f };
	struct nfs4_open_downgrade_args od = { st, 0, NFS4_SHARE_ACCESS_READ,
					       NFS4_SHARE_DENY_NONE };
	struct nfs4_close_args cl = { 0, st };
	struct nfs4_remove_args rm = { { "old", 3 } };
	struct nfs4_link_args ln = { { "hard", 4 } };
	struct nfs4_verify_args vf;
	struct nfs4_setattr_args sa;
	struct sattr3 s3 = { .set_mode = true, .mode = 0600, .set_size = true,
			     .size = 0, .set_atime = SET_TO_SERVER_TIME };

	(void)state;
	xdr_check_encoding(nfs4_enc_access_args, &ac, access, sizeof(access));
	xdr_check_encoding(nfs4_enc_open_downgrade_args, &od, downgrade,
			   sizeof(downgrade));
	xdr_check_encoding(nfs4_enc_close_args, &cl, close_args,
			   sizeof(close_args));
	xdr_check_encoding(nfs4_enc_remove_args, &rm, remove, sizeof(remove));
	xdr_check_encoding(nfs4_enc_link_args, &ln, link, sizeof(link));
	memset(&vf, 0, sizeof(vf));
	nfs4_bitmap_set(&vf.attrs.mask, NFS4_FATTR_CHANGE);
	vf.attrs.change = 0x1234;
	xdr_check_encoding(nfs4_enc_verify_args, &vf, verify, sizeof(verify));
	memset(&sa, 0, sizeof(sa));
	sa.stateid = st;
	assert_int_equal(nfs4_fattr_from_sattr3(&s3, NULL, "1000", &sa.attrs),
			 0);
	xdr_check_encoding(nfs4_enc_setattr_args, &sa, setattr,
			   sizeof(setattr));
	/* A name too long for a component is refused before it is sent. */
	char longname[NFS4_MAXNAMLEN + 2];

	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	rm.name = nfs4_str(longname);
	assert_int_equal(xdr_check_encode_err(nfs4_enc_remove_args, &rm),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_args),
		cmocka_unit_test(test_open_res),
		cmocka_unit_test(test_io),
		cmocka_unit_test(test_dirops),
		cmocka_unit_test(test_readdir),
		cmocka_unit_test(test_locks),
		cmocka_unit_test(test_stateids_and_42),
		cmocka_unit_test(test_seek_illegal),
		cmocka_unit_test(test_xattr_ops),
		cmocka_unit_test(test_small_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
