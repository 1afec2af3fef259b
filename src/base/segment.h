/* segment: reading a staircase curve into levels.
 *
 * The curves are a cost over working-set size: the load latency of a
 * pointer chase (a latency run, or an imported lmbench, tinymembench or
 * ramlat table), or the time per access of one mountain column. A cache
 * level is a plateau of that cost; between plateaus the cost rises as the
 * working set outgrows a cache. seg_levels() reads the curve in phases,
 * each a function of segment.c:
 *
 *  1. smooth: the median of three neighbours of ln(cost), so one noisy
 *     point can neither start nor end a level (a monotone run is kept);
 *  2. fit: the penalised piecewise-constant least-squares fit of ln(cost),
 *     by dynamic programming over every split (optimal partitioning). Each
 *     point weighs the octave of sizes it stands for, so a curve with eight
 *     sizes per doubling and one with one are read alike; every extra level
 *     costs `penalty`;
 *  3. dips: a level not slower than the one before joins it (levels are
 *     strictly slower as they grow);
 *  4. transitions: a level between two others that the step between them
 *     explains is dropped, its points left to the step. The bound: while a
 *     working set of S bytes outgrows a cache of C bytes, a cyclic chase
 *     misses at least 1 - C/S of its loads whatever the replacement policy
 *     (the optimal one keeps C/S of them), so between levels a and b the
 *     cost at S is at least a + (b - a)(1 - C/S), with C below the first
 *     size that left level a. A point more than `tolerance` (in ln) under
 *     that bound needs a level of its own; the level the step explains
 *     best goes first, then the rest are judged again. The step from a
 *     level goes to the next level at least `min_ratio` above it when the
 *     ones nearer are shorter than it (a brief rise above a plateau, such
 *     as page walks past an L3, is no level the plateau steps to);
 *  5. merge: neighbouring levels less than `min_ratio` apart merge, the
 *     closest first (each cache level costs at least that much more than
 *     the one before it; smaller steps are TLB misses, page walks, noise),
 *     but a shallow step (at least `shallow`) stays where the curve is flat
 *     on both sides of it over an octave (each side's points within that
 *     octave vary by at most a third of the step) and a cache can end
 *     between its two sides (a size of at most four significant bits from
 *     1 KB, as 48K, 1.25M, 1.5M, 12M, 24M are; a noise bump or a ramp is
 *     flat on neither side);
 *  6. edges: a level's size is the last size before the curve passes the
 *     geometric middle of its cost and the next level's (a slow rise is one
 *     step, read at its middle, not where it starts).
 * Pure functions on arrays; no allocation. */
#ifndef MEMTOP_SEGMENT_H
#define MEMTOP_SEGMENT_H

#include <stddef.h>
#include <stdint.h>

#define SEG_MAX_POINTS 256

struct seg_params {
	double penalty;   /* per extra level, in ln(cost)^2 x octaves */
	double min_ratio; /* neighbouring levels differ at least this much */
	double tolerance; /* ln: how far under a step's bound a point may lie */
	int transitions;  /* 1: phase 4 drops the levels a step explains; 0: keeps every
			   * level of the fit (for reading small steps, such as a TLB's) */
	double shallow;   /* phase 5 keeps a step from this ratio up to min_ratio where
			   * both sides are flat over an octave and a cache could end
			   * there (0: none kept) */
};

/* One level of a curve. Indices refer to the caller's arrays. */
struct seg_level {
	size_t i0, i1; /* its first and last point (a transition's points belong to no level) */
	size_t edge;   /* its size: the last point before the step to the next level
			* (i1 for the last level) */
	double cost;   /* the median of its points' costs */
};

/* A shallow step's least ratio, for seg_params.shallow where a curve's
 * pages add no step of their own (a small core's L3 can answer 1.3-2x its
 * L2's latency; on 4 KB pages a first-level TLB's reach steps alike). */
#define SEG_SHALLOW 1.3

/* The parameters for latency curves: penalty 0.07, min_ratio 2 (each cache
 * level at least twice as slow as the one before), tolerance 0.15,
 * transitions dropped, no shallow step kept (the caller sets SEG_SHALLOW
 * where the pages cannot step). */
void seg_params_latency(struct seg_params *p);

/* The parameters for mountain columns (time per access): the same penalty
 * and tolerance, min_ratio 1.5 (the prefetchers compress a mountain's
 * steps: its L2 and L3 differ by 1.5-2x where their latencies differ by 4x). */
void seg_params_mountain(struct seg_params *p);

/* out[i] = the median of v[i-1], v[i], v[i+1] (the ends copied). */
void seg_smooth(const double *v, size_t n, double *out);

/* The octave each size stands for: half the log2 distance to each neighbour
 * (a whole one at the ends). sizes increasing, n >= 2. */
void seg_octaves(const uint64_t *sizes, size_t n, double *w);

/* The penalised fit of x[0..n) with weights w (phase 2): the pieces that
 * minimise the weighted squared error plus penalty per piece. start[k] gets
 * the first index of piece k (start[0] = 0). Returns the piece count (at
 * most cap; 0 when n is 0). */
size_t seg_fit(const double *x, const double *w, size_t n, double penalty, size_t *start,
	       size_t cap);

/* The levels of cost[0..n) over sizes[0..n), smallest first (phases 1-6).
 * Points whose cost is not a positive finite number are skipped (a partial
 * run, a stride whose first sizes are missing); sizes must increase.
 * Returns the number of levels (the last is what lies beyond every step:
 * memory, on a curve that reaches it), 0 when fewer than 2 points are
 * usable. At most cap levels are written. */
size_t seg_levels(const uint64_t *sizes, const double *cost, size_t n, const struct seg_params *p,
		  struct seg_level *out, size_t cap);

#endif
