/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nfsacl_server --listen PORT --export DIR [--verbose]
 *
 * A test-only NFSACL v3 server (program 100227: NULL, GETACL, SETACL) on
 * 127.0.0.1:PORT over TCP, beside an nfs-ganesha that serves DIR with its
 * VFS FSAL.  ganesha 4.3 answers GETACL with no entries and refuses
 * SETACL, so the ACL round trips of a client are tested against this
 * server instead: it reads and writes the real ACLs of the exported files
 * (the system.posix_acl_* xattrs), as Linux's knfsd would
 * (fs/nfsd/nfs3acl.c, fs/nfs_common/nfsacl.c).  Built from the project's
 * own codecs (xdr/nfsacl.h, xdr/nfs3.h, xdr/rpc_msg.h) and record reader
 * (src/rpc/record.h).  No portmapper registration: the client is told the
 * port (nfsfuse's aclport=).
 *
 * Handles.  ganesha's NFSv3 handle for the VFS FSAL is
 *	u8 version (0x43), u8 flags, u16 export id, u8 length L,
 *	L bytes of VFS handle, zero padding to a multiple of 4;
 * and the VFS handle is
 *	u8 flags, the file system's f_fsid (8 bytes, as statfs(2) gives it),
 *	u8 handle_type of the kernel handle, the kernel handle's bytes
 * (name_to_handle_at(2); 8 bytes on ext4).  So the kernel handle is the
 * tail of the VFS handle after the fsid and type bytes: it is opened with
 * open_by_handle_at(2) on the export's file system (which needs
 * CAP_DAC_READ_SEARCH: run as root), after checking that the fsid is the
 * export's.  Any other handle is BADHANDLE; one whose file is gone is
 * STALE.
 *
 * Attributes.  The post_op_attr of each reply is the file's lstat, with
 * the values ganesha gives for the same file: fileid the inode number,
 * fsid f_fsid[1] << 32 | f_fsid[0], used st_blocks * 512.  A client takes
 * these attributes into its cache as if ganesha had sent them, so they
 * must agree with ganesha's GETATTR (they do when ganesha does not cache
 * attributes: the test server's Attr_Expiration_Time = 0).
 *
 * Credentials.  GETACL is open to anyone, as in knfsd.  SETACL is made
 * with the file system uid and gid of the caller's AUTH_SYS credential
 * (setfsuid(2), per thread), so that the kernel's rule "only the owner
 * (or root) sets ACLs" applies; AUTH_NONE calls are made as nobody
 * (65534).  Supplementary groups are not used (no ACL check needs them).
 *
 * Threads: one per client connection.  Malformed calls get GARBAGE_ARGS;
 * every length is checked by the decoders.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "nfsacl.h"
#include "rpc_msg.h"
#include "../../src/rpc/record.h"
#include "../common/stream_io.h"

#define XATTR_ACCESS "system.posix_acl_access"
#define XATTR_DEFAULT "system.posix_acl_default"
#define MAX_RECORD (64u * 1024)
#define NOBODY 65534u

#define GANESHA_FH_VERSION 0x43u
#define FSID_LEN 8u

static int export_fd = -1;  /* a directory on the export's file system */
static uint8_t export_fsid[FSID_LEN];
static uint64_t export_fsid3;
static int verbose;

/* ---- handles and attributes ---- */

/* The file of an NFS handle as an O_PATH descriptor, or an nfsstat3. */
static uint32_t fh_open(const struct nfs_fh3 *fh, int *fd)
{
	const uint8_t *vfs = fh->data + 5;
	struct file_handle *kh;
	uint32_t vlen, klen;

	if (fh->len < 5 || fh->data[0] != GANESHA_FH_VERSION)
		return NFS3ERR_BADHANDLE;
	vlen = fh->data[4];
	/* flags, fsid, type, and at least one byte of kernel handle */
	if (vlen > fh->len - 5 || vlen < 1 + FSID_LEN + 1 + 1 ||
	    memcmp(vfs + 1, export_fsid, FSID_LEN))
		return NFS3ERR_BADHANDLE;
	klen = vlen - (1 + FSID_LEN + 1);
	kh = malloc(sizeof(*kh) + klen);
	if (!kh)
		return NFS3ERR_SERVERFAULT;
	kh->handle_bytes = klen;
	kh->handle_type = vfs[1 + FSID_LEN];
	memcpy(kh->f_handle, vfs + 1 + FSID_LEN + 1, klen);
	*fd = open_by_handle_at(export_fd, kh, O_PATH | O_CLOEXEC);
	free(kh);
	if (*fd >= 0)
		return NFS3_OK;
	return errno == ESTALE || errno == ENOENT ? NFS3ERR_STALE
						  : NFS3ERR_BADHANDLE;
}

static uint32_t errno_to_nfs3(int err)
{
	switch (err) {
	case EPERM: return NFS3ERR_PERM;
	case ENOENT: return NFS3ERR_NOENT;
	case EIO: return NFS3ERR_IO;
	case EACCES: return NFS3ERR_ACCES;
	case ENOTDIR: return NFS3ERR_NOTDIR;
	case EINVAL: return NFS3ERR_INVAL;
	case ENOSPC: return NFS3ERR_NOSPC;
	case EROFS: return NFS3ERR_ROFS;
	case EDQUOT: return NFS3ERR_DQUOT;
	case ESTALE: return NFS3ERR_STALE;
	case EOPNOTSUPP: return NFS3ERR_NOTSUPP;
	default: return NFS3ERR_SERVERFAULT;
	}
}

static uint32_t ftype3(mode_t m)
{
	switch (m & S_IFMT) {
	case S_IFREG: return NF3REG;
	case S_IFDIR: return NF3DIR;
	case S_IFBLK: return NF3BLK;
	case S_IFCHR: return NF3CHR;
	case S_IFLNK: return NF3LNK;
	case S_IFSOCK: return NF3SOCK;
	default: return NF3FIFO;
	}
}

/* post_op_attr of fd, as ganesha would give it (see the top). */
static void attr_of(int fd, struct post_op_attr *pa, struct stat *st)
{
	struct fattr3 *a = &pa->attr;

	pa->present = fstat(fd, st) == 0;
	if (!pa->present)
		return;
	*a = (struct fattr3){
		.type = ftype3(st->st_mode),
		.mode = st->st_mode & 07777,
		.nlink = (uint32_t)st->st_nlink,
		.uid = st->st_uid,
		.gid = st->st_gid,
		.size = (uint64_t)st->st_size,
		.used = (uint64_t)st->st_blocks * 512,
		.rdev = { major(st->st_rdev), minor(st->st_rdev) },
		.fsid = export_fsid3,
		.fileid = st->st_ino,
		.atime = { (uint32_t)st->st_atim.tv_sec,
			   (uint32_t)st->st_atim.tv_nsec },
		.mtime = { (uint32_t)st->st_mtim.tv_sec,
			   (uint32_t)st->st_mtim.tv_nsec },
		.ctime = { (uint32_t)st->st_ctim.tv_sec,
			   (uint32_t)st->st_ctim.tv_nsec },
	};
}

/* The xattrs are reached through /proc/self/fd: xattr calls on an O_PATH
 * descriptor itself fail with EBADF. */
static void proc_path(int fd, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/self/fd/%d", fd);
}

/* The file of a GETACL or SETACL: its descriptor (closed by the caller),
 * attributes and stat, or an nfsstat3 (symlinks have no ACLs). */
static uint32_t open_target(const struct nfs_fh3 *fh, uint32_t mask, int *fd,
			    struct post_op_attr *attr, struct stat *st)
{
	uint32_t status;

	if (mask & ~NFSACL_MASK_ALL)
		return NFS3ERR_INVAL;
	status = fh_open(fh, fd);
	if (status != NFS3_OK)
		return status;
	attr_of(*fd, attr, st);
	if (!attr->present)
		return errno_to_nfs3(errno);
	return S_ISLNK(st->st_mode) ? NFS3ERR_NOTSUPP : NFS3_OK;
}

/* ---- GETACL ---- */

/*
 * One ACL of fd in wire form (*out malloc'd, *n entries, NULL/0 for none),
 * with the owner's ids in USER_OBJ and GROUP_OBJ.  A file without an
 * access ACL has the minimal ACL of its mode, as knfsd sends.
 */
static int read_acl(int fd, const struct stat *st, bool access,
		    struct nfsacl_entry **out, uint32_t *n)
{
	char path[64];
	uint8_t *buf;
	ssize_t len;
	int ret;

	*out = NULL;
	*n = 0;
	proc_path(fd, path, sizeof(path));
	len = getxattr(path, access ? XATTR_ACCESS : XATTR_DEFAULT, NULL, 0);
	if (len < 0 && errno != ENODATA)
		return -errno;
	if (len <= 0) {
		if (!access)
			return 0;
		*out = calloc(4, sizeof(**out));
		if (!*out)
			return -ENOMEM;
		nfsacl_from_mode(st->st_mode, st->st_uid, st->st_gid, *out);
		*n = 4;
		return 0;
	}
	buf = malloc((size_t)len);
	if (!buf)
		return -ENOMEM;
	len = getxattr(path, access ? XATTR_ACCESS : XATTR_DEFAULT, buf,
		       (size_t)len);
	if (len < 0) {
		ret = -errno; /* ERANGE: it grew meanwhile; the client retries */
		free(buf);
		return ret;
	}
	ret = nfsacl_from_xattr(buf, (size_t)len,
				access ? 0 : NFSACL_DEFAULT, st->st_uid,
				st->st_gid, out, n);
	free(buf);
	return ret == -EINVAL ? -EIO : ret;
}

static uint32_t getacl(struct xdr_dec *d, struct xdr_enc *e)
{
	struct nfsacl_getacl_args a;
	struct nfsacl_getacl_res r = { .status = NFS3_OK };
	struct nfsacl_entry *acc = NULL, *def = NULL;
	uint32_t nacc = 0, ndef = 0;
	struct stat st = { 0 };
	int fd = -1, ret = 0;

	if (nfsacl_dec_getacl_args(d, &a))
		return RPC_GARBAGE_ARGS;
	r.status = open_target(&a.fh, a.mask, &fd, &r.attr, &st);
	if (r.status == NFS3_OK && (a.mask & (NFSACL_ACL | NFSACL_ACLCNT)))
		ret = read_acl(fd, &st, true, &acc, &nacc);
	if (r.status == NFS3_OK && !ret && S_ISDIR(st.st_mode) &&
	    (a.mask & (NFSACL_DFACL | NFSACL_DFACLCNT)))
		ret = read_acl(fd, &st, false, &def, &ndef);
	if (ret)
		r.status = errno_to_nfs3(-ret);
	r.mask = a.mask;
	/* Counts always; the entries only when asked for (as knfsd). */
	nfsacl_enc_getacl_res(e, &r,
		&(struct nfsacl_list){ nacc, a.mask & NFSACL_ACL ? nacc : 0,
				       acc },
		&(struct nfsacl_list){ ndef, a.mask & NFSACL_DFACL ? ndef : 0,
				       def });
	if (verbose)
		fprintf(stderr, "nfsacl_server: GETACL mask %#x -> %u "
			"(%u + %u entries)\n", a.mask, r.status, nacc, ndef);
	free(acc);
	free(def);
	if (fd >= 0)
		close(fd);
	return RPC_SUCCESS;
}

/* ---- SETACL ---- */

/* The minimal xattr value of an ACL whose entries say no more than the
 * mode: setting it clears the ACL and sets the mode's bits, as a
 * three-entry ACL does through set_posix_acl(). */
static size_t minimal_xattr(const struct nfsacl_wire_list *l, uint8_t *v)
{
	static const uint32_t tags[3] = { NFSACL_USER_OBJ, NFSACL_GROUP_OBJ,
					  NFSACL_OTHER_OBJ };

	v[0] = NFSACL_XATTR_VERSION;
	v[1] = v[2] = v[3] = 0;
	for (unsigned t = 0; t < 3; t++) {
		uint8_t *p = v + 4 + 8 * t;
		uint32_t perm = 0;

		for (uint32_t k = 0; k < l->n; k++) {
			struct nfsacl_entry en;

			nfsacl_entry_get(l, k, &en);
			if ((en.type & ~NFSACL_DEFAULT) == tags[t])
				perm = en.perm & 7;
		}
		p[0] = (uint8_t)tags[t];
		p[1] = 0;
		p[2] = (uint8_t)perm;
		p[3] = 0;
		memset(p + 4, 0xff, 4);
	}
	return NFSACL_XATTR_SIZE(3);
}

/* Store one ACL of fd (an empty list removes it).  Made with the caller's
 * fsuid/fsgid, set by the caller. */
static int write_acl(int fd, const struct nfsacl_wire_list *l, bool access)
{
	const char *name = access ? XATTR_ACCESS : XATTR_DEFAULT;
	uint8_t small[NFSACL_XATTR_SIZE(3)];
	uint8_t *v = small;
	char path[64];
	long len;
	int ret = 0;

	proc_path(fd, path, sizeof(path));
	if (l->n == 0) {
		if (removexattr(path, name) && errno != ENODATA)
			return -errno;
		return 0;
	}
	len = nfsacl_to_xattr(l, access, NULL, 0);
	if (len < 0)
		return len == -EIO ? -EINVAL : (int)len;
	if (len == 0) {
		len = (long)minimal_xattr(l, small);
	} else {
		v = malloc((size_t)len);
		if (!v)
			return -ENOMEM;
		nfsacl_to_xattr(l, access, v, (size_t)len);
	}
	if (setxattr(path, name, v, (size_t)len, 0))
		ret = -errno;
	if (v != small)
		free(v);
	return ret;
}

static uint32_t setacl(struct xdr_dec *d, struct xdr_enc *e,
		       const struct rpc_call_hdr *h)
{
	struct nfsacl_setacl_wire a;
	struct nfsacl_setacl_res r = { .status = NFS3_OK };
	uint32_t uid = NOBODY, gid = NOBODY;
	struct stat st = { 0 };
	int fd = -1, ret = 0;

	if (nfsacl_dec_setacl_args(d, &a) || a.acl.count != a.acl.n ||
	    a.dfacl.count != a.dfacl.n)
		return RPC_GARBAGE_ARGS;
	if (h->cred_flavor == RPC_AUTH_SYS) {
		uid = h->cred.uid;
		gid = h->cred.gid;
	}
	r.status = open_target(&a.fh, a.mask, &fd, &r.attr, &st);
	if (r.status == NFS3_OK) {
		/* Only the parts the mask names (knfsd would clear the
		 * others). */
		setfsgid(gid);
		setfsuid(uid);
		if (a.mask & (NFSACL_ACL | NFSACL_ACLCNT))
			ret = write_acl(fd, &a.acl, true);
		if (!ret && (a.mask & (NFSACL_DFACL | NFSACL_DFACLCNT)) &&
		    (S_ISDIR(st.st_mode) || a.dfacl.n))
			ret = write_acl(fd, &a.dfacl, false);
		setfsuid(0);
		setfsgid(0);
	}
	if (ret)
		r.status = errno_to_nfs3(-ret);
	if (fd >= 0)
		attr_of(fd, &r.attr, &st); /* the mode may have changed */
	nfsacl_enc_setacl_res(e, &r);
	if (verbose)
		fprintf(stderr, "nfsacl_server: SETACL mask %#x (%u + %u "
			"entries) as %u:%u -> %u\n", a.mask, a.acl.n,
			a.dfacl.n, uid, gid, r.status);
	if (fd >= 0)
		close(fd);
	return RPC_SUCCESS;
}

/* ---- RPC ---- */

static int serve_call(int fd, const uint8_t *rec, size_t len)
{
	struct rpc_call_hdr h;
	struct xdr_dec d;
	struct xdr_enc e, res;
	uint32_t stat;
	int ret;

	xdr_dec_init(&d, rec, len);
	if (rpcmsg_dec_call(&d, &h))
		return -EBADMSG;
	if (xdr_enc_init(&e, 1024, 4))
		return -ENOMEM;
	if (xdr_enc_init(&res, 1024, 0)) {
		xdr_enc_release(&e);
		return -ENOMEM;
	}
	if (h.prog != NFSACL_PROGRAM)
		stat = RPC_PROG_UNAVAIL;
	else if (h.vers != NFSACL_V3)
		stat = RPC_PROG_MISMATCH;
	else if (h.proc == NFSACLPROC_NULL)
		stat = RPC_SUCCESS;
	else if (h.proc == NFSACLPROC3_GETACL)
		stat = getacl(&d, &res);
	else if (h.proc == NFSACLPROC3_SETACL)
		stat = setacl(&d, &res, &h);
	else
		stat = RPC_PROC_UNAVAIL;
	if (stat == RPC_SUCCESS && xdr_enc_error(&res))
		stat = RPC_SYSTEM_ERR;
	rpcmsg_enc_accepted_reply(&e, h.xid, stat);
	if (stat == RPC_SUCCESS)
		xdr_enc_opaque_fixed(&e, res.buf, res.len);
	if (stat == RPC_PROG_MISMATCH) {
		xdr_enc_u32(&e, NFSACL_V3);
		xdr_enc_u32(&e, NFSACL_V3);
	}
	ret = xdr_enc_error(&e);
	if (!ret) {
		xdr_put_u32(e.buf, RPC_RECORD_LAST | (uint32_t)(e.len - 4));
		ret = stream_write_all(fd, e.buf, e.len);
	}
	xdr_enc_release(&res);
	xdr_enc_release(&e);
	return ret;
}

static void *conn_main(void *arg)
{
	int fd = (int)(intptr_t)arg;
	struct rpc_record_reader rr;
	uint8_t in[16384];
	bool done = false;

	rpc_record_reader_init(&rr, MAX_RECORD);
	while (!done) {
		ssize_t got = recv(fd, in, sizeof(in), 0);
		size_t off = 0;

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		while (!done && off < (size_t)got) {
			uint8_t *rec = NULL;
			size_t used, rlen;
			int r = rpc_record_feed(&rr, in + off,
						(size_t)got - off, &used,
						&rec, &rlen);

			off += used;
			if (r < 0)
				done = true;
			else if (r == 1 && serve_call(fd, rec, rlen))
				done = true;
			free(rec);
			if (r == 0)
				break;
		}
	}
	rpc_record_reader_free(&rr);
	close(fd);
	return NULL;
}

static int open_export(const char *dir)
{
	struct statfs sf;
	uint32_t f[2];

	export_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (export_fd < 0 || fstatfs(export_fd, &sf)) {
		fprintf(stderr, "nfsacl_server: %s: %s\n", dir,
			strerror(errno));
		return -1;
	}
	memcpy(export_fsid, &sf.f_fsid, FSID_LEN);
	memcpy(f, &sf.f_fsid, sizeof(f));
	export_fsid3 = (uint64_t)f[1] << 32 | f[0];
	return 0;
}

static int parse_port(const char *s, unsigned long *port)
{
	char *end;

	*port = strtoul(s, &end, 10);
	return *end || !*port || *port > 65535 ? -1 : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: nfsacl_server --listen PORT --export DIR "
		"[--verbose]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *dir = NULL;
	unsigned long port = 0;
	struct sockaddr_in la;
	int lfd, one = 1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--verbose"))
			verbose = 1;
		else if (!strcmp(argv[i], "--listen") && i + 1 < argc) {
			if (parse_port(argv[++i], &port))
				usage();
		} else if (!strcmp(argv[i], "--export") && i + 1 < argc)
			dir = argv[++i];
		else
			usage();
	}
	if (!port || !dir)
		usage();
	if (open_export(dir))
		return 1;
	signal(SIGPIPE, SIG_IGN);
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0) {
		perror("nfsacl_server: socket");
		return 1;
	}
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&la, 0, sizeof(la));
	la.sin_family = AF_INET;
	la.sin_port = htons((uint16_t)port);
	la.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(lfd, (struct sockaddr *)&la, sizeof(la)) || listen(lfd, 16)) {
		perror("nfsacl_server: bind");
		return 1;
	}
	fprintf(stderr, "nfsacl_server: listening on 127.0.0.1:%lu for %s\n",
		port, dir);
	for (;;) {
		pthread_t t;
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			perror("nfsacl_server: accept");
			return 1;
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (pthread_create(&t, NULL, conn_main, (void *)(intptr_t)fd)) {
			close(fd);
			continue;
		}
		pthread_detach(t);
	}
}
