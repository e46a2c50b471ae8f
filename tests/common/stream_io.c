/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "stream_io.h"

#include <errno.h>
#include <sys/socket.h>
#include <sys/types.h>

int stream_write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}
