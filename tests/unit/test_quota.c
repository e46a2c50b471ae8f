/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The quota-present path without a server that has quotas: what statfs
 * shows under -o quota_statfs, the grace column, the report that the
 * control socket carries and what nfsfusectl prints from it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/proto/quota.h"

/* What FSSTAT gave in the examples: 4 KiB blocks, 1000 GiB, 400 GiB
 * free (390 GiB to ordinary users), a million files of which 900,000 are
 * free. */
static struct statvfs fsstat(void)
{
	struct statvfs sv;

	memset(&sv, 0, sizeof(sv));
	sv.f_bsize = sv.f_frsize = 4096;
	sv.f_blocks = 262144000;
	sv.f_bfree = 104857600;
	sv.f_bavail = 102236160;
	sv.f_files = 1000000;
	sv.f_ffree = 900000;
	sv.f_favail = 900000;
	return sv;
}

static void test_kib(void **state)
{
	(void)state;
	assert_int_equal(quota_kib(0, 1024), 0);
	assert_int_equal(quota_kib(3, 1024), 3);
	assert_int_equal(quota_kib(3, 512), 2);  /* 1.5 KiB rounds up */
	assert_int_equal(quota_kib(2, 4096), 8);
	assert_int_equal(quota_kib(UINT32_MAX, 4096),
			 (uint64_t)UINT32_MAX * 4);  /* no 32-bit overflow */
	assert_int_equal(quota_kib(5, 0), 5);    /* nonsense bsize: 1024 */
	assert_int_equal(quota_kib(5, -512), 5);
}

struct statfs_case {
	struct rquota_dqblk q;
	bool applied;
	fsblkcnt_t blocks, bfree, bavail;
	fsfilcnt_t files, ffree, favail;
};

static const struct statfs_case statfs_cases[] = {
	/* 100 MiB hard limit in 1 KiB blocks, 40 MiB used: 25600 blocks
	 * of 4 KiB, 10240 used */
	{ { .bsize = 1024, .bhardlimit = 102400, .bsoftlimit = 81920,
	    .curblocks = 40960 },
	  true, 25600, 15360, 15360, 1000000, 900000, 900000 },
	/* soft limit only */
	{ { .bsize = 1024, .bsoftlimit = 81920, .curblocks = 40960 },
	  true, 20480, 10240, 10240, 1000000, 900000, 900000 },
	/* over the limit: nothing free, never negative */
	{ { .bsize = 1024, .bhardlimit = 1024, .curblocks = 4096 },
	  true, 256, 0, 0, 1000000, 900000, 900000 },
	/* usage rounds up to whole 4 KiB blocks: 1 KiB used of 8 KiB */
	{ { .bsize = 1024, .bhardlimit = 8, .curblocks = 1 },
	  true, 2, 1, 1, 1000000, 900000, 900000 },
	/* a limit bigger than the disk: FSSTAT's totals and free stay */
	{ { .bsize = 4096, .bhardlimit = UINT32_MAX, .curblocks = 10 },
	  true, 262144000, 104857600, 102236160, 1000000, 900000, 900000 },
	/* the limit leaves more than the disk has free: what is free wins */
	{ { .bsize = 4096, .bhardlimit = 200000000, .curblocks = 0 },
	  true, 200000000, 104857600, 102236160, 1000000, 900000, 900000 },
	/* files only: 1000 files hard, 50 soft (hard wins), 10 used */
	{ { .bsize = 1024, .fhardlimit = 1000, .fsoftlimit = 50,
	    .curfiles = 10 },
	  true, 262144000, 104857600, 102236160, 1000, 990, 990 },
	/* files over the soft limit with no hard one */
	{ { .bsize = 1024, .fsoftlimit = 5, .curfiles = 10 },
	  true, 262144000, 104857600, 102236160, 5, 0, 0 },
	/* usage without limits: nothing to narrow */
	{ { .bsize = 1024, .curblocks = 123, .curfiles = 4 },
	  false, 262144000, 104857600, 102236160, 1000000, 900000, 900000 },
};

static void test_statfs(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(statfs_cases) / sizeof(statfs_cases[0]);
	     i++) {
		const struct statfs_case *c = &statfs_cases[i];
		struct statvfs sv = fsstat();
		bool applied = quota_statfs_apply(&c->q, &sv);

		if (applied != c->applied || sv.f_blocks != c->blocks ||
		    sv.f_bfree != c->bfree || sv.f_bavail != c->bavail ||
		    sv.f_files != c->files || sv.f_ffree != c->ffree ||
		    sv.f_favail != c->favail)
			fail_msg("case %zu: applied %d blocks %llu/%llu/%llu "
				 "files %llu/%llu/%llu", i, applied,
				 (unsigned long long)sv.f_blocks,
				 (unsigned long long)sv.f_bfree,
				 (unsigned long long)sv.f_bavail,
				 (unsigned long long)sv.f_files,
				 (unsigned long long)sv.f_ffree,
				 (unsigned long long)sv.f_favail);
		/* the rest of FSSTAT's answer is left alone */
		assert_int_equal(sv.f_bsize, 4096);
		assert_int_equal(sv.f_frsize, 4096);
	}
}

static void test_grace(void **state)
{
	static const struct {
		uint32_t used, soft, left;
		const char *want;
	} cases[] = {
		{ 10, 20, 3600, "none" },      /* under the soft limit */
		{ 20, 20, 3600, "none" },      /* at it: not over */
		{ 10, 0, 3600, "none" },       /* no soft limit */
		{ 30, 20, 0, "none" },         /* grace used up */
		{ 30, 20, 6 * 86400, "6days" },
		{ 30, 20, 6 * 86400 - 1, "6days" },
		{ 30, 20, 36 * 3600, "2days" }, /* 1.5 days round up */
		{ 30, 20, 24 * 3600, "1days" },
		{ 30, 20, 5 * 3600 + 3 * 60, " 5:03" },
		{ 30, 20, 29, " 0:00" },
		{ 30, 20, 30, " 0:01" },
		{ 30, 20, 23 * 3600 + 59 * 60 + 29, "23:59" },
		{ 30, 20, UINT32_MAX, "49710days" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		quota_grace_str(cases[i].used, cases[i].soft, cases[i].left,
				buf, sizeof(buf));
		if (strcmp(buf, cases[i].want))
			fail_msg("case %zu: '%s', want '%s'", i, buf,
				 cases[i].want);
	}
}

static struct quota_report sample(void)
{
	struct quota_report r;

	memset(&r, 0, sizeof(r));
	snprintf(r.where, sizeof(r.where), "srv:/export");
	r.type = RQUOTA_USRQUOTA;
	r.id = 1000;
	r.found = true;
	r.q = (struct rquota_dqblk){
		.bsize = 1024, .active = true,
		.bhardlimit = 2000, .bsoftlimit = 1000, .curblocks = 1500,
		.fhardlimit = 0, .fsoftlimit = 0, .curfiles = 12,
		.btimeleft = 6 * 86400, .ftimeleft = 0,
	};
	return r;
}

static void test_report_round_trip(void **state)
{
	struct quota_report r = sample(), back;
	char buf[2048];

	(void)state;
	assert_true(quota_report_write(&r, buf, sizeof(buf)) < sizeof(buf));
	assert_string_equal(buf, "where srv:/export\ntype user\nid 1000\n"
				 "status ok\nbsize 1024\nactive 1\n"
				 "blocks 1500 1000 2000 518400\n"
				 "files 12 0 0 0\n");
	assert_int_equal(quota_report_parse(buf, &back), 0);
	assert_memory_equal(&back, &r, sizeof(r));

	/* no quota: the limits are not sent */
	r.found = false;
	r.type = RQUOTA_GRPQUOTA;
	memset(&r.q, 0, sizeof(r.q));
	quota_report_write(&r, buf, sizeof(buf));
	assert_string_equal(buf, "where srv:/export\ntype group\nid 1000\n"
				 "status noquota\n");
	assert_int_equal(quota_report_parse(buf, &back), 0);
	assert_memory_equal(&back, &r, sizeof(r));

	/* a short buffer: cut, terminated, and the length it needed */
	r = sample();
	assert_int_equal(quota_report_write(&r, buf, 10), strlen(
		"where srv:/export\ntype user\nid 1000\nstatus ok\n"
		"bsize 1024\nactive 1\nblocks 1500 1000 2000 518400\n"
		"files 12 0 0 0\n"));
	assert_int_equal(strlen(buf), 9);
}

static void test_report_parse_bad(void **state)
{
	static const char *const bad[] = {
		"",
		"where s:/e\ntype user\nid 1\n",                 /* no status */
		"where s:/e\ntype other\nid 1\nstatus noquota\n",
		"where s:/e\ntype user\nid -1\nstatus noquota\n",
		"where s:/e\ntype user\nid 4294967296\nstatus noquota\n",
		"where s:/e\ntype user\nid 1x\nstatus noquota\n",
		"where s:/e\ntype user\nid 1\nstatus maybe\n",
		/* ok needs the numbers */
		"where s:/e\ntype user\nid 1\nstatus ok\n",
		"where s:/e\ntype user\nid 1\nstatus ok\nbsize 1024\n"
		"blocks 1 2 3\nfiles 1 2 3 4\n",
		"where s:/e\ntype user\nid 1\nstatus ok\nbsize 1024\n"
		"blocks 1 2 3 4 5\nfiles 1 2 3 4\n",
		"where s:/e\ntype user\nid 1\nstatus ok\nbsize 1024\n"
		"blocks 1  2 3 4\nfiles 1 2 3 4\n",
		"where s:/e\ntype user\nid 1\nstatus ok\nbsize 2147483648\n"
		"blocks 1 2 3 4\nfiles 1 2 3 4\n",
		"where s:/e\ntype user\nid 1\nstatus ok\nbsize -2147483649\n"
		"blocks 1 2 3 4\nfiles 1 2 3 4\n",
		"where s:/e\ntype user\nid 1\nstatus ok\nbsize --1\n"
		"blocks 1 2 3 4\nfiles 1 2 3 4\n",
		"where s:/e\ntype user\nid 1\nstatus ok\nactive 2\n"
		"bsize 1\nblocks 1 2 3 4\nfiles 1 2 3 4\n",
		"nospace\n",
	};
	struct quota_report r;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (quota_report_parse(bad[i], &r) != -EBADMSG)
			fail_msg("case %zu parsed", i);
	/* unknown keys are skipped; the last line may lack its newline;
	 * a path may hold blanks */
	assert_int_equal(quota_report_parse("where s:/my export\nnew 1\n"
					    "type user\nid 7\nstatus noquota",
					    &r), 0);
	assert_string_equal(r.where, "s:/my export");
	assert_int_equal(r.id, 7);
	assert_false(r.found);
}

/* A negative block size, which no server should send, still goes from
 * the daemon to nfsfusectl as it was sent. */
static void test_report_negative_bsize(void **state)
{
	struct quota_report r = sample(), back;
	char buf[2048];

	(void)state;
	r.q.bsize = INT32_MIN;
	quota_report_write(&r, buf, sizeof(buf));
	assert_int_equal(quota_report_parse(buf, &back), 0);
	assert_int_equal(back.q.bsize, INT32_MIN);
	r.q.bsize = -512;
	quota_report_write(&r, buf, sizeof(buf));
	assert_int_equal(quota_report_parse(buf, &back), 0);
	assert_memory_equal(&back, &r, sizeof(r));
}

static void test_parse_id(void **state)
{
	uint32_t id = 7;

	(void)state;
	assert_int_equal(quota_parse_id("0", &id), 0);
	assert_int_equal(id, 0);
	assert_int_equal(quota_parse_id("4294967295", &id), 0);
	assert_int_equal(id, UINT32_MAX);
	assert_int_equal(quota_parse_id("4294967296", &id), -EINVAL);
	assert_int_equal(quota_parse_id("", &id), -EINVAL);
	assert_int_equal(quota_parse_id("-1", &id), -EINVAL);
	assert_int_equal(quota_parse_id("+1", &id), -EINVAL);
	assert_int_equal(quota_parse_id(" 1", &id), -EINVAL);
	assert_int_equal(quota_parse_id("1 ", &id), -EINVAL);
	assert_int_equal(quota_parse_id("1k", &id), -EINVAL);
	assert_int_equal(quota_parse_id("99999999999999999999999", &id),
			 -EINVAL);
}

static void test_format(void **state)
{
	struct quota_report r = sample();
	char buf[1024];

	(void)state;
	assert_true(quota_format(&r, "alice", buf, sizeof(buf)) <
		    sizeof(buf));
	assert_string_equal(buf,
		"Disk quotas for user alice (uid 1000):\n"
		"     Filesystem   blocks    quota    limit    grace    files"
		"    quota    limit    grace\n"
		"    srv:/export    1500*     1000     2000    6days       12"
		"        0        0     none\n");

	/* 512-byte blocks shown in KiB; a long name on its own line;
	 * files over the hard limit */
	r.type = RQUOTA_GRPQUOTA;
	r.id = 100;
	r.q.bsize = 512;
	r.q.curblocks = 10;
	r.q.bsoftlimit = 0;
	r.q.bhardlimit = 4096;
	r.q.curfiles = 6;
	r.q.fhardlimit = 5;
	snprintf(r.where, sizeof(r.where), "server.example:/srv/nfs");
	quota_format(&r, "users", buf, sizeof(buf));
	assert_string_equal(buf,
		"Disk quotas for group users (gid 100):\n"
		"     Filesystem   blocks    quota    limit    grace    files"
		"    quota    limit    grace\n"
		"server.example:/srv/nfs\n"
		"                       5        0     2048     none       6*"
		"        0        5     none\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kib),
		cmocka_unit_test(test_statfs),
		cmocka_unit_test(test_grace),
		cmocka_unit_test(test_report_round_trip),
		cmocka_unit_test(test_report_parse_bad),
		cmocka_unit_test(test_report_negative_bsize),
		cmocka_unit_test(test_parse_id),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
