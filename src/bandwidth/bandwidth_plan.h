/* bandwidth_plan: the bandwidth lab's parameters, made from the machine
 * and the options (bandwidth_plan.c): the sizes from the levels, the thread
 * counts, the CPUs and their placement, the arrays' layout, the pages. */
#ifndef MEMTOP_BANDWIDTH_PLAN_H
#define MEMTOP_BANDWIDTH_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "bandwidth_kernels.h"
#include "base/util.h"
#include "info/info.h"
#include "machine/machine.h"
#include "os/sysinfo.h"

#define BANDWIDTH_MAX_SIZES 12
#define BANDWIDTH_MAX_TLIST 16     /* thread counts in one run */
#define BANDWIDTH_MAX_THREADS 1024 /* the largest thread count */
#define BANDWIDTH_MAX_CPUS MT_MAX_CPUS
#define BANDWIDTH_MAX_LOADED 24    /* points of the loaded-latency sweep */

/* ---- the plan: sizes, threads, CPUs (bandwidth_plan.c) ------------------- */

struct bandwidth_size {
	uint64_t bytes;
	int per_thread;   /* 1: each thread's working set (private level) */
	int per_group;    /* 1: each L3 group's working set, shared by the threads
			   * that run in the group (a shared level); 0 with
			   * per_thread 0: all threads' together */
	char level[16];   /* "L1", "L2", "L3", "DRAM", "L3+DRAM" (past the caches, under
			   * the DRAM floor: part of it may be cached); "" a given size */
	char from[240];   /* where the size came from, in words */
};

/* A cache level a size can be planned from: detected by a measurement or
 * reported by a source of `memtop info`. */
struct bandwidth_level {
	int level;        /* 1, 2, 3 ... */
	uint64_t size;    /* bytes */
	char source[32];  /* "cpuid", "sysfs", "latency run" ... */
	char doubt[240];  /* why `memtop info` doubts the value; "" when it does not */
};

#define BANDWIDTH_NOTE_LEN 400 /* a sentence of the plan's notes */
#define BANDWIDTH_TEXT_LEN 800 /* one of them in the user's language (bandwidth_text) */

struct bandwidth_params {
	struct bandwidth_size sizes[BANDWIDTH_MAX_SIZES];
	size_t nsizes;
	int kernels[BANDWIDTH_NKERNELS]; /* BW_* in table order */
	size_t nkernels;
	unsigned threads[BANDWIDTH_MAX_TLIST]; /* increasing */
	unsigned groups[BANDWIDTH_MAX_TLIST];  /* the L3 groups threads[i]'s CPUs span (0: not
					 * known, taken as 1) */
	size_t nthreads;
	double quota;             /* CPUs the job's cgroup quota gives (0: none). Thread
				   * counts over it are measured and marked (over_quota),
				   * not dropped: a quota limits CPU time a period, not how
				   * many threads run at once, so a short try of 2 threads
				   * under 1.5 CPUs may run whole between two pauses (the
				   * best tries are those), and the user asked for the
				   * count; the mark says a figure may read the quota */
	int isa;                  /* the vector kernels' ISA */
	unsigned min_tries, max_tries;
	double tolerance;         /* stop when the two best tries agree within this */
	double try_ns;            /* target length of one try */
	int cpus[BANDWIDTH_MAX_CPUS];    /* pinning order: thread i on cpus[i % ncpus] */
	int core[BANDWIDTH_MAX_CPUS];    /* core of cpus[i] (an index among the cores), -1 unknown */
	int l3[BANDWIDTH_MAX_CPUS];      /* L3 group of cpus[i], -1 unknown */
	int node[BANDWIDTH_MAX_CPUS];    /* NUMA node (index) of cpus[i], -1 unknown */
	int package[BANDWIDTH_MAX_CPUS]; /* package (index) of cpus[i], -1 unknown */
	int ncpus;
	/* loaded latency */
	int loaded;               /* 0: table only; 1: table, then loaded; 2: loaded only */
	int loader_write;         /* the loaders store instead of load */
	uint64_t chase_bytes;     /* the chaser's buffer */
	uint64_t loader_bytes;    /* all loaders' buffers together */
	unsigned chase_stride;    /* bytes between the chase's slots */
	double delays[BANDWIDTH_MAX_LOADED]; /* ns between bursts, decreasing; idle comes first */
	size_t ndelays;
	double point_ns;          /* timed chase a try */
	unsigned loaded_tries;
	int pages;                /* the table buffer's pages: BANDWIDTH_PAGES_4K or _HUGE */
	int pages_asked;          /* --pages: BANDWIDTH_PAGES_4K, _HUGE or _AUTO */
	char *buf;                /* NULL: the worker maps the table's buffer; else the
				     caller's (memtop run numa binds it to a node and
				     first-touches each thread's slice from that
				     thread's CPU), at least bandwidth_table_bytes()
				     long, page aligned; left mapped */
	size_t buf_bytes;
	char *chase_buf;          /* NULL: the loaded sweep maps its chase; else the caller's
				     (memtop run numa binds it to a node), at least
				     chase_bytes, 2 MB aligned for chase_huge; left mapped */
	char *loader_buf;         /* NULL: the sweep maps the loaders' buffers; else the
				     caller's, at least bandwidth_loader_bytes(); left mapped */
	int chase_huge;           /* the chase on 2 MB pages (MADV_HUGEPAGE, as Intel MLC
				     measures), else on 4 KB pages (the latency lab's default) */
};

/* Defaults from the machine m (NULL: this machine) without sizes: every
 * kernel the best ISA has; the CPUs m allows in the spread order
 * (bandwidth_order_cpus); thread counts stepping through one, one a
 * package, one a node, one an L3 group, one a core and all of them (with
 * doubling counts between, at most BANDWIDTH_MAX_TLIST, at most BANDWIDTH_MAX_THREADS);
 * best of 3..9 tries of 4 ms within 2 %; loaded latency off, its delays
 * 25600, 12800 ... 100, 0 ns, 15 tries of 4 ms a point. */
void bandwidth_params_default(struct bandwidth_params *p, const struct machine *m);

/* The --quick run for tests (after the sizes are planned): tries 1..2 of
 * 1 ms, threads 1 and 2 (when allowed), sizes above 16M cut to 16M (said
 * in their from, and labelled by where 16M sits on m: "L3", "L3+DRAM" or
 * "DRAM"), 3 delays, 3 tries of 5 ms chasing 16 MB. */
void bandwidth_params_quick(struct bandwidth_params *p, const struct machine *m);

/* The levels `memtop info` reports, from the most trusted source per level
 * (info_best_size), data or unified, level 1 up, each with info's doubt
 * about it (info_doubt_of). Returns the count. */
size_t bandwidth_levels_from_info(const struct info *inf, struct bandwidth_level *out, size_t cap);

/* The levels of machine m as the plan takes them: each level's credible
 * size and source, or (every claim doubted) its claim with the doubt.
 * Returns the count. */
size_t bandwidth_levels_of(const struct machine *m, struct bandwidth_level *out, size_t cap);

/* A cache size is credible on a machine with ncpus CPUs when it is at most
 * BANDWIDTH_CREDIBLE_PER_CPU a CPU (the largest caches today hold 12 MB a core;
 * a guest's CPUID can claim its host's whole L3, or more). */
#define BANDWIDTH_CREDIBLE_PER_CPU (32ull << 20)
int bandwidth_level_credible(uint64_t size, int ncpus);

#define BANDWIDTH_DRAM_MIN (256ull << 20) /* DRAM row at least this */
#define BANDWIDTH_MEM_SHARE 4             /* ... at most 1/4 of the memory available */

/* Plan the default sizes into p for machine m: half of each credible
 * level of lv[0..nlv) (NULL, 0: bandwidth_levels_of(m); a latency run's
 * levels when the TUI has one): a private level (L1, L2 on most) for each
 * thread, a shared one for each L3 group (its threads share it); a level
 * `memtop info` doubts, or one over BANDWIDTH_CREDIBLE_PER_CPU a CPU, is left out
 * and said in notes. Then DRAM: at least machine_dram_floor of the CPUs
 * the largest thread count uses (MACHINE_DRAM_FACTOR x every cache any
 * source claims that they reach together, doubted or not) and BANDWIDTH_DRAM_MIN,
 * at most a quarter of m's memory; cut below the floor by the memory, the
 * row is named by where it sits ("L3+DRAM") and a note says so. Also sets
 * the loaded latency's buffers to the last row's size. Returns the number
 * of notes written (at most nnotes), or -1 with e when not even 1M fits
 * in memory. */
int bandwidth_plan_sizes(struct bandwidth_params *p, const struct machine *m,
			 const struct bandwidth_level *lv, size_t nlv, char notes[][BANDWIDTH_NOTE_LEN], int nnotes,
			 mt_error *e);

/* The sentences the sizes' plan keeps in English (a result file keeps
 * them: a note, a size's from), marked for the catalogue. */
#define BANDWIDTH_NOTE_DOUBTED N_("L%d %s (%s) left out, memtop info doubts it: %s")
#define BANDWIDTH_FROM_HALF N_("half the L%d %s (%s), %s")
#define BANDWIDTH_FROM_GROUP N_("each group of CPUs sharing one (its threads share it)")
#define BANDWIDTH_FROM_THREAD N_("each thread")
#define BANDWIDTH_FROM_CUT N_("%s, cut to %s by --quick")
#define BANDWIDTH_FROM_CUT_LEVEL N_("%s, cut to %s by --quick: %s, no longer %s")
#define BANDWIDTH_FROM_RAISED N_("%s, raised to %s")
#define BANDWIDTH_FROM_CAPPED N_("%s, capped at %s (a quarter of the %s a run may take)")
#define BANDWIDTH_NOTE_TOO_BIG_1                                                               \
	N_("L%d %s (%s) left out: %s a CPU on %d CPU is more than any cache holds; --sizes "    \
	   "measures a size you choose")
#define BANDWIDTH_NOTE_TOO_BIG                                                                 \
	N_("L%d %s (%s) left out: %s a CPU on %d CPUs is more than any cache holds; --sizes "   \
	   "measures a size you choose")
#define BANDWIDTH_NOTE_UNDER                                                                   \
	N_("the last row (%s) is under %d x the caches its threads reach (%s): part of it may " \
	   "be served from a cache, so it is named %s, not DRAM")
#define BANDWIDTH_FORMS                                                                        \
	BANDWIDTH_NOTE_DOUBTED, BANDWIDTH_FROM_HALF, BANDWIDTH_FROM_CUT_LEVEL, BANDWIDTH_FROM_CUT, \
		BANDWIDTH_FROM_RAISED, BANDWIDTH_FROM_CAPPED, BANDWIDTH_NOTE_TOO_BIG_1,         \
		BANDWIDTH_NOTE_TOO_BIG, BANDWIDTH_NOTE_UNDER

/* A note or a size's from, kept in English, in the user's language where
 * the catalogue has it (mt_gettext_stored with BANDWIDTH_FORMS, the
 * machine's (sizes, budgets) and info's (a doubt's reasons)), made
 * printable, into out. Returns out. */
const char *bandwidth_text(char *out, size_t len, const char *stored);

struct plan;

/* p as a plan (machine/plan.h) into out (plan_init made it, for its
 * machine): its sizes with their levels and reasons, its thread counts
 * with their CPUs, the notes, the time. */
void bandwidth_plan_of(const struct bandwidth_params *p, const char notes[][BANDWIDTH_NOTE_LEN],
		       int nnotes, struct plan *out);

/* Keep only the planned sizes whose level list names ("L1,DRAM", any
 * case, comma-separated), in the plan's order (--levels). Returns 0, or -1
 * with e naming a word that is no level of the plan (the plan unchanged). */
int bandwidth_keep_levels(struct bandwidth_params *p, const char *list, mt_error *e);

/* Sizes given by the user (--sizes): all threads' working sets, in order,
 * from "--sizes". Returns 0, or -1 with e (more than BANDWIDTH_MAX_SIZES, below 4K,
 * above 64G, not increasing). */
int bandwidth_set_sizes(struct bandwidth_params *p, const uint64_t *sizes, size_t n,
			mt_error *e);

/* Parse a thread list "1,2,4" (each 1..BANDWIDTH_MAX_THREADS, strictly increasing,
 * at most BANDWIDTH_MAX_TLIST). Returns the count, or -1. */
int bandwidth_parse_threads(const char *s, unsigned *out, size_t cap);

/* Parse a kernel list "read,copy" (names as bandwidth_kernel_name, no
 * repeats) into out in the given order. Returns the count, or -1 with the
 * first bad name in bad (at most len). */
int bandwidth_parse_kernels(const char *s, int *out, size_t cap, char *bad, size_t len);

enum { BANDWIDTH_SPREAD = 0, BANDWIDTH_COMPACT = 1 };

/* Use the n CPUs cpus of m (in any order): their places, the spread
 * order, the thread counts stepping through them (as
 * bandwidth_params_default), the groups. */
void bandwidth_use_cpus(struct bandwidth_params *p, const struct machine *m, const int *cpus,
			int n);

/* Fill p->core, l3 and node for p's CPUs from m's topology (-1 where it
 * cannot say). */
void bandwidth_place_cpus(struct bandwidth_params *p, const struct machine *m);

/* Reorder p's CPUs with their places: BANDWIDTH_SPREAD takes each next CPU from
 * the package with the fewest taken, then the node, the L3 group and the
 * core with the fewest (the second SMT siblings only after every core has
 * one), so the first k threads run on k packages, nodes, L3 groups, cores,
 * as far as there are, whatever nests in what; BANDWIDTH_COMPACT keeps a core's
 * siblings next to each other, in CPU order. Unknown places count as
 * their own. */
void bandwidth_order_cpus(struct bandwidth_params *p, int how);

/* p->groups for p's thread counts: the L3 groups each count's CPUs span. */
void bandwidth_count_groups(struct bandwidth_params *p);

/* Set p's CPUs to the given list (each allowed on m), keeping their order,
 * with their places. Returns 0, or -1 with e naming the first CPU that is
 * not allowed or repeated. */
int bandwidth_set_cpus(struct bandwidth_params *p, const int *list, int n,
		       const struct machine *m, mt_error *e);

/* Where `threads` threads run, in words, into buf: "CPU 1", "CPUs 0,1:
 * separate cores", "CPUs 0,1: SMT siblings of one core", "CPUs 0,1: cores
 * unknown (no topology)", "3 threads on 2 CPUs: oversubscribed". Returns
 * 1 when oversubscribed, else 0. */
int bandwidth_placement(const struct bandwidth_params *p, unsigned threads, char *buf,
			size_t len);

/* The same in the user's language, for people (the run's head): with the
 * job's CPU quota's mark where the threads are over it. */
void bandwidth_placement_said(const struct bandwidth_params *p, unsigned threads, char *buf,
			      size_t len);

/* How a thread's share of a size is laid out: n doubles an array, the
 * arrays' offsets within the thread's slice, the slice's stride in the
 * buffer. */
struct bandwidth_layout {
	size_t n;              /* doubles an array (multiple of BANDWIDTH_UNROLL, >= BANDWIDTH_UNROLL) */
	size_t array_off[3];   /* bytes from the slice start */
	size_t slice_stride;   /* bytes between threads' slices (multiple of 4096) */
	uint64_t pass_bytes;   /* one pass of one thread, STREAM counting */
};

/* The layout of kernel at size sz with threads threads spread over groups
 * L3 groups (0 taken as 1; a per-group size is each group's, shared by
 * its threads). */
void bandwidth_layout(int kernel, const struct bandwidth_size *sz, unsigned threads, unsigned groups,
		      struct bandwidth_layout *out);

/* The L3 groups p's thread count threads spans (p->groups; 1 when not
 * known). */
unsigned bandwidth_groups_of(const struct bandwidth_params *p, unsigned threads);

/* Bytes of buffer the table needs (largest layout over p's sizes, kernels,
 * threads). */
uint64_t bandwidth_table_bytes(const struct bandwidth_params *p);

/* The table buffer's pages (--pages): 4 KB pages for every size (the
 * default: each level's figure then includes what the TLB costs there, as
 * the latency lab's default does), transparent huge pages, or huge pages
 * where the kernel gives them on request (THP in "always" or "madvise"
 * mode), else 4 KB. */
enum { BANDWIDTH_PAGES_4K, BANDWIDTH_PAGES_HUGE, BANDWIDTH_PAGES_AUTO };

/* "4k", "huge", "auto"; NULL out of range. */
const char *bandwidth_pages_name(int pages);

/* The --pages word ("4k", "huge", "auto") or -1. */
int bandwidth_pages_parse(const char *name);

/* The pages asked resolves to under THP mode thp (mt_thp_mode: "always",
 * "madvise", "never", "" none): BANDWIDTH_PAGES_HUGE for huge, and for auto where
 * thp is always or madvise; else BANDWIDTH_PAGES_4K. */
int bandwidth_pages_used(int asked, const char *thp);

/* Bytes of the buffer the worker maps for the table: bandwidth_table_bytes()
 * and a page of slack, rounded up to 2 MB (so huge pages can back it all). */
uint64_t bandwidth_buffer_bytes(const struct bandwidth_params *p);

/* Rough seconds the run takes (table and loaded sweep). */
double bandwidth_estimate_s(const struct bandwidth_params *p);

#endif
