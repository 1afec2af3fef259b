/* threads: see threads.h. */
#include "config.h"

#include "threads.h"
#include "base/i18n.h"
#include "clock.h"
#include "platform.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

void mt_nap(long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static _Atomic unsigned long unpinned, started, made;

unsigned long mt_threads_unpinned(void)
{
	return atomic_load(&unpinned);
}

unsigned long mt_threads_started(void)
{
	return atomic_load(&started);
}

unsigned long mt_threads_made(void)
{
	return atomic_load(&made);
}

/* A thread mt_thread_start made. A pinned one (cpu >= 0) is kept when its
 * function returns and mt_thread_join has seen it, and runs the next
 * function asked for the same CPU: ASan keeps a record of every thread a
 * process ever made (for its reports), so a session that made a thread per
 * try grew by ~0.3 KB a thread, ~1000 threads a minute in the soak. Kept
 * threads wait on their condition until mt_thread_pool_drain ends them. */
struct worker {
	struct worker *next;
	pthread_t tid;
	pthread_cond_t cv;
	void *(*fn)(void *); /* the function to run; NULL while idle */
	void *arg;
	int cpu;             /* the CPU asked when made (-1 none) */
	int pooled;          /* kept after its function returns */
	int busy;            /* a function given and not joined yet */
	int done;            /* that function returned */
	int repin;           /* pin to cpu before running fn (a reuse) */
	int quit;            /* drained: end */
};

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static struct worker *pool; /* every worker made and not yet ended */

static void *worker_main(void *p)
{
	struct worker *w = p;
	mt_plat_thread_name(MT_RUN_THREAD_NAME);
	pthread_mutex_lock(&pool_mu);
	for (;;) {
		void *(*fn)(void *);
		void *arg;
		while (!w->fn && !w->quit)
			pthread_cond_wait(&w->cv, &pool_mu);
		if (w->quit)
			break;
		fn = w->fn;
		arg = w->arg;
		if (w->repin && mt_plat_can_pin() && mt_plat_set_allowed(&w->cpu, 1) < 0)
			atomic_fetch_add(&unpinned, 1); /* the CPU went away while it idled */
		pthread_mutex_unlock(&pool_mu);
		fn(arg);
		pthread_mutex_lock(&pool_mu);
		w->fn = NULL;
		w->done = 1;
		pthread_cond_broadcast(&w->cv);
		if (!w->pooled)
			break;
	}
	pthread_mutex_unlock(&pool_mu);
	return NULL;
}

/* A kept worker idle for cpu, taken (busy) with fn(arg); NULL if none. */
static struct worker *pool_take(int cpu, void *(*fn)(void *), void *arg)
{
	struct worker *w;
	if (cpu < 0)
		return NULL;
	pthread_mutex_lock(&pool_mu);
	for (w = pool; w; w = w->next)
		if (w->pooled && !w->busy && w->cpu == cpu)
			break;
	if (w) {
		w->busy = 1;
		w->done = 0;
		w->repin = 1;
		w->fn = fn;
		w->arg = arg;
		pthread_cond_broadcast(&w->cv);
	}
	pthread_mutex_unlock(&pool_mu);
	return w;
}

/* Make a worker thread for fn(arg), pinned to cpu when it can be. */
static int worker_make(pthread_t *tid, int cpu, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	struct worker *w = calloc(1, sizeof *w);
	int rc;
	if (!w)
		return ENOMEM;
	if ((rc = pthread_cond_init(&w->cv, NULL)) != 0) {
		free(w);
		return rc;
	}
	w->fn = fn;
	w->arg = arg;
	w->cpu = cpu;
	w->busy = 1;
	w->pooled = cpu >= 0;
	pthread_mutex_lock(&pool_mu); /* the worker waits for its record to be whole */
	pthread_attr_init(&attr);
	(void)mt_plat_attr_pin(&attr, cpu); /* best effort, as before: unpinned where it cannot */
	rc = pthread_create(&w->tid, &attr, worker_main, w);
	pthread_attr_destroy(&attr);
	if (rc == EINVAL && cpu >= 0) { /* the CPU is offline or not ours any more */
		w->pooled = 0;
		rc = pthread_create(&w->tid, NULL, worker_main, w);
		if (rc == 0)
			atomic_fetch_add(&unpinned, 1);
	}
	if (rc == 0) {
		w->next = pool;
		pool = w;
		*tid = w->tid;
		atomic_fetch_add(&made, 1);
	}
	pthread_mutex_unlock(&pool_mu);
	if (rc != 0) {
		pthread_cond_destroy(&w->cv);
		free(w);
	}
	return rc;
}

int mt_thread_start(pthread_t *tid, int cpu, void *(*fn)(void *), void *arg)
{
	struct worker *w = pool_take(cpu, fn, arg);
	int rc = 0;
	if (w)
		*tid = w->tid;
	else
		rc = worker_make(tid, cpu, fn, arg);
	if (rc == 0)
		atomic_fetch_add(&started, 1);
	return rc;
}

/* Take w out of the pool's list (pool_mu held). */
static void pool_unlink(struct worker *w)
{
	struct worker **pp = &pool;
	while (*pp && *pp != w)
		pp = &(*pp)->next;
	if (*pp)
		*pp = w->next;
}

int mt_thread_join(pthread_t tid)
{
	struct worker *w;
	pthread_mutex_lock(&pool_mu);
	for (w = pool; w; w = w->next)
		if (w->busy && pthread_equal(w->tid, tid))
			break;
	if (!w) {
		pthread_mutex_unlock(&pool_mu);
		return pthread_join(tid, NULL); /* not one of ours */
	}
	while (!w->done)
		pthread_cond_wait(&w->cv, &pool_mu);
	w->busy = 0;
	if (w->pooled) {
		pthread_mutex_unlock(&pool_mu);
		return 0;
	}
	pool_unlink(w);
	pthread_mutex_unlock(&pool_mu);
	pthread_join(w->tid, NULL);
	pthread_cond_destroy(&w->cv);
	free(w);
	return 0;
}

void mt_thread_pool_drain(void)
{
	struct worker *idle = NULL, **pp, *w;
	pthread_mutex_lock(&pool_mu);
	for (pp = &pool; (w = *pp);) {
		if (w->busy) {
			pp = &w->next;
			continue;
		}
		*pp = w->next;
		w->quit = 1;
		pthread_cond_broadcast(&w->cv);
		w->next = idle;
		idle = w;
	}
	pthread_mutex_unlock(&pool_mu);
	while ((w = idle)) {
		idle = w->next;
		pthread_join(w->tid, NULL);
		pthread_cond_destroy(&w->cv);
		free(w);
	}
}

void mt_run_clock_init(struct mt_run_clock *c)
{
	memset(c, 0, sizeof *c);
	atomic_init(&c->state, 0);
	c->cpu = c->pinned = -1;
	c->measure = mt_clock_measure;
	c->measure_try = mt_clock_measure_short;
}

struct clocked {
	void *(*fn)(void *);
	void *arg;
	struct mt_run_clock *c;
	int cpu;
};

/* The new thread: the run's clock first when nobody took it yet. */
static void *clocked_main(void *p)
{
	struct clocked s = *(struct clocked *)p;
	int none = 0;
	free(p);
	if (atomic_compare_exchange_strong(&s.c->state, &none, 1)) {
		s.c->ghz_start = s.c->measure();
		s.c->cpu = mt_plat_current_cpu();
		if (s.c->cpu < 0)
			s.c->cpu = s.cpu;
		s.c->pinned = s.cpu;
		atomic_store_explicit(&s.c->state, 2, memory_order_release);
	}
	return s.fn(s.arg);
}

int mt_thread_start_clocked(pthread_t *tid, int cpu, void *(*fn)(void *), void *arg,
			    struct mt_run_clock *c)
{
	struct clocked *s;
	int rc;
	if (!c || atomic_load(&c->state) != 0)
		return mt_thread_start(tid, cpu, fn, arg);
	if (!(s = malloc(sizeof *s)))
		return ENOMEM;
	s->fn = fn;
	s->arg = arg;
	s->c = c;
	s->cpu = cpu;
	if ((rc = mt_thread_start(tid, cpu, clocked_main, s)) != 0)
		free(s);
	return rc;
}

int mt_run_clock_taken(struct mt_run_clock *c)
{
	return atomic_load_explicit(&c->state, memory_order_acquire) == 2;
}

static void *end_main(void *p)
{
	struct mt_run_clock *c = p;
	c->ghz_end = c->measure();
	return NULL;
}

int mt_run_clock_end(struct mt_run_clock *c)
{
	pthread_t t;
	if (!mt_run_clock_taken(c))
		return -1;
	if (mt_thread_start(&t, c->pinned >= 0 ? c->pinned : c->cpu, end_main, c) != 0)
		return -1;
	mt_thread_join(t);
	return 0;
}

int mt_waitgroup_init(struct mt_waitgroup *wg, mt_error *e)
{
	pthread_condattr_t ca;
	int rc;
	wg->done = 0;
	if ((rc = pthread_mutex_init(&wg->mu, NULL)) != 0)
		return mt_fail(e, _("cannot make a mutex: %s"), strerror(rc));
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	rc = pthread_cond_init(&wg->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (rc != 0) {
		pthread_mutex_destroy(&wg->mu);
		return mt_fail(e, _("cannot make a condition variable: %s"), strerror(rc));
	}
	return 0;
}

void mt_waitgroup_destroy(struct mt_waitgroup *wg)
{
	pthread_cond_destroy(&wg->cv);
	pthread_mutex_destroy(&wg->mu);
}

void mt_waitgroup_done(struct mt_waitgroup *wg)
{
	pthread_mutex_lock(&wg->mu);
	wg->done++;
	pthread_cond_broadcast(&wg->cv);
	pthread_mutex_unlock(&wg->mu);
}

int mt_waitgroup_wait(struct mt_waitgroup *wg, int want, uint64_t ns)
{
	struct timespec dl;
	int n;
	clock_gettime(CLOCK_MONOTONIC, &dl);
	dl.tv_sec += (time_t)(ns / 1000000000u);
	dl.tv_nsec += (long)(ns % 1000000000u);
	if (dl.tv_nsec >= 1000000000L) {
		dl.tv_sec++;
		dl.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&wg->mu);
	while (wg->done < want && pthread_cond_timedwait(&wg->cv, &wg->mu, &dl) == 0)
		;
	n = wg->done;
	pthread_mutex_unlock(&wg->mu);
	return n;
}
