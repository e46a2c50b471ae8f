// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fuse_floor: what FUSE itself costs, for bench.sh.  A file system that
 * does no work: its root holds one file, "f", whose writes are taken and
 * forgotten and whose reads return zeros.  It is served the way nfsfuse
 * is served (up to 16 threads, asynchronous reads, max_write of 1 MiB,
 * no kernel write-back cache, default_permissions, and the kernel told
 * that the file system clears setuid bits itself, which spares each
 * write(2) a GETXATTR: nfsfuse's killpriv.c), so a workload's time
 * through it is the least that workload can take through any FUSE file
 * system with those settings on the same machine: the floor under
 * nfsfuse's figures.
 *
 * usage: fuse_floor MOUNTPOINT
 * Runs in the foreground until unmounted (fusermount3 -u, umount) or
 * sent SIGTERM or SIGINT.
 */
#include <errno.h>
#include <fcntl.h>
#include <fuse_lowlevel.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/killpriv.h"

#define FILE_INO	2
#define FILE_NAME	"f"
#define MAX_WRITE	(1u << 20)

/* The file's size: moved by writes past it and by truncate. */
static uint64_t file_size;
static uint8_t zeros[MAX_WRITE];

static void stat_of(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_uid = getuid();
	st->st_gid = getgid();
	st->st_blksize = 4096;
	if (ino == FUSE_ROOT_ID) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return;
	}
	st->st_mode = S_IFREG | 0644;
	st->st_nlink = 1;
	st->st_size = (off_t)__atomic_load_n(&file_size, __ATOMIC_RELAXED);
	st->st_blocks = (st->st_size + 511) / 512;
}

static void floor_init(void *data, struct fuse_conn_info *conn)
{
	(void)data;
	conn->max_write = MAX_WRITE;
	if (conn->capable & FUSE_CAP_ASYNC_READ)
		conn->want |= FUSE_CAP_ASYNC_READ;
	conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
	conn->want |= FUSE_CAP_ATOMIC_O_TRUNC & conn->capable;
	if (conn->capable & FUSE_CAP_HANDLE_KILLPRIV) {
		conn->want |= FUSE_CAP_HANDLE_KILLPRIV;
		killpriv_want(true);
	}
}

static void floor_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;

	if (parent != FUSE_ROOT_ID || strcmp(name, FILE_NAME)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	memset(&e, 0, sizeof(e));
	e.ino = FILE_INO;
	e.attr_timeout = e.entry_timeout = 1.0;
	stat_of(FILE_INO, &e.attr);
	fuse_reply_entry(req, &e);
}

static void floor_getattr(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	struct stat st;

	(void)fi;
	if (ino != FUSE_ROOT_ID && ino != FILE_INO) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	stat_of(ino, &st);
	fuse_reply_attr(req, &st, 1.0);
}

static void floor_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
			  int to_set, struct fuse_file_info *fi)
{
	struct stat st;

	(void)fi;
	if (ino != FILE_INO) {
		fuse_reply_err(req, EPERM);
		return;
	}
	if (to_set & FUSE_SET_ATTR_SIZE)
		__atomic_store_n(&file_size, (uint64_t)attr->st_size,
				 __ATOMIC_RELAXED);
	stat_of(ino, &st);
	fuse_reply_attr(req, &st, 1.0);
}

static void floor_open(fuse_req_t req, fuse_ino_t ino,
		       struct fuse_file_info *fi)
{
	if (ino != FILE_INO) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	if (fi->flags & O_TRUNC)
		__atomic_store_n(&file_size, 0, __ATOMIC_RELAXED);
	fuse_reply_open(req, fi);
}

static void floor_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	uint64_t end = __atomic_load_n(&file_size, __ATOMIC_RELAXED);

	(void)ino;
	(void)fi;
	if ((uint64_t)off >= end)
		size = 0;
	else if (size > end - (uint64_t)off)
		size = end - (uint64_t)off;
	if (size > sizeof(zeros))
		size = sizeof(zeros);
	fuse_reply_buf(req, (const char *)zeros, size);
}

static void floor_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
			size_t size, off_t off, struct fuse_file_info *fi)
{
	uint64_t end = (uint64_t)off + size;
	uint64_t cur = __atomic_load_n(&file_size, __ATOMIC_RELAXED);

	(void)ino;
	(void)buf;
	(void)fi;
	while (end > cur &&
	       !__atomic_compare_exchange_n(&file_size, &cur, end, true,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
	fuse_reply_write(req, size);
}

static void floor_ok(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	fuse_reply_err(req, 0);
}

static void floor_fsync(fuse_req_t req, fuse_ino_t ino, int datasync,
			struct fuse_file_info *fi)
{
	(void)datasync;
	floor_ok(req, ino, fi);
}

static void floor_opendir(fuse_req_t req, fuse_ino_t ino,
			  struct fuse_file_info *fi)
{
	if (ino != FUSE_ROOT_ID) {
		fuse_reply_err(req, ENOTDIR);
		return;
	}
	fuse_reply_open(req, fi);
}

static void floor_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
			  off_t off, struct fuse_file_info *fi)
{
	static const char *const names[] = { ".", "..", FILE_NAME };
	static const fuse_ino_t inos[] = { FUSE_ROOT_ID, FUSE_ROOT_ID, FILE_INO };
	char buf[512];
	size_t used = 0;

	(void)ino;
	(void)fi;
	if (size > sizeof(buf))
		size = sizeof(buf);
	for (off_t i = off; i < 3; i++) {
		struct stat st;
		size_t n;

		stat_of(inos[i], &st);
		n = fuse_add_direntry(req, buf + used, size - used, names[i],
				      &st, i + 1);
		if (n > size - used)
			break;
		used += n;
	}
	fuse_reply_buf(req, buf, used);
}

static const struct fuse_lowlevel_ops ops = {
	.init = floor_init,
	.lookup = floor_lookup,
	.getattr = floor_getattr,
	.setattr = floor_setattr,
	.open = floor_open,
	.read = floor_read,
	.write = floor_write,
	.flush = floor_ok,
	.release = floor_ok,
	.fsync = floor_fsync,
	.opendir = floor_opendir,
	.readdir = floor_readdir,
	.releasedir = floor_ok,
};

int main(int argc, char **argv)
{
	char *args[] = { argv[0], "-o", "default_permissions,fsname=fuse_floor",
			 NULL };
	struct fuse_args fa = FUSE_ARGS_INIT(3, args);
	struct fuse_loop_config *cfg;
	struct fuse_session *se;
	int ret = 1;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: %s MOUNTPOINT\n", argv[0]);
		return 2;
	}
	se = fuse_session_new(&fa, &ops, sizeof(ops), NULL);
	if (!se)
		return 1;
	if (fuse_set_signal_handlers(se))
		goto out_destroy;
	if (fuse_session_mount(se, argv[1]))
		goto out_signals;
	if (killpriv_attach(se))
		fprintf(stderr, "fuse_floor: cannot take over /dev/fuse I/O: "
			"each write(2) will cost a GETXATTR too\n");
	cfg = fuse_loop_cfg_create();
	if (cfg) {
		fuse_loop_cfg_set_max_threads(cfg, 16);
		fuse_loop_cfg_set_idle_threads(cfg, 8);
		ret = fuse_session_loop_mt(se, cfg) ? 1 : 0;
		fuse_loop_cfg_destroy(cfg);
	}
	fuse_session_unmount(se);
out_signals:
	fuse_remove_signal_handlers(se);
out_destroy:
	fuse_session_destroy(se);
	return ret;
}
