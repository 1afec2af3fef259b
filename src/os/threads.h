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
#include <stdatomic.h>
#include <stdint.h>

#include "base/util.h"

/* Start fn(arg) on a new thread pinned to cpu (-1, or a system without
 * thread affinity: not pinned). A cpu that went offline or was taken from
 * the process mid-run (the pin refused, EINVAL) gets the thread started
 * unpinned, counted in mt_threads_unpinned(), so the run ends and says so
 * (run/diag) instead of failing halfway. Returns 0, or pthread_create's
 * error number (the caller says what could not start). A thread pinned to
 * a CPU is not ended when fn returns: it waits, and the next start for the
 * same CPU runs on it (pinned again first) instead of on a new thread,
 * until mt_thread_pool_drain. End every start with mt_thread_join, never
 * pthread_join. */
int mt_thread_start(pthread_t *tid, int cpu, void *(*fn)(void *), void *arg);

/* The name of every thread mt_thread_start makes (a job's worker, its
 * measuring threads, the kept ones until drained; mt_plat_thread_name):
 * tests/soak.sh waits for the last of them to end after a stop, while the
 * UI's file threads live on. */
#define MT_RUN_THREAD_NAME "memtop-run"


/* Wait until the function mt_thread_start gave tid has returned (a thread
 * not kept is then joined). A tid mt_thread_start did not give is
 * pthread_join'ed. Returns 0, or pthread_join's error number. */
int mt_thread_join(pthread_t tid);

/* End the kept threads that wait for a function (those still running one
 * stay) and join them: the job does it when it ends, so that no thread
 * outlives a run. */
void mt_thread_pool_drain(void);

/* A run's measured clock: the core clock (dependent adds, mt_clock_measure)
 * taken on the first measuring thread the run starts with
 * mt_thread_start_clocked, on that thread's CPU, just before its function
 * runs, and again on the same CPU when the run ends (mt_run_clock_end).
 * The cycles a lab counts are its measuring threads' cycles: a clock
 * measured on the coordinator's CPU is another core's (another kind on a
 * hybrid machine, another turbo bin). One per run: the job keeps one
 * (job_run_clock). Set it up with mt_run_clock_init. */
struct mt_run_clock {
	atomic_int state;   /* internal: 0 not taken, 1 being measured, 2 start known */
	int cpu;            /* the CPU the start was measured on (-1 unknown) */
	int pinned;         /* the CPU that thread was pinned to (-1 none) */
	double ghz_start;   /* GHz measured on it before its function ran */
	double ghz_end;     /* GHz mt_run_clock_end measured there (0 not yet) */
	double (*measure)(void); /* the measurement; mt_clock_measure unless a
				  * test puts a stand-in that says who called it */
	double (*measure_try)(void); /* the short look a lab takes right before
				      * and after one timed try (the bandwidth
				      * lab's one-thread cells);
				      * mt_clock_measure_short unless a test
				      * puts a stand-in */
};

/* Set c to nothing measured, measuring with mt_clock_measure (and around
 * a try with mt_clock_measure_short). */
void mt_run_clock_init(struct mt_run_clock *c);

/* mt_thread_start, and when c is not NULL and no thread of c's run has
 * measured yet, the new thread first measures the core clock into c (its
 * start, on its own CPU) and then runs fn(arg). Pass c for the run's first
 * measuring thread (later ones may pass it too: only the first measures).
 * Returns 0, or pthread_create's error number. */
int mt_thread_start_clocked(pthread_t *tid, int cpu, void *(*fn)(void *), void *arg,
			    struct mt_run_clock *c);

/* Whether a measuring thread has taken c's start (1) or not (0). Safe from
 * any thread; c's cpu, pinned and ghz_start may be read once it says 1. */
int mt_run_clock_taken(struct mt_run_clock *c);

/* The run's end: measure the core clock again on the CPU c's start was
 * measured on (a short thread pinned there) into c->ghz_end. Call after
 * the run's measuring threads have ended. Returns 0, or -1 when c's start
 * was never taken or no thread could start (ghz_end stays 0). */
int mt_run_clock_end(struct mt_run_clock *c);

/* Threads mt_thread_start() started unpinned because their CPU was refused,
 * since the program began. */
unsigned long mt_threads_unpinned(void);

/* Threads mt_thread_start() (and so mt_thread_start_clocked) started since
 * the program began: a long session's count (MEMTOP_MEMSTAT reports it). */
unsigned long mt_threads_started(void);

/* Of those, the threads actually made (pthread_create): the rest ran on a
 * kept thread. */
unsigned long mt_threads_made(void);

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
