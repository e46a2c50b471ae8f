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
#include <stdio.h>

struct fuse_args;

/* vers=4 without a minor version: the highest 4.x both sides speak. */
#define OPTS_MINOR_ANY 4294967295u
/* The NFSv4 minor versions this client speaks (sessions: 4.1 and up). */
#define OPTS_MINOR_MIN 1u
#define OPTS_MINOR_MAX 2u

/* uid=/gid= not given (4294967295 is no id). */
#define OPTS_ID_NONE 4294967295u

enum lookupcache_mode { LOOKUPCACHE_ALL, LOOKUPCACHE_POSITIVE, LOOKUPCACHE_NONE };
/* local_lock=: which kinds of lock stay local (nfs(5)); index of the word. */
enum local_lock_mode { LOCAL_LOCK_NONE, LOCAL_LOCK_FLOCK, LOCAL_LOCK_POSIX,
		       LOCAL_LOCK_ALL };
/* excl=: how O_CREAT|O_EXCL goes on the wire; index of the word. */
enum excl_mode { EXCL_EXCLUSIVE, EXCL_GUARDED };

struct nfsfuse_opts {
	/* the export */
	char *host;         /* owned */
	char *export_path;  /* owned */
	char *mountpoint;   /* owned */

	/* protocol and transport */
	unsigned vers;      /* 0: auto (3, else 2, else 4.x), or 2, 3 or 4 */
	/* minorversion= or the .N of vers=4.N: with vers 4, the NFSv4 minor
	 * version; OPTS_MINOR_ANY: the highest both sides speak */
	unsigned minorversion;
	bool proto_udp;     /* proto=tcp|udp */
	unsigned port;      /* 0: ask the portmapper */
	unsigned mountport; /* 0: ask the portmapper */
	unsigned nlmport;   /* the server's NLM; 0: ask the portmapper */
	unsigned aclport;   /* the server's NFSACL; 0: ask the portmapper */
	unsigned mountvers; /* 3 (1 with vers=2); 0 with vers auto: follows */
	unsigned mountproto; /* mountproto=: 0 tcp, 1 udp; default: as proto= */
	unsigned rsize;     /* 0: what the server prefers */
	unsigned wsize;
	unsigned timeo;     /* deciseconds; default 600 (TCP), 11 (UDP) */
	unsigned retrans;   /* default 2 (TCP), 3 (UDP) */
	unsigned nconnect;  /* TCP connections to the NFS server, 1-16 */
	bool soft;
	bool softerr;       /* soft, and a timeout is ETIMEDOUT rather than EIO */
	bool resvport;
	char *hostname;     /* AUTH_SYS machine name; owned; NULL: gethostname */
	/* uid=, gid=: every call carries this AUTH_SYS uid / gid (as the
	 * server knows it, not translated); OPTS_ID_NONE: the caller's */
	unsigned uid, gid;

	/* caching (seconds) */
	unsigned acregmin, acregmax, acdirmin, acdirmax;
	bool noac;
	bool cto;
	bool dircomplete;   /* trust directories made here (fs.c) */
	bool rdirplus;
	enum lookupcache_mode lookupcache;
	unsigned long cache_size; /* bytes of data-block cache */
	unsigned excl;      /* enum excl_mode */

	/* locks (src/lock/) */
	bool nolock;          /* every lock stays local */
	unsigned local_lock;  /* enum local_lock_mode */
	char *statedir;       /* owned; NULL: $XDG_STATE_HOME/nfsfuse/NAME */
	char *clientaddr;     /* owned; IPv4 source of NLM calls, or NULL */
	char *idmap_domain;   /* owned; NFSv4 owner domain; NULL: the system's */
	unsigned nlm_callback; /* 0 yes: take callbacks when we can; 1 no */

	/* side protocols */
	bool noacl;          /* acl (default: when the server has NFSACL) */
	bool quota_statfs;   /* statfs shows the caller's RQUOTA user quota */

	/* daemon */
	bool foreground;
	bool debug;
	bool show_help;
	bool show_version;
	bool list_options;  /* --list-options: every -o word we take */
	/* --list-exports SERVER: print the export list (host, mountport
	 * set; export_path and mountpoint NULL) and exit */
	bool list_exports;
};

/*
 * Parse argv into *o, leaving for FUSE what belongs to it in *fuse_args
 * (which the caller frees with fuse_opt_free_args).  On error returns -1
 * with one line of explanation in err.
 */
int opts_parse(int argc, char **argv, struct nfsfuse_opts *o,
	       struct fuse_args *fuse_args, char *err, size_t errlen);
/* Parse "host:/path" (host may be "[v6]") or an nfs:// URL (whose port
 * and query options set the fields they name) into o->host /
 * o->export_path. */
int opts_parse_spec(const char *spec, struct nfsfuse_opts *o, char *err,
		    size_t errlen);
void opts_free(struct nfsfuse_opts *o);
void opts_usage(const char *progname);
/* Every -o word the parser takes, one a line (--list-options): the man
 * page test checks that each is documented. */
void opts_list_names(FILE *f);

#endif
