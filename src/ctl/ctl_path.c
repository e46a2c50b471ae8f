/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ctl_path.h"

#include <errno.h>
#include <glib.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/userns.h"

int ctl_sock_dir(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	uint32_t uid = geteuid();
	struct stat st;
	char run_user[64];
	int n;

	/* The daemon of an fstab "user" mount gets no XDG_RUNTIME_DIR from
	 * mount(8): it takes the user's /run/user/UID as a login would, so
	 * that nfsfusectl from that login finds the socket. */
	snprintf(run_user, sizeof(run_user), "/run/user/%u",
		 (unsigned)geteuid());
	if (!xdg && geteuid() != 0 && stat(run_user, &st) == 0 &&
	    S_ISDIR(st.st_mode) && st.st_uid == geteuid())
		xdg = run_user;

	/* The machine's id: root of a user namespace is an ordinary user
	 * outside, with no say over /run, and shares /tmp/nfsfuse-UID with
	 * that user's processes outside (the same owner either way). */
	userns_uid_out(uid, &uid);
	if (xdg && xdg[0] == '/' && stat(xdg, &st) == 0 && S_ISDIR(st.st_mode))
		n = snprintf(buf, len, "%s/nfsfuse", xdg);
	else if (uid == 0)
		n = snprintf(buf, len, "/run/nfsfuse");
	else
		n = snprintf(buf, len, "/tmp/nfsfuse-%u", (unsigned)uid);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

int ctl_sock_path_canon(const char *canon_mountpoint, char *buf, size_t len)
{
	char dir[CTL_PATH_MAX];
	gchar *sum;
	int n, ret;

	ret = ctl_sock_dir(dir, sizeof(dir));
	if (ret)
		return ret;
	sum = g_compute_checksum_for_string(G_CHECKSUM_SHA1, canon_mountpoint,
					    -1);
	if (!sum)
		return -ENOMEM;
	n = snprintf(buf, len, "%s/%s.sock", dir, sum);
	g_free(sum);
	if (n < 0 || (size_t)n >= len || n >= CTL_PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * The canonical path of a mount point without touching the mount itself:
 * the parent directory is resolved, the last name is taken as it is.  So
 * asking a mount for its statistics costs it no GETATTR, and a hung
 * server cannot hang nfsfusectl before it even connects.
 */
static char *canon_path(const char *path)
{
	char *copy = strdup(path), *slash, *dir, *real = NULL;
	const char *base;
	size_t n;

	if (!copy)
		return NULL;
	n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	slash = strrchr(copy, '/');
	if (!slash) {
		dir = ".";
		base = copy;
	} else if (slash == copy) {
		dir = "/";
		base = copy + 1;
	} else {
		*slash = '\0';
		dir = copy;
		base = slash + 1;
	}
	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		/* "/", "x/." and the like: nothing to spare, resolve it all. */
		real = realpath(path, NULL);
	} else {
		char *rdir = realpath(dir, NULL);

		if (rdir && asprintf(&real, "%s%s%s", rdir,
				     strcmp(rdir, "/") ? "/" : "", base) < 0)
			real = NULL;
		free(rdir);
	}
	free(copy);
	return real;
}

int ctl_sock_path(const char *mountpoint, char *buf, size_t len, char *canon,
		  size_t canonlen)
{
	char *real = canon_path(mountpoint);
	int ret;

	if (!real)
		return -errno;
	ret = ctl_sock_path_canon(real, buf, len);
	if (ret == 0 && canon) {
		if (strlen(real) < canonlen)
			memcpy(canon, real, strlen(real) + 1);
		else
			ret = -ENAMETOOLONG;
	}
	free(real);
	return ret;
}
