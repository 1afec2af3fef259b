/* algae: array of structs against struct of arrays, the book's algae
 * problems (CS:APP 6.18-6.20) as seed 003 tells them, and the one-field pass
 * of CHK-5 and the third homework. A 16x16 grid of structs of F int fields
 * (F = 2: {int x, y}, 8 bytes a struct, grid[i][j] at (i*16+j)*4F from
 * address 0; as a struct of arrays, field k's 256 ints from k * 1 KB) read
 * on an (s, E, b) cache, by default 1 KB direct-mapped with 16-byte blocks
 * (6, 1, 4), reads only. On that cache, F = 2:
 *
 *   aos-two-passes  all x row by row, then all y row by row     512, 256
 *   aos-column      grid[j][i] column by column, x then y       512, 256
 *   aos-row         grid[i][j] row by row, x then y             512, 128
 *   soa-two-passes  all x, then all y                           512, 128
 *   soa-one-pass    x[k] then y[k]: exactly 1 KB apart, so they
 *                   conflict on every read                      512, 512
 *   aos-one-field   only x, row by row                          256, 128
 *   soa-one-field   only x                                      256,  64
 * (reads, misses). On the doubled cache (7, 1, 4) the grid fits: the column
 * walk drops to its 128 cold misses (the lesson on 6.19).
 *
 * The real machine (the third homework): a one-field pass over N structs of
 * F int fields, as an array of structs and as a struct of arrays, timed on
 * the pinned worker (algae_worker): cells kind ALGAE_EV_REAL, row 0 array
 * of structs, 1 struct of arrays, value = best ns per element, spread =
 * (second best - best) / best, payload struct algae_ev_real. */
#ifndef MEMTOP_ALGAE_H
#define MEMTOP_ALGAE_H

#include <stddef.h>
#include <stdint.h>

#include "base/util.h"
#include "run/job.h"

#define ALGAE_CASES 7
#define ALGAE_MAX_FIELDS 16
#define ALGAE_MAX_REAL (1u << 24) /* structs timed on the real machine */

enum { ALGAE_EV_REAL = 1 };

/* The payload of an ALGAE_EV_REAL cell (run/job.h: JOB_PAYLOAD_PUT/GET). */
struct algae_ev_real {
	size_t n;          /* structs in the pass */
	size_t fields;     /* int fields a struct */
	int tries;         /* best of this many */
	int same;          /* 1: both layouts' sums agree (the first row: 1) */
};

struct algae_params {
	int s, E, b;   /* the simulated cache */
	int fields;    /* F: int fields a struct (2..ALGAE_MAX_FIELDS) */
	size_t real_n; /* structs timed on the real machine (0: none) */
	int tries;     /* real machine: best of this many */
};

/* (6, 1, 4), F = 2, no real-machine timing, best of 5. */
void algae_params_default(struct algae_params *p);

struct algae_result {
	const char *name; /* "aos-two-passes" */
	const char *what; /* one line for the table */
	uint64_t reads, misses;
};

/* Simulate case i (0 <= i < ALGAE_CASES) on p's cache. Returns 0 with *out,
 * or -1 with e (i out of range, F out of range, bad geometry, memory). */
int algae_run(int i, const struct algae_params *p, struct algae_result *out, mt_error *e);

/* The real machine's one-field pass (a job_fn): arg is a const struct
 * algae_params * with real_n > 0 that outlives the job. Returns 0 (also
 * when cancelled), or -1 with e (memory). */
int algae_worker(job_t *job, void *arg, mt_error *e);

/* Its batch mode, `memtop run algae` (algae_batch.c), for result/result.c's
 * registry (run/experiment.h). */
struct experiment;
extern const struct experiment exp_algae;

#endif
