/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests of the NFSv2 codecs (xdr/nfs2.c) and of the NFSv2 <-> NFSv3
 * conversions (xdr/nfs2_conv.c).
 *
 * - every argument encoder against byte vectors worked out by hand from
 *   RFC 1094 / nfs_prot.x (not produced by our encoder);
 * - known-answer replies written out in hex by hand (GETATTR, LOOKUP,
 *   READ, READDIR, READLINK, STATFS, bare status);
 * - a round trip of the reply of every one of the 18 procedures, OK arm
 *   and failure arm, built by test-local encoders, every field compared;
 * - every prefix of every valid reply, each copied into a malloc'd buffer
 *   of exactly that size so that ASan sees any over-read, fails -EBADMSG;
 * - absurd lengths and discriminants; the encoders' input checks;
 * - the conversions, including offsets and sizes that do not fit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nfs2.h"
#include "xdr_check.h"

/* Big-endian bytes for the hand-written vectors. */
#define U32(x) (uint8_t)((uint32_t)(x) >> 24), (uint8_t)((uint32_t)(x) >> 16), \
	       (uint8_t)((uint32_t)(x) >> 8), (uint8_t)(uint32_t)(x)

typedef int (*enc_fn)(struct xdr_enc *e, const void *args);
typedef int (*dec_fn)(struct xdr_dec *d, void *res);

union any_res {
	struct nfs2_attrstat attrstat;
	struct nfs2_diropres dirop;
	struct nfs2_stat_res stat;
	struct nfs2_readlink_res readlink;
	struct nfs2_read_res read;
	struct nfs2_readdir_res readdir;
	struct nfs2_statfs_res statfs;
};

/* ---- helpers ---- */

/* The shared codec checks (xdr_check.h); truncated messages decode into
 * a scratch result big enough for any reply. */
static void check_enc_fails(enc_fn fn, const void *args, int err)
{
	assert_int_equal(xdr_check_encode_err(fn, args), err);
}

/* Returns the exact-size copy that *res points into: free it after. */
static uint8_t *check_dec(dec_fn fn, const uint8_t *msg, size_t len,
			  void *res)
{
	return xdr_check_decode_all(fn, msg, len, res, sizeof(union any_res));
}

static int dec_bad(dec_fn fn, const uint8_t *msg, size_t len)
{
	union any_res scratch;

	return xdr_check_decode(fn, msg, len, &scratch, NULL);
}

static void assert_fattr_eq(const struct nfs2_fattr *a,
			    const struct nfs2_fattr *b)
{
	assert_int_equal(a->type, b->type);
	assert_int_equal(a->mode, b->mode);
	assert_int_equal(a->nlink, b->nlink);
	assert_int_equal(a->uid, b->uid);
	assert_int_equal(a->gid, b->gid);
	assert_int_equal(a->size, b->size);
	assert_int_equal(a->blocksize, b->blocksize);
	assert_int_equal(a->rdev, b->rdev);
	assert_int_equal(a->blocks, b->blocks);
	assert_int_equal(a->fsid, b->fsid);
	assert_int_equal(a->fileid, b->fileid);
	assert_int_equal(a->atime.seconds, b->atime.seconds);
	assert_int_equal(a->atime.useconds, b->atime.useconds);
	assert_int_equal(a->mtime.seconds, b->mtime.seconds);
	assert_int_equal(a->mtime.useconds, b->mtime.useconds);
	assert_int_equal(a->ctime.seconds, b->ctime.seconds);
	assert_int_equal(a->ctime.useconds, b->ctime.useconds);
}

static void assert_name_eq(const char *want, const char *name, uint32_t len)
{
	assert_int_equal(strlen(want), len);
	assert_memory_equal(want, name, len);
}

/* ---- sample values ---- */

/* 32 bytes 0x10..0x2f. */
static struct nfs2_fh fh_make(uint8_t first)
{
	struct nfs2_fh fh;
	unsigned int i;

	for (i = 0; i < NFS2_FHSIZE; i++)
		fh.data[i] = (uint8_t)(first + i);
	return fh;
}

#define FH_A_BYTES                                                     \
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,                \
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,                \
	0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27,                \
	0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f
#define FH_B_BYTES                                                     \
	0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,                \
	0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f,                \
	0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97,                \
	0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f

/* The fattr of the hand-written vectors below. */
static const struct nfs2_fattr fattr_a = {
	.type = NF2REG, .mode = 0100644, .nlink = 1, .uid = 1000, .gid = 100,
	.size = 5, .blocksize = 4096, .rdev = 0xffffffff, .blocks = 8,
	.fsid = 0x801, .fileid = 0x1234,
	.atime = { 0x5f5e1000, 250000 },
	.mtime = { 0x5f5e1001, 0 },
	.ctime = { 0x5f5e1002, 999999 },
};

/* fattr_a on the wire, 17 words, worked by hand. */
#define FATTR_A_BYTES                                                  \
	0x00, 0x00, 0x00, 0x01, /* type NFREG */                       \
	0x00, 0x00, 0x81, 0xa4, /* mode 0100644 */                     \
	0x00, 0x00, 0x00, 0x01, /* nlink 1 */                          \
	0x00, 0x00, 0x03, 0xe8, /* uid 1000 */                         \
	0x00, 0x00, 0x00, 0x64, /* gid 100 */                          \
	0x00, 0x00, 0x00, 0x05, /* size 5 */                           \
	0x00, 0x00, 0x10, 0x00, /* blocksize 4096 */                   \
	0xff, 0xff, 0xff, 0xff, /* rdev (none) */                      \
	0x00, 0x00, 0x00, 0x08, /* blocks 8 */                         \
	0x00, 0x00, 0x08, 0x01, /* fsid 0x801 */                       \
	0x00, 0x00, 0x12, 0x34, /* fileid 0x1234 */                    \
	0x5f, 0x5e, 0x10, 0x00, /* atime.seconds */                    \
	0x00, 0x03, 0xd0, 0x90, /* atime.useconds 250000 */            \
	0x5f, 0x5e, 0x10, 0x01, /* mtime.seconds */                    \
	0x00, 0x00, 0x00, 0x00, /* mtime.useconds 0 */                 \
	0x5f, 0x5e, 0x10, 0x02, /* ctime.seconds */                    \
	0x00, 0x0f, 0x42, 0x3f  /* ctime.useconds 999999 */

static const struct nfs2_fattr fattr_dir = {
	.type = NF2DIR, .mode = 040755, .nlink = 2, .uid = 0, .gid = 0,
	.size = 512, .blocksize = 512, .rdev = 0, .blocks = 1,
	.fsid = 7, .fileid = 2,
	.atime = { 1, 2 }, .mtime = { 3, 4 }, .ctime = { 5, 6 },
};

/* ---- argument encoders against hand-worked vectors ---- */

static void test_enc_void(void **state)
{
	(void)state;
	/* NULL, ROOT and WRITECACHE have void arguments: zero bytes. */
	xdr_check_encoding(nfs2_enc_void_args, NULL, NULL, 0);
}

static void test_enc_fh_only(void **state)
{
	struct nfs2_getattr_args ga = { fh_make(0x10) };
	struct nfs2_readlink_args rl = { fh_make(0x10) };
	struct nfs2_statfs_args sf = { fh_make(0x10) };
	/* fhandle is opaque[32]: no length word, no padding. */
	static const uint8_t want[] = { FH_A_BYTES };

	(void)state;
	xdr_check_encoding(nfs2_enc_getattr_args, &ga, want, sizeof(want));
	xdr_check_encoding(nfs2_enc_readlink_args, &rl, want, sizeof(want));
	xdr_check_encoding(nfs2_enc_statfs_args, &sf, want, sizeof(want));
}

static void test_enc_setattr(void **state)
{
	struct nfs2_setattr_args a = { .file = fh_make(0x10) };
	static const uint8_t want[] = {
		FH_A_BYTES,
		0x00, 0x00, 0x01, 0xa4, /* mode 0644 */
		0xff, 0xff, 0xff, 0xff, /* uid: not set */
		0x00, 0x00, 0x00, 0x64, /* gid 100 */
		0x00, 0x00, 0x00, 0x00, /* size 0: truncate */
		0xff, 0xff, 0xff, 0xff, /* atime.seconds: not set */
		0xff, 0xff, 0xff, 0xff, /* atime.useconds: not set */
		0x12, 0x34, 0x56, 0x78, /* mtime.seconds */
		0x00, 0x0f, 0x42, 0x40, /* mtime.useconds 1000000: server */
	};

	(void)state;
	nfs2_sattr_none(&a.attributes);
	a.attributes.mode = 0644;
	a.attributes.gid = 100;
	a.attributes.size = 0;
	a.attributes.mtime.seconds = 0x12345678;
	a.attributes.mtime.useconds = NFS2_USEC_SERVER_TIME;
	xdr_check_encoding(nfs2_enc_setattr_args, &a, want, sizeof(want));
}

static void test_enc_sattr_none(void **state)
{
	struct nfs2_setattr_args a = { .file = fh_make(0x10) };
	uint8_t want[NFS2_FHSIZE + 32];

	(void)state;
	nfs2_sattr_none(&a.attributes);
	memcpy(want, a.file.data, NFS2_FHSIZE);
	memset(want + NFS2_FHSIZE, 0xff, 32); /* eight words of -1 */
	xdr_check_encoding(nfs2_enc_setattr_args, &a, want, sizeof(want));
}

static void test_enc_diropargs(void **state)
{
	struct nfs2_fh dir = fh_make(0x10);
	struct nfs2_lookup_args lk = { { &dir, "foo" } };
	struct nfs2_remove_args rm = { { &dir, "foo" } };
	struct nfs2_rmdir_args rd = { { &dir, "foo" } };
	static const uint8_t want[] = {
		FH_A_BYTES,
		0x00, 0x00, 0x00, 0x03, /* name length 3 */
		'f', 'o', 'o', 0x00,    /* "foo" + one byte of padding */
	};
	struct nfs2_lookup_args lk4 = { { &dir, "abcd" } };
	static const uint8_t want4[] = {
		FH_A_BYTES,
		0x00, 0x00, 0x00, 0x04, /* length 4: no padding */
		'a', 'b', 'c', 'd',
	};

	(void)state;
	xdr_check_encoding(nfs2_enc_lookup_args, &lk, want, sizeof(want));
	xdr_check_encoding(nfs2_enc_remove_args, &rm, want, sizeof(want));
	xdr_check_encoding(nfs2_enc_rmdir_args, &rd, want, sizeof(want));
	xdr_check_encoding(nfs2_enc_lookup_args, &lk4, want4, sizeof(want4));
}

static void test_enc_read(void **state)
{
	struct nfs2_read_args a = {
		.file = fh_make(0x10), .offset = 0x7ffff000, .count = 8192,
		.totalcount = 0x10000,
	};
	static const uint8_t want[] = {
		FH_A_BYTES,
		0x7f, 0xff, 0xf0, 0x00, /* offset */
		0x00, 0x00, 0x20, 0x00, /* count 8192 */
		0x00, 0x01, 0x00, 0x00, /* totalcount 65536 (unused) */
	};

	(void)state;
	xdr_check_encoding(nfs2_enc_read_args, &a, want, sizeof(want));
}

static void test_enc_write(void **state)
{
	struct nfs2_write_args a = {
		.file = fh_make(0x10), .beginoffset = 0x11, .offset = 0x1000,
		.totalcount = 0x22, .data = "hello", .count = 5,
	};
	static const uint8_t want[] = {
		FH_A_BYTES,
		0x00, 0x00, 0x00, 0x11, /* beginoffset (unused) */
		0x00, 0x00, 0x10, 0x00, /* offset 4096 */
		0x00, 0x00, 0x00, 0x22, /* totalcount (unused) */
		0x00, 0x00, 0x00, 0x05, /* data length 5 */
		'h', 'e', 'l', 'l', 'o', 0x00, 0x00, 0x00, /* + 3 padding */
	};
	struct nfs2_write_args z = { .file = fh_make(0x10), .offset = 7 };
	static const uint8_t want_z[] = {
		FH_A_BYTES,
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x07,
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, /* empty data, NULL pointer is fine */
	};

	(void)state;
	xdr_check_encoding(nfs2_enc_write_args, &a, want, sizeof(want));
	xdr_check_encoding(nfs2_enc_write_args, &z, want_z, sizeof(want_z));
}

static void test_enc_create_mkdir(void **state)
{
	struct nfs2_fh dir = fh_make(0x10);
	struct nfs2_create_args c = { .where = { &dir, "new.txt" } };
	struct nfs2_mkdir_args m = { .where = { &dir, "new.txt" } };
	static const uint8_t want[] = {
		FH_A_BYTES,
		0x00, 0x00, 0x00, 0x07, /* name length 7 */
		'n', 'e', 'w', '.', 't', 'x', 't', 0x00,
		0x00, 0x00, 0x81, 0xb6, /* mode 0100666 */
		0x00, 0x00, 0x03, 0xe8, /* uid 1000 */
		0x00, 0x00, 0x03, 0xe9, /* gid 1001 */
		0x00, 0x00, 0x00, 0x00, /* size 0 */
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* atime */
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* mtime */
	};

	(void)state;
	nfs2_sattr_none(&c.attributes);
	c.attributes.mode = 0100666;
	c.attributes.uid = 1000;
	c.attributes.gid = 1001;
	c.attributes.size = 0;
	m.attributes = c.attributes;
	xdr_check_encoding(nfs2_enc_create_args, &c, want, sizeof(want));
	xdr_check_encoding(nfs2_enc_mkdir_args, &m, want, sizeof(want));
}

static void test_enc_rename(void **state)
{
	struct nfs2_fh a = fh_make(0x10), b = fh_make(0x80);
	struct nfs2_rename_args r = { { &a, "x" }, { &b, "yyyyy" } };
	static const uint8_t want[] = {
		FH_A_BYTES,
		0x00, 0x00, 0x00, 0x01, 'x', 0x00, 0x00, 0x00,
		FH_B_BYTES,
		0x00, 0x00, 0x00, 0x05, 'y', 'y', 'y', 'y',
		'y', 0x00, 0x00, 0x00,
	};

	(void)state;
	xdr_check_encoding(nfs2_enc_rename_args, &r, want, sizeof(want));
}

static void test_enc_link(void **state)
{
	struct nfs2_fh dir = fh_make(0x80);
	struct nfs2_link_args l = { fh_make(0x10), { &dir, "ln" } };
	static const uint8_t want[] = {
		FH_A_BYTES, /* from */
		FH_B_BYTES, /* to.dir */
		0x00, 0x00, 0x00, 0x02, 'l', 'n', 0x00, 0x00,
	};

	(void)state;
	xdr_check_encoding(nfs2_enc_link_args, &l, want, sizeof(want));
}

static void test_enc_symlink(void **state)
{
	struct nfs2_fh dir = fh_make(0x10);
	struct nfs2_symlink_args s = { .from = { &dir, "sl" }, .to = "../target" };
	static const uint8_t want[] = {
		FH_A_BYTES,
		0x00, 0x00, 0x00, 0x02, 's', 'l', 0x00, 0x00, /* from */
		0x00, 0x00, 0x00, 0x09, '.', '.', '/', 't',   /* to: 9 bytes */
		'a', 'r', 'g', 'e', 't', 0x00, 0x00, 0x00,
		0x00, 0x00, 0xa1, 0xff, /* mode 0120777 */
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* uid gid */
		0xff, 0xff, 0xff, 0xff, /* size */
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* atime */
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* mtime */
	};

	(void)state;
	nfs2_sattr_none(&s.attributes);
	s.attributes.mode = 0120777;
	xdr_check_encoding(nfs2_enc_symlink_args, &s, want, sizeof(want));
}

static void test_enc_readdir(void **state)
{
	struct nfs2_readdir_args a = {
		.dir = fh_make(0x10), .cookie = 0xdeadbeef, .count = 4096,
	};
	static const uint8_t want[] = {
		FH_A_BYTES,
		0xde, 0xad, 0xbe, 0xef, /* nfscookie: opaque[4], no length */
		0x00, 0x00, 0x10, 0x00, /* count 4096 */
	};

	(void)state;
	xdr_check_encoding(nfs2_enc_readdir_args, &a, want, sizeof(want));
}

static void test_enc_errors(void **state)
{
	struct nfs2_fh dir = fh_make(0x10);
	char name256[257], path1025[1026];
	struct nfs2_lookup_args lk = { { &dir, "" } };
	struct nfs2_lookup_args lk_null = { { NULL, "a" } };
	struct nfs2_lookup_args lk_noname = { { &dir, NULL } };
	struct nfs2_read_args rd = { .count = NFS2_MAXDATA + 1 };
	struct nfs2_write_args wr = { .count = NFS2_MAXDATA + 1, .data = "" };
	struct nfs2_write_args wr_null = { .count = 1, .data = NULL };
	struct nfs2_symlink_args sl = { .from = { &dir, "s" }, .to = NULL };
	struct nfs2_rename_args rn = { { &dir, "a" }, { &dir, "" } };
	struct xdr_enc e;

	(void)state;
	memset(name256, 'n', 256);
	name256[256] = '\0';
	memset(path1025, 'p', 1025);
	path1025[1025] = '\0';

	check_enc_fails(nfs2_enc_lookup_args, &lk, -EINVAL);
	lk.what.name = name256;
	check_enc_fails(nfs2_enc_lookup_args, &lk, -EINVAL);
	name256[255] = '\0'; /* 255 bytes is the limit and fits */
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(nfs2_enc_lookup_args(&e, &lk), 0);
	assert_int_equal(e.len, NFS2_FHSIZE + 4 + 256);
	xdr_enc_release(&e);
	check_enc_fails(nfs2_enc_lookup_args, &lk_null, -EINVAL);
	check_enc_fails(nfs2_enc_lookup_args, &lk_noname, -EINVAL);
	check_enc_fails(nfs2_enc_rename_args, &rn, -EINVAL);

	check_enc_fails(nfs2_enc_read_args, &rd, -EINVAL);
	check_enc_fails(nfs2_enc_write_args, &wr, -EINVAL);
	check_enc_fails(nfs2_enc_write_args, &wr_null, -EINVAL);

	check_enc_fails(nfs2_enc_symlink_args, &sl, -EINVAL);
	sl.to = path1025;
	check_enc_fails(nfs2_enc_symlink_args, &sl, -EINVAL);
	path1025[1024] = '\0';
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(nfs2_enc_symlink_args(&e, &sl), 0);
	xdr_enc_release(&e);

	/* NULL argument structs. */
	check_enc_fails(nfs2_enc_getattr_args, NULL, -EINVAL);
	check_enc_fails(nfs2_enc_setattr_args, NULL, -EINVAL);
	check_enc_fails(nfs2_enc_lookup_args, NULL, -EINVAL);
	check_enc_fails(nfs2_enc_readlink_args, NULL, -EINVAL);
	check_enc_fails(nfs2_enc_read_args, NULL, -EINVAL);
	check_enc_fails(nfs2_enc_write_args, NULL, -EINVAL);
	check_enc_fails(nfs2_enc_create_args, NULL, -EINVAL);
	check_enc_fails(nfs2_enc_remove_args, NULL, -EINVAL);
	check_enc_fails(nfs2_enc_rename_args, NULL, -EINVAL);
	check_enc_fails(nfs2_enc_link_args, NULL, -EINVAL);
	check_enc_fails(nfs2_enc_symlink_args, NULL, -EINVAL);
	check_enc_fails(nfs2_enc_mkdir_args, NULL, -EINVAL);
	check_enc_fails(nfs2_enc_rmdir_args, NULL, -EINVAL);
	check_enc_fails(nfs2_enc_readdir_args, NULL, -EINVAL);
	check_enc_fails(nfs2_enc_statfs_args, NULL, -EINVAL);

	/* The error is sticky: later encoders do nothing and return it. */
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	lk.what.name = "";
	assert_int_equal(nfs2_enc_lookup_args(&e, &lk), -EINVAL);
	{
		struct nfs2_getattr_args ga = { fh_make(0) };
		size_t len = e.len;

		assert_int_equal(nfs2_enc_getattr_args(&e, &ga), -EINVAL);
		assert_int_equal(nfs2_enc_void_args(&e, NULL), -EINVAL);
		assert_int_equal(e.len, len);
	}
	xdr_enc_release(&e);
}

static void test_names(void **state)
{
	static const char *const want[] = {
		"NULL", "GETATTR", "SETATTR", "ROOT", "LOOKUP", "READLINK",
		"READ", "WRITECACHE", "WRITE", "CREATE", "REMOVE", "RENAME",
		"LINK", "SYMLINK", "MKDIR", "RMDIR", "READDIR", "STATFS",
	};
	unsigned int i;

	(void)state;
	assert_int_equal(NFS2PROC_COUNT, 18);
	for (i = 0; i < NFS2PROC_COUNT; i++)
		assert_string_equal(nfs2_proc_names[i], want[i]);
	assert_string_equal(nfs2_stat_name(0), "NFS_OK");
	assert_string_equal(nfs2_stat_name(70), "NFSERR_STALE");
	assert_string_equal(nfs2_stat_name(99), "NFSERR_WFLUSH");
	assert_string_equal(nfs2_stat_name(63), "NFSERR_NAMETOOLONG");
	assert_null(nfs2_stat_name(18));    /* XDEV: v3 only */
	assert_null(nfs2_stat_name(10001)); /* BADHANDLE: v3 only */
}

/* ---- known-answer replies, written by hand ---- */

static void test_kat_getattr(void **state)
{
	static const uint8_t msg[] = {
		0x00, 0x00, 0x00, 0x00, /* status NFS_OK */
		FATTR_A_BYTES,
	};
	struct nfs2_attrstat r;
	uint8_t *b;

	(void)state;
	assert_int_equal(sizeof(msg), 4 + 68);
	b = check_dec(nfs2_dec_getattr_res, msg, sizeof(msg), &r);
	assert_int_equal(r.status, NFS2_OK);
	assert_fattr_eq(&r.attributes, &fattr_a);
	free(b);
}

static void test_kat_lookup(void **state)
{
	static const uint8_t msg[] = {
		0x00, 0x00, 0x00, 0x00, /* status NFS_OK */
		FH_B_BYTES,             /* file: 32 bytes, no length */
		FATTR_A_BYTES,
	};
	static const uint8_t noent[] = {
		0x00, 0x00, 0x00, 0x02, /* NFSERR_NOENT: void arm */
	};
	struct nfs2_fh fh_b = fh_make(0x80);
	struct nfs2_diropres r;
	uint8_t *b;

	(void)state;
	b = check_dec(nfs2_dec_lookup_res, msg, sizeof(msg), &r);
	assert_int_equal(r.status, NFS2_OK);
	assert_memory_equal(r.file.data, fh_b.data, NFS2_FHSIZE);
	assert_fattr_eq(&r.attributes, &fattr_a);
	free(b);

	b = check_dec(nfs2_dec_lookup_res, noent, sizeof(noent), &r);
	assert_int_equal(r.status, NFS2ERR_NOENT);
	free(b);
}

static void test_kat_read(void **state)
{
	static const uint8_t msg[] = {
		0x00, 0x00, 0x00, 0x00, /* status NFS_OK */
		FATTR_A_BYTES,
		0x00, 0x00, 0x00, 0x05, /* data length 5 */
		'h', 'e', 'l', 'l', 'o', 0x00, 0x00, 0x00, /* + padding */
	};
	struct nfs2_read_res r;
	uint8_t *b;

	(void)state;
	b = check_dec(nfs2_dec_read_res, msg, sizeof(msg), &r);
	assert_int_equal(r.status, NFS2_OK);
	assert_fattr_eq(&r.attributes, &fattr_a);
	assert_int_equal(r.count, 5);
	assert_memory_equal(r.data, "hello", 5);
	assert_ptr_equal(r.data, b + 4 + 68 + 4); /* zero-copy */
	free(b);
}

static void test_kat_readdir(void **state)
{
	static const uint8_t msg[] = {
		0x00, 0x00, 0x00, 0x00, /* status NFS_OK */
		0x00, 0x00, 0x00, 0x01, /* value follows */
		0x00, 0x00, 0x00, 0x02, /*   fileid 2 */
		0x00, 0x00, 0x00, 0x01, /*   name length 1 */
		'.', 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x0c, /*   cookie 12 */
		0x00, 0x00, 0x00, 0x01, /* value follows */
		0x00, 0x00, 0x00, 0x01, /*   fileid 1 */
		0x00, 0x00, 0x00, 0x02, /*   name length 2 */
		'.', '.', 0x00, 0x00,
		0x00, 0x00, 0x00, 0x18, /*   cookie 24 */
		0x00, 0x00, 0x00, 0x01, /* value follows */
		0xff, 0xff, 0xff, 0xfe, /*   fileid 0xfffffffe */
		0x00, 0x00, 0x00, 0x04, /*   name length 4 */
		'f', 'i', 'l', 'e',
		0xff, 0xff, 0xff, 0xff, /*   cookie: all ones */
		0x00, 0x00, 0x00, 0x00, /* no value follows: end of list */
		0x00, 0x00, 0x00, 0x01, /* eof TRUE */
	};
	static const uint8_t empty[] = {
		0x00, 0x00, 0x00, 0x00, /* NFS_OK */
		0x00, 0x00, 0x00, 0x00, /* no entries */
		0x00, 0x00, 0x00, 0x00, /* eof FALSE */
	};
	struct nfs2_readdir_res r;
	struct nfs2_entry e;
	uint8_t *b;

	(void)state;
	b = check_dec(nfs2_dec_readdir_res, msg, sizeof(msg), &r);
	assert_int_equal(r.status, NFS2_OK);
	assert_int_equal(r.nentries, 3);
	assert_true(r.eof);
	assert_int_equal(nfs2_readdir_next(&r.entries, &e), 1);
	assert_int_equal(e.fileid, 2);
	assert_name_eq(".", e.name, e.namelen);
	assert_int_equal(e.cookie, 12);
	assert_int_equal(nfs2_readdir_next(&r.entries, &e), 1);
	assert_int_equal(e.fileid, 1);
	assert_name_eq("..", e.name, e.namelen);
	assert_int_equal(e.cookie, 24);
	assert_int_equal(nfs2_readdir_next(&r.entries, &e), 1);
	assert_int_equal(e.fileid, 0xfffffffe);
	assert_name_eq("file", e.name, e.namelen);
	assert_int_equal(e.cookie, 0xffffffff);
	assert_int_equal(nfs2_readdir_next(&r.entries, &e), 0);
	assert_int_equal(nfs2_readdir_next(&r.entries, &e), 0);
	free(b);

	b = check_dec(nfs2_dec_readdir_res, empty, sizeof(empty), &r);
	assert_int_equal(r.nentries, 0);
	assert_false(r.eof);
	assert_int_equal(nfs2_readdir_next(&r.entries, &e), 0);
	free(b);
}

static void test_kat_readlink_statfs_stat(void **state)
{
	static const uint8_t rl[] = {
		0x00, 0x00, 0x00, 0x00, /* NFS_OK */
		0x00, 0x00, 0x00, 0x06, /* path length 6 */
		'/', 'e', 't', 'c', '/', 'x', 0x00, 0x00,
	};
	static const uint8_t sf[] = {
		0x00, 0x00, 0x00, 0x00, /* NFS_OK */
		0x00, 0x00, 0x20, 0x00, /* tsize 8192 */
		0x00, 0x00, 0x04, 0x00, /* bsize 1024 */
		0x00, 0x10, 0x00, 0x00, /* blocks */
		0x00, 0x08, 0x00, 0x00, /* bfree */
		0x00, 0x07, 0xff, 0xff, /* bavail */
	};
	static const uint8_t st[] = {
		0x00, 0x00, 0x00, 0x42, /* NFSERR_NOTEMPTY */
	};
	union any_res r;
	uint8_t *b;

	(void)state;
	b = check_dec(nfs2_dec_readlink_res, rl, sizeof(rl), &r);
	assert_int_equal(r.readlink.status, NFS2_OK);
	assert_name_eq("/etc/x", r.readlink.data, r.readlink.len);
	free(b);

	b = check_dec(nfs2_dec_statfs_res, sf, sizeof(sf), &r);
	assert_int_equal(r.statfs.status, NFS2_OK);
	assert_int_equal(r.statfs.tsize, 8192);
	assert_int_equal(r.statfs.bsize, 1024);
	assert_int_equal(r.statfs.blocks, 0x100000);
	assert_int_equal(r.statfs.bfree, 0x80000);
	assert_int_equal(r.statfs.bavail, 0x7ffff);
	free(b);

	b = check_dec(nfs2_dec_rmdir_res, st, sizeof(st), &r);
	assert_int_equal(r.stat.status, NFS2ERR_NOTEMPTY);
	free(b);
}

/* ---- round trips of every procedure's reply ---- */

enum res_kind {
	RES_VOID, RES_ATTRSTAT, RES_DIROPRES, RES_STAT, RES_READLINK,
	RES_READ, RES_READDIR, RES_STATFS
};

struct proc_case {
	enum nfs2_proc proc;
	dec_fn dec;
	enum res_kind kind;
};

static const struct proc_case proc_cases[NFS2PROC_COUNT] = {
	{ NFS2PROC_NULL, nfs2_dec_void_res, RES_VOID },
	{ NFS2PROC_GETATTR, nfs2_dec_getattr_res, RES_ATTRSTAT },
	{ NFS2PROC_SETATTR, nfs2_dec_setattr_res, RES_ATTRSTAT },
	{ NFS2PROC_ROOT, nfs2_dec_void_res, RES_VOID },
	{ NFS2PROC_LOOKUP, nfs2_dec_lookup_res, RES_DIROPRES },
	{ NFS2PROC_READLINK, nfs2_dec_readlink_res, RES_READLINK },
	{ NFS2PROC_READ, nfs2_dec_read_res, RES_READ },
	{ NFS2PROC_WRITECACHE, nfs2_dec_void_res, RES_VOID },
	{ NFS2PROC_WRITE, nfs2_dec_write_res, RES_ATTRSTAT },
	{ NFS2PROC_CREATE, nfs2_dec_create_res, RES_DIROPRES },
	{ NFS2PROC_REMOVE, nfs2_dec_remove_res, RES_STAT },
	{ NFS2PROC_RENAME, nfs2_dec_rename_res, RES_STAT },
	{ NFS2PROC_LINK, nfs2_dec_link_res, RES_STAT },
	{ NFS2PROC_SYMLINK, nfs2_dec_symlink_res, RES_STAT },
	{ NFS2PROC_MKDIR, nfs2_dec_mkdir_res, RES_DIROPRES },
	{ NFS2PROC_RMDIR, nfs2_dec_rmdir_res, RES_STAT },
	{ NFS2PROC_READDIR, nfs2_dec_readdir_res, RES_READDIR },
	{ NFS2PROC_STATFS, nfs2_dec_statfs_res, RES_STATFS },
};

static const char *const rt_names[] = { "a", "bb", "ccc", "dddd", "eeeee" };
static uint8_t rt_data[NFS2_MAXDATA];

/* Test-local reply encoder: the OK arm of `kind`, or just the status. */
static void enc_reply(struct xdr_enc *e, enum res_kind kind, uint32_t status)
{
	struct nfs2_fh fh = fh_make(0x40);
	unsigned int i;

	if (kind == RES_VOID)
		return;
	xdr_enc_u32(e, status);
	if (status != NFS2_OK)
		return;
	switch (kind) {
	case RES_VOID:
	case RES_STAT:
		break;
	case RES_ATTRSTAT:
		nfs2_enc_fattr(e, &fattr_a);
		break;
	case RES_DIROPRES:
		nfs2_enc_fh(e, &fh);
		nfs2_enc_fattr(e, &fattr_dir);
		break;
	case RES_READLINK:
		xdr_enc_string(e, NFS2_MAXPATHLEN, "some/where/else");
		break;
	case RES_READ:
		nfs2_enc_fattr(e, &fattr_a);
		xdr_enc_opaque(e, NFS2_MAXDATA, rt_data, 1001);
		break;
	case RES_READDIR:
		for (i = 0; i < 5; i++) {
			xdr_enc_bool(e, true);
			xdr_enc_u32(e, 100 + i);
			xdr_enc_string(e, NFS2_MAXNAMLEN, rt_names[i]);
			xdr_enc_u32(e, 0x01000000u * (i + 1));
		}
		xdr_enc_bool(e, false);
		xdr_enc_bool(e, true);
		break;
	case RES_STATFS:
		xdr_enc_u32(e, 8192);
		xdr_enc_u32(e, 4096);
		xdr_enc_u32(e, 1000);
		xdr_enc_u32(e, 500);
		xdr_enc_u32(e, 400);
		break;
	}
}

static void check_ok_fields(enum res_kind kind, union any_res *r)
{
	struct nfs2_fh fh = fh_make(0x40);
	struct nfs2_entry e;
	unsigned int i;

	switch (kind) {
	case RES_VOID:
		break;
	case RES_STAT:
		assert_int_equal(r->stat.status, NFS2_OK);
		break;
	case RES_ATTRSTAT:
		assert_int_equal(r->attrstat.status, NFS2_OK);
		assert_fattr_eq(&r->attrstat.attributes, &fattr_a);
		break;
	case RES_DIROPRES:
		assert_int_equal(r->dirop.status, NFS2_OK);
		assert_memory_equal(r->dirop.file.data, fh.data, NFS2_FHSIZE);
		assert_fattr_eq(&r->dirop.attributes, &fattr_dir);
		break;
	case RES_READLINK:
		assert_int_equal(r->readlink.status, NFS2_OK);
		assert_name_eq("some/where/else", r->readlink.data,
			       r->readlink.len);
		break;
	case RES_READ:
		assert_int_equal(r->read.status, NFS2_OK);
		assert_fattr_eq(&r->read.attributes, &fattr_a);
		assert_int_equal(r->read.count, 1001);
		assert_memory_equal(r->read.data, rt_data, 1001);
		break;
	case RES_READDIR:
		assert_int_equal(r->readdir.status, NFS2_OK);
		assert_int_equal(r->readdir.nentries, 5);
		assert_true(r->readdir.eof);
		for (i = 0; i < 5; i++) {
			assert_int_equal(nfs2_readdir_next(&r->readdir.entries,
							   &e), 1);
			assert_int_equal(e.fileid, 100 + i);
			assert_name_eq(rt_names[i], e.name, e.namelen);
			assert_int_equal(e.cookie, 0x01000000u * (i + 1));
		}
		assert_int_equal(nfs2_readdir_next(&r->readdir.entries, &e),
				 0);
		break;
	case RES_STATFS:
		assert_int_equal(r->statfs.status, NFS2_OK);
		assert_int_equal(r->statfs.tsize, 8192);
		assert_int_equal(r->statfs.bsize, 4096);
		assert_int_equal(r->statfs.blocks, 1000);
		assert_int_equal(r->statfs.bfree, 500);
		assert_int_equal(r->statfs.bavail, 400);
		break;
	}
}

static void test_rt_every_proc(void **state)
{
	static const uint32_t fail_status[] = {
		NFS2ERR_STALE, NFS2ERR_WFLUSH, 12345 /* unknown: void arm */
	};
	unsigned int i, j;

	(void)state;
	for (i = 0; i < 1001; i++)
		rt_data[i] = (uint8_t)(i * 7 + 3);
	for (i = 0; i < NFS2PROC_COUNT; i++) {
		const struct proc_case *c = &proc_cases[i];
		union any_res r;
		struct xdr_enc e;
		uint8_t *b;

		assert_int_equal(c->proc, i);
		/* OK arm. */
		assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
		enc_reply(&e, c->kind, NFS2_OK);
		assert_int_equal(xdr_enc_error(&e), 0);
		memset(&r, 0xa5, sizeof(r));
		b = check_dec(c->dec, e.buf, e.len, &r);
		check_ok_fields(c->kind, &r);
		free(b);
		xdr_enc_release(&e);
		if (c->kind == RES_VOID)
			continue;
		/* Failure arms: only the status; the rest reads as zero. */
		for (j = 0; j < 3; j++) {
			union any_res zero;

			assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
			enc_reply(&e, c->kind, fail_status[j]);
			assert_int_equal(e.len, 4);
			memset(&r, 0xa5, sizeof(r));
			b = check_dec(c->dec, e.buf, e.len, &r);
			assert_int_equal(r.stat.status, fail_status[j]);
			memset(&zero, 0, sizeof(zero));
			zero.stat.status = fail_status[j];
			switch (c->kind) {
			case RES_ATTRSTAT:
				assert_memory_equal(&r, &zero,
						    sizeof(r.attrstat));
				break;
			case RES_DIROPRES:
				assert_memory_equal(&r, &zero, sizeof(r.dirop));
				break;
			case RES_READLINK:
				assert_null(r.readlink.data);
				assert_int_equal(r.readlink.len, 0);
				break;
			case RES_READ:
				assert_null(r.read.data);
				assert_int_equal(r.read.count, 0);
				assert_int_equal(r.read.attributes.type, 0);
				break;
			case RES_READDIR:
				assert_int_equal(r.readdir.nentries, 0);
				assert_false(r.readdir.eof);
				break;
			case RES_STATFS:
				assert_memory_equal(&r, &zero,
						    sizeof(r.statfs));
				break;
			case RES_VOID:
			case RES_STAT:
				break;
			}
			free(b);
			xdr_enc_release(&e);
		}
	}
}

/* Limits: a READ of exactly NFS2_MAXDATA, a name of exactly 255 bytes, a
 * path of exactly 1024. */
static void test_rt_limits(void **state)
{
	char name[NFS2_MAXNAMLEN + 1], path[NFS2_MAXPATHLEN + 1];
	union any_res r;
	struct nfs2_entry e;
	struct xdr_enc enc;
	uint8_t *b;

	(void)state;
	memset(name, 'x', NFS2_MAXNAMLEN);
	name[NFS2_MAXNAMLEN] = '\0';
	memset(path, 'y', NFS2_MAXPATHLEN);
	path[NFS2_MAXPATHLEN] = '\0';

	assert_int_equal(xdr_enc_init(&enc, 0, 0), 0);
	xdr_enc_u32(&enc, NFS2_OK);
	nfs2_enc_fattr(&enc, &fattr_a);
	xdr_enc_opaque(&enc, NFS2_MAXDATA, rt_data, NFS2_MAXDATA);
	assert_int_equal(xdr_check_decode(nfs2_dec_read_res, enc.buf, enc.len,
					  &r, NULL), 0);
	assert_int_equal(r.read.count, NFS2_MAXDATA);
	xdr_enc_release(&enc);

	assert_int_equal(xdr_enc_init(&enc, 0, 0), 0);
	xdr_enc_u32(&enc, NFS2_OK);
	xdr_enc_bool(&enc, true);
	xdr_enc_u32(&enc, 9);
	xdr_enc_string(&enc, NFS2_MAXNAMLEN, name);
	xdr_enc_u32(&enc, 1);
	xdr_enc_bool(&enc, false);
	xdr_enc_bool(&enc, false);
	b = check_dec(nfs2_dec_readdir_res, enc.buf, enc.len, &r);
	assert_int_equal(nfs2_readdir_next(&r.readdir.entries, &e), 1);
	assert_int_equal(e.namelen, NFS2_MAXNAMLEN);
	free(b);
	xdr_enc_release(&enc);

	assert_int_equal(xdr_enc_init(&enc, 0, 0), 0);
	xdr_enc_u32(&enc, NFS2_OK);
	xdr_enc_string(&enc, NFS2_MAXPATHLEN, path);
	b = check_dec(nfs2_dec_readlink_res, enc.buf, enc.len, &r);
	assert_int_equal(r.readlink.len, NFS2_MAXPATHLEN);
	free(b);
	xdr_enc_release(&enc);
}

/* ---- malformed replies ---- */

static void test_bad_read_len(void **state)
{
	static const uint8_t huge[] = {
		0x00, 0x00, 0x00, 0x00, FATTR_A_BYTES,
		0xff, 0xff, 0xff, 0xff, /* data length 2^32-1 */
		'x', 'y', 'z', 'w',
	};
	static const uint8_t over[] = {
		0x00, 0x00, 0x00, 0x00, FATTR_A_BYTES,
		0x00, 0x00, 0x20, 0x01, /* 8193: over NFS_MAXDATA */
		'x', 'y', 'z', 'w',
	};
	static const uint8_t short_data[] = {
		0x00, 0x00, 0x00, 0x00, FATTR_A_BYTES,
		0x00, 0x00, 0x00, 0x05, /* 5 bytes promised, 4 sent */
		'x', 'y', 'z', 'w',
	};
	static const uint8_t no_pad[] = {
		0x00, 0x00, 0x00, 0x00, FATTR_A_BYTES,
		0x00, 0x00, 0x00, 0x05, /* 5 bytes, padding missing */
		'x', 'y', 'z', 'w', 'v',
	};

	(void)state;
	assert_int_equal(dec_bad(nfs2_dec_read_res, huge, sizeof(huge)),
			 -EBADMSG);
	assert_int_equal(dec_bad(nfs2_dec_read_res, over, sizeof(over)),
			 -EBADMSG);
	assert_int_equal(dec_bad(nfs2_dec_read_res, short_data,
				 sizeof(short_data)), -EBADMSG);
	assert_int_equal(dec_bad(nfs2_dec_read_res, no_pad, sizeof(no_pad)),
			 -EBADMSG);
}

static void test_bad_names(void **state)
{
	uint8_t msg[4 + 4 + 4 + 4 + 300 + 4 + 4 + 4];
	struct xdr_enc e;
	size_t n = 0;

	(void)state;
	/* A readdir entry whose name is 300 bytes long (the bytes are
	 * there: only the limit refuses it). */
	xdr_put_u32(msg + n, NFS2_OK); n += 4;
	xdr_put_u32(msg + n, 1); n += 4;   /* value follows */
	xdr_put_u32(msg + n, 5); n += 4;   /* fileid */
	xdr_put_u32(msg + n, 300); n += 4; /* name length */
	memset(msg + n, 'n', 300); n += 300;
	xdr_put_u32(msg + n, 1); n += 4;   /* cookie */
	xdr_put_u32(msg + n, 0); n += 4;   /* end of list */
	xdr_put_u32(msg + n, 1); n += 4;   /* eof */
	assert_int_equal(n, sizeof(msg));
	assert_int_equal(dec_bad(nfs2_dec_readdir_res, msg, n), -EBADMSG);
	/* 0xffffffff as a name length. */
	xdr_put_u32(msg + 12, 0xffffffff);
	assert_int_equal(dec_bad(nfs2_dec_readdir_res, msg, n), -EBADMSG);
	/* A NUL inside a name. */
	xdr_put_u32(msg + 12, 4);
	memcpy(msg + 16, "a\0bc", 4);
	xdr_put_u32(msg + 20, 1);
	xdr_put_u32(msg + 24, 0);
	xdr_put_u32(msg + 28, 1);
	assert_int_equal(dec_bad(nfs2_dec_readdir_res, msg, 32), -EBADMSG);
	memcpy(msg + 16, "abcd", 4); /* and the same without it is fine */
	assert_int_equal(dec_bad(nfs2_dec_readdir_res, msg, 32), 0);

	/* A READLINK path of 1025 bytes. */
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	xdr_enc_u32(&e, NFS2_OK);
	xdr_enc_u32(&e, NFS2_MAXPATHLEN + 1);
	xdr_enc_reserve(&e, NFS2_MAXPATHLEN + 4);
	memset(e.buf + 8, 'p', NFS2_MAXPATHLEN + 1);
	assert_int_equal(dec_bad(nfs2_dec_readlink_res, e.buf, e.len),
			 -EBADMSG);
	xdr_enc_release(&e);
}

static void test_bad_value_follows(void **state)
{
	uint8_t msg[] = {
		0x00, 0x00, 0x00, 0x00, /* NFS_OK */
		0x00, 0x00, 0x00, 0x01, /* value follows */
		0x00, 0x00, 0x00, 0x02,
		0x00, 0x00, 0x00, 0x01, '.', 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x01,
		0x00, 0x00, 0x00, 0x02, /* value follows == 2: not a bool */
		0x00, 0x00, 0x00, 0x01, /* eof */
	};

	(void)state;
	assert_int_equal(dec_bad(nfs2_dec_readdir_res, msg, sizeof(msg)),
			 -EBADMSG);
	msg[27] = 0xff; /* 0x000000ff */
	assert_int_equal(dec_bad(nfs2_dec_readdir_res, msg, sizeof(msg)),
			 -EBADMSG);
	msg[27] = 0x00; /* a proper FALSE, then eof == 2 */
	msg[31] = 0x02;
	assert_int_equal(dec_bad(nfs2_dec_readdir_res, msg, sizeof(msg)),
			 -EBADMSG);
	msg[31] = 0x01;
	assert_int_equal(dec_bad(nfs2_dec_readdir_res, msg, sizeof(msg)), 0);
	/* The first value_follows absurd too. */
	msg[7] = 0x02;
	assert_int_equal(dec_bad(nfs2_dec_readdir_res, msg, sizeof(msg)),
			 -EBADMSG);
}

/* ---- conversions ---- */

static void test_conv_fattr(void **state)
{
	struct fattr3 a3;

	(void)state;
	nfs2_fattr_to_fattr3(&fattr_a, &a3);
	assert_int_equal(a3.type, NF3REG);
	assert_int_equal(a3.mode, 0644); /* the type bits go */
	assert_int_equal(a3.nlink, 1);
	assert_int_equal(a3.uid, 1000);
	assert_int_equal(a3.gid, 100);
	assert_int_equal(a3.size, 5);
	assert_int_equal(a3.used, 8 * 4096);
	assert_int_equal(a3.rdev.specdata1, 0); /* all-ones rdev of a file */
	assert_int_equal(a3.rdev.specdata2, 0);
	assert_int_equal(a3.fsid, 0x801);
	assert_int_equal(a3.fileid, 0x1234);
	assert_int_equal(a3.atime.seconds, 0x5f5e1000);
	assert_int_equal(a3.atime.nseconds, 250000000);
	assert_int_equal(a3.mtime.seconds, 0x5f5e1001);
	assert_int_equal(a3.mtime.nseconds, 0);
	assert_int_equal(a3.ctime.seconds, 0x5f5e1002);
	assert_int_equal(a3.ctime.nseconds, 999999000);
}

static void test_conv_fattr_edges(void **state)
{
	static const struct { uint32_t t2, rdev, t3; } types[] = {
		{ NF2NON, 0, 0 },
		{ NF2REG, 0, NF3REG },
		{ NF2DIR, 0, NF3DIR },
		{ NF2BLK, 0x0803, NF3BLK },
		{ NF2CHR, 0x0501, NF3CHR },
		{ NF2CHR, NFS2_FIFO_DEV, NF3FIFO }, /* the FIFO kludge */
		{ NF2LNK, 0, NF3LNK },
		{ NF2SOCK, 0, NF3SOCK },
		{ NF2BAD, 0, 0 },  /* not 7: that would be NF3FIFO */
		{ NF2FIFO, 0, NF3FIFO },
		{ 9, 0, 9 },       /* unknown: kept as sent */
		{ 0xffffffff, 0, 0xffffffff },
	};
	struct nfs2_fattr a = fattr_a;
	struct fattr3 a3;
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		a.type = types[i].t2;
		a.rdev = types[i].rdev;
		nfs2_fattr_to_fattr3(&a, &a3);
		if (a3.type != types[i].t3)
			fail_msg("v2 type %u rdev %#x -> %u, want %u",
				 types[i].t2, types[i].rdev, a3.type,
				 types[i].t3);
	}

	/* rdev as Linux's new_encode_dev(): major 8, minor 3 is 0x803;
	 * major 0x123, minor 0x45678 is 0x45612378. */
	a.type = NF2BLK;
	a.rdev = 0x803;
	nfs2_fattr_to_fattr3(&a, &a3);
	assert_int_equal(a3.rdev.specdata1, 8);
	assert_int_equal(a3.rdev.specdata2, 3);
	a.type = NF2CHR;
	a.rdev = 0x45612378;
	nfs2_fattr_to_fattr3(&a, &a3);
	assert_int_equal(a3.rdev.specdata1, 0x123);
	assert_int_equal(a3.rdev.specdata2, 0x45678);
	/* The FIFO kludge carries no device number. */
	a.rdev = NFS2_FIFO_DEV;
	nfs2_fattr_to_fattr3(&a, &a3);
	assert_int_equal(a3.rdev.specdata1, 0);
	assert_int_equal(a3.rdev.specdata2, 0);

	/* used is computed in 64 bits. */
	a.blocks = 0xffffffff;
	a.blocksize = 8192;
	nfs2_fattr_to_fattr3(&a, &a3);
	assert_int_equal(a3.used, 0xffffffffull * 8192);
	/* Out-of-range useconds are clamped, not wrapped. */
	a.atime.useconds = 1000000;
	a.mtime.useconds = 0xffffffff;
	a.ctime.useconds = 999999;
	nfs2_fattr_to_fattr3(&a, &a3);
	assert_int_equal(a3.atime.nseconds, 999999999);
	assert_int_equal(a3.mtime.nseconds, 999999999);
	assert_int_equal(a3.ctime.nseconds, 999999000);
	/* Sizes and file ids are u32: the largest are kept. */
	a.size = 0xffffffff;
	a.fileid = 0xffffffff;
	nfs2_fattr_to_fattr3(&a, &a3);
	assert_int_equal(a3.size, 0xffffffffull);
	assert_int_equal(a3.fileid, 0xffffffffull);
}

static void test_conv_sattr(void **state)
{
	const struct nfstime3 now = { 0x60000000, 5 };
	struct sattr3 s;
	struct nfs2_sattr o, none;

	(void)state;
	nfs2_sattr_none(&none);
	memset(&s, 0, sizeof(s));
	assert_int_equal(nfs2_sattr_from_sattr3(&s, &o, NULL), 0);
	assert_memory_equal(&o, &none, sizeof(o));

	s.set_mode = true;
	s.mode = 0640;
	s.set_uid = true;
	s.uid = 0;
	s.set_gid = true;
	s.gid = 65534;
	s.set_size = true;
	s.size = NFS2_MAXFILESIZE; /* 2 GiB - 1: the largest */
	s.set_atime = SET_TO_CLIENT_TIME;
	s.atime.seconds = 1234;
	s.atime.nseconds = 999999999;
	s.set_mtime = SET_TO_SERVER_TIME;
	assert_int_equal(nfs2_sattr_from_sattr3(&s, &o, &now), 0);
	assert_int_equal(o.mode, 0640);
	assert_int_equal(o.uid, 0);
	assert_int_equal(o.gid, 65534);
	assert_int_equal(o.size, 0x7fffffff);
	assert_int_equal(o.atime.seconds, 1234);
	assert_int_equal(o.atime.useconds, 999999);
	assert_int_equal(o.mtime.seconds, 0x60000000);
	assert_int_equal(o.mtime.useconds, 1000000);

	/* size 0 (truncate) is a value, not "not set". */
	s.size = 0;
	assert_int_equal(nfs2_sattr_from_sattr3(&s, &o, &now), 0);
	assert_int_equal(o.size, 0);
}

static void test_conv_sattr_errors(void **state)
{
	const struct nfstime3 now = { 100, 0 };
	struct nfs2_sattr o, untouched;
	struct sattr3 s;

	(void)state;
	memset(&untouched, 0x5a, sizeof(untouched));
	o = untouched;

	/* A size that does not fit, or reaches past 2 GiB - 1: -EFBIG. */
	memset(&s, 0, sizeof(s));
	s.set_size = true;
	s.size = 0x80000000ull;
	assert_int_equal(nfs2_sattr_from_sattr3(&s, &o, &now), -EFBIG);
	s.size = 0xffffffffull; /* would be "not set" on the wire */
	assert_int_equal(nfs2_sattr_from_sattr3(&s, &o, &now), -EFBIG);
	s.size = 0x100000000ull; /* would wrap to 0: truncation! */
	assert_int_equal(nfs2_sattr_from_sattr3(&s, &o, &now), -EFBIG);
	s.size = UINT64_MAX;
	assert_int_equal(nfs2_sattr_from_sattr3(&s, &o, &now), -EFBIG);
	assert_memory_equal(&o, &untouched, sizeof(o));

	/* Values that collide with "not set". */
	memset(&s, 0, sizeof(s));
	s.set_uid = true;
	s.uid = 0xffffffff;
	assert_int_equal(nfs2_sattr_from_sattr3(&s, &o, &now), -EINVAL);
	memset(&s, 0, sizeof(s));
	s.set_gid = true;
	s.gid = 0xffffffff;
	assert_int_equal(nfs2_sattr_from_sattr3(&s, &o, &now), -EINVAL);
	memset(&s, 0, sizeof(s));
	s.set_mode = true;
	s.mode = 0xffffffff;
	assert_int_equal(nfs2_sattr_from_sattr3(&s, &o, &now), -EINVAL);
	memset(&s, 0, sizeof(s));
	s.set_atime = SET_TO_CLIENT_TIME;
	s.atime.seconds = 0xffffffff;
	assert_int_equal(nfs2_sattr_from_sattr3(&s, &o, &now), -EOVERFLOW);
	memset(&s, 0, sizeof(s));
	s.set_mtime = SET_TO_SERVER_TIME;
	{
		const struct nfstime3 late = { 0xffffffff, 0 };

		assert_int_equal(nfs2_sattr_from_sattr3(&s, &o, &late),
				 -EOVERFLOW);
	}
	/* Bad times and time_how. */
	assert_int_equal(nfs2_sattr_from_sattr3(&s, &o, NULL), -EINVAL);
	memset(&s, 0, sizeof(s));
	s.set_atime = SET_TO_CLIENT_TIME;
	s.atime.nseconds = 1000000000;
	assert_int_equal(nfs2_sattr_from_sattr3(&s, &o, &now), -EINVAL);
	memset(&s, 0, sizeof(s));
	s.set_mtime = 3;
	assert_int_equal(nfs2_sattr_from_sattr3(&s, &o, &now), -EINVAL);
	assert_int_equal(nfs2_sattr_from_sattr3(NULL, &o, &now), -EINVAL);
	assert_memory_equal(&o, &untouched, sizeof(o));
}

static void test_conv_ranges(void **state)
{
	uint32_t off = 0xdead, cnt = 0xbeef;

	(void)state;
	/* Ordinary ranges pass through; counts are capped at MAXDATA. */
	assert_int_equal(nfs2_read_range(4096, 8192, &off, &cnt), 0);
	assert_int_equal(off, 4096);
	assert_int_equal(cnt, 8192);
	assert_int_equal(nfs2_read_range(0, 65536, &off, &cnt), 0);
	assert_int_equal(cnt, NFS2_MAXDATA);
	assert_int_equal(nfs2_write_range(100, 1000, &off, &cnt), 0);
	assert_int_equal(off, 100);
	assert_int_equal(cnt, 1000);

	/* Reaching the limit: short. */
	assert_int_equal(nfs2_read_range(0x7ffffff0, 8192, &off, &cnt), 0);
	assert_int_equal(off, 0x7ffffff0);
	assert_int_equal(cnt, 0xf);
	assert_int_equal(nfs2_write_range(0x7ffffffe, 10, &off, &cnt), 0);
	assert_int_equal(off, 0x7ffffffe);
	assert_int_equal(cnt, 1);
	assert_int_equal(nfs2_read_range(0x7fffffff, 10, &off, &cnt), 0);
	assert_int_equal(cnt, 0);
	assert_int_equal(nfs2_write_range(0x7fffffff, 0, &off, &cnt), 0);
	assert_int_equal(cnt, 0);

	/* Past 2 GiB - 1: fail, never wrap. */
	off = cnt = 0x5a5a5a5a;
	assert_int_equal(nfs2_write_range(0x7fffffff, 1, &off, &cnt), -EFBIG);
	assert_int_equal(nfs2_write_range(0x80000000, 1, &off, &cnt), -EFBIG);
	assert_int_equal(nfs2_write_range(0xffffffff, 1, &off, &cnt), -EFBIG);
	assert_int_equal(nfs2_write_range(0x100000000ull, 1, &off, &cnt),
			 -EFBIG);
	assert_int_equal(nfs2_write_range(0x100000000ull, 0, &off, &cnt),
			 -EFBIG);
	assert_int_equal(nfs2_write_range(UINT64_MAX, 1, &off, &cnt), -EFBIG);
	assert_int_equal(nfs2_read_range(0x80000000, 1, &off, &cnt),
			 -EOVERFLOW);
	assert_int_equal(nfs2_read_range(0x100000000ull, 1, &off, &cnt),
			 -EOVERFLOW);
	assert_int_equal(nfs2_read_range(0x100001000ull, 0, &off, &cnt),
			 -EOVERFLOW);
	assert_int_equal(nfs2_read_range(UINT64_MAX, 8192, &off, &cnt),
			 -EOVERFLOW);
	assert_int_equal(off, 0x5a5a5a5a); /* untouched on failure */
	assert_int_equal(cnt, 0x5a5a5a5a);
}

/* The whole path an upper layer takes: a 64-bit offset through the
 * conversion into the encoder. */
static void test_conv_offset_to_encoder(void **state)
{
	struct nfs2_write_args w = { .file = fh_make(0), .data = "z" };
	struct xdr_enc e;
	uint32_t cnt;

	(void)state;
	assert_int_equal(nfs2_write_range(0x1000000000ull + 5, 1, &w.offset,
					  &cnt), -EFBIG);
	assert_int_equal(nfs2_write_range(5, 1, &w.offset, &w.count), 0);
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	assert_int_equal(nfs2_enc_write_args(&e, &w), 0);
	assert_int_equal(xdr_get_u32(e.buf + NFS2_FHSIZE + 4), 5);
	xdr_enc_release(&e);
}

static void test_conv_stat(void **state)
{
	static const uint32_t same[] = {
		0, 1, 2, 5, 6, 13, 17, 19, 20, 21, 27, 28, 30, 63, 66, 69, 70,
		18, 22, 31, 71,
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++)
		assert_int_equal(nfs2_stat_to_nfsstat3(same[i]), same[i]);
	assert_int_equal(nfs2_stat_to_nfsstat3(NFS2ERR_WFLUSH), NFS3ERR_IO);
	assert_int_equal(nfs2_stat_to_nfsstat3(NFS2ERR_STALE),
			 NFS3ERR_STALE);
	assert_int_equal(nfs2_stat_to_nfsstat3(NFS2ERR_DQUOT),
			 NFS3ERR_DQUOT);
	assert_int_equal(nfs2_stat_to_nfsstat3(3), NFS3ERR_IO);
	assert_int_equal(nfs2_stat_to_nfsstat3(10008), NFS3ERR_IO);
	assert_int_equal(nfs2_stat_to_nfsstat3(0xffffffff), NFS3ERR_IO);
}

static void test_conv_fh(void **state)
{
	struct nfs2_fh fh = fh_make(0x33), back;
	struct nfs_fh3 fh3;

	(void)state;
	nfs2_fh_to_fh3(&fh, &fh3);
	assert_int_equal(fh3.len, 32);
	assert_memory_equal(fh3.data, fh.data, 32);
	memset(&back, 0, sizeof(back));
	assert_int_equal(nfs2_fh_from_fh3(&fh3, &back), 0);
	assert_memory_equal(back.data, fh.data, 32);
	fh3.len = 31;
	assert_int_equal(nfs2_fh_from_fh3(&fh3, &back), -EINVAL);
	fh3.len = 64;
	assert_int_equal(nfs2_fh_from_fh3(&fh3, &back), -EINVAL);
	assert_int_equal(nfs2_fh_from_fh3(NULL, &back), -EINVAL);
}

/* sattr and fh decoders (for proxies and tests) agree with the encoders. */
static void test_type_codecs(void **state)
{
	struct nfs2_sattr s, s2;
	struct nfs2_fattr a;
	struct nfs2_fh fh = fh_make(1), fh2;
	struct xdr_enc e;
	struct xdr_dec d;

	(void)state;
	nfs2_sattr_none(&s);
	s.mode = 0755;
	s.mtime.seconds = 9;
	s.mtime.useconds = 8;
	assert_int_equal(xdr_enc_init(&e, 0, 0), 0);
	nfs2_enc_sattr(&e, &s);
	nfs2_enc_fattr(&e, &fattr_dir);
	nfs2_enc_fh(&e, &fh);
	assert_int_equal(xdr_enc_error(&e), 0);
	assert_int_equal(e.len, 32 + 68 + 32);
	xdr_dec_init(&d, e.buf, e.len);
	assert_int_equal(nfs2_dec_sattr(&d, &s2), 0);
	assert_memory_equal(&s, &s2, sizeof(s));
	assert_int_equal(nfs2_dec_fattr(&d, &a), 0);
	assert_fattr_eq(&a, &fattr_dir);
	assert_int_equal(nfs2_dec_fh(&d, &fh2), 0);
	assert_memory_equal(fh.data, fh2.data, NFS2_FHSIZE);
	assert_int_equal(xdr_dec_left(&d), 0);
	assert_int_equal(nfs2_dec_fh(&d, &fh2), -EBADMSG);
	assert_int_equal(nfs2_dec_sattr(&d, &s2), -EBADMSG);
	assert_int_equal(nfs2_dec_fattr(&d, &a), -EBADMSG);
	xdr_enc_release(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_enc_void),
		cmocka_unit_test(test_enc_fh_only),
		cmocka_unit_test(test_enc_setattr),
		cmocka_unit_test(test_enc_sattr_none),
		cmocka_unit_test(test_enc_diropargs),
		cmocka_unit_test(test_enc_read),
		cmocka_unit_test(test_enc_write),
		cmocka_unit_test(test_enc_create_mkdir),
		cmocka_unit_test(test_enc_rename),
		cmocka_unit_test(test_enc_link),
		cmocka_unit_test(test_enc_symlink),
		cmocka_unit_test(test_enc_readdir),
		cmocka_unit_test(test_enc_errors),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_kat_getattr),
		cmocka_unit_test(test_kat_lookup),
		cmocka_unit_test(test_kat_read),
		cmocka_unit_test(test_kat_readdir),
		cmocka_unit_test(test_kat_readlink_statfs_stat),
		cmocka_unit_test(test_rt_every_proc),
		cmocka_unit_test(test_rt_limits),
		cmocka_unit_test(test_bad_read_len),
		cmocka_unit_test(test_bad_names),
		cmocka_unit_test(test_bad_value_follows),
		cmocka_unit_test(test_conv_fattr),
		cmocka_unit_test(test_conv_fattr_edges),
		cmocka_unit_test(test_conv_sattr),
		cmocka_unit_test(test_conv_sattr_errors),
		cmocka_unit_test(test_conv_ranges),
		cmocka_unit_test(test_conv_offset_to_encoder),
		cmocka_unit_test(test_conv_stat),
		cmocka_unit_test(test_conv_fh),
		cmocka_unit_test(test_type_codecs),
	};

	return cmocka_run_group_tests_name("xdr_nfs2", tests, NULL, NULL);
}
