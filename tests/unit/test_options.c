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
	assert_int_equal(o.vers, 0); /* auto: v3, falling back to v2 */
	assert_int_equal(o.mountvers, 0); /* follows the version chosen */
	assert_int_equal(o.timeo, 600);
	assert_int_equal(o.retrans, 2);
	assert_int_equal(o.nconnect, 1);
	assert_false(o.soft);
	assert_int_equal(o.acregmin, 3);
	assert_int_equal(o.acregmax, 60);
	assert_int_equal(o.acdirmin, 30);
	assert_int_equal(o.acdirmax, 60);
	assert_true(o.cto);
	assert_false(o.dircomplete); /* names made elsewhere stay visible */
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
			       "nconnect=16,"
			       "port=2049,mountport=20048,aclport=4000,"
			       "noresvport,_netdev,"
			       "actimeo=7,nocto,nordirplus,lookupcache=positive,"
			       "dircomplete,"
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
	assert_int_equal(o.nconnect, 16);
	assert_int_equal(o.rsize, 65536);
	assert_int_equal(o.wsize, 1048576);
	assert_int_equal(o.port, 2049);
	assert_int_equal(o.mountport, 20048);
	assert_int_equal(o.aclport, 4000);
	assert_false(o.resvport);
	assert_int_equal(o.acregmin, 7);
	assert_int_equal(o.acdirmax, 7);
	assert_false(o.cto);
	assert_true(o.dircomplete);
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
	{ "nconnect=0", "s:/e", "'nconnect=0': expected a number from 1 to 16" },
	{ "nconnect=17", "s:/e", "'nconnect=17': expected a number from 1 to 16" },
	{ "nconnect=abc", "s:/e", "'nconnect=abc': expected a number from 1 to 16" },
	{ "nconnect=", "s:/e", "needs a value" },
	{ "nconnect=2,proto=udp", "s:/e", "nconnect=2 needs proto=tcp" },
	{ "port=65536", "s:/e", "port" },
	{ "aclport=0", "s:/e", "aclport" },
	{ "aclport=65536", "s:/e", "aclport" },
	{ "rsize=99999999999999999999999", "s:/e", "rsize" },
	{ "rsize=12q", "s:/e", "rsize" },
	{ "vers=5", "s:/e", "vers" },
	{ "vers=4.0", "s:/e", "expected 2, 3, 4, 4.1 or 4.2" },
	{ "vers=4.3", "s:/e", "vers=4.3" },
	{ "vers=3.1", "s:/e", "vers=3.1" },
	{ "vers=4.", "s:/e", "vers=4." },
	{ "vers=4.1x", "s:/e", "vers=4.1x" },
	{ "vers=", "s:/e", "vers=" },
	{ "minorversion=0", "s:/e", "minorversion" },
	{ "minorversion=3", "s:/e", "minorversion" },
	{ "vers=3,minorversion=1", "s:/e", "minorversion= needs vers=4" },
	{ "vers=4.1,proto=udp", "s:/e", "proto=tcp" },
	{ "proto=sctp", "s:/e", "proto=sctp" },
	{ "lookupcache=some", "s:/e", "lookupcache" },
	{ "soft=1", "s:/e", "takes no value" },
	{ "acregmin=90,acregmax=10", "s:/e", "acregmin" },
	{ "vers=2,mountvers=3", "s:/e", "mountvers" },
	{ NULL, "noexport", "SERVER:/PATH" },
	{ NULL, "srv:relative", "absolute" },
	{ NULL, ":/e", "SERVER:/PATH" },
	{ NULL, "[::1/e", "[ADDRESS]" },
	/* nfs:// URLs: each fault one clear message */
	{ NULL, "nfs://h:0/e", "port '0' is not a number from 1 to 65535" },
	{ NULL, "nfs://h:65536/e", "port '65536'" },
	{ NULL, "nfs://h:12ab/e", "port '12ab'" },
	{ NULL, "nfs://h:-1/e", "port '-1'" },
	{ NULL, "nfs://h:99999999999/e", "port '99999999999'" },
	{ NULL, "nfs://[::1]x/e", "nfs://[ADDRESS]" },
	{ NULL, "nfs://[::1/e", "nfs://[ADDRESS]" },
	{ NULL, "nfs:///e", "no server" },
	{ NULL, "nfs://:2049/e", "no server" },
	{ NULL, "nfs://h", "no export path" },
	{ NULL, "nfs://h?vers=3", "no export path" },
	{ NULL, "nfs://u@h/e", "user names" },
	{ NULL, "nfs://h/e#frag", "%23" },
	{ NULL, "nfs://h/a%2", "bad percent escape" },
	{ NULL, "nfs://h/a%zz", "URL path '/a%zz': bad percent escape" },
	{ NULL, "nfs://h/a%00b", "bad percent escape" },
	{ NULL, "nfs://h%/e", "URL server" },
	{ NULL, "nfs://h/e?bogus=1", "URL option 'bogus' is unknown" },
	{ NULL, "nfs://h/e?allow_other", "URL option 'allow_other'" },
	{ NULL, "nfs://h/e?vers=5", "option 'vers=5'" },
	{ NULL, "nfs://h/e?version=9", "option 'vers=9'" },
	{ NULL, "nfs://h/e?timeo=x", "option 'timeo=x'" },
	{ NULL, "nfs://h/e?soft=1", "takes no value" },
	{ NULL, "nfs://h/e?=3", "bad option name" },
	{ NULL, "nfs://h/e?a%3Db=1", "bad option name" },
	{ NULL, "nfs://h/e?soft%2Chard", "bad option name" },
	{ NULL, "nfs://h/e?timeo=%4", "URL option '%4': bad percent escape" },
	{ "quota_statfs=1", "s:/e", "option 'quota_statfs' takes no value" },
	{ NULL, "nfs://h/e?quota_statfs=yes", "takes no value" },
};

/* nfs:// URLs that parse, and what they must give. */
struct url_case {
	const char *url;
	const char *host;
	const char *path;
	unsigned port;
	unsigned vers;
	unsigned timeo;
	bool soft;
};

static const struct url_case urls[] = {
	{ "nfs://srv/export", "srv", "/export", 0, 0, 600, false },
	{ "NFS://srv/", "srv", "/", 0, 0, 600, false },
	{ "nfs://srv:2049/a/b", "srv", "/a/b", 2049, 0, 600, false },
	{ "nfs://srv:/e", "srv", "/e", 0, 0, 600, false },
	{ "nfs://[::1]:20/e", "::1", "/e", 20, 0, 600, false },
	{ "nfs://[fe80::1]/e", "fe80::1", "/e", 0, 0, 600, false },
	{ "nfs://127.0.0.1/e?vers=3&proto=tcp&soft&timeo=50", "127.0.0.1",
	  "/e", 0, 3, 50, true },
	{ "nfs://h/e?version=3&nfsport=2050", "h", "/e", 2050, 3, 600, false },
	/* the query port wins over the authority's */
	{ "nfs://h:1/e?port=2", "h", "/e", 2, 0, 600, false },
	/* escapes are data once the URL is split */
	{ "nfs://h/a%3Fb", "h", "/a?b", 0, 0, 600, false },
	{ "nfs://h/a%26b?soft", "h", "/a&b", 0, 0, 600, true },
	{ "nfs://h/a%2Fb%2fc", "h", "/a/b/c", 0, 0, 600, false },
	{ "nfs://h/sp%20ace%25", "h", "/sp ace%", 0, 0, 600, false },
	{ "nfs://my%2Dhost/e", "my-host", "/e", 0, 0, 600, false },
	/* empty items are skipped; a value may hold an escaped '&' or '=' */
	{ "nfs://h/e?&&soft&", "h", "/e", 0, 0, 600, true },
	{ "nfs://h/e?timeo=%37", "h", "/e", 0, 0, 7, false },
	{ "nfs://h/e?", "h", "/e", 0, 0, 600, false },
	/* libnfs's version=4: NFSv4, the highest minor version */
	{ "nfs://h/e?version=4", "h", "/e", 0, 4, 600, false },
	/* ':' and '@' in the path are data */
	{ "nfs://h/a:b@c", "h", "/a:b@c", 0, 0, 600, false },
};

static void test_urls(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(urls) / sizeof(urls[0]); i++) {
		const char *argv[] = { "nfsfuse", urls[i].url, "/mnt", NULL };
		struct nfsfuse_opts o;
		struct fuse_args fa;
		char err[256];

		if (parse(argv, &o, &fa, err))
			fail_msg("case %zu '%s': %s", i, urls[i].url, err);
		assert_string_equal(o.host, urls[i].host);
		assert_string_equal(o.export_path, urls[i].path);
		assert_int_equal(o.port, urls[i].port);
		assert_int_equal(o.vers, urls[i].vers);
		assert_int_equal(o.timeo, urls[i].timeo);
		assert_int_equal(o.soft, urls[i].soft);
		assert_int_equal(fa.argc, 1);
		fuse_opt_free_args(&fa);
		opts_free(&o);
	}
}

/* A URL's options are applied after -o's; the same spec from -o and URL
 * give the same options. */
static void test_url_and_o(void **state)
{
	const char *argv[] = { "nfsfuse", "-o", "timeo=20,allow_other",
			       "nfs://h/e?timeo=30", "/mnt", NULL };
	struct nfsfuse_opts o;
	struct fuse_args fa;
	char err[256];

	(void)state;
	assert_int_equal(parse(argv, &o, &fa, err), 0);
	assert_int_equal(o.timeo, 30);
	assert_int_equal(fa.argc, 3);
	fuse_opt_free_args(&fa);
	opts_free(&o);
}

/* quota_statfs: off by default; from -o or a URL; the last word wins. */
static void test_quota_statfs(void **state)
{
	static const struct {
		const char *opt; /* -o value, or NULL */
		const char *spec;
		bool want;
	} cases[] = {
		{ NULL, "s:/e", false },
		{ "quota_statfs", "s:/e", true },
		{ "quota_statfs,noquota_statfs", "s:/e", false },
		{ "noquota_statfs,quota_statfs", "s:/e", true },
		{ NULL, "nfs://s/e?quota_statfs", true },
		{ "quota_statfs", "nfs://s/e?noquota_statfs", false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *a1[] = { "nfsfuse", cases[i].spec, "/mnt", NULL };
		const char *a2[] = { "nfsfuse", "-o", cases[i].opt,
				     cases[i].spec, "/mnt", NULL };
		struct nfsfuse_opts o;
		struct fuse_args fa;
		char err[256];

		if (parse(cases[i].opt ? a2 : a1, &o, &fa, err))
			fail_msg("case %zu: %s", i, err);
		if (o.quota_statfs != cases[i].want)
			fail_msg("case %zu: quota_statfs %d", i,
				 o.quota_statfs);
		assert_int_equal(fa.argc, 1);
		fuse_opt_free_args(&fa);
		opts_free(&o);
	}
}

static void test_list_exports(void **state)
{
	const char *a1[] = { "nfsfuse", "--list-exports", "srv", NULL };
	const char *a2[] = { "nfsfuse", "-o", "mountport=20048",
			     "--list-exports=nfs://[::1]:7", NULL };
	const char *a3[] = { "nfsfuse", "--list-exports", "srv:/x", NULL };
	const char *b1[] = { "nfsfuse", "--list-exports", NULL };
	const char *b2[] = { "nfsfuse", "--list-exports", "srv", "/mnt", NULL };
	const char *b3[] = { "nfsfuse", "--list-exports", "nfs://srv:0", NULL };
	const char *const *bad_cases[] = { b1, b2, b3 };
	struct nfsfuse_opts o;
	struct fuse_args fa;
	char err[256];

	(void)state;
	assert_int_equal(parse(a1, &o, &fa, err), 0);
	assert_true(o.list_exports);
	assert_string_equal(o.host, "srv");
	assert_null(o.export_path);
	assert_null(o.mountpoint);
	fuse_opt_free_args(&fa);
	opts_free(&o);

	assert_int_equal(parse(a2, &o, &fa, err), 0);
	assert_string_equal(o.host, "::1");
	assert_int_equal(o.mountport, 20048);
	assert_null(o.export_path);
	fuse_opt_free_args(&fa);
	opts_free(&o);

	assert_int_equal(parse(a3, &o, &fa, err), 0);
	assert_string_equal(o.host, "srv");
	fuse_opt_free_args(&fa);
	opts_free(&o);

	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(parse(bad_cases[i], &o, &fa, err), -1);
		assert_true(strlen(err) > 0);
		fuse_opt_free_args(&fa);
		opts_free(&o);
	}
}

/* vers= and minorversion=: the version and minor version they give. */
static void test_versions(void **state)
{
	static const struct {
		const char *opt;
		unsigned vers, minor;
	} cases[] = {
		{ "vers=3", 3, OPTS_MINOR_ANY },
		{ "nfsvers=2", 2, OPTS_MINOR_ANY },
		{ "vers=4", 4, OPTS_MINOR_ANY },
		{ "vers=4.1", 4, 1 },
		{ "nfsvers=4.2", 4, 2 },
		{ "minorversion=1", 4, 1 },
		{ "vers=4,minorversion=2", 4, 2 },
		{ "minorversion=2,vers=4", 4, 2 },
		{ "vers=4.2,vers=3", 3, OPTS_MINOR_ANY },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *argv[] = { "nfsfuse", "-o", cases[i].opt, "s:/e",
				       "/mnt", NULL };
		struct nfsfuse_opts o;
		struct fuse_args fa;
		char err[256];

		if (parse(argv, &o, &fa, err))
			fail_msg("'%s': %s", cases[i].opt, err);
		assert_int_equal(o.vers, cases[i].vers);
		assert_int_equal(o.minorversion, cases[i].minor);
		fuse_opt_free_args(&fa);
		opts_free(&o);
	}
}

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
		cmocka_unit_test(test_versions),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_missing_args),
		cmocka_unit_test(test_urls),
		cmocka_unit_test(test_url_and_o),
		cmocka_unit_test(test_quota_statfs),
		cmocka_unit_test(test_list_exports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
