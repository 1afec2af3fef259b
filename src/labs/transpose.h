/* transpose: the transpose lab of seed 003 (cachelab part B).
 *
 * Simulated: B = A^T for int32 matrices, A rows x cols (row-major) at
 * TR_BASE_A and B cols x rows at TR_BASE_B, on an (s, E, b) cache from sim.h
 * (cachelab's is (5, 1, 5)). One access for each element load of A and each
 * element store to B (and, in the 64x64 diagonal version, each load back
 * from B); locals are registers. The data is really transposed too, and the
 * result is checked.
 *
 * Versions: naive; block:K (square K x K blocks); diagonal (32x32: 8x8
 * blocks, each row of A read into eight locals before the eight stores;
 * 64x64: the seed's 4x4-quarter trick; other sizes: block:16).
 *
 * Real machine: N x N int32, naive against blocked, ns per element.
 *
 * Both run as one job (src/job.h) that streams cells:
 *   kind TR_EV_SIM:  row = version index, col = size index, value = misses,
 *                    aux[0] = hits, aux[1] = evictions, aux[2] = accesses,
 *                    aux[3] = 1 when B == A^T afterwards;
 *   kind TR_EV_REAL: row = 0 naive, 1 blocked; value = best ns per element,
 *                    spread = (second best - best) / best, aux[0] = tries,
 *                    aux[1] = N, aux[2] = block, aux[3] = 1 when correct.
 */
#ifndef MEMTOP_TRANSPOSE_H
#define MEMTOP_TRANSPOSE_H

#include <stddef.h>
#include <stdint.h>

#include "core/job.h"
#include "core/util.h"

#define TR_BASE_A 0x100000u
#define TR_BASE_B 0x140000u
#define TR_MAX_ELEMS (1u << 24) /* rows * cols of a simulated matrix */
#define TR_MAX_VERSIONS 16
#define TR_MAX_SIZES 16

enum tr_kind { TR_NAIVE, TR_BLOCK, TR_DIAGONAL };

struct tr_version {
	enum tr_kind kind;
	int block; /* TR_BLOCK: the side K */
};

/* Parse "naive", "block:K" (1 <= K <= 4096) or "diagonal". Returns 0, or -1
 * with e ("version 'x': expected naive, block:K or diagonal"). */
int tr_version_parse(const char *s, struct tr_version *v, mt_error *e);

/* The version's name as tr_version_parse() reads it ("block:8"). */
const char *tr_version_name(const struct tr_version *v, char *buf, size_t len);

/* Parse "RxC" (rows x cols, each 1..8192, rows * cols <= TR_MAX_ELEMS).
 * Returns 0, or -1 with e. */
int tr_size_parse(const char *s, int *rows, int *cols, mt_error *e);

/* Where B sits for a rows x cols A: TR_BASE_B, or for an A larger than
 * 256 KB the next multiple of 256 KB after A's end (so A and B never
 * overlap and stay a multiple of the cachelab cache apart). */
uint64_t tr_base_b(int rows, int cols);

/* cachelab's limit on misses for this size (300 for 32x32, 1300 for 64x64,
 * 2000 for 61x67), or 0 when cachelab grades no such size. A version
 * passes when its misses are below the limit. */
int tr_cachelab_limit(int rows, int cols);

struct tr_result {
	uint64_t accesses, hits, misses, evictions;
	int correct; /* B == A^T afterwards */
};

/* Called for every simulated access, in order: matrix 0 = A, 1 = B; row and
 * col within that matrix; is_store; the sim_access() flags. */
typedef void (*tr_access_fn)(void *ctx, int matrix, int row, int col, int is_store,
			     unsigned flags);

/* Simulate one version of a rows x cols transpose on a fresh (s, E, b)
 * cache, calling fn (may be NULL) for each access. Returns 0 with *out, or
 * -1 with e (bad geometry, size out of range, out of memory). */
int tr_simulate(const struct tr_version *v, int rows, int cols, int s, int E, int b,
		tr_access_fn fn, void *ctx, struct tr_result *out, mt_error *e);

/* The real-machine kernels: b (n x n) = a^T, naive (rows of a, columns of b)
 * and in k x k blocks. Not inlined, so the timing measures them. */
void tr_real_naive(const int32_t *a, int32_t *b, size_t n);
void tr_real_blocked(const int32_t *a, int32_t *b, size_t n, size_t k);

enum { TR_EV_SIM = 1, TR_EV_REAL = 2 };

/* What one job measures. */
struct tr_plan {
	struct tr_version versions[TR_MAX_VERSIONS];
	int nversions;
	int rows[TR_MAX_SIZES], cols[TR_MAX_SIZES];
	int nsizes;
	int s, E, b;
	size_t real_n;     /* 0: no real-machine timing */
	size_t real_block; /* block side of the real blocked version */
	int real_tries;    /* best of this many */
};

/* The default plan: the seed's four versions x 32x32, 64x64, 61x67 on
 * (5, 1, 5), and the real machine at N = 4096, block 16, best of 5. */
void tr_plan_default(struct tr_plan *p);

/* Can p run here? Checks the geometry, the sizes and the memory for the
 * real N x N. Returns 0, or -1 with e (bad input: say it before measuring). */
int tr_plan_check(const struct tr_plan *p, mt_error *e);

/* The transpose job (a job_fn, see core/job.h): arg is a const struct
 * tr_plan * that tr_plan_check() accepted and that outlives the job. The
 * simulated cells come first, version by version, size by size; then the
 * real naive and blocked cells. Returns 0 (also when cancelled), or -1 with
 * e (out of memory). */
int transpose_worker(job_t *job, void *arg, mt_error *e);

#endif
