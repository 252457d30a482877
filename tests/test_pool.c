/* test_pool.c — the worker pool (core/pool.h): every submitted job runs
 * exactly once, bl_pool_wait() returns only after all of them, and a pool
 * without workers (-j1) runs each job on the calling thread before
 * bl_pool_submit() returns. Expected values by counting: job k adds k to
 * its own slot, so slot k holds k once each job ran once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdlib.h>
#include "core/pool.h"
#include "core/util.h"

#define NJOBS 1000

struct slot {
	long sum;
	pthread_t by;
};

static struct slot slots[NJOBS];

static void job(void *arg)
{
	struct slot *s = arg;
	s->sum += s - slots;
	s->by = pthread_self();
}

static void run(unsigned threads)
{
	struct bl_pool *p = bl_pool_new(threads, NULL);
	for (size_t k = 0; k < NJOBS; k++)
		slots[k] = (struct slot){ 0, pthread_self() };
	for (size_t k = 0; k < NJOBS; k++)
		bl_pool_submit(p, job, &slots[k]);
	bl_pool_wait(p);
	for (size_t k = 0; k < NJOBS; k++)
		assert_int_equal(slots[k].sum, (long)k);
	bl_pool_free(p);
}

static void test_pool__every_job_once(void **state)
{
	(void)state;
	run(2);
	run(4);
}

static void test_pool__one_job_on_the_caller(void **state)
{
	(void)state;
	struct bl_pool *p = bl_pool_new(1, NULL);
	slots[5].sum = 0;
	bl_pool_submit(p, job, &slots[5]);
	/* run before submit returned, on this thread */
	assert_int_equal(slots[5].sum, 5);
	assert_true(pthread_equal(slots[5].by, pthread_self()));
	bl_pool_free(p);
	slots[5].sum = 0;
	bl_pool_submit(NULL, job, &slots[5]);
	assert_int_equal(slots[5].sum, 5);
}

static void test_pool__workers_are_other_threads(void **state)
{
	(void)state;
	struct bl_pool *p = bl_pool_new(2, NULL);
	slots[7] = (struct slot){ 0, pthread_self() };
	bl_pool_submit(p, job, &slots[7]);
	bl_pool_wait(p);
	assert_int_equal(slots[7].sum, 7);
	assert_false(pthread_equal(slots[7].by, pthread_self()));
	bl_pool_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool__every_job_once),
		cmocka_unit_test(test_pool__one_job_on_the_caller),
		cmocka_unit_test(test_pool__workers_are_other_threads),
	};
	return cmocka_run_group_tests_name("pool", tests, NULL, NULL);
}
