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
 * and JOB_EV_NOTE sentences.
 *
 * This header is the lab's face to the rest of memtop (numa, the registry,
 * the TUI, the tests): its parts are bandwidth_kernels.h, bandwidth_ceiling.h,
 * bandwidth_plan.h, bandwidth_worker.h and bandwidth_result.h, which the
 * lab's own files include as they need them. */
#ifndef MEMTOP_BANDWIDTH_H
#define MEMTOP_BANDWIDTH_H

#include "bandwidth_ceiling.h"
#include "bandwidth_kernels.h"
#include "bandwidth_plan.h"
#include "bandwidth_result.h"
#include "bandwidth_worker.h"

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
