/* threads: see threads.h. */
#include "config.h"

#include "threads.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <time.h>

void mt_nap(long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int mt_thread_start(pthread_t *tid, int cpu, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	int rc;
	pthread_attr_init(&attr);
#if defined(__linux__) && defined(HAVE_PTHREAD_SETAFFINITY_NP)
	if (cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof set, &set);
	}
#else
	(void)cpu;
#endif
	rc = pthread_create(tid, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return rc;
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
