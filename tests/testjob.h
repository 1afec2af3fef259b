/* tests/testjob.h: what the tests that run a worker through run/job share:
 * waiting for its events, cancelling it. Include after <cmocka.h>. */
#ifndef MEMTOP_TESTJOB_H
#define MEMTOP_TESTJOB_H

#include <poll.h>
#include <time.h>

#include "os/clock.h"
#include "run/job.h"

/* Waits up to 100 ms for job's events, then takes up to max of them into
 * ev. Returns how many it took (0: none yet). */
static inline size_t test_job_wait(job_t *job, struct job_event *ev, size_t max)
{
	struct pollfd pfd = { .fd = job_fd(job), .events = POLLIN };
	poll(&pfd, 1, 100);
	return job_take(job, ev, max);
}

/* Passes each cell event of job, and each update too when updates, to
 * on(ev, ctx) until the job's last event (notes are skipped), and returns
 * that event's type (JOB_EV_DONE, ...); the caller joins the job. */
static inline int test_job_events(job_t *job, int updates,
				  void (*on)(const struct job_event *, void *), void *ctx)
{
	struct job_event ev[64];
	int ended = 0;
	while (!ended) {
		size_t n = test_job_wait(job, ev, 64);
		for (size_t i = 0; i < n; i++) {
			if (ev[i].type == JOB_EV_CELL || (updates && ev[i].type == JOB_EV_UPDATE))
				on(&ev[i], ctx);
			else if (ev[i].type != JOB_EV_NOTE)
				ended = ev[i].type;
		}
	}
	return ended;
}

/* test_job_events without the updates. */
static inline int test_job_cells(job_t *job, void (*on)(const struct job_event *, void *),
				 void *ctx)
{
	return test_job_events(job, 0, on, ctx);
}

/* Starts fn on arg, lets it run run_ms, cancels it and waits for its end;
 * the test fails unless it started and ended cancelled (job_join 1).
 * Returns the ns from the cancel to the end. */
static inline uint64_t test_job_cancel_after(job_fn fn, void *arg, long run_ms)
{
	struct job_opts o = { -1, 0 };
	struct timespec ts = { run_ms / 1000, (run_ms % 1000) * 1000000L };
	mt_error e;
	uint64_t t0;
	job_t *job = job_start(fn, arg, &o, &e);
	assert_non_null(job);
	nanosleep(&ts, NULL);
	t0 = mt_now_ns();
	job_cancel(job);
	assert_int_equal(job_join(job, &e), 1);
	return mt_now_ns() - t0;
}

#endif
