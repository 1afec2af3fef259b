/* falseshare: T threads, each incrementing its own 8-byte counter with
 * atomic adds, the counters packed next to each other (8 bytes apart) or
 * padded to separate lines; and a spacing sweep at two threads that shows
 * where the line boundary (and an adjacent-line prefetcher) stops the
 * sharing (seed 003).
 *
 * The job's worker starts the counting threads itself, pinned round-robin
 * over mt_allowed_cpus(); more threads than CPUs is allowed and marked.
 *
 * Cells the worker streams (JOB_EV_CELL):
 *   kind FALSESHARE_CELL_TABLE: row = index into params.threads, col = 0
 *     packed / 1 padded, value = ms (best of tries), spread = (second best -
 *     best) / best, payload struct falseshare_ev_cell.
 *   kind FALSESHARE_CELL_SWEEP: row = index into params.sweep, value = ms,
 *     spread as above, payload struct falseshare_ev_cell. */
#ifndef MEMTOP_FALSESHARE_H
#define MEMTOP_FALSESHARE_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "base/jsonio.h"
#include "base/util.h"
#include "machine/machine.h"
#include "run/job.h"
#include "run/runhdr.h"

enum { FALSESHARE_CELL_TABLE = 1, FALSESHARE_CELL_SWEEP };

/* The payload of a cell of either kind (run/job.h: JOB_PAYLOAD_PUT/GET). */
struct falseshare_ev_cell {
	unsigned threads;  /* counting threads */
	unsigned spacing;  /* bytes between two threads' counters */
	int over;          /* 1: more threads than CPUs available */
	int exact;         /* 1: every try's counters summed exactly to threads x
			      rounds */
	double ns_inc;     /* ns per increment per thread (best try) */
};

#define FALSESHARE_MAX_T 64
#define FALSESHARE_MAX_LIST 16
#define FALSESHARE_MAX_SPACING 4096
#define FALSESHARE_MAX_CPUS 1024

struct falseshare_params {
	unsigned threads[FALSESHARE_MAX_LIST]; /* thread counts of the table */
	size_t nthreads;
	uint64_t rounds;       /* increments per thread */
	int tries;             /* best of */
	unsigned packed;       /* spacing of the packed layout (8) */
	unsigned padded;       /* spacing of the padded layout (128) */
	unsigned sweep[FALSESHARE_MAX_LIST]; /* spacings of the sweep (bytes) */
	size_t nsweep;
	unsigned sweep_threads; /* threads in the sweep (2) */
	int cpus[FALSESHARE_MAX_CPUS]; /* CPUs to pin the counting threads to, round-robin */
	int ncpus;                     /* 0: do not pin */
};

/* Defaults: threads 1, 2, 4, 8; 20M rounds; best of 3; packed 8, padded 128;
 * sweep 8, 16, 32, 64, 128, 256 at 2 threads; cpus: those machine m
 * allows, ascending (m NULL: none yet, not pinned). */
void falseshare_params_default(struct falseshare_params *p, const struct machine *m);

/* One race's parameters: threads counters spacing bytes apart, each
 * incremented rounds times by its own thread, thread t pinned to
 * cpus[t % ncpus] (ncpus 0: not pinned); job may be NULL. */
struct falseshare_race_params {
	unsigned threads, spacing;
	uint64_t rounds;
	const int *cpus;
	int ncpus;
	job_t *job;
};

/* What one race gave: ms = wall time from the start signal to the last
 * thread's end; sum = the counters' total (threads x rounds when not
 * cancelled); cancelled = 0, 1 when the job was cancelled, 2 when it was
 * paused (the race stopped: a pause would be timed; run it again). */
struct falseshare_race_out {
	double ms;
	uint64_t sum;
	int cancelled;
};

/* One race as p says (the first counter at the start of a 4 KB page).
 * When p->job is not NULL, job_check() runs every 50 ms while waiting and
 * a cancel or a pause stops the threads within 100 ms (o->cancelled set,
 * o->ms then meaningless). Returns 0 with *o, or -1 with e set (bad
 * arguments, thread creation, memory). */
int falseshare_race(const struct falseshare_race_params *p, struct falseshare_race_out *o,
		    mt_error *e);

/* The job worker: arg is a struct falseshare_params that outlives the job.
 * Returns 0 (also when cancelled), -1 with e set. */
int falseshare_worker(job_t *job, void *arg, mt_error *e);

/* ---- results: ONE store, writer and reader for `memtop run falseshare`,
 * the TUI tab and `memtop view` ------------------------------------------ */

struct falseshare_cell {
	int have;
	double ms, spread, ns_inc;
	int over, exact;
	unsigned threads, spacing;
};

struct falseshare_result {
	struct run_header hdr;
	uint64_t rounds;
	int tries, ncpus;
	unsigned threads[FALSESHARE_MAX_LIST]; /* the table's rows */
	size_t nthreads;
	unsigned sweep[FALSESHARE_MAX_LIST];   /* the sweep's spacings */
	size_t nsweep;
	unsigned sweep_threads, packed, padded;
	struct falseshare_cell tab[FALSESHARE_MAX_LIST][2]; /* [row][0 packed, 1 padded] */
	struct falseshare_cell swp[FALSESHARE_MAX_LIST];
	int inexact;      /* a sum was wrong */
	char source[MT_PATH_MAX]; /* the file it came from, "" when measured here */
};

/* An empty result with p's rows (the header is left zero: the caller takes
 * it with run_header_init() when the job starts). */
void falseshare_result_init(struct falseshare_result *r, const struct falseshare_params *p);

/* Store one event of the worker. Returns the kind stored
 * (FALSESHARE_CELL_TABLE or _SWEEP), 0 for an event that is not a cell of
 * r. */
int falseshare_result_apply(struct falseshare_result *r, const struct job_event *ev);

/* What the spacing sweep says into buf: "sharing stops at 64 bytes apart
 * (3.1x faster than 8)", "sharing stops between 8 and 128 bytes apart (...)"
 * where the sweep has no spacing between the last shared one and the first
 * free one, or "the sweep shows no line boundary (...)". Returns 1, or 0
 * with buf empty when the sweep has too little to say anything. */
int falseshare_sweep_verdict(const struct falseshare_result *r, char *buf, size_t len);

/* Cells measured. */
size_t falseshare_result_measured(const struct falseshare_result *r);

/* The result as JSON (see memtop(1)): the run header, "experiment":
 * "falseshare", rounds, tries, cpus, results (one per measured table cell)
 * and sweep. NULL when out of memory. */
cJSON *falseshare_result_to_json(const struct falseshare_result *r);

/* Read a result back (strict: a missing or mistyped field fails with "FILE:
 * FIELD ..."). Returns 0, or -1 with e set. */
int falseshare_result_from_json(const cJSON *root, const char *file, struct falseshare_result *r,
				mt_error *e);

/* The false sharing result's result kind (falseshare_kind.c; run/result_kind.h). */
struct result_kind;
extern const struct result_kind kind_falseshare;
/* Its batch mode, `memtop run falseshare` (falseshare_batch.c), for result/result.c's
 * registry (run/experiment.h). */
struct experiment;
extern const struct experiment exp_falseshare;
struct result_file;
struct result_compare_opts;
struct svg;
/* Its memtop compare and plot (result_kind's compare and plot callbacks:
 * see their contracts there), in labs_compare.c and labs_plot.c. */
int falseshare_compare(const struct result_file *f, size_t n, const struct result_compare_opts *o);
int falseshare_plot(const struct result_file *f, size_t n, struct svg *s);

#endif
