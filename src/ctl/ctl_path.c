/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "ctl_path.h"

#include <errno.h>
#include <glib.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ctl_sock_dir(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	struct stat st;
	int n;

	if (xdg && xdg[0] == '/' && stat(xdg, &st) == 0 && S_ISDIR(st.st_mode))
		n = snprintf(buf, len, "%s/nfsfuse", xdg);
	else if (geteuid() == 0)
		n = snprintf(buf, len, "/run/nfsfuse");
	else
		n = snprintf(buf, len, "/tmp/nfsfuse-%u", (unsigned)geteuid());
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

int ctl_sock_path(const char *mountpoint, char *buf, size_t len, char *canon,
		  size_t canonlen)
{
	char *real = realpath(mountpoint, NULL);
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
