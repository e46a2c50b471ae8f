/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the command-line parser (src/options.h).
 *
 * Input: argv strings separated by NUL bytes (argv[0] first; at most 64).
 * SERVER:/EXPORT may also be an nfs:// URL (percent-decoded, with
 * options in its query).  opts_parse() must return 0 or -1 with a
 * message, must leave FUSE's
 * arguments in a well-formed fuse_args, and everything must be freed by
 * opts_free() and fuse_opt_free_args() (LeakSanitizer checks that).  Every
 * argument is also given to opts_parse_spec() on its own.
 */
#include <fuse_opt.h>

#include "fuzz.h"
#include "options.h"

FUZZ_DEFINE_SINK;

#define MAXARGS 64

static void check_string(const char *s)
{
	if (s)
		fuzz_touch(s, strlen(s) + 1);
}

static void check_opts(const struct nfsfuse_opts *o)
{
	check_string(o->host);
	check_string(o->export_path);
	check_string(o->mountpoint);
	check_string(o->hostname);
	FUZZ_CHECK(o->host && o->host[0] != '\0');
	if (o->export_path)
		FUZZ_CHECK(o->export_path[0] == '/');
	/* --list-exports SERVER needs neither an export nor a mount point. */
	if (o->list_exports)
		return;
	FUZZ_CHECK(o->acregmin <= o->acregmax);
	FUZZ_CHECK(o->acdirmin <= o->acdirmax);
	FUZZ_CHECK(o->export_path && o->mountpoint);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAXARGS + 1];
	struct nfsfuse_opts o;
	struct fuse_args fa = FUSE_ARGS_INIT(0, NULL);
	char err[256];
	char *copy;
	int argc = 0, ret;
	size_t i;

	/* One NUL-terminated copy; argv points into it. */
	copy = malloc(size + 1);
	if (!copy)
		abort();
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[argc++] = copy;
	for (i = 0; i < size && argc < MAXARGS; i++)
		if (copy[i] == '\0')
			argv[argc++] = copy + i + 1;
	argv[argc] = NULL;

	memset(err, 0x55, sizeof(err));
	ret = opts_parse(argc, argv, &o, &fa, err, sizeof(err));
	FUZZ_CHECK(ret == 0 || ret == -1);
	FUZZ_CHECK(memchr(err, '\0', sizeof(err)) != NULL);
	if (ret == 0) {
		/* Help, version and the option list need no server. */
		if (!o.show_help && !o.show_version && !o.list_options)
			check_opts(&o);
	} else {
		FUZZ_CHECK(err[0] != '\0');
	}
	FUZZ_CHECK(fa.argc >= 1 && fa.argv && fa.argv[fa.argc] == NULL);
	for (int a = 0; a < fa.argc; a++)
		check_string(fa.argv[a]);
	fuzz_sink += (uint32_t)strlen(err);
	opts_free(&o);
	fuse_opt_free_args(&fa);

	for (int a = 0; a < argc; a++) {
		memset(&o, 0, sizeof(o));
		if (opts_parse_spec(argv[a], &o, err, sizeof(err)) == 0) {
			FUZZ_CHECK(o.host && o.export_path);
			FUZZ_CHECK(o.export_path[0] == '/');
			check_string(o.host);
			check_string(o.export_path);
		}
		opts_free(&o);
	}
	free(copy);
	return 0;
}
