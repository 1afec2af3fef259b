/* mountain: the memory mountain of seed 000. Read throughput (MB/s) over
 * working-set size x stride, measured by a strided read pass with four
 * independent accumulators: the fastest of many short tries, as the book's
 * K-best method takes the fastest of single passes.
 *
 * A measurement is a job (run/job.h) running mountain_worker(): it streams
 * one JOB_EV_CELL per grid point as soon as it is measured, row by row, and a
 * JOB_EV_UPDATE for each doubtful cell of a row measured again at the end of
 * that row (before the next row's first cell):
 *   row = size index, col = stride index, value = MB/s (the fastest try),
 *   spread = relative spread of the fastest tries ((k-th fastest - fastest)
 *   / fastest, k = kbest; the seed's method: second fastest), payload
 *   struct mountain_ev_cell.
 * With --profile, a JOB_EV_NOTE after each row says where its time went.
 * The consumer applies each event to its own struct mountain with
 * mountain_apply(). */
#ifndef MEMTOP_MOUNTAIN_H
#define MEMTOP_MOUNTAIN_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "base/jsonio.h"
#include "base/util.h"
#include "run/job.h"
#include "run/runhdr.h"

#define MOUNTAIN_MAX_SIZES 48
#define MOUNTAIN_MAX_STRIDES 64
#define MOUNTAIN_MIN_SIZE 4096ull         /* --sizes: 4K .. */
#define MOUNTAIN_MAX_SIZE (64ull << 30)   /* .. 64G */
#define MOUNTAIN_MAX_KBEST 16
/* A cell whose median try reads below this fraction of its fastest runs at
 * two speeds (see memtop(1): the fast state is the one the table shows). */
#define MOUNTAIN_TWO_SPEEDS 0.85

struct mountain_params {
	uint64_t sizes[MOUNTAIN_MAX_SIZES]; /* bytes, increasing */
	size_t nsizes;
	unsigned strides[MOUNTAIN_MAX_STRIDES]; /* 8-byte words, increasing */
	size_t nstrides;
	unsigned min_tries, max_tries; /* tries a cell: at least, at most */
	unsigned kbest;                /* a cell ends when its kbest fastest tries agree */
	double tolerance;              /* ... within this relative difference (0: never) */
	double try_ns;                 /* length of one try (one pass when a pass is longer) */
	double cell_ns;                /* ... after trying the cell at least this long */
	double cell_max_ns;            /* and ends after this long anyway (doubtful then) */
	uint64_t fixed_accesses;       /* seed mode: accesses per try (0 = time-based) */
	int profile;                   /* a note after each row: where its time went */
	double page_ns;                /* first touch of a fresh page, for the estimate
					  (0: MT_FRESH_PAGE_NS_GUESS) */
	int only_row, only_col;        /* measure just this cell (-1: the grid) */
};

/* The default grid: sizes 16K..128M doubling (14), strides 1..15 (15);
 * tries of 4 us (or one pass when longer); a cell ends when its 3 fastest
 * tries agree within 1 %, after at least 3 tries and 1 ms, or after 20 ms. */
void mountain_params_default(struct mountain_params *p);

/* The --quick grid for tests and CI: 16K..8M, strides 1, 2, 4, 8; cells of
 * 0.5 ms. */
void mountain_params_quick(struct mountain_params *p);

/* The seed's settings: 8M accesses a try, exactly 5 tries, the best counts;
 * no second looks (the default grid, mountain_params_seed_method). */
void mountain_params_seed(struct mountain_params *p);

/* The seed's method on the grid p already has (--quick --seed-settings):
 * 8M accesses a try, exactly 5 tries, the best counts. */
void mountain_params_seed_method(struct mountain_params *p);

/* Sizes doubling from lo to hi (both rounded to 8-byte words, lo >= 4K,
 * hi <= 64G). Returns 0 or -1 with e ("--sizes: ..."). */
int mountain_params_set_sizes(struct mountain_params *p, uint64_t lo, uint64_t hi, mt_error *e);

/* Strides 1..max (max <= 64). Returns 0 or -1 with e. */
int mountain_params_set_max_stride(struct mountain_params *p, unsigned max, mt_error *e);

/* Shrink the grid so the largest buffer fits in half of what budget b
 * leaves a run (machine/machine.h: the memory available, the job's
 * cgroup); writes a sentence into note when it did ("this job may use
 * 256M (its cgroup): the grid capped at 64M, its largest size would be
 * 256M"; "" when not). Returns 0, or -1 when not even the smallest size
 * fits. */
struct machine_budget; /* machine/machine.h */
int mountain_params_fit_memory(struct mountain_params *p, const struct machine_budget *b,
			       char *note, size_t len, mt_error *e);

/* Rough seconds the grid will take on this machine (for "about 9 s"). */
double mountain_params_estimate_s(const struct mountain_params *p);

/* One size over more strides than the grid: the seed's row_256k (the M4
 * Max's 256 KB row at strides 1..15 beside its 5-stride table). */
struct mountain_row {
	uint64_t size;      /* bytes; the row is absent when n == 0 */
	size_t n;
	unsigned strides[MOUNTAIN_MAX_STRIDES]; /* words, increasing */
	double mbs[MOUNTAIN_MAX_STRIDES];
};

/* A mountain, measured or loaded. */
struct mountain {
	struct run_header hdr;
	size_t nsizes, nstrides;
	uint64_t *sizes;   /* bytes */
	unsigned *strides; /* words */
	double *mbs;       /* nsizes * nstrides, row = size; NAN = not measured */
	double *spread;    /* same shape; NAN = unknown */
	double *canary;    /* same shape; NAN = unknown */
	double *typical;   /* same shape: MB/s of the median try; NAN = unknown */
	cJSON *caches;     /* the `memtop info` result recorded with it, or NULL */
	char source[MT_PATH_MAX];  /* file it came from, "" when measured here */
	double elapsed_s;  /* wall time of the measurement, 0 unknown */
	struct mountain_row full; /* a full stride row read from the file (n = 0: none) */
};

/* A new mountain with the given axes and every cell unmeasured (NAN).
 * Returns NULL when out of memory. */
struct mountain *mountain_new(const uint64_t *sizes, size_t nsizes, const unsigned *strides,
			      size_t nstrides);
void mountain_free(struct mountain *m);

/* Cell access: row = size index, col = stride index. */
static inline double mountain_at(const struct mountain *m, size_t row, size_t col)
{
	return m->mbs[row * m->nstrides + col];
}

/* Index of a stride (words) / size (bytes), or -1. */
int mountain_stride_index(const struct mountain *m, unsigned stride);
int mountain_size_index(const struct mountain *m, uint64_t size);

/* Cells measured so far. */
size_t mountain_measured(const struct mountain *m);

/* The payload of a cell (run/job.h: JOB_PAYLOAD_PUT/GET). */
struct mountain_ev_cell {
	unsigned tries;     /* tries timed */
	double canary;      /* canary factor: 1.0 = the core was as fast as its
			       best moment; 1.3 = a 30 % slower L1 canary
			       around this cell */
	double best_ns;     /* ns a pass of the fastest try */
	int twice;          /* 1: the cell was doubtful and measured a second
			       time */
	double typical_mbs; /* MB/s of the median try: the typical pass, against
			       the fastest (NAN: not known) */
};

/* Apply one JOB_EV_CELL of a mountain job to m. Returns 0, or -1 when the
 * cell lies outside m. */
int mountain_apply(struct mountain *m, const struct job_event *ev);

/* ---- measuring ------------------------------------------------------- */

/* One strided read pass over data[0..n) (n words): sums data[0], data[s],
 * data[2s], ... with four independent accumulators and wrap-around adds.
 * Not inlined; the caller sinks the result. */
int64_t mountain_read_pass(const int64_t *data, size_t n, size_t stride);

/* The mountain job (a job_fn, see run/job.h): measures the grid of arg, a
 * const struct mountain_params * that must outlive the job (only_row/only_col
 * >= 0: just that cell), streaming the events described above. Allocates
 * and frees its own buffer. Returns 0 (also when cancelled), or -1 with e:
 * an empty grid, no memory for the largest size. */
int mountain_worker(job_t *job, void *arg, mt_error *e);

/* The memory mountain's result kind (mountain_kind.c; run/result_kind.h). */
struct result_kind;
extern const struct result_kind kind_mountain;
/* Its batch mode, `memtop run mountain` (mountain_batch.c), for result/result.c's
 * registry (run/experiment.h). */
struct experiment;
extern const struct experiment exp_mountain;

/* The notes the worker writes in English (a row's time), marked for the
 * catalogue: the run and the UI say them in the user's language. */
#define MOUNTAIN_NOTE_ROW_1                                                                    \
	N_("%s row: %.1f ms: warm-up %.1f, tries %.1f (%lu), canary %.2f, second looks %.1f "  \
	   "(%u cell), other %.1f")
#define MOUNTAIN_NOTE_ROW                                                                      \
	N_("%s row: %.1f ms: warm-up %.1f, tries %.1f (%lu), canary %.2f, second looks %.1f "  \
	   "(%u cells), other %.1f")
#define MOUNTAIN_NOTE_FORMS MOUNTAIN_NOTE_ROW_1, MOUNTAIN_NOTE_ROW
struct result_file;
struct result_compare_opts;
struct svg;
/* Its memtop compare and plot (result_kind's compare and plot callbacks:
 * see their contracts there), in mountain_compare.c and mountain_plot.c. */
int mountain_compare(const struct result_file *f, size_t n, const struct result_compare_opts *o);
int mountain_plot(const struct result_file *f, size_t n, struct svg *s);
/* mountain_plot with each mountain's levels held against another
 * measurement of its machine: other[k] for f[k] (an entry with no level
 * and no memory: none; other NULL: none at all), as rowlevels.h says, its
 * captions under the floor. */
struct other_levels;
int mountain_plot_with(const struct result_file *f, size_t n, const struct other_levels *other,
		       struct svg *s);

#endif
