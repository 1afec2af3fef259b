/* numa: memory by node, Intel MLC's two matrices (idle latency and
 * bandwidth, CPU node x memory node), measured with the labs' own code.
 *
 * For each CPU node (a NUMA node with CPUs this process may use) and each
 * memory node, three runs, each on a buffer bound to the memory node
 * (numa_mem_alloc: hwloc's HWLOC_MEMBIND_BIND) and first touched by the
 * thread that uses it:
 *   latency  the latency lab's random chase (latency_worker: Sattolo's
 *            cycle, 128-byte slots, 4 KB pages) at one size, on the last CPU
 *            of the CPU node, which touches the buffer first;
 *   read     the bandwidth lab's scalar read (bandwidth_worker) with one
 *            thread on each CPU of the CPU node, each first touching its
 *            own slice from its CPU (likwid #210: one thread touching all
 *            of it put the data on the wrong node);
 *   triad    the same with STREAM's triad.
 * Each run is the lab's worker started as a job of its own (run/job.h)
 * pinned to the CPU node, its events taken by the numa worker, which
 * passes pause and cancel on. After each run the buffer's pages are
 * counted node by node (move_pages(2) with nodes NULL) before it is freed.
 *
 * The numa job streams JOB_EV_CELL events: kind = NUMA_LAT, NUMA_READ or
 * NUMA_TRIAD, row = CPU node index, col = memory node index (into the
 * plan's nodes), value = ns a load or GB/s, spread = the lab's spread,
 * payload struct numa_ev_cell; and JOB_EV_NOTE sentences (kind
 * NUMA_NOTE_PAGES: the latency lab's sentence about the pages under the
 * chase). */
#ifndef MEMTOP_NUMA_H
#define MEMTOP_NUMA_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "bandwidth/bandwidth.h"
#include "base/util.h"
#include "latency/latency.h"
#include "machine/machine.h"
#include "os/topo.h"
#include "run/job.h"
#include "run/runhdr.h"

#define NUMA_MAX_NODES 16
#define NUMA_MAX_NODE_CPUS BANDWIDTH_MAX_THREADS
#define NUMA_MAX_LEVELS 5
#define NUMA_QUICK_SIZE (32ull << 20) /* --quick: a short run for tests */
#define NUMA_MIN_SIZE (16ull << 20)

/* NUMA_LAT: the chase on 4 KB pages (page walks included); NUMA_LAT_HUGE:
 * the same on 2 MB pages, as Intel MLC measures idle latency (where the
 * kernel gives them: THP in always or madvise mode); both at lat_size,
 * where memory is read (past the caches the run trusts). NUMA_LAT_FULL:
 * the chase on 2 MB pages at the run's own size, when that is larger.
 * NUMA_R3W1, NUMA_R2W1, NUMA_R1W1: the bandwidth mixes (reads to writes). */
enum { NUMA_LAT, NUMA_READ, NUMA_TRIAD, NUMA_LAT_HUGE, NUMA_LAT_FULL, NUMA_R3W1, NUMA_R2W1,
       NUMA_R1W1, NUMA_NMEAS };
/* The flags of a cell: the bandwidth's arrays checked, its best try lost the
 * CPU, the lab's worker moved, the memory was bound to the node */
enum { NUMA_F_CHECKED = 1, NUMA_F_LOST = 2, NUMA_F_MOVED = 4, NUMA_F_BOUND = 8 };
/* NUMA_NOTE_REVISED: the time said again once the first node pair is
 * measured (value: the seconds of the whole run now priced) */
/* NUMA_NOTE_LAT_SIZE: where the idle latency is read, found by its curve
 * (value: the size in bytes; text: why) */
enum {
	NUMA_NOTE_PAGES = 1,
	NUMA_NOTE_PAGES_HUGE = 2,
	NUMA_NOTE_REVISED = 3,
	NUMA_NOTE_LAT_SIZE = 4
};
/* The cells of the loaded-latency curves beside them: NUMA_LOADED a point
 * (value: ns a load; payload struct numa_ev_loaded), NUMA_LOADED_DONE a
 * curve's end (value: unused; payload struct numa_ev_loaded_done); row and
 * col the node pair as the others'. */
enum { NUMA_LOADED = 32, NUMA_LOADED_DONE = 33 };

/* The payload of a cell (run/job.h: JOB_PAYLOAD_PUT/GET), kept as it came
 * by the cell's value (struct numa_value). */
#define NUMA_CELL_PARTS                                                                            \
	int tries;         /* the lab's tries */                                                   \
	unsigned flags;    /* NUMA_F_* */                                                          \
	double pages;      /* pages of the buffer counted */                                       \
	double on;         /* of them, pages on the memory node */                                 \
	double absent;     /* pages not present; -1: placement could not be read */               \
	int where;         /* the latency's CPU, or the bandwidth's thread count */
struct numa_ev_cell {
	NUMA_CELL_PARTS
};

/* The payload of a NUMA_LOADED cell: one point of a curve, the chaser's
 * latency and the injectors' bandwidth measured during the same try (the
 * bandwidth lab's loaded sweep: bandwidth_loaded). */
struct numa_ev_loaded {
	int point;         /* 0 idle, then one a delay */
	int why;           /* NUMA_WHY_*: why this pair has a curve */
	double delay_ns;   /* the injectors' delay between 8 KB bursts; -1 idle */
	double gbs;        /* GB/s the injectors moved meanwhile (0 idle) */
	double spread;     /* (slowest - fastest try) / median */
	int tries, preempted;
};

/* The payload of a NUMA_LOADED_DONE cell: how the curve was measured,
 * kept as it came by the curve (struct numa_curve). */
#define NUMA_DONE_PARTS                                                                            \
	int why;           /* NUMA_WHY_* */                                                        \
	int chaser_cpu;    /* the chaser's CPU */                                                  \
	int injectors;     /* injector threads, one on each other CPU of the CPU node */          \
	int huge;          /* the chase on 2 MB pages asked */                                     \
	double huge_share; /* of the chase's bytes on huge pages, -1 not known */                 \
	double on_node;    /* of its and the injectors' pages on the memory node, -1 not known */
struct numa_ev_loaded_done {
	NUMA_DONE_PARTS
};

/* Why a node pair has a loaded-latency curve. */
enum {
	NUMA_WHY_LOCAL,   /* the CPU node's own memory */
	NUMA_WHY_ASKED,   /* named by --loaded-pairs */
	NUMA_WHY_SLIT,    /* the farthest memory node by the firmware's distances */
	NUMA_WHY_LATENCY, /* the memory node of the slowest idle latency measured in the run */
};

/* The traffic mixes of the bandwidth matrices (--mix), in the order they are
 * measured and printed: all reads, 3:1, 2:1 and 1:1 reads:writes (Intel
 * MLC's), and STREAM's triad (MLC's "stream-triad like"). */
enum { NUMA_MIX_READS, NUMA_MIX_31, NUMA_MIX_21, NUMA_MIX_11, NUMA_MIX_TRIAD, NUMA_NMIX };
#define NUMA_MIXES_DEFAULT ((1u << NUMA_MIX_READS) | (1u << NUMA_MIX_TRIAD)) /* as before */
#define NUMA_MIXES_ALL ((1u << NUMA_NMIX) - 1)

#define NUMA_MAX_CURVES 8
#define NUMA_MAX_POINTS (BANDWIDTH_MAX_LOADED + 1) /* idle and one a delay */
#define NUMA_KNEE_RISE 0.20 /* a curve whose latency rises less than this has no knee */

/* One NUMA node as the plan sees it. */
struct numa_node {
	int node;                        /* the OS's number */
	char tier[16];                   /* hwloc's subtype: "DRAM", "HBM", "NVM"...; "" */
	int cpus[NUMA_MAX_NODE_CPUS];    /* its CPUs this process may use (those whose
					  * nearest node it is), increasing */
	int ncpus;                       /* 0: a memory-only node, or none allowed */
	int own;                         /* its CPUs, allowed or not: 0 a memory-only node */
	uint64_t memory;                 /* bytes, 0 unknown */
	uint64_t floor;                  /* machine_dram_floor of its CPUs: a working set
					  * they read from memory, not from a cache */
	char floor_why[160];             /* "4 x the L3 32M (sysfs)" */
	uint64_t trusted;                /* the largest cache its latency CPU reaches that
					  * no doubt is about (one cache; 0 none) */
	int trusted_level;               /* its level (0 none) */
	int doubted;                     /* a deeper cache's claim is doubted (a guest's
					  * CPUID L3 of 508 MB) */
};

/* Which node pair a cell is: indexes into numa_params.nodes. */
struct numa_pair {
	int cpu, mem;
};

/* A loaded-latency curve the plan asks: a node pair (indexes into the
 * plan's nodes; mem -1: the slowest remote pair of the CPU node's row, found
 * once its idle latencies are measured) and why. */
struct numa_curve_plan {
	struct numa_pair pair;
	int why;             /* NUMA_WHY_* */
	int dist;            /* the firmware's distance of the pair, 0 not known */
};

/* The sentences of size_from and lat_size_from (English: the result file
 * keeps them), marked for the catalogue and shown through numa_text. */
#define NUMA_SIZE_AT_LEAST N_("%s, at least %s")
#define NUMA_SIZE_CUT N_("%s, cut from %s to %s: 1/%d of %s")
#define NUMA_SIZE_OF_RUN N_("what a run may take (%s)")
#define NUMA_SIZE_UNDER N_("under %s, %d x the caches the CPUs reach: part of it may be served from a cache")
#define NUMA_LAT_CURVE                                                                         \
	N_("where the latency settles on a curve from %s (%d x the L%d %s, the last cache "    \
	   "trusted) to %s (a deeper cache's claim is doubted: it sets the curve's top)")
#define NUMA_LAT_PAST N_("%d x the L%d %s, past the caches trusted")
#define NUMA_LAT_SETTLED                                                                       \
	N_("%s ns at %s, %s at %s on 2 MB pages (within %s %%): where the curve from %s settles")
#define NUMA_LAT_UNSETTLED N_("the run's size: the curve from %s did not settle below it")
#define NUMA_FORMS                                                                             \
	NUMA_SIZE_CUT, NUMA_SIZE_AT_LEAST, NUMA_SIZE_OF_RUN, NUMA_SIZE_UNDER, NUMA_LAT_CURVE,  \
		NUMA_LAT_PAST, NUMA_LAT_SETTLED, NUMA_LAT_UNSETTLED

/* A size's or the idle latency's reason, kept in English, in the user's
 * language where the catalogue has it (NUMA_FORMS and the machine's),
 * made printable, into out. Returns out. */
const char *numa_text(char *out, size_t len, const char *stored);

struct numa_params {
	struct numa_node nodes[NUMA_MAX_NODES]; /* the nodes measured, in the order given */
	size_t nnodes;
	size_t skipped;        /* nodes of the machine left out (more than NUMA_MAX_NODES) */
	struct numa_pair cells[NUMA_MAX_NODES * NUMA_MAX_NODES]; /* CPU node major */
	size_t ncells;
	uint64_t size;        /* bytes every run works on */
	char size_from[400];  /* why that size, in words */
	uint64_t lat_size;    /* bytes the idle latency is read at: where memory is, past
			       * the caches the run trusts (at most size) */
	char lat_size_from[240]; /* why, in words */
	uint64_t curve_from;  /* lat_curve: the curve's first size */
	int lat_curve;        /* a cache's claim is doubted: the worker finds lat_size on a
			       * curve from curve_from up to size (the doubted claim sets its
			       * top, never the size a figure is read at) */
	int quick;
	int huge;                    /* also the chase on 2 MB pages (THP always or madvise) */
	struct latency_params lat;   /* the latency lab's run (size set) */
	struct bandwidth_params bw;  /* the bandwidth lab's run (size set; kernel, CPUs
				      * and threads set for each run) */
	int dist[NUMA_MAX_NODES][NUMA_MAX_NODES]; /* the SLIT between the nodes measured
						   * (numa_plan_distances), 0 unknown */
	struct numa_mem *mem;        /* where buffers are bound (numa_mem_open) */
	/* the price's inputs (numa_probe, the caller's, outliving the job);
	 * NULL: priced by a guess */
	const struct numa_probe *probe;
	const struct machine *m;     /* the machine planned (the bandwidth runs' CPUs) */
	unsigned mixes;              /* the bandwidth matrices' mixes, 1 << NUMA_MIX_*
				      * (numa_plan: NUMA_MIXES_DEFAULT) */
	int streaming;               /* the mixes' writes with streaming stores (x86) */
	struct numa_curve_plan loaded[NUMA_MAX_CURVES]; /* the loaded-latency curves */
	size_t nloaded;              /* 0: none (no --loaded) */
	double delays[BANDWIDTH_MAX_LOADED]; /* the injectors' delays, ns, decreasing */
	size_t ndelays;
};

/* The NUMA nodes of machine m, each with its tier, its CPUs this process
 * may use (those whose nearest node it is: none for a memory-only node; of
 * core type kind alone when kind >= 0),
 * its memory and its DRAM floor, into out. Returns the count (at most cap;
 * a machine without nodes is one node 0 with every allowed CPU). */
size_t numa_nodes_of(const struct machine *m, int kind, struct numa_node *out, size_t cap);

/* Plan the run (no machine is read: tests give fake nodes): select the
 * nodes `want` names (NULL, nwant 0: all of them, in order; more than
 * NUMA_MAX_NODES: that many spread over them, the rest counted in
 * skipped), then a cell for each selected node with CPUs x each selected
 * node; the size is the largest DRAM floor of the selected CPU nodes
 * (every cache a node's CPUs reach together, MACHINE_DRAM_FACTOR times), at
 * least BANDWIDTH_DRAM_MIN, at most 1 / BANDWIDTH_MEM_SHARE of the smallest
 * memory node and of what the memory budget b leaves a run
 * (machine_mem_budget: the memory available, the job's cgroup; its bytes
 * 0: unknown, no cap), a multiple of 2 MB; quick: NUMA_QUICK_SIZE under
 * the same caps. A size under the floor says so in size_from (part of it
 * may be cached). The idle latency's size (lat_size): MACHINE_DRAM_FACTOR x
 * the largest cache the first CPU node's latency CPU reaches that no doubt
 * is about, a multiple of 2 MB, at most size; where a deeper cache's claim
 * is doubted, a curve from there up to size finds it (lat_curve; quick:
 * size). Returns 0; -1 with e for a bad selection: "--nodes: no
 * node 3 (nodes here: 0, 1)", a node named twice, more than
 * NUMA_MAX_NODES nodes, no selected node with CPUs; -2 with e when the
 * size would be under NUMA_MIN_SIZE (not enough memory) or, nothing
 * selected, no node has a CPU of its own (a cpuset allowing CPUs but not
 * their node). */
int numa_plan(struct numa_params *p, const struct numa_node *all, size_t nall, const int *want,
	      size_t nwant, const struct machine_budget *b, int quick, mt_error *e);

/* p->dist from machine m's distances (the firmware's SLIT, topo_distance)
 * between the nodes p measures; 0 where m has none. */
void numa_plan_distances(struct numa_params *p, const struct machine *m);

struct plan;

/* p as a plan (machine/plan.h) into out (plan_init made it): its nodes with their tiers,
 * the size, the node pairs (as CPU pairs: the latency's CPU and a CPU of
 * the memory node, -1 for a memory-only one) and the time. */
void numa_plan_of(const struct numa_params *p, struct plan *out);

/* ---- mixes (numa_mix.c) ------------------------------------------------------ */

/* "reads", "3:1", "2:1", "1:1", "triad"; NULL out of range. */
const char *numa_mix_name(int mix);

/* Its matrix's key under "bandwidth_gbs" in the JSON: "read", "3:1", "2:1",
 * "1:1", "triad"; NULL out of range. */
const char *numa_mix_key(int mix);

/* The measurement of a mix (NUMA_READ, NUMA_R3W1, NUMA_R2W1, NUMA_R1W1,
 * NUMA_TRIAD), -1 out of range; numa_meas_mix the other way (-1 for a
 * latency). */
int numa_mix_meas(int mix);
int numa_meas_mix(int meas);

/* The bandwidth lab's kernel a mix runs: read, r3w1, r2w1, copy, triad, the
 * writing ones' _nt with streaming stores; -1 out of range. */
int numa_mix_kernel(int mix, int streaming);

/* Bytes one pass of mix reads and writes over arrays of n doubles, the sum
 * being what its GB/s count (bytes read + written, as Intel MLC and STREAM
 * count; a cached store's read of its line first not counted). */
void numa_mix_bytes(int mix, size_t n, uint64_t *rd, uint64_t *wr);

/* Parse --mix: mix names separated by commas (reads, 3:1, 2:1, 1:1,
 * triad), "all" or "none" (no bandwidth matrix: the idle latency, and the
 * loaded curves with --loaded), into *mixes (1 << NUMA_MIX_*). Returns 0, or -1 with e
 * in one line naming the word: "--mix: '0:1': no mix of 0 reads to 1
 * write ...", "--mix: '3:': a mix of reads to writes is READS:WRITES, such
 * as 3:1 ...", "--mix: 'x' is not a mix ...", a mix given twice, empty. */
int numa_mix_parse(const char *list, unsigned *mixes, mt_error *e);

/* The mixes' names, "reads, triad", into buf. Returns buf. */
const char *numa_mixes_text(unsigned mixes, char *buf, size_t len);

/* ---- the loaded-latency curves (numa_loaded.c) ---------------------------------- */

/* Plan p's curves (after numa_plan): for each CPU node of the pairs asked
 * (node numbers, asked[i].cpu > asked[i].mem; nasked 0: the first CPU
 * node's) its local pair, then each remote pair asked, or by default the
 * CPU node's farthest memory node: by dist (the firmware's distances
 * between p's nodes, indexes as p->nodes; NULL or a 0 in the row: not
 * known) the largest, else the slowest idle latency the run measures (mem
 * -1); none more on a machine of one node. Also p's delays. Returns 0, or
 * -1 with e in one line: a node that is not measured, a CPU node with
 * fewer than 2 CPUs this process may use (the chaser and an injector), more
 * than NUMA_MAX_CURVES curves. */
int numa_plan_loaded(struct numa_params *p, const int (*dist)[NUMA_MAX_NODES],
		     const struct numa_pair *asked, size_t nasked, mt_error *e);

/* "local", "asked", "the farthest by the firmware's distances", "the slowest
 * idle latency measured"; "" out of range. */
const char *numa_why_text(int why);

/* Set p's latency and bandwidth runs from the labs' defaults (or their
 * --quick) at p->size: the random chase alone; read and triad with the
 * best ISA. Call from the batch or UI thread (the bandwidth defaults read
 * the CPUs it may use). Never fails. */
void numa_params_runs(struct numa_params *p);

/* ---- the price (numa_price.c) --------------------------------------------- */

/* What a few of the run's own steps took here, timed small (numa_probe,
 * about a second on a quiet machine): the price's inputs. */
struct numa_probe {
	int have;               /* 0: nothing timed (the price is a guess) */
	double page_ns;         /* a 4 KB page populated by the kernel (the latency's) */
	double huge_ns;         /* a 2 MB page populated, 0 without THP */
	double touch_ns;        /* wall ns a 4 KB page first touched by touch_threads threads
				 * (1: the probe starts no thread before the job) */
	int touch_threads;
	double count_ns, free_ns; /* a 4 KB page counted by node, unmapped */
	double read_ns, write_ns; /* a byte read, written by one thread (best of two passes) */
	double share;           /* of a CPU the probing thread got (1 on a quiet machine) */
	int busy;               /* the load was over the CPUs allowed */
	struct latency_params lat4, lat2; /* p's latency run, latency_probe'd on each page size */
};

/* Time the steps above on this machine for p (planned; p->lat set by
 * numa_params_runs). Call on the batch or UI thread, no run going. Never
 * fails: what could not be timed leaves q->have 0. */
void numa_probe(const struct numa_params *p, struct numa_probe *q);

/* Seconds run what (NUMA_LAT, NUMA_LAT_HUGE and NUMA_LAT_FULL: the chases
 * at lat_size and at the run's size; NUMA_READ, NUMA_TRIAD and the mixes
 * NUMA_R3W1, NUMA_R2W1, NUMA_R1W1: their reads and writes) of node pair
 * cell of p is priced at with q (NULL or not had: a guess by size); one
 * chase at size (huge: on 2 MB pages; the lat_curve's steps); one
 * loaded-latency curve (its buffers, idle and every delay); all of p's
 * runs (with lat_curve: every step of the curve and a run at the run's
 * size a pair, since where the curve settles is not known yet; the mixes
 * asked; the curves). The worker's progress counts in these seconds. */
double numa_run_cost_s(const struct numa_params *p, const struct numa_probe *q, size_t cell,
		       int what);
double numa_chase_cost_s(const struct numa_params *p, const struct numa_probe *q, uint64_t size,
			 int huge);
double numa_curve_cost_s(const struct numa_params *p, const struct numa_probe *q);
double numa_estimate_s(const struct numa_params *p, const struct numa_probe *q);

/* Where a thread of p runs: the latency's CPU of CPU node index i (its
 * last CPU). */
int numa_latency_cpu(const struct numa_params *p, size_t i);

/* "0,1" (runs of three or more as "0-3") into buf. */
void numa_cpus_text(const int *cpus, int n, char *buf, size_t len);

/* The job (a job_fn): arg is a struct numa_params that outlives the job,
 * with mem open. Streams the cells above, CPU node by CPU node. Returns 0
 * (also when cancelled), or -1 with e (memory cannot be bound, a lab's
 * run failed). */
int numa_worker(job_t *job, void *arg, mt_error *e);

/* The chaser's CPU for CPU node index i (numa_latency_cpu) and the
 * injectors' (every other CPU of the node) into cpus, chaser first.
 * Returns the count. */
int numa_loaded_cpus(const struct numa_params *p, size_t i, int *cpus, int cap);

/* ---- binding and placement (numa_mem.c, hwloc) --------------------------- */

struct numa_mem;

/* Open hwloc's view of this machine. Returns it, or NULL with e. */
struct numa_mem *numa_mem_open(mt_error *e);
void numa_mem_close(struct numa_mem *m);

/* job_start(fn, arg) pinned to cpu from a thread pinned elsewhere (the
 * numa worker): job_start accepts only CPUs its caller may run on, so the
 * caller's binding is widened to the CPUs of the thread that opened m for
 * the call, then put back. When cpu has been taken away since (a cpuset
 * cut, a CPU gone offline), the job runs on a CPU job_pick_cpu gives and
 * *lost is 1 (else 0): the caller marks its cell. Returns the job, or NULL
 * with e. */
job_t *numa_mem_job_start(struct numa_mem *m, job_fn fn, void *arg, int cpu, int *lost,
			  mt_error *e);

/* len bytes bound to node (HWLOC_MEMBIND_BIND, strict; *bound = 1), on
 * 4 KB pages (MADV_NOHUGEPAGE), not touched. On a machine of one node
 * where binding is not supported (a kernel without NUMA, qemu-user), plain
 * memory with *bound = 0. Returns it, or NULL with e. */
void *numa_mem_alloc(struct numa_mem *m, int node, size_t len, int *bound, mt_error *e);
void numa_mem_free(struct numa_mem *m, void *buf, size_t len);

/* Count the pages of [buf, buf + len) node by node (move_pages(2) with
 * nodes NULL): *pages counted, *on on node, *absent not present. Returns
 * 0, or -1 when this system cannot say (not Linux, no NUMA in the kernel). */
int numa_mem_count(const void *buf, size_t len, int node, uint64_t *pages, uint64_t *on,
		   uint64_t *absent);

/* ---- the result (numa_result.c) ------------------------------------------- */

struct numa_value {
	int have;
	double v;       /* ns a load, or GB/s */
	double spread;
	union { /* the cell's payload: tries, flags, the placement of its buffer, where */
		struct numa_ev_cell ev;
		struct {
			NUMA_CELL_PARTS
		};
	};
};

/* One point of a loaded-latency curve. */
struct numa_point {
	double delay_ns;   /* -1 idle */
	double gbs;        /* the injectors' GB/s (0 idle) */
	double ns;         /* the chaser's ns a load, measured together */
	double spread;
	int tries, preempted;
};

/* A node pair's loaded-latency curve. */
struct numa_curve {
	int cpu, mem;      /* indexes into the result's nodes */
	union { /* how it was measured: why, chaser_cpu ... on_node (-1 not known) */
		struct numa_ev_loaded_done how;
		struct {
			NUMA_DONE_PARTS
		};
	};
	int done;          /* its NUMA_LOADED_DONE came (or a file gave it whole) */
	struct numa_point pts[NUMA_MAX_POINTS]; /* idle first, then the delays in order */
	size_t npts;
};

/* What a curve says (numa_knee_find). */
struct numa_knee {
	int have;          /* a knee found (else flat: latency rose under NUMA_KNEE_RISE;
			    * steep: no point below the line; or fewer than 3 points) */
	size_t idle, knee, peak; /* indexes into the points (knee valid when have) */
	double frac;       /* the knee's GB/s over the peak's */
	double ratio;      /* the knee's latency over the idle one */
	double peak_ratio; /* the peak's latency over the idle one */
	double inflight_knee, inflight_peak; /* Little's law: lines of 64 B in flight */
};

/* Lines of 64 B in flight that gbs GB/s at ns a load imply (Little's law:
 * bandwidth x latency / 64 B). */
double numa_inflight(double gbs, double ns);

/* The knee of a curve's points (pts[0] idle, delay -1; the others in any
 * order), by one rule: each point's latency lowered to the least of the
 * points at its bandwidth or above (noise only adds latency), bandwidth
 * over the peak's (the most GB/s measured) and latency rise over the
 * peak's; the knee is the point farthest below the straight line from the
 * idle point to the peak (the most bandwidth less latency rise, the least
 * bandwidth of equals); no knee when the peak's latency is under 1 +
 * NUMA_KNEE_RISE times the idle one, or no point lies below that line
 * (latency rose from the lightest load on). Little's law at the knee and the
 * peak with each point's measured figures. Returns k->have. */
int numa_knee_find(const struct numa_point *pts, size_t n, struct numa_knee *k);

/* What the curve says, in one line into buf: "knee at 0.70 of the peak:
 * 38.0 GB/s, latency 1.6x idle (152.0 ns)", or "no knee: latency 1.05x
 * idle at the peak, 12.0 GB/s (a knee needs a rise of 1.2x)", "... rising
 * from the lightest load on (no flat part before it)", "no knee: no loaded
 * point". Returns buf. */
const char *numa_knee_text(const struct numa_point *pts, const struct numa_knee *k, char *buf,
			   size_t len);

/* Little's law beside it: "Little's law: 90 lines of 64 B in flight at the
 * knee (38.0 GB/s x 152.0 ns), 253 at the peak (54.0 GB/s x 300.0 ns)"
 * (the peak alone without a knee). Returns buf. */
const char *numa_little_text(const struct numa_point *pts, const struct numa_knee *k, char *buf,
			     size_t len);

/* The rule of numa_knee_find in one sentence (what the run prints). */
extern const char numa_knee_rule[];

struct numa_result {
	struct run_header hdr;
	int nodes[NUMA_MAX_NODES];
	size_t nnodes;
	int ncpus[NUMA_MAX_NODES];       /* CPUs of each node used (0: not a CPU node) */
	char cpus[NUMA_MAX_NODES][96];   /* those CPUs as text */
	int lat_cpu[NUMA_MAX_NODES];     /* the latency's CPU, -1 none */
	struct numa_value v[NUMA_MAX_NODES][NUMA_MAX_NODES][NUMA_NMEAS]; /* [cpu][mem] */
	double placed[NUMA_MAX_NODES][NUMA_MAX_NODES]; /* a file's "placement" without
							* its "runs" (NAN: none) */
	int dist[NUMA_MAX_NODES][NUMA_MAX_NODES]; /* the SLIT between the nodes, 0 unknown */
	int have_dist;                   /* 1 when every pair's is known */
	uint64_t size;
	char size_from[400];
	uint64_t lat_size;               /* where the idle latency was read (0: at size, an
					  * older file) */
	char lat_size_from[240];
	unsigned stride;                 /* the chase's slots, bytes */
	char isa[16];                    /* the bandwidth kernels' */
	int numa_balancing;              /* mt_plat_numa_balancing's mode at the start */
	char thp[16];                    /* THP mode at the start ("" unknown) */
	uint64_t page_size;
	char pages[160];                 /* the latency lab's sentence about the pages */
	char pages_huge[160];            /* ... of the run on 2 MB pages ("" none) */
	double elapsed_s;
	char source[MT_PATH_MAX];        /* the file it came from, "" when measured */
	unsigned mixes;                  /* the bandwidth mixes measured or asked (1 << NUMA_MIX_*) */
	int streaming;                   /* their writes with streaming stores */
	struct numa_curve curves[NUMA_MAX_CURVES];
	size_t ncurves;
};

/* An empty result with p's nodes, size and runs (the header is the caller's). */
void numa_result_init(struct numa_result *r, const struct numa_params *p);

/* Store one event of the worker. Returns its kind (NUMA_LAT ...), or -1
 * for an event that is not a cell of r (a note: the pages note is kept). */
int numa_result_apply(struct numa_result *r, const struct job_event *ev);

/* The curve of node pair (cpu, mem) (indexes) in r, NULL when none. */
const struct numa_curve *numa_result_curve(const struct numa_result *r, int cpu, int mem);

/* The cells of r measured (every node pair's latency and bandwidths). */
size_t numa_result_measured(const struct numa_result *r);

/* The share of the pages of cell (cpu, mem)'s buffers on the memory node
 * (0..1), NAN when none were read. */
double numa_result_placement(const struct numa_result *r, size_t cpu, size_t mem);

/* The idle latency of CPU node cpu's pair with memory node mem over its
 * own (indices into r's nodes): on 2 MB pages where both were measured on
 * them (*huge 1), else on 4 KB pages (*huge 0). NAN when not measured. */
double numa_result_ratio(const struct numa_result *r, size_t cpu, size_t mem, int *huge);

/* The SLIT's ratio for the same pair (its distance over the CPU node's own),
 * NAN when not known. */
double numa_result_slit_ratio(const struct numa_result *r, size_t cpu, size_t mem);

/* The SLIT between r's nodes in one line, "0: 10 21 31; 1: 21 10 41; ..."
 * ("" when not known). Returns buf. */
const char *numa_result_slit_text(const struct numa_result *r, char *buf, size_t len);

/* The measured ratio of a remote pair beside the SLIT's: "CPU node 0,
 * memory node 1: 1.9x local on 2 MB pages, SLIT says 2.1x" (", no SLIT"
 * when it has none). Returns 0 (buf filled), or -1 when the pair is local
 * or not measured. */
int numa_result_ratio_text(const struct numa_result *r, size_t cpu, size_t mem, char *buf,
			   size_t len);

/* The result as JSON: header, "experiment": "numa", nodes, cpus, size,
 * latency_ns [[...]], bandwidth_gbs {read, triad} [[...]] (null where not
 * measured), their spreads, placement [{cpu_node, memory_node,
 * pages_on_node, pages, pages_absent}], numa_balancing (false, true, null
 * unknown), numa_balancing_mode, thp, page_size, pages, chase_stride, isa,
 * distances [[...]] (the SLIT; null unknown), latency_ratio and slit_ratio
 * [[...]] (numa_result_ratio and numa_result_slit_ratio, null where none),
 * latency_ratio_page (the bytes of the pages the ratios were taken on).
 * NULL out of memory. */
cJSON *numa_result_to_json(const struct numa_result *r);

/* Whether root is a numa result ("experiment": "numa"). */
int numa_result_is(const cJSON *root);

/* memtop plot (numa_plot.c): the loaded-latency curves of in[0..n) (n 1
 * or 2, numa results) as MLC's users draw them (GB/s across, ns a load up,
 * a curve a node pair, a second file's dashed, each knee ringed, its words
 * and Little's law under the chart), then each file's matrices (idle
 * latency, each mix) as tables. Into s (svg_begin not yet called).
 * Returns 0, or -1 out of memory. */
struct result_file;
struct svg;
int numa_plot(const struct result_file *in, size_t n, struct svg *s);

/* The numa result's kind (numa_kind.c). */
struct result_kind;
extern const struct result_kind kind_numa;
/* Its batch mode, `memtop run numa` (numa_batch.c), for result/result.c's
 * registry (run/experiment.h). */
struct experiment;
extern const struct experiment exp_numa;

/* The notes the worker writes in English, marked for the catalogue (the
 * latency's and bandwidth's it runs beside them): the run and the UI say
 * them in the user's language. */
#define NUMA_SAYS_NO_REMOTE                                                                    \
	N_("loaded latency: CPU node %d has no remote pair measured: its local curve alone")
#define NUMA_SAYS_REVISED N_("about %.0f s in all: the first node pair took %.0f s, priced at %.0f s")
#define NUMA_SAYS_FORMS                                                                        \
	NUMA_SAYS_NO_REMOTE, NUMA_SAYS_REVISED, LATENCY_SAYS_FORMS, BANDWIDTH_SAYS_FORMS

/* Read a result back, strictly: a missing, mistyped or ragged field fails
 * with "FILE: FIELD ...". Returns 0, or -1 with e. */
int numa_result_from_json(const cJSON *root, const char *file, struct numa_result *r,
			  mt_error *e);

#endif
