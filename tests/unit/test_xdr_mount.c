/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MOUNT v3 and v1 codecs.  Known answers are worked by hand from RFC 1813
 * Appendix I and RFC 1094 Appendix A, or are reply bodies captured from
 * nfs-ganesha on 127.0.0.1 (record mark and the 24-byte accepted reply
 * header removed).
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

#include "mount.h"

static int dec_dirpath(struct xdr_dec *d, void *res)
{
	const char **s = res;
	uint32_t len;

	return mnt_dec_dirpath_args(d, s, &len);
}

/* ---- known answers, by hand from the RFCs ---- */

/* MNT("/export") */
static const uint8_t dirpath_export[] = {
	0x00, 0x00, 0x00, 0x07, '/', 'e', 'x', 'p', 'o', 'r', 't', 0x00,
};

/* mountres3: MNT3_OK, fhandle3<8> 01..08, auth_flavors<2> {AUTH_SYS,
 * RPCSEC_GSS krb5 pseudo-flavor 390003} */
static const uint8_t mnt3_ok[] = {
	0x00, 0x00, 0x00, 0x00, /* MNT3_OK */
	0x00, 0x00, 0x00, 0x08, /* fhandle3 length */
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
	0x00, 0x00, 0x00, 0x02, /* auth_flavors count */
	0x00, 0x00, 0x00, 0x01, /* AUTH_UNIX */
	0x00, 0x05, 0xf3, 0x73, /* 390003 */
};

/* mountres3: MNT3ERR_ACCES, no more */
static const uint8_t mnt3_acces[] = { 0x00, 0x00, 0x00, 0x0d };

/* fhstatus (v1): 13 (EACCES), nothing more */
static const uint8_t mnt1_acces[] = { 0x00, 0x00, 0x00, 0x0d };

/* fhstatus (v1): 0, fhandle[32] a0..bf */
static const uint8_t mnt1_ok[] = {
	0x00, 0x00, 0x00, 0x00,
	0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
	0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,
	0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7,
	0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf,
};

/* exports: "/a" for {host1, *.lan}, "/b" for everyone */
static const uint8_t export_two[] = {
	0x00, 0x00, 0x00, 0x01,                         /* export follows */
	0x00, 0x00, 0x00, 0x02, '/', 'a', 0x00, 0x00,   /* ex_dir */
	0x00, 0x00, 0x00, 0x01,                         /* group follows */
	0x00, 0x00, 0x00, 0x05, 'h', 'o', 's', 't', '1', 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x01,                         /* group follows */
	0x00, 0x00, 0x00, 0x05, '*', '.', 'l', 'a', 'n', 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00,                         /* end of groups */
	0x00, 0x00, 0x00, 0x01,                         /* export follows */
	0x00, 0x00, 0x00, 0x02, '/', 'b', 0x00, 0x00,   /* ex_dir */
	0x00, 0x00, 0x00, 0x00,                         /* no groups */
	0x00, 0x00, 0x00, 0x00,                         /* end of exports */
};

/* mountlist: client1 has /export */
static const uint8_t dump_one[] = {
	0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x07, 'c', 'l', 'i', 'e', 'n', 't', '1', 0x00,
	0x00, 0x00, 0x00, 0x07, '/', 'e', 'x', 'p', 'o', 'r', 't', 0x00,
	0x00, 0x00, 0x00, 0x00,
};

/* ---- captured from nfs-ganesha 4.3 on 127.0.0.1 ---- */

/* MNT v3 "/tmp/nfsfuse-test-server/export": a 24-byte handle, AUTH_UNIX */
static const uint8_t cap_mnt3_ok[] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x18, 0x43, 0x00, 0x00, 0x01,
	0x12, 0x44, 0xcd, 0x6e, 0xd1, 0xca, 0xef, 0x8b, 0x61, 0x4c, 0x01, 0x44,
	0x20, 0xa7, 0x00, 0x4d, 0x90, 0xad, 0x05, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x01,
};
/* MNT v3 "/nope": ganesha answers MNT3ERR_ACCES for an unknown path */
static const uint8_t cap_mnt3_nope[] = { 0x00, 0x00, 0x00, 0x0d };
/* EXPORT (showmount -e): "/tmp/gtest/export" for everyone */
static const uint8_t cap_export_gtest[] = {
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x11, 0x2f, 0x74, 0x6d, 0x70,
	0x2f, 0x67, 0x74, 0x65, 0x73, 0x74, 0x2f, 0x65, 0x78, 0x70, 0x6f, 0x72,
	0x74, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};
/* EXPORT: "/tmp/nfsfuse-test-server/export" for everyone */
static const uint8_t cap_export_test[] = {
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x1f, 0x2f, 0x74, 0x6d, 0x70,
	0x2f, 0x6e, 0x66, 0x73, 0x66, 0x75, 0x73, 0x65, 0x2d, 0x74, 0x65, 0x73,
	0x74, 0x2d, 0x73, 0x65, 0x72, 0x76, 0x65, 0x72, 0x2f, 0x65, 0x78, 0x70,
	0x6f, 0x72, 0x74, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};
/* DUMP (showmount -a): nobody */
static const uint8_t cap_dump_empty[] = { 0x00, 0x00, 0x00, 0x00 };

static void test_proc_names(void **state)
{
	(void)state;
	assert_string_equal(mnt_proc_names[MNTPROC_NULL], "NULL");
	assert_string_equal(mnt_proc_names[MNTPROC_MNT], "MNT");
	assert_string_equal(mnt_proc_names[MNTPROC_DUMP], "DUMP");
	assert_string_equal(mnt_proc_names[MNTPROC_UMNT], "UMNT");
	assert_string_equal(mnt_proc_names[MNTPROC_UMNTALL], "UMNTALL");
	assert_string_equal(mnt_proc_names[MNTPROC_EXPORT], "EXPORT");
}

static void test_stat_table(void **state)
{
	static const struct {
		uint32_t st;
		int err;
		const char *name, *str;
	} cases[] = {
		{ 0, 0, "MNT3_OK", "success" },
		{ 1, -EPERM, "MNT3ERR_PERM", "operation not permitted" },
		{ 2, -ENOENT, "MNT3ERR_NOENT", "no such file or directory" },
		{ 5, -EIO, "MNT3ERR_IO", "input/output error" },
		{ 13, -EACCES, "MNT3ERR_ACCES", "permission denied" },
		{ 20, -ENOTDIR, "MNT3ERR_NOTDIR", "not a directory" },
		{ 22, -EINVAL, "MNT3ERR_INVAL", "invalid argument" },
		{ 63, -ENAMETOOLONG, "MNT3ERR_NAMETOOLONG",
		  "file name too long" },
		{ 10004, -EOPNOTSUPP, "MNT3ERR_NOTSUPP",
		  "operation not supported" },
		{ 10006, -EIO, "MNT3ERR_SERVERFAULT", "server fault" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(mnt_stat_errno(cases[i].st), cases[i].err);
		assert_string_equal(mnt_stat_name(cases[i].st), cases[i].name);
		assert_string_equal(mnt_stat_str(cases[i].st), cases[i].str);
	}
	assert_int_equal(mnt_stat_errno(3), -EIO);
	assert_int_equal(mnt_stat_errno(0xffffffff), -EIO);
	assert_null(mnt_stat_name(10005));
	assert_string_equal(mnt_stat_str(10005), "unknown mount status");
}

static void test_dirpath_known(void **state)
{
	struct mnt_dirpath_args a = { "/export" };
	const char *s;
	uint32_t len;
	struct xdr_enc e;
	struct xdr_dec d;

	(void)state;
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(mnt_enc_dirpath_args(&e, &a), 0);
	assert_int_equal(e.len, sizeof(dirpath_export));
	assert_memory_equal(e.buf, dirpath_export, sizeof(dirpath_export));
	xdr_enc_release(&e);

	xdr_dec_init(&d, dirpath_export, sizeof(dirpath_export));
	assert_int_equal(mnt_dec_dirpath_args(&d, &s, &len), 0);
	assert_int_equal(len, 7);
	assert_memory_equal(s, "/export", 7);
	xdr_check_truncations(dec_dirpath, dirpath_export, sizeof(dirpath_export),
			  sizeof(const char *));
}

static void test_dirpath_limits(void **state)
{
	char *path = malloc(MNT_PATHLEN + 2);
	struct mnt_dirpath_args a = { path };
	const char *s;
	uint32_t len;
	struct xdr_enc e;
	struct xdr_dec d;
	uint8_t *buf;

	(void)state;
	assert_non_null(path);
	memset(path, 'p', MNT_PATHLEN);
	path[0] = '/';
	path[MNT_PATHLEN] = '\0';
	/* 1024 bytes: fine, and decodes back. */
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(mnt_enc_dirpath_args(&e, &a), 0);
	xdr_dec_init(&d, e.buf, e.len);
	assert_int_equal(mnt_dec_dirpath_args(&d, &s, &len), 0);
	assert_int_equal(len, MNT_PATHLEN);
	assert_memory_equal(s, path, MNT_PATHLEN);

	/* Make the wire copy claim 1025 bytes, with 1028 present. */
	buf = malloc(4 + MNT_PATHLEN + 4);
	assert_non_null(buf);
	memset(buf, 'p', 4 + MNT_PATHLEN + 4);
	xdr_put_u32(buf, MNT_PATHLEN + 1);
	assert_int_equal(xdr_check_decode(dec_dirpath, buf, 4 + MNT_PATHLEN + 4,
				     &s, NULL), -EBADMSG);
	/* 0xFFFFFFFF */
	xdr_put_u32(buf, 0xffffffff);
	assert_int_equal(xdr_check_decode(dec_dirpath, buf, 4 + MNT_PATHLEN + 4,
				     &s, NULL), -EBADMSG);
	free(buf);
	xdr_enc_release(&e);

	/* 1025 bytes: the encoder refuses, and the error is sticky. */
	path[MNT_PATHLEN] = 'p';
	path[MNT_PATHLEN + 1] = '\0';
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(mnt_enc_dirpath_args(&e, &a), -EINVAL);
	assert_int_equal(xdr_enc_error(&e), -EINVAL);
	xdr_enc_release(&e);
	free(path);
}

static void test_dirpath_nul_inside(void **state)
{
	static const uint8_t bad[] = { 0, 0, 0, 3, '/', 0, 'x', 0 };
	const char *s;

	(void)state;
	assert_int_equal(xdr_check_decode(dec_dirpath, bad, sizeof(bad), &s, NULL),
			 -EBADMSG);
}

static void test_mnt3_known(void **state)
{
	struct mnt_mnt_res r;

	(void)state;
	xdr_check_truncations(mnt_dec_mnt3_res, mnt3_ok, sizeof(mnt3_ok),
			  sizeof(r));
	memset(&r, 0x55, sizeof(r));
	assert_int_equal(xdr_check_decode(mnt_dec_mnt3_res, mnt3_ok, sizeof(mnt3_ok),
				     &r, NULL), 0);
	assert_int_equal(r.status, MNT3_OK);
	assert_int_equal(r.fh.len, 8);
	assert_memory_equal(r.fh.data, "\1\2\3\4\5\6\7\10", 8);
	assert_int_equal(r.nflavors, 2);
	assert_int_equal(r.nflavors_sent, 2);
	assert_int_equal(r.flavors[0], 1);
	assert_int_equal(r.flavors[1], 390003);

	xdr_check_truncations(mnt_dec_mnt3_res, mnt3_acces, sizeof(mnt3_acces),
			  sizeof(r));
	memset(&r, 0x55, sizeof(r));
	assert_int_equal(xdr_check_decode(mnt_dec_mnt3_res, mnt3_acces,
				     sizeof(mnt3_acces), &r, NULL), 0);
	assert_int_equal(r.status, MNT3ERR_ACCES);
	assert_int_equal(r.fh.len, 0);
	assert_int_equal(r.nflavors, 0);
	assert_int_equal(mnt_stat_errno(r.status), -EACCES);
}

static void test_mnt3_captured(void **state)
{
	static const uint8_t fh[24] = {
		0x43, 0x00, 0x00, 0x01, 0x12, 0x44, 0xcd, 0x6e,
		0xd1, 0xca, 0xef, 0x8b, 0x61, 0x4c, 0x01, 0x44,
		0x20, 0xa7, 0x00, 0x4d, 0x90, 0xad, 0x05, 0x00,
	};
	struct mnt_mnt_res r;

	(void)state;
	xdr_check_truncations(mnt_dec_mnt3_res, cap_mnt3_ok, sizeof(cap_mnt3_ok),
			  sizeof(r));
	assert_int_equal(xdr_check_decode(mnt_dec_mnt3_res, cap_mnt3_ok,
				     sizeof(cap_mnt3_ok), &r, NULL), 0);
	assert_int_equal(r.status, MNT3_OK);
	assert_int_equal(r.fh.len, 24);
	assert_memory_equal(r.fh.data, fh, 24);
	assert_int_equal(r.nflavors, 1);
	assert_int_equal(r.flavors[0], 1);

	assert_int_equal(xdr_check_decode(mnt_dec_mnt3_res, cap_mnt3_nope,
				     sizeof(cap_mnt3_nope), &r, NULL), 0);
	assert_int_equal(r.status, MNT3ERR_ACCES);
	assert_string_equal(mnt_stat_str(r.status), "permission denied");
}

static void test_mnt3_absurd(void **state)
{
	uint8_t buf[4 + 4 + 68 + 4 + 4];
	struct mnt_mnt_res r;

	(void)state;
	memset(buf, 0, sizeof(buf));
	/* fhandle3 length 64: accepted, no flavors. */
	xdr_put_u32(buf + 4, 64);
	assert_int_equal(xdr_check_decode(mnt_dec_mnt3_res, buf, 4 + 4 + 64 + 4, &r,
				     NULL), 0);
	assert_int_equal(r.fh.len, 64);
	/* 65: malformed, even with the bytes present. */
	xdr_put_u32(buf + 4, 65);
	assert_int_equal(xdr_check_decode(mnt_dec_mnt3_res, buf, sizeof(buf), &r,
				     NULL), -EBADMSG);
	xdr_put_u32(buf + 4, 0xffffffff);
	assert_int_equal(xdr_check_decode(mnt_dec_mnt3_res, buf, sizeof(buf), &r,
				     NULL), -EBADMSG);
	/* Flavor count 0xFFFFFFFF and 0x40000001 (wraps to 4 bytes). */
	xdr_put_u32(buf + 4, 0);
	xdr_put_u32(buf + 8, 0xffffffff);
	assert_int_equal(xdr_check_decode(mnt_dec_mnt3_res, buf, 16, &r, NULL),
			 -EBADMSG);
	xdr_put_u32(buf + 8, 0x40000001);
	assert_int_equal(xdr_check_decode(mnt_dec_mnt3_res, buf, 16, &r, NULL),
			 -EBADMSG);
}

static void test_mnt3_many_flavors(void **state)
{
	enum { N = MNT_MAXFLAVORS + 4 };
	uint8_t buf[4 + 4 + 4 + 4 * N];
	struct mnt_mnt_res r;

	(void)state;
	memset(buf, 0, sizeof(buf));
	xdr_put_u32(buf + 8, N);
	for (uint32_t i = 0; i < N; i++)
		xdr_put_u32(buf + 12 + 4 * i, 100 + i);
	xdr_check_truncations(mnt_dec_mnt3_res, buf, sizeof(buf), sizeof(r));
	assert_int_equal(xdr_check_decode(mnt_dec_mnt3_res, buf, sizeof(buf), &r,
				     NULL), 0);
	assert_int_equal(r.fh.len, 0);
	assert_int_equal(r.nflavors, MNT_MAXFLAVORS);
	assert_int_equal(r.nflavors_sent, N);
	for (uint32_t i = 0; i < MNT_MAXFLAVORS; i++)
		assert_int_equal(r.flavors[i], 100 + i);
}

static void test_mnt3_round_trip(void **state)
{
	struct mnt_mnt_res r = { 0 }, back;
	struct xdr_enc e;

	(void)state;
	for (uint32_t fhlen = 0; fhlen <= MNT_FHSIZE3; fhlen += 7) {
		for (uint32_t nf = 0; nf <= MNT_MAXFLAVORS; nf += 5) {
			r.status = MNT3_OK;
			r.fh.len = fhlen;
			for (uint32_t i = 0; i < fhlen; i++)
				r.fh.data[i] = (uint8_t)(i * 37 + fhlen);
			r.nflavors = r.nflavors_sent = nf;
			for (uint32_t i = 0; i < nf; i++)
				r.flavors[i] = 390000 + i;
			assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
			assert_int_equal(mnt_enc_mnt3_res(&e, &r), 0);
			assert_int_equal(e.len, 4 + 4 + fhlen + xdr_pad(fhlen) +
						4 + 4 * nf);
			xdr_check_truncations(mnt_dec_mnt3_res, e.buf, e.len,
					  sizeof(back));
			assert_int_equal(xdr_check_decode(mnt_dec_mnt3_res, e.buf,
						     e.len, &back, NULL), 0);
			assert_int_equal(back.fh.len, fhlen);
			assert_memory_equal(back.fh.data, r.fh.data, fhlen);
			assert_int_equal(back.nflavors, nf);
			if (nf)
				assert_memory_equal(back.flavors, r.flavors,
						    4 * nf);
			xdr_enc_release(&e);
		}
	}
	/* Every error status encodes as the status alone. */
	r.status = MNT3ERR_SERVERFAULT;
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(mnt_enc_mnt3_res(&e, &r), 0);
	assert_int_equal(e.len, 4);
	assert_int_equal(xdr_check_decode(mnt_dec_mnt3_res, e.buf, e.len, &back,
				     NULL), 0);
	assert_int_equal(back.status, MNT3ERR_SERVERFAULT);
	xdr_enc_release(&e);
}

static void test_mnt1_known(void **state)
{
	struct mnt_mnt_res r;

	(void)state;
	xdr_check_truncations(mnt_dec_mnt1_res, mnt1_ok, sizeof(mnt1_ok),
			  sizeof(r));
	assert_int_equal(xdr_check_decode(mnt_dec_mnt1_res, mnt1_ok, sizeof(mnt1_ok),
				     &r, NULL), 0);
	assert_int_equal(r.status, 0);
	assert_int_equal(r.fh.len, MNT_FHSIZE1);
	for (int i = 0; i < 32; i++)
		assert_int_equal(r.fh.data[i], 0xa0 + i);
	assert_int_equal(r.nflavors, 0);

	xdr_check_truncations(mnt_dec_mnt1_res, mnt1_acces, sizeof(mnt1_acces),
			  sizeof(r));
	memset(&r, 0x55, sizeof(r));
	assert_int_equal(xdr_check_decode(mnt_dec_mnt1_res, mnt1_acces,
				     sizeof(mnt1_acces), &r, NULL), 0);
	assert_int_equal(r.status, 13);
	assert_int_equal(r.fh.len, 0);
	assert_int_equal(r.nflavors, 0);
	assert_int_equal(mnt_stat_errno(r.status), -EACCES);

	/* A v1 handle is fixed: 32 bytes and no length word. */
	assert_int_equal(xdr_check_decode(mnt_dec_mnt1_res, mnt1_ok,
				     sizeof(mnt1_ok) - 4, &r, NULL), -EBADMSG);
}

static void test_mnt1_round_trip(void **state)
{
	struct mnt_mnt_res r = { 0 }, back;
	struct xdr_enc e;

	(void)state;
	r.fh.len = MNT_FHSIZE1;
	for (int i = 0; i < 32; i++)
		r.fh.data[i] = (uint8_t)(255 - i);
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(mnt_enc_mnt1_res(&e, &r), 0);
	assert_int_equal(e.len, 36);
	assert_int_equal(xdr_check_decode(mnt_dec_mnt1_res, e.buf, e.len, &back,
				     NULL), 0);
	assert_int_equal(back.fh.len, 32);
	assert_memory_equal(back.fh.data, r.fh.data, 32);
	xdr_enc_release(&e);

	/* A v1 handle is exactly 32 bytes. */
	r.fh.len = 24;
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(mnt_enc_mnt1_res(&e, &r), -EINVAL);
	xdr_enc_release(&e);
}

static void test_export_known(void **state)
{
	struct mnt_export_res r;
	struct mnt_exportnode ex;
	struct xdr_dec d;
	const char *name;
	uint32_t len;

	(void)state;
	xdr_check_truncations(mnt_dec_export_res, export_two, sizeof(export_two),
			  sizeof(r));
	xdr_dec_init(&d, export_two, sizeof(export_two));
	assert_int_equal(mnt_dec_export_res(&d, &r), 0);
	assert_int_equal(r.nexports, 2);

	assert_int_equal(mnt_export_next(&r.entries, &ex), 1);
	assert_int_equal(ex.dirlen, 2);
	assert_memory_equal(ex.dir, "/a", 2);
	assert_int_equal(ex.ngroups, 2);
	assert_int_equal(mnt_group_next(&ex.groups, &name, &len), 1);
	assert_int_equal(len, 5);
	assert_memory_equal(name, "host1", 5);
	assert_int_equal(mnt_group_next(&ex.groups, &name, &len), 1);
	assert_int_equal(len, 5);
	assert_memory_equal(name, "*.lan", 5);
	assert_int_equal(mnt_group_next(&ex.groups, &name, &len), 0);
	assert_int_equal(mnt_group_next(&ex.groups, &name, &len), 0);

	assert_int_equal(mnt_export_next(&r.entries, &ex), 1);
	assert_int_equal(ex.dirlen, 2);
	assert_memory_equal(ex.dir, "/b", 2);
	assert_int_equal(ex.ngroups, 0);
	assert_int_equal(mnt_group_next(&ex.groups, &name, &len), 0);

	assert_int_equal(mnt_export_next(&r.entries, &ex), 0);
	assert_int_equal(mnt_export_next(&r.entries, &ex), 0);
}

static void check_one_export(const uint8_t *buf, size_t len,
			     const char *want)
{
	struct mnt_export_res r;
	struct mnt_exportnode ex;
	struct xdr_dec d;

	xdr_check_truncations(mnt_dec_export_res, buf, len, sizeof(r));
	xdr_dec_init(&d, buf, len);
	assert_int_equal(mnt_dec_export_res(&d, &r), 0);
	assert_int_equal(r.nexports, 1);
	assert_int_equal(mnt_export_next(&r.entries, &ex), 1);
	assert_int_equal(ex.dirlen, strlen(want));
	assert_memory_equal(ex.dir, want, ex.dirlen);
	assert_int_equal(ex.ngroups, 0);
	assert_int_equal(mnt_export_next(&r.entries, &ex), 0);
}

static void test_export_captured(void **state)
{
	(void)state;
	check_one_export(cap_export_gtest, sizeof(cap_export_gtest),
			 "/tmp/gtest/export");
	check_one_export(cap_export_test, sizeof(cap_export_test),
			 "/tmp/nfsfuse-test-server/export");
}

static void test_export_empty(void **state)
{
	static const uint8_t empty[] = { 0, 0, 0, 0 };
	struct mnt_export_res r;
	struct mnt_exportnode ex;
	struct xdr_dec d;

	(void)state;
	xdr_check_truncations(mnt_dec_export_res, empty, 4, sizeof(r));
	xdr_dec_init(&d, empty, 4);
	assert_int_equal(mnt_dec_export_res(&d, &r), 0);
	assert_int_equal(r.nexports, 0);
	assert_int_equal(mnt_export_next(&r.entries, &ex), 0);
}

static void test_export_bad_bools(void **state)
{
	/* Offsets of each value_follows in export_two. */
	static const size_t bools[] = { 0, 12, 28, 44, 48, 60, 64 };
	uint8_t buf[sizeof(export_two)];
	struct mnt_export_res r;

	(void)state;
	for (size_t i = 0; i < sizeof(bools) / sizeof(bools[0]); i++) {
		uint32_t v = xdr_get_u32(export_two + bools[i]);

		assert_true(v <= 1); /* the table matches the vector */
		memcpy(buf, export_two, sizeof(buf));
		xdr_put_u32(buf + bools[i], 2);
		if (xdr_check_decode(mnt_dec_export_res, buf, sizeof(buf), &r,
				NULL) != -EBADMSG)
			fail_msg("value_follows 2 at %zu accepted", bools[i]);
	}
}

/* "/x" for {g}, over and over, never a FALSE for the exports. */
static void test_export_never_ends(void **state)
{
	enum { N = 2000, REC = 4 + 8 + 4 + 8 + 4 };
	uint8_t *buf = calloc(N, REC);
	struct mnt_export_res r;

	(void)state;
	assert_non_null(buf);
	for (size_t i = 0; i < N; i++) {
		uint8_t *p = buf + i * REC;

		xdr_put_u32(p, 1);
		xdr_put_u32(p + 4, 2);
		memcpy(p + 8, "/x", 2);
		xdr_put_u32(p + 12, 1);
		xdr_put_u32(p + 16, 1);
		p[20] = 'g';
		xdr_put_u32(p + 24, 0);
	}
	assert_int_equal(xdr_check_decode(mnt_dec_export_res, buf, N * REC, &r,
				     NULL), -EBADMSG);
	free(buf);
}

/* One export whose groups list never ends. */
static void test_export_groups_never_end(void **state)
{
	enum { N = 2000 };
	size_t len = 4 + 8 + N * 12;
	uint8_t *buf = calloc(1, len);
	struct mnt_export_res r;

	(void)state;
	assert_non_null(buf);
	xdr_put_u32(buf, 1);
	xdr_put_u32(buf + 4, 2);
	memcpy(buf + 8, "/x", 2);
	for (size_t i = 0; i < N; i++) {
		uint8_t *p = buf + 12 + i * 12;

		xdr_put_u32(p, 1);
		xdr_put_u32(p + 4, 3);
		memcpy(p + 8, "grp", 3);
	}
	assert_int_equal(xdr_check_decode(mnt_dec_export_res, buf, len, &r, NULL),
			 -EBADMSG);
	free(buf);
}

static void test_export_long_names(void **state)
{
	uint8_t buf[4 + 8 + 4 + 4 + 256 + 4 + 4];
	struct mnt_export_res r;

	(void)state;
	memset(buf, 'n', sizeof(buf));
	xdr_put_u32(buf, 1);
	xdr_put_u32(buf + 4, 2);
	memcpy(buf + 8, "/x", 2);
	xdr_put_u32(buf + 12, 1);
	xdr_put_u32(buf + 16, 256); /* name<255> */
	xdr_put_u32(buf + 20 + 256, 0);
	xdr_put_u32(buf + 24 + 256, 0);
	assert_int_equal(xdr_check_decode(mnt_dec_export_res, buf, sizeof(buf), &r,
				     NULL), -EBADMSG);
	xdr_put_u32(buf + 16, 255); /* fits, but then 1 byte of pad is 'n' */
	xdr_put_u32(buf + 20 + 256, 0);
	assert_int_equal(xdr_check_decode(mnt_dec_export_res, buf, sizeof(buf), &r,
				     NULL), 0);
	/* dirpath 0xFFFFFFFF */
	xdr_put_u32(buf + 4, 0xffffffff);
	assert_int_equal(xdr_check_decode(mnt_dec_export_res, buf, sizeof(buf), &r,
				     NULL), -EBADMSG);
}

static void test_export_round_trip(void **state)
{
	char *g1[] = { "client-a", "10.0.0.0/8", "*.example.org" };
	char *g3[] = { "@netgroup" };
	struct mnt_export list[] = {
		{ "/srv/one", g1, 3 },
		{ "/", NULL, 0 },
		{ "/srv/three/with a space", g3, 1 },
	};
	struct mnt_export_res r;
	struct mnt_exportnode ex;
	struct xdr_enc e;
	struct xdr_dec d;
	size_t i = 0;

	(void)state;
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(mnt_enc_export_res(&e, list, 3), 0);
	xdr_check_truncations(mnt_dec_export_res, e.buf, e.len, sizeof(r));
	xdr_dec_init(&d, e.buf, e.len);
	assert_int_equal(mnt_dec_export_res(&d, &r), 0);
	assert_int_equal(xdr_dec_left(&d), 0);
	assert_int_equal(r.nexports, 3);
	while (mnt_export_next(&r.entries, &ex) == 1) {
		const char *name;
		uint32_t len;
		size_t g = 0;

		assert_int_equal(ex.dirlen, strlen(list[i].dir));
		assert_memory_equal(ex.dir, list[i].dir, ex.dirlen);
		assert_int_equal(ex.ngroups, list[i].ngroups);
		while (mnt_group_next(&ex.groups, &name, &len) == 1) {
			assert_int_equal(len, strlen(list[i].groups[g]));
			assert_memory_equal(name, list[i].groups[g], len);
			g++;
		}
		assert_int_equal(g, list[i].ngroups);
		i++;
	}
	assert_int_equal(i, 3);
	xdr_enc_release(&e);
}

static void test_dump_known(void **state)
{
	struct mnt_dump_res r;
	struct mnt_mountbody mb;
	struct xdr_dec d;

	(void)state;
	xdr_check_truncations(mnt_dec_dump_res, dump_one, sizeof(dump_one),
			  sizeof(r));
	xdr_dec_init(&d, dump_one, sizeof(dump_one));
	assert_int_equal(mnt_dec_dump_res(&d, &r), 0);
	assert_int_equal(r.nentries, 1);
	assert_int_equal(mnt_dump_next(&r.entries, &mb), 1);
	assert_int_equal(mb.hostlen, 7);
	assert_memory_equal(mb.hostname, "client1", 7);
	assert_int_equal(mb.dirlen, 7);
	assert_memory_equal(mb.dir, "/export", 7);
	assert_int_equal(mnt_dump_next(&r.entries, &mb), 0);
	assert_int_equal(mnt_dump_next(&r.entries, &mb), 0);

	xdr_check_truncations(mnt_dec_dump_res, cap_dump_empty,
			  sizeof(cap_dump_empty), sizeof(r));
	xdr_dec_init(&d, cap_dump_empty, sizeof(cap_dump_empty));
	assert_int_equal(mnt_dec_dump_res(&d, &r), 0);
	assert_int_equal(r.nentries, 0);
	assert_int_equal(mnt_dump_next(&r.entries, &mb), 0);
}

static void test_dump_absurd(void **state)
{
	uint8_t buf[sizeof(dump_one)];
	struct mnt_dump_res r;

	(void)state;
	memcpy(buf, dump_one, sizeof(buf));
	xdr_put_u32(buf, 2);
	assert_int_equal(xdr_check_decode(mnt_dec_dump_res, buf, sizeof(buf), &r,
				     NULL), -EBADMSG);
	memcpy(buf, dump_one, sizeof(buf));
	xdr_put_u32(buf + 28, 2);
	assert_int_equal(xdr_check_decode(mnt_dec_dump_res, buf, sizeof(buf), &r,
				     NULL), -EBADMSG);
	memcpy(buf, dump_one, sizeof(buf));
	xdr_put_u32(buf + 4, 0xffffffff);
	assert_int_equal(xdr_check_decode(mnt_dec_dump_res, buf, sizeof(buf), &r,
				     NULL), -EBADMSG);
	memcpy(buf, dump_one, sizeof(buf));
	xdr_put_u32(buf + 16, 0xffffffff);
	assert_int_equal(xdr_check_decode(mnt_dec_dump_res, buf, sizeof(buf), &r,
				     NULL), -EBADMSG);
}

static void test_dump_never_ends(void **state)
{
	enum { N = 3000, REC = 4 + 8 + 8 };
	uint8_t *buf = calloc(N, REC);
	struct mnt_dump_res r;

	(void)state;
	assert_non_null(buf);
	for (size_t i = 0; i < N; i++) {
		uint8_t *p = buf + i * REC;

		xdr_put_u32(p, 1);
		xdr_put_u32(p + 4, 1);
		p[8] = 'h';
		xdr_put_u32(p + 12, 2);
		memcpy(p + 16, "/d", 2);
	}
	assert_int_equal(xdr_check_decode(mnt_dec_dump_res, buf, N * REC, &r, NULL),
			 -EBADMSG);
	free(buf);
}

static void test_dump_round_trip(void **state)
{
	struct mnt_mountbody list[] = {
		{ "alpha", 5, "/srv/a", 6 },
		{ "", 0, "/", 1 },
		{ "gamma.example.org", 17, "/srv/gamma/deep/path", 20 },
	}, mb;
	struct mnt_dump_res r;
	struct xdr_enc e;
	struct xdr_dec d;
	size_t i = 0;

	(void)state;
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(mnt_enc_dump_res(&e, list, 3), 0);
	xdr_check_truncations(mnt_dec_dump_res, e.buf, e.len, sizeof(r));
	xdr_dec_init(&d, e.buf, e.len);
	assert_int_equal(mnt_dec_dump_res(&d, &r), 0);
	assert_int_equal(r.nentries, 3);
	while (mnt_dump_next(&r.entries, &mb) == 1) {
		assert_int_equal(mb.hostlen, list[i].hostlen);
		assert_memory_equal(mb.hostname, list[i].hostname, mb.hostlen);
		assert_int_equal(mb.dirlen, list[i].dirlen);
		assert_memory_equal(mb.dir, list[i].dir, mb.dirlen);
		i++;
	}
	assert_int_equal(i, 3);
	xdr_enc_release(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proc_names),
		cmocka_unit_test(test_stat_table),
		cmocka_unit_test(test_dirpath_known),
		cmocka_unit_test(test_dirpath_limits),
		cmocka_unit_test(test_dirpath_nul_inside),
		cmocka_unit_test(test_mnt3_known),
		cmocka_unit_test(test_mnt3_captured),
		cmocka_unit_test(test_mnt3_absurd),
		cmocka_unit_test(test_mnt3_many_flavors),
		cmocka_unit_test(test_mnt3_round_trip),
		cmocka_unit_test(test_mnt1_known),
		cmocka_unit_test(test_mnt1_round_trip),
		cmocka_unit_test(test_export_known),
		cmocka_unit_test(test_export_captured),
		cmocka_unit_test(test_export_empty),
		cmocka_unit_test(test_export_bad_bools),
		cmocka_unit_test(test_export_never_ends),
		cmocka_unit_test(test_export_groups_never_end),
		cmocka_unit_test(test_export_long_names),
		cmocka_unit_test(test_export_round_trip),
		cmocka_unit_test(test_dump_known),
		cmocka_unit_test(test_dump_absurd),
		cmocka_unit_test(test_dump_never_ends),
		cmocka_unit_test(test_dump_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
