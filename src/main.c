/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfsfuse: mount an NFS export through FUSE.
 *
 * main() is a ladder: each set-up step has its unwind label below, in the
 * opposite order.  Every failure before the mount exists prints one line
 * naming the cause and exits non-zero, before the daemon detaches.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fuse_lowlevel.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/bdi.h"
#include "cache/data.h"
#include "cache/groups.h"
#include "daemon.h"
#include "fs/fs.h"
#include "fs/fs_wait.h"
#include "fs/fs_ctl.h"
#include "fs/fs_names.h"
#include "fs/fs_quota.h"
#include "fs/killpriv.h"
#include "lock/lock.h"
#include "base/log.h"
#include "base/userns.h"
#include "base/workers.h"
#include "options.h"
#include "proto/mount_client.h"
#include "proto/nfs.h"
#include "proto/nfs4_deleg.h"
#include "proto/nfs4_idmap.h"
#include "proto/nfs4_lock.h"
#include "proto/nfs4_session.h"
#include "proto/pmap_client.h"
#include "session.h"

#ifndef NFSFUSE_VERSION
#define NFSFUSE_VERSION "unknown"
#endif

/* s with ',' and '\\' escaped by a backslash, as libfuse reads an option
 * list (and fusermount3 after it): a comma in a name stays in the name. */
static char *escape_opt(const char *s)
{
	char *out = malloc(2 * strlen(s) + 1), *q = out;

	if (!out)
		return NULL;
	for (; *s; s++) {
		if (*s == ',' || *s == '\\')
			*q++ = '\\';
		*q++ = *s;
	}
	*q = '\0';
	return out;
}

static int add_fsname(struct fuse_args *fa, const struct nfsfuse_opts *o)
{
	char *host = escape_opt(o->host), *path = escape_opt(o->export_path);
	char *opt;
	int ret = -1;

	/* /proc/mounts then says "server:/export /mnt fuse.nfsfuse", as a
	 * kernel NFS mount would name its source.  Escaped: a comma in an
	 * export path (or a %2C in a URL) must not become an option. */
	if (host && path && asprintf(&opt, "fsname=%s:%s,subtype=nfsfuse",
				     host, path) >= 0) {
		ret = fuse_opt_add_arg(fa, "-o") || fuse_opt_add_arg(fa, opt)
			? -1 : 0;
		free(opt);
	}
	free(host);
	free(path);
	if (ret)
		fprintf(stderr, "nfsfuse: out of memory\n");
	return ret;
}

/* The kernel checks permissions before every call, from the mode bits (and
 * the POSIX ACLs, when fs_init gets the kernel to enforce them), for every
 * caller on every mount: see "Permissions" in the README. */
static int add_default_permissions(struct fuse_args *fa)
{
	return fuse_opt_add_arg(fa, "-o") ||
	       fuse_opt_add_arg(fa, "default_permissions") ? -1 : 0;
}

static int check_mountpoint(const char *mnt)
{
	struct stat st;

	if (stat(mnt, &st) < 0) {
		fprintf(stderr, "nfsfuse: mount point '%s': %s\n", mnt,
			strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "nfsfuse: mount point '%s' is not a directory\n",
			mnt);
		return -1;
	}
	return 0;
}

/*
 * The loop ends only when every request in progress has returned, and a
 * request waiting on a dead server (hard mount) never would: once the
 * kernel connection is gone (an unmount), the waits are ended, as no
 * answer can reach the kernel any more.  Meanwhile the same thread ends
 * the waits of callers that are dying (fs_waits_poll()).
 */
struct exit_watch {
	struct fuse_session *se;
	struct nfs4_session *v4; /* NFSv4: its teardown begins too */
	int done;               /* [atomic] the loop returned */
};

/*
 * A signal that ends the daemon goes to a handler of ours first, and
 * on to libfuse's (which ends the loop) only once the thread that expires
 * the kernel's entries has stopped (fs_names.h): that thread may wait
 * on a directory's lock until a request in it is answered, and once
 * the loop ends no request is.
 */
static const int exit_signals[] = { SIGHUP, SIGINT, SIGTERM };
static struct sigaction fuse_exit_handlers[3];
static bool exit_signal_ours[3];
static volatile sig_atomic_t exit_signal;

static void take_exit_signal(int sig)
{
	exit_signal = sig;
}

static void exit_signals_take(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = take_exit_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t k = 0; k < 3; k++) {
		/* Only where libfuse handles it (not one ignored, as
		 * under nohup). */
		if (sigaction(exit_signals[k], NULL, &fuse_exit_handlers[k]) ||
		    fuse_exit_handlers[k].sa_handler == SIG_IGN ||
		    fuse_exit_handlers[k].sa_handler == SIG_DFL)
			continue;
		exit_signal_ours[k] = sigaction(exit_signals[k], &sa, NULL) == 0;
	}
}

static void exit_signals_give_back(void)
{
	for (size_t k = 0; k < 3; k++) {
		if (!exit_signal_ours[k])
			continue;
		sigaction(exit_signals[k], &fuse_exit_handlers[k], NULL);
		exit_signal_ours[k] = false;
	}
}

static void *watch_exit(void *arg)
{
	struct exit_watch *w = arg;

	while (!__atomic_load_n(&w->done, __ATOMIC_RELAXED)) {
		int sig = exit_signal;

		if (sig) {
			fs_names_stop();
			exit_signals_give_back();
			kill(getpid(), sig);
			exit_signal = 0;
		}
		if (fuse_session_exited(w->se)) {
			fs_waits_abort();
			/* Bounds the state operations of requests still in
			 * progress (a CLOSE at the last release) too. */
			if (w->v4)
				nfs4_session_teardown_begin(w->v4,
							    NFS4_TEARDOWN_S);
			break;
		}
		fs_waits_poll();
		usleep(200 * 1000);
	}
	return NULL;
}

static int run_session(struct fs *fs, struct fuse_args *fa,
		       const struct nfsfuse_opts *o)
{
	struct fuse_loop_config *cfg;
	struct fuse_session *se;
	struct ctl_hooks hooks;
	struct ctl *ctl = NULL;
	struct exit_watch watch = { 0 };
	struct nfs4_deleg_hooks dhooks;
	pthread_t watcher;
	bool watching = false;
	char *canon;
	int ret = 1;

	se = fuse_session_new(fa, &fs_ops, sizeof(fs_ops), fs);
	if (!se)
		return 1; /* libfuse has said why (e.g. an unknown option) */
	fs->se = se;
	/* A recall tells the kernel too: only while the session is. */
	fs_deleg_hooks(fs, &dhooks);
	nfs4_delegs_set_hooks(fs->nfs, &dhooks);
	if (fuse_set_signal_handlers(se))
		goto out_session;
	/* Before the mount: ctl_start resolves the mount point's path,
	 * which must not wait on this very daemon. */
	fs_ctl_hooks(fs, &hooks);
	if (ctl_start(o->mountpoint, &hooks, &ctl))
		ctl = NULL; /* logged; the mount works without it */
	/* Resolved before the mount: after it, the path leads to us. */
	canon = realpath(o->mountpoint, NULL);
	if (fuse_session_mount(se, o->mountpoint)) {
		fprintf(stderr, "nfsfuse: cannot mount on '%s'\n",
			o->mountpoint);
		free(canon);
		goto out_ctl;
	}
	if (killpriv_attach(se))
		nf_log(NF_LOG_WARNING, "cannot take over /dev/fuse I/O: a "
		       "non-owner's write to a setuid file will fail");
	if (!canon || bdi_of_mount(canon, fs->bdi, sizeof(fs->bdi)))
		nf_log(NF_LOG_DEBUG, "%s: backing device not found: kernel "
		       "read-ahead stays as it is", o->mountpoint);
	free(canon);
	if (!o->foreground)
		nf_log_to_syslog("nfsfuse");
	daemon_ready(0);
	cfg = fuse_loop_cfg_create();
	if (!cfg)
		goto out_unmount;
	fuse_loop_cfg_set_max_threads(cfg, NF_FUSE_WORKERS);
	fuse_loop_cfg_set_idle_threads(cfg, 8);
	watch.se = se;
	watch.v4 = fs->nfs->v4;
	watching = pthread_create(&watcher, NULL, watch_exit, &watch) == 0;
	/* The entries' thread runs only where a signal cannot end the loop
	 * under it: with the watcher to stop it first. */
	if (watching && fs_names_start(fs) == 0)
		exit_signals_take();
	ret = fuse_session_loop_mt(se, cfg) ? 1 : 0;
	/* Unmounted (no entry to expire any more), or ended by a signal the
	 * watcher passed on once the thread had stopped. */
	fs_names_stop();
	exit_signals_give_back();
	/* The control socket goes first, for a mount made on the same
	 * directory at once (ctl.c waits for it). */
	ctl_stop(ctl);
	ctl = NULL;
	if (watching) {
		__atomic_store_n(&watch.done, 1, __ATOMIC_RELAXED);
		pthread_join(watcher, NULL);
	}
	fs_lock_session_end(fs);
	fuse_loop_cfg_destroy(cfg);
out_unmount:
	fuse_session_unmount(se);
out_ctl:
	ctl_stop(ctl);
	fuse_remove_signal_handlers(se);
out_session:
	/* Taking the hooks away waits for a recalled write delegation's
	 * flush in progress: bounded like the rest of the teardown. */
	if (fs->nfs->v4)
		nfs4_session_teardown_begin(fs->nfs->v4, NFS4_TEARDOWN_S);
	nfs4_delegs_set_hooks(fs->nfs, NULL);
	fuse_session_destroy(se);
	return ret;
}

/* NLM locks, unless nolock: after session_open, so after daemon_start()
 * (the lock manager's threads would not survive the fork).  The NLM
 * caller name is hostname= as given, else HOST.nfsfuse-UID: never the
 * bare host name of the kernel's NFS client, and one per user, so that
 * servers keep each owner's locks apart. */
static int start_locks(struct fs *fs, const struct session *s,
		       const struct nfsfuse_opts *o)
{
	char caller[sizeof(s->machinename) + 32];
	struct lockmgr_config cfg = {
		.server = s->addr,
		.server_name = o->host,
		.caller_name = caller,
		.clientaddr = o->clientaddr,
		.statedir = o->statedir,
		.callbacks = o->nlm_callback == 0,
		.nfs_vers = s->nfs.v->vers,
		.nlm_port = (uint16_t)o->nlmport,
	};
	char err[512];

	if (o->nolock)
		return 0;
	/* NFSv4 has locks of its own, on the mount's session: no NLM, no
	 * NSM, no callback port. */
	if (s->nfs.v->vers == 4) {
		int ret = nfs4_locks_start(fs->nfs, &fs->v4locks);

		if (ret) {
			fprintf(stderr, "nfsfuse: locks: %s\n", strerror(-ret));
			return -1;
		}
		return 0;
	}
	if (o->hostname)
		snprintf(caller, sizeof(caller), "%s", s->machinename);
	else
		snprintf(caller, sizeof(caller), "%s.nfsfuse-%u",
			 s->machinename, (unsigned)geteuid());
	if (lockmgr_start(&cfg, &fs->locks, err, sizeof(err))) {
		fprintf(stderr, "nfsfuse: locks: %s\n", err);
		return -1;
	}
	return 0;
}

/*
 * --list-exports SERVER: MOUNT EXPORT, printed as showmount -e prints it
 * ("/path  group1,group2", "(everyone)" for no groups).  0, or 1 with one
 * line on stderr.
 */
static int list_exports(const struct nfsfuse_opts *o)
{
	struct rpc_addr addrs[SESSION_MAX_ADDRS];
	struct mnt_export *list;
	char err[512];
	size_t n;
	int naddrs, ret = 0;

	naddrs = session_resolve(o->host, addrs, SESSION_MAX_ADDRS, err,
				 sizeof(err));
	if (naddrs < 0) {
		fprintf(stderr, "nfsfuse: %s\n", err);
		return 1;
	}
	/* As a mount does: the next address only when one did not answer. */
	for (int i = 0; i < naddrs; i++) {
		ret = mnt_export_list(&addrs[i], (uint16_t)o->mountport,
				      IPPROTO_TCP, &list, &n);
		if (!session_unreachable(ret))
			break;
	}
	if (ret) {
		fprintf(stderr, "nfsfuse: %s: cannot list exports: %s\n",
			o->host, mnt_strerror(ret, MNT_STAT_NONE));
		return 1;
	}
	printf("Export list for %s:\n", o->host);
	for (size_t i = 0; i < n; i++) {
		printf("%s ", list[i].dir);
		for (size_t g = 0; g < list[i].ngroups; g++)
			printf("%s%s", g ? "," : " ", list[i].groups[g]);
		printf("%s\n", list[i].ngroups ? "" : " (everyone)");
	}
	mnt_export_list_free(list, n);
	return fflush(stdout) ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct fuse_args fa = FUSE_ARGS_INIT(0, NULL);
	struct acache_params params;
	struct nfsfuse_opts o;
	struct session s;
	struct fs fs;
	char err[512];
	int ret = 1;

	if (opts_parse(argc, argv, &o, &fa, err, sizeof(err))) {
		fprintf(stderr, "nfsfuse: %s\n", err);
		goto out_opts;
	}
	if (o.show_help) {
		opts_usage(argv[0]);
		ret = 0;
		goto out_opts;
	}
	if (o.list_options) {
		opts_list_names(stdout);
		ret = fflush(stdout) ? 1 : 0;
		goto out_opts;
	}
	if (o.show_version) {
		printf("nfsfuse %s\n", NFSFUSE_VERSION);
		ret = 0;
		goto out_opts;
	}
	if (o.debug)
		nf_log_level = NF_LOG_DEBUG;
	if (o.list_exports) {
		ret = list_exports(&o);
		goto out_opts;
	}
	if (userns_load_error())
		nf_log(NF_LOG_WARNING, "cannot read this process's user "
		       "namespace maps (%s): ids go to the server as they are",
		       strerror(-userns_load_error()));
	else if (userns_active())
		nf_log(NF_LOG_INFO, "in a user namespace: ids are translated "
		       "to the machine's for the server");
	if (check_mountpoint(o.mountpoint) || add_fsname(&fa, &o) ||
	    add_default_permissions(&fa))
		goto out_opts;

	if (o.vers != 2 && o.vers != 3)
		nfs4_idmap_init(o.idmap_domain);
	/* Before any thread exists: the RPC client starts one. */
	if (!o.foreground && daemon_start()) {
		fprintf(stderr, "nfsfuse: cannot fork: %m\n");
		goto out_opts;
	}
	if (session_open(&s, &o, err, sizeof(err))) {
		fprintf(stderr, "nfsfuse: %s:%s: %s\n", o.host, o.export_path,
			err);
		goto out_opts;
	}

	memset(&fs, 0, sizeof(fs));
	fs.nfs = &s.nfs;
	fs.opts = &o;
	fs.acl = s.acl;
	pthread_mutex_init(&fs.aclfs_lock, NULL);
	snprintf(fs.machinename, sizeof(fs.machinename), "%s",
		 s.machinename);
	params = (struct acache_params){
		.regmin = o.acregmin, .regmax = o.acregmax,
		.dirmin = o.acdirmin, .dirmax = o.acdirmax,
		.noac = o.noac,
		.time_delta_ns = (int64_t)s.nfs.info.time_delta.seconds *
				 NS_PER_SEC + s.nfs.info.time_delta.nseconds,
	};
	fs.dc = dcache_new(o.cache_size);
	fs.groups = groups_cache_new();
	fs.inodes = fs.dc && fs.groups ? inode_table_new(&s.nfs.root, FUSE_ROOT_ID, &params,
					    fs.dc) : NULL;
	if (!fs.inodes) {
		fprintf(stderr, "nfsfuse: out of memory\n");
		goto out_cache;
	}
	if (fs_quota_new(&s.addr, o.proto_udp ? IPPROTO_UDP : IPPROTO_TCP,
			 o.host, o.export_path, s.machinename, &fs.quota)) {
		fprintf(stderr, "nfsfuse: out of memory\n");
		goto out_inodes;
	}
	if (start_locks(&fs, &s, &o))
		goto out_quota;
	ret = run_session(&fs, &fa, &o);
	/* Unmounted: what the server holds for us goes back, in a bounded
	 * time (a dead server must not keep the daemon alive). */
	if (s.nfs.v4)
		nfs4_session_teardown_begin(s.nfs.v4, NFS4_TEARDOWN_S);
	lockmgr_stop(fs.locks);
	nfs4_locks_stop(fs.v4locks);
	/* Before the caches go: calls still in flight (sent ahead, to a
	 * server that stopped answering) end with the connections, and their
	 * completions touch the inodes and blocks they were sent for.  The
	 * call at the end then has nothing left to do. */
	session_close(&s);
	fs_dir_drop_kept();
out_quota:
	fs_quota_free(fs.quota);
out_inodes:
	inode_table_free(fs.inodes);
out_cache:
	groups_cache_free(fs.groups);
	dcache_free(fs.dc);
	pthread_mutex_destroy(&fs.aclfs_lock);
	session_close(&s);
out_opts:
	daemon_ready(ret);
	fuse_opt_free_args(&fa);
	opts_free(&o);
	return ret;
}
