/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inode table arithmetic: lookup counts, identity by handle, the root,
 * the names the kernel took inodes under. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <glib.h>
#include <malloc.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../src/cache/inode.h"

static const struct acache_params params = {
	.regmin = 3, .regmax = 60, .dirmin = 30, .dirmax = 60,
};

static struct nfs_fh3 mkfh(uint8_t tag, uint32_t len)
{
	struct nfs_fh3 fh = { .len = len };

	memset(fh.data, tag, len);
	return fh;
}

static void test_remember_forget(void **state)
{
	struct nfs_fh3 root = mkfh(1, 16), a = mkfh(2, 16), a_short = mkfh(2, 8);
	struct inode_table *t = inode_table_new(&root, 1, &params, NULL);
	struct inode *x, *y, *z;

	(void)state;
	assert_non_null(t);
	assert_int_equal(inode_count(t), 1);
	assert_ptr_equal(inode_get(t, 1), inode_root(t));

	x = inode_remember(t, &a);
	y = inode_remember(t, &a);
	assert_ptr_equal(x, y);              /* same handle, same node */
	assert_int_equal(x->nlookup, 2);
	z = inode_remember(t, &a_short);     /* a prefix is another handle */
	assert_ptr_not_equal(x, z);
	assert_int_not_equal(x->id, z->id);
	assert_int_equal(inode_count(t), 3);

	inode_forget(t, x->id, 1);
	assert_ptr_equal(inode_get(t, x->id), x);
	inode_forget(t, x->id, 1);
	assert_null(inode_get(t, 2));        /* freed at zero */
	assert_int_equal(inode_count(t), 2);

	/* A node id is never handed out twice. */
	x = inode_remember(t, &a);
	assert_int_not_equal(x->id, 2);

	/* The root is pinned whatever the kernel forgets. */
	inode_forget(t, 1, 1);
	assert_ptr_equal(inode_get(t, 1), inode_root(t));
	inode_table_free(t);
}

/*
 * What a cached inode costs the daemon: what the kernel keeps (every file
 * of a listing, for as long as it keeps its dentries) the daemon keeps
 * too.  The README documents the figure; here it is bounded, with the
 * table's own indexes, for handles of nfs-ganesha's size.  An ACCESS
 * cache is made only for the files that get an answer.
 */
#define INODE_BYTES_MAX 800

static void test_memory_per_inode(void **state)
{
	struct nfs_fh3 root = mkfh(1, 16), fh = mkfh(0, 36);
	struct inode_table *t = inode_table_new(&root, 1, &params, NULL);
	const unsigned n = 20000;
	size_t before, after;
	struct inode *ino;

	(void)state;
	before = mallinfo2().uordblks;
	for (unsigned k = 0; k < n; k++) {
		char name[32];

		memcpy(fh.data, &k, sizeof(k));
		ino = inode_remember(t, &fh);
		assert_non_null(ino);
		/* Every inode the kernel holds came to it by a name. */
		snprintf(name, sizeof(name), "file-%05u.c", k);
		inode_named(t, ino, 1, name);
	}
	after = mallinfo2().uordblks;
	assert_int_equal(inode_count(t), n + 1);
	ino = inode_get(t, 2);
	assert_null(ino->acc);
	pthread_mutex_lock(&ino->lock);
	assert_non_null(inode_access_cache(ino));
	assert_ptr_equal(inode_access_cache(ino), ino->acc);
	pthread_mutex_unlock(&ino->lock);
	/* A sanitizer's or valgrind's allocator does not count in mallinfo. */
	if (after > before) {
		size_t per = (after - before) / n;

		printf("# %zu bytes per inode (struct inode: %zu)\n", per,
		       sizeof(struct inode));
		assert_true(per <= INODE_BYTES_MAX);
	} else {
		printf("# the allocator does not count: not measured\n");
	}
	inode_table_free(t);
}

static void test_root_handle_is_root(void **state)
{
	struct nfs_fh3 root = mkfh(9, 32);
	struct inode_table *t = inode_table_new(&root, 1, &params, NULL);

	(void)state;
	/* A LOOKUP of ".." at the top returns the root's handle: it must be
	 * the root node, not a second node for the same file. */
	assert_ptr_equal(inode_remember(t, &root), inode_root(t));
	inode_table_free(t);
}

static void test_attr(void **state)
{
	struct nfs_fh3 root = mkfh(1, 4);
	struct inode_table *t = inode_table_new(&root, 1, &params, NULL);
	struct fattr3 a = { .type = NF3REG, .size = 42 }, b;
	struct inode *i = inode_root(t);

	(void)state;
	assert_false(inode_get_attr(i, &b));
	a.mtime.seconds = a.ctime.seconds = 1000; /* long ago */
	assert_int_equal(inode_set_attr(t, i, &a), ACACHE_NEW);
	assert_true(inode_get_attr(i, &b));
	assert_int_equal(b.size, 42);
	{
		double left;

		assert_true(inode_fresh_attr(i, &b, &left));
		assert_true(left > 2.0 && left <= 3.0); /* acregmin */
	}
	a.size = 43;
	assert_int_equal(inode_set_attr(t, i, &a), ACACHE_DATA);
	inode_invalidate_attr(i);
	assert_false(inode_get_attr(i, &b));
	inode_table_free(t);
}

/* A handle names one object for its life: attributes with no valid file
 * type, or with another type than the first, are a corrupt reply.  The
 * cache keeps what it had, and the type stays the one first seen. */
static void test_attr_type_refused(void **state)
{
	struct nfs_fh3 root = mkfh(1, 4);
	struct inode_table *t = inode_table_new(&root, 1, &params, NULL);
	struct fattr3 a = { .type = NF3DIR, .size = 4096 }, b;
	struct inode *i = inode_root(t);

	(void)state;
	a.mtime.seconds = a.ctime.seconds = 1000;
	assert_int_equal(inode_type(i), 0);
	b = a;
	b.type = 0xffffff00u; /* no ftype3 */
	assert_int_equal(inode_set_attr(t, i, &b), ACACHE_REFUSED);
	assert_false(inode_get_attr(i, &b));
	assert_int_equal(inode_type(i), 0);

	assert_int_equal(inode_set_attr(t, i, &a), ACACHE_NEW);
	assert_int_equal(inode_type(i), NF3DIR);
	b = a;
	b.type = NF3REG;
	b.size = 7;
	assert_int_equal(inode_set_attr(t, i, &b), ACACHE_REFUSED);
	assert_true(inode_get_attr(i, &b));
	assert_int_equal(b.type, NF3DIR);
	assert_int_equal(b.size, 4096);
	b.type = 0;
	assert_int_equal(inode_set_attr(t, i, &b), ACACHE_REFUSED);
	assert_int_equal(inode_type(i), NF3DIR);
	a.size = 8192;
	assert_int_equal(inode_set_attr(t, i, &a), ACACHE_DATA);
	inode_table_free(t);
}

static void test_over_forget_aborts(void **state)
{
	struct nfs_fh3 root = mkfh(1, 4), a = mkfh(3, 4);
	struct inode_table *t = inode_table_new(&root, 1, &params, NULL);
	struct inode *x = inode_remember(t, &a);

	int status;
	pid_t pid;

	(void)state;
	/* A negative count means the accounting is broken: the table must
	 * stop the daemon rather than free a node the kernel still names. */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		fclose(stderr);
		inode_forget(t, x->id, 2);
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	inode_table_free(t);
}

#define MAY DIR_MAY_HOLD
#define COMPLETE DIR_LACKS_COMPLETE
#define ABSENT DIR_LACKS_ABSENT

static void test_dir_completeness(void **state)
{
	struct nfs_fh3 root = mkfh(1, 4), a = mkfh(4, 4);
	struct inode_table *t = inode_table_new(&root, 1, &params, NULL);
	struct inode *d = inode_remember(t, &a);

	(void)state;
	/* Unknown until made here: nothing may be answered from it. */
	assert_int_equal(MAY, inode_dir_lacks(d, "x"));
	inode_dir_add_name(d, "x"); /* no-op while not complete */
	inode_dir_complete(d);
	assert_int_equal(COMPLETE, inode_dir_lacks(d, "x"));
	inode_dir_add_name(d, "x");
	assert_int_equal(MAY, inode_dir_lacks(d, "x"));
	assert_int_equal(COMPLETE, inode_dir_lacks(d, "y"));
	inode_dir_complete(d); /* again: the names stay */
	assert_int_equal(MAY, inode_dir_lacks(d, "x"));
	inode_dir_incomplete(d);
	assert_int_equal(MAY, inode_dir_lacks(d, "y"));
	/* Freed with its names (valgrind and ASan check that). */
	inode_dir_complete(d);
	inode_dir_add_name(d, "z");
	inode_forget(t, d->id, 1);
	inode_table_free(t);
}

/* Names a LOOKUP found missing: remembered until we add one, or anyone
 * else may have changed the directory; and not at all when something
 * changed while the LOOKUP was on the wire. */
static void test_dir_absent(void **state)
{
	struct nfs_fh3 root = mkfh(1, 4), a = mkfh(4, 4);
	struct inode_table *t = inode_table_new(&root, 1, &params, NULL);
	struct inode *d = inode_remember(t, &a);
	struct names_stamp gen;

	(void)state;
	gen = inode_dir_stamp(d);
	inode_dir_absent(d, "x", gen);
	inode_dir_absent(d, "y", gen);
	assert_int_equal(ABSENT, inode_dir_lacks(d, "x"));
	assert_int_equal(MAY, inode_dir_lacks(d, "z")); /* never asked */
	/* We made x: it is there now; y is still missing. */
	inode_dir_add_name(d, "x");
	assert_int_equal(MAY, inode_dir_lacks(d, "x"));
	assert_int_equal(ABSENT, inode_dir_lacks(d, "y"));
	/* A LOOKUP sent before that change says nothing any longer: its
	 * answer may be from before our create of the same name. */
	inode_dir_absent(d, "x", gen);
	assert_int_equal(MAY, inode_dir_lacks(d, "x"));
	/* Someone else changed it: nothing is known. */
	inode_dir_incomplete(d);
	assert_int_equal(MAY, inode_dir_lacks(d, "y"));
	/* In a complete directory, a name asked about is absent either
	 * way; the answer that needs no dircomplete wins. */
	inode_dir_complete(d);
	inode_dir_absent(d, "q", inode_dir_stamp(d));
	assert_int_equal(ABSENT, inode_dir_lacks(d, "q"));
	assert_int_equal(COMPLETE, inode_dir_lacks(d, "r"));
	/* Freed with its names (valgrind and ASan check that). */
	inode_forget(t, d->id, 1);
	inode_table_free(t);
}

/* Names a LOOKUP found, with their inodes: kept until we remove or
 * rename the name away, add another file under it, or anyone else may
 * have changed the directory; not at all when something changed while
 * the LOOKUP was on the wire.  The inode is found by its node id, with a
 * lookup more, while it lives. */
static void test_dir_found(void **state)
{
	struct nfs_fh3 root = mkfh(1, 4), a = mkfh(4, 4), fx = mkfh(7, 8);
	struct inode_table *t = inode_table_new(&root, 1, &params, NULL);
	struct inode *d = inode_remember(t, &a), *x = inode_remember(t, &fx);
	uint64_t xid = x->id;
	struct names_stamp gen, epoch;

	(void)state;
	assert_int_equal(0, inode_dir_holds(d, "x"));
	gen = inode_dir_stamp(d);
	inode_dir_found(d, "x", xid, gen);
	assert_int_equal(xid, inode_dir_holds(d, "x"));
	assert_ptr_equal(x, inode_ref(t, xid));
	assert_int_equal(2, inode_lookups(t, x));
	/* Found now, missing before: found wins, and the other way. */
	inode_dir_absent(d, "y", inode_dir_stamp(d));
	inode_dir_found(d, "y", xid, inode_dir_stamp(d));
	assert_int_equal(MAY, inode_dir_lacks(d, "y"));
	assert_int_equal(xid, inode_dir_holds(d, "y"));
	inode_dir_absent(d, "y", inode_dir_stamp(d));
	assert_int_equal(0, inode_dir_holds(d, "y"));
	assert_int_equal(ABSENT, inode_dir_lacks(d, "y"));
	/* Removed here: gone, and a LOOKUP sent before says nothing. */
	gen = inode_dir_stamp(d);
	inode_dir_drop_name(d, "x");
	assert_int_equal(0, inode_dir_holds(d, "x"));
	inode_dir_found(d, "x", xid, gen);
	assert_int_equal(0, inode_dir_holds(d, "x"));
	/* Another file made or renamed here under the name. */
	inode_dir_found(d, "x", xid, inode_dir_stamp(d));
	inode_dir_add_name(d, "x");
	assert_int_equal(0, inode_dir_holds(d, "x"));
	assert_int_equal(MAY, inode_dir_lacks(d, "x"));
	/* Someone else changed it: nothing is known. */
	inode_dir_found(d, "z", xid, inode_dir_stamp(d));
	inode_dir_incomplete(d);
	assert_int_equal(0, inode_dir_holds(d, "z"));
	/* A create of ours: what it made is under the name, unless a
	 * change by someone else was seen while its call was out (which
	 * may have come after it on the server). */
	epoch = inode_dir_stamp(d);
	inode_dir_add_name(d, "c");
	inode_dir_made(d, "c", xid, epoch);
	assert_int_equal(xid, inode_dir_holds(d, "c"));
	epoch = inode_dir_stamp(d);
	inode_dir_drop_name(d, "c");  /* ours: not someone else's */
	inode_dir_add_name(d, "c");
	inode_dir_made(d, "c", xid, epoch);
	assert_int_equal(xid, inode_dir_holds(d, "c"));
	epoch = inode_dir_stamp(d);
	inode_dir_incomplete(d);
	inode_dir_add_name(d, "c");
	inode_dir_made(d, "c", xid, epoch);
	assert_int_equal(0, inode_dir_holds(d, "c"));
	/* The inode forgotten: its id finds nothing. */
	inode_dir_found(d, "z", xid, inode_dir_stamp(d));
	inode_forget(t, xid, 2);
	assert_null(inode_ref(t, xid));
	/* Freed with its names (valgrind and ASan check that). */
	inode_forget(t, d->id, 1);
	inode_table_free(t);
}

/* Names a listing found: as a LOOKUP's, but a full set stays as it is. */
static void test_dir_listed(void **state)
{
	struct nfs_fh3 root = mkfh(1, 4), a = mkfh(4, 4), fx = mkfh(7, 8);
	struct inode_table *t = inode_table_new(&root, 1, &params, NULL);
	struct inode *d = inode_remember(t, &a), *x = inode_remember(t, &fx);
	uint64_t xid = x->id;
	struct names_stamp gen;
	char name[16];
	unsigned k;

	(void)state;
	gen = inode_dir_stamp(d);
	inode_dir_listed(d, "x", xid, gen);
	assert_int_equal(xid, inode_dir_holds(d, "x"));
	/* A change of ours while the listing was out: not kept. */
	gen = inode_dir_stamp(d);
	inode_dir_drop_name(d, "y");
	inode_dir_listed(d, "y", xid, gen);
	assert_int_equal(0, inode_dir_holds(d, "y"));
	/* Filled to the brim by a listing: what is there stays, the rest
	 * is not kept; a LOOKUP's answer still makes room. */
	gen = inode_dir_stamp(d);
	for (k = 0; k < 5000; k++) {
		snprintf(name, sizeof(name), "e%u", k);
		inode_dir_listed(d, name, xid, gen);
	}
	assert_int_equal(xid, inode_dir_holds(d, "x"));
	assert_int_equal(xid, inode_dir_holds(d, "e4000"));
	assert_int_equal(0, inode_dir_holds(d, "e4999"));
	inode_dir_found(d, "late", xid, inode_dir_stamp(d));
	assert_int_equal(xid, inode_dir_holds(d, "late"));
	inode_forget(t, xid, 1);
	inode_forget(t, d->id, 1);
	inode_table_free(t);
}

/* The names the kernel took inodes under: found again by a rename. */
static void test_names(void **state)
{
	struct nfs_fh3 root = mkfh(1, 4), fa = mkfh(2, 4), fb = mkfh(3, 4);
	struct inode_table *t = inode_table_new(&root, 1, &params, NULL);
	struct inode *a = inode_remember(t, &fa), *b = inode_remember(t, &fb);
	char buf[8], n[8];

	(void)state;
	assert_string_equal(inode_name(a, buf, sizeof(buf)), "");
	assert_null(inode_renamed(t, 1, "x", 1, "y"));
	inode_named(t, a, 1, "x");
	inode_named(t, a, 1, "x"); /* again: nothing changes */
	assert_ptr_equal(inode_renamed(t, 1, "x", 1, "y"), a);
	assert_int_equal(a->nlookup, 2); /* the caller's hold */
	inode_forget(t, a->id, 1);
	assert_null(inode_renamed(t, 1, "x", 1, "w"));
	assert_string_equal(inode_name(a, buf, sizeof(buf)), "y");
	/* Another file takes the name: a rename finds that one. */
	inode_named(t, b, 1, "y");
	assert_ptr_equal(inode_renamed(t, 1, "y", 2, "z"), b);
	inode_forget(t, b->id, 1);
	assert_null(inode_renamed(t, 1, "y", 1, "v"));
	/* The same name in another directory is another name. */
	inode_named(t, a, 3, "z");
	assert_ptr_equal(inode_renamed(t, 2, "z", 2, "zz"), b);
	inode_forget(t, b->id, 1);
	/* Removed: not found, but still the file's name in the trace. */
	inode_unnamed(t, 2, "zz");
	assert_null(inode_renamed(t, 2, "zz", 2, "q"));
	assert_string_equal(inode_name(b, buf, sizeof(buf)), "zz");
	/* A file with many links keeps its last few names. */
	for (int k = 0; k < 6; k++) {
		snprintf(n, sizeof(n), "l%d", k);
		inode_named(t, a, 1, n);
	}
	assert_ptr_equal(inode_renamed(t, 1, "l5", 1, "m5"), a);
	inode_forget(t, a->id, 1);
	assert_ptr_equal(inode_renamed(t, 1, "l3", 1, "m3"), a);
	inode_forget(t, a->id, 1);
	assert_null(inode_renamed(t, 1, "l0", 1, "m0"));
	/* Truncated to the buffer. */
	inode_named(t, a, 1, "a-long-name");
	assert_string_equal(inode_name(a, buf, sizeof(buf)), "a-long-");
	/* Freed with their names (valgrind and ASan check that); a name
	 * of a freed inode is found no more. */
	inode_forget(t, b->id, 1);
	inode_named(t, a, 4, "zz");
	inode_forget(t, a->id, 1);
	assert_null(inode_renamed(t, 4, "zz", 4, "q"));
	assert_int_equal(inode_count(t), 1);
	inode_table_free(t);
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static void collect(const char *name, void *ctx)
{
	GString *out = ctx;

	g_string_append_printf(out, "%s%s", out->len ? " " : "", name);
}

/* The names of a directory's list, sorted, as one string. */
static char *kernel_names_before(struct inode_table *t, struct inode *dir,
				 uint64_t before)
{
	GString *out = g_string_new(NULL);
	gchar **v;
	char *s;

	inode_kernel_names(t, dir, before, collect, out);
	v = g_strsplit(out->str, " ", -1);
	g_string_free(out, TRUE);
	if (!v[0] || !v[0][0]) {
		g_strfreev(v);
		return g_strdup("");
	}
	qsort(v, g_strv_length(v), sizeof(*v), cmp_str);
	s = g_strjoinv(" ", v);
	g_strfreev(v);
	return s;
}

#define assert_names_before(t, dir, before, want)                         \
	do {                                                              \
		char *got_ = kernel_names_before(t, dir, before);         \
		assert_string_equal(got_, want);                          \
		g_free(got_);                                             \
	} while (0)
#define assert_names(t, dir, want)                                        \
	do {                                                              \
		char *got_ = kernel_names_before(t, dir, UINT64_MAX);     \
		assert_string_equal(got_, want);                          \
		g_free(got_);                                             \
	} while (0)

/* A directory's names the kernel holds entries for: what a change by
 * someone else must make it look up again. */
static void test_kernel_names(void **state)
{
	struct nfs_fh3 root = mkfh(1, 4), fd = mkfh(2, 4), fa = mkfh(3, 4),
		       fb = mkfh(4, 4);
	struct inode_table *t = inode_table_new(&root, 1, &params, NULL);
	struct inode *r = inode_root(t);
	struct inode *d = inode_remember(t, &fd), *a = inode_remember(t, &fa),
		     *b = inode_remember(t, &fb);
	uint64_t did = d->id, seq, seq2;

	(void)state;
	assert_names(t, r, "");
	inode_named(t, d, r->id, "d");
	inode_named(t, a, did, "x");
	inode_named(t, a, did, "x");        /* again: once */
	inode_named(t, b, did, "y");
	assert_names(t, r, "d");
	assert_names(t, d, "x y");
	/* Given again after a point, a name is not among those given
	 * before it: a listing refreshed it. */
	assert_true(inode_kernel_names_mark(t, d, &seq));
	assert_false(inode_kernel_names_mark(t, a, &seq2));
	assert_true(seq2 == seq);
	inode_named(t, a, did, "x");
	assert_names_before(t, d, seq + 1, "x y");
	assert_names_before(t, d, seq, "y");
	assert_true(inode_kernel_names_mark(t, d, &seq2));
	assert_true(seq2 == seq + 1);
	/* Another file takes a name: listed once. */
	inode_named(t, b, did, "x");
	assert_names(t, d, "x y");
	/* Removed, renamed to another directory. */
	inode_unnamed(t, did, "y");
	assert_names(t, d, "x");
	inode_forget(t, inode_renamed(t, did, "x", r->id, "z")->id, 1);
	assert_names(t, d, "");
	assert_names(t, r, "d z");
	/* A file forgotten takes its names along. */
	inode_named(t, a, did, "w");
	assert_names(t, d, "w");
	inode_forget(t, a->id, 1);
	assert_names(t, d, "");
	/* The directory forgotten first: its own name goes; the names in
	 * it stay indexed under its node id until their file goes
	 * (valgrind and ASan check the list is let go of). */
	inode_named(t, b, did, "v");
	inode_forget(t, did, 1);
	assert_names(t, r, "z");
	assert_ptr_equal(inode_renamed(t, did, "v", r->id, "u"), b);
	inode_forget(t, b->id, 1);
	assert_names(t, r, "u z");
	inode_forget(t, b->id, 1);
	assert_names(t, r, "");
	assert_int_equal(inode_count(t), 1);
	inode_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_remember_forget),
		cmocka_unit_test(test_root_handle_is_root),
		cmocka_unit_test(test_memory_per_inode),
		cmocka_unit_test(test_attr),
		cmocka_unit_test(test_attr_type_refused),
		cmocka_unit_test(test_over_forget_aborts),
		cmocka_unit_test(test_dir_completeness),
		cmocka_unit_test(test_dir_absent),
		cmocka_unit_test(test_dir_found),
		cmocka_unit_test(test_dir_listed),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_kernel_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
