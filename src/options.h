/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line: `nfsfuse [options] SERVER:/EXPORT MOUNTPOINT`.
 * -o options use the kernel's nfs(5) names where they mean the same; any
 * -o option this table does not know is left for FUSE (allow_other,
 * default_permissions, ...), which rejects what it does not know either.
 */
#ifndef NFSFUSE_OPTIONS_H
#define NFSFUSE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

struct fuse_args;

enum lookupcache_mode { LOOKUPCACHE_ALL, LOOKUPCACHE_POSITIVE, LOOKUPCACHE_NONE };

struct nfsfuse_opts {
	/* the export */
	char *host;         /* owned */
	char *export_path;  /* owned */
	char *mountpoint;   /* owned */

	/* protocol and transport */
	unsigned vers;      /* 3 */
	bool proto_udp;     /* proto=tcp|udp */
	unsigned port;      /* 0: ask the portmapper */
	unsigned mountport; /* 0: ask the portmapper */
	unsigned mountvers; /* 3 (1 with vers=2) */
	unsigned rsize;     /* 0: what the server prefers */
	unsigned wsize;
	unsigned timeo;     /* deciseconds */
	unsigned retrans;
	bool soft;
	bool resvport;
	char *hostname;     /* AUTH_SYS machine name; owned; NULL: gethostname */

	/* caching (seconds) */
	unsigned acregmin, acregmax, acdirmin, acdirmax;
	bool noac;
	bool cto;
	bool rdirplus;
	enum lookupcache_mode lookupcache;
	unsigned long cache_size; /* bytes of data-block cache */

	/* daemon */
	bool foreground;
	bool debug;
	bool show_help;
	bool show_version;
};

/*
 * Parse argv into *o, leaving for FUSE what belongs to it in *fuse_args
 * (which the caller frees with fuse_opt_free_args).  On error returns -1
 * with one line of explanation in err.
 */
int opts_parse(int argc, char **argv, struct nfsfuse_opts *o,
	       struct fuse_args *fuse_args, char *err, size_t errlen);
/* Parse "host:/path" (host may be "[v6]") into o->host / o->export_path. */
int opts_parse_spec(const char *spec, struct nfsfuse_opts *o, char *err,
		    size_t errlen);
void opts_free(struct nfsfuse_opts *o);
void opts_usage(const char *progname);

#endif
