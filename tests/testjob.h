/* tests/testjob.h: what the tests that run a worker through core/job share:
 * waiting for its events. */
#ifndef MEMTOP_TESTJOB_H
#define MEMTOP_TESTJOB_H

#include <poll.h>

#include "core/job.h"

/* Waits up to 100 ms for job's events, then takes up to max of them into
 * ev. Returns how many it took (0: none yet). */
static inline size_t test_job_wait(job_t *job, struct job_event *ev, size_t max)
{
	struct pollfd pfd = { .fd = job_fd(job), .events = POLLIN };
	poll(&pfd, 1, 100);
	return job_take(job, ev, max);
}

#endif
