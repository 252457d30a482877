/* pool.h — the one pool of worker threads, sized by -j.
 *
 * A pool runs jobs (a function and its argument) on a fixed set of worker
 * threads, taken from one queue in the order they were submitted. It is
 * made once by the command that reads -j and handed to whatever runs jobs
 * (the report's gnuplot runs); no other code starts threads.
 *
 * -j1 (threads 0 or 1): the pool has no worker; bl_pool_submit() runs the
 * job on the calling thread before it returns. So one code path serves
 * both, and -j1 is one thread from start to end.
 *
 * A job must not wait for another job of the same pool (with every worker
 * waiting, nothing would run). A caller that needs to know when a job is
 * done has the job say so (its own flag under its own lock), or waits for
 * all of them with bl_pool_wait().
 *
 * Stop: after a signal handler set *stop (bl_pool_new()), bl_pool_free()
 * waits at most a second for the jobs still running (a worker may be
 * blocked reading a pipe that stays silent), then leaves them to the
 * exiting process instead of joining them.
 *
 * Ownership: bl_pool_new() returns a pool the caller frees with
 * bl_pool_free() (NULL-safe), which first waits for every queued job.
 */
#ifndef BL_POOL_H
#define BL_POOL_H

#include <signal.h>
#include <stdbool.h>

struct bl_pool;

/* A pool of `threads` workers (0 or 1: none, jobs run on the caller). When
 * fewer threads can be started, the pool has as many as could be (none:
 * jobs run on the caller). stop may be NULL. Never NULL. */
struct bl_pool *bl_pool_new(unsigned threads, volatile sig_atomic_t *stop);
/* Queue fn(arg), or run it now on this thread when the pool has no
 * worker (p NULL included). fn must not wait for other jobs of p. */
void bl_pool_submit(struct bl_pool *p, void (*fn)(void *arg), void *arg);
/* Wait until every job submitted so far has returned. */
void bl_pool_wait(struct bl_pool *p);
/* Wait for the queued jobs (see Stop above), stop the workers, free. */
void bl_pool_free(struct bl_pool *p);

#endif
