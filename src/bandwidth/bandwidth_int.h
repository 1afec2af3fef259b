/* bandwidth_int: what the bandwidth engine's files share and nobody else
 * needs: pinned threads, naps, busy waits. (The optimisation barriers are
 * os/barrier.h's, as every kernel's.) */
#ifndef MEMTOP_BANDWIDTH_INT_H
#define MEMTOP_BANDWIDTH_INT_H

#include <pthread.h>
#include <stdint.h>

#include "base/util.h"
#include "os/threads.h"

/* Start fn(arg) on a new thread pinned to cpu (-1: not pinned):
 * os/threads.h's mt_thread_start_clocked with the lab's words on
 * failure; clock is the run's (job_run_clock) for the first measuring
 * thread, so the run's clock is measured on its CPU, else NULL. Returns 0,
 * or -1 with e set. */
int bandwidth_thread_start(pthread_t *tid, int cpu, void *(*fn)(void *), void *arg,
		    struct mt_run_clock *clock, mt_error *e);

/* One spin of a busy wait: a pause hint, and a yield now and then when
 * threads share a CPU. */
void bandwidth_relax(unsigned *spins);


#endif
