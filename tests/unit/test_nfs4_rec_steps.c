/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The NFSv4.1 recovery rules: what each reply asks of the session, and
 * the steps of a recovery from a lost session or client id. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../src/proto/nfs4_recover.h"
#include "../../xdr/nfs4.h"

static void test_classify_sequence(void **state)
{
	(void)state;
	assert_int_equal(nfs4_rec_classify(NFS4_OK, NFS4_OK, true),
			 NFS4_REC_NONE);
	assert_int_equal(nfs4_rec_classify(NFS4ERR_BADSESSION,
					   NFS4ERR_BADSESSION, true),
			 NFS4_REC_SESSION);
	assert_int_equal(nfs4_rec_classify(NFS4ERR_DEADSESSION, 0, false),
			 NFS4_REC_SESSION);
	assert_int_equal(nfs4_rec_classify(NFS4ERR_CONN_NOT_BOUND_TO_SESSION,
					   0, false),
			 NFS4_REC_SESSION);
	assert_int_equal(nfs4_rec_classify(NFS4ERR_STALE_CLIENTID, 0, false),
			 NFS4_REC_CLIENT);
	assert_int_equal(nfs4_rec_classify(NFS4ERR_EXPIRED, 0, false),
			 NFS4_REC_CLIENT);
	/* SEQUENCE's own DELAY: the same slot and sequence id later */
	assert_int_equal(nfs4_rec_classify(NFS4ERR_DELAY, NFS4ERR_DELAY,
					   false),
			 NFS4_REC_SLOT_LATER);
	assert_int_equal(nfs4_rec_classify(NFS4ERR_RETRY_UNCACHED_REP,
					   NFS4ERR_RETRY_UNCACHED_REP, false),
			 NFS4_REC_RESEND_NEW);
	/* handled by the slot table, not here */
	assert_int_equal(nfs4_rec_classify(NFS4ERR_SEQ_MISORDERED, 0, false),
			 NFS4_REC_NONE);
	assert_int_equal(nfs4_rec_classify(NFS4ERR_BADSLOT, 0, false),
			 NFS4_REC_NONE);
}

static void test_classify_operations(void **state)
{
	(void)state;
	/* The stub reply of a server that was not asked to cache: SEQUENCE
	 * succeeded and the next operation says RETRY_UNCACHED_REP (a call
	 * sent again after a reconnection).  Taken as the reply, it was EIO
	 * in creates under connection cuts. */
	assert_int_equal(nfs4_rec_classify(NFS4_OK, NFS4ERR_RETRY_UNCACHED_REP,
					   true),
			 NFS4_REC_RESEND_NEW);
	assert_int_equal(nfs4_rec_classify(NFS4_OK, NFS4ERR_RETRY_UNCACHED_REP,
					   false),
			 NFS4_REC_RESEND_NEW);
	/* DELAY and GRACE from an operation: again later, but only when
	 * the operations before it had no effect */
	assert_int_equal(nfs4_rec_classify(NFS4_OK, NFS4ERR_GRACE, true),
			 NFS4_REC_LATER);
	assert_int_equal(nfs4_rec_classify(NFS4_OK, NFS4ERR_DELAY, true),
			 NFS4_REC_LATER);
	assert_int_equal(nfs4_rec_classify(NFS4_OK, NFS4ERR_GRACE, false),
			 NFS4_REC_NONE);
	assert_int_equal(nfs4_rec_classify(NFS4_OK, NFS4ERR_DELAY, false),
			 NFS4_REC_NONE);
	/* a stateid of a client id the server forgot */
	assert_int_equal(nfs4_rec_classify(NFS4_OK, NFS4ERR_STALE_CLIENTID,
					   true),
			 NFS4_REC_CLIENT);
	/* an expired stateid is that file's, not the client id's */
	assert_int_equal(nfs4_rec_classify(NFS4_OK, NFS4ERR_EXPIRED, true),
			 NFS4_REC_NONE);
	/* ordinary failures stand */
	assert_int_equal(nfs4_rec_classify(NFS4_OK, NFS4ERR_NOENT, true),
			 NFS4_REC_NONE);
	assert_int_equal(nfs4_rec_classify(NFS4_OK, NFS4ERR_EXIST, true),
			 NFS4_REC_NONE);
}

static void test_pure_ops(void **state)
{
	(void)state;
	assert_true(nfs4_rec_op_pure(NFS4OP_SEQUENCE));
	assert_true(nfs4_rec_op_pure(NFS4OP_PUTFH));
	assert_true(nfs4_rec_op_pure(NFS4OP_SAVEFH));
	assert_true(nfs4_rec_op_pure(NFS4OP_GETATTR));
	assert_true(nfs4_rec_op_pure(NFS4OP_LOOKUP));
	assert_true(nfs4_rec_op_pure(NFS4OP_READ));
	assert_false(nfs4_rec_op_pure(NFS4OP_WRITE));
	assert_false(nfs4_rec_op_pure(NFS4OP_OPEN));
	assert_false(nfs4_rec_op_pure(NFS4OP_REMOVE));
	assert_false(nfs4_rec_op_pure(NFS4OP_RENAME));
	assert_false(nfs4_rec_op_pure(NFS4OP_SETATTR));
	assert_false(nfs4_rec_op_pure(NFS4OP_CLOSE));
	assert_false(nfs4_rec_op_pure(NFS4OP_CREATE));
}

/* A lost session on a client id the server still knows: CREATE_SESSION
 * alone, nothing to reclaim, no RECLAIM_COMPLETE. */
static void test_new_session(void **state)
{
	struct nfs4_rec r;

	(void)state;
	nfs4_rec_begin(&r, NFS4_REC_SESSION, false);
	assert_int_equal(r.step, NFS4_REC_CREATE_SESSION);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4_OK), NFS4_REC_DONE);
	assert_false(r.new_client);
	/* done stays done */
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4ERR_IO), NFS4_REC_DONE);
}

/* A server restart: CREATE_SESSION says the client id is stale, then
 * EXCHANGE_ID, CREATE_SESSION, reclaim in grace, RECLAIM_COMPLETE. */
static void test_server_restart(void **state)
{
	struct nfs4_rec r;

	(void)state;
	nfs4_rec_begin(&r, NFS4_REC_SESSION, false);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4ERR_STALE_CLIENTID),
			 NFS4_REC_EXCHANGE_ID);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4_OK),
			 NFS4_REC_CREATE_SESSION);
	assert_true(r.new_client);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4_OK), NFS4_REC_RECLAIM);
	assert_int_equal(nfs4_rec_kind(&r), NFS4_RECLAIM_GRACE);
	assert_int_equal(nfs4_rec_next(&r, 0, 0), NFS4_REC_RECLAIM_COMPLETE);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4_OK), NFS4_REC_DONE);

	/* straight from STALE_CLIENTID on SEQUENCE */
	nfs4_rec_begin(&r, NFS4_REC_CLIENT, false);
	assert_int_equal(r.step, NFS4_REC_EXCHANGE_ID);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4_OK),
			 NFS4_REC_CREATE_SESSION);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4_OK), NFS4_REC_RECLAIM);
	assert_int_equal(nfs4_rec_next(&r, 0, 0), NFS4_REC_RECLAIM_COMPLETE);
	/* a server that had nothing to reclaim says so */
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4ERR_COMPLETE_ALREADY),
			 NFS4_REC_DONE);

	/* CREATE_SESSION refused for a wrong sequence id: a new client id */
	nfs4_rec_begin(&r, NFS4_REC_SESSION, false);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4ERR_SEQ_MISORDERED),
			 NFS4_REC_EXCHANGE_ID);
}

/* The lease ran out during a partition: the state is lost, not
 * reclaimed. */
static void test_expired(void **state)
{
	struct nfs4_rec r;

	(void)state;
	nfs4_rec_begin(&r, NFS4_REC_CLIENT, true);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4_OK),
			 NFS4_REC_CREATE_SESSION);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4_OK), NFS4_REC_RECLAIM);
	assert_int_equal(nfs4_rec_kind(&r), NFS4_RECLAIM_LOST);

	/* found out only at CREATE_SESSION */
	nfs4_rec_begin(&r, NFS4_REC_SESSION, false);
	assert_int_equal(nfs4_rec_kind(&r), NFS4_RECLAIM_GRACE);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4ERR_EXPIRED),
			 NFS4_REC_EXCHANGE_ID);
	assert_int_equal(nfs4_rec_kind(&r), NFS4_RECLAIM_LOST);
}

/* No answer or DELAY: the same step again after a growing wait. */
static void test_waits(void **state)
{
	struct nfs4_rec r;

	(void)state;
	nfs4_rec_begin(&r, NFS4_REC_CLIENT, false);
	assert_int_equal(nfs4_rec_next(&r, -ETIMEDOUT, 0),
			 NFS4_REC_EXCHANGE_ID);
	assert_int_equal(r.waits, 1);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4ERR_DELAY),
			 NFS4_REC_EXCHANGE_ID);
	assert_int_equal(r.waits, 2);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4_OK),
			 NFS4_REC_CREATE_SESSION);
	assert_int_equal(r.waits, 0);
	assert_int_equal(nfs4_rec_backoff_us(1), 100000);
	assert_int_equal(nfs4_rec_backoff_us(2), 200000);
	assert_int_equal(nfs4_rec_backoff_us(3), 400000);
	assert_int_equal(nfs4_rec_backoff_us(50), 2000000);
}

/* Refusals end the recovery: calls then answer EIO. */
static void test_failures(void **state)
{
	struct nfs4_rec r;

	(void)state;
	nfs4_rec_begin(&r, NFS4_REC_CLIENT, false);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4ERR_CLID_INUSE),
			 NFS4_REC_FAILED);
	/* the new client id is stale at once: no loop */
	nfs4_rec_begin(&r, NFS4_REC_CLIENT, false);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4_OK),
			 NFS4_REC_CREATE_SESSION);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4ERR_STALE_CLIENTID),
			 NFS4_REC_FAILED);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4_OK), NFS4_REC_FAILED);
}

/* The new session is lost again before RECLAIM_COMPLETE: from the
 * session again, a bounded number of times. */
static void test_lost_again(void **state)
{
	struct nfs4_rec r;
	unsigned i;

	(void)state;
	nfs4_rec_begin(&r, NFS4_REC_CLIENT, false);
	nfs4_rec_next(&r, 0, NFS4_OK);
	nfs4_rec_next(&r, 0, NFS4_OK);
	assert_int_equal(nfs4_rec_next(&r, 0, 0), NFS4_REC_RECLAIM_COMPLETE);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4ERR_BADSESSION),
			 NFS4_REC_CREATE_SESSION);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4_OK), NFS4_REC_RECLAIM);
	assert_int_equal(nfs4_rec_next(&r, 0, 0), NFS4_REC_RECLAIM_COMPLETE);
	assert_int_equal(nfs4_rec_next(&r, 0, NFS4ERR_STALE_CLIENTID),
			 NFS4_REC_EXCHANGE_ID);
	for (i = 0; i < 20 && r.step != NFS4_REC_FAILED; i++) {
		nfs4_rec_next(&r, 0, NFS4_OK);     /* EXCHANGE_ID */
		nfs4_rec_next(&r, 0, NFS4_OK);     /* CREATE_SESSION */
		nfs4_rec_next(&r, 0, 0);           /* reclaim */
		nfs4_rec_next(&r, 0, NFS4ERR_STALE_CLIENTID);
	}
	assert_int_equal(r.step, NFS4_REC_FAILED);
	assert_true(i < 20);
}

/* What a reclaim of a lock (or of a lock open) does with each answer. */
static void test_lock_verdict(void **state)
{
	(void)state;
	assert_int_equal(nfs4_rec_lock_verdict(NFS4_OK, true, false),
			 NFS4_LKREC_HELD);
	assert_int_equal(nfs4_rec_lock_verdict(NFS4_OK, false, true),
			 NFS4_LKREC_HELD);
	/* no grace period: taken again as a new lock while the lease
	 * held, lost when it ran out (others may have had the range) */
	assert_int_equal(nfs4_rec_lock_verdict(NFS4ERR_NO_GRACE, true, false),
			 NFS4_LKREC_AS_NEW);
	assert_int_equal(nfs4_rec_lock_verdict(NFS4ERR_NO_GRACE, true, true),
			 NFS4_LKREC_LOST);
	/* an ordinary LOCK is not asked again */
	assert_int_equal(nfs4_rec_lock_verdict(NFS4ERR_NO_GRACE, false,
					       false),
			 NFS4_LKREC_LOST);
	/* refusals */
	assert_int_equal(nfs4_rec_lock_verdict(NFS4ERR_DENIED, false, false),
			 NFS4_LKREC_LOST);
	assert_int_equal(nfs4_rec_lock_verdict(NFS4ERR_DENIED, true, false),
			 NFS4_LKREC_LOST);
	assert_int_equal(nfs4_rec_lock_verdict(NFS4ERR_RECLAIM_BAD, true,
					       false),
			 NFS4_LKREC_LOST);
	assert_int_equal(nfs4_rec_lock_verdict(NFS4ERR_RECLAIM_CONFLICT, true,
					       false),
			 NFS4_LKREC_LOST);
	assert_int_equal(nfs4_rec_lock_verdict(NFS4ERR_BAD_STATEID, true,
					       false),
			 NFS4_LKREC_LOST);
	/* the hash that names files in log lines is the open reclaim's */
	assert_int_equal(nfs4_rec_fh_hash((const uint8_t *)"", 0),
			 2166136261u);
	assert_true(nfs4_rec_fh_hash((const uint8_t *)"a", 1) !=
		    nfs4_rec_fh_hash((const uint8_t *)"b", 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify_sequence),
		cmocka_unit_test(test_classify_operations),
		cmocka_unit_test(test_pure_ops),
		cmocka_unit_test(test_new_session),
		cmocka_unit_test(test_server_restart),
		cmocka_unit_test(test_expired),
		cmocka_unit_test(test_waits),
		cmocka_unit_test(test_failures),
		cmocka_unit_test(test_lost_again),
		cmocka_unit_test(test_lock_verdict),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
