/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Disk quotas of the mount's export, from the server's rquotad: for
 * `nfsfusectl quota` (the control socket) and, with -o quota_statfs, for
 * statfs, which then shows the caller's own quota rather than the whole
 * file system.
 *
 * Where rquotad listens is asked of the portmapper at the first use and
 * kept; it is asked again when a call finds nobody there.  Answers for
 * statfs are kept QUOTA_STATFS_TTL seconds per uid, failures too, so that
 * `df` in a loop costs one RQUOTA call per uid every few seconds.
 *
 * Thread-safe: FUSE workers and the control thread call in at once; the
 * lock is never held across a call to the server.
 */
#ifndef NFSFUSE_FS_QUOTA_H
#define NFSFUSE_FS_QUOTA_H

#include <netinet/in.h>
#include <stdbool.h>
#include <sys/statvfs.h>

#include "../ctl/ctl.h"
#include "../proto/rquota_client.h"

#define QUOTA_STATFS_TTL 5 /* seconds */

struct fs_quota;

/*
 * server (its port is ignored) and export_path name the export; host is
 * the server as the user wrote it, for messages ("HOST:/export");
 * machinename is the AUTH_SYS machine name for the calls.  Nothing is
 * sent yet.  Returns 0 with *out, or -ENOMEM.
 */
int fs_quota_new(const struct rpc_addr *server, int proto,
		 const char *host, const char *export_path,
		 const char *machinename, struct fs_quota **out);
void fs_quota_free(struct fs_quota *q);

/*
 * The quota of id (enum rquota_type) asked with cred: as
 * rquota_getquota(), finding rquotad first.
 */
int fs_quota_get(struct fs_quota *q, const struct rpc_cred *cred,
		 uint32_t type, uint32_t id, struct rquota_dqblk *dq);

/*
 * statfs: narrow *sv (what FSSTAT said) to cred's user quota when there
 * is one (quota_statfs_apply).  When there is none, or asking fails,
 * *sv stays as it is: the first such fallback is logged at info level.
 */
void fs_quota_statfs(struct fs_quota *q, const struct rpc_cred *cred,
		     struct statvfs *sv);

/*
 * The control socket's `quota [user|group ID]`: the quota of the peer's
 * own uid without arguments.  A peer other than root may ask about its
 * own uid and its own groups only, as quota(1) lets an ordinary user.
 * The answer is quota_report_write()'s lines.  0 or -errno with the
 * reason written to out.
 */
int fs_quota_ctl(struct fs_quota *q, int argc, char **argv,
		 struct ctl_out *out);

/* The program's counters for `nfsfusectl stats` (struct ctl_rpc_prog). */
int fs_quota_stats(struct fs_quota *q, unsigned proc,
		   struct rpc_proc_stats *st);

#endif
