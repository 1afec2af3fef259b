/* latency: load latency by pointer chasing (seed 002, after lmbench's
 * lat_mem_rd), and the reading of the curve into cache levels.
 *
 * A chase is an array of pointers where each visited slot holds the address
 * of the next one; the timed loop is p = *p, unrolled, so every load waits
 * for the one before. Two kinds of chase over the same buffer:
 *   fixed:  slots 0, s, 2s, ... (s = the stride in bytes), the last back to
 *           the first: lat_mem_rd's chase; the prefetchers learn it.
 *   random: the same slots at the random stride, visited in one random cycle
 *           (Sattolo's shuffle): multichase's and tinymembench's chase; no
 *           prefetcher can follow it.
 * Sizes run from 4 KB up in lat_mem_rd's steps (latency_step()).
 *
 * A measurement is a job (core/job.h) running latency_worker(): it streams
 * one JOB_EV_CELL per (size, chase):
 *   row = size index, col = stride index for the fixed chases and
 *   col = nstrides for the random chase (kind = 0 fixed, 1 random),
 *   value = ns per load (best try), aux[0] = core cycles per load,
 *   aux[1] = timed loads, aux[2] = tries, spread = (second best - best) / best.
 * The consumer applies each event to its own struct latency_result with
 * latency_apply(); latency_detect() reads the levels from a whole or partial
 * result (src/latency_levels.c). */
#ifndef MEMTOP_LATENCY_H
#define MEMTOP_LATENCY_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "core/job.h"
#include "core/jsonio.h"
#include "core/runhdr.h"
#include "core/util.h"

#define LAT_MAX_SIZES 256
#define LAT_MAX_STRIDES 12
#define LAT_MAX_LEVELS 16
#define LAT_MIN_SIZE 4096u
#define LAT_PAGE 4096u

/* lat_mem_rd's next array size after k bytes (seed 002's step()): doubling
 * below 1 KB, +1 KB below 4 KB, then 8 steps per doubling (+2 KB below 32 KB,
 * +s/16 where s is the next power of two above k from 32 KB on). */
uint64_t latency_step(uint64_t k);

/* The sizes from lo (>= 4 KB) while <= hi, in latency_step() order, into out
 * (at most cap). Returns the count. */
size_t latency_sizes(uint64_t lo, uint64_t hi, uint64_t *out, size_t cap);

enum { LAT_HUGE_OFF = 0, LAT_HUGE_ON = 1 };

/* The kind of the JOB_EV_NOTE that says what pages backed the buffer. */
enum { LAT_NOTE_PAGES = 1 };

struct latency_params {
	uint64_t sizes[LAT_MAX_SIZES]; /* bytes, latency_step() order */
	size_t nsizes;
	unsigned strides[LAT_MAX_STRIDES]; /* bytes, increasing; fixed chases */
	size_t nstrides;                   /* 0: no fixed chase (--random) */
	int random;                        /* also the random chase */
	unsigned random_stride;            /* bytes between the random chase's slots */
	uint64_t tlb_locality;             /* random chase in groups of this many bytes
					      visited one after the other (0: no groups) */
	int hugepages;                     /* LAT_HUGE_ON: madvise(MADV_HUGEPAGE) */
	unsigned tries;                    /* best of this many timed tries */
	double try_ns;                     /* target length of one try */
	double point_ns;                   /* most timed time a point may take */
	double target_s;                   /* whole run; points shrink to keep it */
	double page_ns;                    /* first touch of a fresh page, for the
					      estimate (0: MT_FRESH_PAGE_NS_GUESS) */
	char note[200];                    /* emitted as a JOB_EV_NOTE at the start */
};

/* The default run: sizes 4K..512M, strides 128..4096 doubling plus the random
 * chase at 128 bytes, huge pages off, best of 3 tries of 1 ms, at most
 * 30 ms timed a point, an 18 s target for the whole run (when the run
 * projects longer, on a contended host, the point budget shrinks down to
 * 8 ms). */
void latency_params_default(struct latency_params *p);

/* The --quick run for tests: 4K..8M, strides 128 and 4096 plus random. */
void latency_params_quick(struct latency_params *p);

/* Sizes from 4 KB up to max (rounded down to the sequence). Returns 0 or -1
 * with e ("--max-size: ...") when max < 4 KB or the list would not fit. */
int latency_params_set_max(struct latency_params *p, uint64_t max, mt_error *e);

/* Cap the largest size to half of available bytes (0 = unknown: no cap);
 * writes the sentence into note and p->note ("" when nothing was capped). Returns 0, or
 * -1 with e when not even 4 KB fits. */
int latency_params_fit_memory(struct latency_params *p, uint64_t available, char *note,
			      size_t len, mt_error *e);

/* Rough seconds the run will take (for the header and the ETA). */
double latency_params_estimate_s(const struct latency_params *p);

/* ---- chases (exposed for the tests) ----------------------------------- */

/* Link the fixed chase over buf[0..size): slot i*stride points to slot
 * (i+1)*stride, the last to slot 0. Returns the number of slots (size /
 * stride), 0 when stride is 0, not a multiple of the pointer size, or larger
 * than size. */
size_t latency_build_fixed(void *buf, uint64_t size, unsigned stride);

/* Link the random chase over the same slots: one cycle through all size /
 * stride slots in a random order drawn from seed (Sattolo's algorithm).
 * scratch holds at least size / stride uint32_t. Returns the slot count, 0
 * on bad arguments (as latency_build_fixed, or more than 2^32 slots). */
size_t latency_build_random(void *buf, uint64_t size, unsigned stride, uint64_t seed,
			    uint32_t *scratch);

/* The random chase with TLB locality (multichase's -T): the slots fall in
 * groups of locality bytes (rounded down to a multiple of stride, at least
 * one slot); the cycle visits every slot of one group in a random order
 * before it moves to the next group, the groups in a random order. So at
 * any moment the chase runs over locality / 4 KB pages only: their
 * translations stay in the TLB, and what remains is the caches' and the
 * memory's latency. locality 0 or >= size is latency_build_random().
 * scratch holds at least size / stride + size / locality + 1 uint32_t.
 * Returns the slot count, 0 on bad arguments (as latency_build_random). */
size_t latency_build_random_local(void *buf, uint64_t size, unsigned stride, uint64_t locality,
				  uint64_t seed, uint32_t *scratch);

/* Follow n pointers from p (an unrolled p = *p loop); returns where it ended
 * so the caller can sink it. Not inlined. */
void *latency_chase(void *p, uint64_t n);

/* ---- results ---------------------------------------------------------- */

struct latency_result {
	struct run_header hdr;
	double ghz;          /* core clock used for cycles */
	size_t nsizes, nstrides;
	uint64_t sizes[LAT_MAX_SIZES];
	unsigned strides[LAT_MAX_STRIDES];
	double ns[LAT_MAX_STRIDES][LAT_MAX_SIZES];     /* NAN: not measured */
	double cycles[LAT_MAX_STRIDES][LAT_MAX_SIZES];
	int has_random;
	unsigned random_stride;
	uint64_t tlb_locality; /* bytes; 0: the random chase over the whole array */
	double random_ns[LAT_MAX_SIZES];
	double random_cycles[LAT_MAX_SIZES];
	int hugepages;       /* LAT_HUGE_* requested */
	char pages[160];     /* what the kernel gave: "4 KB pages", "huge pages: ..." */
	uint64_t capped_from; /* the asked max size when memory capped it, else 0 */
	double elapsed_s;
	char source[256];    /* file it came from, "" when measured here */
};

/* A result with p's axes and every point unmeasured (NAN). Returns NULL when
 * out of memory. */
struct latency_result *latency_result_new(const struct latency_params *p, double ghz);

/* Free r (NULL is fine). */
void latency_result_free(struct latency_result *r);

/* Apply one event of a latency job to r: a JOB_EV_CELL, or the
 * LAT_NOTE_PAGES note (other notes are left to the caller). Returns 0, or -1
 * when the event is not r's (a cell outside r, another note). */
int latency_apply(struct latency_result *r, const struct job_event *ev);

/* Points measured so far (fixed and random). */
size_t latency_measured(const struct latency_result *r);

/* The result as JSON (see memtop(1)): header, ghz, strides, sizes, cycles and
 * ns per stride, random, levels. NULL when out of memory. */
cJSON *latency_to_json(const struct latency_result *r);

/* Read a result back (strict: ragged or mistyped arrays fail with "FILE:
 * FIELD ..."). Returns NULL with e set. */
struct latency_result *latency_from_json(const cJSON *root, const char *file, mt_error *e);

/* ---- measuring -------------------------------------------------------- */

/* The latency job (a job_fn, see core/job.h): measures arg, a const struct
 * latency_params * that must outlive the job, streaming the cells described
 * above, then one JOB_EV_NOTE of kind LAT_NOTE_PAGES whose text says what
 * the kernel backed the buffer with (latency_apply() keeps it in pages).
 * Allocates and frees its own buffer. Returns 0 (also when cancelled), or -1
 * with e: nothing to measure, no memory for the largest size. */
int latency_worker(job_t *job, void *arg, mt_error *e);

/* ---- reading the curve (latency_levels.c) ------------------------------ */

/* A plateau of one curve: points i0..i1 (indices into sizes) whose level is
 * the median of their values. */
struct latency_plateau {
	size_t i0, i1;
	double level;
};

#define LAT_TOLERANCE 0.10 /* a point belongs to a plateau within 10 % */
#define LAT_MERGE 0.20     /* neighbouring plateaus closer than 20 % merge */

/* Segment one curve v[0..n) (NAN ends it: a partial curve is read up to its
 * first unmeasured point) into plateaus, left to right: a median-of-3 filter
 * first (one noisy point cannot start or end a plateau), then maximal runs
 * of at least 4 points (half an octave) within tol of their running mean; points between
 * plateaus are the steps. Neighbouring plateaus whose levels differ by less
 * than merge (relative to the lower) are merged, with the step points between
 * them. Levels are medians of the raw values. Returns the plateau count
 * (at most cap). */
size_t latency_segment(const double *v, size_t n, double tol, double merge,
		       struct latency_plateau *out, size_t cap);

struct latency_level {
	int level;         /* cache level 1, 2, ... or TLB number 1, 2, ... */
	int tlb;           /* 1: a TLB step, not a cache */
	uint64_t size;     /* bytes: last size on the plateau (TLB: its reach) */
	uint64_t step_end; /* first size on the next plateau */
	double cycles, ns; /* cache: load latency; TLB: added cost of a miss */
	uint64_t way_min, way_max; /* bytes; 0 unknown */
	uint64_t entries;  /* TLB: size / page */
	int from_random;   /* latency read from the random chase */
	unsigned nstrides; /* fixed strides that show the step (shifted included) */
};

struct latency_levels {
	size_t n;
	struct latency_level lv[LAT_MAX_LEVELS];
	int has_memory;          /* the last plateau (beyond every cache) */
	uint64_t memory_from;    /* its first size */
	double memory_cycles, memory_ns;
};

/* The curves latency_detect_curves() reads: cycles[k][i] for fixed stride k
 * (bytes, increasing) at sizes[i]; random may be NULL. */
struct latency_curves {
	const uint64_t *sizes;
	size_t nsizes;
	const unsigned *strides;
	size_t nstrides;
	const double *const *cycles;
	const double *random; /* cycles, or NULL */
	double ghz;           /* for ns; 0 leaves ns = 0 */
	unsigned page;        /* bytes of a page (TLB entries = reach / page) */
};

/* Read the levels from the curves (seed 002's analysis, made robust; see
 * memtop(1)): steps found at about the same size on several curves form one
 * level; a step that moves right by 2x as the stride doubles past the way
 * size is the same level (way size between the last unmoved stride and half
 * the first moved one); a step whose added latency is proportional to the
 * stride is a TLB. Latency of a cache level: its plateau on the random chase
 * when that shows the step, else on the smallest stride that does. Returns
 * the number of levels (0 when nothing could be read). Never fails. */
size_t latency_detect_curves(const struct latency_curves *c, struct latency_levels *out);

/* latency_detect_curves() on a result, whole or partial. */
size_t latency_detect(const struct latency_result *r, struct latency_levels *out);

/* The seed's line for a level into buf: "L1 size: 32 KB, latency: 4.00
 * cycles (1.60 ns), way size: min. 4 KB, max. 4 KB". */
void latency_level_text(const struct latency_level *l, char *buf, size_t len);

/* The levels as a JSON array (NULL when out of memory). */
cJSON *latency_levels_to_json(const struct latency_levels *lv);

#endif
