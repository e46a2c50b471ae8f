/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "mount_client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oneshot.h"
#include "pmap_client.h"

#define MNT_TIMEO_DS 50u
#define MNT_RETRANS 2u

/* Where MOUNT version listens at the server, asking the portmapper when
 * port is 0. */
static int mnt_peer(const struct rpc_addr *server, uint16_t port,
		    uint32_t version, int proto, bool resvport,
		    struct oneshot_peer *peer)
{
	int ret;

	if (version != MNT_V3 && version != MNT_V1)
		return -EINVAL;
	if (port == 0) {
		ret = pmap_clnt_getport(server, MNT_PROGRAM, version, proto,
					&port);
		if (ret)
			return ret;
	}
	*peer = (struct oneshot_peer){
		.addr = *server,
		.proto = proto,
		.resvport = resvport,
		.timeo_ds = MNT_TIMEO_DS,
		.retrans = MNT_RETRANS,
		.service = "mountd",
		.prog = MNT_PROGRAM,
		.vers = version,
		.proc_names = mnt_proc_names,
		.nprocs = MNTPROC_COUNT,
	};
	rpc_addr_set_port(&peer->addr, port);
	return 0;
}

int mnt_mount(const struct rpc_addr *server, uint16_t port,
	      uint32_t version, int proto, bool resvport, const char *path,
	      const struct rpc_cred *cred, struct nfs_fh3 *root_fh,
	      uint32_t *flavors, size_t *nflavors, uint32_t *mntstat)
{
	struct mnt_dirpath_args args = { path };
	struct mnt_mnt_res res;
	struct oneshot_peer peer;
	size_t room = *nflavors;
	bool noconn = false;
	int ret;

	*nflavors = 0;
	if (mntstat)
		*mntstat = MNT_STAT_NONE;
	if (strlen(path) > MNT_PATHLEN)
		return -ENAMETOOLONG;
	ret = mnt_peer(server, port, version, proto, resvport, &peer);
	if (ret)
		return ret;
	peer.noconn = &noconn;
	/* The results are copied into res: no reply buffer to keep. */
	ret = oneshot_call(&peer, MNTPROC_MNT, cred, mnt_enc_dirpath_args,
			   &args, version == MNT_V3 ? mnt_dec_mnt3_res
						    : mnt_dec_mnt1_res,
			   &res, NULL, NULL);
	if (ret) {
		if (noconn && mntstat)
			*mntstat = MNT_STAT_NOCONN;
		return ret;
	}
	if (mntstat)
		*mntstat = res.status;
	if (res.status != MNT3_OK)
		return mnt_stat_errno(res.status);
	if (res.fh.len == 0)
		return -EIO; /* no NFS server hands out an empty handle */
	*root_fh = res.fh;
	for (size_t i = 0; i < res.nflavors && i < room; i++)
		flavors[i] = res.flavors[i];
	*nflavors = res.nflavors < room ? res.nflavors : room;
	return 0;
}

int mnt_umount(const struct rpc_addr *server, uint16_t port,
	       uint32_t version, int proto, bool resvport, const char *path,
	       const struct rpc_cred *cred)
{
	struct mnt_dirpath_args args = { path };
	struct oneshot_peer peer;
	int ret;

	if (strlen(path) > MNT_PATHLEN)
		return -ENAMETOOLONG;
	ret = mnt_peer(server, port, version, proto, resvport, &peer);
	if (ret)
		return ret;
	return oneshot_call(&peer, MNTPROC_UMNT, cred, mnt_enc_dirpath_args,
			    &args, NULL, NULL, NULL, NULL);
}

const char *mnt_strerror(int err, uint32_t mntstat)
{
	static __thread char buf[160];

	if (mntstat == MNT_STAT_NOCONN) {
		/* A local or network failure, never the server's word. */
		snprintf(buf, sizeof(buf), "cannot connect to the server's "
			 "MOUNT service: %s", strerror(-err));
		return buf;
	}
	if (mntstat != MNT_STAT_NONE)
		return mnt_stat_str(mntstat);
	switch (err) {
	case 0:
		return "success";
	case -EPROTONOSUPPORT:
		return "MOUNT service not available (not registered, or "
		       "version or transport not supported)";
	case -EOPNOTSUPP:
		return "procedure not offered by the server's MOUNT service";
	case -ECONNREFUSED:
		return "connection refused";
	case -ETIMEDOUT:
		return "no answer from the server (timed out)";
	case -EHOSTUNREACH:
	case -ENETUNREACH:
		return "server unreachable";
	case -EACCES:
		return "credentials refused by the server (RPC auth error)";
	case -EIO:
		return "malformed reply from the server";
	case -ENAMETOOLONG:
		return "export path too long (over 1024 bytes)";
	case -EINVAL:
		return "invalid argument";
	case -ENOMEM:
		return "out of memory";
	default:
		return strerrordesc_np(-err) ? strerrordesc_np(-err)
					     : "unknown error";
	}
}

static char *dup_name(const char *s, uint32_t len)
{
	char *p = malloc((size_t)len + 1);

	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

void mnt_export_list_free(struct mnt_export *list, size_t n)
{
	if (!list)
		return;
	for (size_t i = 0; i < n; i++) {
		for (size_t g = 0; g < list[i].ngroups; g++)
			free(list[i].groups[g]);
		free(list[i].groups);
		free(list[i].dir);
	}
	free(list);
}

/* Copies the decoded list; on failure frees what it made. */
static int copy_exports(struct mnt_export_res *res, struct mnt_export **out,
			size_t *nout)
{
	struct mnt_export *list;
	struct mnt_exportnode ex;
	size_t n = 0;

	list = calloc(res->nexports ? res->nexports : 1, sizeof(*list));
	if (!list)
		return -ENOMEM;
	while (n < res->nexports && mnt_export_next(&res->entries, &ex) == 1) {
		struct mnt_export *e = &list[n++];
		const char *name;
		uint32_t len;

		e->dir = dup_name(ex.dir, ex.dirlen);
		if (!e->dir)
			goto nomem;
		if (ex.ngroups == 0)
			continue;
		e->groups = calloc(ex.ngroups, sizeof(*e->groups));
		if (!e->groups)
			goto nomem;
		while (e->ngroups < ex.ngroups &&
		       mnt_group_next(&ex.groups, &name, &len) == 1) {
			e->groups[e->ngroups] = dup_name(name, len);
			if (!e->groups[e->ngroups])
				goto nomem;
			e->ngroups++;
		}
	}
	*out = list;
	*nout = n;
	return 0;
nomem:
	mnt_export_list_free(list, n);
	return -ENOMEM;
}

int mnt_export_list(const struct rpc_addr *server, uint16_t port,
		    int proto, struct mnt_export **list, size_t *n)
{
	struct mnt_export_res res;
	struct rpc_reply reply;
	struct oneshot_peer peer;
	int ret;

	*list = NULL;
	*n = 0;
	ret = mnt_peer(server, port, MNT_V3, proto, false, &peer);
	if (ret)
		return ret;
	ret = oneshot_call(&peer, MNTPROC_EXPORT, NULL, NULL, NULL,
			   mnt_dec_export_res, &res, &reply, NULL);
	if (ret)
		return ret;
	ret = copy_exports(&res, list, n);
	rpc_reply_release(&reply);
	return ret;
}

size_t mnt_export_list_str(const struct mnt_export *list, size_t n,
			   char *buf, size_t len)
{
	static const char more[] = "...";
	size_t used = 0, i;

	if (len == 0)
		return 0;
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		const char *sep = i ? ", " : "";
		size_t need = strlen(sep) + strlen(list[i].dir);
		/* All but the last must leave room for ", ..." after them. */
		size_t reserve = i + 1 < n ? strlen(", ") + strlen(more) : 0;

		if (used + need + reserve >= len) {
			if (used + strlen(sep) + strlen(more) < len)
				snprintf(buf + used, len - used, "%s%s", sep,
					 more);
			break;
		}
		used += (size_t)snprintf(buf + used, len - used, "%s%s", sep,
					 list[i].dir);
	}
	return i;
}
