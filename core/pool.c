/* pool.c — the worker pool (see pool.h), a GLib thread pool of its own
 * threads and a count of the jobs not yet done. */
#include <glib.h>
#include <stdlib.h>
#include "core/pool.h"
#include "core/util.h"

struct pjob {
	void (*fn)(void *arg);
	void *arg;
};

struct bl_pool {
	GThreadPool *tp;      /* NULL: no worker, jobs run on the caller */
	GMutex mu;
	GCond idle;           /* running went to 0 */
	unsigned running;     /* jobs queued or running */
	volatile sig_atomic_t *stop;
};

static void run(gpointer data, gpointer ud)
{
	struct pjob *j = data;
	struct bl_pool *p = ud;
	j->fn(j->arg);
	free(j);
	g_mutex_lock(&p->mu);
	if (--p->running == 0)
		g_cond_broadcast(&p->idle);
	g_mutex_unlock(&p->mu);
}

struct bl_pool *bl_pool_new(unsigned threads, volatile sig_atomic_t *stop)
{
	struct bl_pool *p = bl_xcalloc(1, sizeof *p);
	p->stop = stop;
	g_mutex_init(&p->mu);
	g_cond_init(&p->idle);
	if (threads >= 2)
		p->tp = g_thread_pool_new(run, p, (gint)threads, TRUE, NULL);
	if (p->tp && g_thread_pool_get_num_threads(p->tp) == 0) {   /* none could start */
		g_thread_pool_free(p->tp, TRUE, FALSE);
		p->tp = NULL;
	}
	return p;
}

void bl_pool_submit(struct bl_pool *p, void (*fn)(void *arg), void *arg)
{
	if (!p || !p->tp) {
		fn(arg);
		return;
	}
	struct pjob *j = bl_xmalloc(sizeof *j);
	*j = (struct pjob){ fn, arg };
	g_mutex_lock(&p->mu);
	p->running++;
	g_mutex_unlock(&p->mu);
	g_thread_pool_push(p->tp, j, NULL);
}

/* Wait until no job is queued or running, or (within > 0) until that
 * many microseconds have passed: whether none is left. */
static bool wait_idle(struct bl_pool *p, gint64 within)
{
	gint64 end = g_get_monotonic_time() + within;
	g_mutex_lock(&p->mu);
	while (p->running) {
		if (within <= 0)
			g_cond_wait(&p->idle, &p->mu);
		else if (!g_cond_wait_until(&p->idle, &p->mu, end))
			break;
	}
	bool done = p->running == 0;
	g_mutex_unlock(&p->mu);
	return done;
}

void bl_pool_wait(struct bl_pool *p)
{
	if (p && p->tp)
		wait_idle(p, 0);
}

void bl_pool_free(struct bl_pool *p)
{
	if (!p)
		return;
	/* after a stop, a job blocked in a read: the workers, the pool and
	 * the jobs' data are left to the exiting process */
	if (p->tp && p->stop && *p->stop && !wait_idle(p, G_TIME_SPAN_SECOND))
		return;
	if (p->tp)
		g_thread_pool_free(p->tp, FALSE, TRUE);
	g_cond_clear(&p->idle);
	g_mutex_clear(&p->mu);
	free(p);
}
