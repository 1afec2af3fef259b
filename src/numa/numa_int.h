/* numa_int: what the numa worker's files share and nobody else needs: a
 * lab's run as a job of its own, its events taken, its progress in priced
 * seconds (numa_run.c), the matrices' runs (numa.c), the loaded curves run
 * on that (numa_loaded.c). */
#ifndef MEMTOP_NUMA_INT_H
#define MEMTOP_NUMA_INT_H

#include "numa.h"

/* The numa job's state while it runs. */
struct numa_worker {
	job_t *job;
	struct numa_params *p;
	/* progress in seconds: the runs ended (their real time), the run going
	 * (priced), what is left (priced, times the first pair's real over
	 * priced once it is measured) */
	double done_s, run_s, left_s, factor;
	uint64_t run_t0;
	int pages_said;
	const struct numa_curve_plan *curve; /* the curve whose points are passed on (NULL:
					      * a matrix's run) */
	int curve_mem;      /* its memory node's index (resolved) */
	double lat[NUMA_MAX_NODES][NUMA_MAX_NODES]; /* the idle latency measured of each pair
						     * (2 MB pages where measured), 0 none */
};

/* What a lab's run gave: its one cell (the latest: a second look replaces
 * the first) and whether the worker moved (or its CPU was taken away
 * before it started). */
struct numa_got {
	int have;
	struct job_event cell;
	int moved;
};

/* Run fn(arg) as a job pinned to cpu, passing w's pause and cancel on; a
 * curve's points (w->curve) go on to w's job as they come. Returns 0 done
 * (g filled), 1 cancelled, -1 with e. */
int numa_run_lab(struct numa_worker *w, job_fn fn, void *arg, int cpu, struct numa_got *g,
		 mt_error *e);

/* Start a run priced at price s: its price leaves what is left. */
void numa_run_begins_s(struct numa_worker *w, double price);

/* Start run what of cell k (numa_run_cost_s). */
void numa_run_begins(struct numa_worker *w, size_t k, int what);

/* The run going has ended: its real time counts. */
void numa_run_ends(struct numa_worker *w);

/* Measure the curves of w's plan (after the matrices): each curve's
 * buffers bound to its memory node, the bandwidth lab's loaded sweep on its
 * CPU node's CPUs, each priced (numa_curve_cost_s). Returns 0, 1 cancelled,
 * -1 with e. */
int numa_run_curves(struct numa_worker *w, mt_error *e);

#endif
