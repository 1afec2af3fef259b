/* transpose: the transpose lab of seed 003 (cachelab part B).
 *
 * Simulated: B = A^T for int32 matrices, A rows x cols (row-major) at
 * TRANSPOSE_BASE_A and B cols x rows at TRANSPOSE_BASE_B, on an (s, E, b) cache from sim.h
 * (cachelab's is (5, 1, 5)). One access for each element load of A and each
 * element store to B (and, in the 64x64 diagonal version, each load back
 * from B); locals are registers. The data is really transposed too, and the
 * result is checked.
 *
 * Versions: naive; block:K (square K x K blocks) and block:RxC (R rows by C
 * columns of A, CHK-4's non-square blocks); buffer:K and buffer:RxC (the
 * same blocks, each block row of A read into locals before its stores, as
 * diagonal32 does: buffer:8 on 32x32 is diagonal32, access for access);
 * diagonal (32x32: 8x8 blocks, each row of A read into eight locals before
 * the eight stores; 64x64: the seed's 4x4-quarter trick; other sizes:
 * block:16).
 *
 * Real machine: N x N int32, any list of naive, block and buffer versions
 * (default naive and block:16; the seed's homework), ns per element, each
 * kernel run once untimed before its timed tries (warm caches and TLB).
 *
 * Both run as one job (src/job.h) that streams cells:
 *   kind TRANSPOSE_EV_SIM:  row = version index, col = size index, value = misses,
 *                    payload struct transpose_ev_sim;
 *   kind TRANSPOSE_EV_REAL: row = index into plan.real; value = best ns per
 *                    element, spread = (second best - best) / best, payload
 *                    struct transpose_ev_real.
 */
#ifndef MEMTOP_TRANSPOSE_H
#define MEMTOP_TRANSPOSE_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "base/util.h"
#include "run/job.h"
#include "run/runhdr.h"

#define TRANSPOSE_BASE_A 0x100000u
#define TRANSPOSE_BASE_B 0x140000u
#define TRANSPOSE_MAX_ELEMS (1u << 24) /* rows * cols of a simulated matrix */
#define TRANSPOSE_MAX_VERSIONS 24
#define TRANSPOSE_MAX_SIZES 16
#define TRANSPOSE_MAX_REAL 16
#define TRANSPOSE_MAX_BLOCK 4096  /* a block's rows or columns */
#define TRANSPOSE_MAX_BUFFER 256  /* buffer: a block row read into at most this many locals */
#define TRANSPOSE_SWEEP_N 6

/* CHK-4's block sides: 4, 8, 12, 16, 20, 24 (the simulated sweep). */
extern const int transpose_sweep_sides[TRANSPOSE_SWEEP_N];
/* The real sweep's block sides (the homework's table): 4 .. 128. */
#define TRANSPOSE_REAL_SWEEP_N 6
extern const int transpose_real_sweep_sides[TRANSPOSE_REAL_SWEEP_N];

enum transpose_method { TRANSPOSE_NAIVE, TRANSPOSE_BLOCK, TRANSPOSE_DIAGONAL, TRANSPOSE_BUFFER };

struct transpose_version {
	enum transpose_method method;
	int br, bc; /* TRANSPOSE_BLOCK, TRANSPOSE_BUFFER: a block of br rows by bc columns of A */
};

/* Parse "naive", "diagonal", "block:K", "block:RxC", "buffer:K" or
 * "buffer:RxC" (1 <= K, R, C <= TRANSPOSE_MAX_BLOCK; a buffer's C at most
 * TRANSPOSE_MAX_BUFFER). Returns 0, or -1 with e ("version 'x': expected naive,
 * block:K, block:RxC, buffer:K or diagonal"). */
int transpose_version_parse(const char *s, struct transpose_version *v, mt_error *e);

/* The version's name as transpose_version_parse() reads it ("block:8",
 * "block:16x4", "buffer:8"). */
const char *transpose_version_name(const struct transpose_version *v, char *buf, size_t len);

/* The byte address of element (row, col) of matrix 0 (A, rows x cols at
 * TRANSPOSE_BASE_A) or 1 (B, cols x rows at transpose_base_b) of a rows x cols
 * transpose: what the simulator and a written trace see. */
uint64_t transpose_addr(int matrix, int row, int col, int rows, int cols);

/* Parse "RxC" (rows x cols, each 1..8192, rows * cols <= TRANSPOSE_MAX_ELEMS).
 * Returns 0, or -1 with e. */
int transpose_size_parse(const char *s, int *rows, int *cols, mt_error *e);

/* Where B sits for a rows x cols A: TRANSPOSE_BASE_B, or for an A larger than
 * 256 KB the next multiple of 256 KB after A's end (so A and B never
 * overlap and stay a multiple of the cachelab cache apart). */
uint64_t transpose_base_b(int rows, int cols);

/* cachelab's limit on misses for this size (300 for 32x32, 1300 for 64x64,
 * 2000 for 61x67), or 0 when cachelab grades no such size. A version
 * passes when its misses are below the limit. */
int transpose_cachelab_limit(int rows, int cols);

/* The cache set element (row, col) of matrix 0 (A) or 1 (B) of a rows x
 * cols transpose lands in, on a cache of 2^s sets of 2^b-byte blocks. */
uint64_t transpose_set_of(int matrix, int row, int col, int rows, int cols, int s, int b);

#define TRANSPOSE_SETS_MAX_S 10 /* transpose_misses_by_set: at most 1024 sets */

/* The misses of version v on a rows x cols transpose on (s, E, b), by the
 * set they fall in: misses[0 .. 2^s). Returns 0, or -1 with e (s above
 * TRANSPOSE_SETS_MAX_S, bad geometry or size). */
int transpose_misses_by_set(const struct transpose_version *v, int rows, int cols, int s, int E, int b,
		     uint64_t *misses, mt_error *e);

struct transpose_counts {
	uint64_t accesses, hits, misses, evictions;
	int correct; /* B == A^T afterwards */
};

/* Called for every simulated access, in order: matrix 0 = A, 1 = B; row and
 * col within that matrix; is_store; the sim_access() flags. */
typedef void (*transpose_access_fn)(void *ctx, int matrix, int row, int col, int is_store,
			     unsigned flags);

/* Simulate one version of a rows x cols transpose on a fresh (s, E, b)
 * cache, calling fn (may be NULL) for each access. Returns 0 with *out, or
 * -1 with e (bad geometry, size out of range, out of memory). */
int transpose_simulate(const struct transpose_version *v, int rows, int cols, int s, int E, int b,
		transpose_access_fn fn, void *ctx, struct transpose_counts *out, mt_error *e);

/* The real-machine kernels: rows i0..i1-1 of b (n x n) = a^T, naive (rows
 * of a, columns of b), in br x bc blocks (i0 a multiple of br), and in
 * blocks with each block row of a copied to a local buffer first (bc <=
 * TRANSPOSE_MAX_BUFFER). Rows 0..n make the whole transpose. Not inlined, so the
 * timing measures them. */
void transpose_real_naive(const int32_t *a, int32_t *b, size_t n, size_t i0, size_t i1);
void transpose_real_blocked(const int32_t *a, int32_t *b, size_t n, size_t i0, size_t i1, size_t br,
		     size_t bc);
void transpose_real_buffered(const int32_t *a, int32_t *b, size_t n, size_t i0, size_t i1, size_t br,
		      size_t bc);

/* Run version v (naive, block or buffer) on rows i0..i1-1 on the real
 * machine (i0 a multiple of transpose_real_band(v)). */
void transpose_real_run(const struct transpose_version *v, const int32_t *a, int32_t *b, size_t n, size_t i0,
		 size_t i1);

/* The rows a timed run does between two looks at the job (pause, cancel):
 * TRANSPOSE_BAND_ROWS rounded up to a whole number of v's block rows. */
#define TRANSPOSE_BAND_ROWS 256
size_t transpose_real_band(const struct transpose_version *v);

enum { TRANSPOSE_EV_SIM = 1, TRANSPOSE_EV_REAL = 2 };

/* The payloads of the cells (run/job.h: JOB_PAYLOAD_PUT/GET), by kind. */
struct transpose_ev_sim {           /* TRANSPOSE_EV_SIM */
	uint64_t hits, evictions, accesses; /* the simulator's counts */
	int correct;         /* 1: B == A^T afterwards */
};

struct transpose_ev_real {          /* TRANSPOSE_EV_REAL */
	int tries;           /* timed tries (after one untimed run) */
	uint64_t n;          /* the matrices' side N */
	struct transpose_version version; /* the version timed: kind, block rows, columns */
	int correct;         /* 1: B == A^T afterwards */
};

/* What one job measures. */
struct transpose_plan {
	struct transpose_version versions[TRANSPOSE_MAX_VERSIONS];
	int nversions;
	int rows[TRANSPOSE_MAX_SIZES], cols[TRANSPOSE_MAX_SIZES];
	int nsizes;
	int s, E, b;
	size_t real_n;     /* 0: no real-machine timing */
	struct transpose_version real[TRANSPOSE_MAX_REAL]; /* the real versions timed */
	int nreal;
	int real_tries;    /* best of this many (after one untimed run) */
	const char *trace_dir; /* write each simulated run's trace there (NULL: none) */
};

/* The default plan: the seed's four versions x 32x32, 64x64, 61x67 on
 * (5, 1, 5), and the real machine at N = 4096, naive and block:16, best of
 * 5. */
void transpose_plan_default(struct transpose_plan *p);

/* The real versions of the homework's table: naive, then block:K and
 * buffer:K for K in transpose_real_sweep_sides. */
void transpose_plan_real_sweep(struct transpose_plan *p);

/* ---- the result (transpose_result.c) ------------------------------------ */

/* A transpose run's result, as `memtop run transpose --json` writes it and
 * the Transpose tab saves and opens it: the simulated cache, the misses of
 * each version at each size, and the versions timed on the real machine. */
struct transpose_result {
	struct run_header hdr;
	int s, E, b;                      /* the simulated cache */
	struct transpose_version versions[TRANSPOSE_MAX_VERSIONS];
	int nversions;
	int rows[TRANSPOSE_MAX_SIZES], cols[TRANSPOSE_MAX_SIZES];
	int nsizes;
	struct transpose_counts sim[TRANSPOSE_MAX_VERSIONS][TRANSPOSE_MAX_SIZES];
	int have[TRANSPOSE_MAX_VERSIONS][TRANSPOSE_MAX_SIZES]; /* sim[v][z] was simulated */
	size_t real_n;                    /* 0: no real-machine timing */
	int real_tries;
	struct transpose_version real[TRANSPOSE_MAX_REAL];
	int nreal;
	double real_ns[TRANSPOSE_MAX_REAL];      /* ns an element; 0: not measured */
	double real_spread[TRANSPOSE_MAX_REAL];
	int real_ok[TRANSPOSE_MAX_REAL];         /* the version's B was A^T */
	char source[MT_PATH_MAX];         /* the file it came from, "" when measured here */
};

/* An empty result with p's cache, versions, sizes and real versions; the
 * header is left zero (the caller takes it before the job starts). */
void transpose_result_init(struct transpose_result *r, const struct transpose_plan *p);

/* Store one event of transpose_worker (a TRANSPOSE_EV_SIM or TRANSPOSE_EV_REAL cell).
 * Returns its kind, or 0 for an event that is not a cell of r. */
int transpose_result_apply(struct transpose_result *r, const struct job_event *ev);

/* Simulated cells plus real versions measured. */
size_t transpose_result_measured(const struct transpose_result *r);

/* The fastest real version after naive (its index), or -1 when none is
 * measured. */
int transpose_result_best(const struct transpose_result *r);

/* The result as JSON (see memtop(1)): the run header, "experiment":
 * "transpose", cache {s, E, b}, results [{version, rows, cols, accesses,
 * hits, misses, evictions, correct, limit and pass on cachelab's cache}],
 * and real {n, tries, versions [{version, ns_per_element, spread,
 * correct}], naive_ns_per_element, best, best_ns_per_element, speedup}
 * when the real machine was timed. NULL when out of memory. */
cJSON *transpose_result_to_json(const struct transpose_result *r);

/* Read a result back (strict: "FILE: results[2]: field \"misses\" ...").
 * Returns 0, or -1 with e set. */
int transpose_result_from_json(const cJSON *root, const char *file, struct transpose_result *r,
			       mt_error *e);

/* The trace file of simulated version v on a rows x cols transpose:
 * "DIR/transpose-block-16x4-61x67.trace" (':' of the name as '-'). Returns
 * buf, or NULL when it does not fit. */
const char *transpose_trace_path(const char *dir, const struct transpose_version *v, int rows, int cols,
			  char *buf, size_t len);

/* Write the trace of version v on a rows x cols transpose to path in
 * valgrind-lackey form (" L 100000,4", " S 140000,4"), the accesses the
 * simulation makes, so that `memtop sim -s S -E E -b B -t path` gives its
 * misses exactly. Returns 0, or -1 with e (bad size, a write failure). */
int transpose_write_trace(const struct transpose_version *v, int rows, int cols, const char *path, mt_error *e);

/* Can p run here? Checks the geometry, the sizes, the real versions (no
 * diagonal: it is a simulated cache's trick) and the memory for the real
 * N x N (half of this machine's machine_mem_budget: its memory, its job's
 * cgroup). Returns 0, or -1 with e (bad input: say it before measuring). */
int transpose_plan_check(const struct transpose_plan *p, mt_error *e);

/* The transpose job (a job_fn, see run/job.h): arg is a const struct
 * transpose_plan * that transpose_plan_check() accepted and that outlives the job. The
 * simulated cells come first, version by version, size by size (each one's
 * trace written to p->trace_dir when set); then the real versions. Returns
 * 0 (also when cancelled), or -1 with e (out of memory, a trace not
 * written). */
int transpose_worker(job_t *job, void *arg, mt_error *e);

/* The transpose lab's result kind (transpose_kind.c; run/result_kind.h). */
struct result_kind;
extern const struct result_kind kind_transpose;
/* Its batch mode, `memtop run transpose` (transpose_batch.c), for result/result.c's
 * registry (run/experiment.h). */
struct experiment;
extern const struct experiment exp_transpose;
struct result_file;
struct result_compare_opts;
/* Its memtop compare (result_kind's compare: see its contract), in
 * transpose_compare.c. */
int transpose_compare(const struct result_file *f, size_t n, const struct result_compare_opts *o);

#endif
