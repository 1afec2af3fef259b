/* latency_levels: reading latency curves into cache levels, TLB steps, way
 * sizes and memory. The phases are the functions of latency_detect_curves()
 * in order; the method is in latency.h and memtop(1). */
#include "config.h"

#include "base/i18n.h"

#include "latency.h"
#include "base/segment.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_4K 4096u
#define TLB_SLOWER 1.10     /* 4 KB pages at least 10 % slower than huge pages from here, */
#define TLB_STAYS 1.05      /* and never again within 5 % of them further on */
#define TLB_SHARE 0.10      /* half the page stride at least 10 % faster than the page stride, */
#define TLB_STEP_LO 0.5     /* and the page stride's step 0.5 .. 1.5 times the miss that */
#define TLB_STEP_HI 1.5     /* difference says (twice it) */
#define TLB_PAGES_MAX (32ull << 20) /* a TLB reaches at most 8192 4 KB pages: a later
				       * gap between the page sizes is the walks' own
				       * misses (their tables leave the caches) */
#define TLB_SAME 1.5        /* a cache step this close to a TLB's reach is the TLB's */
#define WINDOW_OCTAVES 0.5  /* a step's latency before and after: points this close */
#define WAY_NEAR 1.5        /* a stride shows a step within this factor of its size */
#define WAY_MAX_WAYS 64     /* way bounds implying more ways are not believed */
#define WALK_SHIFT 2.25  /* past a TLB's reach a walk adds at most about one load from
			   * the level the data is in (its tables are 512x smaller) */
#define WALK_FROM (2ull << 20) /* a second-level TLB reaches at least 512 4 KB pages */
#define WALK_APART 3.0   /* memory at least this many times the last cache's latency */
#define PTE_BYTES 8         /* a 4 KB page's entry in the last page-table level: the
			     * tables of S bytes hold S / 512 bytes of entries */
#define WALK_LOADS 4        /* a 4 KB-page walk reads at most one entry per table level:
			     * 4 on x86-64 and arm64 (48-bit), 3 or 4 on RISC-V (Sv39,
			     * Sv48); page-walk caches make it fewer, never more */

/* What the phases share. */
struct reader {
	const struct latency_curves *c;
	double offset;              /* added before reading: LATENCY_L1_NOMINAL_NS for over-L1 ns */
	double main[LATENCY_MAX_SIZES]; /* the curve the caches are read from, offset added */
	const double *small;        /* the 4 KB-page random chase when both exist, else NULL */
	const double *huge;         /* the huge-page one */
	struct seg_level seg[LATENCY_MAX_LEVELS];
	size_t nseg;
	size_t walk_edge, walk_next; /* a walk step (walk_steps): the last size before it and
				     * the first after (indices), walk_ns what it adds; */
	double walk_ns;             /* walk_edge 0 and walk_ns 0 when none */
	size_t shifted_from;        /* walk_shifted_edge: the last cache's edge before it read
				     * on over walk-raised points (index + 1; 0 none) */
};

/* ---- phase 1: the curve the caches are read from ----------------------- */

static int choose_main(const struct latency_curves *c, struct reader *rd,
		       struct latency_levels *out)
{
	const double *src = NULL;
	size_t n = c->nsizes < LATENCY_MAX_SIZES ? c->nsizes : LATENCY_MAX_SIZES;
	rd->offset = c->random && c->over_l1 ? LATENCY_L1_NOMINAL_NS : 0;
	if (c->random && c->other) {
		rd->huge = c->huge == LATENCY_HUGE_ON ? c->random : c->other;
		rd->small = c->huge == LATENCY_HUGE_ON ? c->other : c->random;
		src = rd->huge;
		mt_strlcpy(out->curve, "random chase, huge pages", sizeof out->curve);
	} else if (c->random) {
		src = c->random;
		mt_strlcpy(out->curve, "random chase", sizeof out->curve);
	} else if (c->nstrides > 0) {
		src = c->ns[c->nstrides - 1]; /* the least hidden by the prefetchers */
		mt_snprintf(out->curve, sizeof out->curve, "fixed stride %u",
			    c->strides[c->nstrides - 1]);
	}
	if (!src)
		return -1;
	for (size_t i = 0; i < n; i++) {
		rd->main[i] = src[i] + rd->offset;
		if (isfinite(src[i]) && !out->first_size)
			out->first_size = c->sizes[i];
		if (isfinite(src[i]))
			out->last_size = c->sizes[i];
	}
	out->over_l1 = c->random && c->over_l1;
	out->small_pages_only = c->huge == LATENCY_HUGE_OFF && !(c->random && c->other);
	return 0;
}

/* ---- phase 2: cache levels and memory ----------------------------------- */

static double to_cycles(const struct latency_curves *c, double ns)
{
	return c->ghz > 0 ? ns * c->ghz : 0;
}

/* The median of v over the sizes in [lo, hi] (NAN when none is measured). */
static double median_between(const struct latency_curves *c, const double *v, double lo,
			     double hi)
{
	double t[LATENCY_MAX_SIZES];
	size_t n = 0;
	for (size_t i = 0; i < c->nsizes && i < LATENCY_MAX_SIZES; i++)
		if ((double)c->sizes[i] >= lo && (double)c->sizes[i] <= hi && isfinite(v[i]))
			t[n++] = v[i];
	return mt_median(t, n);
}

/* The first measured index after i on the main curve (n when none). */
static size_t next_point(const struct reader *rd, size_t i, size_t n)
{
	for (i++; i < n && !isfinite(rd->main[i]); i++)
		;
	return i;
}

/* What memory's latency includes: page walks on 4 KB pages, not on huge
 * pages or in TLB-local groups; unknown when the pages are not stated. */
static int memory_walks(const struct reader *rd)
{
	const struct latency_curves *c = rd->c;
	if (c->random && c->tlb_locality)
		return LATENCY_WALKS_LOCAL;
	if (rd->huge && rd->huge != rd->small) /* read from the huge-page chase */
		return LATENCY_WALKS_HUGE;
	return c->huge == LATENCY_HUGE_ON	 ? LATENCY_WALKS_HUGE
	       : c->huge == LATENCY_HUGE_OFF ? LATENCY_WALKS_INCLUDED
					 : LATENCY_WALKS_UNKNOWN;
}

/* Memory's latency: the median over the octave after the first one past
 * the last cache's step (the first still holds the step's tail), or over
 * the first when the curve ends before; where that window starts and ends,
 * its points' lowest and highest, how many, and what they include. */
static void memory_window(const struct reader *rd, struct latency_levels *out, size_t from,
			  size_t last, size_t n)
{
	const struct latency_curves *c = rd->c;
	double lo = (double)c->sizes[from], hi;
	if ((double)c->sizes[last] >= 4 * lo)
		lo *= 2; /* the octave after the first, past the step's tail */
	hi = 2 * lo;
	out->memory_ns = median_between(c, rd->main, lo, hi) - rd->offset;
	out->memory_at = 0;
	out->memory_lo_ns = INFINITY;
	out->memory_hi_ns = -INFINITY;
	for (size_t i = from; i < n && (double)c->sizes[i] <= hi; i++) {
		if (!isfinite(rd->main[i]) || (double)c->sizes[i] < lo)
			continue;
		if (!out->memory_at)
			out->memory_at = c->sizes[i];
		out->memory_to = c->sizes[i];
		out->memory_lo_ns = fmin(out->memory_lo_ns, rd->main[i] - rd->offset);
		out->memory_hi_ns = fmax(out->memory_hi_ns, rd->main[i] - rd->offset);
		out->memory_points++;
	}
	out->memory_walks = memory_walks(rd);
}

/* Whether the curve reaches memory's plateau at its end: its points over
 * the last octave (from..last; each the least of it and its neighbours:
 * noise only adds, a spike is no climb) vary by at most LATENCY_MEMORY_FLAT (a curve
 * that stops inside a step climbs more: 77..143 ns over 2.5..3 MB),
 * or its last point reads at least LATENCY_MEMORY_REF of what memory read
 * elsewhere in the run (a probe past the caches, itself as slow as memory
 * is). */
static int memory_settled(const struct reader *rd, size_t from, size_t last, size_t n)
{
	const struct latency_curves *c = rd->c;
	double lo = INFINITY, hi = -INFINITY, span = 0, top = (double)c->sizes[last];
	if (c->memory_ref_ns >= LATENCY_MEMORY_NS &&
	    rd->main[last] - rd->offset >= LATENCY_MEMORY_REF * c->memory_ref_ns)
		return 1;
	for (size_t i = from, prev = n; i < n && i <= last; prev = i, i = next_point(rd, i, n)) {
		size_t nx = next_point(rd, i, n);
		double v = rd->main[i];
		if (!isfinite(v) || (double)c->sizes[i] < top / 2)
			continue;
		if (prev < n && (double)c->sizes[prev] >= top / 2 && nx <= last)
			/* the least of three: noise only adds, a spike is no climb */
			v = fmin(v, fmin(rd->main[prev], rd->main[nx]));
		lo = fmin(lo, v);
		hi = fmax(hi, v);
		span = fmax(span, log2(top / (double)c->sizes[i]));
	}
	return span >= 1 - 1e-9 && hi <= LATENCY_MEMORY_FLAT * lo;
}

/* Memory: from the first size past the last cache's step, its latency the
 * median over the octave from there; and where the curve ends. A last
 * plateau faster than LATENCY_MEMORY_NS is not memory (a curve that ends
 * early), nor one the curve has not settled on (memory_settled): then
 * memory_unreached, the same figures. */
static void read_memory(struct reader *rd, struct latency_levels *out, size_t n)
{
	const struct latency_curves *c = rd->c;
	size_t from = next_point(rd, rd->seg[rd->nseg - 2].edge, n), last = from;
	if (from >= n)
		return;
	for (size_t i = from; i < n; i++)
		if (isfinite(rd->main[i]))
			last = i;
	/* a last plateau faster than any memory is a cache the curve ends in; one
	 * as slow as memory that the curve has not settled on, a level it ends in */
	out->memory_ref_ns = c->memory_ref_ns;
	out->memory_unreached = rd->seg[rd->nseg - 1].cost < LATENCY_MEMORY_NS;
	if (!out->memory_unreached && !memory_settled(rd, from, last, n))
		out->memory_unreached = out->memory_rising = 1;
	out->has_memory = !out->memory_unreached;
	out->memory_from = c->sizes[from];
	memory_window(rd, out, from, last, n);
	out->memory_cycles = to_cycles(c, out->memory_ns);
	out->memory_last_size = c->sizes[last];
	out->memory_last_ns = rd->main[last] - rd->offset;
}

/* Whether the main curve's pages can add no step of their own: huge pages
 * (said, or the huge-page chase of the two) or a chase in TLB-local groups.
 * On 4 KB pages, or where the pages are not said, a first-level TLB's reach
 * (16-96 entries: 64-384 KB) steps the latency by a few cycles, which a
 * shallow cache step cannot be told from. */
static int pages_step_free(const struct reader *rd)
{
	const struct latency_curves *c = rd->c;
	if (c->random && c->tlb_locality)
		return 1;
	if (rd->huge && rd->huge != rd->small)
		return 1;
	return c->huge == LATENCY_HUGE_ON;
}

/* A step on 4 KB pages alone (or where the file does not say its pages:
 * ramlat, an old tinymembench) may be a second-level TLB's reach instead of
 * a cache's end, and its shape tells which (issue 36): past a TLB's reach
 * every load also walks the page tables, which ADDS a constant to whatever
 * cache the data is still in (the curve past the step is the same cache's
 * plateau shifted up, and it climbs again where that cache really ends);
 * the next cache level MULTIPLIES the latency (at least min_ratio, 2x,
 * slower than this one, a cost of its own that the faster caches do not
 * bound). What a walk can add is bounded by the curve itself, never by
 * known sizes: a reach of S bytes is mapped by S / 512 bytes of last-level
 * entries (the levels above are 512x smaller again), so where the cache
 * below this one holds them, a walk is at most WALK_LOADS loads from that
 * cache. So the step from plateau k to k + 1 (sizes both read from the
 * curve) is a walk's when
 *   - the pages can step (pages_step_free: 4 KB pages said, or not said,
 *     and no huge-page curve beside it),
 *   - plateau k is a cache (under LATENCY_MEMORY_NS) with a faster cache below,
 *   - S, its last size, is within a TLB's reach (TLB_PAGES_MAX) and S / 512
 *     fits in the cache below (the walk's tables sit there),
 *   - the rise (k + 1 less k) is at most WALK_LOADS times the latency of
 *     that cache below (an added walk, not a multiple of its own), and
 *   - the curve rises again after k + 1 (the cache behind the walk ends
 *     there: without that there is nothing to tell the two apart).
 * Such a step is labelled a TLB (its reach S, S / 4 KB entries, the rise
 * as a miss's cost), plateaus k and k + 1 are one cache (its size where
 * the shifted plateau ends, its latency plateau k's, without walks), and
 * the finder goes on behind it. One walk step per curve: a second-level
 * TLB's (a first-level TLB's miss is a few cycles, under any cache step). */
static void walk_steps(struct reader *rd)
{
	const struct latency_curves *c = rd->c;
	size_t n = c->nsizes < LATENCY_MAX_SIZES ? c->nsizes : LATENCY_MAX_SIZES;
	if (pages_step_free(rd) || !c->random)
		return;
	for (size_t k = 1; k + 2 < rd->nseg; k++) {
		const struct seg_level *below = &rd->seg[k - 1], *at = &rd->seg[k],
				       *past = &rd->seg[k + 1];
		uint64_t reach = c->sizes[at->edge], tables = reach / (PAGE_4K / PTE_BYTES);
		double rise = past->cost - at->cost;
		if (at->cost >= LATENCY_MEMORY_NS)
			return; /* memory from here: no cache for a walk to add to */
		if (reach > TLB_PAGES_MAX || tables > c->sizes[below->edge] ||
		    rise > WALK_LOADS * below->cost)
			continue;
		rd->walk_edge = at->edge;
		rd->walk_next = next_point(rd, at->edge, n);
		if (rd->walk_next >= n)
			rd->walk_next = past->i0;
		rd->walk_ns = rise;
		rd->seg[k].i1 = past->i1;
		rd->seg[k].edge = past->edge;
		memmove(&rd->seg[k + 1], &rd->seg[k + 2], (rd->nseg - k - 2) * sizeof rd->seg[0]);
		rd->nseg--;
		return;
	}
}

/* On 4 KB pages (or pages not said), past a second-level TLB's reach every
 * load also walks the page tables, which ADDS about one load of the level
 * the data is in (the tables of S bytes are S / 512: they sit in that level
 * or nearer), where the step to memory MULTIPLIES the latency. On a curve
 * of one size an octave a cache that ends an octave or less past the reach
 * (a 24M L3 whose TLB reaches 8M) shows it in one point between its
 * plateau and memory's (16M), read as the middle of the rise: where that
 * one point reads at most WALK_SHIFT times the level's latency (from
 * WALK_FROM up, memory at least WALK_APART times slower), it is the cache
 * with walks added, and the cache's size is read there. (A finer curve
 * shows such a stretch as a plateau of its own: walk_steps.) */
static void walk_shifted_edge(struct reader *rd)
{
	const struct latency_curves *c = rd->c;
	struct seg_level *last, *mem;
	size_t n = c->nsizes < LATENCY_MAX_SIZES ? c->nsizes : LATENCY_MAX_SIZES, i;
	if (pages_step_free(rd) || !c->random || rd->nseg < 2)
		return;
	last = &rd->seg[rd->nseg - 2];
	mem = &rd->seg[rd->nseg - 1];
	i = next_point(rd, last->i1, n);
	if (mem->cost < WALK_APART * last->cost || i >= mem->i0 || next_point(rd, i, n) != mem->i0 ||
	    rd->main[i] > WALK_SHIFT * last->cost || c->sizes[i] < WALK_FROM)
		return;
	rd->shifted_from = last->edge + 1;
	last->edge = i;
}

static void read_caches(struct reader *rd, struct latency_levels *out)
{
	const struct latency_curves *c = rd->c;
	struct seg_params p;
	size_t n = c->nsizes < LATENCY_MAX_SIZES ? c->nsizes : LATENCY_MAX_SIZES;
	seg_params_latency(&p);
	if (pages_step_free(rd))
		p.shallow = SEG_SHALLOW; /* else a shallow step may be a TLB's (a miss's few cycles) */
	out->shallow_read = p.shallow > 0;
	rd->nseg = seg_levels(c->sizes, rd->main, n, &p, rd->seg, LATENCY_MAX_LEVELS);
	walk_steps(rd);
	for (size_t k = 1; k < rd->nseg; k++)
		if (rd->seg[k].cost >= LATENCY_MEMORY_NS) {
			rd->nseg = k + 1; /* memory from here: later steps are not caches */
			break;
		}
	walk_shifted_edge(rd);
	if (rd->nseg < 2)
		return; /* one flat curve: no step, no memory told apart */
	for (size_t k = 0; k + 1 < rd->nseg && out->n < LATENCY_MAX_LEVELS; k++) {
		struct latency_level *l = &out->lv[out->n++];
		size_t next = next_point(rd, rd->seg[k].edge, n);
		memset(l, 0, sizeof *l);
		l->size = c->sizes[rd->seg[k].edge];
		l->step_end = c->sizes[next < n ? next : rd->seg[k + 1].i0];
		l->partial = next < n && rd->main[next] < LATENCY_PARTIAL * rd->seg[k + 1].cost;
		l->ns = rd->seg[k].cost - rd->offset;
		l->cycles = to_cycles(c, l->ns);
		l->from_random = c->random != NULL;
		if (rd->shifted_from && k + 2 == rd->nseg)
			l->walks_from = c->sizes[rd->shifted_from - 1];
	}
	read_memory(rd, out, n);
}

/* ---- phase 3: TLB steps ------------------------------------------------- */

static void add_tlb(struct latency_levels *out, int how, uint64_t size, uint64_t end,
		    unsigned page, double ns, double ghz)
{
	struct latency_level *l;
	for (size_t i = 0; i < out->n; i++)
		if (out->lv[i].tlb && out->lv[i].size <= 2 * size && size <= 2 * out->lv[i].size)
			return; /* told already, the other way */
	if (out->n >= LATENCY_MAX_LEVELS)
		return;
	l = &out->lv[out->n++];
	memset(l, 0, sizeof *l);
	l->tlb = how;
	l->size = size;
	l->step_end = end;
	l->entries = size / page;
	l->ns = ns;
	l->cycles = ghz > 0 ? ns * ghz : 0;
}

/* The walk step walk_steps() told apart, as a TLB level. */
static void tlb_from_walk(const struct reader *rd, struct latency_levels *out)
{
	const struct latency_curves *c = rd->c;
	if (rd->walk_ns > 0)
		add_tlb(out, LATENCY_TLB_WALK, c->sizes[rd->walk_edge], c->sizes[rd->walk_next],
			PAGE_4K, rd->walk_ns, c->ghz);
}

/* Both page sizes: from the first size on which the 4 KB-page chase stays
 * slower than the huge-page one, the difference is the TLB's (its reach is
 * the size before). */
static void tlb_from_pages(const struct reader *rd, struct latency_levels *out)
{
	const struct latency_curves *c = rd->c;
	size_t n = c->nsizes < LATENCY_MAX_SIZES ? c->nsizes : LATENCY_MAX_SIZES, first = n, prev = n;
	if (!rd->small || !rd->huge)
		return;
	for (size_t i = 0; i < n; i++) {
		double a = rd->small[i] + rd->offset, b = rd->huge[i] + rd->offset;
		if (!isfinite(a) || !isfinite(b) || a <= 0 || b <= 0)
			continue;
		if (first == n && a >= TLB_SLOWER * b && prev < n)
			first = i;
		else if (first < n && a < TLB_STAYS * b)
			first = n; /* back again: not a TLB's reach */
		if (first == n)
			prev = i;
	}
	if (first == n || prev == n || c->sizes[prev] > TLB_PAGES_MAX)
		return;
	{
		double lo = (double)c->sizes[first], hi = lo * exp2(2 * WINDOW_OCTAVES);
		double d = median_between(c, rd->small, lo, hi) - median_between(c, rd->huge, lo, hi);
		add_tlb(out, LATENCY_TLB_PAGES, c->sizes[prev], c->sizes[first], PAGE_4K, d, c->ghz);
	}
}

/* The stride index of stride s, or -1. */
static int stride_index(const struct latency_curves *c, unsigned s)
{
	for (size_t k = 0; k < c->nstrides; k++)
		if (c->strides[k] == s)
			return (int)k;
	return -1;
}

/* The smallest and the largest cache level's size (0 when none). */
static void cache_span(const struct latency_levels *out, uint64_t *lo, uint64_t *hi)
{
	*lo = *hi = 0;
	for (size_t i = 0; i < out->n; i++) {
		if (out->lv[i].tlb)
			continue;
		if (!*lo || out->lv[i].size < *lo)
			*lo = out->lv[i].size;
		if (out->lv[i].size > *hi)
			*hi = out->lv[i].size;
	}
}

/* Over the octave from size: the median of page - half (ns), and of that
 * as a share of page. */
static void half_lacks(const struct latency_curves *c, int kp, int kh, uint64_t size, double *ns,
		       double *share)
{
	double d[LATENCY_MAX_SIZES], q[LATENCY_MAX_SIZES], hi = 2.0 * (double)size;
	size_t n = 0;
	for (size_t i = 0; i < c->nsizes && i < LATENCY_MAX_SIZES; i++) {
		double a = c->ns[kp][i], b = c->ns[kh][i];
		if ((double)c->sizes[i] >= (double)size && (double)c->sizes[i] <= hi &&
		    isfinite(a) && isfinite(b) && a > 0) {
			d[n] = a - b;
			q[n++] = (a - b) / a;
		}
	}
	*ns = mt_median(d, n);
	*share = mt_median(q, n);
}

/* Seed 002's test on 4 KB pages: past a TLB's reach the page stride (one
 * load a page) misses on every load and half the page stride on every
 * other one, so the half stride runs faster by half a miss, and the page
 * stride steps up by a whole one; at a cache step every stride slows
 * alike. Read inside the caches only (beyond them, the fixed strides are
 * what the prefetchers make of them), the first TLB only (the next ones
 * hide in the caches' steps). */
static void tlb_from_strides(const struct reader *rd, struct latency_levels *out)
{
	const struct latency_curves *c = rd->c;
	int kp = stride_index(c, PAGE_4K), kh = stride_index(c, PAGE_4K / 2);
	uint64_t lo, hi;
	size_t prev = c->nsizes;
	if (c->huge == LATENCY_HUGE_ON || kp < 0 || kh < 0)
		return;
	cache_span(out, &lo, &hi);
	for (size_t i = 0; i < c->nsizes && i < LATENCY_MAX_SIZES && c->sizes[i] < hi; i++) {
		double a = c->ns[kp][i], b = c->ns[kh][i], lack, share, miss, jp;
		if (!isfinite(a) || !isfinite(b) || a <= 0)
			continue;
		half_lacks(c, kp, kh, c->sizes[i], &lack, &share);
		if (c->sizes[i] > lo && prev < c->nsizes && (a - b) / a >= TLB_SHARE &&
		    share >= TLB_SHARE) {
			miss = 2 * lack;
			jp = median_between(c, c->ns[kp], (double)c->sizes[i], 2.0 * (double)c->sizes[i]) -
			     median_between(c, c->ns[kp], (double)c->sizes[prev] / 2,
					    (double)c->sizes[prev]);
			if (jp >= TLB_STEP_LO * miss && jp <= TLB_STEP_HI * miss) {
				add_tlb(out, LATENCY_TLB_STRIDES, c->sizes[prev], c->sizes[i], PAGE_4K,
					miss, c->ghz);
				return;
			}
		}
		prev = i;
	}
}

/* Is there a TLB level told by the strides within TLB_SAME of size? (One
 * told by the page sizes came from another curve than the caches.) */
static int at_tlb(const struct latency_levels *out, uint64_t size)
{
	for (size_t t = 0; t < out->n; t++)
		if (out->lv[t].tlb == LATENCY_TLB_STRIDES &&
		    (double)size <= TLB_SAME * (double)out->lv[t].size &&
		    (double)out->lv[t].size <= TLB_SAME * (double)size)
			return 1;
	return 0;
}

/* The cache level just above size (its index), or out->n. */
static size_t cache_above(const struct latency_levels *out, uint64_t size)
{
	size_t up = out->n;
	for (size_t q = 0; q < out->n; q++)
		if (!out->lv[q].tlb && out->lv[q].size > size &&
		    (up == out->n || out->lv[q].size < out->lv[up].size))
			up = q;
	return up;
}

/* A cache level read at a TLB's reach is the TLB's step: it goes, and the
 * cache above it takes the latency read before the TLB misses began. */
static void drop_tlb_steps(struct latency_levels *out)
{
	size_t i = 0;
	while (i < out->n) {
		struct latency_level *l = &out->lv[i];
		size_t up;
		if (l->tlb || !at_tlb(out, l->size)) {
			i++;
			continue;
		}
		up = cache_above(out, l->size);
		if (up < out->n) {
			out->lv[up].ns = l->ns;
			out->lv[up].cycles = l->cycles;
		}
		memmove(l, l + 1, (out->n - i - 1) * sizeof *l);
		out->n--;
	}
}

/* ---- phase 4: way sizes ------------------------------------------------- */

/* Where fixed stride k steps near size (within WAY_NEAR): the step's edge
 * index, or -1; *vertical says whether it rose in one size step. */
static int stride_step_near(const struct latency_curves *c, size_t k, double size, int *vertical)
{
	struct seg_level s[LATENCY_MAX_LEVELS];
	struct seg_params p;
	size_t ns;
	seg_params_latency(&p);
	ns = seg_levels(c->sizes, c->ns[k], c->nsizes, &p, s, LATENCY_MAX_LEVELS);
	for (size_t j = 0; j + 1 < ns; j++) {
		double at = (double)c->sizes[s[j].edge];
		if (at * WAY_NEAR >= size && at <= size * WAY_NEAR) {
			*vertical = s[j + 1].i0 == s[j].edge + 1;
			return (int)s[j].edge;
		}
	}
	return -1;
}

/* The way size of cache level l where the fixed strides support it (seed
 * 002): a stride at most the way size steps at the level's size, so the
 * way is at least the largest such stride; a stride past it reaches only
 * some of the sets, so its step moves right, twice as far each time the
 * stride doubles, and the way is at most half the first stride that moved
 * it. When no stride moved it and at least two strides rose in one and
 * the same size step there, the way is at most that step's width (the
 * seed's reading of a vertical step). Otherwise both stay 0: not
 * measurable here. */
/* The last size fixed stride k measured, 0 when none. */
static uint64_t stride_reach(const struct latency_curves *c, size_t k)
{
	uint64_t last = 0;
	for (size_t i = 0; i < c->nsizes && i < LATENCY_MAX_SIZES; i++)
		if (isfinite(c->ns[k][i]) && c->ns[k][i] > 0)
			last = c->sizes[i];
	return last;
}

static void way_size(const struct latency_curves *c, struct latency_level *l)
{
	uint64_t wmin = 0, wmax = 0, width = 0;
	unsigned nvertical = 0;
	double at = (double)l->size; /* where the step is expected */
	for (size_t k = 0; k < c->nstrides; k++) {
		int vertical = 0, e;
		if (stride_reach(c, k) < 2 * l->size && k < 8 * sizeof l->missing) {
			l->missing |= 1u << k; /* too short to show this level's step */
			continue;
		}
		e = stride_step_near(c, k, at, &vertical);
		if (e < 0 && (e = stride_step_near(c, k, 2 * at, &vertical)) >= 0) {
			at *= 2; /* moved: this stride is past the way size */
			if (!wmax)
				wmax = c->strides[k] / 2;
		}
		if (e < 0)
			continue;
		l->nstrides++;
		if (at != (double)l->size || (size_t)e + 1 >= c->nsizes)
			continue;
		wmin = c->strides[k];
		if (vertical && width && c->sizes[e + 1] - c->sizes[e] != width)
			l->inconsistent = 1; /* two vertical steps of different widths */
		if (vertical && (!width || c->sizes[e + 1] - c->sizes[e] == width)) {
			width = c->sizes[e + 1] - c->sizes[e];
			nvertical++;
		}
	}
	if (!wmax && nvertical >= 2)
		wmax = width;
	if (wmin && wmax && wmax < wmin)
		l->inconsistent = 1; /* a stride past the way stepped in place */
	if (!wmin || !wmax || wmax < wmin || l->size / wmin > WAY_MAX_WAYS)
		return;
	l->way_min = wmin;
	l->way_max = wmax;
}

/* ---- phase 5: page walks ------------------------------------------------ */

/* The 4 KB-page chase less the huge-page one, medians over [lo, hi]. */
static double walk_between(const struct reader *rd, double lo, double hi)
{
	return median_between(rd->c, rd->small, lo, hi) - median_between(rd->c, rd->huge, lo, hi);
}

/* Both page sizes: what the walks add in each cache level (over its top
 * octave, where it holds the most pages, from the step before it at the
 * lowest), in memory (its window) and at the last size. */
static void read_walks(const struct reader *rd, struct latency_levels *out)
{
	const struct latency_curves *c = rd->c;
	double lo = (double)out->first_size;
	size_t last = c->nsizes < LATENCY_MAX_SIZES ? c->nsizes : LATENCY_MAX_SIZES;
	out->memory_walk_ns = out->last_walk_ns = NAN;
	for (size_t i = 0; i < out->n; i++)
		out->walk_ns[i] = NAN;
	if (!rd->small || !rd->huge)
		return;
	out->has_walks = 1;
	for (size_t i = 0; i < out->n; i++) {
		if (out->lv[i].tlb)
			continue;
		out->walk_ns[i] = walk_between(rd, fmax(lo, (double)out->lv[i].size / 2),
					       (double)out->lv[i].size);
		lo = (double)out->lv[i].step_end;
	}
	if (out->has_memory && out->memory_points)
		out->memory_walk_ns = walk_between(rd, (double)out->memory_at, (double)out->memory_to);
	while (last > 0 && (!isfinite(rd->small[last - 1]) || !isfinite(rd->huge[last - 1])))
		last--;
	if (last > 0 && c->sizes[last - 1] == out->last_size)
		out->last_walk_ns = rd->small[last - 1] - rd->huge[last - 1];
}

/* ---- phase 6: order and numbers ----------------------------------------- */

static int by_size(const void *a, const void *b)
{
	const struct latency_level *x = a, *y = b;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->tlb - y->tlb;
}

static void number_levels(struct latency_levels *out)
{
	int cache = 0, tlb = 0;
	qsort(out->lv, out->n, sizeof *out->lv, by_size);
	for (size_t i = 0; i < out->n; i++)
		out->lv[i].level = out->lv[i].tlb ? ++tlb : ++cache;
}

size_t latency_detect_curves(const struct latency_curves *c, struct latency_levels *out)
{
	struct reader rd;
	memset(out, 0, sizeof *out);
	memset(&rd, 0, sizeof rd);
	rd.c = c;
	if (!c->sizes || c->nsizes < 2 || choose_main(c, &rd, out) < 0)
		return 0;
	out->nstrides = c->nstrides < LATENCY_MAX_STRIDES ? c->nstrides : LATENCY_MAX_STRIDES;
	if (out->nstrides) /* a curve with no fixed strides may have no array of them */
		memcpy(out->strides, c->strides, out->nstrides * sizeof *out->strides);
	read_caches(&rd, out);
	if (out->n == 0)
		return 0;
	tlb_from_walk(&rd, out);
	tlb_from_pages(&rd, out);
	tlb_from_strides(&rd, out);
	drop_tlb_steps(out);
	for (size_t i = 0; i < out->n; i++) /* caches' ways, and TLBs' (in pages) */
		way_size(c, &out->lv[i]);
	number_levels(out);
	read_walks(&rd, out);
	return out->n;
}

size_t latency_main_curve(const struct latency_params *p)
{
	if (p->random && p->other && p->hugepages != LATENCY_HUGE_ON)
		return p->nstrides + 1;
	return p->random || !p->nstrides ? p->nstrides : p->nstrides - 1;
}

/* The curve index (as latency_point_doubtful's) of r's main curve. */
static size_t main_index(const struct latency_result *r)
{
	int other = r->has_random && r->has_other && !(r->other_share >= 0 && r->other_share < 0.5);
	if (other)
		return r->hugepages == LATENCY_HUGE_ON ? r->nstrides : r->nstrides + 1;
	return r->has_random || !r->nstrides ? r->nstrides : r->nstrides - 1;
}

double latency_main_ns(const struct latency_result *r, size_t i)
{
	size_t k = main_index(r);
	if (i >= r->nsizes || i >= LATENCY_MAX_SIZES)
		return NAN;
	if (k == r->nstrides + 1)
		return r->other_ns[i];
	if (k == r->nstrides)
		return r->has_random ? r->random_ns[i] : (double)NAN;
	return r->ns[k][i];
}

/* A copy of the main curve v of r (curve index k) without the points r does
 * not trust (their tries still disagree: another task had the CPU), into
 * out, where that leaves at least three quarters of its measured points;
 * else v itself. Returns the curve to read. */
static const double *trusted_only(const struct latency_result *r, size_t k, const double *v,
				  double *out)
{
	size_t n = r->nsizes < LATENCY_MAX_SIZES ? r->nsizes : LATENCY_MAX_SIZES, have = 0, doubt = 0;
	for (size_t i = 0; i < n; i++) {
		out[i] = v[i];
		if (!isfinite(v[i]))
			continue;
		have++;
		if (latency_point_doubtful(r, k, i)) {
			out[i] = NAN;
			doubt++;
		}
	}
	return doubt && 4 * (have - doubt) >= 3 * have ? out : v;
}

size_t latency_detect(const struct latency_result *r, struct latency_levels *out)
{
	const double *ns[LATENCY_MAX_STRIDES];
	double trusted[LATENCY_MAX_SIZES];
	struct latency_curves c;
	size_t k = main_index(r);
	for (size_t s = 0; s < r->nstrides; s++)
		ns[s] = r->ns[s];
	memset(&c, 0, sizeof c);
	c.sizes = r->sizes;
	c.nsizes = r->nsizes;
	c.strides = r->strides;
	c.nstrides = r->nstrides;
	c.ns = ns;
	c.random = r->has_random ? r->random_ns : NULL;
	c.over_l1 = r->ns_over_l1;
	/* a chase the kernel put mostly on 4 KB pages is not the huge-page one */
	c.other = r->has_random && r->has_other && !(r->other_share >= 0 && r->other_share < 0.5)
			  ? r->other_ns
			  : NULL;
	c.huge = r->hugepages;
	c.ghz = r->ghz;
	c.tlb_locality = r->tlb_locality;
	c.memory_ref_ns = r->memory_probe_ns;
	/* the levels from the points the run trusts */
	if (k == r->nstrides + 1 && c.other)
		c.other = trusted_only(r, k, c.other, trusted);
	else if (k == r->nstrides && c.random)
		c.random = trusted_only(r, k, c.random, trusted);
	else if (k < r->nstrides)
		ns[k] = trusted_only(r, k, ns[k], trusted);
	return latency_detect_curves(&c, out);
}

size_t latency_segment(const uint64_t *sizes, const double *v, size_t n,
		       struct latency_plateau *out, size_t cap)
{
	struct seg_level s[LATENCY_MAX_LEVELS];
	struct seg_params p;
	size_t ns;
	seg_params_latency(&p);
	ns = seg_levels(sizes, v, n, &p, s, LATENCY_MAX_LEVELS);
	if (ns > cap)
		ns = cap;
	for (size_t k = 0; k < ns; k++) {
		out[k].i0 = s[k].i0;
		out[k].i1 = s[k].i1;
		out[k].level = s[k].cost;
	}
	return ns;
}
