/* threads: measuring threads started pinned to a CPU, and a coordinator
 * sleeping until they finish.
 *
 * The threads a measurement starts (the bandwidth lab's members and its
 * loaded-latency chaser, the false-sharing counters) each say when they are
 * done; the thread that started them sleeps until all have, waking early
 * only to check its job for pause and cancel. It must not poll: on a
 * machine with as many measuring threads as CPUs, a coordinator waking
 * every millisecond takes the CPU from one of them in every try (the
 * loaded latency's chaser lost its CPU in 15 of 15 tries on the 2-vCPU
 * guest). */
#ifndef MEMTOP_THREADS_H
#define MEMTOP_THREADS_H

#include <pthread.h>
#include <stdint.h>

#include "util.h"

/* Start fn(arg) on a new thread pinned to cpu (-1, or a system without
 * thread affinity: not pinned). Returns 0, or pthread_create's error
 * number (the caller says what could not start). */
int mt_thread_start(pthread_t *tid, int cpu, void *(*fn)(void *), void *arg);

/* Sleep ns nanoseconds (resumed after signals). */
void mt_nap(long ns);

struct mt_waitgroup {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int done;
};

/* Set wg to none done. Returns 0, or -1 with e set (no mutex or condition
 * could be made: nothing to destroy then). */
int mt_waitgroup_init(struct mt_waitgroup *wg, mt_error *e);

/* Free what init made. */
void mt_waitgroup_destroy(struct mt_waitgroup *wg);

/* One more thread done: called by it after its timing ended. */
void mt_waitgroup_done(struct mt_waitgroup *wg);

/* Sleep until want threads are done or ns nanoseconds have passed.
 * Returns how many are done. */
int mt_waitgroup_wait(struct mt_waitgroup *wg, int want, uint64_t ns);

#endif
