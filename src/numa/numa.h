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
 * the chase on 2 MB pages at the run's own size, when that is larger. */
enum { NUMA_LAT, NUMA_READ, NUMA_TRIAD, NUMA_LAT_HUGE, NUMA_LAT_FULL, NUMA_NMEAS };
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

/* The payload of a cell (run/job.h: JOB_PAYLOAD_PUT/GET). */
struct numa_ev_cell {
	int tries;         /* the lab's tries */
	unsigned flags;    /* NUMA_F_* */
	double pages;      /* pages of the buffer counted */
	double on;         /* of them, pages on the memory node */
	double absent;     /* pages not present; -1: placement could not be read */
	int where;         /* the latency's CPU, or the bandwidth's thread count */
};

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

/* p as a plan (machine/plan.h) of machine m: its nodes with their tiers,
 * the size, the node pairs (as CPU pairs: the latency's CPU and a CPU of
 * the memory node, -1 for a memory-only one) and the time. */
void numa_plan_of(const struct numa_params *p, const struct machine *m, struct plan *out);

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
 * at lat_size and at the run's size; NUMA_READ, NUMA_TRIAD) of node pair
 * cell of p is priced at with q (NULL or not had: a guess by size); one
 * chase at size (huge: on 2 MB pages; the lat_curve's steps); all of p's
 * runs (with lat_curve: every step of the curve and a run at the run's
 * size a pair, since where the curve settles is not known yet). The
 * worker's progress counts in these seconds. */
double numa_run_cost_s(const struct numa_params *p, const struct numa_probe *q, size_t cell,
		       int what);
double numa_chase_cost_s(const struct numa_params *p, const struct numa_probe *q, uint64_t size,
			 int huge);
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
	int tries;
	unsigned flags; /* NUMA_F_* */
	int where;      /* the latency's CPU, the bandwidth's threads */
	double pages, on, absent; /* placement of its buffer; absent -1: not read */
};

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
};

/* An empty result with p's nodes, size and runs (the header is the caller's). */
void numa_result_init(struct numa_result *r, const struct numa_params *p);

/* Store one event of the worker. Returns its kind (NUMA_LAT ...), or -1
 * for an event that is not a cell of r (a note: the pages note is kept). */
int numa_result_apply(struct numa_result *r, const struct job_event *ev);

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

/* The numa result's kind (numa_kind.c). */
struct result_kind;
extern const struct result_kind kind_numa;
/* Its batch mode, `memtop run numa` (numa_batch.c), for result/result.c's
 * registry (run/experiment.h). */
struct experiment;
extern const struct experiment exp_numa;

/* Read a result back, strictly: a missing, mistyped or ragged field fails
 * with "FILE: FIELD ...". Returns 0, or -1 with e. */
int numa_result_from_json(const cJSON *root, const char *file, struct numa_result *r,
			  mt_error *e);

#endif
