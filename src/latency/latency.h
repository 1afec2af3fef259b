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
 * A measurement is a job (run/job.h) running latency_worker(): it streams
 * one JOB_EV_CELL per (size, chase):
 *   row = size index, col = stride index for the fixed chases and
 *   col = nstrides for the random chase (kind LATENCY_CELL_FIXED or
 *   LATENCY_CELL_RANDOM),
 *   value = ns per load (best try), spread = (second best - best) / best,
 *   payload struct latency_ev_point (the result keeps tries and spread: a point
 *   whose spread stays over LATENCY_DOUBTFUL_SPREAD is not trusted).
 * The consumer applies each event to its own struct latency_result with
 * latency_apply(); latency_detect() reads the levels from a whole or partial
 * result (src/latency_levels.c). */
#ifndef MEMTOP_LATENCY_H
#define MEMTOP_LATENCY_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/jsonio.h"
#include "base/util.h"
#include "info/info.h"
#include "run/job.h"
#include "run/runhdr.h"

#define LATENCY_MAX_SIZES 256
#define LATENCY_MAX_STRIDES 12
#define LATENCY_MAX_LEVELS 16
#define LATENCY_MIN_SIZE 4096u
#define LATENCY_DEFAULT_MAX (512ull << 20) /* the largest size when the caches ask no more */
#define LATENCY_MAX_MAX (64ull << 30)      /* the largest size a run may ask for */
#define LATENCY_PAGE 4096u

/* lat_mem_rd's next array size after k bytes (seed 002's step()): doubling
 * below 1 KB, +1 KB below 4 KB, then 8 steps per doubling (+2 KB below 32 KB,
 * +s/16 where s is the next power of two above k from 32 KB on). */
uint64_t latency_step(uint64_t k);

/* The sizes from lo (>= 4 KB) while <= hi, in latency_step() order, into out
 * (at most cap). Returns the count. */
size_t latency_sizes(uint64_t lo, uint64_t hi, uint64_t *out, size_t cap);

/* Pages under a chase: 4 KB (huge pages off), huge pages asked with
 * madvise, or not known (an imported table that does not say). */
enum { LATENCY_HUGE_OFF = 0, LATENCY_HUGE_ON = 1, LATENCY_HUGE_UNKNOWN = 2 };

/* The kinds of the worker's JOB_EV_CELLs: a fixed-stride chase's point, the
 * random chase's, or the random chase's on the other page size (column
 * nstrides + 1: latency_params.other). */
enum { LATENCY_CELL_FIXED = 0, LATENCY_CELL_RANDOM = 1, LATENCY_CELL_OTHER = 2 };

/* The kinds of the worker's JOB_EV_NOTEs: what pages backed the buffer;
 * the run's figure revised (value: the s it now expects in all, payload
 * struct latency_ev_revised; the text says it with the reason); what pages
 * backed the other page size's buffer (value: the share of it on huge
 * pages, 0..1, or -1 not known); the run priced once its pages are in
 * (value: the s it expects in all, the figure announced; payload struct
 * latency_ev_revised: the s the pages took). */
enum { LATENCY_NOTE_PAGES = 1, LATENCY_NOTE_REVISED = 2, LATENCY_NOTE_OTHER_PAGES = 3, LATENCY_NOTE_PRICED = 4,
       LATENCY_NOTE_RETRIED = 5 };

/* The notes' texts, written in English (a result keeps the pages' words),
 * marked for the catalogue: the run, the UI and the run's closing line say
 * them in the user's language (latency_text, LATENCY_SAYS_FORMS). */
#define LATENCY_SAYS_BUSY_1                                                                    \
	N_("revised at %.0f s: about %.0f s in all (the machine is busy: load %.1f on %d CPU)")
#define LATENCY_SAYS_BUSY                                                                      \
	N_("revised at %.0f s: about %.0f s in all (the machine is busy: load %.1f on %d CPUs)")
#define LATENCY_SAYS_SLOWER N_("revised at %.0f s: about %.0f s in all (the points run slower than planned)")
#define LATENCY_SAYS_FASTER N_("revised at %.0f s: about %.0f s in all (the points run faster than planned)")
#define LATENCY_SAYS_PRICED N_("about %.0f s in all (its pages took %.1f s)")
#define LATENCY_SAYS_HUGE_ON N_("huge pages on: %.0f%% of the buffer on 2 MB pages (THP %s)")
#define LATENCY_SAYS_HUGE_OFF N_("huge pages off: %.0f%% of the buffer on 2 MB pages (THP %s)")
#define LATENCY_SAYS_HUGE_ASKED N_("huge pages asked (THP %s)")
#define LATENCY_SAYS_SMALL_ASKED N_("4 KB pages asked (THP %s)")
#define LATENCY_SAYS_NO_OTHER                                                                  \
	N_("%s: the random chase on huge pages left out (two buffers of %s do not fit in half " \
	   "of the %s a run may take)")
#define LATENCY_SAYS_CAPPED N_("sizes capped at %s, %s would be %s")
#define LATENCY_SAYS_FORMS                                                                     \
	LATENCY_SAYS_BUSY_1, LATENCY_SAYS_BUSY, LATENCY_SAYS_SLOWER, LATENCY_SAYS_FASTER,      \
		LATENCY_SAYS_PRICED, LATENCY_SAYS_HUGE_ON, LATENCY_SAYS_HUGE_OFF,              \
		LATENCY_SAYS_HUGE_ASKED, LATENCY_SAYS_SMALL_ASKED, LATENCY_SAYS_NO_OTHER,      \
		LATENCY_SAYS_CAPPED

/* A note's or the pages' words, kept in English, in the user's language
 * (LATENCY_SAYS_FORMS and the machine's: what the memory capped), made
 * printable, into out. Returns out. */
const char *latency_text(char *out, size_t len, const char *stored);

/* The payload of a chase's cell (run/job.h: JOB_PAYLOAD_PUT/GET). */
struct latency_ev_point {
	double cycles;   /* core cycles per load: the best try's ns x the run's
			    measured clock in GHz */
	uint64_t loads;  /* timed loads in a try */
	unsigned tries;  /* tries run */
};

/* The payload of a LATENCY_NOTE_REVISED note. */
struct latency_ev_revised {
	double at_s;     /* seconds the run had run when it revised its figure */
};

struct latency_params {
	uint64_t sizes[LATENCY_MAX_SIZES]; /* bytes, latency_step() order */
	size_t nsizes;
	unsigned strides[LATENCY_MAX_STRIDES]; /* bytes, increasing; fixed chases */
	size_t nstrides;                   /* 0: no fixed chase (--random) */
	int random;                        /* also the random chase */
	unsigned random_stride;            /* bytes between the random chase's slots */
	uint64_t tlb_locality;             /* random chase in groups of this many bytes
					      visited one after the other (0: no groups) */
	int hugepages;                     /* LATENCY_HUGE_ON: madvise(MADV_HUGEPAGE) */
	int other;                         /* also the random chase on the other page
					      size (huge pages when hugepages is off),
					      in a buffer of its own, point by point
					      after the random chase: cells
					      LATENCY_CELL_OTHER in column nstrides + 1
					      (needs random; latency_pages_both()) */
	unsigned tries;                    /* best of this many timed tries */
	double try_ns;                     /* target length of one try */
	double point_ns;                   /* most timed time a point may take */
	double target_s;                   /* whole run; points shrink to keep it */
	double page_ns;                    /* first touch of a fresh page, for the
					      estimate (0: MT_FRESH_PAGE_NS_GUESS) */
	struct latency_probe {                 /* ns a load measured before the run, for
					      the estimate (latency_probe; 0: none,
					      the model's guesses) */
		double rand_mid;           /* random chase over 8 MB */
		double rand_far;           /* random chase over 64 MB */
		double fixed_far[2];       /* fixed strides 128 and 4096 over 64 MB */
		double link_fixed[2];      /* linking those, ns a slot */
		double stride_far[LATENCY_MAX_STRIDES]; /* each of the run's strides over 64 MB
					      (0: not measured: priced between the two
					      above; the prefetchers treat strides
					      unevenly) */
		double link_random[2];     /* linking the random chase over 8 and 64 MB,
					      ns a slot */
		double rand_last;          /* random loads over the whole buffer, measured
					      by the worker once its pages are in (0: not
					      yet): prices the sizes past 64 MB, whose
					      page walks reach further out */
	} probe;
	char note[400];                    /* emitted as a JOB_EV_NOTE at the start (cut to
					    * an event's text) */
	double prev_ns[LATENCY_MAX_SIZES]; /* the last run here: its main curve (the one its
					      levels were read from) at these sizes, NAN
					      where it has none (latency_history) */
	int has_prev;                      /* prev_ns holds any: the worker measures again,
					      once, the main curve's points that moved from
					      it by LATENCY_MOVED, and sends each as a
					      JOB_EV_UPDATE when it reads lower (another task
					      only adds), then a LATENCY_NOTE_RETRIED note
					      (value: points measured again; text: how many
					      now agree with the last run) */
	char why_max[240];                 /* why the largest size is what it is ("" the
					      default) */
	char want_max[200];                /* what set it, as a cap's note names it ("4 x
					      the L3 508M (cpuid)", "--max-size", "--quick's",
					      "the default"): latency_params_sized */
	char *buf;                         /* NULL: the worker maps its own buffer; else
					      the caller's (memtop run numa binds it to a
					      node), latency_buffer_bytes() long, page
					      aligned, not yet touched: the worker's first
					      touch places it; left mapped */
	size_t buf_bytes;
};

/* The default run: sizes 4K..512M, strides 128..4096 doubling plus the random
 * chase at 128 bytes, huge pages off, best of 3 tries of 1 ms, at most
 * 30 ms timed a point, an 18 s target for the whole run (when the run
 * projects longer, on a contended host, the point budget shrinks down to
 * 8 ms). */
void latency_params_default(struct latency_params *p);

/* The --quick run for tests: 4K..8M, strides 128 and 4096 plus random. */
void latency_params_quick(struct latency_params *p);

/* Whether a run of p on this machine measures the random chase on both page
 * sizes: p has the random chase on 4 KB pages and transparent huge pages
 * can be asked for (THP "always" or "madvise"; thp is that mode as
 * mt_thp_mode() reads it, "" absent). Sets p->other and returns it. The
 * cache sizes are then read from the huge-page curve, where page walks do
 * not cut the last level short, and the 4 KB one gives the walks' cost.
 * The run's time target grows by one chase's share. */
int latency_pages_both(struct latency_params *p, const char *thp);

/* Sizes from 4 KB up to max (rounded down to the sequence). Returns 0 or -1
 * with e ("--max-size: ...") when max < 4 KB or the list would not fit. */
int latency_params_set_max(struct latency_params *p, uint64_t max, mt_error *e);

/* p's sizes in words into buf (len bytes): "143 sizes 4K..2G", "1 size,
 * 4K", in the user's language. Returns buf. */
const char *latency_sizes_text(const struct latency_params *p, char *buf, size_t len);
/* The same in English when human is 0 (a plan's JSON: what machines read),
 * else latency_sizes_text's. */
const char *latency_sizes_words(const struct latency_params *p, int human, char *buf, size_t len);

struct machine; /* machine/machine.h */

/* The one way a run's parameters are made, `memtop run latency` and the
 * Latency tab alike, so that --help's rule, --plan, the run and the tab
 * name one largest size and one time. latency_params_sized: the default
 * run (quick: --quick's) on machine m for the worker's CPU cpu, its sizes
 * up to max when max is not 0, else (not quick) up to LATENCY_DEFAULT_MAX
 * or machine_dram_floor(cpu) when that is larger, so that the curve ends
 * in memory (why in p->why_max, "" for the default). Returns 0, or -1
 * with e ("--max-size: at most 64G"). */
int latency_params_sized(struct latency_params *p, const struct machine *m, int cpu, int quick,
			 uint64_t max, mt_error *e);

/* After latency_params_sized and the caller's own choices (strides, the
 * random chase, tries, pages): the time priced (probe: a fresh page's cost
 * and latency_probe measured here; 0 for a recorded machine), the random
 * chase on both page sizes where both is 1, or -1 and not quick and
 * m's THP can be asked for (else why into note), and the sizes capped to
 * half of what budget b leaves a run (machine_mem_budget: the memory
 * available, or the job's cgroup limit), said in note (len bytes; "" when
 * nothing was said) with p->want_max; *asked the largest size before the
 * cap. Returns 0, or -1 with e when not even 4K fits. */
struct machine_budget; /* machine/machine.h */
int latency_params_settle(struct latency_params *p, const struct machine *m, int both, int quick,
			  int probe, const struct machine_budget *b, char *note, size_t len,
			  uint64_t *asked, mt_error *e);

/* Cap the largest size to half of what budget b leaves a run (its bytes
 * 0: not known, no cap); writes the sentence into note and p->note ("" when
 * nothing was capped): "this job may use 768M (its cgroup): sizes capped at
 * 256M, want_why would be 2G" (want_why: why the largest size was what it
 * was, "4 x the L3 508M (cpuid)"; NULL "the plan"). With p->other (two
 * buffers), the other page size's chase is left out first, said in the
 * same note, when both buffers do not fit that half. Returns 0, or -1 with
 * e when not even 4 KB fits. */
int latency_params_fit_memory(struct latency_params *p, const struct machine_budget *b,
			      const char *want_why, char *note, size_t len, mt_error *e);

/* Bytes of the buffer the worker chases in: the largest size (or stride)
 * rounded up to 2 MB. */
uint64_t latency_buffer_bytes(const struct latency_params *p);

/* Measure what the estimate prices points with, on the calling thread
 * (about 50 ms, a 64 MB buffer mapped and unmapped): the random chase's ns
 * a load over 8 MB and 64 MB, fixed strides 128 and 4096 over 64 MB, and
 * what linking each of them cost a slot, into p->probe. The model's fixed
 * guesses priced strides beyond the caches at memory's latency where the
 * prefetchers serve them faster, and a busy host's latency and linking
 * not at all. Leaves p->probe zero when the buffer cannot be had. */
void latency_probe(struct latency_params *p);

/* Rough seconds the run will take, announced before it (the ETA during the
 * run prices what is left from the points measured: latency_eta.h): each
 * point priced with p->probe where it was measured. */
double latency_params_estimate_s(const struct latency_params *p);

/* ---- chases (exposed for the tests) ----------------------------------- */

/* Link the fixed chase over buf[0..size): slot i*stride points to slot
 * (i+1)*stride, the last to slot 0. Returns the number of slots (size /
 * stride), 0 when stride is 0, not a multiple of the pointer size, or larger
 * than size. */
size_t latency_build_fixed(void *buf, uint64_t size, unsigned stride);

/* The loads of one chunk of a point's warm-up, chased between two
 * job_check() calls: about 20 ms at ns a load (at least 4096 loads); for
 * the first chunk (first = 1), whose ns is only the last point's figure,
 * at most 65536 (16 ms at 250 ns). That estimate can be far under the
 * truth: numa's one 256M point starts from a 2 ns guess, and its first
 * chunk was 2M loads at memory's ~250 ns, 0.5 s before a stop was seen. */
uint64_t latency_chunk_loads(double ns, int first);

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

/* Chases that grow size by size, side by side in one buffer: the slot i of
 * a chase at stride bytes holds its pointer at byte off of the slot (buf +
 * i * stride + off), so chases of strides that are multiples of 64 and
 * offsets 0, 8, ... 56 never share a pointer, and each one's loads fall on
 * the same lines as at offset 0. Growing from `from` slots to `to` links
 * only the new slots, where linking each size afresh costs the sum of all
 * the sizes (most of a default run's seconds spent linking). */

/* Grow the fixed chase from `from` linked slots (0: none yet) to `to`: slot
 * i points to slot i + 1, the last to slot 0. Returns to, 0 on bad
 * arguments (to 0 or under from; off + 8 past the stride or not a multiple
 * of the pointer size). */
size_t latency_grow_fixed(void *buf, unsigned stride, unsigned off, size_t from, size_t to);

/* Grow the random cycle from `from` slots (0: none yet) to `to`: each new
 * slot j is put after a slot drawn uniformly from the j already in the
 * cycle (from *rng, splitmix64's state, advanced). Every cycle through the
 * to slots is then equally likely, as with Sattolo's shuffle, and a cycle
 * grown from a smaller one is the same as one grown in one go. Returns
 * to, 0 on bad arguments (as latency_grow_fixed, or more than 2^32
 * slots). */
size_t latency_grow_random(void *buf, unsigned stride, unsigned off, size_t from, size_t to,
			   uint64_t *rng);

/* Whether the worker grows p's chases side by side (latency_grow_*): every
 * fixed stride and the random one a multiple of 64, at most 8 chases, and
 * no TLB locality (its groups are linked afresh at each size). Else each
 * point links its chase afresh at offset 0. */
int latency_chases_grow(const struct latency_params *p);

/* The chase itself is chase_walk() (base/chase.h). */

/* ---- results ---------------------------------------------------------- */

struct latency_result {
	struct run_header hdr;
	double ghz;          /* core clock used for cycles; 0 unknown (an import: no cycles) */
	size_t nsizes, nstrides;
	uint64_t sizes[LATENCY_MAX_SIZES];
	unsigned strides[LATENCY_MAX_STRIDES];
	double ns[LATENCY_MAX_STRIDES][LATENCY_MAX_SIZES];     /* NAN: not measured */
	double cycles[LATENCY_MAX_STRIDES][LATENCY_MAX_SIZES];
	int has_random;
	unsigned random_stride;
	uint64_t tlb_locality; /* bytes; 0: the random chase over the whole array */
	double random_ns[LATENCY_MAX_SIZES];
	double random_cycles[LATENCY_MAX_SIZES];
	int ns_over_l1;      /* random_ns are extra ns over the L1 latency (tinymembench's
			      * table), not whole load latencies */
	int has_other;       /* the random chase on the other pages too: */
	int other_hugepages; /* LATENCY_HUGE_ON or OFF, the opposite of hugepages */
	double other_ns[LATENCY_MAX_SIZES]; /* same sizes, same meaning as random_ns */
	double other_cycles[LATENCY_MAX_SIZES];
	double other_spread[LATENCY_MAX_SIZES]; /* its record, as random_spread's */
	unsigned other_tries[LATENCY_MAX_SIZES];
	double other_share;  /* share of its buffer the kernel put on huge pages
			      * (0..1), -1 not known (an import) */
	char other_pages[160]; /* what the kernel gave it, "" not known */
	/* each point's record: the spread of its tries ((second best - best) /
	 * best) over this many timed tries; tries 0: not known (an import, a
	 * file written before memtop kept it) */
	double spread[LATENCY_MAX_STRIDES][LATENCY_MAX_SIZES];
	unsigned tries[LATENCY_MAX_STRIDES][LATENCY_MAX_SIZES];
	double random_spread[LATENCY_MAX_SIZES];
	unsigned random_tries[LATENCY_MAX_SIZES];
	int hugepages;       /* LATENCY_HUGE_* requested */
	char pages[160];     /* what the kernel gave: "4 KB pages", "huge pages: ..." */
	uint64_t capped_from; /* the asked max size when memory capped it, else 0 */
	double memory_probe_ns; /* a random load over 64 MB timed before the run (the
			      * estimate's probe): what this machine's memory reads
			      * elsewhere in the run; 0 not known */
	double elapsed_s;
	char source[MT_PATH_MAX]; /* file it came from, "" when measured here */
	cJSON *caches;       /* the `memtop info` recorded with the run, or NULL */
	char format[32];     /* the tool an import came from ("lmbench"), "" for memtop's */
};

/* A result with p's axes and every point unmeasured (NAN). Returns NULL when
 * out of memory. */
struct latency_result *latency_result_new(const struct latency_params *p, double ghz);

/* Free r (NULL is fine). */
void latency_result_free(struct latency_result *r);

/* Apply one event of a latency job to r: a JOB_EV_CELL (or a JOB_EV_UPDATE:
 * a point measured again, its value replaced), or the
 * LATENCY_NOTE_PAGES note (other notes are left to the caller). Returns 0, or -1
 * when the event is not r's (a cell outside r, another note). */
int latency_apply(struct latency_result *r, const struct job_event *ev);

/* Points measured so far (fixed and random). */
size_t latency_measured(const struct latency_result *r);

/* The curves of r, in the order of a row: the fixed strides, the random
 * chase, the random chase on the other page size (where r has them). */
size_t latency_ncurves(const struct latency_result *r);

/* A point is not trusted when its two best tries still differ by more than
 * this after the worker measured it again (as many tries once more, when
 * they first disagreed): another task had the CPU, so its latency may read
 * high. Marked ~ in the table and the Latency tab. */
#define LATENCY_DOUBTFUL_SPREAD 0.10

/* A point that moved from the last run's on this machine (latency_history):
 * this share or more from it. */
#define LATENCY_MOVED 0.20

/* Whether point i of curve k (a fixed stride's index; k == r->nstrides: the
 * random chase; k == r->nstrides + 1: the random chase on the other page
 * size) is not trusted: measured, its tries known, and its spread over
 * LATENCY_DOUBTFUL_SPREAD. */
int latency_point_doubtful(const struct latency_result *r, size_t k, size_t i);

/* The points of r not trusted (fixed and random). */
size_t latency_doubtful(const struct latency_result *r);

/* Row i of the table memtop run latency prints: the size, then cycles and
 * ns for each fixed stride, the random chase and the random chase on the
 * other page size (when measured); an untrusted point's ns
 * ends in ~ ("   32 KB     4.20    1.23    5.10   1.50~"). With csv, the
 * size in bytes, then per chase cycles, ns, spread, tries and trusted (1,
 * or 0 for a ~ point), comma separated; spread and trusted empty and tries
 * 0 where the tries are not known. */
void latency_print_row(FILE *f, const struct latency_result *r, size_t i, int csv);

/* The result as JSON (see memtop(1); latency_json.c): header, ghz (0 when
 * unknown, and then no cycles), format (an import's tool), strides, sizes,
 * cycles and ns per stride, random {stride, sizes, ns, cycles, ns_over_l1},
 * random_other {hugepages, ns, cycles, spread, tries, pages, huge_share},
 * hugepages "on"/"off"/"unknown", pages,
 * then the levels (latency_levels_to_json). NULL when out of memory. */
cJSON *latency_to_json(const struct latency_result *r);

/* Read a result back (strict: ragged or mistyped arrays fail with "FILE:
 * FIELD ..."). Returns NULL with e set. */
struct latency_result *latency_from_json(const cJSON *root, const char *file, mt_error *e);

/* ---- measuring -------------------------------------------------------- */

/* The latency job (a job_fn, see run/job.h): measures arg, a const struct
 * latency_params * that must outlive the job, streaming the cells described
 * above (and a LATENCY_NOTE_REVISED note whenever the run departs from the
 * figure said for it, latency_eta.h), then one JOB_EV_NOTE of kind
 * LATENCY_NOTE_PAGES whose text says what
 * the kernel backed the buffer with (latency_apply() keeps it in pages; with
 * p->other a LATENCY_NOTE_OTHER_PAGES for the other buffer). Before the first
 * cell, once the buffers' pages are in and the largest size's random load
 * has been timed, one LATENCY_NOTE_PRICED note: the run priced from them.
 * Allocates and frees its own buffer. Returns 0 (also when cancelled), or -1
 * with e: nothing to measure, no memory for the largest size. */
int latency_worker(job_t *job, void *arg, mt_error *e);

/* ---- reading the curve (latency_levels.c) ------------------------------ */

/* The curve of params p the levels will be read from, as a curve index of
 * latency_point_doubtful (nstrides: the random chase; nstrides + 1: the
 * other page size's, when that is the huge-page one; else the largest
 * stride). */
size_t latency_main_curve(const struct latency_params *p);

/* Point i of result r's curve the levels are read from (as
 * latency_detect chooses it), ns; NAN where not measured. */
double latency_main_ns(const struct latency_result *r, size_t i);

/* The cache levels are read from one curve with seg_levels()
 * (src/base/segment.h: a penalised piecewise-constant fit of ln(latency),
 * transitions explained by the capacity bound, levels at least 2x apart):
 * the random chase, which no prefetcher can follow; on huge pages when the
 * result has both page sizes (TLB misses then stay out of the cache steps);
 * without a random chase, the largest fixed stride. TLB steps come from
 * what the other curves tell: the 4 KB-page chase running slower than the
 * huge-page one from some size on, or (seed 002) a step whose added latency
 * is in proportion to the stride (one miss a page). Way sizes come from the
 * fixed strides only where they show the step: at the same size up to
 * some stride (the way is at least that), moving right as the stride
 * doubles past it (at most half the first stride that moved it). */

#define LATENCY_MEMORY_NS 50.0 /* no cache answers this slowly (the slowest last levels made,
			    * server mesh L3s and system-level caches, take about 40 ns;
			    * DRAM 60 and more): the first level this slow is memory, and
			    * the steps after it are page walks and other tenants, not
			    * caches */
#define LATENCY_PARTIAL 0.8 /* a step's next point under this share of the next level's
			* latency has not finished the step */
#define LATENCY_MEMORY_FLAT 1.25 /* memory is a plateau the curve reaches: its last octave
				 * within this (4 KB-page walks creep up by less) */
#define LATENCY_MEMORY_REF 0.9   /* or its last point at least this share of what memory
				 * reads elsewhere in the run */
#define LATENCY_L1_NOMINAL_NS 1.0 /* the L1 latency tinymembench takes off its values, as
			       * read: it is unknown, about 1 ns (4-5 cycles at 4-5 GHz);
			       * ln(latency) of such a table is read as ln(ns + 1) */

/* A plateau of one curve: points i0..i1 (indices into sizes). */
struct latency_plateau {
	size_t i0, i1;
	double level; /* the median of its points */
};

/* The plateaus the level finder reads on one curve v (ns or cycles, any
 * positive unit) over sizes: seg_levels() with the latency parameters.
 * Unmeasured (NAN) points are skipped. Returns the plateau count (at most
 * cap; 0 when fewer than 2 points are measured). */
size_t latency_segment(const uint64_t *sizes, const double *v, size_t n,
		       struct latency_plateau *out, size_t cap);

/* How a TLB step was told from a cache step. */
enum latency_tlb_evidence {
	LATENCY_TLB_PAGES = 1,  /* the 4 KB-page chase is slower than the huge-page one from here */
	LATENCY_TLB_STRIDES = 2, /* the added latency is in proportion to the stride */
	LATENCY_TLB_WALK = 3     /* on 4 KB pages alone (the file says so), a step that adds a
			      * page walk's constant instead of multiplying the latency
			      * as a cache level does (latency_levels.c, walk_steps) */
};

struct latency_level {
	int level;         /* cache level 1, 2, ... or TLB number 1, 2, ... */
	int tlb;           /* 0 a cache, else how it was told (enum latency_tlb_evidence) */
	uint64_t size;     /* bytes: the level's size (TLB: its reach) */
	uint64_t step_end; /* first size on the next level */
	double ns;         /* cache: load latency (over L1 when levels.over_l1);
			    * TLB: added cost of a miss */
	double cycles;     /* the same in core cycles; 0 when the clock is unknown */
	uint64_t way_min, way_max; /* bytes; 0 not measurable here */
	uint64_t entries;  /* TLB: reach / page */
	int from_random;   /* read from the random chase (else a fixed stride) */
	unsigned nstrides; /* fixed strides that show the step */
	/* the seed's warnings where the data is too thin or disagrees: */
	unsigned missing;  /* bit k: fixed stride k ends before twice the size (no step
			    * to read there: seed 002's "Missing results") */
	int inconsistent;  /* the strides disagree on the way size (seed 002's
			    * "Inconsistent results"): way_min/way_max left 0 */
	int partial;       /* the curve at step_end is still short of the next level
			    * (under LATENCY_PARTIAL of it): the cache may end anywhere
			    * from size to step_end */
	uint64_t walks_from; /* on 4 KB pages (or pages not said): the size past which
			    * page walks raise this last cache's latency (a second-level
			    * TLB's reach), the level read on to where they end; 0 none */
	int runs, seen;    /* this machine's recent runs held against (this one
			    * included; 0: none held) and how many found this level */
};

struct latency_levels {
	size_t n;
	struct latency_level lv[LATENCY_MAX_LEVELS];
	unsigned strides[LATENCY_MAX_STRIDES]; /* the fixed strides read (bits of missing) */
	size_t nstrides;
	int has_memory;          /* the last plateau (beyond every cache) */
	int memory_unreached;    /* the last plateau is faster than LATENCY_MEMORY_NS: the curve
				  * ends in a cache, or it is not settled: its last octave
				  * climbs more than LATENCY_MEMORY_FLAT and its last point
				  * reads under LATENCY_MEMORY_REF of memory_ref_ns (the curve
				  * ends inside a level); memory_* then describe that plateau,
				  * has_memory is 0 */
	int memory_rising;       /* unreached as slow as memory but not settled */
	double memory_ref_ns;    /* what memory read elsewhere in the run (0 not known) */
	uint64_t memory_from;    /* the first size past the last cache's step */
	double memory_cycles, memory_ns; /* its latency (memory_at..memory_to) */
	uint64_t memory_last_size; /* where the curve ends, */
	double memory_last_ns;     /* and its latency there (page walks raise it) */
	uint64_t memory_at, memory_to; /* memory_ns is the median over memory_at..memory_to
				    * (the octave after memory_from's, or its own), */
	double memory_lo_ns, memory_hi_ns; /* its points' spread, */
	size_t memory_points;      /* of this many points */
	int memory_walks;          /* what it includes: enum latency_walks */
	int over_l1;             /* every ns is extra over the L1 latency (tinymembench) */
	int shallow_read;        /* shallow steps (1.3-2x, flat an octave each side) were
				  * kept: the curve's pages add no step of their own */
	int small_pages_only;    /* the caches were read from a 4 KB-page curve with no
				  * huge-page one beside it: a TLB's reach looks like a cache */
	uint64_t first_size, last_size; /* the sizes the curve read spans */
	int has_walks;           /* both page sizes: what the page walks add on 4 KB pages, */
	double walk_ns[LATENCY_MAX_LEVELS]; /* in each cache level of lv (index as lv; NAN for a
				  * TLB or where either curve is unmeasured): the 4 KB-page
				  * chase's median over the level's top octave less the
				  * huge-page one's, */
	double memory_walk_ns;   /* the same over memory_at..memory_to, */
	double last_walk_ns;     /* and at the curve's last size (NAN where not known) */
	char curve[48];          /* what the caches were read from: "random chase",
				  * "random chase, huge pages", "fixed stride 4096" */
};

/* Whether the memory latency read includes page walks: the chase on 4 KB
 * pages does (past the TLBs' reach each load's page must be walked), one on
 * huge pages or in TLB-local groups (--tlb-locality) does not. */
enum latency_walks {
	LATENCY_WALKS_UNKNOWN = 0, /* the pages are not stated (an import) */
	LATENCY_WALKS_INCLUDED,    /* 4 KB pages */
	LATENCY_WALKS_HUGE,        /* huge pages asked for: without most page walks */
	LATENCY_WALKS_LOCAL        /* TLB-local groups: without page walks */
};

/* The curves latency_detect_curves() reads, in ns: ns[k][i] for fixed
 * stride k (bytes, increasing) at sizes[i]; NAN for an unmeasured point. */
struct latency_curves {
	const uint64_t *sizes;
	size_t nsizes;
	const unsigned *strides;
	size_t nstrides;
	const double *const *ns;
	const double *random; /* the random chase, or NULL */
	int over_l1;          /* random's values are extra ns over L1 */
	const double *other;  /* the random chase on the other page size, or NULL */
	int huge;             /* pages under strides and random: LATENCY_HUGE_*; other's are
			       * the opposite (so one of the two is 4 KB pages) */
	double ghz;           /* core clock for cycles; 0 unknown (cycles left 0) */
	uint64_t tlb_locality; /* the random chase ran in groups of this many bytes; 0 not */
	double memory_ref_ns; /* what memory reads elsewhere in the run (a probe over a
			       * buffer past the caches); 0 not known */
};

/* Read the levels from the curves (see above and memtop(1)): cache levels
 * smallest first with their latency, TLB steps where the curves show one,
 * way sizes where the fixed strides support them, and memory. Returns the
 * number of levels, caches and TLBs (0 when nothing could be read: fewer
 * than two measured points, or a flat curve). Never fails. */
size_t latency_detect_curves(const struct latency_curves *c, struct latency_levels *out);

/* latency_detect_curves() on a result, whole or partial. */
size_t latency_detect(const struct latency_result *r, struct latency_levels *out);

/* The seed's line for a level into buf: "L1 size: 48 KB, latency: 4.20
 * cycles (1.23 ns), way size: 4 KB (12 ways)"; "TLB1 size: 96 entries
 * (384 KB), latency: +7.00 cycles (2.04 ns) a miss". */
void latency_level_text(const struct latency_level *l, int over_l1, char *buf, size_t len);

/* The levels as JSON: {"levels":[{"level","size","ns","cycles" (when
 * known),"tlb","entries" (TLB),"way_min","way_max" (when measurable),
 * "step_end","read_from","strides_showing"}...],"memory":{...} (when seen),
 * "memory_not_reached":{last_level_from, last_level_ns, curve_ends} (a curve
 * that ends in a cache),
 * "ns_over_l1" (when so),"read_from"}. The fields are added to root. Returns
 * 0, or -1 out of memory. */
int latency_levels_to_json(const struct latency_levels *lv, cJSON *root);

/* The levels as text, one line each (latency_level_text), then memory, then
 * what page walks add on 4 KB pages in each level (when both page sizes
 * were measured).
 * When inf is not NULL, each cache level is held against the size the
 * most trusted source gives for it: "matches cpuid's 48K", or for the last
 * level of a cache far below what the source says, "L3 effective ~4M
 * (cpuid says 508M: shared or misreported)". */
void latency_levels_print(FILE *f, const struct latency_levels *lv, const struct info *inf);

/* The latency run's result kind (latency_kind.c; run/result_kind.h). */
struct result_kind;
extern const struct result_kind kind_latency;
/* Its batch mode, `memtop run latency` (latency_batch.c), for result/result.c's
 * registry (run/experiment.h). */
struct experiment;
extern const struct experiment exp_latency;
struct result_file;
struct result_compare_opts;
struct svg;
/* Its memtop compare and plot (result_kind's compare and plot callbacks:
 * see their contracts there), in latency_compare.c and latency_plot.c. */
int latency_compare(const struct result_file *f, size_t n, const struct result_compare_opts *o);
int latency_plot(const struct result_file *f, size_t n, struct svg *s);

#endif
