/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "nfs4_owner.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../base/safedir.h"

/* FNV-1a, 64 bits: only to tell long owners apart, not for secrecy. */
static uint64_t fnv1a(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++) {
		h ^= (uint8_t)s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

int nfs4_owner_make(const char *hostid, uint32_t uid, const char *server,
		    const char *export_path, const char *mountpoint,
		    char *out, size_t outlen)
{
	char whole[3 * 4096 + 128];
	int n;

	if (!hostid || !server || !export_path || !mountpoint ||
	    outlen < NFS4_OWNER_MAX + 1)
		return -EINVAL;
	n = snprintf(whole, sizeof(whole), "nfsfuse %s uid %u %s:%s on %s",
		     hostid, (unsigned)uid, server, export_path, mountpoint);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= sizeof(whole))
		n = (int)sizeof(whole) - 1;
	if ((size_t)n <= NFS4_OWNER_MAX) {
		memcpy(out, whole, (size_t)n + 1);
		return n;
	}
	/* head of the string, then " #" and 16 hex digits of the hash */
	memcpy(out, whole, NFS4_OWNER_MAX - 18);
	snprintf(out + NFS4_OWNER_MAX - 18, 19, " #%016llx",
		 (unsigned long long)fnv1a(whole, (size_t)n));
	return (int)NFS4_OWNER_MAX;
}

static void random_id(char out[NFS4_HOSTID_LEN + 1])
{
	uint8_t b[NFS4_HOSTID_LEN / 2];
	struct timespec ts;

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
		/* No entropy source: time and pid still tell hosts apart
		 * better than nothing. */
		clock_gettime(CLOCK_REALTIME, &ts);
		for (size_t i = 0; i < sizeof(b); i++)
			b[i] = (uint8_t)((uint64_t)ts.tv_nsec >> (i % 8 * 8) ^
					 (uint64_t)getpid() >> (i % 4 * 8) ^
					 (uint64_t)ts.tv_sec >> (i % 8));
	}
	for (size_t i = 0; i < sizeof(b); i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
}

static bool valid_id(const char *s, size_t n)
{
	if (n != NFS4_HOSTID_LEN)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

int nfs4_hostid_load(const char *dir, char out[NFS4_HOSTID_LEN + 1])
{
	char path[4200], tmp[4220], buf[NFS4_HOSTID_LEN + 2], why[256];
	ssize_t n = -1;
	int fd, ret;

	random_id(out);
	ret = safedir_make(dir, safedir_last(dir), why, sizeof(why));
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/nfs4-hostid", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf));
		close(fd);
		if (n > 0 && buf[n - 1] == '\n')
			n--;
		if (n > 0 && valid_id(buf, (size_t)n)) {
			memcpy(out, buf, NFS4_HOSTID_LEN);
			out[NFS4_HOSTID_LEN] = '\0';
			return 0;
		}
	}
	/* Made once: write-to-temporary and rename, so that two mounts
	 * starting together end with one id on disk (the loser of the
	 * rename race reads the winner's id at its next start). */
	snprintf(tmp, sizeof(tmp), "%s.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0)
		return -errno;
	snprintf(buf, sizeof(buf), "%s\n", out);
	if (write(fd, buf, NFS4_HOSTID_LEN + 1) != NFS4_HOSTID_LEN + 1 ||
	    fsync(fd)) {
		ret = -errno;
		close(fd);
		unlink(tmp);
		return ret ? ret : -EIO;
	}
	close(fd);
	if (rename(tmp, path)) {
		ret = -errno;
		unlink(tmp);
		return ret;
	}
	return 0;
}
