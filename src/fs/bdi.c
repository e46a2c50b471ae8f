/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "bdi.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* mountinfo writes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

int bdi_of_mount(const char *mnt, char *dev, size_t len)
{
	char *line = NULL;
	size_t cap = 0;
	int ret = -ENOENT;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return -errno;
	/* "36 25 0:48 / /mnt rw,... - fuse.nfsfuse src rw,...": the last
	 * line for mnt is the mount on top. */
	while (getline(&line, &cap, f) > 0) {
		char *save, *majmin, *point;

		if (!strtok_r(line, " ", &save) || !strtok_r(NULL, " ", &save))
			continue;
		majmin = strtok_r(NULL, " ", &save);
		if (!majmin || !strtok_r(NULL, " ", &save))
			continue;
		point = strtok_r(NULL, " ", &save);
		if (!point)
			continue;
		unescape(point);
		if (strcmp(point, mnt) == 0 &&
		    (size_t)snprintf(dev, len, "%s", majmin) < len)
			ret = 0;
	}
	free(line);
	fclose(f);
	return ret;
}

int bdi_raise_readahead(const char *dev, unsigned kb)
{
	char path[64], buf[32];
	unsigned long now;
	ssize_t n;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "/sys/class/bdi/%s/read_ahead_kb", dev);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n > 0) {
		buf[n] = '\0';
		now = strtoul(buf, NULL, 10);
		if (now >= kb)
			goto out;
	}
	n = snprintf(buf, sizeof(buf), "%u\n", kb);
	if (pwrite(fd, buf, (size_t)n, 0) != n)
		ret = -errno;
out:
	close(fd);
	return ret;
}
