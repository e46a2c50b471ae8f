/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "daemon.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

static int ready_fd = -1;

int daemon_start(void)
{
	int fds[2];
	pid_t pid;
	char status;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		ready_fd = fds[1];
		setsid();
		return 0;
	}
	close(fds[1]);
	/* EOF without a status byte: the child died before deciding. */
	if (read(fds[0], &status, 1) != 1)
		status = 1;
	_exit(status);
}

void daemon_ready(int status)
{
	char s = (char)(status ? 1 : 0);
	int null;

	if (ready_fd < 0)
		return;
	if (status == 0 && chdir("/") == 0) {
		null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
			if (null > 2)
				close(null);
		}
	}
	if (write(ready_fd, &s, 1) != 1) {
		/* The parent is gone; nobody is left to tell. */
	}
	close(ready_fd);
	ready_fd = -1;
}
