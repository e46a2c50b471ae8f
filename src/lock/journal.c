/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Lock recovery per owner: each daemon keeps, in its state directory, a
 * journal of the locks it holds and the blocked requests the server has
 * queued for it (file "journal-PID-RANDOM", flock()ed while the daemon
 * runs).  A daemon that starts finds the journals of daemons that died
 * (not flock()ed any more) and undoes exactly what they list: UNLOCK of
 * each held range and CANCEL of each queued request, under the crashed
 * run's caller name, owner handles and svids.  Nothing else is freed.
 *
 * Why not SM_NOTIFY / NLM FREE_ALL (the protocol's way for a rebooted
 * host): servers free everything of a client *host*, keyed by its address
 * (nfs-ganesha, unless NSM_Use_Caller_Name) or by its name.  Every user's
 * nfsfuse and the kernel's own NFS client on the machine share the
 * address, so one daemon's restart would free all of their locks.  A
 * rebooted machine is announced by its own sm-notify (nfs-utils), which
 * is right there: every process of the host is gone.
 *
 * The journal is rewritten (write, rename; no fsync: a daemon crash keeps
 * the page cache) after each change of the tables.  Format, one item a
 * line:
 *   C CALLER_NAME          the caller name of the run
 *   S ADDR VERS PORT       the server, its NLM version, nlmport= or 0
 *   H FH OH SVID START LEN EXCL     a held range (FH, OH in hex)
 *   W FH OH SVID START LEN EXCL     a request the server queued
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "../base/log.h"
#include "../base/trace.h"
#include "lock_int.h"

static void put_hex(FILE *f, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%02x", p[i]);
}

static size_t get_hex(const char *s, uint8_t *out, size_t max)
{
	size_t n = strlen(s);

	if (n % 2 || n / 2 > max)
		return SIZE_MAX;
	for (size_t i = 0; i < n / 2; i++) {
		unsigned v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return SIZE_MAX;
		out[i] = (uint8_t)v;
	}
	return n / 2;
}

int lk_journal_open(struct lockmgr *lm)
{
	char path[4200], tmp[4200];
	uint32_t rnd = (uint32_t)lm->oh_secret;
	int fd;

	/* Made and locked under a name recovery ignores, then renamed: no
	 * one may take it for a dead daemon's before it is locked. */
	snprintf(tmp, sizeof(tmp), "%s/.journal-%d-%08x", lm->statedir,
		 (int)getpid(), rnd);
	snprintf(path, sizeof(path), "%s/journal-%d-%08x", lm->statedir,
		 (int)getpid(), rnd);
	fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0 || rename(tmp, path) < 0) {
		int ret = -errno;

		close(fd);
		unlink(tmp);
		return ret;
	}
	lm->journal_fd = fd;
	lm->journal_path = strdup(path);
	if (!lm->journal_path) {
		close(fd);
		unlink(path);
		lm->journal_fd = -1;
		return -ENOMEM;
	}
	lk_journal_write(lm);
	return 0;
}

void lk_journal_close(struct lockmgr *lm)
{
	if (lm->journal_fd < 0)
		return;
	unlink(lm->journal_path);
	close(lm->journal_fd);
	lm->journal_fd = -1;
	free(lm->journal_path);
	lm->journal_path = NULL;
}

static void line(FILE *f, char kind, const struct nfs_fh3 *fh,
		 const uint8_t *oh, uint32_t oh_len, int32_t svid,
		 uint64_t start, uint64_t len, bool excl)
{
	fprintf(f, "%c ", kind);
	put_hex(f, fh->data, fh->len);
	fputc(' ', f);
	put_hex(f, oh, oh_len);
	fprintf(f, " %d %" PRIu64 " %" PRIu64 " %d\n", svid, start, len,
		excl);
}

/* In place, through the locked descriptor (a new file would not carry
 * the lock).  A crash in the middle leaves a torn last line, which
 * recovery skips. */
void lk_journal_write(struct lockmgr *lm)
{
	char addr[RPC_ADDR_HOSTLEN], *text = NULL;
	size_t len = 0;
	FILE *f;

	if (lm->journal_fd < 0)
		return;
	pthread_mutex_lock(&lm->journal_mu);
	f = open_memstream(&text, &len);
	if (!f)
		goto out;
	rpc_addr_host(&lm->cfg.server, addr, sizeof(addr));
	fprintf(f, "C %s\nS %s %u %u\n", lm->caller_name, addr, lm->nlm_vers,
		(unsigned)lm->cfg.nlm_port);
	pthread_mutex_lock(&lm->mu);
	for (struct lk_held *h = lm->held; h; h = h->next)
		line(f, 'H', &h->fh, h->oh, h->oh_len, h->svid, h->start,
		     h->len, h->excl);
	for (struct lk_waiter *w = lm->waiting; w; w = w->next)
		if (w->cb) /* a request the server may queue */
			line(f, 'W', &w->fh, w->oh, w->oh_len, w->svid,
			     w->start, w->len, w->excl);
	pthread_mutex_unlock(&lm->mu);
	if (fclose(f) == 0 &&
	    pwrite(lm->journal_fd, text, len, 0) == (ssize_t)len)
		(void)!ftruncate(lm->journal_fd, (off_t)len);
	free(text);
out:
	pthread_mutex_unlock(&lm->journal_mu);
}

/* Undo one dead run's journal (f).  -errno when its server could not be
 * reached: the journal is kept for the next start. */
static int undo(struct lockmgr *lm, FILE *f, const char *name)
{
	char buf[2048], caller[2048] = "", addr[RPC_ADDR_HOSTLEN] = "";
	unsigned vers = 0, port = 0;
	int failed = 0;
	struct lk_conn conn;
	bool conn_open = false;

	while (fgets(buf, sizeof(buf), f)) {
		char kind, fhx[2 * NFS3_FHSIZE + 2], ohx[2 * LK_OH_MAX + 2];
		struct nlm_lock a;
		struct nfs_fh3 fh;
		uint8_t oh[LK_OH_MAX];
		size_t ohn, fhn;
		int32_t svid;
		uint64_t start, len;
		int excl, ret;
		uint32_t stat = 0;
		uint32_t proc;

		buf[strcspn(buf, "\n")] = '\0';
		if (buf[0] == 'C' && buf[1] == ' ') {
			snprintf(caller, sizeof(caller), "%s", buf + 2);
			continue;
		}
		if (buf[0] == 'S') {
			if (sscanf(buf, "S %45s %u %u", addr, &vers, &port) != 3)
				addr[0] = '\0';
			continue;
		}
		if (sscanf(buf, "%c %129s %321s %d %" SCNu64 " %" SCNu64 " %d",
			   &kind, fhx, ohx, &svid, &start, &len, &excl) != 7 ||
		    (kind != 'H' && kind != 'W') || !caller[0] || !addr[0])
			continue;
		fhn = get_hex(fhx, fh.data, sizeof(fh.data));
		ohn = get_hex(ohx, oh, sizeof(oh));
		if (fhn == SIZE_MAX || ohn == SIZE_MAX)
			continue;
		fh.len = (uint32_t)fhn;
		if (!conn_open) {
			struct rpc_addr sa;

			/* A numeric IPv4 or IPv6 host (rpc_addr_host). */
			if (port > 65535 ||
			    rpc_addr_parse(&sa, addr, (uint16_t)port) ||
			    (vers != NLM_V4 && vers != NLM_V3))
				break;
			lk_conn_init(&conn, &sa, &lm->src, NLM_PROGRAM, vers,
				     IPPROTO_TCP);
			conn_open = true;
		}
		memset(&a, 0, sizeof(a));
		a.caller_name = caller;
		a.caller_name_len = (uint32_t)strlen(caller);
		a.fh.data = fh.data;
		a.fh.len = fh.len;
		a.oh.data = oh;
		a.oh.len = (uint32_t)ohn;
		a.svid = svid;
		a.l_offset = start;
		a.l_len = len;
		proc = kind == 'H' ? NLMPROC_UNLOCK : NLMPROC_CANCEL;
		ret = lk_nlm_call_on(lm, &conn, vers, proc,
				     &(struct lk_call){ .a = &a,
							.excl = excl != 0 },
				     &stat);
		if (ret) {
			failed = ret;
			nf_log(NF_LOG_WARNING, "locks: %s on %s: %s; kept for "
			       "the next start", name, addr, strerror(-ret));
			break;
		}
		LK_INC(lm, recovered);
		nf_log(NF_LOG_INFO, "locks: %s of a lock left by a dead "
		       "daemon (%s, svid %d, %" PRIu64 "+%" PRIu64 ") on %s: "
		       "%s", nlm_proc_names[proc], name, svid, start, len,
		       addr, nlm_stat_name(stat) ?: "?");
	}
	if (conn_open)
		lk_conn_close(&conn);
	return failed;
}

void lk_journal_recover(struct lockmgr *lm)
{
	DIR *d = opendir(lm->statedir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[4200];
		FILE *f;
		int fd;

		if (strncmp(e->d_name, "journal-", 8) ||
		    strstr(e->d_name, ".tmp"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", lm->statedir, e->d_name);
		if (lm->journal_path && !strcmp(path, lm->journal_path))
			continue;
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		/* Still locked: its daemon runs. */
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			close(fd);
			continue;
		}
		f = fdopen(fd, "r");
		if (!f) {
			close(fd);
			continue;
		}
		if (undo(lm, f, e->d_name) == 0)
			unlink(path);
		fclose(f);
	}
	closedir(d);
}
