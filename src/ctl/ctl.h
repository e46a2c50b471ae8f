/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The control socket of a running mount, for nfsfusectl: statistics, what
 * is cached for a file and why, dropping caches, tuning cache options at
 * run time and the live trace.
 *
 * A Unix stream socket (0600, in a 0700 directory, path from ctl_path.h),
 * served by one thread of its own with a poll loop.  A client sends one
 * command line and gets one answer, then the connection is closed:
 *
 *     "OK\n" followed by the text of the answer, or
 *     "ERR <one line>\n".
 *
 * `trace` is the exception: after "OK\n" the connection stays open and
 * receives trace lines (trace.h) until the client closes it.  A trace line
 * always starts with a time stamp, so it is never "OK" or "ERR ...".
 *
 * Commands (what nfsfusectl sends):
 *     stats [json|prometheus]
 *     cache FILEID PATH     (PATH only for the answer's header)
 *     drop [FILEID]         (no FILEID: every file)
 *     set KEY=VALUE...
 *     trace
 *     help
 * plus the commands of hooks->cmds (e.g. `locks` from the lock layer).
 *
 * This layer knows nothing of FUSE: the daemon fills struct ctl_hooks.
 * Every hook runs on the control thread, one at a time, concurrently with
 * the FUSE workers: hooks take the locks they need.
 */
#ifndef NFSFUSE_CTL_H
#define NFSFUSE_CTL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct rpc_clnt;
struct rpc_proc_stats;
struct ctl;

/* Where a hook writes its answer.  On error (a hook returning -errno) the
 * text written so far is the error message; with none, strerror(). */
struct ctl_out;
void ctl_printf(struct ctl_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Who sent the command (SO_PEERCRED and SO_PEERGROUPS of the
 * connection), for commands that answer differently for root. */
#define CTL_PEER_MAXGROUPS 64
struct ctl_peer {
	pid_t pid;
	uid_t uid;
	gid_t gid;
	unsigned ngroups;  /* supplementary groups; the first 64 */
	gid_t groups[CTL_PEER_MAXGROUPS];
};
/* NULL when the command did not come from a socket (tests). */
const struct ctl_peer *ctl_out_peer(const struct ctl_out *o);

/* Extra statistics from the daemon (inodes held, lock mode, ...): in the
 * text answer "name value" lines, in JSON top-level keys (so not "rpc" or
 * "cache"), in Prometheus text an untyped nfsfuse_NAME (a number) or a
 * gauge nfsfuse_NAME_info{value="..."} 1 (a string).  Names are
 * [a-z0-9_]. */
struct ctl_stats;
void ctl_stat_u64(struct ctl_stats *s, const char *name, uint64_t value);
void ctl_stat_str(struct ctl_stats *s, const char *name, const char *value);

/*
 * A command supplied by an upper layer: one table line adds it, e.g.
 *     { "locks", "byte-range locks held and waited for", lock_ctl_dump },
 * argv[0] is the command name.  Returns 0 or -errno (see ctl_out).
 */
struct ctl_cmd_ext {
	const char *name;
	const char *help;
	int (*run)(void *ctx, int argc, char **argv, struct ctl_out *out);
};

/*
 * Calls of another RPC program than NFS (RQUOTA), whose clients come and
 * go so that no one struct rpc_clnt holds its counters: get(ctx, proc,
 * st) copies them, or returns -errno to leave proc out.  Shown like the
 * NFS procedures: in the text answer a table under "NAME:", in JSON the
 * top-level key NAME with one object per procedure.
 */
struct ctl_rpc_prog {
	const char *name;              /* "rquota"; [a-z0-9_] */
	const char *const *proc_names; /* indexed by procedure number */
	unsigned nprocs;
	int (*get)(void *ctx, unsigned proc, struct rpc_proc_stats *st);
};

struct ctl_hooks {
	void *ctx;                      /* passed to every hook */

	/* The server's name and the export, for the Prometheus labels;
	 * may be NULL.  They must outlive the ctl. */
	const char *server;
	const char *export_path;

	/* Per-procedure RPC statistics; rpc may be NULL (then only the
	 * cache counters are shown).  proc_names indexed by procedure
	 * number, nprocs entries (nfs_version3.names / .nnames). */
	struct rpc_clnt *rpc;
	const char *const *proc_names;
	unsigned nprocs;
	/* Optional: every connection of the NFS client (nconnect=N),
	 * conns[0] being rpc.  With more than one, the per-procedure
	 * figures are their sums, and each is also shown on its own. */
	struct rpc_clnt *const *conns;
	unsigned nconns;

	/* What is cached for the file with this fileid (st_ino on the
	 * mount), until when and why: text lines into out.  -ENOENT when the
	 * daemon holds no such file.  NULL: `cache` is not supported. */
	int (*describe)(void *ctx, uint64_t fileid, struct ctl_out *out);

	/* Drop the caches of one file, or of every file when all is true
	 * (fileid is then 0).  -ENOENT when the file is not known. */
	int (*drop)(void *ctx, uint64_t fileid, bool all);

	/* Set one cache option at run time ("acregmin", "5").  0, or -EINVAL
	 * with a reason written to out. */
	int (*set)(void *ctx, const char *key, const char *value,
		   struct ctl_out *out);

	/* Optional: extra statistics (ctl_stat_u64 / ctl_stat_str). */
	void (*stats_extra)(void *ctx, struct ctl_stats *s);

	/* Optional: other programs' calls; the table must outlive the ctl. */
	const struct ctl_rpc_prog *progs;
	unsigned nprogs;

	/* Optional: more commands; the table must outlive the ctl. */
	const struct ctl_cmd_ext *cmds;
	unsigned ncmds;
};

/*
 * Create the socket for mountpoint (canonicalized with realpath: call this
 * before fuse_session_mount, see ctl_path.h) and start the control thread.
 * A socket file left by a dead daemon is replaced; one that a live daemon
 * answers on gives -EADDRINUSE.  *h is copied.  Returns 0 or -errno.
 */
int ctl_start(const char *mountpoint, const struct ctl_hooks *h,
	      struct ctl **out);

/* Stop the thread, close every connection (trace listeners see EOF) and
 * remove the socket file if it is still ours.  NULL is a no-op. */
void ctl_stop(struct ctl *c);

/* The socket path, for messages and tests. */
const char *ctl_socket_path(const struct ctl *c);

#endif
