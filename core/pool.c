/* pool.c — the worker pool (see pool.h). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include "core/pool.h"
#include "core/util.h"

struct pjob {
	void (*fn)(void *arg);
	void *arg;
	struct pjob *next;
};

struct bl_pool {
	pthread_mutex_t mu;
	pthread_cond_t work;          /* workers wait for a job or quit */
	pthread_cond_t idle;          /* bl_pool_wait() and free wait for running == 0 */
	struct pjob *head, *tail;     /* the queue */
	unsigned running;             /* jobs queued or running */
	bool quit;
	unsigned n;                   /* workers started */
	pthread_t *tid;
	volatile sig_atomic_t *stop;
};

static void *worker(void *arg)
{
	struct bl_pool *p = arg;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->head && !p->quit)
			pthread_cond_wait(&p->work, &p->mu);
		if (!p->head)
			break;                /* quit, and nothing left */
		struct pjob *j = p->head;
		p->head = j->next;
		if (!p->head)
			p->tail = NULL;
		pthread_mutex_unlock(&p->mu);
		j->fn(j->arg);
		free(j);
		pthread_mutex_lock(&p->mu);
		if (--p->running == 0)
			pthread_cond_broadcast(&p->idle);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

struct bl_pool *bl_pool_new(unsigned threads, volatile sig_atomic_t *stop)
{
	struct bl_pool *p = bl_xcalloc(1, sizeof *p);
	p->stop = stop;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->idle, &ca);
	pthread_condattr_destroy(&ca);
	if (threads < 2)
		return p;
	p->tid = bl_xcalloc(threads, sizeof *p->tid);
	for (unsigned i = 0; i < threads; i++) {
		if (pthread_create(&p->tid[i], NULL, worker, p) != 0)
			break;
		p->n++;
	}
	return p;
}

void bl_pool_submit(struct bl_pool *p, void (*fn)(void *arg), void *arg)
{
	if (!p || p->n == 0) {
		fn(arg);
		return;
	}
	struct pjob *j = bl_xmalloc(sizeof *j);
	*j = (struct pjob){ fn, arg, NULL };
	pthread_mutex_lock(&p->mu);
	if (p->tail)
		p->tail->next = j;
	else
		p->head = j;
	p->tail = j;
	p->running++;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->mu);
}

void bl_pool_wait(struct bl_pool *p)
{
	if (!p || p->n == 0)
		return;
	pthread_mutex_lock(&p->mu);
	while (p->running)
		pthread_cond_wait(&p->idle, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

/* After a stop: wait up to a second for the running jobs; false when some
 * are still at it. */
static bool wait_stopped(struct bl_pool *p)
{
	struct timespec dl;
	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += 1;
	pthread_mutex_lock(&p->mu);
	int rc = 0;
	while (p->running && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&p->idle, &p->mu, &dl);
	bool done = p->running == 0;
	pthread_mutex_unlock(&p->mu);
	return done;
}

void bl_pool_free(struct bl_pool *p)
{
	if (!p)
		return;
	if (p->n && p->stop && *p->stop && !wait_stopped(p)) {
		/* a job blocked in a read: the workers, the pool and the jobs'
		 * data are left to the exiting process */
		for (unsigned i = 0; i < p->n; i++)
			pthread_detach(p->tid[i]);
		return;
	}
	pthread_mutex_lock(&p->mu);
	p->quit = true;
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
	for (unsigned i = 0; i < p->n; i++)
		pthread_join(p->tid[i], NULL);
	free(p->tid);
	pthread_cond_destroy(&p->work);
	pthread_cond_destroy(&p->idle);
	pthread_mutex_destroy(&p->mu);
	free(p);
}
