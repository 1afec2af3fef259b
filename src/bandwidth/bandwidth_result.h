/* bandwidth_result: the bandwidth lab's result, ONE store for `memtop run
 * bandwidth`, the TUI tab and `memtop view` (bandwidth_result.c), its
 * lessons and odd cells (bandwidth_reasons.c), its clocks, each cell's
 * share of its ceiling and the load ports' verdict (bandwidth_ceiling.c),
 * and its JSON (bandwidth_json.c). */
#ifndef MEMTOP_BANDWIDTH_RESULT_H
#define MEMTOP_BANDWIDTH_RESULT_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "bandwidth_ceiling.h"
#include "bandwidth_plan.h"
#include "bandwidth_worker.h"
#include "base/jsonio.h"
#include "base/util.h"
#include "os/sysinfo.h"
#include "run/runhdr.h"

/* ---- results: ONE store, writer and reader for `memtop run bandwidth`,
 * the TUI tab and `memtop view` ------------------------------------------ */

struct bandwidth_cell {
	int have;
	double gbs, spread, canary;
	int tries, checked, twice;
	int preempted;     /* times the threads lost their CPU in the best try */
	int uneven;        /* the best try's threads ended far apart */
	double pass_bytes;
	double ghz;        /* the core clock around the best try (GHz; 0: not
			      measured, or a file from before it) */
};

struct bandwidth_point {
	int have;
	int idle;          /* loaders stopped */
	double delay_ns;   /* between bursts (idle: -1) */
	double gbs;        /* the loaders' bandwidth meanwhile */
	double latency_ns; /* the median try's (idle: the fastest's) */
	double spread;
	int tries;
	int preempted;     /* tries in which the chaser lost its CPU */
};

struct bandwidth_threads_info {
	unsigned threads;
	int over;          /* more threads than CPUs */
	int over_quota;    /* more threads than the job's CPU quota gives ("over_quota") */
	char cpus[64];     /* "0,1" */
	char placement[160];
};

/* What backed the table's buffer. */
struct bandwidth_pages {
	int asked, used;       /* BANDWIDTH_PAGES_*; asked -1: the file does not say */
	char thp[16];          /* THP mode at the run ("" none) */
	uint64_t buffer_bytes; /* the buffer the worker mapped */
	int64_t huge_bytes;    /* of it on huge pages (smaps); -1 not known */
};

struct bandwidth_result {
	struct run_header hdr;
	struct bandwidth_pages pages;
	int isa;
	unsigned vector_bytes;
	struct bandwidth_size sizes[BANDWIDTH_MAX_SIZES];
	size_t nsizes;
	int kernels[BANDWIDTH_NKERNELS];
	size_t nkernels;
	struct bandwidth_threads_info threads[BANDWIDTH_MAX_TLIST];
	size_t nthreads;
	int ncpus;
	struct bandwidth_cell cell[BANDWIDTH_MAX_SIZES][BANDWIDTH_NKERNELS][BANDWIDTH_MAX_TLIST]; /* [size][kernel][thread idx] */
	/* loaded latency */
	int loaded;        /* 0 none asked */
	int loader_write;
	unsigned loaders;
	int chaser_cpu;    /* -1 unknown */
	uint64_t chase_bytes;
	unsigned chase_stride;
	struct bandwidth_point pts[BANDWIDTH_MAX_LOADED + 1];
	size_t npts;
	int wrong;         /* a check failed */
	struct bandwidth_cpu_id cpu; /* which core measured (the ceilings' key) */
	struct bandwidth_ports {
		int have;
		double gbs, ghz;  /* as struct bandwidth_ev_ports */
		int preempted;
	} ports[2];           /* the load ports' canary before and after the table */
	char source[MT_PATH_MAX]; /* the file it came from, "" when measured here */
};

/* An empty result with p's axes (the header is left zero: the caller takes
 * it with run_header_init() before the job starts). */
void bandwidth_result_init(struct bandwidth_result *r, const struct bandwidth_params *p);

/* Store one event of the worker. Returns the kind stored (BANDWIDTH_EV_TABLE,
 * BANDWIDTH_EV_LOADED), 0 for an event that is not a cell of r. */
int bandwidth_result_apply(struct bandwidth_result *r, const struct job_event *ev);

/* Cells and points measured. */
size_t bandwidth_result_measured(const struct bandwidth_result *r);

/* The index of a thread count in r, or -1. */
int bandwidth_result_tindex(const struct bandwidth_result *r, unsigned threads);

/* The best GB/s in r (0 when none), for scaling bars. */
double bandwidth_result_top(const struct bandwidth_result *r);

/* The result as JSON (see memtop(1)): run header, "experiment": "bandwidth",
 * isa, vector_bytes, counting, sizes, threads, results [{kernel, size,
 * threads, gbs, ...}], loaded [{delay_ns, gbs, latency_ns, ...}]. NULL out
 * of memory. */
cJSON *bandwidth_result_to_json(const struct bandwidth_result *r);

/* The write-allocate's lesson for kernel (copy, copy_nt, triad or
 * triad_nt) at r's largest size when it is DRAM (or a given size of at
 * least BANDWIDTH_DRAM_MIN), one thread, both the cached and the streaming cell
 * measured: "DRAM 512M copy, one thread: cached 14.4 GB/s, streaming
 * stores 19.3 (1.34x): a cached copy moves 3 lines per line it stores
 * ..., a streaming one 2, so ... up to 1.50x faster" (and, when the
 * streaming kernel ran more than 5 % past that, "; beyond: it runs 4
 * streams at once") into buf. For load or read_vector, the lesson of
 * consumed loads: at r's first L1 size, one thread, both measured, "L1 24K,
 * one thread: load 463.8 GB/s (the loads alone: ...), read_vector 390.1
 * (...): 0.84x, consuming the loads costs this core 16 % of its load
 * rate: read_vector's 8 vpternlogq (512-bit) per 16 loads, about 2.0 %
 * each" (the ops of r's ISA, bandwidth_read_ops; "nothing
 * measurable" at 0.98x and above). Returns 1,
 * or 0 (buf untouched) when there is no such lesson in r. */
int bandwidth_lesson(const struct bandwidth_result *r, int kernel, char *buf, size_t len);

/* The cells of kernel a table should not hold silently, one sentence each
 * with its likely reason, into lines (at most cap; bandwidth_reasons.c): a
 * thread count under BANDWIDTH_ODD_SLOWER x the best of fewer threads (more
 * threads than CPUs, SMT siblings, a VM's host, contention), a speed-up
 * over BANDWIDTH_ODD_FASTER x the thread count (the threads' caches hold more of
 * it), a DRAM row over BANDWIDTH_ODD_FASTER x the row above it at all threads
 * (still in a cache; not for the streaming stores, slower in caches).
 * Returns how many. */
#define BANDWIDTH_ODD_SLOWER 0.9
#define BANDWIDTH_ODD_FASTER 1.1
int bandwidth_odd_cells(const struct bandwidth_result *r, int kernel, char lines[][BANDWIDTH_NOTE_LEN],
			int cap);

/* The sentence for lost of of figures (runs 0: the table's cells, 1: numa's
 * bandwidth runs) whose best try lost its CPU to another task, as run
 * bandwidth and run numa print it, in the user's language: "3 of 72 cells:
 * even the best try lost its CPU to another task (time slicing on a busy
 * host): those GB/s are low" (bandwidth_reasons.c). Returns buf. */
const char *bandwidth_lost_said(unsigned lost, unsigned of, int runs, char *buf, size_t len);

/* The core clock the run's bytes a cycle are counted with: the one
 * measured during the run (the mean of its start and end; *measured 1),
 * else the calibrated one (*measured 0); 0 when neither is known. */
double bandwidth_result_ghz(const struct bandwidth_result *r, int *measured);

/* Which core clock a cell's bytes a cycle divide by. */
enum {
	BANDWIDTH_CLOCK_CALIBRATED = 0, /* calibrated before the run (nothing measured during it) */
	BANDWIDTH_CLOCK_RUN = 1,        /* measured at the run's start and end (bandwidth_result_ghz) */
	BANDWIDTH_CLOCK_TRY = 2,        /* measured right before and after the cell's best try */
};

/* "measured around the try", "measured at the run's start and end",
 * "calibrated". */
const char *bandwidth_clock_name(int clock);

/* The range of the clocks measured around the cells' best tries into *lo
 * and *hi (both 0 when none). Returns how many cells have one. */
int bandwidth_try_clocks(const struct bandwidth_result *r, double *lo, double *hi);

/* A cell against its ceiling: bytes a cycle of one thread at the clock
 * around its best try (clock BANDWIDTH_CLOCK_TRY), else the run's
 * (bandwidth_result_ghz), the ceiling (0: none, why says why) and the
 * fraction; and the same at the run's clock (run_*: the figure memtop
 * printed before it measured around the try, kept beside it for one
 * release; 0 when the run's clock is unknown). */
struct bandwidth_share {
	double ghz, bpc, ceiling, fraction;
	int clock;         /* BANDWIDTH_CLOCK_* that ghz is */
	double run_ghz, run_bpc, run_fraction;
	const char *why;
};

/* The share of cell (size si, kernel, thread index ti). Returns 0, or -1
 * when the cell is not measured or no clock is known. */
int bandwidth_cell_share(const struct bandwidth_result *r, size_t si, int kernel, size_t ti,
			 struct bandwidth_share *out);

/* The load ports' verdict from r's canaries (BANDWIDTH_NOTE_PORTS; a reading
 * whose try lost its CPU to another task is left out): into buf a
 * line with the canary's bytes a cycle before and after the table, the
 * worse one's share of the core's load ceiling at L1, and either "the
 * core's load ports were shared or slowed during the run ... the L1
 * fractions are not the core's" (under BANDWIDTH_PORTS_SHARED; *shared 1) or
 * that they ran at the core's rate (*shared 0). Returns 1, or 0 (buf
 * untouched: no canary with its clock, or no ceiling known: nothing to
 * say). */
int bandwidth_ports_verdict(const struct bandwidth_result *r, char *buf, size_t len, int *shared);

/* The same verdict in the user's language, for people (the run's text). */
int bandwidth_ports_verdict_said(const struct bandwidth_result *r, char *buf, size_t len,
				 int *shared);

/* What run bandwidth prints after its table, on m (no share of the
 * core's ceiling with csv: the table is CSV then; per_line kernels a line
 * as the table folds them, 0 all): the core the ceilings come from, each
 * one-thread cell's share of its ceiling, the lesson, the cells that stand
 * out (bandwidth_summary.c). */
void bandwidth_summary_print(FILE *m, const struct bandwidth_result *r, int csv, size_t per_line);

/* A size as the table's rows name it: "L2 1M", or "64K" without a level. */
void bandwidth_size_name(char *buf, size_t len, const struct bandwidth_size *sz);

/* Whether root is a bandwidth result ("experiment": "bandwidth"). */
int bandwidth_result_is(const cJSON *root);

/* Read a result back (strict: a missing or mistyped field fails with "FILE:
 * FIELD ..."). Returns 0, or -1 with e set. */
int bandwidth_result_from_json(const cJSON *root, const char *file, struct bandwidth_result *r,
			       mt_error *e);

#endif
