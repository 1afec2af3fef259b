/* lists: the same linked list (1 2 ... n) of 16-byte cells (value, next)
 * laid out in memory in different ways, walked and timed (seed 003's zl
 * step); plus cdr-coding, the walk's address trace replayed through the
 * cache simulator, and the graph homework (G[i][j] |= G[j][i]).
 *
 * Layouts:
 *   sequential  neighbours in the list are neighbours in memory;
 *   stride      each next cell 128 bytes further (a new line for 64- and
 *               128-byte lines): every 8th cell, then from the 2nd, ...;
 *   shuffled    the cells in a random order;
 *   malloc      each cell from malloc(16) with a malloc of 16..256 bytes of
 *               "other work" after it;
 *   holes       the malloc list, then every second noise block freed and a
 *               second list built into the holes (the one walked);
 *   cdr         cdr-coding: an array of 64-bit words, value << 2 | code
 *               (0 next word, 1 end, 2 pointer in the next word), the list
 *               built in one pass.
 *
 * Cells the worker streams (JOB_EV_CELL):
 *   kind LISTS_CELL_RESULT: row = index into params.lengths, col = layout,
 *     value = cycles per cell (with the work knob's work when work > 0),
 *     spread = (second best - best) / best of the tries, payload struct
 *     lists_ev_result.
 *   kind LISTS_CELL_WORK: value = cycles per cell of the work alone (no
 *     list), emitted once before the results when work > 0; payload struct
 *     lists_ev_work.
 *   kind LISTS_CELL_GRAPH: value = naive ms, payload struct lists_ev_graph.
 *   kind LISTS_CELL_HIST (malloc and holes, before their RESULT): one bin of
 *     the neighbour distances (the address of the next cell minus this
 *     one's; the lesson's "±64 KB"): row = length index, col = layout,
 *     value = neighbours in the bin, payload struct lists_ev_hist.
 *   kind LISTS_CELL_MODE (after the bins): value = the most common distance
 *     in bytes, payload struct lists_ev_mode. */
#ifndef MEMTOP_LISTS_H
#define MEMTOP_LISTS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "base/jsonio.h"
#include "base/util.h"
#include "run/job.h"
#include "run/runhdr.h"

enum list_layout {
	LIST_SEQUENTIAL,
	LIST_STRIDE,
	LIST_SHUFFLED,
	LIST_MALLOC,
	LIST_HOLES,
	LIST_CDR,
	LIST_NLAYOUTS
};

enum {
	LISTS_CELL_RESULT = 1,
	LISTS_CELL_WORK,
	LISTS_CELL_GRAPH,
	LISTS_CELL_HIST,
	LISTS_CELL_MODE
};

/* The payloads of the cells (run/job.h: JOB_PAYLOAD_PUT/GET), by kind. */
struct lists_ev_result {  /* LISTS_CELL_RESULT */
	double ns;         /* ns per cell of the best try */
	double lines64;    /* new 64-byte lines per cell */
	double lines128;   /* new 128-byte lines per cell */
	double sim;        /* simulator misses per cell (NAN: not simulated) */
	double bare_cyc;   /* cycles per cell of the bare walk (= value when
			      work is 0) */
	uint64_t cells;    /* cells in the list */
};

struct lists_ev_work {    /* LISTS_CELL_WORK */
	double ns;         /* ns per cell of the work alone */
};

struct lists_ev_graph {   /* LISTS_CELL_GRAPH */
	double blocked_ms; /* ms of the blocked version's best try */
	int same;          /* 1: both versions gave the same matrix */
	uint64_t n;        /* the graph's N (an N x N matrix) */
	uint64_t block;    /* the blocked version's block */
};

struct lists_ev_hist {    /* LISTS_CELL_HIST */
	int bin;           /* the bin (lists_hist_bin) */
};

struct lists_ev_mode {    /* LISTS_CELL_MODE */
	uint64_t count;    /* neighbours at the most common distance */
	uint64_t sampled;  /* neighbours looked at for it (the first
			      LISTS_MODE_SAMPLE at most) */
	uint64_t total;    /* all neighbours (n - 1) */
};

#define LIST_STRIDE_BYTES 128
#define LISTS_MAX_LENGTHS 16
#define LISTS_MAX_CELLS (1ull << 28)
#define LISTS_HIST_POW 40 /* distances up to 2^40 bytes */
#define LISTS_HIST_BINS (2 * LISTS_HIST_POW) /* [2^k, 2^(k+1)) bytes, each sign */
#define LISTS_MODE_SAMPLE (1u << 20) /* neighbours looked at for the mode */

struct list_cell {
	uint64_t value;
	struct list_cell *next;
};

/* A built list. Only the fields of its layout are used. */
struct list {
	int layout;
	size_t n;
	struct list_cell *head;   /* cell layouts (NULL for cdr or n == 0) */
	const uint64_t *cdr_head; /* cdr: the first word */
	void *arena;              /* sequential, stride, shuffled, cdr */
	void **blocks;            /* malloc, holes: every malloc'd block to free */
	size_t nblocks;
	job_t *job;               /* the run it is built for: its builds and visits
				     look at it (job_check) every LIST_LOOK_CELLS
				     cells and stop when it is cancelled; NULL never */
};

/* The cells a build or a visit of a list handles between two looks at its
 * job: a shuffled list of 4M cells took ~1 s a visit here (a miss to DRAM a
 * cell), and a run's q waited for four of them in a row; 64K cells are
 * ~15 ms at that pace. */
#define LIST_LOOK_CELLS 65536u

/* 1 when l's job was cancelled (the last look said so, or one now does):
 * what a visit returned is partial then. 0 for a list with no job. */
int list_cancelled(const struct list *l);

/* A cdr word's code (its low two bits). */
enum { LIST_CDR_NEXT = 0, LIST_CDR_END = 1, LIST_CDR_PTR = 2 };

/* The cdr cell after p, whose word is w: the next word (LIST_CDR_NEXT), the
 * one p[1] points to (LIST_CDR_PTR), or NULL at the end. Inlined into the
 * walks (lists.c) and the visits of lists_build.c. */
static inline __attribute__((always_inline)) const uint64_t *
list_cdr_next(const uint64_t *p, uint64_t w)
{
	switch (w & 3) {
	case LIST_CDR_NEXT:
		return p + 1;
	case LIST_CDR_PTR:
		return (const uint64_t *)(uintptr_t)p[1];
	default:
		return NULL;
	}
}

/* "sequential", "stride", "shuffled", "malloc", "holes", "cdr"; NULL out of
 * range. */
const char *list_layout_name(int layout);

/* The layout called s, or -1. */
int list_layout_parse(const char *s);

/* Rough bytes a list of n cells takes in this layout (to fit memory). */
uint64_t list_bytes_estimate(int layout, size_t n);

/* Build (1 2 ... n) in the layout; seed drives the shuffle and the noise
 * sizes. job (NULL: none) is looked at every LIST_LOOK_CELLS cells, here
 * and in the visits below (check, lines, trace, neighbours). Returns 0; 1
 * when job was cancelled midway (nothing kept: l freed); or -1 with e set
 * (memory, bad layout). n may be 0. */
int list_build(struct list *l, int layout, size_t n, uint64_t seed, job_t *job, mt_error *e);

/* Free everything list_build() allocated (a zeroed list is fine). */
void list_free(struct list *l);

/* Check the list reads 1, 2, ..., n and has exactly n elements. Returns 0;
 * 1 when l's job was cancelled midway; or -1 with e naming the first
 * position that differs. */
int list_check(const struct list *l, mt_error *e);

/* How many times a walk enters a different line of line_bytes (a power of
 * two) than the element before; the first element counts. Partial when
 * l's job was cancelled midway (list_cancelled). */
uint64_t list_line_changes(const struct list *l, unsigned line_bytes);

/* The walk's address trace: fn(addr, ctx) for every load, in order (cells:
 * the value then the next field; cdr: each word, plus the pointer word
 * when one is followed). Stops after the cell at which a look finds l's
 * job cancelled (list_cancelled). */
void list_trace(const struct list *l, void (*fn)(uint64_t addr, void *ctx), void *ctx);

/* The neighbour distances of a walk (next cell's address minus this one's),
 * in signed power-of-two bins, and the most common distance. */
struct lists_hist {
	int have;
	uint64_t count[LISTS_HIST_BINS];
	uint64_t total;                /* neighbours binned: n - 1 */
	int64_t mode;                  /* bytes */
	uint64_t mode_count, sampled;  /* neighbours with the mode, of the first sampled */
};

/* The bin of distance d: 0..LISTS_HIST_POW-1 for -2^(k+1) < d <= -2^k
 * (bin k counts down from -1), LISTS_HIST_POW + k for 2^k <= d < 2^(k+1)
 * (0 counts as +1; beyond 2^40 the last bins). */
int lists_hist_bin(int64_t d);

/* The bytes a bin spans: [*lo, *hi) for the positive bins, (*lo, *hi] in
 * magnitude for the negative ones (lo = -2^(k+1), hi = -2^k). */
void lists_hist_bounds(int bin, int64_t *lo, int64_t *hi);

/* The neighbour distances of l's walk into h (cells layouts only; cdr and
 * lists of fewer than two cells give nothing; nothing either when l's job
 * was cancelled midway). Returns 0, or -1 with e when the sample for the
 * mode cannot be allocated. */
int list_neighbours(const struct list *l, struct lists_hist *h, mt_error *e);

/* Write l's address trace (list_trace: the value then the next field of
 * each cell, 8 bytes each) to path in valgrind-lackey form (" L ADDR,8"),
 * so that `memtop sim` on it counts what list_simulate() counts. Returns 0
 * (no file when l's job was cancelled midway), or -1 with e. */
int list_write_trace(const struct list *l, const char *path, mt_error *e);

/* Walk the whole list once (the measured chain of loads), with work dependent
 * multiply-adds on each value (0: a bare walk). Returns a checksum. */
uint64_t list_walk(const struct list *l, unsigned work);

/* Replay the trace through an (s, E, b) cache (sim.h), cold. *misses gets
 * the misses (partial when l's job was cancelled midway). Returns 0, or -1
 * with e set (bad geometry). */
int list_simulate(const struct list *l, int s, int E, int b, uint64_t *misses, mt_error *e);

/* The graph homework on an n x n 0/1 byte matrix, row-major: naive
 * (for i, for j: G[j][i] |= G[i][j]) and blocked (each pair of the upper
 * half once, block x block tiles: both set to G[i][j] | G[j][i]). Same
 * result: G becomes symmetric, the OR of G and its transpose. */
void graph_symmetrize_naive(uint8_t *g, size_t n);
void graph_symmetrize_blocked(uint8_t *g, size_t n, size_t block);

/* Rows [r0, r1) of the above, for slicing (rows of i for naive; rows of
 * blocks of ii for blocked: r counts blocks). */
void graph_naive_rows(uint8_t *g, size_t n, size_t r0, size_t r1);
void graph_blocked_rows(uint8_t *g, size_t n, size_t block, size_t r0, size_t r1);

/* Fill g with random 0/1 entries (about one in eight set) from seed. */
void graph_fill(uint8_t *g, size_t n, uint64_t seed);

struct lists_params {
	size_t lengths[LISTS_MAX_LENGTHS];
	size_t nlengths;
	unsigned layouts;     /* bit mask of 1 << layout */
	unsigned work;        /* dependent multiply-adds per cell */
	int tries;            /* best of */
	int sim_s, sim_E, sim_b; /* replayed cache; sim_s < 0: none */
	uint64_t seed;
	uint64_t mem_limit;   /* skip a list estimated bigger than this (0: no limit) */
	int graph;            /* 1: only the graph homework */
	size_t graph_n, graph_block;
	const char *trace_dir; /* write each walk's trace there (NULL: none) */
};

/* Defaults: lengths 4096, 65536, 1M, 4M; every layout; work 0; best of 3;
 * simulated cache (7, 8, 7) = the M4 Max's L1d (128 KB, 8-way, 128-byte
 * lines); seed 2026; graph N 4096, block 64; mem_limit 0 (the caller sets
 * it: half of its machine's machine_mem_budget). */
void lists_params_default(struct lists_params *p);

/* The job worker: arg is a struct lists_params that outlives the job.
 * Returns 0 (also when cancelled), -1 with e set. */
int lists_worker(job_t *job, void *arg, mt_error *e);

/* ---- results: ONE store, writer and reader for `memtop run lists`, the TUI
 * tab and `memtop view` (lists_result.c) -------------------------------- */

struct lists_cell_result {
	int have;
	double cyc, ns, spread, l64, l128, sim, bare; /* as LISTS_CELL_RESULT's fields */
};

struct lists_result {
	struct run_header hdr;
	size_t lengths[LISTS_MAX_LENGTHS];
	size_t nlengths;
	unsigned layouts, work;
	int tries;
	int sim_s, sim_E, sim_b;  /* sim_s < 0: not simulated */
	double work_cyc;          /* LISTS_CELL_WORK, 0 when not measured */
	int graph;                /* the graph homework instead of the lists */
	size_t graph_n, graph_block;
	int have_graph, graph_same;
	double naive_ms, blocked_ms;
	struct lists_cell_result c[LISTS_MAX_LENGTHS][LIST_NLAYOUTS];
	struct lists_hist hist[LISTS_MAX_LENGTHS][2]; /* malloc, holes */
	char source[MT_PATH_MAX]; /* the file it came from, "" when measured here */
};

/* The layouts whose neighbour distances are kept: malloc (0) and holes (1);
 * -1 for the others. */
static inline int lists_hist_slot(int layout)
{
	return layout == LIST_MALLOC ? 0 : layout == LIST_HOLES ? 1 : -1;
}

/* An empty result with p's axes (header left zero). */
void lists_result_init(struct lists_result *r, const struct lists_params *p);

/* Store one event of lists_worker. Returns the kind stored (LISTS_CELL_*),
 * 0 for an event that is not a cell of r. */
int lists_result_apply(struct lists_result *r, const struct job_event *ev);

/* Cells measured (the graph counts as one). */
size_t lists_result_measured(const struct lists_result *r);

/* The result as JSON (see memtop(1)): the run header, "experiment": "lists",
 * then graph, or work, tries, core_ghz, work_cycles_per_cell, sim_cache and
 * results. NULL when out of memory. */
cJSON *lists_result_to_json(const struct lists_result *r);

/* Read a result back (strict: "FILE: results[3]: field ..."). Returns 0, or
 * -1 with e set. */
int lists_result_from_json(const cJSON *root, const char *file, struct lists_result *r,
			   mt_error *e);

/* The lists result's result kind (lists_kind.c; run/result_kind.h). */
struct result_kind;
extern const struct result_kind kind_lists;
/* Its batch mode, `memtop run lists` (lists_batch.c), for result/result.c's
 * registry (run/experiment.h). */
struct experiment;
extern const struct experiment exp_lists;

/* The note the worker writes in English (a layout skipped), marked for the
 * catalogue: the run and the UI say it in the user's language. */
#define LISTS_SAYS_SKIPPED N_("%s at %zu cells skipped: needs about %llu MB, %llu MB available")
struct result_file;
struct result_compare_opts;
struct svg;
/* Its memtop compare and plot (result_kind's compare and plot callbacks:
 * see their contracts there), in labs_compare.c and labs_plot.c. */
int lists_compare(const struct result_file *f, size_t n, const struct result_compare_opts *o);
int lists_plot(const struct result_file *f, size_t n, struct svg *s);

#endif
