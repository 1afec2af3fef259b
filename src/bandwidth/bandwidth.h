/* bandwidth: how fast each level of the memory hierarchy feeds one core and
 * all cores (after STREAM, likwid-bench and pmbw), and what load latency does
 * while the memory system is busy (after Intel MLC's loaded latency).
 *
 * Kernels (bandwidth_kernels.c), over arrays of doubles:
 *   read         scalar 8-byte loads, eight accumulators, summed
 *   read_vector  the widest vector loads this CPU has (SSE2, AVX2, AVX-512
 *                on x86, chosen at run time; NEON on aarch64), xored (AVX2:
 *                the two halves multiplied word by word and summed, one FMA
 *                consuming two loads)
 *   load         the same loads with nothing consuming them (likwid-bench's
 *                load): what the core's load ports allow; against
 *                read_vector, what consuming a load costs
 *   write        a[i] = s with vector stores
 *   write_nt     the same with non-temporal (streaming) stores, x86 only
 *   copy         a[i] = b[i]              (STREAM's Copy)
 *   copy_nt      the same with streaming stores, x86 only
 *   triad        a[i] = b[i] + s * c[i]   (STREAM's Triad)
 *   triad_nt     the same with streaming stores, x86 only
 * Bytes are counted as STREAM counts them: every array a kernel names moves
 * once a pass (read, load and write 1 array, copy 2, triad 3); the extra read a
 * write-allocate cache makes of a stored line is not counted. That read is
 * the lesson of the _nt kernels: a cached copy moves 3 lines per line
 * copied (the source, the destination read for ownership, the destination
 * written back), a streaming one 2; a cached triad 4, a streaming one 3.
 *
 * Sizes are working sets. A size for a private level (L1, L2: each core has
 * its own) is each thread's working set; a size for a shared level (L3) or
 * DRAM, and every size given with --sizes, is the working set of all threads
 * together, split evenly (as STREAM and likwid-bench -w do).
 *
 * Threads are pinned, thread i on cpus[i % ncpus]; by default the CPUs are
 * ordered one per core first, then their SMT siblings (from /sys topology).
 *
 * A measurement is a job (run/job.h): bandwidth_worker streams
 *   kind BANDWIDTH_EV_TABLE: row = size index, col = kernel (BW_*), value = GB/s
 *     (best try), spread = (second best - best) / best, payload struct
 *     bandwidth_ev_table; a second look comes as JOB_EV_UPDATE with the same
 *     fields, at the end of the row (one size and thread count, every
 *     kernel) before the next row's first cell;
 *   kind BANDWIDTH_EV_LOADED: row = point index, value = ns per load of the
 *     chase's median try (idle: its fastest, as the latency lab takes
 *     points), spread = (slowest - fastest try) / median, payload struct
 *     bandwidth_ev_loaded;
 * and JOB_EV_NOTE sentences. */
#ifndef MEMTOP_BANDWIDTH_H
#define MEMTOP_BANDWIDTH_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "base/jsonio.h"
#include "base/util.h"
#include "info/info.h"
#include "machine/machine.h"
#include "os/sysinfo.h"
#include "run/job.h"
#include "run/runhdr.h"

/* The kernels: memtop's own, then the C library's (BANDWIDTH_FILL: memset of a
 * non-zero byte; BANDWIDTH_FILL_ZERO: memset of zeros; BANDWIDTH_COPY_LIB: memcpy), as a
 * program calls them, so that the lab answers whether a hand-written
 * streaming store beats what the library already does. */
enum bandwidth_kernel {
	BANDWIDTH_READ, BANDWIDTH_READ_VECTOR, BANDWIDTH_LOAD, BANDWIDTH_WRITE, BANDWIDTH_WRITE_NT, BANDWIDTH_COPY, BANDWIDTH_COPY_NT, BANDWIDTH_TRIAD,
	BANDWIDTH_TRIAD_NT, BANDWIDTH_FILL, BANDWIDTH_FILL_ZERO, BANDWIDTH_COPY_LIB,
	BANDWIDTH_R2W1, BANDWIDTH_R2W1_NT, BANDWIDTH_R3W1, BANDWIDTH_R3W1_NT, BANDWIDTH_NKERNELS
};

/* The kernels of the table by default (every one up to copy_lib); the
 * reads:writes mixes after them (bandwidth_mixes.c: r2w1, r3w1 and their
 * streaming stores' _nt) are measured when asked by name (--kernels, memtop
 * run numa --mix). */
#define BANDWIDTH_NTABLE (BANDWIDTH_COPY_LIB + 1)

/* The doubles of each array a mix works on at a time, its copy then its
 * read (16 KB: a span's stores and loads reach memory together). */
#define BANDWIDTH_MIX_SPAN 2048u

/* The byte BANDWIDTH_FILL writes for the kernel scalar s: never 0 (fill_zero's),
 * different for each try's s (a try that wrote nothing fails its check). */
#define BANDWIDTH_FILL_BYTE(s) ((unsigned char)(0x40 + ((unsigned)(s) & 0x3f)))

enum bandwidth_isa { BANDWIDTH_ISA_SCALAR, BANDWIDTH_ISA_SSE2, BANDWIDTH_ISA_AVX2, BANDWIDTH_ISA_AVX512, BANDWIDTH_ISA_NEON, BANDWIDTH_NISA };

enum { BANDWIDTH_EV_TABLE = 1, BANDWIDTH_EV_LOADED };
/* The kinds of the worker's JOB_EV_NOTEs: what pages backed the table's
 * buffer (value: its bytes on huge pages; the text says it all); the load
 * ports' canary (payload struct bandwidth_ev_ports; value: its GB/s). */
enum { BANDWIDTH_NOTE_PAGES = 1, BANDWIDTH_NOTE_PORTS = 2 };

/* The load ports' canary: the load kernel of the run's ISA over
 * BANDWIDTH_PORTS_BYTES (in every L1), one thread on the one-thread cells' CPU,
 * measured as a cell is, at the core clock around its best try, once
 * before the table and once after it: the core's load rate. Under
 * BANDWIDTH_PORTS_SHARED of the core's load ceiling, its load ports were shared
 * (a tenant on the core's SMT sibling halves them) or slowed during the
 * run (bandwidth_ports_verdict). Measured on the Emerald Rapids guest
 * (each vCPU its own core: no sibling to load), at 3.59 GHz: AVX-512
 * 0.93-0.94 of 128, AVX2 0.86-0.87 of 96, the same beside stress-ng on
 * the other vCPU as beside builds; a sibling running loads takes about
 * half the ports, so 0.70 sits between the two. */
#define BANDWIDTH_PORTS_BYTES 4096
#define BANDWIDTH_PORTS_SHARED 0.70
struct bandwidth_ev_ports {
	int when;          /* 0 before the table, 1 after it */
	double gbs;        /* the canary's best try */
	double ghz;        /* the core clock around that try (0: not measured) */
	int preempted;     /* times that try lost its CPU (a busy host): such a
			      reading gives no verdict */
};
enum { BANDWIDTH_CHECKED = 1, BANDWIDTH_TWICE = 2, BANDWIDTH_UNEVEN = 4 }; /* bandwidth_ev_table's flags */

/* The payload of a BANDWIDTH_EV_TABLE cell (run/job.h: JOB_PAYLOAD_PUT/GET). */
struct bandwidth_ev_table {
	int thread_index;  /* index into params.threads */
	int tries;         /* tries measured */
	double canary;     /* canary factor: 1.0 = the cores were as fast as at
			      their best moment */
	unsigned flags;    /* BANDWIDTH_CHECKED: the arrays held what the kernel
			      computes (else WRONG); BANDWIDTH_TWICE: measured a second
			      time (doubtful first); BANDWIDTH_UNEVEN: in the best try
			      the threads ended more than a fifth of the try
			      apart (one was held up) */
	double pass_bytes; /* bytes a pass, all threads (STREAM's counting) */
	int preempted;     /* times the measuring threads lost their CPU to
			      another task during the best try (time slicing on
			      a busy host: the figure is then low) */
	double ghz;        /* the core clock (GHz) measured right before and
			      after the best try, averaged; 0 not measured (a
			      cell of more than one thread) */
};

/* The payload of a BANDWIDTH_EV_LOADED cell. */
struct bandwidth_ev_loaded {
	double gbs;        /* GB/s the loaders moved during the same try (0 idle) */
	double delay_ns;   /* ns between the loaders' bursts; -1 idle (loaders
			      stopped) */
	int tries;         /* tries run */
	int preempted;     /* tries in which the chaser lost its CPU to another
			      task (the point is taken from the others when
			      there are any) */
};

#define BANDWIDTH_MAX_SIZES 12
#define BANDWIDTH_MAX_TLIST 16     /* thread counts in one run */
#define BANDWIDTH_MAX_THREADS 1024 /* the largest thread count */
#define BANDWIDTH_MAX_CPUS MT_MAX_CPUS
#define BANDWIDTH_MAX_LOADED 24    /* points of the loaded-latency sweep */
#define BANDWIDTH_UNROLL 64        /* doubles: every kernel takes n in multiples of this */
#define BANDWIDTH_ALIGN 64         /* bytes: every array starts on a 64-byte boundary */

/* ---- kernels (bandwidth_kernels.c) --------------------------------------- */

/* reps passes over n doubles (n a multiple of BANDWIDTH_UNROLL, arrays
 * BANDWIDTH_ALIGN-aligned). The scalar read returns the wrap-around sum of the
 * 64-bit words read over all passes, the vector read the sum over passes of
 * each pass's xor of them (AVX2's: of the first half's doubles times the
 * second half's, an exact integer for bandwidth_fill's words) (the caller
 * sinks it, bandwidth_check checks it); the others return 0. b and c
 * are NULL where the kernel has no such array. */
typedef uint64_t (*bandwidth_pass_fn)(double *a, const double *b, const double *c, size_t n,
				 double s, size_t reps);

/* "read", "read_vector", "load", "write", "write_nt", "copy", "copy_nt",
 * "triad", "triad_nt", "fill", "fill_zero", "copy_lib", "r2w1", "r2w1_nt",
 * "r3w1", "r3w1_nt"; NULL out of range. */
const char *bandwidth_kernel_name(int kernel);

/* What a share of a cell's ceiling (bandwidth_ceiling) above 1 means
 * ("; above it: ..."), or "" for a share at or under 1.05 (slack for the
 * clock's own error). */
const char *bandwidth_ceiling_doubt(double share);

/* The kernel called name, or -1. */
int bandwidth_kernel_parse(const char *name);

/* Arrays a kernel moves a pass: 1 (read, read_vector, load, write, write_nt), 2
 * (copy, copy_nt), 3 (triad, triad_nt, and the mixes r2w1, r3w1 and their
 * _nt, which touch each double of three arrays once a pass); 0 out of range. */
unsigned bandwidth_kernel_arrays(int kernel);

/* Bytes one pass over n doubles counts, STREAM's way: arrays x n x 8. */
uint64_t bandwidth_kernel_bytes(int kernel, size_t n);

/* "scalar", "SSE2", "AVX2", "AVX-512", "NEON"; NULL out of range. */
const char *bandwidth_isa_name(int isa);

/* The ISA called name ("scalar", "sse2", "avx2", "avx512", "neon", any case,
 * "avx-512" too), or -1. */
int bandwidth_isa_parse(const char *name);

/* Bytes of one load of the ISA's vector register (8 for scalar). */
unsigned bandwidth_isa_width(int isa);

/* How many ops isa's read_vector runs beside each 16 of its loads, each as
 * wide as a load, and their instruction in *op ("vpternlogq" for AVX-512,
 * 8; "vfmadd231pd" for AVX2, 8; an xor a load for scalar, SSE2 and NEON,
 * 16); 0 (*op untouched) for an ISA out of range. */
unsigned bandwidth_read_ops(int isa, const char **op);

/* 1 when this build and this CPU can run the ISA's kernels (the build has
 * them, and the CPU says so at run time), else 0. */
int bandwidth_isa_supported(int isa);

/* The widest supported ISA (BANDWIDTH_ISA_SCALAR at worst). */
int bandwidth_isa_best(void);

/* The function of kernel for isa: read is always the scalar read; the other
 * kernels use isa's registers. NULL when isa lacks the kernel (write_nt,
 * copy_nt, triad_nt without streaming stores: scalar, NEON) or is not supported here. */
bandwidth_pass_fn bandwidth_kernel_fn(int kernel, int isa);

/* The function of mix kernel (BANDWIDTH_R2W1 .. BANDWIDTH_R3W1_NT) for isa
 * (bandwidth_mixes.c): the ISA's copy (copy_nt for the _nt mixes) and the
 * scalar read in turn on spans of BANDWIDTH_MIX_SPAN doubles; r2w1 copies
 * a <- b and reads c on every span, r3w1 does so on three spans of four
 * and reads a, b and c on the fourth. NULL for another kernel, or where
 * isa lacks that copy. Its sum is every read's, wrapping around. */
bandwidth_pass_fn bandwidth_mix_fn(int kernel, int isa);

/* After reps passes of mix kernel over the arrays bandwidth_fill set: 1
 * when a holds b on the copied spans and what the fill left on r3w1's
 * read spans, and sum is reps times the words of every span read (as the
 * scalar read adds them), else 0 (0 too for a kernel that is no mix). */
int bandwidth_mix_check(int kernel, const double *a, const double *b, const double *c, size_t n,
			uint64_t sum, size_t reps);

/* ---- ceilings: what the core allows (bandwidth_ceiling.c) ---------------- */

/* One microarchitecture's data paths, bytes a cycle of one core, each
 * from the public source in `source`; 0 where the sources give no figure. */
struct bandwidth_core {
	const char *name;      /* "Golden Cove" */
	const char *cores;     /* which products have it, in words */
	unsigned loads;        /* scalar loads a cycle */
	unsigned vloads;       /* vector loads a cycle */
	unsigned load_w;       /* the widest load's bytes (wider ones are split) */
	unsigned load_bpc;     /* all loads' bytes a cycle at most */
	unsigned stores;       /* stores a cycle */
	unsigned store_w, store_bpc;
	unsigned l2_bpc;       /* L2 to L1 fill */
	unsigned l3_bpc;       /* L3 to L2 fill */
	const char *source;
};

/* Which CPU this is: x86 CPUID vendor, family and model (from
 * /proc/cpuinfo, which shows them decoded), or the Arm MIDR's implementer
 * and part. */
struct bandwidth_cpu_id {
	char vendor[16];       /* "GenuineIntel", "AuthenticAMD"; "" on Arm */
	unsigned family, model;
	unsigned implementer, part;
	int amx;               /* x86 flags name amx_tile (Sapphire Rapids and later) */
};

/* Read the first CPU's block of /proc/cpuinfo text ("vendor_id", "cpu
 * family", "model"; "CPU implementer", "CPU part") into id. Returns 0, or -1
 * (id zero) when the text names neither an x86 vendor nor an implementer. */
int bandwidth_cpu_id_parse(const char *text, struct bandwidth_cpu_id *id);

/* This machine's (/proc/cpuinfo). Returns 0, or -1 with id zero. */
int bandwidth_cpu_id(struct bandwidth_cpu_id *id);

/* "GenuineIntel family 0x6 model 0x8f", "MIDR implementer 0x41 part 0xd0c"
 * or "an unknown CPU". */
void bandwidth_cpu_id_text(const struct bandwidth_cpu_id *id, char *buf, size_t len);

/* The table's core for id, or NULL: no ceiling known for this core. An
 * Intel CPU whose flags name AMX is taken for a Golden Cove server core
 * whatever its model says: a guest's CPUID model is the hypervisor's
 * choice (a KVM guest on Sapphire Rapids class hosts was seen reporting
 * model 0xa7, Rocket Lake, which has no AMX). */
const struct bandwidth_core *bandwidth_core_find(const struct bandwidth_cpu_id *id);

/* The table's core called name ("Zen 5"), or NULL. */
const struct bandwidth_core *bandwidth_core_named(const char *name);

/* The ceiling of kernel at level ("L1", "L2", "L3"; anything else has
 * none) with vector registers of width bytes, in bytes a cycle of one core
 * counted as the kernels count (STREAM's way): at L1 the load ports
 * (read), the store ports (write), both at once (copy: 2 / max(1/load,
 * 1/store); triad: 3 / max(2/load, 1/store)); at L2 and L3 the lesser of
 * that and the level's fill (a cached store's line is filled too). 0 when
 * there is none, *why saying why ("streaming stores bypass the caches",
 * "no store figure for this core", ...) or, when there is, what limits it
 * ("the L1 ports", "the L2 fill"). */
double bandwidth_ceiling(const struct bandwidth_core *c, int kernel, const char *level, unsigned width,
			 const char **why);

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

struct plan;

/* p as a plan (machine/plan.h) of machine m: its sizes with their levels
 * and reasons, its thread counts with their CPUs, the notes, the time. */
void bandwidth_plan_of(const struct bandwidth_params *p, const struct machine *m,
		       char notes[][BANDWIDTH_NOTE_LEN], int nnotes, struct plan *out);

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

/* ---- measuring (bandwidth.c, bandwidth_loaded.c) ------------------------- */

/* The job worker: arg is a struct bandwidth_params that outlives the job.
 * Measures the table (unless loaded == 2), then the loaded latency (when
 * loaded). Returns 0 (also when cancelled), -1 with e set (memory, threads). */
int bandwidth_worker(job_t *job, void *arg, mt_error *e);

/* Fill the arrays of one thread's slice the way the checks expect: a[i] =
 * -1 - i mod 1000, b[i] = i mod 1024, c[i] = (i / 8) mod 512. */
void bandwidth_fill(double *a, double *b, double *c, size_t n);

/* The doubles of each array the worker fills at once before a cell's
 * tries, looking at its job between two stretches: a whole period of
 * bandwidth_fill's words (1000, 1024 and 8 x 512 divide it), so that a
 * stretch goes on where the one before ended; about 4 MB. */
#define BANDWIDTH_FILL_STRETCH 512000u

/* After reps passes of kernel (with isa's registers) over the arrays
 * bandwidth_fill set (s as given, sum as the kernel returned): 1 when the
 * arrays hold what the kernel computes (copy: a == b; triad: a == b + s * c
 * exactly; writes: a == s; read: sum is reps times the sum of a's words;
 * read_vector: reps times the sum of the xors of each 8 MB chunk's words,
 * the chunks a big array is read in, wrapping around; with AVX2, reps
 * times the sum over each chunk of its first half's words times its second
 * half's, word by word; load, whose loads leave nothing to see: sum 0 and a
 * as bandwidth_fill left it), else 0. */
int bandwidth_check(int kernel, int isa, const double *a, const double *b, const double *c,
		    size_t n, double s, uint64_t sum, size_t reps);

/* The loaded-latency sweep alone (the worker calls it after the table):
 * Sattolo's random cycle over p->chase_bytes at p->chase_stride (4 KB
 * pages), chased on cpus[0] while the other CPUs (up to ncpus - 1) stream
 * over their share of p->loader_bytes in 8 KB bursts (loads, or stores
 * with loader_write) with each delay between bursts; first idle (no
 * loaders), then p->delays in order. Emits BANDWIDTH_EV_LOADED cells, rows 0 (idle)
 * .. ndelays; progress runs from units0 towards units_total. Returns 0
 * (cancelled too: *cancelled set), -1 with e. With fewer than 2 CPUs it
 * emits a note and returns 0. */
int bandwidth_loaded(job_t *job, const struct bandwidth_params *p, double units0,
		     double units_total, int *cancelled, mt_error *e);

/* Bytes of the loaders' buffers the sweep of p uses (a share of
 * p->loader_bytes for each of its ncpus - 1 loaders, whole 8 KB bursts,
 * one burst at least): what a caller's p->loader_buf must hold. */
uint64_t bandwidth_loader_bytes(const struct bandwidth_params *p);

/* The chaser's cycle and loop are chase_build_cycle() and chase_walk()
 * (base/chase.h), the latency lab's random chase. */

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

/* Whether root is a bandwidth result ("experiment": "bandwidth"). */
int bandwidth_result_is(const cJSON *root);

/* Read a result back (strict: a missing or mistyped field fails with "FILE:
 * FIELD ..."). Returns 0, or -1 with e set. */
int bandwidth_result_from_json(const cJSON *root, const char *file, struct bandwidth_result *r,
			       mt_error *e);

/* The bandwidth result's result kind (bandwidth_kind.c; run/result_kind.h). */
struct result_kind;
extern const struct result_kind kind_bandwidth;
/* Its batch mode, `memtop run bandwidth` (bandwidth_batch.c), for result/result.c's
 * registry (run/experiment.h). */
struct experiment;
extern const struct experiment exp_bandwidth;

/* memtop plot (bandwidth_plot.c): each of in[0..n) (n 1 or 2, bandwidth
 * results) roofline-like: the one-thread GB/s of each kernel at each level
 * as points on a log scale shared by the files, each kernel's ceiling at
 * the level at the run's clock as a line above its point, the point's
 * share of it beside the point; a legend of the kernels and what the
 * ceilings are (or why there are none). Into s (svg_begin not yet
 * called). Returns 0, or -1 out of memory. */
struct result_file;
struct svg;
int bandwidth_plot(const struct result_file *in, size_t n, struct svg *s);

#endif
