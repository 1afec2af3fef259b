/* bandwidth_int: what the bandwidth engine's files share and nobody else
 * needs: pinned threads, naps, busy waits. (The optimisation barriers are
 * core/barrier.h's, as every kernel's.) */
#ifndef MEMTOP_BANDWIDTH_INT_H
#define MEMTOP_BANDWIDTH_INT_H

#include <pthread.h>
#include <stdint.h>

#include "core/util.h"

/* Start fn(arg) on a new thread pinned to cpu (-1: not pinned). Returns 0,
 * or -1 with e set. */
int bw_thread_start(pthread_t *tid, int cpu, void *(*fn)(void *), void *arg, mt_error *e);

/* Sleep ns nanoseconds (resumed after signals). */
void bw_nap(long ns);

/* One spin of a busy wait: a pause hint, and a yield now and then when
 * threads share a CPU. */
void bw_relax(unsigned *spins);

/* The measuring threads that have finished, for a coordinator that sleeps
 * until they all have, waking early only to check the job. It must not
 * poll: on a machine with as many measuring threads as CPUs, a coordinator
 * waking every millisecond took the CPU from one of them in every try
 * (the loaded latency's chaser lost its CPU in 15 of 15 tries). */
struct bw_done {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int n;
};

/* Set d to none finished. Returns 0, or -1 with e set. */
int bw_done_init(struct bw_done *d, mt_error *e);
void bw_done_destroy(struct bw_done *d);
/* One more thread finished (called by it, after its timing ended). */
void bw_done_post(struct bw_done *d);
/* Sleep until want threads have finished or ns have passed. Returns how
 * many have finished. */
int bw_done_wait(struct bw_done *d, int want, uint64_t ns);

#endif
