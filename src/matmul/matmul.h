/* matmul: the six loop orders of seed 003 (ijk, jik, jki, kji, kij, ikj) and
 * the blocked ikj on n x n doubles, C += A * B, matrices row-major
 * (element (i, j) is m[i * n + j]); and, on request, the blocked versions of
 * the other five orders (the lesson: "попробуй заблокировать jki"): the
 * middle and inner loops of the order cut into bsize x bsize tiles, the
 * outer loop whole inside each tile pair, as the seed's blocked ikj does
 * (for kk, for jj: for i, for k in kk, for j in jj). Timed through the job API, either one
 * order after the other (best of tries, the batch table) or interleaved in
 * short slices so that all orders advance together on one core (the race).
 * The loop orders (names, classes, the book's estimate) are in
 * matmul_orders.c, the miss model (the simulator) in matmul_model.c, the
 * result and its JSON in matmul_result.c, all declared here.
 *
 * Cells the worker streams (struct job_event, type JOB_EV_CELL):
 *   kind MATMUL_CELL_RESULT: one finished order of the table.
 *     row = order (enum matmul_order), value = ns per inner iteration (best
 *     try), spread = (second best - best) / best over the tries, payload
 *     struct matmul_ev_result.
 *   kind MATMUL_CELL_RACE: a race slice. row = order, value = running ns per
 *     inner iteration, payload struct matmul_ev_race.
 *   kind MATMUL_CELL_SWEEP: one block size of --sweep. row = index into
 *     params.sweep, value = ns per inner iteration, payload struct
 *     matmul_ev_result (rank 0).
 *   kind MATMUL_CELL_SIM (only when params.sim_s >= 0, before any timing):
 *     row = order, value = simulated misses per inner iteration, payload
 *     struct matmul_ev_sim.
 * A race ends with one MATMUL_CELL_RESULT per order as well (row order, in
 * finish order), so a consumer that only reads results works either way. */
#ifndef MEMTOP_MATMUL_H
#define MEMTOP_MATMUL_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "base/jsonio.h"
#include "base/util.h"
#include "run/job.h"
#include "run/runhdr.h"

enum matmul_order {
	MATMUL_IJK,
	MATMUL_JIK,
	MATMUL_JKI,
	MATMUL_KJI,
	MATMUL_KIJ,
	MATMUL_IKJ,
	MATMUL_BLOCKED, /* the seed's blocked ikj, named "blocked" */
	MATMUL_B_IJK,   /* "blocked-ijk": the blocked versions of the other five */
	MATMUL_B_JIK,
	MATMUL_B_JKI,
	MATMUL_B_KJI,
	MATMUL_B_KIJ,
	MATMUL_NORDERS
};

/* The seven orders a run has unless asked for more: the six and the
 * seed's blocked ikj. */
#define MATMUL_NCLASSIC (MATMUL_BLOCKED + 1)
#define MATMUL_CLASSIC_MASK ((1u << MATMUL_NCLASSIC) - 1)

/* The class of an order, named after the two matrices its inner loop walks. */
enum matmul_class { MATMUL_AB, MATMUL_AC, MATMUL_BC };

/* How an inner loop touches one matrix. */
enum matmul_walk {
	MATMUL_WALK_ROW,  /* along a row, stride 1 */
	MATMUL_WALK_COL,  /* down a column, stride n */
	MATMUL_WALK_REG,  /* one element held in a register */
	MATMUL_WALK_NONE  /* not touched (ijk's C: the sum sits in a register) */
};

enum matmul_cell_kind {
	MATMUL_CELL_RESULT = 1,
	MATMUL_CELL_RACE,
	MATMUL_CELL_SWEEP,
	MATMUL_CELL_SIM
};

/* The payloads of the cells (run/job.h: JOB_PAYLOAD_PUT/GET), by kind. */
struct matmul_ev_result { /* MATMUL_CELL_RESULT and MATMUL_CELL_SWEEP */
	double ms;         /* ms of the best try */
	int equal;         /* 1: C equals ijk's C exactly */
	size_t block;      /* block size (a blocked order or a sweep), else 0 */
	int rank;          /* finish rank, 1 = first (race only, else 0) */
};

struct matmul_ev_race {   /* MATMUL_CELL_RACE */
	double frac;       /* fraction done, 0..1 */
	int rank;          /* finish rank (0 while running) */
	uint64_t iters;    /* inner iterations done */
};

struct matmul_ev_sim {    /* MATMUL_CELL_SIM */
	double per_iter[3]; /* simulated misses per inner iteration of A, B, C */
	int sampled;       /* 1: a sample (the first params.sim_sample accesses) */
};

#define MATMUL_MAX_SWEEP 16
#define MATMUL_MAX_N 8192

struct matmul_params {
	size_t n;             /* matrix side (1..MATMUL_MAX_N) */
	size_t block;         /* block side of the blocked orders (1..n is not required) */
	int tries;            /* best of this many runs (table mode) */
	int race;             /* 1: interleaved slices, one run each, all advancing together */
	double slice_ms;      /* race: length of one order's slice */
	size_t sweep[MATMUL_MAX_SWEEP]; /* block sizes to time after the table */
	size_t nsweep;
	int skip_table;       /* 1: only the sweep */
	int sim_s, sim_E, sim_b; /* simulate each order on this cache first; sim_s < 0: no */
	uint64_t sim_sample;  /* accesses simulated per order (0: all) */
	unsigned orders;      /* the orders to run: bit 1 << order (MATMUL_CLASSIC_MASK) */
};

/* Defaults: n = 512, block 32, best of 3, table mode, 2 ms race slices, no
 * sweep, no simulation (sim_s = -1; sample 4M accesses when set), the seven
 * classic orders. */
void matmul_params_default(struct matmul_params *p);

/* The orders a run with p times, as a mask of bits 1 << order: p->orders
 * (the classic seven when 0), with ijk always (the reference the others
 * are checked against). */
unsigned matmul_run_orders(const struct matmul_params *p);

/* "ijk" .. "ikj", "blocked", "blocked-ijk" .. "blocked-kij". NULL for an
 * index out of range. */
const char *matmul_order_name(int order);

/* The order called s ("blocked-ikj" is "blocked"), or -1. */
int matmul_order_parse(const char *s);

/* Is order a blocked one (MATMUL_BLOCKED and after)? */
static inline int matmul_is_blocked(int order)
{
	return order >= MATMUL_BLOCKED;
}

/* The loop order a blocked order tiles (blocked: ikj); an unblocked order
 * itself. */
int matmul_base_order(int order);

/* The blocked version of an unblocked order (ikj: MATMUL_BLOCKED). */
int matmul_blocked_of(int order);

/* Parse a list of unblocked orders ("jki,kij", "all", "none") into the mask
 * of their blocked versions. Returns 0, or -1 on a name that is not one of
 * the six. */
int matmul_blocked_parse(const char *list, unsigned *mask);

/* The class of an order: its inner loop's (a blocked order has its base
 * order's class: the blocked ikj is class BC). */
enum matmul_class matmul_order_class(int order);

/* "AB", "AC", "BC". */
const char *matmul_class_name(enum matmul_class c);

/* How order's inner loop walks A, B and C: walk[0..2]. */
void matmul_inner_walk(int order, enum matmul_walk walk[3]);

/* "along a row", "down a column", "in a register", "summed in a register"
 * (class AB keeps C's sum in a register and stores it after the loop). */
const char *matmul_walk_name(enum matmul_walk w);

/* The book's estimate of misses per inner-loop iteration for a matrix too big
 * for the cache and a line of L doubles (L >= 1): miss[0..2] for A, B, C.
 * A row walk misses 1/L an access, a column walk 1 an access, a register 0.
 * Returns the total: AB 1 + 1/L, AC 2, BC 2/L (1.25, 2.0, 0.5 at L = 4). */
double matmul_book_estimate(int order, double L, double miss[3]);

/* The seed's matrices: a[idx] = idx % 7, b[idx] = idx % 5 (small integers,
 * so every summation order gives exactly the same doubles). */
void matmul_fill(size_t n, double *a, double *b);

/* C += A * B in the given order (block side bsize for a blocked order,
 * edges clipped when n is not a multiple). a, b, c must not overlap. */
void matmul_multiply(int order, size_t n, size_t bsize, const double *a, const double *b,
		     double *c);

/* Blocks of side bs along a side of n (the last one may be partial). */
static inline size_t matmul_nblocks(size_t n, size_t bs)
{
	return (n + bs - 1) / bs;
}

/* Run steps [from, to) of order (to <= matmul_steps()). Running every step
 * once, in any cut, is matmul_multiply(). Returns the inner iterations done. */
uint64_t matmul_run_steps(int order, size_t n, size_t bsize, const double *a, const double *b,
			  double *c, uint64_t from, uint64_t to);

/* The job worker: arg is a struct matmul_params that outlives the job.
 * Streams the cells described above; checks every result against ijk's.
 * Returns 0 (also when cancelled), -1 with e set when memory runs out. */
int matmul_worker(job_t *job, void *arg, mt_error *e);

/* ---- the miss model (matmul_model.c) ---------------------------------- */

/* An order's work cut into steps for slicing (the kernels and the model
 * share the cut): a step is one pass of the middle loop (n inner iterations)
 * for the six orders, one value of the outer loop in one tile pair for a
 * blocked order (the blocked ikj: one row i of one block pair (kk, jj)).
 * Returns the number of steps. */
uint64_t matmul_steps(int order, size_t n, size_t bsize);

/* The L1 data cache of a machine's `memtop info`: the size from the most
 * trusted source (info_best_size), ways and line from that source, or from
 * the first that has them. */
struct matmul_l1d {
	int line;       /* bytes; 64 when no source says */
	int ways, sets;
	uint64_t size;
	int s, E, b;    /* simulator geometry; s < 0 when unusable (sets or line
			 * not a power of two, or unknown) */
	char from[16];  /* the source's name, "" when none */
};
struct info;
/* d for inf (NULL or no L1d: line 64, s < 0). Never fails. */
void matmul_l1d(const struct info *inf, struct matmul_l1d *d);

/* Bases the model puts the matrices at: A at 1 MB, then B and C each at the
 * next 1 MB boundary after the previous matrix (n = 100: 0x100000,
 * 0x200000, 0x300000). */
void matmul_model_bases(size_t n, uint64_t base[3]);

/* Bases as an allocator puts three arrays of n x n doubles asked for one
 * after another: each right after the previous one and a 16-byte chunk
 * header (glibc malloc's), A at 1 MB + 16. */
void matmul_model_bases_packed(size_t n, uint64_t base[3]);

struct matmul_sim {
	uint64_t accesses, misses;      /* over the simulated part */
	uint64_t acc[3], miss[3];       /* split by matrix A, B, C */
	uint64_t iterations;            /* inner iterations simulated */
	uint64_t steps_done, steps;     /* steps simulated of all (a sample when less) */
	double per_iter, per_iter_m[3]; /* misses per inner iteration */
};

/* Drive order's exact access stream (ijk/jik: load A, load B per iteration,
 * then load and store C once per (i, j); the other four: one load of the
 * register operand per middle iteration, then load A or B, load C, store C
 * per iteration) through an (s, E, b) cache from sim.h, the matrices at
 * matmul_model_bases(). max_accesses > 0 stops after the first steps that
 * reach it (a sample: cold misses included, so a slight overestimate).
 * Returns 0, or -1 with e set (bad geometry, memory). */
int matmul_simulate(int order, size_t n, size_t bsize, int s, int E, int b,
		    uint64_t max_accesses, struct matmul_sim *out, mt_error *e);

/* matmul_simulate() with the matrices at base[0..2] (A, B, C: byte
 * addresses, multiples of 8) instead of matmul_model_bases(): the conflict
 * misses depend on where they start. */
int matmul_simulate_at(int order, size_t n, size_t bsize, int s, int E, int b,
		       uint64_t max_accesses, const uint64_t base[3], struct matmul_sim *out,
		       mt_error *e);

/* ---- results: ONE store, writer and reader for `memtop run matmul` (timed),
 * the TUI tab and `memtop view` (matmul_result.c) ------------------------ */

struct matmul_row {
	int have;
	double ms, ns_iter, spread;
	int equal, rank;
	size_t block;
};

struct matmul_result {
	struct run_header hdr;
	unsigned orders;                  /* the orders of the run (its rows) */
	size_t n, block;
	int tries, race;
	int line_bytes;                   /* the line the book's estimate assumes */
	double book[MATMUL_NORDERS];      /* the book's misses per iteration */
	int have_sim, sim_sampled;        /* the simulator ran (on sim_s, sim_E, sim_b) */
	int sim_s, sim_E, sim_b;
	char sim_from[16];                /* the `memtop info` source of the geometry */
	int have_sim_o[MATMUL_NORDERS];
	double sim[MATMUL_NORDERS], sim_m[MATMUL_NORDERS][3];
	struct matmul_row res[MATMUL_NORDERS];
	struct matmul_row sweep[MATMUL_MAX_SWEEP];
	size_t nsweep;
	double frac[MATMUL_NORDERS], run_ns[MATMUL_NORDERS]; /* a race under way */
	int run_rank[MATMUL_NORDERS];
	int failed_equal;                 /* an order's C differed from ijk's */
	char source[MT_PATH_MAX];                 /* the file it came from, "" when measured here */
};

/* An empty result for p with the book's estimates for line_bytes (and the
 * simulator's geometry when p->sim_s >= 0, sim_from naming its source, may
 * be NULL). The header is left zero (run_header_init when the job starts). */
void matmul_result_init(struct matmul_result *r, const struct matmul_params *p, int line_bytes,
			const char *sim_from);

/* Store one event of matmul_worker. Returns the kind stored
 * (MATMUL_CELL_*), 0 for an event that is not a cell of r. */
int matmul_result_apply(struct matmul_result *r, const struct job_event *ev);

/* Orders finished (results) plus sweep rows measured. */
size_t matmul_result_measured(const struct matmul_result *r);

/* The result as JSON (see memtop(1)): the run header, "experiment":
 * "matmul", n, block, tries, mode, line_bytes, sim_cache, results, sweep.
 * NULL when out of memory. */
cJSON *matmul_result_to_json(const struct matmul_result *r);

/* Read a timed result back (strict: "FILE: results[2]: field ..."). Returns
 * 0, or -1 with e set. */
int matmul_result_from_json(const cJSON *root, const char *file, struct matmul_result *r,
			    mt_error *e);

/* The matmul result's result kind (matmul_kind.c; run/result_kind.h). */
struct result_kind;
extern const struct result_kind kind_matmul;
/* Its batch mode, `memtop run matmul` (matmul_batch.c), for result/result.c's
 * registry (run/experiment.h). */
struct experiment;
extern const struct experiment exp_matmul;
struct result_file;
struct result_compare_opts;
struct svg;
/* Its memtop compare and plot (result_kind's compare and plot callbacks:
 * see their contracts there), in labs_compare.c and labs_plot.c. */
int matmul_compare(const struct result_file *f, size_t n, const struct result_compare_opts *o);
int matmul_plot(const struct result_file *f, size_t n, struct svg *s);

#endif
