/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "userns.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "idmap.h"

#define OVERFLOW_DEFAULT 65534u

static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct idmap uid_map, gid_map;
static uint32_t overflow_uid = OVERFLOW_DEFAULT, overflow_gid =
	OVERFLOW_DEFAULT;
static int load_err;

/* The whole of a small /proc file into buf (NUL-terminated). */
static int read_text(const char *path, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (got < len - 1 &&
	       (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	n = n < 0 ? -errno : 0;
	close(fd);
	buf[got] = '\0';
	return (int)n;
}

static int load_map(const char *path, struct idmap *m)
{
	/* 340 lines of three 10-digit numbers. */
	static char text[IDMAP_MAX_EXTENTS * 34 + 1];
	int ret = read_text(path, text, sizeof(text));

	if (ret == -ENOENT) {
		/* A kernel without user namespaces: there is only one. */
		idmap_set_identity(m);
		return 0;
	}
	if (ret == 0)
		ret = idmap_parse(text, m);
	if (ret)
		idmap_set_identity(m);
	return ret;
}

static uint32_t load_overflow(const char *path)
{
	char text[32];
	char *end;
	unsigned long v;

	if (read_text(path, text, sizeof(text)))
		return OVERFLOW_DEFAULT;
	v = strtoul(text, &end, 10);
	return end != text && v < UINT32_MAX ? (uint32_t)v : OVERFLOW_DEFAULT;
}

static void load(void)
{
	int a = load_map("/proc/self/uid_map", &uid_map);
	int b = load_map("/proc/self/gid_map", &gid_map);

	load_err = a ? a : b;
	overflow_uid = load_overflow("/proc/sys/kernel/overflowuid");
	overflow_gid = load_overflow("/proc/sys/kernel/overflowgid");
}

int userns_load_error(void)
{
	pthread_once(&once, load);
	return load_err;
}

bool userns_active(void)
{
	pthread_once(&once, load);
	return !uid_map.identity || !gid_map.identity;
}

bool userns_uid_out(uint32_t uid, uint32_t *out)
{
	pthread_once(&once, load);
	return idmap_to_outside(&uid_map, uid, out);
}

bool userns_gid_out(uint32_t gid, uint32_t *out)
{
	pthread_once(&once, load);
	return idmap_to_outside(&gid_map, gid, out);
}

uint32_t userns_uid_in(uint32_t uid)
{
	uint32_t in;

	pthread_once(&once, load);
	return idmap_to_inside(&uid_map, uid, &in) ? in : overflow_uid;
}

uint32_t userns_gid_in(uint32_t gid)
{
	uint32_t in;

	pthread_once(&once, load);
	return idmap_to_inside(&gid_map, gid, &in) ? in : overflow_gid;
}

void userns_cred_out(struct rpc_cred *c)
{
	uint32_t n = 0;

	if (c->flavor != RPC_AUTH_SYS || !userns_active())
		return;
	if (!userns_uid_out(c->uid, &c->uid))
		c->uid = overflow_uid;
	if (!userns_gid_out(c->gid, &c->gid))
		c->gid = overflow_gid;
	for (uint32_t k = 0; k < c->ngids && k < RPC_AUTH_SYS_MAXGIDS; k++)
		if (userns_gid_out(c->gids[k], &c->gids[n]))
			n++;
	c->ngids = n;
}

void userns_cred_wire(struct rpc_cred *c, uint32_t fixed_uid,
		      uint32_t fixed_gid)
{
	userns_cred_out(c);
	if (c->flavor != RPC_AUTH_SYS)
		return;
	if (fixed_uid != USERNS_ID_NONE)
		c->uid = fixed_uid;
	if (fixed_gid != USERNS_ID_NONE)
		c->gid = fixed_gid;
	if (fixed_uid != USERNS_ID_NONE || fixed_gid != USERNS_ID_NONE)
		c->ngids = 0;
}
