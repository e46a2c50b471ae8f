/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "safedir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

size_t safedir_last(const char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	while (n > 0 && path[n - 1] != '/')
		n--;
	return n;
}

/* One existing directory of ours: ours, a directory, then private. */
static int check_own(const char *dir, char *why, size_t whylen)
{
	struct stat st;

	if (lstat(dir, &st) < 0) {
		snprintf(why, whylen, "%s: %s", dir, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "%s is not a directory%s", dir,
			 S_ISLNK(st.st_mode) ? " (a symbolic link)" : "");
		return -EPERM;
	}
	if (st.st_uid != geteuid()) {
		snprintf(why, whylen, "%s belongs to uid %u, not to uid %u: "
			 "another user made it; remove it or choose another "
			 "directory", dir, (unsigned)st.st_uid,
			 (unsigned)geteuid());
		return -EPERM;
	}
	if ((st.st_mode & 077) && chmod(dir, 0700) < 0) {
		snprintf(why, whylen, "%s: chmod: %s", dir, strerror(errno));
		return -errno;
	}
	return 0;
}

int safedir_make(const char *path, size_t own, char *why, size_t whylen)
{
	char *p = strdup(path);
	size_t n, start = 1;
	int ret = 0;

	if (!p) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	if (p[0] != '/') {
		snprintf(why, whylen, "%s: not an absolute path", path);
		free(p);
		return -EINVAL;
	}
	n = strlen(p);
	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
	for (size_t i = 1; i <= n && ret == 0; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		if (p[i - 1] == '/') { /* "//" */
			start = i + 1;
			continue;
		}
		p[i] = '\0';
		if (mkdir(p, 0700) < 0 && errno != EEXIST) {
			ret = -errno;
			snprintf(why, whylen, "%s: %s", p, strerror(errno));
		} else if (start >= own) {
			/* Made just now or long ago, by us or not: look. */
			ret = check_own(p, why, whylen);
		}
		if (i < n)
			p[i] = '/';
		start = i + 1;
	}
	free(p);
	return ret;
}
