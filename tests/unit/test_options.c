/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The option parser, as a table of command lines and what they must give. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <fuse_lowlevel.h>

#include "../../src/options.h"

static int parse(const char *const *argv, struct nfsfuse_opts *o,
		 struct fuse_args *fa, char *err)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	*fa = (struct fuse_args)FUSE_ARGS_INIT(0, NULL);
	return opts_parse(argc, (char **)argv, o, fa, err, 256);
}

static void test_defaults(void **state)
{
	const char *argv[] = { "nfsfuse", "srv:/export", "/mnt", NULL };
	struct nfsfuse_opts o;
	struct fuse_args fa;
	char err[256];

	(void)state;
	assert_int_equal(parse(argv, &o, &fa, err), 0);
	assert_string_equal(o.host, "srv");
	assert_string_equal(o.export_path, "/export");
	assert_string_equal(o.mountpoint, "/mnt");
	assert_int_equal(o.vers, 3);
	assert_int_equal(o.mountvers, 3);
	assert_int_equal(o.timeo, 600);
	assert_int_equal(o.retrans, 2);
	assert_false(o.soft);
	assert_int_equal(o.acregmin, 3);
	assert_int_equal(o.acregmax, 60);
	assert_int_equal(o.acdirmin, 30);
	assert_int_equal(o.acdirmax, 60);
	assert_true(o.cto);
	assert_true(o.rdirplus);
	assert_false(o.noac);
	assert_int_equal(fa.argc, 1); /* only the program name for FUSE */
	fuse_opt_free_args(&fa);
	opts_free(&o);
}

static void test_nfs_options(void **state)
{
	const char *argv[] = { "nfsfuse", "-o",
			       "soft,timeo=50,retrans=5,rsize=64k,wsize=1048576,"
			       "port=2049,mountport=20048,noresvport,_netdev,"
			       "actimeo=7,nocto,nordirplus,lookupcache=positive,"
			       "allow_other,hostname=clientA",
			       "-f", "[::1]:/a/b", "/mnt", NULL };
	struct nfsfuse_opts o;
	struct fuse_args fa;
	char err[256];

	(void)state;
	assert_int_equal(parse(argv, &o, &fa, err), 0);
	assert_string_equal(o.host, "::1");
	assert_string_equal(o.export_path, "/a/b");
	assert_true(o.soft);
	assert_int_equal(o.timeo, 50);
	assert_int_equal(o.retrans, 5);
	assert_int_equal(o.rsize, 65536);
	assert_int_equal(o.wsize, 1048576);
	assert_int_equal(o.port, 2049);
	assert_int_equal(o.mountport, 20048);
	assert_false(o.resvport);
	assert_int_equal(o.acregmin, 7);
	assert_int_equal(o.acdirmax, 7);
	assert_false(o.cto);
	assert_false(o.rdirplus);
	assert_int_equal(o.lookupcache, LOOKUPCACHE_POSITIVE);
	assert_string_equal(o.hostname, "clientA");
	assert_true(o.foreground);
	/* FUSE's own option passed on; ours and fstab's noise are not. */
	assert_int_equal(fa.argc, 3);
	assert_string_equal(fa.argv[1], "-o");
	assert_string_equal(fa.argv[2], "allow_other");
	fuse_opt_free_args(&fa);
	opts_free(&o);
}

struct bad_case {
	const char *opt;  /* -o value, or NULL for spec tests */
	const char *spec;
	const char *want; /* substring of the message */
};

static const struct bad_case bad[] = {
	{ "timeo=abc", "s:/e", "timeo" },
	{ "timeo=12abc", "s:/e", "timeo" },
	{ "timeo=0", "s:/e", "timeo" },
	{ "timeo=", "s:/e", "needs a value" },
	{ "retrans=-1", "s:/e", "retrans" },
	{ "port=65536", "s:/e", "port" },
	{ "rsize=99999999999999999999999", "s:/e", "rsize" },
	{ "rsize=12q", "s:/e", "rsize" },
	{ "vers=4", "s:/e", "vers" },
	{ "proto=sctp", "s:/e", "proto=sctp" },
	{ "lookupcache=some", "s:/e", "lookupcache" },
	{ "soft=1", "s:/e", "takes no value" },
	{ "acregmin=90,acregmax=10", "s:/e", "acregmin" },
	{ "vers=2,mountvers=3", "s:/e", "mountvers" },
	{ NULL, "noexport", "SERVER:/PATH" },
	{ NULL, "srv:relative", "absolute" },
	{ NULL, ":/e", "SERVER:/PATH" },
	{ NULL, "[::1/e", "[ADDRESS]" },
};

static void test_bad_input(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *argv[6];
		struct nfsfuse_opts o;
		struct fuse_args fa;
		char err[256];
		int n = 0;

		argv[n++] = "nfsfuse";
		if (bad[i].opt) {
			argv[n++] = "-o";
			argv[n++] = bad[i].opt;
		}
		argv[n++] = bad[i].spec;
		argv[n++] = "/mnt";
		argv[n] = NULL;
		assert_int_equal(parse(argv, &o, &fa, err), -1);
		if (!strstr(err, bad[i].want))
			fail_msg("case %zu: '%s' lacks '%s'", i, err,
				 bad[i].want);
		fuse_opt_free_args(&fa);
		opts_free(&o);
	}
}

static void test_missing_args(void **state)
{
	const char *argv[] = { "nfsfuse", "srv:/e", NULL };
	const char *argv2[] = { "nfsfuse", "-x", "srv:/e", "/m", NULL };
	const char *argv3[] = { "nfsfuse", "a:/e", "/m", "extra", NULL };
	const char *argv4[] = { "nfsfuse", "-o", NULL };
	const char *const *cases[] = { argv, argv2, argv3, argv4 };
	struct nfsfuse_opts o;
	struct fuse_args fa;
	char err[256];

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(parse(cases[i], &o, &fa, err), -1);
		assert_true(strlen(err) > 0);
		fuse_opt_free_args(&fa);
		opts_free(&o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_nfs_options),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_missing_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
