/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The client's NSM state on stable storage, in its state directory
 * (-o statedir=, default $XDG_STATE_HOME/nfsfuse/CALLER_NAME):
 *
 *   lock     held with flock() while the daemon runs: one daemon per dir
 *   state    our NSM state number (odd), raised by 2 at every start
 *   journal-PID-N  each running daemon's locks, for recovery after it
 *            dies (journal.c)
 *   status   lock mode, counters and the lock table, rewritten as they
 *            change (for `nfsfusectl` and tests)
 *
 * Files are replaced by write-to-temporary, fsync, rename.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "../base/log.h"
#include "../base/safedir.h"
#include "lock_int.h"

/*
 * The directories of the state directory's path that are nfsfuse's own:
 * with -o statedir= the last one (the user chose where it lives); by
 * default (.../nfsfuse/NAME, /tmp/nfsfuse-UID/NAME) the last two, which
 * safedir_make() refuses when another user made them first.
 */
static size_t own_part(const struct lockmgr *lm)
{
	const char *p = lm->statedir;
	size_t at = safedir_last(p);

	if (lm->cfg.statedir)
		return at;
	while (at > 1 && p[at - 1] == '/')
		at--;
	while (at > 0 && p[at - 1] != '/')
		at--;
	return at;
}

static int write_file(struct lockmgr *lm, const char *name, const char *text,
		      bool sync)
{
	char path[4200], tmp[4210];
	int fd, ret = 0;
	size_t len = strlen(text);

	/* Only the mount that owns the state directory writes in it. */
	if (lm->statedir_fd < 0)
		return 0;

	snprintf(path, sizeof(path), "%s/%s", lm->statedir, name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	/* Never through a link someone left in our place (O_NOFOLLOW), and
	 * never into a file that was there before us (O_EXCL). */
	if (unlink(tmp) < 0 && errno != ENOENT)
		return -errno;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0600);
	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != (ssize_t)len)
		ret = -EIO;
	if (sync && fsync(fd) < 0)
		ret = -errno;
	close(fd);
	if (ret == 0 && rename(tmp, path) < 0)
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

static char *read_file(struct lockmgr *lm, const char *name)
{
	char path[4200], *buf;
	FILE *f;
	size_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", lm->statedir, name);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return NULL;
	}
	buf = calloc(1, 65536);
	if (buf) {
		n = fread(buf, 1, 65535, f);
		buf[n] = '\0';
	}
	fclose(f);
	return buf;
}

int lk_statedir_open(struct lockmgr *lm, char *err, size_t errlen)
{
	char path[4200], num[32], why[4400], *old;
	long state = 0;
	int ret;

	ret = safedir_make(lm->statedir, own_part(lm), why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "state directory: %s", why);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/lock", lm->statedir);
	lm->statedir_fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
			       0600);
	if (lm->statedir_fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (flock(lm->statedir_fd, LOCK_EX | LOCK_NB) < 0) {
		close(lm->statedir_fd);
		lm->statedir_fd = -1;
		if (lm->cfg.statedir) {
			snprintf(err, errlen, "state directory %s is in use by "
				 "another nfsfuse (give each mount with locks "
				 "its own -o statedir= or hostname=)",
				 lm->statedir);
			return -1;
		}
		/*
		 * Another mount of this host owns the host's NSM state: to
		 * the server both are one NLM client.  Use its state number
		 * and leave the state and the server list to it: a new
		 * number here would tell every server that the host
		 * rebooted, and free the other mount's locks.
		 */
		old = read_file(lm, "state");
		lm->nsm_state = old ? (int32_t)strtol(old, NULL, 10) : 1;
		free(old);
		nf_log(NF_LOG_INFO, "locks: %s is kept by another mount of "
		       "this host; sharing its NSM state %d", lm->statedir,
		       lm->nsm_state);
		return 0;
	}
	old = read_file(lm, "state");
	if (old) {
		state = strtol(old, NULL, 10);
		free(old);
	}
	/* Odd while up; every start is a reboot to our peers. */
	if (state <= 0 || state > 0x7ffffff0)
		state = 1;
	else
		state += (state & 1) ? 2 : 1;
	lm->nsm_state = (int32_t)state;
	snprintf(num, sizeof(num), "%ld\n", state);
	ret = write_file(lm, "state", num, true);
	if (ret) {
		snprintf(err, errlen, "%s/state: %s", lm->statedir,
			 strerror(-ret));
		close(lm->statedir_fd);
		lm->statedir_fd = -1;
		return -1;
	}
	return 0;
}

void lk_statedir_close(struct lockmgr *lm)
{
	if (lm->statedir_fd >= 0)
		close(lm->statedir_fd);
	lm->statedir_fd = -1;
}

void lk_statedir_write_status(struct lockmgr *lm)
{
	GString *g = g_string_new(NULL);

	lockmgr_format_stats(lm, g);
	lockmgr_format_locks(lm, g);
	write_file(lm, "status", g->str, false);
	g_string_free(g, TRUE);
}
