/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MOUNT protocol client (program 100005, v3 or v1): the root file handle
 * of an export at mount time, UMNT at unmount, and the export list for
 * error messages and diagnostics.
 *
 * Each call opens a short-lived connection (soft, 5 s timeout, 2 retries;
 * see oneshot.h), makes one call and closes it.  A port of 0 means "ask
 * the portmapper"; the port in server is ignored.
 *
 * Errors come in two kinds, and the caller can print one clear line for
 * either:
 *   - the server answered with a mount status: *mntstat holds it and the
 *     return value is mnt_stat_errno(*mntstat);
 *   - the call itself failed (no portmapper, MOUNT not registered, refused
 *     connection, timeout, malformed reply): *mntstat is MNT_STAT_NONE.
 * mnt_strerror(ret, mntstat) is the text for both.  The session's mount
 * does this (port, version, transport and resvport from the options):
 *
 *	ret = mnt_mount(&addr, port, vers, proto, resvport, path, &cred,
 *			&root, flavors, &nflavors, &mntstat);
 *	if (ret) {
 *		char ex[512] = "";
 *		struct mnt_export *list;
 *		size_t n;
 *
 *		if (mntstat != MNT_STAT_NONE &&
 *		    mnt_export_list(&addr, port, proto, &list, &n) == 0) {
 *			mnt_export_list_str(list, n, ex, sizeof(ex));
 *			mnt_export_list_free(list, n);
 *		}
 *		snprintf(err, errlen, "mount failed: %s%s%s%s",
 *			 mnt_strerror(ret, mntstat), *ex ? " (exports: " : "",
 *			 ex, *ex ? ")" : "");
 *	}
 *
 * and main() puts "nfsfuse: HOST:PATH: " before it: "nfsfuse:
 * 127.0.0.1:/nope: mount failed: permission denied (exports: /tmp/x)".
 * (nfs-ganesha answers MNT3ERR_ACCES, not NOENT, for a path it does not
 * export.)
 */
#ifndef NFSFUSE_PROTO_MOUNT_CLIENT_H
#define NFSFUSE_PROTO_MOUNT_CLIENT_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../xdr/mount.h"
#include "../../xdr/rpc_msg.h"
#include "../rpc/addr.h"

/* *mntstat when no mount status was received. */
#define MNT_STAT_NONE UINT32_MAX
/* No connection to the MOUNT service could be made (the error is local
 * or the network's, e.g. a refused bind()): no call went out. */
#define MNT_STAT_NOCONN (UINT32_MAX - 1)

/*
 * MNT path with MOUNT version (3 or 1) over proto (IPPROTO_TCP; UDP when
 * the transport has it), from a reserved port when resvport.  cred is the
 * AUTH_SYS identity for the call (NULL: AUTH_NONE; most servers want
 * AUTH_SYS here).
 *
 * On success *root_fh is the export's handle (v1: 32 bytes), and
 * flavors[0..*nflavors) the server's auth flavors in its order of
 * preference: on input *nflavors is the room in flavors (flavors may be
 * NULL when it is 0), on output how many were stored.  v1 has no flavor
 * list: *nflavors is 0.  An empty v3 list is what old servers send; the
 * caller decides what it means.  mntstat may be NULL.
 *
 * Returns 0, mnt_stat_errno() of a refusal, or a transport error as
 * pmap_clnt_getport()/rpc_clnt_call() give them; -ENAMETOOLONG when path
 * exceeds MNT_PATHLEN, -EINVAL for a version other than 1 or 3.
 * (nfs-ganesha 4.3 registers MOUNT v1 but answers its MNT with
 * PROC_UNAVAIL: -EOPNOTSUPP.)
 */
int mnt_mount(const struct rpc_addr *server, uint16_t port,
	      uint32_t version, int proto, bool resvport, const char *path,
	      const struct rpc_cred *cred, struct nfs_fh3 *root_fh,
	      uint32_t *flavors, size_t *nflavors, uint32_t *mntstat);

/*
 * UMNT path: tells the server's mount list we are gone.  The server keeps
 * no state that matters, so a failure is for the caller to log, not to act
 * on.  Returns 0 or a transport error.
 */
int mnt_umount(const struct rpc_addr *server, uint16_t port,
	       uint32_t version, int proto, bool resvport, const char *path,
	       const struct rpc_cred *cred);

/*
 * Text for a failure of mnt_mount(): mnt_stat_str(mntstat) when a status
 * was received, else a lower-case description of err ("connection
 * refused", "MOUNT service not available (...)", ...).
 * Never NULL; static (for MNT_STAT_NOCONN, thread-local) storage.
 */
const char *mnt_strerror(int err, uint32_t mntstat);

/*
 * The export list (MOUNT v3 EXPORT).  *list is a malloc'd array of *n
 * owned entries (struct mnt_export in xdr/mount.h: dir and groups are
 * NUL-terminated copies); free it with mnt_export_list_free().
 */
int mnt_export_list(const struct rpc_addr *server, uint16_t port,
		    int proto, struct mnt_export **list, size_t *n);
void mnt_export_list_free(struct mnt_export *list, size_t n);

/* "/a, /b" into buf (always NUL-terminated; "..." at the end when cut).
 * Returns the number of exports written. */
size_t mnt_export_list_str(const struct mnt_export *list, size_t n,
			   char *buf, size_t len);

#endif
