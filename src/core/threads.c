/* threads: see threads.h. */
#include "config.h"

#include "threads.h"
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

static _Atomic unsigned long unpinned;

unsigned long mt_threads_unpinned(void)
{
	return atomic_load(&unpinned);
}

int mt_thread_start(pthread_t *tid, int cpu, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	int rc;
	pthread_attr_init(&attr);
	(void)mt_plat_attr_pin(&attr, cpu); /* best effort, as before: unpinned where it cannot */
	rc = pthread_create(tid, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	if (rc == EINVAL && cpu >= 0) { /* the CPU is offline or not ours any more */
		rc = pthread_create(tid, NULL, fn, arg);
		if (rc == 0)
			atomic_fetch_add(&unpinned, 1);
	}
	return rc;
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
	pthread_join(t, NULL);
	return 0;
}

int mt_waitgroup_init(struct mt_waitgroup *wg, mt_error *e)
{
	pthread_condattr_t ca;
	int rc;
	wg->done = 0;
	if ((rc = pthread_mutex_init(&wg->mu, NULL)) != 0)
		return mt_fail(e, "cannot make a mutex: %s", strerror(rc));
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	rc = pthread_cond_init(&wg->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (rc != 0) {
		pthread_mutex_destroy(&wg->mu);
		return mt_fail(e, "cannot make a condition variable: %s", strerror(rc));
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
